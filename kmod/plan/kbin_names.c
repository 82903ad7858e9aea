// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * kbin_names.c - the name and text tables of kbin_names.h.  The mr_type
 * names are the kind table's (kbin_kind.c); every other table is here,
 * indexed by its enum or the uapi's values.
 */

#include <linux/neuronsim.h>

#include "kbin_compat.h"
#include "kbin_kind.h"
#include "kbin_names.h"

/* a table entry, or @unknown for an index outside it or a hole in it */
static const char *kbin_name(const char *const *names, unsigned int n,
			     unsigned int i, const char *unknown)
{
	return i < n && names[i] ? names[i] : unknown;
}

/**
 * kbin_mr_type_str() - name an mr_type.
 * @mr_type: enum kbin_mr_type.
 *
 * Return: the kind table's name, e.g. "MR_SB"; "MR_UNKNOWN" above
 * KBIN_MR_TYPE_MAX.
 */
const char *kbin_mr_type_str(unsigned int mr_type)
{
	return mr_type <= KBIN_MR_TYPE_MAX ? kbin_kinds[mr_type].name :
	       "MR_UNKNOWN";
}

/* checker codes, then the staging codes from KBIN_ERR_STAGE_HBM */
static const char *const kbin_reasons[KBIN_ERR_STAGE_LAST + 1] = {
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
	[KBIN_ERR_DMA_COUNT] = "DMA counts disagree",
	[KBIN_ERR_DMA_QUEUE] = "bad DMA queue",
	[KBIN_ERR_DMA_SEMAPHORE] = "semaphore not in the queue's set",
	[KBIN_ERR_DMA_QUEUE_INDEX] = "block names another queue",
	[KBIN_ERR_DMA_BLOCK_ORDER] = "DMA block out of order",
	[KBIN_ERR_DMA_VAR] = "DMA side names no variable with device bytes",
	[KBIN_ERR_DMA_DIMS] = "bad access pattern dimensions",
	[KBIN_ERR_DMA_STEP] = "innermost step is not 1",
	[KBIN_ERR_DMA_EXTENT] = "access pattern outside its variable",
	[KBIN_ERR_DMA_SBUF_WINDOW] = "SBUF access outside the window",
	[KBIN_ERR_DMA_SBUF_PARTITION] = "SBUF run past its partition",
	[KBIN_ERR_DMA_SBUF_GAP] = "SBUF access in the gap past a partition",
	[KBIN_ERR_DMA_COPY_SIZE] = "copy byte counts differ",
	[KBIN_ERR_DMA_CAST_SIZE] = "cast elements differ or split",
	[KBIN_ERR_DMA_TRANSPOSE] = "bad transpose",
	[KBIN_ERR_DMA_DTYPE] = "bad DMA dtype",
	[KBIN_ERR_DMA_OP] = "bad DMA op",
	[KBIN_ERR_PROG_COUNT] = "program counts disagree",
	[KBIN_ERR_PROG_MODE] = "unknown wait or update mode",
	[KBIN_ERR_PROG_SEMAPHORE] = "semaphore past the NeuronCore's semaphores",
	[KBIN_ERR_PROG_TRIGGER] = "trigger names no queue of its engine",
	[KBIN_ERR_PROG_TRIGGER_COUNT] = "triggers are not the queue's blocks",
	[KBIN_ERR_PROG_SYNC] = "decoded entry is not its record's",
	[KBIN_ERR_PROG_COMPUTE] = "compute instruction breaks the encoding's rules",
	[KBIN_ERR_DMA_PSUM_WINDOW] = "PSUM access outside the window",
	[KBIN_ERR_DMA_PSUM_PARTITION] = "PSUM run past its partition",
	[KBIN_ERR_STAGE_HBM] = "HBM exhausted",
	[KBIN_ERR_STAGE_BACKING] = "backing memory cap reached",
	[KBIN_ERR_STAGE_SCRATCHPAD] = "scratchpad too large",
	[KBIN_ERR_STAGE_CORES] = "not enough NeuronCores",
	[KBIN_ERR_STAGE_LIMIT] = "module limit reached",
	[KBIN_ERR_STAGE_FAULT] = "injected fault",
	[KBIN_ERR_STAGE_NOMEM] = "out of kernel memory",
	[KBIN_ERR_STAGE_SBUF] = "SBUF placement conflict",
	[KBIN_ERR_RELOC_BOUNDS] = "DMA descriptor outside its variable",
	[KBIN_ERR_RELOC_VAR] = "DMA side on a variable with no device bytes",
};

