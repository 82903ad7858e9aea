// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_kbin_struct.c - structure-aware libFuzzer target for the KBIN plan
 * checker (kmod/plan/kbin_check.c) and reader.
 *
 * The custom mutator (kbin_mutate.c) edits the fields of valid plans -
 * header, subgraph table and carve-outs, set headers, every field of a
 * record (mr_type, name, size, alignment, var_id, dtype, shape, buffer,
 * pointer target, virtual offset, list length and offset, remote subgraph
 * and var), list entries, payload headers and the DMA section's counts,
 * queues, blocks and descriptors - and fixes the checksum up,
 * so mutations reach the deep rules; one call in five is libFuzzer's own
 * raw-byte mutation instead.  Seeds: the valid plans of kbin_seedgen and
 * plans compiled from real NEFFs (see harden.mk).
 *
 * The property checked beyond "no ASan/UBSan report": whatever the checker
 * accepts satisfies, re-verified here independently with overflow-safe
 * arithmetic, every invariant the kernel's staging code relies on without
 * checking again (sizes and offsets inside their areas, dense var_ids,
 * list entries, pointer targets and remote references in range, payload
 * lengths; the DMA section's ranges, block queues, ids and semaphores,
 * descriptor var_ids and extents, and every SBUF run inside one
 * partition), and the reader opens it.  A violation aborts, so libFuzzer
 * saves the input; "fuzz_kbin_struct FILE" reproduces it.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_util.h"
#include "kbin_check.h"
#include "kbin_gen.h"
#include "kbin_mutate.h"
#include "kbin_reader.h"
#include "kbin_writer.h"

static void fail(const char *what, uint32_t s, uint32_t i, uint64_t v)
{
	fprintf(stderr, "fuzz_kbin_struct: accepted plan violates %s (subgraph %u, record %u, value %llu)\n",
		what, s, i, (unsigned long long)v);
	abort();
}

/* [off, off + n) inside [lo, hi)? */
static int inside(uint64_t off, uint64_t n, uint64_t lo, uint64_t hi)
{
	return off >= lo && off <= hi && n <= hi - off;
}

/* the kind whose bytes an MR_REMOTE's are: its remote variable's */
static uint32_t remote_source_type(const uint8_t *p,
				   const struct kbin_mem_ref *v)
{
	const struct kbin_header *h = (const void *)p;
	const struct kbin_subgraph *sgt = (const void *)(p + h->subgraph_table_off);
	const struct kbin_mem_ref_set *src;
	uint32_t rs = v->remote.remote_vtpb_rel_sg_id;

	if (rs >= h->num_subgraphs)
		return KBIN_MR_INVALID;
	src = (const void *)(p + sgt[rs].set_off);
	return v->remote.remote_var_id < src->nmem ?
	       src->mem[v->remote.remote_var_id].mr_type : KBIN_MR_INVALID;
}

/*
 * One side of an accepted descriptor: a storage var or an MR_REMOTE of
 * one, 1..4 dims, steps[0] 1, the extent (in 128-bit arithmetic) within
 * the var's own record; on the state buffer (or a remote of it) every run
 * inside one partition of the window, checked run by run when there are
 * few enough.
 */
