// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * spe-decode's record formatters (spe_format.h): JSON Lines and CSV, built
 * with outbuf appends. Field meanings follow spec 002 (D18.2): Address
 * payload bits (D18.2.1), Counter saturation (D18.2.3), Events bits
 * (D18.2.6), Operation Type (D18.2.7).
 */
#include "spe_format.h"

/*
 * Worst cases. Each line is built after one ob_room() for the most its
 * formatter can write, whatever the record holds: every number at its
 * longest (OB_U64_MAX, OB_HEX_MAX), every name at SPE_NAME_MAX, all 64
 * event bits named, SPE_REC_NEXTRA extra packets, a comm of
 * FMT_COMM_MAX bytes each written at its longest. The sums are below, part
 * by part in the order the formatter writes them; an OB_CHECK build
 * (tests/outbound.c, the fuzz targets) aborts on any append beyond them.
 */
#define L(s)		(sizeof(s) - 1)
#define U64		OB_U64_MAX
#define HEX		OB_HEX_MAX
#define NAME		SPE_NAME_MAX
/* "truncated" and "overwrite" are the longest PERF_AUX_FLAG_* names */
#define AUXF_ITEM	L("truncated")
/* four names, separators between them, quoted or not */
#define AUXF_MAX(q)	(4 * (AUXF_ITEM + 2 * (q)) + 3)

/* json_pc_like(): ,"k":"0x..","k_el":N,"k_ns":N,"k_nse":N for a key of k bytes */
#define J_PCLIKE(k)	(L(",\"") + (k) + L("\":\"") + HEX + L("\",\"") + (k) + L("_el\":") + 1 + \
			 L(",\"") + (k) + L("_ns\":") + 1 + L(",\"") + (k) + L("_nse\":") + 1)
/* kv(): ,"k":N */
#define J_KV(k)		(L(",\"") + (k) + L("\":") + U64)
#define J_HEAD		(L("{\"offset\":") + U64 + L(",\"size\":") + U64)
/* json_ctx(): cpu, pid, tid ("null" is shorter than a number), comm, flags */
#define J_CTX		(J_KV(3) * 3 + L(",\"comm\":\"") + 6 * FMT_COMM_MAX + 1 + \
			 L(",\"aux_flags\":[") + AUXF_MAX(1) + 1)
#define J_ADDRS		(J_PCLIKE(L("pc")) + J_PCLIKE(L("br_tgt")) + \
			 L(",\"data_va\":\"") + HEX + L("\",\"data_va_tag\":") + U64 + \
			 L(",\"data_pa\":\"") + HEX + L("\",\"data_pa_ns\":") + 1 + \
			 L(",\"data_pa_nse\":") + 1 + L(",\"data_pa_ch\":") + 1 + \
			 L(",\"data_pa_pat\":") + U64 + J_PCLIKE(L("prev_br_tgt")))
#define J_CONTEXT	(2 * J_KV(L("context_el1")))
/* json_op_build(): at most four fields after the kind, keys of at most 4 bytes */
#define J_OP		(L(",\"op\":{\"class\":") + U64 + L(",\"subclass\":") + U64 + \
			 L(",\"kind\":\"") + NAME + 1 + L(",\"store\":false") + 4 * J_KV(4) + \
			 L(",\"reserved\":true") + 1)
/* 64 quoted names ("eN" for unnamed bits is shorter) and 63 commas */
#define J_EVENTS	(L(",\"events\":{\"raw\":\"") + HEX + L("\",\"len\":") + U64 + \
			 L(",\"names\":[") + 64 * (NAME + 3) + L("]}"))
/* four counters, each maybe saturated; "alt_issue" is the longest key */
#define J_LAT_KEY	L("alt_issue")
#define J_LAT		(L(",\"lat\":{\"") + 4 * (J_LAT_KEY + L("\":") + U64 + L(",\"") + \
			 J_LAT_KEY + L("_saturated\":true") + L(",\"")) + 1)
#define J_TAIL		(J_KV(L("data_source")) + L(",\"ts\":") + U64 + \
			 L(",\"end\":\"timestamp\"") + L(",\"duplicate_packets\":true"))
#define J_EXTRA1	(1 + L("{\"type\":\"") + NAME + L("\",\"offset\":") + U64 + \
			 L(",\"hdr\":\"0x") + 4 + L("\",\"index\":") + U64 + L(",\"payload\":\"") + \
			 HEX + L("\"}"))
