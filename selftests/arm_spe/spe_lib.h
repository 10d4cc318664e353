/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the arm_spe selftests: PMU discovery through sysfs,
 * perf_event_open() with an AUX area, collection of the AUX data and of
 * the PERF_RECORD_AUX records, decoding of every byte with the project's
 * decoder (libspe_decoder) and validation of each record against what the
 * test knows independently: the workload's code and data, the A64
 * instruction at the sampled PC, the expected Exception level.
 */
#ifndef SPE_SELFTEST_LIB_H
#define SPE_SELFTEST_LIB_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/perf_event.h>

#include <arm_spe/spe_decoder.h>

#define SPE_SYSFS_DEVS "/sys/bus/event_source/devices"

struct spe_pmu_info {
	char dir[256];		/* .../arm_spe_N */
	int type;
	long min_interval, count_size, align, max_record_size, pmsver;
	long arch_inst, ernd;
	uint64_t event_filter;	/* caps/event_filter */
};

/* 0 and fills *p when an arm_spe_N PMU exists, -1 otherwise. */
int spe_pmu_find(struct spe_pmu_info *p);
/* The same for the PMU at @dir (one of several arm_spe_N) */
int spe_pmu_load(struct spe_pmu_info *p, const char *dir);
int spe_has_format(const struct spe_pmu_info *p, const char *name);
/* Reads DIR/rel; returns the text trimmed, or NULL. Static buffer. */
const char *spe_sysfs_read(const struct spe_pmu_info *p, const char *rel);
long long spe_counter(const struct spe_pmu_info *p, const char *name);
/* Integer from the environment (set by the runner), or dflt. */
long spe_env_long(const char *name, long dflt);
int spe_write_file(const char *path, const char *val);

/*
 * attr.config bits of the format terms the tests set: mainline's ABI
 * (arm_spe_pmu's ATTR_CFG_FLD_*) and this driver's discard term, written
 * here independently of the driver's definitions; discovery expects the
 * same bits in the format files.
 */
#define CFG_TS		(1ull << 0)	/* ts_enable */
#define CFG_PA		(1ull << 1)	/* pa_enable */
#define CFG_PCT		(1ull << 2)	/* pct_enable */
#define CFG_JITTER	(1ull << 16)	/* jitter */
#define CFG_BRANCH	(1ull << 32)	/* branch_filter */
#define CFG_LOAD	(1ull << 33)	/* load_filter */
#define CFG_STORE	(1ull << 34)	/* store_filter */
#define CFG_DISCARD	(1ull << 35)	/* discard */

/* A perf event with its ring buffer and AUX area. */
struct spe_session {
	int fd;
	struct perf_event_mmap_page *pg;
	void *ring;		/* user page + data pages */
	size_t ring_size;	/* bytes of the data part */
	uint8_t *aux;
	size_t aux_size;
	int snapshot;		/* aux mapped read-only */

	/* collected AUX bytes, in order, with their start index */
	uint8_t *data;
	size_t len, cap;
	uint64_t first_idx;	/* aux index of data[0] */
	uint64_t read_idx;	/* next aux index to read */

	/* PERF_RECORD_AUX records seen */
	unsigned int n_aux_recs;
	uint64_t aux_flags_or;	/* OR of all flags */
	uint64_t aux_flags_last;	/* flags of the newest one */
	unsigned int n_truncated, n_partial, n_collision;
	uint64_t aux_rec_bytes;	/* sum of aux_size */
	uint64_t partial_bytes;	/* sum of aux_size of PARTIAL records */
	uint64_t partial_off;	/* aux_offset of the last PARTIAL record */
	unsigned int n_lost;
	int aux_rec_bad;	/* a record's range is not contiguous */
	uint64_t aux_rec_next;	/* expected aux_offset of the next record */
};

/*
 * attr.config3 (PERF_ATTR_SIZE_VER8, 136 bytes, 6.3) and attr.config4
 * (PERF_ATTR_SIZE_VER9, 144 bytes, 7.0): the members where the uapi header
 * in use has them (a kernel tree's KHDR_INCLUDES or tools/include/uapi),
 * their fixed offsets (words 16 and 17) where it does not. The attr must
 * live in storage of at least 144 zeroed bytes (union spe_attr); attr.size
 * is set to the version that has the field.
 */
