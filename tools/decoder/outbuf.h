/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * A write buffer for spe-decode's record output: appends strings and
 * numbers with no stdio call per field, writes to a file descriptor (or a
 * sink function) when full. Errors are sticky (ob->err holds the first
 * errno).
 *
 * The bound is the caller's: before a line, ob_room(ob, N) makes room for
 * N bytes, and the appends up to the next ob_room() may write at most N.
 * Each caller states its worst case next to the call (spe_format.c). Built
 * with -DOB_CHECK (the tests and the fuzz targets), every append checks
 * that it stays inside what the last ob_room() reserved and aborts if not,
 * wherever the line falls in the buffer.
 */
#ifndef SPE_OUTBUF_H
#define SPE_OUTBUF_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define OB_CAP		(1u << 18)
#define OB_U64_MAX	20	/* ob_u64(): "18446744073709551615" */
#define OB_HEX_MAX	18	/* ob_hex(): "0x" and 16 digits */

/* A sink for tests: takes n bytes, returns 0 or an errno value. */
typedef int (*ob_sink_fn)(void *arg, const char *s, size_t n);

struct outbuf {
	char *p;		/* next free byte in buf */
	char *end;		/* buf + OB_CAP */
#ifdef OB_CHECK
	char *limit;		/* end of what the last ob_room() reserved */
#endif
	int fd;
	int err;
	ob_sink_fn sink;	/* NULL: write(2) to fd */
	void *sink_arg;
	char buf[OB_CAP];
};

void ob_init(struct outbuf *ob, int fd);
/* Output to sink(arg, ...) instead of a file descriptor. */
void ob_init_sink(struct outbuf *ob, ob_sink_fn sink, void *arg);
/* Write what is buffered; returns 0 or -1 (ob->err set). */
int ob_flush(struct outbuf *ob);

#ifdef OB_CHECK
void ob_overrun(const struct outbuf *ob, size_t n) __attribute__((noreturn));
void ob_too_big(size_t need) __attribute__((noreturn));
#define OB_TAKE(ob, n)							\
	do {								\
		if ((size_t)((ob)->limit - (ob)->p) < (size_t)(n))	\
			ob_overrun((ob), (size_t)(n));			\
	} while (0)
#else
#define OB_TAKE(ob, n)	do { } while (0)
#endif

/*
 * Make room for the next need bytes (need <= OB_CAP): flush first when
 * fewer are left.
 */
static inline void ob_room(struct outbuf *ob, size_t need)
{
#ifdef OB_CHECK
	if (need > OB_CAP)
		ob_too_big(need);
#endif
	if ((size_t)(ob->end - ob->p) < need)
		ob_flush(ob);
#ifdef OB_CHECK
	ob->limit = ob->p + need;
#endif
}

static inline void ob_mem(struct outbuf *ob, const char *s, size_t n)
{
	OB_TAKE(ob, n);
	memcpy(ob->p, s, n);
	ob->p += n;
}

#define ob_lit(ob, s)	ob_mem((ob), (s), sizeof(s) - 1)

/* short strings (names): a byte loop beats a strlen and a memcpy call */
static inline void ob_str(struct outbuf *ob, const char *s)
{
	char *p = ob->p;

#ifdef OB_CHECK
	OB_TAKE(ob, strlen(s));
#endif
	while (*s)
		*p++ = *s++;
	ob->p = p;
}

static inline void ob_chr(struct outbuf *ob, char c)
{
	OB_TAKE(ob, 1);
	*ob->p++ = c;
}

/* at most OB_U64_MAX bytes */
void ob_u64(struct outbuf *ob, uint64_t v);
/* "0x" and lower-case hex digits, no leading zeros: at most OB_HEX_MAX bytes */
void ob_hex(struct outbuf *ob, uint64_t v);

#endif /* SPE_OUTBUF_H */
