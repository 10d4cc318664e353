// SPDX-License-Identifier: GPL-2.0
/* Helpers shared by the arm_spe selftests; see spe_lib.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "spe_lib.h"

extern char __executable_start[], etext[];

static long read_long_file(const char *path, int base, long dflt)
{
	char buf[64];
	FILE *f = fopen(path, "r");

	if (!f)
		return dflt;
	if (!fgets(buf, sizeof(buf), f)) {
		fclose(f);
		return dflt;
	}
	fclose(f);
	return strtol(buf, NULL, base);
}

const char *spe_sysfs_read(const struct spe_pmu_info *p, const char *rel)
{
	static char buf[512];
	char path[512];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", p->dir, rel);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = 0;
	return buf;
}

static long cap_long(const struct spe_pmu_info *p, const char *name, int base)
{
	char rel[128];
	const char *s;

	snprintf(rel, sizeof(rel), "caps/%s", name);
	s = spe_sysfs_read(p, rel);
	return s ? strtol(s, NULL, base) : -1;
}

int spe_pmu_find(struct spe_pmu_info *p)
{
	glob_t g;
	int ret;

	memset(p, 0, sizeof(*p));
	if (glob(SPE_SYSFS_DEVS "/arm_spe_*", 0, NULL, &g) || !g.gl_pathc)
		return -1;
	ret = spe_pmu_load(p, g.gl_pathv[0]);
	globfree(&g);
	return ret;
}

int spe_pmu_load(struct spe_pmu_info *p, const char *dir)
{
	const char *s;

	memset(p, 0, sizeof(*p));
	snprintf(p->dir, sizeof(p->dir), "%s", dir);
	s = spe_sysfs_read(p, "type");
	if (!s)
		return -1;
	p->type = atoi(s);
	p->min_interval = cap_long(p, "min_interval", 10);
	p->count_size = cap_long(p, "count_size", 10);
	p->align = cap_long(p, "align", 10);
	p->max_record_size = cap_long(p, "max_record_size", 10);
	p->pmsver = cap_long(p, "pmsver", 10);
	p->arch_inst = cap_long(p, "arch_inst", 10);
	p->ernd = cap_long(p, "ernd", 10);
	s = spe_sysfs_read(p, "caps/event_filter");
	p->event_filter = s ? strtoull(s, NULL, 16) : 0;
	return 0;
}

int spe_has_format(const struct spe_pmu_info *p, const char *name)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/format/%s", p->dir, name);
	return access(path, R_OK) == 0;
}

long long spe_counter(const struct spe_pmu_info *p, const char *name)
{
	char rel[128];
	const char *s;

	snprintf(rel, sizeof(rel), "counters/%s", name);
	s = spe_sysfs_read(p, rel);
	return s ? strtoll(s, NULL, 10) : -1;
}

long spe_env_long(const char *name, long dflt)
{
	const char *s = getenv(name);

	return (s && *s) ? strtol(s, NULL, 0) : dflt;
}

int spe_write_file(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, val, strlen(val));
	close(fd);
	return n == (ssize_t)strlen(val) ? 0 : -1;
}

void spe_attr_init(struct perf_event_attr *a, const struct spe_pmu_info *p,
		   uint64_t config, uint64_t period)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = p->type;
	a->config = config;
	a->sample_period = period;
	a->disabled = 1;
	a->exclude_kernel = 1;
	a->exclude_hv = 1;
}

int spe_perf_open(struct perf_event_attr *a, pid_t pid, int cpu)
{
	return syscall(SYS_perf_event_open, a, pid, cpu, -1, 0);
}

int spe_session_open(struct spe_session *s, struct perf_event_attr *a,
		     pid_t pid, int cpu, int data_pages, int aux_pages,
		     int snapshot)
{
	long pg = sysconf(_SC_PAGESIZE);
	int err;

	memset(s, 0, sizeof(*s));
	s->fd = -1;
	s->fd = spe_perf_open(a, pid, cpu);
	if (s->fd < 0)
		return -1;
	s->ring_size = (size_t)data_pages * pg;
	s->ring = mmap(NULL, s->ring_size + pg, PROT_READ | PROT_WRITE,
		       MAP_SHARED, s->fd, 0);
	if (s->ring == MAP_FAILED) {
		s->ring = NULL;
		goto fail;
	}
	s->pg = s->ring;
	if (aux_pages) {
		s->aux_size = (size_t)aux_pages * pg;
		s->pg->aux_offset = s->ring_size + pg;
		s->pg->aux_size = s->aux_size;
		s->snapshot = snapshot;
		s->aux = mmap(NULL, s->aux_size,
			      snapshot ? PROT_READ : PROT_READ | PROT_WRITE,
			      MAP_SHARED, s->fd, s->pg->aux_offset);
		if (s->aux == MAP_FAILED) {
			s->aux = NULL;
			goto fail;
		}
	}
	return 0;
fail:
	err = errno;
	spe_session_close(s);
	errno = err;
	return -1;
}

void spe_session_close(struct spe_session *s)
{
	long pg = sysconf(_SC_PAGESIZE);

	if (s->aux)
		munmap(s->aux, s->aux_size);
	if (s->ring)
		munmap(s->ring, s->ring_size + pg);
	if (s->fd >= 0)
		close(s->fd);
	free(s->data);
	memset(s, 0, sizeof(*s));
	s->fd = -1;
}

int spe_enable(struct spe_session *s)
{
	return ioctl(s->fd, PERF_EVENT_IOC_ENABLE, 0);
}

int spe_disable(struct spe_session *s)
{
	return ioctl(s->fd, PERF_EVENT_IOC_DISABLE, 0);
}

static void append(struct spe_session *s, const uint8_t *p, size_t n)
{
	if (s->len + n > s->cap) {
		size_t cap = s->cap ? s->cap : 65536;

		while (cap < s->len + n)
			cap *= 2;
		s->data = realloc(s->data, cap);
		if (!s->data)
			abort();
		s->cap = cap;
	}
	memcpy(s->data + s->len, p, n);
	s->len += n;
}

static void read_ring(struct spe_session *s)
{
	uint64_t head = __atomic_load_n(&s->pg->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = s->pg->data_tail;
	const uint8_t *base = (const uint8_t *)s->ring + sysconf(_SC_PAGESIZE);
	uint8_t rec[512];

	while (tail < head) {
		struct perf_event_header h;
		size_t off = tail % s->ring_size, i;

		for (i = 0; i < sizeof(h); i++)
			((uint8_t *)&h)[i] = base[(off + i) % s->ring_size];
		if (h.size < sizeof(h))
			break;
		for (i = 0; i < h.size && i < sizeof(rec); i++)
			rec[i] = base[(off + i) % s->ring_size];
		if (h.type == PERF_RECORD_AUX) {
			const uint64_t *v = (const uint64_t *)(rec + sizeof(h));
			uint64_t aoff = v[0], asz = v[1], fl = v[2];

			s->n_aux_recs++;
			s->aux_flags_or |= fl;
			s->aux_flags_last = fl;
			if (fl & PERF_AUX_FLAG_TRUNCATED)
				s->n_truncated++;
			if (fl & PERF_AUX_FLAG_PARTIAL) {
				s->n_partial++;
				s->partial_bytes += asz;
				s->partial_off = aoff;
			}
			if (fl & PERF_AUX_FLAG_COLLISION)
				s->n_collision++;
			s->aux_rec_bytes += asz;
			if (!s->snapshot && asz) {
				if (aoff < s->aux_rec_next)
					s->aux_rec_bad = 1;
				s->aux_rec_next = aoff + asz;
			}
		} else if (h.type == PERF_RECORD_LOST) {
			s->n_lost++;
		}
		tail += h.size;
	}
	__atomic_store_n(&s->pg->data_tail, tail, __ATOMIC_RELEASE);
}

int spe_session_collect(struct spe_session *s)
{
	return spe_session_collect_to(s, UINT64_MAX);
}

int spe_session_collect_to(struct spe_session *s, uint64_t to)
{
	uint64_t head;

	read_ring(s);
	if (!s->aux || s->snapshot)
		return 0;
	head = __atomic_load_n(&s->pg->aux_head, __ATOMIC_ACQUIRE);
	if (head - s->read_idx > s->aux_size)
		return -1;	/* overwritten unread data */
	if (head > to)
		head = to;
	if (!s->len)
		s->first_idx = s->read_idx;
	while (s->read_idx < head) {
		size_t off = s->read_idx % s->aux_size;
		size_t n = head - s->read_idx;

		if (n > s->aux_size - off)
			n = s->aux_size - off;
		append(s, s->aux + off, n);
		s->read_idx += n;
	}
	__atomic_store_n(&s->pg->aux_tail, head, __ATOMIC_RELEASE);
	return 0;
}

