// SPDX-License-Identifier: GPL-2.0
/*
 * dma.c - the DMA program of a subgraph as info and dump print it
 * (main.h): its totals, one line (or object) per queue and per block,
 * with --dma one per descriptor and its UDMA pieces, from a NEFF's model
 * (in member order) or from a plan's DMA section (in plan order);
 * Documentation/compiler.rst and Documentation/relocation.rst.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "main.h"

/* one queue, one block: what both sources have */
struct dv_queue {
	const char *name;
	const char *fabric;
	const uint32_t *sems;
	uint32_t nsems, type, owner, num_queues, nblocks;
	int dynamic;
	uint32_t sb_off, sb_size;
};

struct dv_block {
	uint32_t queue, id, semaphore;
	const char *comment;
	const struct kbin_dma_desc *descs;
	uint32_t ndescs;
};

/* a subgraph's DMA program and how to name its vars */
struct dv_prog {
	const char *sg;
	const struct dv_queue *q;
	uint32_t nq;
	const struct dv_block *b;
	uint32_t nb;
	const char *(*var_name)(const void *ctx, uint32_t var_id);
	const void *ctx;
};

/* M2S and S2M pieces of a descriptor (kbin_dma_pattern()) */
static void desc_pieces(const struct kbin_dma_desc *d, uint64_t *m2s,
			uint64_t *s2m)
{
	struct kbin_dma_pat p;

	*m2s = kbin_dma_pattern(&d->from, &p) ? 0 : p.pieces;
	*s2m = kbin_dma_pattern(&d->to, &p) ? 0 : p.pieces;
}

static void dims_text(char *out, size_t cap, const struct kbin_dma_side *sd)
{
	uint64_t sz[KBIN_DMA_MAX_DIMS], st[KBIN_DMA_MAX_DIMS];
	uint32_t i, n = sd->num_dims < KBIN_DMA_MAX_DIMS ? sd->num_dims : KBIN_DMA_MAX_DIMS;
	size_t o;

	for (i = 0; i < n; i++) {
		sz[i] = sd->sizes[i];
		st[i] = sd->steps[i];
	}
	cc_shape_text(out, cap, sz, n);
	o = strlen(out);
	if (o + 1 < cap)
		out[o++] = '/';
	cc_shape_text(out + o, cap - o, st, n);
}

static json_t *side_json(const struct dv_prog *pg, const struct kbin_dma_side *sd)
{
	uint64_t sz[KBIN_DMA_MAX_DIMS], st[KBIN_DMA_MAX_DIMS];
	uint32_t i, n = sd->num_dims < KBIN_DMA_MAX_DIMS ? sd->num_dims : KBIN_DMA_MAX_DIMS;

	for (i = 0; i < n; i++) {
		sz[i] = sd->sizes[i];
		st[i] = sd->steps[i];
	}
	return json_pack("{s:o,s:I,s:s,s:I,s:o,s:o}",
			 "var", json_text(pg->var_name(pg->ctx, sd->var_id)),
			 "var_id", (json_int_t)sd->var_id,
			 "dtype", kbin_dma_dtype_str(sd->dtype),
			 "offset", (json_int_t)sd->offset,
			 "sizes", cc_shape_json(sz, n), "steps", cc_shape_json(st, n));
}

static void desc_text(const struct dv_prog *pg, const struct dv_block *b,
		      uint32_t j)
{
	const struct kbin_dma_desc *d = &b->descs[j];
	char f[200], t[200];
	uint64_t m2s, s2m;

	dims_text(f, sizeof(f), &d->from);
	dims_text(t, sizeof(t), &d->to);
	desc_pieces(d, &m2s, &s2m);
	printf("    desc %s #%u [%u] %s from %s(%u)+%llu %s %s -> %s(%u)+%llu %s %s pieces %llu/%llu",
	       pg->q[b->queue].name, b->id, j, kbin_dma_op_str(d->op),
	       pg->var_name(pg->ctx, d->from.var_id), d->from.var_id,
	       (unsigned long long)d->from.offset, f,
	       kbin_dma_dtype_str(d->from.dtype),
	       pg->var_name(pg->ctx, d->to.var_id), d->to.var_id,
	       (unsigned long long)d->to.offset, t,
	       kbin_dma_dtype_str(d->to.dtype), (unsigned long long)m2s,
	       (unsigned long long)s2m);
	if (d->op == KBIN_DMA_OP_TRANSPOSE)
		printf(" transpose %.4s shape [%u,%u,%u,%u] element %u",
		       d->transpose_op, d->transpose_shape[0],
		       d->transpose_shape[1], d->transpose_shape[2],
		       d->transpose_shape[3], d->transpose_elem_size);
	printf("\n");
}

