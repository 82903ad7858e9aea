/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * kbin_check.h - the KBIN plan checker, shared by neuronsim.ko and the
 * host tools and tests.
 *
 * The checker reads an untrusted KBIN plan (uapi/linux/neuronsim_kbin.h)
 * and either accepts it or reports the first problem as (subgraph, record,
 * field, reason, value) plus a readable message.  It allocates nothing,
 * does not recurse, and runs in O(total records + total list entries).
 * Documentation/kbin-format.rst lists every rule.
 */
#ifndef _NEURONSIM_KBIN_CHECK_H
#define _NEURONSIM_KBIN_CHECK_H

#include <linux/neuronsim_kbin.h>

#define KBIN_CHECK_MSG_LEN	192

/**
 * struct kbin_check_result - the first problem the checker found.
 * @subgraph: subgraph table index, or -1 when not about a subgraph.
 * @record: record index in the subgraph's mem_ref set (== its var_id in a
 *	valid plan), or -1 when not about a record.
 * @field: enum kbin_check_field.
 * @reason: enum kbin_check_reason; KBIN_OK (0) when the plan is valid.
 * @value: the offending value (an offset, size, id or count).
 * @msg: NUL-terminated text, e.g.
 *	"sg 0 record 5 (var_id 5): alignment 3 is not a power of two";
 *	empty when the plan is valid.
 */
struct kbin_check_result {
	int subgraph;
	long long record;
	unsigned int field;
	unsigned int reason;
	unsigned long long value;
	char msg[KBIN_CHECK_MSG_LEN];
};

/**
 * kbin_mr_type_name() - the one table of mr_type names, for the kernel,
 * the host tools and libneuronsim (which does not link the checker).
 * @mr_type: enum kbin_mr_type.
 *
 * Return: a static string, e.g. "MR_SB"; NULL above MR_TYPE_MAX.
 */
static inline const char *kbin_mr_type_name(unsigned int mr_type)
{
	static const char *const names[KBIN_MR_TYPE_MAX + 1] = {
		[KBIN_MR_INVALID] = "MR_INVALID",
		[KBIN_MR_SB] = "MR_SB",
		[KBIN_MR_BUFFER_STAGED] = "MR_BUFFER_STAGED",
		[KBIN_MR_BUFFER] = "MR_BUFFER",
		[KBIN_MR_TMP_BUF] = "MR_TMP_BUF",
		[KBIN_MR_INPUT] = "MR_INPUT",
		[KBIN_MR_OUTPUT] = "MR_OUTPUT",
		[KBIN_MR_PTR] = "MR_PTR",
		[KBIN_MR_VIRTUAL_TMP_BUF] = "MR_VIRTUAL_TMP_BUF",
		[KBIN_MR_LIST] = "MR_LIST",
		[KBIN_MR_PTR_TABLE] = "MR_PTR_TABLE",
		[KBIN_MR_REMOTE] = "MR_REMOTE",
	};

	return mr_type <= KBIN_MR_TYPE_MAX ? names[mr_type] : NULL;
}

/**
 * kbin_reason_name() - the one table of reason texts, for the kernel (load
 * failure reports), the host tools and libneuronsim (which does not link
 * the checker).
 * @reason: enum kbin_check_reason: a checker code or a KBIN_ERR_STAGE_*.
 *
 * Return: a static string, e.g. "checksum mismatch"; "unknown reason" for a
 * value outside the enum.  Never NULL.
 */
