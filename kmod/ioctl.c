// SPDX-License-Identifier: GPL-2.0
/*
 * ioctl.c - the dispatcher of a device node's ioctls
 * (uapi/linux/neuronsim.h): a table from the command's number to its
 * handler, which lives beside its feature (Documentation/module.rst):
 * GET_INFO addrmap.c; LOAD, UNLOAD and MODEL_INFO model.c; RESOLVE and
 * RESOLVE_BATCH resolve.c; READ_VAR and WRITE_VAR stage.c; DMA_INFO
 * relocate.c; RUN and WAIT engine.c; EXECUTE and EXEC_WAIT exec.c;
 * TENSOR_ALLOC, TENSOR_FREE, TENSOR_IO and TENSOR_COPY tensor.c.
 *
 * Structs are extensible by size: the size encoded in the command is the
 * caller's struct size, which the dispatcher hands to the handler.  Input
 * is read with copy_struct_from_user() (a larger struct must have a zero
 * tail, else -E2BIG); output is written up to the caller's size and a
 * larger caller struct gets a zeroed tail (nrsim_copy_out()).
 */
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/nospec.h>

#include "nrsim.h"

/*
 * The ABI structs have fixed sizes, multiples of 8 bytes, with no implicit
 * padding (botching-up-ioctls.rst); pin them so a change is deliberate.
 */
static_assert(sizeof(struct neuronsim_info) == 184);
static_assert(sizeof(struct neuronsim_load) == 64);
static_assert(sizeof(struct neuronsim_unload) == 8);
static_assert(sizeof(struct neuronsim_resolve) == 40);
static_assert(sizeof(struct neuronsim_resolve_entry) == 40);
static_assert(sizeof(struct neuronsim_resolve_batch) == 32);
static_assert(sizeof(struct neuronsim_var_io) == 40);
static_assert(sizeof(struct neuronsim_model_info) == 64);
static_assert(sizeof(struct neuronsim_dma_info) == 64);
static_assert(sizeof(struct neuronsim_dma_queue_info) == 128);
static_assert(sizeof(struct neuronsim_dma_desc_info) == 48);
static_assert(sizeof(struct neuronsim_tensor_alloc) == 104);
static_assert(sizeof(struct neuronsim_tensor_free) == 8);
static_assert(sizeof(struct neuronsim_tensor_io) == 40);
static_assert(sizeof(struct neuronsim_tensor_end) == 24);
static_assert(sizeof(struct neuronsim_tensor_copy) == 56);
static_assert(sizeof(struct neuronsim_tensor_copy_batch) == 24);

/* the command with its size field cleared, for matching any struct size */
#define NRSIM_CMD(cmd)	((cmd) & ~(_IOC_SIZEMASK << _IOC_SIZESHIFT))

/**
 * struct nrsim_ioctl_desc - one command of the table.
 * @cmd: the NEURONSIM_IOC_* command (its size field is not compared).
 * @fn: its handler: the caller's file, the user pointer, the caller's
 *	struct size.
 */
struct nrsim_ioctl_desc {
	unsigned int cmd;
	long (*fn)(struct nrsim_file *nf, void __user *uarg, size_t usize);
};

#define NRSIM_IOCTL(ioc, handler)	{ .cmd = (ioc), .fn = (handler) }

/*
 * Indexed by the command's number: entry N is command N (a command out
 * of place would never match its number, and be -ENOTTY).
 */
static const struct nrsim_ioctl_desc nrsim_ioctls[] = {
	NRSIM_IOCTL(NEURONSIM_IOC_GET_INFO, nrsim_ioctl_get_info),
	NRSIM_IOCTL(NEURONSIM_IOC_LOAD, nrsim_ioctl_load),
	NRSIM_IOCTL(NEURONSIM_IOC_UNLOAD, nrsim_ioctl_unload),
	NRSIM_IOCTL(NEURONSIM_IOC_RESOLVE, nrsim_ioctl_resolve),
	NRSIM_IOCTL(NEURONSIM_IOC_RESOLVE_BATCH, nrsim_ioctl_resolve_batch),
	NRSIM_IOCTL(NEURONSIM_IOC_READ_VAR, nrsim_ioctl_read_var),
	NRSIM_IOCTL(NEURONSIM_IOC_WRITE_VAR, nrsim_ioctl_write_var),
	NRSIM_IOCTL(NEURONSIM_IOC_MODEL_INFO, nrsim_ioctl_model_info),
	NRSIM_IOCTL(NEURONSIM_IOC_DMA_INFO, nrsim_ioctl_dma_info),
	NRSIM_IOCTL(NEURONSIM_IOC_RUN, nrsim_ioctl_run),
	NRSIM_IOCTL(NEURONSIM_IOC_WAIT, nrsim_ioctl_wait),
	NRSIM_IOCTL(NEURONSIM_IOC_EXECUTE, nrsim_ioctl_execute),
	NRSIM_IOCTL(NEURONSIM_IOC_EXEC_WAIT, nrsim_ioctl_exec_wait),
	NRSIM_IOCTL(NEURONSIM_IOC_TENSOR_ALLOC, nrsim_ioctl_tensor_alloc),
	NRSIM_IOCTL(NEURONSIM_IOC_TENSOR_FREE, nrsim_ioctl_tensor_free),
	NRSIM_IOCTL(NEURONSIM_IOC_TENSOR_IO, nrsim_ioctl_tensor_io),
	NRSIM_IOCTL(NEURONSIM_IOC_TENSOR_COPY, nrsim_ioctl_tensor_copy),
};

/**
 * nrsim_ioctl() - dispatch a /dev/neuronsim ioctl.
 * @file: the open device.
 * @cmd: a NEURONSIM_IOC_* command; the size field may differ from the
 *	kernel's struct size (see the file comment).
 * @arg: user pointer to the command's struct.
 *
 * Return: 0 or a negative errno as documented per command in
 * uapi/linux/neuronsim.h; -ENOTTY for an unknown command (another magic,
 * number or direction).
 */
long nrsim_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	const struct nrsim_ioctl_desc *d;
	unsigned int nr = _IOC_NR(cmd);

	if (_IOC_TYPE(cmd) != NEURONSIM_IOC_MAGIC ||
	    nr >= ARRAY_SIZE(nrsim_ioctls))
		return -ENOTTY;
	d = &nrsim_ioctls[array_index_nospec(nr, ARRAY_SIZE(nrsim_ioctls))];
	if (!d->fn || NRSIM_CMD(cmd) != NRSIM_CMD(d->cmd))
		return -ENOTTY;
	return d->fn(file->private_data, (void __user *)arg, _IOC_SIZE(cmd));
}
