/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * A choice between ways of decoding a batch (way 0 and up to
 * CHOICE_WAYS - 1 others), made by timing them on the data at hand, for
 * the batch iterators' record layouts (spe_rec_layout.c); here, apart
 * from them, so that tests/choice.c can drive it with times of its own.
 *
 * A trial first: CHOICE_TRIALS calls go way 0, the CHOICE_TRIALS after
 * them way 1, and so on, each timed; until the next trial, calls go the
 * way whose best call took the fewest cycles a byte of records (cpb, x
 * 256; the callers leave Padding out, or a call that was mostly a long
 * run of it would win any trial), and another than way 0 only where that
 * is fewer than way 0's by the choice's margin (a tenth, a twentieth:
 * where two ways are about as fast, a trial's noise would otherwise take
 * the slower half the time). The best call, not the sum: on a shared
 * machine most calls take several times the cycles of the few that
 * nothing else delayed. The next trial begins CHOICE_TRIAL_EVERY calls
 * after the last one began, and twice as many after each trial that
 * chose as the one before, up to CHOICE_TRIAL_MAX (trials cost: on a
 * trace where one way keeps winning, the others' calls in each trial are
 * time lost); a trial that timed no call (all below CHOICE_MIN_BYTES)
 * keeps the choice it had, and the next one comes CHOICE_TRIAL_EVERY
 * calls on. choice_begin() and choice_end() around each call, with the
 * time (any cycle counter) at each; ways at most CHOICE_WAYS, margin 2 or
 * more.
 */
#ifndef SPE_CHOICE_H
#define SPE_CHOICE_H

#include <stdint.h>

#define CHOICE_TRIAL_EVERY	1024u
#define CHOICE_TRIAL_MAX	(16u * CHOICE_TRIAL_EVERY)
#define CHOICE_TRIALS		16u
#define CHOICE_WAYS		3u	/* ways at most, for cpb[] */
#define CHOICE_MIN_BYTES	1024u	/* calls of fewer bytes are not timed */

struct timed_choice {
	unsigned int trial;	/* 1 + trial calls made, 0 between trials */
	unsigned int calls;	/* since the last trial began */
	unsigned int every;	/* calls from a trial to the next; 0 before the first */
	unsigned int trials;	/* trials ended */
	unsigned int timed_calls;	/* in this trial, calls timed */
	unsigned int way, best, timed;
	uint64_t t0, cpb[CHOICE_WAYS];
};

/* The way the next call goes, of ways ways (at most CHOICE_WAYS), now the time. */
static inline unsigned int choice_begin(struct timed_choice *c, unsigned int ways,
					uint64_t now)
{
	unsigned int w;

	ways = ways < CHOICE_WAYS ? ways : CHOICE_WAYS;
	if (!c->every || (!c->trial && c->calls >= c->every)) {
		c->every = c->every ? c->every : CHOICE_TRIAL_EVERY;
		c->trial = 1;
		c->calls = 0;
	}
	c->calls++;
	if (!c->trial)
		return c->best;
	if (c->trial == 1) {
		for (w = 0; w < ways; w++)
			c->cpb[w] = UINT64_MAX;
		c->timed_calls = 0;
	}
	c->way = (c->trial - 1) / CHOICE_TRIALS;
	c->timed = 1;
	c->t0 = now;
	return c->way;
}

/*
 * The end of the call choice_begin() sent its way, of bytes bytes of
 * records, now the time; margin: another way than 0 only if its best is a
 * margin-th faster.
 */
static inline void choice_end(struct timed_choice *c, unsigned int ways, unsigned int margin,
			      uint64_t bytes, uint64_t now)
{
	uint64_t cyc;
	unsigned int w, last = c->best;

	if (!c->timed)
		return;
	ways = ways < CHOICE_WAYS ? ways : CHOICE_WAYS;
	c->timed = 0;
	cyc = (now - c->t0) * 256;
	if (bytes >= CHOICE_MIN_BYTES) {
		c->timed_calls++;
		if (cyc / bytes < c->cpb[c->way])
			c->cpb[c->way] = cyc / bytes;
	}
	if (++c->trial <= ways * CHOICE_TRIALS)
		return;
	c->trial = 0;
	if (!c->timed_calls) {
		c->every = CHOICE_TRIAL_EVERY;	/* nothing learnt: the choice stays */
		return;
	}
	for (w = 1, c->best = 0; w < ways; w++)
		if (c->cpb[w] / (margin - 1) < c->cpb[0] / margin &&
		    (!c->best || c->cpb[w] < c->cpb[c->best]))
			c->best = w;
	if (c->trials++ && c->best == last)
		c->every = c->every < CHOICE_TRIAL_MAX ? 2 * c->every : CHOICE_TRIAL_MAX;
	else
		c->every = CHOICE_TRIAL_EVERY;
}

#endif /* SPE_CHOICE_H */
