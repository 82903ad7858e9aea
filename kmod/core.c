// SPDX-License-Identifier: GPL-2.0
/*
 * core.c - a device's NeuronCores: who owns each, and their SBUF and PSUM.
 *
 * Ownership (Documentation/uapi.rst, "NeuronCores"), as the Neuron driver
 * gives cores to processes: a core is reserved by the first thread group
 * that loads a model on it and stays that group's while any of its models
 * (or a load of it in progress) uses the core; models of the same thread
 * group share its cores, any other gets -EBUSY.  NEURONSIM_CORE_ANY asks
 * for the first run of free cores (first-fit).  When a core's reservation
 * ends, its state is cleared: the backing RAM of its SBUF and PSUM
 * windows is dropped, so the next owner reads zeros.
 *
 * Each NeuronCore N has an SBUF window in the device address map
 * (nrsim_sbuf_base(), Documentation/uapi.rst "Address map"): the SBUF is
 * sbuf_partitions partitions of sbuf_partition_size bytes, partition p
 * holding the window's bytes [p * stride, p * stride + partition size),
 * the stride being sbuf_partition_stride (Documentation/hardware.rst).
 * Its PSUM window (nrsim_psum_base()) is psum_size bytes, PSUM partition
 * p at p * psum_banks * KBIN_PSUM_BANK_SIZE.
 */
#include <linux/device.h>
#include <linux/minmax.h>
#include <linux/mutex.h>
#include <linux/pid.h>
#include <linux/seq_file.h>

#include "nrsim.h"

/* the core's reservation ends: clear its state (SBUF, PSUM; later DMA queues) */
static void nrsim_core_clear(struct nrsim_device *nd, u32 core)
{
	struct nrsim_core *c = &nd->cores.core[core];

	put_pid(c->owner);
	c->owner = NULL;
	nrsim_mem_discard(&nd->mem, nrsim_sbuf_base(nd, core),
			  nd->arch->sbuf_window_size);
	nrsim_mem_discard(&nd->mem, nrsim_psum_base(nd, core),
			  nd->arch->psum_size);
}

/* the first core of [first, first + n) that another thread group holds */
static int nrsim_cores_taken(struct nrsim_device *nd, struct pid *tgid,
			     u32 first, u32 n)
{
	u32 i;

	for (i = first; i < first + n; i++)
		if (nd->cores.core[i].owner && nd->cores.core[i].owner != tgid)
			return i;
	return -1;
}

/* the first run of @n cores nobody holds, or -1 */
static int nrsim_cores_first_fit(struct nrsim_device *nd, u32 n)
{
	u32 first, i;

	for (first = 0; first + n <= nd->arch->num_cores; first++) {
		for (i = first; i < first + n && !nd->cores.core[i].owner; i++)
			;
		if (i == first + n)
			return first;
		first = i;	/* core i is held: no run starts before i + 1 */
	}
	return -1;
}

/**
 * nrsim_cores_reserve() - reserve NeuronCores for a load.
 * @nd: the device.
 * @tgid: the loading thread group.
 * @first: in: the first core, < num_cores, or NEURONSIM_CORE_ANY for the
 *	first run of @n cores nobody holds; out: the first core reserved.
 * @n: cores, 1..num_cores - *@first (1..num_cores with
 *	NEURONSIM_CORE_ANY; the caller checks).
 * @busy: out on -EBUSY: a core another thread group holds (with
 *	NEURONSIM_CORE_ANY the first held core).
 * @busy_pid: out on -EBUSY: that group's pid in the caller's pid namespace
 *	(0 when it is not visible there).
 *
 * Each core of the run counts one more user; the caller's first use of a
 * free core makes it the owner.  On -EBUSY a line goes to the kernel log
 * (ratelimited).
 *
 * Return: 0; -EBUSY a core of the run is another thread group's, or no
 * run of @n free cores exists.
 */
int nrsim_cores_reserve(struct nrsim_device *nd, struct pid *tgid, u32 *first,
			u32 n, u32 *busy, pid_t *busy_pid)
{
	int start, taken;
	u32 i;

	mutex_lock(&nd->cores.lock);
	if (*first == NEURONSIM_CORE_ANY) {
		start = nrsim_cores_first_fit(nd, n);
		taken = -1;
		if (start < 0) {
			/* name a held core: another group's, else the caller's */
			taken = nrsim_cores_taken(nd, tgid, 0, nd->arch->num_cores);
			for (i = 0; taken < 0 && i < nd->arch->num_cores; i++)
				if (nd->cores.core[i].owner)
					taken = i;
		}
	} else {
		start = *first;
		taken = nrsim_cores_taken(nd, tgid, start, n);
	}
	if (start < 0 || taken >= 0) {
		struct pid *owner = taken >= 0 ? nd->cores.core[taken].owner : NULL;

		taken = max(taken, 0);
		*busy = taken;
		*busy_pid = pid_vnr(owner);
		dev_info_ratelimited(&nd->dev,
				     "pid %d: %sNeuronCore %d is reserved by pid %d\n",
				     pid_nr(tgid), start < 0 ? "no free run of cores: " : "",
				     taken, pid_nr(owner));
		mutex_unlock(&nd->cores.lock);
		return -EBUSY;
	}
	for (i = start; i < start + n; i++) {
		if (!nd->cores.core[i].owner)
			nd->cores.core[i].owner = get_pid(tgid);
		nd->cores.core[i].users++;
	}
	mutex_unlock(&nd->cores.lock);
	*first = start;
	return 0;
}