static void verify_side(const uint8_t *p, const struct kbin_gen *g,
			const struct kbin_dma_side *sd,
			const struct kbin_mem_ref_set *set, uint32_t s, uint32_t i)
{
	const struct kbin_mem_ref *v;
	unsigned __int128 ext, runs = 1;
	uint64_t idx[4] = { 0 }, st = g->sbuf_partition_stride;
	uint32_t k, kind;

	if (sd->var_id >= set->nmem)
		fail("DMA var_id", s, i, sd->var_id);
	v = &set->mem[sd->var_id];
	kind = v->mr_type == KBIN_MR_REMOTE ? remote_source_type(p, v) :
	       v->mr_type;
	if (kind == KBIN_MR_PTR || kind == KBIN_MR_LIST ||
	    kind == KBIN_MR_PTR_TABLE || kind == KBIN_MR_REMOTE ||
	    kind == KBIN_MR_INVALID)
		fail("DMA var without storage", s, i, sd->var_id);
	if (!sd->num_dims || sd->num_dims > 4 || sd->steps[0] != 1)
		fail("DMA dims", s, i, sd->num_dims);
	ext = sd->offset;
	for (k = 0; k < sd->num_dims; k++) {
		if (!sd->sizes[k])
			fail("DMA size 0", s, i, k);
		ext += (unsigned __int128)(sd->sizes[k] - 1) * sd->steps[k];
		if (k)
			runs *= sd->sizes[k];
	}
	if (ext + 1 > v->size)
		fail("DMA extent within the var", s, i, (uint64_t)ext);
	if (kind != KBIN_MR_SB || g->sbuf_partition_size >= st || runs > 4096)
		return;
	for (;;) {
		uint64_t a = sd->offset;

		for (k = 1; k < sd->num_dims; k++)
			a += idx[k] * sd->steps[k];
		if (a / st >= g->sbuf_partitions ||
		    a % st + sd->sizes[0] > g->sbuf_partition_size)
			fail("DMA SBUF run inside one partition", s, i, a);
		for (k = 1; k < sd->num_dims; k++) {
			if (++idx[k] < sd->sizes[k])
				break;
			idx[k] = 0;
		}
		if (k == sd->num_dims)
			return;
	}
}

/*
 * Block @j of queue @k of subgraph @s (DMA ranges @e): its queue, id and
 * semaphore, and each of its descriptors (in @dt) with both sides.
 */
static void verify_block(const uint8_t *p, const struct kbin_gen *g,
			 const struct kbin_mem_ref_set *set,
			 const struct kbin_dma_sg *e, const struct kbin_dma_queue *q,
			 const struct kbin_dma_block *b, const struct kbin_dma_desc *dt,
			 uint32_t s, uint32_t k, uint32_t j)
{
	const uint32_t *sems = (const void *)(p + q->semaphores);
	uint32_t i;

	if (b->queue != k || b->id != j)
		fail("DMA block queue and id", s, j, b->id);
	if (b->sem_index >= q->num_semaphores ||
	    sems[b->sem_index] != b->semaphore)
		fail("DMA block semaphore", s, j, b->semaphore);
	if (!inside(b->first_desc, b->num_descs, e->first_desc,
		    (uint64_t)e->first_desc + e->num_descs))
		fail("DMA block descriptors", s, j, b->first_desc);
	for (i = 0; i < b->num_descs; i++) {
		const struct kbin_dma_desc *dd = &dt[b->first_desc + i];

		if (!dd->op || dd->op > KBIN_DMA_OP_MAX)
			fail("DMA op", s, i, dd->op);
		verify_side(p, g, &dd->from, set, s, i);
		verify_side(p, g, &dd->to, set, s, i);
	}
}

