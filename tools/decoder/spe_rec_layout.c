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
 * ends where this one ended. The Padding after the record (as
 * PMBIDR_EL1.Align makes it) is part of the layout too, as zero bytes. A
 * record is decoded with byte compares and two byte permutes, with no
 * branch per packet. The one decision that depends on a payload, a
 * reserved Operation Type SUBCLASS (D18.2.7), is checked per record; a
 * record that has one goes to the fast path, and from it to the general
 * loop, as before.
 *
 * Batches of 16 records or more go one of three ways, whichever is faster
 * on the data at hand (timed now and then): one chain of records that
 * finds each one's layout with a branch per layout tried (one_chain()),
 * two chains side by side that find it without a branch (two_chains()),
 * or records taken to be as long as the one before (strided(): records
 * padded to an alignment).
 *
 * x86-64 with AVX-512 VBMI (VPERMI2B) only, chosen at run time; elsewhere
 * the batch record iterator runs the fast path alone. The memo is per
 * thread (about 34 KiB) and keeps SPE__LAYOUTS layouts; where layouts keep
 * changing, it learns less often (see spe__layout_learning()), so that a
 * trace without repeated layouts costs a compare per kept layout and
 * little else.
 */
#include <stddef.h>
#include <string.h>

#include <arm_spe/spe_decoder.h>

#include "spe_choice.h"
#include "spe_internal.h"

#ifdef HAVE_REC_LAYOUT
#include <immintrin.h>
#include <x86intrin.h>

/* what the layouts use of the machine: checked at run time (spe__layouts_avail()) */
#define LAYOUT_ISA	"avx512f,avx512bw,avx512vbmi,bmi"

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
	uint64_t tpads[2];	/* bit per byte of the Padding after it (tpad) */
	uint64_t match[2];	/* hdrs | tpads: the bytes find() compares */
	uint64_t copied[2];	/* bit per image byte copied from the record */
	const uint8_t *opres;	/* spe__op_res[] row of its CLASS, or row 4 if none */
	uint32_t size;		/* record bytes */
	uint32_t tpad;		/* bytes of Padding after the record, part of the layout */
	uint32_t op_at;		/* offset of the Operation Type payload (0: none) */
	uint32_t n_packets;
	uint32_t hits;		/* records matched (halved as the memo changes) */
	uint64_t counts;	/* n_packets | size << 32: a chain's counts in one add */
	uint32_t step;		/* size + tpad: to the next record */
} __attribute__((aligned(64)));

/*
 * The same layout for the batch packet iterator: its packets and the
 * Padding after them as spe_decoder_next_packet() gives them, PL_PKTS
 * struct spe_packet (six 64-byte parts), each byte either a record byte
 * (a payload byte: idx) or its value (img: the fields, fixed by the
 * header; the offset in the record, to which the record's own is added).
 */
#define PL_PKTS		16u
#define PL_BYTES	(PL_PKTS * sizeof(struct spe_packet))
#define PL_PARTS	(PL_BYTES / 64)
typedef char spe_pkt_layout_check[(sizeof(struct spe_packet) == 24 && PL_BYTES % 64 == 0 &&
				   SPE__LAYOUT_MIN_PKTS == PL_PKTS + 1) ? 1 : -1];

struct pkt_layout {
	uint8_t idx[PL_BYTES];
	uint8_t img[PL_BYTES];
	uint64_t copied[PL_PARTS];	/* bit per byte copied from the record */
	uint8_t offq[PL_PARTS];		/* per part, bit per 8 bytes that hold an offset */
	uint8_t n;		/* packets before the Padding; 0: too many to keep */
	uint8_t tpad;		/* the layout's Padding; 255 if it reaches byte 127 */
	uint16_t len_at;	/* byte of the Padding packet's len */
} __attribute__((aligned(64)));

/* a second chain's records, before they are known to follow the first's */
#define CHAIN_B		64u

/* the batches' timed choices (spe_choice.h): how many ways, and the margin */
#define REC_WAYS	3u	/* one_chain(), two_chains(), strided() */
#define REC_MARGIN	10u
#define PKT_WAYS	3u	/* the scan, find(), find_nb() */
#define PKT_MARGIN	20u

#define OFF_WINDOW	1024u
#define OFF_CALLS	65536u

