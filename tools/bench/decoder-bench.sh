#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# Benchmark libspe_decoder against perf's arm-spe packet decoder.
#
#   tools/bench/decoder-bench.sh [--size MB] [--reps N] [--keep] [--base REF]
#
# 1. builds libspe_decoder and the harness (tools/bench/decoder-bench.c), -O2
# 2. fetches perf's tools/perf/util/arm-spe-decoder/arm-spe-pkt-decoder.[ch]
#    from Debian's linux-source-6.12 package into $ARM_SPE_CACHE (extracting
#    only those two files) and builds them against a small shim of the kernel
#    headers they include, generated here; nothing of it is committed
# 3. generates two independent traces with tools/bench/decoder-gen.c
#    (default 256 MiB each; one without padding, one with 64-byte record
#    alignment) and a third from a real capture under the emulation (the
#    AUX data of tools/decoder/tests/data/emul.perf.data.gz, repeated), and
#    prints, side by side in one run: the machine's read
#    bandwidth, MB/s of our record and packet iterators and of perf's
#    decoder loop, the ratios, each decoder's counts checked against what
#    the generator wrote; then whole processes: spe-decode --summary,
#    --json and --csv against perf's loop as a process (read + decode).
# --base REF also builds the decoder of git revision REF (tools/decoder and
# include/ at REF, its symbols renamed base_*) and times it in the same run,
# on the same bytes, next to the current one: rows "base: ...", the ratios
# ours/base, and REF's spe-decode --summary, --json and --csv as processes
# (ratios above 1: the current one is faster).
# DECODER_BENCH_BUILD overrides the build directory.
# Not part of `make check`.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
SIZE=256
REPS=3
KEEP=0
BASE=
while [ $# -gt 0 ]; do
	case $1 in
	--size) SIZE=$2; shift 2 ;;
	--reps) REPS=$2; shift 2 ;;
	--keep) KEEP=1; shift ;;
	--base) BASE=$2; shift 2 ;;
	-h|--help) sed -n '4,27p' "$0"; exit 0 ;;
	*) echo "decoder-bench: unknown option $1" >&2; exit 2 ;;
	esac
done

export SPE_LOG_TAG=decoder-bench
# shellcheck source=../lib/apt.sh
. "$TOP/tools/lib/apt.sh"
CC=${CC:-gcc}
W="$ARM_SPE_CACHE/decoder-bench"
B=${DECODER_BENCH_BUILD:-$W/build}
mkdir -p "$B/shim/linux"

# --- 1. our library, -O2 ------------------------------------------------------
make -s -C "$TOP/tools/decoder" OUT="$B/lib" CC="$CC" CFLAGS="-O2" all >/dev/null

# --- 2. perf's decoder -----------------------------------------------------------
PERF_DIR="$W/perf"
have_perf=0
fetch_perf() {
	local ver deb
	[ -s "$PERF_DIR/arm-spe-pkt-decoder.c" ] && [ -s "$PERF_DIR/arm-spe-pkt-decoder.h" ] && return 0
	command -v dpkg-deb >/dev/null || { spe_log "dpkg-deb missing"; return 1; }
	spe_apt_setup || return 1
	ver=$(spe_apt_newest linux-source-6.12) || return 1
	[ -n "$ver" ] || { spe_log "linux-source-6.12 not found in the private apt lists"; return 1; }
	spe_log "fetching linux-source-6.12 $ver (only arm-spe-pkt-decoder.[ch] are extracted)"
	deb=$(spe_apt_download linux-source-6.12 "$ver" "$ARM_SPE_CACHE/linux-src") || return 1
	mkdir -p "$PERF_DIR.tmp"
	dpkg-deb --fsys-tarfile "$deb" |
		tar -xO --wildcards './usr/src/linux-source-*.tar.xz' |
		xz -dc | tar -x -C "$PERF_DIR.tmp" --strip-components=5 --wildcards \
			'*/tools/perf/util/arm-spe-decoder/arm-spe-pkt-decoder.[ch]' || return 1
	[ -s "$PERF_DIR.tmp/arm-spe-pkt-decoder.c" ] || return 1
	rm -rf "$PERF_DIR"
	mv "$PERF_DIR.tmp" "$PERF_DIR"
}

