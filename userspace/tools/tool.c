// SPDX-License-Identifier: GPL-2.0
/*
 * tool.c - the output and option helpers the neuronsim and neuronsim-cc
 * commands share (tool.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

bool tool_json;
static const char *tool_prog = "";
static size_t tool_flags = JSON_COMPACT;

void tool_init(const char *prog, size_t flags)
{
	tool_prog = prog;
	tool_flags = flags;
}

void tool_json_on(size_t flags)
{
	tool_json = true;
	if (flags)
		tool_flags = flags;
}

int tool_json_print(json_t *j)
{
	return tool_json_print_flags(j, 0);
}

int tool_json_print_flags(json_t *j, size_t more)
{
	int ret;

	if (!j)
		return -ENOMEM;
	ret = json_dumpf(j, stdout, tool_flags | more);
	json_decref(j);
	if (fputc('\n', stdout) == EOF || fflush(stdout) || ret)
		return -EIO;
	return 0;
}

json_t *json_text(const char *s)
{
	json_t *j = json_string(s);
	char *e, *o;

	if (j)
		return j;
	e = malloc(strlen(s) * 4 + 1);
	if (!e)
		return NULL;
	for (o = e; *s; s++) {
		if ((unsigned char)*s < 0x80)
			*o++ = *s;
		else
			o += sprintf(o, "\\x%02x", (unsigned char)*s);
	}
	*o = 0;
	j = json_string(e);
	free(e);
	return j;
}

const char *tool_errno_name(int err)
{
	const char *n = strerrorname_np(err < 0 ? -err : err);

	return n ? n : "E?";
}

/* set @key of @o to @v unless @v is NULL */
static void set_new(json_t *o, const char *key, json_t *v)
{
	if (v)
		json_object_set_new(o, key, v);
}

void tool_error(const struct tool_err *e, const char *fmt, ...)
{
	char msg[4096];
	va_list ap;
	json_t *o;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fflush(stdout);
	if (!tool_json) {
		fprintf(stderr, "%s: %s%s%s%s%s\n", tool_prog,
			e && e->cmd && *e->cmd ? e->cmd : "",
			e && e->cmd && *e->cmd ? ": " : "",
			e && e->file ? e->file : "", e && e->file ? ": " : "", msg);
		if (e && e->log && *e->log) {
			fputs(e->log, stderr);
			if (e->log[strlen(e->log) - 1] != '\n')
				fputc('\n', stderr);
		}
		return;
	}
	o = json_object();
	if (!o)
		return;
	if (e && e->err) {
		set_new(o, "errno", json_string(tool_errno_name(e->err)));
		set_new(o, "code", json_integer(e->err < 0 ? -e->err : e->err));
	}
	set_new(o, "message", json_text(msg));
	if (e && e->cmd && *e->cmd)
		set_new(o, "command", json_text(e->cmd));
	if (e && e->file)
		set_new(o, "file", json_text(e->file));
	if (e && e->has_reason) {
		set_new(o, "reason", json_integer(e->reason));
		if (e->reason_text)
			set_new(o, "reason_text", json_text(e->reason_text));
		if (e->field)
			set_new(o, "field", json_text(e->field));
		if (e->subgraph >= 0)
			set_new(o, "subgraph", json_integer(e->subgraph));
		if (e->record >= 0)
			set_new(o, "record", json_integer(e->record));
	}
	if (e && e->log && *e->log)
		set_new(o, "log", json_text(e->log));
	o = json_pack("{s:o}", "error", o);
	if (!o)
		return;
	json_dumpf(o, stderr, JSON_COMPACT | JSON_ENSURE_ASCII);
	fputc('\n', stderr);
	fflush(stderr);
	json_decref(o);
}

static struct tool_opt *find_opt(struct tool_opt *opts, const char *word,
				 const char **inline_val)
{
	size_t n;

	*inline_val = NULL;
	for (; opts && opts->name; opts++) {
		if (!opts->name[1]) {	/* "-o" */
			if (word[0] == '-' && word[1] == opts->name[0] && !word[2])
				return opts;
			continue;
		}
		if (strncmp(word, "--", 2))
			continue;
		n = strlen(opts->name);
		if (strncmp(word + 2, opts->name, n))
			continue;
		if (!word[2 + n])
			return opts;
		if (word[2 + n] == '=' && opts->arg) {
			*inline_val = word + 3 + n;
			return opts;
		}
	}
	return NULL;
}

int tool_parse_opts(const char *cmd, int argc, char **argv,
		    struct tool_opt *opts, int *npos)
{
	struct tool_err e = { .err = EINVAL, .cmd = cmd };
	bool only_pos = false;
	int i, n = 0;

	for (i = 0; i < argc; i++) {
		const char *w = argv[i], *val;
		struct tool_opt *o;

		if (only_pos || w[0] != '-' || !w[1]) {
			argv[n++] = argv[i];
			continue;
		}
		if (!strcmp(w, "--")) {
			only_pos = true;
			continue;
		}
		o = find_opt(opts, w, &val);
		if (!o) {
			tool_error(&e, "unknown option '%s' (try --help)", w);
			return -EINVAL;
		}
		if (o->arg && !val) {
			if (i + 1 >= argc) {
				tool_error(&e, "%s needs a value", w);
				return -EINVAL;
			}
			val = argv[++i];
		}
		o->seen = true;
		o->val = val;
	}
	*npos = n;
	return 0;
}
