// SPDX-License-Identifier: GPL-2.0
/*
 * num_test - the engines' numerics library (kmod/plan/kbin_num.c,
 * Documentation/numerics.rst) against independent oracles:
 *
 *  - the name tables, both ways;
 *  - alu, alu_scalar, reduce, matmul, identity, relu, square, reciprocal
 *    and rsqrt bit for bit against the plain C float expressions (this
 *    file is compiled with -ffp-contract=off too), over special values
 *    (+-0, +-Inf, NaNs, subnormals, FLT_MAX) and random bit patterns;
 *    every NaN result must be the canonical 0x7fc00000;
 *  - exp, tanh, sigmoid, silu and gelu within their error bound in ulps
 *    of the correctly rounded value (libm's long double functions rounded
 *    to float) over 2^20 float32 bit patterns spread over all 2^32 plus
 *    dense windows around every threshold, and their non-finite values
 *    exactly.
 *
 * "num_test --all [NAME]" measures the maximum error of every function (or
 * of NAME) over all 2^32 inputs instead, and "num_test --bench" the cost of matmul in
 * ns per multiply-accumulate; make bench-progs builds this file at -O2 as
 * build/bench/num_test for both (Documentation/numerics.rst has the
 * figures).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tl_f32.h"
#include "kselftest_harness.h"
#include "kbin_num.h"

#define QNAN 0x7fc00000U
#define ONE 0x3f800000U

/* the error bounds in ulps asserted below (measured maxima: numerics.rst) */
#define ULP_BOUND 1


/* a float result as the library must give it: NaN canonical */
static uint32_t canon(float f)
{
	return isnan(f) ? QNAN : tl_f2u(f);
}

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 16);
}

static const uint32_t specials[] = {
	0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007fffff,
	0x807fffff, 0x00800000, 0x80800000, 0x7f7fffff, 0xff7fffff,
	0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7f800001,
	0xff812345, 0x7fc12345, 0x3f800000, 0xbf800000, 0x3f800001,
	0x3f7fffff, 0x40000000, 0xc0400000, 0x34000000, 0x33800000,
	0x5f000000, 0x1f800000, 0x42b17218, 0xc2cff1b5, 0x3fb504f3,
};

#define NSPECIAL (sizeof(specials) / sizeof(specials[0]))

/* specials, then random bit patterns, then random moderate values */
static uint32_t value(unsigned int i)
{
	if (i < NSPECIAL)
		return specials[i];
	if (i & 1)
		return rnd();
	return tl_f2u((float)((int32_t)rnd() % 2000) / 64.0f);
}

TEST(names)
{
	unsigned int i;

	for (i = 0; i < KBIN_ACT_NUM; i++)
		EXPECT_EQ((int)i, kbin_act_func_parse(kbin_act_func_str(i)));
	for (i = 0; i < KBIN_ALU_NUM; i++)
		EXPECT_EQ((int)i, kbin_alu_op_parse(kbin_alu_op_str(i)));
	EXPECT_STREQ("gelu", kbin_act_func_str(KBIN_ACT_GELU));
	EXPECT_STREQ("reciprocal", kbin_act_func_str(KBIN_ACT_RECIPROCAL));
	EXPECT_STREQ("max", kbin_alu_op_str(KBIN_ALU_MAX));
	EXPECT_STREQ("unknown", kbin_act_func_str(KBIN_ACT_NUM));
	EXPECT_STREQ("unknown", kbin_alu_op_str(KBIN_ALU_NUM));
	EXPECT_EQ(-EINVAL, kbin_act_func_parse("Gelu"));
	EXPECT_EQ(-EINVAL, kbin_act_func_parse(""));
	EXPECT_EQ(-EINVAL, kbin_act_func_parse(NULL));
	EXPECT_EQ(-EINVAL, kbin_alu_op_parse("min"));
	EXPECT_EQ(-EINVAL, kbin_alu_op_parse("add "));
}

static float alu_ref(unsigned int op, float a, float b)
{
	switch (op) {
	case KBIN_ALU_ADD:
		return a + b;
	case KBIN_ALU_SUBTRACT:
		return a - b;
	case KBIN_ALU_MULTIPLY:
		return a * b;
	case KBIN_ALU_DIVIDE:
		return a / b;
	default:
		return a > b ? a : b;
	}
}

