// SPDX-License-Identifier: GPL-2.0
/*
 * resolve.c - per-subgraph mem_ref lookup and the resolve rule.
 *
 * Lookup: each subgraph has its own hashtable, a bucket array sized to a
 * power of two >= nmem; the hlist_node is embedded in the kernel mem_ref,
 * which is found by container_of, as libnrt's lookup_memref_by_idx finds
 * mem_ref_t before its hashtable node (Documentation/hardware.rst, "The
 * mem_ref on the load side").  Models are published with RCU, so
 * RESOLVE and RESOLVE_BATCH take no lock and allocate nothing: the batch
 * works through the user's array in fixed on-stack chunks.  The lookup,
 * the bounds check and the add are plain C in resolve_core.h, which the
 * host benchmark compiles unchanged.
 */
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/rculist.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "neuronsim.h"

static_assert(sizeof(struct nsim_mr) <= 64, "the hot mem_ref stays small");

/* entries of struct neuronsim_resolve_entry handled per on-stack chunk */
#define NSIM_BATCH_CHUNK	16

/**
 * nsim_sg_hash_init() - allocate a subgraph's empty hashtable.
 * @sg: the subgraph, with @sg->nmem set.
 *
 * The bucket count is the smallest power of two >= nmem (at least 1).
 *
 * Return: 0, or -ENOMEM.
 */
int nsim_sg_hash_init(struct nsim_sg *sg)
{
	u32 nb, i;

	sg->hash_bits = sg->nmem > 1 ? order_base_2(sg->nmem) : 0;
	nb = 1U << sg->hash_bits;
	sg->buckets = kvmalloc_array(nb, sizeof(*sg->buckets),
				     GFP_KERNEL | __GFP_NOWARN);
	if (!sg->buckets)
		return -ENOMEM;
	for (i = 0; i < nb; i++)
		INIT_HLIST_HEAD(&sg->buckets[i]);
	return 0;
}

/**
 * nsim_sg_hash_insert() - insert a mem_ref by its var_id.
 * @sg: the subgraph.
 * @mr: the mem_ref, @mr->var_id set.
 */
void nsim_sg_hash_insert(struct nsim_sg *sg, struct nsim_mr *mr)
{
	nsim_rc_insert(sg->buckets, sg->hash_bits, mr);
}

/**
 * nsim_sg_find() - find a mem_ref by var_id (libnrt's lookup_memref_by_idx).
 * @sg: the subgraph.
 * @var_id: the key.
 *
 * Context: under rcu_read_lock(), or with the model held by its fd lock.
 * Return: the mem_ref, or NULL.
 */
struct nsim_mr *nsim_sg_find(const struct nsim_sg *sg, u32 var_id)
{
	/* the table's mem_refs are the subgraph's own, writable, array */
	return (struct nsim_mr *)nsim_rc_find(sg->buckets, sg->hash_bits,
					      var_id);
}

/*
 * Resolve one (subgraph, var_id, offset, size) of a model; under RCU.
 * The lookup, bounds check and add are resolve_core.h's, inlined here:
 * the code bench/resolve_bench.c counts.
 */
static int nsim_resolve_one(const struct nsim_model *m, u32 subgraph,
			    u32 var_id, u64 offset, u64 size, u64 *addr)
{
	const struct nsim_sg *sg;

	if (subgraph >= m->num_sg)
		return -ENOENT;
	sg = &m->sg[subgraph];
	return nsim_rc_resolve(sg->buckets, sg->hash_bits, var_id, offset, size,
			       addr);
}

