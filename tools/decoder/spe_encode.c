// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Arm SPE sample record encoder: builds packet streams following the
 * encodings of Arm ARM D18.1/D18.2 (see include/arm_spe/spe_packet.h).
 * Used by the unit tests, the kselftests and the benchmark generator.
 */
#include <string.h>

#include <arm_spe/spe_decoder.h>

void spe_enc_init(struct spe_enc *e, void *buf, size_t cap)
{
	e->buf = buf;
	e->cap = buf ? cap : 0;
	e->len = 0;
	e->overflow = 0;
}

static int room(struct spe_enc *e, size_t n)
{
	if (e->cap - e->len < n) {
		e->overflow = 1;
		return 0;
	}
	return 1;
}

/* D18.1.2: payload values are stored little-endian. */
static void put_le(uint8_t *p, uint64_t v, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

int spe_enc_raw(struct spe_enc *e, const void *bytes, size_t n)
{
	if (!room(e, n))
		return -SPE_E_NOSPACE;
	if (n)
		memcpy(e->buf + e->len, bytes, n);
	e->len += n;
	return 0;
}

/* One packet: header byte(s) then an n-byte payload. */
static int put(struct spe_enc *e, uint8_t h0, int h1, uint64_t payload, unsigned int n)
{
	size_t hl = h1 >= 0 ? 2 : 1;
	uint8_t *p;

	if (!room(e, hl + n))
		return -SPE_E_NOSPACE;
	p = e->buf + e->len;
	p[0] = h0;
	if (h1 >= 0)
		p[1] = (uint8_t)h1;
	put_le(p + hl, payload, n);
	e->len += hl + n;
	return 0;
}

int spe_enc_pad(struct spe_enc *e, size_t n)
{
	if (!room(e, n))
		return -SPE_E_NOSPACE;
	memset(e->buf + e->len, SPE_HDR_PADDING, n);
	e->len += n;
	return 0;
}

int spe_enc_end(struct spe_enc *e)
{
	return put(e, SPE_HDR_END, -1, 0, 0);
}

int spe_enc_timestamp(struct spe_enc *e, uint64_t ts)
{
	return put(e, SPE_HDR_TIMESTAMP, -1, ts, 8);
}

int spe_enc_address(struct spe_enc *e, unsigned int index, uint64_t payload, int force_ext)
{
	if (index > 31)
		return -SPE_E_INVAL;
	if (index < 8 && !force_ext)
		return put(e, SPE_HDR_ADDRESS_SHORT(index), -1, payload, 8);
	return put(e, SPE_EXT0_FOR_INDEX(index), SPE_EXT1_ADDRESS(index), payload, 8);
}

int spe_enc_counter(struct spe_enc *e, unsigned int index, uint16_t count, int force_ext)
{
	if (index > 31)
		return -SPE_E_INVAL;
	if (index < 8 && !force_ext)
		return put(e, SPE_HDR_COUNTER_SHORT(index), -1, count, 2);
	return put(e, SPE_EXT0_FOR_INDEX(index), SPE_EXT1_COUNTER(index), count, 2);
}

int spe_enc_context(struct spe_enc *e, unsigned int index, uint32_t ctx)
{
	if (index > 3)
		return -SPE_E_INVAL;
	return put(e, SPE_HDR_CONTEXT(index), -1, ctx, 4);
}

int spe_enc_op_type(struct spe_enc *e, unsigned int op_class, uint8_t subclass)
{
	if (op_class > 3)
		return -SPE_E_INVAL;
	return put(e, SPE_HDR_OP_TYPE(op_class), -1, subclass, 1);
}

static int size_to_sz(unsigned int n)
{
	switch (n) {
	case 1: return SPE_SZ_BYTE;
	case 2: return SPE_SZ_HALFWORD;
	case 4: return SPE_SZ_WORD;
	case 8: return SPE_SZ_DOUBLEWORD;
	default: return -1;
	}
}

int spe_enc_events(struct spe_enc *e, uint64_t events, unsigned int size_bytes)
{
	int sz = size_to_sz(size_bytes);

	if (sz < 0)
		return -SPE_E_INVAL;
	return put(e, SPE_HDR_EVENTS((unsigned int)sz), -1, events, size_bytes);
}

int spe_enc_data_source(struct spe_enc *e, uint16_t source, unsigned int size_bytes)
{
	int sz = size_to_sz(size_bytes);

	if (sz < 0 || sz > (int)SPE_SZ_HALFWORD)
		return -SPE_E_INVAL;
	return put(e, SPE_HDR_DATA_SOURCE((unsigned int)sz), -1, source, size_bytes);
}

int spe_enc_align(struct spe_enc *e, unsigned int size, int fill)
{
	size_t a, next;
	int r;

	if (size > 15)
		return -SPE_E_INVAL;
	a = (size_t)1 << (size + 1);
	next = e->len + 2;
	next = (next + a - 1) & ~(a - 1);
	if (fill >= 0 && !room(e, next - e->len))
		return -SPE_E_NOSPACE;
	r = put(e, (uint8_t)(SPE_ALIGN0_VAL | size), SPE_ALIGN1_VAL, 0, 0);
	if (r || fill < 0)
		return r;
	memset(e->buf + e->len, fill, next - e->len);
	e->len = next;
	return 0;
}

int spe_enc_packet(struct spe_enc *e, uint8_t hdr0, int hdr1, uint64_t payload)
{
	uint8_t last = hdr1 >= 0 ? (uint8_t)hdr1 : hdr0;

	if (hdr1 < 0 && SPE_HDR_IS_EXT(hdr0))
		return -SPE_E_INVAL;
	return put(e, hdr0, hdr1, payload, SPE_HDR_PAYLOAD_LEN(last));
}

int spe_enc_record(struct spe_enc *e, const struct spe_record *r)
{
	size_t start = e->len;
	unsigned int i;
	int ret = 0;

#define TRY(x) do { ret = (x); if (ret) goto out; } while (0)
	if (r->present & SPE_REC_PC)
		TRY(spe_enc_address(e, SPE_ADDR_IDX_PC, r->addr[SPE_ADDR_IDX_PC], 0));
	for (i = 0; i < 2; i++)
		if (r->present & SPE_REC_CTX(i))
			TRY(spe_enc_context(e, i, r->context[i]));
	if (r->present & SPE_REC_OP)
		TRY(spe_enc_op_type(e, r->op_class, r->op_subclass));
	if (r->present & SPE_REC_EVENTS)
		TRY(spe_enc_events(e, r->events, r->events_len ? r->events_len : 8));
	for (i = 0; i < SPE_REC_NCNT; i++)
		if (r->present & SPE_REC_CNT(i))
			TRY(spe_enc_counter(e, i, r->counter[i], 0));
	for (i = 1; i < SPE_REC_NADDR; i++)
		if (r->present & SPE_REC_ADDR(i))
			TRY(spe_enc_address(e, i, r->addr[i], 0));
	if (r->present & SPE_REC_DATA_SOURCE)
		TRY(spe_enc_data_source(e, r->data_source,
					r->data_source_len ? r->data_source_len : 2));
	for (i = 0; i < r->n_extra && i < SPE_REC_NEXTRA; i++) {
		const struct spe_extra_pkt *x = &r->extra[i];
		int two = SPE_HDR_IS_EXT(x->hdr0);

		TRY(spe_enc_packet(e, x->hdr0, two ? x->hdr1 : -1, x->payload));
	}
	if (r->present & SPE_REC_TIMESTAMP)
		TRY(spe_enc_timestamp(e, r->timestamp));
	else
		TRY(spe_enc_end(e));
#undef TRY
	return 0;
out:
	e->len = start;
	return ret;
}
