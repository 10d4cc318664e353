#!/usr/bin/env bash
# A QEMU work tree with the FEAT_SPE series as git commits, for working on
# the series, and the export of those commits back into the patch files.
#
# usage: tools/qemu/dev-tree.sh init   [--base 10.0|10.2] DIR
#        tools/qemu/dev-tree.sh export [--base 10.0|10.2] DIR
#
# init: unpacks Debian's QEMU source as build.sh does (tools/qemu/
#   source.sh: the same version, source package cache, Debian quilt series
#   and, on 10.2, base fixes), commits that as the tag "spe-base"
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
# shellcheck source=source.sh
. "$here/source.sh"
qemu_base "$base"

case $cmd in
init)
	[ ! -e "$dir/src" ] || spe_die "$dir/src exists"
	ver=$(qemu_version "$base")
	mkdir -p "$dir/build"
	qemu_unpack "$ver" "$dir/src"
	cd "$dir/src"
	git init -q
	git add -A
	git -c user.name=base -c user.email=base@localhost commit -q -m "qemu $ver, Debian's series"
	git tag spe-base
	git am -q "$qemu_pdir"/[0-9][0-9][0-9][0-9]-*.patch || spe_die "the series does not apply (git am)"
	spe_log "$(git rev-list --count spe-base..HEAD) patches on spe-base in $dir/src"
	;;
export)
	cd "$dir/src"
	n=$(git rev-list --count spe-base..HEAD)
	[ "$n" -gt 0 ] || spe_die "no commits after spe-base in $dir/src"
	find "$qemu_pdir" -maxdepth 1 -name '[0-9][0-9][0-9][0-9]-*.patch' -delete
	git -c core.abbrev="$qemu_abbrev" format-patch -q --numbered -o "$qemu_pdir" spe-base..HEAD
	spe_log "wrote $n patches into ${qemu_pdir#"$repo"/}"
	git diff --stat=72 spe-base HEAD | tail -n 1
	;;
*) usage ;;
esac
