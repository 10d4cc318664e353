# SPDX-License-Identifier: GPL-2.0
# Sourced by the perf tests of this directory (run in the test guest, from
# the directory holding them, with Debian's linux-perf on PATH). Exit
# status as kselftest: 0 pass, 1 fail, 4 skip.
#
# Files next to the tests: arm_spe_perf.ko, spe_workload (+ .syms),
# perf_aux_extract, spe-decode. Tests that analyse a recording share
# $SPE_TMP/rec.data made by perf_record.sh (the list runs it first).
# shellcheck shell=sh
# shellcheck disable=SC2034,SC2046,SC3043
# (SC2034: pmu, AWK_HEX and the ranges are for the tests that source
# this; SC2046: "set -- $(...)" splits a line into fields on purpose;
# SC3043: the guest's busybox sh has local)
SPE_TMP=${SPE_TMP:-/tmp/spe-perf}
mkdir -p "$SPE_TMP"
here=$(cd "$(dirname "$0")" && pwd)
WORKLOAD=$here/spe_workload
KO=${KO:-$here/arm_spe_perf.ko}
export PATH="$here:$PATH"

# The verdict is the last line (the harness quotes it); the run time
# comes just before it.
spe_t0=$(date +%s)
took() { echo "# $(basename "$0"): $(($(date +%s) - spe_t0))s"; }
fail() { took; echo "FAIL: $*"; exit 1; }
skip() { took; echo "SKIP: $*"; exit 4; }
pass() { took; echo "PASS${1:+: $*}"; exit 0; }
note() { echo "# $*"; }

# True when CPU 0 is a core for which perf decodes the Data Source packet
# with the common Neoverse encoding (perf's arm-spe.c
# common_ds_encoding_cpus: Neoverse N1, N2, V1); sets $midr.
spe_neoverse_ds() {
	midr=$(cat /sys/devices/system/cpu/cpu0/regs/identification/midr_el1 2>/dev/null || echo 0)
	case $(((midr >> 24) & 0xff)):$(((midr >> 4) & 0xfff)) in
	65:3340 | 65:3401 | 65:3392) return 0 ;;
	esac
	return 1
}

# Set $pmu to the SPE PMU (arm_spe_N), loading the module when it is not
# there yet. Not in a $(...) subshell: skip/fail must end the test.
spe_pmu() {
	local p
	p=$(ls -d /sys/bus/event_source/devices/arm_spe_* 2>/dev/null | head -n1)
	if [ -z "$p" ]; then
		grep -qs statistical-profiling-extension /proc/device-tree/*/compatible ||
			skip "the firmware describes no SPE device"
		[ -f "$KO" ] || skip "no module at $KO"
		insmod "$KO" || fail "insmod $KO failed"
		p=$(ls -d /sys/bus/event_source/devices/arm_spe_* 2>/dev/null | head -n1)
		[ -n "$p" ] || fail "the module loaded but registered no arm_spe_N PMU"
	fi
	pmu=$(basename "$p")
}

command -v perf >/dev/null 2>&1 || skip "no perf in the guest"

# awk helper: hex("0x4008a0") or hex("4008a0") -> number (exact below 2^53).
AWK_HEX='function hex(s,   i, c, v) { s = tolower(s); sub(/^0x/, "", s); v = 0;
	for (i = 1; i <= length(s); i++) { c = index("0123456789abcdef", substr(s, i, 1));
		if (!c) break; v = v * 16 + c - 1 } return v }'

# The ranges spe_workload printed: sets buf_lo buf_hi text_lo text_hi hot
# branchy from its output file $1, and hot_end/branchy_end from the .syms.
workload_ranges() {
	local out=$1
	set -- $(sed -n 's/^spe_workload: buf //p' "$out"); buf_lo=$1 buf_hi=$2
	set -- $(sed -n 's/^spe_workload: text //p' "$out"); text_lo=$1 text_hi=$2
	hot=$(sed -n 's/^spe_workload: spe_hot //p' "$out")
	branchy=$(sed -n 's/^spe_workload: spe_branchy //p' "$out")
	[ -n "$buf_lo" ] && [ -n "$text_hi" ] && [ -n "$hot" ] && [ -n "$branchy" ] ||
		fail "spe_workload did not print its ranges (see $out)"
	set -- $(awk '$1 == "spe_hot" { print $3 }' "$WORKLOAD.syms"); hot_size=0x${1:-0}
	set -- $(awk '$1 == "spe_branchy" { print $3 }' "$WORKLOAD.syms"); branchy_size=0x${1:-0}
	hot_end=$(printf '0x%x' $((hot + hot_size)))
	branchy_end=$(printf '0x%x' $((branchy + branchy_size)))
	note "workload: buf $buf_lo-$buf_hi text $text_lo-$text_hi spe_hot $hot-$hot_end spe_branchy $branchy-$branchy_end"
}

# Packet counts by type of a perf -D dump (stdin): "TYPE COUNT" lines.
# perf prints one line per packet after a ". ... ARM SPE data: size N
# bytes" line, except padding: up to 16 padding bytes share a line. Padding
# is counted in bytes (as spe-decode's "PAD xN").
perf_dump_counts() {
	awk '
	/ARM SPE data: size/ { inspe = 1; next }
	inspe && /^\.  *[0-9a-f]+:  / {
		for (i = 3; i <= NF && $i ~ /^[0-9a-f][0-9a-f]$/; i++) ;
		t = $i
		if (t == "PAD") { n["pad"] += i - 3; next }
		else if (t == "END") k = "end"
		else if (t == "TS") k = "timestamp"
		else if (t == "PC" || t == "TGT" || t == "VA" || t == "PA" || t == "PBT" || t ~ /^ADDR/) k = "address"
		else if (t == "LAT" || t ~ /^COUNT/) k = "counter"
		else if (t == "CONTEXT") k = "context"
		else if (t ~ /^DATA-SOURCE/ || t == "DS") k = "data-source"
		else if (t == "EV" || t ~ /^EVENTS/) k = "events"
		else if (t == "Bad") k = "bad"
		else k = "op-type"
		n[k]++
		next
	}
	!/^\./ { inspe = 0 }
	END { for (k in n) print k, n[k] }' | sort
}

# The same from spe-decode --dump (stdin).
spe_decode_counts() {
	awk '
	/^[0-9a-f]+: / {
		if ($0 ~ /alignment bytes skipped|^[0-9a-f]+: +\(/) { n["bad"]++; next }
		d = substr($0, 42); split(d, w, " "); t = w[1]
		if (t == "PAD") { x = w[2]; sub(/^x/, "", x); n["pad"] += x; next }
		if (t == "END") k = "end"
		else if (t == "TS") k = "timestamp"
		else if (t == "ADDR") k = "address"
		else if (t == "COUNT") k = "counter"
		else if (t == "CONTEXT") k = "context"
		else if (t == "DATA-SOURCE") k = "data-source"
		else if (t == "EVENTS") k = "events"
		else if (t == "OP") k = "op-type"
		else k = "other:" t
		n[k]++
	}
	END { for (k in n) print k, n[k] }' | sort
}
