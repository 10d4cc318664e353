/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * libspe_decoder internals shared between its files (not installed, not
 * API): the record iterator's resynchronization scan, which the streaming
 * layer reruns as more data arrives.
 */
#ifndef SPE_INTERNAL_H
#define SPE_INTERNAL_H

#include <arm_spe/spe_decoder.h>

/*
 * The next record boundary at or after 'from' in d->buf[0..d->len): the
 * byte after an End packet, or after a Timestamp packet, that is followed
 * by a plausible packet or by the end of the data; d->len if none.
 */
size_t spe__resync(struct spe_decoder *d, size_t from);

/*
 * Decoder flag, internal: the record iterator decodes every record with its
 * general loop (tests compare it with the fast path, fast_record()).
 */
#define SPE__DEC_NO_FAST	(1u << 31)

/*
 * Decoder flag, internal: the batch packet iterator uses its portable loop
 * even where the vector pre-pass is available (tests compare the two).
 */
#define SPE__DEC_NO_SIMD	(1u << 30)

/* 1 if the batch packet iterator's vector pre-pass runs on this machine */
int spe__batch_simd(void);

/* Bytes after a resynchronization point that the scan may have looked at. */
#define SPE__RESYNC_LOOKAHEAD	(9u + SPE_MAX_PACKET_LEN + 1u)

#endif /* SPE_INTERNAL_H */
