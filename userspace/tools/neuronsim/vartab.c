// SPDX-License-Identifier: GPL-2.0
/*
 * vartab.c - the variable table of one model, from a plan or netlink.
 *
 * A MODEL is a model id (digits); anything else is a KBIN plan file,
 * which is loaded on a private fd for the command, on the first free
 * NeuronCores, and unloaded at its end.  Either way names, kinds, sizes
 * and addresses come from netlink GET_VARS (owner process or
 * CAP_SYS_ADMIN only), as the kernel staged them: a plan is read once,
 * to load it, and the kernel checks it.  Models belong to the fd that
 * loaded them, so for a MODEL another process loaded resolve applies the
 * kernel's rule (kmod/plan/resolve_core.h, the same code) to that table.
 * Documentation/userspace.rst.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "main.h"
#include "nsim_file.h"
#include "kbin_reader.h"
#include "resolve_core.h"

void vartab_init(struct vartab *t)
{
	memset(t, 0, sizeof(*t));
	t->fd = -1;
}

void vartab_free(struct vartab *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		free((char *)t->v[i].name);
	free(t->v);
	free(t->plan);
	if (t->fd >= 0)
		neuronsim_close(t->fd);	/* unloads the plan's model */
	vartab_init(t);
}

static int vartab_add(struct vartab *t, const struct neuronsim_map_var *v)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 64;
		struct neuronsim_map_var *nv = realloc(t->v, cap * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		t->v = nv;
		t->cap = cap;
	}
	t->v[t->n] = *v;
	t->v[t->n].name = strdup(v->name ? v->name : "");
	if (!t->v[t->n].name)
		return -ENOMEM;
	t->n++;
	return 0;
}

static int vartab_nl_cb(const struct neuronsim_nl_var *nv, void *ctx)
{
	struct neuronsim_map_var v = {
		.subgraph = nv->subgraph, .var_id = nv->var_id,
		.mr_type = nv->mr_type, .size = nv->size,
		.address = nv->physical_address, .staged = nv->staged,
		.name = nv->name,
	};

	return vartab_add(ctx, &v) ? 1 : 0;
}

static int vartab_from_model(struct vartab *t, __u32 model_id)
{
	struct neuronsim_nl *nl;
	int err;

	t->model_id = model_id;
	if (nl_open_msg(&nl, true))
		return -1;
	err = neuronsim_nl_list_vars(nl, model_id, vartab_nl_cb, t);
	neuronsim_nl_close(nl);
	if (err == -ENOENT) {
		errmsg_errno(err, "model %u: no such model", model_id);
		return -1;
	}
	if (err == -EPERM) {
		errmsg_errno(err, "model %u: names and addresses are visible only to the process that loaded it or to CAP_SYS_ADMIN",
			     model_id);
		return -1;
	}
	if (err) {
		errmsg_errno(err, "model %u: GET_VARS: %s", model_id,
			     strerror(-err));
		return -1;
	}
	return 0;
}

/*
 * Load @path on a private fd from NeuronCore @core (the kernel checks the
 * plan and reports why it refuses one), then take the variables - names,
 * kinds, sizes, addresses - from netlink GET_VARS as the kernel staged
 * them (vartab_from_model()): the plan is not read or checked again.
 * The model lives as long as t->fd.
 */
int vartab_from_plan(struct vartab *t, const char *path, __u32 core)
{
	char log[8192];
	NEURONSIM_OPTS_INIT(load_opts, lo, .first_core = core, .log_buf = log,
			    .log_size = sizeof(log));
	int err;

	t->from_plan = true;
	err = nsim_read_file(path, &t->plan, &t->plan_len);
	if (err) {
		errmsg_errno(err, "%s: %s", path, strerror(err < 0 ? -err : err));
		return -1;
	}
	t->fd = open_device();
	if (t->fd < 0)
		return -1;
	log[0] = '\0';
	err = neuronsim_load(t->fd, t->plan, t->plan_len, &lo, &t->model_id);
	if (err) {
		print_load_failure(path, err, &lo, log);
		return -1;
	}
	return vartab_from_model(t, t->model_id);
}

/*
 * The SBUF partition size and stride (GET_INFO) of the device of -d N;
 * 0 when unknown.
 */
static void vartab_sbuf_geometry(struct vartab *t)
{
	NEURONSIM_OPTS_INIT(open_opts, o, .device = dev_or_0());
	struct neuronsim_info info;
	int fd = neuronsim_open(&o);

	if (fd < 0)
		return;
	if (!neuronsim_get_info(fd, &info) && info.sbuf_partitions) {
		t->sb_part_size = info.sbuf_partition_size;
		t->sb_stride = (__u32)(info.sbuf_window_size / info.sbuf_partitions);
	}
	neuronsim_close(fd);
}