/* ---------------------------------------------------------------- */

void spe_insn_simdfp(uint32_t w, int *ase, int *fp)
{
	unsigned int op0 = (w >> 25) & 0xf;

	*ase = *fp = 0;
	if ((op0 & 7) != 7)
		return;
	if (!(w & (1u << 28))) {
		/* 0 Q U 0 1 1 1 x: Advanced SIMD vector (C4.1.96) */
		if (w & (1u << 31))
			return;
		*ase = 1;
		/* three same: bit 21 and bit 10 set; opcode [15:11] 11xxx is FP */
		if (((w >> 24) & 1) == 0 && (w & (1u << 21)) && (w & (1u << 10)) &&
		    ((w >> 11) & 0x1f) >= 0x18)
			*fp = 1;
		return;
	}
	if (w & (1u << 30))
		*ase = 1;	/* 0 1 U 1 1 1 1 x: Advanced SIMD scalar */
	else
		*fp = 1;	/* x 0 x 1 1 1 1 x: scalar floating-point */
}

/*
 * The target of a direct branch (B, BL, B.cond, BC.cond, CBZ/CBNZ,
 * TBZ/TBNZ: Arm ARM C4.1.65, immediate offsets) at @pc; 0 for anything
 * else (indirect branches, not branches).
 */
