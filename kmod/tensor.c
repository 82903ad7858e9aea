// SPDX-License-Identifier: GPL-2.0
/*
 * tensor.c - device tensors: bytes of a device's HBM outside any model, as
 * libnrt's nrt_tensor_allocate(NRT_TENSOR_PLACEMENT_DEVICE, ...) makes
 * them (Documentation/uapi.rst, "Device tensors"): TENSOR_ALLOC,
 * TENSOR_FREE, TENSOR_IO (read, write, memset) and TENSOR_COPY (between
 * tensors and the staged variables of the file's models).
 *
 * A tensor is one HBM allocation (hbm.c) from the channel of the
 * NeuronCore it is charged to, of libnrt's usage category TENSOR, so the
 * one accounting every view reads (debugfs hbm, sysfs device_mem/tensors,
 * netlink) counts it, rounded to 4 KiB as every allocation is; its bytes
 * are the device's sparse memory (mem.c), charged to the memory cgroup of
 * whoever writes them.  It belongs to the file that allocated it: the
 * file's xarray holds it by id, at most max_tensors_per_fd of them, and
 * closing the file frees them.  The device keeps a list of every file's
 * tensors for debugfs "tensors" (struct nrsim_dev_tensors).
 *
 * Lifetime: a tensor is reference counted.  The xarray holds one
 * reference; a call that uses a tensor takes one under the xarray's lock
 * and drops it when done, so TENSOR_FREE from another thread only takes
 * the id away, and the HBM is freed (its backing discarded) when the last
 * reference goes: no call ever touches freed memory.  Tensor calls take
 * no file lock; a TENSOR_COPY with a model variable holds the file's lock
 * (as READ_VAR and WRITE_VAR do), which keeps its models loaded and
 * keeps EXECUTE and RUN from starting while it checks and copies.
 */
#include <linux/err.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/refcount.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/seq_file.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/string_helpers.h>
#include <linux/uaccess.h>
#include <linux/xarray.h>

#include "nrsim.h"

/* bytes one step of a copy moves before it looks for a fatal signal */
#define NRSIM_TENSOR_COPY_STEP	SZ_64M

/**
 * struct nrsim_tensor - one device tensor.
 * @ref: references: its file's xarray and each call using it.
 * @id: its id in its file's xarray.
 * @core: the NeuronCore its bytes are charged to.
 * @size: its size, bytes (the HBM allocation is rounded up to 4 KiB).
 * @addr: the device address of its first byte.
 * @nd: its device.
 * @node: in its device's list (struct nrsim_dev_tensors) once published;
 *	empty before.
 * @pid: the thread group that allocated it, as debugfs shows it.
 * @name: the name given at TENSOR_ALLOC, NUL-terminated.
 */
struct nrsim_tensor {
	refcount_t ref;
	u32 id;
	u32 core;
	u64 size;
	u64 addr;
	struct nrsim_device *nd;
	struct list_head node;
	pid_t pid;
	char name[NEURONSIM_TENSOR_NAME_MAX];
};

