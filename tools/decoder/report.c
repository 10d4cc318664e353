// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * spe-decode report: the analysis SPE is recorded for, from a perf.data
 * file and the ELF files its MMAP2 records name (symbols.c):
 *   - top symbols and PCs by sample count;
 *   - loads by total latency (D18.2.3 Counter INDEX 0) per symbol, with a
 *     power-of-two histogram;
 *   - loads by Data Source (D18.2.4, IMPLEMENTATION DEFINED values, shown
 *     raw) and by cache events (D18.2.6: L1D refill, LLC access/miss, TLB
 *     walk, remote access);
 *   - mispredicted branches (D18.2.6 E[7]) by PC;
 *   - false-sharing candidates: 64-byte lines of one process's data VAs
 *     (D18.2.1 INDEX 2) accessed from several CPUs, at least once by a
 *     store.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perf_decode.h"
#include "latency.h"
#include "report.h"
#include "symbols.h"

#define NB	LAT_BUCKETS
#define LINE	64u	/* cache line size assumed for false sharing */

/* An open-addressing map from a 64-bit key to an index in an array. */
struct map {
	uint64_t *key;
	uint32_t *idx;		/* index + 1, 0: empty */
	size_t cap, n;
};

static uint64_t mix(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	return k;
}

/* The index for key, or (when new) n, which the caller then fills. */
static int map_get(struct map *m, uint64_t key, size_t *idx, int *is_new)
{
	size_t i;

	if (2 * (m->n + 1) > m->cap) {
		size_t nc = m->cap ? 2 * m->cap : 1024, j;
		uint64_t *nk = calloc(nc, sizeof(*nk));
		uint32_t *ni = calloc(nc, sizeof(*ni));

		if (!nk || !ni) {
			free(nk);
			free(ni);
			return -1;
		}
		for (j = 0; j < m->cap; j++) {
			if (!m->idx[j])
				continue;
			for (i = mix(m->key[j]) & (nc - 1); ni[i]; i = (i + 1) & (nc - 1))
				;
			nk[i] = m->key[j];
			ni[i] = m->idx[j];
		}
		free(m->key);
		free(m->idx);
		m->key = nk;
		m->idx = ni;
		m->cap = nc;
	}
	for (i = mix(key) & (m->cap - 1); m->idx[i]; i = (i + 1) & (m->cap - 1))
		if (m->key[i] == key) {
			*idx = m->idx[i] - 1u;
			*is_new = 0;
			return 0;
		}
	m->key[i] = key;
	m->idx[i] = (uint32_t)++m->n;
	*idx = m->n - 1;
	*is_new = 1;
	return 0;
}

struct symstat {
	const char *dso, *name;	/* name NULL: unresolved in dso (or [kernel]) */
	uint64_t samples, loads, stores, mispred, lat_sum;
	uint64_t hist[NB];
};

struct pcstat {
	uint64_t pc, samples, mispred;
	int32_t pid;
	uint32_t sym;		/* index into syms */
};

struct linestat {
	uint64_t line;
	int32_t pid;
	uint64_t cpus;		/* CPUs 0-63 seen */
	uint64_t loads, stores;
	uint32_t sym;		/* symbol of the first store (or access) */
	int have_store_sym;
};

struct report {
	FILE *out;
	struct symtab *st;
	const struct opts_report *o;
	struct map sym_map, pc_map, line_map;
	struct symstat *sym;
	struct pcstat *pc;
	struct linestat *line;
	size_t cap_sym, cap_pc, cap_line;
	uint64_t records, with_pc, loads, kernel, oom;
	uint64_t ds[65536];
	uint64_t ev_loads[64];
};

static void *grow(void *p, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return p;
	*cap = *cap ? 2 * *cap : 256;
	if (*cap < need)
		*cap = need;
	return realloc(p, *cap * elem);
}

