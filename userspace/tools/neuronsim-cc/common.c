// SPDX-License-Identifier: GPL-2.0
/*
 * common.c - what the neuronsim-cc commands share (main.h): the error
 * helpers, the shape printers, the BIR pass switches of compile and
 * passes, and the option parser of compile, info and dump.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "main.h"

/**
 * cc_fail_errno() - an error about a file.
 * @file: the file.
 * @err: the negative errno when known, else 0.
 * @msg: the message.
 */
void cc_fail_errno(const char *file, int err, const char *msg)
{
	struct tool_err e = { .file = file, .err = err < 0 ? -err : 0 };

	tool_error(&e, "%s", msg);
}

/**
 * cc_fail() - an error about a file, no errno.
 * @file: the file.
 * @msg: the message.
 */
void cc_fail(const char *file, const char *msg)
{
	cc_fail_errno(file, 0, msg);
}

/**
 * cc_usage_fail() - a usage error of a command: the message, and in text
 *	mode the usage after it.
 * @cmd: the command, NULL for none.
 * @usage: its usage text, or NULL.
 * @fmt: the message, with one %s.
 * @arg: its argument.
 *
 * Return: 1, the exit status.
 */
int cc_usage_fail(const char *cmd, const char *usage, const char *fmt,
		  const char *arg)
{
	struct tool_err e = { .err = EINVAL, .cmd = cmd };

	tool_error(&e, fmt, arg);
	if (!tool_json && usage)
		fprintf(stderr, "\n%s", usage);
	return 1;
}

/**
 * cc_shape_json() - a shape as a JSON array.
 * @dims: the dimensions.
 * @n: how many.
 *
 * Return: the new array.
 */
json_t *cc_shape_json(const uint64_t *dims, uint32_t n)
{
	json_t *a = json_array();
	uint32_t i;

	for (i = 0; i < n; i++)
		json_array_append_new(a, json_integer((json_int_t)dims[i]));
	return a;
}

/**
 * cc_shape_text() - a shape as "[D0,D1,...]".
 * @out: where to write it.
 * @cap: bytes at @out.
 * @dims: the dimensions.
 * @n: how many.
 */
void cc_shape_text(char *out, size_t cap, const uint64_t *dims, uint32_t n)
{
	size_t o = 0;
	uint32_t i;

	o += snprintf(out, cap, "[");
	for (i = 0; i < n && o < cap; i++)
		o += snprintf(out + o, cap - o, "%s%llu", i ? "," : "",
			      (unsigned long long)dims[i]);
	if (o < cap)
		snprintf(out + o, cap - o, "]");
}

/**
 * cc_json_print() - print a command's JSON answer (tool_json_print()).
 * @j: the answer; its reference is taken.
 *
 * Return: the exit status, 0 or 1.
 */
int cc_json_print(json_t *j)
{
	return tool_json_print(j) ? 1 : 0;
}

/**
 * cc_is_bir_json() - whether a model file is a BIR module.
 * @path: the file.
 *
 * Return: true when @path ends in ".bir.json".
 */
bool cc_is_bir_json(const char *path)
{
	size_t n = strlen(path);

	return n > 9 && !strcmp(path + n - 9, ".bir.json");
}

/**
 * cc_load_plan() - the plan of a MODEL argument: a file that starts with
 *	the KBIN magic as it is, a MODEL.bir.json compiled by the BIR
 *	backend, anything else compiled as a NEFF (file or directory); the
 *	failure reported.
 * @cmd: the command, for the message.
 * @in: the argument.
 * @buf: out: the plan (malloc'd; the caller frees it).
 * @len: out: its bytes.
 *
 * Return: 0, or the negative errno after the message.
 */
int cc_load_plan(const char *cmd, const char *in, void **buf, size_t *len)
{
	struct nscc_warn warn = { 0 };
	struct nscc_err err = { "" };
	struct tool_err e = { .cmd = cmd, .file = in };
	int ret;

	if (cc_is_bir_json(in)) {
		ret = nscc_bir_compile_file(in, buf, len, &err);
	} else {
		ret = nsim_read_file(in, buf, len);
		if (!ret && *len >= 4 && !memcmp(*buf, "KBIN", 4))
			return 0;
		if (!ret)
			free(*buf);
		ret = nscc_compile_neff_warn(in, &warn, buf, len, &err);
	}
	if (ret) {
		e.err = ret;
		tool_error(&e, "%s", err.msg);
	}
	return ret;
}

/* ---- the BIR pass switches ---- */

static const struct bir_switch {
	const char *name;
	int has_arg;
} bir_switches[] = {
	{ "enable-bir-kernel", no_argument },
	{ "rsv-path", required_argument },
	{ "rsv-offset", required_argument },
	{ "Werror", no_argument },
	{ "tensor-map", required_argument },
};
#define NUM_BIR_SWITCHES (sizeof(bir_switches) / sizeof(bir_switches[0]))
#define BIR_SWITCH_VAL	256	/* getopt value of bir_switches[0] */

/* @s is a decimal 1..UINT32_MAX: 1 and *out, else 0 */
static int bir_u32(const char *s, uint32_t *out)
{
	unsigned long long v;
	char *end;

	if (*s < '1' || *s > '9')
		return 0;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v > UINT32_MAX)
		return 0;
	*out = (uint32_t)v;
	return 1;
}

/**
 * cc_bir_switch_set() - set a BIR pass switch.
 * @cmd: the command, for the messages.
 * @k: the switch, an index of bir_switches[].
 * @val: its value, NULL for none.
 * @o: the options it sets.
 *
 * Return: 0, or 1 with the refusal printed.
 */
