// SPDX-License-Identifier: GPL-2.0
/*
 * Host driver for the emulator's instruction classifier: reads one
 * 32-bit A64 instruction word (hex) a line and prints what
 * spe_classify() (target/arm/tcg/spe-classify.c of the QEMU series,
 * compiled as it is) says of it, one line each:
 *
 *   WORD CLASS SUBCLASS LOAD STORE SVE SIZE COND_KIND COND BRANCH EA EXC ASE FP
 *   RN RM IMM CR SME_ARRAY ESZ NREGS
 *
 * classify.py compares these with LLVM's disassembler.
 */
#include <stdio.h>
#include <stdlib.h>
#include "spe-classify.h"

int main(void)
{
	char line[64];

	while (fgets(line, sizeof(line), stdin)) {
		uint32_t insn = (uint32_t)strtoul(line, NULL, 16);
		SpeClass c;

		spe_classify(insn, &c);
		printf("%08x %u %02x %d %d %d %u %u %u %u %u %d %d %d %u %u %lld %u %u %u %u\n",
		       insn, c.opclass, c.subclass, c.load, c.store, c.sve,
		       c.size, c.cond_kind, c.cond, c.branch, c.ea, c.exc_gen,
		       c.ase, c.fp, c.rn, c.rm, (long long)c.imm, c.cr,
		       c.sme_array, c.esz, c.nregs);
	}
	return 0;
}
