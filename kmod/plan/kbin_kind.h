/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * kbin_kind.h - the one table of mem_ref kinds: per mr_type its name,
 * where its bytes live (which is also how the loader stages it), its
 * payload rule, its union variant, the HBM usage category it is charged
 * to, how the compiler places and sizes it, its def.json type and its
 * build-side class.
 *
 * The checker, the stager, the ioctls, the library, the compiler and the
 * commands ask the table instead of listing mr_type values, so a new
 * kind is one row here (plus code only for a storage strategy that does
 * not exist yet).  Documentation/hardware.rst has the table in prose and
 * says how to add a kind.
 */
#ifndef _NEURONSIM_KBIN_KIND_H
#define _NEURONSIM_KBIN_KIND_H

#include <linux/neuronsim_kbin.h>

/**
 * enum kbin_storage - where a variable's bytes live; the loader stages
 * each storage its own way (Documentation/hardware.rst).
 * @KBIN_STORAGE_NONE: no bytes and no address (MR_INVALID).
 * @KBIN_STORAGE_SBUF: the NeuronCore's SBUF window; the address is the
 *	window base, nothing is copied.
 * @KBIN_STORAGE_HBM: an aligned HBM allocation in the region of the
 *	kind's usage category; the payload, if any, is copied in.
 * @KBIN_STORAGE_SCRATCHPAD: a scratchpad page at the planned offset.
 * @KBIN_STORAGE_INDEX: an index list the kernel keeps; no bytes.
 * @KBIN_STORAGE_TABLE: an index list plus a table of the listed
 *	variables' device addresses the loader writes into HBM.
 * @KBIN_STORAGE_TARGET: no bytes of its own: its target's address.
 * @KBIN_STORAGE_REMOTE: another subgraph's variable, placed in a second
 *	pass.
 * @KBIN_STORAGE_PSUM: the NeuronCore's PSUM window; the address is the
 *	window base, nothing is copied.
 */
enum kbin_storage {
	KBIN_STORAGE_NONE = 0,
	KBIN_STORAGE_SBUF,
	KBIN_STORAGE_HBM,
	KBIN_STORAGE_SCRATCHPAD,
	KBIN_STORAGE_INDEX,
	KBIN_STORAGE_TABLE,
	KBIN_STORAGE_TARGET,
	KBIN_STORAGE_REMOTE,
	KBIN_STORAGE_PSUM,
};

/**
 * enum kbin_payload - whether a record may carry a weight payload.
 * @KBIN_PAYLOAD_NONE: never (buffer must be 0).
 * @KBIN_PAYLOAD_OPTIONAL: may ("alloc+copy", else "alloc only").
 * @KBIN_PAYLOAD_REQUIRED: must.
 */
enum kbin_payload {
	KBIN_PAYLOAD_NONE = 0,
	KBIN_PAYLOAD_OPTIONAL,
	KBIN_PAYLOAD_REQUIRED,
};

/**
 * enum kbin_variant - which member of kbin_mem_ref's 16-byte union a
 * kind uses; the bytes of the others must be zero.
 * @KBIN_VARIANT_NONE: none: all 16 bytes zero.
 * @KBIN_VARIANT_POINTER: .pointer.
 * @KBIN_VARIANT_VIRT: .virt.
 * @KBIN_VARIANT_LIST: .list.
 * @KBIN_VARIANT_REMOTE: .remote.
 */
enum kbin_variant {
	KBIN_VARIANT_NONE = 0,
	KBIN_VARIANT_POINTER,
	KBIN_VARIANT_VIRT,
	KBIN_VARIANT_LIST,
	KBIN_VARIANT_REMOTE,
};

