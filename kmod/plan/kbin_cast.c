// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * kbin_cast.c - the DMA cast op, element by element (kbin_cast.h).
 *
 * A value is decoded from its element type into struct kbin_num, sign,
 * magnitude and a power of two (exact for every type), and encoded into
 * the destination with a single rounding, to nearest with ties to even.
 * Integer arithmetic only.  Documentation/dma.rst, "Casts", has the
 * rules per pair.
 */

#include "kbin_cast.h"
#include "kbin_dma.h"

enum kbin_num_kind { KBIN_NUM_ZERO, KBIN_NUM_FINITE, KBIN_NUM_INF, KBIN_NUM_NAN };

/*
 * struct kbin_num - a decoded element: (-1)^sign * mag * 2^exp; a NaN's
 * payload is its fraction bits left-aligned in @mag.
 */
struct kbin_num {
	int kind;
	int sign;
	__u64 mag;
	int exp;
};

static __u64 kbin_cast_load(const unsigned char *p, __u32 size)
{
	__u64 v = 0;
	__u32 i;

	for (i = 0; i < size; i++)
		v |= (__u64)p[i] << (8 * i);
	return v;
}

static void kbin_cast_store(unsigned char *p, __u32 size, __u64 v)
{
	__u32 i;

	for (i = 0; i < size; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static void kbin_cast_decode(const struct kbin_dma_dtype_info *t, __u64 raw,
			     struct kbin_num *n)
{
	__u32 bits = t->size * 8, mb = t->man_bits, eb = t->exp_bits;
	__u64 frac, e, emax;
	int bias;

	n->sign = 0;
	n->exp = 0;
	n->mag = raw;
	if (t->cls == KBIN_DMA_SINT && (raw >> (bits - 1)) & 1) {
		n->sign = 1;
		n->mag = bits == 64 ? ~raw + 1 : ((1ULL << bits) - raw);
	}
	if (t->cls != KBIN_DMA_FLOAT) {
		n->kind = n->mag ? KBIN_NUM_FINITE : KBIN_NUM_ZERO;
		return;
	}
	frac = raw & ((1ULL << mb) - 1);
	e = (raw >> mb) & ((1ULL << eb) - 1);
	emax = (1ULL << eb) - 1;
	bias = (1 << (eb - 1)) - 1;
	n->sign = (raw >> (mb + eb)) & 1;
	if (e == emax) {
		n->kind = frac ? KBIN_NUM_NAN : KBIN_NUM_INF;
		n->mag = frac << (64 - mb);
	} else if (!e) {
		n->kind = frac ? KBIN_NUM_FINITE : KBIN_NUM_ZERO;
		n->mag = frac;
		n->exp = 1 - bias - (int)mb;
	} else {
		n->kind = KBIN_NUM_FINITE;
		n->mag = frac | (1ULL << mb);
		n->exp = (int)e - bias - (int)mb;
	}
}

/*
 * @m >> @sh rounded to nearest, ties to even; @sh may be 0 or far past 64
 * (then the result is 0: @m < 2^64 is below half of 2^@sh).
 */
static __u64 kbin_cast_rne(__u64 m, unsigned int sh)
{
	__u64 q, half, rest;

	if (!sh)
		return m;
	if (sh > 64)
		return 0;
	if (sh == 64) {
		q = 0;
		half = m >> 63;
		rest = m & ~(1ULL << 63);
	} else {
		q = m >> sh;
		half = (m >> (sh - 1)) & 1;
		rest = m & ((1ULL << (sh - 1)) - 1);
	}
	if (half && (rest || (q & 1)))
		q++;
	return q;
}

static __u64 kbin_cast_encode_float(const struct kbin_dma_dtype_info *t,
				    const struct kbin_num *n)
{
	__u32 mb = t->man_bits, eb = t->exp_bits;
	__u64 emax = (1ULL << eb) - 1, sign = (__u64)n->sign << (mb + eb);
	__u64 inf = sign | (emax << mb), m, q;
	int bias = (1 << (eb - 1)) - 1, emin = 1 - bias, e, lz;

	switch (n->kind) {
	case KBIN_NUM_ZERO:
		return sign;
	case KBIN_NUM_INF:
		return inf;
	case KBIN_NUM_NAN:
		return inf | (1ULL << (mb - 1)) | (n->mag >> (64 - mb));
	}
	lz = __builtin_clzll(n->mag);
	m = n->mag << lz;
	e = n->exp + 63 - lz;		/* the value is in [2^e, 2^(e + 1)) */
	if (e > bias)
		return inf;
	if (e < emin)			/* subnormal: 2^mb is the least normal */
		return sign | kbin_cast_rne(m, 63 - mb + (unsigned int)(emin - e));
	q = kbin_cast_rne(m, 63 - mb);	/* 2^mb .. 2^(mb + 1), a carry */
	q += (__u64)(e + bias - 1) << mb;
	if ((q >> mb) >= emax)
		return inf;
	return sign | q;
}

static __u64 kbin_cast_encode_int(const struct kbin_dma_dtype_info *t,
				  const struct kbin_num *n)
{
	__u32 bits = t->size * 8;
	__u64 umax = bits == 64 ? ~0ULL : (1ULL << bits) - 1, v = 0, lim;
	int over = 0;

	if (n->kind == KBIN_NUM_NAN || n->kind == KBIN_NUM_ZERO)
		return 0;
	if (n->kind == KBIN_NUM_INF) {
		over = 1;
	} else if (n->exp >= 0) {
		if (n->exp >= 64 || (n->exp && n->mag >> (64 - n->exp)))
			over = 1;
		else
			v = n->mag << n->exp;
	} else {
		v = kbin_cast_rne(n->mag, (unsigned int)-n->exp);
	}
	if (t->cls == KBIN_DMA_UINT) {
		if (n->sign)
			return 0;
		return over || v > umax ? umax : v;
	}
	/* signed: at most 2^(bits - 1) - 1, at least -2^(bits - 1) */
	lim = 1ULL << (bits - 1);
	if (!n->sign)
		return over || v >= lim ? lim - 1 : v;
	if (over || v >= lim)
		return lim & umax;
	return (~v + 1) & umax;
}

/**
 * kbin_cast_ok() - can the cast op convert between two element types?
 * @from: enum kbin_dma_dtype of the source.
 * @to: enum kbin_dma_dtype of the destination.
 *
 * Every pair of the table is supported (Documentation/dma.rst, "Casts").
 *
 * Return: 1 when both are element types, else 0.
 */
int kbin_cast_ok(unsigned int from, unsigned int to)
{
	return kbin_dma_dtype(from) && kbin_dma_dtype(to);
}

/**
 * kbin_cast() - convert @n elements from one element type to another.
 * @from: enum kbin_dma_dtype of @src, accepted by kbin_cast_ok().
 * @to: enum kbin_dma_dtype of @dst.
 * @src: @n little-endian elements of @from (any alignment).
 * @dst: room for @n elements of @to; must not overlap @src.
 * @n: element count.
 *
 * Float results round to nearest, ties to even; integer results round
 * to nearest even and saturate; NaN to an integer is 0 (kbin_cast.h).
 */
void kbin_cast(unsigned int from, unsigned int to, const void *src, void *dst,
	       __u32 n)
{
	const struct kbin_dma_dtype_info *ft = kbin_dma_dtype(from);
	const struct kbin_dma_dtype_info *tt = kbin_dma_dtype(to);
	const unsigned char *s = src;
	unsigned char *d = dst;
	struct kbin_num v;
	__u32 i;

	for (i = 0; i < n; i++) {
		kbin_cast_decode(ft, kbin_cast_load(s + (__u64)i * ft->size, ft->size),
				 &v);
		kbin_cast_store(d + (__u64)i * tt->size, tt->size,
				tt->cls == KBIN_DMA_FLOAT ?
				kbin_cast_encode_float(tt, &v) :
				kbin_cast_encode_int(tt, &v));
	}
}
