/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * libspe_decoder: decoder and encoder for Arm SPE sample records.
 *
 * - Packet level:  spe_pkt_decode() decodes one packet from a buffer.
 * - Record level:  struct spe_decoder iterates over a buffer and fills a
 *                  struct spe_record per sample record.
 * - Encoder:       struct spe_enc builds traces (tests, kselftests, bench).
 *
 * No global state, no allocation: the caller owns every structure and the
 * buffer being decoded, which must stay valid while iterating.
 * See Documentation/decoder.rst.
 */
#ifndef ARM_SPE_SPE_DECODER_H
#define ARM_SPE_SPE_DECODER_H

#include <stddef.h>
#include "spe_packet.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SPE_DECODER_VERSION		"1.0"

/* ------------------------------------------------------------------ */
/* Packets                                                            */
/* ------------------------------------------------------------------ */

enum spe_pkt_type {
	SPE_PKT_BAD = 0,	/* not a packet (error) */
	SPE_PKT_PAD,		/* Padding */
	SPE_PKT_END,		/* End */
	SPE_PKT_TIMESTAMP,	/* Timestamp */
	SPE_PKT_ADDRESS,	/* Address, index in .index */
	SPE_PKT_COUNTER,	/* Counter, index in .index */
	SPE_PKT_CONTEXT,	/* Context, index in .index */
	SPE_PKT_DATA_SOURCE,	/* Data Source */
	SPE_PKT_EVENTS,		/* Events */
	SPE_PKT_OP_TYPE,	/* Operation Type, CLASS in .index */
	SPE_PKT_ALIGN,		/* [000] Alignment command, SIZE in .index */
	SPE_PKT_UNKNOWN,	/* unknown header: skipped by its encoded size */
	SPE_PKT_NR_TYPES
};

struct spe_packet {
	uint64_t payload;	/* little-endian payload value, 0 if none */
	uint64_t offset;	/* byte offset of the first header byte */
	uint8_t type;		/* enum spe_pkt_type */
	uint8_t len;		/* total length: header(s) + payload */
	uint8_t hdr_len;	/* 1 or 2 */
	uint8_t payload_len;	/* 0, 1, 2, 4 or 8 */
	uint8_t hdr0;		/* first header byte */
	uint8_t hdr1;		/* second header byte (hdr_len == 2) */
	uint8_t index;		/* address/counter/context INDEX, op CLASS, align SIZE */
	uint8_t reserved;	/* 1 if a field holds a reserved value */
};

/* Error codes: functions return the negated value. */
enum spe_err {
	SPE_OK = 0,
	SPE_E_TRUNCATED = 1,	/* packet or record runs past the end of the data */
	SPE_E_BAD_HEADER = 2,	/* reserved extended header (0x20-0x3F twice) */
	SPE_E_RECORD_TOO_LONG = 3, /* no End/Timestamp within SPE_MAX_RECORD_LEN */
	SPE_E_INVAL = 4,	/* bad argument */
	SPE_E_NOSPACE = 5,	/* encoder: buffer full */
	SPE_E_NR
};

const char *spe_strerror(int err);

/*
 * Decode the packet at buf[0..len). Returns the packet length (> 0) and
 * fills *pkt (pkt->offset is set to 0; the caller adds its own base), or
 * -SPE_E_TRUNCATED / -SPE_E_BAD_HEADER. Unknown packets are returned as
 * SPE_PKT_UNKNOWN with the length their header encodes ([004] D18.1.3).
 * The Alignment command's skip is not applied here (see SPE_DEC_LEGACY_ALIGN).
 */
int spe_pkt_decode(const uint8_t *buf, size_t len, struct spe_packet *pkt);

/* ------------------------------------------------------------------ */
/* Records                                                            */
/* ------------------------------------------------------------------ */

#define SPE_REC_NADDR		SPE_ADDR_IDX_NUM_ARCH	/* addr[0..4] */
#define SPE_REC_NCNT		5			/* counter[0..4], 3 unused */
#define SPE_REC_NEXTRA		4

