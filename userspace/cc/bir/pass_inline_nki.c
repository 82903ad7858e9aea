// SPDX-License-Identifier: GPL-2.0
/* requires: NKIKernel call sites name a kernel function by "func", no call cycle (else -ELOOP); guarantees: the placement's call sites replaced by the callee's cleaned body, SB placed if the allocator ran, unused callees dropped; breaks: blocks split at call sites */
/*
 * pass_inline_nki.c - InlineNKIKernel, orders 41 and 61
 * (Documentation/compiler-passes.rst): every NKIKernel call site whose
 * recorded allocation status matches the pass placement is replaced by
 * the body of the NKI function it names, after a JSON round-trip of that
 * function into a temporary module and the KLR cleanup passes (Unroll,
 * LowerGenericIndirect, ConstantPropagate) on it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "bir.h"
#include "nscc_internal.h"

/* one name binding: callee name -> caller operand (or new name) */
struct bind {
	const char *from;
	const char *to;
	int64_t offset;		/* added to a rebound AP's offset */
};

struct binds {
	struct bind *v;
	uint32_t n;
};

static int binds_add(struct binds *b, const char *from, const char *to,
		     int64_t off)
{
	struct bind *nv = realloc(b->v, (b->n + 1) * sizeof(*nv));

	if (!nv)
		return -ENOMEM;
	b->v = nv;
	nv[b->n++] = (struct bind){ from, to, off };
	return 0;
}

static const struct bind *binds_get(const struct binds *b, const char *from)
{
	for (uint32_t k = 0; k < b->n; k++)
		if (!strcmp(b->v[k].from, from))
			return &b->v[k];
	return NULL;
}

static void binds_free(struct binds *b)
{
	free(b->v);
}

/* state of one call-site expansion */
struct nki {
	struct bir_module *m;
	struct bir_inst *call;
	struct bir_function *caller, *kfn;
	struct bir_module *tmp;
	/* the bound-to names are strings of the caller's module */
	struct binds args;	/* callee param -> caller operand name */
	struct binds names;	/* callee internal -> "<inst>:<name>" */
	struct binds blocks;	/* callee block -> caller block */
	struct nscc_hash insts;	/* callee instruction -> its clone */
	struct bir_inst **clones;	/* the clones, in splice order */
	const struct bir_inst **srcs;	/* the callee instruction of each */
	uint32_t nclones;
	uint64_t sb_base;
	int64_t kind;		/* kernel_source_val: 0, 1 or 2 */
	const struct bir_opts *o;
	struct nscc_err *err;
};

static int fail(struct nki *n, int rc, const char *fmt, const char *a)
{
	snprintf(n->err->msg, sizeof(n->err->msg),
		 "instruction '%s': ", n->call->name);
	snprintf(n->err->msg + strlen(n->err->msg),
		 sizeof(n->err->msg) - strlen(n->err->msg), fmt, a);
	return rc;
}

/* ---- (a)+(b): JSON re-materialize and KLR cleanup -------------------- */

/*
 * The kernel's parameter names, the strings of the call site's func_args
 * and func_outs (bind_params() checks them later), into *@out (malloc'd,
 * borrowing the call's strings).  Return: 0 or -ENOMEM.
 */
static int param_names(const struct bir_inst *call, const char ***out,
		       uint32_t *n)
{
	static const char *const keys[2] = { "func_args", "func_outs" };
	uint32_t cap = 0;

	*out = NULL;
	*n = 0;
	for (int side = 0; side < 2; side++) {
		const struct bir_val *a = bir_attr_get(call, keys[side]);

		if (a && a->kind == BIR_VAL_LIST)
			cap += a->n;
	}
	*out = calloc(cap + 1, sizeof(**out));
	if (!*out)
		return -ENOMEM;
	for (int side = 0; side < 2; side++) {
		const struct bir_val *a = bir_attr_get(call, keys[side]);

		for (uint32_t k = 0; a && a->kind == BIR_VAL_LIST && k < a->n; k++)
			if (a->items[k].kind == BIR_VAL_STR)
				(*out)[(*n)++] = a->items[k].s;
	}
	return 0;
}

