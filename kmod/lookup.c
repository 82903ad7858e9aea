// SPDX-License-Identifier: GPL-2.0
/*
 * lookup.c - finding one of a file's models by id: under RCU in the
 * device's model xarray (RESOLVE's path), or in the file's list with the
 * file locked (every other ioctl).  A leaf: it calls nothing of the
 * module, so the features that look models up (the engine's runs, the
 * execution, the ioctls) stay below the models' lifecycle (model.c),
 * which tears them down (Documentation/module.rst).
 */
#include <linux/list.h>
#include <linux/lockdep.h>
#include <linux/rcupdate.h>
#include <linux/xarray.h>

#include "nrsim.h"

/**
 * nrsim_model_find_rcu() - find one of a file's models in the device's
 *	model xarray.
 * @nf: the caller's file.
 * @id: model id.
 *
 * Context: rcu_read_lock() held; the model stays valid until it is
 * dropped.
 * Return: the model, or NULL when @id is unknown or another file's.
 */
struct nrsim_model *nrsim_model_find_rcu(struct nrsim_file *nf, u32 id)
{
	struct nrsim_model *m = xa_load(&nf->nd->models.xa, id);

	if (!m || READ_ONCE(m->owner) != nf)
		return NULL;
	return m;
}

/**
 * nrsim_model_get_locked() - find one of a file's models, file locked.
 * @nf: the caller's file, @nf->lock held (models cannot go away).
 * @id: model id.
 *
 * Return: the model, or NULL when @id is unknown or another file's.
 */
struct nrsim_model *nrsim_model_get_locked(struct nrsim_file *nf, u32 id)
{
	struct nrsim_model *m;

	lockdep_assert_held(&nf->lock);
	list_for_each_entry(m, &nf->models, node)
		if (m->id == id)
			return m;
	return NULL;
}
