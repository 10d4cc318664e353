#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# CLI tests for spe-decode. Usage: cli.sh PATH/TO/spe-decode
# Prints one "PASS: cli:name" / "FAIL: cli:name: why" line per case.
# Inputs are hand-written byte strings (Arm ARM D18.1/D18.2 encodings).
# The hand-written byte strings below are printf formats on purpose.
# shellcheck disable=SC2059
set -u

BIN=${1:?usage: cli.sh path/to/spe-decode}
T=$(mktemp -d "${TMPDIR:-/tmp}/spe-cli.XXXXXX")
trap 'rm -rf "$T"' EXIT
pass=0
fail=0

ok() { echo "PASS: cli:$1"; pass=$((pass + 1)); }
ko() { echo "FAIL: cli:$1: $2"; fail=$((fail + 1)); }

# shellcheck source=run.sh
. "$(dirname "$0")/run.sh"
rc=0

# Load record: PC (0xB0, EL0 NS), latencies (0x99, 0x98, 0x9A), context (0x64),
# op load/store GP load (0x49 0x00), events (0x52), VA (0xB2), PA (0xB3),
# data source (0x43), timestamp (0x71).
LOAD='\xb0\x00\x10\x00\xd0\xaa\xaa\x00\x80\x99\x05\x00\x98\x2a\x00\x64\xd2\x04\x00\x00\x49\x00\x52\x16\x00\x9a\x03\x00\xb2\x40\x30\x20\x10\xff\xff\x00\x00\xb3\x40\x30\x20\x80\x00\x00\x00\x80\x43\x00\x71\x10\x32\x54\x76\x98\xba\xdc\x0e'
# Branch record: PC EL1 NS, op branch conditional (0x4A 0x01), events retired +
# not taken (0x42 0x42), total latency 1, target (0xB1), End (0x01).
BR='\xb0\x00\x20\x40\x00\x00\x00\x00\xa0\x4a\x01\x42\x42\x98\x01\x00\xb1\x00\x30\x40\x00\x00\x00\x00\xa0\x01'
# Store record, End-terminated: op 0x49 0x01, events 0x42 0x06, total latency 300.
ST='\xb0\x00\x20\x40\x00\x00\x00\x00\xa0\x49\x01\x42\x06\x98\x2c\x01\x01'

printf "$LOAD\x00\x00\x00$BR" >"$T/two.bin"
printf "$LOAD$BR$ST$ST" >"$T/four.bin"
printf "$LOAD" | head -c 30 >"$T/trunc.bin"
printf "$BR\x42\x02\x20\x3f\x55\x01$ST" >"$T/badhdr.bin"
printf "\x44\x55\x42\x02\x01" >"$T/unknown.bin"
printf "\x01\x22\x00\x20\x20\xee\xee\xee\x42\x02\x01" >"$T/align.bin"
: >"$T/empty.bin"
# deterministic garbage
LC_ALL=C awk 'BEGIN { srand(7); for (i = 0; i < 65536; i++) printf "%c", int(rand() * 256) }' \
	>"$T/garbage.bin" 2>/dev/null ||
	head -c 65536 /dev/urandom >"$T/garbage.bin"

# --- usage and I/O errors -------------------------------------------------
if run 0 --help && grep -q '^Usage: spe-decode' "$T/out" && grep -q -- '--lenient' "$T/out"; then
	ok help; else ko help "rc=$rc"; fi
if run 0 --version && grep -q '^spe-decode ' "$T/out"; then ok version; else ko version "rc=$rc"; fi
if run 2 --bogus && grep -q "unrecognized option\|invalid option" "$T/err" &&
   grep -q -- "--help" "$T/err"; then ok bad-option; else ko bad-option "rc=$rc $(cat "$T/err")"; fi
if run 2 "$T/does-not-exist" && grep -q "cannot open '.*does-not-exist': No such file" "$T/err"; then
	ok missing-file; else ko missing-file "rc=$rc $(cat "$T/err")"; fi
if run 2 "$T" && grep -q "Is a directory" "$T/err"; then ok directory; else ko directory "rc=$rc"; fi
if run 2 --json --summary "$T/two.bin" && grep -q "mutually exclusive" "$T/err"; then
	ok exclusive-modes; else ko exclusive-modes "rc=$rc"; fi
if run 2 --counter-bits=13 "$T/two.bin" && grep -q "12 or 16" "$T/err"; then
	ok bad-counter-bits; else ko bad-counter-bits "rc=$rc"; fi
if run 2 "$T/two.bin" "$T/two.bin" && grep -q "too many arguments" "$T/err"; then
	ok too-many-args; else ko too-many-args "rc=$rc"; fi

