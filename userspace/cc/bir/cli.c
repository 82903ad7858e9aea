// SPDX-License-Identifier: GPL-2.0
/*
 * cli.c - the entry points the neuronsim-cc command calls: compile
 * (BIR JSON -> passes -> the compiler's model -> KBIN, or with --neff a
 * NEFF of the same model) and passes (dump the module after a pass).  Kept apart from lower.c so that programs
 * using only the IR and passes do not link the compile pipeline (they
 * read only the compiler's dtype table, model.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "bir.h"
#include "kbin_gen.h"

static int lfail(struct nscc_err *err, int rc, const char *fmt,
		 const char *a, const char *b)
{
	snprintf(err->msg, sizeof(err->msg), fmt, a, b);
	return rc;
}

/* the KBIN target of an arch level: a generation plans may target, or 0 */
static uint32_t target_gen(int arch_level)
{
	const struct kbin_gen *g = kbin_gen_target(bir_arch_gen(arch_level));

	return g ? g->gen : 0;
}

/* the final module -> lowering -> the model (*@out), or NULL on an error */
static int lower(const struct bir_module *m, struct nscc_model **out,
		 struct nscc_err *why, struct nscc_err *err)
{
	struct nscc_model *model = NULL;
	char gens[KBIN_GEN_LIST_MAX];
	int rc = 0;

	*out = NULL;
	why->msg[0] = 0;
	if (!target_gen(m->arch_level))
		rc = lfail(err, -EINVAL, "lowering: arch of '%s' has no KBIN target (gen %s only)",
			   "the module", kbin_gen_list(gens, sizeof(gens), KBIN_GEN_LIST_NUMBERS));
	if (!rc && !(model = nscc_model_new(target_gen(m->arch_level))))
		rc = -ENOMEM;
	if (!rc)
		rc = bir_lower_model(m, model, err);
	if (!rc) {
		/* the engine program, or a plan without one as before */
		rc = bir_lower_prog(m, model, why);
		if (rc < 0)
			snprintf(err->msg, sizeof(err->msg), "%s", why->msg);
		if (rc == 1)
			rc = 0;
	}
	if (rc) {
		nscc_model_free(model);
		return rc;
	}
	*out = model;
	return 0;
}

/*
 * The NEFF of @model (@plan, @plen its plan) into @buf: written, then
 * read back and compiled as a loader would, and held to @plan byte for
 * byte, so a NEFF that would not give the model's plan is never handed
 * out (Documentation/compiler.rst, "Writing a NEFF").
 */
static int model_neff(const struct nscc_model *model, const void *plan,
		      size_t plen, const struct nscc_neff_opts *nopts,
		      void **buf, size_t *len, struct nscc_err *err)
{
	struct nscc_neff_writer *w = nscc_neff_writer_new();
	void *back = NULL;
	size_t blen = 0;
	int rc = w ? nscc_model_to_neff(model, w, err) : -ENOMEM;

	if (!rc) {
		rc = nscc_neff_writer_finish(w, nopts, buf, len);
		if (rc == -EIO)
			snprintf(err->msg, sizeof(err->msg), "NEFF writer failed to write the archive");
	}
	if (!rc) {
		rc = nscc_compile_neff_mem(*buf, *len, NULL, &back, &blen, err);
		if (rc) {
			char was[NSCC_ERR_MAX];

			snprintf(was, sizeof(was), "%s", err->msg);
			snprintf(err->msg, sizeof(err->msg),
				 "the written NEFF does not compile: %.440s", was);
		}
	}
	if (!rc && (blen != plen || memcmp(back, plan, plen)))
		rc = lfail(err, -EPROTO, "the written NEFF compiles into another plan than the model's (%s)%s",
			   "a NEFF writer bug", "");
	if (rc) {
		free(*buf);
		*buf = NULL;
		*len = 0;
	}
	free(back);
	nscc_neff_writer_free(w);
	return rc;
}

/*
 * The final module @m -> lowering -> the plan (@nopts NULL) or the NEFF
 * of the same model (after the model compiles, so a model the compiler
 * refuses gets the compiler's message).
 */
static int compile_module(const struct bir_module *m,
			  const struct nscc_neff_opts *nopts, void **buf,
			  size_t *len, struct nscc_err *why,
			  struct nscc_err *err, struct nscc_prog_names *names)
{
	struct nscc_model *model = NULL;
	void *plan = NULL;
	size_t plen = 0;
	int rc;

