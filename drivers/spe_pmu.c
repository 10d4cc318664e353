// SPDX-License-Identifier: GPL-2.0-only
/*
 * spe_pmu.c - the perf side of arm_spe_perf: event validation
 * (event_init), add/del/start/stop, the AUX buffer (setup_aux/free_aux)
 * and the placement of the hardware write window inside it (normal,
 * snapshot and discard modes), and PMU registration.
 *
 * Placement rules, from the Arm ARM D17.7.4 (file 001) and the SPE
 * supplement 3.4.1/3.5.2 (file 000):
 *  - RHLXGD: PMBPTR_EL1 must be aligned to 2^PMBIDR_EL1.Align when the
 *    buffer is configured; the gap is filled with Padding packets.
 *  - RHXSYK: when profiling is enabled PMBPTR_EL1 must be at least one
 *    maximum-size record (2^PMSIDR_EL1.MaxSize) below the limit, and share
 *    its top byte; otherwise the behaviour is CONSTRAINED UNPREDICTABLE
 *    (RPGGHS). When less than that fits before the end of the buffer, the
 *    rest is padded and the window starts again at the beginning.
 *  - PMBLIMITR_EL1.LIMIT is in units of 4KiB (4.3.2): every limit is page
 *    aligned.
 */
#include <linux/hrtimer.h>
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/perf_event.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include "spe.h"
#include "spe_compat.h"
#include "spe_hw.h"
#include "spe_trace.h"

/* A Padding packet is the single byte 0x00 (SPE supplement 5.3.9). */
#define SPE_PAD_BYTE		0x00

/* PMSIRR_EL1.INTERVAL holds bits [31:8] of the period (4.3.12). */
#define SPE_PERIOD_MAX		((u64)SPE_PMSIRR_INTERVAL_MASK)
#define SPE_PERIOD_MIN		BIT_ULL(SPE_PMSIRR_INTERVAL_SHIFT)

static inline u64 spe_buf_size(const struct spe_buf *buf)
{
	return (u64)buf->nr_pages << PAGE_SHIFT;
}

/* Offset in the buffer of a free-running perf AUX index. */
static inline u64 spe_buf_off(const struct spe_buf *buf, unsigned long idx)
{
	return idx % spe_buf_size(buf);
}

/* Write @len Padding packets at the head; callers keep head+len <= size. */
static void spe_pad(struct perf_output_handle *h, u64 len)
{
	struct spe_buf *buf = perf_get_aux(h);
	u64 head = spe_buf_off(buf, h->head);

	if (!len)
		return;
	memset(buf->base + head, SPE_PAD_BYTE, len);
	if (buf->snapshot)
		h->head += len;
	else
		perf_aux_output_skip(h, len);
}

/*
 * End the open transaction empty and TRUNCATED: counted and traced like
 * every other transaction. The caller stops the event; perf core does not
 * reliably turn it off (see spe_event_disable_pending()).
 */
void spe_aux_truncate(struct spe_pmu *spe, struct perf_output_handle *h)
{
	perf_aux_output_flag(h, PERF_AUX_FLAG_TRUNCATED);
	spe_stat_add(spe, SPE_STAT_TRUNCATED, 1);
	spe_stat_add(spe, SPE_STAT_OUTPUTS, 1);
	trace_spe_aux_output(smp_processor_id(), 0, PERF_AUX_FLAG_TRUNCATED);
	perf_aux_output_end(h, 0);
}

/*
 * Normal mode: the window runs from the (aligned) head to the first of:
 * the end of the buffer, the page holding unread data (tail) and the page
 * after the wakeup watermark, so that a buffer full event doubles as the
 * watermark interrupt. Returns the limit offset, or 0 after ending the
 * transaction as truncated when there is no room.
 */
