// SPDX-License-Identifier: GPL-2.0
/*
 * addrmap.c - a device's address map: where each HBM channel and each
 * NeuronCore's SBUF and PSUM windows sit in device address space, and which HBM
 * channel a NeuronCore allocates from, and GET_INFO, which reports them
 * with the module's limits (ioctl.c dispatches to it).  A leaf: it reads
 * the device's generation and calls nothing else of the module.
 *
 * Device address map (reported by NEURONSIM_IOC_GET_INFO; no device
 * address 0 is ever handed out):
 *
 *   0x1_0000_0000 + N * window     SBUF window of NeuronCore N
 *   0x2_0000_0000 + N * psum_size  PSUM window of NeuronCore N
 *   (c + 1) * 64 GiB               HBM channel c, hbm_channel_size bytes
 *
 * The window size, core and channel counts and every other number of a
 * generation come from its row in the generation table (kbin_gen.h,
 * Documentation/hardware.rst).
 */
#include <linux/sizes.h>

#include "nrsim.h"

/**
 * nrsim_hbm_base() - device address of an HBM channel.
 * @nd: the device.
 * @channel: channel index, < num_hbm_channels.
 *
 * Return: the channel's first device address (never 0).
 */
u64 nrsim_hbm_base(const struct nrsim_device *nd, u32 channel)
{
	return NRSIM_HBM_BASE + (u64)channel * NRSIM_HBM_STRIDE;
}

/**
 * nrsim_sbuf_base() - device address of a NeuronCore's SBUF window.
 * @nd: the device.
 * @core: NeuronCore index, < num_cores.
 *
 * Return: the window's first device address; windows are
 * sbuf_window_size bytes apart.
 */
u64 nrsim_sbuf_base(const struct nrsim_device *nd, u32 core)
{
	return NRSIM_SBUF_BASE + (u64)core * nd->arch->sbuf_window_size;
}

/* the SBUF windows end before the PSUM windows, which end before HBM */
static_assert(NRSIM_SBUF_BASE + NEURONSIM_MAX_CORES * SZ_32M <= NRSIM_PSUM_BASE);
static_assert(NRSIM_PSUM_BASE + NEURONSIM_MAX_CORES * SZ_16M <= NRSIM_HBM_BASE);

/**
 * nrsim_psum_base() - device address of a NeuronCore's PSUM window.
 * @nd: the device.
 * @core: NeuronCore index, < num_cores.
 *
 * The window is psum_size bytes: PSUM partition p at p * psum_banks *
 * KBIN_PSUM_BANK_SIZE (kbin_gen_psum_partitions() partitions).
 *
 * Return: the window's first device address; windows are psum_size
 * bytes apart.
 */
u64 nrsim_psum_base(const struct nrsim_device *nd, u32 core)
{
	return NRSIM_PSUM_BASE + (u64)core * nd->arch->psum_size;
}

/**
 * nrsim_core_channel() - the HBM channel a NeuronCore allocates from.
 * @nd: the device.
 * @core: NeuronCore index, < num_cores.
 *
 * Cores are spread evenly (kbin_gen_core_channel(): trn2: cores 0-1 use
 * channel 0, 2-3 channel 1, ...).
 *
 * Return: the channel index.
 */
u32 nrsim_core_channel(const struct nrsim_device *nd, u32 core)
{
	return kbin_gen_core_channel(nd->arch, core);
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
			 NEURONSIM_FEAT_DMA_RUN | NEURONSIM_FEAT_EXECUTE |
			 NEURONSIM_FEAT_TENSOR;
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
	info->psum_base = nrsim_psum_base(nd, 0);
	info->scratchpad_page_size = nrsim_scratchpad_page_size;
	info->scratchpad_max_pages = nrsim_scratchpad_max_pages;
	info->max_models_per_fd = nrsim_max_models_per_fd;
	info->max_plan_bytes = nrsim_max_plan_bytes;
	info->max_vars_per_subgraph = nrsim_max_vars_per_subgraph;
	info->max_tensors_per_fd = READ_ONCE(nrsim_max_tensors_per_fd);
	info->backing_limit = nrsim_backing_limit;
	info->max_loading_bytes = READ_ONCE(nrsim_max_loading_bytes);
}

/**
 * nrsim_ioctl_get_info() - NEURONSIM_IOC_GET_INFO: the device's geometry,
 *	its address map and the module's limits.
 * @nf: the caller's file.
 * @uarg: user pointer to struct neuronsim_info.
 * @usize: the caller's struct size (ioctl.c).
 *
 * Return: 0, or -EFAULT.
 */
long nrsim_ioctl_get_info(struct nrsim_file *nf, void __user *uarg,
			  size_t usize)
{
	struct neuronsim_info info;

	nrsim_fill_info(nf->nd, &info);
	return nrsim_copy_out(uarg, usize, &info, sizeof(info));
}
