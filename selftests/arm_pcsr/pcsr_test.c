// SPDX-License-Identifier: GPL-2.0
/*
 * In-guest tests of arm_pcsr (Documentation/pcsr.rst, "Tests"): the PMU's
 * sysfs files; PC sampling of a workload pinned to CPU 1 from the
 * sampler on another CPU reproduces the workload's time shares in its
 * three functions, attributes the samples to its PID and CPU 1, and adds
 * no interrupt on CPU 1; the documented errnos.
 *
 * Environment (set by vm-suite.sh from the QEMU options of the boot):
 * PCSR_EXP_NIDEN=0 when the frames have non-invasive debug disabled.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "pcsr_workload.h"

#define SYSFS		"/sys/bus/event_source/devices/arm_pcsr"
#define TARGET_CPU	1
/* 313 us: not a divisor of the workload's round, about 3.2 kHz */
#define PERIOD_NS	313000ULL
#define WINDOW_S	2
/* Tolerance on each function's share of the samples, absolute */
#define SHARE_TOL	0.08
#define MIN_SAMPLES	300
#define DATA_PAGES	128

struct sample {
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t time;
	uint32_t cpu, res;
};

struct ring {
	int fd;
	struct perf_event_mmap_page *pg;
	size_t size;
};

/* What a sampling window saw */
struct tally {
	unsigned long n, user, user_wl_pid, user_wl_tid, not_target_cpu;
	unsigned long in[3];
};

static long read_long(const char *path)
{
	char buf[64] = "";
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = 0;
	fclose(f);
	return buf[0] ? strtol(buf, NULL, 0) : -1;
}

