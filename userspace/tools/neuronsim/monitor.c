// SPDX-License-Identifier: GPL-2.0
/*
 * monitor.c - "monitor": the netlink "monitor" group's events, every
 * field the kernel sends, and with --period the periodic reports of
 * neuron-monitor: per process holding NeuronCores its device memory per
 * core by the driver's categories and its loaded models, in
 * neuron-monitor's JSON shape (-j) or as Prometheus text exposition
 * (--prometheus).  Documentation/userspace.rst, "monitor".
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "main.h"

/* the categories of neuron-monitor's neuroncore_memory_usage */
static const unsigned int report_cats[] = {
	KBIN_MEMCAT_CONSTANTS, KBIN_MEMCAT_MODEL_CODE,
	KBIN_MEMCAT_MODEL_SHARED_SCRATCHPAD, KBIN_MEMCAT_RUNTIME_MEMORY,
	KBIN_MEMCAT_TENSORS,
};
#define REPORT_NCATS (sizeof(report_cats) / sizeof(report_cats[0]))

struct mon {
	long left;		/* outputs before stopping, -1: no limit */
	bool prometheus;
	double period;		/* seconds between reports, 0: no reports */
};

static void model_json(json_t *o, const struct neuronsim_nl_model *m)
{
	json_object_set_new(o, "model_id", json_integer(m->model_id));
	json_object_set_new(o, "target_gen", json_integer(m->target_gen));
	json_object_set_new(o, "num_subgraphs", json_integer(m->num_subgraphs));
	json_object_set_new(o, "first_core", json_integer(m->first_core));
	json_object_set_new(o, "num_vars", json_integer(m->num_vars));
	json_object_set_new(o, "hbm_bytes", json_integer(m->hbm_bytes));
	json_object_set_new(o, "scratchpad_bytes", json_integer(m->scratchpad_bytes));
}

/* one output line done; true when --count is reached */
static bool mon_done(struct mon *mo)
{
	fflush(stdout);
	return mo->left > 0 && --mo->left == 0;
}