/* Read a whole struct neuronsim_resolve: plain loads, no copy routine. */
static int nsim_resolve_get(struct neuronsim_resolve *r,
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
 * nsim_ioctl_resolve() - NEURONSIM_IOC_RESOLVE.
 * @nf: the caller's open file.
 * @uarg: user struct neuronsim_resolve.
 * @usize: its size.
 *
 * The struct of the current size is read field by field (one user access
 * window, no copy routine, no hardened-usercopy walk); any other size goes
 * through copy_struct_from_user().  This is the syscall-floor figure of
 * Documentation/performance.rst.
 *
 * Return: 0 with the address written back; -EFAULT, -E2BIG (non-zero tail
 * of a larger struct) or an errno of the rule in uapi/linux/neuronsim.h:
 * -EINVAL flags set (checked first); -ENOENT unknown model, subgraph or
 * var; -ERANGE; -EINVAL MR_PTR with an offset; -ENODATA.
 */
long nsim_ioctl_resolve(struct nsim_file *nf, void __user *uarg, size_t usize)
{
	struct neuronsim_resolve __user *u = uarg;
	struct neuronsim_resolve r;
	struct nsim_model *m;
	u64 addr = 0;
	int ret;

	if (likely(usize == sizeof(r)))
		ret = nsim_resolve_get(&r, u);
	else
		ret = copy_struct_from_user(&r, sizeof(r), uarg, usize);
	if (ret)
		return ret;
	if (r.flags)
		return -EINVAL;
	rcu_read_lock();
	m = nsim_model_lookup_rcu(nf, r.model_id);
	if (m)
		ret = nsim_resolve_one(m, r.subgraph, r.var_id, r.offset,
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
struct nsim_batch_ent {
	u64 offset;
	u64 size;
	u64 address;
	u32 subgraph;
	u32 var_id;
	s32 status;
	u32 reserved;
};

/* Read the inputs of @n entries; plain loads in one user access window. */
static int nsim_batch_get(struct nsim_batch_ent *e,
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
static int nsim_batch_put(const struct nsim_batch_ent *e,
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

/**
 * nsim_ioctl_resolve_batch() - NEURONSIM_IOC_RESOLVE_BATCH.
 * @nf: the caller's open file.
 * @uarg: user struct neuronsim_resolve_batch.
 * @usize: its size.
 *
 * Entries are read in, resolved under RCU and written back (address and
 * status) in chunks of NSIM_BATCH_CHUNK on the stack: no allocation, no
 * lock.  Each entry gets the status RESOLVE would return (-EINVAL for a
 * non-zero reserved field).
 *
 * Return: 0 with num_ok written back; -ENOENT unknown model; -EINVAL
 * count 0 or above NEURONSIM_RESOLVE_BATCH_MAX, flags or reserved set;
 * -EFAULT.
 */
long nsim_ioctl_resolve_batch(struct nsim_file *nf, void __user *uarg,
			      size_t usize)
{
	struct nsim_batch_ent ent[NSIM_BATCH_CHUNK];
	struct neuronsim_resolve_batch b;
	struct neuronsim_resolve_entry __user *ue;
	struct nsim_model *m;
	u32 done, n, i, ok = 0;
	int ret;

	ret = copy_struct_from_user(&b, sizeof(b), uarg, usize);
	if (ret)
		return ret;
	if (b.flags || b.reserved || !b.count ||
	    b.count > NEURONSIM_RESOLVE_BATCH_MAX)
		return -EINVAL;
	rcu_read_lock();
	m = nsim_model_lookup_rcu(nf, b.model_id);
	rcu_read_unlock();
	if (!m)
		return -ENOENT;

	ue = u64_to_user_ptr(b.entries);
	for (done = 0; done < b.count; done += n) {
		n = min_t(u32, b.count - done, NSIM_BATCH_CHUNK);
		if (nsim_batch_get(ent, ue + done, n))
			return -EFAULT;
		rcu_read_lock();
		m = nsim_model_lookup_rcu(nf, b.model_id);
		for (i = 0; i < n; i++) {
			struct nsim_batch_ent *e = &ent[i];
			u64 addr = 0;

			if (e->reserved)
				ret = -EINVAL;
			else if (!m)
				ret = -ENOENT;
			else
				ret = nsim_resolve_one(m, e->subgraph,
						       e->var_id, e->offset,
						       e->size, &addr);
			e->address = ret ? 0 : addr;
			e->status = ret;
			if (!ret)
				ok++;
		}
		rcu_read_unlock();
		if (nsim_batch_put(ent, ue + done, n))
			return -EFAULT;
		if (need_resched())
			cond_resched();
	}
	if (usize >= offsetofend(struct neuronsim_resolve_batch, num_ok) &&
	    put_user(ok, (u32 __user *)(uarg +
				offsetof(struct neuronsim_resolve_batch, num_ok))))
		return -EFAULT;
	return 0;
}
