// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Host tests of spe-decode's output buffer (outbuf.c): decimal and hex
 * numbers against snprintf at every digit-count boundary and on a seeded
 * random sample, and flushing to a file descriptor.
 *
 * Output: "PASS: format:name" / "FAIL: format:name: why" per case.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../outbuf.h"

static struct outbuf ob;
static int nfail;

static int same(uint64_t v, int hex)
{
	char want[32];

	ob.p = ob.buf;
	ob_room(&ob, hex ? OB_HEX_MAX : OB_U64_MAX);
	if (hex) {
		ob_hex(&ob, v);
		snprintf(want, sizeof(want), "0x%" PRIx64, v);
	} else {
		ob_u64(&ob, v);
		snprintf(want, sizeof(want), "%" PRIu64, v);
	}
	if ((size_t)(ob.p - ob.buf) != strlen(want) || memcmp(ob.buf, want, strlen(want))) {
		printf("FAIL: format:%s: %s gave '%.*s'\n", hex ? "hex" : "u64", want,
		       (int)(ob.p - ob.buf), ob.buf);
		nfail++;
		return 0;
	}
	return 1;
}

static void numbers(int hex)
{
	uint64_t p = 1, x = 0x243f6a8885a308d3ull;
	int i;

	if (!same(0, hex) || !same(UINT64_MAX, hex))
		return;
	for (i = 0; i < 64; i++) {	/* every power of 2 and 10, +-1 */
		uint64_t b = 1ull << i;

		if (!same(b, hex) || !same(b - 1, hex) || !same(b + 1, hex))
			return;
		if (i < 20) {
			if (!same(p, hex) || !same(p - 1, hex) || !same(p + 1, hex))
				return;
			p *= 10;
		}
	}
	for (i = 0; i < 100000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		if (!same(x >> (x & 63), hex))
			return;
	}
	printf("PASS: format:%s\n", hex ? "hex" : "u64");
}

static void flush(void)
{
	FILE *f = tmpfile();
	char back[16] = { 0 };

	ob_init(&ob, fileno(f));
	ob_room(&ob, 7);
	ob_lit(&ob, "abc");
	ob_str(&ob, "def");
	ob_chr(&ob, '\n');
	if (ob_flush(&ob) || pread(fileno(f), back, sizeof(back), 0) != 7 ||
	    strcmp(back, "abcdef\n")) {
		printf("FAIL: format:flush: read back '%s'\n", back);
		nfail++;
	} else {
		printf("PASS: format:flush\n");
	}
	fclose(f);
}

int main(void)
{
	ob_init(&ob, -1);
	numbers(0);
	numbers(1);
	flush();
	return nfail ? 1 : 0;
}
