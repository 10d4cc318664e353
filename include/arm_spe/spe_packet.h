/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Arm Statistical Profiling Extension (FEAT_SPE): packet and header
 * encodings of the sample record format (format version 0).
 *
 * Plain C, constants and tiny static inline helpers only. Usable from the
 * kernel module (define __KERNEL__; linux/types.h supplies uintN_t), from
 * QEMU-free tools and from selftests (<stdint.h>).
 *
 * References (extracts in /work/shared/spec/):
 *   [004] Arm ARM D18.1 "About the SPE sample records"
 *         D18.1.1 Headers, D18.1.2 Records, D18.1.3 Protocol framing packets
 *         and forwards compatibility, D18.1.4 Table D18-1 (8-bit headers),
 *         Table D18-2 (16-bit headers).
 *   [002] Arm ARM D18.2 "Alphabetical list of SPE packets"
 *         D18.2.1 Address .. D18.2.9 Timestamp.
 *   [000] ARMv8-A SPE supplement (2017), 5.3.2 "Alignment command" (the
 *         only packet of [000] absent from the current Arm ARM).
 */
#ifndef ARM_SPE_SPE_PACKET_H
#define ARM_SPE_SPE_PACKET_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <stdint.h>
#endif

/* ------------------------------------------------------------------ */
/* D18.1.1 Headers: payload size is encoded by the (last) header byte. */
/* ------------------------------------------------------------------ */

/* 0x00-0x1F: single byte header, no payload. */
#define SPE_HDR_NOPAYLOAD_MAX		0x1fu
/* 0x20-0x3F: first byte of an extended (16-bit) header. */
#define SPE_HDR_EXT_MASK		0xe0u
#define SPE_HDR_EXT_VAL			0x20u
#define SPE_HDR_IS_EXT(b)		(((b) & SPE_HDR_EXT_MASK) == SPE_HDR_EXT_VAL)
/*
 * 0x40-0xFF: header with a payload of 1 << SZ bytes, SZ = bits [5:4]
 * (0x40-0x4F/0x80-0x8F/0xC0-0xCF: 8-bit ... 0x70-0x7F/0xB0-0xBF/0xF0-0xFF:
 * 64-bit).
 */
#define SPE_HDR_SZ_SHIFT		4
#define SPE_HDR_SZ_MASK			0x30u
#define SPE_HDR_SZ(b)			(((b) >> SPE_HDR_SZ_SHIFT) & 3u)
#define SPE_SZ_BYTE			0u
#define SPE_SZ_HALFWORD			1u
#define SPE_SZ_WORD			2u
#define SPE_SZ_DOUBLEWORD		3u

/*
 * Payload length in bytes encoded by header byte b, for a byte that is not
 * the first byte of an extended header (0x20-0x3F). For such a first byte
 * the payload length is encoded by the second byte.
 */
#define SPE_HDR_PAYLOAD_LEN(b)		((b) < 0x40u ? 0u : (1u << SPE_HDR_SZ(b)))

/* Largest packet: 2 header bytes + 8 payload bytes. */
#define SPE_MAX_PACKET_LEN		10u
/*
 * Largest record (PMSIDR_EL1.MaxSize, and [004] D18.1.2: access granule up
 * to 2KB). Used by decoders to bound a record that never ends.
 */
#define SPE_MAX_RECORD_LEN		2048u

/* ------------------------------------------------------------------ */
/* Table D18-1 8-bit header encodings                                  */
/* ------------------------------------------------------------------ */

#define SPE_HDR_PADDING			0x00u	/* D18.2.8 Padding */
#define SPE_HDR_END			0x01u	/* D18.2.5 End packet */
#define SPE_HDR_TIMESTAMP		0x71u	/* D18.2.9 Timestamp packet */

