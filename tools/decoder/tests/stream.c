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
	uint64_t laid = 0;

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
	for (rep = 0; rep < 8 * 100; rep++) {
		/* the packet layouts (each way), the scan, the portable loop */
		static const unsigned int loop_flags[4] = {
			0, 0, SPE__DEC_NO_LAYOUT, SPE__DEC_NO_SIMD
		};
		static const char *const loop_names[4] = {
			"layouts (one chain)", "layouts (no branch)", "scan", "portable"
		};
		unsigned int k = rep % 4;
		struct chunker c = { .state = rnd() | 1, .max = (rep / 4) & 1 ? 13 : 4096 };
		size_t len = n - rep / 8;
		long r;

		spe__layout_mode(k < 2 ? (int)k + 1 : 0);
		r = batch_vs_single(tr, len, loop_flags[k], 0, &c, 1);
		if (k < 2)
			laid += spe__layout_count(3);
		if (r) {
			printf("FAIL: stream:batch-packets-padding: %zu bytes, %s, batches of up "
			       "to %u: result %ld differs\n", len, loop_names[k],
			       (unsigned int)c.max, r);
			goto out;
		}
	}
	if (spe__layouts_avail() && laid < 100 * 900) {
		printf("FAIL: stream:batch-packets-padding: %llu records' packets by their layouts\n",
		       (unsigned long long)laid);
		goto out;
	}
	printf("PASS: stream:batch-packets-padding (%zu bytes, 100 lengths; vector pre-pass %s; "
	       "%llu records' packets by their layouts)\n", n,
	       spe__batch_simd() ? "in use" : "not available here: portable loop only",
	       (unsigned long long)laid);
out:
	spe__layout_mode(0);
}

/*
 * The packet batch's layouts where a record's Padding reaches the end of
 * the 128 bytes a layout looks at, or nearly: records of 18 to 35 bytes,
 * each followed by a run of Padding of L bytes or a few more, for each L
 * that puts the run's end around byte 127, learnt afresh each time (a
 * layout whose Padding ends at byte 127 must not be taken for the run of
 * a later record whose Padding goes on past it).
 */
static void t_packet_layout_runs(void)
{
	unsigned int len, k, way;
	uint64_t laid = 0;

	for (len = 88; len <= 112; len++) {
		size_t n = 0;

		n += record(tr + n);
		memset(tr + n, 0x00, 3);
		n += 3;
		for (k = 0; k < 60; k++) {
			size_t run = len + (k & 1 ? rnd() % 5 : 0);

			n += record(tr + n);
			memset(tr + n, 0x00, run);
			n += run;
		}
		n += record(tr + n);
		for (way = 1; way <= 2; way++) {
			struct chunker c = { .state = rnd() | 1, .max = 4096 };
			long r;

			spe__layout_mode((int)way);
			r = batch_vs_single(tr, n, 0, 0, &c, 1);
			laid += spe__layout_count(3);
			if (r) {
				printf("FAIL: stream:packet-layout-runs: runs of %u bytes, way %u: "
				       "result %ld differs\n", len, way, r);
				spe__layout_mode(0);
				return;
			}
		}
	}
	spe__layout_mode(0);
	if (spe__layouts_avail() && laid < 25 * 2 * 30)
		printf("FAIL: stream:packet-layout-runs: %llu records' packets by their layouts\n",
		       (unsigned long long)laid);
	else
		printf("PASS: stream:packet-layout-runs (%llu records' packets by their layouts)\n",
		       (unsigned long long)laid);
}

/*
 * A record of layout 'shape' (of 40): its own choice and order of the
 * packets the record iterator's fast path takes (Address INDEX 0-4, Counter
 * INDEX 0, 1, 2 and 4, Context INDEX 0 and 1, Events and Data Source of
 * each size it takes, Operation Type of one CLASS with a SUBCLASS that is
 * reserved one time in reserved_one_in), then Timestamp or End; payloads
 * random.
 */
static unsigned int reserved_one_in = 8;

