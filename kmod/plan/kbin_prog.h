/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * kbin_prog.h - engine programs of a plan: the decoder of a 64-byte
 * instruction record's sync layer, the rules every subgraph's five
 * instruction streams follow, and the cost model that gives an
 * execution its virtual time.
 *
 * Plain C, no allocation, no recursion, a small stack: the module (the
 * plan checker at LOAD, the sequencers), the compiler, the KBIN writer,
 * the host replay and the tools compile this very code, so they decode,
 * refuse and charge alike.  The rules return the checker's reason codes
 * (enum kbin_check_reason) with a struct kbin_prog_verdict saying where
 * and why; kbin_prog_why() writes the why as text, which the checker and
 * the compiler both print after their own "where".
 * Documentation/kbin-format.rst has the records and the rules,
 * Documentation/execute.rst the sync layer and the cost model.
 */
#ifndef _NEURONSIM_KBIN_PROG_H
#define _NEURONSIM_KBIN_PROG_H

#include <linux/neuronsim_kbin.h>

#include "kbin_gen.h"

/**
 * enum kbin_prog_why - which rule a verdict is about (the text of
 * kbin_prog_why()); the reason code is coarser.
 * @KBIN_PROG_WHY_NONE: no finding.
 * @KBIN_PROG_WHY_WAIT_MODE: KBIN_ERR_PROG_MODE, record byte 4.
 * @KBIN_PROG_WHY_UPDATE_MODE: KBIN_ERR_PROG_MODE, record byte 6.
 * @KBIN_PROG_WHY_WAIT_SEM: KBIN_ERR_PROG_SEMAPHORE, record byte 5.
 * @KBIN_PROG_WHY_UPDATE_SEM: KBIN_ERR_PROG_SEMAPHORE, record byte 7.
 * @KBIN_PROG_WHY_DMA_SEM: KBIN_ERR_PROG_SEMAPHORE, a 0xD4's byte 13.
 * @KBIN_PROG_WHY_BLOCK_SEM: KBIN_ERR_PROG_SEMAPHORE, the semaphore of
 *	the block a trigger starts.
 * @KBIN_PROG_WHY_NAME: KBIN_ERR_PROG_TRIGGER, the queue name is empty or
 *	not NUL-terminated within its KBIN_PROG_QNAME_MAX bytes.
 * @KBIN_PROG_WHY_NO_QUEUE: KBIN_ERR_PROG_TRIGGER, no queue of the
 *	subgraph has that name.
 * @KBIN_PROG_WHY_OTHER_ENGINE: KBIN_ERR_PROG_TRIGGER, another engine owns
 *	the queue.
 * @KBIN_PROG_WHY_QUEUES: KBIN_ERR_PROG_TRIGGER, the subgraph has more
 *	than KBIN_PROG_MAX_QUEUES queues.
 * @KBIN_PROG_WHY_SAME_NAME: KBIN_ERR_PROG_TRIGGER, two queues share a
 *	name.
 * @KBIN_PROG_WHY_EXTRA_TRIGGER: KBIN_ERR_PROG_TRIGGER_COUNT, a trigger
 *	past the queue's last block.
 * @KBIN_PROG_WHY_MISSING_TRIGGERS: KBIN_ERR_PROG_TRIGGER_COUNT, fewer
 *	triggers than blocks.
 * @KBIN_PROG_WHY_SYNC: KBIN_ERR_PROG_SYNC, a field of the decoded entry.
 * @KBIN_PROG_WHY_COMPUTE_OPCODE: KBIN_ERR_PROG_COMPUTE (as all below,
 *	kbin_compute_check()): a compute opcode outside enum kbin_cop.
 * @KBIN_PROG_WHY_COMPUTE_ENGINE: an operation the stream's engine does
 *	not run.
 * @KBIN_PROG_WHY_COMPUTE_FIELD: words, zero, pad or flags.
 * @KBIN_PROG_WHY_COMPUTE_FUNC: an unknown function or ALU operation.
 * @KBIN_PROG_WHY_COMPUTE_UNUSED: an operand the operation does not read
 *	is not zero.
 * @KBIN_PROG_WHY_COMPUTE_SPACE: an operand in a space the operation does
 *	not take it from.
 * @KBIN_PROG_WHY_COMPUTE_DTYPE: a dtype the engines do not cast.
 * @KBIN_PROG_WHY_COMPUTE_PARTITIONS: partitions past the space's.
 * @KBIN_PROG_WHY_COMPUTE_BYTES: bytes outside the partition.
 * @KBIN_PROG_WHY_COMPUTE_SHAPE: partitions or counts that do not fit.
 * @KBIN_PROG_WHY_COMPUTE_ELEMS: elements per partition that do not fit.
 * @KBIN_PROG_WHY_COMPUTE_REG: a register past the engine's or a
 *	predicate of unknown bits.
 * @KBIN_PROG_WHY_COMPUTE_DYN: a run-time offset of an unknown side,
 *	non-zero padding or no value allowed.
 */
