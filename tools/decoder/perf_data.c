// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * perf.data reader (perf_data.h): the header, the attributes and the
 * records of the data section that spe-decode uses. Every field is read
 * at its documented offset, little-endian (perf writes the host's order;
 * a big-endian file is refused rather than guessed).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perf_data.h"

/* perf.data-file-format.txt: struct perf_file_header */
#define PERFILE2_MAGIC		0x32454c4946524550ull	/* "PERFILE2" */
#define PERFILE2_MAGIC_BE	0x50455246494c4532ull
#define HDR_SIZE		104u	/* magic, size, attr_size, 3 sections, features */
#define PIPE_HDR_SIZE		16u

/* include/uapi/linux/perf_event.h record types, and perf's own */
#define REC_LOST		2
#define REC_COMM		3
#define REC_AUX			11
#define REC_ITRACE_START	12
#define REC_SWITCH_CPU_WIDE	15
#define REC_MMAP2		10
#define REC_AUXTRACE		71	/* perf's user record: AUX data follows */

/* perf_event_attr: offsets of the fields used */
#define ATTR_TYPE		0
#define ATTR_SAMPLE_TYPE	24
#define ATTR_FLAGS		40
#define ATTR_AUX_WATERMARK	96	/* present from PERF_ATTR_SIZE_VER5 */
#define ATTR_FLAG_SAMPLE_ID_ALL	(1ull << 18)

#define SAMPLE_TID		(1ull << 1)
#define SAMPLE_TIME		(1ull << 2)
#define SAMPLE_ID		(1ull << 6)
#define SAMPLE_CPU		(1ull << 7)
#define SAMPLE_STREAM_ID	(1ull << 9)
#define SAMPLE_IDENTIFIER	(1ull << 16)

#define MISC_SWITCH_OUT		(1u << 13)

static uint64_t rd64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static uint32_t rd32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static uint16_t rd16(const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, 2);
	return v;
}

int pd_is_perf_data(const uint8_t *buf, size_t len)
{
	if (len >= 8 && (rd64(buf) == PERFILE2_MAGIC || rd64(buf) == PERFILE2_MAGIC_BE))
		return 2;
	return len >= 7 && !memcmp(buf, "PERFILE", 7);
}

/* Grow an array by one element; returns the new element or NULL. */
static void *push(void **arr, size_t *n, size_t *cap, size_t elem)
{
	if (*n == *cap) {
		size_t nc = *cap ? *cap * 2 : 64;
		void *p = realloc(*arr, nc * elem);

		if (!p)
			return NULL;
		*arr = p;
		*cap = nc;
	}
	return (char *)*arr + (*n)++ * elem;
}

struct attr_info {
	uint64_t sample_type;
	int sample_id_all;
};

/* sample_id trailer of a non-sample record: cpu and tid, when present */
static void sample_id(const struct attr_info *a, const uint8_t *rec, size_t size,
		      int32_t *cpu, int32_t *tid)
{
	const uint8_t *end = rec + size;
	uint64_t st = a->sample_type;

	*cpu = -1;
	*tid = -1;
	if (!a->sample_id_all)
		return;
	/* the trailer is read backwards: its last fields have fixed places */
	if (st & SAMPLE_IDENTIFIER)
		end -= 8;
	if (st & SAMPLE_CPU) {
		end -= 8;
		if (end >= rec + 8)
			*cpu = (int32_t)rd32(end);
	}
	if (st & SAMPLE_STREAM_ID)
		end -= 8;
	if (st & SAMPLE_ID)
		end -= 8;
	if (st & SAMPLE_TIME)
		end -= 8;
	if (st & SAMPLE_TID) {
		end -= 8;
		if (end >= rec + 8)
			*tid = (int32_t)rd32(end + 4);
	}
}

#define FAIL(...)							\
	do {								\
		snprintf(err, errlen, __VA_ARGS__);			\
		pd_close(pd);						\
		return -1;						\
	} while (0)

