// SPDX-License-Identifier: GPL-2.0
/*
 * Capture and validation: per-task and per-CPU sessions over known
 * workloads (spe_workload.S), every AUX byte decoded and every record
 * checked (spe_validate()), record counts against the sampling interval,
 * the sampling period rules, jitter, exclude_user/exclude_kernel and the
 * filters (SPE supplement 3.1 interval counter, 3.2.2/3.2.3 filtering).
 *
 * With ArchInst (every instruction is in the population) and no jitter the
 * interval counter takes one sample every INTERVAL + 1 operations (3.1.2
 * note): N operations give about N / (P + 1) samples. With PMSIRR.RND the
 * low 8 bits of the reload are random: N / (P + 256 + 1) .. N / (P + 1).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include "spe_test.h"

/* The C library's <sys/auxv.h> may predate it: Linux's uapi asm/hwcap.h */
#ifndef HWCAP2_SME
#define HWCAP2_SME	(1 << 23)
#endif
#ifndef HWCAP2_MTE
#define HWCAP2_MTE	(1 << 18)
#endif
#ifndef HWCAP2_MOPS
#define HWCAP2_MOPS	(1UL << 43)
#endif
#ifndef PROT_MTE
#define PROT_MTE	0x20		/* asm/mman.h */
#endif

uint64_t wl_buf[WL_WORDS];
/* WL_MTE's buffer: PROT_MTE, the pointer tagged (cap.mte_*) */
static uint64_t *mte_buf;
static uint8_t mis_buf[64] __attribute__((aligned(64)));
static int zero_fd = -1;	/* /dev/zero, for WL_READ_ZERO */
/* WL_ATOMIC's: CASP needs 16-byte alignment */
static uint64_t atomic_buf[8] __attribute__((aligned(64)));
/*
 * WL_MOPS's: copied from src to dst, then dst set. Apart (each aligned to
 * four times its size), so that an address in one is never at the end of
 * the other.
 */
#define MOPS_BYTES	256
static uint8_t mops_src[MOPS_BYTES] __attribute__((aligned(4 * MOPS_BYTES)));
static uint8_t mops_dst[MOPS_BYTES] __attribute__((aligned(4 * MOPS_BYTES)));

enum wl { WL_LDST, WL_BRANCH, WL_SYSCALL, WL_MISALIGN, WL_SIMDFP, WL_SVE, WL_SME, WL_READ_ZERO,
	  WL_MTE, WL_SME_DP, WL_ATOMIC, WL_MOPS };

#define LDST_ITERS	60000ull
#define BRANCH_ITERS	60000ull
#define SYSCALLS	3000
#define MIS_ITERS	60000ull
#define SIMDFP_ITERS	60000ull
#define SVE_ITERS	40000ull
#define SME_ITERS	40000ull
#define ATOMIC_ITERS	40000ull
#define MOPS_ITERS	20000ull
#define ZERO_READS	1200

static void run_wl(enum wl w, int slices, struct spe_session *s)
{
	int i, j;

	for (i = 0; i < slices; i++) {
		switch (w) {
		case WL_LDST:
			spe_wl_ldst(wl_buf, WL_WORDS - 1, LDST_ITERS / slices);
			break;
		case WL_MTE:
			spe_wl_ldst(mte_buf, WL_WORDS - 1, LDST_ITERS / slices);
			break;
		case WL_SME_DP:
			spe_wl_sme_dp(SME_ITERS / slices);
			break;
		case WL_ATOMIC:
			spe_wl_atomic(atomic_buf, ATOMIC_ITERS / slices);
			break;
		case WL_MOPS:
			spe_wl_mops(mops_dst, mops_src, MOPS_BYTES, MOPS_ITERS / slices);
			break;
		case WL_BRANCH:
			spe_wl_branch(BRANCH_ITERS / slices);
			break;
		case WL_SYSCALL:
			for (j = 0; j < SYSCALLS / slices; j++)
				syscall(SYS_getppid);
			break;
		case WL_MISALIGN:
			spe_wl_misalign(mis_buf, MIS_ITERS / slices);
			break;
		case WL_SIMDFP:
			spe_wl_simdfp(SIMDFP_ITERS / slices);
			break;
		case WL_SVE:
			spe_wl_sve(wl_buf, SVE_ITERS / slices);
			break;
		case WL_SME:
			spe_wl_sme(wl_buf, SME_ITERS / slices);
			break;
		case WL_READ_ZERO:
			/*
			 * The kernel clears wl_buf with its user accessors;
			 * on 6.12 (STTR) that is 2.5 MB of records: drain the
			 * AUX area every 100 reads, before it fills.
			 */
			for (j = 0; j < ZERO_READS / slices; j++) {
				if (read(zero_fd, wl_buf, sizeof(wl_buf)) < 0)
					break;
				if (s && j % 100 == 99)
					spe_session_collect(s);
			}
			break;
		}
		if (s)
			spe_session_collect(s);
	}
}

/* CNTVCT_EL0 around the last capture's enable/disable. */
static uint64_t cap_t0, cap_t1;

static inline uint64_t cntvct(void)
{
	uint64_t v;

	asm volatile("isb; mrs %0, cntvct_el0" : "=r"(v) :: "memory");
	return v;
}

/*
 * Open a session (pid/cpu), run the workload, collect and validate (with
 * @hook on every record, if given). Returns 0, or -1 when the open failed
 * (errno kept).
 */
static int capture_hook(const struct spe_pmu_info *p, struct perf_event_attr *a,
			pid_t pid, int cpu, enum wl w, struct spe_expect *e,
			struct spe_stats *st, struct spe_session *s,
			spe_rec_hook hook, void *arg)
{
	int overwritten;

	if (spe_session_open(s, a, pid, cpu, 8, 256, 0))
		return -1;
	cap_t0 = cntvct();
	if (spe_enable(s))
		return -1;
	run_wl(w, 4, s);
	spe_disable(s);
	cap_t1 = cntvct();
	overwritten = spe_session_collect(s);
	if (w == WL_MISALIGN) {
		e->buf = mis_buf;
		e->buf_len = sizeof(mis_buf);
	} else if (w == WL_MTE) {
		/* the records' VAs are compared without their top byte */
		e->buf = (void *)((uintptr_t)mte_buf & 0x00ffffffffffffffull);
		e->buf_len = sizeof(wl_buf);
	} else {
		e->buf = wl_buf;
		e->buf_len = sizeof(wl_buf);
	}
	spe_session_validate(s, e, st, hook, arg);
	/* After spe_validate(), which starts *st afresh. */
	if (overwritten)
		spe_violation(st, "AUX data overwritten before it was read");
	return 0;
}

static int capture(const struct spe_pmu_info *p, struct perf_event_attr *a,
		   pid_t pid, int cpu, enum wl w, struct spe_expect *e,
		   struct spe_stats *st, struct spe_session *s)
{
	return capture_hook(p, a, pid, cpu, w, e, st, s, NULL, NULL);
}

static int expect_ctx(void)
{
	/* Root may see kernel data: the context is the PID when the kernel
	 * puts it in CONTEXTIDR_EL1 (runner: SPE_EXP_PID_CTX from .config). */
	long v = spe_env_long("SPE_EXP_PID_CTX", -1);

	return v < 0 ? -1 : (int)v;
}

static void log_stats(struct __test_metadata *_metadata, const struct spe_stats *st,
		      const struct spe_session *s)
{
	TH_LOG("%zu bytes, %llu records (%llu pad bytes): el0 %llu el1 %llu; ldst %llu (loop %llu) branch %llu mis %llu; ld %llu st %llu br %llu other %llu; aux recs %u flags %#llx",
	       s->len, (unsigned long long)st->records, (unsigned long long)st->pad_bytes,
	       (unsigned long long)st->el0, (unsigned long long)st->el_kernel,
	       (unsigned long long)st->in_ldst, (unsigned long long)st->in_ldst_loop,
	       (unsigned long long)st->in_branch, (unsigned long long)st->in_misalign,
	       (unsigned long long)st->loads, (unsigned long long)st->stores,
	       (unsigned long long)st->branches, (unsigned long long)st->others,
	       s->n_aux_recs, (unsigned long long)s->aux_flags_or);
}

FIXTURE(cap) {
	struct spe_pmu_info p;
	struct spe_session s;
	struct spe_expect e;
	struct spe_stats st;
	union {
		struct perf_event_attr a;
		union spe_attr a_storage;
	};
	uint64_t period;
};

FIXTURE_SETUP(cap)
{
	memset(&self->s, 0, sizeof(self->s));
	self->s.fd = -1;
	NEED_PMU(&self->p);
	self->period = 1024 > self->p.min_interval ? 1024 : self->p.min_interval;
	spe_attr_init(&self->a, &self->p, CFG_TS, self->period);
	spe_expect_default(&self->e, &self->p);
	self->e.el_user_only = 1;
	self->e.ts = 1;
	self->e.ctx = expect_ctx();
	self->e.ctx_pid = getpid();
	memset(&self->st, 0, sizeof(self->st));
	spe_pin_cpu(0);
}

FIXTURE_TEARDOWN(cap)
{
	spe_session_close(&self->s);
}

/* Loads/stores to a known buffer, per task, user only. */
TEST_F(cap, per_task_ldst)
{
	uint64_t n, exp;

	ASSERT_OPEN(capture(&self->p, &self->a, 0, -1, WL_LDST, &self->e, &self->st, &self->s), &self->s);
	log_stats(_metadata, &self->st, &self->s);
	EXPECT_VALID(&self->st);
	EXPECT_EQ(0, self->s.n_truncated);
	EXPECT_EQ(0, self->s.aux_rec_bad) TH_LOG("PERF_RECORD_AUX ranges overlap");
	/* Every byte the head moved over is announced by a PERF_RECORD_AUX. */
	EXPECT_EQ(self->s.len, self->s.aux_rec_bytes);
	exp = SPE_WL_LDST_INSNS * LDST_ITERS / (spe_effective_period(&self->p, self->period) + 1);
	n = self->st.in_ldst_loop;
	EXPECT_NEAR_COUNT(n, exp, 10, 3);
	/* 1 load, 1 store, 1 branch of 7 instructions. */
	EXPECT_NEAR_COUNT(self->st.loads, n / 7.0, 40, 3);
	EXPECT_NEAR_COUNT(self->st.stores, n / 7.0, 40, 3);
	EXPECT_GE(self->st.in_own_text * 10, self->st.records * 9);
	/* PMSCR_EL1.PCT = 0: the timestamps are the virtual count (CNTVCT),
	 * taken while the session ran. */
	EXPECT_GE(self->st.min_ts, cap_t0) TH_LOG("first timestamp %#llx before enable %#llx",
					      (unsigned long long)self->st.min_ts,
					      (unsigned long long)cap_t0);
	EXPECT_LE(self->st.max_ts, cap_t1) TH_LOG("last timestamp %#llx after disable %#llx",
					      (unsigned long long)self->st.max_ts,
					      (unsigned long long)cap_t1);
	if (self->e.ctx < 0)
		TH_LOG("context not checked: SPE_EXP_PID_CTX unset");
}

