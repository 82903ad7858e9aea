// SPDX-License-Identifier: GPL-2.0
/*
 * dma_cast_test - the DMA cast op's conversions (kmod/plan/kbin_cast.c;
 * Documentation/dma.rst, "Casts") against independent oracles: the
 * compiler's _Float16 conversions (IEEE binary16, round to nearest even),
 * float32 arithmetic, bfloat16 as float32's top half rounded by hand,
 * and the C conversions of integers; with round trips, ties to even,
 * NaN, Inf and subnormals for float16 and bfloat16.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "tl_f32.h"
#include "kselftest_harness.h"
#include "kbin_cast.h"
#include "kbin_dma.h"

#define F32 KBIN_DMA_DTYPE_FLOAT32
#define F16 KBIN_DMA_DTYPE_FLOAT16
#define BF16 KBIN_DMA_DTYPE_BFLOAT16
#define I8 KBIN_DMA_DTYPE_INT8
#define I32 KBIN_DMA_DTYPE_INT32
#define U8 KBIN_DMA_DTYPE_UINT8


/* bfloat16 of a float32 by hand: round the low 16 bits to nearest even */
static uint16_t bf16_oracle(uint32_t u)
{
	if ((u & 0x7f800000) == 0x7f800000 && (u & 0x7fffff))
		return (uint16_t)((u >> 16) | 0x40);	/* quiet NaN */
	return (uint16_t)((u + 0x7fff + ((u >> 16) & 1)) >> 16);
}

/* every 4099th float32 bit pattern, each into float16 and bfloat16 */
TEST(f32_to_f16_bf16_sampled)
{
	uint64_t i, bad16 = 0, badbf = 0;

	for (i = 0; i < (1ULL << 32); i += 4099) {
		uint32_t u = (uint32_t)i;
		float f = tl_u2f(u);
		_Float16 h = (_Float16)f;
		uint16_t want, got, gotbf;

		memcpy(&want, &h, 2);
		kbin_cast(F32, F16, &u, &got, 1);
		kbin_cast(F32, BF16, &u, &gotbf, 1);
		if (isnan(f)) {
			bad16 += (got & 0x7c00) != 0x7c00 || !(got & 0x200) ||
				 (got >> 15) != (u >> 31);
			badbf += (gotbf & 0x7f80) != 0x7f80 || !(gotbf & 0x40);
			continue;
		}
		bad16 += got != want;
		badbf += gotbf != bf16_oracle(u);
	}
	EXPECT_EQ(0, bad16);
	EXPECT_EQ(0, badbf);
}

/* every float16 and bfloat16 to float32 and back: exact both ways */
TEST(f16_bf16_round_trip)
{
	uint32_t i, bad = 0;

	for (i = 0; i < 65536; i++) {
		uint16_t x = i, back, bb;
		_Float16 h;
		uint32_t f, fb;

		memcpy(&h, &x, 2);
		kbin_cast(F16, F32, &x, &f, 1);
		kbin_cast(F32, F16, &f, &back, 1);
		if (!isnan((float)h))
			bad += f != tl_f2u((float)h) || back != x;
		else
			bad += !isnan(tl_u2f(f)) || (back & 0xfe00) != ((x & 0xfe00) | 0x200);
		kbin_cast(BF16, F32, &x, &fb, 1);
		kbin_cast(F32, BF16, &fb, &bb, 1);
		if ((x & 0x7f80) != 0x7f80 || !(x & 0x7f)) {
			bad += fb != (uint32_t)x << 16 || bb != x;
		} else {	/* NaN: quieted, payload kept */
			bad += fb != ((uint32_t)x << 16 | 0x400000);
			bad += bb != (x | 0x40);
		}
	}
	EXPECT_EQ(0, bad);
}

