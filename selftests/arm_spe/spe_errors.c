// SPDX-License-Identifier: GPL-2.0
/*
 * Invalid and unsupported attributes give the errno documented in
 * Documentation/driver.rst (which follows the in-tree arm_spe_pmu
 * driver): frequency mode EINVAL, exclude_idle and branch stacks
 * EOPNOTSUPP, both exclude_user and exclude_kernel EINVAL, unknown config
 * bits EINVAL, features the implementation lacks EOPNOTSUPP, per-CPU events
 * on a CPU that does not exist ENODEV/ENOENT-like errors from the core.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include "spe_test.h"

uint64_t wl_buf[WL_WORDS];

FIXTURE(attr) {
	struct spe_pmu_info p;
	union {
		struct perf_event_attr a;
		union spe_attr a_storage;
	};
	int fd;
};

FIXTURE_SETUP(attr)
{
	self->fd = -1;
	NEED_PMU(&self->p);
	spe_attr_init(&self->a, &self->p, 0, 4096);
}

FIXTURE_TEARDOWN(attr)
{
	if (self->fd >= 0)
		close(self->fd);
}

#define EXPECT_OPEN_ERRNO(err)						\
	do {								\
		self->fd = spe_perf_open(&self->a, 0, -1);		\
		EXPECT_EQ(-1, self->fd) TH_LOG("open succeeded, expected %s", strerror(err)); \
		if (self->fd < 0)					\
			EXPECT_EQ(err, errno) TH_LOG("errno %d (%s), expected %d (%s)", \
				errno, strerror(errno), err, strerror(err)); \
	} while (0)

#define EXPECT_OPEN_OK()						\
	do {								\
		self->fd = spe_perf_open(&self->a, 0, -1);		\
		EXPECT_LE(0, self->fd) TH_LOG("open failed: %s", strerror(errno)); \
	} while (0)

TEST_F(attr, baseline_opens)
{
	EXPECT_OPEN_OK();
}

TEST_F(attr, freq_mode_einval)
{
	self->a.freq = 1;
	self->a.sample_freq = 1000;
	EXPECT_OPEN_ERRNO(EINVAL);
}

TEST_F(attr, exclude_idle_eopnotsupp)
{
	self->a.exclude_idle = 1;
	EXPECT_OPEN_ERRNO(EOPNOTSUPP);
}

TEST_F(attr, exclude_user_and_kernel_einval)
{
	self->a.exclude_user = 1;
	self->a.exclude_kernel = 1;
	EXPECT_OPEN_ERRNO(EINVAL);
}

TEST_F(attr, unknown_config_bits_einval)
{
	static const int bits[] = { 3, 15, 17, 31, 43, 63 };
	unsigned int i;

	for (i = 0; i < sizeof(bits) / sizeof(bits[0]); i++) {
		self->a.config = 1ull << bits[i];
		self->fd = spe_perf_open(&self->a, 0, -1);
		EXPECT_EQ(-1, self->fd) TH_LOG("config bit %d accepted", bits[i]);
		if (self->fd >= 0) {
			close(self->fd);
			self->fd = -1;
		} else {
			EXPECT_EQ(EINVAL, errno) TH_LOG("config bit %d", bits[i]);
		}
	}
}

TEST_F(attr, min_latency_too_wide_einval)
{
	NEED_FORMAT(&self->p, "min_latency");
	self->a.config2 = 1ull << 12;
	EXPECT_OPEN_ERRNO(EINVAL);
}

TEST_F(attr, event_filter_res0_eopnotsupp)
{
	uint64_t bad;

	NEED_FORMAT(&self->p, "event_filter");
	bad = ~self->p.event_filter;
	ASSERT_NE(0, bad);
	self->a.config1 = bad & -bad;	/* lowest RES0 bit */
	EXPECT_OPEN_ERRNO(EOPNOTSUPP);
	if (self->fd >= 0)
		close(self->fd);
	self->a.config1 = self->p.event_filter & (1ull << 1);
	EXPECT_OPEN_OK();
}

/*
 * Every event the implementation can filter on opens, every other bit is
 * EOPNOTSUPP: the expected bits come from the runner's SPE_EXP_VERSION
 * (spe_exp_event_filter()), e.g. FEAT_SPEv1p4's E[23:19], not from caps/.
 */
