// SPDX-License-Identifier: GPL-2.0
/*
 * neuronsim-cc - compile a NEFF into a KBIN static memory plan, show what
 * a NEFF holds, and list the records of a plan.
 *
 *   neuronsim-cc compile [-j] MODEL.neff|DIR -o PLAN.kbin
 *   neuronsim-cc compile [-j] MODEL.bir.json -o PLAN.kbin [BIR SWITCHES]
 *   neuronsim-cc passes  MODEL.bir.json [--dump-after=NAME] [BIR SWITCHES]
 *   neuronsim-cc info    [-j] MODEL.neff|DIR
 *   neuronsim-cc dump    [-j] PLAN.kbin
 *
 * Errors go to stderr as "neuronsim-cc: FILE: MESSAGE" and the exit
 * status is 1.  Documentation/compiler.rst describes every message.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kbin_check.h"
#include "kbin_kind.h"
#include "kbin_reader.h"
#include "neuronsim_cc.h"
#include "bir/bir.h"
#include "json_text.h"

static const char *const usage_main =
	"usage: neuronsim-cc COMMAND [-j] ARGS\n"
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
	"  info MODEL.neff|DIR                   header, target, subgraphs, vars\n"
	"  dump PLAN.kbin                        one line per mem_ref record\n"
	"  help [COMMAND]                        this text, or a command's\n"
	"\n"
	"  -j, --json   print JSON instead of text (every command)\n"
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
	"usage: neuronsim-cc info [-j] MODEL.neff|DIR\n"
	"\n"
	"Print the NEFF header (name, MD5 encoding, feature bits, lnc size),\n"
	"the target, the subgraphs with their SBUF carve-outs, and each\n"
	"subgraph's var table in var_id order (kind, size, alignment, dtype,\n"
	"shape, weight file).\n"
	"\n"
	"  -j, --json   print JSON\n";

static const char *const usage_dump =
	"usage: neuronsim-cc dump [-j] PLAN.kbin\n"
	"\n"
	"Check PLAN.kbin and print its header, subgraphs and one line per\n"
	"mem_ref record, e.g.\n"
	"  sg00 memref {x} id {1} MR_INPUT size 65536 align 64 dtype {float16} shape [128,256]\n"
	"\n"
	"  -j, --json   print JSON\n";

static const char *const usage_passes =
	"usage: neuronsim-cc passes MODEL.bir.json [--dump-after=NAME[@ORDER]] [SWITCHES]\n"
	"\n"
	"Run the backend passes (orders 39, 40, 41, 42, 48, 50, 60, 61, 62) on a\n"
	"BIR JSON module, log each pass's time and what the passes say on stderr,\n"
	"and print the module as canonical BIR JSON after the pass NAME (e.g.\n"
	"inline_nki_kernel@41), or after the last pass.\n"
	"\n"
	BIR_SWITCHES_HELP;

static void fail(const char *file, const char *msg)
{
	fprintf(stderr, "neuronsim-cc: %s: %s\n", file, msg);
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
	int ret = json_dumpf(j, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);

	fputc('\n', stdout);
	json_decref(j);
	return ret ? 1 : 0;
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
		fprintf(stderr, "neuronsim-cc: %s: --%s %s\n", cmd, name,
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
		fprintf(stderr, "neuronsim-cc: %s: --%s '%s' is not %s\n", cmd,
			name, val, !strcmp(name, "rsv-path") ? "1 or 2" :
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
	int a, k;

	for (a = 2; a < argc; a++) {
		if (!strcmp(argv[a], "-h") || !strcmp(argv[a], "--help")) {
			fputs(usage_passes, stdout);
			return 0;
		} else if (!strncmp(argv[a], "--dump-after=", 13)) {
			o.dump_after = argv[a] + 13;
		} else if ((k = bir_switch_find(argv[a], &val)) >= 0) {
			if (bir_switch_set("passes", (size_t)k, val, &o))
				return 1;
		} else if (argv[a][0] != '-' && !in) {
			in = argv[a];
		} else {
			fprintf(stderr, "neuronsim-cc: passes: unexpected '%s'\n\n%s",
				argv[a], usage_passes);
			return 1;
		}
	}
	if (!in) {
		fprintf(stderr, "neuronsim-cc: passes: missing MODEL.bir.json\n\n%s",
			usage_passes);
		return 1;
	}
	snprintf(prefix, sizeof(prefix), "neuronsim-cc: %s: ", in);
	o.warn = stderr;
	o.warn_prefix = prefix;
	if (nscc_bir_passes_file_opts(in, &o, stdout, &err)) {
		fail(in, err.msg);
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
	char prefix[PATH_MAX + 32];
	int bir = nscc_is_bir_json(in);
	void *buf;
	size_t len;
	uint32_t s, nrec = 0;
	json_t *sgs, *sum;
	int ret;

	snprintf(prefix, sizeof(prefix), "neuronsim-cc: %s: ", in);
	o.warn = stderr;
	o.warn_prefix = prefix;
	o.stats = &st;
	if (bir)
		ret = nscc_bir_compile_file_opts(in, &o, &buf, &len, &err);
	else
		ret = nscc_compile_neff(in, &buf, &len, &err);
	if (ret) {
		fail(in, err.msg);
		return 1;
	}
	ret = nscc_write_file(out, buf, len);
	if (ret) {
		fail(out, strerror(-ret));
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
	if (js) {
		sum = json_pack("{s:o,s:o,s:I,s:I,s:o}", "input", json_text(in),
				"output", json_text(out), "bytes", (json_int_t)len,
				"target_gen", (json_int_t)v.hdr->target_gen,
				"subgraphs", sgs);
		if (bir)	/* the passes' warnings, printed on stderr */
			json_object_set_new(sum, "warnings",
					    json_integer(st.warnings));
		ret = json_print(sum);
	} else {
		printf("%s: %zu bytes, target gen %u, %u subgraphs, %u records",
		       out, len, v.hdr->target_gen, v.num_subgraphs, nrec);
		if (bir)
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

static int cmd_info(const char *in, int js)
{
	struct nscc_err err = { "" };
	struct nscc_model *m = NULL;
	struct nscc_neff *neff;
	const struct nscc_neff_header *h;
	json_t *root, *sgs;
	char hx[40];
	uint32_t s, i, k;

	if (nscc_neff_open(in, &neff, &err)) {
		fail(in, err.msg);
		return 1;
	}
	if (nscc_neff_to_model(neff, &m, &err)) {
		fail(in, err.msg);
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
		json_array_append_new(sgs, json_pack("{s:s,s:s,s:o,s:o}",
			"name", sg->name, "definition", neff->sgs[s].definition,
			"carveouts", cos, "vars", vars));
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

static int cmd_dump(const char *in, int js)
{
	struct kbin_check_result res;
	struct kbin_view v;
	json_t *sgs = json_array();
	void *buf;
	size_t len;
	uint32_t s, i, k;
	int ret;

	ret = kbin_read_file(in, &buf, &len);
	if (ret) {
		fail(in, ret == -EINVAL ? "not a regular file" : strerror(-ret));
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
		json_array_append_new(sgs, json_pack("{s:o,s:I,s:I,s:o,s:o}",
			"name", json_text(sg->name),
			"local_scratchpad_size", (json_int_t)set->local_scratchpad_size,
			"shared_scratchpad_size", (json_int_t)set->shared_scratchpad_size,
			"carveouts", cos, "records", recs));
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
	struct option opts[3 + NUM_BIR_SWITCHES + 1] = {
		{ "json", no_argument, NULL, 'j' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
	};
	struct bir_opts bo = { 0 };
	const char *cmd, *usage, *out = NULL, *bir_switch = NULL;
	int c, js = 0;
	size_t k;

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
		      !strcmp(sub, "passes") ? usage_passes : usage_main, stdout);
		return 0;
	}
	if (!strcmp(cmd, "passes"))
		return cmd_passes(argc, argv);
	if (!strcmp(cmd, "compile"))
		usage = usage_compile;
	else if (!strcmp(cmd, "info"))
		usage = usage_info;
	else if (!strcmp(cmd, "dump"))
		usage = usage_dump;
	else {
		fprintf(stderr, "neuronsim-cc: unknown command '%s'\n\n%s", cmd,
			usage_main);
		return 1;
	}
	for (k = 0; k < NUM_BIR_SWITCHES; k++)
		opts[3 + k] = (struct option){ bir_switches[k].name,
					       bir_switches[k].has_arg, NULL,
					       BIR_SWITCH_VAL + (int)k };
	optind = 2;
	while ((c = getopt_long(argc, argv, "jo:h", opts, NULL)) != -1) {
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
			js = 1;
			break;
		case 'o':
			out = optarg;
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		default:
			fputs(usage, stderr);
			return 1;
		}
	}
	if (optind != argc - 1 || (usage == usage_compile) != (out != NULL)) {
		fprintf(stderr, "neuronsim-cc: %s: %s\n\n%s", cmd,
			usage == usage_compile && !out ? "missing -o PLAN.kbin" :
			"expected exactly one FILE argument", usage);
		return 1;
	}
	if (bir_switch && (usage != usage_compile ||
			   !nscc_is_bir_json(argv[optind]))) {
		fprintf(stderr, "neuronsim-cc: %s: --%s applies to compiling a MODEL.bir.json only\n",
			cmd, bir_switch);
		return 1;
	}
	if (usage == usage_compile)
		return cmd_compile(argv[optind], out, js, &bo);
	if (usage == usage_info)
		return cmd_info(argv[optind], js);
	return cmd_dump(argv[optind], js);
}
