// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * libFuzzer target for spe-decode report (report.c) on perf.data files:
 * a file pd_open() refuses gives exit status 2 and no report; any other
 * gives status 0 and the whole report: the title line first, then every
 * table's title in order, whole lines, no NUL byte. Built without libelf:
 * no file a perf.data names is opened.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <arm_spe/spe_decoder.h>

#include "../perf_data.h"
#include "../report.h"

#define REQUIRE(c) do { if (!(c)) abort(); } while (0)

static const char *const tables[] = {
	"\n== top symbols by samples\n",
	"\n== top PCs by samples\n",
	"\n== loads by total latency, per symbol",
	"\n== loads by data source",
	"\n== loads by cache event\n",
	"\n== mispredicted branches by PC\n",
	"\n== false-sharing candidates",
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct opts_report o = { .top = 3, .counter_bits = 16, .path = "fuzz" };
	struct perf_data pd;
	char err[256], *text = NULL, *at;
	size_t len = 0, i;
	int refused, rc;

	refused = pd_open(&pd, data, size, err, sizeof(err));
	if (!refused)
		pd_close(&pd);
	else if (size % 16)
		return 0;	/* pd_open()'s refusals: fuzz_perfdata's; a few here */
	o.flags = size && (data[size - 1] & 1) ? SPE_DEC_LEGACY_ALIGN : 0;
	o.counter_bits = size && (data[size - 1] & 2) ? 12 : 16;
	o.out = open_memstream(&text, &len);
	REQUIRE(o.out);
	rc = report_main(&o, data, size);
	REQUIRE(!fclose(o.out));
	if (refused) {
		REQUIRE(rc == 2 && len == 0);
	} else {
		REQUIRE(rc == 0);
		REQUIRE(len && text[len - 1] == '\n' && !memchr(text, 0, len));
		REQUIRE(!strncmp(text, "spe-decode report: ", 19));
		for (at = text, i = 0; i < sizeof(tables) / sizeof(tables[0]); i++) {
			at = strstr(at, tables[i]);
			REQUIRE(at);
		}
	}
	free(text);
	return 0;
}
