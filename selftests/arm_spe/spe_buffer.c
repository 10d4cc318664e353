// SPDX-License-Identifier: GPL-2.0
/*
 * The AUX buffer and the event's life cycle: wraparound with a reader
 * that keeps up, truncation with one that does not, snapshot (overwrite)
 * mode, discard mode, the smallest and a large buffer, open/close and
 * enable/disable cycles, buffer faults injected by the emulator
 * (SPE_FAULT=s1:N/dl:N/ea:N from the runner), unprivileged users at each
 * perf_event_paranoid level and CPU hotplug.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <linux/capability.h>
#include "spe_test.h"

uint64_t wl_buf[WL_WORDS];

/* Nanoseconds from @a to @b. */
static long long ts_ns(const struct timespec *a, const struct timespec *b)
{
	return (b->tv_sec - a->tv_sec) * 1000000000ll + b->tv_nsec - a->tv_nsec;
}

static int write_paranoid(int level)
{
	char v[16];

	snprintf(v, sizeof(v), "%d", level);
	return spe_write_file("/proc/sys/kernel/perf_event_paranoid", v);
}

static int read_paranoid(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	int v = 2;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = 2;
		fclose(f);
	}
	return v;
}

/* read() of an event with TOTAL_TIME_ENABLED | TOTAL_TIME_RUNNING. */
struct read_times {
	uint64_t value, enabled, running;
};

FIXTURE(buf) {
	struct spe_pmu_info p;
	struct spe_session s;
	struct spe_expect e;
	struct spe_stats st;
	struct perf_event_attr a;
	int paranoid;		/* perf_event_paranoid to restore, or INT_MIN */
};

FIXTURE_SETUP(buf)
{
	memset(&self->s, 0, sizeof(self->s));
	self->s.fd = -1;
	self->paranoid = INT_MIN;
	NEED_PMU(&self->p);
	spe_attr_init(&self->a, &self->p, CFG_TS, self->p.min_interval);
	spe_expect_default(&self->e, &self->p);
	self->e.el_user_only = 1;
	self->e.ts = 1;
	self->e.buf = wl_buf;
	self->e.buf_len = sizeof(wl_buf);
	spe_pin_cpu(0);
}

FIXTURE_TEARDOWN(buf)
{
	spe_session_close(&self->s);
	/* Also after a failed ASSERT: later tests expect the old setting. */
	if (self->paranoid != INT_MIN)
		write_paranoid(self->paranoid);
}

/*
 * MaxSize and Align for sizing workloads: this driver's caps; for a driver
 * without them (mainline's), what the boot expects (SPE_EXP_*, from the
 * emulator's properties), else the smallest record (64 bytes, Align 1).
 * caps_match_implementation checks the caps themselves.
 */
static uint64_t max_rec(const struct spe_pmu_info *p)
{
	return p->max_record_size > 0 ? (uint64_t)p->max_record_size :
	       (uint64_t)spe_env_long("SPE_EXP_MAXSIZE", 64);
}

static uint64_t rec_align(const struct spe_pmu_info *p)
{
	return p->align > 0 ? (uint64_t)p->align : (uint64_t)spe_env_long("SPE_EXP_ALIGN", 1);
}

static uint64_t bytes_per_iter(const struct spe_pmu_info *p)
{
	/* Upper bound of AUX bytes per ldst iteration at the minimum interval. */
	return (SPE_WL_LDST_INSNS * max_rec(p)) / (p->min_interval + 1) + 1;
}

/*
 * Bytes one record can take in the buffer: at most MaxSize, and each
 * starts at an Align boundary (RHLXGD), so a slot is MaxSize rounded up
 * to Align (Align may exceed MaxSize, or be 1).
 */
static uint64_t rec_slot(const struct spe_pmu_info *p)
{
	uint64_t a = rec_align(p), m = max_rec(p);

	return (m + a - 1) / a * a;
}

/* ldst iterations that fill 1/16 of a @pages-page buffer at the minimum interval. */
static uint64_t slice_iters(const struct spe_pmu_info *p, int pages)
{
	return 4096 * pages / 16 / rec_slot(p) * (p->min_interval + 1) / SPE_WL_LDST_INSNS;
}

#define TRACEFS "/sys/kernel/tracing"

/* Record the driver's tracepoints during a test, for diagnosis. */
static void trace_start(void)
{
	FILE *f;

	spe_write_file(TRACEFS "/tracing_on", "0");
	f = fopen(TRACEFS "/trace", "w");
	if (f)
		fclose(f);
	spe_write_file(TRACEFS "/events/arm_spe_perf/enable", "1");
	spe_write_file(TRACEFS "/tracing_on", "1");
}

/* Print the trace lines up to the first TRUNCATED transaction. */
static void trace_dump(struct __test_metadata *_metadata)
{
	FILE *f;
	char ring[24][256], line[256];
	unsigned int n = 0, i;

	spe_write_file(TRACEFS "/tracing_on", "0");
	spe_write_file(TRACEFS "/events/arm_spe_perf/enable", "0");
	f = fopen(TRACEFS "/trace", "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#')
			continue;
		snprintf(ring[n++ % 24], sizeof(ring[0]), "%s", line);
		if (strstr(line, "TRUNCATED"))
			break;
	}
	fclose(f);
	for (i = n > 24 ? n - 24 : 0; i < n; i++)
		TH_LOG("trace: %s", ring[i % 24]);
}

/* A reader that keeps up sees the buffer wrap several times, no loss. */
TEST_F(buf, wraparound)
{
	int pages = 4, i;
	long long bytes0 = spe_counter(&self->p, "bytes");
	long long recs0 = spe_counter(&self->p, "aux_records");

	/*
	 * At least 256 record slots (4 pages of 64-byte records): the
	 * reader's own code is sampled too, and with fewer, larger records
	 * a page window holds too few of them for it to keep up.
	 */
	while ((uint64_t)pages * 4096 / rec_slot(&self->p) < 256)
		pages *= 2;

	trace_start();
	ASSERT_OPEN(spe_session_open(&self->s, &self->a, 0, -1, 4, pages, 0), &self->s);
	ASSERT_EQ(0, spe_enable(&self->s));
	/* At least 256 slices; more (up to 2048) while the buffer has not
	 * wrapped four times: records smaller than their slot fill it slower. */
	for (i = 0; i < 256 || (i < 2048 && self->s.read_idx <= 4ull * pages * 4096); i++) {
		/*
		 * About a thirty-second of the buffer per slice, counted in
		 * record slots of the probed MaxSize/Align: the reader stays
		 * far enough behind the writer that a window never has to end
		 * in the page below unread data, which it may not use. (With
		 * a sixteenth, a debug kernel once fell a whole window behind
		 * and the next one found no room.)
		 */
		spe_wl_ldst(wl_buf, WL_WORDS - 1, slice_iters(&self->p, pages) / 2 + 1);
		ASSERT_EQ(0, spe_session_collect(&self->s)) TH_LOG("unread data overwritten");
	}
	spe_disable(&self->s);
	ASSERT_EQ(0, spe_session_collect(&self->s));
	spe_session_validate(&self->s, &self->e, &self->st, NULL, NULL);
	TH_LOG("%zu bytes through a %d-byte buffer, %u AUX records, flags %#llx",
	       self->s.len, pages * 4096, self->s.n_aux_recs,
	       (unsigned long long)self->s.aux_flags_or);
	if (self->s.n_truncated) {
		trace_dump(_metadata);
	} else {
		spe_write_file(TRACEFS "/events/arm_spe_perf/enable", "0");
	}
	EXPECT_VALID(&self->st);
	EXPECT_GT(self->s.read_idx, 4ull * pages * 4096) TH_LOG("the buffer did not wrap");
	EXPECT_EQ(0, self->s.n_truncated) TH_LOG("truncated although the reader kept up");
	EXPECT_EQ(0, self->s.aux_rec_bad);
	EXPECT_GT(self->st.in_ldst_loop, 100);
	/* counters/ agree with what perf delivered (one test at a time). */
	EXPECT_EQ((long long)self->s.aux_rec_bytes, spe_counter(&self->p, "bytes") - bytes0);
	/* aux_records also counts transactions that end empty and unflagged,
	 * for which perf emits no PERF_RECORD_AUX. */
	EXPECT_LE((long long)self->s.n_aux_recs, spe_counter(&self->p, "aux_records") - recs0);
}

