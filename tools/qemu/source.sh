# Debian's QEMU source for the FEAT_SPE series, sourced by build.sh and
# dev-tree.sh so that both unpack the same tree: the table of bases, the
# source version a base resolves to, its download into the cache and its
# unpacking with Debian's quilt series and the base's upstream fixes.
# Needs tools/lib/apt.sh sourced first.
# shellcheck shell=bash
# (the qemu_* variables are for the script that sources this)
# shellcheck disable=SC2034

# tools/qemu, where the series are
qemu_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# qemu_base BASE: sets qemu_pdir (the series), qemu_fixdir (upstream fixes
# applied under the series, or ""), qemu_fixes (those fixes' files, in the
# order qemu_unpack applies them), qemu_vsuffix (of the cached version
# file) and qemu_abbrev (the index abbreviation of the patch files: QEMU's
# own for that release).
qemu_base() {
	case "$1" in
	10.0)
		qemu_pdir=$qemu_dir/patches qemu_fixdir="" qemu_vsuffix="" qemu_abbrev=8
		;;
	10.2)
		qemu_pdir=$qemu_dir/patches-10.2 qemu_fixdir=$qemu_dir/patches-10.2/base
		qemu_vsuffix=-10.2 qemu_abbrev=9
		;;
	*) spe_die "--base takes 10.0 or 10.2, not '$1'" ;;
	esac
	qemu_fixes=()
	[ -z "$qemu_fixdir" ] || qemu_patch_files "$qemu_fixdir" qemu_fixes
}

# qemu_patch_files DIR ARRAY: sets ARRAY to DIR's NNNN-*.patch, sorted.
qemu_patch_files() {
	local -n _files=$2
	mapfile -t _files < <(find "$1" -maxdepth 1 -name '[0-9][0-9][0-9][0-9]-*.patch' | sort)
}

# qemu_apply DIR VER FILE...: applies each patch FILE to the QEMU VER tree
# DIR, in order, without fuzz (as dpkg-source does): a patch that no
# longer fits stops the build.
qemu_apply() {
	local dir=$1 ver=$2 p
	shift 2
	for p in "$@"; do
		spe_log "applying $(basename "$p")"
		patch -d "$dir" -p1 -s -F0 --no-backup-if-mismatch <"$p" ||
			spe_die "$(basename "$p") does not apply to qemu $ver"
	done
}

# qemu_version BASE: prints the Debian source version for BASE:
# $QEMU_DEB_VERSION if set, else the one resolved in the last 12 hours,
# else the newest BASE.x source package in the private apt state (sid
# keeps 10.2's source after its binaries moved on), remembered.
qemu_version() {
	local ver=${QEMU_DEB_VERSION:-} root="$ARM_SPE_CACHE/qemu" vfile
	if [ -n "$ver" ]; then
		echo "$ver"
		return
	fi
	qemu_base "$1"
	mkdir -p "$root"
	vfile="$root/.resolved-version$qemu_vsuffix"
	if [ -s "$vfile" ] && [ -z "$(find "$vfile" -mmin +720 2>/dev/null)" ]; then
		cat "$vfile"
		return
	fi
	spe_apt_setup >&2
	ver=$(spe_apt_newest qemu "^1:${1//./\\.}\\.")
	[ -n "$ver" ] || spe_die "no QEMU $1.x source package found in the private apt state"
	# whole or not at all: another build may be reading it
	echo "$ver" >"$vfile.$$" && mv "$vfile.$$" "$vfile"
	echo "$ver"
}

# qemu_unpack VER DEST: unpacks source package VER (downloaded into the
# cache if it is not there) into DEST, then applies Debian's quilt series
# (build fixes for the +ds repack, e.g. the stripped firmware blobs) and
# the fixes in qemu_fixes (qemu_base first), all without fuzz.
qemu_unpack() {
	local ver=$1 dest=$2 sdir="$ARM_SPE_CACHE/qemu-src/$1" p debian=()
	if ! ls "$sdir"/qemu_*.orig.tar.* >/dev/null 2>&1 ||
		! ls "$sdir"/qemu_*.debian.tar.* >/dev/null 2>&1; then
		spe_log "downloading source package qemu=$ver"
		spe_apt_setup
		mkdir -p "$sdir"
		(cd "$sdir" && spe_apt -qq source --download-only "qemu=$ver") >&2 ||
			spe_die "could not download source package qemu=$ver"
	fi
	spe_log "unpacking qemu $ver into $dest"
	mkdir -p "$dest"
	tar -C "$dest" --strip-components=1 --no-same-owner \
		-xf "$(find "$sdir" -name 'qemu_*.orig.tar.*' | sort | head -n1)" ||
		spe_die "could not unpack the orig tarball"
	tar -C "$dest" --no-same-owner \
		-xf "$(find "$sdir" -name 'qemu_*.debian.tar.*' | sort | head -n1)" ||
		spe_die "could not unpack the debian tarball"
	spe_log "applying Debian's patch series"
	while read -r p _; do
		case "$p" in "" | \#*) continue ;; esac
		debian+=("$dest/debian/patches/$p")
	done <"$dest/debian/patches/series"
	qemu_apply "$dest" "$ver" "${debian[@]}" "${qemu_fixes[@]}"
}
