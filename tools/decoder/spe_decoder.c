// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Arm SPE sample record decoder: packet decoder, record iterator,
 * resynchronization. Spec references are to the extracts in
 * /work/shared/spec (see include/arm_spe/spe_packet.h).
 */
#include <stddef.h>
#include <string.h>

#include <arm_spe/spe_decoder.h>

#include "spe_internal.h"

/* the batch packet iterator's vector pre-pass: x86-64, AVX2 chosen at run time */
#if defined(__GNUC__) && defined(__x86_64__) && defined(__BYTE_ORDER__) && \
	__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#include <immintrin.h>
#define HAVE_HDR_SCAN 1
#endif

/* decode8() stores these eight consecutive byte fields at once. */
/* fast_record() writes the record's addresses and counters one by one. */
typedef char spe_rec_layout_check[(SPE_REC_NADDR == 5 && SPE_REC_NCNT == 5) ? 1 : -1];

typedef char spe_pkt_layout_check[
	(offsetof(struct spe_packet, len) == offsetof(struct spe_packet, type) + 1 &&
	 offsetof(struct spe_packet, reserved) == offsetof(struct spe_packet, type) + 7) ? 1 : -1];

/* Header classes used by the fast path. */
enum {
	K_UNK = 0, K_PAD, K_END, K_TS, K_EXT, K_EV, K_DS, K_CTX, K_OP, K_ADDR, K_CNT,
};

/* Table D18-1 as a constant expression of the header byte. */
#define CLS(b)								\
	((b) == SPE_HDR_PADDING ? K_PAD :				\
	 (b) == SPE_HDR_END ? K_END :					\
	 (b) == SPE_HDR_TIMESTAMP ? K_TS :				\
	 SPE_HDR_IS_EXT(b) ? K_EXT :					\
	 SPE_HDR_IS_EVENTS(b) ? K_EV :					\
	 SPE_HDR_IS_DATA_SOURCE(b) ? K_DS :				\
	 SPE_HDR_IS_CONTEXT(b) ? K_CTX :				\
	 SPE_HDR_IS_OP_TYPE(b) ? K_OP :					\
	 SPE_HDR_IS_ADDRESS(b) ? K_ADDR :				\
	 SPE_HDR_IS_COUNTER(b) ? K_CNT : K_UNK)
/* low nibble: class, high nibble: payload length (D18.1.1) */
#define ENT(b)	((uint8_t)(CLS(b) | (SPE_HDR_PAYLOAD_LEN(b) << 4)))
#define R4(b)	ENT(b), ENT((b) + 1), ENT((b) + 2), ENT((b) + 3)
#define R16(b)	R4(b), R4((b) + 4), R4((b) + 8), R4((b) + 12)
#define R64(b)	R16(b), R16((b) + 16), R16((b) + 32), R16((b) + 48)

static const uint8_t hdr_tab[256] = {
	R64(0x00u), R64(0x40u), R64(0x80u), R64(0xc0u),
};

/*
 * Per 8-bit header: packet type, INDEX/CLASS, and whether the header alone
 * makes it reserved (D18.2.1 address INDEX 5, D18.2.3 counter INDEX 3/5,
 * D18.2.2 context INDEX 2/3, D18.2.4 data source SZ 0b1x).
 */
#define TYPE_OF(c)							\
	((c) == K_PAD ? SPE_PKT_PAD : (c) == K_END ? SPE_PKT_END :	\
	 (c) == K_TS ? SPE_PKT_TIMESTAMP : (c) == K_EV ? SPE_PKT_EVENTS : \
	 (c) == K_DS ? SPE_PKT_DATA_SOURCE : (c) == K_CTX ? SPE_PKT_CONTEXT : \
	 (c) == K_OP ? SPE_PKT_OP_TYPE : (c) == K_ADDR ? SPE_PKT_ADDRESS : \
	 (c) == K_CNT ? SPE_PKT_COUNTER : (c) == K_EXT ? SPE_PKT_BAD : SPE_PKT_UNKNOWN)
#define IDX_OF(b)							\
	((CLS(b) == K_ADDR || CLS(b) == K_CNT) ? ((b) & 7u) :		\
	 (CLS(b) == K_CTX || CLS(b) == K_OP) ? ((b) & 3u) : 0u)
#define RES_OF(b)							\
	((CLS(b) == K_ADDR && ((b) & 7u) == 5u) ||			\
	 (CLS(b) == K_CNT && (((b) & 7u) == 3u || ((b) & 7u) == 5u)) ||	\
	 (CLS(b) == K_CTX && ((b) & 3u) > 1u) ||				\
	 (CLS(b) == K_DS && SPE_HDR_PAYLOAD_LEN(b) > 2u))
#define INFO(b)	((uint32_t)TYPE_OF(CLS(b)) | ((uint32_t)IDX_OF(b) << 8) |	\
		 ((uint32_t)RES_OF(b) << 16) | ((uint32_t)SPE_HDR_PAYLOAD_LEN(b) << 24))
#define I4(b)	INFO(b), INFO((b) + 1), INFO((b) + 2), INFO((b) + 3)
#define I16(b)	I4(b), I4((b) + 4), I4((b) + 8), I4((b) + 12)
#define I64(b)	I16(b), I16((b) + 16), I16((b) + 32), I16((b) + 48)

static const uint32_t hdr_info[256] = {
	I64(0x00u), I64(0x40u), I64(0x80u), I64(0xc0u),
};

/*
 * Byte image of spe_packet.type .. spe_packet.reserved for an 8-bit header,
 * stored with one 8-byte copy by decode8().
 */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define IMG_BYTE(v, i)	((uint64_t)(v) << (8 * (i)))
#define HAVE_PKT_IMG 1
#elif defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define IMG_BYTE(v, i)	((uint64_t)(v) << (8 * (7 - (i))))
#define HAVE_PKT_IMG 1
#endif
#ifdef HAVE_PKT_IMG
#define IMG(b)	(IMG_BYTE(TYPE_OF(CLS(b)), 0) | IMG_BYTE(1 + SPE_HDR_PAYLOAD_LEN(b), 1) |	\
		 IMG_BYTE(1, 2) | IMG_BYTE(SPE_HDR_PAYLOAD_LEN(b), 3) | IMG_BYTE(b, 4) |	\
		 IMG_BYTE(0, 5) | IMG_BYTE(IDX_OF(b), 6) | IMG_BYTE(RES_OF(b), 7))
#define M4(b)	IMG(b), IMG((b) + 1), IMG((b) + 2), IMG((b) + 3)
#define M16(b)	M4(b), M4((b) + 4), M4((b) + 8), M4((b) + 12)
#define M64(b)	M16(b), M16((b) + 16), M16((b) + 32), M16((b) + 48)

static const uint64_t pkt_img[256] = {
	M64(0x00u), M64(0x40u), M64(0x80u), M64(0xc0u),
};
#endif

/*
 * The record walk's table (fast_record()): per 8-bit header, the
 * spe_record.present bit it sets (low 32 bits) and the slot its payload
 * goes to (bits 32-39). A header that stops the walk (End, Timestamp,
 * Padding, a 16-bit header, an unknown header, or one whose INDEX/SZ alone
 * is reserved or IMPDEF) has R_STOP for its bit, a bit that is always set
 * in the walk's present mask, so that one test ends the walk both there and
 * at a second packet of a kind.
 */
