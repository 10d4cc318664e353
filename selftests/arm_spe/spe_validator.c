// SPDX-License-Identifier: GPL-2.0
/*
 * The validator itself can fail: records built with the decoder's encoder
 * (spe_enc_*) from this binary's own workload addresses pass spe_validate(),
 * and each single corruption of them is reported. Needs no SPE: it runs on
 * any arm64 machine and guards the other tests against vacuous passes.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#include "spe_test.h"

uint64_t wl_buf[WL_WORDS];

struct rec_spec {
	uint64_t pc;
	unsigned int el, op_class, op_sub;
	uint64_t va, ts;
	uint32_t ctx;
	int no_ts, no_pc, no_op, no_va;
	uint16_t lat;		/* a total-latency Counter packet when non-zero */
	uint64_t target;	/* a Branch target address packet when non-zero */
	uint64_t pa;		/* a data PA packet when non-zero */
	uint64_t events;	/* added to E[1] retired */
};

static size_t emit(uint8_t *buf, size_t cap, const struct rec_spec *s, size_t n, long align)
{
	struct spe_enc e;
	size_t i;

	spe_enc_init(&e, buf, cap);
	for (i = 0; i < n; i++) {
		struct spe_record r;

		memset(&r, 0, sizeof(r));
		r.present = SPE_REC_PC | SPE_REC_OP | SPE_REC_EVENTS | SPE_REC_CTX(0) |
			    (s[i].no_ts ? SPE_REC_END : SPE_REC_TIMESTAMP);
		if (s[i].no_pc)
			r.present &= ~SPE_REC_PC;
		if (s[i].no_op)
			r.present &= ~SPE_REC_OP;
		if (s[i].target) {
			r.present |= SPE_REC_ADDR(SPE_ADDR_IDX_BR_TGT);
			r.addr[SPE_ADDR_IDX_BR_TGT] = SPE_ADDR_PAYLOAD_PC(s[i].target, 0, 1, 0);
		}
		if (s[i].pa) {
			r.present |= SPE_REC_DATA_PA;
			r.addr[SPE_ADDR_IDX_DATA_PA] = SPE_ADDR_PAYLOAD_PA(s[i].pa, 1, 0, 0, 0);
		}
		if (s[i].lat) {
			r.present |= SPE_REC_CNT(SPE_CNT_IDX_TOTAL);
			r.counter[SPE_CNT_IDX_TOTAL] = s[i].lat;
		}
		r.addr[SPE_ADDR_IDX_PC] = SPE_ADDR_PAYLOAD_PC(s[i].pc, s[i].el, 1, 0);
		r.op_class = s[i].op_class;
		r.op_subclass = s[i].op_sub;
		r.events = SPE_EV_BIT(SPE_EV_RETIRED) | s[i].events;
		r.events_len = 2;
		r.context[0] = s[i].ctx;
		r.timestamp = s[i].ts;
		if (s[i].op_class == SPE_OP_CLASS_LDST && !s[i].no_va) {
			r.present |= SPE_REC_DATA_VA;
			r.addr[SPE_ADDR_IDX_DATA_VA] = SPE_ADDR_PAYLOAD_VA(s[i].va, 0);
		}
		if (spe_enc_record(&e, &r))
			return 0;
		if (e.len % align)
			spe_enc_pad(&e, align - e.len % align);
	}
	return e.len;
}

FIXTURE(val) {
	struct spe_expect e;
	struct spe_stats st;
	struct rec_spec r[3];
	uint8_t buf[1024];
};

FIXTURE_SETUP(val)
{
	uint64_t ldr = (uint64_t)(uintptr_t)spe_wl_ldst_loop;	/* ldr x4, [x0, x3, lsl #3] */
	int i;

	memset(&self->e, 0, sizeof(self->e));
	self->e.el_user_only = 1;
	self->e.ts = 1;
	self->e.ctx = 1;
	self->e.ctx_pid = 1234;
	self->e.buf = wl_buf;
	self->e.buf_len = sizeof(wl_buf);
	self->e.align = 64;
	self->e.max_record_size = 64;
	self->e.count_size = 12;
	for (i = 0; i < 3; i++) {
		self->r[i] = (struct rec_spec) {
			.pc = ldr, .el = 0, .op_class = SPE_OP_CLASS_LDST,
			.op_sub = SPE_OP_LS_GP, .va = (uint64_t)(uintptr_t)&wl_buf[i],
			.ts = 100 + i, .ctx = 1234,
		};
	}
}

