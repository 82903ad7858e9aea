// SPDX-License-Identifier: GPL-2.0
/*
 * plan.c - neuronsim-cc plan --memory: will a model fit - the HBM its
 * LOAD charges each NeuronCore per device-memory category, computed by
 * the kernel's own shared code, and whether an empty device takes it
 * (nscc_plan_memory(); Documentation/compiler.rst, "Will it fit").
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kbin_gen.h"
#include "main.h"

static const char usage_plan[] =
	"usage: neuronsim-cc plan --memory [-j] [--arch trn1|trn2|trn3] [--first-core N]\n"
	"                         MODEL.neff|DIR|MODEL.bir.json|PLAN.kbin\n"
	"\n"
	"Will it fit: the HBM a LOAD of the model charges each NeuronCore, per\n"
	"device-memory category of Documentation/sysfs.rst (what\n"
	"neuron_coreM/stats/memory_usage/device_mem/<category>/present grows\n"
	"by), computed by the kernel's own code, and whether an empty device\n"
	"takes the load: its NeuronCores from the first core, each HBM\n"
	"channel (allocations placed first fit at their alignment, as the\n"
	"module places them), the SBUF and PSUM windows and the module's\n"
	"limits at their defaults.  When it does not fit, every reason: the\n"
	"NeuronCore, the category, what the load needs and the limit.  A\n"
	"MODEL that is not a KBIN plan is compiled first.\n"
	"\n"
	"  --memory          the HBM report (the default; so far the only one)\n"
	"  --arch NAME       the device's generation (trn1, trn2, trn3 or an\n"
	"                    alias); default: the model's own target\n"
	"  --first-core N    the NeuronCore of subgraph 0 (default 0)\n"
	"  -j, --json        print JSON (numbers are integers, bytes)\n"
	"\n"
	"Exit status: 0 it fits, 2 it does not, 1 an error.\n"
	"\n"
	"example: neuronsim-cc plan --memory --arch trn1 model.neff\n";

/* the exit status of a model that does not fit */
#define CC_PLAN_NOFIT	2

static json_t *cc_cats_json(const uint64_t *bytes)
{
	json_t *o = json_object();
	unsigned int c;

	for (c = 0; c < NSCC_MEM_CATEGORIES; c++)
		json_object_set_new(o, nscc_memory_category_name(c),
				    json_integer((json_int_t)bytes[c]));
	return o;
}

/* an index that may be absent (-1) */
static json_t *cc_opt_int(int32_t v)
{
	return v < 0 ? json_null() : json_integer(v);
}

static json_t *cc_plan_json(const char *in, const struct kbin_header *h,
			    const struct nscc_memory *m)
{
	const struct kbin_gen *tg = kbin_gen_by_number(m->target_gen);
	const struct kbin_gen *g = kbin_gen_by_number(m->arch_gen);
	const struct kbin_subgraph *sgt = (const void *)((const uint8_t *)h +
							 h->subgraph_table_off);
	json_t *cores = json_array(), *chans = json_array(), *probs = json_array();
	uint32_t i, n;

	for (i = 0; i < m->num_cores; i++) {
		const struct nscc_memory_core *c = &m->core[i];

		json_array_append_new(cores, json_pack("{s:I,s:I,s:o,s:o,s:o,s:I,s:I,s:I}",
			"core", (json_int_t)c->core,
			"subgraph", (json_int_t)c->subgraph,
			"subgraph_name", json_text(sgt[i].name),
			"hbm_channel", cc_opt_int(c->hbm_channel),
			"device_mem", cc_cats_json(c->bytes),
			"total", (json_int_t)c->total,
			"allocations", (json_int_t)c->allocations,
			"sbuf_bytes", (json_int_t)c->sbuf_bytes));
	}
	for (i = 0; i < m->num_channels; i++)
		json_array_append_new(chans, json_pack("{s:I,s:I,s:I}",
			"channel", (json_int_t)i,
			"size", (json_int_t)m->channel_size,
			"bytes", (json_int_t)m->channel_bytes[i]));
	n = m->num_problems < NSCC_FIT_PROBLEMS_MAX ? m->num_problems :
	    NSCC_FIT_PROBLEMS_MAX;
	for (i = 0; i < n; i++) {
		const struct nscc_fit_problem *p = &m->problems[i];

		json_array_append_new(probs, json_pack("{s:s,s:s,s:o,s:o,s:o,s:o,s:I,s:I,s:o}",
			"why", nscc_fit_why_name(p->why),
			"errno", tool_errno_name(p->err),
			"subgraph", cc_opt_int(p->subgraph),
			"core", cc_opt_int(p->core),
			"hbm_channel", cc_opt_int(p->channel),
			"category", p->category < 0 ? json_null() :
				json_string(nscc_memory_category_name((unsigned int)p->category)),
			"need", (json_int_t)p->need,
			"limit", (json_int_t)p->limit,
			"message", json_text(p->msg)));
	}
	return json_pack("{s:o,s:I,s:s,s:I,s:s,s:I,s:{s:I,s:I,s:I,s:I,s:I},s:o,s:o,s:o,s:I,s:I,s:I,s:b,s:I,s:o}",
		"file", json_text(in),
		"target_gen", (json_int_t)m->target_gen,
		"target", tg ? tg->name : "?",
		"arch_gen", (json_int_t)m->arch_gen,
		"arch", g->name,
		"first_core", (json_int_t)m->first_core,
		"device",
		"cores", (json_int_t)m->device_cores,
		"hbm_channels", (json_int_t)m->num_channels,
		"hbm_channel_size", (json_int_t)m->channel_size,
		"hbm_size", (json_int_t)(m->channel_size * m->num_channels),
		"sbuf_window_size", (json_int_t)m->sbuf_window_size,
		"cores", cores,
		"channels", chans,
		"device_mem", cc_cats_json(m->bytes),
		"total", (json_int_t)m->total,
		"allocations", (json_int_t)m->allocations,
		"udma_descs", (json_int_t)m->udma_descs,
		"fits", m->fits,
		"num_problems", (json_int_t)m->num_problems,
		"problems", probs);
}

