// SPDX-License-Identifier: GPL-2.0
/* requires: nothing; guarantees: same-kind implicit-permute CollectiveCompute merged across the independent instructions between them, no two consecutive ones share a kind (else -EINVAL) */
/*
 * pass_coalesce.c - coalesce_multichannel_cc_ops, orders 42 and 62
 * (Documentation/compiler-passes.rst): per-channel CollectiveCompute
 * instructions of an implicit permute kind (PermuteImplicit,
 * PermuteReduceImplicit) merge into the first of their block with
 * several inputs and outputs, moving up across the instructions between
 * them that they share no written byte or register with (Unroll's copies
 * alternate with the other body instructions).  Afterwards no two
 * consecutive CollectiveCompute of those kinds may share a kind; that is
 * checked.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "bir.h"
#include "nscc_internal.h"

static const char *cc_kind(const struct bir_inst *i)
{
	const char *k;

	if (i->op != BIR_OP_COLLECTIVE_COMPUTE)
		return NULL;
	k = bir_attr_str(i, "cc_op");
	if (k && (!strcmp(k, "PermuteImplicit") ||
		  !strcmp(k, "PermuteReduceImplicit")))
		return k;
	return NULL;
}

static bool is_channel_key(const char *k)
{
	return !strcmp(k, "channel") || !strcmp(k, "channels");
}

/* the attributes of @a are in @b, apart from the channel number(s) */
static bool attrs_in(const struct bir_val *a, const struct bir_val *b,
		     uint32_t *n)
{
	*n = 0;
	for (uint32_t k = 0; k < a->n; k++) {
		const struct bir_val *o;

		if (is_channel_key(a->members[k].key))
			continue;
		(*n)++;
		o = bir_val_get(b, a->members[k].key);
		if (!o || !bir_val_equal(&a->members[k].v, o))
			return false;
	}
	return true;
}

/* same attributes apart from the channel number(s), same engine */
static bool compatible(const struct bir_inst *a, const struct bir_inst *b)
{
	uint32_t na, nb;

	return attrs_in(&a->attrs, &b->attrs, &na) &&
	       attrs_in(&b->attrs, &a->attrs, &nb) && na == nb &&
	       ((!a->engine && !b->engine) ||
		(a->engine && b->engine && !strcmp(a->engine, b->engine)));
}

/* ---- moving a collective up: the dependence rules ------------------- */

/*
 * How far a collective is looked for after the one it would merge into:
 * keeps the pass linear on long blocks (an Unroll of a body of up to
 * this many instructions still merges).
 */
#define COALESCE_WINDOW	1024

/* bytes per element of an operand: the plan core's dtype table */
static uint64_t elem_bytes(const struct bir_operand *o,
			   const struct bir_memloc *ml)
{
	return bir_dtype_size(bir_operand_dtype(o, ml));
}

/*
 * The bytes an access pattern touches, as partitions [p0, p1) times
 * bytes [b0, b1) of each (the location's own frame: partition p's byte
 * b at p x bytes per partition + b).  false when that cannot be told
 * (run-time terms, an unknown dtype, steps that are not positive, a run
 * past its partition, overflow): the caller then takes the whole
 * location.
 */
static bool ap_box(const struct bir_memloc *ml, const struct bir_operand *o,
		   uint64_t box[4])
{
	uint64_t row = ml->dims[1], esz = elem_bytes(o, ml), span = 0, t;

	if (o->ndyn || !o->nap || !esz || !row || o->offset < 0)
		return false;
	for (uint32_t k = 0; k < o->nap; k++)
		if (o->ap[k].step <= 0 || o->ap[k].num <= 0)
			return false;
	for (uint32_t k = 1; k < o->nap; k++) {
		if (__builtin_mul_overflow((uint64_t)(o->ap[k].num - 1),
					   (uint64_t)o->ap[k].step, &t) ||
		    __builtin_mul_overflow(t, esz, &t) ||
		    __builtin_add_overflow(span, t, &span))
			return false;
	}
	box[0] = (uint64_t)o->offset / row;		/* p0 */
	box[2] = (uint64_t)o->offset % row;		/* b0 */
	if (__builtin_add_overflow(box[2], span + esz, &box[3]) ||
	    box[3] > row)
		return false;
	if (__builtin_mul_overflow((uint64_t)(o->ap[0].num - 1),
				   (uint64_t)o->ap[0].step, &t) ||
	    __builtin_add_overflow(box[0], t + 1, &box[1]))
		return false;
	return true;
}

