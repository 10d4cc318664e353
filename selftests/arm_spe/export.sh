#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Put these selftests into a kernel tree, as tools/testing/selftests/arm_spe,
# with a copy of the project's include/ and tools/decoder/ sources in
# arm_spe/spe-top/, so that the kernel's own kselftest machinery builds and
# installs them without this repository:
#   selftests/arm_spe/export.sh LINUX_SOURCE_TREE
#   make -C LINUX_SOURCE_TREE/tools/testing/selftests TARGETS=arm_spe \
#        ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- gen_tar
# Replaces an arm_spe directory already there.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
[ $# = 1 ] || { echo "usage: $0 LINUX_SOURCE_TREE" >&2; exit 2; }
ksft=$1/tools/testing/selftests
[ -f "$ksft/lib.mk" ] || { echo "export.sh: $ksft/lib.mk: not a kernel tree's kselftest directory" >&2; exit 2; }
dest=$ksft/arm_spe
rm -rf "$dest"
mkdir -p "$dest/spe-top/tools/decoder"
# This directory as the repository has it (not its build/ output).
(cd "$here" && find . -path ./build -prune -o -type f -print | cpio -pdm --quiet "$dest")
cp -r "$top/include" "$dest/spe-top/"
cp "$top"/tools/decoder/Makefile "$top"/tools/decoder/*.[ch] "$dest/spe-top/tools/decoder/"
echo "$dest"
