// SPDX-License-Identifier: GPL-2.0
/*
 * spe_stress: reliability tests for arm_spe_perf (see
 * Documentation/reliability.rst). One static binary, one mode per run:
 *
 *   spe_stress fuzz [-s SEED] [-n EVENTS]   perf_event_attr / mmap / ioctl fuzzer
 *   spe_stress ioc_period                   PERF_EVENT_IOC_PERIOD is clamped
 *   spe_stress workers [-n ITERS] [-H]      one open/mmap/enable/close loop per
 *                                           CPU (-H: hotplug CPUs meanwhile)
 *   spe_stress rmmod KO                     unload refused while events exist
 *   spe_stress auxmem                       AUX allocation failures
 *   spe_stress fault KIND N [-s SEED]       injected buffer fault accounting
 *
 * Output is TAP; exit 0 all passed, 1 a failure, 4 skipped (kselftest).
 * Every random choice comes from one seeded generator; the seed is
 * printed so that a failing run can be replayed with -s.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/perf_event.h>

#include "spe_lib.h"

/* ---------------------------------------------------------------- TAP */

static int t_num, t_fail;

static void __attribute__((format(printf, 2, 3))) tap(int ok, const char *fmt, ...)
{
	va_list ap;

	printf("%s %d - ", ok ? "ok" : "not ok", ++t_num);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	if (!ok)
		t_fail++;
}

static int finish(void)
{
	printf("# %d tests, %d failed\n", t_num, t_fail);
	return t_fail ? 1 : 0;
}

static void skip_all(const char *why)
{
	printf("ok 1 - %s # SKIP %s\n", "all", why);
	exit(4);
}

/* ---------------------------------------------------------------- rng */

static uint64_t rng_state;

static uint64_t rnd(void)
{
	uint64_t x = rng_state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	rng_state = x;
	return x * 0x2545f4914f6cdd1dULL;
}

static uint64_t rn(uint64_t n)
{
	return n ? rnd() % n : 0;
}

static void seed_rng(uint64_t s)
{
	rng_state = s ? s : 0x9e3779b97f4a7c15ULL;
}

static uint64_t pick_seed(const char *arg)
{
	struct timespec ts;

	if (arg)
		return strtoull(arg, NULL, 0);
	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000003ULL ^ (uint64_t)ts.tv_nsec ^ getpid();
}

/* ---------------------------------------------------------------- common */

static struct spe_pmu_info P;
static long pagesz;
static int ncpus;
static uint64_t wl_buf[4096];

static void need_pmu(void)
{
	if (spe_pmu_find(&P))
		skip_all("no arm_spe_N PMU (module not loaded?)");
	pagesz = sysconf(_SC_PAGESIZE);
	ncpus = (int)sysconf(_SC_NPROCESSORS_CONF);
}

static void workload(uint64_t iters)
{
	spe_wl_ldst(wl_buf, 4095, iters);
}

static int sys_perf_open(void *attr, pid_t pid, int cpu, int group, unsigned long fl)
{
	return (int)syscall(SYS_perf_event_open, attr, pid, cpu, group, fl);
}

static const char *en(int e)
{
	static char b[32];

	switch (e) {
	case 0: return "0";
#define C(x) case x: return #x
	C(EINVAL); C(EOPNOTSUPP); C(E2BIG); C(EACCES); C(EPERM); C(EBUSY);
	C(ENODEV); C(ENOENT); C(ENOMEM); C(ESRCH); C(EMFILE); C(EFAULT);
	C(ENOTTY); C(EBADF); C(EAGAIN); C(ENOSPC); C(EEXIST); C(EIO);
#undef C
	}
	snprintf(b, sizeof(b), "errno%d", e);
	return b;
}

/* Raw attr layout (offsets from include/uapi/linux/perf_event.h). */
#define OFF_CONFIG3	128	/* PERF_ATTR_SIZE_VER8 */
#define OFF_CONFIG4	136	/* PERF_ATTR_SIZE_VER9 */

/* The kernel's sizeof(struct perf_event_attr): on E2BIG perf_copy_attr()
 * writes it back into attr->size. */
static unsigned int kernel_attr_size(void)
{
	static uint64_t raw[1024];
	struct perf_event_attr *a = (void *)raw;
	int fd;

	memset(raw, 0, sizeof(raw));
	a->type = P.type;
	a->size = 4097;
	a->exclude_kernel = a->exclude_hv = 1;
	fd = sys_perf_open(a, 0, -1, -1, 0);
	if (fd >= 0) {
		close(fd);
		return 0;
	}
	return errno == E2BIG ? a->size : 0;
}

/* ---------------------------------------------------------------- fuzz */

/*
 * Errnos perf_event_open() may return for an SPE event, and why:
 *  EINVAL     perf core attr/flags checks; driver: freq, exclude_user and
 *             exclude_kernel both, unknown config/config2 bits (driver.rst)
 *  EOPNOTSUPP driver: exclude_idle, branch stack, a field the hardware
 *             lacks, RES0 filter bits, VHE exclude_kernel != exclude_hv
 *  E2BIG      perf_copy_attr(): size < VER0, > PAGE_SIZE, nonzero tail
 *  EACCES     perf_allow_kernel()/paranoid (pa_enable, pct_enable, kernel)
 *  EPERM      perf core capability checks (e.g. sigtrap/namespaces paths)
 *  EBUSY      PERF_PMU_CAP_EXCLUSIVE: a conflicting SPE event exists
 *  ENODEV     the CPU is offline
 *  ESRCH      no such pid
 *  ENOMEM     allocation failure
 *  EBADF      group_fd / cgroup fd in the random flags
 * Not allowed: ENOENT (every CPU is in cpumask here), EFAULT, EIO, ENOSPC,
 * ENOTTY, EAGAIN or anything else.
 */
static int open_errno_ok(int e)
{
	switch (e) {
	case EINVAL: case EOPNOTSUPP: case E2BIG: case EACCES: case EPERM:
	case EBUSY: case ENODEV: case ESRCH: case ENOMEM: case EBADF:
		return 1;
	}
	return 0;
}

struct fev {
	int fd;			/* -1 once closed */
	int live;		/* the event exists (fd open or mapped) */
	int per_task, cpu;
	int inherit;
	void *ring;
	size_t ring_len;
	void *aux;
	size_t aux_len;
	int snapshot;
	uint64_t read_idx;
	uint64_t rec_end;	/* end of the last PERF_RECORD_AUX range */
	uint64_t attr_period;
};

#define NEV 6
static struct fev evs[NEV];

static struct {
	unsigned long events, opens, open_ok, open_fail, mmaps, ioctls,
		      workloads, closes, forks, bytes, aux_recs, truncated;
	unsigned long by_class[32], by_errno[140];
	unsigned int fails;
	char first_fail[512];
} fz;

static void __attribute__((format(printf, 1, 2))) fz_fail(const char *fmt, ...)
{
	va_list ap;
	char b[512];

	va_start(ap, fmt);
	vsnprintf(b, sizeof(b), fmt, ap);
	va_end(ap);
	if (fz.fails++ < 20)
		printf("# FAIL (event %lu): %s\n", fz.events, b);
	if (!fz.first_fail[0])
		snprintf(fz.first_fail, sizeof(fz.first_fail), "%s", b);
}

static int fev_live_conflicts(int per_task, int cpu)
{
	int i;

	for (i = 0; i < NEV; i++) {
		struct fev *e = &evs[i];

		if (!e->live)
			continue;
		if (e->per_task != per_task)
			return 1;	/* pmu->exclusive_cnt has the other sign */
		/* exclusive_event_match(): same context, same or any CPU */
		if (e->cpu == cpu || e->cpu == -1 || cpu == -1)
			return 1;
	}
	return 0;
}

static void fev_unmap(struct fev *e)
{
	if (e->aux)
		munmap(e->aux, e->aux_len);
	if (e->ring)
		munmap(e->ring, e->ring_len);
	e->aux = e->ring = NULL;
}

static void fev_release(struct fev *e)
{
	if (e->fd >= 0)
		close(e->fd);
	fev_unmap(e);
	memset(e, 0, sizeof(*e));
	e->fd = -1;
}

