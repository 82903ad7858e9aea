// SPDX-License-Identifier: GPL-2.0
/*
 * races.c - neuronsim-cc races: the race detector (Documentation/
 * races.rst) - every pair of accesses of a subgraph's program that touch
 * a common byte, at least one writing, with no order between them.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kbin_prog.h"
#include "main.h"
#include "prog_race.h"

static const char usage_races[] =
	"usage: neuronsim-cc races [-j] [--schedules N] [--shadow] MODEL.kbin|MODEL.neff|DIR|MODEL.bir.json\n"
	"\n"
	"Find the data races of every subgraph's program (Documentation/races.rst):\n"
	"the order the program alone guarantees (program order per engine, first in\n"
	"first out per DMA queue, trigger before block, a wait after the increments\n"
	"it needs in every schedule) and the bytes each DMA block and compute\n"
	"instruction reads and writes.  Print every pair that shares a byte, one\n"
	"of them writing, in no order: both sides, their names, the first shared\n"
	"bytes, the cause and the nearest semaphore that would order them.  A\n"
	"model that is not a KBIN plan is compiled first.\n"
	"\n"
	"Exit status: 0 no race, 1 races, 2 an error or a stuck order: a wait\n"
	"that no schedule satisfies (the program would hang there; the report\n"
	"names it, and the pairs after it are not all found).\n"
	"\n"
	"  -j, --json      print JSON\n"
	"  --schedules N   also replay the program in N jittered schedules and\n"
	"                  count the pairs seen ending in both orders\n"
	"  --shadow        also run the execution check (a shadow of memory that\n"
	"                  checks each access, in the order a replay runs them,\n"
	"                  against the conflicting ones before it) and print its\n"
	"                  violations and the first one\n";

static void cc_side_text(const struct prog_race *r, const struct prog_race_pair *p,
			 const struct prog_race_side *s)
{
	const char *c = prog_race_comment(r, p->sg, s->node);
	char n[160];

	printf("    %s %s%s%s%s\n", s->write ? "write" : "read ",
	       prog_race_name(r, p->sg, s->node, n, sizeof(n)),
	       c ? " \"" : "", c ? c : "", c ? "\"" : "");
}

/* the partitions of a mask as "0..127" or "3" or "0..63,96" */
static void cc_parts(char *buf, size_t cap, const struct kbin_race_span *sp)
{
	uint32_t p, q;
	size_t k = 0;

	buf[0] = 0;
	for (p = 0; p < KBIN_RACE_PARTS; p = q) {
		if (!(sp->mask[p / 64] >> (p % 64) & 1)) {
			q = p + 1;
			continue;
		}
		for (q = p + 1; q < KBIN_RACE_PARTS && (sp->mask[q / 64] >> (q % 64) & 1); q++)
			;
		if (k + 24 >= cap)
			break;
		k += (size_t)snprintf(buf + k, cap - k, "%s%u", k ? "," : "", p);
		if (q - p > 1)
			k += (size_t)snprintf(buf + k, cap - k, "..%u", q - 1);
	}
}

static void cc_where(char *buf, size_t cap, const struct kbin_race_span *sp)
{
	char parts[128];

	if (sp->space == KBIN_RACE_VAR) {
		snprintf(buf, cap, "var_id %u bytes %llu..%llu", sp->var_id,
			 (unsigned long long)sp->lo, (unsigned long long)sp->hi - 1);
		return;
	}
	cc_parts(parts, sizeof(parts), sp);
	snprintf(buf, cap, "%s bytes %llu..%llu of partitions %s",
		 prog_race_space_str(sp->space), (unsigned long long)sp->lo,
		 (unsigned long long)sp->hi - 1, parts);
}

static void cc_why(char *buf, size_t cap, const struct prog_race *r,
		   const struct prog_race_pair *p)
{
	char a[160], w[160];

	if (p->sem < 0) {
		snprintf(buf, cap, "nothing at or after the first side adds to a semaphore");
		return;
	}
	prog_race_name(r, p->sg, p->inc_node, a, sizeof(a));
	if (p->wait_node == UINT32_MAX) {
		snprintf(buf, cap, "%s adds to semaphore %d (running sum %" PRIu64 "); no wait on it precedes the second side",
			 a, p->sem, p->inc_sum);
		return;
	}
	prog_race_name(r, p->sg, p->wait_node, w, sizeof(w));
	snprintf(buf, cap, "%s adds to semaphore %d (running sum %" PRIu64 "); the nearest wait on it, %s for >= %u, does not need that increment",
		 a, p->sem, p->inc_sum, w, p->wait_value);
}

