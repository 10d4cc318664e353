// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Arm SPE sample record decoder: packet decoder, record iterator,
 * resynchronization. Spec references are to the extracts in
 * /work/shared/spec (see include/arm_spe/spe_packet.h).
 */
#include <string.h>

#include <arm_spe/spe_decoder.h>

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

#define TAB_CLS(e)	((e) & 0xfu)
#define TAB_PLEN(e)	((unsigned int)(e) >> 4)

static const uint8_t cls_to_type[] = {
	[K_UNK] = SPE_PKT_UNKNOWN,	[K_PAD] = SPE_PKT_PAD,
	[K_END] = SPE_PKT_END,		[K_TS] = SPE_PKT_TIMESTAMP,
	[K_EXT] = SPE_PKT_BAD,		[K_EV] = SPE_PKT_EVENTS,
	[K_DS] = SPE_PKT_DATA_SOURCE,	[K_CTX] = SPE_PKT_CONTEXT,
	[K_OP] = SPE_PKT_OP_TYPE,	[K_ADDR] = SPE_PKT_ADDRESS,
	[K_CNT] = SPE_PKT_COUNTER,
};

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
	case SPE_PKT_OP_TYPE: {
		struct spe_op op;

		spe_op_decode(pkt->index, (uint8_t)pkt->payload, &op);
		pkt->reserved = op.reserved;
		break;
	}
	case SPE_PKT_ALIGN:
		/* [000] 5.3.2: SIZE 0b0001..0b1111 defined */
		pkt->reserved = i == 0;
		break;
	default:
		break;
	}
}

