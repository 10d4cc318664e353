// SPDX-License-Identifier: GPL-2.0
/*
 * spe_model_workload: memory access and branch patterns whose behaviour in
 * caches and branch predictors is known in advance, for the tests of the
 * emulator's memory-hierarchy and branch predictor models (perf mem, perf
 * c2c, mispredicted branches).
 *
 *   spe_model_workload chase KIB SECONDS
 *	Pointer chasing through the 64-byte lines of a KIB-KiB buffer (KIB
 *	a power of two) in a scattered order that visits every line once per
 *	round: every load depends on the previous one and lands far from it,
 *	so the loads are served from the smallest cache level that holds KIB
 *	KiB. The links are written in address order, so setting up adds no
 *	scattered loads of its own.
 *   spe_model_workload share ROUNDS SECONDS [padded]
 *	Two threads on CPUs 0 and 1 take turns (mem_turn, a line of its own)
 *	to increment each its own counter of mem_share (in .data), ROUNDS
 *	times each or until SECONDS have passed. The two counters share one
 *	64-byte line (false sharing: on its turn, each thread's load finds
 *	the line modified in the other CPU's cache, at least once per round
 *	however the host schedules the vCPUs) or, with "padded", lie 128
 *	bytes apart (each counter's line is only ever in its thread's CPU).
 *   spe_model_workload branch SECONDS
 *	A loop (mem_branchy) with one conditional branch on a pseudo-random
 *	bit, which no predictor can learn (mispredicted about half the
 *	time), and its loop branch, taken every time but the last.
 *
 * It prints the ranges the tests check samples against,
 *
 *   spe_model_workload: buf 0xSTART 0xEND      (chase; end exclusive)
 *   spe_model_workload: line 0xADDR            (share: the first counter's line)
 *   spe_model_workload: branchy 0xSTART 0xEND  (branch: mem_branchy's code,
 *                                               a range that holds it)
 *
 * and "spe_model_workload: done loads=N" at the end (share: "done
 * loads=N rounds=R", R the rounds both threads completed). Static and
 * non-PIE.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define LINE 64

struct line {
	struct line *next;
	char pad[LINE - sizeof(struct line *)];
};

/* In .data (file-backed), so that perf resolves its addresses to symbols */
struct {
	volatile uint64_t a;
	char pad[120];
	volatile uint64_t b;
} mem_share __attribute__((aligned(LINE))) = { .a = 1 };

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

__attribute__((noinline)) struct line *mem_chase(struct line *p, unsigned long n)
{
	while (n--)
		p = p->next;
	return p;
}

static int chase(unsigned long kib, double secs)
{
	unsigned long n = kib * 1024 / LINE, i, loads = 0;
	struct line *buf, *p;
	double end;

	if (!n || (n & (n - 1))) {
		fprintf(stderr, "spe_model_workload: KIB must be a power of two\n");
		return 2;
	}
	buf = aligned_alloc(4096, n * LINE);
	if (!buf) {
		fprintf(stderr, "spe_model_workload: cannot allocate %lu KiB\n", kib);
		return 1;
	}
	/*
	 * Line i links to line (A * i + C) mod n: with n a power of two, A = 1
	 * mod 4 and C odd this is a single cycle through all n lines
	 * (Hull-Dobell), and consecutive lines of the cycle are far apart.
	 */
	for (i = 0; i < n; i++)
		buf[i].next = &buf[(i * 0x5851f42d4c957f2dul + 0x14057b7ef767814ful) & (n - 1)];
	printf("spe_model_workload: buf %#lx %#lx\n", (unsigned long)buf,
	       (unsigned long)(buf + n));
	fflush(stdout);

	p = buf;
	end = now() + secs;
	do {
		p = mem_chase(p, 4096);
		loads += 4096;
	} while (now() < end);
	printf("spe_model_workload: done loads=%lu %p\n", loads, (void *)p);
	return 0;
}

