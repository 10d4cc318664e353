// SPDX-License-Identifier: GPL-2.0
/*
 * pcsr_workload: pinned to the CPU given as its argument, runs pcsr_fa,
 * pcsr_fb and pcsr_fc (same loop, iteration counts 5:3:2) until killed. Prints "ready PID" once pinned, then the
 * three functions' address ranges, on stdout.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "pcsr_workload.h"

int main(int argc, char **argv)
{
	int cpu = argc > 1 ? atoi(argv[1]) : 1;

	if (pcsr_pin(cpu))
		return 1;
	printf("ready %d\n", (int)getpid());
	printf("pcsr_fa %p %p\n", (void *)pcsr_fa, (void *)pcsr_fa_end);
	printf("pcsr_fb %p %p\n", (void *)pcsr_fb, (void *)pcsr_fb_end);
	printf("pcsr_fc %p %p\n", (void *)pcsr_fc, (void *)pcsr_fc_end);
	fflush(stdout);
	pcsr_spin_forever(NULL);
	return 0;
}