/* spe_record.present bits */
#define SPE_REC_ADDR(i)		(1u << (i))		/* i < SPE_REC_NADDR */
#define SPE_REC_PC		SPE_REC_ADDR(SPE_ADDR_IDX_PC)
#define SPE_REC_BR_TGT		SPE_REC_ADDR(SPE_ADDR_IDX_BR_TGT)
#define SPE_REC_DATA_VA		SPE_REC_ADDR(SPE_ADDR_IDX_DATA_VA)
#define SPE_REC_DATA_PA		SPE_REC_ADDR(SPE_ADDR_IDX_DATA_PA)
#define SPE_REC_PREV_BR_TGT	SPE_REC_ADDR(SPE_ADDR_IDX_PREV_BR_TGT)
#define SPE_REC_CNT(i)		(1u << (8 + (i)))	/* i < SPE_REC_NCNT */
#define SPE_REC_CTX(i)		(1u << (16 + (i)))	/* i < 2 */
#define SPE_REC_DATA_SOURCE	(1u << 18)
#define SPE_REC_EVENTS		(1u << 19)
#define SPE_REC_OP		(1u << 20)
#define SPE_REC_TIMESTAMP	(1u << 21)
#define SPE_REC_END		(1u << 22)
#define SPE_REC_DUP		(1u << 23)	/* a packet kind appeared twice: last wins */
#define SPE_REC_EXTRA		(1u << 24)	/* unknown/impdef/reserved packets, see extra[] */

/* A packet the record fields do not hold (kept for the first SPE_REC_NEXTRA). */
struct spe_extra_pkt {
	uint64_t payload;
	uint32_t rel_offset;	/* offset from spe_record.offset */
	uint8_t type;		/* enum spe_pkt_type */
	uint8_t index;
	uint8_t hdr0, hdr1;
};

/*
 * A decoded record. A field is meaningful only when its SPE_REC_* bit is set
 * in present; fields that are not present read as zero (extra[] beyond
 * n_extra is left as it was).
 */
struct spe_record {
	uint64_t offset;		/* byte offset of the record's first packet */
	uint32_t size;			/* bytes, first packet to End/Timestamp inclusive */
	uint32_t present;		/* SPE_REC_* */
	uint64_t addr[SPE_REC_NADDR];	/* raw Address payloads by INDEX */
	uint64_t timestamp;
	uint64_t events;		/* E[63:0]; bits not output read as zero */
	uint32_t context[2];		/* CONTEXTIDR_EL1, CONTEXTIDR_EL2 */
	uint16_t counter[SPE_REC_NCNT];	/* raw Counter payloads by INDEX */
	uint16_t data_source;
	uint8_t events_len;		/* payload bytes of the Events packet */
	uint8_t data_source_len;
	uint8_t op_class;		/* Operation Type CLASS */
	uint8_t op_subclass;		/* Operation Type payload */
	uint16_t n_packets;		/* packets in the record, padding excluded */
	uint16_t n_extra;		/* packets counted in extra (may exceed NEXTRA) */
	struct spe_extra_pkt extra[SPE_REC_NEXTRA];
};

/* Decoder flags */
#define SPE_DEC_LEGACY_ALIGN	(1u << 0) /* apply [000] Alignment command skips */

struct spe_error {
	uint64_t offset;	/* byte offset where the problem was found */
	uint64_t resume;	/* offset where decoding resumes */
	int code;		/* enum spe_err */
};

/*
 * Both iterators count the same way: on data that spe_decoder_next()
 * decodes without an error, spe_decoder_next_packet() over the same bytes
 * leaves identical stats (checked by tests/stats.c and the fuzz target).
 * After an error they differ: the record iterator resynchronizes at a
 * record boundary, the packet iterator one byte later.
 */
