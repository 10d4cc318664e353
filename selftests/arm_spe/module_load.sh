#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# On a machine with FEAT_SPE: the module loads, registers one PMU per SPE
# device as arm_spe_N with the sysfs layout perf expects, and unloads
# cleanly, leaving no trace in sysfs. Run it twice to catch leftovers.
# Usage: module_load.sh [path/to/arm_spe_perf.ko]
# Exit status as kselftest: 0 pass, 1 fail, 4 skip.
ko=${1:-./arm_spe_perf.ko}
fail() { echo "FAIL: $*"; rmmod arm_spe_perf 2>/dev/null; exit 1; }
[ -f "$ko" ] || { echo "SKIP: no module at $ko"; exit 4; }
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root"; exit 4; }
grep -qs statistical-profiling-extension /proc/device-tree/*/compatible ||
	{ echo "SKIP: the firmware describes no SPE device"; exit 4; }
# Loaded already (a kernel tree's run_kselftest.sh runs this after the
# programs that need the module): unload it first, load it again at the end.
reload=0
if [ -e /sys/module/arm_spe_perf ]; then
	rmmod arm_spe_perf || { echo "FAIL: the loaded module does not unload"; exit 1; }
	reload=1
fi
for round in 1 2; do
	insmod "$ko" || fail "insmod failed (round $round)"
	[ -d /sys/module/arm_spe_perf ] || fail "/sys/module/arm_spe_perf missing"
	pmu=$(ls -d /sys/bus/event_source/devices/arm_spe_* 2>/dev/null | head -n1)
	[ -n "$pmu" ] || fail "no arm_spe_N PMU registered (round $round)"
	echo "round $round: $(basename "$pmu") type $(cat "$pmu/type")"
	for f in type cpumask format/ts_enable format/jitter caps/min_interval caps/count_size; do
		[ -e "$pmu/$f" ] || fail "$pmu/$f missing"
	done
	grep -qx 'config:0' "$pmu/format/ts_enable" || fail "format/ts_enable is not config:0"
	grep -qx 'config:16' "$pmu/format/jitter" || fail "format/jitter is not config:16"
	rmmod arm_spe_perf || fail "rmmod failed (round $round)"
	[ ! -e /sys/module/arm_spe_perf ] || fail "/sys/module/arm_spe_perf left after rmmod"
	ls -d /sys/bus/event_source/devices/arm_spe_* 2>/dev/null && fail "PMU left after rmmod"
done
if [ "$reload" = 1 ]; then
	insmod "$ko" || { echo "FAIL: the module does not load again"; exit 1; }
fi
echo "PASS"
