// SPDX-License-Identifier: GPL-2.0
/*
 * bir_coalesce.c - coalesce_multichannel_cc_ops (orders 42 and 62):
 * per-channel CollectiveCompute merged, the no-two-consecutive check,
 * and the interpreter equivalence.
 */
#include "kselftest_harness.h"
#include "bir_test.h"
#include "cc_testutil.h"

TEST(merge_golden_and_equivalence)
{
	struct bir_module *m = bt_load_scheduled("collectives.bir.json", NULL, 3);
	struct bir_inst *p;

	ASSERT_NE(NULL, m);
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
	/* the DMA load and store of x, then the three collectives */
	EXPECT_EQ(5, m->fns[0]->blocks[0]->ninsts);
	bir_module_free(m);
}

/*
 * two consecutive collectives of one kind that differ otherwise; a
 * "channels" that is not a list, named, not taken for out of memory
 */
static const struct bt_refusal bads[] = {
	{ "collectives.bir.json", "perm2", "replica_group", "[0, 2]",
	  "block 'entry': consecutive CollectiveCompute 'perm0' and 'perm2' share kind 'PermuteImplicit' but differ in other attributes; they cannot be coalesced" },
	{ "collectives.bir.json", "perm0", "channels", "7",
	  "block 'entry': CollectiveCompute 'perm0': attribute 'channels' is not a list" },
};

TEST(refusals)
{
	EXPECT_EQ(0, bt_refusals(bads, sizeof(bads) / sizeof(bads[0]),
				 bir_pass_coalesce, false, bt_refused));
}

#define LOC(n, t) "{\"Skind\": \"memory_location_set\", \"name\": \"" n "\", \"dtype\": \"float32\"," \
	" \"tensor_shape\": [128, 64], \"memorylocations\": [{\"name\": \"" n "\", \"type\": \"" t "\"," \
	" \"dims\": [128, 256]}]}"
#define AP(n) "{\"Skind\": \"physical_ap\", \"memref\": \"" n "\", \"ap\": [[1, 128], [1, 16]]," \
	" \"dtype\": \"float32\", \"dyn\": [{\"axis\": \"i\", \"step\": 64}]}"

#define AP0(n) "{\"Skind\": \"physical_ap\", \"memref\": \"" n "\", \"ap\": [[1, 128], [1, 16]]," \
	" \"dtype\": \"float32\"}"

/* an NKI kernel whose Loop holds one per-channel PermuteImplicit */
static const char *const nki_loop =
	"{\"arch\": \"trn2\", \"functions\": ["
	"{\"name\": \"main\", \"allocations\": [" LOC("x", "Input") ", " LOC("y", "Output") "],"
	" \"blocks\": [{\"name\": \"entry\", \"instructions\": [{\"name\": \"k\", \"opcode\": \"NKIKernel\","
	" \"ins\": [{\"Skind\": \"physical_ap\", \"memref\": \"x\", \"ap\": [[1, 128], [1, 64]]}],"
	" \"outs\": [{\"Skind\": \"physical_ap\", \"memref\": \"y\", \"ap\": [[1, 128], [1, 64]]}],"
	" \"func\": \"f\", \"func_args\": [\"a\"], \"func_outs\": [\"out\"], \"alloc_status\": 0,"
	" \"kernel_source_val\": 0}]}]},"
	"{\"name\": \"f\", \"allocations\": [" LOC("a", "Input") ", " LOC("out", "Output") "],"
	" \"blocks\": [{\"name\": \"entry\", \"instructions\": [{\"name\": \"l\", \"opcode\": \"Loop\","
	" \"LoopAxis\": {\"name\": \"i\", \"lb\": 0, \"ub\": 4}, \"blocks\": [{\"name\": \"body\","
	" \"instructions\": [{\"name\": \"perm\", \"opcode\": \"CollectiveCompute\", \"engine\": \"POOL\","
	" \"ins\": [" AP("a") "], \"outs\": [" AP("out") "], \"cc_op\": \"PermuteImplicit\","
	" \"channel\": 0, \"replica_group\": [0, 1]}]}]}]}]}]}";

/*
 * Unroll gives every copy of a per-channel collective its own channel
 * (the iteration index), so coalescing at order 42 merges channels 0..3
 */
