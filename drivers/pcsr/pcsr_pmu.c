// SPDX-License-Identifier: GPL-2.0-only
/*
 * pcsr_pmu.c - the arm_pcsr perf PMU and its sampler.
 *
 * An event samples one target CPU (event->cpu; "perf record -C N" or
 * "-a"). Sampling is done from another CPU, so that the target takes no
 * interrupt for it: one pinned hrtimer runs on a housekeeping CPU that
 * profiles nothing, and on each expiry reads PMPCSR of every target due
 * for a sample. A read of PMPCSR[31:0] takes the sample and captures the
 * context registers (H7.1, H7.1.4); PMPCSR[31:0] == 0xFFFFFFFF is a
 * sample that is not valid (H7.1.3: prohibited, suspended, no branch
 * retired yet) and is dropped and counted.
 *
 * A module cannot call perf_event_overflow(), so a sample reaches perf
 * through perf_tp_event() with the event alone on a private list, and
 * register state built from PMPCSR: the PC as the IP, the Exception
 * level as user or kernel mode. The event's overflow handler is wrapped
 * to put in the PID/TID from the captured CONTEXTIDR (PID_IN_CONTEXTIDR)
 * and the target CPU, which perf would otherwise take from the sampling
 * CPU.
 */
#define pr_fmt(fmt) "arm_pcsr: " fmt

#include <linux/bitfield.h>
#include <linux/cpumask.h>
#include <linux/io.h>
#include <linux/ktime.h>
#include <linux/pid.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/sched/isolation.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/spinlock.h>
#include <linux/trace_events.h>
#include <asm/virt.h>

#include "pcsr.h"

struct pcsr_stats pcsr_stats;

/*
 * The sampler: the active events, the hrtimer and whether it runs. The
 * timer callback holds pcsr_lock while it samples, so an event removed
 * under the lock is no longer used once pcsr_del() returns.
 */
static DEFINE_RAW_SPINLOCK(pcsr_lock);
static LIST_HEAD(pcsr_events);
static DEFINE_PER_CPU(unsigned int, pcsr_nr_events);
static struct hrtimer pcsr_timer;
static bool pcsr_running;

/* The raw record that PERF_SAMPLE_RAW carries: 8-byte aligned size */
struct pcsr_raw {
	struct trace_entry ent;
	u32 cid;
	u32 cpu;
	u64 pmpcsr;
} __aligned(8);

static struct pmu pcsr_pmu;

/* Samples that the model cannot attribute need what perf takes from regs */
#define PCSR_SAMPLE_UNSUPPORTED (PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_BRANCH_STACK | \
				 PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER | \
				 PERF_SAMPLE_REGS_INTR | PERF_SAMPLE_DATA_SRC | \
				 PERF_SAMPLE_ADDR | PERF_SAMPLE_PHYS_ADDR)

static void pcsr_overflow(struct perf_event *event,
			  struct perf_sample_data *data, struct pt_regs *regs)
{
	struct pcsr_event *pe = event->pmu_private;

	/* Taken as already filled in by perf_prepare_sample() from 6.3 on */
	data->tid_entry.pid = pe->pid;
	data->tid_entry.tid = pe->tid;
	data->cpu_entry.cpu = event->cpu;
	data->cpu_entry.reserved = 0;
	data->sample_flags |= PERF_SAMPLE_TID | PERF_SAMPLE_CPU;
	pe->orig_handler(event, data, regs);
}

/* PID and TID of a context ID: CONTEXTIDR holds the TID (PID_IN_CONTEXTIDR) */
static void pcsr_pid_of(struct pcsr_event *pe, u32 cid)
{
	struct task_struct *p;

	if (!IS_ENABLED(CONFIG_PID_IN_CONTEXTIDR)) {
		pe->pid = -1;
		pe->tid = -1;
		return;
	}
	pe->tid = cid;
	pe->pid = cid;
	rcu_read_lock();
	p = pid_task(find_pid_ns(cid, &init_pid_ns), PIDTYPE_PID);
	if (p)
		pe->pid = p->tgid;
	rcu_read_unlock();
}

/*
 * The record and register state handed to perf_tp_event(), per sampling
 * CPU: only the timer callback uses them, and it does not nest.
 */
static DEFINE_PER_CPU(struct pcsr_raw, pcsr_raw_buf);
static DEFINE_PER_CPU(struct pt_regs, pcsr_regs);

static void pcsr_output(struct pcsr_event *pe, u64 pmpcsr, u32 cid)
{
	unsigned int el = FIELD_GET(PCSR_PMPCSR_EL, pmpcsr);
	struct pcsr_raw *raw = this_cpu_ptr(&pcsr_raw_buf);
	struct pt_regs *regs = this_cpu_ptr(&pcsr_regs);
	int rctx;

	/* perf_tp_event() puts the recursion context back */
	rctx = perf_swevent_get_recursion_context();
	if (rctx < 0) {
		atomic64_inc(&pcsr_stats.lost);
		return;
	}
	raw->pmpcsr = pmpcsr;
	raw->cid = cid;
	raw->cpu = pe->event->cpu;
	memset(regs, 0, sizeof(*regs));
	/* PC[55:0] sign-extended from bit 55, as a virtual address */
	regs->pc = sign_extend64(pmpcsr & PCSR_PMPCSR_PC, 55);
	regs->pstate = el ? PSR_MODE_EL1h : PSR_MODE_EL0t;
	atomic64_inc(&pcsr_stats.samples);
	perf_tp_event(0, 1, raw, sizeof(*raw), regs, &pe->head, rctx, NULL);
}

