// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * libFuzzer target for spe-decode's record formatters, built twice:
 * fuzz-json (this file) and fuzz-csv (-DFUZZ_CSV), with -DOB_CHECK so that
 * an append beyond what the formatter reserved aborts at once.
 *
 * Input: byte 0-1 where the output starts relative to the end of the
 * buffer (0 to past a whole line), byte 2 flags (Alignment handling, the
 * perf.data context or none, the counter width, unknown cpu/pid/tid, no
 * comm), byte 3 the PERF_AUX_FLAG_* bits, byte 4 a comm length N, N comm
 * bytes (any byte, quotes and invalid UTF-8 included), then the trace. Every record the batch iterator (the CLI's
 * path) decodes is formatted; the output must be whole lines, one a
 * record, each a JSON object (out_check.h) or a CSV row of the header's
 * column count after the header.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <arm_spe/spe_decoder.h>

#include "../outbuf.h"
#include "../spe_format.h"
#include "out_check.h"

#define REQUIRE(c) do { if (!(c)) abort(); } while (0)

#ifdef FUZZ_CSV
#define REC_MAX		fmt_csv_record_max
#else
#define REC_MAX		fmt_json_record_max
#endif

static struct outbuf *ob;
static struct out_capture cap;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct spe_record recs[64];
	char comm[256];
	struct rec_ctx c;
	struct spe_decoder d;
	size_t left, fill, clen, lines = 0;
	unsigned int fl, aux, counter_bits;
	long got;
	int r, k;

	if (size < 5)
		return 0;
	if (!ob)
		ob = malloc(sizeof(*ob));
	REQUIRE(ob);
	left = (size_t)(data[0] | data[1] << 8) % (REC_MAX + 64);
	fl = data[2];
	aux = data[3] & 0xf;
	clen = data[4];
	data += 5;
	size -= 5;
	if (clen > size)
		clen = size;
	memcpy(comm, data, clen);
	comm[clen] = 0;
	data += clen;
	size -= clen;

	c.valid = !!(fl & 2);
	c.cpu = fl & 8 ? -1 : (int)(fl >> 4);
	c.pid = fl & 8 ? -1 : INT32_MAX;
	c.tid = fl & 8 ? -1 : (int)clen;
	c.comm = fl & 16 ? NULL : comm;
	c.aux_offset = 0;
	c.aux_flags = aux;
	counter_bits = fl & 4 ? 12 : 16;

	ob_init_sink(ob, out_capture_sink, &cap);
	cap.len = 0;
	fill = OB_CAP - left;
	OUT_FILL(ob, left);
#ifdef FUZZ_CSV
	fmt_csv_header(ob);
#endif
	spe_decoder_init(&d, data, size, fl & 1 ? SPE_DEC_LEGACY_ALIGN : 0);
	while ((r = spe_decoder_next_records(&d, recs, 64)) != 0) {
		if (r < 0)
			continue;
		for (k = 0; k < r; k++) {
#ifdef FUZZ_CSV
			fmt_csv_record(ob, &recs[k], counter_bits, fl & 64 ? NULL : &c);
#else
			fmt_json_record(ob, &recs[k], counter_bits, fl & 64 ? NULL : &c);
#endif
			lines++;
		}
	}
	ob_flush(ob);
	REQUIRE(!ob->err && cap.len >= fill);
#ifdef FUZZ_CSV
	REQUIRE(cap.len - fill >= sizeof(CSV_HEADER) - 1 &&
		!memcmp(cap.s + fill, CSV_HEADER, sizeof(CSV_HEADER) - 1));
	got = out_lines_ok(1, csv_columns(CSV_HEADER, sizeof(CSV_HEADER) - 2),
			   cap.s + fill + sizeof(CSV_HEADER) - 1,
			   cap.len - fill - (sizeof(CSV_HEADER) - 1));
#else
	got = out_lines_ok(0, 0, cap.s + fill, cap.len - fill);
#endif
	REQUIRE(got >= 0 && (size_t)got == lines);
	return 0;
}
