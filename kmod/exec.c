// SPDX-License-Identifier: GPL-2.0
/*
 * exec.c - executing a model: per NeuronCore five sequencers (PE, ACT,
 * POOL, DVE, SP) walk the engines' instruction streams on the core's
 * semaphore file, and the DMA blocks their triggers start move their
 * bytes on the core's DMA engine (engine.c).  Documentation/execute.rst.
 *
 *   LOAD     keeps each subgraph's decoded entries (struct nrsim_prog,
 *            checked by the plan checker's pass 5) and the execution's
 *            state (nrsim_exec_stage());
 *   EXECUTE  queues one work per subgraph on its NeuronCore's ordered
 *            workqueue, the DMA engine's, and returns;
 *   the work runs the subgraph in virtual time, by the cost model of
 *            kmod/plan/kbin_prog.h: at each step every idle sequencer
 *            whose next wait is met starts that instruction and every
 *            idle DMA queue with a submitted block starts the oldest;
 *            then time jumps to the earliest end, and everything that
 *            ends then ends, sequencers first (PE .. SP), then queues in
 *            order.  An instruction's end applies its update (+1), a
 *            0xD4's increment, a 0xC1's submission of its block, and,
 *            in a plan with KBIN_PROG_F_COMPUTE, a compute instruction's
 *            operation on the core's SBUF and PSUM (kbin_compute_run(),
 *            before its update); a
 *            block's end moves its bytes (nrsim_eng_block()) and adds its
 *            queue's num_queues to its semaphore.  The same model as the
 *            host replay (userspace/cc/prog_replay.c), written again:
 *            the replay is the tests' oracle, not this code's twin;
 *   EXEC_WAIT and poll() report the end; UNLOAD and close cancel it
 *            (nrsim_exec_stop_locked(), from nrsim_model_stop()), a
 *            signal during EXEC_WAIT, a timeout or a failed DMA block
 *            stop it.
 *
 * A step ends at least one instruction or block, so a subgraph of N
 * instructions and B blocks takes at most N + B steps; the work looks
 * for a reason to stop and reschedules every 256 of them, and the DMA
 * engine before every UDMA descriptor.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/memcontrol.h>
#include <linux/overflow.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "kbin_compute.h"
#include "kbin_dma.h"
#include "kbin_prog.h"
#include "kbin_race.h"
#include "nrsim.h"
#include "netlink.h"

static_assert(sizeof(struct neuronsim_exec) == 32);
static_assert(sizeof(struct neuronsim_exec_engine) == 1112);
static_assert(sizeof(struct neuronsim_exec_queue) == 32);
static_assert(sizeof(struct neuronsim_exec_sg) == 6120);
static_assert(sizeof(struct neuronsim_exec_event) == 40);
static_assert(sizeof(struct neuronsim_exec_wait) == 128);
static_assert(NEURONSIM_ENGINES == KBIN_PROG_ENGINES);
static_assert(KBIN_PROG_CLASS_MAX + 1 == NEURONSIM_INSTR_CLASSES);

/* steps between two looks for a reason to stop */
#define NRSIM_EXEC_CHECK_STEPS	256U

/**
 * struct nrsim_seq - one sequencer of a running subgraph.
 * @s: its stream's entries.
 * @n: instructions in its stream.
 * @pc: the next instruction (debugfs reads it live).
 * @busy: an instruction is running.
 * @start: virtual start of the running instruction.
 * @end: its virtual end.
 * @run: the trace's open run of compute and wait instructions.
 * @run_waited: its first instruction waited.
 * @run_sem: the semaphore it waited on.
 * @run_op: the opcode of its first instruction.
 * @run_first: its first instruction.
 * @run_count: its instructions.
 * @run_wanted: the value its first instruction waited for.
 * @run_start: its virtual start.
 * @run_end: its virtual end.
 * @regs: its registers (compute plans; float32 bits, +0 at the start).
 */
struct nrsim_seq {
	const struct kbin_prog_sync *s;
	u32 n;
	u32 pc;
	bool busy;
	u64 start;
	u64 end;
	bool run;
	bool run_waited;
	u8 run_sem;
	u8 run_op;
	u32 run_first;
	u32 run_count;
	u32 run_wanted;
	u64 run_start;
	u64 run_end;
	u32 regs[KBIN_COMPUTE_REGS];
};

/**
 * struct nrsim_xq - one DMA queue of a running subgraph.
 * @submitted: blocks its triggers submitted.
 * @started: blocks it started (block ids 0 .. @started - 1).
 * @busy: a block is running.
 * @start: the running block's virtual start.
 * @end: its virtual end.
 */
struct nrsim_xq {
	u32 submitted;
	u32 started;
	bool busy;
	u64 start;
	u64 end;
};

/**
 * struct nrsim_exec_sg - one subgraph's part of an execution.
 * @work: on its NeuronCore's engine workqueue.
 * @x: the execution.
 * @index: the subgraph's index.
 * @queued: @work is queued and has not started (under the file's
 *	run_lock): nrsim_exec_stop_locked() takes it off the workqueue.
 * @running: the work is walking the program (debugfs reads it).
 * @ended: it ended in this execution, @res is final (under run_lock;
 *	debugfs reads it while other subgraphs still run).
 * @res: its result; the work writes it while the execution runs.
 * @qres: per DMA queue, its result.
 * @xq: per DMA queue, its state.
 * @seq: the sequencers.
 * @eng: the DMA engine's working state.
 * @ev: its part of the trace buffer, or NULL without a trace.
 * @ev_cap: entries of @ev.
 * @cost: virtual ns per instruction by engine and class (the cost model).
 * @scratch: with KBIN_PROG_F_COMPUTE, KBIN_COMPUTE_SCRATCH_BYTES for
 *	kbin_compute_run(); else NULL.
 * @sbuf: its NeuronCore's SBUF window (the compute memory callbacks).
 * @psum: its NeuronCore's PSUM window.
 * @race: NEURONSIM_EXEC_F_RACE: the order and the shadow, while it runs;
 *	else NULL.
 */
struct nrsim_exec_sg {
	struct work_struct work;
	struct nrsim_exec *x;
	u32 index;
	bool queued;
	bool running;
	bool ended;
	struct neuronsim_exec_sg res;
	struct neuronsim_exec_queue *qres;
	struct nrsim_xq *xq;
	struct nrsim_seq seq[KBIN_PROG_ENGINES];
	struct nrsim_eng *eng;
	struct neuronsim_exec_event *ev;
	u32 ev_cap;
	u64 cost[KBIN_PROG_ENGINES][KBIN_PROG_CLASS_MAX + 1];
	void *scratch;
	u64 sbuf;
	u64 psum;
	struct nrsim_race *race;
};

/**
 * struct nrsim_exec - a model's execution state: the latest execution.
 * @m: the model.
 * @memcg: the memory cgroup of the task that executed it (the pages its
 *	DMA writes are charged to it); a reference while it runs.
 * @unwaited: done and not reported by EXEC_WAIT (counts in the file's
 *	unwaited).
 * @race: NEURONSIM_EXEC_F_RACE: its subgraphs check their accesses.
 * @abort: 0, or the errno a signal during EXEC_WAIT cancelled it with
 *	(-EINTR); the works read it.
 * @pending: subgraphs queued or running (under run_lock).
 * @status: 0, or the status of the first subgraph that did not finish.
 * @t0: ktime_get_ns() at EXECUTE.
 * @deadline: ktime_get_ns() of its timeout, or 0.
 * @wall_ns: EXECUTE to its end.
 * @executions: executions ended since LOAD.
 * @events: the trace buffer, NULL without a trace.
 * @num_events: entries of @events.
 * @sg: per subgraph.
 */
struct nrsim_exec {
	struct nrsim_model *m;
	struct mem_cgroup *memcg;
	bool unwaited;
	bool race;
	int abort;
	u32 pending;
	int status;
	u64 t0;
	u64 deadline;
	u64 wall_ns;
	u64 executions;
	struct neuronsim_exec_event *events;
	u32 num_events;
	struct nrsim_exec_sg sg[];
};