static u64 spe_next_limit(struct spe_pmu *spe, struct perf_output_handle *h)
{
	struct spe_buf *buf = perf_get_aux(h);
	const u64 size = spe_buf_size(buf);
	u64 head, tail, wake, limit;
	int pass;

	/*
	 * Each pass returns or pads: to the end of the buffer, to the wakeup
	 * page, or up to unread data (then there is no room). Four passes
	 * cover all three in sequence.
	 */
	for (pass = 0; pass < 4; pass++) {
		head = spe_buf_off(buf, h->head);
		/* RHLXGD: align the write pointer. */
		if (!IS_ALIGNED(head, spe->align)) {
			spe_pad(h, min_t(u64, ALIGN(head, spe->align) - head,
					 h->size));
			head = spe_buf_off(buf, h->head);
		}
		if (!h->size)
			break;

		/*
		 * Never overwrite data user space has not consumed yet.
		 * head + size stops one byte short of it (perf's handle size
		 * is CIRC_SPACE()) and the limit is page granular, so the page
		 * below a page-aligned tail is never used: by design, since
		 * writing its last byte would exceed what perf handed out.
		 */
		tail = spe_buf_off(buf, h->head + h->size);
		limit = size;
		if (head < tail)
			limit = round_down(tail, PAGE_SIZE);

		/* Stop at the page boundary after the wakeup watermark. */
		wake = spe_buf_off(buf, h->wakeup);
		if (h->wakeup - h->head < h->size && head <= wake) {
			u64 w = round_up(wake, PAGE_SIZE);

			if (w > head)
				limit = min(limit, w);
		}

		/* RHXSYK: room for at least one maximum-size record. */
		if (limit > head && limit - head >= spe->max_record_sz)
			return limit;

		/* Too little room below the limit: pad up to it, try again. */
		spe_pad(h, limit > head ? min_t(u64, limit - head, h->size) :
			h->size);
	}

	spe_aux_truncate(spe, h);
	return 0;
}

/*
 * Snapshot mode: the records cannot be parsed backwards, so the buffer is
 * used as two halves and each window stays inside one half. When user
 * space takes a snapshot at least the previous half holds whole records
 * starting at its beginning. The head index is the buffer offset.
 */
static u64 spe_next_snapshot_limit(struct spe_pmu *spe,
				   struct perf_output_handle *h)
{
	struct spe_buf *buf = perf_get_aux(h);
	const u64 size = spe_buf_size(buf);
	const u64 half = size / 2;
	u64 head = spe_buf_off(buf, h->head);
	u64 limit;

	h->head = head;
	if (!IS_ALIGNED(head, spe->align)) {
		/* RHLXGD; a half is page aligned so this cannot cross it. */
		spe_pad(h, ALIGN(head, spe->align) - head);
		head = h->head;
	}
	limit = head < half ? half : size;
	if (limit - head < spe->max_record_sz) {
		/* RHXSYK: too close to the end of this half, use the next. */
		spe_pad(h, limit - head);
		head = limit % size;
		h->head = head;
		limit = head + half;
	}
	return limit;
}

/*
 * Open an AUX transaction for @event and point the buffer registers at
 * the next window. The caller enables profiling (or clears PMBSR.S)
 * afterwards; the registers are written while profiling is disabled, so
 * no ordering with sampling is needed here. Returns 0 when the buffer is
 * enabled; when there is no room (the buffer is left disabled) -ENOSPC
 * if a transaction was ended TRUNCATED (the gap is marked), -ENOBUFS if
 * perf core handed out no room at all (nothing was recorded).
 */
int spe_aux_begin(struct spe_pmu *spe, struct perf_output_handle *h,
		  struct perf_event *event)
{
	struct spe_buf *buf;
	u64 base, limit;
	int ret;

	if (event->attr.config & SPE_CFG_DISCARD) {
		/*
		 * Discard mode (PMBLIMITR_EL1.FM = 0b10, FEAT_SPEv1p2): the
		 * records are dropped and PMBPTR_EL1 is not used, so no AUX
		 * transaction is opened (D17.7.4 does not apply).
		 */
		limit = SPE_FIELD_PREP(SPE_PMBLIMITR_FM, SPE_PMBLIMITR_FM_DISCARD) |
			SPE_PMBLIMITR_E_MASK;
		spe_write(limit, PMBLIMITR);
		trace_spe_buf_program(smp_processor_id(), 0, 0, limit);
		return 0;
	}

	ret = -ENOBUFS;
	buf = perf_aux_output_begin(h, event);
	if (!buf)
		goto no_room;

	ret = -ENOSPC;
	limit = buf->snapshot ? spe_next_snapshot_limit(spe, h) :
				spe_next_limit(spe, h);
	if (!limit)
		goto no_room;

	base = (u64)(unsigned long)buf->base;
	/* RHXSYK/RHLXGD hold for this pair: see spe_next_*limit(). */
	spe_write(base + spe_buf_off(buf, h->head), PMBPTR);
	spe_write((base + limit) | SPE_PMBLIMITR_E_MASK, PMBLIMITR);
	trace_spe_buf_program(smp_processor_id(), spe_buf_off(buf, h->head),
			      limit, (base + limit) | SPE_PMBLIMITR_E_MASK);
	return 0;

no_room:
	/*
	 * The buffer may only be stopped by a management event (PMBSR.S);
	 * disable it explicitly so clearing PMBSR.S cannot restart it.
	 */
	spe_write(0, PMBLIMITR);
	return ret;
}

