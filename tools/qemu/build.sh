#!/usr/bin/env bash
# Build qemu-system-aarch64 with the project's FEAT_SPE emulation.
#
# usage: tools/qemu/build.sh [--unpatched] [--base 10.0|10.2]
#
# Fetches Debian's QEMU source through the private apt state, applies
# Debian's own quilt series (debian/patches/series: build fixes for the
# +ds repack, e.g. the stripped firmware blobs) and then this project's
# series (the source steps are tools/qemu/source.sh's, shared with
# dev-tree.sh), configures a TCG-only aarch64-softmmu build and compiles
# it with ninja -j2. The base is one of:
#   10.0  trixie's newest 10.0.x, series tools/qemu/patches (the default;
#         every test runs on it)
#   10.2  sid's newest 10.2.x, the same series rebased on it in
#         tools/qemu/patches-10.2, after the upstream build fixes in
#         tools/qemu/patches-10.2/base
# QEMU_DEB_VERSION=... overrides the source version.
#
# With the series, QEMU's own aarch64 system tests (tests/tcg/aarch64/
# system, the series' spe.c among them) are built too, with
# aarch64-linux-gnu-gcc, into $ARM_SPE_CACHE/qemu/<key>/tcg/, with the
# command line QEMU's harness gives each one (tcg/runs): tools/qemu/
# tcg-tests.sh runs them.
#
# The binary is cached in $ARM_SPE_CACHE/qemu/<key>/qemu-system-aarch64,
# <key> being a hash of the source version, the patches and this script,
# so a warm run only prints the path. With --unpatched the project's
# series is not applied (a fair baseline for tools/bench/qemu-overhead.sh).
#
# Progress goes to stderr; the last line of stdout is the absolute path
# of qemu-system-aarch64. Exits non-zero with a message on failure.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
SPE_LOG_TAG=qemu-build
# shellcheck source=../lib/apt.sh
. "$repo/tools/lib/apt.sh"

mode=patched
base=10.0
while [ $# -gt 0 ]; do
	case "$1" in
	--unpatched) mode=unpatched ;;
	--base)
		base=${2:-}
		shift
		;;
	-h | --help)
		sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'
		exit 0
		;;
	*) spe_die "unknown argument: $1 (usage: build.sh [--unpatched] [--base 10.0|10.2])" ;;
	esac
	shift
done
# shellcheck source=source.sh
. "$here/source.sh"
qemu_base "$base"
pdir=$qemu_pdir

root="$ARM_SPE_CACHE/qemu"
mkdir -p "$root"

# The source version: apt is asked at most every 12 hours, so a warm run
# does not need it at all (qemu_version).
ver=$(qemu_version "$base")
spe_log "QEMU source: qemu $ver (Debian), base $base, mode: $mode"

