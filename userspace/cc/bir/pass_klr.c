// SPDX-License-Identifier: GPL-2.0
/* Unroll: requires no branch in a Loop body, guarantees no Loop, each copy of a collective its own channel; LowerGenericIndirect: guarantees no GenericIndirectLoad; ConstantPropagate: keeps outputs and parameters, drops dead results */
/*
 * pass_klr.c - the three KLR cleanup passes InlineNKIKernel runs on its
 * temporary module (Documentation/compiler-passes.rst,
 * "InlineNKIKernel"): Unroll, LowerGenericIndirect, ConstantPropagate.
 * Minimal but real.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "bir.h"
#include "nscc_internal.h"

static int errmsg(struct nscc_err *err, int rc, const char *pass,
		  const struct bir_inst *i, const char *what)
{
	if (err)
		snprintf(err->msg, sizeof(err->msg), "%s: instruction '%s': %s",
			 pass, i->name, what);
	return rc;
}

/* ---- Unroll --------------------------------------------------------- */

/* offset += v * step for every dyn term on @axis, recursively */
static void subst_axis(struct bir_inst *i, const char *axis, int64_t v)
{
	for (int side = 0; side < 2; side++) {
		struct bir_operand *ops = side ? i->outs : i->ins;
		uint32_t n = side ? i->nouts : i->nins;

		for (uint32_t k = 0; k < n; k++) {
			struct bir_operand *o = &ops[k];

			for (uint32_t d = 0; d < o->ndyn;) {
				if (strcmp(o->dyn[d].axis, axis)) {
					d++;
					continue;
				}
				o->offset += v * o->dyn[d].step;
				memmove(&o->dyn[d], &o->dyn[d + 1],
					(o->ndyn - d - 1) * sizeof(*o->dyn));
				o->ndyn--;
			}
		}
	}
	for (uint32_t b = 0; b < i->nblocks; b++)
		for (uint32_t k = 0; k < i->blocks[b]->ninsts; k++)
			subst_axis(i->blocks[b]->insts[k], axis, v);
}

/*
 * The per-channel collectives of one iteration: every CollectiveCompute
 * of clone @i (loop bodies included) gets channel c * @n + @k, c being
 * the channel it had (0 when none), @k the iteration index and @n the
 * trip count, so the clones of a loop carry channels 0..n-1 and nested
 * loops number their clones without collisions.  A "channels" list or a
 * channel that is not an integer is left as it is.
 */
static int renumber_channels(struct bir_inst *i, uint64_t k, uint64_t n,
			     struct nscc_err *err)
{
	const struct bir_val *c = bir_attr_get(i, "channel");
	int64_t ch;
	int rc;

	if (i->op == BIR_OP_COLLECTIVE_COMPUTE && !bir_attr_get(i, "channels") &&
	    (!c || c->kind == BIR_VAL_INT)) {
		struct bir_val v;

		if (n > INT64_MAX ||
		    __builtin_mul_overflow(c ? c->i : 0, (int64_t)n, &ch) ||
		    __builtin_add_overflow(ch, (int64_t)k, &ch))
			return errmsg(err, -EINVAL, "Unroll", i,
				      "its channel times the loop's trip count is not a 64-bit integer");
		v = bir_val_int(ch);
		if (bir_attr_set(i, "channel", &v))
			return -ENOMEM;
	}
	for (uint32_t b = 0; b < i->nblocks; b++)
		for (uint32_t j = 0; j < i->blocks[b]->ninsts; j++) {
			rc = renumber_channels(i->blocks[b]->insts[j], k, n, err);
			if (rc)
				return rc;
		}
	return 0;
}

static bool is_branch(const struct bir_inst *i)
{
	return i->op == BIR_OP_UNCONDITIONAL_BRANCH ||
	       i->op == BIR_OP_COMPARE_AND_BRANCH;
}

/*
 * The deps of the clones of one iteration (@cur, @n of them, in body
 * order; @prev the previous iteration's, NULL for the first): a dep on
 * a body instruction (@body holds them; a clone's deps still reference
 * them) becomes one on its clone of the same iteration; each clone but
 * a Loop then follows its counterpart of the previous iteration (the
 * unroll dep), and the first iteration the Loop's own deps.
 */
static int unroll_deps(const struct bir_inst *loop,
		       struct bir_inst *const *body, struct bir_inst **cur,
		       struct bir_inst **prev, uint32_t n)
{
	for (uint32_t k = 0; k < n; k++) {
		struct bir_inst *c = cur[k];

		for (uint32_t d = 0; d < c->ndeps; d++)
			for (uint32_t j = 0; j < n; j++)
				if (c->dep_insts[d] == body[j]) {
					bir_inst_set_dep(c, d, cur[j]);
					break;
				}
		if (c->op == BIR_OP_LOOP)
			continue;
		if (prev && bir_inst_add_dep(c, prev[k], NULL))
			return -ENOMEM;
		for (uint32_t d = 0; !prev && d < loop->ndeps; d++)
			if (bir_inst_add_dep(c, loop->dep_insts[d], loop->deps[d]))
				return -ENOMEM;
	}
	return 0;
}