#define NV 4096

/* every pair of specials and random pairs, vector and scalar forms */
TEST(alu_exact)
{
	static uint32_t a[NV], b[NV], r[NV];
	unsigned int op, i, j, bad = 0;

	for (op = 0; op < KBIN_ALU_NUM; op++) {
		for (i = 0; i < NV; i++) {
			a[i] = i < NSPECIAL * NSPECIAL ?
			       specials[i / NSPECIAL] : value(i);
			b[i] = i < NSPECIAL * NSPECIAL ?
			       specials[i % NSPECIAL] : value(i + 1);
		}
		memcpy(r, a, sizeof(r));
		kbin_num_alu(op, r, b, NV);
		for (i = 0; i < NV; i++) {
			if (r[i] != canon(alu_ref(op, tl_u2f(a[i]), tl_u2f(b[i])))) {
				if (bad++ < 5)
					TH_LOG("%s 0x%08x 0x%08x: 0x%08x",
					       kbin_alu_op_str(op), a[i], b[i], r[i]);
			}
		}
		for (j = 0; j < NSPECIAL + 4; j++) {
			uint32_t s = j < NSPECIAL ? specials[j] : rnd();

			memcpy(r, a, sizeof(r));
			kbin_num_alu_scalar(op, r, s, NV);
			for (i = 0; i < NV; i++)
				bad += r[i] != canon(alu_ref(op, tl_u2f(a[i]), tl_u2f(s)));
		}
	}
	EXPECT_EQ(0, bad);
	/* a[i] OP a[i] in place; max: NaN on the left gives the right */
	a[0] = 0x7fc12345;
	a[1] = tl_f2u(2.0f);
	kbin_num_alu(KBIN_ALU_ADD, a, a, 2);
	EXPECT_EQ(QNAN, a[0]);
	EXPECT_EQ(tl_f2u(4.0f), a[1]);
	a[0] = QNAN;
	a[1] = 0x80000000;
	b[0] = tl_f2u(3.0f);
	b[1] = 0;
	kbin_num_alu(KBIN_ALU_MAX, a, b, 2);
	EXPECT_EQ(tl_f2u(3.0f), a[0]);
	EXPECT_EQ(0, a[1]);
	/* an unknown op leaves the data alone */
	a[0] = 1;
	kbin_num_alu(KBIN_ALU_NUM, a, b, 1);
	kbin_num_alu_scalar(KBIN_ALU_NUM, a, 5, 1);
	EXPECT_EQ(1, a[0]);
}

TEST(reduce_exact)
{
	static uint32_t x[NV];
	unsigned int op, t, i, n, bad = 0;

	for (op = 0; op < KBIN_ALU_NUM; op++) {
		for (t = 0; t < 64; t++) {
			uint32_t acc = t < NSPECIAL ? specials[t] : value(t);
			float want = tl_u2f(acc);

			n = rnd() % NV;
			for (i = 0; i < n; i++) {
				/* few specials: most sums stay finite */
				x[i] = rnd() % 64 ? tl_f2u((float)((int32_t)rnd() % 100000) / 7.0f) :
				       specials[rnd() % NSPECIAL];
				want = alu_ref(op, want, tl_u2f(x[i]));
			}
			bad += kbin_num_reduce(op, acc, x, n) != canon(want);
		}
	}
	EXPECT_EQ(0, bad);
	/* left to right: (1e8 + 1) - 1e8 is 0 in float32, not 1 */
	x[0] = tl_f2u(1.0f);
	x[1] = tl_f2u(-1e8f);
	EXPECT_EQ(0, kbin_num_reduce(KBIN_ALU_ADD, tl_f2u(1e8f), x, 2));
	EXPECT_EQ(0x80000000, kbin_num_reduce(KBIN_ALU_ADD, 0x80000000, x, 0));
	EXPECT_EQ(0, kbin_num_reduce(KBIN_ALU_ADD, 0x80000000, specials, 1));
	EXPECT_EQ(7, kbin_num_reduce(KBIN_ALU_NUM, 7, x, 2));
}

