// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * netlink.c - libneuronsim: the "neuronsim" generic netlink family
 * (uapi/linux/neuronsim_netlink.h) through libnl-genl-3: genl_connect(),
 * genl_ctrl_resolve(), genl_ctrl_resolve_grp(), nl_socket_add_membership().
 *
 * Kernel errors are taken from the NLMSG_ERROR (or the NLMSG_DONE of a
 * dump) as the raw -errno, not through libnl's error codes, so callers see
 * -ENOENT/-EPERM/-EINVAL exactly as the kernel said them.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/netlink.h>

#include <netlink/netlink.h>
#include <netlink/genl/genl.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/family.h>

#include "internal.h"
#include "netlink-gen.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

struct neuronsim_nl {
	struct nl_sock *sk;	/* requests */
	int family;
	struct nl_sock *ev;	/* "monitor" (and "runs") events, after subscribe */
	bool runs;		/* "runs" joined: RUN_DONE events come */
	bool has_device;	/* requests carry DEVICE = device */
	__u32 device;
};

/* per-request state */
struct nl_req {
	int err;		/* kernel -errno */
	int done;
	int stopped;		/* user callback asked to stop */
	int (*parse)(struct nl_req *req, struct nlattr **tb, __u8 cmd);
	void *out;
	void *cb;
	void *ctx;
	int count;
	struct nlmsghdr *nlh;	/* the message being parsed */
};

/* libnl error code -> -errno, for errors that did not come from the kernel */
static int nl_to_errno(int nlerr)
{
	switch (nlerr < 0 ? -nlerr : nlerr) {
	case 0:
		return 0;
	case NLE_INTR:
		return -EINTR;
	case NLE_BAD_SOCK:
		return -EBADF;
	case NLE_AGAIN:
		return -EAGAIN;
	case NLE_NOMEM:
		return -ENOMEM;
	case NLE_EXIST:
		return -EEXIST;
	case NLE_INVAL:
		return -EINVAL;
	case NLE_RANGE:
		return -ERANGE;
	case NLE_MSGSIZE:
		return -EMSGSIZE;
	case NLE_OPNOTSUPP:
		return -EOPNOTSUPP;
	case NLE_OBJ_NOTFOUND:
		return -ENOENT;
	case NLE_PERM:
		return -EPERM;
	case NLE_NOACCESS:
		return -EACCES;
	case NLE_BUSY:
		return -EBUSY;
	case NLE_NODEV:
		return -ENODEV;
	case NLE_PROTO_MISMATCH:
		return -EPROTONOSUPPORT;
	default:
		return -EIO;
	}
}

static __u64 get_u64(struct nlattr **tb, int a)
{
	return tb[a] ? nla_get_u64(tb[a]) : 0;
}

static __u32 get_u32(struct nlattr **tb, int a)
{
	return tb[a] ? nla_get_u32(tb[a]) : 0;
}

static void parse_model(struct nlattr **tb, struct neuronsim_nl_model *m)
{
	memset(m, 0, sizeof(*m));
	m->device = get_u32(tb, NEURONSIM_A_DEVICE);
	m->model_id = get_u32(tb, NEURONSIM_A_MODEL_ID);
	m->owner_pid = get_u32(tb, NEURONSIM_A_MODEL_OWNER_PID);
	m->target_gen = get_u32(tb, NEURONSIM_A_MODEL_TARGET_GEN);
	m->num_subgraphs = get_u32(tb, NEURONSIM_A_MODEL_NUM_SUBGRAPHS);
	m->first_core = get_u32(tb, NEURONSIM_A_MODEL_FIRST_CORE);
	m->num_vars = get_u64(tb, NEURONSIM_A_MODEL_NUM_VARS);
	m->hbm_bytes = get_u64(tb, NEURONSIM_A_MODEL_HBM_BYTES);
	m->scratchpad_bytes = get_u64(tb, NEURONSIM_A_MODEL_SCRATCHPAD_BYTES);
}

static int on_valid(struct nl_msg *msg, void *arg)
{
	struct nl_req *req = arg;
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct genlmsghdr *gh = nlmsg_data(nlh);
	struct nlattr *tb[NEURONSIM_A_MAX + 1];
	int err;

	if (req->stopped)
		return NL_SKIP;
	err = genlmsg_parse(nlh, 0, tb, NEURONSIM_A_MAX, nsim_nl_policy);
	if (err < 0) {
		req->err = -EPROTO;
		return NL_SKIP;
	}
	req->nlh = nlh;
	err = req->parse(req, tb, gh->cmd);
	if (err) {
		req->stopped = 1;
		if (!req->err)
			req->err = -ECANCELED;
	}
	return NL_OK;
}

