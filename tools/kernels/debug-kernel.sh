#!/usr/bin/env bash
# Build (once, cached) the debug kernel: Debian's linux-source-6.12 with
# allnoconfig + debug.config (KASAN, lockdep, kmemleak, debug objects,
# UBSAN ...), cross-built with the host's aarch64 gcc. Prints the path of an
# env file in fetch.sh's format (KSERIES=debug, KDIR = the build tree), so
# kmake.sh and the VM harness treat it like any other kernel.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
SPE_LOG_TAG=debug-kernel
# shellcheck source=../lib/apt.sh
. "$here/../lib/apt.sh"
frag=$here/debug.config
spe_need_host_pkgs make gcc gcc-aarch64-linux-gnu bc flex bison libssl-dev libelf-dev xz-utils dpkg

# Resolve the source version (cached between apt refreshes, as fetch.sh).
resolved=$ARM_SPE_CACHE/debug-kernel/resolved
if [ -f "$resolved" ] && [ -f "$SPE_APT_DIR/.updated" ] && [ "$resolved" -nt "$SPE_APT_DIR/.updated" ] &&
	[ -z "$(find "$SPE_APT_DIR/.updated" -mmin +720)" ]; then
	ver=$(cat "$resolved")
else
	spe_apt_setup
	ver=$(spe_apt_newest linux-source-6.12)
	[ -n "$ver" ] || spe_die "the mirror has no linux-source-6.12"
	mkdir -p "$(dirname "$resolved")" && echo "$ver" >"$resolved"
fi
key=$( (echo "$ver"; cat "$frag" "$0"; aarch64-linux-gnu-gcc --version | head -n1) | sha256sum | cut -c1-16)
dest=$ARM_SPE_CACHE/debug-kernel/$key
if [ -f "$dest/env" ]; then
	spe_log "linux-source-6.12 $ver debug build $key, cached"
	echo "$dest/env"
	exit 0
fi
src=$ARM_SPE_CACHE/debug-kernel/src-$ver
if [ ! -f "$src/.extracted" ]; then
	spe_apt_setup
	spe_log "extracting linux-source-6.12 $ver"
	rm -rf "$src" && mkdir -p "$src"
	spe_linux_source_stream "$ver" | tar -xJ -C "$src" --strip-components=1
	touch "$src/.extracted"
fi
# Built in place: the env file, written last, marks a finished build.
out=$dest
rm -rf "$out" && mkdir -p "$out/build"
k=(make -s -C "$src" O="$out/build" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-)
spe_log "configuring (allnoconfig + $(basename "$frag"))"
"${k[@]}" allnoconfig >/dev/null
KCONFIG_CONFIG=$out/build/.config "$src/scripts/kconfig/merge_config.sh" -m -O "$out/build" \
	"$out/build/.config" "$frag" >"$out/merge.log" 2>&1 || spe_die "merge_config failed ($out/merge.log)"
"${k[@]}" olddefconfig >/dev/null
# Every option of the fragment must have survived olddefconfig.
missing=$(grep -E '^CONFIG_[A-Z0-9_]+=[ym]$' "$frag" | while read -r l; do
	grep -qxF "$l" "$out/build/.config" || echo "${l%%=*}"; done)
[ -z "$missing" ] || spe_die "options lost by olddefconfig: $(echo "$missing" | xargs)"
spe_log "building Image and modules_prepare (a few minutes)"
start=$(date +%s)
"${k[@]}" -j"$(nproc)" Image modules >"$out/build.log" 2>&1 ||
	{ tail -n 30 "$out/build.log" >&2; spe_die "kernel build failed ($out/build.log)"; }
spe_log "built in $(($(date +%s) - start))s"
kver=$(cat "$out/build/include/config/kernel.release")
cat >"$dest/env" <<EOT
KSERIES=debug
KVERSION=$ver
KVER=$kver
KDIR=$dest/build
KIMAGE=$dest/build/arch/arm64/boot/Image
KCC=aarch64-linux-gnu-gcc
EOT
echo "$dest/env"
