# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# shellcheck shell=bash
# Sourced by tests/cli.sh and tests/perfdata.sh: run spe-decode ($BIN) and
# check its exit status. Output in $T/out and $T/err, the status in $rc.
#   run EXPECTED_RC ARGS...         standard input from /dev/null
#   runin EXPECTED_RC FILE ARGS...  standard input from FILE
run() {
	local exp=$1
	shift
	"$BIN" "$@" >"$T/out" 2>"$T/err" </dev/null
	rc=$?
	[ "$rc" -eq "$exp" ]
}
runin() {
	local exp=$1 in=$2
	shift 2
	"$BIN" "$@" >"$T/out" 2>"$T/err" <"$in"
	rc=$?
	[ "$rc" -eq "$exp" ]
}
