// SPDX-License-Identifier: GPL-2.0
/*
 * bir_bench - make bench: all BIR passes on a generated module
 * (Documentation/performance.rst).
 *
 *   bir_bench INSTS CALLS [OUT.bir.json]
 *
 * Generates one trn2 module in BIR JSON: a function "main" with INSTS
 * instructions in one block, of which CALLS are kernel call sites spread
 * evenly (alternating NKIKernel calls of four NKI kernel functions, half
 * inlined at order 41 and half at order 61, and BIRKernel activation
 * calls), the rest TensorTensor / Activation / TensorCopy on 16 SBUF
 * tiles.  Then, timed: parse (bir_module_from_string), every pass of the
 * backend schedule (bir_run_passes), lowering to the def.json var table.
 * Prints one "key value" line each:
 *   insts, calls, json_bytes, final_insts, parse_s, passes_s, lower_s,
 *   total_s (parse + passes + lower), maxrss_kb (getrusage peak RSS of
 *   the whole process, generator included).
 * Exits 1 when a step fails or the result is not fully inlined.
 * OUT.bir.json keeps the generated module (for neuronsim-cc by hand).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include "bir.h"

#define TILES	16
#define KERNELS	4

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static json_t *ap(const char *memref, int p, int f)
{
	return json_pack("{s:s, s:s, s:i, s:[[i,i],[i,i]], s:s}", "Skind",
			 "physical_ap", "memref", memref, "offset", 0, "ap", 1,
			 p, 1, f, "dtype", "float32");
}

/* a set with one location; @type "Input", "Output", "DRAM" or "SB" */
static json_t *alloc(const char *name, const char *type, int p, int f,
		     bool allocated, int addr)
{
	const char *cls = !strcmp(type, "Input") ? "input" :
			  !strcmp(type, "Output") ? "output" : "internal";

	return json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:i, s:[i,i], s:[{s:s, s:s, s:i, s:[i,i], s:i, s:i, s:b, s:b, s:i}]}",
			 "Skind", "memory_location_set", "name", name,
			 "kind", "tensor", "tensor_class", cls,
			 "addr_space", type, "dtype", "float32",
			 "partition_dim", 0, "tensor_shape", p, f,
			 "memorylocations", "name", name, "type", type,
			 "addr", addr, "dims", p, f * 4, "bank", 0, "base", 0,
			 "allocated", allocated, "pinned", false,
			 "tensor_id", 0);
}

static json_t *inst(const char *op, const char *name, const char *engine,
		    json_t *ins, json_t *outs)
{
	return json_pack("{s:s, s:s, s:s, s:o, s:o}", "opcode", op, "name",
			 name, "engine", engine, "ins", ins, "outs", outs);
}

/* NKI kernel kern<k>: out = a + relu(copy(a)); ws = relu(copy(a)) */
static json_t *kernel_fn(int k)
{
	char name[32];
	json_t *insts = json_array();

	snprintf(name, sizeof(name), "kern%d", k);
	json_array_append_new(insts, inst("TensorCopy", "cp", "POOL",
		json_pack("[o]", ap("a", 128, 64)),
		json_pack("[o]", ap("t", 128, 64))));
	json_array_append_new(insts, json_pack("{s:s, s:s, s:s, s:[o], s:[o], s:s}",
		"opcode", "Activation", "name", "act", "engine", "ACT",
		"ins", ap("t", 128, 64), "outs", ap("ws", 128, 64),
		"func", "relu"));
	json_array_append_new(insts, json_pack("{s:s, s:s, s:s, s:[o,o], s:[o], s:s}",
		"opcode", "TensorTensor", "name", "add", "engine", "DVE",
		"ins", ap("ws", 128, 64), ap("a", 128, 64),
		"outs", ap("out", 128, 64), "op", "add"));
	return json_pack("{s:s, s:{}, s:[o,o,o,o], s:[], s:[{s:s, s:o}]}",
			 "name", name, "attributes", "allocations",
			 alloc("a", "Input", 128, 64, false, 0),
			 alloc("out", "Output", 128, 64, false, 0),
			 alloc("ws", "SB", 128, 64, true, 0),
			 alloc("t", "SB", 128, 64, true, 256),
			 "registers", "blocks", "name", "entry",
			 "instructions", insts);
}

