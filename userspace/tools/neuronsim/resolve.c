// SPDX-License-Identifier: GPL-2.0
/*
 * resolve.c - variables: "resolve" (VAR[+OFFSET[:SIZE]] -> device
 * address) and "read" (a hexdump of a staged variable's bytes).
 * do_resolve() and do_read() also answer the commands on the stdin of
 * "load --hold" (load.c).
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "main.h"

/* resolve each reference; the number that failed */
int do_resolve(const struct vartab *t, int n, char **refs)
{
	json_t *arr = tool_json ? json_array() : NULL;
	int i, failed = 0;

	for (i = 0; i < n; i++) {
		struct neuronsim_var_ref r;
		const struct neuronsim_map_var *v = NULL;
		char perr[256];
		__u64 addr = 0;
		int err;

		err = neuronsim_var_ref_parse(refs[i], &r, perr, sizeof(perr));
		if (err) {
			errmsg_errno(err, "bad VAR %s", perr);
			failed++;
			continue;
		}
		v = vartab_find(t, &r, refs[i]);
		if (!v)
			err = -ENOENT;
		else if (t->from_plan)
			err = neuronsim_resolve(t->fd, t->model_id, v->subgraph,
						v->var_id, r.offset, r.size, &addr);
		else
			err = table_resolve(t, v, r.offset, r.size, &addr);
		if (err)
			failed++;
		if (err && v && !tool_json)
			resolve_errmsg(t, refs[i], v, &r, err, NULL);
		if (tool_json) {
			json_t *o = json_pack("{s:o,s:I,s:I}", "var", json_text(refs[i]),
					      "offset", (json_int_t)r.offset,
					      "size", (json_int_t)r.size);

			if (err && v)
				resolve_errmsg(t, refs[i], v, &r, err, o);
			if (v) {
				json_object_set_new(o, "name", json_text(v->name));
				json_object_set_new(o, "subgraph", json_integer(v->subgraph));
				json_object_set_new(o, "var_id", json_integer(v->var_id));
				json_object_set_new(o, "mr_type",
						    json_string(neuronsim_mr_type_str(v->mr_type)));
			}
			if (err) {
				json_object_set_new(o, "error", json_string(tool_errno_name(err)));
				json_object_set_new(o, "errno", json_integer(-err));
			} else {
				json_object_set_new(o, "address", json_integer(addr));
			}
			json_array_append_new(arr, o);
		} else if (!err) {
			printf("%s\tsg%u #%u %s\t0x%" PRIx64 "\n", refs[i], v->subgraph,
			       v->var_id, neuronsim_mr_type_str(v->mr_type),
			       (uint64_t)addr);
		}
	}
	if (tool_json)
		tool_json_print(json_pack("{s:I,s:s,s:o}", "model_id",
				     (json_int_t)t->model_id, "source",
				     t->from_plan ? "plan" : "netlink", "results", arr));
	fflush(stdout);
	return failed;
}

/*
 * hexdump -C's layout: offset, 16 bytes in hex, the printable ones; a run
 * of lines equal to the one before (a zeroed SBUF gap, say) is one "*"
 * line, and the last line is always printed.
 */
static void hexdump(const unsigned char *p, size_t n, __u64 base)
{
	size_t i, j;
	int starred = 0;

	for (i = 0; i < n; i += 16) {
		if (i && i + 16 < n && !memcmp(p + i, p + i - 16, 16)) {
			if (!starred)
				printf("*\n");
			starred = 1;
			continue;
		}
		starred = 0;
		printf("%08" PRIx64 "  ", (uint64_t)(base + i));
		for (j = 0; j < 16; j++) {
			if (i + j < n)
				printf("%02x ", p[i + j]);
			else
				printf("   ");
			if (j == 7)
				putchar(' ');
		}
		printf(" |");
		for (j = 0; j < 16 && i + j < n; j++)
			putchar(isprint(p[i + j]) ? p[i + j] : '.');
		printf("|\n");
	}
}

