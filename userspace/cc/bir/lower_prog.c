// SPDX-License-Identifier: GPL-2.0
/* requires: bir_lower_model() ran on the model; guarantees: a program that passes the plan checker, or the model untouched */
/*
 * lower_prog.c - the final module's straight-line code -> the engine
 * program of its plan: the five streams of neuronsim's compute encoding
 * (struct kbin_compute_record), with the 0xC1 triggers of the DMA blocks
 * and the 0xA0 waits their order needs (Documentation/compiler-passes.rst,
 * "Lowering to engine programs").
 *
 * Each BIR instruction becomes actions in program order: a compute
 * instruction on one engine, or a DMA block on one queue (its trigger on
 * the queue's owner).  Operands in DRAM are staged through SBUF by
 * blocks of two staging queues owned by SP; MatMult and Transpose write
 * a PSUM tile that a COPY moves to their destination.  An action waits
 * for the latest earlier action of every other engine or queue it
 * depends on: the BIR deps, and every read-after-write, write-after-read
 * and write-after-write on overlapping bytes.  Engine e counts its
 * completed compute instructions on semaphore (queues + e - 1); a queue
 * counts its blocks on its own semaphore.
 *
 * Everything is decided before the model is touched: a refusal leaves
 * the model as bir_lower_model() made it (a plan without a program).
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "bir.h"
#include "kbin_compute.h"
#include "kbin_dma.h"
#include "kbin_gen.h"
#include "kbin_num.h"
#include "kbin_prog.h"
#include "kbin_writer.h"

#define LP_STAGE_ALIGN	64U
#define LP_SP_LOAD	"qSPIO1"	/* staging loads */
#define LP_SP_STORE	"qSPIO2"	/* staging stores */

enum { SPC_SBUF = KBIN_SPACE_SBUF, SPC_PSUM = KBIN_SPACE_PSUM, SPC_DRAM = 3 };

/* bytes one action reads or writes */
struct lp_reg {
	uint8_t space;		/* SPC_* */
	uint8_t write;
	uint32_t p0, p1;	/* partitions [p0, p1) */
	uint64_t b0, b1;	/* bytes [b0, b1) of each; DRAM: the var */
	uint32_t var;
};

#define LP_MAX_REGS	6
#define LP_MAX_AXES	8
/* instructions all Loops of a function may unroll to */
#define LP_MAX_UNROLL	16384U

/*
 * The condition under which a block runs: never (unreachable), always,
 * or while one condition register is non-zero (pol 1) or zero (pol 0);
 * LP_COMPLEX for anything else (a branch inside a branch's arm).
 */
enum { LP_NEVER, LP_ALWAYS, LP_LIT, LP_COMPLEX };

struct lp_pred {
	uint8_t kind;
	uint8_t reg;
	uint8_t pol;
};

/* one action: a compute instruction or a DMA block */
struct lp_act {
	int block;		/* a DMA block, else a compute instruction */
	uint32_t engine;	/* the stream it (its trigger) goes on */
	int unit;		/* engine 1..5, or 8 + queue index */
	uint32_t seq;		/* its index among the unit's actions */
	uint32_t inst;		/* the BIR instruction's index */
	uint8_t rec[KBIN_PROG_RECORD_SIZE];	/* compute: the record */
	/* block: its queue index (model), descriptors (owned), id */
	uint32_t queue, ndescs, id;
	struct kbin_dma_desc *descs;
	int fresh;		/* a staging block the model lacks */
	const char *comment;
	struct lp_reg r[LP_MAX_REGS];
	uint32_t nr;
};

struct lp {
	const struct bir_function *f;
	const struct kbin_gen *g;
	struct nscc_model *model;
	int sg;
	struct nscc_err *why;
	struct lp_act *a;
	uint32_t na, cap;
	/* units: engines 1..5 and queues from 8 on */
	uint32_t nq;		/* queues of the model, then the two staging */
	uint32_t qload, qstore;
	uint32_t useq[8 + 64];	/* actions per unit so far */
	uint32_t *qnext;	/* per model queue, its next DMA TensorCopy id */
	/* model blocks of DMA TensorCopies under a branch or in a Loop
	 * body: made compute; the instructions they were made for */
	uint32_t *drop;
	const struct bir_inst **drop_inst;
	uint32_t ndrop;
	/* unrolling: the Loop axes and their values, the original
	 * instruction of a folded copy, instructions unrolled so far */
	const char *axn[LP_MAX_AXES];
	int64_t axv[LP_MAX_AXES];
	uint32_t nax;
	const struct bir_inst *orig;
	uint32_t unrolled;
	/* the staging areas */
	uint64_t st_lo, st_hi, st_cur;
	uint32_t psum_next;
	/* the BIR instructions in program order; each one's actions end */
	const struct bir_inst **insts;
	uint32_t ninsts, capinsts;
	const struct bir_inst *cur;
	/* control flow: each block's predicate, the current one's byte */
	struct lp_pred *bp;
	uint8_t pred;
	uint32_t engines;	/* mask of the engines that compute */
	/* the engines' registers: BIR registers, then branch conditions */
	const char *rname[KBIN_COMPUTE_REGS];
	uint32_t nregs;
};

__attribute__((format(printf, 2, 3)))
static int refuse(struct lp *l, const char *fmt, ...)
{
	char what[320];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(l->why->msg, sizeof(l->why->msg),
		 "lowering: instruction '%.96s' (%.32s) cannot be lowered to an engine program: %.250s",
		 l->cur ? l->cur->name : "?", l->cur ? l->cur->opname : "?",
		 what);
	return 1;
}

static struct lp_act *lp_new(struct lp *l)
{
	struct lp_act *a;

	if (l->na == l->cap) {
		uint32_t cap = l->cap ? 2 * l->cap : 64;

		a = realloc(l->a, cap * sizeof(*a));
		if (!a)
			return NULL;
		l->a = a;
		l->cap = cap;
	}
	a = &l->a[l->na];
	memset(a, 0, sizeof(*a));
	return a;
}

static void lp_reg_add(struct lp_act *a, struct lp_reg r)
{
	if (a->nr < LP_MAX_REGS)
		a->r[a->nr++] = r;
}

static int lp_overlap(const struct lp_reg *x, const struct lp_reg *y)
{
	if (x->space != y->space || (!x->write && !y->write))
		return 0;
	if (x->space == SPC_DRAM)
		return x->var == y->var;
	return x->p0 < y->p1 && y->p0 < x->p1 && x->b0 < y->b1 && y->b0 < x->b1;
}

/* the bytes of a compute operand */
static struct lp_reg lp_ap_reg(const struct kbin_compute_ap *ap, int write)
{
	uint32_t sz = kbin_dma_dtype(ap->dtype)->size;
	long long lo = 0, hi = 0, d;
	struct lp_reg r = { .space = ap->space, .write = (uint8_t)write,
			    .p0 = ap->partition,
			    .p1 = (uint32_t)ap->partition + ap->partitions };

	for (int k = 0; k < 2; k++) {
		d = (long long)(ap->num[k] - 1) * ap->step[k];
		if (d < 0)
			lo += d;
		else
			hi += d;
	}
	r.b0 = (uint64_t)((long long)ap->offset + lo * sz);
	r.b1 = (uint64_t)((long long)ap->offset + (hi + 1) * sz);
	return r;
}

/*
 * The bytes of one side of a descriptor: a DRAM var as a whole; an SBUF
 * side (var 0) by the partitions its partition dimensions (steps that
 * are whole partition strides) reach and the bytes its other dimensions
 * reach in each.
 */
static struct lp_reg lp_side_reg(const struct kbin_gen *g,
				 const struct kbin_dma_side *s, int write)
{
	struct lp_reg r = { .space = SPC_DRAM, .write = (uint8_t)write,
			    .var = s->var_id };
	uint64_t stride = g->sbuf_partition_stride, pext = 0, bext = 1;

	if (s->var_id)
		return r;
	for (uint32_t i = 0; i < s->num_dims; i++) {
		uint64_t d = (uint64_t)(s->sizes[i] - 1) * s->steps[i];

		if (i && s->steps[i] % stride == 0)
			pext += d / stride;
		else
			bext += d;
	}
	r.space = SPC_SBUF;
	r.p0 = (uint32_t)(s->offset / stride);
	r.p1 = r.p0 + (uint32_t)pext + 1;
	r.b0 = s->offset % stride;
	r.b1 = r.b0 + bext;
	if (r.b1 > stride) {
		/* a run across partitions: every byte of each */
		r.p1 = (uint32_t)((s->offset + pext * stride + bext - 1) / stride) + 1;
		r.b0 = 0;
		r.b1 = stride;
	}
	return r;
}

/* append action @a (lp_new()'s), numbered on its unit */
static void lp_push(struct lp *l, struct lp_act *a)
{
	a->inst = l->ninsts - 1;
	a->seq = l->useq[a->unit]++;
	l->na++;
}

/* ---- operands ---- */