static int monitor_cb(const struct neuronsim_nl_event *e, void *ctx)
{
	struct mon *mo = ctx;

	if (dev_index >= 0 && e->model.device != (__u32)dev_index)
		return 0;
	if (mo->prometheus)
		return 0;	/* the exposition has no events */
	if (tool_json) {
		json_t *o = json_pack("{s:s,s:I}", "event", event_name(e->cmd),
				      "owner_pid", (json_int_t)e->model.owner_pid);

		if (e->cmd == NEURONSIM_CMD_LOAD_FAILED) {
			json_object_set_new(o, "errno", json_integer(e->err_errno));
			json_object_set_new(o, "error", json_string(tool_errno_name(e->err_errno)));
			json_object_set_new(o, "reason", json_integer(e->err_reason));
			json_object_set_new(o, "reason_text",
					    json_string(neuronsim_reason_str(e->err_reason)));
			json_object_set_new(o, "field", json_integer(e->err_field));
			json_object_set_new(o, "field_text",
					    json_string(neuronsim_field_str(e->err_field)));
			json_object_set_new(o, "subgraph", json_integer(e->err_subgraph));
			json_object_set_new(o, "record", json_integer(e->err_record));
		} else if (e->cmd == NEURONSIM_CMD_RUN_DONE) {
			json_object_set_new(o, "model_id", json_integer(e->model.model_id));
			json_object_set_new(o, "subgraph", json_integer(e->run_subgraph));
			json_object_set_new(o, "queue", json_text(e->run_queue_name));
			json_object_set_new(o, "index", json_integer(e->run_queue));
			json_object_set_new(o, "errno", json_integer(e->run_status));
			json_object_set_new(o, "blocks", json_integer(e->run_blocks));
			json_object_set_new(o, "descs", json_integer(e->run_descs));
			json_object_set_new(o, "bytes", json_integer(e->run_bytes));
			json_object_set_new(o, "ns", json_integer(e->run_ns));
		} else if (e->cmd == NEURONSIM_CMD_EXEC_DONE) {
			json_object_set_new(o, "model_id", json_integer(e->model.model_id));
			json_object_set_new(o, "errno", json_integer(e->exec_status));
			json_object_set_new(o, "subgraphs", json_integer(e->exec_subgraphs));
			json_object_set_new(o, "instructions", json_integer(e->exec_instructions));
			json_object_set_new(o, "blocks", json_integer(e->exec_blocks));
			json_object_set_new(o, "bytes", json_integer(e->exec_bytes));
			json_object_set_new(o, "virtual_ns", json_integer(e->exec_virtual_ns));
			json_object_set_new(o, "wall_ns", json_integer(e->exec_wall_ns));
			json_object_set_new(o, "not_simulated",
					    json_integer(e->exec_not_simulated));
		} else {
			model_json(o, &e->model);
		}
		json_object_set_new(o, "device", json_integer(e->model.device));
		tool_json_print(o);
	} else if (e->cmd == NEURONSIM_CMD_LOAD_FAILED) {
		printf("load_failed pid %u: %s (%s), reason %u: %s, field %s, subgraph %d record %d, device %u\n",
		       e->model.owner_pid, strerror(e->err_errno),
		       tool_errno_name(e->err_errno), e->err_reason,
		       neuronsim_reason_str(e->err_reason),
		       neuronsim_field_str(e->err_field), e->err_subgraph,
		       e->err_record, e->model.device);
	} else if (e->cmd == NEURONSIM_CMD_RUN_DONE) {
		printf("run_done model %u sg%u/%s: %s, %u blocks, %u descriptors, %llu bytes in %.3f ms, device %u\n",
		       e->model.model_id, e->run_subgraph, e->run_queue_name,
		       e->run_status ? strerror(e->run_status) : "ok", e->run_blocks,
		       e->run_descs, (unsigned long long)e->run_bytes,
		       e->run_ns / 1e6, e->model.device);
	} else if (e->cmd == NEURONSIM_CMD_EXEC_DONE) {
		printf("exec_done model %u: %s, %u subgraphs, %llu instructions, %llu DMA blocks, %llu bytes, %.3f us virtual in %.3f ms, %llu 0xD4 not simulated, device %u\n",
		       e->model.model_id,
		       e->exec_status ? strerror(e->exec_status) : "finished",
		       e->exec_subgraphs, (unsigned long long)e->exec_instructions,
		       (unsigned long long)e->exec_blocks,
		       (unsigned long long)e->exec_bytes, e->exec_virtual_ns / 1e3,
		       e->exec_wall_ns / 1e6,
		       (unsigned long long)e->exec_not_simulated, e->model.device);
	} else {
		printf("%s model %u pid %u: %u subgraphs from NeuronCore %u, %llu vars, %llu bytes HBM, %llu bytes scratchpad, target gen %u, device %u\n",
		       event_name(e->cmd), e->model.model_id, e->model.owner_pid,
		       e->model.num_subgraphs, e->model.first_core,
		       (unsigned long long)e->model.num_vars,
		       (unsigned long long)e->model.hbm_bytes,
		       (unsigned long long)e->model.scratchpad_bytes,
		       e->model.target_gen, e->model.device);
	}
	return mon_done(mo) ? 1 : 0;
}

/* the distinct pids holding a NeuronCore of a wanted device */
static size_t report_pids(const struct snap *s, __u32 *pids, size_t cap)
{
	size_t n = 0, i, k;
	__u32 c;

	for (i = 0; i < s->ndev; i++) {
		const struct snap_dev *d = &s->dev[i];

		for (c = 0; snap_wanted(d) && c < d->d.num_cores &&
		     c < NEURONSIM_MAX_CORES; c++) {
			__u32 pid = d->d.cores[c].owner_pid;

			for (k = 0; pid && k < n && pids[k] != pid; k++)
				;
			if (pid && k == n && n < cap)
				pids[n++] = pid;
		}
	}
	return n;
}

