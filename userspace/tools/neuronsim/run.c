// SPDX-License-Identifier: GPL-2.0
/*
 * run.c - "run" and the holder's run commands (run.h):
 * run a model's DMA queues on the simulated DMA engines (RUN), wait for
 * them (WAIT) and move the bytes a user needs around a run (WRITE_VAR of
 * a file or a .npy payload, READ_VAR into a file).  A RUN moves bytes on
 * the DMA engine only (the compute engines run under "exec"); the output
 * says so.  Documentation/dma.rst.
 */
#include <errno.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kbin_dma.h"
#include "kbin_names.h"
#include "main.h"
#include "nsim_file.h"
#include "run.h"

#define RUN_CHUNK	(1U << 20)
#define RUN_NOTE	"a RUN moves bytes on the DMA engine only: the compute engines (PE, ACT, POOL, DVE) run under 'exec'"

/* errors through the command's reporter (main.h) */
#define run_err(...)	errmsg(__VA_ARGS__)

static double run_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void run_json(const struct run_ctx *c, json_t *j)
{
	(void)c;
	if (j)
		tool_json_print(j);
}

/* the queues of subgraph @sg (malloc'd) and their count, or -errno */
static int run_queues(const struct run_ctx *c, __u32 sg,
		      struct neuronsim_dma_queue_info **out)
{
	struct neuronsim_dma_opts o = { .sz = sizeof(o), .subgraph = sg };
	int n = neuronsim_dma_queues(c->fd, c->model_id, &o, NULL, 0);

	*out = NULL;
	if (n <= 0)
		return n;
	*out = calloc(n, sizeof(**out));
	if (!*out)
		return -ENOMEM;
	return neuronsim_dma_queues(c->fd, c->model_id, &o, *out, n);
}

/*
 * "[sgN/]QUEUE" (a name or a queue index) into (subgraph, queue); without
 * sgN/ the first subgraph with such a queue.  0 or 1 with a message.
 */
static int run_parse_queue(const struct run_ctx *c, const char *text, __u32 *sg,
			   __u32 *q)
{
	const char *name = text;
	struct neuronsim_dma_queue_info *qs;
	__u32 s, first = 0, last = c->num_sg;
	char *end;
	int n, i;

	if (!strncmp(text, "sg", 2) && strchr(text, '/')) {
		unsigned long v = strtoul(text + 2, &end, 10);

		if (end != text + 2 && *end == '/' && v < c->num_sg) {
			first = v;
			last = v + 1;
			name = end + 1;
		}
	}
	for (s = first; s < last; s++) {
		n = run_queues(c, s, &qs);
		for (i = 0; i < n; i++) {
			unsigned long idx = strtoul(name, &end, 10);

			if (!strcmp(qs[i].name, name) ||
			    (*name && !*end && idx == (unsigned long)i)) {
				*sg = s;
				*q = i;
				free(qs);
				return 0;
			}
		}
		free(qs);
	}
	run_err("'%s': no such DMA queue in model %u (see 'dma')", text, c->model_id);
	return 1;
}

