#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# spe-decode on perf.data files. Usage: perfdata.sh PATH/TO/spe-decode
#  - synthetic files written by tests/mkperfdata.py (see its header): a
#    record split across two AUXTRACE pieces decodes whole; cpu, pid, tid,
#    comm (from COMM, ITRACE_START and a Context packet); PERF_RECORD_AUX
#    TRUNCATED/PARTIAL flags on the records they cover; bad magic, a
#    truncated file, AUX data past the end, pipe mode: exit 2 with a reason;
#  - tests/data/emul.perf.data.gz, recorded by `make run KEEP=...` under
#    the emulation: the same records as the raw AUX data extracted by an
#    independent reader (this script's own, in python), all of them
#    attributed to the workload.
# Prints one "PASS: perfdata:name" / "FAIL: perfdata:name: why" per case.
set -u
BIN=${1:?usage: perfdata.sh path/to/spe-decode}
HERE=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d "${TMPDIR:-/tmp}/spe-perfdata.XXXXXX")
trap 'rm -rf "$T"' EXIT
ok() { echo "PASS: perfdata:$1"; }
ko() { echo "FAIL: perfdata:$1: $2"; }
# shellcheck source=run.sh
. "$HERE/run.sh"
rc=0
if ! command -v python3 >/dev/null; then
	echo "SKIP: perfdata:all: python3 not available to write the test files"
	exit 0
fi
for k in good badmagic trunc truncaux pipe; do
	python3 "$HERE/mkperfdata.py" $k "$T/$k.data" || { ko "$k" "mkperfdata.py failed"; exit 1; }
done

if run 0 --json "$T/good.data" && [ "$(wc -l <"$T/out")" -eq 5 ] &&
   grep -q '^{"offset":0,"size":26,"cpu":0,"pid":101,"tid":101,"comm":"first","pc":"0xaaaa0000",.*"ts":5,' "$T/out"; then
	ok split-record; else ko split-record "rc=$rc $(head -c 300 "$T/out") $(cat "$T/err")"; fi
if grep -q '"offset":26,"size":23,"cpu":0,"pid":200,"tid":202,"comm":"second","aux_flags":\["partial"\],.*"context_el1":202' "$T/out" &&
   grep -q '"offset":51,"size":26,"cpu":0,"pid":101,"tid":101,"comm":"first","aux_flags":\["partial"\]' "$T/out"; then
	ok context-pid-and-partial; else ko context-pid-and-partial "$(sed -n 2,3p "$T/out" | head -c 400)"; fi
if [ "$(grep -c '"cpu":1,"pid":200,"tid":202,"comm":"second","aux_flags":\["truncated"\]' "$T/out")" -eq 2 ]; then
	ok truncated-flag; else ko truncated-flag "$(tail -2 "$T/out" | head -c 400)"; fi
if run 0 --csv "$T/good.data" && [ "$(wc -l <"$T/out")" -eq 6 ] &&
   grep -q '^18,18,1,200,202,"second",truncated,0xbbbb0004,0,1,' "$T/out"; then
	ok csv; else ko csv "rc=$rc $(cat "$T/out")"; fi
if run 0 --summary "$T/good.data" && grep -q 'SPE records in truncated AUX ranges: 2' "$T/out" &&
   grep -q '3 AUXTRACE pieces in 2 AUX areas' "$T/out" && grep -q '^records: *5 ' "$T/out"; then
	ok summary; else ko summary "rc=$rc $(head -3 "$T/out")"; fi
if run 0 --strict --json "$T/good.data"; then ok strict-clean; else ko strict-clean "rc=$rc"; fi
if run 2 --json "$T/badmagic.data" && grep -q 'not a perf.data file (bad magic' "$T/err" &&
   [ ! -s "$T/out" ]; then ok bad-magic; else ko bad-magic "rc=$rc $(cat "$T/err")"; fi
if run 2 --json "$T/trunc.data" && grep -q 'truncated perf.data: data section' "$T/err"; then
	ok truncated-file; else ko truncated-file "rc=$rc $(cat "$T/err")"; fi
if run 2 --json "$T/truncaux.data" && grep -q 'bytes of AUX data at offset .* run past the end' "$T/err"; then
	ok truncated-aux; else ko truncated-aux "rc=$rc $(cat "$T/err")"; fi
if run 2 --summary "$T/pipe.data" && grep -q 'pipe mode' "$T/err"; then
	ok pipe-mode; else ko pipe-mode "rc=$rc $(cat "$T/err")"; fi
head -c 100 /dev/zero >"$T/zeros.bin"
if run 2 --perf-data "$T/zeros.bin" && grep -q 'bad magic' "$T/err"; then
	ok forced-perf-data; else ko forced-perf-data "rc=$rc $(cat "$T/err")"; fi

# --- spe-decode report ------------------------------------------------------
if run 0 report --top 3 "$T/good.data" &&
   grep -q '^spe-decode report: 5 SPE records (5 with a PC, 0 of them in the kernel), 5 loads' "$T/out" &&
   grep -q '^ *210 *5 *42.0  \[unresolved\] (\[unknown\])' "$T/out" &&
   grep -A1 'false-sharing' "$T/out" | tail -1 | grep -q 'line'; then
	ok report-counts; else ko report-counts "rc=$rc $(head -12 "$T/out")"; fi
