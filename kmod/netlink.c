// SPDX-License-Identifier: GPL-2.0
/*
 * netlink.c - the "neuronsim" generic netlink family
 * (uapi/linux/neuronsim_netlink.h, Documentation/netlink/specs/neuronsim.yaml).
 *
 *   GET_DEVICE	doit (DEVICE, default 0): arch, cores, HBM channels, models,
 *		HBM in use, the owner of each NeuronCore; dump: every device
 *   GET_MODEL	doit by (DEVICE, MODEL_ID), dump of every model (any fd's)
 *		of one device or of all
 *   GET_VARS	dump of one model's staged variables
 *   "monitor"	MODEL_LOADED, MODEL_UNLOADED, LOAD_FAILED notifications
 *   "runs"	RUN_DONE notifications (CAP_SYS_ADMIN only)
 *
 * Every message about a device or a model carries DEVICE, the device
 * index.  Every operation is strictly validated (.resv_start_op covers
 * them all): an attribute a command does not take is refused.
 *
 * Who sees what (Documentation/security.rst): a model's counts are public
 * (GET_MODEL, "monitor" events).  Its variables' names and physical
 * addresses (GET_VARS) are shown only to its owner - a task of the thread
 * group that loaded it - or to a caller with CAP_SYS_ADMIN; anyone else
 * gets -EPERM.  What a process's DMA queue runs did (RUN_DONE: the
 * queue's name, its status, bytes and time) goes to the group "runs",
 * which only CAP_SYS_ADMIN may join (GENL_MCAST_CAP_SYS_ADMIN: -EPERM at
 * bind time): a multicast group cannot tell the owner from others, and
 * the owner has WAIT and poll() on its fd.
 *
 * The family has no index of its own: it reads each device's xarray of
 * published models, the one RESOLVE reads.  The list of devices is held
 * (nrsim_devices_lock()) while a device is used, so it cannot go away;
 * a model found under rcu_read_lock() may be read (it is immutable once
 * published, and freed only an RCU grace period after it was
 * unpublished) until rcu_read_unlock().  Dumps resume by device index and
 * model id (GET_MODEL) or by (subgraph, record) (GET_VARS) kept in
 * cb->args.
 */
#include <linux/capability.h>
#include <linux/pid.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/xarray.h>
#include <net/genetlink.h>

#include <linux/neuronsim_netlink.h>

#include "compat.h"
#include "nrsim.h"
#include "netlink.h"
#include "netlink-gen.h"

static bool nrsim_nl_registered;

/*
 * The device a request names (DEVICE, default 0), with the list of
 * devices locked; NULL (unlocked, extack set) when there is none.
 */
static struct nrsim_device *nrsim_nl_device(struct nlattr **attrs,
					    struct netlink_ext_ack *extack)
{
	struct nlattr *a = attrs[NEURONSIM_A_DEVICE];
	struct nrsim_device *nd;

	nrsim_devices_lock();
	nd = nrsim_device_find(a ? nla_get_u32(a) : 0);
	if (!nd) {
		nrsim_devices_unlock();
		if (a)
			NL_SET_ERR_MSG_ATTR(extack, a, "no device with this index");
		else
			NL_SET_ERR_MSG(extack, "no device 0");
	}
	return nd;
}

static int nrsim_nl_put_model(struct sk_buff *skb, const struct nrsim_model *m)
{
	if (nla_put_u32(skb, NEURONSIM_A_DEVICE, m->nd->index) ||
	    nla_put_u32(skb, NEURONSIM_A_MODEL_ID, m->id) ||
	    nla_put_u32(skb, NEURONSIM_A_MODEL_OWNER_PID,
			pid_vnr(m->owner_tgid)) ||
	    nla_put_u32(skb, NEURONSIM_A_MODEL_TARGET_GEN, m->target_gen) ||
	    nla_put_u32(skb, NEURONSIM_A_MODEL_NUM_SUBGRAPHS, m->num_sg) ||
	    nla_put_u32(skb, NEURONSIM_A_MODEL_FIRST_CORE, m->first_core) ||
	    nla_put_u64_64bit(skb, NEURONSIM_A_MODEL_NUM_VARS, m->num_vars,
			      NEURONSIM_A_PAD) ||
	    nla_put_u64_64bit(skb, NEURONSIM_A_MODEL_HBM_BYTES, m->hbm_bytes,
			      NEURONSIM_A_PAD) ||
	    nla_put_u64_64bit(skb, NEURONSIM_A_MODEL_SCRATCHPAD_BYTES,
			      m->scratchpad_bytes, NEURONSIM_A_PAD))
		return -EMSGSIZE;
	return 0;
}

