// SPDX-License-Identifier: GPL-2.0
/*
 * prog_ref.c - the host reference of a compute plan (prog_ref.h,
 * Documentation/execute.rst, "The host reference of a compute plan").
 *
 * The replay gives the order in which every instruction and block of a
 * subgraph ended; this walks that order and makes each one's effect
 * then: a block moves its bytes by dma_ref_run_block(), a compute
 * instruction of neuronsim's encoding runs kbin_compute_run() on the
 * NeuronCore's SBUF (the window in the image) and PSUM (a host array).
 * A program whose waits order every conflicting pair (the compiler's,
 * Documentation/compiler-passes.rst) has one result, whatever the
 * engines' timing; this is it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kbin_compute.h"
#include "kbin_dma.h"
#include "kbin_gen.h"
#include "kbin_prog.h"
#include "prog_ref.h"
#include "prog_replay.h"

/**
 * prog_ref_sbuf_addr() - the device address of SBUF byte @off of
 *	partition @p of NeuronCore @core: its window (Documentation/uapi.rst).
 * @g: the plan's generation.
 * @core: the NeuronCore.
 * @p: the partition.
 * @off: the byte in it.
 *
 * Return: PROG_REF_SBUF_BASE + @core * window + @p * stride + @off.
 */
uint64_t prog_ref_sbuf_addr(const struct kbin_gen *g, uint32_t core,
			    uint32_t p, uint32_t off)
{
	return PROG_REF_SBUF_BASE + (uint64_t)core * g->sbuf_window_size +
	       (uint64_t)p * g->sbuf_partition_stride + off;
}

/**
 * prog_ref_psum() - where PSUM byte @off of partition @p of NeuronCore
 *	@core is on the host: the one place that maps PSUM.
 * @psum: the host arrays, g->psum_size bytes per NeuronCore, core by core.
 * @g: the plan's generation.
 * @core: the NeuronCore.
 * @p: the partition.
 * @off: the byte in it (banks one after the other).
 *
 * Return: the byte.
 */
uint8_t *prog_ref_psum(uint8_t *psum, const struct kbin_gen *g,
		       uint32_t core, uint32_t p, uint32_t off)
{
	uint64_t part = (uint64_t)g->psum_banks * KBIN_PSUM_BANK_SIZE;

	return psum + (uint64_t)core * g->psum_size + p * part + off;
}

/* one NeuronCore's memory, as kbin_compute_run() reaches it */
struct pr_core {
	struct dma_ref_mem *m;
	const struct kbin_gen *g;
	uint8_t *psum;
	uint32_t core;
};

static int pr_read(void *ctx, unsigned int space, __u32 p, __u32 off,
		   void *buf, __u32 len)
{
	struct pr_core *c = ctx;

	if (space == KBIN_SPACE_PSUM)
		memcpy(buf, prog_ref_psum(c->psum, c->g, c->core, p, off), len);
	else
		dma_ref_mem_read(c->m, prog_ref_sbuf_addr(c->g, c->core, p, off),
				 buf, len);
	return 0;
}

static int pr_write(void *ctx, unsigned int space, __u32 p, __u32 off,
		    const void *buf, __u32 len)
{
	struct pr_core *c = ctx;

	if (space == KBIN_SPACE_PSUM) {
		memcpy(prog_ref_psum(c->psum, c->g, c->core, p, off), buf, len);
		return 0;
	}
	return dma_ref_mem_write(c->m, prog_ref_sbuf_addr(c->g, c->core, p, off),
				 buf, len);
}

/* dma_ref's address callback for subgraph @sg */
struct pr_addr {
	prog_ref_addr_fn fn;
	void *ctx;
	uint32_t sg;
};

static int pr_addr_one(void *ctx, uint32_t var_id, uint64_t *pa)
{
	struct pr_addr *a = ctx;

	return a->fn(a->ctx, a->sg, var_id, pa);
}

