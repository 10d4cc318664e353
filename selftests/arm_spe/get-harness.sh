#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Print a directory holding kselftest_harness.h and kselftest.h for a
# standalone build (outside a kernel tree). They come from Debian's newest
# linux-source-6.12 package, downloaded once (the same .deb as
# tools/kernels/checkpatch.sh, in $ARM_SPE_CACHE/linux-src) and extracted
# (only those two files) under $ARM_SPE_CACHE/kselftest/<version>/.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
export SPE_LOG_TAG=selftests
# shellcheck source=../../tools/lib/apt.sh
. "$top/tools/lib/apt.sh"

spe_linux_source_files kselftest . tools/testing/selftests/kselftest_harness.h \
	tools/testing/selftests/kselftest.h