TEST(unrolled_nki_loop_coalesces_channels_0_to_3)
{
	struct bir_module *before = bt_parse(nki_loop), *m;
	const struct bir_val *ch;
	struct bir_inst *p;

	ASSERT_NE(NULL, before);
	m = bt_scheduled(before, NULL, 3);
	ASSERT_NE(NULL, m);
	ASSERT_EQ(1, m->nfns);
	p = bir_inst_find(m->fns[0], "k_perm_i0");
	ASSERT_NE(NULL, p);
	EXPECT_EQ(NULL, bir_inst_find(m->fns[0], "k_perm_i1"));
	EXPECT_EQ(4, p->nins);
	EXPECT_EQ(4, p->nouts);
	ch = bir_attr_get(p, "channels");
	ASSERT_NE(NULL, ch);
	ASSERT_EQ(BIR_VAL_LIST, ch->kind);
	ASSERT_EQ(4, ch->n);
	for (uint32_t k = 0; k < 4; k++) {
		EXPECT_EQ(BIR_VAL_INT, ch->items[k].kind);
		EXPECT_EQ(k, ch->items[k].i);
	}
	bir_module_free(before);
	bir_module_free(m);
}

/* like nki_loop, the Loop body holding the collective and then @act */
static struct bir_module *nki_loop_with(const char *act)
{
	char text[8192];
	const char *at = strstr(nki_loop, "\"replica_group\": [0, 1]}");
	size_t pre;

	if (!at)
		return NULL;
	pre = (size_t)(at - nki_loop) + strlen("\"replica_group\": [0, 1]}");
	snprintf(text, sizeof(text), "%.*s, %s%s", (int)pre, nki_loop, act,
		 nki_loop + pre);
	return bt_parse(text);
}

/* every dep of every instruction of @f names an instruction of @f */
static int deps_resolve(struct bir_inst *i, void *arg)
{
	const struct bir_function *f = arg;

	for (uint32_t d = 0; d < i->ndeps; d++)
		if (!bir_inst_find(f, i->deps[d]))
			return -1;
	return 0;
}

/*
 * The copies Unroll makes of a loop body with a collective and a compute
 * instruction alternate (perm_i0, act_i0, perm_i1, ...); each copy of the
 * collective moves up across the compute copies it shares no byte with
 * and merges at order 42: channels 0..3 in k_perm_i0, the activations
 * after it, every dep re-pointed.  They used to stay apart, one
 * collective per channel.
 */
TEST(interleaved_copies_coalesce_across_independent_instructions)
{
	struct bir_module *before = nki_loop_with(
		"{\"name\": \"act\", \"opcode\": \"Activation\", \"engine\": \"ACT\","
		" \"ins\": [" AP("out") "], \"outs\": [" AP("out") "], \"func\": \"relu\"}");
	const struct bir_val *ch;
	struct bir_inst *p;
	struct bir_module *m;

	ASSERT_NE(NULL, before);
	m = bt_scheduled(before, NULL, 3);
	ASSERT_NE(NULL, m);
	p = bir_inst_find(m->fns[0], "k_perm_i0");
	ASSERT_NE(NULL, p);
	EXPECT_EQ(NULL, bir_inst_find(m->fns[0], "k_perm_i1"));
	EXPECT_EQ(NULL, bir_inst_find(m->fns[0], "k_perm_i3"));
	for (int k = 0; k < 4; k++) {
		char n[32];

		snprintf(n, sizeof(n), "k_act_i%d", k);
		EXPECT_NE(NULL, bir_inst_find(m->fns[0], n)) TH_LOG("%s", n);
	}
	EXPECT_EQ(4, p->nins);
	ch = bir_attr_get(p, "channels");
	ASSERT_NE(NULL, ch);
	ASSERT_EQ(4, ch->n);
	for (uint32_t k = 0; k < 4; k++)
		EXPECT_EQ(k, ch->items[k].i);
	EXPECT_EQ(0, bir_foreach_inst(m->fns[0], deps_resolve, m->fns[0]));
	bir_module_free(before);
	bir_module_free(m);
}

/*
 * A compute copy that reads what a later collective copy writes (here the
 * whole of out) keeps that copy where it is: no merge, no error
 */
TEST(dependent_instruction_keeps_the_copies_apart)
{
	struct bir_module *before = nki_loop_with(
		"{\"name\": \"act\", \"opcode\": \"Activation\", \"engine\": \"ACT\","
		" \"ins\": [{\"Skind\": \"physical_ap\", \"memref\": \"out\", \"ap\": [[1, 128], [1, 64]], \"dtype\": \"float32\"}],"
		" \"outs\": [{\"Skind\": \"physical_ap\", \"memref\": \"out\", \"ap\": [[1, 128], [1, 64]], \"dtype\": \"float32\"}],"
		" \"func\": \"relu\"}");
	struct bir_module *m;

	ASSERT_NE(NULL, before);
	m = bt_scheduled(before, NULL, 2);
	ASSERT_NE(NULL, m);
	EXPECT_NE(NULL, bir_inst_find(m->fns[0], "k_perm_i1"));
	EXPECT_NE(NULL, bir_inst_find(m->fns[0], "k_perm_i3"));
	EXPECT_EQ(NULL, bir_attr_get(bir_inst_find(m->fns[0], "k_perm_i0"), "channels"));
	bir_module_free(before);
	bir_module_free(m);
}

