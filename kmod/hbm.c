// SPDX-License-Identifier: GPL-2.0
/*
 * hbm.c - a device's simulated HBM: one lib/genalloc pool per channel,
 * one allocation per staged variable (as libnrt's dmem_alloc_aligned
 * gives each variable its own), placed first-fit at the variable's
 * alignment (gen_pool_first_fit_align, as the real Neuron driver places
 * device memory), and the bytes accounted per channel and per NeuronCore,
 * each by libnrt's usage category (dma_mem_usage_type) and by the Neuron
 * driver's device-memory category that category is counted in
 * (kbin_usage_category(); Documentation/hardware.rst, "HBM usage
 * categories"): for each, the bytes allocated over time (total), held now
 * (present) and the most ever held at once (peak).  The pools and counters
 * are the device's (struct nrsim_dev_hbm: .channel, .core).
 *
 * First-fit from the start of the channel would scan every granule a load
 * placed before, which makes a load of n variables O(n^2).  A caller that
 * places many variables in a row passes a struct nrsim_hbm_cursor: the
 * first granule it saw free on each channel.  Every granule below it was
 * in use then, so the search starts there and finds what first-fit from
 * the start would - unless another model freed memory below it meanwhile,
 * which the search then misses until the next failing allocation, which
 * searches again from the start before giving up.
 *
 * Pools start at channel c's device address (c + 1) * 64 GiB, never 0,
 * so the genalloc "0 means failure" convention is safe.
 */
#include <linux/bitmap.h>
#include <linux/genalloc.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include "nrsim.h"

/*
 * Account @n bytes of @usage more (@add) or fewer in @a.  *@cat and *@all
 * get the NRSIM_ACCT_* bits of the sysfs fields of the usage's device
 * category and of @a->all that moved (nrsim_acct_add()).
 */
static void nrsim_mem_acct(struct nrsim_mem_acct *a, u32 usage, u64 n,
			   bool add, unsigned int *cat, unsigned int *all)
{
	struct nrsim_usage_acct *c = &a->category[kbin_usage_category(usage)];

	if (add) {
		*all = nrsim_acct_add(&a->all, n);
		nrsim_acct_add(&a->usage[usage], n);
		*cat = nrsim_acct_add(c, n);
	} else {
		*all = nrsim_acct_sub(&a->all, n);
		nrsim_acct_sub(&a->usage[usage], n);
		*cat = nrsim_acct_sub(c, n);
	}
}

/* tell the tree's owner (struct nrsim_dev_hbm.moved) what moved */
static void nrsim_hbm_moved(struct nrsim_device *nd, u32 core, u32 usage,
			    unsigned int cat, unsigned int all)
{
	void (*moved)(struct nrsim_device *nd, u32 core, u32 usage,
		      unsigned int cat, unsigned int all) = READ_ONCE(nd->hbm.moved);

	if (moved)
		moved(nd, core, usage, cat, all);
}

/* the data of nrsim_fit(): the alignment and the caller's cursor, or NULL */
struct nrsim_fit_data {
	struct genpool_data_align align;
	unsigned long *first_free;
};

/*
 * genalloc algorithm: gen_pool_first_fit_align from the caller's first
 * free granule (advanced over the granules now in use), or from @start
 * when genalloc retries past a lost race.
 */
static unsigned long nrsim_fit(unsigned long *map, unsigned long size,
			       unsigned long start, unsigned int nr, void *data,
			      struct gen_pool *pool, unsigned long start_addr)
{
	struct nrsim_fit_data *f = data;

	if (f->first_free) {
		*f->first_free = find_next_zero_bit(map, size, *f->first_free);
		start = max(start, *f->first_free);
	}
	return gen_pool_first_fit_align(map, size, start, nr, &f->align, pool,
					start_addr);
}

/**
 * nrsim_hbm_alloc() - allocate HBM for one NeuronCore from its channel.
 * @nd: the device.
 * @core: NeuronCore the bytes are charged to, < num_cores; they come from
 *	its HBM channel (nrsim_core_channel(), Documentation/uapi.rst).
 * @size: bytes; rounded up to NRSIM_HBM_GRANULE (4 KiB).
 * @align: bytes, a power of two (smaller than 4 KiB means 4 KiB).
 * @usage: enum kbin_usage the bytes are charged to: libnrt's category
 *	(WEIGHT, IO, SCRATCHPAD, SCRATCHPAD_NOT_SHARED, GENERIC, DMA_RING,
 *	...); the driver's device-memory category follows from it.
 * @cur: the caller's cursor for a run of allocations, zero-initialised
 *	before the first, or NULL to search from the start of the channel.
 *
 * Placement is first-fit at @align (gen_pool_first_fit_align), the search
 * starting at @cur's first free granule of the channel (see the file
 * comment); when that finds nothing, the whole channel is searched again.
 *
 * Return: the device address (never 0), or 0 when the channel has no
 * free range of @size bytes at @align (or an argument is out of range).
 */
