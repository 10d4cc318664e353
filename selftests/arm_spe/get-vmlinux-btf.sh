#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Print the path of a raw BTF file of the default guest kernel (Debian's
# 6.12 arm64), for the Makefile's VMLINUX_BTF: bpftool turns it into the
# vmlinux.h that spe_observe.bpf.c includes. One vmlinux.h serves every
# kernel the tests boot: the program reads kernel structs through CO-RE
# relocations, which libbpf resolves against the running kernel's own BTF.
# Extracted from the kernel's Image by btf-from-image.py (no boot),
# cached in $ARM_SPE_CACHE/bpf/btf-<kernel release>/.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
export SPE_LOG_TAG=vmlinux-btf
# shellcheck source=../../tools/lib/apt.sh
. "$top/tools/lib/apt.sh"

env_file=$("$top/tools/kernels/fetch.sh" "$("$top/tools/kernels/fetch.sh" --default)")
# shellcheck disable=SC1090
. "$env_file"
dir=$ARM_SPE_CACHE/bpf/btf-$KVER
if [ ! -s "$dir/vmlinux.btf" ]; then
	mkdir -p "$dir"
	python3 "$here/btf-from-image.py" "$KIMAGE" "$dir/vmlinux.btf.tmp" ||
		spe_die "no BTF in $KIMAGE"
	mv "$dir/vmlinux.btf.tmp" "$dir/vmlinux.btf"
fi
echo "$dir/vmlinux.btf"
