#!/usr/bin/env bash
# Run kbuild for the module against one supported kernel series:
#   kmake.sh ID [make arguments...]
# Fetches the kernel on first use, then runs make -C KDIR M=<repo> with the
# compiler Debian configured that kernel with: on the host when the host has
# it, else inside the sid build chroot (buildenv.sh).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
id=${1:?usage: kmake.sh ID [make args...]}
shift
env_file=$("$here/fetch.sh" "$id")
# shellcheck disable=SC1090
. "$env_file"
# Each series builds in its own directory (build/ID) holding a copy of the
# module sources, so series never share objects and the sources stay clean.
# KMOD_SRC=DIR builds another module (a directory with its own Kbuild)
# the same way, in build/ID/<name of DIR>.
if [ -n "${KMOD_SRC:-}" ]; then
	out=${KBUILD_OUT:-$top/build/$KSERIES/$(basename "$KMOD_SRC")}
	mkdir -p "$out"
	cp -a --update "$KMOD_SRC/." "$out/"
else
	out=${KBUILD_OUT:-$top/build/$KSERIES}
	mkdir -p "$out"
	cp -a --update "$top/Kbuild" "$top/drivers" "$top/include" "$out/"
fi
args=(-C "$KDIR" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- M="$out" "$@")
if command -v "$KCC" >/dev/null 2>&1; then
	exec make "${args[@]}"
else
	exec "$here/buildenv.sh" run make "${args[@]}"
fi
