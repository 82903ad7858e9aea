/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * kbin_dma.h - DMA programs of a plan: the tables of DMA names and
 * element types, the rules one descriptor must follow, and the access
 * pattern walker that turns one descriptor side into its contiguous runs
 * and the runs into UDMA pieces of at most KBIN_DMA_PIECE_MAX bytes.
 *
 * Plain C, no allocation, no recursion: the module (checker, and the
 * relocation of descriptors into UDMA rings), the compiler and the tools
 * compile this very code, so they count pieces the same way.  The rules
 * return the checker's reason codes (enum kbin_check_reason).
 * Documentation/relocation.rst describes the walker and every rule;
 * Documentation/kbin-format.rst the records.
 */
#ifndef _NEURONSIM_KBIN_DMA_H
#define _NEURONSIM_KBIN_DMA_H

#include <linux/neuronsim_kbin.h>
#include <linux/neuronsim_udma.h>

#include "kbin_gen.h"

/* bytes one UDMA descriptor moves at most (Documentation/hardware.rst) */
#define KBIN_DMA_PIECE_MAX	65536U

/* struct kbin_dma_dtype_info.cls: how an element's bits encode its value */
enum kbin_dma_class {
	KBIN_DMA_UINT = 0,	/* unsigned binary */
	KBIN_DMA_SINT = 1,	/* two's complement */
	KBIN_DMA_FLOAT = 2,	/* IEEE 754 binary (bfloat16: float32's top half) */
};

/**
 * struct kbin_dma_dtype_info - one element type.
 * @name: the def.json spelling ("float16").
 * @size: bytes per element.
 * @cls: enum kbin_dma_class.
 * @exp_bits: KBIN_DMA_FLOAT: exponent bits (5 float16, 8 bfloat16 and
 *	float32, 11 float64); else 0.
 * @man_bits: KBIN_DMA_FLOAT: stored fraction bits (10, 7, 23, 52).
 */
struct kbin_dma_dtype_info {
	const char *name;
	__u32 size;
	__u8 cls;
	__u8 exp_bits;
	__u8 man_bits;
};

/**
 * struct kbin_dma_layout - where the tables of a DMA section lie, in
 *	bytes from the section's start (Documentation/kbin-format.rst,
 *	"DMA section (version 2)"): the 16-byte header, one 24-byte entry
 *	per subgraph, then the queue, block and descriptor tables.
 * @queues: the queue table (64 bytes a queue).
 * @blocks: the block table (32 bytes a block).
 * @descs: the descriptor table (152 bytes a descriptor).
 * @size: the whole section, what dma_size must be.
 */
struct kbin_dma_layout {
	__u64 queues;
	__u64 blocks;
	__u64 descs;
	__u64 size;
};

void kbin_dma_layout(__u32 num_subgraphs, __u32 num_queues, __u32 num_blocks,
		     __u32 num_descs, struct kbin_dma_layout *l);

const struct kbin_dma_dtype_info *kbin_dma_dtype(unsigned int dtype);
unsigned int kbin_dma_dtype_from_name(const char *name);
const char *kbin_dma_dtype_str(unsigned int dtype);

/**
 * enum kbin_dtype - a tensor element type as the compilers name it:
 * 1 .. KBIN_DMA_DTYPE_MAX are the DMA element types (enum kbin_dma_dtype,
 * same values and names), the float8 types no DMA descriptor carries
 * come after them.
 * @KBIN_DTYPE_NONE: no element type (or a name the tables lack).
 * @KBIN_DTYPE_FLOAT8_E4M3: "float8_e4m3", 1 byte.
 * @KBIN_DTYPE_FLOAT8_E5M2: "float8_e5m2", 1 byte.
 * @KBIN_DTYPE_LAST: the largest dtype.
 */
enum kbin_dtype {
	KBIN_DTYPE_NONE = 0,
	KBIN_DTYPE_FLOAT8_E4M3 = KBIN_DMA_DTYPE_MAX + 1,
	KBIN_DTYPE_FLOAT8_E5M2,
	KBIN_DTYPE_LAST = KBIN_DTYPE_FLOAT8_E5M2,
};

