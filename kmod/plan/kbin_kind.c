// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * kbin_kind.c - the one table of mem_ref kinds (kbin_kind.h).  Each row
 * is one mr_type; Documentation/hardware.rst ("Kinds") explains every
 * column.
 */

#include "kbin_compat.h"
#include "kbin_kind.h"

const struct kbin_kind kbin_kinds[KBIN_MR_TYPE_MAX + 1] = {
	[KBIN_MR_INVALID] = {
		.name = "MR_INVALID",
	},
	[KBIN_MR_SB] = {
		.name = "MR_SB", .def_type = "state-buffer",
		.storage = KBIN_STORAGE_SBUF,
		.size = KBIN_SIZE_SBUF, .build = KBIN_BUILD_SP,
	},
	[KBIN_MR_BUFFER_STAGED] = {
		.name = "MR_BUFFER_STAGED",
		.storage = KBIN_STORAGE_HBM, .payload = KBIN_PAYLOAD_REQUIRED,
		.usage = KBIN_USAGE_WEIGHT,
		.size = KBIN_SIZE_VAR, .build = KBIN_BUILD_BUFFER,
	},
	[KBIN_MR_BUFFER] = {
		.name = "MR_BUFFER", .def_type = "file",
		.storage = KBIN_STORAGE_HBM, .payload = KBIN_PAYLOAD_OPTIONAL,
		.usage = KBIN_USAGE_WEIGHT,
		.size = KBIN_SIZE_VAR, .build = KBIN_BUILD_BUFFER,
	},
	[KBIN_MR_TMP_BUF] = {
		.name = "MR_TMP_BUF", .def_type = "tmp-buf",
		.storage = KBIN_STORAGE_HBM,
		.usage = KBIN_USAGE_SCRATCHPAD_NOT_SHARED,
		.size = KBIN_SIZE_VAR, .build = KBIN_BUILD_TMP_BUF,
	},
	[KBIN_MR_INPUT] = {
		.name = "MR_INPUT", .def_type = "input",
		.storage = KBIN_STORAGE_HBM, .usage = KBIN_USAGE_IO,
		.size = KBIN_SIZE_VAR, .build = KBIN_BUILD_IO,
	},
	[KBIN_MR_OUTPUT] = {
		.name = "MR_OUTPUT", .def_type = "output",
		.storage = KBIN_STORAGE_HBM, .usage = KBIN_USAGE_IO,
		.size = KBIN_SIZE_VAR, .build = KBIN_BUILD_IO,
	},
	[KBIN_MR_PTR] = {
		.name = "MR_PTR", .def_type = "pointer",
		.storage = KBIN_STORAGE_TARGET,
		.variant = KBIN_VARIANT_POINTER,
		.size = KBIN_SIZE_ADDRESS, .build = KBIN_BUILD_POINTER,
	},
	[KBIN_MR_VIRTUAL_TMP_BUF] = {
		.name = "MR_VIRTUAL_TMP_BUF", .def_type = "virtual",
		.storage = KBIN_STORAGE_SCRATCHPAD,
		.variant = KBIN_VARIANT_VIRT,
		.usage = KBIN_USAGE_SCRATCHPAD_NOT_SHARED,
		.placement = KBIN_PLACE_BACKING_SP,
		.size = KBIN_SIZE_VAR, .build = KBIN_BUILD_VIRTUAL_TMP_BUF,
	},
	[KBIN_MR_LIST] = {
		.name = "MR_LIST", .def_type = "list",
		.storage = KBIN_STORAGE_INDEX, .variant = KBIN_VARIANT_LIST,
		.size = KBIN_SIZE_LIST, .build = KBIN_BUILD_LIST,
	},
	[KBIN_MR_PTR_TABLE] = {
		.name = "MR_PTR_TABLE", .def_type = "dge-table",
		.storage = KBIN_STORAGE_TABLE, .variant = KBIN_VARIANT_LIST,
		.usage = KBIN_USAGE_GENERIC,
		.size = KBIN_SIZE_LIST, .build = KBIN_BUILD_PTR_TABLE,
	},
	[KBIN_MR_REMOTE] = {
		.name = "MR_REMOTE", .def_type = "remote",
		.storage = KBIN_STORAGE_REMOTE,
		.variant = KBIN_VARIANT_REMOTE,
		.size = KBIN_SIZE_OPTIONAL,
		.build = KBIN_BUILD_REMOTE_VARIABLE,
	},
	/* neuronsim's own kind: libnrt's values stop at MR_REMOTE */
	[KBIN_MR_PSUM] = {
		.name = "MR_PSUM", .def_type = "psum",
		.storage = KBIN_STORAGE_PSUM,
		.size = KBIN_SIZE_PSUM, .build = KBIN_BUILD_PSUM,
	},
};

/*
 * libnrt's dma_mem_usage_type -> the driver's device-memory category
 * (Documentation/hardware.rst, "HBM usage categories").  The values
 * libnrt leaves unnamed (19..22) are uncategorized.
 */
