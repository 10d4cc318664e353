// SPDX-License-Identifier: GPL-2.0-only
/*
 * spe_sysfs.c - the sysfs view of each arm_spe_N PMU under
 * /sys/bus/event_source/devices/arm_spe_N/:
 *   cpumask     the CPUs this SPE instance serves
 *   format/     perf event fields; each one only when the hardware has
 *               the feature (is_visible)
 *   caps/       hardware properties for the perf tool and users
 *   counters/   driver statistics since probe (all read-only, decimal)
 */
#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/perf_event.h>
#include <linux/stringify.h>
#include <linux/sysfs.h>

#include "spe.h"
#include "spe_compat.h"

static struct spe_pmu *spe_from_dev(struct device *dev)
{
	return to_spe_pmu((struct pmu *)dev_get_drvdata(dev));
}

static struct spe_pmu *spe_from_kobj(struct kobject *kobj)
{
	return spe_from_dev(kobj_to_dev(kobj));
}

/* cpumask */

static ssize_t cpumask_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	return cpumap_print_to_pagebuf(true, buf, &spe_from_dev(dev)->supported_cpus);
}
static DEVICE_ATTR_RO(cpumask);

static struct attribute *spe_pmu_attrs[] = {
	&dev_attr_cpumask.attr,
	NULL,
};

static const struct attribute_group spe_pmu_group = {
	.attrs = spe_pmu_attrs,
};

/* format/ */

struct spe_format_attr {
	struct device_attribute attr;
	const char *fmt;
	u64 feat;		/* SPE_FEAT_* needed, 0 for always */
};

static ssize_t spe_format_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	struct spe_format_attr *fa = container_of(attr, struct spe_format_attr, attr);

	return sysfs_emit(buf, "%s\n", fa->fmt);
}

#define SPE_FORMAT(_name, _fmt, _feat)					\
	static struct spe_format_attr spe_fmt_##_name = {		\
		.attr = __ATTR(_name, 0444, spe_format_show, NULL),	\
		.fmt = _fmt,						\
		.feat = _feat,						\
	}

