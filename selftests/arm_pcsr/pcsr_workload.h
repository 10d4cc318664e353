/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The three-function workload (pcsr_workload.S) and its driver loop, shared
 * by pcsr_test and the pcsr_workload program.
 */
#ifndef PCSR_WORKLOAD_H
#define PCSR_WORKLOAD_H

#define _GNU_SOURCE
#include <sched.h>
#include <stdint.h>
#include <stdio.h>

void pcsr_fa(uint64_t n);
void pcsr_fb(uint64_t n);
void pcsr_fc(uint64_t n);
extern char pcsr_fa_end[], pcsr_fb_end[], pcsr_fc_end[];

/* Iterations per round: 5:3:2 of 10 * PCSR_UNIT */
#define PCSR_UNIT	50000

static inline int pcsr_pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("sched_setaffinity");
		return -1;
	}
	return 0;
}

static inline uint64_t pcsr_cntvct(void)
{
	uint64_t v;

	__asm__ volatile("isb; mrs %0, cntvct_el0" : "=r"(v) :: "memory");
	return v;
}

/*
 * Run the three functions for ever, adding the generic timer ticks spent
 * in each to ticks[0..2] (when not NULL): the time shares that the
 * samples must reproduce, measured rather than assumed.
 */
static inline void __attribute__((noreturn))
pcsr_spin_forever(volatile uint64_t *ticks)
{
	static void (*const fn[3])(uint64_t) = { pcsr_fa, pcsr_fb, pcsr_fc };
	static const uint64_t units[3] = { 5, 3, 2 };
	uint64_t t0, t1;
	int i;

	for (;;) {
		for (i = 0; i < 3; i++) {
			t0 = pcsr_cntvct();
			fn[i](units[i] * PCSR_UNIT);
			t1 = pcsr_cntvct();
			if (ticks)
				ticks[i] += t1 - t0;
		}
	}
}

#endif
