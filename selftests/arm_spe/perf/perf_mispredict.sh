#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The emulator's branch predictor model seen through perf: record the
# branches of `spe_model_workload branch` (a loop with a TBZ on a
# pseudo-random bit and its loop-closing B.NE) with branch_filter=1 and
# decode perf.data with spe-decode. No predictor can learn the TBZ:
# mispredicted (E[7], D18.2.6) in 30-70% of its records. The loop branch
# is taken every time but the last: mispredicted in under 5%.
. "$(dirname "$0")/lib.sh"
spe_pmu
W=$here/spe_model_workload
d=$SPE_TMP/br.data
perf record -o "$d" -c 65536 -e "$pmu/branch_filter=1/u" -- "$W" branch 0.5 \
	>"$SPE_TMP/br.out" 2>"$SPE_TMP/br.err" ||
	{ sed 's/^/# /' "$SPE_TMP/br.err"; fail "perf record failed"; }
grep -q '^spe_model_workload: done' "$SPE_TMP/br.out" || fail "the workload did not finish"
# shellcheck disable=SC2046 # two fields: lo hi
set -- $(sed -n 's/^spe_model_workload: branchy //p' "$SPE_TMP/br.out")
lo=$1 hi=$2
[ -n "$hi" ] || fail "the workload did not print its code range"
spe-decode --json "$d" >"$SPE_TMP/br.json" 2>"$SPE_TMP/br.jerr" ||
	fail "spe-decode --json failed: $(head -n 2 "$SPE_TMP/br.jerr")"
# Count the branch records in [lo, hi): forward (the TBZ) or backward (the
# loop branch), and mispredicted. Hex strings without leading zeros
# compare as numbers by length, then as strings.
# shellcheck disable=SC2046 # the counts, one field each
set -- $(awk -v lo="$lo" -v hi="$hi" '
	function cmp(a, b) { return length(a) != length(b) ? length(a) - length(b) : (a < b ? -1 : a > b) }
	match($0, /"pc":"0x[0-9a-f]+"/) {
		pc = substr($0, RSTART + 6, RLENGTH - 7)
		if (!match($0, /"br_tgt":"0x[0-9a-f]+"/)) next
		tgt = substr($0, RSTART + 10, RLENGTH - 11)
		if (cmp(pc, lo) < 0 || cmp(pc, hi) >= 0) next
		miss = index($0, "\"mispredicted\"") > 0
		if (cmp(tgt, pc) > 0) { f++; fm += miss } else { b++; bm += miss }
	}
	END { printf "%d %d %d %d\n", f, fm, b, bm }' "$SPE_TMP/br.json")
fwd=$1 fwd_miss=$2 back=$3 back_miss=$4
note "random TBZ: $fwd_miss of $fwd mispredicted; loop branch: $back_miss of $back"
[ "$fwd" -ge 50 ] && [ "$back" -ge 50 ] || fail "too few branch records in mem_branchy ($fwd TBZ, $back loop)"
[ $((fwd_miss * 100)) -ge $((fwd * 30)) ] && [ $((fwd_miss * 100)) -le $((fwd * 70)) ] ||
	fail "$fwd_miss of $fwd records of the random TBZ mispredicted, expected 30-70%"
[ $((back_miss * 100)) -lt $((back * 5)) ] || fail "$back_miss of $back records of the loop branch mispredicted, expected under 5%"
pass "random TBZ $fwd_miss/$fwd mispredicted, loop branch $back_miss/$back"