/**
 * kbin_reason_str() - the text of a checker or staging reason code (load
 *	failure reports of the module, library and commands).
 * @reason: enum kbin_check_reason: a checker code or a KBIN_ERR_STAGE_*.
 *
 * Return: e.g. "checksum mismatch", "HBM exhausted"; "unknown reason" for
 * a value outside the enum.
 */
const char *kbin_reason_str(unsigned int reason)
{
	return kbin_name(kbin_reasons, KBIN_ARRAY_SIZE(kbin_reasons), reason,
			 "unknown reason");
}

static const char *const kbin_field_names[KBIN_FIELD_MAX] = {
	[KBIN_FIELD_NONE] = "none",
	[KBIN_FIELD_MAGIC] = "magic",
	[KBIN_FIELD_VERSION] = "version",
	[KBIN_FIELD_CHECKSUM] = "checksum",
	[KBIN_FIELD_HEADER_SIZE] = "header_size",
	[KBIN_FIELD_TOTAL_SIZE] = "total_size",
	[KBIN_FIELD_FLAGS] = "flags",
	[KBIN_FIELD_TARGET_GEN] = "target_gen",
	[KBIN_FIELD_NUM_SUBGRAPHS] = "num_subgraphs",
	[KBIN_FIELD_SUBGRAPH_TABLE] = "subgraph_table_off",
	[KBIN_FIELD_DATA_AREA] = "data area",
	[KBIN_FIELD_SG_NAME] = "subgraph name",
	[KBIN_FIELD_SET] = "mem_ref set",
	[KBIN_FIELD_CARVEOUT] = "carve-out",
	[KBIN_FIELD_SCRATCHPAD] = "scratchpad size",
	[KBIN_FIELD_NMEM] = "nmem",
	[KBIN_FIELD_MR_TYPE] = "mr_type",
	[KBIN_FIELD_NAME] = "name",
	[KBIN_FIELD_SIZE] = "size",
	[KBIN_FIELD_ALIGNMENT] = "alignment",
	[KBIN_FIELD_VAR_ID] = "var_id",
	[KBIN_FIELD_DTYPE] = "dtype",
	[KBIN_FIELD_SHAPE] = "shape",
	[KBIN_FIELD_DTENSOR_MD] = "dtensor_md",
	[KBIN_FIELD_BUFFER] = "buffer",
	[KBIN_FIELD_UNION] = "union",
	[KBIN_FIELD_PAD] = "padding",
	[KBIN_FIELD_DMA_SECTION] = "dma section",
	[KBIN_FIELD_DMA_QUEUE] = "dma queue",
	[KBIN_FIELD_DMA_BLOCK] = "dma block",
	[KBIN_FIELD_DMA_DESC] = "dma descriptor",
	[KBIN_FIELD_DMA_FROM] = "dma from",
	[KBIN_FIELD_DMA_TO] = "dma to",
	[KBIN_FIELD_PROG_SECTION] = "program section",
	[KBIN_FIELD_PROG_PE] = "pe stream",
	[KBIN_FIELD_PROG_ACT] = "act stream",
	[KBIN_FIELD_PROG_POOL] = "pool stream",
	[KBIN_FIELD_PROG_DVE] = "dve stream",
	[KBIN_FIELD_PROG_SP] = "sp stream",
};

/**
 * kbin_field_str() - name the field of a checker or staging finding.
 * @field: enum kbin_check_field.
 *
 * Return: e.g. "alignment"; "unknown field" outside the enum.
 */
const char *kbin_field_str(unsigned int field)
{
	return kbin_name(kbin_field_names, KBIN_ARRAY_SIZE(kbin_field_names), field,
			 "unknown field");
}

