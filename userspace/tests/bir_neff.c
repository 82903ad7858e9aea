// SPDX-License-Identifier: GPL-2.0
/*
 * bir_neff.c - BIR models through the NEFF door (Documentation/
 * compiler.rst, "Writing a NEFF"): the NEFF nscc_model_to_neff() writes
 * of a lowered BIR model compiles, through the NEFF reader, into the
 * plan the model compiles into directly, byte for byte - for every
 * bundled example and the random modules of bir_gen_test; every kind of
 * var goes through def.json and back; the program marker makes the
 * plan's programs compute ones, so a corrupted compute record is refused
 * (KBIN_ERR_PROG_COMPUTE), and without it they are opaque; what a
 * def.json cannot hold is refused; neuronsim-cc compile --neff writes
 * such a NEFF and neuronsim-cc info reads it.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include "kselftest_harness.h"
#include "bir_test.h"
#include "bir_gen.h"
#include "kbin_reader.h"
#include "kbin_names.h"
#include "nsim_file.h"

/* the plan a NEFF image compiles into: open, def.json front end, compile */
static int neff_plan(const void *neff, size_t len, void **buf, size_t *plen,
		     struct nscc_err *err)
{
	return nscc_compile_neff_mem(neff, len, NULL, buf, plen, err);
}

/* the NEFF of @m as an image (nscc_model_to_neff(), default header) */
static int model_neff(const struct nscc_model *m, void **buf, size_t *len,
		      struct nscc_err *err)
{
	struct nscc_neff_writer *w = nscc_neff_writer_new();
	int ret = w ? nscc_model_to_neff(m, w, err) : -ENOMEM;

	if (!ret)
		ret = nscc_neff_writer_finish(w, NULL, buf, len);
	nscc_neff_writer_free(w);
	return ret;
}

/*
 * 0 when the plan of @m equals the plan of its NEFF byte for byte; else
 * what differs, printed.  *@compute: the NEFF plan's program section
 * says KBIN_PROG_F_COMPUTE.
 */
