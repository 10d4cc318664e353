// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * spe-decode's output buffer (outbuf.h): number formatting and flushing.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "outbuf.h"

void ob_init(struct outbuf *ob, int fd)
{
	ob->p = ob->buf;
	ob->end = ob->buf + OB_CAP;
#ifdef OB_CHECK
	ob->limit = ob->buf;	/* nothing reserved yet */
#endif
	ob->fd = fd;
	ob->err = 0;
	ob->sink = NULL;
	ob->sink_arg = NULL;
}

void ob_init_sink(struct outbuf *ob, ob_sink_fn sink, void *arg)
{
	ob_init(ob, -1);
	ob->sink = sink;
	ob->sink_arg = arg;
}

#ifdef OB_CHECK
void ob_overrun(const struct outbuf *ob, size_t n)
{
	fprintf(stderr, "outbuf: an append of %zu bytes at %zu goes %zu bytes past the %zu that "
		"ob_room() reserved\n", n, (size_t)(ob->p - ob->buf),
		n - (size_t)(ob->limit - ob->p), (size_t)(ob->limit - ob->p));
	abort();
}

void ob_too_big(size_t need)
{
	fprintf(stderr, "outbuf: ob_room(%zu) asks for more than the %u-byte buffer\n", need,
		OB_CAP);
	abort();
}
#endif

int ob_flush(struct outbuf *ob)
{
	const char *q = ob->buf;

	if (ob->sink && q < ob->p && !ob->err)
		ob->err = ob->sink(ob->sink_arg, q, (size_t)(ob->p - q));
	while (!ob->sink && q < ob->p && !ob->err) {
		ssize_t n = write(ob->fd, q, (size_t)(ob->p - q));

		if (n < 0) {
			if (errno == EINTR)
				continue;
			ob->err = errno;
		} else if (n == 0) {
			ob->err = EIO;
		} else {
			q += n;
		}
	}
	ob->p = ob->buf;
#ifdef OB_CHECK
	ob->limit = ob->buf;	/* the next line reserves its own room */
#endif
	return ob->err ? -1 : 0;
}

static const char digit_pairs[201] =
	"00010203040506070809101112131415161718192021222324"
	"25262728293031323334353637383940414243444546474849"
	"50515253545556575859606162636465666768697071727374"
	"75767778798081828384858687888990919293949596979899";

/* Decimal digits written in place, two at a time, from the last one. */
void ob_u64(struct outbuf *ob, uint64_t v)
{
	static const uint64_t p10[20] = {
		1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull,
		100000000ull, 1000000000ull, 10000000000ull, 100000000000ull,
		1000000000000ull, 10000000000000ull, 100000000000000ull,
		1000000000000000ull, 10000000000000000ull, 100000000000000000ull,
		1000000000000000000ull, 10000000000000000000ull,
	};
	/* number of digits: log10 from the bit length, corrected once */
	unsigned int t = ((64u - (unsigned int)__builtin_clzll(v | 1)) * 1233u) >> 12;
	unsigned int n = t + 1 - ((v | 1) < p10[t]);
	char *e;

	OB_TAKE(ob, n);
	e = ob->p + n;
	ob->p = e;
	while (v >= 100) {
		unsigned int r = (unsigned int)(v % 100);

		v /= 100;
		e -= 2;
		e[0] = digit_pairs[2 * r];
		e[1] = digit_pairs[2 * r + 1];
	}
	if (v >= 10) {
		e[-2] = digit_pairs[2 * v];
		e[-1] = digit_pairs[2 * v + 1];
	} else {
		e[-1] = (char)('0' + v);
	}
}

void ob_hex(struct outbuf *ob, uint64_t v)
{
	static const char hex[] = "0123456789abcdef";
	unsigned int n = v ? (unsigned int)(67 - __builtin_clzll(v)) / 4 : 1;
	char *p = ob->p, *e = p + 2 + n;

	OB_TAKE(ob, 2 + n);
	p[0] = '0';
	p[1] = 'x';
	ob->p = e;
	do {
		*--e = hex[v & 0xf];
		v >>= 4;
	} while (--n);
}
