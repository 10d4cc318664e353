#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# perf record -e arm_spe// -- spe_workload: the run completes, perf writes
# AUX trace data, and the data decodes without errors. Leaves
# $SPE_TMP/rec.data and $SPE_TMP/rec.out (the workload's output) for the
# report/script/dump tests.
. "$(dirname "$0")/lib.sh"
spe_pmu
secs=${1:-1}
rm -f "$SPE_TMP/rec.data"
perf record -o "$SPE_TMP/rec.data" -e arm_spe// -- "$WORKLOAD" "$secs" \
	>"$SPE_TMP/rec.out" 2>"$SPE_TMP/rec.err"
rc=$?
sed 's/^/# /' "$SPE_TMP/rec.out" "$SPE_TMP/rec.err"
[ $rc -eq 0 ] || fail "perf record exited $rc"
grep -q '^spe_workload: done' "$SPE_TMP/rec.out" || fail "the workload did not finish"
grep -q 'perf record: Captured and wrote' "$SPE_TMP/rec.err" || fail "perf record wrote no perf.data"
perf_aux_extract "$SPE_TMP/rec.data" "$SPE_TMP/rec.aux" 2>"$SPE_TMP/aux.err"
rc=$?
cat "$SPE_TMP/aux.err" | sed 's/^/# /'
[ $rc -eq 0 ] && [ -s "$SPE_TMP/rec.aux" ] || fail "perf.data holds no AUX (SPE) data"
spe-decode --summary "$SPE_TMP/rec.aux" >"$SPE_TMP/rec.summary" 2>"$SPE_TMP/rec.decode-err"
rc=$?
sed 's/^/# /' "$SPE_TMP/rec.summary" | head -n 40
head -n 5 "$SPE_TMP/rec.decode-err" | sed 's/^/# /'
[ $rc -eq 0 ] || fail "spe-decode found decode errors in the AUX data (exit $rc)"
recs=$(sed -n 's/^records: *\([0-9]*\).*/\1/p' "$SPE_TMP/rec.summary")
[ "${recs:-0}" -gt 0 ] || fail "no SPE records in the AUX data"
pass "$recs records"