static inline const char *kbin_reason_name(unsigned int reason)
{
	static const char *const names[KBIN_ERR_CHECK_MAX] = {
		[KBIN_OK] = "valid",
		[KBIN_ERR_TRUNCATED] = "truncated",
		[KBIN_ERR_MAGIC] = "bad magic",
		[KBIN_ERR_VERSION] = "unsupported version",
		[KBIN_ERR_HEADER_SIZE] = "bad header size",
		[KBIN_ERR_TOTAL_SIZE] = "total size mismatch",
		[KBIN_ERR_FLAGS] = "unknown flags",
		[KBIN_ERR_TARGET] = "unknown target generation",
		[KBIN_ERR_CHECKSUM] = "checksum mismatch",
		[KBIN_ERR_NUM_SUBGRAPHS] = "bad number of subgraphs",
		[KBIN_ERR_BOUNDS] = "out of bounds",
		[KBIN_ERR_OVERLAP] = "overlapping areas",
		[KBIN_ERR_MISALIGNED] = "misaligned",
		[KBIN_ERR_SG_NAME] = "bad subgraph name",
		[KBIN_ERR_SET_SIZE] = "bad mem_ref set size",
		[KBIN_ERR_CARVEOUT] = "bad carve-out",
		[KBIN_ERR_RESERVED] = "reserved field not zero",
		[KBIN_ERR_MR_TYPE] = "bad mr_type",
		[KBIN_ERR_NAME] = "bad name",
		[KBIN_ERR_SIZE] = "bad size",
		[KBIN_ERR_ALIGNMENT] = "bad alignment",
		[KBIN_ERR_VAR_ID_ORDER] = "var_id out of order",
		[KBIN_ERR_VAR_ID_DUP] = "duplicate var_id",
		[KBIN_ERR_DTYPE] = "bad dtype",
		[KBIN_ERR_SHAPE] = "bad shape",
		[KBIN_ERR_DTENSOR_MD] = "bad debug tensor metadata",
		[KBIN_ERR_PAYLOAD_KIND] = "payload on a kind that takes none",
		[KBIN_ERR_PAYLOAD_LENGTH] = "payload length mismatch",
		[KBIN_ERR_LIST_KIND] = "list on a kind that takes none",
		[KBIN_ERR_LIST_LENGTH] = "bad list length",
		[KBIN_ERR_LIST_ENTRY] = "bad list entry",
		[KBIN_ERR_PTR_SELF] = "pointer to itself",
		[KBIN_ERR_PTR_TARGET] = "bad pointer target",
		[KBIN_ERR_REMOTE_SG] = "bad remote subgraph",
		[KBIN_ERR_REMOTE_VAR] = "bad remote variable",
		[KBIN_ERR_REMOTE_CHAIN] = "remote to a remote variable",
		[KBIN_ERR_REMOTE_SIZE] = "remote variable too small",
		[KBIN_ERR_VIRT_RANGE] = "virtual buffer outside its scratchpad",
		[KBIN_ERR_BACKING_BUF] = "bad backing buffer",
		[KBIN_ERR_PAYLOAD_MISSING] = "missing payload",
	};

	switch (reason) {
	case KBIN_ERR_STAGE_HBM:
		return "HBM exhausted";
	case KBIN_ERR_STAGE_BACKING:
		return "backing memory cap reached";
	case KBIN_ERR_STAGE_SCRATCHPAD:
		return "scratchpad too large";
	case KBIN_ERR_STAGE_CORES:
		return "not enough NeuronCores";
	case KBIN_ERR_STAGE_LIMIT:
		return "module limit reached";
	case KBIN_ERR_STAGE_FAULT:
		return "injected fault";
	case KBIN_ERR_STAGE_NOMEM:
		return "out of kernel memory";
	case KBIN_ERR_STAGE_SBUF:
		return "SBUF placement conflict";
	}
	if (reason < KBIN_ERR_CHECK_MAX && names[reason])
		return names[reason];
	return "unknown reason";
}

unsigned int kbin_check_plan(const void *buf, unsigned long long len,
			     struct kbin_check_result *res);
const char *kbin_reason_str(unsigned int reason);
const char *kbin_field_str(unsigned int field);
const char *kbin_mr_type_str(unsigned int mr_type);
unsigned long long kbin_sbuf_partition_size(unsigned int target_gen);

#endif /* _NEURONSIM_KBIN_CHECK_H */