struct spe_decoder_stats {
	uint64_t records;	/* records ended by End or Timestamp (D18.1.2) */
	/*
	 * Packets decoded, Padding excluded: every known, unknown or
	 * reserved packet and every Alignment command counts once; Padding
	 * bytes (D18.2.8), between records or inside one, count only in
	 * pad_bytes. Bytes skipped while resynchronizing count in neither.
	 */
	uint64_t packets;
	uint64_t pad_bytes;
	uint64_t unknown;	/* unknown packets skipped */
	uint64_t errors;
	uint64_t skipped_bytes;	/* bytes dropped while resynchronizing */
};

struct spe_decoder {
	const uint8_t *buf;
	size_t len;
	uint64_t buf_addr;	/* address of buf[0], for Alignment commands */
	unsigned int flags;
	/*
	 * Kept apart from len: compilers merge adjacent loads into one vector
	 * load, which then cannot be forwarded from the previous call's store
	 * to pos (a ~4x slowdown of the packet iterator).
	 */
	size_t pos;
	struct spe_error err;	/* last error */
	struct spe_decoder_stats stats;
	size_t resync_floor;	/* internal: end of the last over-long record window */
	size_t resync_from;	/* internal: where the last resynchronization scan began */
	size_t err_pos;		/* internal: pos when the last error was found */
};

void spe_decoder_init(struct spe_decoder *d, const void *buf, size_t len,
		      unsigned int flags);

/*
 * Record iterator. Returns 1 and fills *rec, 0 at the end of the data, or
 * a negative enum spe_err: d->err then holds the offset of the problem and
 * where decoding resumes; call again to continue (the decoder has already
 * resynchronized at the next record boundary).
 */
int spe_decoder_next(struct spe_decoder *d, struct spe_record *rec);

/*
 * Batch record iterator: up to max (>= 1) records into recs[], the same
 * records, stats and errors as that many calls of spe_decoder_next(), with
 * the position and the counts kept in registers across the batch. Returns
 * how many it stored (0 at the end), or a negative error when the first
 * record is one (d->err filled, as there); an error ends a batch before
 * it, so that the next call reports it.
 */
int spe_decoder_next_records(struct spe_decoder *d, struct spe_record *recs,
			     unsigned int max);

/*
 * Packet iterator over the same state. Returns 1 and fills *pkt (with its
 * absolute offset), 0 at the end, or a negative error (d->err filled;
 * decoding resumes one byte later, or at the end for truncation).
 * A run of consecutive Padding bytes is returned as one SPE_PKT_PAD packet
 * whose len is the run length (at most 255).
 */
int spe_decoder_next_packet(struct spe_decoder *d, struct spe_packet *pkt);

/*
 * Batch packet iterator: up to max (>= 1) packets into pkts[], the same
 * packets, stats and errors as that many calls of
 * spe_decoder_next_packet(), with the position and the counts kept in
 * registers across the batch. Returns how many it stored (0 at the end),
 * or a negative error when the first packet is one (d->err filled, as
 * there); a packet that fails ends a batch before it, so that the next
 * call reports it.
 */
int spe_decoder_next_packets(struct spe_decoder *d, struct spe_packet *pkts,
			     unsigned int max);

/* ------------------------------------------------------------------ */
/* Streaming                                                          */
/* ------------------------------------------------------------------ */

/*
 * Incremental decoding of a trace that arrives in chunks (a wrapped AUX
 * ring read piece by piece, a pipe): the same records, errors and stats as
 * spe_decoder_next() over the whole trace at once, records split across
 * chunks included. Offsets (rec->offset, err) are offsets in the stream.
 *
 *	spe_stream_init(&s, buf, sizeof(buf), 0);
 *	while ((n = read(fd, chunk, sizeof(chunk))) > 0)
 *		for (p = chunk; n; p += w, n -= w) {
 *			w = spe_stream_write(&s, p, n);
 *			while ((ret = spe_stream_next(&s, &rec)) != 0)
 *				use(ret, &rec);
 *		}
 *	spe_stream_finish(&s);
 *	while ((ret = spe_stream_next(&s, &rec)) != 0)
 *		use(ret, &rec);
 *
 * The caller provides the window buffer (at least SPE_STREAM_MIN_CAP()
 * bytes); spe_stream_write() copies into it what fits and returns that
 * count. A record is decoded once SPE_STREAM_WINDOW() bytes from its start
 * are in the window (a record is at most SPE_MAX_RECORD_LEN bytes, a
 * legacy Alignment command skips at most 64 KiB), or the stream is
 * finished.
 */
