/*
 * GICv2 and GICv3 on the virt machine, for PMBIRQ (gic.h). Addresses
 * from QEMU's hw/arm/virt.c memory map: distributor 0x08000000, GICv2
 * CPU interface 0x08010000, GICv3 redistributors from 0x080a0000 (CPU 0
 * first; its SGI/PPI frame 64 KiB on). Register offsets: the GICv3/v4
 * architecture specification (IHI 0069), 12.9 (GICD), 12.10 (GICR),
 * 12.11 (ICC) and, for GICv2, IHI 0048.
 */
#include "gic.h"

#define GICD_BASE	0x08000000UL
#define GICC_BASE	0x08010000UL
#define GICR_BASE	0x080a0000UL
#define GICR_SGI_BASE	(GICR_BASE + 0x10000UL)

#define REG32(a)	(*(volatile uint32_t *)(a))
/*
 * The priority registers are byte-accessible at byte offsets: a word
 * access there is unaligned, and to Device memory that is an Alignment
 * fault (QEMU 10.2 takes it).
 */
#define REG8(a)		(*(volatile uint8_t *)(a))

#define GICD_CTLR		0x0000
#define GICD_ISENABLER0		0x0100
#define GICD_ISPENDR0		0x0200
#define GICD_IPRIORITYR		0x0400
#define GICD_PIDR2		0xffe8	/* GICv3 */
#define GICD_CTLR_V3_ARE	(1u << 4)
#define GICD_CTLR_V3_GRP1	(1u << 1)
#define GICC_CTLR		0x0000
#define GICC_PMR		0x0004
#define GICC_IAR		0x000c
#define GICC_EOIR		0x0010
#define GICR_WAKER		0x0014
#define GICR_WAKER_SLEEP	(1u << 1)	/* ProcessorSleep */
#define GICR_WAKER_ASLEEP	(1u << 2)	/* ChildrenAsleep */
#define GICR_IGROUPR0		0x0080
#define GICR_ISENABLER0		0x0100
#define GICR_ISPENDR0		0x0200
#define GICR_IPRIORITYR		0x0400

/* ICC system registers by encoding: ICC_SRE_EL1, _PMR_EL1, _IAR1_EL1, ... */
#define ICC_SRE_EL1	"S3_0_C12_C12_5"
#define ICC_PMR_EL1	"S3_0_C4_C6_0"
#define ICC_IGRPEN1_EL1	"S3_0_C12_C12_7"
#define ICC_IAR1_EL1	"S3_0_C12_C12_0"
#define ICC_EOIR1_EL1	"S3_0_C12_C12_1"
#define MSR(r, v)	__asm__ volatile("msr " r ", %0" :: "r"((uint64_t)(v)) : "memory")
#define MRS(r)		({ uint64_t v_; __asm__ volatile("mrs %0, " r : "=r"(v_)); v_; })
#define ISB()		__asm__ volatile("isb" ::: "memory")

static int v3;	/* the GICv3 CPU interface and redistributors */

int gic_init(unsigned int intid)
{
    /*
     * ID_AA64PFR0_EL1.GIC, bits [27:24]: the GICv3 system register CPU
     * interface; a GICv2 distributor has no GICD_PIDR2 at 0xffe8 (its
     * 4 KiB frame ends before), a GICv3 one says ArchRev 3 there.
     */
    v3 = ((MRS("id_aa64pfr0_el1") >> 24) & 0xf) != 0;
    if (v3) {
        /* one security state (virt without secure=on): ARE, Group 1 */
        REG32(GICD_BASE + GICD_CTLR) = GICD_CTLR_V3_ARE | GICD_CTLR_V3_GRP1;
        REG32(GICR_BASE + GICR_WAKER) &= ~GICR_WAKER_SLEEP;
        while (REG32(GICR_BASE + GICR_WAKER) & GICR_WAKER_ASLEEP)
            ;
        /* Group 1: an IRQ; Group 0, the reset value, would be an FIQ */
        REG32(GICR_SGI_BASE + GICR_IGROUPR0) |= 1u << intid;
        REG8(GICR_SGI_BASE + GICR_IPRIORITYR + intid) = 0;
        REG32(GICR_SGI_BASE + GICR_ISENABLER0) = 1u << intid;
        MSR(ICC_SRE_EL1, MRS(ICC_SRE_EL1) | 1);
        ISB();
        MSR(ICC_PMR_EL1, 0xff);
        MSR(ICC_IGRPEN1_EL1, 1);
        ISB();
        return (REG32(GICD_BASE + GICD_PIDR2) >> 4) & 0xf;
    }
    REG32(GICD_BASE + GICD_CTLR) = 1;
    REG32(GICD_BASE + GICD_ISENABLER0) = 1u << intid;
    REG8(GICD_BASE + GICD_IPRIORITYR + intid) = 0;
    REG32(GICC_BASE + GICC_PMR) = 0xff;
    REG32(GICC_BASE + GICC_CTLR) = 1;
    return 2;
}

int gic_pending(unsigned int intid)
{
    uint64_t reg = v3 ? GICR_SGI_BASE + GICR_ISPENDR0 :
                                  GICD_BASE + GICD_ISPENDR0;

    return (REG32(reg) >> intid) & 1;
}

uint32_t gic_ack(void)
{
    if (v3)
        return (uint32_t)MRS(ICC_IAR1_EL1);
    return REG32(GICC_BASE + GICC_IAR);
}

void gic_eoi(uint32_t iar)
{
    if (v3) {
        MSR(ICC_EOIR1_EL1, iar);
        ISB();
        return;
    }
    REG32(GICC_BASE + GICC_EOIR) = iar;
}
