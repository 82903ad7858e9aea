// SPDX-License-Identifier: GPL-2.0
/*
 * ls.c - "ls": one row per device, as neuron-ls shows Neuron devices:
 * generation, NeuronCores, HBM, models, and the processes holding its
 * NeuronCores with their command lines (snapshot.c).
 */
#include <stdio.h>
#include <string.h>

#include "main.h"

/* the distinct owner pids of @d's NeuronCores, in core order */
static size_t owners(const struct snap_dev *d, __u32 *pids)
{
	size_t n = 0, k;
	__u32 c;

	for (c = 0; c < d->d.num_cores && c < NEURONSIM_MAX_CORES; c++) {
		__u32 pid = d->d.cores[c].owner_pid;

		if (!pid)
			continue;
		for (k = 0; k < n && pids[k] != pid; k++)
			;
		if (k == n)
			pids[n++] = pid;
	}
	return n;
}

static int cmd_ls(int argc, char **argv)
{
	json_t *arr = tool_json ? json_array() : NULL;
	struct snap s;
	size_t i, k;

	if (argc > 1)
		return usage_error("unexpected argument '%s' (try --help)", argv[1]);
	if (snap_take(&s))
		return 1;
	if (!tool_json)
		printf("%-7s %-10s %-5s %-10s %-10s %-6s %s\n", "DEVICE", "GENERATION",
		       "CORES", "HBM", "HBM USED", "MODELS", "PROCESSES");
	for (i = 0; i < s.ndev; i++) {
		const struct snap_dev *d = &s.dev[i];
		__u64 hbm = d->d.hbm_channel_size * d->d.num_hbm_channels;
		__u32 pids[NEURONSIM_MAX_CORES];
		char cmd[256], h[32], u[32];
		size_t np;

		if (!snap_wanted(d))
			continue;
		np = owners(d, pids);
		if (tool_json) {
			json_t *procs = json_array();

			for (k = 0; k < np; k++)
				json_array_append_new(procs, json_pack("{s:I,s:o}",
					"pid", (json_int_t)pids[k], "command",
					json_text(proc_cmdline(pids[k], cmd, sizeof(cmd)))));
			json_array_append_new(arr, json_pack("{s:I,s:s,s:I,s:I,s:I,s:I,s:I,s:I,s:o}",
				"device", (json_int_t)d->d.device,
				"generation", d->d.arch_name,
				"arch_gen", (json_int_t)d->d.arch_gen,
				"neuron_cores", (json_int_t)d->d.num_cores,
				"hbm_channels", (json_int_t)d->d.num_hbm_channels,
				"hbm_bytes", (json_int_t)hbm,
				"hbm_used", (json_int_t)d->d.hbm_used,
				"models", (json_int_t)d->d.num_models,
				"processes", procs));
			continue;
		}
		human_bytes(h, sizeof(h), hbm);
		human_bytes(u, sizeof(u), d->d.hbm_used);
		printf("%-7u %-10s %-5u %-10s %-10s %-6u", d->d.device, d->d.arch_name,
		       d->d.num_cores, h, u, d->d.num_models);
		for (k = 0; k < np; k++)
			printf("%s%u (%s)", k ? ", " : " ", pids[k],
			       proc_cmdline(pids[k], cmd, sizeof(cmd)));
		printf("%s\n", np ? "" : " -");
	}
	if (tool_json)
		tool_json_print(arr);
	snap_free(&s);
	return 0;
}

const struct nsim_cmd nsim_cmd_ls = {
	.name = "ls",
	.summary = "one row per device: generation, cores, HBM, models, processes",
	.usage = "ls",
	.help = "  every device (or device N with -d), as neuron-ls lists Neuron\n"
		"  devices: generation, NeuronCores, HBM and HBM in use, models, and\n"
		"  the processes holding its NeuronCores with their command lines\n"
		"  (netlink GET_DEVICE, /proc/PID/cmdline).\n",
	.run = cmd_ls,
};
