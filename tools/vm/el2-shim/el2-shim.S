/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A minimal EL2 firmware for the VM harness (run.sh --el2-shim): entered
 * by QEMU at EL2 (-M virt,virtualization=on, an ELF -kernel), it sets up
 * EL2 the way Documentation/arch/arm64/booting.rst asks of a boot loader
 * that keeps EL2 for itself, programs MDCR_EL2.E2PB (the owner of the
 * Statistical Profiling Unit's buffer, SPE supplement 3.4.2, the table of
 * "The owning Exception level") and enters the Linux Image at EL1.
 *
 *   SHIM_E2PB    MDCR_EL2.E2PB: 0b00 the buffer belongs to EL2, PMBIDR_EL1.P
 *                reads 1 at EL1 and the other PMB* registers trap to EL2
 *                (4.3.1-4.3.4); 0b11 EL1 owns it, nothing traps.
 *   SHIM_CNTVOFF CNTVOFF_EL2: the virtual count that far behind the
 *                physical one, as a hypervisor gives a guest, so that the
 *                two can be told apart. The shim first waits for the
 *                physical count to pass it, so that the virtual count starts
 *                near 0 and never wraps. (Not a "negative" offset, virtual
 *                ahead of physical: QEMU 10.0's gt_recalc_timer() takes
 *                cval + offset overflowing 64 bits for "never", and the
 *                virtual timer would not fire.)
 *   SHIM_KERNEL  where the Image is (2 MiB aligned; run.sh links it there)
 *   SHIM_DTB     where QEMU puts the DTB for an ELF kernel (base of RAM)
 *   SHIM_IMAGE_FILE, SHIM_INITRD_FILE  the Image and the initrd, included
 *                as sections of their own (.kernel, .initrd) that run.sh
 *                places: QEMU's ELF loader loads them with the shim
 *
 * Any exception taken to EL2 afterwards (the kernel touched something it
 * must not, e.g. a PMB* register with E2PB 0b00) prints ESR_EL2, ELR_EL2
 * and FAR_EL2 on the PL011 and powers the machine off through PSCI: the
 * guest's result lines are missing, and the harness fails the boot.
 * One CPU only: secondaries started by PSCI CPU_ON would not run this.
 */

#define UART_DR		0x09000000	/* virt's PL011 data register */
#define PSCI_SYSTEM_OFF	0x84000008

/* System registers by encoding, for assemblers without the features */
#define zcr_el2		s3_4_c1_c2_0
#define smcr_el2	s3_4_c1_c2_6
#define hcrx_el2	s3_4_c1_c2_2
#define hfgrtr_el2	s3_4_c1_c1_4
#define hfgwtr_el2	s3_4_c1_c1_5
#define hdfgrtr_el2	s3_4_c3_c1_4
#define hdfgwtr_el2	s3_4_c3_c1_5
#define icc_sre_el2	s3_4_c12_c9_5
#define pmscr_el2	s3_4_c9_c9_0
#define pmblimitr_el1	s3_0_c9_c10_0
#define id_aa64mmfr3_el1	s3_0_c0_c7_3

/*
 * feat_or REG, ID, LSB, BITS: set BITS in REG when the ID register field
 * ID[LSB+3:LSB] is non-zero (the feature is implemented). Uses x9.
 */
	.macro	feat_or reg, id, lsb, bits
	ubfx	x9, \id, #\lsb, #4
	cbz	x9, 99f
	orr	\reg, \reg, #\bits
99:
	.endm

	.section .text.entry, "ax"
	.global _start
_start:
	adr	x0, vectors
	msr	vbar_el2, x0

	/* EL1 is AArch64; its pointer authentication and tag accesses do not trap */
	mov	x0, #(1 << 31)			/* HCR_EL2.RW */
	orr	x0, x0, #(3 << 40)		/* APK, API */
	orr	x0, x0, #(1 << 56)		/* ATA */
	msr	hcr_el2, x0

	/* EL1 may use the physical counter and timer; no virtual offset */
	mov	x0, #3				/* CNTHCTL_EL2.EL1PCTEN, EL1PCEN */
	msr	cnthctl_el2, x0
	ldr	x0, =SHIM_CNTVOFF