/* the DMA section of an accepted version 2 plan, re-verified */
static void verify_dma(const uint8_t *p, size_t n)
{
	const struct kbin_header *h = (const void *)p;
	const struct kbin_header_ext *x = (const void *)(h + 1);
	const struct kbin_subgraph *sgt = (const void *)(p + h->subgraph_table_off);
	const struct kbin_dma_section *d;
	const struct kbin_dma_queue *qt;
	const struct kbin_dma_block *bt;
	const struct kbin_dma_desc *dt;
	const struct kbin_gen *g = kbin_gen_target(h->target_gen);
	uint64_t want;
	uint32_t s, k, j;

	if (h->version < 2 || !x->dma_off)
		return;
	if (!inside(x->dma_off, x->dma_size, KBIN_HEADER_SIZE, h->data_off) ||
	    x->dma_off % 8 || x->dma_size < sizeof(*d))
		fail("DMA section bounds", 0, 0, x->dma_off);
	d = (const void *)(p + x->dma_off);
	want = sizeof(*d) + (uint64_t)h->num_subgraphs * sizeof(d->sg[0]) +
	       (uint64_t)d->num_queues * sizeof(*qt) +
	       (uint64_t)d->num_blocks * sizeof(*bt) +
	       (uint64_t)d->num_descs * sizeof(*dt);
	if (want != x->dma_size)
		fail("DMA section size", 0, 0, x->dma_size);
	qt = (const void *)(d->sg + h->num_subgraphs);
	bt = (const void *)(qt + d->num_queues);
	dt = (const void *)(bt + d->num_blocks);
	for (s = 0; s < h->num_subgraphs; s++) {
		const struct kbin_dma_sg *e = &d->sg[s];
		const struct kbin_mem_ref_set *set = (const void *)(p + sgt[s].set_off);

		if ((uint64_t)e->first_queue + e->num_queues > d->num_queues ||
		    (uint64_t)e->first_block + e->num_blocks > d->num_blocks ||
		    (uint64_t)e->first_desc + e->num_descs > d->num_descs)
			fail("DMA subgraph ranges", s, 0, e->first_queue);
		for (k = 0; k < e->num_queues; k++) {
			const struct kbin_dma_queue *q = &qt[e->first_queue + k];

			if (!inside(q->name, 1, h->data_off, n) ||
			    !memchr(p + q->name, 0, n - q->name))
				fail("DMA queue name", s, k, q->name);
			if (q->num_semaphores &&
			    !inside(q->semaphores, 4ULL * q->num_semaphores, h->data_off, n))
				fail("DMA semaphore set", s, k, q->semaphores);
			if (!inside(q->first_block, q->num_blocks, e->first_block,
				    (uint64_t)e->first_block + e->num_blocks))
				fail("DMA queue blocks", s, k, q->first_block);
			for (j = 0; j < q->num_blocks; j++)
				verify_block(p, g, set, e, q, &bt[q->first_block + j],
					     dt, s, k, j);
		}
	}
}

