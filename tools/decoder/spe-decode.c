// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * spe-decode: print an Arm SPE raw AUX buffer dump as a packet dump, as JSON
 * Lines (one object per record) or as a summary.
 *
 * Exit status: 0 success; 1 decode errors were found (0 with --lenient),
 * or with --strict a record flagged extra (unknown, reserved, IMPDEF or
 * Alignment packets); 2 usage or I/O error. See Documentation/decoder.rst.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <arm_spe/spe_decoder.h>

#include "latency.h"
#include "outbuf.h"
#include "perf_data.h"
#include "perf_decode.h"
#include "report.h"
#include "spe_dump.h"
#include "spe_format.h"

enum mode { MODE_DUMP, MODE_JSON, MODE_CSV, MODE_SUMMARY };

struct opts {
	enum mode mode;
	int lenient;
	int strict;
	int perf;
	unsigned int flags;
	unsigned int counter_bits;
	unsigned long max_errors;
	uint64_t base;
	const char *path;
};

static const char *prog = "spe-decode";

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: %s [OPTION]... [FILE]\n"
		"       %s report [--top N] [--symfs DIR] [perf.data]   (see report --help)\n"
		"Decode an Arm SPE raw AUX buffer dump or a perf.data file recorded with\n"
		"perf record -e arm_spe// (FILE, or standard input when FILE is absent or\n"
		"'-'). With perf.data, records carry their cpu, pid, tid, comm and the\n"
		"flags of the PERF_RECORD_AUX covering them; --dump prints each AUXTRACE\n"
		"piece.\n"
		"\n"
		"Output (pick one, default --dump):\n"
		"  -d, --dump            packet-by-packet dump, records separated by blank lines\n"
		"  -j, --json            JSON Lines: one object per record\n"
		"  -c, --csv             CSV: a header line, then one row per record (fixed\n"
		"                        columns, see Documentation/decoder.rst)\n"
		"  -s, --summary         records by operation type, events, latency histogram\n"
		"\n"
		"Input:\n"
		"      --perf-data       FILE is a perf.data file (the default when it starts\n"
		"                        with \"PERFILE\"): any other content is an error\n"
		"\n"
		"Decoding:\n"
		"  -l, --lenient         exit 0 even when decode errors were found\n"
		"  -S, --strict          exit 1 also when a record holds an unknown packet or a\n"
		"                        reserved, IMPLEMENTATION DEFINED or Alignment packet\n"
		"                        (flagged extra)\n"
		"      --legacy-align    honour SPE 2017 supplement Alignment commands (skip to\n"
		"                        the boundary they encode); default: report and ignore\n"
		"      --base=ADDR       buffer address of the first byte (for --legacy-align)\n"
		"      --counter-bits=N  12 or 16 (default 16): width used to flag saturated\n"
		"                        counters\n"
		"      --max-errors=N    print at most N error messages (default 20; all are\n"
		"                        counted)\n"
		"  -h, --help            show this help and exit\n"
		"  -V, --version         show version and exit\n"
		"\n"
		"Errors (truncated records, reserved headers, records without End or\n"
		"Timestamp) are reported on standard error with their byte offset;\n"
		"decoding resynchronizes at the next record boundary. Unknown packets\n"
		"are skipped by the size their header encodes and reported, but are not\n"
		"errors unless --strict.\n"
		"\n"
		"Exit status: 0 ok, 1 decode errors (unless --lenient) or, with --strict,\n"
		"records flagged extra; 2 usage or I/O error.\n",
		prog, prog);
}

static int parse_u64(const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 0);
	return errno || !*s || *end || *s == '-' ? -1 : 0;
}

static int input_mapped;

/* Is standard input a pipe or socket (not a file that can be mapped)? */
static int stdin_is_pipe(void)
{
	struct stat st;

	return !fstat(0, &st) && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode));
}

static void free_input(uint8_t *buf, size_t len)
{
	if (input_mapped)
		munmap(buf, len);
	else
		free(buf);
}

