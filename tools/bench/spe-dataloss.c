// SPDX-License-Identifier: GPL-2.0
/*
 * spe-dataloss: the guest half of the driver data-loss benchmark
 * (tools/bench/data-loss.sh). One CPU-wide arm_spe event per CPU at the
 * minimum interval, a load/store workload pinned on every CPU, and one
 * reader per CPU draining the AUX area into memory (poll() on the event,
 * then a copy, as perf record does; the events sample the readers too, so
 * a reader that decoded as it went would make more records than it
 * consumed). At the end every byte is decoded with the project's decoder
 * and it prints what user space received; the host compares that with the
 * records the emulated SPU wrote (QEMU's spe-stats line).
 *
 *   spe-dataloss AUX_PAGES ITERATIONS [fifo]
 *
 * With "fifo" the readers run SCHED_FIFO, so that a wakeup preempts the
 * workload at once (a consumer that keeps up); without, they compete
 * with it under the normal scheduler (perf record's situation).
 *
 * Output (one line, "key=value" pairs):
 *   spe-dataloss: cpus=N period=P aux_pages=A fifo=0|1 expected=N
 *     records=N bytes=N
 *     decode_errors=N aux_records=N truncated=N partial=N collision=N
 *     lost=N overwritten=N drv_bytes=N drv_truncated=N drv_buffer_full=N
 *     drv_data_loss=N
 * Exit status 0 when it ran, 1 when it could not (no PMU, open failed).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "spe_lib.h"

#define MAX_CPUS	8
#define WL_WORDS	4096

static uint64_t wl_buf[MAX_CPUS][WL_WORDS];
static int use_fifo;
/* Workers start together, after every thread exists and the events run. */
static pthread_barrier_t go;

struct reader {
	int cpu;
	struct spe_session s;
	uint64_t records, bytes, decode_errors, overwritten, polls, wakeups;
	volatile int stop;
	pthread_t th;
};

struct worker {
	int cpu;
	uint64_t iters;
	pthread_t th;
};

/* Copy what the driver handed over (and consume the ring records). */
static void drain(struct reader *r)
{
	if (spe_session_collect(&r->s))
		r->overwritten++;
}

/* After the run: decode every byte received and count the records. */
static void decode_all(struct reader *r)
{
	struct spe_decoder d;
	struct spe_record rec;
	int ret;

	spe_decoder_init(&d, r->s.data, r->s.len, 0);
	while ((ret = spe_decoder_next(&d, &rec)) != 0) {
		if (ret < 0)
			r->decode_errors++;
		else
			r->records++;
	}
	r->bytes = r->s.len;
}

static void *reader_main(void *arg)
{
	struct reader *r = arg;
	struct pollfd pfd = { .fd = r->s.fd, .events = POLLIN };

	spe_pin_cpu(r->cpu);
	if (use_fifo) {
		struct sched_param sp = { .sched_priority = 10 };

		if (pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp))
			fprintf(stderr, "spe-dataloss: SCHED_FIFO: %s\n", strerror(errno));
	}
	while (!r->stop) {
		if (poll(&pfd, 1, 10) > 0)
			r->wakeups++;
		r->polls++;
		drain(r);
	}
	return NULL;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;

	spe_pin_cpu(w->cpu);
	pthread_barrier_wait(&go);
	spe_wl_ldst(wl_buf[w->cpu], WL_WORDS - 1, w->iters);
	return NULL;
}