static int a64_direct_target(uint32_t w, uint64_t pc, uint64_t *t)
{
	int64_t off;

	if ((w & 0x7c000000) == 0x14000000)		/* B, BL: imm26 */
		off = (int64_t)((uint64_t)(w & 0x03ffffff) << 38) >> 36;
	else if ((w & 0xff000000) == 0x54000000 ||	/* B.cond, BC.cond: imm19 */
		 (w & 0x7e000000) == 0x34000000)	/* CBZ, CBNZ: imm19 */
		off = (int64_t)((uint64_t)((w >> 5) & 0x7ffff) << 45) >> 43;
	else if ((w & 0x7e000000) == 0x36000000)	/* TBZ, TBNZ: imm14 */
		off = (int64_t)((uint64_t)((w >> 5) & 0x3fff) << 50) >> 48;
	else
		return 0;
	*t = pc + (uint64_t)off;
	return 1;
}

/*
 * The physical address of @va from /proc/self/pagemap (PFN, bits [54:0],
 * readable with CAP_SYS_ADMIN); 0 when it cannot be known. A few pages
 * cached: the workload buffers are small.
 */
static uint64_t pagemap_pa(uint64_t va)
{
	static struct { uint64_t vpage, ppage; } cache[16];
	static int fd = -2;
	uint64_t vpage = va >> 12, ent;
	unsigned int slot = vpage % 16;

	if (cache[slot].vpage == vpage && cache[slot].ppage)
		return cache[slot].ppage << 12 | (va & 0xfff);
	if (fd == -2)
		fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	if (fd < 0 || pread(fd, &ent, sizeof(ent), (off_t)(vpage * 8)) != sizeof(ent) ||
	    !(ent >> 63) || !(ent & ((1ull << 55) - 1)))
		return 0;
	cache[slot].vpage = vpage;
	cache[slot].ppage = ent & ((1ull << 55) - 1);
	return cache[slot].ppage << 12 | (va & 0xfff);
}