static int read_str(const char *path, char *buf, size_t n)
{
	FILE *f = fopen(path, "r");

	buf[0] = 0;
	if (!f)
		return -1;
	if (!fgets(buf, n, f))
		buf[0] = 0;
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

static int pcsr_open(int cpu, uint64_t sample_type, int exclude_user)
{
	struct perf_event_attr a = { 0 };
	long type = read_long(SYSFS "/type");

	if (type < 0) {
		errno = ENOENT;
		return -1;
	}
	a.size = sizeof(a);
	a.type = type;
	a.sample_period = PERIOD_NS;
	a.sample_type = sample_type;
	a.exclude_user = exclude_user;
	a.disabled = 1;
	/*
	 * No wakeup_events: wakeups at the default watermark (half the
	 * ring) only. Before 6.x perf core forwards each wakeup's irq_work
	 * to the event's CPU (Documentation/pcsr.rst, Limits); the test
	 * reads the ring as it goes and needs none.
	 */
	return syscall(SYS_perf_event_open, &a, -1, cpu, -1, 0);
}

static int ring_open(struct ring *r, int cpu, int exclude_user)
{
	long psz = sysconf(_SC_PAGESIZE);

	r->fd = pcsr_open(cpu, PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			  PERF_SAMPLE_TIME | PERF_SAMPLE_CPU, exclude_user);
	if (r->fd < 0)
		return -1;
	r->size = psz * DATA_PAGES;
	r->pg = mmap(NULL, psz + r->size, PROT_READ | PROT_WRITE, MAP_SHARED,
		     r->fd, 0);
	if (r->pg == MAP_FAILED) {
		close(r->fd);
		return -1;
	}
	return 0;
}

static void ring_close(struct ring *r)
{
	munmap(r->pg, sysconf(_SC_PAGESIZE) + r->size);
	close(r->fd);
}

static const uintptr_t fn_lo[3] = {
	(uintptr_t)pcsr_fa, (uintptr_t)pcsr_fb, (uintptr_t)pcsr_fc,
};
static const uintptr_t fn_hi[3] = {
	(uintptr_t)pcsr_fa_end, (uintptr_t)pcsr_fb_end, (uintptr_t)pcsr_fc_end,
};

/* Read every record in the ring; count the samples into t */
static void ring_drain(struct ring *r, struct tally *t, pid_t wl)
{
	uint64_t head = __atomic_load_n(&r->pg->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = r->pg->data_tail;
	char *data = (char *)r->pg + sysconf(_SC_PAGESIZE);

	while (tail < head) {
		struct perf_event_header h;
		struct sample s;
		size_t off = tail % r->size, i;
		char rec[256];

		memcpy(&h, data + off, sizeof(h));
		if (h.size > sizeof(rec) || !h.size)
			break;
		for (i = 0; i < h.size; i++)
			rec[i] = data[(off + i) % r->size];
		tail += h.size;
		if (h.type != PERF_RECORD_SAMPLE)
			continue;
		memcpy(&s, rec + sizeof(h), sizeof(s));
		t->n++;
		if (s.cpu != TARGET_CPU)
			t->not_target_cpu++;
		if ((h.misc & PERF_RECORD_MISC_CPUMODE_MASK) !=
		    PERF_RECORD_MISC_USER)
			continue;
		t->user++;
		t->user_wl_pid += s.pid == (uint32_t)wl;
		t->user_wl_tid += s.tid == (uint32_t)wl;
		for (i = 0; i < 3; i++)
			if (s.ip >= fn_lo[i] && s.ip < fn_hi[i])
				t->in[i]++;
	}
	__atomic_store_n(&r->pg->data_tail, tail, __ATOMIC_RELEASE);
}

/* Sample for WINDOW_S seconds, draining as it goes */
static void ring_window(struct ring *r, struct tally *t, pid_t wl)
{
	struct timespec d = { 0, 50 * 1000 * 1000 };
	int i;

	ioctl(r->fd, PERF_EVENT_IOC_ENABLE, 0);
	for (i = 0; i < WINDOW_S * 20; i++) {
		nanosleep(&d, NULL);
		ring_drain(r, t, wl);
	}
	ioctl(r->fd, PERF_EVENT_IOC_DISABLE, 0);
	ring_drain(r, t, wl);
}

/* Ticks the workload spent in each function, shared with it */
static volatile uint64_t *wl_ticks;

/* The workload, pinned to cpu; returns once it runs there */
static pid_t workload_start(int cpu)
{
	int p[2];
	char c;
	pid_t pid;

	if (pipe(p))
		return -1;
	wl_ticks = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (wl_ticks == MAP_FAILED)
		return -1;
	pid = fork();
	if (!pid) {
		close(p[0]);
		if (pcsr_pin(cpu))
			_exit(1);
		if (write(p[1], "r", 1) != 1)
			_exit(1);
		close(p[1]);
		pcsr_spin_forever(wl_ticks);
	}
	close(p[1]);
	if (pid < 0 || read(p[0], &c, 1) != 1) {
		if (pid > 0)
			kill(pid, SIGKILL);
		pid = -1;
	}
	close(p[0]);
	return pid;
}

/* The tests run on CPU 0, the workload on TARGET_CPU */
static pid_t workload_on_target(void)
{
	if (pcsr_pin(0))
		return -1;
	return workload_start(TARGET_CPU);
}

static void workload_stop(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/*
 * Sample TARGET_CPU for a window while the workload runs there; dt gets
 * the timer ticks it spent in each function meanwhile. Returns the
 * workload's PID (it is gone by then), or -1 with errno set.
 */
static pid_t sample_target(struct tally *t, int exclude_user, uint64_t dt[3])
{
	uint64_t t0[3];
	struct ring r;
	pid_t wl;
	int i;

	wl = workload_on_target();
	if (wl < 0)
		return -1;
	if (ring_open(&r, TARGET_CPU, exclude_user)) {
		i = errno;
		workload_stop(wl);
		errno = i;
		return -1;
	}
	for (i = 0; i < 3; i++)
		t0[i] = wl_ticks[i];
	ring_window(&r, t, wl);
	for (i = 0; i < 3; i++)
		dt[i] = wl_ticks[i] - t0[i];
	ring_close(&r);
	workload_stop(wl);
	return wl;
}

/* Sum of every interrupt count of one CPU in /proc/interrupts */
static unsigned long long irq_count(int cpu)
{
	unsigned long long sum = 0;
	char line[1024];
	FILE *f = fopen("/proc/interrupts", "r");
	int ncpu = 0;

	if (!f)
		return 0;
	if (fgets(line, sizeof(line), f))
		for (char *p = strtok(line, " \t\n"); p; p = strtok(NULL, " \t\n"))
			ncpu++;
	while (fgets(line, sizeof(line), f)) {
		char *p = strchr(line, ':');
		int i;

		if (!p)
			continue;
		p++;
		for (i = 0; i < ncpu; i++) {
			char *end;
			unsigned long long v = strtoull(p, &end, 10);

			if (end == p)
				break;
			if (i == cpu)
				sum += v;
			p = end;
		}
	}
	fclose(f);
	return sum;
}

static int niden_expected(void)
{
	const char *e = getenv("PCSR_EXP_NIDEN");

	return !e || strcmp(e, "0");
}

#define NEED_PMU()							\
	do {								\
		if (access(SYSFS "/type", R_OK))			\
			SKIP(return, "no arm_pcsr PMU (is arm_pcsr loaded?)"); \
	} while (0)

#define NEED_SAMPLEABLE()						\
	do {								\
		NEED_PMU();						\
		if (!niden_expected())					\
			SKIP(return, "non-invasive debug disabled in this boot"); \
	} while (0)

/* frames and sampleable list the CPUs; the counters are there */
TEST(sysfs)
{
	char frames[64], samp[64];
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	char want[64];

	NEED_PMU();
	snprintf(want, sizeof(want), "0-%ld", ncpu - 1);
	ASSERT_EQ(0, read_str(SYSFS "/frames", frames, sizeof(frames)));
	ASSERT_EQ(0, read_str(SYSFS "/sampleable", samp, sizeof(samp)));
	EXPECT_STREQ(want, frames);
	EXPECT_STREQ(niden_expected() ? want : "", samp);
	EXPECT_LE(0, read_long(SYSFS "/counters/samples"));
	EXPECT_LE(0, read_long(SYSFS "/counters/unknown"));
	EXPECT_LE(0, read_long(SYSFS "/counters/filtered"));
	EXPECT_LE(0, read_long(SYSFS "/counters/lost"));
}

/*
 * The workload's time shares in its three functions (about 50/30/20, as
 * measured by the workload itself with the generic timer over the
 * window) are found again in the samples, each within SHARE_TOL; its
 * samples carry its PID and TID and CPU 1.
 */
TEST(shares_pid_cpu)
{
	uint64_t dt[3], dtsum = 0;
	struct tally t = { 0 };
	unsigned long in;
	int i;

	NEED_SAMPLEABLE();
	ASSERT_LT(0, sample_target(&t, 0, dt)) TH_LOG("%s", strerror(errno));
	for (i = 0; i < 3; i++)
		dtsum += dt[i];

	in = t.in[0] + t.in[1] + t.in[2];
	TH_LOG("%lu samples, %lu user, in fa/fb/fc %lu/%lu/%lu; time %.3f/%.3f/%.3f",
	       t.n, t.user, t.in[0], t.in[1], t.in[2], (double)dt[0] / dtsum,
	       (double)dt[1] / dtsum, (double)dt[2] / dtsum);
	ASSERT_LE(MIN_SAMPLES, in);
	ASSERT_LT(0, dtsum);
	for (i = 0; i < 3; i++) {
		double share = (double)t.in[i] / in, want = (double)dt[i] / dtsum;

		EXPECT_TRUE(share > want - SHARE_TOL && share < want + SHARE_TOL)
			TH_LOG("function %d: sample share %.3f, time share %.3f +- %.2f",
			       i, share, want, SHARE_TOL);
	}
	/* Nothing else runs in user mode on CPU 1 */
	EXPECT_EQ(t.user, t.user_wl_pid);
	EXPECT_EQ(t.user, t.user_wl_tid);
	EXPECT_EQ(0, t.not_target_cpu);
}

/*
 * CPU 1 takes no interrupt for the sampling: its interrupt count over a
 * sampling window is that of an equal window without sampling, give or
 * take 25 (ticks, IPIs of the system); the window has at least
 * MIN_SAMPLES samples, each of which would be an interrupt for a PMU that
 * samples on the profiled CPU.
 */
TEST(no_interrupt_on_target)
{
	struct timespec w = { WINDOW_S, 0 };
	unsigned long long b0, b1, s0, s1;
	struct tally t = { 0 };
	struct ring r;
	pid_t wl;

	NEED_SAMPLEABLE();
	wl = workload_on_target();
	ASSERT_LT(0, wl);
	b0 = irq_count(TARGET_CPU);
	nanosleep(&w, NULL);
	b1 = irq_count(TARGET_CPU);
	ASSERT_EQ(0, ring_open(&r, TARGET_CPU, 0));
	s0 = irq_count(TARGET_CPU);
	ring_window(&r, &t, wl);
	s1 = irq_count(TARGET_CPU);
	ring_close(&r);
	workload_stop(wl);
	TH_LOG("CPU%d interrupts: %llu without sampling, %llu with %lu samples",
	       TARGET_CPU, b1 - b0, s1 - s0, t.n);
	ASSERT_LE(MIN_SAMPLES, t.n);
	EXPECT_LE(s1 - s0, b1 - b0 + 25);
}

/* exclude_user: no user sample; the dropped ones are counted */
TEST(exclude_user)
{
	long f0 = read_long(SYSFS "/counters/filtered");
	struct tally t = { 0 };
	uint64_t dt[3];

	NEED_SAMPLEABLE();
	ASSERT_LT(0, sample_target(&t, 1, dt)) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(0, t.user);
	EXPECT_LT(f0 + MIN_SAMPLES, read_long(SYSFS "/counters/filtered"));
}

/* Per-CPU only: a task-bound event is refused with EOPNOTSUPP */
TEST(err_task_mode)
{
	struct perf_event_attr a = { 0 };

	NEED_PMU();
	a.size = sizeof(a);
	a.type = read_long(SYSFS "/type");
	a.sample_period = PERIOD_NS;
	EXPECT_EQ(-1, syscall(SYS_perf_event_open, &a, 0, -1, -1, 0));
	EXPECT_EQ(EOPNOTSUPP, errno);
}

/* Counting mode and callchains are refused with EOPNOTSUPP */
TEST(err_not_sampling_or_callchain)
{
	struct perf_event_attr a = { 0 };

	NEED_SAMPLEABLE();
	a.size = sizeof(a);
	a.type = read_long(SYSFS "/type");
	EXPECT_EQ(-1, syscall(SYS_perf_event_open, &a, -1, TARGET_CPU, -1, 0));
	EXPECT_EQ(EOPNOTSUPP, errno);
	EXPECT_EQ(-1, pcsr_open(TARGET_CPU, PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN, 0));
	EXPECT_EQ(EOPNOTSUPP, errno);
}

/* Debug disabled by firmware: EACCES; else the open works */
TEST(err_debug_disabled)
{
	int fd;

	NEED_PMU();
	fd = pcsr_open(TARGET_CPU, PERF_SAMPLE_IP, 0);
	if (niden_expected()) {
		EXPECT_LE(0, fd) TH_LOG("open: %s", strerror(errno));
	} else {
		EXPECT_EQ(-1, fd);
		EXPECT_EQ(EACCES, errno);
	}
	if (fd >= 0)
		close(fd);
}

static int cpu_set_online(int cpu, int on)
{
	char path[96];
	int fd, ok;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	ok = write(fd, on ? "1" : "0", 1) == 1;
	close(fd);
	return ok ? 0 : -1;
}

/*
 * Hotplug: an event on the last CPU survives the CPU going away (perf
 * core takes it off; the sampler stops reading that frame); an event for
 * an offline CPU is refused with ENODEV; back online, it opens again.
 */
TEST(hotplug_and_offline_errno)
{
	long last = sysconf(_SC_NPROCESSORS_CONF) - 1;
	struct tally t = { 0 };
	struct ring r;
	int fd;

	NEED_SAMPLEABLE();
	if (last < 2)
		SKIP(return, "needs 3 CPUs: 0 samples, 1 runs the workload");
	ASSERT_EQ(0, ring_open(&r, last, 0));
	ioctl(r.fd, PERF_EVENT_IOC_ENABLE, 0);
	ASSERT_EQ(0, cpu_set_online(last, 0));
	fd = pcsr_open(last, PERF_SAMPLE_IP, 0);
	EXPECT_EQ(-1, fd);
	EXPECT_EQ(ENODEV, errno);
	ASSERT_EQ(0, cpu_set_online(last, 1));
	ring_drain(&r, &t, 0);
	ring_close(&r);
	fd = pcsr_open(last, PERF_SAMPLE_IP, 0);
	EXPECT_LE(0, fd) TH_LOG("open after online: %s", strerror(errno));
	if (fd >= 0)
		close(fd);
}

TEST_HARNESS_MAIN
