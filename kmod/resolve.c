// SPDX-License-Identifier: GPL-2.0
/*
 * resolve.c - per-subgraph mem_ref lookup and the resolve rule (the
 * RESOLVE and RESOLVE_BATCH handlers are in ioctl.c).
 *
 * Lookup: each subgraph has its own hashtable, a bucket array sized to a
 * power of two >= nmem; the hlist_node is embedded in the kernel mem_ref,
 * which is found by container_of, as libnrt's lookup_memref_by_idx finds
 * mem_ref_t before its hashtable node (Documentation/hardware.rst, "The
 * mem_ref on the load side").  Models are published with RCU, so a
 * resolve takes no lock and allocates nothing.  The lookup, the bounds
 * check and the add are plain C in resolve_core.h, which the host
 * benchmark compiles unchanged.
 */
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/rculist.h>
#include <linux/slab.h>

#include "neuronsim.h"

static_assert(sizeof(struct nsim_mr) <= 64, "the hot mem_ref stays small");

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
				     GFP_KERNEL_ACCOUNT | __GFP_NOWARN);
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
