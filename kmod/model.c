// SPDX-License-Identifier: GPL-2.0
/*
 * model.c - models, their ids, and their lifetime.
 *
 * Models belong to the open file that loaded them (Documentation/uapi.rst):
 * a model is in its file's list and, under its id, in its device's
 * xarray of models, which RESOLVE reads under RCU.  Every lookup compares
 * the owner, so another file (same process or not) gets -ENOENT.  A
 * model's id is reserved (a NULL entry, which lookups skip) once it is
 * completely staged; the model is published (stored under that id) only
 * after LOAD has written the id back to the caller, and freed only after
 * it is unpublished and an RCU grace period passed, so a lock-free
 * reader never sees a half-built or freed model and nobody sees a model
 * whose loader was not told about it.  Closing the file unloads its
 * models.
 *
 * This is the models' lifecycle, above the features it tears down (the
 * engine's runs, the execution, debugfs, netlink); finding a model is
 * lookup.c's, a leaf every feature calls (Documentation/module.rst).
 */
#include <linux/bitops.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/pid.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/xarray.h>

#include "nrsim.h"
#include "netlink.h"

/**
 * nrsim_file_new() - per-open state of a device node.
 * @nd: the device opened.
 *
 * Return: the new state, or NULL when out of memory.
 */
struct nrsim_file *nrsim_file_new(struct nrsim_device *nd)
{
	struct nrsim_file *nf = kzalloc(sizeof(*nf), GFP_KERNEL_ACCOUNT);

	if (!nf)
		return NULL;
	nf->nd = nd;
	mutex_init(&nf->lock);
	INIT_LIST_HEAD(&nf->models);
	spin_lock_init(&nf->run_lock);
	init_waitqueue_head(&nf->run_wq);
	INIT_LIST_HEAD(&nf->queued);
	return nf;
}

/**
 * nrsim_model_alloc() - allocate an empty model, owned by the calling
 *	thread group.
 * @nd: the device it is loaded on.
 * @num_sg: subgraphs, 1..KBIN_MAX_SUBGRAPHS.
 *
 * Return: the model, or NULL when out of memory.
 */
struct nrsim_model *nrsim_model_alloc(struct nrsim_device *nd, u32 num_sg)
{
	struct nrsim_model *m;
	size_t sz = struct_size(m, sg, num_sg);

	m = kzalloc(sz, GFP_KERNEL_ACCOUNT);
	if (!m)
		return NULL;
	m->nd = nd;
	m->owner_tgid = get_pid(task_tgid(current));
	m->num_sg = num_sg;
	m->kmem_bytes = sz;
	INIT_LIST_HEAD(&m->node);
	return m;
}

/**
 * nrsim_model_free() - free a model that is not (or no longer) published:
 *	everything it staged, then the model.
 * @m: the model, or NULL.
 */
void nrsim_model_free(struct nrsim_model *m)
{
	if (!m)
		return;
	nrsim_exec_free(m);
	nrsim_unrelocate(m);
	nrsim_unstage(m);
	put_pid(m->owner_tgid);
	kfree(m);
}

/**
 * nrsim_model_reserve_id() - give a staged model an id, still invisible:
 *	its id is taken in the device's xarray, but a lookup finds nothing
 *	there until nrsim_model_publish().
 * @nf: the owning file, locked.
 * @m: the completely staged model.
 *
 * Return: 0 with @m->id set; -ENOMEM or -EBUSY when no id is free.
 */
int nrsim_model_reserve_id(struct nrsim_file *nf, struct nrsim_model *m)
{
	int ret;

	lockdep_assert_held(&nf->lock);
	ret = xa_alloc_cyclic(&nf->nd->models, &m->id, NULL,
			      XA_LIMIT(1, INT_MAX), &nf->nd->next_model_id,
			      GFP_KERNEL_ACCOUNT);
	return ret < 0 ? ret : 0;
}

/**
 * nrsim_model_release_id() - give back the id of a model that was never
 *	published (the load failed after nrsim_model_reserve_id()).
 * @nf: the owning file, locked.
 * @m: the model.
 */
void nrsim_model_release_id(struct nrsim_file *nf, struct nrsim_model *m)
{
	lockdep_assert_held(&nf->lock);
	xa_erase(&nf->nd->models, m->id);
	m->id = 0;
}

/**
 * nrsim_model_publish() - make a staged model with a reserved id visible:
 *	to RESOLVE and the other ioctls of its file, debugfs, netlink and
 *	the file's model count.
 * @nf: the owning file, locked; below max_models_per_fd models.
 * @m: the model, after nrsim_model_reserve_id().
 *
 * Cannot fail: the id's slot exists, so storing the model allocates
 * nothing.
 */
