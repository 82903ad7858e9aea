// SPDX-License-Identifier: GPL-2.0
/*
 * compute_test.c - host tests of neuronsim's compute encoding
 * (kmod/plan/kbin_compute.c): every rule of kbin_compute_check() by its
 * why and field; kbin_compute_run() on an SBUF and a PSUM in host memory
 * for every operation, bit-exact against plain C float where the
 * operation is exact (small integers and quarters, so that any order of
 * accumulation gives the same bits); an errno of the memory callbacks
 * ends the operation; and the plan checker's refusal of a compute plan
 * whose record breaks a rule (kbin_check_plan(), the function LOAD runs)
 * with the test library's compute plan (tl_compute.h), whose host
 * reference is checked against a plain C computation here too.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tl_f32.h"
#include "kselftest_harness.h"
#include "kbin_check.h"
#include "kbin_compute.h"
#include "kbin_gen.h"
#include "tl_compute.h"

#define PE	KBIN_DMA_ENGINE_PE
#define ACT	KBIN_DMA_ENGINE_ACT
#define POOL	KBIN_DMA_ENGINE_POOL
#define DVE	KBIN_DMA_ENGINE_DVE
#define SB	KBIN_SPACE_SBUF
#define PS	KBIN_SPACE_PSUM
#define F32	KBIN_DMA_DTYPE_FLOAT32


/* ---- kbin_compute_check(): every rule ---- */

FIXTURE(rules) {
	const struct kbin_gen *g;
	struct kbin_compute_record r;
	struct kbin_prog_verdict v;
};

FIXTURE_SETUP(rules)
{
	self->g = kbin_gen_by_number(KBIN_TARGET_TRN2);
	ASSERT_NE(NULL, self->g);
	memset(&self->v, 0, sizeof(self->v));
}

FIXTURE_TEARDOWN(rules)
{
}

/* a valid record of @op: 4 partitions of 8 float32, in SBUF (PE: PSUM out) */
static void base(struct kbin_compute_record *r, unsigned int op)
{
	struct kbin_compute_ap a = TLC_ROWS(SB, 0, 4, 8);
	struct kbin_compute_ap o = TLC_ROWS(SB, 1024, 4, 8);
	struct kbin_compute_ap s = TLC_ROWS(SB, 2048, 4, 1);
	struct kbin_compute_ap pm = TLC_ROWS(PS, 0, 8, 8);
	struct kbin_compute_ap pt = TLC_ROWS(PS, 0, 8, 4);
	uint8_t *rec = (uint8_t *)r;

	switch (op) {
	case KBIN_COP_MEMSET:
		tlc_rec(rec, op, 0, 0, -1, 0, -1, &o, NULL, NULL, tl_f2u(1.0f));
		break;
	case KBIN_COP_COPY:
		tlc_rec(rec, op, 0, 0, -1, 0, -1, &o, &a, NULL, 0);
		break;
	case KBIN_COP_ACTIVATE:
		tlc_rec(rec, op, KBIN_ACT_RELU, 0, -1, 0, -1, &o, &a, NULL,
			tl_f2u(1.0f));
		break;
	case KBIN_COP_TENSOR_TENSOR:
		tlc_rec(rec, op, KBIN_ALU_ADD, 0, -1, 0, -1, &o, &a, &a, 0);
		break;
	case KBIN_COP_TENSOR_SCALAR:
		tlc_rec(rec, op, KBIN_ALU_ADD, 0, -1, 0, -1, &o, &a, &s, 0);
		break;
	case KBIN_COP_REDUCE:
		tlc_rec(rec, op, KBIN_ALU_ADD, 0, -1, 0, -1, &s, &a, NULL, 0);
		break;
	case KBIN_COP_MATMULT:
		tlc_rec(rec, op, 0, 0, -1, 0, -1, &pm, &a, &a, 0);
		break;
	case KBIN_COP_TRANSPOSE:
		tlc_rec(rec, op, 0, 0, -1, 0, -1, &pt, &a, NULL, 0);
		break;
	case KBIN_COP_REG_LOAD: {
		struct kbin_compute_ap one = TLC_ROWS(SB, 8, 1, 1);

		tlc_rec(rec, op, 3, 0, -1, 0, -1, NULL, &one, NULL, 0);
		break;
	}
	case KBIN_COP_REG_TEST:
		tlc_rec(rec, op, 4, 0, -1, 0, -1, NULL, NULL, NULL, 0);
		r->reg.src = 3;
		r->reg.cmp = KBIN_CMP_GT;
		break;
	}
}

/* a COPY of 1 x 8 float32 whose in0 moves by 32 bytes a unit of reg 2 */
static void dyn_copy(struct kbin_compute_record *r, int32_t lo, int32_t hi)
{
	struct kbin_compute_ap a = TLC_ROWS(SB, 0, 1, 8);
	struct kbin_compute_ap o = TLC_ROWS(SB, 1024, 1, 8);

	tlc_rec((uint8_t *)r, KBIN_COP_COPY, 0, KBIN_COMPUTE_F_DYN, -1, 0, -1,
		&o, &a, NULL, 0);
	r->dyn.reg = 2;
	r->dyn.side = KBIN_DYN_IN0;
	r->dyn.step = 32;
	r->dyn.lo = lo;
	r->dyn.hi = hi;
}

#define CHECK(eng_) \
	kbin_compute_check((const uint8_t *)&self->r, (eng_), self->g, &self->v)

/* expect the rule @why on @field */
#define REFUSED(eng_, _why, _field) do {					\
	char _t[256];								\
	ASSERT_EQ(KBIN_ERR_PROG_COMPUTE, CHECK(eng_));				\
	EXPECT_EQ((unsigned int)(_why), self->v.why);				\
	EXPECT_STREQ((_field), self->v.field);					\
	self->v.engine = (eng_);						\
	kbin_compute_why(&self->v, _t, sizeof(_t));				\
	EXPECT_NE(0, (int)strlen(_t));						\
	EXPECT_STRNE("no finding", _t);						\
} while (0)