/* Trace only the event whose enable file is @en, from an empty buffer. */
static int trace_only(const char *en)
{
	FILE *f;

	if (spe_write_file(TRACEFS "/tracing_on", "0"))
		return -1;
	f = fopen(TRACEFS "/trace", "w");	/* O_TRUNC clears it */
	if (!f)
		return -1;
	fclose(f);
	if (spe_write_file(en, "1"))
		return -1;
	return spe_write_file(TRACEFS "/tracing_on", "1");
}

/* Stop tracing, disable @en; the trace to read, or NULL. */
static FILE *trace_stop(const char *en)
{
	spe_write_file(TRACEFS "/tracing_on", "0");
	spe_write_file(en, "0");
	return fopen(TRACEFS "/trace", "r");
}

/* The spe_aux_output tracepoint reports each transaction perf records. */
TEST_F(buf, tracepoint_aux_output)
{
	const char *en = TRACEFS "/events/arm_spe_perf/spe_aux_output/enable";
	unsigned long long bytes = 0, n = 0, b;
	char line[512], *q;
	FILE *f;

	if (access(en, W_OK))
		SKIP(return, "no tracefs or no arm_spe_perf:spe_aux_output");
	ASSERT_EQ(0, trace_only(en));
	ASSERT_OPEN(spe_session_open(&self->s, &self->a, 0, -1, 4, 4, 0), &self->s);
	ASSERT_EQ(0, spe_enable(&self->s));
	for (int i = 0; i < 16; i++) {
		spe_wl_ldst(wl_buf, WL_WORDS - 1, 3000);
		ASSERT_EQ(0, spe_session_collect(&self->s));
	}
	spe_disable(&self->s);
	spe_session_collect(&self->s);
	f = trace_stop(en);
	ASSERT_NE(NULL, f);
	while (fgets(line, sizeof(line), f)) {
		if (!strstr(line, "spe_aux_output:"))
			continue;
		q = strstr(line, "bytes=");
		if (!q || sscanf(q, "bytes=%llu", &b) != 1)
			continue;
		bytes += b;
		/* perf emits PERF_RECORD_AUX only for data or flags */
		q = strstr(line, "flags=");
		if (b || (q && q[6] && q[6] != '\n'))
			n++;
	}
	fclose(f);
	TH_LOG("tracepoint: %llu transactions, %llu bytes; perf: %u AUX records, %llu bytes",
	       n, bytes, self->s.n_aux_recs, (unsigned long long)self->s.aux_rec_bytes);
	EXPECT_GT(n, 0);
	EXPECT_EQ(self->s.aux_rec_bytes, bytes);
	EXPECT_EQ(self->s.n_aux_recs, n);
}

/*
 * Snapshot mode: perf records every transaction with PERF_AUX_FLAG_OVERWRITE
 * and the spe_aux_output tracepoint shows the same flags.
 */
TEST_F(buf, tracepoint_snapshot_overwrite)
{
	const char *en = TRACEFS "/events/arm_spe_perf/spe_aux_output/enable";
	unsigned int n = 0, ow = 0;
	char line[512];
	FILE *f;

	if (access(en, W_OK))
		SKIP(return, "no tracefs or no arm_spe_perf:spe_aux_output");
	ASSERT_EQ(0, trace_only(en));
	ASSERT_OPEN(spe_session_open(&self->s, &self->a, 0, -1, 4, 4, 1), &self->s);
	ASSERT_EQ(0, spe_enable(&self->s));
	spe_wl_ldst(wl_buf, WL_WORDS - 1, 4 * 4 * 4096 / bytes_per_iter(&self->p) + 1000);
	spe_disable(&self->s);
	f = trace_stop(en);
	ASSERT_NE(NULL, f);
	while (fgets(line, sizeof(line), f)) {
		if (!strstr(line, "spe_aux_output:"))
			continue;
		n++;
		if (strstr(line, "OVERWRITE"))
			ow++;
	}
	fclose(f);
	TH_LOG("%u snapshot transactions traced, %u with OVERWRITE", n, ow);
	EXPECT_GT(n, 0);
	EXPECT_EQ(n, ow);
}

/* A reader that does not read: the data stops, flagged TRUNCATED, what is
 * there is whole, and the event runs again once the data is consumed. */
TEST_F(buf, slow_reader_truncated)
{
	int pages = 4;
	uint64_t iters = 8 * pages * 4096 / bytes_per_iter(&self->p) + 1;
	size_t first;

	if (iters > 4000000)
		iters = 4000000;
	ASSERT_OPEN(spe_session_open(&self->s, &self->a, 0, -1, 4, pages, 0), &self->s);
	ASSERT_EQ(0, spe_enable(&self->s));
	spe_wl_ldst(wl_buf, WL_WORDS - 1, iters * 4);
	spe_disable(&self->s);
	ASSERT_EQ(0, spe_session_collect(&self->s)) TH_LOG("unread data overwritten");
	spe_session_validate(&self->s, &self->e, &self->st, NULL, NULL);
	EXPECT_VALID(&self->st);
	EXPECT_LE(self->s.len, (size_t)pages * 4096);
	EXPECT_GT(self->s.len, 0);
	EXPECT_GT(self->s.n_truncated, 0) TH_LOG("no PERF_RECORD_AUX with PERF_AUX_FLAG_TRUNCATED");
	first = self->s.len;
	/* consumed: enabling again produces new data */
	ASSERT_EQ(0, spe_enable(&self->s));
	spe_wl_ldst(wl_buf, WL_WORDS - 1, 20000);
	spe_disable(&self->s);
	ASSERT_EQ(0, spe_session_collect(&self->s));
	EXPECT_GT(self->s.len, first) TH_LOG("no data after re-enabling");
	spe_session_validate(&self->s, &self->e, &self->st, NULL, NULL);
	EXPECT_VALID(&self->st);
}

/*
 * Fill the buffer of the open session so that perf core hands out no room
 * at all at the next look (perf_aux_output_begin() fails): the driver
 * cannot end a transaction TRUNCATED then, and must mark the gap when
 * sampling resumes. perf's handle size is CIRC_SPACE(), one byte short of
 * the tail, and the driver's windows end on page boundaries; with the
 * tail one byte past a page boundary the last window ends exactly one
 * byte short of it. So the reader reads (and frees) the data up to one
 * byte past a page boundary, then nothing more. Returns 1 when sampling
 * paused that way after the read (a gap counted, no TRUNCATED record), 0
 * when it did not (a schedule-out left a window too small for a record,
 * and the driver could mark the gap at once: try again), -1 when unread
 * data was overwritten.
 */
static int fill_no_room(struct __test_metadata *_metadata, FIXTURE_DATA(buf) *self,
			int pages, uint64_t iters)
{
	const uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	long long tr0, gaps0;
	uint64_t tail;
	int i;

	/* A little data (not a full buffer): small steps until a window ends. */
	for (i = 0; i < 100000; i++) {
		if (__atomic_load_n(&self->s.pg->aux_head, __ATOMIC_ACQUIRE) > 0)
			break;
		spe_wl_ldst(wl_buf, WL_WORDS - 1, slice_iters(&self->p, pages) / 16 + 1);
	}
	/*
	 * Disabled while reading: this thread's own code is sampled too, and
	 * a window opened before the read would end short of the new limit.
	 */
	if (spe_disable(&self->s))
		return -1;
	tail = ((__atomic_load_n(&self->s.pg->aux_head, __ATOMIC_ACQUIRE) - 1) & ~(page - 1)) + 1;
	tr0 = spe_counter(&self->p, "truncated");
	gaps0 = spe_counter(&self->p, "gaps");
	if (spe_session_collect_to(&self->s, tail) || spe_enable(&self->s))
		return -1;
	spe_wl_ldst(wl_buf, WL_WORDS - 1, iters);
	TH_LOG("read up to %#llx; aux_head %#llx; then gaps %lld, truncated %lld",
	       (unsigned long long)tail,
	       (unsigned long long)__atomic_load_n(&self->s.pg->aux_head, __ATOMIC_ACQUIRE),
	       spe_counter(&self->p, "gaps") - gaps0, spe_counter(&self->p, "truncated") - tr0);
	return spe_counter(&self->p, "gaps") > gaps0 && spe_counter(&self->p, "truncated") == tr0;
}

