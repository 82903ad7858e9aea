// SPDX-License-Identifier: GPL-2.0
/*
 * models.c - models and their variables: "models" (every device's
 * models, netlink GET_MODEL) and "vars" (a model's or plan's variables).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "main.h"

void do_vars(const struct vartab *t)
{
	json_t *arr = NULL;
	size_t i;

	if (tool_json)
		arr = json_array();
	else
		printf("%-3s %-7s %-18s %-12s %-18s %s\n", "sg", "var_id", "mr_type",
		       "size", "physical_address", "name");
	for (i = 0; i < t->n; i++) {
		const struct neuronsim_map_var *v = &t->v[i];

		if (tool_json) {
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
	if (tool_json)
		tool_json_print(json_pack("{s:I,s:s,s:o}", "model_id", (json_int_t)t->model_id,
				     "source", t->from_plan ? "plan" : "netlink",
				     "vars", arr));
	fflush(stdout);
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

	if (argc > 1)
		return usage_error("unexpected argument '%s' (try --help)", argv[1]);
	if (nl_open_msg(&nl, true))
		return 1;
	if (tool_json)
		arr = json_array();
	else
		printf("%-8s %-8s %-4s %-4s %-5s %-10s %-14s %-16s %-3s %s\n",
		       "model", "pid", "gen", "sgs", "core", "vars", "hbm_bytes",
		       "scratchpad_bytes", "dev", "cores");
	err = neuronsim_nl_list_models(nl, models_cb, arr);
	neuronsim_nl_close(nl);
	if (err) {
		errmsg_errno(err, "GET_MODEL dump: %s", strerror(-err));
		json_decref(arr);
		return 1;
	}
	if (tool_json)
		tool_json_print(arr);
	return 0;
}

static int cmd_vars(int argc, char **argv)
{
	struct vartab t;

	if (argc != 2)
		return usage_error("need one PLAN|MODEL (try --help)");
	if (vartab_open(&t, argv[1], NEURONSIM_CORE_ANY)) {
		vartab_free(&t);
		return 1;
	}
	do_vars(&t);
	vartab_free(&t);
	return 0;
}

const struct nsim_cmd nsim_cmd_models = {
	.name = "models",
	.summary = "models loaded by every process (netlink)",
	.usage = "models",
	.help = "  every model loaded on device N, or without -d on every device,\n"
		"  by any process (netlink GET_MODEL dump): id, owner pid, target\n"
		"  generation, subgraphs, first NeuronCore, vars, HBM and\n"
		"  scratchpad bytes, device, the NeuronCores it runs on (the\n"
		"  owner pid's)\n",
	.run = cmd_models,
};

const struct nsim_cmd nsim_cmd_vars = {
	.name = "vars",
	.summary = "variables of a model or plan",
	.usage = "vars PLAN|MODEL",
	.help = "  every variable: subgraph, var_id, mr_type, size, physical_address\n"
		"  ('-' when not staged), name.  MODEL uses netlink GET_VARS (owner\n"
		"  process or CAP_SYS_ADMIN); PLAN loads it for the command.\n",
	.run = cmd_vars,
};
