// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * kbin_num.c - the engines' numerics: float32 activation functions, ALU
 * operations, reductions and the matrix multiply (kbin_num.h;
 * Documentation/numerics.rst).
 *
 * The only file of the module compiled with floating point (SSE2 on
 * x86-64, -ffp-contract=off, -fno-math-errno, no libm): the kernel runs it
 * between kernel_fpu_begin() and kernel_fpu_end().  Arithmetic is IEEE 754
 * binary32 (binary64 inside the transcendental functions), round to
 * nearest even, no fused multiply-add, a fixed order of operations, so
 * the module and the host compute the same bits.
 *
 * exp, tanh, sigmoid, silu and gelu compute in binary64 from the float32
 * argument and round once to float32: kbin_exp_d() reduces x = k ln2 + r
 * (Cody-Waite, |r| <= ln2 / 2), evaluates exp(r) by its Taylor polynomial
 * of degree 11 (truncation below 1e-14) and scales by 2^k, so the double
 * result is within about 1e-15 of the exact value and the float32 result
 * is the correctly rounded one except when the exact value lies within
 * that distance of a rounding boundary.
 */
#include "kbin_num.h"

/* float32 and float64 as bit patterns, and back */
union kbin_f32 {
	__u32 u;
	float f;
};

union kbin_f64 {
	__u64 u;
	double d;
};

static inline float kbin_f(__u32 u)
{
	union kbin_f32 v = { .u = u };

	return v.f;
}

static inline __u32 kbin_u(float f)
{
	union kbin_f32 v = { .f = f };

	return v.u;
}

#define KBIN_F32_SIGN		0x80000000U
#define KBIN_F32_INF		0x7f800000U
#define KBIN_F32_QNAN		0x7fc00000U

/*
 * Every NaN result is the one quiet NaN 0x7fc00000: which operand's NaN
 * the SSE instructions pass on depends on the operand order the compiler
 * picks, which may differ between the kernel's and the host's builds.
 */
static inline __u32 kbin_canon(float r)
{
	return r != r ? KBIN_F32_QNAN : kbin_u(r);
}

/*
 * The names of the activation functions and ALU operations, as the
 * compiler writes them and the debug outputs print them.
 */
static const char *const kbin_act_names[KBIN_ACT_NUM] = {
	[KBIN_ACT_IDENTITY] = "identity",
	[KBIN_ACT_RELU] = "relu",
	[KBIN_ACT_GELU] = "gelu",
	[KBIN_ACT_SIGMOID] = "sigmoid",
	[KBIN_ACT_TANH] = "tanh",
	[KBIN_ACT_EXP] = "exp",
	[KBIN_ACT_SILU] = "silu",
	[KBIN_ACT_SQUARE] = "square",
	[KBIN_ACT_RSQRT] = "rsqrt",
	[KBIN_ACT_RECIPROCAL] = "reciprocal",
};

static const char *const kbin_alu_names[KBIN_ALU_NUM] = {
	[KBIN_ALU_ADD] = "add",
	[KBIN_ALU_SUBTRACT] = "subtract",
	[KBIN_ALU_MULTIPLY] = "multiply",
	[KBIN_ALU_DIVIDE] = "divide",
	[KBIN_ALU_MAX] = "max",
};

static int kbin_num_find(const char *const *names, unsigned int nr,
			 const char *name)
{
	unsigned int i;

	if (!name)
		return -EINVAL;
	for (i = 0; i < nr; i++)
		if (!strcmp(names[i], name))
			return (int)i;
	return -EINVAL;
}

/**
 * kbin_act_func_str() - the name of an activation function.
 * @func: an enum kbin_act_func value.
 *
 * Return: e.g. "gelu"; "unknown" for @func >= KBIN_ACT_NUM.
 */
const char *kbin_act_func_str(unsigned int func)
{
	return func < KBIN_ACT_NUM ? kbin_act_names[func] : "unknown";
}