/*
 * A full buffer does not end the recording: with no room the driver
 * pauses sampling, marks the gap (an AUX record flagged TRUNCATED, the
 * counters/gaps counter) and resumes by itself once the reader has freed
 * space, without PERF_EVENT_IOC_ENABLE; the event stays enabled all the
 * while (time_enabled advances). Per task and CPU-wide, on CPU 0 (where
 * perf core's own disable request reads as "none" where it holds the CPU
 * number, as in 6.12) and CPU 1.
 * @sleep: the task blocks once while the buffer is full (the event is
 * scheduled out and back in, and stays paused), and once more just after
 * sampling resumed: a disable request perf core was left with must not
 * act then.
 * @no_room: the buffer fills with no byte to spare (see fill_no_room()),
 * so the gap can only be marked when sampling resumes; marking it then
 * ends a transaction TRUNCATED, and perf core's disable request that
 * comes with it must be withdrawn like every other.
 */
static void full_buffer_resumes(struct __test_metadata *_metadata,
				FIXTURE_DATA(buf) *self, int cpu, int cpu_wide, int sleep,
				int no_room)
{
	const int pages = 4;
	uint64_t iters = 32 * pages * 4096 / bytes_per_iter(&self->p) + 1;
	long long tr0, gaps0 = spe_counter(&self->p, "gaps");
	struct read_times r1, r2;
	int tries, ret;
	struct timespec ms = { .tv_nsec = 1000000 };
	struct timespec t0, t;
	size_t len0, len1 = 0;

	if (cpu >= sysconf(_SC_NPROCESSORS_ONLN))
		SKIP(return, "no CPU%d", cpu);
	if (iters > 4000000)
		iters = 4000000;
	ASSERT_EQ(0, spe_pin_cpu(cpu));
	if (cpu_wide) {
		self->e.other_tasks = 1;
		self->e.ctx_pid = getpid();
	}
	self->a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	/*
	 * Only records that each fill one Align slot (Align >= MaxSize) tile
	 * the buffer exactly; smaller ones leave a window short of its limit,
	 * and the driver pads the rest and marks the gap at once.
	 */
	if (no_room && rec_align(&self->p) < max_rec(&self->p))
		SKIP(return, "records of up to %llu bytes in %llu-byte slots never end a window exactly at its limit",
		     (unsigned long long)max_rec(&self->p), (unsigned long long)rec_align(&self->p));
	for (tries = 0;; tries++) {
		ASSERT_OPEN(spe_session_open(&self->s, &self->a, cpu_wide ? -1 : 0,
					     cpu_wide ? cpu : -1, 4, pages, 0), &self->s);
		ASSERT_EQ(0, spe_enable(&self->s));
		if (!no_room)
			break;
		ret = fill_no_room(_metadata, self, pages, iters);
		ASSERT_GE(ret, 0) TH_LOG("unread data overwritten, or the event could not be disabled or enabled");
		if (ret)
			break;
		ASSERT_LT(tries, 3) TH_LOG("the buffer never filled leaving no room at all");
		spe_session_close(&self->s);
	}
	tr0 = spe_counter(&self->p, "truncated");
	if (!no_room) {
		/* Nobody reads: the buffer fills and sampling pauses. */
		spe_wl_ldst(wl_buf, WL_WORDS - 1, iters);
		ASSERT_GT(spe_counter(&self->p, "truncated") - tr0, 0)
			TH_LOG("the buffer never filled");
	}
	/* Not a wait for anything: blocking is the point. */
	if (sleep)
		ASSERT_EQ(0, nanosleep(&ms, NULL));
	ASSERT_EQ(sizeof(r1), read(self->s.fd, &r1, sizeof(r1)));
	/*
	 * Now a reader that keeps up: recording goes on by itself, at the
	 * driver's next look for room (at most 8 ms later), and then keeps
	 * going. The workload runs until 64 slices of data came after the
	 * gap, or for 2 s of wall time at most: a bound on the wait, in
	 * time rather than in work, since the work a slice takes depends on
	 * the record size (64 to 2048 bytes) and on the emulator's speed.
	 */
	ASSERT_EQ(0, spe_session_collect(&self->s));
	len0 = self->s.len;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (self->s.len - len0 < 64 * 4096 * pages / 16) {
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (ts_ns(&t0, &t) > 2000000000ll)
			break;
		spe_wl_ldst(wl_buf, WL_WORDS - 1, slice_iters(&self->p, pages));
		ASSERT_EQ(0, spe_session_collect(&self->s)) TH_LOG("unread data overwritten");
		/*
		 * Resumed (records, not just padding, came after the gap):
		 * block once more at once. A disable request left pending
		 * acts at the next schedule-out where perf core does not
		 * act on it at once (6.12); the event must go on recording.
		 */
		if (sleep && !len1 && self->s.len - len0 > 4 * rec_slot(&self->p)) {
			len1 = self->s.len;
			ASSERT_EQ(0, nanosleep(&ms, NULL));
		}
	}
	if (sleep) {
		ASSERT_NE(0, len1) TH_LOG("never resumed");
		EXPECT_GT(self->s.len - len1, 4096) TH_LOG("no data after a schedule-out that followed the resume");
	}
	ASSERT_EQ(sizeof(r2), read(self->s.fd, &r2, sizeof(r2)));
	spe_disable(&self->s);
	ASSERT_EQ(0, spe_session_collect(&self->s));
	TH_LOG("CPU%d %s: %zu bytes before the gap, %zu after; %u TRUNCATED; gaps %lld, truncated %lld; time_enabled %llu -> %llu ns",
	       cpu, cpu_wide ? "CPU-wide" : "per task", len0, self->s.len - len0,
	       self->s.n_truncated, spe_counter(&self->p, "gaps") - gaps0,
	       spe_counter(&self->p, "truncated") - tr0,
	       (unsigned long long)r1.enabled, (unsigned long long)r2.enabled);
	EXPECT_GT(r2.enabled, r1.enabled) TH_LOG("the event was turned off");
	EXPECT_GT(self->s.len - len0, 4096) TH_LOG("no data after the reader freed space");
	EXPECT_GT(self->s.n_truncated, 0) TH_LOG("the gap is not marked TRUNCATED");
	EXPECT_GT(spe_counter(&self->p, "gaps") - gaps0, 0) TH_LOG("counters/gaps did not count it");
	spe_session_validate(&self->s, &self->e, &self->st, NULL, NULL);
	EXPECT_VALID(&self->st);
}

/*
 * PMBSR_EL1.COLL (3.1.4): a sample taken while the previous one was still
 * being processed. Every PMBSR_EL1 value with COLL that the driver reads
 * while a transaction is open ends that transaction flagged
 * PERF_AUX_FLAG_COLLISION, and counters/collisions counts each: the two
 * agree exactly. The strict emulator keeps records in flight, so at the
 * minimum interval it collides (SPE_EXP_COLLISIONS=1): there, some must be
 * reported.
 */
TEST_F(buf, collisions_reported)
{
	long long c0 = spe_counter(&self->p, "collisions"), c;
	int want = spe_env_long("SPE_EXP_COLLISIONS", 0) == 1;
	int i, pages = 16;

	/*
	 * Room for 1024 records whatever their size: a buffer that fills
	 * stops sampling until the reader catches up, and with few samples
	 * a run may see no collision by chance (seen with 512-byte records
	 * in 16 pages: 6 AUX records, none flagged).
	 */
	while ((uint64_t)pages * 4096 / rec_slot(&self->p) < 1024)
		pages *= 2;
	/* The shortest interval (mainline's rule), whatever min_interval says. */
	self->a.sample_period = 256;
	ASSERT_OPEN(spe_session_open(&self->s, &self->a, 0, -1, 4, pages, 0), &self->s);
	ASSERT_EQ(0, spe_enable(&self->s));
	/*
	 * 16 rounds; where collisions are expected (about one sample in 64
	 * at this interval), more until one is reported, up to 256: the
	 * chance of none in that many samples is nil, not small.
	 */
	for (i = 0; i < 16 || (want && !self->s.n_collision && i < 256); i++) {
		spe_wl_ldst(wl_buf, WL_WORDS - 1, 20000);
		ASSERT_EQ(0, spe_session_collect(&self->s));
	}
	spe_disable(&self->s);
	ASSERT_EQ(0, spe_session_collect(&self->s));
	c = spe_counter(&self->p, "collisions") - c0;
	TH_LOG("%lld collisions counted, %u AUX records flagged COLLISION of %u, %d rounds, %d AUX pages",
	       c, self->s.n_collision, self->s.n_aux_recs, i, pages);
	EXPECT_EQ(c, (long long)self->s.n_collision);
	if (want)
		EXPECT_GT(self->s.n_collision, 0) TH_LOG("no collision reported at interval %llu",
						  (unsigned long long)self->a.sample_period);
	spe_session_validate(&self->s, &self->e, &self->st, NULL, NULL);
	EXPECT_VALID(&self->st);
}

