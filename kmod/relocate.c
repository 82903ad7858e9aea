// SPDX-License-Identifier: GPL-2.0
/*
 * relocate.c - the last stage of LOAD before the model is published: the
 * DMA programs of a staged plan become UDMA descriptors in rings in HBM
 * (Documentation/relocation.rst, "Relocation at LOAD").
 *
 * Per subgraph, all-or-nothing (a failure leaves the partial work for
 * nrsim_unrelocate(), which nrsim_model_free() calls):
 *
 *   1. the kernel keeps, per queue, its name, type, owner, block and
 *      descriptor ranges, and per descriptor its two access patterns and
 *      where its UDMA descriptors start (struct nrsim_dma_desc, 144 bytes);
 *   2. each side of each descriptor is checked against the variable it
 *      names through the resolve core (resolve_core.h): a variable with
 *      device bytes (kbin_dma_var_rule(): a storage kind or an MR_REMOTE,
 *      which staging gave its remote variable's address; not MR_PTR,
 *      MR_LIST, MR_PTR_TABLE), staged, and the whole extent of the
 *      pattern inside it (on the state buffer, or a remote one, also
 *      every run inside one partition: the SBUF rules of kbin_dma.h);
 *      its pieces are counted, against max_udma_descs for the whole
 *      load, and its bytes, against max_run_bytes for the queue's run;
 *   3. each queue side gets its rings, as many as dma_ring_max_descs
 *      requires, each one HBM allocation on the subgraph's channel
 *      charged to DMA_RING: a submission ring and a completion ring of as
 *      many 16-byte entries (zero), sized up to UDMA_RING_GRANULE_DESCS;
 *   4. each side is walked row of runs by row (kbin_dma_walk_row()),
 *      every piece, physical_address + offset (the resolve rule's sum;
 *      step 2 did its tests for the whole side), written as one union
 *      udma_desc in place in the ring's backing page: FIRST on a block's
 *      first, LAST and INT_EN on its last.
 *
 * Nothing here allocates per piece; the walk is killable and reschedules
 * once per ring page (256 descriptors).  DMA_INFO, which reports the
 * relocated queues and their rings, is here too (ioctl.c dispatches to
 * it).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/stdarg.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "kbin_dma.h"
#include "kbin_prog.h"
#include "nrsim.h"

static_assert(sizeof(union udma_desc) == UDMA_DESC_SIZE);
static_assert(UDMA_DESC_FIRST == BIT(26) && UDMA_DESC_LAST == BIT(27));
static_assert(UDMA_DESC_INT_EN == BIT(28) && UDMA_DESC_DMB == BIT(30));
static_assert(sizeof(struct nrsim_dma_desc) == 144);
static_assert(UDMA_RING_LOADER_MAX_DESCS <= UDMA_RING_MAX_DESCS);
static_assert(UDMA_RING_GRANULE_DESCS * UDMA_DESC_SIZE * 2 == NRSIM_HBM_GRANULE);

/**
 * struct nrsim_reloc - one relocation in progress.
 * @nd: the device.
 * @m: the staged model.
 * @plan: the checked plan.
 * @sec: its DMA section.
 * @queues: the section's queue table.
 * @blocks: its block table.
 * @descs: its descriptor table.
 * @err: failure report.
 * @cursor: where the rings' HBM allocations start looking (hbm.c).
 * @ring_max: descriptors per ring (dma_ring_max_descs, checked).
 * @max_descs: max_udma_descs as the load started.
 * @max_run_bytes: max_run_bytes as the load started.
 */
struct nrsim_reloc {
	struct nrsim_device *nd;
	struct nrsim_model *m;
	const u8 *plan;
	const struct kbin_dma_section *sec;
	const struct kbin_dma_queue *queues;
	const struct kbin_dma_block *blocks;
	const struct kbin_dma_desc *descs;
	struct kbin_err *err;
	struct nrsim_hbm_cursor cursor;
	u32 ring_max;
	u32 max_descs;
	u64 max_run_bytes;
};

/**
 * struct nrsim_reloc_at - what a failure is about.
 * @s: subgraph.
 * @q: queue index in the subgraph, or -1.
 * @d: descriptor index in the subgraph, or -1.
 * @dir: enum nrsim_dma_dir of the side, or -1.
 */
struct nrsim_reloc_at {
	int s;
	int q;
	long long d;
	int dir;
};

static __printf(6, 7)
int nrsim_reloc_fail(struct nrsim_reloc *r, const struct nrsim_reloc_at *at,
		     u32 reason, u64 value, int errno, const char *fmt, ...)
{
	const struct nrsim_sg *sg = &r->m->sg[at->s];
	const struct nrsim_dma *dma = &sg->dma;
	struct kbin_err *e = r->err;
	size_t n, sz = sizeof(e->msg);
	va_list ap;

	e->subgraph = at->s;
	e->record = -1;
	e->field = KBIN_FIELD_DMA_QUEUE;
	e->reason = reason;
	e->value = value;
	n = scnprintf(e->msg, sz, "sg %d (%s)", at->s, sg->name);
	if (at->q >= 0)
		n += scnprintf(e->msg + n, sz - n, " dma queue %d '%s'", at->q,
			       dma->names + dma->queues[at->q].name_off);
	if (at->q >= 0 && at->d >= 0) {
		const struct nrsim_dma_desc *dd = &dma->descs[at->d];

		e->field = KBIN_FIELD_DMA_DESC;
		n += scnprintf(e->msg + n, sz - n, " block %u descriptor %u",
			       dd->block - dma->queues[at->q].first_block,
			       dd->index);
		if (at->dir >= 0) {
			u32 var = dd->side[at->dir].var_id;
			const struct nrsim_mr *mr = nrsim_sg_find(sg, var);

			e->field = at->dir == NRSIM_DMA_M2S ? KBIN_FIELD_DMA_FROM :
				   KBIN_FIELD_DMA_TO;
			e->record = var;
			n += scnprintf(e->msg + n, sz - n, " %s (%s) var %u",
				       at->dir == NRSIM_DMA_M2S ? "from" : "to",
				       kbin_dma_side_str(at->dir), var);
			if (mr)
				n += scnprintf(e->msg + n, sz - n, " '%s' (%s)",
					       sg->names + sg->cold[var].name_off,
					       kbin_mr_type_str(mr->type));
		}
	}
	n += scnprintf(e->msg + n, sz - n, ": %s: ", kbin_reason_str(reason));
	va_start(ap, fmt);
	n += vscnprintf(e->msg + n, sz - n, fmt, ap);
	va_end(ap);
	scnprintf(e->msg + n, sz - n, " [field %s, value %llu]",
		  kbin_field_str(e->field), value);
	return errno;
}

