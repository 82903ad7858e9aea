/* SPDX-License-Identifier: GPL-2.0 */
/*
 * prog_ref.h - the host reference of a compute plan (Documentation/
 * execute.rst, "The host reference of a compute plan"): the program of a
 * KBIN_PROG_F_COMPUTE plan executed on a dma_ref.h memory image, its
 * DMA blocks by the DMA reference and its compute instructions by the
 * shared executor kbin_compute_run(), each when the replay
 * (prog_replay.h) says it ended.  The kernel's engines are checked
 * against it: same plan, same input bytes, same output bytes.
 *
 * Addresses: NeuronCore N's SBUF is its window in the image (base
 * PROG_REF_SBUF_BASE + N * the generation's sbuf_window_size, partition
 * p at p * sbuf_partition_stride; Documentation/uapi.rst), the address
 * var 0 (MR_SB) resolves to.  PSUM has no device address here yet: it is
 * a host array per NeuronCore, reached through one function
 * (prog_ref_psum()) so that the mapping can change in one place.
 */
#ifndef _NEURONSIM_PROG_REF_H
#define _NEURONSIM_PROG_REF_H

#include <stdint.h>
#include <stdio.h>

#include "dma_ref.h"
#include "kbin_reader.h"

/* the device address of NeuronCore 0's SBUF window (Documentation/uapi.rst) */
#define PROG_REF_SBUF_BASE	0x100000000ULL

/**
 * typedef prog_ref_addr_fn - the device address of byte 0 of a variable.
 * @ctx: the caller's context.
 * @sg: the subgraph (it runs on NeuronCore @sg).
 * @var_id: a var_id of the subgraph.
 * @pa: out: its address (what RESOLVE at offset 0 gives; var 0 is the
 *	NeuronCore's SBUF window, prog_ref_sbuf_addr(g, @sg, 0, 0)).
 *
 * Return: 0, or a negative errno (the run stops with it).
 */
typedef int (*prog_ref_addr_fn)(void *ctx, uint32_t sg, uint32_t var_id,
				uint64_t *pa);

/**
 * struct prog_ref_stats - what a reference run did, all subgraphs.
 * @compute: compute instructions executed.
 * @blocks: DMA blocks run.
 * @bytes: bytes the blocks wrote.
 * @finished: the replay finished every subgraph.
 * @end_ns: the replay's virtual duration.
 * @fail_sg: where a failure is: the subgraph,
 * @fail_engine: the engine (0: a block),
 * @fail_index: the instruction's index in its stream, or the block's.
 */
struct prog_ref_stats {
	uint64_t compute;
	uint64_t blocks;
	uint64_t bytes;
	int finished;
	uint64_t end_ns;
	uint32_t fail_sg;
	uint32_t fail_engine;
	uint32_t fail_index;
};

/*
 * Without a device, a host run places the variables itself: var k > 0 of
 * any subgraph at PROG_REF_DRAM_BASE + k * PROG_REF_DRAM_STEP (64 GiB +
 * k * 64 MiB: where HBM channel 0 would be), var 0, the state buffer, at
 * its NeuronCore's SBUF window (prog_ref_flat_addr()).
 */
#define PROG_REF_DRAM_BASE	(64ULL << 30)
#define PROG_REF_DRAM_STEP	(64ULL << 20)

/**
 * prog_ref_flat_dram() - the flat layout's address of var @var_id > 0.
 * @var_id: the var.
 *
 * Return: PROG_REF_DRAM_BASE + @var_id * PROG_REF_DRAM_STEP.
 */
static inline uint64_t prog_ref_flat_dram(uint32_t var_id)
{
	return PROG_REF_DRAM_BASE + (uint64_t)var_id * PROG_REF_DRAM_STEP;
}

int prog_ref_flat_addr(void *ctx, uint32_t sg, uint32_t var_id, uint64_t *pa);

uint64_t prog_ref_sbuf_addr(const struct kbin_gen *g, uint32_t core,
			    uint32_t p, uint32_t off);
uint8_t *prog_ref_psum(uint8_t *psum, const struct kbin_gen *g,
		       uint32_t core, uint32_t p, uint32_t off);
int prog_ref_run(const struct kbin_view *v, struct dma_ref_mem *m,
		 prog_ref_addr_fn addr, void *ctx, struct prog_ref_stats *st);
int prog_ref_print(FILE *out, const struct kbin_view *v);

#endif /* _NEURONSIM_PROG_REF_H */
