// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * kbin_num.c - placeholder of the numerics library (kbin_num.h): exact
 * operations and a simple exp(); replaced by the full library.
 */

#include "kbin_compat.h"
#include "kbin_num.h"

static const char *const kbin_act_names[KBIN_ACT_NUM] = {
	"identity", "relu", "gelu", "sigmoid", "tanh", "exp", "silu",
	"square", "rsqrt", "reciprocal",
};

static const char *const kbin_alu_names[KBIN_ALU_NUM] = {
	"add", "subtract", "multiply", "divide", "max",
};

const char *kbin_act_func_str(unsigned int func)
{
	return func < KBIN_ACT_NUM ? kbin_act_names[func] : "?";
}

int kbin_act_func_parse(const char *name)
{
	int i;

	for (i = 0; i < (int)KBIN_ACT_NUM; i++)
		if (!strcmp(name, kbin_act_names[i]))
			return i;
	return -EINVAL;
}

const char *kbin_alu_op_str(unsigned int op)
{
	return op < KBIN_ALU_NUM ? kbin_alu_names[op] : "?";
}

int kbin_alu_op_parse(const char *name)
{
	int i;

	for (i = 0; i < (int)KBIN_ALU_NUM; i++)
		if (!strcmp(name, kbin_alu_names[i]))
			return i;
	return -EINVAL;
}

static float f_of(__u32 b)
{
	float f;

	memcpy(&f, &b, 4);
	return f;
}

static __u32 b_of(float f)
{
	__u32 b;

	memcpy(&b, &f, 4);
	return b;
}

static float kexp(float x)
{
	float r = 1.0f, t = 1.0f;
	int i, k = 0;

	if (x != x)
		return x;
	if (x > 88.8f)
		return f_of(0x7f800000);
	if (x < -104.0f)
		return 0.0f;
	while (x > 0.5f) {
		x -= 0.693147180559945f;
		k++;
	}
	while (x < -0.5f) {
		x += 0.693147180559945f;
		k--;
	}
	for (i = 1; i < 12; i++) {
		t = t * x / (float)i;
		r += t;
	}
	while (k > 0) {
		r *= 2.0f;
		k--;
	}
	while (k < 0) {
		r *= 0.5f;
		k++;
	}
	return r;
}

static float ktanh(float x)
{
	float e;

	if (x == 0.0f)
		return x;	/* +-0, as libm: (e - 1) / (e + 1) is +0 */
	if (x > 9.0f)
		return 1.0f;
	if (x < -9.0f)
		return -1.0f;
	e = kexp(2.0f * x);
	return (e - 1.0f) / (e + 1.0f);
}

static float kact(unsigned int func, float x)
{
	switch (func) {
	case KBIN_ACT_RELU:
		return x > 0 ? x : 0;
	case KBIN_ACT_GELU:
		return 0.5f * x * (1.0f + ktanh(0.7978845608f *
						(x + 0.044715f * x * x * x)));
	case KBIN_ACT_SIGMOID:
		return 1.0f / (1.0f + kexp(-x));
	case KBIN_ACT_TANH:
		return ktanh(x);
	case KBIN_ACT_EXP:
		return kexp(x);
	case KBIN_ACT_SILU:
		return x / (1.0f + kexp(-x));
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

static float kalu(unsigned int op, float a, float b)
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

void kbin_num_act(unsigned int func, __u32 *x, __u32 n, __u32 scale)
{
	float s = f_of(scale);
	__u32 i;

	for (i = 0; i < n; i++)
		x[i] = b_of(kact(func, f_of(x[i]) * s));
}

void kbin_num_alu(unsigned int op, __u32 *a, const __u32 *b, __u32 n)
{
	__u32 i;

	for (i = 0; i < n; i++)
		a[i] = b_of(kalu(op, f_of(a[i]), f_of(b[i])));
}

void kbin_num_alu_scalar(unsigned int op, __u32 *a, __u32 s, __u32 n)
{
	__u32 i;

	for (i = 0; i < n; i++)
		a[i] = b_of(kalu(op, f_of(a[i]), f_of(s)));
}

__u32 kbin_num_reduce(unsigned int op, __u32 acc, const __u32 *x, __u32 n)
{
	float a = f_of(acc);
	__u32 i;

	for (i = 0; i < n; i++)
		a = kalu(op, a, f_of(x[i]));
	return b_of(a);
}

void kbin_num_matmul(__u32 *out, const __u32 *a, const __u32 *b, __u32 k,
		     __u32 m, __u32 n, int accumulate)
{
	float *o = (float *)out;
	const float *fa = (const float *)a, *fb = (const float *)b;
	__u32 kk, i, j;

	if (!accumulate)
		for (i = 0; i < m * n; i++)
			o[i] = 0.0f;
	for (kk = 0; kk < k; kk++)
		for (i = 0; i < m; i++) {
			float av = fa[kk * m + i];

			for (j = 0; j < n; j++)
				o[i * n + j] = o[i * n + j] + av * fb[kk * n + j];
		}
}