/* Read (or map) the whole input. Returns 0, or -1 with a message printed. */
static int read_input(const char *path, uint8_t **out, size_t *outlen)
{
	int fd = 0;
	size_t cap = 1 << 16, len = 0;
	uint8_t *buf;
	struct stat st;
	const char *name = path ? path : "<stdin>";

	if (path && strcmp(path, "-")) {
		fd = open(path, O_RDONLY);
		if (fd < 0) {
			fprintf(stderr, "%s: cannot open '%s': %s\n", prog, path, strerror(errno));
			return -1;
		}
	} else {
		name = "<stdin>";
	}
	if (!fstat(fd, &st)) {
		if (S_ISDIR(st.st_mode)) {
			fprintf(stderr, "%s: cannot read '%s': Is a directory\n", prog, name);
			if (fd)
				close(fd);
			return -1;
		}
		if (S_ISREG(st.st_mode) && st.st_size > 0) {
			/* a regular file is mapped: no copy, no page clearing */
			void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);

			if (m != MAP_FAILED) {
				madvise(m, (size_t)st.st_size, MADV_SEQUENTIAL);
				if (fd)
					close(fd);
				*out = m;
				*outlen = (size_t)st.st_size;
				input_mapped = 1;
				return 0;
			}
			cap = (size_t)st.st_size + 1;
		}
	}
	buf = malloc(cap);
	if (!buf) {
		fprintf(stderr, "%s: out of memory reading '%s'\n", prog, name);
		goto fail;
	}
	for (;;) {
		ssize_t n;

		if (len == cap) {
			uint8_t *nb = realloc(buf, cap * 2);

			if (!nb) {
				fprintf(stderr, "%s: out of memory reading '%s'\n", prog, name);
				goto fail;
			}
			buf = nb;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "%s: cannot read '%s': %s\n", prog, name, strerror(errno));
			goto fail;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	if (fd)
		close(fd);
	*out = buf;
	*outlen = len;
	return 0;
fail:
	free(buf);
	if (fd)
		close(fd);
	return -1;
}

static unsigned long errors_printed;

static void report_error_at(const struct opts *o, const struct spe_error *e)
{
	if (errors_printed++ >= o->max_errors)
		return;
	fprintf(stderr, "%s: error at offset 0x%" PRIx64 " (%" PRIu64 "): %s; resuming at 0x%" PRIx64 "\n",
		prog, e->offset, e->offset, spe_strerror(e->code), e->resume);
	if (errors_printed == o->max_errors)
		fprintf(stderr, "%s: further errors not shown\n", prog);
}

static void report_error(const struct opts *o, const struct spe_decoder *d)
{
	if (errors_printed++ >= o->max_errors)
		return;
	fprintf(stderr, "%s: error at offset 0x%" PRIx64 " (%" PRIu64 "): %s; resuming at 0x%" PRIx64 "\n",
		prog, d->err.offset, d->err.offset, spe_strerror(d->err.code), d->err.resume);
	if (errors_printed == o->max_errors)
		fprintf(stderr, "%s: further errors not shown\n", prog);
}

static void report_unknown(const struct opts *o, uint64_t off, const struct spe_extra_pkt *x)
{
	if (errors_printed++ >= o->max_errors)
		return;
	fprintf(stderr, "%s: warning: %s packet (header 0x%02x%s) at offset 0x%" PRIx64 " skipped\n",
		prog, x->type == SPE_PKT_UNKNOWN ? "unknown" : "reserved/impdef", x->hdr0,
		SPE_HDR_IS_EXT(x->hdr0) ? " ext" : "", off);
}

/* ---------------- summary ---------------- */

#define NBUCKETS LAT_BUCKETS

struct summary {
	uint64_t by_op[SPE_OP_NR_KINDS][2];
	uint64_t no_op;
	uint64_t events[64];
	uint64_t ts_records, end_records;
	uint64_t hist[NBUCKETS];
	uint64_t cnt_n[SPE_REC_NCNT], cnt_sum[SPE_REC_NCNT];
	uint16_t cnt_min[SPE_REC_NCNT], cnt_max[SPE_REC_NCNT];
	uint64_t extra;
	/*
	 * Events words counted as they come (a direct-mapped cache: a trace
	 * has few distinct ones), added to events[] bit by bit only when a
	 * slot is reused and by summary_flush(): a loop over the set bits of
	 * every record's word mispredicts its exit.
	 */
	uint64_t ev_word[64], ev_count[64];
};

