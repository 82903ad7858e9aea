// SPDX-License-Identifier: GPL-2.0
/*
 * prog_replay.c - the host reference of an execution (prog_replay.h,
 * Documentation/execute.rst): a discrete-event replay of every
 * subgraph's sync layer in virtual time, and its Chrome trace.
 *
 * Each step: every idle sequencer whose next wait is met starts that
 * instruction, every idle queue with a submitted block starts it; then
 * time jumps to the earliest end, and every instruction and block ending
 * then ends, sequencers first (PE .. SP), then queues in order.  Effects
 * only add to semaphores, so the order of ends at one time changes no
 * value; each queue is fed by one engine's stream, so its order is that
 * stream's.  Every step ends at least one instruction or block: the
 * replay of N instructions and B blocks takes at most N + B steps.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "kbin_dma.h"
#include "kbin_gen.h"
#include "kbin_prog.h"
#include "prog_replay.h"
#include "prog_trace.h"

/* a sequencer's state */
struct rp_eng {
	const struct kbin_prog_sync *s;
	uint32_t n, pc;
	int busy;
	uint64_t start, end;
	/* the trace's open run of compute and wait instructions */
	int run;
	uint64_t run_start, run_end;
	uint32_t run_first, run_count;
	uint8_t run_wait_sem, run_op;
	uint32_t run_wanted;
	int run_waited;
};

/* a DMA queue's state */
struct rp_q {
	uint32_t first;		/* its first block, subgraph index */
	int busy;
	uint32_t started;
	uint64_t start, end;
};

/* an event of the trace (prog_trace.h), added to the subgraph's list */
static void rp_ev(struct prog_replay_sg *out, int *oom,
		  const struct neuronsim_exec_event *ev)
{
	struct neuronsim_exec_event *n;

	if (out->nev == out->cap_ev) {
		uint32_t cap = out->cap_ev ? 2 * out->cap_ev : 1024;

		n = realloc(out->ev, cap * sizeof(*n));
		if (!n) {
			*oom = 1;
			return;
		}
		out->ev = n;
		out->cap_ev = cap;
	}
	out->ev[out->nev++] = *ev;
}

/* the open run of compute and wait instructions of engine @e, if any */
static void rp_run_flush(struct prog_replay_sg *out, int *oom, uint32_t e,
			 struct rp_eng *g)
{
	struct neuronsim_exec_event ev = {
		.start_ns = g->run_start, .end_ns = g->run_end,
		.index = g->run_first, .count = g->run_count, .track = e,
		.kind = NEURONSIM_EVENT_INSTRS, .opcode = g->run_op,
	};

	if (!g->run)
		return;
	if (g->run_waited) {
		ev.flags = NEURONSIM_EVENT_F_WAITED;
		ev.semaphore = g->run_wait_sem;
		ev.value = g->run_wanted;
	}
	rp_ev(out, oom, &ev);
	g->run = 0;
}

/* everything one subgraph's replay reads and writes */
struct rp_sg {
	const struct kbin_view *v;
	const struct prog_replay_opts *o;
	const struct kbin_gen *gen;
	struct prog_replay_sg *out;
	struct kbin_dma_sg_view dv;
	struct rp_eng eng[KBIN_PROG_ENGINES];
	struct rp_q *q;
	uint64_t *bns;		/* per block: its cost */
	uint64_t *bbytes;	/* per block: its bytes */
	int events;		/* record the trace's events */
	int oom;		/* an event could not be recorded */
};

/* @ns, plus with a jitter seed 0 .. 3 x @ns more, by @key (splitmix64) */
static uint64_t rp_jitter(const struct rp_sg *r, uint64_t key, uint64_t ns)
{
	uint64_t z;

	if (!r->o->jitter || !ns)
		return ns;
	z = r->o->jitter * 0x9e3779b97f4a7c15ULL + key;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return ns + z % (3 * ns + 1);
}

static int rp_wait_met(const struct rp_sg *r, const struct kbin_prog_sync *s)
{
	if (s->wait_mode != KBIN_PROG_WAIT_GE)
		return 1;
	return (int64_t)r->out->sems[s->wait_sem] >= (int64_t)s->wait_value;
}

static void rp_sem_add(struct rp_sg *r, uint32_t sem, uint32_t n)
{
	/* signed 32-bit, wrapping as the hardware's register would */
	r->out->sems[sem] = (int32_t)((uint32_t)r->out->sems[sem] + n);
}