/* The symstat of a record's PC. */
static long sym_of(struct report *R, const struct spe_record *r, const struct rec_ctx *c)
{
	uint64_t pc = spe_addr_va_sext(r->addr[SPE_ADDR_IDX_PC]);
	const char *dso = "[kernel]", *name = NULL;
	size_t i;
	int is_new;

	/* D18.2.1: EL is bits [62:61]; EL1/EL2 PCs are the kernel's */
	if (SPE_ADDR_EL(r->addr[SPE_ADDR_IDX_PC]) == 0) {
		name = sym_lookup(R->st, c->pid, pc, &dso);
		if (!dso)
			dso = "[unknown]";
	} else {
		R->kernel++;
	}
	/* names and dso strings are distinct allocations: the pointer is the key */
	if (map_get(&R->sym_map, (uint64_t)(uintptr_t)(name ? name : dso), &i, &is_new))
		return -1;
	if (is_new) {
		struct symstat *ns = grow(R->sym, &R->cap_sym, i + 1, sizeof(*R->sym));

		if (!ns)
			return -1;
		R->sym = ns;
		memset(&R->sym[i], 0, sizeof(R->sym[i]));
		R->sym[i].dso = dso;
		R->sym[i].name = name;
	}
	return (long)i;
}

static void report_record(void *arg, const struct spe_record *r, const struct rec_ctx *c)
{
	struct report *R = arg;
	struct spe_op op;
	struct symstat *s;
	long si;
	size_t i;
	int is_new, is_load = 0, is_store = 0;
	int mispred = (r->present & SPE_REC_EVENTS) && (r->events & SPE_EV_BIT(SPE_EV_MISPRED));

	R->records++;
	if (!(r->present & SPE_REC_PC))
		return;
	R->with_pc++;
	si = sym_of(R, r, c);
	if (si < 0) {
		R->oom++;
		return;
	}
	s = &R->sym[si];
	s->samples++;
	if (r->present & SPE_REC_OP) {
		spe_op_decode(r->op_class, r->op_subclass, &op);
		is_load = op.is_ldst && !op.store;
		is_store = op.is_ldst && op.store;
		mispred &= op.kind == SPE_OP_BRANCH;
	} else {
		mispred = 0;
	}
	if (is_load) {
		unsigned int lat = r->counter[SPE_CNT_IDX_TOTAL];
		uint64_t ev = r->events;

		s->loads++;
		R->loads++;
		if (r->present & SPE_REC_CNT(SPE_CNT_IDX_TOTAL)) {
			s->lat_sum += lat;
			s->hist[lat_bucket(lat, R->o->counter_bits == 12 ? SPE_CNT_SAT12 : SPE_CNT_SAT16)]++;
		}
		if (r->present & SPE_REC_DATA_SOURCE)
			R->ds[r->data_source]++;
		while (ev) {
			R->ev_loads[__builtin_ctzll(ev)]++;
			ev &= ev - 1;
		}
	}
	s->stores += is_store;
	s->mispred += mispred;
	/* per PC */
	if (map_get(&R->pc_map, spe_addr_va_sext(r->addr[SPE_ADDR_IDX_PC]), &i, &is_new) == 0) {
		if (is_new) {
			struct pcstat *np = grow(R->pc, &R->cap_pc, i + 1, sizeof(*R->pc));

			if (!np) {
				R->oom++;
				return;
			}
			R->pc = np;
			memset(&R->pc[i], 0, sizeof(R->pc[i]));
			R->pc[i].pc = spe_addr_va_sext(r->addr[SPE_ADDR_IDX_PC]);
			R->pc[i].pid = c->pid;
			R->pc[i].sym = (uint32_t)si;
		}
		R->pc[i].samples++;
		R->pc[i].mispred += mispred;
	}
	/* per data line, for loads and stores with a data VA */
	if ((is_load || is_store) && (r->present & SPE_REC_DATA_VA) && c->cpu >= 0) {
		uint64_t va = spe_addr_va_sext(r->addr[SPE_ADDR_IDX_DATA_VA]), line = va / LINE;
		/* user lines (VA < 2^48: line < 2^42) are per process; kernel ones shared */
		uint64_t key = va >> 63 ? line : line ^ ((uint64_t)(uint32_t)c->pid << 42);

		if (map_get(&R->line_map, key, &i, &is_new) == 0) {
			struct linestat *l;

			if (is_new) {
				struct linestat *nl = grow(R->line, &R->cap_line, i + 1, sizeof(*R->line));

				if (!nl) {
					R->oom++;
					return;
				}
				R->line = nl;
				memset(&R->line[i], 0, sizeof(R->line[i]));
				R->line[i].line = line;
				R->line[i].pid = c->pid;
				R->line[i].sym = (uint32_t)si;
			}
			l = &R->line[i];
			l->cpus |= 1ull << (c->cpu & 63);
			l->loads += is_load;
			l->stores += is_store;
			if (is_store && !l->have_store_sym) {
				l->sym = (uint32_t)si;
				l->have_store_sym = 1;
			}
		}
	}
}

