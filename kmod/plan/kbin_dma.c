// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * kbin_dma.c - the DMA tables, the descriptor rules and the access
 * pattern walker of kbin_dma.h.  Every computation on untrusted numbers
 * is checked arithmetic; nothing allocates or recurses, and every
 * function but the walker's two steps is O(KBIN_DMA_MAX_DIMS).
 * Documentation/relocation.rst has the rules and the walker in prose.
 */

#include <linux/neuronsim.h>

#include "kbin_compat.h"
#include "kbin_dma.h"
#include "kbin_kind.h"

static const struct kbin_dma_dtype_info kbin_dma_dtypes[KBIN_DMA_DTYPE_MAX + 1] = {
	[KBIN_DMA_DTYPE_UINT8] = { "uint8", 1, KBIN_DMA_UINT, 0, 0 },
	[KBIN_DMA_DTYPE_INT8] = { "int8", 1, KBIN_DMA_SINT, 0, 0 },
	[KBIN_DMA_DTYPE_UINT16] = { "uint16", 2, KBIN_DMA_UINT, 0, 0 },
	[KBIN_DMA_DTYPE_INT16] = { "int16", 2, KBIN_DMA_SINT, 0, 0 },
	[KBIN_DMA_DTYPE_FLOAT16] = { "float16", 2, KBIN_DMA_FLOAT, 5, 10 },
	[KBIN_DMA_DTYPE_BFLOAT16] = { "bfloat16", 2, KBIN_DMA_FLOAT, 8, 7 },
	[KBIN_DMA_DTYPE_UINT32] = { "uint32", 4, KBIN_DMA_UINT, 0, 0 },
	[KBIN_DMA_DTYPE_INT32] = { "int32", 4, KBIN_DMA_SINT, 0, 0 },
	[KBIN_DMA_DTYPE_FLOAT32] = { "float32", 4, KBIN_DMA_FLOAT, 8, 23 },
	[KBIN_DMA_DTYPE_UINT64] = { "uint64", 8, KBIN_DMA_UINT, 0, 0 },
	[KBIN_DMA_DTYPE_INT64] = { "int64", 8, KBIN_DMA_SINT, 0, 0 },
	[KBIN_DMA_DTYPE_FLOAT64] = { "float64", 8, KBIN_DMA_FLOAT, 11, 52 },
};

/* the tensor element types past the DMA ones (enum kbin_dtype) */
static const struct kbin_dma_dtype_info kbin_dtypes_f8[KBIN_DTYPE_LAST - KBIN_DMA_DTYPE_MAX] = {
	[KBIN_DTYPE_FLOAT8_E4M3 - KBIN_DMA_DTYPE_MAX - 1] = {
		"float8_e4m3", 1, KBIN_DMA_FLOAT, 4, 3 },
	[KBIN_DTYPE_FLOAT8_E5M2 - KBIN_DMA_DTYPE_MAX - 1] = {
		"float8_e5m2", 1, KBIN_DMA_FLOAT, 5, 2 },
};

/* the def.json keys naming the engine members, also the queue owners */
static const char *const kbin_dma_engines[KBIN_DMA_ENGINE_MAX + 1] = {
	[KBIN_DMA_ENGINE_PE] = "pe",
	[KBIN_DMA_ENGINE_ACT] = "act",
	[KBIN_DMA_ENGINE_POOL] = "pool",
	[KBIN_DMA_ENGINE_DVE] = "dve",
	[KBIN_DMA_ENGINE_SP] = "sp",
};

static const char *const kbin_dma_queue_types[KBIN_DMA_QUEUE_TYPE_MAX + 1] = {
	[KBIN_DMA_QUEUE_IN] = "in",
	[KBIN_DMA_QUEUE_DATA] = "data",
	[KBIN_DMA_QUEUE_DYNAMIC] = "dynamic",
};

static const char *const kbin_dma_ops[KBIN_DMA_OP_MAX + 1] = {
	[KBIN_DMA_OP_COPY] = "copy",
	[KBIN_DMA_OP_CAST] = "cast",
	[KBIN_DMA_OP_TRANSPOSE] = "transpose",
};

/* the sides of a descriptor, NEURONSIM_DMA_M2S and NEURONSIM_DMA_S2M */
static const char *const kbin_dma_sides[] = {
	[NEURONSIM_DMA_M2S] = "M2S",
	[NEURONSIM_DMA_S2M] = "S2M",
};

/* the flag bits of a UDMA descriptor's len_ctrl, in the order named */
static const struct {
	__u32 bit;
	const char *name;
} kbin_udma_flags[] = {
	{ UDMA_DESC_FIRST, "FIRST" },
	{ UDMA_DESC_LAST, "LAST" },
	{ UDMA_DESC_INT_EN, "INT" },
	{ UDMA_DESC_DMB, "DMB" },
};

