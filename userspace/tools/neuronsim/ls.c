// SPDX-License-Identifier: GPL-2.0
/*
 * ls.c - "ls": the devices as neuron-ls shows Neuron devices.  With -j
 * neuron-ls's JSON, key for key and type for type, so a consumer of
 * `neuron-ls -j` reads it unchanged; without, neuron-ls's header lines
 * and tables.  What a simulated device lacks (PCI address, CPU affinity,
 * NUMA node, the instance) comes from identity.c; the processes holding
 * a device's NeuronCores from netlink GET_DEVICE and /proc/PID/cmdline
 * (snapshot.c).  Documentation/userspace.rst, "ls".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
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

/* neuron-ls -j: one object per device */
static json_t *ls_json_device(const struct snap_dev *d)
{
	json_t *ids = json_array(), *procs = json_array(), *conn;
	__u32 pids[NEURONSIM_MAX_CORES];
	struct nsim_dev_ident id;
	char cmd[256];
	size_t np, k;
	__u32 c;
	int i;

	nsim_dev_ident_get(d, &id);
	for (c = 0; c < d->d.num_cores; c++)
		json_array_append_new(ids, json_integer(d->global_core0 + c));
	np = owners(d, pids);
	for (k = 0; k < np; k++)
		json_array_append_new(procs, json_pack("{s:I,s:o,s:s}",
			"pid", (json_int_t)pids[k],
			"command", json_text(proc_cmdline(pids[k], cmd, sizeof(cmd))),
			"neuron_runtime_version", nsim_runtime_version()));
	if (id.nconnected > 0) {
		conn = json_array();
		for (i = 0; i < id.nconnected; i++)
			json_array_append_new(conn, json_integer(id.connected[i]));
	} else {
		conn = json_null();
	}
	return json_pack("{s:I,s:s,s:s,s:s,s:o,s:I,s:I,s:I,s:o,s:o}",
		"neuron_device", (json_int_t)d->d.device,
		"bdf", id.bdf,
		"cpu_affinity", id.cpu_affinity,
		"numa_node", id.numa_node,
		"connected_to", conn,
		"nc_count", (json_int_t)d->d.num_cores,
		"logical_neuroncore_config", (json_int_t)1,
		"memory_size", (json_int_t)id.memory_size,
		"neuroncore_ids", ids,
		"neuron_processes", procs);
}

/* a table: column widths, then rows of cells, in neuron-ls's box style */
#define LS_MAX_COLS	8

struct ls_table {
	size_t ncols;
	size_t width[LS_MAX_COLS];
};

static void ls_rule(const struct ls_table *t)
{
	size_t c, k;

	for (c = 0; c < t->ncols; c++) {
		putchar('+');
		for (k = 0; k < t->width[c] + 2; k++)
			putchar('-');
	}
	puts("+");
}

static void ls_row(const struct ls_table *t, const char *const *cells)
{
	size_t c;

	for (c = 0; c < t->ncols; c++)
		printf("| %-*s ", (int)t->width[c], cells[c]);
	puts("|");
}

static void ls_fit(struct ls_table *t, const char *const *cells)
{
	size_t c;

	for (c = 0; c < t->ncols; c++)
		if (strlen(cells[c]) > t->width[c])
			t->width[c] = strlen(cells[c]);
}

/* the device table's cells of @d */
struct ls_cells {
	char dev[12], cores[12], ids[32], mem[24], conn[128];
	struct nsim_dev_ident id;
	const char *cell[LS_MAX_COLS];
};

static void ls_cells_fill(const struct snap_dev *d, struct ls_cells *l)
{
	size_t off = 0;
	int i;

	nsim_dev_ident_get(d, &l->id);
	snprintf(l->dev, sizeof(l->dev), "%u", d->d.device);
	snprintf(l->cores, sizeof(l->cores), "%u", d->d.num_cores);
	if (d->d.num_cores > 1)
		snprintf(l->ids, sizeof(l->ids), "%u-%u", d->global_core0,
			 d->global_core0 + d->d.num_cores - 1);
	else
		snprintf(l->ids, sizeof(l->ids), "%u", d->global_core0);
	/* neuron-ls prints GiB as "GB" */
	snprintf(l->mem, sizeof(l->mem), "%llu GB",
		 (unsigned long long)(l->id.memory_size >> 30));
	l->conn[0] = '\0';
	for (i = 0; i < l->id.nconnected && off < sizeof(l->conn); i++)
		off += snprintf(l->conn + off, sizeof(l->conn) - off, "%s%u",
				i ? ", " : "", l->id.connected[i]);
	l->cell[0] = l->dev;
	l->cell[1] = l->cores;
	l->cell[2] = l->ids;
	l->cell[3] = l->mem;
	l->cell[4] = l->conn;
	l->cell[5] = l->id.bdf;
	l->cell[6] = l->id.cpu_affinity;
	l->cell[7] = l->id.numa_node;
}

/* one row of the process table */
struct ls_proc {
	char dev[12], ids[160], pid[16], cmd[256];
	const char *cell[5];
};

