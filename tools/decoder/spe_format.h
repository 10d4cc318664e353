/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * spe-decode's record formatters: one JSON Lines object or one CSV row per
 * decoded record, written into an outbuf (no stdio per field). The CSV
 * columns are fixed and listed in CSV_HEADER (Documentation/decoder.rst).
 */
#ifndef SPE_FORMAT_H
#define SPE_FORMAT_H

#include <arm_spe/spe_decoder.h>
#include "outbuf.h"

/* Where a record came from, when the input was a perf.data file. */
struct rec_ctx {
	int valid;		/* 0: a raw AUX dump, the fields below are unset */
	int cpu;		/* -1: unknown (per-thread recording) */
	int pid, tid;		/* -1: unknown */
	const char *comm;	/* NULL: unknown */
	uint64_t aux_offset;	/* offset of the record in the CPU's AUX stream */
	unsigned int aux_flags;	/* PERF_AUX_FLAG_* of the PERF_RECORD_AUX covering it */
};

#define CSV_HEADER							\
	"offset,size,cpu,pid,tid,comm,aux_flags,"			\
	"pc,pc_el,pc_ns,br_tgt,prev_br_tgt,data_va,data_pa,"		\
	"op_kind,op_class,op_subclass,store,events,event_names,"	\
	"lat_total,lat_issue,lat_xlat,lat_alt_issue,data_source,ts,end,extra\n"

/*
 * The bytes of a comm the formatters print, at most: a comm need not be
 * NUL-terminated within them, and no byte after them is read.
 */
#define FMT_COMM_MAX	64

/* The longest line fmt_json_record() and fmt_csv_record() can write. */
extern const size_t fmt_json_record_max, fmt_csv_record_max;

void fmt_json_record(struct outbuf *ob, const struct spe_record *r, unsigned int counter_bits,
		     const struct rec_ctx *ctx);
void fmt_csv_record(struct outbuf *ob, const struct spe_record *r, unsigned int counter_bits,
		    const struct rec_ctx *ctx);
/* The CSV header line. */
void fmt_csv_header(struct outbuf *ob);
/* "truncated|partial|collision" for PERF_AUX_FLAG_* bits, into ob */
void fmt_aux_flags(struct outbuf *ob, unsigned int flags, char sep);

#endif /* SPE_FORMAT_H */
