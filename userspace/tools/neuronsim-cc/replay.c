// SPDX-License-Identifier: GPL-2.0
/*
 * replay.c - neuronsim-cc replay: the host reference of an execution
 * (Documentation/execute.rst) - every subgraph's program run in virtual
 * time, its accounts, a deadlock's waiting engines, and its Chrome trace.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kbin_prog.h"
#include "main.h"
#include "prog_replay.h"

static const char usage_replay[] =
	"usage: neuronsim-cc replay [-j] [--trace FILE] MODEL.kbin|MODEL.neff|DIR|MODEL.bir.json\n"
	"\n"
	"Replay the program of every subgraph on the host, in virtual time\n"
	"(Documentation/execute.rst): five sequencers per subgraph wait on\n"
	"semaphores, triggers start DMA blocks, blocks run first in first out\n"
	"per queue.  Print per subgraph when it finished, per engine its\n"
	"instructions by class and busy time, per DMA queue the order its\n"
	"blocks ran, and the semaphores that are not 0.  A model that is not a\n"
	"KBIN plan is compiled first.  A deadlock prints where each engine\n"
	"waits and exits 1.\n"
	"\n"
	"  -j, --json      print JSON\n"
	"  --trace FILE    write the execution as Chrome trace-event JSON\n"
	"                  (Perfetto, chrome://tracing)\n";

/* virtual ns as "12.345 us" */
static void cc_us(char *buf, size_t cap, uint64_t ns)
{
	snprintf(buf, cap, "%" PRIu64 ".%03u us", ns / 1000,
		 (unsigned int)(ns % 1000));
}

/* ids as runs "0..31,33,32" */
static void cc_order_text(const uint32_t *ids, uint32_t n)
{
	uint32_t i, j;

	if (!n) {
		printf("none");
		return;
	}
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && ids[j] == ids[j - 1] + 1; j++)
			;
		printf("%s%u", i ? "," : "", ids[i]);
		if (j - i > 1)
			printf("..%u", ids[j - 1]);
	}
}

static void cc_replay_text(const char *in, const struct prog_replay *r)
{
	char t[40];
	uint32_t s, e, k, c;

	cc_us(t, sizeof(t), r->end_ns);
	printf("%s: %u subgraphs, %" PRIu64 " instructions, %" PRIu64 " DMA blocks, %s in %s of virtual time\n",
	       in, r->nsg, r->instrs, r->blocks,
	       r->finished ? "finished" : "did not finish", t);
	for (s = 0; s < r->nsg; s++) {
		const struct prog_replay_sg *sg = &r->sg[s];
		int first = 1;

		cc_us(t, sizeof(t), sg->end_ns);
		printf("%s: %s at %s\n", sg->name,
		       sg->finished ? "finished" : "deadlock", t);
		for (e = 0; e < KBIN_PROG_ENGINES; e++) {
			const struct prog_replay_engine *g = &sg->eng[e];

			cc_us(t, sizeof(t), g->busy_ns);
			printf("  %s: %u of %u instructions (", kbin_dma_engine_str(e + 1),
			       g->done, g->total);
			for (c = 0; c <= KBIN_PROG_CLASS_MAX; c++)
				printf("%s%s %" PRIu64, c ? ", " : "",
				       kbin_prog_class_str(c), g->by_class[c]);
			printf("), busy %s", t);
			if (g->waiting)
				printf("; waits at instruction %u (opcode 0x%02x) for semaphore %u >= %u, it is %d",
				       g->done, g->opcode, g->wait_sem, g->wanted,
				       g->current);
			printf("\n");
		}
		for (k = 0; k < sg->nq; k++) {
			const struct prog_replay_queue *q = &sg->q[k];

			cc_us(t, sizeof(t), q->busy_ns);
			printf("  queue %s (%s): %u of %u blocks, order ", q->name,
			       kbin_dma_engine_str(q->owner), q->done, q->blocks);
			cc_order_text(q->order, q->done);
			printf(", %" PRIu64 " bytes, busy %s\n", q->bytes, t);
		}
		printf("  semaphores:");
		for (k = 0; k < sg->nsems; k++)
			if (sg->sems[k]) {
				printf(" %u=%d", k, sg->sems[k]);
				first = 0;
			}
		printf("%s\n", first ? " all 0" : "");
	}
}

