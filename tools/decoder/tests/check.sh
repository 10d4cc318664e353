#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# `make -C tools/decoder check`: builds and runs every decoder test.
#   1. host build (lib, CLI, unit tests) and the unit tests
#   2. the unit tests again under ASan+UBSan
#   3. the CLI tests and the perf.data tests
#   3b. the sanitizer build of spe-decode on corrupted input in every mode
#   4. bounded libFuzzer runs (FUZZ_SECONDS in all, default 60), one case a
#      target
# Missing host packages are installed with spe_need_host_pkgs.
# The last line printed is exactly: decoder: N passed, N failed, N skipped
# Exit status is non-zero iff a case failed.
set -u

cd "$(dirname "$0")/.." || exit 2
: "${TOP:=$(cd ../.. && pwd)}"
: "${OUT:=$PWD/build/host}"
: "${CC:=gcc}"
: "${FUZZ_SECONDS:=60}"
MAKE=${MAKE:-make}
# the library's sources (the fuzz targets build them): the Makefile's list
if [ -z "${LIB_SRCS:-}" ]; then
	echo "tests/check.sh: LIB_SRCS unset: run it as make -C tools/decoder check" >&2
	exit 2
fi
read -ra lib_srcs <<<"$LIB_SRCS"

pass=0
fail=0
skip=0
LOG="$OUT/check"
mkdir -p "$LOG"

say() { printf '%s\n' "$*"; }
# count PASS/FAIL/SKIP lines of a test program's output
tally() {
	local f=$1 p x s
	p=$(grep -c '^PASS: ' "$f")
	x=$(grep -c '^FAIL: ' "$f")
	s=$(grep -c '^SKIP: ' "$f")
	pass=$((pass + p))
	fail=$((fail + x))
	skip=$((skip + s))
	grep -E '^(FAIL|SKIP): ' "$f"
	say "  -> $p passed, $x failed, $s skipped"
}
case_pass() { say "PASS: $1"; pass=$((pass + 1)); }
case_fail() { say "FAIL: $1: $2"; fail=$((fail + 1)); }
finish() {
	local line="decoder: $pass passed, $fail failed, $skip skipped"

	# "make -C" prints "make: Leaving directory" after this recipe ends
	# (GNU make decides so at start-up; the Makefile cannot turn it off).
	# DEFER_PID is make's pid in that case (see Makefile). On a pipe the
	# summary is printed once make has exited, so it is the last line the
	# reader sees; on a file it is printed now and again after make exits;
	# on a terminal it is printed now.
	if [ -n "${DEFER_PID:-}" ] && kill -0 "$DEFER_PID" 2>/dev/null &&
	   { [ -p /dev/stdout ] || [ -f /dev/stdout ]; }; then
		[ -p /dev/stdout ] || say "$line"
		(
			i=0
			while kill -0 "$DEFER_PID" 2>/dev/null && [ $i -lt 12000 ]; do
				sleep 0.005
				i=$((i + 1))
			done
			say "$line"
		) &
	else
		say "$line"
	fi
	[ "$fail" -eq 0 ]
	exit $?
}

# The tests run on the host: a cross compiler in the caller's environment
# is not theirs (the cross build below names its own).
unset CROSS_COMPILE

# --- host packages -----------------------------------------------------------
PKGS="clang libclang-rt-14-dev libfuzzer-14-dev libelf-dev"
# shellcheck source=../../lib/apt.sh
# shellcheck disable=SC2086 # PKGS is a word list
if ! (. "$TOP/tools/lib/apt.sh" && spe_need_host_pkgs $PKGS) >"$LOG/pkgs.log" 2>&1; then
	say "warning: could not install host packages ($PKGS); see $LOG/pkgs.log"
fi

# --- 1. build + unit tests -------------------------------------------------------
say "== build ($CC, $OUT)"
if ! $MAKE -s OUT="$OUT" CC="$CC" all unit >"$LOG/build.log" 2>&1; then
	sed -n '1,40p' "$LOG/build.log"
	case_fail build "host build failed (see $LOG/build.log)"
	finish
fi
if grep -q 'warning:' "$LOG/build.log"; then
	grep 'warning:' "$LOG/build.log" | head -5
fi
# the unit test programs (tools/decoder/tests/NAME.c, UNIT_TESTS in the Makefile)
UNIT_TESTS=$($MAKE -s --no-print-directory print-unit-tests)
say "== unit tests"
for t in $UNIT_TESTS; do
	"$OUT/$t" >"$LOG/$t.out" 2>&1
	rc=$?
	tally "$LOG/$t.out"
	if ! grep -q '^PASS: \|^FAIL: ' "$LOG/$t.out"; then
		case_fail "$t" "test binary produced no results (crashed?)"
	elif [ $rc -ne 0 ] && ! grep -q '^FAIL: ' "$LOG/$t.out"; then
		case_fail "$t" "exit status $rc with no failing case (see $LOG/$t.out)"
	fi
