// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_kbin_prog.c - libFuzzer target for the program section of a KBIN
 * plan (Documentation/kbin-format.rst, "Program section";
 * Documentation/execute.rst): the checker's program pass
 * (kmod/plan/kbin_prog.c, the function LOAD runs) and the host replay.
 *
 * The custom mutator (kbin_mutate_prog(), kbin_mutate.c) edits the
 * program section of valid plans - its counts and stream ranges, decoded
 * entries, and the sync bytes of records (opcodes, wait and update modes,
 * semaphores near the core's count, wait values, trigger queue names),
 * writing the entries of a changed record again most of the time so that
 * the rules behind the entry comparison are reached - and fixes the
 * checksum up; one call in five is libFuzzer's own byte mutation.  Seeds
 * (fuzz.mk): the test plan with a program (kbin_seedgen), the plan of
 * mkneff prog, a small real NEFF's plan.
 *
 * The property beyond "no ASan/UBSan report": whatever the checker
 * accepts satisfies, re-verified here independently, what a sequencer
 * relies on without checking (every entry is its record's decode, a
 * trigger's block is in range, in a queue its engine owns, and the n-th
 * of its queue; every semaphore an instruction or a started block names
 * is below the core's count; every block is started once), and its replay
 * ends (a bounded number of steps) with consistent accounts.  A violation
 * aborts, so libFuzzer saves the input; "fuzz_kbin_prog FILE" reproduces
 * it.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_util.h"
#include "kbin_check.h"
#include "kbin_gen.h"
#include "kbin_mutate.h"
#include "kbin_prog.h"
#include "kbin_reader.h"
#include "kbin_writer.h"
#include "prog_replay.h"

static void fail(const char *what, uint32_t s, uint32_t e, uint64_t v)
{
	fprintf(stderr, "fuzz_kbin_prog: accepted plan violates %s (subgraph %u, engine %u, value %llu)\n",
		what, s, e, (unsigned long long)v);
	abort();
}

/* subgraph @s of an accepted plan, verified with nothing of the checker */
static void verify_sg(const struct kbin_view *v, uint32_t s, uint32_t nsems)
{
	struct kbin_prog_sg_view pv;
	struct kbin_dma_sg_view dv;
	uint32_t seen[KBIN_PROG_MAX_QUEUES] = { 0 };
	uint32_t e, i, k, total = 0;

	if (kbin_view_prog_sg(v, s, &pv) || kbin_view_dma_sg(v, s, &dv))
		fail("views", s, 0, 0);
	for (e = 0; e < KBIN_PROG_ENGINES; e++)
		total += pv.num[e];
	if (total && dv.num_queues > KBIN_PROG_MAX_QUEUES)
		fail("queue count", s, 0, dv.num_queues);
	for (e = 0; e < KBIN_PROG_ENGINES; e++) {
		for (i = 0; i < pv.num[e]; i++) {
			const uint8_t *r = pv.records[e] + (uint64_t)i * KBIN_PROG_RECORD_SIZE;
			const struct kbin_prog_sync *x = &pv.sync[e][i];
			uint32_t wv = r[8] | r[9] << 8 | r[10] << 16 | (uint32_t)r[11] << 24;
			const struct kbin_dma_block *b;

			if (x->opcode != r[0] || x->wait_mode != r[4] ||
			    x->wait_sem != r[5] || x->update_mode != r[6] ||
			    x->update_sem != r[7] || x->wait_value != wv)
				fail("entry is its record", s, e + 1, i);
			if ((x->wait_mode != 0 && x->wait_mode != 5) ||
			    (x->update_mode != 0 && x->update_mode != 19))
				fail("modes", s, e + 1, i);
			if ((x->wait_mode == 5 && x->wait_sem >= nsems) ||
			    (x->update_mode == 19 && x->update_sem >= nsems))
				fail("semaphore index", s, e + 1, i);
			if ((r[0] == 0xD4) != (x->cls == KBIN_PROG_CLASS_DMA) ||
			    (r[0] == 0xC1) != (x->cls == KBIN_PROG_CLASS_TRIGGER))
				fail("class", s, e + 1, i);
			if (x->cls == KBIN_PROG_CLASS_DMA &&
			    (x->add_sem != r[13] || x->add_value != r[14] ||
			     x->add_sem >= nsems))
				fail("0xd4 fields", s, e + 1, i);
			if (x->cls != KBIN_PROG_CLASS_TRIGGER) {
				if (x->block != KBIN_PROG_NO_BLOCK)
					fail("block of a non-trigger", s, e + 1, i);
				continue;
			}
			if (x->block >= dv.num_blocks)
				fail("trigger block in range", s, e + 1, x->block);
			b = &dv.blocks[x->block];
			if (b->queue >= dv.num_queues ||
			    dv.queues[b->queue].owner != e + 1)
				fail("trigger names its engine's queue", s, e + 1, i);
			if (!memchr(r + 12, 0, KBIN_PROG_QNAME_MAX) ||
			    strcmp((const char *)r + 12,
				   kbin_view_str(v, dv.queues[b->queue].name)))
				fail("trigger names its block's queue", s, e + 1, i);
			if (b->id != seen[b->queue]++)
				fail("n-th trigger starts block n", s, e + 1, b->id);
			if (b->semaphore >= nsems)
				fail("block semaphore", s, e + 1, b->semaphore);
		}
	}
	for (k = 0; total && k < dv.num_queues; k++)
		if (seen[k] != dv.queues[k].num_blocks)
			fail("every block started once", s, 0, k);
}

static void verify_replay(const struct kbin_view *v)
{
	struct prog_replay *r;
	uint32_t s, e, k;

	if (prog_replay_plan(v, NULL, &r))
		fail("replay runs", 0, 0, 0);
	for (s = 0; s < r->nsg; s++) {
		const struct prog_replay_sg *sg = &r->sg[s];
		int left = 0;

		for (e = 0; e < KBIN_PROG_ENGINES; e++) {
			if (sg->eng[e].done > sg->eng[e].total)
				fail("replay count", s, e + 1, sg->eng[e].done);
			left |= sg->eng[e].done != sg->eng[e].total;
		}
		for (k = 0; k < sg->nq; k++)
			if (sg->q[k].done > sg->q[k].blocks)
				fail("replay blocks", s, 0, k);
		if (sg->finished == left)
			fail("replay finished iff nothing is left", s, 0, left);
	}
	prog_replay_free(r);
}

static void fuzz_one(uint8_t *p, size_t n)
{
	struct kbin_check_result res;
	const struct kbin_gen *g;
	struct kbin_view v;
	unsigned int r;
	uint32_t s;

	r = kbin_check_plan(p, n, &res);
	if (r >= KBIN_ERR_CHECK_MAX || r != res.err.reason ||
	    !memchr(res.err.msg, '\0', sizeof(res.err.msg)) || (r && !res.err.msg[0]))
		fail("checker result", 0, 0, r);
	if (r >= KBIN_ERR_PROG_COUNT && r <= KBIN_ERR_PROG_SYNC &&
	    res.err.field >= KBIN_FIELD_PROG_PE && res.prog.why == KBIN_PROG_WHY_NONE &&
	    r != KBIN_ERR_PROG_COUNT)
		fail("a rule's finding says which rule", 0, 0, r);
	if (r)
		return;
	if (kbin_read(p, n, &v, &res))
		fail("reader opens what the checker accepts", 0, 0, res.err.reason);
	if (!v.prog)
		return;
	g = kbin_gen_target(v.hdr->target_gen);
	for (s = 0; s < v.num_subgraphs; s++)
		verify_sg(&v, s, g->semaphores);
	verify_replay(&v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_exact_copy(data, size, fuzz_one);
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max,
			       unsigned int seed)
{
	return fuzz_kbin_mutate(data, size, max, seed, kbin_mutate_prog);
}