TEST_F(rules, every_operation_valid_on_its_engines_only)
{
	unsigned int op, e;

	for (op = KBIN_COP_FIRST; op <= KBIN_COP_LAST; op++) {
		base(&self->r, op);
		for (e = PE; e <= KBIN_DMA_ENGINE_SP; e++) {
			if (kbin_compute_engines(op) & (1U << e)) {
				EXPECT_EQ(KBIN_OK, CHECK(e))
					TH_LOG("%s on %u", kbin_compute_op_str(op), e);
			} else {
				REFUSED(e, KBIN_PROG_WHY_COMPUTE_ENGINE, "opcode");
			}
		}
	}
	/* the engine table of the encoding */
	EXPECT_EQ(1U << PE, kbin_compute_engines(KBIN_COP_MATMULT));
	EXPECT_EQ(1U << PE, kbin_compute_engines(KBIN_COP_TRANSPOSE));
	EXPECT_EQ(1U << ACT, kbin_compute_engines(KBIN_COP_ACTIVATE));
	EXPECT_EQ((1U << ACT) | (1U << POOL) | (1U << DVE),
		  kbin_compute_engines(KBIN_COP_COPY));
	EXPECT_EQ((1U << POOL) | (1U << DVE),
		  kbin_compute_engines(KBIN_COP_REDUCE));
}

TEST_F(rules, opcode)
{
	base(&self->r, KBIN_COP_COPY);
	self->r.opcode = KBIN_COP_LAST + 1;
	REFUSED(DVE, KBIN_PROG_WHY_COMPUTE_OPCODE, "opcode");
	self->r.opcode = 0x41;
	REFUSED(DVE, KBIN_PROG_WHY_COMPUTE_OPCODE, "opcode");
}

TEST_F(rules, field)
{
	base(&self->r, KBIN_COP_COPY);
	self->r.words = 15;
	REFUSED(DVE, KBIN_PROG_WHY_COMPUTE_FIELD, "words");
	base(&self->r, KBIN_COP_COPY);
	self->r.zero = 1;
	REFUSED(DVE, KBIN_PROG_WHY_COMPUTE_FIELD, "zero");
	base(&self->r, KBIN_COP_COPY);
	self->r.pad = 1;
	REFUSED(DVE, KBIN_PROG_WHY_COMPUTE_FIELD, "pad");
	/* ACCUMULATE is MATMULT's, IMM TENSOR_SCALAR's */
	base(&self->r, KBIN_COP_TENSOR_TENSOR);
	self->r.flags = KBIN_COMPUTE_F_ACCUMULATE;
	REFUSED(DVE, KBIN_PROG_WHY_COMPUTE_FIELD, "flags");
	base(&self->r, KBIN_COP_MATMULT);
	self->r.flags = KBIN_COMPUTE_F_IMM;
	REFUSED(PE, KBIN_PROG_WHY_COMPUTE_FIELD, "flags");
	self->r.flags = KBIN_COMPUTE_F_ACCUMULATE;
	EXPECT_EQ(KBIN_OK, CHECK(PE));
}

TEST_F(rules, func)
{
	base(&self->r, KBIN_COP_ACTIVATE);
	self->r.func = KBIN_ACT_NUM;
	REFUSED(ACT, KBIN_PROG_WHY_COMPUTE_FUNC, "func");
	base(&self->r, KBIN_COP_TENSOR_TENSOR);
	self->r.func = KBIN_ALU_NUM;
	REFUSED(DVE, KBIN_PROG_WHY_COMPUTE_FUNC, "func");
	base(&self->r, KBIN_COP_REDUCE);
	self->r.func = KBIN_ALU_NUM;
	REFUSED(POOL, KBIN_PROG_WHY_COMPUTE_FUNC, "func");
	/* the operations without a function take 0 */
	base(&self->r, KBIN_COP_COPY);
	self->r.func = 1;
	REFUSED(DVE, KBIN_PROG_WHY_COMPUTE_FUNC, "func");
	base(&self->r, KBIN_COP_MATMULT);
	self->r.func = 1;
	REFUSED(PE, KBIN_PROG_WHY_COMPUTE_FUNC, "func");
}

TEST_F(rules, unused_operand)
{
	base(&self->r, KBIN_COP_MEMSET);
	self->r.in0.num[0] = 1;
	REFUSED(DVE, KBIN_PROG_WHY_COMPUTE_UNUSED, "in0");
	base(&self->r, KBIN_COP_COPY);
	self->r.in1.partitions = 1;
	REFUSED(DVE, KBIN_PROG_WHY_COMPUTE_UNUSED, "in1");
	/* COPY has no value either; MEMSET's value is in1's first word */
	base(&self->r, KBIN_COP_COPY);
	self->r.value = 1;
	REFUSED(DVE, KBIN_PROG_WHY_COMPUTE_UNUSED, "in1");
	base(&self->r, KBIN_COP_MEMSET);
	self->r.in1.num[1] = 1;
	REFUSED(DVE, KBIN_PROG_WHY_COMPUTE_UNUSED, "in1");
}

TEST_F(rules, space)
{
	base(&self->r, KBIN_COP_MATMULT);
	self->r.out.space = SB;
	REFUSED(PE, KBIN_PROG_WHY_COMPUTE_SPACE, "out");
	EXPECT_EQ(SB, self->v.value);
	EXPECT_EQ(1U << PS, self->v.limit);
	base(&self->r, KBIN_COP_MATMULT);
	self->r.in1.space = PS;
	REFUSED(PE, KBIN_PROG_WHY_COMPUTE_SPACE, "in1");
	base(&self->r, KBIN_COP_TRANSPOSE);
	self->r.in0.space = PS;
	REFUSED(PE, KBIN_PROG_WHY_COMPUTE_SPACE, "in0");
	base(&self->r, KBIN_COP_COPY);
	self->r.in0.space = KBIN_SPACE_NONE;
	REFUSED(DVE, KBIN_PROG_WHY_COMPUTE_SPACE, "in0");
	base(&self->r, KBIN_COP_COPY);
	self->r.out.space = 3;
	REFUSED(DVE, KBIN_PROG_WHY_COMPUTE_SPACE, "out");
	/* a space byte past the mask's bits (the fuzzer's find) */
	self->r.out.space = 66;
	REFUSED(DVE, KBIN_PROG_WHY_COMPUTE_SPACE, "out");
	self->r.out.space = 255;
	REFUSED(DVE, KBIN_PROG_WHY_COMPUTE_SPACE, "out");
	/* the vector operations take PSUM as well */
	base(&self->r, KBIN_COP_COPY);
	self->r.in0.space = PS;
	EXPECT_EQ(KBIN_OK, CHECK(DVE));
}

