/*
 * Bare-metal start-up for the SPE conformance programs.
 *
 * QEMU's virt machine enters an ELF -kernel at its entry point at EL1
 * (no EL2/EL3 unless asked for) with the MMU off. We set a stack, install
 * the vector table and call main(). Semihosting (HLT #0xf000) exits.
 */
	.section .text.start, "ax"
	.global _start
_start:
	ldr	x0, =__stack_top
	mov	sp, x0
	ldr	x0, =__bss_start
	ldr	x1, =__bss_end
2:	cmp	x0, x1
	b.hs	3f
	str	xzr, [x0], #8
	b	2b
3:	ldr	x0, =vectors
	msr	vbar_el1, x0
	/* FP/SIMD on at EL1 (CPACR_EL1.FPEN = 0b11) */
	mov	x0, #(3 << 20)
	msr	cpacr_el1, x0
	isb
	bl	main
	bl	semihost_exit
1:	wfi
	b	1b

/* void semihost_exit(int code) */
	.global semihost_exit
semihost_exit:
	ldr	x1, =exit_block
	ldr	x2, =0x20026		/* ADP_Stopped_ApplicationExit */
	str	x2, [x1]
	sxtw	x0, w0
	str	x0, [x1, #8]
	mov	x0, #0x20		/* SYS_EXIT_EXTENDED */
	hlt	#0xf000
	b	.

/*
 * Vector table: IRQs from the current EL (SPx) go to irq_handler();
 * everything else is reported by bad_exception(type, esr, elr, far).
 */
	.macro	vent, label
	.balign	0x80
	b	\label
	.endm

	.macro	bad, n
bad_\n:
	mov	x0, #\n
	mrs	x1, esr_el1
	mrs	x2, elr_el1
	mrs	x3, far_el1
	bl	bad_exception
	b	.
	.endm

	.balign	0x800
vectors:
	vent	bad_0
	vent	bad_1
	vent	bad_2
	vent	bad_3
	vent	sync_entry
	vent	irq_entry
	vent	bad_6
	vent	bad_7
	vent	lower_sync_entry
	vent	bad_9
	vent	bad_10
	vent	bad_11
	vent	bad_12
	vent	bad_13
	vent	bad_14
	vent	bad_15

	bad	0
	bad	1
	bad	2
	bad	3
	bad	6
	bad	7
	bad	9
	bad	10
	bad	11
	bad	12
	bad	13
	bad	14
	bad	15

/*
 * An exception entry that keeps the caller-saved registers: \fn(ESR_\el,
 * ELR_\el) returns the address to resume at, or 0 to bail out at \bail.
 */
	.macro	resume_entry, name, el, fn, bail
\name:
	sub	sp, sp, #(24 * 8)
	stp	x0, x1, [sp, #0]
	stp	x2, x3, [sp, #16]
	stp	x4, x5, [sp, #32]
	stp	x6, x7, [sp, #48]
	stp	x8, x9, [sp, #64]
	stp	x10, x11, [sp, #80]
	stp	x12, x13, [sp, #96]
	stp	x14, x15, [sp, #112]
	stp	x16, x17, [sp, #128]
	stp	x18, x30, [sp, #144]
	mrs	x0, esr_\el
	mrs	x1, elr_\el
	bl	\fn
	cbz	x0, \bail
	msr	elr_\el, x0
	ldp	x0, x1, [sp, #0]
	ldp	x2, x3, [sp, #16]
	ldp	x4, x5, [sp, #32]
	ldp	x6, x7, [sp, #48]
	ldp	x8, x9, [sp, #64]
	ldp	x10, x11, [sp, #80]
	ldp	x12, x13, [sp, #96]
	ldp	x14, x15, [sp, #112]
	ldp	x16, x17, [sp, #128]
	ldp	x18, x30, [sp, #144]
	add	sp, sp, #(24 * 8)
	eret
	.endm

/*
 * Synchronous exception from EL1: sync_handler(esr, elr) (tests probing
 * for UNDEFINED).
 */
	resume_entry sync_entry, el1, sync_handler, bad_4
	bad	4

/*
 * Synchronous exception from a lower EL: taken to EL2 (a trap, when the
 * program runs EL1 code under its own EL2): el2_trap_handler(esr, elr).
 * Used with VBAR_EL2 = VBAR_EL1 (tests.c, el2_to_el1_trap_stack()); the
 * same entry at EL1 would be an exception from EL0, which runs only
 * under run_el0() and its own vector table (el0.S).
 */
	resume_entry lower_sync_entry, el2, el2_trap_handler, bad_8
	bad	8

irq_entry:
	sub	sp, sp, #(24 * 8)
	stp	x0, x1, [sp, #0]
	stp	x2, x3, [sp, #16]
	stp	x4, x5, [sp, #32]
	stp	x6, x7, [sp, #48]
	stp	x8, x9, [sp, #64]
	stp	x10, x11, [sp, #80]
	stp	x12, x13, [sp, #96]
	stp	x14, x15, [sp, #112]
	stp	x16, x17, [sp, #128]
	stp	x18, x30, [sp, #144]
	mrs	x0, elr_el1
	mrs	x1, spsr_el1
	stp	x0, x1, [sp, #160]
	bl	irq_handler
	ldp	x0, x1, [sp, #160]
	msr	elr_el1, x0
	msr	spsr_el1, x1
	ldp	x0, x1, [sp, #0]
	ldp	x2, x3, [sp, #16]
	ldp	x4, x5, [sp, #32]
	ldp	x6, x7, [sp, #48]
	ldp	x8, x9, [sp, #64]
	ldp	x10, x11, [sp, #80]
	ldp	x12, x13, [sp, #96]
	ldp	x14, x15, [sp, #112]
	ldp	x16, x17, [sp, #128]
	ldp	x18, x30, [sp, #144]
	add	sp, sp, #(24 * 8)
	eret

	.data
	.balign	8
exit_block:
	.quad	0, 0