enum {	/* slots of fast_record()'s payload array */
	S_ADDR = 0, S_CNT = S_ADDR + SPE_REC_NADDR, S_CTX = S_CNT + SPE_REC_NCNT,
	S_DS = S_CTX + 2, S_EV, S_OP, S_NR = 16
};
#define R_STOP		(1u << 31)
#define R_STOPS(b)							\
	(CLS(b) == K_PAD || CLS(b) == K_END || CLS(b) == K_TS ||	\
	 CLS(b) == K_EXT || CLS(b) == K_UNK ||				\
	 (CLS(b) == K_ADDR && ((b) & 7u) >= SPE_REC_NADDR) ||		\
	 (CLS(b) == K_CNT && (((b) & 7u) >= SPE_REC_NCNT || ((b) & 7u) == 3u)) ||	\
	 (CLS(b) == K_CTX && ((b) & 3u) > SPE_CTX_IDX_EL2) ||		\
	 (CLS(b) == K_DS && SPE_HDR_PAYLOAD_LEN(b) > 2u))
#define R_SLOT(b)							\
	(CLS(b) == K_ADDR ? S_ADDR + ((b) & 7u) : CLS(b) == K_CNT ? S_CNT + ((b) & 7u) :	\
	 CLS(b) == K_CTX ? S_CTX + ((b) & 1u) : CLS(b) == K_DS ? S_DS :	\
	 CLS(b) == K_EV ? S_EV : S_OP)
#define R_BIT(b)							\
	(CLS(b) == K_ADDR ? SPE_REC_ADDR((b) & 7u) : CLS(b) == K_CNT ? SPE_REC_CNT((b) & 7u) :	\
	 CLS(b) == K_CTX ? SPE_REC_CTX((b) & 1u) : CLS(b) == K_DS ? SPE_REC_DATA_SOURCE :	\
	 CLS(b) == K_EV ? SPE_REC_EVENTS : SPE_REC_OP)
#define RW(b)								\
	(R_STOPS(b) ? (uint64_t)R_STOP :				\
	 ((uint64_t)R_BIT(b) | ((uint64_t)R_SLOT(b) << 32)))
#define W4(b)	RW(b), RW((b) + 1), RW((b) + 2), RW((b) + 3)
#define W16(b)	W4(b), W4((b) + 4), W4((b) + 8), W4((b) + 12)
#define W64(b)	W16(b), W16((b) + 16), W16((b) + 32), W16((b) + 48)

static const uint64_t rec_tab[256] = {
	W64(0x00u), W64(0x40u), W64(0x80u), W64(0xc0u),
};

/*
 * A record that fast_record() walks has at most one packet of each of its
 * 16 slots, then its End or Timestamp: the bytes it may read from its start.
 */
#define FAST_REC_SPAN	(S_NR * 9u + 9u + 8u)

/*
 * The packet iterator's table (spe_decoder_next_packet()): per 8-bit
 * header, the packet length and flags: PF_SLOW (Padding or a 16-bit
 * header: not for the fast path), PF_REC (End or Timestamp: ends a
 * record), PF_UNK (unknown packet), PF_OP (Operation Type).
 */
#define PF_LEN(f)	((f) & 0xfu)
#define PF_SLOW		(1u << 4)
#define PF_REC		(1u << 5)
#define PF_UNK		(1u << 6)
#define PF_OP		(1u << 7)
#define PW(b)								\
	((uint8_t)((1u + SPE_HDR_PAYLOAD_LEN(b)) |			\
		   (CLS(b) == K_PAD || CLS(b) == K_EXT ? PF_SLOW : 0u) |	\
		   (CLS(b) == K_END || CLS(b) == K_TS ? PF_REC : 0u) |	\
		   (CLS(b) == K_UNK ? PF_UNK : 0u) | (CLS(b) == K_OP ? PF_OP : 0u)))
#define P4(b)	PW(b), PW((b) + 1), PW((b) + 2), PW((b) + 3)
#define P16(b)	P4(b), P4((b) + 4), P4((b) + 8), P4((b) + 12)
#define P64(b)	P16(b), P16((b) + 16), P16((b) + 32), P16((b) + 48)

static const uint8_t pkt_tab[256] = {
	P64(0x00u), P64(0x40u), P64(0x80u), P64(0xc0u),
};

#define TAB_CLS(e)	((e) & 0xfu)
#define TAB_PLEN(e)	((unsigned int)(e) >> 4)

/* D18.1.2: "Within a payload value, values are in little-endian byte order". */
static inline uint64_t le64_load(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	return v;
}

