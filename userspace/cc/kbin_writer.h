/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbin_writer.h - build a KBIN static memory plan in memory.
 *
 * Usage: kbin_writer_new(), one kbin_writer_add_subgraph() per subgraph,
 * kbin_writer_add_record() for each of its mem_ref records in var_id
 * order, then kbin_writer_finish() to get the file bytes.  The writer lays
 * out uapi/linux/neuronsim_kbin.h exactly (Documentation/kbin-format.rst):
 * header, mem_ref sets, subgraph table, then the data area with debug
 * metadata, lists, names (identical names stored once) and 64-byte
 * aligned payloads.  It checks only what it needs to encode a record; run
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

struct kbin_writer *kbin_writer_new(uint32_t target_gen);
void kbin_writer_free(struct kbin_writer *w);
int kbin_writer_add_subgraph(struct kbin_writer *w, const char *name,
			     uint64_t local_scratchpad_size,
			     uint64_t shared_scratchpad_size,
			     const struct kbin_sb_carveout *carveouts,
			     uint32_t num_carveouts);
int kbin_writer_add_record(struct kbin_writer *w, int sg,
			   const struct kbin_rec_in *in);
int kbin_writer_finish(struct kbin_writer *w, void **buf, size_t *len);
void kbin_fix_checksum(void *buf, size_t len);

#endif /* _NEURONSIM_KBIN_WRITER_H */
