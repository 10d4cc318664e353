# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# TAP for the host suites: number and count the cases, and end with the
# plan and the summary line that tools/lib/suite.sh judges a suite by.
# Sourced by each host runner; tools/test_suite_runner.sh tests it.
#
#   tap_begin NAME          the name the summary line carries
#   tap_ok DESC             a case that passed
#   tap_not_ok DESC [DIAG]  a case that failed; DIAG goes after " # "
#   tap_skip DESC WHY       a case that cannot run here, and why
#   tap_case STATUS DESC [DETAIL]
#                           STATUS pass, fail or skip (any case): the
#                           three above, for runners whose cases report
#                           a status word
#   tap_end                 "1..N", then "NAME: P passed, F failed, S
#                           skipped"; returns 0 iff no case failed
# TAP_N, TAP_PASS, TAP_FAIL and TAP_SKIP hold the counts so far.

TAP_NAME="" TAP_N=0 TAP_PASS=0 TAP_FAIL=0 TAP_SKIP=0

tap_begin() {
	TAP_NAME=$1 TAP_N=0 TAP_PASS=0 TAP_FAIL=0 TAP_SKIP=0
	echo "TAP version 13"
}

tap_ok() {
	TAP_N=$((TAP_N + 1)) TAP_PASS=$((TAP_PASS + 1))
	echo "ok $TAP_N - $1"
}

tap_not_ok() {
	TAP_N=$((TAP_N + 1)) TAP_FAIL=$((TAP_FAIL + 1))
	echo "not ok $TAP_N - $1${2:+ # $2}"
}

tap_skip() {
	TAP_N=$((TAP_N + 1)) TAP_SKIP=$((TAP_SKIP + 1))
	echo "ok $TAP_N - $1 # SKIP ${2:-no reason given}"
}

tap_case() {
	case ${1,,} in
	pass) tap_ok "$2" ;;
	skip) tap_skip "$2" "${3:-}" ;;
	*) tap_not_ok "$2" "${3:-}" ;;
	esac
}

tap_end() {
	echo "1..$TAP_N"
	echo "$TAP_NAME: $TAP_PASS passed, $TAP_FAIL failed, $TAP_SKIP skipped"
	[ "$TAP_FAIL" -eq 0 ]
}
