// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Host tests of the batches' timed choice (spe_choice.h), driven with
 * times of their own: the expected ways and choices follow from the rule
 * written in spe_choice.h (a trial of CHOICE_TRIALS calls a way, in order,
 * first and then CHOICE_TRIAL_EVERY calls after the last began, twice as
 * many after a trial that chose as the one before, up to
 * CHOICE_TRIAL_MAX; the way whose best call took the fewest cycles a byte,
 * another than way 0 only by the margin; calls of fewer than
 * CHOICE_MIN_BYTES bytes not timed; best times forgotten at each trial),
 * not from running the code.
 *
 * Output: "PASS: choice:name" / "FAIL: choice:name: why" per case.
 */
#include <stdio.h>
#include <string.h>

#include "../spe_choice.h"

static uint64_t now;

/* cycles of a call, in thousands (so that cycles a byte keep their digits) */
#define K	1000u

/* one call: returns its way; it takes cyc[way] cycles for bytes bytes */
static unsigned int call(struct timed_choice *c, unsigned int ways, unsigned int margin,
			 const uint64_t *cyc, uint64_t bytes)
{
	unsigned int w = choice_begin(c, ways, now);

	now += cyc[w];
	choice_end(c, ways, margin, bytes, now);
	return w;
}

/* the ways of calls from..to (1-based, inclusive) must all be want */
static int expect_ways(const char *name, struct timed_choice *c, unsigned int ways,
		       unsigned int margin, const uint64_t *cyc, uint64_t bytes,
		       unsigned int *calls, unsigned int to, unsigned int want)
{
	for (; *calls < to; ) {
		unsigned int w = call(c, ways, margin, cyc, bytes);

		++*calls;
		if (w != want) {
			printf("FAIL: choice:%s: call %u went way %u, want %u\n", name, *calls, w,
			       want);
			return 1;
		}
	}
	return 0;
}

/* a trial of each way in turn, then the chosen way until the next trial */
static void t_trial_order(void)
{
	const uint64_t cyc[3] = { 1000 * K, 1000 * K, 700 * K };	/* way 2 30 % faster */
	struct timed_choice c;
	unsigned int n = 0, w;

	memset(&c, 0, sizeof(c));
	for (w = 0; w < 3; w++)
		if (expect_ways("trial-order", &c, 3, 10, cyc, 4096, &n,
				(w + 1) * CHOICE_TRIALS, w))
			return;
	if (expect_ways("trial-order", &c, 3, 10, cyc, 4096, &n, CHOICE_TRIAL_EVERY, 2))
		return;
	/* CHOICE_TRIAL_EVERY calls after the first trial began, the next, with way 0 */
	if (expect_ways("trial-order", &c, 3, 10, cyc, 4096, &n, CHOICE_TRIAL_EVERY + 1, 0))
		return;
	printf("PASS: choice:trial-order\n");
}

/* the margin: faster by less than it keeps way 0, by more takes the other */
static void t_margin(void)
{
	static const struct {
		uint64_t way1;
		unsigned int margin, want;
	} cases[] = {
		{ 950 * K, 10, 0 },	/* 5 % faster, a tenth needed */
		{ 850 * K, 10, 1 },	/* 15 % */
		{ 970 * K, 20, 0 },	/* 3 %, a twentieth needed */
		{ 930 * K, 20, 1 },	/* 7 % */
		{ 1100 * K, 10, 0 },	/* slower */
	};
	unsigned int k;

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		const uint64_t cyc[2] = { 1000 * K, cases[k].way1 };
		struct timed_choice c;
		unsigned int n;
		char name[32];

		snprintf(name, sizeof(name), "margin-%u", k);
		/* after the trial (2 x CHOICE_TRIALS calls), the choice */
		memset(&c, 0, sizeof(c));
		n = 0;
		while (n < 2 * CHOICE_TRIALS) {
			call(&c, 2, cases[k].margin, cyc, 4096);
			n++;
		}
		if (expect_ways(name, &c, 2, cases[k].margin, cyc, 4096, &n, n + 50,
				cases[k].want))
			return;
	}
	printf("PASS: choice:margin\n");
}

/* each way's best call counts, not its sum; calls below CHOICE_MIN_BYTES not at all */
static void t_best_and_small(void)
{
	struct timed_choice c;
	unsigned int n = 0, i;
	uint64_t cyc[2];

	memset(&c, 0, sizeof(c));
	/* way 0: one call of 500 K cycles, the others 5000 K; way 1: 900 K each */
	for (i = 0; i < 2 * CHOICE_TRIALS; i++, n++) {
		cyc[0] = i == 3 ? 500 * K : 5000 * K;
		cyc[1] = 900 * K;
		call(&c, 2, 10, cyc, 4096);
	}
	cyc[0] = cyc[1] = 1000 * K;
	if (expect_ways("best-not-sum", &c, 2, 10, cyc, 4096, &n, n + 20, 0))
		return;
	/* a trial of small calls: way 1 looks fast but is not timed */
	memset(&c, 0, sizeof(c));
	for (i = 0, n = 0; i < 2 * CHOICE_TRIALS; i++, n++) {
		cyc[0] = 1000 * K;
		cyc[1] = i == CHOICE_TRIALS ? 1 : 1000 * K;
		call(&c, 2, 10, cyc, i == CHOICE_TRIALS ? CHOICE_MIN_BYTES - 1 : 4096);
	}
	if (expect_ways("small-not-timed", &c, 2, 10, cyc, 4096, &n, n + 20, 0))
		return;
	printf("PASS: choice:best-not-sum\n");
	printf("PASS: choice:small-not-timed\n");
}

