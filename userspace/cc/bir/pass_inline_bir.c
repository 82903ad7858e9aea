// SPDX-License-Identifier: GPL-2.0
/* requires: BIRKernel call sites name a known kernel_name; guarantees: no BIRKernel of the placement left, temporaries placed if the allocator ran; all or nothing */
/*
 * pass_inline_bir.c - InlineBIRKernel, orders 48 and 60
 * (Documentation/compiler-passes.rst): every BIRKernel call site becomes
 * primitive instructions through a wrapper made by a factory from
 * kernel_name, driven through a four-slot const ops table (build,
 * commit, result, cleanup).  No JSON, no KLR cleanup.  Each commit
 * records what it changed; on any error the records are undone in
 * reverse, so the module is as it was.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "bir.h"

#define BK_MAX_OPS	4
#define BK_MAX_TMPS	8

struct bk_wrapper;

/**
 * struct bk_ops - the wrapper's virtual table, in the compiler's slot
 * order: result, build, commit, cleanup.
 */
struct bk_ops {
	const char *kernel_name;
	int (*expand)(struct bk_wrapper *w);	/* the template */
	int (*result)(const struct bk_wrapper *w, struct nscc_err *err);
	int (*build)(struct bk_wrapper *w);
	int (*commit)(struct bk_wrapper *w);
	void (*cleanup)(struct bk_wrapper *w);
};

struct bk_tmp {
	char *name;
	uint64_t p, f;		/* partitions, float32 elements */
};

/**
 * struct bk_undo - what one commit changed: temporaries created,
 * instructions inserted, the call site unlinked (freed once the pass
 * succeeds) and the SB locations the allocator then placed.
 */
struct bk_placed {
	struct bir_memloc *ml;
	uint64_t addr;
};

struct bk_undo {
	struct bir_block *bb;
	int at;
	struct bir_inst *call;
	struct bir_inst **insts;
	uint32_t ninsts;
	struct bir_memloc_set **sets;
	uint32_t nsets;
	struct bk_placed *placed;
	uint32_t nplaced;
};

/** struct bk_wrapper - BIRKernelWrapper: one call site being expanded. */
struct bk_wrapper {
	const struct bk_ops *ops;
	const struct bir_opts *log;
	struct bir_inst *call;
	struct bir_block *bb;
	bool pos_flag;
	uint64_t src[BK_MAX_OPS][2], dst[BK_MAX_OPS][2];
	uint32_t nsrc, ndst;
	struct bir_inst **insts;
	uint32_t ninsts;
	struct bk_tmp tmps[BK_MAX_TMPS];
	uint32_t ntmps;
	struct bk_undo *undo;
	int status;
	char msg[NSCC_ERR_MAX];
};

