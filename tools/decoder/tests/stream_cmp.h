/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Shared by tests/stream.c and tests/fuzz.c: decode a buffer whole and as a
 * stream cut into chunks, one result a call and in batches, and compare
 * every result (records, packets, errors with their offsets, final stats).
 * Each returns 0 when identical, else the 1-based index of the first result
 * that differs (or -1 for the final stats).
 */
#ifndef SPE_STREAM_CMP_H
#define SPE_STREAM_CMP_H

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <arm_spe/spe_decoder.h>

#include "../spe_internal.h"

struct chunker {
	uint64_t state;		/* xorshift state: chunk sizes */
	size_t max;		/* largest chunk */
};

static size_t next_chunk(struct chunker *c)
{
	c->state ^= c->state << 13;
	c->state ^= c->state >> 7;
	c->state ^= c->state << 17;
	return 1 + (size_t)(c->state % c->max);
}

static int same_record(const struct spe_record *a, const struct spe_record *b)
{
	unsigned int n = a->n_extra < SPE_REC_NEXTRA ? a->n_extra : SPE_REC_NEXTRA;

	return !memcmp(a, b, offsetof(struct spe_record, extra)) &&
	       !memcmp(a->extra, b->extra, n * sizeof(a->extra[0]));
}

/* extra[] beyond n_extra still holds the 0xa5 the batch comparison filled it with */
static int extra_left(const struct spe_record *rec)
{
	unsigned int n = rec->n_extra < SPE_REC_NEXTRA ? rec->n_extra : SPE_REC_NEXTRA;
	const uint8_t *b = (const uint8_t *)&rec->extra[n], *e = (const uint8_t *)(rec + 1);

	for (; b < e; b++)
		if (*b != 0xa5)
			return 0;
	return 1;
}

/*
 * The record iterator's fast path against its general loop alone
 * (SPE__DEC_NO_FAST): every result, record, error, position and the final
 * stats. Returns 0 when identical, else as stream_vs_whole().
 */
static long fast_vs_general(const uint8_t *buf, size_t len, unsigned int flags, uint64_t addr)
{
	struct spe_decoder df, dg;
	struct spe_record rf, rg;
	long idx = 0;
	int retf, retg;

	spe_decoder_init(&df, buf, len, flags);
	spe_decoder_init(&dg, buf, len, flags | SPE__DEC_NO_FAST);
	df.buf_addr = dg.buf_addr = addr;
	do {
		idx++;
		retf = spe_decoder_next(&df, &rf);
		retg = spe_decoder_next(&dg, &rg);
		if (retf != retg || df.pos != dg.pos || (retf == 1 && !same_record(&rf, &rg)) ||
		    (retf < 0 && memcmp(&df.err, &dg.err, sizeof(df.err))))
			return idx;
	} while (retf);
	return memcmp(&df.stats, &dg.stats, sizeof(df.stats)) ? -1 : 0;
}

/*
 * whole: results of spe_decoder_next() over buf; stream: spe_stream_*()
 * fed in chunks from c. win/cap: the caller's window buffer.
 */
static long stream_vs_whole(const uint8_t *buf, size_t len, unsigned int flags, uint64_t addr,
			    struct chunker *c, uint8_t *win, size_t cap)
{
	struct spe_decoder d;
	struct spe_stream s;
	struct spe_record rw, rs;
	size_t fed = 0;
	long idx = 0;
	int rets, retw;

	spe_decoder_init(&d, buf, len, flags);
	d.buf_addr = addr;
	if (spe_stream_init(&s, win, cap, flags))
		return -2;
	spe_stream_set_addr(&s, addr);
	for (;;) {
		/* the next result of the stream, feeding chunks as it asks */
		while ((rets = spe_stream_next(&s, &rs)) == 0 && !s.finished) {
			if (fed == len) {
				spe_stream_finish(&s);
				continue;
			}
			{
				size_t n = next_chunk(c);

				if (n > len - fed)
					n = len - fed;
				fed += spe_stream_write(&s, buf + fed, n);
			}
		}
		retw = spe_decoder_next(&d, &rw);
		idx++;
		if (rets != retw)
			return idx;
		if (!retw)
			break;
		if (retw > 0 && !same_record(&rw, &rs))
			return idx;
		if (retw < 0 && (d.err.offset != s.err.offset || d.err.resume != s.err.resume ||
				 d.err.code != s.err.code))
			return idx;
	}
	if (memcmp(&d.stats, &s.d.stats, sizeof(d.stats)))
		return -1;
	return 0;
}