/* subgraph @s of replay @rp, on NeuronCore @s */
static int pr_sg(const struct kbin_view *v, const struct prog_replay_sg *rs,
		 uint32_t s, struct pr_core *c, struct pr_addr *pa,
		 void *scratch, struct prog_ref_stats *st)
{
	const struct kbin_compute_mem mem = {
		.read = pr_read, .write = pr_write, .ctx = c,
	};
	struct kbin_dma_sg_view dv;
	struct kbin_prog_sg_view pv;
	int compute = !!(v->prog->flags & KBIN_PROG_F_COMPUTE);
	/* each engine's registers, +0 when the subgraph starts */
	uint32_t regs[KBIN_PROG_ENGINES][KBIN_COMPUTE_REGS] = { { 0 } };
	int ret = 0;

	if (kbin_view_dma_sg(v, s, &dv) || kbin_view_prog_sg(v, s, &pv))
		return -EINVAL;
	pa->sg = s;
	c->core = s;
	for (uint32_t k = 0; k < rs->nends && !ret; k++) {
		const struct prog_replay_end *e = &rs->ends[k];

		st->fail_sg = s;
		st->fail_engine = e->engine;
		st->fail_index = e->index;
		if (e->block) {
			struct dma_ref_stats ds = { 0 };

			ret = dma_ref_run_block(c->m, &dv, e->index, pr_addr_one,
						pa, &ds);
			st->blocks++;
			st->bytes += ds.bytes;
			continue;
		}
		if (!compute ||
		    pv.sync[e->engine - 1][e->index].cls != KBIN_PROG_CLASS_COMPUTE)
			continue;
		ret = kbin_compute_run(pv.records[e->engine - 1] +
				       (uint64_t)e->index * KBIN_PROG_RECORD_SIZE,
				       &mem, regs[e->engine - 1], scratch);
		st->compute++;
	}
	return ret;
}

/**
 * prog_ref_flat_addr() - a prog_ref_addr_fn for a host run without a
 *	device: the flat layout of prog_ref.h (vars > 0 of a subgraph at
 *	prog_ref_flat_dram(), var 0 at the NeuronCore's SBUF window).
 * @ctx: the plan's struct kbin_gen (kbin_gen_target() of its target_gen).
 * @sg: the subgraph (NeuronCore @sg).
 * @var_id: the var.
 * @pa: out: its address.
 *
 * Return: 0.
 */
int prog_ref_flat_addr(void *ctx, uint32_t sg, uint32_t var_id, uint64_t *pa)
{
	*pa = var_id ? prog_ref_flat_dram(var_id) :
	      prog_ref_sbuf_addr(ctx, sg, 0, 0);
	return 0;
}

/**
 * prog_ref_run() - execute the program of a checked plan on a memory
 *	image: every subgraph on its own NeuronCore (subgraph N on core N),
 *	from PSUM all zero.
 * @v: a view from kbin_read() of a plan with a program; compute
 *	instructions run only when its flags say KBIN_PROG_F_COMPUTE
 *	(opaque compute changes nothing).
 * @m: the image: the vars' bytes at the addresses @addr gives, SBUF in
 *	the windows; blocks and compute read and write it.
 * @addr: the address of each var of each subgraph.
 * @ctx: passed to @addr.
 * @st: out: what ran, and where a failure is.
 *
 * The effects happen in the order the replay (prog_replay_plan()) ended
 * the instructions and blocks, subgraph by subgraph.  A subgraph that
 * deadlocks runs what ended before.
 *
 * Return: 0; -ENODATA no program; -EINVAL a bad view; -ENOMEM; or the
 * first error of a block (dma_ref_run_block()) or a compute instruction
 * (kbin_compute_run()), @st saying which.
 */
int prog_ref_run(const struct kbin_view *v, struct dma_ref_mem *m,
		 prog_ref_addr_fn addr, void *ctx, struct prog_ref_stats *st)
{
	struct prog_replay_opts ro = { 0 };
	struct prog_replay *rp = NULL;
	struct pr_addr pa = { .fn = addr, .ctx = ctx };
	struct pr_core c = { .m = m };
	void *scratch = NULL;
	int ret;

	memset(st, 0, sizeof(*st));
	if (!v || !v->hdr)
		return -EINVAL;
	if (!v->prog)
		return -ENODATA;
	c.g = kbin_gen_target(v->hdr->target_gen);
	if (!c.g)
		return -EINVAL;
	ret = prog_replay_plan(v, &ro, &rp);
	if (ret)
		return ret;
	st->finished = rp->finished;
	st->end_ns = rp->end_ns;
	c.psum = calloc(rp->nsg ? rp->nsg : 1, c.g->psum_size);
	scratch = malloc(KBIN_COMPUTE_SCRATCH_BYTES);
	if (!c.psum || !scratch)
		ret = -ENOMEM;
	for (uint32_t s = 0; !ret && s < rp->nsg; s++)
		ret = pr_sg(v, &rp->sg[s], s, &c, &pa, scratch, st);
	free(scratch);
	free(c.psum);
	prog_replay_free(rp);
	return ret;
}

