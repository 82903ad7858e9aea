// SPDX-License-Identifier: GPL-2.0
/*
 * bir_inline_nki.c - InlineNKIKernel (compiler-passes.rst) and the KLR
 * cleanup passes: golden module after the schedule, the interpreter
 * equivalence, both placements, names, and every error message.
 */
#include <unistd.h>
#include <jansson.h>
#include "kselftest_harness.h"
#include "bir_test.h"
#include "tl_text.h"

TEST(schedule_golden_and_equivalence)
{
	struct bir_module *m;
	FILE *log = tmpfile();
	struct bir_opts o = { .log = log };
	char *text;

	m = bt_load_scheduled("nki_twice.bir.json", &o, 8);
	ASSERT_NE(NULL, m);
	EXPECT_EQ(0, bt_golden(m, "nki_twice.after.json"));
	EXPECT_EQ(1, m->nfns);	/* the callee was dropped */
	EXPECT_EQ(NULL, bir_function_find(m, "nki_kernel"));
	/* both call sites, one kernel, no collision */
	EXPECT_NE(NULL, bir_memloc_find(m->fns[0], "k1:t"));
	EXPECT_NE(NULL, bir_memloc_find(m->fns[0], "k2:t"));
	EXPECT_NE(NULL, bir_inst_find(m->fns[0], "k1_br_to_continuation"));
	EXPECT_NE(NULL, bir_inst_find(m->fns[0], "k2_br_to_continuation"));
	EXPECT_NE(NULL, bir_block_find(m->fns[0], "k1_pos"));
	EXPECT_NE(NULL, bir_block_find(m->fns[0], "k2_cont"));
	/* Unroll: 4 clones, no Loop; ConstantPropagate: copy of zeros is a
	 * Memset 0 and the dead Activation and its location are gone */
	EXPECT_NE(NULL, bir_inst_find(m->fns[0], "k1_relu_i3"));
	EXPECT_EQ(NULL, bir_inst_find(m->fns[0], "k1_loop"));
	EXPECT_STREQ("Memset", bir_inst_find(m->fns[0], "k1_init")->opname);
	EXPECT_EQ(NULL, bir_inst_find(m->fns[0], "k1_dead"));
	EXPECT_EQ(NULL, bir_memloc_find(m->fns[0], "k1:d"));
	/* LowerGenericIndirect: a TensorCopy with a register term */
	EXPECT_STREQ("TensorCopy", bir_inst_find(m->fns[0], "k2_gather")->opname);
	/* SB rebase onto the call site's output (ws1) */
	EXPECT_EQ(bir_memloc_find(m->fns[0], "ws1")->addr + 256,
		  bir_memloc_find(m->fns[0], "k1:t")->addr);
	EXPECT_EQ(2, bir_memloc_find(m->fns[0], "k1:t")->set->scope);
	/* the placement gate and its log line */
	text = bt_slurp(log);
	EXPECT_EQ(0, tl_missing(text, (const char *const []){
		"Found InstNKIKernel: k2\nSkip lowering k2 because the allocation status of the kernel is not consistent with the current location of the pass\n",
		"dropping func nki_kernel", "pass 41 inline_nki_kernel: ",
		NULL }));
	free(text);
	fclose(log);
	bir_module_free(m);
}

TEST(placement_41_only)
{
	struct bir_module *m = bt_load("nki_twice.bir.json");

	ASSERT_NE(NULL, m);
	ASSERT_EQ(0, bt_run(m, bir_pass_inline_nki, false));
	EXPECT_EQ(NULL, bir_inst_find(m->fns[0], "k1"));
	EXPECT_NE(NULL, bir_inst_find(m->fns[0], "k2"));
	/* k2 still calls it: the kernel function stays */
	EXPECT_NE(NULL, bir_function_find(m, "nki_kernel"));
	EXPECT_EQ(0, bt_golden(m, "nki_twice.after41.json"));
	bir_module_free(m);
}