FIXTURE_TEARDOWN(val)
{
}

static unsigned int run(struct _test_data_val *self)
{
	size_t n = emit(self->buf, sizeof(self->buf), self->r, 3, self->e.align);

	if (!n)
		return 1000;
	return spe_validate(self->buf, n, &self->e, &self->st, NULL, NULL);
}

TEST_F(val, good_records_pass)
{
	EXPECT_EQ(0, run(self)) TH_LOG("%s", self->st.first);
	EXPECT_EQ(3, self->st.records);
	EXPECT_EQ(3, self->st.in_ldst_loop);
	EXPECT_EQ(3, self->st.loads);
}

TEST_F(val, kernel_el_with_exclude_kernel)
{
	self->r[1].el = 1;
	EXPECT_NE(0, run(self));
}

TEST_F(val, store_type_for_a_load)
{
	self->r[1].op_sub = SPE_OP_LS_GP | SPE_OP_LDST_BIT;
	EXPECT_NE(0, run(self));
}

TEST_F(val, branch_type_for_a_load)
{
	self->r[2].op_class = SPE_OP_CLASS_BRANCH;
	self->r[2].op_sub = 0;
	EXPECT_NE(0, run(self));
}

TEST_F(val, address_outside_buffer)
{
	self->r[0].va = (uint64_t)(uintptr_t)&wl_buf[WL_WORDS];
	EXPECT_NE(0, run(self));
}

TEST_F(val, timestamp_goes_back)
{
	self->r[2].ts = 50;
	EXPECT_NE(0, run(self));
}

TEST_F(val, missing_timestamp)
{
	self->r[1].no_ts = 1;
	EXPECT_NE(0, run(self));
}

TEST_F(val, wrong_context)
{
	self->r[0].ctx = 4321;
	EXPECT_NE(0, run(self));
}

TEST_F(val, misaligned_record)
{
	size_t n = emit(self->buf + 1, sizeof(self->buf) - 1, self->r, 3, 64);

	self->buf[0] = 0;	/* one padding byte, then records off by one */
	EXPECT_NE(0, spe_validate(self->buf, n + 1, &self->e, &self->st, NULL, NULL));
}

TEST_F(val, garbage_between_records)
{
	size_t n = emit(self->buf, sizeof(self->buf), self->r, 3, 64);

	ASSERT_GT(n, 100);
	self->buf[63] = 0x01;	/* an End packet where padding must be */
	EXPECT_NE(0, spe_validate(self->buf, n, &self->e, &self->st, NULL, NULL));
}

TEST_F(val, truncated_record)
{
	size_t n = emit(self->buf, sizeof(self->buf), self->r, 3, 64);

	/* cut the last record in the middle */
	EXPECT_NE(0, spe_validate(self->buf, n - 40, &self->e, &self->st, NULL, NULL));
}

/*
 * The checks above and these: each corruption is reported, and by the
 * check meant to see it (the first violation names it).
 */
#define EXPECT_CAUGHT(self, what)						\
	do {									\
		EXPECT_NE(0, run(self));					\
		EXPECT_NE(NULL, strstr((self)->st.first, what))			\
			TH_LOG("first violation: %s", (self)->st.first);	\
	} while (0)

TEST_F(val, missing_pc)
{
	self->r[1].no_pc = 1;
	EXPECT_CAUGHT(self, "has no PC");
}

TEST_F(val, missing_operation_type)
{
	self->r[0].no_op = 1;
	EXPECT_CAUGHT(self, "has no Operation Type");
}

TEST_F(val, load_without_address)
{
	self->r[2].no_va = 1;
	EXPECT_CAUGHT(self, "without data VA");
}