/* Load an n-byte (n <= 8) little-endian value; p + n <= end is guaranteed. */
static inline uint64_t ld_le(const uint8_t *p, unsigned int n, const uint8_t *end)
{
	uint64_t v;
	unsigned int i;

	if ((size_t)(end - p) >= 8) {
		v = le64_load(p);
		return n >= 8 ? v : (v & ((1ull << (n * 8)) - 1));
	}
	v = 0;
	for (i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

static const uint64_t pmask[9] = {
	0, 0xffull, 0xffffull, 0, 0xffffffffull, 0, 0, 0, ~0ull,
};

/*
 * Note on the record loop below: the common packets advance p by a constant
 * per case, so that once the branch predictor has learnt a record layout the
 * next header's address does not wait for this header's table lookup.
 */

/*
 * Read d->pos as one scalar load: otherwise GCC may merge it with a
 * neighbouring field into a vector load that cannot be store-forwarded from
 * the previous call's scalar store (measured: 4x slower packet iterator).
 */
#if defined(__GNUC__)
#define LOAD_POS(d)	__atomic_load_n(&(d)->pos, __ATOMIC_RELAXED)
#define LOAD_SCALAR(x)	__atomic_load_n(&(x), __ATOMIC_RELAXED)
#else
#define LOAD_POS(d)	((d)->pos)
#define LOAD_SCALAR(x)	(x)
#endif
/* The same for the stats the fast paths add to: one scalar add each. */
#define STAT_ADD(d, f, v)	((d)->stats.f = LOAD_SCALAR((d)->stats.f) + (v))

/*
 * D18.2.7: does CLASS/SUBCLASS hold a reserved encoding? Same answer as
 * spe_op_decode(...).reserved (checked exhaustively by the unit tests),
 * as a table of the 4 x 256 CLASS/SUBCLASS pairs.
 */
#define OPRES_OTHER(s)							\
	(((s) & SPE_OP_OTHER_MASK) == SPE_OP_OTHER_VAL ||		\
	 ((s) & SPE_OP_SVE_DP_MASK) == SPE_OP_SVE_DP_VAL ? 0 :		\
	 ((s) & SPE_OP_SME_DP_MASK) == SPE_OP_SME_DP_VAL ?		\
	 (SPE_OP_SME_ETS(s) > 0xb && SPE_OP_SME_ETS(s) != SPE_OP_SME_ETS_WHOLE_ZA) : 1)
#define OPRES_LDST(s)							\
	(!(((s) & 0xfeu) == SPE_OP_LS_GP || ((s) & 0xfeu) == SPE_OP_LS_SIMD_FP ||	\
	   ((s) & 0xfeu) == SPE_OP_LS_UNSPEC || ((s) & 0xfeu) == SPE_OP_LS_MTE_TAG ||	\
	   ((s) & 0xfeu) == SPE_OP_LS_NV2 || ((s) & 0xfeu) == SPE_OP_LS_MEMCPY ||	\
	   (s) == SPE_OP_LS_MEMSET ||					\
	   ((s) & SPE_OP_LS_EXT_MASK) == SPE_OP_LS_EXT_VAL ||		\
	   ((s) & SPE_OP_LS_SVE_MASK) == SPE_OP_LS_SVE_VAL ||		\
	   ((s) & SPE_OP_LS_GCS_MASK) == SPE_OP_LS_GCS_VAL))
#define OPRES(c, s)							\
	((uint8_t)((c) == SPE_OP_CLASS_OTHER ? OPRES_OTHER(s) :		\
		   (c) == SPE_OP_CLASS_LDST ? OPRES_LDST(s) :		\
		   (c) == SPE_OP_CLASS_BRANCH ? ((s) & SPE_OP_BR_MASK) != SPE_OP_BR_VAL : 1))
#define O4(c, s)	OPRES(c, s), OPRES(c, (s) + 1), OPRES(c, (s) + 2), OPRES(c, (s) + 3)
#define O16(c, s)	O4(c, s), O4(c, (s) + 4), O4(c, (s) + 8), O4(c, (s) + 12)
#define O64(c, s)	O16(c, s), O16(c, (s) + 16), O16(c, (s) + 32), O16(c, (s) + 48)
#define O256(c)		{ O64(c, 0u), O64(c, 64u), O64(c, 128u), O64(c, 192u) }

/* row 4: zeros, for the headers that are not an Operation Type */
const uint8_t spe__op_res[5][256] = { O256(0u), O256(1u), O256(2u), O256(3u), { 0 } };

static inline int op_is_reserved(unsigned int cls, unsigned int s)
{
	return spe__op_res[cls & 3u][s & 0xffu];
}

static const char *const err_str[SPE_E_NR] = {
	[SPE_OK] = "success",
	[SPE_E_TRUNCATED] = "truncated packet or record at end of data",
	[SPE_E_BAD_HEADER] = "reserved extended header (two extended header bytes)",
	[SPE_E_RECORD_TOO_LONG] = "record has no End or Timestamp packet within 2048 bytes",
	[SPE_E_INVAL] = "invalid argument",
	[SPE_E_NOSPACE] = "encoder buffer full",
};

const char *spe_strerror(int err)
{
	if (err < 0)
		err = -err;
	if (err >= SPE_E_NR)
		return "unknown error";
	return err_str[err];
}

static void mark_reserved(struct spe_packet *pkt)
{
	unsigned int i = pkt->index;

	switch (pkt->type) {
	case SPE_PKT_ADDRESS:
		/* D18.2.1 INDEX: 0-4 defined, 0b0011x/0b1xxxx IMPDEF */
		pkt->reserved = !(i < SPE_ADDR_IDX_NUM_ARCH || SPE_ADDR_IDX_IS_IMPDEF(i));
		break;
	case SPE_PKT_COUNTER:
		/* D18.2.3 INDEX: 0, 1, 2, 4 defined, 0b0011x/0b1xxxx IMPDEF */
		pkt->reserved = !(SPE_CNT_IDX_IS_ARCH(i) || SPE_CNT_IDX_IS_IMPDEF(i));
		break;
	case SPE_PKT_CONTEXT:
		/* D18.2.2 INDEX: 0b00, 0b01 defined */
		pkt->reserved = i > SPE_CTX_IDX_EL2;
		break;
	case SPE_PKT_DATA_SOURCE:
		/* D18.2.4 SZ: 0b00 or 0b01 */
		pkt->reserved = pkt->payload_len > 2;
		break;
	case SPE_PKT_OP_TYPE:
		pkt->reserved = (uint8_t)op_is_reserved(pkt->index, (uint8_t)pkt->payload);
		break;
	case SPE_PKT_ALIGN:
		/* [000] 5.3.2: SIZE 0b0001..0b1111 defined */
		pkt->reserved = i == 0;
		break;
	default:
		break;
	}
}

/* Table D18-1: a packet with an 8-bit header (buf[0] is not 0x20-0x3F). */
static inline int decode8(const uint8_t *buf, size_t len, struct spe_packet *pkt)
{
	uint32_t info = hdr_info[buf[0]];
	unsigned int plen = info >> 24, type = info & 0xffu;
	uint64_t v;

	if (unlikely(len <= plen))
		return -SPE_E_TRUNCATED;
	if (likely(len >= 9))
		v = le64_load(buf + 1) & pmask[plen];
	else
		v = plen ? ld_le(buf + 1, plen, buf + len) : 0;
	pkt->payload = v;
#ifdef HAVE_PKT_IMG
	memcpy((char *)pkt + offsetof(struct spe_packet, type), &pkt_img[buf[0]], 8);
#else
	pkt->type = (uint8_t)type;
	pkt->len = (uint8_t)(1 + plen);
	pkt->hdr_len = 1;
	pkt->payload_len = (uint8_t)plen;
	pkt->hdr0 = buf[0];
	pkt->hdr1 = 0;
	pkt->index = (uint8_t)(info >> 8);
	pkt->reserved = (uint8_t)(info >> 16);
#endif
	if (type == SPE_PKT_OP_TYPE)
		pkt->reserved = (uint8_t)op_is_reserved(buf[0] & 3u, (unsigned int)v);
	return (int)(1 + plen);
}

int spe_pkt_decode(const uint8_t *buf, size_t len, struct spe_packet *pkt)
{
	uint8_t b0, hb, e;
	unsigned int plen, hlen = 2;

	if (!buf || !pkt)
		return -SPE_E_INVAL;
	if (!len)
		return -SPE_E_TRUNCATED;

	b0 = buf[0];
	pkt->offset = 0;
	pkt->hdr0 = b0;
	pkt->hdr1 = 0;
	pkt->index = 0;
	pkt->reserved = 0;
	pkt->payload = 0;
	e = hdr_tab[b0];

	if (likely(TAB_CLS(e) != K_EXT))
		return decode8(buf, len, pkt);
	{
		/* D18.1.1: 0x20-0x3F, the second byte encodes the payload length. */
		if (len < 2)
			return -SPE_E_TRUNCATED;
		hb = buf[1];
		pkt->hdr1 = hb;
		/* [000] Figure 2: a second extended byte is Reserved; no size. */
		if (SPE_HDR_IS_EXT(hb))
			return -SPE_E_BAD_HEADER;
		plen = SPE_HDR_PAYLOAD_LEN(hb);
		if (SPE_EXT0_IS_ADDR_CNT(b0) && SPE_HDR_IS_ADDRESS(hb)) {
			/* Table D18-2 Address packet (Extended format) */
			pkt->type = SPE_PKT_ADDRESS;
			pkt->index = (uint8_t)SPE_EXT_INDEX(b0, hb);
		} else if (SPE_EXT0_IS_ADDR_CNT(b0) && SPE_HDR_IS_COUNTER(hb)) {
			/* Table D18-2 Counter packet (Extended format) */
			pkt->type = SPE_PKT_COUNTER;
			pkt->index = (uint8_t)SPE_EXT_INDEX(b0, hb);
		} else if ((b0 & SPE_ALIGN0_MASK) == SPE_ALIGN0_VAL && hb == SPE_ALIGN1_VAL) {
			/* [000] 5.3.2 Alignment command */
			pkt->type = SPE_PKT_ALIGN;
			pkt->index = SPE_ALIGN_SIZE(b0);
		} else {
			pkt->type = SPE_PKT_UNKNOWN;
		}
	}
	(void)hb;
	if (len < hlen + plen)
		return -SPE_E_TRUNCATED;
	pkt->hdr_len = (uint8_t)hlen;
	pkt->payload_len = (uint8_t)plen;
	pkt->len = (uint8_t)(hlen + plen);
	if (plen)
		pkt->payload = ld_le(buf + hlen, plen, buf + len);
	mark_reserved(pkt);
	return (int)pkt->len;
}

void spe_decoder_init(struct spe_decoder *d, const void *buf, size_t len,
		      unsigned int flags)
{
	memset(d, 0, sizeof(*d));
	d->buf = buf;
	d->len = buf ? len : 0;
	d->flags = flags;
}

/* Position after an Alignment command whose last byte is at pos - 1. */
static size_t align_skip(const struct spe_decoder *d, size_t pos, unsigned int size)
{
	uint64_t a = SPE_ALIGN_BYTES(size), addr = d->buf_addr + pos;
	uint64_t next = (addr + a - 1) & ~(a - 1);

	next -= d->buf_addr;
	return next > d->len ? d->len : (size_t)next;
}

/*
 * Is q a plausible start of a record (or inter-record padding)? Used only
 * to reject false End/Timestamp matches while resynchronizing.
 */
static int plausible_start(const uint8_t *q, const uint8_t *end)
{
	struct spe_packet pkt;
	int n;

	if (q == end)
		return 1;
	n = spe_pkt_decode(q, (size_t)(end - q), &pkt);
	if (n < 0)
		return n == -SPE_E_TRUNCATED;
	return pkt.type != SPE_PKT_UNKNOWN && !pkt.reserved &&
	       pkt.type != SPE_PKT_END && pkt.type != SPE_PKT_TIMESTAMP;
}

/*
 * D18.1.2/D18.1.3: a record ends with an End packet or a Timestamp packet
 * and only padding may follow before the next record. After an error, look
 * for the first such framing packet at or after 'from' that is followed by a
 * plausible packet, and resume there.
 */
size_t spe__resync(struct spe_decoder *d, size_t from)
{
	const uint8_t *buf = d->buf, *end = buf + d->len, *q;

	for (q = buf + from; q < end; q++) {
		if (*q == SPE_HDR_END) {
			if (plausible_start(q + 1, end))
				return (size_t)(q + 1 - buf);
		} else if (*q == SPE_HDR_TIMESTAMP && end - q >= 9) {
			if (plausible_start(q + 9, end))
				return (size_t)(q + 9 - buf);
		}
	}
	return d->len;
}

/* resync() from 'from', remembered for the streaming layer (spe_stream.c) */
static size_t spe__resync_at(struct spe_decoder *d, size_t from)
{
	d->resync_from = from;
	return spe__resync(d, from);
}

static int fail(struct spe_decoder *d, int code, size_t at, size_t resume)
{
	d->err_pos = d->pos;
	d->err.code = code;
	d->err.offset = at;
	d->err.resume = resume;
	d->stats.errors++;
	if (resume > d->pos)
		d->stats.skipped_bytes += resume - d->pos;
	d->pos = resume;
	return -code;
}

static void add_extra(struct spe_record *rec, const struct spe_packet *pkt, size_t off)
{
	if (rec->n_extra < SPE_REC_NEXTRA) {
		struct spe_extra_pkt *x = &rec->extra[rec->n_extra];

		x->payload = pkt->payload;
		x->rel_offset = (uint32_t)(off - rec->offset);
		x->type = pkt->type;
		x->index = pkt->index;
		x->hdr0 = pkt->hdr0;
		x->hdr1 = pkt->hdr1;
	}
	if (rec->n_extra < UINT16_MAX)
		rec->n_extra++;
	rec->present |= SPE_REC_EXTRA;
}

#define SET_PRESENT(rec, bit)					\
	do {							\
		if ((rec)->present & (bit))			\
			(rec)->present |= SPE_REC_DUP;		\
		(rec)->present |= (bit);			\
	} while (0)

/*
 * Slow path: a packet with a 16-bit header, or one with reserved values.
 * Returns the packet length, 0 for a legacy Alignment command (the caller
 * moves to *align_to), or a negative error.
 */
static int slow_packet(struct spe_decoder *d, struct spe_record *rec,
		       const uint8_t *p, const uint8_t *end, size_t *align_to)
{
	struct spe_packet pkt;
	size_t off = (size_t)(p - d->buf);
	int n = spe_pkt_decode(p, (size_t)(end - p), &pkt);

	if (n < 0)
		return n;
	if (pkt.type == SPE_PKT_UNKNOWN)
		d->stats.unknown++;
	if (!pkt.reserved) {
		if (pkt.type == SPE_PKT_ADDRESS && pkt.index < SPE_REC_NADDR) {
			SET_PRESENT(rec, SPE_REC_ADDR(pkt.index));
			rec->addr[pkt.index] = pkt.payload;
			return n;
		}
		if (pkt.type == SPE_PKT_COUNTER && pkt.index < SPE_REC_NCNT) {
			SET_PRESENT(rec, SPE_REC_CNT(pkt.index));
			rec->counter[pkt.index] = (uint16_t)pkt.payload;
			return n;
		}
		if (pkt.type == SPE_PKT_ALIGN && (d->flags & SPE_DEC_LEGACY_ALIGN)) {
			*align_to = align_skip(d, off + (size_t)n, pkt.index);
			d->stats.packets++;
			return 0;
		}
	}
	/* D18.1.3: ignore unknown packets and reserved values; keep a copy. */
	add_extra(rec, &pkt, off);
	return n;
}

/*
 * The record iterator's fast path, for a record that starts at 'start' with
 * at least FAST_REC_SPAN bytes of data after it (so that no load below
 * needs a bounds check) and holds at most one packet of each kind, all of
 * them known and without reserved values. Per packet: one table load gives
 * the present bit and the payload slot, one unaligned 8-byte load the
 * payload (stored unmasked; the record's fields take the bytes they hold),
 * one branch, on a bit set in present, both ends the walk at End/Timestamp
 * and catches what the walk does not handle, and the step to the next
 * header is a branch on the payload size to a constant (CONST_STEP): no
 * branch on the packet's kind, and, when the sizes are predicted, no load
 * on the chain from one header to the next. Returns where the record ends
 * with *rec filled (the caller accounts for it: fast_done()), or NULL with
 * d unchanged: the general loop then decodes
 * the record from its start (padding inside a record, 16-bit headers,
 * unknown, reserved or IMPDEF packets, a packet kind seen twice).
 */
#if defined(__GNUC__)
/* a vector load of two slots cannot be forwarded from two 8-byte stores */
#define SLOT(sl, k)	__atomic_load_n(&(sl)[k], __ATOMIC_RELAXED)
#else
#define SLOT(sl, k)	((sl)[k])
#endif

/*
 * p += n in a branch of its own. Left alone, GCC turns a switch of such
 * steps back into arithmetic on the header (or a table), which puts the
 * header's load on the chain from one packet to the next (measured: the
 * record iterator 8-14% slower on the benchmark traces); the empty asm
 * with a memory clobber keeps one branch per step.
 */
#if defined(__GNUC__)
#define CONST_STEP(p, n)	do { __asm__("" ::: "memory"); (p) += (n); } while (0)
#else
#define CONST_STEP(p, n)	((p) += (n))
#endif

/* one case of a switch that steps x by a constant */
#define STEP_CASE(x, k, n)	case k: CONST_STEP(x, n); break

#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline const uint8_t *fast_record(const struct spe_decoder *d,
					  struct spe_record *rec, const uint8_t *start)
{
	const uint8_t *p = start;
	uint64_t sl[S_NR], w, t, ts = 0;
	uint8_t hdr[S_NR];
	uint32_t present = R_STOP, bit;
	unsigned int b, ev_len, ds_len, npk = 1;	/* End or Timestamp */

	/*
	 * In two halves: GCC's generic tuning turns a 128-byte memset into
	 * "rep stos", whose start-up cost is a large part of a record's time.
	 */
	memset(sl, 0, sizeof(sl) / 2);
	memset(sl + S_NR / 2, 0, sizeof(sl) / 2);
	memset(hdr, 0, sizeof(hdr));
	for (;;) {
		b = *p;
		t = rec_tab[b];
		w = le64_load(p + 1);
		bit = (uint32_t)t;
		if (unlikely(present & bit))
			break;
		present |= bit;
		npk++;
		sl[t >> 32] = w;
		hdr[t >> 32] = (uint8_t)b;
		/* 1 + SPE_HDR_PAYLOAD_LEN(b): every header here is >= 0x40 */
		switch (SPE_HDR_SZ(b)) {
		STEP_CASE(p, 0, 2);
		STEP_CASE(p, 1, 3);
		STEP_CASE(p, 2, 5);
		default: CONST_STEP(p, 9);
		}
	}
	if (b == SPE_HDR_TIMESTAMP) {
		ts = w;
		present |= SPE_REC_TIMESTAMP;
		p += 9;
	} else if (b == SPE_HDR_END) {
		present |= SPE_REC_END;
		p++;
	} else {
		return NULL;
	}
	present &= ~R_STOP;
	if (unlikely((present & SPE_REC_OP) &&
		     op_is_reserved(SPE_HDR_OP_CLASS(hdr[S_OP]), (uint8_t)SLOT(sl, S_OP))))
		return NULL;
	/* SPE_HDR_PAYLOAD_LEN() of a header that is there, 0 if none: no branch */
	ev_len = ((present / SPE_REC_EVENTS) & 1u) << SPE_HDR_SZ(hdr[S_EV]);
	ds_len = ((present / SPE_REC_DATA_SOURCE) & 1u) << SPE_HDR_SZ(hdr[S_DS]);
	rec->offset = (uint64_t)(start - d->buf);
	rec->size = (uint32_t)(p - start);
	rec->present = present;
	/* written out: GCC keeps a 5-iteration copy loop as a loop */
	rec->addr[0] = SLOT(sl, S_ADDR);
	rec->addr[1] = SLOT(sl, S_ADDR + 1);
	rec->addr[2] = SLOT(sl, S_ADDR + 2);
	rec->addr[3] = SLOT(sl, S_ADDR + 3);
	rec->addr[4] = SLOT(sl, S_ADDR + 4);
	rec->timestamp = ts;
	rec->events = SLOT(sl, S_EV) & pmask[ev_len];
	rec->context[0] = (uint32_t)SLOT(sl, S_CTX);
	rec->context[1] = (uint32_t)SLOT(sl, S_CTX + 1);
	rec->counter[0] = (uint16_t)SLOT(sl, S_CNT);
	rec->counter[1] = (uint16_t)SLOT(sl, S_CNT + 1);
	rec->counter[2] = (uint16_t)SLOT(sl, S_CNT + 2);
	rec->counter[3] = (uint16_t)SLOT(sl, S_CNT + 3);
	rec->counter[4] = (uint16_t)SLOT(sl, S_CNT + 4);
	rec->data_source = (uint16_t)(SLOT(sl, S_DS) & pmask[ds_len]);
	rec->events_len = (uint8_t)ev_len;
	rec->data_source_len = (uint8_t)ds_len;
	rec->op_class = (uint8_t)SPE_HDR_OP_CLASS(hdr[S_OP]);
	rec->op_subclass = (uint8_t)SLOT(sl, S_OP);
	rec->n_packets = (uint16_t)npk;
	/* n_extra = 0 and the padding after it, as the general loop's memset */
	memset(&rec->n_extra, 0, offsetof(struct spe_record, extra) -
	       offsetof(struct spe_record, n_extra));
	return p;
}

/* Account for a record fast_record() decoded, which ends before 'next'. */
static inline int fast_done(struct spe_decoder *d, const struct spe_record *rec,
			    const uint8_t *next)
{
	STAT_ADD(d, packets, rec->n_packets);
	STAT_ADD(d, records, 1);
	d->pos = (size_t)(next - d->buf);
	return 1;
}

/* The record iterator past its fast path: padding, then any record. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static int next_record(struct spe_decoder *d, struct spe_record *rec)
{
	const uint8_t *buf = d->buf, *end = buf + d->len, *p, *start, *lim;
	uint32_t present = 0, dup = 0;
	unsigned int npk = 0, n, i;
	uint64_t v;
	uint8_t e;

	p = buf + LOAD_POS(d);
	/* D18.1.3: only padding (and [000] Alignment commands) between records. */
	for (;;) {
		start = p;
		p = spe__skip_padding(p, end);
		d->stats.pad_bytes += (size_t)(p - start);
		if (unlikely(p < end && (d->flags & SPE_DEC_LEGACY_ALIGN) &&
			     (*p & SPE_ALIGN0_MASK) == SPE_ALIGN0_VAL &&
			     end - p >= 2 && p[1] == SPE_ALIGN1_VAL && SPE_ALIGN_SIZE(*p))) {
			d->stats.packets++;
			p = buf + align_skip(d, (size_t)(p - buf) + 2, SPE_ALIGN_SIZE(*p));
			continue;
		}
		break;
	}
	d->pos = (size_t)(p - buf);
	if (p >= end)
		return 0;
	if (likely((size_t)(end - p) >= FAST_REC_SPAN && !(d->flags & SPE__DEC_NO_FAST))) {
		const uint8_t *next = fast_record(d, rec, p);

		if (next)
			return fast_done(d, rec, next);
	}

	start = p;
	lim = (size_t)(end - start) > SPE_MAX_RECORD_LEN ? start + SPE_MAX_RECORD_LEN : end;
	/* fields not present in this record read as zero */
	memset(rec, 0, offsetof(struct spe_record, extra));
	rec->offset = (uint64_t)(start - buf);

/* Record that a field arrived; a second one of the same kind is flagged. */
#define GOT(bit)	do { dup |= present & (bit); present |= (bit); } while (0)

	while (likely(p < lim)) {
		e = hdr_tab[*p];
		n = TAB_PLEN(e);
		/* One unaligned load covers any payload when 9 bytes remain. */
		if (likely((size_t)(end - p) >= 9)) {
			v = le64_load(p + 1);
		} else {
			if ((size_t)(end - p) <= n)
				goto truncated;
			v = ld_le(p + 1, n, end);
		}
		switch (TAB_CLS(e)) {
		case K_PAD:
			/*
			 * D18.2.8 padding inside a record: allowed, not one of
			 * its packets, and not in stats.packets (see there).
			 */
			d->stats.pad_bytes++;
			p++;
			continue;
		case K_END:
			present |= SPE_REC_END;
			p++;
			goto done;
		case K_TS:
			rec->timestamp = v;
			present |= SPE_REC_TIMESTAMP;
			p += 9;
			goto done;
		case K_ADDR:
			i = *p & SPE_HDR_INDEX_SHORT_MASK;
			if (unlikely(i >= SPE_REC_NADDR))
				goto slow;
			GOT(SPE_REC_ADDR(i));
			rec->addr[i] = v;
			npk++;
			p += 9;		/* 64-bit payload (D18.2.1) */
			continue;
		case K_CNT:
			i = *p & SPE_HDR_INDEX_SHORT_MASK;
			if (unlikely(i >= SPE_REC_NCNT || i == 3))
				goto slow;
			GOT(SPE_REC_CNT(i));
			rec->counter[i] = (uint16_t)v;
			npk++;
			p += 3;		/* 16-bit payload (D18.2.3) */
			continue;
		case K_EV:
			GOT(SPE_REC_EVENTS);
			rec->events = v & pmask[n];
			rec->events_len = (uint8_t)n;
			break;
		case K_DS:
			if (unlikely(n > 2))
				goto slow;
			GOT(SPE_REC_DATA_SOURCE);
			rec->data_source = (uint16_t)(v & pmask[n]);
			rec->data_source_len = (uint8_t)n;
			break;
		case K_CTX:
			i = SPE_HDR_CONTEXT_INDEX(*p);
			if (unlikely(i > SPE_CTX_IDX_EL2))
				goto slow;
			GOT(SPE_REC_CTX(i));
			rec->context[i] = (uint32_t)v;
			npk++;
			p += 5;		/* 32-bit payload (D18.2.2) */
			continue;
		case K_OP:
			if (unlikely(op_is_reserved(SPE_HDR_OP_CLASS(*p), (uint8_t)v)))
				goto slow;
			GOT(SPE_REC_OP);
			rec->op_class = SPE_HDR_OP_CLASS(*p);
			rec->op_subclass = (uint8_t)v;
			npk++;
			p += 2;		/* 8-bit payload (D18.2.7) */
			continue;
		default:	/* K_EXT, K_UNK */
			goto slow;
		}
		npk++;
		p += 1 + n;
		continue;
slow:
		{
			size_t align_to = 0;
			int r;

			rec->present = present;
			r = slow_packet(d, rec, p, end, &align_to);
			present = rec->present;
			if (r == -SPE_E_TRUNCATED)
				goto truncated;
			if (r < 0) {
				size_t at = (size_t)(p - buf);

				d->stats.packets += npk;
				return fail(d, -r, at, spe__resync_at(d, at + 1));
			}
			if (r == 0) {	/* legacy Alignment command: skip */
				p = buf + align_to;
				if (p >= end)
					goto truncated;
			} else {
				npk++;
				p += r;
			}
		}
	}
#undef GOT
	d->stats.packets += npk;
	if (lim == end)
		goto truncated_counted;
	/*
	 * D18.1.2 framing lost: no End/Timestamp within the maximum record
	 * size. Resynchronize from the next byte, but never again inside the
	 * window of an earlier over-long record: crafted input could otherwise
	 * make every byte start a 2KB scan.
	 */
	{
		size_t from = (size_t)(start - buf) + 1, floor = d->resync_floor;

		d->resync_floor = (size_t)(lim - buf);
		return fail(d, SPE_E_RECORD_TOO_LONG, (size_t)(start - buf),
			    spe__resync_at(d, from > floor ? from : floor));
	}

truncated:
	d->stats.packets += npk;
truncated_counted:
	/* The data ends inside this record. */
	return fail(d, SPE_E_TRUNCATED, (size_t)(p < end ? p - buf : start - buf), d->len);

done:
	npk++;
	d->stats.packets += npk;
	d->stats.records++;
	rec->n_packets = (uint16_t)(npk > UINT16_MAX ? UINT16_MAX : npk);
	rec->present = present | (dup ? SPE_REC_DUP : 0);
	rec->size = (uint32_t)(p - start);
	d->pos = (size_t)(p - buf);
	return 1;
}