/*
 * pct_enable (PMSCR_EL1.PCT, which counts only with PMSCR_EL2.PCT set by
 * the firmware when EL2 exists, CollectTimeStamp() in SPE supplement
 * 3.3): the timestamps are the physical count, CNTPCT_EL0 = CNTVCT_EL0 +
 * CNTVOFF_EL2. Only a boot whose firmware set a virtual offset can tell
 * the two counts apart (SPE_EXP_CNTVOFF); a driver that ignores the bit
 * collects the virtual count, which is below the physical count at enable.
 */
TEST_F(cap, pct_timestamps_physical)
{
	uint64_t off = (uint64_t)spe_env_long("SPE_EXP_CNTVOFF", 0);

	if (!off)
		SKIP(return, "CNTVOFF_EL2 is 0 in this boot: the physical and virtual counts are equal");
	self->a.config |= CFG_PCT;
	ASSERT_OPEN(capture(&self->p, &self->a, 0, -1, WL_LDST, &self->e, &self->st, &self->s), &self->s);
	log_stats(_metadata, &self->st, &self->s);
	EXPECT_VALID(&self->st);
	ASSERT_GT(self->st.records, 0);
	EXPECT_GE(self->st.min_ts, cap_t0 + off) TH_LOG("first timestamp %#llx before the physical count at enable %#llx (virtual %#llx)",
							  (unsigned long long)self->st.min_ts,
							  (unsigned long long)(cap_t0 + off),
							  (unsigned long long)cap_t0);
	EXPECT_LE(self->st.max_ts, cap_t1 + off) TH_LOG("last timestamp %#llx after the physical count at disable %#llx (virtual %#llx)",
							  (unsigned long long)self->st.max_ts,
							  (unsigned long long)(cap_t1 + off),
							  (unsigned long long)cap_t1);
}

TEST_F(cap, per_task_no_timestamp)
{
	self->a.config = 0;
	self->e.ts = 0;
	ASSERT_OPEN(capture(&self->p, &self->a, 0, -1, WL_LDST, &self->e, &self->st, &self->s), &self->s);
	EXPECT_VALID(&self->st);
	EXPECT_GT(self->st.records, 0);
	EXPECT_EQ(0, self->st.with_ts);
}

TEST_F(cap, per_task_branchy)
{
	ASSERT_OPEN(capture(&self->p, &self->a, 0, -1, WL_BRANCH, &self->e, &self->st, &self->s), &self->s);
	log_stats(_metadata, &self->st, &self->s);
	EXPECT_VALID(&self->st);
	ASSERT_GT(self->st.in_branch, 20);
	/* 4 of the 6.5 instructions of an iteration are branches. */
	EXPECT_GE(self->st.branches * 100, self->st.in_branch * 40);
	EXPECT_GT(self->st.ev_not_taken, 0) TH_LOG("b.eq falls through every other iteration");
}

TEST_F(cap, per_cpu_user)
{
	uint64_t exp;

	ASSERT_OPEN(capture(&self->p, &self->a, -1, 0, WL_LDST, &self->e, &self->st, &self->s), &self->s);
	log_stats(_metadata, &self->st, &self->s);
	EXPECT_VALID(&self->st);
	exp = SPE_WL_LDST_INSNS * LDST_ITERS / (spe_effective_period(&self->p, self->period) + 1);
	EXPECT_NEAR_COUNT(self->st.in_ldst_loop, exp, 10, 3);
}

/* [_stext, _etext) from /proc/kallsyms (root). */
static int kernel_text(uint64_t *lo, uint64_t *hi)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[256], name[128], t;
	unsigned long long a;

	*lo = *hi = 0;
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %127s", &a, &t, name) != 3)
			continue;
		if (!strcmp(name, "_stext"))
			*lo = a;
		else if (!strcmp(name, "_etext"))
			*hi = a;
	}
	fclose(f);
	return *lo && *hi > *lo ? 0 : -1;
}

static void ktext_hook(const struct spe_record *r, void *arg, struct spe_stats *st)
{
	uint64_t *k = arg, pc = spe_addr_va_sext(r->addr[SPE_ADDR_IDX_PC]);

	if (SPE_ADDR_EL(r->addr[SPE_ADDR_IDX_PC]) && pc >= k[0] && pc < k[1])
		k[2]++;
}

/*
 * The kernel's syscall path under sampling: on the debug kernel (KASAN,
 * lockdep) under TCG on a loaded 2-CPU host, 3000 syscalls took longer
 * than the harness's default 30 s.
 */
TEST_F_TIMEOUT(cap, kernel_only, 120)
{
	uint64_t k[3] = { 0 };
	int have_text = !kernel_text(&k[0], &k[1]);

	self->a.exclude_user = 1;
	self->a.exclude_kernel = 0;
	self->e.el_user_only = 0;
	self->e.el_kernel_only = 1;
	ASSERT_OPEN(capture_hook(&self->p, &self->a, 0, -1, WL_SYSCALL, &self->e, &self->st,
				 &self->s, have_text ? ktext_hook : NULL, k), &self->s);
	log_stats(_metadata, &self->st, &self->s);
	EXPECT_VALID(&self->st);
	EXPECT_GT(self->st.el_kernel, 10);
	EXPECT_EQ(0, self->st.el0);
	/* The syscall path runs in the kernel image's text. */
	if (!have_text) {
		TH_LOG("no _stext/_etext in /proc/kallsyms: kernel text range not checked");
	} else {
		EXPECT_GE(k[2] * 10, self->st.el_kernel * 9)
			TH_LOG("%llu of %llu kernel PCs in [%#llx, %#llx)",
			       (unsigned long long)k[2], (unsigned long long)self->st.el_kernel,
			       (unsigned long long)k[0], (unsigned long long)k[1]);
	}
}

/* Kernel stores into wl_buf: how many, how many with a physical address. */
static void user_store_hook(const struct spe_record *r, void *arg, struct spe_stats *st)
{
	uint64_t *n = arg, va = spe_addr_va_sext(r->addr[SPE_ADDR_IDX_DATA_VA]);

	(void)st;
	if (!SPE_ADDR_EL(r->addr[SPE_ADDR_IDX_PC]) ||
	    !(r->present & SPE_REC_ADDR(SPE_ADDR_IDX_DATA_VA)) ||
	    va < (uint64_t)wl_buf || va >= (uint64_t)wl_buf + sizeof(wl_buf))
		return;
	n[0]++;
	if (r->present & SPE_REC_ADDR(SPE_ADDR_IDX_DATA_PA))
		n[1]++;
}

/*
 * The kernel's own accesses to user memory (read() from /dev/zero: the
 * user-clearing routine's STTR, made with EL0's permissions and so
 * allowed under PAN) carry their physical address with pa_enable, as any
 * access that translated: the emulator once looked it up with EL1's
 * permissions, faulted under PAN and left it out of every such record.
 */
TEST_F_TIMEOUT(cap, physical_address_kernel_user_access, 120)
{
	uint64_t n[2] = { 0 };

	self->a.config |= CFG_PA;
	self->a.exclude_user = 1;
	self->a.exclude_kernel = 0;
	self->e.el_user_only = 0;
	self->e.el_kernel_only = 1;
	/* Fault the pages in first: no PA is recorded when the walk faults. */
	memset(wl_buf, 1, sizeof(wl_buf));
	zero_fd = open("/dev/zero", O_RDONLY);
	ASSERT_LE(0, zero_fd) TH_LOG("/dev/zero: %s", strerror(errno));
	ASSERT_OPEN(capture_hook(&self->p, &self->a, 0, -1, WL_READ_ZERO, &self->e, &self->st,
				 &self->s, user_store_hook, n), &self->s);
	close(zero_fd);
	zero_fd = -1;
	log_stats(_metadata, &self->st, &self->s);
	TH_LOG("%llu kernel records with a data address in the buffer, %llu with a PA",
	       (unsigned long long)n[0], (unsigned long long)n[1]);
	EXPECT_VALID(&self->st);
	EXPECT_GT(n[0], 10);
	EXPECT_EQ(n[0], n[1]) TH_LOG("%llu of %llu kernel accesses to the user buffer without a physical address",
				     (unsigned long long)(n[0] - n[1]), (unsigned long long)n[0]);
}

TEST_F_TIMEOUT(cap, user_and_kernel, 120)
{
	self->a.exclude_kernel = 0;
	self->e.el_user_only = 0;
	ASSERT_OPEN(capture(&self->p, &self->a, 0, -1, WL_SYSCALL, &self->e, &self->st, &self->s), &self->s);
	log_stats(_metadata, &self->st, &self->s);
	EXPECT_VALID(&self->st);
	EXPECT_GT(self->st.el_kernel, 0);
	EXPECT_GT(self->st.el0, 0);
}

/* A period below the minimum samples at the minimum interval. */
/*
 * A period below 256 becomes 256, whatever caps/min_interval recommends
 * (mainline's rule): the align1 boot's implementation recommends 1024.
 */
TEST_F(cap, period_below_minimum)
{
	uint64_t exp;

	self->a.sample_period = 1;
	ASSERT_OPEN(capture(&self->p, &self->a, 0, -1, WL_LDST, &self->e, &self->st, &self->s), &self->s);
	EXPECT_VALID(&self->st);
	exp = SPE_WL_LDST_INSNS * LDST_ITERS / (spe_effective_period(&self->p, 1) + 1);
	EXPECT_NEAR_COUNT(self->st.in_ldst_loop, exp, 10, 3);
}

/* PMSIRR_EL1.INTERVAL is bits [31:8]: the low 8 bits of a period are lost. */
TEST_F(cap, period_rounded_down)
{
	uint64_t per = 2 * self->p.min_interval + 255, exp;

	self->a.sample_period = per;
	ASSERT_OPEN(capture(&self->p, &self->a, 0, -1, WL_LDST, &self->e, &self->st, &self->s), &self->s);
	EXPECT_VALID(&self->st);
	exp = SPE_WL_LDST_INSNS * LDST_ITERS / ((per & ~0xffull) + 1);
	EXPECT_NEAR_COUNT(self->st.in_ldst_loop, exp, 10, 3);
}

