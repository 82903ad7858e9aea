// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * kbin_compute.c - neuronsim's compute encoding: which engine runs which
 * operation, the rules every compute instruction of a KBIN_PROG_F_COMPUTE
 * program follows (the plan checker applies them at LOAD and in the
 * compiler), and the executor the module's engines and the host
 * reference share.  Documentation/compute.rst has the encoding and the
 * meaning of every operation.
 *
 * No float here: the arithmetic is kbin_num.c's, called on chunks of at
 * most KBIN_NUM_CHUNK elements between KBIN_FPU_BEGIN() and
 * KBIN_FPU_END(), with kbin_yield() between chunks.
 */

#include "kbin_compat.h"
#include "kbin_cast.h"
#include "kbin_compute.h"
#include "kbin_dma.h"
#include "kbin_layout.h"
#include "kbin_num.h"

static_assert(KBIN_COMPUTE_MACS_PER_CALL <= KBIN_NUM_MATMUL_MACS,
	      "one matmul call stays within the numerics library's bound");
static_assert(KBIN_COMPUTE_BUF_WORDS >= KBIN_NUM_CHUNK,
	      "a work buffer holds a chunk");

#define KBIN_ENG(e)	(1U << (e))
#define KBIN_ENG_VEC	(KBIN_ENG(KBIN_DMA_ENGINE_POOL) | \
			 KBIN_ENG(KBIN_DMA_ENGINE_DVE))
/* the engines with registers: every one that computes */
#define KBIN_ENG_REGS	(KBIN_ENG(KBIN_DMA_ENGINE_PE) | \
			 KBIN_ENG(KBIN_DMA_ENGINE_ACT) | KBIN_ENG_VEC)

/* one operation of the encoding: its name and the engines that run it */
struct kbin_cop_info {
	const char *name;
	unsigned int engines;
};

static const struct kbin_cop_info kbin_cops[KBIN_COP_LAST - KBIN_COP_FIRST + 1] = {
	[KBIN_COP_MEMSET - KBIN_COP_FIRST] = {
		"memset", KBIN_ENG(KBIN_DMA_ENGINE_ACT) | KBIN_ENG_VEC },
	[KBIN_COP_COPY - KBIN_COP_FIRST] = {
		"copy", KBIN_ENG(KBIN_DMA_ENGINE_ACT) | KBIN_ENG_VEC },
	[KBIN_COP_ACTIVATE - KBIN_COP_FIRST] = {
		"activate", KBIN_ENG(KBIN_DMA_ENGINE_ACT) },
	[KBIN_COP_TENSOR_TENSOR - KBIN_COP_FIRST] = {
		"tensor_tensor", KBIN_ENG_VEC },
	[KBIN_COP_TENSOR_SCALAR - KBIN_COP_FIRST] = {
		"tensor_scalar", KBIN_ENG_VEC },
	[KBIN_COP_REDUCE - KBIN_COP_FIRST] = {
		"reduce", KBIN_ENG_VEC },
	[KBIN_COP_MATMULT - KBIN_COP_FIRST] = {
		"matmult", KBIN_ENG(KBIN_DMA_ENGINE_PE) },
	[KBIN_COP_TRANSPOSE - KBIN_COP_FIRST] = {
		"transpose", KBIN_ENG(KBIN_DMA_ENGINE_PE) },
	[KBIN_COP_REG_LOAD - KBIN_COP_FIRST] = {
		"reg_load", KBIN_ENG_REGS },
	[KBIN_COP_REG_TEST - KBIN_COP_FIRST] = {
		"reg_test", KBIN_ENG_REGS },
};

/**
 * kbin_compute_is_op() - whether @opcode is an operation of neuronsim's
 *	compute encoding (enum kbin_cop).
 * @opcode: record byte 0.
 *
 * Return: 1 or 0.
 */
int kbin_compute_is_op(unsigned int opcode)
{
	return opcode >= KBIN_COP_FIRST && opcode <= KBIN_COP_LAST;
}

/**
 * kbin_compute_op_str() - the name of a compute operation.
 * @opcode: enum kbin_cop.
 *
 * Return: "memset", "copy", "activate", "tensor_tensor",
 * "tensor_scalar", "reduce", "matmult", "transpose", "reg_load" or
 * "reg_test"; "?" for another value.
 */
const char *kbin_compute_op_str(unsigned int opcode)
{
	return kbin_compute_is_op(opcode) ?
	       kbin_cops[opcode - KBIN_COP_FIRST].name : "?";
}

/**
 * kbin_compute_engines() - the engines that may run a compute operation.
 * @opcode: enum kbin_cop.
 *
 * Return: a mask with bit e set for each enum kbin_dma_engine e that
 * runs @opcode (MATMULT and TRANSPOSE: PE; ACTIVATE: ACT; MEMSET and
 * COPY: ACT, POOL, DVE; REG_LOAD and REG_TEST: PE, ACT, POOL, DVE; the
 * others: POOL, DVE); 0 for another value.
 */
unsigned int kbin_compute_engines(unsigned int opcode)
{
	return kbin_compute_is_op(opcode) ?
	       kbin_cops[opcode - KBIN_COP_FIRST].engines : 0;
}

/**
 * kbin_compute_dtype_ok() - whether the engines compute on elements of a
 *	dtype: at most 4 bytes, cast to float32 on the way in and back on
 *	the way out by the DMA engine's cast code (kbin_cast.h).
 * @dtype: enum kbin_dma_dtype.
 *
 * The checker's rule for every operand; the BIR lowering and the test
 * interpreter ask it too.
 *
 * Return: 1 or 0.
 */
