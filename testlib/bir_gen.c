// SPDX-License-Identifier: GPL-2.0
/*
 * bir_gen.c - random well-formed BIR modules and the differential check
 * of the backend passes on them (bir_gen.h; Documentation/
 * compiler-passes.rst, "Random modules").
 *
 * Every choice is made valid by construction: an operand is a region
 * [p, f] (partition step 1 or 2, element step 1 or 2, an element offset)
 * inside its location, and an output of a shape no location holds gets
 * a new location of that shape.  Locations never overlap: allocated SB
 * locations take addresses from a bump pointer well below the runtime
 * reservation, the rest are placed by the passes.  Input locations are
 * read only; the "idx" input holds small integers (register offsets).
 *
 * A seed must give the same module in every build (the fuzz target's
 * clang and the host tests' gcc): no expression takes two random numbers
 * where C leaves the order of evaluation open (function arguments,
 * operands of an arithmetic operator).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bir_gen.h"
#include "bir_interp.h"
#include "kbin_cast.h"
#include "kbin_dma.h"
#include "kbin_gen.h"
#include "kbin_reader.h"
#include "prog_ref.h"
#include "tl_rng.h"

#define MAXL		96	/* locations per function */
#define MAXDEP		6
#define MAXRW		8
#define FMAX		64	/* float32 elements per partition, at most */
#define IDX_MAX		3	/* "idx" values are 0..IDX_MAX */
#define SBA_BASE	16384	/* first address of allocated SB locations */

enum ltype { L_IN, L_OUT, L_DRAM, L_SB, L_SBA, L_PSUM, L_IDX };

struct loc {
	char name[16];
	enum ltype type;
	uint32_t P, F;		/* partitions, elements per partition */
	uint8_t dt;		/* enum kbin_dma_dtype of its elements */
	uint64_t addr;		/* L_SBA */
	bool hidden;		/* a kernel workspace: no instruction names it */
};

struct fnst {
	struct loc loc[MAXL];
	uint32_t nloc;
	uint32_t ntmp;
	bool diamond;
	uint64_t sbtop;		/* kernel: temps inside the workspace */
	bool ws;		/* kernel: a workspace parameter, allocated temps */
	uint32_t Pa, Fa, Po, Fo;	/* kernel: parameter shapes */
};

struct item {
	enum bir_gen_kind kind;
	int fn;			/* 0 main, 1 the NKI kernel */
	int blk;		/* 0 entry, 1 true, 2 false, 3 join */
	char name[24];
	char *text;		/* instructions, "\x01" where deps go */
	uint32_t dep[MAXDEP], ndep;
	uint32_t rd[MAXRW], nrd, wr[MAXRW], nwr;
	bool dropped;
};

struct bir_gen {
	uint64_t seed, rng;
	bool f32_only;		/* kernel call arguments: float32 locations */
	struct item *it;
	uint32_t nit, capit;
	struct fnst fn[2];
	bool kernel;		/* the kernel function exists */
	bool enable_bir_kernel;
	unsigned int flags;	/* BIR_GEN_F_* */
	uint64_t sbaddr;
	int cur_fn, cur_blk;
	bool oom;
};

static const char *const kind_names[BG_NKINDS] = {
	"copy", "memset", "activation", "tensor_tensor", "tensor_scalar",
	"tensor_scalar_ap", "reduce", "matmult", "transpose", "gather",
	"indirect_load", "branch", "jump", "loop", "nki_call",
	"birk_activation", "birk_rmsnorm", "birk_layernorm", "birk_mlp",
	"birk_attention", "store",
};

const char *bir_gen_kind_name(enum bir_gen_kind k)
{
	return k < BG_NKINDS ? kind_names[k] : "?";
}

static const char *const act_fns[] = { "identity", "relu", "gelu", "sigmoid",
	"tanh", "exp", "silu", "square", "rsqrt", "reciprocal" };
static const char *const alu_ops[] = { "add", "subtract", "multiply", "divide",
	"max" };
static const char *const engines[] = { "ACT", "DVE", "POOL", "SP", "PE" };
static const double scales[] = { 1.0, 0.5, -2.0, 3.0, 0.125 };

/* ---- text ------------------------------------------------------------- */

struct sbuf {
	char *s;
	size_t n, cap;
	bool oom;
};