/*
 * The step between two consecutive samples of the ldst loop, in loop
 * positions (modulo its 7 instructions). With a fixed interval every step
 * is the same, (interval + 1) mod 7 (3.1.2), but for the few that span the
 * code between two runs of the loop; with PMSIRR_EL1.RND the reload's low
 * 8 bits are random (3.1.3) and the steps spread over all 7 values.
 */
struct loop_steps {
	uint64_t last;
	int have;
	unsigned int n[SPE_WL_LDST_INSNS], pairs;
};

static void step_hook(const struct spe_record *r, void *arg, struct spe_stats *st)
{
	struct loop_steps *j = arg;
	uint64_t pc = spe_addr_va_sext(r->addr[SPE_ADDR_IDX_PC]) & 0x00ffffffffffffffull;
	uint64_t pos;

	if (pc < (uintptr_t)spe_wl_ldst_loop || pc >= (uintptr_t)spe_wl_ldst_end) {
		j->have = 0;
		return;
	}
	pos = (pc - (uintptr_t)spe_wl_ldst_loop) / 4;
	if (j->have) {
		j->n[(pos + SPE_WL_LDST_INSNS - j->last) % SPE_WL_LDST_INSNS]++;
		j->pairs++;
	}
	j->last = pos;
	j->have = 1;
}

static unsigned int top_step(const struct loop_steps *j)
{
	unsigned int i, top = 0;

	for (i = 0; i < SPE_WL_LDST_INSNS; i++)
		if (j->n[i] > top)
			top = j->n[i];
	return top;
}

TEST_F(cap, jitter)
{
	uint64_t per = spe_effective_period(&self->p, self->period);
	double lo = (double)SPE_WL_LDST_INSNS * LDST_ITERS / (per + 257);
	double hi = (double)SPE_WL_LDST_INSNS * LDST_ITERS / (per + 1);
	struct loop_steps fixed = { 0 }, jit = { 0 };

	/* Reference: the same session without jitter (logged). */
	ASSERT_OPEN(capture_hook(&self->p, &self->a, 0, -1, WL_LDST, &self->e, &self->st,
				 &self->s, step_hook, &fixed), &self->s);
	spe_session_close(&self->s);
	self->a.config |= CFG_JITTER;
	ASSERT_OPEN(capture_hook(&self->p, &self->a, 0, -1, WL_LDST, &self->e, &self->st,
				 &self->s, step_hook, &jit), &self->s);
	EXPECT_VALID(&self->st);
	EXPECT_GE(self->st.in_ldst_loop, lo * 0.95 - 3);
	EXPECT_LE(self->st.in_ldst_loop, hi * 1.05 + 3);
	TH_LOG("most common loop step: %u of %u pairs without jitter, %u of %u with",
	       top_step(&fixed), fixed.pairs, top_step(&jit), jit.pairs);
	/* Uniform over 7 steps: 1/7 each; more than half on one is no jitter. */
	ASSERT_GE(jit.pairs, 20);
	EXPECT_LT(2 * top_step(&jit), jit.pairs) TH_LOG("the interval does not vary with jitter=1");
}

/* ---- filters (3.2.2): the population changes as the spec says ---- */

TEST_F(cap, load_filter)
{
	NEED_FORMAT(&self->p, "load_filter");
	self->a.config |= CFG_LOAD;
	ASSERT_OPEN(capture(&self->p, &self->a, 0, -1, WL_LDST, &self->e, &self->st, &self->s), &self->s);
	log_stats(_metadata, &self->st, &self->s);
	EXPECT_VALID(&self->st);
	EXPECT_GT(self->st.loads, 10);
	EXPECT_EQ(self->st.records, self->st.loads) TH_LOG("non-load records with load_filter");
	/* One load per 7 sampled operations survives the filter. */
	EXPECT_NEAR_COUNT(self->st.in_ldst_loop,
			  (double)LDST_ITERS / (spe_effective_period(&self->p, self->period) + 1),
			  40, 3);
}

TEST_F(cap, store_filter)
{
	NEED_FORMAT(&self->p, "store_filter");
	self->a.config |= CFG_STORE;
	ASSERT_OPEN(capture(&self->p, &self->a, 0, -1, WL_LDST, &self->e, &self->st, &self->s), &self->s);
	log_stats(_metadata, &self->st, &self->s);
	EXPECT_VALID(&self->st);
	EXPECT_GT(self->st.stores, 10);
	EXPECT_EQ(self->st.records, self->st.stores);
}

TEST_F(cap, branch_filter)
{
	NEED_FORMAT(&self->p, "branch_filter");
	self->a.config |= CFG_BRANCH;
	ASSERT_OPEN(capture(&self->p, &self->a, 0, -1, WL_BRANCH, &self->e, &self->st, &self->s), &self->s);
	log_stats(_metadata, &self->st, &self->s);
	EXPECT_VALID(&self->st);
	EXPECT_GT(self->st.branches, 10);
	EXPECT_EQ(self->st.records, self->st.branches);
}

TEST_F(cap, load_or_store_filter)
{
	NEED_FORMAT(&self->p, "load_filter");
	self->a.config |= CFG_LOAD | CFG_STORE;
	ASSERT_OPEN(capture(&self->p, &self->a, 0, -1, WL_LDST, &self->e, &self->st, &self->s), &self->s);
	EXPECT_VALID(&self->st);
	EXPECT_GT(self->st.loads, 5);
	EXPECT_GT(self->st.stores, 5);
	EXPECT_EQ(self->st.records, self->st.loads + self->st.stores);
}

/* FE: only samples with all the events of PMSEVFR_EL1 are recorded. */
TEST_F(cap, event_filter_retired)
{
	NEED_FORMAT(&self->p, "event_filter");
	self->a.config1 = 1ull << SPE_EV_RETIRED;
	ASSERT_OPEN(capture(&self->p, &self->a, 0, -1, WL_LDST, &self->e, &self->st, &self->s), &self->s);
	EXPECT_VALID(&self->st);
	EXPECT_GT(self->st.records, 10);
	EXPECT_EQ(self->st.records, self->st.ev_retired);
}

/*
 * E[6], not taken: a conditional instruction that failed its condition
 * check (D18.2, Events packet). Besides conditional branches that is a
 * conditional Other operation (COND 1: CSEL, CCMP, FCSEL...), which the
 * code around the workload may execute: count those, anything else is
 * a violation.
 */
static void not_taken_hook(const struct spe_record *r, void *arg, struct spe_stats *st)
{
	struct spe_op op;

	spe_op_decode(r->op_class, r->op_subclass, &op);
	if (op.kind == SPE_OP_BRANCH)
		return;
	if (op.kind == SPE_OP_OTHER && op.cond)
		(*(uint64_t *)arg)++;
	else
		spe_violation(st, "not taken (E[6]) on an operation that is neither a branch nor conditional: class %u subclass %#x",
			      r->op_class, r->op_subclass);
}

TEST_F(cap, event_filter_not_taken)
{
	uint64_t cond_others = 0;

	NEED_FORMAT(&self->p, "event_filter");
	if (!(self->p.event_filter & (1ull << SPE_EV_NOT_TAKEN)))
		SKIP(return, "E[6] not filterable before FEAT_SPEv1p2");
	self->a.config1 = 1ull << SPE_EV_NOT_TAKEN;
	ASSERT_OPEN(capture_hook(&self->p, &self->a, 0, -1, WL_BRANCH, &self->e, &self->st, &self->s,
				 not_taken_hook, &cond_others), &self->s);
	log_stats(_metadata, &self->st, &self->s);
	EXPECT_VALID(&self->st);
	EXPECT_GT(self->st.branches, 5) TH_LOG("b.eq falls through every other iteration");
	EXPECT_EQ(self->st.records, self->st.ev_not_taken);
	EXPECT_EQ(self->st.records, self->st.branches + cond_others);
}

/* An instruction address payload (PC, branch target) at EL0 in [lo, hi) */
static int el0_in(uint64_t addr, const void *lo, const void *hi)
{
	uint64_t va = spe_addr_va_sext(addr);

	return SPE_ADDR_EL(addr) == 0 && va >= (uint64_t)(uintptr_t)lo &&
	       va < (uint64_t)(uintptr_t)hi;
}

/*
 * FEAT_SPE_CRR, D18.2.7 Branch CR: in the branch workload, BL records
 * "branch with link", RET "procedure return", B.cond "neither"; without
 * CRR every branch records 0b00 (not recorded). The expected value comes
 * from the instruction at the record's PC (A64 encodings C4.1.65: BL
 * 0b100101 imm26; RET 0xd65f0000 | Rn << 5).
 */
struct cr_count {
	int crr;			/* PMSIDR_EL1.CRR expected */
	uint64_t in_wl, calls, rets, neither, mismatch, first_bad_pc;
};

static unsigned int insn_cr(uint32_t insn)
{
	if ((insn & 0xfc000000u) == 0x94000000u)	/* BL */
		return SPE_OP_BR_CR_CALL;
	if ((insn & 0xfffffc1fu) == 0xd65f0000u)	/* RET */
		return SPE_OP_BR_CR_RET;
	return SPE_OP_BR_CR_NONE;
}

static void cr_hook(const struct spe_record *r, void *arg, struct spe_stats *st)
{
	struct cr_count *c = arg;
	uint64_t pc = spe_addr_va_sext(r->addr[SPE_ADDR_IDX_PC]);
	struct spe_op op;
	unsigned int want;

	if (!(r->present & SPE_REC_OP) ||
	    !el0_in(r->addr[SPE_ADDR_IDX_PC], spe_wl_branch, spe_wl_branch_end))
		return;
	spe_op_decode(r->op_class, r->op_subclass, &op);
	if (op.kind != SPE_OP_BRANCH)
		return;
	c->in_wl++;
	want = c->crr ? insn_cr(*(const uint32_t *)(uintptr_t)pc) : SPE_OP_BR_CR_UNKNOWN;
	c->calls += want == SPE_OP_BR_CR_CALL;
	c->rets += want == SPE_OP_BR_CR_RET;
	c->neither += want == SPE_OP_BR_CR_NONE;
	if (op.cr != want && !c->mismatch++)
		c->first_bad_pc = pc;
}

