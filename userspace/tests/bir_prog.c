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
#include "prog_replay.h"
#include "nsim_file.h"
#include "bir_tol.h"


/*
 * The tolerance of one example against the interpreter (libm), by the
 * shared rule (testlib/bir_tol.h): an Output only exact operations reach
 * must be byte-identical; one an activation built on exp reaches (gelu's
 * tanh, silu, sigmoid, exp: the numerics library's, not libm's; a matmul
 * or reduction after them carries their error) must be within
 * |got - want| <= abs + rel * |want|, the example's own bounds (tighter
 * than bir_tol's default).  @exact says the rule finds every Output of
 * the example exact.
 */
struct bp_example {
	const char *file;	/* a bundled example, or a label of @text */
	const char *text;	/* NULL, or the module's JSON text */
	int exact;
	double abs, rel;
	const char *why;
	/* NULL, or the value of element @k of input @name (else random) */
	int (*input)(const char *name, uint64_t k, unsigned int seed, float *x);
};

/*
 * nki_twice: its branch register 'sel' positive on odd seeds, negative
 * on even ones (both arms run across the seeds); its gather index 'idx'
 * a row 0..3 plus a fraction the truncation drops.
 */
static int bp_nki_twice_input(const char *name, uint64_t k, unsigned int seed,
			      float *x)
{
	(void)k;
	if (!strcmp(name, "sel")) {
		*x = seed & 1 ? 0.75f : -0.75f;
		return 1;
	}
	if (!strcmp(name, "idx")) {
		*x = (float)(seed % 4) + 0.25f;
		return 1;
	}
	return 0;
}

/* BP_FLOW's register input c: 0.75, 1.5, 2.25 or 3.0 by the seed */
static int bp_flow_input(const char *name, uint64_t k, unsigned int seed,
			 float *x)
{
	(void)k;
	if (strcmp(name, "c"))
		return 0;
	*x = (float)(seed % 4 + 1) * 0.75f;
	return 1;
}

static const struct bp_example bp_examples[] = {
	{ "bir_activation.bir.json", NULL, 0, 1e-6, 1e-5, "gelu (tanh via exp)", NULL },
	{ "bir_rmsnorm.bir.json", NULL, 1, 0, 0, "square, add, multiply, rsqrt: exact", NULL },
	{ "bir_layernorm.bir.json", NULL, 1, 0, 0, "add, subtract, multiply, rsqrt: exact", NULL },
	{ "bir_mlp.bir.json", NULL, 0, 1e-5, 1e-4, "silu (exp), then a matmul", NULL },
	{ "bir_attention.bir.json", NULL, 0, 1e-6, 1e-4, "exp in the softmax, then a matmul", NULL },
	{ "nki_twice.bir.json", NULL, 0, 1e-6, 1e-5,
	  "tanh; two branches on a register, a gather through one",
	  bp_nki_twice_input },
	{ "collectives.bir.json", NULL, 1, 0, 0, "single-rank collectives: copies", NULL },
};


static struct bir_module *bp_load(const struct bp_example *e)
{
	return e->text ? bt_parse(e->text) : bt_load(e->file);
}

/* the final module of @e: the var_ids its DRAM locations get */
static struct bir_module *bp_final(const struct bp_example *e)
{
	struct bir_module *m = bp_load(e);
	struct nscc_err err = { { 0 } };
	const struct bir_opts o = { 0 };

	if (m && bir_run_passes(m, &o, &err)) {
		fprintf(stderr, "# passes: %s\n", err.msg);
		bir_module_free(m);
		return NULL;
	}
	return m;
}

/* @dump/@name@suffix.bin := @n float32; 0 (nothing when @dump is NULL) */
static int bp_dump(const char *dump, const char *name, const char *suffix,
		   const float *x, uint64_t n)
{
	char path[512];

	if (!dump)
		return 0;
	snprintf(path, sizeof(path), "%s/%s%s.bin", dump, name, suffix);
	return nscc_write_file(path, x, n * 4) ? -1 : 0;
}

/*
 * Example @e through both; the number of outputs out of tolerance, or -1
 * when a run failed (printed).  Prints the worst error.
 */