static json_t *desc_json(const struct dv_prog *pg, const struct kbin_dma_desc *d)
{
	uint64_t m2s, s2m;
	json_t *o;

	desc_pieces(d, &m2s, &s2m);
	o = json_pack("{s:s,s:o,s:o,s:I,s:I,s:I}", "op", kbin_dma_op_str(d->op),
		      "from", side_json(pg, &d->from), "to", side_json(pg, &d->to),
		      "num_tiling_dimensions", (json_int_t)d->num_tiling_dims,
		      "m2s_pieces", (json_int_t)m2s, "s2m_pieces", (json_int_t)s2m);
	if (d->op == KBIN_DMA_OP_TRANSPOSE) {
		char top[KBIN_DMA_TRANSPOSE_DIMS + 1] = "";
		uint64_t sh[KBIN_DMA_TRANSPOSE_DIMS];
		uint32_t i;

		memcpy(top, d->transpose_op, KBIN_DMA_TRANSPOSE_DIMS);
		for (i = 0; i < KBIN_DMA_TRANSPOSE_DIMS; i++)
			sh[i] = d->transpose_shape[i];
		json_object_set_new(o, "transpose_op", json_text(top));
		json_object_set_new(o, "transpose_shape", cc_shape_json(sh, 4));
		json_object_set_new(o, "transpose_element_size",
				    json_integer(d->transpose_elem_size));
	}
	return o;
}

/*
 * Print (or add to @sgj as "dma") a subgraph's DMA program: its totals,
 * one line per queue and per block, with @descs one per descriptor.
 */
