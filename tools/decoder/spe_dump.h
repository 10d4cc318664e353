/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * spe-decode --dump: a raw trace or a perf.data file's AUX data, packet
 * by packet, one line a packet (offset, bytes, description), records
 * separated by blank lines, errors on lines of their own.
 */
#ifndef SPE_DUMP_H
#define SPE_DUMP_H

#include <stdio.h>

#include <arm_spe/spe_decoder.h>
#include "perf_data.h"

/* What the caller does with each decoded record and error (may be NULL). */
struct dump_hooks {
	void *arg;
	void (*record)(void *arg, const struct spe_record *r);
	void (*error)(void *arg, const struct spe_decoder *d);
};

/*
 * The packets of buf[from, to). flags: SPE_DEC_*; with SPE_DEC_LEGACY_ALIGN
 * an Alignment command skips to the boundary it encodes, base being the
 * address of buf[0].
 */
void dump_packets(FILE *out, const uint8_t *buf, size_t from, size_t to, unsigned int flags,
		  uint64_t base);
/*
 * A whole raw trace, record by record. d is initialised here; its stats
 * are the trace's afterwards.
 */
void dump_trace(FILE *out, struct spe_decoder *d, const uint8_t *buf, size_t len,
		unsigned int flags, uint64_t base, const struct dump_hooks *h);
/* Each AUXTRACE piece of a perf.data file, as it is in the file. */
void dump_perf(FILE *out, const struct perf_data *pd);

#endif /* SPE_DUMP_H */
