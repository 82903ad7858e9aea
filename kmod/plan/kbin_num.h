/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * kbin_num.h - the one numerics library of the engines' compute: float32
 * arithmetic, the activation functions, reductions and the matrix
 * multiply, in plain C without libm.  The module's engines
 * (kmod/plan/kbin_compute.c, run by kmod/exec.c) and the host reference
 * (userspace/cc/prog_replay.c) compute with this very code, so their
 * outputs are byte-identical.  Documentation/numerics.rst has the
 * semantics, the accuracy of every function against libm and the cost.
 *
 * No float crosses this interface: values are IEEE 754 binary32 bit
 * patterns in __u32, so callers compiled without the FPU (the kernel's
 * other files) can use it.  kbin_num.c is the only file compiled with
 * floating point; the kernel calls it between kernel_fpu_begin() and
 * kernel_fpu_end() (KBIN_FPU_BEGIN()/KBIN_FPU_END(), kbin_compat.h), in
 * chunks of at most KBIN_NUM_CHUNK elements.
 *
 * Every function is deterministic: the same inputs give the same bits on
 * every host and in the kernel (round to nearest even, no contraction
 * into fused multiply-add, a fixed order of accumulation).
 */
#ifndef _NEURONSIM_KBIN_NUM_H
#define _NEURONSIM_KBIN_NUM_H

#include "kbin_compat.h"

/* elements one call may be given: the bound of one FPU section */
#define KBIN_NUM_CHUNK		4096U
/* multiply-accumulates (k * m * n) one kbin_num_matmul() call may be given */
#define KBIN_NUM_MATMUL_MACS	262144U

/**
 * enum kbin_act_func - an activation function, out = f(in * scale).
 * @KBIN_ACT_IDENTITY: "identity", x.
 * @KBIN_ACT_RELU: "relu", x > 0 ? x : 0.
 * @KBIN_ACT_GELU: "gelu", 0.5 x (1 + tanh(0.7978845608 (x + 0.044715 x^3))).
 * @KBIN_ACT_SIGMOID: "sigmoid", 1 / (1 + exp(-x)).
 * @KBIN_ACT_TANH: "tanh".
 * @KBIN_ACT_EXP: "exp".
 * @KBIN_ACT_SILU: "silu", x / (1 + exp(-x)).
 * @KBIN_ACT_SQUARE: "square", x * x.
 * @KBIN_ACT_RSQRT: "rsqrt", 1 / sqrt(x).
 * @KBIN_ACT_RECIPROCAL: "reciprocal", 1 / x.
 * @KBIN_ACT_NUM: the number of functions.
 */
enum kbin_act_func {
	KBIN_ACT_IDENTITY = 0,
	KBIN_ACT_RELU,
	KBIN_ACT_GELU,
	KBIN_ACT_SIGMOID,
	KBIN_ACT_TANH,
	KBIN_ACT_EXP,
	KBIN_ACT_SILU,
	KBIN_ACT_SQUARE,
	KBIN_ACT_RSQRT,
	KBIN_ACT_RECIPROCAL,
	KBIN_ACT_NUM,
};

/**
 * enum kbin_cmp - a comparison of KBIN_COP_REG_TEST, a CMP b on float32;
 *	with a NaN only NE holds.
 * @KBIN_CMP_EQ: "eq".
 * @KBIN_CMP_NE: "ne".
 * @KBIN_CMP_LT: "lt".
 * @KBIN_CMP_LE: "le".
 * @KBIN_CMP_GT: "gt".
 * @KBIN_CMP_GE: "ge".
 * @KBIN_CMP_NUM: the number of comparisons.
 */
enum kbin_cmp {
	KBIN_CMP_EQ = 0,
	KBIN_CMP_NE,
	KBIN_CMP_LT,
	KBIN_CMP_LE,
	KBIN_CMP_GT,
	KBIN_CMP_GE,
	KBIN_CMP_NUM,
};

/**
 * enum kbin_alu_op - a binary operation, r = a OP b.
 * @KBIN_ALU_ADD: "add".
 * @KBIN_ALU_SUBTRACT: "subtract".
 * @KBIN_ALU_MULTIPLY: "multiply".
 * @KBIN_ALU_DIVIDE: "divide".
 * @KBIN_ALU_MAX: "max", a > b ? a : b (so a NaN b gives b).
 * @KBIN_ALU_NUM: the number of operations.
 */
enum kbin_alu_op {
	KBIN_ALU_ADD = 0,
	KBIN_ALU_SUBTRACT,
	KBIN_ALU_MULTIPLY,
	KBIN_ALU_DIVIDE,
	KBIN_ALU_MAX,
	KBIN_ALU_NUM,
};

const char *kbin_cmp_str(unsigned int cmp);
int kbin_cmp_parse(const char *name);
int kbin_num_cmp(unsigned int cmp, __u32 a, __u32 b);
int kbin_num_index(__u32 x, long long *v);
const char *kbin_act_func_str(unsigned int func);
int kbin_act_func_parse(const char *name);
const char *kbin_alu_op_str(unsigned int op);
int kbin_alu_op_parse(const char *name);

void kbin_num_act(unsigned int func, __u32 *x, __u32 n, __u32 scale);
void kbin_num_alu(unsigned int op, __u32 *a, const __u32 *b, __u32 n);
void kbin_num_alu_scalar(unsigned int op, __u32 *a, __u32 s, __u32 n);
__u32 kbin_num_reduce(unsigned int op, __u32 acc, const __u32 *x, __u32 n);
void kbin_num_matmul(__u32 *out, const __u32 *a, const __u32 *b, __u32 k,
		     __u32 m, __u32 n, int accumulate);

#endif /* _NEURONSIM_KBIN_NUM_H */