union spe_attr {
	struct perf_event_attr a;
	uint64_t raw[32];
};
#define SPE_ATTR_SIZE_VER8	136
#define SPE_ATTR_SIZE_VER9	144
#ifdef PERF_ATTR_SIZE_VER8
#define SPE_CONFIG3(attr)	((attr)->config3)
#else
#define SPE_CONFIG3(attr)	(((uint64_t *)(attr))[16])
#endif
#ifdef PERF_ATTR_SIZE_VER9
#define SPE_CONFIG4(attr)	((attr)->config4)
#else
#define SPE_CONFIG4(attr)	(((uint64_t *)(attr))[17])
#endif
#define SPE_SET_CONFIG3(attr, v)					\
	do {								\
		SPE_CONFIG3(attr) = (v);				\
		(attr)->size = SPE_ATTR_SIZE_VER8;			\
	} while (0)
#define SPE_SET_CONFIG4(attr, v)					\
	do {								\
		SPE_CONFIG4(attr) = (v);				\
		(attr)->size = SPE_ATTR_SIZE_VER9;			\
	} while (0)

void spe_attr_init(struct perf_event_attr *a, const struct spe_pmu_info *p,
		   uint64_t config, uint64_t period);
/* perf_event_open; returns fd or -1 (errno set). */
int spe_perf_open(struct perf_event_attr *a, pid_t pid, int cpu);
/*
 * Open, map data_pages of ring and aux_pages of AUX (read-only when
 * snapshot). Returns 0, or -1 with errno set and the session closed.
 */
int spe_session_open(struct spe_session *s, struct perf_event_attr *a,
		     pid_t pid, int cpu, int data_pages, int aux_pages,
		     int snapshot);
/* Copy newly written AUX data and consume the ring records. */
int spe_session_collect(struct spe_session *s);
/* The same, reading (and freeing) the AUX data only up to index @to. */
int spe_session_collect_to(struct spe_session *s, uint64_t to);
void spe_session_close(struct spe_session *s);
int spe_enable(struct spe_session *s);
int spe_disable(struct spe_session *s);

/* Workloads (spe_workload.S): every instruction between spe_wl_start and
 * spe_wl_end belongs to one of them. */
extern char spe_wl_start[], spe_wl_end[];
extern char spe_wl_ldst_loop[], spe_wl_ldst_end[];
extern char spe_wl_branch_end[];
extern char spe_wl_misalign_end[];
/* 7 instructions per iteration: ldr, add, str, add, and, subs, b.ne */
void spe_wl_ldst(uint64_t *buf, uint64_t idx_mask, uint64_t iters);
#define SPE_WL_LDST_INSNS	7
/* Branchy loop: x0 iterations of tst/b.eq/(nop)/bl/ret/subs/b.ne */
void spe_wl_branch(uint64_t iters);
/* Loads from buf + 1 (misaligned 8-byte loads), 4 insns per iteration */
void spe_wl_misalign(uint8_t *buf, uint64_t iters);
extern char spe_wl_simdfp_end[];
void spe_wl_simdfp(uint64_t iters);
/* Its loop: 2 scalar FP, 1 SIMD integer, 1 SIMD FP, subs, b.ne. */
#define SPE_WL_SIMDFP_INSNS	6
/* SVE data processing and a load from buf, x1 iterations (needs SVE) */
extern char spe_wl_sve_loop[], spe_wl_sve_end[];
void spe_wl_sve(uint64_t *buf, uint64_t iters);
#define SPE_WL_SVE_INSNS	9
/* SME loads and stores at buf in Streaming SVE mode (needs SME) */
extern char spe_wl_sme_loop[], spe_wl_sme_end[];
void spe_wl_sme(uint64_t *buf, uint64_t iters);
#define SPE_WL_SME_INSNS	7
/* SME operations on ZA in Streaming SVE mode (needs SME) */
extern char spe_wl_sme_dp_loop[], spe_wl_sme_dp_end[];
void spe_wl_sme_dp(uint64_t iters);
#define SPE_WL_SME_DP_INSNS	6
/* LSE atomics, acquire/release and exclusives at buf (16-byte aligned) */
extern char spe_wl_atomic_loop[], spe_wl_atomic_end[];
void spe_wl_atomic(uint64_t *buf, uint64_t iters);
#define SPE_WL_ATOMIC_INSNS	11
/* An n-byte Memory Copy src -> dst and Memory Set of dst (needs MOPS) */
extern char spe_wl_mops_loop[], spe_wl_mops_end[];
void spe_wl_mops(uint8_t *dst, const uint8_t *src, uint64_t n, uint64_t iters);
#define SPE_WL_MOPS_INSNS	13
/* FEAT_MTE: tag every granule of [p, p + len) with p's tag (STG) */
void spe_mte_set_tags(uint64_t *p, uint64_t len);

/*
 * A64 data processing, scalar floating-point and Advanced SIMD (op0 x111):
 * *ase = 1 for Advanced SIMD, *fp = 1 for floating-point; both 0 for any
 * other instruction. Only the "three same" vector forms are told apart as
 * floating-point (what the workloads use).
 */
