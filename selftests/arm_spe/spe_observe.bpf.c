// SPDX-License-Identifier: GPL-2.0
/*
 * BPF side of spe_observe: counts the arm_spe_perf driver's tracepoints
 * (spe_irq, spe_aux_output, spe_buf_program) into global variables that
 * the test reads through the skeleton. The context layouts below follow
 * the driver's TP_STRUCT__entry (drivers/spe_trace.h) after the common
 * 8-byte header; the test checks them against tracefs' format files.
 */
#include <linux/types.h>
#include <bpf/bpf_helpers.h>

struct spe_aux_output_ctx {
	__u64 common;		/* common_type, flags, preempt_count, pid */
	int cpu;
	__u64 bytes;
	__u32 flags;
};

#define AUX_FLAG_OVERWRITE	0x2

__u64 irqs;		/* spe_irq hits, spurious ones included */
__u64 aux_outputs;	/* spe_aux_output hits */
__u64 aux_visible;	/* ... that make a PERF_RECORD_AUX (size or flags) */
__u64 aux_bytes;	/* sum of their sizes */
__u64 aux_truncated;	/* ... with PERF_AUX_FLAG_TRUNCATED */
__u64 programs;		/* spe_buf_program hits */

SEC("tracepoint/arm_spe_perf/spe_irq")
int count_irq(void *ctx)
{
	__sync_fetch_and_add(&irqs, 1);
	return 0;
}

SEC("tracepoint/arm_spe_perf/spe_aux_output")
int count_aux_output(struct spe_aux_output_ctx *ctx)
{
	__sync_fetch_and_add(&aux_outputs, 1);
	if (ctx->bytes || (ctx->flags & ~AUX_FLAG_OVERWRITE))
		__sync_fetch_and_add(&aux_visible, 1);
	__sync_fetch_and_add(&aux_bytes, ctx->bytes);
	if (ctx->flags & 1)
		__sync_fetch_and_add(&aux_truncated, 1);
	return 0;
}

SEC("tracepoint/arm_spe_perf/spe_buf_program")
int count_buf_program(void *ctx)
{
	__sync_fetch_and_add(&programs, 1);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
