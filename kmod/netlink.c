// SPDX-License-Identifier: GPL-2.0
/*
 * netlink.c - the "neuronsim" generic netlink family
 * (uapi/linux/neuronsim_netlink.h, Documentation/netlink/neuronsim.yaml).
 *
 *   GET_DEVICE	doit: arch, cores, HBM channels, models, HBM in use
 *   GET_MODEL	doit by MODEL_ID, dump of every model (any fd's)
 *   GET_VARS	dump of one model's staged variables
 *   "monitor"	MODEL_LOADED, MODEL_UNLOADED, LOAD_FAILED notifications
 *
 * Every operation is strictly validated (.resv_start_op covers them all):
 * an attribute a command does not take is refused.
 *
 * Who sees what: a model's counts are public (GET_MODEL, events).  Its
 * variables' names and physical addresses (GET_VARS) are shown only to its
 * owner - a task of the thread group that loaded it - or to a caller with
 * CAP_SYS_ADMIN; anyone else gets -EPERM.
 *
 * The family keeps its own index of published models: an xarray keyed by
 * model id whose entries hold the model and the loader's struct pid.  The
 * loaded/unloaded hooks add and remove entries, under the owning file's
 * lock, before the model's RCU grace period, so a reader that finds an
 * entry under rcu_read_lock() may read the model (which is immutable once
 * published) until rcu_read_unlock().  Dumps resume by model id (GET_MODEL)
 * or by (subgraph, record) (GET_VARS) kept in cb->args.
 */
#include <linux/capability.h>
#include <linux/pid.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/xarray.h>
#include <net/genetlink.h>

#include <linux/neuronsim_netlink.h>

#include "neuronsim.h"
#include "netlink.h"

/**
 * struct nsim_nl_entry - one published model in the family's index.
 * @m: the model; valid under rcu_read_lock() while the entry is found.
 * @owner: thread group that loaded it (reference held).
 * @rcu: frees the entry after readers are done.
 */
struct nsim_nl_entry {
	struct nsim_model *m;
	struct pid *owner;
	struct rcu_head rcu;
};

static DEFINE_XARRAY(nsim_nl_models);
static bool nsim_nl_registered;

enum nsim_nl_mcgrp {
	NSIM_NL_MCGRP_MONITOR,
};

static const struct genl_multicast_group nsim_nl_mcgrps[] = {
	[NSIM_NL_MCGRP_MONITOR] = { .name = NEURONSIM_GENL_MCGRP_MONITOR },
};

static const struct nla_policy nsim_nl_model_id_policy[NEURONSIM_A_MODEL_ID + 1] = {
	[NEURONSIM_A_MODEL_ID] = NLA_POLICY_MIN(NLA_U32, 1),
};

static struct genl_family nsim_nl_family;

static void nsim_nl_entry_free(struct rcu_head *head)
{
	struct nsim_nl_entry *e = container_of(head, struct nsim_nl_entry, rcu);

	put_pid(e->owner);
	kfree(e);
}

