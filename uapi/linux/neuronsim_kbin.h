/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * neuronsim_kbin.h - the KBIN static memory plan, on disk and in memory.
 *
 * A KBIN plan is what the compiler library (neuronsim-cc) writes and what
 * the NEURONSIM_IOC_LOAD ioctl reads.  It carries, per subgraph, the
 * 24-byte kbin_mem_ref_set header and the 152-byte kbin_mem_ref records of
 * the Neuron runtime (libnrt) byte-exactly; Documentation/kbin-format.rst
 * gives every offset; kmod/plan/kbin_layout.h pins them with compile-time
 * asserts in both the kernel and the host build.  Where libnrt holds a pointer
 * (name, dtensor_md, buffer, list) the file holds a __u64 byte offset from
 * the start of the file, 0 meaning "none".
 *
 * File layout (all integers little-endian, all offsets in bytes from the
 * start of the file):
 *
 *   0                      struct kbin_header (64 bytes)
 *   64                     struct kbin_header_ext (32 bytes; version 2)
 *   subgraph_table_off     struct kbin_subgraph[num_subgraphs] (152 each)
 *   set_off (per sg)       struct kbin_mem_ref_set (24) + nmem * 152
 *   dma_off                version 2: the DMA section (DMA queues, blocks
 *                          and descriptors of every subgraph), or none
 *   prog_off               version 3: the program section (the five
 *                          engines' instruction streams of every
 *                          subgraph, verbatim and decoded), or none
 *   data_off               data area: names, lists, debug metadata,
 *                          weight payloads; runs to total_size
 *
 * Everything before data_off is the metadata area; the subgraph table,
 * the mem_ref sets, the DMA section and the program section must lie in
 * it, 8-byte aligned, without overlapping each other or the header.
 * Version 1 plans (a 64-byte header, no DMA section) and version 2 plans
 * (no program section) still load.  Everything a record points to must lie in the
 * data area.  Items in the data area may be shared (two records may name
 * the same string) and carry these alignments:
 *   - names: NUL-terminated, 1..KBIN_NAME_MAX bytes including the NUL;
 *   - lists: __u32[length], 4-byte aligned;
 *   - debug tensor metadata: struct kbin_debug_tensor_md, 4-byte aligned;
 *   - payloads: struct kbin_payload_hdr then the bytes; `buffer` points
 *     at the bytes, which are KBIN_PAYLOAD_ALIGN (64) byte aligned.
 *
 * The checker that enforces all of this is kmod/plan/kbin_check.c; its reason
 * codes are enum kbin_check_reason below.
 * Documentation/kbin-format.rst has the field tables and a hex dump.
 */
#ifndef _UAPI_LINUX_NEURONSIM_KBIN_H
#define _UAPI_LINUX_NEURONSIM_KBIN_H

#include <linux/types.h>

/* "KBIN" read as a little-endian __u32 */
#define KBIN_MAGIC		0x4e49424bU
/*
 * the newest version, the one the writer produces for a plan with a
 * program; it writes version 2 for a plan without one.  1 (no DMA
 * section) and 2 (no program section) are still read.
 */
#define KBIN_VERSION		3U
#define KBIN_VERSION_MIN	1U
/* the first version with a program section */
#define KBIN_VERSION_PROG	3U
/* kbin_header.header_size: version 1; versions 2 and 3 add kbin_header_ext */
#define KBIN_HEADER_SIZE_V1	64U
#define KBIN_HEADER_SIZE	96U

/* struct kbin_header.flags: no flag is defined yet; any set bit is refused */
#define KBIN_F_MASK		0ULL

/*
 * Target generations: kbin_header.target_gen.  Every number of a
 * generation is in the generation table (kmod/plan/kbin_gen.h,
 * Documentation/hardware.rst).
 */
#define KBIN_TARGET_TRN1	2U	/* trn1, inf2, "sunda" */
#define KBIN_TARGET_TRN2	3U	/* trn2, "cayman" */
#define KBIN_TARGET_TRN3	4U	/* trn3, "mariana" */

/* Caps the checker enforces (stated maxima) */
#define KBIN_MAX_SUBGRAPHS	64U
#define KBIN_MAX_CARVEOUTS	4U
#define KBIN_NAME_MAX		256U	/* bytes, including the NUL */
#define KBIN_SG_NAME_MAX	32U	/* bytes, including the NUL */
#define KBIN_DTYPE_MAX		16U	/* bytes, including the NUL */
#define KBIN_SHAPE_MAX		8U	/* dimensions */
#define KBIN_MAX_ALIGNMENT	0x40000000ULL	/* bytes */
#define KBIN_MAX_LIST		0x100000U	/* entries */
#define KBIN_PAYLOAD_ALIGN	64U

/* DMA programs (Documentation/kbin-format.rst, "DMA section") */
#define KBIN_DMA_MAX_DIMS	4U	/* access pattern dimensions */
#define KBIN_DMA_TRANSPOSE_DIMS	4U	/* transpose_op letters, transpose_shape */

/*
 * Engine programs (Documentation/kbin-format.rst, "Program section";
 * Documentation/execute.rst): one instruction stream per engine of a
 * subgraph, in enum kbin_dma_engine order (PE, ACT, POOL, DVE, SP).
 */
#define KBIN_PROG_ENGINES	5U	/* streams per subgraph */
#define KBIN_PROG_RECORD_SIZE	64U	/* bytes per instruction record */
/* a subgraph with a program names at most this many DMA queues */
#define KBIN_PROG_MAX_QUEUES	64U
/* bytes of a 0xC1 record's queue name, from byte 12, with the NUL */
#define KBIN_PROG_QNAME_MAX	52U

/* opcodes (record byte 0) the sync layer gives a meaning */
#define KBIN_PROG_OP_WAIT	0xA0U	/* a wait and nothing else */
#define KBIN_PROG_OP_TRIGGER	0xC1U	/* starts a DMA block */
#define KBIN_PROG_OP_DMA	0xD4U	/* a DMA inside the instruction */

/* record byte 4: the wait mode */
#define KBIN_PROG_WAIT_NONE	0U
#define KBIN_PROG_WAIT_GE	5U	/* wait until sem[byte 5] >= u32 at 8 */
/* record byte 6: the update mode */
#define KBIN_PROG_UPDATE_NONE	0U
#define KBIN_PROG_UPDATE_INC	19U	/* on completion sem[byte 7] += 1 */

/* struct kbin_prog_sync.block of an instruction that starts no block */
#define KBIN_PROG_NO_BLOCK	0xffffffffU

/**
 * enum kbin_prog_class - what an instruction does in the sync layer;
 * the cost model charges by engine and class (Documentation/execute.rst).
 * @KBIN_PROG_CLASS_COMPUTE: any other opcode: compute that moves no bytes.
 * @KBIN_PROG_CLASS_WAIT: KBIN_PROG_OP_WAIT, a wait and nothing else.
 * @KBIN_PROG_CLASS_TRIGGER: KBIN_PROG_OP_TRIGGER, starts a DMA block.
 * @KBIN_PROG_CLASS_DMA: KBIN_PROG_OP_DMA: adds to a semaphore; its data
 *	movement is not publicly described and not simulated.
 * @KBIN_PROG_CLASS_MAX: the largest class.
 */
enum kbin_prog_class {
	KBIN_PROG_CLASS_COMPUTE = 0,
	KBIN_PROG_CLASS_WAIT = 1,
	KBIN_PROG_CLASS_TRIGGER = 2,
	KBIN_PROG_CLASS_DMA = 3,
	KBIN_PROG_CLASS_MAX = KBIN_PROG_CLASS_DMA,
};

