# shellcheck shell=bash
# The driver mutants of `make mutants` (tools/mutants/run.sh): realistic
# mistakes a driver for FEAT_SPE makes, each one sed script applied to one
# file of a copy of drivers/. Sourced by run.sh.
#
#   m NAME FILE SUITES SED-SCRIPT
#
# SUITES, comma-separated, in the order they run (the first to fail kills
# the mutant): "sel:BOOT[+BOOT...]" selftests/arm_spe/vm-suite.sh with
# those boots of its probe matrix, "perf" tools/perf/vm-suite.sh, "stress"
# tools/stress/vm-suite.sh. The cheap ones, run by `make check` (run.sh
# --quick), are the NAMEs listed in "quick" below.
# Each script must change the file: run.sh reports a mutant whose script no
# longer applies (the driver changed under it) as an error. A statement
# under an if without braces goes with its if ({N;d}), or the if would
# guard the next statement.
#
# References: SPE supplement 3.6 (file 000) for the barriers, 3.4.1 and
# D17.7.4 (file 001) for the buffer window, 3.5 for PMBSR_EL1.
#
# An equivalent mutant (listed in "equivalent" at the end, the reason next
# to its line) changes nothing any reachable state of the driver can show:
# it runs like the others, and when it survives it is reported
# "equivalent" and not counted as a survivor. If one is ever killed, the
# reason given for it was wrong: it counts as killed and the claim goes.

# spe_hw.h: the drain (IRQ handler) and the stop sequence
drain='/^static inline void spe_drain(void)/,/^}/'
stop='/^static inline void spe_disable_and_drain_local(void)/,/^}/'
m drain-no-psb drivers/spe_hw.h sel:default "$drain{/spe_psb_csync();/d}"
m drain-no-dsb drivers/spe_hw.h sel:default "$drain{/dsb(nsh);/d}"
m drain-no-isb drivers/spe_hw.h sel:default "$drain{/isb();/d}"
m stop-no-psb drivers/spe_hw.h sel:default "$stop{/spe_psb_csync();/d}"
m stop-no-dsb drivers/spe_hw.h sel:default "$stop{/dsb(nsh);/d}"
m stop-no-isb-after-pmscr drivers/spe_hw.h sel:default \
	"$stop{/spe_write(0, PMSCR);/{n;/isb();/d}}"
m stop-no-isb-at-end drivers/spe_hw.h sel:default \
	"$stop{/spe_write(0, PMBLIMITR);/{n;/isb();/d}}"
m stop-order-swapped drivers/spe_hw.h sel:default \
	"$stop{s/spe_write(0, PMSCR);/spe_write(0, @@);/;s/spe_write(0, PMBLIMITR);/spe_write(0, PMSCR);/;s/spe_write(0, @@);/spe_write(0, PMBLIMITR);/}"
m stop-no-drain-at-all drivers/spe_hw.h sel:default \
	"$stop{/spe_psb_csync();/d;/dsb(nsh);/d}"

# spe_irq.c: the management interrupt
m irq-no-isb-before-clear drivers/spe_irq.c sel:default \
	'/^\tisb();$/{N;s/^\tisb();\n\tspe_write(0, PMBSR);/\tspe_write(0, PMBSR);/}'
# Equivalent: the level of PMBIRQ may lag the PMBSR_EL1 write until the
# next context synchronization event, and Linux's GICv3 driver has one
# (the ISB after its ICC_EOIR1_EL1 write) before interrupts are unmasked;
# a level-sensitive PPI whose line is low by then is not pending (GICv3
# 4.1.2), so the handler is never entered again for it.
m irq-no-isb-after-clear drivers/spe_irq.c sel:default \
	'/^\tspe_write(0, PMBSR);$/{n;/isb();/d}'
m pmbsr-cleared-before-window drivers/spe_irq.c sel:default \
	's/^\t\tret = spe_aux_begin(spe, h, event);/\t\tspe_write(0, PMBSR);\n\t\tisb();\n&/'
m irq-stop-without-disable drivers/spe_irq.c sel:fault-s1 \
	'/^static void spe_irq_stop_event/,/^}/{/spe_disable_and_drain_local();/d}'