done

# --- 2. unit tests under ASan+UBSan ----------------------------------------------
SAN_CC=
for c in clang clang-14 gcc; do
	command -v "$c" >/dev/null 2>&1 || continue
	if printf 'int main(void){return 0;}' | "$c" -x c -fsanitize=address,undefined \
		-o "$LOG/san-probe" - >/dev/null 2>&1; then
		SAN_CC=$c
		break
	fi
done
say "== unit tests under ASan+UBSan (${SAN_CC:-none})"
if [ -z "$SAN_CC" ]; then
	case_fail asan-ubsan "no compiler with working -fsanitize=address,undefined"
else
	SANF="-O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -DOB_CHECK"
	if $MAKE -s OUT="$OUT/asan" CC="$SAN_CC" CFLAGS="$SANF" LDFLAGS="-fsanitize=address,undefined" \
		all unit >"$LOG/asan-build.log" 2>&1; then
		for t in $UNIT_TESTS; do
			ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 \
				"$OUT/asan/$t" asan: >"$LOG/asan-$t.out" 2>&1
			rc=$?
			[ "$t" = unit ] || sed -i 's/^\(PASS\|FAIL\): /\1: asan:/' "$LOG/asan-$t.out"
			tally "$LOG/asan-$t.out"
			if [ $rc -ne 0 ] && ! grep -q '^FAIL: ' "$LOG/asan-$t.out"; then
				grep -m5 -E 'ERROR|runtime error' "$LOG/asan-$t.out"
				case_fail "asan-$t" "sanitizer reported an error (see $LOG/asan-$t.out)"
			fi
		done
	else
		sed -n '1,20p' "$LOG/asan-build.log"
		case_fail asan-build "sanitizer build failed (see $LOG/asan-build.log)"
	fi
fi

# --- headers: kernel context, plain C99, C++ ----------------------------------------
say "== header checks"
mkdir -p "$LOG/kshim/linux"
cat >"$LOG/kshim/linux/types.h" <<'EOF2'
/* stand-in for the kernel's linux/types.h: fixed-width types only */
typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;
typedef u8 uint8_t;
typedef u16 uint16_t;
typedef u32 uint32_t;
typedef u64 uint64_t;
EOF2
printf '#include <arm_spe/spe_packet.h>\nint f(uint64_t p);\nint f(uint64_t p) { return (int)SPE_ADDR_EL(p) + (int)SPE_HDR_PAYLOAD_LEN(SPE_HDR_TIMESTAMP) + (int)(spe_addr_va_sext(p) >> 63); }\n' >"$LOG/hdr.c"
if $CC -D__KERNEL__ -nostdinc -ffreestanding -std=gnu11 -Wall -Wextra -Werror -I"$LOG/kshim" \
	-I"$TOP/include" -c -o "$LOG/hdr-kernel.o" "$LOG/hdr.c" >"$LOG/hdr-kernel.log" 2>&1; then
	case_pass "header: spe_packet.h with __KERNEL__ (linux/types.h only, -nostdinc)"
else
	case_fail "header: spe_packet.h with __KERNEL__" "see $LOG/hdr-kernel.log"
fi
if $CC -std=c99 -pedantic -Wall -Wextra -Werror -I"$TOP/include" -c -o "$LOG/hdr-c99.o" \
	"$LOG/hdr.c" >"$LOG/hdr-c99.log" 2>&1; then
	case_pass "header: spe_packet.h as strict C99 (-pedantic -Werror)"
else
	case_fail "header: spe_packet.h as strict C99" "see $LOG/hdr-c99.log"
fi
CXX=${CXX:-g++}
if command -v "$CXX" >/dev/null 2>&1; then
	printf '#include <arm_spe/spe_decoder.h>\nint main() { struct spe_decoder d; spe_decoder_init(&d, 0, 0, 0); return 0; }\n' >"$LOG/hdr.cc"
	if $CXX -Wall -Wextra -Werror -I"$TOP/include" -o "$LOG/hdr-cxx" "$LOG/hdr.cc" \
		"$OUT/libspe_decoder.a" >"$LOG/hdr-cxx.log" 2>&1; then
		case_pass "header: spe_decoder.h from C++ with the static library"
	else
		case_fail "header: spe_decoder.h from C++" "see $LOG/hdr-cxx.log"
	fi
else
	case_fail "header: spe_decoder.h from C++" "no C++ compiler ($CXX) installed"
fi