/* an injected failure of one relocation step (fail_reloc_nth) */
static int nrsim_reloc_fault(struct nrsim_reloc *r,
			     const struct nrsim_reloc_at *at, const char *what)
{
	if (!nrsim_fault_hit(&r->nd->fault.reloc_nth))
		return 0;
	return nrsim_reloc_fail(r, at, KBIN_ERR_STAGE_FAULT, 0, -EIO,
			       "%s failed (injected by fail_reloc_nth)", what);
}

/*
 * Step 2 for one side: the variable through the resolve core, the whole
 * extent inside it; *@pieces its UDMA descriptors, *@bytes its bytes.  An MR_REMOTE was
 * given its remote variable's physical_address by staging (the funnel
 * RESOLVE uses): it is bounded by its own record's size, and by the SBUF
 * rules when its remote variable is a state buffer (the PSUM rules when
 * it is a PSUM variable).
 */
static int nrsim_reloc_side(struct nrsim_reloc *r, const struct nrsim_reloc_at *at,
			    const struct nrsim_sg *sg,
			   const struct kbin_dma_side *sd, u64 *pieces, u64 *bytes)
{
	const struct nrsim_mr *mr = nrsim_sg_find(sg, sd->var_id), *src;
	struct kbin_dma_pat p;
	struct kbin_dma_sb sb;
	u64 addr;
	int ret;

	if (!mr)
		return nrsim_reloc_fail(r, at, KBIN_ERR_RELOC_VAR, sd->var_id,
				       -EINVAL, "var_id %u names no variable",
				       sd->var_id);
	if (kbin_dma_var_rule(mr->type))
		return nrsim_reloc_fail(r, at, KBIN_ERR_RELOC_VAR, mr->type,
				       -EINVAL, "%s has no device bytes of its own to move (%s)",
				       kbin_mr_type_str(mr->type),
				       kbin_dma_var_why(mr->type));
	src = mr;
	if (kbin_kind(mr->type)->storage == KBIN_STORAGE_REMOTE) {
		src = mr->aux < r->m->num_sg ?
		      nrsim_sg_find(&r->m->sg[mr->aux], mr->aux2) : NULL;
		if (!src)
			return nrsim_reloc_fail(r, at, KBIN_ERR_RELOC_VAR, mr->aux2,
					       -EINVAL,
					       "remote variable %u of relative sg %u is not staged",
					       mr->aux2, mr->aux);
	}
	if (mr->pa == NRSIM_PA_UNSTAGED)
		return nrsim_reloc_fail(r, at, KBIN_ERR_RELOC_VAR, sd->var_id,
				       -EINVAL, "the variable is not staged");
	if (kbin_dma_pattern(sd, &p))
		return nrsim_reloc_fail(r, at, KBIN_ERR_RELOC_BOUNDS, sd->offset,
				       -EINVAL, "the access pattern overflows");
	/* the whole extent, through the resolve rule (SBUF: below) */
	if (src->type != KBIN_MR_SB)
		ret = nrsim_rc_addr(mr, sd->offset, p.extent - sd->offset, &addr);
	else
		ret = p.extent > mr->size ? -ERANGE : 0;
	if (ret)
		return nrsim_reloc_fail(r, at, KBIN_ERR_RELOC_BOUNDS, p.extent,
				       -EINVAL,
				       "offset %llu, extent %llu: past the variable's %llu bytes",
				       sd->offset, p.extent, mr->size);
	/*
	 * On the state buffer, every run inside one partition (the SBUF
	 * rules, with the device's geometry, which stage.c gave the mem_ref):
	 * then every piece nrsim_rc_addr() would resolve does, and step 4
	 * adds physical_address without a test per piece.
	 */
	if (src->type == KBIN_MR_SB &&
	    kbin_dma_sbuf(r->nd->arch, sd, p.extent, &sb))
		return nrsim_reloc_fail(r, at, KBIN_ERR_RELOC_BOUNDS, sb.byte,
				       -EINVAL,
				       "offset %llu: a run at byte %llu of SBUF partition %llu ends at byte %llu, in the gap past the %u-byte partition",
				       sd->offset, sb.byte, sb.partition, sb.end,
				       r->nd->arch->sbuf_partition_size);
	/* on PSUM, every run inside one PSUM partition (the PSUM rules) */
	if (kbin_kind(src->type)->storage == KBIN_STORAGE_PSUM &&
	    kbin_dma_psum(r->nd->arch, sd, p.extent, &sb))
		return nrsim_reloc_fail(r, at, KBIN_ERR_RELOC_BOUNDS, sb.byte,
				       -EINVAL,
				       "offset %llu: a run at byte %llu of PSUM partition %llu ends at byte %llu, past the %u-byte partition",
				       sd->offset, sb.byte, sb.partition, sb.end,
				       kbin_gen_psum_partition_size(r->nd->arch));
	*pieces = p.pieces;
	*bytes = p.bytes;
	return 0;
}

