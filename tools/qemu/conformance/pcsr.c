/*
 * FEAT_PCSRv8p2/v8p9 conformance checks for the project's QEMU model.
 *
 * Bare metal, EL1, on "-M virt,gic-version=2,pcsr=on -smp 2 -cpu max":
 * CPU 0 reads the PC Sample-based Profiling frames (Arm ARM Table H7-1,
 * CPU n's at 0x09100000 + n * 0x1000) while CPU 1, started with PSCI
 * CPU_ON, runs known loops. Expected values come from shared/spec 003
 * (Arm ARM H7.1, "H7.1.3" etc.), the register descriptions it names and
 * the documented choices of the model (Documentation/pcsr.rst).
 *
 * Output: one "RESULT <name> PASS|FAIL [detail]" line per check on the
 * PL011; run.sh turns these into TAP.
 *
 * Build modes: -DMODE_PCSR (pcsr=on: the full suite), -DMODE_PCSRNIDEN
 * (pcsr=on,pcsr-niden=off: ExternalNoninvasiveDebugEnabled() FALSE),
 * -DMODE_PCSROFF (no pcsr property: the frames must be absent).
 */
#include <stdint.h>

#include "console.h"

/* Frames and registers (Table H7-1; PMPCSCTL at its PMU offset 0xE50) */
#define FRAME(n)        (0x09100000UL + (n) * 0x1000UL)
#define R32(n, off)     (*(volatile uint32_t *)(FRAME(n) + (off)))
#define R64(n, off)     (*(volatile uint64_t *)(FRAME(n) + (off)))
#define PMPCSR_LO       0x200
#define PMPCSR_HI       0x204
#define PMCID1SR        0x208
#define PMVIDSR         0x20c
#define PMPCSR_LO_AL    0x220
#define PMPCSR_HI_AL    0x224
#define PMCID1SR_AL     0x228
#define PMCID2SR        0x22c
#define PMPCSCTL        0xe50
#define PMAUTHSTATUS    0xfb8
#define PMDEVARCH       0xfbc
#define PMDEVID         0xfc8
#define PMDEVTYPE       0xfcc
#define PMCIDR(i)       (0xff0 + 4 * (i))

#define PC_OF(v)        ((v) & ((1ULL << 56) - 1))
#define EL_OF(v)        (((v) >> 61) & 3)
#define NS_OF(v)        ((v) >> 63)

/* Bounded polls: the model answers within a few TBs of the target */
#define POLL_MAX        2000000

#define CHECK_EQ(name, what, got, want) \
    result(name, (uint64_t)(got) == (uint64_t)(want), what, got, want)

void irq_handler(void);
void irq_handler(void)
{
}

/* Set by a test that expects the next access to take an external abort */
static volatile int expect_abort, saw_abort;

uint64_t sync_handler(uint64_t esr, uint64_t elr);
uint64_t sync_handler(uint64_t esr, uint64_t elr)
{
    /* ESR_ELx.EC == 0x25: Data Abort taken without a change in EL */
    if (expect_abort && (esr >> 26) == 0x25) {
        saw_abort++;
        return elr + 4;
    }
    return 0;
}

/*
 * CPU 1's program: CONTEXTIDR_EL1 = 0x1234, then loop_a until the mailbox
 * reads 1, loop_b until it reads 2, then drop to EL0 and spin in loop_el0.
 */
extern char secondary_entry[], loop_a[], loop_a_end[], loop_b[],
            loop_el0[];
volatile uint32_t mailbox;

__asm__(
    "   .text\n"
    "   .balign 64\n"
    "secondary_entry:\n"
    "   mov     x1, #0x1234\n"
    "   msr     contextidr_el1, x1\n"
    "   isb\n"
    "   ldr     x2, =mailbox\n"
    "   .global loop_a\n"
    "loop_a:\n"
    "   ldr     w3, [x2]\n"
    "   cbnz    w3, loop_b\n"
    "   b       loop_a\n"
    "   .global loop_a_end\n"
    "loop_a_end:\n"
    "   .global loop_b\n"
    "loop_b:\n"
    "   ldr     w3, [x2]\n"
    "   cmp     w3, #2\n"
    "   b.ne    loop_b\n"
    "   msr     spsr_el1, xzr\n"           /* EL0t, interrupts unmasked */
    "   adr     x4, loop_el0\n"
    "   msr     elr_el1, x4\n"
    "   eret\n"
    "   .global loop_el0\n"
    "loop_el0:\n"
    "   b       loop_el0\n"
    "   .ltorg\n");

extern char _start[], __stack_top[];

static int in_range(uint64_t pc, const void *lo, const void *hi)
{
    return pc >= (uint64_t)lo && pc < (uint64_t)hi;
}

