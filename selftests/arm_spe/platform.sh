#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Check that the guest booted the way the boot asked for, from the kernel's
# own reports, and that the driver took the path that boot implies. Run
# after the module is loaded (and, for the interrupt check, after tests
# that filled the buffer). The expectations come from the boot's env
# (vm-suite.sh derives them from the QEMU options and the command line):
#   SPE_EXP_BOOT_EL    1, or 2 when the firmware enters the kernel at EL2
#   SPE_EXP_KERNEL_EL  1, or 2 with VHE
#   SPE_EXP_KPTI       1: KPTI is on, so the driver must refuse the device
#   SPE_EXP_OWNER      el1; el2: EL2 keeps the buffer (MDCR_EL2.E2PB 0b00);
#                      secure: EL3 gives it to Secure state (MDCR_EL3.NSPB
#                      0b00). Not el1: the driver must refuse the device
#   SPE_EXP_FIRMWARE   dt or acpi: which description the driver probed
#   SPE_EXP_SPE_CPUS   bit n: CPU n has SPE (-M virt,spe-cpu-mask); when some
#                      CPU has not, a DT names it anyway (the driver must
#                      refuse the device without touching it) and an ACPI
#                      MADT gives it no SPE interrupt (Linux makes no device)
#   SPE_EXP_PARTITIONS the DT gives the GIC PPI partitions, these groups of
#                      CPUs (e.g. "0 1"), and one SPE node per partition
#   SPE_EXP_INTID      the INTID of PMBIRQ (a PPI) the firmware describes
#   SPE_EXP_PREEMPT_RT 1: a PREEMPT_RT kernel; PMBIRQ must stay a hard IRQ
# --irq-fired: tests before this one filled the buffer, so PMBIRQ must
# have fired. Exit status as kselftest: 0 pass, 1 fail.
fail() { echo "FAIL: $*"; exit 1; }
# Read once: a slow guest (the debug kernel under TCG) pays for each fork.
klog=$(dmesg | sed 's/^\[[^]]*\] //')
log() { printf '%s\n' "$klog"; }
has() { log | grep -q -e "$1"; }
say() { echo "kernel log: $(log | grep -m1 -e "$1")"; }
# refused WHY MSG: the driver refused the device with the one line WHY
# (a regex), the module stays loaded and registers no PMU; then PASS.
refused() {
	has "arm_spe_perf .*$1" || fail "the driver did not refuse the device: $2"
	say "$1"
	[ "$(log | grep -c 'arm_spe_perf ')" = 1 ] || fail "more than one line from the driver: $(log | grep 'arm_spe_perf ')"
	[ -e /sys/module/arm_spe_perf ] || fail "the module is not loaded"
	ls -d /sys/bus/event_source/devices/arm_spe_* 2>/dev/null && fail "an arm_spe PMU is registered: $2"
	echo "PASS"
	exit 0
}

boot_el=${SPE_EXP_BOOT_EL:?} kernel_el=${SPE_EXP_KERNEL_EL:?} kpti=${SPE_EXP_KPTI:?}
owner=${SPE_EXP_OWNER:?}
fw=${SPE_EXP_FIRMWARE:?} rt=${SPE_EXP_PREEMPT_RT:?} parts=${SPE_EXP_PARTITIONS:-}
spe_cpus=${SPE_EXP_SPE_CPUS:?} ncpus=${SPE_EXP_CPUS:?}
hetero=0
[ $((spe_cpus & ((1 << ncpus) - 1))) = $(((1 << ncpus) - 1)) ] || hetero=1

has "CPU: All CPU(s) started at EL$boot_el" || fail "the CPUs did not all start at EL$boot_el"
say "started at EL"
if [ "$boot_el" = 2 ]; then
	if [ "$kernel_el" = 2 ]; then
		has 'kvm \[[0-9]*\]: VHE mode initialized successfully' || fail "KVM does not say it runs VHE"
	else
		has 'kvm \[[0-9]*\]: Hyp nVHE mode initialized successfully' || fail "KVM does not say it runs nVHE"
	fi
	say "mode initialized successfully"
