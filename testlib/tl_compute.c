// SPDX-License-Identifier: GPL-2.0
/*
 * tl_compute.c - the compute plan of the test library and its host
 * reference (tl_compute.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kbin_compute.h"
#include "kbin_gen.h"
#include "kbin_writer.h"
#include "tl_compute.h"
#include "tl_rec.h"

#define PE	KBIN_DMA_ENGINE_PE
#define ACT	KBIN_DMA_ENGINE_ACT
#define DVE	KBIN_DMA_ENGINE_DVE
#define SP	KBIN_DMA_ENGINE_SP
#define SB	KBIN_SPACE_SBUF
#define PS	KBIN_SPACE_PSUM

#define F32_ONE		0x3f800000U
#define F32_TWO		0x40000000U

struct kbin_compute_ap tlc_ap(unsigned int space, unsigned int dtype,
			      uint32_t off, unsigned int part,
			      unsigned int parts, unsigned int n0, int s0,
			      unsigned int n1)
{
	struct kbin_compute_ap ap;

	memset(&ap, 0, sizeof(ap));
	ap.offset = off;
	ap.space = (uint8_t)space;
	ap.dtype = (uint8_t)dtype;
	ap.partition = (uint8_t)part;
	ap.partitions = (uint8_t)parts;
	ap.step[0] = (int16_t)s0;
	ap.step[1] = 1;
	ap.num[0] = (uint16_t)n0;
	ap.num[1] = (uint16_t)n1;
	return ap;
}

void tlc_rec(uint8_t *rec, unsigned int op, unsigned int func,
	     unsigned int flags, int wait_sem, uint32_t wait_value,
	     int update_sem, const struct kbin_compute_ap *out,
	     const struct kbin_compute_ap *in0,
	     const struct kbin_compute_ap *in1, uint32_t value)
{
	struct kbin_compute_record r;

	memset(&r, 0, sizeof(r));
	r.opcode = (uint8_t)op;
	r.words = KBIN_PROG_RECORD_SIZE / 4;
	if (wait_sem >= 0) {
		r.wait_mode = KBIN_PROG_WAIT_GE;
		r.wait_sem = (uint8_t)wait_sem;
		r.wait_value = wait_value;
	}
	if (update_sem >= 0) {
		r.update_mode = KBIN_PROG_UPDATE_INC;
		r.update_sem = (uint8_t)update_sem;
	}
	r.func = (uint8_t)func;
	r.flags = (uint8_t)flags;
	if (out)
		r.out = *out;
	if (in0)
		r.in0 = *in0;
	if (in1)
		r.in1 = *in1;
	else
		r.value = value;
	memcpy(rec, &r, sizeof(r));
}

static struct tlc_instr tlc_instrs[TLC_NCOMPUTE];

/* the compute instructions of the compute plan, in the order they run */
static void tlc_fill(void)
{
	struct kbin_compute_ap a = TLC_ROWS(SB, 0, TLC_K, TLC_M);
	struct kbin_compute_ap b = TLC_ROWS(SB, TLC_M * 4, TLC_K, TLC_N);
	struct kbin_compute_ap a2 = TLC_ROWS(SB, TLC_SB_A2, TLC_K, TLC_M);
	struct kbin_compute_ap br = TLC_ROWS(SB, TLC_SB_BR, TLC_K, TLC_N);
	struct kbin_compute_ap pt = TLC_ROWS(PS, TLC_PSUM_T, TLC_M, TLC_K);
	struct kbin_compute_ap pc = TLC_ROWS(PS, 0, TLC_M, TLC_N);
	struct kbin_compute_ap sc = TLC_ROWS(SB, TLC_SB_C, TLC_M, TLC_N);
	struct kbin_compute_ap mx = TLC_ROWS(SB, TLC_SB_C + TLC_N * 4, TLC_M, 1);
	struct tlc_instr *t = tlc_instrs;

	*t = (struct tlc_instr){ DVE, 0, { 0 } };
	tlc_rec(t++->rec, KBIN_COP_TENSOR_SCALAR, KBIN_ALU_MULTIPLY,
		KBIN_COMPUTE_F_IMM, 24, 1, 1, &a2, &a, NULL, F32_TWO);
	*t = (struct tlc_instr){ ACT, 0, { 0 } };
	tlc_rec(t++->rec, KBIN_COP_ACTIVATE, KBIN_ACT_RELU, 0, 24, 1, 2, &br,
		&b, NULL, F32_ONE);
	*t = (struct tlc_instr){ PE, 0, { 0 } };
	tlc_rec(t++->rec, KBIN_COP_TRANSPOSE, 0, 0, 1, 1, 3, &pt, &a2, NULL, 0);
	*t = (struct tlc_instr){ PE, 1, { 0 } };
	tlc_rec(t++->rec, KBIN_COP_MATMULT, 0, 0, 2, 1, 3, &pc, &a2, &br, 0);
	*t = (struct tlc_instr){ PE, 2, { 0 } };
	tlc_rec(t++->rec, KBIN_COP_MATMULT, 0, KBIN_COMPUTE_F_ACCUMULATE, -1, 0,
		3, &pc, &a2, &br, 0);
	*t = (struct tlc_instr){ DVE, 1, { 0 } };
	tlc_rec(t++->rec, KBIN_COP_COPY, 0, 0, 3, 3, -1, &sc, &pc, NULL, 0);
	*t = (struct tlc_instr){ DVE, 2, { 0 } };
	tlc_rec(t->rec, KBIN_COP_REDUCE, KBIN_ALU_MAX, 0, -1, 0, 4, &mx, &sc,
		NULL, 0);
}

