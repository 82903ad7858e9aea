// SPDX-License-Identifier: GPL-2.0
/*
 * engine.c - the simulated DMA engines: one per NeuronCore, running the
 * relocated queues of a model (relocate.c) against the device's sparse
 * memory, asynchronously as hardware does (Documentation/dma.rst).
 *
 *   RUN   queues the named queues of a subgraph, as one run, on the
 *         ordered workqueue of the subgraph's NeuronCore and returns;
 *   the run's work executes each queue: its blocks in id order, each
 *         block's descriptors in order, each descriptor's UDMA
 *         descriptors read back from the queue's M2S and S2M rings in
 *         ring order, the M2S ring the stream of bytes read and the S2M
 *         ring where it is written, each cut into its own pieces; a copy
 *         moves the stream (nrsim_mem_copy()), a cast converts it element
 *         by element (kbin_cast.h), a transpose gathers, permutes and
 *         scatters it; a finished block adds its queue's num_queues to
 *         its semaphore;
 *   WAIT  sleeps (interruptible, with a timeout) until the named queues
 *         are neither queued nor running and reports each;
 *   poll  says EPOLLIN while a finished run was not reported by WAIT;
 *   UNLOAD and close take the model's queued runs off the workqueue,
 *         stop its running one before its next UDMA descriptor and wait
 *         for it (nrsim_engine_stop()) before anything is freed.
 *
 * Compute engines (PE, ACT, POOL, DVE instruction streams) are not
 * simulated: only the DMA queues move bytes.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/memcontrol.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/poll.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "kbin_cast.h"
#include "kbin_dma.h"
#include "nrsim.h"
#include "netlink.h"

static_assert(sizeof(struct neuronsim_run) == 40);
static_assert(sizeof(struct neuronsim_run_result) == 64);
static_assert(sizeof(struct neuronsim_wait) == 48);
static_assert(NRSIM_DMA_M2S == NEURONSIM_DMA_M2S && NRSIM_DMA_S2M == NEURONSIM_DMA_S2M);

/* UDMA descriptors read from a ring at a time */
#define NRSIM_ENG_RING_BUF	64
/* bytes of a transpose's element array the engine gathers at most */
#define NRSIM_ENG_TRANSPOSE_MAX	(4U << 20)

/**
 * struct nrsim_run - one RUN: queues of a subgraph, run in order.
 * @work: on the NeuronCore's engine workqueue.
 * @node: in its file's @queued list until the work starts (under the
 *	file's run_lock).
 * @m: the model (it waits for the run before it is freed).
 * @memcg: the memory cgroup of the task that ran it: the pages the run
 *	writes are charged to it, as that task's own writes would be
 *	(mem.c); a reference, dropped when the run ends.
 * @sg: the subgraph index.
 * @nq: entries of @q.
 * @q: queue indexes.
 */
struct nrsim_run {
	struct work_struct work;
	struct list_head node;
	struct nrsim_model *m;
	struct mem_cgroup *memcg;
	u32 sg;
	u32 nq;
	u32 q[];
};

/* reading one queue side's UDMA descriptors in ring order */
struct nrsim_ring_rd {
	u32 idx;
	u32 n;
	u32 pos;
	union udma_desc buf[NRSIM_ENG_RING_BUF];
};

/**
 * struct nrsim_eng - the DMA engine at work on one subgraph's queues: a
 *	RUN's queue, or an execution's blocks (exec.c).
 * @nd: the device.
 * @m: the model.
 * @sg: the subgraph.
 * @q: the queue.
 * @qr: a RUN's run state of @q; NULL for an execution.
 * @rd: its two sides' ring readers.
 * @rd_q: the queue whose rings @rd read (an execution's blocks come from
 *	any queue, one at a time), or NULL.
 * @sbuf: PAGE_SIZE bytes of a cast's source elements.
 * @dbuf: PAGE_SIZE bytes of a cast's converted elements.
 * @udma: UDMA descriptors executed.
 * @bytes: bytes written.
 * @abort: an execution's cancellation (a negative errno once set), or
 *	NULL.
 * @deadline: ktime_get_ns() past which an execution stops with -ETIME,
 *	or 0.
 * @fail_d: the descriptor (its index in the subgraph) a block stopped
 *	in.
 * @injected: the failure is fail_run_nth's.
 */
struct nrsim_eng {
	struct nrsim_device *nd;
	struct nrsim_model *m;
	struct nrsim_sg *sg;
	const struct nrsim_dma_queue *q;
	struct nrsim_dma_qrun *qr;
	struct nrsim_ring_rd rd[NRSIM_DMA_DIRS];
	const struct nrsim_dma_queue *rd_q;
	u8 *sbuf;
	u8 *dbuf;
	u64 udma;
	u64 bytes;
	const int *abort;
	u64 deadline;
	u32 fail_d;
	bool injected;
};

/*
 * Why the work must stop now: -ECANCELED UNLOAD or close, an execution's
 * cancellation (-EINTR) or its timeout (-ETIME); else 0.
 */
