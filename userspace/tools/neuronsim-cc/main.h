/* SPDX-License-Identifier: GPL-2.0 */
/*
 * main.h - what the files of the neuronsim-cc command share, in the
 * manner of bpftool and of the neuronsim command (userspace/tools/
 * neuronsim/main.h): one file per command, each defining a struct cc_cmd
 * that the command table (userspace/tools/neuronsim-cc.c) lists; the
 * error helpers, the shape printers, the BIR pass switches and the
 * option parser of compile, info and dump (common.c); the DMA program
 * views of info and dump (dma.c) and their engine-program views
 * (prog.c).  Output goes through the JSON writer and error reporter both
 * commands share (userspace/tools/tool.h).  Documentation/compiler.rst
 * describes every command and message.
 *
 * Adding a command: a file here defining "const struct cc_cmd
 * cc_cmd_NAME", and NAME in CC_COMMANDS (neuronsim-cc.c).
 */
#ifndef _NEURONSIM_CC_MAIN_H
#define _NEURONSIM_CC_MAIN_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "bir/bir.h"
#include "kbin_dma.h"
#include "kbin_reader.h"
#include "neuronsim_cc.h"
#include "nsim_file.h"
#include "tool.h"

/**
 * struct cc_cmd - one command.
 * @name: what the user types.
 * @usage: its help text (--help, "help NAME"), ending in '\n'.
 * @run: the command, given its words (argv[0] is @name; -j and -p
 *	before it are already taken out); returns the exit status: 0, or 1
 *	for an error or bad usage.
 */
struct cc_cmd {
	const char *name;
	const char *usage;
	int (*run)(int argc, char **argv);
};

/*
 * The BIR pass switches of compile and passes
 * (Documentation/compiler-passes.rst, "Pass manager"), one line each in
 * the usage texts.
 */
#define BIR_SWITCHES_HELP \
	"BIR pass switches (MODEL.bir.json only):\n" \
	"  --enable-bir-kernel   inline BIR kernels at order 48, before the SB\n" \
	"                        coloring allocator (enableBirKernel); default:\n" \
	"                        at order 60, after it\n" \
	"  --rsv-path=1|2        RuntimeMemoryReservation's size: 1 SBUF partition\n" \
	"                        bytes - config offset, 2 the pinned SB locations'\n" \
	"                        high-water mark (default: by the reserved name)\n" \
	"  --rsv-offset=BYTES    its config offset, 1..4294967295 (default:\n" \
	"                        partition bytes - 8)\n" \
	"  --tensor-map=FILE     InlineNKIKernel loads FILE (missing: an empty map)\n" \
	"                        and writes it back with the dtype and shape of\n" \
	"                        every set it creates\n" \
	"  --Werror              a warning of a pass is an error\n"

/* errors and output (common.c) */
void cc_fail_errno(const char *file, int err, const char *msg);
void cc_fail(const char *file, const char *msg);
int cc_usage_fail(const char *cmd, const char *usage, const char *fmt,
		  const char *arg);
json_t *cc_shape_json(const uint64_t *dims, uint32_t n);
void cc_shape_text(char *out, size_t cap, const uint64_t *dims, uint32_t n);
int cc_json_print(json_t *j);
bool cc_is_bir_json(const char *path);
int cc_load_plan(const char *cmd, const char *in, void **buf, size_t *len);

/* the BIR pass switches (common.c) */
int cc_bir_switch_find(const char *arg, const char **val);
int cc_bir_switch_set(const char *cmd, size_t k, const char *val,
		      struct bir_opts *o);

/**
 * struct cc_file_args - the command line of compile, info and dump.
 * @file: the one FILE argument.
 * @out: -o FILE (compile).
 * @descs: --dma (info, dump).
 * @prog: --program (info, dump).
 * @neff: --neff (compile of a MODEL.bir.json): write a NEFF, not a plan.
 * @bir: the BIR pass switches given (compile of a MODEL.bir.json).
 */
struct cc_file_args {
	const char *file;
	const char *out;
	int descs;
	int prog;
	int neff;
	struct bir_opts bir;
};

int cc_parse_file_args(const struct cc_cmd *c, bool compile, int argc,
		       char **argv, struct cc_file_args *a);

/* the DMA program of a NEFF subgraph (info) or a plan subgraph (dump), dma.c */
int cc_model_dma_out(const struct nscc_subgraph *sg, int js, int descs,
		     json_t *sgj);
int cc_plan_dma_out(const struct kbin_view *v, uint32_t s, int js,
		    int descs, json_t *sgj);

/* the engine programs of info --program and dump --program, prog.c */
int cc_prog_model_out(const struct nscc_subgraph *sg, int js, json_t *sgj);
int cc_prog_plan_out(const struct kbin_view *v, uint32_t s, int js,
		     json_t *sgj);

#endif /* _NEURONSIM_CC_MAIN_H */
