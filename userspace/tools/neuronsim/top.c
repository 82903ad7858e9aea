// SPDX-License-Identifier: GPL-2.0
/*
 * top.c - "top": a refreshing per-NeuronCore view of every device, as
 * neuron-top shows one: who holds each core, its models and its device
 * memory by the driver's categories, then its DMA engine's activity:
 * the counters since the device was created and their rates between two
 * frames (the sysfs tree, snapshot.c).
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

/* the same device in the previous frame, or NULL */
static const struct snap_dev *top_prev_dev(const struct snap *prev, __u32 device)
{
	size_t i;

	for (i = 0; prev && i < prev->ndev; i++)
		if (prev->dev[i].d.device == device && prev->dev[i].sysfs)
			return &prev->dev[i];
	return NULL;
}

/*
 * Per NeuronCore its DMA engine's counters and, against the previous
 * frame @p (NULL: none), bytes per second and the share of the interval
 * it was busy; "-" without a previous frame.
 */
static void top_print_dma(const struct snap_dev *d, const struct snap_dev *p,
			  __u64 dt_ns)
{
	char b[32], r[40], busy[16];
	__u32 c;

	printf("  %-4s %-10s %-8s %-6s %-6s %-12s %s\n", "CORE", "DMA BYTES",
	       "DESCS", "RUNS", "ERRORS", "DMA/s", "BUSY");
	for (c = 0; c < d->d.num_cores && c < NEURONSIM_MAX_CORES; c++) {
		const struct snap_core *sc = &d->core[c];

		human_bytes(b, sizeof(b), sc->dma.bytes);
		snprintf(r, sizeof(r), "-");
		snprintf(busy, sizeof(busy), "-");
		if (p && dt_ns && sc->dma.bytes >= p->core[c].dma.bytes &&
		    sc->dma.busy_ns >= p->core[c].dma.busy_ns) {
			double sec = (double)dt_ns / 1e9;
			__u64 db = sc->dma.bytes - p->core[c].dma.bytes;
			__u64 dbusy = sc->dma.busy_ns - p->core[c].dma.busy_ns;
			double pct = 100.0 * (double)dbusy / (double)dt_ns;

			human_bytes(r, sizeof(r) - 2, (__u64)((double)db / sec));
			strcat(r, "/s");
			snprintf(busy, sizeof(busy), "%.1f%%", pct > 100 ? 100 : pct);
		}
		printf("  %-4u %-10s %-8llu %-6llu %-6llu %-12s %s\n", c, b,
		       (unsigned long long)sc->dma.descs,
		       (unsigned long long)sc->dma.runs,
		       (unsigned long long)sc->dma.errors, r, busy);
	}
}

static void top_print(const struct snap *s, const struct snap *prev)
{
	__u64 dt_ns = prev ? s->taken_ns - prev->taken_ns : 0;
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
			char root[64];

			if (neuronsim_sysfs_path(d->d.device, root, sizeof(root)))
				snprintf(root, sizeof(root), "sysfs");
			printf("  (no %s tree: memory by category unknown)\n", root);
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
		printf("  DMA engine (RUN and EXECUTE; the compute engines' work is in exec's results)\n");
		top_print_dma(d, top_prev_dev(prev, d->d.device), dt_ns);
	}
}

static void top_sleep(double period)
{
	struct timespec ts = {
		.tv_sec = (time_t)period,
		.tv_nsec = (long)((period - (time_t)period) * 1e9),
	};

	nanosleep(&ts, NULL);
}

static int cmd_top(int argc, char **argv)
{
	struct tool_opt opts[] = {
		{ .name = "once" }, { .name = "period", .arg = true },
		{ .name = NULL },
	};
	struct snap s, prev = { 0 };
	bool have_prev = false;
	double period = 1;
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
	/* --once --period S: two samples S apart, so the rates are known */
	if (opts[0].seen && opts[1].seen) {
		if (snap_take(&prev))
			return 1;
		have_prev = true;
		top_sleep(period);
	}
	/* --once prints its frame even when a signal cut the sampling short */
	while (!stop_signal || opts[0].seen) {
		if (snap_take(&s)) {
			snap_free(&prev);
			return 1;
		}
		if (!opts[0].seen)
			printf("\033[H\033[2J");
		top_print(&s, have_prev ? &prev : NULL);
		fflush(stdout);
		snap_free(&prev);
		prev = s;
		have_prev = true;
		if (opts[0].seen)
			break;
		top_sleep(period);
	}
	snap_free(&prev);
	return 0;
}

const struct nsim_cmd nsim_cmd_top = {
	.name = "top",
	.summary = "a refreshing per-NeuronCore view of memory and DMA activity",
	.usage = "top [--once] [--period SECONDS]",
	.help = "  per device and NeuronCore, as neuron-top shows them: the process\n"
		"  holding the core, its models, and its device memory by the Neuron\n"
		"  driver's categories, then its DMA engine's bytes, descriptors,\n"
		"  runs and errors and, between two frames, bytes per second and\n"
		"  busy share (the sysfs tree, Documentation/sysfs.rst), redrawn\n"
		"  every SECONDS (default 1) until SIGINT/SIGTERM; --once prints it\n"
		"  once, without clearing the screen, for scripts (rates '-', or\n"
		"  with --period measured over SECONDS).\n",
	.run = cmd_top,
};
