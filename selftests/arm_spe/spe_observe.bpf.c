// SPDX-License-Identifier: GPL-2.0
/*
 * BPF side of spe_observe: counts the arm_spe_perf driver's tracepoints
 * (spe_irq, spe_aux_output, spe_buf_program) into an array map that the
 * test reads through the skeleton. An explicit map rather than global
 * variables: libbpf decides whether a kernel supports global data with a
 * socket-filter probe, which fails on kernels without networking (the
 * debug kernel). The context layout below follows the driver's
 * TP_STRUCT__entry (drivers/spe_trace.h) after the common 8-byte header;
 * the test checks it against tracefs' format file.
 */
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "spe_observe.h"

struct spe_aux_output_ctx {
	__u64 common;		/* common_type, flags, preempt_count, pid */
	int cpu;
	__u64 bytes;
	__u32 flags;
};

#define AUX_FLAG_TRUNCATED	0x1
#define AUX_FLAG_OVERWRITE	0x2

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, OBS_NR);
	__type(key, __u32);
	__type(value, __u64);
} counts SEC(".maps");

static __always_inline void add(__u32 i, __u64 v)
{
	__u64 *p = bpf_map_lookup_elem(&counts, &i);

	if (p)
		__sync_fetch_and_add(p, v);
}

SEC("tracepoint/arm_spe_perf/spe_irq")
int count_irq(void *ctx)
{
	add(OBS_IRQS, 1);
	return 0;
}

SEC("tracepoint/arm_spe_perf/spe_aux_output")
int count_aux_output(struct spe_aux_output_ctx *ctx)
{
	add(OBS_AUX_OUTPUTS, 1);
	/* perf core writes a PERF_RECORD_AUX only for these */
	if (ctx->bytes || (ctx->flags & ~AUX_FLAG_OVERWRITE))
		add(OBS_AUX_VISIBLE, 1);
	add(OBS_AUX_BYTES, ctx->bytes);
	if (ctx->flags & AUX_FLAG_TRUNCATED)
		add(OBS_AUX_TRUNCATED, 1);
	return 0;
}

SEC("tracepoint/arm_spe_perf/spe_buf_program")
int count_buf_program(void *ctx)
{
	add(OBS_PROGRAMS, 1);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
