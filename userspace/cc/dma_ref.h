/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dma_ref.h - the host reference of the DMA engine (Documentation/dma.rst,
 * "The host reference"): the DMA queues of a plan executed on plain host
 * buffers, straight from the plan's descriptors and access patterns
 * (kmod/plan/kbin_dma.h's walker), never from UDMA rings.  The tests use
 * it as an oracle for the kernel's engine (kmod/engine.c), which reads
 * the rings the relocation wrote.
 *
 * Memory is a sparse map of 4 KiB host pages keyed by device address, so
 * two variables at one address (an MR_PTR's target, overlapping
 * scratchpad buffers) share bytes as on the device; unwritten bytes read
 * as zeros.
 */
#ifndef _NEURONSIM_DMA_REF_H
#define _NEURONSIM_DMA_REF_H

#include <stddef.h>
#include <stdint.h>

#include "kbin_reader.h"

struct dma_ref_mem;

struct dma_ref_mem *dma_ref_mem_new(void);
void dma_ref_mem_free(struct dma_ref_mem *m);
int dma_ref_mem_write(struct dma_ref_mem *m, uint64_t addr, const void *src,
		      uint64_t len);
void dma_ref_mem_read(const struct dma_ref_mem *m, uint64_t addr, void *dst,
		      uint64_t len);

/**
 * typedef dma_ref_addr_fn - the device address of byte 0 of a variable.
 * @ctx: the caller's context.
 * @var_id: a var_id of the subgraph.
 * @pa: out: its address (RESOLVE at offset 0).
 *
 * Return: 0, or a negative errno (the queue stops with it).
 */
typedef int (*dma_ref_addr_fn)(void *ctx, uint32_t var_id, uint64_t *pa);

/**
 * struct dma_ref_stats - what a reference run did.
 * @blocks: blocks run.
 * @descs: descriptors run.
 * @bytes: bytes written (the to sides).
 * @fail_block: the block id a failure is in.
 * @fail_desc: the descriptor's index in that block.
 */
struct dma_ref_stats {
	uint32_t blocks;
	uint32_t descs;
	uint64_t bytes;
	uint32_t fail_block;
	uint32_t fail_desc;
};

int dma_ref_transpose(const struct kbin_dma_desc *d, const uint8_t *in,
		      uint8_t *out, uint64_t bytes);
int dma_ref_run_block(struct dma_ref_mem *m, const struct kbin_dma_sg_view *v,
		      uint32_t blk, dma_ref_addr_fn addr, void *ctx,
		      struct dma_ref_stats *st);
int dma_ref_run_queue(struct dma_ref_mem *m, const struct kbin_dma_sg_view *v,
		      uint32_t q, dma_ref_addr_fn addr, void *ctx,
		      struct dma_ref_stats *st);

#endif /* _NEURONSIM_DMA_REF_H */
