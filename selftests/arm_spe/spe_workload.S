/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Workloads of the arm_spe selftests, in assembly so that the tests know
 * every instruction they execute: the sampled PCs, operation types and
 * data addresses are checked against this code, never against the code
 * under test.
 */
	.text
	.balign	64
	.globl	spe_wl_start
spe_wl_start:

/* void spe_wl_ldst(uint64_t *buf, uint64_t idx_mask, uint64_t iters) */
	.globl	spe_wl_ldst, spe_wl_ldst_loop, spe_wl_ldst_end
	.type	spe_wl_ldst, %function
spe_wl_ldst:
	mov	x3, #0
spe_wl_ldst_loop:
	ldr	x4, [x0, x3, lsl #3]
	add	x4, x4, #1
	str	x4, [x0, x3, lsl #3]
	add	x3, x3, #1
	and	x3, x3, x1
	subs	x2, x2, #1
	b.ne	spe_wl_ldst_loop
	ret
spe_wl_ldst_end:
	.size	spe_wl_ldst, . - spe_wl_ldst

/* void spe_wl_branch(uint64_t iters) */
	.globl	spe_wl_branch, spe_wl_branch_end
	.type	spe_wl_branch, %function
spe_wl_branch:
	stp	x29, x30, [sp, #-16]!
	mov	x29, sp
1:	tst	x0, #1
	b.eq	2f
	nop
2:	bl	3f
	subs	x0, x0, #1
	b.ne	1b
	ldp	x29, x30, [sp], #16
	ret
3:	ret
spe_wl_branch_end:
	.size	spe_wl_branch, . - spe_wl_branch

/* void spe_wl_misalign(uint8_t *buf, uint64_t iters) */
	.globl	spe_wl_misalign, spe_wl_misalign_end
	.type	spe_wl_misalign, %function
spe_wl_misalign:
1:	ldr	x2, [x0, #1]
	add	x3, x3, x2
	subs	x1, x1, #1
	b.ne	1b
	ret
spe_wl_misalign_end:
	.size	spe_wl_misalign, . - spe_wl_misalign

/*
 * void spe_wl_simdfp(uint64_t iters): scalar floating-point, Advanced SIMD
 * integer and Advanced SIMD floating-point data processing (the ASE and FP
 * flags of an "other" operation, FEAT_SPE_FPF, and the EFT type filter).
 */
	.globl	spe_wl_simdfp, spe_wl_simdfp_end
	.type	spe_wl_simdfp, %function
spe_wl_simdfp:
	movi	v1.2d, #0
	movi	v4.2d, #0
	movi	v6.2d, #0
1:	fadd	d0, d0, d1
	fmul	d2, d2, d1
	add	v3.4s, v3.4s, v4.4s
	fadd	v5.4s, v5.4s, v6.4s
	subs	x0, x0, #1
	b.ne	1b
	ret
spe_wl_simdfp_end:
	.size	spe_wl_simdfp, . - spe_wl_simdfp

/*
 * void spe_wl_sve(uint64_t *buf, uint64_t iters): SVE data processing
 * and an SVE load, SPE_WL_SVE_INSNS a loop iteration, in this order
 * (spe_capture.c's sve_expect[] says what D18.2.7 makes of each): an
 * operation on predicates only; another, leaving one doubleword element
 * of P1 active; ADD under P0 (all active) and under P1 (one active: E[17],
 * D18.2.6); an unpredicated FADD; SEL, whose predicate selects; a
 * predicated LD1D; SUBS, B.NE.
 */
	.arch_extension	sve
	.globl	spe_wl_sve, spe_wl_sve_loop, spe_wl_sve_end
	.type	spe_wl_sve, %function
spe_wl_sve:
	mov	x2, #1
spe_wl_sve_loop:
	ptrue	p0.d
	whilelo	p1.d, xzr, x2
	add	z0.d, p0/m, z0.d, z1.d
	add	z2.d, p1/m, z2.d, z1.d
	fadd	z3.s, z4.s, z5.s
	sel	z6.d, p1, z7.d, z8.d
	ld1d	{z9.d}, p0/z, [x0]
	subs	x1, x1, #1
	b.ne	spe_wl_sve_loop
	ret
spe_wl_sve_end:
	.size	spe_wl_sve, . - spe_wl_sve

/*
 * void spe_wl_sme(uint64_t *buf, uint64_t iters): SME loads and stores in
 * Streaming SVE mode with ZA, SPE_WL_SME_INSNS a loop iteration, in this
 * order (spe_capture.c's sme_expect[]): PTRUE; LD1W and ST1W of a ZA tile
 * slice at buf, governed by it; LDR and STR of a ZA array vector at buf;
 * SUBS, B.NE. buf holds at least 256 bytes (the longest vector).
 */
	.arch_extension	sme
	.globl	spe_wl_sme, spe_wl_sme_loop, spe_wl_sme_end
	.type	spe_wl_sme, %function
spe_wl_sme:
	smstart
	mov	w12, #0
spe_wl_sme_loop:
	ptrue	p0.s
	ld1w	{za0h.s[w12, 0]}, p0/z, [x0]
	st1w	{za0h.s[w12, 0]}, p0, [x0]
	ldr	za[w12, 0], [x0]
	str	za[w12, 0], [x0]
	subs	x1, x1, #1
	b.ne	spe_wl_sme_loop
	smstop
	ret
spe_wl_sme_end:
	.size	spe_wl_sme, . - spe_wl_sme

/*
 * void spe_wl_sme_dp(uint64_t iters): SME operations on ZA in Streaming
 * SVE mode, SPE_WL_SME_DP_INSNS a loop iteration, in this order
 * (spe_capture.c's sme_dp_expect[]): FMOPA into ZA0.S, MOVA of a vector
 * into a ZA0.S slice, ZERO {ZA}, a scalar ADD, SUBS, B.NE.
 */
	.globl	spe_wl_sme_dp, spe_wl_sme_dp_loop, spe_wl_sme_dp_end
	.type	spe_wl_sme_dp, %function
spe_wl_sme_dp:
	smstart
	ptrue	p0.s
	mov	w12, #0
spe_wl_sme_dp_loop:
	fmopa	za0.s, p0/m, p0/m, z0.s, z1.s
	mova	za0h.s[w12, 0], p0/m, z0.s
	zero	{za}
	add	x2, x2, #1
	subs	x0, x0, #1
	b.ne	spe_wl_sme_dp_loop
	smstop
	ret
spe_wl_sme_dp_end:
	.size	spe_wl_sme_dp, . - spe_wl_sme_dp

/*
 * void spe_wl_atomic(uint64_t *buf, uint64_t iters): LSE atomics,
 * acquire/release and exclusives at buf (16-byte aligned),
 * SPE_WL_ATOMIC_INSNS a loop iteration, in this order (spe_capture.c's
 * atomic_expect[]): LDADD, LDADDAL, CAS, CASP, SWPAL, LDAPR, STLR, LDAXR,
 * STLXR (its status is not looked at), SUBS, B.NE.
 */
	.arch_extension	lse
	.arch_extension	rcpc
	.globl	spe_wl_atomic, spe_wl_atomic_loop, spe_wl_atomic_end
	.type	spe_wl_atomic, %function
spe_wl_atomic:
	mov	x4, #1
spe_wl_atomic_loop:
	ldadd	x4, x5, [x0]
	ldaddal	x4, x5, [x0]
	cas	x5, x6, [x0]
	casp	x6, x7, x8, x9, [x0]
	swpal	x4, x5, [x0]
	ldapr	x5, [x0]
	stlr	x5, [x0]
	ldaxr	x5, [x0]
	stlxr	w6, x5, [x0]
	subs	x1, x1, #1
	b.ne	spe_wl_atomic_loop
	ret
spe_wl_atomic_end:
	.size	spe_wl_atomic, . - spe_wl_atomic

/*
 * void spe_wl_mops(uint8_t *dst, const uint8_t *src, uint64_t n,
 * uint64_t iters): an n-byte Memory Copy from src to dst and an n-byte
 * Memory Set of dst (FEAT_MOPS), each as its prologue, main and
 * epilogue, SPE_WL_MOPS_INSNS a loop iteration, in this order
 * (spe_capture.c's mops_expect[]): MOV, MOV, MOV, CPYP, CPYM, CPYE, MOV,
 * MOV, SETP, SETM, SETE, SUBS, B.NE.
 */
	.arch_extension	mops
	.globl	spe_wl_mops, spe_wl_mops_loop, spe_wl_mops_end
	.type	spe_wl_mops, %function
spe_wl_mops:
spe_wl_mops_loop:
	mov	x4, x0
	mov	x5, x1
	mov	x6, x2
	cpyp	[x4]!, [x5]!, x6!
	cpym	[x4]!, [x5]!, x6!
	cpye	[x4]!, [x5]!, x6!
	mov	x4, x0
	mov	x6, x2
	setp	[x4]!, x6!, xzr
	setm	[x4]!, x6!, xzr
	sete	[x4]!, x6!, xzr
	subs	x3, x3, #1
	b.ne	spe_wl_mops_loop
	ret
spe_wl_mops_end:
	.size	spe_wl_mops, . - spe_wl_mops

	.globl	spe_wl_end
spe_wl_end:

/*
 * void spe_mte_set_tags(uint64_t *p, uint64_t len): the Allocation Tag of
 * every 16-byte granule of [p, p + len) := p's tag (STG, FEAT_MTE). Not a
 * workload: after spe_wl_end.
 */
	.arch	armv8.5-a+memtag
	.globl	spe_mte_set_tags
	.type	spe_mte_set_tags, %function
spe_mte_set_tags:
	cbz	x1, 2f
1:	stg	x0, [x0], #16
	subs	x1, x1, #16
	b.hi	1b
2:	ret
	.size	spe_mte_set_tags, . - spe_mte_set_tags
	.section .note.GNU-stack,"",%progbits
