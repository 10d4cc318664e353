// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * decoder-gen: a seeded SPE trace generator written from the packet tables
 * of the Arm ARM (D18.1.4 Tables D18-1/D18-2 in spec 004, D18.2 in spec
 * 002), independently of the project's encoder (tools/decoder/spe_encode.c)
 * and of its headers: every header byte below is spelled out from the
 * tables, so a decoder benchmarked on this trace is not checked against
 * its own encoder's habits.
 *
 *   decoder-gen [--seed N] [--align BYTES] [--ext PERMILLE] FILE MB
 *
 * Writes at least MB MiB to FILE and prints what it wrote on stdout:
 *   records R packets P pad_bytes B payload_sum S
 * (P excludes Padding; S is the sum of every non-padding packet's payload
 * read as a little-endian integer, wrapping at 2^64), so that any decoder
 * can be checked against the generator rather than against another decoder.
 *
 * The model: an implementation with a fixed packet order (drawn from the
 * seed), sampling a workload of loads, stores, branches, other and SVE
 * operations; a Timestamp ends 7 records in 8, End the rest. --align pads
 * each record to a multiple of BYTES (PMBIDR_EL1.Align; default 0: none).
 * --ext writes that many records per 1000 with Extended-format (16-bit)
 * headers for their PC address and total-latency counter.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Table D18-1 8-bit headers and Table D18-2 16-bit headers (spec 004). */
#define H_PAD		0x00	/* 0b00000000 Padding (D18.2.8) */
#define H_END		0x01	/* 0b00000001 End (D18.2.5) */
#define H_TS		0x71	/* 0b01110001 Timestamp, 64-bit (D18.2.9) */
#define H_EVENTS(sz)	(0x42 | ((sz) << 4))	/* 0b01xx0010, SZ = log2 bytes */
#define H_DSRC(sz)	(0x43 | ((sz) << 4))	/* 0b01xx0011 Data Source */
#define H_CTX(i)	(0x64 | (i))		/* 0b011001xx Context, 32-bit */
#define H_OP(c)		(0x48 | (c))		/* 0b010010xx Operation Type, 8-bit */
#define H_ADDR(i)	(0xb0 | (i))		/* 0b10110xxx Address, 64-bit */
#define H_CNT(i)	(0x98 | (i))		/* 0b10011xxx Counter, 16-bit */
#define H_EXT0(i)	(0x20 | ((i) >> 3))	/* 0b001000xx: INDEX[4:3] */

/* D18.2.1 INDEX; D18.2.3 INDEX; D18.2.7 CLASS and SUBCLASS values */
enum { A_PC = 0, A_BR = 1, A_VA = 2, A_PA = 3 };
enum { C_TOTAL = 0, C_ISSUE = 1, C_XLAT = 2 };
#define OP_OTHER	0	/* CLASS 0b00, SUBCLASS 0b00000xxx: other */
#define OP_LDST		1	/* CLASS 0b01 */
#define OP_BRANCH	2	/* CLASS 0b10, SUBCLASS 0b000xxxxx */
#define LS_GP_LD	0x00	/* 0b0000000x, LDST=0 */
#define LS_GP_ST	0x01
#define LS_SIMD_LD	0x04	/* 0b0000010x SIMD&FP */
#define LS_SVE_LD	0x2c	/* 0bxxxx1x0x SVE: EVL 0b010, PRED */
#define LS_ATOMIC	0x07	/* 0b000xxx1x extended: AT, store */

static uint64_t state;

