// SPDX-License-Identifier: GPL-2.0
/*
 * compile.c - neuronsim-cc compile: a NEFF (file or extracted directory)
 * or a BIR JSON module into a KBIN plan (with --neff, a BIR module into a
 * NEFF of its lowered model), and a summary line of the plan
 * (Documentation/compiler.rst).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kbin_check.h"
#include "main.h"

static const char usage_compile[] =
	"usage: neuronsim-cc compile [-j] MODEL.neff|DIR|MODEL.bir.json -o PLAN.kbin [SWITCHES]\n"
	"       neuronsim-cc compile [-j] --neff MODEL.bir.json -o MODEL.neff [SWITCHES]\n"
	"\n"
	"A file ending in .bir.json is a BIR module: the backend passes run on\n"
	"it (Documentation/compiler-passes.rst) and its DRAM and SB memory\n"
	"locations become the var table.  Anything else is read as a NEFF:\n"
	"read MODEL (a NEFF file, or a NEFF already extracted into DIR), check\n"
	"its header MD5 and feature bits, read every subgraph's def.json var\n"
	"table, tensor_map.json and weight files, and write the KBIN plan to\n"
	"PLAN.kbin.  The plan passes the same checker the kernel runs.\n"
	"\n"
	"  -o, --output FILE   the plan (with --neff, the NEFF) to write (required)\n"
	"  --neff              (MODEL.bir.json) write a NEFF of the lowered model\n"
	"                      instead of its plan: the NEFF reader compiles it\n"
	"                      into the same plan byte for byte; its neff.json\n"
	"                      says the programs are in neuronsim's compute\n"
	"                      encoding.  The summary is of the plan it gives.\n"
	"  -j, --json          print a JSON summary instead of a text line\n"
	"\n"
	BIR_SWITCHES_HELP
	"\n"
	"example: neuronsim-cc compile model.neff -o model.kbin\n"
	"         neuronsim-cc compile --neff bir_mlp.bir.json -o bir_mlp.neff\n";

static int compile(const char *in, const char *out, int js, int to_neff,
		   const struct bir_opts *bo)
{
	struct nscc_neff_opts nopts = { .name = strrchr(out, '/') ?
					strrchr(out, '/') + 1 : out };
	void *neff = NULL;
	size_t neff_len = 0;
	struct kbin_check_result res;
	struct kbin_view v;
	struct nscc_err err = { "" };
	struct bir_stats st = { 0 };
	struct bir_opts o = *bo;
	struct nscc_warn warn = { 0 };
	char prefix[PATH_MAX + 32];
	int bir = cc_is_bir_json(in);
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
	if (to_neff)
		ret = nscc_bir_neff_file_opts(in, &o, &nopts, &neff, &neff_len, &err);
	else if (bir)
		ret = nscc_bir_compile_file_opts(in, &o, &buf, &len, &err);
	else
		ret = nscc_compile_neff_warn(in, &warn, &buf, &len, &err);
	st.warnings += warn.count;
	if (ret) {
		cc_fail_errno(in, ret, err.msg);
		return 1;
	}
	/* a NEFF's summary is of the plan it gives, as a loader compiles it */
	if (to_neff) {
		ret = nscc_compile_neff_mem(neff, neff_len, NULL, &buf, &len, &err);
		if (ret) {
			cc_fail_errno(in, ret, err.msg);
			free(neff);
			return 1;
		}
	}
	ret = to_neff ? nscc_write_file(out, neff, neff_len) :
	      nscc_write_file(out, buf, len);
	free(neff);
	if (ret) {
		cc_fail_errno(out, ret, strerror(-ret));
		free(buf);
		return 1;
	}
	if (kbin_read(buf, len, &v, &res)) {
		cc_fail(out, res.err.msg);
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
		sum = json_pack("{s:o,s:o,s:s,s:I,s:I,s:I,s:o,s:{s:I,s:I,s:I,s:I,s:I}}",
				"input", json_text(in),
				"output", json_text(out),
				"format", to_neff ? "neff" : "kbin",
				"bytes", (json_int_t)(to_neff ? neff_len : len),
				"plan_bytes", (json_int_t)len,
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
		ret = cc_json_print(sum);
	} else {
		if (to_neff)
			printf("%s: %zu bytes (NEFF; its plan %zu bytes)", out,
			       neff_len, len);
		else
			printf("%s: %zu bytes", out, len);
		printf(", target gen %u, %u subgraphs, %u records, %u DMA queues, %u blocks, %llu descriptors, %llu M2S / %llu S2M UDMA pieces",
		       v.hdr->target_gen, v.num_subgraphs, nrec, nq, nb,
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

extern const struct cc_cmd cc_cmd_compile;

static int run(int argc, char **argv)
{
	struct cc_file_args a;
	int ret = cc_parse_file_args(&cc_cmd_compile, true, argc, argv, &a);

	if (ret >= 0)
		return ret;
	return compile(a.file, a.out, tool_json, a.neff, &a.bir);
}

const struct cc_cmd cc_cmd_compile = {
	.name = "compile",
	.usage = usage_compile,
	.run = run,
};
