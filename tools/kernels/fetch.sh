#!/usr/bin/env bash
# Fetch and cache one supported arm64 Debian kernel: its boot image, its
# headers and the amd64 linux-kbuild host tools, all extracted with
# dpkg-deb -x under $ARM_SPE_CACHE/kernels/<abi>/ (never installed).
#
#   fetch.sh [ID]     ID from series.conf (default: the default series);
#                     prints the path of the cached kernel's env file, which
#                     sets KVER, KDIR, KIMAGE, KVERSION, KSERIES.
#   fetch.sh --list   prints the series ids, the default one first.
#   fetch.sh --default prints the default id.
#   fetch.sh debug    the debug kernel (debug-kernel.sh), same output.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
SPE_LOG_TAG=kernels
# shellcheck source=../lib/apt.sh
. "$here/../lib/apt.sh"
conf=$here/series.conf

series() { grep -v '^#' "$conf" | awk 'NF'; }
# The words after the regex: "default" and "flavour=NAME", in any order.
default_id() { series | awk '/[ \t]default([ \t]|$)/ { print $1 }'; }

case "${1:-}" in
--list) { default_id; series | awk '!/[ \t]default([ \t]|$)/ { print $1 }'; }; exit 0 ;;
--default) default_id; exit 0 ;;
esac
id=${1:-$(default_id)}
# The debug kernel is built from source, not fetched: same interface.
[ "$id" = debug ] && exec "$here/debug-kernel.sh"
re=$(series | awk -v id="$id" '$1 == id { print $2 }')
[ -n "$re" ] || spe_die "unknown kernel series '$id' (known: $(series | awk '{print $1}' | xargs))"
# A flavour (rt: PREEMPT_RT) picks Debian's linux-image-FLAVOUR-arm64 and
# linux-headers-FLAVOUR-arm64 instead of the generic arm64 ones.
flavour=$(series | awk -v id="$id" '$1 == id { for (i = 3; i <= NF; i++) if ($i ~ /^flavour=/) print substr($i, 9) }')
meta=${flavour:+$flavour-}arm64

# Fast path: the series was resolved since the private apt lists were last
# refreshed (spe_apt_setup refreshes them every 12 hours).
resolved=$ARM_SPE_CACHE/kernels/resolved-$id
if [ -f "$resolved" ] && [ -f "$SPE_APT_DIR/.updated" ] && [ "$resolved" -nt "$SPE_APT_DIR/.updated" ] &&
	[ -z "$(find "$SPE_APT_DIR/.updated" -mmin +720)" ] && [ -f "$(cat "$resolved")" ]; then
	spe_log "series $id: $(sed -n 's/^KVERSION=//p' "$(cat "$resolved")"), cached"
	cat "$resolved"
	exit 0
fi

spe_need_host_pkgs dpkg-dev xz-utils
spe_apt_setup

# linux-image-arm64 depends on linux-image-<abi>-arm64 (or an -unsigned one).
dep_of() { spe_apt_cache show "$1=$2" | sed -n 's/^Depends: //p' | head -n1 | tr ',' '\n' | sed 's/^ *//; s/ .*//; s/|.*//'; }
# has PKG VER: the mirror lists PKG (with its :arch) at exactly VER
has() { spe_apt_versions "$1" | grep -qxF -- "$2"; }
# The newest version whose every package is on the mirror: the arm64 and
# amd64 builds of one upload do not always reach it together (seen: the
# arm64 image at 6.1.192-2 while linux-kbuild-6.1:amd64 was at -3 only).
ver='' img_pkg='' hdr_pkg=''
for v in $(spe_apt_versions "linux-image-$meta:arm64" "$re"); do
	img_pkg=$(dep_of "linux-image-$meta:arm64" "$v" | grep '^linux-image-' | head -n1)
	hdr_pkg=$(dep_of "linux-headers-$meta:arm64" "$v" | grep '^linux-headers-' | head -n1)
	missing=''
	[ -n "$img_pkg" ] && has "$img_pkg:arm64" "$v" || missing="$missing ${img_pkg:-linux-image}:arm64"
	[ -n "$hdr_pkg" ] && has "$hdr_pkg:arm64" "$v" || missing="$missing ${hdr_pkg:-linux-headers}:arm64"
	if [ -n "$hdr_pkg" ]; then
		for d in $(dep_of "$hdr_pkg:arm64" "$v"); do
			case $d in
			linux-headers-*-common*) has "$d" "$v" || missing="$missing $d:all" ;;
			linux-kbuild-*) has "$d:amd64" "$v" || missing="$missing $d:amd64" ;;
			esac
		done
	fi
	if [ -z "$missing" ]; then
		ver=$v
		break
	fi
	spe_log "series $id: Debian linux $v lacks$missing on the mirror; trying the next older"