/* Take one sample of pe's CPU: H7.1.4 Read_PMPCSR */
static void pcsr_sample(struct pcsr_event *pe)
{
	struct perf_event *event = pe->event;
	struct pcsr_frame *f = per_cpu(pcsr_frame, event->cpu);
	u32 lo, hi, cid;
	u64 pmpcsr;
	bool user;

	if (event->hw.state & PERF_HES_STOPPED)
		return;
	/* [31:0] samples and captures the context; [63:32] is that sample's */
	lo = readl_relaxed(f->base + PCSR_PMPCSR_LO);
	if (lo == PCSR_PMPCSR_UNKNOWN) {
		atomic64_inc(&pcsr_stats.unknown);
		return;
	}
	hi = readl_relaxed(f->base + PCSR_PMPCSR_HI);
	/* With VHE the kernel's CONTEXTIDR_EL1 writes go to CONTEXTIDR_EL2 */
	cid = readl_relaxed(f->base + (is_kernel_in_hyp_mode() ?
				       PCSR_PMCID2SR : PCSR_PMCID1SR));
	pmpcsr = (u64)hi << 32 | lo;
	user = FIELD_GET(PCSR_PMPCSR_EL, pmpcsr) == 0;
	if ((user && event->attr.exclude_user) ||
	    (!user && event->attr.exclude_kernel)) {
		atomic64_inc(&pcsr_stats.filtered);
		return;
	}
	pcsr_pid_of(pe, cid);
	pcsr_output(pe, pmpcsr, cid);
}

/*
 * The next interval: the period +- 1/16, at random, so that sampling does
 * not lock onto a workload whose loop lasts a multiple of the period (the
 * phase drifts as a random walk). The mean interval is the period.
 */
static u64 pcsr_dither(u64 period)
{
	u64 span = period >> 3;

	if (!span)
		return period;
	return period - (span >> 1) + get_random_u32() % span;
}

static enum hrtimer_restart pcsr_timer_fn(struct hrtimer *t)
{
	ktime_t now = ktime_get(), next = KTIME_MAX;
	struct pcsr_event *pe;

	raw_spin_lock(&pcsr_lock);
	list_for_each_entry(pe, &pcsr_events, node) {
		if (ktime_compare(pe->next, now) <= 0) {
			pcsr_sample(pe);
			pe->next = ktime_add_ns(pe->next, pcsr_dither(pe->period_ns));
			if (ktime_before(pe->next, now))
				pe->next = ktime_add_ns(now, pe->period_ns);
		}
		if (ktime_before(pe->next, next))
			next = pe->next;
	}
	if (next == KTIME_MAX) {
		pcsr_running = false;
		raw_spin_unlock(&pcsr_lock);
		return HRTIMER_NORESTART;
	}
	hrtimer_set_expires(t, next);
	raw_spin_unlock(&pcsr_lock);
	return HRTIMER_RESTART;
}

/* Runs on the chosen sampling CPU: the timer is pinned there */
static void pcsr_kick(void *info)
{
	hrtimer_start(&pcsr_timer, ns_to_ktime(PCSR_MIN_PERIOD_NS),
		      HRTIMER_MODE_REL_PINNED_HARD);
}

static call_single_data_t pcsr_csd = CSD_INIT(pcsr_kick, NULL);

/*
 * The sampling CPU: an online housekeeping CPU (not nohz_full) that no
 * event profiles; else any online CPU that no event profiles; else any.
 * Called with pcsr_lock held.
 */
static int pcsr_pick_cpu(void)
{
	const struct cpumask *hk = housekeeping_cpumask(HK_TYPE_TICK);
	int cpu;

	for_each_cpu_and(cpu, hk, cpu_online_mask)
		if (!per_cpu(pcsr_nr_events, cpu))
			return cpu;
	for_each_online_cpu(cpu)
		if (!per_cpu(pcsr_nr_events, cpu))
			return cpu;
	return cpumask_first(cpu_online_mask);
}

static void pcsr_start(struct perf_event *event, int flags)
{
	event->hw.state = 0;
}

static void pcsr_stop(struct perf_event *event, int flags)
{
	event->hw.state |= PERF_HES_STOPPED | PERF_HES_UPTODATE;
}