# --- cross build (the in-VM selftests link the arm64 static library) ---------------
if command -v aarch64-linux-gnu-gcc >/dev/null 2>&1; then
	if $MAKE -s CROSS_COMPILE=aarch64-linux-gnu- OUT="$OUT/../aarch64-check" all \
		>"$LOG/cross.log" 2>&1 &&
	   aarch64-linux-gnu-objdump -f "$OUT/../aarch64-check/libspe_decoder.a" | grep -q 'aarch64'; then
		case_pass "cross: arm64 libspe_decoder.a and static spe-decode build"
	else
		case_fail "cross: arm64 build" "see $LOG/cross.log"
	fi
else
	case_fail "cross: arm64 build" "aarch64-linux-gnu-gcc not installed (apt: gcc-aarch64-linux-gnu)"
fi

# --- 3. CLI tests ----------------------------------------------------------------
say "== CLI tests"
bash tests/cli.sh "$OUT/spe-decode" >"$LOG/cli.out" 2>"$LOG/cli.err"
tally "$LOG/cli.out"

say "== perf.data tests"
bash tests/perfdata.sh "$OUT/spe-decode" >"$LOG/perfdata.out" 2>"$LOG/perfdata.err"
tally "$LOG/perfdata.out"

# --- 3b. every output mode of the sanitizer build on corrupted input -------------
say "== sanitizer sweep (tests/sweep.py)"
if [ -x "$OUT/asan/spe-decode" ] && [ -x "$OUT/asan/outbound" ]; then
	rm -f "$LOG/longest.bin"
	if ! "$OUT/asan/outbound" --trace "$LOG/longest.bin" >/dev/null 2>&1 || [ ! -s "$LOG/longest.bin" ]; then
		case_fail sweep-input "tests/outbound.c --trace wrote no trace of the longest records"
	fi
	python3 tests/sweep.py "$OUT/asan/spe-decode" "$LOG/sweep" --trace "$LOG/longest.bin" \
		>"$LOG/sweep.out" 2>"$LOG/sweep.err"
	rc=$?
	tally "$LOG/sweep.out"
	# a sweep that died part way (an exception, a missing input) is a failure
	# even when every case it printed passed
	if [ $rc -ne 0 ] && ! grep -q '^FAIL: ' "$LOG/sweep.out"; then
		tail -n 3 "$LOG/sweep.err"
		case_fail sweep "tests/sweep.py exit status $rc with no failing case (see $LOG/sweep.err)"
	elif ! grep -q '^sweep: [0-9]* passed, 0 failed$' "$LOG/sweep.err" && [ $rc -eq 0 ]; then
		case_fail sweep "tests/sweep.py printed no summary (see $LOG/sweep.err)"
	fi
else
	case_fail sweep "no sanitizer build of spe-decode to sweep"
fi

# --- 4. fuzzing ------------------------------------------------------------------
# Each target (tests/fuzz*.c, the header of each says what it checks) runs
# for a bounded time under ASan and UBSan, built with -DOB_CHECK. Of
# FUZZ_SECONDS (default 60), the decoder's own target takes two fifths and
# the six output and input paths share the rest.
say "== libFuzzer (${FUZZ_SECONDS}s in all)"
FCC=
for c in clang clang-14; do
	command -v "$c" >/dev/null 2>&1 || continue
	if printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n){return 0;}' |
		"$c" -x c -fsanitize=fuzzer -o "$LOG/fuzz-probe" - >/dev/null 2>&1; then
		FCC=$c
		break
	fi
done
# name, sources beyond the library, seeds
FUZZ_TARGETS=(
	"fuzz|tests/fuzz.c|raw"
	"fuzz-json|tests/fuzz_format.c outbuf.c spe_format.c|fmt"
	"fuzz-csv|-DFUZZ_CSV tests/fuzz_format.c outbuf.c spe_format.c|fmt"
	"fuzz-stream|tests/fuzz_stream.c outbuf.c spe_format.c|flagged"
	"fuzz-dump|tests/fuzz_dump.c spe_dump.c perf_data.c|flagged"
	"fuzz-perfdata|tests/fuzz_perfdata.c perf_data.c perf_decode.c spe_dump.c outbuf.c spe_format.c|perf"
	"fuzz-report|tests/fuzz_report.c report.c symbols.c perf_data.c perf_decode.c outbuf.c spe_format.c|perf"
)
if [ -z "$FCC" ]; then
	case_fail fuzz "clang with libFuzzer (-fsanitize=fuzzer) not available; install clang and libfuzzer-14-dev"
