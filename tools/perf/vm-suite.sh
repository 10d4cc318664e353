#!/usr/bin/env bash
# The perf suite: Debian's arm64 perf against the module in a guest of the
# SPE-emulating QEMU, every flow checked by its output
# (selftests/arm_spe/perf/, Documentation/perf.rst). Prints TAP and
# "perf: N passed, N failed, N skipped"; exit 1 on any failure.
#
#   tools/perf/vm-suite.sh QEMU [KERNEL_ID]
#
# PERF_DRIVER=mainline: the same flows against mainline's driver (Debian's
# arm_spe_pmu.ko of the kernel, the second witness) but those that test
# this driver's own behaviour (listed below, with the reason); the suite
# is then "perf-mainline".
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
SPE_LOG_TAG=perf-suite
# shellcheck source=../lib/apt.sh
. "$top/tools/lib/apt.sh"
qemu=${1:?usage: vm-suite.sh QEMU [KERNEL_ID]}
kid=${2:-$("$top/tools/kernels/fetch.sh" --default)}
[ -x "$qemu" ] || spe_die "no QEMU at '$qemu'"
mkdir -p "$top/build/perf"
stage=$(mktemp -d "$top/build/perf/suite-$kid.XXXXXX")
trap 'rm -rf "$stage" "$stage.list"' EXIT
mapfile -t dirs < <("$here/build.sh" "$kid" "$stage")
rootfs=${dirs[1]:-}
[ -d "$rootfs" ] || spe_die "tools/perf/build.sh failed"
# perf_decode: the project's decoder reads the guest's perf.data directly
# (spe-decode FILE.perf.data: AUX areas joined, records attributed) and
# must find the records the AUX data extracted by perf_aux_extract holds.
cat >"$stage/perf_decode.sh" <<'SH'
#!/bin/sh
. "$(dirname "$0")/lib.sh"
d=$SPE_TMP/rec.data
[ -s "$d" ] && [ -s "$SPE_TMP/rec.summary" ] || skip "no recording (perf_record did not run)"
spe-decode --summary "$d" >"$SPE_TMP/pd.summary" 2>"$SPE_TMP/pd.err" || fail "spe-decode perf.data exited $?: $(head -n 3 "$SPE_TMP/pd.err")"
sed 's/^/# /' "$SPE_TMP/pd.summary" | head -n 8
for k in records packets 'padding bytes'; do
	a=$(grep "^$k:" "$SPE_TMP/rec.summary" | awk -F: '{ print $2 }' | awk '{ print $1 }')
	b=$(grep "^$k:" "$SPE_TMP/pd.summary" | awk -F: '{ print $2 }' | awk '{ print $1 }')
	[ -n "$a" ] && [ "$a" = "$b" ] || fail "$k: $b from perf.data, $a from the extracted AUX data"
done
spe-decode --json "$d" >"$SPE_TMP/pd.json" 2>/dev/null || fail "spe-decode --json perf.data failed"
n=$(wc -l <"$SPE_TMP/pd.json")
w=$(grep -c '"comm":"spe_workload"' "$SPE_TMP/pd.json")
[ "$n" -gt 0 ] && [ "$n" = "$w" ] || fail "$w of $n records attributed to spe_workload"
pass "$n records, each attributed to spe_workload"
SH
chmod +x "$stage/perf_decode.sh"
# perf's own Arm SPE shell tests, unchanged, from Debian's linux-source
# (perf_shell.sh runs one and takes its verdict).
shell_dir=$(spe_linux_source_files perf-shell-tests . \
	tools/perf/tests/shell/test_arm_spe.sh tools/perf/tests/shell/test_arm_spe_fork.sh) ||
	spe_die "no perf shell tests in linux-source"
cp "$shell_dir/test_arm_spe.sh" "$shell_dir/test_arm_spe_fork.sh" "$stage/"
list=$stage.list
# NAME<TAB>TIMEOUT<TAB>COMMAND, in order: perf_record.sh leaves the
# recording the report/script tests read. PERF_LDLAT (default 2): perf mem's
# --ldlat; the emulation models total latencies of a few cycles only, so
# perf's default of 30 would filter out every sample.
cat >"$list" <<LIST
perf_list	60	./perf_list.sh
perf_record	300	./perf_record.sh 0.3
perf_decode	120	./perf_decode.sh
perf_report	300	./perf_report.sh
perf_report_parity	300	./perf_report_parity.sh
perf_script	400	./perf_script.sh
perf_dump	400	./perf_dump.sh 0.1 2048
perf_filters	240	./perf_filters.sh ${PERF_MIN_LATENCY:-4} 0.5
perf_snapshot	240	./perf_snapshot.sh
perf_mem	240	./perf_mem.sh ${PERF_LDLAT:-2} 0.5
perf_shell_arm_spe_fork	300	./perf_shell.sh test_arm_spe_fork.sh
perf_mem_levels	600	./perf_mem_levels.sh
perf_c2c	600	./perf_c2c.sh
perf_mispredict	300	./perf_mispredict.sh
LIST
# PERF_SHELL_ALL=1: perf's test_arm_spe.sh too, not in make check: its
# system-wide case decodes every CPU's samples at the default period, over
# 5 minutes under TCG (Documentation/perf.rst).
if [ "${PERF_SHELL_ALL:-0}" = 1 ]; then
	printf 'perf_shell_arm_spe\t900\t./perf_shell.sh test_arm_spe.sh\n' >>"$list"
fi
# Mainline's driver: the flows that do not apply to it, and why.
driver=${PERF_DRIVER:-this} suite=perf
if [ "$driver" = mainline ]; then
	suite=perf-mainline
	"$top/tools/kernels/mainline-ko.sh" "$kid" "$stage/arm_spe_pmu.ko" ||
		spe_die "no mainline driver for $kid"
	awk -F'\t' -v OFS='\t' '{ $3 = "KO=/tests/arm_spe_pmu.ko " $3; print }' \
		"$list" >"$list.ml" && mv "$list.ml" "$list"
fi
# PERF_ONLY="perf_record perf_dump ...": run only those (perf_record is
# needed by report and script).
if [ -n "${PERF_ONLY:-}" ]; then
	awk -v only=" $PERF_ONLY " 'index(only, " " $1 " ")' "$list" >"$list.only" && mv "$list.only" "$list"
fi
# PERF_SUITE_LOG: the console log (default run.sh's build/vm/perf.log).
# PERF_CPU: the guest CPU. By default -cpu max identifying itself as a
# Neoverse N1 (r4p1), so that perf decodes the Data Source packets of the
# memory-hierarchy model (perf_mem_levels, perf_c2c) as it does on N1.
# The skip manifest (tools/vm/parse_log.py): on the default CPU every flow
# runs, so any skip fails; another PERF_CPU may lack the Neoverse MIDR
# perf c2c needs.
: >"$list.skips"
[ -z "${PERF_CPU:-}" ] || printf '%s\tperf_c2c\t%s\n' "$suite" \
	"PERF_CPU=$PERF_CPU: perf decodes peer-core data sources on Neoverse MIDRs only" >"$list.skips"
"$top/tools/vm/run.sh" --suite "$suite" --kernel "$kid" --qemu "$qemu" --mem 2048 \
	--cpu "${PERF_CPU:-max,midr=0x414fd0c1,spe-lds=on}" \
	--timeout "${PERF_SUITE_TIMEOUT:-1800}" --list "$list" ${PERF_SUITE_LOG:+--log "$PERF_SUITE_LOG"} \
	--expected-skips "$list.skips" --file "$rootfs/.:/" --file "$stage/.:/tests/"
