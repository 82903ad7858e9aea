/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tool.h - what the neuronsim and neuronsim-cc commands share: one JSON
 * writer (jansson), one error reporter that speaks text or JSON, errno
 * names, and the option parser of the command's subcommands
 * (Documentation/userspace.rst, "One way to use every command").
 *
 * Output modes: a command starts in text mode; tool_json_on() (-j, -p)
 * makes every answer a JSON document on stdout and every error a JSON
 * object on stderr:
 *
 *   {"error": {"errno": "ERANGE", "code": 34, "message": "...",
 *              "command": "resolve", "file": "...", "reason": 96,
 *              "reason_text": "...", "field": "...", "subgraph": 0,
 *              "record": 3, "log": "..."}}
 *
 * with only the members that are known.  The exit status is the same in
 * both modes.
 */
#ifndef _NEURONSIM_TOOL_H
#define _NEURONSIM_TOOL_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

/* true once tool_json_on() was called */
extern bool tool_json;

/**
 * tool_init() - name the program in messages ("PROG: ...").
 * @prog: e.g. "neuronsim"; kept, not copied.
 * @flags: jansson dump flags of JSON output (JSON_COMPACT, JSON_INDENT(2),
 *	JSON_ENSURE_ASCII ...) until tool_json_on() changes them.
 */
void tool_init(const char *prog, size_t flags);

/**
 * tool_json_on() - JSON from now on: answers on stdout, errors on stderr.
 * @flags: jansson dump flags of the answers; 0 keeps tool_init()'s.
 */
void tool_json_on(size_t flags);

/**
 * tool_json_print() - write one JSON document and a newline to stdout,
 *	flush, and drop the reference.
 * @j: the document (NULL: nothing is written, -ENOMEM).
 *
 * Return: 0, -ENOMEM for a NULL @j, -EIO when the write failed.
 */
int tool_json_print(json_t *j);

/**
 * tool_json_print_flags() - tool_json_print() with more jansson dump
 *	flags (JSON_REAL_PRECISION(15): reals in at most 15 digits).
 * @j: the document.
 * @more: flags added to the command's.
 *
 * Return: as tool_json_print().
 */
int tool_json_print_flags(json_t *j, size_t more);

/**
 * json_text() - a JSON string for text that may not be UTF-8.  Names in
 *	a KBIN plan or a NEFF are bytes; jansson refuses invalid UTF-8
 *	(json_string() returns NULL and a json_pack() with it drops the
 *	whole object), so every byte from 0x80 up of such a string becomes
 *	the four characters "\xNN".
 * @s: NUL-terminated.
 *
 * Return: a new reference, or NULL when out of memory.
 */
json_t *json_text(const char *s);

/**
 * tool_errno_name() - the symbolic name of an errno.
 * @err: an errno, positive or negative.
 *
 * Return: e.g. "ERANGE"; "E?" for a number glibc does not name.
 */
const char *tool_errno_name(int err);

/**
 * struct tool_err - what is known about an error (tool_error()).
 * @err: the errno, positive or negative; 0 when none applies.
 * @cmd: the subcommand, or NULL.
 * @file: the file it is about, or NULL.
 * @has_reason: @reason, @field, @subgraph and @record are set (a plan
 *	the kernel or the checker refused).
 * @reason: enum kbin_check_reason.
 * @reason_text: its text, or NULL.
 * @field: the checker field's name, or NULL.
 * @subgraph: failing subgraph, -1 none.
 * @record: failing record, -1 none.
 * @log: the kernel's log text, or NULL.
 */
struct tool_err {
	int err;
	const char *cmd;
	const char *file;
	bool has_reason;
	unsigned int reason;
	const char *reason_text;
	const char *field;
	long long subgraph;
	long long record;
	const char *log;
};

/**
 * tool_error() - report an error: "PROG: [CMD: ][FILE: ]MESSAGE" and
 *	@e->log on stderr, or under tool_json_on() one JSON object
 *	{"error": {...}} on one line of stderr.  Stdout is flushed first so
 *	both streams keep their order in one file.
 * @e: what is known (NULL: nothing but the message).
 * @fmt: printf format of the message.
 */
void tool_error(const struct tool_err *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* option parsing of a subcommand's arguments (tool.c) */

/**
 * struct tool_opt - one option a subcommand takes.
 * @name: the long name without "--" ("core"); "o" for a one-letter
 *	option written "-o".
 * @arg: takes a value ("--core N", "--core=N", "-o FILE").
 * @seen: out: set when given.
 * @val: out: the value of the last occurrence, or NULL.
 */
struct tool_opt {
	const char *name;
	bool arg;
	bool seen;
	const char *val;
};

/**
 * tool_parse_opts() - split a subcommand's arguments into options and
 *	positional words.
 * @cmd: the subcommand, for messages.
 * @argc: words after the subcommand's name.
 * @argv: the words; positional ones are moved to the front, in order.
 * @opts: the options it takes, ending with an entry whose @name is NULL.
 * @npos: out: the number of positional words.
 *
 * "--" ends the options; "-" alone and words not starting with '-' are
 * positional.
 *
 * Return: 0; -EINVAL after a message for an unknown option or a missing
 * value.
 */
int tool_parse_opts(const char *cmd, int argc, char **argv,
		    struct tool_opt *opts, int *npos);

#endif /* _NEURONSIM_TOOL_H */
