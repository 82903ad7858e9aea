// SPDX-License-Identifier: GPL-2.0
/*
 * passes.c - neuronsim-cc passes: the backend passes on a BIR JSON
 * module, the module printed after one of them
 * (Documentation/compiler-passes.rst).
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "main.h"

static const char usage_passes[] =
	"usage: neuronsim-cc passes MODEL.bir.json [--dump-after=NAME[@ORDER]] [SWITCHES]\n"
	"\n"
	"Run the backend passes (orders 39, 40, 41, 42, 48, 50, 60, 61, 62) on a\n"
	"BIR JSON module, log each pass's time and what the passes say on stderr,\n"
	"and print the module as canonical BIR JSON after the pass NAME (e.g.\n"
	"inline_nki_kernel@41), or after the last pass.\n"
	"\n"
	BIR_SWITCHES_HELP;

static int run(int argc, char **argv)
{
	struct nscc_err err = { "" };
	struct bir_opts o = { .log = stderr };
	const char *in = NULL, *val;
	char prefix[PATH_MAX + 32];
	int a, k, ret;

	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "-h") || !strcmp(argv[a], "--help")) {
			fputs(usage_passes, stdout);
			return 0;
		} else if (!strcmp(argv[a], "-j") || !strcmp(argv[a], "--json")) {
			tool_json_on(0);	/* the module is JSON already */
		} else if (!strncmp(argv[a], "--dump-after=", 13)) {
			o.dump_after = argv[a] + 13;
		} else if ((k = cc_bir_switch_find(argv[a], &val)) >= 0) {
			if (cc_bir_switch_set("passes", (size_t)k, val, &o))
				return 1;
		} else if (argv[a][0] != '-' && !in) {
			in = argv[a];
		} else {
			return cc_usage_fail("passes", usage_passes,
					     "unexpected '%s'", argv[a]);
		}
	}
	if (!in) {
		return cc_usage_fail("passes", usage_passes, "missing %s",
				     "MODEL.bir.json");
	}
	snprintf(prefix, sizeof(prefix), "neuronsim-cc: %s: ", in);
	o.warn = stderr;
	o.warn_prefix = prefix;
	ret = nscc_bir_passes_file_opts(in, &o, stdout, &err);
	if (ret) {
		cc_fail_errno(in, ret, err.msg);
		return 1;
	}
	return 0;
}

const struct cc_cmd cc_cmd_passes = {
	.name = "passes",
	.usage = usage_passes,
	.run = run,
};
