#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Run one of perf's own Arm SPE shell tests (tools/perf/tests/shell of the
# kernel tree, staged unchanged next to this file by tools/perf/vm-suite.sh)
# against the loaded driver: perf's verdict is the result. Its exit status
# 0 passes; 2 is perf's "skip", unexpected here where an SPE PMU exists.
#
#   perf_shell.sh SCRIPT
. "$(dirname "$0")/lib.sh"
t=$here/${1:?usage: perf_shell.sh SCRIPT}
[ -f "$t" ] || fail "no $t"
spe_pmu
# perf's scripts read perf from PATH and write to /tmp. Debian's /bin/sh
# (dash) and GNU tools from the perf root filesystem, before busybox.
# Time dilation: the scripts give perf fixed wall-clock windows ("sleep 1"
# before looking at its output) sized for silicon; under TCG perf alone
# takes over a second to start (Documentation/perf.rst). Their sleeps are
# stretched by a scale, nothing else changes: SPE_SLEEP_SCALE if set, else
# for the fork test one fitted to this guest's speed (fork_scale), else 10.

# now: seconds since boot, to the centisecond.
now() { cut -d' ' -f1 /proc/uptime; }

# fork_scale: test_arm_spe_fork.sh looks at perf record's log after one
# and two (scaled) seconds and passes only if it grew in between. Under
# TCG it grows mostly when perf exits, at E = perf's start-up, the
# workload's 10 s and the write-out. So the scale s must give s < E < 2s:
# measure E with the same command and a 1 s workload (plus the 9 s), and
# take s = E / sqrt(2) (1.4142: busybox awk may have no sqrt): the host's
# load may then make perf 41% slower or 29% faster in between.
fork_scale() {
	t0=$(now)
	perf record -o "$SPE_TMP/fork-cal.data" -e arm_spe/period=65536/ -- \
		perf test -w sqrtloop 1 >"$SPE_TMP/fork-cal.log" 2>&1 ||
		fail "calibration: perf record -- perf test -w sqrtloop 1 failed: $(tail -n 3 "$SPE_TMP/fork-cal.log")"
	t1=$(now)
	rm -f "$SPE_TMP/fork-cal.data"
	# shellcheck disable=SC2046 # four numbers
	set -- $(awk -v a="$t0" -v b="$t1" 'BEGIN { e = b - a + 9; s = e / 1.4142
		printf "%.1f %.2f %.1f %.1f\n", s, b - a, e, 2 * s }')
	scale=$1
	note "calibration: perf record of a 1 s workload took $2 s; perf should" \
		"exit at about $3 s; the test looks at $scale s and $4 s"
}

scale=${SPE_SLEEP_SCALE:-}
if [ -z "$scale" ]; then
	case $1 in
	test_arm_spe_fork.sh) fork_scale ;;
	*) scale=10 ;;
	esac
fi
[ -n "$scale" ] || fail "no sleep scale (awk failed?)"
note "sleep scale $scale"
mkdir -p "$SPE_TMP/bin"
cat >"$SPE_TMP/bin/sleep" <<EOS
#!/usr/bin/dash
exec /bin/busybox sleep \$(awk -v s="\$1" 'BEGIN { print s * $scale }')
EOS
chmod +x "$SPE_TMP/bin/sleep"
PATH=$SPE_TMP/bin:/usr/bin:$PATH dash "$t" >"$SPE_TMP/shell.out" 2>&1
rc=$?
sed 's/^/# /' "$SPE_TMP/shell.out" | tail -n 20
case $rc in
0) pass "$1: perf's test passed" ;;
2) fail "$1: perf's test skipped (exit 2) with $pmu present" ;;
*) fail "$1: perf's test failed (exit $rc)" ;;
esac