/* calloc, with cnt_min[] at its largest (read only when cnt_n[] > 0) */
static struct summary *summary_new(void)
{
	struct summary *s = calloc(1, sizeof(*s));
	unsigned int i;

	if (s)
		for (i = 0; i < SPE_REC_NCNT; i++)
			s->cnt_min[i] = UINT16_MAX;
	return s;
}

static void ev_spill(struct summary *s, unsigned int k)
{
	uint64_t ev = s->ev_word[k], n = s->ev_count[k];
	unsigned int b;

	for (b = 0; ev; b++, ev >>= 1)
		if (ev & 1)
			s->events[b] += n;
	s->ev_count[k] = 0;
}

static void summary_flush(struct summary *s)
{
	unsigned int k;

	for (k = 0; k < 64; k++)
		ev_spill(s, k);
}

/*
 * Operation Type kind and store flag by CLASS/SUBCLASS, from spe_op_decode()
 * once per pair (1 + kind * 2 + store; 0: not yet decoded).
 */
static uint8_t op_kind_store[4][256];

static void summary_add(const struct opts *o, struct summary *s, const struct spe_record *r)
{
	unsigned int i, sat = o->counter_bits == 12 ? SPE_CNT_SAT12 : SPE_CNT_SAT16;
	uint32_t present = r->present;

	if (present & SPE_REC_OP) {
		uint8_t *ks = &op_kind_store[r->op_class & 3u][r->op_subclass];

		if (!*ks) {
			struct spe_op op;

			spe_op_decode(r->op_class, r->op_subclass, &op);
			*ks = (uint8_t)(1 + op.kind * 2 + !!op.store);
		}
		s->by_op[(*ks - 1) / 2][(*ks - 1) % 2]++;
	} else {
		s->no_op++;
	}
	if (present & SPE_REC_EVENTS) {
		uint64_t ev = r->events;
		unsigned int k = (unsigned int)((ev * 0x9e3779b97f4a7c15ull) >> 58);

		if (s->ev_word[k] != ev) {
			ev_spill(s, k);
			s->ev_word[k] = ev;
		}
		s->ev_count[k]++;
	}
	s->ts_records += !!(present & SPE_REC_TIMESTAMP);
	s->end_records += !(present & SPE_REC_TIMESTAMP);
	/* without a branch on which counters the record has */
	for (i = 0; i < SPE_REC_NCNT; i++) {
		unsigned int c = r->counter[i], m = (present / SPE_REC_CNT(i)) & 1u;
		unsigned int lo = s->cnt_min[i], hi = s->cnt_max[i];

		lo = m && c < lo ? c : lo;
		hi = m && c > hi ? c : hi;
		s->cnt_min[i] = (uint16_t)lo;
		s->cnt_max[i] = (uint16_t)hi;
		s->cnt_n[i] += m;
		s->cnt_sum[i] += c;	/* 0 when not present (spe_decoder.h) */
	}
	if (present & SPE_REC_CNT(SPE_CNT_IDX_TOTAL))
		s->hist[lat_bucket(r->counter[SPE_CNT_IDX_TOTAL], sat)]++;
	s->extra += r->n_extra;
}

