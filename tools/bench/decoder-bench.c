// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Decoder benchmark harness (driven by tools/bench/decoder-bench.sh).
 *
 *   decoder-bench gen FILE MB      write a synthetic SPE trace of >= MB MiB
 *   decoder-bench run FILE [REPS]  time our decoder (record and packet
 *                                  iterators) and, when built with
 *                                  -DHAVE_PERF_DECODER, perf's arm-spe packet
 *                                  decoder on the same bytes
 *
 * The trace mixes what an SPU writes for a typical workload: loads with
 * PC/VA/PA/latencies/data source, stores, branches with targets, other
 * operations, SVE loads, timestamps or End packets, and padding up to a
 * 64-byte record alignment (PMBIDR_EL1.Align) on part of the records.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <arm_spe/spe_decoder.h>

static uint64_t rng = 0x243f6a8885a308d3ull;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static int gen(const char *path, unsigned long mb)
{
	size_t target = (size_t)mb << 20, chunk = 1 << 20;
	uint8_t *buf = malloc(chunk + 4096);
	struct spe_enc e;
	FILE *f = fopen(path, "wb");
	size_t total = 0;
	uint64_t ts = 1000000, pc = 0x0000aaaad0000000ull, nrec = 0;

	if (!buf || !f) {
		fprintf(stderr, "decoder-bench: cannot write %s: %s\n", path, strerror(errno));
		return 1;
	}
	while (total < target) {
		spe_enc_init(&e, buf, chunk + 4096);
		while (e.len < chunk) {
			unsigned int kind = (unsigned int)(rnd() % 100);
			uint64_t va = 0x0000ffff00000000ull + ((rnd() & 0xfffff) << 3);
			size_t start = e.len;

			pc += 4 * (1 + (rnd() & 63));
			if (pc > 0x0000aaaad1000000ull)
				pc = 0x0000aaaad0000000ull;
			ts += 1 + (rnd() & 255);
			spe_enc_address(&e, SPE_ADDR_IDX_PC, SPE_ADDR_PAYLOAD_PC(pc, 0, 1, 0), 0);
			spe_enc_context(&e, SPE_CTX_IDX_EL1, 4242);
			if (kind < 50) {			/* load */
				unsigned int lat = 4 + (unsigned int)(rnd() % ((rnd() & 7) ? 16 : 400));
				uint64_t ev = SPE_EV_BIT(SPE_EV_RETIRED) | SPE_EV_BIT(SPE_EV_L1D_ACCESS) |
					      SPE_EV_BIT(SPE_EV_TLB_ACCESS);

				if (lat > 20)
					ev |= SPE_EV_BIT(SPE_EV_L1D_REFILL) | SPE_EV_BIT(SPE_EV_LLC_ACCESS);
				if (lat > 200)
					ev |= SPE_EV_BIT(SPE_EV_LLC_MISS);
				spe_enc_op_type(&e, SPE_OP_CLASS_LDST, (rnd() & 7) ? SPE_OP_LS_GP :
						SPE_OP_LS_SIMD_FP);
				spe_enc_events(&e, ev, 2);
				spe_enc_counter(&e, SPE_CNT_IDX_ISSUE, (uint16_t)(rnd() & 7), 0);
				spe_enc_counter(&e, SPE_CNT_IDX_TOTAL, (uint16_t)lat, 0);
				spe_enc_counter(&e, SPE_CNT_IDX_XLAT, (uint16_t)(1 + (rnd() & 3)), 0);
				spe_enc_address(&e, SPE_ADDR_IDX_DATA_VA, SPE_ADDR_PAYLOAD_VA(va, 0), 0);
				spe_enc_address(&e, SPE_ADDR_IDX_DATA_PA,
						SPE_ADDR_PAYLOAD_PA(0x80000000ull + (va & 0xfffffff), 1, 0, 0, 0), 0);
				spe_enc_data_source(&e, (uint16_t)(lat > 200 ? 0xd : lat > 20 ? 0xa : 0), 2);
			} else if (kind < 70) {			/* store */
				spe_enc_op_type(&e, SPE_OP_CLASS_LDST, SPE_OP_LS_GP | SPE_OP_LDST_BIT);
				spe_enc_events(&e, SPE_EV_BIT(SPE_EV_RETIRED) | SPE_EV_BIT(SPE_EV_L1D_ACCESS) |
					       SPE_EV_BIT(SPE_EV_TLB_ACCESS), 2);
				spe_enc_counter(&e, SPE_CNT_IDX_ISSUE, (uint16_t)(rnd() & 3), 0);
				spe_enc_counter(&e, SPE_CNT_IDX_TOTAL, (uint16_t)(3 + (rnd() & 15)), 0);
				spe_enc_counter(&e, SPE_CNT_IDX_XLAT, 1, 0);
				spe_enc_address(&e, SPE_ADDR_IDX_DATA_VA, SPE_ADDR_PAYLOAD_VA(va, 0), 0);
				spe_enc_address(&e, SPE_ADDR_IDX_DATA_PA,
						SPE_ADDR_PAYLOAD_PA(0x80000000ull + (va & 0xfffffff), 1, 0, 0, 0), 0);
			} else if (kind < 92) {			/* branch */
				int taken = (int)(rnd() & 3);
				uint64_t ev = SPE_EV_BIT(SPE_EV_RETIRED);

				if (!taken)
					ev |= SPE_EV_BIT(SPE_EV_NOT_TAKEN);
				if (!(rnd() & 15))
					ev |= SPE_EV_BIT(SPE_EV_MISPRED);
				spe_enc_op_type(&e, SPE_OP_CLASS_BRANCH, (uint8_t)(rnd() & 3));
				spe_enc_events(&e, ev, 1);
				spe_enc_counter(&e, SPE_CNT_IDX_ISSUE, (uint16_t)(rnd() & 3), 0);
				spe_enc_counter(&e, SPE_CNT_IDX_TOTAL, (uint16_t)(1 + (rnd() & 7)), 0);
				spe_enc_address(&e, SPE_ADDR_IDX_BR_TGT,
						SPE_ADDR_PAYLOAD_PC(pc + 0x40 + (rnd() & 0xff0), 0, 1, 0), 0);
			} else if (kind < 97) {			/* other */
				spe_enc_op_type(&e, SPE_OP_CLASS_OTHER, (uint8_t)(rnd() & 3));
				spe_enc_events(&e, SPE_EV_BIT(SPE_EV_RETIRED), 1);
				spe_enc_counter(&e, SPE_CNT_IDX_ISSUE, 1, 0);
				spe_enc_counter(&e, SPE_CNT_IDX_TOTAL, (uint16_t)(2 + (rnd() & 31)), 0);
			} else {				/* SVE load, 256-bit, predicated */
				spe_enc_op_type(&e, SPE_OP_CLASS_LDST, 0x3c);
				spe_enc_events(&e, SPE_EV_BIT(SPE_EV_RETIRED) | SPE_EV_BIT(SPE_EV_L1D_ACCESS) |
					       SPE_EV_BIT(SPE_EV_PARTIAL_PRED), 4);
				spe_enc_counter(&e, SPE_CNT_IDX_TOTAL, (uint16_t)(8 + (rnd() & 63)), 0);
				spe_enc_address(&e, SPE_ADDR_IDX_DATA_VA, SPE_ADDR_PAYLOAD_VA(va, 0), 0);
			}
			if (rnd() & 7)
				spe_enc_timestamp(&e, ts);
			else
				spe_enc_end(&e);
			/* 1 in 2 records padded to a 64-byte boundary */
			if (rnd() & 1) {
				size_t n = (64 - (e.len - start) % 64) % 64;

				spe_enc_pad(&e, n);
			}
			nrec++;
		}
		if (e.overflow || fwrite(buf, 1, e.len, f) != e.len) {
			fprintf(stderr, "decoder-bench: write to %s failed\n", path);
			fclose(f);
			return 1;
		}
		total += e.len;
	}
	if (fclose(f)) {
		fprintf(stderr, "decoder-bench: write to %s failed\n", path);
		return 1;
	}
	printf("generated %s: %zu bytes, %" PRIu64 " records\n", path, total, nrec);
	free(buf);
	return 0;
}

