/* SPDX-License-Identifier: GPL-2.0 */
/*
 * prog_replay.h - the host reference of an execution: a replay of the
 * sync layer of every subgraph's program from a checked KBIN plan
 * (Documentation/execute.rst).
 *
 * Per subgraph five sequencers (PE, ACT, POOL, DVE, SP) walk their
 * streams in order, one instruction at a time; an instruction starts when
 * its wait is met and ends after the cost model's time; at its end its
 * update adds 1, a 0xC1 submits the block it starts to its queue, a 0xD4
 * adds its increment.  Each DMA queue runs its blocks first in, first
 * out, one at a time; a block's end adds its queue's num_queues to its
 * semaphore.  It shares the decoder, the rules and the cost model with
 * the kernel (kmod/plan/kbin_prog.h), not the sequencers: it is the
 * oracle of the tests.  Deterministic: one plan, one result, one trace.
 */
#ifndef _NEURONSIM_PROG_REPLAY_H
#define _NEURONSIM_PROG_REPLAY_H

#include <stdint.h>
#include <stdio.h>

#include <linux/neuronsim.h>

#include "kbin_reader.h"

/**
 * struct prog_replay_opts - how to replay.
 * @trace: where to write the execution as Chrome trace-event JSON
 *	(Documentation/execute.rst, "Trace"), or NULL.
 * @block_add: 0: a block's end adds its queue's num_queues (the NEFF
 *	format's rule); else it adds @block_add (the tests' +1 rule).
 * @no_dma_add: 1: a 0xD4 adds nothing (the tests count who needs it).
 * @events: 1: keep the trace's events (struct prog_replay_sg.ev) even
 *	without @trace.
 * @jitter: 0: the cost model's times; else a seed: each instruction and
 *	block takes its cost plus a pseudo-random 0 .. 3 x its cost more
 *	(the same seed, the same schedule), so that replays with different
 *	seeds run the program in different schedules (the race detector's
 *	--schedules, Documentation/races.rst).
 */
struct prog_replay_opts {
	FILE *trace;
	uint32_t block_add;
	int no_dma_add;
	int events;
	uint64_t jitter;
};

/**
 * struct prog_replay_engine - one sequencer's account.
 * @total: instructions in its stream.
 * @done: instructions it completed.
 * @by_class: completed instructions per enum kbin_prog_class.
 * @opcodes: completed instructions per opcode.
 * @busy_ns: virtual time its instructions took.
 * @end_ns: when its last completed instruction ended.
 * @waiting: the replay ended with it waiting at instruction @done:
 *	@opcode waits for semaphore @wait_sem >= @wanted, which is @current.
 * @opcode: see @waiting.
 * @wait_sem: see @waiting.
 * @wanted: see @waiting.
 * @current: see @waiting.
 */
struct prog_replay_engine {
	uint32_t total;
	uint32_t done;
	uint64_t by_class[KBIN_PROG_CLASS_MAX + 1];
	uint64_t opcodes[256];
	uint64_t busy_ns;
	uint64_t end_ns;
	int waiting;
	uint8_t opcode;
	uint32_t wait_sem;
	uint32_t wanted;
	int32_t current;
};

/**
 * struct prog_replay_queue - one DMA queue's account.
 * @name: its name (in the plan).
 * @owner: enum kbin_dma_engine.
 * @blocks: its blocks.
 * @submitted: blocks its triggers submitted.
 * @done: blocks that ran.
 * @order: the ids of the @done blocks, in the order they ran.
 * @bytes: bytes its blocks wrote.
 * @busy_ns: virtual time its blocks took.
 */
struct prog_replay_queue {
	const char *name;
	uint32_t owner;
	uint32_t blocks;
	uint32_t submitted;
	uint32_t done;
	uint32_t *order;
	uint64_t bytes;
	uint64_t busy_ns;
};

/**
 * struct prog_replay_end - one end of an instruction or a block.
 * @block: 0 an instruction, 1 a DMA block.
 * @engine: an instruction's enum kbin_dma_engine; 0 for a block.
 * @index: an instruction's index in its stream, a block's among the
 *	subgraph's blocks.
 */
struct prog_replay_end {
	uint8_t block;
	uint8_t engine;
	uint32_t index;
};

/**
 * struct prog_replay_sg - one subgraph's execution.
 * @name: its name.
 * @finished: every instruction and every block ran.
 * @end_ns: virtual time of its last event.
 * @eng: per enum kbin_dma_engine - 1.
 * @q: its @nq queues.
 * @nq: its DMA queues.
 * @sems: the final semaphore values, @nsems of them (signed 32-bit).
 * @nsems: the NeuronCore's semaphores (the generation table's count).
 * @ran: the blocks that ran (their indexes among the subgraph's), in the
 *	order they ended: the order their bytes move in the kernel's
 *	execution (Documentation/execute.rst).
 * @nran: entries of @ran.
 * @ends: every instruction and block that ended, in the order they
 *	ended (at one time: engines PE .. SP, then queues in plan order):
 *	the order in which their effects happen in the host reference of a
 *	compute plan (prog_ref.h).
 * @nends: entries of @ends.
 * @ev: with a trace or prog_replay_opts.events, the trace's events in
 *	order (prog_trace.h), as the kernel records them.
 * @nev: entries of @ev.
 * @cap_ev: room in @ev.
 */
struct prog_replay_sg {
	const char *name;
	int finished;
	uint64_t end_ns;
	struct prog_replay_engine eng[KBIN_PROG_ENGINES];
	struct prog_replay_queue *q;
	uint32_t nq;
	int32_t *sems;
	uint32_t nsems;
	uint32_t *ran;
	uint32_t nran;
	struct prog_replay_end *ends;
	uint32_t nends;
	struct neuronsim_exec_event *ev;
	uint32_t nev;
	uint32_t cap_ev;
};

/**
 * struct prog_replay - an execution of every subgraph of a plan.
 * @nsg: subgraphs.
 * @sg: per subgraph.
 * @finished: every subgraph finished.
 * @end_ns: the execution's virtual duration: the latest @sg[].end_ns.
 * @instrs: instructions completed, all subgraphs.
 * @blocks: DMA blocks completed, all subgraphs.
 */
struct prog_replay {
	uint32_t nsg;
	struct prog_replay_sg *sg;
	int finished;
	uint64_t end_ns;
	uint64_t instrs;
	uint64_t blocks;
};

int prog_replay_plan(const struct kbin_view *v,
		     const struct prog_replay_opts *o,
		     struct prog_replay **out);
void prog_replay_free(struct prog_replay *r);

#endif /* _NEURONSIM_PROG_REPLAY_H */