/*
 * Step 1 for the engine: a descriptor's op and element types.  A cast's
 * UDMA pieces must start and end on element boundaries on both sides, so
 * the engine converts whole elements piece by piece: every run holds
 * whole elements (the checker's cast rule) and a piece is cut at a
 * multiple of KBIN_DMA_PIECE_MAX, a multiple of every element size.
 */
static int nrsim_reloc_op(struct nrsim_reloc *r, const struct nrsim_reloc_at *at,
			  const struct kbin_dma_desc *kd, struct nrsim_dma_op *op)
{
	const struct kbin_dma_dtype_info *ft = kbin_dma_dtype(kd->from.dtype);
	const struct kbin_dma_dtype_info *tt = kbin_dma_dtype(kd->to.dtype);

	op->op = kd->op;
	op->from_dtype = kd->from.dtype;
	op->to_dtype = kd->to.dtype;
	op->transpose_elem_size = kd->transpose_elem_size;
	memcpy(op->transpose_op, kd->transpose_op, sizeof(op->transpose_op));
	memcpy(op->transpose_shape, kd->transpose_shape,
	       sizeof(op->transpose_shape));
	if (kd->op == KBIN_DMA_OP_CAST &&
	    (!ft || !tt || kd->from.sizes[0] % ft->size ||
	     kd->to.sizes[0] % tt->size || KBIN_DMA_PIECE_MAX % ft->size ||
	     KBIN_DMA_PIECE_MAX % tt->size))
		return nrsim_reloc_fail(r, at, KBIN_ERR_DMA_CAST_SIZE,
				       kd->from.sizes[0], -EINVAL,
				       "cast %s to %s: a UDMA piece would split an element",
				       kbin_dma_dtype_str(kd->from.dtype),
				       kbin_dma_dtype_str(kd->to.dtype));
	return 0;
}

/*
 * Step 2's bound of a queue's run: *@total, the bytes one run of the
 * queue reads (or writes) up to this descriptor side, grows by @bytes and
 * must stay within max_run_bytes (Documentation/dma.rst, "Limits").
 */
static int nrsim_reloc_run_bytes(struct nrsim_reloc *r,
				 const struct nrsim_reloc_at *at, u64 *total,
				u64 bytes)
{
	if (check_add_overflow(*total, bytes, total))
		*total = U64_MAX;
	if (*total <= r->max_run_bytes)
		return 0;
	return nrsim_reloc_fail(r, at, KBIN_ERR_STAGE_LIMIT, *total, -E2BIG,
			       "one run of the queue would %s %llu bytes with this descriptor's %llu, above max_run_bytes %llu",
			       at->dir == NRSIM_DMA_M2S ? "read" : "write", *total,
			       bytes, r->max_run_bytes);
}

