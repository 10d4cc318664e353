#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# perf c2c against the emulator's memory-hierarchy model: two threads, on
# CPUs 0 and 1, take turns to increment two counters of one 64-byte line
# (false sharing). On its turn each thread's load finds the line modified
# in the other CPU's cache, at least once per round: 2 * rounds peer-core
# loads, of which SPE samples one in sample_period on average, so perf c2c
# report lists that line with about 2 * rounds / period of them or more.
# Taking turns makes that count independent of how the host schedules
# the vCPUs (free-running threads get next to none when the two vCPUs
# seldom run at the same time). With the counters 128 bytes apart
# (padded) and the same turns, the first counter's line has none.
# Needs 2 CPUs and a Neoverse MIDR (perf decodes the peer-core Data Source
# only for those: arm-spe.c common_ds_encoding_cpus).
. "$(dirname "$0")/lib.sh"
spe_pmu
W=$here/spe_model_workload
[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs"
spe_neoverse_ds || skip "MIDR $midr: perf decodes peer-core data sources on Neoverse N1/N2/V1 only"

# The rounds: 200 expected peer-core load samples at a period of 256
# operations (the emulated N1's min_interval, which perf takes as the
# period); at most 60 s, though a round takes microseconds (with the two
# vCPUs seldom on the host at once, milliseconds).
ROUNDS=25600

# run NAME [padded]: perf c2c record and report the workload; sets $line
# (the first counter's line), $on (peer-core loads on it), $all (in the
# whole run), $rounds (the workload's) and $period (the SPE event's).
# Not in a $(...) subshell: fail must end the test.
run() {
	perf c2c record -o "$SPE_TMP/$1.data" -- "$W" share $ROUNDS 60 $2 \
		>"$SPE_TMP/$1.out" 2>"$SPE_TMP/$1.err" ||
		{ sed 's/^/# /' "$SPE_TMP/$1.err"; fail "perf c2c record ($1) failed"; }
	grep -q '^spe_model_workload: done' "$SPE_TMP/$1.out" || fail "the $1 workload did not finish"
	line=$(sed -n 's/^spe_model_workload: line //p' "$SPE_TMP/$1.out")
	rounds=$(sed -n 's/^spe_model_workload: done .*rounds=\([0-9]*\)$/\1/p' "$SPE_TMP/$1.out")
	period=$(perf evlist -v -i "$SPE_TMP/$1.data" 2>/dev/null |
		sed -n 's/^arm_spe.*sample_period, sample_freq }: \([0-9]*\).*/\1/p' | head -n1)
	[ -n "$period" ] && [ "$period" -gt 0 ] || fail "no sample_period for the SPE event in perf evlist -v ($1)"
	perf c2c report -i "$SPE_TMP/$1.data" --stdio --no-source >"$SPE_TMP/$1.rep" 2>/dev/null ||
		fail "perf c2c report ($1) failed"
	all=$(sed -n 's/^ *Load HIT Local Peer *: *\([0-9]*\)$/\1/p' "$SPE_TMP/$1.rep")
	[ -n "$all" ] || fail "no 'Load HIT Local Peer' line in perf c2c report ($1)"
	# Shared Data Cache Line Table: Index, Address, Node, PA cnt, Peer
	# Snoop, Load Peer Total, ...
	awk '/Shared Data Cache Line Table/ { t = 1; next }
		/Shared Cache Line Distribution/ { t = 0 }
		t && $2 ~ /^0x/ { print $2, $6 }' "$SPE_TMP/$1.rep" >"$SPE_TMP/$1.lines"
	sed "s/^/# $1: cache line, peer loads: /" "$SPE_TMP/$1.lines" | head -n 5
	on=0
	while read -r a p; do
		[ $((a)) -eq $((line)) ] && on=$p
	done <"$SPE_TMP/$1.lines"
}

run shared
# The lower bound: a quarter of the expectation 2 * rounds / period, and
# at least 5. The Poisson odds of falling under it: below 1e-30 at the
# full rounds (200 expected), 1e-8 at the fewest accepted (40).
want=$((2 * rounds / period / 4))
[ "$want" -ge 5 ] || want=5
note "false sharing: line $line, $on peer-core loads on it, $all in all; $rounds rounds at period $period: at least $want"
[ "$rounds" -ge $((ROUNDS / 5)) ] ||
	fail "the two threads took turns only $rounds times in 60 s (at least $((ROUNDS / 5)) for a count to rely on)"
[ "$on" -ge "$want" ] || fail "perf c2c report shows $on peer-core loads on the falsely shared line $line (expected at least $want)"
shared=$on
run padded padded
note "padded: line $line, $on peer-core loads on it, $all in all; $rounds rounds"
[ "$on" -eq 0 ] || fail "perf c2c report shows $on peer-core loads on line $line, which only one thread uses"
pass "false sharing: $shared peer-core loads on the shared line; padded: none"