/**
 * tl_compute_instrs() - the compute instructions of the compute plan.
 * @n: set to their number, TLC_NCOMPUTE.
 *
 * Return: static storage, in the order they run (tl_compute.h).
 */
const struct tlc_instr *tl_compute_instrs(unsigned int *n)
{
	tlc_fill();
	*n = TLC_NCOMPUTE;
	return tlc_instrs;
}

/* the records of @engine's stream, compute instructions at their index */
static int tlc_add_stream(struct kbin_writer *w, uint32_t engine, int broken)
{
	uint8_t recs[3][KBIN_PROG_RECORD_SIZE];
	unsigned int i, n = 0;

	for (i = 0; i < TLC_NCOMPUTE; i++) {
		if (tlc_instrs[i].engine != engine)
			continue;
		memcpy(recs[tlc_instrs[i].index], tlc_instrs[i].rec,
		       KBIN_PROG_RECORD_SIZE);
		if (broken == TLC_BROKEN_SPACE && engine == PE &&
		    tlc_instrs[i].index == 1)
			recs[1][16 + 4] = KBIN_SPACE_SBUF;	/* out.space */
		if (broken == TLC_RANGE && engine == DVE &&
		    tlc_instrs[i].index == 1) {
			struct kbin_compute_record r;

			memcpy(&r, recs[1], sizeof(r));
			r.flags = KBIN_COMPUTE_F_DYN;
			r.dyn = (struct kbin_compute_dyn){ .reg = 0,
				.side = KBIN_DYN_IN0, .step = 4, .lo = 1, .hi = 2 };
			memcpy(recs[1], &r, sizeof(r));
		}
		n++;
	}
	return kbin_writer_add_prog(w, 0, engine, recs,
				    (uint64_t)n * KBIN_PROG_RECORD_SIZE);
}

/* the DMA queue, its two blocks and SP's stream */
static int tlc_add_dma(struct kbin_writer *w, const struct kbin_gen *g)
{
	uint32_t sz_in[2] = { TLC_ROW, TLC_K }, sz_out[2] = { TLC_OUT_ROW, TLC_M };
	uint64_t st_in[2] = { 1, TLC_ROW }, st_out[2] = { 1, TLC_OUT_ROW };
	uint64_t st_sb[2] = { 1, g->sbuf_partition_stride };
	struct kbin_dma_block b = { .queue = 0, .semaphore = 24 };
	struct kbin_dma_desc d = { .op = KBIN_DMA_OP_COPY, .num_tiling_dims = 1 };
	uint8_t sp[3][KBIN_PROG_RECORD_SIZE];
	struct kbin_prog_sync x = { .opcode = KBIN_PROG_OP_TRIGGER };
	int e;

	e = TL_QUEUE(w, .name = "qSPIO0", .type = KBIN_DMA_QUEUE_IN,
		     .num_queues = 1, .nsem = 2, .sem = { 24, 25 },
		     .fabric_path = "main");
	d.from = tl_side(TL_IO_IN, KBIN_DMA_DTYPE_FLOAT32, 0, 2, sz_in, st_in);
	d.to = tl_side(TL_IO_SB, KBIN_DMA_DTYPE_FLOAT32, 0, 2, sz_in, st_sb);
	e |= kbin_writer_add_dma_block(w, 0, &b, "compute-in", &d, 1);
	d.from = tl_side(TL_IO_SB, KBIN_DMA_DTYPE_FLOAT32, TLC_SB_C, 2, sz_out,
			 st_sb);
	d.to = tl_side(TL_IO_OUT, KBIN_DMA_DTYPE_FLOAT32, 0, 2, sz_out, st_out);
	b.id = 1;
	b.sem_index = 1;
	b.semaphore = 25;
	e |= kbin_writer_add_dma_block(w, 0, &b, "compute-out", &d, 1);
	kbin_prog_encode(sp[0], &x, "qSPIO0");
	kbin_prog_encode(sp[2], &x, "qSPIO0");
	x = (struct kbin_prog_sync){ .opcode = KBIN_PROG_OP_WAIT,
		.wait_mode = KBIN_PROG_WAIT_GE, .wait_sem = 4, .wait_value = 1 };
	kbin_prog_encode(sp[1], &x, NULL);
	return e | kbin_writer_add_prog(w, 0, SP, sp, sizeof(sp));
}

/**
 * tl_compute_plan() - the compute plan (tl_compute.h) for a generation.
 * @gen: enum kbin_target.
 * @broken: enum tlc_broken.
 * @buf: set to the plan (free() it).
 * @len: set to its length.
 *
 * Return: 0, -EINVAL (a step failed), -ENOMEM.
 */
