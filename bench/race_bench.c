// SPDX-License-Identifier: GPL-2.0
/*
 * race_bench - make bench: the race detector (Documentation/races.rst)
 * on generated programs.
 *
 *   race_bench INSTRS...
 *
 * For each INSTRS (even), one trn2 plan built in memory (the compiler's
 * model API, nscc_compile_model()): SP loads 16 SBUF tiles in turn from
 * an input through queue qSPIO0 (one trigger a step, waiting for the
 * store of the tile's previous use), POOL stores each tile to an output
 * through qPoolIO0 once its load is in (one trigger a step, waiting for
 * the load's semaphore count): INSTRS / 2 steps, a race-free program of
 * INSTRS instructions and INSTRS DMA blocks, each of 128 runs.  Timed:
 * prog_race_plan() alone (the order, the footprints, the sweep).
 * Prints per size "n<INSTRS>_s", "n<INSTRS>_accesses_per_s" and
 * "n<INSTRS>_pairs", then "growth" (the worst ratio of the seconds per
 * instruction of two sizes 10x apart).  Exits 1 when a step fails or a
 * pair is found.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kbin_reader.h"
#include "kbin_writer.h"
#include "neuronsim_cc.h"
#include "prog_race.h"
#include "tl_time.h"

#define TILES		16U
#define TILE_BYTES	512U
#define PARTS		128U

static void rb_side(struct kbin_dma_side *s, uint32_t var, uint64_t off,
		    uint64_t stride)
{
	memset(s, 0, sizeof(*s));
	s->var_id = var;
	s->dtype = KBIN_DMA_DTYPE_UINT8;
	s->num_dims = 2;
	s->offset = off;
	s->sizes[0] = TILE_BYTES;
	s->steps[0] = 1;
	s->sizes[1] = PARTS;
	s->steps[1] = stride;
}

static int rb_plan(uint32_t instrs, void **buf, size_t *len)
{
	const struct kbin_gen *g = kbin_gen_target(KBIN_TARGET_TRN2);
	struct nscc_model *m = nscc_model_new(KBIN_TARGET_TRN2);
	uint32_t steps = instrs / 2, k, sems[2] = { 8, 9 };
	uint8_t *sp = calloc(steps + 1, KBIN_PROG_RECORD_SIZE);
	uint8_t *pool = calloc(steps + 1, KBIN_PROG_RECORD_SIZE);
	struct nscc_err err = { "" };
	struct nscc_dma_queue *q;
	struct nscc_var *v;
	int sg, ret = -ENOMEM;

	if (!m || !sp || !pool || !g)
		goto out;
	sg = nscc_model_add_subgraph(m, "sg00");
	if (sg < 0 || !nscc_model_add_var(m, sg, "SB", 0, KBIN_MR_SB))
		goto out;
	v = nscc_model_add_var(m, sg, "in", 1, KBIN_MR_INPUT);
	if (!v)
		goto out;
	v->has_size = 1;
	v->size = (uint64_t)TILES * TILE_BYTES * PARTS;
	v = nscc_model_add_var(m, sg, "out", 2, KBIN_MR_OUTPUT);
	if (!v)
		goto out;
	v->has_size = 1;
	v->size = (uint64_t)TILES * TILE_BYTES * PARTS;
	for (k = 0; k < 2; k++) {
		q = nscc_model_add_dma_queue(m, sg, k ? "qPoolIO0" : "qSPIO0");
		if (!q)
			goto out;
		q->type = k ? KBIN_DMA_QUEUE_DATA : KBIN_DMA_QUEUE_IN;
		q->owner = k ? KBIN_DMA_ENGINE_POOL : KBIN_DMA_ENGINE_SP;
		q->num_queues = 16;
		if (nscc_dma_queue_set_semaphores(q, &sems[k], 1))
			goto out;
	}
	for (k = 0; k < steps; k++) {
		uint32_t t = k % TILES;
		struct nscc_dma_block b = { .queue = 0, .id = k, .semaphore = 8 };
		struct kbin_prog_sync s = { .opcode = KBIN_PROG_OP_TRIGGER };
		struct kbin_dma_desc d = { .op = KBIN_DMA_OP_COPY };

		rb_side(&d.from, 1, (uint64_t)t * TILE_BYTES * PARTS, TILE_BYTES);
		rb_side(&d.to, 0, (uint64_t)t * TILE_BYTES, g->sbuf_partition_stride);
		ret = nscc_model_add_dma_block(m, sg, &b, NULL, &d, 1);
		if (ret)
			goto out;
		if (k >= TILES) {
			s.wait_mode = KBIN_PROG_WAIT_GE;
			s.wait_sem = 9;
			s.wait_value = 16 * (k - TILES + 1);
		}
		kbin_prog_encode(sp + (size_t)k * KBIN_PROG_RECORD_SIZE, &s, "qSPIO0");
	}
	for (k = 0; k < steps; k++) {
		uint32_t t = k % TILES;
		struct nscc_dma_block b = { .queue = 1, .id = k, .semaphore = 9 };
		struct kbin_prog_sync s = {
			.opcode = KBIN_PROG_OP_TRIGGER, .wait_mode = KBIN_PROG_WAIT_GE,
			.wait_sem = 8, .wait_value = 16 * (k + 1),
		};
		struct kbin_dma_desc d = { .op = KBIN_DMA_OP_COPY };

		rb_side(&d.from, 0, (uint64_t)t * TILE_BYTES, g->sbuf_partition_stride);
		rb_side(&d.to, 2, (uint64_t)t * TILE_BYTES * PARTS, TILE_BYTES);
		ret = nscc_model_add_dma_block(m, sg, &b, NULL, &d, 1);
		if (ret)
			goto out;
		kbin_prog_encode(pool + (size_t)k * KBIN_PROG_RECORD_SIZE, &s, "qPoolIO0");
	}
	ret = nscc_model_set_prog(m, sg, KBIN_DMA_ENGINE_SP, sp,
				  (uint64_t)steps * KBIN_PROG_RECORD_SIZE, NULL, &err);
	ret = ret ? ret : nscc_model_set_prog(m, sg, KBIN_DMA_ENGINE_POOL, pool,
					      (uint64_t)steps * KBIN_PROG_RECORD_SIZE,
					      NULL, &err);
	ret = ret ? ret : nscc_compile_model(m, buf, len, &err);
	if (ret)
		fprintf(stderr, "race_bench: %u instructions: %s\n", instrs, err.msg);
out:
	free(sp);
	free(pool);
	nscc_model_free(m);
	return ret;
}

int main(int argc, char **argv)
{
	double prev = 0, growth = 0;
	uint32_t prev_n = 0;
	int a;

	if (argc < 2) {
		fprintf(stderr, "usage: race_bench INSTRS...\n");
		return 2;
	}
	for (a = 1; a < argc; a++) {
		uint32_t n = (uint32_t)strtoul(argv[a], NULL, 0);
		struct kbin_check_result res;
		struct prog_race *r = NULL;
		struct kbin_view v;
		void *buf = NULL;
		size_t len;
		double t0, t, per;

		if (n < 2 || n % 2 || rb_plan(n, &buf, &len) ||
		    kbin_read(buf, len, &v, &res)) {
			fprintf(stderr, "race_bench: %s: no plan\n", argv[a]);
			return 1;
		}
		t0 = tl_mono_s();
		if (prog_race_plan(&v, NULL, &r)) {
			fprintf(stderr, "race_bench: %u: the detector failed\n", n);
			return 1;
		}
		t = tl_mono_s() - t0;
		per = t / n;
		printf("n%u_s %.4f\nn%u_accesses_per_s %.0f\nn%u_pairs %u\n", n, t, n,
		       r->accesses / t, n, r->npairs);
		if (r->npairs)
			return 1;
		if (prev_n && n == 10 * prev_n && per / prev > growth)
			growth = per / prev;
		prev = per;
		prev_n = n;
		prog_race_free(r);
		free(buf);
	}
	printf("growth %.3f\n", growth);
	return 0;
}
