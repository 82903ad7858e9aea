/* SPDX-License-Identifier: GPL-2.0 */
/*
 * netlink.h - the "neuronsim" generic netlink family (netlink.c,
 * uapi/linux/neuronsim_netlink.h).
 */
#ifndef _NEURONSIM_NETLINK_H
#define _NEURONSIM_NETLINK_H

struct nsim_device;
struct nsim_model;
struct nsim_load_err;
struct nsim_dma_qrun;
struct neuronsim_exec_wait;

int nsim_netlink_init(void);
void nsim_netlink_exit(void);
void nsim_netlink_notify_loaded(struct nsim_model *m);
void nsim_netlink_notify_unloaded(struct nsim_model *m);
void nsim_netlink_notify_load_failed(struct nsim_device *nd, int err,
				     const struct nsim_load_err *e);
void nsim_netlink_notify_run(const struct nsim_model *m, u32 subgraph,
			     u32 queue, const struct nsim_dma_qrun *qr);
void nsim_netlink_notify_exec(const struct nsim_model *m,
			      const struct neuronsim_exec_wait *sum);

#endif /* _NEURONSIM_NETLINK_H */