static int on_error(struct sockaddr_nl *nla, struct nlmsgerr *e, void *arg)
{
	struct nl_req *req = arg;

	(void)nla;
	req->err = e->error;
	req->done = 1;
	return NL_STOP;
}

static int on_finish(struct nl_msg *msg, void *arg)
{
	struct nl_req *req = arg;
	struct nlmsghdr *nlh = nlmsg_hdr(msg);

	/* a dump that failed midway reports its -errno in NLMSG_DONE */
	if (nlh->nlmsg_len >= NLMSG_LENGTH(sizeof(int))) {
		int e = *(int *)nlmsg_data(nlh);

		if (e < 0 && !req->err)
			req->err = e;
	}
	req->done = 1;
	return NL_STOP;
}

static int on_ack(struct nl_msg *msg, void *arg)
{
	struct nl_req *req = arg;

	(void)msg;
	req->done = 1;
	return NL_STOP;
}

/*
 * send a request with optional MODEL_ID (and DEVICE after
 * neuronsim_nl_set_device()) and collect replies until done
 */
static int nl_request(struct neuronsim_nl *nl, __u8 cmd, int dump,
		      const __u32 *model_id, struct nl_req *req)
{
	struct nl_msg *msg;
	struct nl_cb *cb;
	int err;

	msg = nlmsg_alloc();
	if (!msg)
		return -ENOMEM;
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, nl->family, 0,
			 dump ? NLM_F_DUMP : 0, cmd, NEURONSIM_GENL_VERSION) ||
	    (model_id && nla_put_u32(msg, NEURONSIM_A_MODEL_ID, *model_id)) ||
	    (nl->has_device &&
	     nla_put_u32(msg, NEURONSIM_A_DEVICE, nl->device))) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	err = nl_send_auto(nl->sk, msg);
	nlmsg_free(msg);
	if (err < 0)
		return nl_to_errno(err);

	cb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!cb)
		return -ENOMEM;
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, on_valid, req);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, on_finish, req);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, on_ack, req);
	nl_cb_err(cb, NL_CB_CUSTOM, on_error, req);
	while (!req->done) {
		err = nl_recvmsgs(nl->sk, cb);
		if (err < 0 && !req->done) {
			if (!req->err)
				req->err = nl_to_errno(err);
			break;
		}
	}
	nl_cb_put(cb);
	return req->err;
}

NSIM_EXPORT int neuronsim_nl_open(struct neuronsim_nl **nlp)
{
	struct neuronsim_nl *nl;
	int one = 1, err;

	if (!nlp)
		return -EINVAL;
	*nlp = NULL;
	nl = calloc(1, sizeof(*nl));
	if (!nl)
		return -ENOMEM;
	nl->sk = nl_socket_alloc();
	if (!nl->sk) {
		err = -ENOMEM;
		goto err_free;
	}
	err = genl_connect(nl->sk);
	if (err < 0) {
		err = nl_to_errno(err);
		goto err_sock;
	}
	/* extended ACK: the kernel's messages for refused requests */
	setsockopt(nl_socket_get_fd(nl->sk), SOL_NETLINK, NETLINK_EXT_ACK,
		   &one, sizeof(one));
	nl->family = genl_ctrl_resolve(nl->sk, NEURONSIM_GENL_NAME);
	if (nl->family < 0) {
		err = nl_to_errno(nl->family);
		goto err_sock;
	}
	*nlp = nl;
	return 0;

err_sock:
	nl_socket_free(nl->sk);
err_free:
	free(nl);
	return err;
}

NSIM_EXPORT int neuronsim_nl_set_device(struct neuronsim_nl *nl, __u32 device)
{
	if (!nl || device >= NEURONSIM_MAX_DEVICES)
		return -EINVAL;
	nl->has_device = true;
	nl->device = device;
	return 0;
}

NSIM_EXPORT void neuronsim_nl_close(struct neuronsim_nl *nl)
{
	if (!nl)
		return;
	if (nl->ev)
		nl_socket_free(nl->ev);
	nl_socket_free(nl->sk);
	free(nl);
}

