/*
 * FEAT_SPE conformance checks for the project's QEMU model.
 *
 * Bare metal, EL1, on "-M virt -cpu max" with GICv2 or GICv3. Every expected
 * number below is written from the specification in shared/spec:
 *   000 = SPE supplement (2017), 001 = Arm ARM D17.7,
 *   002 = D18.2 packets, 004 = D18.1 records,
 * and from the documented choices of the model (Documentation/
 * emulation.rst: -cpu max defaults, synthetic latencies).
 *
 * Output: one "RESULT <name> PASS|FAIL|SKIP [detail]" line per check on
 * the PL011; run.sh turns these into TAP.
 *
 * Build modes: -DMODE_SPE (full suite), -DMODE_NOSPE (spe=off: the
 * extension must be absent), -DMODE_KNOB (spe-fault=ea:2 knob),
 * -DMODE_EVFR (PMSEVFR_EL1 bits, per spe-version), -DMODE_ALIGN
 * (records padded to a large spe-align), -DMODE_STRICT (the strict
 * model, spe-strict=on: records in flight, synchronization, DL,
 * collisions), -DMODE_EL2 (PMBIDR_EL1.P from EL2 and EL1, booted at EL2
 * with virtualization=on), -DMODE_EL3 (PMBIDR_EL1.P with MDCR_EL3.NSPB
 * giving the buffer to Secure state, booted at EL3 with secure=on),
 * -DMODE_FLAGS (spe-crr=on, spe-fpf=on: Branch CR, Other ASE/FP),
 * -DMODE_ERND (PMSICR_EL1.ECOUNT with and without PMSIDR_EL1.ERnd, and
 * E[22] when ERnd's secondary counter defers a sample),
 * -DMODE_PBT (spe-pbt=on: the previous branch target), -DMODE_FGT (the
 * FEAT_FGT trap bits of the SPE registers, EL1 code under EL2), -DMODE_GCS
 * (FEAT_GCS: GCS loads/stores and the Branch GCS bit, GCS_PMSVER),
 * -DMODE_LSE128 (FEAT_LSE128's 128-bit atomics), -DMODE_MULTI (SME2's
 * and SVE2p1's multi-vector loads/stores), -DMODE_NV2 (FEAT_NV2: the
 * SPE registers in the VNCR_EL2 page, and the records of an MRS/MSR it
 * makes a load/store; EL1 code under EL2), -DMODE_MTE (FEAT_MTE2: the
 * physical address packet's CH and PAT, on the board's mte=on), -DMODE_SME
 * (FEAT_SPE_SME, SPE_SME=1, and the same operations without it),
 * -DMODE_MIGRATE (state dumps for migrate.py: the same program run
 * straight and migrated to a new QEMU at each of its points).
 *
 * The modes other than STRICT, EL2 and EL3 run with spe-strict=off: their
 * probes disable the buffer while profiling is enabled, which strict mode
 * reports as a violation. A test that expects a "spe-violation:" line
 * from QEMU prints "EXPECT-VIOLATION <rule>" first; run.sh checks that
 * exactly those rules were reported.
 */
#include <stdint.h>
#include <stddef.h>

#include <arm_spe/spe_regs.h>

#include "console.h"
#include "gic.h"

/* ---------------------------------------------------------------- */
/* Console and RESULT lines: console.c */

static __attribute__((unused)) void skip(const char *name, const char *why)
{
    puts_("RESULT ");
    puts_(name);
    puts_(" SKIP ");
    puts_(why);
    puts_("\n");
}

/* SKIP results for the @n tests @names of a mode whose feature is absent */
static __attribute__((unused)) void skip_all(const char *const *names,
                                             unsigned n, const char *why)
{
    unsigned i;

    for (i = 0; i < n; i++) {
        skip(names[i], why);
    }
}
#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* A test is a sequence of CHECKs; the first failing one is reported. */
#define CHECK(name, cond, what, got, want) do {                   \
        uint64_t g_ = (got), w_ = (want);                        \
        if (!(cond)) {                                           \
            result(name, 0, what, g_, w_);                       \
            return;                                              \
        }                                                        \
    } while (0)
#define CHECK_EQ(name, what, got, want) \
    CHECK(name, g_ == w_, what, got, want)

/* ---------------------------------------------------------------- */
/* System registers, by encoding (SPE supplement chapter 4) */

#define STR_(x) #x
#define STR(x) STR_(x)
#define RD(reg) ({ uint64_t v_; \
    __asm__ volatile("mrs %0, " STR(reg) : "=r"(v_)); v_; })
#define WR(reg, v) __asm__ volatile("msr " STR(reg) ", %0" :: "r"((uint64_t)(v)))
#define ISB() __asm__ volatile("isb" ::: "memory")
#define DSB() __asm__ volatile("dsb sy" ::: "memory")
/* TLB maintenance after a change to the tables, TCR_EL1 or MAIR_EL1 */
#define TLBI_VMALLE1() \
    __asm__ volatile("tlbi vmalle1; dsb sy; isb" ::: "memory")
/* SMSTOP, as a word for assemblers without SME: leave Streaming mode, drop ZA */
#define SMSTOP() __asm__ volatile(".inst 0xd503467f" ::: "memory")
/* PSB CSYNC is HINT #17: any assembler builds it */
#define PSB() __asm__ volatile("hint #17" ::: "memory")

#define PMSCR_EL1     S3_0_C9_C9_0
#define PMSNEVFR_EL1  S3_0_C9_C9_1
#define PMSICR_EL1    S3_0_C9_C9_2
#define PMSIRR_EL1    S3_0_C9_C9_3
#define PMSFCR_EL1    S3_0_C9_C9_4
#define PMSEVFR_EL1   S3_0_C9_C9_5
#define PMSLATFR_EL1  S3_0_C9_C9_6
#define PMSIDR_EL1    S3_0_C9_C9_7
#define PMBLIMITR_EL1 S3_0_C9_C10_0
#define PMBPTR_EL1    S3_0_C9_C10_1
#define PMBSR_EL1     S3_0_C9_C10_3
#define PMSDSFR_EL1   S3_0_C9_C10_4
#define PMBIDR_EL1    S3_0_C9_C10_7
#define ID_AA64DFR0   S3_0_C0_C5_0
#define CONTEXTIDR    S3_0_C13_C0_1
#define CPACR_EL1     S3_0_C1_C0_2
#define ZCR_EL1       S3_0_C1_C2_0
#define SMCR_EL1      S3_0_C1_C2_6
#define PMSCR_EL2     S3_4_C9_C9_0
#define HDFGRTR_EL2   S3_4_C3_C1_4        /* FEAT_FGT */
#define HDFGWTR_EL2   S3_4_C3_C1_5
#define ID_AA64PFR1   S3_0_C0_C4_1

/* ---------------------------------------------------------------- */
/* Memory map, identity-mapped MMU with one unmapped page */

#define BUF_BASE    0x41000000UL           /* 64 KiB mapped buffer */
#define BUF_LIMIT   0x41010000UL
#define HOLE_PAGE   0x41010000UL           /* not mapped: fault test */
#define DATA        0x41100000UL           /* operand memory */
#define EL0_BLOCK   0x40400000UL           /* link.ld: .el0.text */
#define TAG_PAGE    0x41140000UL           /* MODE_MTE: Allocation Tags */

static uint64_t l1[512] __attribute__((aligned(4096)));
static uint64_t l2[512] __attribute__((aligned(4096)));
static uint64_t l3[512] __attribute__((aligned(4096)));

#if defined(MODE_GCS)
/*
 * FEAT_GCS needs a Guarded Control Stack page, which only stage 1
 * permission indirection (FEAT_S1PIE) can describe: with TCR2_EL1.PIE
 * the permissions of a descriptor are PIR_EL1[4 * PIIndex + 3:4 * PIIndex],
 * PIIndex = {UXN, PXN, DBM, AP[1]}. Every descriptor here has index 0,
 * made read/write/execute (0b1110) at EL1; GCS_PAGE alone has AP[1] set:
 * index 1, the GCS permission (0b1001: read, GCS read/write). Nothing at
 * EL0 (PIRE0_EL1 = 0). Without FEAT_GCS and FEAT_S1PIE, nothing changes.
 */
#define ID_AA64MMFR3  S3_0_C0_C7_3
#define TCR2_EL1      S3_0_C2_C0_3
#define PIR_EL1       S3_0_C10_C2_3
#define PIRE0_EL1     S3_0_C10_C2_2
#define GCSCR_EL1     S3_0_C2_C5_0
#define GCSPR_EL1     S3_0_C2_C5_1
#define GCS_PAGE      0x41180000UL

static int have_gcs(void)
{
    return ((RD(ID_AA64PFR1) >> 44) & 0xf) != 0 &&     /* GCS */
           ((RD(ID_AA64MMFR3) >> 8) & 0xf) != 0 &&     /* S1PIE */
           (RD(ID_AA64MMFR3) & 0xf) != 0;              /* TCRX */
}

static void gcs_tables(void)
{
    if (!have_gcs()) {
        return;
    }
    l3[(GCS_PAGE - 0x41000000UL) >> 12] |= 1 << 6;
    WR(PIR_EL1, 0xeULL | (0x9ULL << 4));
    WR(PIRE0_EL1, 0);
    WR(TCR2_EL1, 1 << 1);                   /* PIE */
}
#endif

#if defined(MODE_EL0)
/* FEAT_BTI: ID_AA64PFR1_EL1.BT, bits [3:0] */
static int have_bti(void)
{
    return (RD(ID_AA64PFR1) & 0xf) != 0;
}
#endif

static void mmu_on(void)
{
    const uint64_t af = 1 << 10, sh = 3 << 8, normal = 1 << 2, valid = 1;
    int i;

    /* 0-1 GiB: device (MAIR attr 0); 1-2 GiB: RAM via 2 MiB blocks */
    l1[0] = 0x0 | af | valid;
    l1[1] = (uint64_t)l2 | 3;
    for (i = 0; i < 512; i++) {
        l2[i] = (0x40000000UL + ((uint64_t)i << 21)) | af | sh | normal | valid;
    }
    /* 0x41000000-0x411fffff in 4 KiB pages, the hole left invalid */
    for (i = 0; i < 512; i++) {
        uint64_t pa = 0x41000000UL + ((uint64_t)i << 12);
        l3[i] = pa == HOLE_PAGE ? 0 : pa | af | sh | normal | 3;
    }
    l2[(0x41000000UL - 0x40000000UL) >> 21] = (uint64_t)l3 | 3;
#if defined(MODE_UNPRIV)
    /* the DATA page: AP[2:1] = 0b01, read/write at EL0 and EL1 */
    l3[(DATA - 0x41000000UL) >> 12] |= 1 << 6;
#endif
#if defined(MODE_EL0)
    /*
     * el0.S's EL0 code: AP[2:1] = 0b11, read-only at EL0 and EL1, and a
     * guarded page (GP, bit 50; RES0 without FEAT_BTI)
     */
    l2[(EL0_BLOCK - 0x40000000UL) >> 21] |= (3 << 6) |
                                            (have_bti() ? 1ULL << 50 : 0);
#endif
#if defined(MODE_GCS)
    gcs_tables();
#endif
#if defined(MODE_MTE)
    /*
     * RAM is Tagged Normal (MAIR attr2 0xf0, D18.2.1 CH "checked against
     * an Allocation Tag in memory") but for the DATA page: AttrIndx 2.
     */
    for (i = 0; i < 512; i++) {
        l2[i] ^= (1 << 2) ^ (2 << 2);
        if (l3[i] && 0x41000000UL + ((uint64_t)i << 12) != DATA) {
            l3[i] ^= (1 << 2) ^ (2 << 2);
        }
    }
    l2[(0x41000000UL - 0x40000000UL) >> 21] = (uint64_t)l3 | 3;
#endif

    WR(mair_el1, 0xf0ff00);     /* attr0 device, attr1 WB, attr2 Tagged */
    WR(tcr_el1, 25 | (1 << 8) | (1 << 10) | (3 << 12) | (1 << 23) |
                (2ULL << 32));
    WR(ttbr0_el1, (uint64_t)l1);
    DSB();
    TLBI_VMALLE1();
    WR(sctlr_el1, RD(sctlr_el1) | 1 | (1 << 2) | (1 << 12));
    ISB();
}

/* ---------------------------------------------------------------- */
/* PMBIRQ on the virt machine: PPI 21 (INTID 21), through gic.c */

#define SPE_INTID 21

static volatile int irq_count;
static volatile uint64_t irq_pmbsr;
static volatile uint32_t irq_id;

void irq_handler(void);
void irq_handler(void)
{
    uint32_t iar = gic_ack();

    irq_id = iar & 0x3ff;
    if (irq_id == SPE_INTID) {
        irq_count++;
        irq_pmbsr = RD(PMBSR_EL1);
        /* PMBIRQ is level, driven by PMBSR_EL1.S: clear it (3.5) */
        WR(PMBSR_EL1, 0);
        ISB();
    }
    gic_eoi(iar);
}

/* Set by a test that expects the next instruction to be UNDEFINED */
static volatile int expect_undef, saw_undef;

uint64_t sync_handler(uint64_t esr, uint64_t elr);
uint64_t sync_handler(uint64_t esr, uint64_t elr)
{
    /* ESR_ELx.EC == 0: Unknown reason, i.e. UNDEFINED */
    if (expect_undef && (esr >> 26) == 0) {
        saw_undef++;
        return elr + 4;
    }
    return 0;
}


/* ---------------------------------------------------------------- */
/* Sequences from ops.S */

void spe_loop(uint64_t iters, uint64_t limitr);
void spe_spin(uint64_t iters);
void spe_branchy(uint64_t iters, uint64_t limitr);
extern char spe_branchy_tbz[], spe_branchy_loop[];
typedef void probe_fn(uint64_t limitr, uint64_t addr, uint64_t val);
#define PROBE(n) extern probe_fn n; extern char n##_target[], n##_after[];
PROBE(op_ldr) PROBE(op_str) PROBE(op_ldp) PROBE(op_ldr_q) PROBE(op_ldaxr)
PROBE(op_stlr) PROBE(op_ldadd) PROBE(op_bne_nt) PROBE(op_beq_t) PROBE(op_b)
PROBE(op_br) PROBE(op_csel) PROBE(op_add) PROBE(op_psb) PROBE(op_ldtr)
PROBE(op_sttr) PROBE(op_setpt) PROBE(op_cpyp) PROBE(op_setp) PROBE(op_cpypwt)
PROBE(op_cpym) PROBE(op_setm) PROBE(op_cpym_back) PROBE(op_cpye) PROBE(op_sete)
PROBE(op_ldapr) PROBE(op_casp) PROBE(op_ldrsw_lit) PROBE(op_ldg)
PROBE(op_ld1d) PROBE(op_st1d) PROBE(op_csel_fail) PROBE(op_fcsel_fail)
PROBE(op_dczva) PROBE(op_prfm) PROBE(op_ld1d_first) PROBE(op_st1d_first)
PROBE(op_ld1w_dpred) PROBE(op_ld1w_d) PROBE(op_ld1rqb_vl16)
PROBE(op_bl) PROBE(op_blr) PROBE(op_ret) PROBE(op_fadd_d) PROBE(op_add_v)
PROBE(op_fadd_v) PROBE(op_pbt_b) PROBE(op_pbt_nt) PROBE(op_pbt_ret)
PROBE(op_sve_add_pred) PROBE(op_sve_fadd) PROBE(op_sve_fmla_pred)
PROBE(op_sve_sel) PROBE(op_sve_whilelo) PROBE(op_sve_add_first)
PROBE(op_sme_ld1w) PROBE(op_sme_st1d) PROBE(op_sme_ldr_za)
PROBE(op_sme_str_za)
extern char op_ldrsw_lit_data[];
/* Xd, Xs, Xn and NZCV as a MOPS probe's unsampled forms left them */
extern uint64_t mops_regs[4];
#define NZCV_C          (1ULL << 29)

/* ---------------------------------------------------------------- */
/* Expected values of the -cpu max defaults (emulation.rst) */

#define PMSVER_V1       1               /* ID_AA64DFR0_EL1.PMSVer */
#define PMSVER_V1P1     2
#define PMSVER_V1P4     5
/* FE|FT|FL|ArchInst|FnE, Interval 256, MaxSize 64 B, CountSize 12-bit */
#define PMSIDR_DEFAULT  0x2604fULL
/* F (flag updates) | Align 64 B; P = 0 at EL1 when EL1 owns the buffer */
#define PMBIDR_DEFAULT  0x26ULL

/*
 * The three ID values software reads to learn the implementation:
 * ID_AA64DFR0_EL1.PMSVer, PMSIDR_EL1 and PMBIDR_EL1, each one check.
 */
static __attribute__((unused)) void
check_spe_ids(const char *n_ver, uint64_t pmsver, const char *n_idr,
              uint64_t pmsidr, const char *n_bidr, uint64_t pmbidr)
{
    uint64_t ver = (RD(ID_AA64DFR0) >> 32) & 0xf;

    result(n_ver, ver == pmsver, "PMSVer", ver, pmsver);
    result(n_idr, RD(PMSIDR_EL1) == pmsidr, "PMSIDR", RD(PMSIDR_EL1), pmsidr);
    result(n_bidr, RD(PMBIDR_EL1) == pmbidr, "PMBIDR", RD(PMBIDR_EL1), pmbidr);
}
#define RECORD_SIZE     64

/* Profiling Buffer setup helpers */
static void spe_reset_regs(void)
{
    WR(PMBLIMITR_EL1, 0);
    WR(PMBSR_EL1, 0);
    WR(PMSCR_EL1, 0);
    WR(PMSFCR_EL1, 0);
    WR(PMSEVFR_EL1, 0);
    WR(PMSNEVFR_EL1, 0);
    WR(PMSLATFR_EL1, 0);
    WR(PMSICR_EL1, 0);
    WR(PMSIRR_EL1, 0);
    ISB();
}

static void clear_buf(uint64_t base, uint64_t len)
{
    volatile uint8_t *p = (volatile uint8_t *)base;
    uint64_t i;

    for (i = 0; i < len; i++) {
        p[i] = 0xee;
    }
}

/*
 * Program for a single sampled probe operation: a huge interval so the
 * only sample is the probe's target (PMSICR_EL1.COUNT = 1, see ops.S).
 */
static __attribute__((unused)) uint64_t probe_setup(uint64_t pmscr)
{
    spe_reset_regs();
    clear_buf(BUF_BASE, 4096);
    WR(PMBPTR_EL1, BUF_BASE);
    WR(PMSIRR_EL1, 0xffffff00ULL);
    WR(PMSICR_EL1, 1);
    WR(PMSCR_EL1, pmscr);
    ISB();
    return BUF_LIMIT | 1;      /* PMBLIMITR_EL1: LIMIT, E = 1 */
}

/* Run one probe with only its target sampled: where the records end */
static __attribute__((unused)) uint64_t probe_run(probe_fn *fn, uint64_t addr,
                                                  uint64_t val)
{
    fn(probe_setup(2), addr, val);
    return RD(PMBPTR_EL1);
}

/* Packet walker (D18.1.1 header sizes) */
typedef struct Pkt {
    uint8_t hdr;
    uint64_t payload;
    int found;
} Pkt;

static int payload_size(uint8_t h)
{
    if (h < 0x20) {
        return 0;
    }
    return 1 << ((h >> 4) & 3);
}

/* Find the first packet with header (h & mask) == want in the record */
static __attribute__((unused)) Pkt find_pkt(uint64_t base, uint64_t end, uint8_t want, uint8_t mask)
{
    const uint8_t *p = (const uint8_t *)base;
    Pkt k = { 0, 0, 0 };

    while ((uint64_t)p < end) {
        uint8_t h = *p++;
        int n, i;
        uint64_t v = 0;

        if (h >= 0x20 && h < 0x40) {
            h = *p++;                 /* extended header: use byte 1 */
        }
        n = payload_size(h);
        for (i = 0; i < n; i++) {
            v |= (uint64_t)p[i] << (8 * i);
        }
        p += n;
        if ((h & mask) == want) {
            k.hdr = h;
            k.payload = v;
            k.found = 1;
            return k;
        }
        if (h == 0x01 || h == 0x71) {
            break;                    /* End or Timestamp: record done */
        }
    }
    return k;
}

/*
 * Test @n: the record in [BUF_BASE, @end) has an Operation Type of class
 * header @hdr and SUBCLASS @sub and, with @va, that data VA and, with
 * @pa, a PA packet for it (the identity map); no data VA without @va.
 * Returns 0 after a FAIL result.
 */
#define OK_OR_FAIL(what, got, want) do {                                 \
        uint64_t g_ = (got), w_ = (want);                                \
        if (g_ != w_) {                                                  \
            result(n, 0, what, g_, w_);                                  \
            return 0;                                                    \
        }                                                                \
    } while (0)
static __attribute__((unused)) int optype_va_ok(const char *n, uint64_t end,
                                                uint8_t hdr, uint8_t sub,
                                                uint64_t va, int pa)
{
    Pkt k = find_pkt(BUF_BASE, end, 0x48, 0xfc);

    OK_OR_FAIL("OpType header", k.hdr, hdr);
    OK_OR_FAIL("OpType payload", k.payload, sub);
    k = find_pkt(BUF_BASE, end, 0xb2, 0xff);
    OK_OR_FAIL("data VA present", k.found, va != 0);
    if (va) {
        OK_OR_FAIL("data VA", k.payload & ((1ULL << 56) - 1), va);
        k = find_pkt(BUF_BASE, end, 0xb3, 0xff);
        OK_OR_FAIL("PA present", k.found, pa);
        if (pa) {
            OK_OR_FAIL("PA", k.payload, va | (1ULL << 63));
        }
    }
    return 1;
}

/*
 * Test @n: mops_regs as the Arm ARM's option A (PSTATE.C 0) leaves a
 * Memory Copy or Set going forwards after its prologue: Xd at the end
 * @xd of the destination, Xs (@xs, unless 0) at the source's, Xn minus
 * the bytes left, of @size; some done and some left, so that the wrong
 * register shows in the address. Returns 0 after a FAIL result.
 */
static __attribute__((unused)) int
mops_regs_fwd_ok(const char *n, uint64_t xd, uint64_t xs, uint64_t size)
{
    int64_t xn = mops_regs[2];

    OK_OR_FAIL("PSTATE.C (option A)", mops_regs[3] & NZCV_C, 0);
    OK_OR_FAIL("Xd (the destination's end)", mops_regs[0], xd);
    if (xs) {
        OK_OR_FAIL("Xs (the source's end)", mops_regs[1], xs);
    }
    /* some bytes done, some left: a wrong base shows in the address */
    OK_OR_FAIL("-size < Xn < 0", xn < 0 && xn > -(int64_t)size, 1);
    return 1;
}

/* ---------------------------------------------------------------- */
/* Tests */

#if defined(MODE_SPE) || defined(MODE_FLAGS)
/* Run one probe and check PC, operation type and addresses */
static void t_probe(const char *n, probe_fn *fn, char *target, uint64_t addr,
                    uint64_t va, uint8_t optype_hdr, uint8_t subclass,
                    int ldst, uint64_t tgt, uint64_t events)
{
    uint64_t end = probe_run(fn, addr, 5);
    Pkt k;

    CHECK_EQ(n, "record size", end - BUF_BASE, RECORD_SIZE);
    /* PC: Address packet index 0, EL1 (byte 7 bits 6:5), NS=1 (D18.2.1) */
    k = find_pkt(BUF_BASE, end, 0xb0, 0xff);
    CHECK_EQ(n, "PC packet", k.found, 1);
    CHECK_EQ(n, "PC", k.payload,
             (uint64_t)target | (1ULL << 61) | (1ULL << 63));
    k = find_pkt(BUF_BASE, end, 0x48, 0xfc);
    CHECK_EQ(n, "OpType header", k.hdr, optype_hdr);
    CHECK_EQ(n, "OpType payload", k.payload, subclass);
    k = find_pkt(BUF_BASE, end, 0xb2, 0xff);
    CHECK_EQ(n, "data VA present", k.found, ldst);
    if (ldst) {
        CHECK_EQ(n, "data VA", k.payload, va);
    }
    k = find_pkt(BUF_BASE, end, 0xb1, 0xff);
    CHECK_EQ(n, "target present", k.found, tgt != 0);
    if (tgt) {
        CHECK_EQ(n, "target", k.payload,
                 tgt | (1ULL << 61) | (1ULL << 63));
    }
    k = find_pkt(BUF_BASE, end, 0x52, 0xff);
    CHECK_EQ(n, "events", k.payload, events);
    /* Counters: total (index 0), issue (1), translation (2) latency */
    k = find_pkt(BUF_BASE, end, 0x98, 0xff);
    CHECK_EQ(n, "total latency", k.payload, ldst ? 7 : 2);
    k = find_pkt(BUF_BASE, end, 0x99, 0xff);
    CHECK_EQ(n, "issue latency", k.payload, 1);
    k = find_pkt(BUF_BASE, end, 0x9a, 0xff);
    CHECK_EQ(n, "xlat latency present", k.found, ldst);
    k = find_pkt(BUF_BASE, end, 0x01, 0xff);
    CHECK_EQ(n, "End packet", k.found, 1);
    result(n, 1, "", 0, 0);
}
#endif

#if defined(MODE_NOSPE)

static void t_absent(void)
{
    uint64_t dfr0 = RD(ID_AA64DFR0);

    /* ID_AA64DFR0_EL1.PMSVer, bits [35:32] */
    result("spe_off_pmsver_zero", ((dfr0 >> 32) & 0xf) == 0,
           "PMSVer", (dfr0 >> 32) & 0xf, 0);

    /* Without SPE the registers are UNDEFINED (4.3: "Configurations") */
    expect_undef = 1;
    saw_undef = 0;
    (void)RD(PMSIDR_EL1);
    (void)RD(PMBIDR_EL1);
    WR(PMSCR_EL1, 0);
    WR(PMBLIMITR_EL1, 0);
    expect_undef = 0;
    result("spe_off_registers_undefined", saw_undef == 4,
           "UNDEFINED accesses", saw_undef, 4);
}

#elif defined(MODE_KNOB)

static void t_knob(void)
{
    const char *n = "fault_knob_ea_on_second_record";
    uint64_t sr, ptr;

    spe_reset_regs();
    clear_buf(BUF_BASE, 4096);
    WR(PMBPTR_EL1, BUF_BASE);
    WR(PMSIRR_EL1, 0x100);              /* one sample per 257 ops */
    WR(PMSCR_EL1, 2);                   /* E1SPE */
    ISB();
    spe_loop(1000, BUF_LIMIT | 1);      /* 2001 ops: 7 samples */
    sr = RD(PMBSR_EL1);
    ptr = RD(PMBPTR_EL1);
    /* spe-fault=ea:2: 1st record written, 2nd gets an external abort */
    CHECK_EQ(n, "PMBSR.S", (sr >> 17) & 1, 1);
    CHECK_EQ(n, "PMBSR.EA", (sr >> 18) & 1, 1);
    CHECK_EQ(n, "PMBSR.EC", (sr >> 26) & 0x3f, 0x24);
    CHECK_EQ(n, "PMBSR.FSC", sr & 0x3f, 0x10);
    CHECK_EQ(n, "PMBSR.DL", (sr >> 19) & 1, 0);
    CHECK_EQ(n, "PMBPTR", ptr, BUF_BASE + RECORD_SIZE);
    result(n, 1, "", 0, 0);
    spe_reset_regs();
}

#elif defined(MODE_EVFR)

/*
 * Writable bits of PMSEVFR_EL1 and PMSNEVFR_EL1 by FEAT_SPE version
 * (run with spe-version=1..5): v1 <63:48,31:24,15:12,7,5,3,1> (SPE
 * supplement 4.3.8); v1p1 adds E[11] and, with SVE, E[17], E[18];
 * v1p2 adds E[6] (not taken); v1p4 adds E[2], E[4], E[10:8], E[23:19]
 * and makes E[31:24] read as zero (Arm ARM D18.2.6). E[0], E[16] and
 * [47:32] are always RES0.
 */
static void t_evfr(void)
{
    static const uint64_t want[6] = {
        0, 0xffff0000ff00f0aaULL, 0xffff0000ff06f8aaULL,
        0xffff0000ff06f8eaULL, 0xffff0000ff06f8eaULL, 0xffff000000fefffeULL,
    };
    static const char *const name[6] = {
        "", "pmsevfr_mask_v1", "pmsevfr_mask_v1p1", "pmsevfr_mask_v1p2",
        "pmsevfr_mask_v1p3", "pmsevfr_mask_v1p4",
    };
    uint64_t ver = (RD(ID_AA64DFR0) >> 32) & 0xf;
    const char *n;

    if (ver < 1 || ver > 5) {
        result("pmsevfr_mask", 0, "PMSVer", ver, 5);
        return;
    }
    n = name[ver];
    WR(PMSEVFR_EL1, ~0ULL);
    CHECK_EQ(n, "PMSEVFR", RD(PMSEVFR_EL1), want[ver]);
    WR(PMSEVFR_EL1, 0);
    if (RD(PMSIDR_EL1) & (1 << 6)) {
        /* FnE (FEAT_SPEv1p2): PMSNEVFR_EL1 has the same bits */
        WR(PMSNEVFR_EL1, ~0ULL);
        CHECK_EQ(n, "PMSNEVFR", RD(PMSNEVFR_EL1), want[ver]);
        WR(PMSNEVFR_EL1, 0);
    } else {
        CHECK_EQ(n, "PMSVer without FnE", ver < 3, 1);
    }
    result(n, 1, "", 0, 0);
}