const struct kbin_dma_dtype_info *kbin_dtype(unsigned int dtype);
unsigned int kbin_dtype_from_name(const char *name);
const char *kbin_dma_engine_str(unsigned int engine);
unsigned int kbin_dma_engine_from_name(const char *name);
const char *kbin_dma_queue_type_str(unsigned int type);
unsigned int kbin_dma_queue_type_from_name(const char *name);
const char *kbin_dma_op_str(unsigned int op);
unsigned int kbin_dma_op_from_name(const char *name);
const char *kbin_dma_side_str(unsigned int side);

/* bytes a kbin_udma_flags_str() text takes at most, with the NUL */
#define KBIN_UDMA_FLAGS_MAX	sizeof("FIRST|LAST|INT|DMB")

char *kbin_udma_flags_str(__u32 len_ctrl, char *buf, unsigned long len);

/**
 * struct kbin_dma_pat - what kbin_dma_pattern() finds out about a side.
 * @extent: @offset + sum_i (sizes[i] - 1) * steps[i] + 1: the bytes of
 *	the variable the side reaches.
 * @runs: contiguous runs, the product of sizes[1 ..].
 * @bytes: bytes moved, @runs * sizes[0].
 * @pieces: UDMA pieces, @runs * ceil(sizes[0] / KBIN_DMA_PIECE_MAX).
 * @dim: the dimension a refusal is about.
 */
struct kbin_dma_pat {
	__u64 extent;
	__u64 runs;
	__u64 bytes;
	__u64 pieces;
	__u32 dim;
};

unsigned int kbin_dma_var_rule(__u32 mr_type);
const char *kbin_dma_var_why(__u32 mr_type);
unsigned int kbin_dma_pattern(const struct kbin_dma_side *s,
			      struct kbin_dma_pat *p);

/**
 * struct kbin_dma_sb - where kbin_dma_sbuf() or kbin_dma_psum() found a
 *	side's run.
 * @partition: the partition of the run it is about.
 * @byte: the run's first byte inside that partition.
 * @end: @byte + sizes[0] (KBIN_ERR_DMA_SBUF_PARTITION, _GAP,
 *	KBIN_ERR_DMA_PSUM_PARTITION), or the extent (KBIN_ERR_DMA_SBUF_WINDOW,
 *	KBIN_ERR_DMA_PSUM_WINDOW).
 * @dim: KBIN_ERR_DMA_SBUF_GAP, KBIN_ERR_DMA_PSUM_PARTITION: the dimension
 *	that moves the run there.
 */
struct kbin_dma_sb {
	__u64 partition;
	__u64 byte;
	__u64 end;
	__u32 dim;
};

unsigned int kbin_dma_sbuf(const struct kbin_gen *g,
			   const struct kbin_dma_side *s, __u64 extent,
			   struct kbin_dma_sb *sb);
unsigned int kbin_dma_psum(const struct kbin_gen *g,
			   const struct kbin_dma_side *s, __u64 extent,
			   struct kbin_dma_sb *sb);