static void run_print_result(const struct run_ctx *c, __u32 sg,
			     const struct neuronsim_dma_queue_info *qi,
			     const struct neuronsim_run_result *r)
{
	double ms = r->ns / 1e6, mbs = r->ns ? r->bytes * 1e3 / r->ns : 0;

	if (c->json) {
		json_t *o = json_pack("{s:I,s:o,s:I,s:s,s:I,s:I,s:I,s:I,s:I,s:I,s:f}",
				      "subgraph", (json_int_t)sg, "queue", json_text(qi->name),
				      "index", (json_int_t)r->queue,
				      "state", kbin_run_state_str(r->state),
				      "status", (json_int_t)r->status,
				      "blocks", (json_int_t)r->blocks,
				      "descs", (json_int_t)r->descs,
				      "udma_descs", (json_int_t)r->udma_descs,
				      "bytes", (json_int_t)r->bytes,
				      "ns", (json_int_t)r->ns, "mb_per_s", mbs);

		if (o && r->status) {
			json_object_set_new(o, "error", json_string(strerror(-r->status)));
			json_object_set_new(o, "fail_block", json_integer(r->fail_block));
			json_object_set_new(o, "fail_desc", json_integer(r->fail_desc));
		}
		run_json(c, o);
		return;
	}
	printf("sg%u/%s: %s, %u of %u blocks, %u of %u descriptors, %llu UDMA descriptors, %llu bytes in %.3f ms (%.1f MB/s)",
	       sg, qi->name, kbin_run_state_str(r->state), r->blocks, qi->num_blocks,
	       r->descs, qi->num_descs, (unsigned long long)r->udma_descs,
	       (unsigned long long)r->bytes, ms, mbs);
	if (r->status)
		printf("; FAILED in block %u descriptor %u: %s",
		       r->fail_block, r->fail_desc, strerror(-r->status));
	putchar('\n');
	fflush(stdout);
}

/* start queues (one RUN per subgraph, in the order given) */
static int run_start(struct run_ctx *c, const __u32 *sg, const __u32 *q, int n)
{
	struct neuronsim_run_opts o = { .sz = sizeof(o) };
	__u32 list[NEURONSIM_RUN_MAX_QUEUES];
	int i, j, k, err;

	for (i = 0; i < n; i++) {
		/* the first of its subgraph: take all of that subgraph */
		for (j = 0; j < i && sg[j] != sg[i]; j++)
			;
		if (j < i)
			continue;
		for (k = 0, j = i; j < n; j++)
			if (sg[j] == sg[i] && k < (int)NEURONSIM_RUN_MAX_QUEUES)
				list[k++] = q[j];
		o.subgraph = sg[i];
		err = neuronsim_run(c->fd, c->model_id, &o, list, k);
		if (err) {
			run_err("run: RUN of %d queues of sg%u: %s", k, sg[i], strerror(-err));
			return 1;
		}
		for (j = 0; j < k; j++)
			if (c->npending < RUN_CMD_MAX_PENDING)
				c->pending[c->npending++] = sg[i] << 16 | list[j];
	}
	return 0;
}

/* wait for (and print) the pending queues of the given ones, or all */
static int run_wait_list(struct run_ctx *c, const __u32 *keys, int n)
{
	struct neuronsim_run_opts o = { .sz = sizeof(o) };
	struct neuronsim_run_result res;
	struct neuronsim_dma_queue_info *qs;
	unsigned int i, kept = 0;
	int failed = 0, err, nq, j;

	for (i = 0; i < c->npending; i++) {
		__u32 key = c->pending[i], sg = key >> 16, q = key & 0xffff;

		for (j = 0; j < n && keys[j] != key; j++)
			;
		if (n && j == n) {
			c->pending[kept++] = key;
			continue;
		}
		o.subgraph = sg;
		err = neuronsim_wait(c->fd, c->model_id, &o, &q, &res, 1);
		nq = run_queues(c, sg, &qs);
		if (err || nq <= (int)q) {
			run_err("wait: sg%u queue %u: %s", sg, q, strerror(err ? -err : ENOENT));
			failed = 1;
		} else {
			run_print_result(c, sg, &qs[q], &res);
			failed |= res.status != 0;
		}
		free(qs);
	}
	c->npending = kept;
	if (!c->json)
		printf("(%s)\n", RUN_NOTE);
	fflush(stdout);
	return failed;
}

/**
 * run_cmd_run() - the holder's "run [sgN/]QUEUE...": start the queues
 *	(one RUN per subgraph, in the order given) and return at once.
 * @c: the context.
 * @argc: words, argv[0] "run".
 * @argv: the queues.
 *
 * Return: 0, 1 on a failure (message printed), 2 on bad usage.
 */
