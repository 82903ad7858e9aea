// SPDX-License-Identifier: GPL-2.0
/*
 * bir_inline_bir.c - InlineBIRKernel (compiler-passes.rst): every kernel
 * family expands to primitives (golden), outputs identical to the
 * interpreter's reference on random inputs, both placements, and on
 * error the message comes back with the module unchanged.
 */
#include "kselftest_harness.h"
#include "bir_test.h"
#include "tl_text.h"

static const char *const fams[] = {
	"activation", "rmsnorm", "layernorm", "mlp", "attention",
};

TEST(every_family_golden_and_equivalence)
{
	for (size_t k = 0; k < sizeof(fams) / sizeof(fams[0]); k++) {
		char ex[64], gold[64];
		struct bir_opts o = { .enable_bir_kernel = true };
		struct bir_module *m;

		snprintf(ex, sizeof(ex), "bir_%s.bir.json", fams[k]);
		snprintf(gold, sizeof(gold), "bir_%s.after.json", fams[k]);
		m = bt_load_scheduled(ex, &o, 3);
		ASSERT_NE(NULL, m);
		EXPECT_EQ(0, bt_golden(m, gold));
		for (uint32_t b = 0; b < m->fns[0]->nblocks; b++)
			for (uint32_t i = 0; i < m->fns[0]->blocks[b]->ninsts; i++)
				EXPECT_NE(BIR_OP_BIR_KERNEL,
					  m->fns[0]->blocks[b]->insts[i]->op);
		bir_module_free(m);
	}
}

/*
 * without enableBirKernel the call waits at order 48 (placement false)
 * and is inlined at 60 (true)
 */
TEST(placement_48_needs_enable)
{
	struct bir_module *m = bt_load("bir_mlp.bir.json");

	ASSERT_NE(NULL, m);
	for (int pos = 0; pos < 2; pos++) {
		EXPECT_EQ(0, bt_run(m, bir_pass_inline_bir, pos));
		EXPECT_EQ(!pos, bir_inst_find(m->fns[0], "mlp0") != NULL);
	}
	EXPECT_NE(NULL, bir_inst_find(m->fns[0], "mlp0_up"));
	EXPECT_NE(NULL, bir_memloc_find(m->fns[0], "mlp0:hT"));
	bir_module_free(m);
}

TEST(log_lines)
{
	struct bir_module *m = bt_load("bir_attention.bir.json");
	struct nscc_err err = { { 0 } };
	FILE *log = tmpfile();
	struct bir_opts o = { .log = log };
	char *s;

	ASSERT_NE(NULL, m);
	EXPECT_EQ(0, bir_pass_inline_bir(m, &o, true, &err));
	s = bt_slurp(log);
	EXPECT_EQ(0, tl_missing(s, (const char *const []){
		"BIR SB coloring allocator is off\n",
		"Found InstBIRKernel: [attention]attn0\n",
		"Scan BKs time (s): ", "Lower BKs time (s): ", NULL }));
	free(s);
	fclose(log);
	bir_module_free(m);
}

/* a bad attribute of the kernel call of bir_activation, bir_mlp or bir_rmsnorm */
#define ACT0(key, val, msg)	{ "bir_activation.bir.json", "act0", key, val, msg }
#define MLP0(key, val, msg)	{ "bir_mlp.bir.json", "mlp0", key, val, msg }
#define RMS0(key, val, msg)	{ "bir_rmsnorm.bir.json", "rms0", key, val, msg }

/* a bad kernel call: the message, and the module as it was */
static const struct bt_refusal bads[] = {
	ACT0("kernel_name", "\"softmax2\"", "BIRKernel 'act0': unknown kernel_name 'softmax2' (known: activation, rmsnorm, layernorm, mlp, attention)"),
	ACT0("kernel_attrs", "{\"func\": \"cube\"}", "BIRKernel 'act0' (activation): kernel_attrs 'func' has unknown value 'cube'"),
	ACT0("dsts_shape", "[[128, 16]]", "BIRKernel 'act0' (activation): dsts_shape[0] [128, 16] does not match the access pattern of 'y'"),
	ACT0("srcs_shape", "[]", "BIRKernel 'act0' (activation): 'srcs_shape' must list 1 shapes, one per input operand (has 0, 1 operands)"),
	ACT0("srcs_shape", "[[0, 32]]", "BIRKernel 'act0' (activation): srcs_shape[0] must be [partitions 1..128, free 1..65536]"),
	MLP0("srcs_shape", "[[64, 32], [64, 96], [64, 48]]", "BIRKernel 'mlp0' (mlp): srcs_shape[2] [64, 48] does not match the access pattern of 'w2'"),
	MLP0("kernel_attrs", "{\"act\": \"softplus\"}", "BIRKernel 'mlp0' (mlp): kernel_attrs 'act' has unknown value 'softplus'"),
	RMS0("dsts_shape", "[[128, 32], [128, 32]]", "BIRKernel 'rms0' (rmsnorm): 'dsts_shape' must list 1 shapes, one per output operand (has 2, 1 operands)"),
};