9:	isb
	mrs	x1, cntpct_el0
	cmp	x1, x0
	b.lo	9b
	msr	cntvoff_el2, x0

	/* EL1 reads the real MIDR_EL1 and MPIDR_EL1 */
	mrs	x0, midr_el1
	msr	vpidr_el2, x0
	mrs	x0, mpidr_el1
	msr	vmpidr_el2, x0

	/* No FP, SVE or SME traps (CPTR_EL2, E2H = 0: RES1 bits 13, 9, 7:0) */
	mov	x0, #0x22ff
	msr	cptr_el2, x0
	isb
	mrs	x1, id_aa64pfr0_el1
	ubfx	x2, x1, #32, #4			/* SVE */
	cbz	x2, 1f
	mov	x0, #0xf			/* ZCR_EL2.LEN: no limit */
	msr	zcr_el2, x0
1:	mrs	x1, id_aa64pfr1_el1
	ubfx	x2, x1, #24, #4			/* SME */
	cbz	x2, 2f
	mov	x0, #0xf			/* SMCR_EL2.LEN: no limit */
	msr	smcr_el2, x0
2:
	/*
	 * FEAT_FGT: the "n" trap bits are traps when 0. Clear the trap of
	 * each register the CPU implements, as a hypervisor that knows it
	 * would (a newer CPU model adds registers the kernel then uses).
	 */
	mrs	x1, id_aa64mmfr0_el1
	ubfx	x2, x1, #56, #4			/* FGT */
	cbz	x2, 3f
	mov	x0, #(3 << 54)			/* nSMPRI_EL1, nTPIDR2_EL0 */
	mrs	x1, id_aa64pfr1_el1
	feat_or	x0, x1, 44, (3 << 52)		/* GCS: nGCS_EL1, nGCS_EL0 */
	feat_or	x0, x1, 48, (1 << 56)		/* THE: nRCWMASK_EL1 */
	mrs	x1, id_aa64mmfr3_el1
	feat_or	x0, x1, 8, (3 << 57)		/* S1PIE: nPIR_EL1, nPIRE0_EL1 */
	feat_or	x0, x1, 16, (3 << 59)		/* S1POE: nPOR_EL1, nPOR_EL0 */
	feat_or	x0, x1, 20, (1 << 61)		/* S2POE: nS2POR_EL1 */
	feat_or	x0, x1, 24, (3 << 62)		/* AIE: nAMAIR2_EL1, nMAIR2_EL1 */
	msr	hfgrtr_el2, x0
	msr	hfgwtr_el2, x0
	mov	x0, #(1 << 62)			/* nPMSNEVFR_EL1 */
	msr	hdfgrtr_el2, x0
	msr	hdfgwtr_el2, x0
3:
	/* FEAT_HCX: FEAT_MOPS instructions enabled at EL1 and EL0 */
	mrs	x1, id_aa64mmfr1_el1
	ubfx	x2, x1, #40, #4			/* HCX */
	cbz	x2, 4f
	mov	x0, #(1 << 11)			/* HCRX_EL2.MSCEn */
	/* and EL1's TCR2_EL1, SCTLR2_EL1 and GCS, where implemented */
	mrs	x1, id_aa64mmfr3_el1
	feat_or	x0, x1, 0, (1 << 14)		/* TCRX: TCR2En */
	feat_or	x0, x1, 4, (1 << 15)		/* SCTLRX: SCTLR2En */
	mrs	x1, id_aa64pfr1_el1
	feat_or	x0, x1, 44, (1 << 22)		/* GCS: GCSEn */
	msr	hcrx_el2, x0
