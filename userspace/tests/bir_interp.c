// SPDX-License-Identifier: GPL-2.0
/*
 * bir_interp.c - the test oracle of the BIR host tests (not part of the
 * library): a small reference interpreter for the float32 primitives the
 * BIR templates and the bundled examples use, plus the kernel call sites
 * themselves (NKIKernel runs its callee with name bindings and the call
 * site's SB base; BIRKernel runs a reference of its family).  Used to
 * prove outputs identical before and after inlining
 * (Documentation/compiler-passes.rst, "Reference interpreter").
 *
 * Memory: allocated SB locations live in one simulated SBUF (128
 * partitions); every other location has private zeroed storage per call
 * frame.  CollectiveCompute is single-rank (each input copied to its
 * output).
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "bir_interp.h"
#include "kbin_cast.h"
#include "kbin_compute.h"
#include "kbin_dma.h"

#define MAX_STEPS	10000000UL

struct store {
	const struct bir_memloc *ml;
	uint8_t *buf;
};

struct regval {
	const char *name;
	double v;
};

struct frame {
	const struct bir_function *f;
	struct frame *up;
	const struct bir_inst *call;	/* NULL for the entry frame */
	const struct bir_val *args[2];	/* func_args, func_outs */
	uint64_t sb_base;
	struct store *st;
	uint32_t nst;
	struct regval *regs;
	uint32_t nregs;
	const char *axis[8];
	int64_t axv[8];
	uint32_t nax;
};

struct bir_interp {
	const struct bir_module *m;
	uint8_t *sb;		/* 128 x part bytes */
	uint64_t part;
	struct frame top;
	unsigned long steps;
	struct nscc_err *err;
};

