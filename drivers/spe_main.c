// SPDX-License-Identifier: GPL-2.0-only
/*
 * spe_main.c - module entry points and platform driver of arm_spe_perf, an
 * out-of-tree perf PMU driver for the Arm Statistical Profiling Extension.
 *
 * Module init refuses to load when no CPU implements FEAT_SPE or when the
 * in-tree arm_spe_pmu driver owns the hardware. Probe discovers one SPE
 * instance (DT "arm,statistical-profiling-extension-v1" or the ACPI MADT
 * platform device "arm,spe-v1"): its PPI and the CPUs it is wired to, the
 * hardware features (PMSIDR_EL1/PMBIDR_EL1, read on one of those CPUs), then
 * sets up the interrupt, CPU hotplug and registers the perf PMU.
 */
#define pr_fmt(fmt) "arm_spe_perf: " fmt

#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/device.h>
#include <linux/idr.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/module.h>
#include <linux/mod_devicetable.h>
#include <linux/of.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/platform_device.h>
#include <linux/smp.h>
#include <asm/cpufeature.h>
#include <asm/mmu.h>

#include "spe.h"
#include "spe_compat.h"
#include "spe_hw.h"

static enum cpuhp_state spe_cpuhp_state;
static DEFINE_IDA(spe_ida);

static unsigned int spe_pmsver_of(u64 dfr0)
{
	return SPE_FIELD_GET(SPE_ID_AA64DFR0_PMSVER, dfr0);
}

/*
 * Put the local SPE into a known, disabled state: sampling off first, then
 * the buffer, then a clean status. Used when a CPU comes online or goes
 * away, once no event runs on it (see spe_cpu_offline()).
 */
static void spe_reset_local(void)
{
	spe_disable_and_drain_local();
	/* Clear any management event left over, e.g. by firmware (4.3.4). */
	spe_write(0, PMBSR);
	isb();
}

