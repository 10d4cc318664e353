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

# best-of-N "wall cpu" seconds for: qemu cpu elf. CPU time (user + sys)
# of the QEMU process is the primary figure: the machine is shared, and
# wall-clock time also measures the other users' load.
measure() {
	local q=$1 cpu=$2 elf=$3 bw="" bc="" w c rc
	for _ in $(seq "$runs"); do
		rc=0
		/usr/bin/time -o "$work/time" -f '%e %U %S' \
			timeout 600 "$q" -M virt,gic-version=2 -cpu "$cpu" -m 256M \
			-nographic -nic none -monitor none -serial none \
			-semihosting -kernel "$elf" </dev/null >/dev/null 2>&1 || rc=$?
		[ "$rc" -eq 0 ] || spe_die "$q -cpu $cpu $elf failed (exit $rc)"
		read -r w u sy <"$work/time"
		c=$(echo "$u + $sy" | bc -l)
		if [ -z "$bc" ] || [ "$(echo "$c < $bc" | bc -l)" = 1 ]; then bc=$c; fi
		if [ -z "$bw" ] || [ "$(echo "$w < $bw" | bc -l)" = 1 ]; then bw=$w; fi
	done
	echo "$bw $bc"
}

spe_log "measuring ($runs runs each, best kept)"
configs="debian-7.2 unpatched spe-off on@4096 on@1024 on@256 flat@4096 flat@1024 serial@4096 serial@1024"
declare -A wall cpu
run_cfg() { # name qemu elf [cpu]
	local r
	r=$(measure "$2" "${4:-max}" "$3")
	wall[$1]=${r% *}
	cpu[$1]=${r#* }
	spe_log "$1: wall ${wall[$1]} s, cpu ${cpu[$1]} s"
}
run_cfg debian-7.2 "$debian" "$work/w0.elf"
run_cfg unpatched "$unpatched" "$work/w0.elf"
run_cfg spe-off "$patched" "$work/w0.elf"
run_cfg on@4096 "$patched" "$work/w4096.elf"
run_cfg on@1024 "$patched" "$work/w1024.elf"
run_cfg on@256 "$patched" "$work/w256.elf"
run_cfg flat@4096 "$patched" "$work/w4096.elf" max,spe-model=flat
run_cfg flat@1024 "$patched" "$work/w1024.elf" max,spe-model=flat
run_cfg serial@4096 "$patched" "$work/w4096.elf" max,spe-strict=off
run_cfg serial@1024 "$patched" "$work/w1024.elf" max,spe-strict=off

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
