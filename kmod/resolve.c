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
 * benchmark compiles unchanged.  A failed resolve is logged, at debug
 * level only, in libnrt's words and ours (nrsim_resolve_note()).
 */
#include <linux/device.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/rculist.h>
#include <linux/slab.h>

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