/*
 * The batch iterators (spe_decoder_next_records(), _packets(), batch sizes
 * 1 to min(c->max, BATCH_MAX) from c, and now and then a batch of 0, which
 * must change nothing) against one call a result: every record or packet,
 * every error with the decoder's error state and position, the stats after
 * every batch. packets: compare the packet iterators, else the record
 * iterators. The buffer is decoded from a copy of exactly len bytes, so
 * that a read past its end is one under AddressSanitizer.
 */
#define BATCH_MAX 1100
#define CANARY 24	/* entries after a batch that must be left as they were */
static long batch_vs_single_at(const uint8_t *buf, size_t len, unsigned int flags,
			       uint64_t addr, struct chunker *c, int packets)
{
	static struct spe_record rb[BATCH_MAX + CANARY];
	static struct spe_packet pb[BATCH_MAX + CANARY];
	struct spe_decoder db, ds;
	struct spe_record r;
	struct spe_packet pk;
	long idx = 0;
	int retb, rets, k;
	unsigned int canary;

	spe_decoder_init(&db, buf, len, flags);
	spe_decoder_init(&ds, buf, len, flags);
	db.buf_addr = ds.buf_addr = addr;
	do {
		unsigned int max = 1 + (unsigned int)((next_chunk(c) - 1) % BATCH_MAX);

		if ((idx & 15) == 7) {
			size_t pos = db.pos;

			retb = packets ? spe_decoder_next_packets(&db, pb, 0) :
					 spe_decoder_next_records(&db, rb, 0);
			if (retb != 0 || db.pos != pos ||
			    memcmp(&db.stats, &ds.stats, sizeof(db.stats)))
				return idx + 1;
		}
		/* every byte of a record up to extra[] is written: no stale ones */
		if (!packets)
			memset(rb, 0xa5, max * sizeof(rb[0]));
		/* and nothing past the batch: the entries after it keep a canary */
		canary = CANARY;
		if (packets)
			memset(pb + max, 0x5a, canary * sizeof(pb[0]));
		else
			memset(rb + max, 0x5a, canary * sizeof(rb[0]));
		retb = packets ? spe_decoder_next_packets(&db, pb, max) :
				 spe_decoder_next_records(&db, rb, max);
		idx++;
		if (retb > (int)max)
			return idx;
		for (k = 0; k < (int)(canary * (packets ? sizeof(pb[0]) : sizeof(rb[0]))); k++)
			if ((packets ? (const uint8_t *)(pb + max) : (const uint8_t *)(rb + max))[k] !=
			    0x5a)
				return idx;
		if (retb <= 0) {
			rets = packets ? spe_decoder_next_packet(&ds, &pk) : spe_decoder_next(&ds, &r);
			if (rets != retb || db.pos != ds.pos ||
			    memcmp(&db.stats, &ds.stats, sizeof(db.stats)) ||
			    (retb < 0 && memcmp(&db.err, &ds.err, sizeof(db.err))))
				return idx;
			continue;
		}
		for (k = 0; k < retb; k++) {
			rets = packets ? spe_decoder_next_packet(&ds, &pk) : spe_decoder_next(&ds, &r);
			if (rets != 1 || (packets ? memcmp(&pk, &pb[k], sizeof(pk)) :
					  !same_record(&r, &rb[k]) || !extra_left(&rb[k])))
				return idx;
		}
		if (db.pos != ds.pos || memcmp(&db.stats, &ds.stats, sizeof(db.stats)))
			return idx;
	} while (retb);
	return memcmp(&db.stats, &ds.stats, sizeof(db.stats)) ? -1 : 0;
}

static long batch_vs_single(const uint8_t *buf, size_t len, unsigned int flags, uint64_t addr,
			    struct chunker *c, int packets)
{
	uint8_t *copy = len ? malloc(len) : NULL;
	long r;

	if (!copy)
		return batch_vs_single_at(buf, len, flags, addr, c, packets);
	memcpy(copy, buf, len);
	r = batch_vs_single_at(copy, len, flags, addr, c, packets);
	free(copy);
	return r;
}

#endif /* SPE_STREAM_CMP_H */
