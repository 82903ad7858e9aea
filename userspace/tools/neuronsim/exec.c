// SPDX-License-Identifier: GPL-2.0
/*
 * exec.c - "exec" and the holder's "exec": execute a model's program on
 * the device (neuronsim_exec(), NEURONSIM_IOC_EXECUTE): the five
 * sequencers of every subgraph on its NeuronCore's semaphores, the DMA
 * blocks their triggers start moving bytes on the DMA engine.  Prints per
 * subgraph its status and virtual time, per engine its counts, state and
 * what it waits for, per DMA queue its blocks in the order the program
 * first triggered them, the semaphores that are not 0, the 0xD4s whose
 * data movement is not simulated; writes the Chrome trace
 * (prog_trace_write(), the host replay's writer).  Compute is counted,
 * not computed.  Documentation/execute.rst.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kbin_dma.h"
#include "kbin_names.h"
#include "kbin_prog.h"
#include "kbin_reader.h"
#include "main.h"
#include "prog_trace.h"
#include "run.h"

#define EXEC_NOTE "compute (PE, ACT, POOL, DVE payloads) is counted, not computed: only the DMA blocks moved bytes"
#define EXEC_NOTE_COMPUTE "compute (PE, ACT, POOL, DVE) ran on the NeuronCore's SBUF and PSUM: the plan is in neuronsim's compute encoding"

/* what the execution of @v did of compute (Documentation/compute.rst) */
static const char *exec_note(const struct kbin_view *v)
{
	return v->prog && (v->prog->flags & KBIN_PROG_F_COMPUTE) ?
	       EXEC_NOTE_COMPUTE : EXEC_NOTE;
}

/* "12.345 us" */
static void exec_us(char *buf, size_t cap, __u64 ns)
{
	snprintf(buf, cap, "%" PRIu64 ".%03u us", (uint64_t)(ns / 1000),
		 (unsigned int)(ns % 1000));
}

static const char *exec_status_str(int status)
{
	switch (status) {
	case 0:
		return "finished";
	case -EDEADLK:
		return "deadlock";
	case -ETIME:
		return "timeout";
	case -EINTR:
		return "cancelled";
	}
	return "failed";
}

/*
 * The queues of subgraph @s in the order the program first triggered
 * them (their first trigger event), queues never triggered last, in
 * index order.  @order gets @nq indexes.
 */
static void exec_queue_order(const struct neuronsim_exec_result *r,
			     const struct kbin_dma_sg_view *dv, __u32 s,
			     __u32 *order, __u32 nq)
{
	const struct neuronsim_exec_event *ev = r->events;
	__u32 i, k, n = 0, t;
	unsigned char *seen = calloc(nq + 1, 1);

	for (t = 0; t < s; t++)
		ev += r->sg[t].num_events;
	for (i = 0; seen && ev && i < r->sg[s].num_events && n < nq; i++)
		if (ev[i].kind == NEURONSIM_EVENT_TRIGGER && ev[i].count < dv->num_blocks) {
			k = dv->blocks[ev[i].count].queue;
			if (k < nq && !seen[k]) {
				seen[k] = 1;
				order[n++] = k;
			}
		}
	for (k = 0; k < nq && n < nq; k++)
		if (!seen || !seen[k])
			order[n++] = k;
	free(seen);
}