TEST(errors_leave_module_unchanged)
{
	EXPECT_EQ(0, bt_refusals(bads, sizeof(bads) / sizeof(bads[0]),
				 bir_pass_inline_bir, true, bt_refused_unchanged));
}

TEST(second_kernel_fails_first_rolled_back)
{
	struct bir_module *m = bt_load("bir_activation.bir.json");
	struct bir_inst *c;

	ASSERT_NE(NULL, m);
	c = bir_inst_clone(m, bir_inst_find(m->fns[0], "act0"));
	ASSERT_NE(NULL, c);
	ASSERT_EQ(0, bt_set_attr(c, "kernel_name", "\"nope\""));
	ASSERT_EQ(0, bir_inst_insert(m->fns[0]->blocks[0], c, -1));
	EXPECT_EQ(0, bt_refused_unchanged(m, NULL, bir_pass_inline_bir, true, -EINVAL,
					  "BIRKernel 'act0.1': unknown kernel_name 'nope' (known: activation, rmsnorm, layernorm, mlp, attention)"));
	bir_module_free(m);
}

/*
 * the allocator fails after a commit (no SBUF left for the temporaries):
 * the commit is undone, a location the allocator placed on the way is
 * unplaced again, and the module reads as before
 */
TEST(allocation_failure_rolled_back)
{
	struct bir_module *m = bt_load("bir_rmsnorm.bir.json");
	struct nscc_err err = { { 0 } };
	struct bir_opts o = { 0 };
	struct bir_memloc_set *s;
	struct bir_memloc *filler, *late;

	ASSERT_NE(NULL, m);
	ASSERT_EQ(0, bir_pass_rtmemres(m, &o, false, &err));
	ASSERT_EQ(0, bir_pass_sballoc(m, &o, false, &err));
	/* all of SBUF but 8 bytes below the reservation */
	s = bir_set_add(m->fns[0], "filler");
	ASSERT_NE(NULL, s);
	filler = bir_memloc_add(s, "filler");
	ASSERT_NE(NULL, filler);
	filler->dims[0] = 128;
	filler->dims[1] = 229368 - 8;
	ASSERT_EQ(0, bir_sballoc_function(m->fns[0], &err));
	EXPECT_EQ(0, filler->addr);
	/* an unplaced location that the commit's allocator run places */
	s = bir_set_add(m->fns[0], "late");
	ASSERT_NE(NULL, s);
	late = bir_memloc_add(s, "late");
	ASSERT_NE(NULL, late);
	late->dims[0] = 128;
	late->dims[1] = 8;
	EXPECT_EQ(0, bt_refused_unchanged(m, NULL, bir_pass_inline_bir, true, -ENOSPC,
					  "function 'main': SBUF exhausted placing memory location 'rms0:sq' (128 bytes per partition on partitions 0..127): largest free range is 0 of 229376 bytes"));
	EXPECT_FALSE(late->allocated);
	EXPECT_NE(NULL, bir_inst_find(m->fns[0], "rms0"));
	EXPECT_EQ(NULL, bir_memloc_find(m->fns[0], "rms0:sq"));
	bir_module_free(m);
}

/* the module text after "# after NAME (order N)", parsed */
static struct bir_module *after_dump(const char *text)
{
	const char *nl = strchr(text, '\n');

	return nl && !strncmp(text, "# after ", 8) ? bt_parse(nl + 1) : NULL;
}

/*
 * enableBirKernel: BIR kernels inline at 48, pre-coloring (their
 * temporaries left for the SB coloring allocator at 50), and 60 skips;
 * without it (the default) 48 skips and 60 inlines them, post-coloring
 */