static int nsim_nl_put_model(struct sk_buff *skb, const struct nsim_model *m,
			     struct pid *owner)
{
	if (nla_put_u32(skb, NEURONSIM_A_MODEL_ID, m->id) ||
	    nla_put_u32(skb, NEURONSIM_A_MODEL_OWNER_PID,
			owner ? pid_vnr(owner) : 0) ||
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
static int nsim_nl_fill_model(struct sk_buff *skb, const struct nsim_model *m,
			      struct pid *owner, u32 portid, u32 seq,
			      int flags, u8 cmd)
{
	void *hdr;

	hdr = genlmsg_put(skb, portid, seq, &nsim_nl_family, flags, cmd);
	if (!hdr)
		return -EMSGSIZE;
	if (nsim_nl_put_model(skb, m, owner)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

static int nsim_nl_get_device_doit(struct sk_buff *skb, struct genl_info *info)
{
	const struct kbin_gen *a;
	struct nsim_device *nd;
	struct sk_buff *msg;
	void *hdr;

	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	nsim_devices_lock();
	nd = nsim_device_find(0);
	if (!nd) {
		nsim_devices_unlock();
		nlmsg_free(msg);
		return -ENODEV;
	}
	a = nd->arch;
	hdr = genlmsg_put_reply(msg, info, &nsim_nl_family, 0,
				NEURONSIM_CMD_GET_DEVICE);
	if (!hdr)
		goto err_free;
	if (nla_put_string(msg, NEURONSIM_A_DEV_ARCH_NAME, a->name) ||
	    nla_put_u32(msg, NEURONSIM_A_DEV_ARCH_GEN, a->gen) ||
	    nla_put_u32(msg, NEURONSIM_A_DEV_NUM_CORES, a->num_cores) ||
	    nla_put_u32(msg, NEURONSIM_A_DEV_NUM_HBM_CHANNELS,
			a->num_hbm_channels) ||
	    nla_put_u64_64bit(msg, NEURONSIM_A_DEV_HBM_CHANNEL_SIZE,
			      a->hbm_channel_size, NEURONSIM_A_PAD) ||
	    nla_put_u32(msg, NEURONSIM_A_DEV_NUM_MODELS,
			atomic64_read(&nd->stats.models)) ||
	    nla_put_u64_64bit(msg, NEURONSIM_A_DEV_HBM_USED,
			      nsim_hbm_used_total(nd), NEURONSIM_A_PAD))
		goto err_free;
	nsim_devices_unlock();
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);

err_free:
	nsim_devices_unlock();
	nlmsg_free(msg);
	return -EMSGSIZE;
}

static int nsim_nl_get_model_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nsim_nl_entry *e;
	struct sk_buff *msg;
	u32 id;
	int err;

	if (GENL_REQ_ATTR_CHECK(info, NEURONSIM_A_MODEL_ID))
		return -EINVAL;
	id = nla_get_u32(info->attrs[NEURONSIM_A_MODEL_ID]);

	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	rcu_read_lock();
	e = xa_load(&nsim_nl_models, id);
	if (!e) {
		rcu_read_unlock();
		nlmsg_free(msg);
		NL_SET_ERR_MSG_ATTR(info->extack,
				    info->attrs[NEURONSIM_A_MODEL_ID],
				    "no model with this id");
		return -ENOENT;
	}
	err = nsim_nl_fill_model(msg, e->m, e->owner, info->snd_portid,
				 info->snd_seq, 0, NEURONSIM_CMD_GET_MODEL);
	rcu_read_unlock();
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	return genlmsg_reply(msg, info);
}

/* cb->args[0]: the next model id to emit */
static int nsim_nl_get_model_dumpit(struct sk_buff *skb,
				    struct netlink_callback *cb)
{
	struct nsim_nl_entry *e;
	unsigned long id;
	int err = 0;

	rcu_read_lock();
	xa_for_each_start(&nsim_nl_models, id, e, cb->args[0]) {
		err = nsim_nl_fill_model(skb, e->m, e->owner,
					 NETLINK_CB(cb->skb).portid,
					 cb->nlh->nlmsg_seq, NLM_F_MULTI,
					 NEURONSIM_CMD_GET_MODEL);
		if (err)
			break;
		cb->args[0] = id + 1;
	}
	rcu_read_unlock();
	if (err && !skb->len)
		return err;
	return skb->len;
}

static bool nsim_nl_may_see_vars(const struct nsim_nl_entry *e,
				 const struct sk_buff *skb)
{
	return e->owner == task_tgid(current) ||
	       netlink_capable(skb, CAP_SYS_ADMIN);
}

/*
 * GET_VARS dump start: check the model and the caller once.
 * cb->args[0]: model id; [1]: subgraph; [2]: record within it.
 */
static int nsim_nl_get_vars_start(struct netlink_callback *cb)
{
	const struct genl_dumpit_info *info = genl_dumpit_info(cb);
	struct nlattr *attr = info->attrs[NEURONSIM_A_MODEL_ID];
	struct nsim_nl_entry *e;
	int err = 0;
	u32 id;

	if (!attr) {
		NL_SET_ERR_MSG(cb->extack, "GET_VARS needs MODEL_ID");
		return -EINVAL;
	}
	id = nla_get_u32(attr);
	rcu_read_lock();
	e = xa_load(&nsim_nl_models, id);
	if (!e) {
		NL_SET_ERR_MSG_ATTR(cb->extack, attr, "no model with this id");
		err = -ENOENT;
	} else if (!nsim_nl_may_see_vars(e, cb->skb)) {
		NL_SET_ERR_MSG_ATTR(cb->extack, attr,
				    "names and addresses only for the loading process or CAP_SYS_ADMIN");
		err = -EPERM;
	}
	rcu_read_unlock();
	cb->args[0] = id;
	cb->args[1] = 0;
	cb->args[2] = 0;
	return err;
}

static int nsim_nl_put_var(struct sk_buff *skb, struct netlink_callback *cb,
			   const struct nsim_model *m, u32 sgi, u32 i)
{
	const struct nsim_sg *sg = &m->sg[sgi];
	const struct nsim_mr *mr = &sg->mrs[i];
	const char *name = "";
	void *hdr;

	if (sg->names && sg->cold)
		name = sg->names + sg->cold[i].name_off;
	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &nsim_nl_family, NLM_F_MULTI, NEURONSIM_CMD_GET_VARS);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(skb, NEURONSIM_A_MODEL_ID, m->id) ||
	    nla_put_u32(skb, NEURONSIM_A_VAR_SUBGRAPH, sgi) ||
	    nla_put_u32(skb, NEURONSIM_A_VAR_ID, mr->var_id) ||
	    nla_put_string(skb, NEURONSIM_A_VAR_NAME, name) ||
	    nla_put_u32(skb, NEURONSIM_A_VAR_KIND, mr->type) ||
	    nla_put_u64_64bit(skb, NEURONSIM_A_VAR_SIZE, mr->size,
			      NEURONSIM_A_PAD) ||
	    (mr->pa != NSIM_PA_UNSTAGED &&
	     nla_put_u64_64bit(skb, NEURONSIM_A_VAR_PHYSICAL_ADDRESS, mr->pa,
			       NEURONSIM_A_PAD))) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

static int nsim_nl_get_vars_dumpit(struct sk_buff *skb,
				   struct netlink_callback *cb)
{
	unsigned long sgi = cb->args[1], i = cb->args[2];
	const struct nsim_nl_entry *e;
	const struct nsim_model *m;
	int err = 0;