/**
 * kbin_dma_layout() - the layout of a DMA section with these counts; the
 *	one computation the writer, the reader, the checker and the
 *	relocation share.
 * @num_subgraphs: the plan's subgraphs (one entry each).
 * @num_queues: the section's queues.
 * @num_blocks: the section's blocks.
 * @num_descs: the section's descriptors.
 * @l: out: the tables' offsets and the section's size.  32-bit counts
 *	times at most 152 bytes cannot overflow 64 bits.
 */
void kbin_dma_layout(__u32 num_subgraphs, __u32 num_queues, __u32 num_blocks,
		     __u32 num_descs, struct kbin_dma_layout *l)
{
	l->queues = sizeof(struct kbin_dma_section) +
		    (__u64)num_subgraphs * sizeof(struct kbin_dma_sg);
	l->blocks = l->queues + (__u64)num_queues * sizeof(struct kbin_dma_queue);
	l->descs = l->blocks + (__u64)num_blocks * sizeof(struct kbin_dma_block);
	l->size = l->descs + (__u64)num_descs * sizeof(struct kbin_dma_desc);
}

/* index of @name in @names[1..n), or 0 */
static unsigned int kbin_dma_lookup(const char *const *names, unsigned int n,
				    const char *name)
{
	unsigned int i;

	for (i = 1; i < n; i++)
		if (!strcmp(name, names[i]))
			return i;
	return 0;
}

/**
 * kbin_dma_dtype() - the properties of a DMA element type.
 * @dtype: enum kbin_dma_dtype.
 *
 * Return: the row, or NULL for a value outside the enum.
 */
const struct kbin_dma_dtype_info *kbin_dma_dtype(unsigned int dtype)
{
	return dtype && dtype <= KBIN_DMA_DTYPE_MAX ? &kbin_dma_dtypes[dtype] : NULL;
}

/**
 * kbin_dma_dtype_from_name() - the element type of a def.json dtype.
 * @name: NUL-terminated, e.g. "float16".
 *
 * Return: enum kbin_dma_dtype, 0 for a name the table lacks.
 */
unsigned int kbin_dma_dtype_from_name(const char *name)
{
	unsigned int i;

	for (i = 1; i <= KBIN_DMA_DTYPE_MAX; i++)
		if (!strcmp(name, kbin_dma_dtypes[i].name))
			return i;
	return 0;
}

/**
 * kbin_dtype() - the properties of a tensor element type.
 * @dtype: enum kbin_dtype: a DMA element type or a float8 type.
 *
 * Return: the row, or NULL for KBIN_DTYPE_NONE or a value outside the enum.
 */
const struct kbin_dma_dtype_info *kbin_dtype(unsigned int dtype)
{
	if (dtype > KBIN_DMA_DTYPE_MAX && dtype <= KBIN_DTYPE_LAST)
		return &kbin_dtypes_f8[dtype - KBIN_DMA_DTYPE_MAX - 1];
	return kbin_dma_dtype(dtype);
}

/**
 * kbin_dtype_from_name() - the tensor element type of a dtype name.
 * @name: NUL-terminated, e.g. "bfloat16", "float8_e4m3".
 *
 * Return: enum kbin_dtype, KBIN_DTYPE_NONE for a name the tables lack.
 */
unsigned int kbin_dtype_from_name(const char *name)
{
	unsigned int i = kbin_dma_dtype_from_name(name);

	if (i)
		return i;
	for (i = KBIN_DMA_DTYPE_MAX + 1; i <= KBIN_DTYPE_LAST; i++)
		if (!strcmp(name, kbin_dtype(i)->name))
			return i;
	return KBIN_DTYPE_NONE;
}

/**
 * kbin_dma_dtype_str() - name a DMA element type.
 * @dtype: enum kbin_dma_dtype.
 *
 * Return: "float16" etc.; "unknown" outside the enum.
 */
const char *kbin_dma_dtype_str(unsigned int dtype)
{
	const struct kbin_dma_dtype_info *t = kbin_dma_dtype(dtype);

	return t ? t->name : "unknown";
}

/**
 * kbin_dma_engine_str() - name an engine as def.json does.
 * @engine: enum kbin_dma_engine.
 *
 * Return: "pe", "act", "pool", "dve" or "sp"; "unknown" outside the enum.
 */
const char *kbin_dma_engine_str(unsigned int engine)
{
	return engine && engine <= KBIN_DMA_ENGINE_MAX ? kbin_dma_engines[engine] :
	       "unknown";
}

/**
 * kbin_dma_engine_from_name() - the engine of a def.json owner or key.
 * @name: NUL-terminated ("pool").
 *
 * Return: enum kbin_dma_engine, 0 when unknown.
 */
unsigned int kbin_dma_engine_from_name(const char *name)
{
	return kbin_dma_lookup(kbin_dma_engines, KBIN_ARRAY_SIZE(kbin_dma_engines),
			       name);
}

/**
 * kbin_dma_queue_type_str() - name a DMA queue type as def.json does.
 * @type: enum kbin_dma_queue_type.
 *
 * Return: "in", "data" or "dynamic"; "unknown" outside the enum.
 */
