# shellcheck shell=bash
# Package plumbing shared by every script under tools/: the cache directory,
# host package installation, and a private apt state (sources derived from
# the machine's own) used to fetch arm64 .debs and source packages from
# other Debian suites without touching the host's apt configuration.
#
# Source it; do not run it.

: "${ARM_SPE_CACHE:=${XDG_CACHE_HOME:-$HOME/.cache}/arm-spe}"
export ARM_SPE_CACHE
SPE_APT_DIR="$ARM_SPE_CACHE/apt"

spe_log() { printf '[%s] %s\n' "${SPE_LOG_TAG:-arm-spe}" "$*" >&2; }
spe_die() { printf '[%s] error: %s\n' "${SPE_LOG_TAG:-arm-spe}" "$*" >&2; exit 1; }

spe_sudo() {
	if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
		spe_die "need root to run: $*"
	fi
}

# _spe_host_absent PKG...: prints those of PKG not installed on the host.
_spe_host_absent() {
	local p
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
			echo "$p"
	done
}

# Install host (amd64) packages that are missing. Arguments are package
# names; nothing is done when all are already installed. One installer at
# a time: make check fetches kernels while QEMU builds, and a second
# apt-get would fail on dpkg's lock. Whoever waited installs only what is
# still missing. apt-get does not inherit the lock's descriptor, so a
# daemon a package starts cannot keep it held.
spe_need_host_pkgs() {
	local absent lock
	mapfile -t absent < <(_spe_host_absent "$@")
	[ ${#absent[@]} -eq 0 ] && return 0
	mkdir -p "$ARM_SPE_CACHE"
	exec {lock}>"$ARM_SPE_CACHE/.host-apt-lock"
	flock "$lock" || spe_die "could not lock $ARM_SPE_CACHE/.host-apt-lock"
	mapfile -t absent < <(_spe_host_absent "$@")
	if [ ${#absent[@]} -gt 0 ]; then
		spe_log "installing host packages: ${absent[*]}"
		if [ ! -e "$ARM_SPE_CACHE/.host-apt-updated" ] ||
		   [ -n "$(find "$ARM_SPE_CACHE/.host-apt-updated" -mmin +720 2>/dev/null)" ]; then
			spe_sudo apt-get update -qq {lock}>&- || spe_die "apt-get update failed"
			touch "$ARM_SPE_CACHE/.host-apt-updated"
		fi
		DEBIAN_FRONTEND=noninteractive spe_sudo apt-get install -y -qq --no-install-recommends \
			"${absent[@]}" >/dev/null {lock}>&- || spe_die "could not install: ${absent[*]}"
	fi
	exec {lock}>&-
}

# Print "URI" of the machine's Debian archive and security archive, derived
# from its deb822 .sources files or its one-line sources.list.
_spe_apt_uris() {
	local files=() f
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list; do
		[ -f "$f" ] && files+=("$f")
	done
	[ ${#files[@]} -gt 0 ] || spe_die "no apt sources on this machine"
	awk '
	function emit(u, s) {
		n = split(s, a, /[ \t]+/)
		for (i = 1; i <= n; i++) {
			if (a[i] ~ /-security$/) { if (!sec) sec = u }
			else if (a[i] ~ /^[a-z]+$/ || a[i] ~ /-updates$/) { if (!main) main = u }
		}
	}
	FILENAME ~ /\.sources$/ {
		if ($0 ~ /^[ \t]*$/) { if (u != "" && s != "") emit(u, s); u = ""; s = ""; next }
		if ($1 == "URIs:") u = $2
		if ($1 == "Suites:") { $1 = ""; s = $0 }
		next
	}
	/^[ \t]*deb[ \t]/ {
		i = 2; if ($i ~ /^\[/) { while ($i !~ /\]$/) i++; i++ }
		emit($i, $(i + 1))
	}
	END {
		if (u != "" && s != "") emit(u, s)
		print main; print sec
	}' "${files[@]}"
}

# Create (once) and refresh (at most every 12 hours) the private apt state.
spe_apt_setup() {
	local uris main sec d="$SPE_APT_DIR"
	mkdir -p "$d/lists/partial" "$d/archives/partial" "$d/etc/preferences.d" "$d/etc/apt.conf.d"
	mapfile -t uris < <(_spe_apt_uris)
	main=${uris[0]:-}; sec=${uris[1]:-}
	[ -n "$main" ] || spe_die "could not find the Debian archive in /etc/apt/sources*"
	[ -n "$sec" ] || sec="${main%/debian}/debian-security"
	# apt runs here without its own locks (Debug::NoLocking): two scripts
	# refreshing at once would leave a mix of both one's lists. One at a
	# time; whoever waited finds the lists fresh.
	(
		flock 8
		_spe_apt_sources "$main" "$sec" >"$d/etc/sources.list.new"
		if ! cmp -s "$d/etc/sources.list.new" "$d/etc/sources.list"; then
			mv "$d/etc/sources.list.new" "$d/etc/sources.list"
			rm -f "$d/.updated"
		else
			rm -f "$d/etc/sources.list.new"
		fi
		if [ ! -e "$d/.updated" ] || [ -n "$(find "$d/.updated" -mmin +720 2>/dev/null)" ]; then
			spe_log "refreshing private apt lists (bookworm, backports, security, trixie, sid)"
			spe_apt -qq update || spe_die "private apt update failed"
			touch "$d/.updated"
		fi
	) 8>"$d/.lock" || exit 1
}

# The private sources.list, from the archive URI $1 and security URI $2.
_spe_apt_sources() {
	local main=$1 sec=$2 key=/usr/share/keyrings/debian-archive-keyring.gpg u s
	while read -r u s; do
		printf 'deb [arch=amd64,arm64 signed-by=%s] %s %s main\n' "$key" "$u" "$s"
	done <<-EOF
		$main bookworm
		$main bookworm-updates
		$main bookworm-backports
		$sec bookworm-security
		$main trixie
		$sec trixie-security
		$main sid
	EOF
	while read -r u s; do
		printf 'deb-src [signed-by=%s] %s %s main\n' "$key" "$u" "$s"
	done <<-EOF
		$main bookworm
		$main trixie
		$main sid
		$sec bookworm-security
	EOF
}

# apt-get against the private state. Use after spe_apt_setup.
spe_apt() {
	local d="$SPE_APT_DIR"
	apt-get \
		-o Dir::State="$d" -o Dir::State::Lists="$d/lists" \
		-o Dir::State::status=/dev/null \
		-o Dir::Cache="$d" -o Dir::Cache::archives="$d/archives" \
		-o Dir::Etc::SourceList="$d/etc/sources.list" \
		-o Dir::Etc::SourceParts=/dev/null \
		-o Dir::Etc::Preferences="$d/etc/preferences" \
		-o Dir::Etc::PreferencesParts="$d/etc/preferences.d" \
		-o APT::Architectures::=amd64 -o APT::Architectures::=arm64 \
		-o APT::Get::AllowUnauthenticated=false \
		-o Acquire::Languages=none -o Acquire::Check-Valid-Until=false \
		-o Acquire::PDiffs=false \
		-o Debug::NoLocking=1 -o APT::Sandbox::User=root \
		"$@"
}

# apt-cache against the private state.
spe_apt_cache() {
	local d="$SPE_APT_DIR"
	apt-cache \
		-o Dir::State="$d" -o Dir::State::Lists="$d/lists" \
		-o Dir::State::status=/dev/null \
		-o Dir::Cache="$d" \
		-o Dir::Etc::SourceList="$d/etc/sources.list" \
		-o Dir::Etc::SourceParts=/dev/null \
		-o APT::Architectures::=amd64 -o APT::Architectures::=arm64 \
		"$@"
}

# Versions of binary package $1 (may carry :arch) in the private state,
# restricted to those matching the regex $2 (optional), newest first.
spe_apt_versions() {
	local pkg=$1 re=${2:-.}
	spe_apt_cache madison "$pkg" | awk -F'|' '{gsub(/ /, "", $2); print $2}' |
		grep -E -- "$re" | sort -urV
}

# Newest version of binary package $1, as spe_apt_versions.
spe_apt_newest() {
	spe_apt_versions "$@" | head -n 1
}

# Download package $1 at version $2 into directory $3 (if not already there)
# and print the .deb's path.
spe_apt_download() {
	local pkg=$1 ver=$2 dir=$3 f
	mkdir -p "$dir"
	f=$(find "$dir" -maxdepth 1 -name "${pkg%%:*}_*.deb" -newer /dev/null 2>/dev/null |
		while read -r x; do dpkg-deb -f "$x" Version | grep -qxF "$ver" && echo "$x"; done | head -n1)
	if [ -z "$f" ]; then
		(cd "$dir" && spe_apt -qq download "$pkg=$ver") >&2 ||
			spe_die "could not download $pkg=$ver"
		f=$(find "$dir" -maxdepth 1 -name "${pkg%%:*}_*.deb" |
			while read -r x; do dpkg-deb -f "$x" Version | grep -qxF "$ver" && echo "$x"; done | head -n1)
	fi
	[ -n "$f" ] || spe_die "downloaded $pkg=$ver but cannot find the .deb"
	echo "$f"
}

# Write the kernel source tarball (xz) of Debian's linux-source-6.12 at
# version $1 to stdout; the .deb is downloaded once into
# $ARM_SPE_CACHE/linux-src. Callers extract what they need from it.
spe_linux_source_stream() {
	local ver=$1 deb tarball
	deb=$(spe_apt_download linux-source-6.12 "$ver" "$ARM_SPE_CACHE/linux-src")
	tarball=$(dpkg-deb -c "$deb" | awk '{print $NF}' | grep -E '/linux-source-6\.12\.tar\.xz$' | head -n1)
	[ -n "$tarball" ] || spe_die "no source tarball in $deb"
	dpkg-deb --fsys-tarfile "$deb" | tar -xO "$tarball"
}

# spe_linux_source_cached NAME STAMP FN ARG...: the cache directory
# $ARM_SPE_CACHE/NAME/<version> of some of Debian's newest linux-source-6.12,
# filled by "FN DIR VERSION ARG..." (from spe_linux_source_stream) and
# complete while its .members file holds STAMP. Prints that directory. The
# version last extracted is reused without asking apt.
spe_linux_source_cached() {
	local name=$1 want=$2 ver dir
	shift 2
	local cur=$ARM_SPE_CACHE/$name/current
	if [ -f "$cur" ]; then
		dir=$ARM_SPE_CACHE/$name/$(cat "$cur")
		if [ "$(cat "$dir/.members" 2>/dev/null)" = "$want" ]; then
			echo "$dir"
			return 0
		fi
	fi
	spe_need_host_pkgs xz-utils dpkg
	spe_apt_setup
	ver=$(spe_apt_newest linux-source-6.12)
	[ -n "$ver" ] || spe_die "the mirror has no linux-source-6.12"
	dir=$ARM_SPE_CACHE/$name/$ver
	if [ "$(cat "$dir/.members" 2>/dev/null)" != "$want" ]; then
		spe_log "extracting ${want#* } from linux-source-6.12 $ver"
		rm -rf "$dir.tmp" && mkdir -p "$dir.tmp"
		"$1" "$dir.tmp" "$ver" "${@:2}" || spe_die "cannot extract ${want#* } from linux-source-6.12 $ver"
		echo "$want" >"$dir.tmp/.members"
		rm -rf "$dir" && mv "$dir.tmp" "$dir"
	fi
	echo "$ver" >"$cur"
	echo "$dir"
}

# spe_linux_source_tree NAME MEMBER...: files and directories of Debian's
# newest linux-source-6.12 with their paths below the source root (e.g.
# tools/testing/selftests/lib.mk), cached in $ARM_SPE_CACHE/NAME/<version>.
# Prints that directory.
spe_linux_source_tree() {
	local name=$1
	shift
	spe_linux_source_cached "$name" "tree $*" _spe_linux_source_extract_tree "$@"
}

# DIR VERSION MEMBER...: MEMBERs into DIR, with their paths.
_spe_linux_source_extract_tree() {
	local dir=$1 ver=$2
	shift 2
	spe_linux_source_stream "$ver" | tar -xJ -C "$dir" --strip-components=1 \
		"${@/#/linux-source-6.12/}"
}

# spe_linux_source_files NAME SUBDIR MEMBER...: a few files of Debian's
# newest linux-source-6.12, cached. MEMBERs are paths below the source
# root (e.g. scripts/checkpatch.pl); their basenames go into
# $ARM_SPE_CACHE/NAME/<version>/SUBDIR ("." for none). Prints
# $ARM_SPE_CACHE/NAME/<version>.
spe_linux_source_files() {
	local name=$1
	shift
	spe_linux_source_cached "$name" "files $*" _spe_linux_source_extract_flat "$@"
}

# DIR VERSION SUBDIR MEMBER...: the basenames of MEMBERs into DIR/SUBDIR.
_spe_linux_source_extract_flat() {
	local dir=$1 ver=$2 sub=$3
	shift 3
	mkdir -p "$dir/$sub"
	spe_linux_source_stream "$ver" | (cd "$dir/$sub" && tar -xJ --transform='s,.*/,,' \
		"${@/#/linux-source-6.12/}")
}
