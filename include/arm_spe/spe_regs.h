/* SPDX-License-Identifier: (GPL-2.0 OR MIT) */
/*
 * spe_regs.h - field layout of the Statistical Profiling Extension System
 * registers, as plain C macros.
 *
 * This header is shared by the kernel module, user-space tests and tools,
 * so it includes nothing and uses no kernel helpers (no GENMASK/BIT).
 * Every field FOO of register REG has:
 *   SPE_REG_FOO_SHIFT  - position of the least significant bit
 *   SPE_REG_FOO_MASK   - mask of the field, in place (not shifted down)
 * and SPE_FIELD_GET()/SPE_FIELD_PREP() convert between a register value and
 * a field value.
 *
 * Source: ARMv8-A SPE supplement (DDI 0586A) section 4.3 (register
 * descriptions) and the current Arm ARM for the later FEAT_SPEv1pN fields.
 */
#ifndef ARM_SPE_SPE_REGS_H
#define ARM_SPE_SPE_REGS_H

/* Mask of bits hi..lo inclusive, 64-bit, hi >= lo. */
#define SPE_BITS(hi, lo) \
	((~0ULL >> (63 - (hi))) & (~0ULL << (lo)))
#define SPE_BIT(n)			(1ULL << (n))

/* Field accessors: name is the register/field prefix, e.g. SPE_PMBSR_EC. */
#define SPE_FIELD_GET(name, val) \
	(((unsigned long long)(val) & name##_MASK) >> name##_SHIFT)
#define SPE_FIELD_PREP(name, v) \
	(((unsigned long long)(v) << name##_SHIFT) & name##_MASK)

/* ID_AA64DFR0_EL1.PMSVer, bits [35:32]: which SPE version is implemented. */
#define SPE_ID_AA64DFR0_PMSVER_SHIFT	32
#define SPE_ID_AA64DFR0_PMSVER_MASK	SPE_BITS(35, 32)
#define SPE_PMSVER_NI			0x0	/* not implemented */
#define SPE_PMSVER_V1			0x1	/* FEAT_SPE */
#define SPE_PMSVER_V1P1			0x2	/* FEAT_SPEv1p1 */
#define SPE_PMSVER_V1P2			0x3	/* FEAT_SPEv1p2 */
#define SPE_PMSVER_V1P3			0x4	/* FEAT_SPEv1p3 */
#define SPE_PMSVER_V1P4			0x5	/* FEAT_SPEv1p4 */
#define SPE_PMSVER_V1P5			0x6	/* FEAT_SPEv1p5 */

/* PMSCR_EL1, Statistical Profiling Control Register (4.3.5). */
#define SPE_PMSCR_E0SPE_SHIFT		0
#define SPE_PMSCR_E0SPE_MASK		SPE_BIT(0)
#define SPE_PMSCR_E1SPE_SHIFT		1
#define SPE_PMSCR_E1SPE_MASK		SPE_BIT(1)
#define SPE_PMSCR_CX_SHIFT		3
#define SPE_PMSCR_CX_MASK		SPE_BIT(3)
#define SPE_PMSCR_PA_SHIFT		4
#define SPE_PMSCR_PA_MASK		SPE_BIT(4)
#define SPE_PMSCR_TS_SHIFT		5
#define SPE_PMSCR_TS_MASK		SPE_BIT(5)
#define SPE_PMSCR_PCT_SHIFT		6
#define SPE_PMSCR_PCT_MASK		SPE_BITS(7, 6)
#define SPE_PMSCR_PCT_VIRT		0x0	/* virtual counter */
#define SPE_PMSCR_PCT_PHYS		0x1	/* physical counter */

/* PMSICR_EL1, Sampling Interval Counter Register (4.3.10). */
#define SPE_PMSICR_COUNT_SHIFT		0
#define SPE_PMSICR_COUNT_MASK		SPE_BITS(31, 0)
#define SPE_PMSICR_ECOUNT_SHIFT		56
#define SPE_PMSICR_ECOUNT_MASK		SPE_BITS(63, 56)

/* PMSIRR_EL1, Sampling Interval Reload Register (4.3.12). */
#define SPE_PMSIRR_RND_SHIFT		0
#define SPE_PMSIRR_RND_MASK		SPE_BIT(0)
#define SPE_PMSIRR_INTERVAL_SHIFT	8
#define SPE_PMSIRR_INTERVAL_MASK	SPE_BITS(31, 8)

/* PMSFCR_EL1, Sampling Filter Control Register (4.3.9, FEAT_SPE_EFT). */
#define SPE_PMSFCR_FE_SHIFT		0
#define SPE_PMSFCR_FE_MASK		SPE_BIT(0)
#define SPE_PMSFCR_FT_SHIFT		1
#define SPE_PMSFCR_FT_MASK		SPE_BIT(1)
#define SPE_PMSFCR_FL_SHIFT		2
#define SPE_PMSFCR_FL_MASK		SPE_BIT(2)
#define SPE_PMSFCR_FNE_SHIFT		3
#define SPE_PMSFCR_FNE_MASK		SPE_BIT(3)
#define SPE_PMSFCR_FDS_SHIFT		4
#define SPE_PMSFCR_FDS_MASK		SPE_BIT(4)
#define SPE_PMSFCR_B_SHIFT		16
#define SPE_PMSFCR_B_MASK		SPE_BIT(16)
#define SPE_PMSFCR_LD_SHIFT		17
#define SPE_PMSFCR_LD_MASK		SPE_BIT(17)
#define SPE_PMSFCR_ST_SHIFT		18
#define SPE_PMSFCR_ST_MASK		SPE_BIT(18)
#define SPE_PMSFCR_FP_SHIFT		19
#define SPE_PMSFCR_FP_MASK		SPE_BIT(19)
#define SPE_PMSFCR_SIMD_SHIFT		20
#define SPE_PMSFCR_SIMD_MASK		SPE_BIT(20)
#define SPE_PMSFCR_BM_SHIFT		48
#define SPE_PMSFCR_BM_MASK		SPE_BIT(48)
#define SPE_PMSFCR_LDM_SHIFT		49
#define SPE_PMSFCR_LDM_MASK		SPE_BIT(49)
#define SPE_PMSFCR_STM_SHIFT		50
#define SPE_PMSFCR_STM_MASK		SPE_BIT(50)
#define SPE_PMSFCR_FPM_SHIFT		51
#define SPE_PMSFCR_FPM_MASK		SPE_BIT(51)
#define SPE_PMSFCR_SIMDM_SHIFT		52
#define SPE_PMSFCR_SIMDM_MASK		SPE_BIT(52)

/*
 * PMSEVFR_EL1 / PMSNEVFR_EL1, (inverted) sampling event filter (4.3.8).
 * Bits that are RES0 for each version; a filter naming one of them can
 * never match, so the driver rejects it.
 */
#define SPE_PMSEVFR_RES0_V1 \
	(SPE_BITS(47, 32) | SPE_BITS(23, 16) | SPE_BITS(11, 8) | \
	 SPE_BIT(6) | SPE_BIT(4) | SPE_BIT(2) | SPE_BIT(0))
#define SPE_PMSEVFR_RES0_V1P1 \
	(SPE_PMSEVFR_RES0_V1 & ~(SPE_BIT(18) | SPE_BIT(17) | SPE_BIT(11)))
#define SPE_PMSEVFR_RES0_V1P2 \
	(SPE_PMSEVFR_RES0_V1P1 & ~SPE_BIT(6))

/* PMSLATFR_EL1, Sampling Latency Filter Register (4.3.13). */
#define SPE_PMSLATFR_MINLAT_SHIFT	0
#define SPE_PMSLATFR_MINLAT_MASK	SPE_BITS(15, 0)

/* PMSIDR_EL1, Sampling Profiling ID Register (4.3.11). */
#define SPE_PMSIDR_FE_SHIFT		0
#define SPE_PMSIDR_FE_MASK		SPE_BIT(0)
#define SPE_PMSIDR_FT_SHIFT		1
#define SPE_PMSIDR_FT_MASK		SPE_BIT(1)
#define SPE_PMSIDR_FL_SHIFT		2
#define SPE_PMSIDR_FL_MASK		SPE_BIT(2)
#define SPE_PMSIDR_ARCHINST_SHIFT	3
#define SPE_PMSIDR_ARCHINST_MASK	SPE_BIT(3)
#define SPE_PMSIDR_LDS_SHIFT		4
#define SPE_PMSIDR_LDS_MASK		SPE_BIT(4)
#define SPE_PMSIDR_ERND_SHIFT		5
#define SPE_PMSIDR_ERND_MASK		SPE_BIT(5)
#define SPE_PMSIDR_FNE_SHIFT		6
#define SPE_PMSIDR_FNE_MASK		SPE_BIT(6)
#define SPE_PMSIDR_FDS_SHIFT		7
#define SPE_PMSIDR_FDS_MASK		SPE_BIT(7)
#define SPE_PMSIDR_INTERVAL_SHIFT	8
#define SPE_PMSIDR_INTERVAL_MASK	SPE_BITS(11, 8)
#define SPE_PMSIDR_MAXSIZE_SHIFT	12
#define SPE_PMSIDR_MAXSIZE_MASK		SPE_BITS(15, 12)
#define SPE_PMSIDR_COUNTSIZE_SHIFT	16
#define SPE_PMSIDR_COUNTSIZE_MASK	SPE_BITS(19, 16)
#define SPE_PMSIDR_FORMAT_SHIFT		20
#define SPE_PMSIDR_FORMAT_MASK		SPE_BITS(23, 20)
#define SPE_PMSIDR_PBT_SHIFT		24
#define SPE_PMSIDR_PBT_MASK		SPE_BIT(24)
#define SPE_PMSIDR_EFT_SHIFT		26
#define SPE_PMSIDR_EFT_MASK		SPE_BIT(26)
#define SPE_PMSIDR_COUNTSIZE_12_SAT	0x2	/* 12-bit saturating counters */
#define SPE_PMSIDR_COUNTSIZE_16_SAT	0x3	/* 16-bit saturating counters */

/* PMBLIMITR_EL1, Profiling Buffer Limit Address Register (4.3.2). */
#define SPE_PMBLIMITR_E_SHIFT		0
#define SPE_PMBLIMITR_E_MASK		SPE_BIT(0)
#define SPE_PMBLIMITR_FM_SHIFT		1
#define SPE_PMBLIMITR_FM_MASK		SPE_BITS(2, 1)
#define SPE_PMBLIMITR_FM_FILL		0x0	/* stop-on-full */
#define SPE_PMBLIMITR_FM_DISCARD	0x2	/* discard all records */
#define SPE_PMBLIMITR_LIMIT_SHIFT	12
#define SPE_PMBLIMITR_LIMIT_MASK	SPE_BITS(63, 12)

/* PMBPTR_EL1, Profiling Buffer Write Pointer Register (4.3.3). */
#define SPE_PMBPTR_PTR_SHIFT		0
#define SPE_PMBPTR_PTR_MASK		SPE_BITS(63, 0)

/* PMBSR_EL1, Profiling Buffer Status/syndrome Register (4.3.4). */
#define SPE_PMBSR_MSS_SHIFT		0
#define SPE_PMBSR_MSS_MASK		SPE_BITS(15, 0)
#define SPE_PMBSR_COLL_SHIFT		16
#define SPE_PMBSR_COLL_MASK		SPE_BIT(16)
#define SPE_PMBSR_S_SHIFT		17
#define SPE_PMBSR_S_MASK		SPE_BIT(17)
#define SPE_PMBSR_EA_SHIFT		18
#define SPE_PMBSR_EA_MASK		SPE_BIT(18)
#define SPE_PMBSR_DL_SHIFT		19
#define SPE_PMBSR_DL_MASK		SPE_BIT(19)
#define SPE_PMBSR_EC_SHIFT		26
#define SPE_PMBSR_EC_MASK		SPE_BITS(31, 26)
/* EC values. */
#define SPE_PMBSR_EC_BUF		0x00	/* other buffer management event */
#define SPE_PMBSR_EC_GPC		0x1e	/* granule protection check fault */
#define SPE_PMBSR_EC_IMPDEF		0x1f	/* IMPLEMENTATION DEFINED event */
#define SPE_PMBSR_EC_FAULT_S1		0x24	/* stage 1 data abort */
#define SPE_PMBSR_EC_FAULT_S2		0x25	/* stage 2 data abort */
/* MSS for EC == BUF: MSS[5:0] is BSC, the buffer status code. */
#define SPE_PMBSR_BSC_SHIFT		0
#define SPE_PMBSR_BSC_MASK		SPE_BITS(5, 0)
#define SPE_PMBSR_BSC_NONE		0x0
#define SPE_PMBSR_BSC_FULL		0x1
/* MSS for EC == FAULT_S1/S2: MSS[5:0] is FSC, the fault status code. */
#define SPE_PMBSR_FSC_SHIFT		0
#define SPE_PMBSR_FSC_MASK		SPE_BITS(5, 0)

/* PMBIDR_EL1, Profiling Buffer ID Register (4.3.1). */
#define SPE_PMBIDR_ALIGN_SHIFT		0
#define SPE_PMBIDR_ALIGN_MASK		SPE_BITS(3, 0)
#define SPE_PMBIDR_P_SHIFT		4
#define SPE_PMBIDR_P_MASK		SPE_BIT(4)
#define SPE_PMBIDR_F_SHIFT		5
#define SPE_PMBIDR_F_MASK		SPE_BIT(5)
#define SPE_PMBIDR_EA_SHIFT		8
#define SPE_PMBIDR_EA_MASK		SPE_BITS(11, 8)

/* Largest PMSIDR.MaxSize the driver accepts: 2^11 = 2KiB records. */
#define SPE_MAXSIZE_LIMIT		11

#endif /* ARM_SPE_SPE_REGS_H */
