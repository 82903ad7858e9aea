// SPDX-License-Identifier: GPL-2.0
/*
 * bir_lower.c - every bundled BIR model compiles (passes -> def.json var
 * table -> compiler part 1) to a KBIN plan that the plan checker
 * accepts, with the evtaccel carve-out of the real trn2 NEFFs; the
 * passes entry point dumps after a named pass.
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

TEST(def_json_var_table)
{
	struct bir_module *m = bt_load("nki_twice.bir.json");
	struct nscc_err err = { { 0 } };
	struct bir_opts o = { 0 };
	json_t *def, *vars;

	ASSERT_NE(NULL, m);
	ASSERT_EQ(0, bt_passes(m, &o, &err));
	ASSERT_EQ(0, bir_lower_defjson(m, &def, &err));
	vars = json_object_get(def, "var");
	EXPECT_STREQ("state-buffer", json_string_value(json_object_get(
			json_object_get(vars, "state-buffer"), "type")));
	EXPECT_EQ(0, json_integer_value(json_object_get(
			json_object_get(vars, "state-buffer"), "var_id")));
	EXPECT_STREQ("input", json_string_value(json_object_get(
			json_object_get(vars, "x"), "type")));
	EXPECT_STREQ("output", json_string_value(json_object_get(
			json_object_get(vars, "y2"), "type")));
	EXPECT_STREQ("tmp-buf", json_string_value(json_object_get(
			json_object_get(vars, "y1"), "type")));
	EXPECT_EQ(128 * 256, json_integer_value(json_object_get(
			json_object_get(vars, "x"), "size")));
	EXPECT_EQ(7, json_object_size(vars));
	json_decref(def);
	bir_module_free(m);
}

TEST(lower_errors)
{
	struct bir_module *m = bt_load("nki_twice.bir.json");
	struct nscc_err err = { { 0 } };
	json_t *def;

	ASSERT_NE(NULL, m);
	EXPECT_EQ(-EINVAL, bir_lower_defjson(m, &def, &err));
	EXPECT_STREQ("lowering: the final module must have one function (has 2): a kernel function was not inlined",
		     err.msg);
	bir_module_free(m);
	m = bt_load("bir_activation.bir.json");
	ASSERT_NE(NULL, m);
	bir_memloc_find(m->fns[0], "x")->type = BIR_MEM_SB;
	EXPECT_EQ(-EINVAL, bir_lower_defjson(m, &def, &err));
	EXPECT_STREQ("lowering: SB memory location 'x' is not allocated", err.msg);
	bir_module_free(m);
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