enum kbin_prog_why {
	KBIN_PROG_WHY_NONE = 0,
	KBIN_PROG_WHY_WAIT_MODE,
	KBIN_PROG_WHY_UPDATE_MODE,
	KBIN_PROG_WHY_WAIT_SEM,
	KBIN_PROG_WHY_UPDATE_SEM,
	KBIN_PROG_WHY_DMA_SEM,
	KBIN_PROG_WHY_BLOCK_SEM,
	KBIN_PROG_WHY_NAME,
	KBIN_PROG_WHY_NO_QUEUE,
	KBIN_PROG_WHY_OTHER_ENGINE,
	KBIN_PROG_WHY_QUEUES,
	KBIN_PROG_WHY_SAME_NAME,
	KBIN_PROG_WHY_EXTRA_TRIGGER,
	KBIN_PROG_WHY_MISSING_TRIGGERS,
	KBIN_PROG_WHY_SYNC,
	KBIN_PROG_WHY_COMPUTE_OPCODE,
	KBIN_PROG_WHY_COMPUTE_ENGINE,
	KBIN_PROG_WHY_COMPUTE_FIELD,
	KBIN_PROG_WHY_COMPUTE_FUNC,
	KBIN_PROG_WHY_COMPUTE_UNUSED,
	KBIN_PROG_WHY_COMPUTE_SPACE,
	KBIN_PROG_WHY_COMPUTE_DTYPE,
	KBIN_PROG_WHY_COMPUTE_PARTITIONS,
	KBIN_PROG_WHY_COMPUTE_BYTES,
	KBIN_PROG_WHY_COMPUTE_SHAPE,
	KBIN_PROG_WHY_COMPUTE_ELEMS,
	KBIN_PROG_WHY_COMPUTE_REG,
	KBIN_PROG_WHY_COMPUTE_DYN,
};

/**
 * struct kbin_prog_verdict - where and why a program broke a rule.
 * @why: enum kbin_prog_why.
 * @engine: the stream's enum kbin_dma_engine; 0 when not about one.
 * @instr: the instruction's index in its stream, or -1.
 * @opcode: its opcode (record byte 0) when @instr >= 0.
 * @queue: the queue's index among the subgraph's, or -1.
 * @block: the block's id in @queue, or -1.
 * @value: the offending value (a mode, an index, a count, a field).
 * @limit: what it is measured against (the semaphore count, the queue's
 *	blocks, the decoded value of a field, a second queue's index).
 * @field: KBIN_PROG_WHY_SYNC: the entry's field ("wait_value"); else "".
 * @qname: the queue name the record or the plan gives, NUL-terminated,
 *	or "".
 */
struct kbin_prog_verdict {
	unsigned int why;
	unsigned int engine;
	long long instr;
	long long queue;
	long long block;
	unsigned long long value;
	unsigned long long limit;
	const char *field;
	__u8 opcode;
	char qname[KBIN_PROG_QNAME_MAX];
};

/**
 * struct kbin_prog_sg_args - one subgraph's program and the DMA queues
 * and blocks its triggers name, as kbin_prog_check_sg() reads them.
 * @records: per stream (index enum kbin_dma_engine - 1) @num records of
 *	KBIN_PROG_RECORD_SIZE bytes.
 * @sync: per stream @num decoded entries to check; NULL when @fill.
 * @fill: per stream @num entries to write instead of checking, or NULL.
 * @num: instructions per stream.
 * @base: the plan; a queue's name is the string at @base + its name.
 * @queues: the subgraph's @num_queues DMA queues (checked names, block
 *	ranges of the plan's block table).
 * @num_queues: 0 when the plan has no DMA section.
 * @blocks: the subgraph's @num_blocks blocks, in queue order.
 * @num_blocks: its blocks.
 * @first_block: the index of @blocks[0] in the plan's block table.
 * @semaphores: the NeuronCore's semaphore count (struct kbin_gen).
 * @flags: the program section's KBIN_PROG_F_*.
 * @gen: the plan's generation; with KBIN_PROG_F_COMPUTE in @flags every
 *	compute instruction is held to kbin_compute_check() for it.
 */
struct kbin_prog_sg_args {
	const __u8 *records[KBIN_PROG_ENGINES];
	const struct kbin_prog_sync *sync[KBIN_PROG_ENGINES];
	struct kbin_prog_sync *fill[KBIN_PROG_ENGINES];
	__u32 num[KBIN_PROG_ENGINES];
	const __u8 *base;
	const struct kbin_dma_queue *queues;
	__u32 num_queues;
	const struct kbin_dma_block *blocks;
	__u32 num_blocks;
	__u32 first_block;
	__u32 semaphores;
	__u32 flags;
	const struct kbin_gen *gen;
};

unsigned int kbin_prog_stream_count(__u64 bytes, __u32 *num);
void kbin_prog_verdict_init(struct kbin_prog_verdict *v);
void kbin_prog_decode(const __u8 *rec, struct kbin_prog_sync *out);
unsigned int kbin_prog_check_sg(const struct kbin_prog_sg_args *a,
				struct kbin_prog_verdict *v);
char *kbin_prog_why(const struct kbin_prog_verdict *v, char *buf,
		    unsigned long len);
const char *kbin_prog_class_str(unsigned int cls);

/* ---- the cost model (Documentation/execute.rst) ---- */

/* virtual nanoseconds every DMA block takes before its bytes move */
#define KBIN_PROG_BLOCK_LATENCY_NS	500U

__u64 kbin_prog_instr_ns(unsigned int engine, unsigned int cls);
__u64 kbin_prog_block_bytes(const struct kbin_dma_desc *descs, __u32 n);
__u64 kbin_prog_block_ns(const struct kbin_gen *g, __u64 bytes);

#endif /* _NEURONSIM_KBIN_PROG_H */
