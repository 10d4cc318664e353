// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * libFuzzer target for the streaming API as spe-decode uses it on a pipe
 * (spe_stream_* into the formatters): the trace, cut into chunks whose
 * sizes are drawn from the input, is decoded by a stream of the smallest
 * window the API allows and formatted as JSON or CSV; the output must be
 * byte for byte what the whole-buffer decode formats, and parse
 * (out_check.h). Built with -DOB_CHECK.
 *
 * Input: byte 0 flags (Alignment handling, CSV, the chunk size bound),
 * bytes 1-8 the buffer address (for Alignment), then the trace.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <arm_spe/spe_decoder.h>

#include "../outbuf.h"
#include "../spe_format.h"
#include "out_check.h"

#define REQUIRE(c) do { if (!(c)) abort(); } while (0)

static struct outbuf *ob;
static struct out_capture whole, streamed;
static uint8_t win[SPE_STREAM_MIN_CAP(SPE_DEC_LEGACY_ALIGN)];

static void put(int csv, const struct spe_record *r)
{
	if (csv)
		fmt_csv_record(ob, r, 16, NULL);
	else
		fmt_json_record(ob, r, 16, NULL);
}

/* an error as one line of its own in the output, to compare them too */
static void put_err(const struct spe_error *e)
{
	ob_room(ob, 3 * OB_U64_MAX + 8);
	ob_lit(ob, "E ");
	ob_u64(ob, e->offset);
	ob_chr(ob, ' ');
	ob_u64(ob, e->resume);
	ob_chr(ob, ' ');
	ob_u64(ob, (uint64_t)e->code);
	ob_chr(ob, '\n');
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct spe_record rec;
	struct spe_decoder d;
	struct spe_stream s;
	unsigned int fl, csv;
	uint64_t addr, x;
	size_t off, maxc, i;
	int r;

	if (size < 9)
		return 0;
	if (!ob)
		ob = malloc(sizeof(*ob));
	REQUIRE(ob);
	fl = data[0] & 1 ? SPE_DEC_LEGACY_ALIGN : 0;
	csv = !!(data[0] & 2);
	maxc = (size_t)1 << (data[0] >> 4 & 0xf);	/* chunks of 1 to 32768 bytes at most */
	memcpy(&addr, data + 1, 8);
	data += 9;
	size -= 9;

	/* whole */
	ob_init_sink(ob, out_capture_sink, &whole);
	whole.len = 0;
	spe_decoder_init(&d, data, size, fl);
	d.buf_addr = addr;
	while ((r = spe_decoder_next(&d, &rec)) != 0) {
		if (r < 0)
			put_err(&d.err);
		else
			put(csv, &rec);
	}
	ob_flush(ob);

	/* streamed, in chunks */
	ob_init_sink(ob, out_capture_sink, &streamed);
	streamed.len = 0;
	REQUIRE(spe_stream_init(&s, win, SPE_STREAM_MIN_CAP(fl), fl) == 0);
	spe_stream_set_addr(&s, addr);
	x = 0x9e3779b97f4a7c15ull ^ size;
	for (off = 0; off <= size;) {
		size_t n, fed = 0;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		n = 1 + (size_t)(x % maxc);
		if (n > size - off)
			n = size - off;
		if (!n)
			spe_stream_finish(&s);
		do {
			fed += spe_stream_write(&s, data + off + fed, n - fed);
			while ((r = spe_stream_next(&s, &rec)) != 0) {
				if (r < 0)
					put_err(&s.err);
				else
					put(csv, &rec);
			}
		} while (fed < n);
		if (!n)
			break;
		off += n;
	}
	ob_flush(ob);

	REQUIRE(whole.len == streamed.len && (!whole.len || !memcmp(whole.s, streamed.s, whole.len)));
	/* and every record line parses */
	for (i = 0; i < whole.len;) {
		const char *nl = memchr(whole.s + i, '\n', whole.len - i);

		REQUIRE(nl);
		if (whole.s[i] != 'E')
			REQUIRE(csv ? csv_columns(whole.s + i, (size_t)(nl - whole.s - i)) ==
					      csv_columns(CSV_HEADER, sizeof(CSV_HEADER) - 2)
				    : json_line_ok(whole.s + i, (size_t)(nl - whole.s - i)));
		i = (size_t)(nl - whole.s) + 1;
	}
	return 0;
}