static void exec_text(const char *what, const struct kbin_view *v,
		      const struct neuronsim_exec_result *r)
{
	const struct neuronsim_exec_wait *w = &r->summary;
	__u32 s, e, c, k, q0 = 0, op;
	char t[40], t2[40];

	exec_us(t, sizeof(t), w->virtual_ns);
	printf("%s: %s: %u subgraphs, %llu instructions, %llu DMA blocks, %llu bytes, %s of virtual time, %.3f ms wall\n",
	       what, exec_status_str(w->status), w->num_sg,
	       (unsigned long long)w->instructions, (unsigned long long)w->blocks,
	       (unsigned long long)w->bytes, t, w->wall_ns / 1e6);
	for (s = 0; s < r->num_sg; s++) {
		const struct neuronsim_exec_sg *x = &r->sg[s];
		struct kbin_dma_sg_view dv;
		__u32 order[KBIN_PROG_MAX_QUEUES + 64];
		int first = 1;

		if (kbin_view_dma_sg(v, s, &dv))
			memset(&dv, 0, sizeof(dv));
		exec_us(t, sizeof(t), x->virtual_ns);
		printf("%s (subgraph %u) on NeuronCore %u: %s at %s (%.3f ms wall)",
		       kbin_view_subgraph(v, s)->name, s, x->core,
		       exec_status_str(x->status), t, x->wall_ns / 1e6);
		if (x->status && x->status != -EDEADLK)
			printf(": %s", strerror(-x->status));
		if (x->fail_queue != 0xffffffffU && x->fail_queue < dv.num_queues)
			printf(" in queue %s block %u descriptor %u",
			       kbin_view_str(v, dv.queues[x->fail_queue].name),
			       x->fail_block, x->fail_desc);
		putchar('\n');
		for (e = 0; e < NEURONSIM_ENGINES; e++) {
			const struct neuronsim_exec_engine *g = &x->engines[e];

			exec_us(t, sizeof(t), g->busy_ns);
			printf("  %s: %u of %u instructions (", kbin_dma_engine_str(e + 1),
			       g->done, g->instructions);
			for (c = 0; c < NEURONSIM_INSTR_CLASSES; c++)
				printf("%s%s %u", c ? ", " : "", kbin_prog_class_str(c),
				       g->classes[c]);
			printf("), busy %s", t);
			if (g->blocks)
				printf(", %u DMA blocks, %llu descriptors, %llu bytes",
				       g->blocks, (unsigned long long)g->descs,
				       (unsigned long long)g->bytes);
			if (g->not_simulated)
				printf(", %u 0xD4 (data movement not simulated)",
				       g->not_simulated);
			if (g->state == NEURONSIM_ENGINE_WAITING)
				printf("; waits at instruction %u (opcode 0x%02x) for semaphore %u >= %u, it is %d",
				       g->done, g->wait_opcode, g->wait_semaphore,
				       g->wait_value, g->wait_current);
			else if (g->state != NEURONSIM_ENGINE_DONE)
				printf("; %s at instruction %u", kbin_engine_state_str(g->state),
				       g->done);
			putchar('\n');
			if (!g->done)
				continue;
			printf("    opcodes:");
			for (op = 0; op < 256; op++)
				if (g->opcodes[op])
					printf(" 0x%02x %u", op, g->opcodes[op]);
			putchar('\n');
		}
		if (x->num_queues <= sizeof(order) / sizeof(order[0]))
			exec_queue_order(r, &dv, s, order, x->num_queues);
		for (k = 0; k < x->num_queues && q0 + k < r->num_queues; k++) {
			__u32 qi = x->num_queues <= sizeof(order) / sizeof(order[0]) ?
				   order[k] : k;
			const struct neuronsim_exec_queue *q = &r->queues[q0 + qi];

			exec_us(t2, sizeof(t2), q->busy_ns);
			printf("  queue %s (%s): %u of %u blocks, %u descriptors, %llu bytes, busy %s\n",
			       qi < dv.num_queues ? kbin_view_str(v, dv.queues[qi].name) : "?",
			       qi < dv.num_queues ? kbin_dma_engine_str(dv.queues[qi].owner) : "?",
			       q->blocks, qi < dv.num_queues ? dv.queues[qi].num_blocks : 0,
			       q->descs, (unsigned long long)q->bytes, t2);
		}
		q0 += x->num_queues;
		printf("  semaphores:");
		for (k = 0; k < NEURONSIM_SEMAPHORES; k++)
			if (x->semaphores[k]) {
				printf(" %u=%d", k, x->semaphores[k]);
				first = 0;
			}
		printf("%s\n", first ? " all 0" : "");
	}
	if (w->not_simulated)
		printf("0xD4: %llu instructions applied their semaphore increments; their data movement is not simulated (not publicly described)\n",
		       (unsigned long long)w->not_simulated);
	printf("(%s)\n", exec_note(v));
}