static int bp_diff(const struct bp_example *e, unsigned int seed,
		   const char *dump)
{
	struct nscc_err err = { { 0 } };
	struct bir_module *pre = bp_load(e), *fin = bp_final(e);
	struct bir_interp *it = pre ? bir_interp_new(pre, &err) : NULL;
	struct dma_ref_mem *img = dma_ref_mem_new();
	struct prog_ref_stats st;
	struct kbin_check_result res;
	struct kbin_view v;
	char path[512];
	void *buf = NULL;
	size_t len = 0;
	struct bir_tol_worst worst = { 0 };
	int bad = 0, rc = 0, exact = 1;
	const struct bir_function *f;

	if (e->text) {
		char *t = pre ? bir_module_to_string(pre) : NULL;

		snprintf(path, sizeof(path), "/tmp/bir_prog.%d.bir.json", getpid());
		if (t)
			nscc_write_file(path, t, strlen(t));
		free(t);
	} else {
		snprintf(path, sizeof(path), "%s%s", BIR_EXAMPLES, e->file);
	}
	if (!pre || !fin || !it || !img ||
	    nscc_bir_compile_file(path, &buf, &len, &err) ||
	    kbin_read(buf, len, &v, &res) || !v.prog) {
		fprintf(stderr, "# %s: setup failed: %s\n", e->file, err.msg);
		bad = -1;
		goto out;
	}
	f = fin->fns[0];
	for (uint32_t s = 0; !rc && s < f->nsets; s++) {
		const struct bir_memloc *ml = f->sets[s]->locs[0];
		uint64_t n = ml->dims[0] * (ml->dims[1] / 4);
		float *x;

		if (ml->type != BIR_MEM_INPUT)
			continue;
		x = calloc(n + 1, sizeof(float));
		for (uint64_t k = 0; x && k < n; k++)
			if (!e->input || !e->input(ml->name, k, seed, &x[k]))
				x[k] = bt_rand(&seed) * 2.0f;
		rc = !x || bir_interp_set(it, ml->name, x, n, &err) ||
		     dma_ref_mem_write(img, prog_ref_flat_dram(bir_lower_var_id(f, ml)), x, n * 4) ||
		     bp_dump(dump, ml->name, "", x, n);
		free(x);
	}
	if (!rc)
		rc = bir_interp_run(it, &err);
	if (rc) {
		fprintf(stderr, "# %s: interp: %s\n", e->file, err.msg);
		bad = -1;
		goto out;
	}
	rc = prog_ref_run(&v, img, prog_ref_flat_addr,
			  (void *)kbin_gen_target(v.hdr->target_gen), &st);
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
		struct bir_tol tol;
		uint64_t first = 0, nbad;

		if (ml->type != BIR_MEM_OUTPUT)
			continue;
		bir_tol_output(fin, ml->name, &tol);
		exact &= tol.exact;
		if (!tol.exact) {
			tol.abs = e->abs;
			tol.rel = e->rel;
		}
		want = calloc(n + 1, 4);
		got = calloc(n + 1, 4);
		if (!want || !got || bir_interp_get(it, ml->name, want, n, &err)) {
			fprintf(stderr, "# %s: output '%s': %s\n", e->file,
				ml->name, err.msg);
			bad++;
		} else {
			dma_ref_mem_read(img, prog_ref_flat_dram(bir_lower_var_id(f, ml)), got, n * 4);
			if (bp_dump(dump, ml->name, ".ref", got, n) ||
			    bp_dump(dump, ml->name, ".interp", want, n))
				bad++;
			nbad = bir_tol_cmp(&tol, got, want, n, &worst, &first);
			if (nbad && !bad)
				fprintf(stderr, "# %s: output '%s'[%llu] = %.9g, interpreter %.9g (%s)\n",
					e->file, ml->name,
					(unsigned long long)first,
					got[first], want[first], tol.why);
			bad += (int)nbad;
		}
		free(want);
		free(got);
	}
	if (exact != e->exact) {
		fprintf(stderr, "# %s: bir_tol finds it %s, the table says %s\n",
			e->file, exact ? "exact" : "inexact",
			e->exact ? "exact" : "inexact");
		bad++;
	}
	fprintf(dump ? stdout : stderr,
		"%s%s: host reference against the interpreter: worst error abs %.3g rel %.3g (%u ULP); %s (%s); %llu compute instructions, %llu blocks, %.3f us\n",
	       dump ? "" : "# ", e->file, worst.abs, worst.rel, worst.ulp,
	       e->exact ? "byte-identical required" : "tolerance", e->why,
	       (unsigned long long)st.compute, (unsigned long long)st.blocks,
	       st.end_ns / 1000.0);
out:
	if (e->text)
		unlink(path);
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
			EXPECT_EQ(0, bp_diff(&bp_examples[k], seed * 7919 + (unsigned int)k, NULL))
				TH_LOG("%s, seed %u", bp_examples[k].file, seed);
		}
	}
}

/* a location set of one location */
#define BP_LOC(n, t, p, b, extra) "{\"Skind\": \"memory_location_set\", \"name\": \"" n "\", " \
	"\"dtype\": \"float32\", \"memorylocations\": [{\"name\": \"" n "\", " \
	"\"type\": \"" t "\", \"dims\": [" #p ", " #b "]" extra "}]}"