done
[ -n "$ver" ] || spe_die "the mirror has no complete linux-image-$meta matching $re (image, headers and linux-kbuild:amd64 of one version)"
abi=${hdr_pkg#linux-headers-}
dest=$ARM_SPE_CACHE/kernels/$abi
if [ -f "$dest/env" ] && grep -qxF "KVERSION=$ver" "$dest/env"; then
	spe_log "series $id: Debian linux $ver ($abi), cached"
	echo "$dest/env" | tee "$resolved"
	exit 0
fi
spe_log "series $id: fetching Debian linux $ver ($abi)"
rm -rf "$dest.tmp" && mkdir -p "$dest.tmp/root"
debs=$dest.tmp/debs
# The image may be split into binary and modules packages (7.x); take the
# package holding /boot/vmlinuz-*.
pkgs=("$hdr_pkg:arm64")
for d in $(dep_of "$hdr_pkg:arm64" "$ver"); do
	case $d in linux-headers-*-common*) pkgs+=("$d:all") ;; linux-kbuild-*) pkgs+=("$d:amd64") ;; esac
done
if spe_apt_cache show "linux-binary-$abi:arm64=$ver" >/dev/null 2>&1; then
	pkgs+=("linux-binary-$abi:arm64")
else
	pkgs+=("$img_pkg:arm64")
fi
for p in "${pkgs[@]}"; do
	pv=$ver
	case $p in *:all) p=${p%:all} ;; esac
	# kbuild and -common carry the source version too.
	f=$(spe_apt_download "$p" "$pv" "$debs")
	dpkg-deb -x "$f" "$dest.tmp/root"
done
root=$dest.tmp/root
kdir=$root/usr/src/linux-headers-$abi
[ -d "$kdir" ] || spe_die "headers not found at ${kdir#"$root"}"
kimage=$(find "$root/boot" "$root/usr/lib/modules" -name "vmlinuz*" 2>/dev/null | head -n1 || true)
[ -n "$kimage" ] || spe_die "no vmlinuz in $img_pkg"
# Debian's headers refer to each other by absolute /usr/src and /usr/lib
# paths; point those at the extracted tree.
find "$root/usr/src" -maxdepth 2 -name Makefile -exec sed -i "s|/usr/src/|$dest/root/usr/src/|g" {} +
find "$root/usr/src" "$root/usr/lib" -type l | while read -r l; do
	t=$(readlink "$l")
	case $t in /usr/*) ln -sfn "$dest/root$t" "$l" ;; esac
done
kbuild_dir=$(find "$root/usr/lib" -maxdepth 1 -name 'linux-kbuild-*' | head -n1)
[ -n "$kbuild_dir" ] || spe_die "no linux-kbuild in the extracted tree"
# Newer suites' kbuild host tools may need a newer C library than the host
# has: run them through a private loader with the newest suite's libraries.
probe=$kbuild_dir/scripts/basic/fixdep
probe_out=$("$probe" 2>&1 || true)
if ! printf '%s' "$probe_out" | grep -qi usage; then
	spe_log "kbuild host tools need newer libraries than the host's; wrapping them"
	libs=$ARM_SPE_CACHE/hostlibs
	if [ ! -e "$libs/.done" ]; then
		rm -rf "$libs" && mkdir -p "$libs"
		for p in libc6 libelf1t64 libssl3t64 zlib1g libzstd1 liblzma5 libbz2-1.0; do
			pv=$(spe_apt_newest "$p:amd64")
			f=$(spe_apt_download "$p:amd64" "$pv" "$ARM_SPE_CACHE/hostlibs-debs")
			dpkg-deb -x "$f" "$libs"
		done
		touch "$libs/.done"
	fi
	loader=$(find "$libs" -name 'ld-linux-x86-64.so.2' | head -n1)
	libpath=$libs/usr/lib/x86_64-linux-gnu:$libs/lib/x86_64-linux-gnu
	find "$kbuild_dir" -type f -perm -u+x | while read -r b; do
		file -b "$b" | grep -q '^ELF' || continue
		mv "$b" "$b.real"
		printf '#!/bin/sh\nexec %s --argv0 "$0" --library-path %s "$0.real" "$@"\n' "$loader" "$libpath" >"$b"
		chmod +x "$b"
	done
fi
kver=$(sed -n 's/^#define UTS_RELEASE "\(.*\)"$/\1/p' "$kdir/include/generated/utsrelease.h")
[ -n "$kver" ] || spe_die "no UTS_RELEASE in the headers"
# The compiler the kernel was configured with (Debian records it).
kcc=$(sed -n 's/^CC = .*)\(gcc-[0-9]*\)$/aarch64-linux-gnu-\1/p' "$kdir/.kernelvariables" 2>/dev/null)
# Rewrite paths to their final location.
rm -rf "$dest"
mv "$dest.tmp" "$dest"
kdir=$dest/root/usr/src/linux-headers-$abi
kimage=$dest/${kimage#"$dest.tmp/"}
cat >"$dest/env" <<EOT
KSERIES=$id
KVERSION=$ver
KVER=$kver
KDIR=$kdir
KIMAGE=$kimage
KCC=${kcc:-aarch64-linux-gnu-gcc}
EOT
rm -rf "$dest/debs"
spe_log "series $id: Debian linux $ver ($kver) ready"
echo "$dest/env" | tee "$resolved"