static int lp_dtype(struct lp *l, const struct bir_operand *o, uint8_t *dt)
{
	const struct bir_dtype *d = bir_operand_dtype(o, o->ml);

	if (!kbin_compute_dtype_ok(d->id))
		return refuse(l, "operand '%s': dtype '%s' is not one the engines compute in",
			      o->name ? o->name : "", d->name ? d->name : "(none)");
	*dt = (uint8_t)d->id;
	return 0;
}

static int is_dram(const struct bir_memloc *ml)
{
	return ml->type == BIR_MEM_INPUT || ml->type == BIR_MEM_OUTPUT ||
	       ml->type == BIR_MEM_DRAM;
}

/*
 * The free dimensions of @o (pairs 1..), merged where contiguous, as
 * kbin_compute_ap's two; *@elems their product.
 */
static int lp_free(struct lp *l, const struct bir_operand *o,
		   struct kbin_compute_ap *ap, uint64_t *elems)
{
	int64_t st[8], nm[8];
	uint32_t n = 0;

	*elems = 1;
	for (uint32_t k = 1; k < o->nap; k++) {
		if (o->ap[k].num <= 0)
			return refuse(l, "operand '%s': access pattern pair %u has num %lld",
				      o->name, k, (long long)o->ap[k].num);
		*elems *= (uint64_t)o->ap[k].num;
		if (o->ap[k].num == 1)
			continue;
		if (n && st[n - 1] == o->ap[k].step * o->ap[k].num) {
			st[n - 1] = o->ap[k].step;
			nm[n - 1] *= o->ap[k].num;
			continue;
		}
		if (n == 8)
			break;
		st[n] = o->ap[k].step;
		nm[n++] = o->ap[k].num;
	}
	if (n > 2)
		return refuse(l, "operand '%s': %u free dimensions after merging the contiguous ones (an engine instruction takes 2)",
			      o->name, n);
	ap->num[0] = ap->num[1] = 1;
	ap->step[0] = ap->step[1] = 0;
	for (uint32_t k = 0; k < n; k++) {
		uint32_t d = 2 - n + k;

		if (nm[k] > UINT16_MAX || st[k] < INT16_MIN || st[k] > INT16_MAX)
			return refuse(l, "operand '%s': free dimension [%lld, %lld] does not fit an engine access pattern (num <= 65535, |step| <= 32767)",
				      o->name, (long long)st[k], (long long)nm[k]);
		ap->num[d] = (uint16_t)nm[k];
		ap->step[d] = (int16_t)st[k];
	}
	return 0;
}

/*
 * The SBUF staging area: the largest gap (64-byte aligned) of the
 * partition bytes that no SB location (allocated or a carve-out) covers
 * in any partition; staging tiles take it as a ring.
 */
static void lp_stage_area(struct lp *l)
{
	uint64_t size = l->g->sbuf_partition_size, pos = 0, best = 0;

	l->st_lo = l->st_hi = 0;
	while (pos < size) {
		uint64_t next = size, end = pos;
		int moved = 0;

		for (uint32_t s = 0; s < l->f->nsets; s++)
			for (uint32_t k = 0; k < l->f->sets[s]->nlocs; k++) {
				const struct bir_memloc *ml = l->f->sets[s]->locs[k];

				if (ml->type != BIR_MEM_SB || !ml->dims[1])
					continue;
				if (ml->addr <= pos && ml->addr + ml->dims[1] > end) {
					end = ml->addr + ml->dims[1];
					moved = 1;
				} else if (ml->addr > pos && ml->addr < next) {
					next = ml->addr;
				}
			}
		if (moved) {
			/* inside a location: skip past it */
			pos = (end + LP_STAGE_ALIGN - 1) / LP_STAGE_ALIGN * LP_STAGE_ALIGN;
			continue;
		}
		if (next - pos > best) {
			best = next - pos;
			l->st_lo = pos;
			l->st_hi = next;
		}
		pos = next;
	}
	l->st_cur = l->st_lo;
}

/*
 * The lowest 8-byte aligned offset of PSUM bank @bank where @bytes per
 * partition of partitions 0 .. @parts - 1 touch no PSUM location of the
 * function (placed ones; their granules are 8 bytes); -1 when the bank
 * has no such room.
 */
static long long lp_psum_gap(const struct lp *l, uint32_t bank, uint32_t parts,
			     uint64_t bytes)
{
	uint64_t lo = (uint64_t)bank * KBIN_PSUM_BANK_SIZE;
	uint64_t off = lo, hi = lo + KBIN_PSUM_BANK_SIZE;
	int moved = 1;

	while (moved && off + bytes <= hi) {
		moved = 0;
		for (uint32_t s = 0; s < l->f->nsets && !moved; s++)
			for (uint32_t k = 0; k < l->f->sets[s]->nlocs && !moved; k++) {
				const struct bir_memloc *ml = l->f->sets[s]->locs[k];
				uint64_t end = ml->addr + ml->dims[1];

				if (ml->type != BIR_MEM_PSUM || ml->base >= parts ||
				    ml->addr >= off + bytes || end <= off)
					continue;
				off = (end + 7) & ~7ULL;	/* past it */
				moved = 1;
			}
	}
	return off + bytes <= hi ? (long long)off : -1;
}

/* a staging tile of @parts partitions x @bytes in SBUF */
static int lp_stage(struct lp *l, uint32_t parts, uint64_t bytes,
		    uint32_t *off)
{
	uint64_t n = (bytes + LP_STAGE_ALIGN - 1) / LP_STAGE_ALIGN * LP_STAGE_ALIGN;

	if (parts > l->g->sbuf_partitions)
		return refuse(l, "a DRAM operand of %u partitions does not fit SBUF's %u",
			      parts, l->g->sbuf_partitions);
	if (n > l->st_hi - l->st_lo)
		return refuse(l, "its SBUF staging needs %llu bytes per partition; the largest gap outside every SB location is %llu",
			      (unsigned long long)n,
			      (unsigned long long)(l->st_hi - l->st_lo));
	if (l->st_cur + n > l->st_hi)
		l->st_cur = l->st_lo;
	*off = (uint32_t)l->st_cur;
	l->st_cur += n;
	return 0;
}

/* a staging operand: partitions 0.., @elems contiguous elements each */
static void lp_stage_ap(struct kbin_compute_ap *ap, uint32_t off,
			uint32_t parts, uint64_t elems, uint8_t dt)
{
	memset(ap, 0, sizeof(*ap));
	ap->offset = off;
	ap->space = KBIN_SPACE_SBUF;
	ap->dtype = dt;
	ap->partitions = (uint8_t)parts;
	ap->num[0] = 1;
	ap->num[1] = (uint16_t)elems;
	ap->step[1] = 1;
}

/* the DMA block between @o (DRAM) and the staging tile @st, on @queue */
static int lp_stage_block(struct lp *l, const struct bir_operand *o,
			  const struct kbin_compute_ap *st, int load)
{
	struct kbin_memloc_fake {
		struct bir_memloc ml;
		struct bir_memloc_set set;
	} fk;
	struct bir_operand so = { .kind = BIR_OPND_AP, .name = "(staging)" };
	struct bir_ap_pair sap[2];
	struct bir_operand dop = *o;
	struct bir_ap_pair dap[KBIN_DMA_MAX_DIMS];
	struct dma_at at = { .i = l->cur, .opnd = load ? "ins" : "outs",
			     .o = o, .err = l->why };
	uint32_t parts = st->partitions, n = 1, mt;
	struct lp_act *a;
	struct kbin_dma_desc *d;
	int broadcast = o->ap[0].step == 0 && parts > 1;

	if (o->ndyn)
		return refuse(l, "operand '%s' has a run-time offset", o->name);
	if (o->nap > KBIN_DMA_MAX_DIMS)
		return refuse(l, "operand '%s' has %u access pattern pairs (a DMA side takes up to %u)",
			      o->name, o->nap, KBIN_DMA_MAX_DIMS);
	memset(&fk, 0, sizeof(fk));
	fk.ml.name = "(staging)";
	fk.ml.type = BIR_MEM_SB;
	fk.ml.addr = st->offset;
	fk.ml.dims[0] = parts;
	fk.ml.dims[1] = l->g->sbuf_partition_size;
	fk.ml.set = &fk.set;
	so.ml = &fk.ml;
	so.dtype.id = st->dtype;
	so.dtype.name = "(staging)";
	so.ap = sap;
	so.nap = 2;
	sap[0] = (struct bir_ap_pair){ 1, broadcast ? 1 : parts };
	sap[1] = (struct bir_ap_pair){ 1, st->num[1] };
	if (broadcast) {
		/* partition step 0: one descriptor per partition */
		n = parts;
		memcpy(dap, o->ap, o->nap * sizeof(*dap));
		dap[0] = (struct bir_ap_pair){ 1, 1 };
		dop.ap = dap;
	}
	a = lp_new(l);
	d = calloc(n, sizeof(*d));
	if (!a || !d) {
		free(d);
		return -ENOMEM;
	}
	a->descs = d;
	for (uint32_t k = 0; k < n; k++) {
		struct kbin_dma_side *from = load ? &d[k].from : &d[k].to;
		struct kbin_dma_side *to = load ? &d[k].to : &d[k].from;
		int rc;

		fk.ml.base = broadcast ? k : 0;
		rc = bir_lower_dma_side(l->f, l->g, &at, &dop, from, &mt);
		if (!rc)
			rc = bir_lower_dma_side(l->f, l->g, &at, &so, to, &mt);
		if (rc) {
			free(d);
			return rc == -ENOMEM ? rc : 1;
		}
		d[k].op = d[k].from.dtype == d[k].to.dtype ? KBIN_DMA_OP_COPY :
			  KBIN_DMA_OP_CAST;
	}
	/* the DRAM var and the staging tile */
	lp_reg_add(a, lp_side_reg(l->g, load ? &d[0].from : &d[0].to, !load));
	lp_reg_add(a, lp_ap_reg(st, load));
	a->block = 1;
	a->fresh = 1;
	a->ndescs = n;
	a->queue = load ? l->qload : l->qstore;
	a->engine = KBIN_DMA_ENGINE_SP;
	a->unit = 8 + (int)a->queue;
	a->comment = l->cur->name;
	lp_push(l, a);
	return 0;
}

