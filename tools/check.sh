#!/usr/bin/env bash
# `make check`: install what is missing, then run every suite and add them
# up. Each suite prints its TAP and a line "SUITE: N passed, N failed,
# N skipped"; this prints those lines again with each stage's wall time and
# ends with "total: N passed, N failed, N skipped". Exit 1 on any failure.
#
# Environment: ARM_SPE_CACHE (cache dir), CHECK_ONLY="stage ..." to run
# some stages only (deps host build qemu vm debug harness qemu-next),
# CHECK_JOBS=1 to run the two lanes of stages one after the other instead
# of concurrently.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
SPE_LOG_TAG=check
# shellcheck source=lib/apt.sh
. tools/lib/apt.sh
# shellcheck source=lib/suite.sh
. tools/lib/suite.sh
suite_hermetic
mkdir -p build/logs
SUITE_SUMMARY=()
t_total=$(date +%s)

# CHECK_ONLY: its words, blanks around them dropped (all blank: every stage).
read -ra check_only <<<"${CHECK_ONLY:-}"
CHECK_ONLY="${check_only[*]}"
want() { [ -z "$CHECK_ONLY" ] || [[ " $CHECK_ONLY " == *" $1 "* ]]; }
# A CHECK_ONLY word that names no stage is an error, not a run of nothing.
CHECK_STAGES="deps host build qemu vm debug harness qemu-next"
for w in "${check_only[@]}"; do
	[[ " $CHECK_STAGES " == *" $w "* ]] ||
		spe_die "CHECK_ONLY: no stage '$w' (the stages: $CHECK_STAGES)"
done

# run_suite NAME [--as LINE_NAME] CMD...: judge one suite (tools/lib/suite.sh).
run_suite() {
	local name=$1 as=$1
	shift
	if [ "$1" = --as ]; then as=$2; shift 2; fi
	suite_run "$name" "$as" "build/logs/suite-$name.log" "$@"
}

if want deps; then
	start=$(date +%s)
	spe_need_host_pkgs make gcc gcc-aarch64-linux-gnu libc6-dev-arm64-cross bc flex bison \
		dwarves cpio gzip xz-utils file dpkg-dev debootstrap python3 qemu-system-arm \
		kmod libssl-dev libelf-dev rsync shellcheck
	spe_apt_setup
	echo "=== deps: host packages ready ($(($(date +%s) - start))s)"
fi

# The stages, grouped so that a group shares no build output with another
# (each kernel builds in its own build/ID; the shared test binaries are
# built once, below, before the groups start).
stages_host() {
	want host || return 0
	run_suite runner tools/test_suite_runner.sh
	run_suite apt-lib tools/lib/test_apt.sh
	run_suite shellcheck tools/lint-shell.sh
	run_suite harness-parser python3 tools/vm/test_parse_log.py
	run_suite btf-extract python3 selftests/arm_spe/test_btf_from_image.py
	run_suite decoder make -s -C tools/decoder check
	run_suite qemu-source tools/qemu/test_source.sh
	run_suite classify tools/qemu/classify/run.sh
	run_suite classify-qemu10.2 --as classify tools/qemu/classify/run.sh --base 10.2
}

stages_build() {
	want build || return 0
	run_suite build tools/build-matrix.sh
}

stages_conformance() {
	if want qemu && [ -n "$qemu_spe" ]; then
		run_suite conformance tools/qemu/conformance/run.sh "$qemu_spe"
	fi
	# QEMU's own aarch64 system tests, the series' spe.c among them
	if want qemu && [ -n "$qemu_spe" ]; then
		run_suite qemu-tcg tools/qemu/tcg-tests.sh "$qemu_spe"
	fi
}