static json_t *exec_json(const char *what, const struct kbin_view *v,
			 const struct neuronsim_exec_result *r)
{
	const struct neuronsim_exec_wait *w = &r->summary;
	json_t *sgs = json_array(), *o;
	__u32 s, e, c, k, q0 = 0;
	char key[16];

	for (s = 0; s < r->num_sg; s++) {
		const struct neuronsim_exec_sg *x = &r->sg[s];
		json_t *engs = json_array(), *qs = json_array(), *sems = json_object();
		struct kbin_dma_sg_view dv;

		if (kbin_view_dma_sg(v, s, &dv))
			memset(&dv, 0, sizeof(dv));
		for (e = 0; e < NEURONSIM_ENGINES; e++) {
			const struct neuronsim_exec_engine *g = &x->engines[e];
			json_t *cls = json_object(), *ops = json_object();

			for (c = 0; c < NEURONSIM_INSTR_CLASSES; c++)
				json_object_set_new(cls, kbin_prog_class_str(c),
						    json_integer(g->classes[c]));
			for (c = 0; c < 256; c++)
				if (g->opcodes[c]) {
					snprintf(key, sizeof(key), "0x%02x", c);
					json_object_set_new(ops, key, json_integer(g->opcodes[c]));
				}
			o = json_pack("{s:s,s:I,s:I,s:s,s:o,s:o,s:I,s:I,s:I,s:I,s:I,s:I}",
				      "engine", kbin_dma_engine_str(e + 1),
				      "instructions", (json_int_t)g->instructions,
				      "done", (json_int_t)g->done,
				      "state", kbin_engine_state_str(g->state), "classes", cls,
				      "opcodes", ops, "blocks", (json_int_t)g->blocks,
				      "descs", (json_int_t)g->descs,
				      "bytes", (json_int_t)g->bytes,
				      "busy_ns", (json_int_t)g->busy_ns,
				      "end_ns", (json_int_t)g->end_ns,
				      "not_simulated", (json_int_t)g->not_simulated);
			if (o && g->state == NEURONSIM_ENGINE_WAITING)
				json_object_set_new(o, "waiting", json_pack("{s:I,s:I,s:I,s:I,s:I}",
					"index", (json_int_t)g->done,
					"opcode", (json_int_t)g->wait_opcode,
					"semaphore", (json_int_t)g->wait_semaphore,
					"wanted", (json_int_t)g->wait_value,
					"current", (json_int_t)g->wait_current));
			json_array_append_new(engs, o);
		}
		for (k = 0; k < x->num_queues && q0 + k < r->num_queues; k++) {
			const struct neuronsim_exec_queue *q = &r->queues[q0 + k];

			json_array_append_new(qs, json_pack("{s:o,s:s,s:I,s:I,s:I,s:I,s:I,s:I}",
				"name", json_text(k < dv.num_queues ?
						  kbin_view_str(v, dv.queues[k].name) : "?"),
				"owner", k < dv.num_queues ?
					 kbin_dma_engine_str(dv.queues[k].owner) : "?",
				"blocks", (json_int_t)(k < dv.num_queues ? dv.queues[k].num_blocks : 0),
				"done", (json_int_t)q->blocks, "descs", (json_int_t)q->descs,
				"udma_descs", (json_int_t)q->udma_descs,
				"bytes", (json_int_t)q->bytes,
				"busy_ns", (json_int_t)q->busy_ns));
		}
		q0 += x->num_queues;
		for (k = 0; k < NEURONSIM_SEMAPHORES; k++)
			if (x->semaphores[k]) {
				snprintf(key, sizeof(key), "%u", k);
				json_object_set_new(sems, key, json_integer(x->semaphores[k]));
			}
		o = json_pack("{s:o,s:I,s:s,s:I,s:b,s:I,s:I,s:o,s:o,s:o}",
			      "name", json_text(kbin_view_subgraph(v, s)->name),
			      "core", (json_int_t)x->core,
			      "result", exec_status_str(x->status),
			      "status", (json_int_t)x->status, "finished", !x->status,
			      "virtual_ns", (json_int_t)x->virtual_ns,
			      "wall_ns", (json_int_t)x->wall_ns, "engines", engs,
			      "queues", qs, "semaphores", sems);
		if (o && x->fail_queue != 0xffffffffU)
			json_object_set_new(o, "failed", json_pack("{s:I,s:I,s:I}",
				"queue", (json_int_t)x->fail_queue,
				"block", (json_int_t)x->fail_block,
				"desc", (json_int_t)x->fail_desc));
		json_array_append_new(sgs, o);
	}
	o = json_pack("{s:s,s:s,s:I,s:b,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:o,s:s}",
		      "model", what, "result", exec_status_str(w->status),
		      "status", (json_int_t)w->status, "finished", !w->status,
		      "virtual_ns", (json_int_t)w->virtual_ns,
		      "wall_ns", (json_int_t)w->wall_ns,
		      "instructions", (json_int_t)w->instructions,
		      "blocks", (json_int_t)w->blocks, "bytes", (json_int_t)w->bytes,
		      "not_simulated", (json_int_t)w->not_simulated,
		      "executions", (json_int_t)w->executions, "subgraphs", sgs,
		      "note", exec_note(v));
	if (o && w->status)
		json_object_set_new(o, "error", json_string(strerror(-w->status)));
	return o;
}