/* a dep on @loop becomes deps on the clones of its last iteration */
struct redirect {
	const struct bir_inst *loop;
	struct bir_inst **last;
	uint32_t n;
};

static int redirect_dep(struct bir_inst *i, void *arg)
{
	const struct redirect *r = arg;

	for (uint32_t d = 0; d < i->ndeps; d++) {
		if (i->dep_insts[d] != r->loop)
			continue;
		/* the last clone takes its place, the others are appended */
		if (!r->n) {
			--i->ndeps;
			i->deps[d] = i->deps[i->ndeps];
			i->dep_insts[d] = i->dep_insts[i->ndeps];
			d--;
			continue;
		}
		bir_inst_set_dep(i, d, r->last[r->n - 1]);
		for (uint32_t k = 0; k + 1 < r->n; k++)
			if (bir_inst_add_dep(i, r->last[k], NULL))
				return -ENOMEM;
	}
	return 0;
}

/* replace the Loop at @pos of @b by its per-iteration clones */
static int unroll_one(struct bir_module *m, struct bir_block *b, uint32_t pos,
		      struct nscc_err *err)
{
	struct bir_inst *loop = b->insts[pos], **cur = NULL, **prev = NULL;
	const struct bir_loop_axis *ax = loop->axis;
	struct bir_inst **body = NULL;
	uint64_t span, trips = 0;
	uint32_t n = 0;
	int at = (int)pos, rc = 0;
	struct redirect r;

	for (uint32_t bb = 0; bb < loop->nblocks; bb++)
		for (uint32_t k = 0; k < loop->blocks[bb]->ninsts; k++) {
			if (is_branch(loop->blocks[bb]->insts[k]))
				return errmsg(err, -EINVAL, "Unroll", loop,
					      "a branch inside a Loop body is not supported");
			n++;
		}
	if (ax->ub > ax->lb) {	/* stride > 0: the reader checks it */
		span = (uint64_t)ax->ub - (uint64_t)ax->lb;
		trips = span / (uint64_t)ax->stride +
			!!(span % (uint64_t)ax->stride);
	}
	body = calloc(n + 1, sizeof(*body));
	cur = calloc(n + 1, sizeof(*cur));
	prev = calloc(n + 1, sizeof(*prev));
	if (!body || !cur || !prev) {
		rc = -ENOMEM;
		goto out;
	}
	n = 0;
	for (uint32_t bb = 0; bb < loop->nblocks; bb++)
		for (uint32_t k = 0; k < loop->blocks[bb]->ninsts; k++)
			body[n++] = loop->blocks[bb]->insts[k];
	bir_inst_unlink(loop);
	for (int64_t v = ax->lb; !rc && v < ax->ub; v += ax->stride) {
		uint32_t idx = 0;

		for (uint32_t bb = 0; !rc && bb < loop->nblocks; bb++) {
			struct bir_block *blk = loop->blocks[bb];

			for (uint32_t k = 0; !rc && k < blk->ninsts; k++) {
				struct bir_inst *c = bir_inst_clone(m, blk->insts[k]);
				char *nm = NULL;

				if (!c || asprintf(&nm, "%s_%s%lld", c->name,
						   ax->name, (long long)v) < 0 ||
				    bir_inst_rename(c, nm))
					rc = -ENOMEM;
				free(nm);
				if (!rc) {
					subst_axis(c, ax->name, v);
					rc = renumber_channels(c, ((uint64_t)v - (uint64_t)ax->lb) /
							       (uint64_t)ax->stride, trips, err);
				}
				if (!rc && bir_inst_insert(b, c, at++))
					rc = -ENOMEM;
				if (rc)
					bir_inst_free(c);
				else
					cur[idx++] = c;
			}
		}
		if (!rc)
			rc = unroll_deps(loop, body, cur, v == ax->lb ? NULL : prev, n);
		memcpy(prev, cur, n * sizeof(*cur));
	}
	r = (struct redirect){ .loop = loop, .last = prev,
			       .n = trips ? n : 0 };
	if (!rc)
		rc = bir_foreach_inst(b->fn, redirect_dep, &r);
out:
	bir_inst_free(loop);
	free(body);
	free(cur);
	free(prev);
	return rc;
}

