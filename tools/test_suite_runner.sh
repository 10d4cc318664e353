#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Self-test of the way `make check` judges a suite (tools/lib/suite.sh):
# fake runners that lie in each way a real one could, and the verdict each
# must get; and of the TAP the host runners print (tools/lib/tap.sh).
# Prints TAP and ends with "runner: N passed, N failed, N skipped".
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=lib/suite.sh
. "$top/tools/lib/suite.sh"
# shellcheck source=lib/tap.sh
. "$top/tools/lib/tap.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# case NAME EXPECT_FAILED EXPECT_PASSED -- RUNNER_SCRIPT: run the fake
# runner as suite "demo" and compare the verdict's counts.
check_case() {
	local name=$1 want_f=$2 want_p=$3 script=$4 got
	printf '%s\n' "$script" >"$work/$name.sh"
	SUITE_SUMMARY=()
	suite_run demo demo "$work/$name.log" bash "$work/$name.sh" >/dev/null 2>&1
	got=${SUITE_SUMMARY[0]}
	if [[ $got == "demo: $want_p passed, $want_f failed,"* ]]; then
		tap_ok "$name: $got"
	else
		tap_not_ok "$name: got '$got', want $want_p passed, $want_f failed"
	fi
}

tap_begin runner
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
if total=$(suite_total | tail -n1); then
	tap_not_ok "total with a failure exits 0 ($total)"
elif [ "$total" = "total: 5 passed, 1 failed, 1 skipped" ]; then
	tap_ok "total adds the stages: $total"
else
	tap_not_ok "total: got '$total'"
fi
# Lanes: stages run concurrently; their verdicts come back in lane order,
# and a lane that dies before its last stage is a failure of its own.
lane_case() {
	local name=$1 want=$2 got
	shift 2
	SUITE_SUMMARY=()
	"$@" >"$work/$name.out" 2>&1
	suite_lanes_join >>"$work/$name.out" 2>&1
	got=$(printf '%s|' "${SUITE_SUMMARY[@]}" | sed -E 's/ \([0-9]+s\)//g; s/ \(error: [^)]*\)//g')
	if [ "$got" = "$want" ]; then
		tap_ok "$name: $got"
	else
		tap_not_ok "$name: got '$got', want '$want'"
	fi
}
printf '%s\n' 'echo "one: 2 passed, 0 failed, 0 skipped"' >"$work/one.sh"
printf '%s\n' 'echo "two: 3 passed, 1 failed, 0 skipped"; exit 1' >"$work/two.sh"
printf '%s\n' 'echo "three: 1 passed, 0 failed, 0 skipped"' >"$work/three.sh"
lane_a() { suite_run one one "$work/one.log" bash "$work/one.sh"; }
lane_b() { suite_run two two "$work/two.log" bash "$work/two.sh"; suite_run three three "$work/three.log" bash "$work/three.sh"; }
# Dies after its first stage (an unset variable under set -u, a kill).
# Its logs are its own: dying_lane runs it next to lane_a, and two lanes
# writing one log (tee truncates it) lose each other's summary lines.
lane_dies() { suite_run one one "$work/dies-one.log" bash "$work/one.sh"; kill -9 "$BASHPID"; suite_run three three "$work/dies-three.log" bash "$work/three.sh"; }
two_lanes() { suite_lane a "$work/lanes" lane_a; suite_lane b "$work/lanes" lane_b; }
dying_lane() { suite_lane a "$work/lanes" lane_dies; suite_lane b "$work/lanes" lane_a; }
lane_case lanes_collect_in_order "one: 2 passed, 0 failed, 0 skipped|two: 3 passed, 1 failed, 0 skipped|three: 1 passed, 0 failed, 0 skipped|" two_lanes
lane_case lane_dies_between_stages "one: 2 passed, 0 failed, 0 skipped|lane-a: 0 passed, 1 failed, 0 skipped|one: 2 passed, 0 failed, 0 skipped|" dying_lane
# The environment a stage must not inherit.
if (export CROSS_COMPILE=x- MAKEFLAGS=s CFLAGS=-O0; suite_hermetic
	[ -z "${CROSS_COMPILE:-}${MAKEFLAGS:-}${CFLAGS:-}" ]); then
	tap_ok "suite_hermetic clears CROSS_COMPILE, MAKEFLAGS, CFLAGS"
