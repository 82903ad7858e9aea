// SPDX-License-Identifier: GPL-2.0
/*
 * ioctl.c - the /dev/neuronsim ioctl dispatcher (uapi/linux/neuronsim.h).
 *
 * Structs are extensible by size: the size encoded in the command is the
 * caller's struct size.  Input is read with copy_struct_from_user() (a
 * larger struct must have a zero tail, else -E2BIG); output is written up
 * to the caller's size and a larger caller struct gets a zeroed tail.
 */
#include <linux/fs.h>
#include <linux/uaccess.h>

#include "neuronsim.h"

/* the command with its size field cleared, for matching any struct size */
#define NSIM_CMD(cmd)	((cmd) & ~(_IOC_SIZEMASK << _IOC_SIZESHIFT))

static int nsim_copy_out(void __user *uarg, size_t usize,
			 const void *kbuf, size_t ksize)
{
	size_t n = min(usize, ksize);

	if (copy_to_user(uarg, kbuf, n))
		return -EFAULT;
	if (usize > ksize && clear_user(uarg + ksize, usize - ksize))
		return -EFAULT;
	return 0;
}

static long nsim_ioctl_get_info(void __user *uarg, size_t usize)
{
	struct neuronsim_info info;

	nsim_fill_info(&nsim_dev, &info);
	return nsim_copy_out(uarg, usize, &info, sizeof(info));
}

/**
 * nsim_ioctl() - dispatch a /dev/neuronsim ioctl.
 * @file: the open device.
 * @cmd: a NEURONSIM_IOC_* command; the size field may differ from the
 *	kernel's struct size (see the file comment).
 * @arg: user pointer to the command's struct.
 *
 * Return: 0 or a negative errno as documented per command in
 * uapi/linux/neuronsim.h; -ENOTTY for an unknown command.
 */
long nsim_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	void __user *uarg = (void __user *)arg;
	size_t usize = _IOC_SIZE(cmd);

	if (_IOC_TYPE(cmd) != NEURONSIM_IOC_MAGIC)
		return -ENOTTY;

	switch (NSIM_CMD(cmd)) {
	case NSIM_CMD(NEURONSIM_IOC_GET_INFO):
		return nsim_ioctl_get_info(uarg, usize);
	default:
		return -ENOTTY;
	}
}
