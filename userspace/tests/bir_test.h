/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bir_test.h - helpers shared by the BIR host tests: bundled examples and
 * small modules, golden files (BIR_UPDATE_GOLDEN=1 rewrites them),
 * attributes set from JSON text, the interpreter equivalence check on
 * random inputs (bir_interp.c, linked into every BIR test) and the
 * schedule checked by it, a pass run, timed, or refusing (one module or
 * a table of them), and runs of neuronsim-cc.  A check that is not an
 * assertion returns how many things failed, each printed as a "# " line.
 */
#ifndef BIR_TEST_H
#define BIR_TEST_H

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bir/bir.h"
#include "bir_interp.h"
#include "tl_time.h"

#define BIR_EXAMPLES	BIR_TOP "/userspace/cc/bir/examples/"
#define BIR_GOLDEN	BIR_TOP "/userspace/tests/golden/bir/"

static inline struct bir_module *bt_load(const char *example)
{
	char path[512];
	struct nscc_err err = { { 0 } };
	struct bir_module *m = NULL;

	snprintf(path, sizeof(path), "%s%s", BIR_EXAMPLES, example);
	if (bir_module_from_file(path, &m, &err))
		fprintf(stderr, "# %s: %s\n", path, err.msg);
	return m;
}

static inline struct bir_module *bt_parse(const char *text)
{
	struct nscc_err err = { { 0 } };
	struct bir_module *m = NULL;

	if (bir_module_from_string(text, strlen(text), &m, &err))
		fprintf(stderr, "# parse: %s\n", err.msg);
	return m;
}

/*
 * A trn2 module of one function "f": the allocations @allocs (the JSON
 * array's items, "" for none) and one block "b" of the instructions
 * @insts (the items too), parsed.
 */
static inline struct bir_module *bt_parse_fn(const char *allocs,
					     const char *insts)
{
	static const char fmt[] = "{\"arch\": \"trn2\", \"functions\": [{\"name\": \"f\", \"allocations\": [%s],"
		" \"blocks\": [{\"name\": \"b\", \"instructions\": [%s]}]}]}";
	size_t n = sizeof(fmt) + strlen(allocs) + strlen(insts);
	char *text = malloc(n);
	struct bir_module *m = NULL;

	if (text) {
		snprintf(text, n, fmt, allocs, insts);
		m = bt_parse(text);
	}
	free(text);
	return m;
}

static inline struct bir_module *bt_copy(const struct bir_module *m)
{
	char *s = bir_module_to_string(m);
	struct bir_module *c = s ? bt_parse(s) : NULL;

	free(s);
	return c;
}

/* 0 when @m's canonical text equals the golden file @name */
static inline int bt_golden(const struct bir_module *m, const char *name)
{
	char path[512], *s = bir_module_to_string(m), *g = NULL;
	size_t len = 0;
	FILE *fp;
	int rc = -1;

	snprintf(path, sizeof(path), "%s%s", BIR_GOLDEN, name);
	if (!s)
		return -1;
	if (getenv("BIR_UPDATE_GOLDEN")) {
		fp = fopen(path, "w");
		if (fp) {
			fputs(s, fp);
			fclose(fp);
		}
	}
	fp = fopen(path, "r");
	if (fp && getdelim(&g, &len, '\0', fp) >= 0)
		rc = strcmp(g, s) ? 1 : 0;
	if (rc)
		fprintf(stderr, "# golden %s differs (or is missing); BIR_UPDATE_GOLDEN=1 rewrites it\n",
			path);
	if (fp)
		fclose(fp);
	free(g);
	free(s);
	return rc;
}

/*
 * set attribute @key of @i to the JSON value @json (NULL: remove it).
 * Return: 0, or -1 when @json does not parse (printed).
 */
static inline int bt_set_attr(struct bir_inst *i, const char *key,
			      const char *json)
{
	struct nscc_err err = { { 0 } };
	struct bir_val v;

	if (!json) {
		bir_attr_del(i, key);
		return 0;
	}
	if (bir_val_from_string(i->mod, json, &v, &err)) {
		fprintf(stderr, "# attr '%s': %s\n", key, err.msg);
		return -1;
	}
	return bir_attr_set(i, key, &v) ? -1 : 0;
}