/* Steps 1 and 2: the queues and descriptors of subgraph @s, counted. */
static int nrsim_reloc_count(struct nrsim_reloc *r, u32 s)
{
	const struct kbin_dma_sg *e = &r->sec->sg[s];
	struct nrsim_sg *sg = &r->m->sg[s];
	struct nrsim_dma *dma = &sg->dma;
	struct nrsim_reloc_at at = { .s = s, .q = -1, .d = -1, .dir = -1 };
	/* sems: at most KBIN_MAX_LIST, the checker's bound of a subgraph's sets */
	u32 qi, bj, j, dir, di = 0, name_off = 0, rings = 0, sems = 0;
	u64 pieces, bytes, qbytes[NRSIM_DMA_DIRS];
	size_t names = 0;
	int ret;

	if (!e->num_queues)
		return 0;
	for (qi = 0; qi < e->num_queues; qi++)
		names += strlen(r->plan + r->queues[e->first_queue + qi].name) + 1;
	ret = nrsim_reloc_fault(r, &at, "kernel memory for the DMA program");
	if (ret)
		return ret;
	for (qi = 0; qi < e->num_queues; qi++)
		sems += r->queues[e->first_queue + qi].num_semaphores;
	dma->queues = nrsim_kvcalloc(r->m, e->num_queues, sizeof(*dma->queues));
	dma->descs = nrsim_kvcalloc(r->m, e->num_descs, sizeof(*dma->descs));
	dma->names = nrsim_kvcalloc(r->m, names, 1);
	/* the engine's tables (engine.c) */
	dma->ops = nrsim_kvcalloc(r->m, e->num_descs, sizeof(*dma->ops));
	dma->blocks = nrsim_kvcalloc(r->m, e->num_blocks, sizeof(*dma->blocks));
	dma->qrun = nrsim_kvcalloc(r->m, e->num_queues, sizeof(*dma->qrun));
	dma->sem_ids = nrsim_kvcalloc(r->m, sems, sizeof(u32));
	dma->sem_vals = nrsim_kvcalloc(r->m, sems, sizeof(u32));
	if (!dma->queues || !dma->descs || !dma->names || !dma->ops ||
	    !dma->blocks || !dma->qrun || !dma->sem_ids || !dma->sem_vals)
		return nrsim_reloc_fail(r, &at, KBIN_ERR_STAGE_NOMEM, e->num_descs,
				       -ENOMEM,
				       "no kernel memory for %u DMA queues and %u descriptors",
				       e->num_queues, e->num_descs);
	dma->num_queues = e->num_queues;
	dma->num_blocks = e->num_blocks;
	dma->num_descs = e->num_descs;
	dma->num_sems = sems;
	sems = 0;

	for (qi = 0; qi < e->num_queues; qi++) {
		const struct kbin_dma_queue *kq = &r->queues[e->first_queue + qi];
		struct nrsim_dma_queue *q = &dma->queues[qi];
		const char *name = r->plan + kq->name;

		at.q = qi;
		memcpy(dma->names + name_off, name, strlen(name) + 1);
		q->name_off = name_off;
		name_off += strlen(name) + 1;
		q->type = kq->type;
		q->owner = kq->owner;
		q->num_queues = kq->num_queues;
		q->nd = r->nd;
		q->sg = sg;
		q->first_block = kq->first_block - e->first_block;
		q->num_blocks = kq->num_blocks;
		q->first_desc = di;
		q->first_sem = sems;
		q->num_sems = kq->num_semaphores;
		if (kq->num_semaphores)
			memcpy(dma->sem_ids + sems, r->plan + kq->semaphores,
			       kq->num_semaphores * sizeof(u32));
		sems += kq->num_semaphores;
		qbytes[NRSIM_DMA_M2S] = 0;
		qbytes[NRSIM_DMA_S2M] = 0;
		for (bj = 0; bj < kq->num_blocks; bj++) {
			const struct kbin_dma_block *kb = &r->blocks[kq->first_block + bj];
			struct nrsim_dma_block *nb = &dma->blocks[q->first_block + bj];

			nb->semaphore = kb->semaphore;
			nb->sem_index = kb->sem_index;
			nb->queue = qi;
			nb->first_desc = di;
			nb->num_descs = kb->num_descs;
			/* the cost model's figures (Documentation/execute.rst) */
			nb->bytes = kbin_prog_block_bytes(&r->descs[kb->first_desc],
							  kb->num_descs);
			nb->ns = kbin_prog_block_ns(r->nd->arch, nb->bytes);

			for (j = 0; j < kb->num_descs; j++, di++) {
				const struct kbin_dma_desc *kd = &r->descs[kb->first_desc + j];
				struct nrsim_dma_desc *dd = &dma->descs[di];

				dd->side[NRSIM_DMA_M2S] = kd->from;
				dd->side[NRSIM_DMA_S2M] = kd->to;
				dd->block = q->first_block + bj;
				dd->index = j;
				at.d = di;
				ret = nrsim_reloc_op(r, &at, kd, &dma->ops[di]);
				if (ret)
					return ret;
				for (dir = 0; dir < NRSIM_DMA_DIRS; dir++) {
					at.dir = dir;
					ret = nrsim_reloc_side(r, &at, sg, &dd->side[dir],
							       &pieces, &bytes);
					if (ret)
						return ret;
					ret = nrsim_reloc_run_bytes(r, &at, &qbytes[dir],
								    bytes);
					if (ret)
						return ret;
					if (pieces > r->max_descs - r->m->udma_descs)
						return nrsim_reloc_fail(r, &at,
								       KBIN_ERR_STAGE_LIMIT,
								       r->m->udma_descs + pieces,
								       -E2BIG,
								       "the load's UDMA descriptors would reach %llu, above max_udma_descs %u",
								       r->m->udma_descs + pieces,
								       r->max_descs);
					dd->first[dir] = q->count[dir];
					q->count[dir] += pieces;
					r->m->udma_descs += pieces;
				}
				at.dir = -1;
				at.d = -1;
				if (!(di & 1023))
					cond_resched();
			}
		}
		q->num_descs = di - q->first_desc;
		for (dir = 0; dir < NRSIM_DMA_DIRS; dir++) {
			q->first_ring[dir] = rings;
			q->num_rings[dir] = kbin_udma_rings(q->count[dir], r->ring_max);
			rings += q->num_rings[dir];
		}
	}
	at.q = -1;
	dma->rings = nrsim_kvcalloc(r->m, rings, sizeof(*dma->rings));
	if (!dma->rings)
		return nrsim_reloc_fail(r, &at, KBIN_ERR_STAGE_NOMEM, rings, -ENOMEM,
				       "no kernel memory for %u UDMA rings", rings);
	dma->num_rings = rings;
	return 0;
}

/* Step 3: the rings of queue @qi, each its own DMA_RING allocation. */
static int nrsim_reloc_rings(struct nrsim_reloc *r, u32 s, u32 qi)
{
	struct nrsim_sg *sg = &r->m->sg[s];
	struct nrsim_dma *dma = &sg->dma;
	struct nrsim_dma_queue *q = &dma->queues[qi];
	struct nrsim_reloc_at at = { .s = s, .q = qi, .d = -1, .dir = -1 };
	u32 dir, k;
	int ret;

	for (dir = 0; dir < NRSIM_DMA_DIRS; dir++) {
		for (k = 0; k < q->num_rings[dir]; k++) {
			struct nrsim_dma_ring *ring = &dma->rings[q->first_ring[dir] + k];
			u64 bytes;

			/* sized as kbin_mem_walk() sizes it (kbin_memory.h) */
			ring->first = k * r->ring_max;
			ring->count = kbin_udma_ring_count(q->count[dir], r->ring_max, k);
			ring->entries = kbin_udma_ring_entries(ring->count);
			bytes = kbin_udma_ring_bytes(ring->entries);
			ret = nrsim_reloc_fault(r, &at, "UDMA ring allocation");
			if (ret)
				return ret;
			ring->addr = nrsim_hbm_alloc(r->nd, sg->core, bytes,
						     UDMA_RING_ALIGN,
						    KBIN_USAGE_DMA_RING, &r->cursor);
			if (!ring->addr)
				return nrsim_reloc_fail(r, &at, KBIN_ERR_STAGE_HBM, bytes,
						       -ENOSPC,
						       "HBM channel %u has no %llu bytes for %s ring %u of %u descriptors (%llu bytes free)",
						       sg->channel, bytes,
						       kbin_dma_side_str(dir), k,
						       ring->entries,
						       nrsim_hbm_avail(r->nd, sg->channel));
			q->ring_bytes += bytes;
			dma->ring_bytes += bytes;
			r->m->dma_ring_bytes += bytes;
			r->m->hbm_bytes += bytes;
		}
	}
	return 0;
}