/* "NeuronCores 2-3" or "NeuronCore 2" */
static void cc_cores_text(char *buf, size_t cap, uint32_t first, uint32_t n)
{
	if (n == 1)
		snprintf(buf, cap, "NeuronCore %u", first);
	else
		snprintf(buf, cap, "NeuronCores %u-%llu", first,
			 (unsigned long long)first + n - 1);
}

static void cc_plan_text(const char *in, const struct nscc_memory *m)
{
	const struct kbin_gen *tg = kbin_gen_by_number(m->target_gen);
	const struct kbin_gen *g = kbin_gen_by_number(m->arch_gen);
	uint32_t i, c, n, h;
	char cores[64];

	cc_cores_text(cores, sizeof(cores), m->first_core, m->num_cores);
	printf("%s: a plan for %s, %u subgraph%s on %s of %s (%u NeuronCores, %u HBM channels of %" PRIu64 " bytes)\n",
	       in, tg ? tg->name : "?", m->num_cores,
	       m->num_cores == 1 ? "" : "s", cores, g->name, m->device_cores,
	       m->num_channels, m->channel_size);
	printf("HBM a LOAD charges, bytes (sysfs neuron_coreM/stats/memory_usage/device_mem):\n");
	printf("  %-24s", "category");
	for (i = 0; i < m->num_cores; i++) {
		snprintf(cores, sizeof(cores), "core %u", m->core[i].core);
		printf(" %12s", cores);
	}
	if (m->num_cores > 1)
		printf(" %12s", "all");
	printf("\n");
	for (c = 0; c <= NSCC_MEM_CATEGORIES; c++) {
		printf("  %-24s", c < NSCC_MEM_CATEGORIES ?
		       nscc_memory_category_name(c) : "total");
		for (i = 0; i < m->num_cores; i++)
			printf(" %12" PRIu64, c < NSCC_MEM_CATEGORIES ?
			       m->core[i].bytes[c] : m->core[i].total);
		if (m->num_cores > 1)
			printf(" %12" PRIu64, c < NSCC_MEM_CATEGORIES ?
			       m->bytes[c] : m->total);
		printf("\n");
	}
	for (h = 0; h < m->num_channels; h++) {
		uint32_t lo = UINT32_MAX, hi = 0;

		for (i = 0; i < m->num_cores; i++)
			if (m->core[i].hbm_channel == (int32_t)h) {
				lo = m->core[i].core < lo ? m->core[i].core : lo;
				hi = m->core[i].core;
			}
		if (lo == UINT32_MAX)
			continue;
		cc_cores_text(cores, sizeof(cores), lo, hi - lo + 1);
		printf("HBM channel %u (%s): %" PRIu64 " of %" PRIu64 " bytes (%.1f%%)\n",
		       h, cores, m->channel_bytes[h], m->channel_size,
		       100.0 * (double)m->channel_bytes[h] / (double)m->channel_size);
	}
	for (i = 0; i < m->num_cores; i++)
		if (m->core[i].sbuf_bytes)
			break;
	if (i < m->num_cores)
		printf("SBUF: MR_SB of %" PRIu64 " bytes in the %" PRIu64 "-byte window of its NeuronCore\n",
		       m->core[i].sbuf_bytes, m->sbuf_window_size);
	printf("%llu HBM allocations, %llu UDMA descriptors\n",
	       (unsigned long long)m->allocations,
	       (unsigned long long)m->udma_descs);
	if (m->fits) {
		printf("fits: yes, on an empty %s device from NeuronCore %u\n",
		       g->name, m->first_core);
		return;
	}
	printf("fits: no, on an empty %s device from NeuronCore %u:\n", g->name,
	       m->first_core);
	n = m->num_problems < NSCC_FIT_PROBLEMS_MAX ? m->num_problems :
	    NSCC_FIT_PROBLEMS_MAX;
	for (i = 0; i < n; i++)
		printf("  %s (%s): %s\n", nscc_fit_why_name(m->problems[i].why),
		       tool_errno_name(m->problems[i].err), m->problems[i].msg);
	if (m->num_problems > n)
		printf("  ... and %u more\n", m->num_problems - n);
}

