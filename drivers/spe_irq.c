// SPDX-License-Identifier: GPL-2.0-only
/*
 * spe_irq.c - the Profiling Buffer management interrupt (PMBIRQ): decode
 * PMBSR_EL1 (SPE supplement 3.5 and 4.3.4), hand the data to perf with the
 * right AUX flags, and either restart profiling in a new window or stop
 * the event. PMBIRQ is a level interrupt driven by PMBSR_EL1.S (3.5), so
 * every path that finds S set clears it before returning: there is no
 * interrupt storm whatever the syndrome. This file also defines the
 * tracepoints (CREATE_TRACE_POINTS).
 */
#define pr_fmt(fmt) "arm_spe_perf: " fmt

#include <linux/interrupt.h>
#include <linux/perf_event.h>
#include <linux/printk.h>
#include <linux/smp.h>

#include "spe.h"
#include "spe_compat.h"
#include "spe_hw.h"

#define CREATE_TRACE_POINTS
#include "spe_trace.h"

/*
 * Restarts in a row that produced no data. A buffer full event always
 * follows at least one record (the window holds one, RHXSYK), so this
 * only trips on broken hardware or emulation: stop instead of looping.
 */
#define SPE_MAX_IDLE_RESTARTS	8

/*
 * Decide what a PMBSR_EL1 value means. Sets PERF_AUX_FLAG_* in @aux_flags,
 * counts the event and, when the event has to stop, prints one
 * ratelimited line saying why. Never touches the hardware.
 */
enum spe_action spe_decode_pmbsr(struct spe_pmu *spe, u64 pmbsr,
				 u32 *aux_flags)
{
	unsigned int ec = SPE_FIELD_GET(SPE_PMBSR_EC, pmbsr);
	unsigned int mss = SPE_FIELD_GET(SPE_PMBSR_MSS, pmbsr);
	bool ea = SPE_FIELD_GET(SPE_PMBSR_EA, pmbsr);
	const char *why = NULL;

	/*
	 * COLL is sticky and independent of S (3.1.4). Counted here, where
	 * every PMBSR_EL1 value is decoded, so discard mode (no AUX
	 * transaction to flag) counts it too.
	 */
	if (SPE_FIELD_GET(SPE_PMBSR_COLL, pmbsr)) {
		*aux_flags |= PERF_AUX_FLAG_COLLISION;
		spe_stat_add(spe, SPE_STAT_COLLISIONS, 1);
	}

	if (!SPE_FIELD_GET(SPE_PMBSR_S, pmbsr))
		return SPE_ACT_NONE;

	/*
	 * DL: PMBPTR_EL1 is not just after the last complete record (3.5):
	 * the tail of the data is a partial record. The window is restarted
	 * at a new, aligned pointer, which D17.7.4 allows after DL.
	 */
	if (SPE_FIELD_GET(SPE_PMBSR_DL, pmbsr)) {
		*aux_flags |= PERF_AUX_FLAG_PARTIAL;
		spe_stat_add(spe, SPE_STAT_DATA_LOSS, 1);
	}

	switch (ec) {
	case SPE_PMBSR_EC_BUF:
		switch (SPE_FIELD_GET(SPE_PMBSR_BSC, mss)) {
		case SPE_PMBSR_BSC_FULL:
			/* 3.5.2: PMBPTR is the byte after the last record. */
			spe_stat_add(spe, SPE_STAT_FULL, 1);
			break;
		case SPE_PMBSR_BSC_NONE:
			/*
			 * No buffer condition: DL alone (records lost while
			 * the buffer was being disabled, 3.6.1) or EA.
			 */
			break;
		default:
			why = "unknown buffer status code";
		}
		break;
	case SPE_PMBSR_EC_FAULT_S1:
		/*
		 * 3.5.3/3.5.4: a fault or synchronous external abort on the
		 * buffer, which is kernel memory mapped for the whole life of
		 * the event: retrying cannot help. FSC is in MSS[5:0].
		 */
		why = ea ? "stage 1 external abort" : "stage 1 fault";
		break;
	case SPE_PMBSR_EC_FAULT_S2:
		why = ea ? "stage 2 external abort" : "stage 2 fault";
		break;
	case SPE_PMBSR_EC_GPC:
		why = "granule protection check fault";
		break;
	case SPE_PMBSR_EC_IMPDEF:
		why = "IMPLEMENTATION DEFINED event";
		break;
	default:
		why = "unknown event class";
	}

	/*
	 * EA: the buffer, and PMBPTR_EL1 if reported asynchronously, cannot
	 * be trusted (3.5.4); profiling cannot be restarted from the saved
	 * pointers (D17.7.4).
	 */
	if (ea) {
		spe_stat_add(spe, SPE_STAT_EXT_ABORTS, 1);
		if (!why)
			why = "external abort";
	} else if (why) {
		spe_stat_add(spe, SPE_STAT_FAULTS, 1);
	}

	if (!why)
		return SPE_ACT_RESTART;

	pr_err_ratelimited("CPU%d: %s writing the profiling buffer (PMBSR_EL1 0x%llx: EC 0x%x, MSS 0x%x, DL %llu, EA %d); stopping the event\n",
			   smp_processor_id(), why, pmbsr, ec, mss,
			   SPE_FIELD_GET(SPE_PMBSR_DL, pmbsr), ea);
	*aux_flags |= PERF_AUX_FLAG_TRUNCATED;
	return SPE_ACT_STOP;
}