struct layout_memo {
	struct rec_layout l[SPE__LAYOUTS];
	struct pkt_layout pl[SPE__LAYOUTS];
	/*
	 * The same layouts four to a 64-byte group, for find_nb(): per
	 * layout a 16-byte lane of the offsets of its headers (the last one
	 * repeated) and of their bytes.
	 */
	uint8_t gidx[SPE__LAYOUTS / 4][64] __attribute__((aligned(64)));
	uint8_t gpat[SPE__LAYOUTS / 4][64] __attribute__((aligned(64)));
	struct spe_record b_recs[CHAIN_B];
	const uint8_t *b_end[CHAIN_B];	/* where the second chain is after each */
	uint64_t b_counts[CHAIN_B];	/* and its counts (step_nb()) */
	unsigned int avg;	/* bytes a record, Padding included, lately */
	unsigned int chain_skip;	/* calls before two_chains() is tried again */
	/*
	 * way 0 one_chain(), way 1 two_chains(), way 2 strided() for batches
	 * of 16 records or more, the others where they are a tenth faster
	 */
	struct timed_choice rec_way;
	int force;		/* spe__layout_mode() */
	/*
	 * Records by their layouts (win_hit) and by the fast path while the
	 * layouts were on (win_miss), per window of OFF_WINDOW records: where
	 * the fast path took two in three, the layouts are off (not tried, not
	 * learnt) for the next OFF_CALLS calls of spe__layout_records() (off
	 * counts them down; the batch calls it once a record while they are
	 * off, so about as many records).
	 */
	unsigned int win_hit, win_miss, off;
	unsigned int n;		/* layouts kept */
	unsigned int misses;	/* records the fast path took since the memo filled */
	uint64_t records;	/* records decoded by their layouts (for the tests) */
	uint64_t second;	/* of which by a second chain (two_chains()) */
	uint64_t strided;	/* of which by strided() */
	uint64_t pkt_records;	/* records whose packets the layouts gave */
	struct timed_choice pkt_way;	/* spe__packet_way() */
};

static _Thread_local struct layout_memo memo;

int spe__layouts_avail(void)
{
	static int avail = -1;	/* not asked yet */
	int a = __atomic_load_n(&avail, __ATOMIC_RELAXED);

	if (unlikely(a < 0)) {
		a = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
		    __builtin_cpu_supports("avx512vbmi") && __builtin_cpu_supports("bmi");
		__atomic_store_n(&avail, a, __ATOMIC_RELAXED);
	}
	return a;
}

/*
 * The index of the layout of the record whose first 128 bytes are lo/hi,
 * or -1. Any that matches is the record's: the walk from a record's first
 * header is fixed by the headers it meets (two layouts of the same headers
 * differ in the Padding after them, and then either gives the record).
 * One compare and one branch per layout, in the order they were learnt:
 * the processor goes on to the next record while they resolve, and a
 * misprediction costs only where the layouts come in an order it cannot
 * learn. (Without a branch, as find_nb(), one
 * chain of records waits for the compares before it knows where the next
 * record starts: about 35 cycles a record more on every trace.)
 */
__attribute__((target(LAYOUT_ISA)))
static inline int find(__m512i lo, __m512i hi)
{
	unsigned int i, n = memo.n;

	for (i = 0; i < n; i++) {
		const struct rec_layout *l = &memo.l[i];

		if (_kortestz_mask64_u8(
			_mm512_mask_cmpneq_epi8_mask(l->match[0], lo, _mm512_load_si512(l->pat)),
			_mm512_mask_cmpneq_epi8_mask(l->match[1], hi, _mm512_load_si512(l->pat + 64))))
			return (int)i;
	}
	return -1;
}

/*
 * find() without a branch on which layout matches: one permute and one
 * compare of 64-bit words per group of four layouts (a layout's 16-byte
 * lane matches when both its words do), SPE__LAYOUTS if none. For two
 * chains of records decoded side by side (two_chains()): a misprediction
 * would throw away the work of both.
 */
__attribute__((target(LAYOUT_ISA), always_inline))
static inline unsigned int find_nb(__m512i lo, __m512i hi, unsigned int ng)
{
	unsigned int g;
	uint64_t m = 0;

	/* ng a constant where two_chains() inlines this: no loop, no branch */
#pragma GCC unroll 4
	for (g = 0; g < ng; g++) {
		__m512i v = _mm512_permutex2var_epi8(lo, _mm512_load_si512(memo.gidx[g]), hi);

		m |= (uint64_t)_mm512_cmpeq_epi64_mask(v, _mm512_load_si512(memo.gpat[g])) << (8 * g);
	}
	/* bit 2k: both words of layout k's lane; bit 32 stands for none */
	m &= (m >> 1) & 0x55555555u;
	return (unsigned int)__builtin_ctzll(m | 1ull << (2 * SPE__LAYOUTS)) >> 1;
}

/* find_nb()'s groups: four layouts each */
static inline unsigned int groups(void)
{
	return (memo.n + 3) / 4;
}

/*
 * Return fn() of a batch's arguments for the number of groups there are,
 * a constant in each call (0 if none: no layout kept)
 */
#define BY_GROUPS(fn)								\
	do {									\
		switch (groups()) {						\
		case 0:								\
			return 0;						\
		case 1:								\
			return fn(buf, pp, end, recs, max, npk, npad, 1);	\
		case 2:								\
			return fn(buf, pp, end, recs, max, npk, npad, 2);	\
		case 3:								\
			return fn(buf, pp, end, recs, max, npk, npad, 3);	\
		default:							\
			return fn(buf, pp, end, recs, max, npk, npad,		\
				  SPE__LAYOUTS / 4);				\
		}								\
	} while (0)

