/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * kbin_cast.h - element-wise conversion between the DMA element types
 * (kbin_dma.h) for the DMA "cast" op: the engine (kmod/engine.c) and the
 * host reference (userspace/cc/dma_ref.c) convert with this code.
 *
 * Integer arithmetic only (the kernel uses no FPU): every value is
 * decoded into sign, 64-bit magnitude and a power of two, then encoded
 * into the destination type with one rounding.  The rules per pair are
 * in Documentation/dma.rst, "Casts":
 *   - float to float: round to nearest, ties to even; past the largest
 *     finite value +-Inf; subnormals kept (gradual underflow); Inf stays
 *     Inf; NaN stays a quiet NaN of the same sign with the top bits of
 *     its payload;
 *   - integer to float: round to nearest even (int32 to float32 rounds
 *     above 2^24; int8 to float32 or float16 is exact);
 *   - float to integer: round to nearest even, saturate to the type's
 *     range, NaN gives 0;
 *   - integer to integer: saturate to the type's range.
 */
#ifndef _NEURONSIM_KBIN_CAST_H
#define _NEURONSIM_KBIN_CAST_H

#include "kbin_compat.h"

int kbin_cast_ok(unsigned int from, unsigned int to);
void kbin_cast(unsigned int from, unsigned int to, const void *src, void *dst,
	       __u32 n);

#endif /* _NEURONSIM_KBIN_CAST_H */
