// SPDX-License-Identifier: GPL-2.0
/*
 * bir_names.c - the per-function name indexes of ir.c (hash lookups in
 * place of linear scans): they agree with a walk of the function after
 * reading every example and after every pass of the schedule, and follow
 * adds, suffixing, unlink, removal and duplicates in loop bodies.
 */
#include "kselftest_harness.h"
#include "bir_test.h"

static const char *const examples[] = {
	"nki_twice.bir.json", "bir_activation.bir.json",
	"bir_rmsnorm.bir.json", "bir_layernorm.bir.json", "bir_mlp.bir.json",
	"bir_attention.bir.json", "collectives.bir.json",
};

static int check_all(const struct bir_module *m, const char *what)
{
	struct nscc_err err = { 0 };

	for (uint32_t k = 0; k < m->nfns; k++) {
		if (bir_function_check_index(m->fns[k], &err)) {
			fprintf(stderr, "# %s: %s\n", what, err.msg);
			return -1;
		}
		if (bir_function_find(m, m->fns[k]->name) != m->fns[k]) {
			fprintf(stderr, "# %s: function '%s' not found by name\n",
				what, m->fns[k]->name);
			return -1;
		}
	}
	return 0;
}

TEST(index_matches_after_every_pass)
{
	uint32_t n;
	const struct bir_pass *s = bir_schedule(&n);

	for (size_t e = 0; e < sizeof(examples) / sizeof(examples[0]); e++) {
		struct bir_module *m = bt_load(examples[e]);
		struct bir_opts o = { .enable_bir_kernel = e % 2 };
		struct nscc_err err = { 0 };
		char what[256];

		ASSERT_NE(NULL, m);
		snprintf(what, sizeof(what), "%s after reading", examples[e]);
		ASSERT_EQ(0, check_all(m, what));
		for (uint32_t k = 0; k < n; k++) {
			ASSERT_EQ(0, s[k].run(m, &o, s[k].flag, &err)) {
				TH_LOG("%s: pass %s: %s", examples[e], s[k].name,
				       err.msg);
			}
			snprintf(what, sizeof(what), "%s after pass %d %s",
				 examples[e], s[k].order, s[k].name);
			ASSERT_EQ(0, check_all(m, what));
		}
		bir_module_free(m);
	}
}

