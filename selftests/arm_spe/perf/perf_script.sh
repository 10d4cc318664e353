#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# perf script on perf_record.sh's recording: the workload's samples have
# user-space PCs within its text (but for the vDSO), nearly all in
# spe_hot/spe_branchy; every memory
# sample taken in spe_hot (which touches nothing but spe_buf) carries a data
# address within spe_buf; branch samples (if any) carry targets within text.
# perf synthesizes branch samples only for mispredicted branches, so the
# branch records of the raw trace (spe-decode --json on the same AUX data)
# are checked too: user-space branches have PC and target within the text,
# and spe_branchy's are among them.
# shellcheck disable=SC2154 # samples ... rbranch_branchy: set by eval "$stats"
. "$(dirname "$0")/lib.sh"
spe_pmu
[ -s "$SPE_TMP/rec.data" ] || fail "no recording ($SPE_TMP/rec.data; perf_record.sh runs first)"
workload_ranges "$SPE_TMP/rec.out"
perf script -i "$SPE_TMP/rec.data" --comm spe_workload -F event,addr,ip,sym \
	>"$SPE_TMP/script.txt" 2>"$SPE_TMP/script.err" || {
	sed 's/^/# /' "$SPE_TMP/script.err"; fail "perf script failed"; }
head -n 12 "$SPE_TMP/script.txt" | sed 's/^/# /'
awk -v buf_lo="$buf_lo" -v buf_hi="$buf_hi" -v text_lo="$text_lo" -v text_hi="$text_hi" \
    -v hot="$hot" -v hot_end="$hot_end" -v br="$branchy" -v br_end="$branchy_end" "$AWK_HEX"'
BEGIN { blo = hex(buf_lo); bhi = hex(buf_hi); tlo = hex(text_lo); thi = hex(text_hi)
	h0 = hex(hot); h1 = hex(hot_end); b0 = hex(br); b1 = hex(br_end) }
{
	# "EVENT: ADDR IP SYM" (perf prints addr before ip); events without an
	# address column print "EVENT: IP SYM".
	ev = ""; for (i = 1; i <= NF; i++) if ($i ~ /:$/) { ev = $i; break }
	if (ev == "") next
	sub(/:$/, "", ev)
	a = $(i + 1); p = $(i + 2)
	if (p !~ /^[0-9a-f]+$/) { p = a; a = "" }
	ip = hex(p); ev_n[ev]++
	# Kernel samples in the workload context (faults, interrupts) are
	# counted apart; the checks are on user space (TTBR0) PCs.
	if (ip >= 281474976710656) { kern++; next }
	n++
	if (ip >= tlo && ip < thi) intext++
	else if (++outside <= 3) print "# outside the text: " $0
	if (ip >= h0 && ip < h1) inhot++
	if (ip >= b0 && ip < b1) inbr++
	if (ev == "memory" || ev ~ /^(l1d|llc|tlb)-/) {
		mem++
		if (a != "") { d = hex(a); if (d >= blo && d < bhi) membuf++ }
		if (ip >= h0 && ip < h1) { memhot++; if (a != "" && d >= blo && d < bhi) memhotbuf++ }
	}
	if (ev ~ /branch/) { brs++; if (a != "") { d = hex(a); if (d >= tlo && d < thi) brtext++ } }
}
END {
	for (e in ev_n) printf "# event %s: %d samples\n", e, ev_n[e]
	printf "# kernel samples: %d\n", kern
	printf "samples=%d intext=%d inhot=%d inbranchy=%d mem=%d membuf=%d memhot=%d memhotbuf=%d branch=%d branchtext=%d\n",
		n, intext, inhot, inbr, mem, membuf, memhot, memhotbuf, brs, brtext
}' "$SPE_TMP/script.txt" >"$SPE_TMP/script.stats"
grep '^#' "$SPE_TMP/script.stats"
stats=$(grep -v '^#' "$SPE_TMP/script.stats")
note "$stats"
eval "$stats"
[ "$samples" -gt 0 ] || fail "perf script shows no user-space samples of spe_workload"
# A static binary: user-space PCs are in its text, but for the vDSO
# (clock_gettime): allow 1% elsewhere.
[ $((intext * 100)) -ge $((samples * 99)) ] || fail "only $intext of $samples user-space sample PCs within the workload's text"
[ $(((inhot + inbranchy) * 100)) -ge $((intext * 80)) ] ||
	fail "only $((inhot + inbranchy)) of $intext text samples in spe_hot/spe_branchy"
[ "$mem" -gt 0 ] || fail "no memory samples"
[ "$memhot" -gt 0 ] || fail "no memory samples in spe_hot"
[ "$memhotbuf" -eq "$memhot" ] || fail "$((memhot - memhotbuf)) of $memhot spe_hot memory samples have a data address outside spe_buf"
[ "$branch" -eq 0 ] || [ $((branchtext * 100)) -ge $((branch * 80)) ] ||
	fail "only $branchtext of $branch branch samples target the workload's text"
[ -s "$SPE_TMP/rec.aux" ] || perf_aux_extract "$SPE_TMP/rec.data" "$SPE_TMP/rec.aux" 2>/dev/null
# grep first: busybox awk is slow under emulation.
spe-decode --json --lenient "$SPE_TMP/rec.aux" 2>/dev/null | grep '"kind":"branch' | grep '"pc_el":0' |
awk -v text_lo="$text_lo" -v text_hi="$text_hi" -v br="$branchy" -v br_end="$branchy_end" "$AWK_HEX"'
BEGIN { tlo = hex(text_lo); thi = hex(text_hi); b0 = hex(br); b1 = hex(br_end) }
/"kind":"branch/ {
	if (!match($0, /"pc":"0x[0-9a-f]+"/)) next
	pc = hex(substr($0, RSTART + 6, RLENGTH - 7))
	if (pc >= 281474976710656) next
	n++
	if (pc >= tlo && pc < thi) pcin++
	if (pc >= b0 && pc < b1) inbr++
	if (match($0, /"br_tgt":"0x[0-9a-f]+"/)) {
		tg++; t = hex(substr($0, RSTART + 10, RLENGTH - 11)); if (t >= tlo && t < thi) tgin++
	}
}
END { printf "rbranch=%d rbranch_pc_text=%d rbranch_branchy=%d rbranch_tgt=%d rbranch_tgt_text=%d\n", n, pcin, inbr, tg, tgin }
' >"$SPE_TMP/script.branch"
stats=$(cat "$SPE_TMP/script.branch")
note "raw trace branch records: $stats"
eval "$stats"
[ "$rbranch" -gt 0 ] || fail "no user-space branch records in the raw trace"
# As above, the vDSO's branches (clock_gettime) are outside the text.
[ $((rbranch_pc_text * 100)) -ge $((rbranch * 99)) ] || fail "$((rbranch - rbranch_pc_text)) of $rbranch user-space branch records with a PC outside the text"
[ $((rbranch_tgt_text * 100)) -ge $((rbranch_tgt * 99)) ] || fail "$((rbranch_tgt - rbranch_tgt_text)) of $rbranch_tgt user-space branch targets outside the text"
[ "$rbranch_branchy" -gt 0 ] || fail "no branch records in spe_branchy"
pass "$samples samples, $memhotbuf/$memhot spe_hot memory samples in spe_buf, $rbranch_branchy/$rbranch user branch records in spe_branchy"
