// SPDX-License-Identifier: GPL-2.0
/*
 * addrmap.c - a device's address map: where each HBM channel and each
 * NeuronCore's SBUF window sits in device address space, and which HBM
 * channel a NeuronCore allocates from.  Leaves: they read the device's
 * generation and call nothing else of the module.
 *
 * Device address map (reported by NEURONSIM_IOC_GET_INFO; no device
 * address 0 is ever handed out):
 *
 *   0x1_0000_0000 + N * window     SBUF window of NeuronCore N
 *   (c + 1) * 64 GiB               HBM channel c, hbm_channel_size bytes
 *
 * The window size, core and channel counts and every other number of a
 * generation come from its row in the generation table (kbin_gen.h,
 * Documentation/hardware.rst).
 */
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

/**
 * nrsim_core_channel() - the HBM channel a NeuronCore allocates from.
 * @nd: the device.
 * @core: NeuronCore index, < num_cores.
 *
 * Cores are spread evenly: core * channels / cores (trn2: cores 0-1 use
 * channel 0, 2-3 channel 1, ...).
 *
 * Return: the channel index.
 */
u32 nrsim_core_channel(const struct nrsim_device *nd, u32 core)
{
	return core * nd->arch->num_hbm_channels / nd->arch->num_cores;
}
