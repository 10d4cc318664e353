// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Record layouts: a memo of the record iterator's fast path for the batch
 * record iterator (spe_decoder_next_records()).
 *
 * An implementation writes its packets in an order of its own, so that a
 * trace holds few distinct record layouts (which headers, at which offsets):
 * four in the capture under the emulation, twelve in either generated
 * benchmark trace. Once the fast path (fast_record()) has decoded a record,
 * its layout is kept here: its header bytes and their offsets, and for each
 * byte of struct spe_record (up to extra[]) either the record byte it is
 * copied from (a payload byte) or its value (size, present, lengths,
 * Operation Type CLASS, n_packets: fixed by the headers). A later record
 * whose bytes hold the same headers at the same offsets has that layout:
 * the walk from its first header is fixed by the headers it meets (D18.1.1:
 * a header alone gives its packet's length), so it meets these headers and
 * ends where this one ended. It is decoded with two vector compares and two
 * byte permutes, with no branch per packet. The one decision that depends
 * on a payload, a reserved Operation Type SUBCLASS (D18.2.7), is checked per
 * record; a record that has one goes to the fast path, and from it to the
 * general loop, as before.
 *
 * x86-64 with AVX-512 VBMI (VPERMI2B) only, chosen at run time; elsewhere
 * the batch record iterator runs the fast path alone. The memo is per
 * thread and keeps SPE__LAYOUTS layouts; where layouts keep changing, it
 * learns less often (see spe__layout_learn()), so that a trace without
 * repeated layouts costs a compare per kept layout and little else.
 */
#include <stddef.h>
#include <string.h>

#include <arm_spe/spe_decoder.h>

#include "spe_internal.h"

#ifdef HAVE_REC_LAYOUT
#include <immintrin.h>

/* bytes of struct spe_record that the fast path writes */
#define REC_IMG		offsetof(struct spe_record, extra)
typedef char spe_layout_img_check[(REC_IMG > 64 && REC_IMG <= 2 * 64) ? 1 : -1];

struct rec_layout {
	/* what a record of this layout holds: its header bytes at their offsets */
	uint8_t pat[2 * 64];	/* the header bytes, 0 elsewhere */
	/* and how its struct spe_record is made of them */
	uint8_t idx[2 * 64];	/* per copied image byte, the record byte */
	uint8_t img[2 * 64];	/* per other image byte, its value */
	uint64_t hdrs[2];	/* bit per header byte */
	uint64_t copied[2];	/* bit per image byte copied from the record */
	const uint64_t *opres;	/* reserved SUBCLASS bits of its CLASS, or none */
	uint32_t size;		/* record bytes */
	uint32_t op_at;		/* offset of the Operation Type payload (0: none) */
	uint32_t n_packets;
	uint32_t hits;		/* records matched (halved as the memo changes) */
} __attribute__((aligned(64)));

struct layout_memo {
	struct rec_layout l[SPE__LAYOUTS];
	unsigned int n;		/* layouts kept */
	unsigned int misses;	/* records the fast path took since the memo filled */
	int opres_ready;
	uint64_t records;	/* records decoded by their layouts (for the tests) */
	/* D18.2.7 reserved SUBCLASS values per CLASS as bits; row 4: none */
	uint64_t opres[5][4];
};

static _Thread_local struct layout_memo memo;

int spe__layouts_avail(void)
{
	static int avail = -1;	/* not asked yet */
	int a = __atomic_load_n(&avail, __ATOMIC_RELAXED);

	if (unlikely(a < 0)) {
		a = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
		    __builtin_cpu_supports("avx512vbmi");
		__atomic_store_n(&avail, a, __ATOMIC_RELAXED);
	}
	return a;
}

/*
 * The index of the layout of the record whose first 128 bytes are lo/hi,
 * or -1. At most one matches: the walk from a record's first header is
 * fixed by the headers it meets. One compare and one branch per layout,
 * in the order they were learnt. (Measured against this and dropped: all layouts
 * compared without a branch, four to a permute and a compare, then the
 * index. The next record's start then waits for the compares, about 35
 * cycles a record on every trace; branches let the processor go on to it
 * while they resolve, and cost a misprediction only where the layouts
 * come in an order it cannot learn.)
 */
__attribute__((target("avx512f,avx512bw,avx512vbmi")))
static inline int find(__m512i lo, __m512i hi)
{
	unsigned int i, n = memo.n;

	for (i = 0; i < n; i++) {
		const struct rec_layout *l = &memo.l[i];

		if (_kortestz_mask64_u8(
			_mm512_mask_cmpneq_epi8_mask(l->hdrs[0], lo, _mm512_load_si512(l->pat)),
			_mm512_mask_cmpneq_epi8_mask(l->hdrs[1], hi, _mm512_load_si512(l->pat + 64))))
			return (int)i;
	}
	return -1;
}

/* *rec from the record whose first 128 bytes are lo/hi, of layout l */
__attribute__((target("avx512f,avx512bw,avx512vbmi")))
static inline void emit(const struct rec_layout *l, __m512i lo, __m512i hi,
			struct spe_record *rec, uint64_t offset)
{
	__m512i o0, o1;

	o0 = _mm512_maskz_permutex2var_epi8(l->copied[0], lo, _mm512_load_si512(l->idx), hi);
	o1 = _mm512_maskz_permutex2var_epi8(l->copied[1], lo, _mm512_load_si512(l->idx + 64), hi);
	o0 = _mm512_or_si512(o0, _mm512_load_si512(l->img));
	o1 = _mm512_or_si512(o1, _mm512_load_si512(l->img + 64));
	_mm512_storeu_si512((void *)rec, o0);
	_mm512_mask_storeu_epi8((char *)rec + 64, (1ull << (REC_IMG - 64)) - 1, o1);
	rec->offset = offset;
}

__attribute__((target("avx512f,avx512bw,avx512vbmi")))
unsigned int spe__layout_records(const uint8_t *buf, const uint8_t **pp, const uint8_t *end,
				 struct spe_record *recs, unsigned int max,
				 uint64_t *npk, uint64_t *npad)
{
	const uint8_t *p = *pp, *r0 = p;
	uint64_t pk = 0, pad = 0;
	unsigned int n = 0;

	while (n < max) {
		struct rec_layout *l;
		__m512i lo, hi;
		unsigned int s;
		int i;

		r0 = p;
		if (*p == SPE_HDR_PADDING)
			p = spe__skip_padding(p, end);
		if ((size_t)(end - p) < SPE__LAYOUT_SPAN)
			break;
		lo = _mm512_loadu_si512((const void *)p);
		hi = _mm512_loadu_si512((const void *)(p + 64));
		i = find(lo, hi);
		if (i < 0)
			break;
		l = &memo.l[i];
		s = p[l->op_at];
		if (unlikely((l->opres[s >> 6] >> (s & 63)) & 1))
			break;
		emit(l, lo, hi, &recs[n], (uint64_t)(p - buf));
		pk += l->n_packets;
		pad += (size_t)(p - r0);
		p += l->size;
		n++;
		l->hits++;
	}
	if (n < max)
		p = r0;
	*pp = p;
	*npk += pk;
	*npad += pad;
	memo.records += n;
	return n;
}

uint64_t spe__layout_count(void)
{
	return memo.records;
}

/* bits of the SUBCLASS values that spe_op_decode() calls reserved */
static void opres_init(void)
{
	struct spe_op op;
	unsigned int c, s;

	memset(memo.opres, 0, sizeof(memo.opres));
	for (c = 0; c < 4; c++)
		for (s = 0; s < 256; s++)
			if (spe_op_decode(c, s, &op) < 0 || op.reserved)
				memo.opres[c][s >> 6] |= 1ull << (s & 63);
	memo.opres_ready = 1;
}

/* image bytes [at, at + n) copy record bytes [from, from + n) */
static void copy_bytes(struct rec_layout *l, size_t at, unsigned int from, unsigned int n)
{
	unsigned int k;

	for (k = 0; k < n; k++) {
		l->idx[at + k] = (uint8_t)(from + k);
		l->img[at + k] = 0;
		l->copied[(at + k) / 64] |= 1ull << ((at + k) % 64);
	}
}

/* Build in *l the layout of rec, which fast_record() decoded from p. */
static int build(struct rec_layout *l, const uint8_t *p, const struct spe_record *rec)
{
	struct spe_packet pkt;
	unsigned int o;
	int r;

	memset(l, 0, sizeof(*l));
	memcpy(l->img, rec, REC_IMG);
	memset(l->img, 0, sizeof(rec->offset));	/* the record's own, stored apart */
	l->opres = memo.opres[4];
	for (o = 0; o < rec->size; o += pkt.len) {
		r = spe_pkt_decode(p + o, rec->size - o, &pkt);
		if (r <= 0 || pkt.hdr_len != 1)
			return -1;
		l->pat[o] = p[o];
		l->hdrs[o / 64] |= 1ull << (o % 64);
		switch (pkt.type) {
		case SPE_PKT_ADDRESS:
			copy_bytes(l, offsetof(struct spe_record, addr) + 8u * pkt.index, o + 1, 8);
			break;
		case SPE_PKT_TIMESTAMP:
			copy_bytes(l, offsetof(struct spe_record, timestamp), o + 1, 8);
			break;
		case SPE_PKT_EVENTS:
			copy_bytes(l, offsetof(struct spe_record, events), o + 1, pkt.payload_len);
			break;
		case SPE_PKT_DATA_SOURCE:
			copy_bytes(l, offsetof(struct spe_record, data_source), o + 1,
				   pkt.payload_len);
			break;
		case SPE_PKT_CONTEXT:
			copy_bytes(l, offsetof(struct spe_record, context) + 4u * pkt.index, o + 1, 4);
			break;
		case SPE_PKT_COUNTER:
			copy_bytes(l, offsetof(struct spe_record, counter) + 2u * pkt.index, o + 1, 2);
			break;
		case SPE_PKT_OP_TYPE:
			copy_bytes(l, offsetof(struct spe_record, op_subclass), o + 1, 1);
			l->op_at = o + 1;
			l->opres = memo.opres[pkt.index & 3u];
			break;
		case SPE_PKT_END:
			break;
		default:
			return -1;
		}
	}
	if (o != rec->size)
		return -1;
	l->size = rec->size;
	l->n_packets = rec->n_packets;
	return 0;
}

/*
 * Keep the layout of rec, which fast_record() decoded from p (the record
 * is SPE__LAYOUT_SPAN bytes or more from the end of the data). Once the
 * memo is full, one record in 16 that missed it replaces the layout with
 * the fewest hits, and every count is halved.
 */
__attribute__((target("avx512f,avx512bw,avx512vbmi")))
void spe__layout_learn(const uint8_t *p, const struct spe_record *rec)
{
	struct rec_layout l;
	struct spe_record chk;
	unsigned int i, v;

	if (rec->size > 2 * 64 || (rec->present & SPE_REC_DUP))
		return;
	if (memo.n == SPE__LAYOUTS && ++memo.misses % 16)
		return;
	if (!memo.opres_ready)
		opres_init();
	if (build(&l, p, rec))
		return;
	/* what the layout gives for this record must be the fast path's record */
	emit(&l, _mm512_loadu_si512((const void *)p), _mm512_loadu_si512((const void *)(p + 64)),
	     &chk, rec->offset);
	if (memcmp(&chk, rec, REC_IMG))
		return;
	v = memo.n;
	if (v == SPE__LAYOUTS) {
		for (v = 0, i = 0; i < SPE__LAYOUTS; i++) {
			if (memo.l[i].hits < memo.l[v].hits)
				v = i;
			memo.l[i].hits /= 2;
		}
	} else {
		memo.n++;
	}
	memo.l[v] = l;
}

#else

int spe__layouts_avail(void)
{
	return 0;
}

unsigned int spe__layout_records(const uint8_t *buf, const uint8_t **pp, const uint8_t *end,
				 struct spe_record *recs, unsigned int max,
				 uint64_t *npk, uint64_t *npad)
{
	return 0;
}

void spe__layout_learn(const uint8_t *p, const struct spe_record *rec)
{
}

uint64_t spe__layout_count(void)
{
	return 0;
}

#endif