/**
 * enum kbin_dma_queue_type - a DMA queue's def.json "type".
 * @KBIN_DMA_QUEUE_IN: "in".
 * @KBIN_DMA_QUEUE_DATA: "data".
 * @KBIN_DMA_QUEUE_DYNAMIC: "dynamic" (may carry dynamic_dma).
 * @KBIN_DMA_QUEUE_TYPE_MAX: the largest type.
 */
enum kbin_dma_queue_type {
	KBIN_DMA_QUEUE_IN = 1,
	KBIN_DMA_QUEUE_DATA = 2,
	KBIN_DMA_QUEUE_DYNAMIC = 3,
	KBIN_DMA_QUEUE_TYPE_MAX = KBIN_DMA_QUEUE_DYNAMIC,
};

/**
 * enum kbin_dma_engine - the engine that owns a DMA queue (def.json
 * "owner"; its member is named by the def.json key of the same name).
 * @KBIN_DMA_ENGINE_PE: "pe", PE (the tensor engine).
 * @KBIN_DMA_ENGINE_ACT: "act", ACT (activation).
 * @KBIN_DMA_ENGINE_POOL: "pool", POOL.
 * @KBIN_DMA_ENGINE_DVE: "dve", DVE (vector).
 * @KBIN_DMA_ENGINE_SP: "sp", SP (sync).
 * @KBIN_DMA_ENGINE_MAX: the largest engine.
 */
enum kbin_dma_engine {
	KBIN_DMA_ENGINE_PE = 1,
	KBIN_DMA_ENGINE_ACT = 2,
	KBIN_DMA_ENGINE_POOL = 3,
	KBIN_DMA_ENGINE_DVE = 4,
	KBIN_DMA_ENGINE_SP = 5,
	KBIN_DMA_ENGINE_MAX = KBIN_DMA_ENGINE_SP,
};

/**
 * enum kbin_dma_op - what a descriptor does.
 * @KBIN_DMA_OP_COPY: "copy": the same runs on both sides.
 * @KBIN_DMA_OP_CAST: "cast": element counts equal, run lengths scale with
 *	the dtype sizes.
 * @KBIN_DMA_OP_TRANSPOSE: no "op" but a "transpose_op".
 * @KBIN_DMA_OP_MAX: the largest op.
 */
enum kbin_dma_op {
	KBIN_DMA_OP_COPY = 1,
	KBIN_DMA_OP_CAST = 2,
	KBIN_DMA_OP_TRANSPOSE = 3,
	KBIN_DMA_OP_MAX = KBIN_DMA_OP_TRANSPOSE,
};

/**
 * enum kbin_dma_dtype - the element type of a descriptor side; the
 * sizes are in the DMA table (kmod/plan/kbin_dma.h).
 * @KBIN_DMA_DTYPE_UINT8: "uint8", 1 byte.
 * @KBIN_DMA_DTYPE_INT8: "int8", 1 byte.
 * @KBIN_DMA_DTYPE_UINT16: "uint16", 2 bytes.
 * @KBIN_DMA_DTYPE_INT16: "int16", 2 bytes.
 * @KBIN_DMA_DTYPE_FLOAT16: "float16", 2 bytes.
 * @KBIN_DMA_DTYPE_BFLOAT16: "bfloat16", 2 bytes.
 * @KBIN_DMA_DTYPE_UINT32: "uint32", 4 bytes.
 * @KBIN_DMA_DTYPE_INT32: "int32", 4 bytes.
 * @KBIN_DMA_DTYPE_FLOAT32: "float32", 4 bytes.
 * @KBIN_DMA_DTYPE_UINT64: "uint64", 8 bytes.
 * @KBIN_DMA_DTYPE_INT64: "int64", 8 bytes.
 * @KBIN_DMA_DTYPE_FLOAT64: "float64", 8 bytes.
 * @KBIN_DMA_DTYPE_MAX: the largest dtype.
 */
enum kbin_dma_dtype {
	KBIN_DMA_DTYPE_UINT8 = 1,
	KBIN_DMA_DTYPE_INT8 = 2,
	KBIN_DMA_DTYPE_UINT16 = 3,
	KBIN_DMA_DTYPE_INT16 = 4,
	KBIN_DMA_DTYPE_FLOAT16 = 5,
	KBIN_DMA_DTYPE_BFLOAT16 = 6,
	KBIN_DMA_DTYPE_UINT32 = 7,
	KBIN_DMA_DTYPE_INT32 = 8,
	KBIN_DMA_DTYPE_FLOAT32 = 9,
	KBIN_DMA_DTYPE_UINT64 = 10,
	KBIN_DMA_DTYPE_INT64 = 11,
	KBIN_DMA_DTYPE_FLOAT64 = 12,
	KBIN_DMA_DTYPE_MAX = KBIN_DMA_DTYPE_FLOAT64,
};

/* struct kbin_dma_queue.flags */
#define KBIN_DMA_QF_DYNAMIC	0x1U	/* dynamic_dma: the SB scratch fields */
#define KBIN_DMA_QF_MASK	0x1U

/**
 * enum kbin_mr_type - the mem_ref discriminator.  Values 0..11 are
 * libnrt's kbin_mr_type_t; 12 (KBIN_MR_PSUM) is neuronsim's own, a value
 * libnrt does not define.  What each kind may hold and how it is staged is
 * its row in the kind table (kmod/plan/kbin_kind.h,
 * Documentation/hardware.rst).
 * @KBIN_MR_INVALID: no kind; refused.
 * @KBIN_MR_SB: a state-buffer (SBUF) variable.
 * @KBIN_MR_BUFFER_STAGED: a weight in HBM whose payload the plan must carry.
 * @KBIN_MR_BUFFER: a weight ("file") in HBM, with or without a payload.
 * @KBIN_MR_TMP_BUF: a temporary buffer in HBM.
 * @KBIN_MR_INPUT: an input in HBM.
 * @KBIN_MR_OUTPUT: an output in HBM.
 * @KBIN_MR_PTR: a pointer to another variable of the set.
 * @KBIN_MR_VIRTUAL_TMP_BUF: a temporary buffer at an offset of a scratchpad.
 * @KBIN_MR_LIST: a list of variables of the set.
 * @KBIN_MR_PTR_TABLE: a table of pointers ("dge-table") to variables of the
 *	set.
 * @KBIN_MR_REMOTE: a variable of another subgraph of the plan.
 * @KBIN_MR_PSUM: neuronsim's own: a PSUM variable, the NeuronCore's PSUM
 *	window as KBIN_MR_SB is its SBUF window.
 * @KBIN_MR_TYPE_MAX: the largest mr_type.
 */
enum kbin_mr_type {
	KBIN_MR_INVALID = 0,
	KBIN_MR_SB = 1,
	KBIN_MR_BUFFER_STAGED = 2,
	KBIN_MR_BUFFER = 3,
	KBIN_MR_TMP_BUF = 4,
	KBIN_MR_INPUT = 5,
	KBIN_MR_OUTPUT = 6,
	KBIN_MR_PTR = 7,
	KBIN_MR_VIRTUAL_TMP_BUF = 8,
	KBIN_MR_LIST = 9,
	KBIN_MR_PTR_TABLE = 10,
	KBIN_MR_REMOTE = 11,
	KBIN_MR_PSUM = 12,
	KBIN_MR_TYPE_MAX = KBIN_MR_PSUM,
};