/* splitmix64: a seeded, portable sequence */
static uint64_t rnd(void)
{
	uint64_t z = (state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

struct out {
	uint8_t *p;
	uint64_t packets, pad, sum;
};

/* One packet: header byte(s), then the payload little-endian (D18.1.2). */
static void pkt(struct out *o, int ext0, uint8_t hdr, uint64_t v, unsigned int bytes)
{
	unsigned int i;

	if (ext0 >= 0)
		*o->p++ = (uint8_t)ext0;
	*o->p++ = hdr;
	if (bytes < 8)
		v &= (1ull << (8 * bytes)) - 1;
	for (i = 0; i < bytes; i++)
		*o->p++ = (uint8_t)(v >> (8 * i));
	o->packets++;
	o->sum += v;
}

/* the middle packets of a record, in the order the "implementation" uses */
enum { P_CTX, P_OP, P_EV, P_LAT, P_VA, P_PA, P_DS, P_BR, P_NR };

struct sample {
	int op_class, subclass;
	uint64_t ev;
	unsigned int ev_sz, ds_sz;
	uint16_t total, issue, xlat;
	int has_lat_issue, has_xlat, has_va, has_pa, has_ds, has_br;
	uint64_t va, pa, br;
	uint16_t ds;
};

static void workload_sample(struct sample *s, uint64_t pc)
{
	unsigned int k = (unsigned int)(rnd() % 100);
	uint64_t r = rnd();

	memset(s, 0, sizeof(*s));
	s->va = 0x0000ffffa0000000ull + ((r & 0xffffff) << 3);
	s->pa = 0x0000000080000000ull + (s->va & 0x3ffffff);
	s->ev_sz = 1;		/* SZ 0b01: 16-bit events */
	s->total = (uint16_t)(2 + (r >> 40) % 24);
	s->issue = (uint16_t)((r >> 50) & 7);
	s->has_lat_issue = 1;
	/* D18.2.6 events: E[1] retired, E[2] L1D access, E[4] TLB access */
	s->ev = 1u << 1;
	if (k < 45) {
		s->op_class = OP_LDST;
		s->subclass = (r & 0x700) ? LS_GP_LD : LS_SIMD_LD;
		s->ev |= (1u << 2) | (1u << 4);
		if (!(r & 0x3000)) {		/* L1D refill + LLC access */
			s->ev |= (1u << 3) | (1u << 8);
			s->total = (uint16_t)(30 + (r >> 44) % 300);
			if (!(r & 0x4000))	/* LLC miss */
				s->ev |= 1u << 9;
		}
		s->has_xlat = s->has_va = s->has_pa = s->has_ds = 1;
		s->xlat = (uint16_t)(1 + ((r >> 20) & 3));
		s->ds_sz = (r & 0x8000) ? 1 : 0;
		s->ds = (uint16_t)(s->total > 100 ? 0xd : s->total > 20 ? 0xa : 0);
	} else if (k < 65) {
		s->op_class = OP_LDST;
		s->subclass = LS_GP_ST;
		s->ev |= (1u << 2) | (1u << 4);
		s->has_xlat = s->has_va = s->has_pa = 1;
		s->xlat = 1;
	} else if (k < 90) {
		s->op_class = OP_BRANCH;
		s->subclass = (int)(r & 3);	/* COND, IND */
		s->ev_sz = 0;
		if (!(r & 0x30000))
			s->ev |= 1u << 6;	/* not taken */
		if (!(r & 0x3c0000))
			s->ev |= 1u << 7;	/* mispredicted */
		s->has_br = 1;
		s->br = pc + 0x40 + ((r >> 24) & 0xff0);
		s->has_lat_issue = 0;
	} else if (k < 97) {
		s->op_class = OP_OTHER;
		s->subclass = (int)(r & 1);	/* COND */
		s->ev_sz = 0;
	} else {
		s->op_class = OP_LDST;
		s->subclass = (r & 1) ? LS_SVE_LD : LS_ATOMIC;
		s->ev_sz = 2;			/* 32-bit events */
		s->ev |= (1u << 2) | (1u << 17);	/* partial predicate */
		s->has_va = 1;
	}
}

int main(int argc, char **argv)
{
	uint64_t seed = 1, align = 0, ext = 0, records = 0, ts = 1u << 20;
	uint64_t pc = 0x0000aaaab0000000ull;
	size_t target, total = 0, chunk = 1 << 20;
	int order[P_NR], i, argi = 1;
	struct out o = { 0 };
	uint8_t *buf;
	FILE *f;

	while (argi + 1 < argc && argv[argi][0] == '-') {
		if (!strcmp(argv[argi], "--seed"))
			seed = strtoull(argv[argi + 1], NULL, 0);
		else if (!strcmp(argv[argi], "--align"))
			align = strtoull(argv[argi + 1], NULL, 0);
		else if (!strcmp(argv[argi], "--ext"))
			ext = strtoull(argv[argi + 1], NULL, 0);
		else
			break;
		argi += 2;
	}
	if (argc - argi != 2 || align > 4096 || (align & (align - 1))) {
		fprintf(stderr, "usage: decoder-gen [--seed N] [--align POW2<=4096] [--ext PERMILLE] FILE MB\n");
		return 2;
	}
	target = (size_t)strtoul(argv[argi + 1], NULL, 0) << 20;
	state = seed;
	/* the implementation's packet order: a seeded permutation */
	for (i = 0; i < P_NR; i++)
		order[i] = i;
	for (i = P_NR - 1; i > 0; i--) {
		int j = (int)(rnd() % (uint64_t)(i + 1)), t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
	buf = malloc(chunk + 8192);
	f = fopen(argv[argi], "wb");
	if (!buf || !f) {
		fprintf(stderr, "decoder-gen: cannot write %s: %s\n", argv[argi], strerror(errno));
		return 1;
	}
	while (total < target) {
		o.p = buf;
		while ((size_t)(o.p - buf) < chunk) {
			uint8_t *start = o.p;
			struct sample s;
			int e = rnd() % 1000 < ext;

			pc += 4 * (1 + (rnd() & 31));
			if (pc > 0x0000aaaab0400000ull)
				pc = 0x0000aaaab0000000ull;
			workload_sample(&s, pc);
			/* D18.2.1 PC: byte 7 = NS[63] EL[62:61] NSE[60]; EL0, NS */
			pkt(&o, e ? H_EXT0(A_PC) : -1, H_ADDR(A_PC),
			    (pc & 0x00ffffffffffffffull) | (1ull << 63), 8);
			for (i = 0; i < P_NR; i++) {
				switch (order[i]) {
				case P_CTX:	/* D18.2.2 CONTEXTIDR_EL1 */
					pkt(&o, -1, H_CTX(0), 0x1234, 4);
					break;
				case P_OP:
					pkt(&o, -1, H_OP(s.op_class), (uint64_t)s.subclass, 1);
					break;
				case P_EV:
					pkt(&o, -1, H_EVENTS(s.ev_sz), s.ev, 1u << s.ev_sz);
					break;
				case P_LAT:	/* D18.2.3 */
					pkt(&o, e ? H_EXT0(C_TOTAL) : -1, H_CNT(C_TOTAL), s.total, 2);
					if (s.has_lat_issue)
						pkt(&o, -1, H_CNT(C_ISSUE), s.issue, 2);
					if (s.has_xlat)
						pkt(&o, -1, H_CNT(C_XLAT), s.xlat, 2);
					break;
				case P_VA:	/* data VA: byte 7 TAG */
					if (s.has_va)
						pkt(&o, -1, H_ADDR(A_VA), s.va, 8);
					break;
				case P_PA:	/* data PA: NS bit 63 */
					if (s.has_pa)
						pkt(&o, -1, H_ADDR(A_PA), s.pa | (1ull << 63), 8);
					break;
				case P_DS:	/* D18.2.4 */
					if (s.has_ds)
						pkt(&o, -1, H_DSRC(s.ds_sz), s.ds, 1u << s.ds_sz);
					break;
				case P_BR:	/* branch target, EL0 NS */
					if (s.has_br)
						pkt(&o, -1, H_ADDR(A_BR),
						    (s.br & 0x00ffffffffffffffull) | (1ull << 63), 8);
					break;
				}
			}
			ts += 1 + (rnd() & 1023);
			if (rnd() & 7)
				pkt(&o, -1, H_TS, ts, 8);
			else
				pkt(&o, -1, H_END, 0, 0);
			records++;
			if (align) {
				size_t n = (size_t)((align - (uint64_t)(o.p - start) % align) % align);

				memset(o.p, H_PAD, n);
				o.p += n;
				o.pad += n;
			}
		}
		if (fwrite(buf, 1, (size_t)(o.p - buf), f) != (size_t)(o.p - buf)) {
			fprintf(stderr, "decoder-gen: write to %s failed\n", argv[argi]);
			return 1;
		}
		total += (size_t)(o.p - buf);
	}
	if (fclose(f)) {
		fprintf(stderr, "decoder-gen: write to %s failed\n", argv[argi]);
		return 1;
	}
	printf("records %" PRIu64 " packets %" PRIu64 " pad_bytes %" PRIu64 " payload_sum %" PRIu64
	       " bytes %zu\n", records, o.packets, o.pad, o.sum, total);
	free(buf);
	return 0;
}
