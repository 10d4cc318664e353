#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Reliability suite (Documentation/reliability.rst): build the module and
# selftests/arm_spe/stress/spe_stress, then boot the SPE emulator:
#  - "main": attr fuzzer, PERF_EVENT_IOC_PERIOD clamping, one
#    open/mmap/enable/close worker per vCPU (alone, then with CPU hotplug),
#    AUX allocation failures, rmmod refused while events exist;
#  - "fault-KIND-N": one boot per fault kind of the emulator's knob
#    (-cpu max,spe-fault=KIND:N, N drawn from the seed) checking what the
#    driver counts and reports against the fault, and the next session.
# Prints TAP and last "stress: N passed, N failed, N skipped".
#
#   vm-suite.sh QEMU [KERNEL_ID] [--long]
#
# --long: 200000 fuzz events, 5 worker/hotplug rounds of 1000 iterations,
# three N per fault kind. The seed (fault points, fuzz stream) is fixed,
# 1, so that a failure reruns identically; SPE_STRESS_SEED=S picks
# another (it is printed first).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
export SPE_LOG_TAG=stress
# shellcheck source=../lib/apt.sh
. "$top/tools/lib/apt.sh"
# shellcheck source=../vm/suite-lib.sh
. "$top/tools/vm/suite-lib.sh"

qemu=${1:?usage: vm-suite.sh QEMU [KERNEL_ID] [--long]}
shift
kid="" long=0
for a in "$@"; do
	case $a in
	--long) long=1 ;;
	-*) echo "unknown option $a" >&2; exit 2 ;;
	*) kid=$a ;;
	esac
done
[ -n "$kid" ] || kid=$("$top/tools/kernels/fetch.sh" --default)
seed=${SPE_STRESS_SEED:-1}
echo "# stress: kernel $kid, seed $seed (replay: SPE_STRESS_SEED=$seed), long=$long"

out=$top/build/stress/$kid
[ "$long" = 1 ] && out=$out-long
mkdir -p "$out"
# One run per output directory at a time: a second run would delete the
# logs the first one's guest is still writing.
exec 9>"$out.lock"
flock 9
fail_build() {
	echo "not ok - stress: $1"
	echo "stress: 0 passed, 1 failed, 0 skipped"
	exit 1
}
"$top/tools/kernels/kmake.sh" "$kid" modules >"$out/module.log" 2>&1 ||
	fail_build "the module does not build ($out/module.log)"
ko=$top/build/$kid/arm_spe_perf.ko
make -s -C "$top/selftests/arm_spe/stress" CROSS_COMPILE=aarch64-linux-gnu- \
	OUTPUT="$out/bin" >"$out/build.log" 2>&1 ||
	fail_build "spe_stress does not build ($out/build.log)"

T=$'\t'
tot_p=0 tot_f=0 tot_s=0
# boot NAME CPU_PROPS TIMEOUT: the list is on stdin
boot() {
	local name=$1 props=$2 tmo=$3 dir=$out/$1
	rm -rf "$dir" && mkdir -p "$dir"
	cat >"$dir/list"
	# the skip manifest: none expected (every stress case runs on -cpu max)
	: >"$dir/expected-skips"
	vm_suite_boot "stress-$name" "$dir/result" --kernel "$kid" --qemu "$qemu" \
		--cpu "max${props:+,$props}" --smp 2 --timeout "$tmo" --list "$dir/list" \
		--expected-skips "$dir/expected-skips" \
		--log "$dir/console.log" --file "$ko:/tests/" \
		--file "$out/bin/spe_stress:/tests/"
}

if [ "$long" = 1 ]; then
	fuzz_n=200000 w_n=1000 w_rounds=5 fault_rounds=3 tmo=1800
else
	fuzz_n=20000 w_n=150 w_rounds=1 fault_rounds=1 tmo=400
fi
# The debug kernel (KASAN, lockdep, kmemleak...) runs about 10x slower:
# a quarter of the events, longer timeouts.
# auxmem populates 60 % of the guest's memory under pressure: minutes on
# the debug kernel when the host is busy.
ctmo=120
if [ "$kid" = debug ]; then
	fuzz_n=$((fuzz_n / 4)) w_n=$((w_n / 3)) tmo=$((tmo * 3)) ctmo=$((ctmo * 3))
fi
{
	echo "load${T}30${T}insmod ./arm_spe_perf.ko"
	echo "fuzz${T}$((tmo - 60))${T}./spe_stress fuzz -s $seed -n $fuzz_n"
	echo "ioc_period${T}60${T}./spe_stress ioc_period"
	for r in $(seq 1 "$w_rounds"); do
		echo "workers$r${T}300${T}./spe_stress workers -n $w_n"
		echo "workers_hotplug$r${T}300${T}./spe_stress workers -H -n $w_n"
	done
	echo "auxmem${T}${ctmo}${T}./spe_stress auxmem"
	echo "rmmod${T}${ctmo}${T}./spe_stress rmmod ./arm_spe_perf.ko"
	echo "unload${T}30${T}rmmod arm_spe_perf"
} >"$out/main.list"
boot main "" "$tmo" <"$out/main.list"

ftmo=300
[ "$kid" = debug ] && ftmo=600
# Fault boots: N from the seed, from 1 (the first record) to a few
# sessions' worth of records.
r=0
while [ "$r" -lt "$fault_rounds" ]; do
	k=0
	for kind in s1 ea dl; do
		n=$(( (seed / (r * 3 + k + 1) + r * 7919 + k * 104729) % 400 + 1 ))
		[ "$r" -eq 0 ] && [ "$k" -eq 0 ] && n=1
		{
			echo "load${T}30${T}insmod ./arm_spe_perf.ko"
			echo "fault${T}240${T}./spe_stress fault $kind $n"
			echo "unload${T}30${T}rmmod arm_spe_perf"
		} >"$out/fault.list"
		boot "fault-$kind-$n" "spe-fault=$kind:$n" "$ftmo" <"$out/fault.list"
		k=$((k + 1))
	done
	r=$((r + 1))
done

echo "stress: $tot_p passed, $tot_f failed, $tot_s skipped"
[ "$tot_f" -eq 0 ]
