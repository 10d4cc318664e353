#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# perf c2c against the emulator's memory-hierarchy model: two threads, on
# CPUs 0 and 1, increment two counters of one 64-byte line (false sharing).
# Each thread's load then finds the line modified in the other CPU's cache,
# so perf c2c report lists that line with loads served by the peer core.
# With the counters 128 bytes apart (padded) neither line has any.
# Needs 2 CPUs and a Neoverse MIDR (perf decodes the peer-core Data Source
# only for those: arm-spe.c common_ds_encoding_cpus).
. "$(dirname "$0")/lib.sh"
spe_pmu
W=$here/spe_model_workload
[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs"
spe_neoverse_ds || skip "MIDR $midr: perf decodes peer-core data sources on Neoverse N1/N2/V1 only"

# run NAME [padded]: perf c2c record and report the workload; sets $line
# (the first counter's line), $on (peer-core loads on it) and $all (in the
# whole run). Not in a $(...) subshell: fail must end the test.
run() {
	perf c2c record -o "$SPE_TMP/$1.data" -- "$W" share 1 $2 \
		>"$SPE_TMP/$1.out" 2>"$SPE_TMP/$1.err" ||
		{ sed 's/^/# /' "$SPE_TMP/$1.err"; fail "perf c2c record ($1) failed"; }
	grep -q '^spe_model_workload: done' "$SPE_TMP/$1.out" || fail "the $1 workload did not finish"
	line=$(sed -n 's/^spe_model_workload: line //p' "$SPE_TMP/$1.out")
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
note "false sharing: line $line, $on peer-core loads on it, $all in all"
[ "$on" -ge 5 ] || fail "perf c2c report shows $on peer-core loads on the falsely shared line $line (expected at least 5)"
shared=$on
run padded padded
note "padded: line $line, $on peer-core loads on it, $all in all"
[ "$on" -eq 0 ] || fail "perf c2c report shows $on peer-core loads on line $line, which only one thread uses"
pass "false sharing: $shared peer-core loads on the shared line; padded: none"
