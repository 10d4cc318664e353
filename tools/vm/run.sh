#!/usr/bin/env bash
# Boot a test guest under qemu-system-aarch64 (-M virt, TCG) and report its
# tests in TAP, ending with "SUITE: N passed, N failed, N skipped".
#
#   run.sh --list LIST [--suite NAME] [--kernel ID] [--qemu PATH]
#          [--cpu CPU] [--smp N] [--mem MB] [--timeout S] [--append ARGS]
#          [--machine OPTS] [--bios uefi|FILE] [--el2-shim E2PB] [--log FILE]
#          [--expected-skips FILE] [--spe-partitions GROUPS]
#          [--file SRC:DST]...
#
# LIST: one test a line, NAME<TAB>TIMEOUT<TAB>COMMAND (see guest/init).
# --kernel: a series id of tools/kernels/series.conf (default: the default).
# --qemu: the emulator; default $QEMU, else the system's.
# --machine: extra -M virt options, e.g. virtualization=on (kernel at EL2).
# --bios: firmware to boot the kernel through (-bios); "uefi" is Debian's
#   edk2 build (qemu-efi-aarch64), which loads -kernel/-initrd over fw_cfg
#   and hands the kernel ACPI tables (and a DT; acpi=force picks ACPI).
# --el2-shim E2PB[:CNTVOFF]: boot through tools/vm/el2-shim, an EL2
#   firmware that keeps EL2 (MDCR_EL2.E2PB = E2PB, 0 or 3; CNTVOFF_EL2,
#   default 0) and enters the kernel at EL1; implies virtualization=on and
#   one CPU.
# --expected-skips: the skip manifest (parse_log.py): any other skip fails.
# --spe-partitions GROUPS: boot with QEMU's DTB rewritten to give the GIC
#   PPI partitions, one per group of CPUs ("0 1": CPU 0 and CPU 1 apart;
#   "0,1": both together), and one SPE node per partition
#   (ppi-partitions.py); DT boots only.
# On a hang the vCPUs' registers are saved to LOG.regs before QEMU is
# stopped (through the HMP monitor socket).
# The guest's own result lines decide: a panic, a hang past --timeout, a
# missing result line, any splat in the kernel log (printk.time=1 is forced,
# and the guest's dump of the log is read whole) or no case passing is a
# failure, and so is QEMU's non-zero exit status even after the guest's
# last line (parse_log.py). Exit status 1 on any failure.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
SPE_LOG_TAG=vm
# shellcheck source=../lib/apt.sh
. "$here/../lib/apt.sh"

suite=vm list="" skips="" kid="" qemu=${QEMU:-} cpu=max smp=2 mem=1024 tmo=300 append="" log="" machine="" bios=""
shim="" parts=""
files=()
while [ $# -gt 0 ]; do
	case $1 in
	--list) list=$2; shift ;;
	--suite) suite=$2; shift ;;
	--kernel) kid=$2; shift ;;
	--qemu) qemu=$2; shift ;;
	--cpu) cpu=$2; shift ;;
	--smp) smp=$2; shift ;;
	--mem) mem=$2; shift ;;
	--timeout) tmo=$2; shift ;;
	--append) append=$2; shift ;;
	--machine) machine=$2; shift ;;
	--bios) bios=$2; shift ;;
	--el2-shim) shim=$2; shift ;;
	--log) log=$2; shift ;;
	--expected-skips) skips=$2; shift ;;
	--spe-partitions) parts=$2; shift ;;
	--file) files+=("$2"); shift ;;
	-h|--help) sed -n '2,32s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) spe_die "unknown option $1 (see --help)" ;;
	esac
	shift
done
[ -n "$list" ] && [ -f "$list" ] || spe_die "--list FILE is required and must exist"
[ -n "$kid" ] || kid=$("$top/tools/kernels/fetch.sh" --default)
if [ -z "$qemu" ]; then
	spe_need_host_pkgs qemu-system-arm
	qemu=$(command -v qemu-system-aarch64)
fi
[ -x "$qemu" ] || spe_die "no QEMU at '$qemu'"
fw=()
if [ "$bios" = uefi ]; then
	spe_need_host_pkgs qemu-efi-aarch64
	bios=/usr/share/qemu-efi-aarch64/QEMU_EFI.fd
fi
if [ -n "$bios" ]; then
	[ -f "$bios" ] || spe_die "no firmware at '$bios'"
	fw=(-bios "$bios")
fi
env_file=$("$top/tools/kernels/fetch.sh" "$kid")
# shellcheck disable=SC1090
. "$env_file"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
[ -n "$log" ] || log=$top/build/vm/$suite.log
mkdir -p "$(dirname "$log")"
"$here/initramfs.sh" "$work/initrd.gz" "$list" "${files[@]}"

boot=(-kernel "$KIMAGE" -initrd "$work/initrd.gz")
if [ -n "$parts" ]; then
	[ -z "$bios$shim" ] || spe_die "--spe-partitions rewrites QEMU's DTB: not with --bios or --el2-shim"
	command -v dtc >/dev/null || spe_need_host_pkgs device-tree-compiler
	# The DTB QEMU would give this machine, then partitioned
	"$qemu" -M "virt,gic-version=3${machine:+,$machine},dumpdtb=$work/virt.dtb" -cpu "$cpu" \
		-smp "$smp" -m "$mem" -nographic -nic none </dev/null >"$work/dumpdtb.log" 2>&1 ||
		spe_die "QEMU did not dump its DTB: $(cat "$work/dumpdtb.log")"
	python3 "$here/ppi-partitions.py" "$work/virt.dtb" "$work/parts.dtb" "$parts" ||
		spe_die "could not partition the DTB"
	boot+=(-dtb "$work/parts.dtb")
