// SPDX-License-Identifier: GPL-2.0
/*
 * prog.c - engine programs in neuronsim-cc (prog.h): per engine the
 * instruction count, the opcode histogram and the triggers per queue
 * (info --program from a NEFF's streams, dump --program from a plan's,
 * with one line per instruction), and the replay command: the host
 * reference of an execution, its accounts and its Chrome trace
 * (Documentation/execute.rst).  Every record is decoded by
 * kbin_prog_decode(), the decoder the checker and the kernel run.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bir/bir.h"
#include "kbin_dma.h"
#include "kbin_prog.h"
#include "nsim_file.h"
#include "prog.h"
#include "prog_replay.h"
#include "tool.h"

/* distinct queue names a stream's summary counts; the rest are "other" */
#define CC_PROG_QUEUES	KBIN_PROG_MAX_QUEUES

/* what one stream holds */
struct cc_stream_sum {
	uint64_t count, waits, updates;
	uint64_t opcodes[256];
	uint64_t classes[KBIN_PROG_CLASS_MAX + 1];
	char qname[CC_PROG_QUEUES][KBIN_PROG_QNAME_MAX];
	uint64_t qcount[CC_PROG_QUEUES];
	uint32_t nq;
	uint64_t other;		/* triggers of names past CC_PROG_QUEUES */
};

/* @n records at @recs, decoded one by one */
static void cc_stream_sum(const uint8_t *recs, uint32_t n,
			  struct cc_stream_sum *s)
{
	struct kbin_prog_sync x;
	uint32_t i, k;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < n; i++) {
		const uint8_t *r = recs + (uint64_t)i * KBIN_PROG_RECORD_SIZE;
		char name[KBIN_PROG_QNAME_MAX];

		kbin_prog_decode(r, &x);
		s->count++;
		s->opcodes[x.opcode]++;
		s->classes[x.cls]++;
		s->waits += x.wait_mode == KBIN_PROG_WAIT_GE;
		s->updates += x.update_mode == KBIN_PROG_UPDATE_INC;
		if (x.cls != KBIN_PROG_CLASS_TRIGGER)
			continue;
		memcpy(name, r + 12, sizeof(name));
		name[sizeof(name) - 1] = '\0';
		for (k = 0; k < s->nq && strcmp(s->qname[k], name); k++)
			;
		if (k == s->nq && k < CC_PROG_QUEUES) {
			memcpy(s->qname[k], name, sizeof(name));
			s->nq++;
		}
		if (k < s->nq)
			s->qcount[k]++;
		else
			s->other++;
	}
}

static void cc_stream_text(const char *eng, const char *member,
			   const struct cc_stream_sum *s)
{
	uint32_t k, o, first = 1;

	printf("    %s %s: %" PRIu64 " instructions, %" PRIu64 " waits, %" PRIu64 " updates; opcodes",
	       eng, member, s->count, s->waits, s->updates);
	for (o = 0; o < 256; o++)
		if (s->opcodes[o]) {
			printf("%s0x%02x x%" PRIu64, first ? " " : ", ", o,
			       s->opcodes[o]);
			first = 0;
		}
	if (first)
		printf(" none");
	for (k = 0; k < s->nq; k++)
		printf("%s%s x%" PRIu64, k ? ", " : "; triggers ", s->qname[k],
		       s->qcount[k]);
	if (s->other)
		printf(", other queues x%" PRIu64, s->other);
	printf("\n");
}

static json_t *cc_stream_json(const char *eng, const char *member,
			      const struct cc_stream_sum *s)
{
	json_t *ops = json_object(), *tr = json_object(), *cls = json_object();
	char key[8];
	uint32_t k, o;

	for (o = 0; o < 256; o++)
		if (s->opcodes[o]) {
			snprintf(key, sizeof(key), "0x%02x", o);
			json_object_set_new(ops, key, json_integer((json_int_t)s->opcodes[o]));
		}
	for (o = 0; o <= KBIN_PROG_CLASS_MAX; o++)
		json_object_set_new(cls, kbin_prog_class_str(o),
				    json_integer((json_int_t)s->classes[o]));
	for (k = 0; k < s->nq; k++)
		json_object_set_new(tr, s->qname[k], json_integer((json_int_t)s->qcount[k]));
	return json_pack("{s:s,s:o,s:I,s:I,s:I,s:o,s:o,s:o,s:I}", "engine", eng,
			 "member", member ? json_text(member) : json_null(),
			 "instructions", (json_int_t)s->count,
			 "waits", (json_int_t)s->waits,
			 "updates", (json_int_t)s->updates, "classes", cls,
			 "opcodes", ops, "triggers", tr,
			 "triggers_other_queues", (json_int_t)s->other);
}

