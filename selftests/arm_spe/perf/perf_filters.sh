#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# perf record -e arm_spe/ts_enable=1,pa_enable=1,load_filter=1,min_latency=N/:
# the recorded records (decoded by spe-decode from the AUX data) are all
# loads with a total latency of at least N, carry a physical data address
# and a timestamp. Usage: perf_filters.sh [MIN_LATENCY [SECONDS]]
# shellcheck disable=SC2154 # records ... nots: set by eval "$stats"
. "$(dirname "$0")/lib.sh"
spe_pmu
lat=${1:-4} secs=${2:-1}
ev="arm_spe/ts_enable=1,pa_enable=1,load_filter=1,min_latency=$lat/"
perf record -o "$SPE_TMP/filt.data" -e "$ev" -- "$WORKLOAD" "$secs" \
	>"$SPE_TMP/filt.out" 2>"$SPE_TMP/filt.err"
rc=$?
sed 's/^/# /' "$SPE_TMP/filt.err"
[ $rc -eq 0 ] || fail "perf record -e $ev exited $rc"
grep -q '^spe_workload: done' "$SPE_TMP/filt.out" || fail "the workload did not finish"
perf_aux_extract "$SPE_TMP/filt.data" "$SPE_TMP/filt.aux" || fail "no AUX data"
spe-decode --json "$SPE_TMP/filt.aux" >"$SPE_TMP/filt.json" 2>"$SPE_TMP/filt.jerr" ||
	{ head -n5 "$SPE_TMP/filt.jerr" | sed 's/^/# /'; fail "spe-decode found decode errors"; }
head -n 3 "$SPE_TMP/filt.json" | sed 's/^/# /'
awk -v min="$lat" '
{
	n++
	if ($0 !~ /"kind":"[^"]*"/ || $0 !~ /"store":false/) notload++
	t = $0
	if (match(t, /"total":[0-9]+/)) { v = substr(t, RSTART + 8, RLENGTH - 8) + 0; if (v < min) lowlat++ } else nolat++
	if ($0 !~ /"data_pa"/) { nopa++; if (nopa <= 3) print "# no PA: " $0 }
	if ($0 !~ /"ts":/) nots++
}
END { printf "records=%d notload=%d lowlat=%d nolat=%d nopa=%d nots=%d\n", n, notload, lowlat, nolat, nopa, nots }
' "$SPE_TMP/filt.json" >"$SPE_TMP/filt.stats"
grep '^#' "$SPE_TMP/filt.stats"
stats=$(grep -v '^#' "$SPE_TMP/filt.stats")
note "$stats"
eval "$stats"
[ "$records" -gt 0 ] || fail "no records with $ev"
[ "$notload" -eq 0 ] || fail "$notload of $records records are not loads (load_filter=1)"
[ "$nolat" -eq 0 ] && [ "$lowlat" -eq 0 ] || fail "$lowlat records below min_latency=$lat, $nolat without a total latency"
# A load whose translation faulted has no PA to record: allow a few.
[ $((nopa * 100)) -le "$records" ] || fail "$nopa of $records records without a physical address (pa_enable=1)"
[ "$nots" -eq 0 ] || fail "$nots of $records records without a timestamp (ts_enable=1)"
pass "$records records, all loads, latency >= $lat, with timestamp, $((records - nopa)) with PA"