/*
 * CPU time of this process: on a shared machine, time spent descheduled
 * would otherwise count against whichever decoder was running. Wall-clock
 * figures are printed too.
 */
static double cpu_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static double wall_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

struct result {
	uint64_t records, packets, errors, sum;
};

static void ours_records(const uint8_t *buf, size_t len, struct result *res)
{
	struct spe_decoder d;
	struct spe_record r;
	uint64_t sum = 0;
	int ret;

	spe_decoder_init(&d, buf, len, 0);
	while ((ret = spe_decoder_next(&d, &r)) != 0) {
		if (ret < 0)
			continue;
		sum += r.addr[0] + r.timestamp + r.counter[0];
	}
	res->records = d.stats.records;
	/* packets excluding padding, to compare with the packet decoders */
	res->packets = d.stats.packets;
	res->errors = d.stats.errors;
	res->sum = sum;
}

static void ours_packets(const uint8_t *buf, size_t len, struct result *res)
{
	struct spe_decoder d;
	struct spe_packet p;
	uint64_t sum = 0, n = 0;
	int ret;

	spe_decoder_init(&d, buf, len, 0);
	while ((ret = spe_decoder_next_packet(&d, &p)) != 0) {
		if (ret < 0)
			continue;
		if (p.type != SPE_PKT_PAD) {
			n++;
			sum += p.payload;
		}
	}
	res->records = d.stats.records;
	res->packets = n;
	res->errors = d.stats.errors;
	res->sum = sum;
}