/* *rec from the record whose first 128 bytes are lo/hi, of layout l */
__attribute__((target(LAYOUT_ISA)))
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

/* Count records by their layouts (hit) or by the fast path (miss); see off. */
static void window(unsigned int hit, unsigned int miss)
{
	memo.win_hit += hit;
	memo.win_miss += miss;
	if (memo.win_hit + memo.win_miss >= OFF_WINDOW) {
		if (memo.win_miss > 2 * memo.win_hit)
			memo.off = OFF_CALLS;	/* layouts that rarely repeat */
		memo.win_hit = memo.win_miss = 0;
	}
}

/* The records of known layouts from *pp, one after the other, with branches. */
__attribute__((target(LAYOUT_ISA)))
static unsigned int one_chain(const uint8_t *buf, const uint8_t **pp, const uint8_t *end,
			      struct spe_record *recs, unsigned int max,
			      uint64_t *npk, uint64_t *npad)
{
	const uint8_t *p = *pp, *r0 = p;
	uint64_t pk = 0, pad = 0;
	unsigned int n = 0, tpad = 0;

	while (n < max) {
		struct rec_layout *l;
		__m512i lo, hi;
		unsigned int s;
		int i;

		r0 = p;
		/* p may be at the end: the last layout held the Padding up to it */
		if (p < end && *p == SPE_HDR_PADDING)
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
		if (unlikely(l->opres[s]))
			break;
		emit(l, lo, hi, &recs[n], (uint64_t)(p - buf));
		tpad = l->tpad;
		pk += l->n_packets;
		pad += (size_t)(p - r0) + tpad;
		p += l->step;
		__builtin_prefetch(p + SPE__PREFETCH_AHEAD);
		n++;
		l->hits++;
	}
	if (n < max)
		p = r0;
	/* the last record's Padding goes with the next record, as in the fast path */
	p -= tpad;
	pad -= tpad;
	*pp = p;
	*npk += pk;
	*npad += pad;
	return n;
}

/*
 * The layout of the record at p by find_nb(), its first 128 bytes in *lo
 * and *hi; NULL if none (Padding at p, say: no layout starts with it), or
 * if its Operation Type is reserved, or the Padding its layout holds is
 * not all there.
 */
__attribute__((target(LAYOUT_ISA), always_inline))
static inline struct rec_layout *layout_nb(const uint8_t *p, const uint8_t *end,
					   __m512i *lo, __m512i *hi, unsigned int ng)
{
	struct rec_layout *l;
	unsigned int k;

	if (unlikely((size_t)(end - p) < SPE__LAYOUT_SPAN))
		return NULL;
	*lo = _mm512_loadu_si512((const void *)p);
	*hi = _mm512_loadu_si512((const void *)(p + 64));
	k = find_nb(*lo, *hi, ng);
	if (unlikely(k >= SPE__LAYOUTS))
		return NULL;
	l = &memo.l[k];
	if (unlikely(l->opres[p[l->op_at]]))
		return NULL;
	/*
	 * find_nb() compares the headers: the Padding after them here (a
	 * branch that goes one way while records are packed, or all padded)
	 */
	if (l->tpad && (_mm512_mask_test_epi8_mask(l->tpads[0], *lo, *lo) |
			_mm512_mask_test_epi8_mask(l->tpads[1], *hi, *hi)))
		return NULL;
	return l;
}

/*
 * One record of a known layout at *pp (after its Padding) into *rec, by
 * find_nb(): 1, *pp past it and the Padding its layout holds after it,
 * *rend at its end, its layout's counts added to *counts
 * (packets in the low half, record bytes in the high half: the Padding a
 * chain skipped is then the bytes it went over less those, with no add
 * for it per record); else 0, nothing changed.
 */
__attribute__((target(LAYOUT_ISA), always_inline))
static inline int step_nb(const uint8_t *buf, const uint8_t **pp, const uint8_t *end,
			  struct spe_record *rec, uint64_t *counts, const uint8_t **rend,
			  unsigned int ng)
{
	const uint8_t *p = *pp;
	struct rec_layout *l;
	__m512i lo, hi;

	if (unlikely(p < end && *p == SPE_HDR_PADDING))
		p = spe__skip_padding(p, end);
	/*
	 * the chain's next loads wait for this record's compares: the
	 * processor does not run ahead to fetch them early (measured on 256
	 * MiB traces: 1.3-2x with 1 KiB ahead, against none; how far:
	 * SPE__PREFETCH_AHEAD)
	 */
	__builtin_prefetch(p + SPE__PREFETCH_AHEAD);
	l = layout_nb(p, end, &lo, &hi, ng);
	if (unlikely(!l))
		return 0;
	emit(l, lo, hi, rec, (uint64_t)(p - buf));
	*counts += l->counts;
	*rend = p + l->size;
	*pp = p + l->step;
	l->hits++;
	return 1;
}

