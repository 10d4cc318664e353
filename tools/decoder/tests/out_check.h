/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Checkers of spe-decode's output for the tests and fuzz targets, written
 * from the formats' definitions, not from the formatters:
 *   - json_line_ok(): one JSON object (RFC 8259: strict grammar, UTF-8
 *     text, no control characters in strings), no duplicate keys in an
 *     object, nothing after it;
 *   - csv_columns(): the number of fields of one CSV row (RFC 4180:
 *     fields quoted or not, a quote inside a quoted field doubled), or -1.
 * and an outbuf sink that keeps the output in memory (out_capture_sink).
 * Header-only: each user includes it once.
 */
#ifndef SPE_OUT_CHECK_H
#define SPE_OUT_CHECK_H

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

struct jp {
	const unsigned char *s, *end;
	int depth;
};

static void jp_ws(struct jp *j)
{
	while (j->s < j->end && (*j->s == ' ' || *j->s == '\t' || *j->s == '\n' || *j->s == '\r'))
		j->s++;
}

static int jp_lit(struct jp *j, const char *w)
{
	size_t n = strlen(w);

	if ((size_t)(j->end - j->s) < n || memcmp(j->s, w, n))
		return -1;
	j->s += n;
	return 0;
}

/* one UTF-8 sequence (RFC 3629), at least 0x20 */
static int jp_utf8(struct jp *j)
{
	const unsigned char *s = j->s;
	unsigned int n, i, cp;

	if (s[0] < 0x80) {
		if (s[0] < 0x20)
			return -1;
		j->s++;
		return 0;
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1fu;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0fu;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07u;
	else
		return -1;
	if ((size_t)(j->end - s) < n)
		return -1;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return -1;
		cp = cp << 6 | (s[i] & 0x3fu);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return -1;
	j->s += n;
	return 0;
}

static int jp_hex4(struct jp *j)
{
	int i;

	if (j->end - j->s < 4)
		return -1;
	for (i = 0; i < 4; i++, j->s++)
		if (!((*j->s >= '0' && *j->s <= '9') || (*j->s >= 'a' && *j->s <= 'f') ||
		      (*j->s >= 'A' && *j->s <= 'F')))
			return -1;
	return 0;
}

static int jp_string(struct jp *j)
{
	if (j->s >= j->end || *j->s != '"')
		return -1;
	j->s++;
	while (j->s < j->end && *j->s != '"') {
		if (*j->s == '\\') {
			j->s++;
			if (j->s >= j->end)
				return -1;
			if (*j->s == 'u') {
				j->s++;
				if (jp_hex4(j))
					return -1;
			} else if (strchr("\"\\/bfnrt", *j->s) && *j->s) {
				j->s++;
			} else {
				return -1;
			}
		} else if (jp_utf8(j)) {
			return -1;
		}
	}
	if (j->s >= j->end)
		return -1;
	j->s++;
	return 0;
}

static int jp_number(struct jp *j)
{
	const unsigned char *s = j->s;

	if (s < j->end && *s == '-')
		s++;
	if (s >= j->end)
		return -1;
	if (*s == '0') {
		s++;
	} else if (*s >= '1' && *s <= '9') {
		while (s < j->end && *s >= '0' && *s <= '9')
			s++;
	} else {
		return -1;
	}
	if (s < j->end && *s == '.') {
		s++;
		if (s >= j->end || *s < '0' || *s > '9')
			return -1;
		while (s < j->end && *s >= '0' && *s <= '9')
			s++;
	}
	if (s < j->end && (*s == 'e' || *s == 'E')) {
		s++;
		if (s < j->end && (*s == '+' || *s == '-'))
			s++;
		if (s >= j->end || *s < '0' || *s > '9')
			return -1;
		while (s < j->end && *s >= '0' && *s <= '9')
			s++;
	}
	j->s = s;
	return 0;
}

static int jp_value(struct jp *j);

#define JP_MAX_KEYS	128

static int jp_object(struct jp *j)
{
	const unsigned char *key[JP_MAX_KEYS];
	size_t klen[JP_MAX_KEYS];
	unsigned int nk = 0, i;

	j->s++;
	jp_ws(j);
	if (j->s < j->end && *j->s == '}') {
		j->s++;
		return 0;
	}
	for (;;) {
		const unsigned char *k = j->s;

		if (jp_string(j))
			return -1;
		if (nk == JP_MAX_KEYS)
			return -1;
		for (i = 0; i < nk; i++)
			if (klen[i] == (size_t)(j->s - k) && !memcmp(key[i], k, klen[i]))
				return -1;	/* a key twice */
		key[nk] = k;
		klen[nk++] = (size_t)(j->s - k);
		jp_ws(j);
		if (j->s >= j->end || *j->s != ':')
			return -1;
		j->s++;
		if (jp_value(j))
			return -1;
		jp_ws(j);
		if (j->s < j->end && *j->s == ',') {
			j->s++;
			jp_ws(j);
			continue;
		}
		if (j->s < j->end && *j->s == '}') {
			j->s++;
			return 0;
		}
		return -1;
	}
}

static int jp_array(struct jp *j)
{
	j->s++;
	jp_ws(j);
	if (j->s < j->end && *j->s == ']') {
		j->s++;
		return 0;
	}
	for (;;) {
		if (jp_value(j))
			return -1;
		jp_ws(j);
		if (j->s < j->end && *j->s == ',') {
			j->s++;
			continue;
		}
		if (j->s < j->end && *j->s == ']') {
			j->s++;
			return 0;
		}
		return -1;
	}
}

static int jp_value(struct jp *j)
{
	int r;

	jp_ws(j);
	if (j->s >= j->end || ++j->depth > 16)
		return -1;
	switch (*j->s) {
	case '{': r = jp_object(j); break;
	case '[': r = jp_array(j); break;
	case '"': r = jp_string(j); break;
	case 't': r = jp_lit(j, "true"); break;
	case 'f': r = jp_lit(j, "false"); break;
	case 'n': r = jp_lit(j, "null"); break;
	default: r = jp_number(j); break;
	}
	j->depth--;
	return r;
}

/* Is s[0, n) one JSON object and nothing else (the newline excluded)? */
static inline int json_line_ok(const char *s, size_t n)
{
	struct jp j = { (const unsigned char *)s, (const unsigned char *)s + n, 0 };

	jp_ws(&j);
	if (j.s >= j.end || *j.s != '{' || jp_value(&j))
		return 0;
	jp_ws(&j);
	return j.s == j.end;
}

/* The fields of the CSV row s[0, n) (no line break in it), or -1. */
static inline int csv_columns(const char *s, size_t n)
{
	const char *e = s + n;
	int cols = 1;

	while (s < e) {
		if (*s == '"') {
			s++;
			for (;;) {
				if (s >= e)
					return -1;	/* unterminated */
				if (*s == '"') {
					if (s + 1 < e && s[1] == '"') {
						s += 2;
						continue;
					}
					s++;
					break;
				}
				s++;
			}
			if (s < e && *s != ',')
				return -1;	/* text after the closing quote */
		} else {
			while (s < e && *s != ',') {
				if (*s == '"' || *s == '\r' || *s == '\n')
					return -1;
				s++;
			}
		}
		if (s < e) {	/* a comma */
			s++;
			cols++;
		}
	}
	return cols;
}

/* An outbuf sink (ob_init_sink) that keeps everything flushed in memory. */
struct out_capture {
	char *s;
	size_t len, cap;
};

static inline int out_capture_sink(void *arg, const char *s, size_t n)
{
	struct out_capture *c = arg;

	if (c->len + n > c->cap) {
		size_t nc = 2 * (c->len + n);
		char *p = realloc(c->s, nc);

		if (!p)
			return 12;	/* ENOMEM */
		c->s = p;
		c->cap = nc;
	}
	memcpy(c->s + c->len, s, n);
	c->len += n;
	return 0;
}

/*
 * Start ob's output where left bytes remain before the end of its buffer,
 * behind a filler line ("###...#\n") of the bytes before: the next line
 * written is flushed at every place a test puts it.
 */
#define OUT_FILL(ob, left)						\
	do {								\
		size_t _fill = OB_CAP - (left);				\
									\
		memset((ob)->buf, '#', _fill);				\
		if (_fill)						\
			(ob)->buf[_fill - 1] = '\n';			\
		(ob)->p = (ob)->buf + _fill;				\
	} while (0)

/*
 * Are s[0, n) whole lines, each a JSON object (csv == 0) or a CSV row of
 * cols fields? Returns the number of lines, or -1 at the first bad one.
 */
static inline long out_lines_ok(int csv, int cols, const char *s, size_t n)
{
	const char *e, *nl;
	long lines = 0;

	if (!n)
		return 0;	/* s may be NULL: nothing was captured */
	e = s + n;
	while (s < e) {
		nl = memchr(s, '\n', (size_t)(e - s));
		if (!nl)
			return -1;
		if (csv ? csv_columns(s, (size_t)(nl - s)) != cols : !json_line_ok(s, (size_t)(nl - s)))
			return -1;
		lines++;
		s = nl + 1;
	}
	return lines;
}

#endif /* SPE_OUT_CHECK_H */
