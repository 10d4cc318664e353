// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Benchmark loop around perf's arm-spe packet decoder (arm_spe_get_packet()
 * from tools/perf/util/arm-spe-decoder/arm-spe-pkt-decoder.c), built only by
 * tools/bench/decoder-bench.sh against the file it fetches at run time.
 * Kept in its own translation unit so perf's SPE_* macros do not meet ours.
 */
#include <stddef.h>
#include <stdint.h>

#include "arm-spe-pkt-decoder.h"

void perf_bench_packets(const uint8_t *buf, size_t len, uint64_t out[4]);

/* out: records, packets (padding excluded), errors, payload checksum */
void perf_bench_packets(const uint8_t *buf, size_t len, uint64_t out[4])
{
	struct arm_spe_pkt p;
	uint64_t sum = 0, n = 0, rec = 0, err = 0;
	size_t pos = 0;

	while (pos < len) {
		int ret = arm_spe_get_packet(buf + pos, len - pos, &p);

		if (ret <= 0) {
			err++;
			pos++;
			continue;
		}
		if (p.type != ARM_SPE_PAD) {
			n++;
			sum += p.payload;
			if (p.type == ARM_SPE_END || p.type == ARM_SPE_TIMESTAMP)
				rec++;
		}
		pos += (size_t)ret;
	}
	out[0] = rec;
	out[1] = n;
	out[2] = err;
	out[3] = sum;
}