int spe_decoder_next(struct spe_decoder *d, struct spe_record *rec)
{
	size_t pos = LOAD_POS(d);

	/*
	 * Not near the end: skip the padding before the record here (as
	 * next_record() would: a legacy Alignment command after it stops
	 * fast_record(), and next_record() goes on from there). (The record
	 * layouts of the batches, spe_rec_layout.c, cost more here than they
	 * save for one record a call: 0.85-0.88x on the generated benchmark
	 * traces, 1.03x on the capture.)
	 */
	if (likely(pos < d->len && d->len - pos >= FAST_REC_SPAN &&
		   !(d->flags & SPE__DEC_NO_FAST))) {
		const uint8_t *p = d->buf + pos, *q = p, *end = d->buf + d->len;

		if (*q == SPE_HDR_PADDING) {
			q = spe__skip_padding(q, end);
			STAT_ADD(d, pad_bytes, (size_t)(q - p));
			d->pos = (size_t)(q - d->buf);
		}
		__builtin_prefetch(q + SPE__PREFETCH_AHEAD);
		if ((size_t)(end - q) >= FAST_REC_SPAN) {
			const uint8_t *next = fast_record(d, rec, q);

			if (next)
				return fast_done(d, rec, next);
		}
	}
	return next_record(d, rec);
}

