/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * libspe_decoder internals shared between its files (not installed, not
 * API): the record iterator's resynchronization scan, which the streaming
 * layer reruns as more data arrives.
 */
#ifndef SPE_INTERNAL_H
#define SPE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <arm_spe/spe_decoder.h>

#if defined(__GNUC__)
#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#else
#define likely(x)	(x)
#define unlikely(x)	(x)
#endif

/* First position at or after p that is not a Padding byte (D18.2.8), or end. */
static inline const uint8_t *spe__skip_padding(const uint8_t *p, const uint8_t *end)
{
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	while ((size_t)(end - p) >= 8) {
		uint64_t w;

		memcpy(&w, p, 8);
		if (w)
			return p + (__builtin_ctzll(w) >> 3);
		p += 8;
	}
#endif
	while (p < end && *p == SPE_HDR_PADDING)
		p++;
	return p;
}

/*
 * The length of the run of Padding at p, as one Padding packet holds it:
 * up to the next other byte, the end, or 255 bytes.
 */
static inline size_t spe__pad_run(const uint8_t *p, const uint8_t *end)
{
	return (size_t)(spe__skip_padding(p, end - p > 255 ? p + 255 : end) - p);
}

/* *pkt: the Padding packet of a run of len bytes at offset off */
static inline void spe__pad_packet(struct spe_packet *pkt, uint64_t off, size_t len)
{
	memset(pkt, 0, sizeof(*pkt));
	pkt->type = SPE_PKT_PAD;
	pkt->len = (uint8_t)len;
	pkt->hdr_len = 1;
	pkt->offset = off;
}

/*
 * The next record boundary at or after 'from' in d->buf[0..d->len): the
 * byte after an End packet, or after a Timestamp packet, that is followed
 * by a plausible packet or by the end of the data; d->len if none.
 */
size_t spe__resync(struct spe_decoder *d, size_t from);

/*
 * Decoder flag, internal: the record iterator decodes every record with its
 * general loop (tests compare it with the fast path, fast_record()).
 */
#define SPE__DEC_NO_FAST	(1u << 31)

/*
 * Decoder flag, internal: the batch packet iterator uses its portable loop
 * even where the vector pre-pass is available (tests compare the two).
 */
#define SPE__DEC_NO_SIMD	(1u << 30)

/* 1 if the batch packet iterator's vector pre-pass runs on this machine */
int spe__batch_simd(void);

/*
 * Decoder flag, internal: the batch record iterator does not use the record
 * layouts (spe_rec_layout.c); tests compare the two.
 */
#define SPE__DEC_NO_LAYOUT	(1u << 29)

/* Record layouts (spe_rec_layout.c): x86-64 with AVX-512 VBMI at run time. */
#if defined(__GNUC__) && defined(__x86_64__) && defined(__BYTE_ORDER__) && \
	__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define HAVE_REC_LAYOUT 1
#endif
#define SPE__LAYOUTS		16u	/* layouts kept per thread */
#define SPE__LAYOUT_SPAN	128u	/* bytes a record's match reads: its maximum size */
/*
 * How far ahead of the record it decodes a walk of the trace prefetches
 * (__builtin_prefetch, one a record): a chain of records does not let the
 * processor run ahead to load the next ones, and its own prefetcher does
 * not reach far enough.
 * Two chains of records on the unpadded generated trace, on an Intel
 * Xeon of the CI class: 1 KiB ahead ran at 0.7x of 8 KiB, 2-4 KiB at
 * 0.9-0.95x, 16-32 KiB at 0.97x (Documentation/benchmarks.rst).
 */
#define SPE__PREFETCH_AHEAD	8192u

/* 1 if the record layouts can be used on this machine */
int spe__layouts_avail(void);

/*
 * Decode from *pp up to max records, each after its Padding, while their
 * layouts are known: *pp moves past them, *npk and *npad grow by their
 * packets and Padding bytes. Stops before the first record (with its
 * Padding) that it does not decode, or SPE__LAYOUT_SPAN bytes from end.
 */
unsigned int spe__layout_records(const uint8_t *buf, const uint8_t **pp, const uint8_t *end,
				 struct spe_record *recs, unsigned int max,
				 uint64_t *npk, uint64_t *npad);

/*
 * The same for the batch packet iterator: from *pp (a record, or the run of
 * Padding before one) the packets of the records of known layouts and of
 * the runs of Padding after them, into pkts (room for max); *pp moves past
 * them, the counts grow; nothing for max below 17. *learn: 1 if it stopped
 * at a record of no known layout, or none is known yet (the caller then
 * gives spe__layout_learn() the record at *pp), not for a lack of room or
 * a record its layout does not give.
 */
unsigned int spe__layout_packets(const uint8_t *buf, const uint8_t **pp, const uint8_t *end,
				 struct spe_packet *pkts, unsigned int max, uint64_t *npk,
				 uint64_t *nrec, uint64_t *npad, unsigned int way, int *learn);

/*
 * Which way a batch of packets goes (0: the batch's own scan; 1, 2: the
 * layouts, by spe__layout_packets() with that way), and its end, of bytes
 * bytes of records (Padding not counted) and records records: the way is
 * chosen by timing them all now and then.
 */
#define SPE__LAYOUT_MIN_PKTS	17u	/* spe__layout_packets()'s smallest batch */
unsigned int spe__packet_way(void);
void spe__packet_way_done(uint64_t bytes, uint64_t records);

/*
 * Whether to learn the layout of a record the layouts did not give (which
 * this counts as one they missed: see off and misses); keepable: 0 where
 * the caller knows the record is one no layout keeps (over SPE__LAYOUT_SPAN
 * bytes, or SPE_REC_DUP), 1 otherwise, before the fast path has
 * decoded it (the packet batch). Then learn the layout of *rec, just
 * decoded from p by the fast path, with SPE__LAYOUT_SPAN bytes or more
 * from p to the end.
 */
#define SPE__LAYOUT_KEEPABLE(rec) \
	((rec)->size <= SPE__LAYOUT_SPAN && !((rec)->present & SPE_REC_DUP))
int spe__layout_learning(int keepable);
void spe__layout_learn(const uint8_t *p, const struct spe_record *rec);

/*
 * For the tests: records this thread has decoded by their layouts so far
 * (what 0), of them those a second chain decoded (1), calls left before the
 * layouts are tried again after a trace where they rarely repeated (2),
 * records whose packets the layouts gave (3), records by strided() (4);
 * which way batches of 16 or more go (mode 0: the faster, timed; 1: one
 * chain; 2: two chains; 3: strided; for packets 1: find(), 2 and 3:
 * find_nb(), never the scan), which also forgets the layouts and the
 * counts.
 */
uint64_t spe__layout_count(int what);
void spe__layout_mode(int mode);

/*
 * D18.2.7: 1 where Operation Type CLASS (row) and SUBCLASS (column) is a
 * reserved encoding (as spe_op_decode() says, checked by the unit tests);
 * row 4 all zeros, for records with no Operation Type.
 */
extern const uint8_t spe__op_res[5][256];

/* Bytes after a resynchronization point that the scan may have looked at. */
#define SPE__RESYNC_LOOKAHEAD	(9u + SPE_MAX_PACKET_LEN + 1u)

#endif /* SPE_INTERNAL_H */