/* one model message: a reply, a dump part or a notification */
static int nrsim_nl_fill_model(struct sk_buff *skb, const struct nrsim_model *m,
			       u32 portid, u32 seq, int flags, u8 cmd)
{
	void *hdr;

	hdr = genlmsg_put(skb, portid, seq, &nrsim_nl_family, flags, cmd);
	if (!hdr)
		return -EMSGSIZE;
	if (nrsim_nl_put_model(skb, m)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/* one DEV_CORE nest per NeuronCore: its owner and models */
static int nrsim_nl_put_cores(struct sk_buff *skb, struct nrsim_device *nd)
{
	pid_t owner[NEURONSIM_MAX_CORES];
	u32 users[NEURONSIM_MAX_CORES], i;
	struct nlattr *nest;

	nrsim_cores_get(nd, owner, users);
	for (i = 0; i < nd->arch->num_cores; i++) {
		nest = nla_nest_start(skb, NEURONSIM_A_DEV_CORE);
		if (!nest ||
		    nla_put_u32(skb, NEURONSIM_A_CORE_INDEX, i) ||
		    nla_put_u32(skb, NEURONSIM_A_CORE_OWNER_PID, owner[i]) ||
		    nla_put_u32(skb, NEURONSIM_A_CORE_NUM_MODELS, users[i]))
			return -EMSGSIZE;
		nla_nest_end(skb, nest);
	}
	return 0;
}

/* one device message: a reply or a dump part */
static int nrsim_nl_fill_device(struct sk_buff *skb, struct nrsim_device *nd,
				u32 portid, u32 seq, int flags)
{
	const struct kbin_gen *a = nd->arch;
	void *hdr;

	hdr = genlmsg_put(skb, portid, seq, &nrsim_nl_family, flags,
			  NEURONSIM_CMD_GET_DEVICE);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(skb, NEURONSIM_A_DEVICE, nd->index) ||
	    nla_put_string(skb, NEURONSIM_A_DEV_ARCH_NAME, a->name) ||
	    nla_put_u32(skb, NEURONSIM_A_DEV_ARCH_GEN, a->gen) ||
	    nla_put_u32(skb, NEURONSIM_A_DEV_NUM_CORES, a->num_cores) ||
	    nla_put_u32(skb, NEURONSIM_A_DEV_NUM_HBM_CHANNELS,
			a->num_hbm_channels) ||
	    nla_put_u64_64bit(skb, NEURONSIM_A_DEV_HBM_CHANNEL_SIZE,
			      a->hbm_channel_size, NEURONSIM_A_PAD) ||
	    nla_put_u32(skb, NEURONSIM_A_DEV_NUM_MODELS,
			atomic64_read(&nd->stats.models)) ||
	    nla_put_u64_64bit(skb, NEURONSIM_A_DEV_HBM_USED,
			      nrsim_hbm_used_total(nd), NEURONSIM_A_PAD) ||
	    nrsim_nl_put_cores(skb, nd)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/**
 * nrsim_nl_get_device_doit() - GET_DEVICE: one device (DEVICE, default 0).
 * @skb: the request.
 * @info: its attributes, checked against the operation's policy.
 *
 * Return: 0 with the reply sent; -ENODEV no such device, -ENOMEM, or
 * -EMSGSIZE when the reply does not fit a page.
 */
int nrsim_nl_get_device_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nrsim_device *nd;
	struct sk_buff *msg;
	int err;

	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	nd = nrsim_nl_device(info->attrs, info->extack);
	if (!nd) {
		nlmsg_free(msg);
		return -ENODEV;
	}
	err = nrsim_nl_fill_device(msg, nd, info->snd_portid, info->snd_seq, 0);
	nrsim_devices_unlock();
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	return genlmsg_reply(msg, info);
}

/**
 * nrsim_nl_get_device_dumpit() - GET_DEVICE dump: every device, by index.
 * @skb: the reply being filled.
 * @cb: the dump's state; cb->args[0] is the next device index to emit.
 *
 * Return: the reply's length (0: the dump is done), or -EMSGSIZE when
 * not one device fits.
 */
int nrsim_nl_get_device_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	unsigned long index = cb->args[0];
	struct nrsim_device *nd;
	int err = 0;

	nrsim_devices_lock();
	while ((nd = nrsim_device_next(&index))) {
		err = nrsim_nl_fill_device(skb, nd, NETLINK_CB(cb->skb).portid,
					   cb->nlh->nlmsg_seq, NLM_F_MULTI);
		if (err)
			break;
		cb->args[0] = ++index;
	}
	nrsim_devices_unlock();
	if (err && !skb->len)
		return err;
	return skb->len;
}

/**
 * nrsim_nl_get_model_doit() - GET_MODEL: one model by DEVICE and MODEL_ID.
 * @skb: the request.
 * @info: its attributes, checked against the operation's policy.
 *
 * Return: 0 with the reply sent; -EINVAL without MODEL_ID, -ENODEV no
 * such device, -ENOENT no such model on it, -ENOMEM or -EMSGSIZE.
 */
int nrsim_nl_get_model_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nrsim_device *nd;
	struct nrsim_model *m;
	struct sk_buff *msg;
	int err;
	u32 id;

	if (GENL_REQ_ATTR_CHECK(info, NEURONSIM_A_MODEL_ID))
		return -EINVAL;
	id = nla_get_u32(info->attrs[NEURONSIM_A_MODEL_ID]);

	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	nd = nrsim_nl_device(info->attrs, info->extack);
	if (!nd) {
		nlmsg_free(msg);
		return -ENODEV;
	}
	rcu_read_lock();
	m = xa_load(&nd->models.xa, id);
	err = m ? nrsim_nl_fill_model(msg, m, info->snd_portid, info->snd_seq,
				     0, NEURONSIM_CMD_GET_MODEL) : -ENOENT;
	rcu_read_unlock();
	nrsim_devices_unlock();
	if (err == -ENOENT)
		NL_SET_ERR_MSG_ATTR(info->extack,
				    info->attrs[NEURONSIM_A_MODEL_ID],
				    "no model with this id on the device");
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	return genlmsg_reply(msg, info);
}

