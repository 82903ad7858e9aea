// SPDX-License-Identifier: GPL-2.0
/*
 * resolve.c - per-subgraph mem_ref lookup, the resolve rule, and its
 * ioctls: RESOLVE and RESOLVE_BATCH (ioctl.c dispatches to them).
 *
 * Lookup: each subgraph has its own hashtable, a bucket array sized to a
 * power of two >= nmem; the hlist_node is embedded in the kernel mem_ref,
 * which is found by container_of, as libnrt's lookup_memref_by_idx finds
 * mem_ref_t before its hashtable node (Documentation/hardware.rst, "The
 * mem_ref on the load side").  Models are published with RCU, so a
 * resolve takes no lock and allocates nothing.  The lookup, the bounds
 * check and the add are plain C in resolve_core.h, which the host
 * benchmark compiles unchanged.  A failed resolve is logged, at debug
 * level only, in libnrt's words and ours (nrsim_resolve_note()).
 */
#include <linux/device.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/rculist.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "nrsim.h"

static_assert(sizeof(struct nrsim_mr) <= 64, "the hot mem_ref stays small");

/**
 * nrsim_sg_hash_init() - allocate a subgraph's empty hashtable.
 * @sg: the subgraph, with @sg->nmem set.
 *
 * The bucket count is the smallest power of two >= nmem (at least 1).
 *
 * Return: 0, or -ENOMEM.
 */
int nrsim_sg_hash_init(struct nrsim_sg *sg)
{
	u32 nb, i;

	sg->hash_bits = sg->nmem > 1 ? order_base_2(sg->nmem) : 0;
	nb = 1U << sg->hash_bits;
	sg->buckets = kvmalloc_array(nb, sizeof(*sg->buckets),
				     GFP_KERNEL_ACCOUNT | __GFP_NOWARN);
	if (!sg->buckets)
		return -ENOMEM;
	for (i = 0; i < nb; i++)
		INIT_HLIST_HEAD(&sg->buckets[i]);
	return 0;
}

/**
 * nrsim_sg_hash_insert() - insert a mem_ref by its var_id.
 * @sg: the subgraph.
 * @mr: the mem_ref, @mr->var_id set.
 */
void nrsim_sg_hash_insert(struct nrsim_sg *sg, struct nrsim_mr *mr)
{
	nrsim_rc_insert(sg->buckets, sg->hash_bits, mr);
}

/**
 * nrsim_sg_find() - find a mem_ref by var_id (libnrt's lookup_memref_by_idx).
 * @sg: the subgraph.
 * @var_id: the key.
 *
 * Context: under rcu_read_lock(), or with the model held by its fd lock.
 * Return: the mem_ref, or NULL.
 */
struct nrsim_mr *nrsim_sg_find(const struct nrsim_sg *sg, u32 var_id)
{
	/* the table's mem_refs are the subgraph's own, writable, array */
	return (struct nrsim_mr *)nrsim_rc_find(sg->buckets, sg->hash_bits,
						var_id);
}

/* the text of a failed resolve of a found variable (kbin_resolve_strerror) */
static const char *nrsim_resolve_text(const struct nrsim_model *m, u32 subgraph,
				      u32 var_id, u64 offset, u64 size, int err,
				     char *buf, size_t len)
{
	const struct nrsim_sg *sg = &m->sg[subgraph];
	const struct nrsim_mr *mr = nrsim_sg_find(sg, var_id);

	const char *name;
	u64 end;

	if (!mr)
		return "no such variable";
	name = sg->names + sg->cold[mr - sg->mrs].name_off;
	/* an SBUF window access inside the variable: the partition gap */
	if (err == -ERANGE && mr->sbuf &&
	    !check_add_overflow(offset, size, &end) && end <= mr->size)
		return kbin_sbuf_gap_strerror(buf, len, name, offset, size,
					      nrsim_rc_sbuf_part(mr),
					      nrsim_rc_sbuf_stride(mr));
	return kbin_resolve_strerror(buf, len, err, name, mr->type, mr->size,
				     offset, size);
}

/**
 * nrsim_resolve_note() - log why a resolve of a model's variable failed, in
 *	libnrt's words ("invalid offset in %s, %lu < (%lu + %lu)", "Variable
 *	%s is not staged in HBM") and then ours (kbin_resolve_strerror()),
 *	or, for an MR_SB access refused for the partition gap (the
 *	simulator's rule), in ours only (kbin_sbuf_gap_strerror()), at
 *	debug level: a dynamic debug line of this function, off by
 *	default (Documentation/debugfs.rst).
 * @m: the model.
 * @subgraph: a subgraph of @m.
 * @var_id: the variable, found in it.
 * @offset: bytes into it.
 * @size: bytes the access covers.
 * @err: what nrsim_resolve_one() returned: -ERANGE, -EINVAL or -ENODATA.
 *
 * While the line is off this only tests its static branch: the variable's
 * name is looked up and the text formatted only when it is on.
 *
 * Context: as nrsim_resolve_one(): under rcu_read_lock(), or with the
 * model held by its fd lock; takes no lock, allocates nothing.
 */
void nrsim_resolve_note(const struct nrsim_model *m, u32 subgraph, u32 var_id,
			u64 offset, u64 size, int err)
{
	char buf[KBIN_RESOLVE_TEXT_MAX];

	dev_dbg(m->nd->misc.this_device, "model %u sg %u var_id %u: %s\n",
		m->id, subgraph, var_id,
		nrsim_resolve_text(m, subgraph, var_id, offset, size, err, buf,
				   sizeof(buf)));
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

/**
 * nrsim_ioctl_resolve() - NEURONSIM_IOC_RESOLVE: one (var, offset) to an
 *	address.
 * @nf: the caller's file.
 * @uarg: user pointer to struct neuronsim_resolve.
 * @usize: the caller's struct size (ioctl.c).
 *
 * The struct of the current size is read field by field (one user access
 * window, no copy routine, no hardened-usercopy walk); any other size
 * goes through copy_struct_from_user().  This is the syscall-floor figure
 * of Documentation/performance.rst.
 *
 * Return: 0 with the address written back; -EFAULT, -E2BIG (non-zero
 * tail of a larger struct) or an errno of the rule in
 * uapi/linux/neuronsim.h: -EINVAL flags set (checked first); -ENOENT
 * unknown model, subgraph or var; -ERANGE; -EINVAL MR_PTR with an offset;
 * -ENODATA.
 */
long nrsim_ioctl_resolve(struct nrsim_file *nf, void __user *uarg,
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

/**
 * nrsim_ioctl_resolve_batch() - NEURONSIM_IOC_RESOLVE_BATCH: many
 *	(var, offset) pairs of one model to addresses.
 * @nf: the caller's file.
 * @uarg: user pointer to struct neuronsim_resolve_batch.
 * @usize: the caller's struct size (ioctl.c).
 *
 * Entries are resolved in place, up to NRSIM_BATCH_DIRECT per user access
 * window (nrsim_batch_direct()); where that stops at a page not present
 * (or the model went away), the next NRSIM_BATCH_CHUNK entries go through
 * the stack with faults allowed (nrsim_batch_chunk()), then the fast path
 * resumes.  No allocation, no lock.  Each entry gets the status RESOLVE
 * would return (-EINVAL for a non-zero reserved field, -ENOENT once the
 * model is gone).
 *
 * Return: 0 with num_ok written back; -ENOENT unknown model; -EINVAL
 * count 0 or above NEURONSIM_RESOLVE_BATCH_MAX, flags or reserved set;
 * -EFAULT.
 */
long nrsim_ioctl_resolve_batch(struct nrsim_file *nf, void __user *uarg,
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