/**
 * enum kbin_dma_why - which rule between a descriptor's sides refused it:
 *	the detail of a KBIN_ERR_DMA_COPY_SIZE, _CAST_SIZE or _TRANSPOSE
 *	verdict of kbin_dma_desc_rule(); kbin_dma_why_str() says it with the
 *	def.json names.
 * @KBIN_DMA_WHY_NONE: no refusal.
 * @KBIN_DMA_WHY_BYTES: a copy's or a transpose's sides move different
 *	byte counts.
 * @KBIN_DMA_WHY_FROM_RUN: a cast's from run, from_sizes[0] bytes, is not
 *	a whole number of from_dtype elements.
 * @KBIN_DMA_WHY_TO_RUN: a cast's to run is not whole to_dtype elements.
 * @KBIN_DMA_WHY_ELEMS: a cast's sides hold different element counts.
 * @KBIN_DMA_WHY_T_FIELDS: a copy or cast carries transpose fields.
 * @KBIN_DMA_WHY_T_DTYPE: a transpose's two dtypes differ.
 * @KBIN_DMA_WHY_T_ELEM: transpose_element_size is not the dtype's size.
 * @KBIN_DMA_WHY_T_OP: transpose_op is not a permutation of W, X, Y, Z.
 * @KBIN_DMA_WHY_T_ZERO: a transpose_shape dimension is 0.
 * @KBIN_DMA_WHY_T_OVERFLOW: element size x the shape overflows 64 bits.
 * @KBIN_DMA_WHY_T_TILES: the bytes are not a whole number of tiles.
 * @KBIN_DMA_WHY_MAX: the last value.
 */
enum kbin_dma_why {
	KBIN_DMA_WHY_NONE = 0,
	KBIN_DMA_WHY_BYTES,
	KBIN_DMA_WHY_FROM_RUN,
	KBIN_DMA_WHY_TO_RUN,
	KBIN_DMA_WHY_ELEMS,
	KBIN_DMA_WHY_T_FIELDS,
	KBIN_DMA_WHY_T_DTYPE,
	KBIN_DMA_WHY_T_ELEM,
	KBIN_DMA_WHY_T_OP,
	KBIN_DMA_WHY_T_ZERO,
	KBIN_DMA_WHY_T_OVERFLOW,
	KBIN_DMA_WHY_T_TILES,
	KBIN_DMA_WHY_MAX = KBIN_DMA_WHY_T_TILES,
};

/**
 * struct kbin_dma_verdict - what kbin_dma_desc_rule() found.
 * @why: enum kbin_dma_why.
 * @dim: the dimension of transpose_shape a refusal is about
 *	(KBIN_DMA_WHY_T_ZERO, _T_OVERFLOW), else 0.
 * @tile: a transpose: bytes of one tile, transpose_element_size x
 *	W x Z x Y x X (kbin_dma_tile(), whatever refused), 0 when a
 *	dimension is 0 or the product does not fit 64 bits.
 */
struct kbin_dma_verdict {
	__u32 why;
	__u32 dim;
	__u64 tile;
};

const char *kbin_dma_why_str(unsigned int why);
unsigned int kbin_dma_tile(const __u32 *shape, __u32 elem_size, __u64 *tile,
			   __u32 *dim);
unsigned int kbin_dma_desc_rule(const struct kbin_dma_desc *d,
				const struct kbin_dma_pat *from,
				const struct kbin_dma_pat *to,
				struct kbin_dma_verdict *v);

/**
 * struct kbin_dma_walk - an iterator over the runs, the rows of runs or
 * the pieces of one side; kbin_dma_walk_init() sets it up, no allocation.
 * @s: the side.
 * @run: offset of the current run in the variable.
 * @done: bytes of the current run already handed out as pieces.
 * @idx: the current outer index tuple, idx[1 ..].
 * @end: no run is left.
 */
struct kbin_dma_walk {
	const struct kbin_dma_side *s;
	__u64 run;
	__u32 done;
	__u32 idx[KBIN_DMA_MAX_DIMS];
	__u8 end;
};

void kbin_dma_walk_init(struct kbin_dma_walk *w, const struct kbin_dma_side *s);
int kbin_dma_walk_run(struct kbin_dma_walk *w, __u64 *off, __u32 *len);
int kbin_dma_walk_row(struct kbin_dma_walk *w, __u64 *off, __u32 *n,
		      __u64 *step);
int kbin_dma_walk_piece(struct kbin_dma_walk *w, __u64 *off, __u32 *len);
void kbin_dma_walk_seek(struct kbin_dma_walk *w, const struct kbin_dma_side *s,
			__u64 piece);

#endif /* _NEURONSIM_KBIN_DMA_H */
