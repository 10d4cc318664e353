#!/usr/bin/env bash
# `make run`: boot the SPE-emulating QEMU with Debian's kernel and perf, load
# arm_spe_perf.ko, record a program with `perf record -e arm_spe//` and show
# perf report, a few samples decoded by perf script, and spe-decode's view
# of the raw trace. First use fetches and builds what it needs (QEMU, the
# kernel, Debian's arm64 perf), with progress on stderr.
#
#   tools/perf/run-demo.sh [--prog PATH [--args "ARGS"]] [--keep FILE]
#                          [--kernel ID] [--qemu PATH] [--seconds N]
#                          [--preset MODEL]
#
# --prog: a static arm64 program to record instead of the bundled
#   spe_workload (selftests/arm_spe/perf/spe_workload.c, N seconds, default
#   0.5); --args: its arguments. --keep: copy the guest's perf.data to FILE
#   on the host (sent gzip'ed and base64-encoded over the console).
# --qemu (or $QEMU): the SPE-enabled emulator; default tools/qemu/build.sh's.
# --preset: record on that Neoverse CPU model (a line of
#   tools/qemu/neoverse.tsv: neoverse-n1, -v1, -n2, -v2), FEAT_SPE as the
#   core has it (tools/qemu/README.md), booted with kpti=0 as SPE needs on
#   N1 and V1.
# Make: make run [PROG=./a.out] [ARGS="..."] [KEEP=perf.data] [PRESET=...]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
SPE_LOG_TAG=run
# shellcheck source=../lib/apt.sh
. "$top/tools/lib/apt.sh"
prog="" args="" keep="" kid="" qemu=${QEMU:-} secs=0.5 preset=
while [ $# -gt 0 ]; do
	case $1 in
	--prog) prog=$2; shift ;;
	--args) args=$2; shift ;;
	--keep) keep=$2; shift ;;
	--kernel) kid=$2; shift ;;
	--qemu) qemu=$2; shift ;;
	--seconds) secs=$2; shift ;;
	--preset) preset=$2; shift ;;
	-h|--help) sed -n '2,20s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) spe_die "unknown option $1 (see --help)" ;;
	esac
	shift
done
t0=$(date +%s)
cpu=${RUN_CPU:-max,midr=0x414fd0c1,spe-lds=on} append=()
# The presets are the CPU models of tools/qemu/neoverse.tsv, the list the
# conformance suite and the selftests' probe matrix test.
if [ -n "$preset" ]; then
	presets=$(awk '!/^#/ && NF { print $1 }' "$top/tools/qemu/neoverse.tsv")
	grep -qxF -- "$preset" <<<"$presets" ||
		spe_die "unknown preset '$preset' (one of: ${presets//$'\n'/, })"
	cpu=$preset append=(--append kpti=0)
fi
[ -n "$kid" ] || kid=$("$top/tools/kernels/fetch.sh" --default)
if [ -n "$prog" ]; then
	[ -f "$prog" ] || spe_die "no program at $prog"
	file -L "$prog" 2>/dev/null | grep -q 'ARM aarch64' ||
		spe_die "$prog is not an arm64 executable (build it with aarch64-linux-gnu-gcc -static)"
	file -L "$prog" | grep -q 'dynamically linked' &&
		spe_log "warning: $prog is dynamically linked; the guest has perf's libraries only (glibc etc.), link it -static if it fails"
fi
if [ -z "$qemu" ]; then
	spe_log "SPE-enabled QEMU (tools/qemu/build.sh; the first build takes several minutes)"
	qemu=$("$top/tools/qemu/build.sh" | tail -n1)
fi
[ -x "$qemu" ] || spe_die "no QEMU at '$qemu'"
spe_log "module, guest programs and Debian's arm64 perf for kernel $kid"
mkdir -p "$top/build/perf"
stage=$(mktemp -d "$top/build/perf/demo-$kid.XXXXXX")
trap 'rm -rf "$stage"' EXIT
mapfile -t dirs < <("$here/build.sh" "$kid" "$stage")
rootfs=${dirs[1]:-}
[ -d "$rootfs" ] || spe_die "tools/perf/build.sh failed"
cp "$here/demo-guest.sh" "$stage/"

files=(--file "$rootfs/.:/" --file "$stage/.:/tests/")
if [ -n "$prog" ]; then
	files+=(--file "$prog:/tests/user/")
	cmd="/tests/user/$(basename "$prog") $args"
else
	cmd="/tests/spe_workload $secs"
fi
mkdir -p "$top/build/perf"
list=$top/build/perf/demo.list
log=$top/build/perf/demo.log
printf 'demo\t600\t./demo-guest.sh %s %s\n' "$([ -n "$keep" ] && echo 1 || echo 0)" "$cmd" >"$list"
spe_log "booting the emulated SPE machine (log: ${log#"$top/"})"
set +e
# The CPU: -cpu max with the Data Source packet, identifying itself as a
# Neoverse N1 so that perf names the memory-hierarchy model's data sources
# as on N1 (the perf mem section); or the preset's CPU model.
"$top/tools/vm/run.sh" --suite demo --kernel "$kid" --qemu "$qemu" --mem 2048 --timeout 900 \
	--cpu "$cpu" "${append[@]}" \
	--list "$list" --log "$log" "${files[@]}" >"$top/build/perf/demo.tap" 2>&1
rc=$?
set -e
# The guest's output of the demo, without the console's carriage returns
# and without the perf.data payload.
tr -d '\r' <"$log" | awk '
	/^@@SPE@@ begin demo/ { on = 1; next }
	/^@@SPE@@ end demo/ { on = 0 }
	/^@@PERFDATA-BEGIN@@/ { skip = 1; next }
	/^@@PERFDATA-END@@/ { skip = 0; next }
	on && !skip'
if [ -n "$keep" ]; then
	make -s -C "$top/selftests/arm_spe/perf" OUT="$top/build/perf/host" host >/dev/null 2>&1 || true
	tr -d '\r' <"$log" | awk '/^@@PERFDATA-END@@/ { on = 0 } on { print } /^@@PERFDATA-BEGIN@@/ { on = 1 }' |
		base64 -d | gzip -dc >"$keep.tmp" 2>/dev/null && [ -s "$keep.tmp" ] &&
		mv "$keep.tmp" "$keep" && spe_log "perf.data kept in $keep ($(du -h "$keep" | cut -f1)); on the host:" &&
		spe_log "  build/perf/host/perf_aux_extract $keep aux.bin && tools/decoder/build/host/spe-decode --summary aux.bin" ||
		{ rm -f "$keep.tmp"; spe_log "could not recover perf.data from the console log"; rc=1; }
fi
if [ $rc -ne 0 ]; then
	grep -E '^not ok' "$top/build/perf/demo.tap" >&2 || tail -n 5 "$top/build/perf/demo.tap" >&2
	spe_log "the demo failed (guest log: ${log#"$top/"})"
	exit 1
fi
spe_log "done in $(($(date +%s) - t0))s"