static size_t layout_record(uint8_t *v, unsigned int shape)
{
	static const uint8_t kinds[][4] = {
		{ 0xb0 }, { 0xb1 }, { 0xb2 }, { 0xb3 }, { 0xb4 },
		{ 0x98 }, { 0x99 }, { 0x9a }, { 0x9c }, { 0x64 }, { 0x65 },
		{ 0x42, 0x52, 0x62, 0x72 }, { 0x43, 0x53 }, { 0x48, 0x49, 0x4a, 0x4b },
	};
	uint8_t order[sizeof(kinds) / sizeof(kinds[0])];
	uint64_t st = 0x9e3779b97f4a7c15ull * (shape + 1);
	unsigned int nk = sizeof(order), i, j, m = 0;
	size_t n = 0;

	/* the shape's packets, from its own generator: the same every time */
	for (i = 0; i < nk; i++) {
		st ^= st << 13;
		st ^= st >> 7;
		st ^= st << 17;
		if (st & 1)
			order[m++] = (uint8_t)i;
	}
	for (i = m; i > 1; i--) {
		uint8_t t;

		st ^= st << 13;
		st ^= st >> 7;
		st ^= st << 17;
		j = (unsigned int)(st % i);
		t = order[i - 1];
		order[i - 1] = order[j];
		order[j] = t;
	}
	for (i = 0; i < m; i++) {
		const uint8_t *k = kinds[order[i]];
		unsigned int nv = k[1] ? (k[3] ? 4 : 2) : 1;
		uint8_t h = k[(st >> (8 + 2 * i)) % nv];

		n += put(v + n, h, SPE_HDR_PAYLOAD_LEN(h));
		/* mostly a SUBCLASS that is not reserved (CLASS 3 has none) */
		if (SPE_HDR_IS_OP_TYPE(h) && (h & 3u) != 3u && rnd() % reserved_one_in) {
			struct spe_op op;

			while (spe_op_decode(h & 3u, v[n - 1], &op) < 0 || op.reserved)
				v[n - 1] = (uint8_t)rnd();
		}
	}
	if (st & 2)
		n += put(v + n, 0x71, 8);
	else
		v[n++] = 0x01;
	return n;
}

/*
 * The record batches' layouts (spe_rec_layout.c), where the machine has
 * them: records of 40 layouts (more than they keep, so that layouts are
 * replaced), some odd ones, Padding between some: batches give what one
 * call a record gives, and one call a record what the general loop alone
 * gives, with the layouts and without; and most records went through a
 * layout. mode: how batches of 16 or more go
 * (spe__layout_mode()): timed, one chain, two chains (and then many
 * records came from the second), strided (and then, with align, many
 * records went that way). align: the records are aligned to that
 * many bytes, as PMBIDR_EL1.Align may make them, so that layouts hold the
 * Padding after them (at 128, up to the end of the 128 bytes a layout
 * compares, and up to the end of the trace).
 */
