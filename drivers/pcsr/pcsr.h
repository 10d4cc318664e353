/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pcsr.h - shared definitions of arm_pcsr, a perf PMU driver for the Arm PC
 * Sample-based Profiling Extension (FEAT_PCSRv8p2 and FEAT_PCSRv8p9, Arm ARM
 * H7): the frame registers, the per-CPU frame and per-event state, and the
 * interfaces between the module's files.
 */
#ifndef ARM_PCSR_H
#define ARM_PCSR_H

#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/device.h>
#include <linux/hrtimer.h>
#include <linux/list.h>
#include <linux/perf_event.h>
#include <linux/percpu.h>
#include <linux/types.h>

/* SPE_REMOVE_RET and the SPE_HAVE_* probes: the project's one compat header */
#include "spe_compat.h"

/* Frame offsets: Arm ARM Table H7-1; PMPCSCTL at its PMU frame offset */
#define PCSR_PMPCSR_LO		0x200
#define PCSR_PMPCSR_HI		0x204
#define PCSR_PMCID1SR		0x208
#define PCSR_PMVIDSR		0x20c
#define PCSR_PMCID2SR		0x22c
#define PCSR_PMPCSCTL		0xe50
#define PCSR_PMAUTHSTATUS	0xfb8
#define PCSR_PMDEVARCH		0xfbc
#define PCSR_PMDEVID		0xfc8

/* PMPCSR fields */
#define PCSR_PMPCSR_NS		BIT_ULL(63)
#define PCSR_PMPCSR_EL		GENMASK_ULL(62, 61)
#define PCSR_PMPCSR_PC		GENMASK_ULL(55, 0)
/* H7.1.3: PMPCSR[31:0] of a sample that is not valid */
#define PCSR_PMPCSR_UNKNOWN	0xffffffffU

/* PMPCSCTL (FEAT_PCSRv8p9, H7.1.1.1) */
#define PCSR_PMPCSCTL_EN	BIT(0)
#define PCSR_PMPCSCTL_IMP	BIT(1)

/* PMAUTHSTATUS.NSNID: 0b10 disabled, 0b11 enabled (H7.1.1) */
#define PCSR_AUTH_NSNID		GENMASK(3, 2)
#define PCSR_AUTH_NSNID_ON	3
/* PMDEVID.PCSample == 0b0001: FEAT_PCSRv8p2 (H7.1.2) */
#define PCSR_DEVID_PCSAMPLE	GENMASK(3, 0)

/* Shortest sampling period: 20 kHz per CPU */
#define PCSR_MIN_PERIOD_NS	50000ULL

/* One PE's frame, from its DT node */
struct pcsr_frame {
	void __iomem *base;
	struct device *dev;
	int cpu;
	bool niden;		/* external non-invasive debug enabled */
	bool has_ctl;		/* PMPCSCTL.IMP: suspend/activate */
	unsigned int users;	/* active events, under pcsr_lock */
};

/* One perf event: a target CPU sampled at a fixed period */
struct pcsr_event {
	struct list_head node;		/* on the sampler's list */
	struct perf_event *event;
	struct hlist_head head;		/* the event alone, for perf_tp_event */
	perf_overflow_handler_t orig_handler;
	u64 period_ns;
	ktime_t next;			/* when the next sample is due */
	pid_t pid, tid;			/* of the sample being output */
};

/* Driver-wide counters, shown in sysfs */
struct pcsr_stats {
	atomic64_t samples;	/* output to perf */
	atomic64_t unknown;	/* PMPCSR[31:0] == 0xFFFFFFFF, dropped */
	atomic64_t filtered;	/* excluded by exclude_user/exclude_kernel */
	atomic64_t lost;	/* no perf trace buffer */
};

DECLARE_PER_CPU(struct pcsr_frame *, pcsr_frame);
extern struct pcsr_stats pcsr_stats;

/* pcsr_pmu.c */
int pcsr_pmu_register(void);
void pcsr_pmu_unregister(void);

/* pcsr_sysfs.c */
extern const struct attribute_group *pcsr_attr_groups[];

#endif /* ARM_PCSR_H */
