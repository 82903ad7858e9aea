// SPDX-License-Identifier: GPL-2.0
/*
 * dump.c - neuronsim-cc dump: a KBIN plan, checked, then its header,
 * subgraphs, one line per mem_ref record, its DMA section and, with
 * --program, its program section (Documentation/compiler.rst).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kbin_check.h"
#include "kbin_kind.h"
#include "main.h"

static const char usage_dump[] =
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
		      "dtype", json_text(r->dtype), "shape", cc_shape_json(dims, nd));
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
	cc_shape_text(shape, sizeof(shape), dims, nd);
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

static int dump(const char *in, int js, int descs, int prog)
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
		cc_fail_errno(in, ret, ret == -EINVAL ? "not a regular file" : strerror(-ret));
		json_decref(sgs);
		return 1;
	}
	if (kbin_read(buf, len, &v, &res)) {
		cc_fail(in, res.err.msg);
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
		if (cc_plan_dma_out(&v, s, js, descs, sgj) ||
		    (prog && cc_prog_plan_out(&v, s, js, sgj))) {
			cc_fail(in, "out of memory");
			json_decref(sgj);
			json_decref(sgs);
			free(buf);
			return 1;
		}
		json_array_append_new(sgs, sgj);
	}
	if (js)
		ret = cc_json_print(json_pack("{s:o,s:I,s:I,s:I,s:o}",
					      "file", json_text(in),
					      "version", (json_int_t)v.hdr->version,
					      "bytes", (json_int_t)len,
					      "target_gen", (json_int_t)v.hdr->target_gen,
					      "subgraphs", sgs));
	else
		json_decref(sgs);
	free(buf);
	return ret;
}

extern const struct cc_cmd cc_cmd_dump;

static int run(int argc, char **argv)
{
	struct cc_file_args a;
	int ret = cc_parse_file_args(&cc_cmd_dump, false, argc, argv, &a);

	if (ret >= 0)
		return ret;
	return dump(a.file, tool_json, a.descs, a.prog);
}

const struct cc_cmd cc_cmd_dump = {
	.name = "dump",
	.usage = usage_dump,
	.run = run,
};
