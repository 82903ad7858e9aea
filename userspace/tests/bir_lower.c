// SPDX-License-Identifier: GPL-2.0
/*
 * bir_lower.c - every bundled BIR model compiles (passes -> the
 * compiler's model, built directly -> KBIN) to a plan that the plan
 * checker accepts, with the evtaccel carve-out of the real trn2 NEFFs,
 * byte-identical to the golden plan; the model's var table; the passes
 * entry point dumps after a named pass.
 */
#include "kselftest_harness.h"
#include "bir_test.h"
#include "kbin_reader.h"

static const char *const examples[] = {
	"nki_twice.bir.json", "bir_activation.bir.json",
	"bir_rmsnorm.bir.json", "bir_layernorm.bir.json", "bir_mlp.bir.json",
	"bir_attention.bir.json", "collectives.bir.json",
};

TEST(every_example_compiles_to_a_checked_plan)
{
	for (size_t k = 0; k < sizeof(examples) / sizeof(examples[0]); k++) {
		char path[512];
		struct nscc_err err = { { 0 } };
		struct kbin_check_result res;
		struct kbin_view v;
		const struct kbin_subgraph *sg;
		void *buf = NULL;
		size_t len = 0;
		int rc;

		snprintf(path, sizeof(path), "%s%s", BIR_EXAMPLES, examples[k]);
		rc = nscc_bir_compile_file(path, &buf, &len, &err);
		if (rc)
			fprintf(stderr, "# %s: %s\n", examples[k], err.msg);
		ASSERT_EQ(0, rc);
		memset(&res, 0, sizeof(res));
		ASSERT_EQ(0, kbin_read(buf, len, &v, &res));
		ASSERT_EQ(1, v.num_subgraphs);
		sg = kbin_view_subgraph(&v, 0);
		ASSERT_EQ(1, sg->num_carveouts);
		EXPECT_EQ(KBIN_CARVEOUT_EVTACCEL, sg->carveouts[0].type);
		EXPECT_EQ(229368, sg->carveouts[0].offset);
		EXPECT_EQ(8, sg->carveouts[0].size);
		EXPECT_EQ(0, sg->carveouts[0].start_partition);
		EXPECT_EQ(128, sg->carveouts[0].num_partitions);
		free(buf);
	}
}

/* the var named @name of subgraph 0, or NULL */
static const struct nscc_var *var(const struct nscc_model *m, const char *name)
{
	for (uint32_t k = 0; m->num_sgs && k < m->sgs[0].num_vars; k++)
		if (!strcmp(m->sgs[0].vars[k].name, name))
			return &m->sgs[0].vars[k];
	return NULL;
}

TEST(model_var_table)
{
	struct bir_module *m = bt_load("nki_twice.bir.json");
	struct nscc_model *model = nscc_model_new(KBIN_TARGET_TRN2);
	struct nscc_err err = { { 0 } };
	struct bir_opts o = { 0 };
	const struct nscc_var *sb, *x, *y1, *y2;

	ASSERT_NE(NULL, m);
	ASSERT_NE(NULL, model);
	ASSERT_EQ(0, bt_passes(m, &o, &err));
	ASSERT_EQ(0, bir_lower_model(m, model, &err));
	ASSERT_EQ(1, model->num_sgs);
	EXPECT_STREQ("sg00", model->sgs[0].name);
	sb = var(model, "state-buffer");
	x = var(model, "x");
	y1 = var(model, "y1");
	y2 = var(model, "y2");
	ASSERT_NE(NULL, sb);
	ASSERT_NE(NULL, x);
	ASSERT_NE(NULL, y1);
	ASSERT_NE(NULL, y2);
	EXPECT_EQ(KBIN_MR_SB, sb->mr_type);
	EXPECT_EQ(0, sb->var_id);
	EXPECT_EQ(0, sb->has_size);
	EXPECT_EQ(0, sb->alignment);
	EXPECT_EQ(KBIN_MR_INPUT, x->mr_type);
	EXPECT_EQ(KBIN_MR_OUTPUT, y2->mr_type);
	EXPECT_EQ(KBIN_MR_TMP_BUF, y1->mr_type);
	EXPECT_EQ(KBIN_BACKING_BUF_LOCAL, y1->backing_buf);
	EXPECT_EQ(0, y1->offset);
	EXPECT_EQ(1, x->has_size);
	EXPECT_EQ(128 * 256, x->size);
	EXPECT_EQ(64, x->alignment);
	EXPECT_EQ(NULL, x->dtype);	/* as the def.json path had it */
	EXPECT_EQ(7, model->sgs[0].num_vars);
	/* var_ids dense in set and location order */
	for (uint32_t k = 0; k < model->sgs[0].num_vars; k++)
		EXPECT_EQ(k, model->sgs[0].vars[k].var_id);
	nscc_model_free(model);
	bir_module_free(m);
}

