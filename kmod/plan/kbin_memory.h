/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * kbin_memory.h - what a LOAD charges to HBM: the size, alignment and
 * usage category of every allocation staging and relocation make for a
 * checked plan, and the NeuronCore each is charged to
 * (Documentation/hardware.rst, "What a load charges").
 *
 * One fact, one place: the module's HBM allocator (kmod/hbm.c), staging
 * (kmod/stage.c) and relocation (kmod/relocate.c) size, round and align
 * their allocations with the helpers here, and kbin_mem_walk() runs the
 * same helpers over a whole plan, in the order the module allocates, with
 * no device: "will it fit" on the host (nscc_plan_memory(), neuronsim-cc
 * plan --memory) gives the bytes the module charges, byte for byte.
 */
#ifndef _NEURONSIM_KBIN_MEMORY_H
#define _NEURONSIM_KBIN_MEMORY_H

#include <linux/neuronsim_kbin.h>
#include <linux/neuronsim_udma.h>

/* log2 of KBIN_HBM_GRANULE */
#define KBIN_HBM_ORDER		12
/*
 * bytes of the HBM allocation granule: every allocation is rounded up to
 * it and aligned to at least it, and it is what the module charges
 */
#define KBIN_HBM_GRANULE	4096ULL

/* the module parameters' defaults (Documentation/security.rst, "Caps") */
#define KBIN_SCRATCHPAD_PAGE_SIZE_DEFAULT	(512ULL << 20)
#define KBIN_SCRATCHPAD_MAX_PAGES_DEFAULT	1024U
#define KBIN_MAX_UDMA_DESCS_DEFAULT		8388608U	/* 2^23 */
#define KBIN_MAX_VARS_PER_SG_DEFAULT		4194304U	/* 2^22 */
#define KBIN_MAX_RUN_BYTES_DEFAULT		(4ULL << 30)

/**
 * kbin_hbm_round() - the bytes an HBM allocation of @bytes takes and is
 *	charged: @bytes rounded up to KBIN_HBM_GRANULE.
 * @bytes: the size asked for.
 *
 * Return: the rounded size; above 2^64 - KBIN_HBM_GRANULE, the largest
 * multiple of the granule (no allocation is that large).
 */
static inline __u64 kbin_hbm_round(__u64 bytes)
{
	if (bytes > ~0ULL - (KBIN_HBM_GRANULE - 1))
		return ~0ULL & ~(KBIN_HBM_GRANULE - 1);
	return (bytes + KBIN_HBM_GRANULE - 1) & ~(KBIN_HBM_GRANULE - 1);
}

/**
 * kbin_hbm_align() - the alignment an HBM allocation gets.
 * @align: the alignment asked for, a power of two.
 *
 * Return: @align, at least KBIN_HBM_GRANULE.
 */
static inline __u64 kbin_hbm_align(__u64 align)
{
	return align > KBIN_HBM_GRANULE ? align : KBIN_HBM_GRANULE;
}

/**
 * struct kbin_hbm_alloc - one HBM allocation of a LOAD.
 * @bytes: the size asked of the allocator; it takes and charges
 *	kbin_hbm_round(@bytes).
 * @align: the alignment asked (the allocator makes it at least
 *	KBIN_HBM_GRANULE, kbin_hbm_align()).
 * @usage: enum kbin_usage it is charged to; the driver's device-memory
 *	category is kbin_usage_category(@usage).
 */
struct kbin_hbm_alloc {
	__u64 bytes;
	__u64 align;
	__u32 usage;
};

int kbin_mem_ref_hbm(const struct kbin_mem_ref *r, struct kbin_hbm_alloc *a);

/**
 * kbin_sp_pages() - the pages of a scratchpad arena of @size bytes.
 * @size: bytes.
 * @page_size: the scratchpad page (scratchpad_page_size), a non-zero
 *	multiple of KBIN_HBM_GRANULE.
 *
 * Return: ceil(@size / @page_size).
 */
static inline __u64 kbin_sp_pages(__u64 size, __u64 page_size)
{
	return size / page_size + !!(size % page_size);
}

/**
 * kbin_sp_page_bytes() - the allocation of page @i of a scratchpad arena
 *	of @size bytes: @page_size, the last page what is left of @size
 *	rounded up to KBIN_HBM_GRANULE (so the pages of an arena total
 *	kbin_hbm_round(@size)).
 * @size: the arena's bytes.
 * @page_size: as kbin_sp_pages()'s.
 * @i: the page, < kbin_sp_pages(@size, @page_size).
 *
 * Return: bytes.
 */
static inline __u64 kbin_sp_page_bytes(__u64 size, __u64 page_size, __u64 i)
{
	__u64 left = kbin_hbm_round(size) - i * page_size;

	return left < page_size ? left : page_size;
}

void kbin_mem_load_arenas(const void *plan,
			  __u64 size[KBIN_BACKING_BUF_MAX + 1]);

/**
 * kbin_udma_ring_max() - the descriptors of one UDMA ring, from the
 *	dma_ring_max_descs parameter: clamped to UDMA_RING_GRANULE_DESCS ..
 *	UDMA_RING_LOADER_MAX_DESCS and rounded down to a multiple of
 *	UDMA_RING_GRANULE_DESCS.
 * @param: the parameter's value.
 *
 * Return: descriptors, a multiple of UDMA_RING_GRANULE_DESCS.
 */