/**
 * nrsim_dma_desc_count() - the UDMA descriptors of one side of a
 *	descriptor: from its first to the next descriptor's first.
 * @dma: the subgraph's DMA program.
 * @q: the descriptor's queue.
 * @d: the descriptor's index in the subgraph.
 * @dir: enum nrsim_dma_dir.
 *
 * Return: the count (its side's pieces).
 */
u32 nrsim_dma_desc_count(const struct nrsim_dma *dma,
			 const struct nrsim_dma_queue *q, u32 d, u32 dir)
{
	u32 next = d + 1 < q->first_desc + q->num_descs ?
		   dma->descs[d + 1].first[dir] : q->count[dir];

	return next - dma->descs[d].first[dir];
}

/**
 * struct nrsim_ring_out - where step 4 writes the next UDMA descriptor of
 *	a queue side: straight into the backing page of its ring.
 * @p: the next entry.
 * @end: past the last entry of the page (or of the ring) mapped now.
 * @start: the first entry mapped now.
 * @start_idx: the index of @start among the queue side's descriptors.
 * @prev: the last entry of the page before, for a descriptor whose last
 *	piece ended it.
 * @ring: the ring @p is in.
 * @total: the queue side's descriptors.
 */
struct nrsim_ring_out {
	union udma_desc *p;
	union udma_desc *end;
	union udma_desc *start;
	u32 start_idx;
	union udma_desc *prev;
	const struct nrsim_dma_ring *ring;
	u32 total;
};

/* map the ring page of descriptor @idx: @o->start .. @o->end */
static int nrsim_reloc_map(struct nrsim_reloc *r, const struct nrsim_reloc_at *at,
			   struct nrsim_ring_out *o, u32 idx)
{
	const struct nrsim_dma_ring *ring = o->ring;
	u64 addr = ring->addr + (u64)(idx - ring->first) * UDMA_DESC_SIZE;
	u32 room = min_t(u32, (PAGE_SIZE - (addr & (PAGE_SIZE - 1))) / UDMA_DESC_SIZE,
			 ring->first + ring->count - idx);
	void *va = nrsim_mem_map(&r->nd->mem, addr);
	char cap[160];

	if (IS_ERR(va) && PTR_ERR(va) == -EDQUOT)
		return nrsim_reloc_fail(r, at, KBIN_ERR_STAGE_BACKING,
				       (u64)room * UDMA_DESC_SIZE, -ENOMEM,
				       "UDMA ring write: %s",
				       nrsim_mem_cap_str(&r->nd->mem, cap,
							 sizeof(cap)));
	if (IS_ERR(va))
		return nrsim_reloc_fail(r, at, KBIN_ERR_STAGE_NOMEM,
				       (u64)room * UDMA_DESC_SIZE, -ENOMEM,
				       "UDMA ring write: out of kernel memory");
	o->start = va;
	o->p = va;
	o->end = o->start + room;
	o->start_idx = idx;
	return 0;
}

/*
 * The mapped entries are written: the end of a ring (fail_reloc_nth's
 * "UDMA ring write"), a fatal signal, a reschedule, the next page when
 * descriptors are left.
 */
static int nrsim_reloc_page(struct nrsim_reloc *r, const struct nrsim_reloc_at *at,
			    struct nrsim_ring_out *o)
{
	u32 idx = o->start_idx + (u32)(o->p - o->start);
	int ret;

	o->prev = o->p - 1;
	if (idx == o->ring->first + o->ring->count) {
		ret = nrsim_reloc_fault(r, at, "UDMA ring write");
		if (ret)
			return ret;
		o->ring++;
	}
	if (idx == o->total)
		return 0;
	if (fatal_signal_pending(current))
		return nrsim_reloc_fail(r, at, KBIN_ERR_STAGE_LIMIT, idx, -EINTR,
				       "interrupted by a fatal signal");
	cond_resched();
	return nrsim_reloc_map(r, at, o, idx);
}

/* a run longer than a piece: its pieces, front to back */
static int nrsim_reloc_long(struct nrsim_reloc *r, const struct nrsim_reloc_at *at,
			    struct nrsim_ring_out *o, u64 addr, u32 len)
{
	u32 done, n;
	int ret;

	for (done = 0; done < len; done += n) {
		n = min(len - done, KBIN_DMA_PIECE_MAX);
		o->p->tx.len_ctrl = (__force u32)cpu_to_le32((n & UDMA_DESC_LEN_MASK) |
			(UDMA_RING_ID_INITIAL << UDMA_DESC_RING_ID_SHIFT));
		o->p->tx.meta_ctrl = 0;
		o->p->tx.buf_ptr = (__force u64)cpu_to_le64(addr + done);
		if (++o->p == o->end) {
			ret = nrsim_reloc_page(r, at, o);
			if (ret)
				return ret;
		}
	}
	return 0;
}

/*
 * Step 4: the pieces of side @dir of queue @qi into its rings, row by
 * row of runs (kbin_dma_walk_row()).  Step 2 checked every side whole
 * (the extent inside its variable, on the state buffer every run inside
 * a partition), so a piece's address is physical_address + offset, the
 * resolve rule's sum, without a test; the entries are written in place
 * in the rings' backing pages (nrsim_mem_map()), FIRST and LAST | INT_EN
 * set on a block's first and last entry afterwards.
 */
