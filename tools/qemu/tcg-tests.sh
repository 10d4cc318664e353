#!/usr/bin/env bash
# QEMU's own aarch64 system tests (tests/tcg/aarch64/system, with the
# series' spe.c) against a qemu-system-aarch64 that tools/qemu/build.sh
# built: the tests and the command line QEMU's harness gives each one
# (make run-tcg-tests-aarch64-softmmu, written down at build time) are in
# tcg/ next to the binary.
#
# usage: tools/qemu/tcg-tests.sh <path-to-qemu-system-aarch64>
#
# Runs each in the order of QEMU's harness (memory-replay replays what
# memory-record recorded), with its timeout (120 s), and prints TAP, then
# "qemu-tcg: N passed, N failed, N skipped". As in QEMU's harness, a test
# passes when QEMU exits 0: each test ends through semihosting's exit
# call, with a status of 0 only when every check passed. A failure shows
# the test's output.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
SPE_LOG_TAG="qemu-tcg"
# shellcheck source=../lib/apt.sh
. "$repo/tools/lib/apt.sh"
# shellcheck source=../lib/tap.sh
. "$repo/tools/lib/tap.sh"

qemu=${1:-}
[ -n "$qemu" ] || spe_die "usage: tcg-tests.sh <path-to-qemu-system-aarch64>"
[ -x "$qemu" ] || spe_die "not executable: $qemu"
tcg=$(dirname "$qemu")/tcg
[ -s "$tcg/runs" ] ||
	spe_die "no $tcg/runs: this QEMU was built without QEMU's aarch64 system tests (tools/qemu/build.sh builds them)"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$tcg"/* "$work/"
cd "$work" || exit 2

tap_begin qemu-tcg
echo "# qemu: $qemu"
while IFS= read -r line; do
	[ -n "$line" ] || continue
	# the harness names each run by its output file: -chardev file,path=NAME.out
	name=$(sed -n 's/.*path=\([^\\ ]*\)\.out.*/\1/p' <<<"$line")
	[ -n "$name" ] || name="run $((TAP_N + 1))"
	# the line is the argument list, quoted by printf %q when written
	args=()
	eval "args=($line)"
	timeout -s KILL 120 "$qemu" "${args[@]}" >"$name.log" 2>&1
	rc=$?
	if [ "$rc" -eq 0 ]; then
		tap_ok "$name"
	else
		tap_not_ok "$name" "exit status $rc"
		cat "$name.out" "$name.log" 2>/dev/null | tail -n 20 | sed 's/^/# /'
	fi
done <runs
tap_end && [ "$TAP_N" -gt 0 ]