static json_t *cc_replay_json(const char *in, const struct prog_replay *r)
{
	json_t *sgs = json_array();
	uint32_t s, e, k, c;

	for (s = 0; s < r->nsg; s++) {
		const struct prog_replay_sg *sg = &r->sg[s];
		json_t *engs = json_array(), *qs = json_array(), *sems = json_array();

		for (e = 0; e < KBIN_PROG_ENGINES; e++) {
			const struct prog_replay_engine *g = &sg->eng[e];
			json_t *cls = json_object(), *ops = json_object(), *o;
			char key[8];

			for (c = 0; c <= KBIN_PROG_CLASS_MAX; c++)
				json_object_set_new(cls, kbin_prog_class_str(c),
						    json_integer((json_int_t)g->by_class[c]));
			for (c = 0; c < 256; c++)
				if (g->opcodes[c]) {
					snprintf(key, sizeof(key), "0x%02x", c);
					json_object_set_new(ops, key,
							    json_integer((json_int_t)g->opcodes[c]));
				}
			o = json_pack("{s:s,s:I,s:I,s:o,s:o,s:I,s:I}",
				      "engine", kbin_dma_engine_str(e + 1),
				      "instructions", (json_int_t)g->total,
				      "done", (json_int_t)g->done, "classes", cls,
				      "opcodes", ops, "busy_ns", (json_int_t)g->busy_ns,
				      "end_ns", (json_int_t)g->end_ns);
			if (g->waiting)
				json_object_set_new(o, "waiting", json_pack("{s:I,s:I,s:I,s:I,s:I}",
					"index", (json_int_t)g->done,
					"opcode", (json_int_t)g->opcode,
					"semaphore", (json_int_t)g->wait_sem,
					"wanted", (json_int_t)g->wanted,
					"current", (json_int_t)g->current));
			json_array_append_new(engs, o);
		}
		for (k = 0; k < sg->nq; k++) {
			const struct prog_replay_queue *q = &sg->q[k];
			json_t *order = json_array();

			for (c = 0; c < q->done; c++)
				json_array_append_new(order, json_integer(q->order[c]));
			json_array_append_new(qs, json_pack("{s:o,s:s,s:I,s:I,s:o,s:I,s:I}",
				"name", json_text(q->name),
				"owner", kbin_dma_engine_str(q->owner),
				"blocks", (json_int_t)q->blocks,
				"done", (json_int_t)q->done, "order", order,
				"bytes", (json_int_t)q->bytes,
				"busy_ns", (json_int_t)q->busy_ns));
		}
		for (k = 0; k < sg->nsems; k++)
			json_array_append_new(sems, json_integer(sg->sems[k]));
		json_array_append_new(sgs, json_pack("{s:o,s:b,s:I,s:o,s:o,s:o}",
			"name", json_text(sg->name), "finished", sg->finished,
			"end_ns", (json_int_t)sg->end_ns, "engines", engs,
			"queues", qs, "semaphores", sems));
	}
	return json_pack("{s:o,s:b,s:I,s:I,s:I,s:o}", "model", json_text(in),
			 "finished", r->finished, "virtual_ns", (json_int_t)r->end_ns,
			 "instructions", (json_int_t)r->instrs,
			 "blocks", (json_int_t)r->blocks, "subgraphs", sgs);
}

/*
 * The command, given its words from "replay" on.  Return: the exit
 * status: 0 when every subgraph finished, 1 for a deadlock (after the
 * report) or an error.
 */
static int run(int argc, char **argv)
{
	struct tool_opt opts[] = {
		{ .name = "j" }, { .name = "json" }, { .name = "p" },
		{ .name = "pretty" }, { .name = "trace", .arg = true },
		{ .name = "h" }, { .name = "help" }, { .name = NULL },
	};
	struct tool_err e = { .cmd = "replay" };
	struct prog_replay_opts o = { 0 };
	struct kbin_check_result res;
	struct prog_replay *r = NULL;
	struct kbin_view v;
	const char *in, *tpath;
	void *buf = NULL;
	size_t len;
	int npos, ret, status = 1;

	if (tool_parse_opts("replay", argc - 1, argv + 1, opts, &npos))
		return 1;
	if (opts[5].seen || opts[6].seen) {
		fputs(usage_replay, stdout);
		return 0;
	}
	if (opts[0].seen || opts[1].seen || opts[2].seen || opts[3].seen)
		tool_json_on(0);
	if (npos != 1) {
		e.err = EINVAL;
		tool_error(&e, "expected exactly one MODEL argument");
		if (!tool_json)
			fprintf(stderr, "\n%s", usage_replay);
		return 1;
	}
	in = argv[1];
	e.file = in;
	tpath = opts[4].val;
	if (cc_load_plan("replay", in, &buf, &len))
		return 1;
	if (kbin_read(buf, len, &v, &res)) {
		e.err = EINVAL;
		tool_error(&e, "%s (%s)", res.err.msg, kbin_reason_str(res.err.reason));
		goto out;
	}
	if (tpath) {
		o.trace = fopen(tpath, "w");
		if (!o.trace) {
			e.err = errno;
			e.file = tpath;
			tool_error(&e, "%s", strerror(errno));
			goto out;
		}
	}
	ret = prog_replay_plan(&v, &o, &r);
	if (o.trace && fclose(o.trace) && !ret)
		ret = -EIO;
	if (ret) {
		e.err = ret;
		if (ret == -ENODATA)
			tool_error(&e, "the plan has no program (KBIN v%u, no program section)",
				   v.hdr->version);
		else
			tool_error(&e, "replay failed (%s)", strerror(-ret));
		goto out;
	}
	if (tool_json)
		status = tool_json_print(cc_replay_json(in, r)) ? 1 : 0;
	else
		cc_replay_text(in, r);
	if (!r->finished) {
		uint32_t s, n = 0;

		for (s = 0; s < r->nsg; s++)
			n += !r->sg[s].finished;
		e.err = EDEADLK;
		tool_error(&e, "deadlock: %u of %u subgraphs did not finish", n, r->nsg);
		status = 1;
	} else if (!tool_json) {
		status = 0;
	}
out:
	prog_replay_free(r);
	free(buf);
	return status;
}

const struct cc_cmd cc_cmd_replay = {
	.name = "replay",
	.usage = usage_replay,
	.run = run,
};
