#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# spe-decode report against perf report, in the perf suite's guest (TCG),
# on the same perf.data: perf_record.sh records spe_workload, then
# perf_report_parity.sh times `perf report --itrace=i1i` and `spe-decode
# report` on it (one run each) and checks that both attribute the
# workload's samples alike. Runs RUNS guests (default 3) and prints each
# run's times and the best of each, with the ratio:
#
#   report: perf report BEST ms, spe-decode report BEST ms, ratio R
#
# QEMU overrides the SPE-enabled QEMU (tools/qemu/build.sh by default).
# Not part of `make check` (make bench runs it).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
export SPE_LOG_TAG=report-bench
# shellcheck source=../lib/apt.sh
. "$top/tools/lib/apt.sh"
runs=${1:-3}
qemu=${QEMU:-$("$top/tools/qemu/build.sh" | tail -n 1)}
log=$top/build/bench/report-guest
mkdir -p "$log"
best_p="" best_s=""
for i in $(seq 1 "$runs"); do
	PERF_ONLY="perf_list perf_record perf_report_parity" PERF_SUITE_LOG="$log/run$i.log" \
		"$top/tools/perf/vm-suite.sh" "$qemu" >"$log/run$i.tap" 2>&1 ||
		spe_die "the perf guest failed (run $i, $log/run$i.tap)"
	grep -q '^ok .*perf_report_parity' "$log/run$i.tap" ||
		spe_die "perf_report_parity did not pass (run $i, $log/run$i.log)"
	read -r p s < <(sed -n 's/^# perf report \([0-9]*\) ms, spe-decode report \([0-9]*\) ms.*/\1 \2/p' \
		"$log/run$i.log" | tr -d '\r' | head -n 1) || true
	[ -n "${p:-}" ] && [ -n "${s:-}" ] || spe_die "no times in $log/run$i.log"
	echo "run $i: perf report $p ms, spe-decode report $s ms"
	if [ -z "$best_p" ] || [ "$p" -lt "$best_p" ]; then best_p=$p; fi
	if [ -z "$best_s" ] || [ "$s" -lt "$best_s" ]; then best_s=$s; fi
done
# /proc/uptime has 10 ms resolution: never divide by less
[ "$best_s" -ge 10 ] || best_s=10
echo "report: perf report $best_p ms, spe-decode report $best_s ms, ratio $(echo "scale=1; $best_p / $best_s" | bc)"
