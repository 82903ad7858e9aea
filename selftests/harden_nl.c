// SPDX-License-Identifier: GPL-2.0
/*
 * harden_nl.c - a minimal generic netlink client for the hardening
 * selftests: resolve the "neuronsim" family and run one request (doit or
 * dump) with a callback per reply message.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/neuronsim_netlink.h>

#include "harden_nl.h"

struct nlbuf {
	char b[65536];
};

int genl_req(int sk, uint16_t fam, uint8_t cmd, int dump,
		    uint32_t model_id, int (*cb)(struct nlmsghdr *, void *),
		    void *arg)
{
	struct {
		struct nlmsghdr n;
		struct genlmsghdr g;
		char attrs[64];
	} req;
	struct nlbuf *rb = malloc(sizeof(*rb));
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	int ret = 0, done = 0;

	if (!rb)
		return -ENOMEM;
	memset(&req, 0, sizeof(req));
	req.n.nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN);
	req.n.nlmsg_type = fam;
	req.n.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | (dump ? NLM_F_DUMP : 0);
	req.n.nlmsg_seq = 1;
	req.g.cmd = cmd;
	req.g.version = 1;
	if (fam == GENL_ID_CTRL) {
		struct nlattr *a = (void *)((char *)&req + req.n.nlmsg_len);

		a->nla_type = CTRL_ATTR_FAMILY_NAME;
		a->nla_len = NLA_HDRLEN + sizeof(NEURONSIM_GENL_NAME);
		memcpy((char *)a + NLA_HDRLEN, NEURONSIM_GENL_NAME,
		       sizeof(NEURONSIM_GENL_NAME));
		req.n.nlmsg_len += NLA_ALIGN(a->nla_len);
	} else if (model_id) {
		struct nlattr *a = (void *)((char *)&req + req.n.nlmsg_len);

		a->nla_type = NEURONSIM_A_MODEL_ID;
		a->nla_len = NLA_HDRLEN + 4;
		memcpy((char *)a + NLA_HDRLEN, &model_id, 4);
		req.n.nlmsg_len += NLA_ALIGN(a->nla_len);
	}
	if (sendto(sk, &req, req.n.nlmsg_len, 0, (void *)&sa, sizeof(sa)) < 0) {
		free(rb);
		return -errno;
	}
	while (!done) {
		int n = recv(sk, rb->b, sizeof(rb->b), 0);
		struct nlmsghdr *h;

		if (n < 0) {
			ret = -errno;
			break;
		}
		for (h = (void *)rb->b; NLMSG_OK(h, (unsigned int)n);
		     h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_type == NLMSG_DONE) {
				done = 1;
				break;
			}
			if (h->nlmsg_type == NLMSG_ERROR) {
				struct nlmsgerr *e = NLMSG_DATA(h);

				if (e->error)
					ret = e->error;
				done = 1;
				break;
			}
			if (cb && cb(h, arg))
				ret = ret ? ret : -EBADMSG;
		}
	}
	free(rb);
	return ret;
}

static int find_family(struct nlmsghdr *h, void *arg)
{
	struct genlmsghdr *g = NLMSG_DATA(h);
	struct nlattr *a = (void *)((char *)g + GENL_HDRLEN);
	int len = h->nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN);

	for (; len >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN &&
	       a->nla_len <= len;
	     len -= NLA_ALIGN(a->nla_len),
	     a = (void *)((char *)a + NLA_ALIGN(a->nla_len)))
		if ((a->nla_type & NLA_TYPE_MASK) == CTRL_ATTR_FAMILY_ID)
			memcpy(arg, (char *)a + NLA_HDRLEN, 2);
	return 0;
}

int nl_open(uint16_t *fam)
{
	int sk = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);

	*fam = 0;
	if (sk < 0)
		return -1;
	if (genl_req(sk, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 0, 0, find_family,
		     fam) || !*fam) {
		close(sk);
		return -1;
	}
	return sk;
}