TEST(tensor_map_reemitted)
{
	struct bir_module *m = bt_load("nki_twice.bir.json");
	struct nscc_err err = { { 0 } };
	char path[] = "/tmp/bir_tmapXXXXXX";
	int fd = mkstemp(path);
	struct bir_opts o = { .tensor_map_path = path };
	json_t *tm;

	ASSERT_NE(NULL, m);
	ASSERT_LE(0, fd);
	close(fd);
	unlink(path);
	ASSERT_EQ(0, bir_pass_inline_nki(m, &o, false, &err));
	tm = json_load_file(path, 0, NULL);
	ASSERT_NE(NULL, tm);
	EXPECT_NE(NULL, json_object_get(tm, "k1:t"));
	EXPECT_STREQ("float32", json_string_value(json_object_get(
			json_object_get(tm, "k1:t"), "dtype")));
	json_decref(tm);
	unlink(path);
	bir_module_free(m);
}

/*
 * neuronsim-cc --tensor-map=FILE: the map is loaded (its entries kept)
 * and written back with the sets both placements created
 */
TEST(cli_tensor_map)
{
	char path[] = "/tmp/bir_tmapXXXXXX", *out;
	int fd = mkstemp(path), st = -1;
	const char *seed = "{\"x\": {\"dtype\": \"float32\", \"shape\": [128, 64]}}";
	json_t *tm;

	ASSERT_LE(0, fd);
	ASSERT_EQ((ssize_t)strlen(seed), write(fd, seed, strlen(seed)));
	close(fd);
	out = bt_run_tool(NULL, &st, "compile --tensor-map='%s' '%snki_twice.bir.json' -o /dev/null",
			  path, BIR_EXAMPLES);
	if (!out) {
		unlink(path);
		SKIP(return, "%s is not built", NEURONSIM_CC);
	}
	EXPECT_EQ(0, st);
	free(out);
	tm = json_load_file(path, 0, NULL);
	ASSERT_NE(NULL, tm);
	EXPECT_EQ(3, json_object_size(tm));
	EXPECT_NE(NULL, json_object_get(tm, "x"));
	EXPECT_STREQ("float32", json_string_value(json_object_get(
			json_object_get(tm, "k1:t"), "dtype")));
	EXPECT_EQ(2, json_array_size(json_object_get(json_object_get(tm, "k2:t"), "shape")));
	json_decref(tm);
	unlink(path);
}

/* a tensor map file that is JSON but not an object is refused, named */
TEST(tensor_map_not_an_object)
{
	struct bir_module *m = bt_load("nki_twice.bir.json");
	struct nscc_err err = { { 0 } };
	char path[] = "/tmp/bir_tmapXXXXXX", want[256];
	int fd = mkstemp(path);
	struct bir_opts o = { .tensor_map_path = path };

	ASSERT_NE(NULL, m);
	ASSERT_LE(0, fd);
	ASSERT_EQ(2, write(fd, "[]", 2));
	close(fd);
	EXPECT_EQ(-EINVAL, bir_pass_inline_nki(m, &o, false, &err));
	snprintf(want, sizeof(want), "tensor map '%s' is not a JSON object", path);
	EXPECT_STREQ(want, err.msg);
	unlink(path);
	bir_module_free(m);
}

#define K1(key, val, msg)	{ "nki_twice.bir.json", "k1", key, val, msg }

/* a bad call site k1 (attribute set, or removed: NULL), a bad kernel */
static const struct bt_refusal bads[] = {
	K1("kernel_source_val", "3", "Unrecognized kernel source encountered. (instruction 'k1': kernel_source_val 3; the kinds are 0, 1 and 2)"),
	K1("kernel_source_val", "-1", "Unrecognized kernel source encountered. (instruction 'k1': kernel_source_val -1; the kinds are 0, 1 and 2)"),
	K1("kernel_source_val", "\"x\"", "instruction 'k1': 'kernel_source_val' must be an integer"),
	K1("func", NULL, "instruction 'k1': NKIKernel needs a string 'func'"),
	K1("func", "\"nope\"", "instruction 'k1': kernel function 'nope' not found"),
	K1("func_args", "[\"a\"]", "instruction 'k1': 'func_args' must be an array with one callee parameter name per operand"),
	K1("func_args", "[\"zz\", \"cond\", \"idx\", \"tab\"]", "instruction 'k1': kernel has no parameter 'zz'"),
	/* the kernel's branch to its join block */
	{ "nki_twice.bir.json", "to_join", "target", "\"entry\"",
	  "instruction 'k1': kernel branch back to its entry block 'entry' is not supported" },
};

