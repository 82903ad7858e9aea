/* SPDX-License-Identifier: GPL-2.0 */
/*
 * neuronsim.h - structures shared by the files of the neuronsim module.
 *
 * One file per concern (DESIGN.md): main.c (module init/exit, parameters),
 * device.c (the simulated device and /dev/neuronsim), ioctl.c, debugfs.c.
 */
#ifndef _NEURONSIM_H
#define _NEURONSIM_H

#include <linux/debugfs.h>
#include <linux/miscdevice.h>
#include <linux/mutex.h>
#include <linux/types.h>

#include <linux/neuronsim.h>

#define NSIM_SBUF_WINDOW	0x2000000ULL		/* 32 MiB per NeuronCore */
#define NSIM_SBUF_BASE		0x100000000ULL		/* 4 GiB: core 0's window */
#define NSIM_HBM_STRIDE		0x1000000000ULL		/* 64 GiB between channels */
#define NSIM_HBM_BASE		NSIM_HBM_STRIDE		/* channel 0 */
#define NSIM_SBUF_PARTITIONS	128U

/**
 * struct nsim_arch - geometry of one device generation (FACTS.md section 8).
 * @name: "trn1", "trn2" or "trn3".
 * @gen: 2, 3 or 4.
 * @num_cores: NeuronCores per device.
 * @num_hbm_channels: HBM channels.
 * @hbm_channel_size: bytes per channel.
 * @sbuf_partition_size: SBUF bytes per partition (128 partitions per core).
 * @psum_size: PSUM bytes per core.
 */
struct nsim_arch {
	const char *name;
	u32 gen;
	u32 num_cores;
	u32 num_hbm_channels;
	u64 hbm_channel_size;
	u32 sbuf_partition_size;
	u64 psum_size;
};

/**
 * struct nsim_device - the one simulated device.
 * @arch: geometry selected by the arch= module parameter.
 * @misc: /dev/neuronsim.
 * @debugfs: /sys/kernel/debug/neuronsim/.
 */
struct nsim_device {
	const struct nsim_arch *arch;
	struct miscdevice misc;
	struct dentry *debugfs;
};

extern struct nsim_device nsim_dev;

/* module parameters (main.c) */
extern char *nsim_param_arch;
extern unsigned long nsim_max_plan_bytes;
extern unsigned int nsim_max_models_per_fd;
extern unsigned int nsim_max_vars_per_subgraph;
extern unsigned long nsim_backing_limit;
extern unsigned long nsim_scratchpad_page_size;
extern unsigned int nsim_scratchpad_max_pages;

const struct nsim_arch *nsim_arch_find(const char *name);
u64 nsim_hbm_base(const struct nsim_device *dev, u32 channel);
u64 nsim_sbuf_base(const struct nsim_device *dev, u32 core);

int nsim_device_init(struct nsim_device *dev);
void nsim_device_exit(struct nsim_device *dev);

long nsim_ioctl(struct file *file, unsigned int cmd, unsigned long arg);
void nsim_fill_info(const struct nsim_device *dev, struct neuronsim_info *info);

void nsim_debugfs_init(struct nsim_device *dev);
void nsim_debugfs_exit(struct nsim_device *dev);

#endif /* _NEURONSIM_H */
