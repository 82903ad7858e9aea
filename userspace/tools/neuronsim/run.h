/* SPDX-License-Identifier: GPL-2.0 */
/*
 * run.h - the neuronsim command's DMA engine commands (run.c):
 * "neuronsim run PLAN --queue ...", and in the holder (load --hold) the
 * lines "run [sgN/]QUEUE...", "wait [sgN/]QUEUE...", "write VAR[+OFF]
 * FILE" and "read VAR [+OFF[:LEN]] --out FILE".  Documentation/dma.rst.
 *
 * The command gives these functions the loading fd, the model and a way
 * to find a variable by reference; they print text or JSON.
 */
#ifndef _NEURONSIM_RUN_CMD_H
#define _NEURONSIM_RUN_CMD_H

#include <stdbool.h>
#include <stddef.h>

#include "libneuronsim.h"

/* queues started by "run" and not yet waited for, per holder */
#define RUN_CMD_MAX_PENDING	256

/**
 * struct run_ctx - what the run commands work on.
 * @fd: the fd that loaded the model.
 * @model_id: the model.
 * @num_sg: its subgraphs.
 * @json: print JSON (one object per line) instead of text.
 * @find: the variable a parsed reference names, NULL with a message.
 * @find_ctx: for @find.
 * @npending: entries of @pending.
 * @pending: queues run and not waited for, (subgraph << 16 | queue).
 */
struct run_ctx {
	int fd;
	__u32 model_id;
	__u32 num_sg;
	bool json;
	const struct neuronsim_map_var *(*find)(void *ctx,
						const struct neuronsim_var_ref *r,
						const char *text);
	void *find_ctx;
	unsigned int npending;
	__u32 pending[RUN_CMD_MAX_PENDING];
};

int run_cmd_run(struct run_ctx *c, int argc, char **argv);
int run_cmd_wait(struct run_ctx *c, int argc, char **argv);
int run_cmd_write(struct run_ctx *c, const char *ref, const char *file);
int run_cmd_read_out(struct run_ctx *c, const char *ref, const char *file);
int run_cmd_main(struct run_ctx *c, int argc, char **argv);

#endif /* _NEURONSIM_RUN_CMD_H */