/* instruction @g->pc of engine @e ends at @g->end */
static void rp_end_instr(struct rp_sg *r, uint32_t e, struct rp_eng *g)
{
	const struct kbin_prog_sync *s = &g->s[g->pc];
	struct prog_replay_engine *acc = &r->out->eng[e - 1];
	struct neuronsim_exec_event ev = {
		.start_ns = g->start, .end_ns = g->end, .index = g->pc,
		.track = e, .opcode = s->opcode,
	};

	if (s->update_mode == KBIN_PROG_UPDATE_INC)
		rp_sem_add(r, s->update_sem, 1);
	if (s->cls == KBIN_PROG_CLASS_DMA && !r->o->no_dma_add)
		rp_sem_add(r, s->add_sem, s->add_value);
	if (s->cls == KBIN_PROG_CLASS_TRIGGER) {
		const struct kbin_dma_block *b = &r->dv.blocks[s->block];

		r->out->q[b->queue].submitted++;
		if (r->events) {
			rp_run_flush(r->out, &r->oom, e, g);
			ev.kind = NEURONSIM_EVENT_TRIGGER;
			ev.count = s->block;
			rp_ev(r->out, &r->oom, &ev);
		}
	} else if (s->cls == KBIN_PROG_CLASS_DMA) {
		if (r->events) {
			rp_run_flush(r->out, &r->oom, e, g);
			ev.kind = NEURONSIM_EVENT_DMA;
			ev.count = 1;
			ev.value = s->add_value;
			ev.semaphore = s->add_sem;
			rp_ev(r->out, &r->oom, &ev);
		}
	} else if (r->events) {
		/* compute and waits: runs without a gap are one event */
		if (g->run && g->run_end == g->start) {
			g->run_end = g->end;
			g->run_count++;
		} else {
			rp_run_flush(r->out, &r->oom, e, g);
			g->run = 1;
			g->run_start = g->start;
			g->run_end = g->end;
			g->run_first = g->pc;
			g->run_count = 1;
			g->run_op = s->opcode;
			g->run_waited = s->wait_mode == KBIN_PROG_WAIT_GE;
			g->run_wait_sem = s->wait_sem;
			g->run_wanted = s->wait_value;
		}
	}
	r->out->ends[r->out->nends++] = (struct prog_replay_end){
		.engine = (uint8_t)e, .index = g->pc };
	acc->done++;
	acc->by_class[s->cls <= KBIN_PROG_CLASS_MAX ? s->cls : 0]++;
	acc->opcodes[s->opcode]++;
	acc->busy_ns += g->end - g->start;
	acc->end_ns = g->end;
	g->busy = 0;
	g->pc++;
}

/* block @q->started - 1 of queue @k ends at @q->end */
static void rp_end_block(struct rp_sg *r, uint32_t k, struct rp_q *q)
{
	uint32_t bi = q->first + q->started - 1;
	const struct kbin_dma_block *b = &r->dv.blocks[bi];
	const struct kbin_dma_queue *dq = &r->dv.queues[k];
	struct prog_replay_queue *acc = &r->out->q[k];
	uint32_t add = r->o->block_add ? r->o->block_add : dq->num_queues;

	rp_sem_add(r, b->semaphore, add);
	acc->order[acc->done++] = b->id;
	acc->bytes += r->bbytes[bi];
	acc->busy_ns += q->end - q->start;
	r->out->ran[r->out->nran++] = bi;
	r->out->ends[r->out->nends++] = (struct prog_replay_end){
		.block = 1, .index = bi };
	if (r->events) {
		struct neuronsim_exec_event ev = {
			.start_ns = q->start, .end_ns = q->end, .index = bi,
			.count = b->id, .value = add, .track = k,
			.kind = NEURONSIM_EVENT_BLOCK, .semaphore = b->semaphore,
		};

		rp_ev(r->out, &r->oom, &ev);
	}
	q->busy = 0;
}

static uint64_t rp_add(uint64_t a, uint64_t b)
{
	uint64_t s;

	return __builtin_add_overflow(a, b, &s) ? UINT64_MAX : s;
}

