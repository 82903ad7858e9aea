/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * kbin_race.h - the happens-before order of one subgraph's program and
 * the footprints of its accesses: the one place of the race detector's
 * rules (Documentation/races.rst).
 *
 * The order is a vector clock per instruction and per DMA block, over
 * the chains of the subgraph: its five engines (program order) and its
 * DMA queues (first in, first out).  A trigger orders its block after
 * it; a wait for semaphore s >= v orders its instruction after every
 * increment of s that must have happened for s to reach v in every
 * schedule (the counting rule, kbin_race_order()).  A footprint is a set
 * of spans: per space (SBUF, PSUM, a variable) a byte range and the
 * partitions it covers.
 *
 * Plain C, no allocation, no recursion: the caller gives the arrays
 * (kbin_race_words() says how big), so that the module and the host
 * compile this very code.
 */
#ifndef _NEURONSIM_KBIN_RACE_H
#define _NEURONSIM_KBIN_RACE_H

#include <linux/neuronsim_kbin.h>

#include "kbin_gen.h"

/* chains of a subgraph at most: the engines and the DMA queues */
#define KBIN_RACE_MAX_CHAINS	(KBIN_PROG_ENGINES + KBIN_PROG_MAX_QUEUES)
/* passes of kbin_race_order() at most before it settles for the order */
#define KBIN_RACE_MAX_PASSES	8U
/* partitions a span's mask covers (SBUF and PSUM have at most 128) */
#define KBIN_RACE_PARTS		128U
/*
 * clock entries (nodes x chains) of one order at most: kbin_race_words()
 * refuses more (-E2BIG), so that @vc and @prev take at most 64 MiB each
 * in the module and in the tools alike
 */
#define KBIN_RACE_MAX_CLOCKS	(16U << 20)
/* loop iterations (nodes, cells, runs) between two kbin_yield() calls */
#define KBIN_RACE_YIELD_EVERY	4096U

/**
 * enum kbin_race_space - where a span lies.
 * @KBIN_RACE_SBUF: the NeuronCore's SBUF: a byte range in each of the
 *	partitions of the mask.
 * @KBIN_RACE_PSUM: its PSUM, the same way.
 * @KBIN_RACE_VAR: a variable of the subgraph (var_id), a byte range;
 *	the mask is partition 0's bit.
 */
enum kbin_race_space {
	KBIN_RACE_SBUF = 1,
	KBIN_RACE_PSUM = 2,
	KBIN_RACE_VAR = 3,
};

/**
 * struct kbin_race_span - bytes one access reads or writes.
 * @lo: first byte (in each partition, or in the variable).
 * @hi: one past the last.
 * @mask: the partitions, bit p of word p / 64.
 * @var_id: KBIN_RACE_VAR: the variable; else 0.
 * @space: enum kbin_race_space.
 * @write: 1 the access writes the bytes, 0 it reads them.
 * @pad: zero.
 * @access: the caller's number of the access (a node of the order).
 */
struct kbin_race_span {
	__u64 lo;
	__u64 hi;
	__u64 mask[KBIN_RACE_PARTS / 64];
	__u32 var_id;
	__u8 space;
	__u8 write;
	__u16 pad;
	__u32 access;
};

/**
 * typedef kbin_race_emit_fn - receives one span of a footprint.
 * @ctx: the caller's.
 * @s: the span; valid during the call.
 *
 * Return: 0, or a negative errno that stops the walk.
 */
typedef int (*kbin_race_emit_fn)(void *ctx, const struct kbin_race_span *s);

/**
 * struct kbin_race_prog - one subgraph's program, as the order reads it.
 * @sync: per stream (enum kbin_dma_engine - 1) @num decoded entries.
 * @num: instructions per stream.
 * @num_queues: the subgraph's DMA queues, at most KBIN_PROG_MAX_QUEUES.
 * @queue_blocks: per queue, its blocks.
 * @queue_add: per queue, what a block's end adds to its semaphore (the
 *	queue's num_queues, the NEFF rule, Documentation/execute.rst).
 * @num_blocks: its blocks, queue after queue, in id order.
 * @block_queue: per block, its queue.
 * @block_sem: per block, its semaphore.
 * @semaphores: the NeuronCore's semaphores; every semaphore named is
 *	below it (the plan checker's rule).
 * @block_add: 0: a block's end adds @queue_add; else this.
 */