/**
 * enum kbin_usage - libnrt's dma_mem_usage_type: the HBM category a
 * staged variable is charged to (Documentation/hardware.rst).  Values are
 * libnrt's; kbin_usage_str() names them.
 * @KBIN_USAGE_GENERIC: runtime allocations of no other use (pointer tables).
 * @KBIN_USAGE_INSTR_PE: PE's instruction stream.
 * @KBIN_USAGE_INSTR_ACT: ACT's instruction stream.
 * @KBIN_USAGE_INSTR_POOL: POOL's instruction stream.
 * @KBIN_USAGE_IO: an input or output.
 * @KBIN_USAGE_DRAM_SPILL: data spilled to HBM.
 * @KBIN_USAGE_WEIGHT: a weight.
 * @KBIN_USAGE_NOTIFICATION: notification queues.
 * @KBIN_USAGE_ACT_TABLE: ACT's tables.
 * @KBIN_USAGE_INSTR_DVE: DVE's instruction stream.
 * @KBIN_USAGE_INSTR_SP: SP's instruction stream.
 * @KBIN_USAGE_SCRATCHPAD: the shared scratchpad.
 * @KBIN_USAGE_TENSOR: a tensor.
 * @KBIN_USAGE_UCODE_LIB: a microcode library.
 * @KBIN_USAGE_POOL_STDIO: POOL's stdio buffer.
 * @KBIN_USAGE_CC: collectives.
 * @KBIN_USAGE_SCRATCHPAD_NOT_SHARED: a subgraph's own scratchpad.
 * @KBIN_USAGE_XT_CC: collectives (libnrt XT_CC).
 * @KBIN_USAGE_DMA_RING: DMA rings.
 * @KBIN_USAGE_MAX: the largest value; libnrt leaves 19..22 unnamed.
 */
enum kbin_usage {
	KBIN_USAGE_GENERIC = 0,
	KBIN_USAGE_INSTR_PE = 1,
	KBIN_USAGE_INSTR_ACT = 2,
	KBIN_USAGE_INSTR_POOL = 3,
	KBIN_USAGE_IO = 4,
	KBIN_USAGE_DRAM_SPILL = 5,
	KBIN_USAGE_WEIGHT = 6,
	KBIN_USAGE_NOTIFICATION = 7,
	KBIN_USAGE_ACT_TABLE = 8,
	KBIN_USAGE_INSTR_DVE = 9,
	KBIN_USAGE_INSTR_SP = 10,
	KBIN_USAGE_SCRATCHPAD = 11,
	KBIN_USAGE_TENSOR = 12,
	KBIN_USAGE_UCODE_LIB = 13,
	KBIN_USAGE_POOL_STDIO = 14,
	KBIN_USAGE_CC = 15,
	KBIN_USAGE_SCRATCHPAD_NOT_SHARED = 16,
	KBIN_USAGE_XT_CC = 17,
	KBIN_USAGE_DMA_RING = 18,
	KBIN_USAGE_MAX = 22,
};

/**
 * enum kbin_mem_category - the Neuron driver's device-memory categories:
 *	the names of its sysfs counters
 *	neuron_coreM/stats/memory_usage/device_mem/<category>/{total,present,
 *	peak}, in the driver's order (Documentation/hardware.rst, "HBM usage
 *	categories").  kbin_mem_category_str() names them.
 * @KBIN_MEMCAT_MODEL_CODE: "model_code": instruction streams, ucode.
 * @KBIN_MEMCAT_TENSORS: "tensors": inputs, outputs, tensors.
 * @KBIN_MEMCAT_CONSTANTS: "constants": weights.
 * @KBIN_MEMCAT_MODEL_SHARED_SCRATCHPAD: "model_shared_scratchpad".
 * @KBIN_MEMCAT_RUNTIME_MEMORY: "runtime_memory": the runtime's own
 *	structures (pointer tables).
 * @KBIN_MEMCAT_DRIVER_MEMORY: "driver_memory": the driver's own.
 * @KBIN_MEMCAT_COLLECTIVES: "collectives".
 * @KBIN_MEMCAT_NONSHARED_SCRATCHPAD: "nonshared_scratchpad".
 * @KBIN_MEMCAT_NOTIFICATIONS: "notifications".
 * @KBIN_MEMCAT_DMA_RINGS: "dma_rings".
 * @KBIN_MEMCAT_UNCATEGORIZED: "uncategorized".
 * @KBIN_MEMCAT_MAX: number of categories.
 */