static int ierr(struct bir_interp *it, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int ierr(struct bir_interp *it, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(it->err->msg, sizeof(it->err->msg), fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* ---- locations ---------------------------------------------------------- */

struct ref {
	struct frame *fr;
	const struct bir_memloc *ml;
	int64_t off;
};

/* the callee param @name bound at call site: operand index or -1 */
static const struct bir_operand *bound(const struct frame *fr,
				       const char *name)
{
	for (int side = 0; fr->call && side < 2; side++) {
		const struct bir_val *a = fr->args[side];

		for (uint32_t k = 0; a && a->kind == BIR_VAL_LIST && k < a->n;
		     k++)
			if (a->items[k].kind == BIR_VAL_STR &&
			    !strcmp(a->items[k].s, name))
				return side ? &fr->call->outs[k] :
					      &fr->call->ins[k];
	}
	return NULL;
}

static int resolve(struct bir_interp *it, struct frame *fr, const char *name,
		   struct ref *r)
{
	const struct bir_operand *b;

	r->off = 0;
	while ((b = bound(fr, name))) {
		r->off += b->offset;
		name = b->name;
		fr = fr->up;
	}
	r->fr = fr;
	r->ml = bir_memloc_find(fr->f, name);
	if (!r->ml)
		return ierr(it, "function '%s': no memory location '%s'",
			    fr->f->name, name);
	return 0;
}

static uint8_t *storage(struct bir_interp *it, const struct ref *r)
{
	struct frame *fr = r->fr;
	struct store *ns;

	if (r->ml->type == BIR_MEM_SB && r->ml->allocated)
		return NULL;	/* physical SBUF */
	for (uint32_t k = 0; k < fr->nst; k++)
		if (fr->st[k].ml == r->ml)
			return fr->st[k].buf;
	ns = realloc(fr->st, (fr->nst + 1) * sizeof(*ns));
	if (!ns)
		return NULL;
	fr->st = ns;
	ns[fr->nst].ml = r->ml;
	ns[fr->nst].buf = calloc(1, bir_memloc_bytes(r->ml) + 1);
	(void)it;
	return ns[fr->nst++].buf;
}

/* pointer to the 4 bytes at partition @p, byte @b of the location */
/* the @sz bytes of the element at partition @p, byte @b of the location */
static uint8_t *elem(struct bir_interp *it, const struct ref *r, int64_t p,
		     int64_t b, uint32_t sz)
{
	const struct bir_memloc *ml = r->ml;
	uint8_t *buf;

	if (p < 0 || (uint64_t)p >= ml->dims[0] || b < 0 ||
	    (uint64_t)b + sz > ml->dims[1]) {
		ierr(it, "access outside memory location '%s' (partition %lld, byte %lld; dims [%llu, %llu])",
		     ml->name, (long long)p, (long long)b,
		     (unsigned long long)ml->dims[0],
		     (unsigned long long)ml->dims[1]);
		return NULL;
	}
	if (ml->type == BIR_MEM_SB && ml->allocated) {
		uint64_t a = ml->addr + (uint64_t)b +
			     (r->fr->call ? r->fr->sb_base : 0);
		uint64_t part = ml->base + (uint64_t)p;

		if (part >= 128 || a + sz > it->part) {
			ierr(it, "SBUF access of '%s' outside the SBUF",
			     ml->name);
			return NULL;
		}
		return it->sb + part * it->part + a;
	}
	buf = storage(it, r);
	if (!buf) {
		ierr(it, "out of memory");
		return NULL;
	}
	return buf + (uint64_t)p * ml->dims[1] + (uint64_t)b;
}

/*
 * The element type of an operand on @ml: its KBIN dtype and size; the
 * interpreter computes in float32 and casts on the way in and out with
 * the DMA engine's cast code, as the engines do (Documentation/compute.rst).
 */
static int elem_type(struct bir_interp *it, const struct bir_operand *o,
		     const struct bir_memloc *ml, uint32_t *dt, uint32_t *sz)
{
	const struct bir_dtype *d = bir_operand_dtype(o, ml);

	if (!d->name) {
		*dt = KBIN_DMA_DTYPE_FLOAT32;
		*sz = 4;
		return 0;
	}
	if (!kbin_compute_dtype_ok(d->id))
		return ierr(it, "memory location '%s': dtype '%s' is not one the interpreter computes in",
			    ml->name, d->name);
	*dt = d->id;
	*sz = kbin_dma_dtype(d->id)->size;
	return 0;
}

static double regget(struct frame *fr, const char *name);

static int64_t dynoff(struct frame *fr, const struct bir_operand *o)
{
	int64_t off = 0;

	for (uint32_t d = 0; d < o->ndyn; d++) {
		int64_t v = 0;
		bool found = false;

		for (struct frame *f = fr; f && !found; f = NULL)
			for (uint32_t k = f->nax; k-- > 0;)
				if (!strcmp(f->axis[k], o->dyn[d].axis)) {
					v = f->axv[k];
					found = true;
					break;
				}
		if (!found)
			v = (int64_t)regget(fr, o->dyn[d].axis);
		off += v * o->dyn[d].step;
	}
	return off;
}

/* ---- tensors: gather an AP into floats, scatter back --------------------- */

struct tens {
	float *v;
	uint64_t p, f;
};

static int walk(struct bir_interp *it, struct frame *fr,
		const struct bir_operand *o, float *v, bool store,
		uint64_t *pp, uint64_t *pf)
{
	struct ref r;
	uint64_t free_n = 1, idx[8] = { 0 }, n = 0;
	uint32_t dt = KBIN_DMA_DTYPE_FLOAT32, sz = 4;
	int64_t base;
	int rc;

	if (o->kind != BIR_OPND_AP || !o->nap || o->nap > 8)
		return ierr(it, "operand is not a physical_ap of 1..8 dims");
	rc = resolve(it, fr, o->name, &r);
	if (rc)
		return rc;
	for (uint32_t k = 1; k < o->nap; k++)
		free_n *= (uint64_t)o->ap[k].num;
	*pp = (uint64_t)o->ap[0].num;
	*pf = free_n;
	if (!v)
		return 0;
	rc = elem_type(it, o, r.ml, &dt, &sz);
	if (rc)
		return rc;
	base = r.off + o->offset + dynoff(fr, o);
	for (int64_t p = 0; p < o->ap[0].num; p++) {
		memset(idx, 0, sizeof(idx));
		for (uint64_t e = 0; e < free_n; e++) {
			int64_t b = base;
			uint8_t *x;

			for (uint32_t k = 1; k < o->nap; k++)
				b += (int64_t)idx[k] * o->ap[k].step * sz;
			x = elem(it, &r, p * o->ap[0].step, b, sz);
			if (!x)
				return -EINVAL;
			if (store)
				kbin_cast(KBIN_DMA_DTYPE_FLOAT32, dt, &v[n++], x, 1);
			else
				kbin_cast(dt, KBIN_DMA_DTYPE_FLOAT32, x, &v[n++], 1);
			for (uint32_t k = o->nap; k-- > 1;) {
				if (++idx[k] < (uint64_t)o->ap[k].num)
					break;
				idx[k] = 0;
			}
		}
	}
	return 0;
}

static int load(struct bir_interp *it, struct frame *fr,
		const struct bir_operand *o, struct tens *t)
{
	int rc = walk(it, fr, o, NULL, false, &t->p, &t->f);

	if (rc)
		return rc;
	t->v = calloc(t->p * t->f + 1, sizeof(float));
	if (!t->v)
		return -ENOMEM;
	return walk(it, fr, o, t->v, false, &t->p, &t->f);
}

static int save(struct bir_interp *it, struct frame *fr,
		const struct bir_operand *o, const struct tens *t)
{
	uint64_t p, f;
	int rc = walk(it, fr, o, NULL, true, &p, &f);

	if (rc)
		return rc;
	if (p * f != t->p * t->f)
		return ierr(it, "output '%s' has %llu elements, result has %llu",
			    o->name, (unsigned long long)(p * f),
			    (unsigned long long)(t->p * t->f));
	return walk(it, fr, o, t->v, true, &p, &f);
}

/* ---- the float32 primitives (shared with the kernel references) ------- */

static float act1(const char *fn, float x)
{
	if (!strcmp(fn, "relu"))
		return x > 0 ? x : 0;
	if (!strcmp(fn, "gelu"))
		return 0.5f * x * (1.0f + tanhf(0.7978845608f *
					       (x + 0.044715f * x * x * x)));
	if (!strcmp(fn, "sigmoid"))
		return 1.0f / (1.0f + expf(-x));
	if (!strcmp(fn, "tanh"))
		return tanhf(x);
	if (!strcmp(fn, "exp"))
		return expf(x);
	if (!strcmp(fn, "silu"))
		return x / (1.0f + expf(-x));
	if (!strcmp(fn, "square"))
		return x * x;
	if (!strcmp(fn, "rsqrt"))
		return 1.0f / sqrtf(x);
	if (!strcmp(fn, "reciprocal"))
		return 1.0f / x;
	return x;
}

static bool known_fn(const char *fn)
{
	static const char *const f[] = { "identity", "relu", "gelu",
		"sigmoid", "tanh", "exp", "silu", "square", "rsqrt",
		"reciprocal" };

	for (size_t k = 0; k < sizeof(f) / sizeof(f[0]); k++)
		if (!strcmp(f[k], fn))
			return true;
	return false;
}

static int binop(const char *op, float a, float b, float *r)
{
	if (!strcmp(op, "add"))
		*r = a + b;
	else if (!strcmp(op, "subtract"))
		*r = a - b;
	else if (!strcmp(op, "multiply"))
		*r = a * b;
	else if (!strcmp(op, "divide"))
		*r = a / b;
	else if (!strcmp(op, "max"))
		*r = a > b ? a : b;
	else
		return -EINVAL;
	return 0;
}

static void p_act(struct tens *t, const char *fn, float scale)
{
	for (uint64_t k = 0; k < t->p * t->f; k++)
		t->v[k] = act1(fn, t->v[k] * scale);
}

/* per-partition scalar s (s->f == 1) or immediate */
static void p_ts(struct tens *t, const char *op, const struct tens *s,
		 float imm)
{
	for (uint64_t p = 0; p < t->p; p++)
		for (uint64_t e = 0; e < t->f; e++)
			binop(op, t->v[p * t->f + e], s ? s->v[p] : imm,
			      &t->v[p * t->f + e]);
}

static void p_reduce(const struct tens *t, const char *op, struct tens *o)
{
	o->p = t->p;
	o->f = 1;
	for (uint64_t p = 0; p < t->p; p++) {
		float a = !strcmp(op, "max") ? t->v[p * t->f] : 0.0f;

		for (uint64_t e = 0; e < t->f; e++)
			binop(op, a, t->v[p * t->f + e], &a);
		o->v[p] = a;
	}
}

/* out[m][n] = sum_k a[k][m] * b[k][n] */
static void p_matmult(const struct tens *a, const struct tens *b,
		      struct tens *o)
{
	o->p = a->f;
	o->f = b->f;
	for (uint64_t m = 0; m < a->f; m++)
		for (uint64_t n = 0; n < b->f; n++) {
			float s = 0;

			for (uint64_t k = 0; k < a->p; k++)
				s += a->v[k * a->f + m] * b->v[k * b->f + n];
			o->v[m * b->f + n] = s;
		}
}

static void p_transpose(const struct tens *a, struct tens *o)
{
	o->p = a->f;
	o->f = a->p;
	for (uint64_t p = 0; p < a->p; p++)
		for (uint64_t e = 0; e < a->f; e++)
			o->v[e * a->p + p] = a->v[p * a->f + e];
}

static struct tens *tnew(uint64_t p, uint64_t f)
{
	struct tens *t = calloc(1, sizeof(*t));

	if (t) {
		t->v = calloc(p * f + 1, sizeof(float));
		t->p = p;
		t->f = f;
		if (!t->v) {
			free(t);
			t = NULL;
		}
	}
	return t;
}

static void tfree(struct tens *t)
{
	if (t)
		free(t->v);
	free(t);
}

/* ---- registers ----------------------------------------------------------- */

static struct regval *regref(struct frame *fr, const char *name)
{
	const struct bir_operand *b;
	struct regval *nr;

	while ((b = bound(fr, name))) {
		name = b->name;
		fr = fr->up;
	}
	for (uint32_t k = 0; k < fr->nregs; k++)
		if (!strcmp(fr->regs[k].name, name))
			return &fr->regs[k];
	nr = realloc(fr->regs, (fr->nregs + 1) * sizeof(*nr));
	if (!nr)
		return NULL;
	fr->regs = nr;
	nr[fr->nregs] = (struct regval){ name, 0 };
	return &nr[fr->nregs++];
}

static double regget(struct frame *fr, const char *name)
{
	struct regval *r = regref(fr, name);

	return r ? r->v : 0;
}

static double value(struct frame *fr, const struct bir_operand *o)
{
	return o->kind == BIR_OPND_IMM ? o->imm : regget(fr, o->name);
}

/* ---- instructions ------------------------------------------------------- */

static int exec_blocks(struct bir_interp *it, struct frame *fr,
		       struct bir_block **blocks, uint32_t n, bool top);

static void frame_fini(struct frame *fr)
{
	for (uint32_t k = 0; k < fr->nst; k++)
		free(fr->st[k].buf);
	free(fr->st);
	free(fr->regs);
}

static int call_nki(struct bir_interp *it, struct frame *fr,
		    const struct bir_inst *i)
{
	const char *fn = bir_attr_str(i, "func");
	struct frame c = { .up = fr, .call = i };
	int rc;

	c.f = fn ? bir_function_find(it->m, fn) : NULL;
	if (!c.f)
		return ierr(it, "instruction '%s': no kernel function", i->name);
	c.args[0] = bir_attr_get(i, "func_args");
	c.args[1] = bir_attr_get(i, "func_outs");
	for (uint32_t k = 0; k < i->nouts; k++) {
		struct ref r;

		if (i->outs[k].kind != BIR_OPND_AP ||
		    resolve(it, fr, i->outs[k].name, &r))
			continue;
		if (r.ml->type == BIR_MEM_SB) {
			c.sb_base = r.ml->addr + (uint64_t)i->outs[k].offset;
			break;
		}
	}
	rc = exec_blocks(it, &c, c.f->blocks, c.f->nblocks, true);
	frame_fini(&c);
	return rc;
}

/* kernel_attrs number / string @key of @ka, or @def */
static double ka_num(const struct bir_val *ka, const char *key, double def)
{
	const struct bir_val *v = bir_val_get(ka, key);

	if (v && v->kind == BIR_VAL_INT)
		return (double)v->i;
	return v && v->kind == BIR_VAL_REAL ? v->r : def;
}

static const char *ka_str(const struct bir_val *ka, const char *key,
			  const char *def)
{
	const struct bir_val *v = bir_val_get(ka, key);

	return v && v->kind == BIR_VAL_STR ? v->s : def;
}

/* BIRKernel reference: the same float32 steps as the templates */
static int ref_bir(struct bir_interp *it, struct frame *fr,
		   const struct bir_inst *i)
{
	const char *kn = bir_attr_str(i, "kernel_name");
	const struct bir_val *ka = bir_attr_get(i, "kernel_attrs");
	struct tens in[3] = { 0 }, *a = NULL, *b = NULL, *c = NULL;
	int rc = 0;

	if (!kn || i->nins > 3 || i->nouts != 1)
		return ierr(it, "BIRKernel '%s': bad call site", i->name);
	for (uint32_t k = 0; !rc && k < i->nins; k++)
		rc = load(it, fr, &i->ins[k], &in[k]);
	if (rc)
		goto out;
#define KA(key, def) ka_num(ka, key, def)
#define KS(key, def) ka_str(ka, key, def)
	if (!strcmp(kn, "activation")) {
		p_act(&in[0], KS("func", "identity"), (float)KA("scale", 1.0));
		rc = save(it, fr, &i->outs[0], &in[0]);
	} else if (!strcmp(kn, "rmsnorm") || !strcmp(kn, "layernorm")) {
		bool ln = kn[0] == 'l';
		uint64_t P = in[0].p, F = in[0].f;

		a = tnew(P, F);
		b = tnew(P, 1);
		c = tnew(P, F);
		if (!a || !b || !c) {
			rc = -ENOMEM;
			goto out;
		}
		if (ln) {
			p_reduce(&in[0], "add", b);
			p_ts(b, "multiply", NULL, (float)(1.0 / (double)F));
			memcpy(c->v, in[0].v, P * F * 4);
			p_ts(c, "subtract", b, 0);	/* xc */
		} else {
			memcpy(c->v, in[0].v, P * F * 4);
		}
		memcpy(a->v, c->v, P * F * 4);
		p_act(a, "square", 1.0f);
		p_reduce(a, "add", b);
		p_ts(b, "multiply", NULL, (float)(1.0 / (double)F));
		p_ts(b, "add", NULL, (float)KA("eps", ln ? 1e-5 : 1e-6));
		p_act(b, "rsqrt", 1.0f);
		p_ts(c, "multiply", b, 0);
		for (uint64_t k = 0; k < P * F; k++)
			binop("multiply", c->v[k], in[1].v[k], &c->v[k]);
		for (uint64_t k = 0; ln && k < P * F; k++)
			binop("add", c->v[k], in[2].v[k], &c->v[k]);
		rc = save(it, fr, &i->outs[0], c);
	} else if (!strcmp(kn, "mlp")) {
		a = tnew(in[0].f, in[1].f);
		b = tnew(in[1].f, in[0].f);
		c = tnew(in[0].f, in[2].f);
		if (!a || !b || !c) {
			rc = -ENOMEM;
			goto out;
		}
		p_matmult(&in[0], &in[1], a);
		p_act(a, KS("act", "relu"), 1.0f);
		p_transpose(a, b);
		p_matmult(b, &in[2], c);
		rc = save(it, fr, &i->outs[0], c);
	} else if (!strcmp(kn, "attention")) {
		struct tens *mx = tnew(in[0].f, 1), *sm = tnew(in[0].f, 1);

		a = tnew(in[0].f, in[1].f);
		b = tnew(in[1].f, in[0].f);
		c = tnew(in[0].f, in[2].f);
		if (!a || !b || !c || !mx || !sm) {
			tfree(mx);
			tfree(sm);
			rc = -ENOMEM;
			goto out;
		}
		p_matmult(&in[0], &in[1], a);
		p_ts(a, "multiply", NULL,
		     (float)KA("scale", 1.0 / sqrt((double)in[0].p)));
		p_reduce(a, "max", mx);
		p_ts(a, "subtract", mx, 0);
		p_act(a, "exp", 1.0f);
		p_reduce(a, "add", sm);
		p_act(sm, "reciprocal", 1.0f);
		p_ts(a, "multiply", sm, 0);
		p_transpose(a, b);
		p_matmult(b, &in[2], c);
		rc = save(it, fr, &i->outs[0], c);
		tfree(mx);
		tfree(sm);
	} else {
		rc = ierr(it, "BIRKernel '%s': no reference for '%s'", i->name,
			  kn);
	}
out:
	for (int k = 0; k < 3; k++)
		free(in[k].v);
	tfree(a);
	tfree(b);
	tfree(c);
	return rc;
}

static int exec_compute(struct bir_interp *it, struct frame *fr,
			const struct bir_inst *i)
{
	struct tens t = { 0 }, s = { 0 }, o = { 0 };
	const char *op = bir_attr_str(i, "op");
	int rc = 0;

	if (i->nouts != 1)
		return ierr(it, "instruction '%s': needs one output", i->name);
	switch (i->op) {
	case BIR_OP_MEMSET:
		rc = walk(it, fr, &i->outs[0], NULL, true, &t.p, &t.f);
		if (!rc && !(t.v = calloc(t.p * t.f + 1, 4)))
			rc = -ENOMEM;
		for (uint64_t k = 0; !rc && k < t.p * t.f; k++)
			t.v[k] = (float)bir_attr_num(i, "value", 0);
		break;
	case BIR_OP_TENSOR_COPY:
	case BIR_OP_ACTIVATION:
		if (i->nins != 1)
			return ierr(it, "instruction '%s': needs one input", i->name);
		rc = load(it, fr, &i->ins[0], &t);
		if (!rc && i->op == BIR_OP_ACTIVATION) {
			const char *fn = bir_attr_str(i, "func");

			if (!fn || !known_fn(fn))
				rc = ierr(it, "instruction '%s': unknown func '%s'",
					  i->name, fn ? fn : "(missing)");
			else
				p_act(&t, fn, (float)bir_attr_num(i, "scale", 1));
		}
		break;
	case BIR_OP_TENSOR_TENSOR:
	case BIR_OP_TENSOR_SCALAR:
		if (i->nins != 2 || !op)
			return ierr(it, "instruction '%s': needs two inputs and 'op'", i->name);
		rc = load(it, fr, &i->ins[0], &t);
		if (!rc && i->ins[1].kind != BIR_OPND_IMM)
			rc = load(it, fr, &i->ins[1], &s);
		if (!rc && binop(op, 0, 0, &(float){ 0 }))
			rc = ierr(it, "instruction '%s': unknown op '%s'", i->name, op);
		if (rc)
			break;
		if (i->op == BIR_OP_TENSOR_SCALAR) {
			if (s.v && (s.f != 1 || s.p != t.p))
				rc = ierr(it, "instruction '%s': scalar operand must be [%llu, 1]",
					  i->name, (unsigned long long)t.p);
			else
				p_ts(&t, op, s.v ? &s : NULL, (float)i->ins[1].imm);
		} else if (!s.v || s.p * s.f != t.p * t.f) {
			rc = ierr(it, "instruction '%s': operand sizes differ", i->name);
		} else {
			for (uint64_t k = 0; k < t.p * t.f; k++)
				binop(op, t.v[k], s.v[k], &t.v[k]);
		}
		break;
	case BIR_OP_TENSOR_REDUCE:
		if (i->nins != 1 || !op || binop(op, 0, 0, &(float){ 0 }))
			return ierr(it, "instruction '%s': needs one input and a known 'op'", i->name);
		rc = load(it, fr, &i->ins[0], &s);
		if (!rc) {
			t.v = calloc(s.p + 1, 4);
			if (!t.v)
				rc = -ENOMEM;
			else
				p_reduce(&s, op, &t);
		}
		break;
	case BIR_OP_MATMULT:
	case BIR_OP_TRANSPOSE:
		rc = load(it, fr, &i->ins[0], &s);
		if (!rc && i->op == BIR_OP_MATMULT)
			rc = i->nins == 2 ? load(it, fr, &i->ins[1], &o) :
			     ierr(it, "instruction '%s': needs two inputs", i->name);
		if (!rc && o.v && o.p != s.p)
			rc = ierr(it, "instruction '%s': contraction %llu != %llu",
				  i->name, (unsigned long long)s.p,
				  (unsigned long long)o.p);
		if (!rc && !(t.v = calloc(s.f * (o.v ? o.f : s.p) + 1, 4)))
			rc = -ENOMEM;
		if (!rc && i->op == BIR_OP_MATMULT)
			p_matmult(&s, &o, &t);
		else if (!rc)
			p_transpose(&s, &t);
		break;
	default:
		return ierr(it, "instruction '%s': opcode '%s' is not supported by the interpreter",
			    i->name, i->opname);
	}
	if (!rc)
		rc = save(it, fr, &i->outs[0], &t);
	free(t.v);
	free(s.v);
	free(o.v);
	return rc;
}

/* how @a and @b compare: one of these bits (unordered: a NaN) */
enum { CMP_LT = 1, CMP_EQ = 2, CMP_GT = 4, CMP_UN = 8 };

/* *@r: whether @op ("gt", "ge", "lt", "le", "eq" or "ne") holds */
static int compare(const char *op, double a, double b, bool *r)
{
	static const struct {
		const char *op;
		unsigned int holds;	/* the CMP_ bits it is true for */
	} ops[] = {
		{ "gt", CMP_GT }, { "ge", CMP_GT | CMP_EQ }, { "lt", CMP_LT },
		{ "le", CMP_LT | CMP_EQ }, { "eq", CMP_EQ },
		{ "ne", CMP_LT | CMP_GT | CMP_UN },
	};
	unsigned int rel = a < b ? CMP_LT : a == b ? CMP_EQ :
			   a > b ? CMP_GT : CMP_UN;

	for (size_t k = 0; op && k < sizeof(ops) / sizeof(ops[0]); k++) {
		if (!strcmp(op, ops[k].op)) {
			*r = ops[k].holds & rel;
			return 0;
		}
	}
	return -EINVAL;
}

/* run one instruction; *jump set to a block name on a taken branch */
static int exec_inst(struct bir_interp *it, struct frame *fr,
		     const struct bir_inst *i, const char **jump)
{
	if (++it->steps > MAX_STEPS)
		return ierr(it, "more than %lu instructions executed", MAX_STEPS);
	switch (i->op) {
	case BIR_OP_UNCONDITIONAL_BRANCH:
		*jump = bir_attr_str(i, "target");
		return *jump ? 0 : ierr(it, "instruction '%s': no 'target'", i->name);
	case BIR_OP_COMPARE_AND_BRANCH: {
		bool r;

		if (i->nins != 2 ||
		    compare(bir_attr_str(i, "comp_op"), value(fr, &i->ins[0]),
			    value(fr, &i->ins[1]), &r))
			return ierr(it, "instruction '%s': needs two ins and a known 'comp_op'", i->name);
		*jump = bir_attr_str(i, r ? "on_true" : "on_false");
		return *jump ? 0 : ierr(it, "instruction '%s': no branch target", i->name);
	}
	case BIR_OP_REGISTER_LOAD: {
		struct tens t = { 0 };
		struct regval *r;
		int rc;

		if (i->nins != 1 || i->nouts != 1 || i->outs[0].kind != BIR_OPND_REG)
			return ierr(it, "instruction '%s': RegisterLoad needs an AP in and a register out", i->name);
		rc = load(it, fr, &i->ins[0], &t);
		r = rc ? NULL : regref(fr, i->outs[0].name);
		if (r)
			r->v = (t.p * t.f) != 0 ? t.v[0] : 0;
		free(t.v);
		return rc ? rc : r ? 0 : -ENOMEM;
	}
	case BIR_OP_GENERIC_INDIRECT_LOAD: {
		struct bir_operand src;
		struct tens t = { 0 };
		int rc;

		if (i->nins != 2 || i->ins[1].kind != BIR_OPND_REG || i->nouts != 1)
			return ierr(it, "instruction '%s': bad GenericIndirectLoad", i->name);
		src = i->ins[0];
		src.offset += (int64_t)regget(fr, i->ins[1].name) *
			      bir_attr_int(i, "index_stride", 0);
		rc = load(it, fr, &src, &t);
		if (!rc)
			rc = save(it, fr, &i->outs[0], &t);
		free(t.v);
		return rc;
	}
	case BIR_OP_COLLECTIVE_COMPUTE:
		if (i->nins != i->nouts)
			return ierr(it, "instruction '%s': ins and outs differ in count", i->name);
		for (uint32_t k = 0; k < i->nins; k++) {
			struct tens t = { 0 };
			int rc = load(it, fr, &i->ins[k], &t);

			if (!rc)
				rc = save(it, fr, &i->outs[k], &t);
			free(t.v);
			if (rc)
				return rc;
		}
		return 0;
	case BIR_OP_NKI_KERNEL:
		return call_nki(it, fr, i);
	case BIR_OP_BIR_KERNEL:
		return ref_bir(it, fr, i);
	case BIR_OP_LOOP:
		if (fr->nax >= 8)
			return ierr(it, "Loop '%s': nested deeper than 8", i->name);
		if (i->axis->stride <= 0)
			return ierr(it, "Loop '%s': stride %lld", i->name,
				    (long long)i->axis->stride);
		/* by iteration count over the unsigned span: no overflow */
		for (uint64_t k = 0, n = i->axis->ub <= i->axis->lb ? 0 :
		     ((uint64_t)i->axis->ub - (uint64_t)i->axis->lb - 1) /
		     (uint64_t)i->axis->stride + 1; k < n; k++) {
			int64_t v = (int64_t)((uint64_t)i->axis->lb +
					      k * (uint64_t)i->axis->stride);
			int rc;

			fr->axis[fr->nax] = i->axis->name;
			fr->axv[fr->nax++] = v;
			rc = exec_blocks(it, fr, i->blocks, i->nblocks, false);
			fr->nax--;
			if (rc)
				return rc;
		}
		return 0;
	default:
		return exec_compute(it, fr, i);
	}
}

static int exec_blocks(struct bir_interp *it, struct frame *fr,
		       struct bir_block **blocks, uint32_t n, bool top)
{
	uint32_t b = 0;

	while (b < n) {
		const char *jump = NULL;

		for (uint32_t k = 0; k < blocks[b]->ninsts && !jump; k++) {
			int rc = exec_inst(it, fr, blocks[b]->insts[k], &jump);

			if (rc)
				return rc;
		}
		if (!jump) {
			b++;
			continue;
		}
		if (!top)
			return ierr(it, "branch to '%s' inside a Loop body", jump);
		for (b = 0; b < n && strcmp(blocks[b]->name, jump); b++)
			;
		if (b == n)
			return ierr(it, "branch to unknown block '%s'", jump);
	}
	return 0;
}

/* ---- API -------------------------------------------------------------- */

struct bir_interp *bir_interp_new(const struct bir_module *m,
				  struct nscc_err *err)
{
	struct bir_interp *it;
	const struct bir_function *entry = NULL;

	/* the entry is the function no NKIKernel calls: the first one */
	if (m->nfns)
		entry = m->fns[0];
	if (!entry) {
		snprintf(err->msg, sizeof(err->msg), "interp: module has no function");
		return NULL;
	}
	it = calloc(1, sizeof(*it));
	if (!it)
		return NULL;
	it->m = m;
	it->part = bir_sb_partition_bytes(m->arch_level);
	it->sb = calloc(128, it->part);
	if (!it->sb) {
		free(it);
		return NULL;
	}
	it->top.f = entry;
	it->err = err;
	return it;
}

void bir_interp_free(struct bir_interp *it)
{
	if (!it)
		return;
	frame_fini(&it->top);
	free(it->sb);
	free(it);
}

static int whole(struct bir_interp *it, const char *name, float *v,
		 uint64_t n, bool store, struct nscc_err *err)
{
	struct bir_operand o = { .kind = BIR_OPND_AP, .name = name };
	struct bir_ap_pair ap[2];
	const struct bir_memloc *ml = bir_memloc_find(it->top.f, name);
	uint64_t p, f;

	uint32_t dt, sz;

	it->err = err;
	if (!ml)
		return ierr(it, "interp: no memory location '%s'", name);
	if (elem_type(it, &o, ml, &dt, &sz))
		return -EINVAL;
	ap[0] = (struct bir_ap_pair){ 1, (int64_t)ml->dims[0] };
	ap[1] = (struct bir_ap_pair){ 1, (int64_t)(ml->dims[1] / sz) };
	o.ap = ap;
	o.nap = 2;
	if (n != ml->dims[0] * (ml->dims[1] / sz))
		return ierr(it, "interp: '%s' holds %llu values, not %llu",
			    name,
			    (unsigned long long)(ml->dims[0] * (ml->dims[1] / sz)),
			    (unsigned long long)n);
	return walk(it, &it->top, &o, v, store, &p, &f);
}

int bir_interp_set(struct bir_interp *it, const char *name, const float *v,
		   uint64_t n, struct nscc_err *err)
{
	return whole(it, name, (float *)v, n, true, err);
}

int bir_interp_get(struct bir_interp *it, const char *name, float *v,
		   uint64_t n, struct nscc_err *err)
{
	return whole(it, name, v, n, false, err);
}

int bir_interp_run(struct bir_interp *it, struct nscc_err *err)
{
	it->err = err;
	return exec_blocks(it, &it->top, it->top.f->blocks, it->top.f->nblocks,
			   true);
}