int run_cmd_run(struct run_ctx *c, int argc, char **argv)
{
	__u32 sg[NEURONSIM_RUN_MAX_QUEUES], q[NEURONSIM_RUN_MAX_QUEUES];
	int i;

	if (argc < 2 || argc - 1 > (int)NEURONSIM_RUN_MAX_QUEUES) {
		run_err("run: name 1..%u queues ([sgN/]QUEUE)", NEURONSIM_RUN_MAX_QUEUES);
		return 2;
	}
	for (i = 1; i < argc; i++)
		if (run_parse_queue(c, argv[i], &sg[i - 1], &q[i - 1]))
			return 1;
	if (run_start(c, sg, q, argc - 1))
		return 1;
	if (c->json)
		run_json(c, json_pack("{s:i,s:s}", "started", argc - 1, "note", RUN_NOTE));
	else
		printf("started %d queue%s\n", argc - 1, argc == 2 ? "" : "s");
	fflush(stdout);
	return 0;
}

/**
 * run_cmd_wait() - the holder's "wait [[sgN/]QUEUE...]": wait for the
 *	queues "run" started (those named, or all) and print each result.
 * @c: the context.
 * @argc: words, argv[0] "wait".
 * @argv: the queues, or none for every pending one.
 *
 * Return: 0, 1 when a wait or a run failed.
 */
int run_cmd_wait(struct run_ctx *c, int argc, char **argv)
{
	__u32 keys[NEURONSIM_RUN_MAX_QUEUES], sg, q;
	int i;

	if (argc - 1 > (int)NEURONSIM_RUN_MAX_QUEUES)
		return 2;
	for (i = 1; i < argc; i++) {
		if (run_parse_queue(c, argv[i], &sg, &q))
			return 1;
		keys[i - 1] = sg << 16 | q;
	}
	return run_wait_list(c, keys, argc - 1);
}

/* the payload of a .npy file (after its header), or the whole file */
static int run_npy(const unsigned char *b, size_t n, size_t *off, char *desc,
		   size_t dlen)
{
	size_t hl;

	*off = 0;
	desc[0] = 0;
	if (n < 10 || memcmp(b, "\x93NUMPY", 6))
		return 0;
	if (b[6] == 1) {
		hl = b[8] | (size_t)b[9] << 8;
		*off = 10 + hl;
	} else if (n >= 12 && (b[6] == 2 || b[6] == 3)) {
		hl = b[8] | (size_t)b[9] << 8 | (size_t)b[10] << 16 | (size_t)b[11] << 24;
		*off = 12 + hl;
	} else {
		return -EINVAL;
	}
	if (*off > n)
		return -EINVAL;
	snprintf(desc, dlen, "%.*s", (int)(hl < 120 ? hl : 120),
		 (const char *)b + *off - hl);
	desc[strcspn(desc, "\n")] = 0;
	return 1;
}

/**
 * run_cmd_write() - "write VAR[+OFF] FILE": WRITE_VAR of the raw bytes of
 *	FILE, or of the payload of a .npy file, at the offset; they must fit
 *	the variable.
 * @c: the context.
 * @ref: VAR[+OFF] (no :SIZE: the file's size is the size).
 * @file: the file.
 *
 * Return: 0, 1 on a failure (message printed), 2 on a bad reference.
 */