#define SPE_STREAM_WINDOW(flags)					\
	((((flags) & SPE_DEC_LEGACY_ALIGN) ? 65536u : 0u) + SPE_MAX_RECORD_LEN + 64u)
#define SPE_STREAM_MIN_CAP(flags)	(2u * SPE_STREAM_WINDOW(flags))

struct spe_stream {
	struct spe_decoder d;	/* over the window; d.stats are the stream's */
	uint8_t *buf;		/* the window */
	size_t cap;
	uint64_t base;		/* stream offset of buf[0] */
	uint64_t addr;		/* buffer address of stream byte 0 (--base) */
	size_t window;
	int finished;
	struct spe_error err;	/* last error, in stream offsets */
	/* internal: an error whose resume point needs more data */
	int pend_code;
	uint64_t pend_at, pend_pos;
	size_t pend_from;
};

/* 0, or -SPE_E_INVAL when cap < SPE_STREAM_MIN_CAP(flags). */
int spe_stream_init(struct spe_stream *s, void *buf, size_t cap, unsigned int flags);
/* Set the buffer address of stream byte 0 (legacy Alignment commands). */
void spe_stream_set_addr(struct spe_stream *s, uint64_t addr);
/* Copy up to len bytes of the stream into the window; returns how many. */
size_t spe_stream_write(struct spe_stream *s, const void *data, size_t len);
/* No more data will come. */
void spe_stream_finish(struct spe_stream *s);
/*
 * 1 and *rec filled; a negative enum spe_err (s->err filled; call again to
 * continue); or 0: more data is needed, or, once finished, the end.
 */
int spe_stream_next(struct spe_stream *s, struct spe_record *rec);

/* ------------------------------------------------------------------ */
/* Field interpretation                                               */
/* ------------------------------------------------------------------ */

enum spe_op_kind {
	SPE_OP_RESERVED = 0,
	SPE_OP_OTHER,		/* CLASS 0: Other */
	SPE_OP_SVE_DP,		/* CLASS 0: Data processing, SVE vector */
	SPE_OP_SME_DP,		/* CLASS 0: Data processing, SME array */
	SPE_OP_LDST_GP,		/* CLASS 1: general-purpose registers */
	SPE_OP_LDST_SIMD_FP,	/* CLASS 1: SIMD&FP registers */
	SPE_OP_LDST_UNSPEC,	/* CLASS 1: unspecified registers */
	SPE_OP_LDST_MTE_TAG,	/* CLASS 1: Allocation Tag(s) */
	SPE_OP_LDST_NV2,	/* CLASS 1: MRS/MSR transformed by NV2 */
	SPE_OP_LDST_EXT,	/* CLASS 1: atomic, acquire/release, exclusive */
	SPE_OP_LDST_SVE_SME,	/* CLASS 1: SVE or SME registers */
	SPE_OP_LDST_MEMCPY,	/* CLASS 1: Memory Copy (MOPS) */
	SPE_OP_LDST_MEMSET,	/* CLASS 1: Memory Set (MOPS) */
	SPE_OP_LDST_GCS,	/* CLASS 1: Guarded Control Stack */
	SPE_OP_BRANCH,		/* CLASS 2 */
	SPE_OP_NR_KINDS
};

