#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# perf mem against the emulator's memory-hierarchy model, at perf mem's
# default load latency threshold (30 cycles, which becomes the SPE
# min_latency filter):
#  - a pointer chase over 64 MiB, eight times the modelled last-level
#    cache, is recorded and perf mem report puts most of its loads in
#    memory (random lines: about 1/8 still hit the LLC);
#  - the same chase over 16 KiB, inside the L1 data cache, leaves next to
#    nothing above the threshold, and with --ldlat 1 its loads are there
#    and are L1 hits: the threshold, not the workload, removed them.
# The levels expected follow from the model's documented sizes and costs
# (Documentation/emulation.rst: 64 KiB L1D, 8 MiB LLC; L1 4 cycles, DRAM
# 180), not from its output. perf names the levels from the Data Source
# packet on Neoverse MIDRs ("RAM hit", "L1 hit") and from the events on
# others ("L3 miss", "L1 hit").
. "$(dirname "$0")/lib.sh"
spe_pmu
W=$here/spe_model_workload
dram="L3 miss"
spe_neoverse_ds && dram="RAM hit"

# rec NAME LDLAT KIB [EMPTY_OK]: perf mem record the chase over KIB KiB;
# sets $n to the loads of perf mem report's 'memory' event and $hit to
# those in the level $LEVEL (not in a $(...) subshell: fail must end the
# test). With EMPTY_OK a recording of no sample at all, whose report has
# no 'memory' event, is 0 loads: the L1-resident chase at perf's default
# threshold may leave none above it.
rec() {
	perf mem record -t load ${2:+--ldlat $2} -o "$SPE_TMP/$1.data" -- "$W" chase "$3" 0.5 \
		>"$SPE_TMP/$1.out" 2>"$SPE_TMP/$1.err" ||
		{ sed 's/^/# /' "$SPE_TMP/$1.err"; fail "perf mem record ($1) failed"; }
	grep -q '^spe_model_workload: done' "$SPE_TMP/$1.out" || fail "the $1 workload did not finish"
	perf mem report -i "$SPE_TMP/$1.data" --stdio -s mem >"$SPE_TMP/$1.rep" 2>/dev/null ||
		fail "perf mem report ($1) failed"
	awk '/^# Samples: .* of event / { m = ($0 ~ /of event .memory.$/); if (m) seen = 1 }
		m && /^ +[0-9.]+% +[0-9]+ / { print }
		END { if (!seen) print "none" }' "$SPE_TMP/$1.rep" >"$SPE_TMP/$1.rows"
	if grep -qx none "$SPE_TMP/$1.rows"; then
		[ -n "${4:-}" ] || fail "perf mem report ($1) shows no 'memory' event"
		: >"$SPE_TMP/$1.rows"
	fi
	sed "s/^/# $1: /" "$SPE_TMP/$1.rows" | head -n 6
	n=$(awk '{ n += $2 } END { print n + 0 }' "$SPE_TMP/$1.rows")
	hit=$(awk -v lvl="$LEVEL" '{ l = $0; sub(/^ +[0-9.]+% +[0-9]+ +/, "", l); sub(/ +$/, "", l); if (l == lvl) h += $2 } END { print h + 0 }' "$SPE_TMP/$1.rows")
}

LEVEL=$dram
rec big "" 65536
big=$n big_dram=$hit
note "64 MiB chase, default ldlat: $big loads, $big_dram '$dram'"
[ "$big" -ge 50 ] || fail "only $big loads recorded from a 64 MiB pointer chase at the default ldlat"
[ $((big_dram * 100)) -ge $((big * 70)) ] || fail "$big_dram of $big loads '$dram', expected at least 70%"

rec small "" 16 empty-ok
small=$n
note "16 KiB chase, default ldlat: $small loads"
[ $((small * 10)) -le "$big" ] || fail "$small loads above the default ldlat from an L1-resident chase ($big from the 64 MiB one)"

LEVEL="L1 hit"
rec small1 1 16
note "16 KiB chase, ldlat 1: $n loads, $hit 'L1 hit'"
[ "$n" -ge 50 ] || fail "only $n loads from the 16 KiB chase with --ldlat 1"
[ $((hit * 100)) -ge $((n * 80)) ] || fail "$hit of $n loads are 'L1 hit', expected at least 80%"
pass "64 MiB: $big_dram/$big '$dram'; 16 KiB: $small at ldlat 30, $hit/$n 'L1 hit' at ldlat 1"
