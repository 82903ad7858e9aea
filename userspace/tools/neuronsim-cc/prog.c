// SPDX-License-Identifier: GPL-2.0
/*
 * prog.c - engine programs in neuronsim-cc (main.h): per engine the
 * instruction count, the opcode histogram and the triggers per queue
 * (info --program from a NEFF's streams, dump --program from a plan's,
 * with one line per instruction; Documentation/execute.rst).  Every
 * record is decoded by kbin_prog_decode(), the decoder the checker and
 * the kernel run.  The replay command is replay.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kbin_prog.h"
#include "main.h"

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