static int nrsim_reloc_fill(struct nrsim_reloc *r, u32 s, u32 qi, u32 dir)
{
	struct nrsim_sg *sg = &r->m->sg[s];
	struct nrsim_dma *dma = &sg->dma;
	struct nrsim_dma_queue *q = &dma->queues[qi];
	struct nrsim_reloc_at at = { .s = s, .q = qi, .d = q->first_desc, .dir = dir };
	struct nrsim_ring_out o = {
		.ring = &dma->rings[q->first_ring[dir]], .total = q->count[dir],
	};
	u32 d, end = q->first_desc + q->num_descs;
	int ret;

	ret = nrsim_reloc_map(r, &at, &o, 0);
	if (ret)
		return ret;
	for (d = q->first_desc; d < end; d++) {
		const struct nrsim_dma_desc *dd = &dma->descs[d];
		const struct kbin_dma_side *sd = &dd->side[dir];
		u64 pa = nrsim_sg_find(sg, sd->var_id)->pa, row, rstep;
		u32 len = sd->sizes[0], rn;
		union udma_desc *first = o.p, *last;
		struct kbin_dma_walk w;
		__le64 head;

		at.d = d;
		/* len_ctrl and the zero word after it, as one little-endian u64 */
		head = cpu_to_le64((len & UDMA_DESC_LEN_MASK) |
				   (UDMA_RING_ID_INITIAL << UDMA_DESC_RING_ID_SHIFT));
		kbin_dma_walk_init(&w, sd);
		while (kbin_dma_walk_row(&w, &row, &rn, &rstep)) {
			union udma_desc *p = o.p, *pend = o.end;
			u64 a = row + pa, step = rstep;
			u32 k = rn;

			if (unlikely(len > KBIN_DMA_PIECE_MAX)) {
				for (; k; k--, a += step) {
					ret = nrsim_reloc_long(r, &at, &o, a, len);
					if (ret)
						return ret;
				}
				continue;
			}
			do {
				/* both layouts: len_ctrl, a zero word, the address */
				*(__le64 *)p->raw = head;
				p->tx.buf_ptr = (__force u64)cpu_to_le64(a);
				a += step;
				if (unlikely(++p == pend)) {
					o.p = p;
					ret = nrsim_reloc_page(r, &at, &o);
					if (ret)
						return ret;
					p = o.p;
					pend = o.end;
				}
			} while (--k);
			o.p = p;
		}
		/* the descriptor's last entry: on this page or ending the last */
		last = o.p == o.start ? o.prev : o.p - 1;
		if (!dd->index)
			first->tx.len_ctrl |= (__force u32)cpu_to_le32(UDMA_DESC_FIRST);
		if (d + 1 == end || dma->descs[d + 1].block != dd->block)
			last->tx.len_ctrl |= (__force u32)cpu_to_le32(UDMA_DESC_LAST |
								       UDMA_DESC_INT_EN);
	}
	return 0;
}

/**
 * nrsim_relocate() - relocate the DMA programs of a staged model into UDMA
 *	rings (Documentation/relocation.rst, "Relocation at LOAD").
 * @m: the model, staged by nrsim_stage() and not published.
 * @plan: the plan, accepted by kbin_check_plan().
 * @len: its length in bytes.
 * @err: filled on failure: subgraph, record (the side's var_id), field
 *	(dma queue, dma descriptor, dma from, dma to), reason and text
 *	naming the subgraph, queue, block, descriptor, side and variable.
 *
 * A plan without a DMA section (version 1, or none written) relocates
 * nothing.  On failure the partial work is left for nrsim_unrelocate()
 * (nrsim_model_free() calls it).
 *
 * Return: 0; -EINVAL a side on a variable with no device bytes
 * (KBIN_ERR_RELOC_VAR) or outside its variable (KBIN_ERR_RELOC_BOUNDS);
 * -E2BIG UDMA descriptors above max_udma_descs, or a queue reading or
 * writing more than max_run_bytes in one run; -ENOSPC no HBM for a
 * ring; -ENOMEM kernel memory or the backing RAM cap; -EIO
 * fail_reloc_nth; -EINTR a fatal signal.
 */
int nrsim_relocate(struct nrsim_model *m, const void *plan, u64 len,
		   struct kbin_err *err)
{
	const struct kbin_header *h = plan;
	const struct kbin_header_ext *ext = plan + sizeof(*h);
	u64 t0 = ktime_get_ns(), kmem0 = m->kmem_bytes;
	struct kbin_dma_layout l;
	struct nrsim_reloc *r;
	u32 s, qi, dir;
	int ret = 0;

	if (h->version < 2 || !ext->dma_off)
		return 0;
	r = kzalloc(sizeof(*r), GFP_KERNEL_ACCOUNT);
	if (!r)
		goto err_nomem;
	r->nd = m->nd;
	r->m = m;
	r->plan = plan;
	r->err = err;
	r->sec = plan + ext->dma_off;
	kbin_dma_layout(h->num_subgraphs, r->sec->num_queues,
			r->sec->num_blocks, r->sec->num_descs, &l);
	r->queues = (const void *)r->sec + l.queues;
	r->blocks = (const void *)r->sec + l.blocks;
	r->descs = (const void *)r->sec + l.descs;
	r->ring_max = kbin_udma_ring_max(READ_ONCE(nrsim_dma_ring_max_descs));
	r->max_descs = READ_ONCE(nrsim_max_udma_descs);
	r->max_run_bytes = READ_ONCE(nrsim_max_run_bytes);

	for (s = 0; s < m->num_sg && !ret; s++) {
		ret = nrsim_reloc_count(r, s);
		for (qi = 0; !ret && qi < m->sg[s].dma.num_queues; qi++) {
			ret = nrsim_reloc_rings(r, s, qi);
			for (dir = 0; !ret && dir < NRSIM_DMA_DIRS; dir++)
				if (m->sg[s].dma.queues[qi].count[dir])
					ret = nrsim_reloc_fill(r, s, qi, dir);
		}
	}
	kfree(r);
	m->dma_kmem_bytes = m->kmem_bytes - kmem0;
	m->reloc_ns = ktime_get_ns() - t0;
	return ret;

err_nomem:
	err->subgraph = -1;
	err->record = -1;
	err->field = KBIN_FIELD_DMA_SECTION;
	err->reason = KBIN_ERR_STAGE_NOMEM;
	err->value = 0;
	scnprintf(err->msg, sizeof(err->msg), "%s: no kernel memory to relocate",
		  kbin_reason_str(KBIN_ERR_STAGE_NOMEM));
	return -ENOMEM;
}