static void nrsim_exec_work(struct work_struct *work);

/* ---- LOAD: keep the program, make the state ---- */

/**
 * nrsim_exec_stage() - keep the program of a staged, relocated plan for
 *	its executions: per subgraph the decoded entries of its five
 *	streams, and the execution state (each subgraph's result, its
 *	queues' and the DMA engine's working state), all charged to the
 *	caller's memory cgroup and counted in the model's kmem_bytes.
 * @m: the model, relocated by nrsim_relocate(), not published.
 * @plan: the plan, accepted by kbin_check_plan() (pass 5 checked the
 *	program: modes, semaphores below the core's count, every trigger
 *	resolved to its block, every block triggered once).
 * @len: its length.
 * @err: filled on failure.
 *
 * A plan without a program section keeps nothing: EXECUTE says -ENODATA.
 * With KBIN_PROG_F_COMPUTE each subgraph also keeps its records (what
 * its compute instructions do) and a scratch of KBIN_COMPUTE_SCRATCH_BYTES
 * for kbin_compute_run().
 * On failure the partial work is left for nrsim_exec_free(), which
 * nrsim_model_free() calls.
 *
 * Return: 0; -ENOMEM.
 */
int nrsim_exec_stage(struct nrsim_model *m, const void *plan, u64 len,
		     struct kbin_err *err)
{
	const struct kbin_header *h = plan;
	const struct kbin_header_ext *ext = plan + sizeof(*h);
	const struct kbin_prog_section *ps;
	const struct kbin_prog_sync *sync;
	const u8 *recs;
	struct nrsim_exec *x;
	bool compute;
	u32 s, e;

	if (h->version < KBIN_VERSION_PROG || !ext->prog_off)
		return 0;
	ps = plan + ext->prog_off;
	sync = (const void *)(ps->sg + h->num_subgraphs);
	recs = (const u8 *)(sync + ps->num_instrs);
	compute = ps->flags & KBIN_PROG_F_COMPUTE;
	x = kvzalloc(struct_size(x, sg, m->num_sg), GFP_KERNEL_ACCOUNT);
	if (!x)
		goto nomem;
	m->kmem_bytes += struct_size(x, sg, m->num_sg);
	x->m = m;
	m->exec = x;
	for (s = 0; s < m->num_sg; s++) {
		struct nrsim_sg *sg = &m->sg[s];
		struct nrsim_prog *p = &sg->prog;
		struct nrsim_exec_sg *xs = &x->sg[s];
		u64 n = 0;

		for (e = 0; e < KBIN_PROG_ENGINES; e++) {
			p->first[e] = n;
			p->num[e] = ps->sg[s].engine[e].num;
			n += p->num[e];
		}
		p->instrs = n;
		p->sync = nrsim_kvcalloc(m, n, sizeof(*p->sync));
		xs->qres = nrsim_kvcalloc(m, sg->dma.num_queues, sizeof(*xs->qres));
		xs->xq = nrsim_kvcalloc(m, sg->dma.num_queues, sizeof(*xs->xq));
		xs->eng = nrsim_eng_alloc();
		if (!p->sync || !xs->qres || !xs->xq || !xs->eng)
			goto nomem;
		m->kmem_bytes += 2 * PAGE_SIZE;
		if (compute) {
			p->recs = nrsim_kvcalloc(m, n, KBIN_PROG_RECORD_SIZE);
			xs->scratch = kvmalloc(KBIN_COMPUTE_SCRATCH_BYTES,
					       GFP_KERNEL_ACCOUNT);
			if (!p->recs || !xs->scratch)
				goto nomem;
			m->kmem_bytes += KBIN_COMPUTE_SCRATCH_BYTES;
		}
		/* the streams follow each other in the section (the checker) */
		for (e = 0; e < KBIN_PROG_ENGINES; e++) {
			if (!p->num[e])
				continue;
			memcpy(p->sync + p->first[e],
			       sync + ps->sg[s].engine[e].first,
			       (size_t)p->num[e] * sizeof(*p->sync));
			if (compute)
				memcpy(p->recs + (size_t)p->first[e] *
				       KBIN_PROG_RECORD_SIZE,
				       recs + (size_t)ps->sg[s].engine[e].first *
				       KBIN_PROG_RECORD_SIZE,
				       (size_t)p->num[e] * KBIN_PROG_RECORD_SIZE);
		}
		xs->sbuf = nrsim_sbuf_base(m->nd, sg->core);
		xs->psum = nrsim_psum_base(m->nd, sg->core);
		xs->x = x;
		xs->index = s;
		INIT_WORK(&xs->work, nrsim_exec_work);
		sg->exec = xs;
		cond_resched();
	}
	return 0;

nomem:
	err->subgraph = -1;
	err->record = -1;
	err->field = KBIN_FIELD_PROG_SECTION;
	err->reason = KBIN_ERR_STAGE_NOMEM;
	err->value = 0;
	scnprintf(err->msg, sizeof(err->msg),
		  "%s: no kernel memory for the program",
		  kbin_reason_str(KBIN_ERR_STAGE_NOMEM));
	return -ENOMEM;
}

/**
 * nrsim_exec_free() - free what nrsim_exec_stage() kept, complete or
 *	partial, and the last trace.
 * @m: the model, not published, with no execution left (nrsim_model_stop()).
 */
void nrsim_exec_free(struct nrsim_model *m)
{
	struct nrsim_exec *x = m->exec;
	u32 s;

	for (s = 0; s < m->num_sg; s++) {
		struct nrsim_sg *sg = &m->sg[s];

		kvfree(sg->prog.sync);
		sg->prog.sync = NULL;
		kvfree(sg->prog.recs);
		sg->prog.recs = NULL;
		sg->exec = NULL;
		if (!x)
			continue;
		kvfree(x->sg[s].qres);
		kvfree(x->sg[s].xq);
		kvfree(x->sg[s].scratch);
		nrsim_eng_free(x->sg[s].eng);
	}
	if (x)
		kvfree(x->events);
	kvfree(x);
	m->exec = NULL;
}

/* ---- NEURONSIM_EXEC_F_RACE: the shadow (Documentation/races.rst) ---- */

/* shadow cells all the variables of a subgraph may take together */
#define NRSIM_RACE_VAR_CELLS	0x100000U

/**
 * struct nrsim_race - one subgraph's race check while it runs.
 * @prog: its program, as the order reads it.
 * @o: the order (kbin_race_order()).
 * @sh: the shadow.
 * @arrays: @prog's per-queue and per-block arrays.
 * @var_size: per var_id, the bytes of a variable the shadow covers.
 * @reported: the first violation went to the log.
 */
struct nrsim_race {
	struct kbin_race_prog prog;
	struct kbin_race_order o;
	struct kbin_race_shadow sh;
	u32 *arrays;
	u64 *var_size;
	bool reported;
};

static void nrsim_race_free(struct nrsim_race *r)
{
	if (!r)
		return;
	kvfree(r->o.vc);
	kvfree(r->o.prev);
	kvfree(r->o.trigger);
	kvfree(r->o.incs);
	kvfree(r->o.groups);
	kvfree(r->o.sem_groups);
	kvfree(r->sh.cells);
	kvfree(r->sh.var_first);
	kvfree(r->var_size);
	kvfree(r->arrays);
	kfree(r);
}

static void *nrsim_race_alloc(u64 n, size_t size)
{
	return kvcalloc(n + 1, size, GFP_KERNEL_ACCOUNT | __GFP_NOWARN);
}

/* the race space of var @var_id of @sg */
static unsigned int nrsim_race_space(const struct nrsim_sg *sg, u32 var_id)
{
	return var_id < sg->nmem ? kbin_race_space(sg->mrs[var_id].type) :
				   KBIN_RACE_VAR;
}

/*
 * The order of subgraph @xs's program and an empty shadow, in @xs->race:
 * 0, -E2BIG when its clocks would pass KBIN_RACE_MAX_CLOCKS entries
 * (kbin_race_words(); logged, ratelimited), -ENOMEM, or -EINVAL from
 * kbin_race_words() or kbin_race_order().
 */