#elif defined(MODE_ALIGN)

/*
 * Large PMBIDR_EL1.Align (run with spe-maxsize=A,spe-align=A for A up
 * to 2 KB): every record is padded to A bytes with Padding packets
 * (D18.1.3), PMBPTR_EL1 moves by A, and the buffer is full when less
 * than MaxSize bytes are left below the limit (3.5.2).
 */
/* "<pre><decimal v><post>" into buf */
static void name_num(char *buf, const char *pre, uint64_t v,
                     const char *post)
{
    char d[24];
    int k = 0;

    while (*pre) {
        *buf++ = *pre++;
    }
    do {
        d[k++] = '0' + v % 10;
        v /= 10;
    } while (v);
    while (k) {
        *buf++ = d[--k];
    }
    while (*post) {
        *buf++ = *post++;
    }
    *buf = 0;
}

static void t_align(void)
{
    static char n1[48], n2[48];
    const char *n = n1;
    uint64_t align = 1ULL << (RD(PMBIDR_EL1) & 0xf);
    uint64_t maxsize = 1ULL << ((RD(PMSIDR_EL1) >> 12) & 0xf);
    uint64_t i, got, sr;

    name_num(n1, "align_", align, "_records_padded");
    name_num(n2, "align_", align, "_buffer_full");
    CHECK(n, align > 64 && align == maxsize, "Align == MaxSize > 64",
          align, maxsize);
    WR(PMBLIMITR_EL1, 0);
    WR(PMBSR_EL1, 0);
    WR(PMSFCR_EL1, 0);
    WR(PMSICR_EL1, 0);
    clear_buf(BUF_BASE, BUF_LIMIT - BUF_BASE);
    WR(PMBPTR_EL1, BUF_BASE);
    WR(PMSIRR_EL1, 0x100);              /* one sample per 257 ops */
    WR(PMSCR_EL1, 2);                   /* E1SPE */
    ISB();
    spe_loop(1000, BUF_LIMIT | 1);      /* 2001 ops: 7 samples */
    got = RD(PMBPTR_EL1) - BUF_BASE;
    CHECK_EQ(n, "PMBPTR - base", got, 7 * align);
    CHECK_EQ(n, "PMBSR", RD(PMBSR_EL1), 0);
    for (i = 0; i < 7; i++) {
        const uint8_t *r = (const uint8_t *)(BUF_BASE + i * align);
        uint64_t off = 0, j;

        /* Address packet, PC (index 0) first; End packet (TS = 0) last */
        CHECK_EQ(n, "first header", r[0], 0xb0);
        while (off < 64 && r[off] != 0x01) {
            uint8_t h = r[off++];

            if (h >= 0x20 && h < 0x40) {
                h = r[off++];
            }
            off += payload_size(h);
        }
        CHECK(n, off < 64, "End packet within 64 bytes", off, 64);
        for (j = off + 1; j < align; j++) {
            CHECK_EQ(n, "Padding byte", r[j], 0x00);
        }
    }
    CHECK_EQ(n, "byte after the records", *(volatile uint8_t *)
             (BUF_BASE + 7 * align), 0xee);
    result(n, 1, "", 0, 0);

    /* Buffer full: records fit until less than MaxSize is left */
    n = n2;
    WR(PMBSR_EL1, 0);
    WR(PMSICR_EL1, 0);
    WR(PMBPTR_EL1, BUF_LIMIT - 4096);
    ISB();
    spe_loop(5000, BUF_LIMIT | 1);      /* 10001 ops: 38 samples */
    sr = RD(PMBSR_EL1);
    CHECK_EQ(n, "PMBPTR", RD(PMBPTR_EL1), BUF_LIMIT);
    CHECK_EQ(n, "PMBSR.S", (sr >> 17) & 1, 1);
    CHECK_EQ(n, "PMBSR.EC", (sr >> 26) & 0x3f, 0);
    CHECK_EQ(n, "PMBSR.BSC", sr & 0x3f, 1);
    CHECK_EQ(n, "PMBSR.DL", (sr >> 19) & 1, 0);
    result(n, 1, "", 0, 0);
    WR(PMSCR_EL1, 0);
    WR(PMBSR_EL1, 0);
    ISB();
}

#elif defined(MODE_PBT)

/*
 * FEAT_SPE_PBT (spe-pbt=on, spe-maxsize=128), D18.2.1 INDEX 4: "the target
 * virtual address of the most recently taken branch operation in program
 * order before the sampled operation", with NS and EL as for the PC.
 */
static void t_pbt_one(const char *n, probe_fn *fn, uint64_t want)
{
    uint64_t end = probe_run(fn, 0, 5);
    Pkt k = find_pkt(BUF_BASE, end, 0xb4, 0xff);

    CHECK_EQ(n, "PBT packet", k.found, 1);
    CHECK_EQ(n, "PBT", k.payload, want | (1ULL << 61) | (1ULL << 63));
    result(n, 1, "", 0, 0);
}

static void t_pbt(void)
{
    /* the first instruction of each probe is 4 bytes before its label */
    t_pbt_one("pbt_taken_b", op_pbt_b, (uint64_t)op_pbt_b + 4);
    t_pbt_one("pbt_not_taken_bcond_skipped", op_pbt_nt, (uint64_t)op_pbt_nt);
    t_pbt_one("pbt_ret", op_pbt_ret, (uint64_t)op_pbt_ret + 12);
    result("pmsidr_pbt", (RD(PMSIDR_EL1) >> 24) & 1, "PMSIDR_EL1.PBT",
           (RD(PMSIDR_EL1) >> 24) & 1, 1);
}

#elif defined(MODE_ERND)
/* PMSIDR_EL1.ERnd: the secondary counter is implemented */
static int have_ernd(void)
{
    return !!(RD(PMSIDR_EL1) & SPE_PMSIDR_ERND_MASK);
}

/*
 * PMSICR_EL1.ECOUNT, bits [63:56]: the secondary counter when
 * PMSIDR_EL1.ERnd is 1, RES0 when it is 0 (SPE supplement 4.3.10). Run
 * with spe-ernd=on and off.
 */
static void t_ecount(void)
{
    int ernd = have_ernd();
    uint64_t want = ernd ? 0xff000000ffffffffULL : 0xffffffffULL;
    const char *n = ernd ? "pmsicr_ecount_with_ernd" : "pmsicr_ecount_res0";

    WR(PMSICR_EL1, ~0ULL);
    CHECK_EQ(n, "PMSICR", RD(PMSICR_EL1), want);
    WR(PMSICR_EL1, 0);
    result(n, 1, "", 0, 0);
}

/*
 * E[22] recently fetched (D18.2.6, FEAT_SPEv1p4, optional: which lines
 * are recently fetched is the implementation's) from the model's line
 * fill buffer (Documentation/emulation.rst, "Memory-hierarchy model"; mode
 * MODEL's model_recent_*): a line from DRAM is on its way for 180
 * operations after the load that missed it, the interval counter
 * telling the time to the sample. With PMSIRR_EL1.RND = 1 and
 * PMSIDR_EL1.ERnd = 1 (3.1.2) the sample is not taken when COUNT
 * reaches zero but when the secondary counter, ECOUNT, set then to a
 * random 0x00-0xff, does: COUNT no longer tells the time, and the fill
 * buffer empties when ECOUNT defers the sample (emulation.rst). RND = 0,
 * or ERnd = 0 (RND then randomizes only a COUNT reloaded, 3.1.1/3.1.2,
 * and this one is written), takes the sample COUNT says.
 *
 * Strict model (run.sh's ERND runs): the buffer is enabled before
 * profiling, and the records are read after PSB CSYNC and DSB (3.6).
 */
#define EV_RECENT       (1u << 22)
#define ERND_LINES      0x42000000UL    /* fresh lines, 64 KiB apart */
/*
 * COUNT = 17: the load that misses and 16 loads of its line take it to
 * zero (the ISB that enables profiling is not counted), and the 17th is
 * the sample: 17 operations after the miss
 */
#define ERND_COUNT      17

void e22_ernd(uint64_t pmscr, uint64_t addr, uint64_t count);
extern char e22_ernd_loads[];

/*
 * Sample e22_ernd on @addr with PMSIRR_EL1.RND = @rnd: the records, and
 * the first one's PC and events
 */
static uint64_t ernd_sample(uint64_t addr, int rnd, uint64_t *pc,
                            uint64_t *ev)
{
    uint64_t end;

    spe_reset_regs();
    clear_buf(BUF_BASE, 4096);
    WR(PMBPTR_EL1, BUF_BASE);
    WR(PMSIRR_EL1, 0x10000 | rnd);          /* INTERVAL 256 << 8 */
    WR(PMBLIMITR_EL1, BUF_LIMIT | 1);
    ISB();
    e22_ernd(2, addr, ERND_COUNT);          /* E1SPE */
    PSB();
    DSB();
    WR(PMBLIMITR_EL1, 0);
    ISB();
    end = RD(PMBPTR_EL1);
    *pc = find_pkt(BUF_BASE, end, 0xb0, 0xff).payload & ((1ULL << 56) - 1);
    *ev = find_pkt(BUF_BASE, end, 0x42, 0xcf).payload;
    return (end - BUF_BASE) / RECORD_SIZE;
}

static void t_ernd_recent(void)
{
    int ernd = have_ernd();
    const char *n = ernd ? "model_recent_ernd_deferral_empties" :
                    "model_recent_rnd_without_ernd";
    uint64_t pc, ev, at, d;
    int i, deferred = 0;

    /* RND = 0: the sample COUNT says, 17 operations after the miss */
    CHECK_EQ(n, "records (RND 0)", ernd_sample(ERND_LINES, 0, &at, &ev), 1);
    CHECK_EQ(n, "sampled PC (RND 0)", at, (uint64_t)e22_ernd_loads + 16 * 4);
    CHECK_EQ(n, "E[22] (RND 0)", ev & EV_RECENT, EV_RECENT);
    /*
     * RND = 1, fresh lines: with ERnd the sample is d loads on, ECOUNT
     * = d deferring it (d = 0: not deferred); the line came 17 + d
     * operations before it, fewer than 180 for most d, but the deferral
     * ended the fetches. Enough tries that some are deferred (255 in
     * 256 are). Without ERnd, never deferred.
     */
    for (i = 1; i <= 4; i++) {
        CHECK_EQ(n, "records (RND 1)",
                 ernd_sample(ERND_LINES + (i << 16), 1, &pc, &ev), 1);
        d = (pc - at) / 4;
        CHECK(n, pc >= at && !(pc & 3) && d <= (ernd ? 0xff : 0),
              "sampled PC (deferred by ECOUNT, ERnd only)", pc, at);
        deferred += d != 0;
        CHECK_EQ(n, "an L1 hit (no E[3] refill)", ev & (1u << 3), 0);
        CHECK_EQ(n, d ? "E[22] after a deferral" : "E[22] (not deferred)",
                 ev & EV_RECENT, d ? 0 : EV_RECENT);
    }
    CHECK(n, !ernd || deferred, "samples deferred", deferred, 1);
    result(n, 1, "", 0, 0);
    spe_reset_regs();
}

/*
 * PMSICR_EL1.ECOUNT as the secondary sample interval counter (SPE
 * supplement 3.1.2, 4.3.10). With PMSIRR_EL1.RND = 1 and
 * PMSIDR_EL1.ERnd = 1, when the primary counter (COUNT) reaches zero it
 * is reloaded (COUNT[31:8] = INTERVAL, COUNT[7:0] = 0x00, 3.1.1) and
 * ECOUNT is set to a random 0x00-0xff; "While the secondary sample
 * interval counter is nonzero, the secondary sample interval counter
 * decrements by 1 for each member of the sample population. The primary
 * sample interval counter also continues to decrement", and "When the
 * secondary sample interval counter reaches zero, an operation is
 * selected for sampling" (3.1.2). With ERnd = 0 ECOUNT is RES0 (4.3.10):
 * it reads 0 and a written one is dropped.
 *
 * Convention (the model's for COUNT, emulation.rst "Interval counter":
 * the operation that finds COUNT already zero is the sampled one): COUNT
 * = c means the (c+1)-th counted operation from there finds it zero;
 * ECOUNT = e while a deferral is in progress means the (e+1)-th
 * operation from there is sampled, COUNT decremented by each operation
 * meanwhile. The operation that finds COUNT zero leaves COUNT =
 * INTERVAL << 8 (RND = 0: the next sample INTERVAL * 256 + 1 operations
 * on, the 3.1.2 note) and ECOUNT = r, so its sample is r + 1 operations
 * on. Every instruction is a member of the population (ArchInst); see
 * ops.S for which of the MSR/ISB pairs that enable and disable profiling
 * count.
 *
 * PMSICR_EL1 is read with profiling disabled: it does not change then
 * (3.1.3, 4.3.10), and sampling restarts from its value when profiling
 * is enabled again (3.1.1, "If PMSICR_EL1 is nonzero") - the context
 * switch PMSICR_EL1 is for (4.3.10). With INTERVAL = 256 (R = 0x10000)
 * the primary, once reloaded, does not expire again in these sequences.
 */
#define ERND_R          0x10000ULL      /* INTERVAL << 8 */
#define ERND_RND        SPE_PMSIRR_RND_MASK
#define ECOUNT(icr)     ((icr) >> 56)
#define COUNT(icr)      ((icr) & 0xffffffffULL)

typedef void ernd_fn(uint64_t pmscr, uint64_t icr, uint64_t *out);
extern ernd_fn ernd_reads, ernd_write, icr_read_on;
extern char ernd_reads_a[], ernd_reads_b[], ernd_reads_c[], ernd_write_ops[];

/*
 * Run @fn with PMSIRR_EL1 = INTERVAL 256 | @rnd and PMSICR_EL1 = @icr:
 * the number of records, the PCs of the first two in @pc
 */
static uint64_t ernd_run(ernd_fn *fn, int rnd, uint64_t icr, uint64_t *out,
                         uint64_t *pc)
{
    uint64_t end, i;

    spe_reset_regs();
    clear_buf(BUF_BASE, 4096);
    WR(PMBPTR_EL1, BUF_BASE);
    WR(PMSIRR_EL1, ERND_R | rnd);
    WR(PMBLIMITR_EL1, BUF_LIMIT | 1);
    ISB();
    fn(2, icr, out);                        /* E1SPE */
    PSB();
    DSB();
    WR(PMBLIMITR_EL1, 0);
    ISB();
    end = RD(PMBPTR_EL1);
    for (i = 0; i < 2; i++) {
        pc[i] = find_pkt(BUF_BASE + i * RECORD_SIZE, end, 0xb0, 0xff).payload &
                ((1ULL << 56) - 1);
    }
    return (end - BUF_BASE) / RECORD_SIZE;
}

/*
 * ECOUNT counts down during a deferral. PMSICR_EL1 = 1: the first NOP
 * of ernd_reads takes COUNT to zero and the second (X, ernd_reads_a + 4)
 * finds it zero. The first read is 4 operations after X (2 NOPs, the
 * disabling MSR and ISB), the second 10 after the first (8 NOPs, MSR,
 * ISB). With ERnd: COUNT = R - 4 at the first read; ECOUNT = e1 there;
 * at the second both 10 lower; the sample the (ECOUNT + 1)-th operation
 * after a read. A random ECOUNT small enough that the sample comes
 * before the second read (r < 15, from its PC or ECOUNT) is tried again
 * on fresh state, up to 8 times (1 in 17 tries is retried).
 * Without ERnd (RND still 1): X itself is sampled, COUNT reloaded with a
 * random COUNT[7:0] (3.1.2), ECOUNT reads 0.
 */
#define ERND_N1         4       /* operations from X to the first read */
#define ERND_K          10      /* operations between the reads */

static void t_ecount_counts_down(void)
{
    int ernd = have_ernd();
    const char *n = ernd ? "ernd_ecount_counts_down" :
                    "ernd_ecount_res0_after_expiry";
    uint64_t out[2], pc[2], recs, e1, e2;
    int i, spanned = 0;

    if (!ernd) {
        recs = ernd_run(ernd_reads, ERND_RND, 1, out, pc);
        CHECK_EQ(n, "records", recs, 1);
        CHECK_EQ(n, "sampled PC (the operation finding COUNT zero)", pc[0],
                 (uint64_t)ernd_reads_a + 4);
        CHECK_EQ(n, "PMSICR[63:32] at read 1 (ECOUNT RES0)", out[0] >> 32, 0);
        CHECK(n, COUNT(out[0]) >= ERND_R - ERND_N1 &&
              COUNT(out[0]) <= ERND_R + 0xff - ERND_N1,
              "COUNT at read 1 (R + random [7:0], 4 operations on)",
              COUNT(out[0]), ERND_R - ERND_N1);
        CHECK_EQ(n, "PMSICR at read 2 (10 operations on)", out[1],
                 out[0] - ERND_K);
        result(n, 1, "", 0, 0);
        spe_reset_regs();
        return;
    }
    for (i = 0; i < 8 && !spanned; i++) {
        recs = ernd_run(ernd_reads, ERND_RND, 1, out, pc);
        if (recs && pc[0] < (uint64_t)ernd_reads_b - 16) {
            /* r = 0..3: sampled before read 1, r + 1 after X: again */
            CHECK_EQ(n, "records (sampled before read 1)", recs, 1);
            CHECK(n, pc[0] >= (uint64_t)ernd_reads_a + 8,
                  "sampled PC before read 1 (1..4 operations after X)",
                  pc[0], (uint64_t)ernd_reads_a + 8);
            continue;
        }
        CHECK_EQ(n, "COUNT at read 1 (reloaded to R when it expired, "
                 "4 operations before)", COUNT(out[0]), ERND_R - ERND_N1);
        CHECK_EQ(n, "PMSICR[55:32] at read 1", (out[0] >> 32) & 0xffffff, 0);
        e1 = ECOUNT(out[0]);
        CHECK(n, e1 <= 0xff - ERND_N1,
              "ECOUNT at read 1 (random 0..255, 4 operations before)",
              e1, 0xff - ERND_N1);
        if (e1 == 0) {
            /*
             * r = 4: ECOUNT 0 at read 1 with the sample due next, which
             * PMSICR_EL1 cannot tell from no deferral: tried again
             */
            continue;
        }
        CHECK_EQ(n, "records", recs, 1);
        if (e1 < ERND_K) {
            /* r = 5..13: sampled between the reads, in ernd_reads_b */
            CHECK_EQ(n, "sampled PC ((ECOUNT+1)-th operation after read 1)",
                     pc[0], (uint64_t)ernd_reads_b + 4 * e1);
            continue;
        }
        if (e1 == ERND_K) {
            /* r = 14: ECOUNT 0 at read 2 with the sample due next */
            continue;
        }
        e2 = ECOUNT(out[1]);
        CHECK_EQ(n, "ECOUNT at read 2 (10 operations after read 1)", e2,
                 e1 - ERND_K);
        CHECK_EQ(n, "COUNT at read 2 (10 operations after read 1)",
                 COUNT(out[1]), COUNT(out[0]) - ERND_K);
        CHECK_EQ(n, "PMSICR[55:32] at read 2", (out[1] >> 32) & 0xffffff, 0);
        CHECK_EQ(n, "sampled PC ((ECOUNT+1)-th operation after read 2)",
                 pc[0], (uint64_t)ernd_reads_c + 4 * e2);
        spanned = 1;
    }
    CHECK(n, spanned, "tries until a deferral spans both reads", i, 8);
    result(n, 1, "", 0, 0);
    spe_reset_regs();
}

/*
 * A written ECOUNT defers: PMSICR_EL1 = (5 << 56) | 1000, then 1300
 * NOPs. With ERnd the 6th operation (ernd_write_ops + 5 * 4) is sampled,
 * the primary counting down from 1000 meanwhile and after; the 1001st
 * operation finds it zero (ernd_write_ops + 1000 * 4): reloaded, ECOUNT
 * = random r, the second sample r + 1 operations on (NOP 1001..1256),
 * none at NOP 1000. Without ERnd ECOUNT is RES0, the write's ECOUNT
 * dropped: the one sample is the 1001st operation, COUNT then reloaded
 * to R or more.
 */
static void t_ecount_write_defers(void)
{
    int ernd = have_ernd();
    const char *n = ernd ? "ernd_ecount_write_defers" :
                    "ernd_ecount_write_ignored";
    uint64_t pc[2], recs, ops = (uint64_t)ernd_write_ops;

    recs = ernd_run(ernd_write, ERND_RND, (5ULL << 56) | 1000, NULL, pc);
    if (!ernd) {
        CHECK_EQ(n, "records", recs, 1);
        CHECK_EQ(n, "sampled PC (the 1001st operation)", pc[0],
                 ops + 1000 * 4);
        result(n, 1, "", 0, 0);
        spe_reset_regs();
        return;
    }
    CHECK(n, recs >= 1, "records", recs, 2);
    CHECK_EQ(n, "first sampled PC (the 6th operation: ECOUNT 5)", pc[0],
             ops + 5 * 4);
    CHECK_EQ(n, "records (ECOUNT's sample, then the primary's)", recs, 2);
    CHECK(n, pc[1] >= ops + 1001 * 4 && pc[1] <= ops + 1256 * 4,
          "second sampled PC (1..256 operations after the 1001st)",
          pc[1], ops + 1001 * 4);
    result(n, 1, "", 0, 0);
    spe_reset_regs();
}

/*
 * A written ECOUNT reads back, and counts down with COUNT: PMSICR_EL1 =
 * (40 << 56) | 1000 reads back as written while profiling is disabled;
 * through ernd_reads (6 operations to the first read, 10 to the
 * second) ECOUNT 34 then 24, COUNT 994 then 984, and the one sample
 * the 41st operation, 25 after the second read (ernd_reads_c + 24 * 4).
 * Without ERnd: reads 1000, then COUNT 994 and 984 with ECOUNT 0, no
 * sample (the primary would expire at the 1001st operation).
 */
static void t_ecount_written(void)
{
    int ernd = have_ernd();
    const char *n = ernd ? "ernd_ecount_written_counts_down" :
                    "ernd_ecount_written_res0";
    const uint64_t icr = (40ULL << 56) | 1000;
    uint64_t out[2], pc[2], recs, e = ernd ? 40 : 0;

    spe_reset_regs();
    WR(PMSICR_EL1, icr);
    ISB();
    CHECK_EQ(n, "PMSICR read back", RD(PMSICR_EL1), ernd ? icr : COUNT(icr));
    recs = ernd_run(ernd_reads, ERND_RND, icr, out, pc);
    CHECK_EQ(n, "PMSICR at read 1 (6 operations on)", out[0],
             ((ernd ? e - 6 : 0) << 56) | (1000 - 6));
    CHECK_EQ(n, "PMSICR at read 2 (16 operations on)", out[1],
             ((ernd ? e - 16 : 0) << 56) | (1000 - 16));
    CHECK_EQ(n, "records", recs, ernd ? 1 : 0);
    if (ernd) {
        CHECK_EQ(n, "sampled PC (the 41st operation)", pc[0],
                 (uint64_t)ernd_reads_c + 24 * 4);
    }
    result(n, 1, "", 0, 0);
    spe_reset_regs();
}

/*
 * PMSICR_EL1 read while profiling is enabled (icr_read_on): COUNT 1000
 * less the operations counted up to the read (3.1.2: one decrement per
 * member of the population), 4 NOPs and the MRS itself, whose own
 * decrement may come before its read or after: 995 or 996, whatever
 * follows the read in the same straight line (20 NOPs).
 */
static void t_icr_read_enabled(void)
{
    const char *n = "icr_read_while_enabled_exact";
    uint64_t out[1] = { 0 }, pc[2];

    ernd_run(icr_read_on, 0, 1000, out, pc);
    result(n, out[0] == 995 || out[0] == 996, "PMSICR_EL1", out[0], 995);
    spe_reset_regs();
}

/*
 * A written ECOUNT at or above COUNT (3.1.2, 4.3.10). The secondary
 * counter, while nonzero, decrements for each member of the population
 * and selects one when it reaches zero, whatever RND is; the primary
 * reaching zero with RND = 0 selects one too and is reloaded, with RND
 * = 1 (and ERnd = 1) it is reloaded and sets ECOUNT to a random value
 * instead. So with RND = 0 and PMSICR_EL1 = (e << 56) | c, e > c, (the
 * convention above) the (c+1)-th operation is sampled, COUNT reloaded
 * to R, and the (e+1)-th too, e - c operations later: ECOUNT and COUNT
 * count down together before the first sample, ECOUNT and the reloaded
 * COUNT between the two. e == c: both expire on the (c+1)-th operation,
 * one sample. COUNT = 0 with ECOUNT nonzero: PMSICR_EL1 is nonzero, so
 * sampling restarts from its values (3.1.1), COUNT is not loaded and
 * the first operation finds it zero. Without ERnd ECOUNT is RES0: the
 * primary's samples only, and a PMSICR_EL1 of ECOUNT alone is zero,
 * loaded when profiling is enabled.
 *
 * Strict model: a sample taken less than 512 operations after the
 * previous one may collide (3.1.4: PMBSR_EL1.COLL, no record; for the
 * 197-210 operations here one time in 64, spe_strict_push()): such a
 * run is tried again.
 */
typedef struct {
    uint64_t icr;       /* PMSICR_EL1 as written */
    uint64_t r1, r2;    /* PMSICR_EL1 at ernd_reads' two reads */
    unsigned s1, s2;    /* the sampled operations (1 = the first); 0: none */
} ErndCase;

/* The PC of the @k-th operation ernd_reads counts, a NOP (ops.S) */
static uint64_t ernd_reads_op(unsigned k)
{
    if (k <= 4) {
        return (uint64_t)ernd_reads_a + 4 * (k - 1);
    }
    if (k <= 14) {
        return (uint64_t)ernd_reads_b + 4 * (k - 7);
    }
    return (uint64_t)ernd_reads_c + 4 * (k - 17);
}

/*
 * Each case through ernd_reads with RND = 0, one result: @with, named
 * @n_with, with ERnd; @without, named @n_without, without (@nc each)
 */
static void ernd_rnd0(const char *n_with, const ErndCase *with,
                      const char *n_without, const ErndCase *without,
                      unsigned nc)
{
    int ernd = have_ernd();
    const char *n = ernd ? n_with : n_without;
    const ErndCase *c = ernd ? with : without;
    uint64_t out[2], pc[2], recs = 0, back;
    unsigned i, t;

    for (i = 0; i < nc; i++) {
        spe_reset_regs();
        WR(PMSICR_EL1, c[i].icr);
        ISB();
        back = RD(PMSICR_EL1);
        for (t = 0; t < 4; t++) {
            recs = ernd_run(ernd_reads, 0, c[i].icr, out, pc);
            if (!(RD(PMBSR_EL1) & SPE_PMBSR_COLL_MASK)) {
                break;
            }
        }
        CHECK_EQ(n, "records", recs, (c[i].s1 != 0) + (c[i].s2 != 0));
        if (c[i].s1) {
            CHECK_EQ(n, "first sampled PC", pc[0], ernd_reads_op(c[i].s1));
        }
        if (c[i].s2) {
            CHECK_EQ(n, "second sampled PC", pc[1], ernd_reads_op(c[i].s2));
        }
        CHECK_EQ(n, "PMSICR at read 1 (6 operations on)", out[0], c[i].r1);
        CHECK_EQ(n, "PMSICR at read 2 (16 operations on)", out[1], c[i].r2);
        CHECK_EQ(n, "PMSICR read back", back,
                 ernd ? c[i].icr : COUNT(c[i].icr));
    }
    result(n, 1, "", 0, 0);
    spe_reset_regs();
}

/*
 * RND = 0, ECOUNT above COUNT: (250 << 56) | 40, sampled at the 41st
 * and 251st operations, both counters read before the first sample;
 * (200 << 56) | 3, sampled at the 4th and the 201st, read between the
 * two. Without ERnd only the 41st, the 4th.
 */
static void t_ecount_outlasts(void)
{
    static const ErndCase with[] = {
        { (250ULL << 56) | 40, (244ULL << 56) | 34, (234ULL << 56) | 24,
          41, 251 },
        { (200ULL << 56) | 3, (194ULL << 56) | (ERND_R - 2),
          (184ULL << 56) | (ERND_R - 12), 4, 201 },
    }, without[] = {
        { (250ULL << 56) | 40, 34, 24, 41, 0 },
        { (200ULL << 56) | 3, ERND_R - 2, ERND_R - 12, 4, 0 },
    };

    ernd_rnd0("ernd_ecount_outlasts_primary_rnd0", with,
              "ernd_ecount_outlasts_res0", without, 2);
}

