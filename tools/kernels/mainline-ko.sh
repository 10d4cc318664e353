#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Mainline's driver of one supported kernel series, the second witness:
# Debian's own arm_spe_pmu.ko from the kernel package fetch.sh unpacked,
# decompressed to DEST.
#   mainline-ko.sh ID DEST
# Exit 1, saying why, when the kernel package has no such module.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
id=${1:?usage: mainline-ko.sh ID DEST}
dest=${2:?usage: mainline-ko.sh ID DEST}
env_file=$("$here/fetch.sh" "$id")
# shellcheck disable=SC1090
. "$env_file"
src=$(find "${KIMAGE%/boot/*}/usr/lib/modules/$KVER/kernel/drivers/perf" \
	-name 'arm_spe_pmu.ko*' 2>/dev/null | head -n1)
if [ -z "$src" ]; then
	echo "mainline-ko.sh: no arm_spe_pmu module in $KVER" >&2
	exit 1
fi
case $src in
*.xz) xz -dc "$src" >"$dest" ;;
*.zst) zstd -qdc "$src" >"$dest" ;;
*) cp "$src" "$dest" ;;
esac
