// SPDX-License-Identifier: GPL-2.0
/*
 * neuronsim-cc - compile a NEFF into a KBIN static memory plan, show what
 * a NEFF holds, and list the records of a plan.
 *
 *   neuronsim-cc compile [-j] MODEL.neff|DIR -o PLAN.kbin
 *   neuronsim-cc compile [-j] MODEL.bir.json -o PLAN.kbin [BIR SWITCHES]
 *   neuronsim-cc passes  MODEL.bir.json [--dump-after=NAME] [BIR SWITCHES]
 *   neuronsim-cc info    [-j] [--dma] [--program] MODEL.neff|DIR
 *   neuronsim-cc dump    [-j] [--dma] [--program] PLAN.kbin
 *   neuronsim-cc replay  [-j] [--trace FILE] MODEL
 *
 * -j (--json) and -p (--pretty) may also come before COMMAND.  Errors go
 * to stderr as "neuronsim-cc: FILE: MESSAGE", under -j as one JSON object
 * (userspace/tools/tool.h), and the exit status is 1.
 * Documentation/compiler.rst describes every message.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kbin_check.h"
#include "kbin_dma.h"
#include "kbin_kind.h"
#include "kbin_reader.h"
#include "neuronsim_cc.h"
#include "nsim_file.h"
#include "bir/bir.h"
#include "neuronsim-cc/prog.h"
#include "tool.h"

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
	"  passes MODEL.bir.json [--dump-after=NAME] [SWITCHES]\n"
	"                                        run the passes, print the module\n"
	"  info MODEL.neff|DIR                   header, target, subgraphs, vars,\n"
	"                                        DMA queues and blocks\n"
	"  dump PLAN.kbin                        one line per mem_ref record, DMA\n"
	"                                        queue and block\n"
	"  replay MODEL [--trace FILE]           run the engine programs on the host\n"
	"                                        in virtual time (semaphores, DMA\n"
	"                                        blocks), optionally as a trace\n"
	"  help [COMMAND]                        this text, or a command's\n"
	"\n"
	"  -j, --json   print JSON instead of text (every command), before or\n"
	"               after COMMAND; errors are then JSON objects on stderr\n"
	"  -p, --pretty the same, indented\n"
	"\n"
	"Run 'neuronsim-cc COMMAND --help' for details.  Errors are printed as\n"
	"'neuronsim-cc: FILE: MESSAGE' and the exit status is 1.\n";

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

static const char *const usage_compile =
	"usage: neuronsim-cc compile [-j] MODEL.neff|DIR|MODEL.bir.json -o PLAN.kbin [SWITCHES]\n"
	"\n"
	"A file ending in .bir.json is a BIR module: the backend passes run on\n"
	"it (Documentation/compiler-passes.rst) and its DRAM and SB memory\n"
	"locations become the var table.  Anything else is read as a NEFF:\n"
	"read MODEL (a NEFF file, or a NEFF already extracted into DIR), check\n"
	"its header MD5 and feature bits, read every subgraph's def.json var\n"
	"table, tensor_map.json and weight files, and write the KBIN plan to\n"
	"PLAN.kbin.  The plan passes the same checker the kernel runs.\n"
	"\n"
	"  -o, --output FILE   the plan to write (required)\n"
	"  -j, --json          print a JSON summary instead of a text line\n"
	"\n"
	BIR_SWITCHES_HELP
	"\n"
	"example: neuronsim-cc compile model.neff -o model.kbin\n";

static const char *const usage_info =
	"usage: neuronsim-cc info [-j] [--dma] [--program] MODEL.neff|DIR\n"
	"\n"
	"Print the NEFF header (name, MD5 encoding, feature bits, lnc size),\n"
	"the target, the subgraphs with their SBUF carve-outs, each\n"
	"subgraph's var table in var_id order (kind, size, alignment, dtype,\n"
	"shape, weight file), and its DMA queues and blocks (queue, id,\n"
	"semaphore, descriptors, UDMA pieces M2S/S2M, #comment).\n"
	"\n"
	"  -j, --json   print JSON\n"
	"  --dma        also one line per DMA descriptor, e.g.\n"
	"    desc qPoolIO0 #0 [0] copy from SB(0)+24576 [512,128]/[1,262144] float32 -> out(2)+3072 [512,128]/[1,4096] float32 pieces 128/128\n"
	"  --program    also per engine its instruction stream: instructions,\n"
	"               waits, updates, the opcode histogram, triggers per queue\n";

static const char *const usage_dump =
	"usage: neuronsim-cc dump [-j] [--dma] [--program] PLAN.kbin\n"
	"\n"
	"Check PLAN.kbin and print its header, subgraphs, one line per\n"
	"mem_ref record, e.g.\n"
	"  sg00 memref {x} id {1} MR_INPUT size 65536 align 64 dtype {float16} shape [128,256]\n"
	"and one line per DMA queue and block of its DMA section.\n"
	"\n"
	"  -j, --json   print JSON\n"
	"  --dma        also one line per DMA descriptor (as neuronsim-cc info)\n"
	"  --program    also the program section: per engine the summary of\n"
	"               info --program, and one line per instruction (index,\n"
	"               opcode, class, wait, update, trigger, add), e.g.\n"
	"    sg00 act [3] 0xc1 trigger wait 4>=16 trigger qActIO0 #0\n";

static const char *const usage_passes =
	"usage: neuronsim-cc passes MODEL.bir.json [--dump-after=NAME[@ORDER]] [SWITCHES]\n"
	"\n"
	"Run the backend passes (orders 39, 40, 41, 42, 48, 50, 60, 61, 62) on a\n"
	"BIR JSON module, log each pass's time and what the passes say on stderr,\n"
	"and print the module as canonical BIR JSON after the pass NAME (e.g.\n"
	"inline_nki_kernel@41), or after the last pass.\n"
	"\n"
	BIR_SWITCHES_HELP;

/* an error about @file; @err the negative errno when known, else 0 */
static void fail_errno(const char *file, int err, const char *msg)
{
	struct tool_err e = { .file = file, .err = err < 0 ? -err : 0 };

	tool_error(&e, "%s", msg);
}