enum kbin_mem_category {
	KBIN_MEMCAT_MODEL_CODE = 0,
	KBIN_MEMCAT_TENSORS,
	KBIN_MEMCAT_CONSTANTS,
	KBIN_MEMCAT_MODEL_SHARED_SCRATCHPAD,
	KBIN_MEMCAT_RUNTIME_MEMORY,
	KBIN_MEMCAT_DRIVER_MEMORY,
	KBIN_MEMCAT_COLLECTIVES,
	KBIN_MEMCAT_NONSHARED_SCRATCHPAD,
	KBIN_MEMCAT_NOTIFICATIONS,
	KBIN_MEMCAT_DMA_RINGS,
	KBIN_MEMCAT_UNCATEGORIZED,
	KBIN_MEMCAT_MAX,
};

/*
 * The one table from libnrt's usage categories to the driver's
 * device-memory categories: kbin_usage_categories[usage] is an enum
 * kbin_mem_category (kbin_kind.c; Documentation/hardware.rst).
 */
extern const __u8 kbin_usage_categories[KBIN_USAGE_MAX + 1];

/**
 * kbin_usage_category() - the driver's device-memory category HBM of a
 *	usage category is counted in.
 * @usage: enum kbin_usage.
 *
 * Return: enum kbin_mem_category; KBIN_MEMCAT_UNCATEGORIZED above
 * KBIN_USAGE_MAX.
 */
static inline unsigned int kbin_usage_category(unsigned int usage)
{
	return usage <= KBIN_USAGE_MAX ? kbin_usage_categories[usage] :
	       KBIN_MEMCAT_UNCATEGORIZED;
}

/**
 * enum kbin_arena_scope - who owns a scratchpad arena.
 * @KBIN_ARENA_SUBGRAPH: each subgraph has its own, on its NeuronCore.
 * @KBIN_ARENA_LOAD: one per load, shared by its subgraphs, on the load's
 *	first NeuronCore.
 */
enum kbin_arena_scope {
	KBIN_ARENA_SUBGRAPH = 0,
	KBIN_ARENA_LOAD,
};

/**
 * enum kbin_arena_size - where a scratchpad arena's size comes from.
 * @KBIN_ARENA_SIZE_LOCAL: the subgraph's kbin_mem_ref_set
 *	.local_scratchpad_size; its variables must lie inside it.
 * @KBIN_ARENA_SIZE_SHARED: the largest kbin_mem_ref_set
 *	.shared_scratchpad_size of the load's subgraphs; each subgraph's
 *	variables must lie inside its own.
 * @KBIN_ARENA_SIZE_VARS: the plan header has no size for it: max(offset +
 *	size) over the variables it backs in all the load's subgraphs, as the
 *	compiler sizes the local scratchpad.
 */
enum kbin_arena_size {
	KBIN_ARENA_SIZE_LOCAL = 0,
	KBIN_ARENA_SIZE_SHARED,
	KBIN_ARENA_SIZE_VARS,
};

/**
 * struct kbin_backing - the scratchpad arena a kbin_backing_buf value
 *	names (the backing of an MR_VIRTUAL_TMP_BUF; Documentation/
 *	hardware.rst, "Scratchpad arenas").  kbin_backing_buf_str() names it.
 * @scope: enum kbin_arena_scope.
 * @size: enum kbin_arena_size.
 * @usage: enum kbin_usage its pages are charged to.
 */
struct kbin_backing {
	__u8 scope;
	__u8 size;
	__u8 usage;
};

extern const struct kbin_backing kbin_backings[KBIN_BACKING_BUF_MAX + 1];