/* Events: 0b01xx0010 (D18.2.6) */
#define SPE_HDR_EVENTS_MASK		0xcfu
#define SPE_HDR_EVENTS_VAL		0x42u
#define SPE_HDR_IS_EVENTS(b)		(((b) & SPE_HDR_EVENTS_MASK) == SPE_HDR_EVENTS_VAL)
/* Data Source: 0b01xx0011 (D18.2.4); SZ is 0b00 or 0b01 only. */
#define SPE_HDR_DATA_SOURCE_MASK	0xcfu
#define SPE_HDR_DATA_SOURCE_VAL		0x43u
#define SPE_HDR_IS_DATA_SOURCE(b)	(((b) & SPE_HDR_DATA_SOURCE_MASK) == SPE_HDR_DATA_SOURCE_VAL)
/* Context: 0b011001xx (D18.2.2), INDEX = bits [1:0] */
#define SPE_HDR_CONTEXT_MASK		0xfcu
#define SPE_HDR_CONTEXT_VAL		0x64u
#define SPE_HDR_IS_CONTEXT(b)		(((b) & SPE_HDR_CONTEXT_MASK) == SPE_HDR_CONTEXT_VAL)
/* Operation Type: 0b010010xx (D18.2.7), CLASS = bits [1:0] */
#define SPE_HDR_OP_TYPE_MASK		0xfcu
#define SPE_HDR_OP_TYPE_VAL		0x48u
#define SPE_HDR_IS_OP_TYPE(b)		(((b) & SPE_HDR_OP_TYPE_MASK) == SPE_HDR_OP_TYPE_VAL)
/* Address, Short format: 0b10110xxx (D18.2.1), INDEX[2:0] = bits [2:0] */
#define SPE_HDR_ADDRESS_MASK		0xf8u
#define SPE_HDR_ADDRESS_VAL		0xb0u
#define SPE_HDR_IS_ADDRESS(b)		(((b) & SPE_HDR_ADDRESS_MASK) == SPE_HDR_ADDRESS_VAL)
/* Counter, Short format: 0b10011xxx (D18.2.3), INDEX[2:0] = bits [2:0] */
#define SPE_HDR_COUNTER_MASK		0xf8u
#define SPE_HDR_COUNTER_VAL		0x98u
#define SPE_HDR_IS_COUNTER(b)		(((b) & SPE_HDR_COUNTER_MASK) == SPE_HDR_COUNTER_VAL)

#define SPE_HDR_INDEX_SHORT_MASK	0x07u
#define SPE_HDR_CONTEXT_INDEX(b)	((b) & 3u)
#define SPE_HDR_OP_CLASS(b)		((b) & 3u)

/* ------------------------------------------------------------------ */
/* Table D18-2 16-bit header encodings (Extended format)              */
/* ------------------------------------------------------------------ */

/*
 * Byte 0 = 0b001000xx: bits [7:5] read as 0b001, bits [4:2] RAZ, bits [1:0]
 * are INDEX[4:3]. Byte 1 is the Short format header carrying INDEX[2:0].
 */
#define SPE_EXT0_MASK			0xfcu
#define SPE_EXT0_VAL			0x20u
#define SPE_EXT0_IS_ADDR_CNT(b0)	(((b0) & SPE_EXT0_MASK) == SPE_EXT0_VAL)
#define SPE_EXT_INDEX(b0, b1)		((((b0) & 3u) << 3) | ((b1) & 7u))
#define SPE_EXT0_FOR_INDEX(idx)		(SPE_EXT0_VAL | (((idx) >> 3) & 3u))
#define SPE_EXT1_ADDRESS(idx)		(SPE_HDR_ADDRESS_VAL | ((idx) & 7u))
#define SPE_EXT1_COUNTER(idx)		(SPE_HDR_COUNTER_VAL | ((idx) & 7u))
#define SPE_HDR_ADDRESS_SHORT(idx)	(SPE_HDR_ADDRESS_VAL | ((idx) & 7u))
#define SPE_HDR_COUNTER_SHORT(idx)	(SPE_HDR_COUNTER_VAL | ((idx) & 7u))
#define SPE_HDR_CONTEXT(idx)		(SPE_HDR_CONTEXT_VAL | ((idx) & 3u))
#define SPE_HDR_OP_TYPE(cls)		(SPE_HDR_OP_TYPE_VAL | ((cls) & 3u))
#define SPE_HDR_EVENTS(sz)		(SPE_HDR_EVENTS_VAL | (((sz) & 3u) << 4))
#define SPE_HDR_DATA_SOURCE(sz)		(SPE_HDR_DATA_SOURCE_VAL | (((sz) & 3u) << 4))

