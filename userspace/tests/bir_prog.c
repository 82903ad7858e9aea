// SPDX-License-Identifier: GPL-2.0
/*
 * bir_prog - the engine programs of the BIR lowering
 * (Documentation/compiler-passes.rst, "Lowering to engine programs")
 * against the reference interpreter: for each bundled example with
 * straight-line code, random inputs (seeded) through the interpreter on
 * the module before the passes, and through the host reference of the
 * compiled plan (userspace/cc/prog_ref.c: the replay's order, the DMA
 * reference, kbin_compute_run()) on a memory image; every Output must
 * agree within the tolerance of its example's operations, and be
 * byte-identical where they are exact.  Also: the program of bir_mlp as
 * text against golden/bir/bir_mlp.prog.txt (BIR_UPDATE_GOLDEN=1
 * rewrites it), and the examples refused by name.
 */
#include <math.h>
#include "kselftest_harness.h"
#include "bir_test.h"
#include "kbin_reader.h"
#include "prog_ref.h"

/* DRAM var k of the test's image: 64 GiB + k * 64 MiB */
#define BP_DRAM_BASE	(64ULL << 30)
#define BP_DRAM_STEP	(64ULL << 20)

/*
 * The tolerance of one example against the interpreter (libm): exact
 * (0: byte-identical) when every operation is exact IEEE float32 in the
 * same order (add, multiply, divide, max, sqrt, the matmul's and the
 * reduction's left-to-right sums); else the largest error allowed,
 * |got - want| <= abs + rel * |want|, where the activation functions
 * built on exp (gelu's tanh, silu, sigmoid, exp) are the numerics
 * library's, not libm's, and a matmul or reduction after them carries
 * their error.
 */
struct bp_example {
	const char *file;
	int exact;
	double abs, rel;
	const char *why;
};

static const struct bp_example bp_examples[] = {
	{ "bir_activation.bir.json", 0, 1e-6, 1e-5, "gelu (tanh via exp)" },
	{ "bir_rmsnorm.bir.json", 1, 0, 0, "square, add, multiply, rsqrt: exact" },
	{ "bir_layernorm.bir.json", 1, 0, 0, "add, subtract, multiply, rsqrt: exact" },
	{ "bir_mlp.bir.json", 0, 1e-5, 1e-4, "silu (exp), then a matmul" },
	{ "bir_attention.bir.json", 0, 1e-6, 1e-4, "exp in the softmax, then a matmul" },
};

struct bp_ctx {
	const struct kbin_gen *g;
};

static int bp_addr(void *ctx, uint32_t sg, uint32_t var_id, uint64_t *pa)
{
	struct bp_ctx *c = ctx;

	*pa = var_id ? BP_DRAM_BASE + var_id * BP_DRAM_STEP :
	      prog_ref_sbuf_addr(c->g, sg, 0, 0);
	return 0;
}

/* the final module of @file: the var_ids its DRAM locations get */
static struct bir_module *bp_final(const char *file)
{
	struct bir_module *m = bt_load(file);
	struct nscc_err err = { { 0 } };
	const struct bir_opts o = { 0 };

	if (m && bir_run_passes(m, &o, &err)) {
		fprintf(stderr, "# passes: %s\n", err.msg);
		bir_module_free(m);
		return NULL;
	}
	return m;
}

static uint32_t bp_ulp(float a, float b)
{
	int32_t x, y;

	memcpy(&x, &a, 4);
	memcpy(&y, &b, 4);
	if (x < 0)
		x = INT32_MIN - x;
	if (y < 0)
		y = INT32_MIN - y;
	return x > y ? (uint32_t)x - (uint32_t)y : (uint32_t)y - (uint32_t)x;
}

/*
 * Example @e through both; the number of outputs out of tolerance, or -1
 * when a run failed (printed).  Prints the worst error.
 */