static const char *const kbin_usage_names[KBIN_USAGE_MAX + 1] = {
	[KBIN_USAGE_GENERIC] = "GENERIC",
	[KBIN_USAGE_INSTR_PE] = "INSTR_PE",
	[KBIN_USAGE_INSTR_ACT] = "INSTR_ACT",
	[KBIN_USAGE_INSTR_POOL] = "INSTR_POOL",
	[KBIN_USAGE_IO] = "IO",
	[KBIN_USAGE_DRAM_SPILL] = "DRAM_SPILL",
	[KBIN_USAGE_WEIGHT] = "WEIGHT",
	[KBIN_USAGE_NOTIFICATION] = "NOTIFICATION",
	[KBIN_USAGE_ACT_TABLE] = "ACT_TABLE",
	[KBIN_USAGE_INSTR_DVE] = "INSTR_DVE",
	[KBIN_USAGE_INSTR_SP] = "INSTR_SP",
	[KBIN_USAGE_SCRATCHPAD] = "SCRATCHPAD",
	[KBIN_USAGE_TENSOR] = "TENSOR",
	[KBIN_USAGE_UCODE_LIB] = "UCODE_LIB",
	[KBIN_USAGE_POOL_STDIO] = "POOL_STDIO",
	[KBIN_USAGE_CC] = "CC",
	[KBIN_USAGE_SCRATCHPAD_NOT_SHARED] = "SCRATCHPAD_NOT_SHARED",
	[KBIN_USAGE_XT_CC] = "XT_CC",
	[KBIN_USAGE_DMA_RING] = "DMA_RING",
};

/**
 * kbin_usage_str() - name an HBM usage category (libnrt's
 *	dma_mem_usage_type).
 * @usage: enum kbin_usage.
 *
 * Return: libnrt's name, e.g. "WEIGHT"; "UNKNOWN" for a value without one.
 */
const char *kbin_usage_str(unsigned int usage)
{
	return kbin_name(kbin_usage_names, KBIN_ARRAY_SIZE(kbin_usage_names), usage,
			 "UNKNOWN");
}

static const char *const kbin_mem_category_names[KBIN_MEMCAT_MAX] = {
	[KBIN_MEMCAT_MODEL_CODE] = "model_code",
	[KBIN_MEMCAT_TENSORS] = "tensors",
	[KBIN_MEMCAT_CONSTANTS] = "constants",
	[KBIN_MEMCAT_MODEL_SHARED_SCRATCHPAD] = "model_shared_scratchpad",
	[KBIN_MEMCAT_RUNTIME_MEMORY] = "runtime_memory",
	[KBIN_MEMCAT_DRIVER_MEMORY] = "driver_memory",
	[KBIN_MEMCAT_COLLECTIVES] = "collectives",
	[KBIN_MEMCAT_NONSHARED_SCRATCHPAD] = "nonshared_scratchpad",
	[KBIN_MEMCAT_NOTIFICATIONS] = "notifications",
	[KBIN_MEMCAT_DMA_RINGS] = "dma_rings",
	[KBIN_MEMCAT_UNCATEGORIZED] = "uncategorized",
};

/**
 * kbin_mem_category_str() - name a device-memory category as the Neuron
 *	driver's sysfs does (stats/memory_usage/device_mem/<name>).
 * @category: enum kbin_mem_category.
 *
 * Return: e.g. "constants", "nonshared_scratchpad"; "unknown" outside the
 * enum.
 */
const char *kbin_mem_category_str(unsigned int category)
{
	return kbin_name(kbin_mem_category_names,
			 KBIN_ARRAY_SIZE(kbin_mem_category_names), category,
			 "unknown");
}

static const char *const kbin_mode_names[KBIN_MODE_MAX] = {
	[KBIN_MODE_NONE] = "-",
	[KBIN_MODE_ALLOC_COPY] = "alloc+copy",
	[KBIN_MODE_ALLOC_ONLY] = "alloc only",
	[KBIN_MODE_SBUF] = "sbuf window",
	[KBIN_MODE_SCRATCHPAD] = "scratchpad",
	[KBIN_MODE_POINTER] = "pointer",
	[KBIN_MODE_LIST] = "index list",
	[KBIN_MODE_TABLE] = "ptr table",
	[KBIN_MODE_REMOTE] = "remote",
	[KBIN_MODE_PSUM] = "psum window",
};

/**
 * kbin_stage_mode_str() - name a staging mode.
 * @mode: enum kbin_stage_mode.
 *
 * Return: e.g. "alloc+copy" or "alloc only" (libnrt's "Staged memref" log
 * line); "unknown" outside the enum.
 */
const char *kbin_stage_mode_str(unsigned int mode)
{
	return kbin_name(kbin_mode_names, KBIN_ARRAY_SIZE(kbin_mode_names), mode,
			 "unknown");
}

static const char *const kbin_backing_names[KBIN_BACKING_BUF_MAX + 1] = {
	[KBIN_BACKING_BUF_LOCAL] = "local",
	[KBIN_BACKING_BUF_SHARED] = "shared",
	[KBIN_BACKING_BUF_SHARDED] = "sharded",
	[KBIN_BACKING_BUF_MAIN] = "main",
};

