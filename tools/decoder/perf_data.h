/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * A reader for the perf.data files of `perf record -e arm_spe//`: the file
 * header, the event attributes, and the records spe-decode needs from the
 * data section (PERF_RECORD_AUXTRACE with the AUX data that follows it,
 * PERF_RECORD_AUX, COMM, MMAP2, ITRACE_START, SWITCH_CPU_WIDE). The layout
 * is perf's on-disk format (tools/perf/Documentation/perf.data-file-format
 * .txt) and the perf_event ABI (include/uapi/linux/perf_event.h); nothing
 * here is taken from perf's code.
 */
#ifndef SPE_PERF_DATA_H
#define SPE_PERF_DATA_H

#include <stddef.h>
#include <stdint.h>

/* PERF_RECORD_AUXTRACE: one piece of one AUX area's data */
struct pd_chunk {
	const uint8_t *data;	/* into the file */
	uint64_t size;
	uint64_t offset;	/* offset in its AUX area's stream */
	uint32_t idx;		/* which AUX area (mmap index) */
	int32_t tid, cpu;	/* -1: not per-thread / not per-CPU */
	int32_t cur_pid, cur_tid;	/* the CPU's task then (ITRACE_START/SWITCH), -1 */
};

/* PERF_RECORD_AUX: a range of an AUX area and its PERF_AUX_FLAG_* */
struct pd_aux {
	uint64_t offset, size, flags;
	int32_t cpu, tid;	/* from the record's sample_id, -1 if absent */
};

/* PERF_RECORD_COMM / ITRACE_START: who a thread is */
struct pd_task {
	int32_t pid, tid;
	char comm[16];
};

/* PERF_RECORD_MMAP2: a file mapping (for symbolization) */
struct pd_mmap {
	int32_t pid;
	uint64_t addr, len, pgoff;
	const char *filename;	/* into the file, NUL-terminated */
};

struct perf_data {
	const uint8_t *buf;
	size_t len;
	uint64_t data_off, data_size;
	struct pd_chunk *chunk;
	size_t n_chunk;
	struct pd_aux *aux;
	size_t n_aux;
	struct pd_task *task;
	size_t n_task;
	struct pd_mmap *mmap;
	size_t n_mmap;
	uint64_t n_records;		/* records in the data section */
	uint64_t n_lost;		/* PERF_RECORD_LOST */
	uint32_t spe_type;		/* attr.type of the AUX event, 0: none seen */
};

/*
 * Parse a whole perf.data image. Returns 0, or -1 with a one-line reason
 * in err (bad magic, pipe-mode file, truncated header, section or record).
 */
int pd_open(struct perf_data *pd, const uint8_t *buf, size_t len, char *err, size_t errlen);
void pd_close(struct perf_data *pd);
/*
 * Does buf look like a perf.data file: 2 if it starts with the magic
 * "PERFILE2", 1 if with "PERFILE" and another version (pd_open() then
 * says why it cannot read it), 0 if not at all.
 */
int pd_is_perf_data(const uint8_t *buf, size_t len);
/* The task record for a tid (last COMM wins), or NULL. */
const struct pd_task *pd_task(const struct perf_data *pd, int32_t tid);

#define PD_AUX_TRUNCATED	0x01u	/* PERF_AUX_FLAG_TRUNCATED */
#define PD_AUX_OVERWRITE	0x02u	/* PERF_AUX_FLAG_OVERWRITE */
#define PD_AUX_PARTIAL		0x04u	/* PERF_AUX_FLAG_PARTIAL */
#define PD_AUX_COLLISION	0x08u	/* PERF_AUX_FLAG_COLLISION */

#endif /* SPE_PERF_DATA_H */
