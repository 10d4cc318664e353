#!/usr/bin/env bash
# Build the module from scratch against every supported kernel with W=1;
# any compiler or kbuild warning fails that kernel. With the kernel-style
# checks (checkpatch --strict, sparse) when their scripts exist.
# Prints TAP and ends with "build: N passed, N failed, N skipped".
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
# `make -s modules-all` must not silence kbuild's CHECK lines that the
# sparse step reads, nor may the caller's CROSS_COMPILE or CFLAGS leak in.
# shellcheck source=lib/suite.sh
. tools/lib/suite.sh
suite_hermetic
pass=0 fail=0 skip=0 n=0
mkdir -p build/logs
result() { # STATUS NAME [LOG]
	n=$((n + 1))
	case $1 in
	pass) pass=$((pass + 1)); echo "ok $n - $2" ;;
	skip) skip=$((skip + 1)); echo "ok $n - $2 # SKIP $3" ;;
	*) fail=$((fail + 1)); echo "not ok $n - $2"; [ -n "${3:-}" ] && grep -E -m 20 'warning|error|Error' "$3" | sed 's/^/# /' ;;
	esac
}
echo "TAP version 13"
for id in $(tools/kernels/fetch.sh --list); do
	log=build/logs/build-$id.log
	# From scratch, in a directory of its own: the guests' stages use
	# build/ID and may be running meanwhile (make check's lanes).
	dir=build/matrix/$id
	rm -rf "$dir"
	start=$(date +%s)
	if KBUILD_OUT=$top/$dir tools/kernels/kmake.sh "$id" W=1 modules >"$log" 2>&1 &&
		[ -f "$dir/arm_spe_perf.ko" ] && [ -f "$dir/arm_pcsr.ko" ] &&
		! grep -E -q '(warning|error):' "$log"; then
		result pass "build/$id: arm_spe_perf.ko with W=1, no warnings ($(($(date +%s) - start))s)"
	else
		result fail "build/$id: arm_spe_perf.ko with W=1, no warnings (log: $log)" "$log"
	fi
done
for check in checkpatch sparse dkms-build; do
	script=tools/kernels/$check.sh
	log=build/logs/$check.log
	if [ ! -x "$script" ]; then
		result skip "build/$check" "$script is not there yet"
	elif "$script" >"$log" 2>&1; then
		result pass "build/$check clean"
	else
		result fail "build/$check clean (log: $log)" "$log"
	fi
done
echo "1..$n"
echo "build: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