static void spe_probe_cpu(void *info)
{
	struct spe_pmu *spe = info;
	struct device *dev = &spe->pdev->dev;
	unsigned int fld;
	u64 reg;

	spe->probe_err = -ENXIO;
	fld = spe_pmsver_of(read_sysreg(id_aa64dfr0_el1));
	if (fld == SPE_PMSVER_NI) {
		dev_err(dev, "CPU%d has no SPE (ID_AA64DFR0_EL1.PMSVer is 0) but the firmware lists it for this device; not probing\n",
			smp_processor_id());
		return;
	}
	spe->pmsver = fld;

	/*
	 * PMBIDR_EL1 first: when P is set the buffer belongs to a higher
	 * Exception level and the other buffer registers must not be touched
	 * (SPE supplement 4.3.1, 3.4.2 "The owning Exception level").
	 */
	reg = spe_read(PMBIDR);
	if (SPE_FIELD_GET(SPE_PMBIDR_P, reg)) {
		dev_err(dev, "the profiling buffer is owned by a higher exception level (PMBIDR_EL1.P=1): EL2/EL3 firmware keeps SPE for itself; not probing\n");
		spe->probe_err = -ENODEV;
		return;
	}
	fld = SPE_FIELD_GET(SPE_PMBIDR_ALIGN, reg);
	if (fld > SPE_MAXSIZE_LIMIT) {
		dev_err(dev, "unsupported PMBIDR_EL1.Align %u on CPU%d; not probing\n",
			fld, smp_processor_id());
		return;
	}
	spe->align = 1U << fld;

	reg = spe_read(PMSIDR);
	spe->pmsidr = reg;
	if (SPE_FIELD_GET(SPE_PMSIDR_FE, reg)) {
		spe->features |= SPE_FEAT_FILT_EVT;
		/*
		 * 4.3.8: the bit of an event that is not implemented, or
		 * that cannot be filtered on, is RES0. Which bits those are
		 * depends on the version and on optional features (SVE, SME,
		 * FEAT_SPEv1p4's E[23:19]...): write ones and read back the
		 * bits that stick, as mainline does. A direct read is ordered
		 * after a direct write of the same register: no ISB needed.
		 * Sampling is off, so the value is never used.
		 */
		spe_write(~0ULL, PMSEVFR);
		spe->evfr_mask = spe_read(PMSEVFR);
		spe_write(0, PMSEVFR);
	}
	if (SPE_FIELD_GET(SPE_PMSIDR_FT, reg))
		spe->features |= SPE_FEAT_FILT_TYP;
	if (SPE_FIELD_GET(SPE_PMSIDR_FL, reg))
		spe->features |= SPE_FEAT_FILT_LAT;
	if (SPE_FIELD_GET(SPE_PMSIDR_ARCHINST, reg))
		spe->features |= SPE_FEAT_ARCH_INST;
	if (SPE_FIELD_GET(SPE_PMSIDR_ERND, reg))
		spe->features |= SPE_FEAT_ERND;
	if (spe->pmsver >= SPE_PMSVER_V1P2 && SPE_FIELD_GET(SPE_PMSIDR_FNE, reg))
		spe->features |= SPE_FEAT_INV_FILT_EVT;
	/* FDS only where the kernel lets EL1 reach PMSDSFR_EL1. */
	if (SPE_USE_PMSDSFR && spe->pmsver >= SPE_PMSVER_V1P4 &&
	    SPE_FIELD_GET(SPE_PMSIDR_FDS, reg))
		spe->features |= SPE_FEAT_FDS;
	if (spe->pmsver >= SPE_PMSVER_V1P4 && SPE_FIELD_GET(SPE_PMSIDR_EFT, reg))
		spe->features |= SPE_FEAT_EFT;
	/* Discard mode (PMBLIMITR_EL1.FM = 0b10) is part of FEAT_SPEv1p2. */
	if (spe->pmsver >= SPE_PMSVER_V1P2)
		spe->features |= SPE_FEAT_DISCARD;

	spe->min_period = spe_interval_min(reg);

	fld = SPE_FIELD_GET(SPE_PMSIDR_MAXSIZE, reg);
	if (fld < 4 || fld > SPE_MAXSIZE_LIMIT) {
		dev_err(dev, "unsupported PMSIDR_EL1.MaxSize %u on CPU%d; not probing\n",
			fld, smp_processor_id());
		return;
	}
	spe->max_record_sz = 1U << fld;

	fld = SPE_FIELD_GET(SPE_PMSIDR_COUNTSIZE, reg);
	switch (fld) {
	case SPE_PMSIDR_COUNTSIZE_12_SAT:
		spe->counter_sz = 12;
		break;
	case SPE_PMSIDR_COUNTSIZE_16_SAT:
		spe->counter_sz = 16;
		break;
	default:
		dev_err(dev, "unsupported PMSIDR_EL1.CountSize %u on CPU%d; not probing\n",
			fld, smp_processor_id());
		return;
	}

	spe->probe_err = 0;
}

/*
 * How this CPU's SPE compares with the probe CPU's, in the order it may be
 * looked at: no SPE register may be touched without FEAT_SPE (UNDEFINED),
 * and none but PMBIDR_EL1 when PMBIDR_EL1.P is set (3.4.2, 4.3.1).
 */
enum spe_cpu_kind {
	SPE_CPU_SAME,		/* usable by this PMU */
	SPE_CPU_ABSENT,		/* ID_AA64DFR0_EL1.PMSVer is 0 */
	SPE_CPU_OWNED,		/* PMBIDR_EL1.P: a higher EL owns the buffer */
	SPE_CPU_DIFFERENT,	/* another PMSVer, PMBIDR_EL1.Align or PMSIDR_EL1 */
};

static enum spe_cpu_kind spe_cpu_kind_local(struct spe_pmu *spe)
{
	unsigned int ver = spe_pmsver_of(read_sysreg(id_aa64dfr0_el1));
	u64 pmbidr;

	if (ver == SPE_PMSVER_NI)
		return SPE_CPU_ABSENT;
	if (ver != spe->pmsver)
		return SPE_CPU_DIFFERENT;
	pmbidr = spe_read(PMBIDR);
	if (SPE_FIELD_GET(SPE_PMBIDR_P, pmbidr))
		return SPE_CPU_OWNED;
	if ((1U << SPE_FIELD_GET(SPE_PMBIDR_ALIGN, pmbidr)) != spe->align ||
	    spe_read(PMSIDR) != spe->pmsidr)
		return SPE_CPU_DIFFERENT;
	return SPE_CPU_SAME;
}

