// SPDX-License-Identifier: GPL-2.0
/*
 * CO-RE side of spe_observe: on arm_spe_perf:spe_aux_output (a raw
 * tracepoint, BPF_PROG() on its TP_PROTO), whose time a transaction ends
 * in. A per-task session's buffer is handed over while that task is
 * current (its interrupt, or its schedule-out, disable or close): the
 * current task's tgid, read through BPF_CORE_READ, is counted against the
 * tgid the test puts in "target". libbpf relocates the task_struct field
 * offsets, compiled against vmlinux.h, to the running kernel's own BTF;
 * the read must also equal what bpf_get_current_pid_tgid() says, or the
 * relocation went wrong. Loaded only on kernels with BTF.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "spe_observe.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, OBS_CORE_NR);
	__type(key, __u32);
	__type(value, __u64);
} core_counts SEC(".maps");

/* slot 0: the tgid of the process whose per-task session is observed */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} target SEC(".maps");

static __always_inline void add(__u32 i)
{
	__u64 *p = bpf_map_lookup_elem(&core_counts, &i);

	if (p)
		__sync_fetch_and_add(p, 1);
}

SEC("raw_tp/spe_aux_output")
int BPF_PROG(aux_task, int cpu, u64 bytes, u32 flags)
{
	struct task_struct *t = (struct task_struct *)bpf_get_current_task();
	__u32 key = 0, *want = bpf_map_lookup_elem(&target, &key);
	__u32 tgid = BPF_CORE_READ(t, tgid);

	if (!want)
		return 0;
	add(tgid == *want ? OBS_AUX_IN_TASK : OBS_AUX_ELSEWHERE);
	if (tgid != (__u32)(bpf_get_current_pid_tgid() >> 32))
		add(OBS_CORE_MISMATCH);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