static int same_plan(const char *what, const struct bir_module *m,
		     int *compute)
{
	struct nscc_err err = { { 0 } }, why = { { 0 } };
	void *k1 = NULL, *neff = NULL, *k2 = NULL;
	size_t l1 = 0, nl = 0, l2 = 0;
	struct kbin_check_result res;
	struct kbin_view v;
	int bad = 0;

	*compute = 0;
	if (nscc_bir_compile_module(m, &k1, &l1, &why, &err)) {
		fprintf(stderr, "# %s: compile: %s\n", what, err.msg);
		return 1;
	}
	if (nscc_bir_neff_module(m, NULL, &neff, &nl, &why, &err) ||
	    neff_plan(neff, nl, &k2, &l2, &err)) {
		fprintf(stderr, "# %s: through the NEFF: %s\n", what, err.msg);
		bad = 1;
	} else if (l1 != l2 || memcmp(k1, k2, l1)) {
		size_t i = 0;

		while (i < l1 && i < l2 && ((uint8_t *)k1)[i] == ((uint8_t *)k2)[i])
			i++;
		fprintf(stderr, "# %s: plans differ: %zu and %zu bytes, first at byte %zu\n",
			what, l1, l2, i);
		bad = 1;
	} else if (!kbin_read(k2, l2, &v, &res)) {
		*compute = v.prog && (v.prog->flags & KBIN_PROG_F_COMPUTE);
	}
	free(k1);
	free(k2);
	free(neff);
	return bad;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

TEST(examples_same_plan)
{
	char *names[64];
	size_t n = 0, k;
	struct dirent *e;
	DIR *d = opendir(BIR_EXAMPLES);
	int compute;

	ASSERT_NE(NULL, d);
	while ((e = readdir(d)) && n < 64) {
		size_t l = strlen(e->d_name);

		if (l > 9 && !strcmp(e->d_name + l - 9, ".bir.json"))
			names[n++] = strdup(e->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof(*names), cmp_str);
	/* the seven bundled examples */
	EXPECT_LE(7U, n);
	for (k = 0; k < n; k++) {
		struct bir_module *m = bt_load(names[k]);
		struct nscc_err err = { { 0 } };

		EXPECT_NE(NULL, m);
		if (m) {
			EXPECT_EQ(0, bir_run_passes(m, &(struct bir_opts){ 0 }, &err))
				TH_LOG("%s: %s", names[k], err.msg);
			EXPECT_EQ(0, same_plan(names[k], m, &compute));
			/* every example lowers to a program: the marker makes it compute */
			EXPECT_EQ(1, compute) TH_LOG("%s", names[k]);
		}
		bir_module_free(m);
		free(names[k]);
	}
}

/* the random modules: bir_gen_test's lowered seeds and its pass seeds */
TEST(random_modules_same_plan)
{
	static const struct { unsigned int flags; unsigned long long n; } runs[] = {
		{ BIR_GEN_F_LOWERABLE, 60 }, { 0, 100 },
	};
	unsigned int compared = 0, with_prog = 0, refused = 0;

	for (size_t r = 0; r < sizeof(runs) / sizeof(runs[0]); r++) {
		for (unsigned long long seed = 1; seed <= runs[r].n; seed++) {
			struct bir_gen *g = bir_gen_new_flags(seed, runs[r].flags);
			struct nscc_err err = { { 0 } }, why = { { 0 } };
			char *text = g ? bir_gen_json(g) : NULL;
			struct bir_module *m = NULL;
			void *buf = NULL;
			size_t len;
			char what[64];
			struct bir_opts o;
			int compute;

			ASSERT_NE(NULL, text);
			bir_gen_opts(g, &o);
			snprintf(what, sizeof(what), "seed %llu flags %u", seed,
				 runs[r].flags);
			EXPECT_EQ(0, bir_module_from_string(text, strlen(text), &m, &err));
			if (m && !bir_run_passes(m, &o, &err)) {
				if (nscc_bir_compile_module(m, &buf, &len, &why, &err)) {
					/* the NEFF writer refuses it with the compiler's message */
					char msg[NSCC_ERR_MAX];

					snprintf(msg, sizeof(msg), "%s", err.msg);
					refused++;
					EXPECT_NE(0, nscc_bir_neff_module(m, NULL, &buf, &len,
									  &why, &err));
					EXPECT_STREQ(msg, err.msg);
				} else {
					free(buf);
					buf = NULL;
					compared++;
					EXPECT_EQ(0, same_plan(what, m, &compute));
					with_prog += compute;
				}
			}
			free(buf);
			bir_module_free(m);
			free(text);
			bir_gen_free(g);
		}
	}
	TH_LOG("%u plans compared (%u with a compute program), %u refused by the compiler",
	       compared, with_prog, refused);
	EXPECT_LE(60U, compared);
	EXPECT_LE(60U, with_prog);
}

/* the lowered model of example @name, after the passes */
static struct nscc_model *lowered(const char *name)
{
	struct nscc_err err = { { 0 } }, why = { { 0 } };
	struct bir_module *m = bt_load(name);
	struct nscc_model *model = nscc_model_new(KBIN_TARGET_TRN2);

	if (!m || !model || bir_run_passes(m, &(struct bir_opts){ 0 }, &err) ||
	    bir_lower_model(m, model, &err) || bir_lower_prog(m, model, &why)) {
		fprintf(stderr, "# %s: %s%s\n", name, err.msg, why.msg);
		nscc_model_free(model);
		model = NULL;
	}
	bir_module_free(m);
	return model;
}

/*
 * The NEFF of @model with the record of the first compute instruction of
 * its PE stream corrupted (its out operand's space byte 9: neither SBUF
 * nor PSUM, Documentation/compute.rst), as an image.
 */
static int corrupt_neff(const struct nscc_model *model, void **buf,
			size_t *len, struct nscc_err *err)
{
	const struct nscc_subgraph *sg = &model->sgs[0];
	uint32_t n = sg->prog_count[KBIN_DMA_ENGINE_PE], k;
	struct nscc_neff_writer *w = nscc_neff_writer_new();
	uint8_t *rec = malloc((size_t)n * KBIN_PROG_RECORD_SIZE + 1);
	int ret = w && rec ? nscc_model_to_neff(model, w, err) : -ENOMEM;

	if (!ret) {
		memcpy(rec, sg->prog[KBIN_DMA_ENGINE_PE],
		       (size_t)n * KBIN_PROG_RECORD_SIZE);
		for (k = 0; k < n; k++)
			if (rec[k * KBIN_PROG_RECORD_SIZE] >= 0xE0 &&
			    rec[k * KBIN_PROG_RECORD_SIZE] <= 0xE9)
				break;
		ret = k < n ? 0 : -ENOENT;
	}
	if (!ret) {
		rec[k * KBIN_PROG_RECORD_SIZE + 16 + 4] = 9;
		ret = nscc_neff_writer_add(w, "sg00/PE.bin", rec,
					   (size_t)n * KBIN_PROG_RECORD_SIZE);
	}
	if (!ret)
		ret = nscc_neff_writer_finish(w, NULL, buf, len);
	nscc_neff_writer_free(w);
	free(rec);
	return ret;
}

TEST(marker_makes_compute_checks)
{
	struct nscc_model *model = lowered("bir_mlp.bir.json");
	struct nscc_err err = { { 0 } };
	struct kbin_check_result res;
	void *neff = NULL, *plan = NULL;
	size_t nl = 0, pl = 0;
	struct kbin_view v;
	int ret;

	ASSERT_NE(NULL, model);
	ASSERT_EQ(KBIN_PROG_F_COMPUTE, model->prog_flags);
	/* with the marker: the compiler's checker refuses the record */
	ASSERT_EQ(0, corrupt_neff(model, &neff, &nl, &err)) TH_LOG("%s", err.msg);
	ret = neff_plan(neff, nl, &plan, &pl, &err);
	EXPECT_EQ(-EINVAL, ret);
	EXPECT_EQ(NULL, plan);
	EXPECT_NE(NULL, strstr(err.msg, kbin_reason_str(KBIN_ERR_PROG_COMPUTE)))
		TH_LOG("%s", err.msg);
	EXPECT_NE(NULL, strstr(err.msg, "sg00: sg00/PE.bin (def.json 'pe_instr'): instruction "))
		TH_LOG("%s", err.msg);
	free(neff);
	free(plan);
	neff = plan = NULL;

	/* without it (as a real NEFF): the same records are opaque */
	model->prog_flags = 0;
	ASSERT_EQ(0, corrupt_neff(model, &neff, &nl, &err)) TH_LOG("%s", err.msg);
	EXPECT_EQ(0, neff_plan(neff, nl, &plan, &pl, &err)) TH_LOG("%s", err.msg);
	ASSERT_EQ(0, kbin_read(plan, pl, &v, &res)) TH_LOG("%s", res.err.msg);
	ASSERT_NE(NULL, v.prog);
	EXPECT_EQ(0U, v.prog->flags);
	free(neff);
	free(plan);
	nscc_model_free(model);
}

/* neff.json's marker with another value than "compute": refused */
TEST(marker_other_value_refused)
{
	struct nscc_model *model = lowered("bir_activation.bir.json");
	struct nscc_neff_writer *w = nscc_neff_writer_new();
	struct nscc_err err = { { 0 } };
	const void *text;
	void *neff = NULL, *plan = NULL;
	size_t nl = 0, pl = 0, tl;
	struct nscc_neff *n = NULL;
	char *nj, *at;

	ASSERT_NE(NULL, model);
	ASSERT_NE(NULL, w);
	ASSERT_EQ(0, nscc_model_to_neff(model, w, &err)) TH_LOG("%s", err.msg);
	ASSERT_EQ(0, nscc_neff_writer_finish(w, NULL, &neff, &nl));
	ASSERT_EQ(0, nscc_neff_open_mem(neff, nl, &n, &err)) TH_LOG("%s", err.msg);
	EXPECT_EQ(KBIN_PROG_F_COMPUTE, n->prog_flags);
	ASSERT_EQ(0, nscc_neff_member(n, "neff.json", &text, &tl, &err));
	nj = strndup(text, tl);
	nscc_neff_free(n);
	free(neff);
	ASSERT_NE(NULL, nj);
	at = strstr(nj, "\"" NSCC_NEFF_MARKER_COMPUTE "\"");
	ASSERT_NE(NULL, at);
	at[1] = 'C';		/* "Compute" */
	ASSERT_EQ(0, nscc_neff_writer_add_str(w, "neff.json", nj));
	ASSERT_EQ(0, nscc_neff_writer_finish(w, NULL, &neff, &nl));
	EXPECT_EQ(-EINVAL, neff_plan(neff, nl, &plan, &pl, &err));
	EXPECT_STREQ("neff.json: field '" NSCC_NEFF_MARKER_KEY "' is 'Compute', not \"compute\"",
		     err.msg);
	free(neff);
	free(plan);
	free(nj);
	nscc_neff_writer_free(w);
	nscc_model_free(model);
}

/*
 * Every kind of var, with the fields of its def.json entry, a payload, a
 * carve-out, queues of every type with a dynamic one and a fabric path,
 * blocks with and without comments, copy, cast and transpose
 * descriptors, in two subgraphs (one with a remote var): the NEFF's plan
 * is the model's.
 */
TEST(every_kind_round_trips)
{
	static const float w8[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	static const uint32_t sems[2] = { 3, 4 };
	struct nscc_model *m = nscc_model_new(KBIN_TARGET_TRN2);
	struct nscc_err err = { { 0 } };
	const struct kbin_gen *g = kbin_gen_target(KBIN_TARGET_TRN2);
	const int64_t co[4] = { (int64_t)g->sbuf_partition_size - 8, 8, 0, 128 };
	void *k1 = NULL, *k2 = NULL, *neff = NULL;
	size_t l1 = 0, l2 = 0, nl = 0;
	struct nscc_dma_queue *q;
	struct nscc_var *v;
	uint64_t shape[2] = { 2, 4 };
	uint32_t list[2] = { 1, 2 };
	struct kbin_dma_desc d[3];
	struct nscc_dma_block b = { 0 };
	int s0, s1;

	ASSERT_NE(NULL, m);
	s0 = nscc_model_add_subgraph(m, "sg00");
	s1 = nscc_model_add_subgraph(m, "second graph");
	ASSERT_EQ(0, s0);
	ASSERT_EQ(1, s1);
	for (int s = 0; s < 2; s++)
		ASSERT_EQ(0, nscc_model_add_carveout(m, s, "evtaccel", co, &err))
			TH_LOG("%s", err.msg);
	ASSERT_NE(NULL, nscc_model_add_var(m, s0, "SB", 0, KBIN_MR_SB));
	v = nscc_model_add_var(m, s0, "x", 1, KBIN_MR_INPUT);
	v->has_size = 1;
	v->size = 32;
	ASSERT_EQ(0, nscc_var_set_dtype(v, "float32"));
	ASSERT_EQ(0, nscc_var_set_shape(v, shape, 2));
	v = nscc_model_add_var(m, s0, "w", 2, KBIN_MR_BUFFER);
	v->has_size = 1;
	v->size = 32;
	v->alignment = 256;
	ASSERT_EQ(0, nscc_var_set_payload(v, w8, sizeof(w8)));
	ASSERT_EQ(0, nscc_var_set_dtype(v, "float32"));
	ASSERT_EQ(0, nscc_var_set_shape(v, shape, 2));
	v = nscc_model_add_var(m, s0, "raw", 3, KBIN_MR_BUFFER);
	v->has_size = 1;
	v->size = 3;
	ASSERT_EQ(0, nscc_var_set_payload(v, "abc", 3));
	v = nscc_model_add_var(m, s0, "y", 4, KBIN_MR_OUTPUT);
	v->has_size = 1;
	v->size = 32;
	ASSERT_EQ(0, nscc_var_set_dtype(v, "bfloat16"));
	v = nscc_model_add_var(m, s0, "t", 5, KBIN_MR_TMP_BUF);
	v->has_size = 1;
	v->size = 4096;
	v = nscc_model_add_var(m, s0, "virt", 6, KBIN_MR_VIRTUAL_TMP_BUF);
	v->has_size = 1;
	v->size = 128;
	v->offset = 512;
	v->backing_buf = KBIN_BACKING_BUF_SHARED;
	v = nscc_model_add_var(m, s0, "p", 7, KBIN_MR_PTR);
	v->referenced_var_id = 5;
	v->io_ref = 1;
	v = nscc_model_add_var(m, s0, "l", 8, KBIN_MR_LIST);
	ASSERT_EQ(0, nscc_var_set_list(v, list, 2));
	v = nscc_model_add_var(m, s0, "dge", 9, KBIN_MR_PTR_TABLE);
	ASSERT_EQ(0, nscc_var_set_list(v, list, 2));
	ASSERT_NE(NULL, nscc_model_add_var(m, s0, "psum", 10, KBIN_MR_PSUM));
	ASSERT_NE(NULL, nscc_model_add_var(m, s1, "SB", 0, KBIN_MR_SB));
	v = nscc_model_add_var(m, s1, "r", 1, KBIN_MR_REMOTE);
	v->remote_sg = 0;
	v->remote_var_id = 5;
	v->has_size = 1;
	v->size = 64;

	q = nscc_model_add_dma_queue(m, s0, "qSPIO0");
	ASSERT_NE(NULL, q);
	q->type = KBIN_DMA_QUEUE_IN;
	q->owner = KBIN_DMA_ENGINE_SP;
	q->num_queues = 16;
	ASSERT_NE(NULL, q->fabric_path = strdup("main"));
	ASSERT_EQ(0, nscc_dma_queue_set_semaphores(q, sems, 2));
	q = nscc_model_add_dma_queue(m, s0, "qPoolDyn");
	ASSERT_NE(NULL, q);
	q->type = KBIN_DMA_QUEUE_DYNAMIC;
	q->owner = KBIN_DMA_ENGINE_POOL;
	q->num_queues = 1;
	q->has_dynamic = 1;
	q->sb_scratch_offset = 1024;
	q->sb_scratch_size = 2048;
	ASSERT_EQ(0, nscc_dma_queue_set_semaphores(q, sems, 1));
	memset(d, 0, sizeof(d));
	/* x (8 float32) -> SB partition 0 */
	d[0].op = KBIN_DMA_OP_COPY;
	d[0].num_tiling_dims = 1;
	d[0].from = (struct kbin_dma_side){ .var_id = 1, .dtype = KBIN_DMA_DTYPE_FLOAT32,
					    .num_dims = 1, .sizes = { 32 }, .steps = { 1 } };
	d[0].to = (struct kbin_dma_side){ .var_id = 0, .dtype = KBIN_DMA_DTYPE_FLOAT32,
					  .offset = 64, .num_dims = 1, .sizes = { 32 },
					  .steps = { 1 } };
	/* SB 8 float32 -> y as bfloat16 */
	d[1].op = KBIN_DMA_OP_CAST;
	d[1].from = d[0].to;
	d[1].to = (struct kbin_dma_side){ .var_id = 4, .dtype = KBIN_DMA_DTYPE_BFLOAT16,
					  .num_dims = 1, .sizes = { 16 }, .steps = { 1 } };
	/* w (2 x 4 float32) transposed into t */
	d[2].op = KBIN_DMA_OP_TRANSPOSE;
	memcpy(d[2].transpose_op, "WZXY", 4);
	d[2].transpose_elem_size = 4;
	d[2].transpose_shape[0] = 1;
	d[2].transpose_shape[1] = 1;
	d[2].transpose_shape[2] = 2;
	d[2].transpose_shape[3] = 4;
	d[2].from = (struct kbin_dma_side){ .var_id = 2, .dtype = KBIN_DMA_DTYPE_FLOAT32,
					    .num_dims = 1, .sizes = { 32 }, .steps = { 1 } };
	d[2].to = (struct kbin_dma_side){ .var_id = 5, .dtype = KBIN_DMA_DTYPE_FLOAT32,
					  .num_dims = 1, .sizes = { 32 }, .steps = { 1 } };
	b.queue = 0;
	b.semaphore = 4;
	ASSERT_EQ(0, nscc_model_add_dma_block(m, s0, &b, "in", &d[0], 1));
	b.id = 1;
	b.semaphore = 3;
	ASSERT_EQ(0, nscc_model_add_dma_block(m, s0, &b, NULL, &d[1], 1));
	b = (struct nscc_dma_block){ .queue = 1, .semaphore = 3,
				     .engine = KBIN_DMA_ENGINE_POOL };
	ASSERT_EQ(0, nscc_model_add_dma_block(m, s0, &b, "transpose", &d[2], 1));

	ASSERT_EQ(0, nscc_compile_model(m, &k1, &l1, &err)) TH_LOG("%s", err.msg);
	ASSERT_EQ(0, model_neff(m, &neff, &nl, &err)) TH_LOG("%s", err.msg);
	ASSERT_EQ(0, neff_plan(neff, nl, &k2, &l2, &err)) TH_LOG("%s", err.msg);
	EXPECT_EQ(l1, l2);
	EXPECT_EQ(0, memcmp(k1, k2, l1 < l2 ? l1 : l2));
	free(k1);
	free(k2);
	free(neff);
	nscc_model_free(m);
}

/* what a def.json cannot hold is refused, each with its message */
TEST(refusals)
{
	static const struct {
		uint32_t mr_type;
		int set;		/* what to give the var */
		int code;
		const char *msg;
	} t[] = {
		{ KBIN_MR_BUFFER_STAGED, 0, -EOPNOTSUPP,
		  "sg00: var 'v' (var_id 1): kind MR_BUFFER_STAGED has no def.json type" },
		{ KBIN_MR_TMP_BUF, 1, -EOPNOTSUPP,
		  "sg00: var 'v' (var_id 1): debug metadata cannot be written to a def.json" },
		{ KBIN_MR_VIRTUAL_TMP_BUF, 2, -EOPNOTSUPP,
		  "sg00: var 'v' (var_id 1): backed by the local arena: a def.json virtual var is SHARED-backed" },
		{ KBIN_MR_INPUT, 3, -EINVAL,
		  "sg00: var 'v' (var_id 2): the name is used twice: def.json keys are the names" },
		{ KBIN_MR_INPUT, 4, -EINVAL,
		  "sg00: var 'v' (var_id 1): size 9223372036854775808 is over 9223372036854775807: a def.json integer cannot hold it" },
		{ KBIN_MR_INPUT, 5, -EOPNOTSUPP,
		  "sg00: a scratchpad size given in the model (local 0, shared 64) cannot be written to a def.json" },
	};

	for (size_t k = 0; k < sizeof(t) / sizeof(t[0]); k++) {
		struct nscc_model *m = nscc_model_new(KBIN_TARGET_TRN1);
		struct nscc_neff_writer *w = nscc_neff_writer_new();
		struct nscc_err err = { { 0 } };
		struct nscc_var *v;
		int sg;

		ASSERT_NE(NULL, m);
		ASSERT_NE(NULL, w);
		sg = nscc_model_add_subgraph(m, "sg00");
		ASSERT_NE(NULL, nscc_model_add_var(m, sg, "SB", 0, KBIN_MR_SB));
		v = nscc_model_add_var(m, sg, "v", 1, t[k].mr_type);
		ASSERT_NE(NULL, v);
		v->has_size = 1;
		v->size = 64;
		if (t[k].set == 1)
			ASSERT_EQ(0, nscc_var_set_debug_md(v, "dbg", 1));
		if (t[k].set == 2)
			v->backing_buf = KBIN_BACKING_BUF_LOCAL;
		if (t[k].set == 3)
			ASSERT_NE(NULL, nscc_model_add_var(m, sg, "v", 2, KBIN_MR_INPUT));
		if (t[k].set == 4)
			v->size = 1ULL << 63;
		if (t[k].set == 5)
			m->sgs[0].shared_scratchpad_size = 64;
		EXPECT_EQ(t[k].code, nscc_model_to_neff(m, w, &err));
		EXPECT_STREQ(t[k].msg, err.msg);
		nscc_neff_writer_free(w);
		nscc_model_free(m);
	}
}

/* neuronsim-cc compile --neff, compile of the NEFF, info of it */
TEST(tool_compile_neff)
{
	char dir[] = "/tmp/bir_neff.XXXXXX", cmd[1024];
	const char *ex = BIR_EXAMPLES "bir_rmsnorm.bir.json";
	void *a = NULL, *b = NULL;
	size_t al = 0, bl = 0;
	int status = -1;
	char *out;

	if (access(NEURONSIM_CC, X_OK))
		SKIP(return, "%s is not built", NEURONSIM_CC);
	ASSERT_NE(NULL, mkdtemp(dir));
	out = bt_run_tool(NULL, &status, "compile --neff '%s' -o %s/m.neff", ex, dir);
	ASSERT_NE(NULL, out);
	EXPECT_EQ(0, status);
	EXPECT_NE(NULL, strstr(out, "m.neff: ")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "(NEFF; its plan ")) TH_LOG("%s", out);
	free(out);
	EXPECT_EQ(0, bt_tool_status("compile '%s' -o %s/direct.kbin", ex, dir));
	EXPECT_EQ(0, bt_tool_status("compile %s/m.neff -o %s/neff.kbin", dir, dir));
	snprintf(cmd, sizeof(cmd), "%s/direct.kbin", dir);
	EXPECT_EQ(0, nsim_read_file(cmd, &a, &al));
	snprintf(cmd, sizeof(cmd), "%s/neff.kbin", dir);
	EXPECT_EQ(0, nsim_read_file(cmd, &b, &bl));
	EXPECT_EQ(al, bl);
	EXPECT_EQ(0, a && b && al == bl ? memcmp(a, b, al) : 1);
	free(a);
	free(b);
	out = bt_run_tool(NULL, &status, "info --program %s/m.neff", dir);
	ASSERT_NE(NULL, out);
	EXPECT_EQ(0, status);
	EXPECT_NE(NULL, strstr(out, "programs in neuronsim's compute encoding (neff.json neuronsim_program_encoding)"))
		TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "target cayman (gen 3)")) TH_LOG("%s", out);
	free(out);
	out = bt_run_tool(NULL, &status, "info -j %s/m.neff", dir);
	ASSERT_NE(NULL, out);
	EXPECT_EQ(0, status);
	EXPECT_NE(NULL, strstr(out, "\"program_encoding\": \"compute\"")) TH_LOG("%s", out);
	free(out);
	out = bt_run_tool(NULL, &status, "-j compile --neff '%s' -o %s/j.neff", ex, dir);
	ASSERT_NE(NULL, out);
	EXPECT_EQ(0, status);
	EXPECT_NE(NULL, strstr(out, "\"format\": \"neff\"")) TH_LOG("%s", out);
	free(out);
	/* --neff takes a BIR module only */
	EXPECT_LT(0, bt_tool_status("compile --neff %s/m.neff -o %s/x.neff", dir, dir));
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	EXPECT_EQ(0, system(cmd));
}

TEST_HARNESS_MAIN