/**
 * enum kbin_backing_buf - which scratchpad backs an MR_VIRTUAL_TMP_BUF
 * (libnrt's kbin_backing_buf_t; Documentation/hardware.rst).
 * @KBIN_BACKING_BUF_LOCAL: the subgraph's own scratchpad
 *	(local_scratchpad_size).
 * @KBIN_BACKING_BUF_SHARED: the load's shared scratchpad
 *	(shared_scratchpad_size).
 * @KBIN_BACKING_BUF_SHARDED: the load's sharded scratchpad.
 * @KBIN_BACKING_BUF_MAIN: the load's main scratchpad.
 * @KBIN_BACKING_BUF_MAX: the largest backing.
 */
enum kbin_backing_buf {
	KBIN_BACKING_BUF_LOCAL = 0,
	KBIN_BACKING_BUF_SHARED = 1,
	KBIN_BACKING_BUF_SHARDED = 2,
	KBIN_BACKING_BUF_MAIN = 3,
	KBIN_BACKING_BUF_MAX = KBIN_BACKING_BUF_MAIN,
};

/* SBUF carve-out types (def.json runtime_statebuffer_reservation.type) */
#define KBIN_CARVEOUT_EVTACCEL	1U

/**
 * struct kbin_header - file header, 64 bytes at offset 0.
 * @magic: KBIN_MAGIC.
 * @version: KBIN_VERSION (3) with a program section, 2 without one;
 *	KBIN_VERSION_MIN (1) is still read.
 * @checksum: CRC-32 (IEEE 802.3, the zlib crc32()) of bytes
 *	[16, total_size) of the file.
 * @header_size: KBIN_HEADER_SIZE (96: this struct and struct
 *	kbin_header_ext) for versions 2 and 3, KBIN_HEADER_SIZE_V1 (64) for 1.
 * @total_size: size of the whole file in bytes.
 * @flags: KBIN_F_*; bits outside KBIN_F_MASK are refused.
 * @target_gen: KBIN_TARGET_*; the device the plan was compiled for.
 * @num_subgraphs: 1..KBIN_MAX_SUBGRAPHS.
 * @subgraph_table_off: offset of struct kbin_subgraph[num_subgraphs].
 * @data_off: start of the data area.
 * @data_size: size of the data area; data_off + data_size == total_size.
 */
struct kbin_header {
	__u32 magic;
	__u32 version;
	__u32 checksum;
	__u32 header_size;
	__u64 total_size;
	__u64 flags;
	__u32 target_gen;
	__u32 num_subgraphs;
	__u64 subgraph_table_off;
	__u64 data_off;
	__u64 data_size;
};

/**
 * struct kbin_header_ext - version 2 and 3 header fields, 32 bytes at
 * offset 64 (kbin_header.header_size is 96).
 * @dma_off: offset of the DMA section (struct kbin_dma_section), 8-byte
 *	aligned in the metadata area; 0 when the plan has no DMA programs.
 * @dma_size: bytes of the DMA section; 0 when @dma_off is 0.
 * @prog_off: version 3: offset of the program section (struct
 *	kbin_prog_section), 8-byte aligned in the metadata area; 0 when the
 *	plan has no program.  Version 2: must be zero.
 * @prog_size: version 3: bytes of the program section; 0 when @prog_off
 *	is 0.  Version 2: must be zero.
 */
struct kbin_header_ext {
	__u64 dma_off;
	__u64 dma_size;
	__u64 prog_off;
	__u64 prog_size;
};

/**
 * struct kbin_dma_sg - one subgraph's part of the DMA section, 24 bytes:
 * index ranges into the section's queue, block and descriptor tables.
 * Subgraph i's ranges start where subgraph i - 1's end.
 * @first_queue: index of its first queue.
 * @num_queues: number of its queues.
 * @first_block: index of its first block.
 * @num_blocks: number of its blocks.
 * @first_desc: index of its first descriptor.
 * @num_descs: number of its descriptors.
 */
struct kbin_dma_sg {
	__u32 first_queue;
	__u32 num_queues;
	__u32 first_block;
	__u32 num_blocks;
	__u32 first_desc;
	__u32 num_descs;
};

/**
 * struct kbin_dma_section - the DMA section header, 16 bytes, followed by
 * struct kbin_dma_sg[num_subgraphs], struct kbin_dma_queue[@num_queues],
 * struct kbin_dma_block[@num_blocks] and struct kbin_dma_desc[@num_descs],
 * back to back; dma_size is exactly that many bytes.
 * @num_queues: DMA queues of all subgraphs.
 * @num_blocks: blocks of all subgraphs.
 * @num_descs: descriptors of all subgraphs.
 * @reserved: must be zero.
 * @sg: one entry per subgraph table entry.
 */
struct kbin_dma_section {
	__u32 num_queues;
	__u32 num_blocks;
	__u32 num_descs;
	__u32 reserved;
	struct kbin_dma_sg sg[];
};

/**
 * struct kbin_dma_queue - one DMA queue of a subgraph (def.json
 * dma_queue), 64 bytes.  Its blocks are a range of the block table.
 * @name: file offset of its NUL-terminated name ("qSPIO0"), in the data
 *	area, with the rules of a record's name.
 * @fabric_path: file offset of the fabric path ("main"), or 0.
 * @semaphores: file offset of __u32[@num_semaphores], the semaphore
 *	set, 4-byte aligned in the data area; 0 when @num_semaphores is 0.
 * @num_semaphores: 0..KBIN_MAX_LIST.
 * @type: enum kbin_dma_queue_type.
 * @owner: enum kbin_dma_engine.
 * @num_queues: def.json num_queues (the queue's hardware rings).
 * @first_block: index of its first block in the block table.
 * @num_blocks: its blocks; their ids are 0 .. @num_blocks - 1 in order.
 * @flags: KBIN_DMA_QF_*; KBIN_DMA_QF_DYNAMIC only on a dynamic queue.
 * @sb_scratch_offset: dynamic_dma SB_scratch_partition_offset, bytes into
 *	each SBUF partition; with @sb_scratch_size inside the partition.
 * @sb_scratch_size: dynamic_dma SB_scratch_partition_size.  Both are
 *	zero without KBIN_DMA_QF_DYNAMIC.
 * @reserved: must be zero.
 */
struct kbin_dma_queue {
	__u64 name;
	__u64 fabric_path;
	__u64 semaphores;
	__u32 num_semaphores;
	__u32 type;
	__u32 owner;
	__u32 num_queues;
	__u32 first_block;
	__u32 num_blocks;
	__u32 flags;
	__u32 sb_scratch_offset;
	__u32 sb_scratch_size;
	__u32 reserved;
};

/**
 * struct kbin_dma_block - one DMA block, 32 bytes; a block is named by
 * (subgraph, queue, id).  Its descriptors are a range of the descriptor
 * table.
 * @comment: file offset of the def.json "#comment" text, or 0.
 * @queue: index of its queue among the subgraph's queues.
 * @id: its position in the queue, 0 .. num_blocks - 1.
 * @semaphore: the block's semaphore, a member of the queue's set.
 * @sem_index: index of @semaphore in the queue's semaphore set.
 * @first_desc: index of its first descriptor in the descriptor table.
 * @num_descs: its descriptors.
 */
struct kbin_dma_block {
	__u64 comment;
	__u32 queue;
	__u32 id;
	__u32 semaphore;
	__u32 sem_index;
	__u32 first_desc;
	__u32 num_descs;
};

