#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# The decoder's mutants (make mutants, area "decoder"): each removes one
# bound of spe-decode's output and input paths (the mistakes behind the
# JSON buffer overflow and their kind) or breaks the reading of a packet,
# and must fail a decoder test. A control run first: the unmutated tree
# must pass every test the mutants use. Each is applied with sed to a copy of tools/decoder and
# include/, the test it names is built (ASan, UBSan and -DOB_CHECK, as
# tests/check.sh builds its sanitizer run; "perfdata" the plain CLI) and
# run. Prints, per mutant:
#   mutant NAME: killed by TEST (the first FAIL line or sanitizer report)
#   mutant NAME: SURVIVED
#   mutant NAME: ERROR: ... (the script no longer applies, the build
#                broke, or the test timed out: not counted as killed)
# then "decoder mutants: N killed, N survived, N errors". Exit status 1
# unless every mutant was killed.
#
#   tools/mutants/decoder.sh [NAME...]
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
out=${MUTANTS_OUT:-$top/build/mutants}/decoder
SAN="-O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -DOB_CHECK"

declare -a M_NAME M_FILE M_TEST M_SED
m() { M_NAME+=("$1"); M_FILE+=("$2"); M_TEST+=("$3"); M_SED+=("$4"); }

# FILE is relative to the tree; TEST is "unit:PROGRAM" (a tests/PROGRAM.c of
# the decoder, sanitizer build) or "perfdata" (tests/perfdata.sh, plain CLI).
fmt=tools/decoder/spe_format.c pd=tools/decoder/perf_data.c
# the output buffer's reservations: the JSON overflow as it was, and CSV's
m json-room-512 $fmt unit:outbound 's/ob_room(ob, J_RECORD_MAX);/ob_room(ob, 512);/'
m csv-room-512 $fmt unit:outbound 's/ob_room(ob, C_RECORD_MAX);/ob_room(ob, 512);/'
# the comm: cut at FMT_COMM_MAX bytes in both modes, UTF-8 checked in JSON
m json-comm-uncut $fmt unit:outbound 's/while (end - s < FMT_COMM_MAX \&\& \*end)/while (*end)/'
m csv-comm-uncut $fmt unit:outbound 's/s - c->comm < FMT_COMM_MAX \&\& \*s; s++/*s; s++/'
m json-raw-bytes $fmt unit:outbound \
	's/} else if ((n = utf8_len(s, (size_t)(end - s))) != 0) {/} else if ((n = 1) != 0) {/'
# a comm need not end within FMT_COMM_MAX bytes: nothing past them is read
m json-comm-read-past-cap $fmt unit:outbound \
	's/while (end - s < FMT_COMM_MAX \&\& \*end)/while (*end \&\& end - s < FMT_COMM_MAX)/'
m csv-comm-read-past-cap $fmt unit:outbound \
	's/s - c->comm < FMT_COMM_MAX \&\& \*s; s++/*s \&\& s - c->comm < FMT_COMM_MAX; s++/'
m utf8-read-past-cut $fmt unit:outbound '/^\tif (n > avail)$/{N;d}'
# the Events JSON cache: its entries hold 245 bytes
m events-cache-unbounded $fmt unit:outbound \
	's/if ((size_t)(ob->p - from) < sizeof(f->s)) {/if (ob->p != from) {/'
# the perf.data reader
m pd-comm-uncut $pd unit:pdbounds '/if (n > sizeof(t->comm) - 1)/{N;d}'
m pd-short-record $pd unit:pdbounds 's/if (size < 8 || size > end - pos)/if (size > end - pos)/'
m pd-mmap-name-unterminated $pd unit:pdbounds \
	's/if (size < 72 || !memchr(r + 72, 0, size - 72u))/if (size < 72)/'
m pd-cpu-table $pd unit:pdbounds '0,/if (cpu >= 0 \&\& cpu < 1024) {/s//if (cpu >= 0) {/'
m pd-sample-id-short $pd unit:pdbounds 's/if (end >= rec + 8)$/if (end >= rec)/'
# report: the files a perf.data names
m report-opens-any-file tools/decoder/symbols.c perfdata \
	's/O_RDONLY | O_NONBLOCK | O_NOCTTY/O_RDONLY/;s/ || !S_ISREG(st.st_mode)//'

# The decoder's reading of the packets (D18.2), against its unit tests'
# hand-written vectors: a field taken from the wrong bits, a wrong size,
# a resynchronization that skips a record, a flag not set.
pkt=include/arm_spe/spe_packet.h dec=tools/decoder/spe_decoder.c desc=tools/decoder/spe_describe.c
m addr-el-bits $pkt unit:unit 's/^#define SPE_ADDR_EL_SHIFT\t\t61$/#define SPE_ADDR_EL_SHIFT\t\t60/'
m addr-tag-bits $pkt unit:unit 's/^#define SPE_ADDR_TAG_SHIFT\t\t56$/#define SPE_ADDR_TAG_SHIFT\t\t55/'
m addr-pat-width $pkt unit:unit 's/>> SPE_ADDR_PAT_SHIFT) \& 0xfu)/>> SPE_ADDR_PAT_SHIFT) \& 0x7u)/'
m va-sign-bit $pkt unit:unit 's/(a \& (1ull << 55))/(a \& (1ull << 54))/'
m payload-size $pkt unit:unit 's/(1u << SPE_HDR_SZ(b)))/(1u << (SPE_HDR_SZ(b) \& 1u)))/'
m counter-saturation-12 $pkt unit:unit \
	's/(SPE_CNT_VALUE(p, bits) == ((bits) == 12 ? 0x0fffu : 0xffffu))/(SPE_CNT_VALUE(p, bits) == ((bits) == 12 ? 0xffffu : 0xffffu))/'
