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
 * Its ioctls are here (ioctl.c dispatches to them): LOAD, which runs the
 * checker and the stages (stage.c, relocate.c, exec.c) under the
 * module-wide max_loading_bytes; UNLOAD; MODEL_INFO.
 */
#include <linux/bitops.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/pid.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/stdarg.h>
#include <linux/uaccess.h>
#include <linux/wait.h>
#include <linux/xarray.h>

#include "kbin_check.h"
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
	nrsim_tensors_init(nf);
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
static struct nrsim_model *nrsim_model_alloc(struct nrsim_device *nd, u32 num_sg)
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
static void nrsim_model_free(struct nrsim_model *m)
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
static int nrsim_model_reserve_id(struct nrsim_file *nf, struct nrsim_model *m)
{
	int ret;

	lockdep_assert_held(&nf->lock);
	ret = xa_alloc_cyclic(&nf->nd->models.xa, &m->id, NULL,
			      XA_LIMIT(1, INT_MAX), &nf->nd->models.next_id,
			      GFP_KERNEL_ACCOUNT);
	return ret < 0 ? ret : 0;
}

/**
 * nrsim_model_release_id() - give back the id of a model that was never
 *	published (the load failed after nrsim_model_reserve_id()).
 * @nf: the owning file, locked.
 * @m: the model.
 */
