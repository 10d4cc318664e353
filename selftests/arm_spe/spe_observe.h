/* SPDX-License-Identifier: GPL-2.0 */
/* Slots of the BPF programs' array maps, shared with the test. */
#ifndef SPE_OBSERVE_H
#define SPE_OBSERVE_H

/* spe_observe.bpf.c's "counts" */
enum {
	OBS_IRQS,		/* spe_irq hits, spurious ones included */
	OBS_AUX_OUTPUTS,	/* spe_aux_output hits */
	OBS_AUX_VISIBLE,	/* ... that make a PERF_RECORD_AUX (size or flags) */
	OBS_AUX_BYTES,		/* sum of their sizes */
	OBS_AUX_TRUNCATED,	/* ... with PERF_AUX_FLAG_TRUNCATED */
	OBS_PROGRAMS,		/* spe_buf_program hits */
	OBS_NR
};

/* spe_observe_core.bpf.c's "core_counts" */
enum {
	OBS_AUX_IN_TASK,	/* spe_aux_output with the target process current */
	OBS_AUX_ELSEWHERE,	/* ... with another one current */
	OBS_CORE_MISMATCH,	/* the CO-RE read and the helper disagree */
	OBS_CORE_NR
};

#endif