TEST_F(rules, dtype)
{
	base(&self->r, KBIN_COP_COPY);
	self->r.in0.dtype = 0;
	REFUSED(DVE, KBIN_PROG_WHY_COMPUTE_DTYPE, "in0");
	base(&self->r, KBIN_COP_COPY);
	self->r.out.dtype = KBIN_DMA_DTYPE_FLOAT64;	/* 8 bytes */
	REFUSED(DVE, KBIN_PROG_WHY_COMPUTE_DTYPE, "out");
	base(&self->r, KBIN_COP_COPY);
	self->r.out.dtype = KBIN_DMA_DTYPE_MAX + 1;
	REFUSED(DVE, KBIN_PROG_WHY_COMPUTE_DTYPE, "out");
	base(&self->r, KBIN_COP_COPY);
	self->r.out.dtype = KBIN_DMA_DTYPE_BFLOAT16;
	EXPECT_EQ(KBIN_OK, CHECK(DVE));
}

TEST_F(rules, partitions)
{
	base(&self->r, KBIN_COP_COPY);
	self->r.in0.partition = 126;
	self->r.out.partition = 126;
	REFUSED(DVE, KBIN_PROG_WHY_COMPUTE_PARTITIONS, "out");
	EXPECT_EQ(130U, self->v.value);
	EXPECT_EQ(self->g->sbuf_partitions, self->v.limit);
	base(&self->r, KBIN_COP_COPY);
	self->r.in0.partitions = 0;
	REFUSED(DVE, KBIN_PROG_WHY_COMPUTE_PARTITIONS, "in0");
	/* PSUM has its own partitions */
	base(&self->r, KBIN_COP_TRANSPOSE);
	self->r.out.partition = kbin_gen_psum_partitions(self->g) - 4;
	REFUSED(PE, KBIN_PROG_WHY_COMPUTE_PARTITIONS, "out");
}

TEST_F(rules, bytes)
{
	uint32_t psz = self->g->sbuf_partition_size;

	base(&self->r, KBIN_COP_COPY);
	self->r.out.offset = psz - 28;	/* 8 float32: 4 bytes past */
	REFUSED(DVE, KBIN_PROG_WHY_COMPUTE_BYTES, "out");
	EXPECT_EQ(psz + 4, self->v.value);
	EXPECT_EQ(psz, self->v.limit);
	self->r.out.offset = psz - 32;
	EXPECT_EQ(KBIN_OK, CHECK(DVE));
	/* a negative step before byte 0 */
	base(&self->r, KBIN_COP_COPY);
	self->r.in0.step[1] = -1;
	REFUSED(DVE, KBIN_PROG_WHY_COMPUTE_BYTES, "in0");
	self->r.in0.offset = 28;
	EXPECT_EQ(KBIN_OK, CHECK(DVE));
	/* the i step counts */
	base(&self->r, KBIN_COP_COPY);
	self->r.in0.num[0] = 2;
	self->r.in0.num[1] = 4;
	self->r.in0.step[0] = (int16_t)(psz / 4);
	REFUSED(DVE, KBIN_PROG_WHY_COMPUTE_BYTES, "in0");
	/* PSUM: banks * 2 KiB per partition */
	base(&self->r, KBIN_COP_MATMULT);
	self->r.out.offset = self->g->psum_banks * KBIN_PSUM_BANK_SIZE - 16;
	REFUSED(PE, KBIN_PROG_WHY_COMPUTE_BYTES, "out");
}

TEST_F(rules, shape)
{
	base(&self->r, KBIN_COP_COPY);
	self->r.out.num[0] = 0;
	REFUSED(DVE, KBIN_PROG_WHY_COMPUTE_SHAPE, "out");
	base(&self->r, KBIN_COP_COPY);
	self->r.out.partitions = 3;
	REFUSED(DVE, KBIN_PROG_WHY_COMPUTE_SHAPE, "out");
	base(&self->r, KBIN_COP_TENSOR_TENSOR);
	self->r.in1.partitions = 2;
	REFUSED(DVE, KBIN_PROG_WHY_COMPUTE_SHAPE, "in1");
	base(&self->r, KBIN_COP_TENSOR_SCALAR);
	self->r.in1.partitions = 2;
	REFUSED(DVE, KBIN_PROG_WHY_COMPUTE_SHAPE, "in1");
	base(&self->r, KBIN_COP_REDUCE);
	self->r.out.partitions = 2;
	REFUSED(DVE, KBIN_PROG_WHY_COMPUTE_SHAPE, "out");
	/* MATMULT: in1's partitions are in0's, out's are in0's elements */
	base(&self->r, KBIN_COP_MATMULT);
	self->r.in1.partitions = 2;
	REFUSED(PE, KBIN_PROG_WHY_COMPUTE_SHAPE, "in1");
	base(&self->r, KBIN_COP_MATMULT);
	self->r.out.partitions = 4;
	REFUSED(PE, KBIN_PROG_WHY_COMPUTE_SHAPE, "out");
	base(&self->r, KBIN_COP_TRANSPOSE);
	self->r.out.partitions = 4;
	REFUSED(PE, KBIN_PROG_WHY_COMPUTE_SHAPE, "out");
}

