// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The bounds of spe-decode's output (issue: a JSON line longer than the
 * room the buffer kept wrote past its end). Built with -DOB_CHECK, so an
 * append beyond what a formatter reserved aborts wherever it happens, and
 * run plain and under ASan+UBSan by tests/check.sh:
 *   - the longest record each mode can print (every field at its longest
 *     value, the longest Operation Type and extra-packet names found by
 *     trying every value, all 64 event bits, the most extra packets, a
 *     comm that escapes to the most bytes), built as a struct and, for
 *     what the encoder can write, encoded and decoded again, formatted
 *     with every number of free bytes from 0 to past its length before the
 *     buffer's end: the output is the same line each time, parses (JSON:
 *     out_check.h's parser; CSV: the header's column count) and is within
 *     the formatter's stated worst case;
 *   - the dump of every packet header with its largest payload: one line
 *     each, the hex column holding the packet's bytes;
 *   - 65536 Events payloads with most bits set, each twice (built, then
 *     from the formatter's cache): the names of exactly the bits set;
 *   - a comm's JSON: UTF-8 kept, other bytes U+FFFD, control characters
 *     and quotes escaped, cut at FMT_COMM_MAX bytes (expected strings
 *     written from RFC 8259 and RFC 3629); its CSV field quoted, quotes
 *     doubled (RFC 4180), cut the same.
 *
 * Output: "PASS: outbound:name" / "FAIL: outbound:name: why" per case.
 * With --trace FILE, also writes a raw trace of longest encoded records
 * there (for the CLI sweep in tests/check.sh).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <arm_spe/spe_decoder.h>

#include "../outbuf.h"
#include "../spe_dump.h"
#include "../spe_format.h"
#include "out_check.h"

#ifndef OB_CHECK
#error "outbound.c checks the formatters' reservations: build it with -DOB_CHECK"
#endif

static int nfail;

#define FAIL(name, ...)							\
	do {								\
		printf("FAIL: outbound:%s: ", name);			\
		printf(__VA_ARGS__);					\
		printf("\n");						\
		nfail++;						\
		return;							\
	} while (0)

/* What the output buffer flushed, kept in memory. */
static struct out_capture cap;

enum mode { JSON, CSV };

static void fmt(struct outbuf *ob, enum mode m, const struct spe_record *r,
		const struct rec_ctx *c)
{
	if (m == JSON)
		fmt_json_record(ob, r, 16, c);
	else
		fmt_csv_record(ob, r, 16, c);
}

/*
 * One record's line, formatted into an empty buffer: its first outlen - 1
 * bytes copied to out and a NUL after them. Returns the line's length.
 */
static size_t line_of(struct outbuf *ob, enum mode m, const struct spe_record *r,
		      const struct rec_ctx *c, char *out, size_t outlen)
{
	size_t n;

	cap.len = 0;
	ob_init_sink(ob, out_capture_sink, &cap);
	fmt(ob, m, r, c);
	ob_flush(ob);
	n = cap.len < outlen ? cap.len : outlen - 1;
	memcpy(out, cap.s, n);
	out[n] = 0;
	return cap.len;
}

/* Is the line of n bytes in out, newline included, whole and one JSON object? */
static int json_whole(const char *out, size_t n, size_t outlen)
{
	return n > 0 && n < outlen && out[n - 1] == '\n' && json_line_ok(out, n - 1);
}

/* The longest Operation Type: every CLASS/SUBCLASS pair tried. */
static void longest_op(struct outbuf *ob, enum mode m, struct spe_record *r)
{
	static char tmp[8192];
	struct spe_record t;
	size_t best = 0, n;
	unsigned int c, s;

	memset(&t, 0, sizeof(t));
	t.present = SPE_REC_OP;
	for (c = 0; c < 4; c++)
		for (s = 0; s < 256; s++) {
			t.op_class = (uint8_t)c;
			t.op_subclass = (uint8_t)s;
			n = line_of(ob, m, &t, NULL, tmp, sizeof(tmp));
			if (n > best) {
				best = n;
				r->op_class = (uint8_t)c;
				r->op_subclass = (uint8_t)s;
			}
		}
}

/* The packet type with the longest name. */
static uint8_t longest_type(void)
{
	unsigned int t, best = 0;

	for (t = 0; t < 256; t++)
		if (strlen(spe_pkt_type_name(t)) > strlen(spe_pkt_type_name(best)))
			best = t;
	return (uint8_t)best;
}

/* A comm that escapes to the most bytes in mode m, longer than the cap. */
static void worst_comm(enum mode m, char *comm, size_t n)
{
	memset(comm, m == JSON ? 0x01 : '"', n - 1);	/* \u0001; a doubled quote */
	comm[n - 1] = 0;
}

/* Every field at its longest; ctx too. */
static void worst_record(struct outbuf *ob, enum mode m, struct spe_record *r,
			 struct rec_ctx *c, char *comm, size_t commlen)
{
	unsigned int i;

	memset(r, 0, sizeof(*r));
	r->offset = UINT64_MAX - UINT32_MAX;
	r->size = UINT32_MAX;
	r->present = 0xffffffffu;
	for (i = 0; i < SPE_REC_NADDR; i++)
		r->addr[i] = UINT64_MAX;
	r->timestamp = UINT64_MAX;
	r->events = UINT64_MAX;
	r->events_len = 8;
	r->context[0] = r->context[1] = UINT32_MAX;
	for (i = 0; i < SPE_REC_NCNT; i++)
		r->counter[i] = UINT16_MAX;
	r->data_source = UINT16_MAX;
	r->data_source_len = 8;
	longest_op(ob, m, r);
	r->n_packets = UINT16_MAX;
	r->n_extra = UINT16_MAX;
	for (i = 0; i < SPE_REC_NEXTRA; i++) {
		r->extra[i].payload = UINT64_MAX;
		r->extra[i].rel_offset = UINT32_MAX;
		r->extra[i].type = longest_type();
		r->extra[i].index = UINT8_MAX;
		r->extra[i].hdr0 = 0x20 | 0x1f;	/* an extended header: two bytes shown */
		r->extra[i].hdr1 = 0xff;
	}
	worst_comm(m, comm, commlen);
	c->valid = 1;
	c->cpu = c->pid = c->tid = INT32_MAX;
	c->comm = comm;
	c->aux_offset = UINT64_MAX;
	c->aux_flags = 0xffffffffu;
}

static int line_ok(enum mode m, const char *s, size_t n)
{
	if (!n || s[n - 1] != '\n')
		return 0;
	if (m == JSON)
		return json_line_ok(s, n - 1);
	return csv_columns(s, n - 1) == csv_columns(CSV_HEADER, sizeof(CSV_HEADER) - 2);
}

/*
 * r's line in mode m, written with every number of free bytes from 0 to
 * past its length before the end of the buffer: the same bytes each time.
 */
static void every_offset(const char *name, enum mode m, const struct spe_record *r,
			 const struct rec_ctx *c, size_t *longest)
{
	static char ref[16384];
	struct outbuf *ob = malloc(sizeof(*ob));	/* ASan: nothing may follow buf */
	size_t n, left, fill, max = m == JSON ? fmt_json_record_max : fmt_csv_record_max;

	if (!ob)
		FAIL(name, "out of memory");
	n = line_of(ob, m, r, c, ref, sizeof(ref));
	if (n > sizeof(ref) || n > max) {
		free(ob);
		FAIL(name, "a %zu-byte line, more than the formatter's worst case %zu", n, max);
	}
	if (!line_ok(m, ref, n)) {
		free(ob);
		FAIL(name, "does not parse: %.*s", (int)n, ref);
	}
	for (left = 0; left <= max + 64; left++) {
		ob_init_sink(ob, out_capture_sink, &cap);
		cap.len = 0;
		fill = OB_CAP - left;
		OUT_FILL(ob, left);
		fmt(ob, m, r, c);
		ob_flush(ob);
		if (cap.len != fill + n || memcmp(cap.s + fill, ref, n)) {
			free(ob);
			FAIL(name, "%zu bytes left before the end: %zu bytes out, not %zu + %zu", left,
			     cap.len, fill, n);
		}
	}
	free(ob);
	if (n > *longest)
		*longest = n;
	printf("PASS: outbound:%s (%zu bytes, worst case %zu, at %zu offsets)\n", name, n, max,
	       max + 65);
}

static void t_worst_struct(enum mode m)
{
	struct outbuf *ob = malloc(sizeof(*ob));
	struct spe_record r;
	struct rec_ctx c;
	char comm[FMT_COMM_MAX + 17];
	size_t longest = 0;

	if (!ob)
		FAIL("worst", "out of memory");
	worst_record(ob, m, &r, &c, comm, sizeof(comm));
	free(ob);
	every_offset(m == JSON ? "json-worst-record" : "csv-worst-record", m, &r, &c, &longest);
	/* the same without the context perf.data gives */
	every_offset(m == JSON ? "json-worst-raw" : "csv-worst-raw", m, &r, NULL, &longest);
}

/*
 * The longest record the encoder writes: every architected packet with an
 * extended header where it has one and its largest payload, and extra
 * packets (IMPLEMENTATION DEFINED Address INDEX 31) beyond SPE_REC_NEXTRA;
 * its load/store SUBCLASS 0xff is reserved (D18.2.7), so longer in JSON.
 */
static size_t encode_longest(uint8_t *buf, size_t len)
{
	static const unsigned int addr[] = {
		SPE_ADDR_IDX_PC, SPE_ADDR_IDX_BR_TGT, SPE_ADDR_IDX_DATA_VA, SPE_ADDR_IDX_DATA_PA,
		SPE_ADDR_IDX_PREV_BR_TGT,
	};
	static const unsigned int cnt[] = { 0, 1, 2, 4 };
	struct spe_enc e;
	unsigned int i;

	spe_enc_init(&e, buf, len);
	for (i = 0; i < sizeof(addr) / sizeof(addr[0]); i++)
		spe_enc_address(&e, addr[i], UINT64_MAX, 1);
	for (i = 0; i < sizeof(cnt) / sizeof(cnt[0]); i++)
		spe_enc_counter(&e, cnt[i], UINT16_MAX, 1);
	spe_enc_context(&e, 0, UINT32_MAX);
	spe_enc_context(&e, 1, UINT32_MAX);
	spe_enc_op_type(&e, SPE_OP_CLASS_LDST, 0xff);
	spe_enc_events(&e, UINT64_MAX, 8);
	spe_enc_data_source(&e, UINT16_MAX, 2);
	for (i = 0; i < SPE_REC_NEXTRA + 2; i++)
		spe_enc_address(&e, 31, UINT64_MAX, 1);
	if (spe_enc_timestamp(&e, UINT64_MAX))
		return 0;
	return e.len;
}

static void t_worst_encoded(enum mode m, const char *file)
{
	uint8_t buf[512];
	size_t n = encode_longest(buf, sizeof(buf)), longest = 0;
	struct spe_decoder d;
	struct spe_record r;
	struct rec_ctx c;
	const char *name = m == JSON ? "json-encoded-longest" : "csv-encoded-longest";
	char comm[FMT_COMM_MAX + 1];

	if (!n)
		FAIL(name, "the encoder ran out of room");
	spe_decoder_init(&d, buf, n, 0);
	/* the extras: the IMPLEMENTATION DEFINED addresses and the reserved SUBCLASS */
	if (spe_decoder_next(&d, &r) != 1 || r.n_extra != SPE_REC_NEXTRA + 3 ||
	    !(r.present & SPE_REC_TIMESTAMP) || r.size != n)
		FAIL(name, "the encoded record does not decode whole (%u extras)", r.n_extra);
	worst_comm(m, comm, sizeof(comm));
	c = (struct rec_ctx){ 1, INT32_MAX, INT32_MAX, INT32_MAX, comm, 0, 0xf };
	every_offset(name, m, &r, &c, &longest);
	if (file && m == JSON) {
		/* the CLI sweep's input: enough records to cross several flushes */
		FILE *f = fopen(file, "wb");
		unsigned int k;

		for (k = 0; f && k < 4096; k++)
			fwrite(buf, 1, n, f);
		if (!f || fclose(f))
			FAIL("write-trace", "cannot write %s", file);
	}
}

/* Every packet header with its largest payload: one line each, its bytes. */
static void t_dump_every_header(void)
{
	uint8_t pkt[SPE_MAX_PACKET_LEN + 2];
	char *text = NULL;
	size_t textlen = 0;
	unsigned int h0, h1, lines = 0;
	FILE *f;

	for (h0 = 1; h0 < 256; h0++) {
		for (h1 = 0; h1 < ((h0 & 0xe0) == 0x20 ? 256u : 1u); h1++) {
			struct spe_packet p;
			int n;

			memset(pkt, 0xff, sizeof(pkt));
			pkt[0] = (uint8_t)h0;
			pkt[1] = (uint8_t)h1;
			n = spe_pkt_decode(pkt, sizeof(pkt), &p);
			if (n <= 0 || p.type == SPE_PKT_PAD)
				continue;
			f = open_memstream(&text, &textlen);
			if (!f)
				FAIL("dump-every-header", "open_memstream");
			dump_packets(f, pkt, 0, (size_t)n, 0, 0);
			fclose(f);
			{
				char want[3 * SPE_MAX_PACKET_LEN + 1];
				int k, w = 0;

				for (k = 0; k < n; k++)
					w += snprintf(want + w, sizeof(want) - (size_t)w, "%02x ", pkt[k]);
				if (strncmp(text, "00000000: ", 10) || strncmp(text + 10, want, (size_t)w) ||
				    !strchr(text, '\n') || strchr(text, '\n') != text + textlen - 1) {
					free(text);
					FAIL("dump-every-header", "header %02x %02x: '%s'", h0, h1, text);
				}
			}
			free(text);
			text = NULL;
			lines++;
		}
	}
	printf("PASS: outbound:dump-every-header (%u packets)\n", lines);
}

/*
 * Many Events payloads with most bits set, each formatted twice (built,
 * then, for the ones whose JSON fits a cache entry, from the cache of
 * Events JSON: the 1- and 2-byte payloads): every line parses and names
 * exactly the bits set (spe_event_name(), "eN" for the others), in order.
 */
static void t_events_many(void)
{
	struct outbuf *ob = malloc(sizeof(*ob));
	static char out[8192], want[4096];
	struct spe_record r;
	uint64_t x = 0x243f6a8885a308d3ull;
	unsigned int i, pass, b;
	size_t n, w;

	if (!ob)
		FAIL("events-many", "out of memory");
	memset(&r, 0, sizeof(r));
	r.present = SPE_REC_EVENTS;
	for (i = 0; i < 65536; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		r.events = x | (x >> 1) | (x << 7);	/* about 3/4 of the bits */
		r.events_len = (uint8_t)(1u << (i & 3));
		if (r.events_len < 8)
			r.events &= (1ull << (8 * r.events_len)) - 1;
		w = (size_t)snprintf(want, sizeof(want), "\"names\":[");
		for (b = 0; b < 64; b++) {
			const char *name = spe_event_name(b);

			if (!(r.events >> b & 1))
				continue;
			if (name)
				w += (size_t)snprintf(want + w, sizeof(want) - w, "%s\"%s\"",
						      want[w - 1] == '[' ? "" : ",", name);
			else
				w += (size_t)snprintf(want + w, sizeof(want) - w, "%s\"e%u\"",
						      want[w - 1] == '[' ? "" : ",", b);
		}
		snprintf(want + w, sizeof(want) - w, "]}");
		for (pass = 0; pass < 2; pass++) {
			n = line_of(ob, JSON, &r, NULL, out, sizeof(out));
			if (!json_whole(out, n, sizeof(out)) || !strstr(out, want)) {
				free(ob);
				FAIL("events-many", "0x%llx (len %u), pass %u: %s",
				     (unsigned long long)r.events, r.events_len, pass, out);
			}
		}
	}
	free(ob);
	printf("PASS: outbound:events-many\n");
}

/* A comm's JSON string, expected bytes from RFC 8259 and RFC 3629. */
static void t_comm_utf8(void)
{
	static const struct {
		const char *comm, *json;
	} v[] = {
		{ "plain", "plain" },
		{ "q\"b\\", "q\\\"b\\\\" },
		{ "\x01\x1f\x7f", "\\u0001\\u001f\x7f" },
		{ "caf\xc3\xa9 \xe2\x82\xac \xf0\x9d\x84\x9e", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9d\x84\x9e" },
		{ "a\xff" "b", "a\\ufffdb" },				/* never in UTF-8 */
		{ "\xc0\x80", "\\ufffd\\ufffd" },			/* overlong NUL */
		{ "\xe0\x80\xaf", "\\ufffd\\ufffd\\ufffd" },		/* overlong '/' */
		{ "\xed\xa0\x80", "\\ufffd\\ufffd\\ufffd" },		/* a surrogate */
		{ "\xf4\x90\x80\x80", "\\ufffd\\ufffd\\ufffd\\ufffd" },	/* above U+10FFFF */
		{ "\x80x", "\\ufffdx" },				/* a lone continuation */
		{ "\xe2\x82", "\\ufffd\\ufffd" },			/* cut short */
	};
	struct outbuf *ob = malloc(sizeof(*ob));
	static char out[4096];
	struct spe_record r;
	struct rec_ctx c = { 1, 0, 0, 0, NULL, 0, 0 };
	char longc[FMT_COMM_MAX + 8], want[128];
	unsigned int i;
	size_t n;

	if (!ob)
		FAIL("comm-utf8", "out of memory");
	memset(&r, 0, sizeof(r));
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		c.comm = v[i].comm;
		n = line_of(ob, JSON, &r, &c, out, sizeof(out));
		snprintf(want, sizeof(want), ",\"comm\":\"%s\"", v[i].json);
		if (!strstr(out, want) || !json_whole(out, n, sizeof(out))) {
			free(ob);
			FAIL("comm-utf8", "comm #%u gave %s", i, out);
		}
	}
	/* cut at FMT_COMM_MAX bytes, even inside a sequence */
	memset(longc, 'x', sizeof(longc));
	memcpy(longc + FMT_COMM_MAX - 1, "\xc3\xa9", 2);
	longc[sizeof(longc) - 1] = 0;
	c.comm = longc;
	n = line_of(ob, JSON, &r, &c, out, sizeof(out));
	snprintf(want, sizeof(want), "\"comm\":\"%.*s\\ufffd\"", FMT_COMM_MAX - 1, longc);
	free(ob);
	if (!strstr(out, want) || !json_whole(out, n, sizeof(out)))
		FAIL("comm-utf8", "long comm gave %s", out);
	printf("PASS: outbound:comm-utf8\n");
}

/*
 * A comm of exactly FMT_COMM_MAX bytes and no NUL, in a heap buffer of that
 * size (ASan sees any read past it), ending with the first bytes of a
 * 4-byte and of a 3-byte UTF-8 sequence: no byte after it is read; in JSON
 * the cut sequence is U+FFFD per byte, in CSV the bytes as they are.
 */
static void t_comm_unterminated(void)
{
	static const char *const tails[] = { "\xf0", "\xe2\x82" };
	struct outbuf *ob = malloc(sizeof(*ob));
	static char out[4096], want[256];
	struct spe_record r;
	struct rec_ctx c = { 1, 1, 2, 3, NULL, 0, 0 };
	unsigned int i;
	size_t n, t;
	char *comm;

	if (!ob)
		FAIL("comm-unterminated", "out of memory");
	memset(&r, 0, sizeof(r));
	for (i = 0; i < 2; i++) {
		comm = malloc(FMT_COMM_MAX);
		if (!comm)
			break;
		t = strlen(tails[i]);
		memset(comm, 'a', FMT_COMM_MAX - t);
		memcpy(comm + FMT_COMM_MAX - t, tails[i], t);
		c.comm = comm;
		n = line_of(ob, JSON, &r, &c, out, sizeof(out));
		snprintf(want, sizeof(want), "\"comm\":\"%.*s%s\"", (int)(FMT_COMM_MAX - t), comm,
			 t == 1 ? "\\ufffd" : "\\ufffd\\ufffd");
		if (!strstr(out, want) || !json_whole(out, n, sizeof(out))) {
			free(comm);
			free(ob);
			FAIL("comm-unterminated", "JSON of tail %u gave %s", i, out);
		}
		n = line_of(ob, CSV, &r, &c, out, sizeof(out));
		snprintf(want, sizeof(want), "0,0,1,2,3,\"%.*s\",", FMT_COMM_MAX, comm);
		free(comm);
		if (!n || n >= sizeof(out) || strncmp(out, want, strlen(want))) {
			free(ob);
			FAIL("comm-unterminated", "CSV of tail %u gave %s", i, out);
		}
	}
	free(ob);
	printf("PASS: outbound:comm-unterminated\n");
}

/* A CSV comm: quoted, a quote inside doubled (RFC 4180), cut at FMT_COMM_MAX bytes. */
static void t_comm_csv(void)
{
	struct outbuf *ob = malloc(sizeof(*ob));
	static char out[4096];
	struct spe_record r;
	struct rec_ctx c = { 1, 1, 2, 3, NULL, 0, 0 };
	char longc[FMT_COMM_MAX + 8], want[2 * FMT_COMM_MAX + 16];
	size_t n;

	if (!ob)
		FAIL("comm-csv", "out of memory");
	memset(&r, 0, sizeof(r));
	memset(longc, 'y', sizeof(longc));
	longc[0] = '"';
	longc[sizeof(longc) - 1] = 0;
	c.comm = longc;
	n = line_of(ob, CSV, &r, &c, out, sizeof(out));
	free(ob);
	snprintf(want, sizeof(want), "0,0,1,2,3,\"\"\"%.*s\",,", FMT_COMM_MAX - 1, longc + 1);
	if (!n || n >= sizeof(out) || strncmp(out, want, strlen(want)) || csv_columns(out, n - 1) != 28)
		FAIL("comm-csv", "gave %s", out);
	printf("PASS: outbound:comm-csv\n");
}

int main(int argc, char **argv)
{
	const char *trace = argc > 2 && !strcmp(argv[1], "--trace") ? argv[2] : NULL;

	/* each line out at once: an abort or a leak report skips stdio's flush */
	setvbuf(stdout, NULL, _IOLBF, 0);
	t_worst_struct(JSON);
	t_worst_struct(CSV);
	t_worst_encoded(JSON, trace);
	t_worst_encoded(CSV, NULL);
	t_dump_every_header();
	t_events_many();
	t_comm_utf8();
	t_comm_csv();
	t_comm_unterminated();
	free(cap.s);
	return nfail ? 1 : 0;
}