#define J_EXTRA		(L(",\"extra\":[") + SPE_REC_NEXTRA * J_EXTRA1 + 1 + \
			 L(",\"extra_count\":") + U64)
/* 4,080 bytes; the longest line tests/outbound.c finds is 2,393 */
#define J_RECORD_MAX	(J_HEAD + J_CTX + J_ADDRS + J_CONTEXT + J_OP + J_EVENTS + J_LAT + \
			 J_TAIL + J_EXTRA + L("}\n"))

/*
 * CSV: each column's longest value and its comma, in CSV_HEADER's order:
 * 2,259 bytes; the longest row tests/outbound.c finds is 863
 */
#define C_NUM		(U64 + 1)
#define C_HEX		(HEX + 1)
#define C_RECORD_MAX	(2 * C_NUM + 3 * C_NUM + (2 + 2 * FMT_COMM_MAX + 1) + \
			 (AUXF_MAX(0) + 1) + C_HEX + 2 * C_NUM + 4 * C_HEX + \
			 (NAME + 1) + 2 * C_NUM + 2 + C_HEX + (64 * (NAME + 1) + 1) + \
			 4 * C_NUM + 2 * C_NUM + L("timestamp,") + U64 + 1)

const size_t fmt_json_record_max = J_RECORD_MAX;
const size_t fmt_csv_record_max = C_RECORD_MAX;

_Static_assert(J_RECORD_MAX <= OB_CAP / 16 && C_RECORD_MAX <= OB_CAP / 16,
	       "a record's worst case is a small part of the output buffer");
_Static_assert(J_RECORD_MAX == 4080 && C_RECORD_MAX == 2259,
	       "a worst case changed: update the figures above and in decoder.rst");
/* the Operation Type cache (struct frag below) holds any op's JSON */
#define FRAG_MAX	246
_Static_assert(J_OP <= FRAG_MAX, "an Operation Type's JSON fits a cache entry");

/* PERF_AUX_FLAG_* of the perf_event ABI (include/uapi/linux/perf_event.h) */
#define AUX_TRUNCATED	0x01u
#define AUX_OVERWRITE	0x02u
#define AUX_PARTIAL	0x04u
#define AUX_COLLISION	0x08u

void fmt_aux_flags(struct outbuf *ob, unsigned int flags, char sep)
{
	static const struct { unsigned int bit; const char *name; } f[] = {
		{ AUX_TRUNCATED, "truncated" }, { AUX_OVERWRITE, "overwrite" },
		{ AUX_PARTIAL, "partial" }, { AUX_COLLISION, "collision" },
	};
	unsigned int i, first = 1;

	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		if (!(flags & f[i].bit))
			continue;
		if (!first)
			ob_chr(ob, sep);
		if (sep == ',')
			ob_chr(ob, '"');
		ob_str(ob, f[i].name);
		if (sep == ',')
			ob_chr(ob, '"');
		first = 0;
	}
}

/*
 * The length of the UTF-8 sequence at s (RFC 3629: no overlong forms, no
 * surrogates, nothing above U+10FFFF), or 0 if the avail bytes at s do not
 * start one. Reads no byte beyond those.
 */
static unsigned int utf8_len(const unsigned char *s, size_t avail)
{
	unsigned int n, i;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1fu;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0fu;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07u;
	else
		return 0;
	if (n > avail)
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3fu);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

/*
 * A JSON string body (RFC 8259) of the first FMT_COMM_MAX bytes of s:
 * quotes, backslashes and control characters escaped, valid UTF-8 kept,
 * any other byte written as U+FFFD. At most 6 bytes out per byte in.
 */
static void json_escape(struct outbuf *ob, const char *str)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *s = (const unsigned char *)str, *end = s;
	unsigned int n;

	/* the cap first: no byte past FMT_COMM_MAX is read, NUL or not */
	while (end - s < FMT_COMM_MAX && *end)
		end++;
	while (s < end) {
		unsigned char c = *s;

		if (c == '"' || c == '\\') {
			ob_chr(ob, '\\');
			ob_chr(ob, (char)c);
			s++;
		} else if (c < 0x20) {
			ob_lit(ob, "\\u00");
			ob_chr(ob, hex[c >> 4]);
			ob_chr(ob, hex[c & 0xf]);
			s++;
		} else if ((n = utf8_len(s, (size_t)(end - s))) != 0) {
			ob_mem(ob, (const char *)s, n);
			s += n;
		} else {
			ob_lit(ob, "\\ufffd");
			s++;
		}
	}
}