#define MANY_CC		3000

/*
 * A block of MANY_CC collectives as Unroll leaves a long loop: collective
 * k (channel k) reads x into a location of its own and depends on the
 * block's first instruction, as instructions of real modules carry deps;
 * with @interleaved, each comes after an activation on a location of its
 * own (the loop body's other instruction); parsed
 */
static struct bir_module *many_collectives(bool interleaved)
{
	struct cc_buf t = { 0 };
	struct bir_module *m;

	cc_put(&t, "{\"arch\": \"trn2\", \"functions\": [{\"name\": \"main\", \"allocations\": ["
	       LOC("x", "Input"));
	for (int k = 0; k < MANY_CC; k++)
		cc_put(&t, ", " LOC("a%d", "SB") ", " LOC("c%d", "SB"), k, k, k, k);
	cc_put(&t, "], \"blocks\": [{\"name\": \"entry\", \"instructions\": ["
	       "{\"name\": \"start\", \"opcode\": \"Activation\", \"engine\": \"ACT\","
	       " \"ins\": [" AP0("x") "], \"outs\": [" AP0("x") "], \"func\": \"relu\"}");
	for (int k = 0; k < MANY_CC; k++) {
		if (interleaved)
			cc_put(&t, ", {\"name\": \"act%d\", \"opcode\": \"Activation\", \"engine\": \"ACT\","
			       " \"ins\": [" AP0("a%d") "], \"outs\": [" AP0("a%d") "], \"func\": \"relu\"}",
			       k, k, k);
		cc_put(&t, ", {\"name\": \"perm%d\", \"opcode\": \"CollectiveCompute\", \"engine\": \"POOL\","
		       " \"ins\": [" AP0("x") "], \"outs\": [" AP0("c%d") "], \"cc_op\": \"PermuteImplicit\","
		       " \"channel\": %d, \"replica_group\": [0, 1], \"deps\": [\"start\"]}",
		       k, k, k);
	}
	cc_put(&t, "]}]}]}");
	m = t.oom ? NULL : bt_parse(t.p);
	free(t.p);
	return m;
}

/*
 * The merge is linear in the collectives of a function: MANY_CC of them,
 * each with a dep, interleaved with independent activations, coalesce in
 * well under a second (2 s of CPU allowed, under ASan), the window's
 * worth into each.  Each dep of each instruction crossed was looked up
 * in a list of every collective merged so far in the function: 6 s for
 * 2,000 at -O2, 17 s for 4,000.
 */
TEST(many_interleaved_collectives_coalesce_in_linear_time)
{
	struct bir_module *m = many_collectives(true);
	const struct bir_val *ch;
	double secs;

	ASSERT_NE(NULL, m);
	ASSERT_EQ(0, bt_timed(m, bir_pass_coalesce, false, &secs));
	TH_LOG("%d collectives: %.2f s of CPU", MANY_CC, secs);
	EXPECT_GT(2.0, secs);
	ch = bir_attr_get(bir_inst_find(m->fns[0], "perm0"), "channels");
	ASSERT_NE(NULL, ch);
	EXPECT_LT(100, ch->n);
	EXPECT_EQ(NULL, bir_inst_find(m->fns[0], "perm1"));
	EXPECT_EQ(0, bir_foreach_inst(m->fns[0], deps_resolve, m->fns[0]));
	bir_module_free(m);
}

/*
 * Merging takes memory linear in what is merged: MANY_CC consecutive
 * collectives merge into one whose operands, channels and deps are
 * allocated once, the module growing by less than it held (about 1 MB
 * here).  Appending them one collective at a time copied the growing
 * arrays each time, and the arena kept every copy: 1.5 GB of RSS for
 * 4,000 collectives in a 2.6 MB module.
 */
