// SPDX-License-Identifier: GPL-2.0
/*
 * bir_bench - make bench: all BIR passes on a generated module
 * (Documentation/performance.rst).
 *
 *   bir_bench INSTS CALLS [OUT.bir.json]
 *
 * Generates one trn2 module in BIR JSON text: a function "main" with
 * INSTS instructions in one block, of which CALLS are kernel call sites
 * spread evenly (alternating NKIKernel calls of four NKI kernel
 * functions, half inlined at order 41 and half at order 61, and
 * BIRKernel activation calls), the rest TensorTensor / Activation /
 * TensorCopy on 16 SBUF tiles.  The text is written directly (compact,
 * keys in a fixed order), so the generator itself holds no JSON tree.
 * Then, timed: parse (bir_module_from_string), every pass of the
 * backend schedule (bir_run_passes), lowering into the compiler's
 * model (bir_lower_model).  Prints one "key value" line each:
 *   insts, calls, json_bytes, functions, final_insts, parse_s, passes_s,
 *   lower_s, total_s (parse + passes + lower), maxrss_kb (getrusage peak
 *   RSS of the whole process, generator and text included),
 *   peak_bytes_per_inst (maxrss_kb * 1024 / INSTS) and ir_bytes_per_inst
 *   (bir_module_mem_bytes() of the final module / final_insts).
 * Exits 1 when a step fails or the result is not fully inlined.
 * OUT.bir.json keeps the generated module (for neuronsim-cc by hand).
 */
#include <errno.h>
#include <stdbool.h>
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

static void ap(FILE *o, const char *memref, int p, int f)
{
	fprintf(o, "{\"Skind\":\"physical_ap\",\"memref\":\"%s\",\"offset\":0,\"ap\":[[1,%d],[1,%d]],\"dtype\":\"float32\"}",
		memref, p, f);
}

/* a set with one location; @type "Input", "Output", "DRAM" or "SB" */
static void alloc(FILE *o, const char *name, const char *type, int p, int f,
		  bool allocated, int addr)
{
	const char *cls = !strcmp(type, "Input") ? "input" :
			  !strcmp(type, "Output") ? "output" : "internal";

	fprintf(o, "{\"Skind\":\"memory_location_set\",\"name\":\"%s\",\"kind\":\"tensor\",\"tensor_class\":\"%s\",\"addr_space\":\"%s\",\"dtype\":\"float32\",\"partition_dim\":0,\"tensor_shape\":[%d,%d],",
		name, cls, type, p, f);
	fprintf(o, "\"memorylocations\":[{\"name\":\"%s\",\"type\":\"%s\",\"addr\":%d,\"dims\":[%d,%d],\"bank\":0,\"base\":0,\"allocated\":%s,\"pinned\":false,\"tensor_id\":0}]}",
		name, type, addr, p, f * 4, allocated ? "true" : "false");
}

/* the sets of one function, alloc()'s arguments */
struct alloc_spec {
	const char *name, *type;
	int p, f;
	bool allocated;
	int addr;
};

/* @n sets, comma-separated */
static void allocs(FILE *o, const struct alloc_spec *a, int n)
{
	for (int k = 0; k < n; k++) {
		fputs(k ? "," : "", o);
		alloc(o, a[k].name, a[k].type, a[k].p, a[k].f, a[k].allocated,
		      a[k].addr);
	}
}

/* {"opcode", "name", "engine", "ins": [A...], "outs": [B...] (no close) */
static void inst(FILE *o, const char *op, const char *name,
		 const char *engine, const char *const *ins, int nins,
		 const char *const *outs, int nouts, int f)
{
	fprintf(o, "{\"opcode\":\"%s\",\"name\":\"%s\",\"engine\":\"%s\",\"ins\":[",
		op, name, engine);
	for (int k = 0; k < nins; k++) {
		fputs(k ? "," : "", o);
		ap(o, ins[k], 128, f);
	}
	fputs("],\"outs\":[", o);
	for (int k = 0; k < nouts; k++) {
		fputs(k ? "," : "", o);
		ap(o, outs[k], 128, f);
	}
	fputs("]", o);
}

/* NKI kernel kern<k>: out = a + relu(copy(a)); ws = relu(copy(a)) */
static void kernel_fn(FILE *o, int k)
{
	static const struct alloc_spec sets[] = {
		{ "a", "Input", 128, 64, false, 0 },
		{ "out", "Output", 128, 64, false, 0 },
		{ "ws", "SB", 128, 64, true, 0 },
		{ "t", "SB", 128, 64, true, 256 },
	};

	fprintf(o, ",{\"name\":\"kern%d\",\"attributes\":{},\"allocations\":[", k);
	allocs(o, sets, 4);
	fputs("],\"registers\":[],\"blocks\":[{\"name\":\"entry\",\"instructions\":[", o);
	inst(o, "TensorCopy", "cp", "POOL", (const char *[]){ "a" }, 1,
	     (const char *[]){ "t" }, 1, 64);
	fputs("},", o);
	inst(o, "Activation", "act", "ACT", (const char *[]){ "t" }, 1,
	     (const char *[]){ "ws" }, 1, 64);
	fputs(",\"func\":\"relu\"},", o);
	inst(o, "TensorTensor", "add", "DVE", (const char *[]){ "ws", "a" }, 2,
	     (const char *[]){ "out" }, 1, 64);
	fputs(",\"op\":\"add\"}]}]}", o);
}