static int rematerialize(struct nki *n, const struct bir_function *callee)
{
	char *text = bir_function_to_string(callee);
	const char **params = NULL;
	uint32_t nparams = 0;
	int rc;

	if (!text)
		return -ENOMEM;
	n->tmp = bir_module_new(n->m->arch_level);
	if (!n->tmp || bir_val_copy(n->tmp, &n->tmp->arch, &n->m->arch)) {
		free(text);
		return -ENOMEM;
	}
	n->tmp->version = n->m->version;
	/* parse back: re-canonicalize */
	rc = bir_function_from_string(n->tmp, text, strlen(text), &n->kfn,
				      n->err);
	free(text);
	if (!rc)
		rc = bir_unroll(n->tmp, n->err);
	if (!rc)
		rc = bir_lower_generic_indirect(n->tmp, n->err);
	/* the parameters are the kernel's effect: ConstantPropagate keeps them */
	if (!rc)
		rc = param_names(n->call, &params, &nparams);
	if (!rc)
		rc = bir_constant_propagate(n->tmp, params, nparams, n->err);
	free(params);
	return rc;
}

/* ---- checks done before the caller is touched ------------------------ */

static int check_branch_targets(struct nki *n)
{
	const char *entry = n->kfn->blocks[0]->name;

	for (uint32_t b = 0; b < n->kfn->nblocks; b++) {
		const struct bir_block *blk = n->kfn->blocks[b];

		for (uint32_t k = 0; k < blk->ninsts; k++) {
			const struct bir_inst *i = blk->insts[k];
			const char *keys[] = { "target", "on_true", "on_false" };

			for (int t = 0; t < 3; t++) {
				const char *tg = bir_attr_str(i, keys[t]);

				if (!tg)
					continue;
				if (!bir_block_find(n->kfn, tg))
					return fail(n, -EINVAL,
						    "kernel branch to unknown block '%s'", tg);
				if (!strcmp(tg, entry))
					return fail(n, -EINVAL,
						    "kernel branch back to its entry block '%s' is not supported", tg);
			}
		}
	}
	return 0;
}

/* (d) operand binding: func_args / func_outs name the callee params */
static int bind_params(struct nki *n)
{
	static const char *const keys[2] = { "func_args", "func_outs" };

	for (int side = 0; side < 2; side++) {
		const struct bir_val *a = bir_attr_get(n->call, keys[side]);
		struct bir_operand *ops = side ? n->call->outs : n->call->ins;
		uint32_t cnt = side ? n->call->nouts : n->call->nins;

		if (!a || a->kind != BIR_VAL_LIST || a->n != cnt)
			return fail(n, -EINVAL,
				    "'%s' must be an array with one callee parameter name per operand",
				    keys[side]);
		for (uint32_t k = 0; k < cnt; k++) {
			const char *p = a->items[k].kind == BIR_VAL_STR ?
					a->items[k].s : NULL;

			if (!p || ops[k].kind == BIR_OPND_IMM)
				return fail(n, -EINVAL,
					    "'%s' entries must be strings naming memory or register operands",
					    keys[side]);
			if (ops[k].kind == BIR_OPND_AP && !ops[k].ml)
				return fail(n, -EINVAL,
					    "operand memref '%s' is not a memory location of the caller",
					    ops[k].name);
			if (ops[k].kind == BIR_OPND_AP &&
			    !bir_memloc_find(n->kfn, p))
				return fail(n, -EINVAL,
					    "kernel has no parameter '%s'", p);
			if (binds_add(&n->args, p, ops[k].name, ops[k].offset))
				return -ENOMEM;
		}
	}
	return 0;
}

/* the call site's output base: its first SB output (compiler-passes.rst) */
static void find_sb_base(struct nki *n)
{
	n->sb_base = 0;
	for (uint32_t k = 0; k < n->call->nouts; k++) {
		const struct bir_operand *o = &n->call->outs[k];
		const struct bir_memloc *ml;

		if (o->kind != BIR_OPND_AP)
			continue;
		ml = o->ml;
		if (ml && ml->type == BIR_MEM_SB) {
			n->sb_base = ml->addr + (uint64_t)o->offset;
			return;
		}
	}
}

/* ---- (f) memory location re-creation --------------------------------- */

static int newname(struct nki *n, char sep, const char *base, char **out)
{
	if (asprintf(out, "%s%c%s", n->call->name, sep, base) < 0) {
		*out = NULL;
		return -ENOMEM;
	}
	return 0;
}

