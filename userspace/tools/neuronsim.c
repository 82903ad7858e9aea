// SPDX-License-Identifier: GPL-2.0
/*
 * neuronsim - command-line client of the simulated Neuron device, in the
 * manner of ip(8) and bpftool(8).  Built on libneuronsim (ioctls and the
 * "neuronsim" generic netlink family) and the host KBIN reader.
 *
 *   neuronsim [-j|-p] [-d N] info
 *   neuronsim [-j|-p] load PLAN [--core N|any] [--hold [--commands] [--exit-on-eof]]
 *   neuronsim [-j|-p] resolve PLAN|MODEL VAR[+OFFSET[:SIZE]]...
 *   neuronsim [-j|-p] models
 *   neuronsim [-j|-p] vars PLAN|MODEL
 *   neuronsim [-j|-p] read PLAN|MODEL VAR[+OFFSET[:SIZE]]
 *   neuronsim [-j|-p] monitor [--count N]
 *   neuronsim [-j|-p] map PLAN|MODEL -o FILE.svg
 *   neuronsim [-j|-p] dma PLAN [--ring sgN/QUEUE] [--from I] [--count N]
 *
 * -d N (before the subcommand) names the device, /dev/neuronsimN, for
 * every subcommand; without it they use device 0 (/dev/neuronsim), and
 * "models" and "monitor" every device.
 * A MODEL is a model id (digits); anything else is a KBIN plan file, which
 * is loaded on a private fd for the command, on the first free NeuronCores,
 * and unloaded at its end.
 * Models belong to the fd that loaded them, so for a MODEL another
 * process loaded, names and addresses come from netlink GET_VARS (owner
 * process or CAP_SYS_ADMIN only) and resolve applies the kernel's rule
 * (kmod/plan/resolve_core.h, the same code) to that table.  Bytes move only through the loading fd, so from the
 * shell "read" takes a PLAN (loaded, read, unloaded), and "load --hold"
 * runs commands read from stdin (resolve, read, vars, info) against the
 * model it holds.
 * Documentation/userspace.rst has examples.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "json_text.h"
#include "libneuronsim.h"
#include "kbin_dma.h"
#include "kbin_kind.h"
#include "kbin_reader.h"
#include "resolve_core.h"

#define READ_DEFAULT_MAX	4096U

static bool json_out;
static size_t json_flags = JSON_COMPACT;
static int dev_index = -1;	/* -d N; -1: none given (device 0) */
static const char *prog = "neuronsim";
static const char *cmd_name = "";