static int nrsim_race_start(struct nrsim_exec_sg *xs)
{
	const struct nrsim_sg *sg = &xs->x->m->sg[xs->index];
	const struct nrsim_prog *p = &sg->prog;
	const struct nrsim_dma *dma = &sg->dma;
	const struct kbin_gen *g = xs->x->m->nd->arch;
	struct kbin_race_words w;
	struct nrsim_race *r;
	u32 nq = dma->num_queues, nb = dma->num_blocks, e, i;
	int ret = -ENOMEM;

	r = kzalloc(sizeof(*r), GFP_KERNEL_ACCOUNT);
	if (!r)
		return -ENOMEM;
	for (e = 0; e < KBIN_PROG_ENGINES; e++) {
		r->prog.sync[e] = p->sync + p->first[e];
		r->prog.num[e] = p->num[e];
	}
	r->arrays = nrsim_race_alloc(2 * (u64)nq + 2 * (u64)nb, sizeof(u32));
	if (!r->arrays)
		goto fail;
	for (i = 0; i < nq; i++) {
		r->arrays[i] = dma->queues[i].num_blocks;
		r->arrays[nq + i] = dma->queues[i].num_queues;
	}
	for (i = 0; i < nb; i++) {
		r->arrays[2 * nq + i] = dma->blocks[i].queue;
		r->arrays[2 * nq + nb + i] = dma->blocks[i].semaphore;
	}
	r->prog.num_queues = nq;
	r->prog.queue_blocks = r->arrays;
	r->prog.queue_add = r->arrays + nq;
	r->prog.num_blocks = nb;
	r->prog.block_queue = r->arrays + 2 * nq;
	r->prog.block_sem = r->arrays + 2 * nq + nb;
	r->prog.semaphores = g->semaphores;
	ret = kbin_race_words(&r->prog, &w);
	if (ret == -E2BIG)
		pr_warn_ratelimited("model %u sg%02u: NEURONSIM_EXEC_F_RACE: the order needs %llu clock entries (%llu nodes x %u chains), over the limit %u (Documentation/races.rst)\n",
				    xs->x->m->id, xs->index,
				    (unsigned long long)w.vc,
				    (unsigned long long)w.nodes,
				    KBIN_PROG_ENGINES + nq, KBIN_RACE_MAX_CLOCKS);
	if (ret)
		goto fail;
	ret = -ENOMEM;
	r->o.p = &r->prog;
	r->o.vc = nrsim_race_alloc(w.vc, sizeof(u32));
	r->o.prev = nrsim_race_alloc(w.vc, sizeof(u32));
	r->o.trigger = nrsim_race_alloc(nb, sizeof(u32));
	r->o.incs = nrsim_race_alloc(w.incs, sizeof(*r->o.incs));
	r->o.groups = nrsim_race_alloc(w.groups, sizeof(*r->o.groups));
	r->o.sem_groups = nrsim_race_alloc(g->semaphores, sizeof(u32));
	r->var_size = nrsim_race_alloc(sg->nmem, sizeof(u64));
	r->sh.var_first = nrsim_race_alloc(sg->nmem, sizeof(u64));
	if (!r->o.vc || !r->o.prev || !r->o.trigger || !r->o.incs ||
	    !r->o.groups || !r->o.sem_groups || !r->var_size || !r->sh.var_first)
		goto fail;
	ret = kbin_race_order(&r->o);
	if (ret)
		goto fail;
	for (i = 0; i < sg->nmem; i++)
		r->var_size[i] = nrsim_race_space(sg, i) == KBIN_RACE_VAR ?
				 sg->mrs[i].size : 0;
	r->sh.o = &r->o;
	r->sh.var_size = r->var_size;
	r->sh.num_vars = sg->nmem;
	r->sh.cells = nrsim_race_alloc(kbin_race_shadow_size(&r->sh, g,
							     NRSIM_RACE_VAR_CELLS),
				       sizeof(*r->sh.cells));
	ret = -ENOMEM;
	if (!r->sh.cells)
		goto fail;
	xs->race = r;
	return 0;
fail:
	nrsim_race_free(r);
	return ret;
}

/* node @n of @xs as text: "pe instruction 3" or "queue qSPIO0 block 7" */
static void nrsim_race_name(const struct nrsim_exec_sg *xs, u32 n, char *buf,
			    size_t len)
{
	const struct nrsim_dma *dma = &xs->x->m->sg[xs->index].dma;
	u32 c, pos;

	kbin_race_node_at(&xs->race->o, n, &c, &pos);
	if (c < KBIN_PROG_ENGINES)
		snprintf(buf, len, "%s instruction %u", kbin_dma_engine_str(c + 1), pos);
	else
		snprintf(buf, len, "queue %s block %u",
			 dma->names + dma->queues[c - KBIN_PROG_ENGINES].name_off, pos);
}

/*
 * the first violation of @xs to the log, once, laid out as KCSAN's report
 * of a race (but not as a "BUG:", which a race in the user's program is
 * not: the kernel is fine)
 */
static void nrsim_race_report(struct nrsim_exec_sg *xs)
{
	struct nrsim_race *r = xs->race;
	const struct kbin_race_violation *v = &r->sh.first;
	char a[96], b[96];

	if (!r->sh.found || r->reported)
		return;
	r->reported = true;
	nrsim_race_name(xs, v->node, a, sizeof(a));
	nrsim_race_name(xs, v->prev, b, sizeof(b));
	pr_err_ratelimited("==================================================================\n"
			   "data race in model %u sg%02u\n\n"
			   "%s to %s %s %u byte %llu by %s\n\n"
			   "previous %s by %s, not ordered before it (Documentation/races.rst)\n"
			   "==================================================================\n",
			   xs->x->m->id, xs->index, v->write ? "write" : "read",
			   v->space == KBIN_RACE_SBUF ? "SBUF" :
			   v->space == KBIN_RACE_PSUM ? "PSUM" : "var",
			   v->space == KBIN_RACE_VAR ? "var_id" : "partition",
			   v->space == KBIN_RACE_VAR ? v->var_id : v->partition,
			   (unsigned long long)v->byte, a,
			   v->prev_write ? "write" : "read", b);
}

/* the accesses of block @blk (an index among the subgraph's) */
static void nrsim_race_block(struct nrsim_exec_sg *xs, const struct nrsim_dma *dma,
			     u32 blk)
{
	const struct nrsim_sg *sg = &xs->x->m->sg[xs->index];
	const struct kbin_gen *g = xs->x->m->nd->arch;
	const struct nrsim_dma_block *b = &dma->blocks[blk];
	u32 node = xs->race->o.base[KBIN_PROG_ENGINES] + blk, d, dir;

	for (d = 0; d < b->num_descs; d++) {
		const struct nrsim_dma_desc *ds = &dma->descs[b->first_desc + d];

		for (dir = 0; dir < NRSIM_DMA_DIRS; dir++)
			kbin_race_dma_side(g, &ds->side[dir],
					   nrsim_race_space(sg, ds->side[dir].var_id),
					   dir == NRSIM_DMA_S2M, node,
					   kbin_race_shadow_access, &xs->race->sh);
	}
	nrsim_race_report(xs);
}

/* ---- the sequencers ---- */

static u64 nrsim_add_sat(u64 a, u64 b)
{
	u64 s;

	return check_add_overflow(a, b, &s) ? U64_MAX : s;
}

/* signed 32-bit, wrapping as a hardware register would */
static void nrsim_sem_add(s32 *sems, u32 i, u32 n)
{
	sems[i] = (s32)((u32)sems[i] + n);
}

static bool nrsim_wait_met(const s32 *sems, const struct kbin_prog_sync *s)
{
	return s->wait_mode != KBIN_PROG_WAIT_GE ||
	       (s64)sems[s->wait_sem] >= (s64)s->wait_value;
}

