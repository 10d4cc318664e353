#!/usr/bin/env bash
# Overhead of the FEAT_SPE emulation in QEMU (TCG).
#
# usage: tools/bench/qemu-overhead.sh [runs]   (default: 3 runs, best kept)
#
# Runs the same bare-metal guest workload (tools/bench/qemu-overhead/
# workload.c, about 3 s) under:
#   debian-7.2   Debian's unpatched qemu-system-aarch64 (qemu-system-arm)
#   unpatched    QEMU 10.0.x from the same source, built without the series
#                (tools/qemu/build.sh --unpatched): the reference
#   spe-off      patched QEMU, SPE present but profiling not enabled
#   on@4096, on@1024, on@256
#                patched QEMU, EL1 sampled at that interval into a buffer
#                that the guest's PMBIRQ handler recycles
# and prints wall-clock seconds and the ratio to "unpatched" (and to
# debian-7.2) side by side. Targets: spe-off <= 1.02, on@4096 <= 1.3,
# on@1024 <= 1.6.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
SPE_LOG_TAG=qemu-bench
# shellcheck source=../lib/apt.sh
. "$repo/tools/lib/apt.sh"

runs=${1:-3}
spe_need_host_pkgs qemu-system-arm gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu

patched=$("$repo/tools/qemu/build.sh" | tail -n 1)
unpatched=$("$repo/tools/qemu/build.sh" --unpatched | tail -n 1)
debian=/usr/bin/qemu-system-aarch64

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cf="$repo/tools/qemu/conformance"
for i in 0 256 1024 4096; do
	aarch64-linux-gnu-gcc -O2 -ffreestanding -nostdlib -nostartfiles -static \
		-mgeneral-regs-only -march=armv8.2-a -Wall -Werror \
		-Wl,--no-warn-rwx-segments -DINTERVAL=$i -DITERS=300000 \
		-T "$cf/link.ld" -o "$work/w$i.elf" "$cf/start.S" \
		"$here/qemu-overhead/workload.c" ||
		spe_die "could not build the workload"
done

# best-of-N wall-clock seconds for: qemu cpu elf
measure() {
	local q=$1 cpu=$2 elf=$3 best="" t s e rc
	for _ in $(seq "$runs"); do
		s=$(date +%s.%N)
		rc=0
		timeout 600 "$q" -M virt,gic-version=2 -cpu "$cpu" -m 256M \
			-nographic -nic none -monitor none -serial none \
			-semihosting -kernel "$elf" </dev/null >/dev/null 2>&1 || rc=$?
		e=$(date +%s.%N)
		[ "$rc" -eq 0 ] || spe_die "$q -cpu $cpu $elf failed (exit $rc)"
		t=$(echo "$e - $s" | bc -l)
		if [ -z "$best" ] || [ "$(echo "$t < $best" | bc -l)" = 1 ]; then
			best=$t
		fi
	done
	printf '%.3f' "$best"
}

spe_need_host_pkgs bc
spe_log "measuring ($runs runs each, best kept)"
declare -A secs
secs[debian-7.2]=$(measure "$debian" max "$work/w0.elf")
secs[unpatched]=$(measure "$unpatched" max "$work/w0.elf")
secs[spe-off]=$(measure "$patched" max "$work/w0.elf")
secs[on@4096]=$(measure "$patched" max "$work/w4096.elf")
secs[on@1024]=$(measure "$patched" max "$work/w1024.elf")
secs[on@256]=$(measure "$patched" max "$work/w256.elf")

printf '%-12s %9s %14s %14s %8s\n' config seconds "vs unpatched" "vs debian-7.2" target
for c in debian-7.2 unpatched spe-off on@4096 on@1024 on@256; do
	case $c in
	spe-off) tgt="<=1.02" ;;
	on@4096) tgt="<=1.30" ;;
	on@1024) tgt="<=1.60" ;;
	*) tgt="-" ;;
	esac
	printf '%-12s %9s %14.3f %14.3f %8s\n' "$c" "${secs[$c]}" \
		"$(echo "${secs[$c]} / ${secs[unpatched]}" | bc -l)" \
		"$(echo "${secs[$c]} / ${secs[debian-7.2]}" | bc -l)" "$tgt"
done
echo "# patched:   $patched"
echo "# unpatched: $unpatched"
echo "# debian:    $($debian --version | head -n 1)"