fi

# The vulnerabilities/meltdown file speaks of the CPU ("Not affected" on
# one without Meltdown even with KPTI forced on): the kernel log decides.
if [ "$kpti" = 1 ]; then
	has 'CPU features: detected: Kernel page table isolation (KPTI)' || fail "no KPTI in the CPU features"
	say "detected: Kernel page table isolation"
	# The buffer would be unmapped under user space: the driver refuses
	# the device (admin-guide.rst, KPTI), the module stays loaded.
	refused '(KPTI is on); boot with kpti=0 to use SPE; not probing' "KPTI is on"
fi
has 'Kernel page table isolation' && fail "KPTI is on, the boot did not ask for it"

# PMBIDR_EL1.P reads 1 at EL1, and at EL2 when Secure state owns the
# buffer (SPE supplement 4.3.1): the driver refuses the device, in one
# line, and the module stays loaded.
case $owner in
el2) refused 'owned by a higher exception level (PMBIDR_EL1.P=1).*not probing' "EL2 owns the buffer" ;;
secure) refused 'owned by a higher exception level (PMBIDR_EL1.P=1).*not probing' "Secure state owns the buffer" ;;
esac
# A DT PPI without partitions names every CPU: the driver must find the
# ones without SPE before it touches any SPE register (UNDEFINED there).
[ "$hetero$fw" = 1dt ] && [ -z "$parts" ] &&
	refused 'has no SPE (ID_AA64DFR0_EL1.PMSVer is 0).*not probing' "CPUs without SPE in the device's PPI"
# With partitions the GICv3 driver reports each one; every SPE node's
# device probes, its PPI naming only its partition's CPUs.
if [ -n "$parts" ]; then
	has 'GIC: PPI partition interrupt-partition-' || fail "the GIC reports no PPI partition"
	say 'GIC: PPI partition interrupt-partition-'
	n=$(log | grep -c 'arm_spe_perf .*: arm_spe_[0-9]*: SPE v1p')
	[ "$n" = "$(echo "$parts" | wc -w)" ] || fail "$n probed SPE devices for partitions '$parts'"
fi

# The MADT's GICC entries (ACPI 6.3, 5.2.12.14): the SPE overflow
# interrupt is the u16 at offset 78 of the 80-byte GICC (MADT revision 5
# or later); ACPI 6.5's 82-byte GICC adds the TRBE interrupt at offset 80.
# Linux makes the arm,spe-v1 device only if every GICC names the same one.
madt_gicc() {
	od -An -tu1 -v /sys/firmware/acpi/tables/APIC | awk '
		{ for (i = 1; i <= NF; i++) b[n++] = $i }
		END {
			print "revision", b[8]
			for (p = 44; p + 1 < n && b[p + 1] > 0; p += b[p + 1]) {
				if (b[p] != 11)
					continue
				l = b[p + 1]
				spe = l >= 80 ? b[p + 78] + 256 * b[p + 79] : "none"
				trbe = l >= 82 ? b[p + 80] + 256 * b[p + 81] : 0
				print "gicc", g++, l, spe, trbe
			}
		}'
}
intid=${SPE_EXP_INTID:?}
case $fw in
acpi)
	[ -r /sys/firmware/acpi/tables/APIC ] || fail "no ACPI MADT"
	[ -e /proc/device-tree ] && fail "a device tree next to ACPI"
	gicc=$(madt_gicc) || fail "cannot read the MADT"
	echo "MADT: $(echo "$gicc" | tr '\n' ' ')"
	rev=$(echo "$gicc" | awk '$1 == "revision" { print $2 }')
	[ "$rev" -ge 5 ] || fail "MADT revision $rev: no SPE overflow interrupt before revision 5"
	n=0
	while read -r what i len spe trbe; do
		[ "$what" = gicc ] || continue
		n=$((n + 1))
		[ "$len" -ge 80 ] || fail "GICC $i is $len bytes, too short for the SPE interrupt"
		want=$intid
		[ $(((spe_cpus >> i) & 1)) = 1 ] || want=0
		[ "$spe" = "$want" ] || fail "GICC $i: SPE overflow interrupt (offset 78) is $spe, not $want"
		[ "$trbe" = 0 ] || fail "GICC $i: a TRBE interrupt ($trbe, offset 80) on a machine without TRBE"
	done <<-EOT
	$gicc
	EOT
	[ "$n" = "${SPE_EXP_CPUS:?}" ] || fail "$n GICC entries, $SPE_EXP_CPUS CPUs"
	if [ "$hetero" = 1 ]; then
		# Linux makes the device only when every GICC names the same
		# interrupt: a heterogeneous MADT gets none, and the driver,
		# with nothing to probe, says nothing.
		[ -e /sys/bus/platform/devices/arm,spe-v1 ] && fail "an arm,spe-v1 device from a heterogeneous MADT"
		has 'arm,spe-v1: must be homogeneous' || fail "the kernel did not reject the heterogeneous MADT"
		say 'arm,spe-v1: must be homogeneous'
		log | grep 'arm_spe_perf ' && fail "the driver spoke with no device"
		ls -d /sys/bus/event_source/devices/arm_spe_* 2>/dev/null && fail "an arm_spe PMU is registered"
		echo "PASS"
		exit 0
	fi
	[ -e /sys/bus/platform/devices/arm,spe-v1 ] || fail "no arm,spe-v1 platform device from the MADT"
	[ -e /sys/bus/platform/devices/arm,trbe ] && fail "an arm,trbe platform device from the MADT"
	;;