static void t_layouts(int mode, unsigned int align)
{
	static const char *const names[] = { "timed", "one-chain", "two-chains", "strided" };
	/*
	 * two chains: fewer records that stop them, so that the first chain
	 * mostly reaches the second's start (some still stop it)
	 */
	unsigned int odd_one_in = mode == 2 ? 1024 : 64, rep, passes;
	uint64_t done, second, pdone, strided;
	size_t n = 0, nrec = 0, len;
	char name[40];

	if (align)
		snprintf(name, sizeof(name), "%s-aligned%u", names[mode], align);
	else
		snprintf(name, sizeof(name), "%s", names[mode]);
	reserved_one_in = mode == 2 ? 256 : 8;
	spe__layout_mode(mode);		/* and no layouts learnt from other tests */
	while (n + 28000 < sizeof(tr)) {
		unsigned int shape = (unsigned int)(rnd() % 40);

		/*
		 * mostly six of them, one in four others; for two chains twelve,
		 * so that find_nb() has three groups, and one in 256 others
		 */
		if (rnd() % (mode == 2 ? 256 : 4))
			shape %= mode == 2 ? 12 : 6;
		n += (rnd() % odd_one_in) ? layout_record(tr + n, shape) : odd_record(tr + n);
		nrec++;
		if (align && n % align) {	/* records aligned */
			size_t pad = align - n % align;

			memset(tr + n, 0x00, pad);
			n += pad;
		} else if (mode == 2 && !(rnd() % 512) && n + 24000 < sizeof(tr)) {
			/* now and then a long run, past a batch's second chain */
			memset(tr + n, 0x00, 20000);
			n += 20000;
		} else if (mode == 2) {
			/*
			 * 8 bytes of Padding after each record at first: their
			 * layouts are learnt first, with the Padding, and must
			 * not be taken for the same headers without it, or with
			 * less of it, later
			 */
			size_t pad = n < 65536 ? 8 : (rnd() & 7) ? 0 : rnd() % 8;

			memset(tr + n, 0x00, pad);
			n += pad;
		} else if (!(rnd() & 7)) {
			size_t pad = rnd() % 70;

			memset(tr + n, 0x00, pad);
			n += pad;
		}
	}
	if (mode == 2 && !align) {
		/*
		 * the end: a long run of Padding, a record and a short run, so
		 * that a batch's first record takes it near the end of the data;
		 * a batch that starts at that run, on a copy of exactly these
		 * bytes (AddressSanitizer sees a read past them)
		 */
		size_t before = nrec, got = 0;
		static struct spe_record rb[64];
		struct spe_decoder d;
		uint8_t *copy;
		int r;

		memset(tr + n, 0x00, 20000);
		n += 20000;
		n += layout_record(tr + n, 0);
		memset(tr + n, 0x00, 150);
		n += 150;
		nrec++;
		copy = malloc(n);
		if (copy) {
			memcpy(copy, tr, n);
			spe_decoder_init(&d, copy, n, 0);
			while (got < before &&
			       (r = spe_decoder_next_records(&d, rb, before - got < 64 ?
							     (unsigned int)(before - got) : 64)) > 0)
				got += (size_t)r;
			while ((r = spe_decoder_next_records(&d, rb, 64)) > 0)
				got += (size_t)r;
			free(copy);
			if (got != d.stats.records || got < nrec / 2) {
				printf("FAIL: stream:records-layouts-%s: %zu records at the end\n", name,
				       got);
				goto out;
			}
		}
	}
	for (rep = 0; rep < 6; rep++) {
		unsigned int flags = rep & 1 ? SPE__DEC_NO_LAYOUT : 0;
		struct chunker c = { .state = rnd() | 1, .max = rep < 2 ? 64 : 1 + rep * 200 };
		long r;

		len = n - (rep >= 4 ? rnd() % 200 : 0);
		r = batch_vs_single(tr, len, flags, 0, &c, 0);
		if (r) {
			printf("FAIL: stream:records-layouts-%s: batches %s, %zu bytes: result %ld "
			       "differs\n", name, flags ? "without layouts" : "with layouts",
			       len, r);
			goto out;
		}
		/* the packet batches too, with their layouts and without */
		r = batch_vs_single(tr, len, flags, 0, &c, 1);
		if (r) {
			printf("FAIL: stream:records-layouts-%s: packet batches %s, %zu bytes: "
			       "result %ld differs\n", name,
			       flags ? "without layouts" : "with layouts", len, r);
			goto out;
		}
		/* and one call a record against the general loop alone */
		r = fast_vs_general(tr, len, flags, 0);
		if (r) {
			printf("FAIL: stream:records-layouts-%s: single calls %s, %zu bytes: result "
			       "%ld differs from the general loop\n", name,
			       flags ? "without layouts" : "with layouts", len, r);
			goto out;
		}
	}
	done = spe__layout_count(0);
	second = spe__layout_count(1);
	strided = spe__layout_count(4);
	if (!spe__layouts_avail()) {
		printf("PASS: stream:records-layouts-%s (%zu records; layouts not available "
		       "here: fast path only)\n", name, nrec);
		goto out;
	}
	/* three passes with the layouts over the same records in batches (four with the end's) */
	passes = mode == 2 && !align ? 4 : 3;
	if (done < passes * nrec / 2 || (mode == 2 && second < nrec / 4) ||
	    (mode == 3 && align && strided < nrec / 2)) {
		printf("FAIL: stream:records-layouts-%s: %llu of %u x %zu records by their "
		       "layouts, %llu by a second chain, %llu strided\n", name,
		       (unsigned long long)done, passes, nrec, (unsigned long long)second,
		       (unsigned long long)strided);
		goto out;
	}
	/* packet batches forced one way or the other: most records by their layouts */
	pdone = spe__layout_count(3);
	if (mode && pdone < 3 * nrec / 2) {
		printf("FAIL: stream:records-layouts-%s: %llu of 3 x %zu records' packets by "
		       "their layouts\n", name, (unsigned long long)pdone, nrec);
		goto out;
	}
	printf("PASS: stream:records-layouts-%s (%zu records, %.0f%% by their layouts, "
	       "%llu by a second chain, %llu strided; packets of %.0f%% by them)\n", name,
	       nrec, 100.0 * (double)done / ((double)passes * (double)nrec),
	       (unsigned long long)second, (unsigned long long)strided,
	       100.0 * (double)pdone / (3.0 * (double)nrec));
out:
	spe__layout_mode(0);
	reserved_one_in = 8;
}