/*
 * COLL stays set until software writes PMBSR_EL1 (3.1.4), also across a
 * stop: a collision of one session must not be reported again by the
 * next session on the CPU. Session A samples at the minimum interval into
 * a buffer it cannot fill, so its only AUX record is the one pmu->stop
 * ends; when that one is flagged COLLISION, COLL was pending at the stop.
 * Session B, at an interval that cannot collide (Documentation/
 * emulation.rst), must then report no collision at all.
 */
TEST_F(buf, collision_not_carried_over)
{
	/* About 330 samples of 7-instruction iterations, in half the buffer. */
	uint64_t iters = 12000, rec = max_rec(&self->p) > rec_align(&self->p) ?
				      max_rec(&self->p) : rec_align(&self->p);
	struct spe_session b = { .fd = -1 };
	int tries, pending = 0, pages = 16;

	while ((uint64_t)pages * 4096 < 2 * (iters * 7 / 256) * rec + 8192)
		pages *= 2;
	for (tries = 0; tries < 5 && !pending; tries++) {
		spe_session_close(&self->s);
		self->a.sample_period = 256;
		ASSERT_OPEN(spe_session_open(&self->s, &self->a, 0, -1, 4, pages, 0), &self->s);
		ASSERT_EQ(0, spe_enable(&self->s));
		spe_wl_ldst(wl_buf, WL_WORDS - 1, iters);
		spe_disable(&self->s);
		ASSERT_EQ(0, spe_session_collect(&self->s));
		pending = self->s.n_aux_recs == 1 &&
			  (self->s.aux_flags_last & PERF_AUX_FLAG_COLLISION);
	}
	if (!pending) {
		if (spe_env_long("SPE_EXP_COLLISIONS", 0) == 1)
			ASSERT_TRUE(pending) TH_LOG("no session ended with COLL pending in %d tries",
						    tries);
		SKIP(return, "no session ended with a collision pending");
	}
	spe_session_close(&self->s);

	self->a.sample_period = 65536;
	ASSERT_OPEN(spe_session_open(&b, &self->a, 0, -1, 4, pages, 0), &b);
	ASSERT_EQ(0, spe_enable(&b));
	spe_wl_ldst(wl_buf, WL_WORDS - 1, iters);
	spe_disable(&b);
	ASSERT_EQ(0, spe_session_collect(&b));
	TH_LOG("A: COLL pending at stop after %d tries (%d AUX pages); B: %u AUX records, %u flagged COLLISION",
	       tries, pages, b.n_aux_recs, b.n_collision);
	EXPECT_EQ(0, b.n_collision) TH_LOG("the collision of the session before is reported again");
	spe_session_close(&b);
}

TEST_F(buf, full_buffer_resumes_cpu0_task)
{
	full_buffer_resumes(_metadata, self, 0, 0, 0, 0);
}

TEST_F(buf, full_buffer_resumes_cpu1_task)
{
	full_buffer_resumes(_metadata, self, 1, 0, 0, 0);
}

TEST_F(buf, full_buffer_resumes_cpu0_cpu_wide)
{
	full_buffer_resumes(_metadata, self, 0, 1, 0, 0);
}

TEST_F(buf, full_buffer_resumes_cpu1_cpu_wide)
{
	full_buffer_resumes(_metadata, self, 1, 1, 0, 0);
}

TEST_F(buf, full_buffer_resumes_after_sleep_cpu0)
{
	full_buffer_resumes(_metadata, self, 0, 0, 1, 0);
}

TEST_F(buf, full_buffer_resumes_after_sleep_cpu1)
{
	full_buffer_resumes(_metadata, self, 1, 0, 1, 0);
}

TEST_F(buf, full_buffer_no_room_resumes_cpu0)
{
	full_buffer_resumes(_metadata, self, 0, 0, 1, 1);
}

TEST_F(buf, full_buffer_no_room_resumes_cpu1)
{
	full_buffer_resumes(_metadata, self, 1, 0, 1, 1);
}

/*
 * A reader that stops at a page boundary: the driver must fill the free
 * space up to the unread data before it ends the session TRUNCATED (the
 * window limit is in 4KB units, and the unread data starts on a page
 * boundary here, so nothing but RHXSYK's last record needs padding).
 */
TEST_F(buf, truncation_fills_free_space)
{
	const size_t pages = 4, size = pages * 4096;
	uint64_t tail, head, i;
	struct spe_expect e2;
	uint8_t *lin;

	self->a.aux_watermark = 4096;
	ASSERT_OPEN(spe_session_open(&self->s, &self->a, 0, -1, 4, pages, 0), &self->s);
	ASSERT_EQ(0, spe_enable(&self->s));
	for (i = 0; i < 1000; i++) {
		spe_wl_ldst(wl_buf, WL_WORDS - 1, 500);
		if (__atomic_load_n(&self->s.pg->aux_head, __ATOMIC_ACQUIRE) >= 4096)
			break;
	}
	head = __atomic_load_n(&self->s.pg->aux_head, __ATOMIC_ACQUIRE);
	ASSERT_GE(head, 4096);
	tail = head & ~4095ull;		/* "read" up to a page boundary */
	__atomic_store_n(&self->s.pg->aux_tail, tail, __ATOMIC_RELEASE);
	/*
	 * Enough to fill the buffer four times even with the smallest
	 * records: each takes at least an Align slot, and at least 16 bytes
	 * (it has a PC and a Timestamp packet). bytes_per_iter() is an upper
	 * bound, too small a workload when records are far below MaxSize.
	 */
	spe_wl_ldst(wl_buf, WL_WORDS - 1,
		    4 * size * (self->p.min_interval + 1) /
		    (SPE_WL_LDST_INSNS * (uint64_t)(self->e.align > 16 ? self->e.align : 16)) + 1000);
	spe_disable(&self->s);
	spe_session_collect(&self->s);	/* ring records only (flags) */
	head = __atomic_load_n(&self->s.pg->aux_head, __ATOMIC_ACQUIRE);
	TH_LOG("aux_tail %#llx aux_head %#llx, %u truncated", (unsigned long long)tail,
	       (unsigned long long)head, self->s.n_truncated);
	ASSERT_GT(self->s.n_truncated, 0) TH_LOG("the buffer never filled");
	ASSERT_LE(head - tail, size);
	lin = malloc(head - tail);
	ASSERT_NE(NULL, lin);
	for (i = tail; i < head; i++)
		lin[i - tail] = self->s.aux[i % size];
	e2 = self->e;
	e2.first_idx_align = tail;
	spe_validate(lin, head - tail, &e2, &self->st, NULL, NULL);
	free(lin);
	/* padding after the last record's slot */
	i = (self->st.last_end + self->e.align - 1) / self->e.align * self->e.align;
	i = head - tail > i ? head - tail - i : 0;
	TH_LOG("unread: %llu bytes, %llu records, %llu bytes of padding after the last",
	       (unsigned long long)(head - tail), (unsigned long long)self->st.records,
	       (unsigned long long)i);
	EXPECT_VALID(&self->st);
	/*
	 * perf's handle size is CIRC_SPACE(), one byte short of the free
	 * space, and PMBLIMITR_EL1.LIMIT has page granularity: the driver
	 * may not write the last byte below the unread data, so the page
	 * below a page-aligned aux_tail can never be used. What may be
	 * padded is that page (less its last byte) plus what lies between
	 * the limit L (that page's base) and the write pointer P where
	 * profiling may no longer be enabled: RHXSYK needs P <= L - MaxSize
	 * and RHLXGD an Align-aligned P, so the padded P is the first
	 * multiple of Align above L - MaxSize. L is page-aligned and MaxSize
	 * and Align are powers of two up to 2 KB: with Align <= MaxSize
	 * that is L - MaxSize + Align, with Align > MaxSize it is L itself.
	 * Padding is then at most 4095 + MaxSize - Align bytes, or 4095;
	 * anything more is free space thrown away.
	 */
	{
		uint64_t a = self->e.align, m = self->e.max_record_size;
		uint64_t max_pad = 4095 + (m > a ? m - a : 0);

		EXPECT_LE(i, max_pad) TH_LOG("free space padded instead of used: %llu > %llu (MaxSize %llu, Align %llu)",
					      (unsigned long long)i, (unsigned long long)max_pad,
					      (unsigned long long)m, (unsigned long long)a);
	}
}

