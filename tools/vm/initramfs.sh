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

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,tests,root,etc}
cp "$bb_dir/bin/busybox" "$stage/bin/busybox"
ln -s busybox "$stage/bin/sh"
cp "$here/guest/init" "$stage/init"
cp "$list" "$stage/tests/list"
printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/sh\n' >"$stage/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' >"$stage/etc/group"
for spec in "$@"; do
	src=${spec%%:*}
	dst=${spec#*:}
	[ -e "$src" ] || spe_die "no such file to put in the guest: $src"
	case $dst in */) mkdir -p "$stage/$dst" ;; *) mkdir -p "$stage/$(dirname "$dst")" ;; esac
	cp -a "$src" "$stage/$dst"
done
mkdir -p "$(dirname "$out")"
(cd "$stage" && find . -print0 | cpio --null -o -H newc --quiet --owner=0:0) | gzip -1 >"$out.tmp"
mv "$out.tmp" "$out"