static void fail(const char *file, const char *msg)
{
	fail_errno(file, 0, msg);
}

/* a usage error of @cmd: the message, and in text mode @usage after it */
static int usage_fail(const char *cmd, const char *usage, const char *fmt,
		      const char *arg)
{
	struct tool_err e = { .err = EINVAL, .cmd = cmd };

	tool_error(&e, fmt, arg);
	if (!tool_json && usage)
		fprintf(stderr, "\n%s", usage);
	return 1;
}

static void hex(char *out, const uint8_t *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", b[i]);
}

static json_t *shape_json(const uint64_t *dims, uint32_t n)
{
	json_t *a = json_array();
	uint32_t i;

	for (i = 0; i < n; i++)
		json_array_append_new(a, json_integer((json_int_t)dims[i]));
	return a;
}

static void shape_text(char *out, size_t cap, const uint64_t *dims,
		       uint32_t n)
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

static int json_print(json_t *j)
{
	return tool_json_print(j) ? 1 : 0;
}

static int nscc_is_bir_json(const char *path)
{
	size_t n = strlen(path);

	return n > 9 && !strcmp(path + n - 9, ".bir.json");
}

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

/*
 * Set BIR switch @k (bir_switches[]) with value @val in @o.
 * Return: 0, or 1 with the refusal printed for @cmd.
 */
