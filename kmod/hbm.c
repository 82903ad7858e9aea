// SPDX-License-Identifier: GPL-2.0
/*
 * hbm.c - a device's simulated HBM: one lib/genalloc pool per channel,
 * allocations
 * by gen_pool_first_fit_align (as the real Neuron driver places device
 * memory), and usage accounted per channel and per dma_mem_usage_type
 * category (Documentation/hardware.rst, kbin_kind.h): for each, the bytes
 * allocated over time (total), held now (present) and the most ever held
 * at once (peak).  The pools and counters are the device's
 * (struct nsim_device.hbm).
 *
 * Pools start at channel c's device address (c + 1) * 64 GiB, never 0,
 * so the genalloc "0 means failure" convention is safe.
 */
#include <linux/genalloc.h>
#include <linux/seq_file.h>
#include <linux/spinlock.h>

#include "neuronsim.h"

static void nsim_acct_add(struct nsim_usage_acct *a, u64 n)
{
	a->total += n;
	a->present += n;
	if (a->present > a->peak)
		a->peak = a->present;
}

/**
 * nsim_hbm_alloc() - allocate HBM from one channel.
 * @nd: the device.
 * @channel: HBM channel, < num_hbm_channels.
 * @size: bytes; rounded up to NSIM_HBM_GRANULE (4 KiB).
 * @align: bytes, a power of two (smaller than 4 KiB means 4 KiB).
 * @usage: enum kbin_usage the bytes are charged to.
 *
 * Placement is gen_pool_first_fit_align.
 *
 * Return: the device address (never 0), or 0 when the channel has no
 * free range of @size bytes at @align.
 */
u64 nsim_hbm_alloc(struct nsim_device *nd, u32 channel, u64 size, u64 align,
		   u32 usage)
{
	struct genpool_data_align data;
	struct nsim_hbm_channel *ch;
	unsigned long addr;

	if (channel >= nd->arch->num_hbm_channels || !size ||
	    usage > KBIN_USAGE_MAX || size > nd->arch->hbm_channel_size)
		return 0;
	ch = &nd->hbm[channel];
	size = round_up(size, NSIM_HBM_GRANULE);
	data.align = max_t(u64, align, NSIM_HBM_GRANULE);
	addr = gen_pool_alloc_algo(ch->pool, size, gen_pool_first_fit_align,
				   &data);
	if (!addr)
		return 0;
	spin_lock(&nd->hbm_lock);
	nsim_acct_add(&ch->all, size);
	nsim_acct_add(&ch->usage[usage], size);
	spin_unlock(&nd->hbm_lock);
	return addr;
}

/**
 * nsim_hbm_free() - free an nsim_hbm_alloc() allocation and its backing.
 * @nd: the device.
 * @channel: its channel.
 * @addr: its address (0: nothing to do).
 * @size: the size passed to nsim_hbm_alloc(), bytes.
 * @usage: the category passed to nsim_hbm_alloc().
 */
void nsim_hbm_free(struct nsim_device *nd, u32 channel, u64 addr, u64 size,
		   u32 usage)
{
	struct nsim_hbm_channel *ch = &nd->hbm[channel];

	if (!addr)
		return;
	size = round_up(size, NSIM_HBM_GRANULE);
	nsim_mem_discard(&nd->mem, addr, size);
	gen_pool_free(ch->pool, addr, size);
	spin_lock(&nd->hbm_lock);
	ch->all.present -= size;
	ch->usage[usage].present -= size;
	spin_unlock(&nd->hbm_lock);
}

/**
 * nsim_hbm_avail() - free bytes of a channel (not necessarily contiguous).
 * @nd: the device.
 * @channel: HBM channel.
 *
 * Return: bytes.
 */
u64 nsim_hbm_avail(struct nsim_device *nd, u32 channel)
{
	return gen_pool_avail(nd->hbm[channel].pool);
}

/**
 * nsim_hbm_usage_str() - HBM in use on a channel per usage category, as
 * text for load failure reports ("WEIGHT 65536, IO 24695996416").
 * @nd: the device.
 * @channel: HBM channel.
 * @buf: output, NUL-terminated.
 * @size: bytes of @buf.
 *
 * Only categories with bytes in use are listed (kbin_usage_str() names
 * them); "nothing" when the channel is empty.
 *
 * Return: characters written, without the NUL.
 */