/**
 * nrsim_unrelocate() - roll back nrsim_relocate(), complete or partial: the
 *	rings' HBM (and its backing) and the kernel arrays.
 * @m: the model (not published).
 */
void nrsim_unrelocate(struct nrsim_model *m)
{
	u32 s, i;

	for (s = 0; s < m->num_sg; s++) {
		struct nrsim_sg *sg = &m->sg[s];
		struct nrsim_dma *dma = &sg->dma;

		for (i = 0; i < dma->num_rings; i++)
			nrsim_hbm_free(m->nd, sg->core, dma->rings[i].addr,
				       kbin_udma_ring_bytes(dma->rings[i].entries),
				      KBIN_USAGE_DMA_RING);
		kvfree(dma->queues);
		kvfree(dma->descs);
		kvfree(dma->rings);
		kvfree(dma->names);
		kvfree(dma->ops);
		kvfree(dma->blocks);
		kvfree(dma->qrun);
		kvfree(dma->sem_ids);
		kvfree(dma->sem_vals);
		dma->ops = NULL;
		dma->blocks = NULL;
		dma->qrun = NULL;
		dma->sem_ids = NULL;
		dma->sem_vals = NULL;
		dma->num_sems = 0;
		dma->queues = NULL;
		dma->descs = NULL;
		dma->rings = NULL;
		dma->names = NULL;
		dma->num_queues = 0;
		dma->num_descs = 0;
		dma->num_blocks = 0;
		dma->num_rings = 0;
		dma->ring_bytes = 0;
	}
	m->dma_ring_bytes = 0;
	m->udma_descs = 0;
}

/**
 * nrsim_dma_desc_find() - the descriptor a UDMA descriptor came from.
 * @sg: the subgraph.
 * @q: one of its queues.
 * @dir: enum nrsim_dma_dir.
 * @idx: index of the UDMA descriptor among the queue side's, <
 *	@q->count[@dir].
 *
 * Binary search over the descriptors' first indexes: O(log descriptors).
 *
 * Return: the descriptor's index in the subgraph.
 */
