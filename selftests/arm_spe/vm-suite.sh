#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Build the arm_spe selftests and the module, then boot the emulator once
# per implementation parameter set (the probe matrix) and run the tests
# that set calls for. Each boot is its own suite, "selftests-NAME"; the
# last line adds them up: "selftests: N passed, N failed, N skipped".
#
#   vm-suite.sh QEMU [KERNEL_ID] [NAME...]
#   vm-suite.sh QEMU [KERNEL_ID] --build-only
#
# QEMU: the SPE-enabled qemu-system-aarch64 (tools/qemu/build.sh). KERNEL_ID:
# a series of tools/kernels/series.conf (default: the default one). NAMEs
# pick boots of the matrix (default: all; see "matrix" below). --build-only
# builds the module and the tests and boots nothing (make check builds the
# tests, which every kernel shares, once before its stages run
# concurrently).
# The expected implementation (SPE_EXP_* in the guest) is derived from
# the QEMU CPU properties set here, never from the driver.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
export SPE_LOG_TAG=selftests
# shellcheck source=../../tools/lib/apt.sh
. "$top/tools/lib/apt.sh"
# shellcheck source=../../tools/vm/suite-lib.sh
. "$top/tools/vm/suite-lib.sh"

qemu=${1:?usage: vm-suite.sh QEMU [KERNEL_ID] [NAME...]}
default_kid=$("$top/tools/kernels/fetch.sh" --default)
kid=${2:-$default_kid}
shift $(($# >= 2 ? 2 : 1))
want=" $* "

out=$top/build/selftests
mkdir -p "$out"
fail_build() {
	echo "not ok - selftests: $1"
	echo "selftests: 0 passed, 1 failed, 0 skipped"
	exit 1
}
# Logs per kernel: runs for two kernels may be under way at once.
"$top/tools/kernels/kmake.sh" "$kid" modules >"$out/module-$kid.log" 2>&1 ||
	fail_build "the module does not build ($out/module-$kid.log)"
ko=$top/build/$kid/arm_spe_perf.ko
bpf_deps=$("$here/get-bpf-deps.sh" 2>"$out/bpf-deps-$kid.log") ||
	fail_build "no BPF toolchain for spe_observe ($out/bpf-deps-$kid.log)"
vmlinux_btf=$("$here/get-vmlinux-btf.sh" 2>>"$out/bpf-deps-$kid.log") ||
	fail_build "no kernel BTF for spe_observe's vmlinux.h ($out/bpf-deps-$kid.log)"
make -s -C "$here" CROSS_COMPILE=aarch64-linux-gnu- OUTPUT="$out/bin" BPF_DEPS="$bpf_deps" \
	VMLINUX_BTF="$vmlinux_btf" \
	>"$out/build-$kid.log" 2>&1 || fail_build "the tests do not build ($out/build-$kid.log)"
[ "$want" != " --build-only " ] || exit 0
env_file=$("$top/tools/kernels/fetch.sh" "$kid")
# shellcheck disable=SC1090
. "$env_file"
kconfig=$KDIR/.config
pid_ctx=0
grep -qx 'CONFIG_PID_IN_CONTEXTIDR=y' "$kconfig" 2>/dev/null && pid_ctx=1
# perf_event_attr.config3 from 6.3, config4 from 7.0 (uapi PERF_ATTR_SIZE_VER8/9)
cfg3=0 cfg4=0
# Debian's arch headers include the -common tree's Makefile (-common-rt for
# the rt flavour): that tree holds the uapi.
uapi=
common=$(sed -n 's|^include \(.*\)/Makefile$|\1|p' "$KDIR/Makefile" 2>/dev/null | head -n1)
for f in "$KDIR/include/uapi/linux/perf_event.h" "${common:-${KDIR%-arm64}-common}/include/uapi/linux/perf_event.h" \
	"$KDIR/source/include/uapi/linux/perf_event.h"; do
	[ -f "$f" ] && uapi=$f && break
done
[ -n "$uapi" ] || fail_build "no uapi perf_event.h for $KVER"
grep -qs PERF_ATTR_SIZE_VER8 "$uapi" && cfg3=1
grep -qs PERF_ATTR_SIZE_VER9 "$uapi" && cfg4=1

# Whether a module can honour perf_event_paranoid for kernel samples: the
# kernel exports perf_allow_kernel() (6.12 does, Debian's 6.1 does not) or
# the sysctl it reads. Read from what a module links against, not from
# the version: distributions backport (Documentation/driver.rst).
paranoid_kernel=0
preempt_rt=0
grep -qx 'CONFIG_PREEMPT_RT=y' "$kconfig" 2>/dev/null && preempt_rt=1
# BTF of its own (/sys/kernel/btf/vmlinux): what spe_observe's CO-RE variant needs
kernel_btf=0
grep -qx 'CONFIG_DEBUG_INFO_BTF=y' "$kconfig" 2>/dev/null && kernel_btf=1
# SVE for tasks (HWCAP_SVE): what the SVE workload needs (the debug kernel
# is built without it)
kernel_sve=0
grep -qx 'CONFIG_ARM64_SVE=y' "$kconfig" 2>/dev/null && kernel_sve=1
# SME for tasks (HWCAP2_SME): what the SME workload needs
kernel_sme=0
grep -qx 'CONFIG_ARM64_SME=y' "$kconfig" 2>/dev/null && kernel_sme=1
# MTE for tasks (HWCAP2_MTE, PROT_MTE): what cap.mte_* needs
kernel_mte=0
grep -qx 'CONFIG_ARM64_MTE=y' "$kconfig" 2>/dev/null && kernel_mte=1
# FEAT_MOPS for tasks (HWCAP2_MOPS, no Kconfig option): in the kernel's uapi
kernel_mops=0
hwcap=${uapi%/include/uapi/linux/perf_event.h}/arch/arm64/include/uapi/asm/hwcap.h
[ -f "$hwcap" ] || fail_build "no uapi asm/hwcap.h next to $uapi"
grep -qw HWCAP2_MOPS "$hwcap" && kernel_mops=1
grep -qwE 'perf_allow_kernel|sysctl_perf_event_paranoid' "$KDIR/Module.symvers" 2>/dev/null &&
	paranoid_kernel=1

# The debug kernel (KASAN, lockdep, kmemleak) runs the same tests about
# three times slower under TCG: its timeouts scale so that a slow but
# healthy run is not taken for a hang.
tscale=1
[ "$kid" = debug ] && tscale=3
# expected_skips SUITE: the skip manifest of one boot (tools/vm/parse_log.py),
# derived from the boot's parameters (the locals of boot()) and the
# kernel's uapi, never from the driver: a case may skip only because the
# emulated implementation or the kernel lacks what it tests. Any other
# skip (no tracepoints, no BPF, a CPU that cannot go offline, missing
# expectations) fails the boot.
expected_skips() {
	local s=$1
	x() { printf '%s\t%s\t%s\n' "$s" "$1" "$2"; }
	[ "$fault" = none ] && x 'buffer/buf.injected_fault_reported' "no fault injected in this boot"
	[ -n "$parts" ] || x 'discovery/global.pmus_match_partitions' "no PPI partitions in this boot (SPE_EXP_PARTITIONS)"
	[ "$kernel_btf" = 1 ] || x 'observe/obs.core.*' "kernel without CONFIG_DEBUG_INFO_BTF: no CO-RE"
	if [ "$kernel_sve" != 1 ]; then
		x 'capture/cap.sve_*' "kernel without CONFIG_ARM64_SVE: no SVE for tasks"
	elif [ "$sve" != 1 ]; then
		x 'capture/cap.sve_*' "the CPU ($model) has no SVE"
	fi
	# -cpu max has FEAT_SME; the Neoverse models do not
	if [ "$kernel_sme" != 1 ]; then
		x 'capture/cap.sme_*' "kernel without CONFIG_ARM64_SME: no SME for tasks"
	elif [ "$model" != max ]; then
		x 'capture/cap.sme_*' "the CPU ($model) has no SME"
	fi
	# FEAT_MTE2: -cpu max has it with the board's tag memory (mte=on)
	if [ "$mte" != 1 ]; then
		x 'capture/cap.mte_*' "no FEAT_MTE2 in this boot (the virt board's mte=on)"
	elif [ "$kernel_mte" != 1 ]; then
		x 'capture/cap.mte_*' "kernel without CONFIG_ARM64_MTE: no MTE for tasks"
	fi
	# FEAT_MOPS: -cpu max has it; the Neoverse models (Armv8.2 to 9.0) do not
	if [ "$kernel_mops" != 1 ]; then
		x 'capture/cap.mops_*' "kernel without FEAT_MOPS support (no HWCAP2_MOPS in its uapi)"
	elif [ "$model" != max ]; then
		x 'capture/cap.mops_*' "the CPU ($model) has no FEAT_MOPS"
	fi
	[ "$fault" = s1:1 ] || x 'buffer/buf.injected_fault_at_schedule_out' "the first record does not fault in this boot"
	[ "$firmware" = acpi ] && x 'module_load' "module_load.sh needs the DT node (ACPI boot)"
	x 'kselftest/*: module_nospe.sh' "module_nospe.sh is for machines without SPE"
	[ "$eft" = 1 ] || x 'capture/cap.eft_*' "PMSIDR_EL1.EFT is 0"
	[ "$version" -ge 3 ] || x 'buffer/buf.discard*' "discard mode (PMBLIMITR_EL1.FM 0b10) is FEAT_SPEv1p2"
	[ "$align" -ge "$maxsize" ] ||
		x 'buffer/buf.full_buffer_no_room_resumes_*' "Align $align < MaxSize $maxsize: records do not tile the buffer"
	[ "$cntvoff" != 0 ] || x 'capture/cap.pct_timestamps_physical' "CNTVOFF_EL2 is 0 in this boot"
	[ "$fds" = 1 ] && [ "$cfg4" = 1 ] ||
		x 'capture/cap.data_source_filter*' "no data-source filter (PMSIDR_EL1.FDS=$fds, attr.config4=$cfg4)"
	[ "$fds" = 0 ] && [ "$cfg4" = 1 ] ||
		x 'errors/attr.inv_data_src_filter_absent_eopnotsupp' "FDS present or no attr.config4 (FDS=$fds, config4=$cfg4)"
	if [ "$fe" = 1 ]; then
		[ "$version" -ge 2 ] || x 'capture/cap.event_filter_misaligned' "E[11] is filterable from FEAT_SPEv1p1"
		[ "$version" -ge 3 ] || x 'capture/cap.event_filter_not_taken' "E[6] is filterable from FEAT_SPEv1p2"
		[ "$version" -ge 5 ] || x 'capture/cap.*event_filter_l1d_access' "E[2] is filterable from FEAT_SPEv1p4"
	else
		x 'capture/cap.event_filter_*' "PMSIDR_EL1.FE is 0"
		x 'capture/cap.inv_event_filter_l1d_access' "PMSIDR_EL1.FE is 0: caps/event_filter is empty"
		x 'errors/attr.event_filter_*' "PMSIDR_EL1.FE is 0"
	fi
	if [ "$fne" = 1 ]; then
		x 'errors/attr.inv_event_filter_absent_eopnotsupp' "PMSIDR_EL1.FnE is 1"
	else
		[ "$cfg3" = 1 ] || x 'errors/attr.inv_event_filter_absent_eopnotsupp' "kernel without attr.config3"
	fi
	[ "$fne$cfg3" = 11 ] ||
		x 'capture/cap.inv_event_filter_*' "no inverted event filter (PMSIDR_EL1.FnE=$fne, attr.config3=$cfg3)"
	[ "$ft" = 1 ] || x 'capture/cap.*_filter' "PMSIDR_EL1.FT is 0"
	[ "$ft" = 1 ] || x 'capture/cap.load_or_store_filter' "PMSIDR_EL1.FT is 0"
	[ "$fl" = 1 ] || x 'capture/cap.min_latency' "PMSIDR_EL1.FL is 0"
	[ "$fl" = 1 ] || x 'errors/attr.min_latency_*' "PMSIDR_EL1.FL is 0"
	[ "$fe$ft$fl$eft" = 1111 ] && [ "$version" -ge 3 ] &&
		x 'errors/attr.absent_features_eopnotsupp' "every optional feature it tests is present"
	return 0
}

# The "mainline" boot runs the tests against mainline's driver, Debian's
# arm_spe_pmu.ko of the same kernel (the second witness); mainline.tsv
# lists the cases that differ and why.
mainline_ko() {
	"$top/tools/kernels/mainline-ko.sh" "$kid" "$out/arm_spe_pmu.ko" 2>/dev/null
}
# mainline_cases BINARY KIND...: the test names of spe_BINARY.c that
# mainline.tsv lists with one of those KINDs (globs expanded against the
# source, the harness's -T wants names).
mainline_cases() {
	local bin=$1 b c k w n
	shift
	grep -v '^#' "$here/mainline.tsv" | while IFS=$'\t' read -r b c k w; do
		[ "$b" = "$bin" ] || continue
		[[ " $* " == *" $k "* ]] || continue
		for n in $(sed -nE 's/^TEST(_F)?\(([a-z_]+, *)?([a-z0-9_]+)\).*/\3/p' "$here/spe_$bin.c"); do
			# shellcheck disable=SC2053 # c is a glob
			[[ ${c#*.} == $n || $n == ${c#*.} ]] && echo "$n"
		done
	done
}

# neoverse_defaults MODEL: what FEAT_SPE looks like on a Neoverse core,
# from published figures, not from the emulator: the model's line of
# tools/qemu/neoverse.tsv (its sources are there), its PMSIDR_EL1 and
# PMBIDR_EL1 taken apart by field (Arm ARM D24.4). Sets the locals of
# boot().
neoverse_defaults() {
	local m pmsver pmsidr pmbidr has_sve line=""
	while read -r m _ pmsver pmsidr pmbidr has_sve; do
		[ "$m" = "$1" ] && line=1 && break
	done <"$top/tools/qemu/neoverse.tsv"
	[ -n "$line" ] || { echo "vm-suite.sh: CPU model $1 is not in tools/qemu/neoverse.tsv" >&2; exit 2; }
	version=$pmsver sve=$has_sve
	fe=$((pmsidr & 1)) ft=$((pmsidr >> 1 & 1)) fl=$((pmsidr >> 2 & 1))
	archinst=$((pmsidr >> 3 & 1)) lds=$((pmsidr >> 4 & 1))
	ernd=$((pmsidr >> 5 & 1)) fne=$((pmsidr >> 6 & 1))
	# PMSIDR_EL1.Interval: 0b0000 256, 0b0010 512, 0b0011 768, ...
	case $((pmsidr >> 8 & 0xf)) in
	0) interval=256 ;; 2) interval=512 ;; 3) interval=768 ;; 4) interval=1024 ;;
	5) interval=1536 ;; 6) interval=2048 ;; 7) interval=3072 ;; 8) interval=4096 ;;
	*) echo "vm-suite.sh: reserved PMSIDR_EL1.Interval for $1" >&2; exit 2 ;;
	esac
	maxsize=$((1 << (pmsidr >> 12 & 0xf)))
	# PMSIDR_EL1.CountSize: 0b0010 12-bit saturating, 0b0011 16-bit
	countsize=$(((pmsidr >> 16 & 0xf) == 3 ? 16 : 12))
	align=$((1 << (pmbidr & 0xf)))
}

