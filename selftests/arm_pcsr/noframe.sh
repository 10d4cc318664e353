#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# On a machine without PC sample frames the module refuses to load with
# ENODEV and says why in the kernel log. Exit status as kselftest.
cd "$(dirname "$0")" || exit 1
if insmod ./arm_pcsr.ko 2>/tmp/insmod.err; then
	rmmod arm_pcsr
	echo "FAIL: arm_pcsr loaded without any frame"
	exit 1
fi
cat /tmp/insmod.err
grep -q 'No such device' /tmp/insmod.err || { echo "FAIL: not ENODEV"; exit 1; }
dmesg | grep -q 'arm_pcsr: no PC Sample-based Profiling frame' ||
	{ echo "FAIL: no reason in the kernel log"; exit 1; }
echo "PASS"
