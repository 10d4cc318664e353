#!/usr/bin/env bash
# The cross-build environment for kernels whose compiler the host lacks.
# Debian's 6.12 and 7.x headers are configured for aarch64 gcc-14 and gcc-16,
# which Debian 12 does not ship, so those modules are built in a minimal sid
# chroot (debootstrap, cached under $ARM_SPE_CACHE/buildroot) that has them.
#
#   buildenv.sh setup            create or update the chroot
#   buildenv.sh run CMD ARGS...  run CMD in the chroot, with the repository,
#                                the cache and /tmp at their host paths and
#                                the current directory kept
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
SPE_LOG_TAG=buildenv
# shellcheck source=../lib/apt.sh
. "$here/../lib/apt.sh"
top=$(cd "$here/../.." && pwd)
root=$ARM_SPE_CACHE/buildroot
# Packages the chroot must have; changing this list rebuilds it.
pkgs="make bc kmod perl python3 sparse gcc-14-aarch64-linux-gnu gcc-16-aarch64-linux-gnu pahole libc6-dev"
stamp="$root/.arm-spe-ready"

setup() {
	if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$pkgs" ]; then
		return 0
	fi
	spe_need_host_pkgs debootstrap
	local mirror
	mirror=$(_spe_apt_uris | head -n1)
	if [ ! -x "$root/usr/bin/apt-get" ]; then
		spe_log "creating the sid build chroot (first use only, a few minutes)"
		rm -rf "$root"
		debootstrap --variant=minbase \
			--keyring=/usr/share/keyrings/debian-archive-keyring.gpg \
			sid "$root" "$mirror" >"$ARM_SPE_CACHE/buildroot.log" 2>&1 ||
			spe_die "debootstrap failed; see $ARM_SPE_CACHE/buildroot.log"
	fi
	spe_log "installing into the build chroot: $pkgs"
	# shellcheck disable=SC2086
	chroot "$root" /usr/bin/env DEBIAN_FRONTEND=noninteractive sh -c \
		"apt-get -qq -o Acquire::Check-Valid-Until=false update && apt-get install -y -qq --no-install-recommends $pkgs" \
		>>"$ARM_SPE_CACHE/buildroot.log" 2>&1 ||
		spe_die "installing build packages failed; see $ARM_SPE_CACHE/buildroot.log"
	echo "$pkgs" >"$stamp"
}

run() {
	setup
	local cwd
	cwd=$(pwd)
	# A private mount namespace: the binds vanish with the command.
	unshare -m --propagation private -- /bin/sh -c '
		set -e
		root=$1; shift; cwd=$1; shift
		for d in "$@"; do
			[ "$d" = "--" ] && break
			mkdir -p "$root$d" && mount --bind "$d" "$root$d"
		done
		while [ "$1" != "--" ]; do shift; done; shift
		mount -t proc proc "$root/proc"
		cd "$root$cwd" 2>/dev/null || true
		exec chroot "$root" /bin/sh -c "cd \"\$0\" && exec \"\$@\"" "$cwd" "$@"
	' sh "$root" "$cwd" "$top" "$ARM_SPE_CACHE" /tmp -- "$@"
}

case "${1:-}" in
setup) setup ;;
run) shift; [ $# -gt 0 ] || spe_die "usage: buildenv.sh run CMD [ARGS...]"; run "$@" ;;
*) spe_die "usage: buildenv.sh setup | run CMD [ARGS...]" ;;
esac