static void json_ctx(struct outbuf *ob, const struct rec_ctx *c)
{
	if (!c || !c->valid)
		return;
	ob_lit(ob, ",\"cpu\":");
	if (c->cpu < 0)
		ob_lit(ob, "null");
	else
		ob_u64(ob, (uint64_t)c->cpu);
	ob_lit(ob, ",\"pid\":");
	if (c->pid < 0)
		ob_lit(ob, "null");
	else
		ob_u64(ob, (uint64_t)c->pid);
	ob_lit(ob, ",\"tid\":");
	if (c->tid < 0)
		ob_lit(ob, "null");
	else
		ob_u64(ob, (uint64_t)c->tid);
	if (c->comm) {
		ob_lit(ob, ",\"comm\":\"");
		json_escape(ob, c->comm);
		ob_chr(ob, '"');
	}
	if (c->aux_flags) {
		ob_lit(ob, ",\"aux_flags\":[");
		fmt_aux_flags(ob, c->aux_flags, ',');
		ob_chr(ob, ']');
	}
}

/* ,"key":"0x..","key_el":N,"key_ns":N,"key_nse":N (D18.2.1 byte 7) */
static inline __attribute__((always_inline)) void
json_pc_like(struct outbuf *ob, const char *key, size_t klen, uint64_t p)
{
	ob_lit(ob, ",\"");
	ob_mem(ob, key, klen);
	ob_lit(ob, "\":\"");
	ob_hex(ob, spe_addr_va_sext(p));
	ob_lit(ob, "\",\"");
	ob_mem(ob, key, klen);
	ob_lit(ob, "_el\":");
	ob_chr(ob, (char)('0' + SPE_ADDR_EL(p)));
	ob_lit(ob, ",\"");
	ob_mem(ob, key, klen);
	ob_lit(ob, "_ns\":");
	ob_chr(ob, (char)('0' + SPE_ADDR_NS(p)));
	ob_lit(ob, ",\"");
	ob_mem(ob, key, klen);
	ob_lit(ob, "_nse\":");
	ob_chr(ob, (char)('0' + SPE_ADDR_NSE(p)));
}

static void json_addrs(struct outbuf *ob, const struct spe_record *r)
{
	uint64_t p;

	if (r->present & SPE_REC_PC)
		json_pc_like(ob, "pc", 2, r->addr[SPE_ADDR_IDX_PC]);
	if (r->present & SPE_REC_BR_TGT)
		json_pc_like(ob, "br_tgt", 6, r->addr[SPE_ADDR_IDX_BR_TGT]);
	if (r->present & SPE_REC_DATA_VA) {
		p = r->addr[SPE_ADDR_IDX_DATA_VA];
		ob_lit(ob, ",\"data_va\":\"");
		ob_hex(ob, spe_addr_va_sext(p));
		ob_lit(ob, "\",\"data_va_tag\":");
		ob_u64(ob, SPE_ADDR_TAG(p));
	}
	if (r->present & SPE_REC_DATA_PA) {
		p = r->addr[SPE_ADDR_IDX_DATA_PA];
		ob_lit(ob, ",\"data_pa\":\"");
		ob_hex(ob, SPE_ADDR_ADDR(p));
		ob_lit(ob, "\",\"data_pa_ns\":");
		ob_chr(ob, (char)('0' + SPE_ADDR_NS(p)));
		ob_lit(ob, ",\"data_pa_nse\":");
		ob_chr(ob, (char)('0' + SPE_ADDR_NSE(p)));
		ob_lit(ob, ",\"data_pa_ch\":");
		ob_chr(ob, (char)('0' + SPE_ADDR_CH(p)));
		ob_lit(ob, ",\"data_pa_pat\":");
		ob_u64(ob, SPE_ADDR_PAT(p));
	}
	if (r->present & SPE_REC_PREV_BR_TGT)
		json_pc_like(ob, "prev_br_tgt", 11, r->addr[SPE_ADDR_IDX_PREV_BR_TGT]);
}

/* ,"name":N */
static inline void kv(struct outbuf *ob, const char *key, unsigned int v)
{
	ob_lit(ob, ",\"");
	ob_str(ob, key);
	ob_lit(ob, "\":");
	ob_u64(ob, v);
}