/**
 * struct kbin_dma_side - one side of a descriptor, an access pattern on a
 * variable, 64 bytes.  Run k of the pattern starts at byte @offset +
 * sum_{i >= 1} idx_i * @steps[i] of the variable for every index tuple
 * (idx_1 .. idx_{n-1}) with idx_i < @sizes[i], and is @sizes[0] bytes
 * long; @steps[0] is 1.  The bytes touched end at the extent @offset +
 * sum_i (@sizes[i] - 1) * @steps[i] + 1, which is within the variable.
 * @offset: bytes into the variable.
 * @steps: byte strides, the first @num_dims used, the rest zero.
 * @sizes: dimension sizes (>= 1), the first @num_dims used, the rest zero.
 * @var_id: the variable (a var_id of the subgraph, never an address).
 * @dtype: enum kbin_dma_dtype.
 * @num_dims: 1..KBIN_DMA_MAX_DIMS.
 * @pad: must be zero.
 */
struct kbin_dma_side {
	__u64 offset;
	__u64 steps[KBIN_DMA_MAX_DIMS];
	__u32 sizes[KBIN_DMA_MAX_DIMS];
	__u32 var_id;
	__u8 dtype;
	__u8 num_dims;
	__u8 pad[2];
};

/**
 * struct kbin_dma_desc - one DMA descriptor, 152 bytes.
 * @from: the side read (M2S).
 * @to: the side written (S2M).
 * @op: enum kbin_dma_op.
 * @num_tiling_dims: def.json num_tiling_dimensions, 0 when absent;
 *	at most KBIN_DMA_MAX_DIMS.
 * @transpose_elem_size: KBIN_DMA_OP_TRANSPOSE: bytes per element, the
 *	dtype's size; else 0.
 * @pad: must be zero.
 * @transpose_op: KBIN_DMA_OP_TRANSPOSE: the permutation, the letters W,
 *	X, Y, Z once each ("WZXY"); else zero.
 * @transpose_shape: KBIN_DMA_OP_TRANSPOSE: def.json transpose_shape;
 *	else zero.
 */
struct kbin_dma_desc {
	struct kbin_dma_side from;
	struct kbin_dma_side to;
	__u8 op;
	__u8 num_tiling_dims;
	__u8 transpose_elem_size;
	__u8 pad;
	char transpose_op[KBIN_DMA_TRANSPOSE_DIMS];
	__u32 transpose_shape[KBIN_DMA_TRANSPOSE_DIMS];
};

/**
 * struct kbin_prog_stream - one engine's instruction stream in a
 * subgraph, 8 bytes: a range of the program section's sync and record
 * tables.  Stream i's range starts where stream i - 1's ends (engines in
 * enum kbin_dma_engine order, subgraph after subgraph).
 * @first: index of its first instruction in the tables.
 * @num: its instructions; 0 for an engine without one.
 */
struct kbin_prog_stream {
	__u32 first;
	__u32 num;
};

/**
 * struct kbin_prog_sg - one subgraph's part of the program section, 40
 * bytes.
 * @engine: its streams, @engine[e - 1] for enum kbin_dma_engine e.
 */
struct kbin_prog_sg {
	struct kbin_prog_stream engine[KBIN_PROG_ENGINES];
};

/**
 * struct kbin_prog_section - the program section header, 16 bytes,
 * followed by struct kbin_prog_sg[num_subgraphs], struct
 * kbin_prog_sync[@num_instrs] and @num_instrs records of
 * KBIN_PROG_RECORD_SIZE bytes, back to back; prog_size is exactly that
 * many bytes.
 * @num_instrs: instructions of all streams of all subgraphs.
 * @flags: KBIN_PROG_F_*; bits outside KBIN_PROG_F_MASK are refused.
 * @reserved: must be zero.
 * @sg: one entry per subgraph table entry.
 */
struct kbin_prog_section {
	__u32 num_instrs;
	__u32 flags;
	__u32 reserved[2];
	struct kbin_prog_sg sg[];
};

/*
 * struct kbin_prog_section.flags.  KBIN_PROG_F_COMPUTE: the compute
 * instructions are neuronsim's own encoding (struct kbin_compute_record,
 * opcodes KBIN_COP_*; Documentation/compute.rst), written by the BIR
 * lowering: the checker checks them and the engines execute them.
 * Without it compute payloads are opaque (a real NEFF's) and the
 * engines only count them.
 */
#define KBIN_PROG_F_COMPUTE	0x1U
#define KBIN_PROG_F_MASK	KBIN_PROG_F_COMPUTE

/**
 * enum kbin_cop - the opcodes (record byte 0) of neuronsim's compute
 * encoding, valid in a program with KBIN_PROG_F_COMPUTE; the engines
 * that may run each are kbin_compute_engines()' (kmod/plan/kbin_compute.h).
 * @KBIN_COP_MEMSET: out = the float32 value.
 * @KBIN_COP_COPY: out = in0 (a cast when the dtypes differ).
 * @KBIN_COP_ACTIVATE: out = func(in0 * scale), enum kbin_act_func.
 * @KBIN_COP_TENSOR_TENSOR: out = in0 OP in1, element by element.
 * @KBIN_COP_TENSOR_SCALAR: out = in0 OP s, s the float32 value
 *	(KBIN_COMPUTE_F_IMM) or in1's one element of the same partition.
 * @KBIN_COP_REDUCE: out[p] = in0[p][0] OP in0[p][1] OP ... (left to right).
 * @KBIN_COP_MATMULT: out[m][n] (+)= sum over k of in0[k][m] * in1[k][n];
 *	out in PSUM.
 * @KBIN_COP_TRANSPOSE: out[f][p] = in0[p][f]; out in PSUM.
 * @KBIN_COP_REG_LOAD: register func of the engine = in0's one element, as
 *	a float32.
 * @KBIN_COP_REG_TEST: register func = (register reg.src CMP value) ?
 *	1.0 : 0.0, enum kbin_cmp reg.cmp.
 * @KBIN_COP_FIRST: the first opcode of the encoding.
 * @KBIN_COP_LAST: the last.
 */
enum kbin_cop {
	KBIN_COP_MEMSET = 0xE0,
	KBIN_COP_COPY = 0xE1,
	KBIN_COP_ACTIVATE = 0xE2,
	KBIN_COP_TENSOR_TENSOR = 0xE3,
	KBIN_COP_TENSOR_SCALAR = 0xE4,
	KBIN_COP_REDUCE = 0xE5,
	KBIN_COP_MATMULT = 0xE6,
	KBIN_COP_TRANSPOSE = 0xE7,
	KBIN_COP_REG_LOAD = 0xE8,
	KBIN_COP_REG_TEST = 0xE9,
	KBIN_COP_FIRST = KBIN_COP_MEMSET,
	KBIN_COP_LAST = KBIN_COP_REG_TEST,
};

/* struct kbin_compute_ap.space: which on-chip memory of the NeuronCore */
#define KBIN_SPACE_NONE		0U	/* the operand is unused */
#define KBIN_SPACE_SBUF		1U
#define KBIN_SPACE_PSUM		2U

/**
 * struct kbin_compute_ap - one operand of a compute instruction, 16
 * bytes: a block of partitions of the NeuronCore's SBUF or PSUM, and in
 * each the same two-dimensional pattern of elements.  Element (i, j) of
 * partition @partition + p is at byte @offset + (i * @step[0] + j *
 * @step[1]) * the dtype's size of that partition; the elements of an
 * operand are taken partition by partition, i outer, j inner.
 * @offset: bytes into each partition.
 * @space: KBIN_SPACE_*.
 * @dtype: enum kbin_dma_dtype of the elements in memory; the engines
 *	compute in float32 and cast on the way in and out.
 * @partition: the first partition.
 * @partitions: how many, 1 .. the space's partitions.
 * @step: elements between consecutive i (@step[0]) and j (@step[1]).
 * @num: how many i (@num[0]) and j (@num[1]), each at least 1.
 */