/**
 * nrsim_nl_get_model_start() - GET_MODEL dump start.
 * @cb: the dump's state: cb->args[0] the device to dump next, [1] the
 *	next model id in it, [2] 1 when the request named one DEVICE.
 *
 * Return: 0, or -ENODEV when the request names a device that does not
 * exist.
 */
int nrsim_nl_get_model_start(struct netlink_callback *cb)
{
	struct nlattr **attrs = nrsim_dump_attrs(cb);
	struct nlattr *a = attrs[NEURONSIM_A_DEVICE];

	if (a) {
		if (!nrsim_nl_device(attrs, cb->extack))
			return -ENODEV;
		nrsim_devices_unlock();
	}
	cb->args[0] = a ? nla_get_u32(a) : 0;
	cb->args[1] = 0;
	cb->args[2] = !!a;
	return 0;
}

/**
 * nrsim_nl_get_model_dumpit() - GET_MODEL dump: every model of one device
 * or, without DEVICE, of every device, by device then id.
 * @skb: the reply being filled.
 * @cb: the dump's state (nrsim_nl_get_model_start()).
 *
 * Return: the reply's length (0: the dump is done), or -EMSGSIZE when
 * not one model fits.
 */
int nrsim_nl_get_model_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	unsigned long index = cb->args[0], id;
	struct nrsim_device *nd;
	struct nrsim_model *m;
	int err = 0;

	nrsim_devices_lock();
	while ((nd = nrsim_device_next(&index))) {
		if (cb->args[2] && index != cb->args[0])
			break;
		if (index != cb->args[0]) {	/* a new device: from id 0 */
			cb->args[0] = index;
			cb->args[1] = 0;
		}
		rcu_read_lock();
		xa_for_each_start(&nd->models.xa, id, m, cb->args[1]) {
			err = nrsim_nl_fill_model(skb, m,
						  NETLINK_CB(cb->skb).portid,
						 cb->nlh->nlmsg_seq,
						 NLM_F_MULTI,
						 NEURONSIM_CMD_GET_MODEL);
			if (err)
				break;
			cb->args[1] = id + 1;
		}
		rcu_read_unlock();
		if (err || cb->args[2])
			break;
		index++;
	}
	nrsim_devices_unlock();
	if (err && !skb->len)
		return err;
	return skb->len;
}

