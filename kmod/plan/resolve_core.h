/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * resolve_core.h - the resolve hot path: the kernel mem_ref, the
 * per-subgraph hashtable lookup, the bounds check and the add (libnrt's
 * lookup_memref_by_idx + mem_ref_to_addr; Documentation/uapi.rst,
 * NEURONSIM_IOC_RESOLVE, states the rule).
 *
 * Plain C, static inline, no allocation and no lock.  The module
 * (resolve.c, stage.c) uses it, and the host benchmark (bench/) compiles
 * this very file unchanged, so the instructions the benchmark counts are
 * the module's.  The rule itself, nrsim_rc_addr(), is the one copy every
 * layer applies: the neuronsim command resolves on a model's netlink
 * table through nrsim_rc_rule().  The few things the kernel provides (u32/u64, hlist,
 * READ_ONCE, container_of, check_add_overflow, likely, errno values) come from
 * the kernel headers in the kernel build and from a small shim below in
 * the host build, in the style of kbin_compat.h.
 *
 * The hashtable is an array of 1 << hash_bits hlist heads (a power of two
 * >= the subgraph's nmem); the hlist_node is embedded in the mem_ref,
 * found by container_of.  The bucket of a var_id is its low hash_bits
 * bits: a checked plan's var_ids are dense, so each chain holds one
 * mem_ref (nrsim_rc_bucket()).
 * Readers walk the chain with READ_ONCE (RCU, as
 * hlist_for_each_entry_rcu); writers insert before the model is
 * published.
 */
#ifndef _NEURONSIM_RESOLVE_CORE_H
#define _NEURONSIM_RESOLVE_CORE_H

#ifdef __KERNEL__

#include <linux/build_bug.h>
#include <linux/compiler.h>
#include <linux/container_of.h>
#include <linux/errno.h>
#include <linux/log2.h>
#include <linux/overflow.h>
#include <linux/rculist.h>
#include <linux/types.h>

#else /* host: the shim */

#include <assert.h>
#include <errno.h>
#include <stddef.h>
#include <linux/types.h>

typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;

struct hlist_node {
	struct hlist_node *next, **pprev;
};

struct hlist_head {
	struct hlist_node *first;
};

#define READ_ONCE(x)		__atomic_load_n(&(x), __ATOMIC_RELAXED)
#define WRITE_ONCE(x, v)	__atomic_store_n(&(x), (v), __ATOMIC_RELAXED)
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))
#define check_add_overflow(a, b, d)	__builtin_add_overflow(a, b, d)
/* of a non-zero u32 */
#define ilog2(n)		(31 - __builtin_clz(n))
#ifndef likely
#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)
#endif

static inline void INIT_HLIST_HEAD(struct hlist_head *h)
{
	h->first = NULL;
}

/* single writer, before publication: the plain form of the _rcu insert */
static inline void hlist_add_head_rcu(struct hlist_node *n,
				      struct hlist_head *h)
{
	struct hlist_node *first = h->first;

	n->next = first;
	n->pprev = &h->first;
	if (first)
		first->pprev = &n->next;
	WRITE_ONCE(h->first, n);
}

#endif /* __KERNEL__ */

#include <linux/neuronsim_kbin.h>

/* physical_address of a variable that is not staged: all ones, never 0 */
#define NRSIM_PA_UNSTAGED	(~0ULL)

/**
 * struct nrsim_mr - the kernel mem_ref: the hot lookup/resolve object
 * (libnrt's load-side mem_ref_t cut to what resolve reads;
 * Documentation/hardware.rst).
 * 48 bytes; with its share of the bucket array (8 bytes per bucket,
 * 1..2 buckets per var) at most 64 bytes per var.
 * @node: hashtable node; the mem_ref is found from it by container_of
 *	(libnrt subtracts 160 from its ht_node_t).
 * @size: bytes, for the bounds check.
 * @pa: physical_address: device address, NRSIM_PA_UNSTAGED when not
 *	staged.  MR_PTR: its target's address.
 * @var_id: key.
 * @type: enum kbin_mr_type.
 * @flags: NRSIM_MR_*.
 * @sbuf: 0, or the geometry of the SBUF window with a gap past each
 *	partition that the variable's bytes are in, which nrsim_rc_addr()'s
 *	gap test reads (nrsim_rc_sbuf_init()): MR_SB, and an MR_REMOTE whose
 *	source is an MR_SB.
 * @aux: MR_LIST/MR_PTR_TABLE: index of the list in the subgraph's list
 *	pool; MR_PTR: target var_id; MR_REMOTE: relative subgraph.
 * @aux2: MR_LIST/MR_PTR_TABLE: list length; MR_REMOTE: remote var_id.
 */