patches=()
if [ "$mode" = patched ]; then
	qemu_patch_files "$pdir" patches
	[ ${#patches[@]} -gt 0 ] || spe_die "no patches in $pdir"
fi

key=$(
	{
		echo "$ver $mode"
		cat "$0" "$here/source.sh"
		for p in "${qemu_fixes[@]}" "${patches[@]}"; do
			basename "$p"
			cat "$p"
		done
	} | sha256sum | cut -c1-16
)
out="$root/$key"
bin="$out/qemu-system-aarch64"
if [ -x "$bin" ]; then
	spe_log "cached: $bin"
	echo "$bin"
	exit 0
fi

# Several engineers share the machine and the cache: one build per key at
# a time; whoever waited finds the binary ready.
exec 9>"$root/.lock-$key"
if ! flock -n 9; then
	spe_log "another build of $key is running; waiting for it"
	flock 9
fi
if [ -x "$bin" ]; then
	spe_log "cached: $bin"
	echo "$bin"
	exit 0
fi

spe_log "building into $out (about 5 minutes on 2 cores)"
spe_need_host_pkgs gcc make ninja-build pkg-config libglib2.0-dev \
	libpixman-1-dev libfdt-dev flex bison python3 python3-venv xz-utils patch
# configure looks for this cross compiler to set up tests/tcg
[ "$mode" = unpatched ] || spe_need_host_pkgs gcc-aarch64-linux-gnu

# meson >= 1.5 is needed; bookworm has 1.0, so use the backports .deb,
# unpacked into the cache (never installed on the host).
spe_apt_setup
mver=$(spe_apt_newest meson '^1\.([5-9]|[1-9][0-9])\..*~bpo12')
[ -n "$mver" ] || mver=$(spe_apt_newest meson '^1\.([5-9]|[1-9][0-9])\.')
[ -n "$mver" ] || spe_die "no meson >= 1.5 in the private apt state"
mdir="$ARM_SPE_CACHE/tools/meson-$mver"
if [ ! -d "$mdir/usr/lib/python3/dist-packages/mesonbuild" ]; then
	deb=$(spe_apt_download meson "$mver" "$ARM_SPE_CACHE/tools/debs")
	rm -rf "$mdir.tmp" && mkdir -p "$mdir.tmp"
	dpkg-deb -x "$deb" "$mdir.tmp" || spe_die "could not unpack $deb"
	mv "$mdir.tmp" "$mdir"
fi
export PATH="$mdir/usr/bin:$PATH"
export PYTHONPATH="$mdir/usr/lib/python3/dist-packages${PYTHONPATH:+:$PYTHONPATH}"
spe_log "meson $mver from $mdir"

rm -rf "$out.tmp"
qemu_unpack "$ver" "$out.tmp/src"
qemu_apply "$out.tmp/src" "$ver" "${patches[@]}"

mkdir -p "$out.tmp/build"
cd "$out.tmp/build"
spe_log "configuring"
../src/configure --python=/usr/bin/python3 \
	--target-list=aarch64-softmmu \
	--without-default-features --without-default-devices \
	--with-devices-aarch64=minimal \
	--enable-tcg --enable-fdt=system \
	--disable-docs --disable-install-blobs --disable-download \
	--disable-werror >configure.log 2>&1 ||
	{
		tail -n 30 configure.log >&2
		spe_die "configure failed (log: $out.tmp/build/configure.log)"
	}
spe_log "compiling (ninja -j2)"
ninja -j2 qemu-system-aarch64 >ninja.log 2>&1 ||
	{
		grep -E 'error|FAILED' ninja.log | head -n 30 >&2
		spe_die "build failed (log: $out.tmp/build/ninja.log)"
	}
./qemu-system-aarch64 --version >/dev/null || spe_die "built binary does not run"

cp qemu-system-aarch64 "$out.tmp/qemu-system-aarch64"
if [ "$mode" = patched ]; then
	spe_log "building QEMU's aarch64 system tests (tests/tcg)"
	[ -s tests/tcg/aarch64-softmmu/config-target.mak ] ||
		spe_die "configure found no aarch64 cross compiler for tests/tcg (log: $out.tmp/build/configure.log)"
	make build-tcg-tests-aarch64-softmmu >tcg-build.log 2>&1 ||
		{
			tail -n 30 tcg-build.log >&2
			spe_die "QEMU's aarch64 system tests do not build (log: $out.tmp/build/tcg-build.log)"
		}
	# QEMU's harness (make run-...) with a stand-in for QEMU that writes
	# down each command line instead of running it, one per line
	cat >record-qemu <<'REC'
#!/usr/bin/env bash
{ printf '%q' "$1"; shift; printf ' %q' "$@"; echo; } >>"${SPE_TCG_RUNS:?}"
REC
	chmod +x record-qemu
	: >tcg-runs
	SPE_TCG_RUNS=$PWD/tcg-runs make run-tcg-tests-aarch64-softmmu \
		QEMU="$PWD/record-qemu" >tcg-record.log 2>&1 ||
		spe_die "could not list QEMU's aarch64 system test runs (log: $out.tmp/build/tcg-record.log)"
	grep -q -- '-kernel spe$' tcg-runs ||
		spe_die "the series' tests/tcg/aarch64/system/spe.c is not among the runs (log: $out.tmp/build/tcg-record.log)"
	mkdir -p "$out.tmp/tcg"
	find tests/tcg/aarch64-softmmu -maxdepth 1 -type f -perm -u+x \
		-exec cp {} "$out.tmp/tcg/" \;
	cp tcg-runs "$out.tmp/tcg/runs"
fi
{
	echo "source: qemu $ver (Debian) + debian/patches/series"
	echo "mode: $mode"
	for p in "${qemu_fixes[@]}" "${patches[@]}"; do basename "$p"; done
} >"$out.tmp/BUILDINFO"
cd "$root"
rm -rf "$out.tmp/src" "$out.tmp/build"
rm -rf "$out"
mv "$out.tmp" "$out"
spe_log "done: $bin"
echo "$bin"