TEST(errors)
{
	EXPECT_EQ(0, bt_refusals(bads, sizeof(bads) / sizeof(bads[0]),
				 bir_pass_inline_nki, false,
				 bt_refused_unchanged));
}

/* what the KLR cleanup passes refuse, named */
static const struct {
	int (*pass)(struct bir_module *m, struct nscc_err *err);
	const char *insts, *msg;	/* the instructions of bt_parse_fn() */
} klr_bads[] = {
	{ bir_unroll,
	  "{\"name\": \"l\", \"opcode\": \"Loop\", \"LoopAxis\": {\"name\": \"i\", \"lb\": 0, \"ub\": 2}, \"blocks\": [{\"name\": \"x\", \"instructions\": [{\"name\": \"j\", \"opcode\": \"UnconditionalBranch\", \"target\": \"b\"}]}]}",
	  "Unroll: instruction 'l': a branch inside a Loop body is not supported" },
	{ bir_lower_generic_indirect,
	  "{\"name\": \"g\", \"opcode\": \"GenericIndirectLoad\"}",
	  "LowerGenericIndirect: instruction 'g': needs ins [physical_ap, register_access], one out and an integer 'index_stride'" },
};

TEST(klr_errors)
{
	for (size_t k = 0; k < sizeof(klr_bads) / sizeof(klr_bads[0]); k++) {
		struct bir_module *m = bt_parse_fn("", klr_bads[k].insts);
		struct nscc_err err = { { 0 } };

		ASSERT_NE(NULL, m);
		EXPECT_EQ(-EINVAL, klr_bads[k].pass(m, &err));
		EXPECT_STREQ(klr_bads[k].msg, err.msg);
		bir_module_free(m);
	}
}

/*
 * ConstantPropagate sizes elements by the plan core's dtype table
 * (enum kbin_dtype, kbin_dma.h): a float64 location fully set by
 * Memset 0 is known to be covered, so the copy of it becomes Memset 0
 */
TEST(constant_propagate_uses_the_dtype_table)
{
	struct bir_module *m = bt_parse_fn(
		"{\"Skind\": \"memory_location_set\", \"name\": \"z\", \"dtype\": \"float64\", \"memorylocations\": [{\"name\": \"z\", \"type\": \"SB\", \"dims\": [128, 512]}]},"
		"{\"Skind\": \"memory_location_set\", \"name\": \"t\", \"dtype\": \"float64\", \"memorylocations\": [{\"name\": \"t\", \"type\": \"Output\", \"dims\": [128, 512]}]}",
		"{\"name\": \"zero\", \"opcode\": \"Memset\", \"outs\": [{\"Skind\": \"physical_ap\", \"memref\": \"z\", \"ap\": [[1, 128], [1, 64]], \"dtype\": \"float64\"}], \"value\": 0.0},"
		"{\"name\": \"cp\", \"opcode\": \"TensorCopy\", \"ins\": [{\"Skind\": \"physical_ap\", \"memref\": \"z\", \"ap\": [[1, 128], [1, 64]], \"dtype\": \"float64\"}],"
		" \"outs\": [{\"Skind\": \"physical_ap\", \"memref\": \"t\", \"ap\": [[1, 128], [1, 64]], \"dtype\": \"float64\"}]}");
	struct nscc_err err = { { 0 } };

	ASSERT_NE(NULL, m);
	ASSERT_EQ(0, bir_constant_propagate(m, NULL, 0, &err));
	ASSERT_NE(NULL, bir_inst_find(m->fns[0], "cp"));
	EXPECT_STREQ("Memset", bir_inst_find(m->fns[0], "cp")->opname);
	EXPECT_EQ(NULL, bir_memloc_find(m->fns[0], "z"));
	bir_module_free(m);
}

