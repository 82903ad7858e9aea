// SPDX-License-Identifier: GPL-2.0
/*
 * compute_bench - make bench: the modules of the compute figures and the
 * host reference's time on their plans (Documentation/performance.rst,
 * "Compute"; Documentation/compute.rst).
 *
 *   compute_bench gen DIR
 *	writes DIR/NAME.bir.json, trn2 BIR modules whose operands are DRAM
 *	tensors (the lowering stages them through SBUF by DMA blocks):
 *	  matmul      one MatMult, a [128, 128] by [128, 512] (8,388,608
 *	              multiply-accumulates) into y [128, 512]
 *	  copy        x [128, 2048] through SBUF into y: the DMA alone, the
 *	              baseline of the element-wise figures
 *	  act_exp     Activation exp of x into y
 *	  tt_add      TensorTensor add of x and x2 into y
 *	  ts_mul      TensorScalar multiply of x by 0.5 into y
 *	  reduce_add  TensorReduce add of each partition of x into r [128, 1]
 *	x, x2 and y are [128, 2048] float32: 262,144 elements.
 *
 *   compute_bench ref PLAN REPS
 *	runs the program of PLAN REPS times on the host reference
 *	(prog_ref_run(): the replay's order, the DMA reference,
 *	kbin_compute_run()) with zero inputs, and prints "key value" lines:
 *	ref_ns (the best run's wall time), compute (compute instructions),
 *	blocks, bytes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kbin_reader.h"
#include "nsim_file.h"
#include "prog_ref.h"

#define CB_P	128
#define CB_F	2048

static const char cb_head[] =
	"{\"arch\": \"trn2\", \"functions\": [{\"name\": \"f\", \"allocations\": [";

/* a float32 DRAM tensor of @p partitions and @f elements each */
static void cb_loc(FILE *fp, const char *name, const char *type, int p, int f,
		   int comma)
{
	fprintf(fp, "%s{\"Skind\": \"memory_location_set\", \"name\": \"%s\", \"dtype\": \"float32\", "
		"\"memorylocations\": [{\"name\": \"%s\", \"type\": \"%s\", \"dims\": [%d, %d]}]}",
		comma ? ", " : "", name, name, type, p, f * 4);
}

static void cb_ap(FILE *fp, const char *name, int p, int f)
{
	fprintf(fp, "{\"Skind\": \"physical_ap\", \"memref\": \"%s\", \"offset\": 0, \"ap\": [[1, %d], [1, %d]]}",
		name, p, f);
}

