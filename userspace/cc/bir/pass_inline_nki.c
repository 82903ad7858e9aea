// SPDX-License-Identifier: GPL-2.0
/*
 * pass_inline_nki.c - InlineNKIKernel (compiler-passes.rst), orders 41 and
 * 61: every NKIKernel call site (IT 55) whose recorded allocation status
 * matches the pass placement is replaced by the body of the NKI function
 * it names, after a JSON round-trip of that function into a temporary
 * module and the KLR cleanup passes (Unroll, LowerGenericIndirect,
 * ConstantPropagate) on it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "bir.h"

/* one name binding: callee name -> caller operand (or new name) */
struct bind {
	const char *from;
	const char *to;
	int64_t offset;		/* added to a rebound AP's offset */
};

struct binds {
	struct bind *v;
	uint32_t n;
	char **owned;		/* new names, freed at the end */
	uint32_t nowned;
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

static int binds_own(struct binds *b, char *s)
{
	char **nv = realloc(b->owned, (b->nowned + 1) * sizeof(*nv));

	if (!nv) {
		free(s);
		return -ENOMEM;
	}
	b->owned = nv;
	nv[b->nowned++] = s;
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
	for (uint32_t k = 0; k < b->nowned; k++)
		free(b->owned[k]);
	free(b->owned);
	free(b->v);
}

/* state of one call-site expansion */
struct nki {
	struct bir_module *m;
	struct bir_inst *call;
	struct bir_function *caller, *kfn;
	struct bir_module *tmp;
	struct binds args;	/* callee param -> caller operand name */
	struct binds names;	/* callee internal -> "<inst>:<name>" */
	struct binds blocks;	/* callee block -> caller block */
	uint64_t sb_base;
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

static int rematerialize(struct nki *n, const struct bir_function *callee)
{
	json_t *j = bir_function_to_json(callee), *back;
	char *text;
	int rc;

	if (!j)
		return -ENOMEM;
	text = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(j);
	if (!text)
		return -ENOMEM;
	back = json_loads(text, 0, NULL);	/* parse back: re-canonicalize */
	free(text);
	n->tmp = bir_module_new(n->m->arch_level);
	if (!back || !n->tmp) {
		json_decref(back);
		return -ENOMEM;
	}
	n->tmp->version = n->m->version;
	json_decref(n->tmp->arch);
	n->tmp->arch = json_deep_copy(n->m->arch);
	rc = bir_function_from_json(n->tmp, back, &n->kfn, n->err);
	json_decref(back);
	if (!rc)
		rc = bir_unroll(n->tmp, n->err);
	if (!rc)
		rc = bir_lower_generic_indirect(n->tmp, n->err);
	if (!rc)
		rc = bir_constant_propagate(n->tmp, n->err);
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
		json_t *a = json_object_get(n->call->attrs, keys[side]);
		struct bir_operand *ops = side ? n->call->outs : n->call->ins;
		uint32_t cnt = side ? n->call->nouts : n->call->nins;

		if (!json_is_array(a) || json_array_size(a) != cnt)
			return fail(n, -EINVAL,
				    "'%s' must be an array with one callee parameter name per operand",
				    keys[side]);
		for (uint32_t k = 0; k < cnt; k++) {
			const char *p = json_string_value(json_array_get(a, k));

			if (!p || ops[k].kind == BIR_OPND_IMM)
				return fail(n, -EINVAL,
					    "'%s' entries must be strings naming memory or register operands",
					    keys[side]);
			if (ops[k].kind == BIR_OPND_AP &&
			    !bir_memloc_find(n->caller, ops[k].name))
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
		ml = bir_memloc_find(n->caller, o->name);
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
	if (!nl)
		return -ENOMEM;
	json_decref(nl->extra);
	nl->extra = json_deep_copy(ml->extra);
	nl->type = ml->type;
	nl->addr = ml->type == BIR_MEM_SB ? n->sb_base + ml->addr : ml->addr;
	nl->dims[0] = ml->dims[0];
	nl->dims[1] = ml->dims[1];
	nl->bank = ml->bank;
	nl->base = ml->base;
	nl->pinned = ml->pinned;
	nl->tensor_id = ml->tensor_id;
	nl->allocated = ml->allocated;	/* updateAllocated */
	if (!nl->extra || !(nm = strdup(nl->name)))
		return -ENOMEM;
	return binds_own(&n->names, nm) ? -ENOMEM :
	       binds_add(&n->names, ml->name, nm, 0);
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
			json_decref(ns->extra);
			ns->extra = json_deep_copy(s->extra);
			if (!ns->extra ||
			    (s->dtype && !(ns->dtype = strdup(s->dtype))))
				return -ENOMEM;
			if (s->nshape) {
				ns->shape = calloc(s->nshape, sizeof(uint64_t));
				if (!ns->shape)
					return -ENOMEM;
				memcpy(ns->shape, s->shape,
				       s->nshape * sizeof(uint64_t));
				ns->nshape = s->nshape;
			}
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
		if (!r || !(nm = strdup(r->name)) || binds_own(&n->names, nm) ||
		    binds_add(&n->names, rn, nm, 0))
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
			free(o->name);
			if (!(o->name = strdup(b->to)))
				return -ENOMEM;
			for (uint32_t d = 0; d < o->ndyn; d++) {
				b = binds_get(&n->args, o->dyn[d].axis);
				if (!b)
					b = binds_get(&n->names, o->dyn[d].axis);
				if (!b)
					continue;
				free(o->dyn[d].axis);
				if (!(o->dyn[d].axis = strdup(b->to)))
					return -ENOMEM;
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

		if (b && json_object_set_new(c->attrs, keys[t],
					     json_string(b->to)))
			return -ENOMEM;
	}
	return 0;
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
		free(c->name);
		c->name = nm;
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
	br = bir_inst_new(n->m, "UnconditionalBranch", nm);
	free(nm);
	if (!br || json_object_set_new(br->attrs, "target", json_string(cont)) ||
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
		if (!nb[k] || !(nm = strdup(nb[k]->name)) ||
		    binds_own(&n->names, nm) ||
		    binds_add(&n->blocks, n->kfn->blocks[k]->name, nm, 0))
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
	json_t *ks = json_object_get(n->call->attrs, "kernel_source_val");

	if (!fn)
		return fail(n, -EINVAL, "%s", "NKIKernel needs a string 'func'");
	if (!bir_function_find(n->m, fn) ||
	    bir_function_find(n->m, fn) == n->caller)
		return fail(n, -EINVAL, "kernel function '%s' not found", fn);
	if (ks && !json_is_integer(ks))
		return fail(n, -EINVAL, "%s", "'kernel_source_val' must be an integer");
	/* addr-space kind of the kernel source, inst[22] (decomp 1798) */
	if (json_integer_value(ks) < 0 || json_integer_value(ks) > 2) {
		snprintf(n->err->msg, sizeof(n->err->msg),
			 "Unrecognized kernel source encountered.");
		return -EINVAL;
	}
	return 0;
}

static int lower_kernel_inst(struct bir_module *m, struct bir_inst *call,
			     struct nscc_err *err)
{
	struct nki n = { .m = m, .call = call, .err = err };
	int rc;

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
	if (!rc && m->sb_allocated)
		rc = bir_sballoc_function(n.caller, err);
	if (!rc) {
		bir_inst_unlink(call);
		bir_inst_free(call);
	}
	binds_free(&n.args);
	binds_free(&n.names);
	binds_free(&n.blocks);
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

/* add the "func" of every NKIKernel call site to the set @arg */
static int note_callee(struct bir_inst *i, void *arg)
{
	const char *fn = bir_attr_str(i, "func");

	if (i->op != BIR_OP_NKI_KERNEL || !fn)
		return 0;
	return json_object_set_new(arg, fn, json_true()) ? -ENOMEM : 0;
}

/* remove the inlined kernel functions no call site names any more */
static int drop_unused(struct bir_module *m, char **names, uint32_t n,
		       const struct bir_opts *o)
{
	json_t *called = json_object();
	int rc = called ? 0 : -ENOMEM;

	for (uint32_t j = 0; !rc && j < m->nfns; j++)
		rc = bir_foreach_inst(m->fns[j], note_callee, called);
	for (uint32_t k = 0; !rc && k < n; k++) {
		struct bir_function *f = bir_function_find(m, names[k]);

		if (!f || json_object_get(called, names[k]))
			continue;
		bir_log(o, "dropping func %s", names[k]);
		bir_function_remove(m, f);
	}
	json_decref(called);
	return rc;
}

static int load_tensor_map(struct bir_module *m, const struct bir_opts *o)
{
	if (!o->tensor_map_path || m->tensor_map)
		return 0;
	m->tensor_map = json_load_file(o->tensor_map_path, 0, NULL);
	if (!m->tensor_map)
		m->tensor_map = json_object();
	return m->tensor_map ? 0 : -ENOMEM;
}

/* add "<inst>:<set>" entries for sets the inliner created */
static int update_tensor_map(struct bir_module *m)
{
	for (uint32_t f = 0; f < m->nfns; f++) {
		for (uint32_t s = 0; s < m->fns[f]->nsets; s++) {
			const struct bir_memloc_set *set = m->fns[f]->sets[s];
			json_t *e, *shape;

			if (set->scope != 2 ||
			    json_object_get(m->tensor_map, set->name))
				continue;
			shape = json_array();
			for (uint32_t d = 0; shape && d < set->nshape; d++)
				json_array_append_new(shape,
					json_integer((json_int_t)set->shape[d]));
			e = json_pack("{s:s, s:o}", "dtype",
				      set->dtype ? set->dtype : "", "shape",
				      shape);
			if (!e || json_object_set_new(m->tensor_map, set->name, e))
				return -ENOMEM;
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
	int rc = load_tensor_map(m, o);

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
		rc = lower_kernel_inst(m, i, err);
	}
	if (!rc)
		rc = drop_unused(m, drop, ndrop, o);
	if (!rc && m->tensor_map) {
		rc = update_tensor_map(m);
		if (!rc && o->tensor_map_path &&
		    json_dump_file(m->tensor_map, o->tensor_map_path,
				   JSON_INDENT(2) | JSON_SORT_KEYS)) {
			snprintf(err->msg, sizeof(err->msg),
				 "cannot write tensor map '%s'",
				 o->tensor_map_path);
			rc = -EIO;
		}
	}
	for (uint32_t k = 0; k < ndrop; k++)
		free(drop[k]);
	free(drop);
	free(s.v);
	return rc;
}
