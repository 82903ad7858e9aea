// SPDX-License-Identifier: GPL-2.0
/*
 * debugfs.c - /sys/kernel/debug/neuronsim/ (root only).
 *
 *   device	arch and device address map
 */
#include <linux/debugfs.h>
#include <linux/seq_file.h>

#include "neuronsim.h"

static int nsim_device_show(struct seq_file *m, void *unused)
{
	const struct nsim_device *dev = m->private;
	const struct nsim_arch *a = dev->arch;
	u32 i;

	seq_printf(m, "arch\t%s\ngen\t%u\ncores\t%u\n", a->name, a->gen,
		   a->num_cores);
	seq_printf(m, "sbuf\t%u partitions x %u bytes per core, window %llu bytes\n",
		   NSIM_SBUF_PARTITIONS, a->sbuf_partition_size, NSIM_SBUF_WINDOW);
	for (i = 0; i < a->num_cores; i++)
		seq_printf(m, "sbuf%u\t0x%llx-0x%llx\n", i, nsim_sbuf_base(dev, i),
			   nsim_sbuf_base(dev, i) + NSIM_SBUF_WINDOW - 1);
	for (i = 0; i < a->num_hbm_channels; i++)
		seq_printf(m, "hbm%u\t0x%llx-0x%llx\n", i, nsim_hbm_base(dev, i),
			   nsim_hbm_base(dev, i) + a->hbm_channel_size - 1);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(nsim_device);

/**
 * nsim_debugfs_init() - create /sys/kernel/debug/neuronsim/.
 * @dev: the device.
 *
 * debugfs failures are not fatal (debugfs may be disabled); the module
 * works without it.
 */
void nsim_debugfs_init(struct nsim_device *dev)
{
	dev->debugfs = debugfs_create_dir("neuronsim", NULL);
	debugfs_create_file("device", 0400, dev->debugfs, dev, &nsim_device_fops);
}

/**
 * nsim_debugfs_exit() - remove /sys/kernel/debug/neuronsim/ and all below.
 * @dev: the device.
 */
void nsim_debugfs_exit(struct nsim_device *dev)
{
	debugfs_remove_recursive(dev->debugfs);
	dev->debugfs = NULL;
}