struct kbin_compute_ap {
	__u32 offset;
	__u8 space;
	__u8 dtype;
	__u8 partition;
	__u8 partitions;
	__s16 step[2];
	__u16 num[2];
};

/* struct kbin_compute_record.flags */
#define KBIN_COMPUTE_F_ACCUMULATE 0x1U	/* MATMULT: add to out, not set it */
#define KBIN_COMPUTE_F_IMM	0x2U	/* TENSOR_SCALAR: s is @value */
#define KBIN_COMPUTE_F_DYN	0x4U	/* COPY: @dyn moves an operand */
#define KBIN_COMPUTE_F_MASK	0x7U

/* registers of each engine's sequencer, float32 each, +0 at the start */
#define KBIN_COMPUTE_REGS	16U

/*
 * struct kbin_compute_record.pred: 0, the instruction always runs; or
 * one of these | a register: it runs only while the register's float32
 * is non-zero (IF) or zero (UNLESS).  Either way it waits and updates its
 * semaphore (Documentation/compute.rst, "Registers and predicates").
 */
#define KBIN_COMPUTE_PRED_IF	0x40U
#define KBIN_COMPUTE_PRED_UNLESS 0x80U
#define KBIN_COMPUTE_PRED_REG	0x0fU

/**
 * struct kbin_compute_regop - the operands of KBIN_COP_REG_TEST in the
 *	place of @out, 16 bytes.
 * @src: the register compared, below KBIN_COMPUTE_REGS.
 * @cmp: enum kbin_cmp.
 * @zero: must be zero.
 */
struct kbin_compute_regop {
	__u8 src;
	__u8 cmp;
	__u8 zero[14];
};

/* struct kbin_compute_dyn.side */
#define KBIN_DYN_IN0		1U
#define KBIN_DYN_OUT		2U

/**
 * struct kbin_compute_dyn - the run-time offset of a KBIN_COP_COPY with
 *	KBIN_COMPUTE_F_DYN, in @in1's place, 16 bytes: the operand @side
 *	starts v * @step bytes further, v the register @reg truncated to an
 *	integer, which must lie in [@lo, @hi) (else the instruction fails
 *	with -ERANGE; Documentation/compute.rst).
 * @reg: the register, below KBIN_COMPUTE_REGS.
 * @side: KBIN_DYN_IN0 or KBIN_DYN_OUT.
 * @zero: must be zero.
 * @step: bytes per unit of v.
 * @lo: the smallest v allowed.
 * @hi: one past the largest; @lo < @hi.
 */
struct kbin_compute_dyn {
	__u8 reg;
	__u8 side;
	__u16 zero;
	__s32 step;
	__s32 lo;
	__s32 hi;
};

/**
 * struct kbin_compute_record - a compute instruction of neuronsim's
 * encoding, KBIN_PROG_RECORD_SIZE (64) bytes: the sync header of every
 * record, then the operation (Documentation/compute.rst).
 * @opcode: enum kbin_cop.
 * @words: 16, the record's length in 32-bit words.
 * @zero: must be zero.
 * @wait_mode: the sync header (Documentation/execute.rst, "The record").
 * @wait_sem: see @wait_mode.
 * @update_mode: see @wait_mode.
 * @update_sem: see @wait_mode.
 * @wait_value: see @wait_mode; little-endian.
 * @func: KBIN_COP_ACTIVATE: enum kbin_act_func; KBIN_COP_TENSOR_TENSOR,
 *	_TENSOR_SCALAR and _REDUCE: enum kbin_alu_op; KBIN_COP_REG_LOAD
 *	and _REG_TEST: the register written; else 0.
 * @flags: KBIN_COMPUTE_F_*.
 * @pred: 0 or KBIN_COMPUTE_PRED_IF / _UNLESS | a register.
 * @pad: must be zero.
 * @out: where the result goes.
 * @reg: KBIN_COP_REG_TEST: in @out's place, what it compares.
 * @in0: the first operand; KBIN_SPACE_NONE for MEMSET and REG_TEST.
 * @in1: the second operand (TENSOR_TENSOR, MATMULT, TENSOR_SCALAR
 *	without KBIN_COMPUTE_F_IMM), else all zero but for @value or @dyn.
 * @value: in @in1's place, a float32's bits: KBIN_COP_MEMSET the value,
 *	_ACTIVATE the scale, _TENSOR_SCALAR with KBIN_COMPUTE_F_IMM the
 *	scalar, _REG_TEST the value compared with; the other 12 bytes are
 *	zero.
 * @dyn: in @in1's place, KBIN_COP_COPY with KBIN_COMPUTE_F_DYN: the
 *	run-time offset.
 */
struct kbin_compute_record {
	__u8 opcode;
	__u8 words;
	__u16 zero;
	__u8 wait_mode;
	__u8 wait_sem;
	__u8 update_mode;
	__u8 update_sem;
	__u32 wait_value;
	__u8 func;
	__u8 flags;
	__u8 pred;
	__u8 pad;
	union {
		struct kbin_compute_ap out;
		struct kbin_compute_regop reg;
	};
	struct kbin_compute_ap in0;
	union {
		struct kbin_compute_ap in1;
		__u32 value;
		struct kbin_compute_dyn dyn;
	};
};

/**
 * struct kbin_prog_sync - the sync layer of one instruction, decoded from
 * its 64-byte record by kbin_prog_decode() (kmod/plan/kbin_prog.h), 16
 * bytes; the checker decodes every record again and refuses an entry
 * that differs (Documentation/kbin-format.rst, "Program section").
 * @opcode: record byte 0.
 * @cls: enum kbin_prog_class of @opcode.
 * @wait_mode: record byte 4, KBIN_PROG_WAIT_NONE or KBIN_PROG_WAIT_GE.
 * @wait_sem: record byte 5, the semaphore waited on.
 * @update_mode: record byte 6, KBIN_PROG_UPDATE_NONE or
 *	KBIN_PROG_UPDATE_INC.
 * @update_sem: record byte 7, the semaphore updated on completion.
 * @add_sem: KBIN_PROG_CLASS_DMA: record byte 13, the semaphore it adds
 *	to; else 0.
 * @add_value: KBIN_PROG_CLASS_DMA: record byte 14, what it adds; else 0.
 * @wait_value: record bytes 8..11 (little-endian), the value waited for.
 * @block: KBIN_PROG_CLASS_TRIGGER: the block it starts, an index among
 *	the subgraph's DMA blocks (kbin_dma_sg.first_block + @block in the
 *	block table): block n of the queue its record names, for its n-th
 *	trigger of that queue; else KBIN_PROG_NO_BLOCK.
 */
struct kbin_prog_sync {
	__u8 opcode;
	__u8 cls;
	__u8 wait_mode;
	__u8 wait_sem;
	__u8 update_mode;
	__u8 update_sem;
	__u8 add_sem;
	__u8 add_value;
	__u32 wait_value;
	__u32 block;
};