static inline float bt_rand(unsigned int *seed)
{
	return (float)rand_r(seed) / (float)RAND_MAX * 2.0f - 1.0f;
}

/*
 * Run @a and @b on the same random inputs (every Input location of the
 * entry function; locations named "idx" get an integer 0..3) and compare
 * every Output location byte for byte.  Return: number of differing
 * outputs, or -1 on an interpreter error (printed).
 */
static inline int bt_equiv(const struct bir_module *a,
			   const struct bir_module *b, unsigned int seed)
{
	struct nscc_err err = { { 0 } };
	struct bir_interp *ia = bir_interp_new(a, &err);
	struct bir_interp *ib = bir_interp_new(b, &err);
	const struct bir_function *f = a->fns[0];
	int diff = 0, rc = 0;

	if (!ia || !ib) {
		fprintf(stderr, "# interp: %s\n", err.msg);
		diff = -1;
		goto out;
	}
	for (uint32_t s = 0; !rc && s < f->nsets; s++) {
		const struct bir_memloc *ml = f->sets[s]->locs[0];
		uint64_t n = ml->dims[0] * (ml->dims[1] / 4);
		float *v;

		if (ml->type != BIR_MEM_INPUT)
			continue;
		v = calloc(n + 1, sizeof(float));
		for (uint64_t k = 0; v && k < n; k++)
			v[k] = strcmp(ml->name, "idx") ? bt_rand(&seed) :
			       (float)(rand_r(&seed) % 4);
		rc = !v || bir_interp_set(ia, ml->name, v, n, &err) ||
		     bir_interp_set(ib, ml->name, v, n, &err);
		free(v);
	}
	if (!rc)
		rc = bir_interp_run(ia, &err) || bir_interp_run(ib, &err);
	if (rc) {
		fprintf(stderr, "# interp: %s\n", err.msg);
		diff = -1;
		goto out;
	}
	for (uint32_t s = 0; s < f->nsets; s++) {
		const struct bir_memloc *ml = f->sets[s]->locs[0];
		uint64_t n = ml->dims[0] * (ml->dims[1] / 4);
		float *x, *y;

		if (ml->type != BIR_MEM_OUTPUT)
			continue;
		x = calloc(n + 1, 4);
		y = calloc(n + 1, 4);
		if (!x || !y || bir_interp_get(ia, ml->name, x, n, &err) ||
		    bir_interp_get(ib, ml->name, y, n, &err) ||
		    memcmp(x, y, n * 4)) {
			fprintf(stderr, "# output '%s' differs (%s)\n", ml->name,
				err.msg);
			diff++;
		}
		free(x);
		free(y);
	}
out:
	bir_interp_free(ia);
	bir_interp_free(ib);
	return diff;
}

/*
 * Run "neuronsim-cc ARGS", ARGS the shell text vprintf(@fmt, @ap) makes
 * (stderr to @errfile, or discarded when NULL), and return its stdout,
 * malloc'd; *status is the exit status.  NULL when the command is not
 * built or cannot be started.  NEURONSIM_CC is the release command's
 * path (userspace/cc/bir/build.mk).
 */
static inline char *bt_vrun_tool(const char *errfile, int *status,
				 const char *fmt, va_list ap)
{
	char args[1536], cmd[2048], *s = NULL;
	size_t n = 0;
	FILE *f;

	if (access(NEURONSIM_CC, X_OK))
		return NULL;
	vsnprintf(args, sizeof(args), fmt, ap);
	snprintf(cmd, sizeof(cmd), "'%s' %s 2>%s", NEURONSIM_CC, args,
		 errfile ? errfile : "/dev/null");
	f = popen(cmd, "r");
	if (!f)
		return NULL;
	if (getdelim(&s, &n, '\0', f) < 0) {
		free(s);
		s = strdup("");
	}
	*status = pclose(f);
	return s;
}

/* bt_vrun_tool() of the arguments printf(@fmt, ...) makes */
static inline __attribute__((format(printf, 3, 4)))
char *bt_run_tool(const char *errfile, int *status, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = bt_vrun_tool(errfile, status, fmt, ap);
	va_end(ap);
	return s;
}