/*
 * Execute the model of @t (its plan is @t->plan), wait, print; the trace
 * into @trace when given.  Return: 0 finished, 1 otherwise (a message).
 */
static int exec_model(const struct vartab *t, const char *what, __u64 timeout_ns,
		      const char *trace, bool race)
{
	struct neuronsim_exec_result *r = NULL;
	struct kbin_check_result res;
	struct prog_trace_sg *ts = NULL;
	struct kbin_view v;
	__u64 need = 0;
	__u32 s, e, off = 0;
	int err, rc = 0;
	NEURONSIM_OPTS_INIT(exec_opts, o, .timeout_ns = timeout_ns,
			    .flags = race ? NEURONSIM_EXEC_F_RACE : 0);

	if (!t->plan || kbin_read(t->plan, t->plan_len, &v, &res)) {
		errmsg_errno(EINVAL, "%s: the plan cannot be read back", what);
		return 1;
	}
	for (s = 0; s < v.num_subgraphs; s++) {
		struct kbin_prog_sg_view pv;
		struct kbin_dma_sg_view dv;

		if (!kbin_view_prog_sg(&v, s, &pv))
			for (e = 0; e < KBIN_PROG_ENGINES; e++)
				need += pv.num[e];
		if (!kbin_view_dma_sg(&v, s, &dv))
			need += dv.num_blocks;
	}
	/* the events give the queues' order, and the trace */
	o.max_events = need < NEURONSIM_EXEC_MAX_EVENTS ? (__u32)need + 1 :
		       NEURONSIM_EXEC_MAX_EVENTS;
	err = neuronsim_exec(t->fd, t->model_id, &o, &r);
	if (!r) {
		errmsg_errno(-err, "%s: %s%s", what, strerror(-err),
			     err == -ENODATA ? " (the plan has no program: KBIN version 3 carries one)" :
			     err == -EBUSY ? " (it executes, a queue of it runs, or another execution holds its NeuronCore)" : "");
		return 1;
	}
	if (tool_json)
		tool_json_print(exec_json(what, &v, r));
	else
		exec_text(what, &v, r);
	if (trace) {
		FILE *f = fopen(trace, "w");

		ts = calloc(r->num_sg + 1, sizeof(*ts));
		for (s = 0; ts && s < r->num_sg; s++) {
			ts[s].ev = r->events ? r->events + off : NULL;
			ts[s].n = r->events ? r->sg[s].num_events : 0;
			off += r->sg[s].num_events;
		}
		err = !f || !ts ? -errno : prog_trace_write(f, &v, "neuronsim exec", ts,
							     r->num_sg);
		if (f && fclose(f) && !err)
			err = -EIO;
		if (err) {
			errmsg_errno(-err, "--trace %s: %s", trace, strerror(-err));
			rc = 1;
		} else if (!tool_json) {
			printf("trace: %s (%u events; Perfetto, chrome://tracing)\n", trace,
			       r->num_events);
		}
		free(ts);
	}
	if (r->summary.status) {
		errmsg_errno(-r->summary.status, "%s: %s (%s)", what,
			     exec_status_str(r->summary.status),
			     strerror(-r->summary.status));
		rc = 1;
	}
	fflush(stdout);
	neuronsim_exec_result_free(r);
	return rc;
}

/* --timeout MS into nanoseconds; 0 or 2 with a message */
static int exec_timeout(const char *s, __u64 *ns)
{
	__u32 ms;

	if (parse_u32_arg("--timeout", s, &ms))
		return 2;
	*ns = (__u64)ms * 1000000ULL;
	return 0;
}

/**
 * do_exec_hold() - the holder's "exec [--timeout MS] [--trace FILE]
 *	[--race-check]":
 *	execute the held model, wait, print.
 * @t: the held model's table (loaded from its plan).
 * @argc: words of the line.
 * @argv: the words; argv[0] is "exec".
 *
 * Return: 0, 1 when it did not finish or failed, 2 on bad usage.
 */
int do_exec_hold(const struct vartab *t, int argc, char **argv)
{
	const char *trace = NULL;
	bool race = false;
	__u64 timeout = 0;
	char what[32];
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--timeout") && i + 1 < argc) {
			if (exec_timeout(argv[++i], &timeout))
				return 2;
		} else if (!strcmp(argv[i], "--trace") && i + 1 < argc) {
			trace = argv[++i];
		} else if (!strcmp(argv[i], "--race-check")) {
			race = true;
		} else {
			errmsg_errno(EINVAL, "exec: unexpected '%s' (exec [--timeout MS] [--trace FILE] [--race-check])",
				     argv[i]);
			return 2;
		}
	}
	snprintf(what, sizeof(what), "model %u", t->model_id);
	return exec_model(t, what, timeout, trace, race);
}