#define BP_SB(n, p, b, addr) BP_LOC(n, "SB", p, b, ", \"addr\": " #addr ", \"allocated\": true")
#define BP_AP(n, off, ap) "{\"Skind\": \"physical_ap\", \"memref\": \"" n "\", \"offset\": " #off ", \"ap\": " ap "}"
#define BP_MOD(allocs, insts) "{\"arch\": \"trn2\", \"functions\": [{\"name\": \"f\", " \
	"\"allocations\": [" allocs "], \"blocks\": [{\"name\": \"b\", \"instructions\": [" insts "]}]}]}"

/*
 * Control flow on SB locations s, t, the input c and the output y:
 * register r0 loaded from c, branches on it, copies.
 */
#define BP_FLOW(blocks) "{\"arch\": \"trn2\", \"functions\": [{\"name\": \"f\", \"allocations\": [" \
	BP_SB("s", 4, 64, 0) ", " BP_SB("t", 4, 64, 64) ", " BP_LOC("c", "Input", 1, 4, "") ", " \
	BP_LOC("y", "Output", 4, 64, "") "], \"registers\": [{\"name\": \"r0\"}], \"blocks\": [" blocks "]}]}"
#define BP_BLK(n, insts) "{\"name\": \"" n "\", \"instructions\": [" insts "]}"
#define BP_LD "{\"opcode\": \"RegisterLoad\", \"name\": \"ld\", \"engine\": \"SP\", \"ins\": [" \
	BP_AP("c", 0, "[[1, 1], [1, 1]]") "], \"outs\": [{\"Skind\": \"register_access\", \"reg\": \"r0\"}]}"
#define BP_BR(n, op, imm, t, f) "{\"opcode\": \"CompareAndBranch\", \"name\": \"" n "\", \"engine\": \"SP\", " \
	"\"comp_op\": \"" op "\", \"on_true\": \"" t "\", \"on_false\": \"" f "\", \"ins\": [" \
	"{\"Skind\": \"register_access\", \"reg\": \"r0\"}, {\"Skind\": \"imm_value\", \"value\": " imm "}], \"outs\": []}"
#define BP_CP(n, a, b) "{\"opcode\": \"TensorCopy\", \"name\": \"" n "\", \"engine\": \"Pool\", \"ins\": [" \
	BP_AP(a, 0, "[[1, 4], [1, 16]]") "], \"outs\": [" BP_AP(b, 0, "[[1, 4], [1, 16]]") "]}"
#define BP_MS(n, loc, v) "{\"opcode\": \"Memset\", \"name\": \"" n "\", \"engine\": \"Pool\", \"value\": " v ", " \
	"\"ins\": [], \"outs\": [" BP_AP(loc, 0, "[[1, 4], [1, 16]]") "]}"
#define BP_ACT(n, a, b) "{\"opcode\": \"Activation\", \"name\": \"" n "\", \"engine\": \"ACT\", \"func\": \"square\", " \
	"\"ins\": [" BP_AP(a, 0, "[[1, 4], [1, 8]]") "], \"outs\": [" BP_AP(b, 32, "[[1, 4], [1, 8]]") "]}"