static void errmsg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void errmsg(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);		/* keep the order of both streams in one file */
	fprintf(stderr, "%s: %s%s", prog, cmd_name, *cmd_name ? ": " : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void json_print(json_t *j)
{
	json_dumpf(j, stdout, json_flags | JSON_ENSURE_ASCII);
	fputc('\n', stdout);
	fflush(stdout);
	json_decref(j);
}

static const char *errno_name(int err)
{
	switch (err < 0 ? -err : err) {
	case ENOENT: return "ENOENT";
	case ERANGE: return "ERANGE";
	case EINVAL: return "EINVAL";
	case ENODATA: return "ENODATA";
	case EPERM: return "EPERM";
	case E2BIG: return "E2BIG";
	case ENOSPC: return "ENOSPC";
	case ENOMEM: return "ENOMEM";
	case EMFILE: return "EMFILE";
	case ENODEV: return "ENODEV";
	case EFAULT: return "EFAULT";
	case ENAMETOOLONG: return "ENAMETOOLONG";
	case EBUSY: return "EBUSY";
	case EINTR: return "EINTR";
	default: return "E?";
	}
}
/* the device of -d N (default device 0, the alias), with a message */
static int open_device(void)
{
	NEURONSIM_OPTS_INIT(open_opts, o, .device = dev_index > 0 ? dev_index : 0);
	int fd = neuronsim_open(&o);

	if (fd < 0) {
		if (dev_index > 0)
			errmsg("/dev/" NEURONSIM_DEVICE_NAME "%d: %s", dev_index,
			       strerror(-fd));
		else
			errmsg("%s: %s", NEURONSIM_DEV_PATH, strerror(-fd));
	}
	return fd;
}

/* netlink, naming the device of -d N in every request when given */
static int nl_open_device(struct neuronsim_nl **nl)
{
	int err = neuronsim_nl_open(nl);

	if (!err && dev_index >= 0)
		err = neuronsim_nl_set_device(*nl, dev_index);
	return err;
}

/* ------------------------------------------------------------------ */
/* A variable table, from a plan (reader + resolve) or netlink          */
/* ------------------------------------------------------------------ */

struct vartab {
	/* per variable: libneuronsim's map entry (name, kind, size, address) */
	struct neuronsim_map_var *v;
	size_t n, cap;
	/* plan source */
	void *plan;
	size_t plan_len;
	int fd;			/* device fd holding the plan's model, or -1 */
	__u32 model_id;		/* the model the table describes */
	bool from_plan;
	/* the device's SBUF geometry, for the resolve rule's MR_SB test */
	__u32 sb_part_size;
	__u32 sb_stride;
};

static void vartab_init(struct vartab *t)
{
	memset(t, 0, sizeof(*t));
	t->fd = -1;
}

static void vartab_free(struct vartab *t)
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

static bool is_model_id(const char *s, __u32 *id)
{
	unsigned long v;
	char *end;

	if (!*s || !isdigit((unsigned char)*s))
		return false;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (*end || errno || v == 0 || v > 0xffffffffUL)
		return false;
	*id = v;
	return true;
}

static void print_load_failure(const char *plan, int err,
			       const struct neuronsim_load_opts *o,
			       const char *log)
{
	if (!o->err_reason && !o->log_len) {
		errmsg("%s: %s", plan, strerror(-err));
		return;
	}
	errmsg("%s: %s (%s, reason %u: %s, subgraph %d, record %d)", plan,
	       strerror(-err), errno_name(err), o->err_reason,
	       neuronsim_reason_str(o->err_reason), o->err_subgraph,
	       o->err_record);
	if (log && *log)
		fprintf(stderr, "%s", log);
	if (log && *log && log[strlen(log) - 1] != '\n')
		fputc('\n', stderr);
}

/* the plan's names from the host reader, addresses by RESOLVE_BATCH */
static int vartab_fill_from_plan(struct vartab *t, const char *path)
{
	struct neuronsim_resolve_entry *ent;
	struct kbin_check_result res;
	struct kbin_view view;
	__u32 sg, i, num_ok;
	size_t k;
	int err;

	memset(&res, 0, sizeof(res));
	err = kbin_read(t->plan, t->plan_len, &view, &res);
	if (err) {
		errmsg("%s: not a valid KBIN plan: %s", path,
		       res.msg[0] ? res.msg : kbin_reason_str(res.reason));
		return -1;
	}
	for (sg = 0; sg < view.num_subgraphs; sg++) {
		const struct kbin_mem_ref_set *set = kbin_view_set(&view, sg);

		for (i = 0; set && i < set->nmem; i++) {
			const struct kbin_mem_ref *r = &set->mem[i];
			struct neuronsim_map_var v = {
				.subgraph = sg, .var_id = r->var_id,
				.mr_type = r->mr_type, .size = r->size,
				.name = kbin_view_str(&view, r->name),
			};

			/* a pointer table's bytes are its staged table's */
			if (kbin_kind(r->mr_type)->storage == KBIN_STORAGE_TABLE)
				v.size = kbin_ptr_table_bytes(r->size,
							      r->list.length);

			if (vartab_add(t, &v))
				goto nomem;
		}
	}
	/* addresses: one RESOLVE_BATCH of (offset 0, size 0) per var */
	if (!t->n)
		return 0;
	ent = calloc(t->n, sizeof(*ent));
	if (!ent)
		goto nomem;
	for (k = 0; k < t->n; k++) {
		ent[k].subgraph = t->v[k].subgraph;
		ent[k].var_id = t->v[k].var_id;
	}
	for (k = 0; k < t->n; k += NEURONSIM_RESOLVE_BATCH_MAX) {
		size_t cnt = t->n - k;

		if (cnt > NEURONSIM_RESOLVE_BATCH_MAX)
			cnt = NEURONSIM_RESOLVE_BATCH_MAX;
		err = neuronsim_resolve_batch(t->fd, t->model_id, ent + k, cnt,
					      &num_ok);
		if (err) {
			errmsg("%s: RESOLVE_BATCH: %s", path, strerror(-err));
			free(ent);
			return -1;
		}
	}
	for (k = 0; k < t->n; k++) {
		t->v[k].staged = ent[k].status == 0;
		t->v[k].address = ent[k].status == 0 ? ent[k].address : 0;
	}
	free(ent);
	return 0;
nomem:
	errmsg("%s", strerror(ENOMEM));
	return -1;
}

/*
 * Load @path on a private fd from NeuronCore @core (the kernel checks the
 * plan and reports why it refuses one), then take the variable names from
 * the host reader.  The model lives as long as t->fd.
 */
static int vartab_from_plan(struct vartab *t, const char *path, __u32 core)
{
	char log[8192];
	NEURONSIM_OPTS_INIT(load_opts, lo, .first_core = core, .log_buf = log,
			    .log_size = sizeof(log));
	int err;

	t->from_plan = true;
	err = kbin_read_file(path, &t->plan, &t->plan_len);
	if (err) {
		errmsg("%s: %s", path, strerror(err < 0 ? -err : err));
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
	return vartab_fill_from_plan(t, path);
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
	err = nl_open_device(&nl);
	if (err) {
		errmsg("generic netlink family '%s': %s%s", NEURONSIM_GENL_NAME,
		       strerror(-err), err == -ENOENT ?
		       " (is neuronsim.ko loaded?)" : "");
		return -1;
	}
	err = neuronsim_nl_list_vars(nl, model_id, vartab_nl_cb, t);
	neuronsim_nl_close(nl);
	if (err == -ENOENT) {
		errmsg("model %u: no such model", model_id);
		return -1;
	}
	if (err == -EPERM) {
		errmsg("model %u: names and addresses are visible only to the process that loaded it or to CAP_SYS_ADMIN",
		       model_id);
		return -1;
	}
	if (err) {
		errmsg("model %u: GET_VARS: %s", model_id, strerror(-err));
		return -1;
	}
	return 0;
}

/*
 * The SBUF partition size and stride (GET_INFO) of the device of -d N;
 * 0 when unknown.
 */
static void vartab_sbuf_geometry(struct vartab *t)
{
	NEURONSIM_OPTS_INIT(open_opts, o, .device = dev_index > 0 ? dev_index : 0);
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
static int vartab_open(struct vartab *t, const char *src, __u32 core)
{
	__u32 id;

	vartab_init(t);
	vartab_sbuf_geometry(t);
	if (is_model_id(src, &id))
		return vartab_from_model(t, id);
	return vartab_from_plan(t, src, core);
}

/* the var a reference names; NULL with a message when none */
static const struct neuronsim_map_var *vartab_find(const struct vartab *t,
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
		errmsg("'%s': no var_id %u in %s", text, r->var_id,
		       r->has_subgraph ? "that subgraph" : "any subgraph");
	else
		errmsg("'%s': no variable named '%s' in %s", text, r->name,
		       r->has_subgraph ? "that subgraph" : "any subgraph");
	return NULL;
}

/* the kernel's resolve rule, its own code, on a netlink table entry */
static int table_resolve(const struct vartab *t, const struct neuronsim_map_var *v,
			 __u64 off, __u64 size, __u64 *addr)
{
	return nsim_rc_rule(v->mr_type, v->size,
			    v->staged ? v->address : NSIM_PA_UNSTAGED,
			    t->sb_part_size, t->sb_stride, off, size, addr);
}

/*
 * When [@off, +@size) of MR_SB @v touches the gap past an SBUF partition
 * (the rule's -ERANGE inside the variable), say where into @buf; else NULL.
 */
static const char *sbuf_gap_note(const struct vartab *t, const struct neuronsim_map_var *v,
				 __u64 off, __u64 size, char *buf, size_t cap)
{
	__u64 end;

	if (v->mr_type != KBIN_MR_SB || __builtin_add_overflow(off, size, &end) ||
	    end > v->size || !nsim_rc_sbuf_gap(t->sb_part_size, t->sb_stride, off, size))
		return NULL;
	snprintf(buf, cap, "offset %llu is byte %llu of SBUF partition %llu, %s its %u bytes",
		 (unsigned long long)off, (unsigned long long)(off % t->sb_stride),
		 (unsigned long long)(off / t->sb_stride),
		 off % t->sb_stride >= t->sb_part_size ? "in the gap past" :
		 "and the access runs past", t->sb_part_size);
	return buf;
}

/* "'TEXT' (sgN #ID KIND, SIZE bytes)" prefix of a per-variable error */
static void var_errmsg(const char *text, const struct neuronsim_map_var *v, const char *what,
		       int err)
{
	errmsg("'%s' (sg%u #%u %s, %llu bytes)%s%s: %s (%s)", text,
	       v->subgraph, v->var_id, neuronsim_mr_type_str(v->mr_type),
	       (unsigned long long)v->size, what ? ": " : "", what ? what : "",
	       strerror(-err), errno_name(err));
}

/*
 * A failed resolve of a known variable: var_errmsg()'s prefix, the errno,
 * then why: where in the SBUF gap for an MR_SB access inside the variable
 * (sbuf_gap_note()), else the runtime's words and ours
 * (neuronsim_resolve_strerror()); the text also goes into @o (JSON) when
 * given.
 */
static void resolve_errmsg(const struct vartab *t, const char *text,
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
	errmsg("'%s' (sg%u #%u %s, %llu bytes): %s (%s): %s", text,
	       v->subgraph, v->var_id, neuronsim_mr_type_str(v->mr_type),
	       (unsigned long long)v->size, strerror(-err), errno_name(err),
	       why);
	if (o)
		json_object_set_new(o, "message", json_text(why));
}

/* ------------------------------------------------------------------ */
/* Subcommands                                                         */
/* ------------------------------------------------------------------ */

static bool want_help(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return true;
	return false;
}

/* GET_INFO on a fd of its own */
static int device_info(struct neuronsim_info *info)
{
	int fd, err;

	fd = open_device();
	if (fd < 0)
		return -1;
	err = neuronsim_get_info(fd, info);
	neuronsim_close(fd);
	if (err) {
		errmsg("GET_INFO: %s", strerror(-err));
		return -1;
	}
	return 0;
}

/* who holds each NeuronCore (netlink GET_DEVICE); false without netlink */
static bool core_owners(struct neuronsim_nl_device *d)
{
	struct neuronsim_nl *nl;
	int err;

	err = neuronsim_nl_open(&nl);
	if (!err)
		err = neuronsim_nl_set_device(nl, dev_index > 0 ? dev_index : 0);
	if (!err)
		err = neuronsim_nl_get_device(nl, d);
	neuronsim_nl_close(nl);
	return !err;
}

static int cmd_info(int argc, char **argv)
{
	struct neuronsim_nl_device d;
	struct neuronsim_info info;
	unsigned int i;
	bool owners;

	if (want_help(argc, argv) || argc > 1) {
		printf("usage: %s [-j] [-d N] info\n"
		       "  the device's generation, NeuronCores (and which process holds\n"
		       "  each), SBUF, PSUM, HBM channels, scratchpad geometry and limits\n"
		       "  (NEURONSIM_IOC_GET_INFO, netlink GET_DEVICE)\n", prog);
		return argc > 1 && !want_help(argc, argv) ? 2 : 0;
	}
	if (device_info(&info))
		return 1;
	owners = core_owners(&d);
	if (json_out) {
		json_t *hbm = json_array(), *sbuf = json_array(), *cores = json_array();

		for (i = 0; i < info.num_hbm_channels && i < NEURONSIM_MAX_HBM_CHANNELS; i++)
			json_array_append_new(hbm, json_integer(info.hbm_base[i]));
		for (i = 0; i < info.num_cores; i++)
			json_array_append_new(sbuf, json_integer(info.sbuf_base +
								 i * info.sbuf_window_size));
		for (i = 0; owners && i < info.num_cores && i < NEURONSIM_MAX_CORES; i++)
			json_array_append_new(cores, json_pack("{s:I,s:I,s:I}", "core",
				(json_int_t)i, "owner_pid", (json_int_t)d.cores[i].owner_pid,
				"models", (json_int_t)d.cores[i].num_models));
		json_print(json_pack("{s:s,s:I,s:I,s:I,s:I,s:I,s:I,s:o,s:o,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:o}",
				     "arch_name", info.arch_name,
				     "arch_gen", (json_int_t)info.arch_gen,
				     "abi_version", (json_int_t)info.abi_version,
				     "features", (json_int_t)info.features,
				     "num_cores", (json_int_t)info.num_cores,
				     "num_hbm_channels", (json_int_t)info.num_hbm_channels,
				     "hbm_channel_size", (json_int_t)info.hbm_channel_size,
				     "hbm_base", hbm, "sbuf_base", sbuf,
				     "sbuf_window_size", (json_int_t)info.sbuf_window_size,
				     "sbuf_partitions", (json_int_t)info.sbuf_partitions,
				     "sbuf_partition_size", (json_int_t)info.sbuf_partition_size,
				     "psum_size", (json_int_t)info.psum_size,
				     "scratchpad_page_size", (json_int_t)info.scratchpad_page_size,
				     "scratchpad_max_pages", (json_int_t)info.scratchpad_max_pages,
				     "max_models_per_fd", (json_int_t)info.max_models_per_fd,
				     "max_plan_bytes", (json_int_t)info.max_plan_bytes,
				     "backing_limit", (json_int_t)info.backing_limit,
				     "device", (json_int_t)(dev_index > 0 ? dev_index : 0),
				     "cores", cores));
		return 0;
	}
	printf("device      %s%d: %s (generation %u), ABI %u, features 0x%llx\n",
	       NEURONSIM_DEVICE_NAME, dev_index > 0 ? dev_index : 0,
	       info.arch_name, info.arch_gen, info.abi_version,
	       (unsigned long long)info.features);
	printf("NeuronCores %u, SBUF %u x %u bytes each, PSUM %llu bytes each\n",
	       info.num_cores, info.sbuf_partitions, info.sbuf_partition_size,
	       (unsigned long long)info.psum_size);
	for (i = 0; i < info.num_cores; i++) {
		printf("  sbuf%-3u   0x%011llx  window %llu MiB", i,
		       (unsigned long long)(info.sbuf_base + i * info.sbuf_window_size),
		       (unsigned long long)info.sbuf_window_size >> 20);
		if (owners && i < NEURONSIM_MAX_CORES && d.cores[i].num_models)
			printf("  NeuronCore %u: pid %u, %u models", i,
			       d.cores[i].owner_pid, d.cores[i].num_models);
		else if (owners)
			printf("  NeuronCore %u: free", i);
		putchar('\n');
	}
	for (i = 0; i < info.num_hbm_channels && i < NEURONSIM_MAX_HBM_CHANNELS; i++)
		printf("  hbm%-4u   0x%011llx  %llu MiB\n", i,
		       (unsigned long long)info.hbm_base[i],
		       (unsigned long long)info.hbm_channel_size >> 20);
	printf("scratchpad  %llu-byte pages, at most %u per model\n",
	       (unsigned long long)info.scratchpad_page_size,
	       info.scratchpad_max_pages);
	return 0;
}

static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
	stop_signal = sig;
}

static void install_stop_handlers(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;	/* no SA_RESTART: poll/read return */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

static int parse_u32_arg(const char *what, const char *s, __u32 *out)
{
	__u64 v;

	if (!s) {
		errmsg("%s needs a value", what);
		return -EINVAL;
	}
	if (neuronsim_parse_u64(s, &v) || v > 0xffffffffULL) {
		errmsg("%s '%s' is not a number from 0 to 4294967295", what, s);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

/* one line (or JSON object) about a model of this process: MODEL_INFO */
static int print_model(const struct vartab *t, const char *plan,
		       const char *tail, bool hold)
{
	struct neuronsim_model_info mi;
	int err;

	err = neuronsim_model_info(t->fd, t->model_id, &mi);
	if (err) {
		errmsg("model %u: MODEL_INFO: %s", t->model_id, strerror(-err));
		return -1;
	}
	if (json_out) {
		json_t *o = json_pack("{s:I,s:i,s:I,s:I,s:I,s:I,s:I,s:I}",
				      "model_id", (json_int_t)t->model_id,
				      "owner_pid", (int)getpid(),
				      "target_gen", (json_int_t)mi.target_gen,
				      "num_subgraphs", (json_int_t)mi.num_subgraphs,
				      "first_core", (json_int_t)mi.first_core,
				      "num_vars", (json_int_t)mi.num_vars,
				      "hbm_bytes", (json_int_t)mi.hbm_bytes,
				      "scratchpad_bytes", (json_int_t)mi.scratchpad_bytes);

		if (plan)
			json_object_set_new(o, "hold", json_boolean(hold));
		json_print(o);
		return 0;
	}
	if (plan)
		printf("%u\tmodel %u loaded from %s: ", t->model_id,
		       t->model_id, plan);
	else
		printf("model %u: ", t->model_id);
	printf("%u subgraphs from NeuronCore %u, %llu vars, %llu bytes HBM, %llu bytes scratchpad%s\n",
	       mi.num_subgraphs, mi.first_core,
	       (unsigned long long)mi.num_vars,
	       (unsigned long long)mi.hbm_bytes,
	       (unsigned long long)mi.scratchpad_bytes, tail);
	fflush(stdout);
	return 0;
}

/* resolve each reference; the number that failed */
static int do_resolve(const struct vartab *t, int n, char **refs)
{
	json_t *arr = json_out ? json_array() : NULL;
	int i, failed = 0;

	for (i = 0; i < n; i++) {
		struct neuronsim_var_ref r;
		const struct neuronsim_map_var *v = NULL;
		char perr[256];
		__u64 addr = 0;
		int err;

		err = neuronsim_var_ref_parse(refs[i], &r, perr, sizeof(perr));
		if (err) {
			errmsg("bad VAR %s", perr);
			failed++;
			continue;
		}
		v = vartab_find(t, &r, refs[i]);
		if (!v)
			err = -ENOENT;
		else if (t->from_plan)
			err = neuronsim_resolve(t->fd, t->model_id, v->subgraph,
						v->var_id, r.offset, r.size, &addr);
		else
			err = table_resolve(t, v, r.offset, r.size, &addr);
		if (err)
			failed++;
		if (err && v && !json_out)
			resolve_errmsg(t, refs[i], v, &r, err, NULL);
		if (json_out) {
			json_t *o = json_pack("{s:o,s:I,s:I}", "var", json_text(refs[i]),
					      "offset", (json_int_t)r.offset,
					      "size", (json_int_t)r.size);

			if (err && v)
				resolve_errmsg(t, refs[i], v, &r, err, o);
			if (v) {
				json_object_set_new(o, "name", json_text(v->name));
				json_object_set_new(o, "subgraph", json_integer(v->subgraph));
				json_object_set_new(o, "var_id", json_integer(v->var_id));
				json_object_set_new(o, "mr_type",
						    json_string(neuronsim_mr_type_str(v->mr_type)));
			}
			if (err) {
				json_object_set_new(o, "error", json_string(errno_name(err)));
				json_object_set_new(o, "errno", json_integer(-err));
			} else {
				json_object_set_new(o, "address", json_integer(addr));
			}
			json_array_append_new(arr, o);
		} else if (!err) {
			printf("%s\tsg%u #%u %s\t0x%" PRIx64 "\n", refs[i], v->subgraph,
			       v->var_id, neuronsim_mr_type_str(v->mr_type),
			       (uint64_t)addr);
		}
	}
	if (json_out)
		json_print(json_pack("{s:I,s:s,s:o}", "model_id",
				     (json_int_t)t->model_id, "source",
				     t->from_plan ? "plan" : "netlink", "results", arr));
	fflush(stdout);
	return failed;
}

static void do_vars(const struct vartab *t)
{
	json_t *arr = NULL;
	size_t i;

	if (json_out)
		arr = json_array();
	else
		printf("%-3s %-7s %-18s %-12s %-18s %s\n", "sg", "var_id", "mr_type",
		       "size", "physical_address", "name");
	for (i = 0; i < t->n; i++) {
		const struct neuronsim_map_var *v = &t->v[i];

		if (json_out) {
			json_t *o = json_pack("{s:I,s:I,s:s,s:I,s:s,s:o}",
				"subgraph", (json_int_t)v->subgraph,
				"var_id", (json_int_t)v->var_id,
				"mr_type", neuronsim_mr_type_str(v->mr_type),
				"size", (json_int_t)v->size,
				"region", neuronsim_mem_region(v->mr_type),
				"name", json_text(v->name));

			json_object_set_new(o, "physical_address",
					    v->staged ? json_integer(v->address) : json_null());
			json_array_append_new(arr, o);
			continue;
		}
		if (v->staged)
			printf("%-3u %-7u %-18s %-12llu 0x%016" PRIx64 " %s\n", v->subgraph,
			       v->var_id, neuronsim_mr_type_str(v->mr_type),
			       (unsigned long long)v->size, (uint64_t)v->address, v->name);
		else
			printf("%-3u %-7u %-18s %-12llu %-18s %s\n", v->subgraph, v->var_id,
			       neuronsim_mr_type_str(v->mr_type),
			       (unsigned long long)v->size, "-", v->name);
	}
	if (json_out)
		json_print(json_pack("{s:I,s:s,s:o}", "model_id", (json_int_t)t->model_id,
				     "source", t->from_plan ? "plan" : "netlink",
				     "vars", arr));
	fflush(stdout);
}

static void hexdump(const unsigned char *p, size_t n, __u64 base)
{
	size_t i, j;

	for (i = 0; i < n; i += 16) {
		printf("%08" PRIx64 "  ", (uint64_t)(base + i));
		for (j = 0; j < 16; j++) {
			if (i + j < n)
				printf("%02x ", p[i + j]);
			else
				printf("   ");
			if (j == 7)
				putchar(' ');
		}
		printf(" |");
		for (j = 0; j < 16 && i + j < n; j++)
			putchar(isprint(p[i + j]) ? p[i + j] : '.');
		printf("|\n");
	}
}

/* READ_VAR of one reference on the loading fd: hexdump or JSON */
static int do_read(const struct vartab *t, const char *text)
{
	const struct neuronsim_map_var *v;
	struct neuronsim_var_ref r;
	unsigned char *buf;
	char perr[256], what[384];
	__u64 len;
	int err;

	err = neuronsim_var_ref_parse(text, &r, perr, sizeof(perr));
	if (err) {
		errmsg("bad VAR %s", perr);
		return 2;
	}
	v = vartab_find(t, &r, text);
	if (!v)
		return 1;
	if (r.has_size)
		len = r.size;
	else
		len = v->size > r.offset ? v->size - r.offset : 0;
	if (!r.has_size && len > READ_DEFAULT_MAX)
		len = READ_DEFAULT_MAX;
	/* an MR_SB read without a size stops at the end of its partition */
	if (!r.has_size && v->mr_type == KBIN_MR_SB && t->sb_stride &&
	    r.offset % t->sb_stride < t->sb_part_size &&
	    len > t->sb_part_size - r.offset % t->sb_stride)
		len = t->sb_part_size - r.offset % t->sb_stride;
	if (len > (64ULL << 20)) {
		errmsg("'%s': %llu bytes is more than the 64 MiB this command reads",
		       text, (unsigned long long)len);
		return 1;
	}
	buf = malloc(len ? len : 1);
	if (!buf) {
		errmsg("%s", strerror(ENOMEM));
		return 1;
	}
	err = neuronsim_read_var(t->fd, t->model_id, v->subgraph, v->var_id,
				 r.offset, buf, len);
	if (err) {
		const char *gap = err == -ERANGE ?
			sbuf_gap_note(t, v, r.offset, len, perr, sizeof(perr)) : NULL;

		snprintf(what, sizeof(what), "READ_VAR offset %llu len %llu%s%s",
			 (unsigned long long)r.offset, (unsigned long long)len,
			 gap ? ": " : "", gap ? gap : "");
		var_errmsg(text, v, what, err);
		free(buf);
		return 1;
	}
	if (json_out) {
		char *hex = malloc(len * 2 + 1);
		__u64 k;

		if (!hex) {
			errmsg("%s", strerror(ENOMEM));
			free(buf);
			return 1;
		}
		for (k = 0; k < len; k++)
			sprintf(hex + 2 * k, "%02x", buf[k]);
		hex[2 * len] = '\0';
		json_print(json_pack("{s:o,s:I,s:I,s:s,s:I,s:I,s:s}", "name", json_text(v->name),
				     "subgraph", (json_int_t)v->subgraph,
				     "var_id", (json_int_t)v->var_id,
				     "mr_type", neuronsim_mr_type_str(v->mr_type),
				     "offset", (json_int_t)r.offset,
				     "len", (json_int_t)len, "hex", hex));
		free(hex);
	} else {
		printf("sg%u/%s #%u %s, bytes %llu..%llu of %llu\n", v->subgraph,
		       v->name, v->var_id, neuronsim_mr_type_str(v->mr_type),
		       (unsigned long long)r.offset,
		       (unsigned long long)(r.offset + len),
		       (unsigned long long)v->size);
		hexdump(buf, len, r.offset);
		fflush(stdout);
	}
	free(buf);
	return 0;
}

/* ---- dma: the relocated DMA queues and UDMA rings (DMA_INFO) ---- */

#define DMA_DEFAULT_COUNT	16U

/* the name of var @var_id of subgraph @sg in @t, or "?" */
static const char *dma_var_name(const struct vartab *t, __u32 sg, __u32 var_id)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (t->v[i].subgraph == sg && t->v[i].var_id == var_id)
			return t->v[i].name;
	return "?";
}

/* the queues of every subgraph: a table, or JSON objects into @arr */
static int dma_list(const struct vartab *t, __u32 nsg, json_t *arr)
{
	struct neuronsim_dma_opts o = { .sz = sizeof(o) };
	struct neuronsim_dma_queue_info q[64];
	int n, i;

	if (!arr)
		printf("%-3s %-3s %-20s %-7s %-5s %7s %7s %9s %9s %5s %-14s %-14s %s\n",
		       "sg", "q", "name", "type", "owner", "blocks", "descs", "m2s",
		       "s2m", "rings", "m2s_ring", "s2m_ring", "ring_bytes");
	for (o.subgraph = 0; o.subgraph < nsg; o.subgraph++) {
		n = neuronsim_dma_queues(t->fd, t->model_id, &o, q, 64);
		if (n < 0) {
			errmsg("model %u sg %u: DMA_INFO: %s", t->model_id,
			       o.subgraph, strerror(-n));
			return -1;
		}
		for (i = 0; i < n && i < 64; i++) {
			const struct neuronsim_dma_queue_info *e = &q[i];
			const char *type = kbin_dma_queue_type_str(e->type);
			const char *owner = kbin_dma_engine_str(e->owner);

			if (arr) {
				json_array_append_new(arr, json_pack(
					"{s:I,s:I,s:s,s:s,s:s,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I}",
					"subgraph", (json_int_t)o.subgraph, "queue", (json_int_t)i,
					"name", e->name, "type", type, "owner", owner,
					"blocks", (json_int_t)e->num_blocks,
					"descriptors", (json_int_t)e->num_descs,
					"m2s", (json_int_t)e->m2s_descs,
					"s2m", (json_int_t)e->s2m_descs,
					"m2s_rings", (json_int_t)e->m2s_rings,
					"s2m_rings", (json_int_t)e->s2m_rings,
					"m2s_ring", (json_int_t)e->m2s_ring_addr,
					"s2m_ring", (json_int_t)e->s2m_ring_addr,
					"ring_bytes", (json_int_t)e->ring_bytes));
				continue;
			}
			printf("%-3u %-3d %-20s %-7s %-5s %7u %7u %9u %9u %5u 0x%-12llx 0x%-12llx %llu\n",
			       o.subgraph, i, e->name, type, owner, e->num_blocks,
			       e->num_descs, e->m2s_descs, e->s2m_descs,
			       e->m2s_rings + e->s2m_rings,
			       (unsigned long long)e->m2s_ring_addr,
			       (unsigned long long)e->s2m_ring_addr,
			       (unsigned long long)e->ring_bytes);
		}
	}
	return 0;
}

/* descriptors @from .. +@count of both sides of ring @ring ("sgN/QUEUE") */
static int dma_ring(const struct vartab *t, __u32 nsg, const char *ring,
		    __u32 from, __u32 count, json_t *obj)
{
	struct neuronsim_dma_opts o = { .sz = sizeof(o) };
	struct neuronsim_dma_queue_info q[64];
	struct neuronsim_dma_desc_info *d;
	const char *qname = ring;
	unsigned int sg = 0;
	int n, i, k;

	if (!strncmp(ring, "sg", 2) && strchr(ring, '/')) {
		char *end;

		sg = strtoul(ring + 2, &end, 10);
		if (*end != '/') {
			errmsg("--ring %s: not sgN/QUEUE", ring);
			return -1;
		}
		qname = end + 1;
	}
	if (sg >= nsg) {
		errmsg("--ring %s: the model has %u subgraphs", ring, nsg);
		return -1;
	}
	o.subgraph = sg;
	n = neuronsim_dma_queues(t->fd, t->model_id, &o, q, 64);
	for (i = 0; i < n && i < 64 && strcmp(q[i].name, qname); i++)
		;
	if (n < 0 || i == n || i == 64) {
		errmsg("--ring %s: sg%u has no DMA queue '%s'%s", ring, sg, qname,
		       n < 0 ? strerror(-n) : "");
		return -1;
	}
	d = calloc(count ? count : 1, sizeof(*d));
	if (!d)
		return -1;
	o.queue = i;
	if (obj) {
		json_object_set_new(obj, "subgraph", json_integer(sg));
		json_object_set_new(obj, "queue", json_string(qname));
	}
	for (o.side = NEURONSIM_DMA_M2S; o.side <= NEURONSIM_DMA_S2M; o.side++) {
		const char *side = o.side == NEURONSIM_DMA_M2S ? "M2S" : "S2M";
		__u32 total = o.side == NEURONSIM_DMA_M2S ? q[i].m2s_descs : q[i].s2m_descs;
		json_t *arr = obj ? json_array() : NULL;

		o.first = from < total ? from : total;
		n = neuronsim_dma_ring(t->fd, t->model_id, &o, d, count);
		if (n < 0) {
			errmsg("--ring %s: %s descriptors from %u: %s", ring, side,
			       from, strerror(-n));
			json_decref(arr);
			free(d);
			return -1;
		}
		if (!obj)
			printf("sg%u/%s %s: descriptors %u..%u of %u\n%-8s %-5s %-6s %-15s %-14s %-5s %-4s %-24s %s\n",
			       sg, qname, side, o.first, o.first + n - (n > 0), total,
			       "index", "ring", "len", "flags", "addr", "block", "desc",
			       "var", "offset");
		for (k = 0; k < n; k++) {
			const struct neuronsim_dma_desc_info *e = &d[k];
			union udma_desc u;
			char flags[24];

			memcpy(&u, e->desc, sizeof(u));
			neuronsim_udma_flags_str(u.tx.len_ctrl, flags, sizeof(flags));
			if (arr) {
				json_array_append_new(arr, json_pack(
					"{s:I,s:I,s:I,s:s,s:I,s:I,s:I,s:I,s:s,s:I,s:I,s:I}",
					"index", (json_int_t)(o.first + k),
					"ring", (json_int_t)e->ring,
					"len", (json_int_t)neuronsim_udma_len(u.tx.len_ctrl),
					"flags", flags, "addr", (json_int_t)u.tx.buf_ptr,
					"block", (json_int_t)e->block,
					"desc", (json_int_t)e->desc_index,
					"var_id", (json_int_t)e->var_id,
					"var", dma_var_name(t, sg, e->var_id),
					"offset", (json_int_t)e->offset,
					"len_ctrl", (json_int_t)u.tx.len_ctrl,
					"desc_addr", (json_int_t)e->addr));
				continue;
			}
			printf("%-8u %-5u %-6u %-15s 0x%-12llx %-5u %-4u %-24s %llu\n",
			       o.first + k, e->ring, neuronsim_udma_len(u.tx.len_ctrl),
			       flags, (unsigned long long)u.tx.buf_ptr, e->block,
			       e->desc_index, dma_var_name(t, sg, e->var_id),
			       (unsigned long long)e->offset);
		}
		if (obj)
			json_object_set_new(obj, o.side == NEURONSIM_DMA_M2S ? "m2s" : "s2m",
					    arr);
	}
	free(d);
	return 0;
}

/*
 * dma [--ring sgN/QUEUE] [--from I] [--count N] on the model of @t (its
 * loading fd): the queues of every subgraph, or a range of one queue's
 * M2S and S2M descriptors with the variable and offset each came from.
 * 0, 1 on failure, 2 on bad arguments.
 */
static int do_dma(const struct vartab *t, int argc, char **argv)
{
	struct neuronsim_model_info mi;
	__u32 from = 0, count = DMA_DEFAULT_COUNT;
	const char *ring = NULL;
	json_t *o = NULL;
	int i, err;

	for (i = 0; i < argc; i++) {
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(argv[i], "--ring") && v) {
			ring = v;
		} else if (!strcmp(argv[i], "--from")) {
			if (parse_u32_arg("--from", v, &from))
				return 2;
		} else if (!strcmp(argv[i], "--count")) {
			if (parse_u32_arg("--count", v, &count))
				return 2;
		} else {
			errmsg("unknown argument '%s' (--ring sgN/QUEUE, --from I, --count N)",
			       argv[i]);
			return 2;
		}
		i++;
	}
	if ((from || count != DMA_DEFAULT_COUNT) && !ring) {
		errmsg("--from and --count need --ring sgN/QUEUE");
		return 2;
	}
	err = neuronsim_model_info(t->fd, t->model_id, &mi);
	if (err) {
		errmsg("model %u: MODEL_INFO: %s", t->model_id, strerror(-err));
		return 1;
	}
	if (json_out)
		o = ring ? json_object() : json_array();
	err = ring ? dma_ring(t, mi.num_subgraphs, ring, from, count, o) :
	      dma_list(t, mi.num_subgraphs, o);
	if (err) {
		json_decref(o);
		return 1;
	}
	if (o)
		json_print(ring ? o : json_pack("{s:I,s:o}", "model_id",
						  (json_int_t)t->model_id, "queues", o));
	fflush(stdout);
	return 0;
}

/* neuronsim dma PLAN [--ring sgN/QUEUE] [--from I] [--count N] */
static int cmd_dma(int argc, char **argv)
{
	struct vartab t;
	__u32 id;
	int rc;

	if (want_help(argc, argv) || argc < 2) {
		printf("usage: %s [-j] dma PLAN [--ring sgN/QUEUE] [--from I] [--count N]\n"
		       "  the model's relocated DMA queues (DMA_INFO): per subgraph and queue\n"
		       "  its type, owner, blocks, descriptors, UDMA descriptors per side\n"
		       "  (M2S reads, S2M writes), rings, ring addresses and bytes.\n"
		       "  --ring: UDMA descriptors I .. I+N-1 (default 0, %u) of both sides of\n"
		       "  that queue, as its rings hold them, with the variable and offset\n"
		       "  each came from.  Like read, it needs the fd that loaded the model:\n"
		       "  PLAN here, or 'dma ...' on the stdin of 'neuronsim load PLAN --hold'.\n",
		       prog, DMA_DEFAULT_COUNT);
		return argc < 2 && !want_help(argc, argv) ? 2 : 0;
	}
	if (is_model_id(argv[1], &id)) {
		errmsg("model %u: DMA_INFO works only on the fd that loaded the model (%s); use 'neuronsim dma PLAN', or 'dma' on the stdin of 'neuronsim load PLAN --hold'",
		       id, strerror(ENOENT));
		return 1;
	}
	if (vartab_open(&t, argv[1], NEURONSIM_CORE_ANY)) {
		vartab_free(&t);
		return 1;
	}
	rc = do_dma(&t, argc - 2, argv + 2);
	vartab_free(&t);
	return rc;
}

/* ---- load --hold: commands on stdin against the held model ---- */

#define HOLD_LINE_MAX	4096
#define HOLD_ARGS_MAX	64

static void hold_help(void)
{
	printf("commands (one per line; '-j' anywhere on a line prints JSON):\n"
	       "  resolve VAR[+OFFSET[:SIZE]]...  device addresses (RESOLVE)\n"
	       "  read VAR[+OFFSET[:LEN]]         hexdump of the bytes (READ_VAR);\n"
	       "  read VAR +OFFSET[:LEN]            the offset may stand apart\n"
	       "  vars                            every variable and its address\n"
	       "  info                            the model's counts (MODEL_INFO)\n"
	       "  dma [--ring sgN/QUEUE [--from I] [--count N]]  DMA queues, UDMA rings\n"
	       "  echo TEXT                       print TEXT (a marker for scripts)\n"
	       "  help                            this text\n");
	fflush(stdout);
}

/* run one command line; 0 or 1 when it failed */
static int hold_run_line(const struct vartab *t, char *line)
{
	char *argv[HOLD_ARGS_MAX], *tok, *save = NULL, ref[HOLD_LINE_MAX];
	const char *saved_cmd = cmd_name;
	bool saved_json = json_out;
	int argc = 0, rc = 0, i;

	for (tok = strtok_r(line, " \t\r", &save); tok;
	     tok = strtok_r(NULL, " \t\r", &save)) {
		if (!strcmp(tok, "-j") || !strcmp(tok, "--json")) {
			json_out = true;
			continue;
		}
		if (argc == HOLD_ARGS_MAX) {
			errmsg("more than %d words on a line", HOLD_ARGS_MAX);
			json_out = saved_json;
			return 1;
		}
		argv[argc++] = tok;
	}
	if (!argc || argv[0][0] == '#') {
		json_out = saved_json;
		return 0;
	}
	cmd_name = argv[0];
	if (!strcmp(argv[0], "resolve") && argc > 1) {
		rc = do_resolve(t, argc - 1, argv + 1) ? 1 : 0;
	} else if (!strcmp(argv[0], "read") && (argc == 2 ||
		   (argc == 3 && argv[2][0] == '+'))) {
		snprintf(ref, sizeof(ref), "%s%s", argv[1], argc == 3 ? argv[2] : "");
		rc = do_read(t, ref) ? 1 : 0;
	} else if (!strcmp(argv[0], "vars") && argc == 1) {
		do_vars(t);
	} else if (!strcmp(argv[0], "info") && argc == 1) {
		rc = print_model(t, NULL, "", false) ? 1 : 0;
	} else if (!strcmp(argv[0], "dma")) {
		rc = do_dma(t, argc - 1, argv + 1) ? 1 : 0;
	} else if (!strcmp(argv[0], "echo")) {
		for (i = 1; i < argc; i++)
			printf("%s%s", argv[i], i + 1 < argc ? " " : "");
		putchar('\n');
		fflush(stdout);
	} else if (!strcmp(argv[0], "help") && argc == 1) {
		hold_help();
	} else {
		cmd_name = "load";
		errmsg("unknown or malformed command '%s' (try 'help')", argv[0]);
		rc = 1;
	}
	cmd_name = saved_cmd;
	json_out = saved_json;
	return rc;
}

/*
 * Keep the model of @t loaded until SIGINT or SIGTERM.  With @commands,
 * run the lines of stdin against it meanwhile; at end of input go on
 * holding, or return when @exit_on_eof.  Returns the number of commands
 * that failed.  The signals stay blocked outside ppoll()/sigsuspend(), so
 * one that comes between a check and a wait is not lost.
 */
static int hold_model(const struct vartab *t, bool commands, bool exit_on_eof)
{
	static char buf[HOLD_LINE_MAX + 1];
	size_t len = 0;
	sigset_t block, old;
	bool eof = !commands, skipping = false;
	int failed = 0;

	install_stop_handlers();
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &old);
	while (!stop_signal) {
		struct pollfd pfd = { .fd = STDIN_FILENO, .events = POLLIN };
		char *nl;
		ssize_t n;

		if (eof) {
			if (exit_on_eof)
				break;
			sigsuspend(&old);
			continue;
		}
		if (ppoll(&pfd, 1, NULL, &old) < 0) {
			if (errno != EINTR) {
				errmsg("stdin: %s", strerror(errno));
				eof = true;
			}
			continue;
		}
		n = read(STDIN_FILENO, buf + len, HOLD_LINE_MAX - len);
		if (n < 0) {
			if (errno != EINTR && errno != EAGAIN) {
				errmsg("stdin: %s", strerror(errno));
				eof = true;
			}
			continue;
		}
		if (n == 0) {
			eof = true;
			if (len && !skipping) {	/* a last line without '\n' */
				buf[len] = '\0';
				failed += hold_run_line(t, buf);
			}
			len = 0;
			continue;
		}
		len += n;
		while ((nl = memchr(buf, '\n', len))) {
			size_t used = nl - buf + 1;

			*nl = '\0';
			if (!skipping)
				failed += hold_run_line(t, buf);
			skipping = false;
			memmove(buf, buf + used, len - used);
			len -= used;
		}
		if (len == HOLD_LINE_MAX) {
			if (!skipping) {
				errmsg("a command line is longer than %d bytes: skipped",
				       HOLD_LINE_MAX);
				failed++;
			}
			skipping = true;
			len = 0;
		}
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return failed;
}

static int cmd_load(int argc, char **argv)
{
	bool hold = false, commands = false, exit_on_eof = false;
	const char *plan = NULL, *why;
	struct vartab t;
	__u32 core = 0;
	int i, err, failed = 0;

	if (want_help(argc, argv)) {
		printf("usage: %s [-j] [-d N] load PLAN [--core N|any] [--hold [--commands] [--exit-on-eof]]\n"
		       "  load a KBIN plan; subgraph i goes to NeuronCore N + i (default 0);\n"
		       "  '--core any' takes the first run of free NeuronCores.  The cores\n"
		       "  are this process's until its last model on them is unloaded;\n"
		       "  another process's load on them fails (EBUSY).\n"
		       "  Prints the model id first.  Without --hold the model is unloaded\n"
		       "  when the command exits (models belong to the fd that loaded them);\n"
		       "  with --hold it stays loaded until SIGINT or SIGTERM.\n"
		       "  While holding, when stdin is not a terminal (or with --commands),\n"
		       "  each line of stdin is a command run against the held model:\n"
		       "    resolve VAR[+OFFSET[:SIZE]]..., read VAR [+OFFSET[:LEN]], vars,\n"
		       "    info, echo TEXT, help ('-j' on a line: JSON)\n"
		       "  After end of input it goes on holding; --exit-on-eof unloads and\n"
		       "  exits there instead (exit status 1 if a command failed).\n"
		       "  --commands and --exit-on-eof imply --hold.\n"
		       "  On failure prints the errno, the checker's reason, subgraph and\n"
		       "  record, and the kernel's log text.\n", prog);
		return 0;
	}
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--hold")) {
			hold = true;
		} else if (!strcmp(argv[i], "--commands")) {
			hold = commands = true;
		} else if (!strcmp(argv[i], "--exit-on-eof")) {
			hold = exit_on_eof = true;
		} else if (!strcmp(argv[i], "--core")) {
			i++;
			if (i < argc && !strcmp(argv[i], "any"))
				core = NEURONSIM_CORE_ANY;
			else if (parse_u32_arg("--core", i < argc ? argv[i] : NULL,
					       &core))
				return 2;
		} else if (argv[i][0] == '-') {
			errmsg("unknown option '%s' (try --help)", argv[i]);
			return 2;
		} else if (!plan) {
			plan = argv[i];
		} else {
			errmsg("unexpected argument '%s': one PLAN only", argv[i]);
			return 2;
		}
	}
	if (!plan) {
		errmsg("missing PLAN (try --help)");
		return 2;
	}
	vartab_init(&t);
	if (vartab_from_plan(&t, plan, core) ||
	    print_model(&t, plan, hold ? "; holding until SIGINT/SIGTERM" : "",
			hold)) {
		vartab_free(&t);
		return 1;
	}
	if (hold) {
		if (!isatty(STDIN_FILENO))
			commands = true;
		failed = hold_model(&t, commands, exit_on_eof);
		err = neuronsim_unload(t.fd, t.model_id);
		why = stop_signal == SIGINT ? "SIGINT" :
		      stop_signal == SIGTERM ? "SIGTERM" : "end of input";
		if (!json_out)
			printf("model %u unloaded (%s)\n", t.model_id, why);
		else
			json_print(json_pack("{s:I,s:b,s:s}", "model_id",
					     (json_int_t)t.model_id, "unloaded", !err,
					     "why", why));
	}
	vartab_free(&t);
	return failed ? 1 : 0;
}

static int cmd_resolve(int argc, char **argv)
{
	struct vartab t;
	int i, failed;

	if (want_help(argc, argv) || argc < 3) {
		printf("usage: %s [-j] resolve PLAN|MODEL VAR[+OFFSET[:SIZE]]...\n"
		       "  VAR is a name, sgN/name or #var_id (sgN/#var_id); OFFSET and SIZE\n"
		       "  are bytes (decimal, 0x hex, K/M/G suffix), SIZE defaults to 0.\n"
		       "  PLAN: load it on a private fd, resolve by ioctl, unload.\n"
		       "  MODEL (an id, any process's): apply the kernel's rule\n"
		       "  (mem_ref_to_addr) to the netlink GET_VARS physical_address table,\n"
		       "  visible to the loading process or CAP_SYS_ADMIN only.\n", prog);
		return argc < 3 && !want_help(argc, argv) ? 2 : 0;
	}
	/* every reference is checked before the plan is loaded */
	for (i = 2; i < argc; i++) {
		struct neuronsim_var_ref r;
		char perr[256];

		if (neuronsim_var_ref_parse(argv[i], &r, perr, sizeof(perr))) {
			errmsg("bad VAR %s", perr);
			return 2;
		}
	}
	if (vartab_open(&t, argv[1], NEURONSIM_CORE_ANY)) {
		vartab_free(&t);
		return 1;
	}
	failed = do_resolve(&t, argc - 2, argv + 2);
	vartab_free(&t);
	return failed ? 1 : 0;
}

static int models_cb(const struct neuronsim_nl_model *m, void *ctx)
{
	json_t *arr = ctx;
	char range[32];

	if (arr) {
		json_t *cores = json_array();
		__u32 c;

		for (c = 0; c < m->num_subgraphs; c++)
			json_array_append_new(cores, json_integer(m->first_core + c));
		json_array_append_new(arr, json_pack("{s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:o}",
			"model_id", (json_int_t)m->model_id,
			"owner_pid", (json_int_t)m->owner_pid,
			"target_gen", (json_int_t)m->target_gen,
			"num_subgraphs", (json_int_t)m->num_subgraphs,
			"first_core", (json_int_t)m->first_core,
			"num_vars", (json_int_t)m->num_vars,
			"hbm_bytes", (json_int_t)m->hbm_bytes,
			"scratchpad_bytes", (json_int_t)m->scratchpad_bytes,
			"device", (json_int_t)m->device, "cores", cores));
		return 0;
	}
	snprintf(range, sizeof(range), "%u-%u", m->first_core,
		 m->first_core + m->num_subgraphs - 1);
	printf("%-8u %-8u %-4u %-4u %-5u %-10llu %-14llu %-16llu %-3u %s\n",
	       m->model_id, m->owner_pid, m->target_gen, m->num_subgraphs,
	       m->first_core, (unsigned long long)m->num_vars,
	       (unsigned long long)m->hbm_bytes,
	       (unsigned long long)m->scratchpad_bytes, m->device, range);
	return 0;
}

static int cmd_models(int argc, char **argv)
{
	struct neuronsim_nl *nl;
	json_t *arr = NULL;
	int err;

	if (want_help(argc, argv) || argc > 1) {
		printf("usage: %s [-j] [-d N] models\n"
		       "  every model loaded on device N, or without -d on every device,\n"
		       "  by any process (netlink GET_MODEL dump): id, owner pid, target\n"
		       "  generation, subgraphs, first NeuronCore, vars, HBM and\n"
		       "  scratchpad bytes, device, the NeuronCores it runs on (the\n"
		       "  owner pid's)\n", prog);
		return argc > 1 && !want_help(argc, argv) ? 2 : 0;
	}
	err = nl_open_device(&nl);
	if (err) {
		errmsg("generic netlink family '%s': %s", NEURONSIM_GENL_NAME,
		       strerror(-err));
		return 1;
	}
	if (json_out)
		arr = json_array();
	else
		printf("%-8s %-8s %-4s %-4s %-5s %-10s %-14s %-16s %-3s %s\n",
		       "model", "pid", "gen", "sgs", "core", "vars", "hbm_bytes",
		       "scratchpad_bytes", "dev", "cores");
	err = neuronsim_nl_list_models(nl, models_cb, arr);
	neuronsim_nl_close(nl);
	if (err) {
		errmsg("GET_MODEL dump: %s", strerror(-err));
		json_decref(arr);
		return 1;
	}
	if (json_out)
		json_print(arr);
	return 0;
}

static int cmd_vars(int argc, char **argv)
{
	struct vartab t;

	if (want_help(argc, argv) || argc != 2) {
		printf("usage: %s [-j] vars PLAN|MODEL\n"
		       "  every variable: subgraph, var_id, mr_type, size, physical_address\n"
		       "  ('-' when not staged), name.  MODEL uses netlink GET_VARS (owner\n"
		       "  process or CAP_SYS_ADMIN); PLAN loads it for the command.\n", prog);
		return argc != 2 && !want_help(argc, argv) ? 2 : 0;
	}
	if (vartab_open(&t, argv[1], NEURONSIM_CORE_ANY)) {
		vartab_free(&t);
		return 1;
	}
	do_vars(&t);
	vartab_free(&t);
	return 0;
}

static int cmd_read(int argc, char **argv)
{
	struct neuronsim_var_ref r;
	struct vartab t;
	char perr[256];
	__u32 id;
	int rc;

	if (want_help(argc, argv) || argc != 3) {
		printf("usage: %s [-j] read PLAN|MODEL VAR[+OFFSET[:SIZE]]\n"
		       "  hexdump of a staged variable's bytes (READ_VAR); without SIZE up to\n"
		       "  %u bytes from OFFSET.  Bytes move only through the fd that loaded\n"
		       "  the model, so MODEL works only within the loading process:\n"
		       "  from the shell use PLAN (loaded for the command, unloaded after),\n"
		       "  or 'read VAR' on the stdin of 'neuronsim load PLAN --hold'.\n",
		       prog, READ_DEFAULT_MAX);
		return argc != 3 && !want_help(argc, argv) ? 2 : 0;
	}
	if (neuronsim_var_ref_parse(argv[2], &r, perr, sizeof(perr))) {
		errmsg("bad VAR %s", perr);
		return 2;
	}
	if (is_model_id(argv[1], &id)) {
		errmsg("model %u: READ_VAR works only on the fd that loaded the model (%s); use 'neuronsim read PLAN %s', or 'read %s' on the stdin of 'neuronsim load PLAN --hold'",
		       id, strerror(ENOENT), argv[2], argv[2]);
		return 1;
	}
	if (vartab_open(&t, argv[1], NEURONSIM_CORE_ANY)) {
		vartab_free(&t);
		return 1;
	}
	rc = do_read(&t, argv[2]);
	vartab_free(&t);
	return rc;
}

static const char *event_name(__u8 cmd)
{
	switch (cmd) {
	case NEURONSIM_CMD_MODEL_LOADED:
		return "loaded";
	case NEURONSIM_CMD_MODEL_UNLOADED:
		return "unloaded";
	case NEURONSIM_CMD_LOAD_FAILED:
		return "load_failed";
	default:
		return "?";
	}
}

static int monitor_cb(const struct neuronsim_nl_event *e, void *ctx)
{
	long *left = ctx;

	if (dev_index >= 0 && e->model.device != (__u32)dev_index)
		return 0;
	if (json_out) {
		json_t *o = json_pack("{s:s,s:I}", "event", event_name(e->cmd),
				      "owner_pid", (json_int_t)e->model.owner_pid);

		if (e->cmd == NEURONSIM_CMD_LOAD_FAILED) {
			json_object_set_new(o, "errno", json_integer(e->err_errno));
			json_object_set_new(o, "error", json_string(errno_name(e->err_errno)));
			json_object_set_new(o, "reason", json_integer(e->err_reason));
			json_object_set_new(o, "reason_text",
					    json_string(neuronsim_reason_str(e->err_reason)));
			json_object_set_new(o, "subgraph", json_integer(e->err_subgraph));
			json_object_set_new(o, "record", json_integer(e->err_record));
		} else {
			json_object_set_new(o, "model_id", json_integer(e->model.model_id));
			json_object_set_new(o, "num_subgraphs",
					    json_integer(e->model.num_subgraphs));
			json_object_set_new(o, "num_vars", json_integer(e->model.num_vars));
			json_object_set_new(o, "hbm_bytes", json_integer(e->model.hbm_bytes));
		}
		json_object_set_new(o, "device", json_integer(e->model.device));
		json_print(o);
	} else if (e->cmd == NEURONSIM_CMD_LOAD_FAILED) {
		printf("load_failed pid %u: %s (%s), reason %u: %s, subgraph %d record %d, device %u\n",
		       e->model.owner_pid, strerror(e->err_errno),
		       errno_name(e->err_errno), e->err_reason,
		       neuronsim_reason_str(e->err_reason), e->err_subgraph,
		       e->err_record, e->model.device);
	} else {
		printf("%s model %u pid %u: %u subgraphs, %llu vars, %llu bytes HBM, device %u\n",
		       event_name(e->cmd), e->model.model_id, e->model.owner_pid,
		       e->model.num_subgraphs, (unsigned long long)e->model.num_vars,
		       (unsigned long long)e->model.hbm_bytes, e->model.device);
	}
	fflush(stdout);
	if (*left > 0 && --*left == 0)
		return 1;
	return 0;
}

static int cmd_monitor(int argc, char **argv)
{
	struct neuronsim_nl *nl;
	long left = -1;
	__u32 count;
	int i, err;

	if (want_help(argc, argv)) {
		printf("usage: %s [-j] [-d N] monitor [--count N]\n"
		       "  print MODEL_LOADED, MODEL_UNLOADED and LOAD_FAILED events of the\n"
		       "  netlink 'monitor' group until SIGINT/SIGTERM (or N events), of\n"
		       "  device N or without -d of every device.  With -j one JSON object\n"
		       "  per line.\n", prog);
		return 0;
	}
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--count") && i + 1 < argc) {
			if (parse_u32_arg("--count", argv[++i], &count))
				return 2;
			left = count ? (long)count : -1;
		} else {
			errmsg("unexpected argument '%s' (try --help)", argv[i]);
			return 2;
		}
	}
	err = neuronsim_nl_open(&nl);
	if (!err)
		err = neuronsim_nl_subscribe(nl);
	if (err) {
		errmsg("netlink group '%s' of '%s': %s", NEURONSIM_GENL_MCGRP_MONITOR,
		       NEURONSIM_GENL_NAME, strerror(-err));
		neuronsim_nl_close(nl);
		return 1;
	}
	install_stop_handlers();
	if (!json_out) {
		printf("monitoring '%s' events (^C to stop)\n", NEURONSIM_GENL_NAME);
		fflush(stdout);
	}
	while (!stop_signal) {
		err = neuronsim_nl_read_events(nl, -1, monitor_cb, &left);
		if (err == -ECANCELED) {
			err = 0;
			break;
		}
		if (err < 0 && err != -EINTR) {
			errmsg("reading events: %s", strerror(-err));
			break;
		}
		err = 0;
	}
	neuronsim_nl_close(nl);
	return err ? 1 : 0;
}

