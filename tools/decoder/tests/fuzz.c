// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * libFuzzer target for libspe_decoder:
 *   clang -fsanitize=fuzzer,address,undefined -I include tests/fuzz.c spe_*.c
 *
 * Feeds arbitrary bytes to the record iterator (with and without legacy
 * Alignment handling), the packet iterator and the describers, checks
 * iterator invariants (among them: on error-free data both iterators leave
 * the same stats), checks that the streaming API fed random chunkings gives
 * the whole-buffer results and so do the batch iterators in random batch
 * sizes, and checks that every record decoded re-encodes to
 * bytes that decode to the same fields.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <arm_spe/spe_decoder.h>

#include "stream_cmp.h"

#define REQUIRE(c) do { if (!(c)) abort(); } while (0)

static uint8_t stream_win[SPE_STREAM_MIN_CAP(SPE_DEC_LEGACY_ALIGN)];

static void round_trip(const struct spe_record *r)
{
	uint8_t buf[SPE_MAX_RECORD_LEN + 64];
	struct spe_enc e;
	struct spe_decoder d;
	struct spe_record r2;
	unsigned int k;

	if (r->present & SPE_REC_DUP || r->n_extra > SPE_REC_NEXTRA)
		return;
	spe_enc_init(&e, buf, sizeof(buf));
	REQUIRE(spe_enc_record(&e, r) == 0);
	spe_decoder_init(&d, buf, e.len, 0);
	REQUIRE(spe_decoder_next(&d, &r2) == 1);
	REQUIRE(r2.present == r->present);
	REQUIRE(r2.size == e.len);
	for (k = 0; k < SPE_REC_NADDR; k++)
		if (r->present & SPE_REC_ADDR(k))
			REQUIRE(r2.addr[k] == r->addr[k]);
	for (k = 0; k < SPE_REC_NCNT; k++)
		if (r->present & SPE_REC_CNT(k))
			REQUIRE(r2.counter[k] == r->counter[k]);
	for (k = 0; k < 2; k++)
		if (r->present & SPE_REC_CTX(k))
			REQUIRE(r2.context[k] == r->context[k]);
	if (r->present & SPE_REC_EVENTS)
		REQUIRE(r2.events == r->events && r2.events_len == r->events_len);
	if (r->present & SPE_REC_DATA_SOURCE)
		REQUIRE(r2.data_source == r->data_source &&
			r2.data_source_len == r->data_source_len);
	if (r->present & SPE_REC_OP)
		REQUIRE(r2.op_class == r->op_class && r2.op_subclass == r->op_subclass);
	if (r->present & SPE_REC_TIMESTAMP)
		REQUIRE(r2.timestamp == r->timestamp);
	REQUIRE(r2.n_extra == r->n_extra);
	for (k = 0; k < r->n_extra; k++)
		REQUIRE(r2.extra[k].payload == r->extra[k].payload &&
			r2.extra[k].type == r->extra[k].type &&
			r2.extra[k].index == r->extra[k].index);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct spe_decoder d;
	struct spe_record r;
	struct spe_packet p;
	struct spe_op op;
	char desc[256];
	unsigned int pass, guard;
	int way;
	int ret;

	for (pass = 0; pass < 2; pass++) {
		spe_decoder_init(&d, data, size, pass ? SPE_DEC_LEGACY_ALIGN : 0);
		d.buf_addr = pass ? (size ? data[0] : 0) : 0;
		guard = 0;
		for (;;) {
			size_t before = d.pos;

			ret = spe_decoder_next(&d, &r);
			if (!ret)
				break;
			REQUIRE(++guard <= size + 1);
			REQUIRE(d.pos <= size);
			if (ret < 0) {
				REQUIRE(d.err.resume <= size);
				REQUIRE(d.err.offset < size || size == 0);
				REQUIRE(d.pos > before);
				continue;
			}
			REQUIRE(ret == 1);
			REQUIRE(r.offset >= before && r.offset + r.size <= size);
			REQUIRE(r.size >= 1);
			REQUIRE(d.pos > before);
			if (r.present & SPE_REC_OP)
				spe_op_decode(r.op_class, r.op_subclass, &op);
			if (!pass)
				round_trip(&r);
		}
		REQUIRE(d.pos == size);
	}

	/* streaming: random chunkings give the whole-buffer results */
	{
		struct chunker c = { .state = 0x9e3779b97f4a7c15ull ^ size, .max = 1 };
		unsigned int k;

		for (k = 0; k < size && k < 8; k++)
			c.state = c.state * 131 + data[k];
		c.state |= 1;
		for (pass = 0; pass < 3; pass++) {
			unsigned int fl = pass == 2 ? SPE_DEC_LEGACY_ALIGN : 0;

			c.max = pass == 0 ? 1 : 1 + (c.state & 511);
			REQUIRE(stream_vs_whole(data, size, fl, fl ? (size ? data[0] : 0) : 0, &c,
						stream_win, SPE_STREAM_MIN_CAP(fl)) == 0);
		}
	}

	/*
	 * the record iterator's fast path against its general loop, on the
	 * input and on the input followed by padding (so that every record in
	 * it has the room the fast path wants)
	 */
	{
		static uint8_t padded[8192 + 256];
		size_t n = size < 8192 ? size : 8192;
		struct chunker c = { .state = 0x2545f4914f6cdd1dull ^ size, .max = 97 };

		memcpy(padded, data, n);
		memset(padded + n, 0, 256);
		for (pass = 0; pass < 2; pass++) {
			unsigned int fl = pass ? SPE_DEC_LEGACY_ALIGN : 0;
			uint64_t addr = fl ? (size ? data[0] : 0) : 0;

			REQUIRE(fast_vs_general(data, size, fl, addr) == 0);
			REQUIRE(fast_vs_general(padded, n + 256, fl, addr) == 0);
			/* and the batch iterators against one call a result */
			REQUIRE(batch_vs_single(data, size, fl, addr, &c, 0) == 0);
			REQUIRE(batch_vs_single(padded, n + 256, fl, addr, &c, 0) == 0);
			REQUIRE(batch_vs_single(data, size, fl, addr, &c, 1) == 0);
			REQUIRE(batch_vs_single(padded, n + 256, fl, addr, &c, 1) == 0);
			/*
			 * the batches by their layouts, each way (learnt from these
			 * bytes): packets by find() and find_nb(), records by one
			 * chain, two and strided
			 */
			for (way = 1; way <= 3; way++) {
				spe__layout_mode(way);
				REQUIRE(batch_vs_single(padded, n + 256, fl, addr, &c, 1) == 0);
				REQUIRE(batch_vs_single(padded, n + 256, fl, addr, &c, 1) == 0);
				REQUIRE(batch_vs_single(padded, n + 256, fl, addr, &c, 0) == 0);
			}
			spe__layout_mode(0);
			/* the packet batches' portable loop too, where the default is not it */
			REQUIRE(batch_vs_single(data, size, fl | SPE__DEC_NO_SIMD, addr, &c, 1) == 0);
			REQUIRE(batch_vs_single(padded, n + 256, fl | SPE__DEC_NO_SIMD, addr, &c,
						1) == 0);
		}
	}

	/* one definition of the stats: both iterators agree on error-free data */
	for (pass = 0; pass < 2; pass++) {
		struct spe_decoder_stats rs;

		spe_decoder_init(&d, data, size, pass ? SPE_DEC_LEGACY_ALIGN : 0);
		while (spe_decoder_next(&d, &r) != 0)
			;
		rs = d.stats;
		if (rs.errors)
			continue;
		spe_decoder_init(&d, data, size, pass ? SPE_DEC_LEGACY_ALIGN : 0);
		while (spe_decoder_next_packet(&d, &p) != 0)
			;
		REQUIRE(d.stats.records == rs.records && d.stats.packets == rs.packets &&
			d.stats.pad_bytes == rs.pad_bytes && d.stats.unknown == rs.unknown &&
			d.stats.errors == 0);
	}

	spe_decoder_init(&d, data, size, SPE_DEC_LEGACY_ALIGN);
	guard = 0;
	while ((ret = spe_decoder_next_packet(&d, &p)) != 0) {
		REQUIRE(++guard <= size + 1);
		if (ret < 0)
			continue;
		REQUIRE(p.offset + p.len <= size);
		REQUIRE(p.len >= 1 && (p.len <= SPE_MAX_PACKET_LEN || p.type == SPE_PKT_PAD));
		REQUIRE(spe_pkt_describe(&p, desc, sizeof(desc)) > 0);
		REQUIRE(strlen(desc) < sizeof(desc));
		if (p.type == SPE_PKT_OP_TYPE)
			spe_op_decode(p.index, (unsigned int)p.payload, &op);
	}
	return 0;
}