# No room at a buffer-full event: sampling left on while the event pauses.
# Equivalent: the failed spe_aux_begin() has disabled the buffer
# (PMBLIMITR_EL1.E = 0), so nothing is sampled whatever PMSCR_EL1 says
# (ProfilingBufferEnabled() is false), and the resume programs every
# register again; only the few kernel operations between its PMBLIMITR_EL1
# write and the ISB could see the new window with older filters, which
# the strict model does not tell apart.
m pause-without-disable drivers/spe_irq.c sel:default \
	'/^\t\t\t \* the interval resumes where it paused (3.1.3)./,/spe_pause(c, event/{/spe_disable_and_drain_local();/d}'
m coll-ignored drivers/spe_irq.c sel:default \
	'/^\t\t\*aux_flags |= PERF_AUX_FLAG_COLLISION;$/d'
# Equivalent: the restart path (no fault, no EA) sees DL = 1 only after a
# 3.6.1 event (a careless disable, which the strict model reports on its
# own) or a DL left in PMBSR_EL1 (a buffer full event keeps DL, 3.5.2);
# the driver clears the whole register at CPU online, at stop and in the
# handler, so no reachable state gets there with DL set.
m dl-restart-saved-pointer drivers/spe_irq.c sel:fault-dl \
	's/^\t\tret = spe_aux_begin(spe, h, event);/\t\tret = SPE_FIELD_GET(SPE_PMBSR_DL, pmbsr) ? 0 : spe_aux_begin(spe, h, event);/'
m restart-after-ea drivers/spe_irq.c sel:fault-ea \
	's/why = ea ? "stage 1 external abort" : "stage 1 fault";/why = ea ? NULL : "stage 1 fault";/;/^\t\tif (!why)$/{N;/external abort/d}'
m fault-restarted drivers/spe_irq.c sel:fault-s1 \
	's/why = ea ? "stage 1 external abort" : "stage 1 fault";/why = NULL;/'

# spe_pmu.c: start/stop, the window, the registers
# Equivalent, both: the filter, interval and buffer writes and the
# PMSCR_EL1 enable all reach profiling at the same context synchronization
# event (3.6: the one after PMSCR_EL1, or else the exception return to the
# profiled code), and no sampled operation runs between the two.
m program-no-isb-before-enable drivers/spe_pmu.c sel:default \
	'/^\tisb();$/{N;s/^\tisb();\n\tspe_write(hwc->config, PMSCR);/\tspe_write(hwc->config, PMSCR);/}'
m program-no-isb-after-enable drivers/spe_pmu.c sel:default \
	'/^\tspe_write(hwc->config, PMSCR);$/{n;/isb();/d}'
m stop-last-buffer-lost drivers/spe_pmu.c sel:default \
	's/^\t\tspe_aux_end(spe, &c->handle, aux_flags, pmbsr);/\t\tperf_aux_output_end(\&c->handle, 0);/'
# A fatal syndrome that pmu->stop is the first to see does not end the event:
# the next pmu->add programs a new window after the fault.
m stop-fatal-not-disabled drivers/spe_pmu.c sel:fault-stop \
	'/^\tif (act == SPE_ACT_STOP)$/{N;/spe_event_disable_pending(event);/d}'
m stop-pmbsr-not-cleared drivers/spe_pmu.c sel:default \
	'/^\tif (pmbsr) {$/,/^\t}$/{/spe_write(0, PMBSR);/d}'
m pad-wrong-byte drivers/spe_pmu.c sel:default \
	's/memset(buf->base + head, SPE_PAD_BYTE, len);/memset(buf->base + head, 0xff, len);/'
# Equivalent: every record is a multiple of PMBIDR_EL1.Align and every
# pad ends on a page boundary, so the head is aligned in every reachable
# state and the alignment branch is never taken.
m window-not-aligned drivers/spe_pmu.c sel:default \
	's/^\t\tif (!IS_ALIGNED(head, spe->align)) {/\t\tif (0) {/'
m window-past-tail drivers/spe_pmu.c sel:default \
	's/^\t\t\tlimit = round_down(tail, PAGE_SIZE);/\t\t\tlimit = round_up(tail, PAGE_SIZE);/'
m snapshot-head-wrong drivers/spe_pmu.c sel:default \
	's/h->head = off <= spe_buf_size(buf) ? off : head;/h->head = head;/'
m jitter-dropped drivers/spe_pmu.c sel:default \
	'/if (attr->config & SPE_CFG_JITTER)$/{N;d}'
m pct-dropped drivers/spe_pmu.c sel:e2pb-el1 \
	'/if (attr->config & SPE_CFG_PCT)$/{N;d}'