	*buf = NULL;
	*len = 0;
	rc = lower(m, &model, why, err);
	if (!rc)
		rc = nscc_compile_model(model, &plan, &plen, err);
	if (!rc && nopts) {
		rc = model_neff(model, plan, plen, nopts, buf, len, err);
		free(plan);
	} else if (!rc) {
		*buf = plan;
		*len = plen;
	}
	if (rc == -ENOMEM && !err->msg[0])
		snprintf(err->msg, sizeof(err->msg), "out of memory");
	if (!rc && names && model->num_sgs)
		for (uint32_t e = 0; e < KBIN_PROG_ENGINES; e++) {
			names->name[e] = model->sgs[0].prog_names[e + 1];
			names->num[e] = names->name[e] ? model->sgs[0].prog_count[e + 1] : 0;
			model->sgs[0].prog_names[e + 1] = NULL;
		}
	nscc_model_free(model);
	return rc;
}

int nscc_bir_compile_module(const struct bir_module *m, void **buf,
			    size_t *len, struct nscc_err *why,
			    struct nscc_err *err)
{
	return compile_module(m, NULL, buf, len, why, err, NULL);
}

int nscc_bir_neff_module(const struct bir_module *m,
			 const struct nscc_neff_opts *nopts, void **buf,
			 size_t *len, struct nscc_err *why,
			 struct nscc_err *err)
{
	static const struct nscc_neff_opts none;

	return compile_module(m, nopts ? nopts : &none, buf, len, why, err, NULL);
}

static int compile_file(const char *path, const struct bir_opts *opts,
			const struct nscc_neff_opts *nopts, void **buf,
			size_t *len, struct nscc_err *err,
			struct nscc_prog_names *names)
{
	struct nscc_err why = { { 0 } };
	struct bir_opts o = *opts;
	struct bir_module *m = NULL;
	char gens[KBIN_GEN_LIST_MAX];
	int rc;

	o.dump_after = NULL;
	o.dump = NULL;
	*buf = NULL;
	*len = 0;
	rc = bir_module_from_file(path, &m, err);
	if (!rc)
		rc = bir_run_passes(m, &o, err);
	if (!rc && !target_gen(m->arch_level))
		rc = lfail(err, -EINVAL, "lowering: arch of '%s' has no KBIN target (gen %s only)",
			   path, kbin_gen_list(gens, sizeof(gens), KBIN_GEN_LIST_NUMBERS));
	if (!rc)
		rc = compile_module(m, nopts, buf, len, &why, err, names);
	if (!rc && why.msg[0] && opts->warn)
		fprintf(opts->warn, "%snote: %s; the plan has no engine program\n",
			opts->warn_prefix ? opts->warn_prefix : "", why.msg);
	if (rc == -ENOMEM && !err->msg[0])
		snprintf(err->msg, sizeof(err->msg), "out of memory");
	bir_module_free(m);
	return rc;
}

int nscc_bir_compile_file_opts(const char *path, const struct bir_opts *opts,
			       void **buf, size_t *len, struct nscc_err *err)
{
	return compile_file(path, opts, NULL, buf, len, err, NULL);
}

int nscc_bir_neff_file_opts(const char *path, const struct bir_opts *opts,
			    const struct nscc_neff_opts *nopts, void **buf,
			    size_t *len, struct nscc_err *err)
{
	static const struct nscc_neff_opts none;

	return compile_file(path, opts, nopts ? nopts : &none, buf, len, err, NULL);
}

int nscc_bir_compile_file_names(const char *path, void **buf, size_t *len,
				struct nscc_prog_names *names,
				struct nscc_err *err)
{
	const struct bir_opts o = { 0 };

	memset(names, 0, sizeof(*names));
	return compile_file(path, &o, NULL, buf, len, err, names);
}

void nscc_prog_names_free(struct nscc_prog_names *names)
{
	for (uint32_t e = 0; e < KBIN_PROG_ENGINES; e++) {
		for (uint32_t i = 0; names->name[e] && i < names->num[e]; i++)
			free(names->name[e][i]);
		free(names->name[e]);
		names->name[e] = NULL;
		names->num[e] = 0;
	}
}

int nscc_bir_compile_file(const char *path, void **buf, size_t *len,
			  struct nscc_err *err)
{
	const struct bir_opts o = { 0 };

	return nscc_bir_compile_file_opts(path, &o, buf, len, err);
}

int nscc_bir_passes_file_opts(const char *path, const struct bir_opts *opts,
			      FILE *out, struct nscc_err *err)
{
	struct bir_opts o = *opts;
	struct bir_module *m = NULL;
	int rc = bir_module_from_file(path, &m, err);

	o.dump = out;
	if (!rc)
		rc = bir_run_passes(m, &o, err);
	if (!rc && !o.dump_after) {
		char *s = bir_module_to_string(m);

		if (!s)
			rc = -ENOMEM;
		else
			fputs(s, out);
		free(s);
	}
	bir_module_free(m);
	return rc;
}

int nscc_bir_passes_file(const char *path, const char *dump_after, FILE *out,
			 FILE *log, struct nscc_err *err)
{
	const struct bir_opts o = { .log = log, .dump_after = dump_after };

	return nscc_bir_passes_file_opts(path, &o, out, err);
}