/**
 * kbin_backing() - the arena of a backing_buf value.
 * @backing_buf: enum kbin_backing_buf, at most KBIN_BACKING_BUF_MAX (the
 *	checker refuses others).
 *
 * Return: the row; the LOCAL row for a value above KBIN_BACKING_BUF_MAX.
 */
static inline const struct kbin_backing *kbin_backing(__u32 backing_buf)
{
	return &kbin_backings[backing_buf <= KBIN_BACKING_BUF_MAX ? backing_buf :
			      KBIN_BACKING_BUF_LOCAL];
}

/**
 * enum kbin_placement - how the plan places a variable in its storage.
 * @KBIN_PLACE_LOADER: the loader picks the address (by storage); for
 *	storage HBM (an MR_TMP_BUF too) an allocation of its own, which
 *	counts toward no scratchpad size.
 * @KBIN_PLACE_BACKING_SP: the record's virt.offset into the scratchpad
 *	its virt.backing_buf names (def.json backing_variable_off; def.json
 *	vars are backed by the shared scratchpad).
 */
enum kbin_placement {
	KBIN_PLACE_LOADER = 0,
	KBIN_PLACE_BACKING_SP,
};

/**
 * enum kbin_size_rule - where the compiler takes a record's size from.
 * @KBIN_SIZE_NONE: nowhere (MR_INVALID).
 * @KBIN_SIZE_VAR: the variable's own size, required and non-zero.
 * @KBIN_SIZE_SBUF: the target generation's SBUF window of a NeuronCore
 *	(partition p's bytes at p * partition stride).
 * @KBIN_SIZE_ADDRESS: KBIN_ADDRESS_SIZE, one device address.
 * @KBIN_SIZE_LIST: 4 bytes per list entry.
 * @KBIN_SIZE_OPTIONAL: the variable's size when it has one, else 0.
 * @KBIN_SIZE_PSUM: the target generation's PSUM window of a NeuronCore
 *	(psum_size: partition p's bytes at p * psum_banks *
 *	KBIN_PSUM_BANK_SIZE).
 */
enum kbin_size_rule {
	KBIN_SIZE_NONE = 0,
	KBIN_SIZE_VAR,
	KBIN_SIZE_SBUF,
	KBIN_SIZE_ADDRESS,
	KBIN_SIZE_LIST,
	KBIN_SIZE_OPTIONAL,
	KBIN_SIZE_PSUM,
};

/* bytes of a device address (an MR_PTR's size, a pointer-table row) */
#define KBIN_ADDRESS_SIZE	8U

/**
 * kbin_ptr_table_bytes() - the bytes of an MR_PTR_TABLE as staged: its
 *	table of one device address (KBIN_ADDRESS_SIZE bytes) per row, and
 *	never less than the record's size (Documentation/hardware.rst).
 *	What RESOLVE, READ_VAR and every listing take as the variable's size.
 * @size: kbin_mem_ref.size (the compiler's 4 bytes per row).
 * @length: kbin_mem_ref.list.length, rows.
 *
 * Return: max(@size, KBIN_ADDRESS_SIZE x @length) bytes.
 */
static inline __u64 kbin_ptr_table_bytes(__u64 size, __u32 length)
{
	__u64 table = (__u64)length * KBIN_ADDRESS_SIZE;

	return size > table ? size : table;
}