static void json_op_build(struct outbuf *ob, const struct spe_record *r)
{
	struct spe_op op;

	spe_op_decode(r->op_class, r->op_subclass, &op);
	ob_lit(ob, ",\"op\":{\"class\":");
	ob_u64(ob, r->op_class);
	ob_lit(ob, ",\"subclass\":");
	ob_u64(ob, r->op_subclass);
	ob_lit(ob, ",\"kind\":\"");
	ob_str(ob, spe_op_kind_name(op.kind));
	ob_chr(ob, '"');
	if (op.is_ldst) {
		if (op.store)
			ob_lit(ob, ",\"store\":true");
		else
			ob_lit(ob, ",\"store\":false");
	}
	switch (op.kind) {
	case SPE_OP_OTHER:
		kv(ob, "ase", op.ase), kv(ob, "fp", op.fp), kv(ob, "cond", op.cond);
		break;
	case SPE_OP_SVE_DP:
		kv(ob, "evl", op.evl), kv(ob, "pred", op.pred), kv(ob, "fp", op.fp);
		break;
	case SPE_OP_SME_DP:
		kv(ob, "ets", op.ets), kv(ob, "fp", op.fp);
		break;
	case SPE_OP_LDST_EXT:
		kv(ob, "at", op.at), kv(ob, "excl", op.excl), kv(ob, "ar", op.ar);
		break;
	case SPE_OP_LDST_SVE_SME:
		kv(ob, "evl", op.evl), kv(ob, "pred", op.pred), kv(ob, "sg", op.sg);
		break;
	case SPE_OP_LDST_GCS:
		kv(ob, "comm", op.comm);
		break;
	case SPE_OP_BRANCH:
		kv(ob, "cond", op.cond), kv(ob, "ind", op.ind), kv(ob, "cr", op.cr);
		kv(ob, "gcs", op.gcs);
		break;
	default:
		break;
	}
	if (op.reserved)
		ob_lit(ob, ",\"reserved\":true");
	ob_chr(ob, '}');
}

/*
 * A record's Operation Type and Events depend on a few bits only and
 * repeat from record to record: their JSON is built once and then copied.
 */
struct frag {
	uint64_t key;
	uint16_t len;		/* 0: empty */
	char s[FRAG_MAX];
};

/* Copy a cached fragment, or build it into ob and keep a copy. */
static int frag_put(struct outbuf *ob, struct frag *f, uint64_t key)
{
	if (f->len && f->key == key) {
		ob_mem(ob, f->s, f->len);
		return 1;
	}
	return 0;
}

static void frag_keep(struct frag *f, uint64_t key, const char *from, const char *to)
{
	if ((size_t)(to - from) <= sizeof(f->s)) {
		memcpy(f->s, from, (size_t)(to - from));
		f->len = (uint16_t)(to - from);
		f->key = key;
	}
}

static struct frag op_frags[4 * 256];

static void json_op(struct outbuf *ob, const struct spe_record *r)
{
	unsigned int k = (r->op_class & 3u) << 8 | r->op_subclass;
	char *from = ob->p;

	if (frag_put(ob, &op_frags[k], k))
		return;
	json_op_build(ob, r);
	frag_keep(&op_frags[k], k, from, ob->p);
}

/* Event names (D18.2.6), "eN" for bits without one, separated by sep. */
static void event_names(struct outbuf *ob, uint64_t ev, int quote, char sep)
{
	int first = 1;

	while (ev) {
		unsigned int b = (unsigned int)__builtin_ctzll(ev);
		const char *n = spe_event_name(b);

		ev &= ev - 1;
		if (!first)
			ob_chr(ob, sep);
		if (quote)
			ob_chr(ob, '"');
		if (n) {
			ob_str(ob, n);
		} else {
			ob_chr(ob, 'e');
			ob_u64(ob, b);
		}
		if (quote)
			ob_chr(ob, '"');
		first = 0;
	}
}

static const char *const lat_key[SPE_REC_NCNT] = {
	"total", "issue", "xlat", NULL, "alt_issue",
};