/**
 * struct kbin_sb_carveout - an SBUF region the runtime reserves and never
 * hands out (from def.json runtime_statebuffer_reservation, the
 * compiler's EvalAccelReservedLoc; Documentation/kbin-format.rst).
 * 24 bytes.
 * @type: KBIN_CARVEOUT_EVTACCEL.
 * @offset: byte offset inside each partition.
 * @size: bytes per partition; offset + size <= the target's partition
 *	size.
 * @start_partition: first partition.
 * @num_partitions: start_partition + num_partitions <= the target's
 *	partition count (128 on every generation).
 * @reserved: must be zero.
 */
struct kbin_sb_carveout {
	__u32 type;
	__u32 offset;
	__u32 size;
	__u32 start_partition;
	__u32 num_partitions;
	__u32 reserved;
};

/**
 * struct kbin_subgraph - one subgraph table entry, 152 bytes.
 * @name: NUL-terminated ("sg00"), 1..KBIN_SG_NAME_MAX bytes with the NUL.
 * @set_off: offset of its struct kbin_mem_ref_set.
 * @set_size: bytes of the set: 24 + nmem * 152.
 * @num_carveouts: 0..KBIN_MAX_CARVEOUTS.
 * @reserved: must be zero.
 * @carveouts: the first @num_carveouts are used; the rest must be zero.
 */
struct kbin_subgraph {
	char name[KBIN_SG_NAME_MAX];
	__u64 set_off;
	__u64 set_size;
	__u32 num_carveouts;
	__u32 reserved;
	struct kbin_sb_carveout carveouts[KBIN_MAX_CARVEOUTS];
};

/**
 * struct kbin_debug_tensor_md - device-print metadata, 516 bytes
 * (libnrt's kbin_debug_tensor_md_t).
 * @prefix_str: NUL-terminated within 512 bytes.
 * @pipe_id: pipe id.
 */
struct kbin_debug_tensor_md {
	char prefix_str[512];
	__u32 pipe_id;
};

/**
 * struct kbin_payload_hdr - 16 bytes placed just before each weight
 * payload in the data area.  A record's @buffer points at the bytes, i.e.
 * at this header + 16.
 * @length: payload bytes; must equal the record's size.
 * @reserved: must be zero.
 */
struct kbin_payload_hdr {
	__u64 length;
	__u64 reserved;
};

/**
 * struct kbin_mem_ref - libnrt's 152-byte record
 * (Documentation/kbin-format.rst).  Offsets are fixed; the static asserts
 * of kmod/plan/kbin_layout.h pin them.
 * @mr_type: enum kbin_mr_type.
 * @pad0: must be zero.
 * @name: file offset of the variable's NUL-terminated name.
 * @size: bytes.
 * @alignment: bytes; a power of two, 1..KBIN_MAX_ALIGNMENT.
 * @var_id: the variable's id; records of a set are in var_id order and
 *	the ids are dense: record i has var_id i (libnrt: "Unexpected
 *	var_ids set!").
 * @dtype: NUL-terminated within 16 bytes; bytes after the NUL are zero.
 * @pad1: must be zero.
 * @shape: dimensions; the unused ones are zero and no non-zero dimension
 *	follows a zero one.
 * @dtensor_md: file offset of a struct kbin_debug_tensor_md, or 0.
 * @buffer: file offset of the weight payload (@size bytes), or 0.
 * @pointer: MR_PTR: @referenced_var_id, @io_ref (0 or 1).
 * @virt: MR_VIRTUAL_TMP_BUF: @offset into the scratchpad named by
 *	@backing_buf (enum kbin_backing_buf).
 * @list: MR_LIST, MR_PTR_TABLE: @length entries of __u32 var_id at
 *	file offset @list.
 * @remote: MR_REMOTE: var @remote_var_id of subgraph
 *	@remote_vtpb_rel_sg_id (an index into this plan's subgraph table).
 * @raw: the union's 16 bytes, whatever the kind.
 *
 * Union bytes a kind does not use must be zero.
 */
struct kbin_mem_ref {
	__u32 mr_type;
	__u32 pad0;
	__u64 name;
	__u64 size;
	__u64 alignment;
	__u32 var_id;
	char dtype[KBIN_DTYPE_MAX];
	__u32 pad1;
	__u64 shape[KBIN_SHAPE_MAX];
	__u64 dtensor_md;
	__u64 buffer;
	union {
		struct {
			__u32 referenced_var_id;
			__u8 io_ref;
			__u8 pad[11];
		} pointer;
		struct {
			__u64 offset;
			__u32 backing_buf;
			__u32 pad;
		} virt;
		struct {
			__u32 length;
			__u32 pad;
			__u64 list;
		} list;
		struct {
			__u32 remote_vtpb_rel_sg_id;
			__u32 remote_var_id;
			__u64 pad;
		} remote;
		__u8 raw[16];
	};
};

/**
 * struct kbin_mem_ref_set - libnrt's 24-byte plan header
 * (kbin_mem_ref_set_t), followed by @nmem records at stride 152.
 * @local_scratchpad_size: bytes of private scratchpad (backing LOCAL).
 * @shared_scratchpad_size: bytes of shared scratchpad (SHARED, SHARDED,
 *	MAIN).
 * @nmem: number of records.
 * @pad: must be zero.
 * @mem: the records.
 */
struct kbin_mem_ref_set {
	__u64 local_scratchpad_size;
	__u64 shared_scratchpad_size;
	__u32 nmem;
	__u32 pad;
	struct kbin_mem_ref mem[];
};

/**
 * enum kbin_check_field - which field a checker finding is about.
 * @KBIN_FIELD_NONE: no field.
 * @KBIN_FIELD_MAGIC: struct kbin_header.magic.
 * @KBIN_FIELD_VERSION: struct kbin_header.version.
 * @KBIN_FIELD_CHECKSUM: struct kbin_header.checksum.
 * @KBIN_FIELD_HEADER_SIZE: struct kbin_header.header_size.
 * @KBIN_FIELD_TOTAL_SIZE: struct kbin_header.total_size.
 * @KBIN_FIELD_FLAGS: struct kbin_header.flags.
 * @KBIN_FIELD_TARGET_GEN: struct kbin_header.target_gen.
 * @KBIN_FIELD_NUM_SUBGRAPHS: struct kbin_header.num_subgraphs.
 * @KBIN_FIELD_SUBGRAPH_TABLE: struct kbin_header.subgraph_table_off and the
 *	table there.
 * @KBIN_FIELD_DATA_AREA: the data area (data_off, data_size).
 * @KBIN_FIELD_SG_NAME: struct kbin_subgraph.name.
 * @KBIN_FIELD_SET: a subgraph's mem_ref set (set_off, set_size).
 * @KBIN_FIELD_CARVEOUT: a struct kbin_sb_carveout or num_carveouts.
 * @KBIN_FIELD_SCRATCHPAD: a scratchpad size of the set.
 * @KBIN_FIELD_NMEM: struct kbin_mem_ref_set.nmem.
 * @KBIN_FIELD_MR_TYPE: struct kbin_mem_ref.mr_type.
 * @KBIN_FIELD_NAME: struct kbin_mem_ref.name.
 * @KBIN_FIELD_SIZE: struct kbin_mem_ref.size.
 * @KBIN_FIELD_ALIGNMENT: struct kbin_mem_ref.alignment.
 * @KBIN_FIELD_VAR_ID: struct kbin_mem_ref.var_id.
 * @KBIN_FIELD_DTYPE: struct kbin_mem_ref.dtype.
 * @KBIN_FIELD_SHAPE: struct kbin_mem_ref.shape.
 * @KBIN_FIELD_DTENSOR_MD: struct kbin_mem_ref.dtensor_md.
 * @KBIN_FIELD_BUFFER: struct kbin_mem_ref.buffer and its payload.
 * @KBIN_FIELD_UNION: the union of struct kbin_mem_ref (the kind's variant).
 * @KBIN_FIELD_PAD: a padding or reserved field.
 * @KBIN_FIELD_DMA_SECTION: the DMA section or its counts.
 * @KBIN_FIELD_DMA_QUEUE: a DMA queue record.
 * @KBIN_FIELD_DMA_BLOCK: a DMA block record.
 * @KBIN_FIELD_DMA_DESC: a descriptor, not one side.
 * @KBIN_FIELD_DMA_FROM: a descriptor's from side.
 * @KBIN_FIELD_DMA_TO: a descriptor's to side.
 * @KBIN_FIELD_PROG_SECTION: the program section or its counts.
 * @KBIN_FIELD_PROG_PE: an instruction of the PE stream.
 * @KBIN_FIELD_PROG_ACT: an instruction of the ACT stream.
 * @KBIN_FIELD_PROG_POOL: an instruction of the POOL stream.
 * @KBIN_FIELD_PROG_DVE: an instruction of the DVE stream.
 * @KBIN_FIELD_PROG_SP: an instruction of the SP stream.
 * @KBIN_FIELD_MAX: the number of fields.
 */