/* "config:N" for the bit SPE_CFG_<_bit>_BIT of spe.h. */
#define SPE_FORMAT_BIT(_name, _bit, _feat)				\
	SPE_FORMAT(_name, "config:" __stringify(SPE_CFG_##_bit##_BIT), _feat)

SPE_FORMAT_BIT(ts_enable, TS, 0);
SPE_FORMAT_BIT(pa_enable, PA, 0);
SPE_FORMAT_BIT(pct_enable, PCT, 0);
SPE_FORMAT_BIT(jitter, JITTER, 0);
SPE_FORMAT_BIT(branch_filter, BRANCH, SPE_FEAT_FILT_TYP);
SPE_FORMAT_BIT(load_filter, LOAD, SPE_FEAT_FILT_TYP);
SPE_FORMAT_BIT(store_filter, STORE, SPE_FEAT_FILT_TYP);
SPE_FORMAT_BIT(discard, DISCARD, SPE_FEAT_DISCARD);
SPE_FORMAT_BIT(branch_filter_mask, BRANCH_MASK, SPE_FEAT_EFT);
SPE_FORMAT_BIT(load_filter_mask, LOAD_MASK, SPE_FEAT_EFT);
SPE_FORMAT_BIT(store_filter_mask, STORE_MASK, SPE_FEAT_EFT);
SPE_FORMAT_BIT(simd_filter, SIMD, SPE_FEAT_EFT);
SPE_FORMAT_BIT(simd_filter_mask, SIMD_MASK, SPE_FEAT_EFT);
SPE_FORMAT_BIT(float_filter, FLOAT, SPE_FEAT_EFT);
SPE_FORMAT_BIT(float_filter_mask, FLOAT_MASK, SPE_FEAT_EFT);
SPE_FORMAT(event_filter, "config1:0-63", SPE_FEAT_FILT_EVT);
SPE_FORMAT(min_latency, "config2:0-" __stringify(SPE_CFG2_MIN_LAT_LAST),
	   SPE_FEAT_FILT_LAT);
#if SPE_HAVE_CONFIG3
SPE_FORMAT(inv_event_filter, "config3:0-63", SPE_FEAT_INV_FILT_EVT);
#endif
#if SPE_HAVE_CONFIG4
SPE_FORMAT(inv_data_src_filter, "config4:0-63", SPE_FEAT_FDS);
#endif

static struct attribute *spe_format_attrs[] = {
	&spe_fmt_ts_enable.attr.attr,
	&spe_fmt_pa_enable.attr.attr,
	&spe_fmt_pct_enable.attr.attr,
	&spe_fmt_jitter.attr.attr,
	&spe_fmt_branch_filter.attr.attr,
	&spe_fmt_load_filter.attr.attr,
	&spe_fmt_store_filter.attr.attr,
	&spe_fmt_discard.attr.attr,
	&spe_fmt_branch_filter_mask.attr.attr,
	&spe_fmt_load_filter_mask.attr.attr,
	&spe_fmt_store_filter_mask.attr.attr,
	&spe_fmt_simd_filter.attr.attr,
	&spe_fmt_simd_filter_mask.attr.attr,
	&spe_fmt_float_filter.attr.attr,
	&spe_fmt_float_filter_mask.attr.attr,
	&spe_fmt_event_filter.attr.attr,
	&spe_fmt_min_latency.attr.attr,
#if SPE_HAVE_CONFIG3
	&spe_fmt_inv_event_filter.attr.attr,
#endif
#if SPE_HAVE_CONFIG4
	&spe_fmt_inv_data_src_filter.attr.attr,
#endif
	NULL,
};

static umode_t spe_format_visible(struct kobject *kobj, struct attribute *attr,
				  int i)
{
	struct spe_format_attr *fa = container_of(attr, struct spe_format_attr,
						  attr.attr);
	struct spe_pmu *spe = spe_from_kobj(kobj);

	return (!fa->feat || (spe->features & fa->feat)) ? attr->mode : 0;
}

static const struct attribute_group spe_format_group = {
	.name = "format",
	.attrs = spe_format_attrs,
	.is_visible = spe_format_visible,
};

/* caps/ */

enum spe_cap {
	SPE_CAP_ARCH_INST,
	SPE_CAP_ERND,
	SPE_CAP_COUNT_SIZE,
	SPE_CAP_MIN_INTERVAL,
	SPE_CAP_EVENT_FILTER,
	SPE_CAP_ALIGN,
	SPE_CAP_MAX_RECORD_SIZE,
	SPE_CAP_PMSVER,
};

static ssize_t spe_cap_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	struct dev_ext_attribute *ea = container_of(attr, struct dev_ext_attribute, attr);
	struct spe_pmu *spe = spe_from_dev(dev);

	switch ((unsigned long)ea->var) {
	case SPE_CAP_ARCH_INST:
		return sysfs_emit(buf, "%d\n", !!(spe->features & SPE_FEAT_ARCH_INST));
	case SPE_CAP_ERND:
		return sysfs_emit(buf, "%d\n", !!(spe->features & SPE_FEAT_ERND));
	case SPE_CAP_COUNT_SIZE:
		return sysfs_emit(buf, "%u\n", spe->counter_sz);
	case SPE_CAP_MIN_INTERVAL:
		return sysfs_emit(buf, "%u\n", spe->min_period);
	case SPE_CAP_EVENT_FILTER:
		/* Bits of config1 (PMSEVFR_EL1) this hardware accepts. */
		return sysfs_emit(buf, "0x%llx\n", spe->evfr_mask);
	case SPE_CAP_ALIGN:
		return sysfs_emit(buf, "%u\n", spe->align);
	case SPE_CAP_MAX_RECORD_SIZE:
		return sysfs_emit(buf, "%u\n", spe->max_record_sz);
	case SPE_CAP_PMSVER:
		return sysfs_emit(buf, "%u\n", spe->pmsver);
	}
	return -EINVAL;
}

#define SPE_EXT_ATTR(_prefix, _name, _show, _var)			\
	static struct dev_ext_attribute spe_##_prefix##_##_name = {	\
		.attr = __ATTR(_name, 0444, _show, NULL),		\
		.var = (void *)(unsigned long)(_var),			\
	}