static void nrsim_ev_add(struct nrsim_exec_sg *xs,
			 const struct neuronsim_exec_event *ev)
{
	if (!xs->ev)
		return;
	if (xs->res.num_events < xs->ev_cap)
		xs->ev[xs->res.num_events++] = *ev;
	else
		xs->res.events_dropped++;
}

/* the trace's open run of engine @e (1..5), if any, as an event */
static void nrsim_run_flush(struct nrsim_exec_sg *xs, u32 e, struct nrsim_seq *g)
{
	struct neuronsim_exec_event ev = {
		.start_ns = g->run_start, .end_ns = g->run_end,
		.index = g->run_first, .count = g->run_count,
		.track = e, .kind = NEURONSIM_EVENT_INSTRS,
		.opcode = g->run_op,
	};

	if (!g->run)
		return;
	if (g->run_waited) {
		ev.flags = NEURONSIM_EVENT_F_WAITED;
		ev.semaphore = g->run_sem;
		ev.value = g->run_wanted;
	}
	nrsim_ev_add(xs, &ev);
	g->run = false;
}

/* ---- compute: a NeuronCore's SBUF and PSUM for kbin_compute_run() ---- */

/* the device address of byte @off of partition @p of @space */
static u64 nrsim_compute_addr(const struct nrsim_exec_sg *xs,
			      unsigned int space, u32 p, u32 off)
{
	const struct kbin_gen *a = xs->x->m->nd->arch;

	if (space == KBIN_SPACE_PSUM)
		return xs->psum + (u64)p * a->psum_banks * KBIN_PSUM_BANK_SIZE +
		       off;
	return xs->sbuf + (u64)p * a->sbuf_partition_stride + off;
}

static int nrsim_compute_read(void *ctx, unsigned int space, __u32 p,
			      __u32 off, void *buf, __u32 len)
{
	struct nrsim_exec_sg *xs = ctx;

	return nrsim_mem_read(&xs->x->m->nd->mem,
			      nrsim_compute_addr(xs, space, p, off), buf, len);
}

static int nrsim_compute_write(void *ctx, unsigned int space, __u32 p,
			       __u32 off, const void *buf, __u32 len)
{
	struct nrsim_exec_sg *xs = ctx;

	return nrsim_mem_write(&xs->x->m->nd->mem,
			       nrsim_compute_addr(xs, space, p, off), buf, len);
}

/*
 * Compute instruction @g->pc of engine @e (1..5) of a KBIN_PROG_F_COMPUTE
 * plan, at its end: its operation on the core's SBUF and PSUM.  The
 * checker held its record to kbin_compute_check() at LOAD.
 */
static int nrsim_compute(struct nrsim_exec_sg *xs, u32 e, struct nrsim_seq *g)
{
	const struct nrsim_prog *p = &xs->x->m->sg[xs->index].prog;
	const u8 *rec = p->recs + ((size_t)p->first[e - 1] + g->pc) *
			KBIN_PROG_RECORD_SIZE;
	const struct kbin_compute_mem mem = {
		.read = nrsim_compute_read,
		.write = nrsim_compute_write,
		.ctx = xs,
	};
	int ret;

	ret = kbin_compute_run(rec, &mem, g->regs, xs->scratch);
	if (ret)
		pr_warn_ratelimited("model %u sg%02u: %s instruction %u (opcode 0x%02x, %s) failed: %d\n",
				    xs->x->m->id, xs->index,
				    kbin_dma_engine_str(e), g->pc, rec[0],
				    kbin_compute_op_str(rec[0]), ret);
	return ret;
}

/*
 * instruction @g->pc of engine @e (1..5) ends at @g->end: 0, or a
 * compute instruction's errno (the instruction has not ended: its engine
 * stops at it)
 */
static int nrsim_end_instr(struct nrsim_exec_sg *xs, const struct nrsim_dma *dma,
			   u32 e, struct nrsim_seq *g, u32 *qpending)
{
	const struct kbin_prog_sync *s = &g->s[g->pc];
	struct neuronsim_exec_engine *acc = &xs->res.engines[e - 1];
	s32 *sems = xs->res.semaphores;
	struct neuronsim_exec_event ev = {
		.start_ns = g->start, .end_ns = g->end, .index = g->pc,
		.track = e, .opcode = s->opcode,
	};
	int ret;

	if (s->cls == KBIN_PROG_CLASS_COMPUTE && xs->scratch) {
		ret = nrsim_compute(xs, e, g);
		if (ret)
			return ret;
		if (unlikely(xs->race)) {
			const struct nrsim_prog *p = &xs->x->m->sg[xs->index].prog;

			kbin_race_compute(p->recs + ((size_t)p->first[e - 1] + g->pc) *
					  KBIN_PROG_RECORD_SIZE,
					  kbin_race_node(&xs->race->o, e - 1, g->pc),
					  kbin_race_shadow_access, &xs->race->sh);
			nrsim_race_report(xs);
		}
	}
	if (s->update_mode == KBIN_PROG_UPDATE_INC)
		nrsim_sem_add(sems, s->update_sem, 1);
	if (s->cls == KBIN_PROG_CLASS_TRIGGER) {
		/* the checker resolved it to a block of a queue of its engine */
		xs->xq[dma->blocks[s->block].queue].submitted++;
		(*qpending)++;
		if (xs->ev) {
			nrsim_run_flush(xs, e, g);
			ev.kind = NEURONSIM_EVENT_TRIGGER;
			ev.count = s->block;
			nrsim_ev_add(xs, &ev);
		}
	} else if (s->cls == KBIN_PROG_CLASS_DMA) {
		/* its semaphore effect; its data movement is not simulated */
		nrsim_sem_add(sems, s->add_sem, s->add_value);
		acc->not_simulated++;
		if (xs->ev) {
			nrsim_run_flush(xs, e, g);
			ev.kind = NEURONSIM_EVENT_DMA;
			ev.count = 1;
			ev.value = s->add_value;
			ev.semaphore = s->add_sem;
			nrsim_ev_add(xs, &ev);
		}
	} else if (xs->ev) {
		/* compute and waits: a run without a gap is one event */
		if (g->run && g->run_end == g->start) {
			g->run_end = g->end;
			g->run_count++;
		} else {
			nrsim_run_flush(xs, e, g);
			g->run = true;
			g->run_start = g->start;
			g->run_end = g->end;
			g->run_first = g->pc;
			g->run_count = 1;
			g->run_op = s->opcode;
			g->run_waited = s->wait_mode == KBIN_PROG_WAIT_GE;
			g->run_sem = s->wait_sem;
			g->run_wanted = s->wait_value;
		}
	}
	acc->done++;
	acc->classes[s->cls <= KBIN_PROG_CLASS_MAX ? s->cls : 0]++;
	acc->opcodes[s->opcode]++;
	acc->busy_ns += g->end - g->start;
	acc->end_ns = g->end;
	g->busy = false;
	WRITE_ONCE(g->pc, g->pc + 1);
	return 0;
}

/* the running block of queue @k ends at @q->end: its bytes move now */
static int nrsim_end_block(struct nrsim_exec_sg *xs, const struct nrsim_dma *dma,
			   u32 k, struct nrsim_xq *q)
{
	const struct nrsim_dma_queue *dq = &dma->queues[k];
	u32 blk = dq->first_block + q->started - 1;
	const struct nrsim_dma_block *b = &dma->blocks[blk];
	struct neuronsim_exec_queue *qr = &xs->qres[k];
	struct neuronsim_exec_engine *owner = NULL;
	struct nrsim_eng_result done;
	int ret;

	if (dq->owner >= 1 && dq->owner <= KBIN_PROG_ENGINES)
		owner = &xs->res.engines[dq->owner - 1];
	ret = nrsim_eng_block(xs->eng, k, blk, &done);
	qr->descs += done.descs;
	qr->udma_descs += done.udma_descs;
	qr->bytes += done.bytes;
	if (owner) {
		owner->descs += done.descs;
		owner->bytes += done.bytes;
	}
	if (ret) {
		xs->res.fail_queue = k;
		xs->res.fail_block = q->started - 1;
		xs->res.fail_desc = done.fail_desc;
		return ret;
	}
	if (unlikely(xs->race))
		nrsim_race_block(xs, dma, blk);
	nrsim_sem_add(xs->res.semaphores, b->semaphore, dq->num_queues);
	qr->blocks++;
	qr->busy_ns += q->end - q->start;
	if (owner)
		owner->blocks++;
	if (xs->ev) {
		struct neuronsim_exec_event ev = {
			.start_ns = q->start, .end_ns = q->end, .index = blk,
			.count = q->started - 1, .value = dq->num_queues,
			.track = k, .kind = NEURONSIM_EVENT_BLOCK,
			.semaphore = b->semaphore,
		};

		nrsim_ev_add(xs, &ev);
	}
	q->busy = false;
	return 0;
}