/*
 * A compute operand from BIR operand @o: on chip when @o is in SB (its
 * partition step 1), else a staging tile, loaded by a block first when
 * @load.  *@dram says a store block must follow (an output in DRAM).
 */
static int lp_opnd(struct lp *l, const struct bir_operand *o,
		   struct kbin_compute_ap *ap, int load, int *dram)
{
	const struct bir_memloc *ml = o->ml;
	uint64_t elems, parts, off;
	uint32_t so = 0, np;
	int rc;

	*dram = 0;
	memset(ap, 0, sizeof(*ap));
	if (o->kind != BIR_OPND_AP)
		return refuse(l, "operand '%s' is not an access pattern",
			      o->name ? o->name : "");
	if (!ml)
		return refuse(l, "operand '%s' names no memory location", o->name);
	if (!o->nap || o->ap[0].num <= 0)
		return refuse(l, "operand '%s' has no partition dimension", o->name);
	if (o->ndyn)
		return refuse(l, "operand '%s' has a run-time offset", o->name);
	rc = lp_dtype(l, o, &ap->dtype);
	if (!rc)
		rc = lp_free(l, o, ap, &elems);
	if (rc)
		return rc;
	parts = (uint64_t)o->ap[0].num;
	if (is_dram(ml)) {
		if (elems * kbin_dma_dtype(ap->dtype)->size > UINT32_MAX ||
		    elems > UINT16_MAX)
			return refuse(l, "operand '%s': %llu elements per partition are too many to stage",
				      o->name, (unsigned long long)elems);
		rc = lp_stage(l, (uint32_t)parts,
			      elems * kbin_dma_dtype(ap->dtype)->size, &so);
		if (rc)
			return rc;
		lp_stage_ap(ap, so, (uint32_t)parts, elems, ap->dtype);
		*dram = 1;
		/*
		 * an output under a predicate: its old bytes first, so that
		 * the store writes them back when the compute does not run
		 */
		return load || l->pred ? lp_stage_block(l, o, ap, 1) : 0;
	}
	if (ml->type != BIR_MEM_SB && ml->type != BIR_MEM_PSUM)
		return refuse(l, "operand '%s' is in memory of type %s (SB, PSUM and DRAM are lowered)",
			      o->name, bir_mem_type_name(ml->type) ?
			      bir_mem_type_name(ml->type) : "?");
	if (ml->type == BIR_MEM_PSUM && !ml->allocated && !ml->pinned)
		return refuse(l, "PSUM location '%s' was never placed (address_rotation_psum places them)",
			      ml->name);
	if (o->ap[0].step != 1 && parts > 1)
		return refuse(l, "operand '%s' has partition step %lld (an engine instruction takes consecutive partitions)",
			      o->name, (long long)o->ap[0].step);
	off = ml->addr + (uint64_t)o->offset;
	np = ml->type == BIR_MEM_PSUM ? kbin_gen_psum_partitions(l->g) :
	     l->g->sbuf_partitions;
	if (o->offset < 0 || off > UINT32_MAX || ml->base + parts > np)
		return refuse(l, "operand '%s': offset %lld or partitions %u..%llu outside %s",
			      o->name, (long long)o->offset, ml->base,
			      (unsigned long long)(ml->base + parts),
			      ml->type == BIR_MEM_PSUM ? "PSUM" : "SBUF");
	ap->offset = (uint32_t)off;
	ap->space = ml->type == BIR_MEM_PSUM ? KBIN_SPACE_PSUM : KBIN_SPACE_SBUF;
	ap->partition = (uint8_t)ml->base;
	ap->partitions = (uint8_t)parts;
	return 0;
}

/* append compute record @r on @engine, reading/writing its operands */
static int lp_compute(struct lp *l, const struct kbin_compute_record *r,
		      uint32_t engine)
{
	struct kbin_prog_verdict v;
	char why[200];
	struct lp_act *a;

	kbin_prog_verdict_init(&v);
	v.engine = engine;
	if (kbin_compute_check((const __u8 *)r, engine, l->g, &v))
		return refuse(l, "its %s on %s breaks the compute encoding's rules: %s",
			      kbin_compute_op_str(r->opcode),
			      kbin_dma_engine_str(engine),
			      kbin_compute_why(&v, why, sizeof(why)));
	a = lp_new(l);
	if (!a)
		return -ENOMEM;
	memcpy(a->rec, r, sizeof(*r));
	a->rec[offsetof(struct kbin_compute_record, pred)] = l->pred;
	a->engine = engine;
	a->unit = (int)engine;
	if (r->opcode == KBIN_COP_COPY && (r->flags & KBIN_COMPUTE_F_DYN)) {
		/* the moved operand: every byte it may reach */
		struct lp_reg lo, hi;
		const struct kbin_compute_ap *m = r->dyn.side == KBIN_DYN_OUT ?
						  &r->out : &r->in0;
		struct kbin_compute_ap at = *m;

		at.offset = (uint32_t)((long long)m->offset +
				       (long long)r->dyn.lo * r->dyn.step);
		lo = lp_ap_reg(&at, m == &r->out);
		at.offset = (uint32_t)((long long)m->offset +
				       ((long long)r->dyn.hi - 1) * r->dyn.step);
		hi = lp_ap_reg(&at, m == &r->out);
		lo.b0 = lo.b0 < hi.b0 ? lo.b0 : hi.b0;
		lo.b1 = lo.b1 > hi.b1 ? lo.b1 : hi.b1;
		lp_reg_add(a, lo);
		lp_reg_add(a, lp_ap_reg(m == &r->out ? &r->in0 : &r->out,
					m != &r->out));
		lp_push(l, a);
		return 0;
	}
	if (r->opcode != KBIN_COP_REG_LOAD && r->opcode != KBIN_COP_REG_TEST)
		lp_reg_add(a, lp_ap_reg(&r->out, 1));
	if (r->in0.space)
		lp_reg_add(a, lp_ap_reg(&r->in0, 0));
	if ((r->opcode == KBIN_COP_TENSOR_TENSOR || r->opcode == KBIN_COP_MATMULT ||
	     (r->opcode == KBIN_COP_TENSOR_SCALAR &&
	      !(r->flags & KBIN_COMPUTE_F_IMM))) && r->in1.space)
		lp_reg_add(a, lp_ap_reg(&r->in1, 0));
	lp_push(l, a);
	return 0;
}

static void lp_rec(struct kbin_compute_record *r, unsigned int op)
{
	memset(r, 0, sizeof(*r));
	r->opcode = (uint8_t)op;
	r->words = KBIN_PROG_RECORD_SIZE / 4;
}

static uint32_t f32_bits(double d)
{
	float f = (float)d;
	uint32_t b;

	memcpy(&b, &f, 4);
	return b;
}

/* the output: straight into @out's SB bytes, or via staging + a store */
static int lp_finish_out(struct lp *l, const struct bir_operand *o,
			 const struct kbin_compute_ap *out, int dram)
{
	return dram ? lp_stage_block(l, o, out, 0) : 0;
}

/* a PSUM tile of @parts partitions x @elems float32 (one bank) */
static int lp_psum(struct lp *l, uint32_t parts, uint64_t elems,
		   struct kbin_compute_ap *ap)
{
	uint32_t np = kbin_gen_psum_partitions(l->g), k;
	long long off = -1;