int tl_compute_plan(uint32_t gen, int broken, void **buf, size_t *len)
{
	const struct kbin_gen *g = kbin_gen_by_number(gen);
	struct tl_io io = {
		.gen = gen, .size = TLC_VAR_SIZE, .align = 64,
		.dtype = "float32", .d0 = TLC_VAR_SIZE / 4, .d1 = 1,
	};
	struct kbin_writer *w;
	int e = 0;

	if (!g)
		return -EINVAL;
	tlc_fill();
	io.sb_size = g->sbuf_window_size;
	w = tl_io_plan(&io, &e);
	if (!w)
		return -ENOMEM;
	e |= tlc_add_dma(w, g);
	e |= tlc_add_stream(w, PE, broken);
	e |= tlc_add_stream(w, ACT, broken);
	e |= tlc_add_stream(w, DVE, broken);
	e |= kbin_writer_set_prog_flags(w, KBIN_PROG_F_COMPUTE);
	if (!e)
		e = kbin_writer_finish(w, buf, len);
	kbin_writer_free(w);
	return e ? -EINVAL : 0;
}

/**
 * tl_compute_input() - the compute plan's input0: TLC_IN_SIZE bytes of
 *	float32 multiples of 0.25 between -4 and 4 (some negative for relu).
 * @in: TLC_IN_SIZE bytes, written.
 */
void tl_compute_input(uint8_t *in)
{
	unsigned int i;

	for (i = 0; i < TLC_IN_SIZE / 4; i++) {
		float f = (float)((int)(i * 37U % 33U) - 16) * 0.25f;

		memcpy(in + 4 * i, &f, 4);
	}
}

/* a NeuronCore's SBUF and PSUM in host memory */
struct tlc_mem {
	const struct kbin_gen *g;
	uint8_t *sbuf;
	uint8_t *psum;
};

static uint8_t *tlc_at(struct tlc_mem *m, unsigned int space, uint32_t p,
		       uint32_t off)
{
	if (space == KBIN_SPACE_PSUM)
		return m->psum + (size_t)p * m->g->psum_banks *
		       KBIN_PSUM_BANK_SIZE + off;
	return m->sbuf + (size_t)p * m->g->sbuf_partition_size + off;
}

static int tlc_read(void *ctx, unsigned int space, uint32_t p, uint32_t off,
		    void *buf, uint32_t len)
{
	memcpy(buf, tlc_at(ctx, space, p, off), len);
	return 0;
}

static int tlc_write(void *ctx, unsigned int space, uint32_t p, uint32_t off,
		     const void *buf, uint32_t len)
{
	memcpy(tlc_at(ctx, space, p, off), buf, len);
	return 0;
}

/**
 * tl_compute_ref() - what one execution of the compute plan leaves on a
 *	device: its DMA blocks as plain copies and its compute instructions
 *	run by kbin_compute_run() on host memory, in the order they run.
 * @gen: enum kbin_target.
 * @in: input0, TLC_IN_SIZE bytes.
 * @out: output0, TLC_OUT_SIZE bytes, written.
 * @psum: the NeuronCore's PSUM window, psum_size bytes, written (it
 *	starts zero, as a released NeuronCore's does).
 *
 * Return: 0, -EINVAL (no such generation), -ENOMEM, or an errno of
 * kbin_compute_run().
 */
int tl_compute_ref(uint32_t gen, const uint8_t *in, uint8_t *out,
		   uint8_t *psum)
{
	struct tlc_mem m = { .g = kbin_gen_by_number(gen), .psum = psum };
	struct kbin_compute_mem mem = {
		.read = tlc_read, .write = tlc_write, .ctx = &m,
	};
	uint32_t regs[KBIN_COMPUTE_REGS] = { 0 };	/* no register is used */
	void *scratch = NULL;
	unsigned int i;
	int ret = -ENOMEM;

	if (!m.g)
		return -EINVAL;
	tlc_fill();
	memset(psum, 0, m.g->psum_size);
	m.sbuf = calloc(m.g->sbuf_partitions, m.g->sbuf_partition_size);
	scratch = malloc(KBIN_COMPUTE_SCRATCH_BYTES);
	if (!m.sbuf || !scratch)
		goto out;
	for (i = 0; i < TLC_K; i++)
		memcpy(tlc_at(&m, KBIN_SPACE_SBUF, i, 0), in + i * TLC_ROW,
		       TLC_ROW);
	for (i = 0; i < TLC_NCOMPUTE; i++) {
		ret = kbin_compute_run(tlc_instrs[i].rec, &mem, regs, scratch);
		if (ret)
			goto out;
	}
	for (i = 0; i < TLC_M; i++)
		memcpy(out + i * TLC_OUT_ROW,
		       tlc_at(&m, KBIN_SPACE_SBUF, i, TLC_SB_C), TLC_OUT_ROW);
out:
	free(m.sbuf);
	free(scratch);
	return ret;
}