# The default kernel: the module refusing a machine without SPE, the
# selftests' probe matrix, the second witnesses, perf, stress, PCSR and the
# quick mutants.
stages_vm_default() {
	want vm || return 0
	if ! tools/kernels/kmake.sh "$kid" modules >build/logs/vm-module.log 2>&1; then
		suite_error vm "the module does not build (build/logs/vm-module.log)"
	else
		local ko=build/$kid/arm_spe_perf.ko T=$'\t'
		# Without SPE (Debian's QEMU): the module refuses cleanly.
		mkdir -p build/vm
		printf "%s\n" "module_nospe${T}120${T}./module_nospe.sh ./arm_spe_perf.ko" >build/vm/nospe.list
		: >build/vm/nospe.skips	# none: the case this boot exists for must run
		run_suite vm-nospe tools/vm/run.sh --suite vm-nospe --kernel "$kid" --qemu "$(command -v qemu-system-aarch64)" \
			--list build/vm/nospe.list --expected-skips build/vm/nospe.skips \
			--file "$ko:/tests/" --file selftests/arm_spe/module_nospe.sh:/tests/
	fi
	if [ -z "$qemu_spe" ]; then
		local s
		for s in selftests mainline kselftest-tree perf perf-mainline stress pcsr mutants-quick; do
			suite_error "$s" "no SPE-enabled QEMU to run it on"
		done
		return 0
	fi
	# With SPE, module_load.sh runs first in the selftests' default boot.
	run_suite selftests selftests/arm_spe/vm-suite.sh "$qemu_spe" "$kid"
	# The second witness: the same tests against mainline's arm_spe_pmu
	# (selftests/arm_spe/mainline.tsv: what differs).
	run_suite mainline --as selftests selftests/arm_spe/vm-suite.sh "$qemu_spe" "$kid" mainline
	# The selftests as a kernel tree builds and runs them: exported into
	# linux-source-6.12's kselftest part, packaged by its gen_tar, run by
	# its run_kselftest.sh (testing.rst).
	run_suite kselftest-tree --as selftests selftests/arm_spe/vm-suite.sh "$qemu_spe" "$kid" ktree
	run_suite perf tools/perf/vm-suite.sh "$qemu_spe" "$kid"
	# perf's record/report flows and its own Arm SPE shell test against
	# mainline's driver as well (the second witness).
	PERF_DRIVER=mainline PERF_ONLY="perf_list perf_record perf_decode perf_report perf_report_parity perf_shell_arm_spe_fork" \
		run_suite perf-mainline tools/perf/vm-suite.sh "$qemu_spe" "$kid"
	run_suite stress tools/stress/vm-suite.sh "$qemu_spe" "$kid"
	run_suite pcsr selftests/arm_pcsr/vm-suite.sh "$qemu_spe" "$kid"
	# The cheapest driver mutants (tools/mutants): the strict emulator
	# must still catch a missing PSB CSYNC, DSB or ISB and a swapped
	# disable order.
	run_suite mutants-quick tools/mutants/run.sh --quick --qemu "$qemu_spe" --kernel "$kid"
	# PREEMPT_RT (6.12-rt): PMBIRQ a hard IRQ, a clean log, and a full
	# buffer that must not livelock its task (testing.rst).
	run_suite selftests-6.12-rt --as selftests selftests/arm_spe/vm-suite.sh "$qemu_spe" 6.12-rt default
}

# The other supported kernels: the pre-6.12 privilege path (6.1) and
# attr.config4 with the data-source filter (7.x, eft boot) run, not only
# build; the PPI partitions, whose affinity comes from another kernel API
# from 6.19 (parts, hetero-parts).
stages_vm_other() {
	want vm && [ -n "$qemu_spe" ] || return 0
	run_suite selftests-6.1 --as selftests selftests/arm_spe/vm-suite.sh "$qemu_spe" 6.1 default fault-stop parts hetero-parts
	run_suite selftests-7 --as selftests selftests/arm_spe/vm-suite.sh "$qemu_spe" 7 default eft fault-stop parts hetero-parts
}

# Debian's cloud flavour (cloud-arm64) builds arm_spe_pmu too.
stages_vm_cloud() {
	want vm && [ -n "$qemu_spe" ] || return 0
	run_suite selftests-6.12-cloud --as selftests selftests/arm_spe/vm-suite.sh "$qemu_spe" 6.12-cloud default
}

# The debug kernel (KASAN, lockdep, kmemleak, ...): the selftests' default
# boot (module load/unload included) and the stress suite; any splat or
# leak fails.
stages_debug() {
	want debug || return 0
	if [ -z "$qemu_spe" ]; then
		suite_error debug "no SPE-enabled QEMU to run it on"
	elif ! tools/kernels/kmake.sh debug modules >build/logs/debug-module.log 2>&1; then
		suite_error debug "the debug kernel or the module for it does not build (build/logs/debug-module.log)"
	else
		run_suite selftests-debug --as selftests selftests/arm_spe/vm-suite.sh "$qemu_spe" debug default
		run_suite stress-debug --as stress tools/stress/vm-suite.sh "$qemu_spe" debug
	fi
}

stages_harness() {
	want harness || return 0
	run_suite harness tools/vm/selftest.sh
}

