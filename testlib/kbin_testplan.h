/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbin_testplan.h - valid KBIN plans for the host tests, the fuzzer seed
 * generator and the format documentation, built with the KBIN writer.
 */
#ifndef _NEURONSIM_KBIN_TESTPLAN_H
#define _NEURONSIM_KBIN_TESTPLAN_H

#include <stddef.h>
#include <stdint.h>

#include "kbin_writer.h"

/* Subgraph 0 of the full plan: one record of every kind (var_id order). */
enum tp_sg0_var {
	TP_SB,		/* MR_SB */
	TP_STAGED,	/* MR_BUFFER_STAGED with payload */
	TP_BUF,		/* MR_BUFFER with payload and debug md */
	TP_BUF_NOPAY,	/* MR_BUFFER without payload */
	TP_TMP,		/* MR_TMP_BUF with debug md */
	TP_IN,		/* MR_INPUT */
	TP_OUT,		/* MR_OUTPUT */
	TP_PTR,		/* MR_PTR -> TP_IN, io_ref 1 */
	TP_VLOCAL,	/* MR_VIRTUAL_TMP_BUF, LOCAL */
	TP_VSHARED,	/* MR_VIRTUAL_TMP_BUF, SHARED */
	TP_LIST,	/* MR_LIST {0, 3, 4} */
	TP_PTAB,	/* MR_PTR_TABLE {1, 2, 3} */
	TP_REMOTE,	/* MR_REMOTE -> sg 1 var TP1_BUF */
	TP_SG0_NMEM,
};

/* Subgraph 1 of the full plan. */
enum tp_sg1_var {
	TP1_SB,		/* MR_SB, same name as sg 0's (deduped) */
	TP1_BUF,	/* MR_BUFFER, 4096 bytes, no payload */
	TP1_REMOTE,	/* MR_REMOTE -> sg 0 var TP_TMP */
	TP1_NMEM,
};

/* The DMA program of the full plan: sg 0 queues, blocks, descriptors. */
enum tp_sg0_queue {
	TP_Q_IO,	/* "qSPIO0": in, sp, semaphores {24, 25} */
	TP_Q_DYN,	/* "qPoolDynamic": dynamic, pool, SB scratch, {40} */
	TP_SG0_NQ,
};

enum tp_sg0_block {
	TP_B_IO0,	/* qSPIO0 block 0, semaphore 24: TP_D_IN_SB, TP_D_SB_OUT */
	TP_B_IO1,	/* qSPIO0 block 1, semaphore 25: TP_D_BUF_V */
	TP_B_DYN0,	/* qPoolDynamic block 0, semaphore 40: TP_D_CAST */
	TP_SG0_NB,
};

enum tp_sg0_desc {
	TP_D_IN_SB,	/* copy input0 [256, 4] -> sbuf, 4 partitions */
	TP_D_SB_OUT,	/* copy sbuf, the last 512 bytes of 2 partitions -> output0 */
	TP_D_BUF_V,	/* copy w_buf 128 bytes -> vshared */
	TP_D_CAST,	/* cast int8 b_nopay [128, 4] -> float32 sbuf [512, 4] */
	TP_SG0_ND,
};

/* sg 1: one queue "qSPSpillReload0", one block, a transpose TP1_D_T */
#define TP1_NQ	1
#define TP1_NB	1
#define TP1_ND	1

/**
 * struct tp_block - one block of the test plan's DMA program.
 * @b: the block as given to kbin_writer_add_dma_block().
 * @comment: its "#comment".
 * @d: its descriptors; @nd of them.
 */
struct tp_block {
	struct kbin_dma_block b;
	const char *comment;
	struct kbin_dma_desc d[2];
	uint32_t nd;
};

#define TP_TARGET		KBIN_TARGET_TRN2
#define TP_LOCAL_SP		(1ULL << 20)	/* sg 0 local scratchpad */
#define TP_SHARED_SP		(2ULL << 20)	/* sg 0 shared scratchpad */