int kbin_compute_dtype_ok(unsigned int dtype)
{
	const struct kbin_dma_dtype_info *t = kbin_dma_dtype(dtype);

	return t && t->size <= 4 &&
	       kbin_cast_ok(dtype, KBIN_DMA_DTYPE_FLOAT32) &&
	       kbin_cast_ok(KBIN_DMA_DTYPE_FLOAT32, dtype);
}

/* partitions and bytes per partition of @space on @g; 0 if no such space */
static int kbin_compute_space(const struct kbin_gen *g, unsigned int space,
			      __u32 *parts, __u32 *bytes)
{
	switch (space) {
	case KBIN_SPACE_SBUF:
		*parts = g->sbuf_partitions;
		*bytes = g->sbuf_partition_size;
		return 1;
	case KBIN_SPACE_PSUM:
		*parts = kbin_gen_psum_partitions(g);
		*bytes = g->psum_banks * KBIN_PSUM_BANK_SIZE;
		return 1;
	default:
		return 0;
	}
}

static __u64 kbin_ap_elems(const struct kbin_compute_ap *ap)
{
	return (__u64)ap->num[0] * ap->num[1];
}

static int kbin_ap_zero(const void *p, unsigned int n)
{
	const __u8 *b = p;
	unsigned int i;

	for (i = 0; i < n; i++)
		if (b[i])
			return 0;
	return 1;
}

static unsigned int kbin_cset(struct kbin_prog_verdict *v, unsigned int why,
			      const char *field, unsigned long long value,
			      unsigned long long limit)
{
	v->why = why;
	v->field = field;
	v->value = value;
	v->limit = limit;
	return KBIN_ERR_PROG_COMPUTE;
}

/*
 * Operand @ap named @name: in one of the spaces of @spaces (a mask of
 * 1 << KBIN_SPACE_*), of a dtype the engines cast to and from float32,
 * its partitions and every byte of its pattern inside the space.
 */
static unsigned int kbin_compute_ap_check(const struct kbin_compute_ap *ap,
					  const char *name, unsigned int spaces,
					  const struct kbin_gen *g,
					  struct kbin_prog_verdict *v)
{
	const struct kbin_dma_dtype_info *t;
	__u32 parts, bytes;
	long long lo = 0, hi = 0, d;
	int i;

	/* a space byte from the plan: no shift past the mask's 32 bits */
	if (ap->space >= 32 || !(spaces & (1U << ap->space)) ||
	    !kbin_compute_space(g, ap->space, &parts, &bytes))
		return kbin_cset(v, KBIN_PROG_WHY_COMPUTE_SPACE, name, ap->space,
				 spaces);
	if (!kbin_compute_dtype_ok(ap->dtype))
		return kbin_cset(v, KBIN_PROG_WHY_COMPUTE_DTYPE, name, ap->dtype,
				 0);
	t = kbin_dma_dtype(ap->dtype);
	if (!ap->partitions || (__u32)ap->partition + ap->partitions > parts)
		return kbin_cset(v, KBIN_PROG_WHY_COMPUTE_PARTITIONS, name,
				 (__u64)ap->partition + ap->partitions, parts);
	if (!ap->num[0] || !ap->num[1])
		return kbin_cset(v, KBIN_PROG_WHY_COMPUTE_SHAPE, name, 0, 1);
	for (i = 0; i < 2; i++) {
		d = (long long)(ap->num[i] - 1) * ap->step[i];
		if (d < 0)
			lo += d;
		else
			hi += d;
	}
	lo = (long long)ap->offset + lo * t->size;
	hi = (long long)ap->offset + (hi + 1) * t->size;
	if (lo < 0)
		return kbin_cset(v, KBIN_PROG_WHY_COMPUTE_BYTES, name,
				 (unsigned long long)lo, bytes);
	if (hi > (long long)bytes)
		return kbin_cset(v, KBIN_PROG_WHY_COMPUTE_BYTES, name, hi, bytes);
	return KBIN_OK;
}

#define KBIN_SP(s)	(1U << (s))
#define KBIN_ONCHIP	(KBIN_SP(KBIN_SPACE_SBUF) | KBIN_SP(KBIN_SPACE_PSUM))

/* @b's partitions and elements per partition are @a's */
static unsigned int kbin_same_shape(const struct kbin_compute_ap *a,
				    const struct kbin_compute_ap *b,
				    const char *name,
				    struct kbin_prog_verdict *v)
{
	if (b->partitions != a->partitions)
		return kbin_cset(v, KBIN_PROG_WHY_COMPUTE_SHAPE, name,
				 b->partitions, a->partitions);
	if (kbin_ap_elems(b) != kbin_ap_elems(a))
		return kbin_cset(v, KBIN_PROG_WHY_COMPUTE_ELEMS, name,
				 kbin_ap_elems(b), kbin_ap_elems(a));
	return KBIN_OK;
}

/* REG_LOAD: in0's one element into register func; REG_TEST */
static unsigned int kbin_compute_reg_check(const struct kbin_compute_record *r,
					   const __u8 *rec,
					   const struct kbin_gen *g,
					   struct kbin_prog_verdict *v)
{
	unsigned int r2;