/*
 * A full AUX buffer must not end the recording: when there is no room,
 * sampling pauses and the event stays enabled; resume_timer looks for
 * room again after 1 ms, doubling up to 8 ms while the reader does not
 * read, and sampling resumes in the first window the reader has freed.
 * The gap is marked: an AUX record flagged TRUNCATED at the position
 * where the data stopped (perf prints "AUX data lost"), the counters/gaps
 * counter and the spe_gap tracepoint (paused, resumed). The pause belongs
 * to the event (SPE_EVF_PAUSED): switched out and in, it stays paused
 * and keeps its backoff.
 */
#define SPE_RESUME_RETRY_NS	NSEC_PER_MSEC
#define SPE_RESUME_RETRY_MAX_NS	(8 * NSEC_PER_MSEC)

/* Arm resume_timer for @event, running on this CPU, @delay_ns from now. */
static void spe_pause_arm(struct spe_cpu *c, struct perf_event *event,
			  u64 delay_ns)
{
	c->event = event;
	c->paused = true;
	hrtimer_start(&c->resume_timer, ns_to_ktime(delay_ns),
		      HRTIMER_MODE_REL_PINNED_HARD);
}

/*
 * A look for room just failed for @event; account for it. @marked: a
 * TRUNCATED record ends the data before the gap. Returns the delay
 * before the next look.
 */
static u64 spe_pause_failed_look(struct spe_pmu *spe, struct perf_event *event,
				 bool marked)
{
	struct hw_perf_event *hwc = &event->hw;

	/* perf core asked to disable the event (see the helper). */
	spe_event_keep_enabled(event);
	if (!(hwc->flags & SPE_EVF_PAUSED)) {
		hwc->flags |= SPE_EVF_PAUSED;
		if (!marked)
			hwc->flags |= SPE_EVF_GAP_UNMARKED;
		spe_ev_retry_ns(event) = SPE_RESUME_RETRY_NS;
		spe_stat_add(spe, SPE_STAT_PAUSES, 1);
		trace_spe_gap(smp_processor_id(), 0);
	} else {
		spe_ev_retry_ns(event) = min_t(u64, 2 * spe_ev_retry_ns(event),
					       SPE_RESUME_RETRY_MAX_NS);
	}
	spe_ev_tried_ns(event) = local_clock();
	return spe_ev_retry_ns(event);
}

/*
 * Pause @event on this CPU: there was no room for a window. The caller
 * has turned sampling and the buffer off and saved the interval count in
 * period_left.
 */
void spe_pause(struct spe_cpu *c, struct perf_event *event, bool marked)
{
	u64 delay_ns = spe_pause_failed_look(c->spe, event, marked);

	if (c->paused) {
		c->event = event;
		return;
	}
	spe_pause_arm(c, event, delay_ns);
}

/*
 * An empty AUX record flagged TRUNCATED where the data stopped. Ending a
 * transaction TRUNCATED makes perf core request the event's disable
 * (perf_aux_output_end()); the event is only paused, and the caller
 * resumes it at once when there is room, so the request is withdrawn
 * here, whatever happens next.
 */
static int spe_aux_mark_gap(struct spe_pmu *spe, struct perf_output_handle *h,
			    struct perf_event *event)
{
	if (!perf_aux_output_begin(h, event))
		return -ENOBUFS;
	spe_aux_truncate(spe, h);
	spe_event_keep_enabled(event);
	return 0;
}

/*
 * Look for room for paused @event and, if there is, resume sampling.
 * Returns 0 when resumed, else the error of spe_aux_begin() (the look
 * has been accounted for, the event is still paused).
 */
static int spe_resume(struct spe_pmu *spe, struct spe_cpu *c,
		      struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	int ret = 0;

	if (hwc->flags & SPE_EVF_GAP_UNMARKED) {
		ret = spe_aux_mark_gap(spe, &c->handle, event);
		if (!ret)
			hwc->flags &= ~SPE_EVF_GAP_UNMARKED;
	}
	if (!ret)
		ret = spe_aux_begin(spe, &c->handle, event);
	if (ret) {
		spe_pause_failed_look(spe, event, ret == -ENOSPC);
		return ret;
	}

	hwc->flags &= ~(SPE_EVF_PAUSED | SPE_EVF_GAP_UNMARKED);
	c->event = event;
	c->idle_restarts = 0;
	trace_spe_gap(smp_processor_id(), 1);
	/* The interval resumes where it paused (period_left, 3.1.3). */
	spe_program_event(spe, event);
	return 0;
}