struct nrsim_mr {
	struct hlist_node node;
	u64 size;
	u64 pa;
	u32 var_id;
	u8 type;
	u8 flags;
	u16 sbuf;
	u32 aux;
	u32 aux2;
};

static_assert(sizeof(struct nrsim_mr) == 48, "the kernel mem_ref is 48 bytes");

/**
 * nrsim_rc_mask() - the bucket mask of a table: bucket = var_id & mask.
 * @hash_bits: log2 of the bucket count, 0..31.
 *
 * Return: (1 << @hash_bits) - 1.
 */
static inline u32 nrsim_rc_mask(u32 hash_bits)
{
	return (1U << hash_bits) - 1;
}

/**
 * nrsim_rc_bucket() - the bucket index of a var_id.
 * @var_id: the key.
 * @hash_bits: log2 of the bucket count, 0..31.
 *
 * The low @hash_bits bits of the key.  A checked plan's var_ids are dense
 * (record i has var_id i, Documentation/kbin-format.rst) and there are at
 * least as many buckets as records, so every chain holds one mem_ref: a lookup
 * is one bucket load and one compare, and stage.c's inserts in var_id
 * order write the bucket array front to back (no random access while
 * loading).  Sparse keys would still be found, in longer chains.
 *
 * Return: 0 .. (1 << @hash_bits) - 1.
 */
static inline u32 nrsim_rc_bucket(u32 var_id, u32 hash_bits)
{
	return var_id & nrsim_rc_mask(hash_bits);
}

/**
 * nrsim_rc_insert() - insert a mem_ref by its var_id.
 * @buckets: the bucket array, 1 << @hash_bits heads.
 * @hash_bits: log2 of the bucket count.
 * @mr: the mem_ref, @mr->var_id set.
 *
 * Context: the only writer, before the table is published.
 */
static inline void nrsim_rc_insert(struct hlist_head *buckets, u32 hash_bits,
				   struct nrsim_mr *mr)
{
	hlist_add_head_rcu(&mr->node,
			   &buckets[nrsim_rc_bucket(mr->var_id, hash_bits)]);
}

/**
 * nrsim_rc_find_mask() - nrsim_rc_find() with the table's bucket mask
 *	(nrsim_rc_mask()) instead of its hash_bits, for a caller that looks
 *	up many var_ids in one table (RESOLVE_BATCH keeps the mask of the
 *	subgraph at hand while entries name the same one).
 * @buckets: the bucket array, @mask + 1 heads.
 * @mask: nrsim_rc_mask() of the table's hash_bits.
 * @var_id: the key.
 *
 * Context: as nrsim_rc_find().
 * Return: the mem_ref, or NULL.
 */
static inline const struct nrsim_mr *
nrsim_rc_find_mask(const struct hlist_head *buckets, u32 mask, u32 var_id)
{
	const struct hlist_node *n = READ_ONCE(buckets[var_id & mask].first);
	const struct nrsim_mr *mr;

	if (!n)
		return NULL;
	/* the first node, the hit of a dense table, on the straight path */
	mr = container_of(n, struct nrsim_mr, node);
	if (likely(mr->var_id == var_id))
		return mr;
	while ((n = READ_ONCE(n->next))) {
		mr = container_of(n, struct nrsim_mr, node);
		if (mr->var_id == var_id)
			return mr;
	}
	return NULL;
}

/**
 * nrsim_rc_find() - find a mem_ref by var_id (lookup_memref_by_idx).
 * @buckets: the bucket array, 1 << @hash_bits heads.
 * @hash_bits: log2 of the bucket count.
 * @var_id: the key.
 *
 * Context: under rcu_read_lock(), or with the table's writer excluded.
 * Return: the mem_ref, or NULL.
 */
static inline const struct nrsim_mr *
nrsim_rc_find(const struct hlist_head *buckets, u32 hash_bits, u32 var_id)
{
	return nrsim_rc_find_mask(buckets, nrsim_rc_mask(hash_bits), var_id);
}

