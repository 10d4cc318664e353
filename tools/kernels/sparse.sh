#!/usr/bin/env bash
# Run sparse (kbuild C=2: every file) over the module for every supported
# kernel; any sparse or compiler warning fails. sparse comes from the host
# (6.1) or the sid build chroot (6.12, 7.x), as the compiler does.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
SPE_LOG_TAG=sparse
# shellcheck source=../lib/apt.sh
. "$here/../lib/apt.sh"
spe_need_host_pkgs sparse
rc=0
for id in $("$here/fetch.sh" --list); do
	# Newer kernels validate the checker with scripts/checker-valid.sh,
	# which Debian's headers packages do not ship: without it kbuild
	# silently turns C=2 off. Supply a minimal one (the checker runs on a
	# trivial input) where it is missing.
	# shellcheck disable=SC1090
	kdir=$(. "$("$here/fetch.sh" "$id" 2>/dev/null)" && echo "$KDIR")
	# The arch headers include the -common tree's Makefile (-common-rt for
	# the rt flavour).
	common=$(sed -n 's|^include \(.*\)/Makefile$|\1|p' "$kdir/Makefile" 2>/dev/null | head -n1)
	for src in "$kdir" "${common:-${kdir%-arm64}-common}"; do
		if [ -d "$src/scripts" ] && grep -qs checker-valid.sh "$src/Makefile" &&
			[ ! -e "$src/scripts/checker-valid.sh" ]; then
			printf '#!/bin/sh\n# Supplied by arm-spe tools/kernels/sparse.sh.\necho "int x;" | "$@" - >/dev/null 2>&1 && echo 1\n' \
				>"$src/scripts/checker-valid.sh"
			chmod +x "$src/scripts/checker-valid.sh"
		fi
	done
	log=$top/build/logs/sparse-$id.log
	mkdir -p "$(dirname "$log")"
	# A directory of its own (build/ID is the guests' stages', which may
	# be running meanwhile)
	if ! KBUILD_OUT=$top/build/sparse/$id "$here/kmake.sh" "$id" C=2 W=1 modules >"$log" 2>&1; then
		echo "sparse/$id: the build failed (log: $log)"
		tail -n 20 "$log"
		rc=1
	elif grep -E '(warning|error):' "$log"; then
		echo "sparse/$id: warnings (log: $log)"
		rc=1
	elif ! grep -q '  CHECK   ' "$log"; then
		echo "sparse/$id: sparse did not run (log: $log)"
		rc=1
	else
		echo "sparse/$id: clean ($(grep -c '  CHECK   ' "$log") files checked)"
	fi
done
exit $rc
