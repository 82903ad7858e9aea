// SPDX-License-Identifier: GPL-2.0
/*
 * dma_ref.c - the host reference of the DMA engine (dma_ref.h).
 *
 * Per descriptor: gather the from side's bytes, run by run in walk order
 * (kbin_dma_walk_run()), into one buffer; apply the op (copy: as is;
 * cast: kbin_cast() element by element; transpose: the permutation of
 * Documentation/dma.rst); scatter the result over the to side's runs,
 * whatever their shape: a descriptor moves a byte stream (the rules of
 * kbin_dma_desc_rule() hold the two sides' byte and element counts
 * equal).  Blocks in id order, descriptors in block order.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dma_ref.h"
#include "kbin_cast.h"
#include "kbin_dma.h"

#define REF_PAGE	4096U

/* one host page of device bytes, in an open-addressing table by frame */
struct ref_slot {
	uint64_t frame;		/* address / REF_PAGE + 1; 0: empty */
	uint8_t *page;
};

struct dma_ref_mem {
	struct ref_slot *slots;
	size_t cap;		/* a power of two */
	size_t used;
};

static size_t ref_hash(uint64_t frame, size_t cap)
{
	return (size_t)((frame * 0x9e3779b97f4a7c15ULL) >> 20) & (cap - 1);
}

static struct ref_slot *ref_find(const struct dma_ref_mem *m, uint64_t frame)
{
	size_t i = ref_hash(frame, m->cap);

	while (m->slots[i].frame && m->slots[i].frame != frame)
		i = (i + 1) & (m->cap - 1);
	return &m->slots[i];
}

static int ref_grow(struct dma_ref_mem *m)
{
	struct ref_slot *old = m->slots;
	size_t i, cap = m->cap;

	m->slots = calloc(2 * cap, sizeof(*m->slots));
	if (!m->slots) {
		m->slots = old;
		return -ENOMEM;
	}
	m->cap = 2 * cap;
	for (i = 0; i < cap; i++)
		if (old[i].frame)
			*ref_find(m, old[i].frame) = old[i];
	free(old);
	return 0;
}

static int ref_zero(const uint8_t *p, uint64_t n)
{
	uint64_t i;

	for (i = 0; i < n; i++)
		if (p[i])
			return 0;
	return 1;
}

/**
 * dma_ref_mem_new() - an empty sparse memory (every byte reads 0).
 *
 * Return: the memory, or NULL when out of memory.
 */
struct dma_ref_mem *dma_ref_mem_new(void)
{
	struct dma_ref_mem *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->cap = 1024;
	m->slots = calloc(m->cap, sizeof(*m->slots));
	if (!m->slots) {
		free(m);
		return NULL;
	}
	return m;
}

/**
 * dma_ref_mem_free() - free a sparse memory and its pages.
 * @m: the memory, or NULL.
 */
void dma_ref_mem_free(struct dma_ref_mem *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->cap; i++)
		free(m->slots[i].page);
	free(m->slots);
	free(m);
}

/**
 * dma_ref_mem_write() - write bytes at a device address.
 * @m: the memory.
 * @addr: device address.
 * @src: @len bytes.
 * @len: byte count.
 *
 * Return: 0 or -ENOMEM (bytes before the failure are written).
 */
int dma_ref_mem_write(struct dma_ref_mem *m, uint64_t addr, const void *src,
		      uint64_t len)
{
	const uint8_t *s = src;

	while (len) {
		uint64_t off = addr % REF_PAGE, n = REF_PAGE - off;
		struct ref_slot *sl;

		if (n > len)
			n = len;
		sl = ref_find(m, addr / REF_PAGE + 1);
		if (!sl->frame && ref_zero(s, n)) {
			/* zeros onto an absent page: it reads as zeros already */
		} else if (!sl->frame) {
			if (2 * (m->used + 1) > m->cap) {
				if (ref_grow(m))
					return -ENOMEM;
				sl = ref_find(m, addr / REF_PAGE + 1);
			}
			sl->page = calloc(1, REF_PAGE);
			if (!sl->page)
				return -ENOMEM;
			sl->frame = addr / REF_PAGE + 1;
			m->used++;
		}
		if (sl->frame)
			memcpy(sl->page + off, s, n);
		s += n;
		addr += n;
		len -= n;
	}
	return 0;
}

/**
 * dma_ref_mem_read() - read bytes at a device address (0 where unwritten).
 * @m: the memory.
 * @addr: device address.
 * @dst: room for @len bytes.
 * @len: byte count.
 */