u64 nrsim_hbm_alloc(struct nrsim_device *nd, u32 core, u64 size, u64 align,
		    u32 usage, struct nrsim_hbm_cursor *cur)
{
	struct nrsim_fit_data fit = { .first_free = NULL };
	struct nrsim_hbm_channel *ch;
	unsigned int cat, all;
	unsigned long addr;
	u32 channel;

	if (core >= nd->arch->num_cores || !size || usage > KBIN_USAGE_MAX ||
	    size > nd->arch->hbm_channel_size)
		return 0;
	channel = nrsim_core_channel(nd, core);
	ch = &nd->hbm.channel[channel];
	size = kbin_hbm_round(size);
	fit.align.align = kbin_hbm_align(align);
	if (cur)
		fit.first_free = &cur->first_free[channel];
	addr = gen_pool_alloc_algo(ch->pool, size, nrsim_fit, &fit);
	if (!addr && fit.first_free && *fit.first_free) {
		*fit.first_free = 0;	/* memory below it may have been freed */
		addr = gen_pool_alloc_algo(ch->pool, size, nrsim_fit, &fit);
	}
	if (!addr)
		return 0;
	spin_lock(&nd->hbm.lock);
	nrsim_mem_acct(&ch->acct, usage, size, true, &cat, &all);
	nrsim_mem_acct(&nd->hbm.core[core], usage, size, true, &cat, &all);
	spin_unlock(&nd->hbm.lock);
	nrsim_hbm_moved(nd, core, usage, cat, all);
	return addr;
}

/**
 * nrsim_hbm_free() - free an nrsim_hbm_alloc() allocation and its backing.
 * @nd: the device.
 * @core: the NeuronCore passed to nrsim_hbm_alloc().
 * @addr: its address (0: nothing to do).
 * @size: the size passed to nrsim_hbm_alloc(), bytes.
 * @usage: the category passed to nrsim_hbm_alloc().
 */
void nrsim_hbm_free(struct nrsim_device *nd, u32 core, u64 addr, u64 size,
		    u32 usage)
{
	struct nrsim_hbm_channel *ch;
	unsigned int cat, all;

	if (!addr)
		return;
	ch = &nd->hbm.channel[nrsim_core_channel(nd, core)];
	size = kbin_hbm_round(size);
	nrsim_mem_discard(&nd->mem, addr, size);
	gen_pool_free(ch->pool, addr, size);
	spin_lock(&nd->hbm.lock);
	nrsim_mem_acct(&ch->acct, usage, size, false, &cat, &all);
	nrsim_mem_acct(&nd->hbm.core[core], usage, size, false, &cat, &all);
	spin_unlock(&nd->hbm.lock);
	nrsim_hbm_moved(nd, core, usage, cat, all);
}

/**
 * nrsim_hbm_avail() - free bytes of a channel (not necessarily contiguous).
 * @nd: the device.
 * @channel: HBM channel.
 *
 * Return: bytes.
 */
u64 nrsim_hbm_avail(struct nrsim_device *nd, u32 channel)
{
	return gen_pool_avail(nd->hbm.channel[channel].pool);
}

/**
 * nrsim_hbm_usage_str() - HBM in use on a channel per usage category, as
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
size_t nrsim_hbm_usage_str(struct nrsim_device *nd, u32 channel, char *buf,
			   size_t size)
{
	const struct nrsim_hbm_channel *ch = &nd->hbm.channel[channel];
	size_t n = 0;
	u32 u;

	if (!size)
		return 0;
	buf[0] = '\0';
	spin_lock(&nd->hbm.lock);
	for (u = 0; u <= KBIN_USAGE_MAX; u++) {
		if (!ch->acct.usage[u].present)
			continue;
		n += scnprintf(buf + n, size - n, "%s%s %llu", n ? ", " : "",
			       kbin_usage_str(u), ch->acct.usage[u].present);
	}
	spin_unlock(&nd->hbm.lock);
	if (!n)
		n = scnprintf(buf, size, "nothing");
	return n;
}

/**
 * nrsim_hbm_used_total() - HBM bytes held now over all channels.
 * @nd: the device.
 *
 * Return: bytes.
 */