/* The packet iterator past its fast path: padding, 16-bit headers, the end. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static int next_packet(struct spe_decoder *d, struct spe_packet *pkt)
{
	size_t pos = LOAD_POS(d);
	int n;

	if (pos >= d->len)
		return 0;
	if (d->buf[pos] == SPE_HDR_PADDING) {
		/* a run of Padding bytes is returned as one packet (len <= 255) */
		size_t run = spe__pad_run(d->buf + pos, d->buf + d->len);

		spe__pad_packet(pkt, pos, run);
		/* stats.packets excludes padding (see spe_decoder.h) */
		d->stats.pad_bytes += run;
		d->pos = pos + run;
		return 1;
	}
	if (likely(!SPE_HDR_IS_EXT(d->buf[pos]))) {
		n = decode8(d->buf + pos, d->len - pos, pkt);
		pkt->offset = pos;
		if (likely(n > 0)) {
			unsigned int t = pkt->type;

			d->stats.packets++;
			if (t == SPE_PKT_END || t == SPE_PKT_TIMESTAMP)
				d->stats.records++;
			else if (t == SPE_PKT_UNKNOWN)
				d->stats.unknown++;
			d->pos = pos + (size_t)n;
			return 1;
		}
		return fail(d, SPE_E_TRUNCATED, pos, d->len);
	}
	n = spe_pkt_decode(d->buf + pos, d->len - pos, pkt);
	if (unlikely(n < 0)) {
		if (n == -SPE_E_TRUNCATED)
			return fail(d, SPE_E_TRUNCATED, pos, d->len);
		return fail(d, -n, pos, pos + 1);
	}
	pkt->offset = pos;
	d->stats.packets++;
	switch (pkt->type) {
	case SPE_PKT_UNKNOWN:
		d->stats.unknown++;
		break;
	case SPE_PKT_END:
	case SPE_PKT_TIMESTAMP:
		d->stats.records++;
		break;
	case SPE_PKT_ALIGN:
		if ((d->flags & SPE_DEC_LEGACY_ALIGN) && !pkt->reserved) {
			d->pos = align_skip(d, pos + (size_t)n, pkt->index);
			return 1;
		}
		break;
	default:
		break;
	}
	d->pos = pos + (size_t)n;
	return 1;
}

