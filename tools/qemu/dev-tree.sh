#!/usr/bin/env bash
# A QEMU work tree with the FEAT_SPE series as git commits, for working on
# the series, and the export of those commits back into the patch files.
#
# usage: tools/qemu/dev-tree.sh init   [--base 10.0|10.2] DIR
#        tools/qemu/dev-tree.sh export [--base 10.0|10.2] DIR
#
# init: unpacks Debian's QEMU source (the version build.sh resolves; the
#   source package is shared with build.sh's cache), applies Debian's quilt
#   series and, on 10.2, the base fixes, commits that as the tag "spe-base"
#   of a new git repository DIR/src, and applies the series on top with
#   git am. Configure and build it in DIR/build as build.sh does:
#     cd DIR/build && ../src/configure <build.sh's options> && ninja
# export: writes DIR/src's commits after spe-base as the numbered patch
#   files of that base (tools/qemu/patches or patches-10.2), replacing
#   them: git format-patch --numbered, with the index abbreviation the
#   existing files use (QEMU's own: 8 hex digits on 10.0, 9 on 10.2). The
#   cover letter is not touched; its diffstat is printed for it.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
SPE_LOG_TAG=qemu-dev-tree
# shellcheck source=../lib/apt.sh
. "$repo/tools/lib/apt.sh"

usage() { spe_die "usage: dev-tree.sh init|export [--base 10.0|10.2] DIR"; }

cmd=${1:-}
shift || usage
base=10.0
if [ "${1:-}" = --base ]; then
	base=${2:-}
	shift 2 || usage
fi
dir=${1:-}
[ -n "$dir" ] || usage
case $base in
10.0)
	pdir=$here/patches fixdir="" vsuffix="" abbrev=8
	;;
10.2)
	pdir=$here/patches-10.2 fixdir=$here/patches-10.2/base vsuffix=-10.2 abbrev=9
	;;
*) spe_die "--base takes 10.0 or 10.2, not '$base'" ;;
esac

case $cmd in
init)
	[ ! -e "$dir/src" ] || spe_die "$dir/src exists"
	root="$ARM_SPE_CACHE/qemu"
	ver=${QEMU_DEB_VERSION:-}
	[ -n "$ver" ] || ver=$(cat "$root/.resolved-version$vsuffix" 2>/dev/null || true)
	if [ -z "$ver" ]; then
		spe_apt_setup
		ver=$(spe_apt_newest qemu "^1:${base//./\\.}\\.")
		[ -n "$ver" ] || spe_die "no QEMU $base.x source package in the private apt state"
	fi
	sdir="$ARM_SPE_CACHE/qemu-src/$ver"
	if ! ls "$sdir"/qemu_*.orig.tar.* >/dev/null 2>&1 ||
		! ls "$sdir"/qemu_*.debian.tar.* >/dev/null 2>&1; then
		spe_apt_setup
		mkdir -p "$sdir"
		(cd "$sdir" && spe_apt -qq source --download-only "qemu=$ver") >&2 ||
			spe_die "could not download source package qemu=$ver"
	fi
	mkdir -p "$dir/src" "$dir/build"
	cd "$dir/src"
	spe_log "unpacking qemu $ver into $dir/src"
	tar --strip-components=1 --no-same-owner -xf "$(ls "$sdir"/qemu_*.orig.tar.* | head -n1)"
	tar --no-same-owner -xf "$(ls "$sdir"/qemu_*.debian.tar.* | head -n1)"
	while read -r p _; do
		case "$p" in "" | \#*) continue ;; esac
		patch -p1 -s --no-backup-if-mismatch <"debian/patches/$p" ||
			spe_die "Debian patch $p does not apply"
	done <debian/patches/series
	if [ -n "$fixdir" ]; then
		for p in "$fixdir"/[0-9][0-9][0-9][0-9]-*.patch; do
			patch -p1 -s --no-backup-if-mismatch <"$p" ||
				spe_die "$(basename "$p") does not apply"
		done
	fi
	git init -q
	git add -A
	git -c user.name=base -c user.email=base@localhost commit -q -m "qemu $ver, Debian's series"
	git tag spe-base
	git am -q "$pdir"/[0-9][0-9][0-9][0-9]-*.patch || spe_die "the series does not apply (git am)"
	spe_log "$(git rev-list --count spe-base..HEAD) patches on spe-base in $dir/src"
	;;
export)
	cd "$dir/src"
	n=$(git rev-list --count spe-base..HEAD)
	[ "$n" -gt 0 ] || spe_die "no commits after spe-base in $dir/src"
	find "$pdir" -maxdepth 1 -name '[0-9][0-9][0-9][0-9]-*.patch' -delete
	git -c core.abbrev="$abbrev" format-patch -q --numbered -o "$pdir" spe-base..HEAD
	spe_log "wrote $n patches into ${pdir#"$repo"/}"
	git diff --stat=72 spe-base HEAD | tail -n 1
	;;
*) usage ;;
esac