static int nrsim_eng_stopped(const struct nrsim_eng *e)
{
	int a;

	if (READ_ONCE(e->m->stopping))
		return -ECANCELED;
	if (e->abort) {
		a = READ_ONCE(*e->abort);
		if (a)
			return a;
	}
	return 0;
}

/*
 * The next UDMA descriptor of side @dir: its address and length; -EIO
 * for a bad one, -ECANCELED when the model is stopping.
 */
static int nrsim_eng_next(struct nrsim_eng *e, u32 dir, u64 *addr, u32 *len)
{
	struct nrsim_ring_rd *rd = &e->rd[dir];
	const struct nrsim_dma_queue *q = e->q;
	const union udma_desc *d;
	u32 ctrl;
	int ret;

	/*
	 * UNLOAD or close (or an execution's cancellation): stop before
	 * this UDMA descriptor, so a running queue stops within one (at
	 * most 64 KiB moved), however many a DMA descriptor has
	 * (Documentation/dma.rst, "Stopping")
	 */
	ret = nrsim_eng_stopped(e);
	if (ret)
		return ret;
	if (rd->pos == rd->n) {
		const struct nrsim_dma_ring *ring;
		u64 a;
		u32 k;

		if (rd->idx >= q->count[dir])
			return -EIO;
		/* an execution's timeout, every NRSIM_ENG_RING_BUF of them */
		if (e->deadline && ktime_get_ns() > e->deadline)
			return -ETIME;
		k = nrsim_dma_ring_locate(e->sg, q, dir, rd->idx, &a);
		ring = &e->sg->dma.rings[q->first_ring[dir] + k];
		rd->n = min_t(u32, NRSIM_ENG_RING_BUF,
			      ring->first + ring->count - rd->idx);
		rd->pos = 0;
		nrsim_mem_read(&e->nd->mem, a, rd->buf,
			       (u64)rd->n * UDMA_DESC_SIZE);
	}
	d = &rd->buf[rd->pos++];
	rd->idx++;
	/* M2S and S2M: len_ctrl, a word, the buffer address */
	ctrl = le32_to_cpu((__force __le32)d->tx.len_ctrl);
	*addr = le64_to_cpu((__force __le64)d->tx.buf_ptr);
	*len = ctrl & UDMA_DESC_LEN_MASK;
	if (!*len)
		*len = KBIN_DMA_PIECE_MAX;
	e->udma++;
	if (((ctrl >> UDMA_DESC_RING_ID_SHIFT) & 3) != UDMA_RING_ID_INITIAL ||
	    *addr >= NRSIM_ADDR_END || *len > NRSIM_ADDR_END - *addr)
		return -EIO;
	return 0;
}

/*
 * A copy: the bytes of the M2S pieces, in ring order, written along the
 * S2M pieces, in ring order.  The two rings are separate streams (a
 * gather's many short M2S pieces may fill one S2M piece); they must end
 * together, else the descriptor is bad.
 */
static int nrsim_eng_copy(struct nrsim_eng *e, u32 nm, u32 ns)
{
	u32 sl = 0, dl = 0, um = 0, us = 0, n;
	u64 src = 0, dst = 0;
	int ret;

	for (;;) {
		if (!sl) {
			if (um == nm)
				break;
			ret = nrsim_eng_next(e, NRSIM_DMA_M2S, &src, &sl);
			if (ret)
				return ret;
			um++;
		}
		if (!dl) {
			if (us == ns)
				return -EIO;
			ret = nrsim_eng_next(e, NRSIM_DMA_S2M, &dst, &dl);
			if (ret)
				return ret;
			us++;
		}
		n = min(sl, dl);
		ret = nrsim_mem_copy(&e->nd->mem, dst, src, n);
		if (ret)
			return ret;
		src += n;
		sl -= n;
		dst += n;
		dl -= n;
		e->bytes += n;
	}
	return us == ns && !dl ? 0 : -EIO;
}

/* a cast: elements streamed from the M2S pieces into the S2M pieces */
static int nrsim_eng_cast(struct nrsim_eng *e, const struct nrsim_dma_op *op,
			  u32 nm, u32 ns)
{
	u32 fs = kbin_dma_dtype(op->from_dtype)->size;
	u32 ts = kbin_dma_dtype(op->to_dtype)->size;
	u32 chunk = PAGE_SIZE / max(fs, ts), sl = 0, dl = 0, um = 0, us = 0, n;
	u64 sa = 0, da = 0;
	int ret;

	for (;;) {
		if (!sl) {
			if (um == nm)
				break;
			ret = nrsim_eng_next(e, NRSIM_DMA_M2S, &sa, &sl);
			if (ret || sl % fs)
				return ret ?: -EIO;
			um++;
		}
		if (!dl) {
			if (us == ns)
				return -EIO;
			ret = nrsim_eng_next(e, NRSIM_DMA_S2M, &da, &dl);
			if (ret || dl % ts)
				return ret ?: -EIO;
			us++;
		}
		n = min3(sl / fs, dl / ts, chunk);
		nrsim_mem_read(&e->nd->mem, sa, e->sbuf, (u64)n * fs);
		kbin_cast(op->from_dtype, op->to_dtype, e->sbuf, e->dbuf, n);
		ret = nrsim_mem_write(&e->nd->mem, da, e->dbuf, (u64)n * ts);
		if (ret)
			return ret;
		sa += (u64)n * fs;
		sl -= n * fs;
		da += (u64)n * ts;
		dl -= n * ts;
		e->bytes += (u64)n * ts;
	}
	return us == ns && !dl ? 0 : -EIO;
}