else
	tap_not_ok "suite_hermetic leaves the caller's build variables"
fi
# A name that matches nothing is an error: a CHECK_ONLY word naming no
# stage stops make check before it runs anything; a boot asked of a
# multi-boot runner that has none by that name is a failure of the runner.
if out=$(CHECK_ONLY="host hots" "$top/tools/check.sh" 2>&1); then
	tap_not_ok "CHECK_ONLY with a misspelt stage ran: $(tail -n1 <<<"$out")"
elif grep -q "no stage 'hots'" <<<"$out" && ! grep -q '^=== ' <<<"$out"; then
	tap_ok "CHECK_ONLY naming no stage stops make check before any stage"
else
	tap_not_ok "CHECK_ONLY 'hots': $(tail -n2 <<<"$out" | tr '\n' ' ')"
fi
if out=$(CHECK_ONLY="host *" "$top/tools/check.sh" 2>&1); then
	tap_not_ok "CHECK_ONLY with a '*' ran: $(tail -n1 <<<"$out")"
elif grep -q "no stage '\*'" <<<"$out" && ! grep -q '^=== ' <<<"$out"; then
	tap_ok "CHECK_ONLY's words are not globbed: '*' names no stage"
else
	tap_not_ok "CHECK_ONLY '*': $(tail -n2 <<<"$out" | tr '\n' ' ')"
fi
boots=$(
	# shellcheck source=vm/suite-lib.sh
	. "$top/tools/vm/suite-lib.sh"
	tot_f=0
	vm_suite_ran default
	vm_suite_ran v1
	vm_suite_unknown_boots demo " default deafult v1 "
	all=$tot_f tot_f=0
	vm_suite_unknown_boots demo "  "
	echo "tot_f=$all,$tot_f"
)
if [ "$boots" = "not ok - demo: no boot named 'deafult'
tot_f=1,0" ]; then
	tap_ok "a boot name no boot answers is one failure; no name asked, none"
else
	tap_not_ok "unknown boot: '$boots'"
fi
# tap.sh: the output of a runner that uses it, whole (numbering, the SKIP
# and diagnostic forms, the plan, the summary), its exit status, and the
# verdict suite.sh gives it.
tap_demo() { # NAME BODY: run BODY as a tap.sh runner of suite "demo"
	printf '. "%s"\ntap_begin demo\n%s\ntap_end\n' "$top/tools/lib/tap.sh" "$2" >"$work/$1.sh"
	bash "$work/$1.sh" >"$work/$1.out" 2>&1
	echo $? >"$work/$1.rc"
}
tap_demo tap_mixed 'tap_ok one; tap_not_ok two "why"; tap_skip three "no device"; tap_case PASS four; tap_case skip five; tap_case TIMEOUT six "after 9 s"'
want='TAP version 13
ok 1 - one
not ok 2 - two # why
ok 3 - three # SKIP no device
ok 4 - four
ok 5 - five # SKIP no reason given
not ok 6 - six # after 9 s
1..6
demo: 2 passed, 2 failed, 2 skipped'
if [ "$(cat "$work/tap_mixed.out")" = "$want" ] && [ "$(cat "$work/tap_mixed.rc")" = 1 ]; then
	tap_ok "tap.sh numbers, counts and plans a mixed run, exit 1"
else
	tap_not_ok "tap.sh mixed run: exit $(cat "$work/tap_mixed.rc"), output:"
	sed 's/^/#   /' "$work/tap_mixed.out"
fi
tap_demo tap_clean 'tap_ok one; tap_skip two "later"'
if [ "$(tail -n1 "$work/tap_clean.out")" = "demo: 1 passed, 0 failed, 1 skipped" ] &&
	[ "$(cat "$work/tap_clean.rc")" = 0 ]; then
	tap_ok "tap.sh: a run with no failure exits 0"
else
	tap_not_ok "tap.sh clean run: exit $(cat "$work/tap_clean.rc"), last line '$(tail -n1 "$work/tap_clean.out")'"
fi
check_case tap_runner_judged 1 2 "$(printf '. "%s"\ntap_begin demo\ntap_ok a; tap_ok b; tap_not_ok c\ntap_end' "$top/tools/lib/tap.sh")"
tap_end