static void matmul_ref(uint32_t *out, const uint32_t *a, const uint32_t *b,
		       unsigned int k, unsigned int m, unsigned int n, int acc)
{
	unsigned int i, j, p;

	for (i = 0; i < m; i++)
		for (j = 0; j < n; j++) {
			float s = acc ? tl_u2f(out[i * n + j]) : 0.0f;

			for (p = 0; p < k; p++)
				s = s + tl_u2f(a[p * m + i]) * tl_u2f(b[p * n + j]);
			out[i * n + j] = canon(s);
		}
}

TEST(matmul_exact)
{
	static const unsigned int shapes[][3] = {
		{ 1, 1, 1 }, { 1, 1, 4 }, { 3, 2, 5 }, { 7, 5, 3 },
		{ 16, 8, 17 }, { 64, 32, 64 }, { 128, 3, 131 }, { 5, 1, 1024 },
		{ 0, 4, 4 },
	};
	unsigned int s, t, i, bad = 0;

	for (s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++) {
		unsigned int k = shapes[s][0], m = shapes[s][1], n = shapes[s][2];
		uint32_t *a = calloc(k * m + 1, 4), *b = calloc(k * n + 1, 4);
		uint32_t *o = calloc(m * n, 4), *w = calloc(m * n, 4);

		ASSERT_TRUE(a && b && o && w);
		for (t = 0; t < 4; t++) {
			int acc = t & 1;

			/* t >= 2: sprinkle specials among the values */
			for (i = 0; i < k * m; i++)
				a[i] = t >= 2 && rnd() % 16 == 0 ? specials[rnd() % NSPECIAL] :
				       tl_f2u((float)((int32_t)rnd() % 4096) / 256.0f);
			for (i = 0; i < k * n; i++)
				b[i] = t >= 2 && rnd() % 16 == 0 ? specials[rnd() % NSPECIAL] :
				       tl_f2u((float)((int32_t)rnd() % 4096) / 512.0f);
			for (i = 0; i < m * n; i++)
				o[i] = w[i] = t == 3 && i % 5 == 0 ?
					      specials[rnd() % NSPECIAL] :
					      tl_f2u((float)((int32_t)rnd() % 100));
			matmul_ref(w, a, b, k, m, n, acc);
			kbin_num_matmul(o, a, b, k, m, n, acc);
			for (i = 0; i < m * n; i++) {
				if (o[i] != w[i] && bad++ < 5)
					TH_LOG("k %u m %u n %u acc %d [%u]: 0x%08x, want 0x%08x",
					       k, m, n, acc, i, o[i], w[i]);
			}
		}
		free(a);
		free(b);
		free(o);
		free(w);
	}
	EXPECT_EQ(0, bad);
	{
		/* -0 products on a +0 start give +0; accumulate keeps -0 */
		uint32_t a1 = 0x80000000, b1 = tl_f2u(1.0f), o1 = 0x12345678;

		kbin_num_matmul(&o1, &a1, &b1, 1, 1, 1, 0);
		EXPECT_EQ(0, o1);
		o1 = 0x80000000;
		kbin_num_matmul(&o1, &a1, &b1, 1, 1, 1, 1);
		EXPECT_EQ(0x80000000, o1);
	}
}

static float act_exact_ref(unsigned int func, float x)
{
	switch (func) {
	case KBIN_ACT_IDENTITY:
		return x;
	case KBIN_ACT_RELU:
		return x > 0 ? x : 0;
	case KBIN_ACT_SQUARE:
		return x * x;
	case KBIN_ACT_RSQRT:
		return 1.0f / sqrtf(x);
	default:
		return 1.0f / x;
	}
}

