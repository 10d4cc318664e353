/*
 * The virt machine's interrupt controller for the bare-metal conformance
 * programs (gic.c): GICv2 or GICv3, whichever the machine has
 * (gic-version=), found from ID_AA64PFR0_EL1.GIC and, for GICv3, the
 * distributor's GICD_PIDR2.ArchRev. Only
 * what PMBIRQ needs: one PPI enabled on CPU 0, its pending bit,
 * acknowledge and end of interrupt.
 */
#ifndef CONFORMANCE_GIC_H
#define CONFORMANCE_GIC_H

#include <stdint.h>

/*
 * Enable PPI @intid on CPU 0 as an IRQ; returns the GIC version: 2, or
 * GICD_PIDR2.ArchRev (3, 4) with the GICv3 CPU interface
 */
int gic_init(unsigned int intid);
/* The pending bit of PPI @intid on CPU 0 */
int gic_pending(unsigned int intid);
/* Acknowledge the highest-priority pending IRQ: its IAR value */
uint32_t gic_ack(void);
/* End of interrupt for an IAR value from gic_ack() */
void gic_eoi(uint32_t iar);

#endif