# The same QEMU series rebased on Debian sid's 10.2.x (tools/qemu/
# patches-10.2): it builds, and passes the conformance suite and the whole
# probe matrix. The matrix boots the cloud flavour of 6.12, which only this
# lane boots (the default kernel's build and logs belong to the other
# lane). The QEMU build is here, in the lane, so that a cold run overlaps
# it with the other lane's guests.
stages_qemu_next() {
	want qemu-next || return 0
	local q start
	start=$(date +%s)
	if ! q=$(tools/qemu/build.sh --base 10.2 2>build/logs/qemu-build-10.2.log | tail -n1) ||
		[ ! -x "$q" ]; then
		suite_error qemu-10.2 "tools/qemu/build.sh --base 10.2 failed (build/logs/qemu-build-10.2.log)"
		return 0
	fi
	echo "=== qemu 10.2: $q ($(($(date +%s) - start))s)"
	run_suite conformance-qemu10.2 --as conformance tools/qemu/conformance/run.sh "$q"
	run_suite qemu-tcg-qemu10.2 --as qemu-tcg tools/qemu/tcg-tests.sh "$q"
	if want vm && [ -n "$qemu_spe" ]; then
		run_suite selftests-qemu10.2 --as selftests selftests/arm_spe/vm-suite.sh "$q" 6.12-cloud
	fi
}

# The two lanes take about the same time on a 2-core host (testing.rst).
lane_default() {
	stages_vm_default
	stages_vm_other
}
lane_other() {
	stages_host
	stages_build
	stages_conformance
	stages_debug
	stages_vm_cloud
	stages_harness
	stages_qemu_next
}

# The kernels the lanes boot are fetched while QEMU builds: a fetch is
# mostly download and unpacking, the build mostly compiling (on a cold
# cache this saves most of the five fetches' time). The debug kernel is
# compiled, so it is built after QEMU, below.
# Every supported series: the list build-matrix.sh builds.
fetch_kernels() {
	local k start
	start=$(date +%s)
	for k in $(tools/kernels/fetch.sh --list); do
		tools/kernels/fetch.sh "$k" >>build/logs/prepare.log 2>&1 ||
			echo "=== prepare: kernel $k not ready (build/logs/prepare.log); its stages will say why"
	done
	echo "=== kernels: fetched ($(($(date +%s) - start))s)"
}
kid=$(tools/kernels/fetch.sh --default)
fetch_pid=""
if want vm || want debug; then
	fetch_kernels &
	fetch_pid=$!
fi

qemu_spe=""
if want qemu || want vm || want debug; then
	start=$(date +%s)
	if qemu_spe=$(tools/qemu/build.sh 2> >(tee build/logs/qemu-build.log >&2) | tail -n1) &&
		[ -x "$qemu_spe" ]; then
		echo "=== qemu: $qemu_spe ($(($(date +%s) - start))s)"
	else
		qemu_spe=""
		suite_error qemu-build "tools/qemu/build.sh failed (build/logs/qemu-build.log)"
	fi
fi

# What the lanes share is made here, one at a time: the fetched kernels,
# the debug kernel (built) and the selftests' binaries, which do not
# depend on the kernel; in the lanes those builds find nothing to do.
start=$(date +%s)
[ -z "$fetch_pid" ] || wait "$fetch_pid"
if { want vm || want debug; } && [ -n "$qemu_spe" ]; then
	tools/kernels/fetch.sh debug >>build/logs/prepare.log 2>&1 ||
		echo "=== prepare: kernel debug not ready (build/logs/prepare.log); its stages will say why"
	selftests/arm_spe/vm-suite.sh "$qemu_spe" "$kid" --build-only >>build/logs/prepare.log 2>&1 ||
		echo "=== prepare: the selftests do not build (build/logs/prepare.log); their stages will say why"
	echo "=== prepare: kernels and shared test binaries ready ($(($(date +%s) - start))s)"
fi

# CHECK_JOBS (default: the host's CPU count): with 2 or more, the two lanes
# run concurrently and each one's output is printed when both are done
# (progress lines as each stage ends); with 1, one after the other.
if [ "${CHECK_JOBS:-$(nproc)}" -ge 2 ]; then
	exec 3>&1
	SUITE_PROGRESS_FD=3
	suite_lane default build/logs lane_default
	suite_lane other build/logs lane_other
	suite_lanes_join
else
	lane_other
	lane_default
fi

echo
echo "=== summary (wall time $(($(date +%s) - t_total))s)"
suite_total