/*
 * [000] 5.3.2 Alignment command (16-bit packet): byte 0 = 0b0010SSSS,
 * byte 1 = 0x00. The next protocol byte is aligned to 2^(SIZE+1) bytes
 * (0b0001: 4 bytes .. 0b1111: 64KB); the bytes skipped are UNKNOWN.
 * The current Arm ARM ([004] D18.1.1) no longer lists it: there, 0x20-0x3F
 * followed by 0x00-0x1F is an extended header with no payload. Decoders
 * report it and apply the skip only when asked to (legacy streams).
 */
#define SPE_ALIGN0_MASK			0xf0u
#define SPE_ALIGN0_VAL			0x20u
#define SPE_ALIGN1_VAL			0x00u
#define SPE_ALIGN_SIZE(b0)		((b0) & 0x0fu)
#define SPE_ALIGN_BYTES(size)		(1ul << ((size) + 1))

/* ------------------------------------------------------------------ */
/* D18.2.1 Address packet                                             */
/* ------------------------------------------------------------------ */

#define SPE_ADDR_IDX_PC			0u	/* Instruction virtual address */
#define SPE_ADDR_IDX_BR_TGT		1u	/* Branch target address */
#define SPE_ADDR_IDX_DATA_VA		2u	/* Data access virtual address */
#define SPE_ADDR_IDX_DATA_PA		3u	/* Data access physical address */
#define SPE_ADDR_IDX_PREV_BR_TGT	4u	/* Previous branch target (FEAT_SPE_PBT) */
#define SPE_ADDR_IDX_NUM_ARCH		5u
/* 0b0011x and 0b1xxxx: IMPLEMENTATION DEFINED; anything else reserved. */
#define SPE_ADDR_IDX_IS_IMPDEF(i)	(((i) & 0x1eu) == 0x06u || ((i) & 0x10u))

#define SPE_ADDR_ADDR_MASK		0x00ffffffffffffffull	/* ADDR, bytes <6:0> */
#define SPE_ADDR_ADDR(p)		((uint64_t)((p) & SPE_ADDR_ADDR_MASK))
/* PC / branch target / previous branch target: byte 7 */
#define SPE_ADDR_NS_BIT			63
#define SPE_ADDR_EL_SHIFT		61
#define SPE_ADDR_NSE_BIT		60
#define SPE_ADDR_NS(p)			((unsigned)((p) >> SPE_ADDR_NS_BIT) & 1u)
#define SPE_ADDR_EL(p)			((unsigned)((p) >> SPE_ADDR_EL_SHIFT) & 3u)
#define SPE_ADDR_NSE(p)			((unsigned)((p) >> SPE_ADDR_NSE_BIT) & 1u)
/* Data access virtual address: byte 7 is TAG (top-byte tag). */
#define SPE_ADDR_TAG_SHIFT		56
#define SPE_ADDR_TAG(p)			((unsigned)((p) >> SPE_ADDR_TAG_SHIFT) & 0xffu)
/* Data access physical address: NS bit 63, CH bit 62, NSE bit 60, PAT [59:56] */
#define SPE_ADDR_CH_BIT			62
#define SPE_ADDR_CH(p)			((unsigned)((p) >> SPE_ADDR_CH_BIT) & 1u)
#define SPE_ADDR_PAT_SHIFT		56
#define SPE_ADDR_PAT(p)			((unsigned)((p) >> SPE_ADDR_PAT_SHIFT) & 0xfu)