/*
 * RND = 0, ECOUNT equal to COUNT: (40 << 56) | 40 counts down together,
 * one sample at the 41st operation; (3 << 56) | 3, one at the 4th,
 * ECOUNT 0 after it. Without ERnd the same samples, ECOUNT reading 0.
 */
static void t_ecount_equal(void)
{
    static const ErndCase with[] = {
        { (40ULL << 56) | 40, (34ULL << 56) | 34, (24ULL << 56) | 24, 41, 0 },
        { (3ULL << 56) | 3, ERND_R - 2, ERND_R - 12, 4, 0 },
    }, without[] = {
        { (40ULL << 56) | 40, 34, 24, 41, 0 },
        { (3ULL << 56) | 3, ERND_R - 2, ERND_R - 12, 4, 0 },
    };

    ernd_rnd0("ernd_ecount_equal_one_sample", with,
              "ernd_ecount_equal_res0", without, 2);
}

/*
 * RND = 0, COUNT = 0 and ECOUNT = 200 (3.1.1: PMSICR_EL1 is nonzero):
 * the 1st operation finds COUNT zero and is sampled, COUNT reloaded (R
 * - 5 at read 1), and the 201st. Without ERnd PMSICR_EL1 is zero and
 * loaded: R - 6 at read 1, no sample.
 */
static void t_ecount_count_zero(void)
{
    static const ErndCase with[] = {
        { 200ULL << 56, (194ULL << 56) | (ERND_R - 5),
          (184ULL << 56) | (ERND_R - 15), 1, 201 },
    }, without[] = {
        { 200ULL << 56, ERND_R - 6, ERND_R - 16, 0, 0 },
    };

    ernd_rnd0("ernd_ecount_count_zero_restarts", with,
              "ernd_ecount_count_zero_res0_loaded", without, 1);
}

/*
 * RND = 1 and ERnd = 1, ECOUNT at or above COUNT: the primary's expiry
 * sets ECOUNT to a random value (3.1.2; 4.3.10, COUNT), the written one
 * lost. PMSICR_EL1 = (250 << 56) | 3 and (3 << 56) | 3 through
 * ernd_reads: the 4th operation finds COUNT zero, COUNT is reloaded (R
 * - 2 and R - 12 at the reads, whatever the draw) and the one sample is
 * the drawn 0..255 operations on (the model's draw, as in
 * t_ecount_counts_down: the 4th to the 259th). Without ERnd the 4th is
 * sampled and COUNT reloaded with a random COUNT[7:0].
 */
static void t_ecount_rnd_redraws(void)
{
    static const uint64_t icr[] = { (250ULL << 56) | 3, (3ULL << 56) | 3 };
    int ernd = have_ernd();
    const char *n = ernd ? "ernd_ecount_rnd1_primary_redraws" :
                    "ernd_ecount_rnd1_res0";
    uint64_t out[2], pc[2], recs, back;
    unsigned i;

    for (i = 0; i < 2; i++) {
        spe_reset_regs();
        WR(PMSICR_EL1, icr[i]);
        ISB();
        back = RD(PMSICR_EL1);
        recs = ernd_run(ernd_reads, ERND_RND, icr[i], out, pc);
        CHECK_EQ(n, "records (one sample)", recs, 1);
        if (ernd) {
            CHECK(n, pc[0] >= ernd_reads_op(4) &&
                  pc[0] <= ernd_reads_op(259) && !(pc[0] & 3),
                  "sampled PC (0..255 operations after the 4th)", pc[0],
                  ernd_reads_op(4));
            CHECK_EQ(n, "COUNT at read 1 (reloaded at the 4th operation)",
                     COUNT(out[0]), ERND_R - 2);
            CHECK_EQ(n, "COUNT at read 2", COUNT(out[1]), ERND_R - 12);
        } else {
            CHECK_EQ(n, "sampled PC (the 4th operation)", pc[0],
                     ernd_reads_op(4));
            CHECK_EQ(n, "PMSICR[63:32] at read 1 (ECOUNT RES0)",
                     out[0] >> 32, 0);
            CHECK(n, COUNT(out[0]) >= ERND_R - 2 &&
                  COUNT(out[0]) <= ERND_R + 0xff - 2,
                  "COUNT at read 1 (R + random [7:0], 2 operations on)",
                  COUNT(out[0]), ERND_R - 2);
            CHECK_EQ(n, "PMSICR at read 2 (10 operations on)", out[1],
                     out[0] - ERND_K);
        }
        CHECK_EQ(n, "PMSICR read back", back, ernd ? icr[i] : COUNT(icr[i]));
    }
    result(n, 1, "", 0, 0);
    spe_reset_regs();
}

#elif defined(MODE_FLAGS)

/*
 * FEAT_SPE_CRR and FEAT_SPE_FPF (spe-crr=on, spe-fpf=on), D18.2.7: the
 * Branch CR field, 0b01 branch with link, 0b10 procedure return, 0b11
 * neither (0b00 not permitted); the Other ASE and FP bits.
 */
static void t_flags(void)
{
    static const struct {
        const char *n;
        probe_fn *fn;
        char *target, *after;   /* after: the branch target, 0 if none */
        uint8_t hdr, subclass;
        uint64_t events;
    } c[] = {
        /* Branch class 0x4a: 0b000 CR GCS IND COND */
        { "crr_b_neither", op_b, op_b_target, op_b_after, 0x4a, 0x18, 2 },
        { "crr_bcond_neither", op_beq_t, op_beq_t_target, op_beq_t_after,
          0x4a, 0x19, 2 },
        { "crr_br_neither", op_br, op_br_target, op_br_after, 0x4a, 0x1a, 2 },
        { "crr_bl_call", op_bl, op_bl_target, op_bl_after, 0x4a, 0x08, 2 },
        { "crr_blr_call", op_blr, op_blr_target, op_blr_after, 0x4a, 0x0a, 2 },
        { "crr_ret_return", op_ret, op_ret_target, op_ret_after,
          0x4a, 0x12, 2 },
        /* Other class 0x48: 0b00000 ASE FP COND; E[6] for a failed FCSEL */
        { "fpf_add_none", op_add, op_add_target, 0, 0x48, 0x00, 2 },
        { "fpf_fadd_scalar_fp", op_fadd_d, op_fadd_d_target, 0, 0x48, 0x02, 2 },
        { "fpf_add_vector_ase", op_add_v, op_add_v_target, 0, 0x48, 0x04, 2 },
        { "fpf_fadd_vector_ase_fp", op_fadd_v, op_fadd_v_target, 0,
          0x48, 0x06, 2 },
        { "fpf_fcsel_fp_cond", op_fcsel_fail, op_fcsel_fail_target, 0,
          0x48, 0x03, 2 | (1 << 6) },
    };
    unsigned i;

    for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
        t_probe(c[i].n, c[i].fn, c[i].target, 0, 0, c[i].hdr, c[i].subclass,
                0, (uint64_t)c[i].after, c[i].events);
    }
}

#elif defined(MODE_SPE)

static void t_id(void)
{
    check_spe_ids("id_aa64dfr0_pmsver_v1p4", PMSVER_V1P4,
                  "pmsidr_el1_value", PMSIDR_DEFAULT,
                  "pmbidr_el1_value", PMBIDR_DEFAULT);
}

static void t_reset(void)
{
    const char *n = "reset_values_zero";

    /* 4.2: E resets to 0; others UNKNOWN - the model resets them to 0 */
    CHECK_EQ(n, "PMBLIMITR", RD(PMBLIMITR_EL1), 0);
    CHECK_EQ(n, "PMBSR", RD(PMBSR_EL1), 0);
    CHECK_EQ(n, "PMBPTR", RD(PMBPTR_EL1), 0);
    CHECK_EQ(n, "PMSCR", RD(PMSCR_EL1), 0);
    CHECK_EQ(n, "PMSICR", RD(PMSICR_EL1), 0);
    CHECK_EQ(n, "PMSIRR", RD(PMSIRR_EL1), 0);
    CHECK_EQ(n, "PMSFCR", RD(PMSFCR_EL1), 0);
    CHECK_EQ(n, "PMSEVFR", RD(PMSEVFR_EL1), 0);
    CHECK_EQ(n, "PMSLATFR", RD(PMSLATFR_EL1), 0);
    result(n, 1, "", 0, 0);
}

static void t_res0(void)
{
    const char *n = "res0_masks";
    const uint64_t ones = ~0ULL;

    /* PMSCR_EL1: E0SPE, E1SPE, CX, PA, TS, PCT[7:6] (4.3.5) */
    WR(PMSCR_EL1, ones);
    CHECK_EQ(n, "PMSCR", RD(PMSCR_EL1), 0xfb);
    WR(PMSCR_EL1, 0);
    /* PMSIRR_EL1: INTERVAL[31:8], RND[0] (4.3.12) */
    WR(PMSIRR_EL1, ones);
    CHECK_EQ(n, "PMSIRR", RD(PMSIRR_EL1), 0xffffff01);
    /* PMSICR_EL1: COUNT[31:0]; ECOUNT RES0 with ERnd = 0 (t_ecount()) */
    WR(PMSICR_EL1, ones);
    CHECK_EQ(n, "PMSICR", RD(PMSICR_EL1), 0xffffffffULL);
    /* PMSFCR_EL1: FE FT FL FnE, B LD ST (4.3.9; FnE: FEAT_SPEv1p2) */
    WR(PMSFCR_EL1, ones);
    CHECK_EQ(n, "PMSFCR", RD(PMSFCR_EL1), 0x7000f);
    /* PMSEVFR_EL1: FEAT_SPEv1p4 (see t_evfr() for each version) */
    WR(PMSEVFR_EL1, ones);
    CHECK_EQ(n, "PMSEVFR", RD(PMSEVFR_EL1), 0xffff000000fefffeULL);
    WR(PMSNEVFR_EL1, ones);
    CHECK_EQ(n, "PMSNEVFR", RD(PMSNEVFR_EL1), 0xffff000000fefffeULL);
    /* PMSLATFR_EL1.MINLAT: 12 bits with 12-bit counters */
    WR(PMSLATFR_EL1, ones);
    CHECK_EQ(n, "PMSLATFR", RD(PMSLATFR_EL1), 0xfff);
    /* PMBLIMITR_EL1: LIMIT[63:12], FM[2:1], E[0] (4.3.2) */
    WR(PMBLIMITR_EL1, ones & ~1ULL);
    CHECK_EQ(n, "PMBLIMITR", RD(PMBLIMITR_EL1), 0xfffffffffffff006ULL);
    /* PMBSR_EL1: EC[31:26], DL, EA, S, COLL, MSS[15:0] (4.3.4) */
    __asm__ volatile("msr daifset, #2");
    WR(PMBSR_EL1, ones);
    CHECK_EQ(n, "PMBSR", RD(PMBSR_EL1), 0xfc0fffffULL);
    spe_reset_regs();
    result(n, 1, "", 0, 0);
}

/*
 * Exact sample count: interval R = INTERVAL * 256 with RND = 0; COUNT
 * starts at zero so it is loaded with R when profiling is enabled and
 * one operation is selected every R + 1 operations (3.1.1, 3.1.2 note).
 */
static void t_count(const char *n, uint64_t interval, uint64_t iters)
{
    uint64_t ops = 2 * iters + 1, want = ops / (interval + 1), got;

    spe_reset_regs();
    WR(PMBPTR_EL1, BUF_BASE);
    WR(PMSIRR_EL1, interval);
    WR(PMSCR_EL1, 2);
    ISB();
    spe_loop(iters, BUF_LIMIT | 1);
    got = (RD(PMBPTR_EL1) - BUF_BASE) / RECORD_SIZE;
    CHECK_EQ(n, "records", got, want);
    CHECK_EQ(n, "PMBSR", RD(PMBSR_EL1), 0);
    /* The counter keeps its value while disabled (3.1.3) */
    CHECK_EQ(n, "PMSICR", RD(PMSICR_EL1),
             interval - (ops - want * (interval + 1)));
    result(n, 1, "", 0, 0);
}

/*
 * PMSIRR_EL1.RND = 1, ERnd = 0: COUNT[7:0] is random at each reload
 * (3.1.2), so intervals are R + 1 + [0, 255]: fewer samples than without
 * jitter, and more than with an interval of 2R.
 */
static void t_jitter(void)
{
    const char *n = "sample_count_jitter";
    const uint64_t iters = 50000, ops = 2 * iters + 1, r = 0x100;
    uint64_t got, lo = ops / (2 * r + 1), hi = ops / (r + 1);
    uint64_t icr, low_bits = 0;
    int i;

    for (i = 0; i < 4; i++) {
        spe_reset_regs();
        WR(PMBPTR_EL1, BUF_BASE);
        WR(PMSIRR_EL1, r | 1);
        WR(PMSCR_EL1, 2);
        ISB();
        spe_loop(iters, BUF_LIMIT | 1);
        got = (RD(PMBPTR_EL1) - BUF_BASE) / RECORD_SIZE;
        CHECK(n, got >= lo && got < hi, "records in (2R+1, R+1) range",
              got, hi);
        icr = RD(PMSICR_EL1);
        low_bits |= icr & 0xff;
    }
    CHECK(n, low_bits != 0, "COUNT[7:0] jittered", low_bits, 1);
    result(n, 1, "", 0, 0);
    spe_reset_regs();
}

/* Run one SVE probe with @val in X2; check its Events packet */
#define E17     (1ULL << 17)
#define E18     (1ULL << 18)
static void t_sve_pred(const char *n, probe_fn *fn, uint64_t val,
                       uint64_t events)
{
    uint64_t end = probe_run(fn, DATA, val);
    Pkt k = find_pkt(BUF_BASE, end, 0x42, 0xcf);   /* any payload size */

    CHECK_EQ(n, "record size", end - BUF_BASE, RECORD_SIZE);
    CHECK_EQ(n, "Events packet", k.found, 1);
    CHECK_EQ(n, "events", k.payload, events);
    CHECK_EQ(n, "Events header (SZ)", k.hdr, events >> 16 ? 0x62 : 0x52);
    result(n, 1, "", 0, 0);
}

static void t_ops(void)
{
    volatile uint64_t *d = (volatile uint64_t *)DATA;
    const uint64_t ret = 2, nt = 2 | (1 << 6);

    d[0] = d[1] = d[2] = 0;
    /* D18.2.7: LDST class 0x49; GP 0b0000000x, SIMD&FP 0b0000010x */
    t_probe("optype_ldr_gp_load", op_ldr, op_ldr_target, DATA, DATA + 8,
            0x49, 0x00, 1, 0, ret);
    t_probe("optype_str_gp_store", op_str, op_str_target, DATA, DATA + 16,
            0x49, 0x01, 1, 0, ret);
    t_probe("optype_ldp_gp_load", op_ldp, op_ldp_target, DATA, DATA,
            0x49, 0x00, 1, 0, ret);
    t_probe("optype_ldr_simdfp_load", op_ldr_q, op_ldr_q_target, DATA, DATA,
            0x49, 0x04, 1, 0, ret);
    /* extended: 0b000 AR EXCL AT 1 LDST */
    t_probe("optype_ldaxr_excl_acq", op_ldaxr, op_ldaxr_target, DATA, DATA,
            0x49, 0x1a, 1, 0, ret);
    t_probe("optype_stlr_rel_store", op_stlr, op_stlr_target, DATA, DATA,
            0x49, 0x13, 1, 0, ret);
    t_probe("optype_ldadd_atomic", op_ldadd, op_ldadd_target, DATA, DATA,
            0x49, 0x06, 1, 0, ret);
    /* Branch class 0x4a: 0b000 CR GCS IND COND */
    t_probe("optype_bcond_not_taken", op_bne_nt, op_bne_nt_target, 0, 0,
            0x4a, 0x01, 0, (uint64_t)op_bne_nt_after, nt);
    t_probe("optype_bcond_taken", op_beq_t, op_beq_t_target, 0, 0,
            0x4a, 0x01, 0, (uint64_t)op_beq_t_after, ret);
    t_probe("optype_b_direct", op_b, op_b_target, 0, 0,
            0x4a, 0x00, 0, (uint64_t)op_b_after, ret);
    t_probe("optype_br_indirect", op_br, op_br_target, 0, 0,
            0x4a, 0x02, 0, (uint64_t)op_br_after, ret);
    /* Other class 0x48: COND for conditional select/compare */
    t_probe("optype_csel_other_cond", op_csel, op_csel_target, 0, 0,
            0x48, 0x01, 0, 0, ret);
    t_probe("optype_add_other", op_add, op_add_target, 0, 0,
            0x48, 0x00, 0, 0, ret);
    /* Without FEAT_SPE_CRR, CR is 0b00; without FEAT_SPE_FPF, no ASE/FP */
    t_probe("crr_absent_bl_not_recorded", op_bl, op_bl_target, 0, 0,
            0x4a, 0x00, 0, (uint64_t)op_bl_after, ret);
    t_probe("fpf_absent_fadd_vector_no_flags", op_fadd_v, op_fadd_v_target,
            0, 0, 0x48, 0x00, 0, 0, ret);
    /* Without FEAT_SPE_PBT, no Address packet INDEX 4 */
    {
        uint64_t end = probe_run(op_pbt_b, 0, 5);

        result("pbt_absent_no_packet",
               !find_pkt(BUF_BASE, end, 0xb4, 0xff).found, "PBT packet",
               1, 0);
    }
}

/*
 * The operation classifier (target/arm/tcg/spe-classify.c): one probe
 * for each decode bug fixed, checked against D18.2.7 (Operation Type),
 * D18.2.6 (Events) and D18.2.1 (Address).
 */

static void t_classify(void)
{
    volatile uint64_t *d = (volatile uint64_t *)DATA;
    const uint64_t ret = 2, nt = 2 | (1 << 6);

    d[0] = d[1] = d[2] = d[3] = 0;
    /* LDAPR: a load-acquire, Load/store extended AR=1 LDST=0 */
    t_probe("classify_ldapr_acquire_load", op_ldapr, op_ldapr_target, DATA,
            DATA, 0x49, 0x12, 1, 0, ret);
    /* CASP: atomic (AT=1) returning a value (LDST=0), not exclusive */
    t_probe("classify_casp_atomic", op_casp, op_casp_target, DATA, DATA,
            0x49, 0x06, 1, 0, ret);
    /* LDRSW (literal) reads 4 bytes: at 8k + 4 it is aligned (no E[11]) */
    t_probe("classify_ldrsw_literal_size4", op_ldrsw_lit,
            op_ldrsw_lit_target, 0, (uint64_t)op_ldrsw_lit_data, 0x49, 0x00,
            1, 0, ret);
    /* LDG: Allocation Tag load 0b0001010x (FEAT_MTE2), at Xn + imm */
    t_probe("classify_ldg_tag_load", op_ldg, op_ldg_target, DATA, DATA + 16,
            0x49, 0x14, 1, 0, ret);
    /* DC ZVA, PRFM: unspecified registers 0b0001000x (FEAT_SPEv1p1) */
    t_probe("classify_dc_zva_unspecified_store", op_dczva, op_dczva_target,
            DATA, DATA, 0x49, 0x11, 1, 0, ret);
    t_probe("classify_prfm_unspecified_load", op_prfm, op_prfm_target, DATA,
            DATA, 0x49, 0x10, 1, 0, ret);
    /* A failed conditional select is "not taken", E[6] (D18.2.6) */
    t_probe("classify_csel_failed_not_taken", op_csel_fail,
            op_csel_fail_target, 0, 0, 0x48, 0x01, 0, 0, nt);
    t_probe("classify_fcsel_cond_failed", op_fcsel_fail,
            op_fcsel_fail_target, 0, 0, 0x48, 0x01, 0, 0, nt);

    /*
     * SVE, with a 256-bit vector length (ZCR_EL1.LEN = 1): Load/store,
     * SVE: 0b SG EVL 1 PRED 0 LDST, EVL = 0b011, PRED = 1 (zeroing load,
     * FEAT_SPEv1p2; predicated store). The address: LD1D [Xn, #1, MUL VL]
     * is Xn + 32, ST1D [Xn, Xm, LSL #3] is Xn + 5 * 8.
     */
    WR(CPACR_EL1, RD(CPACR_EL1) | (3 << 16));
    ISB();
    WR(ZCR_EL1, 1);
    ISB();
    t_probe("classify_sve_ld1d", op_ld1d, op_ld1d_target, DATA, DATA + 32,
            0x49, 0x3c, 1, 0, ret);
    t_probe("classify_sve_st1d", op_st1d, op_st1d_target, DATA, DATA + 40,
            0x49, 0x3d, 1, 0, ret);

    /*
     * D18.2.6, FEAT_SPEv1p1 with SVE: E[17] when an element of the
     * governing predicate is FALSE, E[18] when all are; they need an
     * Events payload of 4 bytes (SZ 0b10). Four doubleword elements at
     * 256 bits; a predicate of doublewords governs words at every other
     * one.
     */
    t_sve_pred("sve_pred_all_true_no_event", op_ld1d_first, 4, ret);
    t_sve_pred("sve_pred_partial_e17", op_ld1d_first, 1, ret | E17);
    t_sve_pred("sve_pred_empty_e17_e18", op_ld1d_first, 0, ret | E17 | E18);
    t_sve_pred("sve_pred_store_partial_e17", op_st1d_first, 3, ret | E17);
    t_sve_pred("sve_pred_element_size_e17", op_ld1w_dpred, 0, ret | E17);
    t_sve_pred("sve_pred_element_not_memory_size", op_ld1w_d, 0, ret);
    t_sve_pred("sve_pred_ld1rq_one_block", op_ld1rqb_vl16, 0, ret);

    /*
     * D18.2.7 Data processing, SVE vector (FEAT_SPEv1p1 with SVE):
     * 0b0 EVL 1 PRED FP 0 in class Other, EVL = 0b011 at 256 bits. PRED
     * for a vector written under /M; not for SEL, whose predicate
     * selects. An operation on predicates only stays Other 0b00000000.
     * E[17] as for loads: one of four doubleword elements active.
     */
    t_probe("classify_sve_dp_add_pred", op_sve_add_pred,
            op_sve_add_pred_target, 0, 0, 0x48, 0x3c, 0, 0, ret);
    t_probe("classify_sve_dp_fadd_fp", op_sve_fadd, op_sve_fadd_target, 0, 0,
            0x48, 0x3a, 0, 0, ret);
    t_probe("classify_sve_dp_fmla_pred_fp", op_sve_fmla_pred,
            op_sve_fmla_pred_target, 0, 0, 0x48, 0x3e, 0, 0, ret);
    t_probe("classify_sve_dp_sel_not_pred", op_sve_sel, op_sve_sel_target, 0,
            0, 0x48, 0x38, 0, 0, ret);
    t_probe("classify_sve_dp_whilelo_no_vector", op_sve_whilelo,
            op_sve_whilelo_target, 0, 0, 0x48, 0x00, 0, 0, ret);
    t_sve_pred("sve_dp_pred_partial_e17", op_sve_add_first, 1, ret | E17);

    /*
     * SME (FEAT_SME of -cpu max), with a 512-bit streaming vector length
     * (SMCR_EL1.LEN = 3) next to the 256-bit SVE one: Load/store, SVE or
     * SME, EVL = 0b100 for ZA, in Streaming SVE mode or not. LD1W and
     * ST1D of a tile slice: Xn + Xm << 2 and << 3, PRED = 1, every
     * element of SMSTART's PTRUE active (no E[17]). LDR and STR of a ZA
     * array vector: [Xn, #1, MUL VL] is Xn + 64 bytes, unpredicated.
     */
    WR(CPACR_EL1, RD(CPACR_EL1) | (3 << 24));
    ISB();
    WR(SMCR_EL1, 3);
    ISB();
    t_probe("classify_sme_ld1w_tile_slice", op_sme_ld1w, op_sme_ld1w_target,
            DATA, DATA + 20, 0x49, 0x4c, 1, 0, ret);
    SMSTOP();
    t_probe("classify_sme_st1d_tile_slice", op_sme_st1d, op_sme_st1d_target,
            DATA, DATA + 40, 0x49, 0x4d, 1, 0, ret);
    SMSTOP();
    t_probe("classify_sme_ldr_za_streaming_vl", op_sme_ldr_za,
            op_sme_ldr_za_target, DATA, DATA + 64, 0x49, 0x48, 1, 0, ret);
    SMSTOP();
    t_probe("classify_sme_str_za", op_sme_str_za, op_sme_str_za_target,
            DATA, DATA, 0x49, 0x49, 1, 0, ret);
    SMSTOP();
}

/* PA (PMSCR.PA), CONTEXTIDR (PMSCR.CX) and Timestamp (PMSCR.TS) */
static void t_collect(void)
{
    const char *n = "collect_pa_context_timestamp";
    uint64_t lim, end, t0;
    Pkt k;

    WR(CONTEXTIDR, 0x1234);
    lim = probe_setup(2 | (1 << 3) | (1 << 4) | (1 << 5));
    t0 = RD(cntvct_el0);
    op_ldr(lim, DATA, 0);
    end = RD(PMBPTR_EL1);
    k = find_pkt(BUF_BASE, end, 0xb3, 0xff);
    CHECK_EQ(n, "PA packet", k.found, 1);
    /* identity map: PA == VA, NS = 1 (byte 7 bit 7) */
    CHECK_EQ(n, "PA", k.payload, (DATA + 8) | (1ULL << 63));
    k = find_pkt(BUF_BASE, end, 0x64, 0xff);
    CHECK_EQ(n, "Context packet", k.found, 1);
    CHECK_EQ(n, "CONTEXTIDR_EL1", k.payload, 0x1234);
    k = find_pkt(BUF_BASE, end, 0x71, 0xff);
    CHECK_EQ(n, "Timestamp packet", k.found, 1);
    CHECK(n, k.payload >= t0 && k.payload <= RD(cntvct_el0),
          "timestamp in range", k.payload, t0);
    k = find_pkt(BUF_BASE, end, 0x01, 0xff);
    CHECK_EQ(n, "no End with Timestamp", k.found, 0);
    result(n, 1, "", 0, 0);
}

/*
 * FEAT_MOPS with FEAT_SPEv1p3 (D18.2.7 Load/store, Memory Copy and
 * Memory Set). A CPYP performs loads from the source and stores to the
 * destination, and a sample is one of them: the load part (0b00100000,
 * LDST 0, the source address) or the store part (0b00100001, the
 * destination). The model takes them in turn on a CPU, so any two
 * samples of a CPYP are one of each; the type filter (PMSFCR_EL1.FT
 * with LD or ST, 4.3.9) keeps the part it asks for and drops the other.
 * SETP is a Memory Set store (0b00100101) at Xd.
 */
#define MOPS_SRC    (DATA + 2048)

/*
 * Sample op_cpyp once with PMSFCR_EL1 = @fcr: 0 no record, 1 the load
 * part, 2 the store part, -1 anything else
 */
static int cpy_part(uint64_t fcr)
{
    uint64_t lim = probe_setup(2), end;
    Pkt op, va;

    WR(PMSFCR_EL1, fcr);
    ISB();
    op_cpyp(lim, DATA, 64);
    end = RD(PMBPTR_EL1);
    if (end == BUF_BASE) {
        return 0;
    }
    op = find_pkt(BUF_BASE, end, 0x48, 0xfc);
    va = find_pkt(BUF_BASE, end, 0xb2, 0xff);
    if (end - BUF_BASE != RECORD_SIZE || op.hdr != 0x49 || !va.found) {
        return -1;
    }
    if (op.payload == 0x20 && va.payload == MOPS_SRC) {
        return 1;
    }
    return op.payload == 0x21 && va.payload == DATA ? 2 : -1;
}

/* Four samples of op_cpyp with PMSFCR_EL1 = @fcr: the parts recorded */
static void mops_cpy(const char *n, uint64_t fcr, int loads, int stores)
{
    int i, got[4] = { 0 };

    for (i = 0; i < 4; i++) {
        got[cpy_part(fcr) + 1]++;
    }
    CHECK_EQ(n, "records of neither part (or malformed)", got[0], 0);
    CHECK_EQ(n, "load parts (source address)", got[2], loads);
    CHECK_EQ(n, "store parts (destination address)", got[3], stores);
    result(n, 1, "", 0, 0);
}

/*
 * The main operations after a prologue that did part of 6144 bytes: the
 * address they go on from, whatever form the prologue left the
 * registers in (D18.2.7: the sampled access's address). Forwards, from
 * addr + 8192 to addr, the prologue did the first page: the main goes
 * on at addr + 4096 and the source's + 4096. Backwards, from addr - 2048
 * to addr (overlapping), the prologue did the last 2048 bytes, down to
 * a page start: the main goes on down from the 4096th byte, addr + 4095
 * and the source's + 4095. Two samples of CPYM are one of each part.
 */