TEST_F(cap, crr_branch_kinds_match_instructions)
{
	struct cr_count c = { .crr = spe_env_long("SPE_EXP_CRR", 0) == 1 };

	ASSERT_OPEN(capture_hook(&self->p, &self->a, 0, -1, WL_BRANCH, &self->e, &self->st, &self->s,
				 cr_hook, &c), &self->s);
	EXPECT_VALID(&self->st);
	TH_LOG("CRR %d: %llu workload branches (%llu calls, %llu returns, %llu neither), %llu mismatched (first pc %#llx)",
	       c.crr, (unsigned long long)c.in_wl, (unsigned long long)c.calls,
	       (unsigned long long)c.rets, (unsigned long long)c.neither,
	       (unsigned long long)c.mismatch, (unsigned long long)c.first_bad_pc);
	ASSERT_GT(c.in_wl, 20);
	EXPECT_EQ(0, c.mismatch);
	if (c.crr) {
		EXPECT_GT(c.calls, 0);
		EXPECT_GT(c.rets, 0);
		EXPECT_GT(c.neither, 0);
	}
}

/*
 * FEAT_SPE_PBT, D18.2.1 Address INDEX 4: "the target virtual address of
 * the most recently taken branch operation in program order before the
 * sampled operation". In the branch workload's loop every taken branch
 * (B.EQ, BL, RET, B.NE) lands inside it, so once the loop runs, each
 * record there carries a previous branch target within the loop, at the
 * workload's EL; only the first operations after the call into it see the
 * caller's BL. Without PBT no record has the packet.
 */
struct pbt_count {
	uint64_t in_wl, with_pbt, pbt_in_wl, any_pbt;
};

static void pbt_hook(const struct spe_record *r, void *arg, struct spe_stats *st)
{
	struct pbt_count *c = arg;
	int has = !!(r->present & SPE_REC_ADDR(SPE_ADDR_IDX_PREV_BR_TGT));

	c->any_pbt += has;
	if (!el0_in(r->addr[SPE_ADDR_IDX_PC], spe_wl_branch, spe_wl_branch_end))
		return;
	c->in_wl++;
	c->with_pbt += has;
	c->pbt_in_wl += has && el0_in(r->addr[SPE_ADDR_IDX_PREV_BR_TGT], spe_wl_branch,
				      spe_wl_branch_end);
}

TEST_F(cap, pbt_previous_branch_target_in_loop)
{
	struct pbt_count c = { 0 };
	int pbt = spe_env_long("SPE_EXP_PBT", 0) == 1;

	ASSERT_OPEN(capture_hook(&self->p, &self->a, 0, -1, WL_BRANCH, &self->e, &self->st, &self->s,
				 pbt_hook, &c), &self->s);
	EXPECT_VALID(&self->st);
	TH_LOG("PBT %d: %llu workload records, %llu with a previous branch target, %llu of them in the loop; %llu records with one in all",
	       pbt, (unsigned long long)c.in_wl, (unsigned long long)c.with_pbt,
	       (unsigned long long)c.pbt_in_wl, (unsigned long long)c.any_pbt);
	ASSERT_GT(c.in_wl, 20);
	if (!pbt) {
		EXPECT_EQ(0, c.any_pbt);
		return;
	}
	EXPECT_EQ(c.in_wl, c.with_pbt);
	EXPECT_GE(c.pbt_in_wl * 100, c.in_wl * 95);
}

/* The records of a workload that do not match their instruction: how many, the first */
struct wl_bad {
	uint64_t n, pc;
	char why[96];
};

/*
 * Count the record r if bad says what is wrong with it; keep the first
 * one's PC, operation type and what (its "va" or "events", val)
 */
static void wl_bad_note(struct wl_bad *b, const struct spe_record *r, const char *bad,
			const char *what, uint64_t val)
{
	if (!bad || b->n++)
		return;
	b->pc = spe_addr_va_sext(r->addr[SPE_ADDR_IDX_PC]);
	snprintf(b->why, sizeof(b->why), "%s (class %u subclass %#x %s %#llx)", bad,
		 r->op_class, r->op_subclass, what, (unsigned long long)val);
}

/*
 * SVE operations, on spe_wl_sve: D18.2.7 "Data processing, SVE vector"
 * (FEAT_SPEv1p1 with SVE: 0b0 EVL 1 PRED FP 0) for an operation on
 * vectors, PRED only where it writes a vector under /M or /Z, the
 * Load/store SVE subclass for LD1D, EVL the task's vector length
 * (PR_SVE_GET_VL, from the kernel, not the driver), and D18.2.6 E[17]
 * where the governing predicate has a FALSE element. What each loop
 * instruction is, is known from the workload's layout (its order in
 * spe_workload.S), not from the code under test.
 */
/*
 * Which instruction of a workload loop of n instructions at loop (as
 * laid out in spe_workload.S) a record with an Operation Type sampled:
 * 0 to n - 1, or -1 for one outside it
 */
static int wl_loop_slot(const struct spe_record *r, const char *loop, int n)
{
	if (!el0_in(r->addr[SPE_ADDR_IDX_PC], loop, loop + 4 * n) || !(r->present & SPE_REC_OP))
		return -1;
	return (int)((spe_addr_va_sext(r->addr[SPE_ADDR_IDX_PC]) - (uintptr_t)loop) / 4);
}

/*
 * wl_loop_slot() of r; for a record of the loop, also counted in
 * *in_loop and its Operation Type decoded into *op
 */
static int wl_loop_op(const struct spe_record *r, const char *loop, int n, uint64_t *in_loop,
		      struct spe_op *op)
{
	int i = wl_loop_slot(r, loop, n);

	if (i >= 0) {
		++*in_loop;
		spe_op_decode(r->op_class, r->op_subclass, op);
	}
	return i;
}

/*
 * The EVL field (D18.2.7: 32 << EVL bits) of the vector length a
 * PR_S[VM]E_GET_VL prctl() returned (bytes under mask); *bits gets it in
 * bits, a power of two here
 */
static int prctl_evl(long vl, long mask, long *bits)
{
	*bits = (vl & mask) * 8;
	return __builtin_ctzl(*bits) - 5;
}

enum { SVE_NONE, SVE_DP, SVE_LD };
static const struct sve_expect {
	uint8_t kind, pred, fp, e17;
} sve_expect[SPE_WL_SVE_INSNS] = {
	{ SVE_NONE },			/* ptrue p0.d: predicates only */
	{ SVE_NONE },			/* whilelo p1.d, xzr, x2 */
	{ SVE_DP, 1, 0, 0 },		/* add z0.d, p0/m, ...: all active */
	{ SVE_DP, 1, 0, 1 },		/* add z2.d, p1/m, ...: one active */
	{ SVE_DP, 0, 1, 0 },		/* fadd z3.s, z4.s, z5.s */
	{ SVE_DP, 0, 0, 0 },		/* sel z6.d, p1, z7.d, z8.d */
	{ SVE_LD, 1, 0, 0 },		/* ld1d {z9.d}, p0/z, [x0] */
	{ SVE_NONE },			/* subs */
	{ SVE_NONE },			/* b.ne */
};

struct sve_count {
	int v1p1, v1p2, evl;
	uint64_t in_loop, dp, ld, e17;
	struct wl_bad bad;
};

static void sve_hook(const struct spe_record *r, void *arg, struct spe_stats *st)
{
	struct sve_count *c = arg;
	const struct sve_expect *x;
	int e17 = (r->present & SPE_REC_EVENTS) &&
		  (r->events & SPE_EV_BIT(SPE_EV_PARTIAL_PRED));
	int e18 = (r->present & SPE_REC_EVENTS) &&
		  (r->events & SPE_EV_BIT(SPE_EV_EMPTY_PRED));
	struct spe_op op;
	const char *bad = NULL;
	int i = wl_loop_op(r, spe_wl_sve_loop, SPE_WL_SVE_INSNS, &c->in_loop, &op);

	if (i < 0)
		return;
	x = &sve_expect[i];
	if (x->kind == SVE_DP && c->v1p1) {
		c->dp++;
		if (op.kind != SPE_OP_SVE_DP)
			bad = "not SVE vector";
		else if (op.evl != c->evl || op.pred != x->pred || op.fp != x->fp)
			bad = "EVL/PRED/FP";
	} else if (x->kind == SVE_LD) {
		c->ld++;
		if (c->v1p1 && (op.kind != SPE_OP_LDST_SVE_SME || op.store ||
				op.evl != c->evl || op.pred != c->v1p2))
			bad = "not an SVE load of the vector length";
	} else if (op.kind == SPE_OP_SVE_DP) {
		bad = "SVE vector for an operation on no vector";
	}
	if (!bad && e18)
		bad = "E[18] with an active element";
	if (!bad && e17 != (c->v1p1 && x->e17))
		bad = "E[17]";
	c->e17 += e17;
	wl_bad_note(&c->bad, r, bad, "events", r->events);
}

TEST_F(cap, sve_records_match_instructions)
{
	struct sve_count c = { 0 };
	long vl, version = spe_env_long("SPE_EXP_VERSION", 0);

	if (!(getauxval(AT_HWCAP) & HWCAP_SVE))
		SKIP(return, "no SVE (HWCAP_SVE)");
	vl = prctl(PR_SVE_GET_VL);
	ASSERT_GT(vl, 0);
	c.evl = prctl_evl(vl, PR_SVE_VL_LEN_MASK, &vl);
	c.v1p1 = version >= 2;
	c.v1p2 = version >= 3;
	ASSERT_OPEN(capture_hook(&self->p, &self->a, 0, -1, WL_SVE, &self->e, &self->st,
				 &self->s, sve_hook, &c), &self->s);
	EXPECT_VALID(&self->st);
	TH_LOG("PMSVer %ld, VL %ld bits: %llu loop records, %llu SVE data processing, %llu SVE loads, %llu with E[17]; %llu mismatched (first pc %#llx: %s)",
	       version, vl, (unsigned long long)c.in_loop, (unsigned long long)c.dp,
	       (unsigned long long)c.ld, (unsigned long long)c.e17,
	       (unsigned long long)c.bad.n, (unsigned long long)c.bad.pc, c.bad.why);
	ASSERT_GT(c.in_loop, 50);
	EXPECT_EQ(0, c.bad.n);
	if (c.v1p1) {
		EXPECT_GT(c.dp, 0);
		EXPECT_GT(c.e17, 0);
	}
}