static const char *const spe_cpu_kind_why[] = {
	[SPE_CPU_ABSENT] = "has no SPE (ID_AA64DFR0_EL1.PMSVer is 0)",
	[SPE_CPU_OWNED] =
		"has its profiling buffer owned by a higher exception level (PMBIDR_EL1.P=1)",
	[SPE_CPU_DIFFERENT] =
		"has another kind of SPE (PMSVer, PMBIDR_EL1.Align or PMSIDR_EL1 differ)",
};

static int spe_cpu_online(unsigned int cpu, struct hlist_node *node)
{
	struct spe_pmu *spe = hlist_entry_safe(node, struct spe_pmu, hp_node);
	enum spe_cpu_kind kind;

	if (!cpumask_test_cpu(cpu, &spe->supported_cpus))
		return 0;
	/*
	 * What a CPU has may differ from what the probe found (a CPU that
	 * was offline then, firmware that changed PMBIDR_EL1.P): check
	 * every CPU as it comes online. A CPU that does not match stays out
	 * of active_cpus and spe_add() refuses events there.
	 */
	kind = spe_cpu_kind_local(spe);
	if (kind != SPE_CPU_SAME) {
		dev_warn(&spe->pdev->dev, "CPU%u %s; no SPE events on this CPU\n",
			 cpu, spe_cpu_kind_why[kind]);
		return 0;
	}
	spe_reset_local();
	enable_percpu_irq(spe->irq, IRQ_TYPE_NONE);
	cpumask_set_cpu(cpu, &spe->active_cpus);
	return 0;
}

/*
 * CPUHP_AP_ONLINE_DYN is torn down before CPUHP_AP_PERF_ONLINE, where perf
 * core stops the CPU's events: a CPU-wide event can still be running
 * here. Leave active_cpus first (spe_add() then refuses the CPU), stop
 * the interrupt, then stop the event as pmu->stop does so that a
 * management event pending in PMBSR_EL1 reaches its AUX record before
 * the reset clears PMBSR_EL1.
 */
static int spe_cpu_offline(unsigned int cpu, struct hlist_node *node)
{
	struct spe_pmu *spe = hlist_entry_safe(node, struct spe_pmu, hp_node);

	if (!cpumask_test_and_clear_cpu(cpu, &spe->active_cpus))
		return 0;
	disable_percpu_irq(spe->irq);
	spe_stop_local(spe);
	spe_reset_local();
	return 0;
}

struct spe_cpu_check {
	struct spe_pmu *spe;
	cpumask_t kinds[SPE_CPU_DIFFERENT + 1];
};

static void spe_check_cpu(void *info)
{
	struct spe_cpu_check *chk = info;

	cpumask_set_cpu(smp_processor_id(),
			&chk->kinds[spe_cpu_kind_local(chk->spe)]);
}

/*
 * Every online CPU of the PMU against the probe CPU: one PMU describes one
 * kind of SPE. A device that names CPUs without SPE or with another kind
 * (a DT without PPI partitions on a heterogeneous system) is refused, with
 * the first reason found; 0 when all match.
 */
static int spe_check_cpus(struct spe_pmu *spe)
{
	struct device *dev = &spe->pdev->dev;
	struct spe_cpu_check *chk;
	int kind, ret = 0;

	chk = kzalloc(sizeof(*chk), GFP_KERNEL);
	if (!chk)
		return -ENOMEM;
	chk->spe = spe;
	cpus_read_lock();
	on_each_cpu_mask(&spe->supported_cpus, spe_check_cpu, chk, true);
	cpus_read_unlock();
	for (kind = SPE_CPU_ABSENT; kind <= SPE_CPU_DIFFERENT; kind++) {
		if (cpumask_empty(&chk->kinds[kind]))
			continue;
		dev_err(dev, "CPUs %*pbl of %*pbl: each %s; one PMU describes one kind of SPE (a DT PPI partition per kind); not probing\n",
			cpumask_pr_args(&chk->kinds[kind]),
			cpumask_pr_args(&spe->supported_cpus), spe_cpu_kind_why[kind]);
		ret = kind == SPE_CPU_OWNED ? -ENODEV : -ENXIO;
		break;
	}
	kfree(chk);
	return ret;
}

