#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Build arm_pcsr.ko and its selftests, then boot the PCSR-emulating QEMU
# once per machine configuration and run the tests it calls for. Each boot
# is a suite "pcsr-NAME"; the last line adds them up:
# "pcsr: N passed, N failed, N skipped".
#
#   vm-suite.sh QEMU [KERNEL_ID] [NAME...]
#
# Boots: default (-M virt,pcsr=on, 3 CPUs, nohz_full=1: the tests and the
# perf flow), vhe (the kernel at EL2), nodebug (pcsr-niden=off: EACCES),
# noframe (no pcsr: the module refuses to load). Documentation/pcsr.rst.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
export SPE_LOG_TAG=pcsr-selftests
# shellcheck source=../../tools/lib/apt.sh
. "$top/tools/lib/apt.sh"
# shellcheck source=../../tools/vm/suite-lib.sh
. "$top/tools/vm/suite-lib.sh"

qemu=${1:?usage: vm-suite.sh QEMU [KERNEL_ID] [NAME...]}
kid=${2:-$("$top/tools/kernels/fetch.sh" --default)}
shift $(($# >= 2 ? 2 : 1))
want=" $* "

out=$top/build/pcsr-selftests
mkdir -p "$out"
fail_build() {
	echo "not ok - pcsr: $1"
	echo "pcsr: 0 passed, 1 failed, 0 skipped"
	exit 1
}
"$top/tools/kernels/kmake.sh" "$kid" modules >"$out/module.log" 2>&1 ||
	fail_build "the module does not build ($out/module.log)"
ko=$top/build/$kid/arm_pcsr.ko
make -s -C "$here" CROSS_COMPILE=aarch64-linux-gnu- OUTPUT="$out/bin" \
	>"$out/build.log" 2>&1 || fail_build "the tests do not build ($out/build.log)"
rootfs=$("$top/tools/vm/perf-rootfs.sh" "$kid" 2>"$out/perf-rootfs.log" | tail -n1)
[ -d "$rootfs" ] || rootfs=

T=$'\t'
tot_p=0 tot_f=0 tot_s=0
# boot NAME MACHINE_OPTS NIDEN TESTS...
boot() {
	local name=$1 machine=$2 niden=$3 t
	shift 3
	case $want in "  ") ;; *" $name "*) ;; *) return 0 ;; esac
	vm_suite_ran "$name"
	local dir=$out/$name
	rm -rf "$dir" && mkdir -p "$dir"
	echo "export PCSR_EXP_NIDEN=$niden" >"$dir/env"
	# The skip manifest (tools/vm/parse_log.py): only the cases that
	# sample (NEED_SAMPLEABLE in pcsr_test.c), in a boot whose firmware
	# disables non-invasive debug; sysfs, err_task_mode and
	# err_debug_disabled, the case that boot exists for, always run.
	: >"$dir/expected-skips"
	if [ "$niden" != 1 ]; then
		for t in shares_pid_cpu no_interrupt_on_target exclude_user \
			err_not_sampling_or_callchain hotplug_and_offline_errno; do
			printf 'pcsr-%s\tpcsr_test/global.%s\t%s\n' "$name" "$t" \
				"non-invasive debug disabled (-M virt,pcsr-niden=off)"
		done >"$dir/expected-skips"
	fi
	{
		for t in "$@"; do
			case $t in
			load) echo "load${T}30${T}insmod ./arm_pcsr.ko" ;;
			unload) echo "unload${T}30${T}rmmod arm_pcsr" ;;
			test) echo "pcsr_test${T}300${T}. ./env && ./pcsr_test" ;;
			perf) echo "perf_flow${T}300${T}./perf_flow.sh" ;;
			noframe) echo "noframe${T}60${T}./noframe.sh" ;;
			esac
		done
	} >"$dir/list"
	local files=(--file "$ko:/tests/" --file "$dir/env:/tests/env"
		--file "$out/bin/pcsr_test:/tests/" --file "$out/bin/pcsr_workload:/tests/"
		--file "$here/perf_flow.sh:/tests/" --file "$here/noframe.sh:/tests/")
	case " $* " in *" perf "*) [ -n "$rootfs" ] && files+=(--file "$rootfs/.:/") ;; esac
	vm_suite_boot "pcsr-$name" "$dir/result" --kernel "$kid" --qemu "$qemu" \
		--smp 3 --mem 2048 ${machine:+--machine "$machine"} --append "nohz_full=1" \
		--timeout 900 --expected-skips "$dir/expected-skips" --list "$dir/list" --log "$dir/console.log" "${files[@]}"
}

boot default pcsr=on 1 load test perf unload
boot vhe pcsr=on,virtualization=on 1 load test unload
boot nodebug pcsr=on,pcsr-niden=off 0 load test unload
boot noframe "" 1 noframe

vm_suite_unknown_boots pcsr "$want"
echo "pcsr: $tot_p passed, $tot_f failed, $tot_s skipped"
[ "$tot_f" -eq 0 ]
