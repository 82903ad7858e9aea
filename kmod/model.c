// SPDX-License-Identifier: GPL-2.0
/*
 * model.c - models, their ids, and their lifetime.
 *
 * Models belong to the open file that loaded them (Documentation/uapi.rst):
 * a model is in its file's list and, under its id, in one module-wide
 * xarray that RESOLVE reads under RCU.  Every lookup compares the owner,
 * so another file (same process or not) gets -ENOENT.  A model is
 * published (stored in the xarray) only once it is completely staged,
 * and freed only after it is unpublished and an RCU grace period passed,
 * so a lock-free reader never sees a half-built or freed model.  Closing
 * the file unloads its models.
 */
#include <linux/bitops.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/xarray.h>

#include "neuronsim.h"
#include "netlink.h"

static DEFINE_XARRAY_ALLOC1(nsim_models);
static u32 nsim_next_id;

/* SBUF window users per core: the window's backing goes with the last */
static DEFINE_MUTEX(nsim_sbuf_lock);
static u32 nsim_sbuf_users[NEURONSIM_MAX_CORES];

/**
 * nsim_sbuf_get() - a model starts using a core's SBUF window.
 * @core: NeuronCore.
 */
void nsim_sbuf_get(u32 core)
{
	mutex_lock(&nsim_sbuf_lock);
	nsim_sbuf_users[core]++;
	mutex_unlock(&nsim_sbuf_lock);
}

/**
 * nsim_sbuf_put() - a model stops using a core's SBUF window; the last
 *	user drops the window's backing RAM.
 * @core: NeuronCore.
 */
void nsim_sbuf_put(u32 core)
{
	mutex_lock(&nsim_sbuf_lock);
	if (!--nsim_sbuf_users[core])
		nsim_mem_discard(nsim_sbuf_base(&nsim_dev, core),
				 nsim_dev.arch->sbuf_window_size);
	mutex_unlock(&nsim_sbuf_lock);
}

/**
 * nsim_file_new() - per-open state of /dev/neuronsim.
 *
 * Return: the new state, or NULL when out of memory.
 */
struct nsim_file *nsim_file_new(void)
{
	struct nsim_file *nf = kzalloc(sizeof(*nf), GFP_KERNEL);

	if (!nf)
		return NULL;
	mutex_init(&nf->lock);
	INIT_LIST_HEAD(&nf->models);
	return nf;
}

/**
 * nsim_model_alloc() - allocate an empty model.
 * @num_sg: subgraphs, 1..KBIN_MAX_SUBGRAPHS.
 *
 * Return: the model, or NULL when out of memory.
 */
struct nsim_model *nsim_model_alloc(u32 num_sg)
{
	struct nsim_model *m;
	size_t sz = struct_size(m, sg, num_sg);

	m = kzalloc(sz, GFP_KERNEL);
	if (!m)
		return NULL;
	m->num_sg = num_sg;
	m->kmem_bytes = sz;
	INIT_LIST_HEAD(&m->node);
	return m;
}

/**
 * nsim_model_free() - free a model that is not (or no longer) published:
 *	everything it staged, then the model.
 * @m: the model, or NULL.
 */
void nsim_model_free(struct nsim_model *m)
{
	if (!m)
		return;
	nsim_unstage(m);
	kfree(m);
}

/**
 * nsim_model_publish() - give a staged model an id and make it visible.
 * @nf: the owning file, locked.
 * @m: the completely staged model.
 *
 * Return: 0 with @m->id set; -EMFILE at max_models_per_fd; -ENOMEM or
 * -EBUSY when no id is free.
 */
int nsim_model_publish(struct nsim_file *nf, struct nsim_model *m)
{
	int ret;

	if (nf->nmodels >= nsim_max_models_per_fd)
		return -EMFILE;
	m->owner = nf;
	ret = xa_alloc_cyclic(&nsim_models, &m->id, m, XA_LIMIT(1, INT_MAX),
			      &nsim_next_id, GFP_KERNEL);
	if (ret < 0)
		return ret;
	list_add_tail(&m->node, &nf->models);
	nf->nmodels++;
	atomic64_inc(&nsim_stats.models);
	atomic64_add(m->num_vars, &nsim_stats.mem_refs);
	atomic64_add(m->kmem_bytes, &nsim_stats.kmem_bytes);
	nsim_debugfs_model_add(m);
	nsim_netlink_notify_loaded(m);
	return 0;
}

/* Unpublish: after this no new reader finds @m; old ones may still run. */
static void nsim_model_unpublish(struct nsim_file *nf, struct nsim_model *m)
{
	nsim_netlink_notify_unloaded(m);
	nsim_debugfs_model_del(m);
	xa_erase(&nsim_models, m->id);
	list_del_init(&m->node);
	nf->nmodels--;
	atomic64_dec(&nsim_stats.models);
	atomic64_sub(m->num_vars, &nsim_stats.mem_refs);
	atomic64_sub(m->kmem_bytes, &nsim_stats.kmem_bytes);
}

/**
 * nsim_model_lookup_rcu() - find one of a file's models.
 * @nf: the caller's file.
 * @id: model id.
 *
 * Context: rcu_read_lock() held; the model stays valid until it is
 * dropped.
 * Return: the model, or NULL when @id is unknown or another file's.
 */
struct nsim_model *nsim_model_lookup_rcu(struct nsim_file *nf, u32 id)
{
	struct nsim_model *m = xa_load(&nsim_models, id);

	if (!m || READ_ONCE(m->owner) != nf)
		return NULL;
	return m;
}

/**
 * nsim_model_get_locked() - find one of a file's models, file locked.
 * @nf: the caller's file, @nf->lock held (models cannot go away).
 * @id: model id.
 *
 * Return: the model, or NULL when @id is unknown or another file's.
 */
struct nsim_model *nsim_model_get_locked(struct nsim_file *nf, u32 id)
{
	struct nsim_model *m;

	lockdep_assert_held(&nf->lock);
	list_for_each_entry(m, &nf->models, node)
		if (m->id == id)
			return m;
	return NULL;
}

/**
 * nsim_model_unload() - NEURONSIM_IOC_UNLOAD: unpublish and free a model.
 * @nf: the owning file, locked.
 * @id: model id.
 *
 * Waits for an RCU grace period so that no RESOLVE still reads it.
 *
 * Return: 0, or -ENOENT when @id is not one of @nf's models.
 */
int nsim_model_unload(struct nsim_file *nf, u32 id)
{
	struct nsim_model *m = nsim_model_get_locked(nf, id);

	if (!m)
		return -ENOENT;
	nsim_model_unpublish(nf, m);
	synchronize_rcu();
	nsim_model_free(m);
	return 0;
}

/**
 * nsim_file_release() - the file is closed: unload its models, free it.
 * @nf: the file's state.
 */
void nsim_file_release(struct nsim_file *nf)
{
	struct nsim_model *m, *tmp;
	LIST_HEAD(dead);

	mutex_lock(&nf->lock);
	list_for_each_entry_safe(m, tmp, &nf->models, node) {
		nsim_model_unpublish(nf, m);
		list_add_tail(&m->node, &dead);
	}
	mutex_unlock(&nf->lock);
	if (!list_empty(&dead))
		synchronize_rcu();
	list_for_each_entry_safe(m, tmp, &dead, node) {
		list_del(&m->node);
		nsim_model_free(m);
	}
	mutex_destroy(&nf->lock);
	kfree(nf);
}
