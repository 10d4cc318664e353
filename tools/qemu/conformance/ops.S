/*
 * Instruction sequences with a known number of profiled operations.
 *
 * Every sequence is entered with profiling disabled; the first MSR to
 * PMBLIMITR_EL1 enables it (that MSR itself is not in the population:
 * it executes while profiling is disabled) and the final MSR disables
 * it again (that one is executed while enabled, so it is counted).
 * S3_0_C9_C10_0 is PMBLIMITR_EL1 (SPE supplement 4.3.2).
 */
#define PMBLIMITR	S3_0_C9_C10_0
#define PMSICR		S3_0_C9_C9_2	/* PMSICR_EL1 (4.3.10) */
#define PMSCR		S3_0_C9_C9_0	/* PMSCR_EL1 (4.3.5) */

	.text
	.arch	armv8.2-a+lse

/*
 * void spe_loop(uint64_t iters, uint64_t limitr)
 * Profiled operations: 2 * iters + 1.
 */
	.global	spe_loop
spe_loop:
	msr	PMBLIMITR, x1
1:	subs	x0, x0, #1
	b.ne	1b
	msr	PMBLIMITR, xzr
	isb
	ret

/*
 * void spe_spin(uint64_t iters): 2 * iters + 1 operations, leaving the
 * buffer as it is (the strict tests enable and disable it themselves).
 */
	.global	spe_spin
spe_spin:
1:	subs	x0, x0, #1
	b.ne	1b
	ret

/*
 * void name(uint64_t limitr, uint64_t addr, uint64_t count) (mode MODEL,
 * E[22] and the interval counter): PMSICR_EL1.COUNT = count, then one TB
 * of nops NOPs and a load of addr, that load first or (late) last, and
 * a branch; then a TB of 64 loads of addr + 8. With count = nops + 18
 * the 16th of those is sampled, nops + 17 operations after the first
 * load, or 17 after the last.
 */
	.macro	e22_begin, name		/* COUNT = x2, profiling on */
	.global	\name
	.balign	4096
\name:
	msr	PMSICR, x2
	msr	PMBLIMITR, x0
	isb
	.endm
	.macro	e22_end
	msr	PMBLIMITR, xzr
	isb
	ret
	.endm
	.macro	e22_tb, name, nops, late
	e22_begin \name
	.if	!\late
	ldr	x3, [x1]
	.endif
	.rept	\nops
	nop
	.endr
	.if	\late
	ldr	x3, [x1]
	.endif
	b	1f