/*
 * resume_timer, in hard interrupt context on the paused event's CPU (a
 * pinned hrtimer; pmu->add/del run there with interrupts off, so they
 * never run concurrently with it).
 */
static enum hrtimer_restart spe_resume_timer(struct hrtimer *t)
{
	struct spe_cpu *c = container_of(t, struct spe_cpu, resume_timer);
	struct perf_event *event = c->event;

	if (!event || !c->paused)
		return HRTIMER_NORESTART;
	if (spe_resume(c->spe, c, event)) {
		hrtimer_forward_now(t, ns_to_ktime(spe_ev_retry_ns(event)));
		return HRTIMER_RESTART;
	}
	c->paused = false;
	return HRTIMER_NORESTART;
}

void spe_cpu_init_timer(struct spe_cpu *c)
{
	spe_hrtimer_setup(&c->resume_timer, spe_resume_timer,
			  HRTIMER_MODE_REL_PINNED_HARD);
}

/*
 * Stop this CPU's resume_timer; the event, if paused, stays paused.
 * True if it was.
 */
static bool spe_unpause(struct spe_cpu *c)
{
	if (!c->paused)
		return false;
	/*
	 * Never -1 (callback running): it runs on this CPU in hard
	 * interrupt context and the callers have interrupts off.
	 */
	hrtimer_try_to_cancel(&c->resume_timer);
	c->paused = false;
	return true;
}

/*
 * Close the AUX transaction: the data runs from the head to PMBPTR_EL1.
 * Returns the number of bytes handed to perf.
 * The caller has drained (PSB CSYNC; DSB; ISB) so PMBPTR_EL1 is current
 * and the records are in memory (SPE supplement 3.6).
 */
u64 spe_aux_end(struct spe_pmu *spe, struct perf_output_handle *h,
		u32 aux_flags, u64 pmbsr)
{
	struct spe_buf *buf = perf_get_aux(h);
	u64 head, ptr, off, size = 0;

	if (!buf)
		return 0;
	head = spe_buf_off(buf, h->head);
	ptr = spe_read(PMBPTR);
	off = ptr - (u64)(unsigned long)buf->base;

	/*
	 * After an external abort reported asynchronously nothing in the
	 * buffer can be trusted (3.5.4), nor can PMBPTR_EL1. A pointer
	 * outside the window is equally unusable.
	 */
	if (SPE_FIELD_GET(SPE_PMBSR_EA, pmbsr) || off < head ||
	    off > spe_buf_size(buf))
		aux_flags |= PERF_AUX_FLAG_TRUNCATED | PERF_AUX_FLAG_PARTIAL;
	else
		size = off - head;

	if (buf->snapshot)
		h->head = off <= spe_buf_size(buf) ? off : head;

	if (aux_flags & PERF_AUX_FLAG_TRUNCATED)
		spe_stat_add(spe, SPE_STAT_TRUNCATED, 1);
	spe_stat_add(spe, SPE_STAT_BYTES, size);
	spe_stat_add(spe, SPE_STAT_OUTPUTS, 1);
	/*
	 * perf_aux_output_end() adds OVERWRITE itself in snapshot mode (and
	 * perf_aux_output_flag() refuses it): the tracepoint shows it too,
	 * as perf records it.
	 */
	trace_spe_aux_output(smp_processor_id(), size, aux_flags |
			     (buf->snapshot ? PERF_AUX_FLAG_OVERWRITE : 0));

	if (aux_flags)
		perf_aux_output_flag(h, aux_flags);
	perf_aux_output_end(h, size);
	return size;
}

/*
 * Sampling period: PMSIRR_EL1.INTERVAL holds bits [31:8], so the period
 * is rounded down to a multiple of 256 and clamped to [256, 2^32 - 256]
 * (4.3.12), mainline's current rule. PMSIDR_EL1.Interval is only the
 * minimum software "should" use (4.3.11, caps/min_interval shows it as a
 * hint): a smaller period, including 0, becomes 256, not that minimum.
 */