static void pr_ap(FILE *out, const char *name, const struct kbin_compute_ap *ap)
{
	const struct kbin_dma_dtype_info *t = kbin_dma_dtype(ap->dtype);

	fprintf(out, " %s=%s[%u..%u]+%u %s {%ux%d, %ux%d}", name,
		ap->space == KBIN_SPACE_PSUM ? "psum" : "sbuf", ap->partition,
		ap->partition + ap->partitions - 1, ap->offset,
		t ? t->name : "?", ap->num[0], ap->step[0], ap->num[1],
		ap->step[1]);
}

/**
 * prog_ref_print() - a program as text, one line per instruction: the
 *	golden form of the compiler's programs (userspace/tests/golden/).
 * @out: where.
 * @v: a checked plan with a program.
 *
 * Per subgraph and stream, "ENGINE INDEX: OPERATION", then the wait
 * ("wait S>=V") and update ("inc S") of the sync header, then for a
 * trigger its queue and block, for a compute record of neuronsim's
 * encoding its function, flags and operands (space[first..last
 * partition]+byte offset, dtype, {num x step, num x step}).
 *
 * Return: 0; -ENODATA no program; -EINVAL a bad view.
 */
int prog_ref_print(FILE *out, const struct kbin_view *v)
{
	int compute;

	if (!v || !v->hdr)
		return -EINVAL;
	if (!v->prog)
		return -ENODATA;
	compute = !!(v->prog->flags & KBIN_PROG_F_COMPUTE);
	fprintf(out, "program flags 0x%x\n", v->prog->flags);
	for (uint32_t s = 0; s < v->num_subgraphs; s++) {
		struct kbin_prog_sg_view pv;
		struct kbin_dma_sg_view dv;

		if (kbin_view_prog_sg(v, s, &pv) || kbin_view_dma_sg(v, s, &dv))
			return -EINVAL;
		fprintf(out, "subgraph %s\n", kbin_view_subgraph(v, s)->name);
		for (uint32_t e = 0; e < KBIN_PROG_ENGINES; e++) {
			for (uint32_t k = 0; k < pv.num[e]; k++) {
				const struct kbin_prog_sync *y = &pv.sync[e][k];
				const uint8_t *rec = pv.records[e] +
						     (uint64_t)k * KBIN_PROG_RECORD_SIZE;
				struct kbin_compute_record r;

				fprintf(out, "%s %u: ", kbin_dma_engine_str(e + 1), k);
				if (y->cls == KBIN_PROG_CLASS_COMPUTE && compute)
					fprintf(out, "%s", kbin_compute_op_str(y->opcode));
				else if (y->cls == KBIN_PROG_CLASS_TRIGGER)
					fprintf(out, "trigger");
				else if (y->cls == KBIN_PROG_CLASS_WAIT)
					fprintf(out, "wait-only");
				else
					fprintf(out, "op 0x%02x", y->opcode);
				if (y->wait_mode == KBIN_PROG_WAIT_GE)
					fprintf(out, " wait %u>=%u", y->wait_sem,
						y->wait_value);
				if (y->update_mode == KBIN_PROG_UPDATE_INC)
					fprintf(out, " inc %u", y->update_sem);
				if (y->cls == KBIN_PROG_CLASS_TRIGGER) {
					const struct kbin_dma_block *b = &dv.blocks[y->block];

					fprintf(out, " %s block %u",
						kbin_view_str(v, dv.queues[b->queue].name),
						b->id);
				}
				if (y->cls != KBIN_PROG_CLASS_COMPUTE || !compute) {
					fputc('\n', out);
					continue;
				}
				memcpy(&r, rec, sizeof(r));
				if (r.opcode == KBIN_COP_ACTIVATE)
					fprintf(out, " %s", kbin_act_func_str(r.func));
				else if (r.opcode == KBIN_COP_TENSOR_TENSOR ||
					 r.opcode == KBIN_COP_TENSOR_SCALAR ||
					 r.opcode == KBIN_COP_REDUCE)
					fprintf(out, " %s", kbin_alu_op_str(r.func));
				if (r.flags & KBIN_COMPUTE_F_ACCUMULATE)
					fprintf(out, " accumulate");
				pr_ap(out, "out", &r.out);
				if (r.in0.space)
					pr_ap(out, "in0", &r.in0);
				if (r.opcode == KBIN_COP_MEMSET ||
				    r.opcode == KBIN_COP_ACTIVATE ||
				    (r.flags & KBIN_COMPUTE_F_IMM))
					fprintf(out, " value=0x%08x", r.value);
				else if (r.in1.space)
					pr_ap(out, "in1", &r.in1);
				fputc('\n', out);
			}
		}
	}
	return 0;
}