#ifdef HAVE_PKT_IMG
/* A packet from its payload, offset and the image of its byte fields. */
static inline void store_packet(struct spe_packet *pkt, size_t off, uint64_t payload,
				uint64_t img)
{
	pkt->payload = payload;
	pkt->offset = off;
	memcpy((char *)pkt + offsetof(struct spe_packet, type), &img, 8);
}

/* The Padding packet of a run of n (<= 255) bytes, as next_packet() fills it. */
static inline void pad_packet(struct spe_packet *pkt, size_t off, size_t n)
{
	store_packet(pkt, off, 0,
		     (pkt_img[SPE_HDR_PADDING] & ~IMG_BYTE(0xffu, 1)) | IMG_BYTE(n, 1));
}

/*
 * The packet at pos (8-bit header b, not Padding, table entry f, 9 bytes
 * of data from it) into *pkt, with no branch on what it is; returns the
 * position after it, stepped by a constant per payload size (CONST_STEP).
 */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline size_t fast_packet(const uint8_t *p, size_t pos, unsigned int b, unsigned int f,
				 struct spe_packet *pkt)
{
	uint64_t v = le64_load(p + 1) & pmask[PF_LEN(f) - 1];

	store_packet(pkt, pos, v,
		     pkt_img[b] | IMG_BYTE(spe__op_res[b & 3u][v & 0xffu] & (f >> 7), 7));
	switch (PF_LEN(f)) {
	STEP_CASE(pos, 1, 1);
	STEP_CASE(pos, 2, 2);
	STEP_CASE(pos, 3, 3);
	STEP_CASE(pos, 5, 5);
	default: CONST_STEP(pos, 9);
	}
	return pos;
}
#endif

/*
 * An 8-bit header other than Padding with 9 bytes of data from it (the
 * common case) takes no branch on what it is: one table load for its
 * length and flags, the payload masked out of one 8-byte load, the fields
 * from pkt_img[] in one 8-byte store with the Operation Type's reserved
 * flag from spe__op_res[], and the stats added from the flags.
 */
