// SPDX-License-Identifier: GPL-2.0
/*
 * A module whose init oopses on purpose. The VM harness's own self-test
 * loads it to prove that an Oops in a module's init fails the run.
 */
#include <linux/module.h>

static unsigned long harness_addr;
module_param(harness_addr, ulong, 0);

static int __init oops_init(void)
{
	/* Left at 0, this reads through a NULL pointer. */
	return READ_ONCE(*(int *)harness_addr);
}
module_init(oops_init);

MODULE_DESCRIPTION("VM harness self-test: oops in module init");
MODULE_LICENSE("GPL");