static inline __u32 kbin_udma_ring_max(__u32 param)
{
	if (param < UDMA_RING_GRANULE_DESCS)
		param = UDMA_RING_GRANULE_DESCS;
	if (param > UDMA_RING_LOADER_MAX_DESCS)
		param = UDMA_RING_LOADER_MAX_DESCS;
	return param - param % UDMA_RING_GRANULE_DESCS;
}

/**
 * kbin_udma_rings() - the rings of a queue side of @count UDMA
 *	descriptors.
 * @count: descriptors.
 * @ring_max: descriptors per ring, kbin_udma_ring_max().
 *
 * Return: ceil(@count / @ring_max); 0 for none.
 */
static inline __u32 kbin_udma_rings(__u32 count, __u32 ring_max)
{
	return count / ring_max + !!(count % ring_max);
}

/**
 * kbin_udma_ring_count() - the descriptors ring @k of a queue side holds.
 * @count: the side's descriptors.
 * @ring_max: descriptors per ring, kbin_udma_ring_max().
 * @k: the ring, < kbin_udma_rings().
 *
 * Return: @ring_max, the last ring what is left.
 */
static inline __u32 kbin_udma_ring_count(__u32 count, __u32 ring_max, __u32 k)
{
	__u32 left = count - k * ring_max;

	return left < ring_max ? left : ring_max;
}

/**
 * kbin_udma_ring_entries() - the entries of a ring of @count
 *	descriptors: @count rounded up to UDMA_RING_GRANULE_DESCS.
 * @count: descriptors, at most UDMA_RING_LOADER_MAX_DESCS.
 *
 * Return: entries.
 */
static inline __u32 kbin_udma_ring_entries(__u32 count)
{
	return (count + UDMA_RING_GRANULE_DESCS - 1) &
	       ~(UDMA_RING_GRANULE_DESCS - 1);
}

/**
 * kbin_udma_ring_bytes() - the HBM allocation of a ring of @entries
 *	entries: a submission ring and a completion ring of as many
 *	UDMA_DESC_SIZE-byte entries, a multiple of KBIN_HBM_GRANULE.
 * @entries: kbin_udma_ring_entries().
 *
 * Return: bytes.
 */
static inline __u64 kbin_udma_ring_bytes(__u32 entries)
{
	return (__u64)entries * UDMA_DESC_SIZE * 2;
}

/**
 * struct kbin_mem_params - the module parameters a LOAD's allocations
 *	depend on.
 * @page_size: scratchpad_page_size, bytes (a non-zero multiple of
 *	KBIN_HBM_GRANULE).
 * @ring_max: descriptors per UDMA ring, kbin_udma_ring_max() of
 *	dma_ring_max_descs.
 */
struct kbin_mem_params {
	__u64 page_size;
	__u32 ring_max;
};

/**
 * enum kbin_mem_what - what an HBM allocation of a LOAD holds.
 * @KBIN_MEM_ARENA: a page of one of the load's scratchpad arenas (SHARED,
 *	SHARDED, MAIN), on its first NeuronCore.
 * @KBIN_MEM_LOCAL: a page of a subgraph's local scratchpad.
 * @KBIN_MEM_VAR: a variable's own allocation (HBM storage, or a pointer
 *	table).
 * @KBIN_MEM_RING: a UDMA ring of one side of a DMA queue.
 */
enum kbin_mem_what {
	KBIN_MEM_ARENA = 0,
	KBIN_MEM_LOCAL,
	KBIN_MEM_VAR,
	KBIN_MEM_RING,
};

/**
 * struct kbin_mem_item - one HBM allocation of a LOAD, as
 *	kbin_mem_walk() hands it out.
 * @a: its size, alignment and usage category.
 * @what: enum kbin_mem_what.
 * @subgraph: the subgraph whose NeuronCore (first core + @subgraph) it is
 *	charged to; 0 for KBIN_MEM_ARENA (the first core).
 * @index: KBIN_MEM_ARENA: the enum kbin_backing_buf; KBIN_MEM_VAR: the
 *	record; KBIN_MEM_RING: the queue, in the subgraph; else 0.
 * @sub: KBIN_MEM_ARENA, KBIN_MEM_LOCAL: the page; KBIN_MEM_RING: the
 *	ring of the queue side.
 * @dir: KBIN_MEM_RING: the side, NEURONSIM_DMA_M2S or NEURONSIM_DMA_S2M.
 * @descs: KBIN_MEM_RING: the UDMA descriptors the ring holds.
 * @side_descs: KBIN_MEM_RING: the UDMA descriptors of the whole queue
 *	side (max_udma_descs counts them).
 * @side_bytes: KBIN_MEM_RING: the bytes one run of the queue side moves
 *	(max_run_bytes bounds them; saturated at 2^64 - 1).
 */
struct kbin_mem_item {
	struct kbin_hbm_alloc a;
	__u32 what;
	__u32 subgraph;
	__u32 index;
	__u64 sub;
	__u32 dir;
	__u32 descs;
	__u64 side_descs;
	__u64 side_bytes;
};

/**
 * typedef kbin_mem_fn - kbin_mem_walk()'s callback.
 * @ctx: the caller's.
 * @it: the allocation (valid during the call).
 *
 * Return: 0 to go on; anything else stops the walk, which returns it.
 */
typedef int (*kbin_mem_fn)(void *ctx, const struct kbin_mem_item *it);

int kbin_mem_walk(const void *plan, const struct kbin_mem_params *p,
		  kbin_mem_fn fn, void *ctx);

#endif /* _NEURONSIM_KBIN_MEMORY_H */