/* Security state from {NSE, NS} (FEAT_RME table in D18.2.1). */
#define SPE_SEC_SECURE			0u	/* NSE=0 NS=0 */
#define SPE_SEC_NONSECURE		1u	/* NSE=0 NS=1 */
#define SPE_SEC_RESERVED		2u	/* NSE=1 NS=0 */
#define SPE_SEC_REALM			3u	/* NSE=1 NS=1 */
#define SPE_ADDR_SEC(p)			((SPE_ADDR_NSE(p) << 1) | SPE_ADDR_NS(p))

/* Payload builders (used by the encoder and tests). */
#define SPE_ADDR_PAYLOAD_PC(va, el, ns, nse)				\
	(((uint64_t)(va) & SPE_ADDR_ADDR_MASK) |			\
	 ((uint64_t)((ns) & 1u) << SPE_ADDR_NS_BIT) |			\
	 ((uint64_t)((el) & 3u) << SPE_ADDR_EL_SHIFT) |		\
	 ((uint64_t)((nse) & 1u) << SPE_ADDR_NSE_BIT))
#define SPE_ADDR_PAYLOAD_VA(va, tag)					\
	(((uint64_t)(va) & SPE_ADDR_ADDR_MASK) |			\
	 ((uint64_t)((tag) & 0xffu) << SPE_ADDR_TAG_SHIFT))
#define SPE_ADDR_PAYLOAD_PA(pa, ns, ch, nse, pat)			\
	(((uint64_t)(pa) & SPE_ADDR_ADDR_MASK) |			\
	 ((uint64_t)((ns) & 1u) << SPE_ADDR_NS_BIT) |			\
	 ((uint64_t)((ch) & 1u) << SPE_ADDR_CH_BIT) |			\
	 ((uint64_t)((nse) & 1u) << SPE_ADDR_NSE_BIT) |		\
	 ((uint64_t)((pat) & 0xfu) << SPE_ADDR_PAT_SHIFT))

/* Canonical 64-bit VA: sign-extend ADDR bit 55. */
static inline uint64_t spe_addr_va_sext(uint64_t payload)
{
	uint64_t a = payload & SPE_ADDR_ADDR_MASK;

	return (a & (1ull << 55)) ? (a | 0xff00000000000000ull) : a;
}

/* ------------------------------------------------------------------ */
/* D18.2.2 Context packet                                             */
/* ------------------------------------------------------------------ */

#define SPE_CTX_IDX_EL1			0u	/* CONTEXTIDR_EL1 */
#define SPE_CTX_IDX_EL2			1u	/* CONTEXTIDR_EL2 */

/* ------------------------------------------------------------------ */
/* D18.2.3 Counter packet                                             */
/* ------------------------------------------------------------------ */

#define SPE_CNT_IDX_TOTAL		0u	/* Total latency */
#define SPE_CNT_IDX_ISSUE		1u	/* Issue latency */
#define SPE_CNT_IDX_XLAT		2u	/* Translation latency */
#define SPE_CNT_IDX_ALT_ISSUE		4u	/* Alternate clock issue latency */
#define SPE_CNT_IDX_IS_ARCH(i)		((i) <= 2u || (i) == 4u)
#define SPE_CNT_IDX_IS_IMPDEF(i)	(((i) & 0x1eu) == 0x06u || ((i) & 0x10u))
#define SPE_CNT_SAT12			0x0fffu	/* saturated, 12-bit counters */
#define SPE_CNT_SAT16			0xffffu	/* saturated, 16-bit counters */
#define SPE_CNT_MASK12			0x0fffu
/*
 * COUNT for a counter payload p with PMSIDR_EL1.CountSize giving 12 or 16
 * bit counters ("byte 1 bits [7:4] read as 0b0000" with 12-bit counters),
 * and whether it saturated (0xFFF / 0xFFFF).
 */