#define BP_JMP(n, t) "{\"opcode\": \"UnconditionalBranch\", \"name\": \"" n "\", \"target\": \"" t "\", \"ins\": [], \"outs\": []}"
#define BP_ST(n, a, b, f) "{\"opcode\": \"TensorCopy\", \"name\": \"" n "\", \"engine\": \"SP\", \"ins\": [" \
	BP_AP(a, 0, "[[1, 4], [1, " #f "]]") "], \"outs\": [" BP_AP(b, 0, "[[1, 4], [1, " #f "]]") "]}"
#define BP_DMA "{\"opcode\": \"TensorCopy\", \"name\": \"st\", \"engine\": \"SP\", \"ins\": [" \
	BP_AP("s", 0, "[[1, 4], [1, 16]]") "], \"outs\": [" BP_AP("y", 0, "[[1, 4], [1, 16]]") "]}"

/*
 * Synthetic modules: a MatMult of 600 columns (split at 512, two PSUM
 * tiles and COPYs) from and to DRAM; Memset, an on-chip TensorCopy and a
 * TensorTensor on POOL and DVE, with a DMA TensorCopy out; a
 * TensorScalar of a [P, 1] operand and a max reduction over 2 merged
 * free dimensions; a chain through one SB location (every hazard).
 */
static const struct bp_example bp_synth[] = {
	{ "matmul 64x32 by 64x600", BP_MOD(
		BP_LOC("a", "Input", 64, 128, "") ", " BP_LOC("b", "Input", 64, 2400, "") ", "
		BP_LOC("y", "Output", 32, 2400, ""),
		"{\"opcode\": \"MatMult\", \"name\": \"mm\", \"engine\": \"PE\", \"ins\": ["
		BP_AP("a", 0, "[[1, 64], [1, 32]]") ", " BP_AP("b", 0, "[[1, 64], [1, 600]]")
		"], \"outs\": [" BP_AP("y", 0, "[[1, 32], [1, 600]]") "]}"),
	  1, 0, 0, "a matmul, sums in the same order: exact", NULL },
	{ "memset, copies, add", BP_MOD(
		BP_SB("s", 32, 256, 0) ", " BP_SB("t", 32, 256, 1024) ", "
		BP_LOC("y", "Output", 32, 256, "") ", " BP_LOC("z", "Output", 32, 256, ""),
		"{\"opcode\": \"Memset\", \"name\": \"ms\", \"engine\": \"Pool\", \"value\": 1.5, \"ins\": [], \"outs\": ["
		BP_AP("s", 0, "[[1, 32], [1, 64]]") "]}, "
		"{\"opcode\": \"TensorCopy\", \"name\": \"cp\", \"engine\": \"Pool\", \"ins\": ["
		BP_AP("s", 0, "[[1, 32], [1, 64]]") "], \"outs\": [" BP_AP("t", 0, "[[1, 32], [1, 64]]") "]}, "
		"{\"opcode\": \"TensorTensor\", \"name\": \"tt\", \"engine\": \"DVE\", \"op\": \"add\", \"ins\": ["
		BP_AP("s", 0, "[[1, 32], [1, 64]]") ", " BP_AP("t", 0, "[[1, 32], [1, 64]]")
		"], \"outs\": [" BP_AP("t", 0, "[[1, 32], [1, 64]]") "]}, "
		"{\"opcode\": \"TensorCopy\", \"name\": \"st\", \"engine\": \"SP\", \"ins\": ["
		BP_AP("t", 0, "[[1, 32], [1, 64]]") "], \"outs\": [" BP_AP("y", 0, "[[1, 32], [1, 64]]") "]}, "
		"{\"opcode\": \"TensorCopy\", \"name\": \"st2\", \"engine\": \"SP\", \"ins\": ["
		BP_AP("s", 0, "[[1, 32], [1, 64]]") "], \"outs\": [" BP_AP("z", 0, "[[1, 32], [1, 64]]") "]}"),
	  1, 0, 0, "memset, copy, add: exact", NULL },
	{ "scalar operand, merged reduce", BP_MOD(
		BP_LOC("x", "Input", 16, 512, "") ", " BP_SB("m", 16, 4, 0) ", " BP_SB("w", 16, 512, 64) ", "
		BP_LOC("y", "Output", 16, 512, "") ", " BP_LOC("r", "Output", 16, 4, ""),
		"{\"opcode\": \"TensorReduce\", \"name\": \"mx\", \"engine\": \"DVE\", \"op\": \"max\", \"ins\": ["
		BP_AP("x", 0, "[[1, 16], [32, 4], [1, 32]]") "], \"outs\": [" BP_AP("m", 0, "[[1, 16], [1, 1]]") "]}, "
		"{\"opcode\": \"TensorScalar\", \"name\": \"sub\", \"engine\": \"DVE\", \"op\": \"subtract\", \"ins\": ["
		BP_AP("x", 0, "[[1, 16], [1, 128]]") ", " BP_AP("m", 0, "[[1, 16], [1, 1]]")
		"], \"outs\": [" BP_AP("w", 0, "[[1, 16], [1, 128]]") "]}, "
		"{\"opcode\": \"Activation\", \"name\": \"sq\", \"engine\": \"ACT\", \"func\": \"square\", \"ins\": ["
		BP_AP("w", 0, "[[1, 16], [1, 128]]") "], \"outs\": [" BP_AP("y", 0, "[[1, 16], [1, 128]]") "]}, "
		"{\"opcode\": \"TensorScalar\", \"name\": \"neg\", \"engine\": \"DVE\", \"op\": \"multiply\", \"ins\": ["
		BP_AP("m", 0, "[[1, 16], [1, 1]]") ", {\"Skind\": \"imm_value\", \"value\": -2.0}"
		"], \"outs\": [" BP_AP("r", 0, "[[1, 16], [1, 1]]") "]}"),
	  1, 0, 0, "max, subtract, square, multiply: exact", NULL },
	{ "DMA store and a DRAM output in one arm", BP_FLOW(
		BP_BLK("b0", BP_LD ", " BP_MS("ms", "s", "2.5") ", " BP_ACT("pre", "s", "y") ", "
		       BP_BR("br", "ge", "1.5", "b1", "b2")) ", "
		BP_BLK("b1", BP_DMA ", " BP_ACT("sq", "t", "y") ", " BP_JMP("j", "b3")) ", "
		BP_BLK("b2", BP_MS("m2", "t", "-1.0")) ", "
		BP_BLK("b3", BP_ST("st2", "t", "y", 8))),
	  1, 0, 0, "a diamond: memset, square, copies; exact", bp_flow_input },
	{ "gather and scatter through r0", BP_FLOW(
		BP_BLK("b0", BP_LD ", " BP_MS("ms", "s", "0.5") ", " BP_MS("m1", "t", "3.0") ", "
		       "{\"opcode\": \"TensorCopy\", \"name\": \"g\", \"engine\": \"Pool\", \"ins\": ["
		       "{\"Skind\": \"physical_ap\", \"memref\": \"t\", \"offset\": 0, \"ap\": [[1, 4], [1, 4]], "
		       "\"dyn\": [{\"axis\": \"r0\", \"step\": 16}]}], \"outs\": [" BP_AP("s", 0, "[[1, 4], [1, 4]]") "]}, "
		       "{\"opcode\": \"TensorCopy\", \"name\": \"sc\", \"engine\": \"Pool\", \"ins\": ["
		       BP_AP("s", 0, "[[1, 4], [1, 4]]") "], \"outs\": ["
		       "{\"Skind\": \"physical_ap\", \"memref\": \"y\", \"offset\": 48, \"ap\": [[1, 4], [1, 4]], "
		       "\"dyn\": [{\"axis\": \"r0\", \"step\": -16}]}]}")),
	  1, 0, 0, "copies through a register: exact", bp_flow_input },
};

/* the synthetic modules' plans agree with the interpreter too */
TEST(synthetic_match_interpreter)
{
	for (size_t k = 0; k < sizeof(bp_synth) / sizeof(bp_synth[0]); k++) {
		for (unsigned int seed = 0; seed < (bp_synth[k].input ? 4U : 1U); seed++) {
			EXPECT_EQ(0, bp_diff(&bp_synth[k], 11 + 4 * (unsigned int)k + seed, NULL))
				TH_LOG("%s, seed %u", bp_synth[k].file, seed);
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

/* one instruction on SB locations s, t (and PSUM location q) */
#define BP_ONE(ins, outs) BP_MOD(BP_SB("s", 64, 1024, 0) ", " BP_SB("t", 64, 1024, 1024) ", " \
	BP_LOC("q", "PSUM", 64, 1024, ""), \
	"{\"opcode\": \"TensorCopy\", \"name\": \"c\", \"engine\": \"Pool\", \"ins\": [" ins \
	"], \"outs\": [" outs "]}")

/* an operand of location @n moved by i x 16 bytes, i not a register */
#define BP_DYN(n) "{\"Skind\": \"physical_ap\", \"memref\": \"" n "\", \"offset\": 0, " \
	"\"ap\": [[1, 4], [1, 4]], \"dyn\": [{\"axis\": \"i\", \"step\": 16}]}"

/* what the engines cannot take, and control flow the lowering does not: refused by name */
TEST(refusals_named)
{
	static const struct {
		const char *file, *text, *msg;
	} ref[] = {
		{ "partition step 2", BP_ONE(BP_AP("s", 0, "[[2, 32], [1, 8]]"), BP_AP("t", 0, "[[1, 32], [1, 8]]")),
		  "lowering: instruction 'c' (TensorCopy) cannot be lowered to an engine program: operand 's' has partition step 2 (an engine instruction takes consecutive partitions)" },
		{ "three free dims", BP_ONE(BP_AP("s", 0, "[[1, 4], [64, 2], [16, 2], [1, 4]]"), BP_AP("t", 0, "[[1, 4], [1, 16]]")),
		  "lowering: instruction 'c' (TensorCopy) cannot be lowered to an engine program: operand 's': 3 free dimensions after merging the contiguous ones (an engine instruction takes 2)" },
		{ "two run-time offsets", BP_ONE(BP_DYN("q"), BP_DYN("t")),
		  "lowering: instruction 'c' (TensorCopy) cannot be lowered to an engine program: both its operands have a run-time offset (one is lowered)" },
		{ "a Loop axis term", BP_ONE(BP_AP("q", 0, "[[1, 4], [1, 4]]"), BP_DYN("t")),
		  "lowering: instruction 'c' (TensorCopy) cannot be lowered to an engine program: 'i' is neither a register of the function nor the axis of an enclosing Loop" },
		{ "branch in a Loop body", BP_FLOW(BP_BLK("b0", BP_LD ", {\"opcode\": \"Loop\", \"name\": \"lp\", \"ins\": [], \"outs\": [], "
			"\"LoopAxis\": {\"name\": \"i\", \"lb\": 0, \"ub\": 2, \"stride\": 1}, \"blocks\": [" BP_BLK("body", BP_CP("c0", "s", "t") ", " BP_JMP("j", "b1")) "]}") ", " BP_BLK("b1", "")),
		  "lowering: instruction 'j' (UnconditionalBranch) cannot be lowered to an engine program: a branch inside a Loop body is not lowered" },
		{ "unrolled too far", BP_FLOW(BP_BLK("b0", "{\"opcode\": \"Loop\", \"name\": \"lp\", \"ins\": [], \"outs\": [], "
			"\"LoopAxis\": {\"name\": \"i\", \"lb\": 0, \"ub\": 20000, \"stride\": 1}, \"blocks\": [" BP_BLK("body", BP_CP("c0", "s", "t")) "]}")),
		  "lowering: instruction 'lp' (Loop) cannot be lowered to an engine program: unrolling its 20000 iterations of 1 instructions would pass the lowering's 16384" },
		{ "branch back", BP_FLOW(BP_BLK("b0", BP_LD "," BP_CP("c0", "s", "t")) ","
					 BP_BLK("b1", BP_BR("br", "gt", "0.0", "b0", "b2")) "," BP_BLK("b2", "")),
		  "lowering: instruction 'br' (CompareAndBranch) cannot be lowered to an engine program: it goes back to block 'b0' (a loop of blocks is not lowered)" },
		{ "nested branch", BP_FLOW(BP_BLK("b0", BP_LD "," BP_BR("br", "gt", "0.0", "b1", "b3")) ","
					   BP_BLK("b1", BP_BR("br2", "lt", "1.0", "b2", "b3")) ","
					   BP_BLK("b2", BP_CP("c2", "s", "t")) "," BP_BLK("b3", "")),
		  "lowering: instruction 'c2' (TensorCopy) cannot be lowered to an engine program: its block 'b2' is under a branch inside another branch's arm (one level is lowered)" },
		{ "immediate not a float32", BP_FLOW(BP_BLK("b0", BP_LD "," BP_BR("br", "gt", "0.1", "b1", "b1")) ","
						     BP_BLK("b1", BP_CP("c1", "s", "t"))),
		  "lowering: instruction 'br' (CompareAndBranch) cannot be lowered to an engine program: its immediate 0.10000000000000001 is not a float32" },
	};

	for (size_t k = 0; k < sizeof(ref) / sizeof(ref[0]); k++) {
		const struct bp_example e = { .file = ref[k].file, .text = ref[k].text };
		struct bir_module *m = bp_final(&e);
		struct nscc_model *model;
		struct nscc_err err = { { 0 } }, why = { { 0 } };

		ASSERT_NE(NULL, m);
		model = nscc_model_new(3);
		ASSERT_NE(NULL, model);
		ASSERT_EQ(0, bir_lower_model(m, model, &err)) TH_LOG("%s", err.msg);
		EXPECT_EQ(1, bir_lower_prog(m, model, &why));
		EXPECT_STREQ(ref[k].msg, why.msg) TH_LOG("%s", ref[k].file);
		EXPECT_EQ(0, model->sgs[0].has_prog);
		EXPECT_EQ(0U, model->prog_flags);
		nscc_model_free(model);
		bir_module_free(m);
	}
}

/* a Loop on axis i over [lb, ub) by st, its body block's instructions @body */
#define BP_LOOP(lb, ub, st, body) "{\"opcode\": \"Loop\", \"name\": \"lp\", \"ins\": [], \"outs\": [], " \
	"\"LoopAxis\": {\"name\": \"i\", \"lb\": " #lb ", \"ub\": " #ub ", \"stride\": " #st "}, " \
	"\"blocks\": [" BP_BLK("body", body) "]}"

/* @text through the passes and both lowerings: bir_lower_prog()'s result, @why its message */
static int bp_lower_text(const char *label, const char *text, struct nscc_model **model,
			 struct nscc_err *why)
{
	const struct bp_example e = { .file = label, .text = text };
	struct bir_module *m = bp_final(&e);
	struct nscc_err err = { { 0 } };
	int rc = -1;

	*model = nscc_model_new(3);
	if (m && *model && !bir_lower_model(m, *model, &err))
		rc = bir_lower_prog(m, *model, why);
	else
		fprintf(stderr, "# %s: %s\n", label, err.msg);
	bir_module_free(m);
	return rc;
}

/*
 * Loop bounds at the ends of 64 bits: an iteration count whose product
 * with the body's instructions wraps, an axis span past INT64_MAX, an
 * empty body of 10^18 iterations, an axis term whose fold overflows.
 * Each is lowered in bounded time and memory or refused by name.
 */
TEST(loop_bounds_64bit)
{
	static const struct {
		const char *label, *text, *msg;	/* msg NULL: lowered */
	} c[] = {
		{ "2^62 iterations of 4", BP_FLOW(BP_BLK("b0", BP_LOOP(0, 4611686018427387904, 1,
			BP_CP("c0", "s", "t") ", " BP_CP("c1", "t", "s") ", " BP_CP("c2", "s", "t") ", " BP_CP("c3", "t", "s")))),
		  "lowering: instruction 'lp' (Loop) cannot be lowered to an engine program: unrolling its 4611686018427387904 iterations of 4 instructions would pass the lowering's 16384" },
		{ "span past INT64_MAX, 4 iterations", BP_FLOW(BP_BLK("b0", BP_LOOP(-9000000000000000000, 9000000000000000000,
			4611686018427387904, BP_CP("c0", "s", "t")))), NULL },
		{ "empty body, 10^18 iterations", BP_FLOW(BP_BLK("b0", BP_LOOP(0, 1000000000000000000, 1, "") ", " BP_DMA)), NULL },
		{ "axis term 2^40 x 2^30", BP_FLOW(BP_BLK("b0", BP_LOOP(1099511627776, 1099511627777, 1,
			"{\"opcode\": \"TensorCopy\", \"name\": \"c0\", \"engine\": \"Pool\", \"ins\": ["
			"{\"Skind\": \"physical_ap\", \"memref\": \"t\", \"offset\": 0, \"ap\": [[1, 4], [1, 4]], "
			"\"dyn\": [{\"axis\": \"i\", \"step\": 1073741824}]}], \"outs\": [" BP_AP("s", 0, "[[1, 4], [1, 4]]") "]}"))),
		  "lowering: instruction 'c0' (TensorCopy) cannot be lowered to an engine program: operand 't': its offset with Loop axis 'i' = 1099511627776 does not fit 64 bits" },
	};

	for (size_t k = 0; k < sizeof(c) / sizeof(c[0]); k++) {
		struct nscc_err why = { { 0 } };
		struct nscc_model *model = NULL;
		int rc = bp_lower_text(c[k].label, c[k].text, &model, &why);

		EXPECT_EQ(c[k].msg ? 1 : 0, rc) TH_LOG("%s: %s", c[k].label, why.msg);
		if (c[k].msg)
			EXPECT_STREQ(c[k].msg, why.msg) TH_LOG("%s", c[k].label);
		nscc_model_free(model);
	}
}

/*
 * A run-time offset's [lo, hi) keeps its operand inside its location at
 * every value, also when the operand at v = 0 starts before the location
 * (a negative free step) and the run-time step is negative: t is bytes
 * 64..128 of each partition, in0 reaches 12 bytes below its offset.
 */
TEST(dyn_range_inside_location)
{
	static const struct {
		const char *label, *text;
	} c[] = {
		{ "negative free step, step -16", BP_FLOW(BP_BLK("b0", BP_LD ", "
			"{\"opcode\": \"TensorCopy\", \"name\": \"g\", \"engine\": \"Pool\", \"ins\": ["
			"{\"Skind\": \"physical_ap\", \"memref\": \"t\", \"offset\": 0, \"ap\": [[1, 4], [-1, 4]], "
			"\"dyn\": [{\"axis\": \"r0\", \"step\": -16}]}], \"outs\": [" BP_AP("s", 0, "[[1, 4], [1, 4]]") "]}")) },
		{ "negative free step, step 16", BP_FLOW(BP_BLK("b0", BP_LD ", "
			"{\"opcode\": \"TensorCopy\", \"name\": \"g\", \"engine\": \"Pool\", \"ins\": ["
			"{\"Skind\": \"physical_ap\", \"memref\": \"t\", \"offset\": 0, \"ap\": [[1, 4], [-1, 4]], "
			"\"dyn\": [{\"axis\": \"r0\", \"step\": 16}]}], \"outs\": [" BP_AP("s", 0, "[[1, 4], [1, 4]]") "]}")) },
		{ "step -5, offset 60", BP_FLOW(BP_BLK("b0", BP_LD ", "
			"{\"opcode\": \"TensorCopy\", \"name\": \"g\", \"engine\": \"Pool\", \"ins\": ["
			"{\"Skind\": \"physical_ap\", \"memref\": \"t\", \"offset\": 60, \"ap\": [[1, 4], [-1, 4]], "
			"\"dyn\": [{\"axis\": \"r0\", \"step\": -5}]}], \"outs\": [" BP_AP("s", 0, "[[1, 4], [1, 4]]") "]}")) },
	};

	for (size_t k = 0; k < sizeof(c) / sizeof(c[0]); k++) {
		struct nscc_err why = { { 0 } };
		struct nscc_model *model = NULL;
		const struct nscc_subgraph *sg;
		unsigned int seen = 0;

		ASSERT_EQ(0, bp_lower_text(c[k].label, c[k].text, &model, &why))
			TH_LOG("%s: %s", c[k].label, why.msg);
		sg = &model->sgs[0];
		for (uint32_t e = 0; e <= KBIN_DMA_ENGINE_MAX; e++) {
			for (uint32_t n = 0; sg->prog[e] && n < sg->prog_count[e]; n++) {
				struct kbin_compute_record r;
				const struct kbin_compute_ap *m = &r.in0;
				long long lo = 0, hi = 0, d;

				memcpy(&r, sg->prog[e] + (uint64_t)n * KBIN_PROG_RECORD_SIZE, sizeof(r));
				if (r.opcode != KBIN_COP_COPY || !(r.flags & KBIN_COMPUTE_F_DYN))
					continue;
				seen++;
				ASSERT_EQ(KBIN_DYN_IN0, r.dyn.side);
				for (int i = 0; i < 2; i++) {
					d = (long long)(m->num[i] - 1) * m->step[i];
					if (d < 0)
						lo += d;
					else
						hi += d;
				}
				ASSERT_LT(r.dyn.lo, r.dyn.hi) TH_LOG("%s", c[k].label);
				for (long long v = r.dyn.lo; v < r.dyn.hi; v++) {
					long long b0 = m->offset + v * r.dyn.step + lo * 4;
					long long b1 = m->offset + v * r.dyn.step + (hi + 1) * 4;

					EXPECT_TRUE(b0 >= 64 && b1 <= 128)
						TH_LOG("%s: v %lld of [%d, %d) reaches bytes %lld..%lld, t is 64..128",
						       c[k].label, v, r.dyn.lo, r.dyn.hi, b0, b1);
				}
			}
		}
		EXPECT_EQ(1U, seen) TH_LOG("%s", c[k].label);
		nscc_model_free(model);
	}
}

/* the trace of a compute plan names each compute slice by its operations */
TEST(trace_names_operations)
{
	struct nscc_err err = { { 0 } };
	struct prog_replay_opts o = { 0 };
	struct prog_replay *r = NULL;
	struct kbin_check_result res;
	struct kbin_view v;
	char path[512], *text = NULL;
	void *buf = NULL;
	size_t len = 0;
	FILE *fp = tmpfile();

	snprintf(path, sizeof(path), "%sbir_mlp.bir.json", BIR_EXAMPLES);
	ASSERT_NE(NULL, fp);
	ASSERT_EQ(0, nscc_bir_compile_file(path, &buf, &len, &err)) TH_LOG("%s", err.msg);
	ASSERT_EQ(0, kbin_read(buf, len, &v, &res)) TH_LOG("%s", res.err.msg);
	o.trace = fp;
	ASSERT_EQ(0, prog_replay_plan(&v, &o, &r));
	rewind(fp);
	text = bt_slurp(fp);
	ASSERT_NE(NULL, text);
	/* PE's first slice, ACT's copy out of PSUM then silu */
	EXPECT_NE(NULL, strstr(text, "\"tid\":1,\"cat\":\"compute\""));
	EXPECT_NE(NULL, strstr(text, "\"name\":\"matmult\""));
	EXPECT_NE(NULL, strstr(text, "\"name\":\"copy activate\""));
	EXPECT_NE(NULL, strstr(text, "\"name\":\"transpose\""));
	EXPECT_EQ(NULL, strstr(text, "\"name\":\"instruction\""));
	free(text);
	prog_replay_free(r);
	fclose(fp);
	free(buf);
}

/*
 * bir_prog --files EXAMPLE DIR: one run of a bundled example (seed 1)
 * for make run (scripts/run.sh): DIR/NAME.bin of every input,
 * DIR/NAME.ref.bin (the host reference of the compiled plan) and
 * DIR/NAME.interp.bin (the interpreter) of every output, and the worst
 * error between them on stdout.  Without --files: the tests.
 */
int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "--files")) {
		for (size_t k = 0; k < sizeof(bp_examples) / sizeof(bp_examples[0]); k++)
			if (!strcmp(bp_examples[k].file, argv[2]))
				return bp_diff(&bp_examples[k], 1, argv[3]) ? 1 : 0;
		fprintf(stderr, "bir_prog: %s: not an example with a program\n", argv[2]);
		return 1;
	}
	return test_harness_run(argc, argv);
}
