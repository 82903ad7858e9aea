/* SPDX-License-Identifier: GPL-2.0 */
/*
 * harden_nl.h - minimal generic netlink client (harden_nl.c).
 */
#ifndef _NSIM_HARDEN_NL_H
#define _NSIM_HARDEN_NL_H

#include <stdint.h>

#include <linux/netlink.h>

/**
 * genl_req() - send one request and collect the replies.
 * @sk: NETLINK_GENERIC socket.
 * @fam: family id (GENL_ID_CTRL to resolve "neuronsim").
 * @cmd: command.
 * @dump: non-zero for NLM_F_DUMP.
 * @model_id: NEURONSIM_A_MODEL_ID to send, or 0 for none.
 * @cb: called per reply message (may be NULL); non-zero counts as bad.
 * @arg: passed to @cb.
 *
 * Return: 0, or the negative errno of the NLMSG_ERROR reply.
 */
int genl_req(int sk, uint16_t fam, uint8_t cmd, int dump, uint32_t model_id,
	     int (*cb)(struct nlmsghdr *, void *), void *arg);

/**
 * nl_open() - a NETLINK_GENERIC socket and the neuronsim family id.
 * @fam: out: the family id.
 *
 * Return: the socket, or -1 when the family is not registered.
 */
int nl_open(uint16_t *fam);

#endif /* _NSIM_HARDEN_NL_H */
