// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * spe-decode --dump (spe_dump.h). Each line is bounded: the hex column
 * holds at most SPE_MAX_PACKET_LEN bytes (Padding runs are one line of
 * their own), descriptions come from spe_pkt_describe() into a 256-byte
 * buffer, which truncates; a line is at most its offset (16 hex digits),
 * ": ", 30 columns of bytes, a space, 255 bytes of description and the
 * newline. stdio writes it: no buffer here grows with the input.
 */
#include <inttypes.h>

#include "spe_dump.h"

/* "xx " per byte of the longest packet, and the NUL */
#define HEX_COL		(3 * SPE_MAX_PACKET_LEN + 1)

void dump_packets(FILE *out, const uint8_t *buf, size_t from, size_t to, unsigned int flags,
		  uint64_t base)
{
	char desc[256], hex[HEX_COL];
	struct spe_packet pkt;
	size_t pos = from;

	while (pos < to) {
		int n = spe_pkt_decode(buf + pos, to - pos, &pkt), i, h = 0;

		if (n < 0) {
			fprintf(out, "%08zx: %-30s (%s)\n", pos, "", spe_strerror(n));
			break;
		}
		if (pkt.type == SPE_PKT_PAD) {
			size_t q = pos;

			while (q < to && buf[q] == SPE_HDR_PADDING)
				q++;
			fprintf(out, "%08zx: %-30s PAD x%zu\n", pos, "00 ...", q - pos);
			pos = q;
			continue;
		}
		for (i = 0; i < n && i < (int)SPE_MAX_PACKET_LEN; i++)
			h += snprintf(hex + h, sizeof(hex) - (size_t)h, "%02x ", buf[pos + (size_t)i]);
		hex[h] = 0;
		spe_pkt_describe(&pkt, desc, sizeof(desc));
		fprintf(out, "%08zx: %-30s %s\n", pos, hex, desc);
		pos += (size_t)n;
		if (pkt.type == SPE_PKT_ALIGN && !pkt.reserved && (flags & SPE_DEC_LEGACY_ALIGN)) {
			/* [000] 5.3.2: the bytes up to the boundary are UNKNOWN */
			uint64_t a = SPE_ALIGN_BYTES(pkt.index), addr = base + pos;
			uint64_t next = ((addr + a - 1) & ~(a - 1)) - base;

			if (next > to)
				next = to;
			if (next > pos)
				fprintf(out, "%08zx: %-30s (%zu alignment bytes skipped)\n", pos, "..",
					(size_t)next - pos);
			if (next > pos)
				pos = (size_t)next;
		}
	}
}

void dump_trace(FILE *out, struct spe_decoder *d, const uint8_t *buf, size_t len,
		unsigned int flags, uint64_t base, const struct dump_hooks *h)
{
	struct spe_record rec;
	size_t last = 0;
	int r;

	spe_decoder_init(d, buf, len, flags);
	d->buf_addr = base;
	for (;;) {
		size_t before = d->pos;

		r = spe_decoder_next(d, &rec);
		if (r == 0)
			break;
		if (r < 0) {
			if (h && h->error)
				h->error(h->arg, d);
			dump_packets(out, buf, before, (size_t)d->err.offset, flags, base);
			fprintf(out, "%08" PRIx64 ": ERROR: %s; resuming at 0x%" PRIx64 "\n\n",
				d->err.offset, spe_strerror(d->err.code), d->err.resume);
			last = (size_t)d->err.resume;
			continue;
		}
		if (h && h->record)
			h->record(h->arg, &rec);
		dump_packets(out, buf, last, (size_t)(rec.offset + rec.size), flags, base);
		fprintf(out, "\n");
		last = (size_t)(rec.offset + rec.size);
	}
	if (last < len && !d->stats.errors)
		dump_packets(out, buf, last, len, flags, base);
}

void dump_perf(FILE *out, const struct perf_data *pd)
{
	size_t i;

	for (i = 0; i < pd->n_chunk; i++) {
		const struct pd_chunk *c = &pd->chunk[i];

		fprintf(out, "AUXTRACE idx %u cpu %d tid %d: AUX offset 0x%" PRIx64 ", %" PRIu64
			" bytes\n", c->idx, c->cpu, c->tid, c->offset, c->size);
		dump_packets(out, c->data, 0, (size_t)c->size, 0, 0);
		fprintf(out, "\n");
	}
}
