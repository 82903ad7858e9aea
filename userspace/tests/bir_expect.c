// SPDX-License-Identifier: GPL-2.0
/*
 * bir_expect - the inputs and expected outputs of a BIR model's run on
 * the device, for a test that compares bytes (Documentation/
 * compiler-passes.rst, "Reference interpreter"):
 *
 *   bir_expect MODEL.bir.json IN_DIR EXPECT_DIR
 *   bir_expect --gen SEED IN_DIR EXPECT_DIR
 *
 * The module (a BIR JSON file, or the lowerable random module of SEED,
 * testlib/bir_gen.h, with the pass options its seed chose) is compiled
 * as neuronsim-cc compile does: the backend passes, the lowering and
 * nscc_compile_model(), through nscc_bir_compile_module(); the plan must
 * have an engine program and one subgraph.  Every MR_INPUT var of the
 * plan gets seeded values (float32 in [-2, 2]; a one-element input, a
 * branch's register or a gather's index perhaps, one of -0.75, 1.25,
 * -0.5, 2.5), cast to the var's dtype.  The reference interpreter runs
 * the module before the passes on them, the plan's host reference
 * (prog_ref_run() on a memory image at the flat host addresses of
 * prog_ref.h) runs the plan; every MR_OUTPUT var must agree with the
 * interpreter within the tolerance of testlib/bir_tol.h (byte-identical
 * unless an exp-based activation reaches it), or the program names the
 * output, the element and both values and exits 1.  Then it writes
 * IN_DIR/NAME, the input bytes, and EXPECT_DIR/NAME, the plan's output
 * bytes, for every var NAME (a '/' in a name written as '_'); the
 * device must produce those bytes exactly.  One line on stdout says
 * what it wrote.  The inputs are seeded by the model's name (the file's
 * without directory and .bir.json, or genSEED), so a run repeats.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "bir/bir.h"
#include "bir_gen.h"
#include "bir_interp.h"
#include "bir_tol.h"
#include "kbin_cast.h"
#include "kbin_dma.h"
#include "kbin_gen.h"
#include "kbin_reader.h"
#include "neuronsim_cc.h"
#include "prog_ref.h"
#include "tl_rng.h"

/* the value of a one-element input (check_compute() of selftests/bir_test.c) */
static const float scalar_in[] = { -0.75f, 1.25f, -0.5f, 2.5f };

struct bx {
	char name[256];			/* the model's, for messages */
	struct bir_module *pre, *fin;	/* before and after the passes */
	void *plan;
	size_t plan_len;
	struct kbin_view v;
	struct dma_ref_mem *img;
	struct bir_interp *it;
	/* the files to write: each var's bytes */
	uint32_t n;
	struct bx_file {
		const char *var;
		bool output;
		uint8_t *bytes;
		uint64_t size;
	} *files;
};