enum kbin_check_field {
	KBIN_FIELD_NONE = 0,
	KBIN_FIELD_MAGIC,
	KBIN_FIELD_VERSION,
	KBIN_FIELD_CHECKSUM,
	KBIN_FIELD_HEADER_SIZE,
	KBIN_FIELD_TOTAL_SIZE,
	KBIN_FIELD_FLAGS,
	KBIN_FIELD_TARGET_GEN,
	KBIN_FIELD_NUM_SUBGRAPHS,
	KBIN_FIELD_SUBGRAPH_TABLE,
	KBIN_FIELD_DATA_AREA,
	KBIN_FIELD_SG_NAME,
	KBIN_FIELD_SET,
	KBIN_FIELD_CARVEOUT,
	KBIN_FIELD_SCRATCHPAD,
	KBIN_FIELD_NMEM,
	KBIN_FIELD_MR_TYPE,
	KBIN_FIELD_NAME,
	KBIN_FIELD_SIZE,
	KBIN_FIELD_ALIGNMENT,
	KBIN_FIELD_VAR_ID,
	KBIN_FIELD_DTYPE,
	KBIN_FIELD_SHAPE,
	KBIN_FIELD_DTENSOR_MD,
	KBIN_FIELD_BUFFER,
	KBIN_FIELD_UNION,
	KBIN_FIELD_PAD,
	KBIN_FIELD_DMA_SECTION,
	KBIN_FIELD_DMA_QUEUE,
	KBIN_FIELD_DMA_BLOCK,
	KBIN_FIELD_DMA_DESC,
	KBIN_FIELD_DMA_FROM,
	KBIN_FIELD_DMA_TO,
	KBIN_FIELD_PROG_SECTION,
	KBIN_FIELD_PROG_PE,
	KBIN_FIELD_PROG_ACT,
	KBIN_FIELD_PROG_POOL,
	KBIN_FIELD_PROG_DVE,
	KBIN_FIELD_PROG_SP,
	KBIN_FIELD_MAX,
};

/**
 * enum kbin_check_reason - the checker's reason codes.  0 is "valid".
 * The loader (NEURONSIM_IOC_LOAD) reports these in
 * struct neuronsim_load.err_reason; staging failures use the
 * KBIN_ERR_STAGE_* codes at the end.
 * @KBIN_OK: valid.
 * @KBIN_ERR_TRUNCATED: buffer shorter than the header.
 * @KBIN_ERR_MAGIC: magic is not KBIN_MAGIC.
 * @KBIN_ERR_VERSION: version outside KBIN_VERSION_MIN..KBIN_VERSION.
 * @KBIN_ERR_HEADER_SIZE: header_size is not its version's.
 * @KBIN_ERR_TOTAL_SIZE: total_size != buffer length.
 * @KBIN_ERR_FLAGS: unknown flag bits.
 * @KBIN_ERR_TARGET: unknown target generation.
 * @KBIN_ERR_CHECKSUM: checksum mismatch.
 * @KBIN_ERR_NUM_SUBGRAPHS: 0 or > KBIN_MAX_SUBGRAPHS.
 * @KBIN_ERR_BOUNDS: offset/length outside its area, or overflow.
 * @KBIN_ERR_OVERLAP: metadata areas overlap.
 * @KBIN_ERR_MISALIGNED: offset not at its stated alignment.
 * @KBIN_ERR_SG_NAME: subgraph name empty/unterminated.
 * @KBIN_ERR_SET_SIZE: set_size != 24 + nmem * 152.
 * @KBIN_ERR_CARVEOUT: carve-out outside the SBUF geometry/bad type.
 * @KBIN_ERR_RESERVED: a reserved or padding field is not zero.
 * @KBIN_ERR_MR_TYPE: 0 or > MR_PSUM.
 * @KBIN_ERR_NAME: missing, empty, unterminated or too long.
 * @KBIN_ERR_SIZE: size 0 where required, or out of range.
 * @KBIN_ERR_ALIGNMENT: 0, not a power of two, or too large.
 * @KBIN_ERR_VAR_ID_ORDER: record i does not have var_id i.
 * @KBIN_ERR_VAR_ID_DUP: var_id equal to the previous record's.
 * @KBIN_ERR_DTYPE: not NUL-terminated within 16 bytes.
 * @KBIN_ERR_SHAPE: non-zero dimension after a zero one.
 * @KBIN_ERR_DTENSOR_MD: debug metadata bad.
 * @KBIN_ERR_PAYLOAD_KIND: payload on a kind that takes none.
 * @KBIN_ERR_PAYLOAD_LENGTH: payload length != size.
 * @KBIN_ERR_LIST_KIND: list on a kind that takes none.
 * @KBIN_ERR_LIST_LENGTH: list empty or > KBIN_MAX_LIST.
 * @KBIN_ERR_LIST_ENTRY: list entry names a missing/unsuitable var.
 * @KBIN_ERR_PTR_SELF: MR_PTR names itself.
 * @KBIN_ERR_PTR_TARGET: MR_PTR names a missing/unsuitable var.
 * @KBIN_ERR_REMOTE_SG: remote_vtpb_rel_sg_id >= num_subgraphs.
 * @KBIN_ERR_REMOTE_VAR: remote var missing or without storage.
 * @KBIN_ERR_REMOTE_CHAIN: remote var is itself MR_REMOTE.
 * @KBIN_ERR_REMOTE_SIZE: remote var smaller than this record.
 * @KBIN_ERR_VIRT_RANGE: offset + size > its scratchpad size.
 * @KBIN_ERR_BACKING_BUF: backing_buf > KBIN_BACKING_BUF_MAX.
 * @KBIN_ERR_PAYLOAD_MISSING: MR_BUFFER_STAGED without a payload.
 * @KBIN_ERR_DMA_COUNT: DMA counts or index ranges disagree.
 * @KBIN_ERR_DMA_QUEUE: queue type, owner, flags, SB scratch.
 * @KBIN_ERR_DMA_SEMAPHORE: semaphore not in the queue's set.
 * @KBIN_ERR_DMA_QUEUE_INDEX: block's queue is not its queue.
 * @KBIN_ERR_DMA_BLOCK_ORDER: block id not its place in the queue.
 * @KBIN_ERR_DMA_VAR: side names no var with device bytes.
 * @KBIN_ERR_DMA_DIMS: num_dims not 1..4, or a size 0.
 * @KBIN_ERR_DMA_STEP: steps[0] is not 1.
 * @KBIN_ERR_DMA_EXTENT: extent past the var, or overflow.
 * @KBIN_ERR_DMA_SBUF_WINDOW: SBUF access outside the window.
 * @KBIN_ERR_DMA_SBUF_PARTITION: SBUF run past its partition.
 * @KBIN_ERR_DMA_SBUF_GAP: an SBUF dimension lands in a gap.
 * @KBIN_ERR_DMA_COPY_SIZE: copy sides move unequal bytes.
 * @KBIN_ERR_DMA_CAST_SIZE: cast: unequal elements, split one.
 * @KBIN_ERR_DMA_TRANSPOSE: transpose fields disagree.
 * @KBIN_ERR_DMA_DTYPE: unknown dtype code.
 * @KBIN_ERR_DMA_OP: unknown op code.
 * @KBIN_ERR_PROG_COUNT: counts, lengths or stream ranges disagree.
 * @KBIN_ERR_PROG_MODE: unknown wait mode or update mode.
 * @KBIN_ERR_PROG_SEMAPHORE: index past the core's semaphores.
 * @KBIN_ERR_PROG_TRIGGER: trigger names no queue of its engine.
 * @KBIN_ERR_PROG_TRIGGER_COUNT: a queue's triggers are not its blocks.
 * @KBIN_ERR_PROG_SYNC: decoded entry is not its record's.
 * @KBIN_ERR_PROG_COMPUTE: a compute instruction of neuronsim's encoding
 *	its engine cannot run, or an operand outside its memory.
 * @KBIN_ERR_DMA_PSUM_WINDOW: PSUM access outside the window.
 * @KBIN_ERR_DMA_PSUM_PARTITION: PSUM run past its partition.
 * @KBIN_ERR_CHECK_MAX: one past the last checker code; never reported.
 * @KBIN_ERR_STAGE_HBM: HBM exhausted.
 * @KBIN_ERR_STAGE_BACKING: backing RAM cap reached.
 * @KBIN_ERR_STAGE_SCRATCHPAD: scratchpad pages over the maximum.
 * @KBIN_ERR_STAGE_CORES: not enough NeuronCores from first_core.
 * @KBIN_ERR_STAGE_LIMIT: a module limit (vars, plan bytes, models).
 * @KBIN_ERR_STAGE_FAULT: injected by a debugfs fault knob.
 * @KBIN_ERR_STAGE_NOMEM: kernel memory allocation failed.
 * @KBIN_ERR_STAGE_SBUF: SB var overlaps a carve-out / window.
 * @KBIN_ERR_RELOC_BOUNDS: a DMA descriptor reaches past its var.
 * @KBIN_ERR_RELOC_VAR: a DMA side on MR_PTR, MR_LIST, unstaged.
 * @KBIN_ERR_STAGE_LAST: the last kernel code.
 */
