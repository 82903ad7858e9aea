/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * kbin_check.h - the KBIN plan checker, shared by neuronsim.ko and the
 * host tools and tests.
 *
 * The checker reads an untrusted KBIN plan (uapi/linux/neuronsim_kbin.h)
 * and either accepts it or reports the first problem as (subgraph, record,
 * field, reason, value) plus a readable message.  It allocates nothing,
 * does not recurse, and runs in O(total records + total list entries +
 * DMA queues, blocks and descriptors + instructions).
 * Documentation/kbin-format.rst lists every rule.  The names and texts
 * of its findings (reasons, fields, mr_types) are kbin_names.h's; this
 * header includes it.
 */
#ifndef _NEURONSIM_KBIN_CHECK_H
#define _NEURONSIM_KBIN_CHECK_H

#include <linux/neuronsim_kbin.h>

#include "kbin_names.h"
#include "kbin_prog.h"

#define KBIN_ERR_MSG_LEN	512

/**
 * struct kbin_err - where and why a plan was refused: the one error record
 * of the checker (the first problem it found), of the module's LOAD (the
 * checker's verdict, or staging's and relocation's own), and of the
 * compiler (the checker's verdict on the plan it wrote).  LOAD copies it
 * to struct neuronsim_load's err_* fields and its log buffer
 * (Documentation/uapi.rst); the words of every reason are
 * kbin_reason_str()'s.
 * @subgraph: subgraph table index, or -1 when not about a subgraph.
 * @record: record index in the subgraph's mem_ref set (== its var_id in a
 *	valid plan), or -1 when not about a record.
 * @field: enum kbin_check_field.
 * @reason: enum kbin_check_reason; KBIN_OK (0) when nothing was refused.
 * @value: the offending value (an offset, size, id or count).
 * @text: where in @msg the rule's words start, past the place ("sg 0
 *	record 5 (var_id 5): "): a caller that names the place its own
 *	way (the compiler, with the NEFF's names) prints @msg + @text.
 * @msg: NUL-terminated text, e.g.
 *	"sg 0 record 5 (var_id 5): alignment 3 is not a power of two";
 *	empty when nothing was refused.
 */
struct kbin_err {
	int subgraph;
	long long record;
	unsigned int field;
	unsigned int reason;
	unsigned long long value;
	unsigned int text;
	char msg[KBIN_ERR_MSG_LEN];
};

/**
 * struct kbin_check_result - the checker's answer.
 * @err: the first problem it found (@err.reason KBIN_OK when the plan is
 *	valid).
 * @item: for a finding about a DMA queue, block or descriptor (@err.field
 *	KBIN_FIELD_DMA_QUEUE .. KBIN_FIELD_DMA_TO), its index among the
 *	subgraph's queues, blocks or descriptors; for one about an
 *	instruction (@err.field KBIN_FIELD_PROG_PE .. KBIN_FIELD_PROG_SP),
 *	its index in its engine's stream; else -1.
 * @dma_descs: valid plan: its DMA descriptors.
 * @dma_m2s_pieces: valid plan: UDMA pieces of all from sides (M2S), as
 *	kbin_dma_pattern() counts them, saturated at 2^64 - 1.
 * @dma_s2m_pieces: the same for the to sides (S2M).
 * @prog_instrs: valid plan: the instructions of its program section.
 * @prog: for a finding about the program section (@err.field
 *	KBIN_FIELD_PROG_SECTION .. KBIN_FIELD_PROG_SP), where and why
 *	(kbin_prog.h; @item is its instruction index, or -1); else its
 *	@why is KBIN_PROG_WHY_NONE.
 */
struct kbin_check_result {
	struct kbin_err err;
	long long item;
	unsigned long long dma_descs;
	unsigned long long dma_m2s_pieces;
	unsigned long long dma_s2m_pieces;
	unsigned long long prog_instrs;
	struct kbin_prog_verdict prog;
};

unsigned int kbin_check_plan(const void *buf, unsigned long long len,
			     struct kbin_check_result *res);
unsigned long long kbin_sbuf_partition_size(unsigned int target_gen);

#endif /* _NEURONSIM_KBIN_CHECK_H */
