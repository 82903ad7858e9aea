/* SPDX-License-Identifier: GPL-2.0 */
/*
 * prog_race.h - the race detector of a KBIN plan (Documentation/
 * races.rst): per subgraph the happens-before order of its program and
 * the footprints of its DMA blocks and compute instructions, both from
 * kmod/plan/kbin_race.h, and every pair of accesses that touch a common
 * byte, at least one writing, that no order puts one before the other.
 */
#ifndef _NEURONSIM_PROG_RACE_H
#define _NEURONSIM_PROG_RACE_H

#include <stdint.h>

#include "kbin_race.h"
#include "kbin_reader.h"

/**
 * enum prog_race_cause - why a pair is unordered, coarsely.
 * @PROG_RACE_SAME_ENGINE: two DMA blocks of different queues triggered
 *	by one engine: their triggers are in program order, their blocks
 *	run on independent queues.
 * @PROG_RACE_TRIGGERS_ORDERED: two blocks whose triggers are ordered
 *	(on different engines), but nothing orders the first block's end
 *	before the second's start.
 * @PROG_RACE_UNORDERED: nothing orders either side, not even the
 *	triggers.
 * @PROG_RACE_CAUSES: how many causes.
 */
enum prog_race_cause {
	PROG_RACE_SAME_ENGINE = 0,
	PROG_RACE_TRIGGERS_ORDERED,
	PROG_RACE_UNORDERED,
	PROG_RACE_CAUSES,
};

/**
 * struct prog_race_side - one side of a pair.
 * @node: its node in the subgraph's order.
 * @chain: its chain: enum kbin_dma_engine - 1, or KBIN_PROG_ENGINES + a
 *	queue's index.
 * @pos: an instruction's index in its stream, a block's id.
 * @write: it writes the bytes (else it reads them).
 */
struct prog_race_side {
	uint32_t node;
	uint32_t chain;
	uint32_t pos;
	int write;
};

/**
 * struct prog_race_pair - two unordered accesses with a conflicting byte.
 * @sg: the subgraph.
 * @a: the side issued first: its issuer (the instruction itself, a
 *	block's trigger) happens before @b's, or comes earlier on the same
 *	engine; when the issuers are unordered, the side of the lower node.
 * @b: the other side.
 * @at: the first conflicting bytes found: space, var_id, [lo, hi) and
 *	the partitions both touch there.
 * @cause: enum prog_race_cause.
 * @sem: the semaphore the nearest chain would use: the first one @a's
 *	chain adds to at or after @a, or -1 when it adds to none.
 * @inc_node: the node of that increment.
 * @inc_sum: its chain's running sum on @sem with it.
 * @wait_node: the last wait on @sem of @b's engine (a block's: its
 *	trigger's) before @b, or UINT32_MAX when none.
 * @wait_value: that wait's value.
 * @seen: prog_race_schedules(): bit 0, some replay ended @a before @b;
 *	bit 1, some replay ended @b before @a.
 */
struct prog_race_pair {
	uint32_t sg;
	struct prog_race_side a;
	struct prog_race_side b;
	struct kbin_race_span at;
	uint32_t cause;
	int32_t sem;
	uint32_t inc_node;
	uint64_t inc_sum;
	uint32_t wait_node;
	uint32_t wait_value;
	uint32_t seen;
};

/**
 * struct prog_race_sg - one subgraph's account.
 * @name: its name.
 * @nodes: instructions and blocks.
 * @chains: engines and queues.
 * @spans: footprint spans.
 * @passes: passes of the order.
 * @stuck: the order met a wait no schedule satisfies.
 * @pairs: pairs found in it.
 * @first: its first pair in prog_race.pairs.
 * @order: its order (kept for names and explanations).
 * @prog: the program the order reads.
 * @copy: the stream whose wait prog_race_opts.drop_wait removed, or NULL.
 * @queues: its DMA queues (the plan's).
 * @blocks: its DMA blocks (the plan's).
 * @arrays: the per-queue and per-block arrays of @prog (owned).
 */
struct prog_race_sg {
	const char *name;
	uint32_t nodes;
	uint32_t chains;
	uint64_t spans;
	uint32_t passes;
	int stuck;
	uint32_t pairs;
	uint32_t first;
	struct kbin_race_order order;
	struct kbin_race_prog prog;
	struct kbin_prog_sync *copy;
	const struct kbin_dma_queue *queues;
	const struct kbin_dma_block *blocks;
	uint32_t *arrays;
};

/**
 * struct prog_race - the races of a plan.
 * @v: the plan.
 * @nsg: subgraphs.
 * @sg: per subgraph.
 * @pairs: every pair, subgraph after subgraph.
 * @npairs: entries of @pairs.
 * @by_cause: pairs per enum prog_race_cause.
 * @accesses: instructions and blocks with a footprint.
 * @spans: footprint spans, all subgraphs.
 * @cap: room in @pairs.
 * @schedules: replays prog_race_schedules() ran.
 * @both: pairs those replays ended in both orders.
 * @names: prog_race_opts.names.
 * @num_names: prog_race_opts.num_names.
 */
struct prog_race {
	const struct kbin_view *v;
	uint32_t nsg;
	struct prog_race_sg *sg;
	struct prog_race_pair *pairs;
	uint32_t npairs;
	uint32_t cap;
	uint64_t by_cause[PROG_RACE_CAUSES];
	uint64_t accesses;
	uint64_t spans;
	uint32_t schedules;
	uint32_t both;
	char *const *names[KBIN_PROG_ENGINES];
	uint32_t num_names[KBIN_PROG_ENGINES];
};

/**
 * struct prog_race_opts - how to look.
 * @block_add: 0 a block's end adds its queue's num_queues, else this.
 * @drop_wait_engine: with @drop_wait > 0: the engine (enum
 *	kbin_dma_engine) of an instruction whose wait the order ignores;
 * @drop_wait: 1 + that instruction's index, 0 for none (the tests'
 *	removed semaphore).
 * @drop_wait_sg: its subgraph.
 * @names: NULL, or per stream of subgraph 0 @num_names[e] names of its
 *	instructions (the BIR lowering's, nscc_bir_compile_file_names());
 *	prog_race_comment() gives them; they must outlive the report.
 * @num_names: see @names.
 */
struct prog_race_opts {
	uint32_t block_add;
	uint32_t drop_wait_engine;
	uint32_t drop_wait;
	uint32_t drop_wait_sg;
	char *const *names[KBIN_PROG_ENGINES];
	uint32_t num_names[KBIN_PROG_ENGINES];
};

int prog_race_plan(const struct kbin_view *v, const struct prog_race_opts *o,
		   struct prog_race **out);
int prog_race_schedules(struct prog_race *r, uint32_t n);
long long prog_race_check(const struct prog_race *r, uint64_t jitter,
			  uint64_t max_var_cells, uint32_t *sg,
			  struct kbin_race_violation *v);
void prog_race_free(struct prog_race *r);
const char *prog_race_cause_str(uint32_t cause);
const char *prog_race_space_str(uint32_t space);
char *prog_race_name(const struct prog_race *r, uint32_t sg, uint32_t node,
		     char *buf, size_t len);
const char *prog_race_comment(const struct prog_race *r, uint32_t sg,
			      uint32_t node);

#endif /* _NEURONSIM_PROG_RACE_H */