TEST_F(rules, elems)
{
	base(&self->r, KBIN_COP_COPY);
	self->r.out.num[1] = 7;
	REFUSED(DVE, KBIN_PROG_WHY_COMPUTE_ELEMS, "out");
	EXPECT_EQ(7U, self->v.value);
	EXPECT_EQ(8U, self->v.limit);
	base(&self->r, KBIN_COP_TENSOR_TENSOR);
	self->r.in1.num[1] = 4;
	REFUSED(DVE, KBIN_PROG_WHY_COMPUTE_ELEMS, "in1");
	base(&self->r, KBIN_COP_TENSOR_SCALAR);
	self->r.in1.num[1] = 2;
	REFUSED(DVE, KBIN_PROG_WHY_COMPUTE_ELEMS, "in1");
	base(&self->r, KBIN_COP_REDUCE);
	self->r.out.num[1] = 2;
	REFUSED(DVE, KBIN_PROG_WHY_COMPUTE_ELEMS, "out");
	base(&self->r, KBIN_COP_MATMULT);
	self->r.out.num[1] = 4;
	REFUSED(PE, KBIN_PROG_WHY_COMPUTE_ELEMS, "out");
	/* a MATMULT's n is at most a PSUM bank's partition */
	base(&self->r, KBIN_COP_MATMULT);
	self->r.in1.num[1] = KBIN_COMPUTE_MATMUL_MAX_N + 1;
	self->r.out.num[1] = KBIN_COMPUTE_MATMUL_MAX_N + 1;
	REFUSED(PE, KBIN_PROG_WHY_COMPUTE_ELEMS, "in1");
	base(&self->r, KBIN_COP_TRANSPOSE);
	self->r.out.num[1] = 5;
	REFUSED(PE, KBIN_PROG_WHY_COMPUTE_ELEMS, "out");
}

TEST_F(rules, registers_and_predicates)
{
	base(&self->r, KBIN_COP_REG_LOAD);
	EXPECT_EQ(KBIN_OK, CHECK(PE));
	self->r.func = KBIN_COMPUTE_REGS;
	REFUSED(ACT, KBIN_PROG_WHY_COMPUTE_REG, "func");
	base(&self->r, KBIN_COP_REG_LOAD);
	self->r.in0.num[1] = 2;
	REFUSED(ACT, KBIN_PROG_WHY_COMPUTE_ELEMS, "in0");
	base(&self->r, KBIN_COP_REG_LOAD);
	self->r.in0.partitions = 2;
	REFUSED(ACT, KBIN_PROG_WHY_COMPUTE_SHAPE, "in0");
	base(&self->r, KBIN_COP_REG_LOAD);
	self->r.out.num[0] = 1;
	REFUSED(ACT, KBIN_PROG_WHY_COMPUTE_UNUSED, "out");
	base(&self->r, KBIN_COP_REG_LOAD);
	self->r.value = 1;
	REFUSED(ACT, KBIN_PROG_WHY_COMPUTE_UNUSED, "in1");
	base(&self->r, KBIN_COP_REG_LOAD);
	self->r.flags = KBIN_COMPUTE_F_IMM;
	REFUSED(ACT, KBIN_PROG_WHY_COMPUTE_FIELD, "flags");

	base(&self->r, KBIN_COP_REG_TEST);
	EXPECT_EQ(KBIN_OK, CHECK(DVE));
	self->r.reg.src = KBIN_COMPUTE_REGS;
	REFUSED(DVE, KBIN_PROG_WHY_COMPUTE_REG, "reg.src");
	base(&self->r, KBIN_COP_REG_TEST);
	self->r.reg.cmp = KBIN_CMP_NUM;
	REFUSED(DVE, KBIN_PROG_WHY_COMPUTE_FUNC, "reg.cmp");
	base(&self->r, KBIN_COP_REG_TEST);
	self->r.reg.zero[13] = 1;
	REFUSED(DVE, KBIN_PROG_WHY_COMPUTE_FIELD, "reg.zero");
	base(&self->r, KBIN_COP_REG_TEST);
	self->r.in0.partitions = 1;
	REFUSED(DVE, KBIN_PROG_WHY_COMPUTE_UNUSED, "in0");
	base(&self->r, KBIN_COP_REG_TEST);
	self->r.in1.num[1] = 1;
	REFUSED(DVE, KBIN_PROG_WHY_COMPUTE_UNUSED, "in1");

	/* a predicate: IF or UNLESS, one register */
	base(&self->r, KBIN_COP_TENSOR_TENSOR);
	self->r.pred = KBIN_COMPUTE_PRED_IF | 15;
	EXPECT_EQ(KBIN_OK, CHECK(DVE));
	self->r.pred = KBIN_COMPUTE_PRED_UNLESS | 0;
	EXPECT_EQ(KBIN_OK, CHECK(DVE));
	self->r.pred = KBIN_COMPUTE_PRED_IF | KBIN_COMPUTE_PRED_UNLESS;
	REFUSED(DVE, KBIN_PROG_WHY_COMPUTE_REG, "pred");
	self->r.pred = 3;
	REFUSED(DVE, KBIN_PROG_WHY_COMPUTE_REG, "pred");
	self->r.pred = KBIN_COMPUTE_PRED_IF | 0x20;
	REFUSED(DVE, KBIN_PROG_WHY_COMPUTE_REG, "pred");
}

TEST_F(rules, run_time_offset)
{
	dyn_copy(&self->r, 0, 4);
	EXPECT_EQ(KBIN_OK, CHECK(POOL));
	/* the moved operand inside SBUF at both ends */
	dyn_copy(&self->r, -1, 4);
	REFUSED(POOL, KBIN_PROG_WHY_COMPUTE_BYTES, "in0");
	dyn_copy(&self->r, 0, (int32_t)(self->g->sbuf_partition_size / 32 + 1));
	REFUSED(POOL, KBIN_PROG_WHY_COMPUTE_BYTES, "in0");
	dyn_copy(&self->r, 0, (int32_t)(self->g->sbuf_partition_size / 32));
	EXPECT_EQ(KBIN_OK, CHECK(POOL));
	dyn_copy(&self->r, 2, 2);
	REFUSED(POOL, KBIN_PROG_WHY_COMPUTE_DYN, "dyn.hi");
	dyn_copy(&self->r, 0, 4);
	self->r.dyn.side = 3;
	REFUSED(POOL, KBIN_PROG_WHY_COMPUTE_DYN, "dyn.side");
	dyn_copy(&self->r, 0, 4);
	self->r.dyn.zero = 1;
	REFUSED(POOL, KBIN_PROG_WHY_COMPUTE_DYN, "dyn.zero");
	dyn_copy(&self->r, 0, 4);
	self->r.dyn.reg = KBIN_COMPUTE_REGS;
	REFUSED(POOL, KBIN_PROG_WHY_COMPUTE_REG, "dyn.reg");
	/* the out side, and the other operand's shape */
	dyn_copy(&self->r, 0, 4);
	self->r.dyn.side = KBIN_DYN_OUT;
	self->r.dyn.step = -1024;
	REFUSED(POOL, KBIN_PROG_WHY_COMPUTE_BYTES, "out");
	self->r.dyn.step = 32;
	EXPECT_EQ(KBIN_OK, CHECK(POOL));
	self->r.out.num[1] = 7;
	REFUSED(POOL, KBIN_PROG_WHY_COMPUTE_ELEMS, "out");
	/* only COPY takes one */
	base(&self->r, KBIN_COP_TENSOR_SCALAR);
	self->r.flags = KBIN_COMPUTE_F_DYN;
	REFUSED(DVE, KBIN_PROG_WHY_COMPUTE_FIELD, "flags");
}

