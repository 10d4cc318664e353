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
#include <glob.h>
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
	evf = spe_exp_event_filter(v, EXP("FE") == 1, EXP("SME") == 1);
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

/* "0-2,5" (a sysfs cpumask list) to a bit mask */
static uint64_t cpulist_mask(const char *s)
{
	uint64_t m = 0;
	char *end;
	long a, b;

	while (*s) {
		a = strtol(s, &end, 10);
		b = *end == '-' ? strtol(end + 1, &end, 10) : a;
		for (; a <= b && a < 64; a++)
			m |= 1ull << a;
		s = *end == ',' ? end + 1 : end;
		if (*s == '\n')
			break;
	}
	return m;
}

/*
 * A DT with GICv3 PPI partitions (SPE_EXP_PARTITIONS, from the runner:
 * groups of CPUs separated by spaces, e.g. "0 1") describes one SPE node
 * per partition: one arm_spe_N per partition, each serving exactly the
 * CPUs of its partition (its cpumask), refusing events on the others
 * (ENOENT, as perf core expects of a PMU that does not cover a CPU) and
 * capturing records on its own.
 */
TEST(pmus_match_partitions)
{
	const char *spec = getenv("SPE_EXP_PARTITIONS");
	uint64_t want[8], got[8], left;
	int nwant = 0, ngot, ncpus = EXP("CPUS"), i, j, c;
	struct spe_pmu_info p[8];
	char buf[64], *tok, *save;
	glob_t g;

	if (!spec || !*spec)
		SKIP(return, "no PPI partitions in this boot (SPE_EXP_PARTITIONS)");
	ASSERT_GT(ncpus, 0);
	snprintf(buf, sizeof(buf), "%s", spec);
	for (tok = strtok_r(buf, " ", &save); tok && nwant < 8; tok = strtok_r(NULL, " ", &save))
		want[nwant++] = cpulist_mask(tok);

	ASSERT_EQ(0, glob(SPE_SYSFS_DEVS "/arm_spe_*", 0, NULL, &g));
	ngot = g.gl_pathc;
	ASSERT_EQ(nwant, ngot) TH_LOG("%d arm_spe PMUs for %d partitions", ngot, nwant);
	left = (1ull << nwant) - 1;
	for (i = 0; i < ngot; i++) {
		const char *s;

		ASSERT_EQ(0, spe_pmu_load(&p[i], g.gl_pathv[i])) TH_LOG("%s", g.gl_pathv[i]);
		s = spe_sysfs_read(&p[i], "cpumask");
		ASSERT_NE(NULL, s);
		got[i] = cpulist_mask(s);
		for (j = 0; j < nwant; j++)
			if ((left >> j & 1) && want[j] == got[i])
				break;
		EXPECT_LT(j, nwant) TH_LOG("%s: cpumask %s is no partition's", p[i].dir, s);
		if (j < nwant)
			left &= ~(1ull << j);
	}
	globfree(&g);

	for (i = 0; i < ngot; i++) {
		for (c = 0; c < ncpus; c++) {
			struct perf_event_attr a;
			struct spe_session ss;
			int in = got[i] >> c & 1;

			spe_attr_init(&a, &p[i], 0, 4096);
			if (!in) {
				int fd = spe_perf_open(&a, -1, c);

				EXPECT_EQ(-1, fd) TH_LOG("%s opened an event on CPU %d", p[i].dir, c);
				if (fd >= 0)
					close(fd);
				else
					EXPECT_EQ(ENOENT, errno) TH_LOG("%s, CPU %d: %s", p[i].dir, c,
									strerror(errno));
				continue;
			}
			ASSERT_EQ(0, spe_session_open(&ss, &a, -1, c, 8, 16, 0))
				TH_LOG("%s, CPU %d: %s", p[i].dir, c, strerror(errno));
			ASSERT_EQ(0, spe_pin_cpu(c));
			spe_enable(&ss);
			spe_wl_ldst(wl_buf, WL_WORDS - 1, 20000);
			spe_disable(&ss);
			EXPECT_EQ(0, spe_session_collect(&ss));
			EXPECT_GT(ss.len, 0) TH_LOG("%s recorded nothing on CPU %d", p[i].dir, c);
			spe_session_close(&ss);
		}
	}
}

TEST_HARNESS_MAIN