/* a reason to stop: UNLOAD or close, a signal, the timeout */
static int nrsim_exec_stopped(const struct nrsim_exec *x)
{
	int a;

	if (READ_ONCE(x->m->stopping))
		return -ECANCELED;
	a = READ_ONCE(x->abort);
	if (a)
		return a;
	if (x->deadline && ktime_get_ns() > x->deadline)
		return -ETIME;
	return 0;
}

/*
 * Subgraph @xs->index from virtual time 0, its semaphores at 0: 0 when
 * every instruction and block ran, -EDEADLK when nothing can advance
 * with instructions left, or why it stopped.
 */
static int nrsim_exec_run(struct nrsim_exec_sg *xs)
{
	struct nrsim_exec *x = xs->x;
	struct nrsim_model *m = x->m;
	struct nrsim_sg *sg = &m->sg[xs->index];
	const struct nrsim_prog *p = &sg->prog;
	const struct nrsim_dma *dma = &sg->dma;
	s32 *sems = xs->res.semaphores;
	u32 nq = dma->num_queues, qpending = 0, qbusy = 0, steps = 0, e, k, i;
	/* the engines with instructions left, in engine order */
	u32 act[KBIN_PROG_ENGINES], na = 0;
	u64 now = 0, next;
	bool any;
	int ret = 0;

	for (e = 0; e < KBIN_PROG_ENGINES; e++) {
		struct nrsim_seq *g = &xs->seq[e];
		u32 c;

		memset(g, 0, sizeof(*g));
		g->s = p->sync + p->first[e];
		g->n = p->num[e];
		if (g->n)
			act[na++] = e;
		for (c = 0; c <= KBIN_PROG_CLASS_MAX; c++)
			xs->cost[e][c] = kbin_prog_instr_ns(e + 1, c);
	}
	nrsim_eng_bind(xs->eng, m, xs->index, &x->abort, x->deadline);
	/* cancelled or timed out while queued: the same report */
	ret = nrsim_exec_stopped(x);
	if (!ret && x->race)
		ret = nrsim_race_start(xs);
	if (ret)
		goto out;
	for (;;) {
		/* start what can start now; the earliest end */
		next = U64_MAX;
		any = false;
		for (i = 0; i < na; i++) {
			struct nrsim_seq *g = &xs->seq[act[i]];

			if (!g->busy) {
				const struct kbin_prog_sync *s = &g->s[g->pc];

				if (!nrsim_wait_met(sems, s))
					continue;
				g->busy = true;
				g->start = now;
				g->end = nrsim_add_sat(now, xs->cost[act[i]][s->cls &
							KBIN_PROG_CLASS_MAX]);
			}
			if (g->end <= next)
				next = g->end;
			any = true;
		}
		for (k = 0; (qpending || qbusy) && k < nq; k++) {
			struct nrsim_xq *q = &xs->xq[k];

			if (!q->busy && q->started < q->submitted) {
				q->busy = true;
				q->start = now;
				q->end = nrsim_add_sat(now,
						       dma->blocks[dma->queues[k].first_block +
								  q->started].ns);
				q->started++;
				qpending--;
				qbusy++;
			}
			if (q->busy) {
				if (q->end <= next)
					next = q->end;
				any = true;
			}
		}
		if (!any)
			break;	/* nothing runs: the end, or a deadlock */
		now = next;
		/* everything ending now ends: engines PE .. SP, then queues */
		for (i = 0; i < na; ) {
			struct nrsim_seq *g = &xs->seq[act[i]];

			if (g->busy && g->end == now) {
				ret = nrsim_end_instr(xs, dma, act[i] + 1, g,
						      &qpending);
				if (ret)
					goto out;
				if (g->pc >= g->n) {
					na--;
					memmove(&act[i], &act[i + 1], (na - i) * sizeof(*act));
					continue;
				}
			}
			i++;
		}
		for (k = 0; qbusy && k < nq; k++)
			if (xs->xq[k].busy && xs->xq[k].end == now) {
				ret = nrsim_end_block(xs, dma, k, &xs->xq[k]);
				if (ret)
					goto out;
				qbusy--;
			}
		xs->res.virtual_ns = now;
		if (!(++steps % NRSIM_EXEC_CHECK_STEPS)) {
			ret = nrsim_exec_stopped(x);
			if (ret)
				goto out;
			cond_resched();
		}
	}
out:
	for (e = 0; e < KBIN_PROG_ENGINES; e++) {
		struct nrsim_seq *g = &xs->seq[e];
		struct neuronsim_exec_engine *acc = &xs->res.engines[e];
		const struct kbin_prog_sync *s;

		nrsim_run_flush(xs, e + 1, g);
		if (g->pc >= g->n) {
			acc->state = NEURONSIM_ENGINE_DONE;
			continue;
		}
		s = &g->s[g->pc];
		if (g->busy || nrsim_wait_met(sems, s)) {
			acc->state = NEURONSIM_ENGINE_STOPPED;
			continue;
		}
		acc->state = NEURONSIM_ENGINE_WAITING;
		acc->wait_opcode = s->opcode;
		acc->wait_semaphore = s->wait_sem;
		acc->wait_value = s->wait_value;
		acc->wait_current = sems[s->wait_sem];
		if (!ret)
			ret = -EDEADLK;
	}
	if (xs->race) {
		if (!ret && xs->race->sh.found)
			ret = -EILSEQ;
		nrsim_race_free(xs->race);
		xs->race = NULL;
	}
	return ret;
}

/* ---- the end of a subgraph, of an execution ---- */

/*
 * Subgraph @xs is done with @status: its core is free; the execution is
 * done with its last subgraph.  Return: it was the last.
 * Context: the file's run_lock held.
 */
static bool nrsim_exec_sg_done_locked(struct nrsim_exec_sg *xs, int status)
{
	struct nrsim_exec *x = xs->x;
	struct nrsim_model *m = x->m;
	struct nrsim_device *nd = m->nd;
	struct nrsim_file *nf = m->owner;
	u32 s;

	lockdep_assert_held(&nf->run_lock);
	xs->res.status = status;
	xs->ended = true;
	spin_lock(&nd->exec.lock);
	if (nd->exec.core[xs->res.core] == m)
		nd->exec.core[xs->res.core] = NULL;
	spin_unlock(&nd->exec.lock);
	if (--x->pending)
		return false;
	WRITE_ONCE(x->m->exec_state, NEURONSIM_EXEC_DONE);
	x->wall_ns = ktime_get_ns() - x->t0;
	x->executions++;
	x->status = 0;
	for (s = 0; s < m->num_sg && !x->status; s++)
		x->status = x->sg[s].res.status;
	x->unwaited = true;
	nf->unwaited++;
	return true;
}

/*
 * A subgraph of @x was cancelled by UNLOAD or close (-ECANCELED):
 * the execution sends no EXEC_DONE, even when another subgraph that
 * ended first failed and so gave the execution its status.
 */
static bool nrsim_exec_cancelled(const struct nrsim_exec *x)
{
	u32 s;

	for (s = 0; s < x->m->num_sg; s++)
		if (x->sg[s].res.status == -ECANCELED)
			return true;
	return false;
}

/* the last touch of the model by a work: nrsim_model_stop() waits for it */
static void nrsim_exec_put_locked(struct nrsim_model *m)
{
	struct nrsim_file *nf = m->owner;

	lockdep_assert_held(&nf->run_lock);
	m->active_runs--;
	nf->run_seq++;
	wake_up_all(&nf->run_wq);
}