/**
 * kbin_act_func_parse() - an activation function by its name.
 * @name: a NUL-terminated name as kbin_act_func_str() gives it
 *	(case-sensitive), or NULL.
 *
 * Return: the enum kbin_act_func value; -EINVAL for any other name.
 */
int kbin_act_func_parse(const char *name)
{
	return kbin_num_find(kbin_act_names, KBIN_ACT_NUM, name);
}

/**
 * kbin_alu_op_str() - the name of an ALU operation.
 * @op: an enum kbin_alu_op value.
 *
 * Return: e.g. "multiply"; "unknown" for @op >= KBIN_ALU_NUM.
 */
const char *kbin_alu_op_str(unsigned int op)
{
	return op < KBIN_ALU_NUM ? kbin_alu_names[op] : "unknown";
}

/**
 * kbin_alu_op_parse() - an ALU operation by its name.
 * @name: a NUL-terminated name as kbin_alu_op_str() gives it
 *	(case-sensitive), or NULL.
 *
 * Return: the enum kbin_alu_op value; -EINVAL for any other name.
 */
int kbin_alu_op_parse(const char *name)
{
	return kbin_num_find(kbin_alu_names, KBIN_ALU_NUM, name);
}

static const char *const kbin_cmp_names[KBIN_CMP_NUM] = {
	[KBIN_CMP_EQ] = "eq",
	[KBIN_CMP_NE] = "ne",
	[KBIN_CMP_LT] = "lt",
	[KBIN_CMP_LE] = "le",
	[KBIN_CMP_GT] = "gt",
	[KBIN_CMP_GE] = "ge",
};

/**
 * kbin_cmp_str() - the name of a comparison.
 * @cmp: enum kbin_cmp.
 *
 * Return: "eq", "ne", "lt", "le", "gt" or "ge"; "unknown" for another
 * value.
 */
const char *kbin_cmp_str(unsigned int cmp)
{
	return cmp < KBIN_CMP_NUM ? kbin_cmp_names[cmp] : "unknown";
}

/**
 * kbin_cmp_parse() - a comparison by its name.
 * @name: a NUL-terminated name as kbin_cmp_str() gives it
 *	(case-sensitive), or NULL.
 *
 * Return: the enum kbin_cmp value; -EINVAL for any other name.
 */
int kbin_cmp_parse(const char *name)
{
	return kbin_num_find(kbin_cmp_names, KBIN_CMP_NUM, name);
}

/* a float32's order as a signed integer (+0 and -0 both 0); not NaN */
static long long kbin_f32_key(__u32 x)
{
	return x & 0x80000000U ? -(long long)(x & 0x7fffffffU) : (long long)x;
}

/**
 * kbin_num_cmp() - compare two float32 as IEEE 754 does, in integer
 *	arithmetic (no FPU section needed).
 * @cmp: enum kbin_cmp.
 * @a: the left float32's bits.
 * @b: the right one's.
 *
 * +0 equals -0; when either is a NaN only KBIN_CMP_NE holds.
 *
 * Return: 1 if a CMP b holds, else 0 (also for an unknown @cmp).
 */
int kbin_num_cmp(unsigned int cmp, __u32 a, __u32 b)
{
	long long x, y;

	if ((a & 0x7fffffffU) > 0x7f800000U || (b & 0x7fffffffU) > 0x7f800000U)
		return cmp == KBIN_CMP_NE;
	x = kbin_f32_key(a);
	y = kbin_f32_key(b);
	switch (cmp) {
	case KBIN_CMP_EQ:
		return x == y;
	case KBIN_CMP_NE:
		return x != y;
	case KBIN_CMP_LT:
		return x < y;
	case KBIN_CMP_LE:
		return x <= y;
	case KBIN_CMP_GT:
		return x > y;
	case KBIN_CMP_GE:
		return x >= y;
	default:
		return 0;
	}
}