/* the replay of one subgraph, from time 0 */
static void rp_run(struct rp_sg *r)
{
	struct prog_replay_sg *out = r->out;
	uint64_t now = 0, next;
	uint32_t e, k;
	int any;

	for (;;) {
		/* start what can start now */
		for (e = 1; e <= KBIN_PROG_ENGINES; e++) {
			struct rp_eng *g = &r->eng[e - 1];
			const struct kbin_prog_sync *s;

			if (g->busy || g->pc >= g->n)
				continue;
			s = &g->s[g->pc];
			if (!rp_wait_met(r, s))
				continue;
			g->busy = 1;
			g->start = now;
			g->end = rp_add(now, rp_jitter(r, (uint64_t)e << 32 | g->pc,
							  kbin_prog_instr_ns(e, s->cls)));
		}
		for (k = 0; k < out->nq; k++) {
			struct rp_q *q = &r->q[k];

			if (q->busy || q->started >= out->q[k].submitted)
				continue;
			q->busy = 1;
			q->start = now;
			q->end = rp_add(now, rp_jitter(r, 1ULL << 40 | (q->first + q->started),
							  r->bns[q->first + q->started]));
			q->started++;
		}
		/* the earliest end */
		any = 0;
		next = UINT64_MAX;
		for (e = 0; e < KBIN_PROG_ENGINES; e++)
			if (r->eng[e].busy && r->eng[e].end <= next) {
				next = r->eng[e].end;
				any = 1;
			}
		for (k = 0; k < out->nq; k++)
			if (r->q[k].busy && r->q[k].end <= next) {
				next = r->q[k].end;
				any = 1;
			}
		if (!any)
			break;
		now = next;
		for (e = 1; e <= KBIN_PROG_ENGINES; e++)
			if (r->eng[e - 1].busy && r->eng[e - 1].end == now)
				rp_end_instr(r, e, &r->eng[e - 1]);
		for (k = 0; k < out->nq; k++)
			if (r->q[k].busy && r->q[k].end == now)
				rp_end_block(r, k, &r->q[k]);
		out->end_ns = now;
	}
	out->finished = 1;
	for (e = 1; e <= KBIN_PROG_ENGINES; e++) {
		struct rp_eng *g = &r->eng[e - 1];
		struct prog_replay_engine *acc = &out->eng[e - 1];

		if (r->events)
			rp_run_flush(out, &r->oom, e, g);
		if (g->pc >= g->n)
			continue;
		out->finished = 0;
		acc->waiting = 1;
		acc->opcode = g->s[g->pc].opcode;
		acc->wait_sem = g->s[g->pc].wait_sem;
		acc->wanted = g->s[g->pc].wait_value;
		acc->current = out->sems[acc->wait_sem];
	}
	for (k = 0; k < out->nq; k++)
		if (out->q[k].done != out->q[k].blocks)
			out->finished = 0;
}

/* set up and run subgraph @s */
static int rp_sg_replay(const struct kbin_view *v,
			const struct prog_replay_opts *o, uint32_t s,
			struct prog_replay_sg *out)
{
	struct rp_sg r = { .v = v, .o = o, .out = out,
			   .events = o->trace || o->events };
	struct kbin_prog_sg_view pv;
	uint32_t e, k, b;
	uint64_t n;
	int ret = -ENOMEM;

	r.gen = kbin_gen_target(v->hdr->target_gen);
	if (kbin_view_dma_sg(v, s, &r.dv) || kbin_view_prog_sg(v, s, &pv) || !r.gen)
		return -EINVAL;
	out->name = kbin_view_subgraph(v, s)->name;
	out->nsems = r.gen->semaphores;
	out->nq = r.dv.num_queues;
	out->sems = calloc(out->nsems + 1, sizeof(*out->sems));
	out->q = calloc(out->nq + 1, sizeof(*out->q));
	out->ran = calloc(r.dv.num_blocks + 1, sizeof(*out->ran));
	n = r.dv.num_blocks + 1;
	for (e = 0; e < KBIN_PROG_ENGINES; e++)
		n += pv.num[e];
	out->ends = calloc(n, sizeof(*out->ends));
	r.q = calloc(out->nq + 1, sizeof(*r.q));
	r.bns = calloc(r.dv.num_blocks + 1, sizeof(*r.bns));
	r.bbytes = calloc(r.dv.num_blocks + 1, sizeof(*r.bbytes));
	if (!out->sems || !out->q || !out->ran || !out->ends || !r.q || !r.bns ||
	    !r.bbytes)
		goto out;
	for (k = 0; k < out->nq; k++) {
		const struct kbin_dma_queue *q = &r.dv.queues[k];

		out->q[k].name = kbin_view_str(v, q->name);
		out->q[k].owner = q->owner;
		out->q[k].blocks = q->num_blocks;
		out->q[k].order = calloc(q->num_blocks + 1, sizeof(uint32_t));
		if (!out->q[k].order)
			goto out;
		r.q[k].first = q->first_block - r.dv.first_block;
	}
	for (b = 0; b < r.dv.num_blocks; b++) {
		const struct kbin_dma_block *blk = &r.dv.blocks[b];

		r.bbytes[b] = kbin_prog_block_bytes(r.dv.descs + (blk->first_desc -
								  r.dv.first_desc),
						    blk->num_descs);
		r.bns[b] = kbin_prog_block_ns(r.gen, r.bbytes[b]);
	}
	for (e = 0; e < KBIN_PROG_ENGINES; e++) {
		r.eng[e].s = pv.sync[e];
		r.eng[e].n = pv.num[e];
		out->eng[e].total = pv.num[e];
	}
	rp_run(&r);
	ret = r.oom ? -ENOMEM : 0;
out:
	free(r.q);
	free(r.bns);
	free(r.bbytes);
	return ret;
}