/* Runs on event->cpu, interrupts off */
static int pcsr_add(struct perf_event *event, int flags)
{
	struct pcsr_event *pe = event->pmu_private;
	struct pcsr_frame *f = per_cpu(pcsr_frame, event->cpu);
	unsigned long irqflags;
	int cpu = -1;

	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (flags & PERF_EF_START)
		pcsr_start(event, PERF_EF_RELOAD);

	raw_spin_lock_irqsave(&pcsr_lock, irqflags);
	/* H7.1.1.1: activate; reads return 0xFFFFFFFF until a branch */
	if (!f->users++ && f->has_ctl)
		writel_relaxed(PCSR_PMPCSCTL_EN, f->base + PCSR_PMPCSCTL);
	per_cpu(pcsr_nr_events, event->cpu)++;
	pe->next = ktime_add_ns(ktime_get(), pe->period_ns);
	list_add_tail(&pe->node, &pcsr_events);
	if (!pcsr_running) {
		pcsr_running = true;
		cpu = pcsr_pick_cpu();
	}
	raw_spin_unlock_irqrestore(&pcsr_lock, irqflags);

	/* -EBUSY: a kick is still on its way and starts the timer */
	if (cpu >= 0)
		smp_call_function_single_async(cpu, &pcsr_csd);
	return 0;
}

static void pcsr_del(struct perf_event *event, int flags)
{
	struct pcsr_event *pe = event->pmu_private;
	struct pcsr_frame *f = per_cpu(pcsr_frame, event->cpu);
	unsigned long irqflags;

	pcsr_stop(event, PERF_EF_UPDATE);
	raw_spin_lock_irqsave(&pcsr_lock, irqflags);
	list_del(&pe->node);
	per_cpu(pcsr_nr_events, event->cpu)--;
	/* H7.1.1.1: suspend sampling when the last user goes */
	if (!--f->users && f->has_ctl)
		writel_relaxed(0, f->base + PCSR_PMPCSCTL);
	raw_spin_unlock_irqrestore(&pcsr_lock, irqflags);
}

static void pcsr_read(struct perf_event *event)
{
	/* event->count is the number of samples, kept by perf_tp_event() */
}

static void pcsr_destroy(struct perf_event *event)
{
	kfree(event->pmu_private);
	event->pmu_private = NULL;
}

static int pcsr_event_init(struct perf_event *event)
{
	struct perf_event_attr *attr = &event->attr;
	struct hw_perf_event *hwc = &event->hw;
	struct pcsr_frame *f;
	struct pcsr_event *pe;
	u64 period;

	if (attr->type != event->pmu->type)
		return -ENOENT;
	if (attr->config || attr->config1 || attr->config2)
		return -EINVAL;
	/* Per CPU only: perf record -C LIST or -a */
	if (event->cpu < 0 || !is_sampling_event(event))
		return -EOPNOTSUPP;
	if (attr->sample_type & PCSR_SAMPLE_UNSUPPORTED)
		return -EOPNOTSUPP;
	/* A signal would go to whatever runs on the sampling CPU */
	if (attr->sigtrap)
		return -EINVAL;
	if (!cpu_online(event->cpu))
		return -ENODEV;
	f = per_cpu(pcsr_frame, event->cpu);
	if (!f)
		return -ENODEV;
	if (!f->niden)
		return -EACCES;

	if (attr->freq) {
		if (!attr->sample_freq)
			return -EINVAL;
		period = div64_u64(NSEC_PER_SEC, attr->sample_freq);
	} else {
		period = attr->sample_period;
	}
	period = max(period, PCSR_MIN_PERIOD_NS);

	pe = kzalloc(sizeof(*pe), GFP_KERNEL);
	if (!pe)
		return -ENOMEM;
	pe->event = event;
	pe->period_ns = period;
	INIT_HLIST_HEAD(&pe->head);
	hlist_add_head(&event->hlist_entry, &pe->head);
	pe->orig_handler = event->overflow_handler;
	event->overflow_handler = pcsr_overflow;
	event->pmu_private = pe;
	event->destroy = pcsr_destroy;

	/*
	 * The period is time, kept here: perf sees one event per sample
	 * (like cpu-clock, the frequency is not adjusted by perf core).
	 */
	attr->freq = 0;
	attr->sample_period = period;
	hwc->sample_period = 1;
	hwc->last_period = 1;
	local64_set(&hwc->period_left, 1);
	return 0;
}

static struct pmu pcsr_pmu = {
	.module		= THIS_MODULE,
	.task_ctx_nr	= perf_invalid_context,
	.event_init	= pcsr_event_init,
	.add		= pcsr_add,
	.del		= pcsr_del,
	.start		= pcsr_start,
	.stop		= pcsr_stop,
	.read		= pcsr_read,
	.attr_groups	= pcsr_attr_groups,
};

int pcsr_pmu_register(void)
{
	spe_hrtimer_setup(&pcsr_timer, pcsr_timer_fn,
			  HRTIMER_MODE_REL_PINNED_HARD);
	return perf_pmu_register(&pcsr_pmu, "arm_pcsr", -1);
}

void pcsr_pmu_unregister(void)
{
	perf_pmu_unregister(&pcsr_pmu);
	hrtimer_cancel(&pcsr_timer);
}
