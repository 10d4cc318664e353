#!/usr/bin/env bash
# Assemble Debian's arm64 perf (linux-perf) for a supported kernel series and
# the shared libraries it needs (and dash and GNU mktemp, for perf's shell
# tests) into a directory that can be laid over the
# test guest's initramfs (run.sh --file DIR/.:/).
#
#   perf-rootfs.sh [ID]     ID from tools/kernels/series.conf (default: the
#                           default series); prints the directory's path as
#                           the last stdout line.
#
# The linux-perf version is the one whose upstream version equals the
# kernel's (else the newest of the kernel's Debian suite). Packages come from
# a private apt state of their own ($ARM_SPE_CACHE/perf/apt) that sees only
# that suite (and its -security/-updates), arm64 only, with an empty dpkg
# status, so apt computes the whole runtime dependency closure; every .deb is
# unpacked with dpkg-deb -x, then the tree is pruned to perf's ELF closure
# (readelf NEEDED, transitively, plus libtraceevent plugins) and usrmerge
# symlinks. PERF_ROOTFS_FULL=1 keeps every unpacked file instead (minus docs,
# man pages and locales). The result is cached under
# $ARM_SPE_CACHE/perf/rootfs-<linux-perf version>-<hash of this script>.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
SPE_LOG_TAG=perf-rootfs
# shellcheck source=../lib/apt.sh
. "$here/../lib/apt.sh"

id=${1:-$("$top/tools/kernels/fetch.sh" --default)}
env_file=$("$top/tools/kernels/fetch.sh" "$id")
# shellcheck disable=SC1090
. "$env_file"
upstream=${KVERSION%%-*}

case $KVER in
*+deb13-*) suites="trixie trixie-updates trixie-security" ;;
*+deb14-*|7.*) suites="sid" ;;
*) suites="bookworm bookworm-updates bookworm-security" ;;
esac

spe_need_host_pkgs dpkg-dev binutils apt
# The shared private state only gives us the archive URIs; the rest is ours.
mapfile -t uris < <(_spe_apt_uris)
main=${uris[0]:-}; sec=${uris[1]:-}
[ -n "$main" ] || spe_die "could not find the Debian archive in /etc/apt/sources*"
[ -n "$sec" ] || sec="${main%/debian}/debian-security"
SPE_APT_DIR=$ARM_SPE_CACHE/perf/apt
d=$SPE_APT_DIR
mkdir -p "$d/lists/partial" "$d/archives/partial" "$d/etc/preferences.d" "$d/etc/apt.conf.d"
key=/usr/share/keyrings/debian-archive-keyring.gpg
for s in $suites; do
	case $s in *-security) u=$sec ;; *) u=$main ;; esac
	printf 'deb [arch=arm64 signed-by=%s] %s %s main\n' "$key" "$u" "$s"
done >"$d/etc/sources.list.new"
if ! cmp -s "$d/etc/sources.list.new" "$d/etc/sources.list"; then
	mv "$d/etc/sources.list.new" "$d/etc/sources.list"
	rm -f "$d/.updated"
else
	rm -f "$d/etc/sources.list.new"
