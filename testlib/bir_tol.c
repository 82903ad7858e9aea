// SPDX-License-Identifier: GPL-2.0
/*
 * bir_tol.c - the tolerance of an engine program's outputs against the
 * reference interpreter (bir_tol.h; Documentation/compiler-passes.rst).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tl_f32.h"
#include "bir_tol.h"
#include "kbin_dma.h"

const char *bir_tol_inexact(const struct bir_inst *i)
{
	static const char *const expfn[] = { "gelu", "sigmoid", "tanh", "exp",
		"silu" };
	const char *fn;

	if (i->op != BIR_OP_ACTIVATION)
		return NULL;
	fn = bir_attr_str(i, "func");
	for (size_t k = 0; fn && k < sizeof(expfn) / sizeof(expfn[0]); k++)
		if (!strcmp(fn, expfn[k]))
			return "an activation built on exp";
	return NULL;
}

struct taint {
	const struct bir_memloc **ml;
	uint32_t n, cap;
	bool changed, oom;
};

static bool tainted(const struct taint *t, const struct bir_memloc *ml)
{
	for (uint32_t k = 0; k < t->n; k++)
		if (t->ml[k] == ml)
			return true;
	return false;
}

static void taint_add(struct taint *t, const struct bir_memloc *ml)
{
	if (!ml || tainted(t, ml))
		return;
	if (t->n == t->cap) {
		uint32_t cap = t->cap ? 2 * t->cap : 16;
		const struct bir_memloc **n = realloc(t->ml, cap * sizeof(*n));

		if (!n) {
			t->oom = true;
			return;
		}
		t->ml = n;
		t->cap = cap;
	}
	t->ml[t->n++] = ml;
	t->changed = true;
}

static int taint_inst(struct bir_inst *i, void *arg)
{
	struct taint *t = arg;
	bool in = bir_tol_inexact(i) != NULL;

	for (uint32_t k = 0; !in && k < i->nins; k++)
		in = i->ins[k].ml && tainted(t, i->ins[k].ml);
	for (uint32_t k = 0; in && k < i->nouts; k++)
		taint_add(t, i->outs[k].ml);
	return 0;
}

void bir_tol_output(const struct bir_module *m, const char *name,
		    struct bir_tol *tol)
{
	struct taint t = { 0 };
	bool reached = false;

	/* to a fixed point: a location written after it is read */
	do {
		t.changed = false;
		for (uint32_t f = 0; f < m->nfns; f++)
			bir_foreach_inst(m->fns[f], taint_inst, &t);
	} while (t.changed && !t.oom);
	for (uint32_t k = 0; k < t.n; k++)
		reached |= t.ml[k]->name && !strcmp(t.ml[k]->name, name);
	free(t.ml);
	memset(tol, 0, sizeof(*tol));
	tol->exact = !reached && !t.oom;
	if (tol->exact) {
		tol->why = "exact operations only";
		return;
	}
	tol->abs = BIR_TOL_EXP_ABS;
	tol->rel = BIR_TOL_EXP_REL;
	tol->why = "an activation built on exp reaches it";
	/*
	 * an output of fewer mantissa bits than float32: the two float32
	 * values may round to neighbours, one unit of its last place apart
	 */
	for (uint32_t f = 0; f < m->nfns && f < 1; f++) {
		const struct bir_memloc *ml = bir_memloc_find(m->fns[f], name);
		const struct kbin_dma_dtype_info *d =
			ml && ml->set->dtype.name ? kbin_dma_dtype(ml->set->dtype.id) : NULL;

		if (d && d->cls == KBIN_DMA_FLOAT && d->man_bits < 23) {
			tol->rel += ldexp(1.0, -(int)d->man_bits);
			tol->why = "an activation built on exp reaches it, stored in 16 bits";
		}
	}
}

uint64_t bir_tol_cmp(const struct bir_tol *t, const float *got,
		     const float *want, uint64_t n, struct bir_tol_worst *w,
		     uint64_t *first)
{
	uint64_t bad = 0;

	for (uint64_t k = 0; k < n; k++) {
		bool nan = got[k] != got[k] && want[k] != want[k];
		double d = fabs((double)got[k] - want[k]), r;
		bool ok;

		if (nan || got[k] == want[k])
			d = 0;
		else if (d != d)
			d = INFINITY;	/* a NaN on one side */
		r = want[k] ? d / fabs(want[k]) : d;
		if (w) {
			uint32_t u = nan ? 0 : (uint32_t)tl_f32_ulp(tl_f2u(got[k]), tl_f2u(want[k]));

			w->abs = d > w->abs ? d : w->abs;
			w->rel = r > w->rel ? r : w->rel;
			w->ulp = u > w->ulp ? u : w->ulp;
		}
		/* an infinity agrees only with itself */
		ok = nan || (t->exact ? !memcmp(&got[k], &want[k], 4) :
			     d <= t->abs + t->rel * fabs(want[k]) &&
			     (d == 0 || (!isinf(got[k]) && !isinf(want[k]))));
		if (!ok && !bad++ && first)
			*first = k;
	}
	return bad;
}