static void mops_main(const char *n, probe_fn *fn, uint64_t dst,
                      uint64_t src, uint64_t off)
{
    int i, seen = 0;
    uint64_t end;
    Pkt op, va;

    for (i = 0; i < 2; i++) {
        end = probe_run(fn, dst, 6144);
        op = find_pkt(BUF_BASE, end, 0x48, 0xfc);
        va = find_pkt(BUF_BASE, end, 0xb2, 0xff);
        CHECK_EQ(n, "record size", end - BUF_BASE, RECORD_SIZE);
        CHECK(n, op.payload == 0x20 || op.payload == 0x21,
              "Memory Copy subclass", op.payload, 0x20);
        CHECK_EQ(n, "data VA", va.payload,
                 (op.payload & 1 ? dst : src) + off);
        seen |= 1 << (op.payload & 1);
    }
    CHECK_EQ(n, "parts (1 the load, 2 the store)", seen, 3);
    result(n, 1, "", 0, 0);
    spe_reset_regs();
}

static void mops_main_set(void)
{
    const char *n = "mops_setm_address_in_progress";
    uint64_t end = probe_run(op_setm, DATA, 6144);
    Pkt op, va;

    op = find_pkt(BUF_BASE, end, 0x48, 0xfc);
    va = find_pkt(BUF_BASE, end, 0xb2, 0xff);
    CHECK_EQ(n, "record size", end - BUF_BASE, RECORD_SIZE);
    CHECK_EQ(n, "Memory Set subclass", op.payload, 0x25);
    CHECK_EQ(n, "data VA", va.payload, DATA + 4096);
    result(n, 1, "", 0, 0);
    spe_reset_regs();
}

/*
 * The epilogue forms (CPYE, SETE) sampled after a prologue and a main,
 * not sampled, that left bytes for them: 0x2100 bytes at DATA + 0x40,
 * copied from 16 KiB above. The Arm ARM's CPYP and SETP, option A
 * (PSTATE.C 0 after the prologue), going forwards: Xd and Xs hold the
 * ends of the regions and Xn minus the bytes left, so the epilogue goes
 * on from X + Xn; D18.2.7 Memory Copy, LDST: the source's for the load
 * part, the destination's for the store part (two samples of a CPYE are
 * one of each); Memory Set, 0b00100101: the destination's. Which of the
 * bytes the prologue and the main leave is the implementation's choice
 * (QEMU's: up to the page end, then whole pages, 0x140 left): the
 * expected address is from the registers they left (mops_regs), that
 * are checked against option A.
 */
#define MOPS_E_DST      (DATA + 0x40)
#define MOPS_E_SRC      (MOPS_E_DST + 16384)
#define MOPS_E_SIZE     0x2100

static void mops_epilogue(const char *n, probe_fn *fn, int cpy)
{
    int i, seen = 0;
    uint64_t end, want;
    Pkt op, va;

    for (i = 0; i < (cpy ? 2 : 1); i++) {
        end = probe_run(fn, MOPS_E_DST, MOPS_E_SIZE);
        if (!mops_regs_fwd_ok(n, MOPS_E_DST + MOPS_E_SIZE,
                              cpy ? MOPS_E_SRC + MOPS_E_SIZE : 0,
                              MOPS_E_SIZE)) {
            return;
        }
        op = find_pkt(BUF_BASE, end, 0x48, 0xfc);
        va = find_pkt(BUF_BASE, end, 0xb2, 0xff);
        CHECK_EQ(n, "record size", end - BUF_BASE, RECORD_SIZE);
        CHECK_EQ(n, "OpType header (Load/store)", op.hdr, 0x49);
        if (cpy) {
            CHECK(n, op.payload == 0x20 || op.payload == 0x21,
                  "Memory Copy subclass", op.payload, 0x20);
            want = (op.payload & 1 ? mops_regs[0] : mops_regs[1]) +
                   mops_regs[2];
            seen |= 1 << (op.payload & 1);
        } else {
            CHECK_EQ(n, "Memory Set subclass", op.payload, 0x25);
            want = mops_regs[0] + mops_regs[2];
        }
        CHECK_EQ(n, "data VA present", va.found, 1);
        CHECK_EQ(n, "data VA (X + Xn)", va.payload, want);
    }
    if (cpy) {
        CHECK_EQ(n, "parts (1 the load, 2 the store)", seen, 3);
    }
    result(n, 1, "", 0, 0);
    spe_reset_regs();
}

static void t_mops(void)
{
    const uint64_t FT = 2, LD = 1 << 17, ST = 1 << 18;

    mops_cpy("mops_cpyp_load_and_store_parts", 0, 2, 2);
    mops_cpy("mops_cpyp_filter_type_ld", FT | LD, 2, 0);
    mops_cpy("mops_cpyp_filter_type_st", FT | ST, 0, 2);
    spe_reset_regs();
    t_probe("classify_setp_memory_set", op_setp, op_setp_target, DATA, DATA,
            0x49, 0x25, 1, 0, 2);
    mops_main("mops_cpym_address_in_progress", op_cpym, DATA, DATA + 8192,
              4096);
    mops_main("mops_cpym_backwards_address_in_progress", op_cpym_back,
              DATA + 2048, DATA, 4095);
    mops_main_set();
    mops_epilogue("mops_cpye_address_in_progress", op_cpye, 1);
    mops_epilogue("mops_sete_address_in_progress", op_sete, 0);
}

/* Run a probe with a filter; return number of bytes written */
static uint64_t filtered(probe_fn *fn, uint64_t fcr, uint64_t evfr,
                         uint64_t nevfr, uint64_t latfr)
{
    uint64_t lim = probe_setup(2);

    WR(PMSFCR_EL1, fcr);
    WR(PMSEVFR_EL1, evfr);
    WR(PMSNEVFR_EL1, nevfr);
    WR(PMSLATFR_EL1, latfr);
    ISB();
    fn(lim, DATA, 0);
    return RD(PMBPTR_EL1) - BUF_BASE;
}

static void t_filters(void)
{
    const uint64_t FE = 1, FT = 2, FL = 4, FNE = 8;
    const uint64_t B = 1 << 16, LD = 1 << 17, ST = 1 << 18;
    const uint64_t R = RECORD_SIZE;
    const char *n;

    /* Table 4: FT with LD only keeps loads, drops stores/branches/other */
    n = "filter_type_ld";
    CHECK_EQ(n, "load", filtered(op_ldr, FT | LD, 0, 0, 0), R);
    CHECK_EQ(n, "store", filtered(op_str, FT | LD, 0, 0, 0), 0);
    CHECK_EQ(n, "branch", filtered(op_b, FT | LD, 0, 0, 0), 0);
    CHECK_EQ(n, "other", filtered(op_add, FT | LD, 0, 0, 0), 0);
    result(n, 1, "", 0, 0);
    n = "filter_type_st_b";
    CHECK_EQ(n, "store", filtered(op_str, FT | ST | B, 0, 0, 0), R);
    CHECK_EQ(n, "branch", filtered(op_b, FT | ST | B, 0, 0, 0), R);
    CHECK_EQ(n, "load", filtered(op_ldr, FT | ST | B, 0, 0, 0), 0);
    /* atomics are stores (and loads when they return a value) */
    CHECK_EQ(n, "atomic", filtered(op_ldadd, FT | ST, 0, 0, 0), R);
    result(n, 1, "", 0, 0);
    /* FE: all events in PMSEVFR must be present; E[6] = not taken */
    n = "filter_events_not_taken";
    CHECK_EQ(n, "not taken", filtered(op_bne_nt, FE, 1 << 6, 0, 0), R);
    CHECK_EQ(n, "taken", filtered(op_beq_t, FE, 1 << 6, 0, 0), 0);
    CHECK_EQ(n, "retired", filtered(op_add, FE, 1 << 1, 0, 0), R);
    result(n, 1, "", 0, 0);
    /* FnE (FEAT_SPEv1p2): no event in PMSNEVFR may be present */
    n = "filter_inverted_events";
    CHECK_EQ(n, "not taken", filtered(op_bne_nt, FNE, 0, 1 << 6, 0), 0);
    CHECK_EQ(n, "taken", filtered(op_beq_t, FNE, 0, 1 << 6, 0), R);
    result(n, 1, "", 0, 0);
    /* FL: total latency >= MINLAT (loads 7, others 2: synthetic) */
    n = "filter_latency";
    CHECK_EQ(n, "load, min 7", filtered(op_ldr, FL, 0, 0, 7), R);
    CHECK_EQ(n, "load, min 8", filtered(op_ldr, FL, 0, 0, 8), 0);
    CHECK_EQ(n, "add, min 3", filtered(op_add, FL, 0, 0, 3), 0);
    CHECK_EQ(n, "add, min 2", filtered(op_add, FL, 0, 0, 2), R);
    result(n, 1, "", 0, 0);
    spe_reset_regs();
}

/* 3.5.2: buffer full event, PMBIRQ taken through the GIC as PPI 21 */
static void t_full(void)
{
    const char *n = "buffer_full_event_irq";
    uint64_t limit = BUF_BASE + 0x1000;
    uint64_t start = limit - 3 * RECORD_SIZE;
    uint64_t ptr;

    spe_reset_regs();
    irq_count = 0;
    WR(PMBPTR_EL1, start);
    WR(PMSIRR_EL1, 0x100);
    WR(PMSCR_EL1, 2);
    ISB();
    __asm__ volatile("msr daifset, #2");
    spe_loop(5000, limit | 1);
    /*
     * after three records no space is left for a MaxSize (64 byte)
     * record: full (3.5.2); with two written 64 bytes remained, enough
     */
    ptr = RD(PMBPTR_EL1);
    CHECK_EQ(n, "PMBPTR", ptr, limit);
    CHECK_EQ(n, "PMBSR", RD(PMBSR_EL1), (1 << 17) | 1);
    CHECK_EQ(n, "PMBIRQ pending", gic_pending(SPE_INTID), 1);
    __asm__ volatile("msr daifclr, #2; isb" ::: "memory");
    __asm__ volatile("msr daifset, #2; isb" ::: "memory");
    CHECK_EQ(n, "IRQ taken", irq_count, 1);
    CHECK_EQ(n, "INTID", irq_id, SPE_INTID);
    CHECK_EQ(n, "PMBSR in handler", irq_pmbsr, (1 << 17) | 1);
    CHECK_EQ(n, "level dropped", gic_pending(SPE_INTID), 0);
    result(n, 1, "", 0, 0);
    spe_reset_regs();
}

/* 3.5.3: write to an unmapped page: stage 1 translation fault, level 3 */
static void t_fault(void)
{
    const char *n;
    uint64_t sr;

    n = "fault_unmapped_page";
    spe_reset_regs();
    WR(PMBPTR_EL1, HOLE_PAGE);
    WR(PMSIRR_EL1, 0x100);
    WR(PMSCR_EL1, 2);
    ISB();
    spe_loop(1000, (HOLE_PAGE + 0x2000) | 1);
    sr = RD(PMBSR_EL1);
    CHECK_EQ(n, "PMBSR.S", (sr >> 17) & 1, 1);
    CHECK_EQ(n, "PMBSR.EC", (sr >> 26) & 0x3f, 0x24);
    CHECK_EQ(n, "PMBSR.FSC", sr & 0x3f, 0x07);
    CHECK_EQ(n, "PMBSR.DL", (sr >> 19) & 1, 0);
    CHECK_EQ(n, "PMBSR.EA", (sr >> 18) & 1, 0);
    CHECK_EQ(n, "PMBPTR", RD(PMBPTR_EL1), HOLE_PAGE);
    result(n, 1, "", 0, 0);

    /* a record straddling into the hole: part written, so DL = 1 */
    n = "fault_partial_record_dl";
    spe_reset_regs();
    WR(PMBPTR_EL1, HOLE_PAGE - 32);
    WR(PMSIRR_EL1, 0x100);
    WR(PMSCR_EL1, 2);
    ISB();
    spe_loop(1000, (HOLE_PAGE + 0x2000) | 1);
    sr = RD(PMBSR_EL1);
    CHECK_EQ(n, "PMBSR", sr & ~0xffffULL,
             (0x24ULL << 26) | (1 << 19) | (1 << 17));
    CHECK_EQ(n, "PMBSR.FSC", sr & 0x3f, 0x07);
    CHECK_EQ(n, "PMBPTR", RD(PMBPTR_EL1), HOLE_PAGE);
    result(n, 1, "", 0, 0);
    spe_reset_regs();
}

/* FEAT_SPEv1p2 discard mode: PMBLIMITR_EL1.FM = 0b10 */
static void t_discard(void)
{
    const char *n = "discard_mode";

    spe_reset_regs();
    clear_buf(BUF_BASE, 256);
    WR(PMBPTR_EL1, BUF_BASE);
    WR(PMSIRR_EL1, 0x100);
    WR(PMSCR_EL1, 2);
    ISB();
    spe_loop(1000, BUF_LIMIT | (2 << 1) | 1);
    CHECK_EQ(n, "PMBPTR", RD(PMBPTR_EL1), BUF_BASE);
    CHECK_EQ(n, "PMBSR", RD(PMBSR_EL1), 0);
    CHECK_EQ(n, "buffer untouched", *(volatile uint8_t *)BUF_BASE, 0xee);
    /* sampling still ran: the interval counter moved (3.1.2) */
    CHECK(n, RD(PMSICR_EL1) != 0, "PMSICR moved", RD(PMSICR_EL1), 1);
    result(n, 1, "", 0, 0);
    spe_reset_regs();
}

/* PSB CSYNC: records are visible at PMBPTR_EL1 after the barrier */
static void t_psb(void)
{
    const char *n = "psb_csync";
    uint64_t lim = probe_setup(2);

    op_psb(lim, 0, 0);
    __asm__ volatile("hint #17; dsb nsh; isb" ::: "memory");
    CHECK_EQ(n, "PMBPTR", RD(PMBPTR_EL1), BUF_BASE + RECORD_SIZE);
    CHECK_EQ(n, "first byte (PC header)", *(volatile uint8_t *)BUF_BASE,
             0xb0);
    result(n, 1, "", 0, 0);
    spe_reset_regs();
}

/* Profiling off at EL1 (PMSCR_EL1.E1SPE = 0): nothing counted */
static void t_disabled(void)
{
    const char *n = "el1_disabled_no_counting";

    spe_reset_regs();
    WR(PMBPTR_EL1, BUF_BASE);
    WR(PMSIRR_EL1, 0x100);
    WR(PMSICR_EL1, 77);
    WR(PMSCR_EL1, 1);            /* E0SPE only; we run at EL1 */
    ISB();
    spe_loop(1000, BUF_LIMIT | 1);
    CHECK_EQ(n, "PMBPTR", RD(PMBPTR_EL1), BUF_BASE);
    CHECK_EQ(n, "PMSICR", RD(PMSICR_EL1), 77);
    result(n, 1, "", 0, 0);
    spe_reset_regs();
}

#endif

/*
 * The architected stop (SPE supplement 3.6, driver spe_hw.h): profiling
 * disabled, its records completed (PSB CSYNC, DSB), the buffer disabled
 */
static __attribute__((unused)) void strict_stop(void)
{
    WR(PMSCR_EL1, 0);
    ISB();
    PSB();
    DSB();
    WR(PMBLIMITR_EL1, 0);
    ISB();
}

#if defined(MODE_STRICT)

#define PMBSR_S     (1ULL << 17)
#define PMBSR_DL    (1ULL << 19)
#define PMBSR_COLL  (1ULL << 16)

static void expect_violation(const char *rule)
{
    puts_("EXPECT-VIOLATION ");
    puts_(rule);
    puts_("\n");
}

/* Sample EL1 every @interval operations into [BUF_BASE, BUF_LIMIT) */
static void strict_start(uint64_t interval, uint64_t limitr_flags)
{
    spe_reset_regs();
    clear_buf(BUF_BASE, 0x4000);
    WR(PMBPTR_EL1, BUF_BASE);
    WR(PMBLIMITR_EL1, BUF_LIMIT | limitr_flags | 1);
    WR(PMSIRR_EL1, interval);
    ISB();
    WR(PMSCR_EL1, 2);
    ISB();
}

/*
 * Records are in flight: without PSB CSYNC a direct read of PMBPTR_EL1
 * does not see the records of operations already sampled (3.6); PSB
 * CSYNC without DSB is reported, and the buffer still holds its old
 * bytes; PSB CSYNC + DSB + ISB sees them all, and they are in memory. On
 * a serial model the first read is already complete, so this fails
 * there.
 */
/* interval 1024: never a collision (spe-record.c), 48 samples */
#define INFLIGHT_WANT ((2 * 25000 + 1) / 1025)

static void t_inflight_stale(void)
{
    const char *n = "strict_stale_pmbptr_before_psb";
    uint64_t ptr;

    strict_start(0x400, 0);
    spe_spin(25000);
    WR(PMSCR_EL1, 0);
    ISB();
    expect_violation("000 3.6 PSB CSYNC");
    ptr = RD(PMBPTR_EL1);
    CHECK_EQ(n, "PMBPTR without PSB CSYNC (stale)", ptr, BUF_BASE);
    result(n, 1, "", 0, 0);
}

static void t_inflight(void)
{
    const char *n = "strict_psb_without_dsb_reported";
    uint64_t ptr, want = INFLIGHT_WANT;
    uint64_t i;

    expect_violation("000 3.6 DSB");
    PSB();
    ISB();
    ptr = RD(PMBPTR_EL1);
    CHECK(n, ptr > BUF_BASE, "PMBPTR after PSB CSYNC + ISB", ptr,
          BUF_BASE + want * RECORD_SIZE);
    result(n, 1, "", 0, 0);

    /* 3.6: the records' memory writes are complete only after a DSB */
    n = "strict_buffer_stale_before_dsb";
    CHECK_EQ(n, "first buffer byte after PSB CSYNC, no DSB (stale)",
             *(volatile uint8_t *)BUF_BASE, 0xee);
    result(n, 1, "", 0, 0);

    n = "strict_complete_after_psb_dsb_isb";
    PSB();
    DSB();
    ISB();
    ptr = RD(PMBPTR_EL1);
    CHECK(n, ptr >= BUF_BASE + (want - 1) * RECORD_SIZE &&
          ptr <= BUF_BASE + want * RECORD_SIZE, "PMBPTR", ptr,
          BUF_BASE + want * RECORD_SIZE);
    for (i = BUF_BASE; i < ptr; i += RECORD_SIZE) {
        CHECK_EQ(n, "record header (PC packet)", *(volatile uint8_t *)i,
                 0xb0);
    }
    CHECK_EQ(n, "PMBSR", RD(PMBSR_EL1), 0);
    strict_stop();
    CHECK_EQ(n, "PMBSR after the architected stop", RD(PMBSR_EL1), 0);
    result(n, 1, "", 0, 0);
}

/*
 * Disabling the buffer while profiling is still enabled: the records in
 * flight are lost with a management event, EC = 0, BSC = 0, DL = 1
 * (3.6.1), and PMBIRQ is asserted.
 */
static void t_dl_disable(void)
{
    const char *n = "strict_dl_on_out_of_order_disable";
    uint64_t sr;

    strict_start(0x400, 0);
    spe_spin(25000);
    expect_violation("000 3.6.1");
    WR(PMBLIMITR_EL1, 0);            /* before PMSCR_EL1: wrong order */
    ISB();
    WR(PMSCR_EL1, 0);
    ISB();
    PSB();
    DSB();
    ISB();
    sr = RD(PMBSR_EL1);
    CHECK_EQ(n, "PMBSR (S, DL, EC 0, BSC 0)", sr, PMBSR_S | PMBSR_DL);
    CHECK_EQ(n, "PMBIRQ pending", gic_pending(SPE_INTID), 1);
    WR(PMBSR_EL1, 0);
    ISB();
    CHECK_EQ(n, "PMBIRQ after PMBSR.S = 0", gic_pending(SPE_INTID), 0);
    result(n, 1, "", 0, 0);
    spe_reset_regs();
}

/*
 * Collisions (3.1.4): at interval 256 a busy loop samples an operation
 * now and then while the previous record is still being generated:
 * PMBSR_EL1.COLL is set. Discard mode keeps the buffer from filling.
 */
static void t_coll(void)
{
    const char *n = "strict_collision_sets_coll";
    uint64_t sr;

    strict_start(0x100, 2 << 1);
    spe_spin(400000);
    strict_stop();
    sr = RD(PMBSR_EL1);
    CHECK_EQ(n, "PMBSR.COLL", sr, PMBSR_COLL);
    WR(PMBSR_EL1, 0);
    ISB();

    n = "strict_no_collision_at_interval_1024";
    strict_start(0x400, 2 << 1);
    spe_spin(400000);
    strict_stop();
    CHECK_EQ(n, "PMBSR", RD(PMBSR_EL1), 0);
    result(n, 1, "", 0, 0);
    result("strict_collision_sets_coll", 1, "", 0, 0);
    spe_reset_regs();
}

#elif defined(MODE_EL2) || defined(MODE_EL3) || defined(MODE_FGT) || \
      defined(MODE_ECV) || defined(MODE_SEL2) || defined(MODE_NV2)

static uint64_t current_el(void)
{
    return (RD(CurrentEL) >> 2) & 3;
}

/* Test @n runs at EL@want; a FAIL result if it does not. */
static int at_el(const char *n, uint64_t want)
{
    if (current_el() != want) {
        result(n, 0, "started at EL", current_el(), want);
        return 0;
    }
    return 1;
}

/* Test @n: PMBIDR_EL1.P reads @want at EL@el. */
static __attribute__((unused)) void expect_p(const char *n, uint64_t el, uint64_t want)
{
    ISB();
    CHECK_EQ(n, "CurrentEL", current_el(), el);
    CHECK_EQ(n, "P", (RD(PMBIDR_EL1) >> 4) & 1, want);
    result(n, 1, "", 0, 0);
}

/*
 * ERET from @elx (el3 or el2) to the next instruction in mode
 * @spsr of the lower EL, whose SP (@sp_lower) is set to the current one.
 */
#define ERET_DOWN(elx, sp_lower, spsr) do {                               \
        uint64_t sp_;                                                    \
        __asm__ volatile("mov %0, sp" : "=r"(sp_));                      \
        WR(sp_lower, sp_);                                               \
        WR(spsr_##elx, spsr);                                            \
        __asm__ volatile("adr x0, 1f; msr elr_" #elx ", x0; eret; 1:"    \
                         ::: "x0", "memory");                            \
    } while (0)

/*
 * From EL2 to EL1h (AArch64, DAIF masked) on the same stack, with
 * start.S's vector table at EL2 too and EL2's SP 16 KiB lower: a trap to
 * EL2 (MODE_FGT) then runs below anything EL1 uses.
 */
static void el2_to_el1_hcr(uint64_t hcr)
{
    WR(hcr_el2, hcr);
    WR(vbar_el2, RD(vbar_el1));
    WR(spsr_el2, 0x3c5);                 /* EL1h, DAIF masked */
    __asm__ volatile("mov x1, sp; msr sp_el1, x1; sub x1, x1, #16384\n"
                     "adr x0, 1f; msr elr_el2, x0; mov sp, x1; eret; 1:"
                     ::: "x0", "x1", "memory");
}

static __attribute__((unused)) void el2_to_el1(void)
{
    el2_to_el1_hcr(1ULL << 31);          /* RW: EL1 is AArch64 */
}

#if defined(MODE_EL2)

/* PMBIDR_EL1.P (4.3.1): 1 iff a higher EL owns the buffer */
static void t_pmbidr_p(void)
{
    if (!at_el("pmbidr_p_el2_owner_el2", 2)) {
        return;
    }
    WR(mdcr_el2, 0);                     /* E2PB = 0b00: EL2 owns it */
    expect_p("pmbidr_p_el2_owner_el2", 2, 0);
    WR(mdcr_el2, 3 << 12);               /* E2PB = 0b11: EL1 owns it */
    expect_p("pmbidr_p_el2_owner_el1", 2, 0);
}

static void t_pmbidr_p_el1(void)
{
    if (!at_el("pmbidr_p_el1_owner_el2", 2)) {
        return;
    }
    /*
     * Down to EL1h, same stack, EL2 keeps ownership. MDCR_EL2.TPMS traps
     * the PMS* registers, never PMBIDR_EL1 (4.3.1, "Traps and enables:
     * None"): a trap here would end the program short of its results.
     */
    WR(mdcr_el2, 1 << 14);
    el2_to_el1();
    expect_p("pmbidr_p_el1_owner_el2", 1, 1);
}

#elif defined(MODE_NV2)

/*
 * FEAT_NV2, EL1 code under the program's own EL2 with
 * HCR_EL2.{NV, NV2} = {1, 1} and VNCR_EL2 = HOLE_PAGE, which EL1's tables
 * leave unmapped (EL2 runs with its MMU off: VA = PA).
 *
 * The SPE registers themselves: an MRS or MSR at EL1 of PMBLIMITR_EL1 to
 * PMSNEVFR_EL1 is a load or store at VNCR_EL2 + its offset (0x800-0x850
 * in the Arm ARM's VNCR_EL2 layout, as Linux's asm/vncr_mapping.h lists
 * it; none for PMSFCR_EL1), never the register. PMSCR_EL1 has an _EL12
 * alias: it is redirected when NV1 is 1, and PMSCR_EL12 when NV1 is 0.
 * MDCR_EL2.TPMS traps before any redirection. PMSDSFR_EL1 (0x858) exists
 * only with PMSIDR_EL1.FDS (run.sh runs this mode with spe-fds=on): it is
 * checked with the others when PMSIDR_EL1.FDS is 1.
 *
 * Records (D18.2.7 Load/store, general, 0b0011000x): an MRS or MSR at EL1
 * of a register the VNCR page holds is a 64-bit load or store there
 * (HCR_EL2 0x78, TPIDR_EL2 0x90, PMSICR_EL1 0x838), made in the EL2
 * regime, so a PA packet means the EL2 regime was used. SCTLR_EL1 is
 * redirected only when NV1 is 1, and MIDR_EL1 never: both stay class
 * Other. As EL1's PMBLIMITR_EL1 is memory here, EL2 starts and stops each
 * probe's buffer on HVC #1 and #2 (ops.S, nv2probe).
 */
#define VNCR_EL2      S3_4_C2_C2_0
#define PMSCR_EL12    S3_5_C9_C9_0
#define HCR_NV1       (1ULL << 43)
#define HCR_NV2_BITS  ((1ULL << 31) | (1ULL << 42) | (1ULL << 45))  /* RW NV NV2 */
#define MDCR_TPMS     (1ULL << 14)
#define VNCR_MEM(off) (*(volatile uint64_t *)(HOLE_PAGE + (off)))
#define VNCR_PMSCR    0x828                 /* PMSCR_EL1 and PMSCR_EL12 */
#define NV2_PMSCR_EL1 (2 | (1 << 4))        /* E1SPE, PA: set by EL2 */
#define SEED(off)     (0x5e00000000000000ULL | (off))
#define STORED(off)   (0xa100000000000000ULL | (off))

/* HVC immediates; ops.S's nv2probe uses #1 and #2 */
enum { HVC_START = 1, HVC_STOP, HVC_FLIP_NV1, HVC_SNAPSHOT, HVC_FLIP_TPMS };

typedef struct Nv2Reg {
    const char *name;
    uint64_t off;
    uint64_t (*rd)(void);
    void (*wr)(uint64_t);
} Nv2Reg;

#define NV2_REG(r)                                                       \
    static uint64_t rd_##r(void) { return RD(r); }                       \
    static void wr_##r(uint64_t v) { WR(r, v); ISB(); }
NV2_REG(PMBLIMITR_EL1) NV2_REG(PMBPTR_EL1) NV2_REG(PMBSR_EL1)
NV2_REG(PMSEVFR_EL1) NV2_REG(PMSICR_EL1) NV2_REG(PMSIRR_EL1)
NV2_REG(PMSLATFR_EL1) NV2_REG(PMSNEVFR_EL1) NV2_REG(PMSDSFR_EL1)
#define NV2_ENTRY(r, o)     { #r, o, rd_##r, wr_##r }

/*
 * The registers redirected whatever NV1 is; the last one, PMSDSFR_EL1,
 * only exists with PMSIDR_EL1.FDS (nv2_nregs)
 */
static const Nv2Reg nv2_regs[] = {
    NV2_ENTRY(PMBLIMITR_EL1, 0x800), NV2_ENTRY(PMBPTR_EL1, 0x810),
    NV2_ENTRY(PMBSR_EL1, 0x820), NV2_ENTRY(PMSEVFR_EL1, 0x830),
    NV2_ENTRY(PMSICR_EL1, 0x838), NV2_ENTRY(PMSIRR_EL1, 0x840),
    NV2_ENTRY(PMSLATFR_EL1, 0x848), NV2_ENTRY(PMSNEVFR_EL1, 0x850),
    NV2_ENTRY(PMSDSFR_EL1, 0x858),
};
#define NV2_NREGS (sizeof(nv2_regs) / sizeof(nv2_regs[0]))
static unsigned nv2_nregs;      /* set at EL2 before EL1 runs */

/* what EL2 saw: the registers and the VNCR page, on HVC_SNAPSHOT */
static volatile uint64_t nv2_real[NV2_NREGS], nv2_mem[NV2_NREGS];
static volatile uint64_t nv2_lim, nv2_ptr, traps, trap_esr;