static int bp_diff(const struct bp_example *e, unsigned int seed)
{
	struct nscc_err err = { { 0 } };
	struct bir_module *pre = bt_load(e->file), *fin = bp_final(e->file);
	struct bir_interp *it = pre ? bir_interp_new(pre, &err) : NULL;
	struct dma_ref_mem *img = dma_ref_mem_new();
	struct prog_ref_stats st;
	struct kbin_check_result res;
	struct kbin_view v;
	struct bp_ctx c = { 0 };
	char path[512];
	void *buf = NULL;
	size_t len = 0;
	double worst_abs = 0, worst_rel = 0;
	uint32_t worst_ulp = 0;
	int bad = 0, rc = 0;
	const struct bir_function *f;

	snprintf(path, sizeof(path), "%s%s", BIR_EXAMPLES, e->file);
	if (!pre || !fin || !it || !img ||
	    nscc_bir_compile_file(path, &buf, &len, &err) ||
	    kbin_read(buf, len, &v, &res) || !v.prog) {
		fprintf(stderr, "# %s: setup failed: %s\n", e->file, err.msg);
		bad = -1;
		goto out;
	}
	c.g = kbin_gen_target(v.hdr->target_gen);
	f = fin->fns[0];
	for (uint32_t s = 0; !rc && s < f->nsets; s++) {
		const struct bir_memloc *ml = f->sets[s]->locs[0];
		uint64_t n = ml->dims[0] * (ml->dims[1] / 4);
		float *x;

		if (ml->type != BIR_MEM_INPUT)
			continue;
		x = calloc(n + 1, sizeof(float));
		for (uint64_t k = 0; x && k < n; k++)
			x[k] = bt_rand(&seed) * 2.0f;
		rc = !x || bir_interp_set(it, ml->name, x, n, &err) ||
		     dma_ref_mem_write(img, BP_DRAM_BASE + BP_DRAM_STEP *
				       bir_lower_var_id(f, ml), x, n * 4);
		free(x);
	}
	if (!rc)
		rc = bir_interp_run(it, &err);
	if (rc) {
		fprintf(stderr, "# %s: interp: %s\n", e->file, err.msg);
		bad = -1;
		goto out;
	}
	rc = prog_ref_run(&v, img, bp_addr, &c, &st);
	if (rc || !st.finished) {
		fprintf(stderr, "# %s: prog_ref_run: %d, finished %d (sg %u engine %u index %u)\n",
			e->file, rc, st.finished, st.fail_sg, st.fail_engine,
			st.fail_index);
		bad = -1;
		goto out;
	}
	for (uint32_t s = 0; s < f->nsets; s++) {
		const struct bir_memloc *ml = f->sets[s]->locs[0];
		uint64_t n = ml->dims[0] * (ml->dims[1] / 4);
		float *want, *got;

		if (ml->type != BIR_MEM_OUTPUT)
			continue;
		want = calloc(n + 1, 4);
		got = calloc(n + 1, 4);
		if (!want || !got || bir_interp_get(it, ml->name, want, n, &err)) {
			fprintf(stderr, "# %s: output '%s': %s\n", e->file,
				ml->name, err.msg);
			bad++;
		} else {
			dma_ref_mem_read(img, BP_DRAM_BASE + BP_DRAM_STEP *
					 bir_lower_var_id(f, ml), got, n * 4);
			for (uint64_t k = 0; k < n; k++) {
				double d = fabs((double)got[k] - want[k]);
				double r;

				if (d != d)
					d = INFINITY;	/* a NaN on one side */
				r = want[k] ? d / fabs(want[k]) : d;
				uint32_t u = bp_ulp(got[k], want[k]);

				worst_abs = d > worst_abs ? d : worst_abs;
				worst_rel = r > worst_rel ? r : worst_rel;
				worst_ulp = u > worst_ulp ? u : worst_ulp;
				if (e->exact ? memcmp(&got[k], &want[k], 4) != 0 :
				    !(d <= e->abs + e->rel * fabs(want[k]))) {
					if (!bad)
						fprintf(stderr, "# %s: output '%s'[%llu] = %.9g, interpreter %.9g\n",
							e->file, ml->name,
							(unsigned long long)k,
							got[k], want[k]);
					bad++;
				}
			}
		}
		free(want);
		free(got);
	}
	fprintf(stderr, "# %s: worst error abs %.3g rel %.3g (%u ULP); %s (%s); %llu compute instructions, %llu blocks, %.3f us\n",
	       e->file, worst_abs, worst_rel, worst_ulp,
	       e->exact ? "byte-identical required" : "tolerance", e->why,
	       (unsigned long long)st.compute, (unsigned long long)st.blocks,
	       st.end_ns / 1000.0);
out:
	bir_interp_free(it);
	bir_module_free(pre);
	bir_module_free(fin);
	dma_ref_mem_free(img);
	free(buf);
	return bad;
}

