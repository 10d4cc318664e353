/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * spe-decode report (report.c): top symbols and PCs, load latency per
 * symbol, data sources and cache events, mispredicted branches and
 * false-sharing candidates of a perf.data file.
 */
#ifndef SPE_REPORT_H
#define SPE_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct opts_report {
	FILE *out;		/* the report (NULL: stdout) */
	const char *path;	/* for messages */
	const char *symfs;	/* look ELF files up under this directory first */
	size_t top;		/* rows per table */
	unsigned int flags;	/* SPE_DEC_* */
	unsigned int counter_bits;
};

/* Returns the exit status: 0, or 2 (not a readable perf.data, no memory). */
int report_main(const struct opts_report *o, const uint8_t *buf, size_t len);

#endif /* SPE_REPORT_H */