void spe_insn_simdfp(uint32_t w, int *ase, int *fp);

/* Classification of an A64 instruction word, independent of the PMU. */
enum spe_insn_kind { INSN_OTHER, INSN_LOAD, INSN_STORE, INSN_LDST, INSN_BRANCH,
		     INSN_EXCEPTION };
int spe_insn_classify(uint32_t w);

/* What validation expects of every record. */
struct spe_expect {
	int el_user_only;	/* every PC at EL0 */
	int el_kernel_only;	/* every PC at EL1/EL2 */
	int ts;			/* a Timestamp packet ends every record (1) or none (0) */
	int ctx;		/* 1: Context = ctx_pid for own-code EL0 records; 0: no Context; -1: don't care */
	pid_t ctx_pid;
	const void *buf;	/* workload data buffer */
	size_t buf_len;
	uint64_t first_idx_align;	/* aux index of data[0] (alignment) */
	long align, max_record_size;
	long count_size;		/* 12: counter payload bits [15:12] are 0 */
	/*
	 * 1: a per-CPU capture that may hold other tasks' records. Static
	 * binaries share load addresses, so a PC in our text proves nothing:
	 * records whose Context packet is not ctx_pid are not checked as
	 * ours (without Context packets every record still is).
	 */
	int other_tasks;
	/*
	 * The Context packet that carries the kernel's CONTEXTIDR (the PID):
	 * 0, CONTEXTIDR_EL1; 1, CONTEXTIDR_EL2 when the kernel runs at EL2
	 * (VHE: E2H redirects its CONTEXTIDR_EL1 writes and PMSCR_EL1.CX to
	 * the EL2 registers, so the PID is collected by CollectContextIDR2(),
	 * D18.2 Context packet index 1). spe_expect_default() sets it from
	 * SPE_EXP_KERNEL_EL.
	 */
	unsigned int ctx_idx;
	/* The EL of every kernel record (1 or 2; 0: not checked). */
	unsigned int kernel_el;
};

struct spe_stats {
	uint64_t records, bytes, pad_bytes;
	uint64_t el0, el_kernel;
	uint64_t in_ldst, in_ldst_loop, in_branch, in_misalign, in_own_text;
	uint64_t loads, stores, branches, others;	/* by Operation Type */
	uint64_t ev_not_taken, ev_misaligned, ev_retired;
	uint64_t with_ctx, with_ts, with_pa;
	uint64_t loop_mem, loop_mem_pa;	/* ldst loop loads/stores, with a PA */
	uint64_t loop_loads, loop_loads_ds, with_ds;	/* Data Source */
	uint64_t loop_ds_n[64];		/* loop loads by Data Source value */
	uint64_t min_ts, max_ts;
	uint64_t last_end;	/* end offset of the last record */
	uint64_t max_lat;
	unsigned int violations;
	char first[512];	/* first violation */
};

/*
 * Decode data[0..len) record by record and check each against *e; fill
 * *st. Returns the number of violations (details in st->first).
 * The per-record hook, if any, is called for every record.
 */
typedef void (*spe_rec_hook)(const struct spe_record *r, void *arg,
			     struct spe_stats *st);
/* spe_validate() of what a session collected, aligned from its first index. */
unsigned int spe_session_validate(const struct spe_session *s, struct spe_expect *e,
				  struct spe_stats *st, spe_rec_hook hook, void *arg);
unsigned int spe_validate(const uint8_t *data, size_t len,
			  const struct spe_expect *e, struct spe_stats *st,
			  spe_rec_hook hook, void *arg);
void spe_violation(struct spe_stats *st, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void spe_expect_default(struct spe_expect *e, const struct spe_pmu_info *p);

/* Effective sampling interval for a requested period (spec: PMSIRR_EL1
 * INTERVAL is bits [31:8]; below 256 the driver documents that it becomes
 * 256, as mainline: caps/min_interval is a recommendation, 4.3.11). */
uint64_t spe_effective_period(const struct spe_pmu_info *p, uint64_t period);

/*
 * The PMSEVFR_EL1 bits (caps/event_filter) of an implementation of FEAT_SPE
 * version @pmsver (ID_AA64DFR0_EL1.PMSVer) with PMSIDR_EL1.FE and SVE:
 * SPE supplement 4.3.8 for v1, the Arm ARM (D18.2.6, PMSEVFR_EL1) for the
 * events each later version adds; with @sme (FEAT_SPE_SME, from v1p4)
 * also E[25:24]. 0 when @fe is 0.
 */
uint64_t spe_exp_event_filter(long pmsver, int fe, int sme);

int spe_pin_cpu(int cpu);
int spe_cpu_online(int cpu);
int spe_set_cpu_online(int cpu, int online);

#endif
