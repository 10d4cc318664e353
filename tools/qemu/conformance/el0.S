/*
 * EL0 for the conformance programs: run_el0() drops to EL0 at a function
 * in the EL0-executable block (section .el0.text, mapped EL0/EL1
 * read-only by mmu_on() in MODE_EL0) and comes back when it executes
 * SVC, through a vector table of its own (the program's table sends a
 * lower-EL exception to its EL2 trap handler).
 *
 * uint64_t run_el0(void (*fn)(uint64_t), uint64_t arg): ESR_EL1 of the
 * exception that ended the EL0 run (EC 0x15 for the SVC).
 */
	.text
	.global	run_el0
run_el0:
	stp	x29, x30, [sp, #-96]!
	stp	x19, x20, [sp, #16]
	stp	x21, x22, [sp, #32]
	stp	x23, x24, [sp, #48]
	stp	x25, x26, [sp, #64]
	stp	x27, x28, [sp, #80]
	ldr	x2, =el0_ctx
	mov	x3, sp
	str	x3, [x2]
	mrs	x3, vbar_el1
	str	x3, [x2, #8]
	ldr	x3, =el0_vectors
	msr	vbar_el1, x3
	msr	elr_el1, x0
	mov	x0, x1
	/* SPSR_EL1: EL0t, D, A, I, F masked */
	mov	x3, #0x3c0
	msr	spsr_el1, x3
	isb
	eret

el0_back:
	ldr	x2, =el0_ctx
	ldr	x3, [x2]
	mov	sp, x3
	ldr	x3, [x2, #8]
	msr	vbar_el1, x3
	isb
	mrs	x0, esr_el1
	ldp	x19, x20, [sp, #16]
	ldp	x21, x22, [sp, #32]
	ldp	x23, x24, [sp, #48]
	ldp	x25, x26, [sp, #64]
	ldp	x27, x28, [sp, #80]
	ldp	x29, x30, [sp], #96
	ret

/* Every exception while run_el0() is in progress ends the EL0 run */
	.balign	0x800
el0_vectors:
	.rept	16
	.balign	0x80
	b	el0_back
	.endr

/*
 * void el0_spin(uint64_t iters), at EL0: 3 * iters operations (ADD,
 * SUBS, B.NE) touching no memory, then SVC #0.
 */
	.section .el0.text, "ax"
	.global	el0_spin, el0_spin_end
el0_spin:
1:	add	x1, x1, #1
	subs	x0, x0, #1
	b.ne	1b
	svc	#0
el0_spin_end:

/*
 * void el0_udf(uint64_t unused), el0_trap(uint64_t unused) and
 * el0_store_ro(uint64_t addr), at EL0: 4 NOPs, then the fifth operation
 * (el0_udf_op, el0_trap_op, el0_store_ro_op) takes a synchronous
 * exception: UDF #0 is UNDEFINED; MRS of CTR_EL0 with SCTLR_EL1.UCT = 0
 * is trapped to EL1; STR X0, [X0]
 * with X0 = an address in this read-only block is a Permission fault. 20 NOPs
 * and SVC #0 follow in the same straight line, within one 128-byte
 * aligned run that no page boundary splits; the exception (run_el0()
 * returns on it) leaves them unexecuted.
 */
	.balign	128
	.global	el0_udf, el0_udf_op
el0_udf:
	.rept	4
	nop
	.endr
el0_udf_op:
	.inst	0x00000000		/* UDF #0 */
	.rept	20
	nop
	.endr
	svc	#0

	.balign	128
	.global	el0_trap, el0_trap_op
el0_trap:
	.rept	4
	nop
	.endr
el0_trap_op:
	mrs	x1, ctr_el0		/* trapped: SCTLR_EL1.UCT 0 */
	.rept	20
	nop
	.endr
	svc	#0

	.balign	128
	.global	el0_store_ro, el0_store_ro_op
el0_store_ro:
	.rept	4
	nop
	.endr
el0_store_ro_op:
	str	x0, [x0]
	.rept	20
	nop
	.endr
	svc	#0

/*
 * void el0_bti(uint64_t unused), at EL0 in a guarded page (mmu_on(): GP
 * set on this block when FEAT_BTI is implemented): 2 NOPs, then ADR and
 * BR to the next instruction, el0_bti_op, a NOP, which is not a valid target
 * for the BTYPE the BR sets: the fifth operation takes a Branch Target
 * exception, EC 0x0D. 20 NOPs and SVC #0 follow it in the TB that
 * starts at el0_bti_op.
 */
	.balign	128
	.global	el0_bti, el0_bti_op
el0_bti:
	nop
	nop
	adr	x1, el0_bti_op
	br	x1
el0_bti_op:
	nop				/* not BTI: Branch Target exception */
	.rept	20
	nop
	.endr
	svc	#0

	.data
	.balign	8
el0_ctx:
	.quad	0, 0