	if (r->func >= KBIN_COMPUTE_REGS)
		return kbin_cset(v, KBIN_PROG_WHY_COMPUTE_REG, "func", r->func,
				 KBIN_COMPUTE_REGS);
	if (r->flags)
		return kbin_cset(v, KBIN_PROG_WHY_COMPUTE_FIELD, "flags",
				 r->flags, 0);
	if (r->opcode == KBIN_COP_REG_TEST) {
		if (r->reg.src >= KBIN_COMPUTE_REGS)
			return kbin_cset(v, KBIN_PROG_WHY_COMPUTE_REG, "reg.src",
					 r->reg.src, KBIN_COMPUTE_REGS);
		if (r->reg.cmp >= KBIN_CMP_NUM)
			return kbin_cset(v, KBIN_PROG_WHY_COMPUTE_FUNC, "reg.cmp",
					 r->reg.cmp, KBIN_CMP_NUM);
		if (!kbin_ap_zero(r->reg.zero, sizeof(r->reg.zero)))
			return kbin_cset(v, KBIN_PROG_WHY_COMPUTE_FIELD,
					 "reg.zero", 1, 0);
		if (!kbin_ap_zero(&r->in0, sizeof(r->in0)))
			return kbin_cset(v, KBIN_PROG_WHY_COMPUTE_UNUSED, "in0",
					 0, 0);
		if (!kbin_ap_zero(rec + KBIN_PROG_RECORD_SIZE - 12, 12))
			return kbin_cset(v, KBIN_PROG_WHY_COMPUTE_UNUSED, "in1",
					 0, 0);
		return KBIN_OK;
	}
	if (!kbin_ap_zero(&r->out, sizeof(r->out)))
		return kbin_cset(v, KBIN_PROG_WHY_COMPUTE_UNUSED, "out", 0, 0);
	if (!kbin_ap_zero(&r->in1, sizeof(r->in1)))
		return kbin_cset(v, KBIN_PROG_WHY_COMPUTE_UNUSED, "in1", 0, 0);
	r2 = kbin_compute_ap_check(&r->in0, "in0", KBIN_ONCHIP, g, v);
	if (r2)
		return r2;
	if (r->in0.partitions != 1)
		return kbin_cset(v, KBIN_PROG_WHY_COMPUTE_SHAPE, "in0",
				 r->in0.partitions, 1);
	if (kbin_ap_elems(&r->in0) != 1)
		return kbin_cset(v, KBIN_PROG_WHY_COMPUTE_ELEMS, "in0",
				 kbin_ap_elems(&r->in0), 1);
	return KBIN_OK;
}

/* @ap moved by v * @d->step bytes */
static unsigned int kbin_dyn_at(const struct kbin_compute_ap *ap,
				const struct kbin_compute_dyn *d, long long v,
				const char *name, const struct kbin_gen *g,
				struct kbin_prog_verdict *pv)
{
	struct kbin_compute_ap at = *ap;
	long long off = (long long)ap->offset + v * d->step;

	if (off < 0 || off > 0xffffffffLL)
		return kbin_cset(pv, KBIN_PROG_WHY_COMPUTE_BYTES, name,
				 (unsigned long long)off, 0xffffffffULL);
	at.offset = (__u32)off;
	return kbin_compute_ap_check(&at, name, KBIN_ONCHIP, g, pv);
}

/*
 * A COPY with a run-time offset: the fields of @dyn, and the moved
 * operand inside its space at both ends of [lo, hi) (its bytes are
 * linear in v, so at every v between).
 */
static unsigned int kbin_compute_dyn_check(const struct kbin_compute_record *r,
					   const struct kbin_gen *g,
					   struct kbin_prog_verdict *v)
{
	const struct kbin_compute_dyn *d = &r->dyn;
	const struct kbin_compute_ap *moved = d->side == KBIN_DYN_OUT ?
					      &r->out : &r->in0;
	const char *name = d->side == KBIN_DYN_OUT ? "out" : "in0";
	unsigned int r2;

	if (r->func)
		return kbin_cset(v, KBIN_PROG_WHY_COMPUTE_FUNC, "func", r->func, 0);
	if (r->flags & ~KBIN_COMPUTE_F_DYN)
		return kbin_cset(v, KBIN_PROG_WHY_COMPUTE_FIELD, "flags",
				 r->flags, KBIN_COMPUTE_F_DYN);
	if (d->reg >= KBIN_COMPUTE_REGS)
		return kbin_cset(v, KBIN_PROG_WHY_COMPUTE_REG, "dyn.reg", d->reg,
				 KBIN_COMPUTE_REGS);
	if (d->side != KBIN_DYN_IN0 && d->side != KBIN_DYN_OUT)
		return kbin_cset(v, KBIN_PROG_WHY_COMPUTE_DYN, "dyn.side",
				 d->side, 0);
	if (d->zero)
		return kbin_cset(v, KBIN_PROG_WHY_COMPUTE_DYN, "dyn.zero",
				 d->zero, 0);
	if (d->lo >= d->hi)
		return kbin_cset(v, KBIN_PROG_WHY_COMPUTE_DYN, "dyn.hi",
				 (unsigned long long)(long long)d->hi,
				 (unsigned long long)(long long)d->lo);
	r2 = kbin_dyn_at(moved, d, d->lo, name, g, v);
	r2 = r2 ? r2 : kbin_dyn_at(moved, d, (long long)d->hi - 1, name, g, v);
	r2 = r2 ? r2 : kbin_compute_ap_check(d->side == KBIN_DYN_OUT ?
					     &r->in0 : &r->out,
					     d->side == KBIN_DYN_OUT ? "in0" : "out",
					     KBIN_ONCHIP, g, v);
	return r2 ? r2 : kbin_same_shape(&r->in0, &r->out, "out", v);
}

