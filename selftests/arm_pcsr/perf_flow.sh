#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The perf flow, in the guest with Debian's perf on PATH: pcsr_workload
# pinned to CPU 1, "perf record -e arm_pcsr// -C 1 -- sleep 2", then
# perf report must put pcsr_fa (50% of the workload's time) on top and
# perf script must show the workload's samples on CPU 1. Exit status as
# kselftest: 0 pass, 1 fail, 4 skip.
cd "$(dirname "$0")" || exit 1
command -v perf >/dev/null 2>&1 || { echo "SKIP: no perf in the guest"; exit 4; }
[ -d /sys/bus/event_source/devices/arm_pcsr ] || { echo "SKIP: arm_pcsr not loaded"; exit 4; }
d=/tmp/pcsr-perf
mkdir -p $d
./pcsr_workload 1 >$d/wl.out &
wl=$!
# Wait until it is pinned and running (it prints "ready PID" then).
until grep -q '^ready' $d/wl.out; do
	kill -0 $wl 2>/dev/null || { echo "FAIL: the workload died"; exit 1; }
done
fail() { kill $wl; echo "FAIL: $*"; exit 1; }
perf record -e arm_pcsr// -C 1 -o $d/rec.data -- sleep 2 >$d/record.out 2>&1 ||
	{ cat $d/record.out; fail "perf record failed"; }
cat $d/record.out
kill $wl
perf report -i $d/rec.data --stdio --sort comm,sym 2>$d/report.err >$d/report.out ||
	{ cat $d/report.err; echo "FAIL: perf report failed"; exit 1; }
sed -n '1,25p' $d/report.out
top=$(grep -v '^#' $d/report.out | grep -v '^ *$' | head -n1)
echo "# top: $top"
case $top in
*pcsr_workload*pcsr_fa*) ;;
*) echo "FAIL: perf report's top entry is not pcsr_workload pcsr_fa"; exit 1 ;;
esac
perf script -i $d/rec.data -F comm,pid,cpu,ip,sym 2>/dev/null >$d/script.out
n=$(grep -c 'pcsr_workload' $d/script.out)
other_cpu=$(grep 'pcsr_workload' $d/script.out | grep -vc '\[001\]')
echo "# perf script: $n samples of pcsr_workload, $other_cpu not on CPU 1"
[ "$n" -ge 100 ] || { echo "FAIL: fewer than 100 samples of the workload"; exit 1; }
[ "$other_cpu" -eq 0 ] || { echo "FAIL: samples not on CPU 1"; exit 1; }
grep -q "pcsr_workload *$wl " $d/script.out ||
	{ echo "FAIL: no sample with the workload's PID $wl"; exit 1; }
echo "PASS"
