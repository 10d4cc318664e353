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
# shellcheck source=lib/tap.sh
. tools/lib/tap.sh
suite_hermetic
mkdir -p build/logs
# failed NAME LOG: a failing case, with the log's first diagnostics
failed() {
	tap_not_ok "$1"
	grep -E -m 20 'warning|error|Error' "$2" | sed 's/^/# /'
}
tap_begin build
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
		tap_ok "build/$id: arm_spe_perf.ko with W=1, no warnings ($(($(date +%s) - start))s)"
	else
		failed "build/$id: arm_spe_perf.ko with W=1, no warnings (log: $log)" "$log"
	fi
done
for check in checkpatch sparse dkms-build; do
	script=tools/kernels/$check.sh
	log=build/logs/$check.log
	if [ ! -x "$script" ]; then
		tap_skip "build/$check" "$script is not there yet"
	elif "$script" >"$log" 2>&1; then
		tap_ok "build/$check clean"
	else
		failed "build/$check clean (log: $log)" "$log"
	fi
done
tap_end
