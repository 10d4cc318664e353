// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * perf.data SPE decoding (perf_decode.h). Per AUX area (AUXTRACE idx), the
 * pieces are fed in file order to one spe_stream, so that a record split
 * by a wrap of the AUX ring decodes whole; a piece that does not continue
 * where the previous one ended (lost data, snapshot mode) ends the stream
 * and starts a new one.
 *
 * Who a record belongs to: in a per-thread recording, the AUXTRACE piece
 * names the thread. In a CPU-wide one, a Context packet (D18.2.2,
 * CONTEXTIDR_EL1, which the kernel sets to the thread's PID with
 * CONFIG_PID_IN_CONTEXTIDR) naming a thread the file knows wins; else the
 * task that ITRACE_START/SWITCH_CPU_WIDE last put on the piece's CPU.
 */
#include <stdlib.h>
#include <string.h>

#include "perf_decode.h"

struct area {
	uint32_t idx;		/* AUXTRACE idx */
	struct spe_stream s;
	uint8_t *win;
	int started;
	uint64_t base;		/* AUX offset of stream byte 0 */
	uint64_t next;		/* AUX offset the next piece should start at */
	size_t aux_cursor;	/* first PERF_RECORD_AUX not yet passed */
	const struct pd_chunk *cur;
};

static unsigned int aux_flags_at(const struct perf_data *pd, struct area *a, uint64_t off)
{
	const struct pd_chunk *c = a->cur;
	size_t i;

	for (i = a->aux_cursor; i < pd->n_aux; i++) {
		const struct pd_aux *x = &pd->aux[i];
		int other = c->cpu >= 0 ? x->cpu != c->cpu : x->tid != c->tid;

		/* offsets grow within a stream: what lies behind is passed for good */
		if (i == a->aux_cursor && (other || x->offset + x->size <= off)) {
			a->aux_cursor++;
			continue;
		}
		if (other)
			continue;
		if (off < x->offset)
			break;
		if (off < x->offset + x->size)
			return (unsigned int)x->flags;
	}
	return 0;
}

static void fill_ctx(const struct perf_data *pd, struct area *a, const struct spe_record *r,
		     struct rec_ctx *ctx)
{
	const struct pd_chunk *c = a->cur;
	const struct pd_task *t;

	ctx->valid = 1;
	ctx->cpu = c->cpu;
	ctx->pid = -1;
	ctx->tid = c->tid >= 0 ? c->tid : c->cur_tid;
	if (c->tid < 0 && r && (r->present & SPE_REC_CTX(SPE_CTX_IDX_EL1)) &&
	    pd_task(pd, (int32_t)r->context[0]))
		ctx->tid = (int32_t)r->context[0];
	t = ctx->tid >= 0 ? pd_task(pd, ctx->tid) : NULL;
	ctx->pid = t ? t->pid : (c->tid < 0 ? c->cur_pid : -1);
	ctx->comm = t && t->comm[0] ? t->comm : NULL;
	ctx->aux_offset = r ? r->offset : 0;
	ctx->aux_flags = r ? aux_flags_at(pd, a, r->offset) : 0;
}

static void drain(const struct perf_data *pd, struct area *a, struct pdd_sink *sink,
		  struct pdd_stats *st)
{
	struct spe_record rec;
	struct rec_ctx ctx;
	int ret;

	while ((ret = spe_stream_next(&a->s, &rec)) != 0) {
		if (ret < 0) {
			struct spe_error e = a->s.err;

			e.offset += a->base;
			e.resume += a->base;
			fill_ctx(pd, a, NULL, &ctx);
			if (sink->error)
				sink->error(sink->arg, &e, &ctx);
			continue;
		}
		rec.offset += a->base;
		fill_ctx(pd, a, &rec, &ctx);
		if (ctx.aux_flags) {
			unsigned int b;

			for (b = 0; b < 4; b++)
				if (ctx.aux_flags & (1u << b))
					st->flagged[b]++;
		}
		sink->record(sink->arg, &rec, &ctx);
	}
}

static void add_stats(struct spe_decoder_stats *t, const struct spe_decoder_stats *s)
{
	t->records += s->records;
	t->packets += s->packets;
	t->pad_bytes += s->pad_bytes;
	t->unknown += s->unknown;
	t->errors += s->errors;
	t->skipped_bytes += s->skipped_bytes;
}

/* No more data for this stream: flush it and count it. */
static void end_stream(const struct perf_data *pd, struct area *a, struct pdd_sink *sink,
		       struct pdd_stats *st)
{
	spe_stream_finish(&a->s);
	drain(pd, a, sink, st);
	add_stats(&st->dec, &a->s.d.stats);
	a->started = 0;
}

int pdd_decode(const struct perf_data *pd, unsigned int flags, struct pdd_sink *sink,
	       struct pdd_stats *st)
{
	size_t i, n_area = 0, cap = SPE_STREAM_MIN_CAP(flags);
	struct area *areas;
	int ret = 0;

	memset(st, 0, sizeof(*st));
	/* at most one area per piece; found by idx (a few CPUs or threads) */
	areas = calloc(pd->n_chunk ? pd->n_chunk : 1, sizeof(*areas));
	if (!areas)
		return -1;
	for (i = 0; i < pd->n_chunk; i++) {
		const struct pd_chunk *c = &pd->chunk[i];
		struct area *a = areas;
		uint64_t fed = 0;

		while (a < areas + n_area && a->idx != c->idx)
			a++;
		if (a == areas + n_area) {
			n_area++;
			a->idx = c->idx;
		}

		if (!a->win) {
			a->win = malloc(cap);
			if (!a->win) {
				ret = -1;
				break;
			}
			st->areas++;
		}
		a->cur = c;
		if (a->started && c->offset != a->next) {
			st->gaps++;
			end_stream(pd, a, sink, st);
		}
		if (!a->started) {
			spe_stream_init(&a->s, a->win, cap, flags);
			a->started = 1;
			a->base = c->offset;
			a->aux_cursor = 0;
		}
		a->next = c->offset + c->size;
		while (fed < c->size) {
			fed += spe_stream_write(&a->s, c->data + fed, (size_t)(c->size - fed));
			drain(pd, a, sink, st);
		}
	}
	for (i = 0; i < n_area; i++) {
		if (areas[i].started)
			end_stream(pd, &areas[i], sink, st);
		free(areas[i].win);
	}
	free(areas);
	return ret;
}
