/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tl_rng.h - the test library's pseudo-random numbers: xorshift64*, one
 * state word per stream, the same sequence on every run (a bench's
 * figures and a stress test's schedule repeat).  Header-only, so a
 * program that links nothing of the library (bench/resolve_bench.c) can
 * use it.
 */
#ifndef _NEURONSIM_TL_RNG_H
#define _NEURONSIM_TL_RNG_H

#include <stdint.h>

/* the seed the benches start from */
#define TL_RNG_SEED	0x9e3779b97f4a7c15ULL

/* the next number of the stream whose state is *@s (never 0) */
static inline uint64_t tl_rng(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dULL;
}

#endif /* _NEURONSIM_TL_RNG_H */