	if (parts > np || elems * 4 > KBIN_PSUM_BANK_SIZE)
		return refuse(l, "its result of %u partitions x %llu float32 does not fit a PSUM bank (%u x %u)",
			      parts, (unsigned long long)elems, np,
			      KBIN_PSUM_BANK_SIZE / 4);
	/* the banks in turn; in each, the room its PSUM locations leave */
	for (k = 0; k < l->g->psum_banks && off < 0; k++)
		off = lp_psum_gap(l, l->psum_next++ % l->g->psum_banks, parts,
				  elems * 4);
	if (off < 0)
		return refuse(l, "its result of %u partitions x %llu float32 finds no room in a PSUM bank beside the function's PSUM locations",
			      parts, (unsigned long long)elems);
	memset(ap, 0, sizeof(*ap));
	ap->offset = (uint32_t)off;
	ap->space = KBIN_SPACE_PSUM;
	ap->dtype = KBIN_DMA_DTYPE_FLOAT32;
	ap->partitions = (uint8_t)parts;
	ap->num[0] = 1;
	ap->num[1] = (uint16_t)elems;
	ap->step[1] = 1;
	return 0;
}

static uint64_t ap_elems(const struct kbin_compute_ap *ap)
{
	return (uint64_t)ap->num[0] * ap->num[1];
}

/* PE reads SBUF: an operand in PSUM is copied into a staging tile first */
static int lp_pe_sbuf(struct lp *l, struct kbin_compute_ap *ap)
{
	struct kbin_compute_record r;
	uint64_t elems = ap_elems(ap);
	uint32_t off;
	int rc;

	if (ap->space != KBIN_SPACE_PSUM)
		return 0;
	rc = lp_stage(l, ap->partitions, elems * kbin_dma_dtype(ap->dtype)->size,
		      &off);
	if (rc)
		return rc;
	lp_rec(&r, KBIN_COP_COPY);
	r.in0 = *ap;
	lp_stage_ap(&r.out, off, ap->partitions, elems, ap->dtype);
	rc = lp_compute(l, &r, KBIN_DMA_ENGINE_DVE);
	if (!rc)
		*ap = r.out;
	return rc;
}

/* MatMult and Transpose: PE into PSUM, then a COPY on ACT to the out */
static int lp_pe(struct lp *l, const struct bir_inst *i)
{
	struct kbin_compute_ap in0, in1, out, ps;
	struct kbin_compute_record r;
	uint64_t n, n0, nc;
	int d0, d1, dout, rc;
	int mm = i->op == BIR_OP_MATMULT;

	if (i->nins != (mm ? 2U : 1U) || i->nouts != 1)
		return refuse(l, "%s takes %u inputs and one output, not %u and %u",
			      i->opname, mm ? 2 : 1, i->nins, i->nouts);
	rc = lp_opnd(l, &i->ins[0], &in0, 1, &d0);
	if (!rc)
		rc = lp_pe_sbuf(l, &in0);
	if (!rc && mm)
		rc = lp_opnd(l, &i->ins[1], &in1, 1, &d1);
	if (!rc && mm)
		rc = lp_pe_sbuf(l, &in1);
	if (!rc)
		rc = lp_opnd(l, &i->outs[0], &out, 0, &dout);
	if (rc)
		return rc;
	n = mm ? ap_elems(&in1) : in0.partitions;
	if (mm && n > KBIN_COMPUTE_MATMUL_MAX_N && in1.num[0] != 1)
		return refuse(l, "its moving operand has %llu elements per partition in two dimensions (more than %u need one to split)",
			      (unsigned long long)n, KBIN_COMPUTE_MATMUL_MAX_N);
	for (n0 = 0; n0 < n; n0 += nc) {
		struct kbin_compute_ap part = in1;

		nc = n - n0 > KBIN_COMPUTE_MATMUL_MAX_N ?
		     KBIN_COMPUTE_MATMUL_MAX_N : n - n0;
		rc = lp_psum(l, (uint32_t)ap_elems(&in0), nc, &ps);
		if (rc)
			return rc;
		lp_rec(&r, mm ? KBIN_COP_MATMULT : KBIN_COP_TRANSPOSE);
		r.out = ps;
		r.in0 = in0;
		if (mm) {
			part.offset += (uint32_t)(n0 * part.step[1] *
						  kbin_dma_dtype(part.dtype)->size);
			part.num[1] = (uint16_t)nc;
			r.in1 = part;
		}
		rc = lp_compute(l, &r, KBIN_DMA_ENGINE_PE);
		if (rc)
			return rc;
		/* PSUM -> the destination's columns n0 .. n0 + nc */
		lp_rec(&r, KBIN_COP_COPY);
		r.in0 = ps;
		r.out = out;
		if (n0 || nc != n) {
			if (out.num[0] != 1)
				return refuse(l, "its output of %llu columns in two dimensions cannot take a split result",
					      (unsigned long long)n);
			r.out.offset += (uint32_t)(n0 * out.step[1] *
						   kbin_dma_dtype(out.dtype)->size);
			r.out.num[1] = (uint16_t)nc;
		}
		rc = lp_compute(l, &r, KBIN_DMA_ENGINE_ACT);
		if (rc)
			return rc;
	}
	return lp_finish_out(l, &i->outs[0], &out, dout);
}

/* the vector operations: one compute instruction, operands staged */
static int lp_vector(struct lp *l, const struct bir_inst *i)
{
	struct kbin_compute_ap in0 = { 0 }, in1 = { 0 }, out;
	struct kbin_compute_record r;
	const char *name;
	uint32_t engine = KBIN_DMA_ENGINE_DVE;
	int d, dout, rc, v;
	unsigned int op;

	if (i->nouts != 1)
		return refuse(l, "it has %u outputs (one is lowered)", i->nouts);
	switch (i->op) {
	case BIR_OP_MEMSET:
		op = KBIN_COP_MEMSET;
		engine = KBIN_DMA_ENGINE_POOL;
		break;
	case BIR_OP_ACTIVATION:
		op = KBIN_COP_ACTIVATE;
		engine = KBIN_DMA_ENGINE_ACT;
		break;
	case BIR_OP_TENSOR_TENSOR:
		op = KBIN_COP_TENSOR_TENSOR;
		break;
	case BIR_OP_TENSOR_SCALAR:
		op = KBIN_COP_TENSOR_SCALAR;
		break;
	default:
		op = KBIN_COP_REDUCE;
		break;
	}
	lp_rec(&r, op);
	if (op != KBIN_COP_MEMSET) {
		uint32_t want = op == KBIN_COP_TENSOR_TENSOR ||
				op == KBIN_COP_TENSOR_SCALAR ? 2 : 1;

		if (i->nins != want)
			return refuse(l, "it takes %u inputs, not %u", want,
				      i->nins);
		rc = lp_opnd(l, &i->ins[0], &in0, 1, &d);
		if (rc)
			return rc;
	}
	if (op == KBIN_COP_TENSOR_TENSOR ||
	    (op == KBIN_COP_TENSOR_SCALAR && i->ins[1].kind != BIR_OPND_IMM)) {
		rc = lp_opnd(l, &i->ins[1], &in1, 1, &d);
		if (rc)
			return rc;
	}
	rc = lp_opnd(l, &i->outs[0], &out, 0, &dout);
	if (rc)
		return rc;
	switch (op) {
	case KBIN_COP_MEMSET:
		r.value = f32_bits(bir_attr_num(i, "value", 0));
		break;
	case KBIN_COP_ACTIVATE:
		name = bir_attr_str(i, "func");
		v = name ? kbin_act_func_parse(name) : KBIN_ACT_IDENTITY;
		if (v < 0)
			return refuse(l, "activation function '%s' is not one the engines have",
				      name);
		r.func = (uint8_t)v;
		r.value = f32_bits(bir_attr_num(i, "scale", 1));
		break;
	case KBIN_COP_TENSOR_TENSOR:
	case KBIN_COP_TENSOR_SCALAR:
	case KBIN_COP_REDUCE:
		name = bir_attr_str(i, "op");
		v = name ? kbin_alu_op_parse(name) : -EINVAL;
		if (v < 0)
			return refuse(l, "ALU operation '%s' is not one the engines have",
				      name ? name : "(none)");
		r.func = (uint8_t)v;
		if (op == KBIN_COP_TENSOR_SCALAR && i->ins[1].kind == BIR_OPND_IMM) {
			r.flags = KBIN_COMPUTE_F_IMM;
			r.value = f32_bits(i->ins[1].imm);
		} else if (op != KBIN_COP_REDUCE) {
			r.in1 = in1;
		}
		break;
	default:
		break;
	}
	r.out = out;
	if (op != KBIN_COP_MEMSET)
		r.in0 = in0;
	rc = lp_compute(l, &r, engine);
	return rc ? rc : lp_finish_out(l, &i->outs[0], &out, dout);
}

/* ---- registers, run-time offsets, branches ---- */

/* the next engine register, for BIR register @name or (NULL) a condition */
static int lp_new_reg(struct lp *l, const char *name, uint8_t *hw)
{
	if (l->nregs == KBIN_COMPUTE_REGS)
		return refuse(l, "its registers and branch conditions need more than an engine's %u registers",
			      KBIN_COMPUTE_REGS);
	l->rname[l->nregs] = name;
	*hw = (uint8_t)l->nregs++;
	return 0;
}