int spe_insn_classify(uint32_t w)
{
	if ((w & 0x7c000000) == 0x14000000 ||	/* B, BL */
	    (w & 0x7e000000) == 0x34000000 ||	/* CBZ, CBNZ */
	    (w & 0x7e000000) == 0x36000000 ||	/* TBZ, TBNZ */
	    (w & 0xff000000) == 0x54000000 ||	/* B.cond, BC.cond */
	    (w & 0xfe000000) == 0xd6000000)	/* BR, BLR, RET, ERET... */
		return INSN_BRANCH;
	if ((w & 0xff000000) == 0xd4000000)	/* SVC, HVC, SMC, BRK... */
		return INSN_EXCEPTION;
	/*
	 * SVE memory (op0 0010, bits [31:29] 1xx): a load/store of the SVE
	 * subclass from FEAT_SPEv1p1, SIMD&FP "other" before it; prefetches
	 * are other (Arm ARM D18.2.7).
	 */
	if ((w & 0x1e000000) == 0x04000000 && (w >> 31))
		return INSN_LDST;
	/*
	 * SME memory (bits [31:25] 0b1110000): LD1 and ST1 of ZA tile slices,
	 * LDR/STR of ZA and ZT0, bit [21] set for the stores; the SVE or SME
	 * load/store subclass (D18.2.7).
	 */
	if ((w & 0xfe000000) == 0xe0000000)
		return (w & (1u << 21)) ? INSN_STORE : INSN_LOAD;
	if ((w & 0x0a000000) != 0x08000000)	/* op0 != x1x0 */
		return INSN_OTHER;
	/* Load/store register: unsigned offset, unscaled, pre/post, reg. */
	if ((w & 0x3b000000) == 0x39000000 || (w & 0x3b200000) == 0x38000000 ||
	    (w & 0x3b200c00) == 0x38200800) {
		unsigned int size = w >> 30, opc = (w >> 22) & 3, v = (w >> 26) & 1;

		if (!v && size == 3 && opc == 2)
			return INSN_LDST;		/* PRFM */
		if (v)
			return (opc & 1) ? INSN_LOAD : INSN_STORE;
		return opc == 0 ? INSN_STORE : INSN_LOAD;
	}
	/* Load/store pair (not no-allocate variants' L bit differs? no). */
	if ((w & 0x3a000000) == 0x28000000)
		return (w & (1u << 22)) ? INSN_LOAD : INSN_STORE;
	return INSN_LDST;
}

void spe_violation(struct spe_stats *st, const char *fmt, ...)
{
	va_list ap;

	if (!st->violations++) {
		va_start(ap, fmt);
		vsnprintf(st->first, sizeof(st->first), fmt, ap);
		va_end(ap);
	}
}

void spe_expect_default(struct spe_expect *e, const struct spe_pmu_info *p)
{
	memset(e, 0, sizeof(*e));
	e->ctx = -1;
	e->align = p->align > 0 ? p->align : 1;
	e->max_record_size = p->max_record_size > 0 ? p->max_record_size : 2048;
	e->count_size = p->count_size;
	e->kernel_el = (unsigned int)spe_env_long("SPE_EXP_KERNEL_EL", 0);
	e->ctx_idx = e->kernel_el == 2;
}

static int in(uint64_t a, const void *lo, const void *hi)
{
	return a >= (uint64_t)(uintptr_t)lo && a < (uint64_t)(uintptr_t)hi;
}

