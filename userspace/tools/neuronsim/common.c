// SPDX-License-Identifier: GPL-2.0
/*
 * common.c - helpers of the neuronsim command's subcommands: messages,
 * opening the device of -d N and netlink, numbers, signals.
 */
#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "main.h"

int dev_index = -1;
const char *cmd_name = "";
volatile sig_atomic_t stop_signal;

static void verr(int err, const char *fmt, va_list ap)
{
	struct tool_err e = { .err = err, .cmd = cmd_name };
	char msg[4096];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	tool_error(&e, "%s", msg);
}

/* a message about the running subcommand, no errno known */
void errmsg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verr(0, fmt, ap);
	va_end(ap);
}

/* a message about the running subcommand that failed with errno @err */
void errmsg_errno(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verr(err, fmt, ap);
	va_end(ap);
}

/* bad usage: the message (EINVAL) and exit status 2 */
int usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verr(EINVAL, fmt, ap);
	va_end(ap);
	return 2;
}

/* the device of -d N (default device 0, the alias), with a message */
int open_device(void)
{
	NEURONSIM_OPTS_INIT(open_opts, o, .device = dev_or_0());
	int fd = neuronsim_open(&o);

	if (fd < 0) {
		char node[32];

		if (dev_index > 0 && !neuronsim_dev_path(dev_index, node, sizeof(node)))
			errmsg_errno(fd, "%s: %s", node, strerror(-fd));
		else if (dev_index > 0)
			errmsg_errno(fd, "device %d: %s", dev_index, strerror(-fd));
		else
			errmsg_errno(fd, "%s: %s", NEURONSIM_DEV_PATH,
				     strerror(-fd));
	}
	return fd;
}

/* netlink, naming the device of -d N in every request when given */
int nl_open_device(struct neuronsim_nl **nl)
{
	int err = neuronsim_nl_open(nl);

	if (!err && dev_index >= 0)
		err = neuronsim_nl_set_device(*nl, dev_index);
	return err;
}

/*
 * nl_open_device() (or, without @with_device, the family alone), with the
 * message when it fails; 0 or -errno.
 */
int nl_open_msg(struct neuronsim_nl **nl, bool with_device)
{
	int err = with_device ? nl_open_device(nl) : neuronsim_nl_open(nl);

	if (err)
		errmsg_errno(err, "generic netlink family '%s': %s%s",
			     NEURONSIM_GENL_NAME, strerror(-err),
			     err == -ENOENT ? " (is neuronsim.ko loaded?)" : "");
	return err;
}

int parse_u32_arg(const char *what, const char *s, __u32 *out)
{
	__u64 v;

	if (!s) {
		errmsg_errno(EINVAL, "%s needs a value", what);
		return -EINVAL;
	}
	if (neuronsim_parse_u64(s, &v) || v > 0xffffffffULL) {
		errmsg_errno(EINVAL, "%s '%s' is not a number from 0 to 4294967295",
			     what, s);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

/* a period in seconds: a decimal number from 0.01 to 86400 */
int parse_seconds_arg(const char *what, const char *s, double *out)
{
	char *end;
	double v;

	if (!s) {
		errmsg_errno(EINVAL, "%s needs a value", what);
		return -EINVAL;
	}
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v >= 0.01 && v <= 86400)) {
		errmsg_errno(EINVAL, "%s '%s' is not a number of seconds from 0.01 to 86400",
			     what, s);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

bool is_model_id(const char *s, __u32 *id)
{
	unsigned long v;
	char *end;

	if (!*s || !isdigit((unsigned char)*s))
		return false;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (*end || errno || v == 0 || v > 0xffffffffUL)
		return false;
	*id = v;
	return true;
}

static void on_stop(int sig)
{
	stop_signal = sig;
}

void install_stop_handlers(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;	/* no SA_RESTART: poll/read return */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/* GET_INFO on a fd of its own */
int device_info(struct neuronsim_info *info)
{
	int fd, err;

	fd = open_device();
	if (fd < 0)
		return -1;
	err = neuronsim_get_info(fd, info);
	neuronsim_close(fd);
	if (err) {
		errmsg_errno(err, "GET_INFO: %s", strerror(-err));
		return -1;
	}
	return 0;
}

/* a refused LOAD: errno, the checker's reason, subgraph, record, log */
void print_load_failure(const char *plan, int err,
			const struct neuronsim_load_opts *o, const char *log)
{
	struct tool_err e = {
		.err = err, .cmd = cmd_name, .has_reason = true,
		.reason = o->err_reason,
		.reason_text = neuronsim_reason_str(o->err_reason),
		.field = neuronsim_field_str(o->err_field),
		.subgraph = o->err_subgraph, .record = o->err_record,
		.log = log,
	};

	if (!o->err_reason && !o->log_len) {
		e.has_reason = false;
		e.log = NULL;
		tool_error(&e, "%s: %s", plan, strerror(-err));
		return;
	}
	tool_error(&e, "%s: %s (%s, reason %u: %s, subgraph %d, record %d)",
		   plan, strerror(-err), tool_errno_name(err), o->err_reason,
		   neuronsim_reason_str(o->err_reason), o->err_subgraph,
		   o->err_record);
}

const char *event_name(__u8 cmd)
{
	switch (cmd) {
	case NEURONSIM_CMD_MODEL_LOADED:
		return "loaded";
	case NEURONSIM_CMD_MODEL_UNLOADED:
		return "unloaded";
	case NEURONSIM_CMD_LOAD_FAILED:
		return "load_failed";
	case NEURONSIM_CMD_RUN_DONE:
		return "run_done";
	case NEURONSIM_CMD_EXEC_DONE:
		return "exec_done";
	default:
		return "?";
	}
}