/**
 * struct tp_plan - the writer inputs of the full plan, for round trips.
 * @in: per subgraph, the records as given to kbin_writer_add_record().
 * @n: records per subgraph.
 * @name: subgraph names.
 * @local_sp: local scratchpad sizes.
 * @shared_sp: shared scratchpad sizes.
 * @co: carve-outs per subgraph.
 * @nco: carve-outs used per subgraph.
 * @q: per subgraph, the DMA queues as given to the writer; @nq of them.
 * @blk: per subgraph, the blocks in queue order; @nb of them.
 */
struct tp_plan {
	struct kbin_rec_in in[2][TP_SG0_NMEM];
	uint32_t n[2];
	const char *name[2];
	uint64_t local_sp[2];
	uint64_t shared_sp[2];
	struct kbin_sb_carveout co[2][KBIN_MAX_CARVEOUTS];
	uint32_t nco[2];
	struct kbin_dma_queue_in q[2][TP_SG0_NQ];
	uint32_t nq[2];
	struct tp_block blk[2][TP_SG0_NB];
	uint32_t nb[2];
};

const struct tp_plan *tp_inputs(void);
int tp_build(void **buf, size_t *len);
int tp_build_n(uint32_t n, void **buf, size_t *len);
int tp_build_small(void **buf, size_t *len);

int tp_build_v1(void **buf, size_t *len);

/*
 * The full plan with a program (tp_build_prog(), KBIN version 3): per
 * subgraph and engine (enum kbin_dma_engine) its instructions, in order.
 * sg 0:
 *   pe   [0] 0x01 update 1          [1] 0xa0 wait 2>=1   [2] 0x02
 *   act  [0] 0x21 wait 1>=1 update 2
 *   pool [0] 0xc1 qPoolDynamic      [1] 0xa0 wait 40>=1  [2] 0xd4 3 += 16
 *   dve  [0] 0x41 wait 3>=16 update 4
 *   sp   [0] 0xc1 qSPIO0  [1] 0xc1 qSPIO0  [2] 0xa0 wait 25>=2 update 5
 * sg 1:
 *   pe   [0] 0xa0 wait 8>=1
 *   sp   [0] 0xc1 qSPSpillReload0
 * It runs to the end: semaphores 1, 2, 4, 5 = 1, 3 = 16, 24 = 25 = 2 (the
 * queue's num_queues), 40 = 1 in sg 0, 8 = 1 in sg 1.
 */
#define TP_PROG_SG0_N	11	/* instructions of sg 0 */
#define TP_PROG_SG1_N	2

/**
 * struct tp_instr - one instruction of the test program.
 * @sg: its subgraph.
 * @engine: enum kbin_dma_engine.
 * @s: its sync layer (kbin_prog_encode()).
 * @queue: a trigger's queue, else NULL.
 */
struct tp_instr {
	uint32_t sg;
	uint32_t engine;
	struct kbin_prog_sync s;
	const char *queue;
};

const struct tp_instr *tp_prog_instrs(uint32_t *n);
int tp_build_prog(void **buf, size_t *len);
struct kbin_prog_section *tp_prog(void *buf);
uint8_t *tp_prog_rec(void *buf, uint32_t sg, uint32_t engine, uint32_t i);
struct kbin_prog_sync *tp_prog_sync(void *buf, uint32_t sg, uint32_t engine,
				    uint32_t i);

struct kbin_subgraph *tp_sg(void *buf, uint32_t sg);
struct kbin_mem_ref_set *tp_set(void *buf, uint32_t sg);
struct kbin_mem_ref *tp_rec(void *buf, uint32_t sg, uint32_t i);
struct kbin_header_ext *tp_ext(void *buf);
struct kbin_dma_section *tp_dma(void *buf);
struct kbin_dma_queue *tp_queue(void *buf, uint32_t sg, uint32_t k);
struct kbin_dma_block *tp_block(void *buf, uint32_t sg, uint32_t j);
struct kbin_dma_desc *tp_desc(void *buf, uint32_t sg, uint32_t d);

#endif /* _NEURONSIM_KBIN_TESTPLAN_H */