/*
 * Two access patterns may touch a common byte: the same location, or
 * two DRAM locations (only DRAM locations may alias), unless both boxes
 * are known and apart
 */
static bool aps_overlap(const struct bir_operand *a, const struct bir_operand *b)
{
	const struct bir_memloc *ma = a->ml;
	const struct bir_memloc *mb = b->ml;
	uint64_t x[4], y[4];

	if (!ma || !mb)
		return true;	/* unknown: assume the worst */
	if (ma != mb)
		return (ma->type & BIR_MEM_DRAM) && (mb->type & BIR_MEM_DRAM);
	if (!ap_box(ma, a, x) || !ap_box(mb, b, y))
		return true;
	return x[0] < y[1] && y[0] < x[1] && x[2] < y[3] && y[2] < x[3];
}

/* does operand @o name register @reg (itself, or a run-time term) */
static bool names_reg(const struct bir_operand *o, const char *reg)
{
	if (o->kind == BIR_OPND_REG)
		return !strcmp(o->name, reg);
	for (uint32_t d = 0; d < o->ndyn; d++)
		if (!strcmp(o->dyn[d].axis, reg))
			return true;
	return false;
}

/* an operand of @w (side @w_out) against one of @r (side @r_out) */
static bool opnds_conflict(const struct bir_operand *w, bool w_out,
			   const struct bir_operand *r, bool r_out)
{
	if (!w_out && !r_out)
		return false;	/* two reads */
	if (w->kind == BIR_OPND_REG && w_out)
		return names_reg(r, w->name);
	if (r->kind == BIR_OPND_REG && r_out)
		return names_reg(w, r->name);
	if (w->kind != BIR_OPND_AP || r->kind != BIR_OPND_AP)
		return false;
	return aps_overlap(w, r);
}

/* @a and @b touch a common byte or register and one of them writes it */
static bool insts_conflict(const struct bir_inst *a, const struct bir_inst *b)
{
	for (int sa = 0; sa < 2; sa++) {
		const struct bir_operand *oa = sa ? a->outs : a->ins;
		uint32_t na = sa ? a->nouts : a->nins;

		for (uint32_t i = 0; i < na; i++)
			for (int sb = 0; sb < 2; sb++) {
				const struct bir_operand *ob = sb ? b->outs : b->ins;
				uint32_t nb = sb ? b->nouts : b->nins;

				for (uint32_t j = 0; j < nb; j++)
					if (opnds_conflict(&oa[i], sa, &ob[j], sb))
						return true;
			}
	}
	return false;
}

/*
 * An instruction nothing may move across: another collective (their
 * order is the ranks' order), control flow, a Loop, a kernel call or an
 * opcode this IR does not know (what they touch is not in their
 * operands)
 */
static bool barrier(const struct bir_inst *i)
{
	switch (i->op) {
	case BIR_OP_COLLECTIVE_COMPUTE: case BIR_OP_BIR_KERNEL:
	case BIR_OP_NKI_KERNEL: case BIR_OP_NKI_KLIR_KERNEL:
	case BIR_OP_COMPARE_AND_BRANCH: case BIR_OP_UNCONDITIONAL_BRANCH:
	case BIR_OP_LOOP: case BIR_OP_OTHER:
		return true;
	default:
		return i->nblocks != 0;
	}
}

