#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Print a directory with what the BPF observability test (spe_observe)
# needs for a standalone static arm64 build:
#   DIR/usr/include                    libbpf's headers (bpf/*.h)
#   DIR/usr/lib/aarch64-linux-gnu/     libbpf.a libelf.a libz.a libzstd.a
# taken from Debian bookworm's arm64 -dev packages (downloaded with the
# project's private apt state and unpacked with dpkg-deb, never installed),
# cached under $ARM_SPE_CACHE/bpf/<versions>/. Also makes sure the host
# has clang (the BPF target) and bpftool (skeleton generation).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
export SPE_LOG_TAG=bpf-deps
# shellcheck source=../../tools/lib/apt.sh
. "$top/tools/lib/apt.sh"

spe_need_host_pkgs clang bpftool dpkg
pkgs="libbpf-dev libelf-dev zlib1g-dev libzstd-dev"
key_file=$ARM_SPE_CACHE/bpf/current
if [ -f "$key_file" ] && [ -f "$ARM_SPE_CACHE/bpf/$(cat "$key_file")/done" ]; then
	echo "$ARM_SPE_CACHE/bpf/$(cat "$key_file")"
	exit 0
fi
spe_apt_setup
# The version of $1 in bookworm proper (not backports): the same era as
# the host's bpftool, which generates the skeleton.
bookworm_version() {
	spe_apt_cache madison "$1" | awk -F'|' '$3 ~ / bookworm\/main / {gsub(/ /, "", $2); print $2}' |
		sort -uV | tail -n 1
}
vers=() key=""
for p in $pkgs; do
	v=$(bookworm_version "$p:arm64")
	[ -n "$v" ] || spe_die "no bookworm version of $p:arm64 in the private apt state"
	vers+=("$v")
	key="$key${key:+_}$p=$v"
done
key=$(echo "$key" | sha256sum | cut -c1-16)
dir=$ARM_SPE_CACHE/bpf/$key
if [ ! -f "$dir/done" ]; then
	rm -rf "$dir" && mkdir -p "$dir"
	i=0
	for p in $pkgs; do
		deb=$(spe_apt_download "$p:arm64" "${vers[$i]}" "$ARM_SPE_CACHE/bpf/debs")
		spe_log "unpacking $(basename "$deb")"
		dpkg-deb -x "$deb" "$dir"
		i=$((i + 1))
	done
	for a in libbpf.a libelf.a libz.a libzstd.a; do
		[ -f "$dir/usr/lib/aarch64-linux-gnu/$a" ] || spe_die "$a missing from the unpacked packages"
	done
	touch "$dir/done"
fi
echo "$key" >"$key_file"
echo "$dir"
