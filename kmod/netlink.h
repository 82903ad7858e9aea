/* SPDX-License-Identifier: GPL-2.0 */
/*
 * netlink.h - the "neuronsim" generic netlink family (netlink.c,
 * uapi/linux/neuronsim_netlink.h).
 */
#ifndef _NEURONSIM_NETLINK_H
#define _NEURONSIM_NETLINK_H

struct nrsim_device;
struct nrsim_model;
struct kbin_err;
struct nrsim_dma_qrun;
struct neuronsim_exec_wait;

int nrsim_netlink_init(void);
void nrsim_netlink_exit(void);
void nrsim_netlink_notify_loaded(struct nrsim_model *m);
void nrsim_netlink_notify_unloaded(struct nrsim_model *m);
void nrsim_netlink_notify_load_failed(struct nrsim_device *nd, int err,
				      const struct kbin_err *e);
void nrsim_netlink_notify_run(const struct nrsim_model *m, u32 subgraph,
			      u32 queue, const struct nrsim_dma_qrun *qr);
void nrsim_netlink_notify_exec(const struct nrsim_model *m,
			       const struct neuronsim_exec_wait *sum);

#endif /* _NEURONSIM_NETLINK_H */
