/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbin_reader.h - read a KBIN static memory plan on the host.
 *
 * kbin_read() runs the shared plan checker (kmod/plan/kbin_check.c) over the
 * bytes and, when they are a well-formed plan, fills a view whose
 * accessors hand out pointers into the caller's buffer.  The view does not
 * own the buffer; keep it alive while using the view.
 */
#ifndef _NEURONSIM_KBIN_READER_H
#define _NEURONSIM_KBIN_READER_H

#include <stddef.h>
#include <stdint.h>
#include <linux/neuronsim_kbin.h>

#include "kbin_check.h"

/**
 * struct kbin_view - a checked plan.
 * @buf: the plan bytes (not owned).
 * @len: bytes at @buf.
 * @hdr: the file header, at @buf.
 * @num_subgraphs: hdr->num_subgraphs.
 * @dma: the DMA section of a version 2 or 3 plan, or NULL when it has
 *	none.
 * @prog: the program section of a version 3 plan, or NULL when it has
 *	none (a plan of version 1 or 2, or one written without).
 */
struct kbin_view {
	const uint8_t *buf;
	size_t len;
	const struct kbin_header *hdr;
	uint32_t num_subgraphs;
	const struct kbin_dma_section *dma;
	const struct kbin_prog_section *prog;
};

/**
 * struct kbin_prog_sg_view - one subgraph's instruction streams, in the
 * plan; index enum kbin_dma_engine - 1.
 * @records: per stream @num records of KBIN_PROG_RECORD_SIZE bytes.
 * @sync: per stream @num decoded entries (struct kbin_prog_sync); a
 *	trigger's block is an index among the subgraph's DMA blocks.
 * @num: instructions per stream.
 */
struct kbin_prog_sg_view {
	const uint8_t *records[KBIN_PROG_ENGINES];
	const struct kbin_prog_sync *sync[KBIN_PROG_ENGINES];
	uint32_t num[KBIN_PROG_ENGINES];
};

/**
 * struct kbin_dma_sg_view - one subgraph's DMA records, in the plan.
 * @queues: @num_queues queues.
 * @blocks: @num_blocks blocks, queue by queue; a queue's first_block is
 *	an index into the plan's block table: subtract @first_block.
 * @descs: @num_descs descriptors; likewise a block's first_desc minus
 *	@first_desc.
 * @first_block: index of @blocks[0] in the plan's block table.
 * @first_desc: index of @descs[0] in the plan's descriptor table.
 */
struct kbin_dma_sg_view {
	const struct kbin_dma_queue *queues;
	const struct kbin_dma_block *blocks;
	const struct kbin_dma_desc *descs;
	uint32_t num_queues;
	uint32_t num_blocks;
	uint32_t num_descs;
	uint32_t first_block;
	uint32_t first_desc;
};

int kbin_read(const void *buf, size_t len, struct kbin_view *v,
	      struct kbin_check_result *res);
const struct kbin_subgraph *kbin_view_subgraph(const struct kbin_view *v,
					       uint32_t i);
const struct kbin_mem_ref_set *kbin_view_set(const struct kbin_view *v,
					     uint32_t i);
const char *kbin_view_str(const struct kbin_view *v, uint64_t off);
const uint32_t *kbin_view_list(const struct kbin_view *v,
			       const struct kbin_mem_ref *rec);
const void *kbin_view_payload(const struct kbin_view *v,
			      const struct kbin_mem_ref *rec);
const struct kbin_debug_tensor_md *
kbin_view_md(const struct kbin_view *v, const struct kbin_mem_ref *rec);
int kbin_view_dma_sg(const struct kbin_view *v, uint32_t sg,
		     struct kbin_dma_sg_view *out);
const uint32_t *kbin_view_semaphores(const struct kbin_view *v,
				     const struct kbin_dma_queue *q);
int kbin_view_prog_sg(const struct kbin_view *v, uint32_t sg,
		      struct kbin_prog_sg_view *out);

#endif /* _NEURONSIM_KBIN_READER_H */
