// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Streaming record decoding (spe_stream_*, include/arm_spe/spe_decoder.h):
 * the record iterator run over a window of the stream that always holds
 * what a decision can depend on, so that chunked input gives the records,
 * errors and stats of a whole-buffer decode.
 *
 * What a decision depends on ([004] D18.1.2, D18.1.3):
 *  - a record: at most SPE_MAX_RECORD_LEN bytes from its start (then it is
 *    over-long), plus one packet; with legacy Alignment commands ([000]
 *    5.3.2), a skip of up to 64 KiB. Records are decoded once
 *    SPE_STREAM_WINDOW() bytes from their start are in the window.
 *  - Padding and Alignment commands between records: skipped here, byte
 *    by byte, before the window test (a long run of padding must not hold
 *    up the window).
 *  - the resume point after an error: the scan for the next End/Timestamp
 *    followed by a plausible packet can go arbitrarily far; it is rerun as
 *    data arrives, from the first position not yet ruled out, and the
 *    error is reported once its resume point is known.
 */
#include <string.h>

#include <arm_spe/spe_decoder.h>

#include "spe_internal.h"

int spe_stream_init(struct spe_stream *s, void *buf, size_t cap, unsigned int flags)
{
	if (!s || !buf || cap < SPE_STREAM_MIN_CAP(flags))
		return -SPE_E_INVAL;
	memset(s, 0, sizeof(*s));
	spe_decoder_init(&s->d, buf, 0, flags);
	s->d.buf = buf;		/* spe_decoder_init() keeps NULL for len 0 only */
	s->buf = buf;
	s->cap = cap;
	s->window = SPE_STREAM_WINDOW(flags);
	return 0;
}

void spe_stream_set_addr(struct spe_stream *s, uint64_t addr)
{
	s->addr = addr;
	s->d.buf_addr = addr + s->base;
}

/* Drop the bytes before the decoder's position from the window. */
static void compact(struct spe_stream *s)
{
	struct spe_decoder *d = &s->d;
	size_t keep = d->pos;

	if (!keep)
		return;
	memmove(s->buf, s->buf + keep, d->len - keep);
	d->len -= keep;
	d->pos = 0;
	d->resync_floor = d->resync_floor > keep ? d->resync_floor - keep : 0;
	if (s->pend_code)
		s->pend_from -= keep;
	s->base += keep;
	d->buf_addr = s->addr + s->base;
}

size_t spe_stream_write(struct spe_stream *s, const void *data, size_t len)
{
	struct spe_decoder *d = &s->d;
	size_t n;

	if (s->finished)
		return 0;
	if (s->cap - d->len < len)
		compact(s);
	n = s->cap - d->len < len ? s->cap - d->len : len;
	memcpy(s->buf + d->len, data, n);
	d->len += n;
	return n;
}

void spe_stream_finish(struct spe_stream *s)
{
	s->finished = 1;
}

static int report(struct spe_stream *s, int code)
{
	s->err.code = code;
	s->err.offset = s->base + s->d.err.offset;
	s->err.resume = s->base + s->d.err.resume;
	return -code;
}

/*
 * A pending error: rescan for its resume point. Returns the error once the
 * point is known, else 0 (positions already ruled out are dropped).
 */
static int pending(struct spe_stream *s)
{
	struct spe_decoder *d = &s->d;
	size_t r = spe__resync(d, s->pend_from);
	uint64_t abs_r;

	if (!s->finished && r + SPE__RESYNC_LOOKAHEAD > d->len) {
		/*
		 * Positions before the last SPE__RESYNC_LOOKAHEAD bytes, and
		 * before the candidate found there (End or Timestamp at r - 1
		 * or r - 9), were ruled out with all the bytes they depend on.
		 */
		size_t done = d->len > SPE__RESYNC_LOOKAHEAD ? d->len - SPE__RESYNC_LOOKAHEAD : 0;

		if (r < d->len && r >= 9 && r - 9 < done)
			done = r - 9;
		if (done > s->pend_from)
			s->pend_from = done;
		d->pos = s->pend_from;
		return 0;
	}
	/* the accounting fail() does in spe_decoder.c, now that r is known */
	abs_r = s->base + r;
	d->stats.errors++;
	if (abs_r > s->pend_pos)
		d->stats.skipped_bytes += abs_r - s->pend_pos;
	d->err.code = s->pend_code;
	d->err.offset = s->pend_at - s->base;
	d->err.resume = r;
	d->pos = r;
	s->pend_code = 0;
	return report(s, d->err.code);
}

int spe_stream_next(struct spe_stream *s, struct spe_record *rec)
{
	struct spe_decoder *d = &s->d;
	const uint8_t *b = s->buf;
	int ret;

	if (s->pend_code)
		return pending(s);
	/* D18.1.3: only Padding (and [000] Alignment commands) between records */
	for (;;) {
		size_t p = d->pos;

		while (p < d->len && b[p] == SPE_HDR_PADDING)
			p++;
		d->stats.pad_bytes += p - d->pos;
		d->pos = p;
		if (p >= d->len)
			return 0;	/* more data needed, or the end */
		if ((d->flags & SPE_DEC_LEGACY_ALIGN) && (b[p] & SPE_ALIGN0_MASK) == SPE_ALIGN0_VAL) {
			uint64_t a, addr, next;

			if (d->len - p < 2) {
				if (!s->finished)
					return 0;
				break;
			}
			if (b[p + 1] != SPE_ALIGN1_VAL || !SPE_ALIGN_SIZE(b[p]))
				break;
			/* same skip as the record iterator's, relative to d->buf_addr */
			a = SPE_ALIGN_BYTES(SPE_ALIGN_SIZE(b[p]));
			addr = d->buf_addr + p + 2;
			next = ((addr + a - 1) & ~(a - 1)) - d->buf_addr;
			if (next > d->len) {
				if (!s->finished)
					return 0;
				next = d->len;
			}
			d->stats.packets++;
			d->pos = (size_t)next;
			continue;
		}
		break;
	}
	if (!s->finished && d->len - d->pos < s->window)
		return 0;
	ret = spe_decoder_next(d, rec);
	if (ret > 0) {
		rec->offset += s->base;
		return ret;
	}
	if (ret == 0)
		return 0;
	if (-ret == SPE_E_TRUNCATED || s->finished ||
	    d->err.resume + SPE__RESYNC_LOOKAHEAD <= d->len)
		return report(s, -ret);
	/* the resume point may lie beyond the window: undo and wait */
	d->stats.errors--;
	if (d->err.resume > d->err_pos)
		d->stats.skipped_bytes -= d->err.resume - d->err_pos;
	s->pend_code = -ret;
	s->pend_at = s->base + d->err.offset;
	s->pend_pos = s->base + d->err_pos;
	s->pend_from = d->resync_from;
	return pending(s);
}
