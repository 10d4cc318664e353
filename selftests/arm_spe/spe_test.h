/* SPDX-License-Identifier: GPL-2.0 */
/* Common glue between the kselftest harness and spe_lib. */
#ifndef SPE_SELFTEST_TEST_H
#define SPE_SELFTEST_TEST_H

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "spe_lib.h"

/* Workload buffer: 64 KiB of uint64_t. */
#define WL_WORDS	8192
extern uint64_t wl_buf[WL_WORDS];

#define NEED_PMU(p)							\
	do {								\
		if (spe_pmu_find(p))					\
			SKIP(return, "no arm_spe_N PMU (is arm_spe_perf loaded?)"); \
	} while (0)

#define NEED_FORMAT(p, name)						\
	do {								\
		if (!spe_has_format(p, name))				\
			SKIP(return, "format/" name " absent: the implementation lacks it"); \
	} while (0)

#define EXPECT_VALID(st)						\
	EXPECT_EQ(0, (st)->violations) TH_LOG("%u violations, first: %s", \
					      (st)->violations, (st)->first)

#define ASSERT_OPEN(ret, s)						\
	ASSERT_EQ(0, ret) TH_LOG("perf_event_open/mmap: %s", strerror(errno))

/* Ratio bound check: lo*exp - slack <= got <= hi*exp + slack */
#define EXPECT_NEAR_COUNT(got, exp, tol_pct, slack)			\
	do {								\
		double _e = (double)(exp), _g = (double)(got);		\
		EXPECT_TRUE(_g >= _e * (100 - (tol_pct)) / 100 - (slack) && \
			    _g <= _e * (100 + (tol_pct)) / 100 + (slack)) \
			TH_LOG("count %.0f, expected %.1f +- %d%% + %d", _g, _e, \
			       (int)(tol_pct), (int)(slack));		\
	} while (0)

#endif