static void verify_accepted(const uint8_t *p, size_t n)
{
	const struct kbin_header *h = (const void *)p;
	const struct kbin_subgraph *sgt;
	uint32_t s, i, k;

	if (h->total_size != n || !h->num_subgraphs ||
	    h->num_subgraphs > KBIN_MAX_SUBGRAPHS)
		fail("header sizes", 0, 0, h->total_size);
	if (h->data_off > n || h->data_size != n - h->data_off)
		fail("data area", 0, 0, h->data_off);
	if (!inside(h->subgraph_table_off,
		    (uint64_t)h->num_subgraphs * sizeof(*sgt), sizeof(*h),
		    h->data_off))
		fail("subgraph table bounds", 0, 0, h->subgraph_table_off);
	sgt = (const void *)(p + h->subgraph_table_off);
	for (s = 0; s < h->num_subgraphs; s++) {
		const struct kbin_mem_ref_set *set;

		if (!inside(sgt[s].set_off, sizeof(*set), sizeof(*h), h->data_off) ||
		    !inside(sgt[s].set_off, sgt[s].set_size, sizeof(*h), h->data_off))
			fail("set bounds", s, 0, sgt[s].set_off);
		set = (const void *)(p + sgt[s].set_off);
		if (sgt[s].set_size != sizeof(*set) +
		    (uint64_t)set->nmem * sizeof(struct kbin_mem_ref))
			fail("set size", s, 0, sgt[s].set_size);
		if (sgt[s].num_carveouts > KBIN_MAX_CARVEOUTS)
			fail("carve-out count", s, 0, sgt[s].num_carveouts);
		if (!memchr(sgt[s].name, '\0', sizeof(sgt[s].name)) || !sgt[s].name[0])
			fail("subgraph name", s, 0, 0);
		for (i = 0; i < set->nmem; i++) {
			const struct kbin_mem_ref *r = &set->mem[i];

			if (r->var_id != i)
				fail("dense var_id", s, i, r->var_id);
			if (!r->mr_type || r->mr_type > KBIN_MR_TYPE_MAX)
				fail("mr_type", s, i, r->mr_type);
			if (!r->alignment || (r->alignment & (r->alignment - 1)) ||
			    r->alignment > KBIN_MAX_ALIGNMENT)
				fail("alignment", s, i, r->alignment);
			if (!inside(r->name, 1, h->data_off, n) ||
			    !memchr(p + r->name, '\0', n - r->name))
				fail("name bounds", s, i, r->name);
			if (r->buffer &&
			    (!inside(r->buffer, r->size, h->data_off + 16, n) ||
			     ((const struct kbin_payload_hdr *)(p + r->buffer) - 1)->length != r->size))
				fail("payload", s, i, r->buffer);
			if (r->mr_type == KBIN_MR_BUFFER_STAGED && !r->buffer)
				fail("staged payload present", s, i, 0);
			if (r->dtensor_md &&
			    !inside(r->dtensor_md, sizeof(struct kbin_debug_tensor_md),
				    h->data_off, n))
				fail("dtensor_md bounds", s, i, r->dtensor_md);
			if (r->mr_type == KBIN_MR_LIST || r->mr_type == KBIN_MR_PTR_TABLE) {
				const uint32_t *l;

				if (!r->list.length || r->list.length > KBIN_MAX_LIST ||
				    !inside(r->list.list, 4ULL * r->list.length,
					    h->data_off, n))
					fail("list bounds", s, i, r->list.list);
				l = (const void *)(p + r->list.list);
				for (k = 0; k < r->list.length; k++)
					if (l[k] >= set->nmem)
						fail("list entry", s, i, l[k]);
			}
			if (r->mr_type == KBIN_MR_PTR &&
			    (r->pointer.referenced_var_id >= set->nmem ||
			     r->pointer.referenced_var_id == i))
				fail("pointer target", s, i,
				     r->pointer.referenced_var_id);
			if (r->mr_type == KBIN_MR_REMOTE) {
				uint32_t rs = r->remote.remote_vtpb_rel_sg_id;
				const struct kbin_mem_ref_set *rset;

				if (rs >= h->num_subgraphs)
					fail("remote subgraph", s, i, rs);
				rset = (const void *)(p + sgt[rs].set_off);
				if (r->remote.remote_var_id >= rset->nmem)
					fail("remote var", s, i, r->remote.remote_var_id);
				if (rset->mem[r->remote.remote_var_id].mr_type == KBIN_MR_REMOTE)
					fail("remote chain", s, i, rs);
			}
			if (r->mr_type == KBIN_MR_VIRTUAL_TMP_BUF &&
			    r->virt.backing_buf > KBIN_BACKING_BUF_MAX)
				fail("backing_buf", s, i, r->virt.backing_buf);
		}
	}
	verify_dma(p, n);
}

static void fuzz_one(uint8_t *p, size_t n)
{
	struct kbin_check_result res;
	struct kbin_view v;
	unsigned int r;

	r = kbin_check_plan(p, n, &res);
	if (r >= KBIN_ERR_CHECK_MAX || r != res.err.reason ||
	    !memchr(res.err.msg, '\0', sizeof(res.err.msg)) || (r && !res.err.msg[0]))
		fail("checker result", 0, 0, r);
	if (r)
		return;
	verify_accepted(p, n);
	if (kbin_read(p, n, &v, &res))
		fail("reader opens what the checker accepts", 0, 0, res.err.reason);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_exact_copy(data, size, fuzz_one);
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max,
			       unsigned int seed)
{
	return fuzz_kbin_mutate(data, size, max, seed, kbin_mutate);
}