/*
 * The figures of the ended execution of @x's model: @w's out fields but
 * the counts of what is copied.  Context: run_lock held, or the file's
 * lock with the execution not running.
 */
static void nrsim_exec_summary(const struct nrsim_exec *x,
			       struct neuronsim_exec_wait *w)
{
	const struct nrsim_model *m = x->m;
	u32 s, e, k;

	w->num_sg = m->num_sg;
	w->state = READ_ONCE(x->m->exec_state);
	w->status = x->status;
	w->executions = x->executions;
	w->wall_ns = x->wall_ns;
	w->virtual_ns = 0;
	w->instructions = 0;
	w->blocks = 0;
	w->bytes = 0;
	w->not_simulated = 0;
	if (w->state == NEURONSIM_EXEC_IDLE)
		return;
	for (s = 0; s < m->num_sg; s++) {
		const struct nrsim_exec_sg *xs = &x->sg[s];

		w->virtual_ns = max(w->virtual_ns, xs->res.virtual_ns);
		for (e = 0; e < KBIN_PROG_ENGINES; e++) {
			w->instructions += xs->res.engines[e].done;
			w->not_simulated += xs->res.engines[e].not_simulated;
		}
		for (k = 0; k < xs->res.num_queues; k++) {
			w->blocks += xs->qres[k].blocks;
			w->bytes += xs->qres[k].bytes;
		}
	}
}

static void nrsim_exec_work(struct work_struct *work)
{
	struct nrsim_exec_sg *xs = container_of(work, struct nrsim_exec_sg, work);
	struct nrsim_exec *x = xs->x;
	struct nrsim_model *m = x->m;
	struct nrsim_file *nf = m->owner;
	struct nrsim_device *nd = m->nd;
	struct nrsim_engine_stats *st = &nd->engine.stats[xs->res.core];
	struct mem_cgroup *old, *memcg = NULL;
	struct neuronsim_exec_wait sum;
	u64 t0 = ktime_get_ns(), bytes = 0, udma = 0, descs = 0;
	bool last, cancelled = false;
	int ret;
	u32 k;

	/* started: nrsim_exec_stop_locked() can no longer take it off */
	spin_lock(&nf->run_lock);
	xs->queued = false;
	WRITE_ONCE(xs->running, true);
	spin_unlock(&nf->run_lock);
	old = set_active_memcg(x->memcg);
	ret = nrsim_exec_run(xs);
	set_active_memcg(old);
	xs->res.wall_ns = ktime_get_ns() - t0;
	for (k = 0; k < xs->res.num_queues; k++) {
		bytes += xs->qres[k].bytes;
		udma += xs->qres[k].udma_descs;
		descs += xs->qres[k].descs;
	}
	atomic64_add(bytes, &st->bytes);
	atomic64_add(udma, &st->udma_descs);
	atomic64_add(descs, &st->descs);
	atomic64_add(xs->res.wall_ns, &st->busy_ns);
	nrsim_sysfs_dma_counted(nd, xs->res.core, false);
	if (ret != -ECANCELED)
		nrsim_sysfs_count_exec(nd, xs->res.core, ret, xs->res.virtual_ns);
	spin_lock(&nf->run_lock);
	WRITE_ONCE(xs->running, false);
	last = nrsim_exec_sg_done_locked(xs, ret);
	/* its accesses are over: a READ_VAR after EXEC_WAIT is not refused */
	m->exec_tails++;
	if (last) {
		/* a next EXECUTE may start once unlocked: what is ours now */
		memcg = x->memcg;
		x->memcg = NULL;
		nrsim_exec_summary(x, &sum);
		cancelled = nrsim_exec_cancelled(x);
	}
	spin_unlock(&nf->run_lock);
	if (last) {
		mem_cgroup_put(memcg);
		if (!cancelled)
			nrsim_netlink_notify_exec(m, &sum);
	}
	/* the last touch of the model: nrsim_model_stop() waits for this */
	spin_lock(&nf->run_lock);
	m->exec_tails--;
	nrsim_exec_put_locked(m);
	spin_unlock(&nf->run_lock);
}

/**
 * nrsim_exec_stop_locked() - UNLOAD or close: take the model's subgraphs
 *	that have not started off their workqueues (status -ECANCELED; the
 *	running ones see the model stopping within a UDMA descriptor or
 *	NRSIM_EXEC_CHECK_STEPS steps).  Called by nrsim_model_stop(), which
 *	then waits for the model's runs and works to end and forgets the
 *	execution (nrsim_exec_forget_locked()).
 * @nf: the owning file, its run_lock held.
 * @m: the model, stopping.
 */
void nrsim_exec_stop_locked(struct nrsim_file *nf, struct nrsim_model *m)
{
	struct nrsim_exec *x = m->exec;
	bool last = false;
	u32 s;

	lockdep_assert_held(&nf->run_lock);
	if (!x)
		return;
	for (s = 0; s < m->num_sg; s++) {
		struct nrsim_exec_sg *xs = &x->sg[s];

		if (!xs->queued || !cancel_work(&xs->work))
			continue;
		xs->queued = false;
		last = nrsim_exec_sg_done_locked(xs, -ECANCELED);
		m->active_runs--;
	}
	/* cancelled, so no netlink event; nothing else holds the memcg */
	if (last) {
		mem_cgroup_put(x->memcg);
		x->memcg = NULL;
	}
}

/**
 * nrsim_exec_forget_locked() - UNLOAD or close, once the model's works
 *	have ended: forget its execution if EXEC_WAIT did not report it, so
 *	poll() does not report it.  Called by nrsim_model_stop() after
 *	waiting: a subgraph that was running when nrsim_exec_stop_locked()
 *	was called ends the execution only afterwards.
 * @nf: the owning file, its run_lock held.
 * @m: the model, stopped, with no work left.
 */
void nrsim_exec_forget_locked(struct nrsim_file *nf, struct nrsim_model *m)
{
	struct nrsim_exec *x = m->exec;

	lockdep_assert_held(&nf->run_lock);
	if (x && x->unwaited) {
		x->unwaited = false;
		nf->unwaited--;
	}
}

/* ---- EXECUTE ---- */

/*
 * The entries of an execution's trace buffer: at most one event per
 * instruction and per block of each subgraph, @max in all.
 */
static u32 nrsim_exec_trace_need(const struct nrsim_model *m, u32 max)
{
	u64 need = 0;
	u32 s;

	for (s = 0; s < m->num_sg; s++)
		need += m->sg[s].prog.instrs + m->sg[s].dma.num_blocks;
	return clamp_t(u64, need, 1, max);
}

/*
 * Give each subgraph its share of the trace buffer, what it can use, in
 * subgraph order; none without one.  Only once the execution is claimed:
 * until then the shares are the last execution's, which EXEC_WAIT reads.
 */
static void nrsim_exec_trace_share(struct nrsim_exec *x)
{
	const struct nrsim_model *m = x->m;
	u64 left = x->num_events, want;
	u32 s;

	for (s = 0; s < m->num_sg; s++) {
		want = x->events ? min(left, m->sg[s].prog.instrs +
					     m->sg[s].dma.num_blocks) : 0;
		x->sg[s].ev = x->events ? x->events + (x->num_events - left) : NULL;
		x->sg[s].ev_cap = want;
		left -= want;
	}
}

/* an execution of @m may start: nothing of it runs, its cores are free */
static int nrsim_exec_claim_locked(struct nrsim_file *nf, struct nrsim_model *m)
{
	struct nrsim_device *nd = m->nd;
	u32 s, i;
	int ret = 0;

	lockdep_assert_held(&nf->run_lock);
	if (m->exec_state == NEURONSIM_EXEC_RUNNING)
		return -EBUSY;
	for (s = 0; s < m->num_sg; s++)
		for (i = 0; i < m->sg[s].dma.num_queues; i++) {
			u8 st = m->sg[s].dma.qrun[i].state;

			if (st == NEURONSIM_RUN_QUEUED || st == NEURONSIM_RUN_RUNNING)
				return -EBUSY;
		}
	spin_lock(&nd->exec.lock);
	for (s = 0; s < m->num_sg && !ret; s++)
		if (nd->exec.core[m->sg[s].core])
			ret = -EBUSY;
	for (s = 0; s < m->num_sg && !ret; s++)
		nd->exec.core[m->sg[s].core] = m;
	spin_unlock(&nd->exec.lock);
	return ret;
}