/* the engine register that holds BIR register @name, given one if new */
static int lp_reg_of(struct lp *l, const char *name, uint8_t *hw)
{
	for (uint32_t k = 0; k < l->nregs; k++)
		if (l->rname[k] && name && !strcmp(l->rname[k], name)) {
			*hw = (uint8_t)k;
			return 0;
		}
	if (!name || !bir_register_find(l->f, name))
		return refuse(l, "'%s' is neither a register of the function nor the axis of an enclosing Loop",
			      name ? name : "(none)");
	return lp_new_reg(l, name, hw);
}

/* the engines that compute BIR instruction @i (the lowering's choice) */
static uint32_t lp_inst_engines(const struct bir_inst *i)
{
	switch (i->op) {
	case BIR_OP_MATMULT:
	case BIR_OP_TRANSPOSE:
		return 1U << KBIN_DMA_ENGINE_PE | 1U << KBIN_DMA_ENGINE_ACT;
	case BIR_OP_ACTIVATION:
		return 1U << KBIN_DMA_ENGINE_ACT;
	case BIR_OP_TENSOR_TENSOR:
	case BIR_OP_TENSOR_SCALAR:
	case BIR_OP_TENSOR_REDUCE:
		return 1U << KBIN_DMA_ENGINE_DVE;
	case BIR_OP_TENSOR_COPY:
	case BIR_OP_MEMSET:
	case BIR_OP_GENERIC_INDIRECT_LOAD:
	case BIR_OP_COLLECTIVE_COMPUTE:
		return 1U << KBIN_DMA_ENGINE_POOL;
	default:
		return 0;
	}
}

static int lp_engines_of(struct bir_inst *i, void *arg)
{
	*(uint32_t *)arg |= lp_inst_engines(i);
	return 0;
}

/* the same record on every engine that computes: registers are per engine */
static int lp_every_engine(struct lp *l, const struct kbin_compute_record *r)
{
	int rc = 0;

	for (uint32_t e = KBIN_DMA_ENGINE_PE; e <= KBIN_DMA_ENGINE_DVE && !rc; e++)
		if (l->engines & (1U << e))
			rc = lp_compute(l, r, e);
	return rc;
}

/* RegisterLoad: the element on chip, then REG_LOAD on every engine */
static int lp_register_load(struct lp *l, const struct bir_inst *i)
{
	struct kbin_compute_record r;
	struct kbin_compute_ap a;
	uint8_t hw;
	int d, rc;

	if (i->nins != 1 || i->nouts != 1 || i->outs[0].kind != BIR_OPND_REG)
		return refuse(l, "a RegisterLoad takes an access pattern and writes a register");
	rc = lp_opnd(l, &i->ins[0], &a, 1, &d);
	if (!rc)
		rc = lp_reg_of(l, i->outs[0].name, &hw);
	if (rc)
		return rc;
	/* the register takes the operand's first element */
	a.partitions = 1;
	a.num[0] = a.num[1] = 1;
	lp_rec(&r, KBIN_COP_REG_LOAD);
	r.func = hw;
	r.in0 = a;
	return lp_every_engine(l, &r);
}

/* @p and also the condition register @reg being non-zero (@pol 1) or zero */
static struct lp_pred lp_and(struct lp_pred p, uint8_t reg, uint8_t pol)
{
	if (p.kind == LP_ALWAYS)
		return (struct lp_pred){ LP_LIT, reg, pol };
	if (p.kind == LP_NEVER)
		return p;
	return (struct lp_pred){ LP_COMPLEX, 0, 0 };
}

/* @p or @q */
static struct lp_pred lp_or(struct lp_pred p, struct lp_pred q)
{
	if (p.kind == LP_NEVER)
		return q;
	if (q.kind == LP_NEVER || p.kind == LP_ALWAYS)
		return p;
	if (q.kind == LP_ALWAYS)
		return q;
	if (p.kind == LP_LIT && q.kind == LP_LIT && p.reg == q.reg)
		return p.pol == q.pol ? p : (struct lp_pred){ LP_ALWAYS, 0, 0 };
	return (struct lp_pred){ LP_COMPLEX, 0, 0 };
}

/* block @from goes to block @name under @p: a block laid out later */
static int lp_edge(struct lp *l, uint32_t from, const char *name,
		   struct lp_pred p)
{
	const struct bir_block *to = name ? bir_block_find(l->f, name) : NULL;
	int t = to ? bir_block_index(to) : -1;

	if (t < 0)
		return refuse(l, "its target block '%s' is not in the function",
			      name ? name : "(none)");
	if ((uint32_t)t <= from)
		return refuse(l, "it goes back to block '%s' (a loop of blocks is not lowered)",
			      name);
	l->bp[t] = lp_or(l->bp[t], p);
	return 0;
}

/*
 * CompareAndBranch of a register with an immediate: REG_TEST into a new
 * condition register on every engine; the targets run under it.
 */
static int lp_branch(struct lp *l, uint32_t b, const struct bir_inst *i)
{
	struct kbin_compute_record r;
	const char *op = bir_attr_str(i, "comp_op");
	int cmp = op ? kbin_cmp_parse(op) : -EINVAL;
	uint8_t src = 0, c = 0;
	float f;
	int rc;

	if (i->nins != 2 || i->ins[0].kind != BIR_OPND_REG ||
	    i->ins[1].kind != BIR_OPND_IMM)
		return refuse(l, "it does not compare a register with an immediate (the lowered form)");
	if (cmp < 0)
		return refuse(l, "comparison '%s' is not one the engines have",
			      op ? op : "(none)");
	f = (float)i->ins[1].imm;
	if ((double)f != i->ins[1].imm)
		return refuse(l, "its immediate %.17g is not a float32",
			      i->ins[1].imm);
	rc = lp_reg_of(l, i->ins[0].name, &src);
	if (!rc)
		rc = lp_new_reg(l, NULL, &c);
	if (rc)
		return rc;
	lp_rec(&r, KBIN_COP_REG_TEST);
	r.func = c;
	r.reg.src = src;
	r.reg.cmp = (uint8_t)cmp;
	r.value = f32_bits(f);
	rc = lp_every_engine(l, &r);
	if (!rc)
		rc = lp_edge(l, b, bir_attr_str(i, "on_true"),
			     lp_and(l->bp[b], c, 1));
	if (!rc)
		rc = lp_edge(l, b, bir_attr_str(i, "on_false"),
			     lp_and(l->bp[b], c, 0));
	return rc;
}

/* a / b rounded down and up, b > 0 */
static long long lp_div_floor(long long a, long long b)
{
	return a / b - (a % b < 0);
}

static long long lp_div_ceil(long long a, long long b)
{
	return a / b + (a % b > 0);
}

/* an operand over a location's whole rows, in place of a moving one */
struct lp_whole {
	struct bir_operand o;
	struct bir_ap_pair ap[2];
	struct kbin_compute_ap tile;
	int staged;
};

/*
 * Operand @o with one run-time term: its compute operand at v = 0 in
 * @ap and the term in @dy.  A DRAM operand's rows are staged whole
 * (loaded even for an output, which then is stored whole from @w).
 * [lo, hi) keeps it inside its location's bytes of each partition, as
 * the interpreter requires.
 */
static int lp_dyn_opnd(struct lp *l, const struct bir_operand *o,
		       struct kbin_compute_ap *ap, int load,
		       struct kbin_compute_dyn *dy, struct lp_whole *w)
{
	const struct bir_memloc *ml = o->ml;
	struct bir_operand st = *o;
	long long step, lo_b, hi_b, lo, hi;
	struct lp_reg fp;
	uint64_t elems;
	uint8_t hw;
	int d, rc;