/* the summary of five streams into @sgj ("program") or as text */
static int cc_streams_out(const char *sgname, const uint8_t *const *recs,
			  const uint32_t *num, const char *const *members,
			  int js, json_t *sgj, uint64_t *total)
{
	struct cc_stream_sum *s = malloc(sizeof(*s));
	json_t *engs = json_array();
	uint32_t e;

	if (!s || !engs) {
		free(s);
		json_decref(engs);
		return -ENOMEM;
	}
	*total = 0;
	for (e = 0; e < KBIN_PROG_ENGINES; e++)
		*total += num[e];
	if (!js)
		printf("  %s: program: %" PRIu64 " instructions\n", sgname, *total);
	for (e = 0; e < KBIN_PROG_ENGINES; e++) {
		const char *eng = kbin_dma_engine_str(e + 1);

		cc_stream_sum(recs[e], num[e], s);
		if (js)
			json_array_append_new(engs, cc_stream_json(eng, members[e], s));
		else
			cc_stream_text(eng, members[e] ? members[e] : "-", s);
	}
	free(s);
	if (js)
		json_object_set_new(sgj, "program", json_pack("{s:I,s:o}",
				    "instructions", (json_int_t)*total,
				    "engines", engs));
	else
		json_decref(engs);
	return 0;
}

/**
 * cc_prog_model_out() - info --program: a NEFF subgraph's five streams.
 * @sg: the subgraph of the model.
 * @js: JSON into @sgj ("program"), else text on stdout.
 * @sgj: the subgraph's JSON object.
 *
 * Return: 0 or -ENOMEM.
 */
int cc_prog_model_out(const struct nscc_subgraph *sg, int js, json_t *sgj)
{
	const uint8_t *recs[KBIN_PROG_ENGINES];
	const char *members[KBIN_PROG_ENGINES];
	uint32_t num[KBIN_PROG_ENGINES], e;
	uint64_t total;

	if (!sg->has_prog) {
		if (js)
			json_object_set_new(sgj, "program", json_null());
		else
			printf("  %s: no program (def.json names no instruction stream)\n",
			       sg->name);
		return 0;
	}
	for (e = 0; e < KBIN_PROG_ENGINES; e++) {
		recs[e] = sg->prog[e + 1];
		num[e] = sg->prog_count[e + 1];
		members[e] = sg->prog_members[e + 1];
	}
	return cc_streams_out(sg->name, recs, num, members, js, sgj, &total);
}

/* one instruction of a plan: the decoded entry the plan holds */
static void cc_instr_text(const char *sgname, const char *eng, uint32_t i,
			  const struct kbin_prog_sync *x,
			  const struct kbin_view *v,
			  const struct kbin_dma_sg_view *dv)
{
	printf("%s %s [%u] 0x%02x %s", sgname, eng, i, x->opcode,
	       kbin_prog_class_str(x->cls));
	if (x->wait_mode == KBIN_PROG_WAIT_GE)
		printf(" wait %u>=%u", x->wait_sem, x->wait_value);
	if (x->update_mode == KBIN_PROG_UPDATE_INC)
		printf(" update %u+=1", x->update_sem);
	if (x->cls == KBIN_PROG_CLASS_TRIGGER && x->block < dv->num_blocks) {
		const struct kbin_dma_block *b = &dv->blocks[x->block];

		printf(" trigger %s #%u", kbin_view_str(v, dv->queues[b->queue].name),
		       b->id);
	}
	if (x->cls == KBIN_PROG_CLASS_DMA)
		printf(" add %u+=%u", x->add_sem, x->add_value);
	printf("\n");
}

static json_t *cc_instr_json(uint32_t i, const struct kbin_prog_sync *x,
			     const struct kbin_view *v,
			     const struct kbin_dma_sg_view *dv)
{
	json_t *o = json_pack("{s:I,s:I,s:s}", "index", (json_int_t)i,
			      "opcode", (json_int_t)x->opcode,
			      "class", kbin_prog_class_str(x->cls));

	if (x->wait_mode == KBIN_PROG_WAIT_GE)
		json_object_set_new(o, "wait", json_pack("{s:I,s:I}",
				    "semaphore", (json_int_t)x->wait_sem,
				    "value", (json_int_t)x->wait_value));
	if (x->update_mode == KBIN_PROG_UPDATE_INC)
		json_object_set_new(o, "update", json_pack("{s:I}",
				    "semaphore", (json_int_t)x->update_sem));
	if (x->cls == KBIN_PROG_CLASS_TRIGGER && x->block < dv->num_blocks) {
		const struct kbin_dma_block *b = &dv->blocks[x->block];

		json_object_set_new(o, "trigger", json_pack("{s:o,s:I}",
				    "queue", json_text(kbin_view_str(v, dv->queues[b->queue].name)),
				    "block", (json_int_t)b->id));
	}
	if (x->cls == KBIN_PROG_CLASS_DMA)
		json_object_set_new(o, "add", json_pack("{s:I,s:I}",
				    "semaphore", (json_int_t)x->add_sem,
				    "value", (json_int_t)x->add_value));
	return o;
}