/**
 * nrsim_ioctl_execute() - NEURONSIM_IOC_EXECUTE: execute every subgraph of
 *	a model on its NeuronCore (struct neuronsim_exec).
 * @nf: the caller's file.
 * @uarg: user pointer to struct neuronsim_exec.
 * @usize: its size from the command.
 *
 * Return: 0 once queued; the errors of struct neuronsim_exec.
 */
long nrsim_ioctl_execute(struct nrsim_file *nf, void __user *uarg, size_t usize)
{
	struct neuronsim_exec_event *ev = NULL, *old = NULL;
	struct neuronsim_exec ue;
	struct nrsim_model *m;
	struct nrsim_exec *x;
	bool trace;
	long ret;
	u32 s, nev;

	ret = copy_struct_from_user(&ue, sizeof(ue), uarg, usize);
	if (ret)
		return ret;
	trace = ue.flags & NEURONSIM_EXEC_F_TRACE;
	if ((ue.flags & ~NEURONSIM_EXEC_F_MASK) || ue.reserved0 || ue.reserved ||
	    (trace && (!ue.max_events || ue.max_events > NEURONSIM_EXEC_MAX_EVENTS)) ||
	    (!trace && ue.max_events))
		return -EINVAL;
	mutex_lock(&nf->lock);
	m = nrsim_model_get_locked(nf, ue.model_id);
	if (!m) {
		ret = -ENOENT;
		goto out;
	}
	x = m->exec;
	if (!x) {
		ret = -ENODATA;
		goto out;
	}
	/* the state changes to RUNNING only here, under the file's lock */
	if (READ_ONCE(x->m->exec_state) == NEURONSIM_EXEC_RUNNING) {
		ret = -EBUSY;
		goto out;
	}
	/*
	 * A new trace buffer, if the last one does not fit; the last one
	 * and its shares stay the last execution's until this one is
	 * claimed (a refused EXECUTE leaves its result as it was)
	 */
	nev = trace ? nrsim_exec_trace_need(m, ue.max_events) : 0;
	if (trace && (!x->events || x->num_events != nev)) {
		ev = kvmalloc_array(nev, sizeof(*ev),
				    GFP_KERNEL_ACCOUNT | __GFP_NOWARN);
		if (!ev) {
			ret = -ENOMEM;
			goto out;
		}
	}
	spin_lock(&nf->run_lock);
	ret = nrsim_exec_claim_locked(nf, m);
	if (ret) {
		spin_unlock(&nf->run_lock);
		kvfree(ev);
		goto out;
	}
	if (!trace || ev) {
		old = x->events;
		x->events = ev;
		x->num_events = nev;
	}
	nrsim_exec_trace_share(x);
	if (x->unwaited) {
		x->unwaited = false;
		nf->unwaited--;
	}
	WRITE_ONCE(x->m->exec_state, NEURONSIM_EXEC_RUNNING);
	x->race = ue.flags & NEURONSIM_EXEC_F_RACE;
	x->abort = 0;
	x->status = 0;
	x->pending = m->num_sg;
	x->t0 = ktime_get_ns();
	x->deadline = ue.timeout_ns ? nrsim_add_sat(x->t0, ue.timeout_ns) : 0;
	x->memcg = get_mem_cgroup_from_mm(current->mm);
	for (s = 0; s < m->num_sg; s++) {
		struct nrsim_exec_sg *xs = &x->sg[s];
		const struct nrsim_sg *sg = &m->sg[s];
		u32 e;

		memset(&xs->res, 0, sizeof(xs->res));
		xs->res.core = sg->core;
		xs->res.num_queues = sg->dma.num_queues;
		xs->res.fail_queue = U32_MAX;
		xs->res.fail_block = U32_MAX;
		xs->res.fail_desc = U32_MAX;
		for (e = 0; e < KBIN_PROG_ENGINES; e++)
			xs->res.engines[e].instructions = sg->prog.num[e];
		memset(xs->qres, 0, sg->dma.num_queues * sizeof(*xs->qres));
		memset(xs->xq, 0, sg->dma.num_queues * sizeof(*xs->xq));
		memset(xs->seq, 0, sizeof(xs->seq));
		xs->ended = false;
		xs->queued = true;
	}
	m->active_runs += m->num_sg;
	spin_unlock(&nf->run_lock);
	kvfree(old);	/* the last trace, replaced */
	for (s = 0; s < m->num_sg; s++)
		queue_work(nf->nd->engine.wq[m->sg[s].core], &x->sg[s].work);
out:
	mutex_unlock(&nf->lock);
	return ret;
}

/* ---- EXEC_WAIT ---- */

/* the ended execution of @m to user space; it is waited for */
static int nrsim_exec_report(struct nrsim_file *nf, struct nrsim_model *m,
			     struct neuronsim_exec_wait *w)
{
	struct nrsim_exec *x = m->exec;
	u32 s, nq = 0, nev = 0, n;
	void __user *up;

	nrsim_exec_summary(x, w);
	if (w->state == NEURONSIM_EXEC_IDLE) {
		w->num_queues = 0;
		w->num_events = 0;
		return 0;
	}
	n = min(w->num_subgraphs, m->num_sg);
	for (s = 0; s < n; s++)
		if (copy_to_user(u64_to_user_ptr(w->subgraphs) + s * sizeof(x->sg[s].res),
				 &x->sg[s].res, sizeof(x->sg[s].res)))
			return -EFAULT;
	for (s = 0; s < m->num_sg; s++) {
		const struct nrsim_exec_sg *xs = &x->sg[s];

		n = min(xs->res.num_queues, w->num_queues > nq ? w->num_queues - nq : 0);
		up = u64_to_user_ptr(w->queues) + (u64)nq * sizeof(*xs->qres);
		if (n && copy_to_user(up, xs->qres, n * sizeof(*xs->qres)))
			return -EFAULT;
		nq += xs->res.num_queues;
		n = min(xs->res.num_events, w->num_events > nev ? w->num_events - nev : 0);
		up = u64_to_user_ptr(w->events) + (u64)nev * sizeof(*xs->ev);
		if (n && copy_to_user(up, xs->ev, n * sizeof(*xs->ev)))
			return -EFAULT;
		nev += xs->res.num_events;
	}
	w->num_queues = nq;
	w->num_events = nev;
	spin_lock(&nf->run_lock);
	if (x->unwaited) {
		x->unwaited = false;
		nf->unwaited--;
	}
	spin_unlock(&nf->run_lock);
	return 0;
}

/* a signal in EXEC_WAIT: cancel the execution of model @id */
static void nrsim_exec_cancel(struct nrsim_file *nf, u32 id)
{
	struct nrsim_model *m;

	mutex_lock(&nf->lock);
	m = nrsim_model_get_locked(nf, id);
	if (m && m->exec && READ_ONCE(m->exec_state) == NEURONSIM_EXEC_RUNNING)
		WRITE_ONCE(m->exec->abort, -EINTR);
	mutex_unlock(&nf->lock);
}

/**
 * nrsim_ioctl_exec_wait() - NEURONSIM_IOC_EXEC_WAIT: wait for a model's
 *	execution to end and report it (struct neuronsim_exec_wait).
 * @nf: the caller's file.
 * @uarg: user pointer to struct neuronsim_exec_wait.
 * @usize: its size from the command.
 *
 * Sleeps without the file's lock, looking again after every finished
 * run or execution of the file; a signal cancels the execution.
 *
 * Return: 0 with the struct written back; the errors of struct
 * neuronsim_exec_wait.
 */