/*
 * The exit status of "neuronsim-cc ARGS" (bt_run_tool(), stdout and
 * stderr dropped), or -1 when it did not run: a run that must fail is
 * EXPECT_LT(0, ...).
 */
static inline __attribute__((format(printf, 1, 2)))
int bt_tool_status(const char *fmt, ...)
{
	int status = -1;
	va_list ap;

	va_start(ap, fmt);
	free(bt_vrun_tool(NULL, &status, fmt, ap));
	va_end(ap);
	return status;
}

/* the whole text of @fp from its start (malloc'd, "" when empty) */
static inline char *bt_slurp(FILE *fp)
{
	char *s = NULL;
	size_t n = 0;

	rewind(fp);
	if (getdelim(&s, &n, '\0', fp) < 0) {
		free(s);
		return strdup("");
	}
	return s;
}

/* run the whole schedule; returns the error code, message to stderr */
static inline int bt_passes(struct bir_module *m, const struct bir_opts *o,
			    struct nscc_err *err)
{
	int rc = bir_run_passes(m, o, err);

	if (rc)
		fprintf(stderr, "# passes: %s\n", err->msg);
	return rc;
}

/*
 * bt_equiv() on the seeds 1..@nseeds.  Return: the differing outputs of
 * all seeds (each seed that differs printed), or -1 on an interpreter
 * error (printed).
 */
static inline int bt_equiv_seeds(const struct bir_module *a,
				 const struct bir_module *b,
				 unsigned int nseeds)
{
	int diff = 0;

	for (unsigned int seed = 1; seed <= nseeds; seed++) {
		int d = bt_equiv(a, b, seed);

		if (d < 0)
			return -1;
		if (d)
			fprintf(stderr, "# seed %u: %d outputs differ\n", seed, d);
		diff += d;
	}
	return diff;
}

/*
 * A copy of @before after the whole schedule with the options @o (NULL:
 * none set), its outputs those of @before on the random inputs of seeds
 * 1..@nseeds (bt_equiv_seeds()).  Return: the copy, or NULL when it
 * cannot be made, a pass fails or an output differs (printed).
 */
static inline struct bir_module *bt_scheduled(const struct bir_module *before,
					      const struct bir_opts *o,
					      unsigned int nseeds)
{
	static const struct bir_opts none;
	struct nscc_err err = { { 0 } };
	struct bir_module *m = bt_copy(before);

	if (m && !bt_passes(m, o ? o : &none, &err) &&
	    !bt_equiv_seeds(before, m, nseeds))
		return m;
	bir_module_free(m);
	return NULL;
}

/* bt_scheduled() of the bundled example @ex (loaded, then freed) */
static inline struct bir_module *bt_load_scheduled(const char *ex,
						   const struct bir_opts *o,
						   unsigned int nseeds)
{
	struct bir_module *before = bt_load(ex);
	struct bir_module *m = before ? bt_scheduled(before, o, nseeds) : NULL;

	bir_module_free(before);
	return m;
}

/* a pass of the schedule, as struct bir_pass runs it */
typedef int bt_pass_fn(struct bir_module *m, const struct bir_opts *o,
		       bool flag, struct nscc_err *err);

/*
 * Run @pass at placement @flag on @m, no options set.  Return: the
 * pass's, its message printed.
 */
static inline int bt_run(struct bir_module *m, bt_pass_fn *pass, bool flag)
{
	static const struct bir_opts none;
	struct nscc_err err = { { 0 } };
	int rc = pass(m, &none, flag, &err);

	if (rc)
		fprintf(stderr, "# %s\n", err.msg);
	return rc;
}

/*
 * Run @pass at placement @flag on @m with the options @o (NULL: none
 * set): it must fail with @rc and exactly the message @msg.  Return: how
 * many of the two did not hold, each printed.
 */
