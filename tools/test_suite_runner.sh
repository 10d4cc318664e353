#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Self-test of the way `make check` judges a suite (tools/lib/suite.sh):
# fake runners that lie in each way a real one could, and the verdict each
# must get. Prints TAP and ends with "runner: N passed, N failed, N skipped".
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=lib/suite.sh
. "$top/tools/lib/suite.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
n=0 pass=0 fail=0

# case NAME EXPECT_FAILED EXPECT_PASSED -- RUNNER_SCRIPT: run the fake
# runner as suite "demo" and compare the verdict's counts.
check_case() {
	local name=$1 want_f=$2 want_p=$3 script=$4 got
	printf '%s\n' "$script" >"$work/$name.sh"
	SUITE_SUMMARY=()
	suite_run demo demo "$work/$name.log" bash "$work/$name.sh" >/dev/null 2>&1
	got=${SUITE_SUMMARY[0]}
	n=$((n + 1))
	if [[ $got == "demo: $want_p passed, $want_f failed,"* ]]; then
		pass=$((pass + 1))
		echo "ok $n - $name: $got"
	else
		fail=$((fail + 1))
		echo "not ok $n - $name: got '$got', want $want_p passed, $want_f failed"
	fi
}

echo "TAP version 13"
check_case honest_pass 0 3 'echo "ok 1"; echo "demo: 3 passed, 0 failed, 1 skipped"'
check_case honest_fail 2 1 'echo "demo: 1 passed, 2 failed, 0 skipped"; exit 1'
check_case summary_then_nonzero_exit 1 4 'echo "demo: 4 passed, 0 failed, 0 skipped"; exit 3'
check_case no_summary 1 0 'echo "ok 1 - something"'
check_case everything_skipped 1 0 'echo "demo: 0 passed, 0 failed, 7 skipped"'
# A multi-boot runner prints a line per boot; it died before its own.
check_case dies_between_boots 1 0 'echo "demo-default: 5 passed, 0 failed, 0 skipped"
echo "demo-v1: 4 passed, 0 failed, 0 skipped"
kill -9 $$'
check_case other_suites_line 1 0 'echo "decoy: 9 passed, 0 failed, 0 skipped"'
check_case summary_not_at_line_start 1 0 'echo "# demo: 9 passed, 0 failed, 0 skipped"'
check_case last_summary_counts 1 2 'echo "demo: 9 passed, 0 failed, 0 skipped"
echo "demo: 2 passed, 1 failed, 0 skipped"; exit 1'
# The total adds the stages and fails on any failure.
SUITE_SUMMARY=("a: 2 passed, 0 failed, 1 skipped (1s)" "b: 3 passed, 1 failed, 0 skipped (1s)")
n=$((n + 1))
if total=$(suite_total | tail -n1); then
	fail=$((fail + 1)); echo "not ok $n - total with a failure exits 0 ($total)"
elif [ "$total" = "total: 5 passed, 1 failed, 1 skipped" ]; then
	pass=$((pass + 1)); echo "ok $n - total adds the stages: $total"
else
	fail=$((fail + 1)); echo "not ok $n - total: got '$total'"
fi
# The environment a stage must not inherit.
n=$((n + 1))
if (export CROSS_COMPILE=x- MAKEFLAGS=s CFLAGS=-O0; suite_hermetic
	[ -z "${CROSS_COMPILE:-}${MAKEFLAGS:-}${CFLAGS:-}" ]); then
	pass=$((pass + 1)); echo "ok $n - suite_hermetic clears CROSS_COMPILE, MAKEFLAGS, CFLAGS"
else
	fail=$((fail + 1)); echo "not ok $n - suite_hermetic leaves the caller's build variables"
fi
echo "1..$n"
echo "runner: $pass passed, $fail failed, 0 skipped"
[ "$fail" -eq 0 ]