static int copy_loc(struct nki *n, struct bir_memloc_set *ns,
		    const struct bir_memloc *ml)
{
	struct bir_memloc *nl;
	char *nm;

	if (newname(n, ':', ml->name, &nm))
		return -ENOMEM;
	nl = bir_memloc_add(ns, nm);
	free(nm);
	if (!nl || bir_val_copy(n->m, &nl->extra, &ml->extra))
		return -ENOMEM;
	nl->type = ml->type;
	nl->addr = ml->type == BIR_MEM_SB ? n->sb_base + ml->addr : ml->addr;
	nl->dims[0] = ml->dims[0];
	nl->dims[1] = ml->dims[1];
	nl->bank = ml->bank;
	nl->base = ml->base;
	nl->pinned = ml->pinned;
	nl->tensor_id = ml->tensor_id;
	nl->allocated = ml->allocated;	/* updateAllocated */
	/* the address-space dirty bit of the kernel's source kind */
	nl->addr_space_dirty = ml->addr_space_dirty | (1U << n->kind);
	return binds_add(&n->names, ml->name, nl->name, 0);
}

static int copy_set(struct nki *n, const struct bir_memloc_set *s)
{
	struct bir_memloc_set *ns = NULL;
	char *nm;
	int rc;

	for (uint32_t k = 0; k < s->nlocs; k++) {
		if (binds_get(&n->args, s->locs[k]->name))
			continue;	/* a parameter: bound by name */
		if (!ns) {
			if (newname(n, ':', s->name, &nm))
				return -ENOMEM;
			ns = bir_set_add(n->caller, nm);
			free(nm);
			if (!ns)
				return -ENOMEM;
			ns->scope = 2;
			if (bir_val_copy(n->m, &ns->extra, &s->extra) ||
			    bir_dtype_set(n->m, &ns->dtype, s->dtype.name))
				return -ENOMEM;
			if (s->nshape &&
			    bir_set_set_shape(ns, s->shape, s->nshape))
				return -ENOMEM;
		}
		rc = copy_loc(n, ns, s->locs[k]);
		if (rc)
			return rc;
	}
	return ns ? bir_set_build_tid_index(ns) : 0;
}

static int copy_regs(struct nki *n)
{
	for (uint32_t k = 0; k < n->kfn->nregs; k++) {
		const char *rn = n->kfn->regs[k]->name;
		struct bir_register *r;
		char *nm;

		if (binds_get(&n->args, rn))
			continue;
		if (newname(n, ':', rn, &nm))
			return -ENOMEM;
		r = bir_register_add(n->caller, nm);
		free(nm);
		if (!r || binds_add(&n->names, rn, r->name, 0))
			return -ENOMEM;
	}
	return 0;
}

/* ---- (g) clone, rewire, splice --------------------------------------- */

/* rewireMemlocs: every AP / register name, and dyn register terms */
static int rewire(struct nki *n, struct bir_inst *c)
{
	for (int side = 0; side < 2; side++) {
		struct bir_operand *ops = side ? c->outs : c->ins;
		uint32_t cnt = side ? c->nouts : c->nins;

		for (uint32_t k = 0; k < cnt; k++) {
			struct bir_operand *o = &ops[k];
			const struct bind *b;

			if (o->kind == BIR_OPND_IMM)
				continue;
			b = binds_get(&n->args, o->name);
			if (b)
				o->offset += o->kind == BIR_OPND_AP ? b->offset : 0;
			else
				b = binds_get(&n->names, o->name);
			if (!b)
				return fail(n, -EINVAL,
					    "kernel operand names unknown '%s'", o->name);
			/* bound to the caller's location when inserted */
			if (bir_operand_set_name(c, o, b->to))
				return -ENOMEM;
			for (uint32_t d = 0; d < o->ndyn; d++) {
				b = binds_get(&n->args, o->dyn[d].axis);
				if (!b)
					b = binds_get(&n->names, o->dyn[d].axis);
				if (b)
					o->dyn[d].axis = b->to;
			}
		}
	}
	for (uint32_t b = 0; b < c->nblocks; b++)
		for (uint32_t k = 0; k < c->blocks[b]->ninsts; k++) {
			int rc = rewire(n, c->blocks[b]->insts[k]);

			if (rc)
				return rc;
		}
	return 0;
}