int cc_bir_switch_set(const char *cmd, size_t k, const char *val,
		      struct bir_opts *o)
{
	const char *name = bir_switches[k].name;

	if (bir_switches[k].has_arg != (val != NULL)) {
		struct tool_err e = { .err = EINVAL, .cmd = cmd };

		tool_error(&e, "--%s %s", name,
			   val ? "takes no value" : "needs a value (--NAME=VALUE)");
		return 1;
	}
	if (!strcmp(name, "enable-bir-kernel"))
		o->enable_bir_kernel = true;
	else if (!strcmp(name, "Werror"))
		o->werror = true;
	else if (!strcmp(name, "tensor-map") && *val)
		o->tensor_map_path = val;
	else if (!strcmp(name, "rsv-path") &&
		 (!strcmp(val, "1") || !strcmp(val, "2")))
		o->rsv_path = val[0] - '0';
	else if (!strcmp(name, "rsv-offset") && bir_u32(val, &o->rsv_offset))
		return 0;
	else if (val) {
		struct tool_err e = { .err = EINVAL, .cmd = cmd };

		tool_error(&e, "--%s '%s' is not %s", name, val,
			   !strcmp(name, "rsv-path") ? "1 or 2" :
			   !strcmp(name, "tensor-map") ? "a file name" :
			   "a byte count 1..4294967295");
		return 1;
	}
	return 0;
}

/**
 * cc_bir_switch_find() - which BIR pass switch a word is.
 * @arg: the word, "--NAME[=VALUE]".
 * @val: set to VALUE, or NULL without one.
 *
 * Return: the index of NAME in bir_switches[], or -1.
 */
int cc_bir_switch_find(const char *arg, const char **val)
{
	size_t k, n;

	if (strncmp(arg, "--", 2))
		return -1;
	arg += 2;
	n = strcspn(arg, "=");
	*val = arg[n] ? arg + n + 1 : NULL;
	for (k = 0; k < NUM_BIR_SWITCHES; k++)
		if (strlen(bir_switches[k].name) == n &&
		    !strncmp(bir_switches[k].name, arg, n))
			return (int)k;
	return -1;
}

/**
 * cc_parse_file_args() - the command line of compile, info or dump:
 *	-j/-p, -o FILE (compile), --neff (compile of a MODEL.bir.json),
 *	--dma and --program (info, dump), the BIR pass switches (compile of
 *	a MODEL.bir.json), --help, and one FILE.
 * @c: the command.
 * @compile: @c is compile (-o required, --dma and --program refused;
 *	--neff taken).
 * @argc: its words.
 * @argv: the words, argv[0] the command's name.
 * @a: what was given.
 *
 * Return: -1 to run the command, else the exit status (help printed, or
 * the refusal).
 */
int cc_parse_file_args(const struct cc_cmd *c, bool compile, int argc,
		       char **argv, struct cc_file_args *a)
{
	struct option opts[7 + NUM_BIR_SWITCHES + 1] = {
		{ "json", no_argument, NULL, 'j' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ "dma", no_argument, NULL, 'D' },
		{ "pretty", no_argument, NULL, 'p' },
		{ "program", no_argument, NULL, 'P' },
		{ "neff", no_argument, NULL, 'N' },
	};
	const char *bir_switch = NULL;
	int ch;
	size_t k;

	memset(a, 0, sizeof(*a));
	for (k = 0; k < NUM_BIR_SWITCHES; k++)
		opts[7 + k] = (struct option){ bir_switches[k].name,
					       bir_switches[k].has_arg, NULL,
					       BIR_SWITCH_VAL + (int)k };
	optind = 1;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, "jpo:h", opts, NULL)) != -1) {
		if (ch >= BIR_SWITCH_VAL &&
		    ch < BIR_SWITCH_VAL + (int)NUM_BIR_SWITCHES) {
			k = (size_t)(ch - BIR_SWITCH_VAL);
			bir_switch = bir_switches[k].name;
			if (cc_bir_switch_set(c->name, k, optarg, &a->bir))
				return 1;
			continue;
		}
		switch (ch) {
		case 'j':
		case 'p':
			tool_json_on(0);
			break;
		case 'o':
			a->out = optarg;
			break;
		case 'D':
		case 'P':
			if (compile) {
				fputs(c->usage, stderr);
				return 1;
			}
			if (ch == 'D')
				a->descs = 1;
			else
				a->prog = 1;
			break;
		case 'N':
			if (!compile) {
				fputs(c->usage, stderr);
				return 1;
			}
			a->neff = 1;
			break;
		case 'h':
			fputs(c->usage, stdout);
			return 0;
		default:
			return cc_usage_fail(c->name, c->usage,
					     "unknown option or missing value: '%s'",
					     argv[optind - 1]);
		}
	}
	if (optind != argc - 1 || compile != (a->out != NULL))
		return cc_usage_fail(c->name, c->usage, "%s",
				     compile && !a->out ?
				     "missing -o PLAN.kbin" :
				     "expected exactly one FILE argument");
	a->file = argv[optind];
	if (a->neff && !cc_is_bir_json(a->file)) {
		struct tool_err e = { .err = EINVAL, .cmd = c->name };

		tool_error(&e, "--neff applies to compiling a MODEL.bir.json only");
		return 1;
	}
	if (bir_switch && (!compile || !cc_is_bir_json(a->file))) {
		struct tool_err e = { .err = EINVAL, .cmd = c->name };

		tool_error(&e, "--%s applies to compiling a MODEL.bir.json only",
			   bir_switch);
		return 1;
	}
	return -1;
}
