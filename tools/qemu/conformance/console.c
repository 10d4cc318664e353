/*
 * PL011 console and result lines for the bare-metal conformance programs;
 * see console.h. The PL011 is at 0x09000000 on the virt machine. Also the
 * handler start.S calls for an unexpected exception, and PSCI CPU_ON for
 * the programs that start a second CPU.
 */
#include "console.h"

#define UART_DR   (*(volatile uint32_t *)0x09000000UL)
#define UART_FR   (*(volatile uint32_t *)0x09000018UL)

static void putc_(char c)
{
    while (UART_FR & (1 << 5)) {
    }
    UART_DR = c;
}

void puts_(const char *s)
{
    while (*s) {
        if (*s == '\n') {
            putc_('\r');
        }
        putc_(*s++);
    }
}

void puthex(uint64_t v)
{
    char b[19];
    int i;

    b[0] = '0';
    b[1] = 'x';
    for (i = 0; i < 16; i++) {
        b[2 + i] = "0123456789abcdef"[(v >> (60 - 4 * i)) & 0xf];
    }
    b[18] = 0;
    puts_(b);
}

static int failures;

int result_failures(void)
{
    return failures;
}

void result(const char *name, int ok, const char *what, uint64_t got,
            uint64_t want)
{
    puts_("RESULT ");
    puts_(name);
    if (ok) {
        puts_(" PASS\n");
        return;
    }
    failures++;
    puts_(" FAIL ");
    puts_(what);
    puts_(" got ");
    puthex(got);
    puts_(" want ");
    puthex(want);
    puts_("\n");
}

void bad_exception(uint64_t type, uint64_t esr, uint64_t elr, uint64_t far)
{
    puts_("Bail out! unexpected exception ");
    puthex(type);
    puts_(" esr ");
    puthex(esr);
    puts_(" elr ");
    puthex(elr);
    puts_(" far ");
    puthex(far);
    puts_("\n");
    semihost_exit(3);
}

int64_t psci_cpu_on(uint64_t mpidr, uint64_t entry, uint64_t ctx)
{
    register uint64_t x0 __asm__("x0") = 0xc4000003;  /* CPU_ON, SMC64 */
    register uint64_t x1 __asm__("x1") = mpidr;
    register uint64_t x2 __asm__("x2") = entry;
    register uint64_t x3 __asm__("x3") = ctx;

    __asm__ volatile("hvc #0" : "+r"(x0) : "r"(x1), "r"(x2), "r"(x3)
                     : "memory");
    return (int64_t)x0;
}

/* A trap to EL2 nobody expects: bail out (tests.c overrides it). */
__attribute__((weak)) uint64_t el2_trap_handler(uint64_t esr, uint64_t elr);
__attribute__((weak)) uint64_t el2_trap_handler(uint64_t esr, uint64_t elr)
{
    (void)esr;
    (void)elr;
    return 0;
}