/*
 * SME loads and stores, on spe_wl_sme: D18.2.7 "Load/store, SVE or SME"
 * (FEAT_SPEv1p1: 0b SG EVL 1 PRED 0 LDST) with EVL the task's streaming
 * vector length (PR_SME_GET_VL, from the kernel), PRED for the tile
 * slice forms (for loads from FEAT_SPEv1p2), none for LDR/STR of ZA, and
 * the data address: buf for all four. PTRUE, SUBS and B.NE are no SVE
 * operation on vectors. Before FEAT_SPEv1p1 the subclass does not exist:
 * only the class and the data address are checked. What each loop
 * instruction is, is known from spe_workload.S's order.
 */
enum { SME_NONE, SME_LD, SME_ST };
static const struct sme_expect {
	uint8_t kind, pred;
} sme_expect[SPE_WL_SME_INSNS] = {
	{ SME_NONE },			/* ptrue p0.s */
	{ SME_LD, 1 },			/* ld1w {za0h.s[w12, 0]}, p0/z, [x0] */
	{ SME_ST, 1 },			/* st1w {za0h.s[w12, 0]}, p0, [x0] */
	{ SME_LD, 0 },			/* ldr za[w12, 0], [x0] */
	{ SME_ST, 0 },			/* str za[w12, 0], [x0] */
	{ SME_NONE },			/* subs */
	{ SME_NONE },			/* b.ne */
};

struct sme_count {
	int v1p1, v1p2, evl;
	uint64_t in_loop, ld, st;
	struct wl_bad bad;
};

static void sme_hook(const struct spe_record *r, void *arg, struct spe_stats *st)
{
	struct sme_count *c = arg;
	uint64_t va = spe_addr_va_sext(r->addr[SPE_ADDR_IDX_DATA_VA]);
	const struct sme_expect *x;
	struct spe_op op;
	const char *bad = NULL;
	int i = wl_loop_op(r, spe_wl_sme_loop, SPE_WL_SME_INSNS, &c->in_loop, &op);

	if (i < 0)
		return;
	x = &sme_expect[i];
	if (x->kind == SME_NONE) {
		if (op.is_ldst || op.kind == SPE_OP_SVE_DP)
			bad = "a load/store or SVE vector operation";
	} else {
		x->kind == SME_LD ? c->ld++ : c->st++;
		if (!op.is_ldst || op.store != (x->kind == SME_ST))
			bad = "not a load/store of the right direction";
		else if (!(r->present & SPE_REC_DATA_VA) || va != (uintptr_t)wl_buf)
			bad = "data address";
		else if (c->v1p1 && (op.kind != SPE_OP_LDST_SVE_SME || op.evl != c->evl ||
				     op.pred != (x->pred && (x->kind == SME_ST || c->v1p2))))
			bad = "not SVE or SME of the streaming vector length, or PRED";
	}
	wl_bad_note(&c->bad, r, bad, "va", va);
}

TEST_F(cap, sme_records_match_instructions)
{
	struct sme_count c = { 0 };
	long vl, version = spe_env_long("SPE_EXP_VERSION", 0);

	if (!(getauxval(AT_HWCAP2) & HWCAP2_SME))
		SKIP(return, "no SME (HWCAP2_SME)");
	vl = prctl(PR_SME_GET_VL);
	ASSERT_GT(vl, 0);
	c.evl = prctl_evl(vl, PR_SME_VL_LEN_MASK, &vl);
	c.v1p1 = version >= 2;
	c.v1p2 = version >= 3;
	ASSERT_OPEN(capture_hook(&self->p, &self->a, 0, -1, WL_SME, &self->e, &self->st,
				 &self->s, sme_hook, &c), &self->s);
	EXPECT_VALID(&self->st);
	TH_LOG("PMSVer %ld, SVL %ld bits: %llu loop records, %llu SME loads, %llu SME stores; %llu mismatched (first pc %#llx: %s)",
	       version, vl, (unsigned long long)c.in_loop, (unsigned long long)c.ld,
	       (unsigned long long)c.st, (unsigned long long)c.bad.n,
	       (unsigned long long)c.bad.pc, c.bad.why);
	ASSERT_GT(c.in_loop, 50);
	EXPECT_GT(c.ld, 0);
	EXPECT_GT(c.st, 0);
	EXPECT_EQ(0, c.bad.n);
}

/*
 * FEAT_SPE_SME (PMSIDR_EL1.SME; the runner's SPE_EXP_SME, from the CPU
 * properties), on spe_wl_sme_dp in Streaming SVE mode. D18.2.7 Data
 * processing, SME array, ETS = log2(bits) - 7 of what each does to ZA:
 * FMOPA into ZA0.S a tile of (SVL / 32)^2 words (FP), MOVA of one
 * vector (SVL bits), ZERO {ZA} the whole array (0b1111); the ADD, SUBS
 * and B.NE none. D18.2.6 E[24] (Streaming SVE mode) on every loop
 * record, E[25] (SMCU, IMPLEMENTATION DEFINED) not on the scalar ones
 * (a scalar operation runs on the PE). Without FEAT_SPE_SME, none of it:
 * no SME array subclass, E[25:24] clear.
 */
enum { SMEDP_NONE, SMEDP_TILE_S, SMEDP_VECTOR, SMEDP_ZA };
static const uint8_t sme_dp_expect[SPE_WL_SME_DP_INSNS] = {
	SMEDP_TILE_S,			/* fmopa za0.s, ... */
	SMEDP_VECTOR,			/* mova za0h.s[w12, 0], p0/m, z0.s */
	SMEDP_ZA,			/* zero {za} */
	SMEDP_NONE,			/* add x2, x2, #1 */
	SMEDP_NONE,			/* subs */
	SMEDP_NONE,			/* b.ne */
};

struct sme_dp_count {
	int sme, svl_log2;
	uint64_t in_loop, array;
	struct wl_bad bad;
};

static void sme_dp_hook(const struct spe_record *r, void *arg, struct spe_stats *st)
{
	struct sme_dp_count *c = arg;
	uint64_t ev = (r->present & SPE_REC_EVENTS) ? r->events : 0;
	unsigned int want_ets = 0;
	int kind, want_e25;
	struct spe_op op;
	const char *bad = NULL;
	int i = wl_loop_op(r, spe_wl_sme_dp_loop, SPE_WL_SME_DP_INSNS, &c->in_loop, &op);

	if (i < 0)
		return;
	kind = sme_dp_expect[i];
	if (kind == SMEDP_TILE_S)
		want_ets = 2 * c->svl_log2 - 5 - 7;
	else if (kind == SMEDP_VECTOR)
		want_ets = c->svl_log2 - 7;
	else if (kind == SMEDP_ZA)
		want_ets = SPE_OP_SME_ETS_WHOLE_ZA;
	want_e25 = c->sme && kind != SMEDP_NONE;
	if (c->sme && kind != SMEDP_NONE) {
		c->array++;
		if (op.kind != SPE_OP_SME_DP || op.ets != want_ets ||
		    op.fp != (kind == SMEDP_TILE_S))
			bad = "not SME array with the ETS and FP of the operation";
	} else if (op.kind == SPE_OP_SME_DP) {
		bad = "SME array";
	}
	if (!bad && !!(ev & SPE_EV_BIT(SPE_EV_STREAMING_SVE)) != c->sme)
		bad = "E[24] (Streaming SVE mode)";
	if (!bad && !!(ev & SPE_EV_BIT(SPE_EV_SMCU)) != want_e25)
		bad = "E[25] (SMCU)";
	wl_bad_note(&c->bad, r, bad, "events", ev);
}

TEST_F(cap, sme_array_records_match_instructions)
{
	struct sme_dp_count c = { 0 };
	long vl;

	if (!(getauxval(AT_HWCAP2) & HWCAP2_SME))
		SKIP(return, "no SME (HWCAP2_SME)");
	c.sme = spe_env_long("SPE_EXP_SME", -1);
	ASSERT_GE(c.sme, 0) TH_LOG("SPE_EXP_SME unset: the runner gives the expectations");
	vl = prctl(PR_SME_GET_VL);
	ASSERT_GT(vl, 0);
	c.svl_log2 = prctl_evl(vl, PR_SME_VL_LEN_MASK, &vl) + 5;
	ASSERT_OPEN(capture_hook(&self->p, &self->a, 0, -1, WL_SME_DP, &self->e, &self->st,
				 &self->s, sme_dp_hook, &c), &self->s);
	EXPECT_VALID(&self->st);
	TH_LOG("FEAT_SPE_SME %d, SVL %ld bits: %llu loop records, %llu SME array; %llu mismatched (first pc %#llx: %s)",
	       c.sme, vl, (unsigned long long)c.in_loop, (unsigned long long)c.array,
	       (unsigned long long)c.bad.n, (unsigned long long)c.bad.pc, c.bad.why);
	ASSERT_GT(c.in_loop, 50);
	if (c.sme)
		EXPECT_GT(c.array, 0);
	EXPECT_EQ(0, c.bad.n);
}

/*
 * LSE atomics, acquire/release and exclusives, on spe_wl_atomic: D18.2.7
 * "Load/store, extended" (SUBCLASS 0b000 AR EXCL AT 1 LDST, defined from
 * FEAT_SPE) for each of the loop's loads and stores: AT for the atomics
 * (LDADD, CAS, CASP, SWP), each of which returns a value to the PE, so
 * LDST 0; AR for those with acquire or release semantics; EXCL for
 * LDAXR and STLXR; LDST 1 for the stores (STLR, STLXR). The data address
 * is buf for all. SUBS and B.NE are no load/store.
 */
static const struct atomic_expect {
	uint8_t ldst, at, excl, ar, store;
} atomic_expect[SPE_WL_ATOMIC_INSNS] = {
	{ 1, 1, 0, 0, 0 },		/* ldadd x4, x5, [x0] */
	{ 1, 1, 0, 1, 0 },		/* ldaddal x4, x5, [x0] */
	{ 1, 1, 0, 0, 0 },		/* cas x5, x6, [x0] */
	{ 1, 1, 0, 0, 0 },		/* casp x6, x7, x8, x9, [x0] */
	{ 1, 1, 0, 1, 0 },		/* swpal x4, x5, [x0] */
	{ 1, 0, 0, 1, 0 },		/* ldapr x5, [x0] */
	{ 1, 0, 0, 1, 1 },		/* stlr x5, [x0] */
	{ 1, 0, 1, 1, 0 },		/* ldaxr x5, [x0] */
	{ 1, 0, 1, 1, 1 },		/* stlxr w6, x5, [x0] */
	{ 0 },				/* subs */
	{ 0 },				/* b.ne */
};

struct atomic_count {
	uint64_t in_loop, slot[SPE_WL_ATOMIC_INSNS];
	struct wl_bad bad;
};

