#!/usr/bin/env bash
# FEAT_SPE conformance suite for the project's QEMU model.
#
# usage: tools/qemu/conformance/run.sh <path-to-qemu-system-aarch64>
#
# Builds the bare-metal programs (aarch64-linux-gnu-gcc, installed with
# spe_need_host_pkgs if missing), runs each under timeout on
# "-M virt,gic-version=2 -cpu max..." (some also with gic-version=3) with
# semihosting, and prints TAP:
# "ok N - name" / "not ok N - name", then as its last line
# "conformance: N passed, N failed, N skipped". Exit 0 iff nothing failed.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
SPE_LOG_TAG="qemu-conformance"
# shellcheck source=../../lib/apt.sh
. "$repo/tools/lib/apt.sh"
# shellcheck source=../../lib/tap.sh
. "$repo/tools/lib/tap.sh"

qemu=${1:-}
[ -n "$qemu" ] || spe_die "usage: run.sh <path-to-qemu-system-aarch64>"
[ -x "$qemu" ] || spe_die "not executable: $qemu"

command -v aarch64-linux-gnu-gcc >/dev/null ||
	spe_need_host_pkgs gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu
command -v aarch64-linux-gnu-gcc >/dev/null || spe_die "no aarch64-linux-gnu-gcc"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

tap_begin conformance

# The skip manifest (skips.tsv): BASE_GLOB<TAB>CASE_GLOB<TAB>why, matched
# against the QEMU base (MAJOR.MINOR of its version) and the case's name.
# A skip it does not list is a failure: a case that should run here and
# does not is caught, not counted as a skip.
base=$("$qemu" --version | sed -n 's/^QEMU emulator version \([0-9]*\.[0-9]*\).*/\1/p')
[ -n "$base" ] || spe_die "cannot read the QEMU version of $qemu"
skip_expected() { # CASE: 0 if the manifest lists it for this base
	local b c
	while IFS=$'\t' read -r b c _; do
		case $b in '' | '#'*) continue ;; esac
		# shellcheck disable=SC2053 # the fields are globs
		[[ $base == $b && $1 == $c ]] && return 0
	done <"$here/skips.tsv"
	return 1
}

# program_result <name prefix> <line>: a program's "RESULT <name> <status>
# [detail]" line as TAP
program_result() {
	local name status detail
	read -r _ name status detail <<<"$2"
	if [ "${status,,}" = skip ] && ! skip_expected "$1$name"; then
		status=FAIL detail="unexpected skip on QEMU $base (skips.tsv): $detail"
	fi
	tap_case "$status" "$1$name" "$detail"
}

# link_elf <out> <cc args>...: a bare-metal program linked with start.S
# and link.ld
link_elf() {
	local out=$1
	shift
	aarch64-linux-gnu-gcc -O2 -g -ffreestanding -nostdlib -nostartfiles \
		-static -mgeneral-regs-only -march=armv8.2-a -Wall -Werror \
		-Wl,--no-warn-rwx-segments -T "$here/link.ld" -I"$repo/include" \
		-o "$out" "$here/start.S" "$@"
}

# build <mode>: produce $work/<mode>.elf
build() {
	local src=("$here/console.c" "$here/gic.c" "$here/ops.S" "$here/el0.S" "$here/tests.c")
	case "$1" in PCSR*) src=("$here/console.c" "$here/pcsr.c") ;; esac
	# shellcheck disable=SC2086 # BUILD_DEFS: several -D options
	link_elf "$work/$1.elf" -D "MODE_$1" ${BUILD_DEFS:-} "${src[@]}" \
		>"$work/$1.build.log" 2>&1
}