TEST(index_follows_edits)
{
	struct bir_module *m = bir_module_new(30);
	struct bir_function *f, *g;
	struct bir_memloc_set *s, *s2;
	struct bir_memloc *a, *b;
	struct bir_block *bb, *cont;
	struct bir_inst *i, *j, *loop, *clone;
	struct nscc_err err = { 0 };

	ASSERT_NE(NULL, m);
	f = bir_function_add(m, "main");
	g = bir_function_add(m, "main");	/* suffixed */
	ASSERT_NE(NULL, g);
	EXPECT_STREQ("main.1", g->name);
	EXPECT_EQ(g, bir_function_find(m, "main.1"));
	bir_function_remove(m, g);
	EXPECT_EQ(NULL, bir_function_find(m, "main.1"));
	EXPECT_EQ(f, bir_function_find(m, "main"));

	s = bir_set_add(f, "t");
	a = bir_memloc_add(s, "t");
	b = bir_memloc_add(s, "t");		/* suffixed in the function */
	ASSERT_NE(NULL, b);
	EXPECT_STREQ("t.1", b->name);
	EXPECT_EQ(a, bir_memloc_find(f, "t"));
	EXPECT_EQ(b, bir_memloc_find(f, "t.1"));
	bir_memloc_remove(a);
	EXPECT_EQ(NULL, bir_memloc_find(f, "t"));
	EXPECT_FALSE(bir_name_taken(f, BIR_NK_LOC, "t"));
	s2 = bir_set_add(f, "t");
	EXPECT_STREQ("t.1", s2->name);
	bir_set_remove(s);			/* takes location t.1 along */
	EXPECT_EQ(NULL, bir_memloc_find(f, "t.1"));
	EXPECT_TRUE(bir_name_taken(f, BIR_NK_SET, "t.1"));
	EXPECT_FALSE(bir_name_taken(f, BIR_NK_SET, "t"));

	bb = bir_block_add(f, "entry", -1);
	cont = bir_block_add(f, "entry", -1);
	EXPECT_STREQ("entry.1", cont->name);
	EXPECT_EQ(cont, bir_block_find(f, "entry.1"));

	i = bir_inst_new(m, "Memset", "x");
	j = bir_inst_new(m, "Memset", "x");
	ASSERT_EQ(0, bir_inst_insert(bb, i, -1));
	ASSERT_EQ(0, bir_inst_insert(bb, j, -1));
	EXPECT_STREQ("x.1", j->name);
	EXPECT_EQ(j, bir_inst_find(f, "x.1"));

	/* a Loop whose body name repeats once cloned: two carriers */
	loop = bir_inst_new(m, "Loop", "L");
	ASSERT_NE(NULL, bir_loop_block_add(loop, "body"));
	EXPECT_EQ(1U, loop->nblocks);
	EXPECT_EQ(loop, loop->blocks[0]->loop);
	ASSERT_EQ(0, bir_inst_insert(loop->blocks[0],
				     bir_inst_new(m, "Memset", "inner"), -1));
	EXPECT_EQ(NULL, bir_inst_find(f, "inner"));	/* detached loop */
	ASSERT_EQ(0, bir_inst_insert(bb, loop, -1));
	EXPECT_EQ(loop->blocks[0]->insts[0], bir_inst_find(f, "inner"));
	clone = bir_inst_clone(m, loop);
	ASSERT_NE(NULL, clone);
	ASSERT_EQ(0, bir_inst_insert(bb, clone, -1));
	EXPECT_STREQ("L.1", clone->name);
	/* two carriers of "inner": the first in program order */
	EXPECT_EQ(loop->blocks[0]->insts[0], bir_inst_find(f, "inner"));
	ASSERT_EQ(0, bir_function_check_index(f, &err)) TH_LOG("%s", err.msg);
	bir_inst_unlink(loop);
	EXPECT_EQ(clone->blocks[0]->insts[0], bir_inst_find(f, "inner"));
	bir_inst_free(loop);

	/* moving a tail keeps the names in the function */
	ASSERT_EQ(0, bir_block_move_tail(bb, 1, cont));
	EXPECT_EQ(1U, bb->ninsts);
	EXPECT_EQ(2U, cont->ninsts);
	EXPECT_EQ(cont, j->parent);
	EXPECT_EQ(j, bir_inst_find(f, "x.1"));
	ASSERT_EQ(0, bir_function_check_index(f, &err)) TH_LOG("%s", err.msg);

	bir_inst_unlink(i);
	bir_inst_free(i);
	EXPECT_FALSE(bir_name_taken(f, BIR_NK_INST, "x"));
	EXPECT_TRUE(bir_name_taken(f, BIR_NK_INST, "x.1"));
	ASSERT_EQ(0, bir_function_check_index(f, &err)) TH_LOG("%s", err.msg);
	bir_module_free(m);
}

/* the check itself fails on a stale index (no test that cannot fail) */
TEST(check_detects_a_stale_index)
{
	struct bir_module *m = bt_load("bir_activation.bir.json");
	struct nscc_err err = { 0 };
	struct bir_inst *i;
	const char *old;

	ASSERT_NE(NULL, m);
	i = m->fns[0]->blocks[0]->insts[0];
	old = i->name;
	/* not through the API */
	i->name = bir_str(m, "renamed_behind_the_index");
	ASSERT_NE(NULL, i->name);
	EXPECT_EQ(-EINVAL, bir_function_check_index(m->fns[0], &err));
	EXPECT_NE(NULL, strstr(err.msg, "renamed_behind_the_index")) TH_LOG("%s", err.msg);
	i->name = old;
	EXPECT_EQ(0, bir_function_check_index(m->fns[0], &err));
	bir_module_free(m);
}

/* many names: lookups stay hash lookups (the table grows and rehashes) */
TEST(many_names)
{
	struct bir_module *m = bir_module_new(30);
	struct bir_function *f = bir_function_add(m, "main");
	struct bir_block *b = bir_block_add(f, "entry", -1);
	struct nscc_err err = { 0 };
	char nm[32];

	for (int k = 0; k < 20000; k++) {
		snprintf(nm, sizeof(nm), "n%d", k);
		ASSERT_EQ(0, bir_inst_insert(b, bir_inst_new(m, "Memset", nm), -1));
	}
	/* drop every other one: deleted slots are reused and skipped */
	for (int k = 19998; k >= 0; k -= 2) {
		struct bir_inst *i = b->insts[k];

		bir_inst_unlink(i);
		bir_inst_free(i);
	}
	for (int k = 0; k < 20000; k++) {
		snprintf(nm, sizeof(nm), "n%d", k);
		EXPECT_EQ(k % 2 == 1, bir_name_taken(f, BIR_NK_INST, nm));
	}
	ASSERT_EQ(0, bir_function_check_index(f, &err)) TH_LOG("%s", err.msg);
	bir_module_free(m);
}

TEST_HARNESS_MAIN