uint64_t el2_trap_handler(uint64_t esr, uint64_t elr);
uint64_t el2_trap_handler(uint64_t esr, uint64_t elr)
{
    unsigned i;

    if ((esr >> 26) == 0x18) {          /* a trapped MRS/MSR: skip it */
        traps++;
        trap_esr = esr;
        return elr + 4;
    }
    if ((esr >> 26) != 0x16) {
        return 0;
    }
    switch (esr & 0xffff) {             /* HVC #imm16 */
    case HVC_START:     /* the probe's NOP then counts down to its target */
        WR(PMBSR_EL1, 0);
        WR(PMBPTR_EL1, BUF_BASE);
        WR(PMSICR_EL1, 1);
        ISB();
        WR(PMBLIMITR_EL1, nv2_lim);
        break;
    case HVC_STOP:
        WR(PMBLIMITR_EL1, 0);
        ISB();
        nv2_ptr = RD(PMBPTR_EL1);
        break;
    case HVC_FLIP_NV1:  /* in effect from the ERET */
        WR(hcr_el2, RD(hcr_el2) ^ HCR_NV1);
        break;
    case HVC_SNAPSHOT:
        for (i = 0; i < nv2_nregs; i++) {
            nv2_real[i] = nv2_regs[i].rd();
            nv2_mem[i] = VNCR_MEM(nv2_regs[i].off);
        }
        break;
    case HVC_FLIP_TPMS:
        WR(mdcr_el2, RD(mdcr_el2) ^ MDCR_TPMS);
        break;
    default:
        return 0;
    }
    ISB();
    return elr;                 /* ELR_EL2 of an HVC: the next instruction */
}

/* HVC #@imm (an enum constant above) to the program's EL2 */
#define HVC(imm) __asm__ volatile("hvc %0" :: "i"(imm) : "memory")

PROBE(op_mrs_hcr_el2) PROBE(op_msr_tpidr_el2) PROBE(op_mrs_sctlr_el1)
PROBE(op_mrs_midr_el1) PROBE(op_msr_pmsicr_el1)

/* Test @n: @fn samples one operation: class header @hdr, SUBCLASS @sub */
static void nv2_probe(const char *n, probe_fn *fn, uint8_t hdr, uint8_t sub,
                      uint64_t va)
{
    clear_buf(BUF_BASE, 4096);
    fn(0, 0, 0x5a5a);
    if (optype_va_ok(n, nv2_ptr, hdr, sub, va, 1)) {
        result(n, 1, "", 0, 0);
    }
}

/* Test: EL1's reads of the redirected registers return the VNCR page's */
static void nv2_reads(void)
{
    const char *n = "nv2_spe_reads_vncr";
    unsigned i;

    for (i = 0; i < nv2_nregs; i++) {
        CHECK_EQ(n, nv2_regs[i].name, nv2_regs[i].rd(),
                 SEED(nv2_regs[i].off));
    }
    result(n, 1, "", 0, 0);
}

/* Test: EL1's writes reach the VNCR page and leave the registers alone */
static void nv2_writes(void)
{
    const char *n = "nv2_spe_writes_vncr";
    uint64_t before[NV2_NREGS];
    unsigned i;

    HVC(HVC_SNAPSHOT);
    for (i = 0; i < nv2_nregs; i++) {
        before[i] = nv2_real[i];
        nv2_regs[i].wr(STORED(nv2_regs[i].off));
    }
    HVC(HVC_SNAPSHOT);
    for (i = 0; i < nv2_nregs; i++) {
        CHECK_EQ(n, nv2_regs[i].name, nv2_mem[i], STORED(nv2_regs[i].off));
        CHECK_EQ(n, "register itself", nv2_real[i], before[i]);
    }
    result(n, 1, "", 0, 0);
}

/* Tests: PMSCR_EL1 redirected only with NV1 1, PMSCR_EL12 only with 0 */
static void nv2_pmscr(void)
{
    uint64_t el1, el12, el1_nv1;

    el1 = RD(PMSCR_EL1);
    el12 = RD(PMSCR_EL12);
    HVC(HVC_FLIP_NV1);          /* NV1 = 1 */
    el1_nv1 = RD(PMSCR_EL1);
    HVC(HVC_FLIP_NV1);          /* NV1 = 0 */
    result("nv2_pmscr_el1_nv1_0_not_redirected", el1 == NV2_PMSCR_EL1,
           "PMSCR_EL1", el1, NV2_PMSCR_EL1);
    result("nv2_pmscr_el12_nv1_0_redirected", el12 == SEED(VNCR_PMSCR),
           "PMSCR_EL12", el12, SEED(VNCR_PMSCR));
    result("nv2_pmscr_el1_nv1_1_redirected", el1_nv1 == SEED(VNCR_PMSCR),
           "PMSCR_EL1", el1_nv1, SEED(VNCR_PMSCR));
}

/* Test: the VNCR page has no PMSFCR_EL1: EL1 reads the register */
static void nv2_pmsfcr(void)
{
    CHECK_EQ("nv2_pmsfcr_el1_not_redirected", "PMSFCR_EL1", RD(PMSFCR_EL1), 0);
    result("nv2_pmsfcr_el1_not_redirected", 1, "", 0, 0);
}

/* Test: MDCR_EL2.TPMS traps EL1's PMSICR_EL1 read before any redirection */
static void nv2_tpms(void)
{
    const char *n = "nv2_tpms_trap_before_redirect";
    uint64_t t0 = traps;

    HVC(HVC_FLIP_TPMS);         /* TPMS = 1 */
    (void)RD(PMSICR_EL1);
    HVC(HVC_FLIP_TPMS);         /* TPMS = 0 */
    CHECK_EQ(n, "traps to EL2", traps - t0, 1);
    CHECK_EQ(n, "ESR_EL2.EC", trap_esr >> 26, 0x18);
    result(n, 1, "", 0, 0);
}

static void t_nv2(void)
{
    unsigned i;

    if (!at_el("nv2_spe_reads_vncr", 2)) {
        return;
    }
    WR(mdcr_el2, 3 << 12);      /* E2PB 0b11: EL1 owns the buffer */
    WR(PMSCR_EL2, 1 << 4);      /* PA: EL2 permits physical addresses */
    WR(VNCR_EL2, HOLE_PAGE);
    /* FEAT_FGT: nPMSNEVFR_EL1 = 1, or the accesses to it trap to EL2 */
    WR(HDFGRTR_EL2, 1ULL << 62);
    WR(HDFGWTR_EL2, 1ULL << 62);
    /* EL1's sampling controls, set here: EL1's MSRs reach only memory */
    spe_reset_regs();
    WR(PMSIRR_EL1, 0xffffff00ULL);
    WR(PMSCR_EL1, NV2_PMSCR_EL1);
    nv2_lim = BUF_LIMIT | 1;
    VNCR_MEM(VNCR_PMSCR) = SEED(VNCR_PMSCR);
    nv2_nregs = (RD(PMSIDR_EL1) & SPE_PMSIDR_FDS_MASK) ? NV2_NREGS : NV2_NREGS - 1;
    for (i = 0; i < nv2_nregs; i++) {
        VNCR_MEM(nv2_regs[i].off) = SEED(nv2_regs[i].off);
    }
    DSB();
    el2_to_el1_hcr(HCR_NV2_BITS);

    nv2_reads();
    nv2_writes();
    nv2_pmscr();
    nv2_pmsfcr();
    nv2_tpms();
    nv2_probe("nv2_mrs_hcr_el2", op_mrs_hcr_el2, 0x49, 0x30, HOLE_PAGE + 0x78);
    nv2_probe("nv2_msr_tpidr_el2", op_msr_tpidr_el2, 0x49, 0x31,
              HOLE_PAGE + 0x90);
    nv2_probe("nv2_msr_pmsicr_el1", op_msr_pmsicr_el1, 0x49, 0x31,
              HOLE_PAGE + 0x838);
    nv2_probe("nv2_mrs_sctlr_el1_needs_nv1", op_mrs_sctlr_el1, 0x48, 0, 0);
    nv2_probe("nv2_mrs_midr_el1_not_redirected", op_mrs_midr_el1, 0x48, 0, 0);
}

#elif defined(MODE_FGT)

/*
 * FEAT_FGT: HDFGRTR_EL2/HDFGWTR_EL2 trap EL1's accesses to the FEAT_SPE
 * registers to EL2 (ESR_EL2.EC 0x18, the register's encoding in the ISS),
 * a read and a write bit each; nPMSNEVFR_EL1 (bit 62) traps when 0.
 * el2_trap_handler() counts the traps and skips the instruction.
 */

static volatile uint64_t traps, trap_esr;

uint64_t el2_trap_handler(uint64_t esr, uint64_t elr);
uint64_t el2_trap_handler(uint64_t esr, uint64_t elr)
{
    if ((esr >> 26) != 0x18) {
        return 0;
    }
    traps++;
    trap_esr = esr;
    return elr + 4;
}

/* ISS of a trapped MRS (Direction 1) or MSR of S3_0_C9_C@crm_@op2, Rt any */
static int iss_is(uint64_t esr, int read, int crm, int op2)
{
    return (esr & 1) == (uint64_t)read && ((esr >> 1) & 0xf) == (uint64_t)crm &&
           ((esr >> 10) & 0xf) == 9 && ((esr >> 14) & 7) == 0 &&
           ((esr >> 17) & 7) == (uint64_t)op2 && ((esr >> 20) & 3) == 3;
}

/* Test @n: the access @acc traps (@want 1, with that ISS) or not. */
#define EXPECT_TRAP(n, acc, want, read, crm, op2) do {                    \
        uint64_t t0_ = traps;                                             \
        acc;                                                              \
        ISB();                                                            \
        CHECK_EQ(n, "traps", traps - t0_, (uint64_t)(want));              \
        if (want) {                                                       \
            CHECK_EQ(n, "ISS", iss_is(trap_esr, read, crm, op2), 1);       \
        }                                                                 \
        result(n, 1, "", 0, 0);                                           \
    } while (0)

static void t_fgt(void)
{
    if (!at_el("fgt_pmscr_read_traps", 2)) {
        return;
    }
    WR(mdcr_el2, 3 << 12);      /* E2PB 0b11: EL1 owns the buffer, no TPMS */
    /* reads of PMSCR_EL1 and PMSIDR_EL1 trap; nPMSNEVFR_EL1 0 for reads */
    WR(HDFGRTR_EL2, (1ULL << 26) | (1ULL << 30));
    WR(HDFGWTR_EL2, 1ULL << 62);
    el2_to_el1();
    EXPECT_TRAP("fgt_pmscr_read_traps", (void)RD(PMSCR_EL1), 1, 1, 9, 0);
    EXPECT_TRAP("fgt_pmscr_write_not_trapped", WR(PMSCR_EL1, 0), 0, 0, 9, 0);
    EXPECT_TRAP("fgt_pmsidr_read_traps", (void)RD(PMSIDR_EL1), 1, 1, 9, 7);
    EXPECT_TRAP("fgt_pmsicr_read_not_trapped", (void)RD(PMSICR_EL1), 0, 1, 9, 2);
    EXPECT_TRAP("fgt_pmbidr_read_not_trapped", (void)RD(PMBIDR_EL1), 0, 1, 10, 7);
    EXPECT_TRAP("fgt_npmsnevfr_0_read_traps", (void)RD(PMSNEVFR_EL1), 1, 1, 9, 1);
    EXPECT_TRAP("fgt_npmsnevfr_1_write_not_trapped", WR(PMSNEVFR_EL1, 0), 0, 0, 9, 1);
}

#elif defined(MODE_ECV)

/*
 * Timestamps with FEAT_ECV (Arm ARM J1.1.1.55 CollectTimeStamp(), D18.2.9
 * Timestamp payload, D3.3 physical offset): booted at EL2 with
 * virtualization=on, the buffer given to EL1 (MDCR_EL2.E2PB 0b11), EL1
 * samples one load per case; between cases an HVC asks EL2 for the next
 * PMSCR_EL2 and CNTHCTL_EL2. CNTVOFF_EL2 and CNTPOFF_EL2 are set 2^40
 * and 3 * 2^40 apart from 0, so that the three counters a Timestamp can
 * hold are told apart: PhysicalCountInt() (physical), less CNTVOFF_EL2
 * (virtual), less CNTPOFF_EL2 (offset physical, when CNTHCTL_EL2.ECV
 * enables the offset; with ECV 0 the offset is 0).
 */
#define CNTPOFF_EL2     S3_4_C14_C0_6
#define CNTHCTL_ECV     (1ULL << 12)
#define VOFF            (1ULL << 40)
#define POFF            (3ULL << 40)
#define PCT(v)          ((uint64_t)(v) << 6)
#define HCR_E2H         (1ULL << 34)

static volatile uint64_t hvc_pmscr2, hvc_cnthctl;

/* HVC from EL1 (ESR_EL2.EC 0x16): the next case's EL2 registers */
uint64_t el2_trap_handler(uint64_t esr, uint64_t elr);
uint64_t el2_trap_handler(uint64_t esr, uint64_t elr)
{
    if ((esr >> 26) != 0x16) {
        puts_("# unexpected trap to EL2, ESR_EL2 ");
        puthex(esr);
        puts_(" ELR_EL2 ");
        puthex(elr);
        puts_("\n");
        return 0;
    }
    WR(PMSCR_EL2, hvc_pmscr2);
    WR(cnthctl_el2, hvc_cnthctl);
    ISB();
    return elr;                 /* ELR_EL2 of an HVC: the next instruction */
}

enum { TS_VIRTUAL, TS_PHYSICAL, TS_OFFSET_PHYSICAL };

/*
 * Test @n: with PMSCR_EL2.PCT @pct2, PMSCR_EL1.PCT @pct1 and
 * CNTHCTL_EL2.ECV @ecv, a sampled load's Timestamp is the @kind counter.
 */
static void ecv_case(const char *n, unsigned pct2, unsigned pct1, int ecv,
                     int kind)
{
    uint64_t lim, v0, v1, raw0, span, off, ts;
    Pkt k;

    hvc_pmscr2 = PCT(pct2);
    hvc_cnthctl = ecv ? CNTHCTL_ECV : 0;
    __asm__ volatile("hvc #0" ::: "memory");
    lim = probe_setup(2 | (1 << 5) | PCT(pct1));   /* E1SPE, TS */
    /* at EL1, CNTVCT_EL0 is PhysicalCountInt() - CNTVOFF_EL2 */
    v0 = RD(cntvct_el0);
    op_ldr(lim, DATA, 0);
    v1 = RD(cntvct_el0);
    k = find_pkt(BUF_BASE, RD(PMBPTR_EL1), 0x71, 0xff);
    CHECK_EQ(n, "Timestamp packet", k.found, 1);
    off = kind == TS_VIRTUAL ? VOFF :
          kind == TS_OFFSET_PHYSICAL && ecv ? POFF : 0;
    raw0 = v0 + VOFF;
    span = v1 - v0;
    ts = k.payload;
    /* ts in [raw0 - off, raw0 - off + span], modulo 2^64 */
    CHECK(n, ts - (raw0 - off) <= span, "timestamp - expected counter",
          ts - (raw0 - off), span);
    result(n, 1, "", 0, 0);
}

/*
 * ELIsInHost(EL2): sampled at EL2 with HCR_EL2.E2H 1, where
 * CollectTimeStamp() takes the virtual branch of PMSCR_EL2.PCT 0b00, the
 * Timestamp is the physical count all the same (J1.1.1.55: virtual only
 * outside a host), not less CNTVOFF_EL2. EL2 owns the buffer (E2PB
 * 0b00); with E2H its PMSCR_EL1 accesses are PMSCR_EL2's.
 */
static void ecv_host_case(void)
{
    const char *n = "ecv_el2_host_00_physical";
    uint64_t hcr = RD(hcr_el2), lim, p0, p1;
    Pkt k;

    WR(mdcr_el2, 0);
    WR(hcr_el2, hcr | HCR_E2H);
    ISB();
    lim = probe_setup(2 | (1 << 5));    /* PMSCR_EL2: E2SPE, TS, PCT 0 */
    p0 = RD(cntpct_el0);
    op_ldr(lim, DATA, 0);
    p1 = RD(cntpct_el0);
    k = find_pkt(BUF_BASE, RD(PMBPTR_EL1), 0x71, 0xff);
    spe_reset_regs();
    WR(hcr_el2, hcr);
    ISB();
    CHECK_EQ(n, "Timestamp packet", k.found, 1);
    CHECK(n, k.payload - p0 <= p1 - p0, "timestamp - CNTPCT_EL0",
          k.payload - p0, p1 - p0);
    result(n, 1, "", 0, 0);
}

static void t_ecv(void)
{
    if (!at_el("ecv_el2_00_el1_11_virtual", 2)) {
        return;
    }
    if (((RD(id_aa64mmfr0_el1) >> 60) & 0xf) < 2) {
        skip("ecv_el2_00_el1_11_virtual", "no FEAT_ECV with CNTPOFF_EL2");
        return;
    }
    WR(cntvoff_el2, VOFF);
    WR(CNTPOFF_EL2, POFF);
    ecv_host_case();
    WR(mdcr_el2, 3 << 12);      /* E2PB 0b11: EL1 owns the buffer */
    /* FEAT_FGT: nPMSNEVFR_EL1 1, EL1's PMSNEVFR_EL1 accesses not trapped */
    WR(HDFGRTR_EL2, 1ULL << 62);
    WR(HDFGWTR_EL2, 1ULL << 62);
    el2_to_el1();
    ecv_case("ecv_el2_00_el1_11_virtual", 0, 3, 1, TS_VIRTUAL);
    ecv_case("ecv_el2_01_el1_01_physical", 1, 1, 1, TS_PHYSICAL);
    ecv_case("ecv_el2_01_el1_11_offset_physical", 1, 3, 1, TS_OFFSET_PHYSICAL);
    ecv_case("ecv_el2_11_el1_00_virtual", 3, 0, 1, TS_VIRTUAL);
    ecv_case("ecv_el2_11_el1_01_offset_physical", 3, 1, 1, TS_OFFSET_PHYSICAL);
    ecv_case("ecv_el2_11_el1_11_offset_0_without_ecv", 3, 3, 0,
             TS_OFFSET_PHYSICAL);
    /* the reserved 0b10: the model's choice is 0b00 (cpu-features.rst) */
    ecv_case("ecv_el2_10_reserved_virtual", 2, 1, 1, TS_VIRTUAL);
    ecv_case("ecv_el2_01_el1_10_reserved_virtual", 1, 2, 1, TS_VIRTUAL);
}

#elif defined(MODE_SEL2)

/*
 * Secure EL2 (FEAT_SEL2, SCR_EL3.EEL2): with the buffer given to Secure
 * state (MDCR_EL3.NSPB 0b01: Secure accesses not trapped), MDCR_EL2.E2PB
 * 0b00 gives it to Secure EL2 (ProfilingBufferOwner(): EL2 owns when
 * EL2 is enabled in the owning Security state). Booted at EL3 with
 * secure=on and virtualization=on; Secure EL2 runs with its MMU off, so
 * the buffer's VA is its PA.
 */

static void t_sel2(void)
{
    const char *n = "sel2_samples_into_its_buffer";
    uint64_t end, el, ns;
    Pkt pc;

    if (!at_el("sel2_pmbidr_p_el2_owner_el2", 3)) {
        return;
    }
    if (((RD(id_aa64pfr0_el1) >> 36) & 0xf) == 0) {
        skip("sel2_pmbidr_p_el2_owner_el2", "no FEAT_SEL2");
        return;
    }
    WR(mdcr_el3, 1ULL << 12);            /* NSPB = 0b01 */
    WR(mdcr_el2, 0);                     /* E2PB = 0b00 */
    /* Down to Secure EL2h: SCR_EL3.{EEL2, HCE, RW}, NS = 0 */
    WR(scr_el3, (1ULL << 18) | (1 << 8) | (1 << 10));
    WR(vbar_el2, RD(vbar_el1));
    ERET_DOWN(el3, sp_el2, 0x3c9);       /* EL2h, DAIF masked */
    expect_p("sel2_pmbidr_p_el2_owner_el2", 2, 0);

    /* PMSCR_EL2.E2SPE: Secure EL2 samples into the buffer it owns */
    spe_reset_regs();
    clear_buf(BUF_BASE, 4096);
    WR(PMBPTR_EL1, BUF_BASE);
    WR(PMSIRR_EL1, 0x100);
    WR(PMSCR_EL2, 2);
    ISB();
    spe_loop(2000, BUF_LIMIT | 1);
    WR(PMSCR_EL2, 0);
    ISB();
    PSB();
    DSB();
    end = RD(PMBPTR_EL1);
    CHECK(n, end >= BUF_BASE + RECORD_SIZE, "bytes written", end - BUF_BASE,
          RECORD_SIZE);
    pc = find_pkt(BUF_BASE, BUF_BASE + RECORD_SIZE, 0xb0, 0xff);
    el = (pc.payload >> 61) & 3;
    ns = pc.payload >> 63;
    CHECK_EQ(n, "PC packet", pc.found, 1);
    CHECK_EQ(n, "PC packet EL", el, 2);
    CHECK_EQ(n, "PC packet NS (Secure: 0)", ns, 0);
    result(n, 1, "", 0, 0);
    spe_reset_regs();

    /* Down to Secure EL1h: Secure EL2 keeps the buffer, P reads 1 */
    el2_to_el1();
    expect_p("sel2_pmbidr_p_el1_owner_el2", 1, 1);
}

#else /* MODE_EL3 */

/*
 * MDCR_EL3.NSPB 0b00 gives the buffer to Secure state (3.4.2, the owning
 * Exception level). PMBIDR_EL1 is never trapped (4.3.1, "Traps and
 * enables: None"): read from EL3 its P bit is 0, from Non-secure EL2 and
 * EL1 it is 1 ("If MDCR_EL3.NSPB == 0b00 or 0b01 this bit reads as one
 * from EL2 and Non-secure EL1"). Any trap to EL3 ends the program short
 * of its results.
 */
static void t_pmbidr_nspb(void)
{
    if (!at_el("pmbidr_p_el3_nspb_secure", 3)) {
        return;
    }
    WR(mdcr_el3, 0);                     /* NSPB = 0b00: Secure owns it */
    expect_p("pmbidr_p_el3_nspb_secure", 3, 0);

    /* Down to Non-secure EL2h: SCR_EL3.{NS, HCE, RW} */
    WR(scr_el3, (1 << 0) | (1 << 8) | (1 << 10));
    WR(vbar_el2, RD(vbar_el1));
    ERET_DOWN(el3, sp_el2, 0x3c9);       /* EL2h, DAIF masked */
    expect_p("pmbidr_p_ns_el2_nspb_secure", 2, 1);

    /* Down to Non-secure EL1h, with MDCR_EL2.E2PB giving it to EL1 */
    WR(mdcr_el2, 3 << 12);
    el2_to_el1();
    expect_p("pmbidr_p_ns_el1_nspb_secure", 1, 1);
}

#endif /* MODE_EL2, MODE_EL3 */

#endif

#if defined(MODE_STRICT)

/*
 * Strict mode: out of reset only PMBLIMITR_EL1.E has a defined value, 0
 * (SPE supplement 4.2, Table 8); the model gives every other field a
 * value drawn from spe-seed. Run first, before anything is written.
 */
static void t_strict_reset(void)
{
    const char *n = "strict_reset_values_unknown";
    uint64_t any;

    any = RD(PMSCR_EL1) | RD(PMSICR_EL1) | RD(PMSIRR_EL1) |
          RD(PMSFCR_EL1) | RD(PMSEVFR_EL1) | RD(PMSLATFR_EL1) |
          (RD(PMBLIMITR_EL1) & ~1ULL) | RD(PMBPTR_EL1) | RD(PMBSR_EL1);
    CHECK_EQ(n, "PMBLIMITR_EL1.E out of reset", RD(PMBLIMITR_EL1) & 1, 0);
    CHECK(n, any != 0, "UNKNOWN fields not all 0 out of reset", any, 1);
    result(n, 1, "", 0, 0);
    spe_reset_regs();
}

/*
 * Restarting after a management event with DL set (3.4.1, 001 D17.7.4):
 * profiling must not resume from the saved PMBPTR_EL1. The DL event
 * comes from rewriting PMBLIMITR_EL1 while profiling (3.6.1, reported
 * once already by t_dl_disable()). Reprogramming PMBPTR_EL1 before
 * clearing PMBSR_EL1.S is fine; clearing S with the saved pointer is a
 * violation.
 */
static void strict_dl_event(void)
{
    WR(PMSCR_EL1, 2);
    ISB();
    spe_spin(25000);
    WR(PMBLIMITR_EL1, BUF_LIMIT | 1);   /* while profiling: DL */
    WR(PMSCR_EL1, 0);
    ISB();
    PSB();
    DSB();
    ISB();
}

static void t_dl_restart(void)
{
    const char *n = "strict_dl_restart_reprogrammed_ok";
    uint64_t sr;

    strict_start(0x400, 0);
    WR(PMSCR_EL1, 0);
    ISB();
    strict_dl_event();
    sr = RD(PMBSR_EL1);
    CHECK_EQ(n, "PMBSR (S, DL)", sr & (PMBSR_S | PMBSR_DL),
             PMBSR_S | PMBSR_DL);
    WR(PMBPTR_EL1, BUF_BASE + 0x2000);  /* a new pointer */
    ISB();
    WR(PMBSR_EL1, 0);                   /* restart: no violation */
    ISB();
    result(n, 1, "", 0, 0);

    n = "strict_dl_restart_saved_pointer_reported";
    strict_dl_event();
    sr = RD(PMBSR_EL1);
    CHECK_EQ(n, "PMBSR (S, DL)", sr & (PMBSR_S | PMBSR_DL),
             PMBSR_S | PMBSR_DL);
    expect_violation("000 3.4.1");
    WR(PMBSR_EL1, 0);                   /* restart from the saved pointer */
    ISB();
    strict_stop();
    result(n, 1, "", 0, 0);
    spe_reset_regs();
}

#elif defined(MODE_MODEL)

/*
 * The memory-hierarchy model (spe-model=cache, spe-lds=on). The expected
 * values are the model's documented choices (Documentation/emulation.rst,
 * "Memory-hierarchy model"): 64 KiB L1D, 1 MiB L2, 8 MiB LLC, 64-entry
 * L1 and 1280-entry L2 TLB; costs L1 4, L2 11, LLC 38, peer 52, DRAM 180
 * cycles, TLB 1/6/30; Data Source L1 0x0, L2 0x8, DRAM 0xe (the
 * Neoverse encoding). Events as D18.2.6 defines them.
 */
#define EV_RET          (1u << 1)
#define EV_L1D          (1u << 2)
#define EV_L1D_REFILL   (1u << 3)
#define EV_TLB          (1u << 4)
#define EV_TLB_WALK     (1u << 5)
#define EV_LLC          (1u << 8)
#define EV_LLC_MISS     (1u << 9)
/* FEAT_SPEv1p4 optional events, loads only (emulation.rst) */
#define EV_L2D          (1u << 19)
#define EV_L2D_MISS     (1u << 20)
#define EV_MODIFIED     (1u << 21)
#define EV_RECENT       (1u << 22)
#define EV_SNOOPED      (1u << 23)
#define SWEEP           0x42000000UL    /* 2 MiB blocks up to 0x4fffffff */
#define FRESH           0x41180000UL    /* a line nothing touches before */

static void t_model_probe(const char *n, uint64_t ds, uint64_t events,
                          uint64_t total, uint64_t xlat)
{
    uint64_t end = probe_run(op_ldr, FRESH, 0);
    Pkt k;

    CHECK_EQ(n, "record size", end - BUF_BASE, RECORD_SIZE);
    k = find_pkt(BUF_BASE, end, 0x42, 0xcf);
    CHECK_EQ(n, "events", k.payload, events);
    k = find_pkt(BUF_BASE, end, 0x43, 0xcf);
    CHECK_EQ(n, "data source present", k.found, 1);
    CHECK_EQ(n, "data source", k.payload, ds);
    k = find_pkt(BUF_BASE, end, 0x98, 0xff);
    CHECK_EQ(n, "total latency", k.payload, total);
    k = find_pkt(BUF_BASE, end, 0x9a, 0xff);
    CHECK_EQ(n, "xlat latency", k.payload, xlat);
    result(n, 1, "", 0, 0);
    spe_reset_regs();
}

/* Sample EL1 at @interval with the filters of @pmsfcr into a clear buffer */
static void model_sampling(uint64_t interval, uint64_t pmsfcr)
{
    spe_reset_regs();
    clear_buf(BUF_BASE, BUF_LIMIT - BUF_BASE);
    WR(PMBPTR_EL1, BUF_BASE);
    WR(PMSIRR_EL1, interval);
    WR(PMSICR_EL1, interval);
    WR(PMSFCR_EL1, pmsfcr);
    WR(PMSCR_EL1, 2);
    ISB();
}

