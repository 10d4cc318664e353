#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# `make stress`: the long reliability runs. The stress suite with --long
# (200k fuzzed attrs, longer stress and hotplug loops, every fault kind) on
# KERNEL_ID (default: the default kernel), then the decoder's libFuzzer
# target for FUZZ_SECONDS (default 600). Both run even if the first fails;
# exit 1 if either failed. Unlike make check's fixed seed, each long run
# explores a new one (printed; SPE_STRESS_SEED=S replays it).
#
#   tools/stress/run-long.sh [KERNEL_ID]
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
qemu=$("$top/tools/qemu/build.sh" | tail -n 1) || exit 1
rc=0
SPE_STRESS_SEED=${SPE_STRESS_SEED:-$(date +%s)} "$here/vm-suite.sh" "$qemu" ${1:+"$1"} --long || rc=1
make -s -C "$top/tools/decoder" FUZZ_SECONDS="${FUZZ_SECONDS:-600}" check || rc=1
exit $rc