u32 nrsim_dma_desc_find(const struct nrsim_sg *sg,
			const struct nrsim_dma_queue *q, u32 dir, u32 idx)
{
	u32 lo = q->first_desc, hi = q->first_desc + q->num_descs;

	/* the last descriptor whose first is <= idx */
	while (hi - lo > 1) {
		u32 mid = lo + (hi - lo) / 2;

		if (sg->dma.descs[mid].first[dir] <= idx)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/**
 * nrsim_dma_ring_locate() - where a queue side's UDMA descriptor is.
 * @sg: the subgraph.
 * @q: one of its queues.
 * @dir: enum nrsim_dma_dir.
 * @idx: index among the queue side's UDMA descriptors, < @q->count[@dir].
 * @addr: out: its device address in its submission ring.
 *
 * Return: the index of its ring among the queue side's.
 */
u32 nrsim_dma_ring_locate(const struct nrsim_sg *sg,
			  const struct nrsim_dma_queue *q, u32 dir, u32 idx,
			 u64 *addr)
{
	u32 k = 0;

	while (k + 1 < q->num_rings[dir] &&
	       sg->dma.rings[q->first_ring[dir] + k + 1].first <= idx)
		k++;
	*addr = sg->dma.rings[q->first_ring[dir] + k].addr +
		(u64)(idx - sg->dma.rings[q->first_ring[dir] + k].first) *
		UDMA_DESC_SIZE;
	return k;
}

/**
 * nrsim_dma_queue_fill() - the DMA_INFO summary of one relocated queue.
 * @sg: the subgraph.
 * @q: one of its queues.
 * @out: out: struct neuronsim_dma_queue_info (zeroed here first).
 */
static void nrsim_dma_queue_fill(const struct nrsim_sg *sg,
				 const struct nrsim_dma_queue *q,
				 struct neuronsim_dma_queue_info *out)
{
	memset(out, 0, sizeof(*out));
	strscpy(out->name, sg->dma.names + q->name_off, sizeof(out->name));
	out->type = q->type;
	out->owner = q->owner;
	out->num_blocks = q->num_blocks;
	out->num_descs = q->num_descs;
	out->m2s_descs = q->count[NRSIM_DMA_M2S];
	out->s2m_descs = q->count[NRSIM_DMA_S2M];
	out->m2s_rings = q->num_rings[NRSIM_DMA_M2S];
	out->s2m_rings = q->num_rings[NRSIM_DMA_S2M];
	if (q->num_rings[NRSIM_DMA_M2S])
		out->m2s_ring_addr = sg->dma.rings[q->first_ring[NRSIM_DMA_M2S]].addr;
	if (q->num_rings[NRSIM_DMA_S2M])
		out->s2m_ring_addr = sg->dma.rings[q->first_ring[NRSIM_DMA_S2M]].addr;
	out->ring_bytes = q->ring_bytes;
}

/* UDMA descriptors gathered per copy_to_user() of a ring range */
#define NRSIM_RANGE_BUF		128

/**
 * nrsim_dma_ring_range() - copy a range of one queue side's UDMA
 *	descriptors to user space, each with where it came from.
 * @sg: the subgraph.
 * @q: one of its queues.
 * @dir: enum nrsim_dma_dir.
 * @first: the first UDMA descriptor, < @q->count[@dir].
 * @n: descriptors, at most @q->count[@dir] - @first.
 * @out: user array of @n struct neuronsim_dma_desc_info.
 *
 * One seek (binary search, kbin_dma_walk_seek()), then O(1) per
 * descriptor; each is read back from its ring.
 *
 * Return: 0; -ENOMEM; -EFAULT bad @out; -EINTR a fatal signal.
 */
static int nrsim_dma_ring_range(const struct nrsim_sg *sg,
				const struct nrsim_dma_queue *q, u32 dir,
				u32 first, u32 n,
				struct neuronsim_dma_desc_info __user *out)
{
	const struct nrsim_dma_desc *descs = sg->dma.descs;
	struct neuronsim_dma_desc_info *buf;
	union udma_desc *raw;
	struct kbin_dma_walk w;
	u32 i, j, k = 0, d, len;
	u64 off;
	int ret = 0;

	if (!n)
		return 0;
	buf = kmalloc_array(NRSIM_RANGE_BUF, sizeof(*buf), GFP_KERNEL_ACCOUNT);
	raw = kmalloc_array(NRSIM_RANGE_BUF, sizeof(*raw), GFP_KERNEL_ACCOUNT);
	if (!buf || !raw) {
		ret = -ENOMEM;
		goto out;
	}
	d = nrsim_dma_desc_find(sg, q, dir, first);
	kbin_dma_walk_seek(&w, &descs[d].side[dir], first - descs[d].first[dir]);
	for (i = 0; i < n; i++) {
		struct neuronsim_dma_desc_info *e = &buf[k];

		if (!kbin_dma_walk_piece(&w, &off, &len)) {
			d++;
			kbin_dma_walk_init(&w, &descs[d].side[dir]);
			kbin_dma_walk_piece(&w, &off, &len);
		}
		memset(e, 0, sizeof(*e));
		e->ring = nrsim_dma_ring_locate(sg, q, dir, first + i, &e->addr);
		e->offset = off;
		e->var_id = descs[d].side[dir].var_id;
		e->block = descs[d].block - q->first_block;
		e->desc_index = descs[d].index;
		if (++k < NRSIM_RANGE_BUF && i + 1 < n)
			continue;
		/* the descriptors themselves, one read per run in one ring */
		for (j = 0; j < k; ) {
			u32 m = 1;

			while (j + m < k && buf[j + m].ring == buf[j].ring)
				m++;
			nrsim_mem_read(&q->nd->mem, buf[j].addr, raw + j,
				       (u64)m * sizeof(*raw));
			for (; m; m--, j++)
				memcpy(buf[j].desc, &raw[j], sizeof(buf[j].desc));
		}
		if (copy_to_user(out + i + 1 - k, buf, k * sizeof(*buf))) {
			ret = -EFAULT;
			break;
		}
		k = 0;
		if (fatal_signal_pending(current)) {
			ret = -EINTR;
			break;
		}
		cond_resched();
	}
out:
	kfree(raw);
	kfree(buf);
	return ret;
}

/**
 * nrsim_ioctl_dma_info() - NEURONSIM_IOC_DMA_INFO: a subgraph's DMA queues.
 * @nf: the caller's file.
 * @uarg: user pointer to struct neuronsim_dma_info.
 * @usize: the caller's struct size (ioctl.c).
 *
 * A subgraph's relocated DMA queues and, with NEURONSIM_DMA_INFO_F_RING,
 * a range of one queue side's UDMA descriptors (uapi/linux/neuronsim.h;
 * Documentation/relocation.rst).  Under the fd's lock, as the other
 * per-model commands: the model cannot go away meanwhile.
 *
 * Return: 0, or a negative errno as uapi/linux/neuronsim.h documents.
 */
long nrsim_ioctl_dma_info(struct nrsim_file *nf, void __user *uarg,
			  size_t usize)
{
	struct neuronsim_dma_queue_info qi;
	struct neuronsim_dma_info di;
	const struct nrsim_dma_queue *q;
	const struct nrsim_model *m;
	const struct nrsim_sg *sg;
	bool ring;
	long ret;
	u32 i, n;

	ret = copy_struct_from_user(&di, sizeof(di), uarg, usize);
	if (ret)
		return ret;
	ring = di.flags & NEURONSIM_DMA_INFO_F_RING;
	if ((di.flags & ~NEURONSIM_DMA_INFO_F_MASK) || di.reserved[0] ||
	    di.reserved[1] ||
	    (!ring && (di.queue || di.side || di.first || di.count || di.descs)) ||
	    (ring && (di.side > NEURONSIM_DMA_S2M ||
		      di.count > NEURONSIM_DMA_INFO_MAX_DESCS ||
		      (di.count && !di.descs))))
		return -EINVAL;
	mutex_lock(&nf->lock);
	m = nrsim_model_get_locked(nf, di.model_id);
	if (!m || di.subgraph >= m->num_sg) {
		ret = -ENOENT;
		goto out;
	}
	sg = &m->sg[di.subgraph];
	n = di.queues ? min(di.num_queues, sg->dma.num_queues) : 0;
	for (i = 0; i < n; i++) {
		nrsim_dma_queue_fill(sg, &sg->dma.queues[i], &qi);
		if (copy_to_user(u64_to_user_ptr(di.queues) + i * sizeof(qi),
				 &qi, sizeof(qi))) {
			ret = -EFAULT;
			goto out;
		}
	}
	di.num_queues = sg->dma.num_queues;
	if (ring) {
		if (di.queue >= sg->dma.num_queues) {
			ret = -EINVAL;
			goto out;
		}
		q = &sg->dma.queues[di.queue];
		if (di.first > q->count[di.side]) {
			ret = -ERANGE;
			goto out;
		}
		di.count = min(di.count, q->count[di.side] - di.first);
		ret = nrsim_dma_ring_range(sg, q, di.side, di.first, di.count,
					   u64_to_user_ptr(di.descs));
	}
out:
	mutex_unlock(&nf->lock);
	if (ret)
		return ret;
	return nrsim_copy_out(uarg, usize, &di, sizeof(di));
}