static void check_record(const struct spe_record *r, const struct spe_expect *e,
			 struct spe_stats *st, uint64_t *last_ts)
{
	uint64_t pc, va;
	unsigned int el;
	struct spe_op op;

	st->records++;
	if (r->size > e->max_record_size)
		spe_violation(st, "record at %#llx is %u bytes > max_record_size %ld",
			      (unsigned long long)r->offset, r->size, e->max_record_size);
	if ((r->offset + e->first_idx_align) % e->align)
		spe_violation(st, "record at %#llx not aligned to %ld",
			      (unsigned long long)r->offset, e->align);
	if (!(r->present & SPE_REC_PC)) {
		spe_violation(st, "record at %#llx has no PC", (unsigned long long)r->offset);
		return;
	}
	if (!(r->present & SPE_REC_OP))
		spe_violation(st, "record at %#llx has no Operation Type",
			      (unsigned long long)r->offset);
	if (r->present & SPE_REC_DUP)
		spe_violation(st, "record at %#llx repeats a packet", (unsigned long long)r->offset);
	pc = spe_addr_va_sext(r->addr[SPE_ADDR_IDX_PC]);
	el = SPE_ADDR_EL(r->addr[SPE_ADDR_IDX_PC]);
	if (el == 0) {
		st->el0++;
		if (e->el_kernel_only)
			spe_violation(st, "EL0 record (pc %#llx) with exclude_user",
				      (unsigned long long)pc);
		if (pc >> 48)
			spe_violation(st, "EL0 record with a kernel PC %#llx",
				      (unsigned long long)pc);
	} else {
		st->el_kernel++;
		if (e->el_user_only)
			spe_violation(st, "EL%u record (pc %#llx) with exclude_kernel",
				      el, (unsigned long long)pc);
		if (e->kernel_el && el != e->kernel_el)
			spe_violation(st, "EL%u record (pc %#llx), the kernel runs at EL%u",
				      el, (unsigned long long)pc, e->kernel_el);
		if ((pc >> 48) != 0xffff)
			spe_violation(st, "EL%u record with a user PC %#llx", el,
				      (unsigned long long)pc);
	}
	if (r->present & SPE_REC_TIMESTAMP) {
		st->with_ts++;
		if (!e->ts)
			spe_violation(st, "Timestamp without ts_enable");
		if (r->timestamp < *last_ts)
			spe_violation(st, "timestamp goes back: %#llx after %#llx",
				      (unsigned long long)r->timestamp,
				      (unsigned long long)*last_ts);
		*last_ts = r->timestamp;
		if (!st->min_ts || r->timestamp < st->min_ts)
			st->min_ts = r->timestamp;
		if (r->timestamp > st->max_ts)
			st->max_ts = r->timestamp;
	} else if (e->ts) {
		spe_violation(st, "record at %#llx has no Timestamp with ts_enable",
			      (unsigned long long)r->offset);
	}
	if (r->present & (SPE_REC_CTX(0) | SPE_REC_CTX(1)))
		st->with_ctx++;
	if (r->present & SPE_REC_DATA_SOURCE)
		st->with_ds++;
	for (unsigned int i = 0; i < SPE_REC_NCNT; i++)
		if ((r->present & SPE_REC_CNT(i)) && e->count_size == 12 &&
		    r->counter[i] > SPE_CNT_MASK12)
			spe_violation(st, "counter %u = %#x exceeds 12 bits (CountSize 12)",
				      i, r->counter[i]);
	if (r->present & SPE_REC_DATA_PA)
		st->with_pa++;
	if (r->present & SPE_REC_CNT(SPE_CNT_IDX_TOTAL) && r->counter[0] > st->max_lat)
		st->max_lat = r->counter[0];