/* Sample loads only at EL1 at @interval, from now on */
static void model_loads_start(uint64_t interval)
{
    model_sampling(interval, 1 << 1 | 1 << 17);    /* FT, LD */
    WR(PMBLIMITR_EL1, BUF_LIMIT | 1);
    ISB();
}

/* Stop profiling; the end of the records written */
static uint64_t model_stop(void)
{
    WR(PMBLIMITR_EL1, 0);
    ISB();
    __asm__ volatile("psb csync; dsb nsh" ::: "memory");
    return RD(PMBPTR_EL1);
}

/*
 * Sweep @bytes at SWEEP with a 64-byte stride, @passes times, sampling
 * loads at @interval, and count the sampled loads by Data Source and
 * total latency.
 */
static void sweep(uint64_t bytes, int passes, uint64_t interval,
                  uint64_t *n_ld, uint64_t *n_ds, uint64_t want_ds,
                  uint64_t *n_lat, uint64_t want_lat, uint64_t *n_ev,
                  uint64_t want_ev)
{
    volatile uint64_t *p = (volatile uint64_t *)SWEEP;
    uint64_t i, sum = 0, end, r;
    int pass;

    model_loads_start(interval);
    for (pass = 0; pass < passes; pass++) {
        for (i = 0; i < bytes / 8; i += 8) {
            sum += p[i];
        }
    }
    end = model_stop();
    (void)sum;

    *n_ld = *n_ds = *n_lat = *n_ev = 0;
    for (r = BUF_BASE; r < end; r += RECORD_SIZE) {
        Pkt k = find_pkt(r, r + RECORD_SIZE, 0x43, 0xcf);

        if (!k.found) {
            continue;
        }
        (*n_ld)++;
        *n_ds += k.payload == want_ds;
        k = find_pkt(r, r + RECORD_SIZE, 0x98, 0xff);
        *n_lat += k.payload == want_lat;
        k = find_pkt(r, r + RECORD_SIZE, 0x42, 0xcf);
        *n_ev += (k.payload & (EV_L2D | EV_L2D_MISS)) == want_ev;
    }
}

static void t_model_sweep(const char *n, uint64_t bytes, int passes,
                          uint64_t interval, uint64_t want_ds,
                          uint64_t want_lat, uint64_t want_ev,
                          unsigned min_pct)
{
    uint64_t n_ld, n_ds, n_lat, n_ev;

    sweep(bytes, passes, interval, &n_ld, &n_ds, want_ds, &n_lat, want_lat,
          &n_ev, want_ev);
    CHECK(n, n_ld >= 20, "sampled loads", n_ld, 20);
    CHECK(n, n_ds * 100 >= n_ld * min_pct, "loads from the level (of)",
          n_ds, n_ld);
    CHECK(n, n_lat * 100 >= n_ld * min_pct, "loads with the latency (of)",
          n_lat, n_ld);
    CHECK(n, n_ev * 100 >= n_ld * min_pct,
          "loads with the level's E[20:19] (of)", n_ev, n_ld);
    result(n, 1, "", 0, 0);
    spe_reset_regs();
}

/*
 * LRU in one set, and the translated code's fast path (a table of lines
 * in L1 whose page is in the L1 TLB, indexed by VA[15:6]: see
 * emulation.rst). The loop loads the lines at SET_LINES + @x[k] in turn,
 * each after a load of a hot line at SET_LINES when @hot, and every
 * sampled X load must come with Data Source @ds and total latency @lat.
 * A hot line is never the least recently used, so it always hits L1
 * (1 + 1 + 4 cycles), although its hits skip the model, which must
 * still learn of them before it chooses a victim.
 *  - Lines 16 KiB apart share a set of the 4-way 64 KiB L1D: more of
 *    them than the ways left always miss L1 and come from L2 (1 + 1 + 11:
 *    their pages stay in the L1 TLB). Lines 64 KiB apart also share a
 *    table entry; those 16 KiB apart do not, and an entry must go when
 *    its line leaves L1.
 *  - Pages 64 KiB apart share a set of the 4-way L1 TLB: five taken in
 *    turn always miss it and hit the L2 TLB (1 + 6 + 4: their lines, in
 *    different L1 sets, stay in L1), and so do four with a hot one; an
 *    entry must go with its page.
 */
#define SET_LINES       0x41200000UL

static void t_model_set(const char *n, const uint64_t *x, int nx_lines,
                        int hot, uint64_t ds, uint64_t lat)
{
    volatile uint64_t *h = (volatile uint64_t *)SET_LINES;
    uint64_t sum = 0, end, r, a, nh = 0, nh_l1 = 0, nx = 0, nx_ok = 0;
    int i, k;

    model_loads_start(0x100);
    for (i = 0; i < 6000; i++) {
        for (k = 0; k < nx_lines; k++) {
            if (hot) {
                sum += *h;
            }
            sum += *(volatile uint64_t *)(SET_LINES + x[k]);
        }
    }
    end = model_stop();
    (void)sum;

    for (r = BUF_BASE; r < end; r += RECORD_SIZE) {
        Pkt va = find_pkt(r, r + RECORD_SIZE, 0xb2, 0xff);
        Pkt d = find_pkt(r, r + RECORD_SIZE, 0x43, 0xcf);
        Pkt t = find_pkt(r, r + RECORD_SIZE, 0x98, 0xff);

        a = va.payload & ((1ULL << 56) - 1);
        if (!va.found || !d.found || a < SET_LINES ||
            a >= SET_LINES + 0x100000) {
            continue;
        }
        if (hot && a == SET_LINES) {
            nh++;
            nh_l1 += d.payload == 0x0 && t.payload == 6;
        } else {
            nx++;
            nx_ok += d.payload == ds && t.payload == lat;
        }
    }
    CHECK(n, nx >= 40, "sampled X loads", nx, 40);
    CHECK(n, nx_ok * 100 >= nx * 98, "X loads from the level (of)",
          nx_ok, nx);
    if (hot) {
        CHECK(n, nh >= 40, "sampled hot loads", nh, 40);
        CHECK(n, nh_l1 * 100 >= nh * 98, "hot loads from L1 (of)", nh_l1,
              nh);
    }
    result(n, 1, "", 0, 0);
    spe_reset_regs();
}

static void t_model_sets(void)
{
    static const uint64_t l1_set[] = {
        0, 0x4000, 0x8000, 0xc000, 0x10000,
    };
    static const uint64_t l1_set_hot[] = {
        0x4000, 0x8000, 0xc000, 0x14000,
    };
    static const uint64_t tlb_set[] = {
        0, 0x10040, 0x20080, 0x300c0, 0x40100,
    };

    t_model_set("model_l1_set_lru_misses", l1_set, 5, 0, 0x8, 13);
    t_model_set("model_l1_set_hot_line_stays", l1_set_hot, 4, 1, 0x8, 13);
    t_model_set("model_l1_tlb_set_lru_misses", tlb_set, 5, 0, 0x0, 11);
    t_model_set("model_l1_tlb_set_hot_page_stays", tlb_set + 1, 4, 1, 0x0,
                11);
}

/*
 * The branch predictor model: records of the branches of spe_branchy()
 * (ops.S). Its TBZ follows a pseudo-random bit: a predictor that learns
 * from history is wrong about half the time (E[7], D18.2.6). Its loop
 * branch is taken every time but the last: backward, so predicted taken
 * from the first time on, hardly ever wrong.
 */
static void t_model_branches(void)
{
    const char *n = "model_mispredict_random_and_loop";
    uint64_t end, r, tbz = 0, tbz_miss = 0, loop = 0, loop_miss = 0;

    model_sampling(0x100, 1 << 1 | 1 << 16);       /* FT, B: branches only */
    spe_branchy(40000, BUF_LIMIT | 1);             /* it disables, too */
    end = model_stop();

    for (r = BUF_BASE; r < end; r += RECORD_SIZE) {
        Pkt pc = find_pkt(r, r + RECORD_SIZE, 0xb0, 0xff);
        Pkt ev = find_pkt(r, r + RECORD_SIZE, 0x42, 0xcf);
        uint64_t a = pc.payload & ((1ULL << 56) - 1);
        int miss = (ev.payload >> 7) & 1;

        if (a == (uint64_t)spe_branchy_tbz) {
            tbz++;
            tbz_miss += miss;
        } else if (a == (uint64_t)spe_branchy_loop) {
            loop++;
            loop_miss += miss;
        }
    }
    CHECK(n, tbz >= 40, "TBZ records", tbz, 40);
    CHECK(n, loop >= 40, "loop branch records", loop, 40);
    CHECK(n, tbz_miss * 100 >= tbz * 30 && tbz_miss * 100 <= tbz * 70,
          "TBZ mispredicted (of)", tbz_miss, tbz);
    CHECK(n, loop_miss * 100 <= loop * 3, "loop branch mispredicted (of)",
          loop_miss, loop);
    result(n, 1, "", 0, 0);
    spe_reset_regs();
}

/*
 * Coherence: CPU 1 (started with PSCI CPU_ON) stores to SHARED_LINE and
 * then sets cpu1_flag, over and over, profiled (so its stores feed the
 * model) but never sampled. CPU 0 clears the flag and waits for it with
 * profiling disabled (its spinning feeds nothing), then samples one load
 * of the line: CPU 1 wrote it after CPU 0 last read it, so it is modified
 * in CPU 1's cache and served by the peer core (Data Source 0x9, E[8]
 * and E[9]: the LLC does not return the data; with v1p4 E[23] snooped
 * and E[21] modified; total latency 1 + the translation + 52). However
 * the host schedules the two vCPUs.
 *
 * Then CPU 1 only loads the line (cpu1_reads): CPU 0's next load takes
 * it from CPU 1's cache once, after which both hold it shared and CPU 0's
 * loads hit L1 though CPU 1 keeps loading it (a model that moves the
 * line to each reader in turn serves every one from the peer core). It
 * also loads CLEAN_LINE, which nobody writes: CPU 1 holds it exclusive,
 * so CPU 0's first load of it is a snoop of clean data (E[23] without
 * E[21]). And it loads and then stores EXCL_LINE: it got the line
 * exclusive and made it modified without the directory's help, which
 * the model must still know (E[21] on CPU 0's first load of it). A line
 * CPU 1 never touches comes from L1 the second time.
 */
#define SHARED_LINE     0x41190000UL
#define PRIVATE_LINE    0x411a0000UL
/* Each in an L1 set and an LLC set of its own: none evicts another */
#define CLEAN_LINE      0x411b0440UL
#define EXCL_LINE       0x411c0880UL
extern char model_cpu1[];
/* cpu1_flag: set by each pass of CPU 1 to what that pass did */
#define PASS_WROTE      1
#define PASS_READ       2
volatile uint64_t cpu1_flag __attribute__((aligned(64)));
volatile uint64_t cpu1_reads __attribute__((aligned(64)));

__asm__(
    "   .text\n"
    "   .balign 64\n"
    "model_cpu1:\n"                     /* x0: CPU 0's TTBR0_EL1 */
    "   msr     ttbr0_el1, x0\n"        /* the same address space */
    "   msr     S3_0_C9_C9_4, xzr\n"    /* PMSFCR_EL1 */
    "   ldr     x1, =0xffffff00\n"
    "   msr     S3_0_C9_C9_3, x1\n"     /* PMSIRR_EL1: longest interval */
    "   msr     S3_0_C9_C9_2, x1\n"     /* PMSICR_EL1 */
    "   mov     x1, #2\n"
    "   msr     S3_0_C9_C9_0, x1\n"     /* PMSCR_EL1.E1SPE */
    "   msr     S3_0_C9_C10_3, xzr\n"   /* PMBSR_EL1 */
    "   ldr     x1, =0x43000000\n"      /* its own (unused) buffer */
    "   msr     S3_0_C9_C10_1, x1\n"    /* PMBPTR_EL1 */
    "   ldr     x1, =0x43010001\n"
    "   msr     S3_0_C9_C10_0, x1\n"    /* PMBLIMITR_EL1: LIMIT, E */
    "   isb\n"
    "   ldr     x2, =0x41190000\n"
    "   ldr     x3, =cpu1_flag\n"
    "   ldr     x6, =cpu1_reads\n"
    "   ldr     x7, =0x411b0440\n"
    "   ldr     x8, =0x411c0880\n"
    "   mov     x4, #1\n"
    "1: ldr     x5, [x6]\n"
    "   cbnz    x5, 2f\n"
    "   str     x4, [x2]\n"            /* writer */
    "   mov     x9, #" STR(PASS_WROTE) "\n"
    "   b       3f\n"
    "2: ldr     x5, [x2]\n"            /* reader */
    "   ldr     x5, [x7]\n"
    "   ldr     x5, [x8]\n"
    "   str     x4, [x8]\n"
    "   mov     x9, #" STR(PASS_READ) "\n"
    "3: str     x9, [x3]\n"            /* what this pass did */
    "   add     x4, x4, #1\n"
    "   b       1b\n"
    "   .ltorg\n");

/* The events of a v1p4 load a peer core served, E[21] aside */
#define EV_PEER_LOAD    (EV_RET | EV_L1D | EV_L1D_REFILL | EV_TLB | EV_LLC | \
                         EV_LLC_MISS | EV_L2D | EV_L2D_MISS | EV_SNOOPED)

/* Test @n: CPU 0's first load of @line comes from the peer core */
static void model_peer_first_load(const char *n, uint64_t line,
                                  uint32_t modified)
{
    uint64_t end = probe_run(op_ldr, line, 0);
    Pkt k;

    k = find_pkt(BUF_BASE, end, 0x43, 0xcf);
    CHECK_EQ(n, "data source", k.payload, 0x9);
    k = find_pkt(BUF_BASE, end, 0x42, 0xcf);
    CHECK_EQ(n, "events", k.payload,
             EV_PEER_LOAD | modified | (k.payload & EV_TLB_WALK));
    result(n, 1, "", 0, 0);
}

static void t_model_peer(void)
{
    const char *n = "model_peer_core_line";
    uint64_t end, pass;
    int64_t rc;
    Pkt k, x;
    int i;

    rc = psci_cpu_on(1, (uint64_t)model_cpu1, RD(ttbr0_el1));
    CHECK_EQ(n, "PSCI CPU_ON", rc, 0);
    for (i = 0; i < 3; i++) {
        cpu1_flag = 0;
        while (!cpu1_flag) {
            __asm__ volatile("yield");
        }
        end = probe_run(op_ldr, SHARED_LINE, 0);   /* loads line + 8 */
        CHECK_EQ(n, "record size", end - BUF_BASE, RECORD_SIZE);
        k = find_pkt(BUF_BASE, end, 0x43, 0xcf);
        CHECK_EQ(n, "data source", k.payload, 0x9);
        k = find_pkt(BUF_BASE, end, 0x42, 0xcf);
        CHECK_EQ(n, "events", k.payload,
                 EV_PEER_LOAD | EV_MODIFIED | (k.payload & EV_TLB_WALK));
        k = find_pkt(BUF_BASE, end, 0x98, 0xff);
        x = find_pkt(BUF_BASE, end, 0x9a, 0xff);
        CHECK_EQ(n, "total latency", k.payload, 1 + x.payload + 52);
    }
    result(n, 1, "", 0, 0);

    /*
     * CPU 1 turns reader. A pass that loaded cpu1_reads before CPU 0 set
     * it still writes the line, and that store may come after any load
     * CPU 0 makes next, however many handshakes follow it. So wait for a
     * pass that says it read (cpu1_reads is never cleared: every later
     * pass reads too); only then does CPU 0 take the line from CPU 1,
     * once, and CPU 1 loads it again between each of CPU 0's loads.
     */
    n = "model_read_shared_line_l1";
    cpu1_reads = 1;
    __asm__ volatile("dmb ish" ::: "memory");
    do {
        cpu1_flag = 0;
        while (!(pass = cpu1_flag)) {
            __asm__ volatile("yield");
        }
    } while (pass != PASS_READ);
    probe_run(op_ldr, SHARED_LINE, 0);
    cpu1_flag = 0;
    while (!cpu1_flag) {
        __asm__ volatile("yield");
    }
    for (i = 0; i < 3; i++) {
        end = probe_run(op_ldr, SHARED_LINE, 0);
        k = find_pkt(BUF_BASE, end, 0x43, 0xcf);
        CHECK_EQ(n, "data source", k.payload, 0x0);
        cpu1_flag = 0;
        while (!cpu1_flag) {
            __asm__ volatile("yield");
        }
    }
    result(n, 1, "", 0, 0);

    model_peer_first_load("model_peer_clean_line", CLEAN_LINE, 0);
    model_peer_first_load("model_peer_exclusive_line_stored", EXCL_LINE,
                          EV_MODIFIED);

    n = "model_private_line_l1";
    probe_run(op_ldr, PRIVATE_LINE, 0);
    end = probe_run(op_ldr, PRIVATE_LINE, 0);
    k = find_pkt(BUF_BASE, end, 0x43, 0xcf);
    CHECK_EQ(n, "data source", k.payload, 0x0);
    result(n, 1, "", 0, 0);
    spe_reset_regs();
}

/*
 * E[22] recently fetched (FEAT_SPEv1p4, optional; the model's choice,
 * emulation.rst): a load that L1 serves from a line it missed fewer
 * operations before the sample than the level it came from takes
 * cycles. The loop loads (or stores, @st) consecutive words of @bytes at
 * @base, and of the same at @base + @bytes when @two (two lines on their
 * way at once), @warm passes, then @passes whose samples are counted:
 * after the access that misses a line the next seven hit it a few
 * operations later. Sampled at @interval with the type filter on loads
 * or stores; counted: the L1 hits, those with E[22], the misses with it.
 */
static void recent(uint64_t base, uint64_t bytes, int two, int st, int warm,
                   int passes, uint64_t interval, uint64_t *hits,
                   uint64_t *rhits, uint64_t *rmisses)
{
    volatile uint64_t *p = (volatile uint64_t *)base, *q = p + bytes / 8;
    uint64_t i, sum = 0, end, r = BUF_BASE;
    int pass;

    /* the model sees accesses only while profiling: warm it sampling */
    model_sampling(interval, 1 << 1 | (st ? 1 << 18 : 1 << 17));
    WR(PMBLIMITR_EL1, BUF_LIMIT | 1);
    ISB();
    for (pass = 0; pass < warm + passes; pass++) {
        if (pass == warm) {
            __asm__ volatile("psb csync; dsb nsh" ::: "memory");
            r = RD(PMBPTR_EL1);
        }
        for (i = 0; i < bytes / 8; i++) {
            if (st) {
                p[i] = i;
            } else {
                sum += p[i];
            }
            if (two) {
                sum += q[i];
            }
        }
    }
    end = model_stop();
    (void)sum;
    *hits = *rhits = *rmisses = 0;
    for (; r < end; r += RECORD_SIZE) {
        Pkt ev = find_pkt(r, r + RECORD_SIZE, 0x42, 0xcf);
        Pkt tot = find_pkt(r, r + RECORD_SIZE, 0x98, 0xff);
        Pkt xl = find_pkt(r, r + RECORD_SIZE, 0x9a, 0xff);

        if (!ev.found || !tot.found || !xl.found) {
            continue;
        }
        /* an L1 hit: issue, translation and L1's 4 cycles */
        if (tot.payload == 1 + xl.payload + 4) {
            (*hits)++;
            *rhits += !!(ev.payload & EV_RECENT);
        } else {
            *rmisses += !!(ev.payload & EV_RECENT);
        }
    }
}

/*
 * Lines from DRAM (180 cycles) are still on their way for all seven
 * hits, from two streams as from one (the fill buffer holds both lines),
 * lines from L2 (11) for the first few (some, not all), lines that L1
 * has held since an earlier pass for none, and stores never have it.
 */
static void t_model_recent(const char *n, uint64_t base, uint64_t bytes,
                           int two, int st, int warm, int passes,
                           unsigned min_pct, unsigned max_pct)
{
    uint64_t hits, rhits, rmisses;

    /* interval 768: a period of 769 operations, a prime, hits every op */
    recent(base, bytes, two, st, warm, passes, 0x300, &hits, &rhits,
           &rmisses);
    CHECK(n, hits >= 20, "sampled L1 hits", hits, 20);
    CHECK(n, rhits * 100 >= hits * min_pct, "L1 hits with E[22] (of)",
          rhits, hits);
    CHECK(n, rhits * 100 <= hits * max_pct, "L1 hits with E[22] (of)",
          rhits, hits);
    CHECK_EQ(n, "misses with E[22]", rmisses, 0);
    result(n, 1, "", 0, 0);
    spe_reset_regs();
}

/*
 * The same, where the load that misses and the sampled load are in
 * different TBs, the first of which the interval counter takes whole:
 * the miss is nops + 17 operations before the sample (17 when it is the
 * last of its TB), the line comes from DRAM (180): still on its way
 * after 100 NOPs, no longer after 300, and still on its way 17 after.
 * And where COUNT stops telling the time to the sample: rewritten to
 * 300 after the miss, or standing still while profiling is off for 300
 * NOPs, the line has come by the sample although the miss was 17
 * operations before the sample that COUNT said then.
 */
extern void e22_tb_near(uint64_t limitr, uint64_t addr, uint64_t count);
extern void e22_tb_far(uint64_t limitr, uint64_t addr, uint64_t count);
extern void e22_tb_late(uint64_t limitr, uint64_t addr, uint64_t count);
extern void e22_pmsicr(uint64_t limitr, uint64_t addr, uint64_t count);
extern void e22_off(uint64_t limitr, uint64_t addr, uint64_t count);

static void t_model_recent_tb(const char *n,
                              void (*fn)(uint64_t, uint64_t, uint64_t),
                              uint64_t count, uint64_t addr, uint64_t want)
{
    uint64_t end;
    Pkt ev, tot;

    model_sampling(0x300, 1 << 1 | 1 << 17);
    fn(BUF_LIMIT | 1, addr, count);
    __asm__ volatile("psb csync; dsb nsh" ::: "memory");
    end = RD(PMBPTR_EL1);
    CHECK_EQ(n, "records", (end - BUF_BASE) / RECORD_SIZE, 1);
    ev = find_pkt(BUF_BASE, end, 0x42, 0xcf);
    tot = find_pkt(BUF_BASE, end, 0x98, 0xff);
    CHECK_EQ(n, "total latency (an L1 and L1 TLB hit)", tot.payload, 6);
    CHECK_EQ(n, "E[22]", ev.payload & EV_RECENT, want);
    result(n, 1, "", 0, 0);
    spe_reset_regs();
}

static void t_model(void)
{
    /* First touch: nothing has it, the page is not in any TLB */
    t_model_probe("model_first_touch_dram", 0xe,
                  EV_RET | EV_L1D | EV_L1D_REFILL | EV_TLB | EV_TLB_WALK |
                  EV_LLC | EV_LLC_MISS | EV_L2D | EV_L2D_MISS,
                  1 + 30 + 180, 30);
    /* The same line again: L1 hit, L1 TLB hit */
    t_model_probe("model_second_touch_l1", 0x0,
                  EV_RET | EV_L1D | EV_TLB, 1 + 1 + 4, 1);
    /*
     * 16 KiB fits L1: after the first of 64 passes every load hits it.
     * 512 KiB fits L2 but not L1: passes 2 and 3 hit L2 (1 + 1 + 11: the
     * 64 loads of a page after its first hit the L1 TLB). 16 MiB is
     * twice the LLC: with LRU every load of every pass misses it.
     */
    t_model_sweep("model_sweep_16k_l1", 16 << 10, 64, 0x100, 0x0, 6, 0, 85);
    t_model_sweep("model_sweep_512k_l2", 512 << 10, 3, 0x100, 0x8, 13,
                  EV_L2D, 55);
    t_model_sweep("model_sweep_16m_dram", 16 << 20, 2, 0x1000, 0xe, 182,
                  EV_L2D | EV_L2D_MISS, 95);
    t_model_sets();
    t_model_branches();
    t_model_peer();
    t_model_recent("model_recent_dram", SWEEP + (24 << 20), 1 << 20, 0, 0,
                   0, 1, 90, 100);
    t_model_recent("model_recent_dram_two", SWEEP + (20 << 20), 512 << 10,
                   1, 0, 0, 1, 90, 100);
    t_model_recent("model_recent_l2", SWEEP + (26 << 20), 512 << 10, 0, 0,
                   1, 1, 10, 90);
    t_model_recent("model_recent_l1_none", SWEEP + (28 << 20), 16 << 10, 0,
                   0, 2, 32, 0, 0);
    t_model_recent("model_recent_stores_none", SWEEP + (30 << 20), 1 << 20,
                   0, 1, 0, 1, 0, 0);
    t_model_recent_tb("model_recent_tb_near", e22_tb_near, 100 + 18,
                      SWEEP + (31 << 20), EV_RECENT);
    t_model_recent_tb("model_recent_tb_far", e22_tb_far, 300 + 18,
                      SWEEP + (31 << 20) + (64 << 10), 0);
    t_model_recent_tb("model_recent_tb_late", e22_tb_late, 300 + 18,
                      SWEEP + (31 << 20) + (128 << 10), EV_RECENT);
    t_model_recent_tb("model_recent_pmsicr_written", e22_pmsicr, 20,
                      SWEEP + (31 << 20) + (192 << 10), 0);
    t_model_recent_tb("model_recent_profiling_off", e22_off, 20,
                      SWEEP + (31 << 20) + (256 << 10), 0);
}

#endif

#if defined(MODE_UNPRIV)
/*
 * LDTR, STTR and SET*T at EL1 are made with EL0's permissions
 * (AccType_UNPRIV),
 * so with PSTATE.PAN set they reach a user page that LDR and STR at EL1
 * cannot. The physical address packet (D18.2.1 INDEX 3, collected per
 * CollectPhysicalAddress()) is the address that access translated to:
 * with the identity map, the VA.
 */
static void unpriv_pa(const char *n, probe_fn *fn, uint64_t off, int pan,
                      uint64_t val)
{
    uint64_t lim, end;
    Pkt k;

    if (pan) {
        __asm__ volatile(".arch_extension pan\n msr pan, #1" ::: "memory");
    } else {
        __asm__ volatile(".arch_extension pan\n msr pan, #0" ::: "memory");
    }
    lim = probe_setup(2 | (1 << 4));        /* E1SPE, PA */
    fn(lim, DATA, val);
    end = RD(PMBPTR_EL1);
    __asm__ volatile(".arch_extension pan\n msr pan, #0" ::: "memory");
    k = find_pkt(BUF_BASE, end, 0xb2, 0xff);
    CHECK_EQ(n, "data VA packet", k.found, 1);
    CHECK_EQ(n, "data VA", k.payload & ((1ULL << 56) - 1), DATA + off);
    k = find_pkt(BUF_BASE, end, 0xb3, 0xff);
    CHECK_EQ(n, "PA packet", k.found, 1);
    CHECK_EQ(n, "PA", k.payload, (DATA + off) | (1ULL << 63));
    result(n, 1, "", 0, 0);
    spe_reset_regs();
}

/*
 * FEAT_MOPS: CPYPWT reads privileged and writes unprivileged. From EL1
 * with PAN set, from DATA + 4096 (an EL1 page) to DATA (an EL0 page),
 * both accesses succeed, and so does each part's translation with its
 * own permissions: the load part's at EL1 (PAN does not apply to an EL1
 * page), the store part's as EL0. Two samples are one of each part
 * (t_mops()).
 */
static void unpriv_cpy(void)
{
    const char *n = "unpriv_cpypwt_parts_pa_with_pan";
    uint64_t lim, end, va;
    int i, seen = 0;
    Pkt k;

    for (i = 0; i < 2; i++) {
        __asm__ volatile(".arch_extension pan\n msr pan, #1" ::: "memory");
        lim = probe_setup(2 | (1 << 4));    /* E1SPE, PA */
        op_cpypwt(lim, DATA, 64);
        end = RD(PMBPTR_EL1);
        __asm__ volatile(".arch_extension pan\n msr pan, #0" ::: "memory");
        k = find_pkt(BUF_BASE, end, 0xb2, 0xff);
        CHECK_EQ(n, "data VA packet", k.found, 1);
        va = k.payload & ((1ULL << 56) - 1);
        CHECK(n, va == DATA || va == DATA + 4096,
              "data VA (source or destination)", va, DATA);
        seen |= va == DATA ? 1 : 2;
        k = find_pkt(BUF_BASE, end, 0xb3, 0xff);
        CHECK_EQ(n, "PA packet", k.found, 1);
        CHECK_EQ(n, "PA", k.payload, va | (1ULL << 63));
    }
    CHECK_EQ(n, "parts (1 the store, 2 the load)", seen, 3);
    result(n, 1, "", 0, 0);
    spe_reset_regs();
}

static void t_unpriv(void)
{
    unpriv_pa("unpriv_ldtr_pa_with_pan", op_ldtr, 8, 1, 0);
    unpriv_pa("unpriv_sttr_pa_with_pan", op_sttr, 16, 1, 0);
    unpriv_pa("unpriv_ldtr_pa_without_pan", op_ldtr, 8, 0, 0);
    /* FEAT_MOPS: SETPT, the prologue of an unprivileged Memory Set */
    unpriv_pa("unpriv_setpt_pa_with_pan", op_setpt, 0, 1, 64);
    unpriv_cpy();
}
#endif