/* Snapshot: AUX mapped read-only, the data is overwritten in place. */
TEST_F(buf, snapshot)
{
	int pages = 4;
	size_t size = pages * 4096, half = size / 2, head, cur, prev;
	struct spe_stats st2;
	struct spe_expect e2;

	ASSERT_OPEN(spe_session_open(&self->s, &self->a, 0, -1, 4, pages, 1), &self->s);
	ASSERT_EQ(0, spe_enable(&self->s));
	spe_wl_ldst(wl_buf, WL_WORDS - 1, 6 * size / bytes_per_iter(&self->p) + 1000);
	ASSERT_EQ(0, spe_disable(&self->s));
	spe_session_collect(&self->s);
	head = __atomic_load_n(&self->s.pg->aux_head, __ATOMIC_ACQUIRE);
	TH_LOG("aux_head %zu, %u AUX records, flags %#llx", head, self->s.n_aux_recs,
	       (unsigned long long)self->s.aux_flags_or);
	EXPECT_NE(0, self->s.aux_flags_or & PERF_AUX_FLAG_OVERWRITE);
	EXPECT_EQ(0, self->s.n_truncated);
	head %= size;
	cur = head <= half && head ? 0 : half;
	if (head == 0)
		cur = half;	/* stopped exactly at the end */
	prev = cur ? 0 : half;
	/* The current half: from its start to the head. */
	e2 = self->e;
	e2.first_idx_align = cur;
	spe_validate(self->s.aux + cur, (head ? head : size) - cur, &e2, &self->st, NULL, NULL);
	EXPECT_VALID(&self->st);
	/* The previous half, whole: records then padding. */
	e2.first_idx_align = prev;
	spe_validate(self->s.aux + prev, half, &e2, &st2, NULL, NULL);
	EXPECT_VALID(&st2);
	EXPECT_GT(st2.records, 0);
	if (st2.records && self->st.records)
		EXPECT_LT(st2.max_ts, self->st.min_ts) TH_LOG("the previous half is not older");
}

TEST_F(buf, discard)
{
	long long bytes0;

	NEED_FORMAT(&self->p, "discard");
	self->a.config |= CFG_DISCARD;
	bytes0 = spe_counter(&self->p, "bytes");
	ASSERT_OPEN(spe_session_open(&self->s, &self->a, 0, -1, 4, 4, 0), &self->s);
	ASSERT_EQ(0, spe_enable(&self->s));
	spe_wl_ldst(wl_buf, WL_WORDS - 1, 100000);
	spe_disable(&self->s);
	ASSERT_EQ(0, spe_session_collect(&self->s));
	EXPECT_EQ(0, self->s.len) TH_LOG("AUX data in discard mode");
	EXPECT_EQ(0, self->s.aux_rec_bytes);
	EXPECT_EQ(bytes0, spe_counter(&self->p, "bytes"));
}

/* Discard mode needs no AUX buffer: the event runs, and with no buffer
 * nothing is written and no buffer management interrupt is taken. */
TEST_F(buf, discard_without_aux)
{
	long long bytes0, irqs0;

	NEED_FORMAT(&self->p, "discard");
	self->a.config |= CFG_DISCARD;
	self->s.fd = spe_perf_open(&self->a, 0, -1);
	ASSERT_LE(0, self->s.fd) TH_LOG("%s", strerror(errno));
	bytes0 = spe_counter(&self->p, "bytes");
	irqs0 = spe_counter(&self->p, "irqs");
	EXPECT_EQ(0, spe_enable(&self->s));
	spe_wl_ldst(wl_buf, WL_WORDS - 1, 10000);
	EXPECT_EQ(0, spe_disable(&self->s));
	EXPECT_EQ(bytes0, spe_counter(&self->p, "bytes"));
	EXPECT_EQ(irqs0, spe_counter(&self->p, "irqs"));
}

TEST_F(buf, smallest_buffer)
{
	ASSERT_OPEN(spe_session_open(&self->s, &self->a, 0, -1, 1, 2, 0), &self->s);
	ASSERT_EQ(0, spe_enable(&self->s));
	for (int i = 0; i < 16; i++) {
		spe_wl_ldst(wl_buf, WL_WORDS - 1, 2000);
		ASSERT_EQ(0, spe_session_collect(&self->s));
	}
	spe_disable(&self->s);
	spe_session_collect(&self->s);
	spe_session_validate(&self->s, &self->e, &self->st, NULL, NULL);
	EXPECT_VALID(&self->st);
	EXPECT_GT(self->st.in_ldst_loop, 0);
}

TEST_F(buf, large_buffer)
{
	uint64_t exp;

	ASSERT_OPEN(spe_session_open(&self->s, &self->a, 0, -1, 8, 1024, 0), &self->s);
	ASSERT_EQ(0, spe_enable(&self->s));
	spe_wl_ldst(wl_buf, WL_WORDS - 1, 300000);
	spe_disable(&self->s);
	ASSERT_EQ(0, spe_session_collect(&self->s));
	spe_session_validate(&self->s, &self->e, &self->st, NULL, NULL);
	EXPECT_VALID(&self->st);
	EXPECT_EQ(0, self->s.n_truncated);
	exp = SPE_WL_LDST_INSNS * 300000ull / (self->p.min_interval + 1);
	EXPECT_NEAR_COUNT(self->st.in_ldst_loop, exp, 10, 3);
}

TEST_F(buf, open_close_cycles)
{
	int i;

	for (i = 0; i < 40; i++) {
		struct spe_session s;

		ASSERT_EQ(0, spe_session_open(&s, &self->a, 0, -1, 1, 2, 0))
			TH_LOG("cycle %d: %s", i, strerror(errno));
		ASSERT_EQ(0, spe_enable(&s));
		spe_wl_ldst(wl_buf, WL_WORDS - 1, 500);
		spe_disable(&s);
		spe_session_collect(&s);
		spe_session_validate(&s, &self->e, &self->st, NULL, NULL);
		EXPECT_VALID(&self->st);
		EXPECT_GT(s.len, 0) TH_LOG("cycle %d: no data", i);
		spe_session_close(&s);
	}
}

/* Records only while enabled: the branchy loop runs while disabled. */
TEST_F(buf, enable_disable_toggle)
{
	int i;

	ASSERT_OPEN(spe_session_open(&self->s, &self->a, 0, -1, 4, 64, 0), &self->s);
	for (i = 0; i < 20; i++) {
		ASSERT_EQ(0, spe_enable(&self->s));
		spe_wl_ldst(wl_buf, WL_WORDS - 1, 3000);
		ASSERT_EQ(0, spe_disable(&self->s));
		spe_wl_branch(3000);
		ASSERT_EQ(0, spe_session_collect(&self->s));
	}
	spe_session_validate(&self->s, &self->e, &self->st, NULL, NULL);
	EXPECT_VALID(&self->st);
	EXPECT_EQ(0, self->st.in_branch) TH_LOG("records from code run while disabled");
	/* The interval counter resumes where it stopped (3.1.3). */
	EXPECT_NEAR_COUNT(self->st.in_ldst_loop,
			  SPE_WL_LDST_INSNS * 60000.0 / (self->p.min_interval + 1), 10, 3);
}

/* ---- faults injected by the emulator (separate boots) ---- */

/*
 * A fatal syndrome first seen by pmu->stop (the fault-stop boot: the
 * first record written on the machine faults). The session takes one
 * sample, whose record stays in flight in the strict emulator until the
 * next PSB CSYNC: the drain of the schedule-out when the task sleeps.
 * The fault is found there, before any PMBIRQ, and must end the event as
 * the interrupt handler would: after the task wakes up and runs on, the
 * event is off (time_enabled stands still) and records nothing.
 */