/**
 * nrsim_rc_sbuf_gap() - does an access to the SBUF window touch the gap
 *	past a partition's bytes?
 * @part_size: SBUF bytes per partition (the generation's
 *	sbuf_partition_size).
 * @stride: bytes from one partition to the next in the window (the
 *	generation's sbuf_partition_stride), a power of two.
 * @offset: bytes into the window.
 * @size: bytes the access covers.
 *
 * Byte b of partition p is at p * @stride + b of the window
 * (Documentation/hardware.rst); bytes @part_size .. @stride - 1 of each
 * stride hold nothing.  An access touches them when its first byte lies
 * there (even with @size 0: the address itself names no SBUF byte) or
 * when it runs past the end of its partition.  When @part_size fills the
 * stride there is no gap.
 *
 * Return: 1 when the access touches a gap, else 0.
 */
static inline int nrsim_rc_sbuf_gap(u32 part_size, u32 stride, u64 offset,
				    u64 size)
{
	u64 b;

	if (part_size >= stride)
		return 0;
	b = offset & (stride - 1);
	return b >= part_size || size > part_size - b;
}

/**
 * nrsim_rc_sbuf_init() - give a mem_ref whose bytes are an SBUF window
 *	(MR_SB, or an MR_REMOTE of one) its geometry, which nrsim_rc_addr()
 *	reads.
 * @mr: the mem_ref.
 * @part_size: SBUF bytes per partition, a multiple of 4 KiB below 1 MiB
 *	(every generation's, Documentation/hardware.rst).
 * @stride: partition stride in the window, a power of two.
 *
 * The geometry takes 16 bits of the mem_ref: the log2 of @stride in bits
 * 8..12, @part_size in 4 KiB units in bits 0..7 (nrsim_rc_sbuf_part(),
 * nrsim_rc_sbuf_stride()); 0 when the partitions fill their stride (or no
 * geometry is given): the window has no gap to test.
 */
static inline void nrsim_rc_sbuf_init(struct nrsim_mr *mr, u32 part_size,
				      u32 stride)
{
	if (!stride || part_size >= stride)
		mr->sbuf = 0;
	else
		mr->sbuf = (u16)((ilog2(stride) << 8) | (part_size >> 12));
}

/**
 * nrsim_rc_sbuf_part() - SBUF bytes per partition of @mr's window.
 * @mr: a mem_ref given its geometry by nrsim_rc_sbuf_init().
 *
 * Return: the partition size in bytes.
 */
static inline u32 nrsim_rc_sbuf_part(const struct nrsim_mr *mr)
{
	return (u32)(mr->sbuf & 0xff) << 12;
}

/**
 * nrsim_rc_sbuf_stride() - the partition stride of @mr's window.
 * @mr: a mem_ref given its geometry by nrsim_rc_sbuf_init().
 *
 * Return: the stride in bytes.
 */
static inline u32 nrsim_rc_sbuf_stride(const struct nrsim_mr *mr)
{
	return 1U << (mr->sbuf >> 8);
}

/**
 * nrsim_rc_own_rule() - does nrsim_rc_addr() test a kind further: MR_PTR
 *	(its offset), MR_SB and MR_REMOTE (the partition gap, when their
 *	bytes are an SBUF window)?
 * @type: enum kbin_mr_type, any u8 value.
 *
 * Return: 1 for MR_PTR, MR_SB and MR_REMOTE, else 0.
 */
static inline int nrsim_rc_own_rule(u8 type)
{
	/* every u8 has its entry: one load, one test */
	static const u8 own[256] = {
		[KBIN_MR_PTR] = 1, [KBIN_MR_SB] = 1, [KBIN_MR_REMOTE] = 1,
	};

	return own[type];
}

/**
 * nrsim_rc_addr() - the resolve rule (libnrt's mem_ref_to_addr;
 *	Documentation/uapi.rst).
 * @mr: the mem_ref.
 * @offset: bytes into the variable.
 * @size: bytes the access covers.
 * @addr: out: device address.
 *
 * In this order: mr.size < offset + size (or the sum overflows) is out
 * of bounds, and so is an access to an SBUF window (MR_SB, or an
 * MR_REMOTE of one) that touches the gap past a partition's bytes
 * (nrsim_rc_sbuf_gap() with the geometry of nrsim_rc_sbuf_init(); only
 * those kinds pay for this test); an MR_PTR needs
 * offset 0 and gives its physical_address; an unstaged variable
 * (physical_address all ones) is refused; else the address is offset +
 * physical_address.
 *
 * Return: 0; -ERANGE out of bounds; -EINVAL MR_PTR with a non-zero
 * offset; -ENODATA not staged.
 */