static u64 spe_clamp_period(const struct spe_pmu *spe, u64 period)
{
	if (period < SPE_PERIOD_MIN)
		return SPE_PERIOD_MIN;
	if (period > SPE_PERIOD_MAX)
		return SPE_PERIOD_MAX;
	return period & SPE_PERIOD_MAX;
}

/* Program filters, interval and controls, then enable sampling. */
void spe_program_event(struct spe_pmu *spe, struct perf_event *event)
{
	struct perf_event_attr *attr = &event->attr;
	struct hw_perf_event *hwc = &event->hw;
	u64 irr;

	spe_write(hwc->config_base, PMSFCR);
	if (spe->features & SPE_FEAT_FILT_EVT)
		spe_write(attr->config1, PMSEVFR);
	if (spe->features & SPE_FEAT_INV_FILT_EVT)
		spe_write(spe_attr_config3(attr), PMSNEVFR);
	if (spe->features & SPE_FEAT_FILT_LAT)
		spe_write(attr->config2, PMSLATFR);
	/*
	 * inv_data_src_filter (config4), the mainline ABI: a set bit drops
	 * samples from that data source, so PMSDSFR_EL1 (1 = keep) is its
	 * complement; PMSFCR_EL1.FDS is set only when config4 is non-zero.
	 */
	if (spe->features & SPE_FEAT_FDS)
		spe_write(~spe_attr_config4(attr), PMSDSFR);

	/*
	 * Clamped again here: PERF_EVENT_IOC_PERIOD changes sample_period
	 * after event_init, then restarts the event through this path.
	 */
	irr = spe_clamp_period(spe, hwc->sample_period) & SPE_PMSIRR_INTERVAL_MASK;
	if (attr->config & SPE_CFG_JITTER)
		irr |= SPE_PMSIRR_RND_MASK;
	spe_write(irr, PMSIRR);

	/*
	 * PMSICR_EL1: 0 on a fresh start makes the hardware load the
	 * interval from PMSIRR_EL1 (3.1.1); after a stop, the saved count
	 * resumes the interval where it was.
	 */
	spe_write(local64_read(&hwc->period_left), PMSICR);

	/*
	 * The ISB is the context synchronization event that makes the
	 * filter, interval and buffer writes above visible to the indirect
	 * reads of every operation sampled once PMSCR_EL1 enables sampling
	 * (3.6); the second one makes the enable itself take effect.
	 */
	isb();
	spe_write(hwc->config, PMSCR);
	isb();
}

static void spe_start(struct perf_event *event, int flags)
{
	struct spe_pmu *spe = to_spe_pmu(event->pmu);
	struct spe_cpu *c = this_cpu_ptr(spe->pcpu);
	struct hw_perf_event *hwc = &event->hw;
	int ret;

	/*
	 * period_left holds the interval count saved by the last stop
	 * (PMSICR_EL1, 3.1.3), or 0 after event_init and a period change
	 * (perf core clears it): with or without PERF_EF_RELOAD the
	 * interval resumes where it stopped. perf core restarts an event
	 * with flags 0 after perf_event_stop() and unthrottling.
	 */
	hwc->state = 0;
	c->idle_restarts = 0;

	/*
	 * Sampling is off here (every stop and reset leaves PMSCR_EL1 0)
	 * and period_left is this event's. A paused event looks for room
	 * again only when its backoff has run out.
	 */
	if (hwc->flags & SPE_EVF_PAUSED) {
		u64 waited = local_clock() - spe_ev_tried_ns(event);

		if (waited < spe_ev_retry_ns(event)) {
			spe_pause_arm(c, event, spe_ev_retry_ns(event) - waited);
			return;
		}
		if (spe_resume(spe, c, event))
			spe_pause_arm(c, event, spe_ev_retry_ns(event));
		return;
	}

	ret = spe_aux_begin(spe, &c->handle, event);
	if (ret) {
		/* No room: paused until the reader frees some. */
		spe_pause(c, event, ret == -ENOSPC);
		return;
	}
	c->event = event;
	spe_program_event(spe, event);
}

