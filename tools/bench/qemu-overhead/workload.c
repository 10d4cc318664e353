/*
 * Guest workload for tools/bench/qemu-overhead.sh: a fixed mix of
 * loads, stores, ALU operations and branches at EL1 (identity-mapped,
 * caches on). Built with -DINTERVAL=N: 0 leaves SPE alone, otherwise
 * SPE samples EL1 with PMSIRR_EL1.INTERVAL = N/256 into a 1 MiB buffer
 * which an interrupt handler recycles, as a driver would. Reuses the
 * start-up code and linker script of tools/qemu/conformance.
 */
#include <stdint.h>

#define RD(r) ({ uint64_t v_; __asm__ volatile("mrs %0, " #r : "=r"(v_)); v_; })
#define WR(r, v) __asm__ volatile("msr " #r ", %0" :: "r"((uint64_t)(v)))

#define UART_DR (*(volatile uint32_t *)0x09000000UL)
#define GICD(o) (*(volatile uint32_t *)(0x08000000UL + (o)))
#define GICC(o) (*(volatile uint32_t *)(0x08010000UL + (o)))

#define BUF     0x41000000UL
#define BUFSZ   0x100000UL

#ifndef ITERS
#define ITERS 40000
#endif

static uint64_t l1[512] __attribute__((aligned(4096)));
static uint64_t l2[512] __attribute__((aligned(4096)));
static uint64_t data[4096];
static volatile uint64_t wraps;

void semihost_exit(int code);
void irq_handler(void);
void bad_exception(uint64_t t, uint64_t esr, uint64_t elr, uint64_t far);
int main(void);

static void puts_(const char *s)
{
    while (*s) {
        UART_DR = *s++;
    }
}

void irq_handler(void)
{
    uint32_t iar = GICC(0x00c);

    if ((iar & 0x3ff) == 21) {
        /* buffer full: restart at the base, like a driver would */
        wraps++;
        WR(S3_0_C9_C10_1, BUF);
        /* the new pointer is seen by profiling before S is cleared */
        __asm__ volatile("isb");
        WR(S3_0_C9_C10_3, 0);
        __asm__ volatile("isb");
    }
    GICC(0x010) = iar;
}

uint64_t sync_handler(uint64_t esr, uint64_t elr);
uint64_t sync_handler(uint64_t esr, uint64_t elr)
{
    return 0;       /* not expected: bail out through bad_exception() */
}

/* start.S's lower-EL entry (an EL2 trap in the conformance programs) */
uint64_t el2_trap_handler(uint64_t esr, uint64_t elr);
uint64_t el2_trap_handler(uint64_t esr, uint64_t elr)
{
    return 0;       /* not expected either */
}

void bad_exception(uint64_t t, uint64_t esr, uint64_t elr, uint64_t far)
{
    puts_("unexpected exception\n");
    semihost_exit(3);
}

static void mmu_on(void)
{
    int i;

    l1[0] = 0x0 | (1 << 10) | 1;
    l1[1] = (uint64_t)l2 | 3;
    for (i = 0; i < 512; i++) {
        l2[i] = (0x40000000UL + ((uint64_t)i << 21)) |
                (1 << 10) | (3 << 8) | (1 << 2) | 1;
    }
    WR(mair_el1, 0xff00);
    WR(tcr_el1, 25 | (1 << 8) | (1 << 10) | (3 << 12) | (1 << 23) |
                (2ULL << 32));
    WR(ttbr0_el1, (uint64_t)l1);
    __asm__ volatile("dsb sy; tlbi vmalle1; dsb sy; isb" ::: "memory");
    WR(sctlr_el1, RD(sctlr_el1) | 1 | (1 << 2) | (1 << 12));
    __asm__ volatile("isb");
}

static uint64_t work(void)
{
    uint64_t sum = 1;
    int it, i;

    for (it = 0; it < ITERS; it++) {
        for (i = 0; i < 1024; i++) {
            uint64_t v = data[i];
            sum = sum * 31 + v;
            if (sum & 4) {
                data[(i * 7) & 4095] = sum ^ v;
            }
        }
    }
    return sum;
}

int main(void)
{
    uint64_t sum, spe = (RD(S3_0_C0_C5_0) >> 32) & 0xf;

    mmu_on();
    if (INTERVAL && spe) {
        GICD(0x000) = 1;
        GICD(0x100) = 1u << 21;
        GICC(0x004) = 0xff;
        GICC(0x000) = 1;
        __asm__ volatile("msr daifclr, #2");
        /*
         * Every field but PMBLIMITR_EL1.E resets to an UNKNOWN value (SPE
         * supplement 4.2, and the emulator's strict mode draws them):
         * no filters, no management event pending.
         */
        WR(S3_0_C9_C10_3, 0);                      /* PMBSR_EL1 */
        WR(S3_0_C9_C9_4, 0);                       /* PMSFCR_EL1 */
        WR(S3_0_C9_C9_5, 0);                       /* PMSEVFR_EL1 */
        WR(S3_0_C9_C9_6, 0);                       /* PMSLATFR_EL1 */
        if (RD(S3_0_C9_C9_7) & (1 << 6)) {         /* PMSIDR_EL1.FnE */
            WR(S3_0_C9_C9_1, 0);                   /* PMSNEVFR_EL1 */
        }
        WR(S3_0_C9_C10_1, BUF);                    /* PMBPTR_EL1 */
        WR(S3_0_C9_C9_3, INTERVAL);                /* PMSIRR_EL1 */
        WR(S3_0_C9_C9_2, 0);                       /* PMSICR_EL1 */
        WR(S3_0_C9_C9_0, 2 | (1 << 5));            /* PMSCR: E1SPE, TS */
        WR(S3_0_C9_C10_0, (BUF + BUFSZ) | 1);      /* PMBLIMITR_EL1 */
        __asm__ volatile("isb");
    }
    sum = work();
    if (INTERVAL && spe) {
        /* Stop as the architecture requires (SPE supplement 3.6) */
        WR(S3_0_C9_C9_0, 0);
        __asm__ volatile("isb; hint #17; dsb nsh" ::: "memory");
        WR(S3_0_C9_C10_0, 0);
        __asm__ volatile("isb");
        if (RD(S3_0_C9_C10_1) == BUF && !wraps) {
            puts_("no SPE records written\n");
            return 2;
        }
    }
    return sum == 0x1234 ? 1 : 0;
}