1:	.rept	64
	ldr	x4, [x1, #8]
	.endr
	e22_end
	.endm
	e22_tb	e22_tb_near, 100, 0
	e22_tb	e22_tb_far, 300, 0
	e22_tb	e22_tb_late, 300, 1

/*
 * void name(uint64_t limitr, uint64_t addr, uint64_t count): COUNT =
 * count, a load of addr 17 operations before the sample that COUNT sets,
 * then (e22_pmsicr) COUNT = 300 written or (e22_off) profiling disabled
 * and enabled again, so that the sample is a load of addr + 8 about 300
 * operations on, or later than the counter says.
 */
	.macro	e22_stop, name, off
	e22_begin \name
	ldr	x3, [x1]
	.if	\off
	msr	PMBLIMITR, xzr
	isb
	.rept	300
	nop
	.endr
	msr	PMBLIMITR, x0
	isb
	.else
	mov	x5, #300
	msr	PMSICR, x5
	isb
	.endif
	.rept	320
	ldr	x4, [x1, #8]
	.endr
	e22_end
	.endm
	e22_stop	e22_pmsicr, 0
	e22_stop	e22_off, 1

/*
 * void e22_ernd(uint64_t pmscr, uint64_t addr, uint64_t count) (mode
 * ERND, strict: the buffer is enabled already): PMSICR_EL1 = count,
 * profiling enabled with PMSCR_EL1 = pmscr, a load of addr, then 300
 * loads of addr + 8 (e22_ernd_loads the first), profiling disabled.
 */
	.global	e22_ernd, e22_ernd_loads
	.balign	4096
e22_ernd:
	msr	PMSICR, x2
	msr	PMSCR, x0
	isb
	ldr	x3, [x1]
e22_ernd_loads:
	.rept	300
	ldr	x4, [x1, #8]
	.endr
	msr	PMSCR, xzr
	isb
	ret

/*
 * PMSICR_EL1.ECOUNT (mode ERND, strict: the buffer is enabled already).
 * A write to PMSCR_EL1 applies to sampling from the context
 * synchronization event on (emulation.rst, strict mode): the MSR and ISB
 * that enable profiling are not in the population, the MSR and ISB that
 * disable it are (2 operations).
 *
 * void ernd_reads(uint64_t pmscr, uint64_t icr, uint64_t out[2]):
 * PMSICR_EL1 = icr, profiling enabled with PMSCR_EL1 = pmscr; 4 NOPs
 * (ernd_reads_a the first), profiling disabled, out[0] = PMSICR_EL1;
 * enabled again, 8 NOPs (ernd_reads_b), disabled, out[1] = PMSICR_EL1;
 * enabled again, 300 NOPs (ernd_reads_c), disabled. Counted operations:
 * 6 up to the first read, 10 between the reads, 302 after the second.
 */
	.global	ernd_reads, ernd_reads_a, ernd_reads_b, ernd_reads_c
	.balign	4096
ernd_reads:
	msr	PMSICR, x1
	msr	PMSCR, x0
	isb
ernd_reads_a:
	.rept	4
	nop
	.endr
	msr	PMSCR, xzr
	isb
	mrs	x3, PMSICR
	str	x3, [x2]
	msr	PMSCR, x0
	isb
ernd_reads_b:
	.rept	8
	nop
	.endr
	msr	PMSCR, xzr
	isb
	mrs	x3, PMSICR
	str	x3, [x2, #8]
	msr	PMSCR, x0
	isb
ernd_reads_c:
	.rept	300
	nop
	.endr
	msr	PMSCR, xzr
	isb
	ret

/*
 * void icr_read_on(uint64_t pmscr, uint64_t icr, uint64_t out[1]):
 * PMSICR_EL1 = icr, profiling enabled with PMSCR_EL1 = pmscr; 4 NOPs,
 * out[0] = PMSICR_EL1 read with profiling still enabled, 20 NOPs in the
 * same straight line, disabled.
 */
	.global	icr_read_on
	.balign	4096
icr_read_on:
	msr	PMSICR, x1
	msr	PMSCR, x0
	isb
	.rept	4
	nop
	.endr
	mrs	x3, PMSICR
	.rept	20
	nop
	.endr
	msr	PMSCR, xzr
	isb
	str	x3, [x2]
	ret

/*
 * void ernd_write(uint64_t pmscr, uint64_t icr, uint64_t *unused):
 * PMSICR_EL1 = icr, profiling enabled with PMSCR_EL1 = pmscr, 1300 NOPs
 * (ernd_write_ops the first), profiling disabled: 1302 operations.
 */
	.global	ernd_write, ernd_write_ops
	.balign	4096
ernd_write:
	msr	PMSICR, x1
	msr	PMSCR, x0
	isb
ernd_write_ops:
	.rept	1300
	nop
	.endr
	msr	PMSCR, xzr
	isb
	ret

/*
 * Single-operation probes: void name(uint64_t limitr, uint64_t addr,
 * uint64_t val). With PMSICR_EL1.COUNT = 1 the NOP decrements the
 * counter to zero and the operation at name_target is sampled
 * (SPE supplement 3.1.2). name_after labels the next instruction.
 */
	.macro	probe, name, setup, insn, lr=0, gcs=0
	.global	\name, \name\()_target, \name\()_after
	.balign	16
\name:
	.if	\lr		/* the operation uses X30: keep the return address */
	mov	x9, x30
	.endif
	.if	\gcs		/* GCSCR_EL1 = x3 (the GCS probes below) */
	msr	S3_0_C2_C5_0, x3
	isb
	.endif
	\setup
	msr	PMBLIMITR, x0
	nop
\name\()_target:
	\insn
\name\()_after:
	.if	\lr
	mov	x30, x9
	.endif
	msr	PMBLIMITR, xzr
	.if	\gcs
	msr	S3_0_C2_C5_0, xzr
	.endif
	isb
	ret
	.endm

/*
 * FEAT_MOPS probes whose sampled form is a main or an epilogue: the
 * setup's prologue (and main) leave Xd (x1), Xs (x4, a copy's), Xn (x2)
 * and NZCV in uint64_t mops_regs[4], for the expected address
 */
	.macro	mops_save
	adrp	x5, mops_regs
	add	x5, x5, :lo12:mops_regs
	stp	x1, x4, [x5]
	mrs	x6, nzcv
	stp	x2, x6, [x5, #16]
	.endm
	.pushsection .bss
	.balign	8
	.global	mops_regs
mops_regs:
	.skip	32
	.popsection

	probe	op_ldr, "nop", "ldr x3, [x1, #8]"
	probe	op_str, "nop", "str x2, [x1, #16]"
	probe	op_ldp, "nop", "ldp x3, x4, [x1]"
	probe	op_ldr_q, "nop", "ldr q0, [x1]"
	probe	op_ldaxr, "nop", "ldaxr x3, [x1]"
	probe	op_stlr, "nop", "stlr x2, [x1]"
	probe	op_ldadd, "nop", "ldadd x2, x3, [x1]"
	probe	op_bne_nt, "cmp x2, x2", "b.ne op_bne_nt_after"
	probe	op_beq_t, "cmp x2, x2", "b.eq op_beq_t_after"
	probe	op_b, "nop", "b op_b_after"
	probe	op_br, "adr x1, op_br_after", "br x1"
	probe	op_csel, "cmp x2, x2", "csel x3, x2, x1, eq"
	probe	op_add, "nop", "add x3, x2, x1"
	probe	op_psb, "nop", "hint #17"
/* unprivileged: made with EL0's permissions from EL1 (MODE_UNPRIV) */
	probe	op_ldtr, "nop", "ldtr x3, [x1, #8]"
	probe	op_sttr, "nop", "sttr x2, [x1, #16]"
/* FEAT_MOPS unprivileged Memory Set of val bytes at addr; SETPT is sampled */
	.arch_extension mops
	probe	op_setpt, "mov x3, xzr", "setpt [x1]!, x2!, x3; setmt [x1]!, x2!, x3; setet [x1]!, x2!, x3"
/* FEAT_MOPS: a Memory Copy of val bytes from addr + 2048 to addr (CPYP is sampled), a Memory Set */
	probe	op_cpyp, "add x4, x1, #2048", "cpyp [x1]!, [x4]!, x2!; cpym [x1]!, [x4]!, x2!; cpye [x1]!, [x4]!, x2!"
	probe	op_setp, "mov x3, xzr", "setp [x1]!, x2!, x3; setm [x1]!, x2!, x3; sete [x1]!, x2!, x3"
/*
 * val bytes (more than 4096) from addr + 8192 to addr (a page start): the
 * prologue, before profiling, copies or sets the first page, and the
 * main operation, on from addr + 4096, is sampled
 */
	probe	op_cpym, "add x4, x1, #8192; cpyp [x1]!, [x4]!, x2!", "cpym [x1]!, [x4]!, x2!; cpye [x1]!, [x4]!, x2!"
	probe	op_setm, "mov x3, xzr; setp [x1]!, x2!, x3", "setm [x1]!, x2!, x3; sete [x1]!, x2!, x3"
/* the same from addr - 2048, backwards (the regions overlap) */
	probe	op_cpym_back, "sub x4, x1, #2048; cpyp [x1]!, [x4]!, x2!", "cpym [x1]!, [x4]!, x2!; cpye [x1]!, [x4]!, x2!"
/*
 * The epilogue sampled: val bytes (more than a page) from addr + 16384
 * to addr, or set at addr; the prologue and the main run before
 * profiling and mops_save keeps the registers they left
 */
	probe	op_cpye, "add x4, x1, #16384; cpyp [x1]!, [x4]!, x2!; cpym [x1]!, [x4]!, x2!; mops_save", "cpye [x1]!, [x4]!, x2!"
	probe	op_sete, "mov x3, xzr; setp [x1]!, x2!, x3; setm [x1]!, x2!, x3; mops_save", "sete [x1]!, x2!, x3"
/* the same Memory Copy from addr + 4096, the write unprivileged (MODE_UNPRIV) */
	probe	op_cpypwt, "add x4, x1, #4096", "cpypwt [x1]!, [x4]!, x2!; cpymwt [x1]!, [x4]!, x2!; cpyewt [x1]!, [x4]!, x2!"

/* Branch CR (FEAT_SPE_CRR): calls, a return; Other ASE/FP (FEAT_SPE_FPF) */
	probe	op_bl, "nop", "bl op_bl_after", 1
	probe	op_blr, "adr x1, op_blr_after", "blr x1", 1
	probe	op_ret, "adr x30, op_ret_after", "ret", 1
	probe	op_fadd_d, "nop", "fadd d0, d1, d2"
	probe	op_add_v, "nop", "add v0.4s, v1.4s, v2.4s"
	probe	op_fadd_v, "nop", "fadd v0.4s, v1.4s, v2.4s"

/*
 * FEAT_SPE_PBT: the sampled ADD's previous branch target is 91 (the taken
 * B), the probe's entry (the caller's BLR: the B.NE is not taken), or
 * 93 (the target of a RET).
 */
	probe	op_pbt_b, "b 91f; 91:", "add x3, x2, x1"
	probe	op_pbt_nt, "cmp x2, x2; b.ne 92f; 92:", "add x3, x2, x1"
	probe	op_pbt_ret, "adr x30, 93f; ret; 93:", "add x3, x2, x1", 1

/*
 * The classifier's cases (emulation.rst, "Operation classification"):
 * one probe per decode bug fixed, and the unspecified-register forms.
 */
	.arch	armv8.5-a+lse+rcpc+memtag+sve
	probe	op_ldapr, "nop", "ldapr x3, [x1]"
	probe	op_casp, "nop", "casp x4, x5, x6, x7, [x1]"
	probe	op_ldrsw_lit, "nop", "ldrsw x3, op_ldrsw_lit_data"
	probe	op_ldg, "nop", "ldg x3, [x1, #16]"
	probe	op_ld1d, "ptrue p0.d", "ld1d {z0.d}, p0/z, [x1, #1, mul vl]"
	probe	op_st1d, "ptrue p0.d", "st1d {z0.d}, p0, [x1, x2, lsl #3]"
/* the first val doubleword elements active: D18.2.6 E[17], E[18] */
	probe	op_ld1d_first, "whilelo p0.d, xzr, x2", "ld1d {z0.d}, p0/z, [x1]"
	probe	op_st1d_first, "whilelo p0.d, xzr, x2", "st1d {z0.d}, p0, [x1]"
/* every doubleword element true: half the word elements false */
	probe	op_ld1w_dpred, "ptrue p0.d", "ld1w {z0.s}, p0/z, [x1]"
/* words into doubleword elements: governed at doubleword size */
	probe	op_ld1w_d, "ptrue p0.d", "ld1w {z0.d}, p0/z, [x1]"
/* LD1RQ reads one 16-byte block: only its 16 predicate elements count */
	probe	op_ld1rqb_vl16, "ptrue p0.b, vl16", "ld1rqb {z0.b}, p0/z, [x1]"
/* SVE data processing: D18.2.7 Data processing, SVE vector */
	probe	op_sve_add_pred, "ptrue p0.d", "add z0.d, p0/m, z0.d, z1.d"
	probe	op_sve_fadd, "nop", "fadd z0.s, z1.s, z2.s"
	probe	op_sve_fmla_pred, "ptrue p0.s", "fmla z0.s, p0/m, z1.s, z2.s"
	probe	op_sve_sel, "ptrue p0.d", "sel z0.d, p0, z1.d, z2.d"
	probe	op_sve_whilelo, "nop", "whilelo p0.d, xzr, x2"
	probe	op_sve_add_first, "whilelo p0.d, xzr, x2", "add z0.d, p0/m, z0.d, z1.d"
	probe	op_csel_fail, "cmp x2, x2", "csel x3, x2, x1, ne"
	probe	op_fcsel_fail, "cmp x2, x2", "fcsel d0, d1, d2, ne"
	probe	op_dczva, "nop", "dc zva, x1"
	probe	op_prfm, "nop", "prfm pldl1keep, [x1]"
/*
 * SME loads and stores: ZA tile slices in Streaming SVE mode (SMSTART),
 * ZA array vectors with only PSTATE.ZA set (SMSTART ZA), so that the
 * streaming vector length is not the current one. The caller leaves
 * with SMSTOP.
 */
	.arch	armv9-a+sme
	probe	op_sme_ld1w, "smstart; ptrue p0.s; mov w12, #0", "ld1w {za0h.s[w12, 0]}, p0/z, [x1, x2, lsl #2]"
	probe	op_sme_st1d, "smstart; ptrue p0.d; mov w12, #0", "st1d {za0h.d[w12, 0]}, p0, [x1, x2, lsl #3]"
	probe	op_sme_ldr_za, "smstart za; mov w12, #0", "ldr za[w12, 1], [x1, #1, mul vl]"
	probe	op_sme_str_za, "smstart za; mov w12, #0", "str za[w12, 0], [x1]"
	.arch	armv8.5-a+lse+rcpc+memtag+sve

/* 4 bytes at an address that is not 8-byte aligned: LDRSW reads 4 */
	.global	op_ldrsw_lit_data
	.balign	8
	.word	0
op_ldrsw_lit_data:
	.word	-5

/*
 * void spe_branchy(uint64_t iters, uint64_t limitr): per iteration a
 * linear congruential step, a TBZ on its top bit (spe_branchy_tbz: taken
 * about half the time, with no pattern a predictor can learn) and the
 * loop's B.NE (spe_branchy_loop: taken every time but the last).
 */
	.global	spe_branchy, spe_branchy_tbz, spe_branchy_loop
	.balign	16
spe_branchy:
	mov	x2, #1
	ldr	x3, =0x5851f42d4c957f2d
	ldr	x4, =0x14057b7ef767814f
	msr	PMBLIMITR, x1
1:	madd	x2, x2, x3, x4
spe_branchy_tbz:
	tbz	x2, #63, 2f
	add	x5, x5, #1
2:	subs	x0, x0, #1
spe_branchy_loop:
	b.ne	1b
	msr	PMBLIMITR, xzr
	isb
	ret
	.ltorg

/*
 * GCS probes (FEAT_GCS, mode GCS): void name(uint64_t limitr, uint64_t
 * addr, uint64_t val, uint64_t gcscr). GCSCR_EL1 (S3_0_C2_C5_0) is
 * gcscr only from before the setup to after the sampled operation, so
 * that no call or return of the C code touches the Guarded Control
 * Stack. The GCS instructions are words: binutils 2.40 has no GCS.
 */
	probe	op_gcsstr, "nop", ".inst 0xd91f0c22", 1, 1	/* GCSSTR x2, [x1] */
	probe	op_gcspushm, "nop", ".inst 0xd50b7702", 1, 1	/* GCSPUSHM x2 */
	/* GCSPUSHM x2, then GCSPOPM x3 */
	probe	op_gcspopm, ".inst 0xd50b7702", ".inst 0xd52b7723", 1, 1
	probe	op_gcs_bl, "nop", "bl gcs_leaf", 1, 1
	/* the return address pushed by hand (GCSPUSHM x30), then RET */
	probe	op_gcs_ret, "adr x30, op_gcs_ret_after; .inst 0xd50b771e", "ret", 1, 1
gcs_leaf:
	ret

/*
 * FEAT_LSE128 (mode LSE128), as words: binutils 2.40 has no LSE128.
 * x1 the 16-byte aligned address, x2/x3 the register pair.
 */
	probe	op_ldclrp, "mov x3, xzr", ".inst 0x19231022"	/* LDCLRP x2, x3, [x1] */
	probe	op_ldsetp, "mov x3, xzr", ".inst 0x19233022"	/* LDSETP x2, x3, [x1] */
	probe	op_swpp, "mov x3, xzr", ".inst 0x19238022"	/* SWPP x2, x3, [x1] */
	probe	op_swppal, "mov x3, xzr", ".inst 0x19e38022"	/* SWPPAL x2, x3, [x1] */

/*
 * FEAT_NV2 (mode NV2): system register moves at EL1 under HCR_EL2.NV2,
 * where EL1's PMBLIMITR_EL1 is memory: the program's EL2 enables the
 * buffer and sets PMSICR_EL1.COUNT = 1 on HVC #1 and disables it on
 * HVC #2 (tests.c, el2_trap_handler()). Same signature as probe.
 */
	.macro	nv2probe, name, insn
	.global	\name, \name\()_target, \name\()_after
	.balign	16
\name:
	hvc	#1
	nop
\name\()_target:
	\insn
\name\()_after:
	hvc	#2
	ret
	.endm

	nv2probe op_mrs_hcr_el2, "mrs x3, hcr_el2"
	nv2probe op_msr_tpidr_el2, "msr tpidr_el2, x2"
	nv2probe op_msr_pmsicr_el1, "msr S3_0_C9_C9_2, x2"	/* PMSICR_EL1 */
	nv2probe op_mrs_sctlr_el1, "mrs x3, sctlr_el1"
	nv2probe op_mrs_midr_el1, "mrs x3, midr_el1"

/*
 * SME2/SVE2p1 multi-vector loads and stores (mode MULTI), as words
 * (LLVM 16's llvm-mc assembled them): a predicate-as-counter from PTRUE
 * (0x25207810 PN8.B, 0x25e07810 PN8.D), WHILELO PN8.B, X6, X7, VLx2
 * (0x25274cd0), WHILELO PN9.D, X6, X7, VLx4 (0x25e76cd1) or PFALSE P8.B
 * (0x2518e408), WHILELO PN8.B, X6, X7, VLx4 (0x25276cd0), then LD1B
 * {Z0.B, Z1.B}, PN8/Z, [X1] (0xa0400020),
 * ST1W {Z0.S, Z1.S}, PN8, [X1, #2, MUL VL] (0xa0614020) or
 * LD1D {Z0.D-Z3.D}, PN9/Z, [X1, X2, LSL #3] (0xa002e420; 0xa002e020 with
 * PN8).
 */
	probe	op_m_ld1b_true, ".inst 0x25207810", ".inst 0xa0400020"
	/* LD1B {Z0.B-Z3.B}, PN8/Z, [X1] (0xa0408020) */
	probe	op_m_ld1b_x4, ".inst 0x25207810", ".inst 0xa0408020"
	probe	op_m_ld1b_partial, "mov x6, #0; mov x7, #3; .inst 0x25274cd0", ".inst 0xa0400020"
	probe	op_m_ld1b_empty, ".inst 0x2518e408", ".inst 0xa0400020"
	probe	op_m_ld1b_counter_d, ".inst 0x25e07810", ".inst 0xa0400020"
	probe	op_m_st1w_imm, ".inst 0x25207810", ".inst 0xa0614020"
	probe	op_m_ld1d_partial, "mov x6, #0; mov x7, #5; mov x2, #1; .inst 0x25e76cd1", ".inst 0xa002e420"
	/* WHILELO PN8.B, X6, X7, VLx4, then LD1D {Z0.D-Z3.D}, PN8/Z, [X1, X2, LSL #3] */
	probe	op_m_ld1d_byte_counter, "mov x6, #0; mov x7, #121; mov x2, #1; .inst 0x25276cd0", ".inst 0xa002e020"

/*
 * FEAT_MTE (mode MTE): loads based on SP, which only some forms check
 * (the Arm ARM's tagchecked). The setup points SP at x1; the instruction
 * after the sampled one puts it back.
 */
	.arch	armv8.5-a+memtag+sve
	probe	op_mte_ldr_sp, "mov x10, sp; mov sp, x1", "ldr x3, [sp, #8]; mov sp, x10"
	probe	op_mte_ldr_sp_pre, "mov x10, sp; mov sp, x1", "ldr x3, [sp, #16]!; mov sp, x10"
	probe	op_mte_ldr_sp_reg, "mov x10, sp; mov sp, x1", "ldr x3, [sp, x2]; mov sp, x10"
	probe	op_mte_stp_sp_post, "mov x10, sp; mov sp, x1", "stp x2, x2, [sp], #16; mov sp, x10"
	probe	op_mte_ld1d_sp, "ptrue p0.d; mov x10, sp; mov sp, x1", "ld1d {z0.d}, p0/z, [sp, #1, mul vl]; mov sp, x10"
	probe	op_mte_ldr_lit, "nop", "ldr x3, op_ldrsw_lit_data"
	probe	op_mte_ldapur, "nop", "ldapur x3, [x1, #8]"
	.arch_extension	mops
	probe	op_mte_setgp, "mov x3, xzr", "setgp [x1]!, x2!, x3; setgm [x1]!, x2!, x3; setge [x1]!, x2!, x3"
/* the same with the main or the epilogue sampled: mops_save as above */
	probe	op_mte_setgm, "mov x3, xzr; setgp [x1]!, x2!, x3; mops_save", "setgm [x1]!, x2!, x3; setge [x1]!, x2!, x3"
	probe	op_mte_setge, "mov x3, xzr; setgp [x1]!, x2!, x3; setgm [x1]!, x2!, x3; mops_save", "setge [x1]!, x2!, x3"

/* void mte_stg(uint64_t p): the Allocation Tag of p's granule := p's tag */
	.global	mte_stg
mte_stg:
	stg	x0, [x0]
	ret

/* void mte_tco(uint64_t on): PSTATE.TCO, Tag Check Override */
	.global	mte_tco
mte_tco:
	cbz	x0, 1f
	msr	tco, #1
	ret
1:	msr	tco, #0
	ret

/*
 * FEAT_SPE_SME (mode SME): SME's operations on ZA and operations in
 * Streaming SVE mode. The caller leaves with SMSTOP.
 */
	.arch	armv9-a+sme+sme-i64
	probe	op_sme_fmopa_s, "smstart; ptrue p0.s", "fmopa za0.s, p0/m, p0/m, z0.s, z1.s"
	probe	op_sme_smopa_d, "smstart; ptrue p0.d", "smopa za1.d, p0/m, p0/m, z0.h, z1.h"
	probe	op_sme_addha_s, "smstart; ptrue p0.s", "addha za2.s, p0/m, p0/m, z0.s"
	probe	op_sme_mova, "smstart; ptrue p0.s; mov w12, #0", "mova za0h.s[w12, 0], p0/m, z0.s"
	probe	op_sme_zero, "smstart za", "zero {za}"
	probe	op_sme_add_sm, "smstart", "add x3, x2, x1"
	probe	op_sme_sve_add_sm, "smstart", "add z0.s, z1.s, z2.s"
	probe	op_sme_ldr_za_nsm, "smstart za; mov w12, #0", "ldr za[w12, 0], [x1]"
	probe	op_sme_ld2d_sm, "smstart; ptrue p0.d", "ld2d {z0.d, z1.d}, p0/z, [x1]"
	/* SME2: LUTI2 { Z0.B, Z1.B }, ZT0, Z2[0] (0xc08c4040) */
	probe	op_sme_luti2_x2, "smstart", ".inst 0xc08c4040"
	/*
	 * SME2's operations on ZA (encodings from llvm-mc 16; bookworm's
	 * binutils knows no SME2): FMLA ZA.S[W8, 0, VGx2], { Z0.S, Z1.S },
	 * Z0.S; SMLALL ZA.S[W8, 0:3, VGx4], { Z0.B - Z3.B }, Z4.B; FMLAL
	 * ZA.S[W8, 0:1], Z0.H, Z1.H; MOVA { Z0.D, Z1.D }, ZA.D[W8, 0, VGx2];
	 * BMOPA ZA0.S, P0/M, P0/M, Z0.S, Z1.S; FMOPA ZA0.H, P0/M, P0/M, Z0.H,
	 * Z1.H (FEAT_SME_F16F16); FCLAMP { Z0.S, Z1.S }, Z2.S, Z3.S; ZERO
	 * ZA.D[W8, 0:3, VGx4] (SME2p1)
	 */
	probe	op_sme2_fmla_vgx2, "smstart; mov w8, #0", ".inst 0xc1201800"
	probe	op_sme2_smlall_vgx4, "smstart; mov w8, #0", ".inst 0xc1340000"
	probe	op_sme2_fmlal_single, "smstart; mov w8, #0", ".inst 0xc1210c00"
	probe	op_sme2_mova_vgx2, "smstart; mov w8, #0", ".inst 0xc0060800"
	probe	op_sme2_bmopa, "smstart; ptrue p0.s", ".inst 0x80810008"
	probe	op_sme2_fmopa_h, "smstart; ptrue p0.h", ".inst 0x81810008"
	probe	op_sme2_fclamp_x2, "smstart", ".inst 0xc1a3c040"
	probe	op_sme2_zero_vgx4, "smstart; mov w8, #0", ".inst 0xc00f8000"
