// SPDX-License-Identifier: GPL-2.0
/*
 * spe_workload: a small, predictable program to profile with SPE.
 *
 *   spe_workload [SECONDS]        (default 1; fractions allowed)
 *
 * It spends most of its time in spe_hot(), which loads and stores 64-bit
 * words at pseudo-random indices of one static buffer (spe_buf), and the
 * rest in spe_branchy(), a loop of data-dependent conditional branches over
 * the same buffer. It prints, before the work starts, the ranges the tests
 * check samples against:
 *
 *   spe_workload: buf 0xSTART 0xEND        (end exclusive)
 *   spe_workload: text 0xSTART 0xEND
 *   spe_workload: spe_hot 0xADDR
 *   spe_workload: spe_branchy 0xADDR
 *   spe_workload: pid N
 *
 * and at the end "spe_workload: done rounds=N sum=0x...". Built static
 * and non-PIE, so these addresses are the link-time ones nm shows.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define BUF_WORDS (1u << 19)	/* 4 MiB */

/*
 * In .data, not .bss: perf resolves data addresses to symbols only in
 * file-backed mappings, and a static binary's .bss beyond its file is
 * anonymous memory. The file grows by 4 MiB of zeros (compressed away in
 * the initramfs).
 */
uint64_t spe_buf[BUF_WORDS] __attribute__((aligned(4096))) = { 1 };

extern char __executable_start[], etext[];

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Memory-bound: a linear congruential walk over spe_buf. */
__attribute__((noinline)) uint64_t spe_hot(uint64_t *buf, uint64_t seed, unsigned int n)
{
	uint64_t x = seed, sum = 0;
	unsigned int i;

	for (i = 0; i < n; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		sum += buf[(x >> 20) & (BUF_WORDS - 1)];
		buf[(x >> 40) & (BUF_WORDS - 1)] = sum ^ x;
	}
	return sum;
}

/* Branch-bound: unpredictable conditional branches on the buffer's bits. */
__attribute__((noinline)) uint64_t spe_branchy(const uint64_t *buf, unsigned int start,
					      unsigned int n)
{
	uint64_t acc = 0;
	unsigned int i;

	for (i = 0; i < n; i++) {
		uint64_t v = buf[(start + i) & (BUF_WORDS - 1)];

		/* The empty asm statements keep these real branches (no csel). */
		if (v & 1) {
			acc += v >> 3;
			__asm__ volatile("");
		} else if (v & 2) {
			acc ^= v;
			__asm__ volatile("");
		} else {
			acc -= 7;
		}
		if ((v >> 7) & 1) {
			acc = acc * 3 + 1;
			__asm__ volatile("");
		}
	}
	return acc;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 1.0, t0;
	uint64_t sum = 88172645463325252ull;
	unsigned long rounds = 0;

	/*
	 * Write every page of spe_buf once before the timed loop: its
	 * first-touch (copy-on-write) faults would otherwise fall inside the
	 * loop and, on an emulated 2-vCPU guest whose vCPUs the host
	 * preempts, show up as a third of the profile in the kernel's page
	 * fault and spinlock paths instead of the program's own hot spots.
	 */
	for (size_t i = 0; i < BUF_WORDS; i += 4096 / sizeof(spe_buf[0]))
		spe_buf[i] = i;
	printf("spe_workload: buf %p %p\n", (void *)spe_buf, (void *)(spe_buf + BUF_WORDS));
	printf("spe_workload: text %p %p\n", (void *)__executable_start, (void *)etext);
	printf("spe_workload: spe_hot %p\n", (void *)spe_hot);
	printf("spe_workload: spe_branchy %p\n", (void *)spe_branchy);
	printf("spe_workload: pid %d\n", (int)getpid());
	fflush(stdout);
	t0 = now();
	do {
		/* About 4:1 in time between the two. */
		sum += spe_hot(spe_buf, sum + rounds, 1u << 15);
		sum += spe_branchy(spe_buf, (unsigned int)rounds * 4096u, 1u << 13);
		rounds++;
	} while (now() - t0 < secs);
	printf("spe_workload: done rounds=%lu sum=0x%llx\n", rounds, (unsigned long long)sum);
	return 0;
}