# run <mode> <expected-tests> <cpu options> [machine options [smp]]: run
# one program, emit TAP; its results' names are prefixed with
# $RESULT_PREFIX if set (one program run on several CPU models). QEMU's
# "spe-violation: CPU<n>: <rule>: ..." lines must be exactly the rules the
# program announced with "EXPECT-VIOLATION <rule>" (test <mode>-violations).
run() {
	local mode=$1 expect=$2 cpu=$3 mach=${4:+,$4} smp=${5:-1}
	local out rc line got=0 gic=2 gic_seen=""
	local want_v="" got_v=""
	# GICv2 unless the machine options name a version
	case "$mach" in
	*gic-version=3*) gic=3 ;;
	*gic-version=*) ;;
	*) mach=",gic-version=2$mach" ;;
	esac
	if ! build "$mode"; then
		sed 's/^/# /' "$work/$mode.build.log"
		tap_case FAIL "build-$mode" "compile error"
		return
	fi
	out="$work/$mode.out"
	timeout 60 "$qemu" -M "virt$mach" -smp "$smp" -cpu "$cpu" -m 256M \
		-nographic -nic none -monitor none -serial stdio -semihosting \
		-kernel "$work/$mode.elf" >"$out" 2>&1 </dev/null
	rc=$?
	while IFS= read -r line; do
		line=${line%$'\r'}
		case "$line" in
		RESULT\ *)
			program_result "${RESULT_PREFIX:-}" "$line"
			got=$((got + 1))
			;;
		"Bail out!"*) echo "# $line" ;;
		"# GICv"*) gic_seen=${line#\# GICv} ;;
		EXPECT-VIOLATION\ *) want_v+="${line#EXPECT-VIOLATION }"$'\n' ;;
		*spe-violation:\ CPU*)
			echo "# ${line#*spe-violation: }"
			line=${line#*spe-violation: CPU*: }
			got_v+="${line%%: *}"$'\n'
			;;
		esac
	done <"$out"
	want_v=$(printf '%s' "$want_v" | sort -u)
	got_v=$(printf '%s' "$got_v" | sort -u)
	if [ "$want_v" = "$got_v" ]; then
		tap_case PASS "$mode-violations"
	else
		tap_case FAIL "$mode-violations" "reported [${got_v//$'\n'/, }], expected [${want_v//$'\n'/, }]"
	fi
	# a program that sets up the GIC says which version it found
	if [ -n "$gic_seen" ]; then
		if [ "$gic_seen" = "$gic" ]; then
			tap_case PASS "$mode-gicv$gic"
		else
			tap_case FAIL "$mode-gicv$gic" "the program found GICv$gic_seen"
		fi
	fi
	if [ "$got" -ne "$expect" ]; then
		sed 's/^/# /' "$out" | tail -n 20
		tap_case FAIL "$mode-complete" "$got of $expect results, qemu exit $rc"
	elif [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ]; then
		tap_case FAIL "$mode-exit" "qemu exit status $rc"
	fi
}

# props <name> <cpu options> [property]: QEMU must refuse the options with
# an error that says what the property must be, before it runs anything;
# without a property, it must accept them and run the NOSPE program
# (whose checks are not the point here: SPE is on).
props() {
	local out=$work/props.out rc=0
	timeout 60 "$qemu" -M virt,gic-version=2 -cpu "$2" -m 256M -nographic \
		-nic none -monitor none -serial stdio -semihosting \
		-kernel "$work/NOSPE.elf" >"$out" 2>&1 </dev/null || rc=$?
	if [ -z "${3:-}" ]; then
		if grep -q '^RESULT ' "$out"; then
			tap_case PASS "props-$1"
		else
			tap_case FAIL "props-$1" "not accepted (exit $rc): $(head -c 200 "$out")"
		fi
	elif [ "$rc" -ne 0 ] && ! grep -q '^RESULT ' "$out" && grep -q -- "$3 must" "$out"; then
		tap_case PASS "props-$1"
	else
		tap_case FAIL "props-$1" "exit $rc, want an error saying what $3 must be: $(head -c 200 "$out")"
	fi
}

