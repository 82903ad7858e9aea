// SPDX-License-Identifier: GPL-2.0
/*
 * monitor.c - "monitor": the netlink "monitor" group's events.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "main.h"

static int monitor_cb(const struct neuronsim_nl_event *e, void *ctx)
{
	long *left = ctx;

	if (dev_index >= 0 && e->model.device != (__u32)dev_index)
		return 0;
	if (tool_json) {
		json_t *o = json_pack("{s:s,s:I}", "event", event_name(e->cmd),
				      "owner_pid", (json_int_t)e->model.owner_pid);

		if (e->cmd == NEURONSIM_CMD_LOAD_FAILED) {
			json_object_set_new(o, "errno", json_integer(e->err_errno));
			json_object_set_new(o, "error", json_string(tool_errno_name(e->err_errno)));
			json_object_set_new(o, "reason", json_integer(e->err_reason));
			json_object_set_new(o, "reason_text",
					    json_string(neuronsim_reason_str(e->err_reason)));
			json_object_set_new(o, "subgraph", json_integer(e->err_subgraph));
			json_object_set_new(o, "record", json_integer(e->err_record));
		} else {
			json_object_set_new(o, "model_id", json_integer(e->model.model_id));
			json_object_set_new(o, "num_subgraphs",
					    json_integer(e->model.num_subgraphs));
			json_object_set_new(o, "num_vars", json_integer(e->model.num_vars));
			json_object_set_new(o, "hbm_bytes", json_integer(e->model.hbm_bytes));
		}
		json_object_set_new(o, "device", json_integer(e->model.device));
		tool_json_print(o);
	} else if (e->cmd == NEURONSIM_CMD_LOAD_FAILED) {
		printf("load_failed pid %u: %s (%s), reason %u: %s, subgraph %d record %d, device %u\n",
		       e->model.owner_pid, strerror(e->err_errno),
		       tool_errno_name(e->err_errno), e->err_reason,
		       neuronsim_reason_str(e->err_reason), e->err_subgraph,
		       e->err_record, e->model.device);
	} else {
		printf("%s model %u pid %u: %u subgraphs, %llu vars, %llu bytes HBM, device %u\n",
		       event_name(e->cmd), e->model.model_id, e->model.owner_pid,
		       e->model.num_subgraphs, (unsigned long long)e->model.num_vars,
		       (unsigned long long)e->model.hbm_bytes, e->model.device);
	}
	fflush(stdout);
	if (*left > 0 && --*left == 0)
		return 1;
	return 0;
}

static int cmd_monitor(int argc, char **argv)
{
	struct tool_opt opts[] = {
		{ .name = "count", .arg = true }, { .name = NULL },
	};
	struct neuronsim_nl *nl;
	long left = -1;
	__u32 count;
	int n, err;

	if (tool_parse_opts(cmd_name, argc - 1, argv + 1, opts, &n))
		return 2;
	if (n)
		return usage_error("unexpected argument '%s' (try --help)", argv[1]);
	if (opts[0].seen) {
		if (parse_u32_arg("--count", opts[0].val, &count))
			return 2;
		left = count ? (long)count : -1;
	}
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
	if (!tool_json) {
		printf("monitoring '%s' events (^C to stop)\n", NEURONSIM_GENL_NAME);
		fflush(stdout);
	}
	while (!stop_signal) {
		err = neuronsim_nl_read_events(nl, -1, monitor_cb, &left);
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
	return err ? 1 : 0;
}

const struct nsim_cmd nsim_cmd_monitor = {
	.name = "monitor",
	.summary = "print load/unload events",
	.usage = "monitor [--count N]",
	.help = "  print MODEL_LOADED, MODEL_UNLOADED and LOAD_FAILED events of the\n"
		"  netlink 'monitor' group until SIGINT/SIGTERM (or N events), of\n"
		"  device N or without -d of every device.  With -j one JSON object\n"
		"  per line.\n",
	.run = cmd_monitor,
};
