// SPDX-License-Identifier: GPL-2.0
/*
 * Discovery: the arm_spe_N PMU exists and its type, cpumask, format/ and
 * caps/ describe the implementation the emulator (or the hardware) was
 * configured with. The expected values come from the runner (SPE_EXP_*
 * environment variables, derived from the QEMU CPU properties it set),
 * never from the driver; without them the test skips.
 *
 * PMSEVFR_EL1 filterable events (caps/event_filter), per PMSVer:
 * spe_exp_event_filter() (spe_lib.c).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include "spe_test.h"

uint64_t wl_buf[WL_WORDS];

#define EXP(name)	spe_env_long("SPE_EXP_" name, -1)

static void need_expectations(struct __test_metadata *_metadata)
{
	if (EXP("VERSION") < 0)
		SKIP(return, "no SPE_EXP_* expectations from the runner");
}

TEST(pmu_registered)
{
	struct spe_pmu_info p;
	const char *s;

	ASSERT_EQ(0, spe_pmu_find(&p)) TH_LOG("no arm_spe_N under " SPE_SYSFS_DEVS);
	EXPECT_GT(p.type, 5) TH_LOG("type %d collides with a generic perf type", p.type);
	s = spe_sysfs_read(&p, "cpumask");
	ASSERT_NE(NULL, s);
	if (EXP("CPUS") >= 0) {
		char want[32];

		if (EXP("CPUS") == 1)
			snprintf(want, sizeof(want), "0");
		else
			snprintf(want, sizeof(want), "0-%ld", EXP("CPUS") - 1);
		EXPECT_STREQ(want, s);
	}
}

TEST(caps_match_implementation)
{
	struct spe_pmu_info p;
	long v;
	uint64_t evf;

	NEED_PMU(&p);
	need_expectations(_metadata);
	if (EXP("VERSION") < 0)
		return;
	v = EXP("VERSION");
	EXPECT_EQ(v, p.pmsver);
	EXPECT_EQ(EXP("INTERVAL"), p.min_interval);
	EXPECT_EQ(EXP("MAXSIZE"), p.max_record_size);
	EXPECT_EQ(EXP("COUNTSIZE"), p.count_size);
	EXPECT_EQ(EXP("ALIGN"), p.align);
	EXPECT_EQ(EXP("ARCHINST"), p.arch_inst);
	EXPECT_EQ(EXP("ERND"), p.ernd);
	evf = spe_exp_event_filter(v, EXP("FE") == 1);
	EXPECT_EQ(evf, p.event_filter) TH_LOG("caps/event_filter %#llx, expected %#llx",
					      (unsigned long long)p.event_filter,
					      (unsigned long long)evf);
}

static void expect_format(struct __test_metadata *_metadata,
			  const struct spe_pmu_info *p, const char *name,
			  int present, const char *field)
{
	char rel[128];
	const char *s;

	snprintf(rel, sizeof(rel), "format/%s", name);
	s = spe_sysfs_read(p, rel);
	if (!present) {
		EXPECT_EQ(NULL, s) TH_LOG("format/%s present without the feature", name);
		return;
	}
	EXPECT_NE(NULL, s) TH_LOG("format/%s missing", name);
	if (s)
		EXPECT_STREQ(field, s);
}

TEST(format_matches_features)
{
	struct spe_pmu_info p;
	long v, ft, eft;

	NEED_PMU(&p);
	need_expectations(_metadata);
	if (EXP("VERSION") < 0)
		return;
	v = EXP("VERSION");
	ft = EXP("FT") == 1;
	eft = EXP("EFT") == 1 && v >= 5;
	/* Field positions as the in-tree arm_spe_pmu driver, which perf knows. */
	expect_format(_metadata, &p, "ts_enable", 1, "config:0");
	expect_format(_metadata, &p, "pa_enable", 1, "config:1");
	expect_format(_metadata, &p, "pct_enable", 1, "config:2");
	expect_format(_metadata, &p, "jitter", 1, "config:16");
	expect_format(_metadata, &p, "branch_filter", ft, "config:32");
	expect_format(_metadata, &p, "load_filter", ft, "config:33");
	expect_format(_metadata, &p, "store_filter", ft, "config:34");
	expect_format(_metadata, &p, "discard", v >= 3, "config:35");
	expect_format(_metadata, &p, "branch_filter_mask", eft, "config:36");
	expect_format(_metadata, &p, "load_filter_mask", eft, "config:37");
	expect_format(_metadata, &p, "store_filter_mask", eft, "config:38");
	expect_format(_metadata, &p, "simd_filter", eft, "config:39");
	expect_format(_metadata, &p, "simd_filter_mask", eft, "config:40");
	expect_format(_metadata, &p, "float_filter", eft, "config:41");
	expect_format(_metadata, &p, "float_filter_mask", eft, "config:42");
	expect_format(_metadata, &p, "event_filter", EXP("FE") == 1, "config1:0-63");
	expect_format(_metadata, &p, "min_latency", EXP("FL") == 1, "config2:0-11");
	expect_format(_metadata, &p, "inv_event_filter",
		      EXP("FNE") == 1 && v >= 3 && EXP("CONFIG3") == 1, "config3:0-63");
	/* Mainline's term and polarity (drops the data sources set). */
	expect_format(_metadata, &p, "inv_data_src_filter",
		      EXP("FDS") == 1 && v >= 5 && EXP("CONFIG4") == 1, "config4:0-63");
	expect_format(_metadata, &p, "data_src_filter", 0, NULL);
}

TEST(counters_present)
{
	static const char *const names[] = {
		"irqs", "spurious_irqs", "bytes", "aux_records", "buffer_full",
		"truncated", "faults", "ext_aborts", "data_loss", "collisions",
		"gaps",
	};
	struct spe_pmu_info p;
	unsigned int i;

	NEED_PMU(&p);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		EXPECT_GE(spe_counter(&p, names[i]), 0) TH_LOG("counters/%s", names[i]);
	/*
	 * No bound on "collisions": hardware collides, and so does the
	 * emulator's strict model at interval 256 (emulation.rst).
	 */
}

TEST_HARNESS_MAIN
