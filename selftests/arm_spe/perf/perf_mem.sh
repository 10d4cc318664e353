#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# perf mem record / perf mem report: perf mem picks the SPE PMU on arm64;
# the report attributes the workload's memory accesses to spe_hot and to
# the data symbol spe_buf. Usage: perf_mem.sh [LDLAT [SECONDS]]: perf mem's load
# latency threshold (perf's default 30 when not given; it becomes the SPE
# min_latency filter).
. "$(dirname "$0")/lib.sh"
spe_pmu
ldlat=${1:+--ldlat $1}
# shellcheck disable=SC2086
perf mem record $ldlat -o "$SPE_TMP/mem.data" -- "$WORKLOAD" "${2:-1}" >"$SPE_TMP/mem.out" 2>"$SPE_TMP/mem.err"
rc=$?
sed 's/^/# /' "$SPE_TMP/mem.err"
[ $rc -eq 0 ] || fail "perf mem record exited $rc"
grep -q '^spe_workload: done' "$SPE_TMP/mem.out" || fail "the workload did not finish"
perf evlist -i "$SPE_TMP/mem.data" 2>/dev/null | sed 's/^/# evlist: /'
perf evlist -i "$SPE_TMP/mem.data" 2>/dev/null | grep -q arm_spe || fail "perf mem record did not use the SPE PMU"
perf mem report -i "$SPE_TMP/mem.data" --stdio --comm spe_workload >"$SPE_TMP/mem.report" 2>"$SPE_TMP/mem.rerr" ||
	{ sed 's/^/# /' "$SPE_TMP/mem.rerr"; fail "perf mem report failed"; }
grep -E '^# (Samples|Sort order)|^# Overhead' "$SPE_TMP/mem.report"
grep 'spe_buf' "$SPE_TMP/mem.report" | head -n 5 | cut -c1-200 | sed 's/^/# /'
grep -q '\[\.\] spe_hot' "$SPE_TMP/mem.report" || fail "perf mem report does not show spe_hot"
grep -q 'spe_buf' "$SPE_TMP/mem.report" || fail "perf mem report does not resolve data addresses to spe_buf"
pass