static int cmd_map(int argc, char **argv)
{
	NEURONSIM_OPTS_INIT(map_opts, mo);
	struct neuronsim_info info;
	const char *src = NULL, *out = NULL;
	char title[300];
	struct vartab t;
	FILE *f;
	int i, err;

	if (want_help(argc, argv)) {
		printf("usage: %s [-j] map PLAN|MODEL -o FILE.svg\n"
		       "  an SVG picture of where every variable sits: a band per HBM\n"
		       "  channel, NeuronCore SBUF window and the scratchpad, a box per\n"
		       "  variable coloured by mr_type, names on hover.  '-o -' writes to\n"
		       "  stdout.  MODEL uses netlink GET_VARS (owner or CAP_SYS_ADMIN).\n",
		       prog);
		return 0;
	}
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-o") && i + 1 < argc)
			out = argv[++i];
		else if (argv[i][0] == '-' && argv[i][1]) {
			errmsg("unknown option '%s' (try --help)", argv[i]);
			return 2;
		} else if (!src)
			src = argv[i];
		else {
			errmsg("unexpected argument '%s'", argv[i]);
			return 2;
		}
	}
	if (!src || !out) {
		errmsg("need PLAN|MODEL and -o FILE.svg (try --help)");
		return 2;
	}
	if (device_info(&info))
		return 1;
	if (vartab_open(&t, src, NEURONSIM_CORE_ANY)) {
		vartab_free(&t);
		return 1;
	}
	snprintf(title, sizeof(title), "neuronsim model %u (%s)", t.model_id, src);
	mo.title = title;
	f = strcmp(out, "-") ? fopen(out, "w") : stdout;
	if (!f) {
		errmsg("%s: %s", out, strerror(errno));
		vartab_free(&t);
		return 1;
	}
	err = neuronsim_map_svg(f, &info, t.v, t.n, &mo);
	if (f != stdout && fclose(f) && !err)
		err = -EIO;
	if (err)
		errmsg("%s: %s", out, strerror(-err));
	else if (json_out && f != stdout)
		json_print(json_pack("{s:s,s:I,s:I}", "file", out, "model_id",
				     (json_int_t)t.model_id, "vars", (json_int_t)t.n));
	else if (f != stdout)
		printf("%s: %zu variables of model %u\n", out, t.n, t.model_id);
	vartab_free(&t);
	return err ? 1 : 0;
}

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
} cmds[] = {
	{ "info", cmd_info, "device geometry and limits" },
	{ "load", cmd_load, "load a KBIN plan (--hold keeps it loaded)" },
	{ "resolve", cmd_resolve, "VAR[+OFFSET[:SIZE]] -> device address" },
	{ "models", cmd_models, "models loaded by every process (netlink)" },
	{ "vars", cmd_vars, "variables of a model or plan" },
	{ "read", cmd_read, "hexdump a variable's bytes" },
	{ "monitor", cmd_monitor, "print load/unload events" },
	{ "map", cmd_map, "SVG memory map of a model or plan" },
	{ "dma", cmd_dma, "DMA queues and UDMA rings of a plan's model" },
};