static void summary_print(struct summary *s, const struct spe_decoder *d, size_t len)
{
	unsigned int i, k;
	uint64_t hmax = 0;

	summary_flush(s);
	printf("bytes:            %zu\n", len);
	printf("records:          %" PRIu64 " (timestamp-terminated %" PRIu64 ", end-terminated %" PRIu64 ")\n",
	       d->stats.records, s->ts_records, s->end_records);
	printf("packets:          %" PRIu64 "\n", d->stats.packets);
	printf("padding bytes:    %" PRIu64 "\n", d->stats.pad_bytes);
	printf("unknown packets:  %" PRIu64 " (unknown/reserved/impdef kept aside: %" PRIu64 ")\n",
	       d->stats.unknown, s->extra);
	printf("decode errors:    %" PRIu64 " (bytes skipped %" PRIu64 ")\n",
	       d->stats.errors, d->stats.skipped_bytes);

	printf("\nrecords by operation type:\n");
	for (k = 0; k < SPE_OP_NR_KINDS; k++)
		for (i = 0; i < 2; i++) {
			char name[48];
			const char *dir = "";

			if (!s->by_op[k][i])
				continue;
			if (k >= SPE_OP_LDST_GP && k <= SPE_OP_LDST_GCS)
				dir = i ? " store" : " load";
			snprintf(name, sizeof(name), "%s%s", spe_op_kind_name(k), dir);
			printf("  %-24s %12" PRIu64 "\n", name, s->by_op[k][i]);
		}
	if (s->no_op)
		printf("  %-24s %12" PRIu64 "\n", "(no op-type packet)", s->no_op);

	printf("\nevents:\n");
	for (i = 0; i < 64; i++) {
		const char *n = spe_event_name(i);
		char buf[32];

		if (!s->events[i])
			continue;
		if (!n) {
			snprintf(buf, sizeof(buf), "e%u", i);
			n = buf;
		}
		printf("  %-24s %12" PRIu64 "\n", n, s->events[i]);
	}

	printf("\nlatency counters (min/mean/max):\n");
	for (i = 0; i < SPE_REC_NCNT; i++) {
		if (!s->cnt_n[i])
			continue;
		printf("  %-24s %" PRIu64 " samples, %u / %.1f / %u\n", spe_counter_index_name(i),
		       s->cnt_n[i], s->cnt_min[i], (double)s->cnt_sum[i] / (double)s->cnt_n[i],
		       s->cnt_max[i]);
	}

	printf("\ntotal latency histogram (cycles):\n");
	for (i = 0; i < NBUCKETS; i++)
		if (s->hist[i] > hmax)
			hmax = s->hist[i];
	for (i = 0; i < NBUCKETS; i++) {
		char range[32];
		unsigned int bar;

		if (!s->hist[i])
			continue;
		if (i == 0)
			snprintf(range, sizeof(range), "0");
		else if (i == NBUCKETS - 1)
			snprintf(range, sizeof(range), "saturated");
		else if (i == 1)
			snprintf(range, sizeof(range), "1");
		else
			snprintf(range, sizeof(range), "%u-%u", 1u << (i - 1), (1u << i) - 1);
		bar = (unsigned int)((s->hist[i] * 40 + hmax - 1) / hmax);
		printf("  %-12s %12" PRIu64 " %.*s\n", range, s->hist[i], (int)bar,
		       "########################################");
	}
}

/* Flush the record output (ob may be NULL) and stdout: 0, or -1 with a message. */
static int finish_output(struct outbuf *ob)
{
	if (ob) {
		if (ob_flush(ob)) {
			fprintf(stderr, "%s: write error: %s\n", prog, strerror(ob->err));
			return -1;
		}
		free(ob);
	}
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "%s: write error: %s\n", prog, strerror(errno));
		return -1;
	}
	return 0;
}

/* ---------------- records ---------------- */

/* Warn about a record's unknown packets; count it when it holds extras. */
static void count_extra(const struct opts *o, const struct spe_record *r, uint64_t *extra_records)
{
	unsigned int i;

	if (!r->n_extra)
		return;
	(*extra_records)++;
	for (i = 0; i < r->n_extra && i < SPE_REC_NEXTRA; i++)
		if (r->extra[i].type == SPE_PKT_UNKNOWN)
			report_unknown(o, r->offset + r->extra[i].rel_offset, &r->extra[i]);
}

/* --dump of a raw trace: errors and unknown packets reported on stderr */
struct dump_out {
	const struct opts *o;
	uint64_t *extra_records;
};

static void dump_record(void *arg, const struct spe_record *r)
{
	const struct dump_out *dh = arg;

	count_extra(dh->o, r, dh->extra_records);
}

static void dump_error(void *arg, const struct spe_decoder *d)
{
	const struct dump_out *dh = arg;

	report_error(dh->o, d);
}

/* One record of a raw trace, in the --json, --csv or --summary modes. */
static void handle_record(const struct opts *o, const struct spe_record *r, struct outbuf *ob,
			  struct summary *sum, uint64_t *extra_records)
{
	count_extra(o, r, extra_records);
	if (o->mode == MODE_JSON)
		fmt_json_record(ob, r, o->counter_bits, NULL);
	else if (o->mode == MODE_CSV)
		fmt_csv_record(ob, r, o->counter_bits, NULL);
	else
		summary_add(o, sum, r);
}

/* ---------------- perf.data ---------------- */