SPE_EXT_ATTR(cap, arch_inst, spe_cap_show, SPE_CAP_ARCH_INST);
SPE_EXT_ATTR(cap, ernd, spe_cap_show, SPE_CAP_ERND);
SPE_EXT_ATTR(cap, count_size, spe_cap_show, SPE_CAP_COUNT_SIZE);
SPE_EXT_ATTR(cap, min_interval, spe_cap_show, SPE_CAP_MIN_INTERVAL);
SPE_EXT_ATTR(cap, event_filter, spe_cap_show, SPE_CAP_EVENT_FILTER);
SPE_EXT_ATTR(cap, align, spe_cap_show, SPE_CAP_ALIGN);
SPE_EXT_ATTR(cap, max_record_size, spe_cap_show, SPE_CAP_MAX_RECORD_SIZE);
SPE_EXT_ATTR(cap, pmsver, spe_cap_show, SPE_CAP_PMSVER);

static struct attribute *spe_caps_attrs[] = {
	&spe_cap_arch_inst.attr.attr,
	&spe_cap_ernd.attr.attr,
	&spe_cap_count_size.attr.attr,
	&spe_cap_min_interval.attr.attr,
	&spe_cap_event_filter.attr.attr,
	&spe_cap_align.attr.attr,
	&spe_cap_max_record_size.attr.attr,
	&spe_cap_pmsver.attr.attr,
	NULL,
};

static const struct attribute_group spe_caps_group = {
	.name = "caps",
	.attrs = spe_caps_attrs,
};

/* counters/ */

static ssize_t spe_counter_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	struct dev_ext_attribute *ea = container_of(attr, struct dev_ext_attribute, attr);
	struct spe_pmu *spe = spe_from_dev(dev);
	unsigned long i = (unsigned long)ea->var;

	return sysfs_emit(buf, "%lld\n", (long long)atomic64_read(&spe->stats[i]));
}

SPE_EXT_ATTR(cnt, irqs, spe_counter_show, SPE_STAT_IRQS);
SPE_EXT_ATTR(cnt, spurious_irqs, spe_counter_show, SPE_STAT_SPURIOUS);
SPE_EXT_ATTR(cnt, bytes, spe_counter_show, SPE_STAT_BYTES);
SPE_EXT_ATTR(cnt, aux_records, spe_counter_show, SPE_STAT_OUTPUTS);
SPE_EXT_ATTR(cnt, buffer_full, spe_counter_show, SPE_STAT_FULL);
SPE_EXT_ATTR(cnt, truncated, spe_counter_show, SPE_STAT_TRUNCATED);
SPE_EXT_ATTR(cnt, faults, spe_counter_show, SPE_STAT_FAULTS);
SPE_EXT_ATTR(cnt, ext_aborts, spe_counter_show, SPE_STAT_EXT_ABORTS);
SPE_EXT_ATTR(cnt, data_loss, spe_counter_show, SPE_STAT_DATA_LOSS);
SPE_EXT_ATTR(cnt, collisions, spe_counter_show, SPE_STAT_COLLISIONS);
SPE_EXT_ATTR(cnt, gaps, spe_counter_show, SPE_STAT_PAUSES);

static struct attribute *spe_counter_attrs[] = {
	&spe_cnt_irqs.attr.attr,
	&spe_cnt_spurious_irqs.attr.attr,
	&spe_cnt_bytes.attr.attr,
	&spe_cnt_aux_records.attr.attr,
	&spe_cnt_buffer_full.attr.attr,
	&spe_cnt_truncated.attr.attr,
	&spe_cnt_faults.attr.attr,
	&spe_cnt_ext_aborts.attr.attr,
	&spe_cnt_data_loss.attr.attr,
	&spe_cnt_collisions.attr.attr,
	&spe_cnt_gaps.attr.attr,
	NULL,
};

static const struct attribute_group spe_counters_group = {
	.name = "counters",
	.attrs = spe_counter_attrs,
};

const struct attribute_group *spe_attr_groups[] = {
	&spe_pmu_group,
	&spe_format_group,
	&spe_caps_group,
	&spe_counters_group,
	NULL,
};
