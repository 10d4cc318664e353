// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Host tests of struct spe_decoder_stats: one definition of each counter
 * (include/arm_spe/spe_decoder.h), counted the same way by the record
 * iterator and the packet iterator.
 *
 * Hand-written vectors (header bytes from spec 004 Table D18-1/D18-2)
 * with exact expected counts, then seeded random streams of well-formed
 * records mixed with padding inside and between records, unknown packets,
 * Extended headers and Alignment commands, on which both iterators must
 * agree.
 *
 * Output: "PASS: stats:name" / "FAIL: stats:name: why" per case.
 */
#include <stdio.h>
#include <string.h>

#include <arm_spe/spe_decoder.h>

static int failed;
static char why[256];

#define CHECK_EQ(a, b)							\
	do {								\
		unsigned long long _a = (unsigned long long)(a), _b = (unsigned long long)(b); \
		if (_a != _b) {						\
			if (!failed++)					\
				snprintf(why, sizeof(why), "line %d: %s = %llu, expected %llu", \
					 __LINE__, #a, _a, _b);		\
			return;						\
		}							\
	} while (0)

static void by_records(const uint8_t *v, size_t n, unsigned int flags, struct spe_decoder_stats *s)
{
	struct spe_decoder d;
	struct spe_record r;

	spe_decoder_init(&d, v, n, flags);
	while (spe_decoder_next(&d, &r) != 0)
		;
	*s = d.stats;
}

static void by_packets(const uint8_t *v, size_t n, unsigned int flags, struct spe_decoder_stats *s)
{
	struct spe_decoder d;
	struct spe_packet p;

	spe_decoder_init(&d, v, n, flags);
	while (spe_decoder_next_packet(&d, &p) != 0)
		;
	*s = d.stats;
}

#define SAME_STATS(a, b)						\
	do {								\
		CHECK_EQ((a).records, (b).records);			\
		CHECK_EQ((a).packets, (b).packets);			\
		CHECK_EQ((a).pad_bytes, (b).pad_bytes);			\
		CHECK_EQ((a).unknown, (b).unknown);			\
		CHECK_EQ((a).errors, (b).errors);			\
		CHECK_EQ((a).skipped_bytes, (b).skipped_bytes);		\
	} while (0)

/* Padding between and inside records counts in pad_bytes only. */
static void t_padding_not_a_packet(void)
{
	static const uint8_t v[] = {
		0x00, 0x00,		/* D18.2.8 Padding between records */
		0x42, 0x02,		/* Events, 8-bit payload (0b01000010) */
		0x00,			/* Padding inside the record */
		0x98, 0x05, 0x00,	/* Counter INDEX 0 (0b10011000) */
		0x01,			/* End */
		0x00, 0x00, 0x00,	/* trailing padding */
	};
	struct spe_decoder_stats a, b;

	by_records(v, sizeof(v), 0, &a);
	by_packets(v, sizeof(v), 0, &b);
	CHECK_EQ(a.packets, 3);
	CHECK_EQ(a.pad_bytes, 6);
	CHECK_EQ(a.records, 1);
	SAME_STATS(a, b);
}

/* Unknown packets and a reserved context index are packets; 16-bit headers too. */
static void t_unknown_and_ext(void)
{
	static const uint8_t v[] = {
		0x44, 0xaa,			/* unknown, 8-bit payload */
		0x66, 1, 2, 3, 4,		/* Context INDEX 0b10: reserved */
		0x20, 0x99, 0x07, 0x00,		/* Counter, Extended format, INDEX 1 */
		0x2f, 0x05,			/* unknown 16-bit header, no payload */
		0x71, 1, 0, 0, 0, 0, 0, 0, 0,	/* Timestamp */
	};
	struct spe_decoder_stats a, b;

	by_records(v, sizeof(v), 0, &a);
	by_packets(v, sizeof(v), 0, &b);
	CHECK_EQ(a.packets, 5);
	CHECK_EQ(a.unknown, 2);
	CHECK_EQ(a.pad_bytes, 0);
	SAME_STATS(a, b);
}

/* [000] 5.3.2 Alignment command: a packet; the bytes it skips are not. */
static void t_alignment(void)
{
	static const uint8_t v[] = {
		0x01,
		0x22, 0x00,			/* align to 8 */
		0xee, 0xee, 0xee, 0xee, 0xee,	/* UNKNOWN filler */
		0x42, 0x02, 0x01,
	};
	struct spe_decoder_stats a, b;

	by_records(v, sizeof(v), SPE_DEC_LEGACY_ALIGN, &a);
	by_packets(v, sizeof(v), SPE_DEC_LEGACY_ALIGN, &b);
	CHECK_EQ(a.errors, 0);
	CHECK_EQ(a.packets, 4);
	CHECK_EQ(a.records, 2);
	SAME_STATS(a, b);
}

/* Truncated at the end: both count the complete packets and one error. */
static void t_truncated_end(void)
{
	static const uint8_t v[] = { 0x42, 0x02, 0x01, 0x00, 0x42, 0x02, 0xb0, 1, 2 };
	struct spe_decoder_stats a, b;

	by_records(v, sizeof(v), 0, &a);
	by_packets(v, sizeof(v), 0, &b);
	CHECK_EQ(a.packets, 3);
	CHECK_EQ(a.errors, 1);
	CHECK_EQ(a.packets, b.packets);
	CHECK_EQ(a.pad_bytes, b.pad_bytes);
	CHECK_EQ(a.errors, b.errors);
}

static uint64_t rs;

static uint64_t rnd(void)
{
	rs ^= rs << 13;
	rs ^= rs >> 7;
	rs ^= rs << 17;
	return rs;
}

/* One random well-formed record (plus padding) at v; returns its length. */
static size_t random_record(uint8_t *v, int legacy)
{
	/* headers whose payload size the tables give (SZ = bits [5:4]) */
	static const uint8_t one[] = {
		0x42, 0x52, 0x62, 0x72,	/* Events 8..64-bit */
		0x43, 0x53,		/* Data Source 8/16-bit */
		0x64, 0x65,		/* Context 0, 1 */
		0x48, 0x49, 0x4a,	/* Operation Type CLASS 0..2 */
		0xb0, 0xb1, 0xb2, 0xb3, 0xb4, 0xb7,	/* Address */
		0x98, 0x99, 0x9a, 0x9c, 0x9b,		/* Counter (3: reserved) */
		0x44, 0x02, 0xe5, 0x7f,	/* unknown */
	};
	size_t n = 0, k, np = 1 + rnd() % 12, i;

	for (k = 0; k < np; k++) {
		unsigned int c = (unsigned int)(rnd() % 20);

		if (c == 0) {
			v[n++] = 0x00;			/* padding inside */
		} else if (c == 1) {
			int addr = (int)(rnd() & 1);

			v[n++] = 0x20 | (rnd() & 3);	/* Extended address/counter */
			v[n++] = addr ? 0xb0 | (rnd() & 7) : 0x98 | (rnd() & 7);
			for (i = 0; i < (addr ? 8u : 2u); i++)
				v[n++] = (uint8_t)rnd();
		} else if (c == 2 && legacy) {
			v[n++] = 0x21;			/* Alignment to 4 bytes */
			v[n++] = 0x00;
			while (n % 4)
				v[n++] = 0xcc;		/* n is relative to a 4-aligned start */
		} else {
			uint8_t h = one[rnd() % sizeof(one)];
			unsigned int plen = h < 0x40 ? 0 : 1u << ((h >> 4) & 3);

			v[n++] = h;
			for (i = 0; i < plen; i++)
				v[n++] = (uint8_t)rnd();
			if (h == 0x48 || h == 0x49 || h == 0x4a)
				v[n - 1] &= 0x01;	/* keep Operation Type valid */
		}
	}
	if (rnd() & 1) {
		v[n++] = 0x71;
		for (i = 0; i < 8; i++)
			v[n++] = (uint8_t)rnd();
	} else {
		v[n++] = 0x01;
	}
	while (rnd() % 3 == 0 || (legacy && n % 4))
		v[n++] = 0x00;
	return n;
}

static void t_random_streams(void)
{
	static uint8_t v[1 << 16];
	unsigned int iter;

	rs = 0x9e3779b97f4a7c15ull;
	for (iter = 0; iter < 400; iter++) {
		int legacy = iter & 1;
		size_t n = 0;
		struct spe_decoder_stats a, b;

		while (n + 256 < sizeof(v) / (1 + (iter % 7)))
			n += random_record(v + n, legacy);
		by_records(v, n, legacy ? SPE_DEC_LEGACY_ALIGN : 0, &a);
		by_packets(v, n, legacy ? SPE_DEC_LEGACY_ALIGN : 0, &b);
		CHECK_EQ(a.errors, 0);
		SAME_STATS(a, b);
	}
}

struct tcase {
	const char *name;
	void (*fn)(void);
};

#define T(f) { #f + 2, f }
static const struct tcase cases[] = {
	T(t_padding_not_a_packet), T(t_unknown_and_ext), T(t_alignment), T(t_truncated_end),
	T(t_random_streams),
};

int main(void)
{
	unsigned int i, nfail = 0;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		failed = 0;
		cases[i].fn();
		if (failed) {
			printf("FAIL: stats:%s: %s\n", cases[i].name, why);
			nfail++;
		} else {
			printf("PASS: stats:%s\n", cases[i].name);
		}
	}
	return nfail ? 1 : 0;
}
