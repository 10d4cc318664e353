#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Runs shellcheck on every shell script of the tree: the host tools (bash),
# the guest's init and tests (busybox sh), the libraries they source.
# A script passes with no finding of severity warning or error, its
# sources followed (-x) from its own directory as it runs; style and info
# findings are not judged. One case per script.
#   tools/lint-shell.sh [FILE...]   (default: every tracked script)
# Prints TAP and ends with "shellcheck: N passed, N failed, N skipped".
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
SPE_LOG_TAG="shellcheck"
# shellcheck source=lib/apt.sh
. tools/lib/apt.sh
# shellcheck source=lib/tap.sh
. tools/lib/tap.sh

command -v shellcheck >/dev/null || spe_need_host_pkgs shellcheck
command -v shellcheck >/dev/null || spe_die "no shellcheck (apt: shellcheck)"

# is_shell FILE: a .sh file, or one whose first line runs sh or bash
is_shell() {
	case $1 in *.sh) return 0 ;; esac
	head -n1 "$1" 2>/dev/null | grep -Eq '^#!(/usr)?/bin/(env )?(ba)?sh\b'
}

# candidates: the tracked files, or outside a git checkout every file
# but the build output
candidates() {
	if git rev-parse --git-dir >/dev/null 2>&1; then
		git ls-files
	else
		find . -path ./build -prune -o -path ./.git -prune -o -type f -print | sed 's|^\./||' | sort
	fi
}

if [ $# -gt 0 ]; then
	files=("$@")
else
	mapfile -t files < <(candidates | while read -r f; do
		[ -f "$f" ] && is_shell "$f" && echo "$f"; done)
fi

tap_begin shellcheck
echo "# $(shellcheck --version | sed -n 's/^version: /shellcheck /p'), ${#files[@]} scripts"
for f in "${files[@]}"; do
	if out=$(cd "$(dirname "$f")" && shellcheck -x -S warning -f gcc "$(basename "$f")" 2>&1); then
		tap_ok "$f"
	else
		tap_not_ok "$f" "$(grep -c ': \(warning\|error\):' <<<"$out") findings"
		sed "s|^|#   $(dirname "$f")/|" <<<"$out" | head -n 20
	fi
done
tap_end