/* the DEV_CORE nests of a GET_DEVICE message */
static void fill_cores(struct nlmsghdr *nlh, struct neuronsim_nl_device *d)
{
	struct nlattr *a, *tc[NEURONSIM_A_CORE_MAX + 1];
	int rem;

	nla_for_each_attr(a, genlmsg_attrdata(nlmsg_data(nlh), 0),
			  genlmsg_attrlen(nlmsg_data(nlh), 0), rem) {
		__u32 i;

		if (nla_type(a) != NEURONSIM_A_DEV_CORE ||
		    nla_parse_nested(tc, NEURONSIM_A_CORE_MAX, a,
				     nsim_nl_core_policy) < 0 ||
		    !tc[NEURONSIM_A_CORE_INDEX])
			continue;
		i = nla_get_u32(tc[NEURONSIM_A_CORE_INDEX]);
		if (i >= NEURONSIM_MAX_CORES)
			continue;
		d->cores[i].owner_pid = get_u32(tc, NEURONSIM_A_CORE_OWNER_PID);
		d->cores[i].num_models = get_u32(tc, NEURONSIM_A_CORE_NUM_MODELS);
	}
}

static void fill_device(struct nlmsghdr *nlh, struct nlattr **tb,
			struct neuronsim_nl_device *d)
{
	memset(d, 0, sizeof(*d));
	d->device = get_u32(tb, NEURONSIM_A_DEVICE);
	if (tb[NEURONSIM_A_DEV_ARCH_NAME])
		snprintf(d->arch_name, sizeof(d->arch_name), "%s",
			 nla_get_string(tb[NEURONSIM_A_DEV_ARCH_NAME]));
	d->arch_gen = get_u32(tb, NEURONSIM_A_DEV_ARCH_GEN);
	d->num_cores = get_u32(tb, NEURONSIM_A_DEV_NUM_CORES);
	d->num_hbm_channels = get_u32(tb, NEURONSIM_A_DEV_NUM_HBM_CHANNELS);
	d->hbm_channel_size = get_u64(tb, NEURONSIM_A_DEV_HBM_CHANNEL_SIZE);
	d->num_models = get_u32(tb, NEURONSIM_A_DEV_NUM_MODELS);
	d->hbm_used = get_u64(tb, NEURONSIM_A_DEV_HBM_USED);
	fill_cores(nlh, d);
}

static int parse_device(struct nl_req *req, struct nlattr **tb, __u8 cmd)
{
	(void)cmd;
	fill_device(req->nlh, tb, req->out);
	req->count++;
	return 0;
}

static int parse_device_each(struct nl_req *req, struct nlattr **tb, __u8 cmd)
{
	struct neuronsim_nl_device d;
	neuronsim_device_cb cb = (neuronsim_device_cb)req->cb;

	(void)cmd;
	fill_device(req->nlh, tb, &d);
	return cb(&d, req->ctx);
}

NSIM_EXPORT int neuronsim_nl_list_devices(struct neuronsim_nl *nl,
					  neuronsim_device_cb cb, void *ctx)
{
	struct nl_req req = { .parse = parse_device_each, .cb = (void *)cb,
			      .ctx = ctx };
	bool had = nl ? nl->has_device : false;
	int err;

	if (!nl || !cb)
		return -EINVAL;
	/* the dump takes no DEVICE: every device */
	nl->has_device = false;
	err = nl_request(nl, NEURONSIM_CMD_GET_DEVICE, 1, NULL, &req);
	nl->has_device = had;
	return err;
}

NSIM_EXPORT int neuronsim_nl_get_device(struct neuronsim_nl *nl,
					struct neuronsim_nl_device *dev)
{
	struct nl_req req = { .parse = parse_device, .out = dev };
	int err;

	if (!nl || !dev)
		return -EINVAL;
	err = nl_request(nl, NEURONSIM_CMD_GET_DEVICE, 0, NULL, &req);
	if (!err && !req.count)
		err = -EPROTO;
	return err;
}

static int parse_model_one(struct nl_req *req, struct nlattr **tb, __u8 cmd)
{
	(void)cmd;
	parse_model(tb, req->out);
	req->count++;
	return 0;
}

NSIM_EXPORT int neuronsim_nl_get_model(struct neuronsim_nl *nl, __u32 model_id,
				       struct neuronsim_nl_model *model)
{
	struct nl_req req = { .parse = parse_model_one, .out = model };
	int err;

	if (!nl || !model || !model_id)
		return -EINVAL;
	err = nl_request(nl, NEURONSIM_CMD_GET_MODEL, 0, &model_id, &req);
	if (!err && !req.count)
		err = -EPROTO;
	return err;
}

