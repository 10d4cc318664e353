#!/bin/sh
# Guest side of `make run` (tools/perf/run-demo.sh): load the module, record
# PROG with perf record -e arm_spe//, show perf report, a few samples
# decoded by perf script and the raw trace's summary by spe-decode.
#   demo-guest.sh KEEP(0|1) PROG [ARGS...]
# With KEEP=1 it prints perf.data, gzip'ed and base64-encoded, between
# "@@PERFDATA-BEGIN@@" and "@@PERFDATA-END@@" lines for the host to decode.
keep=$1; shift
cd /tests || exit 1
export PATH=/tests:$PATH
hr() { printf '\n===== %s\n' "$*"; }
if ! ls -d /sys/bus/event_source/devices/arm_spe_* >/dev/null 2>&1; then
	insmod ./arm_spe_perf.ko || { echo "demo: insmod arm_spe_perf.ko failed"; dmesg | tail -n 5; exit 1; }
fi
pmu=$(basename "$(ls -d /sys/bus/event_source/devices/arm_spe_* | head -n1)")
echo "demo: arm_spe_perf loaded, PMU $pmu (type $(cat /sys/bus/event_source/devices/$pmu/type)); $(perf --version)"
d=/tmp/perf.data
hr "perf record -e arm_spe// -- $*"
perf record -o $d -e arm_spe// -- "$@" 2>&1
rc=$?
[ $rc -eq 0 ] || { echo "demo: perf record exited $rc"; exit 1; }
comm=$(basename "$1" | cut -c1-15)

hr "perf report --stdio --comm $comm --sort dso,sym (top entries per event)"
# perf prints its warnings (e.g. "AUX data lost N times out of M!": the
# AUX buffer was full and part of the run is missing) on stderr: show them.
perf report -i $d --stdio --comm "$comm" --sort dso,sym 2>/tmp/report.err >/tmp/report.txt
grep -v '^$' /tmp/report.err | sed 's/^/perf report: /'
awk '/^# Samples:/ { n = 0; print; next } /^#/ || /^$/ { next } n < 12 { print; n++ }' /tmp/report.txt
# The driver's own account of gaps (counters/ of the PMU).
c=/sys/bus/event_source/devices/$pmu/counters
if [ -r $c/truncated ]; then
	echo "driver: $(cat $c/aux_records) AUX records, $(cat $c/truncated) flagged TRUNCATED (data lost)$([ -r $c/gaps ] && echo ", $(cat $c/gaps) pauses for a full buffer")"
fi
top=$(awk '$(NF - 1) == "[.]" { print $NF; exit }' /tmp/report.txt)

if [ -n "$top" ]; then
	hr "perf script: samples in $top, the top user-space symbol (event, data address, PC, symbol)"
	perf script -i $d --comm "$comm" -S "$top" -F comm,tid,event,addr,ip,sym 2>/dev/null | head -n 10
else
	hr "perf script: the first samples of $comm (event, data address, PC, symbol)"
	perf script -i $d --comm "$comm" -F comm,tid,event,addr,ip,sym 2>/dev/null | head -n 10
fi

hr "spe-decode: the raw SPE trace (AUX data extracted from perf.data): two user-space records"
perf_aux_extract $d /tmp/aux.bin 2>&1
spe-decode --dump /tmp/aux.bin 2>/dev/null | awk '
	NF == 0 { if (user) { printf "%s\n", rec; if (++n == 2) exit } rec = ""; user = 0; next }
	/ PAD x[0-9]/ { next }
	/ADDR pc .* el0 / { user = 1 }
	{ rec = rec $0 "\n" }'
spe-decode --summary /tmp/aux.bin 2>&1 | awk '/^total latency histogram/ { exit } { print }'

if [ "$keep" = 1 ]; then
	echo "@@PERFDATA-BEGIN@@"
	gzip -c $d | base64
	echo "@@PERFDATA-END@@"
fi
# perf mem on the emulator's memory-hierarchy model: a pointer chase whose
# working set is far beyond the last-level cache, at perf mem's default
# load latency threshold (30 cycles); then one inside L2, whose loads take
# less than that, so with --ldlat 1.
if [ -x ./spe_model_workload ]; then
	for run in "65536 30" "256 1"; do
		set -- $run
		hr "perf mem record -t load --ldlat $2 -- spe_model_workload chase $1 0.3 (a pointer chase over $1 KiB): perf mem report -s mem,local_weight"
		perf mem record -t load --ldlat "$2" -o /tmp/mem.data -- ./spe_model_workload chase "$1" 0.3 >/dev/null 2>&1
		perf mem report -i /tmp/mem.data --stdio -s mem,local_weight 2>/dev/null | awk '
			/^# Samples: .* of event / { m = ($0 ~ /of event .memory.$/); if (m) print; next }
			m && /^# Overhead/ { print; next }
			m && /^ +[0-9.]+% / && n < 8 { print; n++ }'
	done
fi

hr "what the emulator distorts"
cat <<'EOT'
QEMU (TCG) emulates FEAT_SPE: which operations are sampled, their PCs,
addresses and operation types are real. Cache and TLB events, data
sources and latencies come from a model of the memory hierarchy fed by
the guest's own loads and stores while profiling (64 KiB L1D, 1 MiB L2,
8 MiB shared LLC, MESI between CPUs), with fixed costs per level (L1 4,
L2 11, LLC 38, peer core 52, DRAM 180 cycles; TLB walk 30) rather than
timing; mispredicted branches from a simple predictor (gshare, a branch
target buffer, a return stack). The CPU is -cpu max reporting a Neoverse
N1 MIDR, or the model PRESET named. Time runs at the emulator's speed.
The guest's vCPUs are
host threads: a vCPU preempted while holding a kernel lock makes the
other spin, so kernel time in spinlocks (queued_spin_lock_slowpath)
appears far larger than on hardware, mostly in page faults.
EOT
printf 'This CPU: MIDR_EL1 %s; %s\n' \
	"$(cat /sys/devices/system/cpu/cpu0/regs/identification/midr_el1 2>/dev/null || echo unknown)" \
	"$(dmesg | grep -o 'SPE v1p[0-9].*' | head -n1)"
echo "demo: done"