/* ---- kbin_compute_run() on host memory ---- */

#define HP	16U		/* partitions of each host space */
#define HB	8192U		/* bytes per partition */

FIXTURE(run) {
	uint8_t sbuf[HP][HB];
	uint8_t psum[HP][HB];
	void *scratch;
	struct kbin_compute_mem mem;
	uint8_t rec[KBIN_PROG_RECORD_SIZE];
	uint32_t regs[KBIN_COMPUTE_REGS];
	int fail;	/* the callbacks' errno, 0 for none */
	unsigned int calls;
};

static uint8_t *hat(void *ctx, unsigned int space, uint32_t p, uint32_t off,
		    uint32_t len)
{
	FIXTURE_DATA(run) *self = ctx;

	if (p >= HP || off + len > HB)
		abort();
	return space == PS ? &self->psum[p][off] : &self->sbuf[p][off];
}

static int hread(void *ctx, unsigned int space, uint32_t p, uint32_t off,
		 void *buf, uint32_t len)
{
	FIXTURE_DATA(run) *self = ctx;

	self->calls++;
	if (self->fail)
		return self->fail;
	memcpy(buf, hat(ctx, space, p, off, len), len);
	return 0;
}

static int hwrite(void *ctx, unsigned int space, uint32_t p, uint32_t off,
		  const void *buf, uint32_t len)
{
	FIXTURE_DATA(run) *self = ctx;

	self->calls++;
	if (self->fail)
		return self->fail;
	memcpy(hat(ctx, space, p, off, len), buf, len);
	return 0;
}

FIXTURE_SETUP(run)
{
	self->scratch = malloc(KBIN_COMPUTE_SCRATCH_BYTES);
	ASSERT_NE(NULL, self->scratch);
	memset(self->sbuf, 0, sizeof(self->sbuf));
	memset(self->psum, 0, sizeof(self->psum));
	self->mem.read = hread;
	self->mem.write = hwrite;
	self->mem.ctx = self;
	self->fail = 0;
	memset(self->regs, 0, sizeof(self->regs));
}

FIXTURE_TEARDOWN(run)
{
	free(self->scratch);
}

static float F(FIXTURE_DATA(run) *self, unsigned int space, uint32_t p,
	       uint32_t off)
{
	float f;

	memcpy(&f, hat(self, space, p, off, 4), 4);
	return f;
}

static void setF(FIXTURE_DATA(run) *self, unsigned int space, uint32_t p,
		 uint32_t off, float f)
{
	memcpy(hat(self, space, p, off, 4), &f, 4);
}

/* partition p element i of SBUF at @off: small quarters, some negative */
static float val(uint32_t p, uint32_t i, uint32_t salt)
{
	return (float)((int)((p * 7U + i * 3U + salt) % 23U) - 11) * 0.25f;
}

static void fill(FIXTURE_DATA(run) *self, unsigned int space, uint32_t off,
		 uint32_t parts, uint32_t n, uint32_t salt)
{
	uint32_t p, i;

	for (p = 0; p < parts; p++)
		for (i = 0; i < n; i++)
			setF(self, space, p, off + 4 * i, val(p, i, salt));
}

#define RUN() kbin_compute_run(self->rec, &self->mem, self->regs, self->scratch)
#define EXPECT_BITS(want, got) \
	EXPECT_EQ(tl_f2u(want), tl_f2u(got)) TH_LOG("want %g got %g", (double)(want), (double)(got))

TEST_F(run, memset)
{
	struct kbin_compute_ap o = TLC_ROWS(SB, 64, 3, 5);
	uint32_t p, i;

	tlc_rec(self->rec, KBIN_COP_MEMSET, 0, 0, -1, 0, -1, &o, NULL, NULL,
		tl_f2u(-1.5f));
	ASSERT_EQ(0, RUN());
	for (p = 0; p < 3; p++)
		for (i = 0; i < 5; i++)
			EXPECT_BITS(-1.5f, F(self, SB, p, 64 + 4 * i));
	/* nothing past it */
	EXPECT_EQ(0U, tl_f2u(F(self, SB, 3, 64)));
	EXPECT_EQ(0U, tl_f2u(F(self, SB, 0, 84)));
}

TEST_F(run, copy_strided_and_cast)
{
	/* in: 2 partitions, 3 x 4 elements with a row step of 8 */
	struct kbin_compute_ap in = tlc_ap(SB, F32, 0, 0, 2, 3, 8, 4);
	struct kbin_compute_ap out = TLC_ROWS(PS, 0, 2, 12);
	struct kbin_compute_ap bf = tlc_ap(SB, KBIN_DMA_DTYPE_BFLOAT16, 4096,
					   0, 2, 1, 0, 12);
	uint32_t p, i, j;

	fill(self, SB, 0, 2, 24, 1);
	tlc_rec(self->rec, KBIN_COP_COPY, 0, 0, -1, 0, -1, &out, &in, NULL, 0);
	ASSERT_EQ(0, RUN());
	for (p = 0; p < 2; p++)
		for (i = 0; i < 3; i++)
			for (j = 0; j < 4; j++)
				EXPECT_BITS(val(p, i * 8 + j, 1),
					    F(self, PS, p, (i * 4 + j) * 4));
	/* float32 -> bfloat16: quarters are exact, the upper half */
	tlc_rec(self->rec, KBIN_COP_COPY, 0, 0, -1, 0, -1, &bf, &out, NULL, 0);
	ASSERT_EQ(0, RUN());
	for (p = 0; p < 2; p++)
		for (i = 0; i < 12; i++) {
			uint16_t h;

			memcpy(&h, &self->sbuf[p][4096 + 2 * i], 2);
			EXPECT_EQ(tl_f2u(F(self, PS, p, 4 * i)) >> 16, h);
		}
}