TEST_F(buf, injected_fault_at_schedule_out)
{
	const char *f = getenv("SPE_FAULT");
	long long faults0 = spe_counter(&self->p, "faults");
	struct read_times r1, r2;
	size_t len0;

	if (!f || strcmp(f, "s1:1"))
		SKIP(return, "the first record does not fault in this boot (SPE_FAULT)");
	self->a.sample_period = 65536;
	self->a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	ASSERT_OPEN(spe_session_open(&self->s, &self->a, 0, -1, 4, 16, 0), &self->s);
	ASSERT_EQ(0, spe_enable(&self->s));
	/* 1.5 intervals: exactly one sample. */
	spe_wl_ldst(wl_buf, WL_WORDS - 1, 65536 * 3 / 2 / SPE_WL_LDST_INSNS);
	usleep(20000);
	ASSERT_EQ(0, spe_session_collect(&self->s));
	len0 = self->s.len;
	ASSERT_EQ(sizeof(r1), read(self->s.fd, &r1, sizeof(r1)));
	spe_wl_ldst(wl_buf, WL_WORDS - 1, 200000);
	ASSERT_EQ(sizeof(r2), read(self->s.fd, &r2, sizeof(r2)));
	ASSERT_EQ(0, spe_session_collect(&self->s));
	TH_LOG("faults %lld, AUX records %u (flags %#llx); after waking: time_enabled %llu -> %llu ns, %zu bytes",
	       spe_counter(&self->p, "faults") - faults0, self->s.n_aux_recs,
	       (unsigned long long)self->s.aux_flags_or, (unsigned long long)r1.enabled,
	       (unsigned long long)r2.enabled, self->s.len - len0);
	if (faults0 >= 0)
		EXPECT_EQ(1, spe_counter(&self->p, "faults") - faults0);
	EXPECT_NE(0, self->s.aux_flags_or & PERF_AUX_FLAG_TRUNCATED);
	EXPECT_EQ(r1.enabled, r2.enabled) TH_LOG("the event stopped by the fault is still enabled");
	EXPECT_EQ(len0, self->s.len) TH_LOG("records written after the fault");
}

TEST_F(buf, injected_fault_reported)
{
	const char *f = getenv("SPE_FAULT");
	long long faults0, ea0, dl0, tr0;
	int i;

	if (!f || !strcmp(f, "none"))
		SKIP(return, "no fault injected in this boot (SPE_FAULT)");
	faults0 = spe_counter(&self->p, "faults");
	ea0 = spe_counter(&self->p, "ext_aborts");
	dl0 = spe_counter(&self->p, "data_loss");
	tr0 = spe_counter(&self->p, "truncated");
	self->a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	ASSERT_OPEN(spe_session_open(&self->s, &self->a, 0, -1, 4, 16, 0), &self->s);
	ASSERT_EQ(0, spe_enable(&self->s));
	for (i = 0; i < 8; i++) {
		spe_wl_ldst(wl_buf, WL_WORDS - 1, 2000);
		spe_session_collect(&self->s);
	}
	/*
	 * Every injected fault stops the session, and the event is turned
	 * off, here on CPU 0 where perf core's own request does nothing:
	 * time_enabled stops advancing.
	 */
	{
		struct read_times r1, r2;

		ASSERT_EQ(sizeof(r1), read(self->s.fd, &r1, sizeof(r1)));
		spe_wl_ldst(wl_buf, WL_WORDS - 1, 200000);
		ASSERT_EQ(sizeof(r2), read(self->s.fd, &r2, sizeof(r2)));
		TH_LOG("after the fault: time_enabled %llu -> %llu ns",
		       (unsigned long long)r1.enabled, (unsigned long long)r2.enabled);
		EXPECT_EQ(r1.enabled, r2.enabled) TH_LOG("the event stopped by the fault is still enabled");
	}
	spe_disable(&self->s);
	spe_session_collect(&self->s);
	TH_LOG("%s: %zu bytes, AUX records %u flags %#llx; faults %lld ext_aborts %lld data_loss %lld truncated %lld",
	       f, self->s.len, self->s.n_aux_recs, (unsigned long long)self->s.aux_flags_or,
	       spe_counter(&self->p, "faults") - faults0, spe_counter(&self->p, "ext_aborts") - ea0,
	       spe_counter(&self->p, "data_loss") - dl0, spe_counter(&self->p, "truncated") - tr0);
	/* Every fault stops the session: TRUNCATED (driver.rst table). */
	EXPECT_GT(self->s.n_truncated, 0);
	if (!strncmp(f, "s1:", 3)) {
		EXPECT_EQ(1, spe_counter(&self->p, "faults") - faults0);
	} else if (!strncmp(f, "dl:", 3)) {
		EXPECT_EQ(1, spe_counter(&self->p, "faults") - faults0);
		EXPECT_EQ(1, spe_counter(&self->p, "data_loss") - dl0);
		EXPECT_NE(0, self->s.aux_flags_or & PERF_AUX_FLAG_PARTIAL);
	} else if (!strncmp(f, "ea:", 3)) {
		EXPECT_EQ(1, spe_counter(&self->p, "ext_aborts") - ea0);
		EXPECT_NE(0, self->s.aux_flags_or & PERF_AUX_FLAG_PARTIAL);
		/* 3.5.4: after an external abort nothing is handed over. */
		EXPECT_EQ(0, self->s.partial_bytes);
	}
	EXPECT_GE(spe_counter(&self->p, "truncated") - tr0, 1);
	/* The data handed over before the PARTIAL transaction is whole. */
	if (self->s.n_partial) {
		size_t n = self->s.partial_off - self->s.first_idx;

		ASSERT_LE(n, self->s.len);
		self->s.len = n;
	}
	spe_session_validate(&self->s, &self->e, &self->st, NULL, NULL);
	EXPECT_VALID(&self->st);
	spe_session_close(&self->s);

	/* The next session works (the fault fires once). */
	ASSERT_OPEN(spe_session_open(&self->s, &self->a, 0, -1, 4, 16, 0), &self->s);
	ASSERT_EQ(0, spe_enable(&self->s));
	spe_wl_ldst(wl_buf, WL_WORDS - 1, 5000);
	spe_disable(&self->s);
	spe_session_collect(&self->s);
	spe_session_validate(&self->s, &self->e, &self->st, NULL, NULL);
	EXPECT_VALID(&self->st);
	EXPECT_EQ(0, self->s.n_truncated);
	EXPECT_GT(self->st.in_ldst_loop, 10);
}

/* ---- privilege ---- */

#ifndef CAP_PERFMON
#define CAP_PERFMON	38
#endif

/* Become uid/gid 65534, keeping only CAP_PERFMON when @perfmon. */
static int drop_privileges(int perfmon)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];

	if (perfmon && prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0))
		return -1;
	if (setgid(65534) || setuid(65534))
		return -1;
	if (!perfmon)
		return 0;
	memset(d, 0, sizeof(d));
	d[CAP_PERFMON / 32].effective = 1u << (CAP_PERFMON % 32);
	d[CAP_PERFMON / 32].permitted = 1u << (CAP_PERFMON % 32);
	return syscall(SYS_capset, &h, d);
}

/*
 * In a child that became uid 65534 (with CAP_PERFMON only when @perfmon):
 * open with config, exclude_kernel; the errno on failure. On success,
 * capture and return 0x80 | Context packets present (bit 0) | a record
 * failed validation or the workload was not seen (bit 1).
 */