/**
 * kbin_backing_buf_str() - name the scratchpad backing an
 *	MR_VIRTUAL_TMP_BUF.
 * @backing_buf: enum kbin_backing_buf.
 *
 * Return: "local", "shared", "sharded" or "main"; "unknown" outside the
 * enum.
 */
const char *kbin_backing_buf_str(unsigned int backing_buf)
{
	return kbin_name(kbin_backing_names, KBIN_ARRAY_SIZE(kbin_backing_names),
			 backing_buf, "unknown");
}

/**
 * kbin_carveout_type_str() - name an SBUF carve-out type, as def.json
 *	runtime_statebuffer_reservation spells it.
 * @type: KBIN_CARVEOUT_*.
 *
 * Return: "evtaccel"; "unknown" for any other value.
 */
const char *kbin_carveout_type_str(unsigned int type)
{
	return type == KBIN_CARVEOUT_EVTACCEL ? "evtaccel" : "unknown";
}

/* the states of a DMA queue's latest run (NEURONSIM_IOC_RUN, WAIT) */
static const char *const kbin_run_states[] = {
	[NEURONSIM_RUN_IDLE] = "idle",
	[NEURONSIM_RUN_QUEUED] = "queued",
	[NEURONSIM_RUN_RUNNING] = "running",
	[NEURONSIM_RUN_DONE] = "done",
};

/**
 * kbin_run_state_str() - name the state of a DMA queue's run (debugfs
 *	dma/runs, the run command); an engine of a running execution is
 *	"queued" or "running" by the same names (debugfs engines).
 * @state: NEURONSIM_RUN_*.
 *
 * Return: "idle", "queued", "running" or "done"; "?" for any other value.
 */
const char *kbin_run_state_str(unsigned int state)
{
	return kbin_name(kbin_run_states, KBIN_ARRAY_SIZE(kbin_run_states),
			 state, "?");
}

/* the states of an engine at the end of an execution (EXEC_WAIT) */
static const char *const kbin_engine_states[] = {
	[NEURONSIM_ENGINE_IDLE] = "idle",
	[NEURONSIM_ENGINE_DONE] = "done",
	[NEURONSIM_ENGINE_WAITING] = "waiting",
	[NEURONSIM_ENGINE_STOPPED] = "stopped",
};

/**
 * kbin_engine_state_str() - name the state an execution left an engine in
 *	(debugfs engines, the exec command).
 * @state: NEURONSIM_ENGINE_*.
 *
 * Return: "idle", "done", "waiting" or "stopped"; "?" for any other value.
 */
const char *kbin_engine_state_str(unsigned int state)
{
	return kbin_name(kbin_engine_states, KBIN_ARRAY_SIZE(kbin_engine_states),
			 state, "?");
}

/* the reason of every SBUF-gap refusal, the simulator's own rule */
#define KBIN_SBUF_GAP_WHY \
	"the SBUF window holds no SBUF byte there (neuronsim's rule, not libnrt's: hardware has no memory at those addresses; Documentation/hardware.rst)"

/**
 * kbin_sbuf_gap_strerror() - why an access to the SBUF window was refused
 *	for touching the gap past a partition's bytes, as text.  The rule is
 *	the simulator's own, and so are the words, e.g. "'SB' (MR_SB): bytes
 *	[229376, +4) start at byte 229376 of SBUF partition 0, in the gap
 *	past its 229376 bytes: the SBUF window holds no SBUF byte there
 *	(...)".
 * @buf: output, NUL-terminated, truncated to @len bytes.
 * @len: bytes of @buf.
 * @name: the MR_SB variable's name (NUL-terminated), or NULL.
 * @offset: bytes into the window the access starts at.
 * @size: bytes the access covers.
 * @part_size: SBUF bytes per partition, or 0 when the caller does not
 *	know the geometry (the text then names no partition).
 * @stride: bytes from one partition to the next in the window, a power of
 *	two (read when @part_size is not 0).
 *
 * Return: @buf.
 */