const char *kbin_dma_queue_type_str(unsigned int type)
{
	return type && type <= KBIN_DMA_QUEUE_TYPE_MAX ? kbin_dma_queue_types[type] :
	       "unknown";
}

/**
 * kbin_dma_queue_type_from_name() - the DMA queue type of a def.json type.
 * @name: NUL-terminated ("in").
 *
 * Return: enum kbin_dma_queue_type, 0 when unknown.
 */
unsigned int kbin_dma_queue_type_from_name(const char *name)
{
	return kbin_dma_lookup(kbin_dma_queue_types,
			       KBIN_ARRAY_SIZE(kbin_dma_queue_types), name);
}

/**
 * kbin_dma_op_str() - name a descriptor op.
 * @op: enum kbin_dma_op.
 *
 * Return: "copy", "cast" or "transpose"; "unknown" outside the enum.
 */
const char *kbin_dma_op_str(unsigned int op)
{
	return op && op <= KBIN_DMA_OP_MAX ? kbin_dma_ops[op] : "unknown";
}

/**
 * kbin_dma_op_from_name() - the descriptor op of a def.json "op".
 * @name: NUL-terminated ("copy", "cast"; "transpose" names the op of a
 *	descriptor with transpose_op and no "op").
 *
 * Return: enum kbin_dma_op, 0 when unknown.
 */
unsigned int kbin_dma_op_from_name(const char *name)
{
	return kbin_dma_lookup(kbin_dma_ops, KBIN_ARRAY_SIZE(kbin_dma_ops), name);
}

/**
 * kbin_dma_side_str() - name a descriptor side, as the UDMA rings do:
 *	the read side (a descriptor's from) and the write side (its to).
 * @side: NEURONSIM_DMA_M2S or NEURONSIM_DMA_S2M.
 *
 * Return: "M2S" or "S2M"; "?" for any other value.
 */
const char *kbin_dma_side_str(unsigned int side)
{
	return side < KBIN_ARRAY_SIZE(kbin_dma_sides) ? kbin_dma_sides[side] : "?";
}

/**
 * kbin_udma_flags_str() - the flags of a UDMA descriptor as text, e.g.
 *	"FIRST", "LAST|INT", "FIRST|LAST|INT"; "-" for none (debugfs ring
 *	files, the library's neuronsim_udma_flags_str(), the dma command).
 * @len_ctrl: the descriptor's len_ctrl, in CPU byte order.
 * @buf: output, NUL-terminated, truncated to @len bytes.
 * @len: bytes of @buf; KBIN_UDMA_FLAGS_MAX hold every text.
 *
 * Return: @buf.
 */
char *kbin_udma_flags_str(__u32 len_ctrl, char *buf, unsigned long len)
{
	unsigned long n = 0, i;

	if (!buf || !len)
		return buf;
	buf[0] = 0;
	for (i = 0; i < KBIN_ARRAY_SIZE(kbin_udma_flags); i++)
		if (len_ctrl & kbin_udma_flags[i].bit)
			n += snprintf(buf + (n < len ? n : len), n < len ? len - n : 0,
				      "%s%s", n ? "|" : "", kbin_udma_flags[i].name);
	if (!n)
		snprintf(buf, len, "-");
	return buf;
}

/**
 * kbin_dma_var_rule() - may a descriptor side name a variable of this
 *	kind?
 * @mr_type: enum kbin_mr_type of the variable the side names.
 *
 * A side moves bytes of its variable, so the variable needs device bytes
 * (Documentation/relocation.rst, "The rules"): a kind with SBUF, HBM or
 * scratchpad storage, or an MR_REMOTE, which the loader resolves to the
 * placement of its remote variable, a storage kind of another subgraph
 * (collectives and shadow buffers move bytes to and from them); the side
 * is then bounded by the MR_REMOTE record's own size and, when the
 * remote variable is the state buffer, by the SBUF rules.  An MR_PTR
 * (the bytes are its target's), an MR_LIST (no bytes), an MR_PTR_TABLE
 * (the loader's own address table) and anything else are refused;
 * kbin_dma_var_why() says why.
 *
 * Return: KBIN_OK or KBIN_ERR_DMA_VAR.
 */
unsigned int kbin_dma_var_rule(__u32 mr_type)
{
	return kbin_kind_has_storage(mr_type) ||
	       kbin_kind(mr_type)->storage == KBIN_STORAGE_REMOTE ? KBIN_OK :
	       KBIN_ERR_DMA_VAR;
}

/**
 * kbin_dma_var_why() - why kbin_dma_var_rule() refuses a kind.
 * @mr_type: enum kbin_mr_type.
 *
 * Return: a phrase ("a pointer: the bytes are its target's, name the
 * target"); "it has device bytes" for a kind the rule accepts.
 */