u64 nrsim_hbm_used_total(struct nrsim_device *nd)
{
	u64 n = 0;
	u32 c;

	spin_lock(&nd->hbm.lock);
	for (c = 0; c < nd->arch->num_hbm_channels; c++)
		n += nd->hbm.channel[c].acct.all.present;
	spin_unlock(&nd->hbm.lock);
	return n;
}

/* the per-category lines of one channel's or core's accounting */
static void nrsim_acct_show(struct seq_file *m, const struct nrsim_mem_acct *a)
{
	u32 i;

	for (i = 0; i <= KBIN_USAGE_MAX; i++)
		if (a->usage[i].total)
			seq_printf(m, "  %-34s present %llu peak %llu total %llu\n",
				   kbin_usage_str(i), a->usage[i].present,
				   a->usage[i].peak, a->usage[i].total);
	for (i = 0; i < KBIN_MEMCAT_MAX; i++)
		if (a->category[i].total)
			seq_printf(m, "  device_mem/%-23s present %llu peak %llu total %llu\n",
				   kbin_mem_category_str(i),
				   a->category[i].present, a->category[i].peak,
				   a->category[i].total);
}

/**
 * nrsim_hbm_show() - the debugfs "hbm" file (Documentation/debugfs.rst):
 *	per HBM channel, then per NeuronCore, the bytes held by libnrt usage
 *	category and by the driver's device-memory category.
 * @nd: the device.
 * @m: seq_file.
 */
void nrsim_hbm_show(struct nrsim_device *nd, struct seq_file *m)
{
	struct nrsim_mem_acct *a;
	u32 c;

	a = kmalloc(sizeof(*a), GFP_KERNEL_ACCOUNT);
	if (!a)
		return;
	seq_printf(m, "backing_bytes %llu\nbacking_limit %lu\n",
		   nrsim_mem_backing_bytes(&nd->mem), nrsim_backing_limit);
	seq_printf(m, "backing_bytes_total %llu\nbacking_limit_total %lu\n",
		   nrsim_mem_backing_total(), nrsim_backing_limit_total);
	for (c = 0; c < nd->arch->num_hbm_channels; c++) {
		spin_lock(&nd->hbm.lock);
		*a = nd->hbm.channel[c].acct;
		spin_unlock(&nd->hbm.lock);
		seq_printf(m, "channel %u base 0x%llx size %llu used %llu peak %llu total %llu free %zu\n",
			   c, nrsim_hbm_base(nd, c), nd->arch->hbm_channel_size,
			   a->all.present, a->all.peak, a->all.total,
			   gen_pool_avail(nd->hbm.channel[c].pool));
		nrsim_acct_show(m, a);
	}
	for (c = 0; c < nd->arch->num_cores; c++) {
		spin_lock(&nd->hbm.lock);
		*a = nd->hbm.core[c];
		spin_unlock(&nd->hbm.lock);
		seq_printf(m, "core %u hbm %u used %llu peak %llu total %llu\n",
			   c, nrsim_core_channel(nd, c), a->all.present,
			   a->all.peak, a->all.total);
		nrsim_acct_show(m, a);
	}
	kfree(a);
}

/**
 * nrsim_hbm_init() - a device's HBM: its accounting's lock and one
 *	genalloc pool per HBM channel.
 * @nd: the device, with @nd->arch set and @nd->hbm zeroed.
 *
 * Return: 0, or -ENOMEM (nothing is left allocated).
 */
int nrsim_hbm_init(struct nrsim_device *nd)
{
	u32 c;
	int ret;

	spin_lock_init(&nd->hbm.lock);
	for (c = 0; c < nd->arch->num_hbm_channels; c++) {
		struct gen_pool *pool = gen_pool_create(NRSIM_HBM_ORDER, -1);

		if (!pool) {
			ret = -ENOMEM;
			goto err_pools;
		}
		nd->hbm.channel[c].pool = pool;
		ret = gen_pool_add(pool, nrsim_hbm_base(nd, c),
				   nd->arch->hbm_channel_size, -1);
		if (ret)
			goto err_pools;
	}
	return 0;

err_pools:
	nrsim_hbm_exit(nd);
	return ret;
}

/**
 * nrsim_hbm_exit() - destroy the pools; every allocation must be freed.
 * @nd: the device.
 */
void nrsim_hbm_exit(struct nrsim_device *nd)
{
	u32 c;

	for (c = 0; c < NEURONSIM_MAX_HBM_CHANNELS; c++) {
		if (nd->hbm.channel[c].pool)
			gen_pool_destroy(nd->hbm.channel[c].pool);
		memset(&nd->hbm.channel[c], 0, sizeof(nd->hbm.channel[c]));
	}
	memset(nd->hbm.core, 0, sizeof(nd->hbm.core));
}