TEST_F(attr, event_filter_bits_match_implementation)
{
	long v = spe_env_long("SPE_EXP_VERSION", -1);
	uint64_t want;
	int bit, bad = 0;

	NEED_FORMAT(&self->p, "event_filter");
	if (v < 0)
		SKIP(return, "no SPE_EXP_* expectations from the runner");
	want = spe_exp_event_filter(v, 1, spe_env_long("SPE_EXP_SME", 0) == 1);
	for (bit = 0; bit < 64; bit++) {
		self->a.config1 = 1ull << bit;
		self->fd = spe_perf_open(&self->a, 0, -1);
		if ((self->fd >= 0) != !!(want & (1ull << bit)) ||
		    (self->fd < 0 && errno != EOPNOTSUPP)) {
			if (!bad++)
				TH_LOG("event_filter E[%d]: %s, expected %s", bit,
				       self->fd >= 0 ? "accepted" : strerror(errno),
				       want & (1ull << bit) ? "accepted" : "EOPNOTSUPP");
		}
		if (self->fd >= 0)
			close(self->fd);
		self->fd = -1;
	}
	EXPECT_EQ(0, bad) TH_LOG("%d bits wrong (first one above)", bad);
}

TEST_F(attr, absent_features_eopnotsupp)
{
	struct { const char *fmt; uint64_t config, config1, config2; } f[] = {
		{ "branch_filter", 1ull << 32, 0, 0 },
		{ "discard", 1ull << 35, 0, 0 },
		{ "branch_filter_mask", 1ull << 36, 0, 0 },
		{ "float_filter", 1ull << 41, 0, 0 },
		{ "event_filter", 0, 1ull << 1, 0 },
		{ "min_latency", 0, 0, 4 },
	};
	unsigned int i, tested = 0;

	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		if (spe_has_format(&self->p, f[i].fmt))
			continue;
		tested++;
		spe_attr_init(&self->a, &self->p, f[i].config, 4096);
		self->a.config1 = f[i].config1;
		self->a.config2 = f[i].config2;
		self->fd = spe_perf_open(&self->a, 0, -1);
		EXPECT_EQ(-1, self->fd) TH_LOG("%s accepted without the feature", f[i].fmt);
		if (self->fd >= 0) {
			close(self->fd);
			self->fd = -1;
		} else {
			EXPECT_EQ(EOPNOTSUPP, errno) TH_LOG("%s", f[i].fmt);
		}
	}
	if (!tested)
		SKIP(return, "the implementation has every optional feature tested here");
}

TEST_F(attr, inv_event_filter_absent_eopnotsupp)
{
	if (spe_has_format(&self->p, "inv_event_filter"))
		SKIP(return, "FnE implemented");
	if (spe_env_long("SPE_EXP_CONFIG3", 0) != 1)
		SKIP(return, "kernel without attr.config3");
	SPE_SET_CONFIG3(&self->a, 1ull << 1);
	EXPECT_OPEN_ERRNO(EOPNOTSUPP);
}

/* Mainline's inv_data_src_filter (config4) without FEAT_SPE_FDS. */
TEST_F(attr, inv_data_src_filter_absent_eopnotsupp)
{
	if (spe_has_format(&self->p, "inv_data_src_filter"))
		SKIP(return, "FDS implemented");
	if (spe_env_long("SPE_EXP_CONFIG4", 0) != 1)
		SKIP(return, "kernel without attr.config4");
	SPE_SET_CONFIG4(&self->a, 1ull << 2);
	EXPECT_OPEN_ERRNO(EOPNOTSUPP);
}

TEST_F(attr, period_zero_and_huge_accepted)
{
	/* Documented: a too small period becomes the minimum, a too large
	 * one the maximum; neither is an error. */
	self->a.sample_period = 0;
	EXPECT_OPEN_OK();
	if (self->fd >= 0)
		close(self->fd);
	self->a.sample_period = 1ull << 40;
	EXPECT_OPEN_OK();
}

TEST_F(attr, aux_one_page_rejected)
{
	struct spe_session s;

	/* The driver needs two pages at least (the hardware window must hold
	 * a maximum-size record below the limit, RHXSYK, and the limit is in
	 * 4KB units). */
	EXPECT_EQ(-1, spe_session_open(&s, &self->a, 0, -1, 2, 1, 0));
	ASSERT_EQ(0, spe_session_open(&s, &self->a, 0, -1, 2, 2, 0))
		TH_LOG("2 pages refused: %s", strerror(errno));
	spe_session_close(&s);
}

TEST_F(attr, snapshot_odd_pages_rejected)
{
	struct spe_session s;

	EXPECT_EQ(-1, spe_session_open(&s, &self->a, 0, -1, 2, 3, 1))
		TH_LOG("3-page snapshot buffer accepted: the halves would not be equal");
	if (!spe_session_open(&s, &self->a, 0, -1, 2, 4, 1))
		spe_session_close(&s);
	else
		EXPECT_TRUE(0) TH_LOG("4-page snapshot refused: %s", strerror(errno));
}

TEST_HARNESS_MAIN