	spe_op_decode(r->op_class, r->op_subclass, &op);
	if (op.kind == SPE_OP_BRANCH)
		st->branches++;
	else if (op.is_ldst && op.store)
		st->stores++;
	else if (op.is_ldst)
		st->loads++;
	else
		st->others++;
	if (r->present & SPE_REC_EVENTS) {
		/*
		 * D18.2 Events packet: the cache, TLB, remote and misalignment
		 * events are defined for loads/stores only, Mispredicted for
		 * branches, Not taken for conditional operations.
		 */
		const uint64_t ldst_only = SPE_EV_BIT(SPE_EV_L1D_ACCESS) |
			SPE_EV_BIT(SPE_EV_L1D_REFILL) | SPE_EV_BIT(SPE_EV_TLB_ACCESS) |
			SPE_EV_BIT(SPE_EV_TLB_WALK) | SPE_EV_BIT(SPE_EV_LLC_ACCESS) |
			SPE_EV_BIT(SPE_EV_LLC_MISS) | SPE_EV_BIT(SPE_EV_REMOTE_ACCESS) |
			SPE_EV_BIT(SPE_EV_MISALIGNED);

		if ((r->events & ldst_only) && !op.is_ldst)
			spe_violation(st, "record at %#llx: load/store events %#llx on a %s",
				      (unsigned long long)r->offset,
				      (unsigned long long)(r->events & ldst_only),
				      spe_op_kind_name(op.kind));
		if ((r->events & SPE_EV_BIT(SPE_EV_MISPRED)) && op.kind != SPE_OP_BRANCH)
			spe_violation(st, "record at %#llx: Mispredicted on a %s",
				      (unsigned long long)r->offset, spe_op_kind_name(op.kind));
		if ((r->events & SPE_EV_BIT(SPE_EV_NOT_TAKEN)) && !op.cond)
			spe_violation(st, "record at %#llx: Not taken on an unconditional %s",
				      (unsigned long long)r->offset, spe_op_kind_name(op.kind));
		if (r->events & SPE_EV_BIT(SPE_EV_NOT_TAKEN))
			st->ev_not_taken++;
		if (r->events & SPE_EV_BIT(SPE_EV_MISALIGNED))
			st->ev_misaligned++;
		if (r->events & SPE_EV_BIT(SPE_EV_RETIRED))
			st->ev_retired++;
	}

