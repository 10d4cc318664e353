#!/usr/bin/env bash
# Run the kernel's checkpatch.pl --strict on the driver sources.
#
#   checkpatch.sh [FILES...]   default: drivers/*.[ch] drivers/pcsr/*.[ch] include/arm_spe/spe_regs.h
#
# checkpatch.pl, spelling.txt and const_structs.checkpatch come from
# Debian's newest linux-source-6.12 package, downloaded once and extracted
# (only those three files) under $ARM_SPE_CACHE/checkpatch/<version>/.
# Exits non-zero on any error, warning or check.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
SPE_LOG_TAG=checkpatch
# shellcheck source=../lib/apt.sh
. "$here/../lib/apt.sh"

spe_need_host_pkgs perl
dir=$(spe_linux_source_files checkpatch scripts scripts/checkpatch.pl scripts/spelling.txt \
	scripts/const_structs.checkpatch)

cd "$top"
if [ $# -eq 0 ]; then
	set -- drivers/*.[ch] drivers/pcsr/*.[ch] include/arm_spe/spe_regs.h
fi
# --no-tree: this is not a kernel tree; the spelling and const_structs
# files are found next to the script. No finding is accepted anywhere:
# kernel APIs are detected by drivers/conftest.sh, not LINUX_VERSION_CODE.
rc=0
for f in "$@"; do
	out=$(perl "$dir/scripts/checkpatch.pl" --strict --no-tree --no-summary \
		--show-types --terse -f "$f" 2>&1) || rc=1
	if [ -n "$out" ]; then
		printf '%s\n' "$out"
		rc=1
	fi
done
if [ $rc -eq 0 ]; then
	spe_log "checkpatch --strict: clean ($# files)"
fi
exit $rc
