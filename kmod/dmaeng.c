// SPDX-License-Identifier: GPL-2.0
/*
 * dmaeng.c - the DMA engine's primitives: moving the bytes of a DMA
 * block's descriptors, each from its UDMA descriptors read back from the
 * queue's M2S and S2M rings in ring order, against the device's sparse
 * memory (Documentation/dma.rst).  The M2S ring is the stream of bytes
 * read and the S2M ring where it is written, each cut into its own
 * pieces; a copy moves the stream (nrsim_mem_copy()), a cast converts it
 * element by element (kbin_cast.h), a transpose gathers, permutes and
 * scatters it.
 *
 * A leaf below both ways of running DMA: RUN's queues (engine.c,
 * nrsim_eng_queue()) and an execution's blocks (exec.c,
 * nrsim_eng_block()).  It stops before the next UDMA descriptor when
 * the model is stopping (UNLOAD or close), the execution is cancelled or
 * its deadline passed (Documentation/module.rst).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "kbin_cast.h"
#include "kbin_dma.h"
#include "nrsim.h"

static_assert(NRSIM_DMA_M2S == NEURONSIM_DMA_M2S && NRSIM_DMA_S2M == NEURONSIM_DMA_S2M);

/* UDMA descriptors read from a ring at a time */
#define NRSIM_ENG_RING_BUF	64
/* bytes of a transpose's element array the engine gathers at most */
#define NRSIM_ENG_TRANSPOSE_MAX	(4U << 20)

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
		e->injected = nrsim_fault_hit(&e->nd->fault.run_nth);
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

/* what a queue's run did: nrsim_eng_queue()'s @out */
static void nrsim_eng_queue_result(const struct nrsim_eng *e, u32 descs,
				   u32 fail_desc, struct nrsim_eng_result *out)
{
	out->descs = descs;
	out->fail_desc = fail_desc;
	out->udma_descs = e->udma;
	out->bytes = e->bytes;
}

/**
 * nrsim_eng_queue() - run one DMA queue of a bound subgraph, as RUN does
 *	(Documentation/dma.rst): its blocks in id order, each block's
 *	descriptors in order, a finished block adding the queue's num_queues
 *	to its semaphore; the queue's run state (struct nrsim_dma_qrun) shows
 *	the progress.  RUN's way in (engine.c).
 * @e: bound by nrsim_eng_bind().
 * @qi: the queue.
 * @out: out: UDMA descriptors executed and bytes written (also when it
 *	fails); the descriptors done and, on failure, the index of the
 *	descriptor it stopped in.
 *
 * Context: process context that may sleep (the NeuronCore's engine
 * workqueue); the model is not freed meanwhile.
 * Return: 0 or the errno it stopped with, those of nrsim_eng_block().
 */
int nrsim_eng_queue(struct nrsim_eng *e, u32 qi, struct nrsim_eng_result *out)
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
	nrsim_eng_queue_result(e, descs, U32_MAX, out);
	return 0;

fail:
	nrsim_eng_progress(e, blocks, descs);
	e->qr->fail_block = b;
	e->qr->fail_desc = dma->descs[e->fail_d].index;
	nrsim_eng_log(e, "", b, ret);
	nrsim_eng_queue_result(e, descs, e->qr->fail_desc, out);
	return ret;
}

/**
 * nrsim_eng_alloc() - a DMA engine's working state for a RUN's work
 *	(engine.c) or an execution (exec.c): the ring readers and a cast's
 *	two pages, charged to the caller's memory cgroup.
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
 * nrsim_eng_bind() - point engine state at a subgraph, for a RUN's
 *	queues or an execution's blocks.
 * @e: from nrsim_eng_alloc().
 * @m: the model.
 * @sg: the subgraph's index.
 * @abort: the execution's cancellation: a negative errno, once set, stops
 *	the block being run before its next UDMA descriptor; NULL for RUN.
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
