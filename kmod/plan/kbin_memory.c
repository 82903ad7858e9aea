// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * kbin_memory.c - the HBM allocations of a LOAD (kbin_memory.h): what
 * each record gets of its own, the sizes of the load's scratchpad arenas,
 * and the walk over every allocation of a checked plan in the module's
 * order.  Nothing allocates or recurses; the walk is O(records + DMA
 * queues + DMA descriptors).  Documentation/hardware.rst, "What a load
 * charges", says it in prose.
 */

#include <linux/neuronsim.h>

#include "kbin_compat.h"
#include "kbin_dma.h"
#include "kbin_kind.h"
#include "kbin_memory.h"

/**
 * kbin_mem_ref_hbm() - the HBM allocation a record gets of its own at
 *	LOAD, by its kind's storage: storage HBM its size at its alignment;
 *	an address table (MR_PTR_TABLE) kbin_ptr_table_bytes() at its
 *	alignment, at least 8; both charged to the kind's usage category.
 * @r: a record of a checked plan.
 * @a: filled when the record has one.
 *
 * Return: 1 when the record has an allocation of its own, else 0 (SBUF,
 * PSUM, scratchpad, index lists, pointers, remote variables).
 */
int kbin_mem_ref_hbm(const struct kbin_mem_ref *r, struct kbin_hbm_alloc *a)
{
	const struct kbin_kind *k = kbin_kind(r->mr_type);

	switch (k->storage) {
	case KBIN_STORAGE_HBM:
		a->bytes = r->size;
		a->align = r->alignment;
		break;
	case KBIN_STORAGE_TABLE:
		a->bytes = kbin_ptr_table_bytes(r->size, r->list.length);
		a->align = r->alignment > KBIN_ADDRESS_SIZE ? r->alignment :
			   KBIN_ADDRESS_SIZE;
		break;
	default:
		return 0;
	}
	a->usage = k->usage;
	return 1;
}

static const struct kbin_subgraph *kbin_mem_sg(const void *plan, __u32 s)
{
	const struct kbin_header *h = plan;

	return (const struct kbin_subgraph *)((const __u8 *)plan +
					      h->subgraph_table_off) + s;
}

static const struct kbin_mem_ref_set *kbin_mem_set(const void *plan, __u32 s)
{
	return (const void *)((const __u8 *)plan + kbin_mem_sg(plan, s)->set_off);
}

/**
 * kbin_mem_load_arenas() - the sizes of a load's scratchpad arenas, by
 *	the arena table (kbin_backings[]): SHARED the largest
 *	shared_scratchpad_size of the subgraphs; SHARDED and MAIN the largest
 *	offset + size over the variables each backs in every subgraph.  The
 *	module allocates them on the load's first NeuronCore.
 * @plan: a plan accepted by kbin_check_plan() (no offset + size wraps).
 * @size: filled, bytes per enum kbin_backing_buf; 0 for the subgraphs'
 *	own arena (LOCAL) and for an arena nothing needs.
 */
void kbin_mem_load_arenas(const void *plan,
			  __u64 size[KBIN_BACKING_BUF_MAX + 1])
{
	const struct kbin_header *h = plan;
	__u32 s, i, b;

	for (b = 0; b <= KBIN_BACKING_BUF_MAX; b++)
		size[b] = 0;
	for (s = 0; s < h->num_subgraphs; s++) {
		const struct kbin_mem_ref_set *set = kbin_mem_set(plan, s);

		for (b = 0; b <= KBIN_BACKING_BUF_MAX; b++)
			if (kbin_backing(b)->scope == KBIN_ARENA_LOAD &&
			    kbin_backing(b)->size == KBIN_ARENA_SIZE_SHARED &&
			    set->shared_scratchpad_size > size[b])
				size[b] = set->shared_scratchpad_size;
		for (i = 0; i < set->nmem; i++) {
			const struct kbin_mem_ref *r = &set->mem[i];
			const struct kbin_backing *bk;

			if (!(i & 4095))
				kbin_yield();
			if (kbin_kind(r->mr_type)->storage != KBIN_STORAGE_SCRATCHPAD)
				continue;
			bk = kbin_backing(r->virt.backing_buf);
			if (bk->scope == KBIN_ARENA_LOAD &&
			    bk->size == KBIN_ARENA_SIZE_VARS &&
			    r->virt.offset + r->size > size[r->virt.backing_buf])
				size[r->virt.backing_buf] = r->virt.offset + r->size;
		}
	}
}