/* why subgraph @s's order is stuck: its first wait no schedule satisfies */
static void cc_stuck(char *buf, size_t cap, const struct prog_race *r, uint32_t s)
{
	const struct kbin_race_order *o = &r->sg[s].order;
	char n[160];

	prog_race_name(r, s, o->stuck_node, n, sizeof(n));
	if (o->stuck_sem == UINT32_MAX)
		snprintf(buf, cap, "%s cannot start: the waits before it wait on each other", n);
	else if (o->stuck_reach == UINT64_MAX)
		snprintf(buf, cap, "%s waits for semaphore %u >= %u, and the increments it needs come after it (a cycle of waits)",
			 n, o->stuck_sem, o->stuck_value);
	else
		snprintf(buf, cap, "%s waits for semaphore %u >= %u, and at most %" PRIu64 " can be added before it in any schedule",
			 n, o->stuck_sem, o->stuck_value, (uint64_t)o->stuck_reach);
}

static void cc_races_text(const char *in, const struct prog_race *r)
{
	uint32_t i, s;
	char where[256], why[512];

	for (i = 0; i < r->npairs; i++) {
		const struct prog_race_pair *p = &r->pairs[i];

		cc_where(where, sizeof(where), &p->at);
		cc_why(why, sizeof(why), r, p);
		printf("%s: %s: race (%s/%s, %s) on %s\n", in, r->sg[p->sg].name,
		       p->a.write ? "W" : "R", p->b.write ? "W" : "R",
		       prog_race_cause_str(p->cause), where);
		cc_side_text(r, p, &p->a);
		cc_side_text(r, p, &p->b);
		printf("    why: %s\n", why);
		if (r->schedules)
			printf("    replays: %s\n", p->seen == 3 ? "ended in both orders" :
			       p->seen ? "ended in one order" : "not both ended");
	}
	for (s = 0; s < r->nsg; s++)
		if (r->sg[s].stuck) {
			cc_stuck(why, sizeof(why), r, s);
			printf("%s: %s: stuck: %s: no schedule gets past it, the order after it is incomplete (exit status 2)\n",
			       in, r->sg[s].name, why);
		}
	printf("%s: %u pairs (%" PRIu64 " same-engine-triggers, %" PRIu64 " triggers-ordered, %" PRIu64 " unordered) in %u subgraphs, %" PRIu64 " accesses, %" PRIu64 " spans\n",
	       in, r->npairs, r->by_cause[PROG_RACE_SAME_ENGINE],
	       r->by_cause[PROG_RACE_TRIGGERS_ORDERED],
	       r->by_cause[PROG_RACE_UNORDERED], r->nsg, r->accesses, r->spans);
	if (r->schedules)
		printf("%s: %u of %u pairs ended in both orders in %u jittered replays\n",
		       in, r->both, r->npairs, r->schedules);
}

static json_t *cc_side_json(const struct prog_race *r,
			    const struct prog_race_pair *p,
			    const struct prog_race_side *s)
{
	const struct prog_race_sg *sg = &r->sg[p->sg];
	const char *c = prog_race_comment(r, p->sg, s->node);
	char n[160];
	json_t *o;

	prog_race_name(r, p->sg, s->node, n, sizeof(n));
	if (s->chain < KBIN_PROG_ENGINES)
		o = json_pack("{s:s,s:I,s:I}", "engine",
			      kbin_dma_engine_str(s->chain + 1),
			      "instruction", (json_int_t)s->pos, "opcode",
			      (json_int_t)sg->prog.sync[s->chain][s->pos].opcode);
	else
		o = json_pack("{s:o,s:I}", "queue",
			      json_text(kbin_view_str(r->v,
				sg->queues[s->chain - KBIN_PROG_ENGINES].name)),
			      "block", (json_int_t)s->pos);
	json_object_set_new(o, "access", json_string(s->write ? "write" : "read"));
	json_object_set_new(o, "text", json_text(n));
	if (c)
		json_object_set_new(o, "comment", json_text(c));
	return o;
}