void nrsim_model_publish(struct nrsim_file *nf, struct nrsim_model *m)
{
	struct nrsim_device *nd = nf->nd;
	void *old;

	lockdep_assert_held(&nf->lock);
	m->owner = nf;
	old = xa_store(&nd->models, m->id, m, GFP_KERNEL_ACCOUNT);
	WARN_ON_ONCE(xa_is_err(old));
	list_add_tail(&m->node, &nf->models);
	rcu_assign_pointer(nf->last_model, m);
	nf->nmodels++;
	atomic64_inc(&nd->stats.models);
	atomic64_add(m->num_vars, &nd->stats.mem_refs);
	atomic64_add(m->kmem_bytes, &nd->stats.kmem_bytes);
	nrsim_sysfs_model_published(m);
	nrsim_debugfs_model_add(m);
	nrsim_exec_debugfs_add(m);
	nrsim_netlink_notify_loaded(m);
}

/* Unpublish: after this no new reader finds @m; old ones may still run. */
static void nrsim_model_unpublish(struct nrsim_file *nf, struct nrsim_model *m)
{
	struct nrsim_device *nd = nf->nd;

	nrsim_netlink_notify_unloaded(m);
	nrsim_debugfs_model_del(m);
	xa_erase(&nd->models, m->id);
	if (rcu_access_pointer(nf->last_model) == m)
		RCU_INIT_POINTER(nf->last_model, NULL);
	list_del_init(&m->node);
	nf->nmodels--;
	atomic64_dec(&nd->stats.models);
	atomic64_sub(m->num_vars, &nd->stats.mem_refs);
	atomic64_sub(m->kmem_bytes, &nd->stats.kmem_bytes);
	nrsim_sysfs_model_unpublished(m);
}

static bool nrsim_model_idle(struct nrsim_file *nf, struct nrsim_model *m)
{
	bool idle;

	spin_lock(&nf->run_lock);
	idle = !m->active_runs;
	spin_unlock(&nf->run_lock);
	return idle;
}

/*
 * Stop a published model's runs and its execution before it is unloaded,
 * promptly: a queued run (or subgraph of the execution) is taken off its
 * engine's workqueue (status -ECANCELED) instead of waiting for the runs
 * ahead of it, a running one stops before its next UDMA descriptor (at
 * most 64 KiB moved; a transpose within its tile, at most 4 MiB); returns
 * when none is left, and forgets its finished runs and execution that
 * were not waited for.  Documentation/dma.rst, "Stopping";
 * Documentation/execute.rst.  The runs (engine.c) and the execution
 * (exec.c) do not know each other: this layer stops both.
 * Context: @nf locked (the runs do not take the lock).
 */
static void nrsim_model_stop(struct nrsim_file *nf, struct nrsim_model *m)
{
	lockdep_assert_held(&nf->lock);
	WRITE_ONCE(m->stopping, true);
	nrsim_run_stop(nf, m);
	spin_lock(&nf->run_lock);
	nrsim_exec_stop_locked(nf, m);
	spin_unlock(&nf->run_lock);
	wait_event(nf->run_wq, nrsim_model_idle(nf, m));
	spin_lock(&nf->run_lock);
	nrsim_run_forget_locked(nf, m);
	nrsim_exec_forget_locked(nf, m);
	nf->run_seq++;
	wake_up_all(&nf->run_wq);
	spin_unlock(&nf->run_lock);
}

/**
 * nrsim_model_unload() - NEURONSIM_IOC_UNLOAD: unpublish and free a model.
 * @nf: the owning file, locked.
 * @id: model id.
 *
 * Stops its DMA queue runs and its execution and waits for them, then
 * waits for an RCU grace period so that no RESOLVE still reads it.
 *
 * Return: 0, or -ENOENT when @id is not one of @nf's models.
 */
int nrsim_model_unload(struct nrsim_file *nf, u32 id)
{
	struct nrsim_model *m = nrsim_model_get_locked(nf, id);

	if (!m)
		return -ENOENT;
	nrsim_model_stop(nf, m);
	nrsim_model_unpublish(nf, m);
	synchronize_rcu();
	nrsim_model_free(m);
	return 0;
}

/**
 * nrsim_file_release() - the file is closed: unload its models, free it.
 * @nf: the file's state.
 */
void nrsim_file_release(struct nrsim_file *nf)
{
	struct nrsim_model *m, *tmp;
	LIST_HEAD(dead);

	mutex_lock(&nf->lock);
	list_for_each_entry_safe(m, tmp, &nf->models, node) {
		nrsim_model_stop(nf, m);
		nrsim_model_unpublish(nf, m);
		list_add_tail(&m->node, &dead);
	}
	mutex_unlock(&nf->lock);
	if (!list_empty(&dead))
		synchronize_rcu();
	list_for_each_entry_safe(m, tmp, &dead, node) {
		list_del(&m->node);
		nrsim_model_free(m);
	}
	mutex_destroy(&nf->lock);
	kfree(nf);
}