#define SPE_CNT_VALUE(p, bits)		((unsigned)(p) & ((bits) == 12 ? 0x0fffu : 0xffffu))
#define SPE_CNT_SATURATED(p, bits)	(SPE_CNT_VALUE(p, bits) == ((bits) == 12 ? 0x0fffu : 0xffffu))

/* ------------------------------------------------------------------ */
/* D18.2.6 Events packet: E[n] is payload bit n.                       */
/* ------------------------------------------------------------------ */

#define SPE_EV_EXCEPTION		0	/* Generated exception */
#define SPE_EV_RETIRED			1	/* Architecturally retired */
#define SPE_EV_L1D_ACCESS		2	/* Level 1 data cache access */
#define SPE_EV_L1D_REFILL		3	/* L1D refill (v1p4: miss) */
#define SPE_EV_TLB_ACCESS		4	/* TLB access */
#define SPE_EV_TLB_WALK			5	/* TLB walk */
#define SPE_EV_NOT_TAKEN		6	/* Not taken / failed condition */
#define SPE_EV_MISPRED			7	/* Mispredicted */
#define SPE_EV_LLC_ACCESS		8	/* Last Level cache access */
#define SPE_EV_LLC_MISS			9	/* Last Level cache miss */
#define SPE_EV_REMOTE_ACCESS		10	/* Remote access */
#define SPE_EV_MISALIGNED		11	/* Misalignment (FEAT_SPEv1p1) */
/* E[15:12] IMPLEMENTATION DEFINED */
#define SPE_EV_TRANSACTIONAL		16	/* Transactional (FEAT_TME) */
#define SPE_EV_PARTIAL_PRED		17	/* Partial or empty predicate (v1p1) */
#define SPE_EV_EMPTY_PRED		18	/* Empty predicate (v1p1) */
#define SPE_EV_L2D_ACCESS		19	/* Level 2 data cache access (v1p4) */
#define SPE_EV_L2D_MISS			20	/* Level 2 data cache miss (v1p4) */
#define SPE_EV_CACHE_MODIFIED		21	/* Cache data modified (v1p4) */
#define SPE_EV_RECENTLY_FETCHED		22	/* Recently fetched (v1p4) */
#define SPE_EV_DATA_SNOOPED		23	/* Data snooped (v1p4) */
#define SPE_EV_STREAMING_SVE		24	/* Streaming SVE mode (FEAT_SPE_SME) */
#define SPE_EV_SMCU			25	/* SMCU or external coprocessor (FEAT_SPE_SME) */
/*
 * E[31:26]: IMPLEMENTATION DEFINED, RAZ when FEAT_SPEv1p4 (the extract says
 * "byte 3 bits [7:1]"; bit 1 is E[25], so the field is byte 3 bits [7:2]).
 * E[47:32]: RAZ. E[63:48]: IMPLEMENTATION DEFINED.
 */
#define SPE_EV_BIT(n)			(1ull << (n))
#define SPE_EV_IMPDEF_MASK		(0xf000ull | 0xfc000000ull | 0xffff000000000000ull)
#define SPE_EV_RAZ_MASK			0x0000ffff00000000ull
#define SPE_EV_ARCH_MASK		0x03ff0fffull

/* ------------------------------------------------------------------ */
/* D18.2.7 Operation Type packet                                      */
/* ------------------------------------------------------------------ */

#define SPE_OP_CLASS_OTHER		0u
#define SPE_OP_CLASS_LDST		1u
#define SPE_OP_CLASS_BRANCH		2u	/* Branch or exception return */
/* CLASS 0b11 reserved */

