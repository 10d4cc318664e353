#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Driver data-loss benchmark: records the emulated SPU wrote, from QEMU's
# own counters (-cpu max,spe-stats=on), against records delivered to user
# space, at the minimum sampling interval, on every vCPU, under load.
#
#   tools/bench/data-loss.sh [--iters N] [CONFIG...]
#
# CONFIG is AUX_PAGES or AUX_PAGES:fifo (default: 16 256 1024 4096 16:fifo
# 256:fifo).
# For each one a guest boots (2 vCPUs, default kernel), loads the module
# and runs tools/bench/spe-dataloss.c: a CPU-wide event per CPU at
# caps/min_interval, the load/store workload of the selftests pinned on
# each CPU (N iterations, default 4000000: 28M instructions a CPU) and a
# reader per CPU on the same CPU that decodes everything it receives
# (SCHED_FIFO with ":fifo", else under the normal scheduler, competing
# with the workload). Prints one row per config:
#   expected   samples the workload alone should give: N*7*CPUs/(P+1)
#   written    records the SPU wrote whole (QEMU's counters)
#   lost       records the SPU could not write: buffer full or fault (QEMU)
#   delivered  records decoded in user space (0 decode errors expected)
#   deliv/wr   delivered / written: what the driver lost of what the SPU
#              wrote (1.000 = nothing)
#   wr/exp     written / expected: sampling coverage; below 1 when the
#              reader fell behind, the buffer filled and perf disabled
#              the event (announced by a TRUNCATED PERF_RECORD_AUX)
#   trunc      PERF_RECORD_AUX records with the TRUNCATED flag
# Exit 1 when a guest does not run or a count is missing.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
export SPE_LOG_TAG=data-loss
# shellcheck source=../lib/apt.sh
. "$top/tools/lib/apt.sh"

iters=4000000
sizes=()
while [ $# -gt 0 ]; do
	case $1 in
	--iters) iters=$2; shift ;;
	-h|--help) sed -n '3,28s/^# \{0,1\}//p' "$0"; exit 0 ;;
	-*) spe_die "unknown option $1 (see --help)" ;;
	*) sizes+=("$1") ;;
	esac
	shift
done
[ ${#sizes[@]} -gt 0 ] || sizes=(16 256 1024 4096 16:fifo 256:fifo)

spe_need_host_pkgs gcc-aarch64-linux-gnu
qemu=${QEMU:-$("$top/tools/qemu/build.sh" | tail -n 1)}
kid=$("$top/tools/kernels/fetch.sh" --default)
out=$top/build/bench/data-loss
mkdir -p "$out"
: >"$out/raw.txt"
"$top/tools/kernels/kmake.sh" "$kid" modules >"$out/module.log" 2>&1 ||
	spe_die "the module does not build ($out/module.log)"
make -s -C "$top/tools/decoder" CROSS_COMPILE=aarch64-linux-gnu- OUT="$out/decoder" lib \
	>"$out/build.log" 2>&1 || spe_die "the decoder does not build ($out/build.log)"
st=$top/selftests/arm_spe
aarch64-linux-gnu-gcc -O2 -Wall -static -I"$top/include" -I"$st" \
	-o "$out/spe-dataloss" "$here/spe-dataloss.c" "$st/spe_lib.c" "$st/spe_workload.S" \
	"$out/decoder/libspe_decoder.a" -lpthread >>"$out/build.log" 2>&1 ||
	spe_die "spe-dataloss does not build ($out/build.log)"

T=$'\t'
val() { sed -nE "s/.*[ :]$1=([0-9-]+).*/\\1/p" <<<"$2" | tail -n 1; }
printf '%-13s %9s %9s %6s %9s %8s %7s %6s %7s\n' config expected written lost delivered \
	deliv/wr wr/exp trunc dec-err
for cfg in "${sizes[@]}"; do
	pages=${cfg%%:*} fifo=
	[ "$cfg" = "$pages" ] || fifo=fifo
	[ "$cfg" = "$pages" ] || [ "$cfg" = "$pages:fifo" ] || spe_die "bad config $cfg (AUX_PAGES or AUX_PAGES:fifo)"
	dir=$out/aux$pages$fifo
	mkdir -p "$dir"
	{
		echo "load${T}60${T}insmod ./arm_spe_perf.ko"
		echo "dataloss${T}900${T}./spe-dataloss $pages $iters $fifo"
	} >"$dir/list"
	"$top/tools/vm/run.sh" --suite "data-loss-$pages" --kernel "$kid" --qemu "$qemu" \
		--cpu max,spe-stats=on --smp 2 --timeout 1200 --list "$dir/list" \
		--log "$dir/console.log" --file "$top/build/$kid/arm_spe_perf.ko:/tests/" \
		--file "$out/spe-dataloss:/tests/" >"$dir/result" 2>&1 ||
		spe_die "the aux=$pages guest failed: $dir/result, $dir/console.log"
	g=$(grep -a '^spe-dataloss:' "$dir/console.log" | tail -n 1 | tr -d '\r')
	q=$(grep -a '^qemu-spe-stats:' "$dir/console.log" | tail -n 1 | tr -d '\r')
	[ -n "$g" ] && [ -n "$q" ] || spe_die "aux=$pages: missing counts in $dir/console.log"
	written=$(val written "$q") lost=$(val lost "$q") expected=$(val expected "$g")
	delivered=$(val records "$g") trunc=$(val truncated "$g")
	[ "$written" -gt 0 ] || spe_die "$cfg: the SPU wrote nothing"
	printf '%-13s %9s %9s %6s %9s %8.3f %7.3f %6s %7s\n' "$((pages * 4))KiB${fifo:+ fifo}" \
		"$expected" "$written" "$lost" "$delivered" \
		"$(echo "$delivered / $written" | bc -l)" "$(echo "$written / $expected" | bc -l)" \
		"$trunc" "$(val decode_errors "$g")"
	{
		echo "# $cfg guest: $g"
		echo "# $cfg qemu:  $q"
	} >>"$out/raw.txt"
done
echo "# machine: $(nproc) host CPUs, $(uname -m); guest: $kid, 2 vCPUs, interval = caps/min_interval"
echo "# raw counts: ${out#"$top/"}/raw.txt"