# props_readonly: the feature properties of a realized CPU cannot be
# changed (the ID registers a guest has read must not change under it):
# with the machine created but stopped (-S), HMP qom-set of spe,
# spe-version, an ID field property and spe-seed must fail and leave the
# value.
# The monitor reads the commands from stdin, one after the other.
props_readonly() {
	local out=$work/readonly.out cpu='/machine/unattached/device[0]' refused got
	printf '%s\n' "qom-get $cpu spe-version" "qom-set $cpu spe-version 3" \
		"qom-set $cpu spe off" "qom-set $cpu spe-fe off" "qom-get $cpu spe-version" \
		"qom-get $cpu spe-fe" "qom-set $cpu spe-seed 7" quit |
		timeout 60 "$qemu" -M virt,gic-version=2 -cpu max -m 256M -nographic -nic none -S \
			-monitor stdio -serial none -kernel "$work/NOSPE.elf" >"$out" 2>&1
	refused=$(grep -c 'cannot be changed at run time' "$out")
	got=$(tr -d '\r' <"$out" | grep -E '^(5|3|true|false)$' | tr '\n' ' ')
	if [ "$refused" = 4 ] && [ "$got" = "5 5 true " ]; then
		tap_case PASS "props-readonly-after-realize"
	else
		tap_case FAIL "props-readonly-after-realize" "refused $refused of 4, values '$got' (want 5 5 true): $(tr '\n' ' ' <"$out" | head -c 300)"
	fi
}

# query-cpu-model-expansion runs arm_cpu_finalize_features(), and with it
# the SPE property checks, on CPU objects that are never realized (with
# &error_abort when the query gives no property): it must answer, for max
# and for a Neoverse model, and QEMU must still be there to quit.
cpu_expansion() {
	local out=$work/expansion.out answers
	printf '%s\n' '{"execute":"qmp_capabilities"}' \
		'{"execute":"query-cpu-model-expansion","arguments":{"type":"full","model":{"name":"max"}}}' \
		'{"execute":"query-cpu-model-expansion","arguments":{"type":"full","model":{"name":"neoverse-n1"}}}' \
		'{"execute":"quit"}' |
		timeout 60 "$qemu" -M virt,gic-version=2 -cpu max -m 256M -display none -nic none -S \
			-monitor none -serial none -qmp stdio >"$out" 2>&1
	answers=$(grep -c '"return": {"model": {"name": "\(max\|neoverse-n1\)"' "$out")
	if [ "$answers" = 2 ] && grep -q '"event": "SHUTDOWN"' "$out"; then
		tap_case PASS "cpu-model-expansion-finalizes"
	else
		tap_case FAIL "cpu-model-expansion-finalizes" "$answers of 2 answers: $(tr '\n' ' ' <"$out" | head -c 300)"
	fi
}

# migrated <label> <expected results> <cpu options> [--refuse]: the
# MIGRATE program (tests.c) run straight and run migrated to a new QEMU at
# each of its points (migrate.py); every STATE line must read the same in
# both. With --refuse: its state at the first point, with a field of the
# strict model's subsection out of range, or loaded with another
# spe-inflight or with spe-strict=off, must be refused with a message
# saying why
migrated() {
	local label=$1 expect=$2 cpu=$3 out=$work/migrate-$1.out got=0 rc=0
	local line
	if ! build MIGRATE; then
		sed 's/^/# /' "$work/MIGRATE.build.log"
		tap_case FAIL "build-MIGRATE" "compile error"
		return
	fi
	timeout 300 python3 "$here/migrate.py" ${4:+"$4"} "$qemu" "$work/MIGRATE.elf" "$cpu" \
		gic-version=2 >"$out" 2>&1 </dev/null || rc=$?
	while IFS= read -r line; do
		case "$line" in
		RESULT\ *)
			program_result "$label-" "$line"
			got=$((got + 1))
			;;
		"# "*) echo "$line" ;;
		esac
	done <"$out"
	if [ "$got" -ne "$expect" ] || [ "$rc" -ne 0 ]; then
		sed 's/^/# /' "$out" | tail -n 20
		tap_case FAIL "$label-migrate-complete" "$got of $expect results, migrate.py exit $rc"
	fi
}