/**
 * kbin_num_index() - a float32 truncated toward zero to an integer, in
 *	integer arithmetic: what a run-time offset multiplies its step by.
 * @x: the float32's bits.
 * @v: where the integer goes.
 *
 * Return: 0, or -ERANGE for a NaN, an infinity or a magnitude of 2^31
 * or more.
 */
int kbin_num_index(__u32 x, long long *v)
{
	int e = (int)((x >> 23) & 0xffU) - 127;
	long long m = (long long)((x & 0x7fffffU) | 0x800000U);

	if (e >= 31)
		return -ERANGE;
	if (e < 0)
		m = 0;
	else if (e >= 23)
		m <<= e - 23;
	else
		m >>= 23 - e;
	*v = x & 0x80000000U ? -m : m;
	return 0;
}

/*
 * exp(x) in binary64 for a finite |x| <= 700: x = k ln2 + r with k the
 * nearest integer to x / ln2 and ln2 split in a high part of 32 bits
 * (k * KBIN_LN2_HI is exact) and the rest; exp(r) by Horner's rule on the
 * Taylor polynomial of degree 11 (|r| <= 0.35: the remainder is below
 * 1e-14 of the value); 2^k built from its bits (|k| <= 1010, a normal
 * double).
 */
#define KBIN_INV_LN2	1.44269504088896338700
#define KBIN_LN2_HI	0.693147180369123816490
#define KBIN_LN2_LO	0.000000000190821492927058770002

static double kbin_exp_d(double x)
{
	union kbin_f64 two_k;
	double kd = x * KBIN_INV_LN2;
	double r, p;
	int k;

	k = (int)(kd < 0 ? kd - 0.5 : kd + 0.5);
	r = (x - k * KBIN_LN2_HI) - k * KBIN_LN2_LO;
	p = 1.0 / 39916800.0;
	p = p * r + 1.0 / 3628800.0;
	p = p * r + 1.0 / 362880.0;
	p = p * r + 1.0 / 40320.0;
	p = p * r + 1.0 / 5040.0;
	p = p * r + 1.0 / 720.0;
	p = p * r + 1.0 / 120.0;
	p = p * r + 1.0 / 24.0;
	p = p * r + 1.0 / 6.0;
	p = p * r + 0.5;
	p = p * r + 1.0;
	p = p * r + 1.0;
	two_k.u = (__u64)(k + 1023) << 52;
	return p * two_k.d;
}

/*
 * exp(x): NaN gives the NaN quieted; above 89 the result overflows to
 * +Inf (exp(88.7228) is FLT_MAX), below -104 it is below half the
 * smallest subnormal (exp(-103.972) is 2^-150) and rounds to +0; in
 * between the double result rounds once, to a subnormal where it is one.
 */
static float kbin_expf(float x)
{
	if (x != x)
		return x + x;
	if (x > 89.0f)
		return kbin_f(KBIN_F32_INF);
	if (x < -104.0f)
		return 0.0f;
	return (float)kbin_exp_d(x);
}

/*
 * tanh(x): odd.  |x| < 2^-12 gives x itself (the correctly rounded value:
 * x^3 / 3 is below half an ulp of x, also for -0 and subnormals); above
 * 9.1 (and at +-Inf) +-1 (1 - tanh(x) < 2^-25 from 9.011); in between
 * (e^2|x| - 1) / (e^2|x| + 1) in double, where e^2|x| - 1 loses no
 * relative accuracy that matters (e^2|x| >= 1 + 2^-11).
 */
static float kbin_tanhf(float x)
{
	__u32 sign = kbin_u(x) & KBIN_F32_SIGN;
	float ax = kbin_f(kbin_u(x) & ~KBIN_F32_SIGN);
	double t;
	float r;

	if (x != x)
		return x + x;
	if (ax < 0.000244140625f)	/* 2^-12 */
		return x;
	if (ax > 9.1f) {
		r = 1.0f;
	} else {
		t = kbin_exp_d(2.0 * ax);
		r = (float)((t - 1.0) / (t + 1.0));
	}
	return kbin_f(kbin_u(r) | sign);
}

