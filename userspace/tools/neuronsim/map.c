// SPDX-License-Identifier: GPL-2.0
/*
 * map.c - "map": an SVG picture of where every variable of a model or
 * plan sits (neuronsim_map_svg()).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "main.h"

static int cmd_map(int argc, char **argv)
{
	struct tool_opt opts[] = { { .name = "o", .arg = true }, { .name = NULL } };
	NEURONSIM_OPTS_INIT(map_opts, mo);
	struct neuronsim_info info;
	const char *src, *out;
	char title[300];
	struct vartab t;
	FILE *f;
	int n, err;

	if (tool_parse_opts(cmd_name, argc - 1, argv + 1, opts, &n))
		return 2;
	if (n > 1)
		return usage_error("unexpected argument '%s'", argv[2]);
	if (n < 1 || !opts[0].seen)
		return usage_error("need PLAN|MODEL and -o FILE.svg (try --help)");
	src = argv[1];
	out = opts[0].val;
	if (device_info(&info))
		return 1;
	if (vartab_open(&t, src, NEURONSIM_CORE_ANY)) {
		vartab_free(&t);
		return 1;
	}
	snprintf(title, sizeof(title), "neuronsim model %u (%s)", t.model_id, src);
	mo.title = title;
	f = strcmp(out, "-") ? fopen(out, "w") : stdout;
	if (!f) {
		errmsg_errno(errno, "%s: %s", out, strerror(errno));
		vartab_free(&t);
		return 1;
	}
	err = neuronsim_map_svg(f, &info, t.v, t.n, &mo);
	if (f != stdout && fclose(f) && !err)
		err = -EIO;
	if (err)
		errmsg_errno(err, "%s: %s", out, strerror(-err));
	else if (tool_json && f != stdout)
		tool_json_print(json_pack("{s:s,s:I,s:I}", "file", out, "model_id",
					  (json_int_t)t.model_id, "vars",
					  (json_int_t)t.n));
	else if (f != stdout)
		printf("%s: %zu variables of model %u\n", out, t.n, t.model_id);
	vartab_free(&t);
	return err ? 1 : 0;
}

const struct nsim_cmd nsim_cmd_map = {
	.name = "map",
	.summary = "SVG memory map of a model or plan",
	.usage = "map PLAN|MODEL -o FILE.svg",
	.help = "  an SVG picture of where every variable sits: a band per HBM\n"
		"  channel, NeuronCore SBUF window and the scratchpad, a box per\n"
		"  variable coloured by mr_type, names on hover.  '-o -' writes to\n"
		"  stdout.  MODEL uses netlink GET_VARS (owner or CAP_SYS_ADMIN).\n",
	.run = cmd_map,
};