m branch-cond-bit $pkt unit:unit 's/^#define SPE_OP_BR_COND\t\t\t0x01u/#define SPE_OP_BR_COND\t\t\t0x02u/'
m event-name-swapped $desc unit:unit 's/\[SPE_EV_L1D_ACCESS\] = "l1d-access"/[SPE_EV_L1D_ACCESS] = "l1d-refill"/'
m resync-after-end-late $dec unit:unit 's/return (size_t)(q + 1 - buf);/return (size_t)(q + 2 - buf);/'
m resync-after-timestamp-late $dec unit:unit 's/return (size_t)(q + 9 - buf);/return (size_t)(q + 10 - buf);/'
m extra-offset-off-by-one $dec unit:unit \
	's/x->rel_offset = (uint32_t)(off - rec->offset);/x->rel_offset = (uint32_t)(off - rec->offset + 1);/'
m duplicate-not-flagged $dec unit:unit 's/(rec)->present |= SPE_REC_DUP;/(void)(rec);/'

names=("$@")
selected() {
	local n
	[ ${#names[@]} -eq 0 ] && return 0
	for n in "${names[@]}"; do [ "$n" = "$1" ] && return 0; done
	return 1
}

command -v clang >/dev/null || { echo "decoder mutants: clang is needed (make check installs it)"; exit 2; }

# run_test TEST DEC OUT LOG: build what TEST needs from the decoder tree
# DEC into OUT and run it, its output in LOG; prints "build" if the build
# failed, else the test's exit status.
run_test() {
	local test=$1 dec=$2 b=$3 log=$4 prog
	case $test in
	unit:*)
		prog=${test#unit:}
		make -s -C "$dec" OUT="$b" CC=clang CFLAGS="$SAN" \
			LDFLAGS="-fsanitize=address,undefined" "$b/$prog" >"$log.build" 2>&1 || { echo build; return; }
		timeout 120 "$b/$prog" >"$log" 2>&1
		;;
	perfdata)
		make -s -C "$dec" OUT="$b" all >"$log.build" 2>&1 || { echo build; return; }
		timeout 300 bash "$dec/tests/perfdata.sh" "$b/spe-decode" >"$log" 2>&1
		;;
	esac
	echo $?
}

# The control run: the unmutated tree passes every test the mutants use,
# in this run, or no kill means anything.
tests=$(printf '%s\n' "${M_TEST[@]}" | sort -u)
rm -rf "$out/control" && mkdir -p "$out/control"
for t in $tests; do
	# a build of its own per test, as each mutant's (the plain perfdata
	# build must not stand in for a sanitizer one)
	rc=$(run_test "$t" "$top/tools/decoder" "$out/control/${t//:/-}" "$out/control/${t//:/-}.log")
	if [ "$rc" != 0 ] || grep -aqE '^FAIL: |ERROR: AddressSanitizer|runtime error:|^outbuf: ' \
		"$out/control/${t//:/-}.log"; then
		echo "decoder mutants: the control run fails $t (${out#"$top/"}/control/): no mutant is judged"
		exit 2
	fi
done
echo "decoder mutants: control run: $(echo "$tests" | wc -l) tests pass on the unmutated tree"
killed=0 survived=0 errors=0
for i in "${!M_NAME[@]}"; do
	name=${M_NAME[$i]} file=${M_FILE[$i]} test=${M_TEST[$i]}
	selected "$name" || continue
	d=$out/$name
	rm -rf "$d" && mkdir -p "$d/tree/tools"
	cp -r "$top/include" "$d/tree/"
	cp -r "$top/tools/decoder" "$d/tree/tools/"
	rm -rf "$d/tree/tools/decoder/build"
	sed -i -e "${M_SED[$i]}" "$d/tree/$file"
	if cmp -s "$top/$file" "$d/tree/$file"; then
		echo "mutant $name: ERROR: the script no longer changes $file"
		errors=$((errors + 1))
		continue
	fi
	diff -u "$top/$file" "$d/tree/$file" >"$d/mutant.diff"
	rc=$(run_test "$test" "$d/tree/tools/decoder" "$d/b" "$d/test.log")
	if [ "$rc" = build ]; then
		echo "mutant $name: ERROR: does not build (${d#"$top/"}/test.log.build)"
		errors=$((errors + 1))
		continue
	fi
	by=$(grep -a -m1 -E '^FAIL: |ERROR: AddressSanitizer|runtime error:|^outbuf: ' "$d/test.log")
	if [ "$rc" -eq 124 ] && [ -z "$by" ]; then
		echo "mutant $name: ERROR: $test timed out (not counted as killed)"
		errors=$((errors + 1))
	elif [ -n "$by" ]; then
		echo "mutant $name: killed by $test: $(printf '%s' "$by" | sed 's/^FAIL: //' | cut -c1-110)"
		killed=$((killed + 1))
	else
		echo "mutant $name: SURVIVED ($test exit status $rc)"
		survived=$((survived + 1))
	fi
done
echo "decoder mutants: $killed killed, $survived survived, $errors errors"
[ "$survived" -eq 0 ] && [ "$errors" -eq 0 ]