/* the float32 functions over 2^20 spread patterns, several scales */
TEST(act_exact)
{
	static const unsigned int funcs[] = {
		KBIN_ACT_IDENTITY, KBIN_ACT_RELU, KBIN_ACT_SQUARE,
		KBIN_ACT_RSQRT, KBIN_ACT_RECIPROCAL,
	};
	static const float scales[] = { 1.0f, -1.0f, 0.5f, 3.0f, 1e-30f, 1e30f, 0.0f };
	static uint32_t x[NV], r[NV];
	unsigned int f, s, i, blk, bad = 0;

	for (f = 0; f < 5; f++) {
		for (s = 0; s < 7; s++) {
			float sc = scales[s];
			/* scale 1: the 2^20 patterns; other scales: 2^16 */
			unsigned int nblk = s ? 16 : 256;

			for (blk = 0; blk < nblk; blk++) {
				for (i = 0; i < NV; i++)
					x[i] = blk == 0 && i < NSPECIAL ? specials[i] :
					       (uint32_t)((blk * NV + i) * (nblk == 256 ? 4096U : 65536U)) +
					       (rnd() & (nblk == 256 ? 4095 : 65535));
				memcpy(r, x, sizeof(r));
				kbin_num_act(funcs[f], r, NV, tl_f2u(sc));
				for (i = 0; i < NV; i++) {
					uint32_t want = canon(act_exact_ref(funcs[f], tl_u2f(x[i]) * sc));

					if (r[i] != want && bad++ < 5)
						TH_LOG("%s(0x%08x * %g): 0x%08x, want 0x%08x",
						       kbin_act_func_str(funcs[f]), x[i], sc, r[i], want);
				}
			}
		}
	}
	EXPECT_EQ(0, bad);
	/* relu(-0) = +0, relu(NaN) = +0, rsqrt(-0) = -Inf, rsqrt(-1) = NaN */
	x[0] = 0x80000000;
	x[1] = 0x7fc12345;
	kbin_num_act(KBIN_ACT_RELU, x, 2, ONE);
	EXPECT_EQ(0, x[0]);
	EXPECT_EQ(0, x[1]);
	x[0] = 0x80000000;
	x[1] = 0xbf800000;
	kbin_num_act(KBIN_ACT_RSQRT, x, 2, ONE);
	EXPECT_EQ(0xff800000, x[0]);
	EXPECT_EQ(QNAN, x[1]);
	/* an unknown function leaves the data alone */
	x[0] = 0x80000000;
	kbin_num_act(KBIN_ACT_NUM, x, 1, ONE);
	EXPECT_EQ(0x80000000, x[0]);
}

/* the correctly rounded value: long double libm, rounded to float */
static float trans_ref(unsigned int func, float xf)
{
	long double x = xf, u;

	switch (func) {
	case KBIN_ACT_EXP:
		return (float)expl(x);
	case KBIN_ACT_TANH:
		return (float)tanhl(x);
	case KBIN_ACT_SIGMOID:
		return (float)(1.0L / (1.0L + expl(-x)));
	case KBIN_ACT_SILU:
		return (float)(x / (1.0L + expl(-x)));
	default:
		/* 0.5 x (1 + tanh(u)) without the cancellation of 1 + tanh */
		u = 0.7978845608L * (x + 0.044715L * x * x * x);
		return (float)(x / (1.0L + expl(-2.0L * u)));
	}
}

/* float32 bits as integers in the order of their values (+0 = -0 = 0) */

static const unsigned int trans[] = {
	KBIN_ACT_EXP, KBIN_ACT_TANH, KBIN_ACT_SIGMOID, KBIN_ACT_SILU,
	KBIN_ACT_GELU,
};

#define NTRANS (sizeof(trans) / sizeof(trans[0]))

struct ulp_stat {
	uint64_t ulp, n, nonzero, bad_nan;
	uint32_t worst;
};

/* the error of @n results of @func on the inputs @x, in ulps */
static void ulp_check(unsigned int func, const uint32_t *x, uint32_t *r,
		      unsigned int n, struct ulp_stat *st)
{
	unsigned int i;

	memcpy(r, x, n * 4);
	kbin_num_act(func, r, n, ONE);
	for (i = 0; i < n; i++) {
		float want = trans_ref(func, tl_u2f(x[i]));
		int64_t d;

		if (isinf(tl_u2f(x[i])) || isnan(tl_u2f(x[i])))
			continue;	/* exact, checked in trans_special */
		st->n++;
		if (isnan(want) || r[i] == QNAN) {
			st->bad_nan += r[i] != canon(want);
			continue;
		}
		d = (int64_t)tl_f32_ulp(r[i], tl_f2u(want));
		st->nonzero += d != 0;
		if ((uint64_t)d > st->ulp) {
			st->ulp = d;
			st->worst = x[i];
		}
	}
}

static void ulp_print(unsigned int func, const struct ulp_stat *st)
{
	printf("# %-8s max %llu ulp (at 0x%08x = %.9g), %llu of %llu inputs not correctly rounded\n",
	       kbin_act_func_str(func), (unsigned long long)st->ulp, st->worst,
	       tl_u2f(st->worst), (unsigned long long)st->nonzero,
	       (unsigned long long)st->n);
	fflush(stdout);
}