T=$'\t'
tot_p=0 tot_f=0 tot_s=0
# boot NAME QEMU_CPU_PROPS TESTS...
# The CPU properties are parsed here into the expectations.
boot() {
	local name=$1 props=$2 t
	shift 2
	# named=1 before "boot": only when named on the command line.
	case $want in "  ") [ -z "${named:-}" ] || return 0 ;; *" $name "*) ;; *) return 0 ;; esac
	vm_suite_ran "$name"
	# Emulator defaults (tools/qemu/README.md), then the properties set.
	local version=5 interval=256 maxsize=64 countsize=12 align=64 fe=1 ft=1 fl=1
	local fne=1 fds=0 eft=0 fpf=0 crr=0 pbt=0 sme=0 archinst=1 ernd=0 lds=0 fault=none strict=1 kv k v kernel_el=1
	local boot_el=1 kpti=0 firmware=dt owner=el1 el3=0 nspb=3 w sve=1
	# cpu=MODEL before "boot": another CPU model than max, with its own
	# defaults (neoverse_defaults).
	local model=${cpu:-max}
	[ "$model" = max ] || neoverse_defaults "$model"
	# spe_partitions=GROUPS before "boot": the DT gets GICv3 PPI
	# partitions, one SPE node each (tools/vm/ppi-partitions.py).
	local parts=${spe_partitions:-}
	# machine=OPTS before "boot" adds -M virt options; with
	# virtualization=on the kernel starts at EL2 and stays there (VHE)
	# unless kvm-arm.mode=nvhe keeps it at EL1 (KVM's hyp code at EL2).
	# append=ARGS adds to the kernel command line: kpti=1 forces KPTI (the
	# driver must refuse the device), acpi=force with bios=uefi (edk2)
	# makes the kernel and the driver take the ACPI description.
	case ,${machine:-}, in *,virtualization=on,*) boot_el=2 kernel_el=2 ;; esac
	# secure=on: EL3 is present, and QEMU's firmware emulation sets
	# MDCR_EL3.NSPB to the CPU's spe-el3-nspb (0b11 by default, the
	# buffer to Non-secure state as TF-A does; 0b00 gives it to Secure
	# state: SPE supplement 3.4.2).
	case ,${machine:-}, in *,secure=on,*) el3=1 ;; esac
	# mte=on: the board gives tag memory, -cpu max then has FEAT_MTE2
	local mte=0
	case ,${machine:-}, in *,mte=on,*) [ "$model" = max ] && mte=1 ;; esac
	# spe-cpu-mask=M: only the CPUs of mask M have SPE (QEMU's virt).
	local spe_cpus=-1
	case ,${machine:-}, in *,spe-cpu-mask=*)
		spe_cpus=${machine#*spe-cpu-mask=} spe_cpus=$((${spe_cpus%%,*})) ;;
	esac
	# el2_shim=E2PB[:CNTVOFF]: tools/vm/el2-shim keeps EL2, enters the
	# kernel at EL1 on one CPU, gives the buffer to EL2 (MDCR_EL2.E2PB
	# 0b00) or EL1 (0b11) and sets CNTVOFF_EL2.
	local cpus=2 cntvoff=0
	if [ -n "${el2_shim:-}" ]; then
		cpus=1
		[ "${el2_shim%%:*}" = 0 ] && owner=el2
		case $el2_shim in *:*) cntvoff=${el2_shim#*:} ;; esac
	fi
	for w in ${append:-}; do
		case $w in
		kpti=1 | kpti=on | kpti=y) kpti=1 ;;
		kvm-arm.mode=nvhe) kernel_el=1 ;;
		acpi=force) [ "${bios:-}" = uefi ] && firmware=acpi ;;
		esac
	done
	local IFS=,
	for kv in $props; do
		k=${kv%%=*} v=${kv#*=}
		[ "$v" = on ] && v=1
		[ "$v" = off ] && v=0
		case $k in
		spe-version) version=$v ;; spe-interval) interval=$v ;;
		spe-maxsize) maxsize=$v ;; spe-countsize) countsize=$v ;;
		spe-align) align=$v ;; spe-fe) fe=$v ;; spe-ft) ft=$v ;; spe-fl) fl=$v ;;
		spe-fne) fne=$v ;; spe-fds) fds=$v ;; spe-eft) eft=$v ;;
		spe-fpf) fpf=$v ;; spe-crr) crr=$v ;; spe-pbt) pbt=$v ;; spe-sme) sme=$v ;;
		spe-archinst) archinst=$v ;; spe-ernd) ernd=$v ;; spe-lds) lds=$v ;;
		spe-fault) fault=$v ;; spe-strict) strict=$v ;;
		spe-el3-nspb) nspb=$v ;;
		esac
	done
	unset IFS
	[ "$el3" = 1 ] && [ "$nspb" -lt 2 ] && owner=secure
	# Another kernel's boots keep their own logs: build/selftests/ID-NAME.
	local dir=$out/$name
	[ "$kid" = "$default_kid" ] || dir=$out/$kid-$name
	rm -rf "$dir" && mkdir -p "$dir"
	# SPE_EXP_INTID: the virt machine wires PMBIRQ to PPI 5, INTID 21
	# (tools/qemu/README.md, Interrupt). SPE_EXP_CPY_BOTH: the emulator
	# samples the load and the store part of a Memory Copy in turn
	# (Documentation/emulation.rst, FEAT_MOPS).
	cat >"$dir/env" <<-EOT
	export SPE_EXP_VERSION=$version SPE_EXP_INTERVAL=$interval SPE_EXP_MAXSIZE=$maxsize
	export SPE_EXP_COUNTSIZE=$countsize SPE_EXP_ALIGN=$align SPE_EXP_FE=$fe SPE_EXP_FT=$ft
	export SPE_EXP_FL=$fl SPE_EXP_FNE=$fne SPE_EXP_FDS=$fds SPE_EXP_EFT=$eft
	export SPE_EXP_FPF=$fpf SPE_EXP_CRR=$crr SPE_EXP_PBT=$pbt SPE_EXP_SME=$sme
	export SPE_EXP_ARCHINST=$archinst SPE_EXP_ERND=$ernd SPE_EXP_LDS=$lds
	export SPE_EXP_CONFIG3=$cfg3 SPE_EXP_CONFIG4=$cfg4 SPE_EXP_CPUS=$cpus
	export SPE_EXP_PID_CTX=$pid_ctx SPE_EXP_PARANOID_KERNEL=$paranoid_kernel SPE_FAULT=$fault
	export SPE_EXP_KERNEL_EL=$kernel_el SPE_EXP_COLLISIONS=$strict
	export SPE_EXP_BOOT_EL=$boot_el SPE_EXP_KPTI=$kpti SPE_EXP_OWNER=$owner
	export SPE_EXP_FIRMWARE=$firmware SPE_EXP_PREEMPT_RT=$preempt_rt SPE_EXP_CNTVOFF=$cntvoff
	export SPE_EXP_INTID=21 SPE_EXP_SPE_CPUS=$spe_cpus SPE_EXP_PARTITIONS="$parts" SPE_EXP_CPY_BOTH=1
	EOT
	local drv=${driver:-this} mod=$ko modname=arm_spe_perf
	if [ "$drv" = mainline ]; then
		mainline_ko || { echo "not ok - selftests-$name: no arm_spe_pmu module in $KVER"; tot_f=$((tot_f + 1)); return 0; }
		mod=$out/arm_spe_pmu.ko modname=arm_spe_pmu
	fi
	{
		expected_skips "selftests-$name"
		[ "$drv" = mainline ] && grep -v '^#' "$here/mainline.tsv" |
			awk -F'\t' -v s="selftests-$name" '$3 == "skip" { print s "\t" $1 "/" $2 "\tmainline: " $4 }'
	} >"$dir/expected-skips"
	{
		for t in "$@"; do
			local excl=""
			if [ "$drv" = mainline ]; then
				excl=$(mainline_cases "$t" own abi bug open | sed 's/^/ -T /' | tr -d '\n')
			fi
			case $t in
			module_load) echo "module_load${T}$((120 * tscale))${T}./module_load.sh ./arm_spe_perf.ko" ;;
			load) echo "load${T}$((30 * tscale))${T}insmod ./${mod##*/}" ;;
			# Loaded from CPU 0: the probe runs there and checks the others.
			load-cpu0) echo "load-cpu0${T}$((30 * tscale))${T}taskset 1 insmod ./${mod##*/}" ;;
			unload) echo "unload${T}$((30 * tscale))${T}rmmod $modname" ;;
			partitions) echo "partitions${T}$((120 * tscale))${T}. ./env && ./spe_discovery -t pmus_match_partitions" ;;
			# Only spe_buffer is sure to fill a buffer (PMBIRQ).
			platform) echo "platform${T}$((60 * tscale))${T}. ./env && ./platform.sh$(
				case " $* " in *" buffer "*) echo " --irq-fired" ;; esac)" ;;
			# The injected fault fires once per machine, on the Nth
			# record written by any CPU (N counts them all together):
			# nothing else may write records first.
			fault) echo "fault${T}$((120 * tscale))${T}. ./env && ./spe_buffer -t injected_fault_reported" ;;
			fault-stop) echo "fault-stop${T}$((120 * tscale))${T}. ./env && ./spe_buffer -t injected_fault_at_schedule_out" ;;
			# The package a kernel tree builds (tree-build.sh), run by
			# its own run_kselftest.sh, the module next to the tests.
			kselftest) echo "kselftest${T}$((1200 * tscale))${T}. ./env && mkdir -p /tmp/ks &&" \
				"tar -xf ./kselftest.tar -C /tmp/ks && cp ./arm_spe_perf.ko /tmp/ks/arm_spe/ &&" \
				"insmod ./arm_spe_perf.ko && cd /tmp/ks && ./run_kselftest.sh -c arm_spe" ;;
			*) echo "$t${T}$((240 * tscale))${T}. ./env && ./spe_$t$excl" ;;
			esac
		done
	} >"$dir/list"
	local files=(--file "$mod:/tests/" --file "$dir/env:/tests/env"
		--file "$here/module_load.sh:/tests/" --file "$here/platform.sh:/tests/")
	for t in discovery capture errors buffer validator observe; do
		files+=(--file "$out/bin/spe_$t:/tests/")
	done
	if [[ " $* " == *" kselftest "* ]]; then
		local ktar
		ktar=$("$here/tree-build.sh" "$out/tree" 2>"$dir/tree-build.log") || {
			echo "not ok - selftests-$name: the kernel tree's kselftest build failed ($dir/tree-build.log)"
			tot_f=$((tot_f + 1))
			return 0
		}
		files+=(--file "$ktar:/tests/kselftest.tar")
	fi
	vm_suite_boot "selftests-$name" "$dir/result" --kernel "$kid" --qemu "$qemu" \
		--cpu "$model${props:+,$props}" ${machine:+--machine "$machine"} \
		${append:+--append "$append"} ${bios:+--bios "$bios"} ${el2_shim:+--el2-shim "$el2_shim"} \
		${parts:+--spe-partitions "$parts"} \
		--expected-skips "$dir/expected-skips" --timeout $((600 * tscale)) --list "$dir/list" \
		--log "$dir/console.log" "${files[@]}"
}