/* Known config bits and the format/ file naming each. */
static const struct { int bit; const char *fmt; } cfg_bits[] = {
	{ 0, "ts_enable" }, { 1, "pa_enable" }, { 2, "pct_enable" },
	{ 16, "jitter" }, { 32, "branch_filter" }, { 33, "load_filter" },
	{ 34, "store_filter" }, { 35, "discard" }, { 36, "branch_filter_mask" },
	{ 37, "load_filter_mask" }, { 38, "store_filter_mask" },
	{ 39, "simd_filter" }, { 40, "simd_filter_mask" },
	{ 41, "float_filter" }, { 42, "float_filter_mask" },
};
#define NCFG (sizeof(cfg_bits) / sizeof(cfg_bits[0]))
static uint64_t cfg_known, cfg_present;
static int has_fe, has_fl, has_fne, has_fds;
static unsigned int ksz;

enum fclass {
	C_VALID, C_CHAOS, F_FREQ, F_EXCL_BOTH, F_CFG_UNKNOWN, F_CFG2_HIGH,
	F_EXCL_IDLE, F_FMT_ABSENT, F_EVF_RES0, F_CFG3_RES0, F_CFG4,
	F_SIZE_SMALL, F_SIZE_TAIL, F_SIZE_HUGE, F_PERIOD63, F_BRANCH,
	F_CPU_BAD, F_FLAGS, F_RESERVED2, F_PID, NCLASS
};
static const char *cname[] = {
	"valid", "chaos", "freq", "exclude_user+kernel", "config_unknown",
	"config2_high", "exclude_idle", "format_absent", "event_filter_res0",
	"config3_res0", "config4_absent", "size_small", "size_tail", "size_huge",
	"period_bit63", "branch_stack", "cpu_bad", "open_flags", "reserved_2",
	"no_such_pid",
};

static uint64_t rnd_valid_config(void)
{
	uint64_t c = 0;
	unsigned int i;

	for (i = 0; i < NCFG; i++)
		if ((cfg_present >> cfg_bits[i].bit & 1) && rn(3) == 0)
			c |= 1ULL << cfg_bits[i].bit;
	return c;
}

static uint64_t rnd_period(void)
{
	switch (rn(10)) {
	case 0: return rn(2);
	case 1: case 2: case 3: return P.min_interval + rn(256);
	case 4: return 0xffffff00ULL + rn(0x100);
	case 5: return rnd() >> 1;	/* any, bit 63 clear */
	default: return 256 + rn(4096);
	}
}

/*
 * Build an attr of class @cls into raw (storage of 4096+ bytes). Returns
 * the errno the open must fail with (0: must succeed or EBUSY; -1: any
 * of the allowed set). pid/cpu/flags are chosen too.
 */
static int build_attr(uint64_t *raw, int cls, pid_t *pid, int *cpu, unsigned long *flags)
{
	struct perf_event_attr *a = (void *)raw;
	unsigned int i, n;

	memset(raw, 0, 4096 + 64);
	a->type = P.type;
	a->size = ksz;
	a->config = rnd_valid_config();
	a->sample_period = rnd_period();
	a->exclude_user = 0;
	a->exclude_kernel = rn(2);
	a->exclude_hv = a->exclude_kernel;
	if (!a->exclude_kernel && rn(2))
		a->exclude_user = 1;
	a->disabled = rn(4) != 0;
	a->inherit = rn(3) == 0;
	a->pinned = rn(5) == 0;
	a->enable_on_exec = rn(8) == 0;
	a->exclude_host = rn(4) == 0;
	a->exclude_guest = rn(4) == 0;
	a->comm = rn(2);
	a->mmap = rn(2);
	a->task = rn(2);
	a->sample_id_all = rn(2);
	a->write_backward = rn(8) == 0;
	a->context_switch = rn(6) == 0;
	a->watermark = rn(3) == 0;
	a->wakeup_events = (uint32_t)rn(64);
	a->aux_watermark = (uint32_t)(rn(3) ? 0 : rn(1 << 20));
	a->sample_type = rnd() & (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
				  PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_IDENTIFIER);
	a->read_format = rnd() & (PERF_FORMAT_TOTAL_TIME_ENABLED |
				  PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID);
	if (has_fe && rn(3) == 0)
		a->config1 = rnd() & P.event_filter;
	if (has_fl && rn(3) == 0)
		a->config2 = rn(0x1000);
	if (ksz >= OFF_CONFIG3 + 8 && has_fne && rn(4) == 0)
		raw[OFF_CONFIG3 / 8] = rnd() & P.event_filter;
	if (ksz >= OFF_CONFIG4 + 8 && has_fds && rn(4) == 0)
		raw[OFF_CONFIG4 / 8] = rnd();
	*flags = rn(4) == 0 ? PERF_FLAG_FD_CLOEXEC : 0;
	if (rn(2)) {
		*pid = -1;
		*cpu = (int)rn(ncpus);
	} else {
		*pid = 0;
		*cpu = rn(2) ? -1 : (int)rn(ncpus);
	}

	switch (cls) {
	case C_VALID:
		/* Sizes the kernel accepts: 0 (= VER0) or any 64..4096 with
		 * zeros past its own size. Fields past a short size read as 0. */
		switch (rn(4)) {
		case 0: {
			static const unsigned int vs[] = { 0, 64, 72, 80, 96, 104, 112, 120, 128, 136 };

			a->size = vs[rn(sizeof(vs) / sizeof(vs[0]))];
			if (a->size > ksz)
				a->size = ksz;
			break;
		}
		case 1:
			a->size = ksz + 8 * (uint32_t)rn(16);
			break;
		case 2:
			a->size = 4096;
			break;
		default:
			break;
		}
		return 0;
	case C_CHAOS:
		n = 1 + (unsigned int)rn(6);
		for (i = 0; i < n; i++) {
			unsigned int w = (unsigned int)rn(ksz / 8);

			if (w == 0)
				continue;	/* keep type/size */
			raw[w] ^= 1ULL << rn(64);
		}
		if (rn(4) == 0)
			a->size = (uint32_t)rn(4200);
		if (rn(8) == 0)
			*flags = rnd() & 0xf;
		return -1;
	case F_FREQ:
		a->freq = 1;
		a->sample_freq = 1 + rn(1000);
		return EINVAL;
	case F_EXCL_BOTH:
		a->exclude_user = a->exclude_kernel = a->exclude_hv = 1;
		return EINVAL;
	case F_CFG_UNKNOWN: {
		int b;

		do
			b = (int)rn(64);
		while (cfg_known >> b & 1);
		a->config |= 1ULL << b;
		return EINVAL;
	}
	case F_CFG2_HIGH:
		a->config2 |= 1ULL << (12 + rn(52));
		return EINVAL;
	case F_EXCL_IDLE:
		a->exclude_idle = 1;
		return EOPNOTSUPP;
	case F_FMT_ABSENT: {
		uint64_t absent = cfg_known & ~cfg_present;
		int b;

		if (!absent)
			return -2;
		do
			b = (int)rn(64);
		while (!(absent >> b & 1));
		a->config |= 1ULL << b;
		return EOPNOTSUPP;
	}
	case F_EVF_RES0: {
		uint64_t bad = has_fe ? ~P.event_filter : ~0ULL;

		if (!bad)
			return -2;
		do
			a->config1 = rnd() & bad;
		while (!a->config1);
		return EOPNOTSUPP;
	}
	case F_CFG3_RES0: {
		uint64_t bad = has_fne ? ~P.event_filter : ~0ULL, v;

		if (ksz < OFF_CONFIG3 + 8 || !bad)
			return -2;
		do
			v = rnd() & bad;
		while (!v);
		raw[OFF_CONFIG3 / 8] = v;
		return EOPNOTSUPP;
	}
	case F_CFG4:
		if (ksz < OFF_CONFIG4 + 8 || has_fds)
			return -2;
		raw[OFF_CONFIG4 / 8] = rnd() | 1;
		return EOPNOTSUPP;
	case F_SIZE_SMALL:
		a->size = 1 + (uint32_t)rn(63);
		return E2BIG;
	case F_SIZE_TAIL:
		a->size = ksz + 8 + 8 * (uint32_t)rn((4096 - ksz - 8) / 8);
		((uint8_t *)raw)[ksz + rn(a->size - ksz)] = 1 + (uint8_t)rn(255);
		return E2BIG;
	case F_SIZE_HUGE:
		a->size = 4097 + (uint32_t)rn(1 << 20);
		return E2BIG;
	case F_PERIOD63:
		a->sample_period |= 1ULL << 63;
		return EINVAL;
	case F_BRANCH:
		a->sample_type |= PERF_SAMPLE_BRANCH_STACK;
		a->branch_sample_type = PERF_SAMPLE_BRANCH_ANY;
		return EOPNOTSUPP;
	case F_CPU_BAD:
		if (rn(2)) {
			*pid = -1;
			*cpu = -1;
		} else {
			*cpu = ncpus + (int)rn(1000);
		}
		return EINVAL;
	case F_FLAGS:
		*flags |= 1UL << (4 + rn(28));
		return EINVAL;
	case F_RESERVED2:
		((uint16_t *)raw)[110 / 2] = 1 + (uint16_t)rn(0xffff);
		return EINVAL;
	case F_PID:
		*pid = 0x3ffffff0;
		*cpu = -1;
		return ESRCH;
	}
	return -1;
}