int spe_decoder_next_packet(struct spe_decoder *d, struct spe_packet *pkt)
{
#ifdef HAVE_PKT_IMG
	size_t pos = LOAD_POS(d);

	if (likely(pos < d->len && d->len - pos >= 9)) {
		const uint8_t *p = d->buf + pos;
		unsigned int b = *p, f = pkt_tab[b];

		if (likely(!(f & PF_SLOW))) {
			STAT_ADD(d, packets, 1);
			STAT_ADD(d, records, (f >> 5) & 1u);
			STAT_ADD(d, unknown, (f >> 6) & 1u);
			d->pos = fast_packet(p, pos, b, f, pkt);
			return 1;
		}
	}
#endif
	return next_packet(d, pkt);
}

#ifdef HAVE_HDR_SCAN
/*
 * The batch packet iterator with a vector pre-pass (x86-64 with AVX2, found
 * at run time). The portable loop (spe_decoder_next_packets() below, with
 * fast_packet()) steps from one header to the next by a branch on the
 * payload size, which the branch predictor learns for a
 * regular trace; on a trace whose records vary it mispredicts, and stepping
 * by the length looked up from the header puts two loads on the chain from
 * one packet to the next (the byte, then its table entry). Here a window of
 * the trace is first read 32 bytes at a time into hl[], the length of the
 * packet that each byte would start if it were an 8-bit header, so that the
 * chain is one load from hl[] (the header's own entry is loaded beside it,
 * off the chain), and into nz[], a bit per byte that is not Padding, so
 * that a run of Padding is measured with one count of trailing zeros.
 */
#define HS_SPAN		512u	/* bytes per window */
/*
 * Below this many packets a call, the portable loop is faster (measured:
 * 0.56-0.78x of it at 1 and 2 a call, 1.1-1.2x at 8)
 */
#define HS_MIN_BATCH	8u

/*
 * D18.1.1: 1 + the payload length of an 8-bit header depends only on its
 * top four bits (SPE_HDR_PAYLOAD_LEN()): one 16-entry table.
 */
#define HL(h)	((char)(1u + SPE_HDR_PAYLOAD_LEN((h) << 4)))
#define HL16	HL(0), HL(1), HL(2), HL(3), HL(4), HL(5), HL(6), HL(7),	\
		HL(8), HL(9), HL(10), HL(11), HL(12), HL(13), HL(14), HL(15)

struct hdr_scan {
	uint8_t hl[HS_SPAN];
	uint32_t nz[HS_SPAN / 32 + 2];
};

/* hl[] and nz[] of the n32 32-byte chunks from p */
__attribute__((target("avx2")))
static void hdr_scan_avx2(const uint8_t *p, size_t n32, struct hdr_scan *hs)
{
	const __m256i lut = _mm256_setr_epi8(HL16, HL16);
	const __m256i nib = _mm256_set1_epi8(0x0f);
	size_t i;

	for (i = 0; i < n32; i++) {
		__m256i v = _mm256_loadu_si256((const __m256i *)(const void *)(p + 32 * i));
		__m256i h = _mm256_and_si256(_mm256_srli_epi16(v, 4), nib);
		__m256i z = _mm256_cmpeq_epi8(v, _mm256_setzero_si256());

		_mm256_storeu_si256((__m256i *)(void *)(hs->hl + 32 * i),
				    _mm256_shuffle_epi8(lut, h));
		hs->nz[i] = ~(uint32_t)_mm256_movemask_epi8(z);
	}
}

/*
 * Per 8-bit header, all the scan loop needs of it in one load each: the
 * fields image (pkt_img[]), the payload mask, the stats to add (packets,
 * records, unknown in 21-bit fields; HS_SLOW: Padding or a 16-bit header,
 * not for this loop) and the row of spe__op_res[] with its reserved flag (the
 * row of zeros unless it is an Operation Type).
 */
struct hdr_ent {
	uint64_t img, mask, cnt, oprow;
};
#define HS_REC_SHIFT	21
#define HS_UNK_SHIFT	42
#define HS_FIELD	((1ull << 21) - 1)
#define HS_SLOW		(1ull << 63)
#define HS_REC		(1ull << HS_REC_SHIFT)
/* two shifts: one of 64 bits would be undefined for an 8-byte payload */
#define HE_MASK(b)	(((1ull << (4 * SPE_HDR_PAYLOAD_LEN(b))) << (4 * SPE_HDR_PAYLOAD_LEN(b))) - 1)
#define HE_CNT(b)	(CLS(b) == K_PAD || CLS(b) == K_EXT ? HS_SLOW :		\
			 1ull | (uint64_t)(CLS(b) == K_END || CLS(b) == K_TS) << HS_REC_SHIFT |	\
			 (uint64_t)(CLS(b) == K_UNK) << HS_UNK_SHIFT)
#define HE(b)	{ IMG(b), HE_MASK(b), HE_CNT(b), CLS(b) == K_OP ? ((b) & 3u) : 4u }
#define HE4(b)	HE(b), HE((b) + 1), HE((b) + 2), HE((b) + 3)
#define HE16(b)	HE4(b), HE4((b) + 4), HE4((b) + 8), HE4((b) + 12)
#define HE64(b)	HE16(b), HE16((b) + 16), HE16((b) + 32), HE16((b) + 48)

/* aligned: an entry is one load from one cache line */
static const struct hdr_ent hdr_ents[256] __attribute__((aligned(32))) = {
	HE64(0x00u), HE64(0x40u), HE64(0x80u), HE64(0xc0u),
};

