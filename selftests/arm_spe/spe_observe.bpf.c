// SPDX-License-Identifier: GPL-2.0
/*
 * BPF side of spe_observe: counts the arm_spe_perf driver's tracepoints
 * (spe_irq, spe_aux_output, spe_buf_program) into an array map that the
 * test reads through the skeleton. Raw tracepoints with BPF_PROG(): the
 * arguments are the tracepoints' TP_PROTO (drivers/spe_trace.h), typed
 * here, so nothing depends on the layout of the trace event records.
 * Kernel types come from vmlinux.h (bpftool, from the guest kernel's
 * BTF). An explicit map rather than global variables: libbpf decides
 * whether a kernel supports global data with a socket-filter probe, which
 * fails on kernels without networking (the debug kernel).
 *
 * No CO-RE relocation here: libbpf would then need the running kernel's
 * BTF to load the object at all (spe_observe_core.bpf.c has them).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "spe_observe.h"

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

SEC("raw_tp/spe_irq")
int BPF_PROG(count_irq, int cpu, u64 pmbsr, u64 pmbptr, int action)
{
	add(OBS_IRQS, 1);
	return 0;
}

SEC("raw_tp/spe_aux_output")
int BPF_PROG(count_aux_output, int cpu, u64 bytes, u32 flags)
{
	add(OBS_AUX_OUTPUTS, 1);
	/* perf core writes a PERF_RECORD_AUX only for these */
	if (bytes || (flags & ~AUX_FLAG_OVERWRITE))
		add(OBS_AUX_VISIBLE, 1);
	add(OBS_AUX_BYTES, bytes);
	if (flags & AUX_FLAG_TRUNCATED)
		add(OBS_AUX_TRUNCATED, 1);
	return 0;
}

SEC("raw_tp/spe_buf_program")
int BPF_PROG(count_buf_program, int cpu, u64 head_off, u64 limit_off, u64 pmblimitr)
{
	add(OBS_PROGRAMS, 1);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