TEST(lower_errors)
{
	struct bir_module *m = bt_load("nki_twice.bir.json");
	struct nscc_model *model = nscc_model_new(KBIN_TARGET_TRN2);
	struct nscc_err err = { { 0 } };

	ASSERT_NE(NULL, m);
	ASSERT_NE(NULL, model);
	EXPECT_EQ(-EINVAL, bir_lower_model(m, model, &err));
	EXPECT_STREQ("lowering: the final module must have one function (has 2): a kernel function was not inlined",
		     err.msg);
	bir_module_free(m);
	m = bt_load("bir_activation.bir.json");
	ASSERT_NE(NULL, m);
	bir_memloc_find(m->fns[0], "x")->type = BIR_MEM_SB;
	EXPECT_EQ(-EINVAL, bir_lower_model(m, model, &err));
	EXPECT_STREQ("lowering: SB memory location 'x' is not allocated", err.msg);
	/* no reservation on trn2: the carve-out the runtime needs is missing */
	bir_memloc_find(m->fns[0], "x")->type = BIR_MEM_INPUT;
	EXPECT_EQ(-EINVAL, bir_lower_model(m, model, &err));
	EXPECT_STREQ("sg00: field 'runtime_statebuffer_reservation' is required on trn2 (gen 3)",
		     err.msg);
	nscc_model_free(model);
	bir_module_free(m);
}

/* the plans are byte for byte the ones the def.json path made */
TEST(plans_match_golden)
{
	for (size_t k = 0; k < sizeof(examples) / sizeof(examples[0]); k++) {
		char path[512], gold[512];
		struct nscc_err err = { { 0 } };
		void *buf = NULL, *want = NULL;
		size_t len = 0, wlen = 0;

		snprintf(path, sizeof(path), "%s%s", BIR_EXAMPLES, examples[k]);
		snprintf(gold, sizeof(gold), "%s%.*s.kbin", BIR_GOLDEN,
			 (int)(strlen(examples[k]) - strlen(".bir.json")),
			 examples[k]);
		ASSERT_EQ(0, nscc_bir_compile_file(path, &buf, &len, &err))
			TH_LOG("%s: %s", examples[k], err.msg);
		if (getenv("BIR_UPDATE_GOLDEN"))
			nscc_write_file(gold, buf, len);
		ASSERT_EQ(0, nscc_read_file(gold, &want, &wlen))
			TH_LOG("%s: missing", gold);
		EXPECT_EQ(wlen, len);
		EXPECT_EQ(0, memcmp(buf, want, len < wlen ? len : wlen))
			TH_LOG("%s differs from %s", examples[k], gold);
		free(buf);
		free(want);
	}
}

TEST(passes_dump_after)
{
	char path[512], *s = NULL;
	struct nscc_err err = { { 0 } };
	FILE *out = tmpfile();
	size_t n = 0;

	snprintf(path, sizeof(path), "%s%s", BIR_EXAMPLES, "nki_twice.bir.json");
	ASSERT_EQ(0, nscc_bir_passes_file(path, "inline_nki_kernel@41", out,
					  NULL, &err));
	rewind(out);
	ASSERT_LT(0, getdelim(&s, &n, '\0', out));
	EXPECT_EQ(s, strstr(s, "# after inline_nki_kernel (order 41)\n{"));
	EXPECT_NE(NULL, strstr(s, "\"k2\""));	/* not yet inlined */
	free(s);
	fclose(out);
	EXPECT_EQ(-ENOENT, nscc_bir_passes_file(path, "nope", stdout, NULL,
						&err));
	EXPECT_STREQ("--dump-after: no pass named 'nope' (passes: runtime_memory_reservation, sb_allocator, inline_nki_kernel, coalesce_multichannel_cc_ops, inline_bir_kernel; NAME@ORDER picks one placement)",
		     err.msg);
}

TEST_HARNESS_MAIN
