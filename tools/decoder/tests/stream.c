// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Host tests of the streaming API (spe_stream_*): on seeded traces of
 * well-formed records (header bytes from spec 004 Tables D18-1/D18-2) with
 * corruption added (flipped bytes, reserved extended headers, garbage runs,
 * over-long records, long padding, truncation, legacy Alignment commands),
 * decoding in random chunks (1 byte up to 64 KiB) gives exactly the
 * results of the whole-buffer decode: records, errors and their offsets,
 * final stats; and so does decoding in batches of random sizes (1 to 1100)
 * with spe_decoder_next_records() and spe_decoder_next_packets().
 *
 * Output: "PASS: stream:name" / "FAIL: stream:name: why" per case.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stream_cmp.h"

static uint64_t rs = 0x853c49e6748fea9bull;

static uint64_t rnd(void)
{
	rs ^= rs << 13;
	rs ^= rs >> 7;
	rs ^= rs << 17;
	return rs;
}

static size_t put(uint8_t *v, uint8_t h, unsigned int plen)
{
	size_t n = 0;
	unsigned int i;

	v[n++] = h;
	for (i = 0; i < plen; i++)
		v[n++] = (uint8_t)rnd();
	return n;
}

/* a load-like record: PC, op, events, latency, VA, Timestamp or End */
static size_t record(uint8_t *v)
{
	size_t n = 0;

	n += put(v + n, 0xb0, 8);		/* Address INDEX 0 */
	n += put(v + n, 0x49, 1);		/* Operation Type, CLASS 1 */
	v[n - 1] &= 1;				/* load or store, GP */
	n += put(v + n, 0x52, 2);		/* Events, 16-bit */
	n += put(v + n, 0x98, 2);		/* Counter INDEX 0 */
	if (rnd() & 1)
		n += put(v + n, 0xb2, 8);	/* Address INDEX 2 */
	if (rnd() & 1)
		n += put(v + n, 0x71, 8);	/* Timestamp */
	else
		v[n++] = 0x01;			/* End */
	return n;
}

static size_t trace(uint8_t *v, size_t cap, int legacy)
{
	size_t n = 0;

	while (n + 8192 < cap) {
		unsigned int k = (unsigned int)(rnd() % 64);

		if (k == 0) {			/* a flipped byte somewhere */
			n += record(v + n);
			v[n - 1 - rnd() % 8] ^= (uint8_t)(1u << (rnd() & 7));
		} else if (k == 1) {		/* reserved extended header */
			v[n++] = 0x20;
			v[n++] = 0x3f;
		} else if (k == 2) {		/* garbage run */
			size_t g = rnd() % 3000, i;

			for (i = 0; i < g; i++)
				v[n++] = (uint8_t)rnd();
		} else if (k == 3) {		/* over-long record: unknown packets */
			size_t g = 2000 + rnd() % 3000;

			memset(v + n, 0x02, g);
			n += g;
		} else if (k == 4) {		/* a long run of padding */
			size_t g = rnd() % 6000;

			memset(v + n, 0x00, g);
			n += g;
		} else if (k == 5 && legacy) {	/* [000] 5.3.2 Alignment, SIZE 1..15 */
			v[n++] = (uint8_t)(0x20 | (1 + rnd() % 12));
			v[n++] = 0x00;
		} else {
			n += record(v + n);
			if (rnd() & 1)
				v[n++] = 0x00;
		}
	}
	if (rnd() & 1)
		n -= rnd() % 12;		/* truncated at the end */
	return n;
}

/*
 * A record of random packets: mostly the kinds a record holds (any INDEX,
 * SZ and payload, so reserved and IMPDEF values, duplicates and reserved
 * Operation Types too), sometimes Padding, a 16-bit header or any byte.
 */
static size_t odd_record(uint8_t *v)
{
	static const uint8_t hdrs[] = {
		0xb0, 0xb1, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7,	/* Address */
		0x98, 0x99, 0x9a, 0x9b, 0x9c, 0x9d, 0x9e, 0x9f,	/* Counter */
		0x64, 0x65, 0x66, 0x67,				/* Context */
		0x48, 0x49, 0x4a, 0x4b,				/* Operation Type */
		0x42, 0x52, 0x62, 0x72,				/* Events */
		0x43, 0x53, 0x63, 0x73,				/* Data Source */
	};
	size_t n = 0;
	unsigned int k, np = (unsigned int)(rnd() % 14);

	for (k = 0; k < np; k++) {
		unsigned int c = (unsigned int)(rnd() % 64);
		uint8_t h;

		if (c == 0) {
			v[n++] = 0x00;				/* Padding */
			continue;
		}
		if (c == 1) {
			v[n++] = (uint8_t)(0x20 | (rnd() & 3));	/* 16-bit header */
			h = (uint8_t)(rnd() & 1 ? 0xb0 | (rnd() & 7) : 0x98 | (rnd() & 7));
		} else if (c == 2) {
			h = (uint8_t)rnd();			/* anything */
		} else {
			h = hdrs[rnd() % sizeof(hdrs)];
		}
		n += put(v + n, h, SPE_HDR_PAYLOAD_LEN(h));
	}
	if (rnd() & 1)
		n += put(v + n, 0x71, 8);			/* Timestamp */
	else
		v[n++] = 0x01;					/* End */
	return n;
}

static uint8_t tr[1 << 20];
static uint8_t win[SPE_STREAM_MIN_CAP(SPE_DEC_LEGACY_ALIGN) + 4096];

