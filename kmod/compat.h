/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compat.h - the module's only kernel version checks (Documentation/
 * module.rst, "Kernel versions").  The module builds against Debian's
 * 6.1 and 6.12 headers, and against every release between them; each
 * check below names the release where the kernel's API changed and what
 * changed.  The rest of the module calls the nrsim_ names here and never
 * tests LINUX_VERSION_CODE itself.
 */
#ifndef _NEURONSIM_COMPAT_H
#define _NEURONSIM_COMPAT_H

#include <linux/device.h>
#include <linux/version.h>
#include <net/genetlink.h>

/*
 * 6.4: class_create() lost its owner argument (a class no longer pins
 * the module that made it: the module's exit unregisters the class).
 */
#if KERNEL_VERSION(6, 4, 0) <= LINUX_VERSION_CODE
#define nrsim_class_create(name) class_create(name)
#else
#define nrsim_class_create(name) class_create(THIS_MODULE, name)
#endif

/*
 * 6.4: a bus attribute's show() and store() take a const struct
 * bus_type * (the driver core made struct bus_type constant).
 * NRSIM_BUS_CONST is the qualifier of their first argument.
 */
#if KERNEL_VERSION(6, 4, 0) <= LINUX_VERSION_CODE
#define NRSIM_BUS_CONST const
#else
#define NRSIM_BUS_CONST
#endif

/**
 * nrsim_dump_attrs() - the parsed attributes of a generic netlink dump's
 * request, in a dump's start(), dumpit() or done().
 * @cb: the dump's callback state.
 *
 * 6.6: struct genl_dumpit_info keeps them in a struct genl_info (its
 * attrs member), read with genl_info_dump(); before, they were the
 * dumpit info's own attrs member.
 *
 * Return: the array, indexed by attribute type, NULL where the request
 * had no such attribute.
 */
static inline struct nlattr **nrsim_dump_attrs(struct netlink_callback *cb)
{
#if KERNEL_VERSION(6, 6, 0) <= LINUX_VERSION_CODE
	return genl_info_dump(cb)->attrs;
#else
	return genl_dumpit_info(cb)->attrs;
#endif
}

/*
 * 6.7 (and the 6.1.y and 6.6.y stable releases it was backported to,
 * Debian's 6.1 among them): a generic netlink multicast group's flags can
 * ask for CAP_SYS_ADMIN, which the "runs" event group needs
 * (Documentation/security.rst).  A kernel without it would let any user
 * subscribe: refuse to build instead.
 */
#ifndef GENL_MCAST_CAP_SYS_ADMIN
#error "no GENL_MCAST_CAP_SYS_ADMIN: needs 6.7, or 6.1.y/6.6.y with its backport"
#endif

#endif /* _NEURONSIM_COMPAT_H */
