#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Snapshot mode: perf record -S -e arm_spe// keeps tracing into its AUX
# buffer and writes it out on each SIGUSR2. Two snapshots are taken while
# the workload runs; the file must hold AUX data of at least as many
# snapshots, decode cleanly and report the workload.
. "$(dirname "$0")/lib.sh"
spe_pmu
rm -f "$SPE_TMP/snap.data"
perf record -S -o "$SPE_TMP/snap.data" -e arm_spe// -- "$WORKLOAD" 4 \
	>"$SPE_TMP/snap.out" 2>"$SPE_TMP/snap.err" &
perf_pid=$!
# SIGUSR2 before perf installs its handler would kill it: wait until the
# workload runs (perf execs it only once it is set up).
i=0
while ! grep -q '^spe_workload: pid' "$SPE_TMP/snap.out" 2>/dev/null; do
	i=$((i + 1)); [ $i -lt 200 ] || { kill $perf_pid; fail "the workload did not start"; }
	sleep 0.1
done
sleep 1
kill -USR2 $perf_pid || fail "cannot signal perf"
sleep 1
kill -USR2 $perf_pid || fail "cannot signal perf"
wait $perf_pid
rc=$?
sed 's/^/# /' "$SPE_TMP/snap.err"
[ $rc -eq 0 ] || fail "perf record -S exited $rc"
grep -q '^spe_workload: done' "$SPE_TMP/snap.out" || fail "the workload did not finish"
perf_aux_extract "$SPE_TMP/snap.data" "$SPE_TMP/snap.aux" 2>"$SPE_TMP/snap.xerr"
rc=$?
cat "$SPE_TMP/snap.xerr" | sed 's/^/# /'
[ $rc -eq 0 ] || fail "the snapshot file holds no AUX data"
nev=$(sed -n 's/^auxtrace: \([0-9]*\) events.*/\1/p' "$SPE_TMP/snap.xerr")
[ "${nev:-0}" -ge 2 ] || fail "$nev AUX snapshot events for 2 SIGUSR2"
spe-decode --summary "$SPE_TMP/snap.aux" >"$SPE_TMP/snap.summary" 2>&1 ||
	{ sed 's/^/# /' "$SPE_TMP/snap.summary" | head; fail "spe-decode found decode errors in the snapshots"; }
grep -E '^(records|packets|decode errors):' "$SPE_TMP/snap.summary" | sed 's/^/# /'
perf report -i "$SPE_TMP/snap.data" --stdio --sort comm,sym >"$SPE_TMP/snap.report" 2>/dev/null ||
	fail "perf report on the snapshot file failed"
grep -q 'spe_hot' "$SPE_TMP/snap.report" || { head -n 30 "$SPE_TMP/snap.report" | sed 's/^/# /'; fail "snapshot report lacks spe_hot"; }
pass "$nev snapshot AUX events"