/* the pages of an arena of @size bytes, each one item */
static int kbin_mem_pages(struct kbin_mem_item *it, __u64 size,
			  const struct kbin_mem_params *p, kbin_mem_fn fn,
			  void *ctx)
{
	__u64 n = kbin_sp_pages(size, p->page_size);
	int ret;

	it->a.align = KBIN_HBM_GRANULE;
	for (it->sub = 0; it->sub < n; it->sub++) {
		it->a.bytes = kbin_sp_page_bytes(size, p->page_size, it->sub);
		ret = fn(ctx, it);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * The UDMA descriptors and bytes of side @dir of queue @q: the sum of
 * its descriptors' kbin_dma_pattern() pieces and bytes (saturated).
 */
static void kbin_mem_side(const struct kbin_dma_queue *q,
			  const struct kbin_dma_block *blocks,
			  const struct kbin_dma_desc *descs, __u32 dir,
			  __u64 *pieces, __u64 *bytes)
{
	__u32 bj, j;

	*pieces = 0;
	*bytes = 0;
	for (bj = 0; bj < q->num_blocks; bj++) {
		const struct kbin_dma_block *b = &blocks[q->first_block + bj];

		for (j = 0; j < b->num_descs; j++) {
			const struct kbin_dma_desc *d = &descs[b->first_desc + j];
			struct kbin_dma_pat pat;

			kbin_dma_pattern(dir == NEURONSIM_DMA_M2S ? &d->from : &d->to,
					 &pat);
			if (__builtin_add_overflow(*pieces, pat.pieces, pieces))
				*pieces = ~0ULL;
			if (__builtin_add_overflow(*bytes, pat.bytes, bytes))
				*bytes = ~0ULL;
		}
		kbin_yield();
	}
}

/* the rings of side @it->dir of queue @q, each one item */
static int kbin_mem_side_rings(struct kbin_mem_item *it,
			       const struct kbin_dma_queue *q,
			       const struct kbin_dma_block *blocks,
			       const struct kbin_dma_desc *descs,
			       const struct kbin_mem_params *p, kbin_mem_fn fn,
			       void *ctx)
{
	__u32 k, n, count;
	int ret;

	kbin_mem_side(q, blocks, descs, it->dir, &it->side_descs,
		      &it->side_bytes);
	/* the module refuses it first (max_udma_descs) */
	if (it->side_descs > 0xffffffffULL)
		return -E2BIG;
	count = (__u32)it->side_descs;
	n = kbin_udma_rings(count, p->ring_max);
	for (k = 0; k < n; k++) {
		it->sub = k;
		it->descs = kbin_udma_ring_count(count, p->ring_max, k);
		it->a.bytes = kbin_udma_ring_bytes(kbin_udma_ring_entries(it->descs));
		ret = fn(ctx, it);
		if (ret)
			return ret;
	}
	return 0;
}

/* relocation's rings: per subgraph, per queue, per side, per ring */
static int kbin_mem_rings(const void *plan, const struct kbin_mem_params *p,
			  kbin_mem_fn fn, void *ctx)
{
	const struct kbin_header *h = plan;
	const struct kbin_header_ext *ext = (const void *)(h + 1);
	const struct kbin_dma_section *sec;
	const struct kbin_dma_queue *queues;
	const struct kbin_dma_block *blocks;
	const struct kbin_dma_desc *descs;
	struct kbin_mem_item it = { .what = KBIN_MEM_RING };
	struct kbin_dma_layout l;
	__u32 s, qi;
	int ret;

	if (h->version < 2 || !ext->dma_off)
		return 0;
	sec = (const void *)((const __u8 *)plan + ext->dma_off);
	kbin_dma_layout(h->num_subgraphs, sec->num_queues, sec->num_blocks,
			sec->num_descs, &l);
	queues = (const void *)((const __u8 *)sec + l.queues);
	blocks = (const void *)((const __u8 *)sec + l.blocks);
	descs = (const void *)((const __u8 *)sec + l.descs);
	it.a.align = UDMA_RING_ALIGN;
	it.a.usage = KBIN_USAGE_DMA_RING;
	for (s = 0; s < h->num_subgraphs; s++) {
		it.subgraph = s;
		for (qi = 0; qi < sec->sg[s].num_queues; qi++) {
			it.index = qi;
			for (it.dir = 0; it.dir <= NEURONSIM_DMA_S2M; it.dir++) {
				ret = kbin_mem_side_rings(&it,
							  &queues[sec->sg[s].first_queue + qi],
							  blocks, descs, p, fn, ctx);
				if (ret)
					return ret;
			}
		}
	}
	return 0;
}

/**
 * kbin_mem_walk() - every HBM allocation a LOAD of @plan makes, in the
 *	module's order: the load's scratchpad arenas page by page (on the
 *	first NeuronCore); then per subgraph its local scratchpad's pages and
 *	each record's own allocation (kbin_mem_ref_hbm()), in record order;
 *	then relocation's UDMA rings, per subgraph, queue, side (M2S, S2M)
 *	and ring.
 * @plan: a plan accepted by kbin_check_plan().
 * @p: the module parameters the sizes depend on.
 * @fn: called once per allocation.
 * @ctx: passed to @fn.
 *
 * The bytes the module charges NeuronCore first core + subgraph, per
 * usage category, are the sum of kbin_hbm_round() of the items' bytes;
 * an item's size, alignment and category are what the module asks its
 * allocator for (Documentation/hardware.rst, "What a load charges").
 *
 * Return: 0; @fn's non-zero return; -E2BIG a queue side of more than
 * 2^32 - 1 UDMA descriptors (the module refuses the load for
 * max_udma_descs before it allocates a ring).
 */
int kbin_mem_walk(const void *plan, const struct kbin_mem_params *p,
		  kbin_mem_fn fn, void *ctx)
{
	const struct kbin_header *h = plan;
	__u64 arena[KBIN_BACKING_BUF_MAX + 1];
	struct kbin_mem_item it;
	__u32 s, i, b;
	int ret;

	kbin_mem_load_arenas(plan, arena);
	for (b = 0; b <= KBIN_BACKING_BUF_MAX; b++) {
		if (kbin_backing(b)->scope != KBIN_ARENA_LOAD)
			continue;
		memset(&it, 0, sizeof(it));
		it.what = KBIN_MEM_ARENA;
		it.index = b;
		it.a.usage = kbin_backing(b)->usage;
		ret = kbin_mem_pages(&it, arena[b], p, fn, ctx);
		if (ret)
			return ret;
	}
	for (s = 0; s < h->num_subgraphs; s++) {
		const struct kbin_mem_ref_set *set = kbin_mem_set(plan, s);

		memset(&it, 0, sizeof(it));
		it.what = KBIN_MEM_LOCAL;
		it.subgraph = s;
		it.a.usage = kbin_backing(KBIN_BACKING_BUF_LOCAL)->usage;
		ret = kbin_mem_pages(&it, set->local_scratchpad_size, p, fn, ctx);
		if (ret)
			return ret;
		memset(&it, 0, sizeof(it));
		it.what = KBIN_MEM_VAR;
		it.subgraph = s;
		for (i = 0; i < set->nmem; i++) {
			if (!(i & 4095))
				kbin_yield();
			if (!kbin_mem_ref_hbm(&set->mem[i], &it.a))
				continue;
			it.index = i;
			ret = fn(ctx, &it);
			if (ret)
				return ret;
		}
	}
	return kbin_mem_rings(plan, p, fn, ctx);
}