static int bir_switch_set(const char *cmd, size_t k, const char *val,
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

/* "--NAME[=VALUE]": the index of NAME in bir_switches[], or -1 */
static int bir_switch_find(const char *arg, const char **val)
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

static int cmd_passes(int argc, char **argv)
{
	struct nscc_err err = { "" };
	struct bir_opts o = { .log = stderr };
	const char *in = NULL, *val;
	char prefix[PATH_MAX + 32];
	int a, k, ret;

	for (a = 2; a < argc; a++) {
		if (!strcmp(argv[a], "-h") || !strcmp(argv[a], "--help")) {
			fputs(usage_passes, stdout);
			return 0;
		} else if (!strcmp(argv[a], "-j") || !strcmp(argv[a], "--json")) {
			tool_json_on(0);	/* the module is JSON already */
		} else if (!strncmp(argv[a], "--dump-after=", 13)) {
			o.dump_after = argv[a] + 13;
		} else if ((k = bir_switch_find(argv[a], &val)) >= 0) {
			if (bir_switch_set("passes", (size_t)k, val, &o))
				return 1;
		} else if (argv[a][0] != '-' && !in) {
			in = argv[a];
		} else {
			return usage_fail("passes", usage_passes,
					  "unexpected '%s'", argv[a]);
		}
	}
	if (!in) {
		return usage_fail("passes", usage_passes, "missing %s",
				  "MODEL.bir.json");
	}
	snprintf(prefix, sizeof(prefix), "neuronsim-cc: %s: ", in);
	o.warn = stderr;
	o.warn_prefix = prefix;
	ret = nscc_bir_passes_file_opts(in, &o, stdout, &err);
	if (ret) {
		fail_errno(in, ret, err.msg);
		return 1;
	}
	return 0;
}

static int cmd_compile(const char *in, const char *out, int js,
		       const struct bir_opts *bo)
{
	struct kbin_check_result res;
	struct kbin_view v;
	struct nscc_err err = { "" };
	struct bir_stats st = { 0 };
	struct bir_opts o = *bo;
	struct nscc_warn warn = { 0 };
	char prefix[PATH_MAX + 32];
	int bir = nscc_is_bir_json(in);
	void *buf;
	size_t len;
	uint32_t s, nrec = 0, nq = 0, nb = 0;
	json_t *sgs, *sum;
	int ret;

	snprintf(prefix, sizeof(prefix), "neuronsim-cc: %s: ", in);
	o.warn = stderr;
	o.warn_prefix = prefix;
	o.stats = &st;
	warn.fp = stderr;
	warn.prefix = prefix;
	if (bir)
		ret = nscc_bir_compile_file_opts(in, &o, &buf, &len, &err);
	else
		ret = nscc_compile_neff_warn(in, &warn, &buf, &len, &err);
	st.warnings += warn.count;
	if (ret) {
		fail_errno(in, ret, err.msg);
		return 1;
	}
	ret = nscc_write_file(out, buf, len);
	if (ret) {
		fail_errno(out, ret, strerror(-ret));
		free(buf);
		return 1;
	}
	if (kbin_read(buf, len, &v, &res)) {
		fail(out, res.msg);
		free(buf);
		return 1;
	}
	sgs = json_array();
	for (s = 0; s < v.num_subgraphs; s++) {
		const struct kbin_mem_ref_set *set = kbin_view_set(&v, s);

		nrec += set->nmem;
		json_array_append_new(sgs, json_pack("{s:o,s:I,s:I,s:I}",
			"name", json_text(kbin_view_subgraph(&v, s)->name),
			"nmem", (json_int_t)set->nmem,
			"local_scratchpad_size", (json_int_t)set->local_scratchpad_size,
			"shared_scratchpad_size", (json_int_t)set->shared_scratchpad_size));
	}
	if (v.dma) {
		nq = v.dma->num_queues;
		nb = v.dma->num_blocks;
	}
	if (js) {
		sum = json_pack("{s:o,s:o,s:I,s:I,s:o,s:{s:I,s:I,s:I,s:I,s:I}}",
				"input", json_text(in),
				"output", json_text(out), "bytes", (json_int_t)len,
				"target_gen", (json_int_t)v.hdr->target_gen,
				"subgraphs", sgs, "dma",
				"queues", (json_int_t)nq, "blocks", (json_int_t)nb,
				"descriptors", (json_int_t)res.dma_descs,
				"m2s_pieces", (json_int_t)res.dma_m2s_pieces,
				"s2m_pieces", (json_int_t)res.dma_s2m_pieces);
		json_object_set_new(sum, "instructions",
				    v.prog ? json_integer((json_int_t)res.prog_instrs) :
				    json_null());
		/* the warnings, printed on stderr (a NEFF's: when it has any) */
		if (bir || st.warnings)
			json_object_set_new(sum, "warnings",
					    json_integer(st.warnings));
		ret = json_print(sum);
	} else {
		printf("%s: %zu bytes, target gen %u, %u subgraphs, %u records, %u DMA queues, %u blocks, %llu descriptors, %llu M2S / %llu S2M UDMA pieces",
		       out, len, v.hdr->target_gen, v.num_subgraphs, nrec, nq, nb,
		       res.dma_descs, res.dma_m2s_pieces, res.dma_s2m_pieces);
		if (v.prog)
			printf(", %llu instructions", res.prog_instrs);
		if (bir || st.warnings)
			printf(", %u warning%s", st.warnings,
			       st.warnings == 1 ? "" : "s");
		printf("\n");
		json_decref(sgs);
	}
	free(buf);
	return ret;
}

/* the def.json type of a kind (kind table), "?" for one def.json lacks */
static const char *def_type_name(uint32_t t)
{
	const char *name = kbin_kind(t)->def_type;

	return name ? name : "?";
}

static const struct nscc_var *sort_vars_base;
static int cmp_var(const void *a, const void *b)
{
	uint32_t x = sort_vars_base[*(const uint32_t *)a].var_id;
	uint32_t y = sort_vars_base[*(const uint32_t *)b].var_id;

	return x < y ? -1 : x > y;
}

static json_t *var_json(const struct nscc_var *v)
{
	json_t *o = json_pack("{s:I,s:s,s:s,s:s}", "var_id", (json_int_t)v->var_id,
			      "name", v->name, "type", def_type_name(v->mr_type),
			      "mr_type", kbin_mr_type_str(v->mr_type));

	if (v->has_size)
		json_object_set_new(o, "size", json_integer((json_int_t)v->size));
	if (v->alignment)
		json_object_set_new(o, "alignment", json_integer((json_int_t)v->alignment));
	if (v->dtype)
		json_object_set_new(o, "dtype", json_string(v->dtype));
	if (v->shape)
		json_object_set_new(o, "shape", shape_json(v->shape, v->ndims));
	if (kbin_kind(v->mr_type)->variant == KBIN_VARIANT_VIRT)
		json_object_set_new(o, "offset", json_integer((json_int_t)v->offset));
	if (v->file_name) {
		json_object_set_new(o, "file_name", json_string(v->file_name));
		json_object_set_new(o, "payload_bytes", json_integer((json_int_t)v->payload_len));
	}
	if (kbin_kind(v->mr_type)->variant == KBIN_VARIANT_POINTER)
		json_object_set_new(o, "referenced_var_id",
				    json_integer(v->referenced_var_id));
	if (v->list_len) {
		json_t *l = json_array();
		uint32_t i;

		for (i = 0; i < v->list_len; i++)
			json_array_append_new(l, json_integer(v->list[i]));
		json_object_set_new(o, "list", l);
	}
	return o;
}

static void var_text(const struct nscc_var *v)
{
	char shape[160] = "";
	uint32_t i;

	if (v->shape)
		shape_text(shape, sizeof(shape), v->shape, v->ndims);
	printf("    %6u  %-12s %-40s", v->var_id, def_type_name(v->mr_type), v->name);
	if (v->has_size)
		printf(" size %llu", (unsigned long long)v->size);
	if (v->alignment)
		printf(" align %llu", (unsigned long long)v->alignment);
	if (v->dtype)
		printf(" dtype %s", v->dtype);
	if (v->shape)
		printf(" shape %s", shape);
	if (kbin_kind(v->mr_type)->variant == KBIN_VARIANT_VIRT)
		printf(" offset %llu", (unsigned long long)v->offset);
	if (v->file_name)
		printf(" file %s (%llu bytes)", v->file_name,
		       (unsigned long long)v->payload_len);
	if (kbin_kind(v->mr_type)->variant == KBIN_VARIANT_POINTER)
		printf(" -> var_id %u", v->referenced_var_id);
	if (v->list_len) {
		printf(" list [");
		for (i = 0; i < v->list_len; i++)
			printf("%s%u", i ? "," : "", v->list[i]);
		printf("]");
	}
	printf("\n");
}

/* ---- DMA programs, from a model (info) or a plan (dump) ---- */

/* one queue, one block: what both sources have */
struct dv_queue {
	const char *name;
	const char *fabric;
	const uint32_t *sems;
	uint32_t nsems, type, owner, num_queues, nblocks;
	int dynamic;
	uint32_t sb_off, sb_size;
};

struct dv_block {
	uint32_t queue, id, semaphore;
	const char *comment;
	const struct kbin_dma_desc *descs;
	uint32_t ndescs;
};

/* a subgraph's DMA program and how to name its vars */
struct dv_prog {
	const char *sg;
	const struct dv_queue *q;
	uint32_t nq;
	const struct dv_block *b;
	uint32_t nb;
	const char *(*var_name)(const void *ctx, uint32_t var_id);
	const void *ctx;
};

/* M2S and S2M pieces of a descriptor (kbin_dma_pattern()) */
static void desc_pieces(const struct kbin_dma_desc *d, uint64_t *m2s,
			uint64_t *s2m)
{
	struct kbin_dma_pat p;

	*m2s = kbin_dma_pattern(&d->from, &p) ? 0 : p.pieces;
	*s2m = kbin_dma_pattern(&d->to, &p) ? 0 : p.pieces;
}

static void dims_text(char *out, size_t cap, const struct kbin_dma_side *sd)
{
	uint64_t sz[KBIN_DMA_MAX_DIMS], st[KBIN_DMA_MAX_DIMS];
	uint32_t i, n = sd->num_dims < KBIN_DMA_MAX_DIMS ? sd->num_dims : KBIN_DMA_MAX_DIMS;
	size_t o;

	for (i = 0; i < n; i++) {
		sz[i] = sd->sizes[i];
		st[i] = sd->steps[i];
	}
	shape_text(out, cap, sz, n);
	o = strlen(out);
	if (o + 1 < cap)
		out[o++] = '/';
	shape_text(out + o, cap - o, st, n);
}

static json_t *side_json(const struct dv_prog *pg, const struct kbin_dma_side *sd)
{
	uint64_t sz[KBIN_DMA_MAX_DIMS], st[KBIN_DMA_MAX_DIMS];
	uint32_t i, n = sd->num_dims < KBIN_DMA_MAX_DIMS ? sd->num_dims : KBIN_DMA_MAX_DIMS;

	for (i = 0; i < n; i++) {
		sz[i] = sd->sizes[i];
		st[i] = sd->steps[i];
	}
	return json_pack("{s:o,s:I,s:s,s:I,s:o,s:o}",
			 "var", json_text(pg->var_name(pg->ctx, sd->var_id)),
			 "var_id", (json_int_t)sd->var_id,
			 "dtype", kbin_dma_dtype_str(sd->dtype),
			 "offset", (json_int_t)sd->offset,
			 "sizes", shape_json(sz, n), "steps", shape_json(st, n));
}

static void desc_text(const struct dv_prog *pg, const struct dv_block *b,
		      uint32_t j)
{
	const struct kbin_dma_desc *d = &b->descs[j];
	char f[200], t[200];
	uint64_t m2s, s2m;

	dims_text(f, sizeof(f), &d->from);
	dims_text(t, sizeof(t), &d->to);
	desc_pieces(d, &m2s, &s2m);
	printf("    desc %s #%u [%u] %s from %s(%u)+%llu %s %s -> %s(%u)+%llu %s %s pieces %llu/%llu",
	       pg->q[b->queue].name, b->id, j, kbin_dma_op_str(d->op),
	       pg->var_name(pg->ctx, d->from.var_id), d->from.var_id,
	       (unsigned long long)d->from.offset, f,
	       kbin_dma_dtype_str(d->from.dtype),
	       pg->var_name(pg->ctx, d->to.var_id), d->to.var_id,
	       (unsigned long long)d->to.offset, t,
	       kbin_dma_dtype_str(d->to.dtype), (unsigned long long)m2s,
	       (unsigned long long)s2m);
	if (d->op == KBIN_DMA_OP_TRANSPOSE)
		printf(" transpose %.4s shape [%u,%u,%u,%u] element %u",
		       d->transpose_op, d->transpose_shape[0],
		       d->transpose_shape[1], d->transpose_shape[2],
		       d->transpose_shape[3], d->transpose_elem_size);
	printf("\n");
}

static json_t *desc_json(const struct dv_prog *pg, const struct kbin_dma_desc *d)
{
	uint64_t m2s, s2m;
	json_t *o;

	desc_pieces(d, &m2s, &s2m);
	o = json_pack("{s:s,s:o,s:o,s:I,s:I,s:I}", "op", kbin_dma_op_str(d->op),
		      "from", side_json(pg, &d->from), "to", side_json(pg, &d->to),
		      "num_tiling_dimensions", (json_int_t)d->num_tiling_dims,
		      "m2s_pieces", (json_int_t)m2s, "s2m_pieces", (json_int_t)s2m);
	if (d->op == KBIN_DMA_OP_TRANSPOSE) {
		char top[KBIN_DMA_TRANSPOSE_DIMS + 1] = "";
		uint64_t sh[KBIN_DMA_TRANSPOSE_DIMS];
		uint32_t i;

		memcpy(top, d->transpose_op, KBIN_DMA_TRANSPOSE_DIMS);
		for (i = 0; i < KBIN_DMA_TRANSPOSE_DIMS; i++)
			sh[i] = d->transpose_shape[i];
		json_object_set_new(o, "transpose_op", json_text(top));
		json_object_set_new(o, "transpose_shape", shape_json(sh, 4));
		json_object_set_new(o, "transpose_element_size",
				    json_integer(d->transpose_elem_size));
	}
	return o;
}

/*
 * Print (or add to @sgj as "dma") a subgraph's DMA program: its totals,
 * one line per queue and per block, with @descs one per descriptor.
 */
static void dma_prog_out(const struct dv_prog *pg, int js, int descs,
			 json_t *sgj)
{
	uint64_t m2s = 0, s2m = 0, bm, bs, dm, ds, nd = 0;
	json_t *qa = json_array(), *ba = json_array();
	uint32_t k, j, i;

	/* totals of a crafted NEFF may pass 64 bits: they stop at the top */
	for (j = 0; j < pg->nb; j++) {
		for (i = 0; i < pg->b[j].ndescs; i++) {
			desc_pieces(&pg->b[j].descs[i], &dm, &ds);
			if (__builtin_add_overflow(m2s, dm, &m2s))
				m2s = UINT64_MAX;
			if (__builtin_add_overflow(s2m, ds, &s2m))
				s2m = UINT64_MAX;
		}
		nd += pg->b[j].ndescs;
	}
	if (!js)
		printf("  %s: %u DMA queues, %u blocks, %llu descriptors, %llu M2S / %llu S2M UDMA pieces\n",
		       pg->sg, pg->nq, pg->nb, (unsigned long long)nd,
		       (unsigned long long)m2s, (unsigned long long)s2m);
	for (k = 0; k < pg->nq; k++) {
		const struct dv_queue *q = &pg->q[k];

		if (!js) {
			printf("    queue %s type %s owner %s num_queues %u semaphores",
			       q->name, kbin_dma_queue_type_str(q->type),
			       kbin_dma_engine_str(q->owner), q->num_queues);
			/* runs of consecutive semaphores as FIRST..LAST */
			for (i = 0; i < q->nsems; i = j) {
				for (j = i + 1; j < q->nsems &&
				     q->sems[j] == q->sems[j - 1] + 1; j++)
					;
				printf("%s%u", i ? "," : " ", q->sems[i]);
				if (j - i > 1)
					printf("..%u", q->sems[j - 1]);
			}
			if (q->fabric)
				printf(" fabric %s", q->fabric);
			if (q->dynamic)
				printf(" SB scratch %u+%u", q->sb_off, q->sb_size);
			printf(" blocks %u\n", q->nblocks);
			continue;
		}
		{
			json_t *sems = json_array(), *o;

			for (i = 0; i < q->nsems; i++)
				json_array_append_new(sems, json_integer(q->sems[i]));
			o = json_pack("{s:o,s:s,s:s,s:I,s:o,s:I}", "name", json_text(q->name),
				      "type", kbin_dma_queue_type_str(q->type),
				      "owner", kbin_dma_engine_str(q->owner),
				      "num_queues", (json_int_t)q->num_queues,
				      "semaphore_set", sems, "blocks", (json_int_t)q->nblocks);
			if (q->fabric)
				json_object_set_new(o, "fabric_path", json_text(q->fabric));
			if (q->dynamic)
				json_object_set_new(o, "dynamic_dma", json_pack("{s:I,s:I}",
					"SB_scratch_partition_offset", (json_int_t)q->sb_off,
					"SB_scratch_partition_size", (json_int_t)q->sb_size));
			json_array_append_new(qa, o);
		}
	}
	for (j = 0; j < pg->nb; j++) {
		const struct dv_block *b = &pg->b[j];

		bm = bs = 0;
		for (i = 0; i < b->ndescs; i++) {
			desc_pieces(&b->descs[i], &dm, &ds);
			if (__builtin_add_overflow(bm, dm, &bm))
				bm = UINT64_MAX;
			if (__builtin_add_overflow(bs, ds, &bs))
				bs = UINT64_MAX;
		}
		if (!js) {
			printf("    block %s #%u semaphore %u descs %u pieces %llu/%llu%s%s%s\n",
			       pg->q[b->queue].name, b->id, b->semaphore, b->ndescs,
			       (unsigned long long)bm, (unsigned long long)bs,
			       b->comment ? " {" : "", b->comment ? b->comment : "",
			       b->comment ? "}" : "");
			for (i = 0; descs && i < b->ndescs; i++)
				desc_text(pg, b, i);
			continue;
		}
		{
			json_t *o = json_pack("{s:o,s:I,s:I,s:I,s:I,s:I}",
					      "queue", json_text(pg->q[b->queue].name),
					      "id", (json_int_t)b->id,
					      "semaphore", (json_int_t)b->semaphore,
					      "descriptors", (json_int_t)b->ndescs,
					      "m2s_pieces", (json_int_t)bm,
					      "s2m_pieces", (json_int_t)bs);

			if (b->comment)
				json_object_set_new(o, "#comment", json_text(b->comment));
			if (descs) {
				json_t *da = json_array();

				for (i = 0; i < b->ndescs; i++)
					json_array_append_new(da, desc_json(pg, &b->descs[i]));
				json_object_set_new(o, "desc", da);
			}
			json_array_append_new(ba, o);
		}
	}
	if (js)
		json_object_set_new(sgj, "dma", json_pack("{s:I,s:I,s:I,s:I,s:I,s:o,s:o}",
			"queues", (json_int_t)pg->nq, "blocks", (json_int_t)pg->nb,
			"descriptors", (json_int_t)nd, "m2s_pieces", (json_int_t)m2s,
			"s2m_pieces", (json_int_t)s2m, "queue_table", qa,
			"block_table", ba));
	else {
		json_decref(qa);
		json_decref(ba);
	}
}

static const char *model_var_name(const void *ctx, uint32_t var_id)
{
	const struct nscc_subgraph *sg = ctx;
	uint32_t i;

	for (i = 0; i < sg->num_vars; i++)
		if (sg->vars[i].var_id == var_id)
			return sg->vars[i].name;
	return "?";
}

/* a model subgraph's DMA program, in member order */
static int model_dma_out(const struct nscc_subgraph *sg, int js, int descs,
			 json_t *sgj)
{
	struct dv_queue *q = calloc(sg->num_dma_queues + 1, sizeof(*q));
	struct dv_block *b = calloc(sg->num_dma_blocks + 1, sizeof(*b));
	struct dv_prog pg = {
		.sg = sg->name, .q = q, .nq = sg->num_dma_queues, .b = b,
		.nb = sg->num_dma_blocks, .var_name = model_var_name, .ctx = sg,
	};
	uint32_t k;

	if (!q || !b) {
		free(q);
		free(b);
		return -1;
	}
	for (k = 0; k < sg->num_dma_queues; k++) {
		const struct nscc_dma_queue *mq = &sg->dma_queues[k];

		q[k] = (struct dv_queue){
			.name = mq->name, .fabric = mq->fabric_path,
			.sems = mq->semaphores, .nsems = mq->num_semaphores,
			.type = mq->type, .owner = mq->owner,
			.num_queues = mq->num_queues, .dynamic = mq->has_dynamic,
			.sb_off = mq->sb_scratch_offset, .sb_size = mq->sb_scratch_size,
		};
	}
	for (k = 0; k < sg->num_dma_blocks; k++) {
		const struct nscc_dma_block *mb = &sg->dma_blocks[k];

		b[k] = (struct dv_block){
			.queue = mb->queue, .id = mb->id, .semaphore = mb->semaphore,
			.comment = mb->comment, .descs = sg->dma_descs + mb->first_desc,
			.ndescs = mb->num_descs,
		};
		if (mb->queue < sg->num_dma_queues)
			q[mb->queue].nblocks++;
	}
	dma_prog_out(&pg, js, descs, sgj);
	free(q);
	free(b);
	return 0;
}

/* the names of a plan subgraph's records */
struct plan_names {
	const struct kbin_view *v;
	const struct kbin_mem_ref_set *set;
};

static const char *plan_var_name(const void *ctx, uint32_t var_id)
{
	const struct plan_names *pn = ctx;

	return var_id < pn->set->nmem ?
	       kbin_view_str(pn->v, pn->set->mem[var_id].name) : "?";
}

/* a plan subgraph's DMA section, in plan (queue) order */
static int plan_dma_out(const struct kbin_view *v, uint32_t s, int js,
			int descs, json_t *sgj)
{
	struct plan_names pn = { .v = v, .set = kbin_view_set(v, s) };
	struct kbin_dma_sg_view dv;
	struct dv_queue *q;
	struct dv_block *b;
	struct dv_prog pg;
	uint32_t k;

	if (kbin_view_dma_sg(v, s, &dv) || (!v->dma && !js))
		return 0;
	q = calloc(dv.num_queues + 1, sizeof(*q));
	b = calloc(dv.num_blocks + 1, sizeof(*b));
	if (!q || !b) {
		free(q);
		free(b);
		return -1;
	}
	for (k = 0; k < dv.num_queues; k++) {
		const struct kbin_dma_queue *pq = &dv.queues[k];

		q[k] = (struct dv_queue){
			.name = kbin_view_str(v, pq->name),
			.fabric = kbin_view_str(v, pq->fabric_path),
			.sems = kbin_view_semaphores(v, pq), .nsems = pq->num_semaphores,
			.type = pq->type, .owner = pq->owner,
			.num_queues = pq->num_queues, .nblocks = pq->num_blocks,
			.dynamic = !!(pq->flags & KBIN_DMA_QF_DYNAMIC),
			.sb_off = pq->sb_scratch_offset, .sb_size = pq->sb_scratch_size,
		};
	}
	for (k = 0; k < dv.num_blocks; k++) {
		const struct kbin_dma_block *pb = &dv.blocks[k];

		b[k] = (struct dv_block){
			.queue = pb->queue, .id = pb->id, .semaphore = pb->semaphore,
			.comment = kbin_view_str(v, pb->comment),
			.descs = dv.descs + (pb->first_desc - dv.first_desc),
			.ndescs = pb->num_descs,
		};
	}
	pg = (struct dv_prog){
		.sg = kbin_view_subgraph(v, s)->name, .q = q, .nq = dv.num_queues,
		.b = b, .nb = dv.num_blocks, .var_name = plan_var_name, .ctx = &pn,
	};
	dma_prog_out(&pg, js, descs, sgj);
	free(q);
	free(b);
	return 0;
}

static int cmd_info(const char *in, int js, int descs, int prog)
{
	struct nscc_err err = { "" };
	struct nscc_model *m = NULL;
	struct nscc_neff *neff;
	const struct nscc_neff_header *h;
	json_t *root, *sgs, *sgj;
	char hx[40];
	uint32_t s, i, k;
	int ret;

	ret = nscc_neff_open(in, &neff, &err);
	if (ret) {
		fail_errno(in, ret, err.msg);
		return 1;
	}
	ret = nscc_neff_to_model(neff, &m, &err);
	if (ret) {
		fail_errno(in, ret, err.msg);
		nscc_neff_free(neff);
		return 1;
	}
	h = &neff->hdr;
	root = json_object();
	if (neff->has_header) {
		hex(hx, h->hash, 16);
		json_object_set_new(root, "header", json_pack("{s:I,s:I,s:o,s:s,s:I,s:I,s:I,s:I,s:I}",
			"format_version", (json_int_t)h->format_version,
			"data_size", (json_int_t)h->data_size,
			"name", json_text(h->name), "md5", hx,
			"md5_word_reversed", (json_int_t)h->md5_word_reversed,
			"num_tpb", (json_int_t)h->num_tpb,
			"tpb_per_node", (json_int_t)h->tpb_per_node,
			"feature_bits", (json_int_t)h->feature_bits,
			"lnc_size", (json_int_t)h->lnc_size));
	}
	json_object_set_new(root, "kelf", json_string(neff->kelf_member));
	json_object_set_new(root, "target", json_string(neff->target));
	json_object_set_new(root, "target_gen", json_integer(neff->target_gen));
	if (!js) {
		printf("%s:\n", in);
		if (neff->has_header) {
			hex(hx, h->hash, 16);
			printf("  name %s, format %llu, data %llu bytes, md5 %s (%s)\n",
			       h->name, (unsigned long long)h->format_version,
			       (unsigned long long)h->data_size, hx,
			       h->md5_word_reversed ? "word-reversed" : "plain");
			printf("  feature_bits 0x%llx, lnc_size %u, num_tpb %u, tpb_per_node %u\n",
			       (unsigned long long)h->feature_bits, h->lnc_size,
			       h->num_tpb, h->tpb_per_node);
		} else {
			printf("  extracted directory (no header)\n");
		}
		printf("  kelf %s, target %s (gen %u), %u subgraphs\n",
		       neff->kelf_member, neff->target, neff->target_gen,
		       m->num_sgs);
	}
	sgs = json_array();
	for (s = 0; s < m->num_sgs; s++) {
		const struct nscc_subgraph *sg = &m->sgs[s];
		uint32_t *ord = malloc((sg->num_vars + 1) * sizeof(*ord));
		json_t *vars = json_array(), *cos = json_array();

		if (!ord) {
			fail(in, "out of memory");
			return 1;
		}
		for (i = 0; i < sg->num_vars; i++)
			ord[i] = i;
		sort_vars_base = sg->vars;
		qsort(ord, sg->num_vars, sizeof(*ord), cmp_var);
		if (!js)
			printf("  %s: %s, %u vars, %u carve-outs\n", sg->name,
			       neff->sgs[s].definition, sg->num_vars,
			       sg->num_carveouts);
		for (k = 0; k < sg->num_carveouts; k++) {
			const struct kbin_sb_carveout *c = &sg->carveouts[k];

			json_array_append_new(cos, json_pack("{s:s,s:I,s:I,s:I,s:I}",
				"type", kbin_carveout_type_str(c->type),
				"offset", (json_int_t)c->offset,
				"size", (json_int_t)c->size,
				"base_partition", (json_int_t)c->start_partition,
				"partitions", (json_int_t)c->num_partitions));
			if (!js)
				printf("    carve-out %s offset %u size %u partitions %u..%u\n",
				       kbin_carveout_type_str(c->type),
				       c->offset, c->size, c->start_partition,
				       c->start_partition + c->num_partitions - 1);
		}
		for (i = 0; i < sg->num_vars; i++) {
			if (js)
				json_array_append_new(vars, var_json(&sg->vars[ord[i]]));
			else
				var_text(&sg->vars[ord[i]]);
		}
		sgj = json_pack("{s:s,s:s,s:o,s:o}",
			"name", sg->name, "definition", neff->sgs[s].definition,
			"carveouts", cos, "vars", vars);
		if (model_dma_out(sg, js, descs, sgj) ||
		    (prog && cc_prog_model_out(sg, js, sgj))) {
			fail(in, "out of memory");
			return 1;
		}
		json_array_append_new(sgs, sgj);
		free(ord);
	}
	json_object_set_new(root, "subgraphs", sgs);
	nscc_model_free(m);
	if (js)
		return json_print(root);
	json_decref(root);
	return 0;
}

static json_t *rec_json(const struct kbin_view *v, const char *sgname,
			const struct kbin_mem_ref *r)
{
	uint64_t dims[KBIN_SHAPE_MAX];
	uint32_t nd = 0, i;
	json_t *o;

	while (nd < KBIN_SHAPE_MAX && r->shape[nd]) {
		dims[nd] = r->shape[nd];
		nd++;
	}
	o = json_pack("{s:o,s:o,s:I,s:s,s:I,s:I,s:o,s:o}", "subgraph", json_text(sgname),
		      "name", json_text(kbin_view_str(v, r->name)), "var_id", (json_int_t)r->var_id,
		      "mr_type", kbin_mr_type_str(r->mr_type),
		      "size", (json_int_t)r->size, "alignment", (json_int_t)r->alignment,
		      "dtype", json_text(r->dtype), "shape", shape_json(dims, nd));
	if (r->buffer)
		json_object_set_new(o, "payload_bytes", json_integer((json_int_t)r->size));
	if (r->dtensor_md) {
		const struct kbin_debug_tensor_md *md = kbin_view_md(v, r);

		json_object_set_new(o, "debug_prefix", json_text(md->prefix_str));
		json_object_set_new(o, "pipe_id", json_integer(md->pipe_id));
	}
	switch (kbin_kind(r->mr_type)->variant) {
	case KBIN_VARIANT_POINTER:
		json_object_set_new(o, "referenced_var_id", json_integer(r->pointer.referenced_var_id));
		json_object_set_new(o, "io_ref", json_integer(r->pointer.io_ref));
		break;
	case KBIN_VARIANT_VIRT:
		json_object_set_new(o, "offset", json_integer((json_int_t)r->virt.offset));
		json_object_set_new(o, "backing_buf", json_integer(r->virt.backing_buf));
		break;
	case KBIN_VARIANT_LIST: {
		const uint32_t *l = kbin_view_list(v, r);
		json_t *a = json_array();

		for (i = 0; i < r->list.length; i++)
			json_array_append_new(a, json_integer(l[i]));
		json_object_set_new(o, "list", a);
		break;
	}
	case KBIN_VARIANT_REMOTE:
		json_object_set_new(o, "remote_vtpb_rel_sg_id", json_integer(r->remote.remote_vtpb_rel_sg_id));
		json_object_set_new(o, "remote_var_id", json_integer(r->remote.remote_var_id));
		break;
	}
	return o;
}

static void rec_text(const struct kbin_view *v, const char *sgname,
		     const struct kbin_mem_ref *r)
{
	uint64_t dims[KBIN_SHAPE_MAX];
	char shape[200];
	uint32_t nd = 0, i;

	while (nd < KBIN_SHAPE_MAX && r->shape[nd]) {
		dims[nd] = r->shape[nd];
		nd++;
	}
	shape_text(shape, sizeof(shape), dims, nd);
	printf("%s memref {%s} id {%u} %s size %llu align %llu dtype {%s} shape %s",
	       sgname, kbin_view_str(v, r->name), r->var_id,
	       kbin_mr_type_str(r->mr_type), (unsigned long long)r->size,
	       (unsigned long long)r->alignment, r->dtype, shape);
	if (r->buffer)
		printf(" payload %llu bytes (%s)", (unsigned long long)r->size,
		       kbin_stage_mode_str(KBIN_MODE_ALLOC_COPY));
	if (r->dtensor_md)
		printf(" debug {%s} pipe %u", kbin_view_md(v, r)->prefix_str,
		       kbin_view_md(v, r)->pipe_id);
	switch (kbin_kind(r->mr_type)->variant) {
	case KBIN_VARIANT_POINTER:
		printf(" -> id {%u}%s", r->pointer.referenced_var_id,
		       r->pointer.io_ref ? " io_ref" : "");
		break;
	case KBIN_VARIANT_VIRT:
		printf(" offset %llu in %s scratchpad",
		       (unsigned long long)r->virt.offset,
		       kbin_backing_buf_str(r->virt.backing_buf));
		break;
	case KBIN_VARIANT_LIST: {
		const uint32_t *l = kbin_view_list(v, r);

		printf(" list [");
		for (i = 0; i < r->list.length; i++)
			printf("%s%u", i ? "," : "", l[i]);
		printf("]");
		break;
	}
	case KBIN_VARIANT_REMOTE:
		printf(" remote sg %u id {%u}", r->remote.remote_vtpb_rel_sg_id,
		       r->remote.remote_var_id);
		break;
	}
	printf("\n");
}

static int cmd_dump(const char *in, int js, int descs, int prog)
{
	struct kbin_check_result res;
	struct kbin_view v;
	json_t *sgs = json_array(), *sgj;
	void *buf;
	size_t len;
	uint32_t s, i, k;
	int ret;

	ret = nsim_read_file(in, &buf, &len);
	if (ret) {
		fail_errno(in, ret, ret == -EINVAL ? "not a regular file" : strerror(-ret));
		json_decref(sgs);
		return 1;
	}
	if (kbin_read(buf, len, &v, &res)) {
		fail(in, res.msg);
		free(buf);
		json_decref(sgs);
		return 1;
	}
	if (!js)
		printf("%s: KBIN v%u, %zu bytes, target gen %u, %u subgraphs\n",
		       in, v.hdr->version, len, v.hdr->target_gen,
		       v.num_subgraphs);
	for (s = 0; s < v.num_subgraphs; s++) {
		const struct kbin_subgraph *sg = kbin_view_subgraph(&v, s);
		const struct kbin_mem_ref_set *set = kbin_view_set(&v, s);
		json_t *recs = json_array(), *cos = json_array();

		if (!js)
			printf("%s: %u records, local scratchpad %llu bytes, shared scratchpad %llu bytes, %u carve-outs\n",
			       sg->name, set->nmem,
			       (unsigned long long)set->local_scratchpad_size,
			       (unsigned long long)set->shared_scratchpad_size,
			       sg->num_carveouts);
		for (k = 0; k < sg->num_carveouts; k++) {
			const struct kbin_sb_carveout *c = &sg->carveouts[k];

			if (!js)
				printf("%s carve-out type %u offset %u size %u partitions %u+%u\n",
				       sg->name, c->type, c->offset, c->size,
				       c->start_partition, c->num_partitions);
			json_array_append_new(cos, json_pack("{s:I,s:I,s:I,s:I,s:I}",
				"type", (json_int_t)c->type, "offset", (json_int_t)c->offset,
				"size", (json_int_t)c->size,
				"start_partition", (json_int_t)c->start_partition,
				"num_partitions", (json_int_t)c->num_partitions));
		}
		for (i = 0; i < set->nmem; i++) {
			if (js)
				json_array_append_new(recs, rec_json(&v, sg->name, &set->mem[i]));
			else
				rec_text(&v, sg->name, &set->mem[i]);
		}
		sgj = json_pack("{s:o,s:I,s:I,s:o,s:o}",
			"name", json_text(sg->name),
			"local_scratchpad_size", (json_int_t)set->local_scratchpad_size,
			"shared_scratchpad_size", (json_int_t)set->shared_scratchpad_size,
			"carveouts", cos, "records", recs);
		if (plan_dma_out(&v, s, js, descs, sgj) ||
		    (prog && cc_prog_plan_out(&v, s, js, sgj))) {
			fail(in, "out of memory");
			json_decref(sgj);
			json_decref(sgs);
			free(buf);
			return 1;
		}
		json_array_append_new(sgs, sgj);
	}
	if (js)
		ret = json_print(json_pack("{s:o,s:I,s:I,s:I,s:o}", "file", json_text(in),
					   "version", (json_int_t)v.hdr->version,
					   "bytes", (json_int_t)len,
					   "target_gen", (json_int_t)v.hdr->target_gen,
					   "subgraphs", sgs));
	else
		json_decref(sgs);
	free(buf);
	return ret;
}

int main(int argc, char **argv)
{
	struct option opts[6 + NUM_BIR_SWITCHES + 1] = {
		{ "json", no_argument, NULL, 'j' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ "dma", no_argument, NULL, 'D' },
		{ "pretty", no_argument, NULL, 'p' },
		{ "program", no_argument, NULL, 'P' },
	};
	struct bir_opts bo = { 0 };
	const char *cmd, *usage, *out = NULL, *bir_switch = NULL;
	int c, js = 0, descs = 0, prog = 0;
	size_t k;

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
	cmd = argv[1];
	if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help")) {
		fputs(usage_main, stdout);
		return 0;
	}
	if (!strcmp(cmd, "help")) {
		const char *sub = argc > 2 ? argv[2] : "";

		fputs(!strcmp(sub, "compile") ? usage_compile :
		      !strcmp(sub, "info") ? usage_info :
		      !strcmp(sub, "dump") ? usage_dump :
		      !strcmp(sub, "replay") ? cc_usage_replay :
		      !strcmp(sub, "passes") ? usage_passes : usage_main, stdout);
		return 0;
	}
	if (!strcmp(cmd, "passes"))
		return cmd_passes(argc, argv);
	if (!strcmp(cmd, "replay"))
		return cc_replay(argc - 1, argv + 1);
	if (!strcmp(cmd, "compile"))
		usage = usage_compile;
	else if (!strcmp(cmd, "info"))
		usage = usage_info;
	else if (!strcmp(cmd, "dump"))
		usage = usage_dump;
	else
		return usage_fail(NULL, usage_main, "unknown command '%s'", cmd);
	for (k = 0; k < NUM_BIR_SWITCHES; k++)
		opts[6 + k] = (struct option){ bir_switches[k].name,
					       bir_switches[k].has_arg, NULL,
					       BIR_SWITCH_VAL + (int)k };
	optind = 2;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "jpo:h", opts, NULL)) != -1) {
		if (c >= BIR_SWITCH_VAL &&
		    c < BIR_SWITCH_VAL + (int)NUM_BIR_SWITCHES) {
			k = (size_t)(c - BIR_SWITCH_VAL);
			bir_switch = bir_switches[k].name;
			if (bir_switch_set(cmd, k, optarg, &bo))
				return 1;
			continue;
		}
		switch (c) {
		case 'j':
		case 'p':
			tool_json_on(0);
			break;
		case 'o':
			out = optarg;
			break;
		case 'D':
			if (usage == usage_compile) {
				fputs(usage, stderr);
				return 1;
			}
			descs = 1;
			break;
		case 'P':
			if (usage == usage_compile) {
				fputs(usage, stderr);
				return 1;
			}
			prog = 1;
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		default:
			return usage_fail(cmd, usage, "unknown option or missing value: '%s'",
					  argv[optind - 1]);
		}
	}
	js = tool_json;
	if (optind != argc - 1 || (usage == usage_compile) != (out != NULL))
		return usage_fail(cmd, usage, "%s",
				  usage == usage_compile && !out ?
				  "missing -o PLAN.kbin" :
				  "expected exactly one FILE argument");
	if (bir_switch && (usage != usage_compile ||
			   !nscc_is_bir_json(argv[optind]))) {
		struct tool_err e = { .err = EINVAL, .cmd = cmd };

		tool_error(&e, "--%s applies to compiling a MODEL.bir.json only",
			   bir_switch);
		return 1;
	}
	if (usage == usage_compile)
		return cmd_compile(argv[optind], out, js, &bo);
	if (usage == usage_info)
		return cmd_info(argv[optind], js, descs, prog);
	return cmd_dump(argv[optind], js, descs, prog);
}