fi
if [ -n "$shim" ]; then
	cntvoff=0
	case $shim in *:*) cntvoff=${shim#*:} shim=${shim%%:*} ;; esac
	case $shim in 0 | 3) ;; *) spe_die "--el2-shim takes MDCR_EL2.E2PB, 0 or 3" ;; esac
	case $cntvoff in '' | *[!0-9]*) spe_die "--el2-shim E2PB:CNTVOFF takes a decimal CNTVOFF" ;; esac
	[ "$mem" -ge 1024 ] || spe_die "--el2-shim needs --mem 1024 or more"
	# arm64 Image magic "ARM\x64" at offset 56 (booting.rst): the shim
	# jumps to it, it cannot decompress one.
	[ "$(od -An -c -j56 -N4 "$KIMAGE" | tr -d ' ')" = 'ARMd' ] ||
		spe_die "--el2-shim: $KIMAGE is not an uncompressed arm64 Image"
	# RAM at 0x40000000: the DTB (QEMU's, for an ELF kernel) at its base,
	# the Image 2 MiB in, the initrd at 512 MiB, the shim in the top
	# 16 MiB, which mem= keeps from the kernel.
	ram=0x40000000 kaddr=0x40200000 iaddr=0x60000000
	shim_base=$(printf '0x%x' $((ram + (mem - 16) * 1024 * 1024)))
	command -v aarch64-linux-gnu-gcc >/dev/null ||
		spe_need_host_pkgs gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu
	# One ELF holds the shim, the Image and the initrd, each at its place
	# (QEMU's generic loader device may not be built in).
	aarch64-linux-gnu-gcc -nostdlib -nostartfiles -static -x assembler-with-cpp \
		-DSHIM_E2PB="$shim" -DSHIM_CNTVOFF="$cntvoff" -DSHIM_KERNEL="$kaddr" -DSHIM_DTB="$ram" \
		-DSHIM_IMAGE_FILE="\"$KIMAGE\"" -DSHIM_INITRD_FILE="\"$work/initrd.gz\"" \
		-Wl,--section-start=.text="$shim_base" -Wl,--section-start=.kernel="$kaddr" \
		-Wl,--section-start=.initrd="$iaddr" -Wl,--build-id=none -Wl,--no-warn-rwx-segments \
		-T "$here/el2-shim/link.ld" "$here/el2-shim/el2-shim.S" -o "$work/el2-shim.elf" ||
		spe_die "could not build the EL2 shim"
	case ,$machine, in *,virtualization=on,*) ;; *) machine=${machine:+$machine,}virtualization=on ;; esac
	smp=1
	boot=(-kernel "$work/el2-shim.elf")
	append="$append mem=$((mem - 16))M initrd=$iaddr,$(stat -c %s "$work/initrd.gz")"
fi

spe_log "$suite: booting $KVER on $(basename "$qemu") -cpu $cpu${shim:+ through the EL2 shim (E2PB $shim)} (timeout ${tmo}s)"
start=$(date +%s)
# The HMP monitor listens on a socket so that, when the guest hangs, the
# watchdog can save every vCPU's registers (where each one is stuck)
# before it stops QEMU: $log.regs.
mon=$work/monitor.sock
regs=$log.regs
rm -f "$regs"
set +e
"$qemu" -M virt,gic-version=3${machine:+,$machine} -cpu "$cpu" -smp "$smp" -m "$mem" \
	-nographic -nic none -no-reboot -monitor "unix:$mon,server=on,wait=off" -serial stdio "${fw[@]}" \
	"${boot[@]}" \
	-append "console=ttyAMA0 panic=-1 loglevel=4 printk.time=1 $append" \
	</dev/null >"$log" 2>&1 &
qpid=$!
(
	# Not attached to our stdout: nothing of it may outlive run.sh's output.
	sleep "$tmo" &
	sp=$!
	trap 'kill "$sp" 2>/dev/null; exit 0' TERM
	wait "$sp"
	touch "$work/timed-out"
	python3 "$here/monitor.py" "$mon" "info cpus" "info registers -a" >"$regs" 2>&1
	kill "$qpid" 2>/dev/null
	sleep 5 &
	sp=$!
	wait "$sp"
	kill -9 "$qpid" 2>/dev/null
) </dev/null >/dev/null 2>&1 &
wdog=$!
wait "$qpid"
qrc=$?
kill "$wdog" 2>/dev/null
wait "$wdog" 2>/dev/null
set -e
spe_log "$suite: guest ran $(($(date +%s) - start))s, log in ${log#"$top/"}"
note=""
if [ -e "$work/timed-out" ]; then
	note="the host stopped the guest after ${tmo}s (hang); vCPU registers in ${regs#"$top/"}"
elif [ "$qrc" -ne 0 ]; then
	note="QEMU exited with status $qrc"
fi
args=(--suite "$suite" --list "$list" --qemu-status "$qrc")
[ -n "$note" ] && args+=(--host-note "$note")
[ -n "$skips" ] && args+=(--expected-skips "$skips")
python3 "$here/parse_log.py" "$log" "${args[@]}"