dt)
	[ -e /proc/device-tree ] || fail "no device tree"
	;;
*) fail "SPE_EXP_FIRMWARE=$fw" ;;
esac

probe=$(log | grep -m1 'arm_spe_perf .*: arm_spe_[0-9]*: SPE v1p') || fail "the driver did not probe"
echo "kernel log: $probe"
pmu=${probe#*: } pmu=${pmu%%:*}
[ -d "/sys/bus/event_source/devices/$pmu" ] || fail "no PMU $pmu in /sys/bus/event_source/devices"
case $fw in
acpi)
	# arm64's ACPI code names the device it makes from the MADT GICC
	# entries "arm,spe-v1"; a DT node's device is named after the node.
	case $probe in *"arm_spe_perf arm,spe-v1: "*) ;; *) fail "not the ACPI (MADT) device" ;; esac
	;;
dt)
	case $probe in *"arm_spe_perf arm,spe-v1: "*) fail "the ACPI device on a DT boot" ;; esac
	;;
esac

if [ "$rt" = 1 ]; then
	case $(uname -v) in *PREEMPT_RT*) ;; *) fail "not a PREEMPT_RT kernel: $(uname -v)" ;; esac
	[ "$(cat /sys/kernel/realtime 2>/dev/null)" = 1 ] || fail "/sys/kernel/realtime is not 1"
else
	case $(uname -v) in *PREEMPT_RT*) fail "a PREEMPT_RT kernel: $(uname -v)" ;; esac
fi
echo "uname -v: $(uname -v)"
# PMBIRQ is a per-CPU interrupt: never force-threaded, not even by
# PREEMPT_RT; no irq/N thread may exist for it.
irq=${probe##*irq } irq=${irq%% *}
line=$(grep "^ *$irq:" /proc/interrupts) || fail "irq $irq is not in /proc/interrupts"
echo "interrupts: $line"
case $line in *arm_spe_perf*) ;; *) fail "irq $irq is not the driver's" ;; esac
n=0
for c in $(echo "$line" | awk '{ for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) print $i }'); do
	n=$((n + c))
done
[ "${1:-}" != --irq-fired ] || [ "$n" -gt 0 ] || fail "PMBIRQ (irq $irq) never fired"
t=$(grep -l "^irq/$irq-" /proc/[0-9]*/comm 2>/dev/null) && fail "irq $irq is threaded: $t"
echo "PASS"
