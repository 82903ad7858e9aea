// SPDX-License-Identifier: GPL-2.0
/*
 * bir_coalesce.c - coalesce_multichannel_cc_ops (orders 42 and 62):
 * per-channel CollectiveCompute merged, the no-two-consecutive check,
 * and the interpreter equivalence.
 */
#include "kselftest_harness.h"
#include "bir_test.h"

TEST(merge_golden_and_equivalence)
{
	struct bir_module *before = bt_load("collectives.bir.json"), *m;
	struct nscc_err err = { { 0 } };
	struct bir_opts o = { 0 };
	struct bir_inst *p;

	ASSERT_NE(NULL, before);
	m = bt_copy(before);
	ASSERT_EQ(0, bt_passes(m, &o, &err));
	EXPECT_EQ(0, bt_golden(m, "collectives.after.json"));
	p = bir_inst_find(m->fns[0], "perm0");
	ASSERT_NE(NULL, p);
	EXPECT_EQ(4, p->nins);
	EXPECT_EQ(4, p->nouts);
	ASSERT_NE(NULL, bir_attr_get(p, "channels"));
	EXPECT_EQ(BIR_VAL_LIST, bir_attr_get(p, "channels")->kind);
	EXPECT_EQ(4, bir_attr_get(p, "channels")->n);
	EXPECT_EQ(NULL, bir_attr_get(p, "channel"));
	EXPECT_EQ(NULL, bir_inst_find(m->fns[0], "perm3"));
	EXPECT_NE(NULL, bir_inst_find(m->fns[0], "ar0"));
	EXPECT_EQ(2, bir_inst_find(m->fns[0], "pr0")->nins);
	EXPECT_EQ(3, m->fns[0]->blocks[0]->ninsts);
	for (unsigned int seed = 1; seed <= 3; seed++)
		EXPECT_EQ(0, bt_equiv(before, m, seed));
	bir_module_free(before);
	bir_module_free(m);
}

TEST(incompatible_same_kind)
{
	struct bir_module *m = bt_load("collectives.bir.json");
	struct nscc_err err = { { 0 } };
	struct bir_opts o = { 0 };

	ASSERT_NE(NULL, m);
	ASSERT_EQ(0, bt_set_attr(bir_inst_find(m->fns[0], "perm2"),
				 "replica_group", "[0, 2]"));
	EXPECT_EQ(-EINVAL, bir_pass_coalesce(m, &o, false, &err));
	EXPECT_STREQ("block 'entry': consecutive CollectiveCompute 'perm0' and 'perm2' share kind 'PermuteImplicit' but differ in other attributes; they cannot be coalesced",
		     err.msg);
	bir_module_free(m);
}

TEST_HARNESS_MAIN