/**
 * kbin_compute_check() - the rules of one compute instruction of a
 *	KBIN_PROG_F_COMPUTE program (Documentation/compute.rst, "Rules").
 * @rec: its KBIN_PROG_RECORD_SIZE (64) bytes, a struct
 *	kbin_compute_record.
 * @engine: the stream's enum kbin_dma_engine.
 * @g: the plan's generation (SBUF and PSUM geometry).
 * @v: the verdict, where already set by the caller; this fills in why,
 *	field (the record field or operand: "opcode", "func", "flags",
 *	"out", "in0", "in1", ...), value and limit.
 *
 * The sync header is the caller's (kbin_prog_check_sg()).
 *
 * Return: KBIN_OK, or KBIN_ERR_PROG_COMPUTE with @v saying why: an
 * opcode outside enum kbin_cop or one @engine does not run, an unknown
 * function, operation or flag, a non-zero pad or unused operand, an
 * operand outside SBUF/PSUM, its partitions or its bytes, a dtype the
 * engines cannot cast, operands whose shapes do not fit the operation,
 * a register at or past KBIN_COMPUTE_REGS or a predicate of unknown
 * bits, a run-time offset of unknown fields or whose operand leaves its
 * space at either end of the values it allows.
 */
unsigned int kbin_compute_check(const __u8 *rec, unsigned int engine,
				const struct kbin_gen *g,
				struct kbin_prog_verdict *v)
{
	struct kbin_compute_record r;
	unsigned int op = rec[0], flags = 0, r2, tail = 16, p;
	__u64 n;

	memcpy(&r, rec, sizeof(r));
	if (!kbin_compute_is_op(op))
		return kbin_cset(v, KBIN_PROG_WHY_COMPUTE_OPCODE, "opcode", op, 0);
	if (!(kbin_compute_engines(op) & KBIN_ENG(engine)))
		return kbin_cset(v, KBIN_PROG_WHY_COMPUTE_ENGINE, "opcode", op,
				 kbin_compute_engines(op));
	if (r.words != KBIN_PROG_RECORD_SIZE / 4 || r.zero || r.pad)
		return kbin_cset(v, KBIN_PROG_WHY_COMPUTE_FIELD,
				 r.words != KBIN_PROG_RECORD_SIZE / 4 ? "words" :
				 r.zero ? "zero" : "pad",
				 r.words != KBIN_PROG_RECORD_SIZE / 4 ? r.words :
				 r.zero ? r.zero : r.pad, 0);
	p = r.pred & (KBIN_COMPUTE_PRED_IF | KBIN_COMPUTE_PRED_UNLESS);
	if (r.pred && (p == (KBIN_COMPUTE_PRED_IF | KBIN_COMPUTE_PRED_UNLESS) ||
		       !p || (r.pred & ~(p | KBIN_COMPUTE_PRED_REG))))
		return kbin_cset(v, KBIN_PROG_WHY_COMPUTE_REG, "pred", r.pred,
				 KBIN_COMPUTE_REGS);
	if (op == KBIN_COP_REG_LOAD || op == KBIN_COP_REG_TEST)
		return kbin_compute_reg_check(&r, rec, g, v);
	if (op == KBIN_COP_COPY && (r.flags & KBIN_COMPUTE_F_DYN))
		return kbin_compute_dyn_check(&r, g, v);
	switch (op) {
	case KBIN_COP_ACTIVATE:
		if (r.func >= KBIN_ACT_NUM)
			return kbin_cset(v, KBIN_PROG_WHY_COMPUTE_FUNC, "func",
					 r.func, KBIN_ACT_NUM);
		tail = 12;
		break;
	case KBIN_COP_TENSOR_SCALAR:
		flags = KBIN_COMPUTE_F_IMM;
		if (r.flags & KBIN_COMPUTE_F_IMM)
			tail = 12;
		fallthrough;
	case KBIN_COP_TENSOR_TENSOR:
	case KBIN_COP_REDUCE:
		if (r.func >= KBIN_ALU_NUM)
			return kbin_cset(v, KBIN_PROG_WHY_COMPUTE_FUNC, "func",
					 r.func, KBIN_ALU_NUM);
		break;
	case KBIN_COP_MATMULT:
		flags = KBIN_COMPUTE_F_ACCUMULATE;
		fallthrough;
	default:
		if (r.func)
			return kbin_cset(v, KBIN_PROG_WHY_COMPUTE_FUNC, "func",
					 r.func, 0);
		if (op == KBIN_COP_MEMSET)
			tail = 12;
		break;
	}
	if (r.flags & ~flags)
		return kbin_cset(v, KBIN_PROG_WHY_COMPUTE_FIELD, "flags", r.flags,
				 flags);
	/* the operands the operation does not read are zero */
	if (op == KBIN_COP_MEMSET && !kbin_ap_zero(&r.in0, sizeof(r.in0)))
		return kbin_cset(v, KBIN_PROG_WHY_COMPUTE_UNUSED, "in0", 0, 0);
	if (op != KBIN_COP_TENSOR_TENSOR && op != KBIN_COP_MATMULT &&
	    !(op == KBIN_COP_TENSOR_SCALAR && !(r.flags & KBIN_COMPUTE_F_IMM)) &&
	    !kbin_ap_zero(rec + KBIN_PROG_RECORD_SIZE - tail, tail))
		return kbin_cset(v, KBIN_PROG_WHY_COMPUTE_UNUSED, "in1", 0, 0);