# --- dump -------------------------------------------------------------------
if run 0 "$T/two.bin" &&
   grep -q '^00000000: b0 00 10 00 d0 aa aa 00 80 .*ADDR pc 0xaaaad0001000 el0 ns=1' "$T/out" &&
   grep -q 'OP ldst-gp ld' "$T/out" &&
   grep -q 'EVENTS 0x16 retired l1d-access tlb-access' "$T/out" &&
   grep -q 'ADDR data-pa 0x80203040 ns=1 nse=0 ch=0 pat=0x0' "$T/out" &&
   grep -q '^00000039: .*PAD x3' "$T/out" &&
   grep -q 'OP branch cond' "$T/out" &&
   grep -q '^00000055: 01 .*END' "$T/out" && [ ! -s "$T/err" ]; then
	ok dump; else ko dump "rc=$rc"; fi
if runin 0 "$T/two.bin" --dump - && grep -q 'TS 1070935975390360080' "$T/out"; then
	ok dump-stdin; else ko dump-stdin "rc=$rc"; fi
if runin 0 "$T/two.bin" -d && grep -q 'COUNT total-lat 42' "$T/out"; then
	ok stdin-implicit; else ko stdin-implicit "rc=$rc"; fi

# --- JSON -----------------------------------------------------------------
if run 0 --json "$T/four.bin" && [ "$(wc -l <"$T/out")" -eq 4 ] &&
   grep -q '"pc":"0xaaaad0001000","pc_el":0,"pc_ns":1' "$T/out" &&
   grep -q '"lat":{"total":300}' "$T/out" &&
   grep -q '"kind":"ldst-gp","store":true' "$T/out"; then
	ok json; else ko json "rc=$rc"; fi
if command -v python3 >/dev/null; then
	if python3 -c '
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
assert len(recs) == 4
assert recs[0]["events"]["names"] == ["retired", "l1d-access", "tlb-access"]
assert recs[0]["ts"] == 0x0edcba9876543210
assert recs[1]["br_tgt"] == "0x403000" and recs[1]["end"] == "end"
assert recs[1]["op"]["kind"] == "branch" and recs[1]["op"]["cond"] == 1
' "$T/out" 2>"$T/py"; then ok json-valid; else ko json-valid "$(tail -1 "$T/py")"; fi
else
	echo "SKIP: cli:json-valid: python3 not available to validate JSON"
fi

# --- CSV --------------------------------------------------------------------
if run 0 --csv "$T/four.bin" && [ "$(wc -l <"$T/out")" -eq 5 ] &&
   head -1 "$T/out" | grep -q '^offset,size,cpu,pid,tid,comm,aux_flags,pc,pc_el,pc_ns,br_tgt,prev_br_tgt,data_va,data_pa,op_kind,op_class,op_subclass,store,events,event_names,lat_total,lat_issue,lat_xlat,lat_alt_issue,data_source,ts,end,extra$' &&
   sed -n 2p "$T/out" | grep -q '^0,57,,,,,,0xaaaad0001000,0,1,,,0xffff10203040,0x80203040,ldst-gp,1,0,0,0x16,retired|l1d-access|tlb-access,42,5,3,,0,1070935975390360080,timestamp,0$' &&
   sed -n 3p "$T/out" | grep -q ',branch,2,1,,0x42,retired|not-taken,1,,,,,,end,0$'; then
	ok csv; else ko csv "rc=$rc $(head -3 "$T/out")"; fi
if command -v python3 >/dev/null; then
	if python3 -c '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 4 and len(rows[0]) == 28
assert rows[3]["lat_total"] == "300" and rows[3]["store"] == "1"
' "$T/out" 2>"$T/py"; then ok csv-valid; else ko csv-valid "$(tail -1 "$T/py")"; fi
fi

# --- summary --------------------------------------------------------------
if run 0 --summary "$T/four.bin" &&
   grep -q '^records: *4 (timestamp-terminated 1, end-terminated 3)' "$T/out" &&
   grep -q '^  ldst-gp store *2$' "$T/out" &&
   grep -q '^  branch *1$' "$T/out" &&
   grep -q '^  retired *4$' "$T/out" &&
   grep -q '^  256-511 *2 ' "$T/out"; then
	ok summary; else ko summary "rc=$rc"; fi
if run 0 -s "$T/empty.bin" && grep -q '^records: *0' "$T/out"; then
	ok empty-input; else ko empty-input "rc=$rc"; fi

# --- decode errors ----------------------------------------------------------
if run 1 "$T/trunc.bin" &&
   grep -q "error at offset 0x1c (28): truncated" "$T/err" &&
   grep -q "1 decode error" "$T/err"; then
	ok truncated; else ko truncated "rc=$rc $(cat "$T/err")"; fi
if run 0 --lenient --json "$T/trunc.bin" && grep -q "lenient" "$T/err"; then
	ok lenient; else ko lenient "rc=$rc"; fi
if run 1 --json "$T/badhdr.bin" && [ "$(wc -l <"$T/out")" -eq 2 ] &&
   grep -q "error at offset 0x1c (28): reserved extended header" "$T/err" &&
   grep -q "resuming at 0x20" "$T/err"; then
	ok bad-header-resync; else ko bad-header-resync "rc=$rc $(cat "$T/err")"; fi
if run 1 "$T/badhdr.bin" && grep -q '^0000001c: ERROR: reserved extended header' "$T/out"; then
	ok bad-header-dump; else ko bad-header-dump "rc=$rc"; fi