struct perf_out {
	const struct opts *o;
	struct outbuf *ob;
	struct summary *sum;
	uint64_t extra_records;
};

static void perf_record(void *arg, const struct spe_record *r, const struct rec_ctx *c)
{
	struct perf_out *po = arg;
	unsigned int i;

	if (r->n_extra) {
		po->extra_records++;
		for (i = 0; i < r->n_extra && i < SPE_REC_NEXTRA; i++)
			if (r->extra[i].type == SPE_PKT_UNKNOWN)
				report_unknown(po->o, r->offset + r->extra[i].rel_offset, &r->extra[i]);
	}
	switch (po->o->mode) {
	case MODE_JSON:
		fmt_json_record(po->ob, r, po->o->counter_bits, c);
		break;
	case MODE_CSV:
		fmt_csv_record(po->ob, r, po->o->counter_bits, c);
		break;
	default:
		summary_add(po->o, po->sum, r);
		break;
	}
}

static void perf_error(void *arg, const struct spe_error *e, const struct rec_ctx *c)
{
	struct perf_out *po = arg;

	if (errors_printed++ >= po->o->max_errors)
		return;
	fprintf(stderr, "%s: error in the AUX data of cpu %d tid %d at offset 0x%" PRIx64 ": %s; "
		"resuming at 0x%" PRIx64 "\n", prog, c->cpu, c->tid, e->offset,
		spe_strerror(e->code), e->resume);
}

static uint64_t aux_bytes(const struct perf_data *pd)
{
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < pd->n_chunk; i++)
		n += pd->chunk[i].size;
	return n;
}

/*
 * spe-decode on a perf.data file. Returns the exit status: 2 for a file
 * that cannot be read as perf.data, else as for a raw dump.
 */
static int perf_main(const struct opts *o, const uint8_t *buf, size_t len)
{
	static const char *const flag_name[4] = { "truncated", "overwrite", "partial", "collision" };
	struct perf_data pd;
	struct pdd_stats st;
	struct perf_out po = { .o = o };
	struct pdd_sink sink = { .arg = &po, .record = perf_record, .error = perf_error };
	char err[256];
	int rc = 0;
	unsigned int b;

	if (pd_open(&pd, buf, len, err, sizeof(err))) {
		fprintf(stderr, "%s: %s: %s\n", prog, o->path ? o->path : "<stdin>", err);
		return 2;
	}
	if (o->mode == MODE_DUMP) {
		dump_perf(stdout, &pd);
		pd_close(&pd);
		return 0;
	}
	if (o->mode == MODE_SUMMARY) {
		po.sum = summary_new();
		if (!po.sum)
			return 2;
	} else {
		po.ob = malloc(sizeof(*po.ob));
		if (!po.ob)
			return 2;
		ob_init(po.ob, 1);
		if (o->mode == MODE_CSV)
			fmt_csv_header(po.ob);
	}
	if (pdd_decode(&pd, o->flags, &sink, &st)) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return 2;
	}
	if (po.sum) {
		struct spe_decoder d;

		memset(&d, 0, sizeof(d));
		d.stats = st.dec;
		printf("perf.data:        %zu bytes, %" PRIu64 " records, %zu AUXTRACE pieces "
		       "in %" PRIu64 " AUX areas (%" PRIu64 " discontinuities), %zu PERF_RECORD_AUX, "
		       "%" PRIu64 " PERF_RECORD_LOST, %zu tasks\n", len, pd.n_records, pd.n_chunk,
		       st.areas, st.gaps, pd.n_aux, pd.n_lost, pd.n_task);
		for (b = 0; b < 4; b++)
			if (st.flagged[b])
				printf("  SPE records in %s AUX ranges: %" PRIu64 "\n", flag_name[b],
				       st.flagged[b]);
		summary_print(po.sum, &d, (size_t)aux_bytes(&pd));
		free(po.sum);
	}
	if (finish_output(po.ob))
		return 2;
	if (o->strict && po.extra_records) {
		fprintf(stderr, "%s: --strict: %" PRIu64 " record%s with unknown, reserved, "
			"IMPLEMENTATION DEFINED or Alignment packets\n", prog, po.extra_records,
			po.extra_records == 1 ? "" : "s");
		rc = 1;
	}
	if (st.dec.errors) {
		fprintf(stderr, "%s: %" PRIu64 " decode error%s in the AUX data (%" PRIu64
			" records decoded)%s\n", prog, st.dec.errors, st.dec.errors == 1 ? "" : "s",
			st.dec.records, o->lenient ? "; --lenient: exit status 0" : "");
		if (!o->lenient)
			rc = 1;
	}
	pd_close(&pd);
	return rc;
}