/*
 * A transpose (Documentation/dma.rst, "Transposes"): the from side's
 * bytes, in walk order, are tiles, each an element array of
 * transpose_shape [W, Z, Y, X] (X innermost) of transpose_elem_size-byte
 * elements; the to side's bytes, in walk order, receive each tile with
 * its axes in the order the letters of transpose_op name ("WZXY":
 * out[w][z][x][y] = in[w][z][y][x]).  The descriptor's bytes are
 * gathered, permuted tile by tile and scattered.
 */
static int nrsim_eng_transpose(struct nrsim_eng *e, const struct nrsim_dma_op *op,
			       const struct nrsim_dma_desc *dd, u32 nm, u32 ns)
{
	u32 es = op->transpose_elem_size, ax[KBIN_DMA_TRANSPOSE_DIMS];
	u32 os[KBIN_DMA_TRANSPOSE_DIMS], i0, i1, i2, i3, k, len;
	u64 tile, pos = 0, addr, in[KBIN_DMA_TRANSPOSE_DIMS], lin, t;
	const u32 *s = op->transpose_shape;
	struct kbin_dma_pat p;
	u8 *tin, *tout;
	int ret = 0;

	for (k = 0; k < KBIN_DMA_TRANSPOSE_DIMS; k++) {
		/* letter -> input axis: W 0, Z 1, Y 2, X 3 */
		ax[k] = op->transpose_op[k] == 'W' ? 0 : op->transpose_op[k] == 'Z' ?
			1 : op->transpose_op[k] == 'Y' ? 2 : 3;
		os[k] = s[ax[k]];
	}
	/*
	 * The tile only from the checked product (the checker refused any
	 * other at LOAD): the loops below walk the shape's real size, within
	 * the tile, within the gathered bytes.
	 */
	if (kbin_dma_tile(s, es, &tile, &k) ||
	    kbin_dma_pattern(&dd->side[NRSIM_DMA_M2S], &p) ||
	    p.bytes % tile || p.bytes > NRSIM_ENG_TRANSPOSE_MAX)
		return -EOPNOTSUPP;
	tin = kvmalloc(2 * p.bytes, GFP_KERNEL_ACCOUNT);
	if (!tin)
		return -ENOMEM;
	tout = tin + p.bytes;
	for (k = 0; k < nm && !ret; k++) {
		ret = nrsim_eng_next(e, NRSIM_DMA_M2S, &addr, &len);
		if (!ret && len > p.bytes - pos)
			ret = -EIO;
		if (!ret)
			nrsim_mem_read(&e->nd->mem, addr, tin + pos, len);
		pos += len;
	}
	if (!ret && pos != p.bytes)
		ret = -EIO;
	if (ret)
		goto out;
	pos = 0;
	for (t = 0; t < p.bytes; t += tile) {
		/* a tile at a time: at most NRSIM_ENG_TRANSPOSE_MAX bytes */
		ret = nrsim_eng_stopped(e);
		if (ret)
			goto out;
		cond_resched();
		for (i0 = 0; i0 < os[0]; i0++)
			for (i1 = 0; i1 < os[1]; i1++)
				for (i2 = 0; i2 < os[2]; i2++)
					for (i3 = 0; i3 < os[3]; i3++) {
						in[ax[0]] = i0;
						in[ax[1]] = i1;
						in[ax[2]] = i2;
						in[ax[3]] = i3;
						lin = ((in[0] * s[1] + in[1]) * s[2] +
						       in[2]) * s[3] + in[3];
						memcpy(tout + pos, tin + t + lin * es, es);
						pos += es;
					}
	}
	pos = 0;
	for (k = 0; k < ns && !ret; k++) {
		ret = nrsim_eng_next(e, NRSIM_DMA_S2M, &addr, &len);
		if (!ret && len > p.bytes - pos)
			ret = -EIO;
		if (!ret)
			ret = nrsim_mem_write(&e->nd->mem, addr, tout + pos, len);
		pos += len;
		e->bytes += len;
	}
	if (!ret && pos != p.bytes)
		ret = -EIO;
out:
	kvfree(tin);
	return ret;
}

/* publish a queue's progress (debugfs and WAIT read it under run_lock) */
static void nrsim_eng_progress(struct nrsim_eng *e, u32 blocks, u32 descs)
{
	struct nrsim_file *nf = e->m->owner;

	spin_lock(&nf->run_lock);
	e->qr->blocks = blocks;
	e->qr->descs = descs;
	e->qr->udma_descs = e->udma;
	e->qr->bytes = e->bytes;
	spin_unlock(&nf->run_lock);
}