static void dma_prog_out(const struct dv_prog *pg, int js, int descs,
			 json_t *sgj)
{
	uint64_t m2s = 0, s2m = 0, bm, bs, dm, ds, nd = 0;
	json_t *qa = json_array(), *ba = json_array();
	uint32_t k, j, i;

	/* totals of a crafted NEFF may pass 64 bits: they stop at the top */
	for (j = 0; j < pg->nb; j++) {
		for (i = 0; i < pg->b[j].ndescs; i++) {
			desc_pieces(&pg->b[j].descs[i], &dm, &ds);
			if (__builtin_add_overflow(m2s, dm, &m2s))
				m2s = UINT64_MAX;
			if (__builtin_add_overflow(s2m, ds, &s2m))
				s2m = UINT64_MAX;
		}
		nd += pg->b[j].ndescs;
	}
	if (!js)
		printf("  %s: %u DMA queues, %u blocks, %llu descriptors, %llu M2S / %llu S2M UDMA pieces\n",
		       pg->sg, pg->nq, pg->nb, (unsigned long long)nd,
		       (unsigned long long)m2s, (unsigned long long)s2m);
	for (k = 0; k < pg->nq; k++) {
		const struct dv_queue *q = &pg->q[k];

		if (!js) {
			printf("    queue %s type %s owner %s num_queues %u semaphores",
			       q->name, kbin_dma_queue_type_str(q->type),
			       kbin_dma_engine_str(q->owner), q->num_queues);
			/* runs of consecutive semaphores as FIRST..LAST */
			for (i = 0; i < q->nsems; i = j) {
				for (j = i + 1; j < q->nsems &&
				     q->sems[j] == q->sems[j - 1] + 1; j++)
					;
				printf("%s%u", i ? "," : " ", q->sems[i]);
				if (j - i > 1)
					printf("..%u", q->sems[j - 1]);
			}
			if (q->fabric)
				printf(" fabric %s", q->fabric);
			if (q->dynamic)
				printf(" SB scratch %u+%u", q->sb_off, q->sb_size);
			printf(" blocks %u\n", q->nblocks);
			continue;
		}
		{
			json_t *sems = json_array(), *o;

			for (i = 0; i < q->nsems; i++)
				json_array_append_new(sems, json_integer(q->sems[i]));
			o = json_pack("{s:o,s:s,s:s,s:I,s:o,s:I}", "name", json_text(q->name),
				      "type", kbin_dma_queue_type_str(q->type),
				      "owner", kbin_dma_engine_str(q->owner),
				      "num_queues", (json_int_t)q->num_queues,
				      "semaphore_set", sems, "blocks", (json_int_t)q->nblocks);
			if (q->fabric)
				json_object_set_new(o, "fabric_path", json_text(q->fabric));
			if (q->dynamic)
				json_object_set_new(o, "dynamic_dma", json_pack("{s:I,s:I}",
					"SB_scratch_partition_offset", (json_int_t)q->sb_off,
					"SB_scratch_partition_size", (json_int_t)q->sb_size));
			json_array_append_new(qa, o);
		}
	}
	for (j = 0; j < pg->nb; j++) {
		const struct dv_block *b = &pg->b[j];

		bm = bs = 0;
		for (i = 0; i < b->ndescs; i++) {
			desc_pieces(&b->descs[i], &dm, &ds);
			if (__builtin_add_overflow(bm, dm, &bm))
				bm = UINT64_MAX;
			if (__builtin_add_overflow(bs, ds, &bs))
				bs = UINT64_MAX;
		}
		if (!js) {
			printf("    block %s #%u semaphore %u descs %u pieces %llu/%llu%s%s%s\n",
			       pg->q[b->queue].name, b->id, b->semaphore, b->ndescs,
			       (unsigned long long)bm, (unsigned long long)bs,
			       b->comment ? " {" : "", b->comment ? b->comment : "",
			       b->comment ? "}" : "");
			for (i = 0; descs && i < b->ndescs; i++)
				desc_text(pg, b, i);
			continue;
		}
		{
			json_t *o = json_pack("{s:o,s:I,s:I,s:I,s:I,s:I}",
					      "queue", json_text(pg->q[b->queue].name),
					      "id", (json_int_t)b->id,
					      "semaphore", (json_int_t)b->semaphore,
					      "descriptors", (json_int_t)b->ndescs,
					      "m2s_pieces", (json_int_t)bm,
					      "s2m_pieces", (json_int_t)bs);

			if (b->comment)
				json_object_set_new(o, "#comment", json_text(b->comment));
			if (descs) {
				json_t *da = json_array();

				for (i = 0; i < b->ndescs; i++)
					json_array_append_new(da, desc_json(pg, &b->descs[i]));
				json_object_set_new(o, "desc", da);
			}
			json_array_append_new(ba, o);
		}
	}
	if (js)
		json_object_set_new(sgj, "dma", json_pack("{s:I,s:I,s:I,s:I,s:I,s:o,s:o}",
			"queues", (json_int_t)pg->nq, "blocks", (json_int_t)pg->nb,
			"descriptors", (json_int_t)nd, "m2s_pieces", (json_int_t)m2s,
			"s2m_pieces", (json_int_t)s2m, "queue_table", qa,
			"block_table", ba));
	else {
		json_decref(qa);
		json_decref(ba);
	}
}

static const char *model_var_name(const void *ctx, uint32_t var_id)
{
	const struct nscc_subgraph *sg = ctx;
	uint32_t i;

	for (i = 0; i < sg->num_vars; i++)
		if (sg->vars[i].var_id == var_id)
			return sg->vars[i].name;
	return "?";
}

/**
 * cc_model_dma_out() - info: a NEFF subgraph's DMA program, in member
 *	order.
 * @sg: the subgraph of the model.
 * @js: JSON into @sgj ("dma"), else text on stdout.
 * @descs: also every descriptor (--dma).
 * @sgj: the subgraph's JSON object.
 *
 * Return: 0, or -1 when out of memory.
 */