/*
 * A record boundary at or after from (and SPE__LAYOUT_SPAN bytes or more
 * before end): the byte after an End or a Timestamp whose next record,
 * after its Padding, has a known layout; NULL if none in 256 bytes. It may
 * be wrong (a payload that looks like one): two_chains() checks it.
 */
__attribute__((target(LAYOUT_ISA)))
static const uint8_t *boundary(const uint8_t *from, const uint8_t *end)
{
	const uint8_t *x, *y, *lim = from + 256;

	if (from >= end || (size_t)(end - from) < SPE__LAYOUT_SPAN + 256)
		return NULL;
	for (x = from; x < lim && (size_t)(end - x) >= SPE__LAYOUT_SPAN + 256; x++) {
		if (x[-1] != SPE_HDR_END && x[-9] != SPE_HDR_TIMESTAMP)
			continue;
		y = spe__skip_padding(x, end);
		if ((size_t)(end - y) >= SPE__LAYOUT_SPAN &&
		    find(_mm512_loadu_si512((const void *)y),
			 _mm512_loadu_si512((const void *)(y + 64))) >= 0)
			return x;
	}
	return NULL;
}

/*
 * Two chains of records side by side: the first from *pp, the second from
 * a record boundary about half a batch further on (boundary()), its
 * records kept apart until the first lands on that boundary, which proves
 * it one (decoding is fixed from a true boundary). Neither chain branches
 * on the layouts, so that the processor works on both at once: where the
 * layouts come in no order a predictor could learn, one chain alone waits
 * for each record's compares before it knows where the next one starts.
 * Returns as one_chain(); 0 when it did not run (the caller goes on with
 * one_chain()).
 */
__attribute__((target(LAYOUT_ISA), always_inline))
static inline unsigned int two_chains_ng(const uint8_t *buf, const uint8_t **pp,
					 const uint8_t *end, struct spe_record *recs,
					 unsigned int max, uint64_t *npk, uint64_t *npad,
					 unsigned int ng)
{
	const uint8_t *a = *pp, *aend = a, *b, *bend, *q;
	uint64_t ca = 0, cb = 0;	/* packets | record bytes << 32, per chain */
	unsigned int na = 0, nb = 0, capb = max / 2 < CHAIN_B ? max / 2 : CHAIN_B, k, j;
	size_t dist = (size_t)memo.avg * capb;	/* as many records for each chain */

	if (dist < 64)
		dist = 64;
	if ((size_t)(end - a) < dist + 2 * SPE__LAYOUT_SPAN + 512)
		return 0;
	/* the first record first: where it is not of a known layout, no search */
	if (!step_nb(buf, &a, end, &recs[0], &ca, &aend, ng))
		return 0;
	na = 1;
	q = boundary(a + dist, end);	/* NULL if its Padding took it near the end */
	if (!q) {
		/* none near (a long run of Padding, say): one chain for 4 calls */
		memo.chain_skip = 4;
		q = aend;
	}
	b = q;
	/* aend, bend: where the last record of each ends, before its Padding */
	while (aend < q && na < max) {
		if (!step_nb(buf, &a, end, &recs[na], &ca, &aend, ng))
			break;
		na++;
		if (nb < capb) {
			if (step_nb(buf, &b, end, &memo.b_recs[nb], &cb, &bend, ng)) {
				memo.b_end[nb] = bend;
				memo.b_counts[nb] = cb;
				nb++;
			} else {
				capb = nb;
			}
		}
	}
	/* the first chain, alone, up to the boundary */
	while (aend < q && na < max &&
	       step_nb(buf, &a, end, &recs[na], &ca, &aend, ng))
		na++;
	/* the Padding after the last record goes with the next record */
	*npk += (uint32_t)ca;
	*npad += (size_t)(aend - *pp) - (ca >> 32);
	/*
	 * bytes a record by the first chain, for the next distance: from what
	 * it did, not from what worked (after a long run of Padding the mean
	 * is large, and a second chain that far on would never be reached)
	 */
	j = (unsigned int)((size_t)(aend - *pp) / na < 1024 ? (size_t)(aend - *pp) / na : 1024);
	memo.avg = j;
	if (aend != q || !nb || na == max) {
		*pp = aend;
		return na;
	}
	k = nb < max - na ? nb : max - na;
	for (j = 0; j < k; j++)		/* extra[] is left as it was */
		memcpy(&recs[na + j], &memo.b_recs[j], REC_IMG);
	*npk += (uint32_t)memo.b_counts[k - 1];
	*npad += (size_t)(memo.b_end[k - 1] - q) - (memo.b_counts[k - 1] >> 32);
	*pp = memo.b_end[k - 1];
	memo.second += k;
	return na + k;
}

/*
 * two_chains() for the number of groups of layouts there are, a constant
 * in each: find_nb() then has no loop and no branch (1.06-1.18x on 16
 * MiB traces, Documentation/benchmarks.rst).
 */