long nrsim_ioctl_exec_wait(struct nrsim_file *nf, void __user *uarg,
			   size_t usize)
{
	struct neuronsim_exec_wait w;
	struct nrsim_model *m;
	long left, ret;
	u64 seq;
	bool running;

	ret = copy_struct_from_user(&w, sizeof(w), uarg, usize);
	if (ret)
		return ret;
	if (w.flags || w.reserved || (w.num_subgraphs && !w.subgraphs) ||
	    (w.num_queues && !w.queues) || (w.num_events && !w.events))
		return -EINVAL;
	left = w.timeout_ns < 0 ? MAX_SCHEDULE_TIMEOUT :
	       (long)min_t(u64, nsecs_to_jiffies(w.timeout_ns), MAX_SCHEDULE_TIMEOUT - 1);
	for (;;) {
		mutex_lock(&nf->lock);
		m = nrsim_model_get_locked(nf, w.model_id);
		if (!m || !m->exec) {
			mutex_unlock(&nf->lock);
			return m ? -ENODATA : -ENOENT;
		}
		spin_lock(&nf->run_lock);
		seq = nf->run_seq;
		running = m->exec_state == NEURONSIM_EXEC_RUNNING;
		spin_unlock(&nf->run_lock);
		if (!running) {
			ret = nrsim_exec_report(nf, m, &w);
			mutex_unlock(&nf->lock);
			break;
		}
		mutex_unlock(&nf->lock);
		if (!left)
			return -ETIMEDOUT;
		left = wait_event_interruptible_timeout(nf->run_wq,
							READ_ONCE(nf->run_seq) != seq,
							left);
		if (left < 0) {
			nrsim_exec_cancel(nf, w.model_id);
			return -EINTR;
		}
		if (!left && READ_ONCE(nf->run_seq) == seq)
			return -ETIMEDOUT;
	}
	if (ret)
		return ret;
	if (copy_to_user(uarg, &w, min_t(size_t, usize, sizeof(w))))
		return -EFAULT;
	return 0;
}

/* ---- debugfs: models/<id>/sg<N>/{semaphores,engines,psum} ---- */

/*
 * semaphores: "index value" per semaphore that is not zero after the
 * last execution; nothing while one runs or before the first.
 */
static int nrsim_exec_sems_show(struct seq_file *f, void *unused)
{
	const struct nrsim_exec_sg *xs = f->private;
	struct nrsim_file *nf = xs->x->m->owner;
	u32 i;

	spin_lock(&nf->run_lock);
	if (xs->x->m->exec_state == NEURONSIM_EXEC_DONE)
		for (i = 0; i < NEURONSIM_SEMAPHORES; i++)
			if (xs->res.semaphores[i])
				seq_printf(f, "%u %d\n", i, xs->res.semaphores[i]);
	spin_unlock(&nf->run_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(nrsim_exec_sems);

/*
 * engines: per engine its position (the next instruction; live while the
 * subgraph runs), instructions, state and what it waits for, and the
 * instructions executed per opcode; a subgraph that ended says its end
 * while others of the execution still run.
 */
static int nrsim_exec_engines_show(struct seq_file *f, void *unused)
{
	const struct nrsim_exec_sg *xs = f->private;
	const struct nrsim_exec *x = xs->x;
	struct nrsim_file *nf = x->m->owner;
	const struct nrsim_prog *p = &x->m->sg[xs->index].prog;
	u32 e, op;
	u8 state;

	seq_puts(f, "engine\tposition\tinstructions\tstate\twaits_for\topcodes\n");
	spin_lock(&nf->run_lock);
	state = x->m->exec_state;
	for (e = 0; e < KBIN_PROG_ENGINES; e++) {
		const struct neuronsim_exec_engine *g = &xs->res.engines[e];

		seq_printf(f, "%s\t", kbin_dma_engine_str(e + 1));
		if (state == NEURONSIM_EXEC_RUNNING && !xs->ended) {
			seq_printf(f, "%u\t%u\t%s\t-\t-\n", READ_ONCE(xs->seq[e].pc),
				   p->num[e],
				   kbin_run_state_str(READ_ONCE(xs->running) ?
						      NEURONSIM_RUN_RUNNING :
						      NEURONSIM_RUN_QUEUED));
			continue;
		}
		if (state == NEURONSIM_EXEC_IDLE) {
			seq_printf(f, "0\t%u\t%s\t-\t-\n", p->num[e],
				   kbin_engine_state_str(NEURONSIM_ENGINE_IDLE));
			continue;
		}
		seq_printf(f, "%u\t%u\t%s\t", g->done, g->instructions,
			   kbin_engine_state_str(g->state));
		if (g->state == NEURONSIM_ENGINE_WAITING)
			seq_printf(f, "semaphore %u >= %u (is %d) at instruction %u (opcode 0x%02x)\t",
				   g->wait_semaphore, g->wait_value,
				   g->wait_current, g->done, g->wait_opcode);
		else
			seq_puts(f, "-\t");
		for (op = 0; op < 256; op++)
			if (g->opcodes[op])
				seq_printf(f, "0x%02x:%u ", op, g->opcodes[op]);
		seq_puts(f, g->done ? "\n" : "-\n");
	}
	spin_unlock(&nf->run_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(nrsim_exec_engines);

/*
 * psum: the bytes of the subgraph's NeuronCore's PSUM window, psum_size
 * of them, partition p at p * psum_banks * KBIN_PSUM_BANK_SIZE; what is
 * there when read (while an execution runs, its compute writes them).
 */
static ssize_t nrsim_exec_psum_read(struct file *file, char __user *buf,
				    size_t count, loff_t *ppos)
{
	const struct nrsim_exec_sg *xs = file->private_data;
	struct nrsim_device *nd = xs->x->m->nd;
	u64 size = nd->arch->psum_size;
	loff_t pos = *ppos;
	int ret;

	if (pos < 0)
		return -EINVAL;
	if ((u64)pos >= size || !count)
		return 0;
	count = min_t(u64, count, size - pos);
	ret = nrsim_mem_read_user(&nd->mem, xs->psum + pos, buf, count);
	if (ret)
		return ret;
	*ppos = pos + count;
	return count;
}

static const struct file_operations nrsim_exec_psum_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = nrsim_exec_psum_read,
	.llseek = default_llseek,
};

/**
 * nrsim_exec_debugfs_add() - the execution files of each subgraph's
 *	debugfs directory, semaphores, engines and psum
 *	(Documentation/debugfs.rst).
 * @m: the model, being published, after nrsim_debugfs_model_add().
 *
 * Failures are not fatal (debugfs may be disabled).
 */
void nrsim_exec_debugfs_add(struct nrsim_model *m)
{
	struct nrsim_exec_sg *xs;
	u32 i;

	for (i = 0; i < m->num_sg; i++) {
		xs = m->sg[i].exec;
		/* no directory: debugfs is disabled or failed */
		if (!xs || IS_ERR_OR_NULL(m->sg[i].dir))
			continue;
		debugfs_create_file("semaphores", 0400, m->sg[i].dir, xs,
				    &nrsim_exec_sems_fops);
		debugfs_create_file("engines", 0400, m->sg[i].dir, xs,
				    &nrsim_exec_engines_fops);
		debugfs_create_file_size("psum", 0400, m->sg[i].dir, xs,
					 &nrsim_exec_psum_fops,
					 m->nd->arch->psum_size);
	}
}

/**
 * nrsim_exec_init() - a device's executions: no NeuronCore is held.
 * @nd: the device, with @nd->exec zeroed.
 */
void nrsim_exec_init(struct nrsim_device *nd)
{
	spin_lock_init(&nd->exec.lock);
}

/**
 * nrsim_exec_exit() - undo nrsim_exec_init(); no execution holds a
 *	NeuronCore any more (no model is left on the device).
 * @nd: the device.
 */
void nrsim_exec_exit(struct nrsim_device *nd)
{
	u32 c;

	for (c = 0; c < NEURONSIM_MAX_CORES; c++)
		WARN_ON_ONCE(nd->exec.core[c]);
}