/* one neuron_runtime_data[] entry: the NeuronCores @pid holds */
static json_t *report_runtime(const struct snap *s, __u32 pid, double period)
{
	json_t *cores = json_object(), *models = json_array();
	__u64 device_bytes = 0, host_bytes = 0;
	char key[16], cmd[256];
	size_t i, m, k;
	__u32 c;

	for (i = 0; i < s->ndev; i++) {
		const struct snap_dev *d = &s->dev[i];

		for (c = 0; snap_wanted(d) && c < d->d.num_cores &&
		     c < NEURONSIM_MAX_CORES; c++) {
			json_t *o;

			if (d->d.cores[c].owner_pid != pid)
				continue;
			o = json_object();
			for (k = 0; k < REPORT_NCATS; k++)
				json_object_set_new(o, kbin_mem_category_str(report_cats[k]),
						    json_integer(d->core[c].mem[report_cats[k]]));
			snprintf(key, sizeof(key), "%u", d->global_core0 + c);
			json_object_set_new(cores, key, o);
			device_bytes += d->core[c].used;
		}
	}
	for (m = 0; m < s->nmodels; m++) {
		const struct neuronsim_nl_model *nm = &s->models[m];
		json_t *sgs = json_object(), *o;
		__u32 g = 0;

		if (nm->owner_pid != pid || (dev_index >= 0 && nm->device != (__u32)dev_index))
			continue;
		for (i = 0; i < s->ndev; i++)
			if (s->dev[i].d.device == nm->device)
				g = s->dev[i].global_core0;
		for (c = 0; c < nm->num_subgraphs; c++) {
			snprintf(key, sizeof(key), "sg_%02u", c);
			json_object_set_new(sgs, key, json_pack("{s:I,s:I}",
				"neuroncore_index", (json_int_t)(g + nm->first_core + c),
				"neuron_device_index", (json_int_t)nm->device));
		}
		o = json_pack("{s:I,s:b,s:o}", "model_id", (json_int_t)nm->model_id,
			      "is_running", 0, "subgraphs", sgs);
		json_object_set_new(o, "device", json_integer(nm->device));
		model_json(o, nm);
		json_array_append_new(models, o);
	}
	for (i = 0; i < s->ndev; i++)
		if (snap_wanted(&s->dev[i]))
			host_bytes += s->dev[i].host_driver_memory;
	return json_pack("{s:I,s:o,s:s,s:{s:{s:f,s:s,s:{s:I,s:I,s:{s:{s:I},s:o}},s:o}}}",
		"pid", (json_int_t)pid,
		"neuron_runtime_tag", json_text(proc_cmdline(pid, cmd, sizeof(cmd))),
		"error", "",
		"report", "memory_used", "period", period, "error", "",
		"neuron_runtime_used_bytes", "host", (json_int_t)host_bytes,
		"neuron_device", (json_int_t)device_bytes,
		"usage_breakdown", "host", "driver_memory", (json_int_t)host_bytes,
		"neuroncore_memory_usage", cores,
		"loaded_models", models);
}

static void report_json(const struct snap *s, double period)
{
	__u32 pids[NEURONSIM_MAX_DEVICES * NEURONSIM_MAX_CORES];
	json_t *rt = json_array();
	size_t n, i, ncores = 0;

	n = report_pids(s, pids, sizeof(pids) / sizeof(pids[0]));
	for (i = 0; i < n; i++)
		json_array_append_new(rt, report_runtime(s, pids[i], period));
	for (i = 0; i < s->ndev; i++)
		ncores = s->dev[i].d.num_cores > ncores ? s->dev[i].d.num_cores : ncores;
	tool_json_print(json_pack("{s:o,s:{s:I,s:I,s:s}}",
		"neuron_runtime_data", rt,
		"neuron_hardware_info", "neuron_device_count", (json_int_t)s->ndev,
		"neuroncore_per_device_count", (json_int_t)ncores, "error", ""));
}

