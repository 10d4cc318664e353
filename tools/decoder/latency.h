/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Power-of-two buckets of a latency counter (D18.2.3), shared by
 * spe-decode --summary and spe-decode report.
 */
#ifndef SPE_LATENCY_H
#define SPE_LATENCY_H

/* [0], [1], [2,3], ... [2^15, 2^16), saturated */
#define LAT_BUCKETS	18

/* The bucket of counter value v; sat is the saturated value (0xfff/0xffff). */
static inline unsigned int lat_bucket(unsigned int v, unsigned int sat)
{
	if (v == sat)
		return LAT_BUCKETS - 1;
#if defined(__GNUC__)
	/* the bit length of v, without a loop whose exit depends on v */
	return v ? 32u - (unsigned int)__builtin_clz(v) : 0u;
#else
	unsigned int b = 0;

	while (v) {
		b++;
		v >>= 1;
	}
	return b;
#endif
}

#endif /* SPE_LATENCY_H */