static void t_chunkings(const char *name, int legacy)
{
	unsigned int i;

	for (i = 0; i < 24; i++) {
		size_t len = trace(tr, sizeof(tr) >> (i % 4), legacy);
		struct chunker c = { .state = rnd() | 1, .max = (size_t)1 << (i % 17) };
		unsigned int flags = legacy ? SPE_DEC_LEGACY_ALIGN : 0;
		long r = stream_vs_whole(tr, len, flags, legacy ? rnd() & 0xfff : 0, &c, win,
					 SPE_STREAM_MIN_CAP(flags) + (i & 1) * 4096);

		if (r) {
			printf("FAIL: stream:%s: trace %u (%zu bytes, chunks <= %zu): result %ld differs\n",
			       name, i, len, c.max, r);
			return;
		}
	}
	printf("PASS: stream:%s\n", name);
}

/*
 * Case i of 16: a trace() (i < 8), else well-formed and odd records with
 * stray padding, maybe cut short.
 */
static size_t mixed_trace(unsigned int i, int legacy)
{
	size_t n = 0;

	if (i < 8)
		return trace(tr, sizeof(tr) >> (i % 4), legacy);
	while (n + 4096 < sizeof(tr) >> (i % 4)) {
		n += (rnd() & 7) ? record(tr + n) : odd_record(tr + n);
		if (!(rnd() & 7))
			tr[n++] = 0x00;
	}
	return n - (rnd() & 1 ? rnd() % 12 : 0);
}

/* the record iterator's fast path gives what its general loop gives */
static void t_fast_vs_general(void)
{
	unsigned int i, legacy;

	for (i = 0; i < 16; i++) {
		size_t len;

		legacy = i & 1;
		len = mixed_trace(i, (int)legacy);
		long r = fast_vs_general(tr, len, legacy ? SPE_DEC_LEGACY_ALIGN : 0,
					 legacy ? rnd() & 0xfff : 0);

		if (r) {
			printf("FAIL: stream:fast-vs-general: trace %u (%zu bytes): result %ld differs\n",
			       i, len, r);
			return;
		}
	}
	printf("PASS: stream:fast-vs-general\n");
}

/* the batch iterators give what one call a result gives */
static void t_batches(const char *name, int packets, unsigned int flags)
{
	unsigned int i, legacy;

	for (i = 0; i < 16; i++) {
		size_t len;

		legacy = i & 1;
		len = mixed_trace(i, (int)legacy);
		struct chunker c = { .state = rnd() | 1, .max = i % 3 == 2 ? 4096 : 1 + (i % 3) * 40 };
		long r = batch_vs_single(tr, len, flags | (legacy ? SPE_DEC_LEGACY_ALIGN : 0),
					 legacy ? rnd() & 0xfff : 0, &c, packets);

		if (r) {
			printf("FAIL: stream:%s: trace %u (%zu bytes): result %ld differs\n",
			       name, i, len, r);
			return;
		}
	}
	printf("PASS: stream:%s\n", name);
}

/*
 * The batch packet iterator on records separated by runs of Padding of
 * every length from 0 to 300, so that runs start at every offset in the
 * vector pre-pass's 32-byte chunks and 512-byte windows, cross them, run
 * past the 64 bits one count of trailing zeros sees, and past the 255 bytes
 * of one Padding packet; the trace ends in a run of Padding, or is cut.
 */
static void t_batch_padding(void)
{
	size_t n = 0, run = 0;
	unsigned int rep;

	for (rep = 0; rep < 3; rep++)
		for (run = 0; run <= 300; run++) {
			n += record(tr + n);
			memset(tr + n, 0x00, run);
			n += run;
		}
	memset(tr + n, 0x00, 40);
	n += 40;
	/*
	 * and the trace cut 0..99 bytes short: the end of the last window at
	 * every offset of its last 32-byte chunk, which is read byte by byte
	 */
	for (rep = 0; rep < 4 * 100; rep++) {
		unsigned int flags = rep & 1 ? SPE__DEC_NO_SIMD : 0;
		struct chunker c = { .state = rnd() | 1, .max = rep & 2 ? 13 : 4096 };
		size_t len = n - rep / 4;
		long r = batch_vs_single(tr, len, flags, 0, &c, 1);

		if (r) {
			printf("FAIL: stream:batch-packets-padding: %zu bytes, %s loop, batches of up "
			       "to %u: result %ld differs\n", len, flags ? "portable" : "default",
			       (unsigned int)c.max, r);
			return;
		}
	}
	printf("PASS: stream:batch-packets-padding (%zu bytes, 100 lengths; vector pre-pass %s)\n", n,
	       spe__batch_simd() ? "in use" : "not available here: portable loop only");
}

static void t_min_cap(void)
{
	struct spe_stream s;
	uint8_t small[64];

	if (spe_stream_init(&s, small, sizeof(small), 0) != -SPE_E_INVAL) {
		printf("FAIL: stream:min-cap: a %zu-byte window was accepted\n", sizeof(small));
		return;
	}
	printf("PASS: stream:min-cap\n");
}

int main(void)
{
	t_chunkings("chunked-vs-whole", 0);
	t_chunkings("chunked-vs-whole-legacy-align", 1);
	t_min_cap();
	t_fast_vs_general();
	t_batches("batch-records", 0, 0);
	t_batches("batch-packets", 1, 0);
	t_batches("batch-packets-portable", 1, SPE__DEC_NO_SIMD);
	t_batch_padding();
	return 0;
}