enum kbin_check_reason {
	KBIN_OK = 0,
	KBIN_ERR_TRUNCATED,
	KBIN_ERR_MAGIC,
	KBIN_ERR_VERSION,
	KBIN_ERR_HEADER_SIZE,
	KBIN_ERR_TOTAL_SIZE,
	KBIN_ERR_FLAGS,
	KBIN_ERR_TARGET,
	KBIN_ERR_CHECKSUM,
	KBIN_ERR_NUM_SUBGRAPHS,
	KBIN_ERR_BOUNDS,
	KBIN_ERR_OVERLAP,
	KBIN_ERR_MISALIGNED,
	KBIN_ERR_SG_NAME,
	KBIN_ERR_SET_SIZE,
	KBIN_ERR_CARVEOUT,
	KBIN_ERR_RESERVED,
	KBIN_ERR_MR_TYPE,
	KBIN_ERR_NAME,
	KBIN_ERR_SIZE,
	KBIN_ERR_ALIGNMENT,
	KBIN_ERR_VAR_ID_ORDER,
	KBIN_ERR_VAR_ID_DUP,
	KBIN_ERR_DTYPE,
	KBIN_ERR_SHAPE,
	KBIN_ERR_DTENSOR_MD,
	KBIN_ERR_PAYLOAD_KIND,
	KBIN_ERR_PAYLOAD_LENGTH,
	KBIN_ERR_LIST_KIND,
	KBIN_ERR_LIST_LENGTH,
	KBIN_ERR_LIST_ENTRY,
	KBIN_ERR_PTR_SELF,
	KBIN_ERR_PTR_TARGET,
	KBIN_ERR_REMOTE_SG,
	KBIN_ERR_REMOTE_VAR,
	KBIN_ERR_REMOTE_CHAIN,
	KBIN_ERR_REMOTE_SIZE,
	KBIN_ERR_VIRT_RANGE,
	KBIN_ERR_BACKING_BUF,
	KBIN_ERR_PAYLOAD_MISSING,
	KBIN_ERR_DMA_COUNT,
	KBIN_ERR_DMA_QUEUE,
	KBIN_ERR_DMA_SEMAPHORE,
	KBIN_ERR_DMA_QUEUE_INDEX,
	KBIN_ERR_DMA_BLOCK_ORDER,
	KBIN_ERR_DMA_VAR,
	KBIN_ERR_DMA_DIMS,
	KBIN_ERR_DMA_STEP,
	KBIN_ERR_DMA_EXTENT,
	KBIN_ERR_DMA_SBUF_WINDOW,
	KBIN_ERR_DMA_SBUF_PARTITION,
	KBIN_ERR_DMA_SBUF_GAP,
	KBIN_ERR_DMA_COPY_SIZE,
	KBIN_ERR_DMA_CAST_SIZE,
	KBIN_ERR_DMA_TRANSPOSE,
	KBIN_ERR_DMA_DTYPE,
	KBIN_ERR_DMA_OP,
	/* the program section (checker codes stay below 96) */
	KBIN_ERR_PROG_COUNT,
	KBIN_ERR_PROG_MODE,
	KBIN_ERR_PROG_SEMAPHORE,
	KBIN_ERR_PROG_TRIGGER,
	KBIN_ERR_PROG_TRIGGER_COUNT,
	KBIN_ERR_PROG_SYNC,
	KBIN_ERR_PROG_COMPUTE,
	/* a DMA side on a PSUM variable (MR_PSUM, or an MR_REMOTE of one) */
	KBIN_ERR_DMA_PSUM_WINDOW,
	KBIN_ERR_DMA_PSUM_PARTITION,
	KBIN_ERR_CHECK_MAX,

	/* staging failures reported by the kernel, not by the checker */
	KBIN_ERR_STAGE_HBM = 96,
	KBIN_ERR_STAGE_BACKING,
	KBIN_ERR_STAGE_SCRATCHPAD,
	KBIN_ERR_STAGE_CORES,
	KBIN_ERR_STAGE_LIMIT,
	KBIN_ERR_STAGE_FAULT,
	KBIN_ERR_STAGE_NOMEM,
	KBIN_ERR_STAGE_SBUF,
	KBIN_ERR_RELOC_BOUNDS,
	KBIN_ERR_RELOC_VAR,
	KBIN_ERR_STAGE_LAST = KBIN_ERR_RELOC_VAR,
};

#endif /* _UAPI_LINUX_NEURONSIM_KBIN_H */