static const char *nrsim_eng_why(const struct nrsim_eng *e, int err)
{
	if (e->injected)
		return "injected by fail_run_nth";
	switch (err) {
	case -ENOMEM:
		return "backing RAM cap reached (or out of memory)";
	case -EIO:
		return "bad UDMA descriptor";
	case -EOPNOTSUPP:
		return "transpose the engine cannot read";
	default:
		return "error";
	}
}

/*
 * Run block @blk (its index among the subgraph's) of queue @e->q: its
 * descriptors in order, each from its UDMA descriptors in ring order.
 * *@descs counts the descriptors done.  Return: 0 or the errno it
 * stopped with, @e->fail_d the descriptor.
 */
static int nrsim_eng_run_block(struct nrsim_eng *e, u32 blk, u32 *descs)
{
	struct nrsim_dma *dma = &e->sg->dma;
	const struct nrsim_dma_block *b = &dma->blocks[blk];
	const struct nrsim_dma_queue *q = e->q;
	u32 d, dir, nm, ns;
	int ret = 0;

	if (!b->num_descs)
		return 0;
	/*
	 * The ring readers at the block's first UDMA descriptors: a RUN's
	 * blocks follow each other and keep their buffers, an execution's
	 * come one at a time from any queue, and a buffer read from another
	 * queue's rings is not this one's, whatever its index
	 */
	for (dir = 0; dir < NRSIM_DMA_DIRS; dir++) {
		struct nrsim_ring_rd *rd = &e->rd[dir];

		if (e->rd_q != q ||
		    rd->idx != dma->descs[b->first_desc].first[dir]) {
			rd->idx = dma->descs[b->first_desc].first[dir];
			rd->n = 0;
			rd->pos = 0;
		}
	}
	e->rd_q = q;
	for (d = b->first_desc; d < b->first_desc + b->num_descs; d++) {
		const struct nrsim_dma_op *op = &dma->ops[d];

		e->fail_d = d;
		ret = nrsim_eng_stopped(e);
		if (!ret && e->deadline && ktime_get_ns() > e->deadline)
			ret = -ETIME;
		if (ret)
			return ret;
		nm = nrsim_dma_desc_count(dma, q, d, NRSIM_DMA_M2S);
		ns = nrsim_dma_desc_count(dma, q, d, NRSIM_DMA_S2M);
		e->injected = nrsim_fault_hit(&e->nd->fail_run_nth);
		if (e->injected)
			ret = -EIO;
		else if (op->op == KBIN_DMA_OP_COPY)
			ret = nrsim_eng_copy(e, nm, ns);
		else if (op->op == KBIN_DMA_OP_CAST)
			ret = nrsim_eng_cast(e, op, nm, ns);
		else
			ret = nrsim_eng_transpose(e, op, &dma->descs[d], nm, ns);
		if (ret == -EDQUOT)
			ret = -ENOMEM;
		if (ret)
			return ret;
		(*descs)++;
		cond_resched();
	}
	return 0;
}

/* log a failed block (not a cancellation) */
static void nrsim_eng_log(const struct nrsim_eng *e, const char *what, u32 b,
			  int err)
{
	const struct nrsim_dma *dma = &e->sg->dma;

	if (err == -ECANCELED || err == -EINTR || err == -ETIME)
		return;
	dev_info_ratelimited(&e->nd->dev,
			     "model %u sg %u dma queue '%s'%s: block %u descriptor %u (%s): %s (%d)\n",
			     e->m->id, (u32)(e->sg - e->m->sg),
			     dma->names + e->q->name_off, what, b,
			     dma->descs[e->fail_d].index,
			     kbin_dma_op_str(dma->ops[e->fail_d].op),
			     nrsim_eng_why(e, err), err);
}

/* Run queue @qi of @e->sg: 0 or the errno it stopped with. */
static int nrsim_eng_queue(struct nrsim_eng *e, u32 qi)
{
	struct nrsim_dma *dma = &e->sg->dma;
	const struct nrsim_dma_queue *q = &dma->queues[qi];
	u32 b, blocks = 0, descs = 0;
	int ret = 0;

	e->q = q;
	e->qr = &dma->qrun[qi];
	memset(e->rd, 0, sizeof(e->rd));
	e->rd_q = NULL;
	e->udma = 0;
	e->bytes = 0;
	for (b = 0; b < q->num_blocks; b++) {
		u32 blk = q->first_block + b;

		ret = nrsim_eng_run_block(e, blk, &descs);
		if (ret)
			goto fail;
		/*
		 * the block is done: its semaphore gets the queue set's
		 * num_queues (Documentation/dma.rst)
		 */
		dma->sem_vals[q->first_sem + dma->blocks[blk].sem_index] +=
			q->num_queues;
		blocks++;
		nrsim_eng_progress(e, blocks, descs);
	}
	return 0;

fail:
	nrsim_eng_progress(e, blocks, descs);
	e->qr->fail_block = b;
	e->qr->fail_desc = dma->descs[e->fail_d].index;
	nrsim_eng_log(e, "", b, ret);
	return ret;
}

/**
 * nrsim_eng_alloc() - a DMA engine's working state for an execution
 *	(exec.c): the ring readers and a cast's two pages, charged to the
 *	caller's memory cgroup.
 *
 * Return: the state, or NULL when out of memory.
 */