/* branch retarget: UncondBranch target, CompareAndBranch on_true/false */
static int retarget(struct nki *n, struct bir_inst *c)
{
	const char *keys[] = { "target", "on_true", "on_false" };

	for (int t = 0; t < 3; t++) {
		const char *tg = bir_attr_str(c, keys[t]);
		const struct bind *b = tg ? binds_get(&n->blocks, tg) : NULL;
		struct bir_val v = bir_val_str(b ? b->to : NULL);

		if (b && bir_attr_set(c, keys[t], &v))
			return -ENOMEM;
	}
	return 0;
}

/* clone @c of callee instruction @src, inserted: noted for rewire_deps() */
static int note_clone(struct nki *n, const struct bir_inst *src,
		      struct bir_inst *c)
{
	struct bir_inst **nv = realloc(n->clones,
				       (n->nclones + 1) * sizeof(*nv));
	const struct bir_inst **ns;

	if (!nv)
		return -ENOMEM;
	n->clones = nv;
	ns = realloc(n->srcs, (n->nclones + 1) * sizeof(*ns));
	if (!ns)
		return -ENOMEM;
	n->srcs = ns;
	nv[n->nclones] = c;
	ns[n->nclones++] = src;
	return nscc_hash_put_ptr(&n->insts, src, c, NULL) ? -ENOMEM : 0;
}

static int splice_block(struct nki *n, const struct bir_block *kb,
			struct bir_block *into, int *pos)
{
	for (uint32_t k = 0; k < kb->ninsts; k++) {
		struct bir_inst *c = bir_inst_clone(n->m, kb->insts[k]);
		char *nm;
		int rc;

		if (!c || newname(n, '_', kb->insts[k]->name, &nm)) {
			bir_inst_free(c);
			return -ENOMEM;
		}
		rc = bir_inst_rename(c, nm);
		free(nm);
		c->scope &= ~0xCU;	/* the clone's scope bits 2 and 3 */
		if (!rc)
			rc = rewire(n, c);
		if (!rc)
			rc = retarget(n, c);
		if (!rc)
			rc = bir_inst_insert(into, c, *pos);
		if (rc) {
			bir_inst_free(c);
			return rc;
		}
		if (*pos >= 0)
			(*pos)++;
		if (note_clone(n, kb->insts[k], c))
			return -ENOMEM;
	}
	return 0;
}

/*
 * The deps of a kernel instruction reference kernel instructions
 * (Unroll's unroll deps among them): each dep of its clone is re-pointed
 * at the clone of the instruction referenced (a clone from the temporary
 * module has no references of its own).
 */
static int rewire_deps(struct nki *n)
{
	for (uint32_t k = 0; k < n->nclones; k++) {
		struct bir_inst *c = n->clones[k];
		const struct bir_inst *s = n->srcs[k];

		for (uint32_t d = 0; d < c->ndeps; d++) {
			struct bir_inst *to = s->dep_insts[d] ?
				nscc_hash_get_ptr(&n->insts, s->dep_insts[d]) : NULL;

			if (!to)
				return fail(n, -EINVAL, "kernel instruction depends on '%s', which the kernel does not have",
					    c->deps[d]);
			bir_log(n->o, "adding unroll dep from %s to %s", c->name,
				to->name);
			bir_inst_set_dep(c, d, to);
		}
	}
	return 0;
}

static bool ends_in_jump(const struct bir_block *b)
{
	return b->ninsts &&
	       b->insts[b->ninsts - 1]->op == BIR_OP_UNCONDITIONAL_BRANCH;
}

/* (h) "br_to_continuation" at the end of the kernel's last block */
static int add_br(struct nki *n, struct bir_block *b, int pos,
		  const char *cont)
{
	struct bir_inst *br;
	char *nm;

	if (newname(n, '_', "br_to_continuation", &nm))
		return -ENOMEM;
	struct bir_val v = bir_val_str(cont);

	br = bir_inst_new(n->m, "UnconditionalBranch", nm);
	free(nm);
	if (!br || bir_attr_set(br, "target", &v) ||
	    bir_inst_insert(b, br, pos)) {
		bir_inst_free(br);
		return -ENOMEM;
	}
	return 0;
}

