/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * spe_compat.h - every difference between the kernels the module supports
 * (6.1, 6.12, 7.x) in one place. The rest of the driver uses only the
 * helpers and macros defined here when an API changed between them.
 *
 * Which API a kernel has is never inferred from its version: the build
 * compiles a test program per API against the target kernel's headers
 * (drivers/conftest.sh, run by Kbuild) and spe_features.h, generated in
 * the build directory, defines SPE_HAVE_<API> for each one found. A
 * distribution backport is thus seen for what it is.
 */
#ifndef ARM_SPE_PERF_SPE_COMPAT_H
#define ARM_SPE_PERF_SPE_COMPAT_H

#include <linux/capability.h>
#include <linux/cpumask.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/irq_work.h>
#include <linux/perf_event.h>
#include <linux/platform_device.h>

#include "spe_features.h"

/* platform_driver.remove returns void (6.11) or int. */
#ifdef SPE_HAVE_REMOVE_VOID
#define SPE_REMOVE_RET		void
#define SPE_REMOVE_OK
#else
#define SPE_REMOVE_RET		int
#define SPE_REMOVE_OK		0
#endif

/* perf_event_attr grew config3 (6.3) and config4 (6.19). */
#ifdef SPE_HAVE_ATTR_CONFIG3
#define SPE_HAVE_CONFIG3	1
#else
#define SPE_HAVE_CONFIG3	0
#endif
#ifdef SPE_HAVE_ATTR_CONFIG4
#define SPE_HAVE_CONFIG4	1
#else
#define SPE_HAVE_CONFIG4	0
#endif

/*
 * PMSDSFR_EL1 (FEAT_SPE_FDS) is touched only where the kernel has both
 * the data source filter ABI (attr.config4) and the boot code that opens
 * its EL2 fine-grained trap; elsewhere an nVHE or protected-KVM host
 * with FEAT_FGT2 traps the access to EL2.
 */
#if SPE_HAVE_CONFIG4 && defined(SPE_HAVE_PMSDSFR_EL2_SETUP)
#define SPE_USE_PMSDSFR		1
#else
#define SPE_USE_PMSDSFR		0
#endif

static inline u64 spe_attr_config3(const struct perf_event_attr *attr)
{
#if SPE_HAVE_CONFIG3
	return attr->config3;
#else
	return 0;
#endif
}

static inline u64 spe_attr_config4(const struct perf_event_attr *attr)
{
#if SPE_HAVE_CONFIG4
	return attr->config4;
#else
	return 0;
#endif
}

/* struct pmu gained a parent device in 6.8 (shown as the PMU's parent). */
static inline void spe_pmu_set_parent(struct pmu *pmu, struct device *dev)
{
#ifdef SPE_HAVE_PMU_PARENT
	pmu->parent = dev;
#endif
}

/*
 * Access to kernel data (physical addresses, physical timer, context IDs):
 * where perf_allow_kernel() is an exported function it applies
 * perf_event_paranoid (<= 1) or CAP_PERFMON, as the in-tree driver does;
 * it takes no argument from 6.15 (and in Debian's 6.12), the attr in
 * 6.12. Before 6.12 it is an inline reading symbols modules cannot link
 * against (sysctl_perf_event_paranoid, security_perf_event_open), so the
 * check falls back to CAP_PERFMON alone, as the in-tree driver did then.
 */
static inline int spe_perf_allow_kernel(struct perf_event *event)
{
#if defined(SPE_HAVE_PERF_ALLOW_KERNEL_VOID)
	return perf_allow_kernel();
#elif defined(SPE_HAVE_PERF_ALLOW_KERNEL_ATTR)
	return perf_allow_kernel(&event->attr);
#else
	return perfmon_capable() ? 0 : -EACCES;
#endif
}

/*
 * PPI partitions: up to 6.18 the affinity of a partitioned per-CPU
 * interrupt is read back with irq_get_percpu_devid_partition() and the
 * interrupt is requested for all CPUs; from 6.19 the affinity comes from
 * platform_get_irq_affinity() and must be passed back when requesting.
 * spe_get_ppi() returns the Linux irq number or a negative errno and fills
 * @mask with the CPUs the interrupt is wired to.
 */