static void atomic_hook(const struct spe_record *r, void *arg, struct spe_stats *st)
{
	struct atomic_count *c = arg;
	uint64_t va = spe_addr_va_sext(r->addr[SPE_ADDR_IDX_DATA_VA]);
	const struct atomic_expect *x;
	struct spe_op op;
	const char *bad = NULL;
	int i = wl_loop_op(r, spe_wl_atomic_loop, SPE_WL_ATOMIC_INSNS, &c->in_loop, &op);

	if (i < 0)
		return;
	c->slot[i]++;
	x = &atomic_expect[i];
	if (!x->ldst) {
		if (op.is_ldst)
			bad = "a load/store";
	} else {
		if (op.kind != SPE_OP_LDST_EXT)
			bad = "not Load/store, extended";
		else if (op.at != x->at || op.excl != x->excl || op.ar != x->ar ||
			 op.store != x->store)
			bad = "AT, EXCL, AR or LDST";
		else if (!(r->present & SPE_REC_DATA_VA) || va != (uintptr_t)atomic_buf)
			bad = "data address";
	}
	wl_bad_note(&c->bad, r, bad, "va", va);
}

TEST_F(cap, atomic_records_match_instructions)
{
	struct atomic_count c = { 0 };
	uint64_t at = 0, ar = 0, excl = 0, store = 0;
	int i;

	if (!(getauxval(AT_HWCAP) & HWCAP_ATOMICS))
		SKIP(return, "no LSE atomics (HWCAP_ATOMICS)");
	if (!(getauxval(AT_HWCAP) & HWCAP_LRCPC))
		SKIP(return, "no LDAPR (HWCAP_LRCPC)");
	ASSERT_OPEN(capture_hook(&self->p, &self->a, 0, -1, WL_ATOMIC, &self->e, &self->st,
				 &self->s, atomic_hook, &c), &self->s);
	EXPECT_VALID(&self->st);
	for (i = 0; i < SPE_WL_ATOMIC_INSNS; i++) {
		at += c.slot[i] * atomic_expect[i].at;
		ar += c.slot[i] * atomic_expect[i].ar;
		excl += c.slot[i] * atomic_expect[i].excl;
		store += c.slot[i] * atomic_expect[i].store;
	}
	TH_LOG("%llu loop records: %llu atomic, %llu acquire/release, %llu exclusive, %llu stores; %llu mismatched (first pc %#llx: %s)",
	       (unsigned long long)c.in_loop, (unsigned long long)at,
	       (unsigned long long)ar, (unsigned long long)excl,
	       (unsigned long long)store, (unsigned long long)c.bad.n,
	       (unsigned long long)c.bad.pc, c.bad.why);
	ASSERT_GT(c.in_loop, 50);
	/* every load/store of the loop was sampled and checked */
	for (i = 0; i < SPE_WL_ATOMIC_INSNS; i++)
		if (atomic_expect[i].ldst)
			EXPECT_GT(c.slot[i], 0) TH_LOG("no record of loop instruction %d", i);
	EXPECT_EQ(0, c.bad.n);
}

/*
 * Memory Copy and Memory Set (FEAT_MOPS), on spe_wl_mops: from
 * FEAT_SPEv1p3, D18.2.7 "Load/store, Memory Copy" (0b0010000 LDST: a
 * load's address is in the source, a store's in the destination) for
 * each of CPYP, CPYM and CPYE, and "Load/store, Memory Set" (0b00100101,
 * a store at the destination) for SETP, SETM and SETE. Before it those
 * subclasses are not defined: only a load/store with the same address
 * rule is asked for. An operation may start at its buffer's end (an
 * epilogue with nothing left), so the address is in [buf, buf + n]. The
 * MOVs, SUBS and B.NE are no load/store.
 */
enum { MOPS_NONE, MOPS_CPY, MOPS_SET };
static const uint8_t mops_expect[SPE_WL_MOPS_INSNS] = {
	MOPS_NONE, MOPS_NONE, MOPS_NONE,	/* mov x4, x0; mov x5, x1; mov x6, x2 */
	MOPS_CPY, MOPS_CPY, MOPS_CPY,		/* cpyp, cpym, cpye */
	MOPS_NONE, MOPS_NONE,			/* mov x4, x0; mov x6, x2 */
	MOPS_SET, MOPS_SET, MOPS_SET,		/* setp, setm, sete */
	MOPS_NONE, MOPS_NONE,			/* subs, b.ne */
};

struct mops_count {
	int v1p3;
	uint64_t in_loop, slot[SPE_WL_MOPS_INSNS];
	uint64_t cpy_part[2];	/* Memory Copy records: loads, stores */
	struct wl_bad bad;
};

static int in_buf(uint64_t va, const uint8_t *buf)
{
	return va >= (uintptr_t)buf && va <= (uintptr_t)buf + MOPS_BYTES;
}

static void mops_hook(const struct spe_record *r, void *arg, struct spe_stats *st)
{
	struct mops_count *c = arg;
	uint64_t va = spe_addr_va_sext(r->addr[SPE_ADDR_IDX_DATA_VA]);
	int kind, want;
	struct spe_op op;
	const char *bad = NULL;
	int i = wl_loop_op(r, spe_wl_mops_loop, SPE_WL_MOPS_INSNS, &c->in_loop, &op);

	if (i < 0)
		return;
	c->slot[i]++;
	kind = mops_expect[i];
	if (kind == MOPS_NONE) {
		if (op.is_ldst)
			bad = "a load/store";
	} else {
		want = kind == MOPS_CPY ? SPE_OP_LDST_MEMCPY : SPE_OP_LDST_MEMSET;
		if (!op.is_ldst || (c->v1p3 && op.kind != want))
			bad = c->v1p3 ? "not Memory Copy or Memory Set" : "not a load/store";
		else if (kind == MOPS_SET && !op.store)
			bad = "a Memory Set that loads";
		else if (!(r->present & SPE_REC_DATA_VA) ||
			 !in_buf(va, op.store ? mops_dst : mops_src))
			bad = "data address (a load in src, a store in dst)";
		else if (kind == MOPS_CPY)
			c->cpy_part[op.store]++;
	}
	wl_bad_note(&c->bad, r, bad, "va", va);
}

TEST_F(cap, mops_records_match_instructions)
{
	struct mops_count c = { 0 };
	long version = spe_env_long("SPE_EXP_VERSION", 0);
	uint64_t cpy = 0, set = 0;
	int i;

	if (!(getauxval(AT_HWCAP2) & HWCAP2_MOPS))
		SKIP(return, "no FEAT_MOPS for tasks (HWCAP2_MOPS)");
	c.v1p3 = version >= 4;
	ASSERT_OPEN(capture_hook(&self->p, &self->a, 0, -1, WL_MOPS, &self->e, &self->st,
				 &self->s, mops_hook, &c), &self->s);
	EXPECT_VALID(&self->st);
	for (i = 0; i < SPE_WL_MOPS_INSNS; i++) {
		cpy += mops_expect[i] == MOPS_CPY ? c.slot[i] : 0;
		set += mops_expect[i] == MOPS_SET ? c.slot[i] : 0;
	}
	TH_LOG("PMSVer %ld: %llu loop records, %llu Memory Copy (%llu loads, %llu stores), %llu Memory Set; %llu mismatched (first pc %#llx: %s)",
	       version, (unsigned long long)c.in_loop, (unsigned long long)cpy,
	       (unsigned long long)c.cpy_part[0], (unsigned long long)c.cpy_part[1],
	       (unsigned long long)set, (unsigned long long)c.bad.n,
	       (unsigned long long)c.bad.pc, c.bad.why);
	ASSERT_GT(c.in_loop, 50);
	/* each of the prologues, mains and epilogues was sampled and checked */
	for (i = 0; i < SPE_WL_MOPS_INSNS; i++)
		if (mops_expect[i] != MOPS_NONE)
			EXPECT_GT(c.slot[i], 0) TH_LOG("no record of loop instruction %d", i);
	/*
	 * a Memory Copy sample is its load or its store part (LDST): an
	 * implementation that samples only one of them is allowed, but the
	 * emulator takes both in turn, so tools meet both
	 */
	if (c.v1p3 && spe_env_long("SPE_EXP_CPY_BOTH", 0) == 1) {
		EXPECT_GT(c.cpy_part[0], 0) TH_LOG("no Memory Copy load part");
		EXPECT_GT(c.cpy_part[1], 0) TH_LOG("no Memory Copy store part");
	}
	EXPECT_EQ(0, c.bad.n);
}

TEST_F(cap, event_filter_misaligned)
{
	NEED_FORMAT(&self->p, "event_filter");
	if (!(self->p.event_filter & (1ull << SPE_EV_MISALIGNED)))
		SKIP(return, "E[11] not filterable before FEAT_SPEv1p1");
	self->a.config1 = 1ull << SPE_EV_MISALIGNED;
	ASSERT_OPEN(capture(&self->p, &self->a, 0, -1, WL_MISALIGN, &self->e, &self->st, &self->s), &self->s);
	log_stats(_metadata, &self->st, &self->s);
	EXPECT_VALID(&self->st);
	EXPECT_GT(self->st.in_misalign, 5);
	EXPECT_EQ(self->st.records, self->st.ev_misaligned);
	EXPECT_EQ(self->st.records, self->st.loads);
}

/* FnE: samples with any event of PMSNEVFR_EL1 are not recorded. */
TEST_F(cap, inv_event_filter_not_taken)
{
	NEED_FORMAT(&self->p, "inv_event_filter");
	SPE_SET_CONFIG3(&self->a, 1ull << SPE_EV_NOT_TAKEN);
	ASSERT_OPEN(capture(&self->p, &self->a, 0, -1, WL_BRANCH, &self->e, &self->st, &self->s), &self->s);
	log_stats(_metadata, &self->st, &self->s);
	EXPECT_VALID(&self->st);
	EXPECT_GT(self->st.records, 10);
	EXPECT_EQ(0, self->st.ev_not_taken);
}

/*
 * E[2], level 1 data cache access (D18.2.6, filterable from FEAT_SPEv1p4):
 * set by a load or store that accessed the L1 data cache and by nothing
 * else, so it splits the load/store loop's samples from its branches and
 * arithmetic. (Whether a store sets it is IMPLEMENTATION DEFINED: the
 * inverted case checks loads only.) On the emulator the event comes from
 * its memory-hierarchy model.
 */