static int usage(FILE *f, int rc)
{
	size_t i;

	fprintf(f, "usage: %s [-j|--json] [-p|--pretty] [-d|--device N] COMMAND [ARGS] [--help]\n"
		"commands:\n", prog);
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		fprintf(f, "  %-8s %s\n", cmds[i].name, cmds[i].help);
	fprintf(f, "MODEL is a model id; anything else is a KBIN plan file.\n"
		"-d N (before COMMAND): device N, /dev/%sN (default 0, /dev/%s).\n",
		NEURONSIM_DEVICE_NAME, NEURONSIM_DEVICE_NAME);
	return rc;
}

int main(int argc, char **argv)
{
	char **args;
	int n = 0, i;
	size_t c;

	/* -j/-p anywhere, as bpftool allows; -d N before the command */
	args = calloc(argc + 1, sizeof(*args));
	if (!args)
		return 1;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-j") || !strcmp(argv[i], "--json")) {
			json_out = true;
		} else if (!strcmp(argv[i], "-p") || !strcmp(argv[i], "--pretty")) {
			json_out = true;
			json_flags = JSON_INDENT(2);
		} else if (!n && (!strcmp(argv[i], "-d") ||
				  !strcmp(argv[i], "--device"))) {
			__u32 d = 0;
			int bad = parse_u32_arg(argv[i], i + 1 < argc ?
						argv[i + 1] : NULL, &d);

			if (!bad && d >= NEURONSIM_MAX_DEVICES) {
				errmsg("-d %s: device indices are 0..%u",
				       argv[i + 1], NEURONSIM_MAX_DEVICES - 1);
				bad = 1;
			}
			if (bad) {
				free(args);
				return 2;
			}
			dev_index = d;
			i++;
		} else {
			args[n++] = argv[i];
		}
	}
	if (!n) {
		free(args);
		return usage(stderr, 2);
	}
	if (!strcmp(args[0], "--help") || !strcmp(args[0], "-h") ||
	    !strcmp(args[0], "help")) {
		free(args);
		return usage(stdout, 0);
	}
	for (c = 0; c < sizeof(cmds) / sizeof(cmds[0]); c++) {
		if (!strcmp(args[0], cmds[c].name)) {
			int rc;

			cmd_name = cmds[c].name;
			rc = cmds[c].fn(n, args);
			free(args);
			return rc;
		}
	}
	fprintf(stderr, "%s: unknown command '%s'\n", prog, args[0]);
	free(args);
	return usage(stderr, 2);
}