/* Poll CPU n's PMPCSR (64-bit reads) until pred holds or POLL_MAX */
static uint64_t poll64(int n, int (*pred)(uint64_t), long *tries)
{
    uint64_t v = 0;
    long i;

    for (i = 0; i < POLL_MAX; i++) {
        v = R64(n, PMPCSR_LO);
        if (pred(v)) {
            break;
        }
    }
    *tries = i;
    return v;
}

static int valid(uint64_t v)
{
    return (uint32_t)v != 0xffffffffu;
}

static int in_loop_a(uint64_t v)
{
    return valid(v) && in_range(PC_OF(v), loop_a, loop_a_end);
}

static int at_loop_b(uint64_t v)
{
    return PC_OF(v) == (uint64_t)loop_b;
}

static int at_el0(uint64_t v)
{
    return valid(v) && EL_OF(v) == 0;
}

/* Identification and management registers (H7.1.2, Table K5-4) */
static void t_id(void)
{
    CHECK_EQ("pcsr_pmdevid_pcsample", "PMDEVID", R32(1, PMDEVID), 1);
    CHECK_EQ("pcsr_pmdevarch", "PMDEVARCH", R32(1, PMDEVARCH), 0x47700a10);
    CHECK_EQ("pcsr_pmdevtype", "PMDEVTYPE", R32(1, PMDEVTYPE), 0);
    CHECK_EQ("pcsr_cidr", "PMCIDR3..0",
             (R32(1, PMCIDR(3)) << 24) | (R32(1, PMCIDR(2)) << 16) |
             (R32(1, PMCIDR(1)) << 8) | R32(1, PMCIDR(0)), 0xb105900d);
    CHECK_EQ("pcsr_authstatus_nsnid", "PMAUTHSTATUS.NSNID",
             R32(1, PMAUTHSTATUS) & 0xf, 0xc);
    /* FEAT_PCSRv8p9: IMP == 1, EN resets to 0 (suspended, H7.1.1.1) */
    CHECK_EQ("pcsr_pmpcsctl_reset", "PMPCSCTL", R32(1, PMPCSCTL), 0x2);
}

/* CPU 1 is powered off: sampling is not allowed, no activation */
static void t_off(void)
{
    uint32_t lo = R32(1, PMPCSR_LO);

    CHECK_EQ("pcsr_pe_off_reads_ones", "PMPCSR[31:0]", lo, 0xffffffff);
    CHECK_EQ("pcsr_pe_off_stays_suspended", "PMPCSCTL", R32(1, PMPCSCTL),
             0x2);
}

/* Suspend and activate on CPU 0's own frame (H7.1.1.1, H7.1.3) */
static void t_own(void)
{
    uint64_t v;

    CHECK_EQ("pcsr_activate_read_unknown", "PMPCSR[31:0]",
             R32(0, PMPCSR_LO), 0xffffffff);
    CHECK_EQ("pcsr_read_activates", "PMPCSCTL", R32(0, PMPCSCTL), 0x3);
    __asm__ volatile("b 1f\n1:" ::: "memory");
    v = R64(0, PMPCSR_LO);
    result("pcsr_own_sample_in_text", in_range(PC_OF(v), _start, __stack_top)
           && EL_OF(v) == 1 && NS_OF(v) == 1, "PMPCSR", v, 0xa0000000ULL << 32);
    R32(0, PMPCSCTL) = 0;
    CHECK_EQ("pcsr_suspend_write", "PMPCSCTL", R32(0, PMPCSCTL), 0x2);
    /* Only reads of PMPCSR[31:0] (or [63:0]) sample and activate */
    (void)R32(0, PMPCSR_HI);
    (void)R32(0, PMCID1SR);
    CHECK_EQ("pcsr_hi_read_no_side_effect", "PMPCSCTL", R32(0, PMPCSCTL),
             0x2);
    CHECK_EQ("pcsr_suspended_read_unknown", "PMPCSR[31:0]",
             R32(0, PMPCSR_LO), 0xffffffff);
    R32(0, PMPCSCTL) = 0xfffffffd;  /* RES0 bits and IMP are ignored */
    CHECK_EQ("pcsr_pmpcsctl_res0", "PMPCSCTL", R32(0, PMPCSCTL), 0x3);
}