TEST_F(val, counter_over_count_size)
{
	self->r[1].lat = 0x1fff;	/* 13 bits, CountSize 12 */
	EXPECT_CAUGHT(self, "exceeds 12 bits");
}

TEST_F(val, context_not_allowed)
{
	self->e.ctx = 0;	/* no CONTEXTIDR for this opener */
	EXPECT_CAUGHT(self, "present but not allowed");
}

TEST_F(val, record_over_max_size)
{
	self->e.max_record_size = 32;
	EXPECT_CAUGHT(self, "> max_record_size");
}

TEST_F(val, kernel_el_mismatch)
{
	self->e.el_user_only = 0;
	self->e.kernel_el = 2;
	self->r[1].el = 1;
	self->r[1].pc = 0xffff800080001000ull;
	EXPECT_CAUGHT(self, "the kernel runs at EL2");
}

TEST_F(val, kernel_pc_at_el0)
{
	self->r[0].pc = 0xffff800080001000ull;
	EXPECT_CAUGHT(self, "EL0 record with a kernel PC");
}

TEST_F(val, duplicate_packet)
{
	/* A second Events packet (E[1] retired, 2-byte payload) in record 0 */
	static const uint8_t ev[] = { 0x52, 0x02, 0x00 };
	size_t n;

	self->e.align = 1;
	n = emit(self->buf + sizeof(ev), sizeof(self->buf) - sizeof(ev), self->r, 3, 1);
	ASSERT_GT(n, 0);
	memcpy(self->buf, ev, sizeof(ev));
	EXPECT_NE(0, spe_validate(self->buf, n + sizeof(ev), &self->e, &self->st, NULL, NULL));
	EXPECT_NE(NULL, strstr(self->st.first, "repeats a packet"))
		TH_LOG("first violation: %s", self->st.first);
}

/* The b.ne closing spe_wl_ldst's loop: a taken branch back to its start */
static void make_loop_branch(struct rec_spec *r, uint64_t target)
{
	r->pc = (uint64_t)(uintptr_t)spe_wl_ldst_loop + 24;
	r->op_class = SPE_OP_CLASS_BRANCH;
	r->op_sub = SPE_OP_BR_COND;
	r->target = target;
}

TEST_F(val, branch_target_from_encoding)
{
	make_loop_branch(&self->r[1], (uint64_t)(uintptr_t)spe_wl_ldst_loop);
	EXPECT_EQ(0, run(self)) TH_LOG("%s", self->st.first);
	make_loop_branch(&self->r[1], (uint64_t)(uintptr_t)spe_wl_ldst_loop + 4);
	EXPECT_CAUGHT(self, "the encoding says");
}

TEST_F(val, load_store_event_on_a_branch)
{
	make_loop_branch(&self->r[1], (uint64_t)(uintptr_t)spe_wl_ldst_loop);
	self->r[1].events = SPE_EV_BIT(SPE_EV_L1D_REFILL);
	EXPECT_CAUGHT(self, "load/store events");
}

TEST_F(val, mispredicted_load)
{
	self->r[0].events = SPE_EV_BIT(SPE_EV_MISPRED);
	EXPECT_CAUGHT(self, "Mispredicted on a");
}

TEST_F(val, not_taken_load)
{
	self->r[2].events = SPE_EV_BIT(SPE_EV_NOT_TAKEN);
	EXPECT_CAUGHT(self, "Not taken on an unconditional");
}

TEST_F(val, pa_from_pagemap)
{
	uint64_t ent, va = (uint64_t)(uintptr_t)&wl_buf[1];
	int fd;

	wl_buf[1] = 1;	/* mapped */
	fd = open("/proc/self/pagemap", O_RDONLY);
	ASSERT_LE(0, fd);
	ASSERT_EQ(sizeof(ent), pread(fd, &ent, sizeof(ent), (off_t)(va >> 12) * 8));
	close(fd);
	if (!(ent & ((1ull << 55) - 1)))
		SKIP(return, "no PFNs in /proc/self/pagemap (needs CAP_SYS_ADMIN)");
	self->r[1].pa = (ent & ((1ull << 55) - 1)) << 12 | (va & 0xfff);
	EXPECT_EQ(0, run(self)) TH_LOG("%s", self->st.first);
	self->r[1].pa ^= 0x1000;
	EXPECT_CAUGHT(self, "/proc/self/pagemap says");
}

