// SPDX-License-Identifier: GPL-2.0
/*
 * device.c - a simulated device: its geometry (the generation), its
 * device node, and its lifecycle, as netdevsim's: creating it adds a
 * struct device to the neuronsim bus, where the neuronsim driver (bus.c)
 * binds to it and its probe creates the device's features (each
 * feature's init, then what publishes it); removing it unregisters the
 * struct device, and the driver's remove tears the features down.  The
 * device address map is addrmap.c's, the module's list of devices
 * devlist.c's.
 *
 * Every piece of a device's state is in its struct nrsim_device; the
 * module keeps only the list of devices (devlist.c, which the bus, the
 * alias and netlink read).  Device N is a struct device
 * "neuronsimN" on the neuronsim bus (bus.c) with the node /dev/neuronsimN
 * (/dev/neuronN with neuron_compat, nrsim_node_prefix());
 * /dev/neuronsim is an alias whose open binds to device 0.
 *
 * Each open file gets a struct nrsim_file and counts against its device:
 * a device with open files cannot be removed (del_device says -EBUSY),
 * so a file's device outlives the file.  The fops .owner pins the module
 * while any file is open, and models live only as long as their file, so
 * rmmod is refused while models are loaded.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/device.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "nrsim.h"

/**
 * nrsim_arch_find() - the generation the arch= module parameter names.
 * @name: a canonical generation name of a generation the module
 *	simulates ("trn1", "trn2" or "trn3"); a trailing newline is ignored.
 *
 * Return: the generation table's row, or NULL for any other name.
 */
const struct kbin_gen *nrsim_arch_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < kbin_num_gens; i++)
		if (kbin_gens[i].loadable && sysfs_streq(name, kbin_gens[i].name))
			return &kbin_gens[i];
	return NULL;
}

/* count one more open file of @nd; -ENODEV once it is being removed */
static int nrsim_device_get_file(struct nrsim_device *nd)
{
	int ret = 0;

	spin_lock(&nd->open.lock);
	if (nd->open.removing)
		ret = -ENODEV;
	else
		nd->open.nfiles++;
	spin_unlock(&nd->open.lock);
	return ret;
}

static void nrsim_device_put_file(struct nrsim_device *nd)
{
	spin_lock(&nd->open.lock);
	nd->open.nfiles--;
	spin_unlock(&nd->open.lock);
}

/**
 * nrsim_node_prefix() - the name of a device's node and sysfs class device
 *	less its index: "neuronsim", or the Neuron driver's "neuron" with
 *	neuron_compat (Documentation/module.rst).
 *
 * Return: the prefix.
 */
const char *nrsim_node_prefix(void)
{
	return nrsim_param_compat ? "neuron" : NEURONSIM_DEVICE_NAME;
}

static struct miscdevice nrsim_alias;

/*
 * Open a device node: /dev/neuronsimN is its device's misc device
 * (misc_open() puts it in private_data); the alias /dev/neuronsim binds
 * to device 0 when it exists.
 */
static int nrsim_open(struct inode *inode, struct file *file)
{
	struct miscdevice *misc = file->private_data;
	struct nrsim_device *nd;
	struct nrsim_file *nf;
	int ret;

	if (misc == &nrsim_alias) {
		nrsim_devices_lock();
		nd = nrsim_device_find(0);
		ret = nd ? nrsim_device_get_file(nd) : -ENODEV;
		nrsim_devices_unlock();
	} else {
		nd = container_of(misc, struct nrsim_device, misc);
		ret = nrsim_device_get_file(nd);
	}
	if (ret)
		return ret;
	nf = nrsim_file_new(nd);
	if (!nf) {
		nrsim_device_put_file(nd);
		return -ENOMEM;
	}
	file->private_data = nf;
	return 0;
}

/* Closing the file unloads its models (Documentation/uapi.rst). */
static int nrsim_release(struct inode *inode, struct file *file)
{
	struct nrsim_file *nf = file->private_data;
	struct nrsim_device *nd = nf->nd;

	nrsim_file_release(nf);
	nrsim_device_put_file(nd);
	return 0;
}

/* EPOLLIN: a DMA queue run of the file finished, not waited for yet */
static __poll_t nrsim_poll(struct file *file, struct poll_table_struct *wait)
{
	return nrsim_engine_poll(file->private_data, file, wait);
}

