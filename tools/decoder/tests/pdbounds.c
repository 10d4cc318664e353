// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The bounds of the perf.data reader (perf_data.c) on crafted files, each
 * built here byte by byte from perf's perf.data-file-format.txt and the
 * perf_event ABI, in a heap buffer of exactly its size (so that ASan, in
 * tests/check.sh's sanitizer run, sees any read past its end):
 *   - a COMM record's name longer than the 16 bytes a comm has is cut to
 *     15 and a NUL;
 *   - a record whose size is 0, or below its 8-byte header, is refused
 *     with a reason (not looped on; an alarm turns a loop into a failure);
 *   - an MMAP2 record whose file name has no NUL inside the record is
 *     ignored;
 *   - CPU numbers outside the reader's table (5000, -256) in ITRACE_START
 *     and AUXTRACE records change nothing;
 *   - a record too short for the sample_id trailer its attributes promise
 *     has no cpu or tid (-1), and no bytes before it are read as one;
 *   - a section or AUX data beyond the file is refused.
 *
 * Output: "PASS: pdbounds:name" / "FAIL: pdbounds:name: why" per case.
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../perf_data.h"

static int nfail;
static const char *current;

#define CHECK(c)							\
	do {								\
		if (!(c)) {						\
			printf("FAIL: pdbounds:%s: %s (line %d)\n", current, #c, __LINE__); \
			nfail++;					\
			return;						\
		}							\
	} while (0)

/* perf.data-file-format.txt: the header, one attribute, the data */
#define HDR		104u
#define ATTR_SIZE	80u
#define DATA_OFF	(HDR + ATTR_SIZE)

/* perf_event.h: sample_type bits and attr flag sample_id_all */
#define S_TID		(1ull << 1)
#define S_TIME		(1ull << 2)
#define S_CPU		(1ull << 7)
#define S_IDENTIFIER	(1ull << 16)
#define SAMPLE_ID_ALL	(1ull << 18)

struct img {
	uint8_t b[4096];
	size_t n;
};

static void put(struct img *m, size_t at, const void *v, size_t n)
{
	memcpy(m->b + at, v, n);
	if (at + n > m->n)
		m->n = at + n;
}

static void put64(struct img *m, size_t at, uint64_t v)
{
	put(m, at, &v, 8);
}

static void put32(struct img *m, size_t at, uint32_t v)
{
	put(m, at, &v, 4);
}

/* header and one attribute: sample_type TID|TIME|CPU|IDENTIFIER, sample_id_all */
static void start(struct img *m)
{
	memset(m, 0, sizeof(*m));
	put(m, 0, "PERFILE2", 8);
	put64(m, 8, HDR);
	put64(m, 16, ATTR_SIZE);
	put64(m, 24, HDR);		/* attrs.offset */
	put64(m, 32, ATTR_SIZE);	/* attrs.size */
	put64(m, 40, DATA_OFF);		/* data.offset */
	put32(m, HDR + 0, 8);		/* attr.type: any PMU */
	put64(m, HDR + 24, S_TID | S_TIME | S_CPU | S_IDENTIFIER);
	put64(m, HDR + 40, SAMPLE_ID_ALL);
	m->n = DATA_OFF;
}

/* a record: header (type, misc, size) and body; returns its offset */
static size_t record(struct img *m, uint32_t type, const void *body, size_t n)
{
	size_t at = m->n;
	uint16_t size = (uint16_t)(8 + n), misc = 0;

	put32(m, at, type);
	put(m, at + 4, &misc, 2);
	put(m, at + 6, &size, 2);
	put(m, at + 8, body, n);
	return at;
}

/* the sample_id trailer: {pid, tid}, time, {cpu, res}, identifier */
static size_t sample_id(uint8_t *p, int32_t pid, int32_t tid, int32_t cpu)
{
	uint64_t t = 1000, id = 7;
	uint32_t res = 0;

	memcpy(p, &pid, 4);
	memcpy(p + 4, &tid, 4);
	memcpy(p + 8, &t, 8);
	memcpy(p + 16, &cpu, 4);
	memcpy(p + 20, &res, 4);
	memcpy(p + 24, &id, 8);
	return 32;
}

static size_t itrace_start(struct img *m, int32_t pid, int32_t tid, int32_t cpu)
{
	uint8_t body[40];

	memcpy(body, &pid, 4);
	memcpy(body + 4, &tid, 4);
	return record(m, 12, body, 8 + sample_id(body + 8, pid, tid, cpu));
}

/* an AUXTRACE record with n bytes of AUX data after it */
static void auxtrace(struct img *m, int32_t cpu, const uint8_t *data, uint64_t n)
{
	uint8_t body[40] = { 0 };
	int32_t tid = -1;

	memcpy(body, &n, 8);
	memcpy(body + 28, &tid, 4);
	memcpy(body + 32, &cpu, 4);
	record(m, 71, body, sizeof(body));
	put(m, m->n, data, (size_t)n);
}

static void finish(struct img *m)
{
	put64(m, 48, m->n - DATA_OFF);	/* data.size */
}

/* pd_open() on a heap copy of exactly the image's size */
static int open_exact(const struct img *m, struct perf_data *pd, uint8_t **copy, char *err,
		      size_t errlen)
{
	*copy = malloc(m->n);
	if (!*copy)
		return -2;
	memcpy(*copy, m->b, m->n);
	return pd_open(pd, *copy, m->n, err, errlen);
}

static void on_alarm(int sig)
{
	(void)sig;
	printf("FAIL: pdbounds:%s: no answer in 10 s (a loop?)\n", current);
	fflush(stdout);
	_exit(1);
}

static void t_comm_cut(void)
{
	static const char name[] = "abcdefghijklmnopqrstuvwxyz0123456789ABCD";
	struct img m;
	struct perf_data pd;
	const struct pd_task *t;
	uint8_t body[64], *copy;
	char err[256];
	int32_t id = 7;

	current = "comm-cut";
	start(&m);
	memcpy(body, &id, 4);
	memcpy(body + 4, &id, 4);
	memcpy(body + 8, name, sizeof(name));	/* 41 bytes, then padding */
	memset(body + 8 + sizeof(name), 0, sizeof(body) - 8 - sizeof(name));
	record(&m, 3, body, sizeof(body));
	finish(&m);
	CHECK(open_exact(&m, &pd, &copy, err, sizeof(err)) == 0);
	t = pd_task(&pd, 7);
	CHECK(t && t->pid == 7 && !strcmp(t->comm, "abcdefghijklmno"));
	pd_close(&pd);
	free(copy);
	printf("PASS: pdbounds:%s\n", current);
}

static void t_short_records(void)
{
	static const uint16_t sizes[] = { 0, 1, 7 };
	struct img m;
	struct perf_data pd;
	uint8_t *copy;
	char err[256];
	unsigned int i;

	current = "short-record";
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		start(&m);
		/* the record's size field */
		put(&m, itrace_start(&m, 1, 1, 0) + 6, &sizes[i], 2);
		finish(&m);
		err[0] = 0;
		alarm(10);
		CHECK(open_exact(&m, &pd, &copy, err, sizeof(err)) == -1);
		alarm(0);
		CHECK(strstr(err, "bytes") != NULL);
		free(copy);
	}
	printf("PASS: pdbounds:%s\n", current);
}

static void t_mmap_no_nul(void)
{
	struct img m;
	struct perf_data pd;
	uint8_t body[72], *copy;
	char err[256];

	current = "mmap2-name-without-nul";
	start(&m);
	memset(body, 0, sizeof(body));
	memset(body + 64, 'a', 8);		/* the name: 8 bytes, no NUL */
	record(&m, 10, body, sizeof(body));	/* the last bytes of the file */
	finish(&m);
	CHECK(open_exact(&m, &pd, &copy, err, sizeof(err)) == 0);
	CHECK(pd.n_mmap == 0 && pd.n_records == 1);
	pd_close(&pd);
	free(copy);
	printf("PASS: pdbounds:%s\n", current);
}

static void t_cpu_range(void)
{
	static const uint8_t data[8] = { 0x01 };	/* an End packet and padding */
	struct img m;
	struct perf_data pd;
	uint8_t *copy;
	char err[256];

	current = "cpu-out-of-range";
	start(&m);
	itrace_start(&m, 11, 12, 5000);
	itrace_start(&m, 13, 14, -256);
	auxtrace(&m, 5000, data, sizeof(data));
	auxtrace(&m, -256, data, sizeof(data));
	finish(&m);
	CHECK(open_exact(&m, &pd, &copy, err, sizeof(err)) == 0);
	CHECK(pd.n_task == 2 && pd.n_chunk == 2);
	CHECK(pd.chunk[0].cpu == 5000 && pd.chunk[0].cur_pid == -1 && pd.chunk[0].cur_tid == -1);
	CHECK(pd.chunk[1].cpu == -256 && pd.chunk[1].cur_pid == -1);
	pd_close(&pd);
	free(copy);
	printf("PASS: pdbounds:%s\n", current);
}

static void t_sample_id_short(void)
{
	static const uint8_t data[8] = { 0x01 };
	struct img m;
	struct perf_data pd;
	uint8_t body[8], *copy;
	char err[256];
	int32_t pid = 21, tid = 22;

	current = "sample-id-short";
	start(&m);
	/*
	 * ITRACE_START with pid and tid only: no room for the 32-byte trailer.
	 * Its first word (type 12) must not be taken for a cpu.
	 */
	memcpy(body, &pid, 4);
	memcpy(body + 4, &tid, 4);
	record(&m, 12, body, sizeof(body));
	auxtrace(&m, 12, data, sizeof(data));
	finish(&m);
	CHECK(open_exact(&m, &pd, &copy, err, sizeof(err)) == 0);
	CHECK(pd.n_chunk == 1 && pd.chunk[0].cur_pid == -1 && pd.chunk[0].cur_tid == -1);
	pd_close(&pd);
	free(copy);
	printf("PASS: pdbounds:%s\n", current);
}

static void t_beyond_file(void)
{
	static const uint8_t data[8] = { 0x01 };
	struct img m;
	struct perf_data pd;
	uint8_t *copy;
	char err[256];

	current = "beyond-the-file";
	start(&m);
	auxtrace(&m, 0, data, sizeof(data));
	put64(&m, m.n - 8 - 40, 9);	/* the AUX size: one byte more than follows */
	finish(&m);
	CHECK(open_exact(&m, &pd, &copy, err, sizeof(err)) == -1 && strstr(err, "AUX data"));
	free(copy);
	start(&m);
	put64(&m, 32, 4096);		/* attrs.size past the end */
	finish(&m);
	CHECK(open_exact(&m, &pd, &copy, err, sizeof(err)) == -1 && strstr(err, "attribute"));
	free(copy);
	start(&m);
	finish(&m);
	put64(&m, 48, 1);		/* data.size past the end */
	CHECK(open_exact(&m, &pd, &copy, err, sizeof(err)) == -1 && strstr(err, "data section"));
	free(copy);
	printf("PASS: pdbounds:%s\n", current);
}

int main(void)
{
	/* each line out at once: a leak report at exit skips stdio's flush */
	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGALRM, on_alarm);
	t_comm_cut();
	t_short_records();
	t_mmap_no_nul();
	t_cpu_range();
	t_sample_id_short();
	t_beyond_file();
	return nfail ? 1 : 0;
}