static int unpriv_try_caps(const struct spe_pmu_info *p, uint64_t config, int excl_kernel,
			   pid_t tpid, int cpu, int perfmon)
{
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		struct perf_event_attr a;
		struct spe_session s;
		struct spe_expect e;
		struct spe_stats st;
		struct timespec t0, t, gap;
		unsigned int n_tr = 0;
		int ret = 0;

		if (drop_privileges(perfmon))
			_exit(255);
		/*
		 * With the kernel sampled, a period 16 times the minimum: the
		 * kernel's own work in this task's context (a debug kernel's
		 * KASAN and lockdep, interrupts) then takes 16 times fewer
		 * records, and the 64 pages hold the loop's too.
		 */
		spe_attr_init(&a, p, config | CFG_TS,
			      excl_kernel ? p->min_interval : 16 * p->min_interval);
		a.exclude_kernel = excl_kernel;
		if (spe_session_open(&s, &a, tpid, cpu, 4, 64, 0))
			_exit(errno & 0xff);
		spe_expect_default(&e, p);
		e.ts = 1;
		e.el_user_only = excl_kernel;
		e.buf = wl_buf;
		e.buf_len = sizeof(wl_buf);
		if (tpid == -1) {
			/*
			 * Per-CPU: other tasks' EL0 records are in it too, at
			 * PCs another static binary's text may share; those
			 * whose Context packet names another PID are not ours.
			 */
			e.other_tasks = 1;
			e.ctx_pid = getpid();
		}
		/*
		 * A reader that keeps up, as perf record is. With kernel
		 * sampling, a debug kernel's own work right after the enable
		 * (KASAN and lockdep: about 1M operations) fills the 64
		 * pages before the workload's first sample, and the driver
		 * pauses until this reads. On a loaded host the timer ticks
		 * of a starved vCPU alone (sampled in this task's context)
		 * refill it within a few chunks. The workload runs in short
		 * chunks, each followed by a read, until 100 ms of wall time
		 * passed since the last gap (the driver looks for room at
		 * least every 8 ms), 5 s at most. Validation comes after
		 * the disable: profiled, it would fill the buffer itself.
		 */
		clock_gettime(CLOCK_MONOTONIC, &t0);
		gap = t0;
		spe_enable(&s);
		do {
			spe_wl_ldst(wl_buf, WL_WORDS - 1, 3000);
			spe_session_collect(&s);
			clock_gettime(CLOCK_MONOTONIC, &t);
			if (s.n_truncated != n_tr) {
				n_tr = s.n_truncated;
				gap = t;
			}
		} while (ts_ns(&gap, &t) < 100000000ll && ts_ns(&t0, &t) < 5000000000ll);
		spe_disable(&s);
		spe_session_collect(&s);
		spe_session_validate(&s, &e, &st, NULL, NULL);
		if (st.with_ctx)
			ret |= 1;
		if (st.violations || !st.in_ldst_loop) {
			/* The harness output of the parent shows it. */
			fprintf(stderr, "# uid %d, config %#llx, exclude_kernel %d: %u violations (first: %s), %llu loop records; %llu records (EL0 %llu, kernel %llu), %zu bytes, %u TRUNCATED\n",
				(int)getuid(), (unsigned long long)config, excl_kernel,
				st.violations, st.violations ? st.first : "-",
				(unsigned long long)st.in_ldst_loop,
				(unsigned long long)st.records, (unsigned long long)st.el0,
				(unsigned long long)st.el_kernel, s.len, s.n_truncated);
			ret |= 2;
		}
		_exit(0x80 | ret);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static int unpriv_try_cpu(const struct spe_pmu_info *p, uint64_t config, int excl_kernel,
			  pid_t tpid, int cpu)
{
	return unpriv_try_caps(p, config, excl_kernel, tpid, cpu, 0);
}

static int unpriv_try(const struct spe_pmu_info *p, uint64_t config, int excl_kernel)
{
	return unpriv_try_cpu(p, config, excl_kernel, 0, -1);
}

#define OK_NOCTX	0x80
#define OK_CTX		0x81

TEST_F(buf, unprivileged_paranoid_levels)
{
	int r, ctx = (int)spe_env_long("SPE_EXP_PID_CTX", -1);
	int pk = (int)spe_env_long("SPE_EXP_PARANOID_KERNEL", 1);

	if (getuid() != 0)
		SKIP(return, "needs root to change perf_event_paranoid");
	self->paranoid = read_paranoid();
	ASSERT_EQ(0, write_paranoid(2));
	/* 2: own user space only; no kernel data (PA, PCT, context). */
	r = unpriv_try(&self->p, 0, 1);
	EXPECT_EQ(OK_NOCTX, r) TH_LOG("paranoid 2, user only: %#x", r);
	EXPECT_EQ(EACCES, unpriv_try(&self->p, 0, 0)) TH_LOG("kernel sampling at paranoid 2");
	EXPECT_EQ(EACCES, unpriv_try(&self->p, CFG_PA, 1)) TH_LOG("pa_enable at paranoid 2");
	EXPECT_EQ(EACCES, unpriv_try(&self->p, CFG_PCT, 1)) TH_LOG("pct_enable at paranoid 2");
	/* 1: kernel allowed, and with it PA and context (from 6.8, where the
	 * driver can use perf_allow_kernel(); before, CAP_PERFMON only). */
	ASSERT_EQ(0, write_paranoid(1));
	r = unpriv_try(&self->p, 0, 1);
	if (pk) {
		EXPECT_EQ(ctx == 1 ? OK_CTX : OK_NOCTX, r) TH_LOG("paranoid 1: %#x", r);
		r = unpriv_try(&self->p, CFG_PA, 1);
		EXPECT_TRUE(r & 0x80) TH_LOG("pa_enable at paranoid 1: %d", r);
		EXPECT_EQ(0, r & 2);
	} else {
		EXPECT_EQ(OK_NOCTX, r) TH_LOG("paranoid 1, no CAP_PERFMON: %#x", r);
		EXPECT_EQ(EACCES, unpriv_try(&self->p, CFG_PA, 1));
	}
	r = unpriv_try(&self->p, 0, 0);
	EXPECT_TRUE(r & 0x80) TH_LOG("kernel sampling at paranoid 1: %d", r);
	/* CPU-wide events need paranoid <= 0. */
	EXPECT_EQ(EACCES, unpriv_try_cpu(&self->p, 0, 1, -1, 0)) TH_LOG("per-CPU at paranoid 1");
	ASSERT_EQ(0, write_paranoid(0));
	r = unpriv_try_cpu(&self->p, 0, 1, -1, 0);
	EXPECT_TRUE(r & 0x80) TH_LOG("per-CPU at paranoid 0: %d", r);
}

/*
 * The errno of an unprivileged open of a user-only software event (0 if
 * it opens), with CAP_PERFMON when @perfmon: the reference for what the
 * perf core allows at all at the current perf_event_paranoid.
 */
static int unpriv_sw_event(int perfmon)
{
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		struct perf_event_attr a;
		int fd;

		if (drop_privileges(perfmon))
			_exit(255);
		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.type = PERF_TYPE_SOFTWARE;
		a.config = PERF_COUNT_SW_TASK_CLOCK;
		a.exclude_kernel = 1;
		a.exclude_hv = 1;
		fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
		_exit(fd < 0 ? errno & 0x7f : 0);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/*
 * -1: no restriction: kernel sampling, CPU-wide events and (where the
 * driver can ask perf_allow_kernel(), from 6.8) PA and context too.
 * 3 (Debian's extension; mainline treats it as 2): the SPE PMU is refused
 * exactly when any unprivileged perf_event_open is.
 */
TEST_F(buf, unprivileged_paranoid_extremes)
{
	int r, ref, ctx = (int)spe_env_long("SPE_EXP_PID_CTX", -1);
	int pk = (int)spe_env_long("SPE_EXP_PARANOID_KERNEL", 1);

	if (getuid() != 0)
		SKIP(return, "needs root to change perf_event_paranoid");
	self->paranoid = read_paranoid();
	ASSERT_EQ(0, write_paranoid(-1));
	r = unpriv_try(&self->p, 0, 0);
	EXPECT_TRUE(r & 0x80) TH_LOG("kernel sampling at paranoid -1: %d", r);
	EXPECT_EQ(0, r & 2);
	if (pk && ctx >= 0) {
		EXPECT_EQ(ctx == 1 ? OK_CTX : OK_NOCTX, r) TH_LOG("paranoid -1: %#x", r);
	}
	r = unpriv_try_cpu(&self->p, 0, 0, -1, 0);
	EXPECT_TRUE(r & 0x80) TH_LOG("per-CPU with kernel at paranoid -1: %d", r);
	r = unpriv_try(&self->p, CFG_PA | CFG_PCT, 1);
	if (pk) {
		EXPECT_TRUE(r & 0x80) TH_LOG("pa_enable,pct_enable at paranoid -1: %d", r);
	} else {
		EXPECT_EQ(EACCES, r) TH_LOG("pa/pct need CAP_PERFMON before 6.8: %d", r);
	}

	ASSERT_EQ(0, write_paranoid(3));
	ref = unpriv_sw_event(0);
	ASSERT_GE(ref, 0);
	r = unpriv_try(&self->p, 0, 1);
	if (ref == EACCES) {
		EXPECT_EQ(EACCES, r) TH_LOG("paranoid 3 refuses everything: %#x", r);
	} else {
		EXPECT_EQ(OK_NOCTX, r) TH_LOG("paranoid 3 acts as 2 here: %#x", r);
	}
	EXPECT_EQ(EACCES, unpriv_try(&self->p, 0, 0)) TH_LOG("kernel sampling at paranoid 3");
	TH_LOG("paranoid 3: a user-only software event gives %d", ref);
}

/*
 * CAP_PERFMON lifts every restriction of perf_event_paranoid 2: kernel
 * sampling, CPU-wide events, PA, PCT and context packets. At Debian's
 * level 3 the perf core wants CAP_SYS_ADMIN for any event; the SPE PMU
 * then follows the reference software event.
 */
TEST_F(buf, cap_perfmon_is_privileged)
{
	int r, lvl, ctx = (int)spe_env_long("SPE_EXP_PID_CTX", -1);

	if (getuid() != 0)
		SKIP(return, "needs root to change perf_event_paranoid and grant CAP_PERFMON");
	self->paranoid = read_paranoid();
	for (lvl = 2; lvl <= 3; lvl++) {
		ASSERT_EQ(0, write_paranoid(lvl));
		if (lvl == 3) {
			int ref = unpriv_sw_event(1);

			ASSERT_GE(ref, 0);
			if (ref) {
				EXPECT_EQ(ref, unpriv_try_caps(&self->p, 0, 1, 0, -1, 1));
				TH_LOG("paranoid 3: CAP_PERFMON is not enough here (errno %d)", ref);
				break;
			}
		}
		r = unpriv_try_caps(&self->p, 0, 0, 0, -1, 1);
		EXPECT_TRUE(r & 0x80) TH_LOG("CAP_PERFMON, kernel sampling, paranoid %d: %d", lvl, r);
		EXPECT_EQ(0, r & 2);
		if (ctx >= 0) {
			EXPECT_EQ(ctx == 1 ? OK_CTX : OK_NOCTX, r) TH_LOG("paranoid %d: %#x", lvl, r);
		}
		r = unpriv_try_caps(&self->p, CFG_PA | CFG_PCT, 1, -1, 0, 1);
		EXPECT_TRUE(r & 0x80) TH_LOG("CAP_PERFMON, per-CPU pa/pct, paranoid %d: %d", lvl, r);
		EXPECT_EQ(0, r & 2);
	}
}

/* ---- CPU hotplug ---- */

static void *va_slice(int i)
{
	return wl_buf + i * (WL_WORDS / 4);
}

static void slice_hook(const struct spe_record *r, void *arg, struct spe_stats *st)
{
	uint64_t *seen = arg, va;
	int i;

	if (!(r->present & SPE_REC_DATA_VA))
		return;
	va = spe_addr_va_sext(r->addr[SPE_ADDR_IDX_DATA_VA]) & 0x00ffffffffffffffull;
	for (i = 0; i < 3; i++)
		if (va >= (uint64_t)(uintptr_t)va_slice(i) &&
		    va < (uint64_t)(uintptr_t)va_slice(i + 1))
			seen[i]++;
}

TEST_F(buf, hotplug_per_task)
{
	uint64_t seen[3] = { 0 };
	/*
	 * The buffer is read only at the end: the three slices' records
	 * (~35 KB each in 64-byte slots at the default interval) must fit
	 * it, so it holds 4096 record slots of the probed MaxSize/Align
	 * (64 pages at 64 bytes; 512 at 512).
	 */
	int pages = 64 * (rec_slot(&self->p) > 64 ? rec_slot(&self->p) / 64 : 1);
	uint64_t iters = 20000;

	if (sysconf(_SC_NPROCESSORS_CONF) < 2 || access("/sys/devices/system/cpu/cpu1/online", W_OK))
		SKIP(return, "CPU1 cannot be taken offline");
	ASSERT_OPEN(spe_session_open(&self->s, &self->a, 0, -1, 4, pages, 0), &self->s);
	ASSERT_EQ(0, spe_pin_cpu(1));
	ASSERT_EQ(0, spe_enable(&self->s));
	spe_wl_ldst(va_slice(0), WL_WORDS / 4 - 1, iters);
	/* offline our own CPU: the task moves, the event follows it */
	ASSERT_EQ(0, spe_pin_cpu(0));
	ASSERT_EQ(0, spe_set_cpu_online(1, 0));
	spe_wl_ldst(va_slice(1), WL_WORDS / 4 - 1, iters);
	ASSERT_EQ(0, spe_set_cpu_online(1, 1));
	ASSERT_EQ(0, spe_pin_cpu(1));
	spe_wl_ldst(va_slice(2), WL_WORDS / 4 - 1, iters);
	spe_disable(&self->s);
	ASSERT_EQ(0, spe_session_collect(&self->s));
	spe_session_validate(&self->s, &self->e, &self->st, slice_hook, seen);
	EXPECT_VALID(&self->st);
	TH_LOG("records per slice: %llu %llu %llu", (unsigned long long)seen[0],
	       (unsigned long long)seen[1], (unsigned long long)seen[2]);
	EXPECT_GT(seen[0], 10);
	EXPECT_GT(seen[1], 10);
	EXPECT_GT(seen[2], 10);
	EXPECT_EQ(1, spe_cpu_online(1));
}

/* A new per-CPU event on CPU1 (after it came back) records. */
static void cpu1_event_works(struct __test_metadata *_metadata, FIXTURE_DATA(buf) *self)
{
	ASSERT_OPEN(spe_session_open(&self->s, &self->a, -1, 1, 4, 64, 0), &self->s);
	ASSERT_EQ(0, spe_pin_cpu(1));
	ASSERT_EQ(0, spe_enable(&self->s));
	spe_wl_ldst(wl_buf, WL_WORDS - 1, 20000);
	spe_disable(&self->s);
	spe_session_collect(&self->s);
	spe_session_validate(&self->s, &self->e, &self->st, NULL, NULL);
	EXPECT_VALID(&self->st);
	EXPECT_GT(self->st.in_ldst_loop, 10);
}

TEST_F(buf, hotplug_per_cpu)
{
	if (sysconf(_SC_NPROCESSORS_CONF) < 2 || access("/sys/devices/system/cpu/cpu1/online", W_OK))
		SKIP(return, "CPU1 cannot be taken offline");
	/* A per-CPU event on CPU1 while CPU1 goes away and comes back. */
	self->e.other_tasks = 1;
	self->e.ctx_pid = getpid();
	ASSERT_OPEN(spe_session_open(&self->s, &self->a, -1, 1, 4, 64, 0), &self->s);
	ASSERT_EQ(0, spe_pin_cpu(1));
	ASSERT_EQ(0, spe_enable(&self->s));
	spe_wl_ldst(wl_buf, WL_WORDS - 1, 20000);
	ASSERT_EQ(0, spe_pin_cpu(0));
	ASSERT_EQ(0, spe_set_cpu_online(1, 0));
	spe_session_collect(&self->s);
	ASSERT_EQ(0, spe_set_cpu_online(1, 1));
	spe_disable(&self->s);
	spe_session_collect(&self->s);
	spe_session_validate(&self->s, &self->e, &self->st, NULL, NULL);
	EXPECT_VALID(&self->st);
	EXPECT_GT(self->st.in_ldst_loop, 10) TH_LOG("data recorded before the CPU went offline");
	spe_session_close(&self->s);
	cpu1_event_works(_metadata, self);
}

/*
 * CPU1 goes offline while its CPU-wide event is paused for a full buffer
 * (the driver's resume timer armed): the hotplug teardown, which runs
 * before perf core's, stops the event as pmu->stop does (the timer
 * cancelled on its own CPU) and hands over the data; the kernel log stays
 * clean (checked by the runner) and a new event on the CPU works.
 */
TEST_F(buf, hotplug_while_paused)
{
	const int pages = 4;
	uint64_t iters = 32 * pages * 4096 / bytes_per_iter(&self->p) + 1;
	long long tr0 = spe_counter(&self->p, "truncated");

	if (sysconf(_SC_NPROCESSORS_CONF) < 2 || access("/sys/devices/system/cpu/cpu1/online", W_OK))
		SKIP(return, "CPU1 cannot be taken offline");
	if (iters > 4000000)
		iters = 4000000;
	self->e.other_tasks = 1;
	self->e.ctx_pid = getpid();
	ASSERT_OPEN(spe_session_open(&self->s, &self->a, -1, 1, 4, pages, 0), &self->s);
	ASSERT_EQ(0, spe_pin_cpu(1));
	ASSERT_EQ(0, spe_enable(&self->s));
	spe_wl_ldst(wl_buf, WL_WORDS - 1, iters);
	ASSERT_GT(spe_counter(&self->p, "truncated") - tr0, 0) TH_LOG("the buffer never filled");
	ASSERT_EQ(0, spe_pin_cpu(0));
	ASSERT_EQ(0, spe_set_cpu_online(1, 0));
	ASSERT_EQ(0, spe_session_collect(&self->s));
	ASSERT_EQ(0, spe_set_cpu_online(1, 1));
	spe_disable(&self->s);
	spe_session_collect(&self->s);
	spe_session_validate(&self->s, &self->e, &self->st, NULL, NULL);
	EXPECT_VALID(&self->st);
	EXPECT_GT(self->s.len, 4096);
	spe_session_close(&self->s);
	cpu1_event_works(_metadata, self);
}

TEST_HARNESS_MAIN
