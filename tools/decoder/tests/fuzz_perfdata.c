// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * libFuzzer target for spe-decode's perf.data input (perf_data.c,
 * perf_decode.c) and what it prints of it: arbitrary files must be
 * refused with a reason or decoded without a crash, every record
 * attributed within the bounds of its AUX area; each record's JSON and
 * CSV line, with the cpu, pid, tid, comm and AUX flags the file gives it,
 * parses (out_check.h), and so does the dump of the AUXTRACE pieces.
 * Built with -DOB_CHECK.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../outbuf.h"
#include "../perf_data.h"
#include "../perf_decode.h"
#include "../spe_dump.h"
#include "out_check.h"

#define REQUIRE(c) do { if (!(c)) abort(); } while (0)

struct seen {
	uint64_t records, bytes;
	struct outbuf *json, *csv;
};

static struct out_capture json_out, csv_out;

static void rec(void *arg, const struct spe_record *r, const struct rec_ctx *c)
{
	struct seen *s = arg;

	REQUIRE(c->valid);
	REQUIRE(r->size >= 1 && r->size <= SPE_MAX_RECORD_LEN + SPE_MAX_PACKET_LEN);
	fmt_json_record(s->json, r, 16, c);
	fmt_csv_record(s->csv, r, 12, c);
	s->records++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct outbuf *json, *csv;
	struct perf_data pd;
	struct pdd_stats st;
	struct seen s = { 0, 0, NULL, NULL };
	struct pdd_sink sink = { .arg = &s, .record = rec, .error = NULL };
	char err[256], *text = NULL;
	size_t len = 0;
	unsigned int pass;
	FILE *f;

	if (pd_open(&pd, data, size, err, sizeof(err))) {
		REQUIRE(err[0] && strlen(err) < sizeof(err));
		return 0;
	}
	if (!json) {
		json = malloc(sizeof(*json));
		csv = malloc(sizeof(*csv));
	}
	REQUIRE(json && csv);
	s.json = json;
	s.csv = csv;
	for (pass = 0; pass < 2; pass++) {
		long cols = csv_columns(CSV_HEADER, sizeof(CSV_HEADER) - 2);

		s.records = 0;
		json_out.len = csv_out.len = 0;
		ob_init_sink(json, out_capture_sink, &json_out);
		ob_init_sink(csv, out_capture_sink, &csv_out);
		REQUIRE(pdd_decode(&pd, pass ? SPE_DEC_LEGACY_ALIGN : 0, &sink, &st) == 0);
		REQUIRE(st.dec.records == s.records);
		ob_flush(json);
		ob_flush(csv);
		REQUIRE(out_lines_ok(0, 0, json_out.s, json_out.len) == (long)s.records);
		REQUIRE(out_lines_ok(1, (int)cols, csv_out.s, csv_out.len) == (long)s.records);
	}
	f = open_memstream(&text, &len);
	REQUIRE(f);
	dump_perf(f, &pd);
	REQUIRE(!fclose(f));
	REQUIRE(!memchr(text, 0, len) && (!len || text[len - 1] == '\n'));
	free(text);
	pd_close(&pd);
	return 0;
}