const char *kbin_dma_var_why(__u32 mr_type)
{
	if (!kbin_dma_var_rule(mr_type))
		return "it has device bytes";
	switch (kbin_kind(mr_type)->storage) {
	case KBIN_STORAGE_TARGET:
		return "a pointer: the bytes are its target's, name the target";
	case KBIN_STORAGE_INDEX:
		return "an index list, with no device bytes";
	case KBIN_STORAGE_TABLE:
		return "the loader's table of addresses, rebuilt at LOAD";
	default:
		return "not a kind with device bytes";
	}
}

/**
 * kbin_dma_pattern() - check one side's access pattern and measure it.
 * @s: the side; only its first @s->num_dims sizes and steps are read.
 * @p: out: extent, runs, bytes and pieces (see struct kbin_dma_pat);
 *	@p->dim names the dimension of a refusal.
 *
 * In this order: num_dims is 1..KBIN_DMA_MAX_DIMS; every used size is at
 * least 1; steps[0] is 1 (sizes[0] is then the byte length of one
 * contiguous run); the extent offset + sum_i (sizes[i] - 1) * steps[i] + 1
 * and the run, byte and piece counts fit 64 bits.  The extent is not
 * compared with the variable here (the caller knows its size).
 * O(KBIN_DMA_MAX_DIMS), closed form.
 *
 * Return: KBIN_OK; KBIN_ERR_DMA_DIMS; KBIN_ERR_DMA_STEP; KBIN_ERR_DMA_EXTENT
 * on overflow.
 */
unsigned int kbin_dma_pattern(const struct kbin_dma_side *s,
			      struct kbin_dma_pat *p)
{
	__u64 t, per_run;
	__u32 i;

	p->extent = 0;
	p->runs = 0;
	p->bytes = 0;
	p->pieces = 0;
	p->dim = 0;
	if (!s->num_dims || s->num_dims > KBIN_DMA_MAX_DIMS)
		return KBIN_ERR_DMA_DIMS;
	for (i = 0; i < s->num_dims; i++) {
		if (!s->sizes[i]) {
			p->dim = i;
			return KBIN_ERR_DMA_DIMS;
		}
	}
	if (s->steps[0] != 1)
		return KBIN_ERR_DMA_STEP;
	p->extent = s->offset;
	p->runs = 1;
	for (i = 0; i < s->num_dims; i++) {
		p->dim = i;
		if (__builtin_mul_overflow((__u64)(s->sizes[i] - 1), s->steps[i], &t) ||
		    __builtin_add_overflow(p->extent, t, &p->extent))
			return KBIN_ERR_DMA_EXTENT;
		if (i && __builtin_mul_overflow(p->runs, (__u64)s->sizes[i], &p->runs))
			return KBIN_ERR_DMA_EXTENT;
	}
	if (__builtin_add_overflow(p->extent, 1, &p->extent) ||
	    __builtin_mul_overflow(p->runs, (__u64)s->sizes[0], &p->bytes))
		return KBIN_ERR_DMA_EXTENT;
	per_run = ((__u64)s->sizes[0] + KBIN_DMA_PIECE_MAX - 1) / KBIN_DMA_PIECE_MAX;
	p->pieces = p->runs * per_run;	/* <= bytes: no overflow */
	p->dim = 0;
	return KBIN_OK;
}

/*
 * Whether every run of side @s stays inside its partition of an on-chip
 * window whose partition p starts at p * @stride and holds @part bytes:
 * with offset = P0 * stride + B0 and steps[i] = Pi * stride + Bi, B0 +
 * sum_{i <= k} (sizes[i] - 1) * Bi + sizes[0] <= @part for each
 * dimension k.  Return: -1 when they do, else the first dimension k that
 * does not (0: the first run already), with @sb on that run.
 */
static int kbin_dma_runs(const struct kbin_dma_side *s, __u64 stride,
			 __u64 part, struct kbin_dma_sb *sb)
{
	__u64 byte = s->offset % stride, pnum = s->offset / stride, t;
	__u32 i;

	for (i = 0; i < s->num_dims; i++) {
		if (i) {
			/* (sizes - 1) * steps fit the extent, so these do too */
			t = (__u64)(s->sizes[i] - 1);
			byte += t * (s->steps[i] % stride);
			pnum += t * (s->steps[i] / stride);
		}
		if (byte + s->sizes[0] > part) {
			sb->partition = pnum;
			sb->byte = byte;
			sb->end = byte + s->sizes[0];
			sb->dim = i;
			return (int)i;
		}
	}
	return -1;
}