	if (el != 0 || !in(pc, __executable_start, etext))
		return;
	if (e->other_tasks && (r->present & SPE_REC_CTX(e->ctx_idx)) &&
	    r->context[e->ctx_idx] != (uint32_t)e->ctx_pid)
		return;
	st->in_own_text++;
	if (e->ctx == 1) {
		if (!(r->present & SPE_REC_CTX(e->ctx_idx)))
			spe_violation(st, "no Context packet (index %u) for pc %#llx",
				      e->ctx_idx, (unsigned long long)pc);
		else if (r->context[e->ctx_idx] != (uint32_t)e->ctx_pid)
			spe_violation(st, "Context %u, expected pid %d",
				      r->context[e->ctx_idx], (int)e->ctx_pid);
	} else if (e->ctx == 0 && (r->present & (SPE_REC_CTX(0) | SPE_REC_CTX(1)))) {
		spe_violation(st, "Context packet (%u) present but not allowed",
			      r->context[(r->present & SPE_REC_CTX(0)) ? 0 : 1]);
	}
	/* The Operation Type must match the instruction at the PC. */
	{
		uint32_t w = *(const uint32_t *)(uintptr_t)pc;
		int k = spe_insn_classify(w);
		int ok;

		switch (k) {
		case INSN_BRANCH:
			ok = op.kind == SPE_OP_BRANCH;
			break;
		case INSN_LOAD:
			ok = op.is_ldst && !op.store;
			break;
		case INSN_STORE:
			ok = op.is_ldst && op.store;
			break;
		case INSN_LDST:	/* PRFM, SVE, MTE: other is allowed too */
			ok = op.kind != SPE_OP_BRANCH;
			break;
		default:
			ok = !op.is_ldst && op.kind != SPE_OP_BRANCH;
		}
		if (!ok)
			spe_violation(st, "pc %#llx insn %08x (kind %d) has op class %u subclass %#x",
				      (unsigned long long)pc, w, k, r->op_class, r->op_subclass);
		if ((k == INSN_LOAD || k == INSN_STORE) && !(r->present & SPE_REC_DATA_VA))
			spe_violation(st, "load/store at pc %#llx without data VA",
				      (unsigned long long)pc);
		/* A taken direct branch goes where its encoding says, at EL0 */
		if (k == INSN_BRANCH && (r->present & SPE_REC_ADDR(SPE_ADDR_IDX_BR_TGT)) &&
		    !((r->present & SPE_REC_EVENTS) &&
		      (r->events & SPE_EV_BIT(SPE_EV_NOT_TAKEN)))) {
			uint64_t tp = r->addr[SPE_ADDR_IDX_BR_TGT], want;

			if (a64_direct_target(w, pc, &want) &&
			    (spe_addr_va_sext(tp) != want || SPE_ADDR_EL(tp) != 0))
				spe_violation(st, "branch at pc %#llx insn %08x: target %#llx EL%u, the encoding says %#llx EL0",
					      (unsigned long long)pc, w,
					      (unsigned long long)spe_addr_va_sext(tp),
					      SPE_ADDR_EL(tp), (unsigned long long)want);
		}
	}
	va = spe_addr_va_sext(r->addr[SPE_ADDR_IDX_DATA_VA]) & 0x00ffffffffffffffull;
	/* The physical address is the one the kernel maps the buffer to */
	if ((r->present & SPE_REC_DATA_PA) && (r->present & SPE_REC_DATA_VA) && e->buf &&
	    in(va, e->buf, (const char *)e->buf + e->buf_len)) {
		uint64_t want = pagemap_pa(va);
		uint64_t pa = SPE_ADDR_ADDR(r->addr[SPE_ADDR_IDX_DATA_PA]);

		if (want && pa != want)
			spe_violation(st, "PA %#llx for VA %#llx, /proc/self/pagemap says %#llx",
				      (unsigned long long)pa, (unsigned long long)va,
				      (unsigned long long)want);
	}
	if (in(pc, (const void *)spe_wl_ldst, spe_wl_ldst_end)) {
		st->in_ldst++;
		if (in(pc, spe_wl_ldst_loop, spe_wl_ldst_end)) {
			st->in_ldst_loop++;
			if (op.is_ldst) {
				st->loop_mem++;
				if (r->present & SPE_REC_DATA_PA)
					st->loop_mem_pa++;
				if (!op.store) {
					st->loop_loads++;
					if (r->present & SPE_REC_DATA_SOURCE) {
						st->loop_loads_ds++;
						if (r->data_source < 64)
							st->loop_ds_n[r->data_source]++;
					}
				}
			}
		}
		if (op.is_ldst && e->buf &&
		    (!(r->present & SPE_REC_DATA_VA) ||
		     !in(va, e->buf, (const char *)e->buf + e->buf_len)))
			spe_violation(st, "ldst workload access %#llx outside buffer %p+%zu",
				      (unsigned long long)va, e->buf, e->buf_len);
	} else if (in(pc, (const void *)spe_wl_branch, spe_wl_branch_end)) {
		st->in_branch++;
		if (op.is_ldst && pc >= (uint64_t)(uintptr_t)spe_wl_branch + 8 &&
		    pc + 8 < (uint64_t)(uintptr_t)spe_wl_branch_end)
			spe_violation(st, "branch loop pc %#llx reported as load/store",
				      (unsigned long long)pc);
	} else if (in(pc, (const void *)spe_wl_misalign, spe_wl_misalign_end)) {
		st->in_misalign++;
		if (op.is_ldst && e->buf && va != (uint64_t)(uintptr_t)e->buf + 1)
			spe_violation(st, "misaligned load at %#llx, expected %p+1",
				      (unsigned long long)va, e->buf);
	}
}