/* the windows around every threshold of kbin_num.c, 2048 patterns each */
static const float windows[] = {
	88.7228394f, 89.0f, -87.3365479f, -103.972076f, -104.0f, 0x1p-12f,
	-0x1p-12f, 9.0109f, 9.1f, 17.3f, 30.0f, -30.0f, -120.0f, -108.7f,
	-11.1f, 6.6f, 0.0f, 1e-20f, 0.5f, -0.5f, 1.0f, -3.0f, 0x1p-126f,
};

TEST(transcendental_ulp)
{
	static uint32_t x[NV], r[NV];
	unsigned int f, blk, i, w;

	for (f = 0; f < NTRANS; f++) {
		struct ulp_stat st = { 0 };

		rng = 0x2545f4914f6cdd1dULL;
		for (blk = 0; blk < 256; blk++) {
			for (i = 0; i < NV; i++)
				x[i] = (uint32_t)((blk * NV + i) * 4096U) + (rnd() & 4095);
			ulp_check(trans[f], x, r, NV, &st);
		}
		for (w = 0; w < sizeof(windows) / sizeof(windows[0]); w++) {
			uint32_t c = tl_f2u(windows[w]);

			for (i = 0; i < 2048; i++)
				x[i] = c - 1024 + i;
			ulp_check(trans[f], x, r, 2048, &st);
		}
		ulp_print(trans[f], &st);
		EXPECT_GE(ULP_BOUND, st.ulp);
		EXPECT_EQ(0, st.bad_nan);
	}
}

/* NaN gives the canonical NaN; Inf the limits; -0 and tiny arguments */
TEST(transcendental_special)
{
	static const struct {
		unsigned int func;
		uint32_t x, want;
	} t[] = {
		{ KBIN_ACT_EXP, 0xff800000, 0 },
		{ KBIN_ACT_EXP, 0x7f800000, 0x7f800000 },
		{ KBIN_ACT_EXP, 0x7fc12345, QNAN },
		{ KBIN_ACT_EXP, 0xff812345, QNAN },
		{ KBIN_ACT_EXP, 0x80000000, ONE },
		{ KBIN_ACT_EXP, 0x00000001, ONE },
		{ KBIN_ACT_EXP, 0x42b17217, 0x7f7fff84 },	/* 88.722832 */
		{ KBIN_ACT_EXP, 0x42b17218, 0x7f800000 },	/* overflows */
		{ KBIN_ACT_EXP, 0xc2cff1b4, 0x00000001 },	/* -103.972076: 2^-149 */
		{ KBIN_ACT_EXP, 0xc2cff1b5, 0 },		/* below 2^-150 */
		{ KBIN_ACT_EXP, 0xc2d00000, 0 },		/* -104 */
		{ KBIN_ACT_TANH, 0x7f800000, ONE },
		{ KBIN_ACT_TANH, 0xff800000, 0xbf800000 },
		{ KBIN_ACT_TANH, 0x80000000, 0x80000000 },
		{ KBIN_ACT_TANH, 0x80000001, 0x80000001 },
		{ KBIN_ACT_TANH, 0x7fc00001, QNAN },
		{ KBIN_ACT_SIGMOID, 0x7f800000, ONE },
		{ KBIN_ACT_SIGMOID, 0xff800000, 0 },
		{ KBIN_ACT_SIGMOID, 0x80000000, 0x3f000000 },
		{ KBIN_ACT_SIGMOID, 0xffc00000, QNAN },
		{ KBIN_ACT_SILU, 0x7f800000, 0x7f800000 },
		{ KBIN_ACT_SILU, 0xff800000, 0x7fc00000 },
		{ KBIN_ACT_SILU, 0x80000000, 0x80000000 },
		{ KBIN_ACT_SILU, 0x7f800001, QNAN },
		{ KBIN_ACT_GELU, 0x7f800000, 0x7f800000 },
		{ KBIN_ACT_GELU, 0xff800000, 0x7fc00000 },
		{ KBIN_ACT_GELU, 0x80000000, 0x80000000 },
		{ KBIN_ACT_GELU, 0x00000000, 0x00000000 },
		{ KBIN_ACT_GELU, 0xff7fffff, 0x80000000 },
		{ KBIN_ACT_GELU, 0x7f7fffff, 0x7f7fffff },
		{ KBIN_ACT_GELU, 0x7fc00000, QNAN },
	};
	unsigned int i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		uint32_t r = t[i].x;

		kbin_num_act(t[i].func, &r, 1, ONE);
		EXPECT_EQ(t[i].want, r) {
			TH_LOG("%s(0x%08x)", kbin_act_func_str(t[i].func), t[i].x);
		}
	}
	/* the scale applies first: exp(0.5 * 2) = e */
	{
		uint32_t r = tl_f2u(0.5f);

		kbin_num_act(KBIN_ACT_EXP, &r, 1, tl_f2u(2.0f));
		EXPECT_EQ(tl_f2u((float)expl(1.0L)), r);
	}
}