static int fail(const struct bx *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fail(const struct bx *b, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "bir_expect: %s: ", b->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 1;
}

/* the FNV-1a hash of @s: the input seed of a model */
static uint64_t name_seed(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	while (*s)
		h = (h ^ (uint8_t)*s++) * 0x100000001b3ULL;
	return h ? h : TL_RNG_SEED;
}

/* read @text (or the file @path) twice, run the passes on the second copy */
static int load(struct bx *b, const char *path, const char *text,
		const struct bir_opts *o)
{
	struct nscc_err err = { { 0 } }, why = { { 0 } };
	struct kbin_check_result res;
	int rc;

	rc = text ? bir_module_from_string(text, strlen(text), &b->pre, &err) :
		    bir_module_from_file(path, &b->pre, &err);
	if (!rc)
		rc = text ? bir_module_from_string(text, strlen(text), &b->fin, &err) :
			    bir_module_from_file(path, &b->fin, &err);
	if (rc)
		return fail(b, "reader: %s", err.msg);
	if (bir_run_passes(b->fin, o, &err))
		return fail(b, "passes: %s", err.msg);
	if (nscc_bir_compile_module(b->fin, &b->plan, &b->plan_len, &why, &err))
		return fail(b, "compile: %s", err.msg);
	if (why.msg[0])
		return fail(b, "the plan has no engine program: %s", why.msg);
	if (kbin_read(b->plan, b->plan_len, &b->v, &res) || !b->v.prog)
		return fail(b, "the plan %s", b->v.prog ? "does not read back" :
			    "has no program");
	if (b->v.num_subgraphs != 1)
		return fail(b, "%u subgraphs, not one", b->v.num_subgraphs);
	return 0;
}

/* the element type of record @m: its dtype, float32 when it names none */
static unsigned int rec_dtype(const struct kbin_mem_ref *m)
{
	char dt[KBIN_DTYPE_MAX + 1] = { 0 };
	unsigned int id;

	memcpy(dt, m->dtype, KBIN_DTYPE_MAX);
	id = dt[0] ? kbin_dma_dtype_from_name(dt) : KBIN_DMA_DTYPE_FLOAT32;
	return kbin_cast_ok(id, KBIN_DMA_DTYPE_FLOAT32) ? id : 0;
}

/* seeded values of input @m, its bytes in @f, the image and the interpreter */
static int make_input(struct bx *b, const struct kbin_mem_ref *m,
		      struct bx_file *f, unsigned int dt, uint64_t *seed)
{
	struct nscc_err err = { { 0 } };
	uint32_t sz = kbin_dma_dtype(dt)->size;
	uint64_t n = m->size / sz;
	float *x = calloc(n + 1, sizeof(float));

	f->bytes = malloc(m->size + 1);
	if (!x || !f->bytes) {
		free(x);
		return fail(b, "out of memory");
	}
	for (uint64_t k = 0; k < n; k++)
		x[k] = (float)((int64_t)(tl_rng(seed) % 4001) - 2000) / 1000.0f;
	if (n == 1)
		x[0] = scalar_in[tl_rng(seed) % 4];
	/* both sides see the values the var's dtype holds */
	kbin_cast(KBIN_DMA_DTYPE_FLOAT32, dt, x, f->bytes, (__u32)n);
	kbin_cast(dt, KBIN_DMA_DTYPE_FLOAT32, f->bytes, x, (__u32)n);
	if (dma_ref_mem_write(b->img, prog_ref_flat_dram(m->var_id), f->bytes,
			      m->size) ||
	    bir_interp_set(b->it, f->var, x, n, &err)) {
		free(x);
		return fail(b, "input '%s': %s", f->var,
			    err.msg[0] ? err.msg : "out of memory");
	}
	free(x);
	return 0;
}

/* the plan's bytes of output @m, checked against the interpreter's values */
static int check_output(struct bx *b, const struct kbin_mem_ref *m,
			struct bx_file *f, unsigned int dt,
			struct bir_tol_worst *worst, uint32_t *inexact)
{
	struct nscc_err err = { { 0 } };
	uint32_t sz = kbin_dma_dtype(dt)->size;
	uint64_t n = m->size / sz, first = 0, nbad;
	float *got = calloc(n + 1, sizeof(float));
	float *want = calloc(n + 1, sizeof(float));
	struct bir_tol tol;
	int rc = 0;

	f->bytes = malloc(m->size + 1);
	if (!got || !want || !f->bytes) {
		rc = fail(b, "out of memory");
		goto out;
	}
	dma_ref_mem_read(b->img, prog_ref_flat_dram(m->var_id), f->bytes, m->size);
	kbin_cast(dt, KBIN_DMA_DTYPE_FLOAT32, f->bytes, got, (__u32)n);
	if (bir_interp_get(b->it, f->var, want, n, &err)) {
		rc = fail(b, "output '%s': interpreter: %s", f->var, err.msg);
		goto out;
	}
	bir_tol_output(b->fin, f->var, &tol);
	*inexact += !tol.exact;
	nbad = bir_tol_cmp(&tol, got, want, n, worst, &first);
	if (nbad)
		rc = fail(b, "output '%s' element %llu: plan %.9g (%a), interpreter %.9g (%a); %llu of %llu elements out of tolerance (%s)",
			  f->var, (unsigned long long)first, got[first],
			  got[first], want[first], want[first],
			  (unsigned long long)nbad, (unsigned long long)n,
			  tol.why);
out:
	free(got);
	free(want);
	return rc;
}

/* run both sides and compare; b->files gets every var's bytes */
static int run(struct bx *b)
{
	const struct kbin_mem_ref_set *set = kbin_view_set(&b->v, 0);
	struct nscc_err err = { { 0 } };
	struct bir_tol_worst worst = { 0 };
	struct prog_ref_stats st = { 0 };
	uint64_t seed = name_seed(b->name);
	uint32_t inexact = 0, nin = 0;
	int rc;

	b->img = dma_ref_mem_new();
	b->it = bir_interp_new(b->pre, &err);
	b->files = calloc(set->nmem + 1, sizeof(*b->files));
	if (!b->img || !b->it || !b->files)
		return fail(b, "%s", err.msg[0] ? err.msg : "out of memory");
	/* inputs first, then outputs: the rng's order is the records' */
	for (int out = 0; out < 2; out++) {
		for (uint32_t i = 0; i < set->nmem; i++) {
			const struct kbin_mem_ref *m = &set->mem[i];
			struct bx_file *f = &b->files[b->n];
			unsigned int dt = rec_dtype(m);

			if (m->mr_type != (out ? KBIN_MR_OUTPUT : KBIN_MR_INPUT))
				continue;
			f->var = kbin_view_str(&b->v, m->name);
			f->output = out;
			f->size = m->size;
			if (!f->var || !f->var[0])
				return fail(b, "var #%u has no name", m->var_id);
			if (!dt || m->size % kbin_dma_dtype(dt)->size ||
			    m->size / kbin_dma_dtype(dt)->size > UINT32_MAX)
				return fail(b, "var '%s': dtype '%.*s' of %llu bytes", f->var,
					    KBIN_DTYPE_MAX, m->dtype,
					    (unsigned long long)m->size);
			b->n++;
			if (!out) {
				nin++;
				if (make_input(b, m, f, dt, &seed))
					return 1;
				continue;
			}
			if (b->n == nin + 1) {
				/* every input is set: run both sides */
				if (bir_interp_run(b->it, &err))
					return fail(b, "interpreter: %s", err.msg);
				rc = prog_ref_run(&b->v, b->img, prog_ref_flat_addr,
						  (void *)kbin_gen_target(b->v.hdr->target_gen),
						  &st);
				if (rc || !st.finished)
					return fail(b, "host reference: %s, finished %d (sg %u engine %u index %u)",
						    strerror(rc ? -rc : EINVAL),
						    st.finished, st.fail_sg,
						    st.fail_engine, st.fail_index);
			}
			if (check_output(b, m, f, dt, &worst, &inexact))
				return 1;
		}
	}
	if (b->n == nin)
		return fail(b, "the plan has no MR_OUTPUT var");
	printf("%s: %u inputs, %u outputs (%u byte-identical, %u within tolerance: worst abs %.3g rel %.3g, %u ULP); %llu compute instructions\n",
	       b->name, nin, b->n - nin, b->n - nin - inexact, inexact,
	       worst.abs, worst.rel, worst.ulp, (unsigned long long)st.compute);
	return 0;
}

/* @dir, made if missing */
static int make_dir(const struct bx *b, const char *dir)
{
	if (mkdir(dir, 0777) && errno != EEXIST)
		return fail(b, "%s: %s", dir, strerror(errno));
	return 0;
}

/* DIR/NAME of every var, inputs in @in, outputs in @expect */
static int write_files(const struct bx *b, const char *in, const char *expect)
{
	if (make_dir(b, in) || make_dir(b, expect))
		return 1;
	for (uint32_t k = 0; k < b->n; k++) {
		const struct bx_file *f = &b->files[k];
		char path[4096], file[256];
		size_t len = strlen(f->var);
		int rc;

		if (len >= sizeof(file) || !strcmp(f->var, ".") ||
		    !strcmp(f->var, ".."))
			return fail(b, "var '%s': not a file name", f->var);
		for (size_t c = 0; c <= len; c++)
			file[c] = f->var[c] == '/' ? '_' : f->var[c];
		snprintf(path, sizeof(path), "%s/%s", f->output ? expect : in,
			 file);
		rc = nscc_write_file(path, f->bytes, f->size);
		if (rc)
			return fail(b, "%s: %s", path, strerror(-rc));
	}
	return 0;
}

static void bx_free(struct bx *b)
{
	for (uint32_t k = 0; b->files && k < b->n; k++)
		free(b->files[k].bytes);
	free(b->files);
	bir_interp_free(b->it);
	dma_ref_mem_free(b->img);
	free(b->plan);
	bir_module_free(b->pre);
	bir_module_free(b->fin);
}

static int usage(void)
{
	fprintf(stderr,
		"usage: bir_expect MODEL.bir.json IN_DIR EXPECT_DIR\n"
		"       bir_expect --gen SEED IN_DIR EXPECT_DIR\n"
		"Write IN_DIR/NAME (seeded input bytes) and EXPECT_DIR/NAME (the\n"
		"plan's output bytes, checked against the reference interpreter)\n"
		"for every MR_INPUT and MR_OUTPUT var NAME of the module's plan.\n");
	return 2;
}

int main(int argc, char **argv)
{
	struct bx b = { 0 };
	struct bir_opts o = { 0 };
	struct bir_gen *g = NULL;
	char *text = NULL;
	int rc;

	if (argc != 4 && argc != 5)
		return usage();
	if (argc == 5) {
		unsigned long long seed;
		char *end;

		if (strcmp(argv[1], "--gen"))
			return usage();
		errno = 0;
		seed = strtoull(argv[2], &end, 0);
		if (errno || end == argv[2] || *end)
			return usage();
		snprintf(b.name, sizeof(b.name), "gen%llu", seed);
		g = bir_gen_new_flags(seed, BIR_GEN_F_LOWERABLE);
		text = g ? bir_gen_json(g) : NULL;
		if (!text) {
			bir_gen_free(g);
			return fail(&b, "out of memory");
		}
		bir_gen_opts(g, &o);
	} else {
		const char *base = strrchr(argv[1], '/');
		size_t len;

		if (argv[1][0] == '-')
			return usage();
		snprintf(b.name, sizeof(b.name), "%s", base ? base + 1 : argv[1]);
		len = strlen(b.name);
		if (len > 9 && !strcmp(b.name + len - 9, ".bir.json"))
			b.name[len - 9] = 0;
	}
	rc = load(&b, argv[argc - 3], text, &o);
	if (!rc)
		rc = run(&b);
	if (!rc)
		rc = write_files(&b, argv[argc - 2], argv[argc - 1]);
	bx_free(&b);
	free(text);
	bir_gen_free(g);
	return rc;
}
