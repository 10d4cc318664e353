/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * spe_hw.h - System register encodings and access helpers for the SPE
 * driver: sys_reg() encodings of every register the driver touches (so the
 * driver does not depend on which of them a given kernel's asm/sysreg.h
 * names), the PSB CSYNC barrier, and field extraction through the shared
 * include/arm_spe/spe_regs.h layout.
 */
#ifndef ARM_SPE_PERF_SPE_HW_H
#define ARM_SPE_PERF_SPE_HW_H

#include <linux/types.h>
#include <asm/barrier.h>
#include <asm/sysreg.h>

#include <arm_spe/spe_regs.h>

/* Encodings: op0, op1, CRn, CRm, op2 (SPE supplement 4.1, register index). */
#define SPE_SYS_PMSCR_EL1	sys_reg(3, 0, 9, 9, 0)
#define SPE_SYS_PMSNEVFR_EL1	sys_reg(3, 0, 9, 9, 1)
#define SPE_SYS_PMSICR_EL1	sys_reg(3, 0, 9, 9, 2)
#define SPE_SYS_PMSIRR_EL1	sys_reg(3, 0, 9, 9, 3)
#define SPE_SYS_PMSFCR_EL1	sys_reg(3, 0, 9, 9, 4)
#define SPE_SYS_PMSEVFR_EL1	sys_reg(3, 0, 9, 9, 5)
#define SPE_SYS_PMSLATFR_EL1	sys_reg(3, 0, 9, 9, 6)
#define SPE_SYS_PMSIDR_EL1	sys_reg(3, 0, 9, 9, 7)
#define SPE_SYS_PMBLIMITR_EL1	sys_reg(3, 0, 9, 10, 0)
#define SPE_SYS_PMBPTR_EL1	sys_reg(3, 0, 9, 10, 1)
#define SPE_SYS_PMBSR_EL1	sys_reg(3, 0, 9, 10, 3)
#define SPE_SYS_PMSDSFR_EL1	sys_reg(3, 0, 9, 10, 4)
#define SPE_SYS_PMBIDR_EL1	sys_reg(3, 0, 9, 10, 7)

#define spe_read(reg)		read_sysreg_s(SPE_SYS_##reg##_EL1)
#define spe_write(val, reg)	write_sysreg_s((u64)(val), SPE_SYS_##reg##_EL1)

/*
 * PSB CSYNC, the Profiling Synchronization Barrier, is HINT #17 so that it
 * assembles with any toolchain (SPE supplement 3.6, "Synchronization and
 * Statistical Profiling").
 */
static inline void spe_psb_csync(void)
{
	asm volatile("hint #17" : : : "memory");
}

/*
 * Drain: make every sample record of the operations before this point
 * visible in memory and every indirect write to PMBPTR/PMBSR observable by
 * a following direct read. Per SPE supplement 3.6:
 *  - PSB CSYNC synchronizes the profiling operations of all instructions
 *    executed in program order before the last context synchronization
 *    event;
 *  - a DSB (loads and stores) after it does not complete until the writes
 *    of those records to the Profiling Buffer have completed;
 *  - a direct read of a System register after the PSB CSYNC needs explicit
 *    synchronization (ISB) to observe the indirect writes the profiling
 *    operations made to PMBPTR_EL1/PMBSR_EL1.
 * The DSB is non-shareable: for its Shareability domain the record writes
 * count as made by the profiled PE itself (3.6).
 */
static inline void spe_drain(void)
{
	spe_psb_csync();
	dsb(nsh);
	isb();
}

/*
 * Stop sampling and the buffer, keeping every record already sampled:
 *  1. PMSCR_EL1.{E0SPE,E1SPE} = 0 stops operations being selected for
 *     sampling (SPE supplement 3.2.1); the ISB is the context
 *     synchronization event that makes the direct write visible to the
 *     indirect reads of profiling (3.6).
 *  2. PSB CSYNC + DSB: the records of every operation sampled before that
 *     ISB reach memory (3.6). Without this, disabling the buffer could
 *     lose or corrupt records in flight (3.6.1 UNPREDICTABLE behavior).
 *  3. PMBLIMITR_EL1 = 0 disables the buffer; the ISB makes PMBPTR_EL1
 *     stable for the caller to read.
 */
static inline void spe_disable_and_drain_local(void)
{
	spe_write(0, PMSCR);
	isb();
	spe_psb_csync();
	dsb(nsh);
	spe_write(0, PMBLIMITR);
	isb();
}

/* PMSIDR_EL1.Interval encodes the minimum sampling interval (4.3.11). */
static inline u32 spe_interval_min(u64 pmsidr)
{
	static const u16 tbl[16] = {
		[0] = 256, [2] = 512, [3] = 768, [4] = 1024,
		[5] = 1536, [6] = 2048, [7] = 3072, [8] = 4096,
	};
	u32 v = tbl[SPE_FIELD_GET(SPE_PMSIDR_INTERVAL, pmsidr)];

	/* Reserved encodings: be conservative and use the largest. */
	return v ? v : 4096;
}

#endif /* ARM_SPE_PERF_SPE_HW_H */
