// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Host unit tests for libspe_decoder.
 *
 * Every byte vector below is written by hand from the encodings in the Arm
 * ARM extracts (/work/shared/spec/002, 004; 000 for the Alignment command);
 * the comment next to each header byte gives the bit pattern it was derived
 * from. None of them was produced by the decoder or the encoder.
 *
 * Output: one "PASS: name" / "FAIL: name: why" / "SKIP: name: why" line per
 * case; exit status 1 if any case failed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <arm_spe/spe_decoder.h>

static int failed_checks;
static char fail_msg[512];

#define CHECK(c)							\
	do {								\
		if (!(c)) {						\
			if (!failed_checks++)				\
				snprintf(fail_msg, sizeof(fail_msg),	\
					 "%s:%d: %s", __FILE__, __LINE__, #c); \
			return;						\
		}							\
	} while (0)

#define CHECK_EQ(a, b)							\
	do {								\
		unsigned long long _a = (unsigned long long)(a);	\
		unsigned long long _b = (unsigned long long)(b);	\
		if (_a != _b) {						\
			if (!failed_checks++)				\
				snprintf(fail_msg, sizeof(fail_msg),	\
					 "%s:%d: %s == 0x%llx, expected %s == 0x%llx", \
					 __FILE__, __LINE__, #a, _a, #b, _b); \
			return;						\
		}							\
	} while (0)

/* Decode one packet that must span exactly the whole vector. */
static int pkt1(const uint8_t *v, size_t n, struct spe_packet *p)
{
	return spe_pkt_decode(v, n, p);
}

/* Decode the single record in v (must be the whole vector). */
static int rec1(const uint8_t *v, size_t n, struct spe_record *r, unsigned int flags)
{
	struct spe_decoder d;
	int ret;

	spe_decoder_init(&d, v, n, flags);
	ret = spe_decoder_next(&d, r);
	if (ret != 1)
		return ret == 0 ? -100 : ret;
	if (spe_decoder_next(&d, r) != 0)
		return -101;
	return 1;
}

/* ------------------------------------------------------------------ */
/* D18.1 headers and framing                                          */
/* ------------------------------------------------------------------ */

static void t_padding_end(void)
{
	/* Table D18-1: Padding 0b00000000, End 0b00000001 */
	static const uint8_t v[] = { 0x00, 0x00, 0x01 };
	struct spe_record r;
	struct spe_decoder d;

	spe_decoder_init(&d, v, sizeof(v), 0);
	CHECK_EQ(spe_decoder_next(&d, &r), 1);
	CHECK_EQ(r.offset, 2);
	CHECK_EQ(r.size, 1);
	CHECK_EQ(r.present, SPE_REC_END);
	CHECK_EQ(d.stats.pad_bytes, 2);
	CHECK_EQ(spe_decoder_next(&d, &r), 0);
}

static void t_timestamp(void)
{
	/* D18.2.9: header 0b01110001, TS[7:0] first (D18.1.2 little-endian) */
	static const uint8_t v[] = { 0x71, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11 };
	struct spe_packet p;
	struct spe_record r;

	CHECK_EQ(pkt1(v, sizeof(v), &p), 9);
	CHECK_EQ(p.type, SPE_PKT_TIMESTAMP);
	CHECK_EQ(p.payload, 0x1122334455667788ull);
	CHECK_EQ(rec1(v, sizeof(v), &r, 0), 1);
	CHECK_EQ(r.present, SPE_REC_TIMESTAMP);
	CHECK_EQ(r.timestamp, 0x1122334455667788ull);
	CHECK_EQ(r.size, 9);
}

static void t_header_sizes(void)
{
	/* D18.1.1: payload length from the header byte ranges */
	static const struct { uint8_t b; unsigned int len; } t[] = {
		{ 0x00, 0 }, { 0x1f, 0 }, { 0x40, 1 }, { 0x4f, 1 }, { 0x80, 1 }, { 0xcf, 1 },
		{ 0x50, 2 }, { 0x9f, 2 }, { 0xd0, 2 }, { 0x60, 4 }, { 0xaf, 4 }, { 0xe0, 4 },
		{ 0x70, 8 }, { 0xbf, 8 }, { 0xf0, 8 }, { 0xff, 8 },
	};
	uint8_t v[16];
	struct spe_packet p;
	unsigned int i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		memset(v, 0xaa, sizeof(v));
		v[0] = t[i].b;
		CHECK_EQ(spe_pkt_decode(v, sizeof(v), &p), 1 + t[i].len);
		CHECK_EQ(p.payload_len, t[i].len);
		CHECK_EQ(SPE_HDR_PAYLOAD_LEN(t[i].b), t[i].len);
	}
}

/* Does byte b match a Table D18-1/D18-2 bit pattern such as "01xx0010"? */
static int match(const char *pat, unsigned int b)
{
	unsigned int i;

	for (i = 0; i < 8; i++) {
		unsigned int bit = (b >> (7 - i)) & 1u;

		if (pat[i] != 'x' && (unsigned int)(pat[i] - '0') != bit)
			return 0;
	}
	return 1;
}

static void t_table_d18_1_exhaustive(void)
{
	/* Table D18-1, row by row, as printed in the spec (004) */
	static const struct { const char *pat; uint8_t type; } rows[] = {
		{ "00000000", SPE_PKT_PAD },
		{ "00000001", SPE_PKT_END },
		{ "01110001", SPE_PKT_TIMESTAMP },
		{ "01xx0010", SPE_PKT_EVENTS },
		{ "01xx0011", SPE_PKT_DATA_SOURCE },
		{ "011001xx", SPE_PKT_CONTEXT },
		{ "010010xx", SPE_PKT_OP_TYPE },
		{ "10110xxx", SPE_PKT_ADDRESS },
		{ "10011xxx", SPE_PKT_COUNTER },
	};
	uint8_t v[16];
	struct spe_packet p;
	unsigned int b, i;

	for (b = 0; b < 256; b++) {
		unsigned int want = SPE_PKT_UNKNOWN, plen;

		if (b >= 0x20 && b <= 0x3f)
			continue;	/* first byte of a 16-bit header */
		for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
			if (match(rows[i].pat, b))
				want = rows[i].type;
		/* D18.1.1 payload sizes */
		plen = b < 0x40 ? 0 : (b & 0x30) == 0x00 ? 1 : (b & 0x30) == 0x10 ? 2 :
		       (b & 0x30) == 0x20 ? 4 : 8;
		memset(v, 0, sizeof(v));
		v[0] = (uint8_t)b;
		CHECK_EQ(spe_pkt_decode(v, sizeof(v), &p), 1 + plen);
		CHECK_EQ(p.type, want);
	}
}

static void t_table_d18_2_exhaustive(void)
{
	/* Table D18-2: byte 0 "001000xx", byte 1 "10110xxx" / "10011xxx" */
	uint8_t v[16];
	struct spe_packet p;
	unsigned int b0, b1;

	for (b0 = 0x20; b0 <= 0x3f; b0++)
		for (b1 = 0; b1 < 256; b1++) {
			unsigned int want = SPE_PKT_UNKNOWN, plen;
			int ret;

			memset(v, 0, sizeof(v));
			v[0] = (uint8_t)b0;
			v[1] = (uint8_t)b1;
			ret = spe_pkt_decode(v, sizeof(v), &p);
			if (b1 >= 0x20 && b1 <= 0x3f) {
				/* [000] Figure 2: Reserved, no size */
				CHECK_EQ(ret, -SPE_E_BAD_HEADER);
				continue;
			}
			if (match("001000xx", b0) && match("10110xxx", b1))
				want = SPE_PKT_ADDRESS;
			else if (match("001000xx", b0) && match("10011xxx", b1))
				want = SPE_PKT_COUNTER;
			else if (match("0010xxxx", b0) && b1 == 0)
				want = SPE_PKT_ALIGN;	/* [000] 5.3.2 */
			plen = b1 < 0x40 ? 0 : (b1 & 0x30) == 0x00 ? 1 : (b1 & 0x30) == 0x10 ? 2 :
			       (b1 & 0x30) == 0x20 ? 4 : 8;
			CHECK_EQ(ret, 2 + plen);
			CHECK_EQ(p.type, want);
			if (want == SPE_PKT_ADDRESS || want == SPE_PKT_COUNTER)
				CHECK_EQ(p.index, ((b0 & 3u) << 3) | (b1 & 7u));
		}
}

/* ------------------------------------------------------------------ */
/* D18.2.1 Address packet                                             */
/* ------------------------------------------------------------------ */

static void t_addr_pc_short(void)
{
	/*
	 * Short header 0b10110 INDEX[2:0]=000 -> 0xB0. Payload bytes <6:0> =
	 * VA[55:0] of 0xffff800008001234 (LSB first), byte 7 = NS(1) EL(0b01)
	 * NSE(0) 0b0000 = 0b1010_0000 = 0xA0.
	 */
	static const uint8_t v[] = { 0xb0, 0x34, 0x12, 0x00, 0x08, 0x00, 0x80, 0xff, 0xa0 };
	struct spe_packet p;

	CHECK_EQ(pkt1(v, sizeof(v), &p), 9);
	CHECK_EQ(p.type, SPE_PKT_ADDRESS);
	CHECK_EQ(p.index, SPE_ADDR_IDX_PC);
	CHECK_EQ(p.hdr_len, 1);
	CHECK_EQ(p.reserved, 0);
	CHECK_EQ(SPE_ADDR_NS(p.payload), 1);
	CHECK_EQ(SPE_ADDR_EL(p.payload), 1);
	CHECK_EQ(SPE_ADDR_NSE(p.payload), 0);
	CHECK_EQ(SPE_ADDR_SEC(p.payload), SPE_SEC_NONSECURE);
	CHECK_EQ(SPE_ADDR_ADDR(p.payload), 0xff800008001234ull);
	CHECK_EQ(spe_addr_va_sext(p.payload), 0xffff800008001234ull);
}

static void t_addr_br_realm(void)
{
	/* 0xB1 = branch target; byte 7: NS=1 EL=0b10 NSE=1 -> 0b1101_0000 = 0xD0 */
	static const uint8_t v[] = { 0xb1, 0x00, 0x10, 0x40, 0x00, 0x00, 0x00, 0x00, 0xd0 };
	struct spe_packet p;

	CHECK_EQ(pkt1(v, sizeof(v), &p), 9);
	CHECK_EQ(p.index, SPE_ADDR_IDX_BR_TGT);
	CHECK_EQ(SPE_ADDR_EL(p.payload), 2);
	CHECK_EQ(SPE_ADDR_SEC(p.payload), SPE_SEC_REALM);
	CHECK_EQ(spe_addr_va_sext(p.payload), 0x401000ull);
}

static void t_addr_data_va_tag(void)
{
	/* 0xB2 data VA; byte 7 = TAG 0x5a; VA 0x0000aaaabbbbcccc */
	static const uint8_t v[] = { 0xb2, 0xcc, 0xcc, 0xbb, 0xbb, 0xaa, 0xaa, 0x00, 0x5a };
	struct spe_packet p;

	CHECK_EQ(pkt1(v, sizeof(v), &p), 9);
	CHECK_EQ(p.index, SPE_ADDR_IDX_DATA_VA);
	CHECK_EQ(SPE_ADDR_TAG(p.payload), 0x5a);
	CHECK_EQ(SPE_ADDR_ADDR(p.payload), 0xaaaabbbbccccull);
}

static void t_addr_data_pa(void)
{
	/* 0xB3 data PA; byte 7 = NS(1) CH(1) 0 NSE(0) PAT=0b0101 -> 0xC5 */
	static const uint8_t v[] = { 0xb3, 0x00, 0xf0, 0x12, 0x80, 0x00, 0x00, 0x00, 0xc5 };
	struct spe_packet p;

	CHECK_EQ(pkt1(v, sizeof(v), &p), 9);
	CHECK_EQ(p.index, SPE_ADDR_IDX_DATA_PA);
	CHECK_EQ(SPE_ADDR_NS(p.payload), 1);
	CHECK_EQ(SPE_ADDR_CH(p.payload), 1);
	CHECK_EQ(SPE_ADDR_NSE(p.payload), 0);
	CHECK_EQ(SPE_ADDR_PAT(p.payload), 5);
	CHECK_EQ(SPE_ADDR_ADDR(p.payload), 0x8012f000ull);
}

static void t_addr_data_pa_pat_high(void)
{
	/* 0xB3 data PA; byte 7 = NS(0) CH(0) 0 NSE(1) PAT=0b1010 -> 0x1A */
	static const uint8_t v[] = { 0xb3, 0x00, 0x10, 0x00, 0x40, 0x00, 0x00, 0x00, 0x1a };
	struct spe_packet p;

	CHECK_EQ(pkt1(v, sizeof(v), &p), 9);
	CHECK_EQ(SPE_ADDR_NS(p.payload), 0);
	CHECK_EQ(SPE_ADDR_CH(p.payload), 0);
	CHECK_EQ(SPE_ADDR_NSE(p.payload), 1);
	CHECK_EQ(SPE_ADDR_PAT(p.payload), 10);
	CHECK_EQ(SPE_ADDR_ADDR(p.payload), 0x40001000ull);
}

/* D18.2.1: a VA is ADDR[55:0] sign-extended from bit 55, not from bit 54 */
static void t_addr_va_sign_bit(void)
{
	CHECK_EQ(spe_addr_va_sext(0x0080000000001000ull), 0xff80000000001000ull);
	CHECK_EQ(spe_addr_va_sext(0x0040000000001000ull), 0x0040000000001000ull);
	/* byte 7 (EL, NS, TAG...) never leaks into the address */
	CHECK_EQ(spe_addr_va_sext(0xe040000000001000ull), 0x0040000000001000ull);
}

static void t_addr_ext_pbt(void)
{
	/*
	 * Table D18-2 Extended Address: byte 0 = 0b001000 INDEX[4:3]=00 -> 0x20,
	 * byte 1 = 0b10110 INDEX[2:0]=100 -> 0xB4 (previous branch target).
	 * byte 7: NS=0 EL=0 NSE=0.
	 */
	static const uint8_t v[] = { 0x20, 0xb4, 0x78, 0x56, 0x34, 0x12, 0x00, 0x00, 0x00, 0x00 };
	struct spe_packet p;
	struct spe_record r;
	uint8_t rv[sizeof(v) + 1];

	CHECK_EQ(pkt1(v, sizeof(v), &p), 10);
	CHECK_EQ(p.type, SPE_PKT_ADDRESS);
	CHECK_EQ(p.hdr_len, 2);
	CHECK_EQ(p.index, SPE_ADDR_IDX_PREV_BR_TGT);
	CHECK_EQ(p.payload, 0x12345678ull);
	CHECK_EQ(SPE_ADDR_SEC(p.payload), SPE_SEC_SECURE);
	memcpy(rv, v, sizeof(v));
	rv[sizeof(v)] = 0x01;	/* End */
	CHECK_EQ(rec1(rv, sizeof(rv), &r, 0), 1);
	CHECK(r.present & SPE_REC_PREV_BR_TGT);
	CHECK_EQ(r.addr[SPE_ADDR_IDX_PREV_BR_TGT], 0x12345678ull);
}

static void t_addr_ext_impdef(void)
{
	/* INDEX 0b10001 (IMPDEF): byte 0 = 0b001000 10 = 0x22, byte 1 = 0b10110 001 = 0xB1 */
	static const uint8_t v[] = { 0x22, 0xb1, 1, 2, 3, 4, 5, 6, 7, 8, 0x01 };
	struct spe_packet p;
	struct spe_record r;

	CHECK_EQ(pkt1(v, sizeof(v), &p), 10);
	CHECK_EQ(p.type, SPE_PKT_ADDRESS);
	CHECK_EQ(p.index, 0x11);
	CHECK_EQ(p.reserved, 0);
	CHECK_EQ(p.payload, 0x0807060504030201ull);
	CHECK_EQ(rec1(v, sizeof(v), &r, 0), 1);
	CHECK_EQ(r.present, SPE_REC_END | SPE_REC_EXTRA);
	CHECK_EQ(r.n_extra, 1);
	CHECK_EQ(r.extra[0].index, 0x11);
	CHECK_EQ(r.extra[0].payload, 0x0807060504030201ull);
}

static void t_addr_reserved_index(void)
{
	/* Short INDEX 0b101 (5) is reserved: 0xB5. INDEX 0b00110 is IMPDEF: 0xB6 */
	static const uint8_t v5[] = { 0xb5, 0, 0, 0, 0, 0, 0, 0, 0 };
	static const uint8_t v6[] = { 0xb6, 0, 0, 0, 0, 0, 0, 0, 0 };
	struct spe_packet p;

	CHECK_EQ(pkt1(v5, sizeof(v5), &p), 9);
	CHECK_EQ(p.index, 5);
	CHECK_EQ(p.reserved, 1);
	CHECK_EQ(pkt1(v6, sizeof(v6), &p), 9);
	CHECK_EQ(p.index, 6);
	CHECK_EQ(p.reserved, 0);
	CHECK(SPE_ADDR_IDX_IS_IMPDEF(6) && SPE_ADDR_IDX_IS_IMPDEF(7));
	CHECK(SPE_ADDR_IDX_IS_IMPDEF(16) && SPE_ADDR_IDX_IS_IMPDEF(31));
	CHECK(!SPE_ADDR_IDX_IS_IMPDEF(5) && !SPE_ADDR_IDX_IS_IMPDEF(8));
}

/* ------------------------------------------------------------------ */
/* D18.2.2 Context, D18.2.3 Counter, D18.2.4 Data Source               */
/* ------------------------------------------------------------------ */

static void t_context(void)
{
	/* 0b011001 INDEX: 0x64 = CONTEXTIDR_EL1, 0x65 = CONTEXTIDR_EL2, 0x66 reserved */
	static const uint8_t v[] = {
		0x64, 0x39, 0x30, 0x00, 0x00,		/* 12345 */
		0x65, 0xef, 0xbe, 0xad, 0xde,
		0x66, 0x01, 0x00, 0x00, 0x00,
		0x01,
	};
	struct spe_record r;
	struct spe_packet p;

	CHECK_EQ(pkt1(v + 10, 5, &p), 5);
	CHECK_EQ(p.type, SPE_PKT_CONTEXT);
	CHECK_EQ(p.reserved, 1);
	CHECK_EQ(rec1(v, sizeof(v), &r, 0), 1);
	CHECK_EQ(r.present, SPE_REC_CTX(0) | SPE_REC_CTX(1) | SPE_REC_END | SPE_REC_EXTRA);
	CHECK_EQ(r.context[0], 12345);
	CHECK_EQ(r.context[1], 0xdeadbeefu);
	CHECK_EQ(r.extra[0].type, SPE_PKT_CONTEXT);
	CHECK_EQ(r.extra[0].index, 2);
	CHECK_EQ(r.n_packets, 4);
}

static void t_counters(void)
{
	/*
	 * Short 0b10011 INDEX: 0x98 total, 0x99 issue, 0x9A translation,
	 * 0x9C alternate clock issue; 16-bit LE payload.
	 * Extended total latency: 0x20 0x98. 12-bit saturated value 0x0FFF.
	 */
	static const uint8_t v[] = {
		0x98, 0x2c, 0x01,		/* 300 */
		0x99, 0x0a, 0x00,		/* 10 */
		0x9a, 0xff, 0x0f,		/* 0xfff: saturated 12-bit counter */
		0x9c, 0xff, 0xff,		/* 0xffff */
		0x01,
	};
	static const uint8_t ext[] = { 0x20, 0x99, 0x34, 0x12 };
	static const uint8_t ext_impdef[] = { 0x23, 0x9f, 0x01, 0x00 };	/* INDEX 0b11111 */
	static const uint8_t resv[] = { 0x9b, 0x01, 0x00 };		/* INDEX 3 reserved */
	struct spe_record r;
	struct spe_packet p;

	CHECK_EQ(rec1(v, sizeof(v), &r, 0), 1);
	CHECK_EQ(r.present, SPE_REC_CNT(0) | SPE_REC_CNT(1) | SPE_REC_CNT(2) |
			    SPE_REC_CNT(4) | SPE_REC_END);
	CHECK_EQ(r.counter[SPE_CNT_IDX_TOTAL], 300);
	CHECK_EQ(r.counter[SPE_CNT_IDX_ISSUE], 10);
	CHECK_EQ(r.counter[SPE_CNT_IDX_XLAT], SPE_CNT_SAT12);
	CHECK_EQ(r.counter[SPE_CNT_IDX_ALT_ISSUE], SPE_CNT_SAT16);
	CHECK(SPE_CNT_SATURATED(r.counter[SPE_CNT_IDX_XLAT], 12));
	CHECK(!SPE_CNT_SATURATED(r.counter[SPE_CNT_IDX_XLAT], 16));
	CHECK(SPE_CNT_SATURATED(r.counter[SPE_CNT_IDX_ALT_ISSUE], 16));
	CHECK_EQ(SPE_CNT_VALUE(r.counter[SPE_CNT_IDX_TOTAL], 12), 300);
	CHECK(!SPE_CNT_SATURATED(r.counter[SPE_CNT_IDX_TOTAL], 12));
	CHECK_EQ(pkt1(ext, sizeof(ext), &p), 4);
	CHECK_EQ(p.type, SPE_PKT_COUNTER);
	CHECK_EQ(p.index, SPE_CNT_IDX_ISSUE);
	CHECK_EQ(p.payload, 0x1234);
	CHECK_EQ(pkt1(ext_impdef, sizeof(ext_impdef), &p), 4);
	CHECK_EQ(p.index, 31);
	CHECK_EQ(p.reserved, 0);
	CHECK_EQ(pkt1(resv, sizeof(resv), &p), 3);
	CHECK_EQ(p.index, 3);
	CHECK_EQ(p.reserved, 1);
}

static void t_data_source(void)
{
	/* 0b01 SZ 0011: 0x43 byte payload, 0x53 halfword payload, 0x63 reserved SZ */
	static const uint8_t v8[] = { 0x43, 0x0b, 0x01 };
	static const uint8_t v16[] = { 0x53, 0x34, 0x12, 0x01 };
	static const uint8_t v32[] = { 0x63, 1, 2, 3, 4, 0x01 };
	struct spe_record r;

	CHECK_EQ(rec1(v8, sizeof(v8), &r, 0), 1);
	CHECK_EQ(r.present, SPE_REC_DATA_SOURCE | SPE_REC_END);
	CHECK_EQ(r.data_source, 0x0b);
	CHECK_EQ(r.data_source_len, 1);
	CHECK_EQ(rec1(v16, sizeof(v16), &r, 0), 1);
	CHECK_EQ(r.data_source, 0x1234);
	CHECK_EQ(r.data_source_len, 2);
	CHECK_EQ(rec1(v32, sizeof(v32), &r, 0), 1);
	CHECK_EQ(r.present, SPE_REC_EXTRA | SPE_REC_END);
	CHECK_EQ(r.extra[0].type, SPE_PKT_DATA_SOURCE);
}

/* ------------------------------------------------------------------ */
/* D18.2.6 Events                                                     */
/* ------------------------------------------------------------------ */

static void t_events_sizes(void)
{
	/* 0b01 SZ 0010: 0x42 byte, 0x52 halfword, 0x62 word, 0x72 doubleword */
	static const uint8_t v[] = {
		0x42, 0x06,				/* E[2] L1D access, E[1] retired */
		0x52, 0x02, 0x0e,			/* + LLC miss/remote/misaligned (E[9..11]) */
		0x62, 0x02, 0x00, 0xf8, 0x03,		/* E[19..23], E[24], E[25] */
		0x72, 0x01, 0, 0, 0, 0, 0, 0, 0x80,	/* E[0], E[63] */
		0x01,
	};
	struct spe_packet p;
	size_t off = 0;

	CHECK_EQ(pkt1(v, 2, &p), 2);
	CHECK_EQ(p.type, SPE_PKT_EVENTS);
	CHECK_EQ(p.payload, SPE_EV_BIT(SPE_EV_RETIRED) | SPE_EV_BIT(SPE_EV_L1D_ACCESS));
	off = 2;
	CHECK_EQ(pkt1(v + off, 3, &p), 3);
	CHECK_EQ(p.payload, SPE_EV_BIT(1) | SPE_EV_BIT(SPE_EV_LLC_MISS) |
			    SPE_EV_BIT(SPE_EV_REMOTE_ACCESS) | SPE_EV_BIT(SPE_EV_MISALIGNED));
	off += 3;
	CHECK_EQ(pkt1(v + off, 5, &p), 5);
	CHECK_EQ(p.payload, SPE_EV_BIT(1) | SPE_EV_BIT(SPE_EV_L2D_ACCESS) |
			    SPE_EV_BIT(SPE_EV_L2D_MISS) | SPE_EV_BIT(SPE_EV_CACHE_MODIFIED) |
			    SPE_EV_BIT(SPE_EV_RECENTLY_FETCHED) | SPE_EV_BIT(SPE_EV_DATA_SNOOPED) |
			    SPE_EV_BIT(SPE_EV_STREAMING_SVE) | SPE_EV_BIT(SPE_EV_SMCU));
	off += 5;
	CHECK_EQ(pkt1(v + off, 9, &p), 9);
	CHECK_EQ(p.payload, SPE_EV_BIT(0) | SPE_EV_BIT(63));
	CHECK(SPE_EV_IMPDEF_MASK & SPE_EV_BIT(63));
	CHECK(SPE_EV_RAZ_MASK & SPE_EV_BIT(40));
	CHECK(SPE_EV_IMPDEF_MASK & SPE_EV_BIT(12));
	CHECK(!(SPE_EV_IMPDEF_MASK & SPE_EV_BIT(SPE_EV_SMCU)));
}

static void t_event_names(void)
{
	/* Every named bit, by number, with its meaning in D18.2.6 (file 002) */
	static const char *const want[64] = {
		[0] = "exception",		/* generated exception */
		[1] = "retired",		/* architecturally retired */
		[2] = "l1d-access",		/* level 1 data cache access */
		[3] = "l1d-refill",		/* level 1 data cache refill or miss */
		[4] = "tlb-access",		/* TLB access */
		[5] = "tlb-walk",		/* TLB walk */
		[6] = "not-taken",		/* not taken */
		[7] = "mispredicted",		/* mispredicted */
		[8] = "llc-access",		/* last level cache access */
		[9] = "llc-miss",		/* last level cache miss */
		[10] = "remote-access",		/* access to another socket */
		[11] = "misaligned",		/* misalignment */
		[16] = "transactional",		/* transactional */
		[17] = "partial-pred",		/* partial or empty predicate */
		[18] = "empty-pred",		/* empty predicate */
		[19] = "l2d-access",		/* level 2 data cache access */
		[20] = "l2d-miss",		/* level 2 data cache miss */
		[21] = "cache-data-modified",	/* cache data modified */
		[22] = "recently-fetched",	/* recently fetched */
		[23] = "data-snooped",		/* data snooped */
		[24] = "streaming-sve",		/* Streaming SVE mode */
		[25] = "smcu",			/* SMCU or external coprocessor operation */
	};
	unsigned int b;

	CHECK(!strcmp(spe_event_name(SPE_EV_RETIRED), "retired"));
	for (b = 0; b < 64; b++) {
		const char *n = spe_event_name(b);

		if (!want[b])
			CHECK(n == NULL);	/* IMPLEMENTATION DEFINED or RAZ */
		else
			CHECK(n && !strcmp(n, want[b]));
	}
}

/* SPE_NAME_MAX bounds every name function over its whole argument range */
static void t_name_lengths(void)
{
	unsigned int i;
	const char *n;

	for (i = 0; i < 512; i++) {
		CHECK(strlen(spe_pkt_type_name(i)) <= SPE_NAME_MAX);
		CHECK(strlen(spe_op_kind_name(i)) <= SPE_NAME_MAX);
		n = spe_event_name(i);
		CHECK(!n || strlen(n) <= SPE_NAME_MAX);
		n = spe_addr_index_name(i);
		CHECK(!n || strlen(n) <= SPE_NAME_MAX);
		n = spe_counter_index_name(i);
		CHECK(!n || strlen(n) <= SPE_NAME_MAX);
	}
	CHECK(strlen(spe_event_name(21)) == 19);	/* the longest today */
}

/*
 * A kind of packet twice in a record through the slow path (16-bit
 * headers): the last one's value, and DUP, as for the short headers.
 */
static void t_dup_extended_headers(void)
{
	/* Table D18-2: 0x20 0xB0 is the PC (INDEX 0) with an extended header */
	static const uint8_t v[] = {
		0x20, 0xb0, 0x11, 0x11, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x20, 0xb0, 0x22, 0x22, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x01,
	};
	struct spe_record r;

	CHECK_EQ(rec1(v, sizeof(v), &r, 0), 1);
	CHECK(r.present & SPE_REC_PC);
	CHECK(r.present & SPE_REC_DUP);
	CHECK_EQ(r.addr[SPE_ADDR_IDX_PC], 0x2222ull);
}

static void t_events_record_last_wins(void)
{
	/* Two Events packets: the record keeps the last one and flags DUP. */
	static const uint8_t v[] = { 0x42, 0x02, 0x42, 0x06, 0x01 };
	struct spe_record r;

	CHECK_EQ(rec1(v, sizeof(v), &r, 0), 1);
	CHECK_EQ(r.events, 0x06);
	CHECK(r.present & SPE_REC_DUP);
	CHECK_EQ(r.events_len, 1);
}

/* ------------------------------------------------------------------ */
/* D18.2.7 Operation Type                                             */
/* ------------------------------------------------------------------ */

static void t_op_header(void)
{
	/* 0b010010 CLASS: 0x48 other, 0x49 load/store, 0x4A branch, 0x4B reserved */
	static const uint8_t v[] = { 0x49, 0x01, 0x01 };
	static const uint8_t resv[] = { 0x4b, 0x00 };
	struct spe_record r;
	struct spe_packet p;

	CHECK_EQ(rec1(v, sizeof(v), &r, 0), 1);
	CHECK_EQ(r.present, SPE_REC_OP | SPE_REC_END);
	CHECK_EQ(r.op_class, SPE_OP_CLASS_LDST);
	CHECK_EQ(r.op_subclass, 0x01);
	CHECK_EQ(pkt1(resv, sizeof(resv), &p), 2);
	CHECK_EQ(p.type, SPE_PKT_OP_TYPE);
	CHECK_EQ(p.index, 3);
	CHECK_EQ(p.reserved, 1);
}

static void t_op_other(void)
{
	struct spe_op op;

	/* Other 0b00000xxx: ASE bit 2, FP bit 1, COND bit 0 */
	CHECK_EQ(spe_op_decode(0, 0x00, &op), SPE_OP_OTHER);
	CHECK(!op.ase && !op.fp && !op.cond && !op.reserved);
	CHECK_EQ(spe_op_decode(0, 0x07, &op), SPE_OP_OTHER);
	CHECK(op.ase && op.fp && op.cond);
	CHECK_EQ(spe_op_decode(0, 0x01, &op), SPE_OP_OTHER);
	CHECK(op.cond && !op.fp);
	/* SVE vector 0b0xxx1xx0: EVL=0b011 (256), PRED=1, FP=1 -> 0b0011_1110 */
	CHECK_EQ(spe_op_decode(0, 0x3e, &op), SPE_OP_SVE_DP);
	CHECK_EQ(op.evl, 3);
	CHECK_EQ(SPE_OP_EVL_BITS(op.evl), 256);
	CHECK(op.pred && op.fp);
	/* EVL 0b111 (> 2048) no pred no fp: 0b0111_1000 */
	CHECK_EQ(spe_op_decode(0, 0x78, &op), SPE_OP_SVE_DP);
	CHECK_EQ(op.evl, 7);
	CHECK(!op.pred && !op.fp);
	/* SME array 0b1xxx1xx0: ETS bits [6:4,2] = 0b0101 -> [6:4]=010 [2]=1, FP=1: 0b1010_1110 */
	CHECK_EQ(spe_op_decode(0, 0xae, &op), SPE_OP_SME_DP);
	CHECK_EQ(op.ets, 5);
	CHECK(op.fp && !op.reserved);
	/* ETS 0b1111 whole ZA: [6:4]=111 [2]=1 -> 0b1111_1100 */
	CHECK_EQ(spe_op_decode(0, 0xfc, &op), SPE_OP_SME_DP);
	CHECK_EQ(op.ets, SPE_OP_SME_ETS_WHOLE_ZA);
	CHECK(!op.fp && !op.reserved);
	/* ETS 0b1100 reserved: [6:4]=110 [2]=0 -> 0b1110_1000 */
	CHECK_EQ(spe_op_decode(0, 0xe8, &op), SPE_OP_SME_DP);
	CHECK(op.reserved);
	/* 0b0001_0000 matches none of the CLASS 0b00 payloads */
	CHECK_EQ(spe_op_decode(0, 0x10, &op), SPE_OP_RESERVED);
	CHECK(op.reserved);
	/* bit 0 set with bit 3 set is neither SVE nor SME: 0b0000_1001 */
	CHECK_EQ(spe_op_decode(0, 0x09, &op), SPE_OP_RESERVED);
}

static void t_op_ldst(void)
{
	struct spe_op op;

	/* General-purpose 0b0000000x */
	CHECK_EQ(spe_op_decode(1, 0x00, &op), SPE_OP_LDST_GP);
	CHECK(op.is_ldst && !op.store);
	CHECK_EQ(spe_op_decode(1, 0x01, &op), SPE_OP_LDST_GP);
	CHECK(op.store);
	/* SIMD&FP 0b0000010x */
	CHECK_EQ(spe_op_decode(1, 0x04, &op), SPE_OP_LDST_SIMD_FP);
	CHECK_EQ(spe_op_decode(1, 0x05, &op), SPE_OP_LDST_SIMD_FP);
	CHECK(op.store);
	/* unspecified 0b0001000x, allocation tag 0b0001010x, NV2 0b0011000x */
	CHECK_EQ(spe_op_decode(1, 0x10, &op), SPE_OP_LDST_UNSPEC);
	CHECK_EQ(spe_op_decode(1, 0x15, &op), SPE_OP_LDST_MTE_TAG);
	CHECK(op.store);
	CHECK_EQ(spe_op_decode(1, 0x30, &op), SPE_OP_LDST_NV2);
	CHECK(!op.store);
	/* extended 0b000 AR EXCL AT 1 LDST: load-acquire atomic 0b0001_0110 */
	CHECK_EQ(spe_op_decode(1, 0x16, &op), SPE_OP_LDST_EXT);
	CHECK(op.ar && !op.excl && op.at && !op.store);
	/* store-exclusive 0b0000_1011 */
	CHECK_EQ(spe_op_decode(1, 0x0b, &op), SPE_OP_LDST_EXT);
	CHECK(!op.ar && op.excl && !op.at && op.store);
	/* SVE/SME 0bSG EVL 1 PRED 0 LDST: SG=1 EVL=0b010 PRED=1 store -> 0b1010_1101 */
	CHECK_EQ(spe_op_decode(1, 0xad, &op), SPE_OP_LDST_SVE_SME);
	CHECK(op.sg && op.pred && op.store);
	CHECK_EQ(op.evl, 2);
	CHECK_EQ(SPE_OP_EVL_BITS(op.evl), 128);
	/* plain SVE load, EVL 0b000: 0b0000_1000 */
	CHECK_EQ(spe_op_decode(1, 0x08, &op), SPE_OP_LDST_SVE_SME);
	CHECK(!op.sg && !op.pred && !op.store && op.evl == 0);
	/* Memory Copy 0b0010000x, Memory Set 0b00100101 */
	CHECK_EQ(spe_op_decode(1, 0x20, &op), SPE_OP_LDST_MEMCPY);
	CHECK(!op.store);
	CHECK_EQ(spe_op_decode(1, 0x21, &op), SPE_OP_LDST_MEMCPY);
	CHECK(op.store);
	CHECK_EQ(spe_op_decode(1, 0x25, &op), SPE_OP_LDST_MEMSET);
	CHECK(op.store);
	/* 0b00100100 is not Memory Set (LDST must be 1): reserved */
	CHECK_EQ(spe_op_decode(1, 0x24, &op), SPE_OP_RESERVED);
	/* GCS 0b01000 COMM 0 LDST: COMM=1 store 0b0100_0101, COMM=0 load 0x40 */
	CHECK_EQ(spe_op_decode(1, 0x45, &op), SPE_OP_LDST_GCS);
	CHECK(op.comm && op.store);
	CHECK_EQ(spe_op_decode(1, 0x40, &op), SPE_OP_LDST_GCS);
	CHECK(!op.comm && !op.store);
	/* reserved: 0b0110_0000, 0b0011_0100 */
	CHECK_EQ(spe_op_decode(1, 0x60, &op), SPE_OP_RESERVED);
	CHECK(op.reserved);
	CHECK_EQ(spe_op_decode(1, 0x34, &op), SPE_OP_RESERVED);
}

static void t_op_branch(void)
{
	struct spe_op op;

	/* 0b000 CR[1:0] GCS IND COND */
	CHECK_EQ(spe_op_decode(2, 0x01, &op), SPE_OP_BRANCH);
	CHECK(op.cond && !op.ind && op.cr == SPE_OP_BR_CR_UNKNOWN);
	/* call, indirect: CR=0b01 -> 0b0000_1010 */
	CHECK_EQ(spe_op_decode(2, 0x0a, &op), SPE_OP_BRANCH);
	CHECK(op.ind && !op.cond && op.cr == SPE_OP_BR_CR_CALL && !op.gcs);
	/* return with GCS access: CR=0b10 GCS=1 IND=1 -> 0b0001_0110 */
	CHECK_EQ(spe_op_decode(2, 0x16, &op), SPE_OP_BRANCH);
	CHECK(op.cr == SPE_OP_BR_CR_RET && op.gcs && op.ind);
	/* neither call nor return: CR=0b11 -> 0b0001_1000 */
	CHECK_EQ(spe_op_decode(2, 0x18, &op), SPE_OP_BRANCH);
	CHECK_EQ(op.cr, SPE_OP_BR_CR_NONE);
	/* reserved: 0b0010_0000; class 0b11 reserved */
	CHECK_EQ(spe_op_decode(2, 0x20, &op), SPE_OP_RESERVED);
	CHECK(op.reserved);
	CHECK_EQ(spe_op_decode(3, 0x00, &op), SPE_OP_RESERVED);
	CHECK(op.reserved);
}

static void t_op_reserved_consistent(void)
{
	/* packet-level reserved flag == spe_op_decode() for all 4 x 256 encodings */
	unsigned int cls, sub;
	uint8_t v[2];
	struct spe_packet p;
	struct spe_op op;

	for (cls = 0; cls < 4; cls++)
		for (sub = 0; sub < 256; sub++) {
			v[0] = (uint8_t)(0x48 | cls);	/* 0b010010 CLASS */
			v[1] = (uint8_t)sub;
			CHECK_EQ(spe_pkt_decode(v, 2, &p), 2);
			spe_op_decode(cls, sub, &op);
			CHECK_EQ(p.reserved, op.reserved);
			CHECK(op.kind != SPE_OP_RESERVED || op.reserved);
		}
}

/* ------------------------------------------------------------------ */
/* Full records (Figure D18-1 style)                                  */
/* ------------------------------------------------------------------ */

/* A load record as a Neoverse-style SPU would write it, by hand. */
static const uint8_t load_record[] = {
	/* PC 0x0000aaaad0001000, EL0, NS: 0xB0, byte 7 = 0b1000_0000 */
	0xb0, 0x00, 0x10, 0x00, 0xd0, 0xaa, 0xaa, 0x00, 0x80,
	0x99, 0x05, 0x00,			/* issue latency 5 */
	0x98, 0x2a, 0x00,			/* total latency 42 */
	0x64, 0xd2, 0x04, 0x00, 0x00,		/* CONTEXTIDR_EL1 1234 */
	0x49, 0x00,				/* load/store, GP load */
	0x52, 0x16, 0x00,			/* events: retired, L1D access, TLB access */
	0x9a, 0x03, 0x00,			/* translation latency 3 */
	0xb2, 0x40, 0x30, 0x20, 0x10, 0xff, 0xff, 0x00, 0x00, /* VA 0xffff10203040 */
	0xb3, 0x40, 0x30, 0x20, 0x80, 0x00, 0x00, 0x00, 0x80, /* PA 0x80203040 NS */
	0x43, 0x00,				/* data source 0 */
	0x71, 0x10, 0x32, 0x54, 0x76, 0x98, 0xba, 0xdc, 0x0e, /* TS */
};

static void t_record_load(void)
{
	struct spe_record r;
	struct spe_op op;

	CHECK_EQ(rec1(load_record, sizeof(load_record), &r, 0), 1);
	CHECK_EQ(r.size, sizeof(load_record));
	CHECK_EQ(r.n_packets, 11);
	CHECK_EQ(r.present, SPE_REC_PC | SPE_REC_DATA_VA | SPE_REC_DATA_PA |
			    SPE_REC_CNT(0) | SPE_REC_CNT(1) | SPE_REC_CNT(2) |
			    SPE_REC_CTX(0) | SPE_REC_OP | SPE_REC_EVENTS |
			    SPE_REC_DATA_SOURCE | SPE_REC_TIMESTAMP);
	CHECK_EQ(spe_addr_va_sext(r.addr[0]), 0xaaaad0001000ull);
	CHECK_EQ(SPE_ADDR_EL(r.addr[0]), 0);
	CHECK_EQ(SPE_ADDR_NS(r.addr[0]), 1);
	CHECK_EQ(r.counter[SPE_CNT_IDX_TOTAL], 42);
	CHECK_EQ(r.counter[SPE_CNT_IDX_ISSUE], 5);
	CHECK_EQ(r.counter[SPE_CNT_IDX_XLAT], 3);
	CHECK_EQ(r.context[0], 1234);
	CHECK_EQ(spe_op_decode(r.op_class, r.op_subclass, &op), SPE_OP_LDST_GP);
	CHECK_EQ(r.events, 0x16);
	CHECK_EQ(r.events_len, 2);
	CHECK_EQ(spe_addr_va_sext(r.addr[2]), 0xffff10203040ull);
	CHECK_EQ(SPE_ADDR_ADDR(r.addr[3]), 0x80203040ull);
	CHECK_EQ(r.data_source, 0);
	CHECK_EQ(r.timestamp, 0x0edcba9876543210ull);
}

static void t_record_stream(void)
{
	/* record, padding, End-terminated branch record, padding */
	uint8_t v[sizeof(load_record) + 64];
	static const uint8_t br[] = {
		0xb0, 0x00, 0x20, 0x40, 0x00, 0x00, 0x00, 0x00, 0xa0, /* PC EL1 NS */
		0x4a, 0x01,				/* conditional branch */
		0x42, 0x42,				/* retired + not taken */
		0x98, 0x01, 0x00,
		0xb1, 0x00, 0x30, 0x40, 0x00, 0x00, 0x00, 0x00, 0xa0, /* target */
		0x01,
	};
	struct spe_decoder d;
	struct spe_record r;
	size_t n = 0;

	memcpy(v, load_record, sizeof(load_record));
	n = sizeof(load_record);
	memset(v + n, 0, 3);
	n += 3;
	memcpy(v + n, br, sizeof(br));
	n += sizeof(br);
	v[n++] = 0;
	spe_decoder_init(&d, v, n, 0);
	CHECK_EQ(spe_decoder_next(&d, &r), 1);
	CHECK_EQ(r.offset, 0);
	CHECK_EQ(spe_decoder_next(&d, &r), 1);
	CHECK_EQ(r.offset, sizeof(load_record) + 3);
	/* fields of the previous record do not leak into this one */
	CHECK_EQ(r.addr[SPE_ADDR_IDX_DATA_VA], 0);
	CHECK_EQ(r.timestamp, 0);
	CHECK_EQ(r.context[0], 0);
	CHECK_EQ(r.data_source_len, 0);
	CHECK_EQ(r.present, SPE_REC_PC | SPE_REC_BR_TGT | SPE_REC_OP | SPE_REC_EVENTS |
			    SPE_REC_CNT(0) | SPE_REC_END);
	CHECK_EQ(spe_addr_va_sext(r.addr[1]), 0x403000ull);
	CHECK_EQ(r.events, SPE_EV_BIT(SPE_EV_RETIRED) | SPE_EV_BIT(SPE_EV_NOT_TAKEN));
	CHECK_EQ(spe_decoder_next(&d, &r), 0);
	CHECK_EQ(d.stats.records, 2);
	CHECK_EQ(d.stats.pad_bytes, 4);
	CHECK_EQ(d.stats.errors, 0);
}

/* ------------------------------------------------------------------ */
/* Forward compatibility (D18.1.3)                                    */
/* ------------------------------------------------------------------ */

static void t_unknown_packets(void)
{
	static const uint8_t v[] = {
		0x02,					/* 0x00-0x1F: no payload, unknown */
		0x44, 0xaa,				/* 0b0100_0100: 8-bit payload, unknown */
		0xe5, 1, 2, 3, 4,			/* 0b1110_0101: 32-bit payload */
		0x7f, 1, 2, 3, 4, 5, 6, 7, 8,		/* 0b0111_1111: 64-bit payload */
		0x24, 0xb0, 1, 2, 3, 4, 5, 6, 7, 8,	/* ext byte 0 bits [4:2] != 0 */
		0x30, 0x53, 0x34, 0x12,			/* ext + 16-bit payload */
		0x2f, 0x05,				/* ext, no payload */
		0x42, 0x02,				/* known packet still decoded */
		0x01,
	};
	struct spe_decoder d;
	struct spe_record r;
	struct spe_packet p;

	spe_decoder_init(&d, v, sizeof(v), 0);
	CHECK_EQ(spe_decoder_next(&d, &r), 1);
	CHECK_EQ(r.size, sizeof(v));
	CHECK_EQ(r.present, SPE_REC_EVENTS | SPE_REC_END | SPE_REC_EXTRA);
	CHECK_EQ(r.events, 0x02);
	CHECK_EQ(r.n_extra, 7);
	CHECK_EQ(d.stats.unknown, 7);
	CHECK_EQ(r.extra[0].type, SPE_PKT_UNKNOWN);
	CHECK_EQ(r.extra[0].hdr0, 0x02);
	CHECK_EQ(r.extra[1].rel_offset, 1);
	CHECK_EQ(r.extra[1].payload, 0xaa);
	CHECK_EQ(r.extra[2].payload, 0x04030201);
	CHECK_EQ(r.extra[3].payload, 0x0807060504030201ull);
	CHECK_EQ(d.stats.errors, 0);
	/* packet level: sizes come from the header */
	CHECK_EQ(spe_pkt_decode(v + 17, 10, &p), 10);
	CHECK_EQ(p.type, SPE_PKT_UNKNOWN);
	CHECK_EQ(spe_pkt_decode(v + 27, 4, &p), 4);
	CHECK_EQ(p.payload, 0x1234);
	CHECK_EQ(spe_pkt_decode(v + 31, 2, &p), 2);
	CHECK_EQ(p.type, SPE_PKT_UNKNOWN);
}

static void t_alignment_cmd(void)
{
	/*
	 * [000] 5.3.2: 0b0010 SIZE, 0x00. SIZE=0b0010 -> 8-byte alignment.
	 * Command at offset 1 (after End), next protocol byte at offset 8;
	 * bytes 3..7 are UNKNOWN (here 0x20 0x20, which would be an error).
	 */
	static const uint8_t v[] = {
		0x01,
		0x22, 0x00,
		0x20, 0x20, 0xee, 0xee, 0xee,
		0x42, 0x02, 0x01,
	};
	struct spe_decoder d;
	struct spe_record r;
	struct spe_packet p;

	CHECK_EQ(spe_pkt_decode(v + 1, 2, &p), 2);
	CHECK_EQ(p.type, SPE_PKT_ALIGN);
	CHECK_EQ(p.index, 2);
	CHECK_EQ(SPE_ALIGN_BYTES(p.index), 8);
	CHECK_EQ(SPE_ALIGN_BYTES(15), 65536);
	spe_decoder_init(&d, v, sizeof(v), SPE_DEC_LEGACY_ALIGN);
	CHECK_EQ(spe_decoder_next(&d, &r), 1);
	CHECK_EQ(spe_decoder_next(&d, &r), 1);
	CHECK_EQ(r.offset, 8);
	CHECK_EQ(r.events, 2);
	CHECK_EQ(spe_decoder_next(&d, &r), 0);
	CHECK_EQ(d.stats.errors, 0);
	/* Without the legacy flag (current Arm ARM), the stream is in error. */
	spe_decoder_init(&d, v, sizeof(v), 0);
	CHECK_EQ(spe_decoder_next(&d, &r), 1);
	CHECK_EQ(spe_decoder_next(&d, &r), -SPE_E_BAD_HEADER);
	CHECK_EQ(d.err.offset, 3);
}

/* ------------------------------------------------------------------ */
/* Error paths                                                        */
/* ------------------------------------------------------------------ */

static void t_truncation_every_prefix(void)
{
	size_t n;

	for (n = 1; n < sizeof(load_record); n++) {
		struct spe_decoder d;
		struct spe_record r;
		int ret;

		spe_decoder_init(&d, load_record, n, 0);
		ret = spe_decoder_next(&d, &r);
		CHECK_EQ(ret, -SPE_E_TRUNCATED);
		CHECK(d.err.offset < n);
		CHECK_EQ(d.err.resume, n);
		CHECK_EQ(spe_decoder_next(&d, &r), 0);
		CHECK_EQ(d.stats.errors, 1);
	}
}

static void t_truncated_packets(void)
{
	static const uint8_t addr[] = { 0xb0, 1, 2, 3, 4, 5, 6, 7, 8 };
	static const uint8_t ext[] = { 0x20, 0xb0, 1, 2, 3, 4, 5, 6, 7, 8 };
	struct spe_packet p;
	size_t n;

	for (n = 0; n < sizeof(addr); n++)
		CHECK_EQ(spe_pkt_decode(addr, n, &p), -SPE_E_TRUNCATED);
	for (n = 0; n < sizeof(ext); n++)
		CHECK_EQ(spe_pkt_decode(ext, n, &p), -SPE_E_TRUNCATED);
	CHECK_EQ(spe_pkt_decode(ext, sizeof(ext), &p), 10);
	CHECK_EQ(spe_pkt_decode(NULL, 4, &p), -SPE_E_INVAL);
}

static void t_bad_header_resync(void)
{
	/* record 1 ok; record 2 holds 0x20 0x3f (reserved); record 3 ok */
	static const uint8_t v[] = {
		0x42, 0x02, 0x01,				/* record 1 */
		0x42, 0x02, 0x20, 0x3f, 0x55, 0x01,		/* record 2: bad */
		0x00, 0x00,
		0x98, 0x07, 0x00, 0x71, 1, 0, 0, 0, 0, 0, 0, 0,	/* record 3 */
	};
	struct spe_decoder d;
	struct spe_record r;

	spe_decoder_init(&d, v, sizeof(v), 0);
	CHECK_EQ(spe_decoder_next(&d, &r), 1);
	CHECK_EQ(spe_decoder_next(&d, &r), -SPE_E_BAD_HEADER);
	CHECK_EQ(d.err.offset, 5);
	CHECK_EQ(d.err.resume, 9);
	CHECK_EQ(spe_decoder_next(&d, &r), 1);
	CHECK_EQ(r.offset, 11);
	CHECK_EQ(r.counter[0], 7);
	CHECK_EQ(r.timestamp, 1);
	CHECK_EQ(spe_decoder_next(&d, &r), 0);
	CHECK_EQ(d.stats.errors, 1);
	CHECK_EQ(d.stats.records, 2);
}

/* After an error, decoding resumes right after a Timestamp that ends a record */
static void t_resync_after_timestamp(void)
{
	static const uint8_t v[] = {
		0x42, 0x02, 0x01,				/* record 1 */
		0x42, 0x02, 0x20, 0x3f,				/* record 2: reserved header */
		0x71, 0x10, 0x32, 0x54, 0x76, 0x98, 0xba, 0xdc, 0x0e,	/* its Timestamp */
		0x98, 0x07, 0x00, 0x01,				/* record 3 */
	};
	struct spe_decoder d;
	struct spe_record r;

	spe_decoder_init(&d, v, sizeof(v), 0);
	CHECK_EQ(spe_decoder_next(&d, &r), 1);
	CHECK_EQ(spe_decoder_next(&d, &r), -SPE_E_BAD_HEADER);
	CHECK_EQ(d.err.offset, 5);
	CHECK_EQ(d.err.resume, 16);
	CHECK_EQ(spe_decoder_next(&d, &r), 1);
	CHECK_EQ(r.offset, 16);
	CHECK_EQ(r.counter[0], 7);
	CHECK_EQ(spe_decoder_next(&d, &r), 0);
}

static void t_record_too_long(void)
{
	static uint8_t v[3000 + 3];
	struct spe_decoder d;
	struct spe_record r;

	memset(v, 0x02, 3000);	/* unknown 1-byte packets, never an End */
	v[3000] = 0x42;
	v[3001] = 0x02;
	v[3002] = 0x01;
	spe_decoder_init(&d, v, sizeof(v), 0);
	CHECK_EQ(spe_decoder_next(&d, &r), -SPE_E_RECORD_TOO_LONG);
	CHECK_EQ(d.err.offset, 0);
	/* resync lands after the End at 3002: end of data */
	CHECK_EQ(d.err.resume, sizeof(v));
	CHECK_EQ(spe_decoder_next(&d, &r), 0);
}

static void t_resync_bounded_work(void)
{
	/*
	 * Crafted input: unknown packets (0x02) never ending a record, with a
	 * 0x01 inside an unknown packet's payload (0x44 0x01) followed by an
	 * Events header every 33 bytes. Resynchronization must not rescan the
	 * same 2KB window from each of those false boundaries.
	 */
	static uint8_t v[1 << 16];
	struct spe_decoder d;
	struct spe_record r;
	size_t i;

	for (i = 0; i + 33 <= sizeof(v); i += 33) {
		memset(v + i, 0x02, 30);
		v[i + 30] = 0x44;
		v[i + 31] = 0x01;
		v[i + 32] = 0x42;
	}
	spe_decoder_init(&d, v, sizeof(v), 0);
	while (spe_decoder_next(&d, &r) != 0)
		;
	CHECK(d.stats.errors > 0);
	CHECK(d.stats.packets < 4 * sizeof(v));
}

static void t_garbage_no_crash(void)
{
	static uint8_t v[1 << 16];
	struct spe_decoder d;
	struct spe_record r;
	struct spe_packet p;
	uint32_t x = 12345;
	size_t i;
	int ret, guard = 0;

	for (i = 0; i < sizeof(v); i++) {
		x = x * 1103515245u + 12345u;
		v[i] = (uint8_t)(x >> 16);
	}
	spe_decoder_init(&d, v, sizeof(v), 0);
	while ((ret = spe_decoder_next(&d, &r)) != 0) {
		CHECK(d.pos <= sizeof(v));
		if (ret == 1)
			CHECK(r.offset + r.size <= sizeof(v));
		CHECK(++guard < (int)sizeof(v));
	}
	CHECK(d.stats.records > 0);
	spe_decoder_init(&d, v, sizeof(v), SPE_DEC_LEGACY_ALIGN);
	guard = 0;
	while ((ret = spe_decoder_next_packet(&d, &p)) != 0)
		CHECK(++guard <= (int)sizeof(v));
}

static void t_errors_strings(void)
{
	CHECK(strstr(spe_strerror(-SPE_E_TRUNCATED), "truncated"));
	CHECK(strstr(spe_strerror(SPE_E_BAD_HEADER), "header"));
	CHECK(!strcmp(spe_strerror(999), "unknown error"));
}

/* ------------------------------------------------------------------ */
/* Packet iterator                                                    */
/* ------------------------------------------------------------------ */

static void t_packet_iterator(void)
{
	static const uint8_t v[] = {
		0x00, 0x49, 0x01, 0x20, 0x98, 0x05, 0x00, 0x01, 0x20, 0x20, 0x71, 0, 0,
	};
	static const uint8_t types[] = {
		SPE_PKT_PAD, SPE_PKT_OP_TYPE, SPE_PKT_COUNTER, SPE_PKT_END,
	};
	struct spe_decoder d;
	struct spe_packet p;
	unsigned int i;

	spe_decoder_init(&d, v, sizeof(v), 0);
	for (i = 0; i < 4; i++) {
		CHECK_EQ(spe_decoder_next_packet(&d, &p), 1);
		CHECK_EQ(p.type, types[i]);
	}
	CHECK_EQ(p.offset, 7);
	CHECK_EQ(spe_decoder_next_packet(&d, &p), -SPE_E_BAD_HEADER);
	CHECK_EQ(d.err.offset, 8);
	/* resumes at 9: 0x20 0x71 is an unknown ext header with 8-byte payload,
	 * truncated */
	CHECK_EQ(spe_decoder_next_packet(&d, &p), -SPE_E_TRUNCATED);
	CHECK_EQ(spe_decoder_next_packet(&d, &p), 0);
}

static void t_describe(void)
{
	static const uint8_t v[] = { 0xb0, 0x34, 0x12, 0x00, 0x08, 0x00, 0x80, 0xff, 0xa0 };
	static const uint8_t op[] = { 0x49, 0xad };
	char buf[128];
	struct spe_packet p;

	CHECK_EQ(spe_pkt_decode(v, sizeof(v), &p), 9);
	spe_pkt_describe(&p, buf, sizeof(buf));
	CHECK(!strcmp(buf, "ADDR pc 0xffff800008001234 el1 ns=1 nse=0"));
	CHECK_EQ(spe_pkt_decode(op, sizeof(op), &p), 2);
	spe_pkt_describe(&p, buf, sizeof(buf));
	CHECK(!strcmp(buf, "OP ldst-sve-sme evl=128 pred sg st"));
	/* truncating output never overflows */
	CHECK(spe_pkt_describe(&p, buf, 4) > 4);
	CHECK_EQ(strlen(buf), 3);
}

/* ------------------------------------------------------------------ */
/* Encoder                                                            */
/* ------------------------------------------------------------------ */

static void t_encoder_matches_hand_vector(void)
{
	uint8_t out[128];
	struct spe_enc e;

	spe_enc_init(&e, out, sizeof(out));
	CHECK_EQ(spe_enc_address(&e, 0, SPE_ADDR_PAYLOAD_PC(0xaaaad0001000ull, 0, 1, 0), 0), 0);
	CHECK_EQ(spe_enc_counter(&e, 1, 5, 0), 0);
	CHECK_EQ(spe_enc_counter(&e, 0, 42, 0), 0);
	CHECK_EQ(spe_enc_context(&e, 0, 1234), 0);
	CHECK_EQ(spe_enc_op_type(&e, 1, 0x00), 0);
	CHECK_EQ(spe_enc_events(&e, 0x16, 2), 0);
	CHECK_EQ(spe_enc_counter(&e, 2, 3, 0), 0);
	CHECK_EQ(spe_enc_address(&e, 2, SPE_ADDR_PAYLOAD_VA(0xffff10203040ull, 0), 0), 0);
	CHECK_EQ(spe_enc_address(&e, 3, SPE_ADDR_PAYLOAD_PA(0x80203040ull, 1, 0, 0, 0), 0), 0);
	CHECK_EQ(spe_enc_data_source(&e, 0, 1), 0);
	CHECK_EQ(spe_enc_timestamp(&e, 0x0edcba9876543210ull), 0);
	CHECK_EQ(e.len, sizeof(load_record));
	CHECK(!memcmp(out, load_record, sizeof(load_record)));
}

static void t_encoder_ext_and_errors(void)
{
	/* hand vectors: ext address index 4 = 0x20 0xB4; ext counter 0x22 0x99 = index 17 */
	static const uint8_t want[] = {
		0x20, 0xb4, 1, 0, 0, 0, 0, 0, 0, 0,
		0x22, 0x99, 0x02, 0x00,
		0x2e, 0x00,	/* align, SIZE 0b1110 */
	};
	uint8_t out[32], small[4];
	struct spe_enc e;

	spe_enc_init(&e, out, sizeof(out));
	CHECK_EQ(spe_enc_address(&e, 4, 1, 1), 0);
	CHECK_EQ(spe_enc_counter(&e, 17, 2, 0), 0);
	CHECK_EQ(spe_enc_align(&e, 14, -1), 0);
	CHECK_EQ(e.len, sizeof(want));
	CHECK(!memcmp(out, want, sizeof(want)));
	CHECK_EQ(spe_enc_address(&e, 32, 0, 0), -SPE_E_INVAL);
	CHECK_EQ(spe_enc_events(&e, 0, 3), -SPE_E_INVAL);
	CHECK_EQ(spe_enc_data_source(&e, 0, 4), -SPE_E_INVAL);
	CHECK_EQ(spe_enc_packet(&e, 0x20, -1, 0), -SPE_E_INVAL);
	spe_enc_init(&e, small, sizeof(small));
	CHECK_EQ(spe_enc_timestamp(&e, 1), -SPE_E_NOSPACE);
	CHECK_EQ(e.len, 0);
	CHECK(e.overflow);
	CHECK_EQ(spe_enc_end(&e), 0);
	CHECK_EQ(small[0], 0x01);
}

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void t_round_trip_random(void)
{
	static uint8_t buf[1 << 20];
	static struct spe_record recs[4096];
	uint64_t s = 0x9e3779b97f4a7c15ull;
	struct spe_enc e;
	struct spe_decoder d;
	struct spe_record r;
	unsigned int i, k, nrec = 0;

	spe_enc_init(&e, buf, sizeof(buf));
	for (i = 0; i < 4096; i++) {
		struct spe_record *w = &recs[nrec];
		static const uint8_t evlen[] = { 1, 2, 4, 8 };

		memset(w, 0, sizeof(*w));
		w->present = (uint32_t)rnd(&s) & (SPE_REC_ADDR(0) | SPE_REC_ADDR(1) |
			SPE_REC_ADDR(2) | SPE_REC_ADDR(3) | SPE_REC_ADDR(4) | SPE_REC_CNT(0) |
			SPE_REC_CNT(1) | SPE_REC_CNT(2) | SPE_REC_CNT(4) | SPE_REC_CTX(0) |
			SPE_REC_CTX(1) | SPE_REC_DATA_SOURCE | SPE_REC_EVENTS | SPE_REC_OP |
			SPE_REC_TIMESTAMP);
		if (!(w->present & SPE_REC_TIMESTAMP))
			w->present |= SPE_REC_END;
		for (k = 0; k < SPE_REC_NADDR; k++)
			w->addr[k] = rnd(&s);
		for (k = 0; k < SPE_REC_NCNT; k++)
			w->counter[k] = (uint16_t)rnd(&s);
		w->context[0] = (uint32_t)rnd(&s);
		w->context[1] = (uint32_t)rnd(&s);
		w->events_len = evlen[rnd(&s) & 3];
		w->events = rnd(&s);
		if (w->events_len < 8)
			w->events &= (1ull << (8 * w->events_len)) - 1;
		w->data_source_len = (rnd(&s) & 1) ? 2 : 1;
		w->data_source = (uint16_t)rnd(&s);
		if (w->data_source_len == 1)
			w->data_source &= 0xff;
		w->op_class = (uint8_t)(rnd(&s) % 3);
		w->op_subclass = (uint8_t)rnd(&s);
		{
			struct spe_op op;

			spe_op_decode(w->op_class, w->op_subclass, &op);
			if (op.reserved)	/* reserved op types go to extra[] */
				w->op_subclass = 0;
		}
		w->timestamp = rnd(&s);
		CHECK_EQ(spe_enc_record(&e, w), 0);
		CHECK_EQ(spe_enc_pad(&e, rnd(&s) & 3), 0);
		nrec++;
	}
	spe_decoder_init(&d, buf, e.len, 0);
	for (i = 0; i < nrec; i++) {
		const struct spe_record *w = &recs[i];

		CHECK_EQ(spe_decoder_next(&d, &r), 1);
		CHECK_EQ(r.present, w->present);
		for (k = 0; k < SPE_REC_NADDR; k++)
			if (w->present & SPE_REC_ADDR(k))
				CHECK_EQ(r.addr[k], w->addr[k]);
		for (k = 0; k < SPE_REC_NCNT; k++)
			if (w->present & SPE_REC_CNT(k))
				CHECK_EQ(r.counter[k], w->counter[k]);
		for (k = 0; k < 2; k++)
			if (w->present & SPE_REC_CTX(k))
				CHECK_EQ(r.context[k], w->context[k]);
		if (w->present & SPE_REC_EVENTS) {
			CHECK_EQ(r.events, w->events);
			CHECK_EQ(r.events_len, w->events_len);
		}
		if (w->present & SPE_REC_DATA_SOURCE) {
			CHECK_EQ(r.data_source, w->data_source);
			CHECK_EQ(r.data_source_len, w->data_source_len);
		}
		if (w->present & SPE_REC_OP) {
			CHECK_EQ(r.op_class, w->op_class);
			CHECK_EQ(r.op_subclass, w->op_subclass);
		}
		if (w->present & SPE_REC_TIMESTAMP)
			CHECK_EQ(r.timestamp, w->timestamp);
	}
	CHECK_EQ(spe_decoder_next(&d, &r), 0);
	CHECK_EQ(d.stats.errors, 0);
}

static void t_round_trip_extra(void)
{
	/* unknown + impdef packets survive decode -> encode -> decode */
	static const uint8_t v[] = {
		0x22, 0xb1, 1, 2, 3, 4, 5, 6, 7, 8,	/* impdef address 17 */
		0x44, 0xaa,				/* unknown */
		0x2f, 0x05,				/* unknown ext, no payload */
		0x01,
	};
	uint8_t out[64];
	struct spe_record r, r2;
	struct spe_enc e;
	unsigned int i;

	CHECK_EQ(rec1(v, sizeof(v), &r, 0), 1);
	CHECK_EQ(r.n_extra, 3);
	spe_enc_init(&e, out, sizeof(out));
	CHECK_EQ(spe_enc_record(&e, &r), 0);
	CHECK_EQ(e.len, sizeof(v));
	CHECK(!memcmp(out, v, sizeof(v)));
	CHECK_EQ(rec1(out, e.len, &r2, 0), 1);
	CHECK_EQ(r2.n_extra, 3);
	for (i = 0; i < 3; i++) {
		CHECK_EQ(r2.extra[i].payload, r.extra[i].payload);
		CHECK_EQ(r2.extra[i].rel_offset, r.extra[i].rel_offset);
	}
}

static void t_round_trip_ext_headers(void)
{
	/* every address and counter index in both header formats */
	uint8_t out[64];
	struct spe_enc e;
	struct spe_packet p;
	unsigned int idx, ext;

	for (ext = 0; ext < 2; ext++)
		for (idx = 0; idx < 32; idx++) {
			if (!ext && idx >= 8)
				continue;
			spe_enc_init(&e, out, sizeof(out));
			CHECK_EQ(spe_enc_address(&e, idx, 0x1122334455667788ull ^ idx, (int)ext), 0);
			CHECK_EQ(spe_enc_counter(&e, idx, (uint16_t)(idx * 7), (int)ext), 0);
			CHECK_EQ(spe_pkt_decode(out, e.len, &p), (ext || idx >= 8) ? 10 : 9);
			CHECK_EQ(p.type, SPE_PKT_ADDRESS);
			CHECK_EQ(p.index, idx);
			CHECK_EQ(p.payload, 0x1122334455667788ull ^ idx);
			CHECK_EQ(spe_pkt_decode(out + p.len, e.len - p.len, &p),
				 (ext || idx >= 8) ? 4 : 3);
			CHECK_EQ(p.type, SPE_PKT_COUNTER);
			CHECK_EQ(p.index, idx);
			CHECK_EQ(p.payload, idx * 7);
		}
}

/* ------------------------------------------------------------------ */

struct tcase {
	const char *name;
	void (*fn)(void);
};

#define T(f) { #f + 2, f }
static const struct tcase cases[] = {
	T(t_padding_end), T(t_timestamp), T(t_header_sizes),
	T(t_table_d18_1_exhaustive), T(t_table_d18_2_exhaustive),
	T(t_addr_pc_short), T(t_addr_br_realm), T(t_addr_data_va_tag), T(t_addr_data_pa),
	T(t_addr_data_pa_pat_high), T(t_addr_va_sign_bit), T(t_addr_ext_pbt), T(t_addr_ext_impdef), T(t_addr_reserved_index),
	T(t_context), T(t_counters), T(t_data_source),
	T(t_events_sizes), T(t_event_names), T(t_name_lengths), T(t_dup_extended_headers), T(t_events_record_last_wins),
	T(t_op_header), T(t_op_other), T(t_op_ldst), T(t_op_branch), T(t_op_reserved_consistent),
	T(t_record_load), T(t_record_stream),
	T(t_unknown_packets), T(t_alignment_cmd),
	T(t_truncation_every_prefix), T(t_truncated_packets), T(t_bad_header_resync),
	T(t_resync_after_timestamp), T(t_record_too_long), T(t_resync_bounded_work), T(t_garbage_no_crash), T(t_errors_strings),
	T(t_packet_iterator), T(t_describe),
	T(t_encoder_matches_hand_vector), T(t_encoder_ext_and_errors),
	T(t_round_trip_random), T(t_round_trip_extra), T(t_round_trip_ext_headers),
};

int main(int argc, char **argv)
{
	const char *prefix = argc > 1 ? argv[1] : "";
	unsigned int i, pass = 0, fail = 0;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		failed_checks = 0;
		cases[i].fn();
		if (failed_checks) {
			printf("FAIL: %s%s: %s\n", prefix, cases[i].name, fail_msg);
			fail++;
		} else {
			printf("PASS: %s%s\n", prefix, cases[i].name);
			pass++;
		}
	}
	fprintf(stderr, "unit%s%s: %u passed, %u failed\n", *prefix ? " " : "", prefix, pass, fail);
	return fail ? 1 : 0;
}
