#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Build these selftests the way a kernel tree does: the kselftest part of
# Debian's newest linux-source-6.12 (its selftests Makefile, lib.mk, the
# harness, the runner, tools/include/uapi; cached), export.sh puts
# arm_spe/ into a scratch copy of it, and the kernel's own machinery makes
# the package:
#   make -C tools/testing/selftests TARGETS=arm_spe gen_tar
# Usage: tree-build.sh OUTDIR. Prints the path of the package, a plain tar
# holding run_kselftest.sh, kselftest-list.txt and arm_spe/. The build log
# is OUTDIR/build.log.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
export SPE_LOG_TAG=selftests
# shellcheck source=../../tools/lib/apt.sh
. "$top/tools/lib/apt.sh"

out=$(mkdir -p "${1:?usage: tree-build.sh OUTDIR}" && cd "$1" && pwd)
spe_need_host_pkgs rsync make gcc-aarch64-linux-gnu libc6-dev-arm64-cross
ksft=tools/testing/selftests
src=$(spe_linux_source_tree kselftest-tree "$ksft/Makefile" "$ksft/lib.mk" \
	"$ksft/kselftest.h" "$ksft/kselftest_harness.h" "$ksft/run_kselftest.sh" \
	"$ksft/kselftest" scripts/subarch.include tools/include/uapi)
rm -rf "$out/linux"
cp -a "$src" "$out/linux"
"$here/export.sh" "$out/linux" >/dev/null
# Hermetic: only what this command line sets.
env -u CFLAGS -u LDFLAGS -u KHDR_INCLUDES -u OUTPUT -u INSTALL_PATH \
	make -C "$out/linux/$ksft" TARGETS=arm_spe ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- \
	FORMAT= gen_tar >"$out/build.log" 2>&1 ||
	spe_die "the kernel tree's kselftest build failed ($out/build.log)"
tar=$out/linux/$ksft/kselftest_install/kselftest-packages/kselftest.tar
[ -f "$tar" ] || spe_die "gen_tar made no $tar ($out/build.log)"
echo "$tar"
