// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * libFuzzer target for spe-decode --dump (spe_dump.c) on raw traces: every
 * line of the dump is a packet line ("OFFSET: hex bytes  description", the
 * offset 8 or more hex digits, printable ASCII), an error line, or the
 * blank line after each record and each error, and there are exactly as
 * many blank lines as the decoder saw records and errors.
 *
 * Input: byte 0 flags (Alignment handling), bytes 1-8 the buffer address,
 * then the trace.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <arm_spe/spe_decoder.h>

#include "../spe_dump.h"

#define REQUIRE(c) do { if (!(c)) abort(); } while (0)

static unsigned long results;

static void on_record(void *arg, const struct spe_record *r)
{
	(void)arg;
	(void)r;
	results++;
}

static void on_error(void *arg, const struct spe_decoder *d)
{
	(void)arg;
	(void)d;
	results++;
}

static int is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dump_hooks h = { NULL, on_record, on_error };
	struct spe_decoder d;
	unsigned long blank = 0;
	char *text = NULL, *p, *nl;
	size_t len = 0;
	uint64_t base;
	unsigned int fl;
	FILE *f;

	if (size < 9)
		return 0;
	fl = data[0] & 1 ? SPE_DEC_LEGACY_ALIGN : 0;
	memcpy(&base, data + 1, 8);
	data += 9;
	size -= 9;
	f = open_memstream(&text, &len);
	REQUIRE(f);
	results = 0;
	dump_trace(f, &d, data, size, fl, base, &h);
	REQUIRE(!fclose(f));
	REQUIRE(d.stats.records + d.stats.errors == results);
	for (p = text; p < text + len; p = nl + 1) {
		size_t n;
		int k;

		nl = memchr(p, '\n', (size_t)(text + len - p));
		REQUIRE(nl);
		n = (size_t)(nl - p);
		if (!n) {
			blank++;
			continue;
		}
		for (k = 0; k < 8; k++)
			REQUIRE(is_hex(p[k]));
		while (is_hex(p[k]))
			k++;
		REQUIRE(p[k] == ':' && p[k + 1] == ' ');
		for (; (size_t)k < n; k++)
			REQUIRE(p[k] >= 0x20 && p[k] < 0x7f);
	}
	REQUIRE(blank == results);
	free(text);
	return 0;
}