int main(int argc, char **argv)
{
	static struct reader rd[MAX_CPUS];
	static struct worker wk[MAX_CPUS];
	struct spe_pmu_info p;
	struct perf_event_attr a;
	uint64_t tot[9] = { 0 };
	long long c0[4], c1[4];
	static const char *const ctr[4] = { "bytes", "truncated", "buffer_full", "data_loss" };
	int aux_pages, ncpu, i;
	uint64_t iters;

	if (argc < 3 || argc > 4 || (argc == 4 && strcmp(argv[3], "fifo"))) {
		fprintf(stderr, "usage: %s AUX_PAGES ITERATIONS [fifo]\n", argv[0]);
		return 1;
	}
	aux_pages = atoi(argv[1]);
	iters = strtoull(argv[2], NULL, 0);
	use_fifo = argc == 4;
	if (spe_pmu_find(&p)) {
		fprintf(stderr, "spe-dataloss: no arm_spe_N PMU (is arm_spe_perf loaded?)\n");
		return 1;
	}
	ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (ncpu > MAX_CPUS)
		ncpu = MAX_CPUS;
	for (i = 0; i < 4; i++)
		c0[i] = spe_counter(&p, ctr[i]);

	/* ts_enable=1, period = the minimum interval, kernel and user. */
	spe_attr_init(&a, &p, 1, p.min_interval);
	a.exclude_kernel = 0;
	a.aux_watermark = aux_pages * 4096 / 4;
	for (i = 0; i < ncpu; i++) {
		rd[i].cpu = i;
		if (spe_session_open(&rd[i].s, &a, -1, i, 16, aux_pages, 0)) {
			fprintf(stderr, "spe-dataloss: open on cpu %d: %s\n", i, strerror(errno));
			return 1;
		}
	}
	/*
	 * No address space changes while the events run: a reader that
	 * faults on the AUX pages while a thread stack is being mapped waits
	 * for the mmap lock, and the buffer fills meanwhile. So every thread
	 * is created and every AUX page touched before the events start.
	 */
	pthread_barrier_init(&go, NULL, ncpu + 1);
	for (i = 0; i < ncpu; i++) {
		volatile const uint8_t *aux = rd[i].s.aux;
		size_t off;

		for (off = 0; off < rd[i].s.aux_size; off += 4096)
			(void)aux[off];
		/*
		 * Room for the whole run (the workload's samples twice over),
		 * touched now: no realloc() or page fault while it runs.
		 */
		rd[i].s.cap = rd[i].s.aux_size +
			      2 * iters * SPE_WL_LDST_INSNS / (p.min_interval + 1) * 64;
		rd[i].s.data = malloc(rd[i].s.cap);
		if (!rd[i].s.data)
			return 1;
		memset(rd[i].s.data, 0, rd[i].s.cap);
		pthread_create(&rd[i].th, NULL, reader_main, &rd[i]);
	}
	for (i = 0; i < ncpu; i++) {
		wk[i].cpu = i;
		wk[i].iters = iters;
		pthread_create(&wk[i].th, NULL, worker_main, &wk[i]);
	}
	for (i = 0; i < ncpu; i++)
		spe_enable(&rd[i].s);
	pthread_barrier_wait(&go);
	for (i = 0; i < ncpu; i++)
		pthread_join(wk[i].th, NULL);
	for (i = 0; i < ncpu; i++)
		spe_disable(&rd[i].s);
	for (i = 0; i < ncpu; i++) {
		rd[i].stop = 1;
		pthread_join(rd[i].th, NULL);
		drain(&rd[i]);
		decode_all(&rd[i]);
		tot[0] += rd[i].records;
		tot[1] += rd[i].bytes;
		tot[2] += rd[i].decode_errors;
		tot[3] += rd[i].s.n_aux_recs;
		tot[4] += rd[i].s.n_truncated;
		tot[5] += rd[i].s.n_partial;
		tot[6] += rd[i].s.n_collision;
		tot[7] += rd[i].s.n_lost;
		tot[8] += rd[i].overwritten;
		spe_session_close(&rd[i].s);
	}
	for (i = 0; i < 4; i++)
		c1[i] = spe_counter(&p, ctr[i]);
	/* The workload alone: SPE_WL_LDST_INSNS a loop, one sample per P + 1. */
	printf("spe-dataloss: cpus=%d period=%ld aux_pages=%d fifo=%d expected=%llu records=%llu bytes=%llu decode_errors=%llu aux_records=%llu truncated=%llu partial=%llu collision=%llu lost=%llu overwritten=%llu drv_bytes=%lld drv_truncated=%lld drv_buffer_full=%lld drv_data_loss=%lld polls=%llu,%llu wakeups=%llu,%llu\n",
	       ncpu, p.min_interval, aux_pages, use_fifo,
	       (unsigned long long)(ncpu * iters * SPE_WL_LDST_INSNS / (p.min_interval + 1)),
	       (unsigned long long)tot[0], (unsigned long long)tot[1],
	       (unsigned long long)tot[2], (unsigned long long)tot[3],
	       (unsigned long long)tot[4], (unsigned long long)tot[5],
	       (unsigned long long)tot[6], (unsigned long long)tot[7],
	       (unsigned long long)tot[8], c1[0] - c0[0], c1[1] - c0[1],
	       c1[2] - c0[2], c1[3] - c0[3],
	       (unsigned long long)rd[0].polls, (unsigned long long)rd[ncpu > 1].polls,
	       (unsigned long long)rd[0].wakeups, (unsigned long long)rd[ncpu > 1].wakeups);
	return 0;
}