int bir_unroll(struct bir_module *m, struct nscc_err *err)
{
	for (uint32_t f = 0; f < m->nfns; f++) {
		struct bir_function *fn = m->fns[f];

		for (uint32_t b = 0; b < fn->nblocks; b++) {
			struct bir_block *blk = fn->blocks[b];

			for (uint32_t k = 0; k < blk->ninsts;) {
				int rc;

				if (blk->insts[k]->op != BIR_OP_LOOP) {
					k++;
					continue;
				}
				rc = unroll_one(m, blk, k, err);
				if (rc)
					return rc;
				/* clones at k may hold inner Loops: rescan */
			}
		}
	}
	return 0;
}

/* ---- LowerGenericIndirect ------------------------------------------- */

static int lower_gi(struct bir_inst *i, void *arg)
{
	struct nscc_err *err = arg;
	const struct bir_val *st;

	if (i->op != BIR_OP_GENERIC_INDIRECT_LOAD)
		return 0;
	st = bir_attr_get(i, "index_stride");
	if (i->nins != 2 || i->ins[0].kind != BIR_OPND_AP ||
	    i->ins[1].kind != BIR_OPND_REG || i->nouts != 1 ||
	    !st || st->kind != BIR_VAL_INT)
		return errmsg(err, -EINVAL, "LowerGenericIndirect", i,
			      "needs ins [physical_ap, register_access], one out and an integer 'index_stride'");
	/* the index register becomes a run-time term of the source */
	if (bir_dyn_add(i->mod, &i->ins[0], i->ins[1].name, st->i))
		return -ENOMEM;
	bir_operand_remove(i, false, 1);
	bir_attr_del(i, "index_stride");
	return bir_inst_set_op(i, BIR_OP_TENSOR_COPY);
}

int bir_lower_generic_indirect(struct bir_module *m, struct nscc_err *err)
{
	for (uint32_t f = 0; f < m->nfns; f++) {
		int rc = bir_foreach_inst(m->fns[f], lower_gi, err);

		if (rc)
			return rc;
	}
	return 0;
}

/* ---- ConstantPropagate ---------------------------------------------- */

static uint64_t ap_elems(const struct bir_operand *o, uint32_t from)
{
	uint64_t n = 1;

	for (uint32_t k = from; k < o->nap; k++)
		n *= (uint64_t)o->ap[k].num;
	return n;
}

/* does the AP write every byte of its location (contiguous, offset 0) */
static bool covers(const struct bir_operand *o)
{
	const struct bir_memloc *ml = o->kind == BIR_OPND_AP ? o->ml : NULL;
	const struct bir_dtype *dt = bir_operand_dtype(o, ml);
	/* bytes per element: the plan core's dtype table; float32 untyped */
	uint32_t es = dt->name ? bir_dtype_size(dt) :
		      kbin_dtype(KBIN_DMA_DTYPE_FLOAT32)->size;
	int64_t want = 1;

	if (!ml || o->kind != BIR_OPND_AP || o->offset || o->ndyn || !o->nap ||
	    o->ap[0].step != 1 || (uint64_t)o->ap[0].num != ml->dims[0])
		return false;
	for (uint32_t k = o->nap; k-- > 1;) {
		if (o->ap[k].step != want)
			return false;
		want *= o->ap[k].num;
	}
	return ap_elems(o, 1) * es == ml->dims[1];
}

/* the locations known all zero (each written whole by a Memset 0) */
struct zset {
	const struct bir_memloc **locs;
	uint32_t n;
};

static bool zset_has(const struct zset *z, const struct bir_memloc *ml)
{
	for (uint32_t k = 0; ml && k < z->n; k++)
		if (z->locs[k] == ml)
			return true;
	return false;
}

static void zset_del(struct zset *z, const struct bir_memloc *ml)
{
	for (uint32_t k = 0; ml && k < z->n; k++)
		if (z->locs[k] == ml)
			z->locs[k--] = z->locs[--z->n];
}

static int fold_block(struct bir_block *b, struct zset *z)
{
	z->n = 0;
	for (uint32_t k = 0; k < b->ninsts; k++) {
		struct bir_inst *i = b->insts[k];

		if (i->op == BIR_OP_TENSOR_COPY && i->nins == 1 &&
		    i->ins[0].kind == BIR_OPND_AP &&
		    zset_has(z, i->ins[0].ml)) {
			/* a copy of an all-zero tensor: Memset 0 */
			struct bir_val zero = bir_val_real(0);

			bir_operand_remove(i, false, 0);
			bir_inst_set_op(i, BIR_OP_MEMSET);
			if (bir_attr_set(i, "value", &zero))
				return -ENOMEM;
		}
		for (uint32_t o = 0; o < i->nouts; o++)
			if (i->outs[o].kind == BIR_OPND_AP)
				zset_del(z, i->outs[o].ml);
		if (i->op == BIR_OP_MEMSET && i->nouts == 1 &&
		    bir_attr_num(i, "value", 0) == 0 && covers(&i->outs[0])) {
			const struct bir_memloc **nn =
				realloc(z->locs, (z->n + 1) * sizeof(*nn));

			if (!nn)
				return -ENOMEM;
			z->locs = nn;
			z->locs[z->n++] = i->outs[0].ml;
		}
		if (i->nblocks)
			z->n = 0;	/* conservative across loops */
	}
	return 0;
}