TEST(enable_bir_kernel_48_or_60)
{
	/* the log of the two placements, enableBirKernel off and on */
	static const char *const logs[2][3] = {
		{ "BIR SB coloring allocator is off\n"
		  "BIR kernels are inlined at order 60 (enableBirKernel off)\n"
		  "pass 48 inline_bir_kernel: ",
		  "BIR SB coloring allocator is on\n"
		  "BIR kernel temporaries are placed by each wrapper (post-coloring)\n"
		  "Found InstBIRKernel: [mlp]mlp0\n", NULL },
		{ "BIR SB coloring allocator is off\n"
		  "BIR kernel temporaries are left to the SB coloring allocator (pre-coloring)\n"
		  "Found InstBIRKernel: [mlp]mlp0\n",
		  "BIR SB coloring allocator is on\n"
		  "BIR kernels are inlined at order 48 (enableBirKernel on)\n"
		  "pass 60 inline_bir_kernel: ", NULL },
	};

	for (int en = 0; en < 2; en++) {
		struct bir_module *m = bt_load("bir_mlp.bir.json"), *at48;
		const struct bir_memloc *ht;
		struct nscc_err err = { { 0 } };
		FILE *log = tmpfile(), *dump = tmpfile();
		struct bir_opts o = { .log = log, .enable_bir_kernel = en,
				      .dump_after = "inline_bir_kernel@48",
				      .dump = dump };
		char *l, *d;

		ASSERT_NE(NULL, m);
		ASSERT_EQ(0, bt_passes(m, &o, &err));
		l = bt_slurp(log);
		d = bt_slurp(dump);
		at48 = after_dump(d);
		ASSERT_NE(NULL, at48);
		/* at 48: inlined with its temporaries unplaced, or not yet */
		ht = bir_memloc_find(at48->fns[0], "mlp0:hT");
		EXPECT_EQ(!en, bir_inst_find(at48->fns[0], "mlp0") != NULL);
		EXPECT_EQ(en, ht != NULL);
		EXPECT_FALSE(ht && ht->allocated);
		EXPECT_EQ(0, tl_missing(l, logs[en]));
		/* either way the final module is the same and placed */
		EXPECT_EQ(NULL, bir_inst_find(m->fns[0], "mlp0"));
		ASSERT_NE(NULL, bir_memloc_find(m->fns[0], "mlp0:hT"));
		EXPECT_TRUE(bir_memloc_find(m->fns[0], "mlp0:hT")->allocated);
		EXPECT_EQ(0, bt_golden(m, "bir_mlp.after.json"));
		free(l);
		free(d);
		fclose(log);
		fclose(dump);
		bir_module_free(at48);
		bir_module_free(m);
	}
}

/*
 * posFlag is the pass position: after the order-40 allocator, a
 * wrapper at 48 (false, pre-coloring) leaves its temporaries unplaced,
 * one at 60 (true, post-coloring) places them
 */
TEST(pos_flag_is_the_pass_position)
{
	for (int pos = 0; pos < 2; pos++) {
		struct bir_module *m = bt_load("bir_rmsnorm.bir.json");
		struct nscc_err err = { { 0 } };
		struct bir_opts o = { .enable_bir_kernel = !pos };
		const struct bir_memloc *t;

		ASSERT_NE(NULL, m);
		ASSERT_EQ(0, bir_pass_rtmemres(m, &o, false, &err));
		ASSERT_EQ(0, bir_pass_sballoc(m, &o, false, &err));
		ASSERT_EQ(0, bir_pass_inline_bir(m, &o, pos, &err)) TH_LOG("%s", err.msg);
		t = bir_memloc_find(m->fns[0], "rms0:sq");
		ASSERT_NE(NULL, t);
		EXPECT_EQ(pos, t->allocated);
		ASSERT_EQ(0, bir_pass_sballoc(m, &o, true, &err));
		EXPECT_TRUE(t->allocated);
		EXPECT_TRUE(m->sb_colored);
		bir_module_free(m);
	}
}

/* the neuronsim-cc switch */
TEST(cli_enable_bir_kernel)
{
	char *out;
	int st = -1;

	out = bt_run_tool(NULL, &st, "passes --dump-after=inline_bir_kernel@48 '%sbir_mlp.bir.json'",
			  BIR_EXAMPLES);
	if (!out)
		SKIP(return, "%s is not built", NEURONSIM_CC);
	EXPECT_EQ(0, st);
	EXPECT_NE(NULL, strstr(out, "\"opcode\": \"BIRKernel\""));
	free(out);
	out = bt_run_tool(NULL, &st, "passes --enable-bir-kernel --dump-after=inline_bir_kernel@48 '%sbir_mlp.bir.json'",
			  BIR_EXAMPLES);
	ASSERT_NE(NULL, out);
	EXPECT_EQ(0, st);
	EXPECT_EQ(NULL, strstr(out, "\"opcode\": \"BIRKernel\""));
	EXPECT_NE(NULL, strstr(out, "\"name\": \"mlp0_up\""));
	free(out);
	EXPECT_EQ(0, bt_tool_status("compile --enable-bir-kernel '%sbir_mlp.bir.json' -o /dev/null",
				    BIR_EXAMPLES));
}

TEST_HARNESS_MAIN
