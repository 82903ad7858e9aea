/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tl_f32.h - the test library's float32 bit helpers: a float's IEEE 754
 * binary32 bits and back, and the distance of two floats in ULP (the
 * numerics, compute, cast and BIR tolerance tests share them).
 */
#ifndef _NSIM_TL_F32_H
#define _NSIM_TL_F32_H

#include <stdint.h>
#include <string.h>

/* the bits of @f */
static inline uint32_t tl_f2u(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	return u;
}

/* the float of bits @u */
static inline float tl_u2f(uint32_t u)
{
	float f;

	memcpy(&f, &u, 4);
	return f;
}

/* @u on a line where consecutive floats are consecutive integers (+-0: 0) */
static inline int64_t tl_f32_ordered(uint32_t u)
{
	return u & 0x80000000U ? -(int64_t)(u & 0x7fffffffU) : (int64_t)u;
}

/* the distance of @a and @b in float32 ULP (not meaningful for NaN) */
static inline uint64_t tl_f32_ulp(uint32_t a, uint32_t b)
{
	int64_t d = tl_f32_ordered(a) - tl_f32_ordered(b);

	return (uint64_t)(d < 0 ? -d : d);
}

#endif /* _NSIM_TL_F32_H */