static inline int nrsim_rc_addr(const struct nrsim_mr *mr, u64 offset,
				u64 size, u64 *addr)
{
	u64 end;

	if (check_add_overflow(offset, size, &end) || mr->size < end)
		return -ERANGE;
	/*
	 * One table test for the two kinds with a rule of their own (the
	 * kinds differ, so the documented order holds): the fast path pays a
	 * load and a branch, and end - offset keeps size from staying live
	 * (Documentation/performance.rst, figure 1).
	 */
	if (unlikely(nrsim_rc_own_rule(mr->type))) {
		if (mr->type == KBIN_MR_PTR) {
			if (offset)
				return -EINVAL;
			*addr = mr->pa;
			return 0;
		}
		if (mr->sbuf &&
		    nrsim_rc_sbuf_gap(nrsim_rc_sbuf_part(mr),
				      nrsim_rc_sbuf_stride(mr), offset,
				     end - offset))
			return -ERANGE;
	}
	if (mr->pa == NRSIM_PA_UNSTAGED)
		return -ENODATA;
	*addr = offset + mr->pa;
	return 0;
}

/**
 * nrsim_rc_rule() - the resolve rule on plain values, for code that holds
 *	no kernel mem_ref (the neuronsim command resolving on a model's
 *	netlink table): nrsim_rc_addr() on a mem_ref made of them.
 * @type: enum kbin_mr_type.
 * @var_size: the variable's size in bytes.
 * @pa: its physical_address; NRSIM_PA_UNSTAGED when not staged.
 * @part_size: SBUF bytes per partition of the device (read for MR_SB).
 * @stride: partition stride in the SBUF window (read for MR_SB).
 * @offset: bytes into the variable.
 * @size: bytes the access covers.
 * @addr: out: device address.
 *
 * Return: as nrsim_rc_addr().
 */
static inline int nrsim_rc_rule(u32 type, u64 var_size, u64 pa, u32 part_size,
				u32 stride, u64 offset, u64 size, u64 *addr)
{
	struct nrsim_mr mr = { .size = var_size, .pa = pa, .type = type };

	if (type == KBIN_MR_SB)
		nrsim_rc_sbuf_init(&mr, part_size, stride);
	return nrsim_rc_addr(&mr, offset, size, addr);
}

/**
 * nrsim_rc_table_row() - one row of an MR_PTR_TABLE at load, as libnrt
 *	rebuilds the table's second list: the row's variable resolved
 *	through the resolve rule (nrsim_rc_addr() at offset 0, size 0).
 * @mr: the mem_ref the row's var_id names, or NULL when there is none.
 * @addr: out: its device address, 0 when the row needs no translation.
 *
 * A row needs translation when its variable has a device address; a row
 * naming none (no such variable, or one that is not staged, such as an
 * MR_LIST) keeps its needs_translation bit clear and address 0.  A checked
 * plan's rows name storage variables of the subgraph, which all have one
 * (Documentation/kbin-format.rst).
 *
 * Return: 1 (needs translation: @addr set), or 0.
 */
static inline int nrsim_rc_table_row(const struct nrsim_mr *mr, u64 *addr)
{
	*addr = 0;
	if (!mr || nrsim_rc_addr(mr, 0, 0, addr)) {
		*addr = 0;
		return 0;
	}
	return 1;
}

/**
 * nrsim_rc_resolve() - lookup + bounds + add: one resolve in a subgraph.
 * @buckets: the subgraph's bucket array, 1 << @hash_bits heads.
 * @hash_bits: log2 of the bucket count.
 * @var_id: the variable.
 * @offset: bytes into it.
 * @size: bytes the access covers.
 * @addr: out: device address.
 *
 * Context: as nrsim_rc_find().
 * Return: 0; -ENOENT unknown var; else as nrsim_rc_addr().
 */
static inline int nrsim_rc_resolve(const struct hlist_head *buckets,
				   u32 hash_bits, u32 var_id, u64 offset,
				  u64 size, u64 *addr)
{
	const struct nrsim_mr *mr = nrsim_rc_find(buckets, hash_bits, var_id);

	if (!mr)
		return -ENOENT;
	return nrsim_rc_addr(mr, offset, size, addr);
}

#endif /* _NEURONSIM_RESOLVE_CORE_H */