static int spe_device_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct spe_pmu *spe;
	int ret, i;

	/*
	 * With KPTI the kernel is unmapped while running at EL0, and so is
	 * the buffer: the profiler would fault on every user-space sample.
	 * Refusals return -ENODEV/-ENXIO so the driver core adds no second
	 * message to the one printed here.
	 */
	if (arm64_kernel_unmapped_at_el0()) {
		dev_err(dev, "the profiling buffer is inaccessible while the kernel is unmapped at EL0 (KPTI is on); boot with kpti=0 to use SPE; not probing\n");
		return -ENODEV;
	}

	spe = devm_kzalloc(dev, sizeof(*spe), GFP_KERNEL);
	if (!spe)
		return -ENOMEM;
	spe->pdev = pdev;
	for (i = 0; i < SPE_STAT_NR; i++)
		atomic64_set(&spe->stats[i], 0);
	platform_set_drvdata(pdev, spe);

	ret = spe_get_ppi(pdev, &spe->supported_cpus);
	if (ret == -EPROBE_DEFER)
		return ret;
	if (ret == -EINVAL) {
		dev_err(dev, "the SPE interrupt is not a per-CPU interrupt (PPI): PMBIRQ is signalled by each CPU (SPE supplement 3.5); not probing\n");
		return -ENXIO;
	}
	if (ret < 0) {
		dev_err(dev, "no interrupt for the profiling buffer in the firmware description (DT interrupts property or ACPI MADT GICC SPE interrupt, error %d); not probing\n",
			ret);
		return -ENXIO;
	}
	spe->irq = ret;

	ret = smp_call_function_any(&spe->supported_cpus, spe_probe_cpu, spe, 1);
	if (ret) {
		dev_err(dev, "none of the CPUs the SPE interrupt is wired to (%*pbl) is online; not probing\n",
			cpumask_pr_args(&spe->supported_cpus));
		return -ENXIO;
	}
	if (spe->probe_err)
		return spe->probe_err;

	/* One CPU was probed: the others must have the same SPE. */
	ret = spe_check_cpus(spe);
	if (ret)
		return ret;

	spe->pcpu = alloc_percpu(struct spe_cpu);
	if (!spe->pcpu)
		return -ENOMEM;
	for_each_possible_cpu(i) {
		per_cpu_ptr(spe->pcpu, i)->spe = spe;
		spe_cpu_init_timer(per_cpu_ptr(spe->pcpu, i));
	}

	ret = spe_request_ppi(spe->irq, spe_pmu_irq_handler, SPE_DRVNAME,
			      &spe->supported_cpus, spe->pcpu);
	if (ret) {
		dev_err(dev, "cannot request irq %d (PPI, error %d); not probing\n",
			spe->irq, ret);
		goto out_free_pcpu;
	}

	ret = cpuhp_state_add_instance(spe_cpuhp_state, &spe->hp_node);
	if (ret)
		goto out_free_irq;

	ret = ida_alloc(&spe_ida, GFP_KERNEL);
	if (ret < 0)
		goto out_remove_cpuhp;
	spe->id = ret;

	ret = spe_pmu_register(spe);
	if (ret)
		goto out_free_id;

	dev_info(dev, "%s: SPE v1p%u on CPUs %*pbl, irq %d (PPI), min interval %u, max record %u bytes, align %u\n",
		 spe->name, spe->pmsver - 1, cpumask_pr_args(&spe->supported_cpus),
		 spe->irq, spe->min_period, spe->max_record_sz, spe->align);
	return 0;

out_free_id:
	ida_free(&spe_ida, spe->id);
out_remove_cpuhp:
	cpuhp_state_remove_instance(spe_cpuhp_state, &spe->hp_node);
out_free_irq:
	free_percpu_irq(spe->irq, spe->pcpu);
out_free_pcpu:
	free_percpu(spe->pcpu);
	return ret;
}

static SPE_REMOVE_RET spe_device_remove(struct platform_device *pdev)
{
	struct spe_pmu *spe = platform_get_drvdata(pdev);

	/*
	 * perf core holds a reference on this module for every open event
	 * (pmu->module), so module unload cannot start while one exists;
	 * bind/unbind through sysfs is suppressed.
	 */
	spe_pmu_unregister(spe);
	ida_free(&spe_ida, spe->id);
	/* Teardown runs spe_cpu_offline() on every online CPU. */
	cpuhp_state_remove_instance(spe_cpuhp_state, &spe->hp_node);
	free_percpu_irq(spe->irq, spe->pcpu);
	free_percpu(spe->pcpu);
	return SPE_REMOVE_OK;
}