void dma_ref_mem_read(const struct dma_ref_mem *m, uint64_t addr, void *dst,
		      uint64_t len)
{
	uint8_t *d = dst;

	while (len) {
		uint64_t off = addr % REF_PAGE, n = REF_PAGE - off;
		const struct ref_slot *sl;

		if (n > len)
			n = len;
		sl = ref_find(m, addr / REF_PAGE + 1);
		if (sl->frame)
			memcpy(d, sl->page + off, n);
		else
			memset(d, 0, n);
		d += n;
		addr += n;
		len -= n;
	}
}

/* the axis of the input array [W, Z, Y, X] a transpose_op letter names */
static int ref_axis(char c)
{
	switch (c) {
	case 'W':
		return 0;
	case 'Z':
		return 1;
	case 'Y':
		return 2;
	case 'X':
		return 3;
	}
	return -1;
}

/**
 * dma_ref_transpose() - a transpose descriptor's permutation on host
 *	buffers (Documentation/dma.rst, "Transposes"): @in is tiles of
 *	transpose_shape elements; in each, element (a0, a1, a2, a3) goes to
 *	the output index whose k-th coordinate is a[axis of
 *	transpose_op[k]].
 * @d: the descriptor (op KBIN_DMA_OP_TRANSPOSE).
 * @in: the from side's bytes in walk order.
 * @out: room for as many bytes.
 * @bytes: the from side's byte count.
 *
 * Return: 0; -EINVAL when transpose_op is not made of W, X, Y, Z, when
 * the tile (kbin_dma_tile(): a zero dimension, a product past 64 bits) is
 * refused or @bytes is not a whole number of tiles.
 */
int dma_ref_transpose(const struct kbin_dma_desc *d, const uint8_t *in,
		      uint8_t *out, uint64_t bytes)
{
	const uint32_t *s = d->transpose_shape;
	uint64_t es = d->transpose_elem_size, os[4], a[4], o[4], lin = 0, ol;
	__u64 tile;
	__u32 dim;
	int ax[4], k;

	for (k = 0; k < 4; k++) {
		ax[k] = ref_axis(d->transpose_op[k]);
		if (ax[k] < 0)
			return -EINVAL;
		os[k] = s[ax[k]];
	}
	/* the checked product of the rules, never one that wrapped */
	if (kbin_dma_tile(s, d->transpose_elem_size, &tile, &dim) ||
	    bytes % tile)
		return -EINVAL;
	for (; bytes; bytes -= tile, in += tile, out += tile, lin = 0)
		for (a[0] = 0; a[0] < s[0]; a[0]++)
			for (a[1] = 0; a[1] < s[1]; a[1]++)
				for (a[2] = 0; a[2] < s[2]; a[2]++)
					for (a[3] = 0; a[3] < s[3]; a[3]++, lin++) {
						for (k = 0; k < 4; k++)
							o[k] = a[ax[k]];
						ol = ((o[0] * os[1] + o[1]) * os[2] +
						      o[2]) * os[3] + o[3];
						memcpy(out + ol * es, in + lin * es, es);
					}
	return 0;
}

/* @n elements of a cast, converted in batches kbin_cast() counts in 32 bits */
static void ref_cast(const struct kbin_dma_desc *d, const uint8_t *in,
		     uint8_t *out, uint64_t n)
{
	uint32_t fs = kbin_dma_dtype(d->from.dtype)->size;
	uint32_t ts = kbin_dma_dtype(d->to.dtype)->size;
	uint32_t k;

	for (; n; n -= k, in += (uint64_t)k * fs, out += (uint64_t)k * ts) {
		k = n < (1U << 30) ? (uint32_t)n : 1U << 30;
		kbin_cast(d->from.dtype, d->to.dtype, in, out, k);
	}
}

/* gather (@put 0) or scatter (@put 1) a side's runs at @base */
static int ref_side(struct dma_ref_mem *m, const struct kbin_dma_side *sd,
		    uint64_t base, uint8_t *buf, int put)
{
	struct kbin_dma_walk w;
	uint64_t pos = 0;
	__u64 off;
	__u32 len;
	int ret;

	kbin_dma_walk_init(&w, sd);
	while (kbin_dma_walk_run(&w, &off, &len)) {
		if (put) {
			ret = dma_ref_mem_write(m, base + off, buf + pos, len);
			if (ret)
				return ret;
		} else {
			dma_ref_mem_read(m, base + off, buf + pos, len);
		}
		pos += len;
	}
	return 0;
}