/*
 * Stop @event for good on this CPU, from the interrupt: profiling and the
 * buffer off (the caller has handed the data to perf), the interval
 * counter saved as spe_stop() does, and perf core asked to turn the event
 * off (spe_event_disable_pending(): its own request does nothing on CPU 0
 * and waits for a schedule-out that a CPU-wide event never has).
 */
static void spe_irq_stop_event(struct spe_cpu *c, struct perf_event *event)
{
	spe_disable_and_drain_local();
	c->event = NULL;
	if (!event)
		return;
	/* PMSICR_EL1 holds the interval count left (3.1.3). */
	local64_set(&event->hw.period_left, spe_read(PMSICR));
	event->hw.state |= PERF_HES_STOPPED | PERF_HES_UPTODATE;
	spe_event_disable_pending(event);
}

irqreturn_t spe_pmu_irq_handler(int irq, void *dev)
{
	struct spe_cpu *c = dev;
	struct spe_pmu *spe = c->spe;
	struct perf_output_handle *h = &c->handle;
	struct perf_event *event = c->event;
	enum spe_action act;
	u32 aux_flags = 0;
	u64 pmbsr, ptr;
	bool had_aux;

	/*
	 * SPE supplement 3.6: PSB CSYNC synchronizes the profiling operations
	 * (the records are written and the indirect writes to PMBPTR_EL1 and
	 * PMBSR_EL1 are made), the DSB waits for the record writes to
	 * complete (and for an external abort to be reported), and the ISB
	 * is the explicit synchronization a direct read needs to observe
	 * those indirect writes. Only then are PMBSR/PMBPTR read.
	 */
	spe_drain();
	pmbsr = spe_read(PMBSR);
	ptr = spe_read(PMBPTR);

	if (!SPE_FIELD_GET(SPE_PMBSR_S, pmbsr)) {
		/* Level interrupt already cleared, e.g. by spe_stop(). */
		spe_stat_add(spe, SPE_STAT_SPURIOUS, 1);
		trace_spe_irq(smp_processor_id(), pmbsr, ptr, SPE_ACT_NONE);
		return IRQ_NONE;
	}
	spe_stat_add(spe, SPE_STAT_IRQS, 1);

	act = spe_decode_pmbsr(spe, pmbsr, &aux_flags);
	had_aux = perf_get_aux(h);
	if (!event || (!had_aux && !(event->attr.config & SPE_CFG_DISCARD)))
		act = SPE_ACT_STOP;	/* nobody to deliver to */
	trace_spe_irq(smp_processor_id(), pmbsr, ptr, act);

	if (act == SPE_ACT_STOP) {
		/*
		 * While PMBSR.S is 1 profiling and the buffer are disabled
		 * (3.5); turn them off for good before clearing S, so that
		 * clearing it does not restart anything. The drain in
		 * spe_irq_stop_event() finds nothing new: sampling stopped
		 * when S was set.
		 */
		if (had_aux)
			spe_aux_end(spe, h, aux_flags, pmbsr);
		spe_irq_stop_event(c, event);
	} else {
		u64 size = had_aux ? spe_aux_end(spe, h, aux_flags, pmbsr) : 1;
		int ret;

		c->idle_restarts = size ? 0 : c->idle_restarts + 1;

		/*
		 * Reprogram PMBPTR/PMBLIMITR while S is still 1, i.e. while
		 * the buffer is disabled (3.5). D17.7.4: after a buffer full
		 * event profiling cannot resume from the saved pointers, the
		 * new window obeys RHXSYK/RHLXGD like a first configuration.
		 */
		ret = spe_aux_begin(spe, h, event);
		if (!ret && c->idle_restarts > SPE_MAX_IDLE_RESTARTS) {
			/* No progress: end the new transaction, truncated. */
			if (perf_get_aux(h))
				spe_aux_truncate(spe, h);
			ret = -EIO;
		}
		if (ret == -EIO) {
			/* Stop and have perf turn the event off. */
			spe_irq_stop_event(c, event);
		} else if (ret) {
			/*
			 * No room: pause until the reader frees some (see
			 * spe_pause()). Sampling off before S is cleared;
			 * the interval resumes where it paused (3.1.3).
			 */
			spe_disable_and_drain_local();
			local64_set(&event->hw.period_left, spe_read(PMSICR));
			spe_pause(c, event, ret == -ENOSPC);
		}
	}

	/*
	 * The ISB makes the new buffer registers visible to the profiling
	 * operations that follow the restart (3.6: context synchronization
	 * event between a direct write and later indirect reads). Clearing
	 * PMBSR_EL1 (S = 0, and COLL) then restarts profiling, if still
	 * enabled, and deasserts PMBIRQ (3.5); the last ISB makes that take
	 * effect before the interrupt is completed at the GIC.
	 */
	isb();
	spe_write(0, PMBSR);
	isb();
	return IRQ_HANDLED;
}