	rcu_read_lock();
	e = xa_load(&nsim_nl_models, cb->args[0]);
	if (!e) {
		/* unloaded between two parts of the dump */
		rcu_read_unlock();
		return -ENOENT;
	}
	m = e->m;
	for (; sgi < m->num_sg; sgi++, i = 0) {
		for (; i < m->sg[sgi].nmem; i++) {
			err = nsim_nl_put_var(skb, cb, m, sgi, i);
			if (err)
				goto out;
		}
	}
out:
	rcu_read_unlock();
	cb->args[1] = sgi;
	cb->args[2] = i;
	if (err && !skb->len)
		return err;
	return skb->len;
}

static const struct genl_ops nsim_nl_ops[] = {
	{
		.cmd = NEURONSIM_CMD_GET_DEVICE,
		.doit = nsim_nl_get_device_doit,
	},
	{
		.cmd = NEURONSIM_CMD_GET_MODEL,
		.doit = nsim_nl_get_model_doit,
		.dumpit = nsim_nl_get_model_dumpit,
		.policy = nsim_nl_model_id_policy,
		.maxattr = NEURONSIM_A_MODEL_ID,
	},
	{
		.cmd = NEURONSIM_CMD_GET_VARS,
		.start = nsim_nl_get_vars_start,
		.dumpit = nsim_nl_get_vars_dumpit,
		.policy = nsim_nl_model_id_policy,
		.maxattr = NEURONSIM_A_MODEL_ID,
	},
};

static struct genl_family nsim_nl_family __ro_after_init = {
	.name = NEURONSIM_GENL_NAME,
	.version = NEURONSIM_GENL_VERSION,
	.module = THIS_MODULE,
	.parallel_ops = true,
	.resv_start_op = NEURONSIM_CMD_GET_DEVICE,
	.ops = nsim_nl_ops,
	.n_ops = ARRAY_SIZE(nsim_nl_ops),
	.mcgrps = nsim_nl_mcgrps,
	.n_mcgrps = ARRAY_SIZE(nsim_nl_mcgrps),
};

static bool nsim_nl_listening(void)
{
	return READ_ONCE(nsim_nl_registered) &&
	       genl_has_listeners(&nsim_nl_family, &init_net,
				  NSIM_NL_MCGRP_MONITOR);
}

static void nsim_nl_notify_model(u8 cmd, const struct nsim_model *m,
				 struct pid *owner)
{
	struct sk_buff *msg;