# symbols: a host ELF with a known function, mapped by an MMAP2 record
CC=${CC:-cc}
printf 'int spe_test_hot(int x) { int i, s = 0; for (i = 0; i < x; i++) s += i * x; return s; }\nint main(int c, char **v) { return spe_test_hot(c); }\n' >"$T/elf.c"
if $CC -O1 -no-pie -o "$T/elf" "$T/elf.c" 2>/dev/null && command -v readelf >/dev/null; then
	fn=$(readelf -sW "$T/elf" | awk '$8 == "spe_test_hot" { print "0x" $2; exit }')
	seg=$(readelf -lW "$T/elf" | python3 -c '
import sys
f = int(sys.argv[1], 16)
for l in sys.stdin:
    w = l.split()
    if w and w[0] == "LOAD" and int(w[2], 16) <= f < int(w[2], 16) + int(w[5], 16):
        print(w[2], w[1])
        break
' "${fn:-0}")
	if [ -n "$fn" ] && [ -n "$seg" ]; then
		# shellcheck disable=SC2086 # seg is "VADDR OFFSET"
		python3 "$HERE/mkperfdata.py" sym "$T/sym.data" "$T/elf" $seg "$fn"
		if run 0 report "$T/sym.data" &&
		   grep -q '^ *7 *87.50% *6 *1 *0  spe_test_hot (elf)' "$T/out" &&
		   [ "$(sed -n '/false-sharing/,$p' "$T/out" | tail -n +3)" = \
		     "$(printf '%18s %7s %5s %8s %8s  %s' 0x1000040 300 2 1 1 'spe_test_hot (elf)')" ]; then
			ok report-symbols; else ko report-symbols "rc=$rc $(cat "$T/out" "$T/err" | head -30)"; fi
	else
		echo "SKIP: perfdata:report-symbols: could not read the test ELF's symbols"
	fi
else
	echo "SKIP: perfdata:report-symbols: no host compiler or readelf"
fi
# A mapping of a FIFO (a crafted file may name anything): report opens only
# regular files, so it neither blocks on the FIFO nor reads it.
if mkfifo "$T/fifo" 2>/dev/null; then
	python3 "$HERE/mkperfdata.py" sym "$T/fifo.data" "$T/fifo" 0x400000 0 0x401000
	if timeout 20 "$BIN" report "$T/fifo.data" >"$T/out" 2>"$T/err"; rc=$?; [ "$rc" -eq 0 ] &&
	   grep -q '\[unresolved\] (fifo)' "$T/out"; then
		ok report-fifo; else ko report-fifo "rc=$rc (124: blocked on the FIFO) $(head -c 300 "$T/err")"; fi
else
	echo "SKIP: perfdata:report-fifo: mkfifo failed in $T"
fi
if run 2 report "$T/badmagic.data" && grep -q 'bad magic' "$T/err"; then
	ok report-bad-magic; else ko report-bad-magic "rc=$rc"; fi

# --- a real recording ------------------------------------------------------
# tests/data/emul.perf.data.gz: `tools/perf/run-demo.sh --seconds 0.03
# --keep FILE` (make run KEEP=FILE with a shorter workload run): Debian's
# perf 6.12 recording the bundled spe_workload under the emulation.
REAL=$HERE/data/emul.perf.data.gz
if [ ! -s "$REAL" ]; then
	echo "SKIP: perfdata:real: $REAL missing"
	exit 0
fi
gzip -dc "$REAL" >"$T/real.data"
# An independent reader of the AUXTRACE records (tests/auxdata.py): the AUX
# data of each area joined in file order, to decode as a raw dump.
python3 "$HERE/auxdata.py" "$T/real.data" "$T/real"
if run 0 --summary "$T/real.data"; then
	cp "$T/out" "$T/real.summary"
	recs=0 pkts=0 pads=0
	for a in "$T"/real.*.aux; do
		"$BIN" --summary "$a" >"$T/a.summary" 2>/dev/null || { ko real "raw decode of $a failed"; exit 0; }
		recs=$((recs + $(awk '/^records:/ { print $2 }' "$T/a.summary")))
		pkts=$((pkts + $(awk '/^packets:/ { print $2 }' "$T/a.summary")))
		pads=$((pads + $(awk '/^padding bytes:/ { print $3 }' "$T/a.summary")))
	done
	if [ "$recs" -gt 100 ] &&
	   grep -q "^records: *$recs " "$T/real.summary" &&
	   grep -q "^packets: *$pkts\$" "$T/real.summary" &&
	   grep -q "^padding bytes: *$pads\$" "$T/real.summary" &&
	   grep -q '^decode errors: *0 ' "$T/real.summary"; then
		ok "real-same-records ($recs records)"
	else
		ko real-same-records "perf.data: $(grep -E '^(records|packets|padding)' "$T/real.summary" | tr '\n' ' ') raw: $recs $pkts $pads"
	fi
else
	ko real-same-records "rc=$rc $(head -3 "$T/err")"
fi
# every record attributed: the recording is per-thread on spe_workload
if run 0 --json "$T/real.data" &&
   [ "$(grep -c '"comm":"spe_workload"' "$T/out")" -eq "$(wc -l <"$T/out")" ] &&
   [ "$(grep -c '"pid":null\|"tid":null' "$T/out")" -eq 0 ]; then
	ok real-attributed; else ko real-attributed "rc=$rc $(grep -v spe_workload "$T/out" | head -c 300)"; fi
if run 0 --csv "$T/real.data" && [ "$(wc -l <"$T/out")" -eq $((recs + 1)) ]; then
	ok real-csv; else ko real-csv "rc=$rc $(wc -l <"$T/out") lines"; fi
# The input fuzz_perfdata.c found crashing the reader (fixed in 347e26e,
# where AUX areas came to be looked up by their idx instead of indexed by
# it): decoded as far as it makes sense, then exit 1 naming the decode
# error; never a crash.
if run 1 --json "$HERE/data/fuzz-aux-idx.perf.data" && grep -q 'decode error' "$T/err"; then
	ok fuzz-aux-idx; else ko fuzz-aux-idx "rc=$rc $(head -c 300 "$T/err")"; fi
