#!/usr/bin/env bash
# Differential test of the FEAT_SPE emulator's A64 instruction classifier
# against LLVM (host only: no QEMU build, no guest).
#
# usage: tools/qemu/classify/run.sh [--base 10.0|10.2] [classify.py options,
#        e.g. --per-group N]
#
# 1. Takes target/arm/tcg/spe-classify.[ch] out of the QEMU patch series
#    (tools/qemu/patches/*.patch, or tools/qemu/patches-10.2 with --base
#    10.2, applied in order to an empty tree with git apply --include: the
#    very file the emulator compiles, no copy) and builds it with main.c
#    into a host driver. On 10.2 classify.py also draws from the groups of
#    what only 10.2's -cpu max has (--base 10.2).
# 2. The oracle: Debian's llvm-16 (llvm-mc decodes the words) and the
#    MCInstrDesc flags of its AArch64 instruction table, generated with
#    llvm-16's own llvm-tblgen from the .td files of the llvm-toolchain-16
#    source package of the same version (cached in
#    $ARM_SPE_CACHE/llvm-oracle/<version>/).
# 3. classify.py draws random words per A64 encoding group, compares, and
#    prints TAP and "classify: N passed, N failed, N skipped".
#
# Allowed differences: the table between ".. classify-allow-begin" and
# ".. classify-allow-end" in Documentation/emulation.rst.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
SPE_LOG_TAG=classify
# shellcheck source=../../lib/apt.sh
. "$repo/tools/lib/apt.sh"

spe_need_host_pkgs llvm-16 gcc git python3 xz-utils
llvm=/usr/lib/llvm-16/bin
if [ ! -x "$llvm/llvm-mc" ] || [ ! -x "$llvm/llvm-tblgen" ]; then
	spe_die "llvm-16 has no llvm-mc/llvm-tblgen"
fi

# shellcheck source=../source.sh
. "$repo/tools/qemu/source.sh"
base=10.0
if [ "${1:-}" = --base ]; then
	base=${2:-}
	shift 2 || spe_die "--base takes 10.0 or 10.2"
fi
# the series of that base, from build.sh's table (source.sh)
qemu_base "$base"
pdir=$qemu_pdir

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# 1. the classifier, out of the series
mkdir -p "$work/src"
n=0
for p in "$pdir"/[0-9][0-9][0-9][0-9]-*.patch; do
	grep -q '^diff --git a/target/arm/tcg/spe-classify\.' "$p" || continue
	git -C "$work/src" apply --include='target/arm/tcg/spe-classify.*' "$p" ||
		spe_die "$(basename "$p"): spe-classify.* does not apply"
	n=$((n + 1))
done
c="$work/src/target/arm/tcg/spe-classify.c"
[ -f "$c" ] || spe_die "no patch in ${pdir#"$repo"/} creates target/arm/tcg/spe-classify.c"
spe_log "classifier from $n patch(es) of ${pdir#"$repo"/}"
gcc -std=gnu11 -O2 -Wall -Wextra -Werror -I "$(dirname "$c")" \
	-o "$work/classify" "$here/main.c" "$c" || spe_die "the classifier does not build on the host"

# 2. the oracle's instruction table, built once per llvm-16 version
ver=$(dpkg-query -W -f='${Version}' llvm-16)
odir="$ARM_SPE_CACHE/llvm-oracle/$ver"
inc="$odir/AArch64GenInstrInfo.inc"
if [ ! -s "$inc" ]; then
	spe_log "generating LLVM's AArch64 instruction table (llvm-toolchain-16 $ver .td files)"
	spe_apt_setup
	rm -rf "$odir.tmp" && mkdir -p "$odir.tmp"
	(cd "$odir.tmp" && spe_apt -qq source --download-only "llvm-toolchain-16=$ver") >&2 ||
		spe_die "could not download the source package llvm-toolchain-16=$ver"
	orig=$(find "$odir.tmp" -maxdepth 1 -name 'llvm-toolchain-16_*.orig.tar.*' | head -n1)
	[ -n "$orig" ] || spe_die "no orig tarball of llvm-toolchain-16=$ver"
	top=$(basename "$orig")
	top=${top%.orig.tar.*}          # llvm-toolchain-16_16.0.6
	tar -C "$odir.tmp" -xf "$orig" --wildcards "$top/llvm/include/llvm/*.td" \
		"$top/llvm/lib/Target/AArch64/*.td" || spe_die "could not unpack $orig"
	(cd "$odir.tmp/$top/llvm" && "$llvm/llvm-tblgen" -gen-instr-info -I include \
		-I lib/Target/AArch64 lib/Target/AArch64/AArch64.td -o "$odir.tmp/AArch64GenInstrInfo.inc") ||
		spe_die "llvm-tblgen failed"
	rm -rf "$odir" && mkdir -p "$odir"
	mv "$odir.tmp/AArch64GenInstrInfo.inc" "$inc"
	rm -rf "$odir.tmp"
fi

# 3. compare
set +e
python3 "$here/classify.py" --driver "$work/classify" --llvm-mc "$llvm/llvm-mc" \
	--instrinfo "$inc" --doc "$repo/Documentation/emulation.rst" --base "$base" "$@"
exit $?