if run 0 --json "$T/unknown.bin" &&
   grep -q "warning: unknown packet (header 0x44) at offset 0x0 skipped" "$T/err" &&
   grep -q '"extra":\[{"type":"unknown","offset":0,"hdr":"0x44"' "$T/out"; then
	ok unknown-packet; else ko unknown-packet "rc=$rc"; fi
# --strict: a lightly corrupted trace (one header bit flipped: Data Source
# 0x43 -> 0x47, an unknown 8-bit header) passes by default (D18.1.3 says to
# skip unknown packets) and fails with --strict; so do reserved/impdef/
# Alignment packets (extra[]); a clean trace passes both ways.
printf "$(printf "$LOAD" | od -An -tx1 -v | tr -d '\n' | sed 's/ 43 00 71/ 47 00 71/; s/ /\\x/g')" >"$T/flip.bin"
if cmp -s "$T/flip.bin" <(printf "$LOAD"); then ko strict-setup "flip did not change the trace"; fi
if run 0 --summary "$T/flip.bin" && grep -q "unknown packet (header 0x47)" "$T/err"; then
	ok strict-default-flip; else ko strict-default-flip "rc=$rc"; fi
if run 1 --strict --summary "$T/flip.bin" && grep -q -- "--strict: 1 record with unknown" "$T/err"; then
	ok strict-flip; else ko strict-flip "rc=$rc $(cat "$T/err")"; fi
if run 1 -S --json "$T/unknown.bin"; then ok strict-unknown; else ko strict-unknown "rc=$rc"; fi
printf '\x22\xb1\x01\x02\x03\x04\x05\x06\x07\x08\x01' >"$T/impdef.bin"	# Address INDEX 17 (IMPDEF)
if run 0 --json "$T/impdef.bin" && run 1 --strict --json "$T/impdef.bin"; then
	ok strict-impdef; else ko strict-impdef "rc=$rc"; fi
if run 1 --strict --json "$T/badhdr.bin"; then ok strict-bad-header; else ko strict-bad-header "rc=$rc"; fi
if run 0 --strict --json "$T/four.bin" && [ ! -s "$T/err" ]; then
	ok strict-clean; else ko strict-clean "rc=$rc"; fi
if run 2 --strict --lenient "$T/four.bin" && grep -q "mutually exclusive" "$T/err"; then
	ok strict-lenient; else ko strict-lenient "rc=$rc"; fi
if run 0 --legacy-align --json "$T/align.bin" && grep -q '"offset":8,' "$T/out"; then
	ok legacy-align; else ko legacy-align "rc=$rc"; fi
if run 0 --legacy-align "$T/align.bin" && grep -q '^00000001: 22 00 .*ALIGN 8' "$T/out" &&
   grep -q '(5 alignment bytes skipped)' "$T/out" && grep -q '^00000008: 42 02 ' "$T/out"; then
	ok legacy-align-dump; else ko legacy-align-dump "rc=$rc"; fi
if run 0 --json --counter-bits=12 "$T/four.bin" && grep -q '"lat":{"total":42,"issue":5,"xlat":3}' "$T/out"; then
	ok counter-bits; else ko counter-bits "rc=$rc"; fi
if run 1 --json "$T/align.bin" && grep -q "offset 0x3 (3): reserved extended" "$T/err"; then
	ok align-current-arm; else ko align-current-arm "rc=$rc"; fi
run 1 --summary --max-errors=3 "$T/garbage.bin"
if [ "$rc" -le 1 ] && grep -q '^records:' "$T/out" && [ "$(grep -c 'error at' "$T/err")" -le 3 ]; then
	ok garbage; else ko garbage "rc=$rc"; fi
for m in --dump --json; do
	run 1 "$m" "$T/garbage.bin"
	if [ "$rc" -le 1 ]; then ok "garbage$m"; else ko "garbage$m" "rc=$rc"; fi
done
# a pipe on standard input is decoded as it arrives (spe_stream): the same
# output, messages and exit status as the file
for m in --json --csv --summary; do
	for f in four garbage trunc badhdr unknown; do
		"$BIN" "$m" "$T/$f.bin" >"$T/file.out" 2>&1
		r1=$?
		cat "$T/$f.bin" | "$BIN" "$m" >"$T/pipe.out" 2>&1
		r2=$?
		if [ $r1 -eq $r2 ] && cmp -s "$T/file.out" "$T/pipe.out"; then
			ok "pipe$m-$f"; else ko "pipe$m-$f" "rc $r1/$r2, $(diff "$T/file.out" "$T/pipe.out" | head -3)"; fi
	done
done
if [ -w /dev/full ]; then
	"$BIN" --json "$T/four.bin" >/dev/full 2>"$T/err"
	rc=$?
	if [ "$rc" -eq 2 ] && grep -q "write error" "$T/err"; then ok write-error; else ko write-error "rc=$rc"; fi
else
	echo "SKIP: cli:write-error: /dev/full not available"
fi

echo "cli: $pass passed, $fail failed" >&2
[ "$fail" -eq 0 ]