/* ---------------- a raw trace from a pipe ---------------- */

/*
 * Decode a raw trace on standard input as it arrives, with the streaming
 * decoder (bounded memory, the same records and errors as a whole-buffer
 * decode). Returns the exit status; or -1 when the input may be a
 * perf.data file (it starts like "PERFILE"): then *pbuf and *plen hold
 * the whole input, read to its end, for the caller.
 */
static int stream_main(const struct opts *o, uint8_t **pbuf, size_t *plen)
{
	size_t cap = SPE_STREAM_MIN_CAP(o->flags) + (1u << 16), chunk = 1u << 16;
	uint8_t *win = malloc(cap), *in = malloc(chunk);
	struct summary *sum = o->mode == MODE_SUMMARY ? summary_new() : NULL;
	struct outbuf *ob = o->mode != MODE_SUMMARY ? malloc(sizeof(*ob)) : NULL;
	struct spe_stream s;
	struct spe_record rec;
	uint64_t total = 0, extra = 0;
	int r, rc = 0, finished = 0;

	if (!win || !in || (!sum && !ob)) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return 2;
	}
	if (ob) {
		ob_init(ob, 1);
		if (o->mode == MODE_CSV)
			fmt_csv_header(ob);
	}
	spe_stream_init(&s, win, cap, o->flags);
	spe_stream_set_addr(&s, o->base);
	while (!finished) {
		ssize_t got = read(0, in, chunk);
		size_t fed = 0;

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			fprintf(stderr, "%s: cannot read '<stdin>': %s\n", prog, strerror(errno));
			return 2;
		}
		if (!total && got > 0 && !memcmp(in, "PERFILE", (size_t)got < 7 ? (size_t)got : 7)) {
			/* perhaps perf.data: read it all for the caller */
			size_t len = (size_t)got, bcap = chunk * 4;
			uint8_t *buf = malloc(bcap);

			if (!buf)
				return 2;
			memcpy(buf, in, len);
			for (;;) {
				if (len == bcap) {
					uint8_t *nb = realloc(buf, bcap *= 2);

					if (!nb)
						return 2;
					buf = nb;
				}
				got = read(0, buf + len, bcap - len);
				if (got < 0 && errno == EINTR)
					continue;
				if (got <= 0)
					break;
				len += (size_t)got;
			}
			free(win);
			free(in);
			free(sum);
			free(ob);
			*pbuf = buf;
			*plen = len;
			return -1;
		}
		if (got == 0) {
			spe_stream_finish(&s);
			finished = 1;
		}
		total += (uint64_t)got;
		do {
			fed += spe_stream_write(&s, in + fed, (size_t)got - fed);
			while ((r = spe_stream_next(&s, &rec)) != 0) {
				if (r < 0) {
					report_error_at(o, &s.err);
					continue;
				}
				handle_record(o, &rec, ob, sum, &extra);
			}
		} while (fed < (size_t)got);
	}
	if (sum) {
		summary_print(sum, &s.d, (size_t)total);
		free(sum);
	}
	if (finish_output(ob))
		return 2;
	if (o->strict && extra) {
		fprintf(stderr, "%s: --strict: %" PRIu64 " record%s with unknown, reserved, "
			"IMPLEMENTATION DEFINED or Alignment packets (%" PRIu64 " unknown packets)\n",
			prog, extra, extra == 1 ? "" : "s", s.d.stats.unknown);
		rc = 1;
	}
	if (s.d.stats.errors) {
		fprintf(stderr, "%s: %" PRIu64 " decode error%s in %" PRIu64 " bytes (%" PRIu64
			" records decoded)%s\n", prog, s.d.stats.errors,
			s.d.stats.errors == 1 ? "" : "s", total, s.d.stats.records,
			o->lenient ? "; --lenient: exit status 0" : "");
		if (!o->lenient)
			rc = 1;
	}
	free(win);
	free(in);
	return rc;
}

