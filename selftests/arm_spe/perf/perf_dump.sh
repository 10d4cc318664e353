#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# perf report -D and perf script -D (raw dump) decode every SPE packet of a
# short recording (perf_dump.sh [SECONDS [PERIOD]]: -e arm_spe// -c PERIOD
# of SECONDS of spe_workload, default 0.2 s and the PMU's default interval;
# the dump is large and slow to print under emulation): their packet
# counts by type equal the project's decoder's (spe-decode) on the same AUX
# bytes, extracted from perf.data independently of perf (perf_aux_extract),
# and nothing is bad.
. "$(dirname "$0")/lib.sh"
spe_pmu
perf record -o "$SPE_TMP/dump.data" -e arm_spe// ${2:+-c $2} -- "$WORKLOAD" "${1:-0.2}" \
	>"$SPE_TMP/dump.out" 2>"$SPE_TMP/dump.err" || { sed 's/^/# /' "$SPE_TMP/dump.err"; fail "perf record failed"; }
perf_aux_extract "$SPE_TMP/dump.data" "$SPE_TMP/dump.aux" || fail "cannot extract the AUX data"
spe-decode --dump --lenient "$SPE_TMP/dump.aux" 2>/dev/null | spe_decode_counts >"$SPE_TMP/dump.ref"
note "spe-decode: $(tr '\n' ' ' <"$SPE_TMP/dump.ref")"
[ -s "$SPE_TMP/dump.ref" ] || fail "spe-decode decoded nothing"
bad=0
for cmd in report script; do
	perf $cmd -D -i "$SPE_TMP/dump.data" 2>/dev/null | perf_dump_counts >"$SPE_TMP/dump.$cmd"
	note "perf $cmd -D: $(tr '\n' ' ' <"$SPE_TMP/dump.$cmd")"
	if ! cmp -s "$SPE_TMP/dump.ref" "$SPE_TMP/dump.$cmd"; then
		echo "# perf $cmd -D and spe-decode differ:"
		diff "$SPE_TMP/dump.ref" "$SPE_TMP/dump.$cmd" | sed 's/^/#   /'
		bad=1
	fi
done
grep -q '^bad ' "$SPE_TMP/dump.ref" && fail "spe-decode reports undecodable bytes"
[ $bad -eq 0 ] || fail "packet counts differ"
pass "$(awk '{ s += $2 } END { print s }' "$SPE_TMP/dump.ref") packets, counts equal by type"