/*
 * the instructions merged away so far in a function, each with the one
 * it went into: a hash table keyed by the instruction (the references
 * deps hold), as every dep of every instruction a collective crosses is
 * looked up in it (a list scanned per look-up made the pass quadratic in
 * the function's collectives)
 */
struct merged {
	struct nscc_hash into;
	uint32_t n;
};

/* what a dep on @i follows now: @i, or the collective it went into */
static struct bir_inst *merged_into(const struct merged *mg,
				    struct bir_inst *i)
{
	struct bir_inst *t = mg->n && i ? nscc_hash_get_ptr(&mg->into, i) : NULL;

	return t ? t : i;
}

static int merged_add(struct merged *mg, const struct bir_inst *from,
		      struct bir_inst *into)
{
	if (nscc_hash_put_ptr(&mg->into, from, into, NULL))
		return -ENOMEM;	/* merged away once: never -EEXIST */
	mg->n++;
	return 0;
}

/* @n depends (deps) on instruction @x */
static bool depends_on(const struct bir_inst *n, const struct bir_inst *x,
		       const struct merged *mg)
{
	for (uint32_t d = 0; d < n->ndeps; d++)
		if (merged_into(mg, n->dep_insts[d]) == x)
			return true;
	return false;
}

/*
 * May @n (at @j) move up to just after @k, across b->insts[k + 1 .. j - 1],
 * without changing what any of them reads or writes?
 */
static bool can_hoist(const struct bir_block *b, uint32_t k, uint32_t j,
		      const struct merged *mg)
{
	const struct bir_inst *n = b->insts[j];

	for (uint32_t x = k + 1; x < j; x++) {
		const struct bir_inst *i = b->insts[x];

		if (barrier(i) || depends_on(n, i, mg) ||
		    insts_conflict(n, i))
			return false;
	}
	return true;
}

/*
 * every dep on a merged instruction follows what it went into, each
 * once, none on @i itself (an unresolved dep, NULL, is kept as it is)
 */
static int rename_deps(struct bir_inst *i, void *arg)
{
	const struct merged *mg = arg;
	uint32_t o = 0;

	for (uint32_t d = 0; d < i->ndeps; d++) {
		struct bir_inst *t = merged_into(mg, i->dep_insts[d]);
		bool dup = t == i;

		for (uint32_t e = 0; t && !dup && e < o; e++)
			dup = i->dep_insts[e] == t;
		if (dup)
			continue;
		i->deps[o] = t ? t->name : i->deps[d];
		i->dep_insts[o++] = t;
	}
	i->ndeps = o;
	return 0;
}

/* ---- merging a group: every allocation once ------------------------ */

/* the collectives that merge into one, in block order */
struct group {
	struct bir_inst **v;
	uint32_t n, cap;
};