static void spe_stop(struct perf_event *event, int flags)
{
	struct spe_pmu *spe = to_spe_pmu(event->pmu);
	struct spe_cpu *c = this_cpu_ptr(spe->pcpu);
	struct hw_perf_event *hwc = &event->hw;
	enum spe_action act;
	u32 aux_flags = 0;
	bool paused;
	u64 pmbsr;

	/*
	 * Stopped while its context stays scheduled in: a disable, a period
	 * change or a reschedule, not a switch-out (ctx_sched_out() clears
	 * ctx->is_active before it stops the events). A reader that disables
	 * the event, reads and enables it again has made room meanwhile: the
	 * next pmu->add of a paused event looks for it at once instead of
	 * after the backoff, which only switch-outs keep.
	 */
	if ((hwc->flags & SPE_EVF_PAUSED) && READ_ONCE(event->ctx->is_active))
		spe_ev_tried_ns(event) = 0;

	if (hwc->state & PERF_HES_STOPPED)
		return;

	/* Paused: the interval count is in period_left already. */
	spe_unpause(c);
	paused = hwc->flags & SPE_EVF_PAUSED;
	/* Sampling off, records drained, buffer off: see spe_hw.h. */
	spe_disable_and_drain_local();
	c->event = NULL;

	/*
	 * A management event may have fired just before sampling stopped
	 * (interrupts are off here): account for it in this transaction and
	 * clear PMBSR_EL1, which also takes down PMBIRQ (3.5) so the pending
	 * interrupt finds PMBSR.S clear and is treated as spurious. COLL is
	 * sticky without S and reported here too.
	 */
	pmbsr = spe_read(PMBSR);
	act = spe_decode_pmbsr(spe, pmbsr, &aux_flags);
	if (perf_get_aux(&c->handle))
		spe_aux_end(spe, &c->handle, aux_flags, pmbsr);
	if (pmbsr) {
		spe_write(0, PMBSR);
		isb();
	}
	/*
	 * A fatal syndrome first seen here (the unit reports management
	 * events some operations late, so the drain above may be what made
	 * it visible, before any PMBIRQ) ends the event for good, as in the
	 * interrupt handler; otherwise the next pmu->add would program a
	 * new window. perf core acts on the flag when this is a
	 * schedule-out, the queued irq_work otherwise.
	 */
	if (act == SPE_ACT_STOP)
		spe_event_disable_pending(event);

	if (flags & PERF_EF_UPDATE) {
		/* Resume the interval where it stopped (3.1.3). */
		if (!paused)
			local64_set(&hwc->period_left, spe_read(PMSICR));
		hwc->state |= PERF_HES_UPTODATE;
	}
	hwc->state |= PERF_HES_STOPPED;
}

/*
 * Stop the event running on this CPU, if any, as pmu->stop does: its AUX
 * transaction ends with the flags of any management event still pending
 * in PMBSR_EL1 (TRUNCATED, PARTIAL, COLLISION). For CPU hotplug, whose
 * teardown runs before perf core stops the CPU's events; perf core's
 * pmu->del then finds the event stopped.
 */
void spe_stop_local(struct spe_pmu *spe)
{
	struct spe_cpu *c = this_cpu_ptr(spe->pcpu);
	unsigned long flags;

	/* perf core calls pmu->add/del in IPIs: keep them out meanwhile. */
	local_irq_save(flags);
	if (c->event)
		spe_stop(c->event, PERF_EF_UPDATE);
	local_irq_restore(flags);
}

static int spe_add(struct perf_event *event, int flags)
{
	struct spe_pmu *spe = to_spe_pmu(event->pmu);
	struct hw_perf_event *hwc = &event->hw;

	/*
	 * A per-task event may be scheduled on a CPU without this SPE, or
	 * on one going offline (already torn down, see spe_cpu_offline())
	 * or whose buffer a higher Exception level owns.
	 */
	if (!cpumask_test_cpu(smp_processor_id(), &spe->active_cpus))
		return -ENOENT;

	hwc->state = PERF_HES_UPTODATE | PERF_HES_STOPPED;
	if (flags & PERF_EF_START) {
		spe_start(event, PERF_EF_RELOAD);
		if (hwc->state & PERF_HES_STOPPED)
			return -EINVAL;
	}
	return 0;
}

static void spe_del(struct perf_event *event, int flags)
{
	spe_stop(event, PERF_EF_UPDATE);
}

static void spe_read_event(struct perf_event *event)
{
	/* SPE has no counter; all output goes to the AUX buffer. */
}