TEST_F(val, insn_classifier)
{
	/* A64 encodings from the Arm ARM, independent of any SPE code. */
	EXPECT_EQ(INSN_LOAD, spe_insn_classify(0xf8637804));	/* ldr x4, [x0, x3, lsl #3] */
	EXPECT_EQ(INSN_STORE, spe_insn_classify(0xf8237804));	/* str x4, [x0, x3, lsl #3] */
	EXPECT_EQ(INSN_LOAD, spe_insn_classify(0xf9400000));	/* ldr x0, [x0] */
	EXPECT_EQ(INSN_STORE, spe_insn_classify(0xa9bf7bfd));	/* stp x29, x30, [sp, #-16]! */
	EXPECT_EQ(INSN_LOAD, spe_insn_classify(0xa8c17bfd));	/* ldp x29, x30, [sp], #16 */
	EXPECT_EQ(INSN_BRANCH, spe_insn_classify(0x54000001));	/* b.ne */
	EXPECT_EQ(INSN_BRANCH, spe_insn_classify(0x94000000));	/* bl */
	EXPECT_EQ(INSN_BRANCH, spe_insn_classify(0xd65f03c0));	/* ret */
	EXPECT_EQ(INSN_BRANCH, spe_insn_classify(0xb4000000));	/* cbz x0 */
	EXPECT_EQ(INSN_BRANCH, spe_insn_classify(0x36000000));	/* tbz w0, #0 */
	EXPECT_EQ(INSN_EXCEPTION, spe_insn_classify(0xd4000001));	/* svc #0 */
	EXPECT_EQ(INSN_OTHER, spe_insn_classify(0xd503201f));	/* nop */
	EXPECT_EQ(INSN_OTHER, spe_insn_classify(0x91000484));	/* add x4, x4, #1 */
	EXPECT_EQ(INSN_OTHER, spe_insn_classify(0xf1000442));	/* subs x2, x2, #1 */
	EXPECT_EQ(INSN_LDST, spe_insn_classify(0xf9800000));	/* prfm pldl1keep, [x0] */
	/* SVE (binutils' reading): memory either class, data processing other */
	EXPECT_EQ(INSN_LDST, spe_insn_classify(0xe400e000));	/* st1b {z0.b}, p0, [x0] */
	EXPECT_EQ(INSN_LDST, spe_insn_classify(0xa5e04000));	/* ld1d {z0.d}, p0/z, [x0, x0, lsl #3] */
	EXPECT_EQ(INSN_OTHER, spe_insn_classify(0x04a00000));	/* add z0.s, z0.s, z0.s */
	/* SME: loads and stores of ZA */
	EXPECT_EQ(INSN_LOAD, spe_insn_classify(0xe09f0000));	/* ld1w {za0h.s[w12, 0]}, p0/z, [x0] */
	EXPECT_EQ(INSN_STORE, spe_insn_classify(0xe0bf0000));	/* st1w {za0h.s[w12, 0]}, p0, [x0] */
	EXPECT_EQ(INSN_LOAD, spe_insn_classify(0xe1000000));	/* ldr za[w12, 0], [x0] */
	EXPECT_EQ(INSN_STORE, spe_insn_classify(0xe1200000));	/* str za[w12, 0], [x0] */
	/* and the workload really holds what the tests assume */
	EXPECT_EQ(INSN_LOAD, spe_insn_classify(*(uint32_t *)(uintptr_t)spe_wl_ldst_loop));
	EXPECT_EQ(INSN_STORE, spe_insn_classify(*(uint32_t *)(uintptr_t)(spe_wl_ldst_loop + 8)));
	EXPECT_EQ(INSN_BRANCH, spe_insn_classify(*(uint32_t *)(uintptr_t)(spe_wl_ldst_loop + 24)));
}

TEST_HARNESS_MAIN
