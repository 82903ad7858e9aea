// SPDX-License-Identifier: GPL-2.0
/*
 * bus.c - the neuronsim bus and its driver: devices are created and
 * removed at run time, as netdevsim's are (Documentation/uapi.rst,
 * "Devices"):
 *
 *   echo "ID ARCH" > /sys/bus/neuronsim/new_device	device ID, generation ARCH
 *   echo ID > /sys/bus/neuronsim/del_device		remove device ID
 *
 * Both files are root only (0200).  Each device is the struct device
 * /sys/bus/neuronsim/devices/neuronsimID with the attribute "arch" (its
 * generation's name, world-readable) and the node /dev/neuronsimID.  The
 * arch= module parameter creates device 0.  Input is parsed strictly: an
 * ID is decimal digits only, below NRSIM_MAX_DEVICES (so one past 32 bits
 * never wraps to another device's).  Bad input is refused with -EINVAL
 * (not "ID ARCH", a bad ID, unknown ARCH), an ID in use with -EEXIST, an
 * unknown one with -ENOENT, and a device with open files with -EBUSY;
 * each with a line in the kernel log.
 *
 * new_device adds a struct device to the bus and the neuronsim driver
 * binds to it: its probe creates the device's features; del_device
 * unregisters it: the driver's remove tears them down (device.c).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ctype.h>
#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/string.h>

#include "compat.h"
#include "nrsim.h"

/* new_device and del_device, one at a time; module exit */
static DEFINE_MUTEX(nrsim_bus_mutex);
static bool nrsim_bus_enabled;	/* false before init is done, after exit */

/* the text written to a bus file, without its trailing newline */
static int nrsim_bus_input_len(const char *buf, size_t count)
{
	size_t n = strnlen(buf, count);

	if (n && buf[n - 1] == '\n')
		n--;
	return min_t(size_t, n, 64);
}

/* longest text a bus file takes: "ID ARCH" with a generous margin */
#define NRSIM_BUS_INPUT_MAX	63

/*
 * Cut what was written to bus file @file into @max words separated by
 * blanks (a trailing newline included) in @text: 0, or -EINVAL (and a
 * log line saying what @file takes, @usage and @example) when the input
 * is longer than NRSIM_BUS_INPUT_MAX, holds a NUL, or has another number
 * of words.
 */
static int nrsim_bus_words(const char *file, const char *usage,
			   const char *example, const char *buf, size_t count,
			  char text[NRSIM_BUS_INPUT_MAX + 1], char **words,
			  unsigned int max)
{
	unsigned int n = 0;
	char *t = text, *w;

	if (count > NRSIM_BUS_INPUT_MAX || strnlen(buf, count) != count)
		goto bad;
	memcpy(text, buf, count);
	text[count] = '\0';
	while ((w = strsep(&t, " \t\n"))) {
		if (!*w)
			continue;
		if (n == max)
			goto bad;
		words[n++] = w;
	}
	if (n == max)
		return 0;
bad:
	pr_err_ratelimited("%s: \"%.*s\" is not \"%s\"%s\n", file,
			   nrsim_bus_input_len(buf, count), buf, usage, example);
	return -EINVAL;
}

/*
 * A device ID: decimal digits only (no sign, no base prefix, nothing
 * past 32 bits that would wrap to another ID), below NRSIM_MAX_DEVICES.
 * 0, or -EINVAL with a log line naming @file and the word.
 */
static int nrsim_bus_id(const char *file, const char *word, u32 *id)
{
	unsigned int v;

	if (!isdigit(word[0]) || kstrtouint(word, 10, &v) ||
	    v >= NRSIM_MAX_DEVICES) {
		pr_err_ratelimited("%s: ID \"%s\" is not a decimal number below %u\n",
				   file, word, NRSIM_MAX_DEVICES);
		return -EINVAL;
	}
	*id = v;
	return 0;
}

static int nrsim_bus_new(u32 id, const struct kbin_gen *arch)
{
	struct nrsim_device *nd;

	nd = nrsim_device_create(id, arch);
	if (IS_ERR(nd))
		return PTR_ERR(nd);
	pr_info("neuronsim%u: %s device: %u NeuronCores, %u x %llu MiB HBM\n",
		id, arch->name, arch->num_cores, arch->num_hbm_channels,
		arch->hbm_channel_size >> 20);
	return 0;
}