/* a MODEL id (netlink table) or a PLAN file (loaded for the command) */
int vartab_open(struct vartab *t, const char *src, __u32 core)
{
	__u32 id;

	vartab_init(t);
	vartab_sbuf_geometry(t);
	if (is_model_id(src, &id))
		return vartab_from_model(t, id);
	return vartab_from_plan(t, src, core);
}

/* the var a reference names; NULL with a message when none */
const struct neuronsim_map_var *vartab_find(const struct vartab *t,
					    const struct neuronsim_var_ref *r,
					    const char *text)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		const struct neuronsim_map_var *v = &t->v[i];

		if (r->has_subgraph && v->subgraph != r->subgraph)
			continue;
		if (r->by_id ? v->var_id == r->var_id : !strcmp(v->name, r->name))
			return v;
	}
	if (r->by_id)
		errmsg_errno(ENOENT, "'%s': no var_id %u in %s", text,
			     r->var_id, r->has_subgraph ? "that subgraph" :
			     "any subgraph");
	else
		errmsg_errno(ENOENT, "'%s': no variable named '%s' in %s", text,
			     r->name, r->has_subgraph ? "that subgraph" :
			     "any subgraph");
	return NULL;
}

/* the kernel's resolve rule, its own code, on a netlink table entry */
int table_resolve(const struct vartab *t, const struct neuronsim_map_var *v,
		  __u64 off, __u64 size, __u64 *addr)
{
	return nrsim_rc_rule(v->mr_type, v->size,
			    v->staged ? v->address : NRSIM_PA_UNSTAGED,
			    t->sb_part_size, t->sb_stride, off, size, addr);
}

/*
 * When [@off, +@size) of MR_SB @v touches the gap past an SBUF partition
 * (the rule's -ERANGE inside the variable), say where into @buf; else NULL.
 */
const char *sbuf_gap_note(const struct vartab *t, const struct neuronsim_map_var *v,
			  __u64 off, __u64 size, char *buf, size_t cap)
{
	__u64 end;

	if (v->mr_type != KBIN_MR_SB || __builtin_add_overflow(off, size, &end) ||
	    end > v->size || !nrsim_rc_sbuf_gap(t->sb_part_size, t->sb_stride, off, size))
		return NULL;
	return kbin_sbuf_gap_strerror(buf, cap, v->name, off, size,
				      t->sb_part_size, t->sb_stride);
}

/* "'TEXT' (sgN #ID KIND, SIZE bytes)" prefix of a per-variable error */
void var_errmsg(const char *text, const struct neuronsim_map_var *v,
		const char *what, int err)
{
	errmsg_errno(err, "'%s' (sg%u #%u %s, %llu bytes)%s%s: %s (%s)", text,
		     v->subgraph, v->var_id, neuronsim_mr_type_str(v->mr_type),
		     (unsigned long long)v->size, what ? ": " : "",
		     what ? what : "", strerror(-err), tool_errno_name(err));
}

/*
 * A failed resolve of a known variable: var_errmsg()'s prefix, the errno,
 * then why: where in the SBUF gap for an MR_SB access inside the variable
 * (sbuf_gap_note()), else the runtime's words and ours
 * (neuronsim_resolve_strerror()); the text also goes into @o (JSON) when
 * given.
 */
void resolve_errmsg(const struct vartab *t, const char *text,
		    const struct neuronsim_map_var *v,
		    const struct neuronsim_var_ref *r, int err, json_t *o)
{
	char why[NEURONSIM_RESOLVE_STRERROR_MAX];
	const char *gap = err == -ERANGE ?
		sbuf_gap_note(t, v, r->offset, r->size, why, sizeof(why)) : NULL;

	if (gap) {
		var_errmsg(text, v, gap, err);
		if (o)
			json_object_set_new(o, "message", json_text(gap));
		return;
	}
	if (err != -ERANGE && err != -ENODATA && err != -EINVAL) {
		var_errmsg(text, v, NULL, err);
		return;
	}
	neuronsim_resolve_strerror(err, v->name, v->mr_type, v->size,
				   r->offset, r->size, why, sizeof(why));
	errmsg_errno(err, "'%s' (sg%u #%u %s, %llu bytes): %s (%s): %s", text,
		     v->subgraph, v->var_id, neuronsim_mr_type_str(v->mr_type),
		     (unsigned long long)v->size, strerror(-err),
		     tool_errno_name(err), why);
	if (o)
		json_object_set_new(o, "message", json_text(why));
}
