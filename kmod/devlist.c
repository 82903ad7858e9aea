// SPDX-License-Identifier: GPL-2.0
/*
 * devlist.c - the module's list of devices: an xarray by device index
 * under a mutex.  A leaf: the device lifecycle (device.c) adds and
 * removes entries, and the bus, the /dev/neuronsim alias and netlink find
 * devices here, not in device.c (Documentation/module.rst).
 *
 * An entry is reserved (NULL, which lookups skip) before the device is
 * built and published once every file of it is, so a device found here
 * is complete.  Creating and removing devices is serialized by the bus
 * lock (bus.c) besides: the list's mutex is not held across
 * misc_register() and misc_deregister(), as the alias's open runs under
 * the misc devices' lock and takes the list's; nor across
 * device_unregister(), which takes the device lock around the driver's
 * remove.  The order of the locks is in Documentation/module.rst, "The
 * list of devices and its locks".
 */
#include <linux/lockdep.h>
#include <linux/mutex.h>
#include <linux/xarray.h>

#include "nrsim.h"

static DEFINE_XARRAY(nrsim_devices);
static DEFINE_MUTEX(nrsim_devices_mutex);	/* nrsim_devices */

/**
 * nrsim_devices_lock() - lock the list of devices: no device is added or
 *	removed until nrsim_devices_unlock(), so a device found meanwhile
 *	stays valid.
 */
void nrsim_devices_lock(void)
{
	mutex_lock(&nrsim_devices_mutex);
}

/**
 * nrsim_devices_unlock() - unlock the list of devices.
 */
void nrsim_devices_unlock(void)
{
	mutex_unlock(&nrsim_devices_mutex);
}

/**
 * nrsim_device_next() - the device with the lowest index >= *@index.
 * @index: in: where to start; out: the device's index.
 *
 * Context: nrsim_devices_lock() held.
 * Return: the device, or NULL when there is none.
 */
struct nrsim_device *nrsim_device_next(unsigned long *index)
{
	lockdep_assert_held(&nrsim_devices_mutex);
	return xa_find(&nrsim_devices, index, ULONG_MAX, XA_PRESENT);
}

/**
 * nrsim_device_find() - the device of an index.
 * @index: device index.
 *
 * Context: nrsim_devices_lock() held.
 * Return: the device, or NULL.
 */
struct nrsim_device *nrsim_device_find(u32 index)
{
	lockdep_assert_held(&nrsim_devices_mutex);
	return xa_load(&nrsim_devices, index);
}

/**
 * nrsim_devices_reserve() - take index @index for a device being created;
 *	lookups do not find it until nrsim_devices_publish().
 * @index: device index.
 *
 * Return: 0, -EEXIST @index in use, or -ENOMEM.
 */
int nrsim_devices_reserve(u32 index)
{
	int ret = xa_insert(&nrsim_devices, index, NULL, GFP_KERNEL);

	return ret == -EBUSY ? -EEXIST : ret;
}

/**
 * nrsim_devices_publish() - make a completely created device findable
 *	under the index it reserved.
 * @nd: the device.
 */
void nrsim_devices_publish(struct nrsim_device *nd)
{
	nrsim_devices_lock();
	xa_store(&nrsim_devices, nd->index, nd, GFP_KERNEL);
	nrsim_devices_unlock();
}

/**
 * nrsim_devices_erase() - free index @index, reserved or published; from
 *	now on lookups do not find its device.
 * @index: device index.
 *
 * Context: the list locked (nrsim_devices_lock()) when @index was
 * published; a reserved index (never published) may be erased without it.
 */
void nrsim_devices_erase(u32 index)
{
	xa_erase(&nrsim_devices, index);
}