static bool nrsim_nl_may_see_vars(const struct nrsim_model *m,
				  const struct sk_buff *skb)
{
	return m->owner_tgid == task_tgid(current) ||
	       netlink_capable(skb, CAP_SYS_ADMIN);
}

/**
 * nrsim_nl_get_vars_start() - GET_VARS dump start: check the model and the
 * caller once.
 * @cb: the dump's state: cb->args[0] model id, [1] subgraph, [2] record
 *	within it, [3] device.
 *
 * Return: 0; -EINVAL without MODEL_ID, -ENODEV no such device, -ENOENT no
 * such model, -EPERM neither its owner nor CAP_SYS_ADMIN.
 */
int nrsim_nl_get_vars_start(struct netlink_callback *cb)
{
	struct nlattr **attrs = nrsim_dump_attrs(cb);
	struct nlattr *attr = attrs[NEURONSIM_A_MODEL_ID];
	struct nrsim_device *nd;
	struct nrsim_model *m;
	int err = 0;
	u32 id;

	if (!attr) {
		NL_SET_ERR_MSG(cb->extack, "GET_VARS needs MODEL_ID");
		return -EINVAL;
	}
	id = nla_get_u32(attr);
	nd = nrsim_nl_device(attrs, cb->extack);
	if (!nd)
		return -ENODEV;
	cb->args[3] = nd->index;
	rcu_read_lock();
	m = xa_load(&nd->models.xa, id);
	if (!m) {
		NL_SET_ERR_MSG_ATTR(cb->extack, attr,
				    "no model with this id on the device");
		err = -ENOENT;
	} else if (!nrsim_nl_may_see_vars(m, cb->skb)) {
		NL_SET_ERR_MSG_ATTR(cb->extack, attr,
				    "names and addresses only for the loading process or CAP_SYS_ADMIN");
		err = -EPERM;
	}
	rcu_read_unlock();
	nrsim_devices_unlock();
	cb->args[0] = id;
	cb->args[1] = 0;
	cb->args[2] = 0;
	return err;
}