int run_cmd_write(struct run_ctx *c, const char *ref, const char *file)
{
	const struct neuronsim_map_var *v;
	struct neuronsim_var_ref r;
	unsigned char *buf;
	void *data;
	size_t len = 0, off;
	char perr[256], desc[128];
	double t0;
	int err, npy;

	if (neuronsim_var_ref_parse(ref, &r, perr, sizeof(perr)) || r.has_size) {
		run_err("write: bad VAR[+OFFSET] '%s'%s%s", ref, r.has_size ? "" : ": ",
			r.has_size ? " (the file's size is the size)" : perr);
		return 2;
	}
	v = c->find(c->find_ctx, &r, ref);
	if (!v)
		return 1;
	err = nsim_read_file(file, &data, &len);
	if (err) {
		run_err("write: %s: %s", file, strerror(-err));
		return 1;
	}
	buf = data;
	npy = run_npy(buf, len, &off, desc, sizeof(desc));
	if (npy < 0) {
		run_err("write: %s: a .npy file with a bad header", file);
		free(buf);
		return 1;
	}
	len -= off;
	if (r.offset > v->size || len > v->size - r.offset) {
		run_err("write: %s: %zu bytes at offset %llu do not fit sg%u/%s (%llu bytes)",
			file, len, (unsigned long long)r.offset, v->subgraph, v->name,
			(unsigned long long)v->size);
		free(buf);
		return 1;
	}
	t0 = run_now();
	err = neuronsim_write_var(c->fd, c->model_id, v->subgraph, v->var_id,
				  r.offset, buf + off, len);
	t0 = run_now() - t0;
	free(buf);
	if (err) {
		run_err("write: sg%u/%s +%llu, %zu bytes: WRITE_VAR: %s", v->subgraph,
			v->name, (unsigned long long)r.offset, len, strerror(-err));
		return 1;
	}
	if (c->json)
		run_json(c, json_pack("{s:o,s:I,s:I,s:I,s:s,s:b,s:f}", "name", json_text(v->name),
				      "subgraph", (json_int_t)v->subgraph,
				      "offset", (json_int_t)r.offset, "bytes", (json_int_t)len,
				      "file", file, "npy", npy == 1, "ms", t0 * 1e3));
	else
		printf("wrote %zu bytes to sg%u/%s at +%llu from %s%s%s%s in %.3f ms\n",
		       len, v->subgraph, v->name, (unsigned long long)r.offset, file,
		       npy ? " (.npy payload, " : "", npy ? desc : "", npy ? ")" : "",
		       t0 * 1e3);
	fflush(stdout);
	return 0;
}

/**
 * run_cmd_read_out() - "read VAR [+OFF[:LEN]] --out FILE": READ_VAR of
 *	the bytes into FILE (raw).  Without LEN to the end of the variable
 *	(of the SBUF partition for an MR_SB offset).
 * @c: the context.
 * @ref: VAR[+OFF[:LEN]].
 * @file: the output file.
 *
 * Return: 0, 1 on a failure, 2 on a bad reference.
 */
int run_cmd_read_out(struct run_ctx *c, const char *ref, const char *file)
{
	const struct neuronsim_map_var *v;
	struct neuronsim_var_ref r;
	unsigned char *buf;
	__u64 len, k, n;
	char perr[256];
	double t0;
	FILE *f;
	int err = 0;

	if (neuronsim_var_ref_parse(ref, &r, perr, sizeof(perr))) {
		run_err("read: bad VAR %s", perr);
		return 2;
	}
	v = c->find(c->find_ctx, &r, ref);
	if (!v)
		return 1;
	len = r.has_size ? r.size : v->size > r.offset ? v->size - r.offset : 0;
	if (!r.has_size && v->mr_type == KBIN_MR_SB) {
		struct neuronsim_info info;

		if (!neuronsim_get_info(c->fd, &info) && info.sbuf_partitions) {
			__u64 stride = info.sbuf_window_size / info.sbuf_partitions;
			__u64 b = r.offset % stride;

			len = b < info.sbuf_partition_size ? info.sbuf_partition_size - b : 0;
		}
	}
	f = fopen(file, "wb");
	buf = malloc(RUN_CHUNK);
	if (!f || !buf) {
		run_err("read: %s: %s", file, strerror(errno));
		if (f)
			fclose(f);
		free(buf);
		return 1;
	}
	t0 = run_now();
	for (k = 0; k < len && !err; k += n) {
		n = len - k < RUN_CHUNK ? len - k : RUN_CHUNK;
		err = neuronsim_read_var(c->fd, c->model_id, v->subgraph, v->var_id,
					 r.offset + k, buf, n);
		if (!err && fwrite(buf, 1, n, f) != n)
			err = -EIO;
	}
	t0 = run_now() - t0;
	free(buf);
	if (fclose(f) && !err)
		err = -EIO;
	if (err) {
		run_err("read: sg%u/%s +%llu, %llu bytes into %s: %s", v->subgraph, v->name,
			(unsigned long long)(r.offset + k), (unsigned long long)len, file,
			strerror(-err));
		return 1;
	}
	if (c->json)
		run_json(c, json_pack("{s:o,s:I,s:I,s:I,s:s,s:f}", "name", json_text(v->name),
				      "subgraph", (json_int_t)v->subgraph,
				      "offset", (json_int_t)r.offset, "bytes", (json_int_t)len,
				      "file", file, "ms", t0 * 1e3));
	else
		printf("read %llu bytes of sg%u/%s at +%llu into %s in %.3f ms\n",
		       (unsigned long long)len, v->subgraph, v->name,
		       (unsigned long long)r.offset, file, t0 * 1e3);
	fflush(stdout);
	return 0;
}

