// SPDX-License-Identifier: GPL-2.0
/*
 * neuronsim-cc - compile a NEFF into a KBIN static memory plan, show what
 * a NEFF holds, list the records of a plan, and say whether it fits a
 * device.
 *
 *   neuronsim-cc compile [-j] MODEL.neff|DIR -o PLAN.kbin
 *   neuronsim-cc compile [-j] MODEL.bir.json -o PLAN.kbin [BIR SWITCHES]
 *   neuronsim-cc compile [-j] --neff MODEL.bir.json -o MODEL.neff [BIR SWITCHES]
 *   neuronsim-cc passes  MODEL.bir.json [--dump-after=NAME] [BIR SWITCHES]
 *   neuronsim-cc info    [-j] [--dma] [--program] MODEL.neff|DIR
 *   neuronsim-cc dump    [-j] [--dma] [--program] PLAN.kbin
 *   neuronsim-cc replay  [-j] [--trace FILE] MODEL
 *   neuronsim-cc races   [-j] MODEL
 *   neuronsim-cc plan    --memory [-j] [--arch NAME] [--first-core N] MODEL
 *
 * This file is the command table; each command is a file of
 * userspace/tools/neuronsim-cc/ (main.h), in the manner of bpftool and
 * of the neuronsim command.  -j (--json) and -p (--pretty) may also come
 * before COMMAND.  Errors go to stderr as "neuronsim-cc: FILE: MESSAGE",
 * under -j as one JSON object (userspace/tools/tool.h), and the exit
 * status is 1 (races: 2, its 1 means races were found).
 * Documentation/compiler.rst describes every message.
 */
#include <stdio.h>
#include <string.h>

#include "neuronsim-cc/main.h"

/* the command table: a command is a file defining cc_cmd_NAME */
#define CC_COMMANDS(X) \
	X(compile) X(passes) X(info) X(dump) X(replay) X(races) X(plan)

#define CC_DECLARE(name) extern const struct cc_cmd cc_cmd_##name;
CC_COMMANDS(CC_DECLARE)

static const struct cc_cmd *const cmds[] = {
#define CC_ENTRY(name) &cc_cmd_##name,
	CC_COMMANDS(CC_ENTRY)
};

#define NUM_CMDS (sizeof(cmds) / sizeof(cmds[0]))

static const char *const usage_main =
	"usage: neuronsim-cc [-j|-p] COMMAND [-j] ARGS\n"
	"\n"
	"Compile a real NEFF (neuronx-cc output) or a BIR JSON module into a\n"
	"KBIN static memory plan for /dev/neuronsim, and look inside NEFFs and\n"
	"plans.\n"
	"\n"
	"commands:\n"
	"  compile MODEL.neff|DIR -o PLAN.kbin   write the plan of every subgraph\n"
	"  compile MODEL.bir.json -o PLAN.kbin   run the backend passes, then the same\n"
	"  compile --neff MODEL.bir.json -o MODEL.neff\n"
	"                                        the same model as a NEFF instead\n"
	"  passes MODEL.bir.json [--dump-after=NAME] [SWITCHES]\n"
	"                                        run the passes, print the module\n"
	"  info MODEL.neff|DIR                   header, target, subgraphs, vars,\n"
	"                                        DMA queues and blocks\n"
	"  dump PLAN.kbin                        one line per mem_ref record, DMA\n"
	"                                        queue and block\n"
	"  replay MODEL [--trace FILE]           run the engine programs on the host\n"
	"                                        in virtual time (semaphores, DMA\n"
	"                                        blocks), optionally as a trace\n"
	"  races MODEL                           the data races of the engine programs:\n"
	"                                        unordered accesses to common bytes\n"
	"  plan --memory MODEL|PLAN.kbin         will it fit: the HBM a LOAD charges\n"
	"                                        each NeuronCore per category, and\n"
	"                                        whether an empty device takes it\n"
	"  help [COMMAND]                        this text, or a command's\n"
	"\n"
	"  -j, --json   print JSON instead of text (every command), before or\n"
	"               after COMMAND; errors are then JSON objects on stderr\n"
	"  -p, --pretty the same, indented\n"
	"\n"
	"Run 'neuronsim-cc COMMAND --help' for details.  Errors are printed as\n"
	"'neuronsim-cc: FILE: MESSAGE' and the exit status is 1 (races: 2, its\n"
	"1 means races were found).\n";

/* the command named @name, or NULL */
static const struct cc_cmd *find_cmd(const char *name)
{
	size_t c;

	for (c = 0; c < NUM_CMDS; c++)
		if (!strcmp(name, cmds[c]->name))
			return cmds[c];
	return NULL;
}

int main(int argc, char **argv)
{
	const struct cc_cmd *c;

	tool_init("neuronsim-cc", JSON_INDENT(2));
	/* -j/-p before COMMAND, as after it */
	while (argc > 1 && (!strcmp(argv[1], "-j") || !strcmp(argv[1], "--json") ||
			    !strcmp(argv[1], "-p") || !strcmp(argv[1], "--pretty"))) {
		tool_json_on(0);
		argv[1] = argv[0];
		argv++;
		argc--;
	}
	if (argc < 2) {
		fputs(usage_main, stderr);
		return 1;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fputs(usage_main, stdout);
		return 0;
	}
	if (!strcmp(argv[1], "help")) {
		c = argc > 2 ? find_cmd(argv[2]) : NULL;
		fputs(c ? c->usage : usage_main, stdout);
		return 0;
	}
	c = find_cmd(argv[1]);
	if (!c)
		return cc_usage_fail(NULL, usage_main, "unknown command '%s'",
				     argv[1]);
	return c->run(argc - 1, argv + 1);
}