static const struct of_device_id spe_of_match[] = {
	{ .compatible = "arm,statistical-profiling-extension-v1" },
	{ }
};
MODULE_DEVICE_TABLE(of, spe_of_match);

/* The platform device arm64's ACPI code creates from the MADT GICC entries. */
static const struct platform_device_id spe_acpi_match[] = {
	{ .name = "arm,spe-v1" },
	{ }
};
MODULE_DEVICE_TABLE(platform, spe_acpi_match);

static struct platform_driver spe_driver = {
	.driver = {
		.name = SPE_DRVNAME,
		.of_match_table = spe_of_match,
		/* Unbinding while perf events are open is not supported. */
		.suppress_bind_attrs = true,
	},
	.id_table = spe_acpi_match,
	.probe = spe_device_probe,
	.remove = spe_device_remove,
};

static void spe_read_pmsver(void *info)
{
	atomic_t *max = info;
	unsigned int v = spe_pmsver_of(read_sysreg(id_aa64dfr0_el1));

	if (v > (unsigned int)atomic_read(max))
		atomic_set(max, v);
}

/* Highest PMSVer of any online CPU (the sanitised value is 0 if mixed). */
static unsigned int spe_system_pmsver(void)
{
	unsigned int v = spe_pmsver_of(read_sanitised_ftr_reg(SYS_ID_AA64DFR0_EL1));
	atomic_t max = ATOMIC_INIT(0);
	int cpu;

	if (v)
		return v;
	cpus_read_lock();
	for_each_online_cpu(cpu)
		smp_call_function_single(cpu, spe_read_pmsver, &max, 1);
	cpus_read_unlock();
	return atomic_read(&max);
}

static bool spe_is_our_device(struct device *dev)
{
	struct platform_device *pdev = to_platform_device(dev);

	if (dev->of_node && of_match_node(spe_of_match, dev->of_node))
		return true;
	return !strcmp(pdev->name, spe_acpi_match[0].name);
}

static int spe_check_bound(struct device *dev, void *data)
{
	const char **holder = data;

	if (!spe_is_our_device(dev) || !dev->driver)
		return 0;
	*holder = dev->driver->name;
	return 1;
}

static int __init spe_init(void)
{
	const char *holder = NULL;
	int ret;

	if (!spe_system_pmsver()) {
		pr_err("no CPU implements FEAT_SPE (ID_AA64DFR0_EL1.PMSVer is 0); not loading\n");
		return -ENODEV;
	}

	if (driver_find(SPE_INTREE_DRVNAME, &platform_bus_type)) {
		pr_err("the in-tree SPE driver %s is loaded and owns the hardware; rmmod %s (or blacklist it) and load %s again\n",
		       SPE_INTREE_DRVNAME, SPE_INTREE_DRVNAME, SPE_DRVNAME);
		return -EBUSY;
	}
	if (bus_for_each_dev(&platform_bus_type, NULL, &holder, spe_check_bound)) {
		pr_err("the SPE device is already bound to driver %s; rmmod %s (or blacklist it) and load %s again\n",
		       holder, holder, SPE_DRVNAME);
		return -EBUSY;
	}

	ret = cpuhp_setup_state_multi(CPUHP_AP_ONLINE_DYN, "perf/arm/spe_perf:online",
				      spe_cpu_online, spe_cpu_offline);
	if (ret < 0)
		return ret;
	spe_cpuhp_state = ret;

	ret = platform_driver_register(&spe_driver);
	if (ret)
		cpuhp_remove_multi_state(spe_cpuhp_state);
	return ret;
}

static void __exit spe_exit(void)
{
	platform_driver_unregister(&spe_driver);
	cpuhp_remove_multi_state(spe_cpuhp_state);
	ida_destroy(&spe_ida);
}

module_init(spe_init);
module_exit(spe_exit);

MODULE_DESCRIPTION("Perf driver for the Arm Statistical Profiling Extension (out of tree)");
MODULE_LICENSE("GPL");