else
	FD="$OUT/fuzz"
	FF=(-std=c11 -D_DEFAULT_SOURCE -g -O1 -fno-sanitize-recover=all -DOB_CHECK -I"$TOP/include")
	mkdir -p "$FD/lib" "$FD/seeds"
	# the library once, instrumented, for every target
	lib_objs=()
	lib_ok=1
	for src in "${lib_srcs[@]}"; do
		o="$FD/lib/${src%.c}.o"
		lib_objs+=("$o")
		"$FCC" "${FF[@]}" -fsanitize=fuzzer-no-link,address,undefined -c -o "$o" "$src" \
			>>"$LOG/fuzz-build.log" 2>&1 || lib_ok=0
	done
	# seeds: hand-written records (see tests/cli.sh for their derivation),
	# the longest records (tests/outbound.c), a perf.data file
	printf '\xb0\x00\x10\x00\xd0\xaa\xaa\x00\x80\x99\x05\x00\x98\x2a\x00\x64\xd2\x04\x00\x00\x49\x00\x52\x16\x00\x9a\x03\x00\xb2\x40\x30\x20\x10\xff\xff\x00\x00\xb3\x40\x30\x20\x80\x00\x00\x00\x80\x43\x00\x71\x10\x32\x54\x76\x98\xba\xdc\x0e' >"$FD/seeds/load"
	printf '\xb0\x00\x20\x40\x00\x00\x00\x00\xa0\x4a\x01\x42\x42\x98\x01\x00\xb1\x00\x30\x40\x00\x00\x00\x00\xa0\x01' >"$FD/seeds/branch"
	printf '\x20\xb4\x01\x00\x00\x00\x00\x00\x00\x00\x22\x99\x02\x00\x2e\x00\x44\xaa\x01\x22\x00\x00\x00\x00\x00\x00\x00\x42\x02\x01' >"$FD/seeds/ext"
	rm -rf "$FD/seeds/raw" "$FD/seeds/fmt" "$FD/seeds/flagged" "$FD/seeds/perf"
	mkdir -p "$FD/seeds/raw" "$FD/seeds/fmt" "$FD/seeds/flagged" "$FD/seeds/perf"
	"$OUT/outbound" --trace "$LOG/longest.bin" >/dev/null 2>&1
	head -c 1200 "$LOG/longest.bin" >"$FD/seeds/longest" 2>/dev/null
	for sd in load branch ext longest; do
		cp "$FD/seeds/$sd" "$FD/seeds/raw/$sd"
		# fuzz-json/csv: offset, flags, AUX flags and a 5-byte comm first
		{ printf '\x10\x00\x02\x0f\x05"\x01\xc3\xa9\\'; cat "$FD/seeds/$sd"; } >"$FD/seeds/fmt/$sd"
		# fuzz-stream/dump: flags and an 8-byte address first
		{ printf '\x31\x00\x10\x00\x00\x00\x00\x00\x00'; cat "$FD/seeds/$sd"; } >"$FD/seeds/flagged/$sd"
	done
	python3 tests/mkperfdata.py good "$FD/seeds/perf/good" 2>/dev/null
	n_targets=${#FUZZ_TARGETS[@]}
	for t in "${FUZZ_TARGETS[@]}"; do
		IFS='|' read -r name srcs seeds <<<"$t"
		if [ "$name" = fuzz ]; then
			secs=$((FUZZ_SECONDS * 2 / 5))
		else
			secs=$((FUZZ_SECONDS * 3 / 5 / (n_targets - 1)))
		fi
		[ "$secs" -ge 1 ] || secs=1
		TD="$FD/$name"
		rm -rf "$TD/artifacts"
		mkdir -p "$TD/corpus" "$TD/artifacts"
		# shellcheck disable=SC2086 # srcs is a word list
		if [ "$lib_ok" = 0 ] || ! "$FCC" "${FF[@]}" -fsanitize=fuzzer,address,undefined \
			-o "$TD/$name" $srcs "${lib_objs[@]}" >"$LOG/$name-build.log" 2>&1; then
			sed -n '1,20p' "$LOG/$name-build.log" "$LOG/fuzz-build.log"
			case_fail "$name" "fuzz target build failed (see $LOG/$name-build.log)"
			continue
		fi
		# bounded: one job, memory and per-input time limits; the wall
		# clock limit is enforced by timeout as well
		timeout -k 10 $((secs + 60)) "$TD/$name" -max_total_time="$secs" -timeout=10 \
			-rss_limit_mb=1024 -max_len=8192 -print_final_stats=1 \
			-artifact_prefix="$TD/artifacts/" "$TD/corpus" "$FD/seeds/$seeds" \
			>"$LOG/$name.log" 2>&1
		rc=$?
		execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$LOG/$name.log" | tail -1)
		if [ $rc -eq 0 ] && [ -z "$(find "$TD/artifacts" -type f)" ]; then
			case_pass "$name: ${execs:-?} executions in ${secs}s, 0 crashes"
		else
			grep -m5 -E 'ERROR|runtime error|deadly signal|outbuf:|Test unit written' "$LOG/$name.log"
			case_fail "$name" "libFuzzer exit $rc after ${execs:-?} executions (see $LOG/$name.log, $TD/artifacts)"
		fi
	done
fi

finish