unsigned int spe_session_validate(const struct spe_session *s, struct spe_expect *e,
				  struct spe_stats *st, spe_rec_hook hook, void *arg)
{
	e->first_idx_align = s->first_idx;
	return spe_validate(s->data, s->len, e, st, hook, arg);
}

unsigned int spe_validate(const uint8_t *data, size_t len,
			  const struct spe_expect *e, struct spe_stats *st,
			  spe_rec_hook hook, void *arg)
{
	struct spe_decoder d;
	struct spe_record r;
	uint64_t pos = 0, last_ts = 0, i;
	int ret;

	memset(st, 0, sizeof(*st));
	st->bytes = len;
	spe_decoder_init(&d, data, len, 0);
	for (;;) {
		ret = spe_decoder_next(&d, &r);
		if (ret == 0)
			break;
		if (ret < 0) {
			spe_violation(st, "decode error %s at %#llx (of %zu bytes)",
				      spe_strerror(-ret), (unsigned long long)d.err.offset, len);
			continue;
		}
		/* Every byte between records must be Padding. */
		for (i = pos; i < r.offset; i++)
			if (data[i]) {
				spe_violation(st, "byte %#llx (%#x) between records is not padding",
					      (unsigned long long)i, data[i]);
				break;
			}
		st->pad_bytes += r.offset - pos;
		pos = r.offset + r.size;
		st->last_end = pos;
		check_record(&r, e, st, &last_ts);
		if (hook)
			hook(&r, arg, st);
	}
	for (i = pos; i < len; i++)
		if (data[i]) {
			spe_violation(st, "trailing byte %#llx (%#x) is not padding",
				      (unsigned long long)i, data[i]);
			break;
		}
	st->pad_bytes += len - (pos < len ? pos : len);
	if (d.stats.errors || d.stats.skipped_bytes)
		spe_violation(st, "decoder: %llu errors, %llu bytes skipped",
			      (unsigned long long)d.stats.errors,
			      (unsigned long long)d.stats.skipped_bytes);
	return st->violations;
}

uint64_t spe_effective_period(const struct spe_pmu_info *p, uint64_t period)
{
	/*
	 * 4.3.12: INTERVAL is bits [31:8], so 256 is the smallest period;
	 * PMSIDR_EL1.Interval (caps/min_interval) is only the minimum
	 * software "should" use (4.3.11). Mainline clamps at 256.
	 */
	(void)p;
	if (period < 256)
		return 256;
	if (period > 0xffffff00ull)
		return 0xffffff00ull;
	return period & ~0xffull;
}

uint64_t spe_exp_event_filter(long pmsver, int fe, int sme)
{
	/* v1: E[63:48], E[31:24], E[15:12], E[7], E[5], E[3], E[1] */
	uint64_t m = 0xffff0000ff00f0aaull;

	if (!fe)
		return 0;
	if (pmsver >= 2)	/* v1p1: E[11] misaligned, E[18:17] SVE */
		m |= (1ull << 11) | (1ull << 17) | (1ull << 18);
	if (pmsver >= 3)	/* v1p2: E[6] not taken */
		m |= 1ull << 6;
	if (pmsver >= 5) {
		/*
		 * v1p4: E[2], E[4], E[10:8], E[23:19] (cache and TLB
		 * events); E[31:26] are RES0, E[25:24] need FEAT_SPE_SME.
		 */
		m |= 0x00f80714ull;
		m &= ~0xff000000ull;
		if (sme)	/* FEAT_SPE_SME: E[24] Streaming SVE, E[25] SMCU */
			m |= 3ull << 24;
	}
	return m;
}

int spe_pin_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

int spe_cpu_online(int cpu)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
	return (int)read_long_file(path, 10, 1);
}

int spe_set_cpu_online(int cpu, int online)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
	return spe_write_file(path, online ? "1" : "0");
}