struct kbin_race_prog {
	const struct kbin_prog_sync *sync[KBIN_PROG_ENGINES];
	__u32 num[KBIN_PROG_ENGINES];
	__u32 num_queues;
	const __u32 *queue_blocks;
	const __u32 *queue_add;
	__u32 num_blocks;
	const __u32 *block_queue;
	const __u32 *block_sem;
	__u32 semaphores;
	__u32 block_add;
};

/**
 * struct kbin_race_inc - one increment of a semaphore.
 * @node: the instruction or block that adds (kbin_race_node()).
 * @chain: its chain.
 * @pos: its position in its chain.
 * @pad: zero.
 * @cum: what its chain has added to the semaphore with it, from the
 *	start.
 */
struct kbin_race_inc {
	__u32 node;
	__u32 chain;
	__u32 pos;
	__u32 pad;
	__u64 cum;
};

/**
 * struct kbin_race_group - the increments of one semaphore from one
 *	chain, a range of kbin_race_order.incs in chain order.
 * @chain: the chain.
 * @first: the first increment's index.
 * @num: the increments.
 */
struct kbin_race_group {
	__u32 chain;
	__u32 first;
	__u32 num;
};

/**
 * struct kbin_race_order - the happens-before order of one subgraph.
 *	Arrays the caller allocates (sizes from kbin_race_words()) and
 *	kbin_race_order() fills.
 * @p: the program.
 * @chains: KBIN_PROG_ENGINES + @p->num_queues.
 * @base: per chain, the node of its first instruction or block; one
 *	more entry, @nodes.
 * @len: per chain, its instructions or blocks.
 * @nodes: instructions of all streams, then blocks.
 * @vc: @nodes x @chains clocks: entry c of node n is how many nodes of
 *	chain c happen before n or are n.
 * @prev: as @vc, the previous pass's (scratch).
 * @trigger: per block, the node of the instruction that triggers it, or
 *	U32_MAX when none does.
 * @incs: the increments, grouped by semaphore, then by chain.
 * @num_incs: entries of @incs.
 * @groups: per semaphore its groups, by chain.
 * @sem_groups: @p->semaphores + 1 entries: semaphore s's groups are
 *	@groups[@sem_groups[s] .. @sem_groups[s + 1]).
 * @passes: the passes it took.
 * @stuck: 0, or 1 when some nodes are ordered after increments that
 *	cannot happen (a wait no schedule satisfies): their clocks are not
 *	final.
 * @stuck_node: with @stuck, in the last pass: the first instruction
 *	whose wait no schedule satisfies, or, when every wait can be met
 *	but the waits wait on each other (a cycle), the first node of the
 *	lowest chain left without a clock; U32_MAX without @stuck.
 * @stuck_sem: the semaphore @stuck_node waits on (U32_MAX: a block, or
 *	an instruction without a wait, behind one that is stuck).
 * @stuck_value: the value it waits for (>=).
 * @stuck_reach: the most the semaphore can have when @stuck_node
 *	starts: what all increments not after it add together (for a
 *	cycle, U64_MAX: not computed).
 */
struct kbin_race_order {
	const struct kbin_race_prog *p;
	__u32 chains;
	__u32 base[KBIN_RACE_MAX_CHAINS + 1];
	__u32 len[KBIN_RACE_MAX_CHAINS];
	__u32 nodes;
	__u32 *vc;
	__u32 *prev;
	__u32 *trigger;
	struct kbin_race_inc *incs;
	__u32 num_incs;
	struct kbin_race_group *groups;
	__u32 *sem_groups;
	__u32 passes;
	int stuck;
	__u32 stuck_node;
	__u32 stuck_sem;
	__u32 stuck_value;
	__u64 stuck_reach;
};

/**
 * struct kbin_race_words - how big kbin_race_order's arrays must be.
 * @nodes: nodes (instructions + blocks).
 * @vc: __u32 entries of @vc and of @prev each.
 * @incs: entries of @incs.
 * @groups: entries of @groups.
 */
struct kbin_race_words {
	__u64 nodes;
	__u64 vc;
	__u64 incs;
	__u64 groups;
};

/* bytes of one shadow cell of SBUF and PSUM: log2 */
#define KBIN_RACE_CELL_SHIFT	5U

/* accesses of each kind (write, read) one shadow cell keeps */
#define KBIN_RACE_CELL_KEEP	2U

/**
 * struct kbin_race_cell - the shadow of one cell of simulated memory:
 *	up to KBIN_RACE_CELL_KEEP writes and reads, each kept with the bytes
 *	of the cell it touched (kbin_race_shadow_access() says which).
 * @w: per slot, 1 + the node that wrote, 0 none.
 * @r: per slot, 1 + the node that read since, 0 none.
 * @wlo: per slot, the first byte of the cell its write touched, in units
 *	of the cell's bytes / 65536 when it is larger than 65536 bytes.
 * @whi: the last one, the same way.
 * @rlo: per slot, the first byte its read touched.
 * @rhi: the last one.
 */