/* a refused call's line: which call, which field, its value, why */
#define nrsim_tensor_log(nd, fmt, ...) \
	dev_info_ratelimited(&(nd)->dev, fmt "\n", ##__VA_ARGS__)

/* drop a reference; the last one frees the HBM and the tensor */
static void nrsim_tensor_put(struct nrsim_tensor *t)
{
	if (!refcount_dec_and_test(&t->ref))
		return;
	spin_lock(&t->nd->tensors.lock);
	list_del(&t->node);
	spin_unlock(&t->nd->tensors.lock);
	nrsim_hbm_free(t->nd, t->core, t->addr, t->size, KBIN_USAGE_TENSOR);
	kfree(t);
}

/* one of @nf's tensors with a reference taken, or NULL */
static struct nrsim_tensor *nrsim_tensor_get(struct nrsim_file *nf, u32 id)
{
	struct nrsim_tensor *t;

	xa_lock(&nf->tensors);
	t = xa_load(&nf->tensors, id);
	if (t)
		refcount_inc(&t->ref);
	xa_unlock(&nf->tensors);
	return t;
}

/* whether [@offset, @offset + @len) lies in @t */
static bool nrsim_tensor_in(const struct nrsim_tensor *t, u64 offset, u64 len)
{
	u64 end;

	return !check_add_overflow(offset, len, &end) && end <= t->size;
}

/**
 * nrsim_ioctl_tensor_alloc() - NEURONSIM_IOC_TENSOR_ALLOC: a device
 *	tensor of @nf (struct neuronsim_tensor_alloc).
 * @nf: the caller's file.
 * @uarg: user pointer to struct neuronsim_tensor_alloc.
 * @usize: the caller's struct size (ioctl.c).
 *
 * The id is reserved first and the tensor stored there only once the
 * struct has been written back, so nothing sees a tensor whose caller
 * never learnt its id.
 *
 * Return: 0, or a negative errno as uapi/linux/neuronsim.h documents.
 */
long nrsim_ioctl_tensor_alloc(struct nrsim_file *nf, void __user *uarg,
			      size_t usize)
{
	struct nrsim_device *nd = nf->nd;
	struct neuronsim_tensor_alloc ua;
	struct nrsim_tensor *t;
	unsigned int max;
	long ret;
	u32 id;

	ret = copy_struct_from_user(&ua, sizeof(ua), uarg, usize);
	if (ret)
		return ret;
	if ((ua.flags & ~NEURONSIM_TENSOR_ALLOC_F_MASK) || ua.reserved0 ||
	    ua.reserved) {
		nrsim_tensor_log(nd,
				 "TENSOR_ALLOC: flags 0x%x, reserved0 %u, reserved %llu: unknown flags or reserved set",
				 ua.flags, ua.reserved0, ua.reserved);
		return -EINVAL;
	}
	if (ua.core >= nd->arch->num_cores) {
		nrsim_tensor_log(nd, "TENSOR_ALLOC: core %u: the device has %u NeuronCores",
				 ua.core, nd->arch->num_cores);
		return -EINVAL;
	}
	if (!ua.size) {
		nrsim_tensor_log(nd, "TENSOR_ALLOC: size 0");
		return -EINVAL;
	}
	if (!memchr(ua.name, '\0', sizeof(ua.name))) {
		nrsim_tensor_log(nd, "TENSOR_ALLOC: name has no NUL in its %zu bytes",
				 sizeof(ua.name));
		return -EINVAL;
	}
	if (ua.size > nd->arch->hbm_channel_size) {
		nrsim_tensor_log(nd,
				 "TENSOR_ALLOC: size %llu is over the limit, an HBM channel's %llu bytes",
				 ua.size, nd->arch->hbm_channel_size);
		return -E2BIG;
	}
	max = READ_ONCE(nrsim_max_tensors_per_fd);
	xa_lock(&nf->tensors);
	if (nf->ntensors >= max) {
		xa_unlock(&nf->tensors);
		nrsim_tensor_log(nd, "TENSOR_ALLOC: the fd holds %u tensors, max_tensors_per_fd",
				 max);
		return -EMFILE;
	}
	nf->ntensors++;
	xa_unlock(&nf->tensors);

	t = kzalloc(sizeof(*t), GFP_KERNEL_ACCOUNT);
	if (!t) {
		ret = -ENOMEM;
		goto err_count;
	}
	refcount_set(&t->ref, 1);
	INIT_LIST_HEAD(&t->node);
	t->pid = task_tgid_vnr(current);
	t->nd = nd;
	t->core = ua.core;
	t->size = ua.size;
	strscpy(t->name, ua.name, sizeof(t->name));
	t->addr = nrsim_hbm_alloc(nd, ua.core, ua.size, 0, KBIN_USAGE_TENSOR,
				  NULL);
	if (!t->addr) {
		u32 ch = nrsim_core_channel(nd, ua.core);

		nrsim_tensor_log(nd,
				 "TENSOR_ALLOC: size %llu: no free range on NeuronCore %u's HBM channel %u (%llu bytes free)",
				 ua.size, ua.core, ch, nrsim_hbm_avail(nd, ch));
		ret = -ENOSPC;
		goto err_tensor;
	}
	/* a NULL entry reserves the id: lookups find nothing there yet */
	ret = xa_alloc_cyclic(&nf->tensors, &id, NULL, XA_LIMIT(1, INT_MAX),
			      &nf->next_tensor_id, GFP_KERNEL_ACCOUNT);
	if (ret < 0)
		goto err_hbm;
	t->id = id;
	ua.tensor_id = id;
	ua.physical_address = t->addr;
	ret = nrsim_copy_out(uarg, usize, &ua, sizeof(ua));
	if (ret)
		goto err_id;
	spin_lock(&nd->tensors.lock);
	list_add_tail(&t->node, &nd->tensors.list);
	spin_unlock(&nd->tensors.lock);
	/* the slot exists: storing into it allocates nothing */
	xa_store(&nf->tensors, id, t, GFP_KERNEL_ACCOUNT);
	return 0;

err_id:
	xa_erase(&nf->tensors, id);
err_hbm:
	nrsim_hbm_free(nd, t->core, t->addr, t->size, KBIN_USAGE_TENSOR);
err_tensor:
	kfree(t);
err_count:
	xa_lock(&nf->tensors);
	nf->ntensors--;
	xa_unlock(&nf->tensors);
	return ret;
}

/**
 * nrsim_ioctl_tensor_free() - NEURONSIM_IOC_TENSOR_FREE: take one of
 *	@nf's tensors away (struct neuronsim_tensor_free); its HBM goes with
 *	the last call using it.
 * @nf: the caller's file.
 * @uarg: user pointer to struct neuronsim_tensor_free.
 * @usize: the caller's struct size (ioctl.c).
 *
 * Return: 0, or a negative errno as uapi/linux/neuronsim.h documents.
 */
long nrsim_ioctl_tensor_free(struct nrsim_file *nf, void __user *uarg,
			     size_t usize)
{
	struct neuronsim_tensor_free uf;
	struct nrsim_tensor *t;
	long ret;

	ret = copy_struct_from_user(&uf, sizeof(uf), uarg, usize);
	if (ret)
		return ret;
	if (uf.flags) {
		nrsim_tensor_log(nf->nd, "TENSOR_FREE: flags 0x%x: unknown flags",
				 uf.flags);
		return -EINVAL;
	}
	xa_lock(&nf->tensors);
	/* a reserved id (an allocation in progress) loads as NULL */
	t = xa_load(&nf->tensors, uf.tensor_id);
	if (t) {
		__xa_erase(&nf->tensors, uf.tensor_id);
		nf->ntensors--;
	}
	xa_unlock(&nf->tensors);
	if (!t) {
		nrsim_tensor_log(nf->nd, "TENSOR_FREE: tensor_id %u: no such tensor of this fd",
				 uf.tensor_id);
		return -ENOENT;
	}
	nrsim_tensor_put(t);
	return 0;
}

/**
 * nrsim_ioctl_tensor_io() - NEURONSIM_IOC_TENSOR_IO: read, write or set
 *	bytes of one of @nf's tensors (struct neuronsim_tensor_io).
 * @nf: the caller's file.
 * @uarg: user pointer to struct neuronsim_tensor_io.
 * @usize: the caller's struct size (ioctl.c).
 *
 * Return: 0, or a negative errno as uapi/linux/neuronsim.h documents.
 */
long nrsim_ioctl_tensor_io(struct nrsim_file *nf, void __user *uarg,
			   size_t usize)
{
	struct nrsim_device *nd = nf->nd;
	struct neuronsim_tensor_io io;
	struct nrsim_tensor *t;
	long ret;

	ret = copy_struct_from_user(&io, sizeof(io), uarg, usize);
	if (ret)
		return ret;
	if (io.flags || io.op > NEURONSIM_TENSOR_MEMSET) {
		nrsim_tensor_log(nd, "TENSOR_IO: flags 0x%x, op %u: unknown flags or op",
				 io.flags, io.op);
		return -EINVAL;
	}
	if (io.op == NEURONSIM_TENSOR_MEMSET ? io.buf || io.value > U8_MAX :
	    io.value) {
		nrsim_tensor_log(nd,
				 "TENSOR_IO: op %u with value %u, buf %s: MEMSET takes a value 0..255 and no buf, READ and WRITE a buf and no value",
				 io.op, io.value, io.buf ? "set" : "0");
		return -EINVAL;
	}
	t = nrsim_tensor_get(nf, io.tensor_id);
	if (!t) {
		nrsim_tensor_log(nd, "TENSOR_IO: tensor_id %u: no such tensor of this fd",
				 io.tensor_id);
		return -ENOENT;
	}
	if (!nrsim_tensor_in(t, io.offset, io.len)) {
		nrsim_tensor_log(nd,
				 "TENSOR_IO: tensor %u: offset %llu + len %llu is past its size %llu",
				 t->id, io.offset, io.len, t->size);
		ret = -ERANGE;
	} else if (io.op == NEURONSIM_TENSOR_READ)
		ret = nrsim_mem_read_user(&nd->mem, t->addr + io.offset,
					  u64_to_user_ptr(io.buf), io.len);
	else if (io.op == NEURONSIM_TENSOR_WRITE)
		ret = nrsim_mem_write_user(&nd->mem, t->addr + io.offset,
					   u64_to_user_ptr(io.buf), io.len);
	else
		ret = nrsim_mem_fill(&nd->mem, t->addr + io.offset, io.value,
				     io.len);
	nrsim_tensor_put(t);
	return ret == -EDQUOT ? -ENOMEM : ret;
}

/**
 * struct nrsim_tensor_ep - one end of a TENSOR_COPY entry, checked.
 * @t: the tensor (a reference held), or NULL: a variable.
 * @mr: the variable, or NULL: a tensor.
 * @addr: the device address of the end's first byte.
 */
struct nrsim_tensor_ep {
	struct nrsim_tensor *t;
	const struct nrsim_mr *mr;
	u64 addr;
};

/**
 * struct nrsim_tensor_job - one TENSOR_COPY entry and its two ends.
 * @c: the entry as the caller gave it.
 * @ep: its source and destination, once checked.
 */
struct nrsim_tensor_job {
	struct neuronsim_tensor_copy c;
	struct nrsim_tensor_ep ep[2];
};

/* whether @m is executing or running DMA queues (what EXECUTE refuses) */
static bool nrsim_tensor_model_busy(struct nrsim_file *nf,
				    const struct nrsim_model *m)
{
	bool busy;

	spin_lock(&nf->run_lock);
	/* an ended execution's works may still be sending EXEC_DONE */
	busy = m->exec_state == NEURONSIM_EXEC_RUNNING ||
	       m->active_runs > m->exec_tails;
	spin_unlock(&nf->run_lock);
	return busy;
}

/*
 * Check end @dir (0 source, 1 destination) of a copy entry and fill its
 * struct nrsim_tensor_ep: a tensor of @nf and its bounds, or what
 * READ_VAR (source) or WRITE_VAR (destination) would accept of a model
 * that is neither executing nor running DMA queues (@nf->lock held).
 */
static int nrsim_tensor_end_check(struct nrsim_file *nf, u32 dir,
				  struct nrsim_tensor_job *job)
{
	const struct neuronsim_tensor_end *e = dir ? &job->c.dst : &job->c.src;
	struct nrsim_tensor_ep *ep = &job->ep[dir];
	struct neuronsim_var_io io = {
		.model_id = e->model_id, .subgraph = e->subgraph,
		.var_id = e->var_id, .offset = e->offset, .len = job->c.len,
	};
	struct nrsim_model *m;

	if (e->tensor_id) {
		ep->t = nrsim_tensor_get(nf, e->tensor_id);
		if (!ep->t)
			return -ENOENT;
		if (!nrsim_tensor_in(ep->t, e->offset, job->c.len))
			return -ERANGE;
		ep->addr = ep->t->addr + e->offset;
		return 0;
	}
	m = nrsim_var_find_locked(nf, &io, dir, "TENSOR_COPY", &ep->mr);
	if (IS_ERR(m))
		return PTR_ERR(m);
	if (nrsim_tensor_model_busy(nf, m))
		return -EBUSY;
	ep->addr = ep->mr->pa + e->offset;
	return 0;
}

/* move the bytes of a checked entry, in steps that a fatal signal ends */
static int nrsim_tensor_copy_one(struct nrsim_device *nd,
				 const struct nrsim_tensor_job *job)
{
	const struct nrsim_tensor_ep *src = &job->ep[0], *dst = &job->ep[1];
	u64 done, n;
	int ret = 0;

	for (done = 0; done < job->c.len; done += n) {
		n = min_t(u64, job->c.len - done, NRSIM_TENSOR_COPY_STEP);
		if (src->mr)
			ret = nrsim_var_read_dev(&nd->mem, src->mr,
						 job->c.src.offset + done,
						 dst->addr + done, n);
		else
			ret = nrsim_mem_copy(&nd->mem, dst->addr + done,
					     src->addr + done, n);
		if (!ret && fatal_signal_pending(current))
			ret = -EINTR;
		if (ret)
			break;
	}
	return ret;
}

/**
 * nrsim_ioctl_tensor_copy() - NEURONSIM_IOC_TENSOR_COPY: device-to-device
 *	copies between @nf's tensors and its models' variables (struct
 *	neuronsim_tensor_copy_batch).
 * @nf: the caller's file.
 * @uarg: user pointer to struct neuronsim_tensor_copy_batch.
 * @usize: the caller's struct size (ioctl.c).
 *
 * Every entry is read and checked - each end's tensor or variable, its
 * bounds, its model idle, the two ends apart - before any byte moves; the
 * first failure ends the call with nothing copied.  With a variable in
 * any entry the file's lock is held from the checks to the last byte.
 *
 * Return: 0, or a negative errno as uapi/linux/neuronsim.h documents.
 */
long nrsim_ioctl_tensor_copy(struct nrsim_file *nf, void __user *uarg,
			     size_t usize)
{
	const struct neuronsim_tensor_copy __user *uc;
	struct nrsim_device *nd = nf->nd;
	struct neuronsim_tensor_copy_batch b;
	struct nrsim_tensor_job *jobs;
	bool vars = false;
	u32 i, d;
	long ret;

	ret = copy_struct_from_user(&b, sizeof(b), uarg, usize);
	if (ret)
		return ret;
	if (b.flags || b.reserved || !b.count ||
	    b.count > NEURONSIM_TENSOR_COPY_MAX) {
		nrsim_tensor_log(nd,
				 "TENSOR_COPY: flags 0x%x, reserved %llu, count %u: flags or reserved set, or count not 1..%u",
				 b.flags, b.reserved, b.count,
				 NEURONSIM_TENSOR_COPY_MAX);
		return -EINVAL;
	}
	jobs = kvcalloc(b.count, sizeof(*jobs), GFP_KERNEL_ACCOUNT);
	if (!jobs)
		return -ENOMEM;
	uc = u64_to_user_ptr(b.copies);
	for (i = 0; i < b.count; i++) {
		if (copy_from_user(&jobs[i].c, &uc[i], sizeof(jobs[i].c))) {
			ret = -EFAULT;
			goto out;
		}
		for (d = 0; d < 2; d++) {
			const struct neuronsim_tensor_end *e =
				d ? &jobs[i].c.dst : &jobs[i].c.src;

			if (e->tensor_id &&
			    (e->model_id || e->subgraph || e->var_id)) {
				nrsim_tensor_log(nd,
						 "TENSOR_COPY: entry %u %s: tensor_id %u with model_id %u, subgraph %u, var_id %u: a tensor end names no variable",
						 i, d ? "dst" : "src", e->tensor_id,
						 e->model_id, e->subgraph, e->var_id);
				ret = -EINVAL;
				goto out;
			}
			vars |= !e->tensor_id;
		}
	}
	if (vars)
		mutex_lock(&nf->lock);
	for (i = 0; i < b.count; i++) {
		struct nrsim_tensor_job *job = &jobs[i];
		u64 s, t, n = job->c.len;

		for (d = 0; d < 2; d++) {
			const struct neuronsim_tensor_end *e =
				d ? &job->c.dst : &job->c.src;

			ret = nrsim_tensor_end_check(nf, d, job);
			if (!ret)
				continue;
			nrsim_tensor_log(nd,
					 "TENSOR_COPY: entry %u %s (tensor_id %u, model_id %u, subgraph %u, var_id %u, offset %llu; len %llu): %pe",
					 i, d ? "dst" : "src", e->tensor_id,
					 e->model_id, e->subgraph, e->var_id,
					 e->offset, n, ERR_PTR(ret));
			goto out_unlock;
		}
		s = job->ep[0].addr;
		t = job->ep[1].addr;
		if (n && s < t + n && t < s + n) {
			nrsim_tensor_log(nd,
					 "TENSOR_COPY: entry %u: its source and destination share bytes (len %llu)",
					 i, n);
			ret = -EINVAL;
			goto out_unlock;
		}
	}
	for (i = 0; i < b.count && !ret; i++)
		ret = nrsim_tensor_copy_one(nd, &jobs[i]);
out_unlock:
	if (vars)
		mutex_unlock(&nf->lock);
out:
	for (i = 0; i < b.count; i++)
		for (d = 0; d < 2; d++)
			if (jobs[i].ep[d].t)
				nrsim_tensor_put(jobs[i].ep[d].t);
	kvfree(jobs);
	return ret == -EDQUOT ? -ENOMEM : ret;
}

/**
 * nrsim_tensors_show() - debugfs "tensors" (Documentation/debugfs.rst):
 *	one line per tensor of the device's open files.
 * @nd: the device.
 * @m: seq_file.
 */
void nrsim_tensors_show(struct nrsim_device *nd, struct seq_file *m)
{
	struct nrsim_tensor *t;

	seq_puts(m, "id\tcore\tsize\tphysical_address\tpid\tname\n");
	spin_lock(&nd->tensors.lock);
	list_for_each_entry(t, &nd->tensors.list, node) {
		seq_printf(m, "%u\t%u\t%llu\t0x%llx\t%d\t", t->id, t->core,
			   t->size, t->addr, t->pid);
		seq_escape_str(m, t->name, ESCAPE_ANY_NP, NULL);
		seq_putc(m, '\n');
	}
	spin_unlock(&nd->tensors.lock);
}

/**
 * nrsim_tensors_dev_init() - a device's list of tensors: empty.
 * @nd: the device, being probed.
 */
void nrsim_tensors_dev_init(struct nrsim_device *nd)
{
	spin_lock_init(&nd->tensors.lock);
	INIT_LIST_HEAD(&nd->tensors.list);
}

/**
 * nrsim_tensors_init() - a new file's tensors: none.
 * @nf: the file, being set up.
 */
void nrsim_tensors_init(struct nrsim_file *nf)
{
	xa_init_flags(&nf->tensors, XA_FLAGS_ALLOC1 | XA_FLAGS_ACCOUNT);
	nf->ntensors = 0;
	nf->next_tensor_id = 0;
}

/**
 * nrsim_tensors_release() - the file is closed: free every tensor it
 *	holds (no call of the file runs any more).
 * @nf: the file.
 */
void nrsim_tensors_release(struct nrsim_file *nf)
{
	struct nrsim_tensor *t;
	unsigned long id;

	xa_for_each(&nf->tensors, id, t) {
		xa_erase(&nf->tensors, id);
		nrsim_tensor_put(t);
		cond_resched();
	}
	xa_destroy(&nf->tensors);
	nf->ntensors = 0;
}