	if (!nsim_nl_listening())
		return;
	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return;
	if (nsim_nl_fill_model(msg, m, owner, 0, 0, 0, cmd)) {
		nlmsg_free(msg);
		return;
	}
	genlmsg_multicast(&nsim_nl_family, msg, 0, NSIM_NL_MCGRP_MONITOR,
			  GFP_KERNEL);
}

/**
 * nsim_netlink_notify_loaded() - a model was published.
 * @m: the model, just given its id.
 *
 * Adds @m to the family's index (GET_MODEL, GET_VARS) with the calling
 * thread group as its owner, and sends MODEL_LOADED to "monitor".
 *
 * Context: process context of the loading task, the owning file's lock
 * held, after nsim_model_publish() succeeded.
 */
void nsim_netlink_notify_loaded(struct nsim_model *m)
{
	struct nsim_nl_entry *e;
	struct pid *owner = task_tgid(current);

	e = kzalloc(sizeof(*e), GFP_KERNEL);
	if (e) {
		e->m = m;
		e->owner = get_pid(owner);
		if (xa_insert(&nsim_nl_models, m->id, e, GFP_KERNEL)) {
			put_pid(e->owner);
			kfree(e);
		}
	}
	nsim_nl_notify_model(NEURONSIM_CMD_MODEL_LOADED, m, owner);
}

/**
 * nsim_netlink_notify_unloaded() - a model is being unpublished.
 * @m: the model, still intact.
 *
 * Removes @m from the family's index and sends MODEL_UNLOADED.  Must be
 * called before the RCU grace period that precedes freeing @m.
 *
 * Context: process context, the owning file's lock held.
 */
void nsim_netlink_notify_unloaded(struct nsim_model *m)
{
	struct nsim_nl_entry *e = xa_erase(&nsim_nl_models, m->id);

	nsim_nl_notify_model(NEURONSIM_CMD_MODEL_UNLOADED, m,
			     e ? e->owner : NULL);
	if (e)
		call_rcu(&e->rcu, nsim_nl_entry_free);
}

/**
 * nsim_netlink_notify_load_failed() - NEURONSIM_IOC_LOAD failed.
 * @nd: the device of the load.
 * @err: the negative errno LOAD returns.
 * @e: why: reason, field, subgraph and record (NULL: unknown).
 *
 * Sends LOAD_FAILED with the calling thread group as OWNER_PID.
 *
 * Context: process context of the loading task.
 */
void nsim_netlink_notify_load_failed(struct nsim_device *nd, int err,
				     const struct nsim_load_err *e)
{
	struct sk_buff *msg;
	void *hdr;
	s32 record = -1;

	if (!nsim_nl_listening())
		return;
	if (e && e->record >= 0 && e->record <= S32_MAX)
		record = e->record;
	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return;
	hdr = genlmsg_put(msg, 0, 0, &nsim_nl_family, 0,
			  NEURONSIM_CMD_LOAD_FAILED);
	if (!hdr)
		goto err_free;
	if (nla_put_u32(msg, NEURONSIM_A_MODEL_OWNER_PID,
			task_tgid_vnr(current)) ||
	    nla_put_u32(msg, NEURONSIM_A_ERR_ERRNO, -err) ||
	    nla_put_u32(msg, NEURONSIM_A_ERR_REASON, e ? e->reason : 0) ||
	    nla_put_u32(msg, NEURONSIM_A_ERR_FIELD, e ? e->field : 0) ||
	    nla_put_s32(msg, NEURONSIM_A_ERR_SUBGRAPH, e ? e->subgraph : -1) ||
	    nla_put_s32(msg, NEURONSIM_A_ERR_RECORD, record))
		goto err_free;
	genlmsg_end(msg, hdr);
	genlmsg_multicast(&nsim_nl_family, msg, 0, NSIM_NL_MCGRP_MONITOR,
			  GFP_KERNEL);
	return;

err_free:
	nlmsg_free(msg);
}

/**
 * nsim_netlink_init() - register the "neuronsim" generic netlink family.
 *
 * Call before /dev/neuronsim exists, so no model can be loaded before the
 * family can report it.
 *
 * Return: 0 or the negative errno of genl_register_family().
 */
int nsim_netlink_init(void)
{
	int ret;

	ret = genl_register_family(&nsim_nl_family);
	if (ret)
		return ret;
	WRITE_ONCE(nsim_nl_registered, true);
	return 0;
}

/**
 * nsim_netlink_exit() - unregister the family; wait for entry frees.
 *
 * Call after /dev/neuronsim is gone (every model unloaded).
 */
void nsim_netlink_exit(void)
{
	struct nsim_nl_entry *e;
	unsigned long id;

	WRITE_ONCE(nsim_nl_registered, false);
	genl_unregister_family(&nsim_nl_family);
	/* defensive: entries of models whose unload hook never ran */
	xa_for_each(&nsim_nl_models, id, e) {
		xa_erase(&nsim_nl_models, id);
		call_rcu(&e->rcu, nsim_nl_entry_free);
	}
	rcu_barrier();
	xa_destroy(&nsim_nl_models);
}
