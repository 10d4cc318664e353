// SPDX-License-Identifier: GPL-2.0
/*
 * Observability: a libbpf program (spe_observe.bpf.c, skeleton generated
 * by bpftool, built with clang -target bpf) attached to the driver's
 * tracepoints counts buffer management interrupts, AUX transactions and
 * buffer programming while a session fills a small AUX area. The counts
 * must equal the driver's counters/ and what user space itself saw in
 * PERF_RECORD_AUX records and AUX bytes.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/syscall.h>
#include <linux/bpf.h>
#include <bpf/libbpf.h>
#include "spe_test.h"
#include "spe_observe.h"
#include "spe_observe.skel.h"

uint64_t wl_buf[WL_WORDS];

#define TRACEFS "/sys/kernel/tracing/events/arm_spe_perf"

static const char *const ctr_names[] = {
	"irqs", "spurious_irqs", "aux_records", "bytes", "truncated",
};
#define NCTR (sizeof(ctr_names) / sizeof(ctr_names[0]))

static void read_counters(const struct spe_pmu_info *p, long long *v)
{
	unsigned int i;

	for (i = 0; i < NCTR; i++)
		v[i] = spe_counter(p, ctr_names[i]);
}

/* "field:TYPE NAME;\toffset:O;\tsize:S;" of a tracepoint's format file. */
static int field_layout(const char *event, const char *name, int *off, int *size)
{
	char path[256], line[256], want[64];
	FILE *f;
	int ret = -1;

	snprintf(path, sizeof(path), TRACEFS "/%s/format", event);
	snprintf(want, sizeof(want), " %s;", name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *o = strstr(line, "offset:"), *s = strstr(line, "size:");

		if (!strstr(line, "field:") || !strstr(line, want) || !o || !s)
			continue;
		*off = atoi(o + 7);
		*size = atoi(s + 5);
		ret = 0;
		break;
	}
	fclose(f);
	return ret;
}

/* BPF unavailable in this kernel: the bpf() syscall does not exist. */
static int no_bpf_syscall(void)
{
	return syscall(__NR_bpf, -1, NULL, 0) < 0 && errno == ENOSYS;
}

/* The BPF program's counts, all slots. */
static int read_bpf_counts(struct spe_observe *skel, uint64_t *v)
{
	uint32_t i;

	for (i = 0; i < OBS_NR; i++)
		if (bpf_map__lookup_elem(skel->maps.counts, &i, sizeof(i), &v[i], sizeof(v[i]), 0))
			return -1;
	return 0;
}

FIXTURE(obs) {
	struct spe_pmu_info p;
	struct spe_session s;
	struct spe_observe *skel;
};

FIXTURE_SETUP(obs)
{
	memset(&self->s, 0, sizeof(self->s));
	self->s.fd = -1;
	self->skel = NULL;
	NEED_PMU(&self->p);
	if (no_bpf_syscall())
		SKIP(return, "kernel without the bpf() system call (CONFIG_BPF_SYSCALL)");
	if (access(TRACEFS "/spe_irq/id", R_OK))
		SKIP(return, "no tracefs or no arm_spe_perf tracepoints");
	spe_pin_cpu(0);
}

FIXTURE_TEARDOWN(obs)
{
	spe_session_close(&self->s);
	if (self->skel)
		spe_observe__destroy(self->skel);
}

/* The BPF program's context structs match the tracepoints' layout. */
TEST_F(obs, tracepoint_layout)
{
	int off, size;

	ASSERT_EQ(0, field_layout("spe_aux_output", "cpu", &off, &size));
	EXPECT_EQ(8, off);
	EXPECT_EQ(4, size);
	ASSERT_EQ(0, field_layout("spe_aux_output", "bytes", &off, &size));
	EXPECT_EQ(16, off);
	EXPECT_EQ(8, size);
	ASSERT_EQ(0, field_layout("spe_aux_output", "flags", &off, &size));
	EXPECT_EQ(24, off);
	EXPECT_EQ(4, size);
}

/*
 * A 4-page AUX area at the minimum interval fills many times: each fill
 * is an interrupt and a transaction. BPF, the counters and user space
 * must tell the same story.
 */
TEST_F(obs, bpf_counts_match_counters_and_user_space)
{
	struct perf_event_attr a;
	long long c0[NCTR], c1[NCTR];
	uint64_t b[OBS_NR];
	int i;

	self->skel = spe_observe__open_and_load();
	ASSERT_NE(NULL, self->skel) TH_LOG("loading the BPF object: %s", strerror(errno));
	ASSERT_EQ(0, spe_observe__attach(self->skel)) TH_LOG("attach: %s", strerror(errno));

	spe_attr_init(&a, &self->p, CFG_TS, self->p.min_interval);
	read_counters(&self->p, c0);
	ASSERT_OPEN(spe_session_open(&self->s, &a, 0, -1, 16, 4, 0), &self->s);
	ASSERT_EQ(0, spe_enable(&self->s));
	/* Slices of ~70 records (4.4 KiB), drained after each. */
	for (i = 0; i < 64; i++) {
		spe_wl_ldst(wl_buf, WL_WORDS - 1, 2500);
		spe_session_collect(&self->s);
	}
	ASSERT_EQ(0, spe_disable(&self->s));
	ASSERT_EQ(0, spe_session_collect(&self->s));
	read_counters(&self->p, c1);
	spe_observe__detach(self->skel);
	ASSERT_EQ(0, read_bpf_counts(self->skel, b)) TH_LOG("reading the map: %s", strerror(errno));

	TH_LOG("bpf: irqs %llu aux %llu (visible %llu, %llu bytes, %llu truncated) programs %llu; user: %u AUX records, %llu bytes",
	       (unsigned long long)b[OBS_IRQS],
	       (unsigned long long)b[OBS_AUX_OUTPUTS],
	       (unsigned long long)b[OBS_AUX_VISIBLE],
	       (unsigned long long)b[OBS_AUX_BYTES],
	       (unsigned long long)b[OBS_AUX_TRUNCATED],
	       (unsigned long long)b[OBS_PROGRAMS],
	       self->s.n_aux_recs, (unsigned long long)self->s.aux_rec_bytes);
	EXPECT_GT(b[OBS_IRQS], 2) TH_LOG("the small buffer should have filled");
	EXPECT_EQ((long long)b[OBS_IRQS], (c1[0] - c0[0]) + (c1[1] - c0[1]));
	EXPECT_EQ((long long)b[OBS_AUX_OUTPUTS], c1[2] - c0[2]);
	EXPECT_EQ((long long)b[OBS_AUX_BYTES], c1[3] - c0[3]);
	EXPECT_EQ((long long)b[OBS_AUX_TRUNCATED], c1[4] - c0[4]);
	EXPECT_EQ(b[OBS_AUX_VISIBLE], self->s.n_aux_recs);
	EXPECT_EQ(b[OBS_AUX_BYTES], self->s.aux_rec_bytes);
	EXPECT_EQ(b[OBS_AUX_TRUNCATED], self->s.n_truncated);
	/* The head also moves over padding that no record reports. */
	EXPECT_GE(self->s.len, self->s.aux_rec_bytes);
	/*
	 * A transaction either programs the buffer and ends with one output,
	 * or finds no room and ends at once, truncated, without programming.
	 */
	EXPECT_LE(b[OBS_PROGRAMS], b[OBS_AUX_OUTPUTS]);
	EXPECT_GE(b[OBS_PROGRAMS],
		  b[OBS_AUX_OUTPUTS] - b[OBS_AUX_TRUNCATED]);
}

TEST_HARNESS_MAIN