struct kbin_race_cell {
	__u32 w[KBIN_RACE_CELL_KEEP];
	__u32 r[KBIN_RACE_CELL_KEEP];
	__u16 wlo[KBIN_RACE_CELL_KEEP];
	__u16 whi[KBIN_RACE_CELL_KEEP];
	__u16 rlo[KBIN_RACE_CELL_KEEP];
	__u16 rhi[KBIN_RACE_CELL_KEEP];
};

/**
 * struct kbin_race_violation - an access not ordered after a
 *	conflicting earlier one (kbin_race_shadow_access()).
 * @prev: the earlier access's node.
 * @node: the access's node.
 * @prev_write: the earlier one wrote.
 * @write: the access writes.
 * @space: enum kbin_race_space of the cell.
 * @pad: zero.
 * @var_id: KBIN_RACE_VAR: the variable.
 * @partition: SBUF, PSUM: the partition.
 * @byte: the cell's first byte (in the partition or the variable).
 */
struct kbin_race_violation {
	__u32 prev;
	__u32 node;
	__u8 prev_write;
	__u8 write;
	__u8 space;
	__u8 pad;
	__u32 var_id;
	__u32 partition;
	__u64 byte;
};

/**
 * struct kbin_race_shadow - a shadow of one NeuronCore's SBUF and PSUM
 *	and of a subgraph's variables, for checking an execution as it
 *	runs: every access against the last write and the last read of
 *	each cell it touches.  Cells of 2^KBIN_RACE_CELL_SHIFT bytes in
 *	SBUF and PSUM, of 2^@var_shift bytes in variables.  The caller
 *	allocates @cells (kbin_race_shadow_size()) zeroed.
 * @o: the order the accesses are checked against.
 * @cells: the cells: SBUF partition by partition, then PSUM, then each
 *	variable's at @var_first[var_id].
 * @num_cells: entries of @cells.
 * @sbuf_parts: SBUF partitions.
 * @sbuf_cells: cells per SBUF partition.
 * @psum_parts: PSUM partitions.
 * @psum_cells: cells per PSUM partition.
 * @var_first: per var_id, its first cell; @num_cells for a variable
 *	without cells (none of its accesses is checked).
 * @var_size: per var_id, its bytes.
 * @num_vars: entries of @var_first and @var_size.
 * @var_shift: log2 of the bytes of a variable's cell.
 * @found: violations found.
 * @first: the first one.
 * @ticks: cells visited, for kbin_yield() every KBIN_RACE_YIELD_EVERY.
 */
struct kbin_race_shadow {
	const struct kbin_race_order *o;
	struct kbin_race_cell *cells;
	__u64 num_cells;
	__u32 sbuf_parts;
	__u32 sbuf_cells;
	__u32 psum_parts;
	__u32 psum_cells;
	__u64 *var_first;
	const __u64 *var_size;
	__u32 num_vars;
	__u32 var_shift;
	__u64 found;
	struct kbin_race_violation first;
	__u32 ticks;
};

__u64 kbin_race_shadow_size(struct kbin_race_shadow *sh,
			    const struct kbin_gen *g, __u64 max_var_cells);
int kbin_race_shadow_access(void *ctx, const struct kbin_race_span *s);

unsigned int kbin_race_space(__u32 mr_type);
int kbin_race_words(const struct kbin_race_prog *p, struct kbin_race_words *w);
int kbin_race_order(struct kbin_race_order *o);
void kbin_race_node_at(const struct kbin_race_order *o, __u32 node,
		       __u32 *chain, __u32 *pos);
__u32 kbin_race_node(const struct kbin_race_order *o, __u32 chain, __u32 pos);
int kbin_race_before(const struct kbin_race_order *o, __u32 a, __u32 b);

int kbin_race_dma_side(const struct kbin_gen *g,
		       const struct kbin_dma_side *s, unsigned int space,
		       int write, __u32 access, kbin_race_emit_fn emit,
		       void *ctx);
int kbin_race_compute(const __u8 *rec, __u32 access, kbin_race_emit_fn emit,
		      void *ctx);
int kbin_race_overlap(const struct kbin_race_span *a,
		      const struct kbin_race_span *b,
		      struct kbin_race_span *out);

#endif /* _NEURONSIM_KBIN_RACE_H */
