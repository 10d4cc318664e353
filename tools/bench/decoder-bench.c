// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Decoder benchmark harness (driven by tools/bench/decoder-bench.sh).
 *
 *   decoder-bench run FILE [REPS [EXPECTED]]
 *                                  time a plain read of the bytes (the
 *                                  machine's read bandwidth), our decoder
 *                                  (record and packet iterators) and, when
 *                                  built with -DHAVE_PERF_DECODER, perf's
 *                                  arm-spe packet decoder on the same bytes;
 *                                  EXPECTED is decoder-gen's output line;
 *                                  built with -DHAVE_BASE_DECODER, also a
 *                                  baseline revision's iterators (base_*)
 *   decoder-bench perf-proc FILE   perf's decoder as a whole process
 *   decoder-bench time REPS CMD..  best CPU and wall seconds of a command
 *
 * Traces come from tools/bench/decoder-gen.c, which does not use the
 * project's encoder.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <arm_spe/spe_decoder.h>

#include "spe_internal.h"	/* spe__layout_count() */

/*
 * CPU time of this process: on a shared machine, time spent descheduled
 * would otherwise count against whichever decoder was running. Wall-clock
 * figures are printed too.
 */
static double cpu_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static double wall_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

struct result {
	uint64_t records, packets, errors, sum, pad;
};

/* Read bandwidth: sum the buffer as 64-bit words (four independent chains). */
static void read_bw(const uint8_t *buf, size_t len, struct result *res)
{
	uint64_t a = 0, b = 0, c = 0, e = 0, w[4];
	size_t i;

	for (i = 0; i + 32 <= len; i += 32) {
		memcpy(w, buf + i, 32);
		a += w[0];
		b += w[1];
		c += w[2];
		e += w[3];
	}
	res->sum = a + b + c + e;
	res->records = res->packets = res->errors = res->pad = 0;
}

/*
 * The same sum with the widest loads the CPU has (GCC's target clones pick
 * AVX-512, AVX2 or the baseline at load time): on some machines one core's
 * 64-bit loads do not reach the memory's bandwidth, and a share of it
 * would then flatter the decoders.
 */
typedef uint64_t u64x8 __attribute__((vector_size(64)));

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("avx512f", "avx2", "default")))
#endif
static uint64_t sum_wide(const uint8_t *buf, size_t len)
{
	u64x8 s0 = { 0 }, s1 = { 0 }, w0, w1;
	uint64_t sum = 0;
	size_t i;
	int k;

	for (i = 0; i + 128 <= len; i += 128) {
		memcpy(&w0, buf + i, 64);
		memcpy(&w1, buf + i + 64, 64);
		s0 += w0;
		s1 += w1;
	}
	s0 += s1;
	for (k = 0; k < 8; k++)
		sum += s0[k];
	return sum;
}

static void read_bw_wide(const uint8_t *buf, size_t len, struct result *res)
{
	res->sum = sum_wide(buf, len);
	res->records = res->packets = res->errors = res->pad = 0;
}

/* stats.packets excludes padding in both iterators (spe_decoder.h) */
static void from_stats(struct result *res, const struct spe_decoder_stats *st, uint64_t sum)
{
	res->records = st->records;
	res->packets = st->packets;
	res->errors = st->errors;
	res->pad = st->pad_bytes;
	res->sum = sum;
}

/*
 * The record and packet loops, instantiated for our library (spe_*) and for
 * a baseline revision's (base_spe_*), so that both run the same code.
 */