__attribute__((target(LAYOUT_ISA)))
static unsigned int two_chains(const uint8_t *buf, const uint8_t **pp, const uint8_t *end,
			       struct spe_record *recs, unsigned int max,
			       uint64_t *npk, uint64_t *npad)
{
	BY_GROUPS(two_chains_ng);
}

/*
 * Records of known layouts from *pp, each as long, with the Padding its
 * layout holds, as the first: where they are (records padded to
 * PMBIDR_EL1.Align that none outgrows), where the next one starts does
 * not wait for this one's compares, and the processor decodes several at
 * once. A record of another length stops it (a branch the predictor
 * learns where lengths hold). Returns as one_chain().
 */
__attribute__((target(LAYOUT_ISA), always_inline))
static inline unsigned int strided_ng(const uint8_t *buf, const uint8_t **pp,
				      const uint8_t *end, struct spe_record *recs,
				      unsigned int max, uint64_t *npk, uint64_t *npad,
				      unsigned int ng)
{
	const uint8_t *p = *pp;
	uint64_t pk = 0, pad;
	struct rec_layout *l;
	unsigned int n = 0, stride, tpad;
	__m512i lo, hi;

	if (p < end && *p == SPE_HDR_PADDING)
		p = spe__skip_padding(p, end);
	l = layout_nb(p, end, &lo, &hi, ng);
	if (unlikely(!l))
		return 0;
	pad = (size_t)(p - *pp);
	stride = l->step;
	do {
		emit(l, lo, hi, &recs[n], (uint64_t)(p - buf));
		tpad = l->tpad;
		pk += l->n_packets;
		pad += tpad;
		l->hits++;
		p += stride;
		__builtin_prefetch(p + SPE__PREFETCH_AHEAD);
		n++;
	} while (n < max && (l = layout_nb(p, end, &lo, &hi, ng)) && l->step == stride);
	/* the last record's Padding goes with the next record, as in one_chain() */
	*pp = p - tpad;
	*npk += pk;
	*npad += pad - tpad;
	memo.strided += n;
	return n;
}

/* strided() for the number of groups of layouts, as two_chains() */
__attribute__((target(LAYOUT_ISA)))
static unsigned int strided(const uint8_t *buf, const uint8_t **pp, const uint8_t *end,
			    struct spe_record *recs, unsigned int max,
			    uint64_t *npk, uint64_t *npad)
{
	BY_GROUPS(strided_ng);
}

__attribute__((target(LAYOUT_ISA)))
unsigned int spe__layout_records(const uint8_t *buf, const uint8_t **pp, const uint8_t *end,
				 struct spe_record *recs, unsigned int max,
				 uint64_t *npk, uint64_t *npad)
{
	const uint8_t *p0 = *pp;
	uint64_t pad0 = *npad;
	unsigned int n = 0, r, way;

	if (!memo.avg)
		memo.avg = 64;
	if (unlikely(memo.off)) {
		memo.off--;
		return 0;
	}
	if (max < 16 || !memo.n || memo.chain_skip) {
		if (memo.chain_skip)
			memo.chain_skip--;
		n = one_chain(buf, pp, end, recs, max, npk, npad);
		memo.records += n;
		window(n, 0);
		return n;
	}
	way = memo.force ? (unsigned int)memo.force - 1 :
			   choice_begin(&memo.rec_way, REC_WAYS, __rdtsc());
	while (way == 1 && max - n >= 16 && !memo.chain_skip) {
		r = two_chains(buf, pp, end, recs + n, max - n, npk, npad);
		n += r;
		if (!r)
			break;
	}
	/* strided, and a record by one_chain() where the stride changes */
	while (way == 2 && n < max) {
		n += strided(buf, pp, end, recs + n, max - n, npk, npad);
		if (n == max)
			break;
		r = one_chain(buf, pp, end, recs + n, 1, npk, npad);
		n += r;
		if (!r)
			break;
	}
	/* the rest by one chain (after strided, nothing it could take is left) */
	if (n < max && way != 2)
		n += one_chain(buf, pp, end, recs + n, max - n, npk, npad);
	choice_end(&memo.rec_way, REC_WAYS, REC_MARGIN, (uint64_t)(*pp - p0) - (*npad - pad0),
		   __rdtsc());
	memo.records += n;
	window(n, 0);
	return n;
}

/* the packets of a record at base in the buffer, whose first 128 bytes are lo/hi */
__attribute__((target(LAYOUT_ISA), always_inline))
static inline void emit_packets(const struct pkt_layout *pl, __m512i lo, __m512i hi,
				struct spe_packet *out, uint64_t base, int all)
{
	const __m512i b = _mm512_set1_epi64((long long)base);
	unsigned int k;

	for (k = 0; k < PL_PARTS; k++) {
		__m512i o;

		/*
		 * four parts hold 10 packets: the rest only where there are
		 * more, or always (all: a branch here that the predictor
		 * cannot learn costs more than the two parts, measured)
		 */
		if (!all && k == 4 && pl->n < 10)
			break;
		o = _mm512_maskz_permutex2var_epi8(pl->copied[k], lo,
						   _mm512_load_si512(pl->idx + 64 * k), hi);
		o = _mm512_or_si512(o, _mm512_load_si512(pl->img + 64 * k));
		o = _mm512_mask_add_epi64(o, pl->offq[k], o, b);
		_mm512_storeu_si512((void *)((char *)out + 64 * k), o);
	}
}

