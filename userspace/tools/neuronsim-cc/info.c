// SPDX-License-Identifier: GPL-2.0
/*
 * info.c - neuronsim-cc info: what a NEFF holds - its header, target,
 * subgraphs with their SBUF carve-outs, each subgraph's var table, DMA
 * queues and blocks and, with --program, its engine programs
 * (Documentation/compiler.rst).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kbin_kind.h"
#include "main.h"

static const char usage_info[] =
	"usage: neuronsim-cc info [-j] [--dma] [--program] MODEL.neff|DIR\n"
	"\n"
	"Print the NEFF header (name, MD5 encoding, feature bits, lnc size),\n"
	"the target, whether its programs are in neuronsim's compute encoding\n"
	"(a NEFF of compile --neff), the subgraphs with their SBUF carve-outs, each\n"
	"subgraph's var table in var_id order (kind, size, alignment, dtype,\n"
	"shape, weight file), and its DMA queues and blocks (queue, id,\n"
	"semaphore, descriptors, UDMA pieces M2S/S2M, #comment).\n"
	"\n"
	"  -j, --json   print JSON\n"
	"  --dma        also one line per DMA descriptor, e.g.\n"
	"    desc qPoolIO0 #0 [0] copy from SB(0)+24576 [512,128]/[1,262144] float32 -> out(2)+3072 [512,128]/[1,4096] float32 pieces 128/128\n"
	"  --program    also per engine its instruction stream: instructions,\n"
	"               waits, updates, the opcode histogram, triggers per queue\n";

static void hex(char *out, const uint8_t *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", b[i]);
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
		json_object_set_new(o, "shape", cc_shape_json(v->shape, v->ndims));
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
		cc_shape_text(shape, sizeof(shape), v->shape, v->ndims);
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

static int info(const char *in, int js, int descs, int prog)
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
		cc_fail_errno(in, ret, err.msg);
		return 1;
	}
	ret = nscc_neff_to_model(neff, &m, &err);
	if (ret) {
		cc_fail_errno(in, ret, err.msg);
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
	/* the marker of a NEFF written from a BIR model (never a real one's) */
	if (neff->prog_flags & KBIN_PROG_F_COMPUTE)
		json_object_set_new(root, "program_encoding",
				    json_string(NSCC_NEFF_MARKER_COMPUTE));
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
		if (neff->prog_flags & KBIN_PROG_F_COMPUTE)
			printf("  programs in neuronsim's compute encoding (neff.json %s)\n",
			       NSCC_NEFF_MARKER_KEY);
	}
	sgs = json_array();
	for (s = 0; s < m->num_sgs; s++) {
		const struct nscc_subgraph *sg = &m->sgs[s];
		uint32_t *ord = malloc((sg->num_vars + 1) * sizeof(*ord));
		json_t *vars = json_array(), *cos = json_array();

		if (!ord) {
			cc_fail(in, "out of memory");
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
		if (cc_model_dma_out(sg, js, descs, sgj) ||
		    (prog && cc_prog_model_out(sg, js, sgj))) {
			cc_fail(in, "out of memory");
			return 1;
		}
		json_array_append_new(sgs, sgj);
		free(ord);
	}
	json_object_set_new(root, "subgraphs", sgs);
	nscc_model_free(m);
	if (js)
		return cc_json_print(root);
	json_decref(root);
	return 0;
}

extern const struct cc_cmd cc_cmd_info;

static int run(int argc, char **argv)
{
	struct cc_file_args a;
	int ret = cc_parse_file_args(&cc_cmd_info, false, argc, argv, &a);

	if (ret >= 0)
		return ret;
	return info(a.file, tool_json, a.descs, a.prog);
}

const struct cc_cmd cc_cmd_info = {
	.name = "info",
	.usage = usage_info,
	.run = run,
};