/* the names of @i's deps, comma-separated, into @buf */
static const char *deps_str(const struct bir_inst *i, char *buf, size_t cap)
{
	size_t o = 0;

	buf[0] = 0;
	for (uint32_t k = 0; i && k < i->ndeps && o < cap; k++)
		o += snprintf(buf + o, cap - o, "%s%s", k ? "," : "", i->deps[k]);
	return buf;
}

/*
 * Unroll's unroll deps: each copy follows its counterpart of the
 * previous iteration; a dep on a body sibling stays in its iteration; the
 * first iteration takes the Loop's deps; a dep on the Loop becomes deps
 * on its last iteration
 */
TEST(unroll_deps)
{
	struct bir_module *m = bt_parse_fn("",
		"{\"name\": \"pre\", \"opcode\": \"Memset\"},"
		"{\"name\": \"l\", \"opcode\": \"Loop\", \"deps\": [\"pre\"], \"LoopAxis\": {\"name\": \"i\", \"lb\": 0, \"ub\": 3},"
		" \"blocks\": [{\"name\": \"x\", \"instructions\": [{\"name\": \"a\", \"opcode\": \"Memset\"},"
		" {\"name\": \"c\", \"opcode\": \"TensorCopy\", \"deps\": [\"a\"]}]}]},"
		"{\"name\": \"post\", \"opcode\": \"Memset\", \"deps\": [\"l\"]}");
	struct nscc_err err = { { 0 } };
	const struct bir_function *f;
	char buf[256];

	ASSERT_NE(NULL, m);
	ASSERT_EQ(0, bir_unroll(m, &err));
	f = m->fns[0];
	EXPECT_STREQ("pre", deps_str(bir_inst_find(f, "a_i0"), buf, sizeof(buf)));
	EXPECT_STREQ("a_i0,pre", deps_str(bir_inst_find(f, "c_i0"), buf, sizeof(buf)));
	EXPECT_STREQ("a_i0", deps_str(bir_inst_find(f, "a_i1"), buf, sizeof(buf)));
	EXPECT_STREQ("a_i1,c_i0", deps_str(bir_inst_find(f, "c_i1"), buf, sizeof(buf)));
	EXPECT_STREQ("a_i2,c_i1", deps_str(bir_inst_find(f, "c_i2"), buf, sizeof(buf)));
	EXPECT_STREQ("c_i2,a_i2", deps_str(bir_inst_find(f, "post"), buf, sizeof(buf)));
	bir_module_free(m);
}

/*
 * The inliner's bookkeeping on what it clones in: unroll deps re-pointed
 * at the clones and logged, scope bits 2 and 3 cleared, and the
 * address-space dirty bit of the kernel's source kind on every location
 * it re-creates
 */