	switch (op) {
	case KBIN_COP_MATMULT:
		r2 = kbin_compute_ap_check(&r.in0, "in0", KBIN_SP(KBIN_SPACE_SBUF), g, v);
		r2 = r2 ? r2 : kbin_compute_ap_check(&r.in1, "in1",
						     KBIN_SP(KBIN_SPACE_SBUF), g, v);
		r2 = r2 ? r2 : kbin_compute_ap_check(&r.out, "out",
						     KBIN_SP(KBIN_SPACE_PSUM), g, v);
		if (r2)
			return r2;
		if (r.in1.partitions != r.in0.partitions)
			return kbin_cset(v, KBIN_PROG_WHY_COMPUTE_SHAPE, "in1",
					 r.in1.partitions, r.in0.partitions);
		n = kbin_ap_elems(&r.in0);
		if (r.out.partitions != n)
			return kbin_cset(v, KBIN_PROG_WHY_COMPUTE_SHAPE, "out",
					 r.out.partitions, n);
		n = kbin_ap_elems(&r.in1);
		if (n > KBIN_COMPUTE_MATMUL_MAX_N)
			return kbin_cset(v, KBIN_PROG_WHY_COMPUTE_ELEMS, "in1", n,
					 KBIN_COMPUTE_MATMUL_MAX_N);
		if (kbin_ap_elems(&r.out) != n)
			return kbin_cset(v, KBIN_PROG_WHY_COMPUTE_ELEMS, "out",
					 kbin_ap_elems(&r.out), n);
		return KBIN_OK;
	case KBIN_COP_TRANSPOSE:
		r2 = kbin_compute_ap_check(&r.in0, "in0", KBIN_SP(KBIN_SPACE_SBUF), g, v);
		r2 = r2 ? r2 : kbin_compute_ap_check(&r.out, "out",
						     KBIN_SP(KBIN_SPACE_PSUM), g, v);
		if (r2)
			return r2;
		n = kbin_ap_elems(&r.in0);
		if (r.out.partitions != n)
			return kbin_cset(v, KBIN_PROG_WHY_COMPUTE_SHAPE, "out",
					 r.out.partitions, n);
		if (kbin_ap_elems(&r.out) != r.in0.partitions)
			return kbin_cset(v, KBIN_PROG_WHY_COMPUTE_ELEMS, "out",
					 kbin_ap_elems(&r.out), r.in0.partitions);
		return KBIN_OK;
	case KBIN_COP_MEMSET:
		return kbin_compute_ap_check(&r.out, "out", KBIN_ONCHIP, g, v);
	default:
		break;
	}
	r2 = kbin_compute_ap_check(&r.out, "out", KBIN_ONCHIP, g, v);
	r2 = r2 ? r2 : kbin_compute_ap_check(&r.in0, "in0", KBIN_ONCHIP, g, v);
	if (r2)
		return r2;
	if (op == KBIN_COP_REDUCE) {
		if (r.out.partitions != r.in0.partitions)
			return kbin_cset(v, KBIN_PROG_WHY_COMPUTE_SHAPE, "out",
					 r.out.partitions, r.in0.partitions);
		if (kbin_ap_elems(&r.out) != 1)
			return kbin_cset(v, KBIN_PROG_WHY_COMPUTE_ELEMS, "out",
					 kbin_ap_elems(&r.out), 1);
		return KBIN_OK;
	}
	r2 = kbin_same_shape(&r.in0, &r.out, "out", v);
	if (r2 || op == KBIN_COP_COPY || op == KBIN_COP_ACTIVATE ||
	    (op == KBIN_COP_TENSOR_SCALAR && (r.flags & KBIN_COMPUTE_F_IMM)))
		return r2;
	r2 = kbin_compute_ap_check(&r.in1, "in1", KBIN_ONCHIP, g, v);
	if (r2)
		return r2;
	if (op == KBIN_COP_TENSOR_TENSOR)
		return kbin_same_shape(&r.in0, &r.in1, "in1", v);
	if (r.in1.partitions != r.in0.partitions)
		return kbin_cset(v, KBIN_PROG_WHY_COMPUTE_SHAPE, "in1",
				 r.in1.partitions, r.in0.partitions);
	if (kbin_ap_elems(&r.in1) != 1)
		return kbin_cset(v, KBIN_PROG_WHY_COMPUTE_ELEMS, "in1",
				 kbin_ap_elems(&r.in1), 1);
	return KBIN_OK;
}

/**
 * kbin_compute_why() - the text of a compute finding of
 *	kbin_compute_check() (kbin_prog_why() calls it for those).
 * @v: the verdict.
 * @buf: where to write it.
 * @len: bytes of @buf.
 *
 * Return: @buf.
 */