static ssize_t new_device_store(NRSIM_BUS_CONST struct bus_type *bus,
				const char *buf, size_t count)
{
	char text[NRSIM_BUS_INPUT_MAX + 1], *w[2];
	const struct kbin_gen *arch;
	u32 id;
	int ret;

	ret = nrsim_bus_words("new_device", "ID ARCH", " (e.g. \"1 trn1\")", buf,
			      count, text, w, 2);
	if (ret)
		return ret;
	ret = nrsim_bus_id("new_device", w[0], &id);
	if (ret)
		return ret;
	arch = nrsim_arch_find(w[1]);
	if (!arch) {
		char names[KBIN_GEN_LIST_MAX];

		pr_err_ratelimited("new_device %u: unknown arch '%.15s' (use %s)\n",
				   id, w[1], kbin_gen_list(names, sizeof(names),
							   KBIN_GEN_LIST_NAMES));
		return -EINVAL;
	}
	mutex_lock(&nrsim_bus_mutex);
	ret = nrsim_bus_enabled ? nrsim_bus_new(id, arch) : -EBUSY;
	mutex_unlock(&nrsim_bus_mutex);
	if (ret == -EEXIST)
		pr_err_ratelimited("new_device %u: device %u exists\n", id, id);
	else if (ret)
		pr_err_ratelimited("new_device %u: %d\n", id, ret);
	return ret ? ret : count;
}
static BUS_ATTR_WO(new_device);

static ssize_t del_device_store(NRSIM_BUS_CONST struct bus_type *bus,
				const char *buf, size_t count)
{
	char text[NRSIM_BUS_INPUT_MAX + 1], *w[1];
	u32 id;
	int ret;

	ret = nrsim_bus_words("del_device", "ID", "", buf, count, text, w, 1);
	if (ret)
		return ret;
	ret = nrsim_bus_id("del_device", w[0], &id);
	if (ret)
		return ret;
	mutex_lock(&nrsim_bus_mutex);
	ret = nrsim_bus_enabled ? nrsim_device_remove(id) : -EBUSY;
	mutex_unlock(&nrsim_bus_mutex);
	if (ret == -ENOENT)
		pr_err_ratelimited("del_device %u: no such device\n", id);
	return ret ? ret : count;
}
static BUS_ATTR_WO(del_device);

static struct attribute *nrsim_bus_attrs[] = {
	&bus_attr_new_device.attr,
	&bus_attr_del_device.attr,
	NULL
};
ATTRIBUTE_GROUPS(nrsim_bus);

static ssize_t arch_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	const struct nrsim_device *nd = container_of(dev, struct nrsim_device,
						    dev);

	return sysfs_emit(buf, "%s\n", nd->arch->name);
}
static DEVICE_ATTR_RO(arch);

static struct attribute *nrsim_dev_attrs[] = {
	&dev_attr_arch.attr,
	NULL
};
ATTRIBUTE_GROUPS(nrsim_dev);

struct bus_type nrsim_bus_type = {
	.name = NEURONSIM_DEVICE_NAME,
	.bus_groups = nrsim_bus_groups,
	.dev_groups = nrsim_dev_groups,
};

/*
 * The driver of every device on the bus (no match function: it binds to
 * all), as netdevsim's: probe creates a device's features, remove tears
 * them down (device.c).  Probed synchronously, so new_device returns
 * the probe's error; no bind/unbind files, so a device is unbound only
 * by del_device, which refuses while files are open on it.
 */
static struct device_driver nrsim_driver = {
	.name = NEURONSIM_DEVICE_NAME,
	.bus = &nrsim_bus_type,
	.owner = THIS_MODULE,
	.probe = nrsim_device_probe,
	.remove = nrsim_device_unprobe,
	.suppress_bind_attrs = true,
	.probe_type = PROBE_FORCE_SYNCHRONOUS,
};

/**
 * nrsim_bus_init() - register the neuronsim bus and its driver, and
 *	create device 0.
 * @arch0: the generation of device 0 (the arch= module parameter).
 *
 * Return: 0, or the error of bus_register(), driver_register() or of
 * creating the device.
 */
int nrsim_bus_init(const struct kbin_gen *arch0)
{
	int ret;

	ret = bus_register(&nrsim_bus_type);
	if (ret)
		return ret;
	ret = driver_register(&nrsim_driver);
	if (ret)
		goto err_bus;
	mutex_lock(&nrsim_bus_mutex);
	ret = nrsim_bus_new(0, arch0);
	if (!ret)
		nrsim_bus_enabled = true;
	mutex_unlock(&nrsim_bus_mutex);
	if (ret)
		goto err_driver;
	return 0;

err_driver:
	driver_unregister(&nrsim_driver);
err_bus:
	bus_unregister(&nrsim_bus_type);
	return ret;
}

/**
 * nrsim_bus_exit() - remove every device, unregister the driver and the
 *	bus.
 *
 * Context: module exit: no file is open on any device.
 */
void nrsim_bus_exit(void)
{
	unsigned long index = 0;
	struct nrsim_device *nd;

	mutex_lock(&nrsim_bus_mutex);
	nrsim_bus_enabled = false;
	for (;;) {
		nrsim_devices_lock();
		nd = nrsim_device_next(&index);
		nrsim_devices_unlock();
		if (!nd)
			break;
		WARN_ON(nrsim_device_remove(index));
		index++;
	}
	mutex_unlock(&nrsim_bus_mutex);
	driver_unregister(&nrsim_driver);
	bus_unregister(&nrsim_bus_type);
}