struct nrsim_eng *nrsim_eng_alloc(void)
{
	struct nrsim_eng *e = kzalloc(sizeof(*e), GFP_KERNEL_ACCOUNT);

	if (!e)
		return NULL;
	e->sbuf = kmalloc(2 * PAGE_SIZE, GFP_KERNEL_ACCOUNT);
	if (!e->sbuf) {
		kfree(e);
		return NULL;
	}
	e->dbuf = e->sbuf + PAGE_SIZE;
	return e;
}

/**
 * nrsim_eng_free() - free nrsim_eng_alloc()'s state.
 * @e: the state, or NULL.
 */
void nrsim_eng_free(struct nrsim_eng *e)
{
	if (e)
		kfree(e->sbuf);
	kfree(e);
}

/**
 * nrsim_eng_bind() - point an execution's engine state at a subgraph.
 * @e: from nrsim_eng_alloc().
 * @m: the model.
 * @sg: the subgraph's index.
 * @abort: the execution's cancellation: a negative errno, once set, stops
 *	the block being run before its next UDMA descriptor.
 * @deadline: ktime_get_ns() past which a block stops with -ETIME, or 0.
 */
void nrsim_eng_bind(struct nrsim_eng *e, struct nrsim_model *m, u32 sg,
		    const int *abort, u64 deadline)
{
	e->nd = m->nd;
	e->m = m;
	e->sg = &m->sg[sg];
	e->q = NULL;
	e->qr = NULL;
	memset(e->rd, 0, sizeof(e->rd));
	e->rd_q = NULL;
	e->abort = abort;
	e->deadline = deadline;
}

/**
 * nrsim_eng_block() - move the bytes of one DMA block of a bound
 *	subgraph, as RUN moves them (Documentation/dma.rst): its descriptors
 *	in order, each from its UDMA descriptors in ring order.  An
 *	execution's way in (exec.c); it does not touch the semaphores.
 * @e: bound by nrsim_eng_bind().
 * @qi: the block's queue.
 * @blk: the block's index among the subgraph's blocks.
 * @out: out: descriptors done, UDMA descriptors executed, bytes written
 *	and, on failure, the index in the block of the descriptor it
 *	stopped in.
 *
 * Context: process context that may sleep (the NeuronCore's engine
 * workqueue); the model is not freed meanwhile.
 * Return: 0; -EIO a bad UDMA descriptor or fail_run_nth; -ENOMEM the
 * backing cap; -EOPNOTSUPP a transpose the engine cannot read;
 * -ECANCELED UNLOAD or close; the errno in *@abort; -ETIME past the
 * deadline.
 */
int nrsim_eng_block(struct nrsim_eng *e, u32 qi, u32 blk,
		    struct nrsim_eng_result *out)
{
	const struct nrsim_dma *dma = &e->sg->dma;
	int ret;

	e->q = &dma->queues[qi];
	e->udma = 0;
	e->bytes = 0;
	out->descs = 0;
	ret = nrsim_eng_run_block(e, blk, &out->descs);
	out->udma_descs = e->udma;
	out->bytes = e->bytes;
	out->fail_desc = ret ? dma->descs[e->fail_d].index : U32_MAX;
	if (ret)
		nrsim_eng_log(e, " (execution)", blk - e->q->first_block, ret);
	return ret;
}

/*
 * Queue @i of run @r is done with @ret after @ns: its state, the
 * engine's counters (@e: what the engine did, or NULL), the file's
 * counts and waiters; the run's slot is free once its last queue is.
 * Context: the file's run_lock held.
 */
static void nrsim_run_done_locked(struct nrsim_run *r, u32 i, int ret, u64 ns,
				  const struct nrsim_eng *e)
{
	struct nrsim_model *m = r->m;
	struct nrsim_file *nf = m->owner;
	struct nrsim_sg *sg = &m->sg[r->sg];
	struct nrsim_engine_stats *st = &m->nd->engine[sg->core];
	struct nrsim_dma_qrun *qr = &sg->dma.qrun[r->q[i]];

	lockdep_assert_held(&nf->run_lock);
	if (e) {
		atomic64_add(e->bytes, &st->bytes);
		atomic64_add(e->udma, &st->udma_descs);
	}
	atomic64_add(qr->descs, &st->descs);
	atomic64_inc(&st->runs);
	atomic64_add(ns, &st->busy_ns);
	if (ret && ret != -ECANCELED)
		atomic64_inc(&st->errors);
	qr->status = ret;
	qr->ns = ns;
	qr->runs++;
	qr->state = NEURONSIM_RUN_DONE;
	qr->unwaited = true;
	nf->unwaited++;
	if (i + 1 == r->nq)
		nf->runs--;
	nf->run_seq++;
	wake_up_all(&nf->run_wq);
}