void fmt_json_record(struct outbuf *ob, const struct spe_record *r, unsigned int counter_bits,
		     const struct rec_ctx *ctx)
{
	unsigned int i, first;

	ob_room(ob, J_RECORD_MAX);
	ob_lit(ob, "{\"offset\":");
	ob_u64(ob, r->offset);
	ob_lit(ob, ",\"size\":");
	ob_u64(ob, r->size);
	json_ctx(ob, ctx);
	json_addrs(ob, r);
	if (r->present & SPE_REC_CTX(0))
		kv(ob, "context_el1", r->context[0]);
	if (r->present & SPE_REC_CTX(1))
		kv(ob, "context_el2", r->context[1]);
	if (r->present & SPE_REC_OP)
		json_op(ob, r);
	if (r->present & SPE_REC_EVENTS) {
		static struct frag ev_frags[256];
		/* events_len is at most 8: it fits above the 64 bits with a hash */
		uint64_t key = r->events ^ ((uint64_t)r->events_len << 60 | r->events_len);
		struct frag *f = &ev_frags[(key * 0x9e3779b97f4a7c15ull) >> 56];
		char *from = ob->p;

		if (f->len && f->key == key && r->events_len == (uint8_t)f->s[0]) {
			ob_mem(ob, f->s + 1, f->len - 1u);
		} else {
			ob_lit(ob, ",\"events\":{\"raw\":\"");
			ob_hex(ob, r->events);
			ob_lit(ob, "\",\"len\":");
			ob_u64(ob, r->events_len);
			ob_lit(ob, ",\"names\":[");
			event_names(ob, r->events, 1, ',');
			ob_lit(ob, "]}");
			if ((size_t)(ob->p - from) < sizeof(f->s)) {
				f->s[0] = (char)r->events_len;
				memcpy(f->s + 1, from, (size_t)(ob->p - from));
				f->len = (uint16_t)(ob->p - from + 1);
				f->key = key;
			}
		}
	}
	first = 1;
	for (i = 0; i < SPE_REC_NCNT; i++) {
		if (!(r->present & SPE_REC_CNT(i)) || !lat_key[i])
			continue;
		if (first)
			ob_lit(ob, ",\"lat\":{\"");
		else
			ob_lit(ob, ",\"");
		ob_str(ob, lat_key[i]);
		ob_lit(ob, "\":");
		ob_u64(ob, SPE_CNT_VALUE(r->counter[i], counter_bits));
		if (SPE_CNT_SATURATED(r->counter[i], counter_bits)) {
			ob_lit(ob, ",\"");
			ob_str(ob, lat_key[i]);
			ob_lit(ob, "_saturated\":true");
		}
		first = 0;
	}
	if (!first)
		ob_chr(ob, '}');
	if (r->present & SPE_REC_DATA_SOURCE)
		kv(ob, "data_source", r->data_source);
	if (r->present & SPE_REC_TIMESTAMP) {
		ob_lit(ob, ",\"ts\":");
		ob_u64(ob, r->timestamp);
		ob_lit(ob, ",\"end\":\"timestamp\"");
	} else {
		ob_lit(ob, ",\"end\":\"end\"");
	}
	if (r->present & SPE_REC_DUP)
		ob_lit(ob, ",\"duplicate_packets\":true");
	if (r->n_extra) {
		ob_lit(ob, ",\"extra\":[");
		for (i = 0; i < r->n_extra && i < SPE_REC_NEXTRA; i++) {
			const struct spe_extra_pkt *x = &r->extra[i];
			static const char hex[] = "0123456789abcdef";

			if (i)
				ob_chr(ob, ',');
			ob_lit(ob, "{\"type\":\"");
			ob_str(ob, spe_pkt_type_name(x->type));
			ob_lit(ob, "\",\"offset\":");
			ob_u64(ob, r->offset + x->rel_offset);
			ob_lit(ob, ",\"hdr\":\"0x");
			ob_chr(ob, hex[x->hdr0 >> 4]);
			ob_chr(ob, hex[x->hdr0 & 0xf]);
			if (SPE_HDR_IS_EXT(x->hdr0)) {
				ob_chr(ob, hex[x->hdr1 >> 4]);
				ob_chr(ob, hex[x->hdr1 & 0xf]);
			}
			ob_lit(ob, "\",\"index\":");
			ob_u64(ob, x->index);
			ob_lit(ob, ",\"payload\":\"");
			ob_hex(ob, x->payload);
			ob_lit(ob, "\"}");
		}
		ob_chr(ob, ']');
		if (r->n_extra > SPE_REC_NEXTRA) {
			ob_lit(ob, ",\"extra_count\":");
			ob_u64(ob, r->n_extra);
		}
	}
	ob_lit(ob, "}\n");
}

/* CSV: an optional number, empty when absent */
static void csv_num(struct outbuf *ob, int present, uint64_t v)
{
	if (present)
		ob_u64(ob, v);
	ob_chr(ob, ',');
}

static void csv_hex(struct outbuf *ob, int present, uint64_t v)
{
	if (present)
		ob_hex(ob, v);
	ob_chr(ob, ',');
}