static int bk_fail(struct bk_wrapper *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int bk_fail(struct bk_wrapper *w, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(w->msg, sizeof(w->msg), "BIRKernel '%s' (%s): ",
			 w->call->name, w->ops->kernel_name);

	va_start(ap, fmt);
	vsnprintf(w->msg + n, sizeof(w->msg) - (size_t)n, fmt, ap);
	va_end(ap);
	w->status = -EINVAL;
	return -EINVAL;
}

/* ---- helpers used by the templates ----------------------------------- */

static struct bir_inst *emit(struct bk_wrapper *w, const char *op,
			     const char *suffix)
{
	struct bir_inst **nv = realloc(w->insts, (w->ninsts + 1) * sizeof(*nv));
	struct bir_inst *i;
	char *nm;

	if (!nv)
		return NULL;
	w->insts = nv;
	if (asprintf(&nm, "%s_%s", w->call->name, suffix) < 0)
		return NULL;
	i = bir_inst_new(w->call->mod, op, nm);
	free(nm);
	if (i)
		i->engine = w->call->engine;
	if (i)
		w->insts[w->ninsts++] = i;
	return i;
}

/* a temporary SB tensor "<call>:<name>" of p x f float32 */
static const char *tmp(struct bk_wrapper *w, const char *name, uint64_t p,
		       uint64_t f)
{
	struct bk_tmp *t = &w->tmps[w->ntmps];

	if (asprintf(&t->name, "%s:%s", w->call->name, name) < 0)
		return NULL;
	t->p = p;
	t->f = f;
	w->ntmps++;
	return t->name;
}

static int ap2(struct bir_inst *i, bool out, const char *loc, uint64_t p,
	       uint64_t f)
{
	struct bir_ap_pair pr[2] = { { 1, (int64_t)p }, { 1, (int64_t)f } };
	struct bir_operand *o = bir_operand_add(i, out, BIR_OPND_AP, loc);

	if (!o || bir_dtype_set(i->mod, &o->dtype, "float32"))
		return -ENOMEM;
	return bir_ap_set(i->mod, o, pr, 2);
}

/* operand @k of the call site (ins or outs), copied */
static int arg(struct bk_wrapper *w, struct bir_inst *i, bool out,
	       bool from_out, uint32_t k)
{
	struct bir_operand *o = bir_operand_add(i, out, 0, NULL);
	const struct bir_operand *s = from_out ? &w->call->outs[k] :
						 &w->call->ins[k];

	return o ? bir_operand_copy(i->mod, o, s) : -ENOMEM;
}

static int imm(struct bir_inst *i, double v)
{
	struct bir_operand *o = bir_operand_add(i, false, BIR_OPND_IMM, NULL);

	if (!o)
		return -ENOMEM;
	o->imm = v;
	return 0;
}

static int set_s(struct bir_inst *i, const char *k, const char *v)
{
	struct bir_val s = bir_val_str(v);

	return bir_attr_set(i, k, &s) ? -ENOMEM : 0;
}

/* the call's kernel_attrs number @key, or @def */
static double kattr(const struct bk_wrapper *w, const char *key, double def)
{
	const struct bir_val *v = bir_val_get(bir_attr_get(w->call,
							   "kernel_attrs"), key);

	if (v && v->kind == BIR_VAL_INT)
		return (double)v->i;
	return v && v->kind == BIR_VAL_REAL ? v->r : def;
}

static const char *kattr_s(const struct bk_wrapper *w, const char *key,
			   const char *def)
{
	const struct bir_val *v = bir_val_get(bir_attr_get(w->call,
							   "kernel_attrs"), key);

	return v && v->kind == BIR_VAL_STR ? v->s : def;
}

/* items of a list value (0 for anything else) */
static uint32_t list_len(const struct bir_val *v)
{
	return v && v->kind == BIR_VAL_LIST ? v->n : 0;
}

/* integer item @k of a list value, 0 when there is none */
static int64_t list_int(const struct bir_val *v, uint32_t k)
{
	return k < list_len(v) && v->items[k].kind == BIR_VAL_INT ?
	       v->items[k].i : 0;
}

/* unary op: Activation func */
static int act(struct bk_wrapper *w, const char *sfx, const char *func,
	       const char *src, const char *dst, uint64_t p, uint64_t f)
{
	struct bir_inst *i = emit(w, "Activation", sfx);

	if (!i || ap2(i, false, src, p, f) || ap2(i, true, dst, p, f))
		return -ENOMEM;
	return set_s(i, "func", func);
}

/* TensorScalar: dst = src op (imm or per-partition AP @sc) */
static int tscalar(struct bk_wrapper *w, const char *sfx, const char *op,
		   const char *src, const char *sc, double v,
		   const char *dst, uint64_t p, uint64_t f)
{
	struct bir_inst *i = emit(w, "TensorScalar", sfx);

	if (!i || ap2(i, false, src, p, f) ||
	    (sc ? ap2(i, false, sc, p, 1) : imm(i, v)) ||
	    ap2(i, true, dst, p, f))
		return -ENOMEM;
	return set_s(i, "op", op);
}

static int reduce(struct bk_wrapper *w, const char *sfx, const char *op,
		  const char *src, const char *dst, uint64_t p, uint64_t f)
{
	struct bir_inst *i = emit(w, "TensorReduce", sfx);

	if (!i || ap2(i, false, src, p, f) || ap2(i, true, dst, p, 1))
		return -ENOMEM;
	return set_s(i, "op", op);
}

/* TensorTensor with the call's input @k as second operand */
static int ttensor_arg(struct bk_wrapper *w, const char *sfx, const char *op,
		       const char *src, uint32_t k, const char *dst,
		       uint64_t p, uint64_t f)
{
	struct bir_inst *i = emit(w, "TensorTensor", sfx);

	if (!i || ap2(i, false, src, p, f) || arg(w, i, false, false, k) ||
	    ap2(i, true, dst, p, f))
		return -ENOMEM;
	return set_s(i, "op", op);
}

/* copy tmp -> the call's output 0 */
static int to_out(struct bk_wrapper *w, const char *src, uint64_t p,
		  uint64_t f)
{
	struct bir_inst *i = emit(w, "TensorCopy", "out");

	if (!i || ap2(i, false, src, p, f) || arg(w, i, true, true, 0))
		return -ENOMEM;
	return 0;
}

/* ---- shape checks (initAndVerifyShapes) ------------------------------- */

static int shapes(struct bk_wrapper *w, uint32_t nsrc)
{
	static const char *const keys[2] = { "srcs_shape", "dsts_shape" };

	for (int side = 0; side < 2; side++) {
		const struct bir_val *a = bir_attr_get(w->call, keys[side]);
		uint32_t want = side ? 1 : nsrc;
		uint32_t have = side ? w->call->nouts : w->call->nins;
		uint64_t (*dst)[2] = side ? w->dst : w->src;

		if (!a || a->kind != BIR_VAL_LIST || a->n != want ||
		    have != want)
			return bk_fail(w, "'%s' must list %u shapes, one per %s operand (has %u, %u operands)",
				       keys[side], want, side ? "output" : "input",
				       list_len(a), have);
		for (uint32_t k = 0; k < want; k++) {
			const struct bir_val *s = &a->items[k];
			const struct bir_operand *o = side ? &w->call->outs[k] :
							     &w->call->ins[k];
			int64_t p = list_int(s, 0);
			int64_t f = list_int(s, 1);
			int64_t elems = 1;

			if (list_len(s) != 2 || p < 1 || p > 128 ||
			    f < 1 || f > 65536)
				return bk_fail(w, "%s[%u] must be [partitions 1..128, free 1..65536]",
					       keys[side], k);
			if (o->kind != BIR_OPND_AP)
				return bk_fail(w, "%s operand %u must be a physical_ap",
					       side ? "output" : "input", k);
			for (uint32_t d = 0; d < o->nap; d++)
				elems *= o->ap[d].num;
			if (!o->nap || o->ap[0].num != p || elems != p * f)
				return bk_fail(w, "%s[%u] [%lld, %lld] does not match the access pattern of '%s'",
					       keys[side], k, (long long)p,
					       (long long)f, o->name);
			dst[k][0] = (uint64_t)p;
			dst[k][1] = (uint64_t)f;
		}
	}
	w->nsrc = nsrc;
	w->ndst = 1;
	return 0;
}

static int same(struct bk_wrapper *w, const char *what, uint64_t a,
		uint64_t b)
{
	if (a == b)
		return 0;
	return bk_fail(w, "%s: %llu != %llu", what, (unsigned long long)a,
		       (unsigned long long)b);
}

/* ---- templates --------------------------------------------------------- */

static const char *const act_funcs[] = {
	"identity", "relu", "gelu", "sigmoid", "tanh", "exp", "silu", "square",
	"rsqrt", "reciprocal", NULL,
};

static int known_act(const char *f)
{
	for (const char *const *p = act_funcs; *p; p++)
		if (!strcmp(*p, f))
			return 1;
	return 0;
}

static int t_activation(struct bk_wrapper *w)
{
	const char *func = kattr_s(w, "func", "");
	struct bir_val scale;
	struct bir_inst *i;
	int rc = shapes(w, 1);

	if (rc)
		return rc;
	if (same(w, "dsts_shape[0] vs srcs_shape[0] partitions", w->dst[0][0],
		 w->src[0][0]) ||
	    same(w, "dsts_shape[0] vs srcs_shape[0] free size", w->dst[0][1],
		 w->src[0][1]))
		return -EINVAL;
	if (!known_act(func))
		return bk_fail(w, "kernel_attrs 'func' has unknown value '%s'",
			       func);
	scale = bir_val_real(kattr(w, "scale", 1.0));
	i = emit(w, "Activation", "act");
	if (!i || arg(w, i, false, false, 0) || arg(w, i, true, true, 0) ||
	    set_s(i, "func", func) || bir_attr_set(i, "scale", &scale))
		return -ENOMEM;
	return 0;
}

static int norm_checks(struct bk_wrapper *w, uint32_t n)
{
	int rc = shapes(w, n);

	for (uint32_t k = 1; !rc && k < n; k++)
		rc = same(w, "parameter free size vs input", w->src[k][1],
			  w->src[0][1]);
	if (!rc)
		rc = same(w, "dsts_shape[0] partitions", w->dst[0][0],
			  w->src[0][0]);
	if (!rc)
		rc = same(w, "dsts_shape[0] free size", w->dst[0][1],
			  w->src[0][1]);
	return rc;
}

static int t_rmsnorm(struct bk_wrapper *w)
{
	uint64_t p, f;
	const char *sq, *s, *y;
	struct bir_inst *i;
	int rc = norm_checks(w, 2);

	if (rc)
		return rc;
	p = w->src[0][0];
	f = w->src[0][1];
	sq = tmp(w, "sq", p, f);
	s = tmp(w, "ms", p, 1);
	y = tmp(w, "y", p, f);
	if (!sq || !s || !y)
		return -ENOMEM;
	i = emit(w, "Activation", "square");
	if (!i || arg(w, i, false, false, 0) || ap2(i, true, sq, p, f) ||
	    set_s(i, "func", "square") ||
	    reduce(w, "sum", "add", sq, s, p, f) ||
	    tscalar(w, "mean", "multiply", s, NULL, 1.0 / (double)f, s, p, 1) ||
	    tscalar(w, "eps", "add", s, NULL, kattr(w, "eps", 1e-6), s, p, 1) ||
	    act(w, "rsqrt", "rsqrt", s, s, p, 1))
		return -ENOMEM;
	i = emit(w, "TensorScalar", "scale");
	if (!i || arg(w, i, false, false, 0) || ap2(i, false, s, p, 1) ||
	    ap2(i, true, y, p, f) || set_s(i, "op", "multiply") ||
	    ttensor_arg(w, "gamma", "multiply", y, 1, y, p, f))
		return -ENOMEM;
	return to_out(w, y, p, f);
}

static int t_layernorm(struct bk_wrapper *w)
{
	uint64_t p, f;
	const char *m, *xc, *sq, *v, *y;
	struct bir_inst *i;
	int rc = norm_checks(w, 3);

	if (rc)
		return rc;
	p = w->src[0][0];
	f = w->src[0][1];
	m = tmp(w, "mean", p, 1);
	xc = tmp(w, "xc", p, f);
	sq = tmp(w, "sq", p, f);
	v = tmp(w, "var", p, 1);
	y = tmp(w, "y", p, f);
	if (!m || !xc || !sq || !v || !y)
		return -ENOMEM;
	i = emit(w, "TensorReduce", "sum");
	if (!i || arg(w, i, false, false, 0) || ap2(i, true, m, p, 1) ||
	    set_s(i, "op", "add") ||
	    tscalar(w, "mean", "multiply", m, NULL, 1.0 / (double)f, m, p, 1))
		return -ENOMEM;
	i = emit(w, "TensorScalar", "center");
	if (!i || arg(w, i, false, false, 0) || ap2(i, false, m, p, 1) ||
	    ap2(i, true, xc, p, f) || set_s(i, "op", "subtract") ||
	    act(w, "square", "square", xc, sq, p, f) ||
	    reduce(w, "varsum", "add", sq, v, p, f) ||
	    tscalar(w, "varmean", "multiply", v, NULL, 1.0 / (double)f, v, p, 1) ||
	    tscalar(w, "eps", "add", v, NULL, kattr(w, "eps", 1e-5), v, p, 1) ||
	    act(w, "rsqrt", "rsqrt", v, v, p, 1) ||
	    tscalar(w, "scale", "multiply", xc, v, 0, y, p, f) ||
	    ttensor_arg(w, "gamma", "multiply", y, 1, y, p, f) ||
	    ttensor_arg(w, "beta", "add", y, 2, y, p, f))
		return -ENOMEM;
	return to_out(w, y, p, f);
}

static int matmult(struct bk_wrapper *w, const char *sfx, int a_arg,
		   const char *a, int b_arg, const char *b, uint64_t k,
		   uint64_t mm, uint64_t n, const char *dst)
{
	struct bir_inst *i = emit(w, "MatMult", sfx);

	if (!i ||
	    (a_arg >= 0 ? arg(w, i, false, false, (uint32_t)a_arg) :
			  ap2(i, false, a, k, mm)) ||
	    (b_arg >= 0 ? arg(w, i, false, false, (uint32_t)b_arg) :
			  ap2(i, false, b, k, n)) ||
	    ap2(i, true, dst, mm, n))
		return -ENOMEM;
	return 0;
}

static int transpose(struct bk_wrapper *w, const char *sfx, const char *src,
		     const char *dst, uint64_t p, uint64_t f)
{
	struct bir_inst *i = emit(w, "Transpose", sfx);

	if (!i || ap2(i, false, src, p, f) || ap2(i, true, dst, f, p))
		return -ENOMEM;
	return 0;
}

static int t_mlp(struct bk_wrapper *w)
{
	uint64_t d, t, h, o;
	const char *hb, *ht, *y, *fn = kattr_s(w, "act", "relu");
	int rc = shapes(w, 3);

	if (rc)
		return rc;
	d = w->src[0][0];
	t = w->src[0][1];
	h = w->src[1][1];
	o = w->src[2][1];
	if (same(w, "w1 partitions vs xT partitions (contraction)",
		 w->src[1][0], d) ||
	    same(w, "w2 partitions vs w1 free size (hidden)", w->src[2][0], h) ||
	    same(w, "dsts_shape[0] partitions vs tokens", w->dst[0][0], t) ||
	    same(w, "dsts_shape[0] free size vs w2 free size", w->dst[0][1], o))
		return -EINVAL;
	if (h > 128)
		return bk_fail(w, "hidden size %llu exceeds 128 partitions",
			       (unsigned long long)h);
	if (!known_act(fn))
		return bk_fail(w, "kernel_attrs 'act' has unknown value '%s'", fn);
	hb = tmp(w, "h", t, h);
	ht = tmp(w, "hT", h, t);
	y = tmp(w, "y", t, o);
	if (!hb || !ht || !y ||
	    matmult(w, "up", 0, NULL, 1, NULL, d, t, h, hb) ||
	    act(w, "act", fn, hb, hb, t, h) ||
	    transpose(w, "T", hb, ht, t, h) ||
	    matmult(w, "down", -1, ht, 2, NULL, h, t, o, y))
		return -ENOMEM;
	return to_out(w, y, t, o);
}

static int t_attention(struct bk_wrapper *w)
{
	uint64_t d, sq, sk, dv;
	const char *s, *mx, *sm, *pt, *y;
	int rc = shapes(w, 3);

	if (rc)
		return rc;
	d = w->src[0][0];
	sq = w->src[0][1];
	sk = w->src[1][1];
	dv = w->src[2][1];
	if (same(w, "kT partitions vs qT partitions (head dim)", w->src[1][0], d) ||
	    same(w, "v partitions vs kT free size (keys)", w->src[2][0], sk) ||
	    same(w, "dsts_shape[0] partitions vs queries", w->dst[0][0], sq) ||
	    same(w, "dsts_shape[0] free size vs v free size", w->dst[0][1], dv))
		return -EINVAL;
	if (sk > 128)
		return bk_fail(w, "key length %llu exceeds 128 partitions",
			       (unsigned long long)sk);
	s = tmp(w, "scores", sq, sk);
	mx = tmp(w, "max", sq, 1);
	sm = tmp(w, "sum", sq, 1);
	pt = tmp(w, "probsT", sk, sq);
	y = tmp(w, "y", sq, dv);
	if (!s || !mx || !sm || !pt || !y ||
	    matmult(w, "qk", 0, NULL, 1, NULL, d, sq, sk, s) ||
	    tscalar(w, "scale", "multiply", s, NULL,
		    kattr(w, "scale", 1.0 / sqrt((double)d)), s, sq, sk) ||
	    reduce(w, "max", "max", s, mx, sq, sk) ||
	    tscalar(w, "shift", "subtract", s, mx, 0, s, sq, sk) ||
	    act(w, "exp", "exp", s, s, sq, sk) ||
	    reduce(w, "sum", "add", s, sm, sq, sk) ||
	    act(w, "recip", "reciprocal", sm, sm, sq, 1) ||
	    tscalar(w, "norm", "multiply", s, sm, 0, s, sq, sk) ||
	    transpose(w, "T", s, pt, sq, sk) ||
	    matmult(w, "pv", -1, pt, 2, NULL, sk, sq, dv, y))
		return -ENOMEM;
	return to_out(w, y, sq, dv);
}

/* ---- the four slots ----------------------------------------------------- */

/* build: parseOpts, initAndVerifyShapes, expand (nothing committed) */
static int bk_build(struct bk_wrapper *w)
{
	int rc = w->ops->expand(w);

	for (uint32_t k = 0; !rc && k < w->ntmps; k++)
		if (bir_memloc_find(w->bb->fn, w->tmps[k].name))
			rc = bk_fail(w, "temporary '%s' already exists",
				     w->tmps[k].name);
	if (rc == -ENOMEM)
		snprintf(w->msg, sizeof(w->msg), "out of memory");
	w->status = rc;
	return rc;
}

/* the unallocated SB locations of @f, with their addresses, into @u */
static int note_unplaced(struct bir_function *f, struct bk_undo *u)
{
	uint32_t n = 0;

	for (uint32_t k = 0; k < f->nsets; k++)
		for (uint32_t j = 0; j < f->sets[k]->nlocs; j++)
			n += f->sets[k]->locs[j]->type == BIR_MEM_SB &&
			     !f->sets[k]->locs[j]->allocated;
	u->placed = calloc(n + 1, sizeof(*u->placed));
	if (!u->placed)
		return -ENOMEM;
	for (uint32_t k = 0; k < f->nsets; k++)
		for (uint32_t j = 0; j < f->sets[k]->nlocs; j++) {
			struct bir_memloc *ml = f->sets[k]->locs[j];

			if (ml->type == BIR_MEM_SB && !ml->allocated)
				u->placed[u->nplaced++] =
					(struct bk_placed){ ml, ml->addr };
		}
	return 0;
}

/* commit: temporaries, splice before the call site, unlink the call */
static int bk_commit(struct bk_wrapper *w)
{
	struct bir_function *f = w->bb->fn;
	struct bk_undo *u = w->undo;

	if (w->status)
		return w->status;
	u->sets = calloc(w->ntmps + 1, sizeof(*u->sets));
	u->insts = calloc(w->ninsts + 1, sizeof(*u->insts));
	if (!u->sets || !u->insts)
		goto nomem;
	for (uint32_t k = 0; k < w->ntmps; k++) {
		struct bir_memloc_set *s = bir_set_add(f, w->tmps[k].name);
		struct bir_memloc *ml;

		if (!s)
			goto nomem;
		u->sets[u->nsets++] = s;
		ml = bir_memloc_add(s, w->tmps[k].name);
		if (!ml || bir_dtype_set(f->mod, &s->dtype, "float32"))
			goto nomem;
		s->scope = 2;
		ml->type = BIR_MEM_SB;
		ml->dims[0] = w->tmps[k].p;
		ml->dims[1] = w->tmps[k].f * 4;
	}
	u->bb = w->bb;
	u->at = bir_inst_index(w->call);
	for (uint32_t k = 0; k < w->ninsts; k++) {
		if (bir_inst_insert(w->bb, w->insts[k], u->at + (int)k))
			goto nomem;
		u->insts[u->ninsts++] = w->insts[k];
		w->insts[k] = NULL;
	}
	bir_inst_unlink(w->call);
	u->call = w->call;
	if (w->pos_flag) {	/* post-coloring: the wrapper places them */
		struct nscc_err e;

		if (note_unplaced(f, u))
			goto nomem;
		w->status = bir_sballoc_function(f, &e);
		if (w->status)
			snprintf(w->msg, sizeof(w->msg), "%s", e.msg);
	}
	return w->status;
nomem:
	snprintf(w->msg, sizeof(w->msg), "out of memory");
	return w->status = -ENOMEM;
}

/* put back what one commit changed, newest first */
static void bk_undo(struct bk_undo *u)
{
	for (uint32_t k = 0; k < u->nplaced; k++) {
		u->placed[k].ml->allocated = false;
		u->placed[k].ml->addr = u->placed[k].addr;
	}
	for (uint32_t k = u->ninsts; k-- > 0;) {
		bir_inst_unlink(u->insts[k]);
		bir_inst_free(u->insts[k]);
	}
	/* its name is free again and the block has room: cannot fail */
	if (u->call)
		bir_inst_insert(u->bb, u->call, u->at);
	u->call = NULL;
	for (uint32_t k = u->nsets; k-- > 0;)
		bir_set_remove(u->sets[k]);
}

static void bk_undo_fini(struct bk_undo *u)
{
	bir_inst_free(u->call);
	free(u->insts);
	free(u->sets);
	free(u->placed);
}

/* result: the status and its message */
static int bk_result(const struct bk_wrapper *w, struct nscc_err *err)
{
	if (w->status)
		snprintf(err->msg, sizeof(err->msg), "%s", w->msg);
	return w->status;
}

/* cleanup */
static void bk_cleanup(struct bk_wrapper *w)
{
	for (uint32_t k = 0; k < w->ninsts; k++)
		bir_inst_free(w->insts[k]);
	free(w->insts);
	for (uint32_t k = 0; k < w->ntmps; k++)
		free(w->tmps[k].name);
	free(w);
}

#define BK_OPS(n, fn) { n, fn, bk_result, bk_build, bk_commit, bk_cleanup }
static const struct bk_ops kernels[] = {
	BK_OPS("activation", t_activation),
	BK_OPS("rmsnorm", t_rmsnorm),
	BK_OPS("layernorm", t_layernorm),
	BK_OPS("mlp", t_mlp),
	BK_OPS("attention", t_attention),
};

/**
 * bk_create() - BIRKernelWrapper::createInstance: the wrapper for the
 * call site's kernel_name.  NULL with @err set for an unknown name.
 */
static struct bk_wrapper *bk_create(const struct bir_opts *o,
				    struct bir_inst *call, bool pos_flag,
				    struct nscc_err *err)
{
	const char *name = bir_attr_str(call, "kernel_name");
	struct bk_wrapper *w;

	for (size_t k = 0; name && k < sizeof(kernels) / sizeof(kernels[0]); k++) {
		if (strcmp(kernels[k].kernel_name, name))
			continue;
		w = calloc(1, sizeof(*w));
		if (!w) {
			snprintf(err->msg, sizeof(err->msg), "out of memory");
			return NULL;
		}
		w->ops = &kernels[k];
		w->log = o;
		w->call = call;
		w->bb = call->parent;
		w->pos_flag = pos_flag;
		return w;
	}
	snprintf(err->msg, sizeof(err->msg),
		 "BIRKernel '%s': unknown kernel_name '%s' (known: activation, rmsnorm, layernorm, mlp, attention)",
		 call->name, name ? name : "(missing)");
	return NULL;
}

static int collect(struct bir_inst *i, void *arg)
{
	struct bir_inst ***v = arg;
	size_t n = 0;

	if (i->op != BIR_OP_BIR_KERNEL)	/* IT == 54 */
		return 0;
	while ((*v)[n])
		n++;
	*v = realloc(*v, (n + 2) * sizeof(**v));
	if (!*v)
		return -ENOMEM;
	(*v)[n] = i;
	(*v)[n + 1] = NULL;
	return 0;
}

static double secs(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int bir_pass_inline_bir(struct bir_module *m, const struct bir_opts *o,
			bool flag, struct nscc_err *err)
{
	struct bir_inst **bks = calloc(1, sizeof(*bks));
	struct bk_undo *undo = NULL;
	uint32_t nundo = 0;
	double t0 = secs();
	int rc = bks ? 0 : -ENOMEM;

	bir_log(o, "BIR SB coloring allocator is %s",
		m->sb_colored ? "on" : "off");
	if (flag == o->enable_bir_kernel) {
		/* 48 only with enableBirKernel, 60 only without */
		bir_log(o, "BIR kernels are inlined at order %d (enableBirKernel %s)",
			o->enable_bir_kernel ? 48 : 60,
			o->enable_bir_kernel ? "on" : "off");
		free(bks);
		return 0;
	}
	bir_log(o, "BIR kernel temporaries are %s",
		flag ? "placed by each wrapper (post-coloring)" :
		       "left to the SB coloring allocator (pre-coloring)");
	for (uint32_t f = 0; !rc && f < m->nfns; f++)
		rc = bir_foreach_inst(m->fns[f], collect, &bks);
	for (uint32_t k = 0; !rc && bks[k]; k++)
		bir_log(o, "Found InstBIRKernel: [%s]%s",
			bir_attr_str(bks[k], "kernel_name") ?
			bir_attr_str(bks[k], "kernel_name") : "", bks[k]->name);
	bir_log(o, "Scan BKs time (s): %f", secs() - t0);
	for (uint32_t k = 0; !rc && bks[k]; k++)
		nundo = k + 1;
	if (!rc && nundo && !(undo = calloc(nundo, sizeof(*undo))))
		rc = -ENOMEM;
	nundo = 0;
	t0 = secs();
	for (uint32_t k = 0; !rc && bks[k]; k++) {
		struct bk_wrapper *w = bk_create(o, bks[k], flag, err);

		if (!w) {
			rc = -EINVAL;
			break;
		}
		w->undo = &undo[nundo++];
		w->ops->build(w);
		w->ops->commit(w);
		rc = w->ops->result(w, err);
		w->ops->cleanup(w);
	}
	bir_log(o, "Lower BKs time (s): %f", secs() - t0);
	for (uint32_t k = nundo; rc && k-- > 0;)
		bk_undo(&undo[k]);
	for (uint32_t k = 0; k < nundo; k++)
		bk_undo_fini(&undo[k]);
	if (rc == -ENOMEM)
		snprintf(err->msg, sizeof(err->msg), "out of memory");
	free(undo);
	free(bks);
	return rc;
}
