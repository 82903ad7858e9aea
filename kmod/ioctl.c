// SPDX-License-Identifier: GPL-2.0
/*
 * ioctl.c - every ioctl handler of a device node and the dispatcher
 * (uapi/linux/neuronsim.h).
 *
 * Structs are extensible by size: the size encoded in the command is the
 * caller's struct size.  Input is read with copy_struct_from_user() (a
 * larger struct must have a zero tail, else -E2BIG); output is written up
 * to the caller's size and a larger caller struct gets a zeroed tail.
 */
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/stdarg.h>
#include <linux/uaccess.h>
#include <linux/wait.h>

#include "kbin_check.h"
#include "nrsim.h"
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
static_assert(sizeof(struct neuronsim_dma_info) == 64);
static_assert(sizeof(struct neuronsim_dma_queue_info) == 128);
static_assert(sizeof(struct neuronsim_dma_desc_info) == 48);

/* the command with its size field cleared, for matching any struct size */
#define NRSIM_CMD(cmd)	((cmd) & ~(_IOC_SIZEMASK << _IOC_SIZESHIFT))

static int nrsim_copy_out(void __user *uarg, size_t usize,
			  const void *kbuf, size_t ksize)
{
	size_t n = min(usize, ksize);

	if (copy_to_user(uarg, kbuf, n))
		return -EFAULT;
	if (usize > ksize && clear_user(uarg + ksize, usize - ksize))
		return -EFAULT;
	return 0;
}

/**
 * nrsim_fill_info() - describe the device for NEURONSIM_IOC_GET_INFO.
 * @nd: the device.
 * @info: filled completely; reserved fields zero.
 */
static void nrsim_fill_info(const struct nrsim_device *nd,
			    struct neuronsim_info *info)
{
	const struct kbin_gen *a = nd->arch;
	u32 c;

	memset(info, 0, sizeof(*info));
	info->abi_version = NEURONSIM_ABI_VERSION;
	info->features = NEURONSIM_FEAT_RESOLVE_BATCH | NEURONSIM_FEAT_VAR_IO |
			 NEURONSIM_FEAT_NETLINK | NEURONSIM_FEAT_DMA_INFO |
			 NEURONSIM_FEAT_DMA_RUN | NEURONSIM_FEAT_EXECUTE;
	info->arch_gen = a->gen;
	strscpy(info->arch_name, a->name, sizeof(info->arch_name));
	info->num_cores = a->num_cores;
	info->num_hbm_channels = a->num_hbm_channels;
	info->hbm_channel_size = a->hbm_channel_size;
	for (c = 0; c < a->num_hbm_channels; c++)
		info->hbm_base[c] = nrsim_hbm_base(nd, c);
	info->sbuf_base = nrsim_sbuf_base(nd, 0);
	info->sbuf_window_size = a->sbuf_window_size;
	info->sbuf_partitions = a->sbuf_partitions;
	info->sbuf_partition_size = a->sbuf_partition_size;
	info->psum_size = a->psum_size;
	info->scratchpad_page_size = nrsim_scratchpad_page_size;
	info->scratchpad_max_pages = nrsim_scratchpad_max_pages;
	info->max_models_per_fd = nrsim_max_models_per_fd;
	info->max_plan_bytes = nrsim_max_plan_bytes;
	info->max_vars_per_subgraph = nrsim_max_vars_per_subgraph;
	info->backing_limit = nrsim_backing_limit;
	info->max_loading_bytes = READ_ONCE(nrsim_max_loading_bytes);
}