	if (o->ndyn != 1)
		return refuse(l, "operand '%s' has %u run-time terms (one is lowered)",
			      o->name, o->ndyn);
	step = o->dyn[0].step;
	if (!step || step < INT32_MIN || step > INT32_MAX)
		return refuse(l, "operand '%s': run-time step %lld is 0 or beyond 32 bits",
			      o->name, (long long)step);
	rc = lp_reg_of(l, o->dyn[0].axis, &hw);
	if (rc)
		return rc;
	st.ndyn = 0;
	st.dyn = NULL;
	memset(w, 0, sizeof(*w));
	if (ml && is_dram(ml) && o->kind == BIR_OPND_AP && o->nap) {
		uint32_t esz;

		rc = lp_dtype(l, o, &ap->dtype);
		if (rc)
			return rc;
		esz = kbin_dma_dtype(ap->dtype)->size;
		if (o->ap[0].num <= 0 || (o->ap[0].num > 1 && o->ap[0].step != 1) ||
		    ml->dims[1] % esz)
			return refuse(l, "operand '%s': a run-time offset needs consecutive whole rows of its location",
				      o->name);
		/* the rows it reaches, whole, staged (and loaded) */
		w->o = st;
		w->o.offset = 0;
		w->o.ap = w->ap;
		w->o.nap = 2;
		w->ap[0] = (struct bir_ap_pair){ 1, o->ap[0].num };
		w->ap[1] = (struct bir_ap_pair){ 1, (int64_t)(ml->dims[1] / esz) };
		rc = lp_opnd(l, &w->o, &w->tile, 1, &d);
		if (!rc)
			rc = lp_free(l, &st, ap, &elems);
		if (rc)
			return rc;
		w->staged = 1;
		ap->offset = w->tile.offset + (uint32_t)st.offset;
		ap->space = KBIN_SPACE_SBUF;
		ap->partition = 0;
		ap->partitions = (uint8_t)o->ap[0].num;
		lo_b = w->tile.offset;
		hi_b = lo_b + (long long)ml->dims[1];
		if (st.offset < 0 || (uint64_t)st.offset >= ml->dims[1])
			return refuse(l, "operand '%s': offset %lld outside its rows of %llu bytes",
				      o->name, (long long)st.offset,
				      (unsigned long long)ml->dims[1]);
	} else {
		rc = lp_opnd(l, &st, ap, load, &d);
		if (rc)
			return rc;
		lo_b = (long long)ml->addr;
		hi_b = lo_b + (long long)ml->dims[1];
	}
	/*
	 * v keeps [b0, b1) + v * step inside [lo_b, hi_b); rounded inwards
	 * (the operand may start below its location at v = 0)
	 */
	fp = lp_ap_reg(ap, 0);
	if (step > 0) {
		lo = lp_div_ceil(lo_b - (long long)fp.b0, step);
		hi = lp_div_floor(hi_b - (long long)fp.b1, step);
	} else {
		lo = lp_div_ceil((long long)fp.b1 - hi_b, -step);
		hi = lp_div_floor((long long)fp.b0 - lo_b, -step);
	}
	hi++;
	if (lo < INT32_MIN)
		lo = INT32_MIN;
	if (hi > INT32_MAX)
		hi = INT32_MAX;
	if (lo >= hi)
		return refuse(l, "operand '%s': no value of its register keeps it inside its location",
			      o->name);
	dy->reg = hw;
	dy->step = (int32_t)step;
	dy->lo = (int32_t)lo;
	dy->hi = (int32_t)hi;
	return 0;
}

/*
 * A copy on POOL from @in to @out (TensorCopy on chip or with a
 * run-time offset, GenericIndirectLoad, a single-rank collective).
 */
static int lp_copy(struct lp *l, const struct bir_operand *in,
		   const struct bir_operand *out)
{
	struct kbin_compute_record r;
	struct kbin_compute_dyn dy = { 0 };
	struct lp_whole wi, wo;
	int d = 0, dout = 0, rc;

	if (in->ndyn && out->ndyn)
		return refuse(l, "both its operands have a run-time offset (one is lowered)");
	lp_rec(&r, KBIN_COP_COPY);
	rc = in->ndyn ? lp_dyn_opnd(l, in, &r.in0, 1, &dy, &wi) :
			lp_opnd(l, in, &r.in0, 1, &d);
	if (!rc)
		rc = out->ndyn ? lp_dyn_opnd(l, out, &r.out, 0, &dy, &wo) :
				 lp_opnd(l, out, &r.out, 0, &dout);
	if (rc)
		return rc;
	if (in->ndyn || out->ndyn) {
		r.flags = KBIN_COMPUTE_F_DYN;
		dy.side = (uint8_t)(in->ndyn ? KBIN_DYN_IN0 : KBIN_DYN_OUT);
		r.dyn = dy;
	}
	rc = lp_compute(l, &r, KBIN_DMA_ENGINE_POOL);
	if (rc)
		return rc;
	if (out->ndyn && wo.staged)
		return lp_stage_block(l, &wo.o, &wo.tile, 0);
	return lp_finish_out(l, out, &r.out, dout);
}

/* GenericIndirectLoad: ins[0] moved by register ins[1] x index_stride */
static int lp_indirect(struct lp *l, const struct bir_inst *i)
{
	struct bir_operand src;
	struct bir_dyn dyn;

	if (i->nins != 2 || i->ins[1].kind != BIR_OPND_REG || i->nouts != 1 ||
	    i->ins[0].ndyn)
		return refuse(l, "a GenericIndirectLoad takes an access pattern, a register and one output");
	src = i->ins[0];
	dyn.axis = i->ins[1].name;
	dyn.step = bir_attr_int(i, "index_stride", 0);
	src.dyn = &dyn;
	src.ndyn = 1;
	return lp_copy(l, &src, &i->outs[0]);
}

/* CollectiveCompute of one rank: each input copied to its output */
static int lp_collective(struct lp *l, const struct bir_inst *i)
{
	int rc = 0;

	if (i->nins != i->nouts)
		return refuse(l, "it has %u inputs and %u outputs", i->nins,
			      i->nouts);
	for (uint32_t k = 0; k < i->nins && !rc; k++)
		rc = lp_copy(l, &i->ins[k], &i->outs[k]);
	return rc;
}

/* a TensorCopy with a DRAM side: the block bir_lower_model() made */
static int lp_dma_copy(struct lp *l, const struct bir_inst *i)
{
	const struct nscc_subgraph *s = &l->model->sgs[l->sg];
	char name[40];
	uint32_t q;
	struct lp_act *a;

	if (!i->engine)
		return refuse(l, "a DMA TensorCopy needs an engine to trigger it");
	/* a Loop body's copy whose block an earlier iteration dropped */
	for (uint32_t k = 0; l->nax && k < l->ndrop; k++)
		if (l->drop_inst[k] == l->orig)
			return lp_copy(l, &i->ins[0], &i->outs[0]);
	snprintf(name, sizeof(name), "q%sIO0", i->engine);
	for (q = 0; q < s->num_dma_queues; q++)
		if (!strcmp(s->dma_queues[q].name, name))
			break;
	if (q == s->num_dma_queues)
		return refuse(l, "no DMA queue '%s'", name);
	for (uint32_t b = 0; b < s->num_dma_blocks; b++) {
		const struct nscc_dma_block *blk = &s->dma_blocks[b];

		if (blk->queue != q || blk->id != l->qnext[q])
			continue;
		if (l->pred || l->nax) {
			/*
			 * under a branch a block would run on every path, in
			 * a Loop body once: the copy is a (predicated) COPY
			 * with staging instead, and its block leaves the model
			 */
			l->drop_inst[l->ndrop] = l->orig;
			l->drop[l->ndrop++] = b;
			l->qnext[q]++;
			return lp_copy(l, &i->ins[0], &i->outs[0]);
		}
		a = lp_new(l);
		if (!a)
			return -ENOMEM;
		a->block = 1;
		a->queue = q;
		a->id = blk->id;
		a->engine = s->dma_queues[q].owner;
		a->unit = 8 + (int)q;
		for (uint32_t k = 0; k < blk->num_descs; k++) {
			const struct kbin_dma_desc *d = &s->dma_descs[blk->first_desc + k];

			lp_reg_add(a, lp_side_reg(l->g, &d->from, 0));
			lp_reg_add(a, lp_side_reg(l->g, &d->to, 1));
		}
		l->qnext[q]++;
		lp_push(l, a);
		return 0;
	}
	return refuse(l, "no block %u of queue '%s'", l->qnext[q], name);
}

static int lp_inst(struct lp *l, const struct bir_inst *i);