TEST(inliner_bookkeeping)
{
	for (int kind = 0; kind < 3; kind++) {
		struct bir_module *m = bt_load("nki_twice.bir.json");
		struct nscc_err err = { { 0 } };
		FILE *log = tmpfile();
		struct bir_opts o = { .log = log };
		char val[8], buf[256], *text;
		struct bir_inst *add;

		ASSERT_NE(NULL, m);
		snprintf(val, sizeof(val), "%d", kind);
		ASSERT_EQ(0, bt_set_attr(bir_inst_find(m->fns[0], "k1"),
					 "kernel_source_val", val));
		add = bir_inst_find(bir_function_find(m, "nki_kernel"), "add");
		ASSERT_NE(NULL, add);
		add->scope = 0x1f;
		bir_inst_find(m->fns[0], "mid")->scope = 0xc;	/* not a clone */
		ASSERT_EQ(0, bir_pass_inline_nki(m, &o, false, &err)) TH_LOG("%s", err.msg);
		text = bt_slurp(log);
		EXPECT_NE(NULL, strstr(text, "adding unroll dep from k1_relu_i1 to k1_relu_i0\n"
				       "adding unroll dep from k1_relu_i2 to k1_relu_i1\n"
				       "adding unroll dep from k1_relu_i3 to k1_relu_i2\n")) TH_LOG("%s", text);
		free(text);
		fclose(log);
		EXPECT_STREQ("k1_relu_i2", deps_str(bir_inst_find(m->fns[0], "k1_relu_i3"),
						    buf, sizeof(buf)));
		EXPECT_EQ(0x13, bir_inst_find(m->fns[0], "k1_add")->scope);
		EXPECT_EQ(0xc, bir_inst_find(m->fns[0], "mid")->scope);
		EXPECT_EQ(1U << kind, bir_memloc_find(m->fns[0], "k1:t")->addr_space_dirty);
		EXPECT_EQ(0, bir_memloc_find(m->fns[0], "y1")->addr_space_dirty);
		/* and in the JSON */
		text = bir_module_to_string(m);
		snprintf(buf, sizeof(buf), "\"addr_space_dirty\": %d", 1 << kind);
		EXPECT_NE(NULL, strstr(text, buf));
		EXPECT_NE(NULL, strstr(text, "\"scope\": 19,"));
		free(text);
		bir_module_free(m);
	}
}

#define CY_LOC(n, t) "{\"Skind\": \"memory_location_set\", \"name\": \"" n "\", \"memorylocations\":" \
	" [{\"name\": \"" n "\", \"type\": \"" t "\", \"dims\": [128, 256]}]}"
#define CY_AP(n) "{\"Skind\": \"physical_ap\", \"memref\": \"" n "\", \"ap\": [[1, 128], [1, 64]]}"

/* an NKIKernel named @name calling @func, @in -> @out */
static size_t cy_call(char *buf, size_t cap, const char *name, const char *func,
		      const char *in, const char *out)
{
	return (size_t)snprintf(buf, cap, ", {\"name\": \"%s\", \"opcode\": \"NKIKernel\", \"ins\":"
		" [{\"Skind\": \"physical_ap\", \"memref\": \"%s\", \"ap\": [[1, 128], [1, 64]]}],"
		" \"outs\": [{\"Skind\": \"physical_ap\", \"memref\": \"%s\", \"ap\": [[1, 128], [1, 64]]}],"
		" \"func\": \"%s\", \"func_args\": [\"a\"], \"func_outs\": [\"out\"]}",
		name, in, out, func);
}

/* a kernel function (a -> out) and the kernels it calls ("call_<name>") */
struct cy_fn {
	const char *name;
	const char *calls[2];
};

/* main (x -> y) calls f ("k"), then the kernel functions @fns */
static struct bir_module *cy_module(const struct cy_fn *fns)
{
	char text[8192], call[64];
	size_t o;

	o = (size_t)snprintf(text, sizeof(text), "{\"arch\": \"trn2\", \"functions\": [{\"name\": \"main\","
			     " \"allocations\": [" CY_LOC("x", "Input") ", " CY_LOC("y", "Output") "],"
			     " \"blocks\": [{\"name\": \"entry\", \"instructions\": [{\"name\": \"c\","
			     " \"opcode\": \"Memset\"}");
	o += cy_call(text + o, sizeof(text) - o, "k", "f", "x", "y");
	o += (size_t)snprintf(text + o, sizeof(text) - o, "]}]}");
	for (; fns->name; fns++) {
		o += (size_t)snprintf(text + o, sizeof(text) - o, ", {\"name\": \"%s\", \"allocations\": ["
				      CY_LOC("a", "Input") ", " CY_LOC("out", "Output") "], \"blocks\":"
				      " [{\"name\": \"entry\", \"instructions\": [{\"name\": \"c\", \"opcode\":"
				      " \"TensorCopy\", \"ins\": [" CY_AP("a") "], \"outs\": [" CY_AP("out") "]}",
				      fns->name);
		for (int k = 0; k < 2 && fns->calls[k]; k++) {
			snprintf(call, sizeof(call), "call_%s", fns->calls[k]);
			o += cy_call(text + o, sizeof(text) - o, call,
				     fns->calls[k], "a", "out");
		}
		o += (size_t)snprintf(text + o, sizeof(text) - o, "]}]}");
	}
	snprintf(text + o, sizeof(text) - o, "]}");
	return bt_parse(text);
}