/**
 * cc_prog_plan_out() - dump --program: a plan subgraph's streams (the
 *	summary from the records, as info prints it) and one line or
 *	object per instruction from the decoded entries.
 * @v: a checked plan.
 * @s: the subgraph.
 * @js: JSON into @sgj ("program", with "instructions" per engine), else
 *	text on stdout.
 * @sgj: the subgraph's JSON object.
 *
 * Return: 0 or -ENOMEM.
 */
int cc_prog_plan_out(const struct kbin_view *v, uint32_t s, int js,
		     json_t *sgj)
{
	const char *sgname = kbin_view_subgraph(v, s)->name;
	const char *members[KBIN_PROG_ENGINES] = { NULL };
	struct kbin_prog_sg_view pv;
	struct kbin_dma_sg_view dv;
	json_t *engs;
	uint64_t total;
	uint32_t e, i;
	int ret;

	if (!v->prog) {
		if (js)
			json_object_set_new(sgj, "program", json_null());
		else
			printf("  %s: no program (KBIN v%u: no program section)\n",
			       sgname, v->hdr->version);
		return 0;
	}
	if (kbin_view_prog_sg(v, s, &pv) || kbin_view_dma_sg(v, s, &dv))
		return -EINVAL;
	ret = cc_streams_out(sgname, pv.records, pv.num, members, js, sgj, &total);
	if (ret)
		return ret;
	engs = js ? json_object_get(json_object_get(sgj, "program"), "engines") : NULL;
	for (e = 0; e < KBIN_PROG_ENGINES; e++) {
		json_t *list = js ? json_array() : NULL;

		for (i = 0; i < pv.num[e]; i++) {
			if (js)
				json_array_append_new(list, cc_instr_json(i, &pv.sync[e][i],
									  v, &dv));
			else
				cc_instr_text(sgname, kbin_dma_engine_str(e + 1), i,
					      &pv.sync[e][i], v, &dv);
		}
		if (js)
			json_object_set_new(json_array_get(engs, e), "list", list);
	}
	return 0;
}

/* ---- replay ---- */

const char *const cc_usage_replay =
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

/* the plan of @in: read as it is when it starts with the KBIN magic */
static int cc_replay_load(const char *in, void **buf, size_t *len)
{
	struct nscc_warn warn = { 0 };
	struct nscc_err err = { "" };
	struct tool_err e = { .cmd = "replay", .file = in };
	size_t n = strlen(in);
	int ret;

	if (n > 9 && !strcmp(in + n - 9, ".bir.json")) {
		ret = nscc_bir_compile_file(in, buf, len, &err);
	} else {
		ret = nsim_read_file(in, buf, len);
		if (!ret && *len >= 4 && !memcmp(*buf, "KBIN", 4))
			return 0;
		if (!ret)
			free(*buf);
		ret = nscc_compile_neff_warn(in, &warn, buf, len, &err);
	}
	if (ret) {
		e.err = ret;
		tool_error(&e, "%s", err.msg);
	}
	return ret;
}

/**
 * cc_replay() - the replay command.
 * @argc: words from "replay" on.
 * @argv: the words.
 *
 * Return: the exit status: 0 when every subgraph finished, 1 for a
 * deadlock (after the report) or an error.
 */
int cc_replay(int argc, char **argv)
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
		fputs(cc_usage_replay, stdout);
		return 0;
	}
	if (opts[0].seen || opts[1].seen || opts[2].seen || opts[3].seen)
		tool_json_on(0);
	if (npos != 1) {
		e.err = EINVAL;
		tool_error(&e, "expected exactly one MODEL argument");
		if (!tool_json)
			fprintf(stderr, "\n%s", cc_usage_replay);
		return 1;
	}
	in = argv[1];
	e.file = in;
	tpath = opts[4].val;
	if (cc_replay_load(in, &buf, &len))
		return 1;
	if (kbin_read(buf, len, &v, &res)) {
		e.err = EINVAL;
		tool_error(&e, "%s (%s)", res.msg, kbin_reason_str(res.reason));
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