#if defined(MODE_MTE)
/*
 * FEAT_MTE2 (the virt board's mte=on): D18.2.1's physical address
 * packet has CH (byte 7 bit 6) set when the sampled access was checked
 * against an Allocation Tag in memory and PAT (byte 7 bits [3:0]) the
 * tag it was checked against. Which accesses are Tag Checked is the
 * Arm ARM's (the instructions' tagchecked, AArch64.AccessIsTagChecked()),
 * but for two forms where QEMU's translator differs and the record
 * follows what it did (below): not those based on SP with an immediate
 * offset and no writeback, nor literal loads, nor Allocation Tag loads,
 * nor Memory Set with tags (SETG*), nor any with PSTATE.TCO set,
 * with TCR_ELx.TCMA and a pointer tag of 0, or to memory that is not
 * Tagged. For an unchecked access PAT is 0 (D18.2.1 permits 0 or the
 * tag); with SCTLR_EL1.TCF 0b00 (Tag Check Faults ignored) CH is an
 * IMPLEMENTATION DEFINED choice: the model's is 0 (emulation.rst).
 */
#define ID_AA64PFR1_MTE(v)  (((v) >> 8) & 0xf)
#define SCTLR_ATA           (1ULL << 43)
#define SCTLR_TCF_SYNC      (1ULL << 40)
#define TCR_TBI0            (1ULL << 37)
#define TCR_TCMA0           (1ULL << 57)

PROBE(op_mte_ldr_sp) PROBE(op_mte_ldr_sp_pre) PROBE(op_mte_ldr_sp_reg)
PROBE(op_mte_stp_sp_post) PROBE(op_mte_ld1d_sp) PROBE(op_mte_ldr_lit)
PROBE(op_mte_ldapur) PROBE(op_mte_setgp) PROBE(op_mte_setgm)
PROBE(op_mte_setge)
extern char op_ldrsw_lit_data[];
void mte_stg(uint64_t p);
void mte_tco(uint64_t on);

static const char *const mte_names[] = {
    "mte_ldr_checked", "mte_str_checked", "mte_ldr_sp_unchecked",
    "mte_ldr_sp_preindex_checked", "mte_ldr_sp_regoffset_checked",
    "mte_stp_sp_postindex_checked", "mte_sve_ld1d_sp_checked",
    "mte_ldg_unchecked", "mte_ldadd_checked", "mte_ldaxr_checked",
    "mte_ldapur_unchecked_as_qemu", "mte_setgp_unchecked",
    "mte_ldr_literal_unchecked",
    "mte_untagged_page_unchecked", "mte_tco_unchecked",
    "mte_tcma_unchecked", "mte_tcf_none_unchecked",
};

/*
 * The first cases of mte_names: @fn(base, @val) accesses TAG_PAGE + @at,
 * base being that less @off, tagged for it
 */
static const struct mte_case {
    probe_fn *fn;
    uint16_t at;
    uint8_t off, val, checked;
} mte_cases[] = {
    /* op_ldr: [X1, #8]; op_str: [X1, #16]; odd and even granules */
    { op_ldr, 0x38, 8, 0, 1 },
    { op_str, 0x60, 16, 5, 1 },
    /* SP: [SP, #8] unchecked; with writeback or a register, checked */
    { op_mte_ldr_sp, 0x88, 8, 0, 0 },
    { op_mte_ldr_sp_pre, 0x90, 16, 0, 1 },
    { op_mte_ldr_sp_reg, 0xa8, 0x18, 0x18, 1 },
    { op_mte_stp_sp_post, 0xc0, 0, 7, 1 },
    /*
     * SVE contiguous, 256-bit vectors: [SP, #1, MUL VL] is SP + 32. The
     * Arm ARM's scalar-plus-immediate forms are unchecked with SP (n !=
     * 31); QEMU checks them whatever the base, and the record says what
     * QEMU did (emulation.rst)
     */
    { op_mte_ld1d_sp, 2048 + 0x60, 32, 0, 1 },
    /* op_ldg: LDG [X1, #16], an Allocation Tag load */
    { op_ldg, 0x110, 16, 0, 0 },
    /* LDADD X2, X3, [X1] and LDAXR X3, [X1]: checked (n != 31) */
    { op_ldadd, 0x180, 0, 1, 1 },
    { op_ldaxr, 0x1a0, 0, 0, 1 },
    /*
     * LDAPUR X3, [X1, #8]: checked by the Arm ARM (n != 31), not by
     * QEMU's translator: the record follows QEMU (emulation.rst)
     */
    { op_mte_ldapur, 0x1c8, 8, 0, 0 },
    /* SETGP [X1]!, X2!, X3 (16 bytes): sets the tags, unchecked */
    { op_mte_setgp, 0x1e0, 0, 16, 0 },
};

/*
 * The Allocation Tag this program stores for @addr in TAG_PAGE: 1-15 by
 * 16-byte granule in the first half (neighbours differ: a wrong nibble
 * of tag memory shows), by 64-byte line in the second (SVE's 32 bytes)
 */
static unsigned mte_tag(uint64_t addr)
{
    uint64_t off = (addr & ((1ULL << 56) - 1)) - TAG_PAGE;

    return 1 + (off < 2048 ? off >> 4 : off >> 6) % 15;
}

/* @va - @off tagged for @va: the base a probe adds @off to */
static uint64_t mte_base(uint64_t va, uint64_t off)
{
    return (va - off) | ((uint64_t)mte_tag(va) << 56);
}

/* Sample @fn(@base, @val), whose access is at @va: its PA packet */
static void mte_pa(const char *n, probe_fn *fn, uint64_t base, uint64_t val,
                   uint64_t va, int checked)
{
    uint64_t end, pa = va & ((1ULL << 56) - 1);
    Pkt k;

    fn(probe_setup(2 | (1 << 4)), base, val);       /* E1SPE, PA */
    end = RD(PMBPTR_EL1);
    k = find_pkt(BUF_BASE, end, 0xb3, 0xff);
    CHECK_EQ(n, "PA packet", k.found, 1);
    /* NS 1, CH, NSE and byte 7 bit 5 0, PAT */
    CHECK_EQ(n, "PA payload", k.payload,
             pa | (1ULL << 63) | ((uint64_t)checked << 62) |
             (checked ? (uint64_t)mte_tag(pa) << 56 : 0));
    result(n, 1, "", 0, 0);
    spe_reset_regs();
}

static void t_mte(void)
{
    const char *const *n = mte_names;
    uint64_t a, tcr = RD(tcr_el1), sctlr = RD(sctlr_el1);
    unsigned i;

    if (ID_AA64PFR1_MTE(RD(ID_AA64PFR1)) < 2) {
        skip_all(mte_names, ARRAY_LEN(mte_names),
                 "no FEAT_MTE2 (the virt board gives it with mte=on)");
        return;
    }
    WR(tcr_el1, tcr | TCR_TBI0);
    TLBI_VMALLE1();
    WR(sctlr_el1, sctlr | SCTLR_ATA | SCTLR_TCF_SYNC);
    mte_tco(0);
    ISB();
    for (a = TAG_PAGE; a < TAG_PAGE + 4096; a += 16) {
        mte_stg(a | ((uint64_t)mte_tag(a) << 56));
    }
    DSB();

    WR(CPACR_EL1, RD(CPACR_EL1) | (3 << 16) | (3 << 20));  /* ZEN, FPEN */
    ISB();
    WR(ZCR_EL1, 1);                                         /* 256 bits */
    ISB();
    for (i = 0; i < ARRAY_LEN(mte_cases); i++) {
        const struct mte_case *t = &mte_cases[i];

        a = TAG_PAGE + t->at;
        mte_pa(n[i], t->fn, mte_base(a, t->off), t->val, a, t->checked);
    }
    /* a literal load of Tagged memory (tag 0, as all but TAG_PAGE) */
    mte_pa(n[i++], op_mte_ldr_lit, 0, 0, (uint64_t)op_ldrsw_lit_data, 0);
    /* the DATA page is Normal, not Tagged */
    mte_pa(n[i++], op_ldr, DATA | (3ULL << 56), 0, DATA + 8, 0);
    /* PSTATE.TCO: Tag Check Override */
    a = TAG_PAGE + 0x128;
    mte_tco(1);
    mte_pa(n[i++], op_ldr, mte_base(a, 8), 0, a, 0);
    mte_tco(0);
    /* TCMA0 and a pointer tag of 0 (the granule's is not) */
    WR(tcr_el1, tcr | TCR_TBI0 | TCR_TCMA0);
    TLBI_VMALLE1();
    a = TAG_PAGE + 0x148;
    mte_pa(n[i++], op_ldr, a - 8, 0, a, 0);
    WR(tcr_el1, tcr | TCR_TBI0);
    TLBI_VMALLE1();
    /* SCTLR_EL1.TCF 0b00: no Tag Check Fault, the model reports CH 0 */
    WR(sctlr_el1, sctlr | SCTLR_ATA);
    ISB();
    a = TAG_PAGE + 0x168;
    mte_pa(n[i], op_ldr, mte_base(a, 8), 0, a, 0);
    WR(sctlr_el1, sctlr);
    WR(tcr_el1, tcr);
    TLBI_VMALLE1();
}

/*
 * FEAT_MOPS Memory Set with tags, SETGP/SETGM/SETGE (FEAT_MTE): they set
 * the Allocation Tags of the granules as well as the bytes, but D18.2.7
 * has one Memory Set encoding, 0b00100101 "a store from a Memory Set
 * operation", and no distinct one for SETG*: a Memory Set store, as for
 * SET*. Not an Allocation Tag store (0b0001010x is for "a load/store of
 * an Allocation Tag or multiple Allocation Tags", the MTE tag
 * instructions): the Memory Set subclass is the one defined for MOPS.
 * The address is where the form goes on from (mops_epilogue above, the
 * prologue's at Xd), 16-byte aligned and a multiple of 16 bytes as
 * SETG* need; with TCR_EL1.TBI0 D18.2.1's data virtual address includes
 * the top-byte tag, the pointer's here (3).
 */
static const char *const mte_setg_names[] = {
    "mte_setgp_memory_set_tagged_va", "mte_setgm_address_in_progress",
    "mte_setge_address_in_progress",
};

#define SETG_TAG        (3ULL << 56)
#define SETG_DST        ((DATA + 0x40) | SETG_TAG)
#define SETG_SIZE       0x2100

/* Sample @fn's SETG* (@later: a main or an epilogue, mops_regs) */
static void mte_setg(const char *n, probe_fn *fn, int later)
{
    uint64_t end = probe_run(fn, SETG_DST, SETG_SIZE), want = SETG_DST;
    Pkt op, va;

    if (later) {
        if (!mops_regs_fwd_ok(n, SETG_DST + SETG_SIZE, 0, SETG_SIZE)) {
            return;
        }
        want = mops_regs[0] + mops_regs[2];
    }
    op = find_pkt(BUF_BASE, end, 0x48, 0xfc);
    va = find_pkt(BUF_BASE, end, 0xb2, 0xff);
    CHECK_EQ(n, "record size", end - BUF_BASE, RECORD_SIZE);
    CHECK_EQ(n, "OpType header (Load/store)", op.hdr, 0x49);
    CHECK_EQ(n, "Memory Set subclass", op.payload, 0x25);
    CHECK_EQ(n, "data VA present", va.found, 1);
    CHECK_EQ(n, "data VA, with the tag", va.payload, want);
    result(n, 1, "", 0, 0);
    spe_reset_regs();
}

static void t_mte_setg(void)
{
    const char *const *n = mte_setg_names;
    uint64_t tcr = RD(tcr_el1), sctlr = RD(sctlr_el1);

    if (ID_AA64PFR1_MTE(RD(ID_AA64PFR1)) < 2) {
        skip_all(mte_setg_names, ARRAY_LEN(mte_setg_names),
                 "no FEAT_MTE2 (the virt board gives it with mte=on)");
        return;
    }
    /* TBI0 for the tagged pointer, ATA for the tags SETG* sets */
    WR(tcr_el1, tcr | TCR_TBI0);
    TLBI_VMALLE1();
    WR(sctlr_el1, sctlr | SCTLR_ATA);
    ISB();
    mte_setg(n[0], op_mte_setgp, 0);
    mte_setg(n[1], op_mte_setgm, 1);
    mte_setg(n[2], op_mte_setge, 1);
    WR(sctlr_el1, sctlr);
    WR(tcr_el1, tcr);
    TLBI_VMALLE1();
}
#endif

#if defined(MODE_SME)
/*
 * FEAT_SPE_SME (spe-sme=on, SPE_SME=1; run.sh runs the mode without it
 * too), with a 512-bit streaming vector length (SMCR_EL1.LEN = 3).
 * PMSIDR_EL1.SME is bit 32 (the Arm ARM's register description, as
 * Linux's arch/arm64/tools/sysreg has it). D18.2.7 Data processing, SME
 * array: SUBCLASS 0b1 ETS[3:1] 1 ETS[0] FP 0, ETS = log2(bits) - 7 of
 * what the operation does to ZA: FMOPA into ZA0.S a tile of (512 / 32)^2
 * words, 8192 bits, ETS 0b0110, FP; SMOPA into ZA1.D (512 / 64)^2
 * doublewords, 4096 bits, 0b0101; ADDHA into ZA2.S 0b0110; MOVA of one
 * vector into a slice 512 bits, 0b0010; ZERO {ZA} the whole array,
 * 0b1111. D18.2.6 E[24] for an operation in Streaming SVE mode (a scalar
 * ADD too), E[25] (executed on an SMCU, IMPLEMENTATION DEFINED: the
 * model's SMCU runs the SME array operations and, in Streaming SVE mode,
 * the SVE and SME vector operations and loads/stores). Without
 * FEAT_SPE_SME: Other with no subclass bits, and neither event.
 */
#ifndef SPE_SME
#define SPE_SME 1
#endif
#define SPE_SUB_SME(ets, fp) \
    (0x88 | (((ets) >> 1) << 4) | (((ets) & 1) << 2) | ((fp) << 1))
#define EV_SM   (1ULL << 24)
#define EV_SMCU (1ULL << 25)

PROBE(op_sme_fmopa_s) PROBE(op_sme_smopa_d) PROBE(op_sme_addha_s)
PROBE(op_sme_mova) PROBE(op_sme_zero) PROBE(op_sme_add_sm)
PROBE(op_sme_sve_add_sm) PROBE(op_sme_ldr_za_nsm) PROBE(op_sme_ld2d_sm)
PROBE(op_sme_luti2_x2)
PROBE(op_sme2_fmla_vgx2) PROBE(op_sme2_smlall_vgx4) PROBE(op_sme2_fmlal_single)
PROBE(op_sme2_mova_vgx2) PROBE(op_sme2_bmopa) PROBE(op_sme2_fmopa_h)
PROBE(op_sme2_fclamp_x2) PROBE(op_sme2_zero_vgx4)

static const struct sme_case {
    const char *name;
    probe_fn *fn;
    uint8_t hdr, sub, sub_off;  /* sub_off: the subclass without SPE_SME */
    uint64_t ev;                /* E[25:24] with it */
} sme_cases[] = {
    { "sme_fmopa_tile_s_fp", op_sme_fmopa_s, 0x48, SPE_SUB_SME(6, 1), 0,
      EV_SM | EV_SMCU },
    { "sme_smopa_tile_d", op_sme_smopa_d, 0x48, SPE_SUB_SME(5, 0), 0,
      EV_SM | EV_SMCU },
    { "sme_addha_tile_s", op_sme_addha_s, 0x48, SPE_SUB_SME(6, 0), 0,
      EV_SM | EV_SMCU },
    { "sme_mova_vector", op_sme_mova, 0x48, SPE_SUB_SME(2, 0), 0,
      EV_SM | EV_SMCU },
    /* SMSTART ZA: ZA on, not in Streaming SVE mode */
    { "sme_zero_whole_za", op_sme_zero, 0x48, SPE_SUB_SME(15, 0), 0,
      EV_SMCU },
    { "sme_scalar_add_streaming", op_sme_add_sm, 0x48, 0, 0, EV_SM },
    /* SVE vector 0b0 EVL 1 PRED FP 0, EVL 0b100: the 512-bit SVL */
    { "sme_sve_add_streaming", op_sme_sve_add_sm, 0x48, 0x48, 0x48,
      EV_SM | EV_SMCU },
    { "sme_ldr_za_not_streaming", op_sme_ldr_za_nsm, 0x49, 0x48, 0x48, 0 },
    { "sme_scalar_add_not_streaming", op_add, 0x48, 0, 0, 0 },
    /*
     * LD2D of two vectors: 0b0 EVL 1 PRED 0 LDST, EVL of both vectors
     * with FEAT_SPE_SME (1024 bits, 0b101), of one without (0b100)
     */
    { "sme_sve_ld2d_evl_streaming", op_sme_ld2d_sm, 0x49, 0x5c, 0x4c,
      EV_SM | EV_SMCU },
};

/*
 * SME2 (10.2's -cpu max), SVL 512 bits. LUTI2 of two vectors: SVE
 * vector data processing of a multi-vector result, EVL of both (D18.2.7:
 * 1024 bits, 0b101) with or without FEAT_SPE_SME. D18.2.7 ETS of a multi-vector
 * operation: the elements of each vector times the vectors times the
 * element size, the output's; so all the ZA vectors it writes, 512 bits
 * each: FMLA VGx2 2 (1024 bits, 0b0011, FP); SMLALL VGx4, 4-way
 * widening, 4 groups of 4 (8192 bits, 0b0110); FMLAL single, 2-way, 2
 * (0b0011, FP); MOVA to { Z0.D, Z1.D } from 2 (0b0011); ZERO of 4
 * groups of 4 (0b0110). Tiles: BMOPA into ZA0.S (512 / 32)^2 words
 * (8192 bits, 0b0110); FMOPA into ZA0.H (512 / 16)^2 halfwords (16384
 * bits, 0b0111, FP). FCLAMP of two Z vectors: Data processing, SVE
 * vector (0b0 EVL 1 PRED FP 0) with the EVL of both, 1024 bits, 0b101,
 * with or without FEAT_SPE_SME (a multi-vector SIMD operation's).
 */
static const struct sme_case sme2_cases[] = {
    { "sme_luti2_two_vectors_evl", op_sme_luti2_x2, 0x48, 0x58, 0x58,
      EV_SM | EV_SMCU },
    { "sme2_fmla_vgx2_two_vectors", op_sme2_fmla_vgx2, 0x48,
      SPE_SUB_SME(3, 1), 0, EV_SM | EV_SMCU },
    { "sme2_smlall_vgx4_sixteen_vectors", op_sme2_smlall_vgx4, 0x48,
      SPE_SUB_SME(6, 0), 0, EV_SM | EV_SMCU },
    { "sme2_fmlal_single_two_vectors", op_sme2_fmlal_single, 0x48,
      SPE_SUB_SME(3, 1), 0, EV_SM | EV_SMCU },
    { "sme2_mova_from_two_array_vectors", op_sme2_mova_vgx2, 0x48,
      SPE_SUB_SME(3, 0), 0, EV_SM | EV_SMCU },
    { "sme2_bmopa_tile_s", op_sme2_bmopa, 0x48, SPE_SUB_SME(6, 0), 0,
      EV_SM | EV_SMCU },
    { "sme2_fmopa_tile_h_fp", op_sme2_fmopa_h, 0x48, SPE_SUB_SME(7, 1), 0,
      EV_SM | EV_SMCU },
    { "sme2_fclamp_two_vectors_evl", op_sme2_fclamp_x2, 0x48, 0x5a, 0x5a,
      EV_SM | EV_SMCU },
    { "sme2_zero_vgx4_sixteen_vectors", op_sme2_zero_vgx4, 0x48,
      SPE_SUB_SME(6, 0), 0, EV_SM | EV_SMCU },
};

/* Records @fn makes with PMSFCR_EL1.FE and PMSEVFR_EL1 = @evfr */
static __attribute__((unused)) uint64_t sme_filtered(probe_fn *fn,
                                                    uint64_t evfr)
{
    uint64_t lim = probe_setup(2), end;

    WR(PMSFCR_EL1, 1);                      /* FE */
    WR(PMSEVFR_EL1, evfr);
    ISB();
    fn(lim, DATA, 0);
    end = RD(PMBPTR_EL1);
    SMSTOP();
    spe_reset_regs();
    return (end - BUF_BASE) / RECORD_SIZE;
}

/* Run one case of sme_cases and check its record */
static void sme_case(const struct sme_case *t)
{
    const char *n = t->name;
    uint64_t end = probe_run(t->fn, DATA, 0), ev;
    Pkt k;

    SMSTOP();
    k = find_pkt(BUF_BASE, end, 0x48, 0xfc);
    CHECK_EQ(n, "OpType header", k.hdr, t->hdr);
    CHECK_EQ(n, "OpType payload", k.payload, SPE_SME ? t->sub : t->sub_off);
    /* Events, 16- or 32-bit (D18.2.6 SZ): E[1] retired */
    k = find_pkt(BUF_BASE, end, 0x42, 0xcf);
    ev = k.payload;
    CHECK_EQ(n, "retired", (ev >> 1) & 1, 1);
    CHECK_EQ(n, "E[25:24]", ev & (EV_SM | EV_SMCU), SPE_SME ? t->ev : 0);
    result(n, 1, "", 0, 0);
}

static void t_sme(void)
{
    const char *n = "sme_pmsidr_sme";
    unsigned i;

    result(n, ((RD(PMSIDR_EL1) >> 32) & 1) == SPE_SME, "PMSIDR_EL1.SME",
           (RD(PMSIDR_EL1) >> 32) & 1, SPE_SME);
    WR(CPACR_EL1, RD(CPACR_EL1) | (3 << 24) | (3 << 16) | (3 << 20));
    ISB();
    WR(SMCR_EL1, 3);
    ISB();
    for (i = 0; i < ARRAY_LEN(sme_cases); i++) {
        sme_case(&sme_cases[i]);
        spe_reset_regs();
    }

    /* SME2's cases, ZT0 enabled (SMCR_EL1.EZT0) for LUTI2 */
    if (((RD(S3_0_C0_C4_5) >> 56) & 0xf) < 1) {     /* ID_AA64SMFR0.SMEver */
        for (i = 0; i < ARRAY_LEN(sme2_cases); i++) {
            skip(sme2_cases[i].name,
                 "no SME2 on this -cpu max (QEMU 10.0 has none)");
        }
    } else {
        WR(SMCR_EL1, RD(SMCR_EL1) | (1ULL << 30));
        ISB();
        for (i = 0; i < ARRAY_LEN(sme2_cases); i++) {
            sme_case(&sme2_cases[i]);
            spe_reset_regs();
        }
    }

    /* PMSEVFR_EL1.E[25:24]: filterable with FEAT_SPE_SME, else RES0 */
    WR(PMSEVFR_EL1, EV_SM | EV_SMCU | 2);
    result("sme_pmsevfr_e25_e24", (RD(PMSEVFR_EL1) & (EV_SM | EV_SMCU)) ==
           (SPE_SME ? EV_SM | EV_SMCU : 0), "PMSEVFR_EL1",
           RD(PMSEVFR_EL1), SPE_SME ? EV_SM | EV_SMCU | 2 : 2);
    spe_reset_regs();
#if SPE_SME
    /* E[24] and retired selected: the ADD in Streaming SVE mode only */
    n = "sme_filter_e24_streaming_only";
    CHECK_EQ(n, "records outside Streaming SVE mode",
             sme_filtered(op_add, EV_SM | 2), 0);
    CHECK_EQ(n, "records in Streaming SVE mode",
             sme_filtered(op_sme_add_sm, EV_SM | 2), 1);
    result(n, 1, "", 0, 0);
#endif
}
#endif

#if defined(MODE_EL0)
/* el0.S */
uint64_t run_el0(void (*fn)(uint64_t), uint64_t arg);
void el0_spin(uint64_t iters);
extern char el0_spin_end[];
void el0_udf(uint64_t unused);
void el0_store_ro(uint64_t addr);
void el0_trap(uint64_t unused);
void el0_bti(uint64_t unused);
extern char el0_udf_op[], el0_store_ro_op[], el0_trap_op[], el0_bti_op[];

#define PMSCR_E0SPE (1ULL << 0)
#define PMSCR_E1SPE (1ULL << 1)
#define PMSCR_CX    (1ULL << 3)
#define PMSCR_TS    (1ULL << 5)
#define EL0_CONTEXT 0x5a5aULL

/* Back from EL0: the architected stop; PMBPTR_EL1, the records' end */
static uint64_t el0_profiling_stop(void)
{
    strict_stop();
    return RD(PMBPTR_EL1);
}

/*
 * Sample el0_spin() at EL0 with PMSCR_EL1 = @pmscr and count the records
 * (64 bytes each, RECORD_SIZE) by the PC packet's EL, bits [62:61]
 * (D18.2.1), and whether its PC is in el0_spin(); *ctx_ok: each EL0
 * record has CONTEXTIDR_EL1 in a Context packet. Returns ESR_EL1 of the
 * exception that ended the EL0 run.
 */
static uint64_t el0_sample(uint64_t pmscr, int *el0, int *el1, int *in_spin,
                           int *ctx_ok)
{
    uint64_t esr, end, r;

    spe_reset_regs();
    clear_buf(BUF_BASE, BUF_LIMIT - BUF_BASE);
    WR(CONTEXTIDR, EL0_CONTEXT);
    WR(PMBPTR_EL1, BUF_BASE);
    WR(PMSIRR_EL1, 0x100);
    WR(PMSCR_EL1, pmscr);
    WR(PMBLIMITR_EL1, BUF_LIMIT | 1);
    ISB();
    esr = run_el0(el0_spin, 3000);
    end = el0_profiling_stop();
    *el0 = *el1 = *in_spin = 0;
    *ctx_ok = 1;
    for (r = BUF_BASE; r + RECORD_SIZE <= end; r += RECORD_SIZE) {
        Pkt pc = find_pkt(r, r + RECORD_SIZE, 0xb0, 0xff);
        Pkt cx = find_pkt(r, r + RECORD_SIZE, 0x64, 0xff);
        uint64_t va = pc.payload & ((1ULL << 56) - 1);

        if (!pc.found) {
            continue;
        }
        if (((pc.payload >> 61) & 3) == 0) {
            (*el0)++;
            if (!cx.found || cx.payload != EL0_CONTEXT) {
                *ctx_ok = 0;
            }
        } else {
            (*el1)++;
        }
        *in_spin += va >= (uint64_t)el0_spin && va < (uint64_t)el0_spin_end;
    }
    spe_reset_regs();
    return esr;
}

static void t_el0(void)
{
    const char *n = "el0_sampled_with_e0spe";
    int el0, el1, in_spin, ctx_ok;
    uint64_t esr;

    /* 9000 operations at EL0, interval 256: about 35 records */
    esr = el0_sample(PMSCR_E0SPE | PMSCR_CX | PMSCR_TS, &el0, &el1, &in_spin,
                     &ctx_ok);
    /* ESR_EL1.EC 0x15: SVC from AArch64, the end of el0_spin() */
    CHECK_EQ(n, "ESR_EL1.EC of the return", esr >> 26, 0x15);
    CHECK(n, el0 >= 30, "EL0 records", el0, 30);
    CHECK_EQ(n, "EL0 records with their PC in el0_spin", in_spin, el0);
    CHECK_EQ(n, "EL1 records (E1SPE = 0)", el1, 0);
    CHECK_EQ(n, "CONTEXTIDR_EL1 in each EL0 record", ctx_ok, 1);
    result(n, 1, "", 0, 0);

    n = "el0_not_sampled_with_e1spe_only";
    esr = el0_sample(PMSCR_E1SPE | PMSCR_CX | PMSCR_TS, &el0, &el1, &in_spin,
                     &ctx_ok);
    CHECK_EQ(n, "ESR_EL1.EC of the return", esr >> 26, 0x15);
    CHECK_EQ(n, "EL0 records", el0, 0);
    CHECK_EQ(n, "records with their PC in el0_spin", in_spin, 0);
    result(n, 1, "", 0, 0);
}

/*
 * An EL0 operation that takes a synchronous exception (el0.S: el0_udf,
 * el0_store_ro: the fifth operation faults, 21 more follow it in the
 * same straight line). Profiling at EL0 only (E0SPE), PMSIRR_EL1 =
 * INTERVAL 256, PMSICR_EL1 = @icr: the exception is taken to EL1, where
 * nothing is counted, and ends the EL0 run. *icr_out: PMSICR_EL1 read
 * at EL1 afterwards; returns the end of the records (PMBPTR_EL1), *esr
 * the exception's ESR_EL1.
 */
#define SCTLR_UCT       (1ULL << 15)

