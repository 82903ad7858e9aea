// SPDX-License-Identifier: GPL-2.0
/*
 * status.c - the runtime's one table from a failed device or compiler
 * call to the NRT_STATUS libnrt documents for it (Documentation/nrt.rst,
 * "Status codes"), and its log in libnrt's line format at the levels of
 * NEURON_RT_LOG_LEVEL.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include <linux/neuronsim_kbin.h>

#include "internal.h"

/*
 * One row: a failure of @op with -@err (0: any errno) and, for a load,
 * a checker or staging reason in [@reason_lo, @reason_hi] (both 0: any
 * reason) is @status.  The first row that matches wins; the rows of
 * Documentation/nrt.rst, "Status codes", in the same order.
 */
struct nrt_status_row {
	enum nrt_op op;
	int err;
	uint32_t reason_lo, reason_hi;
	NRT_STATUS status;
};

static const struct nrt_status_row nsrt_status_rows[] = {
	/* reading and compiling the NEFF */
	{ NRT_OP_COMPILE, EOPNOTSUPP, 0, 0, NRT_UNSUPPORTED_NEFF_VERSION },
	{ NRT_OP_COMPILE, ENOMEM, 0, 0, NRT_RESOURCE },
	{ NRT_OP_COMPILE, 0, 0, 0, NRT_INVALID },
	/* LOAD: the plan's reason first, then the errno */
	{ NRT_OP_LOAD, 0, KBIN_ERR_VERSION, KBIN_ERR_VERSION, NRT_UNSUPPORTED_NEFF_VERSION },
	{ NRT_OP_LOAD, 0, KBIN_ERR_TARGET, KBIN_ERR_TARGET, NRT_UNSUPPORTED_NEFF_VERSION },
	{ NRT_OP_LOAD, 0, KBIN_ERR_STAGE_CORES, KBIN_ERR_STAGE_CORES, NRT_LOAD_NOT_ENOUGH_NC },
	{ NRT_OP_LOAD, EBUSY, 0, 0, NRT_LOAD_NOT_ENOUGH_NC },
	{ NRT_OP_LOAD, ENODEV, 0, 0, NRT_LOAD_NOT_ENOUGH_NC },
	{ NRT_OP_LOAD, ENOSPC, 0, 0, NRT_RESOURCE },
	{ NRT_OP_LOAD, ENOMEM, 0, 0, NRT_RESOURCE },
	{ NRT_OP_LOAD, EMFILE, 0, 0, NRT_RESOURCE },
	{ NRT_OP_LOAD, E2BIG, 0, 0, NRT_RESOURCE },
	{ NRT_OP_LOAD, EINVAL, 0, 0, NRT_INVALID },
	{ NRT_OP_LOAD, EINTR, 0, 0, NRT_FAILURE },
	/* starting or waiting for an execution */
	{ NRT_OP_EXEC, EBUSY, 0, 0, NRT_EXEC_NC_BUSY },
	{ NRT_OP_EXEC, ENODATA, 0, 0, NRT_INVALID },
	{ NRT_OP_EXEC, ENOENT, 0, 0, NRT_INVALID_HANDLE },
	{ NRT_OP_EXEC, ENOMEM, 0, 0, NRT_RESOURCE },
	{ NRT_OP_EXEC, ETIMEDOUT, 0, 0, NRT_TIMEOUT },
	/* how an execution ended */
	{ NRT_OP_EXEC_STATUS, EDEADLK, 0, 0, NRT_TIMEOUT },
	{ NRT_OP_EXEC_STATUS, ETIME, 0, 0, NRT_TIMEOUT },
	{ NRT_OP_EXEC_STATUS, EIO, 0, 0, NRT_EXEC_COMPLETED_WITH_ERR },
	{ NRT_OP_EXEC_STATUS, EOPNOTSUPP, 0, 0, NRT_EXEC_COMPLETED_WITH_ERR },
	{ NRT_OP_EXEC_STATUS, ERANGE, 0, 0, NRT_EXEC_COMPLETED_WITH_ERR },
	{ NRT_OP_EXEC_STATUS, ENOMEM, 0, 0, NRT_RESOURCE },
	/* device tensors and the copies to and from a model's variables */
	{ NRT_OP_TENSOR, ENOSPC, 0, 0, NRT_RESOURCE },
	{ NRT_OP_TENSOR, ENOMEM, 0, 0, NRT_RESOURCE },
	{ NRT_OP_TENSOR, EMFILE, 0, 0, NRT_RESOURCE },
	{ NRT_OP_TENSOR, E2BIG, 0, 0, NRT_RESOURCE },
	{ NRT_OP_TENSOR, ENOENT, 0, 0, NRT_INVALID_HANDLE },
	{ NRT_OP_TENSOR, EBUSY, 0, 0, NRT_EXEC_NC_BUSY },
	{ NRT_OP_TENSOR, EINVAL, 0, 0, NRT_INVALID },
	{ NRT_OP_TENSOR, ERANGE, 0, 0, NRT_INVALID },
};