size_t nsim_hbm_usage_str(struct nsim_device *nd, u32 channel, char *buf,
			  size_t size)
{
	const struct nsim_hbm_channel *ch = &nd->hbm[channel];
	size_t n = 0;
	u32 u;

	if (!size)
		return 0;
	buf[0] = '\0';
	spin_lock(&nd->hbm_lock);
	for (u = 0; u <= KBIN_USAGE_MAX; u++) {
		if (!ch->usage[u].present)
			continue;
		n += scnprintf(buf + n, size - n, "%s%s %llu", n ? ", " : "",
			       kbin_usage_str(u), ch->usage[u].present);
	}
	spin_unlock(&nd->hbm_lock);
	if (!n)
		n = scnprintf(buf, size, "nothing");
	return n;
}

/**
 * nsim_hbm_used_total() - HBM bytes held now over all channels.
 * @nd: the device.
 *
 * Return: bytes.
 */
u64 nsim_hbm_used_total(struct nsim_device *nd)
{
	u64 n = 0;
	u32 c;

	spin_lock(&nd->hbm_lock);
	for (c = 0; c < nd->arch->num_hbm_channels; c++)
		n += nd->hbm[c].all.present;
	spin_unlock(&nd->hbm_lock);
	return n;
}

/**
 * nsim_hbm_show() - the debugfs "hbm" file (Documentation/debugfs.rst).
 * @nd: the device.
 * @m: seq_file.
 */
void nsim_hbm_show(struct nsim_device *nd, struct seq_file *m)
{
	struct nsim_usage_acct all, u[KBIN_USAGE_MAX + 1];
	u32 c, i;

	seq_printf(m, "backing_bytes %llu\nbacking_limit %lu\n",
		   nsim_mem_backing_bytes(&nd->mem), nsim_backing_limit);
	for (c = 0; c < nd->arch->num_hbm_channels; c++) {
		spin_lock(&nd->hbm_lock);
		all = nd->hbm[c].all;
		memcpy(u, nd->hbm[c].usage, sizeof(u));
		spin_unlock(&nd->hbm_lock);
		seq_printf(m, "channel %u base 0x%llx size %llu used %llu peak %llu total %llu free %zu\n",
			   c, nsim_hbm_base(nd, c), nd->arch->hbm_channel_size,
			   all.present, all.peak, all.total,
			   gen_pool_avail(nd->hbm[c].pool));
		for (i = 0; i <= KBIN_USAGE_MAX; i++) {
			if (!u[i].total)
				continue;
			seq_printf(m, "  %-22s present %llu peak %llu total %llu\n",
				   kbin_usage_str(i), u[i].present, u[i].peak,
				   u[i].total);
		}
	}
}

/**
 * nsim_hbm_init() - create one genalloc pool per HBM channel.
 * @nd: the device, with @nd->arch set and @nd->hbm zeroed.
 *
 * Return: 0, or -ENOMEM (nothing is left allocated).
 */
int nsim_hbm_init(struct nsim_device *nd)
{
	u32 c;
	int ret;

	for (c = 0; c < nd->arch->num_hbm_channels; c++) {
		struct gen_pool *pool = gen_pool_create(NSIM_HBM_ORDER, -1);

		if (!pool) {
			ret = -ENOMEM;
			goto err_pools;
		}
		nd->hbm[c].pool = pool;
		ret = gen_pool_add(pool, nsim_hbm_base(nd, c),
				   nd->arch->hbm_channel_size, -1);
		if (ret)
			goto err_pools;
	}
	return 0;

err_pools:
	nsim_hbm_exit(nd);
	return ret;
}

/**
 * nsim_hbm_exit() - destroy the pools; every allocation must be freed.
 * @nd: the device.
 */
void nsim_hbm_exit(struct nsim_device *nd)
{
	u32 c;

	for (c = 0; c < NEURONSIM_MAX_HBM_CHANNELS; c++) {
		if (nd->hbm[c].pool)
			gen_pool_destroy(nd->hbm[c].pool);
		memset(&nd->hbm[c], 0, sizeof(nd->hbm[c]));
	}
}
