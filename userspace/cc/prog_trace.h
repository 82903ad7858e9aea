/* SPDX-License-Identifier: GPL-2.0 */
/*
 * prog_trace.h - an execution as Chrome trace-event JSON
 * (Documentation/execute.rst, "Trace"), written from its events: those
 * the kernel records (NEURONSIM_IOC_EXEC_WAIT) or those the host replay
 * records (prog_replay.h), one writer for both, so the two traces of one
 * plan are equal when their events are.
 */
#ifndef _NEURONSIM_PROG_TRACE_H
#define _NEURONSIM_PROG_TRACE_H

#include <stdint.h>
#include <stdio.h>

#include <linux/neuronsim.h>

#include "kbin_reader.h"

/**
 * struct prog_trace_sg - one subgraph's events, in the order they were
 * recorded.
 * @ev: the events (struct neuronsim_exec_event, uapi/linux/neuronsim.h).
 * @n: how many.
 */
struct prog_trace_sg {
	const struct neuronsim_exec_event *ev;
	uint32_t n;
};

int prog_trace_write(FILE *fp, const struct kbin_view *v, const char *source,
		     const struct prog_trace_sg *sgs, uint32_t nsg);

#endif /* _NEURONSIM_PROG_TRACE_H */