char *kbin_sbuf_gap_strerror(char *buf, unsigned long len, const char *name,
			     __u64 offset, __u64 size, __u32 part_size,
			     __u32 stride)
{
	unsigned long long off = offset, sz = size, b, p;

	if (!buf || !len)
		return buf;
	if (!name)
		name = "";
	if (!part_size || !stride) {
		snprintf(buf, len,
			 "'%s' (MR_SB): bytes [%llu, +%llu) touch the gap past an SBUF partition's bytes: "
			 KBIN_SBUF_GAP_WHY, name, off, sz);
		return buf;
	}
	b = off & (stride - 1);
	p = off / stride;
	if (b >= part_size)
		snprintf(buf, len,
			 "'%s' (MR_SB): bytes [%llu, +%llu) start at byte %llu of SBUF partition %llu, in the gap past its %u bytes: "
			 KBIN_SBUF_GAP_WHY, name, off, sz, b, p, part_size);
	else
		snprintf(buf, len,
			 "'%s' (MR_SB): bytes [%llu, +%llu) start at byte %llu of SBUF partition %llu and run past its %u bytes into the gap: "
			 KBIN_SBUF_GAP_WHY, name, off, sz, b, p, part_size);
	return buf;
}

/*
 * libnrt's own texts of the two resolve failures (mem_ref_to_addr;
 * Documentation/uapi.rst, NEURONSIM_IOC_RESOLVE): name, the variable's
 * size, offset, size; and name.
 */
#define KBIN_NRT_INVALID_OFFSET	"invalid offset in %s, %llu < (%llu + %llu)"
#define KBIN_NRT_NOT_STAGED	"Variable %s is not staged in HBM"

/**
 * kbin_resolve_strerror() - why a resolve failed, as text: libnrt's own
 *	message, then ours, e.g. "invalid offset in w, 4096 < (4090 + 16);
 *	the access ends at byte 4106, past the 4096 bytes of 'w' (MR_BUFFER)".
 * @buf: output, NUL-terminated, truncated to @len bytes.
 * @len: bytes of @buf.
 * @err: the resolve rule's errno (nrsim_rc_addr(), Documentation/uapi.rst):
 *	-ERANGE (out of bounds: libnrt's "invalid offset in %s, %lu < (%lu +
 *	%lu)"; an MR_SB access inside the variable was refused for the
 *	partition gap, the simulator's rule: kbin_sbuf_gap_strerror()'s
 *	words, without the geometry), -ENODATA (not staged: libnrt's "Variable %s is not staged in
 *	HBM"), -EINVAL (an MR_PTR with an offset: libnrt asserts, so only our
 *	text); any other value gets a generic text with the number.
 * @name: the variable's name (NUL-terminated).
 * @mr_type: its enum kbin_mr_type.
 * @var_size: its size in bytes.
 * @offset: bytes into the variable the access starts at.
 * @size: bytes the access covers.
 *
 * Return: @buf.
 */
char *kbin_resolve_strerror(char *buf, unsigned long len, int err,
			    const char *name, unsigned int mr_type,
			    __u64 var_size, __u64 offset, __u64 size)
{
	unsigned long long vs = var_size, off = offset, sz = size;
	const char *kind = kbin_mr_type_str(mr_type);

	if (!buf || !len)
		return buf;
	if (!name)
		name = "";
	switch (err) {
	case -ERANGE:
		if (mr_type == KBIN_MR_SB && off + sz >= off && off + sz <= vs)
			/* inside the variable: the gap, not libnrt's bound */
			kbin_sbuf_gap_strerror(buf, len, name, offset, size, 0, 0);
		else if (off + sz < off)
			snprintf(buf, len, KBIN_NRT_INVALID_OFFSET
				 "; offset %llu + size %llu is above 2^64, past the %llu bytes of '%s' (%s)",
				 name, vs, off, sz, off, sz, vs, name, kind);
		else
			snprintf(buf, len, KBIN_NRT_INVALID_OFFSET
				 "; the access ends at byte %llu, past the %llu bytes of '%s' (%s)",
				 name, vs, off, sz, off + sz, vs, name, kind);
		break;
	case -ENODATA:
		snprintf(buf, len, KBIN_NRT_NOT_STAGED
			 "; '%s' (%s) has no device address%s", name, name,
			 kind, mr_type == KBIN_MR_LIST ?
			 ": an index list is kept by the kernel, never staged" :
			 "");
		break;
	case -EINVAL:
		snprintf(buf, len,
			 "'%s' (%s) is its target's address: it resolves at offset 0 only, not at offset %llu",
			 name, kind, off);
		break;
	default:
		snprintf(buf, len, "'%s' (%s): resolve failed (error %d)",
			 name, kind, err);
		break;
	}
	return buf;
}