/*
 * sigmoid(x) = 1 / (1 + exp(-x)): 1 above 30 (and at +Inf), +0 below
 * -120 (and at -Inf; the value is below 2^-150 from -103.98), in double
 * in between.
 */
static float kbin_sigmoidf(float x)
{
	if (x != x)
		return x + x;
	if (x > 30.0f)
		return 1.0f;
	if (x < -120.0f)
		return 0.0f;
	return (float)(1.0 / (1.0 + kbin_exp_d(-(double)x)));
}

/*
 * silu(x) = x / (1 + exp(-x)): x above 30 (and at +Inf), -0 below -120
 * (the value is below 2^-150 in magnitude from -108.7), NaN at -Inf (as
 * the formula gives, and the interpreter), in double in between.
 */
static float kbin_siluf(float x)
{
	if (x != x || x == -kbin_f(KBIN_F32_INF))
		return x - x;	/* NaN; at -Inf as the formula: -Inf / +Inf */
	if (x > 30.0f)
		return x;
	if (x < -120.0f)
		return -0.0f;
	return (float)((double)x / (1.0 + kbin_exp_d(-(double)x)));
}

/*
 * gelu(x) = 0.5 x (1 + tanh(u)), u = 0.7978845608 (x + 0.044715 x^3),
 * computed as x / (1 + exp(-2u)) (the same function, without the
 * cancellation of 1 + tanh(u) for negative x) in double.  -2u below -700
 * (x above about 6.6 and +Inf) gives x; above 700 (x below about -11.1)
 * -0, the value being far below 2^-150 in magnitude; -Inf gives NaN, as
 * the formula does (-Inf * 0), and the interpreter.
 */
static float kbin_geluf(float x)
{
	double xd = x;
	double t;

	if (x != x || x == -kbin_f(KBIN_F32_INF))
		return x - x;	/* NaN; at -Inf as the formula: -Inf * 0 */
	t = -2.0 * 0.7978845608 * (xd + 0.044715 * xd * xd * xd);
	if (t < -700.0)
		return x;
	if (t > 700.0)
		return -0.0f;
	return (float)(xd / (1.0 + kbin_exp_d(t)));
}

static float kbin_act1(unsigned int func, float x)
{
	switch (func) {
	case KBIN_ACT_RELU:
		return x > 0.0f ? x : 0.0f;
	case KBIN_ACT_GELU:
		return kbin_geluf(x);
	case KBIN_ACT_SIGMOID:
		return kbin_sigmoidf(x);
	case KBIN_ACT_TANH:
		return kbin_tanhf(x);
	case KBIN_ACT_EXP:
		return kbin_expf(x);
	case KBIN_ACT_SILU:
		return kbin_siluf(x);
	case KBIN_ACT_SQUARE:
		return x * x;
	case KBIN_ACT_RSQRT:
		return 1.0f / __builtin_sqrtf(x);
	case KBIN_ACT_RECIPROCAL:
		return 1.0f / x;
	default:
		return x;
	}
}

/**
 * kbin_num_act() - apply an activation function in place,
 *	x[i] = f(x[i] * scale).
 * @func: the function, an enum kbin_act_func value; an unknown one leaves
 *	@x unchanged (the plan checker rejects it before).
 * @x: @n float32 bit patterns, read and written.
 * @n: number of elements, at most KBIN_NUM_CHUNK per FPU section.
 * @scale: float32 bit pattern multiplied into every element first (the
 *	product rounded to float32; 1.0 is 0x3f800000).
 *
 * relu, square, rsqrt and reciprocal are the float32 expressions
 * x > 0 ? x : 0, x * x, 1 / sqrt(x) and 1 / x; exp, tanh, sigmoid, silu
 * and gelu are within the error bounds of Documentation/numerics.rst.
 * A NaN result is always 0x7fc00000.
 */