static const struct file_operations nrsim_fops = {
	.owner = THIS_MODULE,
	.open = nrsim_open,
	.release = nrsim_release,
	.poll = nrsim_poll,
	.unlocked_ioctl = nrsim_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.llseek = noop_llseek,
};

static struct miscdevice nrsim_alias = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = NEURONSIM_DEVICE_NAME,
	.fops = &nrsim_fops,
	.mode = 0600,
};

/**
 * nrsim_alias_register() - create /dev/neuronsim, the alias of device 0
 *	(mode 0600; opening it while there is no device 0 gives -ENODEV).
 *
 * Return: 0, or the error of misc_register().
 */
int nrsim_alias_register(void)
{
	return misc_register(&nrsim_alias);
}

/**
 * nrsim_alias_unregister() - remove /dev/neuronsim.
 */
void nrsim_alias_unregister(void)
{
	misc_deregister(&nrsim_alias);
}

static void nrsim_device_release(struct device *dev)
{
	kfree(container_of(dev, struct nrsim_device, dev));
}

/**
 * nrsim_device_probe() - the neuronsim driver's probe: create the features
 *	of a device nrsim_device_create() added to the bus - each feature's
 *	state, then what makes it visible: its debugfs directory, its sysfs
 *	tree (sysfs.c), node /dev/neuronsimN (mode 0600) - and last its entry
 *	in the list (the alias and netlink find it from then on).
 * @dev: the struct device of a struct nrsim_device.
 *
 * Every file of the device reads state that exists before the file is
 * published, and nrsim_device_unprobe() unpublishes the files before it
 * tears that state down (Documentation/uapi.rst, "Devices").  A device
 * is probed once, from nrsim_device_create(): a second probe is refused.
 *
 * Context: the device lock held (the driver core's); under the bus lock
 * (bus.c) when new_device probes it, not when root writes the bus's
 * drivers_probe file (the probe then refuses a device already probed).
 * Return: 0, -ENODEV (probed before), or the error of a feature's init or
 * of misc_register(); nrsim_device_create() returns it.
 */
int nrsim_device_probe(struct device *dev)
{
	struct nrsim_device *nd = container_of(dev, struct nrsim_device, dev);
	int ret;

	if (nd->probed)
		return -ENODEV;
	nd->probed = true;
	/* the features' state, each after what it uses */
	nrsim_mem_init(&nd->mem);
	nrsim_cores_init(nd);
	nrsim_models_init(nd);
	nrsim_fault_init(nd);
	ret = nrsim_hbm_init(nd);
	if (ret)
		goto err_models;
	ret = nrsim_engine_init(nd);
	if (ret)
		goto err_hbm;
	nrsim_exec_init(nd);
	nrsim_tensors_dev_init(nd);
	/* published from here on, each after what it reads */
	nrsim_debugfs_init(nd);
	ret = nrsim_sysfs_add(nd);
	if (ret)
		goto err_debugfs;
	ret = misc_register(&nd->misc);
	if (ret)
		goto err_sysfs;
	nrsim_devices_publish(nd);
	nd->probe_ret = 0;
	return 0;

err_sysfs:
	nrsim_sysfs_del(nd);
err_debugfs:
	nrsim_debugfs_exit(nd);
	nrsim_exec_exit(nd);
	nrsim_engine_exit(nd);
err_hbm:
	nrsim_hbm_exit(nd);
err_models:
	nrsim_models_exit(nd);
	nrsim_cores_exit(nd);
	nrsim_mem_exit(&nd->mem);
	nd->probe_ret = ret;
	return ret;
}

/**
 * nrsim_device_unprobe() - the neuronsim driver's remove: tear down what
 *	nrsim_device_probe() created, in the reverse order: its node, sysfs
 *	tree and debugfs directory - each removal waits for the readers in
 *	it - and only then the DMA engines, HBM pools and backing memory
 *	they read.
 * @dev: the struct device of a struct nrsim_device.
 *
 * Context: from device_unregister() in nrsim_device_remove(), which took
 * the device out of the list and checked that no file is open on it;
 * the device lock held (the driver core's).
 * Return: 0.
 */