#ifdef SPE_HAVE_PPI_AFFINITY
#define SPE_PPI_AFFINITY_API	1
#else
#define SPE_PPI_AFFINITY_API	0
#endif

static inline int spe_get_ppi(struct platform_device *pdev, struct cpumask *mask)
{
	int irq;
#if SPE_PPI_AFFINITY_API
	const struct cpumask *aff = NULL;

	irq = platform_get_irq_affinity(pdev, 0, &aff);
	if (irq <= 0)
		return irq ? irq : -ENXIO;
	if (!irq_is_percpu(irq))
		return -EINVAL;
	cpumask_copy(mask, aff ? aff : cpu_possible_mask);
#else
	irq = platform_get_irq_optional(pdev, 0);
	if (irq <= 0)
		return irq ? irq : -ENXIO;
	if (!irq_is_percpu(irq))
		return -EINVAL;
	if (irq_get_percpu_devid_partition(irq, mask))
		return -EINVAL;
#endif
	return irq;
}

static inline int spe_request_ppi(unsigned int irq, irq_handler_t handler,
				  const char *name, const struct cpumask *mask,
				  void __percpu *dev_id)
{
#if SPE_PPI_AFFINITY_API
	return request_percpu_irq_affinity(irq, handler, name, mask, dev_id);
#else
	return request_percpu_irq(irq, handler, name, dev_id);
#endif
}

/*
 * Have perf core turn off (PERF_EVENT_STATE_OFF) an event the driver has
 * stopped for good, from the interrupt or a pmu callback, where the
 * exported disable functions cannot be called (they take the context
 * lock or wait) and perf_event_disable_inatomic() is not exported.
 *
 * perf core's own stop paths (perf_aux_output_begin() with no room,
 * perf_aux_output_end() with TRUNCATED) store smp_processor_id() in
 * pending_disable, which every supported kernel reads as a boolean: on
 * CPU 0 they request nothing. And they only set the flag; the disable
 * happens at the next schedule-out (never, for a CPU-wide event) unless
 * the irq_work that performs it is queued.
 *
 * So do what perf_event_disable_inatomic() does: set the flag, then queue
 * the irq_work that calls perf_event_disable_local() on the event's CPU
 * as soon as interrupts are enabled: pending_disable_irq where it exists
 * (6.10), before that pending_irq, whose handler also handles
 * pending_disable. Both names are found by drivers/conftest.sh.
 */
static inline void spe_event_disable_pending(struct perf_event *event)
{
	WRITE_ONCE(event->pending_disable, 1);
#if defined(SPE_HAVE_PENDING_DISABLE_IRQ)
	irq_work_queue(&event->pending_disable_irq);
#elif defined(SPE_HAVE_PENDING_IRQ)
	irq_work_queue(&event->pending_irq);
#else
#error "neither perf_event.pending_disable_irq nor pending_irq (drivers/conftest.sh)"
#endif
}

/*
 * Keep an event the driver pauses (no room in its AUX buffer) enabled:
 * perf_aux_output_begin() without room and perf_aux_output_end() with
 * TRUNCATED have just requested its disable (pending_disable, on this CPU
 * with interrupts off, so neither the irq_work they may have queued nor a
 * schedule-out has acted on it yet). An SPE event has no other source of
 * that request: it never overflows, so event_limit and sigtrap do not
 * apply.
 */
static inline void spe_event_keep_enabled(struct perf_event *event)
{
	WRITE_ONCE(event->pending_disable, 0);
}

/* hrtimer_setup() replaced hrtimer_init() plus the function (6.13). */
static inline void spe_hrtimer_setup(struct hrtimer *t,
				     enum hrtimer_restart (*fn)(struct hrtimer *),
				     enum hrtimer_mode mode)
{
#ifdef SPE_HAVE_HRTIMER_SETUP
	hrtimer_setup(t, fn, CLOCK_MONOTONIC, mode);
#else
	hrtimer_init(t, CLOCK_MONOTONIC, mode);
	t->function = fn;
#endif
}

#endif /* ARM_SPE_PERF_SPE_COMPAT_H */
