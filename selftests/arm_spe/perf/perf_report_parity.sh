#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# spe-decode report against perf report on perf_record.sh's recording:
# the workload's own code ranked the same, by the same sample counts.
# perf report --itrace=i1i synthesizes one "instructions" sample per SPE
# record (perf's arm-spe.c: an instruction-based period of 1), at the
# record's PC; spe-decode report counts records by the symbol of their PC.
# Both name symbols from the workload's ELF file (the guest's spe-decode
# links a static libelf), so they must count the same records in the
# workload's code and rank its top symbols the same, by the same counts. Each tool's run time is printed, not judged (make bench
# is where speed is compared).
. "$(dirname "$0")/lib.sh"
spe_pmu
d=$SPE_TMP/rec.data
[ -s "$d" ] || fail "no recording ($d; perf_record.sh runs first)"
# milliseconds since boot (the guest's date has no %N)
ms() { awk '{ printf "%d\n", $1 * 1000 }' /proc/uptime; }

t0=$(ms)
perf report -i "$d" --stdio --itrace=i1i --comm spe_workload --dso spe_workload \
	--sort sym -n >"$SPE_TMP/parity.perf" 2>"$SPE_TMP/parity.perf.err" || {
	sed 's/^/# /' "$SPE_TMP/parity.perf.err" | head -n 5; fail "perf report --itrace=i1i failed"; }
t1=$(ms)
spe-decode report --top 100 "$d" >"$SPE_TMP/parity.spe" 2>"$SPE_TMP/parity.spe.err" || {
	sed 's/^/# /' "$SPE_TMP/parity.spe.err" | head -n 5; fail "spe-decode report failed"; }
t2=$(ms)
note "perf report $((t1 - t0)) ms, spe-decode report $((t2 - t1)) ms"

# perf: the "instructions" section, rows "P%  SAMPLES  [.] SYMBOL" (an
# address for what it cannot name); "ALL" sums every row
awk '
/^# Samples: / { on = ($0 ~ /event .instructions./); next }
on && /^ *[0-9.]+%/ && $3 == "[.]" {
	all += $2; if ($4 !~ /^0x/) print $2, $4 }
END { print all, "ALL" }' "$SPE_TMP/parity.perf" | sort -k1,1nr -k2 >"$SPE_TMP/parity.perf.rank"
# spe-decode: "== top symbols by samples", rows "SAMPLES P% LOADS STORES
# MISPRED SYMBOL (DSO)" ("[unresolved] (DSO)" for what it cannot name)
awk '
/^== / { on = ($0 ~ /^== top symbols by samples/); next }
on && $NF == "(spe_workload)" { all += $1; if ($6 !~ /^\[/) print $1, $6 }
END { print all, "ALL" }' "$SPE_TMP/parity.spe" | sort -k1,1nr -k2 >"$SPE_TMP/parity.spe.rank"
note "perf report:       $(head -n 7 "$SPE_TMP/parity.perf.rank" | tr '\n' ' ')"
note "spe-decode report: $(head -n 7 "$SPE_TMP/parity.spe.rank" | tr '\n' ' ')"
all=$(awk '$2 == "ALL" { print $1 }' "$SPE_TMP/parity.perf.rank")
[ "${all:-0}" -gt 100 ] || fail "perf report shows ${all:-0} instruction samples in spe_workload"
# The same number of records in the workload's code, and the same top 5
# symbols by the same counts. A row with under 1% of the samples may be a
# glibc function with several names at one address (_IO_file_xsputn and
# _IO_new_file_xsputn): either name is right there, so only its count is
# compared (seen once in a clean-clone run, 8 of 9499 samples).
top() {
	head -n 6 "$1" | awk -v all="$all" '{ print $1, ($1 * 100 >= all ? $2 : "(alias?)") }'
}
top "$SPE_TMP/parity.perf.rank" >"$SPE_TMP/parity.perf.top"
top "$SPE_TMP/parity.spe.rank" >"$SPE_TMP/parity.spe.top"
cmp -s "$SPE_TMP/parity.perf.top" "$SPE_TMP/parity.spe.top" || {
	diff "$SPE_TMP/parity.perf.top" "$SPE_TMP/parity.spe.top" | sed 's/^/# /'
	fail "spe-decode report and perf report attribute spe_workload's samples differently"; }
pass "$all samples in spe_workload; the same top 5 symbols, by the same counts"