static bool pure(const struct bir_inst *i)
{
	switch (i->op) {
	case BIR_OP_TENSOR_COPY: case BIR_OP_MEMSET: case BIR_OP_ACTIVATION:
	case BIR_OP_TENSOR_TENSOR: case BIR_OP_TENSOR_SCALAR:
	case BIR_OP_TENSOR_REDUCE: case BIR_OP_MATMULT: case BIR_OP_TRANSPOSE:
		return true;
	default:
		return false;
	}
}

struct use_ctx {
	const struct bir_memloc *ml;
	bool read, any;
};

static int find_use(struct bir_inst *i, void *arg)
{
	struct use_ctx *u = arg;

	for (uint32_t k = 0; k < i->nins; k++)
		if (i->ins[k].kind == BIR_OPND_AP && i->ins[k].ml == u->ml)
			u->read = u->any = true;
	for (uint32_t k = 0; k < i->nouts; k++)
		if (i->outs[k].kind == BIR_OPND_AP && i->outs[k].ml == u->ml)
			u->any = true;
	return 0;
}

/* every out of @i is an AP to a location in @dead */
static bool all_outs_in(const struct bir_inst *i,
			const struct bir_memloc *dead)
{
	if (!i->nouts)
		return false;
	for (uint32_t k = 0; k < i->nouts; k++)
		if (i->outs[k].kind != BIR_OPND_AP || i->outs[k].ml != dead)
			return false;
	return true;
}

static void drop_writers(struct bir_block *b, const struct bir_memloc *dead)
{
	for (uint32_t k = 0; k < b->ninsts;) {
		struct bir_inst *i = b->insts[k];

		for (uint32_t j = 0; j < i->nblocks; j++)
			drop_writers(i->blocks[j], dead);
		if (pure(i) && all_outs_in(i, dead)) {
			bir_inst_unlink(i);
			bir_inst_free(i);
		} else {
			k++;
		}
	}
}

/* the kernel's parameters (the call site binds them by name) */
struct params {
	const char *const *v;
	uint32_t n;
};

static bool is_param(const struct params *p, const char *name)
{
	for (uint32_t k = 0; k < p->n; k++)
		if (!strcmp(p->v[k], name))
			return true;
	return false;
}

/*
 * remove unread internal locations and their writers; 1 if changed.  A
 * parameter, whatever its MemoryType, is the kernel's effect: never
 * removed, nor its writers (Documentation/compiler-passes.rst)
 */
static int dead_results(struct bir_function *f, const struct params *p)
{
	for (uint32_t s = 0; s < f->nsets; s++) {
		for (uint32_t l = 0; l < f->sets[s]->nlocs; l++) {
			struct bir_memloc *ml = f->sets[s]->locs[l];
			struct use_ctx u = { .ml = ml };

			if (ml->type & (BIR_MEM_INPUT | BIR_MEM_OUTPUT) ||
			    ml->pinned || ml->runtime_reserved ||
			    is_param(p, ml->name))
				continue;
			bir_foreach_inst(f, find_use, &u);
			if (u.read || !u.any)
				continue;	/* read, or no result at all */
			for (uint32_t b = 0; b < f->nblocks; b++)
				drop_writers(f->blocks[b], ml);
			u.any = false;
			bir_foreach_inst(f, find_use, &u);
			if (u.any)
				continue;
			bir_memloc_remove(ml);
			if (!f->sets[s]->nlocs)
				bir_set_remove(f->sets[s]);
			return 1;
		}
	}
	return 0;
}

int bir_constant_propagate(struct bir_module *m, const char *const *params,
			   uint32_t nparams, struct nscc_err *err)
{
	const struct params p = { params, params ? nparams : 0 };
	struct zset z = { 0 };
	int rc = 0;

	(void)err;
	for (uint32_t f = 0; f < m->nfns && !rc; f++) {
		struct bir_function *fn = m->fns[f];

		for (uint32_t b = 0; b < fn->nblocks && !rc; b++)
			rc = fold_block(fn->blocks[b], &z);
		while (!rc && dead_results(fn, &p))
			;
	}
	free(z.locs);
	return rc;
}