/*
 * The packets of one record of a known layout at *pp (a header, not
 * Padding) and of the run of Padding after it, into out (room for PL_PKTS):
 * how many, *pp past them, their counts added; 0 (and *miss set) if it
 * has no known layout, 0 if its layout does not give its packets.
 */
__attribute__((target(LAYOUT_ISA), always_inline))
static inline unsigned int pkt_step(const uint8_t *buf, const uint8_t **pp,
				    const uint8_t *end, struct spe_packet *out,
				    uint64_t *pk, uint64_t *pad, int nb, int *miss)
{
	const uint8_t *p = *pp;
	const struct pkt_layout *pl;
	struct rec_layout *l;
	unsigned __int128 m;
	uint64_t t0, t1, run;
	__m512i lo, hi;
	int i;

	if (unlikely((size_t)(end - p) < SPE__LAYOUT_SPAN))
		return 0;
	lo = _mm512_loadu_si512((const void *)p);
	hi = _mm512_loadu_si512((const void *)(p + 64));
	__builtin_prefetch(p + SPE__PREFETCH_AHEAD);
	i = nb ? (int)find_nb(lo, hi, groups()) : find(lo, hi);
	if (unlikely(i < 0 || i >= (int)SPE__LAYOUTS)) {
		*miss = 1;
		return 0;
	}
	l = &memo.l[i];
	pl = &memo.pl[i];
	if (unlikely(!pl->n || l->opres[p[l->op_at]]))
		return 0;
	/*
	 * the run of Padding after the record (size < 127): the bytes up to
	 * the next other one, bit 127 set standing for what lies past the
	 * 128 bytes (so that a run up to it is measured below)
	 */
	m = ((unsigned __int128)(_mm512_test_epi8_mask(hi, hi) | 1ull << 63) << 64 |
	     _mm512_test_epi8_mask(lo, lo)) >> l->size;
	t0 = _tzcnt_u64((uint64_t)m);
	t1 = _tzcnt_u64((uint64_t)(m >> 64));
	run = t0 + (t1 & -(t0 >> 6));
	/*
	 * Mostly the layout's own Padding: the next record's position then
	 * comes from the layout alone, and the processor goes on to it while
	 * the run is checked (the branch predicted)
	 */
	if (likely(run == pl->tpad)) {
		*pp = p + l->size + pl->tpad;
	} else {
		/* a run that may go on past them: measured, as one packet holds it */
		if (l->size + run >= 2 * 64 - 1) {
			const uint8_t *q = p + l->size;

			run = spe__pad_run(q, end);
		}
		*pp = p + l->size + run;
	}
	emit_packets(pl, lo, hi, out, (uint64_t)(p - buf), nb);
	((uint8_t *)out)[pl->len_at] = (uint8_t)run;
	*pk += pl->n;
	*pad += run;
	l->hits++;
	return pl->n + (run != 0);
}

/*
 * Records of known layouts from *pp into pkts[*n...] while max leaves room
 * for a record's packets (nb as pkt_step()'s); returns how many records.
 */
__attribute__((target(LAYOUT_ISA), always_inline))
static inline unsigned int pkt_steps(const uint8_t *buf, const uint8_t **pp,
				     const uint8_t *end, struct spe_packet *pkts,
				     unsigned int max, unsigned int *n, uint64_t *pk,
				     uint64_t *pad, int nb, int *learn)
{
	unsigned int r = 0, c;

	while (max - *n >= PL_PKTS && (c = pkt_step(buf, pp, end, pkts + *n, pk, pad, nb, learn))) {
		*n += c;
		r++;
	}
	return r;
}

/*
 * Which way this batch of packets goes: 0 the caller's scan, 1 the
 * layouts with find(), 2 with find_nb(); the layouts only where they are
 * a twentieth faster than the scan (spe_choice.h). 0 while the
 * layouts are off.
 */
unsigned int spe__packet_way(void)
{
	/* counted down by the records that the batch's scan decodes meanwhile */
	if (unlikely(memo.off))
		return 0;
	if (memo.force)
		return memo.force > 2 ? 2 : (unsigned int)memo.force;
	return choice_begin(&memo.pkt_way, PKT_WAYS, __rdtsc());
}

/*
 * The end of a batch of packets that spe__packet_way() chose, of bytes
 * bytes of records (Padding not counted) and records records: while the
 * layouts are off, they count down a call a record, as in the record
 * batch (and one at least a batch).
 */
void spe__packet_way_done(uint64_t bytes, uint64_t records)
{
	if (unlikely(memo.off)) {
		records = records ? records : 1;
		memo.off = records < memo.off ? memo.off - (unsigned int)records : 0;
	}
	choice_end(&memo.pkt_way, PKT_WAYS, PKT_MARGIN, bytes, __rdtsc());
}