/* READ_VAR of one reference on the loading fd: hexdump or JSON */
int do_read(const struct vartab *t, const char *text)
{
	const struct neuronsim_map_var *v;
	struct neuronsim_var_ref r;
	unsigned char *buf;
	char perr[256], what[384];
	__u64 len;
	int err;

	err = neuronsim_var_ref_parse(text, &r, perr, sizeof(perr));
	if (err) {
		errmsg_errno(err, "bad VAR %s", perr);
		return 2;
	}
	v = vartab_find(t, &r, text);
	if (!v)
		return 1;
	if (r.has_size)
		len = r.size;
	else
		len = v->size > r.offset ? v->size - r.offset : 0;
	if (!r.has_size && len > READ_DEFAULT_MAX)
		len = READ_DEFAULT_MAX;
	/* an MR_SB read without a size stops at the end of its partition */
	if (!r.has_size && v->mr_type == KBIN_MR_SB && t->sb_stride &&
	    r.offset % t->sb_stride < t->sb_part_size &&
	    len > t->sb_part_size - r.offset % t->sb_stride)
		len = t->sb_part_size - r.offset % t->sb_stride;
	if (len > (64ULL << 20)) {
		errmsg_errno(E2BIG, "'%s': %llu bytes is more than the 64 MiB this command reads",
			     text, (unsigned long long)len);
		return 1;
	}
	buf = malloc(len ? len : 1);
	if (!buf) {
		errmsg_errno(ENOMEM, "%s", strerror(ENOMEM));
		return 1;
	}
	err = neuronsim_read_var(t->fd, t->model_id, v->subgraph, v->var_id,
				 r.offset, buf, len);
	if (err) {
		const char *gap = err == -ERANGE ?
			sbuf_gap_note(t, v, r.offset, len, perr, sizeof(perr)) : NULL;

		snprintf(what, sizeof(what), "READ_VAR offset %llu len %llu%s%s",
			 (unsigned long long)r.offset, (unsigned long long)len,
			 gap ? ": " : "", gap ? gap : "");
		var_errmsg(text, v, what, err);
		free(buf);
		return 1;
	}
	if (tool_json) {
		char *hex = malloc(len * 2 + 1);
		__u64 k;

		if (!hex) {
			errmsg_errno(ENOMEM, "%s", strerror(ENOMEM));
			free(buf);
			return 1;
		}
		for (k = 0; k < len; k++)
			sprintf(hex + 2 * k, "%02x", buf[k]);
		hex[2 * len] = '\0';
		tool_json_print(json_pack("{s:o,s:I,s:I,s:s,s:I,s:I,s:s}", "name", json_text(v->name),
				     "subgraph", (json_int_t)v->subgraph,
				     "var_id", (json_int_t)v->var_id,
				     "mr_type", neuronsim_mr_type_str(v->mr_type),
				     "offset", (json_int_t)r.offset,
				     "len", (json_int_t)len, "hex", hex));
		free(hex);
	} else {
		printf("sg%u/%s #%u %s, bytes %llu..%llu of %llu\n", v->subgraph,
		       v->name, v->var_id, neuronsim_mr_type_str(v->mr_type),
		       (unsigned long long)r.offset,
		       (unsigned long long)(r.offset + len),
		       (unsigned long long)v->size);
		hexdump(buf, len, r.offset);
		fflush(stdout);
	}
	free(buf);
	return 0;
}

/* the positional words of a subcommand that takes no option */
static int positional(int argc, char **argv)
{
	int n;

	if (tool_parse_opts(cmd_name, argc - 1, argv + 1, NULL, &n))
		return -1;
	return n + 1;
}

static int cmd_resolve(int argc, char **argv)
{
	struct vartab t;
	int i, failed;

	argc = positional(argc, argv);
	if (argc < 0)
		return 2;
	if (argc < 3)
		return usage_error("need PLAN|MODEL and at least one VAR (try --help)");
	/* every reference is checked before the plan is loaded */
	for (i = 2; i < argc; i++) {
		struct neuronsim_var_ref r;
		char perr[256];
		int err = neuronsim_var_ref_parse(argv[i], &r, perr, sizeof(perr));

		if (err) {
			errmsg_errno(err, "bad VAR %s", perr);
			return 2;
		}
	}
	if (vartab_open(&t, argv[1], NEURONSIM_CORE_ANY)) {
		vartab_free(&t);
		return 1;
	}
	failed = do_resolve(&t, argc - 2, argv + 2);
	vartab_free(&t);
	return failed ? 1 : 0;
}

static int cmd_read(int argc, char **argv)
{
	struct neuronsim_var_ref r;
	struct vartab t;
	char perr[256];
	__u32 id;
	int rc;

	argc = positional(argc, argv);
	if (argc < 0)
		return 2;
	if (argc != 3)
		return usage_error("need PLAN|MODEL and one VAR (try --help)");
	rc = neuronsim_var_ref_parse(argv[2], &r, perr, sizeof(perr));
	if (rc) {
		errmsg_errno(rc, "bad VAR %s", perr);
		return 2;
	}
	if (is_model_id(argv[1], &id)) {
		errmsg_errno(ENOENT, "model %u: READ_VAR works only on the fd that loaded the model (%s); use 'neuronsim read PLAN %s', or 'read %s' on the stdin of 'neuronsim load PLAN --hold'",
			     id, strerror(ENOENT), argv[2], argv[2]);
		return 1;
	}
	if (vartab_open(&t, argv[1], NEURONSIM_CORE_ANY)) {
		vartab_free(&t);
		return 1;
	}
	rc = do_read(&t, argv[2]);
	vartab_free(&t);
	return rc;
}

const struct nsim_cmd nsim_cmd_resolve = {
	.name = "resolve",
	.summary = "VAR[+OFFSET[:SIZE]] -> device address",
	.usage = "resolve PLAN|MODEL VAR[+OFFSET[:SIZE]]...",
	.help = "  VAR is a name, sgN/name or #var_id (sgN/#var_id); OFFSET and SIZE\n"
		"  are bytes (decimal, 0x hex, K/M/G suffix), SIZE defaults to 0.\n"
		"  PLAN: load it on a private fd, resolve by ioctl, unload.\n"
		"  MODEL (an id, any process's): apply the kernel's rule\n"
		"  (mem_ref_to_addr) to the netlink GET_VARS physical_address table,\n"
		"  visible to the loading process or CAP_SYS_ADMIN only.\n",
	.run = cmd_resolve,
};

const struct nsim_cmd nsim_cmd_read = {
	.name = "read",
	.summary = "hexdump a variable's bytes",
	.usage = "read PLAN|MODEL VAR[+OFFSET[:SIZE]]",
	.help = "  hexdump of a staged variable's bytes (READ_VAR); without SIZE up to\n"
		"  4096 bytes from OFFSET.  Bytes move only through the fd that loaded\n"
		"  the model, so MODEL works only within the loading process:\n"
		"  from the shell use PLAN (loaded for the command, unloaded after),\n"
		"  or 'read VAR' on the stdin of 'neuronsim load PLAN --hold'.\n",
	.run = cmd_read,
};