/* CLASS == 0b00 */
#define SPE_OP_OTHER_MASK		0xf8u	/* 0b00000xxx Other */
#define SPE_OP_OTHER_VAL		0x00u
#define SPE_OP_OTHER_ASE		0x04u	/* bit 2, FEAT_SPE_FPF */
#define SPE_OP_OTHER_FP			0x02u	/* bit 1, FEAT_SPE_FPF */
#define SPE_OP_OTHER_COND		0x01u	/* bit 0 */
#define SPE_OP_SVE_DP_MASK		0x89u	/* 0b0xxx1xx0 SVE vector */
#define SPE_OP_SVE_DP_VAL		0x08u
#define SPE_OP_SME_DP_MASK		0x89u	/* 0b1xxx1xx0 SME array */
#define SPE_OP_SME_DP_VAL		0x88u
#define SPE_OP_EVL(s)			(((s) >> 4) & 7u)	/* bits [6:4] */
#define SPE_OP_EVL_BITS(evl)		(32u << (evl))	/* 0b111: > 2048 */
#define SPE_OP_SVE_PRED			0x04u	/* bit 2 */
#define SPE_OP_SVE_FP			0x02u	/* bit 1 */
#define SPE_OP_SME_ETS(s)		((((s) >> 3) & 0xeu) | (((s) >> 2) & 1u)) /* [6:4,2] */
#define SPE_OP_SME_ETS_WHOLE_ZA		0xfu
#define SPE_OP_SME_FP			0x02u

/* CLASS == 0b01: exact encodings of bits [7:1], bit 0 is LDST */
#define SPE_OP_LDST_BIT			0x01u	/* 1: store / not memory-reading */
#define SPE_OP_LS_GP			0x00u	/* 0b0000000x general-purpose */
#define SPE_OP_LS_SIMD_FP		0x04u	/* 0b0000010x SIMD&FP */
#define SPE_OP_LS_UNSPEC		0x10u	/* 0b0001000x unspecified (v1p1) */
#define SPE_OP_LS_MTE_TAG		0x14u	/* 0b0001010x Allocation Tag */
#define SPE_OP_LS_NV2			0x30u	/* 0b0011000x MRS/MSR via NV2 */
#define SPE_OP_LS_MEMCPY		0x20u	/* 0b0010000x Memory Copy (v1p3) */
#define SPE_OP_LS_MEMSET		0x25u	/* 0b00100101 Memory Set (v1p3) */
#define SPE_OP_LS_EXT_MASK		0xe2u	/* 0b000xxx1x extended */
#define SPE_OP_LS_EXT_VAL		0x02u
#define SPE_OP_LS_AR			0x10u	/* bit 4 */
#define SPE_OP_LS_EXCL			0x08u	/* bit 3 */
#define SPE_OP_LS_AT			0x04u	/* bit 2 */
#define SPE_OP_LS_SVE_MASK		0x0au	/* 0bxxxx1x0x SVE/SME */
#define SPE_OP_LS_SVE_VAL		0x08u
#define SPE_OP_LS_SVE_SG		0x80u	/* bit 7 */
#define SPE_OP_LS_SVE_PRED		0x04u	/* bit 2 */
#define SPE_OP_LS_GCS_MASK		0xfau	/* 0b01000x0x GCS (v1p4) */
#define SPE_OP_LS_GCS_VAL		0x40u
#define SPE_OP_LS_GCS_COMM		0x04u	/* bit 2 */

/* CLASS == 0b10 */
#define SPE_OP_BR_MASK			0xe0u	/* 0b000xxxxx */
#define SPE_OP_BR_VAL			0x00u
#define SPE_OP_BR_CR(s)			(((s) >> 3) & 3u)	/* bits [4:3], FEAT_SPE_CRR */
#define SPE_OP_BR_CR_UNKNOWN		0u
#define SPE_OP_BR_CR_CALL		1u	/* Branch with link */
#define SPE_OP_BR_CR_RET		2u	/* Procedure return */
#define SPE_OP_BR_CR_NONE		3u
#define SPE_OP_BR_GCS			0x04u	/* bit 2 (v1p4) */
#define SPE_OP_BR_IND			0x02u	/* bit 1 */
#define SPE_OP_BR_COND			0x01u	/* bit 0 */

#endif /* ARM_SPE_SPE_PACKET_H */
