#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Host test of tools/qemu/source.sh, the QEMU source handling build.sh and
# dev-tree.sh share: the table of bases, version resolution and its cache,
# and unpacking with Debian's quilt series and the base fixes, on small
# made-up source packages, with apt replaced by stubs. Each error path
# must stop with its message and leave no version file half written.
# Prints TAP and ends with "qemu-source: N passed, N failed, N skipped".
# shellcheck disable=SC2016,SC2317
# (the cases' commands expand in in_source's subshell; the stubs are
# called from source.sh)
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck source=../lib/tap.sh
. "$repo/tools/lib/tap.sh"
tap_begin qemu-source

ok() { tap_ok "$1"; }
not_ok() {
	tap_not_ok "$1"
	cat "$work/out" "$work/err" 2>/dev/null | sed 's/^/#   /' | tail -n 8
}

# in_source CMD...: run CMD in a subshell that has sourced apt.sh and
# source.sh against the cache $work/cache, with apt stubbed out: the
# stubs fail unless a case redefines them. Output goes to $work/out.
in_source() {
	(
		export ARM_SPE_CACHE=$work/cache SPE_LOG_TAG=t
		unset QEMU_DEB_VERSION
		# shellcheck source=../lib/apt.sh
		. "$repo/tools/lib/apt.sh"
		# shellcheck source=source.sh
		. "$here/source.sh"
		spe_apt_setup() { echo "stub: apt setup" >&2; }
		spe_apt() { echo "stub: apt $*" >&2; return 100; }
		spe_apt_newest() { echo "stub: apt newest $*" >&2; }
		"$@"
	) >"$work/out" 2>"$work/err"
}

# expect_fail NAME MESSAGE CMD...: CMD must exit non-zero and say MESSAGE.
expect_fail() {
	local name=$1 msg=$2
	shift 2
	if in_source "$@"; then
		not_ok "$name: succeeded, want an error"
	elif ! grep -qF -- "$msg" "$work/err"; then
		not_ok "$name: no '$msg' in its error"
	else
		ok "$name"
	fi
}