static int nrsim_nl_put_var(struct sk_buff *skb, struct netlink_callback *cb,
			    const struct nrsim_model *m, u32 sgi, u32 i)
{
	const struct nrsim_sg *sg = &m->sg[sgi];
	const struct nrsim_mr *mr = &sg->mrs[i];
	const char *name = "";
	void *hdr;

	if (sg->names && sg->cold)
		name = sg->names + sg->cold[i].name_off;
	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &nrsim_nl_family, NLM_F_MULTI, NEURONSIM_CMD_GET_VARS);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(skb, NEURONSIM_A_DEVICE, m->nd->index) ||
	    nla_put_u32(skb, NEURONSIM_A_MODEL_ID, m->id) ||
	    nla_put_u32(skb, NEURONSIM_A_VAR_SUBGRAPH, sgi) ||
	    nla_put_u32(skb, NEURONSIM_A_VAR_ID, mr->var_id) ||
	    nla_put_string(skb, NEURONSIM_A_VAR_NAME, name) ||
	    nla_put_u32(skb, NEURONSIM_A_VAR_KIND, mr->type) ||
	    nla_put_u64_64bit(skb, NEURONSIM_A_VAR_SIZE, mr->size,
			      NEURONSIM_A_PAD) ||
	    (mr->pa != NRSIM_PA_UNSTAGED &&
	     nla_put_u64_64bit(skb, NEURONSIM_A_VAR_PHYSICAL_ADDRESS, mr->pa,
			       NEURONSIM_A_PAD))) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/**
 * nrsim_nl_get_vars_dumpit() - GET_VARS dump: every variable of one model,
 * by subgraph then var_id.
 * @skb: the reply being filled.
 * @cb: the dump's state (nrsim_nl_get_vars_start()).
 *
 * Return: the reply's length (0: the dump is done), -ENOENT when the model
 * was unloaded meanwhile, or -EMSGSIZE when not one variable fits.
 */
int nrsim_nl_get_vars_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	unsigned long sgi = cb->args[1], i = cb->args[2];
	const struct nrsim_model *m;
	struct nrsim_device *nd;
	int err = 0;

	nrsim_devices_lock();
	nd = nrsim_device_find(cb->args[3]);
	rcu_read_lock();
	m = nd ? xa_load(&nd->models.xa, cb->args[0]) : NULL;
	if (!m) {
		/* unloaded between two parts of the dump */
		rcu_read_unlock();
		nrsim_devices_unlock();
		return -ENOENT;
	}
	for (; sgi < m->num_sg; sgi++, i = 0) {
		for (; i < m->sg[sgi].nmem; i++) {
			err = nrsim_nl_put_var(skb, cb, m, sgi, i);
			if (err)
				goto out;
		}
	}
out:
	rcu_read_unlock();
	nrsim_devices_unlock();
	cb->args[1] = sgi;
	cb->args[2] = i;
	if (err && !skb->len)
		return err;
	return skb->len;
}

static bool nrsim_nl_listening(unsigned int group)
{
	return READ_ONCE(nrsim_nl_registered) &&
	       genl_has_listeners(&nrsim_nl_family, &init_net, group);
}

/*
 * A new event of @cmd for multicast group @group (enum nrsim_nl_mcgrp)
 * with its header in *@hdr, or NULL when nobody listens there or memory
 * is short (an event is then not sent).
 */