/* CPU 1 running: the samples are its PCs, not the reader's */
static void t_target(void)
{
    uint64_t v, v2;
    uint32_t lo, hi;
    long tries;
    int64_t rc;

    rc = psci_cpu_on(1, (uint64_t)secondary_entry, 0);
    CHECK_EQ("pcsr_psci_cpu_on", "PSCI CPU_ON", rc, 0);
    /*
     * Leaves the suspended state; then waits for CPU 1's first sample.
     * That may come before CONTEXTIDR_EL1 is written (a sample of the
     * prologue), so the CONTEXTIDR checks wait for loop_a.
     */
    (void)R32(1, PMPCSR_LO);
    v = poll64(1, valid, &tries);
    result("pcsr_target_first_sample_cpu1",
           in_range(PC_OF(v), secondary_entry, loop_a_end),
           "PMPCSR", v, (uint64_t)secondary_entry);
    v = poll64(1, in_loop_a, &tries);
    result("pcsr_target_pc_in_loop_a", in_loop_a(v), "PMPCSR", v,
           (uint64_t)loop_a);
    CHECK_EQ("pcsr_target_el1", "PMPCSR.EL", EL_OF(v), 1);
    CHECK_EQ("pcsr_target_ns", "PMPCSR.NS", NS_OF(v), 1);
    CHECK_EQ("pcsr_res0_60_56", "PMPCSR[60:56]", (v >> 56) & 0x1f, 0);
    CHECK_EQ("pcsr_pmcid1sr", "PMCID1SR", R32(1, PMCID1SR), 0x1234);
    CHECK_EQ("pcsr_pmcid1sr_alias", "PMCID1SR alias", R32(1, PMCID1SR_AL),
             0x1234);
    /* -cpu max without virtualization=on: EL2 is not implemented */
    CHECK_EQ("pcsr_pmcid2sr_no_el2", "PMCID2SR", R32(1, PMCID2SR), 0);
    CHECK_EQ("pcsr_pmvidsr_no_el2", "PMVIDSR", R32(1, PMVIDSR), 0);

    /* 32-bit reads: [31:0] samples, [63:32] is the same sample's top */
    lo = R32(1, PMPCSR_LO);
    hi = R32(1, PMPCSR_HI);
    v2 = ((uint64_t)hi << 32) | lo;
    result("pcsr_lo_hi_pair", in_range(PC_OF(v2), loop_a, loop_a_end) &&
           hi == 0xa0000000u, "PMPCSR", v2, (uint64_t)loop_a);
    /* The alias at 0x220 samples too */
    lo = R32(1, PMPCSR_LO_AL);
    hi = R32(1, PMPCSR_HI_AL);
    v2 = ((uint64_t)hi << 32) | lo;
    result("pcsr_alias_samples", in_range(PC_OF(v2), loop_a, loop_a_end) &&
           hi == 0xa0000000u, "PMPCSR alias", v2, (uint64_t)loop_a);

    /* The sample follows the target: loop_b, then EL0 */
    mailbox = 1;
    v = poll64(1, at_loop_b, &tries);
    result("pcsr_follows_target", at_loop_b(v), "PMPCSR", v,
           (uint64_t)loop_b);
    /* The reader's own frame never shows CPU 1's loop */
    v2 = R64(0, PMPCSR_LO);
    result("pcsr_frames_per_cpu", !in_range(PC_OF(v2), loop_a, loop_el0 + 4),
           "CPU 0 PMPCSR", v2, 0);
    mailbox = 2;
    v = poll64(1, at_el0, &tries);
    result("pcsr_target_el0", at_el0(v) && PC_OF(v) == (uint64_t)loop_el0,
           "PMPCSR", v, (uint64_t)loop_el0);
}

/* ExternalNoninvasiveDebugEnabled() == FALSE (H7.1.1) */
static void t_niden(void)
{
    CHECK_EQ("pcsr_niden_authstatus", "PMAUTHSTATUS.NSNID",
             R32(0, PMAUTHSTATUS) & 0xf, 0x8);
    CHECK_EQ("pcsr_niden_reads_ones", "PMPCSR[31:0]", R32(0, PMPCSR_LO),
             0xffffffff);
    CHECK_EQ("pcsr_niden_no_activation", "PMPCSCTL", R32(0, PMPCSCTL), 0x2);
}

/* Without pcsr=on there is nothing at the frame address */
static void t_absent(void)
{
    expect_abort = 1;
    (void)R32(0, PMDEVID);
    expect_abort = 0;
    CHECK_EQ("pcsr_absent_by_default", "external aborts", saw_abort, 1);
}

#if defined(MODE_PCSRNIDEN)
#define MODE 1
#elif defined(MODE_PCSROFF)
#define MODE 2
#else
#define MODE 0
#endif

int main(void);
int main(void)
{
    puts_("# PCSR conformance\n");
    if (MODE == 1) {
        t_niden();
    } else if (MODE == 2) {
        t_absent();
    } else {
        t_id();
        t_off();
        t_own();
        t_target();
    }
    return 0;
}