static void nrsim_model_release_id(struct nrsim_file *nf, struct nrsim_model *m)
{
	lockdep_assert_held(&nf->lock);
	xa_erase(&nf->nd->models.xa, m->id);
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
static void nrsim_model_publish(struct nrsim_file *nf, struct nrsim_model *m)
{
	struct nrsim_device *nd = nf->nd;
	void *old;

	lockdep_assert_held(&nf->lock);
	m->owner = nf;
	old = xa_store(&nd->models.xa, m->id, m, GFP_KERNEL_ACCOUNT);
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
	xa_erase(&nd->models.xa, m->id);
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
static int nrsim_model_unload(struct nrsim_file *nf, u32 id)
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
 * nrsim_file_release() - the file is closed: unload its models, free its
 *	tensors (tensor.c), free it.
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
	nrsim_tensors_release(nf);
	mutex_destroy(&nf->lock);
	kfree(nf);
}

/* Fill the load report and copy its text to the user's log buffer. */
static int nrsim_load_report(struct neuronsim_load *l,
			     const struct kbin_err *e)
{
	size_t n;

	l->err_subgraph = e->subgraph;
	l->err_record = e->record > S32_MAX ? S32_MAX : (s32)e->record;
	l->err_reason = e->reason;
	l->err_field = e->field;
	l->log_len = 0;
	if (!l->log_buf || !l->log_size)
		return 0;
	n = strnlen(e->msg, sizeof(e->msg) - 1);
	if (n >= l->log_size)
		n = l->log_size - 1;
	if (copy_to_user(u64_to_user_ptr(l->log_buf), e->msg, n) ||
	    put_user('\0', (char __user *)u64_to_user_ptr(l->log_buf) + n))
		return -EFAULT;
	l->log_len = n + 1;
	return 0;
}

static __printf(6, 7)
void nrsim_load_err_set(struct kbin_err *e, u32 field, u32 reason,
			u64 value, const char *what, const char *fmt, ...)
{
	va_list ap;
	int n;

	e->subgraph = -1;
	e->record = -1;
	e->field = field;
	e->reason = reason;
	e->value = value;
	e->text = 0;
	n = scnprintf(e->msg, sizeof(e->msg), "%s: ", what);
	va_start(ap, fmt);
	vscnprintf(e->msg + n, sizeof(e->msg) - n, fmt, ap);
	va_end(ap);
}

/*
 * The plan bytes all loads in progress hold at once, module-wide, are at
 * most max_loading_bytes: a load waits (interruptibly) until its plan_len
 * fits, so concurrent loads of large plans queue instead of exhausting
 * the machine's memory (Documentation/security.rst, "Caps").
 */
static DEFINE_SPINLOCK(nrsim_loading_lock);
static u64 nrsim_loading_bytes;	/* under nrsim_loading_lock */
static DECLARE_WAIT_QUEUE_HEAD(nrsim_loading_wq);

/*
 * Try to take @len bytes of the budget: true when that is settled, with
 * *@ret 0 (taken) or -E2BIG (@len is above the whole budget); false when
 * the load must wait for others to finish.
 */
static bool nrsim_loading_try(u64 len, int *ret)
{
	u64 max = READ_ONCE(nrsim_max_loading_bytes);
	bool taken = false;

	*ret = -E2BIG;
	if (len > max)
		return true;
	spin_lock(&nrsim_loading_lock);
	if (nrsim_loading_bytes + len <= max) {
		nrsim_loading_bytes += len;
		taken = true;
	}
	spin_unlock(&nrsim_loading_lock);
	*ret = 0;
	return taken;
}

/* wait for @len bytes of the budget: 0, -E2BIG above it, -EINTR */
static int nrsim_loading_get(u64 len)
{
	int ret = 0;

	if (wait_event_interruptible(nrsim_loading_wq,
				     nrsim_loading_try(len, &ret)))
		return -EINTR;
	return ret;
}

static void nrsim_loading_put(u64 len)
{
	spin_lock(&nrsim_loading_lock);
	nrsim_loading_bytes -= len;
	spin_unlock(&nrsim_loading_lock);
	wake_up_all(&nrsim_loading_wq);
}

/* copy_from_user() of the plan, in pieces with a reschedule between */
static int nrsim_copy_plan(void *plan, const void __user *src, u64 len)
{
	u64 done, n;

	for (done = 0; done < len; done += n) {
		n = min_t(u64, len - done, 16U << 20);
		if (copy_from_user(plan + done, src + done, n))
			return -EFAULT;
		cond_resched();
	}
	return 0;
}

/**
 * nrsim_ioctl_load() - NEURONSIM_IOC_LOAD: load a plan onto the device.
 * @nf: the caller's file.
 * @uarg: user pointer to struct neuronsim_load.
 * @usize: the caller's struct size (ioctl.c).
 *
 * Copy the plan in (at most max_plan_bytes), run the shared checker on
 * all of it (the plan counting against max_loading_bytes meanwhile),
 * stage (stage.c), relocate the DMA programs into UDMA rings
 * (relocate.c), give the model an id, write the struct back, and only
 * then publish the model (RESOLVE, debugfs, netlink, the per-fd count):
 * when the write-back fails the load is rolled back and -EFAULT
 * returned.  The struct is written back on failure too, with err_* and
 * log_len.
 *
 * Return: 0, or a negative errno as uapi/linux/neuronsim.h documents.
 */
long nrsim_ioctl_load(struct nrsim_file *nf, void __user *uarg, size_t usize)
{
	struct nrsim_device *nd = nf->nd;
	struct kbin_check_result *res = NULL;
	struct kbin_err *err;
	struct nrsim_model *m = NULL;
	struct neuronsim_load l;
	void *plan = NULL;
	u64 loading = 0;
	long ret, ret2;

	ret = copy_struct_from_user(&l, sizeof(l), uarg, usize);
	if (ret)
		return ret;
	if ((l.flags & ~NEURONSIM_LOAD_F_MASK) || l.reserved ||
	    (!l.log_buf && l.log_size))
		return -EINVAL;
	err = kzalloc(sizeof(*err), GFP_KERNEL_ACCOUNT);
	if (!err)
		return -ENOMEM;
	err->subgraph = -1;
	err->record = -1;

	if (!l.plan_len) {
		nrsim_load_err_set(err, KBIN_FIELD_TOTAL_SIZE, KBIN_ERR_TRUNCATED,
				   0, kbin_reason_str(KBIN_ERR_TRUNCATED),
				  "plan_len is 0");
		ret = -EINVAL;
		goto out;
	}
	if (l.plan_len > READ_ONCE(nrsim_max_plan_bytes)) {
		nrsim_load_err_set(err, KBIN_FIELD_TOTAL_SIZE, KBIN_ERR_STAGE_LIMIT,
				   l.plan_len, kbin_reason_str(KBIN_ERR_STAGE_LIMIT),
				  "plan_len %llu is above max_plan_bytes %lu",
				  l.plan_len, nrsim_max_plan_bytes);
		ret = -E2BIG;
		goto out;
	}
	ret = nrsim_loading_get(l.plan_len);
	if (ret) {
		nrsim_load_err_set(err, KBIN_FIELD_TOTAL_SIZE, KBIN_ERR_STAGE_LIMIT,
				   l.plan_len, kbin_reason_str(KBIN_ERR_STAGE_LIMIT),
				  ret == -EINTR ?
				  "interrupted waiting for %llu bytes of max_loading_bytes %lu" :
				  "plan_len %llu is above max_loading_bytes %lu",
				  l.plan_len, nrsim_max_loading_bytes);
		goto out;
	}
	loading = l.plan_len;
	plan = kvmalloc(l.plan_len, GFP_KERNEL_ACCOUNT | __GFP_NOWARN);
	res = kmalloc(sizeof(*res), GFP_KERNEL_ACCOUNT);
	if (!plan || !res) {
		nrsim_load_err_set(err, KBIN_FIELD_TOTAL_SIZE, KBIN_ERR_STAGE_NOMEM,
				   l.plan_len, kbin_reason_str(KBIN_ERR_STAGE_NOMEM),
				  "no kernel memory for a %llu-byte plan",
				  l.plan_len);
		ret = -ENOMEM;
		goto out;
	}
	ret = nrsim_copy_plan(plan, u64_to_user_ptr(l.plan_ptr), l.plan_len);
	if (ret)
		goto out;
	if (kbin_check_plan(plan, l.plan_len, res)) {
		*err = res->err;
		ret = -EINVAL;
		goto out;
	}

	mutex_lock(&nf->lock);
	if (nf->nmodels >= READ_ONCE(nrsim_max_models_per_fd)) {
		nrsim_load_err_set(err, KBIN_FIELD_NONE, KBIN_ERR_STAGE_LIMIT,
				   nf->nmodels, kbin_reason_str(KBIN_ERR_STAGE_LIMIT),
				  "this fd holds %u models, max_models_per_fd is %u",
				  nf->nmodels, nrsim_max_models_per_fd);
		ret = -EMFILE;
		goto out_unlock;
	}
	m = nrsim_model_alloc(nd, ((const struct kbin_header *)plan)->num_subgraphs);
	if (!m) {
		nrsim_load_err_set(err, KBIN_FIELD_NONE, KBIN_ERR_STAGE_NOMEM, 0,
				   kbin_reason_str(KBIN_ERR_STAGE_NOMEM),
				  "no kernel memory for the model");
		ret = -ENOMEM;
		goto out_unlock;
	}
	ret = nrsim_stage(m, plan, l.plan_len, l.first_core, err);
	if (ret)
		goto out_free;
	ret = nrsim_relocate(m, plan, l.plan_len, err);
	if (ret)
		goto out_free;
	ret = nrsim_exec_stage(m, plan, l.plan_len, err);
	if (ret)
		goto out_free;
	ret = nrsim_model_reserve_id(nf, m);
	if (ret) {
		nrsim_load_err_set(err, KBIN_FIELD_NONE, KBIN_ERR_STAGE_LIMIT, 0,
				   kbin_reason_str(KBIN_ERR_STAGE_LIMIT),
				  "no model id available (%ld)", ret);
		goto out_free;
	}
	/* publish last: the caller has its id before anyone sees the model */
	l.model_id = m->id;
	l.err_subgraph = -1;
	l.err_record = -1;
	l.err_reason = 0;
	l.err_field = 0;
	l.log_len = 0;
	ret = nrsim_copy_out(uarg, usize, &l, sizeof(l));
	if (ret) {
		nrsim_model_release_id(nf, m);
		l.model_id = 0;
		nrsim_load_err_set(err, KBIN_FIELD_NONE, 0, 0, "result",
				   "struct neuronsim_load could not be written back (%ld); nothing was loaded",
				  ret);
		goto out_free;
	}
	nrsim_model_publish(nf, m);
	mutex_unlock(&nf->lock);
	atomic64_inc(&nd->stats.loads);
	nrsim_sysfs_count_load(nd, m->first_core, 0, 0);
	goto out_done;

out_free:
	nrsim_model_free(m);
out_unlock:
	mutex_unlock(&nf->lock);
out:
	atomic64_inc(&nd->stats.load_failures);
	nrsim_sysfs_count_load(nd, l.first_core, ret, err->reason);
	nrsim_netlink_notify_load_failed(nd, ret, err);
	dev_dbg(nd->misc.this_device, "load failed (%ld): %s\n", ret, err->msg);
	ret2 = nrsim_load_report(&l, err);
	if (!ret2)
		nrsim_copy_out(uarg, usize, &l, sizeof(l));
out_done:
	kvfree(plan);
	if (loading)
		nrsim_loading_put(loading);
	kfree(res);
	kfree(err);
	return ret;
}

/**
 * nrsim_ioctl_unload() - NEURONSIM_IOC_UNLOAD: unload one of the caller's
 *	models (nrsim_model_unload()).
 * @nf: the caller's file.
 * @uarg: user pointer to struct neuronsim_unload.
 * @usize: the caller's struct size (ioctl.c).
 *
 * Return: 0; -EINVAL flags set; -ENOENT not one of @nf's models; -EFAULT
 * or -E2BIG.
 */
long nrsim_ioctl_unload(struct nrsim_file *nf, void __user *uarg,
			size_t usize)
{
	struct neuronsim_unload u;
	long ret;

	ret = copy_struct_from_user(&u, sizeof(u), uarg, usize);
	if (ret)
		return ret;
	if (u.flags)
		return -EINVAL;
	mutex_lock(&nf->lock);
	ret = nrsim_model_unload(nf, u.model_id);
	mutex_unlock(&nf->lock);
	return ret;
}

/**
 * nrsim_ioctl_model_info() - NEURONSIM_IOC_MODEL_INFO: what one of the
 *	caller's models holds.
 * @nf: the caller's file.
 * @uarg: user pointer to struct neuronsim_model_info.
 * @usize: the caller's struct size (ioctl.c).
 *
 * Return: 0; -EINVAL flags set; -ENOENT not one of @nf's models; -EFAULT
 * or -E2BIG.
 */
long nrsim_ioctl_model_info(struct nrsim_file *nf, void __user *uarg,
			    size_t usize)
{
	struct neuronsim_model_info mi;
	const struct nrsim_model *m;
	long ret;

	ret = copy_struct_from_user(&mi, sizeof(mi), uarg, usize);
	if (ret)
		return ret;
	if (mi.flags)
		return -EINVAL;
	mutex_lock(&nf->lock);
	m = nrsim_model_get_locked(nf, mi.model_id);
	if (m) {
		memset(&mi, 0, sizeof(mi));
		mi.model_id = m->id;
		mi.target_gen = m->target_gen;
		mi.num_subgraphs = m->num_sg;
		mi.first_core = m->first_core;
		mi.num_vars = m->num_vars;
		mi.hbm_bytes = m->hbm_bytes;
		mi.scratchpad_bytes = m->scratchpad_bytes;
	}
	mutex_unlock(&nf->lock);
	if (!m)
		return -ENOENT;
	return nrsim_copy_out(uarg, usize, &mi, sizeof(mi));
}

/**
 * nrsim_models_init() - a device's models: none, ids from 1.
 * @nd: the device, with @nd->models zeroed.
 */
void nrsim_models_init(struct nrsim_device *nd)
{
	xa_init_flags(&nd->models.xa, XA_FLAGS_ALLOC1);
}

/**
 * nrsim_models_exit() - undo nrsim_models_init(); no model is left (no
 *	file is open on the device).
 * @nd: the device.
 */
void nrsim_models_exit(struct nrsim_device *nd)
{
	WARN_ON_ONCE(!xa_empty(&nd->models.xa));
	xa_destroy(&nd->models.xa);
}