/* PMSCR_EL1 value for @event, given the opener's privileges. */
static u64 spe_event_pmscr(struct perf_event *event)
{
	struct perf_event_attr *attr = &event->attr;
	u64 reg = 0;

	if (attr->config & SPE_CFG_TS)
		reg |= SPE_PMSCR_TS_MASK;
	if (attr->config & SPE_CFG_PA)
		reg |= SPE_PMSCR_PA_MASK;
	if (attr->config & SPE_CFG_PCT)
		reg |= SPE_FIELD_PREP(SPE_PMSCR_PCT, SPE_PMSCR_PCT_PHYS);
	if (!attr->exclude_user)
		reg |= SPE_PMSCR_E0SPE_MASK;
	if (!attr->exclude_kernel)
		reg |= SPE_PMSCR_E1SPE_MASK;
	/*
	 * CONTEXTIDR_EL1 holds the PID with CONFIG_PID_IN_CONTEXTIDR: only
	 * record it for openers allowed to see kernel data.
	 */
	if (IS_ENABLED(CONFIG_PID_IN_CONTEXTIDR) && !spe_perf_allow_kernel(event))
		reg |= SPE_PMSCR_CX_MASK;
	return reg;
}

static u64 spe_event_pmsfcr(struct perf_event *event)
{
	struct perf_event_attr *attr = &event->attr;
	u64 cfg = attr->config, reg = 0;

	if (cfg & SPE_CFG_BRANCH)
		reg |= SPE_PMSFCR_B_MASK;
	if (cfg & SPE_CFG_LOAD)
		reg |= SPE_PMSFCR_LD_MASK;
	if (cfg & SPE_CFG_STORE)
		reg |= SPE_PMSFCR_ST_MASK;
	if (cfg & SPE_CFG_BRANCH_MASK)
		reg |= SPE_PMSFCR_BM_MASK;
	if (cfg & SPE_CFG_LOAD_MASK)
		reg |= SPE_PMSFCR_LDM_MASK;
	if (cfg & SPE_CFG_STORE_MASK)
		reg |= SPE_PMSFCR_STM_MASK;
	if (cfg & SPE_CFG_SIMD)
		reg |= SPE_PMSFCR_SIMD_MASK;
	if (cfg & SPE_CFG_SIMD_MASK)
		reg |= SPE_PMSFCR_SIMDM_MASK;
	if (cfg & SPE_CFG_FLOAT)
		reg |= SPE_PMSFCR_FP_MASK;
	if (cfg & SPE_CFG_FLOAT_MASK)
		reg |= SPE_PMSFCR_FPM_MASK;
	if (reg)
		reg |= SPE_PMSFCR_FT_MASK;
	if (attr->config1)
		reg |= SPE_PMSFCR_FE_MASK;
	if (spe_attr_config3(attr))
		reg |= SPE_PMSFCR_FNE_MASK;
	if (attr->config2)
		reg |= SPE_PMSFCR_FL_MASK;
	if (spe_attr_config4(attr))
		reg |= SPE_PMSFCR_FDS_MASK;
	return reg;
}

static int spe_event_init(struct perf_event *event)
{
	struct perf_event_attr *attr = &event->attr;
	struct spe_pmu *spe = to_spe_pmu(event->pmu);
	u64 cfg = attr->config, pmscr;

	if (attr->type != event->pmu->type)
		return -ENOENT;
	if (event->cpu >= 0 && !cpumask_test_cpu(event->cpu, &spe->supported_cpus))
		return -ENOENT;

	/* One sample per interval: there is no count to adjust a frequency. */
	if (attr->freq)
		return -EINVAL;
	if (has_branch_stack(event))
		return -EOPNOTSUPP;
	if (attr->exclude_idle)
		return -EOPNOTSUPP;
	/*
	 * exclude_hv is ignored: with VHE the kernel runs at EL2 and
	 * exclude_kernel alone selects it (E1SPE is redirected to E2SPE),
	 * so "arm_spe//k" (exclude_hv=1) keeps working there, as with the
	 * in-tree driver.
	 */
	if (attr->exclude_user && attr->exclude_kernel)
		return -EINVAL;

	/* Bits with no meaning for this PMU. */
	if (cfg & ~SPE_CFG_ALL)
		return -EINVAL;
	if (attr->config2 >> SPE_CFG2_MIN_LAT_BITS)
		return -EINVAL;

	/* Fields the hardware cannot honour. */
	if ((cfg & SPE_CFG_TYPE_FILT) && !(spe->features & SPE_FEAT_FILT_TYP))
		return -EOPNOTSUPP;
	if ((cfg & SPE_CFG_EFT_FILT) && !(spe->features & SPE_FEAT_EFT))
		return -EOPNOTSUPP;
	if ((cfg & SPE_CFG_DISCARD) && !(spe->features & SPE_FEAT_DISCARD))
		return -EOPNOTSUPP;
	/*
	 * Events the hardware cannot filter on (probed mask, 0 without FE);
	 * PMSNEVFR_EL1 has the same fields as PMSEVFR_EL1.
	 */
	if (attr->config1 & ~spe->evfr_mask)
		return -EOPNOTSUPP;
	if (spe_attr_config3(attr) &&
	    (!(spe->features & SPE_FEAT_INV_FILT_EVT) ||
	     (spe_attr_config3(attr) & ~spe->evfr_mask)))
		return -EOPNOTSUPP;
	if (attr->config2 && !(spe->features & SPE_FEAT_FILT_LAT))
		return -EOPNOTSUPP;
	if (spe_attr_config4(attr) && !(spe->features & SPE_FEAT_FDS))
		return -EOPNOTSUPP;

	/*
	 * Physical addresses and the physical timer are kernel data:
	 * subject to perf_event_paranoid (perf_allow_kernel()), i.e.
	 * paranoid <= 1 or CAP_PERFMON.
	 */
	pmscr = spe_event_pmscr(event);
	if (pmscr & (SPE_PMSCR_PA_MASK | SPE_PMSCR_PCT_MASK)) {
		int ret = spe_perf_allow_kernel(event);

		if (ret)
			return ret;
	}

	event->hw.sample_period = spe_clamp_period(spe, event->hw.sample_period);
	event->hw.config = pmscr;
	event->hw.config_base = spe_event_pmsfcr(event);
	local64_set(&event->hw.period_left, 0);
	return 0;
}