/**
 * kbin_dma_sbuf() - the SBUF rules of a side whose variable is the state
 *	buffer (its storage is SBUF in the kind table).
 * @g: the target generation (kbin_gen.h): window, partition size, stride.
 * @s: the side, accepted by kbin_dma_pattern().
 * @extent: its extent from kbin_dma_pattern().
 * @sb: out: the partition, byte and end of the run a refusal is about.
 *
 * Byte b of partition p is at p * stride + b of the window
 * (Documentation/hardware.rst).  The offset and every step are split into
 * whole strides and bytes, offset = P0 * stride + B0 and steps[i] = Pi *
 * stride + Bi; in this order:
 *   1. the extent is at most the window (KBIN_ERR_DMA_SBUF_WINDOW);
 *   2. when partitions do not fill their stride, the first run stays in
 *      its partition: B0 + sizes[0] <= partition size
 *      (KBIN_ERR_DMA_SBUF_PARTITION);
 *   3. and so does every run: B0 + sum_{i <= k} (sizes[i] - 1) * Bi +
 *      sizes[0] <= partition size for each dimension k, else dimension k
 *      lands runs in the gap (KBIN_ERR_DMA_SBUF_GAP).
 * With 2 and 3 no run's bytes carry into the next stride, so every run
 * lies inside one partition.  O(KBIN_DMA_MAX_DIMS).
 *
 * Return: KBIN_OK or the first rule's reason code.
 */
unsigned int kbin_dma_sbuf(const struct kbin_gen *g,
			   const struct kbin_dma_side *s, __u64 extent,
			   struct kbin_dma_sb *sb)
{
	__u64 stride = g->sbuf_partition_stride, part = g->sbuf_partition_size;
	int dim;

	sb->partition = 0;
	sb->byte = 0;
	sb->end = extent;
	sb->dim = 0;
	if (extent > g->sbuf_window_size)
		return KBIN_ERR_DMA_SBUF_WINDOW;
	if (!stride || part >= stride)
		return KBIN_OK;		/* no gap */
	dim = kbin_dma_runs(s, stride, part, sb);
	if (dim < 0)
		return KBIN_OK;
	return dim ? KBIN_ERR_DMA_SBUF_GAP : KBIN_ERR_DMA_SBUF_PARTITION;
}

/**
 * kbin_dma_psum() - the PSUM rules of a side whose variable is a PSUM
 *	variable (its storage is PSUM in the kind table).
 * @g: the target generation (kbin_gen.h): psum_size, psum_banks.
 * @s: the side, accepted by kbin_dma_pattern().
 * @extent: its extent from kbin_dma_pattern().
 * @sb: out: the partition, byte and end of the run a refusal is about.
 *
 * Byte b of PSUM partition p is at p * part + b of the window, part =
 * kbin_gen_psum_partition_size() (Documentation/hardware.rst).  The
 * partitions fill their stride, so there is no gap, but a run still
 * stays in one partition, as on the state buffer: with offset = P0 *
 * part + B0 and steps[i] = Pi * part + Bi, in this order:
 *   1. the extent is at most the window, so the partitions it reaches
 *      are at most kbin_gen_psum_partitions() (KBIN_ERR_DMA_PSUM_WINDOW);
 *   2. every run stays in its partition: B0 + sum_{i <= k} (sizes[i] -
 *      1) * Bi + sizes[0] <= part for each dimension k
 *      (KBIN_ERR_DMA_PSUM_PARTITION; @sb->dim is the dimension k).
 * O(KBIN_DMA_MAX_DIMS).
 *
 * Return: KBIN_OK or the first rule's reason code.
 */
unsigned int kbin_dma_psum(const struct kbin_gen *g,
			   const struct kbin_dma_side *s, __u64 extent,
			   struct kbin_dma_sb *sb)
{
	__u64 part = kbin_gen_psum_partition_size(g);

	sb->partition = 0;
	sb->byte = 0;
	sb->end = extent;
	sb->dim = 0;
	if (extent > g->psum_size || !part)
		return KBIN_ERR_DMA_PSUM_WINDOW;
	return kbin_dma_runs(s, part, part, sb) < 0 ? KBIN_OK :
	       KBIN_ERR_DMA_PSUM_PARTITION;
}

/* is @op[0..4) the letters W, X, Y, Z, each once? */
static int kbin_dma_is_perm(const char *op)
{
	unsigned int seen = 0, i;

	for (i = 0; i < KBIN_DMA_TRANSPOSE_DIMS; i++) {
		if (op[i] < 'W' || op[i] > 'Z' || (seen & (1U << (op[i] - 'W'))))
			return 0;
		seen |= 1U << (op[i] - 'W');
	}
	return 1;
}

/*
 * The phrases of enum kbin_dma_why, with the def.json field names; a tile
 * is transpose_element_size x the transpose_shape dimensions, in bytes.
 */
static const char *const kbin_dma_whys[KBIN_DMA_WHY_MAX + 1] = {
	[KBIN_DMA_WHY_NONE] = "no refusal",
	[KBIN_DMA_WHY_BYTES] = "the sides move different byte counts",
	[KBIN_DMA_WHY_FROM_RUN] =
		"a from run (from_sizes[0]) splits a from_dtype element",
	[KBIN_DMA_WHY_TO_RUN] = "a to run (to_sizes[0]) splits a to_dtype element",
	[KBIN_DMA_WHY_ELEMS] = "the sides hold different element counts",
	[KBIN_DMA_WHY_T_FIELDS] = "transpose fields on a copy or cast",
	[KBIN_DMA_WHY_T_DTYPE] = "from_dtype and to_dtype differ",
	[KBIN_DMA_WHY_T_ELEM] = "transpose_element_size is not the dtype's size",
	[KBIN_DMA_WHY_T_OP] = "transpose_op is not a permutation of WXYZ",
	[KBIN_DMA_WHY_T_ZERO] = "a transpose_shape dimension is 0",
	[KBIN_DMA_WHY_T_OVERFLOW] = "the tile overflows 64 bits",
	[KBIN_DMA_WHY_T_TILES] = "the bytes are not whole tiles",
};