/* the kernel call graphs, each ended by a function without a name */
static const struct {
	struct cy_fn fns[4];
	const char *msg;
} cycles[] = {
	{ { { "f", { "f" } } },
	  "NKI kernel 'f' calls itself (instruction 'call_f'): NKI kernel call cycle: f -> f" },
	{ { { "f", { "g" } }, { "g", { "f" } } },
	  "NKI kernel call cycle: f -> g -> f (instructions 'call_g' in 'f', 'call_f' in 'g')" },
	{ { { "f", { "g" } }, { "g", { "h" } }, { "h", { "g" } } },
	  "NKI kernel call cycle: g -> h -> g (instructions 'call_h' in 'g', 'call_g' in 'h')" },
	{ { { "f", { "main" } } },
	  "NKI kernel call cycle: main -> f -> main (instructions 'k' in 'main', 'call_main' in 'f')" },
};
static const struct cy_fn cy_chain[] = {
	{ "f", { "g" } }, { "g", { NULL } }, { NULL },
};

/*
 * A kernel that calls itself, or a cycle of kernel calls, is refused as
 * such before anything changes, naming the functions and call sites
 */
TEST(call_cycles_refused)
{
	for (size_t k = 0; k < sizeof(cycles) / sizeof(cycles[0]); k++) {
		for (int flag = 0; flag < 2; flag++) {
			struct bir_module *m = cy_module(cycles[k].fns);

			ASSERT_NE(NULL, m);
			EXPECT_EQ(0, bt_refused_unchanged(m, NULL, bir_pass_inline_nki,
							  flag, -ELOOP, cycles[k].msg));
			bir_module_free(m);
		}
	}
	/* through the whole schedule: named by its pass */
	{
		struct bir_module *m = cy_module(cycles[1].fns);
		struct nscc_err err = { { 0 } };
		struct bir_opts o = { 0 };

		ASSERT_NE(NULL, m);
		EXPECT_EQ(-ELOOP, bir_run_passes(m, &o, &err));
		EXPECT_STREQ("inline_nki_kernel (order 41): NKI kernel call cycle: f -> g -> f (instructions 'call_g' in 'f', 'call_f' in 'g')",
			     err.msg);
		bir_module_free(m);
	}
	/* a chain main -> f -> g is no cycle */
	{
		struct bir_module *m = cy_module(cy_chain);
		struct nscc_err err = { { 0 } };
		struct bir_opts o = { 0 };

		ASSERT_NE(NULL, m);
		EXPECT_EQ(0, bir_pass_inline_nki(m, &o, false, &err)) TH_LOG("%s", err.msg);
		bir_module_free(m);
	}
}

/*
 * A kernel's parameters are its effect: an output parameter typed SB or
 * DRAM (not Output) that the kernel writes and never reads keeps its
 * writer through ConstantPropagate, so the call binds it and the caller
 * gets the write (it used to be deleted as a dead result, and inlining
 * failed with "kernel has no parameter 'out'")
 */
