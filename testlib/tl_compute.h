/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tl_compute.h - the test library's compute plan: a small KBIN plan whose
 * program section has KBIN_PROG_F_COMPUTE (neuronsim's compute encoding,
 * struct kbin_compute_record), and the host reference of what a device
 * leaves in its output and its PSUM after one execution, computed with
 * the executor the module runs (kbin_compute_run(), kmod/plan/
 * kbin_compute.h).  The host tests and the VM selftests share both.
 *
 * The plan, subgraph "sg00" with the state buffer (TL_IO_SB), input0
 * (TL_IO_IN, TLC_VAR_SIZE bytes, the first TLC_IN_SIZE read: TLC_K rows
 * of A[TLC_M] then B[TLC_N], float32) and output0 (TL_IO_OUT,
 * TLC_VAR_SIZE bytes, the first TLC_OUT_SIZE written: TLC_M rows of
 * C[TLC_N] then max(C row)), and one DMA queue qSPIO0 (semaphores 24, 25):
 *   SP   [0] trigger block 0: input0 row k -> SBUF partition k, byte 0
 *        [1] wait 4 >= 1  [2] trigger block 1: SBUF partitions 0..M-1
 *            from byte TLC_SB_C -> output0
 *   DVE  [0] wait 24>=1: tensor_scalar A2 = A * 2.0 (imm)     update 1
 *   ACT  [0] wait 24>=1: activate Br = relu(B * 1.0)           update 2
 *   PE   [0] wait 1>=1: transpose A2 -> PSUM bank 1            update 3
 *        [1] wait 2>=1: matmult PSUM C = A2^T Br               update 3
 *        [2] matmult accumulate PSUM C += A2^T Br              update 3
 *   DVE  [1] wait 3>=3: copy PSUM C -> SBUF TLC_SB_C
 *        [2] reduce max of each SBUF C row -> after it          update 4
 */
#ifndef _NSIM_TL_COMPUTE_H
#define _NSIM_TL_COMPUTE_H

#include <stddef.h>
#include <stdint.h>

#include <linux/neuronsim_kbin.h>

#define TLC_K		4U	/* partitions of A and B: the contraction */
#define TLC_M		8U	/* elements of A per partition: C's rows */
#define TLC_N		16U	/* elements of B per partition: C's columns */
#define TLC_ROW		((TLC_M + TLC_N) * 4U)
#define TLC_IN_SIZE	(TLC_K * TLC_ROW)
#define TLC_OUT_ROW	((TLC_N + 1U) * 4U)
#define TLC_OUT_SIZE	(TLC_M * TLC_OUT_ROW)
#define TLC_VAR_SIZE	1024U	/* bytes of input0 and of output0 */
/* bytes into each SBUF partition */
#define TLC_SB_A2	512U
#define TLC_SB_BR	1024U
#define TLC_SB_C	2048U
/* bytes into each PSUM partition: C in bank 0, A2 transposed in bank 1 */
#define TLC_PSUM_T	2048U
/* instructions of the compute plan that compute, in the order they run */
#define TLC_NCOMPUTE	7U

/* what tl_compute_plan() breaks */
enum tlc_broken {
	TLC_OK,			/* nothing: a valid plan */
	TLC_BROKEN_SPACE,	/* PE [1]'s matmult writes SBUF, not PSUM */
	TLC_RANGE,		/* DVE [1]'s copy moves by register 0 (+0)
				 * and allows [1, 2): -ERANGE as it runs */
};

/**
 * struct tlc_instr - one compute instruction of the compute plan.
 * @engine: enum kbin_dma_engine of its stream.
 * @index: its index in that stream.
 * @rec: its record.
 */
struct tlc_instr {
	uint32_t engine;
	uint32_t index;
	uint8_t rec[KBIN_PROG_RECORD_SIZE];
};

/**
 * tlc_ap() - an operand of a compute record.
 * @space: KBIN_SPACE_*.
 * @dtype: enum kbin_dma_dtype.
 * @off: bytes into each partition.
 * @part: its first partition.
 * @parts: its partitions.
 * @n0: elements along i, step @s0.
 * @s0: elements between two i.
 * @n1: elements along j, step 1.
 *
 * Return: the operand.
 */
struct kbin_compute_ap tlc_ap(unsigned int space, unsigned int dtype,
			      uint32_t off, unsigned int part,
			      unsigned int parts, unsigned int n0, int s0,
			      unsigned int n1);

/* a row of @n float32 in partitions: the common operand */
#define TLC_ROWS(space, off, parts, n) \
	tlc_ap((space), KBIN_DMA_DTYPE_FLOAT32, (off), 0, (parts), 1, 0, (n))

/**
 * tlc_rec() - a compute record with its sync header.
 * @rec: KBIN_PROG_RECORD_SIZE bytes, written completely.
 * @op: enum kbin_cop.
 * @func: the record's func.
 * @flags: KBIN_COMPUTE_F_*.
 * @wait_sem: the semaphore waited on (>= @wait_value), or -1 for no wait.
 * @wait_value: the value.
 * @update_sem: the semaphore incremented at its end, or -1.
 * @out: its out operand, or NULL (zero).
 * @in0: in0, or NULL (zero).
 * @in1: in1, or NULL: then @value fills the union (0 for none).
 * @value: float32 bits.
 */
void tlc_rec(uint8_t *rec, unsigned int op, unsigned int func,
	     unsigned int flags, int wait_sem, uint32_t wait_value,
	     int update_sem, const struct kbin_compute_ap *out,
	     const struct kbin_compute_ap *in0,
	     const struct kbin_compute_ap *in1, uint32_t value);

const struct tlc_instr *tl_compute_instrs(unsigned int *n);
int tl_compute_plan(uint32_t gen, int broken, void **buf, size_t *len);
void tl_compute_input(uint8_t *in);
int tl_compute_ref(uint32_t gen, const uint8_t *in, uint8_t *out,
		   uint8_t *psum);

#endif /* _NSIM_TL_COMPUTE_H */
