/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbin_writer.h - build a KBIN static memory plan in memory.
 *
 * Usage: kbin_writer_new(), one kbin_writer_add_subgraph() per subgraph,
 * kbin_writer_add_record() for each of its mem_ref records in var_id
 * order, its DMA queues (kbin_writer_add_dma_queue()) and blocks
 * (kbin_writer_add_dma_block(), in queue order), its engines'
 * instruction streams (kbin_writer_add_prog()), then
 * kbin_writer_finish() to get the file bytes.  The writer lays out
 * uapi/linux/neuronsim_kbin.h exactly (Documentation/kbin-format.rst):
 * the version 2 header (version 3 with a program), mem_ref sets,
 * subgraph table, the DMA section, the program section (its decoded
 * entries written by kbin_prog_check_sg(), the decoder the checker
 * runs), then the data area with debug metadata, lists and semaphore
 * sets, names (identical names stored once) and 64-byte aligned
 * payloads.  It checks only what it needs to encode a record; run
 * kbin_check_plan() (or kbin_read()) on the result to apply every rule.
 */
#ifndef _NEURONSIM_KBIN_WRITER_H
#define _NEURONSIM_KBIN_WRITER_H

#include <stddef.h>
#include <stdint.h>
#include <linux/neuronsim_kbin.h>

struct kbin_writer;

/**
 * struct kbin_rec_in - one record to add.
 * @rec: every field of the 152-byte record except name, dtensor_md, buffer
 *	and (when @list is given) list.list, which the writer fills in.
 * @name: the variable's name, 1..KBIN_NAME_MAX - 1 characters; required.
 * @md: debug tensor metadata (516 bytes), or NULL.
 * @payload: weight bytes, or NULL; @payload_len bytes.
 * @payload_len: bytes at @payload; stored in the payload header (the
 *	checker requires it to equal rec.size).
 * @list: rec.list.length __u32 entries, or NULL.
 */
struct kbin_rec_in {
	struct kbin_mem_ref rec;
	const char *name;
	const struct kbin_debug_tensor_md *md;
	const void *payload;
	uint64_t payload_len;
	const uint32_t *list;
};

/**
 * struct kbin_dma_queue_in - one DMA queue to add.
 * @q: type, owner, num_queues, flags, sb_scratch_offset and
 *	sb_scratch_size as they go into the plan, and num_semaphores; the
 *	writer fills in name, fabric_path, semaphores, first_block and
 *	num_blocks.
 * @name: the queue's name, 1..KBIN_NAME_MAX - 1 characters; required.
 * @fabric_path: its fabric path, or NULL.
 * @semaphores: q.num_semaphores entries (NULL when there are none).
 */
struct kbin_dma_queue_in {
	struct kbin_dma_queue q;
	const char *name;
	const char *fabric_path;
	const uint32_t *semaphores;
};

struct kbin_writer *kbin_writer_new(uint32_t target_gen);
int kbin_writer_set_version(struct kbin_writer *w, uint32_t version);
void kbin_writer_free(struct kbin_writer *w);
int kbin_writer_add_subgraph(struct kbin_writer *w, const char *name,
			     uint64_t local_scratchpad_size,
			     uint64_t shared_scratchpad_size,
			     const struct kbin_sb_carveout *carveouts,
			     uint32_t num_carveouts);
int kbin_writer_add_record(struct kbin_writer *w, int sg,
			   const struct kbin_rec_in *in);
int kbin_writer_add_dma_queue(struct kbin_writer *w, int sg,
			      const struct kbin_dma_queue_in *in);
int kbin_writer_add_dma_block(struct kbin_writer *w, int sg,
			      const struct kbin_dma_block *b, const char *comment,
			      const struct kbin_dma_desc *descs, uint32_t n);
int kbin_writer_add_prog(struct kbin_writer *w, int sg, uint32_t engine,
			 const void *records, uint64_t bytes);
int kbin_writer_set_prog_flags(struct kbin_writer *w, uint32_t flags);
int kbin_writer_finish(struct kbin_writer *w, void **buf, size_t *len);
void kbin_fix_checksum(void *buf, size_t len);
int kbin_prog_refill(void *buf, size_t len);
void kbin_prog_encode(uint8_t *rec, const struct kbin_prog_sync *s,
		      const char *queue);

#endif /* _NEURONSIM_KBIN_WRITER_H */
