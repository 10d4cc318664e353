#!/usr/bin/env bash
# Overhead of the FEAT_SPE emulation in QEMU (TCG).
#
# usage: tools/bench/qemu-overhead.sh [runs]   (default: 3 rounds, best kept)
#
# Runs the same bare-metal guest workload (tools/bench/qemu-overhead/
# workload.c, about 3 s) under:
#   debian-7.2   Debian's unpatched qemu-system-aarch64 (qemu-system-arm)
#   unpatched    QEMU 10.0.x from the same source, built without the series
#                (tools/qemu/build.sh --unpatched): the reference
#   spe-off      patched QEMU, SPE present but profiling not enabled
#   on@4096, on@1024, on@256
#                patched QEMU, EL1 sampled at that interval into a buffer
#                that the guest's PMBIRQ handler recycles, with the defaults:
#                strict mode (spe-strict=on: records in flight, PSB CSYNC,
#                DSB and ISB calling the model) and the memory-hierarchy
#                model (spe-model=cache: every load and store calls it)
#   flat@4096, flat@1024
#                the same with spe-model=flat (constant latencies)
#   serial@4096, serial@1024
#                the same with spe-strict=off (the serial model)
# and prints CPU seconds (user + sys of the QEMU process: the primary
# figure on this shared machine) and wall-clock seconds with their ratios
# to "unpatched" (and the CPU ratio to debian-7.2) side by side.
# Targets: spe-off <= 1.02, on@1024 <= 3 (with the memory model),
# flat@4096 <= 1.3, flat@1024 <= 1.6.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
SPE_LOG_TAG=qemu-bench
# shellcheck source=../lib/apt.sh
. "$repo/tools/lib/apt.sh"

runs=${1:-3}
spe_need_host_pkgs qemu-system-arm gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu bc time

# QEMU_PATCHED / QEMU_UNPATCHED: binaries to measure instead of building
# them (e.g. a development tree's).
patched=${QEMU_PATCHED:-$("$repo/tools/qemu/build.sh" | tail -n 1)}
unpatched=${QEMU_UNPATCHED:-$("$repo/tools/qemu/build.sh" --unpatched | tail -n 1)}
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

# The smaller of two decimal numbers, $1 empty meaning none yet.
lower() {
	if [ -z "$1" ] || [ "$(echo "$2 < $1" | bc -l)" = 1 ]; then echo "$2"; else echo "$1"; fi
}

# One run of configuration $1 (QEMU $2, ELF $3, -cpu $4): the lowest wall
# and CPU seconds seen so far are kept. CPU time (user + sys) of the QEMU
# process is the primary figure: the machine is shared, and wall-clock
# time also measures the other users' load.
declare -A wall cpu
run_once() {
	local name=$1 q=$2 elf=$3 opt=${4:-max} w u sy rc=0
	/usr/bin/time -o "$work/time" -f '%e %U %S' \
		timeout 600 "$q" -M virt,gic-version=2 -cpu "$opt" -m 256M \
		-nographic -nic none -monitor none -serial none \
		-semihosting -kernel "$elf" </dev/null >/dev/null 2>&1 || rc=$?
	[ "$rc" -eq 0 ] || spe_die "$q -cpu $opt $elf failed (exit $rc)"
	read -r w u sy <"$work/time"
	cpu[$name]=$(lower "${cpu[$name]:-}" "$(echo "$u + $sy" | bc -l)")
	wall[$name]=$(lower "${wall[$name]:-}" "$w")
}

# Round robin, one run of each configuration a round, best of the rounds:
# a spell of load from other users of the host (seen here: one
# configuration's three back-to-back runs all 50 % slower) then weighs on
# several configurations a little instead of on one a lot.
# name, QEMU, workload interval, -cpu: the table the rounds run and print
cfgs="debian-7.2 $debian 0 max
unpatched $unpatched 0 max
spe-off $patched 0 max
on@4096 $patched 4096 max
on@1024 $patched 1024 max
on@256 $patched 256 max
flat@4096 $patched 4096 max,spe-model=flat
flat@1024 $patched 1024 max,spe-model=flat
serial@4096 $patched 4096 max,spe-strict=off
serial@1024 $patched 1024 max,spe-strict=off"
configs=$(cut -d' ' -f1 <<<"$cfgs")
round() {
	local name q i opt
	while read -r name q i opt; do
		run_once "$name" "$q" "$work/w$i.elf" "$opt"
	done <<<"$cfgs"
}
spe_log "measuring ($runs rounds of one run each, best kept)"
for r in $(seq "$runs"); do
	round
	spe_log "round $r of $runs done"
done
for c in $configs; do
	spe_log "$c: wall ${wall[$c]} s, cpu ${cpu[$c]} s"
done

printf '%-11s %8s %8s %10s %10s %10s %7s\n' config cpu-s wall-s \
	"cpu/unp" "wall/unp" "cpu/deb72" target
for c in $configs; do
	case $c in
	spe-off) tgt="<=1.02" ;;
	on@1024) tgt="<=3.00" ;;
	flat@4096) tgt="<=1.30" ;;
	flat@1024) tgt="<=1.60" ;;
	*) tgt="-" ;;
	esac
	printf '%-11s %8.2f %8.2f %10.3f %10.3f %10.3f %7s\n' "$c" \
		"${cpu[$c]}" "${wall[$c]}" \
		"$(echo "${cpu[$c]} / ${cpu[unpatched]}" | bc -l)" \
		"$(echo "${wall[$c]} / ${wall[unpatched]}" | bc -l)" \
		"$(echo "${cpu[$c]} / ${cpu[debian-7.2]}" | bc -l)" "$tgt"
done
echo "# patched:   $patched"
echo "# unpatched: $unpatched"
echo "# debian:    $($debian --version | head -n 1)"
