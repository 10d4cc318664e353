/*
 * PL011 console and result lines for the bare-metal conformance programs
 * (console.c): "RESULT <name> PASS" or "RESULT <name> FAIL <what> got
 * <hex> want <hex>", which run.sh turns into TAP.
 */
#ifndef CONFORMANCE_CONSOLE_H
#define CONFORMANCE_CONSOLE_H

#include <stdint.h>

void puts_(const char *s);
void puthex(uint64_t v);
void result(const char *name, int ok, const char *what, uint64_t got,
            uint64_t want);
/* How many result() calls failed so far */
int result_failures(void);
/* start.S: exit through semihosting; its unexpected-exception handler */
void semihost_exit(int code);
void bad_exception(uint64_t type, uint64_t esr, uint64_t elr, uint64_t far);

/* PSCI CPU_ON (HVC conduit): start CPU @mpidr at @entry with x0 = @ctx */
int64_t psci_cpu_on(uint64_t mpidr, uint64_t entry, uint64_t ctx);

#endif