/* note instruction @i (the original) as the next in program order */
static int lp_note(struct lp *l, const struct bir_inst *i)
{
	if (l->ninsts == l->capinsts) {
		uint32_t cap = l->capinsts ? 2 * l->capinsts : 64;
		const struct bir_inst **n = realloc(l->insts, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		l->insts = n;
		l->capinsts = cap;
	}
	l->insts[l->ninsts++] = i;
	return 0;
}

/* an instruction with its operands' Loop axis terms folded in */
struct lp_folded {
	struct bir_inst i;
	struct bir_operand *op;
	struct bir_dyn *dyn;
};

/*
 * @i with each run-time term on a Loop axis of the walk folded into its
 * operand's offset (offset += value x step); the register terms stay.
 */
static int lp_fold(struct lp *l, const struct bir_inst *i,
		   struct lp_folded *fd)
{
	uint32_t nop = i->nins + i->nouts, nd = 0, k, d, x;

	memset(fd, 0, sizeof(*fd));
	fd->i = *i;
	for (k = 0; k < i->nins; k++)
		nd += i->ins[k].ndyn;
	for (k = 0; k < i->nouts; k++)
		nd += i->outs[k].ndyn;
	if (!nd)
		return 0;
	fd->op = calloc(nop + 1, sizeof(*fd->op));
	fd->dyn = calloc(nd + 1, sizeof(*fd->dyn));
	if (!fd->op || !fd->dyn)
		return -ENOMEM;
	memcpy(fd->op, i->ins, i->nins * sizeof(*fd->op));
	memcpy(fd->op + i->nins, i->outs, i->nouts * sizeof(*fd->op));
	nd = 0;
	for (k = 0; k < nop; k++) {
		struct bir_operand *o = &fd->op[k];
		const struct bir_dyn *src = o->dyn;
		uint32_t n = o->ndyn;

		o->dyn = fd->dyn + nd;
		o->ndyn = 0;
		for (d = 0; d < n; d++) {
			for (x = l->nax; x-- > 0;)
				if (!strcmp(l->axn[x], src[d].axis))
					break;
			if (x < l->nax) {
				int64_t t;

				if (__builtin_mul_overflow(l->axv[x], src[d].step, &t) ||
				    __builtin_add_overflow(o->offset, t, &o->offset))
					return refuse(l, "operand '%s': its offset with Loop axis '%s' = %lld does not fit 64 bits",
						      o->name ? o->name : "", l->axn[x],
						      (long long)l->axv[x]);
			} else {
				o->dyn[o->ndyn++] = src[d];
			}
		}
		nd += o->ndyn;
	}
	fd->i.ins = fd->op;
	fd->i.outs = fd->op + i->nins;
	return 0;
}

/*
 * A Loop the passes left: unrolled, its body's instructions lowered once
 * per value of its axis (lb, lb + stride, ... below ub) with the axis
 * terms folded in.  A branch in the body is refused.
 */
static int lp_loop(struct lp *l, const struct bir_inst *loop)
{
	const struct bir_loop_axis *ax = loop->axis;
	uint64_t body = 0, iters, span;
	int rc = 0;

	if (!ax || ax->stride <= 0 || ax->ub < ax->lb)
		return refuse(l, "its LoopAxis is missing or has stride %lld",
			      ax ? (long long)ax->stride : 0LL);
	if (l->nax == LP_MAX_AXES)
		return refuse(l, "Loops nested deeper than %u", LP_MAX_AXES);
	for (uint32_t b = 0; b < loop->nblocks; b++)
		body += loop->blocks[b]->ninsts;
	/* ub - lb in unsigned arithmetic: it may pass INT64_MAX */
	span = (uint64_t)ax->ub - (uint64_t)ax->lb;
	iters = span / (uint64_t)ax->stride + !!(span % (uint64_t)ax->stride);
	if (!body)
		return 0;
	if (iters > (LP_MAX_UNROLL - l->unrolled) / body)
		return refuse(l, "unrolling its %llu iterations of %llu instructions would pass the lowering's %u",
			      (unsigned long long)iters,
			      (unsigned long long)body, LP_MAX_UNROLL);
	l->unrolled += (uint32_t)(body * iters);
	l->axn[l->nax] = ax->name;
	l->nax++;
	for (uint64_t n = 0; n < iters && !rc; n++) {
		/* lb + n x stride < ub: no overflow */
		l->axv[l->nax - 1] = (int64_t)((uint64_t)ax->lb +
					       n * (uint64_t)ax->stride);
		for (uint32_t b = 0; b < loop->nblocks && !rc; b++) {
			const struct bir_block *blk = loop->blocks[b];

			for (uint32_t k = 0; k < blk->ninsts && !rc; k++) {
				const struct bir_inst *i = blk->insts[k];
				const struct bir_inst *save = l->orig;
				struct lp_folded fd;

				l->cur = i;
				if (i->op == BIR_OP_UNCONDITIONAL_BRANCH ||
				    i->op == BIR_OP_COMPARE_AND_BRANCH) {
					rc = refuse(l, "a branch inside a Loop body is not lowered");
					break;
				}
				rc = lp_fold(l, i, &fd);
				if (!rc)
					rc = lp_note(l, i);
				l->orig = i;
				if (!rc)
					rc = lp_inst(l, fd.op ? &fd.i : i);
				l->orig = save;
				free(fd.op);
				free(fd.dyn);
			}
		}
	}
	l->nax--;
	return rc;
}

static int lp_inst(struct lp *l, const struct bir_inst *i)
{
	switch (i->op) {
	case BIR_OP_TENSOR_COPY:
		/* a block was made for it unless it had a run-time term */
		if (i->nins == 1 && i->nouts == 1 && i->ins[0].kind == BIR_OPND_AP &&
		    i->outs[0].kind == BIR_OPND_AP && i->ins[0].ml &&
		    i->outs[0].ml && !l->orig->ins[0].ndyn && !l->orig->outs[0].ndyn &&
		    (is_dram(i->ins[0].ml) || is_dram(i->outs[0].ml)) &&
		    i->ins[0].ml->type != BIR_MEM_PSUM &&
		    i->outs[0].ml->type != BIR_MEM_PSUM)
			return lp_dma_copy(l, i);
		if (i->nins != 1 || i->nouts != 1)
			return refuse(l, "a TensorCopy takes one input and one output, not %u and %u",
				      i->nins, i->nouts);
		return lp_copy(l, &i->ins[0], &i->outs[0]);
	case BIR_OP_MEMSET:
	case BIR_OP_ACTIVATION:
	case BIR_OP_TENSOR_TENSOR:
	case BIR_OP_TENSOR_SCALAR:
	case BIR_OP_TENSOR_REDUCE:
		return lp_vector(l, i);
	case BIR_OP_MATMULT:
	case BIR_OP_TRANSPOSE:
		return lp_pe(l, i);
	case BIR_OP_REGISTER_LOAD:
		return lp_register_load(l, i);
	case BIR_OP_GENERIC_INDIRECT_LOAD:
		return lp_indirect(l, i);
	case BIR_OP_COLLECTIVE_COMPUTE:
		return lp_collective(l, i);
	case BIR_OP_LOOP:
		return lp_loop(l, i);
	case BIR_OP_NKI_KERNEL:
	case BIR_OP_BIR_KERNEL:
	case BIR_OP_NKI_KLIR_KERNEL:
		return refuse(l, "a kernel call was not inlined");
	default:
		return refuse(l, "the opcode has no engine instruction");
	}
}

/*
 * Block @b in layout order, under its predicate: its instructions up to
 * the branch that ends it (the rest never runs), then its edges.
 */
static int lp_block(struct lp *l, uint32_t b)
{
	const struct bir_block *blk = l->f->blocks[b];
	struct lp_pred p = l->bp[b];
	int rc = 0;

	if (p.kind == LP_NEVER)
		return 0;	/* no path reaches it */
	l->pred = p.kind != LP_LIT ? 0 :
		  (uint8_t)((p.pol ? KBIN_COMPUTE_PRED_IF :
			     KBIN_COMPUTE_PRED_UNLESS) | p.reg);
	for (uint32_t k = 0; k < blk->ninsts && !rc; k++) {
		const struct bir_inst *i = blk->insts[k];

		l->cur = i;
		l->orig = i;
		rc = lp_note(l, i);
		if (rc)
			return rc;
		if (p.kind == LP_COMPLEX)
			return refuse(l, "its block '%s' is under a branch inside another branch's arm (one level is lowered)",
				      blk->name);
		if (i->op == BIR_OP_UNCONDITIONAL_BRANCH)
			return lp_edge(l, b, bir_attr_str(i, "target"), p);
		if (i->op == BIR_OP_COMPARE_AND_BRANCH)
			return lp_branch(l, b, i);
		rc = lp_inst(l, i);
	}
	if (!rc && b + 1 < l->f->nblocks)
		l->bp[b + 1] = lp_or(l->bp[b + 1], p);
	return rc;
}

/* ---- the streams ---- */

struct lp_stream {
	uint8_t *rec;
	const char **names;	/* per record, the BIR instruction's name */
	uint32_t n, cap;
};

/* a new zeroed record of @s, made for the BIR instruction named @name */
static uint8_t *lp_emit(struct lp_stream *s, const char *name)
{
	if (s->n == s->cap) {
		uint32_t cap = s->cap ? 2 * s->cap : 64;
		uint8_t *r = realloc(s->rec, (size_t)cap * KBIN_PROG_RECORD_SIZE);
		const char **nm;

		if (!r)
			return NULL;
		s->rec = r;
		nm = realloc(s->names, (size_t)cap * sizeof(*nm));
		if (!nm)
			return NULL;
		s->names = nm;
		s->cap = cap;
	}
	s->names[s->n] = name;
	memset(s->rec + (size_t)s->n * KBIN_PROG_RECORD_SIZE, 0,
	       KBIN_PROG_RECORD_SIZE);
	return s->rec + (size_t)s->n++ * KBIN_PROG_RECORD_SIZE;
}

/* the unit's semaphore */
static uint32_t lp_sem(const struct lp *l, int unit)
{
	return unit >= 8 ? (uint32_t)unit - 8 : l->nq + (uint32_t)unit - 1;
}

/* whether action @b is done before @a starts without a wait */
static int lp_ordered(const struct lp_act *a, const struct lp_act *b)
{
	return a->unit == b->unit ||
	       (a->block && !b->block && b->engine == a->engine);
}

/* build the five streams of the actions into @st; 0, 1 refused, -ENOMEM */
static int lp_streams(struct lp *l, struct lp_stream *st)
{
	const struct nscc_subgraph *s = &l->model->sgs[l->sg];
	uint32_t need[8 + 64];
	/* per stream, what its waits so far have seen: no wait twice */
	uint32_t (*known)[8 + 64] = calloc(KBIN_PROG_ENGINES, sizeof(*known));

	if (!known)
		return -ENOMEM;

	for (uint32_t k = 0; k < l->na; k++) {
		struct lp_act *a = &l->a[k];
		const struct bir_inst *bi = l->insts[a->inst];
		struct kbin_prog_sync sy = { 0 };
		uint32_t nw = 0, u, last = 0;
		uint8_t *rec;

		memset(need, 0, sizeof(need));
		for (uint32_t j = 0; j < k; j++) {
			const struct lp_act *b = &l->a[j];
			int dep = 0;

			if (lp_ordered(a, b))
				continue;
			for (uint32_t x = 0; x < a->nr && !dep; x++)
				for (uint32_t y = 0; y < b->nr && !dep; y++)
					dep = lp_overlap(&a->r[x], &b->r[y]);
			for (uint32_t d = 0; d < bi->ndeps && !dep; d++)
				dep = bi->dep_insts[d] == l->insts[b->inst];
			if (dep && b->seq + 1 > need[b->unit])
				need[b->unit] = b->seq + 1;
		}
		for (u = 0; u < 8 + 64; u++) {
			if (need[u] <= known[a->engine - 1][u])
				need[u] = 0;
			else
				known[a->engine - 1][u] = need[u];
			nw += !!need[u];
		}
		for (u = 0; u < 8 + 64; u++) {
			if (!need[u])
				continue;
			sy = (struct kbin_prog_sync){
				.wait_mode = KBIN_PROG_WAIT_GE,
				.wait_sem = (uint8_t)lp_sem(l, (int)u),
				.wait_value = need[u],
			};
			if (++last == nw)
				break;
			/* every wait but the last: a 0xA0 before it */
			sy.opcode = KBIN_PROG_OP_WAIT;
			rec = lp_emit(&st[a->engine - 1], bi->name);
			if (!rec) {
				free(known);
				return -ENOMEM;
			}
			kbin_prog_encode(rec, &sy, NULL);
			sy = (struct kbin_prog_sync){ 0 };
		}
		rec = lp_emit(&st[a->engine - 1], bi->name);
		if (!rec) {
			free(known);
			return -ENOMEM;
		}
		if (a->block) {
			sy.opcode = KBIN_PROG_OP_TRIGGER;
			kbin_prog_encode(rec, &sy, s->dma_queues[a->queue].name);
			continue;
		}
		memcpy(rec, a->rec, KBIN_PROG_RECORD_SIZE);
		rec[4] = sy.wait_mode;
		rec[5] = sy.wait_sem;
		rec[6] = KBIN_PROG_UPDATE_INC;
		rec[7] = (uint8_t)lp_sem(l, a->unit);
		memcpy(rec + 8, &sy.wait_value, 4);
	}
	free(known);
	return 0;
}

/* the names of stream @e's records, copied into @sg (prog_names) */
static int lp_names(struct nscc_subgraph *sg, uint32_t e,
		    const struct lp_stream *st)
{
	char **nm = st->n ? calloc(st->n, sizeof(*nm)) : NULL;

	if (st->n && !nm)
		return -ENOMEM;
	for (uint32_t i = 0; i < st->n; i++)
		if (st->names[i] && !(nm[i] = strdup(st->names[i]))) {
			while (i--)
				free(nm[i]);
			free(nm);
			return -ENOMEM;
		}
	sg->prog_names[e] = nm;
	return 0;
}

static int lp_cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* add a staging queue named @name owned by SP; its index */
static int lp_add_queue(struct nscc_model *model, int sg, const char *name)
{
	uint32_t qi = model->sgs[sg].num_dma_queues;
	struct nscc_dma_queue *q = nscc_model_add_dma_queue(model, sg, name);

	if (!q || nscc_dma_queue_set_semaphores(q, &qi, 1))
		return -ENOMEM;
	q->type = KBIN_DMA_QUEUE_DATA;
	q->owner = KBIN_DMA_ENGINE_SP;
	q->num_queues = 1;
	return (int)qi;
}

int bir_lower_prog(const struct bir_module *m, struct nscc_model *model,
		   struct nscc_err *why)
{
	struct lp l = { .model = model, .sg = 0, .why = why };
	struct lp_stream st[KBIN_PROG_ENGINES] = { { 0 } };
	struct nscc_subgraph *s;
	uint32_t nstage[2] = { 0 };
	int rc = 0, qa, qb;

	why->msg[0] = '\0';
	if (m->nfns != 1 || !model->num_sgs)
		return refuse(&l, "the final module has %u functions", m->nfns);
	l.f = m->fns[0];
	l.g = kbin_gen_target(model->target_gen);
	if (!l.g)
		return refuse(&l, "target gen %u has no geometry", model->target_gen);
	s = &model->sgs[0];
	l.nq = s->num_dma_queues + 2;
	l.qload = s->num_dma_queues;
	l.qstore = s->num_dma_queues + 1;
	if (l.nq + KBIN_PROG_ENGINES > l.g->semaphores || l.nq > 64)
		return refuse(&l, "%u DMA queues and 5 engines need more than the %u semaphores",
			      l.nq, l.g->semaphores);
	bir_foreach_inst((struct bir_function *)l.f, lp_engines_of, &l.engines);
	l.bp = calloc(l.f->nblocks + 1, sizeof(*l.bp));
	l.qnext = calloc(s->num_dma_queues + 1, sizeof(*l.qnext));
	l.drop = calloc(s->num_dma_blocks + 1, sizeof(*l.drop));
	l.drop_inst = calloc(s->num_dma_blocks + 1, sizeof(*l.drop_inst));
	if (!l.bp || !l.qnext || !l.drop || !l.drop_inst) {
		rc = -ENOMEM;
		goto out;
	}
	lp_stage_area(&l);
	l.bp[0].kind = LP_ALWAYS;
	for (uint32_t b = 0; b < l.f->nblocks && !rc; b++)
		rc = lp_block(&l, b);
	for (uint32_t q = 0; !rc && q < s->num_dma_queues; q++) {
		uint32_t blocks = 0;

		for (uint32_t b = 0; b < s->num_dma_blocks; b++)
			blocks += s->dma_blocks[b].queue == q;
		if (blocks != l.qnext[q]) {
			l.cur = NULL;
			rc = refuse(&l, "queue '%s' has %u blocks but %u DMA TensorCopies",
				    s->dma_queues[q].name, blocks, l.qnext[q]);
		}
	}
	if (rc)
		goto out;
	/* the model: the dropped blocks out (last first), staging queues, their blocks, the streams */
	qsort(l.drop, l.ndrop, sizeof(*l.drop), lp_cmp_u32);
	for (uint32_t k = l.ndrop; k-- > 0;)
		nscc_model_drop_dma_block(model, 0, l.drop[k]);
	for (uint32_t k = 0; k < l.na; k++)
		if (l.a[k].fresh)
			l.a[k].id = nstage[l.a[k].queue == l.qstore]++;
	/* only the staging queues that have blocks: renumber the store one */
	qa = nstage[0] ? lp_add_queue(model, 0, LP_SP_LOAD) : 0;
	qb = nstage[1] && qa >= 0 ? lp_add_queue(model, 0, LP_SP_STORE) : 0;
	if (qa < 0 || qb < 0) {
		rc = -ENOMEM;
		goto out;
	}
	l.nq = model->sgs[0].num_dma_queues;
	for (uint32_t k = 0; k < l.na; k++) {
		if (!l.a[k].fresh || l.a[k].queue != l.qstore)
			continue;
		l.a[k].queue = (uint32_t)qb;
		l.a[k].unit = 8 + qb;
	}
	s = &model->sgs[0];
	for (uint32_t k = 0; k < l.na && !rc; k++) {
		struct nscc_dma_block b = { 0 };

		if (!l.a[k].fresh)
			continue;
		b.queue = l.a[k].queue;
		b.id = l.a[k].id;
		b.semaphore = l.a[k].queue;
		b.engine = KBIN_DMA_ENGINE_SP;
		rc = nscc_model_add_dma_block(model, 0, &b, l.a[k].comment,
					      l.a[k].descs, l.a[k].ndescs);
	}
	if (!rc)
		rc = lp_streams(&l, st);
	for (uint32_t e = 1; !rc && e <= KBIN_PROG_ENGINES; e++) {
		rc = nscc_model_set_prog(model, 0, e, st[e - 1].rec,
					 (uint64_t)st[e - 1].n * KBIN_PROG_RECORD_SIZE,
					 NULL, why);
		if (!rc)
			rc = lp_names(&model->sgs[0], e, &st[e - 1]);
	}
	if (!rc)
		model->prog_flags = KBIN_PROG_F_COMPUTE;
	if (rc < 0 && !why->msg[0])
		snprintf(why->msg, sizeof(why->msg), "lowering: out of memory");
out:
	for (uint32_t k = 0; k < l.na; k++)
		free(l.a[k].descs);
	for (uint32_t e = 0; e < KBIN_PROG_ENGINES; e++) {
		free(st[e].rec);
		free(st[e].names);
	}
	free(l.a);
	free(l.insts);
	free(l.bp);
	free(l.drop);
	free(l.drop_inst);
	free(l.qnext);
	return rc;
}