/* the process rows of @d, appended at @rows; returns how many */
static size_t ls_procs_fill(const struct snap_dev *d, struct ls_proc *rows)
{
	__u32 pids[NEURONSIM_MAX_CORES];
	size_t np, k;
	__u32 c;

	np = owners(d, pids);
	for (k = 0; k < np; k++) {
		struct ls_proc *r = &rows[k];
		size_t off = 0;

		snprintf(r->dev, sizeof(r->dev), "%u", d->d.device);
		r->ids[0] = '\0';
		for (c = 0; c < d->d.num_cores && off < sizeof(r->ids); c++)
			if (d->d.cores[c].owner_pid == pids[k])
				off += snprintf(r->ids + off, sizeof(r->ids) - off,
						"%s%u", off ? ", " : "",
						d->global_core0 + c);
		snprintf(r->pid, sizeof(r->pid), "%u", pids[k]);
		proc_cmdline(pids[k], r->cmd, sizeof(r->cmd));
		/* neuron-ls cuts long command lines */
		if (strlen(r->cmd) > 40)
			strcpy(r->cmd + 37, "...");
		r->cell[0] = r->dev;
		r->cell[1] = r->ids;
		r->cell[2] = r->pid;
		r->cell[3] = r->cmd;
		r->cell[4] = nsim_runtime_version();
	}
	return np;
}

/* the header lines and the two tables; each row is read once, then fitted and printed */
static int ls_tables(const struct snap *s)
{
	static const char *const head1[] = { "NEURON", "NEURON", "NEURON", "NEURON",
		"CONNECTED", "PCI", "CPU", "NUMA" };
	static const char *const head2[] = { "DEVICE", "CORES", "CORE IDS", "MEMORY",
		"DEVICES", "BDF", "AFFINITY", "NODE" };
	static const char *const phead1[] = { "NEURON", "NEURON", "PID", "COMMAND",
		"RUNTIME" };
	static const char *const phead2[] = { "DEVICE", "CORE IDS", "", "", "VERSION" };
	struct ls_table t = { .ncols = 8 }, pt = { .ncols = 5 };
	struct nsim_instance inst;
	struct ls_cells *devs;
	struct ls_proc *procs;
	size_t i, nd = 0, np = 0;

	devs = calloc(s->ndev ? s->ndev : 1, sizeof(*devs));
	procs = calloc(s->ndev ? s->ndev * NEURONSIM_MAX_CORES : 1, sizeof(*procs));
	if (!devs || !procs) {
		free(devs);
		free(procs);
		errmsg_errno(ENOMEM, "%s", strerror(ENOMEM));
		return 1;
	}
	for (i = 0; i < s->ndev; i++) {
		if (!snap_wanted(&s->dev[i]))
			continue;
		ls_cells_fill(&s->dev[i], &devs[nd++]);
		np += ls_procs_fill(&s->dev[i], &procs[np]);
	}

	nsim_instance_get(s, &inst);
	printf("instance-type: %s\ninstance-id: %s\nlogical-neuroncore-config: 1\n",
	       inst.type, inst.id);
	ls_fit(&t, head1);
	ls_fit(&t, head2);
	for (i = 0; i < nd; i++)
		ls_fit(&t, devs[i].cell);
	ls_rule(&t);
	ls_row(&t, head1);
	ls_row(&t, head2);
	ls_rule(&t);
	for (i = 0; i < nd; i++)
		ls_row(&t, devs[i].cell);
	ls_rule(&t);

	if (np) {
		ls_fit(&pt, phead1);
		ls_fit(&pt, phead2);
		for (i = 0; i < np; i++)
			ls_fit(&pt, procs[i].cell);
		ls_rule(&pt);
		ls_row(&pt, phead1);
		ls_row(&pt, phead2);
		ls_rule(&pt);
		for (i = 0; i < np; i++)
			ls_row(&pt, procs[i].cell);
		ls_rule(&pt);
	}
	free(devs);
	free(procs);
	return 0;
}

static int cmd_ls(int argc, char **argv)
{
	struct snap s;
	size_t i;
	int rc = 0;

	if (argc > 1)
		return usage_error("unexpected argument '%s' (try --help)", argv[1]);
	if (snap_take(&s))
		return 1;
	if (tool_json) {
		json_t *arr = json_array();

		for (i = 0; i < s.ndev; i++)
			if (snap_wanted(&s.dev[i]))
				json_array_append_new(arr, ls_json_device(&s.dev[i]));
		tool_json_print(arr);
	} else {
		rc = ls_tables(&s);
	}
	snap_free(&s);
	return rc;
}

const struct nsim_cmd nsim_cmd_ls = {
	.name = "ls",
	.summary = "the devices as neuron-ls shows them (-j: neuron-ls -j's JSON)",
	.usage = "ls",
	.help = "  every device (or device N with -d) as neuron-ls lists Neuron devices:\n"
		"  the instance type and id, then per device its NeuronCores and their\n"
		"  global ids, HBM, connected devices, PCI BDF, CPU affinity and NUMA\n"
		"  node, then the processes holding its NeuronCores (pid, command line,\n"
		"  runtime version).  With -j, neuron-ls -j's JSON: an array of one\n"
		"  object per device (neuron_device, bdf, cpu_affinity, numa_node,\n"
		"  connected_to, nc_count, logical_neuroncore_config, memory_size,\n"
		"  neuroncore_ids, neuron_processes).  The PCI address, CPU affinity,\n"
		"  NUMA node and instance are simulated (Documentation/userspace.rst,\n"
		"  \"Simulated values\").\n",
	.run = cmd_ls,
};
