#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# perf report --stdio on perf_record.sh's recording: spe_hot, the function
# the workload spends most of its time in, is the top symbol of the
# workload's own code, with at least half of its samples, for each
# synthesized SPE event that has samples (at least one must). Kernel
# samples taken in the workload's context (page faults, the SPE interrupt)
# are shown but not judged.
. "$(dirname "$0")/lib.sh"
spe_pmu
[ -s "$SPE_TMP/rec.data" ] || fail "no recording ($SPE_TMP/rec.data; perf_record.sh runs first)"
perf report -i "$SPE_TMP/rec.data" --stdio --comm spe_workload --sort dso,sym \
	2>/dev/null | grep -v '^$' | head -n 25 | sed 's/^/# /'
perf report -i "$SPE_TMP/rec.data" --stdio --comm spe_workload --dso spe_workload \
	--percentage relative --sort sym >"$SPE_TMP/report.txt" 2>"$SPE_TMP/report.err" || {
	sed 's/^/# /' "$SPE_TMP/report.err"; fail "perf report failed"; }
# Per event section: "# Samples: N of event 'X'" then "  P%  [.] sym" rows.
awk '
/^# Samples: / { ev = $0; sub(/.*event /, "", ev); gsub(/\047/, "", ev); top = ""; next }
/^ *[0-9.]+%/ && ev != "" && top == "" {
	top = $NF; printf "%s %s %s\n", ev, $1, top
}' "$SPE_TMP/report.txt" >"$SPE_TMP/report.top"
[ -s "$SPE_TMP/report.top" ] || fail "perf report shows no samples of spe_workload"
bad=0
while read -r ev pct sym; do
	note "event $ev: top symbol $sym ($pct)"
	case $ev in
	branch-miss|*branch*|tlb-*|llc-*|l1d-miss|remote-access) continue ;; # may be sparse
	esac
	[ "$sym" = spe_hot ] && [ "${pct%%.*}" -ge 50 ] || bad=1
done <"$SPE_TMP/report.top"
[ $bad -eq 0 ] || fail "spe_hot is not the workload's top symbol with >= 50% of its samples"
pass