/**
 * prog_replay_free() - free a replay.
 * @r: from prog_replay_plan(), or NULL.
 */
void prog_replay_free(struct prog_replay *r)
{
	uint32_t s, k;

	if (!r)
		return;
	for (s = 0; s < r->nsg; s++) {
		for (k = 0; r->sg[s].q && k < r->sg[s].nq; k++)
			free(r->sg[s].q[k].order);
		free(r->sg[s].q);
		free(r->sg[s].sems);
		free(r->sg[s].ran);
		free(r->sg[s].ends);
		free(r->sg[s].ev);
	}
	free(r->sg);
	free(r);
}

/**
 * prog_replay_plan() - replay the program of a checked plan.
 * @v: a view from kbin_read() (so every rule of the program holds).
 * @o: options, or NULL for the rules as they are and no trace.
 * @out: out: the replay; free with prog_replay_free().
 *
 * Every subgraph from virtual time 0 with its semaphores at 0, as its own
 * NeuronCore; the execution ends when the last subgraph does.  A
 * subgraph whose sequencers all wait with nothing running has
 * deadlocked: its replay ends there, ->finished 0, and every engine left
 * says where it waits.  With @o->trace the Chrome trace-event JSON of
 * the whole execution (Documentation/execute.rst, "Trace").
 *
 * Return: 0 (also for a deadlock); -ENODATA the plan has no program;
 * -EINVAL a bad view or a target without a semaphore count; -ENOMEM;
 * -EIO writing the trace failed.
 */
int prog_replay_plan(const struct kbin_view *v,
		     const struct prog_replay_opts *o,
		     struct prog_replay **out)
{
	static const struct prog_replay_opts none;
	struct prog_trace_sg *ts = NULL;
	struct prog_replay *r;
	uint32_t s, e, k;
	int ret = 0;

	*out = NULL;
	if (!v || !v->hdr)
		return -EINVAL;
	if (!v->prog)
		return -ENODATA;
	if (!o)
		o = &none;
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->sg = calloc(v->num_subgraphs, sizeof(*r->sg));
	if (!r->sg) {
		free(r);
		return -ENOMEM;
	}
	r->nsg = v->num_subgraphs;
	r->finished = 1;
	for (s = 0; s < r->nsg && !ret; s++) {
		struct prog_replay_sg *sg = &r->sg[s];

		ret = rp_sg_replay(v, o, s, sg);
		if (ret)
			break;
		r->finished &= sg->finished;
		if (sg->end_ns > r->end_ns)
			r->end_ns = sg->end_ns;
		for (e = 0; e < KBIN_PROG_ENGINES; e++)
			r->instrs += sg->eng[e].done;
		for (k = 0; k < sg->nq; k++)
			r->blocks += sg->q[k].done;
	}
	if (!ret && o->trace) {
		ts = calloc(r->nsg, sizeof(*ts));
		if (!ts)
			ret = -ENOMEM;
		for (s = 0; ts && s < r->nsg; s++) {
			ts[s].ev = r->sg[s].ev;
			ts[s].n = r->sg[s].nev;
		}
		if (ts)
			ret = prog_trace_write(o->trace, v, "neuronsim-cc replay", ts,
					       r->nsg);
		free(ts);
	}
	if (ret) {
		prog_replay_free(r);
		return ret;
	}
	*out = r;
	return 0;
}
