// SPDX-License-Identifier: GPL-2.0-only
/*
 * spe_pmu.c - perf PMU callbacks and AUX buffer handling (skeleton: the
 * PMU is not registered yet).
 */
#include "spe.h"

int spe_pmu_register(struct spe_pmu *spe)
{
	snprintf(spe->name, sizeof(spe->name), SPE_PMUNAME "_%d", spe->id);
	return 0;
}

void spe_pmu_unregister(struct spe_pmu *spe)
{
}

irqreturn_t spe_pmu_irq_handler(int irq, void *dev)
{
	return IRQ_NONE;
}