void kbin_num_act(unsigned int func, __u32 *x, __u32 n, __u32 scale)
{
	float s = kbin_f(scale);
	__u32 i;

	if (func >= KBIN_ACT_NUM)
		return;
	for (i = 0; i < n; i++)
		x[i] = kbin_canon(kbin_act1(func, kbin_f(x[i]) * s));
}

static inline float kbin_alu1(unsigned int op, float a, float b)
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
	case KBIN_ALU_MAX:
		return a > b ? a : b;
	default:
		return a;
	}
}

/*
 * One loop per operation, the switch outside it: the compiler keeps the
 * loops apart and each stays a simple (vectorizable) loop.
 */
#define KBIN_ALU_LOOP(expr)					\
	do {							\
		for (i = 0; i < n; i++) {			\
			float a_ = kbin_f(a[i]), b_ = (expr);	\
								\
			a[i] = kbin_canon(kbin_alu1(op, a_, b_));	\
		}						\
	} while (0)

/**
 * kbin_num_alu() - an element-wise binary operation in place,
 *	a[i] = a[i] OP b[i].
 * @op: the operation, an enum kbin_alu_op value; an unknown one leaves @a
 *	unchanged.
 * @a: @n float32 bit patterns, the left operands and the results.
 * @b: @n float32 bit patterns, the right operands; may be @a itself.
 * @n: number of elements, at most KBIN_NUM_CHUNK per FPU section.
 *
 * Each result is the float32 operation rounded to nearest even; max is
 * a > b ? a : b; a NaN result is 0x7fc00000.
 */
void kbin_num_alu(unsigned int op, __u32 *a, const __u32 *b, __u32 n)
{
	__u32 i;

	switch (op) {
	case KBIN_ALU_ADD:
		KBIN_ALU_LOOP(kbin_f(b[i]));
		break;
	case KBIN_ALU_SUBTRACT:
		KBIN_ALU_LOOP(kbin_f(b[i]));
		break;
	case KBIN_ALU_MULTIPLY:
		KBIN_ALU_LOOP(kbin_f(b[i]));
		break;
	case KBIN_ALU_DIVIDE:
		KBIN_ALU_LOOP(kbin_f(b[i]));
		break;
	case KBIN_ALU_MAX:
		KBIN_ALU_LOOP(kbin_f(b[i]));
		break;
	default:
		break;
	}
}

/**
 * kbin_num_alu_scalar() - an operation with one scalar in place,
 *	a[i] = a[i] OP s.
 * @op: the operation, an enum kbin_alu_op value; an unknown one leaves @a
 *	unchanged.
 * @a: @n float32 bit patterns, the left operands and the results.
 * @s: float32 bit pattern, the right operand of every element.
 * @n: number of elements, at most KBIN_NUM_CHUNK per FPU section.
 *
 * As kbin_num_alu() with every b[i] equal to @s.
 */
void kbin_num_alu_scalar(unsigned int op, __u32 *a, __u32 s, __u32 n)
{
	float sf = kbin_f(s);
	__u32 i;

	switch (op) {
	case KBIN_ALU_ADD:
		KBIN_ALU_LOOP(sf);
		break;
	case KBIN_ALU_SUBTRACT:
		KBIN_ALU_LOOP(sf);
		break;
	case KBIN_ALU_MULTIPLY:
		KBIN_ALU_LOOP(sf);
		break;
	case KBIN_ALU_DIVIDE:
		KBIN_ALU_LOOP(sf);
		break;
	case KBIN_ALU_MAX:
		KBIN_ALU_LOOP(sf);
		break;
	default:
		break;
	}
}