static int run(int argc, char **argv)
{
	struct tool_opt opts[] = {
		{ .name = "j" }, { .name = "json" }, { .name = "p" },
		{ .name = "pretty" }, { .name = "memory" },
		{ .name = "arch", .arg = true },
		{ .name = "first-core", .arg = true },
		{ .name = "h" }, { .name = "help" }, { .name = NULL },
	};
	struct tool_err e = { .cmd = "plan" };
	const struct kbin_gen *g = NULL;
	struct nscc_memory *m = NULL;
	unsigned long long core = 0;
	const char *in;
	void *buf = NULL;
	size_t len;
	int npos, ret, status = 1;
	char *end;

	if (tool_parse_opts("plan", argc - 1, argv + 1, opts, &npos))
		return 1;
	if (opts[7].seen || opts[8].seen) {
		fputs(usage_plan, stdout);
		return 0;
	}
	if (opts[0].seen || opts[1].seen || opts[2].seen || opts[3].seen)
		tool_json_on(0);
	if (npos != 1)
		return cc_usage_fail("plan", usage_plan, "%s",
				     "expected exactly one MODEL argument");
	if (opts[5].val) {
		g = kbin_gen_target_by_name(opts[5].val);
		if (!g) {
			char list[KBIN_GEN_LIST_MAX];

			e.err = EINVAL;
			tool_error(&e, "--arch '%s' is not a generation a plan may target (%s)",
				   opts[5].val,
				   kbin_gen_list(list, sizeof(list), KBIN_GEN_LIST_NAMES));
			return 1;
		}
	}
	if (opts[6].val) {
		errno = 0;
		core = strtoull(opts[6].val, &end, 10);
		if (errno || *end || !*opts[6].val || opts[6].val[0] == '-' ||
		    core > UINT32_MAX)
			return cc_usage_fail("plan", usage_plan,
					     "--first-core '%s' is not a NeuronCore index",
					     opts[6].val);
	}
	in = argv[1];
	e.file = in;
	if (cc_load_plan("plan", in, &buf, &len))
		return 1;
	m = malloc(sizeof(*m));
	if (!m) {
		e.err = ENOMEM;
		tool_error(&e, "%s", strerror(ENOMEM));
		goto out;
	}
	ret = nscc_plan_memory(buf, len, g ? g->gen : 0, (uint32_t)core, m);
	if (ret) {
		e.err = -ret;
		tool_error(&e, "%s", ret == -EINVAL && m->error[0] ? m->error :
			   strerror(-ret));
		goto out;
	}
	if (tool_json) {
		status = cc_json_print(cc_plan_json(in, buf, m));
	} else {
		cc_plan_text(in, m);
		status = 0;
	}
	if (!status && !m->fits)
		status = CC_PLAN_NOFIT;
out:
	free(m);
	free(buf);
	return status;
}

const struct cc_cmd cc_cmd_plan = {
	.name = "plan",
	.usage = usage_plan,
	.run = run,
};