/**
 * kbin_dma_why_str() - say why kbin_dma_desc_rule() refused, with the
 *	def.json names of the fields.
 * @why: enum kbin_dma_why.
 *
 * Return: a phrase ("a transpose_shape dimension is 0"; a "tile" is
 * transpose_element_size x the transpose_shape dimensions); "unknown"
 * outside the enum.
 */
const char *kbin_dma_why_str(unsigned int why)
{
	return why <= KBIN_DMA_WHY_MAX ? kbin_dma_whys[why] : "unknown";
}

/**
 * kbin_dma_tile() - the bytes of one transpose tile: @elem_size x the
 *	four dimensions of @shape, in checked 64-bit arithmetic.
 * @shape: transpose_shape, [W, Z, Y, X].
 * @elem_size: transpose_element_size, bytes.
 * @tile: out: the product, 0 on a refusal.
 * @dim: out: the dimension of @shape a refusal is about.
 *
 * Every dimension must be at least 1 and the product must fit 64 bits: a
 * product that wraps (2 x 64640 x 32404 x 32800 x 268501 is 2^65 +
 * 32768) would pass for a small tile while the loops over the shape walk
 * its real size.  The rule (kbin_dma_desc_rule()), the engine and the
 * host reference all take the tile from here.  O(1).
 *
 * Return: KBIN_DMA_WHY_NONE; KBIN_DMA_WHY_T_ZERO (@elem_size 0 counts as
 * a zero dimension, *@dim 4); KBIN_DMA_WHY_T_OVERFLOW.
 */
unsigned int kbin_dma_tile(const __u32 *shape, __u32 elem_size, __u64 *tile,
			   __u32 *dim)
{
	__u64 t = elem_size;
	__u32 i;

	*tile = 0;
	*dim = KBIN_DMA_TRANSPOSE_DIMS;
	if (!elem_size)
		return KBIN_DMA_WHY_T_ZERO;
	for (i = 0; i < KBIN_DMA_TRANSPOSE_DIMS; i++) {
		*dim = i;
		if (!shape[i])
			return KBIN_DMA_WHY_T_ZERO;
	}
	for (i = 0; i < KBIN_DMA_TRANSPOSE_DIMS; i++) {
		*dim = i;
		if (__builtin_mul_overflow(t, (__u64)shape[i], &t))
			return KBIN_DMA_WHY_T_OVERFLOW;
	}
	*dim = 0;
	*tile = t;
	return KBIN_DMA_WHY_NONE;
}

/* the transpose rules, in the order kbin_dma_desc_rule() lists them */
static unsigned int kbin_dma_transpose_rule(const struct kbin_dma_desc *d,
					    const struct kbin_dma_dtype_info *ft,
					    const struct kbin_dma_pat *from,
					    const struct kbin_dma_pat *to,
					    struct kbin_dma_verdict *v)
{
	unsigned int shape = kbin_dma_tile(d->transpose_shape,
					   d->transpose_elem_size, &v->tile,
					   &v->dim);

	if (d->from.dtype != d->to.dtype)
		v->why = KBIN_DMA_WHY_T_DTYPE;
	else if (d->transpose_elem_size != ft->size)
		v->why = KBIN_DMA_WHY_T_ELEM;
	else if (!kbin_dma_is_perm(d->transpose_op))
		v->why = KBIN_DMA_WHY_T_OP;
	else
		v->why = shape;
	if (!v->why && from->bytes % v->tile)
		v->why = KBIN_DMA_WHY_T_TILES;
	if (!v->why && from->bytes != to->bytes)
		v->why = KBIN_DMA_WHY_BYTES;
	return v->why ? KBIN_ERR_DMA_TRANSPOSE : KBIN_OK;
}