static void generate(FILE *o, long n, long calls)
{
	static const struct alloc_spec io[] = {
		{ "x", "Input", 128, 64, false, 0 },
		{ "y", "Output", 128, 64, false, 0 },
		{ "d", "DRAM", 128, 64, false, 0 },
	};
	long every = calls ? n / calls : n + 1, ncall = 0;
	char name[64], t1[16], t2[16];

	fputs("{\"version\":2,\"arch\":\"trn2\",\"attributes\":{\"source\":\"bir_bench\"},\"functions\":[{\"name\":\"main\",\"attributes\":{},\"allocations\":[", o);
	allocs(o, io, 3);
	for (int k = 0; k < TILES; k++) {
		snprintf(name, sizeof(name), "tile%d", k);
		fputc(',', o);
		alloc(o, name, "SB", 128, 64, false, 0);
	}
	fputs("],\"registers\":[],\"blocks\":[{\"name\":\"entry\",\"instructions\":[", o);
	for (long i = 0; i < n; i++) {
		const char *in[2] = { t1, t2 }, *out[2];

		snprintf(name, sizeof(name), "i%ld", i);
		snprintf(t1, sizeof(t1), "tile%ld", i % TILES);
		snprintf(t2, sizeof(t2), "tile%ld", (i + 1) % TILES);
		if (i)
			fputc(',', o);
		if (calls && i % every == every - 1 && ncall < calls) {
			if (ncall % 2 == 0) {
				out[0] = "d";
				out[1] = t1;
				inst(o, "NKIKernel", name, "POOL",
				     (const char *[]){ "x" }, 1, out, 2, 64);
				fprintf(o, ",\"func\":\"kern%ld\",\"func_args\":[\"a\"],\"func_outs\":[\"out\",\"ws\"],\"sb_buf_shape\":[128,1024],\"psum_buf_shape\":[0,0],\"kernel_source_val\":1,\"alloc_status\":%s}",
					(ncall / 2) % KERNELS,
					(ncall / 2) % 2 == 1 ? "true" : "false");
			} else {
				inst(o, "BIRKernel", name, "ACT",
				     (const char *[]){ "x" }, 1,
				     (const char *[]){ "y" }, 1, 32);
				fputs(",\"kernel_name\":\"activation\",\"srcs_shape\":[[128,32]],\"dsts_shape\":[[128,32]],\"kernel_attrs\":{\"func\":\"gelu\",\"scale\":0.5}}", o);
			}
			ncall++;
			continue;
		}
		switch (i % 3) {
		case 0:
			out[0] = t1;
			inst(o, "TensorTensor", name, "DVE", in, 2, out, 1, 64);
			fputs(",\"op\":\"add\"}", o);
			break;
		case 1:
			out[0] = t2;
			inst(o, "Activation", name, "ACT", in, 1, out, 1, 64);
			fputs(",\"func\":\"relu\"}", o);
			break;
		default:
			in[0] = i % 2 ? "x" : t1;
			out[0] = i % 4 == 2 ? "d" : t2;
			inst(o, "TensorCopy", name, "POOL", in, 1, out, 1, 64);
			fputc('}', o);
		}
	}
	fputs("]}]}", o);
	for (int k = 0; k < KERNELS; k++)
		kernel_fn(o, k);
	fputs("]}", o);
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
	struct nscc_model *model = NULL;
	struct nscc_err err = { 0 };
	struct rusage ru;
	long n, calls, final = 0;
	double t0, t1, t2, t3;
	char *text = NULL;
	size_t len = 0;
	FILE *gen;
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
	gen = open_memstream(&text, &len);
	if (gen)
		generate(gen, n, calls);
	if (!gen || fclose(gen) || !text) {
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
	rc = bir_module_from_string(text, len, &m, &err);
	t1 = now();
	if (!rc)
		rc = bir_run_passes(m, &o, &err);
	t2 = now();
	if (!rc && !(model = nscc_model_new(KBIN_TARGET_TRN2)))
		rc = -ENOMEM;
	if (!rc)
		rc = bir_lower_model(m, model, &err);
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
	       n, calls, len, m->nfns, final);
	printf("parse_s %.4f\npasses_s %.4f\nlower_s %.4f\ntotal_s %.4f\nmaxrss_kb %ld\n",
	       t1 - t0, t2 - t1, t3 - t2, t3 - t0, ru.ru_maxrss);
	printf("peak_bytes_per_inst %.0f\nir_bytes_per_inst %.0f\n",
	       (double)ru.ru_maxrss * 1024.0 / (double)n,
	       (double)bir_module_mem_bytes(m) / (double)(final ? final : 1));
	if (m->nfns != 1) {
		fprintf(stderr, "bir_bench: %u functions left after the passes, want 1\n",
			m->nfns);
		return 1;
	}
	nscc_model_free(model);
	bir_module_free(m);
	free(text);
	return 0;
}
