// SPDX-License-Identifier: GPL-2.0
/*
 * neuronsim - command-line client of the simulated Neuron device, in the
 * manner of ip(8) and bpftool(8).  Built on libneuronsim (ioctls and the
 * "neuronsim" generic netlink family) and the host KBIN reader.
 *
 *   neuronsim [-j|-p] [-d N] COMMAND [ARGS] [--help]
 *
 * This file is the command table and the options every command takes;
 * each command group is a file of userspace/tools/neuronsim/ (main.h).
 * -j/--json, -p/--pretty and -d/--device N may stand anywhere on the
 * line, before or after COMMAND.  Documentation/userspace.rst has the
 * commands and examples.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "neuronsim/main.h"

/* the command table: a subcommand is a file defining nsim_cmd_NAME */
#define NSIM_COMMANDS(X) \
	X(info) X(ls) X(top) X(load) X(resolve) X(models) X(vars) X(read) \
	X(monitor) X(map) X(dma) X(run) X(exec)

#define NSIM_DECLARE(name) extern const struct nsim_cmd nsim_cmd_##name;
NSIM_COMMANDS(NSIM_DECLARE)

static const struct nsim_cmd *const cmds[] = {
#define NSIM_ENTRY(name) &nsim_cmd_##name,
	NSIM_COMMANDS(NSIM_ENTRY)
};

#define NUM_CMDS (sizeof(cmds) / sizeof(cmds[0]))

static const char *const prog = "neuronsim";

static int usage(FILE *f, int rc)
{
	size_t i;

	fprintf(f, "usage: %s [-j|--json] [-p|--pretty] [-d|--device N] COMMAND [ARGS] [--help]\n"
		"commands:\n", prog);
	for (i = 0; i < NUM_CMDS; i++)
		fprintf(f, "  %-8s %s\n", cmds[i]->name, cmds[i]->summary);
	fprintf(f, "MODEL is a model id; anything else is a KBIN plan file.\n"
		"-d N: device N, /dev/%sN (default 0, /dev/%s).\n"
		"-j, -p and -d may come before or after COMMAND.\n",
		NEURONSIM_DEVICE_NAME, NEURONSIM_DEVICE_NAME);
	return rc;
}

static bool is_help(const char *s)
{
	return !strcmp(s, "--help") || !strcmp(s, "-h");
}

static int cmd_help(const struct nsim_cmd *c)
{
	printf("usage: %s [-j|-p] [-d N] %s\n%s", prog, c->usage, c->help);
	return 0;
}

int main(int argc, char **argv)
{
	struct tool_err e = { .err = EINVAL };
	char **args;
	int n = 0, i, rc;
	size_t c;

	tool_init(prog, JSON_COMPACT | JSON_ENSURE_ASCII);
	/* -j/-p/-d anywhere, as bpftool takes its global options */
	args = calloc(argc + 1, sizeof(*args));
	if (!args)
		return 1;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-j") || !strcmp(argv[i], "--json")) {
			tool_json_on(0);
		} else if (!strcmp(argv[i], "-p") || !strcmp(argv[i], "--pretty")) {
			tool_json_on(JSON_INDENT(2) | JSON_ENSURE_ASCII);
		} else if (!strcmp(argv[i], "-d") || !strcmp(argv[i], "--device")) {
			__u32 d = 0;
			int bad = parse_u32_arg(argv[i], i + 1 < argc ?
						argv[i + 1] : NULL, &d);

			if (!bad && d >= NEURONSIM_MAX_DEVICES) {
				errmsg_errno(ERANGE, "-d %s: device indices are 0..%u",
					     argv[i + 1], NEURONSIM_MAX_DEVICES - 1);
				bad = 1;
			}
			if (bad) {
				free(args);
				return 2;
			}
			dev_index = d;
			i++;
		} else {
			args[n++] = argv[i];
		}
	}
	if (!n) {
		free(args);
		return usage(stderr, 2);
	}
	if (is_help(args[0]) || !strcmp(args[0], "help")) {
		free(args);
		return usage(stdout, 0);
	}
	for (c = 0; c < NUM_CMDS; c++) {
		if (strcmp(args[0], cmds[c]->name))
			continue;
		cmd_name = cmds[c]->name;
		for (i = 1; i < n && !is_help(args[i]); i++)
			;
		rc = i < n ? cmd_help(cmds[c]) : cmds[c]->run(n, args);
		free(args);
		return rc;
	}
	tool_error(&e, "unknown command '%s' (try --help)", args[0]);
	free(args);
	if (!tool_json)
		usage(stderr, 2);
	return 2;
}