static json_t *cc_races_json(const char *in, const struct prog_race *r)
{
	json_t *pairs = json_array(), *sgs = json_array();
	char parts[128], why[512];
	uint32_t i, s;

	for (i = 0; i < r->npairs; i++) {
		const struct prog_race_pair *p = &r->pairs[i];
		json_t *at;

		cc_parts(parts, sizeof(parts), &p->at);
		at = json_pack("{s:s,s:I,s:I}", "space", prog_race_space_str(p->at.space),
			       "lo", (json_int_t)p->at.lo, "hi", (json_int_t)p->at.hi);
		if (p->at.space == KBIN_RACE_VAR)
			json_object_set_new(at, "var_id", json_integer(p->at.var_id));
		else
			json_object_set_new(at, "partitions", json_string(parts));
		cc_why(why, sizeof(why), r, p);
		json_array_append_new(pairs, json_pack("{s:o,s:s,s:o,s:o,s:o,s:s,s:i,s:s}",
			"subgraph", json_text(r->sg[p->sg].name),
			"kind", !p->a.write ? "R/W" : p->b.write ? "W/W" : "W/R",
			"a", cc_side_json(r, p, &p->a), "b", cc_side_json(r, p, &p->b),
			"bytes", at, "cause", prog_race_cause_str(p->cause),
			"semaphore", p->sem, "why", why));
		if (r->schedules)
			json_object_set_new(json_array_get(pairs, i), "both_orders",
					    json_boolean(p->seen == 3));
	}
	for (s = 0; s < r->nsg; s++) {
		const struct prog_race_sg *g = &r->sg[s];

		json_t *o = json_pack("{s:o,s:I,s:I,s:I,s:I,s:b,s:I}",
			"name", json_text(g->name), "nodes", (json_int_t)g->nodes,
			"chains", (json_int_t)g->chains, "spans", (json_int_t)g->spans,
			"passes", (json_int_t)g->passes, "stuck", g->stuck,
			"pairs", (json_int_t)g->pairs);

		if (g->stuck) {
			const struct kbin_race_order *ord = &g->order;
			uint32_t c, pos;
			json_t *w;

			kbin_race_node_at(ord, ord->stuck_node, &c, &pos);
			cc_stuck(why, sizeof(why), r, s);
			w = c < KBIN_PROG_ENGINES ?
			    json_pack("{s:s,s:I}", "engine", kbin_dma_engine_str(c + 1),
				      "instruction", (json_int_t)pos) :
			    json_pack("{s:o,s:I}", "queue",
				      json_text(kbin_view_str(r->v,
					g->queues[c - KBIN_PROG_ENGINES].name)),
				      "block", (json_int_t)pos);
			if (ord->stuck_sem != UINT32_MAX) {
				json_object_set_new(w, "semaphore", json_integer(ord->stuck_sem));
				json_object_set_new(w, "wanted", json_integer(ord->stuck_value));
				json_object_set_new(w, "reachable", ord->stuck_reach == UINT64_MAX ?
						    json_null() :
						    json_integer((json_int_t)ord->stuck_reach));
			}
			json_object_set_new(w, "text", json_text(why));
			json_object_set_new(o, "stuck_at", w);
		}
		json_array_append_new(sgs, o);
	}
	return json_pack("{s:o,s:I,s:{s:I,s:I,s:I},s:I,s:I,s:I,s:I,s:o,s:o}",
			 "model", json_text(in), "count", (json_int_t)r->npairs,
			 "by_cause",
			 "same-engine-triggers", (json_int_t)r->by_cause[PROG_RACE_SAME_ENGINE],
			 "triggers-ordered", (json_int_t)r->by_cause[PROG_RACE_TRIGGERS_ORDERED],
			 "unordered", (json_int_t)r->by_cause[PROG_RACE_UNORDERED],
			 "accesses", (json_int_t)r->accesses, "spans", (json_int_t)r->spans,
			 "schedules", (json_int_t)r->schedules,
			 "both_orders", (json_int_t)r->both,
			 "subgraphs", sgs, "pairs", pairs);
}

/*
 * The command, given its words from "races" on.  Return: the exit
 * status: 0 no race, 1 races, 2 an error or a stuck order.
 */