TEST(constant_propagate_keeps_parameters)
{
	static const char *const types[] = { "SB", "DRAM", "Output" };

	for (size_t t = 0; t < sizeof(types) / sizeof(types[0]); t++) {
		char j[4096];
		struct bir_module *before, *m;
		struct nscc_err err = { { 0 } };
		struct bir_opts o = { 0 };
		const struct bir_inst *cp;

		snprintf(j, sizeof(j), "{\"arch\": \"trn2\", \"functions\": [{\"name\": \"main\", \"allocations\": ["
			 CY_LOC("x", "Input") ", " CY_LOC("y", "Output") "], \"blocks\": [{\"name\": \"entry\","
			 " \"instructions\": [{\"name\": \"k\", \"opcode\": \"NKIKernel\", \"ins\": [" CY_AP("x") "],"
			 " \"outs\": [" CY_AP("y") "], \"func\": \"f\", \"func_args\": [\"a\"], \"func_outs\": [\"out\"]}]}]},"
			 " {\"name\": \"f\", \"allocations\": [" CY_LOC("a", "Input") ", " CY_LOC("out", "%s") "],"
			 " \"blocks\": [{\"name\": \"entry\", \"instructions\": [{\"name\": \"cp\", \"opcode\": \"TensorCopy\","
			 " \"ins\": [" CY_AP("a") "], \"outs\": [" CY_AP("out") "]}]}]}]}", types[t]);
		before = bt_parse(j);
		ASSERT_NE(NULL, before);
		m = bt_copy(before);
		ASSERT_NE(NULL, m);
		EXPECT_EQ(0, bir_pass_inline_nki(m, &o, false, &err))
			TH_LOG("out typed %s: %s", types[t], err.msg);
		cp = bir_inst_find(m->fns[0], "k_cp");
		ASSERT_NE(NULL, cp) TH_LOG("out typed %s: the writer was deleted", types[t]);
		EXPECT_STREQ("y", cp->outs[0].name);
		EXPECT_EQ(NULL, bir_function_find(m, "f"));
		EXPECT_EQ(0, bt_equiv_seeds(before, m, 2));
		bir_module_free(before);
		bir_module_free(m);
	}
	/* ConstantPropagate on its own keeps the locations it is told are parameters */
	{
		struct bir_module *m = bt_parse("{\"arch\": \"trn2\", \"functions\": [{\"name\": \"f\", \"allocations\": ["
			CY_LOC("a", "Input") ", " CY_LOC("out", "DRAM") ", " CY_LOC("tmp", "DRAM") "],"
			" \"blocks\": [{\"name\": \"entry\", \"instructions\": ["
			"{\"name\": \"cp\", \"opcode\": \"TensorCopy\", \"ins\": [" CY_AP("a") "], \"outs\": [" CY_AP("out") "]},"
			"{\"name\": \"cp2\", \"opcode\": \"TensorCopy\", \"ins\": [" CY_AP("a") "], \"outs\": [" CY_AP("tmp") "]}]}]}]}");
		const char *params[] = { "a", "out" };
		struct nscc_err err = { { 0 } };

		ASSERT_NE(NULL, m);
		ASSERT_EQ(0, bir_constant_propagate(m, params, 2, &err));
		EXPECT_NE(NULL, bir_inst_find(m->fns[0], "cp"));
		EXPECT_NE(NULL, bir_memloc_find(m->fns[0], "out"));
		/* not a parameter: a dead result, removed with its writer */
		EXPECT_EQ(NULL, bir_inst_find(m->fns[0], "cp2"));
		EXPECT_EQ(NULL, bir_memloc_find(m->fns[0], "tmp"));
		bir_module_free(m);
	}
}

/*
 * A kernel instruction that depends on one the cleanup removes (the
 * kernel's dead result): the dep, resolved in the kernel read back into
 * the temporary module, has no clone to follow, and the call site is
 * refused naming it
 */
TEST(dep_on_a_removed_kernel_instruction)
{
	struct bir_module *m = bt_load("nki_twice.bir.json");
	struct nscc_err err = { { 0 } };
	struct bir_opts o = { 0 };
	struct bir_function *k;

	ASSERT_NE(NULL, m);
	k = bir_function_find(m, "nki_kernel");
	ASSERT_NE(NULL, k);
	ASSERT_EQ(0, bir_inst_add_dep(bir_inst_find(k, "add"),
				      bir_inst_find(k, "dead"), NULL));
	EXPECT_EQ(-EINVAL, bir_pass_inline_nki(m, &o, false, &err));
	EXPECT_STREQ("instruction 'k1': kernel instruction depends on 'dead', which the kernel does not have",
		     err.msg);
	bir_module_free(m);
}

TEST_HARNESS_MAIN