# The probe matrix. The default boot runs everything; the others the tests
# whose behaviour depends on the parameters they change.
boot default "" validator module_load load discovery capture errors buffer observe platform unload
boot align1 "spe-align=1,spe-maxsize=128,spe-countsize=16,spe-interval=1024,spe-ernd=on" load discovery capture buffer
# Large records: 512-byte MaxSize, each padded to a 512-byte Align.
boot big "spe-maxsize=512,spe-align=512" load discovery capture buffer
# 512-byte MaxSize, 64-byte Align: padding below the limit (RHXSYK/RHLXGD).
boot big64 "spe-maxsize=512" load discovery buffer
boot v1p2 "spe-version=3" load discovery capture
boot v1 "spe-version=1,spe-fne=off" load discovery capture errors
boot nofilt "spe-version=3,spe-fe=off,spe-ft=off,spe-fl=off,spe-fne=off" load discovery errors capture
# with the board's tag memory: MTE for tasks, the PA packet's CH and PAT
machine=mte=on boot eft "spe-eft=on,spe-fds=on,spe-lds=on,spe-fpf=on,spe-crr=on,spe-pbt=on,spe-sme=on,spe-maxsize=128" load discovery capture errors
# The kernel at EL2 (VHE): PMSCR_EL1 accesses reach PMSCR_EL2, the PID is
# in CONTEXTIDR_EL2 (Context index 1), kernel samples are EL2 samples.
machine=virtualization=on boot vhe "" load discovery capture errors buffer observe platform unload
# KPTI forced on: the profiling buffer would be unmapped under user space,
# so the driver must refuse the device (module loaded, no PMU) and say so.
append=kpti=1 boot kpti "" load platform unload
# EL2 keeps the profiling buffer (MDCR_EL2.E2PB 0b00, set by the EL2 shim,
# one CPU) with the kernel at EL1: PMBIDR_EL1.P reads 1 and every other
# PMB* access would trap to the shim, which stops the guest. The driver
# must refuse the device in one line, touching nothing.
el2_shim=0 boot e2pb "" load platform unload
# The same firmware giving the buffer to EL1 (E2PB 0b11, PMSCR_EL2.PA and
# PCT set) with the virtual count 2^28 (0.27 s at 1 GHz) behind the
# physical one, as a hypervisor gives a guest: pct_enable must select the
# physical count.
el2_shim=3:268435456 boot e2pb-el1 "" load discovery capture platform unload
# EL3 present (secure=on), the kernel at Non-secure EL2 (VHE). With
# MDCR_EL3.NSPB 0b00 from the firmware, Secure state owns the buffer,
# PMBIDR_EL1.P reads 1 at EL2 and EL1, and every other SPE register access
# traps to EL3, where nothing handles it (the guest hangs and the boot
# fails). The kernel's own EL2 set-up and the driver must read PMBIDR_EL1
# and nothing else; the driver refuses the device in one line.
machine=virtualization=on,secure=on boot el3 "spe-el3-nspb=0" load platform unload
# The same with NSPB 0b11, what TF-A sets: the buffer belongs to
# Non-secure state and nothing traps, so the driver works as without EL3.
machine=virtualization=on,secure=on boot el3-ns "" load discovery capture buffer platform unload
# SPE on CPU 0 only (spe-cpu-mask=1). The DT's PPI, without partitions,
# names both CPUs: probed on CPU 0, the driver must check CPU 1 before
# touching its SPE registers (UNDEFINED there) and refuse the device in
# one line. The MADT gives CPU 1 no SPE interrupt: Linux makes no device.
machine=spe-cpu-mask=1 boot hetero "" load-cpu0 platform unload
bios=uefi append=acpi=force machine=spe-cpu-mask=1 boot hetero-acpi "" load platform unload
# The same machine with the DT a heterogeneous system should have: GICv3
# PPI partitions (CPU 0, CPU 1) and an SPE node for CPU 0's only. The
# driver makes one arm_spe_N serving CPU 0, which refuses events on CPU 1.
machine=spe-cpu-mask=1 spe_partitions=0 boot hetero-parts "" load-cpu0 partitions platform unload
# Both CPUs with SPE, each in its own partition with its own SPE node: two
# PMUs, one per CPU, each capturing on its CPU only.
spe_partitions="0 1" boot parts "" load partitions platform unload
# The kernel entered at EL2 but run at EL1 (nVHE KVM, its hyp code at
# EL2): the buffer is owned by EL1, kernel samples are EL1 samples.
machine=virtualization=on append=kvm-arm.mode=nvhe boot nvhe "" load discovery capture errors buffer observe platform unload
# UEFI (edk2) and ACPI: the driver probes the arm,spe-v1 device arm64's
# ACPI code makes from the MADT GICC entries' SPE interrupt (platform.sh
# reads the GICCs). The default tests but module_load.sh, which needs the
# DT node.
bios=uefi append=acpi=force boot acpi "" validator module_load load discovery capture errors buffer observe platform unload
# The kernel tree's way: export.sh puts these selftests into the kselftest
# part of linux-source-6.12, its own Makefile builds the package (gen_tar),
# and its run_kselftest.sh runs every program with the default boot's
# expectations; named only: make check runs it as its own stage.
named=1 boot ktree "" kselftest unload
# Mainline's driver, the same tests but this driver's own (mainline.tsv),
# named only: make check runs it as its own stage.
named=1 driver=mainline boot mainline "" load validator discovery capture errors buffer unload
# The Neoverse CPU models, FEAT_SPE as those cores implement it. N1 and V1
# have no FEAT_E0PD, so KASLR forces KPTI and the driver refuses the
# buffer, as on those machines: they boot with kpti=0, as their users do.
cpu=neoverse-n1 append=kpti=0 boot neoverse-n1 "" load discovery capture errors buffer platform unload
cpu=neoverse-v1 append=kpti=0 boot neoverse-v1 "" load discovery capture errors buffer platform unload
cpu=neoverse-n2 boot neoverse-n2 "" load discovery capture errors buffer platform unload
cpu=neoverse-v2 boot neoverse-v2 "" load discovery capture errors buffer platform unload
boot fault-s1 "spe-fault=s1:40" load fault discovery unload
boot fault-dl "spe-fault=dl:40" load fault unload
boot fault-ea "spe-fault=ea:40" load fault unload
# The first record faults, and it is still in flight when the task sleeps:
# pmu->stop is the first to see the fatal syndrome.
boot fault-stop "spe-fault=s1:1" load fault-stop unload

vm_suite_unknown_boots selftests "$want"
echo "selftests: $tot_p passed, $tot_f failed, $tot_s skipped"
[ "$tot_f" -eq 0 ]