static int cb_gen_one(const char *dir, const char *name)
{
	char path[512];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s.bir.json", dir, name);
	fp = fopen(path, "w");
	if (!fp) {
		perror(path);
		return 1;
	}
	fputs(cb_head, fp);
	if (!strcmp(name, "matmul")) {
		cb_loc(fp, "a", "Input", 128, 128, 0);
		cb_loc(fp, "b", "Input", 128, 512, 1);
		cb_loc(fp, "y", "Output", 128, 512, 1);
		fputs("], \"blocks\": [{\"name\": \"b0\", \"instructions\": ["
		      "{\"opcode\": \"MatMult\", \"name\": \"mm\", \"engine\": \"PE\", \"ins\": [", fp);
		cb_ap(fp, "a", 128, 128);
		fputs(", ", fp);
		cb_ap(fp, "b", 128, 512);
		fputs("], \"outs\": [", fp);
		cb_ap(fp, "y", 128, 512);
		fputs("]}", fp);
	} else if (!strcmp(name, "copy")) {
		cb_loc(fp, "x", "Input", CB_P, CB_F, 0);
		fprintf(fp, ", {\"Skind\": \"memory_location_set\", \"name\": \"s\", \"dtype\": \"float32\", "
			"\"memorylocations\": [{\"name\": \"s\", \"type\": \"SB\", \"dims\": [%d, %d], "
			"\"addr\": 0, \"allocated\": true}]}", CB_P, CB_F * 4);
		cb_loc(fp, "y", "Output", CB_P, CB_F, 1);
		fputs("], \"blocks\": [{\"name\": \"b0\", \"instructions\": ["
		      "{\"opcode\": \"TensorCopy\", \"name\": \"ld\", \"engine\": \"SP\", \"ins\": [", fp);
		cb_ap(fp, "x", CB_P, CB_F);
		fputs("], \"outs\": [", fp);
		cb_ap(fp, "s", CB_P, CB_F);
		fputs("]}, {\"opcode\": \"TensorCopy\", \"name\": \"st\", \"engine\": \"SP\", \"ins\": [", fp);
		cb_ap(fp, "s", CB_P, CB_F);
		fputs("], \"outs\": [", fp);
		cb_ap(fp, "y", CB_P, CB_F);
		fputs("]}", fp);
	} else {
		int red = !strcmp(name, "reduce_add");

		cb_loc(fp, "x", "Input", CB_P, CB_F, 0);
		if (!strcmp(name, "tt_add"))
			cb_loc(fp, "x2", "Input", CB_P, CB_F, 1);
		cb_loc(fp, red ? "r" : "y", "Output", CB_P, red ? 1 : CB_F, 1);
		fputs("], \"blocks\": [{\"name\": \"b0\", \"instructions\": [", fp);
		if (!strcmp(name, "act_exp"))
			fputs("{\"opcode\": \"Activation\", \"name\": \"op\", \"engine\": \"ACT\", \"func\": \"exp\", \"ins\": [", fp);
		else if (!strcmp(name, "tt_add"))
			fputs("{\"opcode\": \"TensorTensor\", \"name\": \"op\", \"engine\": \"DVE\", \"op\": \"add\", \"ins\": [", fp);
		else if (!strcmp(name, "ts_mul"))
			fputs("{\"opcode\": \"TensorScalar\", \"name\": \"op\", \"engine\": \"DVE\", \"op\": \"multiply\", \"ins\": [", fp);
		else
			fputs("{\"opcode\": \"TensorReduce\", \"name\": \"op\", \"engine\": \"DVE\", \"op\": \"add\", \"ins\": [", fp);
		cb_ap(fp, "x", CB_P, CB_F);
		if (!strcmp(name, "tt_add")) {
			fputs(", ", fp);
			cb_ap(fp, "x2", CB_P, CB_F);
		} else if (!strcmp(name, "ts_mul")) {
			fputs(", {\"Skind\": \"imm_value\", \"value\": 0.5}", fp);
		}
		fputs("], \"outs\": [", fp);
		cb_ap(fp, red ? "r" : "y", CB_P, red ? 1 : CB_F);
		fputs("]}", fp);
	}
	fputs("]}]}]}\n", fp);
	if (fclose(fp)) {
		perror(path);
		return 1;
	}
	return 0;
}

static int cb_ref(const char *path, int reps)
{
	struct kbin_check_result res;
	struct prog_ref_stats st = { 0 };
	struct kbin_view v;
	long long best = -1;
	void *buf = NULL;
	size_t len = 0;
	int ret;

	ret = nsim_read_file(path, &buf, &len);
	if (ret || kbin_read(buf, len, &v, &res)) {
		fprintf(stderr, "compute_bench: %s: %s\n", path,
			ret ? strerror(-ret) : res.err.msg);
		free(buf);
		return 1;
	}
	for (int r = 0; r < reps; r++) {
		struct dma_ref_mem *m = dma_ref_mem_new();
		struct timespec a, b;
		long long ns;

		clock_gettime(CLOCK_MONOTONIC, &a);
		ret = m ? prog_ref_run(&v, m, prog_ref_flat_addr,
				       (void *)kbin_gen_target(v.hdr->target_gen),
				       &st) : -ENOMEM;
		clock_gettime(CLOCK_MONOTONIC, &b);
		dma_ref_mem_free(m);
		if (ret || !st.finished) {
			fprintf(stderr, "compute_bench: %s: the host reference failed (%d)\n",
				path, ret);
			free(buf);
			return 1;
		}
		ns = (b.tv_sec - a.tv_sec) * 1000000000LL + (b.tv_nsec - a.tv_nsec);
		if (best < 0 || ns < best)
			best = ns;
	}
	printf("ref_ns %lld\ncompute %llu\nblocks %llu\nbytes %llu\n", best,
	       (unsigned long long)st.compute, (unsigned long long)st.blocks,
	       (unsigned long long)st.bytes);
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	static const char *const names[] = {
		"matmul", "copy", "act_exp", "tt_add", "ts_mul", "reduce_add",
	};

	if (argc == 3 && !strcmp(argv[1], "gen")) {
		for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++)
			if (cb_gen_one(argv[2], names[k]))
				return 1;
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "ref"))
		return cb_ref(argv[2], atoi(argv[3]) > 0 ? atoi(argv[3]) : 1);
	fprintf(stderr, "usage: compute_bench gen DIR | ref PLAN REPS\n");
	return 2;
}