echo "TAP version 13"
echo "# qemu: $qemu"
# The serial model (spe-strict=off): the probes disable the buffer while
# profiling is enabled, which strict mode reports. The record contents
# checked there are those of the flat model (constant latencies).
run SPE 73 max,spe-strict=off,spe-model=flat
# FEAT_SPE_CRR and FEAT_SPE_FPF
run FLAGS 11 max,spe-crr=on,spe-fpf=on,spe-strict=off,spe-model=flat
run NOSPE 2 max,spe=off
# The Neoverse CPU models: FEAT_SPE's ID registers as those cores have them
# (expected values: tools/qemu/neoverse.tsv; mode PRESETN1 for neoverse-n1 ...)
while read -r model partnum pmsver pmsidr pmbidr _; do
	case $model in "" | \#*) continue ;; esac
	mode=PRESET$(tr a-z A-Z <<<"${model#neoverse-}")
	RESULT_PREFIX="$model-" \
		BUILD_DEFS="-DPRESET_PARTNUM=$partnum -DPRESET_PMSVER=$pmsver -DPRESET_PMSIDR=${pmsidr}ULL -DPRESET_PMBIDR=${pmbidr}ULL" \
		run "$mode" 5 "$model"
done <"$here/../neoverse.tsv"
# Property errors: each stops QEMU before the guest runs
props model-bogus max,spe-model=bogus spe-model
props l1d-not-power-of-two max,spe-l1d-kib=48 spe-l1d-kib
props l2-zero max,spe-l2-kib=0 spe-l2-kib
props llc-too-big max,spe-llc-kib=2097152 spe-llc-kib
props el3-nspb-out-of-range max,spe-el3-nspb=4 spe-el3-nspb
props crr-needs-v1p4 max,spe-version=4,spe-crr=on spe-version
props fpf-needs-v1p4 max,spe-version=4,spe-fpf=on spe-version
props pbt-needs-v1p2 max,spe-version=2,spe-pbt=on,spe-maxsize=128 spe-version
props pbt-needs-maxsize-128 max,spe-pbt=on spe-maxsize
props sme-needs-v1p4 max,spe-version=4,spe-sme=on spe-version
props sme-needs-sme max,sme=off,spe-sme=on spe-sme
props accepted max,spe-model=flat,spe-l1d-kib=32,spe-l2-kib=512,spe-llc-kib=4096,spe-el3-nspb=0
props_readonly
cpu_expansion
run KNOB 1 max,spe-fault=ea:2,spe-strict=off
# Migration: the interval counter, a deferral, a frozen counter, the
# buffer registers and (strict model) the records in flight and what
# direct reads see, each moved to a new QEMU mid-run (migrate.py)
migrated migrate-serial 12 max,spe-ernd=on,spe-strict=off,spe-model=flat
migrated migrate-strict 12 max,spe-ernd=on,spe-seed=1,spe-model=flat
migrated migrate-default 12 max,spe-ernd=on,spe-seed=1
migrated migrate-refused 11 max,spe-ernd=on,spe-seed=1,spe-model=flat --refuse
# PMSICR_EL1.ECOUNT, the ERnd secondary counter: read back, counting down
# a deferral, a written one deferring the sample, one at or above COUNT
# (sampling again after the primary with RND 0, redrawn with RND 1), a
# zero COUNT restarting (RES0 without ERnd); E[22] when it defers a
# sample (the strict model and the cache model, the defaults)
run ERND 10 max,spe-ernd=on
run ERND 10 max
# Sampling at EL0 (PMSCR_EL1.E0SPE): the PC packet's EL, CONTEXTIDR_EL1
run EL0 13 max,spe-strict=off,spe-model=flat
# The same with the strict model and the memory-hierarchy model
run EL0 13 max
# LDTR/STTR/SETPT at EL1 with PAN: the PA of the EL0-permission access
run UNPRIV 5 max,spe-strict=off,spe-model=flat
run PBT 4 max,spe-pbt=on,spe-maxsize=128,spe-strict=off,spe-model=flat
# FEAT_GCS: Load/store, GCS and the Branch GCS bit (v1p4), and before v1p4
BUILD_DEFS=-DGCS_PMSVER=5 run GCS 10 max,spe-strict=off,spe-model=flat
BUILD_DEFS=-DGCS_PMSVER=4 run GCS 10 max,spe-version=4,spe-strict=off,spe-model=flat
# FEAT_LSE128: the 128-bit atomics as Load/store, extended
run LSE128 4 max,spe-strict=off,spe-model=flat
# SME2/SVE2p1 multi-vector loads/stores: E[17]/E[18] from a predicate-as-counter
run MULTI 8 max,spe-strict=off,spe-model=flat
# ... with FEAT_SPE_SME: EVL of all the vectors, 0b111 beyond 2048 bits
BUILD_DEFS=-DSPE_SME=1 run MULTI 8 max,spe-sme=on,spe-strict=off,spe-model=flat
# FEAT_SPE_SME: SME's operations on ZA, E[24]/E[25]; then none of it without
BUILD_DEFS=-DSPE_SME=1 run SME 22 max,spe-sme=on,spe-strict=off,spe-model=flat
BUILD_DEFS=-DSPE_SME=0 run SME 21 max,spe-strict=off,spe-model=flat
# FEAT_MTE2: the physical address packet's CH and PAT (the board's mte=on)
run MTE 20 max,spe-strict=off,spe-model=flat mte=on
for v in 1 2 3 4 5; do
	run EVFR 1 "max,spe-version=$v,spe-strict=off"