static struct sk_buff *nrsim_nl_event_new(unsigned int group, u8 cmd,
					  void **hdr)
{
	struct sk_buff *msg;

	if (!nrsim_nl_listening(group))
		return NULL;
	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return NULL;
	*hdr = genlmsg_put(msg, 0, 0, &nrsim_nl_family, 0, cmd);
	if (!*hdr) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

/*
 * multicast an event of nrsim_nl_event_new() to @group, or drop it when
 * @full
 */
static void nrsim_nl_event_send(unsigned int group, struct sk_buff *msg,
				void *hdr, bool full)
{
	if (full) {
		nlmsg_free(msg);
		return;
	}
	genlmsg_end(msg, hdr);
	genlmsg_multicast(&nrsim_nl_family, msg, 0, group, GFP_KERNEL);
}

static void nrsim_nl_notify_model(u8 cmd, const struct nrsim_model *m)
{
	struct sk_buff *msg;

	if (!nrsim_nl_listening(NRSIM_NL_MCGRP_MONITOR))
		return;
	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return;
	if (nrsim_nl_fill_model(msg, m, 0, 0, 0, cmd)) {
		nlmsg_free(msg);
		return;
	}
	genlmsg_multicast(&nrsim_nl_family, msg, 0, NRSIM_NL_MCGRP_MONITOR,
			  GFP_KERNEL);
}

/**
 * nrsim_netlink_notify_loaded() - a model was published: MODEL_LOADED to
 *	"monitor" (the model is in its device's xarray already, so GET_MODEL
 *	and GET_VARS see it).
 * @m: the model.
 *
 * Context: process context, the owning file's lock held.
 */
void nrsim_netlink_notify_loaded(struct nrsim_model *m)
{
	nrsim_nl_notify_model(NEURONSIM_CMD_MODEL_LOADED, m);
}

/**
 * nrsim_netlink_notify_unloaded() - a model is being unpublished:
 *	MODEL_UNLOADED to "monitor".
 * @m: the model, still intact.
 *
 * Context: process context, the owning file's lock held.
 */
void nrsim_netlink_notify_unloaded(struct nrsim_model *m)
{
	nrsim_nl_notify_model(NEURONSIM_CMD_MODEL_UNLOADED, m);
}

/**
 * nrsim_netlink_notify_load_failed() - NEURONSIM_IOC_LOAD failed.
 * @nd: the device of the load.
 * @err: the negative errno LOAD returns.
 * @e: why: reason, field, subgraph and record (NULL: unknown).
 *
 * Sends LOAD_FAILED with the device and the calling thread group as
 * OWNER_PID.
 *
 * Context: process context of the loading task.
 */
void nrsim_netlink_notify_load_failed(struct nrsim_device *nd, int err,
				      const struct kbin_err *e)
{
	struct sk_buff *msg;
	s32 record = -1;
	void *hdr;
	bool full;

	msg = nrsim_nl_event_new(NRSIM_NL_MCGRP_MONITOR, NEURONSIM_CMD_LOAD_FAILED,
				 &hdr);
	if (!msg)
		return;
	if (e && e->record >= 0 && e->record <= S32_MAX)
		record = e->record;
	full = nla_put_u32(msg, NEURONSIM_A_DEVICE, nd->index) ||
	       nla_put_u32(msg, NEURONSIM_A_MODEL_OWNER_PID,
			   task_tgid_vnr(current)) ||
	       nla_put_u32(msg, NEURONSIM_A_ERR_ERRNO, -err) ||
	       nla_put_u32(msg, NEURONSIM_A_ERR_REASON, e ? e->reason : 0) ||
	       nla_put_u32(msg, NEURONSIM_A_ERR_FIELD, e ? e->field : 0) ||
	       nla_put_s32(msg, NEURONSIM_A_ERR_SUBGRAPH, e ? e->subgraph : -1) ||
	       nla_put_s32(msg, NEURONSIM_A_ERR_RECORD, record);
	nrsim_nl_event_send(NRSIM_NL_MCGRP_MONITOR, msg, hdr, full);
}

/**
 * nrsim_netlink_notify_run() - a DMA queue run finished: RUN_DONE to
 *	"runs" (CAP_SYS_ADMIN listeners only).
 * @m: the model (its runs are waited for before it is freed).
 * @subgraph: the queue's subgraph.
 * @queue: the queue's index.
 * @qr: its run state, done.
 *
 * Context: the NeuronCore's engine workqueue (engine.c).
 */
void nrsim_netlink_notify_run(const struct nrsim_model *m, u32 subgraph,
			      u32 queue, const struct nrsim_dma_qrun *qr)
{
	const struct nrsim_dma *dma = &m->sg[subgraph].dma;
	struct sk_buff *msg;
	void *hdr;
	bool full;

	msg = nrsim_nl_event_new(NRSIM_NL_MCGRP_RUNS, NEURONSIM_CMD_RUN_DONE, &hdr);
	if (!msg)
		return;
	full = nla_put_u32(msg, NEURONSIM_A_DEVICE, m->nd->index) ||
	       nla_put_u32(msg, NEURONSIM_A_MODEL_ID, m->id) ||
	       nla_put_u32(msg, NEURONSIM_A_RUN_SUBGRAPH, subgraph) ||
	       nla_put_u32(msg, NEURONSIM_A_RUN_QUEUE, queue) ||
	       nla_put_string(msg, NEURONSIM_A_RUN_QUEUE_NAME,
			      dma->names + dma->queues[queue].name_off) ||
	       nla_put_u32(msg, NEURONSIM_A_RUN_STATUS, -qr->status) ||
	       nla_put_u32(msg, NEURONSIM_A_RUN_BLOCKS, qr->blocks) ||
	       nla_put_u32(msg, NEURONSIM_A_RUN_DESCS, qr->descs) ||
	       nla_put_u64_64bit(msg, NEURONSIM_A_RUN_BYTES, qr->bytes,
				 NEURONSIM_A_PAD) ||
	       nla_put_u64_64bit(msg, NEURONSIM_A_RUN_NS, qr->ns,
				 NEURONSIM_A_PAD);
	nrsim_nl_event_send(NRSIM_NL_MCGRP_RUNS, msg, hdr, full);
}

/**
 * nrsim_netlink_notify_exec() - an execution ended: EXEC_DONE to "runs"
 *	(CAP_SYS_ADMIN listeners only).
 * @m: the model (its execution's works are waited for before it is
 *	freed).
 * @sum: the execution's figures (struct neuronsim_exec_wait's out
 *	fields).
 *
 * Context: the NeuronCore's engine workqueue (exec.c).
 */
void nrsim_netlink_notify_exec(const struct nrsim_model *m,
			       const struct neuronsim_exec_wait *sum)
{
	struct sk_buff *msg;
	void *hdr;
	bool full;

	msg = nrsim_nl_event_new(NRSIM_NL_MCGRP_RUNS, NEURONSIM_CMD_EXEC_DONE, &hdr);
	if (!msg)
		return;
	full = nla_put_u32(msg, NEURONSIM_A_DEVICE, m->nd->index) ||
	       nla_put_u32(msg, NEURONSIM_A_MODEL_ID, m->id) ||
	       nla_put_u32(msg, NEURONSIM_A_EXEC_STATUS, -sum->status) ||
	       nla_put_u32(msg, NEURONSIM_A_EXEC_SUBGRAPHS, sum->num_sg) ||
	       nla_put_u64_64bit(msg, NEURONSIM_A_EXEC_INSTRUCTIONS,
				 sum->instructions, NEURONSIM_A_PAD) ||
	       nla_put_u64_64bit(msg, NEURONSIM_A_EXEC_BLOCKS, sum->blocks,
				 NEURONSIM_A_PAD) ||
	       nla_put_u64_64bit(msg, NEURONSIM_A_EXEC_BYTES, sum->bytes,
				 NEURONSIM_A_PAD) ||
	       nla_put_u64_64bit(msg, NEURONSIM_A_EXEC_VIRTUAL_NS,
				 sum->virtual_ns, NEURONSIM_A_PAD) ||
	       nla_put_u64_64bit(msg, NEURONSIM_A_EXEC_WALL_NS, sum->wall_ns,
				 NEURONSIM_A_PAD) ||
	       nla_put_u64_64bit(msg, NEURONSIM_A_EXEC_NOT_SIMULATED,
				 sum->not_simulated, NEURONSIM_A_PAD);
	nrsim_nl_event_send(NRSIM_NL_MCGRP_RUNS, msg, hdr, full);
}

/**
 * nrsim_netlink_init() - register the "neuronsim" generic netlink family.
 *
 * Context: module init, before any device exists, so no model can be
 * loaded before the family can report it.
 *
 * Return: 0 or the negative errno of genl_register_family().
 */
int nrsim_netlink_init(void)
{
	int ret;

	ret = genl_register_family(&nrsim_nl_family);
	if (ret)
		return ret;
	WRITE_ONCE(nrsim_nl_registered, true);
	return 0;
}

/**
 * nrsim_netlink_exit() - unregister the family.
 *
 * Call after every device is gone.
 */
void nrsim_netlink_exit(void)
{
	WRITE_ONCE(nrsim_nl_registered, false);
	genl_unregister_family(&nrsim_nl_family);
}
