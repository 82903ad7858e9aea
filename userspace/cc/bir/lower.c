// SPDX-License-Identifier: GPL-2.0
/* requires: one function, every SB location allocated; guarantees: the compiler's var table and carve-outs, the module untouched */
/*
 * lower.c - the final module's DRAM and SB locations -> the compiler's
 * in-memory model (struct nscc_model, userspace/cc/neuronsim_cc.h): the
 * var table and SBUF carve-outs that nscc_compile_model() turns into a
 * KBIN plan (Documentation/compiler-passes.rst, "Lowering"), and every
 * TensorCopy that has a side in DRAM -> a DMA block of one descriptor on
 * a queue of its engine ("DMA").  The model is built directly; there is
 * no def.json text in between.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "bir.h"
#include "kbin_dma.h"
#include "kbin_gen.h"
#include "kbin_names.h"

static int lfail(struct nscc_err *err, int rc, const char *fmt,
		 const char *a, const char *b)
{
	snprintf(err->msg, sizeof(err->msg), fmt, a, b);
	return rc;
}

/* the kind of the var a MemoryLocation becomes; KBIN_MR_INVALID: none */
static uint32_t var_kind(uint32_t t)
{
	switch (t) {
	case BIR_MEM_INPUT: return KBIN_MR_INPUT;
	case BIR_MEM_OUTPUT: return KBIN_MR_OUTPUT;
	case BIR_MEM_DRAM: return KBIN_MR_TMP_BUF;
	default: return KBIN_MR_INVALID;
	}
}

static int add_var(struct nscc_model *model, int sg,
		   const struct bir_memloc *ml, uint32_t var_id)
{
	uint32_t kind = var_kind(ml->type);
	struct nscc_var *v = nscc_model_add_var(model, sg, ml->name, var_id,
						kind);

	if (!v)
		return -ENOMEM;
	v->has_size = 1;
	v->size = bir_memloc_bytes(ml);
	v->alignment = 64;
	/* the set's dtype and tensor_shape; the dump refuses what won't fit */
	if ((ml->set->dtype.name &&
	     nscc_var_set_dtype(v, ml->set->dtype.name)) ||
	    (ml->set->shape &&
	     nscc_var_set_shape(v, ml->set->shape, ml->set->nshape)))
		return -ENOMEM;
	return 0;
}

/* check the locations that become vars; count the runtime-reserved ones */
static int scan(const struct bir_function *f, uint32_t *nrsv,
		struct nscc_err *err)
{
	*nrsv = 0;
	for (uint32_t s = 0; s < f->nsets; s++) {
		for (uint32_t l = 0; l < f->sets[s]->nlocs; l++) {
			const struct bir_memloc *ml = f->sets[s]->locs[l];

			if (ml->type == BIR_MEM_SB && ml->runtime_reserved) {
				(*nrsv)++;
				continue;
			}
			if (ml->type == BIR_MEM_SB && !ml->allocated)
				return lfail(err, -EINVAL,
					     "lowering: SB memory location '%s' is not allocated%s",
					     ml->name, "");
			if (var_kind(ml->type) == KBIN_MR_INVALID)
				continue;	/* SB, PSUM: on chip, no var */
			if (ml->dims[1] && ml->dims[0] > INT64_MAX / ml->dims[1])
				return lfail(err, -EINVAL,
					     "lowering: memory location '%s' is larger than %s bytes",
					     ml->name, "2^63 - 1");
			if (!bir_memloc_bytes(ml))
				return lfail(err, -EINVAL,
					     "lowering: memory location '%s' has size 0%s",
					     ml->name, "");
			if (!strcmp(ml->name, "state-buffer"))
				return lfail(err, -EINVAL,
					     "lowering: memory location '%s' has the name of var 0%s",
					     ml->name, "");
		}
	}
	return 0;
}

/* a location that becomes a var of the subgraph (in var_id order) */
static bool becomes_var(const struct bir_memloc *ml)
{
	return !(ml->type == BIR_MEM_SB && ml->runtime_reserved) &&
	       var_kind(ml->type) != KBIN_MR_INVALID;
}

/* the var_id lowering gives @want: 1.. in set and location order */
uint32_t bir_lower_var_id(const struct bir_function *f,
			  const struct bir_memloc *want)
{
	uint32_t id = 1;

	for (uint32_t s = 0; s < f->nsets; s++)
		for (uint32_t l = 0; l < f->sets[s]->nlocs; l++) {
			if (f->sets[s]->locs[l] == want)
				return id;
			id += becomes_var(f->sets[s]->locs[l]);
		}
	return 0;
}

