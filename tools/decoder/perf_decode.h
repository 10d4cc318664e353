/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Decoding the SPE records of a perf.data file (perf_data.h): each AUX
 * area's AUXTRACE pieces joined into one stream (spe_stream_*), every
 * record given its CPU, thread, process, command and the PERF_AUX_FLAG_*
 * of the PERF_RECORD_AUX that covers it.
 */
#ifndef SPE_PERF_DECODE_H
#define SPE_PERF_DECODE_H

#include <arm_spe/spe_decoder.h>
#include "perf_data.h"
#include "spe_format.h"

struct pdd_sink {
	void *arg;
	/* a decoded record; r->offset is the offset in its AUX area */
	void (*record)(void *arg, const struct spe_record *r, const struct rec_ctx *ctx);
	/* a decode error (err offsets in the AUX area's stream) */
	void (*error)(void *arg, const struct spe_error *err, const struct rec_ctx *ctx);
};

struct pdd_stats {
	struct spe_decoder_stats dec;	/* summed over the AUX areas */
	uint64_t areas, gaps;		/* AUX areas; discontinuities in one */
	uint64_t flagged[4];		/* records under TRUNCATED/OVERWRITE/PARTIAL/COLLISION */
};

/* Returns 0, or -1 (out of memory). */
int pdd_decode(const struct perf_data *pd, unsigned int flags, struct pdd_sink *sink,
	       struct pdd_stats *st);

#endif /* SPE_PERF_DECODE_H */