TEST_F(run, activate_identity_and_relu)
{
	struct kbin_compute_ap in = TLC_ROWS(SB, 0, 4, 10);
	struct kbin_compute_ap out = TLC_ROWS(SB, 1024, 4, 10);
	uint32_t p, i;

	fill(self, SB, 0, 4, 10, 2);
	tlc_rec(self->rec, KBIN_COP_ACTIVATE, KBIN_ACT_IDENTITY, 0, -1, 0, -1,
		&out, &in, NULL, tl_f2u(2.0f));
	ASSERT_EQ(0, RUN());
	for (p = 0; p < 4; p++)
		for (i = 0; i < 10; i++)
			EXPECT_BITS(val(p, i, 2) * 2.0f, F(self, SB, p, 1024 + 4 * i));
	tlc_rec(self->rec, KBIN_COP_ACTIVATE, KBIN_ACT_RELU, 0, -1, 0, -1,
		&out, &in, NULL, tl_f2u(-0.5f));
	ASSERT_EQ(0, RUN());
	for (p = 0; p < 4; p++)
		for (i = 0; i < 10; i++) {
			float x = val(p, i, 2) * -0.5f;

			EXPECT_BITS(x > 0 ? x : 0.0f, F(self, SB, p, 1024 + 4 * i));
		}
}

static float alu(unsigned int op, float a, float b)
{
	switch (op) {
	case KBIN_ALU_ADD: return a + b;
	case KBIN_ALU_SUBTRACT: return a - b;
	case KBIN_ALU_MULTIPLY: return a * b;
	case KBIN_ALU_DIVIDE: return a / b;
	default: return a > b ? a : b;
	}
}

TEST_F(run, tensor_tensor_every_op)
{
	struct kbin_compute_ap a = TLC_ROWS(SB, 0, 3, 9);
	struct kbin_compute_ap b = TLC_ROWS(PS, 0, 3, 9);
	struct kbin_compute_ap o = TLC_ROWS(SB, 2048, 3, 9);
	uint32_t op, p, i;

	fill(self, SB, 0, 3, 9, 3);
	fill(self, PS, 0, 3, 9, 5);
	/* no zero divisor: 0.25 where val() is 0 */
	for (p = 0; p < 3; p++)
		for (i = 0; i < 9; i++)
			if (F(self, PS, p, 4 * i) == 0.0f)
				setF(self, PS, p, 4 * i, 0.25f);
	for (op = 0; op < KBIN_ALU_NUM; op++) {
		tlc_rec(self->rec, KBIN_COP_TENSOR_TENSOR, op, 0, -1, 0, -1,
			&o, &a, &b, 0);
		ASSERT_EQ(0, RUN());
		for (p = 0; p < 3; p++)
			for (i = 0; i < 9; i++)
				EXPECT_BITS(alu(op, F(self, SB, p, 4 * i),
						F(self, PS, p, 4 * i)),
					    F(self, SB, p, 2048 + 4 * i));
	}
}

TEST_F(run, tensor_scalar_imm_and_per_partition)
{
	struct kbin_compute_ap a = TLC_ROWS(SB, 0, 4, 6);
	struct kbin_compute_ap s = TLC_ROWS(SB, 512, 4, 1);
	struct kbin_compute_ap o = TLC_ROWS(SB, 1024, 4, 6);
	uint32_t p, i;

	fill(self, SB, 0, 4, 6, 4);
	tlc_rec(self->rec, KBIN_COP_TENSOR_SCALAR, KBIN_ALU_SUBTRACT,
		KBIN_COMPUTE_F_IMM, -1, 0, -1, &o, &a, NULL, tl_f2u(0.75f));
	ASSERT_EQ(0, RUN());
	for (p = 0; p < 4; p++)
		for (i = 0; i < 6; i++)
			EXPECT_BITS(val(p, i, 4) - 0.75f, F(self, SB, p, 1024 + 4 * i));
	for (p = 0; p < 4; p++)
		setF(self, SB, p, 512, (float)p - 1.5f);
	tlc_rec(self->rec, KBIN_COP_TENSOR_SCALAR, KBIN_ALU_MULTIPLY, 0, -1, 0,
		-1, &o, &a, &s, 0);
	ASSERT_EQ(0, RUN());
	for (p = 0; p < 4; p++)
		for (i = 0; i < 6; i++)
			EXPECT_BITS(val(p, i, 4) * ((float)p - 1.5f),
				    F(self, SB, p, 1024 + 4 * i));
}

TEST_F(run, reduce_add_and_max)
{
	/* 2 x 7 elements per partition, rows 16 apart */
	struct kbin_compute_ap a = tlc_ap(SB, F32, 0, 0, 5, 2, 16, 7);
	struct kbin_compute_ap o = TLC_ROWS(PS, 100, 5, 1);
	uint32_t p, i, j;

	fill(self, SB, 0, 5, 32, 6);
	tlc_rec(self->rec, KBIN_COP_REDUCE, KBIN_ALU_ADD, 0, -1, 0, -1, &o, &a,
		NULL, 0);
	ASSERT_EQ(0, RUN());
	for (p = 0; p < 5; p++) {
		float acc = 0.0f;

		for (i = 0; i < 2; i++)
			for (j = 0; j < 7; j++)
				acc += val(p, i * 16 + j, 6);
		EXPECT_BITS(acc, F(self, PS, p, 100));
	}
	tlc_rec(self->rec, KBIN_COP_REDUCE, KBIN_ALU_MAX, 0, -1, 0, -1, &o, &a,
		NULL, 0);
	ASSERT_EQ(0, RUN());
	for (p = 0; p < 5; p++) {
		float m = val(p, 0, 6);

		for (i = 0; i < 2; i++)
			for (j = 0; j < 7; j++)
				m = val(p, i * 16 + j, 6) > m ? val(p, i * 16 + j, 6) : m;
		EXPECT_BITS(m, F(self, PS, p, 100));
	}
}