static int parse_model_each(struct nl_req *req, struct nlattr **tb, __u8 cmd)
{
	struct neuronsim_nl_model m;
	neuronsim_model_cb cb = (neuronsim_model_cb)req->cb;

	(void)cmd;
	parse_model(tb, &m);
	return cb(&m, req->ctx);
}

NSIM_EXPORT int neuronsim_nl_list_models(struct neuronsim_nl *nl,
					 neuronsim_model_cb cb, void *ctx)
{
	struct nl_req req = { .parse = parse_model_each, .cb = (void *)cb,
			      .ctx = ctx };

	if (!nl || !cb)
		return -EINVAL;
	return nl_request(nl, NEURONSIM_CMD_GET_MODEL, 1, NULL, &req);
}

static int parse_var_each(struct nl_req *req, struct nlattr **tb, __u8 cmd)
{
	struct neuronsim_nl_var v;
	neuronsim_var_cb cb = (neuronsim_var_cb)req->cb;

	(void)cmd;
	memset(&v, 0, sizeof(v));
	v.device = get_u32(tb, NEURONSIM_A_DEVICE);
	v.model_id = get_u32(tb, NEURONSIM_A_MODEL_ID);
	v.subgraph = get_u32(tb, NEURONSIM_A_VAR_SUBGRAPH);
	v.var_id = get_u32(tb, NEURONSIM_A_VAR_ID);
	v.mr_type = get_u32(tb, NEURONSIM_A_VAR_KIND);
	v.size = get_u64(tb, NEURONSIM_A_VAR_SIZE);
	v.staged = tb[NEURONSIM_A_VAR_PHYSICAL_ADDRESS] != NULL;
	v.physical_address = get_u64(tb, NEURONSIM_A_VAR_PHYSICAL_ADDRESS);
	v.name = tb[NEURONSIM_A_VAR_NAME] ?
		 nla_get_string(tb[NEURONSIM_A_VAR_NAME]) : "";
	return cb(&v, req->ctx);
}

NSIM_EXPORT int neuronsim_nl_list_vars(struct neuronsim_nl *nl, __u32 model_id,
				       neuronsim_var_cb cb, void *ctx)
{
	struct nl_req req = { .parse = parse_var_each, .cb = (void *)cb,
			      .ctx = ctx };

	if (!nl || !cb || !model_id)
		return -EINVAL;
	return nl_request(nl, NEURONSIM_CMD_GET_VARS, 1, &model_id, &req);
}

NSIM_EXPORT int neuronsim_nl_subscribe(struct neuronsim_nl *nl)
{
	int grp, runs, err;

	if (!nl)
		return -EINVAL;
	if (nl->ev)
		return 0;
	grp = genl_ctrl_resolve_grp(nl->sk, NEURONSIM_GENL_NAME,
				    NEURONSIM_GENL_MCGRP_MONITOR);
	if (grp < 0)
		return nl_to_errno(grp);
	/* a module without the group sends RUN_DONE to "monitor" */
	runs = genl_ctrl_resolve_grp(nl->sk, NEURONSIM_GENL_NAME,
				     NEURONSIM_GENL_MCGRP_RUNS);
	nl->ev = nl_socket_alloc();
	if (!nl->ev)
		return -ENOMEM;
	nl_socket_disable_seq_check(nl->ev);
	err = genl_connect(nl->ev);
	if (!err)
		err = nl_socket_add_membership(nl->ev, grp);
	/* "runs" is CAP_SYS_ADMIN's: anyone else goes on without it */
	if (!err && runs >= 0 && nl_socket_add_membership(nl->ev, runs) == 0)
		nl->runs = true;
	if (!err)
		err = nl_socket_set_nonblocking(nl->ev);
	if (err < 0) {
		nl_socket_free(nl->ev);
		nl->ev = NULL;
		return nl_to_errno(err);
	}
	return 0;
}

NSIM_EXPORT int neuronsim_nl_runs_joined(struct neuronsim_nl *nl)
{
	if (!nl || !nl->ev)
		return -EINVAL;
	return nl->runs ? 1 : 0;
}

NSIM_EXPORT int neuronsim_nl_event_fd(struct neuronsim_nl *nl)
{
	if (!nl || !nl->ev)
		return -EINVAL;
	return nl_socket_get_fd(nl->ev);
}

