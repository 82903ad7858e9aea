// SPDX-License-Identifier: GPL-2.0
/*
 * ioctl.c - the /dev/neuronsim ioctl dispatcher (uapi/linux/neuronsim.h).
 *
 * Structs are extensible by size: the size encoded in the command is the
 * caller's struct size.  Input is read with copy_struct_from_user() (a
 * larger struct must have a zero tail, else -E2BIG); output is written up
 * to the caller's size and a larger caller struct gets a zeroed tail.
 */
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/stdarg.h>
#include <linux/uaccess.h>

#include "kbin_check.h"
#include "neuronsim.h"
#include "netlink.h"

/*
 * The ABI structs have fixed sizes, multiples of 8 bytes, with no implicit
 * padding (botching-up-ioctls.rst); pin them so a change is deliberate.
 */
static_assert(sizeof(struct neuronsim_info) == 184);
static_assert(sizeof(struct neuronsim_load) == 64);
static_assert(sizeof(struct neuronsim_unload) == 8);
static_assert(sizeof(struct neuronsim_resolve) == 40);
static_assert(sizeof(struct neuronsim_resolve_entry) == 40);
static_assert(sizeof(struct neuronsim_resolve_batch) == 32);
static_assert(sizeof(struct neuronsim_var_io) == 40);
static_assert(sizeof(struct neuronsim_model_info) == 64);

/* the command with its size field cleared, for matching any struct size */
#define NSIM_CMD(cmd)	((cmd) & ~(_IOC_SIZEMASK << _IOC_SIZESHIFT))

static int nsim_copy_out(void __user *uarg, size_t usize,
			 const void *kbuf, size_t ksize)
{
	size_t n = min(usize, ksize);

	if (copy_to_user(uarg, kbuf, n))
		return -EFAULT;
	if (usize > ksize && clear_user(uarg + ksize, usize - ksize))
		return -EFAULT;
	return 0;
}

static long nsim_ioctl_get_info(void __user *uarg, size_t usize)
{
	struct neuronsim_info info;

	nsim_fill_info(&nsim_dev, &info);
	return nsim_copy_out(uarg, usize, &info, sizeof(info));
}

/* Fill the load report and copy its text to the user's log buffer. */
static int nsim_load_report(struct neuronsim_load *l,
			    const struct nsim_load_err *e)
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
void nsim_load_err_set(struct nsim_load_err *e, u32 field, u32 reason,
		       u64 value, const char *what, const char *fmt, ...)
{
	va_list ap;
	int n;

	e->subgraph = -1;
	e->record = -1;
	e->field = field;
	e->reason = reason;
	e->value = value;
	n = scnprintf(e->msg, sizeof(e->msg), "%s: ", what);
	va_start(ap, fmt);
	vscnprintf(e->msg + n, sizeof(e->msg) - n, fmt, ap);
	va_end(ap);
}

/*
 * NEURONSIM_IOC_LOAD: copy the plan in (at most max_plan_bytes), run the
 * shared checker on all of it, then stage (stage.c) and publish.  The
 * struct is written back on failure too, with err_* and log_len.
 */
