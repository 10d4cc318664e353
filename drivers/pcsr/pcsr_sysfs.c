// SPDX-License-Identifier: GPL-2.0-only
/*
 * pcsr_sysfs.c - sysfs attributes of the arm_pcsr PMU: which CPUs have a PC
 * sample frame and which of those firmware lets be sampled, and the
 * driver's counters. Documented in
 * Documentation/ABI/testing/sysfs-bus-event_source-devices-arm_pcsr.
 */
#include <linux/cpumask.h>
#include <linux/device.h>
#include <linux/sysfs.h>

#include "pcsr.h"

static ssize_t pcsr_show_cpus(char *buf, bool need_niden)
{
	struct pcsr_frame *f;
	cpumask_var_t mask;
	ssize_t n;
	int cpu;

	if (!zalloc_cpumask_var(&mask, GFP_KERNEL))
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		f = per_cpu(pcsr_frame, cpu);
		if (f && (!need_niden || f->niden))
			cpumask_set_cpu(cpu, mask);
	}
	n = cpumap_print_to_pagebuf(true, buf, mask);
	free_cpumask_var(mask);
	return n;
}

/* CPUs with a frame */
static ssize_t frames_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	return pcsr_show_cpus(buf, false);
}
static DEVICE_ATTR_RO(frames);

/* CPUs with a frame and external non-invasive debug enabled */
static ssize_t sampleable_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	return pcsr_show_cpus(buf, true);
}
static DEVICE_ATTR_RO(sampleable);

static struct attribute *pcsr_attrs[] = {
	&dev_attr_frames.attr,
	&dev_attr_sampleable.attr,
	NULL,
};

static const struct attribute_group pcsr_group = {
	.attrs = pcsr_attrs,
};

/* One show function for the counters: the attribute points to its counter */
static ssize_t pcsr_counter_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	struct dev_ext_attribute *ea = container_of(attr, struct dev_ext_attribute,
						    attr);

	return sysfs_emit(buf, "%lld\n", (long long)atomic64_read(ea->var));
}

#define PCSR_COUNTER(_name, _var)					\
	static struct dev_ext_attribute pcsr_counter_##_name = {	\
		.attr = __ATTR(_name, 0444, pcsr_counter_show, NULL),	\
		.var = (_var),						\
	}

PCSR_COUNTER(samples, &pcsr_stats.samples);
PCSR_COUNTER(unknown, &pcsr_stats.unknown);
PCSR_COUNTER(filtered, &pcsr_stats.filtered);
PCSR_COUNTER(lost, &pcsr_stats.lost);

static struct attribute *pcsr_counter_attrs[] = {
	&pcsr_counter_samples.attr.attr,
	&pcsr_counter_unknown.attr.attr,
	&pcsr_counter_filtered.attr.attr,
	&pcsr_counter_lost.attr.attr,
	NULL,
};

static const struct attribute_group pcsr_counter_group = {
	.name = "counters",
	.attrs = pcsr_counter_attrs,
};

const struct attribute_group *pcsr_attr_groups[] = {
	&pcsr_group,
	&pcsr_counter_group,
	NULL,
};
