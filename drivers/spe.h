/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * spe.h - private definitions shared by the arm_spe_perf source files: the
 * per-device PMU structure, the AUX buffer descriptor, the statistics
 * counters and the entry points each file provides to the others.
 */
#ifndef ARM_SPE_PERF_SPE_H
#define ARM_SPE_PERF_SPE_H

#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/list.h>
#include <linux/perf_event.h>
#include <linux/platform_device.h>

#define SPE_DRVNAME		"arm_spe_perf"
#define SPE_PMUNAME		"arm_spe"
/* The in-tree driver this module replaces and must not run beside. */
#define SPE_INTREE_DRVNAME	"arm_spe_pmu"

/*
 * Hardware features the driver acts on or shows in caps/, discovered at
 * probe time (PMSIDR/PMBIDR/PMSVer). PMSIDR.LDS changes neither.
 */
#define SPE_FEAT_FILT_EVT	BIT(0)	/* PMSIDR.FE */
#define SPE_FEAT_FILT_TYP	BIT(1)	/* PMSIDR.FT */
#define SPE_FEAT_FILT_LAT	BIT(2)	/* PMSIDR.FL */
#define SPE_FEAT_ARCH_INST	BIT(3)	/* PMSIDR.ArchInst */
#define SPE_FEAT_ERND		BIT(5)	/* PMSIDR.ERnd */
#define SPE_FEAT_INV_FILT_EVT	BIT(6)	/* PMSIDR.FnE (FEAT_SPEv1p2) */
#define SPE_FEAT_FDS		BIT(7)	/* PMSIDR.FDS (FEAT_SPE_FDS) */
#define SPE_FEAT_EFT		BIT(8)	/* PMSIDR.EFT (FEAT_SPE_EFT) */
#define SPE_FEAT_DISCARD	BIT(9)	/* PMBLIMITR.FM=0b10 usable */

/* Statistics exported under counters/ in sysfs. */
enum spe_stat {
	SPE_STAT_IRQS,		/* PMBIRQ interrupts taken */
	SPE_STAT_SPURIOUS,	/* interrupts with PMBSR.S clear */
	SPE_STAT_BYTES,		/* bytes of records handed to perf */
	SPE_STAT_OUTPUTS,	/* AUX records (perf_aux_output_end calls) */
	SPE_STAT_FULL,		/* buffer full events */
	SPE_STAT_TRUNCATED,	/* outputs flagged PERF_AUX_FLAG_TRUNCATED */
	SPE_STAT_FAULTS,	/* stage 1/2, GPC and IMPDEF events */
	SPE_STAT_EXT_ABORTS,	/* PMBSR.EA */
	SPE_STAT_DATA_LOSS,	/* PMBSR.DL */
	SPE_STAT_COLLISIONS,	/* outputs flagged PERF_AUX_FLAG_COLLISION */
	SPE_STAT_PAUSES,	/* pauses for lack of room in the AUX buffer */
	SPE_STAT_NR,
};

struct spe_pmu;

/* Per-CPU state; the PPI's percpu dev_id points here. */
struct spe_cpu {
	struct perf_output_handle handle;	/* open AUX transaction */
	struct spe_pmu		*spe;
	struct perf_event	*event;		/* running event, or NULL */
	unsigned int		idle_restarts;	/* restarts with no data */
	/*
	 * No room in the AUX buffer: sampling is paused (the event stays
	 * enabled) and resume_timer, armed while paused, looks for room
	 * again (the backoff is the event's, see SPE_EVF_PAUSED).
	 */
	struct hrtimer		resume_timer;
	bool			paused;
};

/*
 * A paused event's own state, kept in hw_perf_event fields this PMU does
 * not otherwise use so that it survives pmu->del/add: a per-task event
 * paused with a full buffer is switched out and in again, and must neither
 * open a new gap nor look for room more often than its backoff. (On
 * PREEMPT_RT the wakeup a failed perf_aux_output_begin() queues runs in
 * the irq_work thread, which switches the task out at once: looking for
 * room at every pmu->add livelocked the task.) hw.flags bits below
 * PERF_EVENT_FLAG_ARCH are the driver's.
 */
#define SPE_EVF_PAUSED		BIT(0)	/* no room: sampling off */
#define SPE_EVF_GAP_UNMARKED	BIT(1)	/* no TRUNCATED record ends the data */
#define spe_ev_retry_ns(event)	((event)->hw.event_base)	/* backoff */
#define spe_ev_tried_ns(event)	((event)->hw.last_tag)	/* last look, local_clock() */

/* The AUX buffer of one event, mapped contiguously. */
struct spe_buf {
	int			nr_pages;
	bool			snapshot;
	void			*base;
};

/* Decision taken on a buffer management event. */
enum spe_action {
	SPE_ACT_NONE,		/* PMBSR.S clear: nothing happened */
	SPE_ACT_RESTART,	/* hand data to perf, reprogram, go on */
	SPE_ACT_STOP,		/* hand data to perf, stop the event */
};

struct spe_pmu {
	struct pmu		pmu;
	struct platform_device	*pdev;
	cpumask_t		supported_cpus;
	cpumask_t		active_cpus;	/* online, buffer ours, set up */
	struct hlist_node	hp_node;
	int			irq;
	int			id;		/* N in arm_spe_N */
	bool			registered;

	u64			features;
	u16			pmsver;		/* ID_AA64DFR0_EL1.PMSVer */
	u64			pmsidr;		/* PMSIDR_EL1 of the probe CPU */
	u32			min_period;	/* from PMSIDR.Interval */
	u16			max_record_sz;	/* 2^PMSIDR.MaxSize */
	u16			align;		/* 2^PMBIDR.Align */
	u16			counter_sz;	/* PMSIDR.CountSize */
	u64			evfr_mask;	/* writable PMSEVFR_EL1 bits */
	int			probe_err;	/* from the per-CPU probe */