static int splice(struct nki *n)
{
	struct bir_block *bb = n->call->parent, *cont, **nb;
	int at = bir_inst_index(n->call), bidx = bir_block_index(bb), rc;
	uint32_t nk = n->kfn->nblocks;
	char *nm;

	if (bidx < 0)
		return fail(n, -EINVAL, "%s", "NKIKernel inside a Loop body is not supported");
	/* continuation block: what follows the call site */
	if (newname(n, '_', "cont", &nm))
		return -ENOMEM;
	cont = bir_block_add(n->caller, nm, bidx + 1);
	free(nm);
	if (!cont)
		return -ENOMEM;
	if (bir_block_move_tail(bb, (uint32_t)at + 1, cont))
		return -ENOMEM;
	nb = calloc(nk, sizeof(*nb));
	if (!nb)
		return -ENOMEM;
	nb[0] = bb;
	rc = binds_add(&n->blocks, n->kfn->blocks[0]->name, bb->name, 0);
	for (uint32_t k = 1; !rc && k < nk; k++) {
		if (newname(n, '_', n->kfn->blocks[k]->name, &nm)) {
			rc = -ENOMEM;
			break;
		}
		nb[k] = bir_block_add(n->caller, nm, bidx + (int)k);
		free(nm);
		if (!nb[k] ||
		    binds_add(&n->blocks, n->kfn->blocks[k]->name, nb[k]->name, 0))
			rc = -ENOMEM;
	}
	for (uint32_t k = 0; !rc && k < nk; k++) {
		int pos = k ? -1 : at;

		rc = splice_block(n, n->kfn->blocks[k], nb[k], &pos);
		if (!rc && k == nk - 1 && !ends_in_jump(n->kfn->blocks[k]))
			rc = add_br(n, nb[k], pos, cont->name);
	}
	free(nb);
	return rc;
}

/* ---- driver ------------------------------------------------------------ */

static int check_call(struct nki *n)
{
	const char *fn = bir_attr_str(n->call, "func");
	const struct bir_val *ks = bir_attr_get(n->call, "kernel_source_val");

	if (!fn)
		return fail(n, -EINVAL, "%s", "NKIKernel needs a string 'func'");
	if (!bir_function_find(n->m, fn) ||
	    bir_function_find(n->m, fn) == n->caller)
		return fail(n, -EINVAL, "kernel function '%s' not found", fn);
	if (ks && ks->kind != BIR_VAL_INT)
		return fail(n, -EINVAL, "%s", "'kernel_source_val' must be an integer");
	/* the kernel source kind: 0, 1 or 2 (none: 0) */
	n->kind = ks ? ks->i : 0;
	if (n->kind < 0 || n->kind > 2) {
		snprintf(n->err->msg, sizeof(n->err->msg),
			 "Unrecognized kernel source encountered. (instruction '%s': kernel_source_val %lld; the kinds are 0, 1 and 2)",
			 n->call->name, (long long)n->kind);
		return -EINVAL;
	}
	return 0;
}

static int lower_kernel_inst(struct bir_module *m, struct bir_inst *call,
			     const struct bir_opts *o, struct nscc_err *err)
{
	struct nki n = { .m = m, .call = call, .o = o, .err = err };
	int rc;

	nscc_hash_init(&n.insts);
	n.caller = call->parent->fn;
	rc = check_call(&n);
	if (!rc)
		rc = rematerialize(&n, bir_function_find(m,
						bir_attr_str(call, "func")));
	if (!rc && !n.kfn->nblocks)
		rc = fail(&n, -EINVAL, "%s", "kernel function has no block");
	if (!rc)
		rc = check_branch_targets(&n);
	if (!rc)
		rc = bind_params(&n);
	if (!rc) {
		find_sb_base(&n);
		for (uint32_t k = 0; !rc && k < n.kfn->nsets; k++)
			rc = copy_set(&n, n.kfn->sets[k]);
	}
	if (!rc)
		rc = copy_regs(&n);
	if (!rc)
		rc = splice(&n);
	if (!rc)
		rc = rewire_deps(&n);
	if (!rc && m->sb_allocated)
		rc = bir_sballoc_function(n.caller, err);
	if (!rc) {
		bir_inst_unlink(call);
		bir_inst_free(call);
	}
	binds_free(&n.args);
	binds_free(&n.names);
	binds_free(&n.blocks);
	nscc_hash_fini(&n.insts);
	free(n.clones);
	free(n.srcs);
	bir_module_free(n.tmp);
	if (rc == -ENOMEM)
		snprintf(err->msg, sizeof(err->msg), "out of memory");
	return rc;
}

struct scan {
	struct bir_inst **v;
	uint32_t n;
};