/*
 * The packet batch (way 2 forced) on records whose layouts never repeat,
 * then on the n bytes in tr of records of six layouts: the layouts go off,
 * and come on again after about as many records as for the record batch
 * (they count down a record at a time, not a batch). 1 if so.
 */
static int packets_off_on(size_t n)
{
	static uint8_t rnd_tr[1 << 18];
	static struct spe_packet pb[256];
	struct spe_decoder d;
	size_t m = 0;
	unsigned int pass;

	spe__layout_mode(2);
	while (m + 4096 < sizeof(rnd_tr))
		m += layout_record(rnd_tr + m, (unsigned int)rnd());
	spe_decoder_init(&d, rnd_tr, m, 0);
	while (spe_decoder_next_packets(&d, pb, 256) > 0)
		;
	if (!spe__layout_count(2)) {
		printf("FAIL: stream:records-layouts-random: packet batches left the layouts on\n");
		return 0;
	}
	for (pass = 0; pass < 4 && !spe__layout_count(3); pass++) {
		spe_decoder_init(&d, tr, n, 0);
		while (spe_decoder_next_packets(&d, pb, 256) > 0)
			;
	}
	if (!spe__layout_count(3)) {
		printf("FAIL: stream:records-layouts-random: packet batches: the layouts stayed "
		       "off (%llu calls to go)\n", (unsigned long long)spe__layout_count(2));
		return 0;
	}
	return 1;
}

/*
 * Records whose layouts never repeat (a random choice and order of packets
 * each): the batches still give what one call a record gives, and the
 * layouts turn themselves off (spe_rec_layout.c: where the fast path took
 * two records in three), so that such a trace costs little more than the
 * fast path alone; and on again later.
 */
static void t_layouts_random(void)
{
	size_t n = 0, nrec = 0;
	struct chunker c = { .state = rnd() | 1, .max = 64 };
	long r;

	spe__layout_mode(0);
	while (n + 4096 < sizeof(tr)) {
		n += layout_record(tr + n, (unsigned int)rnd());
		nrec++;
	}
	r = batch_vs_single(tr, n, 0, 0, &c, 0);
	if (r) {
		printf("FAIL: stream:records-layouts-random: result %ld differs\n", r);
	} else if (!spe__layouts_avail()) {
		printf("PASS: stream:records-layouts-random (%zu records; layouts not available "
		       "here: fast path only)\n", nrec);
	} else if (!spe__layout_count(2)) {
		printf("FAIL: stream:records-layouts-random: %llu of %zu records by their "
		       "layouts, and the layouts still on\n",
		       (unsigned long long)spe__layout_count(0), nrec);
	} else {
		/* and on again, some time into a trace whose layouts repeat */
		static struct spe_record rb[64];
		uint64_t before = spe__layout_count(0);
		struct spe_decoder d;
		unsigned int pass;

		for (n = 0; n + 4096 < sizeof(tr); )
			n += layout_record(tr + n, (unsigned int)(rnd() % 6));
		for (pass = 0; pass < 4 && spe__layout_count(0) == before; pass++) {
			spe_decoder_init(&d, tr, n, 0);
			while (spe_decoder_next_records(&d, rb, 64) > 0)
				;
		}
		if (spe__layout_count(0) == before) {
			printf("FAIL: stream:records-layouts-random: the layouts stayed off\n");
		} else if (packets_off_on(n)) {
			printf("PASS: stream:records-layouts-random (%zu records, %llu by their "
			       "layouts, then off, then on again; the same for packets)\n", nrec,
			       (unsigned long long)before);
		}
	}
	spe__layout_mode(0);
}

/*
 * Twin layouts: the same ten packets (more headers than the eight bytes of
 * find_nb()'s first word in a lane) and then End in one twin, a Timestamp
 * in the other, at the same offset; in a second pair, an eleventh packet
 * that differs too. A way that told layouts apart by their first headers
 * only would take one twin for the other, and the records it gave would
 * differ from one call a record.
 */
static size_t twin_record(uint8_t *v, unsigned int twin)
{
	static const uint8_t pre[] = { 0xb0, 0x49, 0x52, 0x98, 0x99, 0x9a, 0xb2, 0xb3, 0x64,
				       0x43 };
	size_t n = 0;
	unsigned int i;

	for (i = 0; i < sizeof(pre); i++) {
		n += put(v + n, pre[i], SPE_HDR_PAYLOAD_LEN(pre[i]));
		if (pre[i] == 0x49)
			v[n - 1] &= 1;		/* a GP load or store: not reserved */
	}
	if (twin & 2)				/* the second pair */
		n += put(v + n, twin & 1 ? 0x65 : 0x9c, twin & 1 ? 4 : 2);
	if (twin & 1)
		n += put(v + n, 0x71, 8);	/* Timestamp */
	else
		v[n++] = 0x01;			/* End */
	return n;
}