char *kbin_compute_why(const struct kbin_prog_verdict *v, char *buf,
		       unsigned long len)
{
	switch (v->why) {
	case KBIN_PROG_WHY_COMPUTE_OPCODE:
		snprintf(buf, len,
			 "opcode 0x%llx is not an operation of neuronsim's compute encoding (0x%x..0x%x), which the program section's flags declare",
			 v->value, KBIN_COP_FIRST, KBIN_COP_LAST);
		break;
	case KBIN_PROG_WHY_COMPUTE_ENGINE:
		snprintf(buf, len, "%s is not an operation %s runs",
			 kbin_compute_op_str((unsigned int)v->value),
			 kbin_dma_engine_str(v->engine));
		break;
	case KBIN_PROG_WHY_COMPUTE_FIELD:
		snprintf(buf, len, "its %s is 0x%llx; allowed: 0x%llx",
			 v->field, v->value, v->limit);
		break;
	case KBIN_PROG_WHY_COMPUTE_FUNC:
		snprintf(buf, len, "its %s %llu is not below %llu",
			 v->field, v->value, v->limit);
		break;
	case KBIN_PROG_WHY_COMPUTE_UNUSED:
		snprintf(buf, len,
			 "operand %s, which the operation does not read, is not zero",
			 v->field);
		break;
	case KBIN_PROG_WHY_COMPUTE_SPACE:
		snprintf(buf, len,
			 "operand %s is in space %llu; the operation takes it from the spaces of mask 0x%llx (1 << 1 SBUF, 1 << 2 PSUM)",
			 v->field, v->value, v->limit);
		break;
	case KBIN_PROG_WHY_COMPUTE_DTYPE:
		snprintf(buf, len,
			 "operand %s has dtype %llu, which the engines do not cast to and from float32",
			 v->field, v->value);
		break;
	case KBIN_PROG_WHY_COMPUTE_PARTITIONS:
		snprintf(buf, len,
			 "operand %s ends at partition %llu, past the space's %llu (or has none)",
			 v->field, v->value, v->limit);
		break;
	case KBIN_PROG_WHY_COMPUTE_BYTES:
		snprintf(buf, len,
			 "operand %s reaches byte %lld of its partitions, outside [0, %llu)",
			 v->field, (long long)v->value, v->limit);
		break;
	case KBIN_PROG_WHY_COMPUTE_SHAPE:
		snprintf(buf, len,
			 "operand %s has %llu partitions (or counts); the operation needs %llu",
			 v->field, v->value, v->limit);
		break;
	case KBIN_PROG_WHY_COMPUTE_ELEMS:
		snprintf(buf, len,
			 "operand %s has %llu elements per partition; the operation needs %llu",
			 v->field, v->value, v->limit);
		break;
	case KBIN_PROG_WHY_COMPUTE_REG:
		snprintf(buf, len,
			 "its %s is 0x%llx: not a register below %llu (or a predicate of unknown bits)",
			 v->field, v->value, v->limit);
		break;
	case KBIN_PROG_WHY_COMPUTE_DYN:
		snprintf(buf, len,
			 "its run-time offset's %s is %lld (side 1 or 2, zero 0, lo < hi; lo is %lld)",
			 v->field, (long long)v->value, (long long)v->limit);
		break;
	default:
		snprintf(buf, len, "no finding");
		break;
	}
	return buf;
}

/**
 * kbin_compute_elements() - the work of a checked compute instruction:
 *	multiply-accumulates for MATMULT, elements written otherwise.
 * @rec: a record kbin_compute_check() accepted.
 *
 * Return: the count.
 */
__u64 kbin_compute_elements(const __u8 *rec)
{
	struct kbin_compute_record r;

	memcpy(&r, rec, sizeof(r));
	if (r.opcode == KBIN_COP_MATMULT)
		return (__u64)r.in0.partitions * kbin_ap_elems(&r.in0) *
		       kbin_ap_elems(&r.in1);
	return (__u64)r.out.partitions * kbin_ap_elems(&r.out);
}

/* ---- the executor ---- */

struct kbin_rt {
	const struct kbin_compute_mem *mem;
	__u32 *a, *b, *c;
	__u8 *stage;
};

/*
 * Move @n elements of operand @ap's partition @p (relative), from its
 * element @first on (i outer, j inner), between memory and @buf (raw
 * elements of the operand's dtype): runs of consecutive bytes in one
 * call each.
 */
static int kbin_ap_move(const struct kbin_rt *rt,
			const struct kbin_compute_ap *ap, __u32 p, __u64 first,
			__u32 n, __u8 *buf, int write)
{
	__u32 sz = kbin_dma_dtype(ap->dtype)->size;
	__u32 done = 0, run;
	int rc;

	while (done < n) {
		__u64 e = first + done;
		long long i = (long long)(e / ap->num[1]);
		long long j = (long long)(e % ap->num[1]);
		__u32 off = (__u32)((long long)ap->offset +
				    (i * ap->step[0] + j * ap->step[1]) * sz);

		run = 1;
		if (ap->step[1] == 1) {
			run = ap->num[1] - (__u32)j;
			if (run > n - done)
				run = n - done;
		}
		if (write)
			rc = rt->mem->write(rt->mem->ctx, ap->space,
					    ap->partition + p, off,
					    buf + (__u64)done * sz, run * sz);
		else
			rc = rt->mem->read(rt->mem->ctx, ap->space,
					   ap->partition + p, off,
					   buf + (__u64)done * sz, run * sz);
		if (rc)
			return rc;
		done += run;
	}
	return 0;
}

/* @n <= KBIN_NUM_CHUNK elements of @ap's partition @p as float32 words */
static int kbin_ap_load(const struct kbin_rt *rt,
			const struct kbin_compute_ap *ap, __u32 p, __u64 first,
			__u32 n, __u32 *dst)
{
	int rc;

	if (ap->dtype == KBIN_DMA_DTYPE_FLOAT32)
		return kbin_ap_move(rt, ap, p, first, n, (__u8 *)dst, 0);
	rc = kbin_ap_move(rt, ap, p, first, n, rt->stage, 0);
	if (!rc)
		kbin_cast(ap->dtype, KBIN_DMA_DTYPE_FLOAT32, rt->stage, dst, n);
	return rc;
}

