// SPDX-License-Identifier: GPL-2.0
/*
 * top.c - "top": a refreshing per-NeuronCore view of every device, as
 * neuron-top shows one: who holds each core, its models and its device
 * memory by the driver's categories (the sysfs tree, snapshot.c).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "main.h"

/* the categories top shows a column of; the rest add up in "other" */
static const unsigned int top_cols[] = {
	KBIN_MEMCAT_TENSORS, KBIN_MEMCAT_CONSTANTS, KBIN_MEMCAT_MODEL_CODE,
	KBIN_MEMCAT_MODEL_SHARED_SCRATCHPAD, KBIN_MEMCAT_NONSHARED_SCRATCHPAD,
	KBIN_MEMCAT_RUNTIME_MEMORY,
};
#define TOP_NCOLS (sizeof(top_cols) / sizeof(top_cols[0]))

static void top_print(const struct snap *s)
{
	char b[32];
	size_t i, k;
	__u32 c;

	for (i = 0; i < s->ndev; i++) {
		const struct snap_dev *d = &s->dev[i];

		if (!snap_wanted(d))
			continue;
		human_bytes(b, sizeof(b), d->d.hbm_used);
		printf("%s%u  %s  %u NeuronCores  %u models  HBM used %s\n",
		       NEURONSIM_DEVICE_NAME, d->d.device, d->d.arch_name,
		       d->d.num_cores, d->d.num_models, b);
		if (!d->sysfs) {
			printf("  (no %s/%s%u tree: memory by category unknown)\n",
			       SNAP_SYSFS_CLASS, NEURONSIM_DEVICE_NAME, d->d.device);
			continue;
		}
		printf("  %-4s %-7s %-6s %-10s", "CORE", "PID", "MODELS", "USED");
		for (k = 0; k < TOP_NCOLS; k++)
			printf(" %-10.10s", kbin_mem_category_str(top_cols[k]));
		printf(" %-10s\n", "other");
		for (c = 0; c < d->d.num_cores && c < NEURONSIM_MAX_CORES; c++) {
			const struct snap_core *sc = &d->core[c];
			__u64 other = sc->used;

			printf("  %-4u ", c);
			if (d->d.cores[c].owner_pid)
				printf("%-7u ", d->d.cores[c].owner_pid);
			else
				printf("%-7s ", "-");
			human_bytes(b, sizeof(b), sc->used);
			printf("%-6u %-10s", d->d.cores[c].num_models, b);
			for (k = 0; k < TOP_NCOLS; k++) {
				human_bytes(b, sizeof(b), sc->mem[top_cols[k]]);
				printf(" %-10s", b);
				other -= sc->mem[top_cols[k]];
			}
			human_bytes(b, sizeof(b), other);
			printf(" %-10s\n", b);
		}
	}
}

static int cmd_top(int argc, char **argv)
{
	struct tool_opt opts[] = {
		{ .name = "once" }, { .name = "period", .arg = true },
		{ .name = NULL },
	};
	double period = 1;
	struct snap s;
	int n;

	if (tool_parse_opts(cmd_name, argc - 1, argv + 1, opts, &n))
		return 2;
	if (n)
		return usage_error("unexpected argument '%s' (try --help)", argv[1]);
	if (opts[1].seen && parse_seconds_arg("--period", opts[1].val, &period))
		return 2;
	if (tool_json)
		return usage_error("top has no JSON form: use 'monitor -j --period S'");
	install_stop_handlers();
	while (!stop_signal) {
		struct timespec ts = {
			.tv_sec = (time_t)period,
			.tv_nsec = (long)((period - (time_t)period) * 1e9),
		};

		if (snap_take(&s))
			return 1;
		if (!opts[0].seen)
			printf("\033[H\033[2J");
		top_print(&s);
		snap_free(&s);
		fflush(stdout);
		if (opts[0].seen)
			break;
		nanosleep(&ts, NULL);
	}
	return 0;
}

const struct nsim_cmd nsim_cmd_top = {
	.name = "top",
	.summary = "a refreshing per-NeuronCore view of memory by category",
	.usage = "top [--once] [--period SECONDS]",
	.help = "  per device and NeuronCore, as neuron-top shows them: the process\n"
		"  holding the core, its models, and its device memory by the Neuron\n"
		"  driver's categories (the sysfs tree, Documentation/sysfs.rst),\n"
		"  redrawn every SECONDS (default 1) until SIGINT/SIGTERM; --once\n"
		"  prints it once, without clearing the screen, for scripts.\n",
	.run = cmd_top,
};