__attribute__((target(LAYOUT_ISA)))
unsigned int spe__layout_packets(const uint8_t *buf, const uint8_t **pp, const uint8_t *end,
				 struct spe_packet *pkts, unsigned int max, uint64_t *npk,
				 uint64_t *nrec, uint64_t *npad, unsigned int way, int *learn)
{
	const uint8_t *p = *pp;
	uint64_t pk = 0, pad = 0;
	unsigned int n = 0, r;

	*learn = !memo.n;
	if (!memo.n || max < SPE__LAYOUT_MIN_PKTS)
		return 0;
	/* a run of Padding first: one packet, as spe_decoder_next_packet() gives it */
	if (p < end && *p == SPE_HDR_PADDING) {
		size_t run = spe__pad_run(p, end);

		spe__pad_packet(&pkts[0], (uint64_t)(p - buf), run);
		pad += run;
		p += run;
		n = 1;
	}
	/* one loop per way, so that each has pkt_step() for its way alone */
	if (way == 2)
		r = pkt_steps(buf, &p, end, pkts, max, &n, &pk, &pad, 1, learn);
	else
		r = pkt_steps(buf, &p, end, pkts, max, &n, &pk, &pad, 0, learn);
	*pp = p;
	*npk += pk;
	*nrec += r;
	*npad += pad;
	memo.pkt_records += r;
	/*
	 * a record of a known layout that it does not give (its Padding runs
	 * past the 128 bytes, say) is one whose layout repeats: not a miss
	 */
	window(r + (!*learn && max - n >= PL_PKTS), 0);
	return n;
}

uint64_t spe__layout_count(int what)
{
	return what == 4 ? memo.strided : what == 3 ? memo.pkt_records :
	       what == 2 ? memo.off : what ? memo.second : memo.records;
}

void spe__layout_mode(int mode)
{
	memset(&memo, 0, sizeof(memo));
	memo.force = mode;
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

/* packet j of *pl: pkt at offset o of the record, its payload bytes copied */
static void pkt_slot(struct pkt_layout *pl, unsigned int j, const struct spe_packet *pkt,
		     unsigned int o)
{
	struct spe_packet t = *pkt;
	size_t at = j * sizeof(t), q = (at + offsetof(struct spe_packet, offset)) / 8;
	unsigned int k;

	t.payload = 0;
	t.offset = o;
	memcpy(pl->img + at, &t, sizeof(t));
	for (k = 0; k < pkt->payload_len; k++) {
		pl->idx[at + k] = (uint8_t)(o + pkt->hdr_len + k);
		pl->copied[(at + k) / 64] |= 1ull << ((at + k) % 64);
	}
	pl->offq[q / 8] |= (uint8_t)(1u << (q % 8));
}

/* Build in *l (and *pl) the layout of rec, which fast_record() decoded from p. */
static int build(struct rec_layout *l, struct pkt_layout *pl, const uint8_t *p,
		 const struct spe_record *rec)
{
	struct spe_packet pkt;
	unsigned int o, j = 0;
	int r;

	memset(l, 0, sizeof(*l));
	memset(pl, 0, sizeof(*pl));
	memcpy(l->img, rec, REC_IMG);
	memset(l->img, 0, sizeof(rec->offset));	/* the record's own, stored apart */
	l->opres = spe__op_res[4];
	for (o = 0; o < rec->size; o += pkt.len) {
		r = spe_pkt_decode(p + o, rec->size - o, &pkt);
		if (r <= 0 || pkt.hdr_len != 1)
			return -1;
		l->pat[o] = p[o];
		l->hdrs[o / 64] |= 1ull << (o % 64);
		if (j < PL_PKTS - 1)
			pkt_slot(pl, j, &pkt, o);
		j++;
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
			l->opres = spe__op_res[pkt.index & 3u];
			break;
		case SPE_PKT_END:
			break;
		default:
			return -1;
		}
	}
	if (o != rec->size)
		return -1;
	/* the Padding after it, up to the next record or the 128 bytes compared */
	for (; o < 2 * 64 && p[o] == SPE_HDR_PADDING; o++)
		l->tpads[o / 64] |= 1ull << (o % 64);
	l->tpad = o - rec->size;
	l->match[0] = l->hdrs[0] | l->tpads[0];
	l->match[1] = l->hdrs[1] | l->tpads[1];
	l->size = rec->size;
	l->n_packets = rec->n_packets;
	l->counts = rec->n_packets | (uint64_t)rec->size << 32;
	l->step = rec->size + l->tpad;
	/*
	 * the Padding packet after the packets, its len the run's (pkt_step());
	 * none kept for a record of more packets than fit with it
	 */
	if (j < PL_PKTS && rec->size < 2 * 64 - 1) {
		spe__pad_packet(&pkt, 0, 0);	/* its len and offset set per record */
		pkt_slot(pl, j, &pkt, rec->size);
		pl->n = (uint8_t)j;
		pl->len_at = (uint16_t)(j * sizeof(pkt) + offsetof(struct spe_packet, len));
		/* a run that reaches byte 127 may go on past it: never the layout's */
		pl->tpad = (uint8_t)(rec->size + l->tpad < 2 * 64 - 1 ? l->tpad : 255);
	}
	return 0;
}