static int kbin_ap_store(const struct kbin_rt *rt,
			 const struct kbin_compute_ap *ap, __u32 p, __u64 first,
			 __u32 n, __u32 *src)
{
	if (ap->dtype == KBIN_DMA_DTYPE_FLOAT32)
		return kbin_ap_move(rt, ap, p, first, n, (__u8 *)src, 1);
	kbin_cast(KBIN_DMA_DTYPE_FLOAT32, ap->dtype, src, rt->stage, n);
	return kbin_ap_move(rt, ap, p, first, n, rt->stage, 1);
}

/* MEMSET, COPY, ACTIVATE, TENSOR_TENSOR, TENSOR_SCALAR, REDUCE */
static int kbin_run_vector(const struct kbin_rt *rt,
			   const struct kbin_compute_record *r)
{
	__u64 total = kbin_ap_elems(&r->out), first;
	__u32 p, n, k, s = r->value, acc = 0;
	int rc = 0;

	if (r->opcode == KBIN_COP_REDUCE)
		total = kbin_ap_elems(&r->in0);
	for (p = 0; p < r->out.partitions; p++) {
		if (r->opcode == KBIN_COP_TENSOR_SCALAR &&
		    !(r->flags & KBIN_COMPUTE_F_IMM)) {
			rc = kbin_ap_load(rt, &r->in1, p, 0, 1, &s);
			if (rc)
				return rc;
		}
		for (first = 0; first < total; first += n) {
			n = total - first > KBIN_NUM_CHUNK ?
			    KBIN_NUM_CHUNK : (__u32)(total - first);
			if (r->opcode == KBIN_COP_MEMSET) {
				for (k = 0; k < n; k++)
					rt->a[k] = r->value;
			} else if (r->opcode == KBIN_COP_COPY &&
				   r->in0.dtype != KBIN_DMA_DTYPE_FLOAT32 &&
				   r->in0.dtype == r->out.dtype) {
				/* a copy of the same dtype moves its bits */
				rc = kbin_ap_move(rt, &r->in0, p, first, n,
						  (__u8 *)rt->a, 0);
				if (!rc)
					rc = kbin_ap_move(rt, &r->out, p, first,
							  n, (__u8 *)rt->a, 1);
				if (rc)
					return rc;
				continue;
			} else {
				rc = kbin_ap_load(rt, &r->in0, p, first, n, rt->a);
			}
			if (!rc && r->opcode == KBIN_COP_TENSOR_TENSOR)
				rc = kbin_ap_load(rt, &r->in1, p, first, n, rt->b);
			if (rc)
				return rc;
			KBIN_FPU_BEGIN();
			switch (r->opcode) {
			case KBIN_COP_ACTIVATE:
				kbin_num_act(r->func, rt->a, n, r->value);
				break;
			case KBIN_COP_TENSOR_TENSOR:
				kbin_num_alu(r->func, rt->a, rt->b, n);
				break;
			case KBIN_COP_TENSOR_SCALAR:
				kbin_num_alu_scalar(r->func, rt->a, s, n);
				break;
			case KBIN_COP_REDUCE:
				if (!first && r->func == KBIN_ALU_MAX)
					acc = rt->a[0];
				else if (!first)
					acc = 0;
				acc = kbin_num_reduce(r->func, acc, rt->a, n);
				break;
			default:
				break;
			}
			KBIN_FPU_END();
			if (r->opcode != KBIN_COP_REDUCE)
				rc = kbin_ap_store(rt, &r->out, p, first, n, rt->a);
			if (rc)
				return rc;
			kbin_yield();
		}
		if (r->opcode == KBIN_COP_REDUCE) {
			rc = kbin_ap_store(rt, &r->out, p, 0, 1, &acc);
			if (rc)
				return rc;
		}
	}
	return 0;
}

/* out[m][n] (+)= sum_k in0[k][m] * in1[k][n], a chunk of columns a call */
static int kbin_run_matmult(const struct kbin_rt *rt,
			    const struct kbin_compute_record *r)
{
	__u32 kk = r->in0.partitions, m = (__u32)kbin_ap_elems(&r->in0);
	__u32 n = (__u32)kbin_ap_elems(&r->in1), n0, nc, cap, k, i;
	int acc = !!(r->flags & KBIN_COMPUTE_F_ACCUMULATE);
	int rc;

	for (k = 0; k < kk; k++) {
		rc = kbin_ap_load(rt, &r->in0, k, 0, m, rt->a + k * m);
		if (rc)
			return rc;
	}
	cap = KBIN_COMPUTE_MACS_PER_CALL / (kk * m);
	if (cap > KBIN_COMPUTE_BUF_WORDS / kk)
		cap = KBIN_COMPUTE_BUF_WORDS / kk;
	if (cap > KBIN_COMPUTE_BUF_WORDS / m)
		cap = KBIN_COMPUTE_BUF_WORDS / m;
	if (!cap)
		cap = 1;
	for (n0 = 0; n0 < n; n0 += nc) {
		nc = n - n0 < cap ? n - n0 : cap;
		for (k = 0; k < kk; k++) {
			rc = kbin_ap_load(rt, &r->in1, k, n0, nc, rt->b + k * nc);
			if (rc)
				return rc;
		}
		for (i = 0; acc && i < m; i++) {
			rc = kbin_ap_load(rt, &r->out, i, n0, nc, rt->c + i * nc);
			if (rc)
				return rc;
		}
		KBIN_FPU_BEGIN();
		kbin_num_matmul(rt->c, rt->a, rt->b, kk, m, nc, acc);
		KBIN_FPU_END();
		for (i = 0; i < m; i++) {
			rc = kbin_ap_store(rt, &r->out, i, n0, nc, rt->c + i * nc);
			if (rc)
				return rc;
		}
		kbin_yield();
	}
	return 0;
}