/**
 * kbin_num_reduce() - fold a vector into an accumulator, left to right:
 *	acc = acc OP x[0], then acc OP x[1], ...
 * @op: the operation, an enum kbin_alu_op value; an unknown one returns
 *	@acc unchanged.
 * @acc: float32 bit pattern, the initial value (e.g. +0.0 for a sum, -Inf
 *	for a maximum; a long vector is reduced chunk by chunk, passing the
 *	result of one chunk as @acc of the next).
 * @x: @n float32 bit patterns.
 * @n: number of elements, at most KBIN_NUM_CHUNK per FPU section.
 *
 * Return: the float32 bit pattern of the result, each step rounded to
 * float32; 0x7fc00000 when it is a NaN.
 */
__u32 kbin_num_reduce(unsigned int op, __u32 acc, const __u32 *x, __u32 n)
{
	float r = kbin_f(acc);
	__u32 i;

	if (op >= KBIN_ALU_NUM)
		return acc;
	for (i = 0; i < n; i++)
		r = kbin_alu1(op, r, kbin_f(x[i]));
	return kbin_canon(r);
}

/* four float32 lanes, one SSE register */
#define kbin_v4f	float __attribute__((vector_size(16)))

/**
 * kbin_num_matmul() - matrix multiply, out = (accumulate ? out : 0) +
 *	a^T b, in float32.
 * @out: @m rows of @n float32 bit patterns, row-major (@m * @n elements),
 *	written (and read when @accumulate); must not overlap @a or @b.
 * @a: @k rows of @m float32 bit patterns, row-major (the stationary
 *	operand, one column per output row).
 * @b: @k rows of @n float32 bit patterns, row-major (the moving operand).
 * @k: the contraction length.
 * @m: output rows.
 * @n: output columns.
 * @accumulate: nonzero adds to @out's values, zero starts from +0.0.
 *
 * out[i][j] = start + a[0][i] * b[0][j] + a[1][i] * b[1][j] + ... in
 * ascending k, every product and every sum rounded to float32 (no fused
 * multiply-add); a NaN result is 0x7fc00000.  The loop order is k, i,
 * j, so the inner loop runs along a row of @b and of @out, four columns
 * per step.  One call is at most
 * KBIN_NUM_MATMUL_MACS multiply-accumulates (@k * @m * @n) per FPU
 * section.
 */
void kbin_num_matmul(__u32 *out, const __u32 *a, const __u32 *b, __u32 k,
		     __u32 m, __u32 n, int accumulate)
{
	unsigned long z;
	__u32 p, i, j;

	if (!accumulate)
		for (z = 0; z < (unsigned long)m * n; z++)
			out[z] = 0;
	for (p = 0; p < k; p++) {
		const __u32 *brow = b + (unsigned long)p * n;

		for (i = 0; i < m; i++) {
			float av = kbin_f(a[(unsigned long)p * m + i]);
			__u32 *orow = out + (unsigned long)i * n;
			kbin_v4f av4 = { av, av, av, av };

			/*
			 * Four columns at a time (memcpy: any alignment, no
			 * aliasing question): each lane is an independent
			 * IEEE operation, the same bits as the scalar loop.
			 */
			for (j = 0; j + 4 <= n; j += 4) {
				kbin_v4f o4, b4;

				memcpy(&o4, orow + j, sizeof(o4));
				memcpy(&b4, brow + j, sizeof(b4));
				o4 = o4 + av4 * b4;
				memcpy(orow + j, &o4, sizeof(o4));
			}
			for (; j < n; j++)
				orow[j] = kbin_u(kbin_f(orow[j]) +
						 av * kbin_f(brow[j]));
		}
	}
	/* NaN or not does not depend on the operand order; the payload does */
	for (z = 0; z < (unsigned long)m * n; z++)
		if ((out[z] & ~KBIN_F32_SIGN) > KBIN_F32_INF)
			out[z] = KBIN_F32_QNAN;
}