/* a new trial forgets the last one's times: the choice follows the data */
static void t_retrial(void)
{
	uint64_t cyc[2] = { 1000 * K, 500 * K };
	struct timed_choice c;
	unsigned int n = 0;

	memset(&c, 0, sizeof(c));
	if (expect_ways("retrial", &c, 2, 10, cyc, 4096, &n, CHOICE_TRIALS, 0) ||
	    expect_ways("retrial", &c, 2, 10, cyc, 4096, &n, 2 * CHOICE_TRIALS, 1) ||
	    expect_ways("retrial", &c, 2, 10, cyc, 4096, &n, CHOICE_TRIAL_EVERY, 1))
		return;
	/* way 1 is now the slower: the next trial must say so */
	cyc[1] = 2000 * K;
	if (expect_ways("retrial", &c, 2, 10, cyc, 4096, &n,
			CHOICE_TRIAL_EVERY + CHOICE_TRIALS, 0) ||
	    expect_ways("retrial", &c, 2, 10, cyc, 4096, &n,
			CHOICE_TRIAL_EVERY + 2 * CHOICE_TRIALS, 1) ||
	    expect_ways("retrial", &c, 2, 10, cyc, 4096, &n, n + 100, 0))
		return;
	printf("PASS: choice:retrial\n");
}

/*
 * trials further apart while they choose as before (twice, up to
 * CHOICE_TRIAL_MAX), CHOICE_TRIAL_EVERY again once one chooses otherwise
 */
static void t_backoff(void)
{
	uint64_t cyc[2] = { 1000 * K, 500 * K };
	unsigned int n = 0, start = 1, every = CHOICE_TRIAL_EVERY, t;
	struct timed_choice c;

	memset(&c, 0, sizeof(c));
	/* trial t begins at call start; all choose way 1, the first a new choice */
	for (t = 0; t < 8; t++) {
		if (t)
			every = every < CHOICE_TRIAL_MAX ? 2 * every : CHOICE_TRIAL_MAX;
		if (expect_ways("backoff", &c, 2, 10, cyc, 4096, &n, start + CHOICE_TRIALS - 1, 0) ||
		    expect_ways("backoff", &c, 2, 10, cyc, 4096, &n,
				start + 2 * CHOICE_TRIALS - 1, 1) ||
		    expect_ways("backoff", &c, 2, 10, cyc, 4096, &n, start + every - 1, 1))
			return;
		start += every;
	}
	if (every != CHOICE_TRIAL_MAX) {
		printf("FAIL: choice:backoff: the test never reached CHOICE_TRIAL_MAX\n");
		return;
	}
	/* way 1 slower: that trial chooses way 0, and the next comes CHOICE_TRIAL_EVERY on */
	cyc[1] = 2000 * K;
	if (expect_ways("backoff", &c, 2, 10, cyc, 4096, &n, start + CHOICE_TRIALS - 1, 0) ||
	    expect_ways("backoff", &c, 2, 10, cyc, 4096, &n, start + 2 * CHOICE_TRIALS - 1, 1) ||
	    expect_ways("backoff", &c, 2, 10, cyc, 4096, &n, start + CHOICE_TRIAL_EVERY - 1, 0) ||
	    expect_ways("backoff", &c, 2, 10, cyc, 4096, &n,
			start + CHOICE_TRIAL_EVERY + CHOICE_TRIALS - 1, 0) ||
	    expect_ways("backoff", &c, 2, 10, cyc, 4096, &n,
			start + CHOICE_TRIAL_EVERY + CHOICE_TRIALS, 1))
		return;
	/* a first trial that chooses way 0 is a new choice too: the next one 1024 on */
	memset(&c, 0, sizeof(c));
	cyc[1] = 2000 * K;
	n = 0;
	if (expect_ways("backoff", &c, 2, 10, cyc, 4096, &n, CHOICE_TRIALS, 0) ||
	    expect_ways("backoff", &c, 2, 10, cyc, 4096, &n, 2 * CHOICE_TRIALS, 1) ||
	    expect_ways("backoff", &c, 2, 10, cyc, 4096, &n,
			CHOICE_TRIAL_EVERY + CHOICE_TRIALS, 0) ||
	    expect_ways("backoff", &c, 2, 10, cyc, 4096, &n,
			CHOICE_TRIAL_EVERY + CHOICE_TRIALS + 1, 1))
		return;
	printf("PASS: choice:backoff\n");
}

/* a trial that timed nothing (every call too short) keeps the choice, and is soon retried */
static void t_untimed_trial(void)
{
	uint64_t cyc[2] = { 1000 * K, 500 * K };
	unsigned int n = 0, i;
	struct timed_choice c;

	memset(&c, 0, sizeof(c));
	/* a first trial that chooses way 1, then its calls to the next trial */
	if (expect_ways("untimed-trial", &c, 2, 10, cyc, 4096, &n, CHOICE_TRIALS, 0) ||
	    expect_ways("untimed-trial", &c, 2, 10, cyc, 4096, &n, CHOICE_TRIAL_EVERY, 1))
		return;
	/* the second trial, every call short: way 1 stays chosen */
	for (i = 0; i < 2 * CHOICE_TRIALS; i++, n++)
		call(&c, 2, 10, cyc, CHOICE_MIN_BYTES - 1);
	if (expect_ways("untimed-trial", &c, 2, 10, cyc, 4096, &n,
			2 * CHOICE_TRIAL_EVERY, 1) ||
	    expect_ways("untimed-trial", &c, 2, 10, cyc, 4096, &n,
			2 * CHOICE_TRIAL_EVERY + 1, 0))
		return;
	printf("PASS: choice:untimed-trial\n");
}

int main(void)
{
	t_trial_order();
	t_margin();
	t_best_and_small();
	t_retrial();
	t_backoff();
	t_untimed_trial();
	return 0;
}