/* every queue of every subgraph: in, data, dynamic */
static int run_all(struct run_ctx *c, __u32 *sg, __u32 *q, int max)
{
	struct neuronsim_dma_queue_info *qs;
	__u32 s, type;
	int n = 0, nq, i;

	for (s = 0; s < c->num_sg; s++) {
		nq = run_queues(c, s, &qs);
		for (type = KBIN_DMA_QUEUE_IN; type <= KBIN_DMA_QUEUE_TYPE_MAX; type++)
			for (i = 0; i < nq; i++)
				if (qs[i].type == type && n < max) {
					sg[n] = s;
					q[n++] = i;
				}
		free(qs);
	}
	return n;
}

/**
 * run_cmd_main() - "neuronsim run PLAN ...", after the command loaded PLAN
 *	into @c: the writes, the run, the wait, the reads.
 * @c: the context (the model loaded).
 * @argc: words after PLAN.
 * @argv: --queue, --write and --read options.
 *
 * Return: 0, 1 on a failure, 2 on bad usage.
 */
int run_cmd_main(struct run_ctx *c, int argc, char **argv)
{
	__u32 sg[NEURONSIM_RUN_MAX_QUEUES], q[NEURONSIM_RUN_MAX_QUEUES];
	int i, n = 0, rc = 0;
	char *eq;

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--queue") && i + 1 < argc) {
			i++;
			if (!strcmp(argv[i], "all")) {
				n = run_all(c, sg, q, NEURONSIM_RUN_MAX_QUEUES);
			} else if (n == (int)NEURONSIM_RUN_MAX_QUEUES) {
				run_err("run: more than %u queues", NEURONSIM_RUN_MAX_QUEUES);
				return 2;
			} else if (run_parse_queue(c, argv[i], &sg[n], &q[n])) {
				return 1;
			} else {
				n++;
			}
		} else if ((!strcmp(argv[i], "--write") || !strcmp(argv[i], "--read")) &&
			   i + 1 < argc) {
			i++;
		} else {
			run_err("run: unexpected '%s' (try --help)", argv[i]);
			return 2;
		}
	}
	if (!n) {
		run_err("run: no --queue given (try --help)");
		return 2;
	}
	for (i = 0; i < argc && !rc; i++) {
		if (strcmp(argv[i], "--write"))
			continue;
		eq = strrchr(argv[++i], '=');
		if (!eq) {
			run_err("run: --write VAR[+OFF]=FILE, not '%s'", argv[i]);
			return 2;
		}
		*eq = 0;
		rc = run_cmd_write(c, argv[i], eq + 1);
	}
	if (rc)
		return rc;
	if (run_start(c, sg, q, n))
		return 1;
	rc = run_wait_list(c, NULL, 0);
	for (i = 0; i < argc && !rc; i++) {
		if (strcmp(argv[i], "--read"))
			continue;
		eq = strrchr(argv[++i], '=');
		if (!eq) {
			run_err("run: --read VAR[+OFF[:LEN]]=FILE, not '%s'", argv[i]);
			return 2;
		}
		*eq = 0;
		rc = run_cmd_read_out(c, argv[i], eq + 1);
	}
	return rc;
}