int spe_pkt_decode(const uint8_t *buf, size_t len, struct spe_packet *pkt)
{
	uint8_t b0, hb, e;
	unsigned int plen, hlen;

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

	if (TAB_CLS(e) != K_EXT) {
		hlen = 1;
		hb = b0;
		plen = TAB_PLEN(e);
		pkt->type = cls_to_type[TAB_CLS(e)];
		switch (TAB_CLS(e)) {
		case K_ADDR:
		case K_CNT:
			pkt->index = b0 & SPE_HDR_INDEX_SHORT_MASK;
			break;
		case K_CTX:
			pkt->index = SPE_HDR_CONTEXT_INDEX(b0);
			break;
		case K_OP:
			pkt->index = SPE_HDR_OP_CLASS(b0);
			break;
		default:
			break;
		}
	} else {
		/* D18.1.1: 0x20-0x3F, the second byte encodes the payload length. */
		if (len < 2)
			return -SPE_E_TRUNCATED;
		hlen = 2;
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
static size_t resync(struct spe_decoder *d, size_t from)
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

static int fail(struct spe_decoder *d, int code, size_t at, size_t resume)
{
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
 * Returns the packet length, or a negative error.
 */
static int slow_packet(struct spe_decoder *d, struct spe_record *rec,
		       const uint8_t *p, const uint8_t *end, size_t *align_to)
{
	struct spe_packet pkt;
	size_t off = (size_t)(p - d->buf);
	int n = spe_pkt_decode(p, (size_t)(end - p), &pkt);

	if (n < 0)
		return n;
	d->stats.packets++;
	rec->n_packets++;
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
			rec->n_packets--;
			return n;
		}
	}
	/* D18.1.3: ignore unknown packets and reserved values; keep a copy. */
	add_extra(rec, &pkt, off);
	return n;
}

int spe_decoder_next(struct spe_decoder *d, struct spe_record *rec)
{
	const uint8_t *buf = d->buf, *end = buf + d->len, *p, *start, *lim;
	uint8_t e;
	unsigned int n;

	p = buf + d->pos;
	/* D18.1.3: only padding (and [000] Alignment commands) between records. */
	for (;;) {
		while (p < end && *p == SPE_HDR_PADDING)
			p++;
		if (p < end && (d->flags & SPE_DEC_LEGACY_ALIGN) &&
		    (*p & SPE_ALIGN0_MASK) == SPE_ALIGN0_VAL &&
		    end - p >= 2 && p[1] == SPE_ALIGN1_VAL && SPE_ALIGN_SIZE(*p)) {
			size_t to = align_skip(d, (size_t)(p - buf) + 2, SPE_ALIGN_SIZE(*p));

			d->stats.packets++;
			p = buf + to;
			continue;
		}
		break;
	}
	d->stats.pad_bytes += (size_t)(p - (buf + d->pos));
	d->pos = (size_t)(p - buf);
	if (p >= end)
		return 0;

	start = p;
	lim = (size_t)(end - start) > SPE_MAX_RECORD_LEN ? start + SPE_MAX_RECORD_LEN : end;
	rec->offset = (uint64_t)(start - buf);
	rec->present = 0;
	rec->n_packets = 0;
	rec->n_extra = 0;

	while (p < lim) {
		e = hdr_tab[*p];
		n = TAB_PLEN(e);
		if ((size_t)(end - p) <= n)
			goto truncated;
		switch (TAB_CLS(e)) {
		case K_PAD:
			/* padding inside a record: ignored, not a packet of it */
			d->stats.pad_bytes++;
			d->stats.packets++;
			p++;
			continue;
		case K_END:
			rec->present |= SPE_REC_END;
			p++;
			goto done;
		case K_TS:
			rec->timestamp = ld_le(p + 1, 8, end);
			rec->present |= SPE_REC_TIMESTAMP;
			p += 9;
			goto done;
		case K_ADDR: {
			unsigned int i = *p & SPE_HDR_INDEX_SHORT_MASK;

			if (i < SPE_REC_NADDR) {
				SET_PRESENT(rec, SPE_REC_ADDR(i));
				rec->addr[i] = ld_le(p + 1, 8, end);
				break;
			}
			goto slow;
		}
		case K_CNT: {
			unsigned int i = *p & SPE_HDR_INDEX_SHORT_MASK;

			if (i < SPE_REC_NCNT && i != 3) {
				SET_PRESENT(rec, SPE_REC_CNT(i));
				rec->counter[i] = (uint16_t)ld_le(p + 1, 2, end);
				break;
			}
			goto slow;
		}
		case K_EV:
			SET_PRESENT(rec, SPE_REC_EVENTS);
			rec->events = ld_le(p + 1, n, end);
			rec->events_len = (uint8_t)n;
			break;
		case K_DS:
			if (n > 2)
				goto slow;
			SET_PRESENT(rec, SPE_REC_DATA_SOURCE);
			rec->data_source = (uint16_t)ld_le(p + 1, n, end);
			rec->data_source_len = (uint8_t)n;
			break;
		case K_CTX: {
			unsigned int i = SPE_HDR_CONTEXT_INDEX(*p);

			if (i > SPE_CTX_IDX_EL2)
				goto slow;
			SET_PRESENT(rec, SPE_REC_CTX(i));
			rec->context[i] = (uint32_t)ld_le(p + 1, 4, end);
			break;
		}
		case K_OP:
			SET_PRESENT(rec, SPE_REC_OP);
			rec->op_class = SPE_HDR_OP_CLASS(*p);
			rec->op_subclass = p[1];
			break;
		default:	/* K_EXT, K_UNK */
			goto slow;
		}
		d->stats.packets++;
		rec->n_packets++;
		p += 1 + n;
		continue;
slow:
		{
			size_t align_to = 0;
			int r = slow_packet(d, rec, p, end, &align_to);

			if (r == -SPE_E_TRUNCATED)
				goto truncated;
			if (r < 0) {
				size_t at = (size_t)(p - buf);

				return fail(d, -r, at, resync(d, at + 1));
			}
			if (align_to) {
				p = buf + align_to;
				if (p >= end)
					goto truncated;
			} else {
				p += r;
			}
		}
	}
	if (lim == end)
		goto truncated;
	/* D18.1.2 framing lost: no End/Timestamp within the maximum record size */
	return fail(d, SPE_E_RECORD_TOO_LONG, (size_t)(start - buf),
		    resync(d, (size_t)(start - buf) + 1));

truncated:
	/* The data ends inside this record. */
	return fail(d, SPE_E_TRUNCATED, (size_t)(p < end ? p - buf : start - buf), d->len);

done:
	d->stats.packets++;
	rec->n_packets++;
	rec->size = (uint32_t)(p - start);
	d->stats.records++;
	d->pos = (size_t)(p - buf);
	return 1;
}

int spe_decoder_next_packet(struct spe_decoder *d, struct spe_packet *pkt)
{
	size_t pos = d->pos;
	int n;

	if (pos >= d->len)
		return 0;
	n = spe_pkt_decode(d->buf + pos, d->len - pos, pkt);
	if (n < 0) {
		if (n == -SPE_E_TRUNCATED)
			return fail(d, SPE_E_TRUNCATED, pos, d->len);
		return fail(d, -n, pos, pos + 1);
	}
	pkt->offset = pos;
	d->stats.packets++;
	switch (pkt->type) {
	case SPE_PKT_PAD:
		d->stats.pad_bytes++;
		break;
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