static int collect(struct bir_inst *i, void *arg)
{
	struct scan *s = arg;
	struct bir_inst **nv;

	if (i->op != BIR_OP_NKI_KERNEL)	/* IT == 55 only */
		return 0;
	nv = realloc(s->v, (s->n + 1) * sizeof(*nv));
	if (!nv)
		return -ENOMEM;
	s->v = nv;
	nv[s->n++] = i;
	return 0;
}

struct called {
	const struct bir_module *m;
	const struct bir_function **v;
	uint32_t n;
};

/* note the function named by the "func" of every NKIKernel call site */
static int note_callee(struct bir_inst *i, void *arg)
{
	struct called *c = arg;
	const char *fn = bir_attr_str(i, "func");
	const struct bir_function *f, **nv;

	if (i->op != BIR_OP_NKI_KERNEL || !fn)
		return 0;
	f = bir_function_find(c->m, fn);
	if (!f)
		return 0;
	nv = realloc(c->v, (c->n + 1) * sizeof(*nv));
	if (!nv)
		return -ENOMEM;
	c->v = nv;
	nv[c->n++] = f;
	return 0;
}

static int cmp_ptr(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)*(const void *const *)a;
	uintptr_t y = (uintptr_t)*(const void *const *)b;

	return x < y ? -1 : x > y;
}

/* remove the inlined kernel functions no call site names any more */
static int drop_unused(struct bir_module *m, char **names, uint32_t n,
		       const struct bir_opts *o)
{
	struct called c = { .m = m };
	int rc = 0;

	for (uint32_t j = 0; !rc && j < m->nfns; j++)
		rc = bir_foreach_inst(m->fns[j], note_callee, &c);
	if (!rc && c.n)
		qsort(c.v, c.n, sizeof(*c.v), cmp_ptr);
	for (uint32_t k = 0; !rc && k < n; k++) {
		struct bir_function *f = bir_function_find(m, names[k]);

		if (!f || (c.n && bsearch(&f, c.v, c.n, sizeof(*c.v), cmp_ptr)))
			continue;
		bir_log(o, "dropping func %s", names[k]);
		bir_function_remove(m, f);
	}
	free(c.v);
	return rc;
}

/* ---- call cycles ------------------------------------------------------- */

/* one NKIKernel call: from function index @from to @to, by @inst */
struct call_edge {
	uint32_t from, to;
	const struct bir_inst *inst;
};

struct call_graph {
	const struct bir_module *m;
	const struct bir_function **byptr;	/* sorted, for the index */
	uint32_t *idx;				/* byptr[k] is m->fns[idx[k]] */
	uint32_t cur;
	struct call_edge *e;
	uint32_t ne;
	int oom;
};

static int fn_index(const struct call_graph *g, const struct bir_function *f)
{
	const struct bir_function **p = bsearch(&f, g->byptr, g->m->nfns,
						sizeof(*g->byptr), cmp_ptr);

	return p ? (int)g->idx[p - g->byptr] : -1;
}

static int note_call(struct bir_inst *i, void *arg)
{
	struct call_graph *g = arg;
	const char *fn = bir_attr_str(i, "func");
	const struct bir_function *f;
	struct call_edge *ne;

	if (i->op != BIR_OP_NKI_KERNEL || !fn)
		return 0;
	f = bir_function_find(g->m, fn);
	if (!f)
		return 0;	/* check_call names it */
	ne = realloc(g->e, (g->ne + 1) * sizeof(*ne));
	if (!ne)
		return -ENOMEM;
	g->e = ne;
	ne[g->ne++] = (struct call_edge){ g->cur, (uint32_t)fn_index(g, f), i };
	return 0;
}

static int cmp_edge(const void *a, const void *b)
{
	const struct call_edge *x = a, *y = b;

	return x->from < y->from ? -1 : x->from > y->from;
}

/* "NKI kernel call cycle: f -> g -> f (...)" for the path @path */
static int cycle_msg(const struct call_graph *g, const uint32_t *path,
		     uint32_t n, struct nscc_err *err)
{
	char *s = err->msg;
	size_t cap = sizeof(err->msg), o;
	const struct bir_module *m = g->m;

	if (n == 1) {
		snprintf(s, cap, "NKI kernel '%s' calls itself (instruction '%s'): NKI kernel call cycle: %s -> %s",
			 m->fns[g->e[path[0]].from]->name,
			 g->e[path[0]].inst->name,
			 m->fns[g->e[path[0]].from]->name,
			 m->fns[g->e[path[0]].from]->name);
		return -ELOOP;
	}
	o = (size_t)snprintf(s, cap, "NKI kernel call cycle: %s",
			     m->fns[g->e[path[0]].from]->name);
	for (uint32_t k = 0; k < n && o < cap; k++)
		o += (size_t)snprintf(s + o, cap - o, " -> %s",
				      m->fns[g->e[path[k]].to]->name);
	for (uint32_t k = 0; k < n && o < cap; k++)
		o += (size_t)snprintf(s + o, cap - o, "%s'%s' in '%s'",
				      k ? ", " : " (instructions ",
				      g->e[path[k]].inst->name,
				      m->fns[g->e[path[k]].from]->name);
	if (o < cap)
		snprintf(s + o, cap - o, ")");
	return -ELOOP;
}