TEST_F(run, matmult_with_and_without_accumulate)
{
	enum { K = 6, M = 5, N = 11 };
	struct kbin_compute_ap a = TLC_ROWS(SB, 0, K, M);
	struct kbin_compute_ap b = TLC_ROWS(SB, 256, K, N);
	struct kbin_compute_ap o = TLC_ROWS(PS, 64, M, N);
	float want[M][N];
	uint32_t k, m, n;

	fill(self, SB, 0, K, M, 7);
	fill(self, SB, 256, K, N, 8);
	for (m = 0; m < M; m++)
		for (n = 0; n < N; n++)
			setF(self, PS, m, 64 + 4 * n, 1000.0f);	/* overwritten */
	tlc_rec(self->rec, KBIN_COP_MATMULT, 0, 0, -1, 0, -1, &o, &a, &b, 0);
	ASSERT_EQ(0, RUN());
	for (m = 0; m < M; m++)
		for (n = 0; n < N; n++) {
			want[m][n] = 0.0f;
			for (k = 0; k < K; k++)
				want[m][n] += F(self, SB, k, 4 * m) *
					      F(self, SB, k, 256 + 4 * n);
			EXPECT_BITS(want[m][n], F(self, PS, m, 64 + 4 * n));
		}
	tlc_rec(self->rec, KBIN_COP_MATMULT, 0, KBIN_COMPUTE_F_ACCUMULATE, -1,
		0, -1, &o, &a, &b, 0);
	ASSERT_EQ(0, RUN());
	for (m = 0; m < M; m++)
		for (n = 0; n < N; n++)
			EXPECT_BITS(want[m][n] * 2.0f, F(self, PS, m, 64 + 4 * n));
	EXPECT_EQ((uint64_t)K * M * N, kbin_compute_elements(self->rec));
}

TEST_F(run, transpose)
{
	struct kbin_compute_ap a = TLC_ROWS(SB, 0, 3, 7);
	struct kbin_compute_ap o = TLC_ROWS(PS, 2048, 7, 3);
	uint32_t p, f;

	fill(self, SB, 0, 3, 7, 9);
	tlc_rec(self->rec, KBIN_COP_TRANSPOSE, 0, 0, -1, 0, -1, &o, &a, NULL, 0);
	ASSERT_EQ(0, RUN());
	for (p = 0; p < 3; p++)
		for (f = 0; f < 7; f++)
			EXPECT_EQ(tl_f2u(F(self, SB, p, 4 * f)),
				  tl_f2u(F(self, PS, f, 2048 + 4 * p)));
	EXPECT_EQ(21U, kbin_compute_elements(self->rec));
}

TEST_F(run, registers_predicates_and_run_time_offset)
{
	struct kbin_compute_record *r = (struct kbin_compute_record *)self->rec;
	struct kbin_compute_ap one = TLC_ROWS(SB, 4000, 1, 1);
	struct kbin_compute_ap o = TLC_ROWS(SB, 2048, 1, 8);
	uint32_t i;

	fill(self, SB, 0, 1, 64, 5);
	/* reg 1 = 2.75 from SBUF; reg 2 = (reg 1 > 2.5) */
	setF(self, SB, 0, 4000, 2.75f);
	tlc_rec(self->rec, KBIN_COP_REG_LOAD, 1, 0, -1, 0, -1, NULL, &one,
		NULL, 0);
	ASSERT_EQ(0, RUN());
	EXPECT_EQ(tl_f2u(2.75f), self->regs[1]);
	tlc_rec(self->rec, KBIN_COP_REG_TEST, 2, 0, -1, 0, -1, NULL, NULL,
		NULL, tl_f2u(2.5f));
	r->reg.src = 1;
	r->reg.cmp = KBIN_CMP_GT;
	ASSERT_EQ(0, RUN());
	EXPECT_EQ(tl_f2u(1.0f), self->regs[2]);
	r->reg.cmp = KBIN_CMP_LE;
	ASSERT_EQ(0, RUN());
	EXPECT_EQ(0U, self->regs[2]);

	/* a predicated MEMSET runs only when its register says so */
	tlc_rec(self->rec, KBIN_COP_MEMSET, 0, 0, -1, 0, -1, &o, NULL, NULL,
		tl_f2u(7.0f));
	r->pred = KBIN_COMPUTE_PRED_IF | 2;
	ASSERT_EQ(0, RUN());
	EXPECT_BITS(0.0f, F(self, SB, 0, 2048));
	r->pred = KBIN_COMPUTE_PRED_UNLESS | 2;
	ASSERT_EQ(0, RUN());
	EXPECT_BITS(7.0f, F(self, SB, 0, 2048));

	/* a gather: in0 moves by trunc(2.75) = 2 rows of 8 */
	dyn_copy(r, 0, 8);
	r->out = o;
	r->dyn.reg = 1;
	ASSERT_EQ(0, RUN());
	for (i = 0; i < 8; i++)
		EXPECT_BITS(val(0, 16 + i, 5), F(self, SB, 0, 2048 + 4 * i));
	/* negative values truncate toward zero: -0.5 is row 0 */
	self->regs[1] = tl_f2u(-0.5f);
	ASSERT_EQ(0, RUN());
	EXPECT_BITS(val(0, 0, 5), F(self, SB, 0, 2048));
	/* outside [lo, hi), NaN, infinity: -ERANGE, nothing written */
	self->calls = 0;
	self->regs[1] = tl_f2u(8.0f);
	EXPECT_EQ(-ERANGE, RUN());
	self->regs[1] = tl_f2u(-1.0f);
	EXPECT_EQ(-ERANGE, RUN());
	self->regs[1] = 0x7fc00000U;
	EXPECT_EQ(-ERANGE, RUN());
	self->regs[1] = 0x7f800000U;
	EXPECT_EQ(-ERANGE, RUN());
	EXPECT_EQ(0U, self->calls);
	/* the out side moves instead */
	r->dyn.side = KBIN_DYN_OUT;
	self->regs[1] = tl_f2u(3.0f);
	ASSERT_EQ(0, RUN());
	EXPECT_BITS(val(0, 0, 5), F(self, SB, 0, 2048 + 3 * 32));
}

