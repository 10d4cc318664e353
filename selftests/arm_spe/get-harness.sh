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

ver_file=$ARM_SPE_CACHE/kselftest/current
if [ -f "$ver_file" ]; then
	dir=$ARM_SPE_CACHE/kselftest/$(cat "$ver_file")
	if [ -f "$dir/kselftest_harness.h" ] && [ -f "$dir/kselftest.h" ]; then
		echo "$dir"
		exit 0
	fi
fi
spe_need_host_pkgs xz-utils dpkg
spe_apt_setup
ver=$(spe_apt_newest linux-source-6.12)
[ -n "$ver" ] || spe_die "the mirror has no linux-source-6.12"
dir=$ARM_SPE_CACHE/kselftest/$ver
if [ ! -f "$dir/kselftest_harness.h" ]; then
	spe_log "extracting kselftest_harness.h from linux-source-6.12 $ver"
	rm -rf "$dir.tmp" && mkdir -p "$dir.tmp"
	spe_linux_source_stream "$ver" |
		tar -xJ -C "$dir.tmp" --strip-components=4 \
			linux-source-6.12/tools/testing/selftests/kselftest_harness.h \
			linux-source-6.12/tools/testing/selftests/kselftest.h
	rm -rf "$dir" && mv "$dir.tmp" "$dir"
fi
echo "$ver" >"$ver_file"
echo "$dir"