TEST_F(cap, event_filter_l1d_access)
{
	NEED_FORMAT(&self->p, "event_filter");
	if (!(self->p.event_filter & (1ull << SPE_EV_L1D_ACCESS)))
		SKIP(return, "E[2] not filterable before FEAT_SPEv1p4");
	self->a.config1 = 1ull << SPE_EV_L1D_ACCESS;
	ASSERT_OPEN(capture(&self->p, &self->a, 0, -1, WL_LDST, &self->e, &self->st, &self->s), &self->s);
	log_stats(_metadata, &self->st, &self->s);
	EXPECT_VALID(&self->st);
	EXPECT_GT(self->st.loads, 10);
	EXPECT_EQ(self->st.records, self->st.loads + self->st.stores)
		TH_LOG("%llu branches, %llu other operations passed an L1D-access filter",
		       (unsigned long long)self->st.branches, (unsigned long long)self->st.others);
}

TEST_F(cap, inv_event_filter_l1d_access)
{
	NEED_FORMAT(&self->p, "inv_event_filter");
	if (!(self->p.event_filter & (1ull << SPE_EV_L1D_ACCESS)))
		SKIP(return, "E[2] not filterable before FEAT_SPEv1p4");
	SPE_SET_CONFIG3(&self->a, 1ull << SPE_EV_L1D_ACCESS);
	ASSERT_OPEN(capture(&self->p, &self->a, 0, -1, WL_LDST, &self->e, &self->st, &self->s), &self->s);
	log_stats(_metadata, &self->st, &self->s);
	EXPECT_VALID(&self->st);
	EXPECT_GT(self->st.records, 10);
	EXPECT_EQ(0, self->st.loads) TH_LOG("loads passed a filter that excludes L1D accesses");
}

static void lat_hook(const struct spe_record *r, void *arg, struct spe_stats *st)
{
	uint64_t min = *(uint64_t *)arg;

	if (!(r->present & SPE_REC_CNT(SPE_CNT_IDX_TOTAL)))
		spe_violation(st, "no total latency counter with min_latency");
	else if (r->counter[SPE_CNT_IDX_TOTAL] < min)
		spe_violation(st, "total latency %u < min_latency %llu",
			      r->counter[SPE_CNT_IDX_TOTAL], (unsigned long long)min);
}

/* FL: samples with a total latency below PMSLATFR_EL1.MINLAT are dropped. */
TEST_F(cap, min_latency)
{
	uint64_t min = 5;
	struct spe_stats all;

	NEED_FORMAT(&self->p, "min_latency");
	ASSERT_OPEN(capture(&self->p, &self->a, 0, -1, WL_LDST, &self->e, &all, &self->s), &self->s);
	spe_session_close(&self->s);
	self->a.config2 = min;
	ASSERT_OPEN(capture_hook(&self->p, &self->a, 0, -1, WL_LDST, &self->e, &self->st,
				 &self->s, lat_hook, &min), &self->s);
	log_stats(_metadata, &self->st, &self->s);
	EXPECT_VALID(&self->st);
	EXPECT_LT(self->st.records, all.records);
	if (all.max_lat >= min)
		EXPECT_GT(self->st.records, 0);
}

TEST_F(cap, physical_address)
{
	self->a.config |= CFG_PA;
	/* Map the buffer first: no PA is recorded when the walk faults. */
	memset(wl_buf, 1, sizeof(wl_buf));
	ASSERT_OPEN(capture(&self->p, &self->a, 0, -1, WL_LDST, &self->e, &self->st, &self->s), &self->s);
	EXPECT_VALID(&self->st);
	EXPECT_GT(self->st.loop_mem, 10);
	EXPECT_EQ(self->st.loop_mem, self->st.loop_mem_pa);
	EXPECT_GE(self->st.loads + self->st.stores, self->st.with_pa);
}

/*
 * FEAT_MTE2, D18.2.1: the physical address packet's CH is set when the
 * sampled access was checked against an Allocation Tag in memory, and
 * PAT is that tag. The ldst workload's LDR and STR (register offset:
 * Tag Checked forms, whatever the base) on a PROT_MTE buffer whose
 * granules hold MTE_TAG, through a pointer tagged MTE_TAG, with
 * synchronous tag checking for the task (PR_MTE_TCF_SYNC: Tag Check
 * Faults not ignored, so CH is not IMPLEMENTATION DEFINED): every loop
 * load or store with a PA has CH 1 and PAT MTE_TAG. On wl_buf, which is
 * not Tagged memory, the same accesses are unchecked: CH 0 on any CPU
 * (PAT is then 0 or the tag, IMPLEMENTATION DEFINED: not checked).
 */
#define MTE_TAG		0xaull

struct mte_count {
	unsigned int ch;
	uint64_t pa_recs, bad, first_bad;
};

static void mte_hook(const struct spe_record *r, void *arg, struct spe_stats *st)
{
	struct mte_count *c = arg;
	uint64_t pc = spe_addr_va_sext(r->addr[SPE_ADDR_IDX_PC]);
	uint64_t pa = r->addr[SPE_ADDR_IDX_DATA_PA];
	struct spe_op op;

	spe_op_decode(r->op_class, r->op_subclass, &op);
	if (pc < (uintptr_t)spe_wl_ldst_loop || pc >= (uintptr_t)spe_wl_ldst_end ||
	    !op.is_ldst || !(r->present & SPE_REC_DATA_PA))
		return;
	c->pa_recs++;
	if (SPE_ADDR_CH(pa) != c->ch || (c->ch && SPE_ADDR_PAT(pa) != MTE_TAG))
		if (!c->bad++)
			c->first_bad = pa;
}

TEST_F(cap, mte_tag_checked_physical_address)
{
	struct mte_count c = { .ch = 1 };
	uint64_t *m;

	if (!(getauxval(AT_HWCAP2) & HWCAP2_MTE))
		SKIP(return, "no MTE for tasks (HWCAP2_MTE)");
	ASSERT_EQ(0, prctl(PR_SET_TAGGED_ADDR_CTRL, PR_TAGGED_ADDR_ENABLE | PR_MTE_TCF_SYNC |
			   (0xfffeul << PR_MTE_TAG_SHIFT), 0, 0, 0));
	m = mmap(NULL, sizeof(wl_buf), PROT_READ | PROT_WRITE | PROT_MTE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, m);
	mte_buf = (uint64_t *)((uintptr_t)m | MTE_TAG << 56);
	spe_mte_set_tags(mte_buf, sizeof(wl_buf));
	/* Map the buffer first, through the tagged pointer (checked) */
	memset(mte_buf, 1, sizeof(wl_buf));
	self->a.config |= CFG_PA;
	ASSERT_OPEN(capture_hook(&self->p, &self->a, 0, -1, WL_MTE, &self->e, &self->st,
				 &self->s, mte_hook, &c), &self->s);
	EXPECT_VALID(&self->st);
	TH_LOG("%llu loop loads/stores with a PA, %llu without CH 1 and PAT %#llx (first PA payload %#llx)",
	       (unsigned long long)c.pa_recs, (unsigned long long)c.bad, MTE_TAG,
	       (unsigned long long)c.first_bad);
	EXPECT_GT(c.pa_recs, 10);
	EXPECT_EQ(0, c.bad);
	munmap(m, sizeof(wl_buf));
}

TEST_F(cap, physical_address_untagged_unchecked)
{
	struct mte_count c = { .ch = 0 };

	/* With MTE, tag checking on: only the memory type leaves it unchecked */
	if (getauxval(AT_HWCAP2) & HWCAP2_MTE)
		ASSERT_EQ(0, prctl(PR_SET_TAGGED_ADDR_CTRL, PR_TAGGED_ADDR_ENABLE |
				   PR_MTE_TCF_SYNC | (0xfffeul << PR_MTE_TAG_SHIFT), 0, 0, 0));
	self->a.config |= CFG_PA;
	memset(wl_buf, 1, sizeof(wl_buf));
	ASSERT_OPEN(capture_hook(&self->p, &self->a, 0, -1, WL_LDST, &self->e, &self->st,
				 &self->s, mte_hook, &c), &self->s);
	EXPECT_VALID(&self->st);
	TH_LOG("%llu loop loads/stores with a PA, %llu with CH set (first PA payload %#llx)",
	       (unsigned long long)c.pa_recs, (unsigned long long)c.bad,
	       (unsigned long long)c.first_bad);
	EXPECT_GT(c.pa_recs, 10);
	EXPECT_EQ(0, c.bad);
}

TEST_F(cap, no_physical_address_by_default)
{
	ASSERT_OPEN(capture(&self->p, &self->a, 0, -1, WL_LDST, &self->e, &self->st, &self->s), &self->s);
	EXPECT_VALID(&self->st);
	EXPECT_EQ(0, self->st.with_pa);
}

/* PMSIDR_EL1.LDS: loads carry a Data Source packet (D18.2.4). */
TEST_F(cap, data_source_packets)
{
	long lds = spe_env_long("SPE_EXP_LDS", -1);

	if (lds < 0)
		SKIP(return, "SPE_EXP_LDS unset");
	ASSERT_OPEN(capture(&self->p, &self->a, 0, -1, WL_LDST, &self->e, &self->st, &self->s), &self->s);
	EXPECT_VALID(&self->st);
	ASSERT_GT(self->st.loop_loads, 10);
	if (lds) {
		EXPECT_EQ(self->st.loop_loads, self->st.loop_loads_ds);
	} else {
		EXPECT_EQ(0, self->st.with_ds);
	}
}

/* FEAT_SPE_EFT: a mask bit makes its type filter exact, so BM=1, B=0
 * keeps only operations that are not branches. */
TEST_F(cap, eft_branch_mask_excludes_branches)
{
	NEED_FORMAT(&self->p, "branch_filter_mask");
	self->a.config |= 1ull << 36;
	ASSERT_OPEN(capture(&self->p, &self->a, 0, -1, WL_BRANCH, &self->e, &self->st, &self->s), &self->s);
	log_stats(_metadata, &self->st, &self->s);
	EXPECT_VALID(&self->st);
	EXPECT_GT(self->st.records, 10);
	EXPECT_EQ(0, self->st.branches);
}

/* EFT: LD with LDM and no other type bit: loads only, as plain LD. */
TEST_F(cap, eft_load_mask_loads_only)
{
	NEED_FORMAT(&self->p, "load_filter_mask");
	self->a.config |= CFG_LOAD | (1ull << 37);
	ASSERT_OPEN(capture(&self->p, &self->a, 0, -1, WL_LDST, &self->e, &self->st, &self->s), &self->s);
	EXPECT_VALID(&self->st);
	EXPECT_GT(self->st.loads, 10);
	EXPECT_EQ(self->st.records, self->st.loads);
}