static int ref_desc(struct dma_ref_mem *m, const struct kbin_dma_desc *d,
		    dma_ref_addr_fn addr, void *ctx, uint64_t *bytes)
{
	struct kbin_dma_verdict v;
	struct kbin_dma_pat pf, pt;
	uint64_t fa, ta, n;
	uint8_t *in, *out;
	int ret;

	/* the rules of a checked plan (kbin_dma.h): the sizes below hold */
	if (kbin_dma_pattern(&d->from, &pf) || kbin_dma_pattern(&d->to, &pt) ||
	    kbin_dma_desc_rule(d, &pf, &pt, &v))
		return -EINVAL;
	ret = addr(ctx, d->from.var_id, &fa);
	if (!ret)
		ret = addr(ctx, d->to.var_id, &ta);
	if (ret)
		return ret;
	if (__builtin_add_overflow(pf.bytes, pt.bytes, &n) || n >= SIZE_MAX)
		return -ENOMEM;
	n++;
	in = malloc(n);
	if (!in)
		return -ENOMEM;
	out = in + pf.bytes;
	ref_side(m, &d->from, fa, in, 0);
	switch (d->op) {
	case KBIN_DMA_OP_COPY:
		memcpy(out, in, pt.bytes);
		break;
	case KBIN_DMA_OP_CAST:
		ref_cast(d, in, out, pt.bytes / kbin_dma_dtype(d->to.dtype)->size);
		break;
	case KBIN_DMA_OP_TRANSPOSE:
		ret = dma_ref_transpose(d, in, out, pf.bytes);
		break;
	default:
		ret = -EINVAL;
	}
	if (!ret)
		ret = ref_side(m, &d->to, ta, out, 1);
	free(in);
	*bytes += pt.bytes;
	return ret;
}

/**
 * dma_ref_run_block() - run one DMA block of a subgraph on host memory:
 *	its descriptors in order.  An execution's blocks run one at a time
 *	in the order they end in virtual time (prog_replay_sg.ran,
 *	Documentation/execute.rst).
 * @m: the memory (device addresses).
 * @v: the subgraph's DMA records (kbin_view_dma_sg()).
 * @blk: the block's index among the subgraph's blocks.
 * @addr: resolves a variable to its device address.
 * @ctx: for @addr.
 * @st: in/out: its blocks, descriptors and bytes grow by the block's;
 *	on failure the block's id and the descriptor's index in it.
 *
 * Return: 0; -EINVAL a bad record or @blk out of range; -ENOMEM; the
 * error of @addr.
 */
int dma_ref_run_block(struct dma_ref_mem *m, const struct kbin_dma_sg_view *v,
		      uint32_t blk, dma_ref_addr_fn addr, void *ctx,
		      struct dma_ref_stats *st)
{
	const struct kbin_dma_block *kb;
	uint32_t j;
	int ret;

	if (blk >= v->num_blocks)
		return -EINVAL;
	kb = &v->blocks[blk];
	for (j = 0; j < kb->num_descs; j++) {
		ret = ref_desc(m, &v->descs[kb->first_desc - v->first_desc + j],
			       addr, ctx, &st->bytes);
		if (ret) {
			st->fail_block = kb->id;
			st->fail_desc = j;
			return ret;
		}
		st->descs++;
	}
	st->blocks++;
	return 0;
}

/**
 * dma_ref_run_queue() - run one DMA queue of a subgraph on host memory.
 * @m: the memory (device addresses).
 * @v: the subgraph's DMA records (kbin_view_dma_sg()).
 * @q: the queue's index.
 * @addr: resolves a variable to its device address.
 * @ctx: for @addr.
 * @st: out: blocks, descriptors and bytes done; where a failure stopped.
 *
 * Return: 0; -EINVAL a bad record; -ENOMEM; the error of @addr.
 */
int dma_ref_run_queue(struct dma_ref_mem *m, const struct kbin_dma_sg_view *v,
		      uint32_t q, dma_ref_addr_fn addr, void *ctx,
		      struct dma_ref_stats *st)
{
	const struct kbin_dma_queue *kq = &v->queues[q];
	uint32_t b;
	int ret;

	memset(st, 0, sizeof(*st));
	for (b = 0; b < kq->num_blocks; b++) {
		ret = dma_ref_run_block(m, v, kq->first_block - v->first_block + b,
					addr, ctx, st);
		if (ret)
			return ret;
	}
	return 0;
}