static void *spe_setup_aux(struct perf_event *event, void **pages,
			   int nr_pages, bool snapshot)
{
	int cpu = event->cpu == -1 ? raw_smp_processor_id() : event->cpu;
	struct page **pglist;
	struct spe_buf *buf;
	int i;

	/* Two pages at least; snapshot mode works on two equal halves. */
	if (nr_pages < 2 || (snapshot && (nr_pages & 1)))
		return NULL;

	buf = kzalloc_node(sizeof(*buf), GFP_KERNEL, cpu_to_node(cpu));
	if (!buf)
		return NULL;
	pglist = kcalloc(nr_pages, sizeof(*pglist), GFP_KERNEL);
	if (!pglist)
		goto out_free_buf;
	for (i = 0; i < nr_pages; i++)
		pglist[i] = virt_to_page(pages[i]);

	/* The hardware sees one virtually contiguous buffer (D17.7.1). */
	buf->base = vmap(pglist, nr_pages, VM_MAP, PAGE_KERNEL);
	kfree(pglist);
	if (!buf->base)
		goto out_free_buf;
	buf->nr_pages = nr_pages;
	buf->snapshot = snapshot;
	return buf;

out_free_buf:
	kfree(buf);
	return NULL;
}

static void spe_free_aux(void *aux)
{
	struct spe_buf *buf = aux;

	vunmap(buf->base);
	kfree(buf);
}

int spe_pmu_register(struct spe_pmu *spe)
{
	int ret;

	snprintf(spe->name, sizeof(spe->name), SPE_PMUNAME "_%d", spe->id);
	spe->pmu = (struct pmu) {
		.module		= THIS_MODULE,
		.capabilities	= PERF_PMU_CAP_EXCLUSIVE | PERF_PMU_CAP_ITRACE,
		/*
		 * Software context, as the in-tree driver: SPE can then be
		 * used together with the CPU PMU's hardware events.
		 */
		.task_ctx_nr	= perf_sw_context,
		.attr_groups	= spe_attr_groups,
		.event_init	= spe_event_init,
		.add		= spe_add,
		.del		= spe_del,
		.start		= spe_start,
		.stop		= spe_stop,
		.read		= spe_read_event,
		.setup_aux	= spe_setup_aux,
		.free_aux	= spe_free_aux,
	};
	spe_pmu_set_parent(&spe->pmu, &spe->pdev->dev);

	ret = perf_pmu_register(&spe->pmu, spe->name, -1);
	if (ret)
		dev_err(&spe->pdev->dev, "cannot register PMU %s (error %d)\n",
			spe->name, ret);
	else
		spe->registered = true;
	return ret;
}

void spe_pmu_unregister(struct spe_pmu *spe)
{
	if (spe->registered)
		perf_pmu_unregister(&spe->pmu);
	spe->registered = false;
}
