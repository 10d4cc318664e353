/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * A write buffer for spe-decode's record output: appends strings and
 * numbers with no stdio call per field, writes to a file descriptor when
 * full. Errors are sticky (ob->err holds the first errno).
 */
#ifndef SPE_OUTBUF_H
#define SPE_OUTBUF_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define OB_CAP		(1u << 18)
#define OB_MAX_ITEM	512	/* room every append call may assume */

struct outbuf {
	char *p;		/* next free byte in buf */
	char *flush_at;		/* buf + OB_CAP - OB_MAX_ITEM */
	int fd;
	int err;
	char buf[OB_CAP];
};

void ob_init(struct outbuf *ob, int fd);
/* Write what is buffered; returns 0 or -1 (ob->err set). */
int ob_flush(struct outbuf *ob);

/* Call once per output line (or item of up to OB_MAX_ITEM bytes). */
static inline void ob_room(struct outbuf *ob)
{
	if (ob->p >= ob->flush_at)
		ob_flush(ob);
}

static inline void ob_mem(struct outbuf *ob, const char *s, size_t n)
{
	memcpy(ob->p, s, n);
	ob->p += n;
}

#define ob_lit(ob, s)	ob_mem((ob), (s), sizeof(s) - 1)

/* short strings (names): a byte loop beats a strlen and a memcpy call */
static inline void ob_str(struct outbuf *ob, const char *s)
{
	char *p = ob->p;

	while (*s)
		*p++ = *s++;
	ob->p = p;
}

static inline void ob_chr(struct outbuf *ob, char c)
{
	*ob->p++ = c;
}

void ob_u64(struct outbuf *ob, uint64_t v);
/* "0x" and lower-case hex digits, no leading zeros */
void ob_hex(struct outbuf *ob, uint64_t v);

#endif /* SPE_OUTBUF_H */