int cc_model_dma_out(const struct nscc_subgraph *sg, int js, int descs,
		     json_t *sgj)
{
	struct dv_queue *q = calloc(sg->num_dma_queues + 1, sizeof(*q));
	struct dv_block *b = calloc(sg->num_dma_blocks + 1, sizeof(*b));
	struct dv_prog pg = {
		.sg = sg->name, .q = q, .nq = sg->num_dma_queues, .b = b,
		.nb = sg->num_dma_blocks, .var_name = model_var_name, .ctx = sg,
	};
	uint32_t k;

	if (!q || !b) {
		free(q);
		free(b);
		return -1;
	}
	for (k = 0; k < sg->num_dma_queues; k++) {
		const struct nscc_dma_queue *mq = &sg->dma_queues[k];

		q[k] = (struct dv_queue){
			.name = mq->name, .fabric = mq->fabric_path,
			.sems = mq->semaphores, .nsems = mq->num_semaphores,
			.type = mq->type, .owner = mq->owner,
			.num_queues = mq->num_queues, .dynamic = mq->has_dynamic,
			.sb_off = mq->sb_scratch_offset, .sb_size = mq->sb_scratch_size,
		};
	}
	for (k = 0; k < sg->num_dma_blocks; k++) {
		const struct nscc_dma_block *mb = &sg->dma_blocks[k];

		b[k] = (struct dv_block){
			.queue = mb->queue, .id = mb->id, .semaphore = mb->semaphore,
			.comment = mb->comment, .descs = sg->dma_descs + mb->first_desc,
			.ndescs = mb->num_descs,
		};
		if (mb->queue < sg->num_dma_queues)
			q[mb->queue].nblocks++;
	}
	dma_prog_out(&pg, js, descs, sgj);
	free(q);
	free(b);
	return 0;
}

/* the names of a plan subgraph's records */
struct plan_names {
	const struct kbin_view *v;
	const struct kbin_mem_ref_set *set;
};

static const char *plan_var_name(const void *ctx, uint32_t var_id)
{
	const struct plan_names *pn = ctx;

	return var_id < pn->set->nmem ?
	       kbin_view_str(pn->v, pn->set->mem[var_id].name) : "?";
}

/**
 * cc_plan_dma_out() - dump: a plan subgraph's DMA section, in plan
 *	(queue) order.
 * @v: a checked plan.
 * @s: the subgraph.
 * @js: JSON into @sgj ("dma"), else text on stdout.
 * @descs: also every descriptor (--dma).
 * @sgj: the subgraph's JSON object.
 *
 * Return: 0, or -1 when out of memory.
 */
int cc_plan_dma_out(const struct kbin_view *v, uint32_t s, int js,
		    int descs, json_t *sgj)
{
	struct plan_names pn = { .v = v, .set = kbin_view_set(v, s) };
	struct kbin_dma_sg_view dv;
	struct dv_queue *q;
	struct dv_block *b;
	struct dv_prog pg;
	uint32_t k;

	if (kbin_view_dma_sg(v, s, &dv) || (!v->dma && !js))
		return 0;
	q = calloc(dv.num_queues + 1, sizeof(*q));
	b = calloc(dv.num_blocks + 1, sizeof(*b));
	if (!q || !b) {
		free(q);
		free(b);
		return -1;
	}
	for (k = 0; k < dv.num_queues; k++) {
		const struct kbin_dma_queue *pq = &dv.queues[k];

		q[k] = (struct dv_queue){
			.name = kbin_view_str(v, pq->name),
			.fabric = kbin_view_str(v, pq->fabric_path),
			.sems = kbin_view_semaphores(v, pq), .nsems = pq->num_semaphores,
			.type = pq->type, .owner = pq->owner,
			.num_queues = pq->num_queues, .nblocks = pq->num_blocks,
			.dynamic = !!(pq->flags & KBIN_DMA_QF_DYNAMIC),
			.sb_off = pq->sb_scratch_offset, .sb_size = pq->sb_scratch_size,
		};
	}
	for (k = 0; k < dv.num_blocks; k++) {
		const struct kbin_dma_block *pb = &dv.blocks[k];

		b[k] = (struct dv_block){
			.queue = pb->queue, .id = pb->id, .semaphore = pb->semaphore,
			.comment = kbin_view_str(v, pb->comment),
			.descs = dv.descs + (pb->first_desc - dv.first_desc),
			.ndescs = pb->num_descs,
		};
	}
	pg = (struct dv_prog){
		.sg = kbin_view_subgraph(v, s)->name, .q = q, .nq = dv.num_queues,
		.b = b, .nb = dv.num_blocks, .var_name = plan_var_name, .ctx = &pn,
	};
	dma_prog_out(&pg, js, descs, sgj);
	free(q);
	free(b);
	return 0;
}