m fe-not-set drivers/spe_pmu.c sel:default '/^\tif (attr->config1)$/{N;/FE_MASK/d}'
m fne-not-set drivers/spe_pmu.c sel:default '/^\tif (spe_attr_config3(attr))$/{N;/FNE_MASK/d}'
m fl-not-set drivers/spe_pmu.c sel:default '/^\tif (attr->config2)$/{N;/FL_MASK/d}'
m type-filter-ld-st-swapped drivers/spe_pmu.c sel:default \
	's/reg |= SPE_PMSFCR_LD_MASK;/reg |= SPE_PMSFCR_@@_MASK;/;s/reg |= SPE_PMSFCR_ST_MASK;/reg |= SPE_PMSFCR_LD_MASK;/;s/SPE_PMSFCR_@@_MASK/SPE_PMSFCR_ST_MASK/'
m min-latency-ignored drivers/spe_pmu.c sel:default \
	's/spe_write(attr->config2, PMSLATFR);/spe_write(0, PMSLATFR);/'
m pa-not-privileged drivers/spe_pmu.c sel:default \
	's/if (pmscr & (SPE_PMSCR_PA_MASK | SPE_PMSCR_PCT_MASK)) {/if (pmscr \& SPE_PMSCR_PCT_MASK) {/'
m period-not-clamped drivers/spe_pmu.c sel:default \
	'/^\tif (period < SPE_PERIOD_MIN)$/{N;d}'
m exclude-user-kernel-swapped drivers/spe_pmu.c sel:default \
	's/if (!attr->exclude_user)$/if (!attr->exclude_@@)/;s/if (!attr->exclude_kernel)$/if (!attr->exclude_user)/;s/exclude_@@/exclude_kernel/'
m gap-mark-disables drivers/spe_pmu.c sel:default \
	'/^static int spe_aux_mark_gap/,/^}/{/spe_event_keep_enabled(event);/d}'

# spe_compat.h / spe_main.c
m cpu0-pending-disable drivers/spe_compat.h sel:fault-ea \
	's/WRITE_ONCE(event->pending_disable, 1);/WRITE_ONCE(event->pending_disable, smp_processor_id());/'
# PMBIDR_EL1.P ignored everywhere: the driver programs a buffer EL2 owns
# (its PMB* accesses trap to the e2pb boot's EL2 shim, which stops the guest)
m owner-p-ignored drivers/spe_main.c sel:e2pb \
	's/if (SPE_FIELD_GET(SPE_PMBIDR_P, reg)) {/if (0) {/;s/if (SPE_FIELD_GET(SPE_PMBIDR_P, pmbidr))$/if (0)/'
# A CPU without SPE, named by the DT, is read like the others (UNDEFINED:
# an oops in the hetero boot)
m cpu-without-spe-touched drivers/spe_main.c sel:hetero \
	'/^static enum spe_cpu_kind spe_cpu_kind_local/,/^}/{/if (ver == SPE_PMSVER_NI)/,+3d}'
# The PPI's partition ignored: the device serves every CPU, the one
# without SPE included (the parts boots' PMUs must each serve one CPU)
m partition-affinity-ignored drivers/spe_compat.h sel:parts+hetero-parts \
	's/^\tif (irq_get_percpu_devid_partition(irq, mask))$/\tcpumask_copy(mask, cpu_possible_mask);\n\tif (0)/'
# An event on a CPU the device does not serve accepted (perf core does
# not check a PMU's cpumask for it)
m event-cpu-not-checked drivers/spe_pmu.c sel:parts \
	's/if (event->cpu >= 0 \&\& !cpumask_test_cpu(event->cpu, \&spe->supported_cpus))/if (0)/'
m hotplug-no-reset drivers/spe_main.c stress \
	'/^static int spe_cpu_online/,/^}/{/spe_reset_local();/d}'

# Last: PMBIRQ stays asserted, the guest hangs until the host's timeout
m pmbsr-not-cleared drivers/spe_irq.c sel:default '/^\tspe_write(0, PMBSR);$/d'

# The ones `make check` runs (one boot each, the default selftests boot):
# a missing PSB CSYNC, DSB and ISB and the disable order.
# shellcheck disable=SC2034 # read by run.sh
quick="drain-no-psb stop-no-dsb drain-no-isb stop-order-swapped"
# shellcheck disable=SC2034 # read by run.sh
equivalent="irq-no-isb-after-clear dl-restart-saved-pointer program-no-isb-before-enable
program-no-isb-after-enable window-not-aligned pause-without-disable"
