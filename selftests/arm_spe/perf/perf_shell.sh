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
# stretched by SPE_SLEEP_SCALE (default 10), nothing else changes.
mkdir -p "$SPE_TMP/bin"
cat >"$SPE_TMP/bin/sleep" <<EOS
#!/usr/bin/dash
exec /bin/busybox sleep \$(awk -v s="\$1" 'BEGIN { print s * ${SPE_SLEEP_SCALE:-10} }')
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