static int run(int argc, char **argv)
{
	struct tool_opt opts[] = {
		{ .name = "j" }, { .name = "json" }, { .name = "p" },
		{ .name = "pretty" }, { .name = "h" }, { .name = "help" },
		{ .name = "schedules", .arg = true }, { .name = "shadow" },
		{ .name = NULL },
	};
	struct tool_err e = { .cmd = "races" };
	struct prog_race_opts o = { 0 };
	struct nscc_prog_names names = { 0 };
	struct kbin_check_result res;
	struct prog_race *r = NULL;
	struct kbin_view v;
	void *buf = NULL;
	size_t len;
	struct kbin_race_violation vio = { 0 };
	uint32_t schedules = 0, vsg = 0;
	long long shadow = 0;
	int npos, ret, status = 2;

	if (tool_parse_opts("races", argc - 1, argv + 1, opts, &npos))
		return 2;
	if (opts[4].seen || opts[5].seen) {
		fputs(usage_races, stdout);
		return 0;
	}
	if (opts[0].seen || opts[1].seen || opts[2].seen || opts[3].seen)
		tool_json_on(0);
	if (npos != 1) {
		e.err = EINVAL;
		tool_error(&e, "expected exactly one MODEL argument");
		if (!tool_json)
			fprintf(stderr, "\n%s", usage_races);
		return 2;
	}
	if (opts[6].seen) {
		char *end;
		unsigned long n = strtoul(opts[6].val, &end, 10);

		if (!*opts[6].val || *end || n > 1000) {
			e.err = EINVAL;
			tool_error(&e, "--schedules '%s' is not 0..1000", opts[6].val);
			return 2;
		}
		schedules = (uint32_t)n;
	}
	e.file = argv[1];
	if (cc_is_bir_json(argv[1])) {
		/* lowered here, to keep the BIR instructions' names */
		struct nscc_err err = { "" };

		if (nscc_bir_compile_file_names(argv[1], &buf, &len, &names, &err)) {
			size_t k = strlen(argv[1]);
			const char *m = err.msg;

			/* the message may name the file already: name it once */
			if (!strncmp(m, argv[1], k) && !strncmp(m + k, ": ", 2))
				m += k + 2;
			e.err = EINVAL;
			tool_error(&e, "%s", m);
			goto out;
		}
		for (uint32_t k = 0; k < KBIN_PROG_ENGINES; k++) {
			o.names[k] = names.name[k];
			o.num_names[k] = names.num[k];
		}
	} else if (cc_load_plan("races", argv[1], &buf, &len)) {
		return 2;
	}
	if (kbin_read(buf, len, &v, &res)) {
		e.err = EINVAL;
		tool_error(&e, "%s (%s)", res.err.msg, kbin_reason_str(res.err.reason));
		goto out;
	}
	ret = prog_race_plan(&v, &o, &r);
	if (!ret && schedules)
		ret = prog_race_schedules(r, schedules);
	if (ret) {
		e.err = -ret;
		if (ret == -ENODATA)
			tool_error(&e, "the plan has no program (KBIN v%u, no program section)",
				   v.hdr->version);
		else if (ret == -E2BIG)
			tool_error(&e, "a subgraph's order needs more than %u clock entries (nodes x chains), the limit of the module and of this tool (Documentation/races.rst)",
				   KBIN_RACE_MAX_CLOCKS);
		else
			tool_error(&e, "race detection failed (%s)", strerror(-ret));
		goto out;
	}
	if (opts[7].seen) {
		shadow = prog_race_check(r, 0, 1ULL << 20, &vsg, &vio);
		if (shadow < 0) {
			e.err = (int)-shadow;
			tool_error(&e, "the shadow check failed (%s)", strerror((int)-shadow));
			goto out;
		}
	}
	if (tool_json) {
		json_t *j = cc_races_json(argv[1], r);

		if (opts[7].seen) {
			char a[160], b[160];

			json_object_set_new(j, "shadow", shadow ?
				json_pack("{s:I,s:o,s:s,s:s,s:s,s:I}", "violations", (json_int_t)shadow,
					  "subgraph", json_text(r->sg[vsg].name),
					  "earlier", prog_race_name(r, vsg, vio.prev, a, sizeof(a)),
					  "later", prog_race_name(r, vsg, vio.node, b, sizeof(b)),
					  "space", prog_race_space_str(vio.space),
					  "byte", (json_int_t)vio.byte) :
				json_pack("{s:I}", "violations", (json_int_t)0));
		}
		if (tool_json_print(j))
			goto out;
	} else {
		cc_races_text(argv[1], r);
		if (opts[7].seen && shadow) {
			char a[160], b[160];

			printf("%s: %s: shadow: %lld violations; the first: %s %s after %s %s, not ordered after it, at %s byte %llu of %s %u\n",
			       argv[1], r->sg[vsg].name, shadow,
			       vio.write ? "write" : "read",
			       prog_race_name(r, vsg, vio.node, b, sizeof(b)),
			       vio.prev_write ? "the write of" : "the read of",
			       prog_race_name(r, vsg, vio.prev, a, sizeof(a)),
			       prog_race_space_str(vio.space), (unsigned long long)vio.byte,
			       vio.space == KBIN_RACE_VAR ? "var_id" : "partition",
			       vio.space == KBIN_RACE_VAR ? vio.var_id : vio.partition);
		} else if (opts[7].seen) {
			printf("%s: shadow: no violation\n", argv[1]);
		}
	}
	status = r->npairs || shadow ? 1 : 0;
	for (uint32_t k = 0; k < r->nsg; k++)
		if (r->sg[k].stuck)
			status = 2;	/* the analysis is incomplete */
out:
	prog_race_free(r);
	nscc_prog_names_free(&names);
	free(buf);
	return status;
}

const struct cc_cmd cc_cmd_races = {
	.name = "races",
	.usage = usage_races,
	.run = run,
};