done
run ALIGN 2 max,spe-maxsize=512,spe-align=512,spe-strict=off
run ALIGN 2 max,spe-maxsize=2048,spe-align=2048,spe-strict=off
# The strict model (the default), and PMBIDR_EL1.P from EL3, EL2 and EL1
run STRICT 10 max,spe-strict=on,spe-seed=1
# PMBIRQ through GICv3's redistributor and ICC_* registers (gic.c)
run SPE 73 max,spe-strict=off,spe-model=flat gic-version=3
run STRICT 10 max,spe-strict=on,spe-seed=1 gic-version=3
run EL2 3 max virtualization=on
run EL3 3 max virtualization=on,secure=on
# Secure EL2 owns the buffer: PMBIDR_EL1.P, sampling at Secure EL2
run SEL2 3 max,spe-strict=off,spe-model=flat virtualization=on,secure=on
run FGT 7 max virtualization=on
# FEAT_NV2: the SPE registers in the VNCR_EL2 page; an MRS/MSR at EL1
# made a load/store at VNCR_EL2 + offset
run NV2 12 max,spe-strict=off,spe-model=flat,spe-fds=on virtualization=on
# Timestamps with FEAT_ECV: PMSCR_EL2/EL1.PCT, CNTVOFF_EL2, CNTPOFF_EL2
run ECV 9 max,spe-strict=off,spe-model=flat virtualization=on
# The memory-hierarchy model (the default) with Data Source packets
run MODEL 25 max,spe-strict=off,spe-lds=on "" 2
run PCSR 30 max pcsr=on 2 # FEAT_PCSR: Documentation/pcsr.rst
run PCSRNIDEN 3 max pcsr=on,pcsr-niden=off
run PCSROFF 1 max
# start.S has another user: the emulation benchmark's workload
# (tools/bench/qemu-overhead.sh), which make check does not run. It must
# still link with it (it did not from patch 28's EL2 trap entry on).
if link_elf "$work/bench-workload.elf" -DINTERVAL=1024 -DITERS=300000 \
	"$repo/tools/bench/qemu-overhead/workload.c" >"$work/bench.build.log" 2>&1; then
	tap_case PASS "bench-workload-links-with-start"
else
	sed 's/^/# /' "$work/bench.build.log" | tail -n 5
	tap_case FAIL "bench-workload-links-with-start" "tools/bench/qemu-overhead/workload.c does not build"
fi
tap_end