TEST(comparisons_and_indices)
{
	static const struct { float a, b; unsigned int holds; } c[] = {
		/* bit k set: KBIN_CMP k holds (eq ne lt le gt ge) */
		{ 1.0f, 2.0f, 0x0e }, { 2.0f, 1.0f, 0x32 }, { 1.0f, 1.0f, 0x29 },
		{ 0.0f, -0.0f, 0x29 }, { -3.0f, -2.0f, 0x0e },
		{ -1e-45f, 0.0f, 0x0e }, { 1e38f, -1e38f, 0x32 },
	};
	unsigned int k, op;
	long long v;

	for (k = 0; k < sizeof(c) / sizeof(c[0]); k++) {
		for (op = 0; op < KBIN_CMP_NUM; op++) {
			EXPECT_EQ(!!(c[k].holds & (1U << op)),
				  kbin_num_cmp(op, tl_f2u(c[k].a), tl_f2u(c[k].b))) {
				TH_LOG("%g %s %g", (double)c[k].a, kbin_cmp_str(op),
				       (double)c[k].b);
			}
		}
	}
	for (op = 0; op < KBIN_CMP_NUM; op++) {
		EXPECT_EQ(op == KBIN_CMP_NE, kbin_num_cmp(op, 0x7fc00000U, 0));
		EXPECT_EQ(op == KBIN_CMP_NE, kbin_num_cmp(op, 0, 0xffc00001U));
		EXPECT_EQ((int)op, kbin_cmp_parse(kbin_cmp_str(op)));
	}
	EXPECT_EQ(-EINVAL, kbin_cmp_parse("gte"));
	/* every float32 of magnitude below 2^31 truncates as C does */
	for (uint64_t x = 0; x < 0x100000000ULL; x += 4099) {
		float f = tl_u2f((uint32_t)x);

		if (f != f || f >= 2147483648.0f || f <= -2147483648.0f) {
			EXPECT_EQ(-ERANGE, kbin_num_index((uint32_t)x, &v));
			continue;
		}
		ASSERT_EQ(0, kbin_num_index((uint32_t)x, &v));
		ASSERT_EQ((long long)f, v) TH_LOG("%a", (double)f);
	}
}

TEST_F(run, memory_errno_ends_the_operation)
{
	struct kbin_compute_ap in = TLC_ROWS(SB, 0, 4, 8);
	struct kbin_compute_ap out = TLC_ROWS(SB, 1024, 4, 8);

	tlc_rec(self->rec, KBIN_COP_COPY, 0, 0, -1, 0, -1, &out, &in, NULL, 0);
	self->fail = -EDQUOT;
	self->calls = 0;
	EXPECT_EQ(-EDQUOT, RUN());
	EXPECT_EQ(1U, self->calls);
}

/* ---- the plan checker on the compute plan ---- */

TEST(compute_plan_checked_and_refused)
{
	struct kbin_check_result res;
	void *buf = NULL;
	size_t len = 0;

	ASSERT_EQ(0, tl_compute_plan(KBIN_TARGET_TRN2, TLC_OK, &buf, &len));
	EXPECT_EQ(KBIN_OK, kbin_check_plan(buf, len, &res))
		TH_LOG("%s", res.err.msg);
	free(buf);
	ASSERT_EQ(0, tl_compute_plan(KBIN_TARGET_TRN2, TLC_BROKEN_SPACE, &buf,
				     &len));
	ASSERT_EQ(KBIN_ERR_PROG_COMPUTE, kbin_check_plan(buf, len, &res))
		TH_LOG("%s", res.err.msg);
	EXPECT_EQ(0, res.err.subgraph);
	EXPECT_EQ(KBIN_FIELD_PROG_PE, res.err.field);
	EXPECT_EQ(1, res.item);
	EXPECT_EQ(KBIN_PROG_WHY_COMPUTE_SPACE, res.prog.why);
	EXPECT_NE(NULL, strstr(res.err.msg, "pe instruction 1"))
		TH_LOG("%s", res.err.msg);
	EXPECT_NE(NULL, strstr(res.err.msg, "opcode 0xe6"))
		TH_LOG("%s", res.err.msg);
	EXPECT_NE(NULL, strstr(res.err.msg, "operand out"))
		TH_LOG("%s", res.err.msg);
	free(buf);
}

TEST(compute_plan_reference)
{
	const struct kbin_gen *g = kbin_gen_by_number(KBIN_TARGET_TRN2);
	uint8_t in[TLC_IN_SIZE], out[TLC_OUT_SIZE];
	uint8_t *psum = malloc(g->psum_size);
	uint32_t pbytes = g->psum_banks * KBIN_PSUM_BANK_SIZE;
	float a[TLC_K][TLC_M], b[TLC_K][TLC_N], c, mx, got;
	uint32_t k, m, n;

	ASSERT_NE(NULL, psum);
	tl_compute_input(in);
	ASSERT_EQ(0, tl_compute_ref(KBIN_TARGET_TRN2, in, out, psum));
	for (k = 0; k < TLC_K; k++) {
		for (m = 0; m < TLC_M; m++)
			a[k][m] = tl_u2f(((uint32_t *)in)[k * (TLC_M + TLC_N) + m]) * 2.0f;
		for (n = 0; n < TLC_N; n++) {
			float x = tl_u2f(((uint32_t *)in)[k * (TLC_M + TLC_N) + TLC_M + n]);

			b[k][n] = x > 0 ? x : 0.0f;
		}
	}
	for (m = 0; m < TLC_M; m++) {
		mx = 0.0f;
		for (n = 0; n < TLC_N; n++) {
			c = 0.0f;
			for (k = 0; k < TLC_K; k++)
				c += a[k][m] * b[k][n];
			c = c + c;
			memcpy(&got, out + m * TLC_OUT_ROW + 4 * n, 4);
			EXPECT_BITS(c, got);
			memcpy(&got, psum + (size_t)m * pbytes + 4 * n, 4);
			EXPECT_BITS(c, got);
			mx = n == 0 || c > mx ? c : mx;
		}
		memcpy(&got, out + m * TLC_OUT_ROW + 4 * TLC_N, 4);
		EXPECT_BITS(mx, got);
		for (k = 0; k < TLC_K; k++) {
			memcpy(&got, psum + (size_t)m * pbytes + TLC_PSUM_T + 4 * k, 4);
			EXPECT_BITS(a[k][m], got);
		}
	}
	free(psum);
}

TEST_HARNESS_MAIN
