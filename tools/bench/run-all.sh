#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# `make bench`: run the four benchmarks side by side and print one table
# of ratios.
#   1. emulation overhead  tools/bench/qemu-overhead.sh: QEMU CPU time with
#      the FEAT_SPE series against the same QEMU without it
#   2. decoder throughput  tools/bench/decoder-bench.sh: our record and
#      packet iterators against perf's arm_spe_get_packet loop on the same
#      bytes, the share of the machine's read bandwidth, spe-decode
#      --summary against perf's loop as a process, --json/--csv MB/s; on
#      independent generated traces and on an emulator capture
#   3. driver data loss    tools/bench/data-loss.sh: records delivered to
#      user space against records the emulated SPU wrote, and sampling
#      coverage, at the minimum interval on every vCPU
#   4. report              tools/bench/report-bench.sh: spe-decode report
#      against perf report on the same perf.data in the perf guest, both
#      checked to attribute the workload's samples alike
# Each benchmark's full output goes to build/bench/<name>.txt; the table
# comes last. Exit 1 if a benchmark fails or prints no figure.
# Environment: QEMU_RUNS (default 3), DECODER_MB (default 256),
# REPORT_RUNS (default 3).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
export SPE_LOG_TAG=bench
# shellcheck source=../lib/apt.sh
. "$top/tools/lib/apt.sh"
spe_need_host_pkgs bc

out=$top/build/bench
mkdir -p "$out"
run() {
	local name=$1
	shift
	spe_log "$name: $* (full output: ${out#"$top/"}/$name.txt)"
	"$@" 2>&1 | tee "$out/$name.txt" | grep -v '^\[' || true
	[ "${PIPESTATUS[0]}" -eq 0 ] || spe_die "$name failed; see $out/$name.txt"
}
run qemu-overhead "$here/qemu-overhead.sh" "${QEMU_RUNS:-3}"
run decoder "$here/decoder-bench.sh" --size "${DECODER_MB:-256}"
run data-loss "$here/data-loss.sh"
run report "$here/report-bench.sh" "${REPORT_RUNS:-3}"

row() { printf '%-20s %-36s %9s  %s\n' "$@"; }
missing() { spe_die "no figure for $1 in $out/$2.txt"; }
echo
echo "== benchmark summary ($(date -u +%Y-%m-%d), $(nproc) host CPUs, $(uname -m)) =="
row benchmark figure ratio target
for c in spe-off on@4096 on@1024 on@256 flat@4096 flat@1024; do
	# ratio to unpatched and target, as qemu-overhead.sh prints them
	read -r v t < <(awk -v c="$c" '$1 == c && NF >= 7 { print $4, $7 }' "$out/qemu-overhead.txt") || v=""
	[ -n "$v" ] || missing "emulation $c" qemu-overhead
	row "emulation overhead" "QEMU CPU time, $c / no series" "$v" "$t"
done
# decoder rows, per trace of decoder-bench.sh (independent generator without
# and with 64-byte alignment, the emulator's capture repeated)
drows=$(awk '
	/^== trace / { t = $3 }
	/^read bandwidth for the shares:/ { bw[t] = $6 }
	/^ratio ours\/perf: records/ { gsub(/[x,]/, ""); rr[t] = $4; pr[t] = $6 }
	/^ratio batch\/perf: records/ { gsub(/[x,]/, ""); rb[t] = $4; pb[t] = $6 }
	/^share of read bandwidth: records/ { gsub(/[%,]/, ""); sh[t] = $6; sb[t] = $10 }
	/^ratio --summary\/perf process:/ { gsub(/x/, ""); sp[t] = $4 }
	/^json MB\/s:/ { js[t] = $3 }
	/^csv MB\/s:/ { cs[t] = $3 }
	/^MISMATCH/ { bad = 1 }
	END {
		n = split("noalign align64 emul", ts, " ")
		for (i = 1; i <= n; i++) {
			t = ts[i]
			if (!(t in rr)) continue
			printf "%s|record iterator / perf loop|%s|>= 3\n", t, rr[t]
			printf "%s|  batched (64 a call)|%s|>= 3\n", t, rb[t]
			printf "%s|packet iterator / perf loop|%s|>= 2\n", t, pr[t]
			printf "%s|  batched (256 a call)|%s|>= 2\n", t, pb[t]
			printf "%s|records, %% of read bw (%.0f MB/s)|%s|>= 25\n", t, bw[t], sh[t]
			printf "%s|  batched|%s|>= 25\n", t, sb[t]
			printf "%s|--summary / perf process|%s|>= 2\n", t, sp[t]
			printf "%s|--json MB/s of trace|%s|>= 250\n", t, js[t]
			printf "%s|--csv MB/s of trace|%s|-\n", t, cs[t]
		}
		if (bad) print "MISMATCH"
	}' "$out/decoder.txt")
[ -n "$drows" ] || missing "the decoder ratios" decoder
case $drows in *MISMATCH*) spe_die "decoder-bench: a decoder disagreed with the generator; see $out/decoder.txt" ;; esac
while IFS='|' read -r t f v tg; do
	row "decoder ($t)" "$f" "$v" "$tg"
done <<<"$drows"
n=0
while read -r cfg1 cfg2 rest; do
	case $cfg1 in *KiB) ;; *) continue ;; esac
	if [ "$cfg2" = fifo ]; then
		name="$cfg1 fifo"
	else
		name=$cfg1 rest="$cfg2 $rest"
	fi
	# columns after the config: expected written lost delivered deliv/wr wr/exp trunc dec-err
	read -r _ _ _ _ dw we tr _ <<<"$rest"
	row "driver data loss" "delivered / written, AUX $name" "$dw" "1.000"
	row "" "written / expected (trunc $tr)" "$we" "-"
	n=$((n + 1))
done <"$out/data-loss.txt"
[ "$n" -gt 0 ] || missing "data loss" data-loss
read -r rp rs rr < <(sed -n 's/^report: perf report \([0-9]*\) ms, spe-decode report \([0-9]*\) ms, ratio \([0-9.]*\)$/\1 \2 \3/p' \
	"$out/report.txt") || rr=""
[ -n "$rr" ] || missing "the report ratio" report
row "report (guest)" "perf report / spe-decode report ($rp/$rs ms)" "$rr" ">= 10"