__attribute__((format(printf, 2, 3)))
static int dfail(const struct dma_at *at, const char *fmt, ...)
{
	char what[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (!at->opnd)
		snprintf(at->err->msg, sizeof(at->err->msg),
			 "lowering: DMA of instruction '%.96s' (%.32s, engine %.16s): %s",
			 at->i->name, at->i->opname,
			 at->i->engine ? at->i->engine : "(none)", what);
	else
		snprintf(at->err->msg, sizeof(at->err->msg),
			 "lowering: DMA of instruction '%.96s' (%.32s, engine %.16s): %s '%.96s': %s",
			 at->i->name, at->i->opname,
			 at->i->engine ? at->i->engine : "(none)", at->opnd,
			 at->o->name ? at->o->name : "", what);
	return -EINVAL;
}

/*
 * One side of a DMA descriptor from a physical_ap operand: the var (a
 * DRAM location's own, or var 0 state-buffer for an SB location at
 * partition stride @g->sbuf_partition_stride), the byte offset, and the
 * dimensions innermost first: the contiguous run in bytes, the free
 * pairs in bytes, the partition pair in rows (Documentation/
 * compiler-passes.rst, "DMA").
 */
int bir_lower_dma_side(const struct bir_function *f, const struct kbin_gen *g,
		    const struct dma_at *at, const struct bir_operand *o,
		    struct kbin_dma_side *sd, uint32_t *mem_type)
{
	const struct bir_memloc *ml = o->ml;
	uint64_t sizes[KBIN_DMA_MAX_DIMS + 1] = { 0 };
	uint64_t steps[KBIN_DMA_MAX_DIMS + 1] = { 0 };
	uint64_t row, esz, off;
	const struct bir_dtype *dt;
	uint32_t n = 0;

	memset(sd, 0, sizeof(*sd));
	if (!ml)
		return dfail(at, "no such memory location");
	if (!o->nap || o->nap > KBIN_DMA_MAX_DIMS)
		return dfail(at, "%u access pattern pairs (a DMA side takes 1..%u)",
			     o->nap, KBIN_DMA_MAX_DIMS);
	dt = bir_operand_dtype(o, ml);
	if (!kbin_dma_dtype(dt->id))
		return dfail(at, "dtype '%s' is not a DMA element type",
			     dt->name ? dt->name : "(none)");
	sd->dtype = (uint8_t)dt->id;
	esz = kbin_dma_dtype(sd->dtype)->size;
	*mem_type = ml->type;
	if (ml->type == BIR_MEM_SB) {
		row = g->sbuf_partition_stride;
		if (__builtin_add_overflow((uint64_t)ml->base * row, ml->addr, &off))
			return dfail(at, "base partition %u and addr %llu overflow 64 bits",
				     ml->base, (unsigned long long)ml->addr);
		sd->var_id = 0;
	} else if (var_kind(ml->type) != KBIN_MR_INVALID) {
		row = ml->dims[1];
		off = 0;
		sd->var_id = bir_lower_var_id(f, ml);
	} else {
		return dfail(at, "a location of memory type %u is not reachable by DMA (DRAM and SB are)",
			     ml->type);
	}
	if (o->offset < 0)
		return dfail(at, "offset %lld is negative", (long long)o->offset);
	if (__builtin_add_overflow(off, (uint64_t)o->offset, &sd->offset))
		return dfail(at, "offset %lld overflows 64 bits past the location's %llu",
			     (long long)o->offset, (unsigned long long)off);
	for (uint32_t k = o->nap; k-- > 0;) {
		if (o->ap[k].step <= 0 || o->ap[k].num <= 0)
			return dfail(at, "access pattern pair %u [%lld, %lld]: step and num must be positive",
				     k, (long long)o->ap[k].step,
				     (long long)o->ap[k].num);
		if ((uint64_t)o->ap[k].num > UINT32_MAX ||
		    __builtin_mul_overflow((uint64_t)o->ap[k].step,
					   k ? esz : row, &steps[n]))
			return dfail(at, "access pattern pair %u [%lld, %lld]: too large for a DMA dimension",
				     k, (long long)o->ap[k].step,
				     (long long)o->ap[k].num);
		sizes[n++] = (uint64_t)o->ap[k].num;
	}
	/* the run: the innermost pair when contiguous, else one element */
	if (steps[0] == esz) {
		sizes[0] *= esz;	/* both below 2^32: no overflow */
	} else {
		memmove(&sizes[1], &sizes[0], n * sizeof(sizes[0]));
		memmove(&steps[1], &steps[0], n * sizeof(steps[0]));
		sizes[0] = esz;
		n++;
	}
	steps[0] = 1;
	for (uint32_t k = 0; k < n; k++) {
		if (k && sizes[k] == 1)
			continue;
		if (sd->num_dims == KBIN_DMA_MAX_DIMS)
			return dfail(at, "needs more than %u DMA dimensions",
				     KBIN_DMA_MAX_DIMS);
		if (sizes[k] > UINT32_MAX)
			return dfail(at, "dimension of %llu is over 2^32 - 1",
				     (unsigned long long)sizes[k]);
		sd->sizes[sd->num_dims] = (uint32_t)sizes[k];
		sd->steps[sd->num_dims++] = steps[k];
	}
	return 0;
}

/* queue "q<ENGINE>IO0" of @i's engine, created on first use; its index */
static int dma_queue(struct nscc_model *model, int sg, const struct dma_at *at,
		     uint32_t from_type)
{
	struct nscc_subgraph *s = &model->sgs[sg];
	char name[40], low[16];
	struct nscc_dma_queue *q;
	uint32_t engine, k, qi;

	if (!at->i->engine || strlen(at->i->engine) >= sizeof(low))
		return dfail(at, "no engine to own its DMA queue");
	for (k = 0; at->i->engine[k]; k++)
		low[k] = (char)tolower((unsigned char)at->i->engine[k]);
	low[k] = '\0';
	engine = kbin_dma_engine_from_name(low);
	if (!engine)
		return dfail(at, "engine '%s' owns no DMA queue (pe, act, pool, dve, sp)",
			     at->i->engine);
	snprintf(name, sizeof(name), "q%sIO0", at->i->engine);
	for (k = 0; k < s->num_dma_queues; k++)
		if (!strcmp(s->dma_queues[k].name, name))
			return (int)k;
	qi = s->num_dma_queues;
	q = nscc_model_add_dma_queue(model, sg, name);
	if (!q || nscc_dma_queue_set_semaphores(q, &qi, 1))
		return -ENOMEM;
	q->type = from_type == BIR_MEM_INPUT ? KBIN_DMA_QUEUE_IN :
		  KBIN_DMA_QUEUE_DATA;
	q->owner = engine;
	q->num_queues = 1;
	return (int)qi;
}

struct dma_ctx {
	struct nscc_model *model;
	const struct bir_function *f;
	const struct kbin_gen *g;
	int sg;
	uint32_t *next_id;	/* per queue, the next block id */
	uint32_t cap;
	struct nscc_err *err;
};

/* a TensorCopy with a side in DRAM is a DMA: one block, one descriptor */
static int dma_inst(struct bir_inst *i, void *arg)
{
	struct dma_ctx *c = arg;
	/* no &i->ins[0] of an instruction without inputs (a Memset): NULL + 0 */
	struct dma_at at = { .i = i, .opnd = "ins[0]",
			     .o = i->nins ? &i->ins[0] : NULL, .err = c->err };
	struct nscc_dma_block b = { 0 };
	struct kbin_dma_desc d = { 0 };
	uint32_t ft, tt;
	int q, rc;

	if (i->op != BIR_OP_TENSOR_COPY)
		return 0;
	/* any other shape cannot be told a DMA or not: dropping it loses it */
	if (i->nins != 1 || i->nouts != 1) {
		at.opnd = NULL;
		return dfail(&at, "a TensorCopy takes one input and one output, not %u and %u",
			     i->nins, i->nouts);
	}
	if (i->ins[0].kind != BIR_OPND_AP || i->outs[0].kind != BIR_OPND_AP)
		return 0;	/* a register's: a compute engine's copy */
	{
		const struct bir_memloc *a = i->ins[0].ml;
		const struct bir_memloc *z = i->outs[0].ml;

		/*
		 * a side that names no location: whether the copy is a DMA
		 * cannot be told, and dropping it would lose the copy
		 */
		if (!a || !z) {
			at.opnd = a ? "outs[0]" : "ins[0]";
			at.o = a ? &i->outs[0] : &i->ins[0];
			return dfail(&at, "no such memory location in function '%s'",
				     c->f->name);
		}
		if (var_kind(a->type) == KBIN_MR_INVALID &&
		    var_kind(z->type) == KBIN_MR_INVALID)
			return 0;	/* on chip: a compute engine's copy */
		/*
		 * a PSUM side: a compute engine's copy too, its DRAM side
		 * staged through SBUF by the engine program
		 */
		if (a->type == BIR_MEM_PSUM || z->type == BIR_MEM_PSUM)
			return 0;
	}
	/* a run-time offset: a dynamic DMA, written by the runtime as it runs */
	if (i->ins[0].ndyn || i->outs[0].ndyn)
		return 0;
	at.opnd = "ins[0]";
	at.o = &i->ins[0];
	rc = bir_lower_dma_side(c->f, c->g, &at, &i->ins[0], &d.from, &ft);
	at.opnd = "outs[0]";
	at.o = &i->outs[0];
	if (!rc)
		rc = bir_lower_dma_side(c->f, c->g, &at, &i->outs[0], &d.to, &tt);
	if (rc)
		return rc;
	d.op = d.from.dtype == d.to.dtype ? KBIN_DMA_OP_COPY : KBIN_DMA_OP_CAST;
	at.opnd = NULL;
	q = dma_queue(c->model, c->sg, &at, ft);
	if (q < 0)
		return q;
	if ((uint32_t)q >= c->cap) {
		uint32_t *n = realloc(c->next_id, (q + 8) * sizeof(*n));

		if (!n)
			return -ENOMEM;
		memset(n + c->cap, 0, (q + 8 - c->cap) * sizeof(*n));
		c->next_id = n;
		c->cap = (uint32_t)q + 8;
	}
	b.queue = (uint32_t)q;
	b.id = c->next_id[q]++;
	b.semaphore = (uint32_t)q;
	b.engine = c->model->sgs[c->sg].dma_queues[q].owner;
	return nscc_model_add_dma_block(c->model, c->sg, &b, i->name, &d, 1);
}

int bir_lower_model(const struct bir_module *m, struct nscc_model *model,
		    struct nscc_err *err)
{
	const char *evtaccel = kbin_carveout_type_str(KBIN_CARVEOUT_EVTACCEL);
	const struct bir_function *f;
	uint32_t nrsv, id = 1;
	struct dma_ctx dc = { 0 };
	int sg, rc;

	if (m->nfns != 1) {
		snprintf(err->msg, sizeof(err->msg),
			 "lowering: the final module must have one function (has %u): a kernel function was not inlined",
			 m->nfns);
		return -EINVAL;
	}
	f = m->fns[0];
	rc = scan(f, &nrsv, err);
	if (rc)
		return rc;
	sg = nscc_model_add_subgraph(model, "sg00");
	if (sg < 0)
		goto nomem;
	dc = (struct dma_ctx){ .model = model, .f = f, .sg = sg, .err = err,
			       .g = kbin_gen_target(model->target_gen) };
	if (!dc.g) {
		snprintf(err->msg, sizeof(err->msg),
			 "lowering: the model's target gen %u is not a KBIN target",
			 model->target_gen);
		return -EINVAL;
	}
	rc = nscc_model_check_carveout_count(model, sg, nrsv > 0, nrsv, err);
	for (uint32_t s = 0; !rc && s < f->nsets; s++) {
		for (uint32_t l = 0; !rc && l < f->sets[s]->nlocs; l++) {
			const struct bir_memloc *ml = f->sets[s]->locs[l];
			const int64_t val[4] = {
				(int64_t)ml->addr, (int64_t)ml->dims[1],
				(int64_t)ml->base, (int64_t)ml->dims[0],
			};

			if (ml->type == BIR_MEM_SB && ml->runtime_reserved)
				rc = nscc_model_add_carveout(model, sg,
							     evtaccel, val,
							     err);
		}
	}
	if (rc)
		return rc;
	if (!nscc_model_add_var(model, sg, "state-buffer", 0, KBIN_MR_SB))
		goto nomem;
	for (uint32_t s = 0; s < f->nsets; s++) {
		for (uint32_t l = 0; l < f->sets[s]->nlocs; l++) {
			const struct bir_memloc *ml = f->sets[s]->locs[l];

			if (!becomes_var(ml))
				continue;
			if (add_var(model, sg, ml, id++))
				goto nomem;
		}
	}
	rc = bir_foreach_inst((struct bir_function *)f, dma_inst, &dc);
	free(dc.next_id);
	if (rc == -ENOMEM)
		goto nomem;
	return rc;
nomem:
	snprintf(err->msg, sizeof(err->msg), "lowering: out of memory");
	return -ENOMEM;
}