/* Whose turn it is to increment its counter (0 or 1), and the end */
static struct {
	volatile int turn;
	volatile int stop;
} mem_turn __attribute__((aligned(LINE)));

struct share_arg {
	volatile uint64_t *v;
	int cpu;
	unsigned long rounds;
	double end;
	unsigned long done;
};

/* One turn: wait for it, increment this thread's counter, hand over */
__attribute__((noinline)) int mem_share_turn(volatile uint64_t *v, int me)
{
	while (mem_turn.turn != me)
		if (mem_turn.stop)
			return 0;
	(*v)++;
	mem_turn.turn = !me;
	return 1;
}

static void *share_thread(void *p)
{
	struct share_arg *a = p;
	unsigned long done = 0;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(a->cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
	/* done in a register: the two share_args lie in one line */
	while (done < a->rounds && mem_share_turn(a->v, a->cpu)) {
		done++;
		/* CPU 0 keeps the time, and stops both threads */
		if (!a->cpu && !(done & 1023) && now() >= a->end)
			mem_turn.stop = 1;
	}
	/* The other thread may still be waiting for a turn */
	mem_turn.stop = 1;
	a->done = done;
	return NULL;
}

static int share(unsigned long rounds, double secs, int padded)
{
	struct share_arg t[2] = {
		{ .v = &mem_share.a, .cpu = 0, .rounds = rounds },
		{ .v = padded ? &mem_share.b : &mem_share.a + 1, .cpu = 1, .rounds = rounds },
	};
	pthread_t th;

	printf("spe_model_workload: line %#lx\n", (unsigned long)&mem_share.a);
	fflush(stdout);
	t[0].end = t[1].end = now() + secs;
	if (pthread_create(&th, NULL, share_thread, &t[1])) {
		fprintf(stderr, "spe_model_workload: pthread_create failed\n");
		return 1;
	}
	share_thread(&t[0]);
	pthread_join(th, NULL);
	printf("spe_model_workload: done loads=%lu rounds=%lu\n", t[0].done + t[1].done,
	       t[0].done < t[1].done ? t[0].done : t[1].done);
	return 0;
}

/*
 * The conditional branches are written out (TBZ, B.NE) so that the
 * compiler cannot turn them into conditional selects.
 */
__attribute__((noinline)) uint64_t mem_branchy(uint64_t x, unsigned long n)
{
	uint64_t hits = 0;

	__asm__ volatile(
		"1:	madd	%[x], %[x], %[a], %[c]\n"
		"	tbz	%[x], #63, 2f\n"
		"	add	%[h], %[h], #1\n"
		"2:	subs	%[n], %[n], #1\n"
		"	b.ne	1b\n"
		: [x] "+r"(x), [h] "+r"(hits), [n] "+r"(n)
		: [a] "r"(6364136223846793005ull), [c] "r"(1442695040888963407ull)
		: "cc");
	return hits;
}

static int branch(double secs)
{
	unsigned long loops = 0;
	uint64_t x = 1, h = 0;
	double end = now() + secs;

	printf("spe_model_workload: branchy %#lx %#lx\n", (unsigned long)mem_branchy,
	       (unsigned long)mem_branchy + 64);
	fflush(stdout);
	do {
		h += mem_branchy(x + loops, 4096);
		loops += 4096;
	} while (now() < end);
	printf("spe_model_workload: done loops=%lu hits=%lu\n", loops, (unsigned long)h);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 4 && !strcmp(argv[1], "chase"))
		return chase(strtoul(argv[2], NULL, 0), atof(argv[3]));
	if (argc >= 3 && !strcmp(argv[1], "branch"))
		return branch(atof(argv[2]));
	if (argc >= 4 && !strcmp(argv[1], "share"))
		return share(strtoul(argv[2], NULL, 0), atof(argv[3]),
			     argc > 4 && !strcmp(argv[4], "padded"));
	fprintf(stderr, "usage: spe_model_workload chase KIB SECONDS | share ROUNDS SECONDS [padded] | branch SECONDS\n");
	return 2;
}