struct spe_op {
	uint8_t kind;		/* enum spe_op_kind */
	uint8_t store;		/* LDST bit (1: store / not memory-reading) */
	uint8_t cond;		/* Other/Branch COND */
	uint8_t fp;		/* FP (Other, SVE, SME) */
	uint8_t ase;		/* Other ASE */
	uint8_t pred;		/* SVE PRED (DP and load/store) */
	uint8_t sg;		/* SVE load/store gather/scatter */
	uint8_t evl;		/* SVE EVL field; bits = 32 << evl; 7: > 2048 */
	uint8_t ets;		/* SME ETS field; bits = 128 << ets; 15: whole ZA */
	uint8_t at, excl, ar;	/* extended load/store */
	uint8_t comm;		/* GCS COMM */
	uint8_t ind;		/* Branch IND */
	uint8_t cr;		/* Branch CR (SPE_OP_BR_CR_*) */
	uint8_t gcs;		/* Branch GCS */
	uint8_t is_ldst;	/* kind is a load/store/atomic */
	uint8_t reserved;	/* reserved encoding (kind RESERVED or field value) */
};

/* Decode an Operation Type CLASS/SUBCLASS pair; returns op->kind. */
int spe_op_decode(unsigned int op_class, unsigned int subclass, struct spe_op *op);

/*
 * The names below are at most SPE_NAME_MAX characters long, whatever the
 * argument (tests/unit.c checks every value): output formatters size their
 * lines from it.
 */
#define SPE_NAME_MAX	24

const char *spe_pkt_type_name(unsigned int type);
const char *spe_op_kind_name(unsigned int kind);
/* Short name of event bit n ("retired", "l1d-refill", ...), "impdef-N" style
 * names are not returned: NULL for IMPLEMENTATION DEFINED or RAZ bits. */
const char *spe_event_name(unsigned int bit);
const char *spe_addr_index_name(unsigned int index);	/* NULL if impdef/reserved */
const char *spe_counter_index_name(unsigned int index);	/* NULL if impdef/reserved */

/* One-line description of a packet (no trailing newline). Returns what
 * snprintf() would. */
int spe_pkt_describe(const struct spe_packet *pkt, char *buf, size_t size);

/* ------------------------------------------------------------------ */
/* Encoder                                                            */
/* ------------------------------------------------------------------ */

struct spe_enc {
	uint8_t *buf;
	size_t cap;
	size_t len;
	int overflow;		/* sticky: a write did not fit */
};

void spe_enc_init(struct spe_enc *e, void *buf, size_t cap);
/* All return 0, or -SPE_E_NOSPACE (nothing written) / -SPE_E_INVAL. */
int spe_enc_raw(struct spe_enc *e, const void *bytes, size_t n);
int spe_enc_pad(struct spe_enc *e, size_t n);
int spe_enc_end(struct spe_enc *e);
int spe_enc_timestamp(struct spe_enc *e, uint64_t ts);
/* Short format when index < 8 unless force_ext; Extended otherwise. */
int spe_enc_address(struct spe_enc *e, unsigned int index, uint64_t payload, int force_ext);
int spe_enc_counter(struct spe_enc *e, unsigned int index, uint16_t count, int force_ext);
int spe_enc_context(struct spe_enc *e, unsigned int index, uint32_t ctx);
int spe_enc_op_type(struct spe_enc *e, unsigned int op_class, uint8_t subclass);
/* size_bytes: 1, 2, 4 or 8 (events); 1 or 2 (data source) */
int spe_enc_events(struct spe_enc *e, uint64_t events, unsigned int size_bytes);
int spe_enc_data_source(struct spe_enc *e, uint16_t source, unsigned int size_bytes);
/* [000] Alignment command with SIZE field 'size', followed by filler bytes up
 * to the 2^(size+1) boundary (relative to buffer start) when fill >= 0. */
int spe_enc_align(struct spe_enc *e, unsigned int size, int fill);
/* A packet with an arbitrary header (1 or 2 bytes) and payload: for tests of
 * unknown packets. The payload length is taken from the header. */
int spe_enc_packet(struct spe_enc *e, uint8_t hdr0, int hdr1, uint64_t payload);
/* Encode a whole record from its struct: every present field, extras whose
 * type is UNKNOWN/ADDRESS/COUNTER are re-emitted, then Timestamp or End. */
int spe_enc_record(struct spe_enc *e, const struct spe_record *rec);

#ifdef __cplusplus
}
#endif

#endif /* ARM_SPE_SPE_DECODER_H */