/* the host reference of every plan agrees with the interpreter */
TEST(examples_match_interpreter)
{
	for (size_t k = 0; k < sizeof(bp_examples) / sizeof(bp_examples[0]); k++) {
		for (unsigned int seed = 1; seed <= 3; seed++) {
			EXPECT_EQ(0, bp_diff(&bp_examples[k], seed * 7919 + (unsigned int)k))
				TH_LOG("%s, seed %u", bp_examples[k].file, seed);
		}
	}
}

/* the program of bir_mlp as text is the golden one */
TEST(mlp_program_golden)
{
	char path[512], gold[512], *s = NULL, *g = NULL;
	struct nscc_err err = { { 0 } };
	struct kbin_check_result res;
	struct kbin_view v;
	void *buf = NULL;
	size_t len = 0, n = 0;
	FILE *out = NULL, *fp;

	snprintf(path, sizeof(path), "%sbir_mlp.bir.json", BIR_EXAMPLES);
	snprintf(gold, sizeof(gold), "%sbir_mlp.prog.txt", BIR_GOLDEN);
	ASSERT_EQ(0, nscc_bir_compile_file(path, &buf, &len, &err))
		TH_LOG("%s", err.msg);
	ASSERT_EQ(0, kbin_read(buf, len, &v, &res));
	out = open_memstream(&s, &n);
	ASSERT_NE(NULL, out);
	ASSERT_EQ(0, prog_ref_print(out, &v));
	fclose(out);
	if (getenv("BIR_UPDATE_GOLDEN")) {
		fp = fopen(gold, "w");
		if (fp) {
			fputs(s, fp);
			fclose(fp);
		}
	}
	fp = fopen(gold, "r");
	n = 0;
	ASSERT_NE(NULL, fp) TH_LOG("%s missing; BIR_UPDATE_GOLDEN=1 writes it", gold);
	ASSERT_LE(0, getdelim(&g, &n, '\0', fp));
	fclose(fp);
	EXPECT_STREQ(g, s);
	free(g);
	free(s);
	free(buf);
}

/* the examples that are not straight-line code: refused by name */
TEST(refusals_named)
{
	static const struct {
		const char *file, *msg;
	} ref[] = {
		{ "nki_twice.bir.json", "lowering: instruction 'k1_ld_cond' (RegisterLoad) cannot be lowered to an engine program: an access through a register has no engine instruction" },
		{ "collectives.bir.json", "lowering: instruction 'perm0' (CollectiveCompute) cannot be lowered to an engine program: a collective has no engine instruction" },
	};

	for (size_t k = 0; k < sizeof(ref) / sizeof(ref[0]); k++) {
		struct bir_module *m = bp_final(ref[k].file);
		struct nscc_model *model;
		struct nscc_err err = { { 0 } }, why = { { 0 } };

		ASSERT_NE(NULL, m);
		model = nscc_model_new(3);
		ASSERT_NE(NULL, model);
		ASSERT_EQ(0, bir_lower_model(m, model, &err)) TH_LOG("%s", err.msg);
		EXPECT_EQ(1, bir_lower_prog(m, model, &why));
		EXPECT_STREQ(ref[k].msg, why.msg);
		EXPECT_EQ(0, model->sgs[0].has_prog);
		EXPECT_EQ(0U, model->prog_flags);
		nscc_model_free(model);
		bir_module_free(m);
	}
}

TEST_HARNESS_MAIN