#if defined(__GNUC__)
__attribute__((noinline))
#endif
static int next_packets_scan(struct spe_decoder *d, struct spe_packet *pkts, unsigned int max)
{
	const uint8_t *buf = d->buf, *end = buf + d->len;
	size_t pos = LOAD_POS(d), lim = d->len >= 9 ? d->len - 8 : 0;
	uint64_t npk = 0, nrec = 0, nunk = 0, npad = 0;
	struct spe_packet *pkt = pkts, *pend = pkts + max;
	struct hdr_scan hs;
	/* the layouts for batches that hold a record's packets and more */
	int lay = max >= SPE__LAYOUT_MIN_PKTS && !(d->flags & SPE__DEC_NO_LAYOUT) &&
		  spe__layouts_avail();
	unsigned int way = lay ? spe__packet_way() : 0;
	uint64_t recstop = 0;	/* HS_REC: end the window at the record's end */
	size_t pos0 = pos;
	int bound = 0;		/* the window ended at a record's end */

	/* positions below lim have the 9 bytes the fast path reads */
	while (pkt < pend && pos < lim) {
		const uint8_t *wbuf = buf + pos;
		size_t avail, span, n32, k, wl, w = 0;
		uint64_t acc = 0;
		int learn, ext = 0;

		/*
		 * the records of known layouts (spe_rec_layout.c), then one the
		 * window below decodes up to its end, its layout learnt
		 */
		if (way) {
			struct spe_record tmp;
			uint64_t r0 = nrec;

			pkt += spe__layout_packets(buf, &wbuf, end, pkt, (unsigned int)(pend - pkt),
						   &npk, &nrec, &npad, way, &learn);
			pos = (size_t)(wbuf - buf);
			if (pkt == pend || pos >= lim)
				break;
			/*
			 * learnt only at a record's start (after the records of
			 * the layouts, or a window that ended at one): a layout
			 * from within a record would match there again, and
			 * make boundary() take a payload for a record's end
			 */
			if (learn && (bound || nrec != r0)) {
				const uint8_t *q = spe__skip_padding(wbuf, end);

				if ((size_t)(end - q) >= FAST_REC_SPAN + SPE__LAYOUT_SPAN &&
				    spe__layout_learning(1) && fast_record(d, &tmp, q))
					spe__layout_learn(q, &tmp);
			}
			recstop = HS_REC;
		}
		avail = d->len - pos;
		bound = 0;

		/* a 16-bit header first: next_packet() or the next call takes it */
		if (unlikely((hdr_ents[*wbuf].cnt & HS_SLOW) && *wbuf != SPE_HDR_PADDING))
			break;
		/* no more than the packets still wanted may need (9 bytes each) */
		span = 9 * (size_t)(pend - pkt);
		span = span < HS_SPAN ? (span + 31) & ~(size_t)31 : HS_SPAN;
		n32 = (avail < span ? avail : span) / 32;
		hdr_scan_avx2(wbuf, n32, &hs);
		hs.nz[n32] = 0;
		hs.nz[n32 + 1] = 0;
		for (k = 32 * n32; k < span && k < avail; k++) {
			hs.hl[k] = (uint8_t)PF_LEN(pkt_tab[wbuf[k]]);
			hs.nz[n32] |= (uint32_t)(wbuf[k] != SPE_HDR_PADDING) << (k & 31);
		}
		wl = (pos + k < lim ? pos + k : lim) - pos;
		while (w < wl && pkt < pend) {
			const uint8_t *p = wbuf + w;
			const struct hdr_ent *e = &hdr_ents[*p];
			uint64_t c = e->cnt, v, m;
			size_t run;

			if (likely(!(c & HS_SLOW))) {
				acc += c;
				v = le64_load(p + 1) & e->mask;
				store_packet(pkt, pos + w, v,
					     e->img | IMG_BYTE(spe__op_res[e->oprow][v & 0xffu], 7));
				pkt++;
				w += hs.hl[w];
				if (unlikely(c & recstop)) {
					bound = 1;
					break;
				}
				continue;
			}
			if (*p != SPE_HDR_PADDING) {
				ext = 1;
				break;
			}
			/* bits of the bytes from w on; 0 if the run is longer than they show */
			m = (((uint64_t)hs.nz[(w >> 5) + 1] << 32) | hs.nz[w >> 5]) >> (w & 31);
			if (likely(m))
				run = (size_t)__builtin_ctzll(m);
			else
				run = spe__pad_run(p, end);
			pad_packet(pkt, pos + w, run);
			npad += run;
			w += run;
			pkt++;
		}
		pos += w;
		npk += acc & HS_FIELD;
		nrec += (acc >> HS_REC_SHIFT) & HS_FIELD;
		nunk += (acc >> HS_UNK_SHIFT) & HS_FIELD;
		if (ext)
			break;	/* a 16-bit header */
	}
	d->pos = pos;
	d->stats.packets += npk;
	d->stats.records += nrec;
	d->stats.unknown += nunk;
	d->stats.pad_bytes += npad;
	if (lay)
		spe__packet_way_done(pos - pos0 - npad, nrec);
	if (pkt != pkts || !max)
		return (int)(pkt - pkts);
	return next_packet(d, pkts);
}
#endif

int spe__batch_simd(void)
{
#ifdef HAVE_HDR_SCAN
	return __builtin_cpu_supports("avx2") ? 1 : 0;
#else
	return 0;
#endif
}

/*
 * The batch packet iterator: the loop of spe_decoder_next_packet() with
 * the position and the stats in registers, so that nothing on the chain
 * from one header to the next goes through memory. A run of Padding is one
 * packet here too; anything else that the fast path does not take (a
 * 16-bit header, the last 8 bytes) ends the batch before it, unless it is
 * the batch's first packet: next_packet() then returns it, or the error.
 * (Tried and dropped: a second walker from a speculative position further
 * on, kept once the first one lands on one of its positions. It needs the
 * step computed from the header, not predicted: a gain on the trace
 * without padding, a loss on the other two.)
 */
int spe_decoder_next_packets(struct spe_decoder *d, struct spe_packet *pkts,
			     unsigned int max)
{
#ifdef HAVE_HDR_SCAN
	if (max >= HS_MIN_BATCH && !(d->flags & SPE__DEC_NO_SIMD) && spe__batch_simd())
		return next_packets_scan(d, pkts, max);
#endif
#ifdef HAVE_PKT_IMG
	const uint8_t *buf = d->buf, *end = buf + d->len;
	size_t pos = LOAD_POS(d);
	uint64_t npk = 0, nrec = 0, nunk = 0, npad = 0;
	unsigned int n = 0;

	while (n < max && likely(pos < d->len && d->len - pos >= 9)) {
		const uint8_t *p = buf + pos;
		unsigned int b = *p, f = pkt_tab[b];
		struct spe_packet *pkt = &pkts[n];

		if (likely(!(f & PF_SLOW))) {
			npk++;
			nrec += (f >> 5) & 1u;
			nunk += (f >> 6) & 1u;
			n++;
			pos = fast_packet(p, pos, b, f, pkt);
			continue;
		}
		if (b != SPE_HDR_PADDING)
			break;
		{
			size_t run = spe__pad_run(p, end);

			pad_packet(pkt, pos, run);
			npad += run;
			pos += run;
			n++;
		}
	}
	d->pos = pos;
	d->stats.packets += npk;
	d->stats.records += nrec;
	d->stats.unknown += nunk;
	d->stats.pad_bytes += npad;
	if (n || !max)
		return (int)n;
#else
	if (!max)
		return 0;
#endif
	return next_packet(d, pkts);
}

/*
 * The batch record iterator: the records of a layout seen before
 * (spe_rec_layout.c, where the machine has it), fast_record() for the
 * others, in a loop that keeps the position and the stats in registers. A
 * record that the fast path does not take goes through
 * spe_decoder_next(); if that fails or finds the end
 * and records are already in the batch, the decoder is put back as it was
 * before the call, so that the next batch reports it first (and so that
 * after each batch, the decoder is where that many spe_decoder_next()
 * calls leave it).
 */
int spe_decoder_next_records(struct spe_decoder *d, struct spe_record *recs,
			     unsigned int max)
{
	const uint8_t *buf = d->buf, *end = buf + d->len, *p, *q;
	unsigned int n = 0, n0;
	struct spe_decoder save;
	int r;

	while (n < max) {
		p = buf + LOAD_POS(d);
		if (!(d->flags & SPE__DEC_NO_FAST)) {
			uint64_t npk = 0, npad = 0;
			int lay = !(d->flags & SPE__DEC_NO_LAYOUT) && spe__layouts_avail();

			for (n0 = n; n < max && likely((size_t)(end - p) >= FAST_REC_SPAN); n++) {
				const uint8_t *r0;

				/* the records of known layouts, then one for the fast path */
				if (lay) {
					n += spe__layout_records(buf, &p, end, recs + n, max - n,
								 &npk, &npad);
					if (n == max || (size_t)(end - p) < FAST_REC_SPAN)
						break;
				}
				r0 = p;
				/* the padding before a record goes with it */
				if (*p == SPE_HDR_PADDING)
					p = spe__skip_padding(p, end);
				q = (size_t)(end - p) >= FAST_REC_SPAN ? fast_record(d, &recs[n], p) : NULL;
				if (!q) {
					p = r0;
					break;
				}
				if (lay && spe__layout_learning(SPE__LAYOUT_KEEPABLE(&recs[n])))
					spe__layout_learn(p, &recs[n]);
				npad += (size_t)(p - r0);
				npk += recs[n].n_packets;
				p = q;
			}
			d->pos = (size_t)(p - buf);
			d->stats.packets += npk;
			d->stats.records += n - n0;
			d->stats.pad_bytes += npad;
			if (n == max)
				break;
		}
		if (!n)
			return spe_decoder_next(d, recs);
		save = *d;
		r = spe_decoder_next(d, &recs[n]);
		if (r <= 0) {
			*d = save;
			break;
		}
		n++;
	}
	return (int)n;
}