/* spe-decode report [--top N] [--symfs DIR] [--legacy-align] [FILE] */
static int report_cmd(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "top", required_argument, NULL, 'n' },
		{ "symfs", required_argument, NULL, 'y' },
		{ "legacy-align", no_argument, NULL, 'A' },
		{ "counter-bits", required_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct opts_report o = { .top = 10, .counter_bits = 16 };
	uint8_t *buf;
	size_t len;
	uint64_t v;
	int c, rc;

	while ((c = getopt_long(argc, argv, "n:h", lopts, NULL)) != -1) {
		switch (c) {
		case 'n':
			if (parse_u64(optarg, &v) || !v || v > 100000) {
				fprintf(stderr, "%s report: invalid --top value '%s'\n", prog, optarg);
				return 2;
			}
			o.top = (size_t)v;
			break;
		case 'y': o.symfs = optarg; break;
		case 'A': o.flags |= SPE_DEC_LEGACY_ALIGN; break;
		case 'C':
			if (parse_u64(optarg, &v) || (v != 12 && v != 16)) {
				fprintf(stderr, "%s report: --counter-bits must be 12 or 16\n", prog);
				return 2;
			}
			o.counter_bits = (unsigned int)v;
			break;
		case 'h':
			printf("Usage: %s report [--top N] [--symfs DIR] [--counter-bits 12|16] "
			       "[--legacy-align] [perf.data]\n"
			       "Top symbols and PCs, load latency per symbol, data sources and cache\n"
			       "events, mispredicted branches and false-sharing candidates of a\n"
			       "perf.data file recorded with perf record -e arm_spe//. ELF files named\n"
			       "by its MMAP2 records are read from DIR/<path> or DIR/<name> first\n"
			       "(--symfs), then from <path>.\n", prog);
			return 0;
		default:
			fprintf(stderr, "Try '%s report --help' for more information.\n", prog);
			return 2;
		}
	}
	if (argc - optind > 1) {
		fprintf(stderr, "%s report: too many arguments (expected at most one FILE)\n", prog);
		return 2;
	}
	o.path = optind < argc ? argv[optind] : "perf.data";
	if (read_input(o.path, &buf, &len))
		return 2;
	rc = report_main(&o, buf, len);
	free_input(buf, len);
	return rc;
}