# A source package "1:9.9.9+ds-1" in the cache: an orig tarball with one
# file, a debian tarball whose quilt series has one patch (its content
# $1), and $2 as a base fix.
make_pkg() {
	local v="1:9.9.9+ds-1" s=$work/cache/qemu-src/1:9.9.9+ds-1 t=$work/pkg
	rm -rf "$s" "$t" && mkdir -p "$s" "$t/qemu-9.9.9/sub" "$t/debian/patches" "$work/fix"
	printf 'one\ntwo\nthree\n' >"$t/qemu-9.9.9/sub/file"
	tar -C "$t" -cJf "$s/qemu_9.9.9+ds.orig.tar.xz" qemu-9.9.9
	printf '%s\n' "$1" >"$t/debian/patches/debian-fix.patch"
	printf '# comment\n\ndebian-fix.patch\n' >"$t/debian/patches/series"
	tar -C "$t" -cJf "$s/qemu_9.9.9+ds-1.debian.tar.xz" debian
	rm -f "$work/fix"/*.patch
	printf '%s\n' "$2" >"$work/fix/0001-base-fix.patch"
	echo "$v"
}
# hunk LINE...: a patch of sub/file's three lines, one hunk of LINEs.
hunk() { printf -- '--- a/sub/file\n+++ b/sub/file\n@@ -1,3 +1,3 @@\n'; printf '%s\n' "$@"; }
patch_two_to_deb=$(hunk ' one' '-two' '+deb' ' three')
patch_three_to_fix=$(hunk ' one' ' deb' '-three' '+fix')
patch_not_there=$(hunk ' one' '-four' '+fix' ' three')
# applies only with fuzz (its first context line differs): refused
patch_fuzzy=$(hunk ' zero' ' deb' '-three' '+fix')

echo "TAP version 13"

# The table of bases.
expect_fail unknown_base "--base takes 10.0 or 10.2, not '9.9'" qemu_base 9.9
if in_source eval 'qemu_base 10.0; [ -z "$qemu_fixdir" ] && [ ${#qemu_fixes[@]} -eq 0 ] &&
	[ "$qemu_pdir" = "$here/patches" ]'; then
	ok "base 10.0: the series in patches/, no base fixes"
else
	not_ok "base 10.0: wrong series or fixes"
fi
want=$(find "$here/patches-10.2/base" -maxdepth 1 -name '*.patch' | sort | tr '\n' ' ')
if in_source eval 'qemu_base 10.2; [ "$(printf "%s " "${qemu_fixes[@]}")" = "$want" ]' && [ -n "$want" ]; then
	ok "base 10.2: qemu_fixes is every patch of patches-10.2/base, in order"
else
	not_ok "base 10.2: qemu_fixes is not patches-10.2/base's patches"
fi

# Version resolution and its cache file.
vfile=$work/cache/qemu/.resolved-version-10.2
if in_source eval 'QEMU_DEB_VERSION=1:7.7.7 qemu_version 10.2 | grep -qx 1:7.7.7' && [ ! -e "$vfile" ]; then
	ok "QEMU_DEB_VERSION wins and is not remembered"
else
	not_ok "QEMU_DEB_VERSION is not taken as given"
fi
expect_fail no_version_found "no QEMU 10.2.x source package found" qemu_version 10.2
if [ ! -e "$vfile" ]; then
	ok "no version found: no version file written"
else
	not_ok "no version found: a version file was written"
fi
in_source eval 'spe_apt_newest() { echo "1:10.2.5+ds-1"; }; qemu_version 10.2'
if [ "$(cat "$work/out")" = "1:10.2.5+ds-1" ] && [ "$(cat "$vfile")" = "1:10.2.5+ds-1" ] &&
	[ -z "$(find "$(dirname "$vfile")" -name '.resolved-version-10.2.*')" ]; then
	ok "resolved version printed and remembered, no temporary file left"
else
	not_ok "resolved version not remembered whole"
fi
if in_source eval 'spe_apt_setup() { exit 1; }; qemu_version 10.2 | grep -qx "1:10.2.5+ds-1"'; then
	ok "a version resolved within 12 hours is used without apt"
else
	not_ok "a fresh remembered version still asks apt"
fi
touch -d '13 hours ago' "$vfile"
in_source eval 'spe_apt_newest() { echo "1:10.2.6+ds-1"; }; qemu_version 10.2'
if [ "$(cat "$vfile")" = "1:10.2.6+ds-1" ]; then
	ok "a version older than 12 hours is resolved again"
else
	not_ok "a stale remembered version is still used"
fi

# Unpacking.
expect_fail download_fails "could not download source package qemu=1:5.5.5+ds-1" \
	qemu_unpack 1:5.5.5+ds-1 "$work/dest"
v=$(make_pkg "$patch_two_to_deb" "$patch_three_to_fix")
# expect_tree NAME WANT FIXES: unpack $v with the base fixes FIXES (a word
# list) into a new $work/dest; sub/file must then read WANT.
expect_tree() {
	rm -rf "$work/dest"
	if in_source eval "qemu_fixes=($3); qemu_unpack \"\$v\" \"\$work/dest\"" &&
		[ "$(tr '\n' ' ' <"$work/dest/sub/file")" = "$2" ]; then
		ok "$1"
	else
		not_ok "$1: sub/file is not '$2'"
	fi
}
expect_tree "unpacked with Debian's series, then the base fix" "one deb fix " "$work/fix/0001-base-fix.patch"
expect_tree "no base fixes (10.0): Debian's series only" "one deb three " ""
v=$(make_pkg "$patch_not_there" "$patch_three_to_fix")
rm -rf "$work/dest"
expect_fail debian_patch_fails "debian-fix.patch does not apply to qemu $v" \
	eval 'qemu_fixes=(); qemu_unpack "$v" "$work/dest"'
v=$(make_pkg "$patch_two_to_deb" "$patch_not_there")
rm -rf "$work/dest"
expect_fail base_fix_fails "0001-base-fix.patch does not apply to qemu $v" \
	eval 'qemu_fixes=("$work/fix/0001-base-fix.patch"); qemu_unpack "$v" "$work/dest"'
v=$(make_pkg "$patch_two_to_deb" "$patch_fuzzy")
rm -rf "$work/dest"
expect_fail base_fix_with_fuzz "0001-base-fix.patch does not apply to qemu $v" \
	eval 'qemu_fixes=("$work/fix/0001-base-fix.patch"); qemu_unpack "$v" "$work/dest"'
rm -f "$work/cache/qemu-src/$v"/*.debian.tar.xz
rm -rf "$work/dest"
expect_fail half_downloaded "could not download source package qemu=$v" \
	qemu_unpack "$v" "$work/dest"

tap_end