static long nsim_ioctl_load(struct nsim_file *nf, void __user *uarg,
			    size_t usize)
{
	struct kbin_check_result *res = NULL;
	struct nsim_load_err *err;
	struct nsim_model *m = NULL;
	struct neuronsim_load l;
	void *plan = NULL;
	long ret, ret2;

	ret = copy_struct_from_user(&l, sizeof(l), uarg, usize);
	if (ret)
		return ret;
	if ((l.flags & ~NEURONSIM_LOAD_F_MASK) || l.reserved ||
	    (!l.log_buf && l.log_size))
		return -EINVAL;
	err = kzalloc(sizeof(*err), GFP_KERNEL);
	if (!err)
		return -ENOMEM;
	err->subgraph = -1;
	err->record = -1;

	if (!l.plan_len) {
		nsim_load_err_set(err, KBIN_FIELD_TOTAL_SIZE, KBIN_ERR_TRUNCATED,
				  0, kbin_reason_str(KBIN_ERR_TRUNCATED),
				  "plan_len is 0");
		ret = -EINVAL;
		goto out;
	}
	if (l.plan_len > READ_ONCE(nsim_max_plan_bytes)) {
		nsim_load_err_set(err, KBIN_FIELD_TOTAL_SIZE, KBIN_ERR_STAGE_LIMIT,
				  l.plan_len, kbin_reason_str(KBIN_ERR_STAGE_LIMIT),
				  "plan_len %llu is above max_plan_bytes %lu",
				  l.plan_len, nsim_max_plan_bytes);
		ret = -E2BIG;
		goto out;
	}
	plan = kvmalloc(l.plan_len, GFP_KERNEL | __GFP_NOWARN);
	res = kmalloc(sizeof(*res), GFP_KERNEL);
	if (!plan || !res) {
		nsim_load_err_set(err, KBIN_FIELD_TOTAL_SIZE, KBIN_ERR_STAGE_NOMEM,
				  l.plan_len, kbin_reason_str(KBIN_ERR_STAGE_NOMEM),
				  "no kernel memory for a %llu-byte plan",
				  l.plan_len);
		ret = -ENOMEM;
		goto out;
	}
	if (copy_from_user(plan, u64_to_user_ptr(l.plan_ptr), l.plan_len)) {
		ret = -EFAULT;
		goto out;
	}
	if (kbin_check_plan(plan, l.plan_len, res)) {
		err->subgraph = res->subgraph;
		err->record = res->record;
		err->field = res->field;
		err->reason = res->reason;
		err->value = res->value;
		strscpy(err->msg, res->msg, sizeof(err->msg));
		ret = -EINVAL;
		goto out;
	}

	mutex_lock(&nf->lock);
	if (nf->nmodels >= READ_ONCE(nsim_max_models_per_fd)) {
		nsim_load_err_set(err, KBIN_FIELD_NONE, KBIN_ERR_STAGE_LIMIT,
				  nf->nmodels, kbin_reason_str(KBIN_ERR_STAGE_LIMIT),
				  "this fd holds %u models, max_models_per_fd is %u",
				  nf->nmodels, nsim_max_models_per_fd);
		ret = -EMFILE;
		goto out_unlock;
	}
	m = nsim_model_alloc(((const struct kbin_header *)plan)->num_subgraphs);
	if (!m) {
		nsim_load_err_set(err, KBIN_FIELD_NONE, KBIN_ERR_STAGE_NOMEM, 0,
				  kbin_reason_str(KBIN_ERR_STAGE_NOMEM),
				  "no kernel memory for the model");
		ret = -ENOMEM;
		goto out_unlock;
	}
	ret = nsim_stage(m, plan, l.plan_len, l.first_core, err);
	if (ret)
		goto out_free;
	ret = nsim_model_publish(nf, m);
	if (ret) {
		nsim_load_err_set(err, KBIN_FIELD_NONE, KBIN_ERR_STAGE_LIMIT, 0,
				  kbin_reason_str(KBIN_ERR_STAGE_LIMIT),
				  "no model id available (%ld)", ret);
		goto out_free;
	}
	l.model_id = m->id;
	mutex_unlock(&nf->lock);
	goto out;

out_free:
	nsim_model_free(m);
out_unlock:
	mutex_unlock(&nf->lock);
out:
	if (ret) {
		atomic64_inc(&nsim_stats.load_failures);
		nsim_netlink_notify_load_failed(ret, err);
		dev_dbg(nsim_dev.misc.this_device, "load failed (%ld): %s\n",
			ret, err->msg);
		ret2 = nsim_load_report(&l, err);
	} else {
		atomic64_inc(&nsim_stats.loads);
		l.err_subgraph = -1;
		l.err_record = -1;
		l.err_reason = 0;
		l.err_field = 0;
		l.log_len = 0;
		ret2 = 0;
	}
	if (!ret2)
		ret2 = nsim_copy_out(uarg, usize, &l, sizeof(l));
	kvfree(plan);
	kfree(res);
	kfree(err);
	return ret ? ret : ret2;
}

static long nsim_ioctl_unload(struct nsim_file *nf, void __user *uarg,
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
	ret = nsim_model_unload(nf, u.model_id);
	mutex_unlock(&nf->lock);
	return ret;
}

/*
 * Whether device bytes [@pa, @pa + @len) touch an SBUF carve-out of one of
 * @m's subgraphs.  In a core's SBUF window partition p holds the bytes
 * [p * partition size, (p + 1) * partition size); a carve-out reserves
 * [offset, offset + size) of each of its partitions.  An address outside
 * every window touches none.
 */
static bool nsim_touches_carveout(const struct nsim_model *m, u64 pa, u64 len)
{
	u64 ps = nsim_dev.arch->sbuf_partition_size;
	u64 sbuf = kbin_gen_sbuf_bytes(nsim_dev.arch);
	u32 s, k, p;

	for (s = 0; s < m->num_sg && len; s++) {
		const struct nsim_sg *sg = &m->sg[s];
		u64 base = nsim_sbuf_base(&nsim_dev, sg->core);
		u64 lo, hi;	/* the bytes, relative to the window */

		if (!sg->num_carveouts || pa >= base + sbuf || pa + len <= base)
			continue;
		lo = pa > base ? pa - base : 0;
		hi = min(pa + len - base, sbuf);
		for (k = 0; k < sg->num_carveouts; k++) {
			const struct kbin_sb_carveout *co = &sg->carveouts[k];

			for (p = co->start_partition;
			     p < co->start_partition + co->num_partitions; p++) {
				u64 c0 = p * ps + co->offset;

				if (c0 < hi && lo < c0 + co->size)
					return true;
			}
		}
	}
	return false;
}