static inline int bt_refused(struct bir_module *m, const struct bir_opts *o,
			     bt_pass_fn *pass, bool flag, int rc,
			     const char *msg)
{
	static const struct bir_opts none;
	struct nscc_err err = { { 0 } };
	int got = pass(m, o ? o : &none, flag, &err), bad = 0;

	if (got != rc) {
		fprintf(stderr, "# returned %d, want %d (%s)\n", got, rc, err.msg);
		bad++;
	}
	if (strcmp(err.msg, msg)) {
		fprintf(stderr, "# message '%s'\n#    want '%s'\n", err.msg, msg);
		bad++;
	}
	return bad;
}

/* bt_refused(), and @m must read as before (its canonical text unchanged) */
static inline int bt_refused_unchanged(struct bir_module *m,
				       const struct bir_opts *o,
				       bt_pass_fn *pass, bool flag, int rc,
				       const char *msg)
{
	char *before = bir_module_to_string(m), *after;
	int bad = bt_refused(m, o, pass, flag, rc, msg);

	after = bir_module_to_string(m);
	if (!before || !after || strcmp(before, after)) {
		fprintf(stderr, "# the module changed\n");
		bad++;
	}
	free(before);
	free(after);
	return bad;
}

typedef int bt_refused_fn(struct bir_module *m, const struct bir_opts *o,
			  bt_pass_fn *pass, bool flag, int rc, const char *msg);

/*
 * A refusal of a pass (bt_refusals()): the bundled example @ex, with
 * attribute @key of instruction @inst (of whichever function holds it)
 * set to the JSON value @val (NULL: removed), is refused with exactly
 * @msg.
 */
struct bt_refusal {
	const char *ex, *inst, *key, *val, *msg;
};

/* the instruction named @name of the first function of @m that has one */
static inline struct bir_inst *bt_inst_find(const struct bir_module *m,
					    const char *name)
{
	struct bir_inst *i = NULL;

	for (uint32_t f = 0; m && !i && f < m->nfns; f++)
		i = bir_inst_find(m->fns[f], name);
	return i;
}

/*
 * Each refusal of the table @t (@n rows): @pass at placement @flag fails
 * with -EINVAL and the row's message, as @check (bt_refused() or
 * bt_refused_unchanged()) checks it.  Return: how many rows failed, each
 * printed.
 */
static inline int bt_refusals(const struct bt_refusal *t, size_t n,
			      bt_pass_fn *pass, bool flag,
			      bt_refused_fn *check)
{
	int bad = 0;

	for (size_t k = 0; k < n; k++) {
		struct bir_module *m = bt_load(t[k].ex);
		struct bir_inst *i = bt_inst_find(m, t[k].inst);

		if (!i || bt_set_attr(i, t[k].key, t[k].val) ||
		    check(m, NULL, pass, flag, -EINVAL, t[k].msg)) {
			fprintf(stderr, "# refusal %zu: %s, '%s' %s\n", k,
				t[k].ex, t[k].inst, t[k].key);
			bad++;
		}
		bir_module_free(m);
	}
	return bad;
}

/* bt_run(); *@secs is the CPU time it took (tl_cpu_s()) */
static inline int bt_timed(struct bir_module *m, bt_pass_fn *pass, bool flag,
			   double *secs)
{
	double start = tl_cpu_s();
	int rc = bt_run(m, pass, flag);

	*secs = tl_cpu_s() - start;
	return rc;
}

/*
 * 0 when @r is the evtaccel carve-out of the real trn2 NEFFs
 * (runtime_statebuffer_reservation: offset 229368 = 224 KiB - 8, 8
 * bytes, partitions 0..127), else 1 with what it is printed.
 */
static inline int bt_trn2_evtaccel(const struct kbin_sb_carveout *r)
{
	if (r->type == KBIN_CARVEOUT_EVTACCEL && r->offset == 224 * 1024 - 8 &&
	    r->size == 8 && r->start_partition == 0 && r->num_partitions == 128)
		return 0;
	fprintf(stderr, "# carve-out type %u offset %u size %u partitions %u+%u, want evtaccel (%u) 229368, 8, 0+128\n",
		r->type, r->offset, r->size, r->start_partition,
		r->num_partitions, KBIN_CARVEOUT_EVTACCEL);
	return 1;
}

#endif /* BIR_TEST_H */