/*
 * FEAT_SPE_FPF and the EFT FP/SIMD type filters, on spe_wl_simdfp. The
 * hook sorts every record by its Operation Type flags and, in the
 * workload, checks the flags against the instruction at the PC
 * (spe_insn_simdfp(), from the A64 encoding tables).
 */
struct fpf_count {
	int expect_flags;	/* 1: FPF implemented, flags must match */
	uint64_t records, ase, fp, ase_only, fp_only, both;
	uint64_t in_wl, wl_ase, wl_fp, mismatch;
	uint64_t first_bad_pc;
};

static void fpf_hook(const struct spe_record *r, void *arg, struct spe_stats *st)
{
	struct fpf_count *c = arg;
	uint64_t pc = spe_addr_va_sext(r->addr[SPE_ADDR_IDX_PC]);
	struct spe_op op;
	int ase, fp;

	if (!(r->present & SPE_REC_OP))
		return;
	spe_op_decode(r->op_class, r->op_subclass, &op);
	c->records++;
	ase = op.kind == SPE_OP_OTHER && op.ase;
	fp = op.kind == SPE_OP_OTHER && op.fp;
	c->ase += ase;
	c->fp += fp;
	c->ase_only += ase && !fp;
	c->fp_only += fp && !ase;
	c->both += ase && fp;
	if (!el0_in(r->addr[SPE_ADDR_IDX_PC], spe_wl_simdfp, spe_wl_simdfp_end))
		return;
	c->in_wl++;
	{
		int want_ase, want_fp;

		spe_insn_simdfp(*(const uint32_t *)(uintptr_t)pc, &want_ase, &want_fp);
		c->wl_ase += want_ase;
		c->wl_fp += want_fp;
		if (!c->expect_flags)
			want_ase = want_fp = 0;	/* FPF absent: the bits read as zero */
		if (ase != want_ase || fp != want_fp) {
			if (!c->mismatch)
				c->first_bad_pc = pc;
			c->mismatch++;
		}
	}
}

static void fpf_capture(struct __test_metadata *_metadata, FIXTURE_DATA(cap) *self,
			struct fpf_count *c)
{
	memset(c, 0, sizeof(*c));
	c->expect_flags = spe_env_long("SPE_EXP_FPF", 0) == 1;
	ASSERT_OPEN(capture_hook(&self->p, &self->a, 0, -1, WL_SIMDFP, &self->e, &self->st,
				 &self->s, fpf_hook, c), &self->s);
	EXPECT_VALID(&self->st);
	TH_LOG("%llu records: ASE %llu FP %llu (ASE only %llu, FP only %llu, both %llu); workload %llu, %llu mismatched (first pc %#llx)",
	       (unsigned long long)c->records, (unsigned long long)c->ase,
	       (unsigned long long)c->fp, (unsigned long long)c->ase_only,
	       (unsigned long long)c->fp_only, (unsigned long long)c->both,
	       (unsigned long long)c->in_wl, (unsigned long long)c->mismatch,
	       (unsigned long long)c->first_bad_pc);
}

/* Without a filter: ASE/FP follow the instruction (zero without FPF). */
TEST_F(cap, fpf_flags_match_instructions)
{
	struct fpf_count c;

	fpf_capture(_metadata, self, &c);
	ASSERT_GT(c.in_wl, 50);
	EXPECT_EQ(0, c.mismatch);
	/* 3 of the 6 loop instructions are FP, 2 are SIMD. */
	EXPECT_NEAR_COUNT(c.wl_fp, c.in_wl / 2.0, 25, 3);
	EXPECT_NEAR_COUNT(c.wl_ase, c.in_wl / 3.0, 25, 3);
}

/* float_filter: floating-point operations only (scalar and vector). */
TEST_F(cap, eft_float_filter_fp_only)
{
	struct fpf_count c;

	NEED_FORMAT(&self->p, "float_filter");
	self->a.config |= 1ull << 41;
	fpf_capture(_metadata, self, &c);
	EXPECT_GT(c.records, 50);
	EXPECT_EQ(c.records, c.fp);
	EXPECT_GT(c.both, 0) TH_LOG("vector fadd is both SIMD and FP");
	EXPECT_GT(c.fp_only, 0);
}

/* simd_filter: Advanced SIMD operations only. */
TEST_F(cap, eft_simd_filter_simd_only)
{
	struct fpf_count c;

	NEED_FORMAT(&self->p, "simd_filter");
	self->a.config |= 1ull << 39;
	fpf_capture(_metadata, self, &c);
	EXPECT_GT(c.records, 50);
	EXPECT_EQ(c.records, c.ase);
	EXPECT_GT(c.ase_only, 0);
	EXPECT_GT(c.both, 0);
}

/* SIMDm without SIMD: every operation that is not SIMD. */
TEST_F(cap, eft_simd_mask_excludes_simd)
{
	struct fpf_count c;

	NEED_FORMAT(&self->p, "simd_filter_mask");
	self->a.config |= 1ull << 40;
	fpf_capture(_metadata, self, &c);
	EXPECT_GT(c.records, 50);
	EXPECT_EQ(0, c.ase);
	EXPECT_GT(c.fp_only, 0);
}

/* SIMD and FPm without FP: SIMD operations that are not floating-point. */
TEST_F(cap, eft_simd_but_not_fp)
{
	struct fpf_count c;

	NEED_FORMAT(&self->p, "float_filter_mask");
	self->a.config |= (1ull << 39) | (1ull << 42);
	fpf_capture(_metadata, self, &c);
	EXPECT_GT(c.records, 20);
	EXPECT_EQ(c.records, c.ase_only);
}

/*
 * FEAT_SPE_FDS through mainline's inv_data_src_filter (config4): a set bit
 * drops that data source (PMSDSFR_EL1 = ~config4, PMSFCR_EL1.FDS when it
 * is non-zero). All ones drops every load with a data source; zero
 * filters nothing.
 * The runner says whether the implementation and the kernel have it, so a
 * driver with another term name or polarity fails here instead of
 * skipping.
 */
TEST_F(cap, data_source_filter)
{
	if (spe_env_long("SPE_EXP_FDS", 0) != 1 || spe_env_long("SPE_EXP_VERSION", 0) < 5 ||
	    spe_env_long("SPE_EXP_CONFIG4", 0) != 1)
		SKIP(return, "no FEAT_SPE_FDS or no attr.config4");
	self->a.config |= CFG_LOAD;
	SPE_SET_CONFIG4(&self->a, ~0ull);
	ASSERT_OPEN(capture(&self->p, &self->a, 0, -1, WL_LDST, &self->e, &self->st, &self->s), &self->s);
	EXPECT_VALID(&self->st);
	TH_LOG("inv_data_src_filter=~0: %llu loads, %llu with a data source",
	       (unsigned long long)self->st.loop_loads, (unsigned long long)self->st.loop_loads_ds);
	EXPECT_EQ(0, self->st.loop_loads_ds) TH_LOG("loads of a filtered-out data source recorded");
	spe_session_close(&self->s);

	SPE_SET_CONFIG4(&self->a, 0);
	ASSERT_OPEN(capture(&self->p, &self->a, 0, -1, WL_LDST, &self->e, &self->st, &self->s), &self->s);
	EXPECT_VALID(&self->st);
	EXPECT_GT(self->st.loop_loads, 10);
	EXPECT_EQ(self->st.loop_loads, self->st.loop_loads_ds);
	EXPECT_EQ(self->st.records, self->st.loads);
}

/* Data Source values other than those of the mask *arg are violations */
static void ds_hook(const struct spe_record *r, void *arg, struct spe_stats *st)
{
	uint64_t keep = *(uint64_t *)arg;

	if ((r->present & SPE_REC_DATA_SOURCE) &&
	    (r->data_source >= 64 || !(keep & (1ull << r->data_source))))
		spe_violation(st, "data source %#x recorded, the filter keeps %#llx",
			      r->data_source, (unsigned long long)keep);
}

/*
 * The filter selects by value: inv_data_src_filter = ~1 keeps source 0
 * only, 1 drops it. The workload's loop loads the same few lines again
 * and again, so its loads come from the nearest level, whose source
 * value is IMPLEMENTATION DEFINED: take it from an unfiltered capture
 * (the emulator uses the Neoverse encoding, L1D = 0).
 */
TEST_F(cap, data_source_filter_by_value)
{
	uint64_t keep, src = 64, i;
	struct spe_stats all;

	if (spe_env_long("SPE_EXP_FDS", 0) != 1 || spe_env_long("SPE_EXP_VERSION", 0) < 5 ||
	    spe_env_long("SPE_EXP_CONFIG4", 0) != 1)
		SKIP(return, "no FEAT_SPE_FDS or no attr.config4");
	self->a.config |= CFG_LOAD;
	ASSERT_OPEN(capture_hook(&self->p, &self->a, 0, -1, WL_LDST, &self->e, &all, &self->s,
				 NULL, NULL), &self->s);
	spe_session_close(&self->s);
	for (i = 0; i < 64; i++)
		if (all.loop_ds_n[i] && (src == 64 || all.loop_ds_n[i] > all.loop_ds_n[src]))
			src = i;
	ASSERT_LT(src, 64) TH_LOG("no load of the loop with a data source");
	TH_LOG("the loop's loads: %llu, %llu from source %#llx", (unsigned long long)all.loop_loads_ds,
	       (unsigned long long)all.loop_ds_n[src], (unsigned long long)src);

	keep = 1ull << src;
	SPE_SET_CONFIG4(&self->a, ~keep);
	ASSERT_OPEN(capture_hook(&self->p, &self->a, 0, -1, WL_LDST, &self->e, &self->st, &self->s,
				 ds_hook, &keep), &self->s);
	EXPECT_VALID(&self->st);
	EXPECT_GT(self->st.loop_loads_ds, 10);
	spe_session_close(&self->s);

	keep = ~(1ull << src);
	SPE_SET_CONFIG4(&self->a, ~keep);
	ASSERT_OPEN(capture_hook(&self->p, &self->a, 0, -1, WL_LDST, &self->e, &self->st, &self->s,
				 ds_hook, &keep), &self->s);
	EXPECT_VALID(&self->st);
	EXPECT_LT(self->st.loop_loads_ds * 10, all.loop_loads_ds)
		TH_LOG("%llu loop loads recorded after dropping the source of most of them",
		       (unsigned long long)self->st.loop_loads_ds);
}

TEST_HARNESS_MAIN