/**
 * enum kbin_build - the compiler's build-side class of a kind
 * (userspace/cc/memref.h), libnrt's mem_ref_* classes.
 * @KBIN_BUILD_NONE: no class (MR_INVALID).
 * @KBIN_BUILD_SP: nscc_mr_sp_ops.
 * @KBIN_BUILD_IO: nscc_mr_io_ops.
 * @KBIN_BUILD_BUFFER: nscc_mr_buffer_ops.
 * @KBIN_BUILD_TMP_BUF: nscc_mr_tmp_buf_ops.
 * @KBIN_BUILD_VIRTUAL_TMP_BUF: nscc_mr_virtual_tmp_buf_ops.
 * @KBIN_BUILD_POINTER: nscc_mr_pointer_ops.
 * @KBIN_BUILD_LIST: nscc_mr_list_ops.
 * @KBIN_BUILD_PTR_TABLE: nscc_mr_ptr_table_ops.
 * @KBIN_BUILD_REMOTE_VARIABLE: nscc_mr_remote_variable_ops.
 * @KBIN_BUILD_PSUM: nscc_mr_psum_ops (neuronsim's own; libnrt has no
 *	PSUM class).
 * @KBIN_BUILD_MAX: the number of classes.
 */
enum kbin_build {
	KBIN_BUILD_NONE = 0,
	KBIN_BUILD_SP,
	KBIN_BUILD_IO,
	KBIN_BUILD_BUFFER,
	KBIN_BUILD_TMP_BUF,
	KBIN_BUILD_VIRTUAL_TMP_BUF,
	KBIN_BUILD_POINTER,
	KBIN_BUILD_LIST,
	KBIN_BUILD_PTR_TABLE,
	KBIN_BUILD_REMOTE_VARIABLE,
	KBIN_BUILD_PSUM,
	KBIN_BUILD_MAX,
};

/**
 * struct kbin_kind - the properties of one mr_type.
 * @name: "MR_SB" .. "MR_PSUM".
 * @def_type: the def.json "type" string the compiler maps to this kind,
 *	or NULL when def.json has none.
 * @storage: enum kbin_storage.
 * @payload: enum kbin_payload.
 * @variant: enum kbin_variant.
 * @usage: enum kbin_usage the kind's HBM bytes are charged to (storage
 *	HBM and TABLE; the SCRATCHPAD kind's pages are charged by scratchpad).
 * @placement: enum kbin_placement.
 * @size: enum kbin_size_rule.
 * @build: enum kbin_build.
 */
struct kbin_kind {
	const char *name;
	const char *def_type;
	__u8 storage;
	__u8 payload;
	__u8 variant;
	__u8 usage;
	__u8 placement;
	__u8 size;
	__u8 build;
};

extern const struct kbin_kind kbin_kinds[KBIN_MR_TYPE_MAX + 1];

/**
 * kbin_kind() - the properties of an mr_type.
 * @mr_type: enum kbin_mr_type; values above KBIN_MR_TYPE_MAX read as
 *	MR_INVALID.
 *
 * Return: the row, never NULL.
 */
static inline const struct kbin_kind *kbin_kind(__u32 mr_type)
{
	return &kbin_kinds[mr_type <= KBIN_MR_TYPE_MAX ? mr_type : KBIN_MR_INVALID];
}

/**
 * kbin_kind_valid() - is @mr_type a kind a plan may hold (1..12)?
 * @mr_type: value.
 *
 * Return: true for a kind other than MR_INVALID.
 */
static inline int kbin_kind_valid(__u32 mr_type)
{
	return mr_type != KBIN_MR_INVALID && mr_type <= KBIN_MR_TYPE_MAX;
}

/**
 * kbin_kind_has_storage() - does the kind own device bytes (SBUF, PSUM,
 *	HBM, scratchpad)?  Exactly these need a non-zero size, and only these may
 *	be an MR_PTR's target, an MR_PTR_TABLE row or an MR_REMOTE's var.
 * @mr_type: enum kbin_mr_type.
 *
 * Return: true or false.
 */
static inline int kbin_kind_has_storage(__u32 mr_type)
{
	__u8 s = kbin_kind(mr_type)->storage;

	return s == KBIN_STORAGE_SBUF || s == KBIN_STORAGE_HBM ||
	       s == KBIN_STORAGE_SCRATCHPAD || s == KBIN_STORAGE_PSUM;
}

unsigned int kbin_mr_type_from_def(const char *def_type);

#endif /* _NEURONSIM_KBIN_KIND_H */