/* out[f][p] = in0[p][f]: the bits move, no arithmetic */
static int kbin_run_transpose(const struct kbin_rt *rt,
			      const struct kbin_compute_record *r)
{
	__u32 pp = r->in0.partitions, f = (__u32)kbin_ap_elems(&r->in0), p, i;
	int rc;

	for (p = 0; p < pp; p++) {
		rc = kbin_ap_load(rt, &r->in0, p, 0, f, rt->a + p * f);
		if (rc)
			return rc;
	}
	for (p = 0; p < pp; p++)
		for (i = 0; i < f; i++)
			rt->c[i * pp + p] = rt->a[p * f + i];
	for (i = 0; i < f; i++) {
		rc = kbin_ap_store(rt, &r->out, i, 0, pp, rt->c + i * pp);
		if (rc)
			return rc;
	}
	return 0;
}

/* REG_LOAD and REG_TEST on the engine's registers @regs */
static int kbin_run_reg(const struct kbin_rt *rt,
			const struct kbin_compute_record *r, __u32 *regs)
{
	__u32 x;
	int rc;

	if (r->opcode == KBIN_COP_REG_TEST) {
		regs[r->func] = kbin_num_cmp(r->reg.cmp, regs[r->reg.src],
					     r->value) ? KBIN_F32_ONE : 0;
		return 0;
	}
	rc = kbin_ap_load(rt, &r->in0, 0, 0, 1, &x);
	if (!rc)
		regs[r->func] = x;
	return rc;
}

/* whether the predicate of @r lets it run on registers @regs */
static int kbin_pred_holds(const struct kbin_compute_record *r,
			   const __u32 *regs)
{
	__u32 x;

	if (!r->pred)
		return 1;
	x = regs[r->pred & KBIN_COMPUTE_PRED_REG] & 0x7fffffffU;
	return (r->pred & KBIN_COMPUTE_PRED_IF) ? x != 0 : x == 0;
}

/**
 * kbin_compute_run() - execute one compute instruction on a NeuronCore's
 *	SBUF and PSUM: the module's engines and the host reference both
 *	run it, so their results are the same bits.
 * @rec: a record kbin_compute_check() accepted for the plan's
 *	generation (the executor relies on its bounds).
 * @mem: the NeuronCore's memory.
 * @regs: the KBIN_COMPUTE_REGS registers of the engine that runs it
 *	(float32 bits; all +0 when a subgraph's execution starts), read
 *	for its predicate and run-time offset, written by REG_LOAD and
 *	REG_TEST.
 * @scratch: KBIN_COMPUTE_SCRATCH_BYTES bytes, 4-byte aligned, the
 *	caller's; nothing in it is kept between calls.
 *
 * An instruction whose predicate does not hold does nothing (its caller
 * still applies its sync header).  Each partition's elements are read,
 * computed and written a chunk of KBIN_NUM_CHUNK elements at a time (a
 * MATMULT: a chunk of output columns), with kbin_yield() between
 * chunks; an output that overlaps an input at other elements sees the
 * chunks written before it (Documentation/compute.rst, "Order").
 *
 * Return: 0; -ERANGE when a run-time offset's register, truncated, is a
 * NaN, an infinity or outside [lo, hi) (nothing is written); or the
 * first negative errno @mem returned (the output may then be partly
 * written).
 */
int kbin_compute_run(const __u8 *rec, const struct kbin_compute_mem *mem,
		     __u32 *regs, void *scratch)
{
	struct kbin_compute_record r;
	struct kbin_rt rt = {
		.mem = mem,
		.a = scratch,
		.b = (__u32 *)scratch + KBIN_COMPUTE_BUF_WORDS,
		.c = (__u32 *)scratch + 2 * KBIN_COMPUTE_BUF_WORDS,
		.stage = (__u8 *)scratch + 12 * KBIN_COMPUTE_BUF_WORDS,
	};
	long long v;

	memcpy(&r, rec, sizeof(r));
	if (!kbin_pred_holds(&r, regs))
		return 0;
	switch (r.opcode) {
	case KBIN_COP_MATMULT:
		return kbin_run_matmult(&rt, &r);
	case KBIN_COP_TRANSPOSE:
		return kbin_run_transpose(&rt, &r);
	case KBIN_COP_REG_LOAD:
	case KBIN_COP_REG_TEST:
		return kbin_run_reg(&rt, &r, regs);
	case KBIN_COP_COPY:
		if (!(r.flags & KBIN_COMPUTE_F_DYN))
			break;
		if (kbin_num_index(regs[r.dyn.reg], &v) ||
		    v < r.dyn.lo || v >= r.dyn.hi)
			return -ERANGE;
		if (r.dyn.side == KBIN_DYN_OUT)
			r.out.offset = (__u32)((long long)r.out.offset +
					       v * r.dyn.step);
		else
			r.in0.offset = (__u32)((long long)r.in0.offset +
					       v * r.dyn.step);
		memset(&r.in1, 0, sizeof(r.in1));
		break;
	default:
		break;
	}
	return kbin_run_vector(&rt, &r);
}