static void nrsim_run_work(struct work_struct *work)
{
	struct nrsim_run *r = container_of(work, struct nrsim_run, work);
	struct nrsim_model *m = r->m;
	struct nrsim_file *nf = m->owner;
	struct nrsim_sg *sg = &m->sg[r->sg];
	struct mem_cgroup *old_memcg = set_active_memcg(r->memcg);
	struct nrsim_dma_qrun snap;
	struct nrsim_eng *e;
	u32 i;

	/* started: nrsim_engine_stop() can no longer take it off the queue */
	spin_lock(&nf->run_lock);
	list_del_init(&r->node);
	spin_unlock(&nf->run_lock);
	e = kzalloc(sizeof(*e), GFP_KERNEL_ACCOUNT);
	if (e) {
		e->sbuf = kmalloc(2 * PAGE_SIZE, GFP_KERNEL_ACCOUNT);
		if (!e->sbuf) {
			kfree(e);
			e = NULL;
		}
	}
	for (i = 0; i < r->nq; i++) {
		struct nrsim_dma_qrun *qr = &sg->dma.qrun[r->q[i]];
		u64 t0 = ktime_get_ns(), ns;
		int ret;

		spin_lock(&nf->run_lock);
		qr->state = NEURONSIM_RUN_RUNNING;
		spin_unlock(&nf->run_lock);
		if (!e) {
			ret = -ENOMEM;
		} else if (READ_ONCE(m->stopping)) {
			ret = -ECANCELED;
		} else {
			e->nd = m->nd;
			e->m = m;
			e->sg = sg;
			e->dbuf = e->sbuf + PAGE_SIZE;
			ret = nrsim_eng_queue(e, r->q[i]);
		}
		ns = ktime_get_ns() - t0;
		spin_lock(&nf->run_lock);
		nrsim_run_done_locked(r, i, ret, ns, e);
		snap = *qr;	/* a next RUN may reset it once unlocked */
		spin_unlock(&nf->run_lock);
		if (ret != -ECANCELED)
			nrsim_netlink_notify_run(m, r->sg, r->q[i], &snap);
	}
	if (e)
		kfree(e->sbuf);
	kfree(e);
	set_active_memcg(old_memcg);
	mem_cgroup_put(r->memcg);
	/* the last touch of the model: nrsim_engine_stop() waits for this */
	spin_lock(&nf->run_lock);
	m->active_runs--;
	nf->run_seq++;
	wake_up_all(&nf->run_wq);
	spin_unlock(&nf->run_lock);
	kfree(r);
}

/* queue indexes from user space, each < @nq and at most once */
static int nrsim_run_queues(u32 *q, u64 uptr, u32 n, u32 nq, bool unique)
{
	u32 i, j;

	if (copy_from_user(q, u64_to_user_ptr(uptr), n * sizeof(*q)))
		return -EFAULT;
	for (i = 0; i < n; i++) {
		if (q[i] >= nq)
			return -EINVAL;
		for (j = 0; unique && j < i; j++)
			if (q[j] == q[i])
				return -EINVAL;
	}
	return 0;
}

/**
 * nrsim_ioctl_run() - NEURONSIM_IOC_RUN: queue DMA queues of a subgraph on
 *	its NeuronCore's engine (struct neuronsim_run).
 * @nf: the caller's file.
 * @uarg: user pointer to struct neuronsim_run.
 * @usize: its size from the command (copy_struct_from_user()).
 *
 * Return: 0 once queued; the errors of struct neuronsim_run.
 */
long nrsim_ioctl_run(struct nrsim_file *nf, void __user *uarg, size_t usize)
{
	struct neuronsim_run ur;
	struct nrsim_model *m;
	struct nrsim_run *r;
	struct nrsim_sg *sg;
	long ret;
	u32 i;

	ret = copy_struct_from_user(&ur, sizeof(ur), uarg, usize);
	if (ret)
		return ret;
	if (ur.flags || ur.reserved[0] || ur.reserved[1] || !ur.num_queues ||
	    ur.num_queues > NEURONSIM_RUN_MAX_QUEUES)
		return -EINVAL;
	r = kzalloc(struct_size(r, q, ur.num_queues), GFP_KERNEL_ACCOUNT);
	if (!r)
		return -ENOMEM;
	INIT_WORK(&r->work, nrsim_run_work);
	INIT_LIST_HEAD(&r->node);
	r->nq = ur.num_queues;
	r->sg = ur.subgraph;
	mutex_lock(&nf->lock);
	m = nrsim_model_get_locked(nf, ur.model_id);
	if (!m || ur.subgraph >= m->num_sg) {
		ret = -ENOENT;
		goto err_unlock;
	}
	sg = &m->sg[ur.subgraph];
	ret = nrsim_run_queues(r->q, ur.queues, r->nq, sg->dma.num_queues, true);
	if (ret)
		goto err_unlock;
	spin_lock(&nf->run_lock);
	if (nf->runs >= READ_ONCE(nrsim_max_runs_per_fd))
		ret = -EAGAIN;
	else if (nrsim_exec_running_locked(m))
		ret = -EBUSY;	/* its execution runs the queues */
	for (i = 0; i < r->nq && !ret; i++) {
		u8 st = sg->dma.qrun[r->q[i]].state;

		if (st == NEURONSIM_RUN_QUEUED || st == NEURONSIM_RUN_RUNNING)
			ret = -EBUSY;
	}
	if (ret) {
		spin_unlock(&nf->run_lock);
		goto err_unlock;
	}
	for (i = 0; i < r->nq; i++) {
		struct nrsim_dma_qrun *qr = &sg->dma.qrun[r->q[i]];
		u64 runs = qr->runs;

		if (qr->unwaited)
			nf->unwaited--;
		memset(qr, 0, sizeof(*qr));
		qr->runs = runs;
		qr->state = NEURONSIM_RUN_QUEUED;
		qr->fail_block = U32_MAX;
		qr->fail_desc = U32_MAX;
	}
	m->active_runs++;
	nf->runs++;
	r->m = m;
	r->memcg = get_mem_cgroup_from_mm(current->mm);
	list_add_tail(&r->node, &nf->queued);
	spin_unlock(&nf->run_lock);
	queue_work(nf->nd->engine_wq[sg->core], &r->work);
	mutex_unlock(&nf->lock);
	return 0;

err_unlock:
	mutex_unlock(&nf->lock);
	kfree(r);
	return ret;
}

