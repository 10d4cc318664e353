#!/usr/bin/env bash
# Exercise the DKMS build path without an arm64 machine: copy the tree the
# way `dkms add` does, expand dkms.conf's MAKE[0] with kernel_source_dir set
# to a supported kernel's headers, and run it cross (ARCH and CROSS_COMPILE
# from the environment, as kbuild reads them). The module must come out
# where BUILT_MODULE_LOCATION says.
#   dkms-build.sh [ID]     (default: the default kernel series)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
id=${1:-$("$here/fetch.sh" --default)}
# shellcheck disable=SC1090
. "$("$here/fetch.sh" "$id")"
conf=$top/dkms.conf
# shellcheck disable=SC1090
. <(grep -E '^(PACKAGE_NAME|PACKAGE_VERSION|BUILT_MODULE_NAME\[0\]|BUILT_MODULE_LOCATION\[0\])=' "$conf")
make_line=$(sed -n 's/^MAKE\[0\]="\(.*\)"$/\1/p' "$conf")
[ -n "$make_line" ] || { echo "dkms.conf has no MAKE[0]" >&2; exit 1; }
src=$top/build/dkms/$PACKAGE_NAME-$PACKAGE_VERSION
rm -rf "$src" && mkdir -p "$src"
# dkms add copies the source tree; take what git tracks (or the work tree).
(cd "$top" && git ls-files -z 2>/dev/null || find . -type f -print0) |
	(cd "$top" && xargs -0 cp --parents -t "$src")
cmd=${make_line//\$\{kernel_source_dir\}/$KDIR}
echo "dkms (as $PACKAGE_NAME/$PACKAGE_VERSION for $KVER): $cmd"
cd "$src"
export ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-
if command -v "$KCC" >/dev/null 2>&1; then
	sh -c "$cmd"
else
	"$here/buildenv.sh" run env ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- sh -c "$cmd"
fi
ko=$src/${BUILT_MODULE_LOCATION[0]}/${BUILT_MODULE_NAME[0]}.ko
[ -f "$ko" ] || { echo "dkms build made no $ko" >&2; exit 1; }
echo "dkms build ok: ${ko#"$top/"}"