# Minimal stand-ins for the kernel/tools headers perf's file includes.
write_shim() {
	cat >"$B/shim/linux/bitops.h" <<'EOF'
#ifndef SHIM_BITOPS_H
#define SHIM_BITOPS_H
#define BIT(n)			(1UL << (n))
#define BIT_ULL(n)		(1ULL << (n))
#define GENMASK(h, l)		((~0UL << (l)) & (~0UL >> (63 - (h))))
#define GENMASK_ULL(h, l)	((~0ULL << (l)) & (~0ULL >> (63 - (h))))
#endif
EOF
	cat >"$B/shim/linux/bitfield.h" <<'EOF'
#ifndef SHIM_BITFIELD_H
#define SHIM_BITFIELD_H
#include <linux/bitops.h>
#define FIELD_GET(m, v)		(((v) & (m)) >> __builtin_ctzll(m))
#define FIELD_PREP(m, v)	(((unsigned long long)(v) << __builtin_ctzll(m)) & (m))
#endif
EOF
	cat >"$B/shim/linux/kernel.h" <<'EOF'
#ifndef SHIM_KERNEL_H
#define SHIM_KERNEL_H
#include <stdint.h>
#include <stddef.h>
typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#ifndef __maybe_unused
#define __maybe_unused		__attribute__((unused))
#endif
#endif
EOF
	cat >"$B/shim/linux/unaligned.h" <<'EOF'
#ifndef SHIM_UNALIGNED_H
#define SHIM_UNALIGNED_H
#include <stdint.h>
#include <string.h>
#include <endian.h>
static inline uint16_t get_unaligned_le16(const void *p)
{ uint16_t v; memcpy(&v, p, 2); return le16toh(v); }
static inline uint32_t get_unaligned_le32(const void *p)
{ uint32_t v; memcpy(&v, p, 4); return le32toh(v); }
static inline uint64_t get_unaligned_le64(const void *p)
{ uint64_t v; memcpy(&v, p, 8); return le64toh(v); }
#endif
EOF
}

PERF_FLAGS=()
PERF_OBJ=()
if fetch_perf; then
	write_shim
	if $CC -O2 -std=gnu11 -w -I"$B/shim" -I"$PERF_DIR" -c -o "$B/perf-pkt.o" \
		"$PERF_DIR/arm-spe-pkt-decoder.c" 2>"$B/perf-build.log" &&
	   $CC -O2 -std=gnu11 -Wall -I"$B/shim" -I"$PERF_DIR" -c -o "$B/perf-loop.o" \
		"$HERE/decoder-bench-perf.c" 2>>"$B/perf-build.log"; then
		have_perf=1
		PERF_FLAGS=(-DHAVE_PERF_DECODER)
		PERF_OBJ=("$B/perf-pkt.o" "$B/perf-loop.o")
	else
		spe_log "could not build perf's decoder (see $B/perf-build.log); benchmarking ours only"
	fi
else
	spe_log "could not fetch perf's decoder; benchmarking ours only"
fi

# --- the baseline: REF's library with its spe_* symbols renamed base_spe_* -------
BASE_FLAGS=()
BASE_OBJ=()
if [ -n "$BASE" ]; then
	rev=$(git -C "$TOP" rev-parse --short "$BASE^{commit}") || { echo "decoder-bench: no revision $BASE" >&2; exit 2; }
	rm -rf "$B/base-src"
	mkdir -p "$B/base-src"
	git -C "$TOP" archive "$rev" tools/decoder include | tar -x -C "$B/base-src"
	make -s -C "$B/base-src/tools/decoder" OUT="$B/base" CC="$CC" CFLAGS="-O2" all >/dev/null
	nm -g --defined-only "$B/base/libspe_decoder.a" |
		awk '$3 ~ /^spe_/ { print $3, "base_" $3 }' >"$B/base/syms.map"
	objcopy --redefine-syms="$B/base/syms.map" "$B/base/libspe_decoder.a" "$B/base/libbase.a"
	BASE_FLAGS=(-DHAVE_BASE_DECODER "-DBASE_REV=\"$BASE ($rev)\"")
	BASE_OBJ=("$B/base/libbase.a")
fi

$CC -O2 -std=gnu11 -Wall -I"$TOP/include" -I"$TOP/tools/decoder" "${PERF_FLAGS[@]}" "${BASE_FLAGS[@]}" -o "$B/decoder-bench" \
	"$HERE/decoder-bench.c" "${PERF_OBJ[@]}" "$B/lib/libspe_decoder.a" "${BASE_OBJ[@]}"

$CC -O2 -std=gnu11 -Wall -o "$B/decoder-gen" "$HERE/decoder-gen.c"

# --- 3. traces + timing ------------------------------------------------------------
# Independent traces from tools/bench/decoder-gen.c (written from the packet
# tables, not with the project's encoder): no alignment padding (the
# decoders' worst case), and records padded to 64 bytes (PMBIDR_EL1.Align).
echo "machine: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1), $(nproc) CPUs"
[ -z "$BASE" ] || echo "baseline: $BASE ($rev), rows \"base: ...\""
echo "compiler: $($CC --version | head -1), -O2; perf decoder: $([ $have_perf = 1 ] && echo "linux-source-6.12 tools/perf/util/arm-spe-decoder" || echo unavailable)"
# A real capture: the AUX data of tools/decoder/tests/data/emul.perf.data.gz
# (perf record under the emulation), repeated to SIZE MiB.
make_emul() {
	local out=$1 fixture=$TOP/tools/decoder/tests/data/emul.perf.data.gz
	[ -s "$fixture" ] && command -v python3 >/dev/null || return 1
	gzip -dc "$fixture" | python3 "$TOP/tools/decoder/tests/auxdata.py" --joined - "$out" "$SIZE"
}