static int group_add(struct group *g, struct bir_inst *i)
{
	if (g->n == g->cap) {
		uint32_t cap = g->cap ? 2 * g->cap : 16;
		struct bir_inst **v = realloc(g->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		g->v = v;
		g->cap = cap;
	}
	g->v[g->n++] = i;
	return 0;
}

/* @a's ins (@side 0) or outs (1), then those of each of @g, in order */
static int merge_ops(struct bir_inst *a, const struct group *g, int side)
{
	struct bir_operand **v = side ? &a->outs : &a->ins;
	uint32_t *cnt = side ? &a->nouts : &a->nins;
	size_t tot = *cnt, at = *cnt;
	struct bir_operand *nv;

	for (uint32_t k = 0; k < g->n; k++)
		tot += side ? g->v[k]->nouts : g->v[k]->nins;
	if (tot == *cnt)
		return 0;
	if (tot > UINT32_MAX)
		return -ENOMEM;
	nv = bir_alloc(a->mod, tot * sizeof(*nv));
	if (!nv)
		return -ENOMEM;
	if (*cnt)
		memcpy(nv, *v, *cnt * sizeof(*nv));	/* same arena */
	for (uint32_t k = 0; k < g->n; k++) {
		const struct bir_operand *o = side ? g->v[k]->outs : g->v[k]->ins;
		uint32_t n = side ? g->v[k]->nouts : g->v[k]->nins;

		for (uint32_t j = 0; j < n; j++)
			if (bir_operand_copy(a->mod, &nv[at++], &o[j]))
				return -ENOMEM;
	}
	*v = nv;
	*cnt = (uint32_t)tot;
	return 0;
}

/*
 * @a's channel list: its "channels", or its own "channel" (then dropped),
 * then the "channel" of each of @g that has one
 */
static int merge_channels(struct bir_inst *a, const struct group *g)
{
	const struct bir_val *have = bir_attr_get(a, "channels");
	const struct bir_val *own = have ? NULL : bir_attr_get(a, "channel");
	struct bir_val list = { .kind = BIR_VAL_LIST };
	uint32_t base = have ? have->n : 0, add = own ? 1 : 0;
	int rc;

	for (uint32_t k = 0; k < g->n; k++)
		add += bir_attr_get(g->v[k], "channel") != NULL;
	if (!add)
		return 0;	/* no channel anywhere */
	if (have && have->kind != BIR_VAL_LIST)
		return -EINVAL;
	list.items = malloc(((size_t)base + add) * sizeof(*list.items));
	if (!list.items)
		return -ENOMEM;
	if (base)
		memcpy(list.items, have->items, base * sizeof(*list.items));
	list.n = base;
	if (own)
		list.items[list.n++] = *own;
	for (uint32_t k = 0; k < g->n; k++) {
		const struct bir_val *c = bir_attr_get(g->v[k], "channel");

		if (c)
			list.items[list.n++] = *c;
	}
	rc = bir_attr_set(a, "channels", &list);	/* copied into the arena */
	free(list.items);
	if (!rc && own)
		bir_attr_del(a, "channel");
	return rc;
}

/*
 * @a takes the deps of each of @g (their work is @a's now), each once,
 * none on @a itself
 */
static int merge_deps(struct bir_inst *a, const struct group *g,
		      const struct merged *mg)
{
	size_t tot = a->ndeps;
	struct nscc_hash seen;
	const char **nd;
	struct bir_inst **nt;
	uint32_t at = a->ndeps;
	int rc = 0;

	for (uint32_t k = 0; k < g->n; k++)
		tot += g->v[k]->ndeps;
	if (tot == a->ndeps)
		return 0;
	if (tot > UINT32_MAX)
		return -ENOMEM;
	nd = bir_alloc(a->mod, tot * sizeof(*nd));
	nt = bir_alloc(a->mod, tot * sizeof(*nt));
	if (!nd || !nt)
		return -ENOMEM;
	nscc_hash_init(&seen);
	for (uint32_t d = 0; d < a->ndeps && !rc; d++) {
		nd[d] = a->deps[d];
		nt[d] = a->dep_insts[d];
		rc = nt[d] ? nscc_hash_put_ptr(&seen, nt[d], a, NULL) : 0;
		rc = rc == -EEXIST ? 0 : rc;
	}
	for (uint32_t k = 0; k < g->n && !rc; k++)
		for (uint32_t d = 0; d < g->v[k]->ndeps && !rc; d++) {
			struct bir_inst *t = merged_into(mg, g->v[k]->dep_insts[d]);

			if (t == a || (t && nscc_hash_get_ptr(&seen, t)))
				continue;
			rc = t ? nscc_hash_put_ptr(&seen, t, a, NULL) : 0;
			/* the name of what it follows now (pool strings) */
			nd[at] = t ? t->name : g->v[k]->deps[d];
			nt[at++] = t;
		}
	nscc_hash_fini(&seen);
	if (rc)
		return -ENOMEM;
	a->deps = nd;
	a->dep_insts = nt;
	a->ndeps = at;
	return 0;
}

/*
 * @a takes over the collectives of @g (unlinked from their block; freed
 * here), each of @a's arrays made once for the whole group: appending one
 * collective at a time copied them each time, and the arena kept every
 * copy (quadratic in the group)
 */
static int merge_group(struct bir_inst *a, struct group *g,
		       const struct merged *mg)
{
	int rc = 0;

	if (g->n)
		rc = merge_channels(a, g);
	if (g->n && !rc)
		rc = merge_ops(a, g, 0);
	if (g->n && !rc)
		rc = merge_ops(a, g, 1);
	if (g->n && !rc)
		rc = merge_deps(a, g, mg);
	for (uint32_t k = 0; k < g->n; k++)
		bir_inst_free(g->v[k]);
	g->n = 0;
	return rc;
}

static int coalesce_block(struct bir_block *b, struct merged *mg,
			  struct nscc_err *err)
{
	struct group g = { .n = 0 };
	int rc = 0;

	for (uint32_t k = 0; k + 1 < b->ninsts && !rc; k++) {
		struct bir_inst *a = b->insts[k];
		const char *ka = cc_kind(a);

		if (!ka)
			continue;
		for (uint32_t j = k + 1; j < b->ninsts && j <= k + COALESCE_WINDOW;) {
			struct bir_inst *n = b->insts[j];
			const char *kn = cc_kind(n);

			if (!kn || strcmp(ka, kn) || !compatible(a, n)) {
				if (barrier(n))
					break;
				j++;
				continue;
			}
			if (!can_hoist(b, k, j, mg))
				break;	/* it stays; so do those after it */
			rc = group_add(&g, n);
			if (rc)
				break;
			bir_inst_unlink(n);
			rc = merged_add(mg, n, a);
			if (rc)
				break;
		}
		rc = merge_group(a, &g, mg) ?: rc;
		if (rc == -EINVAL) {
			snprintf(err->msg, sizeof(err->msg),
				 "block '%s': CollectiveCompute '%s': attribute 'channels' is not a list",
				 b->name, a->name);
			free(g.v);
			return rc;
		}
	}
	free(g.v);
	if (rc)
		goto nomem;
	for (uint32_t k = 0; k + 1 < b->ninsts; k++) {
		const char *ka = cc_kind(b->insts[k]);
		const char *kn = cc_kind(b->insts[k + 1]);

		if (ka && kn && !strcmp(ka, kn)) {
			snprintf(err->msg, sizeof(err->msg),
				 "block '%s': consecutive CollectiveCompute '%s' and '%s' share kind '%s' but differ in other attributes; they cannot be coalesced",
				 b->name, b->insts[k]->name,
				 b->insts[k + 1]->name, ka);
			return -EINVAL;
		}
	}
	for (uint32_t k = 0; k < b->ninsts; k++)
		for (uint32_t j = 0; j < b->insts[k]->nblocks; j++) {
			int rc = coalesce_block(b->insts[k]->blocks[j], mg, err);

			if (rc)
				return rc;
		}
	return 0;
nomem:
	snprintf(err->msg, sizeof(err->msg), "out of memory");
	return -ENOMEM;
}

int bir_pass_coalesce(struct bir_module *m, const struct bir_opts *o,
		      bool flag, struct nscc_err *err)
{
	int rc = 0;

	(void)o;
	(void)flag;
	for (uint32_t f = 0; !rc && f < m->nfns; f++) {
		struct merged mg = { .n = 0 };

		nscc_hash_init(&mg.into);
		for (uint32_t b = 0; !rc && b < m->fns[f]->nblocks; b++)
			rc = coalesce_block(m->fns[f]->blocks[b], &mg, err);
		if (!rc && mg.n)
			rc = bir_foreach_inst(m->fns[f], rename_deps, &mg);
		nscc_hash_fini(&mg.into);
	}
	return rc;
}
