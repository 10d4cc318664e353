/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Three functions with the same loop: x0 iterations of "subs; b.ne", so the
 * time spent in each is proportional to its iteration count. Each has an
 * _end label for the PC ranges the tests attribute samples to.
 */
	.text
	.macro	spin name
	.global	\name
	.global	\name\()_end
	.type	\name, %function
	.balign	64
\name:
1:	subs	x0, x0, #1
	b.ne	1b
	ret
\name\()_end:
	.size	\name, . - \name
	.endm

	spin	pcsr_fa
	spin	pcsr_fb
	spin	pcsr_fc
	.section .note.GNU-stack, "", %progbits