int main(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "dump", no_argument, NULL, 'd' },
		{ "json", no_argument, NULL, 'j' },
		{ "csv", no_argument, NULL, 'c' },
		{ "summary", no_argument, NULL, 's' },
		{ "lenient", no_argument, NULL, 'l' },
		{ "strict", no_argument, NULL, 'S' },
		{ "perf-data", no_argument, NULL, 'P' },
		{ "legacy-align", no_argument, NULL, 'A' },
		{ "base", required_argument, NULL, 'B' },
		{ "counter-bits", required_argument, NULL, 'C' },
		{ "max-errors", required_argument, NULL, 'E' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct opts o = { .mode = MODE_DUMP, .counter_bits = 16, .max_errors = 20 };
	struct spe_decoder d;
	struct dump_out dh;
	struct summary *sum = NULL;
	struct outbuf *ob = NULL;
	uint8_t *buf;
	size_t len;
	uint64_t extra_records = 0;
	int c, nmodes = 0, r;
	uint64_t v;

	if (argc > 1 && !strcmp(argv[1], "report"))
		return report_cmd(argc - 1, argv + 1);
	while ((c = getopt_long(argc, argv, "djcslShV", lopts, NULL)) != -1) {
		switch (c) {
		case 'd': o.mode = MODE_DUMP; nmodes++; break;
		case 'j': o.mode = MODE_JSON; nmodes++; break;
		case 'c': o.mode = MODE_CSV; nmodes++; break;
		case 's': o.mode = MODE_SUMMARY; nmodes++; break;
		case 'l': o.lenient = 1; break;
		case 'S': o.strict = 1; break;
		case 'P': o.perf = 1; break;
		case 'A': o.flags |= SPE_DEC_LEGACY_ALIGN; break;
		case 'B':
			if (parse_u64(optarg, &o.base)) {
				fprintf(stderr, "%s: invalid --base value '%s'\n", prog, optarg);
				return 2;
			}
			break;
		case 'C':
			if (parse_u64(optarg, &v) || (v != 12 && v != 16)) {
				fprintf(stderr, "%s: --counter-bits must be 12 or 16, not '%s'\n",
					prog, optarg);
				return 2;
			}
			o.counter_bits = (unsigned int)v;
			break;
		case 'E':
			if (parse_u64(optarg, &v)) {
				fprintf(stderr, "%s: invalid --max-errors value '%s'\n", prog, optarg);
				return 2;
			}
			o.max_errors = (unsigned long)v;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			printf("spe-decode %s\n", SPE_DECODER_VERSION);
			return 0;
		default:
			fprintf(stderr, "Try '%s --help' for more information.\n", prog);
			return 2;
		}
	}
	if (nmodes > 1) {
		fprintf(stderr, "%s: --dump, --json, --csv and --summary are mutually exclusive\n", prog);
		return 2;
	}
	if (o.lenient && o.strict) {
		fprintf(stderr, "%s: --lenient and --strict are mutually exclusive\n", prog);
		return 2;
	}
	if (argc - optind > 1) {
		fprintf(stderr, "%s: too many arguments (expected at most one FILE)\n", prog);
		fprintf(stderr, "Try '%s --help' for more information.\n", prog);
		return 2;
	}
	o.path = optind < argc ? argv[optind] : NULL;
	if (o.mode != MODE_DUMP && !o.perf && (!o.path || !strcmp(o.path, "-")) && stdin_is_pipe()) {
		/* a pipe: decode as the data arrives */
		r = stream_main(&o, &buf, &len);
		if (r >= 0)
			return r;
	} else if (read_input(o.path, &buf, &len)) {
		return 2;
	}
	if (o.perf || pd_is_perf_data(buf, len)) {
		int rc = perf_main(&o, buf, len);

		free_input(buf, len);
		return rc;
	}

	if (o.mode == MODE_SUMMARY) {
		sum = summary_new();
		if (!sum) {
			fprintf(stderr, "%s: out of memory\n", prog);
			return 2;
		}
	}
	if (o.mode == MODE_JSON || o.mode == MODE_CSV) {
		ob = malloc(sizeof(*ob));
		if (!ob) {
			fprintf(stderr, "%s: out of memory\n", prog);
			return 2;
		}
		ob_init(ob, 1);
		if (o.mode == MODE_CSV)
			fmt_csv_header(ob);
	}
	if (o.mode == MODE_DUMP) {
		struct dump_hooks hooks = { .arg = &dh, .record = dump_record, .error = dump_error };

		dh.o = &o;
		dh.extra_records = &extra_records;
		dump_trace(stdout, &d, buf, len, o.flags, o.base, &hooks);
	} else {
		spe_decoder_init(&d, buf, len, o.flags);
		d.buf_addr = o.base;
	}
	/* --summary, --json and --csv take records in batches */
	while (o.mode != MODE_DUMP) {
		static struct spe_record recs[64];
		int k;

		r = spe_decoder_next_records(&d, recs, 64);
		if (r == 0)
			break;
		if (r < 0) {
			report_error(&o, &d);
			continue;
		}
		for (k = 0; k < r; k++)
			handle_record(&o, &recs[k], ob, sum, &extra_records);
	}
	if (o.mode == MODE_SUMMARY)
		summary_print(sum, &d, len);
	if (finish_output(ob))
		return 2;
	if (o.strict && extra_records) {
		fprintf(stderr, "%s: --strict: %" PRIu64 " record%s with unknown, reserved, "
			"IMPLEMENTATION DEFINED or Alignment packets (%" PRIu64 " unknown packets)\n",
			prog, extra_records, extra_records == 1 ? "" : "s", d.stats.unknown);
		if (!d.stats.errors) {
			free(sum);
			free_input(buf, len);
			return 1;
		}
	}
	if (d.stats.errors) {
		fprintf(stderr, "%s: %" PRIu64 " decode error%s in %zu bytes (%" PRIu64 " records decoded)%s\n",
			prog, d.stats.errors, d.stats.errors == 1 ? "" : "s", len, d.stats.records,
			o.lenient ? "; --lenient: exit status 0" : "");
		free(sum);
		free_input(buf, len);
		return o.lenient ? 0 : 1;
	}
	free(sum);
	free_input(buf, len);
	return 0;
}