static void sym_name(const struct symstat *s, char *buf, size_t n)
{
	if (s->name)
		snprintf(buf, n, "%s (%s)", s->name, s->dso);
	else
		snprintf(buf, n, "[unresolved] (%s)", s->dso);
}

/* Indices of the top n of cnt[0..total), largest first. */
static size_t top(const void *base, size_t total, size_t elem, size_t off, size_t n, size_t *out)
{
	size_t i, k, got = 0;

	for (i = 0; i < total; i++) {
		uint64_t v;

		memcpy(&v, (const char *)base + i * elem + off, 8);
		if (!v)
			continue;
		for (k = got; k > 0; k--) {
			uint64_t w;

			memcpy(&w, (const char *)base + out[k - 1] * elem + off, 8);
			if (w >= v)
				break;
			if (k < n)
				out[k] = out[k - 1];
		}
		if (k < n) {
			out[k] = i;
			if (got < n)
				got++;
		}
	}
	return got;
}

/* A table of the top n PCs by the pcstat counter at offset off. */
static void print_pcs(struct report *R, const char *title, const char *col, size_t off, size_t n,
		      size_t *ix)
{
	size_t k, cnt = top(R->pc, R->pc_map.n, sizeof(*R->pc), off, n, ix);
	char name[320];

	fprintf(R->out, "\n== %s\n%10s %18s  %s\n", title, col, "pc", "symbol");
	for (k = 0; k < cnt; k++) {
		const struct pcstat *p = &R->pc[ix[k]];
		uint64_t v;

		memcpy(&v, (const char *)p + off, 8);
		sym_name(&R->sym[p->sym], name, sizeof(name));
		fprintf(R->out, "%10" PRIu64 " %#18" PRIx64 "  %s\n", v, p->pc, name);
	}
}

