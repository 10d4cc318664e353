#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# `make run PCSR=1`: boot the emulated virt machine with a PC sample frame
# per CPU (-M virt,pcsr=on), load arm_pcsr.ko, run pcsr_workload pinned to
# CPU 1, record it from CPU 0 with `perf record -e arm_pcsr// -C 1 --
# sleep 2` and print perf report and the check of perf script
# (perf_flow.sh). Documentation/pcsr.rst.
#
#   selftests/arm_pcsr/demo.sh [--qemu PATH] [--kernel ID]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
SPE_LOG_TAG=run-pcsr
# shellcheck source=../../tools/lib/apt.sh
. "$top/tools/lib/apt.sh"
qemu=${QEMU:-} kid=""
while [ $# -gt 0 ]; do
	case $1 in
	--qemu) qemu=$2; shift ;;
	--kernel) kid=$2; shift ;;
	*) spe_die "unknown option $1 (usage: demo.sh [--qemu PATH] [--kernel ID])" ;;
	esac
	shift
done
[ -n "$kid" ] || kid=$("$top/tools/kernels/fetch.sh" --default)
[ -n "$qemu" ] || qemu=$("$top/tools/qemu/build.sh" | tail -n1)
out=$top/build/pcsr-demo
mkdir -p "$out"
spe_log "arm_pcsr.ko, the workload and Debian's arm64 perf for kernel $kid"
"$top/tools/kernels/kmake.sh" "$kid" modules >"$out/module.log" 2>&1 ||
	spe_die "the module does not build ($out/module.log)"
make -s -C "$here" CROSS_COMPILE=aarch64-linux-gnu- OUTPUT="$out/bin" >"$out/build.log" 2>&1 ||
	spe_die "the workload does not build ($out/build.log)"
rootfs=$("$top/tools/vm/perf-rootfs.sh" "$kid" | tail -n1)
printf 'load\t30\tinsmod ./arm_pcsr.ko\npcsr_demo\t300\t./perf_flow.sh\n' >"$out/list"
spe_log "booting (-M virt,pcsr=on, 3 CPUs, nohz_full=1)"
"$top/tools/vm/run.sh" --suite pcsr-demo --kernel "$kid" --qemu "$qemu" --smp 3 --mem 2048 \
	--machine pcsr=on --append nohz_full=1 --timeout 600 --list "$out/list" \
	--log "$out/console.log" --file "$top/build/$kid/arm_pcsr.ko:/tests/" \
	--file "$out/bin/pcsr_workload:/tests/" --file "$here/perf_flow.sh:/tests/" \
	--file "$rootfs/.:/" >"$out/tap.log" || true
sed -n '/^@@SPE@@ begin pcsr_demo/,/^@@SPE@@ end pcsr_demo/p' "$out/console.log" |
	grep -v '^@@SPE@@' | tr -d '\r'
tail -n1 "$out/tap.log"
