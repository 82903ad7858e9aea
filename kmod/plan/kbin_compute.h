/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * kbin_compute.h - neuronsim's compute encoding: the rules a compute
 * instruction of a KBIN_PROG_F_COMPUTE program follows, and the one
 * executor the module's engines and the host reference both run, so that
 * their outputs are byte-identical.  The encoding (struct
 * kbin_compute_record, uapi/linux/neuronsim_kbin.h) and its meaning are
 * in Documentation/compute.rst; the arithmetic is kbin_num.h's.
 *
 * Plain C, no allocation: the caller gives a scratch area of
 * KBIN_COMPUTE_SCRATCH_BYTES and reaches the NeuronCore's SBUF and PSUM
 * through struct kbin_compute_mem.
 */
#ifndef _NEURONSIM_KBIN_COMPUTE_H
#define _NEURONSIM_KBIN_COMPUTE_H

#include <linux/neuronsim_kbin.h>

#include "kbin_gen.h"
#include "kbin_num.h"
#include "kbin_prog.h"

/* float32 words of each of the executor's three work buffers */
#define KBIN_COMPUTE_BUF_WORDS	16384U
/* multiply-accumulates of one kbin_num_matmul() call at most */
#define KBIN_COMPUTE_MACS_PER_CALL	65536U
/* the scratch a kbin_compute_run() caller provides: 3 buffers + staging */
#define KBIN_COMPUTE_SCRATCH_BYTES \
	(3U * 4U * KBIN_COMPUTE_BUF_WORDS + 4U * KBIN_NUM_CHUNK)

/* float32 1.0's bits: what REG_TEST writes when the comparison holds */
#define KBIN_F32_ONE		0x3f800000U

/* elements in a PSUM bank's partition: the largest MATMULT n */
#define KBIN_COMPUTE_MATMUL_MAX_N	(KBIN_PSUM_BANK_SIZE / 4U)

/**
 * struct kbin_compute_mem - how the executor reaches one NeuronCore's
 * on-chip memory.  Offsets are bytes into a partition; the executor has
 * checked them against the space's geometry (kbin_compute_check()).
 * @read: copy @len bytes at byte @off of partition @p of @space
 *	(KBIN_SPACE_SBUF or KBIN_SPACE_PSUM) to @buf; 0 or a negative errno.
 * @write: copy @len bytes from @buf there; 0 or a negative errno.
 * @ctx: the caller's, passed back.
 */
struct kbin_compute_mem {
	int (*read)(void *ctx, unsigned int space, __u32 p, __u32 off,
		    void *buf, __u32 len);
	int (*write)(void *ctx, unsigned int space, __u32 p, __u32 off,
		     const void *buf, __u32 len);
	void *ctx;
};

int kbin_compute_is_op(unsigned int opcode);
int kbin_compute_dtype_ok(unsigned int dtype);
const char *kbin_compute_op_str(unsigned int opcode);
unsigned int kbin_compute_engines(unsigned int opcode);
unsigned int kbin_compute_check(const __u8 *rec, unsigned int engine,
				const struct kbin_gen *g,
				struct kbin_prog_verdict *v);
char *kbin_compute_why(const struct kbin_prog_verdict *v, char *buf,
		       unsigned long len);
__u64 kbin_compute_elements(const __u8 *rec);
int kbin_compute_run(const __u8 *rec, const struct kbin_compute_mem *mem,
		     __u32 *regs, void *scratch);

#endif /* _NEURONSIM_KBIN_COMPUTE_H */