static void print_report(struct report *R, const struct pdd_stats *st, size_t n)
{
	size_t *ix = calloc(n ? n : 1, sizeof(*ix)), k, cnt, i;
	char name[320];

	if (!ix)
		return;
	fprintf(R->out, "spe-decode report: %" PRIu64 " SPE records (%" PRIu64 " with a PC, %" PRIu64
	       " of them in the kernel), %" PRIu64 " loads; decode errors %" PRIu64 "\n",
	       R->records, R->with_pc, R->kernel, R->loads, st->dec.errors);

	fprintf(R->out, "\n== top symbols by samples\n%10s %6s %9s %9s %8s  %s\n", "samples", "%", "loads",
	       "stores", "mispred", "symbol");
	cnt = top(R->sym, R->sym_map.n, sizeof(*R->sym), offsetof(struct symstat, samples), n, ix);
	for (k = 0; k < cnt; k++) {
		const struct symstat *s = &R->sym[ix[k]];

		sym_name(s, name, sizeof(name));
		fprintf(R->out, "%10" PRIu64 " %5.2f%% %9" PRIu64 " %9" PRIu64 " %8" PRIu64 "  %s\n", s->samples,
		       100.0 * (double)s->samples / (double)(R->with_pc ? R->with_pc : 1), s->loads,
		       s->stores, s->mispred, name);
	}

	print_pcs(R, "top PCs by samples", "samples", offsetof(struct pcstat, samples), n, ix);

	fprintf(R->out, "\n== loads by total latency, per symbol (cycles; histogram: count per power of two)\n"
	       "%12s %9s %8s  %s\n", "total", "loads", "mean", "symbol");
	cnt = top(R->sym, R->sym_map.n, sizeof(*R->sym), offsetof(struct symstat, lat_sum), n, ix);
	for (k = 0; k < cnt; k++) {
		const struct symstat *s = &R->sym[ix[k]];
		unsigned int b;

		sym_name(s, name, sizeof(name));
		fprintf(R->out, "%12" PRIu64 " %9" PRIu64 " %8.1f  %s\n             ", s->lat_sum, s->loads,
		       (double)s->lat_sum / (double)(s->loads ? s->loads : 1), name);
		for (b = 0; b < NB; b++)
			if (s->hist[b]) {
				if (b == NB - 1)
					fprintf(R->out, " sat:%" PRIu64, s->hist[b]);
				else
					fprintf(R->out, " %u-%u:%" PRIu64, b ? 1u << (b - 1) : 0u,
					       b ? (1u << b) - 1 : 0u, s->hist[b]);
			}
		fprintf(R->out, "\n");
	}

	fprintf(R->out, "\n== loads by data source (IMPLEMENTATION DEFINED values)\n%10s %6s  %s\n", "loads",
	       "%", "data source");
	for (i = 0; i < 65536; i++)
		if (R->ds[i])
			fprintf(R->out, "%10" PRIu64 " %5.2f%%  %#zx\n", R->ds[i],
			       100.0 * (double)R->ds[i] / (double)(R->loads ? R->loads : 1), i);
	fprintf(R->out, "\n== loads by cache event\n");
	{
		static const unsigned int evs[] = {
			SPE_EV_L1D_ACCESS, SPE_EV_L1D_REFILL, SPE_EV_L2D_ACCESS, SPE_EV_L2D_MISS,
			SPE_EV_LLC_ACCESS, SPE_EV_LLC_MISS, SPE_EV_TLB_ACCESS, SPE_EV_TLB_WALK,
			SPE_EV_REMOTE_ACCESS,
		};

		for (i = 0; i < sizeof(evs) / sizeof(evs[0]); i++)
			fprintf(R->out, "%10" PRIu64 " %5.2f%%  %s\n", R->ev_loads[evs[i]],
			       100.0 * (double)R->ev_loads[evs[i]] / (double)(R->loads ? R->loads : 1),
			       spe_event_name(evs[i]));
	}

	print_pcs(R, "mispredicted branches by PC", "mispred", offsetof(struct pcstat, mispred), n, ix);

	fprintf(R->out, "\n== false-sharing candidates: %u-byte lines accessed from several CPUs, with stores\n"
	       "%18s %7s %5s %8s %8s  %s\n", LINE, "line", "pid", "cpus", "loads", "stores",
	       "symbol (first store)");
	for (i = 0, k = 0; i < R->line_map.n && k < n; i++) {
		const struct linestat *l = &R->line[i];

		if (!l->stores || !(l->cpus & (l->cpus - 1)))
			continue;
		sym_name(&R->sym[l->sym], name, sizeof(name));
		fprintf(R->out, "%#18" PRIx64 " %7d %5d %8" PRIu64 " %8" PRIu64 "  %s\n", l->line * LINE, l->pid,
		       __builtin_popcountll(l->cpus), l->loads, l->stores, name);
		k++;
	}
	if (!k)
		fprintf(R->out, "  (none)\n");
	if (R->oom)
		fprintf(R->out, "\n(out of memory: %" PRIu64 " records not counted)\n", R->oom);
	free(ix);
}

int report_main(const struct opts_report *o, const uint8_t *buf, size_t len)
{
	struct perf_data pd;
	struct pdd_stats st;
	struct report *R = calloc(1, sizeof(*R));
	struct pdd_sink sink = { .record = report_record, .error = NULL };
	char err[256];

	if (!R)
		return 2;
	if (pd_open(&pd, buf, len, err, sizeof(err))) {
		fprintf(stderr, "spe-decode report: %s: %s\n", o->path ? o->path : "<stdin>", err);
		free(R);
		return 2;
	}
	R->o = o;
	R->out = o->out ? o->out : stdout;
	R->st = sym_open(&pd, o->symfs);
	sink.arg = R;
	if (!R->st || pdd_decode(&pd, o->flags, &sink, &st))
		R->oom = UINT64_MAX;
	else
		print_report(R, &st, o->top);
	sym_close(R->st);
	free(R->sym);
	free(R->pc);
	free(R->line);
	free(R->sym_map.key);
	free(R->sym_map.idx);
	free(R->pc_map.key);
	free(R->pc_map.idx);
	free(R->line_map.key);
	free(R->line_map.idx);
	pd_close(&pd);
	if (R->oom == UINT64_MAX) {
		fprintf(stderr, "spe-decode report: out of memory\n");
		free(R);
		return 2;
	}
	free(R);
	if (fflush(o->out ? o->out : stdout) || ferror(o->out ? o->out : stdout))
		return 2;
	return 0;
}
