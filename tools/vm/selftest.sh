#!/usr/bin/env bash
# Self-test of the VM harness: each case boots a guest that goes wrong in
# one way (an oops, with and without printk timestamps, a panic, a hang, a
# lost result line, QEMU failing after the guest's last line) and checks
# that run.sh reports that failure, for the right reason.
#   selftest.sh [--qemu PATH] [--kernel ID]
# Prints TAP and ends with "harness: N passed, N failed, N skipped".
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
kid="" qemu_args=()
while [ $# -gt 0 ]; do
	case $1 in
	--qemu) qemu_args=(--qemu "$2"); shift ;;
	--kernel) kid=$2; shift ;;
	*) echo "selftest.sh: unknown option $1" >&2; exit 2 ;;
	esac
	shift
done
[ -n "$kid" ] || kid=$("$top/tools/kernels/fetch.sh" --default)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck source=../lib/tap.sh
. "$top/tools/lib/tap.sh"

# The module that oopses in its init, built for the guest's kernel.
oops_ko=""
if KMOD_SRC=$here/selftest/oops_init "$top/tools/kernels/kmake.sh" "$kid" modules \
	>"$work/oops-build.log" 2>&1; then
	oops_ko=$(find "$top/build" -path "*/oops_init/oops_init.ko" -newer "$here/selftest/oops_init/Kbuild" | head -n1)
fi

run_args=()
# expect NAME TIMEOUT PATTERN [FILE] -- LIST_LINES...: boot a guest (in the
# background, one vCPU, all cases at once) that must fail, with a report
# matching PATTERN (extended regexes, one per line, all must match);
# verdict() reads the outcome.
cases=()
expect() {
	local name=$1 tmo=$2 pat=$3 file=${4:-}
	shift 4
	[ "${1:-}" = "--" ] && shift
	printf '%s\n' "$@" >"$work/$name.list"
	printf '%s\n' "$pat" >"$work/$name.pat"
	local args=(--suite "harness-$name" --list "$work/$name.list" --kernel "$kid" --timeout "$tmo"
		--smp 1 --log "$top/build/vm/harness-$name.log" "${qemu_args[@]}")
	[ -n "$file" ] && args+=(--file "$file")
	# run_args before "expect": more run.sh options for this case
	args+=("${run_args[@]}")
	("$here/run.sh" "${args[@]}" >"$work/$name.out" 2>&1; echo $? >"$work/$name.rc") &
	cases+=("$name")
}
verdict() {
	local name=$1 rc
	local ok=1 p
	rc=$(cat "$work/$name.rc")
	while read -r p; do
		grep -Eq -- "$p" "$work/$name.out" || ok=0
	done <"$work/$name.pat"
	if [ "$rc" -ne 0 ] && [ "$ok" = 1 ]; then
		tap_ok "harness/$name is reported as a failure"
	else
		tap_not_ok "harness/$name is reported as a failure (run.sh exit $rc)"
		sed 's/^/# /' "$work/$name.out" | tail -n 12
	fi
}

T=$'\t'
tap_begin harness
if [ -n "$oops_ko" ]; then
	expect oops-in-init 120 '^not ok .*kernel log clean # .*Oops' "$oops_ko:/tests/oops_init.ko" -- \
		"oops${T}60${T}insmod /tests/oops_init.ko; echo insmod returned \$?"
	# ... and without printk timestamps (printk.time=0 after run.sh's =1):
	# the guest's dump of the kernel log is read whole.
	run_args=(--append printk.time=0)
	expect oops-untimed 120 '^not ok .*kernel log clean # .*Oops' "$oops_ko:/tests/oops_init.ko" -- \
		"oops${T}60${T}insmod /tests/oops_init.ko; echo insmod returned \$?"
	run_args=()
else
	tap_not_ok "harness/oops-in-init: could not build the oopsing module"
	sed 's/^/# /' "$work/oops-build.log" | tail -n 12
fi
expect panic 120 '^not ok .*guest completed' "" -- \
	"panic${T}60${T}echo c >/proc/sysrq-trigger" "after${T}10${T}true"
# ... and its watchdog saved the vCPU registers (a PC) before stopping it.
expect hang 25 '^not ok .*guest completed # the host stopped the guest .*vCPU registers in'$'\n''^saved PC=[0-9a-f]{16}' "" -- \
	"hang${T}600${T}sleep 600"
expect missing-result 120 '^not ok .*/gone # no result line' "" -- \
	"gone${T}60${T}poweroff -f" "after${T}10${T}true"
# A QEMU that fails after the guest's last line (an abort at power-off):
# this one runs the real QEMU, then exits 3.
real_qemu=${qemu_args[1]:-${QEMU:-$(command -v qemu-system-aarch64)}}
printf '#!/bin/sh\n"%s" "$@"\nexit 3\n' "$real_qemu" >"$work/qemu-exit3"
chmod +x "$work/qemu-exit3"
run_args=(--qemu "$work/qemu-exit3")
expect qemu-exit 120 '^not ok .*guest completed # QEMU exited with status 3, after' "" -- \
	"fine${T}10${T}true"
run_args=()
wait
grep -m1 -o ' PC=[0-9a-f]*' "$top/build/vm/harness-hang.log.regs" 2>/dev/null |
	sed 's/^ /saved /' >>"$work/hang.out" || true
for c in "${cases[@]}"; do verdict "$c"; done
tap_end
