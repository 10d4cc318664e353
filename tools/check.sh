#!/usr/bin/env bash
# `make check`: install what is missing, then run every suite and add them
# up. Each suite prints its TAP and a line "SUITE: N passed, N failed,
# N skipped"; this prints those lines again with each stage's wall time and
# ends with "total: N passed, N failed, N skipped". Exit 1 on any failure.
#
# Environment: ARM_SPE_CACHE (cache dir), CHECK_ONLY="stage ..." to run
# some stages only (deps host build qemu vm debug harness).
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

want() { [ -z "${CHECK_ONLY:-}" ] || [[ " $CHECK_ONLY " == *" $1 "* ]]; }

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
		kmod libssl-dev libelf-dev rsync
	spe_apt_setup
	echo "=== deps: host packages ready ($(($(date +%s) - start))s)"
fi

if want host; then
	run_suite runner tools/test_suite_runner.sh
	run_suite harness-parser python3 tools/vm/test_parse_log.py
	run_suite btf-extract python3 selftests/arm_spe/test_btf_from_image.py
	if [ -f tools/decoder/Makefile ]; then
		run_suite decoder make -s -C tools/decoder check
	fi
	run_suite classify tools/qemu/classify/run.sh
fi

if want build; then
	run_suite build tools/build-matrix.sh
fi

qemu_spe=""
if want qemu || want vm || want debug; then
	if [ -x tools/qemu/build.sh ]; then
		start=$(date +%s)
		if qemu_spe=$(tools/qemu/build.sh 2> >(tee build/logs/qemu-build.log >&2) | tail -n1) &&
			[ -x "$qemu_spe" ]; then
			echo "=== qemu: $qemu_spe ($(($(date +%s) - start))s)"
		else
			qemu_spe=""
			suite_error qemu-build "tools/qemu/build.sh failed (build/logs/qemu-build.log)"
		fi
	fi
fi
if want qemu && [ -n "$qemu_spe" ] && [ -x tools/qemu/conformance/run.sh ]; then
	run_suite conformance tools/qemu/conformance/run.sh "$qemu_spe"
fi

if want vm; then
	kid=$(tools/kernels/fetch.sh --default)
	if ! tools/kernels/kmake.sh "$kid" modules >build/logs/vm-module.log 2>&1; then
		suite_error vm "the module does not build (build/logs/vm-module.log)"
	else
		ko=build/$kid/arm_spe_perf.ko
		T=$'\t'
		# Without SPE (Debian's QEMU): the module refuses cleanly.
		mkdir -p build/vm
		printf "%s\n" "module_nospe${T}120${T}./module_nospe.sh ./arm_spe_perf.ko" >build/vm/nospe.list
		run_suite vm-nospe tools/vm/run.sh --suite vm-nospe --kernel "$kid" --qemu "$(command -v qemu-system-aarch64)" \
			--list build/vm/nospe.list --file "$ko:/tests/" --file selftests/arm_spe/module_nospe.sh:/tests/
	fi
	# With SPE, module_load.sh runs first in the selftests' default boot.
	if [ -n "$qemu_spe" ]; then
		run_suite selftests selftests/arm_spe/vm-suite.sh "$qemu_spe" "$kid"
		# The other supported kernels: the pre-6.12 privilege path (6.1)
		# and attr.config4 with the data-source filter (7.x, eft boot)
		# run, not only build; and the PPI partitions, whose affinity
		# comes from another kernel API from 6.19 (parts, hetero-parts).
		run_suite selftests-6.1 --as selftests selftests/arm_spe/vm-suite.sh "$qemu_spe" 6.1 default fault-stop parts hetero-parts
		run_suite selftests-7 --as selftests selftests/arm_spe/vm-suite.sh "$qemu_spe" 7 default eft fault-stop parts hetero-parts
		# The second witness: the same tests against mainline's
		# arm_spe_pmu (selftests/arm_spe/mainline.tsv: what differs).
		run_suite mainline --as selftests selftests/arm_spe/vm-suite.sh "$qemu_spe" "$kid" mainline
		# The selftests as a kernel tree builds and runs them: exported
		# into linux-source-6.12's kselftest part, packaged by its
		# gen_tar, run by its run_kselftest.sh (testing.rst).
		run_suite kselftest-tree --as selftests selftests/arm_spe/vm-suite.sh "$qemu_spe" "$kid" ktree
		# PREEMPT_RT (6.12-rt): PMBIRQ a hard IRQ, a clean log, and a
		# full buffer that must not livelock its task (testing.rst).
		run_suite selftests-6.12-rt --as selftests selftests/arm_spe/vm-suite.sh "$qemu_spe" 6.12-rt default
		# Debian's cloud flavour (cloud-arm64) builds arm_spe_pmu too.
		run_suite selftests-6.12-cloud --as selftests selftests/arm_spe/vm-suite.sh "$qemu_spe" 6.12-cloud default
		run_suite perf tools/perf/vm-suite.sh "$qemu_spe" "$kid"
		# perf's record/report flows and its own Arm SPE shell test
		# against mainline's driver as well (the second witness).
		PERF_DRIVER=mainline PERF_ONLY="perf_list perf_record perf_decode perf_report perf_report_parity perf_shell_arm_spe_fork" \
			run_suite perf-mainline tools/perf/vm-suite.sh "$qemu_spe" "$kid"
		run_suite stress tools/stress/vm-suite.sh "$qemu_spe" "$kid"
		run_suite pcsr selftests/arm_pcsr/vm-suite.sh "$qemu_spe" "$kid"
		# The cheapest driver mutants (tools/mutants): the strict
		# emulator must still catch a missing PSB CSYNC, DSB or ISB and
		# a swapped disable order.
		run_suite mutants-quick tools/mutants/run.sh --quick --qemu "$qemu_spe" --kernel "$kid"
	else
		suite_error selftests "no SPE-enabled QEMU to run them on"
		suite_error perf "no SPE-enabled QEMU to run it on"
		suite_error perf-mainline "no SPE-enabled QEMU to run it on"
		suite_error stress "no SPE-enabled QEMU to run it on"
		suite_error pcsr "no PCSR-enabled QEMU to run it on"
		suite_error mutants-quick "no strict SPE QEMU to run them on"
	fi
fi

# The debug kernel (KASAN, lockdep, kmemleak, ...): the selftests' default
# boot (module load/unload included) and the stress suite; any splat or
# leak fails.
if want debug; then
	if [ -z "$qemu_spe" ]; then
		suite_error debug "no SPE-enabled QEMU to run it on"
	elif ! tools/kernels/kmake.sh debug modules >build/logs/debug-module.log 2>&1; then
		suite_error debug "the debug kernel or the module for it does not build (build/logs/debug-module.log)"
	else
		run_suite selftests-debug --as selftests selftests/arm_spe/vm-suite.sh "$qemu_spe" debug default
		run_suite stress-debug --as stress tools/stress/vm-suite.sh "$qemu_spe" debug
	fi
fi

if want harness; then
	run_suite harness tools/vm/selftest.sh
fi

echo
echo "=== summary (wall time $(($(date +%s) - t_total))s)"
suite_total