static void sbf(struct sbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void sbf(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int need;

	if (b->oom)
		return;
	va_start(ap, fmt);
	need = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (b->n + (size_t)need + 1 > b->cap) {
		size_t cap = (b->cap ? b->cap * 2 : 1024) + (size_t)need;
		char *s = realloc(b->s, cap);

		if (!s) {
			b->oom = true;
			return;
		}
		b->s = s;
		b->cap = cap;
	}
	va_start(ap, fmt);
	vsnprintf(b->s + b->n, b->cap - b->n, fmt, ap);
	va_end(ap);
	b->n += (size_t)need;
}

/* ---- random choices ----------------------------------------------------- */

static uint32_t rn(struct bir_gen *g, uint32_t n)	/* 0..n-1 */
{
	return n ? (uint32_t)(tl_rng(&g->rng) % n) : 0;
}

static uint32_t rr(struct bir_gen *g, uint32_t lo, uint32_t hi)	/* lo..hi */
{
	return lo + rn(g, hi - lo + 1);
}

static bool coin(struct bir_gen *g, uint32_t num, uint32_t den)
{
	return rn(g, den) < num;
}

static uint32_t umin(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

/* ---- locations and regions ------------------------------------------- */

static struct fnst *F(struct bir_gen *g)
{
	return &g->fn[g->cur_fn];
}

static bool writable(const struct loc *l)
{
	return l->type != L_IN && l->type != L_IDX;
}

static uint32_t add_loc(struct bir_gen *g, struct fnst *f, enum ltype t,
			const char *name, uint32_t P, uint32_t Fe)
{
	struct loc *l;

	if (f->nloc == MAXL)
		return 0;	/* reuse the first location (never reached) */
	l = &f->loc[f->nloc];
	snprintf(l->name, sizeof(l->name), "%s", name);
	l->type = t;
	l->P = P;
	l->F = Fe;
	l->dt = KBIN_DMA_DTYPE_FLOAT32;
	l->addr = 0;
	if (t == L_SBA) {
		if (f == &g->fn[1]) {
			l->addr = f->sbtop;
			f->sbtop += ((uint64_t)Fe * 4 + 7) & ~7ULL;
		} else {
			l->addr = g->sbaddr;
			g->sbaddr += (((uint64_t)Fe * 4 + 7) & ~7ULL) + 8 * rn(g, 4);
		}
	}
	return f->nloc++;
}

/* a new temporary of at least [P, Fe] of a random writable kind */
static uint32_t new_tmp(struct bir_gen *g, uint32_t P, uint32_t Fe)
{
	static const char pfx[] = "dsap";
	static const enum ltype ty[] = { L_DRAM, L_SB, L_SBA, L_PSUM };
	struct fnst *f = F(g);
	uint32_t k = rn(g, 4);
	char name[16];

	/* kernel temps: allocated only inside a workspace */
	if (g->cur_fn == 1 && ty[k] == L_SBA && !f->ws)
		k = 1;
	snprintf(name, sizeof(name), "%c%u", pfx[k], f->ntmp++);
	if (rn(g, 3))	/* sometimes larger than asked */
		P += rr(g, 0, 7);
	if (rn(g, 3))
		Fe += rr(g, 0, 5);
	return add_loc(g, f, ty[k], name, umin(128, P), umin(FMAX, Fe));
}

struct region {
	uint32_t loc;
	uint32_t off, ps, p, fs, f;	/* offset and steps in elements */
	const char *axis;		/* dyn term: NULL none */
	int64_t dstep;			/* bytes */
};

/* place [p, f] in location @l (it fits) with random steps and offset */
static struct region place(struct bir_gen *g, uint32_t l, uint32_t p,
			   uint32_t f)
{
	const struct loc *L = &F(g)->loc[l];
	struct region r = { .loc = l, .ps = 1, .p = p, .fs = 1, .f = f };

	if (p > 1 && 2 * p - 1 <= L->P && coin(g, 1, 5) &&
	    !(g->flags & BIR_GEN_F_LOWERABLE))	/* engines: partition step 1 */
		r.ps = 2;
	if (f > 1 && 2 * f - 1 <= L->F && coin(g, 1, 5))
		r.fs = 2;
	r.off = rn(g, L->F - ((f - 1) * r.fs + 1) + 1);
	return r;
}

/* a location that holds [p, f]: an existing one (writable when @w), often */
static uint32_t fit(struct bir_gen *g, uint32_t p, uint32_t f, bool w)
{
	struct fnst *fs = F(g);
	uint32_t cand[MAXL], n = 0;

	for (uint32_t k = 0; k < fs->nloc; k++)
		if (fs->loc[k].P >= p && fs->loc[k].F >= f &&
		    (!w || writable(&fs->loc[k])) && fs->loc[k].type != L_IDX &&
		    !fs->loc[k].hidden &&
		    (!g->f32_only || fs->loc[k].dt == KBIN_DMA_DTYPE_FLOAT32))
			cand[n++] = k;
	if (n && (coin(g, 4, 5) || fs->nloc == MAXL))
		return cand[rn(g, n)];
	return new_tmp(g, p, f);
}

static struct region src_shape(struct bir_gen *g, uint32_t p, uint32_t f)
{
	return place(g, fit(g, p, f, false), p, f);
}

static struct region dst_shape(struct bir_gen *g, uint32_t p, uint32_t f)
{
	return place(g, fit(g, p, f, true), p, f);
}

/* a region of a random readable location, at most [maxp, maxf] */
static struct region src_any(struct bir_gen *g, uint32_t maxp, uint32_t maxf)
{
	struct fnst *fs = F(g);
	uint32_t l, p;

	do
		l = rn(g, fs->nloc);
	while (fs->loc[l].type == L_IDX || fs->loc[l].hidden);
	p = rr(g, 1, umin(fs->loc[l].P, maxp));
	return place(g, l, p, rr(g, 1, umin(fs->loc[l].F, maxf)));
}

/* bytes of an element of location @l of the current function */
static uint32_t esz(struct bir_gen *g, uint32_t l)
{
	return kbin_dma_dtype(F(g)->loc[l].dt)->size;
}

static void ap(struct sbuf *b, struct bir_gen *g, const struct region *r)
{
	sbf(b, "{\"Skind\": \"physical_ap\", \"memref\": \"%s\", \"offset\": %u, \"ap\": [[%u, %u], [%u, %u]], \"dtype\": \"%s\"",
	    F(g)->loc[r->loc].name, r->off * esz(g, r->loc), r->ps, r->p,
	    r->fs, r->f, kbin_dma_dtype_str(F(g)->loc[r->loc].dt));
	if (r->axis)
		sbf(b, ", \"dyn\": [{\"axis\": \"%s\", \"step\": %lld}]", r->axis,
		    (long long)r->dstep);
	sbf(b, "}");
}

/* ---- items ------------------------------------------------------------- */

static struct item *new_item(struct bir_gen *g, enum bir_gen_kind kind)
{
	struct item *i;

	if (g->nit == g->capit) {
		uint32_t cap = g->capit ? g->capit * 2 : 32;
		struct item *n = realloc(g->it, cap * sizeof(*n));

		if (!n) {
			g->oom = true;
			return NULL;
		}
		g->it = n;
		g->capit = cap;
	}
	i = &g->it[g->nit];
	memset(i, 0, sizeof(*i));
	i->kind = kind;
	i->fn = g->cur_fn;
	i->blk = g->cur_blk;
	snprintf(i->name, sizeof(i->name), "%s%u", g->cur_fn ? "k" : "m", g->nit);
	return i;
}

static void rd(struct item *i, const struct region *r)
{
	if (i->nrd < MAXRW)
		i->rd[i->nrd++] = r->loc;
}

static void wr(struct item *i, const struct region *r)
{
	if (i->nwr < MAXRW)
		i->wr[i->nwr++] = r->loc;
}

static bool meets(const uint32_t *a, uint32_t na, const uint32_t *b,
		  uint32_t nb)
{
	for (uint32_t x = 0; x < na; x++)
		for (uint32_t y = 0; y < nb; y++)
			if (a[x] == b[y])
				return true;
	return false;
}

/* deps on earlier items of the function: hazards (RAW, WAR, WAW), some random */
static void add_deps(struct bir_gen *g, struct item *i, uint32_t self)
{
	for (uint32_t k = self; k-- > 0 && i->ndep < MAXDEP;) {
		const struct item *e = &g->it[k];
		bool hz;

		if (e->fn != i->fn)
			continue;
		hz = meets(i->wr, i->nwr, e->rd, e->nrd) ||
		     meets(i->wr, i->nwr, e->wr, e->nwr) ||
		     meets(i->rd, i->nrd, e->wr, e->nwr);
		if ((hz && coin(g, 1, 2)) || coin(g, 1, 16))
			i->dep[i->ndep++] = k;
	}
}

/* the opening of an instruction: opcode, name, deps marker (first only), engine */
static void open_inst(struct sbuf *b, struct bir_gen *g, const char *op,
		      const char *name, bool first)
{
	sbf(b, "{\"opcode\": \"%s\", \"name\": \"%s\"%s, \"engine\": \"%s\"",
	    op, name, first ? "\x01" : "", engines[rn(g, 5)]);
}

/* one elementwise instruction src -> dst (and src2), as the kind says */
static void unary(struct sbuf *b, struct bir_gen *g, enum bir_gen_kind kind,
		  const char *name, bool first, const struct region *s,
		  const struct region *s2, const struct region *d)
{
	static const char *const opc[] = {
		[BG_COPY] = "TensorCopy", [BG_ACT] = "Activation",
		[BG_TT] = "TensorTensor", [BG_TS] = "TensorScalar",
		[BG_TS_AP] = "TensorScalar", [BG_REDUCE] = "TensorReduce",
		[BG_TRANSPOSE] = "Transpose", [BG_MATMULT] = "MatMult",
		[BG_STORE] = "TensorCopy",
	};

	open_inst(b, g, opc[kind], name, first);
	sbf(b, ", \"ins\": [");
	ap(b, g, s);
	if (kind == BG_TT || kind == BG_TS_AP || kind == BG_MATMULT) {
		sbf(b, ", ");
		ap(b, g, s2);
	} else if (kind == BG_TS) {
		sbf(b, ", {\"Skind\": \"imm_value\", \"value\": %.3f}",
		    (double)((int)rn(g, 17) - 8) / 4.0);
	}
	sbf(b, "], \"outs\": [");
	ap(b, g, d);
	sbf(b, "]");
	if (kind == BG_ACT) {
		const char *fn = act_fns[rn(g, 10)];

		sbf(b, ", \"func\": \"%s\", \"scale\": %.3f", fn, scales[rn(g, 5)]);
	}
	if (kind == BG_TT || kind == BG_TS || kind == BG_TS_AP)
		sbf(b, ", \"op\": \"%s\"", alu_ops[rn(g, 5)]);
	if (kind == BG_REDUCE)
		sbf(b, ", \"op\": \"%s\"", alu_ops[rn(g, 3) == 2 ? 4 :
						  rn(g, 2) * 2]);
	sbf(b, "}");
}

static void finish(struct bir_gen *g, struct item *i, struct sbuf *b)
{
	if (b->oom)
		g->oom = true;
	i->text = b->s;
	add_deps(g, i, (uint32_t)(i - g->it));
	g->nit++;
}

static void gen_simple(struct bir_gen *g, enum bir_gen_kind kind)
{
	struct item *i = new_item(g, kind);
	struct sbuf b = { 0 };
	struct region s, s2 = { 0 }, d;

	if (!i)
		return;
	switch (kind) {
	case BG_MEMSET:
		s = src_any(g, 128, FMAX);
		d = dst_shape(g, s.p, s.f);
		open_inst(&b, g, "Memset", i->name, true);
		sbf(&b, ", \"ins\": [], \"outs\": [");
		ap(&b, g, &d);
		sbf(&b, "], \"value\": %.2f}", rn(g, 2) ? 0.0 :
		    (double)((int)rn(g, 9) - 4) / 2.0);
		wr(i, &d);
		finish(g, i, &b);
		return;
	case BG_REDUCE:
		s = src_any(g, 128, FMAX);
		d = dst_shape(g, s.p, 1);
		break;
	case BG_MATMULT: {
		uint32_t n;

		s = src_any(g, 128, 32);	/* [k, m] */
		n = rr(g, 1, 32);
		s2 = src_shape(g, s.p, n);	/* [k, n] */
		d = dst_shape(g, s.f, n);	/* [m, n] */
		rd(i, &s2);
		break;
	}
	case BG_TRANSPOSE:
		s = src_any(g, 64, FMAX);
		d = dst_shape(g, s.f, s.p);
		break;
	case BG_TS_AP:
		s = src_any(g, 128, FMAX);
		s2 = src_shape(g, s.p, 1);
		d = dst_shape(g, s.p, s.f);
		rd(i, &s2);
		break;
	case BG_TT:
		s = src_any(g, 128, FMAX);
		s2 = src_shape(g, s.p, s.f);
		d = dst_shape(g, s.p, s.f);
		rd(i, &s2);
		break;
	default:	/* copy, activation, tensor_scalar, store */
		s = src_any(g, 128, FMAX);
		d = dst_shape(g, s.p, s.f);
		break;
	}
	rd(i, &s);
	wr(i, &d);
	unary(&b, g, kind, i->name, true, &s, &s2, &d);
	finish(g, i, &b);
}

/* index of the "idx" input of the current function */
static uint32_t idx_loc(struct bir_gen *g)
{
	struct fnst *f = F(g);

	for (uint32_t k = 0; k < f->nloc; k++)
		if (f->loc[k].type == L_IDX)
			return k;
	return 0;
}

/* RegisterLoad idx -> reg, then a copy (dyn term on the register) or a
 * GenericIndirectLoad (index_stride) */
static void gen_gather(struct bir_gen *g, enum bir_gen_kind kind)
{
	struct item *i = new_item(g, kind);
	struct fnst *f = F(g);
	struct sbuf b = { 0 };
	struct region ix = { .loc = idx_loc(g), .ps = 1, .p = 1, .fs = 1, .f = 1 };
	struct region s, d;
	const char *reg = g->cur_fn ? "kr1" : "r1";
	uint32_t l, step, p, fe;
	char nm[32];

	if (!i)
		return;
	do
		l = rn(g, f->nloc);
	while (f->loc[l].type == L_IDX || f->loc[l].hidden ||
	       f->loc[l].F < IDX_MAX + 1);
	step = rr(g, 1, umin(4, (f->loc[l].F - 1) / IDX_MAX));
	p = rr(g, 1, f->loc[l].P);
	fe = rr(g, 1, f->loc[l].F - IDX_MAX * step);
	s = (struct region){ .loc = l, .ps = 1, .p = p, .fs = 1, .f = fe };
	s.off = rn(g, f->loc[l].F - IDX_MAX * step - fe + 1);
	d = dst_shape(g, p, fe);
	open_inst(&b, g, "RegisterLoad", i->name, true);
	sbf(&b, ", \"ins\": [");
	ap(&b, g, &ix);
	sbf(&b, "], \"outs\": [{\"Skind\": \"register_access\", \"reg\": \"%s\"}]}, ",
	    reg);
	snprintf(nm, sizeof(nm), "%s_x", i->name);
	if (kind == BG_GATHER) {
		s.axis = reg;
		s.dstep = (int64_t)step * esz(g, s.loc);
	}
	open_inst(&b, g, kind == BG_GATHER ? "TensorCopy" : "GenericIndirectLoad",
		  nm, false);
	sbf(&b, ", \"ins\": [");
	ap(&b, g, &s);
	if (kind == BG_INDIRECT)
		sbf(&b, ", {\"Skind\": \"register_access\", \"reg\": \"%s\"}", reg);
	sbf(&b, "], \"outs\": [");
	ap(&b, g, &d);
	sbf(&b, "]");
	if (kind == BG_INDIRECT)
		sbf(&b, ", \"index_stride\": %u", step * esz(g, s.loc));
	sbf(&b, "}");
	rd(i, &ix);
	rd(i, &s);
	wr(i, &d);
	finish(g, i, &b);
}

/* a Loop over axis i (main) or j (kernel): slices of width w move by
 * w elements per iteration; a TensorTensor may accumulate into a fixed
 * region instead */
static void gen_loop(struct bir_gen *g)
{
	struct item *i = new_item(g, BG_LOOP);
	const char *axis = g->cur_fn ? "j" : "i";
	struct sbuf b = { 0 };
	uint32_t lb = 0, ub = rr(g, 2, 4), stride = 1, vmax, w, p, n, on;
	uint32_t bw[3];
	struct region s, d, acc;

	if (!i)
		return;
	if (coin(g, 1, 3)) {
		lb = 1;
		stride = 2;
		ub = rr(g, 4, 6);
	}
	vmax = lb + stride * ((ub - lb - 1) / stride);
	w = rr(g, 1, 8);
	p = rr(g, 1, 64);
	s = src_shape(g, p, (vmax + 1) * w);
	s.fs = 1;
	s.off = rn(g, F(g)->loc[s.loc].F - (vmax + 1) * w + 1);
	d = dst_shape(g, p, (vmax + 1) * w);
	d.fs = 1;
	d.off = rn(g, F(g)->loc[d.loc].F - (vmax + 1) * w + 1);
	s.f = d.f = w;
	s.axis = d.axis = axis;
	s.dstep = (int64_t)w * esz(g, s.loc);
	d.dstep = (int64_t)w * esz(g, d.loc);
	acc = dst_shape(g, p, w);
	acc.ps = d.ps = s.ps = 1;
	acc.fs = 1;
	open_inst(&b, g, "Loop", i->name, true);
	sbf(&b, ", \"ins\": [], \"outs\": [], \"LoopAxis\": {\"name\": \"%s\", \"lb\": %u, \"ub\": %u, \"stride\": %u}, \"blocks\": [{\"name\": \"%s_body\", \"instructions\": [",
	    axis, lb, ub, stride, i->name);
	n = rr(g, 1, 3);
	for (uint32_t k = 0; k < n; k++) {
		static const enum bir_gen_kind kinds[] = { BG_ACT, BG_TS,
			BG_COPY, BG_TT };
		enum bir_gen_kind kk = kinds[rn(g, 4)];
		char nm[40];

		snprintf(nm, sizeof(nm), "%s_b%u", i->name, k);
		if (k)
			sbf(&b, ", ");
		if (kk == BG_TT && coin(g, 1, 2)) {
			/* acc = acc op slice(i) */
			unary(&b, g, kk, nm, false, &acc, &s, &acc);
			rd(i, &acc);
			wr(i, &acc);
			bw[k] = acc.loc;
		} else {
			unary(&b, g, kk, nm, false, &s, &d, &d);
			wr(i, &d);
			if (kk == BG_TT)
				rd(i, &d);
			bw[k] = d.loc;
		}
		/*
		 * a dep within the body; in the kernel only on a writer of the
		 * same location (ConstantPropagate removes the writers of a
		 * dead result, and a dep on a removed one is refused)
		 */
		on = rn(g, k ? k : 1);
		if (k && coin(g, 1, 2) && (!g->cur_fn || bw[on] == bw[k])) {
			b.n--;
			b.s[b.n] = 0;
			sbf(&b, ", \"deps\": [\"%s_b%u\"]}", i->name, on);
		}
	}
	rd(i, &s);
	sbf(&b, "]}]}");
	finish(g, i, &b);
}

/* BIRKernel calls of the library templates, shapes by their rules */
static void gen_birk(struct bir_gen *g, enum bir_gen_kind kind)
{
	static const char *const kn[] = { [BG_BIRK_ACT] = "activation",
		[BG_BIRK_RMS] = "rmsnorm", [BG_BIRK_LN] = "layernorm",
		[BG_BIRK_MLP] = "mlp", [BG_BIRK_ATTN] = "attention" };
	struct item *i = new_item(g, kind);
	struct sbuf b = { 0 };
	struct region s[3], d;
	uint32_t n = 1, sh[4][2];

	if (!i)
		return;
	switch (kind) {
	case BG_BIRK_RMS:
	case BG_BIRK_LN:
		n = kind == BG_BIRK_RMS ? 2 : 3;
		/* fall through */
	case BG_BIRK_ACT:
		sh[0][0] = rr(g, 1, 128);
		sh[0][1] = rr(g, 1, 32);
		for (uint32_t k = 1; k <= n; k++) {
			sh[k][0] = sh[0][0];
			sh[k][1] = sh[0][1];
		}
		sh[n][0] = sh[0][0];
		break;
	default: {	/* mlp xT [D,T] w1 [D,H] w2 [H,O] -> [T,O]; attention
			 * qT [d,Sq] kT [d,Sk] v [Sk,dv] -> [Sq,dv] */
		uint32_t a = rr(g, 1, 16), t = rr(g, 1, 16), h = rr(g, 1, 16),
			 o = rr(g, 1, 16);

		n = 3;
		sh[0][0] = a;
		sh[0][1] = t;
		sh[1][0] = a;
		sh[1][1] = h;
		sh[2][0] = h;
		sh[2][1] = o;
		sh[3][0] = t;
		sh[3][1] = o;
		break;
	}
	}
	g->f32_only = true;	/* the templates are float32 */
	for (uint32_t k = 0; k < n; k++) {
		s[k] = src_shape(g, sh[k][0], sh[k][1]);
		rd(i, &s[k]);
	}
	d = dst_shape(g, sh[n][0], sh[n][1]);
	g->f32_only = false;
	wr(i, &d);
	open_inst(&b, g, "BIRKernel", i->name, true);
	sbf(&b, ", \"ins\": [");
	for (uint32_t k = 0; k < n; k++) {
		sbf(&b, k ? ", " : "");
		ap(&b, g, &s[k]);
	}
	sbf(&b, "], \"outs\": [");
	ap(&b, g, &d);
	sbf(&b, "], \"kernel_name\": \"%s\", \"srcs_shape\": [", kn[kind]);
	for (uint32_t k = 0; k < n; k++)
		sbf(&b, "%s[%u, %u]", k ? ", " : "", sh[k][0], sh[k][1]);
	sbf(&b, "], \"dsts_shape\": [[%u, %u]], \"kernel_attrs\": {", sh[n][0],
	    sh[n][1]);
	if (kind == BG_BIRK_ACT) {
		const char *fn = act_fns[rn(g, 10)];

		sbf(&b, "\"func\": \"%s\", \"scale\": %.3f", fn, scales[rn(g, 5)]);
	}
	else if (kind == BG_BIRK_MLP)
		sbf(&b, "\"act\": \"%s\"", act_fns[rn(g, 10)]);
	else if (kind == BG_BIRK_ATTN && coin(g, 1, 2))
		sbf(&b, "\"scale\": %.3f", scales[rn(g, 5)]);
	else if ((kind == BG_BIRK_RMS || kind == BG_BIRK_LN) && coin(g, 1, 2))
		sbf(&b, "\"eps\": 0.001");
	sbf(&b, "}}");
	finish(g, i, &b);
}

/* RegisterLoad of one input element, CompareAndBranch to the true or the
 * false block (end of the entry block) */
static void gen_branch(struct bir_gen *g)
{
	static const char *const cmp[] = { "gt", "ge", "lt", "le", "eq", "ne" };
	struct item *i = new_item(g, BG_BRANCH);
	struct sbuf b = { 0 };
	const char *reg = g->cur_fn ? "kr0" : "r0";
	struct region s;
	uint32_t l = 0;
	double imm;

	if (!i)
		return;
	while (F(g)->loc[l].type != L_IN)
		l++;
	s = place(g, l, 1, 1);
	open_inst(&b, g, "RegisterLoad", i->name, true);
	sbf(&b, ", \"ins\": [");
	ap(&b, g, &s);
	sbf(&b, "], \"outs\": [{\"Skind\": \"register_access\", \"reg\": \"%s\"}]}, ",
	    reg);
	imm = coin(g, 1, 4) ? 0.0 : (double)((int)rn(g, 5) - 2) / 4.0;
	sbf(&b, "{\"opcode\": \"CompareAndBranch\", \"name\": \"%s_br\", \"engine\": \"SP\", \"ins\": [{\"Skind\": \"register_access\", \"reg\": \"%s\"}, {\"Skind\": \"imm_value\", \"value\": %.2f}], \"outs\": [], \"comp_op\": \"%s\", \"on_true\": \"bt\", \"on_false\": \"bf\"}",
	    i->name, reg, imm, cmp[rn(g, 6)]);
	rd(i, &s);
	g->nit++;	/* no deps: keep the branch last in its block */
	i->text = b.s;
	if (b.oom)
		g->oom = true;
}

static void gen_jump(struct bir_gen *g)
{
	struct item *i = new_item(g, BG_JUMP);
	struct sbuf b = { 0 };

	if (!i)
		return;
	sbf(&b, "{\"opcode\": \"UnconditionalBranch\", \"name\": \"%s\", \"engine\": \"SP\", \"ins\": [], \"outs\": [], \"target\": \"bj\"}",
	    i->name);
	i->text = b.s;
	g->nit++;
	if (b.oom)
		g->oom = true;
}

/* a copy into the whole of [p, f] of output @l */
static void gen_store(struct bir_gen *g, uint32_t l)
{
	struct item *i = new_item(g, BG_STORE);
	struct sbuf b = { 0 };
	const struct loc *L = &F(g)->loc[l];
	struct region d = { .loc = l, .ps = 1, .p = L->P, .fs = 1, .f = L->F };
	struct region s;

	if (!i)
		return;
	s = src_shape(g, L->P, L->F);
	rd(i, &s);
	wr(i, &d);
	unary(&b, g, coin(g, 1, 2) ? BG_STORE : BG_ACT, i->name, true, &s, NULL,
	      &d);
	finish(g, i, &b);
}

static void gen_body(struct bir_gen *g, uint32_t n, bool main_fn);

/* the kernel function: a [Pa, Fa], idx -> out [Po, Fo] (+ ws) */
static void gen_kernel(struct bir_gen *g)
{
	struct fnst *f = &g->fn[1];
	int save_fn = g->cur_fn, save_blk = g->cur_blk;
	uint32_t p;

	g->kernel = true;
	g->cur_fn = 1;
	f->Pa = rr(g, 1, 128);
	f->Fa = rr(g, 4, FMAX);
	f->Po = rr(g, 1, 128);
	f->Fo = rr(g, 1, 32);
	f->ws = coin(g, 1, 2);
	add_loc(g, f, L_IN, "a", f->Pa, f->Fa);
	add_loc(g, f, L_IDX, "idx", 1, 1);
	add_loc(g, f, L_OUT, "out", f->Po, f->Fo);
	if (f->ws) {
		/*
		 * the workspace: the allocated temps live in it, so an
		 * instruction that named it would see them through it, and
		 * ConstantPropagate, which removes a dead temp's writers,
		 * does not see that
		 */
		add_loc(g, f, L_SB, "ws", 128, 1);	/* its size: below */
		f->loc[3].hidden = true;
	}
	p = rr(g, 1, 128);
	add_loc(g, f, L_SB, "t", p, rr(g, 1, FMAX));
	f->diamond = coin(g, 1, 3) && !(g->flags & BIR_GEN_F_LOWERABLE);
	gen_body(g, rr(g, 3, 8), false);
	gen_store(g, 2);
	if (f->ws)
		f->loc[3].F = (uint32_t)((f->sbtop + 3) / 4) + 1;
	g->cur_fn = save_fn;
	g->cur_blk = save_blk;
}

/* an NKIKernel call site; the workspace first of the outputs (the call's
 * SB base) */
static void gen_nki(struct bir_gen *g)
{
	struct item *i;
	struct sbuf b = { 0 };
	struct region a, ix, o, w = { 0 };
	const struct fnst *k;
	uint32_t src;

	if (!g->kernel)
		gen_kernel(g);
	k = &g->fn[1];
	i = new_item(g, BG_NKI);
	if (!i)
		return;
	g->f32_only = true;	/* the kernel's parameters are float32 */
	a = src_shape(g, k->Pa, k->Fa);
	a.ps = a.fs = 1;
	a.p = k->Pa;
	a.f = k->Fa;
	a.off = rn(g, F(g)->loc[a.loc].F - k->Fa + 1);
	ix = (struct region){ .loc = idx_loc(g), .ps = 1, .p = 1, .fs = 1, .f = 1 };
	o = dst_shape(g, k->Po, k->Fo);
	g->f32_only = false;
	o.ps = o.fs = 1;
	o.off = rn(g, F(g)->loc[o.loc].F - k->Fo + 1);
	if (k->ws) {
		char nm[16];

		snprintf(nm, sizeof(nm), "w%u", F(g)->ntmp++);
		w.loc = add_loc(g, F(g), L_SBA, nm, 128, k->loc[3].F);
		F(g)->loc[w.loc].hidden = true;
		w.ps = w.fs = 1;
		w.p = 128;
		w.f = k->loc[3].F;
	}
	open_inst(&b, g, "NKIKernel", i->name, true);
	sbf(&b, ", \"ins\": [");
	ap(&b, g, &a);
	sbf(&b, ", ");
	ap(&b, g, &ix);
	sbf(&b, "], \"outs\": [");
	if (k->ws) {
		ap(&b, g, &w);
		sbf(&b, ", ");
	}
	ap(&b, g, &o);
	src = rn(g, 3);
	sbf(&b, "], \"func\": \"kfn\", \"func_args\": [\"a\", \"idx\"], \"func_outs\": [%s\"out\"], \"sb_buf_shape\": [128, 1024], \"psum_buf_shape\": [0, 0], \"kernel_source_val\": %u, \"alloc_status\": %s}",
	    k->ws ? "\"ws\", " : "", src, coin(g, 1, 2) ? "true" : "false");
	rd(i, &a);
	rd(i, &ix);
	wr(i, &o);
	finish(g, i, &b);
}

static void gen_one(struct bir_gen *g, bool main_fn)
{
	static const enum bir_gen_kind any[] = { BG_COPY, BG_MEMSET, BG_ACT,
		BG_TT, BG_TS, BG_TS_AP, BG_REDUCE, BG_MATMULT, BG_TRANSPOSE,
		BG_GATHER, BG_INDIRECT, BG_LOOP, BG_ACT, BG_TT,
		/* main only from here */
		BG_NKI, BG_BIRK_ACT, BG_BIRK_RMS, BG_BIRK_LN, BG_BIRK_MLP,
		BG_BIRK_ATTN };
	enum bir_gen_kind k = any[rn(g, main_fn ? 20 : 14)];


	switch (k) {
	case BG_GATHER:
	case BG_INDIRECT:
		gen_gather(g, k);
		break;
	case BG_LOOP:
		gen_loop(g);
		break;
	case BG_NKI:
		gen_nki(g);
		break;
	case BG_BIRK_ACT:
	case BG_BIRK_RMS:
	case BG_BIRK_LN:
	case BG_BIRK_MLP:
	case BG_BIRK_ATTN:
		gen_birk(g, k);
		break;
	default:
		gen_simple(g, k);
		break;
	}
}

/* @n items, split over the blocks of a diamond when the function has one */
static void gen_body(struct bir_gen *g, uint32_t n, bool main_fn)
{
	if (!F(g)->diamond) {
		g->cur_blk = 0;
		for (uint32_t k = 0; k < n && !g->oom; k++)
			gen_one(g, main_fn);
		return;
	}
	for (int blk = 0; blk < 4 && !g->oom; blk++) {
		g->cur_blk = blk;
		for (uint32_t k = 0; k < (n + 3) / 4 && !g->oom; k++)
			gen_one(g, main_fn);
		if (blk == 0)
			gen_branch(g);
		if (blk == 1)
			gen_jump(g);
	}
	g->cur_blk = 3;
}

struct bir_gen *bir_gen_new(uint64_t seed)
{
	return bir_gen_new_flags(seed, 0);
}

struct bir_gen *bir_gen_new_flags(uint64_t seed, unsigned int flags)
{
	struct bir_gen *g = calloc(1, sizeof(*g));
	struct fnst *f;
	uint32_t nout, p;

	if (!g)
		return NULL;
	g->seed = seed;
	g->flags = flags;
	g->rng = seed * 0x9e3779b97f4a7c15ULL + 0x2545f4914f6cdd1dULL;
	if (!g->rng)
		g->rng = TL_RNG_SEED;
	g->sbaddr = SBA_BASE;
	g->enable_bir_kernel = coin(g, 1, 2);
	f = &g->fn[0];
	add_loc(g, f, L_IN, "in0", rr(g, 1, 128), FMAX);
	p = rr(g, 1, 128);
	add_loc(g, f, L_IN, "in1", p, rr(g, 4, FMAX));
	add_loc(g, f, L_IDX, "idx", 1, 1);
	nout = rr(g, 1, 2);
	for (uint32_t k = 0; k < nout; k++) {
		char nm[16];

		snprintf(nm, sizeof(nm), "out%u", k);
		p = rr(g, 1, 128);
		add_loc(g, f, L_OUT, nm, p, rr(g, 1, FMAX));
	}
	/*
	 * lowerable: an input or output of 16 bits now and then (the engines
	 * and the interpreter cast on the way in and out, with one cast code)
	 */
	for (uint32_t k = 0; (g->flags & BIR_GEN_F_LOWERABLE) && k < f->nloc; k++)
		if ((f->loc[k].type == L_IN || f->loc[k].type == L_OUT) &&
		    coin(g, 1, 3))
			f->loc[k].dt = coin(g, 1, 2) ? KBIN_DMA_DTYPE_BFLOAT16 :
				       KBIN_DMA_DTYPE_FLOAT16;
	for (uint32_t k = rr(g, 1, 4); k > 0; k--) {
		p = rr(g, 1, 128);
		new_tmp(g, p, rr(g, 1, FMAX));
	}
	f->diamond = coin(g, 1, 3);
	gen_body(g, rr(g, 6, 18), true);
	for (uint32_t k = 0; k < nout; k++)
		gen_store(g, 3 + k);
	if (g->oom) {
		bir_gen_free(g);
		return NULL;
	}
	return g;
}

void bir_gen_free(struct bir_gen *g)
{
	if (!g)
		return;
	for (uint32_t k = 0; k < g->nit; k++)
		free(g->it[k].text);
	free(g->it);
	free(g);
}

uint64_t bir_gen_seed(const struct bir_gen *g)
{
	return g->seed;
}

uint32_t bir_gen_nitems(const struct bir_gen *g)
{
	return g->nit;
}

uint32_t bir_gen_nkept(const struct bir_gen *g)
{
	uint32_t n = 0;

	for (uint32_t k = 0; k < g->nit; k++)
		n += !g->it[k].dropped;
	return n;
}

void bir_gen_set_dropped(struct bir_gen *g, uint32_t k, bool dropped)
{
	if (k < g->nit)
		g->it[k].dropped = dropped;
}

uint32_t bir_gen_kinds(const struct bir_gen *g)
{
	uint32_t m = 0;

	for (uint32_t k = 0; k < g->nit; k++)
		if (!g->it[k].dropped)
			m |= 1U << g->it[k].kind;
	return m;
}

void bir_gen_opts(const struct bir_gen *g, struct bir_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->enable_bir_kernel = g->enable_bir_kernel;
}

/* ---- rendering ----------------------------------------------------------- */

static const char *const type_names[] = { [L_IN] = "Input", [L_OUT] = "Output",
	[L_DRAM] = "DRAM", [L_SB] = "SB", [L_SBA] = "SB", [L_PSUM] = "PSUM",
	[L_IDX] = "Input" };

/*
 * ConstantPropagate removes the kernel's dead results and their writers
 * (repeatedly), and InlineNKIKernel refuses a dep on a removed one
 * (a documented refusal, not a well-formed module): of the kept kernel
 * items, a dep may name only one whose every written location stays
 * live (a parameter, or read by a live item), and no Memset (a copy of a
 * zero Memset becomes a Memset, which may leave the first one dead).
 * Computed on the kept items, so a shrunk module stays well formed.
 * @ok gets, per item, whether a kernel dep may name it.
 */
static int kernel_dep_ok(const struct bir_gen *g, bool *ok)
{
	const struct fnst *f = &g->fn[1];
	uint32_t nparam = f->ws ? 4 : 3;
	bool *dead = calloc(g->nit + 1, sizeof(*dead)), changed = true;
	bool read[MAXL];

	if (!dead)
		return -ENOMEM;
	while (changed) {
		changed = false;
		memset(read, 0, sizeof(read));
		for (uint32_t k = 0; k < nparam; k++)
			read[k] = true;
		for (uint32_t k = 0; k < g->nit; k++) {
			const struct item *i = &g->it[k];

			for (uint32_t r = 0; i->fn && !i->dropped && !dead[k] &&
			     r < i->nrd; r++)
				read[i->rd[r]] = true;
		}
		for (uint32_t k = 0; k < g->nit; k++) {
			const struct item *i = &g->it[k];
			bool live = !i->nwr;

			for (uint32_t w = 0; w < i->nwr; w++)
				live |= read[i->wr[w]];
			if (i->fn && !i->dropped && !dead[k] && !live)
				changed = dead[k] = true;
		}
	}
	for (uint32_t k = 0; k < g->nit; k++) {
		const struct item *i = &g->it[k];

		ok[k] = !i->dropped && !dead[k] && i->kind != BG_MEMSET;
		for (uint32_t w = 0; w < i->nwr; w++)
			ok[k] &= read[i->wr[w]];
	}
	free(dead);
	return 0;
}

static void render_fn(struct sbuf *b, const struct bir_gen *g, int fn)
{
	static const char *const blocks[] = { "b0", "bt", "bf", "bj" };
	const struct fnst *f = &g->fn[fn];

	bool *ok = calloc(g->nit + 1, sizeof(*ok));

	if (!ok || (fn && kernel_dep_ok(g, ok))) {
		free(ok);
		b->oom = true;
		return;
	}
	sbf(b, "{\"name\": \"%s\", \"attributes\": {}, \"allocations\": [",
	    fn ? "kfn" : "main");
	for (uint32_t k = 0; k < f->nloc; k++) {
		const struct loc *l = &f->loc[k];

		sbf(b, "%s\n{\"Skind\": \"memory_location_set\", \"name\": \"%s\", \"dtype\": \"%s\", \"tensor_shape\": [%u, %u], \"memorylocations\": [{\"name\": \"%s\", \"type\": \"%s\", \"addr\": %llu, \"dims\": [%u, %u], \"bank\": 0, \"base\": 0, \"allocated\": %s, \"pinned\": false, \"tensor_id\": 0}]}",
		    k ? "," : "", l->name, kbin_dma_dtype_str(l->dt), l->P,
		    l->F, l->name, type_names[l->type],
		    (unsigned long long)l->addr, l->P,
		    l->F * kbin_dma_dtype(l->dt)->size,
		    l->type == L_SBA ? "true" : "false");
	}
	sbf(b, "], \"registers\": [{\"name\": \"%s\"}, {\"name\": \"%s\"}], \"blocks\": [",
	    fn ? "kr0" : "r0", fn ? "kr1" : "r1");
	for (int blk = 0; blk < (f->diamond ? 4 : 1); blk++) {
		bool first = true;

		sbf(b, "%s\n{\"name\": \"%s\", \"instructions\": [", blk ? "," : "",
		    blocks[blk]);
		for (uint32_t k = 0; k < g->nit; k++) {
			const struct item *i = &g->it[k];

			if (i->dropped || i->fn != fn || i->blk != blk)
				continue;
			sbf(b, "%s\n", first ? "" : ",");
			first = false;
			for (const char *p = i->text; *p; p++) {
				bool any = false;

				if (*p != '\x01') {
					sbf(b, "%c", *p);
					continue;
				}
				for (uint32_t d = 0; d < i->ndep; d++) {
					const struct item *e = &g->it[i->dep[d]];

					if (e->dropped || (fn && !ok[i->dep[d]]))
						continue;
					sbf(b, "%s\"%s\"", any ? ", " : ", \"deps\": [",
					    e->name);
					any = true;
				}
				if (any)
					sbf(b, "]");
			}
		}
		sbf(b, "]}");
	}
	sbf(b, "]}");
	free(ok);
}

char *bir_gen_json(const struct bir_gen *g)
{
	struct sbuf b = { 0 };
	bool callee = false;

	for (uint32_t k = 0; k < g->nit; k++)
		callee |= g->it[k].kind == BG_NKI && !g->it[k].dropped;
	sbf(&b, "{\"version\": 2, \"arch\": \"trn2\", \"attributes\": {\"source\": \"bir_gen seed %llu\"}, \"functions\": [\n",
	    (unsigned long long)g->seed);
	render_fn(&b, g, 0);
	if (callee) {
		sbf(&b, ",\n");
		render_fn(&b, g, 1);
	}
	sbf(&b, "]}\n");
	if (b.oom) {
		free(b.s);
		return NULL;
	}
	return b.s;
}

/* ---- the check ------------------------------------------------------------- */

static int interp_run(void *ctx, const struct bir_module *m,
		      struct bir_gen_io *io, struct nscc_err *err)
{
	struct bir_interp *it = bir_interp_new(m, err);
	int rc = it ? 0 : -ENOMEM;

	(void)ctx;
	for (uint32_t k = 0; !rc && k < io->n; k++)
		if (!io->t[k].output)
			rc = bir_interp_set(it, io->t[k].name, io->t[k].v,
					    io->t[k].n, err);
	if (!rc)
		rc = bir_interp_run(it, err);
	for (uint32_t k = 0; !rc && k < io->n; k++)
		if (io->t[k].output)
			rc = bir_interp_get(it, io->t[k].name, io->t[k].v,
					    io->t[k].n, err);
	bir_interp_free(it);
	return rc;
}

const struct bir_gen_oracle bir_gen_oracle_interp = { "interp", interp_run,
						      NULL };

static const struct bir_memloc *loc_named(const struct bir_function *f,
					  const char *name)
{
	for (uint32_t k = 0; k < f->nsets; k++)
		if (f->sets[k]->nlocs && !strcmp(f->sets[k]->locs[0]->name, name))
			return f->sets[k]->locs[0];
	return NULL;
}

/* the element type of location @ml: its set's, float32 by default */
static uint32_t loc_dtype(const struct bir_memloc *ml)
{
	const struct bir_dtype *d = &ml->set->dtype;

	return d->name ? d->id : KBIN_DMA_DTYPE_FLOAT32;
}

/* @n float32 values to (@in) or from var @ml's bytes in @img, cast */
static int io_image(struct dma_ref_mem *img, const struct bir_function *f,
		    const struct bir_memloc *ml, float *v, uint64_t n, bool in)
{
	uint32_t dt = loc_dtype(ml), sz = kbin_dma_dtype(dt)->size;
	uint64_t pa = prog_ref_flat_dram(bir_lower_var_id(f, ml));
	uint8_t *raw = malloc(n * sz + 1);
	int rc = 0;

	if (!raw)
		return -ENOMEM;
	if (in) {
		kbin_cast(KBIN_DMA_DTYPE_FLOAT32, dt, v, raw, n);
		rc = dma_ref_mem_write(img, pa, raw, n * sz);
	} else {
		dma_ref_mem_read(img, pa, raw, n * sz);
		kbin_cast(dt, KBIN_DMA_DTYPE_FLOAT32, raw, v, n);
	}
	free(raw);
	return rc;
}

static int prog_run(void *ctx, const struct bir_module *m,
		    struct bir_gen_io *io, struct nscc_err *err)
{
	const struct bir_function *f = m->fns[0];
	struct nscc_err why = { { 0 } };
	struct kbin_check_result res;
	struct prog_ref_stats st;
	struct dma_ref_mem *img = NULL;
	struct kbin_view v;
	void *buf = NULL;
	size_t len = 0;
	int rc;

	(void)ctx;
	rc = nscc_bir_compile_module(m, &buf, &len, &why, err);
	if (!rc && why.msg[0]) {
		snprintf(err->msg, sizeof(err->msg), "%s", why.msg);
		rc = -EINVAL;
	}
	if (!rc && (kbin_read(buf, len, &v, &res) || !v.prog)) {
		snprintf(err->msg, sizeof(err->msg), "kbin_read: the plan %s",
			 v.prog ? "does not read back" : "has no program");
		rc = -EINVAL;
	}
	if (!rc && !(img = dma_ref_mem_new()))
		rc = -ENOMEM;
	for (uint32_t k = 0; !rc && k < io->n; k++) {
		const struct bir_memloc *ml = loc_named(f, io->t[k].name);

		if (!ml) {
			snprintf(err->msg, sizeof(err->msg), "no location '%s'",
				 io->t[k].name);
			rc = -EINVAL;
		} else if (!io->t[k].output) {
			rc = io_image(img, f, ml, io->t[k].v, io->t[k].n, true);
		}
	}
	if (!rc) {
		rc = prog_ref_run(&v, img, prog_ref_flat_addr,
				  (void *)kbin_gen_target(v.hdr->target_gen), &st);
		if (rc || !st.finished) {
			snprintf(err->msg, sizeof(err->msg),
				 "prog_ref_run: %d, finished %d (sg %u engine %u index %u)",
				 rc, st.finished, st.fail_sg, st.fail_engine,
				 st.fail_index);
			rc = rc ? rc : -EINVAL;
		}
	}
	for (uint32_t k = 0; !rc && k < io->n; k++) {
		struct bir_gen_tensor *t = &io->t[k];

		if (!t->output)
			continue;
		rc = io_image(img, f, loc_named(f, t->name), t->v, t->n, false);
		bir_tol_output(m, t->name, &t->tol);
	}
	dma_ref_mem_free(img);
	free(buf);
	return rc;
}

const struct bir_gen_oracle bir_gen_oracle_prog = { "prog_ref", prog_run,
						    NULL };

static void io_free(struct bir_gen_io *io)
{
	for (uint32_t k = 0; io->t && k < io->n; k++)
		free(io->t[k].v);
	free(io->t);
	io->t = NULL;
	io->n = 0;
}

/* the Input and Output tensors of @m's entry, inputs random from @seed */
static int io_make(const struct bir_module *m, uint64_t seed,
		   struct bir_gen_io *io)
{
	const struct bir_function *f = m->fns[0];
	uint64_t s = seed ^ 0x5bd1e9955bd1e995ULL;

	if (!s)
		s = TL_RNG_SEED;
	io->n = 0;
	io->t = calloc(f->nsets + 1, sizeof(*io->t));
	if (!io->t)
		return -ENOMEM;
	for (uint32_t k = 0; k < f->nsets; k++) {
		const struct bir_memloc *ml = f->sets[k]->locs[0];
		struct bir_gen_tensor *t = &io->t[io->n];

		if (ml->type != BIR_MEM_INPUT && ml->type != BIR_MEM_OUTPUT)
			continue;
		t->name = ml->name;
		t->output = ml->type == BIR_MEM_OUTPUT;
		t->tol.exact = true;
		t->tol.why = "byte-identical";
		t->n = ml->dims[0] *
		       (ml->dims[1] / kbin_dma_dtype(loc_dtype(ml))->size);
		t->v = calloc(t->n + 1, sizeof(float));
		if (!t->v)
			return -ENOMEM;
		io->n++;
		for (uint64_t e = 0; !t->output && e < t->n; e++) {
			uint64_t r = tl_rng(&s);

			t->v[e] = !strcmp(ml->name, "idx") ?
				  (float)(r % (IDX_MAX + 1)) :
				  (float)((double)(r >> 11) / (double)(1ULL << 53) * 2.0 - 1.0);
		}
	}
	return 0;
}

static int stop(struct bir_gen_result *res, enum bir_gen_stage st,
		const char *what, const char *msg)
{
	res->stage = st;
	snprintf(res->msg, sizeof(res->msg), "%s: %s", what, msg);
	return st;
}

int bir_gen_check(const struct bir_gen *g, const struct bir_gen_oracle *oracle,
		  struct bir_gen_result *res)
{
	struct bir_opts o;
	char *text = bir_gen_json(g);
	int st;

	if (!text) {
		memset(res, 0, sizeof(*res));
		return stop(res, BG_READER, "generator", "out of memory");
	}
	bir_gen_opts(g, &o);
	st = bir_gen_check_text(text, g->seed, &o, oracle, res);
	free(text);
	return st;
}

int bir_gen_check_text(const char *text, uint64_t seed,
		       const struct bir_opts *o,
		       const struct bir_gen_oracle *oracle,
		       struct bir_gen_result *res)
{
	struct nscc_err err = { { 0 } };
	struct bir_module *before = NULL, *after = NULL;
	struct bir_gen_io ref = { 0 }, dut = { 0 };
	int rc;

	memset(res, 0, sizeof(*res));
	if (!oracle)
		oracle = &bir_gen_oracle_interp;
	rc = bir_module_from_string(text, strlen(text), &before, &err);
	if (!rc)
		rc = bir_module_from_string(text, strlen(text), &after, &err);
	if (rc) {
		stop(res, BG_READER, "reader", err.msg);
		goto out;
	}
	if (bir_run_passes(after, o, &err)) {
		stop(res, BG_PASSES, "passes", err.msg);
		goto out;
	}
	if (io_make(before, seed, &ref) || io_make(before, seed, &dut)) {
		stop(res, BG_REFERENCE, "io", "out of memory");
		goto out;
	}
	if (interp_run(NULL, before, &ref, &err)) {
		stop(res, BG_REFERENCE, "reference", err.msg);
		goto out;
	}
	if (oracle->run(oracle->ctx, after, &dut, &err)) {
		stop(res, BG_ORACLE, oracle->name, err.msg);
		goto out;
	}
	for (uint32_t k = 0; k < ref.n; k++) {
		uint64_t e = 0;

		if (!ref.t[k].output ||
		    !bir_tol_cmp(&dut.t[k].tol, dut.t[k].v, ref.t[k].v,
				 ref.t[k].n, &res->worst, &e))
			continue;
		if (!res->ndiff++)
			snprintf(res->msg, sizeof(res->msg),
				 "output '%s' element %llu: reference %a, %s %a (%s)",
				 ref.t[k].name, (unsigned long long)e,
				 (double)ref.t[k].v[e], oracle->name,
				 (double)dut.t[k].v[e], dut.t[k].tol.why);
		res->stage = BG_DIFFER;
	}
out:
	io_free(&ref);
	io_free(&dut);
	bir_module_free(before);
	bir_module_free(after);
	return res->stage;
}

uint32_t bir_gen_shrink(struct bir_gen *g, const struct bir_gen_oracle *oracle,
			enum bir_gen_stage stage)
{
	struct bir_gen_result r;
	bool changed = true;

	while (changed) {
		changed = false;
		for (uint32_t k = g->nit; k-- > 0;) {
			if (g->it[k].dropped)
				continue;
			g->it[k].dropped = true;
			if (bir_gen_check(g, oracle, &r) == (int)stage)
				changed = true;
			else
				g->it[k].dropped = false;
		}
	}
	return bir_gen_nkept(g);
}

const char *bir_gen_stage_name(enum bir_gen_stage s)
{
	static const char *const n[] = { "ok", "reader", "passes", "reference",
		"oracle", "differ" };

	return s <= BG_DIFFER ? n[s] : "?";
}