const __u8 kbin_usage_categories[KBIN_USAGE_MAX + 1] = {
	[KBIN_USAGE_GENERIC] = KBIN_MEMCAT_RUNTIME_MEMORY,
	[KBIN_USAGE_INSTR_PE] = KBIN_MEMCAT_MODEL_CODE,
	[KBIN_USAGE_INSTR_ACT] = KBIN_MEMCAT_MODEL_CODE,
	[KBIN_USAGE_INSTR_POOL] = KBIN_MEMCAT_MODEL_CODE,
	[KBIN_USAGE_IO] = KBIN_MEMCAT_TENSORS,
	[KBIN_USAGE_DRAM_SPILL] = KBIN_MEMCAT_NONSHARED_SCRATCHPAD,
	[KBIN_USAGE_WEIGHT] = KBIN_MEMCAT_CONSTANTS,
	[KBIN_USAGE_NOTIFICATION] = KBIN_MEMCAT_NOTIFICATIONS,
	[KBIN_USAGE_ACT_TABLE] = KBIN_MEMCAT_MODEL_CODE,
	[KBIN_USAGE_INSTR_DVE] = KBIN_MEMCAT_MODEL_CODE,
	[KBIN_USAGE_INSTR_SP] = KBIN_MEMCAT_MODEL_CODE,
	[KBIN_USAGE_SCRATCHPAD] = KBIN_MEMCAT_MODEL_SHARED_SCRATCHPAD,
	[KBIN_USAGE_TENSOR] = KBIN_MEMCAT_TENSORS,
	[KBIN_USAGE_UCODE_LIB] = KBIN_MEMCAT_MODEL_CODE,
	[KBIN_USAGE_POOL_STDIO] = KBIN_MEMCAT_RUNTIME_MEMORY,
	[KBIN_USAGE_CC] = KBIN_MEMCAT_COLLECTIVES,
	[KBIN_USAGE_SCRATCHPAD_NOT_SHARED] = KBIN_MEMCAT_NONSHARED_SCRATCHPAD,
	[KBIN_USAGE_XT_CC] = KBIN_MEMCAT_COLLECTIVES,
	[KBIN_USAGE_DMA_RING] = KBIN_MEMCAT_DMA_RINGS,
	[KBIN_USAGE_DMA_RING + 1] = KBIN_MEMCAT_UNCATEGORIZED,
	[KBIN_USAGE_DMA_RING + 2] = KBIN_MEMCAT_UNCATEGORIZED,
	[KBIN_USAGE_DMA_RING + 3] = KBIN_MEMCAT_UNCATEGORIZED,
	[KBIN_USAGE_MAX] = KBIN_MEMCAT_UNCATEGORIZED,
};

/*
 * The scratchpad arenas, by kbin_backing_buf (Documentation/hardware.rst,
 * "Scratchpad arenas"): LOCAL is each subgraph's own, sized by the
 * header's local size and charged to SCRATCHPAD_NOT_SHARED; SHARED,
 * SHARDED and MAIN are one arena each per load, charged to SCRATCHPAD;
 * the header's shared size is SHARED's, the other two are sized by their
 * variables.
 */
const struct kbin_backing kbin_backings[KBIN_BACKING_BUF_MAX + 1] = {
	[KBIN_BACKING_BUF_LOCAL] = {
		.scope = KBIN_ARENA_SUBGRAPH, .size = KBIN_ARENA_SIZE_LOCAL,
		.usage = KBIN_USAGE_SCRATCHPAD_NOT_SHARED,
	},
	[KBIN_BACKING_BUF_SHARED] = {
		.scope = KBIN_ARENA_LOAD, .size = KBIN_ARENA_SIZE_SHARED,
		.usage = KBIN_USAGE_SCRATCHPAD,
	},
	[KBIN_BACKING_BUF_SHARDED] = {
		.scope = KBIN_ARENA_LOAD, .size = KBIN_ARENA_SIZE_VARS,
		.usage = KBIN_USAGE_SCRATCHPAD,
	},
	[KBIN_BACKING_BUF_MAIN] = {
		.scope = KBIN_ARENA_LOAD, .size = KBIN_ARENA_SIZE_VARS,
		.usage = KBIN_USAGE_SCRATCHPAD,
	},
};

/**
 * kbin_mr_type_from_def() - the mr_type of a def.json var "type".
 * @def_type: NUL-terminated, e.g. "state-buffer", "file", "dge-table".
 *
 * Return: enum kbin_mr_type; KBIN_MR_INVALID for a string no kind has.
 */
unsigned int kbin_mr_type_from_def(const char *def_type)
{
	unsigned int t;

	for (t = 0; t <= KBIN_MR_TYPE_MAX; t++)
		if (kbin_kinds[t].def_type &&
		    !strcmp(def_type, kbin_kinds[t].def_type))
			return t;
	return KBIN_MR_INVALID;
}