	struct spe_cpu __percpu	*pcpu;
	atomic64_t		stats[SPE_STAT_NR];
	char			name[16];
};

#define to_spe_pmu(p)	container_of(p, struct spe_pmu, pmu)

static inline void spe_stat_add(struct spe_pmu *spe, enum spe_stat s, u64 v)
{
	atomic64_add(v, &spe->stats[s]);
}

/*
 * Config fields: the bit positions below are the only definition; the
 * masks here and the format/ strings in spe_sysfs.c are made from them.
 * Positions as the in-tree arm_spe_pmu driver, which perf knows.
 */
#define SPE_CFG_TS_BIT		0	/* ts_enable */
#define SPE_CFG_PA_BIT		1	/* pa_enable */
#define SPE_CFG_PCT_BIT		2	/* pct_enable */
#define SPE_CFG_JITTER_BIT	16	/* jitter */
#define SPE_CFG_BRANCH_BIT	32	/* branch_filter */
#define SPE_CFG_LOAD_BIT	33	/* load_filter */
#define SPE_CFG_STORE_BIT	34	/* store_filter */
#define SPE_CFG_DISCARD_BIT	35	/* discard */
#define SPE_CFG_BRANCH_MASK_BIT	36	/* branch_filter_mask */
#define SPE_CFG_LOAD_MASK_BIT	37	/* load_filter_mask */
#define SPE_CFG_STORE_MASK_BIT	38	/* store_filter_mask */
#define SPE_CFG_SIMD_BIT	39	/* simd_filter */
#define SPE_CFG_SIMD_MASK_BIT	40	/* simd_filter_mask */
#define SPE_CFG_FLOAT_BIT	41	/* float_filter */
#define SPE_CFG_FLOAT_MASK_BIT	42	/* float_filter_mask */
#define SPE_CFG2_MIN_LAT_LAST	11	/* min_latency: config2:0-11 */

#define SPE_CFG_TS		BIT_ULL(SPE_CFG_TS_BIT)
#define SPE_CFG_PA		BIT_ULL(SPE_CFG_PA_BIT)
#define SPE_CFG_PCT		BIT_ULL(SPE_CFG_PCT_BIT)
#define SPE_CFG_JITTER		BIT_ULL(SPE_CFG_JITTER_BIT)
#define SPE_CFG_BRANCH		BIT_ULL(SPE_CFG_BRANCH_BIT)
#define SPE_CFG_LOAD		BIT_ULL(SPE_CFG_LOAD_BIT)
#define SPE_CFG_STORE		BIT_ULL(SPE_CFG_STORE_BIT)
#define SPE_CFG_DISCARD		BIT_ULL(SPE_CFG_DISCARD_BIT)
#define SPE_CFG_BRANCH_MASK	BIT_ULL(SPE_CFG_BRANCH_MASK_BIT)
#define SPE_CFG_LOAD_MASK	BIT_ULL(SPE_CFG_LOAD_MASK_BIT)
#define SPE_CFG_STORE_MASK	BIT_ULL(SPE_CFG_STORE_MASK_BIT)
#define SPE_CFG_SIMD		BIT_ULL(SPE_CFG_SIMD_BIT)
#define SPE_CFG_SIMD_MASK	BIT_ULL(SPE_CFG_SIMD_MASK_BIT)
#define SPE_CFG_FLOAT		BIT_ULL(SPE_CFG_FLOAT_BIT)
#define SPE_CFG_FLOAT_MASK	BIT_ULL(SPE_CFG_FLOAT_MASK_BIT)
#define SPE_CFG_TYPE_FILT	(SPE_CFG_BRANCH | SPE_CFG_LOAD | SPE_CFG_STORE)
#define SPE_CFG_EFT_FILT	(SPE_CFG_BRANCH_MASK | SPE_CFG_LOAD_MASK | \
				 SPE_CFG_STORE_MASK | SPE_CFG_SIMD | \
				 SPE_CFG_SIMD_MASK | SPE_CFG_FLOAT | \
				 SPE_CFG_FLOAT_MASK)
#define SPE_CFG_ALL		(SPE_CFG_TS | SPE_CFG_PA | SPE_CFG_PCT | \
				 SPE_CFG_JITTER | SPE_CFG_TYPE_FILT | \
				 SPE_CFG_DISCARD | SPE_CFG_EFT_FILT)
#define SPE_CFG2_MIN_LAT_BITS	(SPE_CFG2_MIN_LAT_LAST + 1)

/* spe_pmu.c */
int spe_pmu_register(struct spe_pmu *spe);
void spe_pmu_unregister(struct spe_pmu *spe);
u64 spe_aux_end(struct spe_pmu *spe, struct perf_output_handle *h,
		u32 aux_flags, u64 pmbsr);
void spe_aux_truncate(struct spe_pmu *spe, struct perf_output_handle *h);
int spe_aux_begin(struct spe_pmu *spe, struct perf_output_handle *h,
		  struct perf_event *event);
void spe_program_event(struct spe_pmu *spe, struct perf_event *event);
void spe_stop_local(struct spe_pmu *spe);
void spe_pause(struct spe_cpu *c, struct perf_event *event, bool marked);
void spe_cpu_init_timer(struct spe_cpu *c);

/* spe_irq.c */
irqreturn_t spe_pmu_irq_handler(int irq, void *dev);
enum spe_action spe_decode_pmbsr(struct spe_pmu *spe, u64 pmbsr,
				 u32 *aux_flags);

/* spe_sysfs.c */
extern const struct attribute_group *spe_attr_groups[];

#endif /* ARM_SPE_PERF_SPE_H */