#ifdef HAVE_PERF_DECODER
void perf_bench_packets(const uint8_t *buf, size_t len, uint64_t out[4]);

static void perf_packets(const uint8_t *buf, size_t len, struct result *res)
{
	uint64_t out[4];

	perf_bench_packets(buf, len, out);
	res->records = out[0];
	res->packets = out[1];
	res->errors = out[2];
	res->sum = out[3];
}
#endif

typedef void (*bench_fn)(const uint8_t *, size_t, struct result *);

static double best_wall;

/* Best CPU time of reps runs; best wall-clock time left in best_wall. */
static double best_of(bench_fn fn, const uint8_t *buf, size_t len, int reps, struct result *res)
{
	double best = 1e30;
	int i;

	best_wall = 1e30;
	for (i = 0; i < reps; i++) {
		double w0 = wall_now(), t0 = cpu_now(), t, w;

		fn(buf, len, res);
		t = cpu_now() - t0;
		w = wall_now() - w0;
		if (t < best)
			best = t;
		if (w < best_wall)
			best_wall = w;
	}
	return best;
}

static int run(const char *path, int reps)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long sz;
	size_t len;
	double mb, t_rec, t_pkt, w_rec, w_pkt;
	struct result rr, rp;

	if (!f || fseek(f, 0, SEEK_END) || (sz = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		fprintf(stderr, "decoder-bench: cannot read %s: %s\n", path, strerror(errno));
		return 1;
	}
	len = (size_t)sz;
	buf = malloc(len ? len : 1);
	if (!buf || fread(buf, 1, len, f) != len) {
		fprintf(stderr, "decoder-bench: cannot read %s\n", path);
		return 1;
	}
	fclose(f);
	mb = (double)len / 1e6;
	printf("trace: %s, %.1f MB, best of %d runs, MB = 10^6 bytes,\n"
	       "MB/s per CPU second (wall clock in brackets)\n", path, mb, reps);
	t_rec = best_of(ours_records, buf, len, reps, &rr);
	w_rec = best_wall;
	t_pkt = best_of(ours_packets, buf, len, reps, &rp);
	w_pkt = best_wall;
	printf("%-34s %9.1f MB/s [%7.1f]  (%" PRIu64 " records, %" PRIu64 " errors)\n",
	       "ours: records (spe_decoder_next)", mb / t_rec, mb / w_rec, rr.records, rr.errors);
	printf("%-34s %9.1f MB/s [%7.1f]  (%" PRIu64 " packets excl. padding, %" PRIu64 " errors)\n",
	       "ours: packets (next_packet)", mb / t_pkt, mb / w_pkt, rp.packets, rp.errors);
#ifdef HAVE_PERF_DECODER
	{
		struct result rf;
		double t_perf = best_of(perf_packets, buf, len, reps, &rf);

		printf("%-34s %9.1f MB/s [%7.1f]  (%" PRIu64 " packets excl. padding, %" PRIu64 " errors)\n",
		       "perf: arm_spe_get_packet", mb / t_perf, mb / best_wall, rf.packets, rf.errors);
		if (rf.packets != rp.packets || rf.sum != rp.sum || rf.records != rr.records)
			printf("WARNING: perf and our decoder disagree (packets %" PRIu64 " vs %" PRIu64
			       ", records %" PRIu64 " vs %" PRIu64 ")\n",
			       rf.packets, rp.packets, rf.records, rr.records);
		else
			printf("cross-check: same packets, payload checksum and record count\n");
		printf("ratio ours/perf: records %.2fx, packets %.2fx\n", t_perf / t_rec, t_perf / t_pkt);
	}
#else
	printf("perf: arm_spe_get_packet            unavailable (see messages above)\n");
#endif
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 4 && !strcmp(argv[1], "gen"))
		return gen(argv[2], strtoul(argv[3], NULL, 0));
	if (argc >= 3 && !strcmp(argv[1], "run"))
		return run(argv[2], argc > 3 ? atoi(argv[3]) : 3);
	fprintf(stderr, "usage: decoder-bench gen FILE MB | run FILE [REPS]\n");
	return 2;
}