static struct fev *free_slot(void)
{
	int i;

	for (i = 0; i < NEV; i++)
		if (!evs[i].live)
			return &evs[i];
	return NULL;
}

static struct fev *rnd_live(int need_fd)
{
	int i, k = (int)rn(NEV);

	for (i = 0; i < NEV; i++) {
		struct fev *e = &evs[(k + i) % NEV];

		if (e->live && (!need_fd || e->fd >= 0))
			return e;
	}
	return NULL;
}

static void fz_open(void)
{
	static uint64_t raw[4096 / 8 + 16];
	struct perf_event_attr *a = (void *)raw;
	struct fev *slot = free_slot();
	unsigned long flags;
	pid_t pid;
	int cpu, cls, exp, fd, err, conflict;

	if (!slot)
		return;
	do {
		cls = (int)rn(3) == 0 ? C_VALID : (int)rn(NCLASS);
		exp = build_attr(raw, cls, &pid, &cpu, &flags);
	} while (exp == -2);
	conflict = fev_live_conflicts(pid == 0, cpu);
	fz.opens++;
	fz.events++;
	fz.by_class[cls]++;
	fd = sys_perf_open(a, pid, cpu, -1, flags);
	err = fd < 0 ? errno : 0;
	if (err < 140)
		fz.by_errno[err]++;
	if (fd < 0) {
		fz.open_fail++;
		if (!open_errno_ok(err))
			fz_fail("open class %s: %s is outside the allowed errno set (config %#llx)",
				cname[cls], en(err), (unsigned long long)a->config);
		else if (exp == 0 && !(err == EBUSY && conflict))
			fz_fail("open class valid failed with %s (config %#llx config1 %#llx config2 %#llx period %#llx size %u pid %d cpu %d excl_u/k/hv %d%d%d conflict %d)",
				en(err), (unsigned long long)a->config,
				(unsigned long long)a->config1, (unsigned long long)a->config2,
				(unsigned long long)a->sample_period, a->size, pid, cpu,
				a->exclude_user, a->exclude_kernel, a->exclude_hv, conflict);
		else if (exp > 0 && err != exp)
			fz_fail("open class %s: got %s, documented %s (config %#llx config1 %#llx size %u)",
				cname[cls], en(err), en(exp), (unsigned long long)a->config,
				(unsigned long long)a->config1, a->size);
		return;
	}
	fz.open_ok++;
	if (exp > 0) {
		fz_fail("open class %s succeeded, documented %s (config %#llx config1 %#llx config2 %#llx size %u)",
			cname[cls], en(exp), (unsigned long long)a->config,
			(unsigned long long)a->config1, (unsigned long long)a->config2, a->size);
	}
	memset(slot, 0, sizeof(*slot));
	slot->fd = fd;
	slot->live = 1;
	slot->per_task = pid == 0;
	slot->cpu = cpu;
	slot->inherit = a->inherit;
	/* Most events get a ring, an AUX area and are enabled at once, so
	 * that the fuzzing records and ends AUX transactions. */
	if (rn(10) < 7 && !(slot->inherit && cpu == -1)) {
		struct perf_event_mmap_page *pg;
		unsigned int dn = 1u << rn(4), an = 2u << rn(6);
		void *m;

		fz.mmaps += 2;
		m = mmap(NULL, (dn + 1) * pagesz, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (m == MAP_FAILED) {
			fz_fail("ring of %u data pages on a fresh event: %s", dn, en(errno));
			return;
		}
		slot->ring = m;
		slot->ring_len = (dn + 1) * pagesz;
		pg = m;
		pg->aux_offset = slot->ring_len;
		pg->aux_size = (uint64_t)an * pagesz;
		slot->snapshot = rn(5) == 0;
		m = mmap(NULL, (size_t)an * pagesz, slot->snapshot ? PROT_READ : PROT_READ | PROT_WRITE,
			 MAP_SHARED, fd, pg->aux_offset);
		if (m == MAP_FAILED) {
			fz_fail("AUX of %u pages on a fresh event: %s", an, en(errno));
			return;
		}
		slot->aux = m;
		slot->aux_len = (size_t)an * pagesz;
		if (rn(4)) {
			fz.ioctls++;
			if (ioctl(fd, PERF_EVENT_IOC_ENABLE, 0))
				fz_fail("IOC_ENABLE: %s", en(errno));
		}
	}
}

static int pow2(uint64_t n)
{
	return n && !(n & (n - 1));
}

static void fz_mmap(void)
{
	struct fev *e = rnd_live(1);
	static const unsigned int dp[] = { 0, 1, 2, 3, 4, 8, 16 };
	static const unsigned int ap[] = { 1, 2, 3, 4, 6, 8, 16, 32, 64, 128, 256, 1024, 1u << 21 };
	struct perf_event_mmap_page *pg;
	unsigned int n;
	void *m;
	int err, snap;

	if (!e)
		return;
	fz.mmaps++;
	fz.events++;
	if (!e->ring) {
		n = dp[rn(sizeof(dp) / sizeof(dp[0]))];
		m = mmap(NULL, (n + 1) * pagesz, PROT_READ | PROT_WRITE, MAP_SHARED, e->fd, 0);
		err = m == MAP_FAILED ? errno : 0;
		/* perf_mmap(): no mmap of inherited per-task (cpu -1) events;
		 * data pages 0 or a power of two, else EINVAL */
		if (e->inherit && e->cpu == -1) {
			if (err != EINVAL)
				fz_fail("ring of inherited cpu -1 event: %s, perf core says EINVAL", en(err));
		} else if (n && !pow2(n)) {
			if (err != EINVAL)
				fz_fail("ring of %u data pages: %s, perf core says EINVAL", n, en(err));
		} else if (err) {
			fz_fail("ring of %u data pages: %s", n, en(err));
		}
		if (!err) {
			e->ring = m;
			e->ring_len = (n + 1) * pagesz;
		}
		return;
	}
	if (e->aux)
		return;
	n = ap[rn(sizeof(ap) / sizeof(ap[0]))];
	snap = rn(4) == 0;
	pg = e->ring;
	pg->aux_offset = e->ring_len;
	pg->aux_size = (uint64_t)n * pagesz;
	m = mmap(NULL, (size_t)n * pagesz, snap ? PROT_READ : PROT_READ | PROT_WRITE,
		 MAP_SHARED, e->fd, pg->aux_offset);
	err = m == MAP_FAILED ? errno : 0;
	if (!pow2(n)) {
		if (err != EINVAL)
			fz_fail("AUX of %u pages: %s, perf core says EINVAL", n, en(err));
	} else if (n < 2 || n >= (1u << 21)) {
		/* driver setup_aux() refuses < 2 pages; the page array of 2^21
		 * pointers is above MAX_PAGE_ORDER: ENOMEM both */
		if (err != ENOMEM)
			fz_fail("AUX of %u pages: %s, expected ENOMEM", n, en(err));
	} else if (err) {
		fz_fail("AUX of %u pages (snapshot %d): %s", n, snap, en(err));
	}
	if (!err) {
		e->aux = m;
		e->aux_len = (size_t)n * pagesz;
		e->snapshot = snap;
		e->read_idx = 0;
		e->rec_end = 0;
	}
}

/* Consume ring records and AUX data of @e; check the driver never
 * overwrote unread data and the PERF_RECORD_AUX ranges are in order. */
static void fz_collect(struct fev *e)
{
	struct perf_event_mmap_page *pg = e->ring;
	uint64_t head, tail, dsz;
	const uint8_t *base;

	if (!pg || e->ring_len <= (size_t)pagesz)
		return;
	dsz = e->ring_len - pagesz;
	base = (const uint8_t *)e->ring + pagesz;
	head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	tail = pg->data_tail;
	while (tail < head) {
		struct perf_event_header h;
		uint64_t v[3];
		size_t i, off = tail % dsz;

		for (i = 0; i < sizeof(h); i++)
			((uint8_t *)&h)[i] = base[(off + i) % dsz];
		if (h.size < sizeof(h))
			break;
		if (h.type == PERF_RECORD_AUX && h.size >= sizeof(h) + sizeof(v)) {
			for (i = 0; i < sizeof(v); i++)
				((uint8_t *)v)[i] = base[(off + sizeof(h) + i) % dsz];
			fz.aux_recs++;
			fz.bytes += v[1];
			if (v[2] & PERF_AUX_FLAG_TRUNCATED)
				fz.truncated++;
			/* Records may become visible after aux_head moved on
			 * (nested ring writers publish data_head late), so
			 * check order and bounds, not the read window. */
			if (e->aux && !e->snapshot && v[1]) {
				uint64_t ah = __atomic_load_n(&pg->aux_head, __ATOMIC_ACQUIRE);

				if (v[0] < e->rec_end || v[0] + v[1] > ah)
					fz_fail("PERF_RECORD_AUX [%#llx,+%#llx) out of order or past aux_head (previous end %#llx, aux_head %#llx)",
						(unsigned long long)v[0], (unsigned long long)v[1],
						(unsigned long long)e->rec_end, (unsigned long long)ah);
				e->rec_end = v[0] + v[1];
			}
		}
		tail += h.size;
	}
	__atomic_store_n(&pg->data_tail, tail, __ATOMIC_RELEASE);
	if (e->aux && !e->snapshot) {
		head = __atomic_load_n(&pg->aux_head, __ATOMIC_ACQUIRE);
		if (head - e->read_idx > e->aux_len)
			fz_fail("aux_head %#llx ran %#llx bytes past unread data at %#llx (AUX %#zx)",
				(unsigned long long)head,
				(unsigned long long)(head - e->read_idx - e->aux_len),
				(unsigned long long)e->read_idx, e->aux_len);
		e->read_idx = head;
		__atomic_store_n(&pg->aux_tail, head, __ATOMIC_RELEASE);
	}
}

static void fz_ioctl(void)
{
	struct fev *e = rnd_live(1);
	uint64_t v = 0;
	int r, err, op = (int)rn(8);

	if (!e)
		return;
	fz.ioctls++;
	fz.events++;
	switch (op) {
	case 0: case 1:
		r = ioctl(e->fd, PERF_EVENT_IOC_ENABLE, 0);
		break;
	case 2: case 3:
		r = ioctl(e->fd, PERF_EVENT_IOC_DISABLE, 0);
		break;
	case 4:
		r = ioctl(e->fd, PERF_EVENT_IOC_RESET, 0);
		break;
	case 5:
		v = rn(4) ? rnd_period() : (rn(2) ? 0 : 1ULL << 63 | rn(100));
		r = ioctl(e->fd, PERF_EVENT_IOC_PERIOD, &v);
		err = r ? errno : 0;
		/* _perf_event_period(): 0 and bit 63 are EINVAL */
		if ((!v || v >> 63) && err != EINVAL)
			fz_fail("IOC_PERIOD %#llx: %s, perf core says EINVAL", (unsigned long long)v, en(err));
		if (err && err != EINVAL)
			fz_fail("IOC_PERIOD: %s", en(err));
		return;
	case 6:
		r = ioctl(e->fd, PERF_EVENT_IOC_PAUSE_OUTPUT, (unsigned long)rn(2));
		err = r ? errno : 0;
		/* no buffer: EINVAL (perf_event_pause_output) */
		if (err && err != EINVAL)
			fz_fail("IOC_PAUSE_OUTPUT: %s", en(err));
		return;
	default:
		r = ioctl(e->fd, PERF_EVENT_IOC_ID, &v);
		break;
	}
	if (r)
		fz_fail("ioctl op %d: %s, must succeed", op, en(errno));
}

static void fz_work(void)
{
	struct fev *t = rnd_live(0);
	int i, cpu = t && t->cpu >= 0 && rn(4) ? t->cpu : (int)rn(ncpus);

	fz.workloads++;
	fz.events++;
	/* most workloads run with the events enabled */
	for (i = 0; i < NEV; i++) {
		if (evs[i].live && evs[i].fd >= 0 && rn(4)) {
			fz.ioctls++;
			if (ioctl(evs[i].fd, PERF_EVENT_IOC_ENABLE, 0))
				fz_fail("IOC_ENABLE: %s", en(errno));
		}
	}
	spe_pin_cpu(cpu);
	if (rn(4) == 0) {
		pid_t c = fork();

		if (c == 0) {
			workload(200 + rn(2000));
			_exit(0);
		}
		fz.forks++;
		if (c > 0)
			waitpid(c, NULL, 0);
	} else {
		workload(200 + rn(3000));
	}
	/* disabling ends the AUX transaction: PERF_RECORD_AUX to check */
	for (i = 0; i < NEV; i++) {
		if (evs[i].live && evs[i].fd >= 0 && rn(2)) {
			fz.ioctls++;
			if (ioctl(evs[i].fd, PERF_EVENT_IOC_DISABLE, 0))
				fz_fail("IOC_DISABLE: %s", en(errno));
		}
		if (evs[i].live)
			fz_collect(&evs[i]);
	}
}

static void fz_close(void)
{
	struct fev *e = rnd_live(0);

	if (!e)
		return;
	fz.closes++;
	fz.events++;
	fz_collect(e);
	switch (rn(3)) {
	case 0:		/* unmap first, then close */
		fev_release(e);
		break;
	case 1:		/* close, keep the mapping (the event lives on) */
		if (e->fd >= 0) {
			close(e->fd);
			e->fd = -1;
			if (!e->ring && !e->aux)
				e->live = 0;
			break;
		}
		/* fall through */
	default:
		fev_release(e);
	}
}

static int cmd_fuzz(int argc, char **argv)
{
	const char *seed_arg = NULL;
	unsigned long n = 20000, last_k = 0;
	uint64_t seed;
	int o, i;
	struct timespec t0, t1;

	while ((o = getopt(argc, argv, "s:n:")) != -1) {
		if (o == 's')
			seed_arg = optarg;
		else if (o == 'n')
			n = strtoul(optarg, NULL, 0);
	}
	need_pmu();
	seed = pick_seed(seed_arg);
	seed_rng(seed);
	printf("# fuzz: seed %#llx (replay: spe_stress fuzz -s %#llx -n %lu)\n",
	       (unsigned long long)seed, (unsigned long long)seed, n);
	ksz = kernel_attr_size();
	tap(ksz >= 112, "kernel perf_event_attr size from E2BIG write-back: %u", ksz);
	if (!ksz)
		return finish();
	for (i = 0; i < (int)NCFG; i++) {
		cfg_known |= 1ULL << cfg_bits[i].bit;
		if (spe_has_format(&P, cfg_bits[i].fmt))
			cfg_present |= 1ULL << cfg_bits[i].bit;
	}
	has_fe = spe_has_format(&P, "event_filter");
	has_fl = spe_has_format(&P, "min_latency");
	has_fne = spe_has_format(&P, "inv_event_filter");
	has_fds = spe_has_format(&P, "inv_data_src_filter");
	printf("# config bits known %#llx present %#llx; FE %d FL %d FnE %d FDS %d; event_filter %#llx; %d CPUs\n",
	       (unsigned long long)cfg_known, (unsigned long long)cfg_present,
	       has_fe, has_fl, has_fne, has_fds, (unsigned long long)P.event_filter, ncpus);
	for (i = 0; i < NEV; i++)
		evs[i].fd = -1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (fz.events < n) {
		/* progress on the console: the last line before a hang tells
		 * where to replay from */
		if (fz.events / 1000 != last_k) {
			last_k = fz.events / 1000;
			printf("# fuzz progress: %lu events\n", fz.events);
		}
		switch (rn(10)) {
		case 0: case 1: case 2: fz_open(); break;
		case 3: case 4: fz_mmap(); break;
		case 5: case 6: fz_ioctl(); break;
		case 7: fz_work(); break;
		default: fz_close(); break;
		}
	}
	for (i = 0; i < NEV; i++)
		if (evs[i].live) {
			fz_collect(&evs[i]);
			fev_release(&evs[i]);
		}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("# fuzz: %lu events in %.1fs: %lu opens (%lu ok, %lu refused), %lu mmaps, %lu ioctls, %lu workloads (%lu forks), %lu closes; %lu PERF_RECORD_AUX, %lu bytes, %lu truncated\n",
	       fz.events, (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9,
	       fz.opens, fz.open_ok, fz.open_fail, fz.mmaps, fz.ioctls, fz.workloads,
	       fz.forks, fz.closes, fz.aux_recs, fz.bytes, fz.truncated);
	printf("# fuzz: open classes:");
	for (i = 0; i < NCLASS; i++)
		printf(" %s=%lu", cname[i], fz.by_class[i]);
	printf("\n# fuzz: open results:");
	for (i = 0; i < 140; i++)
		if (fz.by_errno[i])
			printf(" %s=%lu", en(i), fz.by_errno[i]);
	printf("\n");
	tap(fz.fails == 0, "fuzz seed %#llx: %lu events, %u violations%s%s",
	    (unsigned long long)seed, fz.events, fz.fails,
	    fz.fails ? "; first: " : "", fz.first_fail);
	/* The PMU still works after the fuzzing. */
	{
		struct perf_event_attr a;
		struct spe_session s;
		int r;

		spe_attr_init(&a, &P, 0, 4096);
		r = spe_session_open(&s, &a, 0, -1, 4, 16, 0);
		if (!r) {
			spe_enable(&s);
			workload(20000);
			spe_disable(&s);
			spe_session_collect(&s);
		}
		tap(!r && s.len > 0 && !s.n_truncated, "a session after the fuzzing records data (%zu bytes)",
		    r ? 0 : s.len);
		if (!r)
			spe_session_close(&s);
	}
	return finish();
}

/* ---------------------------------------------------------------- ioc_period */

/*
 * PERF_EVENT_IOC_PERIOD sets hwc->sample_period directly (perf core
 * __perf_event_period()); driver.rst says the period is clamped to
 * min_interval..0xffffff00. Count records per operation with a period of
 * 1 set by the ioctl against the same period given at open time.
 */
static double records_per_kop(uint64_t open_period, uint64_t ioc_period, size_t *bytes)
{
	struct perf_event_attr a;
	struct spe_session s;
	const uint64_t iters = 20000;
	double r;

	spe_attr_init(&a, &P, 0, open_period);
	if (spe_session_open(&s, &a, 0, -1, 8, 256, 0))
		return -1;
	if (ioc_period && ioctl(s.fd, PERF_EVENT_IOC_PERIOD, &ioc_period)) {
		int e = errno;

		spe_session_close(&s);
		printf("# IOC_PERIOD %#llx refused: %s\n", (unsigned long long)ioc_period, en(e));
		return e == EINVAL ? -2 : -3;
	}
	spe_enable(&s);
	workload(iters);
	spe_disable(&s);
	spe_session_collect(&s);
	*bytes = s.len;
	r = (double)s.len / P.max_record_size * 1000.0 / (iters * SPE_WL_LDST_INSNS);
	spe_session_close(&s);
	return r;
}

static int cmd_ioc_period(int argc, char **argv)
{
	size_t b1 = 0, b2 = 0, b3 = 0;
	double at_open, by_ioc, big;
	/* at most one record per min_interval operations, +25% slack and the
	 * kernel's own records in the same window */
	double limit;

	need_pmu();
	spe_pin_cpu(0);
	limit = 1000.0 / P.min_interval * 1.25 + 1;
	at_open = records_per_kop(1, 0, &b1);
	by_ioc = records_per_kop(1 << 20, 1, &b2);
	tap(at_open >= 0 && at_open <= limit,
	    "period 1 at open: %.2f records per 1000 operations (<= %.2f; %zu bytes)", at_open, limit, b1);
	/* Clamping (as at open) or refusing with EINVAL (pmu->check_period)
	 * are both fine; -2 is the ioctl's refusal. */
	tap(by_ioc == -2 || (by_ioc >= 0 && by_ioc <= limit),
	    "period 1 by PERF_EVENT_IOC_PERIOD: %.2f records per 1000 operations (<= %.2f; %zu bytes)%s",
	    by_ioc, limit, b2, by_ioc > limit ? ": the ioctl bypasses spe_sanitise_period()" : "");
	big = records_per_kop(1 << 20, (1ULL << 32) | 256, &b3);
	/* 2^32+256 clamps to 0xffffff00: at most a record or two */
	tap(big == -2 || (big >= 0 && b3 <= 4 * (size_t)P.max_record_size),
	    "period 2^32+256 by PERF_EVENT_IOC_PERIOD: %zu bytes (clamped to 0xffffff00: <= 4 records)%s",
	    b3, b3 > 4 * (size_t)P.max_record_size ? ": INTERVAL bits [31:8] of the truncated value" : "");
	return finish();
}

/* ---------------------------------------------------------------- workers */

struct wstat {
	unsigned long iters, opened, busy, nodev, bytes, truncated, bad, records;
	char first[256];
};

static void worker(int cpu, unsigned long iters, struct wstat *ws)
{
	struct perf_event_attr a;
	struct spe_session s;
	unsigned long i;

	seed_rng(0x1234567ULL * (cpu + 1));
	for (i = 0; i < iters; i++) {
		int per_task = rn(3) == 0, r;

		ws->iters++;
		if (spe_pin_cpu(cpu) && !per_task) {
			/* our CPU is offline: per-task on whatever runs us */
			per_task = 1;
		}
		spe_attr_init(&a, &P, rn(2) ? 1 : 0, P.min_interval + rn(1024));
		/* small AUX areas: buffer-full interrupts, wraps, no-room stops */
		r = spe_session_open(&s, &a, per_task ? 0 : -1, per_task ? -1 : cpu,
				     1 << rn(4), 2 << rn(3), rn(5) == 0);
		if (r) {
			if (errno == EBUSY)
				ws->busy++;
			else if (errno == ENODEV && !per_task)
				ws->nodev++;	/* hotplugged out under us */
			else if (!ws->bad++)
				snprintf(ws->first, sizeof(ws->first), "open/mmap per_task %d cpu %d: %s",
					 per_task, cpu, en(errno));
			continue;
		}
		ws->opened++;
		if (spe_enable(&s) && !ws->bad++)
			snprintf(ws->first, sizeof(ws->first), "enable: %s", en(errno));
		workload(500 + rn(8000));
		if (spe_session_collect(&s) && !ws->bad++)
			snprintf(ws->first, sizeof(ws->first), "AUX data overwritten before it was read");
		if (rn(2))
			spe_disable(&s);
		if (spe_session_collect(&s) && !ws->bad++)
			snprintf(ws->first, sizeof(ws->first), "AUX data overwritten before it was read");
		if (s.aux_rec_bad && !ws->bad++)
			snprintf(ws->first, sizeof(ws->first), "PERF_RECORD_AUX ranges out of order");
		/*
		 * Every record handed over is valid, gaps and hotplug or not
		 * (a snapshot's data is checked by buf.snapshot). A CPU-wide
		 * session also holds the other workers' records: the same
		 * binary, so the same PCs and data addresses.
		 */
		if (!s.snapshot && s.len) {
			struct spe_expect ex;
			struct spe_stats st;

			spe_expect_default(&ex, &P);
			ex.el_user_only = 1;
			ex.ts = (int)(a.config & 1);
			ex.buf = wl_buf;
			ex.buf_len = sizeof(wl_buf);
			ex.first_idx_align = s.first_idx;
			ex.other_tasks = !per_task;
			memset(&st, 0, sizeof(st));
			if (spe_validate(s.data, s.len, &ex, &st, NULL, NULL) && !ws->bad++)
				snprintf(ws->first, sizeof(ws->first), "session %lu (per_task %d): %.200s",
					 i, per_task, st.first);
			ws->records += st.records;
		}
		ws->bytes += s.len;
		ws->truncated += s.n_truncated;
		spe_session_close(&s);
	}
}

static int cmd_workers(int argc, char **argv)
{
	unsigned long iters = 200, hp_cycles = 0, hp_fail = 0;
	int o, hotplug = 0, c, n;
	struct wstat *ws;
	pid_t *pids;
	long long irq0, spur0;
	int alive;

	while ((o = getopt(argc, argv, "n:H")) != -1) {
		if (o == 'n')
			iters = strtoul(optarg, NULL, 0);
		else if (o == 'H')
			hotplug = 1;
	}
	need_pmu();
	n = ncpus;
	ws = mmap(NULL, sizeof(*ws) * n, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pids = calloc(n, sizeof(*pids));
	memset(ws, 0, sizeof(*ws) * n);
	irq0 = spe_counter(&P, "irqs");
	spur0 = spe_counter(&P, "spurious_irqs");
	for (c = 0; c < n; c++) {
		pids[c] = fork();
		if (pids[c] == 0) {
			worker(c, iters, &ws[c]);
			_exit(0);
		}
	}
	/* Hotplug the CPUs other than 0 for as long as a worker runs: the
	 * workers' exits end the loop, not a timer. */
	alive = n;
	seed_rng(42);
	while (alive) {
		int st;

		while (waitpid(-1, &st, hotplug ? WNOHANG : 0) > 0) {
			alive--;
			if (!WIFEXITED(st) || WEXITSTATUS(st))
				hp_fail += 1000000;	/* a worker died */
		}
		if (hotplug && alive && n > 1) {
			int cpu = 1 + (int)rn(n - 1);

			if (spe_set_cpu_online(cpu, 0) == 0) {
				hp_cycles++;
				if (spe_set_cpu_online(cpu, 1))
					hp_fail++;
			}
		}
	}
	for (c = 1; c < n; c++)
		if (!spe_cpu_online(c) && spe_set_cpu_online(c, 1))
			hp_fail++;
	for (c = 0; c < n; c++) {
		tap(ws[c].bad == 0 && ws[c].iters == iters && ws[c].records > 0,
		    "worker cpu%d: %lu iterations, %lu sessions, %lu EBUSY, %lu ENODEV, %lu bytes, %lu valid records, %lu truncated%s%s",
		    c, ws[c].iters, ws[c].opened, ws[c].busy, ws[c].nodev, ws[c].bytes,
		    ws[c].records, ws[c].truncated, ws[c].bad ? "; " : "", ws[c].first);
	}
	if (hotplug)
		tap(hp_fail == 0 && (n < 2 || hp_cycles > 0),
		    "CPU hotplug during recording: %lu offline/online cycles, %lu failures", hp_cycles, hp_fail);
	printf("# counters: irqs +%lld, spurious_irqs +%lld\n",
	       spe_counter(&P, "irqs") - irq0, spe_counter(&P, "spurious_irqs") - spur0);
	/* every CPU online again and recording */
	for (c = 0; c < n; c++) {
		struct perf_event_attr a;
		struct spe_session s;
		int r;

		spe_pin_cpu(c);
		spe_attr_init(&a, &P, 0, 4096);
		r = spe_session_open(&s, &a, -1, c, 4, 16, 0);
		if (!r) {
			spe_enable(&s);
			workload(20000);
			spe_disable(&s);
			spe_session_collect(&s);
		}
		tap(!r && s.len > 0, "cpu%d: online and recording afterwards (%s, %zu bytes)",
		    c, r ? en(errno) : "ok", r ? 0 : s.len);
		if (!r)
			spe_session_close(&s);
	}
	return finish();
}

/* ---------------------------------------------------------------- rmmod */

#define MODNAME "arm_spe_perf"

static int try_rmmod(void)
{
	return syscall(SYS_delete_module, MODNAME, O_NONBLOCK) ? errno : 0;
}

static int insmod(const char *ko)
{
	int fd = open(ko, O_RDONLY | O_CLOEXEC), r;

	if (fd < 0)
		return errno;
	r = syscall(SYS_finit_module, fd, "", 0) ? errno : 0;
	close(fd);
	return r;
}

/* delete_module() with a nonzero refcount: EWOULDBLOCK (= EAGAIN) from
 * try_stop_module(); EBUSY is what a refusal from elsewhere would say. */
static int refused(int e)
{
	return e == EAGAIN || e == EBUSY;
}

static int session_works(int cpu)
{
	struct perf_event_attr a;
	struct spe_session s;
	size_t len;

	if (spe_pmu_find(&P))
		return 0;
	spe_attr_init(&a, &P, 0, 4096);
	if (spe_session_open(&s, &a, 0, cpu, 4, 16, 0))
		return 0;
	spe_enable(&s);
	workload(20000);
	spe_disable(&s);
	spe_session_collect(&s);
	len = s.len;
	spe_session_close(&s);
	return len > 0;
}

static int cmd_rmmod(int argc, char **argv)
{
	const char *ko = argc > 1 ? argv[1] : "./arm_spe_perf.ko";
	struct perf_event_attr a;
	struct spe_session s;
	int e, fd, p[2], q[2], round;
	pid_t child;
	char c;

	need_pmu();
	if (access(ko, R_OK))
		skip_all("no module file");
	spe_pin_cpu(0);
	for (round = 0; round < 3; round++) {
		/* an enabled, mapped per-CPU session */
		spe_attr_init(&a, &P, 0, 4096);
		if (spe_session_open(&s, &a, -1, 0, 4, 16, 0)) {
			tap(0, "round %d: open: %s", round, en(errno));
			return finish();
		}
		spe_enable(&s);
		workload(5000);
		e = try_rmmod();
		tap(refused(e), "round %d: rmmod with an enabled event: %s", round, en(e));
		spe_disable(&s);
		/* fd closed, AUX and ring still mapped: the event lives on, and
		 * free_aux is module code */
		close(s.fd);
		s.fd = -1;
		e = try_rmmod();
		tap(refused(e), "round %d: rmmod with the fd closed but the AUX buffer mapped: %s", round, en(e));
		spe_session_close(&s);

		/* a child holds a per-task event */
		if (pipe(p) || pipe(q))
			return finish();
		child = fork();
		if (child == 0) {
			struct perf_event_attr ca;

			close(p[0]);
			close(q[1]);
			spe_attr_init(&ca, &P, 0, 4096);
			fd = spe_perf_open(&ca, 0, -1);
			c = fd >= 0 ? 'y' : 'n';
			if (fd < 0)
				printf("# child: open: %s\n", en(errno));
			if (write(p[1], &c, 1) != 1)
				_exit(1);
			/* until the parent closes its end of q */
			if (read(q[0], &c, 1) < 0)
				_exit(1);
			_exit(0);
		}
		close(p[1]);
		close(q[0]);
		if (read(p[0], &c, 1) != 1)
			c = 'n';
		e = try_rmmod();
		tap(c == 'y' && refused(e), "round %d: rmmod while a child holds a per-task event: %s (child open %c)",
		    round, en(e), c);
		close(q[1]);
		close(p[0]);
		waitpid(child, NULL, 0);

		/* all gone: unload succeeds, reload, the PMU works */
		e = try_rmmod();
		tap(e == 0, "round %d: rmmod after every event is gone: %s", round, en(e));
		if (e)
			return finish();
		e = spe_pmu_find(&P) ? 0 : 1;
		tap(!e, "round %d: no arm_spe PMU while unloaded", round);
		e = insmod(ko);
		tap(e == 0, "round %d: insmod again: %s", round, en(e));
		if (e)
			return finish();
		tap(session_works(0) && session_works(-1), "round %d: sessions work after the reload", round);
	}
	return finish();
}

/* ---------------------------------------------------------------- auxmem */

static int cmd_auxmem(int argc, char **argv)
{
	struct spe_session s;
	struct perf_event_attr a;
	int r, e, st;
	pid_t child;
	char old_mlock[32] = "516", old_par[16] = "2";
	FILE *f;
	unsigned int n;

	need_pmu();
	spe_pin_cpu(0);
	f = fopen("/proc/sys/kernel/perf_event_mlock_kb", "r");
	if (f) {
		if (!fgets(old_mlock, sizeof(old_mlock), f))
			strcpy(old_mlock, "516");
		fclose(f);
	}
	f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	if (f) {
		if (!fgets(old_par, sizeof(old_par), f))
			strcpy(old_par, "2");
		fclose(f);
	}

	/* 1. unprivileged, perf_event_mlock_kb and RLIMIT_MEMLOCK small: an
	 * AUX area over the limit is EPERM (perf_mmap(): locked > limit,
	 * perf_is_paranoid(), no CAP_IPC_LOCK), a small one still works. */
	spe_write_file("/proc/sys/kernel/perf_event_paranoid", "1");
	spe_write_file("/proc/sys/kernel/perf_event_mlock_kb", "64");
	child = fork();
	if (child == 0) {
		struct rlimit rl = { 0, 0 };
		int bad = 0;

		setrlimit(RLIMIT_MEMLOCK, &rl);
		if (setgid(65534) || setuid(65534))
			_exit(3);
		spe_attr_init(&a, &P, 0, 4096);
		r = spe_session_open(&s, &a, 0, -1, 1, 1024, 0);
		e = r ? errno : 0;
		printf("# unprivileged, mlock 64 KiB: 4 MiB AUX: %s\n", en(e));
		if (e != EPERM)
			bad |= 1;
		if (!r)
			spe_session_close(&s);
		r = spe_session_open(&s, &a, 0, -1, 1, 8, 0);
		e = r ? errno : 0;
		printf("# unprivileged, mlock 64 KiB: 32 KiB AUX: %s\n", en(e));
		if (r)
			bad |= 2;
		else {
			spe_enable(&s);
			workload(10000);
			spe_disable(&s);
			spe_session_collect(&s);
			if (!s.len)
				bad |= 4;
			spe_session_close(&s);
		}
		_exit(bad);
	}
	waitpid(child, &st, 0);
	tap(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	    "unprivileged over perf_event_mlock_kb/RLIMIT_MEMLOCK: EPERM, under it works (status %#x)", st);
	spe_write_file("/proc/sys/kernel/perf_event_mlock_kb", old_mlock);
	spe_write_file("/proc/sys/kernel/perf_event_paranoid", old_par);

	/* 2. the page array above MAX_PAGE_ORDER: ENOMEM, no warning */
	spe_attr_init(&a, &P, 0, 4096);
	n = 1u << 21;
	r = spe_session_open(&s, &a, 0, -1, 1, n, 0);
	e = r ? errno : 0;
	tap(e == ENOMEM, "AUX of 2^21 pages (8 GiB): %s (ENOMEM)", en(e));
	if (!r)
		spe_session_close(&s);

	/* 3. memory pressure: a child holds most of the free memory while
	 * AUX areas of growing size are allocated; each either maps (and
	 * records) or fails ENOMEM; nothing else. */
	{
		long avail = sysconf(_SC_AVPHYS_PAGES) * (pagesz / 1024);	/* KiB */
		int p1[2], p2[2], bad = 0, okn = 0, enomem = 0;
		char c = 0;

		if (pipe(p1) || pipe(p2))
			return finish();
		child = fork();
		if (child == 0) {
			size_t len = (size_t)(avail * 3 / 5) * 1024;
			char *m = mmap(NULL, len, PROT_READ | PROT_WRITE,
				       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

			close(p1[0]);
			close(p2[1]);
			c = m == MAP_FAILED ? 'n' : 'y';
			if (write(p1[1], &c, 1) != 1)
				_exit(1);
			if (read(p2[0], &c, 1) < 0)
				_exit(1);
			_exit(0);
		}
		close(p1[1]);
		close(p2[0]);
		if (read(p1[0], &c, 1) != 1)
			c = 'n';
		printf("# pressure: child holds 60%% of %ld KiB: %c\n", avail, c);
		for (n = 2; n <= 8192 && (size_t)n * pagesz < (size_t)avail * 1024 / 8; n <<= 1) {
			printf("# under pressure: AUX of %u pages\n", n);
			r = spe_session_open(&s, &a, 0, -1, 2, n, 0);
			e = r ? errno : 0;
			if (e == ENOMEM) {
				enomem++;
				continue;
			}
			if (e) {
				printf("# under pressure: AUX of %u pages: %s\n", n, en(e));
				bad++;
				continue;
			}
			okn++;
			spe_enable(&s);
			workload(2000);
			spe_disable(&s);
			if (spe_session_collect(&s) || s.aux_rec_bad)
				bad++;
			spe_session_close(&s);
		}
		close(p2[1]);
		waitpid(child, NULL, 0);
		close(p1[0]);
		tap(c == 'y' && !bad, "under memory pressure (%ld KiB free, 60%% held): %d AUX sizes mapped, %d ENOMEM, %d other",
		    avail, okn, enomem, bad);
	}
	tap(session_works(0), "a session works after the allocation failures");
	return finish();
}

/* ---------------------------------------------------------------- fault */

#define TRACE "/sys/kernel/tracing"

/*
 * The emulator makes the Nth record write on each CPU fail once
 * (tools/qemu/README.md). Run per-task sessions pinned to each CPU until
 * the fault shows, and check, per session, that what the driver counted
 * (counters/) matches what it told perf (PERF_RECORD_AUX flags/sizes),
 * that the fault is reported as documented (driver.rst PMBIRQ table) and
 * that the data handed over before it decodes; then the next session on
 * that CPU is clean.
 */
static const char *ctr_names[] = { "irqs", "bytes", "aux_records", "truncated",
				   "faults", "ext_aborts", "data_loss", "collisions",
				   "buffer_full", "spurious_irqs" };
#define NCTR (sizeof(ctr_names) / sizeof(ctr_names[0]))
enum { K_IRQS, K_BYTES, K_AUXREC, K_TRUNC, K_FAULTS, K_EA, K_DL, K_COLL, K_FULL, K_SPUR };

static void ctr_snap(long long *v)
{
	unsigned int i;

	for (i = 0; i < NCTR; i++)
		v[i] = spe_counter(&P, ctr_names[i]);
}

/* The driver's tracepoints for the faulting session, as comments. */
static void dump_trace(void)
{
	FILE *f = fopen(TRACE "/trace", "r");
	char line[512];
	int n = 0;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (line[0] != '#' && n++ < 80)
			printf("# trace: %s", line);
	fclose(f);
}

static void trace_clear(void)
{
	int fd = open(TRACE "/trace", O_WRONLY | O_TRUNC);

	if (fd >= 0)
		close(fd);
}

/* Lines containing @what after the first line containing @mark. */
static int trace_count_after(const char *mark, const char *what)
{
	FILE *f = fopen(TRACE "/trace", "r");
	char line[512];
	int seen = 0, n = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#')
			continue;
		if (!seen && strstr(line, mark))
			seen = 1;
		else if (seen && strstr(line, what))
			n++;
	}
	fclose(f);
	return n;
}

/* Block until a child pinned to @cpu has run: the caller is scheduled
 * out and in again on @cpu (a pipe round trip, no timing). */
static void force_ctx_switch(int cpu)
{
	int p[2], q[2];
	char c = 'x';
	pid_t ch;

	if (pipe(p) || pipe(q))
		return;
	ch = fork();
	if (ch == 0) {
		spe_pin_cpu(cpu);
		if (read(p[0], &c, 1) == 1 && write(q[1], &c, 1) == 1)
			_exit(0);
		_exit(1);
	}
	if (write(p[1], &c, 1) != 1 || read(q[0], &c, 1) != 1)
		printf("# context switch helper failed\n");
	waitpid(ch, NULL, 0);
	close(p[0]);
	close(p[1]);
	close(q[0]);
	close(q[1]);
}

static int cmd_fault(int argc, char **argv)
{
	const char *kind = argc > 1 ? argv[1] : "none";
	long n = argc > 2 ? strtol(argv[2], NULL, 0) : 0;
	int cpu, sess, found, seen_any = 0;
	long long c0[NCTR], c1[NCTR], d[NCTR];
	unsigned long sessions = 0, records_before = 0;

	need_pmu();
	if (!strcmp(kind, "none"))
		skip_all("no fault injected in this boot");
	/*
	 * The emulator's knob fires once per machine (N counts record writes
	 * of all CPUs): look for it on the first CPU, which does all the
	 * recording until it shows; every CPU then checks the next session.
	 */
	printf("# fault: %s:%ld injected once, %d CPUs\n", kind, n, ncpus);
	spe_write_file(TRACE "/events/arm_spe_perf/enable", "1");
	for (cpu = 0; cpu < ncpus; cpu++) {
		int look = !seen_any;

		found = 0;
		records_before = 0;
		spe_pin_cpu(cpu);
		for (sess = 0; sess < 200 && !found && look; sess++) {
			struct perf_event_attr a;
			struct spe_session s;
			struct spe_expect ex;
			struct spe_stats st;
			unsigned int i, k, viol;
			size_t good;
			long long after_trunc;
			int restarts;

			spe_attr_init(&a, &P, 0, 4096);
			trace_clear();
			ctr_snap(c0);
			if (spe_session_open(&s, &a, 0, -1, 4, 16, 0)) {
				tap(0, "cpu%d session %d: open: %s", cpu, sess, en(errno));
				return finish();
			}
			spe_enable(&s);
			after_trunc = -1;
			for (k = 0; k < 4; k++) {
				workload(3000);
				spe_session_collect(&s);
				if (s.n_truncated && after_trunc < 0) {
					/* The event must stay stopped, also across a
					 * context switch (sched out/in = del/add). */
					after_trunc = (long long)s.aux_rec_bytes;
					force_ctx_switch(cpu);
				}
			}
			if (after_trunc >= 0) {
				/* always some work after the switch */
				workload(3000);
				spe_session_collect(&s);
			}
			spe_disable(&s);
			spe_session_collect(&s);
			/* The emulated unit reports a fault some instructions
			 * late (strict model): when it came in the last slice,
			 * its TRUNCATED record is the last thing handed over. */
			if (after_trunc < 0 && s.n_truncated)
				after_trunc = (long long)s.aux_rec_bytes;
			ctr_snap(c1);
			sessions++;
			for (i = 0; i < NCTR; i++)
				d[i] = c1[i] - c0[i];
			found = d[K_FAULTS] || d[K_EA];
			/* never silent: every byte counted was handed over, and the
			 * transactions ended are the ones seen */
			if (d[K_BYTES] != (long long)s.aux_rec_bytes || d[K_TRUNC] != s.n_truncated ||
			    d[K_COLL] != s.n_collision || d[K_AUXREC] < s.n_aux_recs) {
				tap(0, "cpu%d session %d: counters bytes +%lld truncated +%lld collisions +%lld aux_records +%lld vs PERF_RECORD_AUX bytes %llu truncated %u collision %u records %u",
				    cpu, sess, d[K_BYTES], d[K_TRUNC], d[K_COLL], d[K_AUXREC],
				    (unsigned long long)s.aux_rec_bytes, s.n_truncated, s.n_collision, s.n_aux_recs);
				spe_session_close(&s);
				return finish();
			}
			if (!found) {
				if (s.n_truncated || s.n_partial) {
					tap(0, "cpu%d session %d: TRUNCATED/PARTIAL (%u/%u) with no fault counted",
					    cpu, sess, s.n_truncated, s.n_partial);
					spe_session_close(&s);
					return finish();
				}
				records_before += s.len / P.max_record_size;
				spe_session_close(&s);
				continue;
			}
			printf("# cpu%d: fault in session %d after ~%lu records: counters", cpu, sess, records_before);
			for (i = 0; i < NCTR; i++)
				printf(" %s+%lld", ctr_names[i], d[i]);
			printf("; PERF_RECORD_AUX %u (flags %#llx, %u truncated, %u partial), %zu bytes\n",
			       s.n_aux_recs, (unsigned long long)s.aux_flags_or, s.n_truncated,
			       s.n_partial, s.len);
			dump_trace();
			restarts = trace_count_after("action=stop", "spe_buf_program:");
			tap(after_trunc >= 0 && (long long)s.aux_rec_bytes == after_trunc && restarts == 0,
			    "cpu%d %s: stopped for good after the fault: %lld bytes handed over after the TRUNCATED record, %d windows programmed after the stop (a context switch in between)",
			    cpu, kind, after_trunc >= 0 ? (long long)s.aux_rec_bytes - after_trunc : -1, restarts);
			tap(s.n_truncated >= 1, "cpu%d %s: the faulting transaction ends TRUNCATED", cpu, kind);
			if (!strncmp(kind, "s1", 2)) {
				tap(d[K_FAULTS] == 1 && d[K_EA] == 0 && d[K_DL] == 0,
				    "cpu%d s1: faults +1, ext_aborts +0, data_loss +0 (got %lld %lld %lld)",
				    cpu, d[K_FAULTS], d[K_EA], d[K_DL]);
				tap(!s.n_partial, "cpu%d s1: no PARTIAL (no data lost before the fault)", cpu);
			} else if (!strncmp(kind, "dl", 2)) {
				tap(d[K_FAULTS] == 1 && d[K_DL] == 1,
				    "cpu%d dl: faults +1, data_loss +1 (got %lld %lld)", cpu, d[K_FAULTS], d[K_DL]);
				tap(s.n_partial >= 1, "cpu%d dl: PARTIAL reported for PMBSR.DL", cpu);
			} else if (!strncmp(kind, "ea", 2)) {
				tap(d[K_EA] == 1, "cpu%d ea: ext_aborts +1 (got %lld)", cpu, d[K_EA]);
				tap(s.n_partial >= 1 && s.partial_bytes == 0,
				    "cpu%d ea: TRUNCATED|PARTIAL with 0 bytes handed over (got %u partial, %llu bytes)",
				    cpu, s.n_partial, (unsigned long long)s.partial_bytes);
			}
			/* the data before the faulting transaction decodes cleanly */
			good = s.len;
			if (s.n_partial && s.partial_off >= s.first_idx && s.partial_off - s.first_idx <= s.len)
				good = s.partial_off - s.first_idx;
			spe_expect_default(&ex, &P);
			ex.el_user_only = 1;
			ex.buf = wl_buf;
			ex.buf_len = sizeof(wl_buf);
			ex.first_idx_align = s.first_idx;
			memset(&st, 0, sizeof(st));
			viol = spe_validate(s.data, good, &ex, &st, NULL, NULL);
			tap(viol == 0, "cpu%d %s: %zu bytes before the fault decode into %llu valid records%s%s",
			    cpu, kind, good, (unsigned long long)st.records, viol ? ": " : "", st.first);
			spe_session_close(&s);
		}
		if (look) {
			tap(found, "cpu%d: the injected fault (%s:%ld) showed within %d sessions",
			    cpu, kind, n, sess);
			seen_any = found;
		}
		/* the next session works */
		{
			struct perf_event_attr a;
			struct spe_session s;

			spe_attr_init(&a, &P, 0, 4096);
			ctr_snap(c0);
			if (spe_session_open(&s, &a, 0, -1, 4, 16, 0)) {
				tap(0, "cpu%d: session after the fault: %s", cpu, en(errno));
				continue;
			}
			spe_enable(&s);
			workload(20000);
			spe_disable(&s);
			spe_session_collect(&s);
			ctr_snap(c1);
			tap(s.len > 0 && !s.n_truncated && c1[K_FAULTS] == c0[K_FAULTS] && c1[K_EA] == c0[K_EA],
			    "cpu%d: the next session records %zu bytes, no truncation or fault", cpu, s.len);
			spe_session_close(&s);
		}
	}
	printf("# fault: %lu sessions\n", sessions);
	return finish();
}

/* ---------------------------------------------------------------- main */

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc < 2) {
		fprintf(stderr, "usage: spe_stress fuzz|ioc_period|workers|rmmod|auxmem|fault ...\n");
		return 2;
	}
	printf("TAP version 13\n");
	if (!strcmp(argv[1], "fuzz"))
		return cmd_fuzz(argc - 1, argv + 1);
	if (!strcmp(argv[1], "ioc_period"))
		return cmd_ioc_period(argc - 1, argv + 1);
	if (!strcmp(argv[1], "workers"))
		return cmd_workers(argc - 1, argv + 1);
	if (!strcmp(argv[1], "rmmod"))
		return cmd_rmmod(argc - 1, argv + 1);
	if (!strcmp(argv[1], "auxmem"))
		return cmd_auxmem(argc - 1, argv + 1);
	if (!strcmp(argv[1], "fault"))
		return cmd_fault(argc - 1, argv + 1);
	fprintf(stderr, "unknown mode %s\n", argv[1]);
	return 2;
}