/**
 * nsrt_status_of() - the NRT_STATUS of a failed call.
 * @op: what failed.
 * @err: its -errno (a negative number), or 0.
 * @reason: a load's enum kbin_check_reason, else 0.
 *
 * Return: the status of the first row of nsrt_status_rows[] that matches;
 * NRT_FAILURE when none does; NRT_SUCCESS for @err 0.
 */
NRT_STATUS nsrt_status_of(enum nrt_op op, int err, uint32_t reason)
{
	size_t i;

	if (!err)
		return NRT_SUCCESS;
	for (i = 0; i < sizeof(nsrt_status_rows) / sizeof(nsrt_status_rows[0]); i++) {
		const struct nrt_status_row *r = &nsrt_status_rows[i];

		if (r->op != op)
			continue;
		if (r->reason_lo || r->reason_hi) {
			if (reason < r->reason_lo || reason > r->reason_hi)
				continue;
		} else if (r->err && r->err != -err) {
			continue;
		}
		return r->status;
	}
	return NRT_FAILURE;
}

/* the status's name, as libnrt's log prints it */
const char *nsrt_status_str(NRT_STATUS s)
{
	switch (s) {
	case NRT_SUCCESS: return "NRT_SUCCESS";
	case NRT_FAILURE: return "NRT_FAILURE";
	case NRT_INVALID: return "NRT_INVALID";
	case NRT_INVALID_HANDLE: return "NRT_INVALID_HANDLE";
	case NRT_RESOURCE: return "NRT_RESOURCE";
	case NRT_TIMEOUT: return "NRT_TIMEOUT";
	case NRT_HW_ERROR: return "NRT_HW_ERROR";
	case NRT_QUEUE_FULL: return "NRT_QUEUE_FULL";
	case NRT_LOAD_NOT_ENOUGH_NC: return "NRT_LOAD_NOT_ENOUGH_NC";
	case NRT_UNSUPPORTED_NEFF_VERSION: return "NRT_UNSUPPORTED_NEFF_VERSION";
	case NRT_UNINITIALIZED: return "NRT_UNINITIALIZED";
	case NRT_CLOSED: return "NRT_CLOSED";
	case NRT_EXEC_BAD_INPUT: return "NRT_EXEC_BAD_INPUT";
	case NRT_EXEC_COMPLETED_WITH_NUM_ERR: return "NRT_EXEC_COMPLETED_WITH_NUM_ERR";
	case NRT_EXEC_COMPLETED_WITH_ERR: return "NRT_EXEC_COMPLETED_WITH_ERR";
	case NRT_EXEC_NC_BUSY: return "NRT_EXEC_NC_BUSY";
	case NRT_COLL_PENDING: return "NRT_COLL_PENDING";
	}
	return "NRT_UNKNOWN";
}

int nsrt_log_level = NRT_LOG_ERROR;

static const char *const nsrt_level_names[] = {
	[NRT_LOG_ERROR] = "ERROR",
	[NRT_LOG_WARN] = "WARN",
	[NRT_LOG_INFO] = "INFO",
	[NRT_LOG_DEBUG] = "DEBUG",
	[NRT_LOG_TRACE] = "TRACE",
};

/*
 * nsrt_log_init() - NEURON_RT_LOG_LEVEL: ERROR (the default), WARN, INFO,
 * DEBUG or TRACE, any case; WARNING is WARN.  Anything else keeps ERROR
 * and says so.
 */
void nsrt_log_init(void)
{
	const char *v = getenv("NEURON_RT_LOG_LEVEL");
	int i;

	nsrt_log_level = NRT_LOG_ERROR;
	if (!v || !*v)
		return;
	if (!strcasecmp(v, "WARNING")) {
		nsrt_log_level = NRT_LOG_WARN;
		return;
	}
	for (i = 0; i <= NRT_LOG_TRACE; i++) {
		if (!strcasecmp(v, nsrt_level_names[i])) {
			nsrt_log_level = i;
			return;
		}
	}
	NRT_ERR("NEURON_RT_LOG_LEVEL '%s' is not ERROR, WARN, INFO, DEBUG or TRACE: ERROR is used",
		v);
}

/*
 * nsrt_log() - one line on stderr in libnrt's shape:
 * "2026-Dec-03 08:17:45.123456 PID:TID LEVEL  NRT:function  text"
 * when @level is at or above NEURON_RT_LOG_LEVEL's.
 */
void nsrt_log(enum nsrt_log_level level, const char *func, const char *fmt, ...)
{
	char when[32], text[1024];
	struct timeval tv;
	struct tm tm;
	va_list ap;

	if ((int)level > nsrt_log_level)
		return;
	gettimeofday(&tv, NULL);
	localtime_r(&tv.tv_sec, &tm);
	strftime(when, sizeof(when), "%Y-%b-%d %H:%M:%S", &tm);
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s.%06ld %d:%ld %-5s NRT:%s  %s\n", when,
		(long)tv.tv_usec, (int)getpid(), (long)syscall(SYS_gettid),
		nsrt_level_names[level], func, text);
}

/* a call neuronsim does not implement: logged, NRT_INVALID */
NRT_STATUS nsrt_unsupported(const char *func)
{
	nsrt_log(NRT_LOG_ERROR, func, "not supported by neuronsim");
	return NRT_INVALID;
}