/**
 * kbin_dma_desc_rule() - the rules between a descriptor's two sides, by
 *	its op.
 * @d: the descriptor.
 * @from: kbin_dma_pattern() of @d->from (accepted).
 * @to: kbin_dma_pattern() of @d->to (accepted).
 * @v: out: which rule refused (enum kbin_dma_why), the dimension it is
 *	about and a transpose's tile bytes.
 *
 * A descriptor moves a byte stream: the from side's runs in walk order,
 * written along the to side's runs in walk order; the two patterns may
 * have different shapes (a gather of two SBUF partitions, from_sizes
 * [4, 2], into one run, to_sizes [8, 1]).  In this order: the op and
 * both dtypes are known (KBIN_ERR_DMA_OP, KBIN_ERR_DMA_DTYPE); then
 *   - copy: as many bytes on both sides (KBIN_ERR_DMA_COPY_SIZE);
 *   - cast: each side's run, sizes[0], a whole number of elements of its
 *     dtype, so no element is split across two runs (KBIN_DMA_WHY_FROM_RUN,
 *     _TO_RUN), and as many elements on both sides (KBIN_DMA_WHY_ELEMS;
 *     all KBIN_ERR_DMA_CAST_SIZE);
 *   - transpose: one dtype, transpose_elem_size its size, transpose_op a
 *     permutation of W, X, Y, Z, every transpose_shape dimension at least
 *     1 and the tile, transpose_elem_size x W x Z x Y x X, within 64 bits
 *     (kbin_dma_tile()), the from side's bytes a whole number of tiles,
 *     as many bytes on both sides (KBIN_ERR_DMA_TRANSPOSE);
 *   - other ops: the transpose fields are zero (KBIN_ERR_DMA_TRANSPOSE).
 * The byte and element counts are @from->bytes and @to->bytes, which
 * kbin_dma_pattern() computed in checked arithmetic.  O(1).
 *
 * Return: KBIN_OK or the first rule's reason code.
 */
unsigned int kbin_dma_desc_rule(const struct kbin_dma_desc *d,
				const struct kbin_dma_pat *from,
				const struct kbin_dma_pat *to,
				struct kbin_dma_verdict *v)
{
	const struct kbin_dma_dtype_info *ft = kbin_dma_dtype(d->from.dtype);
	const struct kbin_dma_dtype_info *tt = kbin_dma_dtype(d->to.dtype);

	v->why = KBIN_DMA_WHY_NONE;
	v->dim = 0;
	v->tile = 0;
	if (!d->op || d->op > KBIN_DMA_OP_MAX)
		return KBIN_ERR_DMA_OP;
	if (!ft || !tt)
		return KBIN_ERR_DMA_DTYPE;
	if (d->op != KBIN_DMA_OP_TRANSPOSE) {
		if (d->transpose_elem_size || d->transpose_op[0] ||
		    d->transpose_op[1] || d->transpose_op[2] || d->transpose_op[3] ||
		    d->transpose_shape[0] || d->transpose_shape[1] ||
		    d->transpose_shape[2] || d->transpose_shape[3]) {
			v->why = KBIN_DMA_WHY_T_FIELDS;
			return KBIN_ERR_DMA_TRANSPOSE;
		}
	}
	switch (d->op) {
	case KBIN_DMA_OP_COPY:
		if (from->bytes != to->bytes) {
			v->why = KBIN_DMA_WHY_BYTES;
			return KBIN_ERR_DMA_COPY_SIZE;
		}
		break;
	case KBIN_DMA_OP_CAST:
		if (d->from.sizes[0] % ft->size)
			v->why = KBIN_DMA_WHY_FROM_RUN;
		else if (d->to.sizes[0] % tt->size)
			v->why = KBIN_DMA_WHY_TO_RUN;
		else if (from->bytes / ft->size != to->bytes / tt->size)
			v->why = KBIN_DMA_WHY_ELEMS;
		if (v->why)
			return KBIN_ERR_DMA_CAST_SIZE;
		break;
	case KBIN_DMA_OP_TRANSPOSE:
		return kbin_dma_transpose_rule(d, ft, from, to, v);
	}
	return KBIN_OK;
}

/**
 * kbin_dma_walk_init() - start walking a side's runs or pieces.
 * @w: the walker (the caller's memory).
 * @s: a side accepted by kbin_dma_pattern(), so no offset the walk
 *	computes can overflow; it must stay unchanged during the walk.
 */
void kbin_dma_walk_init(struct kbin_dma_walk *w, const struct kbin_dma_side *s)
{
	__u32 i;

	w->s = s;
	w->run = s->offset;
	w->done = 0;
	for (i = 0; i < KBIN_DMA_MAX_DIMS; i++)
		w->idx[i] = 0;
	w->end = 0;
}

/* the next run, odometer style: the innermost outer dimension moves first */
static void kbin_dma_walk_next(struct kbin_dma_walk *w)
{
	const struct kbin_dma_side *s = w->s;
	__u32 i;

	w->done = 0;
	for (i = 1; i < s->num_dims; i++) {
		if (++w->idx[i] < s->sizes[i]) {
			w->run += s->steps[i];
			return;
		}
		w->idx[i] = 0;
		w->run -= (__u64)(s->sizes[i] - 1) * s->steps[i];
	}
	w->end = 1;
}

/**
 * kbin_dma_walk_run() - the next contiguous run of the side.
 * @w: the walker; do not mix with kbin_dma_walk_piece() on one walk.
 * @off: out: the run's offset in the variable.
 * @len: out: its length, sizes[0] bytes.
 *
 * Runs come in index order, the outer dimension 1 moving fastest; there
 * are kbin_dma_pat.runs of them.  O(KBIN_DMA_MAX_DIMS) per call.
 *
 * Return: 1 with a run, 0 when the side has no run left.
 */
