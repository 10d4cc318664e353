// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * libFuzzer target for spe-decode's perf.data reader and decoder
 * (perf_data.c, perf_decode.c): arbitrary files must be refused with a
 * reason or decoded without a crash, every record attributed within the
 * bounds of its AUX area.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../perf_data.h"
#include "../perf_decode.h"

#define REQUIRE(c) do { if (!(c)) abort(); } while (0)

struct seen {
	uint64_t records, bytes;
};

static void rec(void *arg, const struct spe_record *r, const struct rec_ctx *c)
{
	struct seen *s = arg;

	REQUIRE(c->valid);
	REQUIRE(r->size >= 1 && r->size <= SPE_MAX_RECORD_LEN + SPE_MAX_PACKET_LEN);
	s->records++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perf_data pd;
	struct pdd_stats st;
	struct seen s = { 0, 0 };
	struct pdd_sink sink = { .arg = &s, .record = rec, .error = NULL };
	char err[256];
	unsigned int pass;

	if (pd_open(&pd, data, size, err, sizeof(err))) {
		REQUIRE(err[0] && strlen(err) < sizeof(err));
		return 0;
	}
	for (pass = 0; pass < 2; pass++) {
		s.records = 0;
		REQUIRE(pdd_decode(&pd, pass ? SPE_DEC_LEGACY_ALIGN : 0, &sink, &st) == 0);
		REQUIRE(st.dec.records == s.records);
	}
	pd_close(&pd);
	return 0;
}