/* ---- the subcommand and the holder's commands ---- */

static const struct neuronsim_map_var *run_find(void *ctx,
						const struct neuronsim_var_ref *r,
						const char *text)
{
	return vartab_find(ctx, r, text);
}

static void run_ctx_init(struct run_ctx *c, const struct vartab *t)
{
	size_t i;

	memset(c, 0, sizeof(*c));
	c->fd = t->fd;
	c->model_id = t->model_id;
	for (i = 0; i < t->n; i++)
		if (t->v[i].subgraph + 1 > c->num_sg)
			c->num_sg = t->v[i].subgraph + 1;
	c->json = tool_json;
	c->find = run_find;
	c->find_ctx = (void *)t;
}

/* the holder's run commands: queues started and not waited for */
static struct run_ctx hold_run;

/**
 * do_run_hold() - the holder's run commands (load --hold): "run
 *	[sgN/]QUEUE...", "wait [[sgN/]QUEUE...]", "write VAR[+OFF] FILE",
 *	"read VAR [+OFF[:LEN]] --out FILE".
 * @t: the held model's table.
 * @argc: words of the line.
 * @argv: the words; argv[0] is the command.
 *
 * Return: -1 when the line is none of these (the holder tries its other
 * commands), else 0 or 1 when the command failed (message printed).
 */
int do_run_hold(const struct vartab *t, int argc, char **argv)
{
	char ref[4096];

	if (!hold_run.find || hold_run.model_id != t->model_id)
		run_ctx_init(&hold_run, t);
	hold_run.json = tool_json;
	if (!strcmp(argv[0], "run"))
		return run_cmd_run(&hold_run, argc, argv) ? 1 : 0;
	if (!strcmp(argv[0], "wait"))
		return run_cmd_wait(&hold_run, argc, argv) ? 1 : 0;
	if (!strcmp(argv[0], "write") && argc == 3)
		return run_cmd_write(&hold_run, argv[1], argv[2]) ? 1 : 0;
	if (!strcmp(argv[0], "read") && argc >= 4 && argc <= 5 &&
	    !strcmp(argv[argc - 2], "--out")) {
		snprintf(ref, sizeof(ref), "%s%s", argv[1], argc == 5 ? argv[2] : "");
		return run_cmd_read_out(&hold_run, ref, argv[argc - 1]) ? 1 : 0;
	}
	return -1;
}

/* neuronsim run PLAN --queue ... */
static int cmd_run(int argc, char **argv)
{
	struct run_ctx c;
	struct vartab t;
	int rc;

	if (argc < 2)
		return usage_error("need PLAN (try --help)");
	vartab_init(&t);
	if (vartab_from_plan(&t, argv[1], NEURONSIM_CORE_ANY)) {
		vartab_free(&t);
		return 1;
	}
	run_ctx_init(&c, &t);
	rc = run_cmd_main(&c, argc - 2, argv + 2);
	vartab_free(&t);
	return rc;
}

const struct nsim_cmd nsim_cmd_run = {
	.name = "run",
	.summary = "run a plan's DMA queues on the simulated DMA engine",
	.usage = "run PLAN --queue [sgN/]QUEUE... [--write VAR[+OFF]=FILE]...\n"
		 "              [--read VAR[+OFF[:LEN]]=FILE]...",
	.help = "  load PLAN, write each FILE into its variable (raw bytes, or the\n"
		"  payload of a .npy file; it must fit), run the DMA queues on the\n"
		"  simulated DMA engine of their NeuronCore (--queue all: every queue,\n"
		"  in, data then dynamic), wait, print each queue's blocks,\n"
		"  descriptors, bytes and time, read each --read range into its FILE,\n"
		"  unload.  QUEUE is a name or an index (see 'dma').  Only the DMA\n"
		"  engine moves bytes here; the compute engines (PE, ACT, POOL, DVE)\n"
		"  run their streams under 'exec'.\n",
	.run = cmd_run,
};
