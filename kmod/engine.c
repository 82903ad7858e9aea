// SPDX-License-Identifier: GPL-2.0
/*
 * engine.c - the simulated DMA engines: one per NeuronCore, running the
 * relocated queues of a model (relocate.c) against the device's sparse
 * memory, asynchronously as hardware does (Documentation/dma.rst).
 *
 *   RUN   queues the named queues of a subgraph, as one run, on the
 *         ordered workqueue of the subgraph's NeuronCore and returns;
 *   the run's work executes each queue on the DMA engine's primitives
 *         (dmaeng.c, nrsim_eng_queue()): its blocks in id order, each
 *         block's descriptors in order, each descriptor's UDMA
 *         descriptors read back from the queue's rings; a finished block
 *         adds its queue's num_queues to its semaphore;
 *   WAIT  sleeps (interruptible, with a timeout) until the named queues
 *         are neither queued nor running and reports each;
 *   poll  says EPOLLIN while a finished run was not reported by WAIT;
 *   UNLOAD and close take the model's queued runs off the workqueue
 *         (nrsim_run_stop()), stop its running one before its next UDMA
 *         descriptor and wait for it (nrsim_model_stop(), model.c, which
 *         stops the model's execution too) before anything is freed.
 *
 * RUN and the execution (exec.c) do not call each other: RUN reads the
 * model's exec_state, EXECUTE the queues' run states, both written under
 * the file's run_lock.
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

#include "nrsim.h"
#include "netlink.h"

static_assert(sizeof(struct neuronsim_run) == 40);
static_assert(sizeof(struct neuronsim_run_result) == 64);
static_assert(sizeof(struct neuronsim_wait) == 48);

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

/*
 * Queue @i of run @r is done with @ret after @ns: its state, the
 * engine's counters (@res: what the engine did, or NULL), the file's
 * counts and waiters; the run's slot is free once its last queue is.
 * Context: the file's run_lock held.
 */
static void nrsim_run_done_locked(struct nrsim_run *r, u32 i, int ret, u64 ns,
				  const struct nrsim_eng_result *res)
{
	struct nrsim_model *m = r->m;
	struct nrsim_file *nf = m->owner;
	struct nrsim_sg *sg = &m->sg[r->sg];
	struct nrsim_engine_stats *st = &m->nd->engine.stats[sg->core];
	struct nrsim_dma_qrun *qr = &sg->dma.qrun[r->q[i]];

	lockdep_assert_held(&nf->run_lock);
	if (res) {
		atomic64_add(res->bytes, &st->bytes);
		atomic64_add(res->udma_descs, &st->udma_descs);
	}
	atomic64_add(qr->descs, &st->descs);
	atomic64_inc(&st->runs);
	atomic64_add(ns, &st->busy_ns);
	if (ret && ret != -ECANCELED)
		atomic64_inc(&st->errors);
	nrsim_sysfs_dma_counted(m->nd, sg->core, ret && ret != -ECANCELED);
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
	/* what the engine did of the last queue it ran */
	struct nrsim_eng_result done = {};
	struct nrsim_dma_qrun snap;
	struct nrsim_eng *e;
	u32 i;

	/* started: nrsim_run_stop() can no longer take it off the queue */
	spin_lock(&nf->run_lock);
	list_del_init(&r->node);
	spin_unlock(&nf->run_lock);
	e = nrsim_eng_alloc();
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
			nrsim_eng_bind(e, m, r->sg, NULL, 0);
			ret = nrsim_eng_queue(e, r->q[i], &done);
		}
		ns = ktime_get_ns() - t0;
		spin_lock(&nf->run_lock);
		nrsim_run_done_locked(r, i, ret, ns, e ? &done : NULL);
		snap = *qr;	/* a next RUN may reset it once unlocked */
		spin_unlock(&nf->run_lock);
		if (ret != -ECANCELED)
			nrsim_netlink_notify_run(m, r->sg, r->q[i], &snap);
	}
	nrsim_eng_free(e);
	set_active_memcg(old_memcg);
	mem_cgroup_put(r->memcg);
	/* the last touch of the model: nrsim_model_stop() waits for this */
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
	else if (m->exec_state == NEURONSIM_EXEC_RUNNING)
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
	queue_work(nf->nd->engine.wq[sg->core], &r->work);
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

/**
 * nrsim_run_stop() - UNLOAD or close: take a stopping model's queued runs
 *	off their engines' workqueues (status -ECANCELED) instead of waiting
 *	for the runs ahead of them; a running one sees the model stopping
 *	before its next UDMA descriptor.  Called by the models' lifecycle
 *	(model.c), which then waits for the model's runs to end.
 *	Documentation/dma.rst, "Stopping".
 * @nf: the owning file, locked (the runs do not take the lock).
 * @m: the model, stopping.
 *
 * Context: @nf->lock held; @m->stopping already set by the caller (a
 * running run stops only when it sees it).
 */
void nrsim_run_stop(struct nrsim_file *nf, struct nrsim_model *m)
{
	struct nrsim_run *r, *tmp;
	LIST_HEAD(cancelled);
	u32 i;

	lockdep_assert_held(&nf->lock);
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
	spin_unlock(&nf->run_lock);
	list_for_each_entry_safe(r, tmp, &cancelled, node) {
		mem_cgroup_put(r->memcg);
		kfree(r);
	}
}

/**
 * nrsim_run_forget_locked() - UNLOAD or close, once the model's runs have
 *	ended: forget its finished runs that WAIT did not report, so poll()
 *	does not report them.
 * @nf: the owning file, its run_lock held.
 * @m: the model, stopped, with no run left.
 */
void nrsim_run_forget_locked(struct nrsim_file *nf, struct nrsim_model *m)
{
	u32 s, i;

	lockdep_assert_held(&nf->run_lock);
	for (s = 0; s < m->num_sg; s++)
		for (i = 0; i < m->sg[s].dma.num_queues; i++)
			if (m->sg[s].dma.qrun[i].unwaited) {
				m->sg[s].dma.qrun[i].unwaited = false;
				nf->unwaited--;
			}
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
		nd->engine.wq[c] = alloc_ordered_workqueue("%s-nc%u", 0,
							   nd->name, c);
		if (!nd->engine.wq[c]) {
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
		if (nd->engine.wq[c])
			destroy_workqueue(nd->engine.wq[c]);
		nd->engine.wq[c] = NULL;
	}
}