static uint64_t el0_fault_run(void (*fn)(uint64_t), uint64_t icr,
                              uint64_t *icr_out, uint64_t *esr)
{
    uint64_t end, sctlr = RD(sctlr_el1);

    spe_reset_regs();
    clear_buf(BUF_BASE, 4096);
    WR(PMBPTR_EL1, BUF_BASE);
    WR(PMSIRR_EL1, 0x100);
    WR(PMSICR_EL1, icr);
    WR(PMSCR_EL1, PMSCR_E0SPE);
    WR(PMBLIMITR_EL1, BUF_LIMIT | 1);
    WR(sctlr_el1, sctlr & ~SCTLR_UCT);  /* EL0 reads of CTR_EL0 trapped */
    ISB();
    *esr = run_el0(fn, (uint64_t)el0_udf);
    WR(sctlr_el1, sctlr);
    end = el0_profiling_stop();
    *icr_out = RD(PMSICR_EL1);
    spe_reset_regs();
    return end;
}

#define ESR_EC_UNKNOWN  0x00    /* UNDEFINED */
#define ESR_EC_BTI      0x0d    /* Branch Target exception */
#define ESR_EC_SYSREG   0x18    /* trapped MSR, MRS or System instruction */
#define ESR_EC_DABT_LOW 0x24    /* Data Abort from a lower EL */

/*
 * The interval counter counts the operations executed (3.1.2: one
 * decrement per member of the population): the 4 NOPs and the faulting
 * operation, which completed with a synchronous exception and so retired
 * (D18.2.6, E[1]), not the 21 after it, which never executed. COUNT
 * 1000 - 5, no record.
 */
static void el0_fault_counted(const char *n, void (*fn)(uint64_t),
                              uint64_t ec)
{
    uint64_t icr, esr, end = el0_fault_run(fn, 1000, &icr, &esr);

    CHECK_EQ(n, "ESR_EL1.EC", esr >> 26, ec);
    CHECK_EQ(n, "records", (end - BUF_BASE) / RECORD_SIZE, 0);
    CHECK_EQ(n, "PMSICR_EL1 (1000 - 5 operations)", icr, 995);
    result(n, 1, "", 0, 0);
}

/*
 * PMSICR_EL1 = 4: the fifth operation finds COUNT zero and is sampled
 * (3.1.2); COUNT is reloaded with INTERVAL, 256, and nothing after it is
 * counted. Its record: PC @op at EL0 (D18.2.1), E[1] retired and E[0]
 * "Completed with a synchronous exception" (D18.2.6); the store has its
 * data VA (address index 2) and is a store (D18.2.7 Load/store, bit 0).
 * PMSICR_EL1 = 3 (@before): the fourth operation (a NOP, el0_bti's BR),
 * the one before the faulting one, is sampled: E[1] only, and COUNT
 * reloaded to 256 then counts the faulting operation.
 */
static void el0_fault_sampled(const char *n, void (*fn)(uint64_t),
                              const char *op, int store, int before)
{
    uint64_t icr, esr, end = el0_fault_run(fn, before ? 3 : 4, &icr, &esr);
    Pkt pc = find_pkt(BUF_BASE, end, 0xb0, 0xff);
    Pkt ev = find_pkt(BUF_BASE, end, 0x42, 0xcf);
    Pkt va = find_pkt(BUF_BASE, end, 0xb2, 0xff);
    Pkt ty = find_pkt(BUF_BASE, end, 0x48, 0xfc);

    CHECK_EQ(n, "records", (end - BUF_BASE) / RECORD_SIZE, 1);
    CHECK_EQ(n, before ? "PC packet (the fourth operation)" : "PC packet",
             pc.payload & ((1ULL << 56) - 1), (uint64_t)op - 4 * before);
    CHECK_EQ(n, "Events E[1:0]", ev.payload & 3, before ? 2 : 3);
    CHECK_EQ(n, before ? "PMSICR_EL1 (256 less the faulting operation)" :
             "PMSICR_EL1 (reloaded, none counted after)", icr,
             before ? 255 : 256);
    if (store && !before) {
        CHECK_EQ(n, "Operation Type class", ty.hdr & 3, 1);
        CHECK_EQ(n, "Load/store: a store", ty.payload & 1, 1);
        CHECK_EQ(n, "data VA", va.payload & ((1ULL << 56) - 1),
                 (uint64_t)el0_udf);
    }
    result(n, 1, "", 0, 0);
}

static void t_el0_fault(void)
{
    /*
     * An UNDEFINED encoding ends its TB where it is translated, so the
     * rest of the TB is not counted with or without the give-back: this
     * one checks that the faulting operation is counted; the trap (an
     * access check at run time) and the abort check the give-back.
     */
    el0_fault_counted("el0_udf_counted", el0_udf, ESR_EC_UNKNOWN);
    el0_fault_counted("el0_trap_rest_of_tb_not_counted", el0_trap,
                      ESR_EC_SYSREG);
    el0_fault_counted("el0_abort_rest_of_tb_not_counted", el0_store_ro,
                      ESR_EC_DABT_LOW);
    el0_fault_sampled("el0_udf_sampled_e0", el0_udf, el0_udf_op, 0, 0);
    el0_fault_sampled("el0_trap_sampled_e0", el0_trap, el0_trap_op, 0, 0);
    el0_fault_sampled("el0_abort_sampled_e0", el0_store_ro, el0_store_ro_op,
                      1, 0);
    el0_fault_sampled("el0_before_udf_sampled_no_e0", el0_udf, el0_udf_op,
                      0, 1);
    el0_fault_sampled("el0_before_abort_sampled_no_e0", el0_store_ro,
                      el0_store_ro_op, 1, 1);
    /*
     * The Branch Target exception is taken at the first instruction of
     * its TB, at run time (guarded_page_check): the other 21 are left
     * unexecuted. The operation before it is the BR.
     */
    if (have_bti()) {
        el0_fault_counted("el0_bti_rest_of_tb_not_counted", el0_bti,
                          ESR_EC_BTI);
        el0_fault_sampled("el0_bti_sampled_e0", el0_bti, el0_bti_op, 0, 0);
        el0_fault_sampled("el0_before_bti_sampled_no_e0", el0_bti,
                          el0_bti_op, 0, 1);
    } else {
        static const char *const bti[] = {
            "el0_bti_rest_of_tb_not_counted", "el0_bti_sampled_e0",
            "el0_before_bti_sampled_no_e0",
        };

        skip_all(bti, ARRAY_LEN(bti), "no FEAT_BTI");
    }
}
#endif

#if defined(MODE_GCS)
/*
 * FEAT_GCS (QEMU 10.1 and later have it on -cpu max): D18.2.7 Load/store,
 * GCS (SUBCLASS 0b01000 COMM 0 LDST, FEAT_SPEv1p4) and the Branch GCS
 * bit, with GCS enabled at EL1 (GCSCR_EL1.PCRSEL) and without. Built
 * with GCS_PMSVER, the PMSVer run.sh asks for: before FEAT_SPEv1p4 (5)
 * the GCS subclass is not defined, so a GCS access is a general-purpose
 * load/store and the Branch GCS bit reads as zero.
 *
 * What the architecture says each does: GCSSTR stores Xt at Xn whether or
 * not GCS is enabled (it checks GCSCR_EL1.STREn only); GCSPUSHM stores at
 * GCSPR_EL1 - 8, GCSPOPM loads at GCSPR_EL1, and each is a NOP with GCS
 * disabled; BL pushes its return address and RET pops one when enabled.
 * Every GCS access is made with the GCS permission of the regime: the
 * GCS page is not writable by a plain store, so a PA packet for GCSSTR
 * means the PA came from the access's own (GCS) translation.
 */
typedef void gcs_probe_fn(uint64_t limitr, uint64_t addr, uint64_t val,
                          uint64_t gcscr);
#define GCS_PROBE(n) extern gcs_probe_fn n; extern char n##_target[];
GCS_PROBE(op_gcsstr) GCS_PROBE(op_gcspushm) GCS_PROBE(op_gcspopm)
GCS_PROBE(op_gcs_bl) GCS_PROBE(op_gcs_ret)

#define GCSCR_PCRSEL  (1ULL << 0)
#define GCSCR_PUSHMEN (1ULL << 8)
#define GCSCR_STREN   (1ULL << 9)
#define GCS_OFF       (GCSCR_PUSHMEN | GCSCR_STREN)
#define GCS_ON        (GCS_OFF | GCSCR_PCRSEL)
#define GCS_TOP       (GCS_PAGE + 0x1000)
#define GCS_V1P4      (GCS_PMSVER >= 5)

/* The SUBCLASS of a GCS load (0) or store (1), COMM = 1 */
#define GCS_SUB(st)   (GCS_V1P4 ? 0x44 | (st) : (st))
/* The Branch GCS bit when the branch accessed the GCS */
#define BR_GCS        (GCS_V1P4 ? 0x04 : 0)

static const char *const gcs_names[] = {
    "gcs_pmsver", "gcs_gcsstr", "gcs_gcsstr_disabled", "gcs_gcspushm",
    "gcs_gcspushm_disabled", "gcs_gcspopm", "gcs_bl", "gcs_bl_disabled",
    "gcs_ret", "gcs_ret_disabled",
};

/*
 * Test @n: probe @fn with GCSCR_EL1 = @gcscr samples one operation of
 * class header @hdr and SUBCLASS @sub; with @va, a data VA of @va and,
 * with @pa, its PA (the identity map). PMSCR_EL1.PA is set.
 */
static void gcs_probe(const char *n, gcs_probe_fn *fn, char *target,
                      uint64_t gcscr, uint8_t hdr, uint8_t sub, uint64_t va,
                      int pa)
{
    uint64_t end;
    Pkt k;

    WR(GCSPR_EL1, GCS_TOP);
    fn(probe_setup(2 | (1 << 4)), GCS_PAGE + 0x100, DATA, gcscr);
    end = RD(PMBPTR_EL1);
    k = find_pkt(BUF_BASE, end, 0xb0, 0xff);
    CHECK_EQ(n, "PC", k.payload & ((1ULL << 56) - 1), (uint64_t)target);
    if (optype_va_ok(n, end, hdr, sub, va, pa)) {
        result(n, 1, "", 0, 0);
    }
    spe_reset_regs();
}

static void t_gcs(void)
{
    const char *const *n = gcs_names;

    if (!have_gcs()) {
        skip_all(gcs_names, ARRAY_LEN(gcs_names), "no FEAT_GCS with "
                 "FEAT_S1PIE on this -cpu max (QEMU 10.0 has neither)");
        return;
    }
    result(n[0], ((RD(ID_AA64DFR0) >> 32) & 0xf) == GCS_PMSVER, "PMSVer",
           (RD(ID_AA64DFR0) >> 32) & 0xf, GCS_PMSVER);
    gcs_probe(n[1], op_gcsstr, op_gcsstr_target, GCS_ON, 0x49, GCS_SUB(1),
              GCS_PAGE + 0x100, 1);
    gcs_probe(n[2], op_gcsstr, op_gcsstr_target, GCS_OFF, 0x49, GCS_SUB(1),
              GCS_PAGE + 0x100, 1);
    gcs_probe(n[3], op_gcspushm, op_gcspushm_target, GCS_ON, 0x49,
              GCS_SUB(1), GCS_TOP - 8, 1);
    CHECK_EQ(n[3], "GCSPR_EL1 after the push", RD(GCSPR_EL1), GCS_TOP - 8);
    /* a NOP: Other, no subclass bits */
    gcs_probe(n[4], op_gcspushm, op_gcspushm_target, GCS_OFF, 0x48, 0, 0, 0);
    /* the setup pushed one entry, which GCSPOPM loads */
    gcs_probe(n[5], op_gcspopm, op_gcspopm_target, GCS_ON, 0x49, GCS_SUB(0),
              GCS_TOP - 8, 1);
    /* B and RET with no condition: IND 0 and 1; CR 0b00 without CRR */
    gcs_probe(n[6], op_gcs_bl, op_gcs_bl_target, GCS_ON, 0x4a, BR_GCS, 0, 0);
    gcs_probe(n[7], op_gcs_bl, op_gcs_bl_target, GCS_OFF, 0x4a, 0, 0, 0);
    gcs_probe(n[8], op_gcs_ret, op_gcs_ret_target, GCS_ON, 0x4a,
              0x02 | BR_GCS, 0, 0);
    gcs_probe(n[9], op_gcs_ret, op_gcs_ret_target, GCS_OFF, 0x4a, 0x02, 0, 0);
}
#endif

#if defined(MODE_LSE128)
/*
 * FEAT_LSE128 (QEMU 10.1 and later have it on -cpu max): LDCLRP, LDSETP
 * and SWPP are D18.2.7 Load/store, extended atomics that return a value:
 * 0b000 AR EXCL AT 1 LDST with AT = 1, LDST = 0, EXCL = 0, AR = 1 for
 * the acquire/release forms only; the data VA is Xn.
 */
PROBE(op_ldclrp) PROBE(op_ldsetp) PROBE(op_swpp) PROBE(op_swppal)

static const char *const lse128_names[] = {
    "lse128_ldclrp", "lse128_ldsetp", "lse128_swpp", "lse128_swppal",
};

static void lse128_probe(const char *n, probe_fn *fn, char *target,
                         uint8_t sub)
{
    uint64_t end = probe_run(fn, DATA, 5);
    Pkt k;

    k = find_pkt(BUF_BASE, end, 0xb0, 0xff);
    CHECK_EQ(n, "PC", k.payload & ((1ULL << 56) - 1), (uint64_t)target);
    if (optype_va_ok(n, end, 0x49, sub, DATA, 0)) {
        result(n, 1, "", 0, 0);
    }
    spe_reset_regs();
}

static void t_lse128(void)
{
    const char *const *n = lse128_names;

    /* ID_AA64ISAR0_EL1.Atomic 0b0011: FEAT_LSE128 */
    if (((RD(S3_0_C0_C6_0) >> 20) & 0xf) < 3) {
        skip_all(lse128_names, ARRAY_LEN(lse128_names),
                 "no FEAT_LSE128 on this -cpu max (QEMU 10.0 has none)");
        return;
    }
    lse128_probe(n[0], op_ldclrp, op_ldclrp_target, 0x06);
    lse128_probe(n[1], op_ldsetp, op_ldsetp_target, 0x06);
    lse128_probe(n[2], op_swpp, op_swpp_target, 0x06);
    lse128_probe(n[3], op_swppal, op_swppal_target, 0x16);
}
#endif

#if defined(MODE_MULTI)
/*
 * SME2's and SVE2p1's multi-vector contiguous loads and stores (QEMU
 * 10.1 and later have SVE2p1 on -cpu max), outside streaming mode, with a
 * 256-bit vector length: D18.2.7 Load/store, SVE, 0b0 EVL 1 PRED SG LDST
 * with EVL 0b011, PRED 1 (governed by a predicate-as-counter), SG 0. The
 * address: [Xn] is Xn, ST1W [Xn, #2, MUL VL] Xn + 2 * 32, LD1D
 * [Xn, Xm, LSL #3] with Xm = 1 Xn + 8. E[17] (some element FALSE) and
 * E[18] (all FALSE), D18.2.6, from the counter as the Arm ARM's
 * CounterToPredicate() expands it: PTRUE PN8.B makes all 64 bytes of two
 * vectors TRUE; WHILELO 0 to 3 (VLx2) only the first 3; PFALSE none;
 * PTRUE PN8.D only the first byte of each doubleword, so an LD1B has
 * FALSE elements; WHILELO PN9.D 0 to 5 (VLx4) 5 of 16 doublewords;
 * WHILELO PN8.B 0 to 121 (VLx4) under an LD1D of four vectors: 121 of
 * 128 bytes, but the first byte of each of the 16 doublewords (0, 8,
 * ... 120) is TRUE.
 */
PROBE(op_m_ld1b_true) PROBE(op_m_ld1b_partial) PROBE(op_m_ld1b_empty)
PROBE(op_m_ld1b_counter_d) PROBE(op_m_st1w_imm) PROBE(op_m_ld1d_partial)
PROBE(op_m_ld1d_byte_counter)

#define ID_AA64ZFR0   S3_0_C0_C4_4
#define EV_PARTIAL    (1ULL << 17)
#define EV_EMPTY      (1ULL << 18)
/*
 * SUBCLASS 0b0 EVL 1 1 0 LDST of 2^@nlog2 vectors of 2^@vlog2 bits: EVL
 * = log2(bits) - 5 of one vector, or with FEAT_SPE_SME (SPE_SME=1,
 * spe-sme=on) of all of them (D18.2.7 EVL), 0b111 beyond 2048 bits
 */
#ifndef SPE_SME
#define SPE_SME 0
#endif
#define MULTI_EVL(log2bits) ((log2bits) - 5 > 7 ? 7 : (log2bits) - 5)
#define MULTI_SUB(vlog2, nlog2, st) \
    ((MULTI_EVL((vlog2) + (SPE_SME ? (nlog2) : 0)) << 4) | 0x0c | (st))

PROBE(op_m_ld1b_x4)

static const char *const multi_names[] = {
    "multi_ld1b_all_true", "multi_ld1b_partial", "multi_ld1b_empty",
    "multi_ld1b_doubleword_counter", "multi_st1w_imm", "multi_ld1d_partial",
    "multi_ld1d_byte_counter", "multi_ld1b_four_2048_bit_vectors",
};

/* Test @n: @fn's record: SUBCLASS @sub, data VA @va, E[18:17] @ev */
static void multi_probe(const char *n, probe_fn *fn, uint8_t sub,
                        uint64_t va, uint64_t ev)
{
    uint64_t end = probe_run(fn, DATA, 0);
    Pkt k;

    if (!optype_va_ok(n, end, 0x49, sub, va, 0)) {
        spe_reset_regs();
        return;
    }
    k = find_pkt(BUF_BASE, end, 0x42, 0xcf);        /* any payload size */
    CHECK_EQ(n, "E[18:17]", k.payload & (EV_PARTIAL | EV_EMPTY), ev);
    result(n, 1, "", 0, 0);
    spe_reset_regs();
}

static void t_multi(void)
{
    const char *const *n = multi_names;

    /* ID_AA64ZFR0_EL1.SVEver 0b0010: FEAT_SVE2p1 */
    if ((RD(ID_AA64ZFR0) & 0xf) < 2) {
        skip_all(multi_names, ARRAY_LEN(multi_names),
                 "no FEAT_SVE2p1 on this -cpu max (QEMU 10.0 has none)");
        return;
    }
    WR(CPACR_EL1, RD(CPACR_EL1) | (3 << 16) | (3 << 20));  /* ZEN, FPEN */
    ISB();
    WR(ZCR_EL1, 1);                                         /* 256 bits */
    ISB();
    multi_probe(n[0], op_m_ld1b_true, MULTI_SUB(8, 1, 0), DATA, 0);
    multi_probe(n[1], op_m_ld1b_partial, MULTI_SUB(8, 1, 0), DATA, EV_PARTIAL);
    multi_probe(n[2], op_m_ld1b_empty, MULTI_SUB(8, 1, 0), DATA,
                EV_PARTIAL | EV_EMPTY);
    multi_probe(n[3], op_m_ld1b_counter_d, MULTI_SUB(8, 1, 0), DATA, EV_PARTIAL);
    multi_probe(n[4], op_m_st1w_imm, MULTI_SUB(8, 1, 1), DATA + 64, 0);
    multi_probe(n[5], op_m_ld1d_partial, MULTI_SUB(8, 2, 0), DATA + 8,
                EV_PARTIAL);
    multi_probe(n[6], op_m_ld1d_byte_counter, MULTI_SUB(8, 2, 0), DATA + 8, 0);
    /* 2048-bit vectors (ZCR_EL1.LEN = 15): four are 8192 bits */
    WR(ZCR_EL1, 15);
    ISB();
    multi_probe(n[7], op_m_ld1b_x4, MULTI_SUB(11, 2, 0), DATA, 0);
}
#endif

#if defined(PRESET_PARTNUM)
#define MODE_PRESET
/*
 * The Neoverse CPU models (-cpu neoverse-n1/-v1/-n2): what those cores
 * report, from published figures, not from the emulator. run.sh passes
 * them from tools/qemu/neoverse.tsv (its sources are there):
 * PRESET_PARTNUM (MIDR_EL1.PartNum), PRESET_PMSVER, PRESET_PMSIDR,
 * PRESET_PMBIDR.
 */
static void t_preset(void)
{
    uint64_t midr;

    __asm__ volatile("mrs %0, midr_el1" : "=r"(midr));
    result("preset_midr_partnum", ((midr >> 4) & 0xfff) == PRESET_PARTNUM,
           "PartNum", (midr >> 4) & 0xfff, PRESET_PARTNUM);
    check_spe_ids("preset_pmsver", PRESET_PMSVER,
                  "preset_pmsidr", PRESET_PMSIDR,
                  "preset_pmbidr", PRESET_PMBIDR);

    /* PMSNEVFR_EL1 is FEAT_SPEv1p2: UNDEFINED on these cores */
    expect_undef = 1;
    saw_undef = 0;
    (void)RD(PMSNEVFR_EL1);
    expect_undef = 0;
    result("preset_pmsnevfr_undefined", saw_undef == 1,
           "UNDEFINED accesses", saw_undef, 1);
}
#endif

#if defined(MODE_MIGRATE)
/*
 * Migration (run.sh's migrated(), migrate.py): the program runs once
 * straight through and once moved to a new QEMU at each MIGRATE-POINT;
 * every STATE line must read the same in both runs. The model's state is
 * the architected state, so nothing here has an expected value of its
 * own: the run that was not migrated is the oracle. Each point leaves a
 * deferral, a random draw, a frozen counter or records in flight, with
 * profiling disabled, and waits half a second of virtual time (the
 * virtual counter stops with the machine) for the runner to stop it.
 */
#define CNTFRQ_EL0  S3_3_C14_C0_0
#define CNTVCT_EL0  S3_3_C14_C0_2
#define ECOUNT(v)   ((uint64_t)(v) << SPE_PMSICR_ECOUNT_SHIFT)

static void mig_point(uint64_t k)
{
    uint64_t end;

    ISB();
    end = RD(CNTVCT_EL0) + RD(CNTFRQ_EL0) / 2;
    puts_("MIGRATE-POINT ");
    puthex(k);
    puts_("\n");
    while (RD(CNTVCT_EL0) < end) {
    }
    puts_("POINT-PASSED ");
    puthex(k);
    puts_("\n");
}

static void mig_state(const char *dump, const char *what, uint64_t v)
{
    puts_("STATE ");
    puts_(dump);
    puts_(" ");
    puts_(what);
    puts_(" ");
    puthex(v);
    puts_("\n");
}

/* The SPE registers as a direct read sees them */
static void mig_regs(const char *dump)
{
    mig_state(dump, "PMSICR", RD(PMSICR_EL1));
    mig_state(dump, "PMSIRR", RD(PMSIRR_EL1));
    mig_state(dump, "PMSCR", RD(PMSCR_EL1));
    mig_state(dump, "PMSFCR", RD(PMSFCR_EL1));
    mig_state(dump, "PMSEVFR", RD(PMSEVFR_EL1));
    mig_state(dump, "PMSNEVFR", RD(PMSNEVFR_EL1));
    mig_state(dump, "PMSLATFR", RD(PMSLATFR_EL1));
    mig_state(dump, "PMBLIMITR", RD(PMBLIMITR_EL1));
    mig_state(dump, "PMBPTR", RD(PMBPTR_EL1));
    mig_state(dump, "PMBSR", RD(PMBSR_EL1));
}

/* ... and after the architected synchronization, the records written */
static void mig_records(const char *dump)
{
    uint64_t ptr, h = 0xcbf29ce484222325ULL, a;

    PSB();
    DSB();
    ISB();
    mig_regs(dump);
    ptr = RD(PMBPTR_EL1);
    for (a = BUF_BASE; a < ptr && a < BUF_LIMIT; a++) {
        h = (h ^ *(volatile uint8_t *)a) * 0x100000001b3ULL;     /* FNV-1a */
    }
    mig_state(dump, "records", (ptr - BUF_BASE) / RECORD_SIZE);
    mig_state(dump, "hash", h);
}

/* Sample EL1 over spe_spin(iters) into [BUF_BASE, limit); stop as 3.6 says */
static void mig_profile(uint64_t iters, uint64_t limit, int sync)
{
    WR(PMBLIMITR_EL1, limit | 1);
    ISB();
    WR(PMSCR_EL1, 2);
    ISB();
    spe_spin(iters);
    WR(PMSCR_EL1, 0);
    ISB();
    if (sync) {
        PSB();
        DSB();
        ISB();
    }
}

static void mig_setup(uint64_t irr, uint64_t icr)
{
    spe_reset_regs();
    clear_buf(BUF_BASE, BUF_LIMIT - BUF_BASE);
    WR(PMBPTR_EL1, BUF_BASE);
    WR(PMSIRR_EL1, irr);
    WR(PMSICR_EL1, icr);
    ISB();
}

static void t_migrate(void)
{
    uint64_t i;

    /* a: a written ECOUNT below COUNT, deferring the next sample (ERnd) */
    mig_setup(0x1000, ECOUNT(5) | 100);
    mig_point(1);
    mig_regs("a0");
    mig_profile(300, BUF_LIMIT, 1);
    mig_records("a1");

    /* b: RND = 1, stopped while a random ECOUNT defers a sample */
    mig_setup(0x100 | SPE_PMSIRR_RND_MASK, 0);
    for (i = 0; i < 200 && !(RD(PMSICR_EL1) >> 56); i++) {
        mig_profile(50, BUF_LIMIT, 1);
    }
    mig_state("b0", "steps", i);
    mig_point(2);
    mig_regs("b0");
    mig_profile(3000, BUF_LIMIT, 1);
    mig_records("b1");

    /* c: a full buffer: PMBSR_EL1.S set, the counter frozen (3.5) */
    mig_setup(0x100, 0);
    mig_profile(40000, BUF_BASE + 0x1000, 1);
    mig_point(3);
    mig_regs("c0");
    WR(PMBSR_EL1, 0);
    WR(PMBPTR_EL1, BUF_BASE);
    ISB();
    mig_profile(2000, BUF_LIMIT, 1);
    mig_records("c1");

    /* d: records in flight: profiling disabled, no PSB CSYNC yet */
    mig_setup(0x400, 0);
    mig_profile(25000, BUF_LIMIT, 0);
    mig_point(4);
    mig_records("d1");
    WR(PMBLIMITR_EL1, 0);
    ISB();
}
#endif

int main(void);
int main(void)
{
    puts_("# SPE conformance\n");
    mmu_on();
#if defined(MODE_NOSPE)
    t_absent();
#elif defined(MODE_PRESET)
    t_preset();
#elif defined(MODE_KNOB)
    t_knob();
#elif defined(MODE_EVFR)
    t_evfr();
#elif defined(MODE_ALIGN)
    t_align();
#elif defined(MODE_STRICT)
    t_strict_reset();
    puts_(gic_init(SPE_INTID) == 3 ? "# GICv3\n" : "# GICv2\n");
    t_inflight_stale();
    t_inflight();
    t_dl_disable();
    t_coll();
    t_dl_restart();
#elif defined(MODE_EL2)
    t_pmbidr_p();
    t_pmbidr_p_el1();
#elif defined(MODE_EL3)
    t_pmbidr_nspb();
#elif defined(MODE_FGT)
    t_fgt();
#elif defined(MODE_NV2)
    t_nv2();
#elif defined(MODE_ECV)
    t_ecv();
#elif defined(MODE_SEL2)
    t_sel2();
#elif defined(MODE_MODEL)
    t_model();
#elif defined(MODE_FLAGS)
    t_flags();
#elif defined(MODE_ERND)
    t_ecount();
    t_ernd_recent();
    t_ecount_counts_down();
    t_ecount_write_defers();
    t_ecount_written();
    t_icr_read_enabled();
    t_ecount_outlasts();
    t_ecount_equal();
    t_ecount_count_zero();
    t_ecount_rnd_redraws();
#elif defined(MODE_PBT)
    t_pbt();
#elif defined(MODE_EL0)
    t_el0();
    t_el0_fault();
#elif defined(MODE_UNPRIV)
    t_unpriv();
#elif defined(MODE_GCS)
    t_gcs();
#elif defined(MODE_LSE128)
    t_lse128();
#elif defined(MODE_MULTI)
    t_multi();
#elif defined(MODE_MTE)
    t_mte();
    t_mte_setg();
#elif defined(MODE_SME)
    t_sme();
#elif defined(MODE_MIGRATE)
    t_migrate();
#else
    puts_(gic_init(SPE_INTID) == 3 ? "# GICv3\n" : "# GICv2\n");
    t_id();
    t_reset();
    t_res0();
    t_count("sample_count_interval_256", 0x100, 1000);
    t_count("sample_count_interval_512", 0x200, 1000);
    t_count("sample_count_interval_768_long", 0x300, 20000);
    t_jitter();
    t_ops();
    t_classify();
    t_mops();
    t_collect();
    t_filters();
    t_full();
    t_fault();
    t_discard();
    t_psb();
    t_disabled();
    (void)skip;
#endif
    puts_("# done\n");
    return result_failures() ? 1 : 0;
}