/* --all [NAME]: every activation function (or NAME) over all 2^32 inputs */
static int run_all(const char *name)
{
	static uint32_t x[1U << 16], r[1U << 16];
	unsigned int f;
	uint64_t hi;

	for (f = 0; f < NTRANS; f++) {
		struct ulp_stat st = { 0 };

		if (name && strcmp(name, kbin_act_func_str(trans[f])))
			continue;
		for (hi = 0; hi < (1ULL << 16); hi++) {
			unsigned int i;

			for (i = 0; i < (1U << 16); i++)
				x[i] = (uint32_t)(hi << 16 | i);
			ulp_check(trans[f], x, r, 1U << 16, &st);
		}
		ulp_print(trans[f], &st);
		if (st.bad_nan)
			printf("# %s: %llu NaN mismatches\n", kbin_act_func_str(trans[f]),
			       (unsigned long long)st.bad_nan);
	}
	return 0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* --bench: matmul in calls of KBIN_NUM_MATMUL_MACS, and act per element */
static int run_bench(void)
{
	static const unsigned int shapes[][3] = {
		{ 64, 64, 64 }, { 128, 128, 16 }, { 16, 128, 128 }, { 128, 16, 128 },
	};
	unsigned int s, f, i;

	for (s = 0; s < 4; s++) {
		unsigned int k = shapes[s][0], m = shapes[s][1], n = shapes[s][2];
		uint32_t *a = malloc(k * m * 4), *b = malloc(k * n * 4), *o = malloc(m * n * 4);
		unsigned int reps = 400;
		double t0, t;

		if (!a || !b || !o)
			return 1;
		for (i = 0; i < k * m; i++)
			a[i] = tl_f2u((float)(rnd() % 1000) / 1000.0f);
		for (i = 0; i < k * n; i++)
			b[i] = tl_f2u((float)(rnd() % 1000) / 1000.0f);
		kbin_num_matmul(o, a, b, k, m, n, 0);
		t0 = now();
		for (i = 0; i < reps; i++)
			kbin_num_matmul(o, a, b, k, m, n, 1);
		t = now() - t0;
		printf("# matmul k %u m %u n %u: %.3f ns/MAC\n", k, m, n,
		       t * 1e9 / ((double)reps * k * m * n));
		free(a);
		free(b);
		free(o);
	}
	for (f = 0; f < KBIN_ACT_NUM; f++) {
		static uint32_t x[KBIN_NUM_CHUNK], src[KBIN_NUM_CHUNK];
		double t0, t;

		for (i = 0; i < KBIN_NUM_CHUNK; i++)
			src[i] = tl_f2u((float)((int32_t)(rnd() % 2000) - 1000) / 100.0f);
		t0 = now();
		for (i = 0; i < 1000; i++) {
			memcpy(x, src, sizeof(x));
			kbin_num_act(f, x, KBIN_NUM_CHUNK, ONE);
		}
		t = now() - t0;
		printf("# act %-10s %.3f ns/element (with a 16 KiB copy)\n", kbin_act_func_str(f),
		       t * 1e9 / (1000.0 * KBIN_NUM_CHUNK));
	}
	return 0;
}

static void __attribute__((constructor)) __constructor_order_last(void)
{
	if (!__constructor_order)
		__constructor_order = _CONSTRUCTOR_ORDER_BACKWARD;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--all"))
		return run_all(argc > 2 ? argv[2] : NULL);
	if (argc > 1 && !strcmp(argv[1], "--bench"))
		return run_bench();
	return test_harness_run(argc, argv);
}