4:
	/* GICv3: EL1 uses the system register interface */
	mov	x0, #0xf			/* ICC_SRE_EL2: SRE, DFB, DIB, Enable */
	msr	icc_sre_el2, x0
	isb

	/*
	 * MDCR_EL2: every PMU counter to EL1 (HPMN = PMCR_EL0.N), PMS*
	 * registers not trapped (TPMS 0), the buffer's owner (E2PB).
	 */
	mrs	x0, pmcr_el0
	ubfx	x0, x0, #11, #5
	mov	x1, #(SHIM_E2PB << 12)
	orr	x0, x0, x1
	msr	mdcr_el2, x0

	/*
	 * FEAT_SPE (ID_AA64DFR0_EL1.PMSVer): no sampling at EL2. Giving the
	 * buffer to EL1, let EL1 choose physical addresses and the physical
	 * count (PMSCR_EL2.PA, PCT: CollectPhysicalAddress() and
	 * CollectTimeStamp() need both levels' bits, supplement 3.3);
	 * keeping it, leave it disabled (PMBLIMITR_EL1.E 0).
	 */
	mrs	x1, id_aa64dfr0_el1
	ubfx	x2, x1, #32, #4
	cbz	x2, 5f
#if SHIM_E2PB == 3
	mov	x0, #0x50			/* PMSCR_EL2.PCT (bit 6), PA (bit 4) */
	msr	pmscr_el2, x0
#else
	msr	pmscr_el2, xzr
	msr	pmblimitr_el1, xzr
#endif
5:

	/* Enter the kernel at EL1h, interrupts masked, MMU off */
	ldr	x0, =0x30d00800			/* SCTLR_EL1 RES1 bits */
	msr	sctlr_el1, x0
	mov	x0, #0x3c5			/* SPSR_EL2: DAIF, EL1h */
	msr	spsr_el2, x0
	ldr	x0, =SHIM_KERNEL
	msr	elr_el2, x0
	ldr	x0, =SHIM_DTB
	mov	x1, xzr
	mov	x2, xzr
	mov	x3, xzr
	isb
	eret

/* Print the string at x0 (clobbers x0, x1, x9) */
puts:
	mov	x9, #UART_DR
5:	ldrb	w1, [x0], #1
	cbz	w1, 6f
	str	w1, [x9]
	b	5b
6:	ret

/* Print x0 in hex (clobbers x1-x3, x9) */
puthex:
	mov	x9, #UART_DR
	mov	x2, #60
7:	lsr	x1, x0, x2
	and	x1, x1, #0xf
	cmp	x1, #10
	add	x3, x1, #'0'
	add	x1, x1, #('a' - 10)
	csel	x1, x3, x1, lo
	str	w1, [x9]
	subs	x2, x2, #4
	b.ge	7b
	ret

unexpected:
	adr	x0, msg_head
	bl	puts
	mrs	x0, esr_el2
	bl	puthex
	adr	x0, msg_elr
	bl	puts
	mrs	x0, elr_el2
	bl	puthex
	adr	x0, msg_far
	bl	puts
	mrs	x0, far_el2
	bl	puthex
	adr	x0, msg_tail
	bl	puts
	ldr	x0, =PSCI_SYSTEM_OFF
	smc	#0
8:	wfi
	b	8b

msg_head:	.asciz	"\nel2-shim: unexpected exception taken to EL2: ESR_EL2 0x"
msg_elr:	.asciz	" ELR_EL2 0x"
msg_far:	.asciz	" FAR_EL2 0x"
msg_tail:	.asciz	"\n"

	.balign	2048
vectors:
	.rept	16
	b	unexpected
	.balign	128
	.endr
	.ltorg

	.section .kernel, "a"
	.incbin	SHIM_IMAGE_FILE
	.section .initrd, "a"
	.incbin	SHIM_INITRD_FILE