fi
# apt-get with the native architecture arm64 and nothing else.
papt() {
	spe_apt -o APT::Architecture=arm64 -o APT::Architectures::=arm64 \
		-o pkgCacheFile::Generate=true "$@"
}
papt_cache() {
	apt-cache -o Dir::State="$d" -o Dir::State::Lists="$d/lists" \
		-o Dir::State::status=/dev/null -o Dir::Cache="$d" \
		-o Dir::Etc::SourceList="$d/etc/sources.list" -o Dir::Etc::SourceParts=/dev/null \
		-o APT::Architecture=arm64 -o APT::Architectures::=arm64 "$@"
}
if [ ! -e "$d/.updated" ] || [ -n "$(find "$d/.updated" -mmin +720 2>/dev/null)" ]; then
	# Seed from the shared state's lists (same files) so apt fetches little.
	for s in $suites; do
		cp -n "$ARM_SPE_CACHE"/apt/lists/*_dists_"${s}"_* "$d/lists/" 2>/dev/null || true
	done
	spe_log "refreshing perf apt lists ($suites, arm64)"
	papt -qq update || spe_die "apt update for $suites failed"
	touch "$d/.updated"
fi

vers=$(papt_cache madison linux-perf | awk -F'|' '{gsub(/ /, "", $2); print $2}' | sort -uV)
ver=$(grep -E "^${upstream//./\\.}-" <<<"$vers" | tail -n1 || true)
[ -n "$ver" ] || ver=$(tail -n1 <<<"$vers")
[ -n "$ver" ] || spe_die "no linux-perf in $suites"
[ "${ver%%-*}" = "$upstream" ] || spe_log "note: no linux-perf $upstream; using $ver"

key=$(sha256sum "$0" | cut -c1-12)
[ "${PERF_ROOTFS_FULL:-0}" = 1 ] && key=$key-full
out=$ARM_SPE_CACHE/perf/rootfs-$ver-$key
if [ -x "$out/usr/bin/perf" ] && [ -f "$out/.complete" ]; then
	spe_log "linux-perf $ver (arm64), cached"
	echo "$out"
	exit 0
fi

spe_log "linux-perf $ver (arm64): resolving its dependency closure"
debs=$ARM_SPE_CACHE/perf/debs
mkdir -p "$debs/partial"
papt -q -y --download-only --no-install-recommends \
	-o Dir::Cache::archives="$debs" install "linux-perf=$ver" coreutils dash >&2 ||
	spe_die "apt could not download linux-perf=$ver and its dependencies"
# The set apt chose: everything it would install now (re-simulated, cheap).
mapfile -t pkgs < <(papt -s -q -y --no-install-recommends install "linux-perf=$ver" coreutils dash |
	awk '$1 == "Inst" { v = $3; gsub(/[()]/, "", v); print $2 "_" v }')
[ ${#pkgs[@]} -gt 0 ] || spe_die "apt resolved no packages for linux-perf=$ver"
spe_log "unpacking ${#pkgs[@]} packages"
full=$out.tmp/full
rm -rf "$out.tmp" && mkdir -p "$full"
for p in "${pkgs[@]}"; do
	n=${p%%_*} v=${p#*_}
	f=$(find "$debs" -maxdepth 1 -name "${n}_*_arm64.deb" -o -maxdepth 1 -name "${n}_*_all.deb" |
		while read -r x; do if [ "$(dpkg-deb -f "$x" Version)" = "$v" ]; then echo "$x"; fi; done | head -n1)
	[ -n "$f" ] || spe_die "downloaded set lacks $n $v"
	dpkg-deb -x "$f" "$full"
done
# usrmerge: /lib, /bin, /sbin are symlinks into /usr on trixie; packages
# that still ship files under /lib must land in /usr/lib.
for x in lib bin sbin; do
	if [ -d "$full/$x" ] && [ ! -L "$full/$x" ]; then
		mkdir -p "$full/usr/$x"
		cp -a "$full/$x/." "$full/usr/$x/"
		rm -rf "${full:?}/$x"
	fi
done
rm -rf "$full"/usr/share/{doc,man,info,locale,lintian,bug,bash-completion} 2>/dev/null || true

# Older linux-perf packages ship /usr/bin/perf as a wrapper script that
# execs perf_<major.minor> chosen from `uname -r` (and needs bash); newer
# ones ship the binary as /usr/bin/perf. Find the ELF either way.
perf_bin=$(find "$full/usr/bin" -maxdepth 1 -name 'perf_*' -type f | sort -V | tail -n1)
[ -n "$perf_bin" ] || perf_bin=$full/usr/bin/perf
head -c4 "$perf_bin" 2>/dev/null | grep -q ELF || spe_die "linux-perf $ver has no perf ELF binary"

root=$out.tmp/root
if [ "${PERF_ROOTFS_FULL:-0}" = 1 ]; then
	mv "$full" "$root"
else
	mkdir -p "$root/usr/bin" "$root/usr/lib"
	# Resolve NEEDED names against the unpacked library directories.
	libdirs=("$full/usr/lib/aarch64-linux-gnu" "$full/usr/lib")
	find_lib() {
		local l
		for l in "${libdirs[@]}"; do [ -e "$l/$1" ] && { echo "$l/$1"; return 0; }; done
		find "$full/usr/lib" -name "$1" -print -quit
	}
	copy_rel() { # copy a file of $full (and the symlink chain to it) into $root
		local f=$1 rel
		while :; do
			rel=${f#"$full"/}
			[ -e "$root/$rel" ] || [ -L "$root/$rel" ] || {
				mkdir -p "$root/$(dirname "$rel")"
				cp -a "$f" "$root/$rel"
			}
			[ -L "$f" ] || break
			local t
			t=$(readlink "$f")
			case $t in /*) f=$full$t ;; *) f=$(dirname "$f")/$t ;; esac
		done
	}
	# perf's own shell tests want Debian's /bin/sh (dash) and GNU
	# mktemp (templates with five X; busybox's wants six, and busybox sh
	# runs its own applets whatever PATH says).
	queue=("$perf_bin" "$full/usr/bin/mktemp" "$full/usr/bin/dash")
	for pl in "$full"/usr/lib/aarch64-linux-gnu/traceevent/plugins/*.so \
		"$full"/usr/lib/aarch64-linux-gnu/libtraceevent/plugins/*.so; do
		[ -e "$pl" ] && queue+=("$pl")
	done
	declare -A seen=()
	missing=()
	while [ ${#queue[@]} -gt 0 ]; do
		f=${queue[0]}; queue=("${queue[@]:1}")
		[ -n "${seen[$f]:-}" ] && continue
		seen[$f]=1
		copy_rel "$f"
		while read -r lib; do
			p=$(find_lib "$lib")
			if [ -n "$p" ]; then queue+=("$p"); else missing+=("$lib"); fi
		done < <(readelf -d "$f" 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
	done
	[ ${#missing[@]} -eq 0 ] || spe_die "unresolved libraries: $(printf '%s\n' "${missing[@]}" | sort -u | xargs)"
	# The dynamic loader, by its ABI path (/lib/ld-linux-aarch64.so.1).
	ld=$(find "$full/usr/lib" -name 'ld-linux-aarch64.so.1' -print -quit)
	[ -n "$ld" ] || spe_die "no ld-linux-aarch64.so.1 in the closure"
	copy_rel "$ld"
	# perf's own scripts and python support are optional; keep its
	# non-ELF data (e.g. /usr/libexec/perf-core, /usr/share/perf-core).
	for x in usr/libexec/perf-core usr/share/perf-core usr/lib/perf-core \
		usr/lib/aarch64-linux-gnu/traceevent; do
		[ -e "$full/$x" ] && { mkdir -p "$root/$(dirname "$x")"; cp -an "$full/$x" "$root/$(dirname "$x")/"; }
	done
	rm -rf "$full"
fi
# /usr/bin/perf is the binary itself (a direct link when the package has a
# wrapper script), so the busybox guest runs it whatever its uname -r.
if [ "$(basename "$perf_bin")" != perf ]; then
	rm -f "$root/usr/bin/perf"
	ln -s "$(basename "$perf_bin")" "$root/usr/bin/perf"
fi
# usrmerge symlinks and the loader at its ABI path. Only /lib and /lib64:
# the guest's base archive already has /bin and /sbin as directories
# (busybox), which a symlink in a later cpio archive cannot replace.
[ -e "$root/lib" ] || ln -s usr/lib "$root/lib"
[ -e "$root/lib64" ] || ln -s usr/lib "$root/lib64"
[ -e "$root/usr/lib/ld-linux-aarch64.so.1" ] ||
	ln -s aarch64-linux-gnu/ld-linux-aarch64.so.1 "$root/usr/lib/ld-linux-aarch64.so.1"
printf '%s\n' "${pkgs[@]}" >"$root/.perf-packages"
touch "$root/.complete"
rm -rf "$out" && mv "$root" "$out" && rm -rf "$out.tmp"
spe_log "linux-perf $ver: $(du -sh "$out" | cut -f1) in ${out#"$ARM_SPE_CACHE"/}"
echo "$out"
