/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * spe_trace.h - tracepoints of arm_spe_perf (trace system arm_spe_perf):
 *   spe_irq          - a PMBIRQ: CPU, PMBSR_EL1, PMBPTR_EL1, decision
 *   spe_aux_output   - an AUX transaction ended: CPU, bytes, AUX flags
 *   spe_buf_program  - the buffer registers were programmed: CPU, head and
 *                      limit offsets in the AUX buffer, PMBLIMITR_EL1
 *   spe_gap          - sampling paused for lack of room in the AUX buffer,
 *                      or resumed: CPU, paused/resumed
 *
 * Out-of-tree: define_trace.h includes this file again through
 * TRACE_INCLUDE_PATH, which is relative to the include path, and the Kbuild
 * file puts drivers/ on it (-I$(src)/drivers).
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM arm_spe_perf

#if !defined(ARM_SPE_PERF_SPE_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define ARM_SPE_PERF_SPE_TRACE_H

#include <linux/tracepoint.h>

TRACE_EVENT(spe_irq,
	    TP_PROTO(int cpu, u64 pmbsr, u64 pmbptr, int action),
	    TP_ARGS(cpu, pmbsr, pmbptr, action),
	    TP_STRUCT__entry(__field(int, cpu)
			     __field(u64, pmbsr)
			     __field(u64, pmbptr)
			     __field(int, action)),
	    TP_fast_assign(__entry->cpu = cpu;
			   __entry->pmbsr = pmbsr;
			   __entry->pmbptr = pmbptr;
			   __entry->action = action;),
	    TP_printk("cpu=%d pmbsr=0x%llx ec=0x%llx mss=0x%llx s=%llu dl=%llu ea=%llu coll=%llu pmbptr=0x%llx action=%s",
		      __entry->cpu, __entry->pmbsr,
		      (__entry->pmbsr >> 26) & 0x3f, __entry->pmbsr & 0xffff,
		      (__entry->pmbsr >> 17) & 1, (__entry->pmbsr >> 19) & 1,
		      (__entry->pmbsr >> 18) & 1, (__entry->pmbsr >> 16) & 1,
		      __entry->pmbptr,
		      __print_symbolic(__entry->action, { 0, "none" },
				       { 1, "restart" }, { 2, "stop" }))
);

TRACE_EVENT(spe_aux_output,
	    TP_PROTO(int cpu, u64 bytes, u32 flags),
	    TP_ARGS(cpu, bytes, flags),
	    TP_STRUCT__entry(__field(int, cpu)
			     __field(u64, bytes)
			     __field(u32, flags)),
	    TP_fast_assign(__entry->cpu = cpu;
			   __entry->bytes = bytes;
			   __entry->flags = flags;),
	    TP_printk("cpu=%d bytes=%llu flags=%s", __entry->cpu, __entry->bytes,
		      __print_flags(__entry->flags, "|", { 0x1, "TRUNCATED" },
				    { 0x2, "OVERWRITE" }, { 0x4, "PARTIAL" },
				    { 0x8, "COLLISION" }))
);

TRACE_EVENT(spe_buf_program,
	    TP_PROTO(int cpu, u64 head_off, u64 limit_off, u64 pmblimitr),
	    TP_ARGS(cpu, head_off, limit_off, pmblimitr),
	    TP_STRUCT__entry(__field(int, cpu)
			     __field(u64, head_off)
			     __field(u64, limit_off)
			     __field(u64, pmblimitr)),
	    TP_fast_assign(__entry->cpu = cpu;
			   __entry->head_off = head_off;
			   __entry->limit_off = limit_off;
			   __entry->pmblimitr = pmblimitr;),
	    TP_printk("cpu=%d head=0x%llx limit=0x%llx pmblimitr=0x%llx",
		      __entry->cpu, __entry->head_off, __entry->limit_off,
		      __entry->pmblimitr)
);

TRACE_EVENT(spe_gap,
	    TP_PROTO(int cpu, int resumed),
	    TP_ARGS(cpu, resumed),
	    TP_STRUCT__entry(__field(int, cpu)
			     __field(int, resumed)),
	    TP_fast_assign(__entry->cpu = cpu;
			   __entry->resumed = resumed;),
	    TP_printk("cpu=%d %s", __entry->cpu,
		      __entry->resumed ? "resumed" : "paused")
);

#endif /* ARM_SPE_PERF_SPE_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE spe_trace
#include <trace/define_trace.h>