status=0
for spec in "noalign:--seed 1" "align64:--seed 2 --align 64" "emul:"; do
	name=${spec%%:*}
	TRACE="$W/gen-$name-${SIZE}M.bin"
	if [ "$name" = emul ]; then
		make_emul "$TRACE" || { echo "== trace emul: no fixture or python3, skipped"; continue; }
		expect=""
		echo
		echo "== trace emul (the AUX data of tools/decoder/tests/data/emul.perf.data.gz, repeated)"
	else
		# shellcheck disable=SC2086 # the generator options are words
		expect=$("$B/decoder-gen" ${spec#*:} "$TRACE" "$SIZE")
		echo
		echo "== trace $name (decoder-gen ${spec#*:}): $expect"
	fi
	"$B/decoder-bench" run "$TRACE" "$REPS" "$expect" || status=1
	# whole processes: read the file, decode, print (stdout to /dev/null)
	t_sum=$("$B/decoder-bench" time "$REPS" "$B/lib/spe-decode" --summary "$TRACE") || status=1
	t_json=$("$B/decoder-bench" time "$REPS" "$B/lib/spe-decode" --json "$TRACE") || status=1
	t_csv=$("$B/decoder-bench" time "$REPS" "$B/lib/spe-decode" --csv "$TRACE") || t_csv=
	t_base='' t_bjson='' t_bcsv=''
	if [ -n "$BASE" ]; then
		t_base=$("$B/decoder-bench" time "$REPS" "$B/base/spe-decode" --summary "$TRACE") || status=1
		t_bjson=$("$B/decoder-bench" time "$REPS" "$B/base/spe-decode" --json "$TRACE") || status=1
		t_bcsv=$("$B/decoder-bench" time "$REPS" "$B/base/spe-decode" --csv "$TRACE") || t_bcsv=
	fi
	t_perf=
	[ $have_perf = 1 ] && { t_perf=$("$B/decoder-bench" time "$REPS" "$B/decoder-bench" perf-proc "$TRACE") || status=1; }
	bytes=$(stat -c %s "$TRACE")
	awk -v b="$bytes" -v s="$t_sum" -v j="$t_json" -v c="$t_csv" -v p="$t_perf" -v o="$t_base" \
		-v bj="$t_bjson" -v bc="$t_bcsv" 'BEGIN {
		split(s, S, " "); split(j, J, " "); split(c, C, " "); split(p, P, " "); split(o, O, " ")
		split(bj, BJ, " "); split(bc, BC, " ")
		printf "process: spe-decode --summary          %8.1f MB/s [%7.1f]\n", b / 1e6 / S[1], b / 1e6 / S[2]
		if (o != "")
			printf "process: base spe-decode --summary     %8.1f MB/s [%7.1f]\n", b / 1e6 / O[1], b / 1e6 / O[2]
		printf "process: spe-decode --json             %8.1f MB/s [%7.1f]\n", b / 1e6 / J[1], b / 1e6 / J[2]
		if (c != "")
			printf "process: spe-decode --csv              %8.1f MB/s [%7.1f]\n", b / 1e6 / C[1], b / 1e6 / C[2]
		if (p != "") {
			printf "process: perf decoder loop (read+decode)%7.1f MB/s [%7.1f]\n", b / 1e6 / P[1], b / 1e6 / P[2]
			printf "ratio --summary/perf process: %.2fx\n", P[1] / S[1]
			if (o != "")
				printf "ratio base --summary/perf process: %.2fx\n", P[1] / O[1]
		}
		if (bj != "") {
			printf "process: base spe-decode --json        %8.1f MB/s [%7.1f]\n", b / 1e6 / BJ[1], b / 1e6 / BJ[2]
			printf "ratio --json/base --json: %.3fx\n", BJ[1] / J[1]
		}
		if (bc != "" && c != "") {
			printf "process: base spe-decode --csv         %8.1f MB/s [%7.1f]\n", b / 1e6 / BC[1], b / 1e6 / BC[2]
			printf "ratio --csv/base --csv: %.3fx\n", BC[1] / C[1]
		}
		printf "json MB/s: %.1f\n", b / 1e6 / J[1]
		if (c != "")
			printf "csv MB/s: %.1f\n", b / 1e6 / C[1]
	}'
	[ "$KEEP" = 1 ] || rm -f "$TRACE"
done
exit $status