static int parse_event(struct nl_req *req, struct nlattr **tb, __u8 cmd)
{
	struct neuronsim_nl_event e;
	neuronsim_event_cb cb = (neuronsim_event_cb)req->cb;

	if (cmd != NEURONSIM_CMD_MODEL_LOADED &&
	    cmd != NEURONSIM_CMD_MODEL_UNLOADED &&
	    cmd != NEURONSIM_CMD_LOAD_FAILED && cmd != NEURONSIM_CMD_RUN_DONE &&
	    cmd != NEURONSIM_CMD_EXEC_DONE)
		return 0;
	memset(&e, 0, sizeof(e));
	e.cmd = cmd;
	parse_model(tb, &e.model);
	e.err_errno = get_u32(tb, NEURONSIM_A_ERR_ERRNO);
	e.err_reason = get_u32(tb, NEURONSIM_A_ERR_REASON);
	e.err_field = get_u32(tb, NEURONSIM_A_ERR_FIELD);
	e.err_subgraph = tb[NEURONSIM_A_ERR_SUBGRAPH] ?
			 (__s32)get_u32(tb, NEURONSIM_A_ERR_SUBGRAPH) : -1;
	e.err_record = tb[NEURONSIM_A_ERR_RECORD] ?
		       (__s32)get_u32(tb, NEURONSIM_A_ERR_RECORD) : -1;
	e.run_subgraph = get_u32(tb, NEURONSIM_A_RUN_SUBGRAPH);
	e.run_queue = get_u32(tb, NEURONSIM_A_RUN_QUEUE);
	e.run_queue_name = tb[NEURONSIM_A_RUN_QUEUE_NAME] ?
			   nla_get_string(tb[NEURONSIM_A_RUN_QUEUE_NAME]) : "";
	e.run_status = get_u32(tb, NEURONSIM_A_RUN_STATUS);
	e.run_blocks = get_u32(tb, NEURONSIM_A_RUN_BLOCKS);
	e.run_descs = get_u32(tb, NEURONSIM_A_RUN_DESCS);
	e.run_bytes = get_u64(tb, NEURONSIM_A_RUN_BYTES);
	e.run_ns = get_u64(tb, NEURONSIM_A_RUN_NS);
	e.exec_status = get_u32(tb, NEURONSIM_A_EXEC_STATUS);
	e.exec_subgraphs = get_u32(tb, NEURONSIM_A_EXEC_SUBGRAPHS);
	e.exec_instructions = get_u64(tb, NEURONSIM_A_EXEC_INSTRUCTIONS);
	e.exec_blocks = get_u64(tb, NEURONSIM_A_EXEC_BLOCKS);
	e.exec_bytes = get_u64(tb, NEURONSIM_A_EXEC_BYTES);
	e.exec_virtual_ns = get_u64(tb, NEURONSIM_A_EXEC_VIRTUAL_NS);
	e.exec_wall_ns = get_u64(tb, NEURONSIM_A_EXEC_WALL_NS);
	e.exec_not_simulated = get_u64(tb, NEURONSIM_A_EXEC_NOT_SIMULATED);
	req->count++;
	return cb(&e, req->ctx);
}

static int on_seq_any(struct nl_msg *msg, void *arg)
{
	(void)msg;
	(void)arg;
	return NL_OK;
}

NSIM_EXPORT int neuronsim_nl_read_events(struct neuronsim_nl *nl,
					 int timeout_ms,
					 neuronsim_event_cb cb, void *ctx)
{
	struct nl_req req = { .parse = parse_event, .cb = (void *)cb,
			      .ctx = ctx };
	struct pollfd pfd;
	struct nl_cb *ncb;
	int n, err;

	if (!nl || !nl->ev || !cb)
		return -EINVAL;
	pfd.fd = nl_socket_get_fd(nl->ev);
	pfd.events = POLLIN;
	n = poll(&pfd, 1, timeout_ms);
	if (n < 0)
		return -errno;
	if (n == 0)
		return 0;
	ncb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!ncb)
		return -ENOMEM;
	nl_cb_set(ncb, NL_CB_VALID, NL_CB_CUSTOM, on_valid, &req);
	/* notifications carry sequence number 0: no sequence check */
	nl_cb_set(ncb, NL_CB_SEQ_CHECK, NL_CB_CUSTOM, on_seq_any, NULL);
	/* non-blocking: > 0 per datagram handled, 0 when drained */
	do {
		err = nl_recvmsgs_report(nl->ev, ncb);
	} while (err > 0 && !req.stopped);
	nl_cb_put(ncb);
	if (req.stopped)
		return -ECANCELED;
	if (err < 0 && err != -NLE_AGAIN && !req.count)
		return nl_to_errno(err);
	return req.count;
}