/* Prometheus text exposition of the same numbers, one block per metric */
static void report_prometheus(const struct snap *s)
{
	size_t i;
	__u32 c, k;

	printf("# HELP neuroncore_memory_usage_bytes Device memory held on a NeuronCore, by the Neuron driver's category.\n"
	       "# TYPE neuroncore_memory_usage_bytes gauge\n");
	for (i = 0; i < s->ndev; i++) {
		const struct snap_dev *d = &s->dev[i];

		for (c = 0; snap_wanted(d) && d->sysfs && c < d->d.num_cores &&
		     c < NEURONSIM_MAX_CORES; c++)
			for (k = 0; k < KBIN_MEMCAT_MAX; k++)
				printf("neuroncore_memory_usage_bytes{device=\"%u\",neuroncore=\"%u\",category=\"%s\"} %llu\n",
				       d->d.device, d->global_core0 + c,
				       kbin_mem_category_str(k),
				       (unsigned long long)d->core[c].mem[k]);
	}
	printf("# HELP neuron_device_hbm_used_bytes HBM held by every model of a device.\n"
	       "# TYPE neuron_device_hbm_used_bytes gauge\n");
	for (i = 0; i < s->ndev; i++)
		if (snap_wanted(&s->dev[i]))
			printf("neuron_device_hbm_used_bytes{device=\"%u\",generation=\"%s\"} %llu\n",
			       s->dev[i].d.device, s->dev[i].d.arch_name,
			       (unsigned long long)s->dev[i].d.hbm_used);
	printf("# HELP neuron_device_models Models loaded on a device.\n"
	       "# TYPE neuron_device_models gauge\n");
	for (i = 0; i < s->ndev; i++)
		if (snap_wanted(&s->dev[i]))
			printf("neuron_device_models{device=\"%u\",generation=\"%s\"} %u\n",
			       s->dev[i].d.device, s->dev[i].d.arch_name,
			       s->dev[i].d.num_models);
	printf("# HELP neuroncore_model_loads_total Successful model loads on a NeuronCore.\n"
	       "# TYPE neuroncore_model_loads_total counter\n");
	for (i = 0; i < s->ndev; i++) {
		const struct snap_dev *d = &s->dev[i];

		for (c = 0; snap_wanted(d) && d->sysfs && c < d->d.num_cores &&
		     c < NEURONSIM_MAX_CORES; c++)
			printf("neuroncore_model_loads_total{device=\"%u\",neuroncore=\"%u\"} %llu\n",
			       d->d.device, d->global_core0 + c,
			       (unsigned long long)d->core[c].model_loads);
	}
}