static void nrsim_run_result(const struct nrsim_dma_qrun *qr, u32 q,
			     struct neuronsim_run_result *o)
{
	memset(o, 0, sizeof(*o));
	o->queue = q;
	o->state = qr->state;
	o->status = qr->status;
	o->blocks = qr->blocks;
	o->descs = qr->descs;
	o->fail_block = qr->state == NEURONSIM_RUN_IDLE ? U32_MAX : qr->fail_block;
	o->fail_desc = qr->state == NEURONSIM_RUN_IDLE ? U32_MAX : qr->fail_desc;
	o->udma_descs = qr->udma_descs;
	o->bytes = qr->bytes;
	o->ns = qr->ns;
	o->runs = qr->runs;
}

/*
 * One look at the queues of a WAIT, file locked: -EAGAIN while one is
 * queued or running (*@seq: the run_seq to wait past), else 0 with
 * @res filled and the finished runs marked waited for.
 */
static int nrsim_wait_check(struct nrsim_file *nf, const struct neuronsim_wait *w,
			    const u32 *q, struct neuronsim_run_result *res,
			   u64 *seq)
{
	struct nrsim_model *m = nrsim_model_get_locked(nf, w->model_id);
	struct nrsim_sg *sg;
	u32 i;
	int ret = 0;

	if (!m || w->subgraph >= m->num_sg)
		return -ENOENT;
	sg = &m->sg[w->subgraph];
	for (i = 0; i < w->num_queues; i++)
		if (q[i] >= sg->dma.num_queues)
			return -EINVAL;
	spin_lock(&nf->run_lock);
	*seq = nf->run_seq;
	for (i = 0; i < w->num_queues && !ret; i++) {
		u8 st = sg->dma.qrun[q[i]].state;

		if (st == NEURONSIM_RUN_QUEUED || st == NEURONSIM_RUN_RUNNING)
			ret = -EAGAIN;
	}
	for (i = 0; i < w->num_queues && !ret; i++) {
		struct nrsim_dma_qrun *qr = &sg->dma.qrun[q[i]];

		nrsim_run_result(qr, q[i], &res[i]);
		if (qr->unwaited) {
			qr->unwaited = false;
			nf->unwaited--;
		}
	}
	spin_unlock(&nf->run_lock);
	return ret;
}

/**
 * nrsim_ioctl_wait() - NEURONSIM_IOC_WAIT: wait for queues of a subgraph
 *	to finish and report them (struct neuronsim_wait).
 * @nf: the caller's file.
 * @uarg: user pointer to struct neuronsim_wait.
 * @usize: its size from the command.
 *
 * Sleeps without the file's lock (UNLOAD, RUN and the other ioctls go
 * on), looking again after every finished run of the file.
 *
 * Return: 0; the errors of struct neuronsim_wait.
 */
long nrsim_ioctl_wait(struct nrsim_file *nf, void __user *uarg, size_t usize)
{
	struct neuronsim_run_result *res;
	struct neuronsim_wait w;
	long left, ret;
	u64 seq;
	u32 *q;

	ret = copy_struct_from_user(&w, sizeof(w), uarg, usize);
	if (ret)
		return ret;
	if (w.flags || w.reserved || !w.num_queues ||
	    w.num_queues > NEURONSIM_RUN_MAX_QUEUES)
		return -EINVAL;
	q = kmalloc_array(w.num_queues, sizeof(*q), GFP_KERNEL_ACCOUNT);
	res = kmalloc_array(w.num_queues, sizeof(*res), GFP_KERNEL_ACCOUNT);
	if (!q || !res) {
		ret = -ENOMEM;
		goto out;
	}
	ret = nrsim_run_queues(q, w.queues, w.num_queues, U32_MAX, false);
	if (ret)
		goto out;
	if (w.timeout_ns < 0)
		left = MAX_SCHEDULE_TIMEOUT;
	else
		left = nsecs_to_jiffies(w.timeout_ns);
	for (;;) {
		mutex_lock(&nf->lock);
		ret = nrsim_wait_check(nf, &w, q, res, &seq);
		mutex_unlock(&nf->lock);
		if (ret != -EAGAIN)
			break;
		if (!left) {
			ret = -ETIMEDOUT;
			break;
		}
		left = wait_event_interruptible_timeout(nf->run_wq,
							READ_ONCE(nf->run_seq) != seq,
							left);
		if (left < 0) {
			ret = -EINTR;
			break;
		}
		if (!left && READ_ONCE(nf->run_seq) == seq) {
			ret = -ETIMEDOUT;
			break;
		}
	}
	if (!ret && copy_to_user(u64_to_user_ptr(w.results), res,
				 w.num_queues * sizeof(*res)))
		ret = -EFAULT;
out:
	kfree(res);
	kfree(q);
	return ret;
}