int pd_open(struct perf_data *pd, const uint8_t *buf, size_t len, char *err, size_t errlen)
{
	size_t cap_chunk = 0, cap_aux = 0, cap_task = 0, cap_mmap = 0;
	uint64_t attr_size, attr_off, attr_len, pos, end;
	struct attr_info a0 = { 0, 0 };
	/* the CPU's current task, for CPU-wide recordings (cpu < 1024) */
	static int32_t cur_pid[1024], cur_tid[1024];
	size_t i;

	memset(pd, 0, sizeof(*pd));
	pd->buf = buf;
	pd->len = len;
	for (i = 0; i < 1024; i++)
		cur_pid[i] = cur_tid[i] = -1;
	if (pd_is_perf_data(buf, len) != 2)
		FAIL("not a perf.data file (bad magic; expected \"PERFILE2\")");
	if (rd64(buf) == PERFILE2_MAGIC_BE)
		FAIL("perf.data written on a big-endian machine: not supported");
	if (len >= 16 && rd64(buf + 8) == PIPE_HDR_SIZE)
		FAIL("perf.data in pipe mode (perf record -o -): not supported; record to a file");
	if (len < HDR_SIZE)
		FAIL("truncated perf.data: %zu bytes, the header alone is %u", len, HDR_SIZE);
	if (rd64(buf + 8) != HDR_SIZE)
		FAIL("perf.data header size %llu, expected %u",
		     (unsigned long long)rd64(buf + 8), HDR_SIZE);
	attr_size = rd64(buf + 16);
	attr_off = rd64(buf + 24);
	attr_len = rd64(buf + 32);
	pd->data_off = rd64(buf + 40);
	pd->data_size = rd64(buf + 48);
	if (attr_off > len || attr_len > len - attr_off)
		FAIL("truncated perf.data: attribute section [%llu, +%llu) beyond the %zu-byte file",
		     (unsigned long long)attr_off, (unsigned long long)attr_len, len);
	if (pd->data_off > len || pd->data_size > len - pd->data_off)
		FAIL("truncated perf.data: data section [%llu, +%llu) beyond the %zu-byte file",
		     (unsigned long long)pd->data_off, (unsigned long long)pd->data_size, len);
	if (attr_size < 16 + 48 || attr_len % attr_size)
		FAIL("perf.data attribute size %llu is not valid", (unsigned long long)attr_size);
	/*
	 * The attributes: the AUX event (the one with an aux_watermark field
	 * and the first one perf writes) gives the sample_id layout; perf
	 * record gives all its events the same sample_type and sample_id_all.
	 */
	for (pos = attr_off; pos < attr_off + attr_len; pos += attr_size) {
		const uint8_t *at = buf + pos;

		if (pos == attr_off) {
			a0.sample_type = rd64(at + ATTR_SAMPLE_TYPE);
			a0.sample_id_all = !!(rd64(at + ATTR_FLAGS) & ATTR_FLAG_SAMPLE_ID_ALL);
			pd->spe_type = rd32(at + ATTR_TYPE);
		}
	}

	pos = pd->data_off;
	end = pd->data_off + pd->data_size;
	while (pos < end) {
		const uint8_t *r = buf + pos;
		uint32_t type;
		uint16_t size, misc;
		int32_t cpu, tid;

		if (end - pos < 8)
			FAIL("truncated perf.data: record header at offset %llu cut by the end of the data",
			     (unsigned long long)pos);
		type = rd32(r);
		misc = rd16(r + 4);
		size = rd16(r + 6);
		if (size < 8 || size > end - pos)
			FAIL("truncated perf.data: record at offset %llu (type %u) of %u bytes "
			     "runs past the end of the data (%llu)", (unsigned long long)pos,
			     type, size, (unsigned long long)end);
		pd->n_records++;
		switch (type) {
		case REC_AUXTRACE: {
			/* header, size, offset, reference, idx, tid, cpu, reserved */
			struct pd_chunk *c;
			uint64_t dsz;

			if (size < 48)
				FAIL("perf.data: AUXTRACE record at offset %llu is %u bytes",
				     (unsigned long long)pos, size);
			dsz = rd64(r + 8);
			if (dsz > end - pos - size)
				FAIL("truncated perf.data: the %llu bytes of AUX data at offset %llu "
				     "run past the end of the data (%llu)", (unsigned long long)dsz,
				     (unsigned long long)(pos + size), (unsigned long long)end);
			c = push((void **)&pd->chunk, &pd->n_chunk, &cap_chunk, sizeof(*c));
			if (!c)
				FAIL("out of memory");
			c->data = r + size;
			c->size = dsz;
			c->offset = rd64(r + 16);
			c->idx = rd32(r + 32);
			c->tid = (int32_t)rd32(r + 36);
			c->cpu = (int32_t)rd32(r + 40);
			c->cur_pid = c->cur_tid = -1;
			if (c->cpu >= 0 && c->cpu < 1024) {
				c->cur_pid = cur_pid[c->cpu];
				c->cur_tid = cur_tid[c->cpu];
			}
			pos += size + dsz;
			continue;
		}
		case REC_AUX: {
			struct pd_aux *x;

			if (size < 32)
				break;
			x = push((void **)&pd->aux, &pd->n_aux, &cap_aux, sizeof(*x));
			if (!x)
				FAIL("out of memory");
			x->offset = rd64(r + 8);
			x->size = rd64(r + 16);
			x->flags = rd64(r + 24);
			sample_id(&a0, r, size, &x->cpu, &x->tid);
			break;
		}
		case REC_COMM:
		case REC_ITRACE_START: {
			struct pd_task *t;

			if (size < 16)
				break;
			if (type == REC_ITRACE_START) {
				sample_id(&a0, r, size, &cpu, &tid);
				if (cpu >= 0 && cpu < 1024) {
					cur_pid[cpu] = (int32_t)rd32(r + 8);
					cur_tid[cpu] = (int32_t)rd32(r + 12);
				}
			}
			t = push((void **)&pd->task, &pd->n_task, &cap_task, sizeof(*t));
			if (!t)
				FAIL("out of memory");
			t->pid = (int32_t)rd32(r + 8);
			t->tid = (int32_t)rd32(r + 12);
			t->comm[0] = 0;
			if (type == REC_COMM) {
				size_t n = (size_t)size - 16;

				if (n > sizeof(t->comm) - 1)
					n = sizeof(t->comm) - 1;

				memcpy(t->comm, r + 16, n);
				t->comm[n] = 0;
			}
			break;
		}
		case REC_SWITCH_CPU_WIDE:
			/* header, next_prev_pid, next_prev_tid: on switch-in, the new task */
			if (size >= 16 && !(misc & MISC_SWITCH_OUT)) {
				sample_id(&a0, r, size, &cpu, &tid);
				if (cpu >= 0 && cpu < 1024) {
					cur_pid[cpu] = (int32_t)rd32(r + 8);
					cur_tid[cpu] = (int32_t)rd32(r + 12);
				}
			}
			break;
		case REC_MMAP2: {
			/* pid, tid, addr, len, pgoff, maj/min/ino/gen or build id, prot, flags, name */
			struct pd_mmap *m;

			if (size < 72 || !memchr(r + 72, 0, size - 72u))
				break;
			m = push((void **)&pd->mmap, &pd->n_mmap, &cap_mmap, sizeof(*m));
			if (!m)
				FAIL("out of memory");
			m->pid = (int32_t)rd32(r + 8);
			m->addr = rd64(r + 16);
			m->len = rd64(r + 24);
			m->pgoff = rd64(r + 32);
			m->filename = (const char *)(r + 72);
			break;
		}
		case REC_LOST:
			pd->n_lost++;
			break;
		default:
			break;
		}
		pos += size;
	}
	return 0;
}

void pd_close(struct perf_data *pd)
{
	free(pd->chunk);
	free(pd->aux);
	free(pd->task);
	free(pd->mmap);
	pd->chunk = NULL;
	pd->aux = NULL;
	pd->task = NULL;
	pd->mmap = NULL;
	pd->n_chunk = pd->n_aux = pd->n_task = pd->n_mmap = 0;
}

const struct pd_task *pd_task(const struct perf_data *pd, int32_t tid)
{
	const struct pd_task *found = NULL;
	size_t i;

	for (i = 0; i < pd->n_task; i++)
		if (pd->task[i].tid == tid && (pd->task[i].comm[0] || !found))
			found = &pd->task[i];
	return found;
}
