#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# perf list shows the SPE PMU as an event (arm_spe_N//) once the module is in.
. "$(dirname "$0")/lib.sh"
spe_pmu
note "PMU $pmu, type $(cat /sys/bus/event_source/devices/$pmu/type)"
perf list pmu >"$SPE_TMP/list.txt" 2>&1 || perf list >"$SPE_TMP/list.txt" 2>&1
grep -E "arm_spe(_[0-9]+)?//" "$SPE_TMP/list.txt" | sed 's/^/# /'
grep -qE "(^|[[:space:]])$pmu//|(^|[[:space:]])arm_spe//" "$SPE_TMP/list.txt" ||
	{ sed 's/^/# /' "$SPE_TMP/list.txt" | head -n 40; fail "perf list does not show $pmu//"; }
pass "perf list shows $pmu//"