void fmt_csv_record(struct outbuf *ob, const struct spe_record *r, unsigned int counter_bits,
		    const struct rec_ctx *c)
{
	uint32_t pr = r->present;
	uint64_t pc = r->addr[SPE_ADDR_IDX_PC];
	unsigned int i;

	ob_room(ob, C_RECORD_MAX);
	ob_u64(ob, r->offset);
	ob_chr(ob, ',');
	ob_u64(ob, r->size);
	ob_chr(ob, ',');
	/* cpu,pid,tid,comm,aux_flags: from perf.data, empty for a raw dump */
	csv_num(ob, c && c->valid && c->cpu >= 0, c ? (uint64_t)c->cpu : 0);
	csv_num(ob, c && c->valid && c->pid >= 0, c ? (uint64_t)c->pid : 0);
	csv_num(ob, c && c->valid && c->tid >= 0, c ? (uint64_t)c->tid : 0);
	if (c && c->valid && c->comm) {
		const char *s;

		/* quoted; a quote inside is doubled (RFC 4180) */
		ob_chr(ob, '"');
		for (s = c->comm; s - c->comm < FMT_COMM_MAX && *s; s++) {
			if (*s == '"')
				ob_chr(ob, '"');
			ob_chr(ob, (unsigned char)*s < 0x20 ? '?' : *s);
		}
		ob_chr(ob, '"');
	}
	ob_chr(ob, ',');
	if (c && c->valid)
		fmt_aux_flags(ob, c->aux_flags, '|');
	ob_chr(ob, ',');
	/* pc,pc_el,pc_ns,br_tgt,prev_br_tgt,data_va,data_pa */
	csv_hex(ob, pr & SPE_REC_PC, spe_addr_va_sext(pc));
	csv_num(ob, pr & SPE_REC_PC, SPE_ADDR_EL(pc));
	csv_num(ob, pr & SPE_REC_PC, SPE_ADDR_NS(pc));
	csv_hex(ob, pr & SPE_REC_BR_TGT, spe_addr_va_sext(r->addr[SPE_ADDR_IDX_BR_TGT]));
	csv_hex(ob, pr & SPE_REC_PREV_BR_TGT, spe_addr_va_sext(r->addr[SPE_ADDR_IDX_PREV_BR_TGT]));
	csv_hex(ob, pr & SPE_REC_DATA_VA, spe_addr_va_sext(r->addr[SPE_ADDR_IDX_DATA_VA]));
	csv_hex(ob, pr & SPE_REC_DATA_PA, SPE_ADDR_ADDR(r->addr[SPE_ADDR_IDX_DATA_PA]));
	/* op_kind,op_class,op_subclass,store */
	if (pr & SPE_REC_OP) {
		struct spe_op op;

		spe_op_decode(r->op_class, r->op_subclass, &op);
		ob_str(ob, spe_op_kind_name(op.kind));
		ob_chr(ob, ',');
		ob_u64(ob, r->op_class);
		ob_chr(ob, ',');
		ob_u64(ob, r->op_subclass);
		ob_chr(ob, ',');
		if (op.is_ldst)
			ob_chr(ob, op.store ? '1' : '0');
		ob_chr(ob, ',');
	} else {
		ob_lit(ob, ",,,,");
	}
	/* events,event_names */
	csv_hex(ob, pr & SPE_REC_EVENTS, r->events);
	if (pr & SPE_REC_EVENTS)
		event_names(ob, r->events, 0, '|');
	ob_chr(ob, ',');
	/* lat_total,lat_issue,lat_xlat,lat_alt_issue */
	for (i = 0; i < SPE_REC_NCNT; i++)
		if (lat_key[i])
			csv_num(ob, pr & SPE_REC_CNT(i), SPE_CNT_VALUE(r->counter[i], counter_bits));
	csv_num(ob, pr & SPE_REC_DATA_SOURCE, r->data_source);
	csv_num(ob, pr & SPE_REC_TIMESTAMP, r->timestamp);
	if (pr & SPE_REC_TIMESTAMP)
		ob_lit(ob, "timestamp,");
	else
		ob_lit(ob, "end,");
	ob_u64(ob, r->n_extra);
	ob_chr(ob, '\n');
}

void fmt_csv_header(struct outbuf *ob)
{
	ob_room(ob, L(CSV_HEADER));
	ob_lit(ob, CSV_HEADER);
}