/* the edges by value: ties to even, overflow, subnormals, Inf, NaN */
TEST(f32_to_f16_edges)
{
	static const struct { uint32_t f32; uint16_t f16; } t[] = {
		{ 0x3f800000, 0x3c00 },	/* 1.0 */
		{ 0x3f801000, 0x3c00 },	/* 1 + 2^-11: a tie, to even (down) */
		{ 0x3f803000, 0x3c02 },	/* 1 + 3 * 2^-11: a tie, to even (up) */
		{ 0x3f801001, 0x3c01 },	/* just above the tie: up */
		{ 0x477fe000, 0x7bff },	/* 65504, the largest */
		{ 0x477ff000, 0x7c00 },	/* 65520: a tie past it, Inf */
		{ 0x477fefff, 0x7bff },	/* below the tie: 65504 */
		{ 0x33800000, 0x0001 },	/* 2^-24: the least subnormal */
		{ 0x33000000, 0x0000 },	/* 2^-25: a tie, to even 0 */
		{ 0x33000001, 0x0001 },	/* above it: the least subnormal */
		{ 0x38800000, 0x0400 },	/* 2^-14: the least normal */
		{ 0x387ff000, 0x0400 },	/* rounds up into the least normal */
		{ 0x80000000, 0x8000 },	/* -0 */
		{ 0x7f800000, 0x7c00 },	/* Inf */
		{ 0xff800000, 0xfc00 },	/* -Inf */
		{ 0x7fc00000, 0x7e00 },	/* quiet NaN */
		{ 0xffa00000, 0xfd00 | 0x200 },	/* a signalling NaN: quieted, payload kept */
	};
	unsigned int i;
	uint16_t h;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		kbin_cast(F32, F16, &t[i].f32, &h, 1);
		EXPECT_EQ(t[i].f16, h) {
			TH_LOG("float32 0x%08x: 0x%04x, want 0x%04x", t[i].f32, h, t[i].f16);
		}
	}
}

TEST(bf16_edges)
{
	static const struct { uint32_t f32; uint16_t bf; } t[] = {
		{ 0x3f808000, 0x3f80 },	/* a tie, to even (down) */
		{ 0x3f818000, 0x3f82 },	/* a tie, to even (up) */
		{ 0x7f7fffff, 0x7f80 },	/* the largest float32: rounds to Inf */
		{ 0x00010000, 0x0001 },	/* a float32 subnormal stays one */
		{ 0x00008000, 0x0000 },	/* half the least bfloat16 subnormal: 0 */
		{ 0xff800000, 0xff80 },
		{ 0x7fc00001, 0x7fc0 },
	};
	unsigned int i;
	uint16_t b;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		kbin_cast(F32, BF16, &t[i].f32, &b, 1);
		EXPECT_EQ(t[i].bf, b);
	}
}

/* int8 to float32 and float16 (what real NEFFs cast): exact */
TEST(int8_to_float)
{
	int8_t v[256];
	float f[256];
	_Float16 h[256];
	int i;

	for (i = 0; i < 256; i++)
		v[i] = (int8_t)(i - 128);
	kbin_cast(I8, F32, v, f, 256);
	kbin_cast(I8, F16, v, h, 256);
	for (i = 0; i < 256; i++) {
		EXPECT_EQ((float)v[i], f[i]);
		EXPECT_EQ((float)v[i], (float)h[i]);
	}
}

/* int32 <-> float32, float -> int saturation and rounding */
TEST(int32_float32)
{
	uint64_t i, bad = 0;

	for (i = 0; i < (1ULL << 32); i += 65537) {
		int32_t v = (int32_t)(uint32_t)i, r, want;
		float f = tl_u2f((uint32_t)i), o, rf;

		kbin_cast(I32, F32, &v, &o, 1);
		bad += o != (float)v;
		kbin_cast(F32, I32, &f, &r, 1);
		rf = nearbyintf(f);	/* the default mode: to nearest even */
		want = isnan(f) ? 0 : rf >= 2147483648.0f ? INT32_MAX :
		       rf < -2147483648.0f ? INT32_MIN : (int32_t)rf;
		bad += r != want;
	}
	EXPECT_EQ(0, bad);
}

TEST(int_saturation)
{
	int32_t big[4] = { 300, -300, 127, -128 };
	int8_t s[4];
	uint8_t u[4];
	float f[3] = { 2.5f, 3.5f, -1.0f };
	uint8_t fu[3];

	kbin_cast(I32, I8, big, s, 4);
	EXPECT_EQ(127, s[0]);
	EXPECT_EQ(-128, s[1]);
	EXPECT_EQ(127, s[2]);
	EXPECT_EQ(-128, s[3]);
	kbin_cast(I32, U8, big, u, 4);
	EXPECT_EQ(255, u[0]);
	EXPECT_EQ(0, u[1]);
	kbin_cast(F32, U8, f, fu, 3);
	EXPECT_EQ(2, fu[0]);	/* a tie, to even */
	EXPECT_EQ(4, fu[1]);
	EXPECT_EQ(0, fu[2]);	/* negative: saturates at 0 */
	EXPECT_TRUE(kbin_cast_ok(F32, F16));
	EXPECT_FALSE(kbin_cast_ok(0, F16));
}

TEST_HARNESS_MAIN