/*
 * Refuse a cycle of NKIKernel calls (a kernel that calls itself, or f ->
 * g -> f), which inlining could never finish, naming the functions and
 * the call sites.  Iterative depth-first search over the functions.
 * Return: 0, -ELOOP (message in @err), -ENOMEM.
 */
static int check_call_cycles(struct bir_module *m, struct nscc_err *err)
{
	struct call_graph g = { .m = m };
	uint32_t nf = m->nfns, *first = NULL, *next = NULL, *stack = NULL;
	uint8_t *color = NULL;	/* 0 new, 1 on the path, 2 done */
	int rc = -ENOMEM;

	g.byptr = calloc(nf + 1, sizeof(*g.byptr));
	g.idx = calloc(nf + 1, sizeof(*g.idx));
	if (!g.byptr || !g.idx)
		goto out;
	for (uint32_t k = 0; k < nf; k++)
		g.byptr[k] = m->fns[k];
	qsort(g.byptr, nf, sizeof(*g.byptr), cmp_ptr);
	/* idx: the position in m->fns of each sorted pointer */
	for (uint32_t k = 0; k < nf; k++) {
		const struct bir_function **p = bsearch(&m->fns[k], g.byptr, nf,
							sizeof(*g.byptr), cmp_ptr);

		g.idx[p - g.byptr] = k;
	}
	for (g.cur = 0; g.cur < nf; g.cur++)
		if (bir_foreach_inst(m->fns[g.cur], note_call, &g))
			goto out;
	/* edges grouped by caller: first[f] .. first[f + 1] */
	if (g.ne)
		qsort(g.e, g.ne, sizeof(*g.e), cmp_edge);
	first = calloc(nf + 1, sizeof(*first));
	next = calloc(nf + 1, sizeof(*next));	/* next edge to try */
	stack = calloc(nf + 1, sizeof(*stack));	/* the path, as edges */
	color = calloc(nf + 1, 1);
	if (!first || !next || !stack || !color)
		goto out;
	for (uint32_t k = 0, f = 0; f <= nf; f++) {
		while (k < g.ne && g.e[k].from < f)
			k++;
		first[f] = k;
	}
	rc = 0;
	for (uint32_t root = 0; !rc && root < nf; root++) {
		uint32_t depth = 0, f = root;

		if (color[root])
			continue;
		color[root] = 1;
		next[root] = first[root];
		for (;;) {
			if (next[f] < first[f + 1]) {
				uint32_t e = next[f]++, t = g.e[e].to;

				if (color[t] == 1) {	/* back to the path */
					uint32_t s = depth;

					stack[depth] = e;
					while (s > 0 && g.e[stack[s - 1]].to != t)
						s--;
					if (g.e[stack[s]].from != t)
						s = depth;	/* t == f */
					rc = cycle_msg(&g, stack + s, depth - s + 1,
						       err);
					break;
				}
				if (color[t])
					continue;
				stack[depth++] = e;
				color[t] = 1;
				next[t] = first[t];
				f = t;
				continue;
			}
			color[f] = 2;
			if (!depth)
				break;
			f = g.e[stack[--depth]].from;
		}
	}
out:
	if (rc == -ENOMEM)
		snprintf(err->msg, sizeof(err->msg), "out of memory");
	free(g.byptr);
	free(g.idx);
	free(g.e);
	free(first);
	free(next);
	free(stack);
	free(color);
	return rc;
}

static int load_tensor_map(struct bir_module *m, const struct bir_opts *o,
			   struct nscc_err *err)
{
	if (!o->tensor_map_path || m->tensor_map.kind == BIR_VAL_OBJ)
		return 0;
	return bir_tensor_map_load(m, o->tensor_map_path, err);
}