/* one report; -1 when the snapshot failed */
static int report(struct mon *mo)
{
	struct snap s;

	if (snap_take(&s))
		return -1;
	if (mo->prometheus) {
		report_prometheus(&s);
	} else if (tool_json) {
		report_json(&s, mo->period);
	} else {
		size_t i;
		__u32 c;

		for (i = 0; i < s.ndev; i++)
			for (c = 0; snap_wanted(&s.dev[i]) && c < s.dev[i].d.num_cores &&
			     c < NEURONSIM_MAX_CORES; c++)
				if (s.dev[i].core[c].used)
					printf("report device %u NeuronCore %u pid %u: %llu bytes, tensors %llu, constants %llu\n",
					       s.dev[i].d.device, c,
					       s.dev[i].d.cores[c].owner_pid,
					       (unsigned long long)s.dev[i].core[c].used,
					       (unsigned long long)s.dev[i].core[c].mem[KBIN_MEMCAT_TENSORS],
					       (unsigned long long)s.dev[i].core[c].mem[KBIN_MEMCAT_CONSTANTS]);
	}
	snap_free(&s);
	return mon_done(mo) ? 1 : 0;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int cmd_monitor(int argc, char **argv)
{
	struct tool_opt opts[] = {
		{ .name = "count", .arg = true }, { .name = "period", .arg = true },
		{ .name = "prometheus" }, { .name = NULL },
	};
	struct mon mo = { .left = -1 };
	struct neuronsim_nl *nl;
	double next = 0;
	__u32 count;
	int n, err;

	if (tool_parse_opts(cmd_name, argc - 1, argv + 1, opts, &n))
		return 2;
	if (n)
		return usage_error("unexpected argument '%s' (try --help)", argv[1]);
	if (opts[0].seen) {
		if (parse_u32_arg("--count", opts[0].val, &count))
			return 2;
		mo.left = count ? (long)count : -1;
	}
	if (opts[1].seen && parse_seconds_arg("--period", opts[1].val, &mo.period))
		return 2;
	mo.prometheus = opts[2].seen;
	if (mo.prometheus && tool_json)
		return usage_error("--prometheus and -j are two forms of the report: pick one");
	/* the exposition once, without --period: for a textfile collector */
	if (mo.prometheus && !mo.period)
		return report(&mo) < 0 ? 1 : 0;
	err = neuronsim_nl_open(&nl);
	if (!err)
		err = neuronsim_nl_subscribe(nl);
	if (err) {
		errmsg_errno(err, "netlink group '%s' of '%s': %s",
			     NEURONSIM_GENL_MCGRP_MONITOR, NEURONSIM_GENL_NAME,
			     strerror(-err));
		neuronsim_nl_close(nl);
		return 1;
	}
	install_stop_handlers();
	if (!tool_json && !mo.prometheus) {
		printf("monitoring '%s' events (^C to stop)\n", NEURONSIM_GENL_NAME);
		fflush(stdout);
	}
	if (mo.period)
		next = now_s();
	while (!stop_signal) {
		int timeout = -1;

		if (mo.period) {
			double t = now_s();

			if (t >= next) {
				err = report(&mo);
				if (err)
					break;
				next += mo.period;
				if (next < t)
					next = t + mo.period;
			}
			timeout = (int)((next - now_s()) * 1000) + 1;
			if (timeout < 0)
				timeout = 0;
		}
		err = neuronsim_nl_read_events(nl, timeout, monitor_cb, &mo);
		if (err == -ECANCELED) {
			err = 0;
			break;
		}
		if (err < 0 && err != -EINTR) {
			errmsg_errno(err, "reading events: %s", strerror(-err));
			break;
		}
		err = 0;
	}
	neuronsim_nl_close(nl);
	if (err > 0)	/* --count reached by a report */
		err = 0;
	return err ? 1 : 0;
}

const struct nsim_cmd nsim_cmd_monitor = {
	.name = "monitor",
	.summary = "print load/unload events, and periodic reports",
	.usage = "monitor [--count N] [--period SECONDS] [--prometheus]",
	.help = "  print MODEL_LOADED, MODEL_UNLOADED and LOAD_FAILED events of the\n"
		"  netlink 'monitor' group and, for root (CAP_SYS_ADMIN), RUN_DONE\n"
		"  and EXEC_DONE (an execution ended)\n"
		"  events of the 'runs' group, every field the kernel sends, until\n"
		"  SIGINT/SIGTERM (or N lines), of device N or without -d of every\n"
		"  device.  With -j one JSON object per line.\n"
		"  --period SECONDS: also a report every SECONDS: per process holding\n"
		"  NeuronCores its device memory per NeuronCore by category and its\n"
		"  loaded models; with -j in neuron-monitor's JSON shape\n"
		"  (neuron_runtime_data[].report.memory_used...), which its consumers\n"
		"  read as they are.\n"
		"  --prometheus: the report as Prometheus text exposition (HELP and\n"
		"  TYPE lines, labels device, neuroncore, category); once, or every\n"
		"  SECONDS with --period; no events.\n",
	.run = cmd_monitor,
};