#define ITERATOR_LOOPS(name, pfx)						\
static void name##_records(const uint8_t *buf, size_t len, struct result *res)	\
{										\
	struct spe_decoder d;							\
	struct spe_record r;							\
	uint64_t sum = 0;							\
	int ret;								\
										\
	pfx##spe_decoder_init(&d, buf, len, 0);					\
	while ((ret = pfx##spe_decoder_next(&d, &r)) != 0) {			\
		if (ret < 0)							\
			continue;						\
		sum += r.addr[0] + r.timestamp + r.counter[0];			\
	}									\
	from_stats(res, &d.stats, sum);						\
}										\
										\
static void name##_packets(const uint8_t *buf, size_t len, struct result *res)	\
{										\
	struct spe_decoder d;							\
	struct spe_packet p;							\
	uint64_t sum = 0;							\
	int ret;								\
										\
	pfx##spe_decoder_init(&d, buf, len, 0);					\
	while ((ret = pfx##spe_decoder_next_packet(&d, &p)) != 0) {		\
		if (ret < 0)							\
			continue;						\
		sum += p.payload;	/* 0 for padding */			\
	}									\
	from_stats(res, &d.stats, sum);						\
}

ITERATOR_LOOPS(ours, )

/* The batch iterators: the same sums over the same records and packets. */
#define REC_BATCH 64
#define PKT_BATCH 256
#define BATCH_LOOPS(name, pfx)							\
static void name##_records_batch(const uint8_t *buf, size_t len, struct result *res)	\
{										\
	static struct spe_record r[REC_BATCH];					\
	struct spe_decoder d;							\
	uint64_t sum = 0;							\
	int ret, k;								\
										\
	pfx##spe_decoder_init(&d, buf, len, 0);					\
	while ((ret = pfx##spe_decoder_next_records(&d, r, REC_BATCH)) != 0)	\
		for (k = 0; k < ret; k++)					\
			sum += r[k].addr[0] + r[k].timestamp + r[k].counter[0];	\
	from_stats(res, &d.stats, sum);						\
}										\
										\
static void name##_packets_batch(const uint8_t *buf, size_t len, struct result *res)	\
{										\
	static struct spe_packet p[PKT_BATCH];					\
	struct spe_decoder d;							\
	uint64_t sum = 0;							\
	int ret, k;								\
										\
	pfx##spe_decoder_init(&d, buf, len, 0);					\
	while ((ret = pfx##spe_decoder_next_packets(&d, p, PKT_BATCH)) != 0)	\
		for (k = 0; k < ret; k++)					\
			sum += p[k].payload;					\
	from_stats(res, &d.stats, sum);						\
}

BATCH_LOOPS(ours, )

/*
 * Which way our batches went in their last run: records by their layouts,
 * of them by a second chain and strided, and records whose packets the
 * layouts gave (spe_rec_layout.c's counts, for this thread).
 */
static uint64_t way_rec, way_second, way_strided, way_pkt;

static void ours_records_batch_ways(const uint8_t *buf, size_t len, struct result *res)
{
	uint64_t r0 = spe__layout_count(0), s0 = spe__layout_count(1);
	uint64_t t0 = spe__layout_count(4);

	ours_records_batch(buf, len, res);
	way_rec = spe__layout_count(0) - r0;
	way_second = spe__layout_count(1) - s0;
	way_strided = spe__layout_count(4) - t0;
}

static void ours_packets_batch_ways(const uint8_t *buf, size_t len, struct result *res)
{
	uint64_t p0 = spe__layout_count(3);

	ours_packets_batch(buf, len, res);
	way_pkt = spe__layout_count(3) - p0;
}

#ifdef HAVE_BASE_DECODER
/* the same API from another revision's library, symbols renamed base_spe_* */
void base_spe_decoder_init(struct spe_decoder *d, const void *buf, size_t len,
			   unsigned int flags);
int base_spe_decoder_next(struct spe_decoder *d, struct spe_record *rec);
int base_spe_decoder_next_packet(struct spe_decoder *d, struct spe_packet *pkt);
int base_spe_decoder_next_records(struct spe_decoder *d, struct spe_record *recs,
				  unsigned int max);
int base_spe_decoder_next_packets(struct spe_decoder *d, struct spe_packet *pkts,
				  unsigned int max);

ITERATOR_LOOPS(base, base_)
BATCH_LOOPS(base, base_)
#endif

#ifdef HAVE_PERF_DECODER
void perf_bench_packets(const uint8_t *buf, size_t len, uint64_t out[4]);

static void perf_packets(const uint8_t *buf, size_t len, struct result *res)
{
	uint64_t out[4];

	perf_bench_packets(buf, len, out);
	res->records = out[0];
	res->packets = out[1];
	res->errors = out[2];
	res->sum = out[3];
	res->pad = 0;
}
#endif

typedef void (*bench_fn)(const uint8_t *, size_t, struct result *);

struct bench {
	const char *name;
	bench_fn fn;
	double cpu, wall;	/* best of the runs */
	struct result res;
};

/*
 * Time every bench reps times, round robin (one run of each, then the next
 * round), so that a change in the machine's load during the run weighs on
 * all of them alike; keep each one's best CPU and wall-clock time.
 */
static void time_all(struct bench *b, int n, const uint8_t *buf, size_t len, int reps)
{
	int i, k;

	for (k = 0; k < n; k++)
		b[k].cpu = b[k].wall = 1e30;
	for (i = 0; i < reps; i++) {
		for (k = 0; k < n; k++) {
			double w0 = wall_now(), t0 = cpu_now(), t, w;

			b[k].fn(buf, len, &b[k].res);
			t = cpu_now() - t0;
			w = wall_now() - w0;
			if (t < b[k].cpu)
				b[k].cpu = t;
			if (w < b[k].wall)
				b[k].wall = w;
		}
	}
}

static uint8_t *load(const char *path, size_t *lenp)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long sz;

	if (!f || fseek(f, 0, SEEK_END) || (sz = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		fprintf(stderr, "decoder-bench: cannot read %s: %s\n", path, strerror(errno));
		return NULL;
	}
	buf = malloc(sz ? (size_t)sz : 1);
	if (!buf || fread(buf, 1, (size_t)sz, f) != (size_t)sz) {
		fprintf(stderr, "decoder-bench: cannot read %s\n", path);
		return NULL;
	}
	fclose(f);
	*lenp = (size_t)sz;
	return buf;
}

/*
 * Compare a decoder's counts with the generator's (decoder-gen prints
 * "records R packets P pad_bytes B payload_sum S"). perf's loop reports
 * no padding count and its checksum covers the same payloads.
 */
static int check(const char *who, const struct result *r, const struct result *x, int pad)
{
	if (r->records == x->records && r->packets == x->packets && r->sum == x->sum &&
	    (!pad || r->pad == x->pad) && !r->errors)
		return 0;
	printf("MISMATCH %s: records %" PRIu64 "/%" PRIu64 " packets %" PRIu64 "/%" PRIu64
	       " pad %" PRIu64 "/%" PRIu64 " sum %s, errors %" PRIu64 " (decoder/generator)\n",
	       who, r->records, x->records, r->packets, x->packets, r->pad, x->pad,
	       r->sum == x->sum ? "same" : "differs", r->errors);
	return 1;
}

/* "name  MB/s [wall MB/s]  " : the caller prints the rest of the line */
static void row(const struct bench *b, double mb)
{
	printf("%-36s %8.1f MB/s [%7.1f]  ", b->name, mb / b->cpu, mb / b->wall);
}

/* the two iterators' stats must agree (spe_decoder.h) */
static int same_stats(const char *who, const struct result *rr, const struct result *rp)
{
	if (rr->packets == rp->packets && rr->pad == rp->pad && rr->records == rp->records)
		return 0;
	printf("MISMATCH%s: the two iterators' stats differ (packets %" PRIu64 "/%" PRIu64
	       ", pad %" PRIu64 "/%" PRIu64 ")\n", who, rr->packets, rp->packets, rr->pad, rp->pad);
	return 1;
}

enum {
	B_BW, B_BWV, B_REC, B_PKT, B_RECB, B_PKTB, B_PERF, B_BASE_REC, B_BASE_PKT, B_BASE_RECB,
	B_BASE_PKTB, B_NR
};

static int run(const char *path, int reps, const char *expect)
{
	struct bench b[B_NR] = {
		[B_BW] = { "memory read bandwidth (64-bit sum)", read_bw },
		[B_BWV] = { "memory read bandwidth (vector sum)", read_bw_wide },
		[B_REC] = { "ours: records (spe_decoder_next)", ours_records },
		[B_PKT] = { "ours: packets (next_packet)", ours_packets },
		[B_RECB] = { "ours: records (next_records, 64)", ours_records_batch_ways },
		[B_PKTB] = { "ours: packets (next_packets, 256)", ours_packets_batch_ways },
#ifdef HAVE_PERF_DECODER
		[B_PERF] = { "perf: arm_spe_get_packet loop", perf_packets },
#endif
#ifdef HAVE_BASE_DECODER
		[B_BASE_REC] = { "base: records (spe_decoder_next)", base_records },
		[B_BASE_PKT] = { "base: packets (next_packet)", base_packets },
		[B_BASE_RECB] = { "base: records (next_records, 64)", base_records_batch },
		[B_BASE_PKTB] = { "base: packets (next_packets, 256)", base_packets_batch },
#endif
	};
	struct bench *run_b[B_NR];
	size_t len;
	uint8_t *buf = load(path, &len);
	double mb, bw_cpu;
	struct result x = { 0 }, *rr = &b[B_REC].res, *rp = &b[B_PKT].res;
	int bad = 0, have_x = 0, n = 0, k;

	if (!buf)
		return 1;
	if (expect && sscanf(expect, "records %" SCNu64 " packets %" SCNu64 " pad_bytes %" SCNu64
			     " payload_sum %" SCNu64, &x.records, &x.packets, &x.pad, &x.sum) == 4)
		have_x = 1;
	mb = (double)len / 1e6;
	printf("trace: %s, %.1f MB, best of %d runs (round robin), MB = 10^6 bytes,\n"
	       "MB/s per CPU second (wall clock in brackets)\n", path, mb, reps);
	for (k = 0; k < B_NR; k++)
		if (b[k].fn)
			run_b[n++] = &b[k];
	{
		struct bench tmp[B_NR];

		for (k = 0; k < n; k++)
			tmp[k] = *run_b[k];
		time_all(tmp, n, buf, len, reps);
		for (k = 0; k < n; k++)
			*run_b[k] = tmp[k];
	}
	row(&b[B_BW], mb);
	printf("(checksum %" PRIx64 ")\n", b[B_BW].res.sum);
	row(&b[B_BWV], mb);
	printf("(checksum %" PRIx64 ")\n", b[B_BWV].res.sum);
	/* the machine's read bandwidth: the faster of the two sums */
	bw_cpu = b[B_BWV].cpu < b[B_BW].cpu ? b[B_BWV].cpu : b[B_BW].cpu;
	printf("read bandwidth for the shares: %.1f MB/s (the faster sum)\n", mb / bw_cpu);
	if (b[B_BWV].res.sum != b[B_BW].res.sum && len % 128 == 0) {
		printf("MISMATCH bandwidth: the two sums differ\n");
		bad = 1;
	}
	row(&b[B_REC], mb);
	printf("(%" PRIu64 " records, %" PRIu64 " errors)\n", rr->records, rr->errors);
	row(&b[B_PKT], mb);
	printf("(%" PRIu64 " packets excl. padding, %" PRIu64 " errors)\n", rp->packets, rp->errors);
	bad |= same_stats("", rr, rp);
	row(&b[B_RECB], mb);
	printf("(%" PRIu64 " records, %" PRIu64 " errors)\n", b[B_RECB].res.records,
	       b[B_RECB].res.errors);
	row(&b[B_PKTB], mb);
	printf("(%" PRIu64 " packets excl. padding, %" PRIu64 " errors)\n",
	       b[B_PKTB].res.packets, b[B_PKTB].res.errors);
	if (memcmp(&b[B_RECB].res, rr, sizeof(*rr)) || memcmp(&b[B_PKTB].res, rp, sizeof(*rp))) {
		printf("MISMATCH batch: the batch iterators' counts or checksums differ\n");
		bad = 1;
	}
	if (have_x) {
		struct result rr2 = *rr;

		rr2.sum = rp->sum;	/* the record loop sums other fields */
		bad |= check("record iterator", &rr2, &x, 1);
		bad |= check("packet iterator", rp, &x, 1);
	}
	printf("share of read bandwidth: records %.1f%%, packets %.1f%%, batches %.1f%%, %.1f%%\n",
	       100.0 * bw_cpu / b[B_REC].cpu, 100.0 * bw_cpu / b[B_PKT].cpu,
	       100.0 * bw_cpu / b[B_RECB].cpu, 100.0 * bw_cpu / b[B_PKTB].cpu);
	if (rr->records)
		printf("ours: batches by record layouts (last run): records %.1f%% (%.1f%% of "
		       "them by a second chain, %.1f%% strided), packets of %.1f%% of the "
		       "records\n", 100.0 * (double)way_rec / (double)rr->records,
		       way_rec ? 100.0 * (double)way_second / (double)way_rec : 0.0,
		       way_rec ? 100.0 * (double)way_strided / (double)way_rec : 0.0,
		       100.0 * (double)way_pkt / (double)rr->records);
	if (b[B_BASE_REC].fn) {
		struct result *br = &b[B_BASE_REC].res, *bp = &b[B_BASE_PKT].res;

		row(&b[B_BASE_REC], mb);
		printf("(%" PRIu64 " records, %" PRIu64 " errors)\n", br->records, br->errors);
		row(&b[B_BASE_PKT], mb);
		printf("(%" PRIu64 " packets excl. padding, %" PRIu64 " errors)\n", bp->packets, bp->errors);
		if (memcmp(br, rr, sizeof(*br)) || memcmp(bp, rp, sizeof(*bp))) {
			printf("MISMATCH base: its counts or checksums differ from ours\n");
			bad = 1;
		}
#ifdef BASE_REV
		printf("baseline: %s\n", BASE_REV);
#endif
		printf("ratio ours/base: records %.2fx, packets %.2fx\n",
		       b[B_BASE_REC].cpu / b[B_REC].cpu, b[B_BASE_PKT].cpu / b[B_PKT].cpu);
		row(&b[B_BASE_RECB], mb);
		printf("(%" PRIu64 " records, %" PRIu64 " errors)\n", b[B_BASE_RECB].res.records,
		       b[B_BASE_RECB].res.errors);
		row(&b[B_BASE_PKTB], mb);
		printf("(%" PRIu64 " packets excl. padding, %" PRIu64 " errors)\n",
		       b[B_BASE_PKTB].res.packets, b[B_BASE_PKTB].res.errors);
		if (memcmp(&b[B_BASE_RECB].res, rr, sizeof(*rr)) ||
		    memcmp(&b[B_BASE_PKTB].res, rp, sizeof(*rp))) {
			printf("MISMATCH base: its batch counts or checksums differ from ours\n");
			bad = 1;
		}
		printf("ratio batch ours/base: records %.2fx, packets %.2fx\n",
		       b[B_BASE_RECB].cpu / b[B_RECB].cpu, b[B_BASE_PKTB].cpu / b[B_PKTB].cpu);
	}
	if (b[B_PERF].fn) {
		struct result *rf = &b[B_PERF].res;

		row(&b[B_PERF], mb);
		printf("(%" PRIu64 " packets excl. padding, %" PRIu64 " errors)\n", rf->packets, rf->errors);
		if (have_x)
			bad |= check("perf's decoder", rf, &x, 0);
		else if (rf->packets != rp->packets || rf->sum != rp->sum || rf->records != rr->records)
			bad |= check("perf's decoder", rf, rp, 0);
		if (!bad)
			printf("cross-check: same records, packets and payload checksum%s\n",
			       have_x ? " as the generator wrote" : "");
		printf("ratio ours/perf: records %.2fx, packets %.2fx\n",
		       b[B_PERF].cpu / b[B_REC].cpu, b[B_PERF].cpu / b[B_PKT].cpu);
		printf("ratio batch/perf: records %.2fx, packets %.2fx\n",
		       b[B_PERF].cpu / b[B_RECB].cpu, b[B_PERF].cpu / b[B_PKTB].cpu);
		if (b[B_BASE_REC].fn)
			printf("ratio base/perf: records %.2fx, packets %.2fx\n",
			       b[B_PERF].cpu / b[B_BASE_REC].cpu, b[B_PERF].cpu / b[B_BASE_PKT].cpu);
	} else {
		printf("perf: arm_spe_get_packet            unavailable (see messages above)\n");
	}
	free(buf);
	return bad;
}

/* perf's decoder as a whole process: read the file, decode every packet. */
static int perf_proc(const char *path)
{
#ifdef HAVE_PERF_DECODER
	size_t len;
	uint8_t *buf = load(path, &len);
	struct result r;

	if (!buf)
		return 1;
	perf_packets(buf, len, &r);
	printf("records %" PRIu64 " packets %" PRIu64 "\n", r.records, r.packets);
	free(buf);
	return 0;
#else
	(void)path;
	return 1;
#endif
}

/* Best CPU time (user + sys) of REPS runs of a command, stdout to /dev/null. */
static int time_cmd(int reps, char **argv)
{
	double best = 1e30, bw = 1e30;
	int i;

	for (i = 0; i < reps; i++) {
		struct rusage ru;
		int st;
		double w0 = wall_now(), t;
		pid_t pid = fork();

		if (pid == 0) {
			int fd = open("/dev/null", O_WRONLY);

			dup2(fd, 1);
			execvp(argv[0], argv);
			_exit(127);
		}
		if (pid < 0 || wait4(pid, &st, 0, &ru) != pid)
			return 2;
		if (!WIFEXITED(st) || WEXITSTATUS(st)) {
			fprintf(stderr, "decoder-bench: %s exited with status %d\n", argv[0],
				WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
			return 1;
		}
		t = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 +
		    (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec * 1e-6;
		if (t < best)
			best = t;
		if (wall_now() - w0 < bw)
			bw = wall_now() - w0;
	}
	printf("%.4f %.4f\n", best, bw);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "run"))
		return run(argv[2], argc > 3 ? atoi(argv[3]) : 3, argc > 4 ? argv[4] : NULL);
	if (argc == 3 && !strcmp(argv[1], "perf-proc"))
		return perf_proc(argv[2]);
	if (argc >= 4 && !strcmp(argv[1], "time"))
		return time_cmd(atoi(argv[2]), argv + 3);
	fprintf(stderr, "usage: decoder-bench run FILE [REPS [EXPECTED]] |\n"
		"       perf-proc FILE | time REPS CMD [ARG]...\n");
	return 2;
}