/*
 * NEURONSIM_IOC_READ_VAR / WRITE_VAR: bytes of a staged variable of one
 * of the caller's models.  Kinds whose storage is their target's
 * (MR_PTR) or an index list (MR_LIST) have no bytes; an address table
 * (MR_PTR_TABLE) can be read but not written, and neither can the bytes
 * of the model's SBUF carve-outs (the runtime's reservation).
 */
static long nsim_ioctl_var_io(struct nsim_file *nf, void __user *uarg,
			      size_t usize, bool write)
{
	struct neuronsim_var_io io;
	const struct nsim_model *m;
	const struct nsim_mr *mr;
	u8 storage;
	u64 end;
	long ret;

	ret = copy_struct_from_user(&io, sizeof(io), uarg, usize);
	if (ret)
		return ret;
	if (io.flags)
		return -EINVAL;
	mutex_lock(&nf->lock);
	m = nsim_model_get_locked(nf, io.model_id);
	mr = m && io.subgraph < m->num_sg ?
	     nsim_sg_find(&m->sg[io.subgraph], io.var_id) : NULL;
	storage = mr ? kbin_kind(mr->type)->storage : KBIN_STORAGE_NONE;
	if (!mr)
		ret = -ENOENT;
	else if (check_add_overflow(io.offset, io.len, &end) || end > mr->size)
		ret = -ERANGE;
	else if (storage == KBIN_STORAGE_TARGET ||
		 storage == KBIN_STORAGE_INDEX || mr->pa == NSIM_PA_UNSTAGED)
		ret = -ENODATA;
	else if (write && storage == KBIN_STORAGE_TABLE)
		ret = -EPERM;
	else if (write && nsim_touches_carveout(m, mr->pa + io.offset, io.len))
		ret = -EPERM;
	else if (write)
		ret = nsim_mem_write_user(mr->pa + io.offset,
					  u64_to_user_ptr(io.buf), io.len);
	else
		ret = nsim_mem_read_user(mr->pa + io.offset,
					 u64_to_user_ptr(io.buf), io.len);
	mutex_unlock(&nf->lock);
	if (ret == -EDQUOT)
		ret = -ENOMEM;
	return ret;
}

static long nsim_ioctl_model_info(struct nsim_file *nf, void __user *uarg,
				  size_t usize)
{
	struct neuronsim_model_info mi;
	const struct nsim_model *m;
	long ret;

	ret = copy_struct_from_user(&mi, sizeof(mi), uarg, usize);
	if (ret)
		return ret;
	if (mi.flags)
		return -EINVAL;
	mutex_lock(&nf->lock);
	m = nsim_model_get_locked(nf, mi.model_id);
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
	return nsim_copy_out(uarg, usize, &mi, sizeof(mi));
}

/**
 * nsim_ioctl() - dispatch a /dev/neuronsim ioctl.
 * @file: the open device.
 * @cmd: a NEURONSIM_IOC_* command; the size field may differ from the
 *	kernel's struct size (see the file comment).
 * @arg: user pointer to the command's struct.
 *
 * Return: 0 or a negative errno as documented per command in
 * uapi/linux/neuronsim.h; -ENOTTY for an unknown command.
 */
long nsim_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct nsim_file *nf = file->private_data;
	void __user *uarg = (void __user *)arg;
	size_t usize = _IOC_SIZE(cmd);

	if (_IOC_TYPE(cmd) != NEURONSIM_IOC_MAGIC)
		return -ENOTTY;

	switch (NSIM_CMD(cmd)) {
	case NSIM_CMD(NEURONSIM_IOC_GET_INFO):
		return nsim_ioctl_get_info(uarg, usize);
	case NSIM_CMD(NEURONSIM_IOC_LOAD):
		return nsim_ioctl_load(nf, uarg, usize);
	case NSIM_CMD(NEURONSIM_IOC_UNLOAD):
		return nsim_ioctl_unload(nf, uarg, usize);
	case NSIM_CMD(NEURONSIM_IOC_RESOLVE):
		return nsim_ioctl_resolve(nf, uarg, usize);
	case NSIM_CMD(NEURONSIM_IOC_RESOLVE_BATCH):
		return nsim_ioctl_resolve_batch(nf, uarg, usize);
	case NSIM_CMD(NEURONSIM_IOC_READ_VAR):
		return nsim_ioctl_var_io(nf, uarg, usize, false);
	case NSIM_CMD(NEURONSIM_IOC_WRITE_VAR):
		return nsim_ioctl_var_io(nf, uarg, usize, true);
	case NSIM_CMD(NEURONSIM_IOC_MODEL_INFO):
		return nsim_ioctl_model_info(nf, uarg, usize);
	default:
		return -ENOTTY;
	}
}