static void t_layout_twins(int mode)
{
	static const char *const names[] = { "timed", "one-chain", "two-chains" };
	struct chunker c = { .state = rnd() | 1, .max = 64 };
	size_t n = 0, nrec = 0;
	long r;

	spe__layout_mode(mode);
	while (n + 4096 < sizeof(tr)) {
		n += (rnd() & 3) ? twin_record(tr + n, (unsigned int)(rnd() & 3)) :
				   layout_record(tr + n, (unsigned int)(rnd() % 6));
		nrec++;
	}
	r = batch_vs_single(tr, n, 0, 0, &c, 0);
	if (!r)
		r = batch_vs_single(tr, n, 0, 0, &c, 1);
	if (r)
		printf("FAIL: stream:layout-twins-%s: result %ld differs\n", names[mode], r);
	else if (spe__layouts_avail() && spe__layout_count(0) < nrec / 2)
		printf("FAIL: stream:layout-twins-%s: %llu of %zu records by their layouts\n",
		       names[mode], (unsigned long long)spe__layout_count(0), nrec);
	else
		printf("PASS: stream:layout-twins-%s (%zu records, %llu by their layouts)\n",
		       names[mode], nrec, (unsigned long long)spe__layout_count(0));
	spe__layout_mode(0);
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

/*
 * strided() near the end of the data: records aligned to 64 and to 128
 * bytes (mostly one layout, so that strides hold; some of other lengths,
 * so that they change), the data ending at every byte of its last 300,
 * each length an exact-size copy (batch_vs_single(): AddressSanitizer sees
 * a read past it), in batches of random sizes against one call a record.
 */
static void t_strided_ends(void)
{
	static const unsigned int aligns[] = { 64, 128 };
	unsigned int a, cut, i;

	for (a = 0; a < sizeof(aligns) / sizeof(aligns[0]); a++) {
		size_t n = 0;

		spe__layout_mode(3);
		for (i = 0; i < 160; i++) {
			n += layout_record(tr + n, i % 4 == 3 ? (unsigned int)(rnd() % 6) : 0);
			if (n % aligns[a]) {
				size_t pad = aligns[a] - n % aligns[a];

				memset(tr + n, 0x00, pad);
				n += pad;
			}
		}
		for (cut = 0; cut < 300; cut++) {
			struct chunker c = { .state = rnd() | 1, .max = 64 };
			long r = batch_vs_single(tr, n - cut, 0, 0, &c, 0);

			if (r) {
				printf("FAIL: stream:strided-ends-aligned%u: %zu bytes: result %ld "
				       "differs\n", aligns[a], n - cut, r);
				goto out;
			}
		}
		if (spe__layouts_avail() && !spe__layout_count(4)) {
			printf("FAIL: stream:strided-ends-aligned%u: no record strided\n", aligns[a]);
			goto out;
		}
		printf("PASS: stream:strided-ends-aligned%u (%zu bytes, 300 ends, %llu records "
		       "strided)\n", aligns[a], n, (unsigned long long)spe__layout_count(4));
	}
out:
	spe__layout_mode(0);
}

int main(void)
{
	t_chunkings("chunked-vs-whole", 0);
	t_chunkings("chunked-vs-whole-legacy-align", 1);
	t_min_cap();
	t_fast_vs_general();
	t_batches("batch-records", 0, 0);
	t_batches("batch-records-no-layouts", 0, SPE__DEC_NO_LAYOUT);
	t_layouts(0, 0);
	t_layouts(1, 0);
	t_layouts(2, 0);
	t_layouts(2, 64);
	t_layouts(1, 128);
	t_layouts(2, 128);
	t_layouts(3, 0);
	t_layouts(3, 64);
	t_layouts(3, 128);
	t_strided_ends();
	t_layout_twins(0);
	t_layout_twins(1);
	t_layout_twins(2);
	t_layouts_random();
	t_batches("batch-packets", 1, 0);
	t_batches("batch-packets-portable", 1, SPE__DEC_NO_SIMD);
	t_batch_padding();
	t_packet_layout_runs();
	return 0;
}
