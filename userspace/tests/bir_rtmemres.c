// SPDX-License-Identifier: GPL-2.0
/*
 * bir_rtmemres.c - RuntimeMemoryReservation (compiler-passes.rst): the
 * pre-linker contract, the generation gate, both size paths, the
 * recorded location, and the carve-out of the real trn2 NEFFs
 * (runtime_statebuffer_reservation: evtaccel, offset 229368 = 224 KiB - 8,
 * size 8, base partition 0, 128 partitions).
 */
#include "kselftest_harness.h"
#include "bir_test.h"

static const char *one_fn(const char *arch)
{
	static char buf[512];

	snprintf(buf, sizeof(buf),
		 "{\"arch\": \"%s\", \"functions\": [{\"name\": \"main\", \"allocations\": [{\"Skind\": \"memory_location_set\", \"name\": \"p\", \"memorylocations\": [{\"name\": \"p\", \"type\": \"SB\", \"addr\": 100, \"dims\": [128, 13], \"allocated\": true, \"pinned\": true}]}]}]}",
		 arch);
	return buf;
}

TEST(trn2_matches_real_neff_carveout)
{
	struct bir_module *m = bt_parse(one_fn("trn2"));
	struct nscc_err err = { { 0 } };
	struct bir_opts o = { 0 };
	struct bir_memloc *ml;
	struct nscc_model *model = nscc_model_new(KBIN_TARGET_TRN2);
	const struct kbin_sb_carveout *r;

	ASSERT_NE(NULL, m);
	ASSERT_EQ(0, bir_pass_rtmemres(m, &o, false, &err));
	ml = bir_memloc_find(m->fns[0], "EvalAccelReservedLoc");
	ASSERT_NE(NULL, ml);
	EXPECT_EQ(BIR_MEM_SB, ml->type);
	EXPECT_EQ(229368, ml->addr);
	EXPECT_EQ(224 * 1024 - 8, ml->addr);
	EXPECT_EQ(8, ml->dims[1]);
	EXPECT_EQ(128, ml->dims[0]);
	EXPECT_EQ(0, ml->base);
	EXPECT_TRUE(ml->allocated);
	EXPECT_TRUE(ml->runtime_reserved);
	ASSERT_EQ(1, ml->set->ntid);	/* tensor-id index rebuilt */
	EXPECT_EQ(ml, ml->set->tid_index[0]);
	/* it reaches the plan as the evtaccel carve-out */
	ASSERT_NE(NULL, model);
	ASSERT_EQ(0, bir_lower_model(m, model, &err));
	ASSERT_EQ(1, model->num_sgs);
	ASSERT_EQ(1, model->sgs[0].num_carveouts);
	r = &model->sgs[0].carveouts[0];
	EXPECT_EQ(KBIN_CARVEOUT_EVTACCEL, r->type);
	EXPECT_EQ(229368, r->offset);
	EXPECT_EQ(8, r->size);
	EXPECT_EQ(0, r->start_partition);
	EXPECT_EQ(128, r->num_partitions);
	nscc_model_free(model);
	EXPECT_EQ(0, bt_golden(m, "rtmemres.after.json"));
	/* running again adds nothing */
	ASSERT_EQ(0, bir_pass_rtmemres(m, &o, false, &err));
	EXPECT_EQ(NULL, bir_memloc_find(m->fns[0], "EvalAccelReservedLoc.1"));
	bir_module_free(m);
}

TEST(gen_gate)
{
	static const char *const archs[] = { "trn1", "inf2", "sunda", "20" };

	for (int k = 0; k < 3; k++) {
		struct bir_module *m = bt_parse(one_fn(archs[k]));
		struct nscc_err err = { { 0 } };
		struct bir_opts o = { 0 };

		ASSERT_NE(NULL, m);
		EXPECT_EQ(0, bir_pass_rtmemres(m, &o, false, &err));
		EXPECT_EQ(NULL, bir_memloc_find(m->fns[0], BIR_EVTACCEL_NAME));
		bir_module_free(m);
	}
	{	/* gen 4: 256 KiB partitions */
		struct bir_module *m = bt_parse(one_fn("trn3"));
		struct nscc_err err = { { 0 } };
		struct bir_opts o = { 0 };

		ASSERT_NE(NULL, m);
		EXPECT_EQ(0, bir_pass_rtmemres(m, &o, false, &err));
		EXPECT_EQ(256 * 1024 - 8,
			  bir_memloc_find(m->fns[0], BIR_EVTACCEL_NAME)->addr);
		bir_module_free(m);
	}
}

TEST(path1_config_offset)
{
	struct bir_module *m = bt_parse(one_fn("trn2"));
	struct nscc_err err = { { 0 } };
	struct bir_opts o = { .rsv_offset = 229376 - 64 };

	ASSERT_NE(NULL, m);
	EXPECT_EQ(0, bir_pass_rtmemres(m, &o, false, &err));
	EXPECT_EQ(64, bir_memloc_find(m->fns[0], BIR_EVTACCEL_NAME)->dims[1]);
	bir_module_free(m);
	m = bt_parse(one_fn("trn2"));
	o.rsv_offset = 229376;
	EXPECT_EQ(-EINVAL, bir_pass_rtmemres(m, &o, false, &err));
	EXPECT_STREQ("RuntimeMemoryReservation: config offset 229376 is not below the SBUF partition size 229376",
		     err.msg);
	bir_module_free(m);
}

TEST(path2_pinned_high_water_mark)
{
	struct bir_module *m = bt_parse(one_fn("trn2"));
	struct nscc_err err = { { 0 } };
	struct bir_opts o = { .rsv_name = "PinnedReservedLoc" };
	struct bir_memloc *ml;

	ASSERT_NE(NULL, m);
	EXPECT_EQ(0, bir_pass_rtmemres(m, &o, false, &err));
	ml = bir_memloc_find(m->fns[0], "PinnedReservedLoc");
	ASSERT_NE(NULL, ml);
	EXPECT_EQ(116, ml->dims[1]);	/* 100 + aligned(13) */
	EXPECT_TRUE(ml->runtime_reserved);
	bir_module_free(m);
}

TEST(aligned_round_up_8)
{
	EXPECT_EQ(0, bir_rtmemres_aligned(0));
	EXPECT_EQ(8, bir_rtmemres_aligned(1));
	EXPECT_EQ(8, bir_rtmemres_aligned(8));
	EXPECT_EQ(16, bir_rtmemres_aligned(9));
	EXPECT_EQ(16, bir_rtmemres_aligned(13));
}

TEST(single_function_contract)
{
	const char *j = "{\"arch\": \"trn2\", \"functions\": [{\"name\": \"a\"}, {\"name\": \"b\"}]}";
	struct bir_module *m = bt_parse(j);
	struct nscc_err err = { { 0 } };
	struct bir_opts o = { 0 };

	ASSERT_NE(NULL, m);
	EXPECT_EQ(-EINVAL, bir_pass_rtmemres(m, &o, false, &err));
	EXPECT_STREQ("this pass should run in pre-linker phase, which should have only one Function per Module (module has 2)",
		     err.msg);
	EXPECT_EQ(88, strlen("this pass should run in pre-linker phase, which should have only one Function per Module"));
	bir_module_free(m);
}

TEST_HARNESS_MAIN
