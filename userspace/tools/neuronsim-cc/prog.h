/* SPDX-License-Identifier: GPL-2.0 */
/*
 * prog.h - the engine programs in neuronsim-cc: "info --program" (a
 * NEFF's streams), "dump --program" (a plan's program section) and the
 * "replay" command (the host reference of an execution and its trace);
 * Documentation/compiler.rst and Documentation/execute.rst.
 */
#ifndef _NEURONSIM_CC_PROG_H
#define _NEURONSIM_CC_PROG_H

#include <jansson.h>

#include "kbin_reader.h"
#include "neuronsim_cc.h"

extern const char *const cc_usage_replay;

int cc_prog_model_out(const struct nscc_subgraph *sg, int js, json_t *sgj);
int cc_prog_plan_out(const struct kbin_view *v, uint32_t s, int js,
		     json_t *sgj);
int cc_replay(int argc, char **argv);

#endif /* _NEURONSIM_CC_PROG_H */