TEST(merging_many_collectives_takes_linear_memory)
{
	struct bir_module *m = many_collectives(false);
	struct nscc_err err = { { 0 } };
	struct bir_opts o = { 0 };
	const struct bir_inst *p;
	size_t before, after;

	ASSERT_NE(NULL, m);
	before = bir_module_mem_bytes(m);
	ASSERT_EQ(0, bir_pass_coalesce(m, &o, false, &err)) TH_LOG("%s", err.msg);
	after = bir_module_mem_bytes(m);
	TH_LOG("%d collectives merged: module %zu -> %zu bytes", MANY_CC,
	       before, after);
	EXPECT_GT(2 * before, after);
	p = bir_inst_find(m->fns[0], "perm0");
	ASSERT_NE(NULL, p);
	EXPECT_EQ(MANY_CC, p->nins);
	EXPECT_EQ(MANY_CC, p->nouts);
	EXPECT_STREQ("c2999", p->outs[MANY_CC - 1].name);
	EXPECT_EQ(MANY_CC, bir_attr_get(p, "channels")->n);
	EXPECT_EQ(MANY_CC - 1, bir_attr_get(p, "channels")->items[MANY_CC - 1].i);
	EXPECT_EQ(NULL, bir_attr_get(p, "channel"));
	EXPECT_EQ(1, p->ndeps);
	EXPECT_EQ(2, m->fns[0]->blocks[0]->ninsts);
	bir_module_free(m);
}

/* nested loops number their copies without collisions: c * trips + k */
TEST(unroll_nested_channels)
{
	struct bir_module *m = bt_parse_fn("",
		"{\"name\": \"o\", \"opcode\": \"Loop\", \"LoopAxis\": {\"name\": \"i\", \"lb\": 0, \"ub\": 2},"
		" \"blocks\": [{\"name\": \"ob\", \"instructions\": [{\"name\": \"n\", \"opcode\": \"Loop\","
		" \"LoopAxis\": {\"name\": \"j\", \"lb\": 10, \"ub\": 16, \"stride\": 2}, \"blocks\": [{\"name\": \"nb\","
		" \"instructions\": [{\"name\": \"cc\", \"opcode\": \"CollectiveCompute\", \"cc_op\": \"PermuteImplicit\"}]}]}]}]}");
	struct nscc_err err = { { 0 } };
	const struct bir_block *b;

	ASSERT_NE(NULL, m);
	ASSERT_EQ(0, bir_unroll(m, &err));
	b = m->fns[0]->blocks[0];
	ASSERT_EQ(6, b->ninsts);
	for (uint32_t k = 0; k < 6; k++) {
		EXPECT_EQ(BIR_OP_COLLECTIVE_COMPUTE, b->insts[k]->op);
		EXPECT_EQ(k, bir_attr_int(b->insts[k], "channel", -1))
			TH_LOG("%s", b->insts[k]->name);
	}
	bir_module_free(m);
}

/* "name<-dep,dep" of every instruction of @f into @buf, space-separated */
static int deps_line(struct bir_inst *i, void *arg)
{
	char *buf = arg;
	size_t o = strlen(buf);

	o += snprintf(buf + o, 1024 - o, "%s%s<-", o ? " " : "", i->name);
	for (uint32_t k = 0; k < i->ndeps && o < 1024; k++)
		o += snprintf(buf + o, 1024 - o, "%s%s", k ? "," : "",
			      i->dep_insts[k] ? i->dep_insts[k]->name : "?");
	return 0;
}

/*
 * Nested loops: unrolling the outer one clones the inner Loop whole, and
 * the clone's body deps must reference the clone's own instructions (not
 * the body of the Loop the pass frees), so that unrolling the inner Loop
 * of each copy chains that copy's instructions
 */
TEST(unroll_nested_deps)
{
	struct bir_module *m = bt_parse_fn("",
		"{\"name\": \"o\", \"opcode\": \"Loop\", \"LoopAxis\": {\"name\": \"i\", \"lb\": 0, \"ub\": 2},"
		" \"blocks\": [{\"name\": \"ob\", \"instructions\": [{\"name\": \"n\", \"opcode\": \"Loop\","
		" \"LoopAxis\": {\"name\": \"j\", \"lb\": 0, \"ub\": 2}, \"blocks\": [{\"name\": \"nb\","
		" \"instructions\": [{\"name\": \"a\", \"opcode\": \"Memset\"},"
		" {\"name\": \"c\", \"opcode\": \"TensorCopy\", \"deps\": [\"a\"]}]}]}]}]}");
	struct nscc_err err = { { 0 } };
	char buf[1024] = "";

	ASSERT_NE(NULL, m);
	ASSERT_EQ(0, bir_unroll(m, &err)) TH_LOG("%s", err.msg);
	EXPECT_EQ(0, bir_function_check_index(m->fns[0], &err)) TH_LOG("%s", err.msg);
	bir_foreach_inst(m->fns[0], deps_line, buf);
	EXPECT_STREQ("a_j0<- c_j0<-a_j0 a_j1<-a_j0 c_j1<-a_j1,c_j0 "
		     "a_j0.1<- c_j0.1<-a_j0.1 a_j1.1<-a_j0.1 c_j1.1<-a_j1.1,c_j0.1",
		     buf);
	bir_module_free(m);
}

TEST_HARNESS_MAIN