/* add "<inst>:<set>" entries {dtype, shape} for sets the inliner created */
static int update_tensor_map(struct bir_module *m)
{
	struct bir_val *tm = &m->tensor_map;
	struct bir_attr *na;
	uint32_t add = 0, n = tm->n;

	for (uint32_t f = 0; f < m->nfns; f++)
		for (uint32_t s = 0; s < m->fns[f]->nsets; s++)
			add += m->fns[f]->sets[s]->scope == 2;
	if (!add)
		return 0;
	na = bir_alloc(m, ((size_t)n + add) * sizeof(*na));
	if (!na)
		return -ENOMEM;
	if (n)
		memcpy(na, tm->members, n * sizeof(*na));
	tm->members = na;	/* entries are added in place below */
	for (uint32_t f = 0; f < m->nfns; f++) {
		for (uint32_t s = 0; s < m->fns[f]->nsets; s++) {
			const struct bir_memloc_set *set = m->fns[f]->sets[s];
			struct bir_attr *e;
			struct bir_val *dims;

			if (set->scope != 2 || bir_val_get(tm, set->name))
				continue;
			e = bir_alloc(m, 2 * sizeof(*e));
			dims = bir_alloc(m, (set->nshape + 1) * sizeof(*dims));
			if (!e || !dims)
				return -ENOMEM;
			for (uint32_t d = 0; d < set->nshape; d++)
				dims[d] = bir_val_int((int64_t)set->shape[d]);
			e[0].key = bir_str(m, "dtype");
			e[0].v = bir_val_str(bir_str(m, set->dtype.name ?
						     set->dtype.name : ""));
			e[1].key = bir_str(m, "shape");
			e[1].v = (struct bir_val){ .kind = BIR_VAL_LIST,
						   .n = set->nshape,
						   .items = dims };
			if (!e[0].key || !e[0].v.s || !e[1].key)
				return -ENOMEM;
			na[tm->n].key = set->name;
			na[tm->n].v = (struct bir_val){ .kind = BIR_VAL_OBJ,
							.n = 2, .members = e };
			tm->n++;
		}
	}
	return 0;
}

int bir_pass_inline_nki(struct bir_module *m, const struct bir_opts *o,
			bool flag, struct nscc_err *err)
{
	struct scan s = { 0 };
	char **drop = NULL;
	uint32_t ndrop = 0;
	int rc = check_call_cycles(m, err);

	if (!rc)
		rc = load_tensor_map(m, o, err);

	for (uint32_t f = 0; !rc && f < m->nfns; f++)
		rc = bir_foreach_inst(m->fns[f], collect, &s);
	for (uint32_t k = 0; !rc && k < s.n; k++) {
		struct bir_inst *i = s.v[k];
		bool status = bir_attr_int(i, "alloc_status", 0) != 0;
		char **nd;

		bir_log(o, "Found InstNKIKernel: %s", i->name);
		if (status != flag) {
			bir_log(o, "Skip lowering %s because the allocation status of the kernel is not consistent with the current location of the pass",
				i->name);
			continue;
		}
		nd = realloc(drop, (ndrop + 1) * sizeof(*nd));
		if (!nd) {
			rc = -ENOMEM;
			break;
		}
		drop = nd;
		drop[ndrop] = strdup(bir_attr_str(i, "func") ?
				     bir_attr_str(i, "func") : "");
		if (!drop[ndrop++]) {
			rc = -ENOMEM;
			break;
		}
		rc = lower_kernel_inst(m, i, o, err);
	}
	if (!rc)
		rc = drop_unused(m, drop, ndrop, o);
	/*
	 * after address_rotation_psum: the PSUM locations the kernels brought
	 * into their call sites are placed the same way, around the placed
	 * ones (else they would share bank 0 with them)
	 */
	if (!rc && flag && ndrop)
		rc = bir_pass_psum_rotation(m, o, flag, err);
	if (!rc && m->tensor_map.kind == BIR_VAL_OBJ) {
		rc = update_tensor_map(m);
		if (rc)
			snprintf(err->msg, sizeof(err->msg), "out of memory");
		else if (o->tensor_map_path)
			rc = bir_tensor_map_save(m, o->tensor_map_path, err);
	}
	for (uint32_t k = 0; k < ndrop; k++)
		free(drop[k]);
	free(drop);
	free(s.v);
	return rc;
}