int kbin_dma_walk_run(struct kbin_dma_walk *w, __u64 *off, __u32 *len)
{
	if (w->end)
		return 0;
	*off = w->run;
	*len = w->s->sizes[0];
	kbin_dma_walk_next(w);
	return 1;
}

/**
 * kbin_dma_walk_row() - the next row of runs of the side: the runs
 *	dimension 1 lays out at the current index of the dimensions above.
 * @w: the walker; do not mix with kbin_dma_walk_run() or
 *	kbin_dma_walk_piece() on one walk.
 * @off: out: the offset of the row's first run in the variable.
 * @n: out: its runs, sizes[1] (1 for a side of one dimension).
 * @step: out: bytes from one run of the row to the next, steps[1] (0 for
 *	one dimension).
 *
 * Run j of the row, j < @n, is at @off + j * @step and is sizes[0] bytes
 * long; row after row, they are the runs kbin_dma_walk_run() gives, in
 * the same order.  For a caller that handles a row in a loop of its own
 * (the relocation's ring fill): O(KBIN_DMA_MAX_DIMS) per row.
 *
 * Return: 1 with a row, 0 when the side has no row left.
 */
int kbin_dma_walk_row(struct kbin_dma_walk *w, __u64 *off, __u32 *n,
		      __u64 *step)
{
	const struct kbin_dma_side *s = w->s;
	__u32 i;

	if (w->end)
		return 0;
	*off = w->run;
	*n = s->num_dims > 1 ? s->sizes[1] : 1;
	*step = s->num_dims > 1 ? s->steps[1] : 0;
	/* the next row, odometer style from dimension 2 */
	for (i = 2; i < s->num_dims; i++) {
		if (++w->idx[i] < s->sizes[i]) {
			w->run += s->steps[i];
			return 1;
		}
		w->idx[i] = 0;
		w->run -= (__u64)(s->sizes[i] - 1) * s->steps[i];
	}
	w->end = 1;
	return 1;
}

/**
 * kbin_dma_walk_piece() - the next UDMA piece of the side.
 * @w: the walker; do not mix with kbin_dma_walk_run() on one walk.
 * @off: out: the piece's offset in the variable.
 * @len: out: its length, 1..KBIN_DMA_PIECE_MAX bytes.
 *
 * Each run is cut, front to back, into pieces of KBIN_DMA_PIECE_MAX
 * bytes and a last shorter one: a 65536-byte run is one piece, 65537
 * bytes are two.  There are kbin_dma_pat.pieces of them.
 * O(KBIN_DMA_MAX_DIMS) per call.
 *
 * Return: 1 with a piece, 0 when the side has none left.
 */
int kbin_dma_walk_piece(struct kbin_dma_walk *w, __u64 *off, __u32 *len)
{
	__u32 left;

	if (w->end)
		return 0;
	left = w->s->sizes[0] - w->done;
	*off = w->run + w->done;
	*len = left > KBIN_DMA_PIECE_MAX ? KBIN_DMA_PIECE_MAX : left;
	w->done += *len;
	if (w->done == w->s->sizes[0])
		kbin_dma_walk_next(w);
	return 1;
}

/**
 * kbin_dma_walk_seek() - start walking a side's pieces at piece @piece.
 * @w: the walker (the caller's memory).
 * @s: a side accepted by kbin_dma_pattern(); unchanged during the walk.
 * @piece: 0 .. kbin_dma_pat.pieces - 1: the piece kbin_dma_walk_piece()
 *	hands out next; at or past the count the walk is at its end.
 *
 * The same state kbin_dma_walk_init() and @piece calls of
 * kbin_dma_walk_piece() reach, in O(KBIN_DMA_MAX_DIMS): the run is
 * @piece / ceil(sizes[0] / KBIN_DMA_PIECE_MAX), its index tuple that
 * number in the mixed radix of sizes[1 ..], dimension 1 the lowest
 * digit.  The relocation's ring views use it to start anywhere in a
 * descriptor without walking the pieces before.
 */
void kbin_dma_walk_seek(struct kbin_dma_walk *w, const struct kbin_dma_side *s,
			__u64 piece)
{
	__u64 per_run, run, runs = 1;
	__u32 i;

	kbin_dma_walk_init(w, s);
	per_run = ((__u64)s->sizes[0] + KBIN_DMA_PIECE_MAX - 1) / KBIN_DMA_PIECE_MAX;
	run = piece / per_run;
	for (i = 1; i < s->num_dims; i++)
		runs *= s->sizes[i];
	if (run >= runs) {
		w->end = 1;
		return;
	}
	w->done = (__u32)(piece % per_run) * KBIN_DMA_PIECE_MAX;
	for (i = 1; i < s->num_dims; i++) {
		w->idx[i] = (__u32)(run % s->sizes[i]);
		run /= s->sizes[i];
		w->run += (__u64)w->idx[i] * s->steps[i];
	}
}
