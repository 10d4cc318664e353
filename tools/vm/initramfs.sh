#!/usr/bin/env bash
# Build a test guest's initramfs: busybox-static (arm64, from Debian), the
# guest init (guest/init), the test list and any files the caller adds.
#
#   initramfs.sh OUT.cpio.gz LIST [SRC:DST ...]
# LIST is the /tests/list file (see guest/init); each SRC:DST copies a host
# file or directory to DST in the guest (a directory DST ending in / keeps
# the source's name).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
SPE_LOG_TAG=initramfs
# shellcheck source=../lib/apt.sh
. "$here/../lib/apt.sh"
out=${1:?usage: initramfs.sh OUT LIST [SRC:DST...]}
list=${2:?usage: initramfs.sh OUT LIST [SRC:DST...]}
shift 2
# Guest userland comes from the stable release, whatever the host.
BUSYBOX_SERIES='^1:1\.35\.'

bb_dir=$ARM_SPE_CACHE/guest/busybox
if [ ! -x "$bb_dir/bin/busybox" ]; then
	spe_need_host_pkgs cpio gzip
	spe_apt_setup
	v=$(spe_apt_newest busybox-static:arm64 "$BUSYBOX_SERIES")
	[ -n "$v" ] || spe_die "no arm64 busybox-static matching $BUSYBOX_SERIES"
	f=$(spe_apt_download busybox-static:arm64 "$v" "$ARM_SPE_CACHE/guest/debs")
	rm -rf "$bb_dir.tmp" && mkdir -p "$bb_dir.tmp"
	dpkg-deb -x "$f" "$bb_dir.tmp"
	rm -rf "$bb_dir" && mv "$bb_dir.tmp" "$bb_dir"
	spe_log "guest busybox $v"
fi

# The base archive (busybox, init, /etc) changes only with its inputs: it is
# cached; each run appends a second archive with its list and files (the
# kernel unpacks concatenated archives in order).
base_key=$( (cat "$here/guest/init"; cat "$bb_dir/bin/busybox") | sha256sum | cut -c1-16)
base=$ARM_SPE_CACHE/guest/base-$base_key.cpio.gz
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
pack() { (cd "$1" && find . -print0 | cpio --null -o -H newc --quiet --owner=0:0) | gzip -1; }
if [ ! -f "$base" ]; then
	mkdir -p "$stage/base"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,tests,root,etc}
	cp "$bb_dir/bin/busybox" "$stage/base/bin/busybox"
	ln -s busybox "$stage/base/bin/sh"
	cp "$here/guest/init" "$stage/base/init"
	printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/sh\n' >"$stage/base/etc/passwd"
	printf 'root:x:0:\nnogroup:x:65534:\n' >"$stage/base/etc/group"
	pack "$stage/base" >"$base.tmp" && mv "$base.tmp" "$base"
fi
mkdir -p "$stage/run/tests"
cp "$list" "$stage/run/tests/list"
for spec in "$@"; do
	src=${spec%%:*}
	dst=${spec#*:}
	[ -e "$src" ] || spe_die "no such file to put in the guest: $src"
	case $dst in */) mkdir -p "$stage/run/$dst" ;; *) mkdir -p "$stage/run/$(dirname "$dst")" ;; esac
	cp -a "$src" "$stage/run/$dst"
done
mkdir -p "$(dirname "$out")"
{ cat "$base"; pack "$stage/run"; } >"$out.tmp"
mv "$out.tmp" "$out"