/**
 * nrsim_engine_poll() - poll() of a device file: EPOLLIN | EPOLLRDNORM
 *	while a run of its models finished and WAIT has not reported it.
 * @nf: the file's state.
 * @file: the file.
 * @wait: the poll table.
 *
 * Return: the event mask.
 */
__poll_t nrsim_engine_poll(struct nrsim_file *nf, struct file *file,
			   struct poll_table_struct *wait)
{
	poll_wait(file, &nf->run_wq, wait);
	return READ_ONCE(nf->unwaited) ? EPOLLIN | EPOLLRDNORM : 0;
}

static bool nrsim_engine_idle(struct nrsim_file *nf, struct nrsim_model *m)
{
	bool idle;

	spin_lock(&nf->run_lock);
	idle = !m->active_runs;
	spin_unlock(&nf->run_lock);
	return idle;
}

/**
 * nrsim_engine_stop() - stop a published model's runs and its execution
 *	before it is unloaded, promptly: a queued run (or subgraph of the
 *	execution) is taken off its engine's workqueue (status -ECANCELED)
 *	instead of waiting for the runs ahead of it, a running one stops
 *	before its next UDMA descriptor (at most 64 KiB moved; a transpose
 *	within its tile, at most 4 MiB); returns when none is left, and
 *	forgets its finished runs that were not waited for.
 *	Documentation/dma.rst, "Stopping"; Documentation/execute.rst.
 * @nf: the owning file, locked (the runs do not take the lock).
 * @m: the model.
 */
void nrsim_engine_stop(struct nrsim_file *nf, struct nrsim_model *m)
{
	struct nrsim_run *r, *tmp;
	LIST_HEAD(cancelled);
	u32 s, i;

	lockdep_assert_held(&nf->lock);
	WRITE_ONCE(m->stopping, true);
	spin_lock(&nf->run_lock);
	list_for_each_entry_safe(r, tmp, &nf->queued, node) {
		/* a work that started is running: it sees stopping */
		if (r->m != m || !cancel_work(&r->work))
			continue;
		list_move_tail(&r->node, &cancelled);
		for (i = 0; i < r->nq; i++)
			nrsim_run_done_locked(r, i, -ECANCELED, 0, NULL);
		m->active_runs--;
	}
	/* its execution's subgraphs likewise (exec.c) */
	nrsim_exec_stop_locked(nf, m);
	spin_unlock(&nf->run_lock);
	list_for_each_entry_safe(r, tmp, &cancelled, node) {
		mem_cgroup_put(r->memcg);
		kfree(r);
	}
	wait_event(nf->run_wq, nrsim_engine_idle(nf, m));
	spin_lock(&nf->run_lock);
	for (s = 0; s < m->num_sg; s++)
		for (i = 0; i < m->sg[s].dma.num_queues; i++)
			if (m->sg[s].dma.qrun[i].unwaited) {
				m->sg[s].dma.qrun[i].unwaited = false;
				nf->unwaited--;
			}
	nrsim_exec_forget_locked(nf, m);
	nf->run_seq++;
	wake_up_all(&nf->run_wq);
	spin_unlock(&nf->run_lock);
}

/**
 * nrsim_engine_init() - the DMA engines of a device: one ordered
 *	workqueue per NeuronCore.
 * @nd: the device.
 *
 * Return: 0 or -ENOMEM (nothing left allocated).
 */
int nrsim_engine_init(struct nrsim_device *nd)
{
	u32 c;

	for (c = 0; c < nd->arch->num_cores; c++) {
		nd->engine_wq[c] = alloc_ordered_workqueue("%s-nc%u", 0,
							   nd->name, c);
		if (!nd->engine_wq[c]) {
			nrsim_engine_exit(nd);
			return -ENOMEM;
		}
	}
	return 0;
}

/**
 * nrsim_engine_exit() - destroy a device's DMA engines (no file is open,
 *	so no run is left; destroy_workqueue() drains anyway).
 * @nd: the device.
 */
void nrsim_engine_exit(struct nrsim_device *nd)
{
	u32 c;

	for (c = 0; c < NEURONSIM_MAX_CORES; c++) {
		if (nd->engine_wq[c])
			destroy_workqueue(nd->engine_wq[c]);
		nd->engine_wq[c] = NULL;
	}
}
