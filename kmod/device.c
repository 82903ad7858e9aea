// SPDX-License-Identifier: GPL-2.0
/*
 * device.c - the simulated device: geometry, address map, /dev/neuronsim.
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
 *
 * Each open file gets a struct nsim_file; the fops .owner pins the module
 * while any file is open, and models live only as long as their file, so
 * rmmod is refused while models are loaded.
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/string.h>

#include "neuronsim.h"

/**
 * nsim_arch_find() - the generation the arch= module parameter names.
 * @name: a canonical generation name of a generation the module
 *	simulates ("trn1", "trn2" or "trn3"); a trailing newline is ignored.
 *
 * Return: the generation table's row, or NULL for any other name.
 */
const struct kbin_gen *nsim_arch_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < kbin_num_gens; i++)
		if (kbin_gens[i].loadable && sysfs_streq(name, kbin_gens[i].name))
			return &kbin_gens[i];
	return NULL;
}

/**
 * nsim_hbm_base() - device address of an HBM channel.
 * @dev: the device.
 * @channel: channel index, < num_hbm_channels.
 *
 * Return: the channel's first device address (never 0).
 */
u64 nsim_hbm_base(const struct nsim_device *dev, u32 channel)
{
	return NSIM_HBM_BASE + (u64)channel * NSIM_HBM_STRIDE;
}

/**
 * nsim_sbuf_base() - device address of a NeuronCore's SBUF window.
 * @dev: the device.
 * @core: NeuronCore index, < num_cores.
 *
 * Return: the window's first device address; windows are
 * sbuf_window_size bytes apart.
 */
u64 nsim_sbuf_base(const struct nsim_device *dev, u32 core)
{
	return NSIM_SBUF_BASE + (u64)core * dev->arch->sbuf_window_size;
}

/**
 * nsim_fill_info() - describe the device for NEURONSIM_IOC_GET_INFO.
 * @dev: the device.
 * @info: filled completely; reserved fields zero.
 */
void nsim_fill_info(const struct nsim_device *dev, struct neuronsim_info *info)
{
	const struct kbin_gen *a = dev->arch;
	u32 c;

	memset(info, 0, sizeof(*info));
	info->abi_version = NEURONSIM_ABI_VERSION;
	info->features = NEURONSIM_FEAT_RESOLVE_BATCH | NEURONSIM_FEAT_VAR_IO |
			 NEURONSIM_FEAT_NETLINK;
	info->arch_gen = a->gen;
	strscpy(info->arch_name, a->name, sizeof(info->arch_name));
	info->num_cores = a->num_cores;
	info->num_hbm_channels = a->num_hbm_channels;
	info->hbm_channel_size = a->hbm_channel_size;
	for (c = 0; c < a->num_hbm_channels; c++)
		info->hbm_base[c] = nsim_hbm_base(dev, c);
	info->sbuf_base = nsim_sbuf_base(dev, 0);
	info->sbuf_window_size = a->sbuf_window_size;
	info->sbuf_partitions = a->sbuf_partitions;
	info->sbuf_partition_size = a->sbuf_partition_size;
	info->psum_size = a->psum_size;
	info->scratchpad_page_size = nsim_scratchpad_page_size;
	info->scratchpad_max_pages = nsim_scratchpad_max_pages;
	info->max_models_per_fd = nsim_max_models_per_fd;
	info->max_plan_bytes = nsim_max_plan_bytes;
	info->max_vars_per_subgraph = nsim_max_vars_per_subgraph;
	info->backing_limit = nsim_backing_limit;
}

/**
 * nsim_core_channel() - the HBM channel a NeuronCore allocates from.
 * @dev: the device.
 * @core: NeuronCore index, < num_cores.
 *
 * Cores are spread evenly: core * channels / cores (trn2: cores 0-1 use
 * channel 0, 2-3 channel 1, ...).
 *
 * Return: the channel index.
 */
u32 nsim_core_channel(const struct nsim_device *dev, u32 core)
{
	return core * dev->arch->num_hbm_channels / dev->arch->num_cores;
}

/**
 * nsim_fault_hit() - count one operation against a debugfs fault knob
 *	(netdevsim style: the knob holds N; the Nth operation from when it
 *	was set fails, and the knob is 0 again).
 * @knob: the knob.
 *
 * Return: true when this operation must fail.
 */
bool nsim_fault_hit(atomic_t *knob)
{
	int v = atomic_read(knob);

	while (v > 0) {
		if (atomic_try_cmpxchg(knob, &v, v - 1))
			return v == 1;
	}
	return false;
}

static int nsim_open(struct inode *inode, struct file *file)
{
	struct nsim_file *nf = nsim_file_new();

	if (!nf)
		return -ENOMEM;
	file->private_data = nf;
	return 0;
}

/* Closing the file unloads its models (Documentation/uapi.rst). */
static int nsim_release(struct inode *inode, struct file *file)
{
	nsim_file_release(file->private_data);
	return 0;
}

static const struct file_operations nsim_fops = {
	.owner = THIS_MODULE,
	.open = nsim_open,
	.release = nsim_release,
	.unlocked_ioctl = nsim_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.llseek = noop_llseek,
};

/**
 * nsim_device_init() - register /dev/neuronsim (mode 0600).
 * @dev: the device, with @dev->arch set.
 *
 * Return: 0, or the misc_register() error.
 */
int nsim_device_init(struct nsim_device *dev)
{
	dev->misc.minor = MISC_DYNAMIC_MINOR;
	dev->misc.name = NEURONSIM_DEVICE_NAME;
	dev->misc.fops = &nsim_fops;
	dev->misc.mode = 0600;
	return misc_register(&dev->misc);
}

/**
 * nsim_device_exit() - unregister /dev/neuronsim.
 * @dev: the device.
 */
void nsim_device_exit(struct nsim_device *dev)
{
	misc_deregister(&dev->misc);
}