static const struct neuronsim_map_var *exec_find(void *ctx,
						 const struct neuronsim_var_ref *r,
						 const char *text)
{
	return vartab_find(ctx, r, text);
}

/* neuronsim exec PLAN ... */
static int cmd_exec(int argc, char **argv)
{
	const char *trace = NULL;
	bool race = false;
	struct run_ctx c;
	struct vartab t;
	__u64 timeout = 0;
	int i, rc = 0;
	char *eq;

	if (argc < 2)
		return usage_error("need PLAN (try --help)");
	for (i = 2; i < argc; i++) {
		if ((!strcmp(argv[i], "--write") || !strcmp(argv[i], "--read")) &&
		    i + 1 < argc && strrchr(argv[i + 1], '=')) {
			i++;
		} else if (!strcmp(argv[i], "--timeout") && i + 1 < argc) {
			if (exec_timeout(argv[++i], &timeout))
				return 2;
		} else if (!strcmp(argv[i], "--trace") && i + 1 < argc) {
			trace = argv[++i];
		} else if (!strcmp(argv[i], "--race-check")) {
			race = true;
		} else {
			return usage_error("exec: unexpected '%s' (try --help)", argv[i]);
		}
	}
	vartab_init(&t);
	if (vartab_from_plan(&t, argv[1], NEURONSIM_CORE_ANY)) {
		vartab_free(&t);
		return 1;
	}
	memset(&c, 0, sizeof(c));
	c.fd = t.fd;
	c.model_id = t.model_id;
	c.json = tool_json;
	c.find = exec_find;
	c.find_ctx = &t;
	for (i = 2; i < argc && !rc; i++) {
		if (strcmp(argv[i], "--write"))
			continue;
		eq = strrchr(argv[++i], '=');
		*eq = 0;
		rc = run_cmd_write(&c, argv[i], eq + 1);
	}
	if (!rc)
		rc = exec_model(&t, argv[1], timeout, trace, race);
	for (i = 2; i < argc; i++) {
		if (strcmp(argv[i], "--read"))
			continue;
		eq = strrchr(argv[++i], '=');
		*eq = 0;
		if (run_cmd_read_out(&c, argv[i], eq + 1))
			rc = 1;
	}
	vartab_free(&t);
	return rc;
}

const struct nsim_cmd nsim_cmd_exec = {
	.name = "exec",
	.summary = "execute a plan's program on the device: sequencers, semaphores, DMA",
	.usage = "exec PLAN [--write VAR[+OFF]=FILE]... [--read VAR[+OFF[:LEN]]=FILE]...\n"
		 "              [--timeout MS] [--trace FILE] [--race-check]",
	.help = "  load PLAN (KBIN version 3, with a program), write each FILE into its\n"
		"  variable (raw bytes, or the payload of a .npy file), execute every\n"
		"  subgraph on its NeuronCore (EXECUTE: five sequencers on the core's\n"
		"  semaphores, triggers starting DMA blocks that move bytes), wait,\n"
		"  print per subgraph its status and virtual time, per engine its\n"
		"  instructions by class and opcode and what it waits for, per DMA\n"
		"  queue its blocks (in the order the program triggered them), the\n"
		"  semaphores that are not 0; read each --read range into its FILE;\n"
		"  unload.  --timeout MS stops the execution (ETIME); --trace FILE\n"
		"  writes it as Chrome trace-event JSON (Perfetto, chrome://tracing).\n"
		"  A deadlock prints where each engine waits and exits 1 (EDEADLK).\n"
		"  --race-check checks every access against the program's order as it\n"
		"  runs (Documentation/races.rst): a race makes the subgraph's status\n"
		"  EILSEQ, the kernel log names both sides, and the exit status is 1.\n"
		"  A plan lowered from BIR (neuronsim's compute encoding) computes: its\n"
		"  PE, ACT, POOL and DVE instructions run on the core's SBUF and PSUM.\n"
		"  A real NEFF's compute is counted, not computed (no public format);\n"
		"  the data movement of 0xD4 is not simulated (its semaphore effect is).\n",
	.run = cmd_exec,
};