static json_t *generate(long n, long calls)
{
	json_t *allocs = json_array(), *insts = json_array(), *fns;
	long every = calls ? n / calls : n + 1, ncall = 0;
	char name[64], t1[16], t2[16];

	json_array_append_new(allocs, alloc("x", "Input", 128, 64, false, 0));
	json_array_append_new(allocs, alloc("y", "Output", 128, 64, false, 0));
	json_array_append_new(allocs, alloc("d", "DRAM", 128, 64, false, 0));
	for (int k = 0; k < TILES; k++) {
		snprintf(name, sizeof(name), "tile%d", k);
		json_array_append_new(allocs, alloc(name, "SB", 128, 64, false, 0));
	}
	for (long i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "i%ld", i);
		snprintf(t1, sizeof(t1), "tile%ld", i % TILES);
		snprintf(t2, sizeof(t2), "tile%ld", (i + 1) % TILES);
		if (calls && i % every == every - 1 && ncall < calls) {
			if (ncall % 2 == 0) {
				char fn[16];

				snprintf(fn, sizeof(fn), "kern%ld", (ncall / 2) % KERNELS);
				json_array_append_new(insts, json_pack(
					"{s:s, s:s, s:s, s:[o], s:[o,o], s:s, s:[s], s:[s,s], s:[i,i], s:[i,i], s:i, s:b}",
					"opcode", "NKIKernel", "name", name,
					"engine", "POOL", "ins", ap("x", 128, 64),
					"outs", ap("d", 128, 64), ap(t1, 128, 64),
					"func", fn, "func_args", "a",
					"func_outs", "out", "ws",
					"sb_buf_shape", 128, 1024,
					"psum_buf_shape", 0, 0,
					"kernel_source_val", 1,
					"alloc_status", (ncall / 2) % 2 == 1));
			} else {
				json_array_append_new(insts, json_pack(
					"{s:s, s:s, s:s, s:[o], s:[o], s:s, s:[[i,i]], s:[[i,i]], s:{s:s, s:f}}",
					"opcode", "BIRKernel", "name", name,
					"engine", "ACT", "ins", ap("x", 128, 32),
					"outs", ap("y", 128, 32),
					"kernel_name", "activation",
					"srcs_shape", 128, 32, "dsts_shape", 128, 32,
					"kernel_attrs", "func", "gelu", "scale", 0.5));
			}
			ncall++;
			continue;
		}
		switch (i % 3) {
		case 0:
			json_array_append_new(insts, json_pack("{s:s, s:s, s:s, s:[o,o], s:[o], s:s}",
				"opcode", "TensorTensor", "name", name, "engine", "DVE",
				"ins", ap(t1, 128, 64), ap(t2, 128, 64),
				"outs", ap(t1, 128, 64), "op", "add"));
			break;
		case 1:
			json_array_append_new(insts, json_pack("{s:s, s:s, s:s, s:[o], s:[o], s:s}",
				"opcode", "Activation", "name", name, "engine", "ACT",
				"ins", ap(t1, 128, 64), "outs", ap(t2, 128, 64),
				"func", "relu"));
			break;
		default:
			json_array_append_new(insts, inst("TensorCopy", name, "POOL",
				json_pack("[o]", ap(i % 2 ? "x" : t1, 128, 64)),
				json_pack("[o]", ap(i % 4 == 2 ? "d" : t2, 128, 64))));
		}
	}
	fns = json_pack("[{s:s, s:{}, s:o, s:[], s:[{s:s, s:o}]}]", "name",
			"main", "attributes", "allocations", allocs,
			"registers", "blocks", "name", "entry",
			"instructions", insts);
	for (int k = 0; k < KERNELS; k++)
		json_array_append_new(fns, kernel_fn(k));
	return json_pack("{s:i, s:s, s:{s:s}, s:o}", "version", 2, "arch",
			 "trn2", "attributes", "source", "bir_bench",
			 "functions", fns);
}

static int count_inst(struct bir_inst *i, void *arg)
{
	(void)i;
	(*(long *)arg)++;
	return 0;
}

int main(int argc, char **argv)
{
	struct bir_opts o = { 0 };
	struct bir_module *m = NULL;
	struct nscc_err err = { 0 };
	struct rusage ru;
	long n, calls, final = 0;
	double t0, t1, t2, t3;
	json_t *j, *def = NULL;
	char *text;
	int rc;

	if (argc < 3) {
		fprintf(stderr, "usage: bir_bench INSTS CALLS [OUT.bir.json]\n");
		return 2;
	}
	n = strtol(argv[1], NULL, 0);
	calls = strtol(argv[2], NULL, 0);
	if (n < 1 || calls < 0 || calls > n) {
		fprintf(stderr, "bir_bench: INSTS %ld must be >= 1 and CALLS %ld in 0..INSTS\n",
			n, calls);
		return 2;
	}
	j = generate(n, calls);
	text = j ? json_dumps(j, JSON_COMPACT) : NULL;
	json_decref(j);
	if (!text) {
		fprintf(stderr, "bir_bench: out of memory generating %ld instructions\n", n);
		return 1;
	}
	if (argc > 3) {
		FILE *fp = fopen(argv[3], "w");

		if (!fp || fputs(text, fp) < 0 || fclose(fp)) {
			fprintf(stderr, "bir_bench: cannot write %s: %s\n",
				argv[3], strerror(errno));
			return 1;
		}
	}

	t0 = now();
	rc = bir_module_from_string(text, strlen(text), &m, &err);
	t1 = now();
	if (!rc)
		rc = bir_run_passes(m, &o, &err);
	t2 = now();
	if (!rc)
		rc = bir_lower_defjson(m, &def, &err);
	t3 = now();
	if (rc) {
		fprintf(stderr, "bir_bench: %ld instructions, %ld calls: %s (%s)\n",
			n, calls, err.msg, strerror(-rc));
		return 1;
	}
	for (uint32_t f = 0; f < m->nfns; f++)
		bir_foreach_inst(m->fns[f], count_inst, &final);
	getrusage(RUSAGE_SELF, &ru);
	printf("insts %ld\ncalls %ld\njson_bytes %zu\nfunctions %u\nfinal_insts %ld\n",
	       n, calls, strlen(text), m->nfns, final);
	printf("parse_s %.4f\npasses_s %.4f\nlower_s %.4f\ntotal_s %.4f\nmaxrss_kb %ld\n",
	       t1 - t0, t2 - t1, t3 - t2, t3 - t0, ru.ru_maxrss);
	if (m->nfns != 1) {
		fprintf(stderr, "bir_bench: %u functions left after the passes, want 1\n",
			m->nfns);
		return 1;
	}
	json_decref(def);
	bir_module_free(m);
	free(text);
	return 0;
}