static long nrsim_ioctl_get_info(struct nrsim_file *nf, void __user *uarg,
				 size_t usize)
{
	struct neuronsim_info info;

	nrsim_fill_info(nf->nd, &info);
	return nrsim_copy_out(uarg, usize, &info, sizeof(info));
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

/*
 * NEURONSIM_IOC_LOAD: copy the plan in (at most max_plan_bytes), run the
 * shared checker on all of it (the plan counting against
 * max_loading_bytes meanwhile), stage (stage.c), relocate the DMA
 * programs into UDMA rings (relocate.c), give the model an id,
 * write the struct back, and only then publish the model (RESOLVE,
 * debugfs, netlink, the per-fd count): when the write-back fails the
 * load is rolled back and -EFAULT returned.  The struct is written back
 * on failure too, with err_* and log_len.
 */
static long nrsim_ioctl_load(struct nrsim_file *nf, void __user *uarg,
			     size_t usize)
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

static long nrsim_ioctl_unload(struct nrsim_file *nf, void __user *uarg,
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

/* entries of struct neuronsim_resolve_entry handled per on-stack chunk */
#define NRSIM_BATCH_CHUNK	16

/* Read a whole struct neuronsim_resolve: plain loads, no copy routine. */
static int nrsim_resolve_get(struct neuronsim_resolve *r,
			     const struct neuronsim_resolve __user *u)
{
	if (!user_read_access_begin(u, sizeof(*u)))
		return -EFAULT;
	unsafe_get_user(r->model_id, &u->model_id, efault);
	unsafe_get_user(r->subgraph, &u->subgraph, efault);
	unsafe_get_user(r->var_id, &u->var_id, efault);
	unsafe_get_user(r->flags, &u->flags, efault);
	unsafe_get_user(r->offset, &u->offset, efault);
	unsafe_get_user(r->size, &u->size, efault);
	user_read_access_end();
	return 0;
efault:
	user_read_access_end();
	return -EFAULT;
}

/*
 * NEURONSIM_IOC_RESOLVE.  The struct of the current size is read field
 * by field (one user access window, no copy routine, no hardened-usercopy
 * walk); any other size goes through copy_struct_from_user().  This is the syscall-floor figure of
 * Documentation/performance.rst.  Returns 0 with the address written
 * back; -EFAULT, -E2BIG (non-zero tail of a larger struct) or an errno of
 * the rule in uapi/linux/neuronsim.h: -EINVAL flags set (checked first);
 * -ENOENT unknown model, subgraph or var; -ERANGE; -EINVAL MR_PTR with an
 * offset; -ENODATA.
 */
static long nrsim_ioctl_resolve(struct nrsim_file *nf, void __user *uarg,
				size_t usize)
{
	struct neuronsim_resolve __user *u = uarg;
	struct neuronsim_resolve r;
	struct nrsim_model *m;
	u64 addr = 0;
	int ret;

	if (likely(usize == sizeof(r)))
		ret = nrsim_resolve_get(&r, u);
	else
		ret = copy_struct_from_user(&r, sizeof(r), uarg, usize);
	if (ret)
		return ret;
	if (r.flags)
		return -EINVAL;
	rcu_read_lock();
	m = nrsim_model_lookup_rcu(nf, r.model_id);
	if (m)
		ret = nrsim_resolve_one(m, r.subgraph, r.var_id, r.offset,
					r.size, &addr);
	else
		ret = -ENOENT;
	rcu_read_unlock();
	if (ret)
		return ret;
	if (usize < offsetofend(struct neuronsim_resolve, address))
		return 0;
	if (!user_write_access_begin(&u->address, sizeof(u->address)))
		return -EFAULT;
	unsafe_put_user(addr, &u->address, efault);
	user_write_access_end();
	return 0;
efault:
	user_write_access_end();
	return -EFAULT;
}

/* one batch entry on the stack: the fields resolve reads and writes */
struct nrsim_batch_ent {
	u64 offset;
	u64 size;
	u64 address;
	u32 subgraph;
	u32 var_id;
	s32 status;
	u32 reserved;
};

/* Read the inputs of @n entries; plain loads in one user access window. */
static int nrsim_batch_get(struct nrsim_batch_ent *e,
			   const struct neuronsim_resolve_entry __user *ue,
			  u32 n)
{
	u32 i;

	if (!user_read_access_begin(ue, n * sizeof(*ue)))
		return -EFAULT;
	for (i = 0; i < n; i++) {
		unsafe_get_user(e[i].subgraph, &ue[i].subgraph, efault);
		unsafe_get_user(e[i].var_id, &ue[i].var_id, efault);
		unsafe_get_user(e[i].offset, &ue[i].offset, efault);
		unsafe_get_user(e[i].size, &ue[i].size, efault);
		unsafe_get_user(e[i].reserved, &ue[i].reserved, efault);
	}
	user_read_access_end();
	return 0;
efault:
	user_read_access_end();
	return -EFAULT;
}

/* Write back address and status of @n entries (the rest is unchanged). */
static int nrsim_batch_put(const struct nrsim_batch_ent *e,
			   struct neuronsim_resolve_entry __user *ue, u32 n)
{
	u32 i;

	if (!user_write_access_begin(ue, n * sizeof(*ue)))
		return -EFAULT;
	for (i = 0; i < n; i++) {
		unsafe_put_user(e[i].address, &ue[i].address, efault);
		unsafe_put_user(e[i].status, &ue[i].status, efault);
	}
	user_write_access_end();
	return 0;
efault:
	user_write_access_end();
	return -EFAULT;
}

/*
 * entries the fast path handles per user access window: a whole batch
 * of up to 1024 (40 KiB; the RCU read side and page faults disabled for
 * about 40,000 instructions at most)
 */
#define NRSIM_BATCH_DIRECT	1024

/*
 * The batch's fast path: entries [@from, @to) of @ue read, resolved and
 * written back in place, in one user access window under RCU with page
 * faults disabled, so a page not present ends the window instead of
 * sleeping in it.  No copy to the stack: five loads and two stores per
 * entry around the inlined resolve core; the subgraph's buckets and
 * mask are looked up again only when an entry names another subgraph
 * than the one before.  It also stops at an entry the resolve rule
 * refuses (the copying path logs why; no function may be called with
 * user access open).  Adds the entries that resolved to *@ok and returns
 * the index of the first entry it did not finish (@to when it did them
 * all; @from when the model is gone).
 */
static u32 nrsim_batch_direct(struct nrsim_file *nf, u32 model_id,
			      struct neuronsim_resolve_entry __user *ue,
			     u32 from, u32 to, u32 *ok)
{
	/*
	 * Before the first entry the table at hand is an empty one, as if
	 * for subgraph U32_MAX: an entry naming that subgraph (no model has
	 * as many) finds no variable in it, -ENOENT as the rule says.
	 */
	static const struct hlist_head none[1];
	struct neuronsim_resolve_entry __user *u = ue + from, *end = ue + to;
	const struct hlist_head *buckets = none;
	const struct nrsim_model *m;
	u32 cur = U32_MAX, mask = 0, refused = 0;
	int ret;

	rcu_read_lock();
	m = nrsim_model_lookup_rcu(nf, model_id);
	if (!m)
		goto out;
	pagefault_disable();
	if (!user_access_begin(u, (to - from) * sizeof(*ue)))
		goto out_pagefault;
	for (; u < end; u++) {
		const struct nrsim_mr *mr;
		u64 offset, size, addr;
		u32 subgraph, var_id, reserved;

		unsafe_get_user(subgraph, &u->subgraph, out_uaccess);
		unsafe_get_user(var_id, &u->var_id, out_uaccess);
		unsafe_get_user(offset, &u->offset, out_uaccess);
		unsafe_get_user(size, &u->size, out_uaccess);
		unsafe_get_user(reserved, &u->reserved, out_uaccess);
		/* one test for both: reserved set, or another subgraph */
		if (unlikely((subgraph ^ cur) | reserved)) {
			ret = -EINVAL;
			if (reserved)
				goto refused;
			ret = -ENOENT;
			if (subgraph >= m->num_sg)
				goto refused;
			cur = subgraph;
			buckets = m->sg[cur].buckets;
			mask = nrsim_rc_mask(m->sg[cur].hash_bits);
		}
		mr = nrsim_rc_find_mask(buckets, mask, var_id);
		if (likely(mr)) {
			ret = nrsim_rc_addr(mr, offset, size, &addr);
			/* a failure of the rule is logged: the copying path's */
			if (unlikely(ret))
				break;
		} else {
			ret = -ENOENT;
refused:
			addr = 0;
			refused++;
		}
		/* one place for both stores (the compiler keeps one pointer) */
		unsafe_put_user(addr, &u->address, out_put);
		unsafe_put_user(ret, &u->status, out_put);
	}
	goto out_uaccess;
out_put:
	/* the entry is not done: not refused either */
	refused -= ret != 0;
out_uaccess:
	user_access_end();
out_pagefault:
	pagefault_enable();
out:
	rcu_read_unlock();
	*ok += (u32)(u - (ue + from)) - refused;
	return u - ue;
}

/*
 * The batch's slow path for entries [@from, @from + @n), @n at most
 * NRSIM_BATCH_CHUNK: copied to the stack with page faults allowed,
 * resolved under RCU, written back.  Returns 0 or -EFAULT.
 */
static int nrsim_batch_chunk(struct nrsim_file *nf, u32 model_id,
			     struct neuronsim_resolve_entry __user *ue,
			    u32 from, u32 n, u32 *ok)
{
	struct nrsim_batch_ent ent[NRSIM_BATCH_CHUNK];
	struct nrsim_model *m;
	u32 i;

	if (nrsim_batch_get(ent, ue + from, n))
		return -EFAULT;
	rcu_read_lock();
	m = nrsim_model_lookup_rcu(nf, model_id);
	for (i = 0; i < n; i++) {
		struct nrsim_batch_ent *e = &ent[i];
		u64 addr = 0;
		int ret;

		if (e->reserved)
			ret = -EINVAL;
		else if (!m)
			ret = -ENOENT;
		else
			ret = nrsim_resolve_one(m, e->subgraph, e->var_id,
						e->offset, e->size, &addr);
		e->address = ret ? 0 : addr;
		e->status = ret;
		if (!ret)
			(*ok)++;
	}
	rcu_read_unlock();
	return nrsim_batch_put(ent, ue + from, n);
}

/* Read the inputs of a whole struct neuronsim_resolve_batch: plain loads. */
static int nrsim_batch_hdr_get(struct neuronsim_resolve_batch *b,
			       const struct neuronsim_resolve_batch __user *u)
{
	if (!user_read_access_begin(u, sizeof(*u)))
		return -EFAULT;
	unsafe_get_user(b->model_id, &u->model_id, efault);
	unsafe_get_user(b->count, &u->count, efault);
	unsafe_get_user(b->entries, &u->entries, efault);
	unsafe_get_user(b->flags, &u->flags, efault);
	unsafe_get_user(b->reserved, &u->reserved, efault);
	user_read_access_end();
	return 0;
efault:
	user_read_access_end();
	return -EFAULT;
}

/*
 * NEURONSIM_IOC_RESOLVE_BATCH.  Entries are resolved in place, up to
 * NRSIM_BATCH_DIRECT per user access window (nrsim_batch_direct()); where
 * that stops at a page not present (or the model went away), the next
 * NRSIM_BATCH_CHUNK entries go through the stack with faults allowed
 * (nrsim_batch_chunk()), then the fast path resumes.  No allocation, no
 * lock.  Each entry gets the status RESOLVE would return (-EINVAL for a
 * non-zero reserved field, -ENOENT once the model is gone).  Returns 0
 * with num_ok written back; -ENOENT unknown model; -EINVAL count 0 or
 * above NEURONSIM_RESOLVE_BATCH_MAX, flags or reserved set; -EFAULT.
 */
static long nrsim_ioctl_resolve_batch(struct nrsim_file *nf, void __user *uarg,
				      size_t usize)
{
	struct neuronsim_resolve_batch b;
	struct neuronsim_resolve_entry __user *ue;
	struct nrsim_model *m;
	u32 done, end, n, ok = 0;
	int ret;

	/* the struct of the current size field by field, as RESOLVE reads */
	if (likely(usize == sizeof(b)))
		ret = nrsim_batch_hdr_get(&b, uarg);
	else
		ret = copy_struct_from_user(&b, sizeof(b), uarg, usize);
	if (ret)
		return ret;
	if (b.flags || b.reserved || !b.count ||
	    b.count > NEURONSIM_RESOLVE_BATCH_MAX)
		return -EINVAL;
	rcu_read_lock();
	m = nrsim_model_lookup_rcu(nf, b.model_id);
	rcu_read_unlock();
	if (!m)
		return -ENOENT;

	ue = u64_to_user_ptr(b.entries);
	for (done = 0; done < b.count;) {
		end = min_t(u32, b.count, done + NRSIM_BATCH_DIRECT);
		done = nrsim_batch_direct(nf, b.model_id, ue, done, end, &ok);
		if (done < end) {
			n = min_t(u32, b.count - done, NRSIM_BATCH_CHUNK);
			if (nrsim_batch_chunk(nf, b.model_id, ue, done, n, &ok))
				return -EFAULT;
			done += n;
		}
		if (need_resched())
			cond_resched();
	}
	if (usize >= offsetofend(struct neuronsim_resolve_batch, num_ok) &&
	    put_user(ok, (u32 __user *)(uarg +
				offsetof(struct neuronsim_resolve_batch, num_ok))))
		return -EFAULT;
	return 0;
}

/*
 * Whether WRITE_VAR bytes [@off, @off + @len) of @mr of subgraph @sg touch
 * the gap past a partition's bytes of the SBUF window @mr's bytes are in
 * (MR_SB, or an MR_REMOTE of one: the resolve rule's test,
 * resolve_core.h); says where, in @m's device's log
 * (kbin_sbuf_gap_strerror(): the simulator's rule, its words), when they
 * do.
 */
static bool nrsim_var_write_sbuf_gap(const struct nrsim_model *m,
				     const struct nrsim_sg *sg,
				    const struct nrsim_mr *mr, u64 off, u64 len)
{
	char why[KBIN_RESOLVE_TEXT_MAX];
	u32 part = nrsim_rc_sbuf_part(mr), stride = nrsim_rc_sbuf_stride(mr);

	if (!mr->sbuf || !nrsim_rc_sbuf_gap(part, stride, off, len))
		return false;
	dev_info_ratelimited(&m->nd->dev, "WRITE_VAR model %u var_id %u: %s\n",
			     m->id, mr->var_id,
			     kbin_sbuf_gap_strerror(why, sizeof(why),
						    sg->names + sg->cold[mr - sg->mrs].name_off,
						    off, len, part, stride));
	return true;
}

/*
 * READ_VAR of @mr, whose bytes are an SBUF window (MR_SB, or an MR_REMOTE
 * of one): bytes [@off, @off + @len), each partition's bytes as they are
 * and the gap past them as zeros (Documentation/uapi.rst), into @dst.  At
 * most one partition stride a step, so the walk is at most 128 steps of a
 * 32 MiB window.
 */
static int nrsim_var_read_sb(struct nrsim_mem *mem, const struct nrsim_mr *mr,
			     u64 off, u64 len, u8 __user *dst)
{
	u32 part = nrsim_rc_sbuf_part(mr), stride = nrsim_rc_sbuf_stride(mr);
	u64 b, n;
	int ret;

	if (part >= stride)
		return nrsim_mem_read_user(mem, mr->pa + off, dst, len);
	while (len) {
		b = off & (stride - 1);
		if (b < part) {
			n = min_t(u64, len, part - b);
			ret = nrsim_mem_read_user(mem, mr->pa + off, dst, n);
			if (ret)
				return ret;
		} else {
			n = min_t(u64, len, stride - b);
			if (clear_user(dst, n))
				return -EFAULT;
		}
		off += n;
		dst += n;
		len -= n;
		if (fatal_signal_pending(current))
			return -EINTR;
		cond_resched();
	}
	return 0;
}

/*
 * NEURONSIM_IOC_READ_VAR / WRITE_VAR: bytes of a staged variable of one
 * of the caller's models.  Kinds whose storage is their target's
 * (MR_PTR) or an index list (MR_LIST) have no bytes; an address table
 * (MR_PTR_TABLE) can be read but not written, and neither can the bytes
 * of the model's SBUF carve-outs (the runtime's reservation).  An MR_SB
 * range may span partitions: READ_VAR returns the gap past each
 * partition's bytes as zeros; WRITE_VAR refuses a range that touches it
 * (-ERANGE, as RESOLVE; the simulator's rule, Documentation/uapi.rst).
 */
static long nrsim_ioctl_var_io(struct nrsim_file *nf, void __user *uarg,
			       size_t usize, bool write)
{
	struct neuronsim_var_io io;
	const struct nrsim_model *m;
	const struct nrsim_mr *mr;
	u8 storage;
	u64 end;
	long ret;

	ret = copy_struct_from_user(&io, sizeof(io), uarg, usize);
	if (ret)
		return ret;
	if (io.flags)
		return -EINVAL;
	mutex_lock(&nf->lock);
	m = nrsim_model_get_locked(nf, io.model_id);
	mr = m && io.subgraph < m->num_sg ?
	     nrsim_sg_find(&m->sg[io.subgraph], io.var_id) : NULL;
	storage = mr ? kbin_kind(mr->type)->storage : KBIN_STORAGE_NONE;
	if (!mr)
		ret = -ENOENT;
	else if (check_add_overflow(io.offset, io.len, &end) || end > mr->size)
		ret = -ERANGE;
	else if (write && nrsim_var_write_sbuf_gap(m, &m->sg[io.subgraph], mr,
						   io.offset, io.len))
		ret = -ERANGE;
	else if (storage == KBIN_STORAGE_TARGET ||
		 storage == KBIN_STORAGE_INDEX || mr->pa == NRSIM_PA_UNSTAGED)
		ret = -ENODATA;
	else if (write && storage == KBIN_STORAGE_TABLE)
		ret = -EPERM;
	else if (write &&
		 nrsim_sbuf_touches_carveout(m, mr->pa + io.offset, io.len))
		ret = -EPERM;
	else if (write)
		ret = nrsim_mem_write_user(&nf->nd->mem, mr->pa + io.offset,
					   u64_to_user_ptr(io.buf), io.len);
	else if (mr->sbuf)
		ret = nrsim_var_read_sb(&nf->nd->mem, mr, io.offset, io.len,
					u64_to_user_ptr(io.buf));
	else
		ret = nrsim_mem_read_user(&nf->nd->mem, mr->pa + io.offset,
					  u64_to_user_ptr(io.buf), io.len);
	mutex_unlock(&nf->lock);
	if (ret == -EDQUOT)
		ret = -ENOMEM;
	return ret;
}

static long nrsim_ioctl_model_info(struct nrsim_file *nf, void __user *uarg,
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

/*
 * NEURONSIM_IOC_DMA_INFO: a subgraph's relocated DMA queues and, with
 * NEURONSIM_DMA_INFO_F_RING, a range of one queue side's UDMA
 * descriptors (uapi/linux/neuronsim.h; Documentation/relocation.rst).
 * Under the fd's lock, as the other per-model commands: the model cannot
 * go away meanwhile.
 */
static long nrsim_ioctl_dma_info(struct nrsim_file *nf, void __user *uarg,
				 size_t usize)
{
	struct neuronsim_dma_queue_info qi;
	struct neuronsim_dma_info di;
	const struct nrsim_dma_queue *q;
	const struct nrsim_model *m;
	const struct nrsim_sg *sg;
	bool ring;
	long ret;
	u32 i, n;

	ret = copy_struct_from_user(&di, sizeof(di), uarg, usize);
	if (ret)
		return ret;
	ring = di.flags & NEURONSIM_DMA_INFO_F_RING;
	if ((di.flags & ~NEURONSIM_DMA_INFO_F_MASK) || di.reserved[0] ||
	    di.reserved[1] ||
	    (!ring && (di.queue || di.side || di.first || di.count || di.descs)) ||
	    (ring && (di.side > NEURONSIM_DMA_S2M ||
		      di.count > NEURONSIM_DMA_INFO_MAX_DESCS ||
		      (di.count && !di.descs))))
		return -EINVAL;
	mutex_lock(&nf->lock);
	m = nrsim_model_get_locked(nf, di.model_id);
	if (!m || di.subgraph >= m->num_sg) {
		ret = -ENOENT;
		goto out;
	}
	sg = &m->sg[di.subgraph];
	n = di.queues ? min(di.num_queues, sg->dma.num_queues) : 0;
	for (i = 0; i < n; i++) {
		nrsim_dma_queue_fill(sg, &sg->dma.queues[i], &qi);
		if (copy_to_user(u64_to_user_ptr(di.queues) + i * sizeof(qi),
				 &qi, sizeof(qi))) {
			ret = -EFAULT;
			goto out;
		}
	}
	di.num_queues = sg->dma.num_queues;
	if (ring) {
		if (di.queue >= sg->dma.num_queues) {
			ret = -EINVAL;
			goto out;
		}
		q = &sg->dma.queues[di.queue];
		if (di.first > q->count[di.side]) {
			ret = -ERANGE;
			goto out;
		}
		di.count = min(di.count, q->count[di.side] - di.first);
		ret = nrsim_dma_ring_range(sg, q, di.side, di.first, di.count,
					   u64_to_user_ptr(di.descs));
	}
out:
	mutex_unlock(&nf->lock);
	if (ret)
		return ret;
	return nrsim_copy_out(uarg, usize, &di, sizeof(di));
}

/**
 * nrsim_ioctl() - dispatch a /dev/neuronsim ioctl.
 * @file: the open device.
 * @cmd: a NEURONSIM_IOC_* command; the size field may differ from the
 *	kernel's struct size (see the file comment).
 * @arg: user pointer to the command's struct.
 *
 * Return: 0 or a negative errno as documented per command in
 * uapi/linux/neuronsim.h; -ENOTTY for an unknown command.
 */
long nrsim_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct nrsim_file *nf = file->private_data;
	void __user *uarg = (void __user *)arg;
	size_t usize = _IOC_SIZE(cmd);

	if (_IOC_TYPE(cmd) != NEURONSIM_IOC_MAGIC)
		return -ENOTTY;

	switch (NRSIM_CMD(cmd)) {
	case NRSIM_CMD(NEURONSIM_IOC_GET_INFO):
		return nrsim_ioctl_get_info(nf, uarg, usize);
	case NRSIM_CMD(NEURONSIM_IOC_LOAD):
		return nrsim_ioctl_load(nf, uarg, usize);
	case NRSIM_CMD(NEURONSIM_IOC_UNLOAD):
		return nrsim_ioctl_unload(nf, uarg, usize);
	case NRSIM_CMD(NEURONSIM_IOC_RESOLVE):
		return nrsim_ioctl_resolve(nf, uarg, usize);
	case NRSIM_CMD(NEURONSIM_IOC_RESOLVE_BATCH):
		return nrsim_ioctl_resolve_batch(nf, uarg, usize);
	case NRSIM_CMD(NEURONSIM_IOC_READ_VAR):
		return nrsim_ioctl_var_io(nf, uarg, usize, false);
	case NRSIM_CMD(NEURONSIM_IOC_WRITE_VAR):
		return nrsim_ioctl_var_io(nf, uarg, usize, true);
	case NRSIM_CMD(NEURONSIM_IOC_MODEL_INFO):
		return nrsim_ioctl_model_info(nf, uarg, usize);
	case NRSIM_CMD(NEURONSIM_IOC_DMA_INFO):
		return nrsim_ioctl_dma_info(nf, uarg, usize);
	case NRSIM_CMD(NEURONSIM_IOC_RUN):
		return nrsim_ioctl_run(nf, uarg, usize);
	case NRSIM_CMD(NEURONSIM_IOC_WAIT):
		return nrsim_ioctl_wait(nf, uarg, usize);
	case NRSIM_CMD(NEURONSIM_IOC_EXECUTE):
		return nrsim_ioctl_execute(nf, uarg, usize);
	case NRSIM_CMD(NEURONSIM_IOC_EXEC_WAIT):
		return nrsim_ioctl_exec_wait(nf, uarg, usize);
	default:
		return -ENOTTY;
	}
}