/**
 * nrsim_cores_release() - a model (or a failed load) stops using its cores;
 *	a core's last user ends its reservation and clears its SBUF and
 *	PSUM.
 * @nd: the device.
 * @first: the first core, as nrsim_cores_reserve() returned it.
 * @n: cores.
 */
void nrsim_cores_release(struct nrsim_device *nd, u32 first, u32 n)
{
	u32 i;

	mutex_lock(&nd->cores.lock);
	for (i = first; i < first + n; i++)
		if (!--nd->cores.core[i].users)
			nrsim_core_clear(nd, i);
	mutex_unlock(&nd->cores.lock);
}

/**
 * nrsim_cores_get() - who owns each NeuronCore, for netlink and debugfs.
 * @nd: the device.
 * @owner_pid: out: per core, the owner's pid in the caller's pid
 *	namespace (0: free, or not visible there); num_cores entries.
 * @users: out: per core, its owner's models and loads in progress.
 */
void nrsim_cores_get(struct nrsim_device *nd, pid_t *owner_pid, u32 *users)
{
	u32 i;

	mutex_lock(&nd->cores.lock);
	for (i = 0; i < nd->arch->num_cores; i++) {
		owner_pid[i] = nd->cores.core[i].owner ? pid_vnr(nd->cores.core[i].owner) : 0;
		users[i] = nd->cores.core[i].users;
	}
	mutex_unlock(&nd->cores.lock);
}

/**
 * nrsim_sbuf_touches_carveout() - whether device bytes touch an SBUF
 *	carve-out of one of a model's subgraphs.
 * @m: the model.
 * @pa: first device address.
 * @len: bytes.
 *
 * In a core's SBUF window partition p holds the bytes [p * stride,
 * p * stride + partition size) (Documentation/hardware.rst); a carve-out
 * reserves the bytes [offset, offset + size) of each of its partitions in
 * its subgraph's core's SBUF window.  An address outside every window
 * touches none.
 *
 * Return: true when [@pa, @pa + @len) overlaps a carve-out.
 */
bool nrsim_sbuf_touches_carveout(const struct nrsim_model *m, u64 pa, u64 len)
{
	const struct nrsim_device *nd = m->nd;
	u64 stride = nd->arch->sbuf_partition_stride;
	u64 sbuf = nd->arch->sbuf_window_size;
	u32 s, k, p;

	for (s = 0; s < m->num_sg && len; s++) {
		const struct nrsim_sg *sg = &m->sg[s];
		u64 base = nrsim_sbuf_base(nd, sg->core);
		u64 lo, hi;	/* the bytes, relative to the window */

		if (!sg->num_carveouts || pa >= base + sbuf || pa + len <= base)
			continue;
		lo = pa > base ? pa - base : 0;
		hi = min(pa + len - base, sbuf);
		for (k = 0; k < sg->num_carveouts; k++) {
			const struct kbin_sb_carveout *co = &sg->carveouts[k];

			for (p = co->start_partition;
			     p < co->start_partition + co->num_partitions; p++) {
				u64 c0 = p * stride + co->offset;

				if (c0 < hi && lo < c0 + co->size)
					return true;
			}
		}
	}
	return false;
}

/**
 * nrsim_cores_init() - a device's NeuronCores: all free.
 * @nd: the device, with @nd->cores zeroed.
 */
void nrsim_cores_init(struct nrsim_device *nd)
{
	mutex_init(&nd->cores.lock);
}

/**
 * nrsim_cores_exit() - undo nrsim_cores_init(); no core is owned any more
 *	(no file is open on the device).
 * @nd: the device.
 */
void nrsim_cores_exit(struct nrsim_device *nd)
{
	u32 c;

	for (c = 0; c < NEURONSIM_MAX_CORES; c++)
		WARN_ON_ONCE(nd->cores.core[c].owner);
	mutex_destroy(&nd->cores.lock);
}