/*
 * find_nb()'s lane k of its group: layout l's header offsets and bytes
 * (and the first byte of the Padding after it), the last repeated. A lane
 * that must never match (a new group's other lanes; a layout of more than
 * 16 of them, kept for find() alone) holds byte 0 against two values.
 */
static void set_lane(unsigned int k, const struct rec_layout *l)
{
	uint8_t *idx = &memo.gidx[k / 4][16 * (k % 4)], *pat = &memo.gpat[k / 4][16 * (k % 4)];
	unsigned int o, h = 0;

	if (l && __builtin_popcountll(l->hdrs[0]) + __builtin_popcountll(l->hdrs[1]) +
		 !!l->tpad <= 16) {
		for (o = 0; o < 2 * 64; o++)
			if ((l->hdrs[o / 64] >> (o % 64)) & 1) {
				idx[h] = (uint8_t)o;
				pat[h++] = l->pat[o];
			}
		/*
		 * and the first byte of the Padding after the record: the
		 * same headers without it are another layout's (step_nb()
		 * checks the rest of the Padding)
		 */
		if (l->tpad) {
			idx[h] = (uint8_t)l->size;
			pat[h++] = SPE_HDR_PADDING;
		}
	}
	for (o = h; o < 16; o++) {
		idx[o] = h ? idx[h - 1] : 0;
		pat[o] = h ? pat[h - 1] : (uint8_t)(o & 1);
	}
}

/* Whether to learn a layout now (spe_internal.h): see off and misses. */
int spe__layout_learning(int keepable)
{
	if (memo.off)
		return 0;
	window(0, 1);
	/* with the memo full, one in 16 of those it could keep (see misses) */
	return keepable && (memo.n < SPE__LAYOUTS || ++memo.misses % 16 == 0);
}

/*
 * Keep the layout of rec, which fast_record() decoded from p (the record
 * is SPE__LAYOUT_SPAN bytes or more from the end of the data). Once the
 * memo is full, one record in 16 that missed it replaces the layout with
 * the fewest hits, and every count is halved.
 */
__attribute__((target(LAYOUT_ISA)))
void spe__layout_learn(const uint8_t *p, const struct spe_record *rec)
{
	struct rec_layout l;
	struct pkt_layout pl;
	struct spe_record chk;
	struct spe_packet pk[PL_PKTS], ref;
	struct spe_decoder d;
	unsigned int i, v;
	__m512i lo, hi;

	if (!SPE__LAYOUT_KEEPABLE(rec))
		return;
	if (build(&l, &pl, p, rec))
		return;
	/* what the layout gives for this record must be the fast path's record */
	lo = _mm512_loadu_si512((const void *)p);
	hi = _mm512_loadu_si512((const void *)(p + 64));
	emit(&l, lo, hi, &chk, rec->offset);
	if (memcmp(&chk, rec, REC_IMG))
		return;
	/* and its packets the packet iterator's (else it keeps none for packets) */
	emit_packets(&pl, lo, hi, pk, 0, 1);
	spe_decoder_init(&d, p, rec->size, 0);
	for (i = 0; i < pl.n; i++)
		if (spe_decoder_next_packet(&d, &ref) != 1 || memcmp(&ref, &pk[i], sizeof(ref)))
			pl.n = 0;
	v = memo.n;
	if (v == SPE__LAYOUTS) {
		for (v = 0, i = 1; i < SPE__LAYOUTS; i++)
			if (memo.l[i].hits < memo.l[v].hits)
				v = i;
		for (i = 0; i < SPE__LAYOUTS; i++)
			memo.l[i].hits /= 2;
	} else {
		if (v % 4 == 0)		/* a new group */
			for (i = v + 1; i < v + 4; i++)
				set_lane(i, NULL);
		memo.n++;
	}
	memo.l[v] = l;
	memo.pl[v] = pl;
	set_lane(v, &l);
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

unsigned int spe__layout_packets(const uint8_t *buf, const uint8_t **pp, const uint8_t *end,
				 struct spe_packet *pkts, unsigned int max, uint64_t *npk,
				 uint64_t *nrec, uint64_t *npad, unsigned int way, int *learn)
{
	*learn = 0;
	return 0;
}

unsigned int spe__packet_way(void)
{
	return 0;
}

void spe__packet_way_done(uint64_t bytes, uint64_t records)
{
}

int spe__layout_learning(int keepable)
{
	return 0;
}

void spe__layout_learn(const uint8_t *p, const struct spe_record *rec)
{
}

uint64_t spe__layout_count(int what)
{
	return 0;
}

void spe__layout_mode(int mode)
{
}

#endif
