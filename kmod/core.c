// SPDX-License-Identifier: GPL-2.0
/*
 * core.c - a device's NeuronCores and their SBUF.
 *
 * Each NeuronCore N has an SBUF window in the device address map
 * (nsim_sbuf_base(), Documentation/uapi.rst "Address map"): the SBUF is
 * sbuf_partitions partitions of sbuf_partition_size bytes, partition p
 * holding the window's bytes [p * partition size, (p + 1) * partition
 * size).  The device counts the models that use each core's SBUF window;
 * when the last one goes, the window's backing RAM goes too, so the next
 * user reads zeros.
 */
#include <linux/minmax.h>
#include <linux/mutex.h>

#include "neuronsim.h"

/**
 * nsim_sbuf_get() - a model starts using a core's SBUF window.
 * @nd: the device.
 * @core: NeuronCore, < num_cores.
 */
void nsim_sbuf_get(struct nsim_device *nd, u32 core)
{
	mutex_lock(&nd->sbuf_lock);
	nd->sbuf_users[core]++;
	mutex_unlock(&nd->sbuf_lock);
}

/**
 * nsim_sbuf_put() - a model stops using a core's SBUF window; the last
 *	user drops the window's backing RAM.
 * @nd: the device.
 * @core: NeuronCore, < num_cores.
 */
void nsim_sbuf_put(struct nsim_device *nd, u32 core)
{
	mutex_lock(&nd->sbuf_lock);
	if (!--nd->sbuf_users[core])
		nsim_mem_discard(&nd->mem, nsim_sbuf_base(nd, core),
				 nd->arch->sbuf_window_size);
	mutex_unlock(&nd->sbuf_lock);
}

/**
 * nsim_sbuf_touches_carveout() - whether device bytes touch an SBUF
 *	carve-out of one of a model's subgraphs.
 * @m: the model.
 * @pa: first device address.
 * @len: bytes.
 *
 * A carve-out reserves the bytes [offset, offset + size) of each of its
 * partitions in its subgraph's core's SBUF window.  An address outside
 * every window touches none.
 *
 * Return: true when [@pa, @pa + @len) overlaps a carve-out.
 */
bool nsim_sbuf_touches_carveout(const struct nsim_model *m, u64 pa, u64 len)
{
	const struct nsim_device *nd = m->nd;
	u64 ps = nd->arch->sbuf_partition_size;
	u64 sbuf = kbin_gen_sbuf_bytes(nd->arch);
	u32 s, k, p;

	for (s = 0; s < m->num_sg && len; s++) {
		const struct nsim_sg *sg = &m->sg[s];
		u64 base = nsim_sbuf_base(nd, sg->core);
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
