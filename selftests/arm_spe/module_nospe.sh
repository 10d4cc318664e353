#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# On a machine without FEAT_SPE the module must refuse to load with ENODEV,
# say why in exactly one kernel log line, and leave no trace in sysfs.
# Usage: module_nospe.sh [path/to/arm_spe_perf.ko]
# Exit status as kselftest: 0 pass, 1 fail, 4 skip.
ko=${1:-./arm_spe_perf.ko}
fail() { echo "FAIL: $*"; exit 1; }
[ -f "$ko" ] || { echo "SKIP: no module at $ko"; exit 4; }
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root"; exit 4; }
if grep -qs statistical-profiling-extension /proc/device-tree/*/compatible; then
	echo "SKIP: the firmware describes an SPE device"
	exit 4
fi
dmesg -c >/dev/null
out=$(insmod "$ko" 2>&1) && fail "insmod succeeded without SPE"
echo "insmod: $out"
case $out in *"No such device"*) ;; *) fail "insmod did not fail with ENODEV" ;; esac
# Each load attempt must log one line (busybox insmod may try twice, with
# finit_module and init_module); the kernel's own taint notices aside.
msgs=$(dmesg | grep 'arm_spe_perf' | grep -v -e 'taint' | sed 's/^\[[^]]*\] //' | sort -u)
echo "kernel log: $msgs"
[ -n "$msgs" ] || fail "nothing in the kernel log says why the load failed"
[ "$(echo "$msgs" | wc -l)" -eq 1 ] || fail "expected one distinct arm_spe_perf message, got: $msgs"
msg=$msgs
echo "$msg" | grep -q 'FEAT_SPE' || fail "the message does not name FEAT_SPE"
[ ! -e /sys/module/arm_spe_perf ] || fail "/sys/module/arm_spe_perf exists after a failed load"
ls -d /sys/bus/event_source/devices/arm_spe_* 2>/dev/null && fail "an arm_spe PMU is registered"
[ -e /sys/bus/platform/drivers/arm_spe_perf ] && fail "the platform driver is still registered"
echo "PASS"