int nrsim_device_unprobe(struct device *dev)
{
	struct nrsim_device *nd = container_of(dev, struct nrsim_device, dev);

	/* unpublished first: no reader is left when the state goes */
	misc_deregister(&nd->misc);
	nrsim_sysfs_del(nd);
	nrsim_debugfs_exit(nd);
	nrsim_exec_exit(nd);
	nrsim_engine_exit(nd);
	nrsim_hbm_exit(nd);
	nrsim_models_exit(nd);
	nrsim_cores_exit(nd);
	nrsim_mem_exit(&nd->mem);
	return 0;
}

/**
 * nrsim_device_create() - create device @index: the struct device
 *	"neuronsimN" on the neuronsim bus, whose driver's probe
 *	(nrsim_device_probe()) creates its features and publishes it.
 * @index: device index, < NRSIM_MAX_DEVICES.
 * @arch: its generation (a loadable row of the generation table).
 *
 * Context: the bus lock (bus.c) held: devices are created and removed
 * one at a time.
 * Return: the device, or an ERR_PTR: -EEXIST @index in use, -ENOMEM, the
 * error of device_add() or of the probe, or -ENODEV when the driver did
 * not bind (the bus's drivers_autoprobe is 0).
 */
struct nrsim_device *nrsim_device_create(u32 index, const struct kbin_gen *arch)
{
	struct nrsim_device *nd;
	int ret;

	nrsim_devices_lock();
	nd = nrsim_device_find(index);
	nrsim_devices_unlock();
	if (nd)
		return ERR_PTR(-EEXIST);

	nd = kzalloc(sizeof(*nd), GFP_KERNEL);
	if (!nd)
		return ERR_PTR(-ENOMEM);
	nd->index = index;
	nd->arch = arch;
	nd->probe_ret = -ENODEV;
	snprintf(nd->name, sizeof(nd->name), NEURONSIM_DEVICE_NAME "%u", index);
	snprintf(nd->node, sizeof(nd->node), "%s%u", nrsim_node_prefix(), index);
	spin_lock_init(&nd->open.lock);
	device_initialize(&nd->dev);
	nd->dev.bus = &nrsim_bus_type;
	nd->dev.release = nrsim_device_release;
	nd->misc.minor = MISC_DYNAMIC_MINOR;
	nd->misc.name = nd->node;
	nd->misc.fops = &nrsim_fops;
	nd->misc.parent = &nd->dev;
	nd->misc.mode = 0600;

	ret = dev_set_name(&nd->dev, "%s", nd->name);
	if (ret)
		goto err_put;
	ret = nrsim_devices_reserve(index);
	if (ret)
		goto err_put;
	/* the driver binds in it: nrsim_device_probe() */
	ret = device_add(&nd->dev);
	if (ret)
		goto err_index;
	/* no probe after this one (drivers_probe): the device is settled */
	device_lock(&nd->dev);
	nd->probed = true;
	ret = nd->probe_ret;
	device_unlock(&nd->dev);
	if (ret)
		goto err_device;
	return nd;

err_device:
	device_del(&nd->dev);
err_index:
	nrsim_devices_erase(index);
err_put:
	put_device(&nd->dev);
	return ERR_PTR(ret);
}

/**
 * nrsim_device_remove() - remove device @index unless files are open on
 *	it: out of the list (the alias and netlink no longer find it), then
 *	device_unregister(): the driver's remove (nrsim_device_unprobe())
 *	tears its features down, and the struct device goes with its last
 *	reference.
 * @index: device index.
 *
 * Context: the bus lock (bus.c) held.
 * Return: 0; -ENOENT no device @index; -EBUSY files are open on it (it
 * may hold models), with a message in the kernel log.
 */
int nrsim_device_remove(u32 index)
{
	struct nrsim_device *nd;
	u32 nfiles;

	nrsim_devices_lock();
	nd = nrsim_device_find(index);
	if (!nd) {
		nrsim_devices_unlock();
		return -ENOENT;
	}
	spin_lock(&nd->open.lock);
	nfiles = nd->open.nfiles;
	if (!nfiles)
		nd->open.removing = true;
	spin_unlock(&nd->open.lock);
	if (nfiles) {
		nrsim_devices_unlock();
		pr_err_ratelimited("del_device %u: %u open files, %lld models loaded: close them first\n",
				   index, nfiles,
				   atomic64_read(&nd->stats.models));
		return -EBUSY;
	}
	nrsim_devices_erase(index);
	nrsim_devices_unlock();
	device_unregister(&nd->dev);
	return 0;
}
