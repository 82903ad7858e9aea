// SPDX-License-Identifier: GPL-2.0
/*
 * bir_json.c - BIR JSON reader/writer: exact round-trip of every bundled
 * example, kept unknown keys, typed attribute values, the piecewise
 * reader (any key order, and for text that is not JSON exactly the
 * message jansson gives for the whole text), and every reader error
 * message.
 */
#include <jansson.h>
#include "kselftest_harness.h"
#include "bir_test.h"
#include "tl_text.h"

static const char *const examples[] = {
	"nki_twice.bir.json", "bir_activation.bir.json",
	"bir_rmsnorm.bir.json", "bir_layernorm.bir.json", "bir_mlp.bir.json",
	"bir_attention.bir.json", "collectives.bir.json",
};

TEST(roundtrip_every_example)
{
	for (size_t k = 0; k < sizeof(examples) / sizeof(examples[0]); k++) {
		struct bir_module *m = bt_load(examples[k]), *m2;
		char *s1, *s2, *s3;

		ASSERT_NE(NULL, m);
		s1 = bir_module_to_string(m);
		s2 = bir_module_to_string(m);
		ASSERT_NE(NULL, s1);
		EXPECT_STREQ(s1, s2);	/* writing twice: byte-identical */
		m2 = bt_parse(s1);
		ASSERT_NE(NULL, m2);
		s3 = bir_module_to_string(m2);
		EXPECT_STREQ(s1, s3);	/* read -> write -> read: same IR */
		free(s1);
		free(s2);
		free(s3);
		bir_module_free(m);
		bir_module_free(m2);
	}
}

TEST(unknown_keys_kept)
{
	struct bir_module *m = bt_load("nki_twice.bir.json");
	char *s;

	ASSERT_NE(NULL, m);
	s = bir_module_to_string(m);
	EXPECT_EQ(0, tl_missing(s, (const char *const []){
		"\"x_note\": \"unknown keys are kept\"", "\"x_custom\": 7",
		"\"sb_buf_shape\"", "\"tensor_class\": \"input\"", NULL }));
	free(s);
	bir_module_free(m);
}

TEST(ir_facts)
{
	struct bir_module *m = bt_load("nki_twice.bir.json");
	struct bir_function *f;
	struct bir_inst *i;

	ASSERT_NE(NULL, m);
	EXPECT_EQ(30, m->arch_level);
	EXPECT_EQ(2, m->nfns);
	f = bir_function_find(m, "nki_kernel");
	ASSERT_NE(NULL, f);
	i = bir_inst_find(f, "relu");	/* inside the Loop body */
	ASSERT_NE(NULL, i);
	EXPECT_EQ(BIR_OP_ACTIVATION, i->op);
	EXPECT_EQ(55, bir_opcode_from_name("NKIKernel"));
	EXPECT_EQ(54, bir_opcode_from_name("BIRKernel"));
	EXPECT_EQ(105, bir_opcode_from_name("Loop"));
	EXPECT_EQ(78, bir_opcode_from_name("CompareAndBranch"));
	EXPECT_EQ(79, bir_opcode_from_name("UnconditionalBranch"));
	EXPECT_EQ(48, bir_opcode_from_name("CollectiveCompute"));
	EXPECT_EQ(BIR_OP_OTHER, bir_opcode_from_name("Whatever"));
	EXPECT_EQ(16U, bir_mem_type_from_name("SB"));
	EXPECT_EQ(32U, bir_mem_type_from_name("PSUM"));
	/* numeric suffix on a collision; ids module-unique */
	{
		struct bir_memloc_set *s = bir_set_add(f, "t");
		struct bir_memloc *a = bir_memloc_add(s, "t");
		struct bir_memloc *b = bir_memloc_add(s, "t");

		EXPECT_STREQ("t.1", s->name);
		EXPECT_STREQ("t.1", a->name);
		EXPECT_STREQ("t.2", b->name);
		EXPECT_NE(a->id, b->id);
		EXPECT_NE(s->id, a->id);
	}
	bir_module_free(m);
}

struct bad {
	const char *json;
	const char *msg;
};

static const struct bad bads[] = {
	{ "[]", "bir: module: top level must be an object" },
	{ "{\"version\": 3, \"arch\": \"trn2\"}",
	  "bir: module: field 'version' has unsupported value 3" },
	{ "{\"arch\": \"trn9\"}", "bir: module: field 'arch' has unknown value \"trn9\"" },
	{ "{\"arch\": \"trn2\", \"functions\": {}}",
	  "bir: module: field 'functions' must be an array" },
	{ "{\"arch\": \"trn2\", \"functions\": [{}]}",
	  "bir: module: missing field 'name'" },
	{ "{\"arch\": \"trn2\", \"functions\": [{\"name\": \"f\"}, {\"name\": \"f\"}]}",
	  "bir: module: function 'f': duplicate function name" },
	{ "{\"arch\": \"trn2\", \"functions\": [{\"name\": \"f\", \"allocations\": [{\"Skind\": \"x\", \"name\": \"s\"}]}]}",
	  "bir: module: function 'f': allocation 's': field 'Skind' has unknown value 'x'" },
	{ "{\"arch\": \"trn2\", \"functions\": [{\"name\": \"f\", \"allocations\": [{\"Skind\": \"memory_location_set\", \"name\": \"s\", \"memorylocations\": [{\"name\": \"l\", \"type\": \"HBM\", \"dims\": [1, 4]}]}]}]}",
	  "bir: module: function 'f': allocation 's': memory location 'l': field 'type' has unknown value 'HBM'" },
	{ "{\"arch\": \"trn2\", \"functions\": [{\"name\": \"f\", \"allocations\": [{\"Skind\": \"memory_location_set\", \"name\": \"s\", \"memorylocations\": [{\"name\": \"l\", \"type\": \"SB\", \"dims\": [1]}]}]}]}",
	  "bir: module: function 'f': allocation 's': memory location 'l': field 'dims' must be [partitions, bytes per partition]" },
	{ "{\"arch\": \"trn2\", \"functions\": [{\"name\": \"f\", \"allocations\": [{\"Skind\": \"memory_location_set\", \"name\": \"s\", \"memorylocations\": [{\"name\": \"l\", \"type\": \"SB\", \"dims\": [1, 4]}, {\"name\": \"l\", \"type\": \"SB\", \"dims\": [1, 4]}]}]}]}",
	  "bir: module: function 'f': allocation 's': duplicate memory location name 'l'" },
	{ "{\"arch\": \"trn2\", \"functions\": [{\"name\": \"f\", \"blocks\": [{\"name\": \"b\", \"instructions\": [{\"name\": \"i\", \"opcode\": \"TensorCopy\", \"ins\": [{\"Skind\": \"physical_ap\", \"memref\": \"l\", \"ap\": [[1]]}]}]}]}]}",
	  "bir: module: function 'f': block 'b': instruction 'i': ins[0]: field 'ap' must be an array of [step, num] pairs" },
	{ "{\"arch\": \"trn2\", \"functions\": [{\"name\": \"f\", \"blocks\": [{\"name\": \"b\", \"instructions\": [{\"name\": \"i\", \"opcode\": \"TensorCopy\", \"outs\": [{\"Skind\": \"vector\"}]}]}]}]}",
	  "bir: module: function 'f': block 'b': instruction 'i': outs[0]: field 'Skind' has unknown value 'vector'" },
	{ "{\"arch\": \"trn2\", \"functions\": [{\"name\": \"f\", \"blocks\": [{\"name\": \"b\", \"instructions\": [{\"name\": \"i\", \"opcode\": \"Loop\"}]}]}]}",
	  "bir: module: function 'f': block 'b': instruction 'i': Loop needs a 'LoopAxis' object" },
	{ "{\"arch\": \"trn2\", \"functions\": [{\"name\": \"f\", \"blocks\": [{\"name\": \"b\", \"instructions\": [{\"name\": \"i\", \"opcode\": \"X\"}, {\"name\": \"i\", \"opcode\": \"X\"}]}]}]}",
	  "bir: module: function 'f': block 'b': instruction 'i': duplicate instruction name" },
	{ "{\"arch\": \"trn2\", \"functions\": [{\"name\": \"f\", \"blocks\": [{\"name\": \"b\"}, {\"name\": \"b\"}]}]}",
	  "bir: module: function 'f': duplicate block name 'b'" },
	{ "{\"arch\": \"trn2\", \"functions\": [{\"name\": \"f\", \"blocks\": [{\"name\": \"b\", \"instructions\": [{\"name\": \"i\", \"opcode\": \"X\", \"scope\": -1}]}]}]}",
	  "bir: module: function 'f': block 'b': instruction 'i': field 'scope' is out of range (-1)" },
	{ "{\"arch\": \"trn2\", \"functions\": [{\"name\": \"f\", \"blocks\": [{\"name\": \"b\", \"instructions\": [{\"name\": \"i\", \"opcode\": \"X\", \"deps\": [3]}]}]}]}",
	  "bir: module: function 'f': block 'b': instruction 'i': field 'deps' must hold instruction names" },
	{ "{\"arch\": \"trn2\", \"functions\": [{\"name\": \"f\", \"allocations\": [{\"Skind\": \"memory_location_set\", \"name\": \"s\", \"memorylocations\": [{\"name\": \"l\", \"type\": \"SB\", \"dims\": [1, 4], \"addr_space_dirty\": 4294967296}]}]}]}",
	  "bir: module: function 'f': allocation 's': memory location 'l': field 'addr_space_dirty' is out of range (4294967296)" },
	{ "{\"arch\": ", "bir: JSON line 1 column 9: unexpected token near end of file" },
};

/* scope, deps and addr_space_dirty are typed fields and come back as written */
TEST(scope_deps_dirty_roundtrip)
{
	const char *j = "{\"arch\": \"trn2\", \"functions\": [{\"name\": \"f\", \"allocations\": [{\"Skind\": \"memory_location_set\", \"name\": \"s\", \"memorylocations\": [{\"name\": \"l\", \"type\": \"SB\", \"dims\": [1, 4], \"addr_space_dirty\": 6}]}],"
		" \"blocks\": [{\"name\": \"b\", \"instructions\": [{\"name\": \"a\", \"opcode\": \"X\"}, {\"name\": \"i\", \"opcode\": \"X\", \"deps\": [\"a\", \"z\"], \"scope\": 12, \"k\": 1}]}]}]}";
	struct bir_module *m = bt_parse(j), *m2;
	struct bir_inst *i;
	char *s1, *s2;

	ASSERT_NE(NULL, m);
	i = bir_inst_find(m->fns[0], "i");
	ASSERT_NE(NULL, i);
	EXPECT_EQ(12, i->scope);
	ASSERT_EQ(2, i->ndeps);
	EXPECT_STREQ("a", i->deps[0]);
	EXPECT_STREQ("z", i->deps[1]);
	EXPECT_EQ(1, i->attrs.n);	/* only "k" is kept as an attribute */
	EXPECT_EQ(6, bir_memloc_find(m->fns[0], "l")->addr_space_dirty);
	s1 = bir_module_to_string(m);
	m2 = bt_parse(s1);
	ASSERT_NE(NULL, m2);
	s2 = bir_module_to_string(m2);
	EXPECT_STREQ(s1, s2);
	EXPECT_NE(NULL, strstr(s1, "\"scope\": 12,\n"));
	free(s1);
	free(s2);
	bir_module_free(m);
	bir_module_free(m2);
}

TEST(reader_errors)
{
	for (size_t k = 0; k < sizeof(bads) / sizeof(bads[0]); k++) {
		struct nscc_err err = { { 0 } };
		struct bir_module *m = (void *)1;

		EXPECT_EQ(-EINVAL, bir_module_from_string(bads[k].json,
				strlen(bads[k].json), &m, &err));
		EXPECT_EQ(NULL, m);
		EXPECT_STREQ(bads[k].msg, err.msg);
	}
}

TEST(missing_file)
{
	struct nscc_err err = { { 0 } };
	struct bir_module *m;

	EXPECT_EQ(-ENOENT, bir_module_from_file("/nonexistent.bir.json", &m,
						&err));
	EXPECT_STREQ("/nonexistent.bir.json: No such file or directory",
		     err.msg);
}

/* kept keys are typed values: kinds, int vs real, order, nesting */
TEST(typed_values)
{
	const char *j = "{\"arch\": \"trn2\", \"functions\": [{\"name\": \"f\", \"blocks\": [{\"name\": \"b\", \"instructions\": [{\"name\": \"i\", \"opcode\": \"Mystery\", \"z\": 1, \"r\": 1.0, \"n\": null, \"t\": true, \"l\": [1, \"a\", [2.5]], \"o\": {\"k\": {\"q\": false}}, \"a\": \"s\"}]}]}]}";
	struct bir_module *m = bt_parse(j);
	struct bir_inst *i;
	const struct bir_val *v;
	struct bir_val x;
	char *s;

	ASSERT_NE(NULL, m);
	i = bir_inst_find(m->fns[0], "i");
	ASSERT_NE(NULL, i);
	EXPECT_EQ(BIR_OP_OTHER, i->op);
	EXPECT_STREQ("Mystery", i->opname);
	EXPECT_EQ(BIR_VAL_OBJ, i->attrs.kind);
	ASSERT_EQ(7, i->attrs.n);
	EXPECT_STREQ("z", i->attrs.members[0].key);	/* input order */
	EXPECT_STREQ("a", i->attrs.members[6].key);
	EXPECT_EQ(BIR_VAL_INT, bir_attr_get(i, "z")->kind);
	EXPECT_EQ(1, bir_attr_int(i, "z", 0));
	EXPECT_EQ(BIR_VAL_REAL, bir_attr_get(i, "r")->kind);
	EXPECT_EQ(1.0, bir_attr_num(i, "r", 0));
	EXPECT_EQ(BIR_VAL_NULL, bir_attr_get(i, "n")->kind);
	EXPECT_EQ(1, bir_attr_int(i, "t", 0));
	v = bir_attr_get(i, "l");
	ASSERT_EQ(BIR_VAL_LIST, v->kind);
	ASSERT_EQ(3, v->n);
	EXPECT_STREQ("a", v->items[1].s);
	EXPECT_EQ(2.5, v->items[2].items[0].r);
	v = bir_val_get(bir_val_get(bir_attr_get(i, "o"), "k"), "q");
	ASSERT_NE(NULL, v);
	EXPECT_EQ(BIR_VAL_BOOL, v->kind);
	EXPECT_FALSE(v->b);
	EXPECT_STREQ("s", bir_attr_str(i, "a"));
	EXPECT_EQ(NULL, bir_attr_str(i, "z"));		/* not a string */
	/* 1 and 1.0 are written as read */
	s = bir_module_to_string(m);
	ASSERT_NE(NULL, s);
	EXPECT_NE(NULL, strstr(s, "\"z\": 1,"));
	EXPECT_NE(NULL, strstr(s, "\"r\": 1.0,"));
	EXPECT_NE(NULL, strstr(s, "\"n\": null,"));
	free(s);
	/* set replaces in place, a new key goes last, del keeps the order */
	x = bir_val_str("new");
	ASSERT_EQ(0, bir_attr_set(i, "z", &x));
	EXPECT_STREQ("z", i->attrs.members[0].key);
	EXPECT_STREQ("new", bir_attr_str(i, "z"));
	x = bir_val_int(9);
	ASSERT_EQ(0, bir_attr_set(i, "w", &x));
	EXPECT_STREQ("w", i->attrs.members[7].key);
	bir_attr_del(i, "r");
	EXPECT_EQ(7, i->attrs.n);
	EXPECT_STREQ("n", i->attrs.members[1].key);
	/* equality: objects as sets, lists in order, kinds apart */
	{
		struct bir_val a, b;
		struct nscc_err err = { { 0 } };

		ASSERT_EQ(0, bir_val_from_string(m, "{\"p\": [1, 2], \"q\": 3}", &a, &err));
		ASSERT_EQ(0, bir_val_from_string(m, "{\"q\": 3, \"p\": [1, 2]}", &b, &err));
		EXPECT_TRUE(bir_val_equal(&a, &b));
		ASSERT_EQ(0, bir_val_from_string(m, "{\"q\": 3.0, \"p\": [1, 2]}", &b, &err));
		EXPECT_FALSE(bir_val_equal(&a, &b));
		ASSERT_EQ(0, bir_val_from_string(m, "{\"q\": 3, \"p\": [2, 1]}", &b, &err));
		EXPECT_FALSE(bir_val_equal(&a, &b));
		EXPECT_EQ(-EINVAL, bir_val_from_string(m, "{", &b, &err));
	}
	bir_module_free(m);
}

/* strings are pooled: equal strings of a module share one copy */
TEST(string_pool)
{
	struct bir_module *m = bt_load("bir_mlp.bir.json");
	const char *a, *b;

	ASSERT_NE(NULL, m);
	a = bir_str(m, "float32");
	b = bir_str(m, "float32");
	EXPECT_EQ(a, b);
	EXPECT_EQ(a, m->fns[0]->sets[0]->dtype.name);
	EXPECT_NE(a, bir_str(m, "float16"));
	EXPECT_EQ(NULL, bir_str(m, NULL));
	bir_module_free(m);
}

/* the piecewise reader does not depend on the order of keys */
TEST(any_key_order)
{
	const char *a = "{\"version\": 2, \"arch\": \"trn2\", \"attributes\": {\"k\": 1}, \"functions\": [{\"name\": \"f\", \"attributes\": {}, \"allocations\": [{\"Skind\": \"memory_location_set\", \"name\": \"s\", \"memorylocations\": [{\"name\": \"l\", \"type\": \"SB\", \"dims\": [1, 4]}]}], \"registers\": [{\"name\": \"r\"}], \"blocks\": [{\"name\": \"b\", \"instructions\": [{\"opcode\": \"Memset\", \"name\": \"i\", \"outs\": [{\"Skind\": \"physical_ap\", \"memref\": \"l\", \"ap\": [[1, 1], [1, 1]]}], \"value\": 0.0}], \"x_b\": 1}], \"x_f\": [1]}], \"x_m\": \"m\", \"x_n\": 2}";
	/* the same module, keys shuffled, escapes and odd white space */
	const char *b = "\t\r\n{ \"x_m\" : \"m\" ,\"functions\":[ { \"x_f\":[1],\"blocks\":[{\"x_b\":1,\"instructions\":[{\"value\":0.0,\"outs\":[{\"ap\":[[1,1],[1,1]],\"memref\":\"l\",\"Skind\":\"physical_ap\"}],\"name\":\"i\",\"opcode\":\"Memset\"}],\"name\":\"b\"}],\"registers\":[{\"name\":\"r\"}],\"allocations\":[{\"memorylocations\":[{\"dims\":[1,4],\"type\":\"SB\",\"name\":\"l\"}],\"name\":\"s\",\"Skind\":\"memory_location_set\"}],\"attributes\":{},\"\\u006eame\":\"f\"}],\"attributes\":{\"k\":1},\"arch\":\"trn2\",\"x_n\":2,\"version\":2 } \n";
	struct bir_module *ma = bt_parse(a), *mb = bt_parse(b);
	char *sa, *sb;

	ASSERT_NE(NULL, ma);
	ASSERT_NE(NULL, mb);
	sa = bir_module_to_string(ma);
	sb = bir_module_to_string(mb);
	ASSERT_NE(NULL, sa);
	ASSERT_NE(NULL, sb);
	/* modeled keys in their fixed order, kept keys in input order */
	EXPECT_STREQ(sa, sb);
	EXPECT_NE(NULL, strstr(sa, "\"x_f\": [\n        1\n      ]\n    }"));
	EXPECT_NE(NULL, strstr(sa, "  ],\n  \"x_m\": \"m\",\n  \"x_n\": 2\n}\n"));
	free(sa);
	free(sb);
	bir_module_free(ma);
	bir_module_free(mb);
}

/* a kept key named like a modeled one (set through the API) takes its place */
TEST(kept_key_shadowing_a_modeled_one)
{
	struct bir_module *m = bt_load("bir_activation.bir.json");
	struct bir_val v = bir_val_str("other");
	struct nscc_err err = { { 0 } };
	struct bir_module *back = (void *)1;
	char *s;

	ASSERT_NE(NULL, m);
	ASSERT_EQ(0, bir_val_set(m, &m->fns[0]->extra, "name", &v));
	ASSERT_EQ(0, bir_val_set(m, &m->fns[0]->extra, "registers", &v));
	s = bir_module_to_string(m);
	ASSERT_NE(NULL, s);
	EXPECT_EQ(NULL, strstr(s, "\"name\": \"main\""));
	EXPECT_NE(NULL, strstr(s, "\"name\": \"other\""));
	/* still JSON with unique keys; the shadowing "registers" came back */
	EXPECT_EQ(-EINVAL, bir_module_from_string(s, strlen(s), &back, &err));
	EXPECT_EQ(NULL, back);
	EXPECT_STREQ("bir: module: function 'other': field 'registers' must be an array",
		     err.msg);
	free(s);
	bir_module_free(m);
}

/*
 * text that is not JSON: the message is the one jansson gives for the
 * whole text, even when the piecewise reader would meet a field error
 * first, and wherever the fault sits (top level, function, block,
 * instruction, attribute)
 */
static char *deep(int levels)
{
	size_t n = (size_t)levels * 2 + 512;
	char *s = malloc(n), *p;

	if (!s)
		return NULL;
	p = s + sprintf(s, "{\"arch\": \"trn2\", \"functions\": [{\"name\": \"f\", \"blocks\": [{\"name\": \"b\", \"instructions\": [{\"name\": \"i\", \"opcode\": \"X\", \"deep\": ");
	for (int k = 0; k < levels; k++)
		*p++ = '[';
	for (int k = 0; k < levels; k++)
		*p++ = ']';
	strcpy(p, "}]}]}]}");
	return s;
}

TEST(not_json_gets_janssons_message)
{
	static const char *const texts[] = {
		"{\"version\": 3, \"arch\": \"trn2\", \"functions\": [1,]}",
		"{\"arch\": \"trn9\", \"functions\": [}",
		"{\"arch\": \"trn2\", \"arch\": \"trn1\"}",
		"{\"arch\": \"trn2\"} x",
		"{\"arch\": \"trn2\", \"functions\": [{\"name\": \"f\", \"name\": \"g\"}]}",
		"{\"arch\": \"trn2\", \"functions\": [{\"name\": \"f\", \"blocks\": [{\"name\": \"b\", \"instructions\": [{\"name\": \"i\", \"opcode\": \"X\", \"k\": 1, \"k\": 2}]}]}]}",
		"{\"arch\": \"trn2\", \"functions\": [{\"name\": \"f\", \"blocks\": [{\"name\": \"b\", \"instructions\": [{\"name\": \"i\"} {\"name\": \"j\"}]}]}]}",
		"{\"version\": 3, \"x\": \"\\ud800\"}",
		"{\"version\": 3, \"x\": 99999999999999999999}",
		"{\"version\": 3, \"x\": [tru]}",
		"{\"version\": 3 \"arch\": 1}",
		"{\"version\": 3,}",
		"{\"version\": 3, \"functions\": [{\"name\": \"f\", \"blocks\": [{\"name\": \"b\", \"instructions\": [{\"name\": \"i\",}]}]}]}",
		"  {",
		"{\"a\\x\": 1}",
		"",
	};
	char *d = deep(2042), *ok = deep(2040);

	ASSERT_NE(NULL, d);
	ASSERT_NE(NULL, ok);
	for (size_t k = 0; k <= sizeof(texts) / sizeof(texts[0]); k++) {
		const char *t = k < sizeof(texts) / sizeof(texts[0]) ? texts[k] : d;
		struct nscc_err err = { { 0 } };
		struct bir_module *m = (void *)1;
		char want[NSCC_ERR_MAX];
		json_error_t je;
		json_t *j = json_loadb(t, strlen(t), JSON_REJECT_DUPLICATES, &je);

		ASSERT_EQ(NULL, j) TH_LOG("text %zu is JSON", k);
		snprintf(want, sizeof(want), "bir: JSON line %d column %d: %s",
			 je.line, je.column, je.text);
		EXPECT_EQ(-EINVAL, bir_module_from_string(t, strlen(t), &m, &err));
		EXPECT_EQ(NULL, m);
		EXPECT_STREQ(want, err.msg) TH_LOG("text %zu", k);
	}
	/* two levels less is JSON, and a module */
	{
		struct bir_module *m = bt_parse(ok);

		EXPECT_NE(NULL, m);
		bir_module_free(m);
	}
	free(d);
	free(ok);
}

/*
 * deps are resolved when a function is read, once, to the instruction
 * each names (a later one, one in a Loop body, the Loop itself); a dep
 * that names none is kept as written (the text comes back), and the
 * passes refuse it before the first runs, naming function, instruction
 * and dep
 */
TEST(deps_resolved_when_read)
{
	const char *j = "{\"arch\": \"trn2\", \"functions\": [{\"name\": \"f\", \"blocks\": [{\"name\": \"b\", \"instructions\": ["
		"{\"name\": \"a\", \"opcode\": \"X\", \"deps\": [\"c\"]},"
		" {\"name\": \"l\", \"opcode\": \"Loop\", \"LoopAxis\": {\"name\": \"v\", \"lb\": 0, \"ub\": 2},"
		" \"blocks\": [{\"name\": \"lb\", \"instructions\": [{\"name\": \"c\", \"opcode\": \"X\", \"deps\": [\"a\", \"l\"]}]}]},"
		" {\"name\": \"n\", \"opcode\": \"X\", \"deps\": [\"c\", \"z\"]}]}]}]}";
	struct bir_module *m = bt_parse(j);
	struct nscc_err err = { { 0 } };
	struct bir_opts o = { 0 };
	struct bir_inst *a, *l, *c, *n;
	struct bir_function *f;

	ASSERT_NE(NULL, m);
	f = m->fns[0];
	a = bir_inst_find(f, "a");
	l = bir_inst_find(f, "l");
	c = bir_inst_find(f, "c");
	n = bir_inst_find(f, "n");
	ASSERT_NE(NULL, a);
	ASSERT_NE(NULL, c);
	ASSERT_NE(NULL, n);
	EXPECT_EQ(c, a->dep_insts[0]);
	EXPECT_EQ(a, c->dep_insts[0]);
	EXPECT_EQ(l, c->dep_insts[1]);
	EXPECT_EQ(c, n->dep_insts[0]);
	EXPECT_EQ(NULL, n->dep_insts[1]);
	EXPECT_EQ(0, bir_function_check_index(f, &err)) TH_LOG("%s", err.msg);
	EXPECT_EQ(-EINVAL, bir_function_check_deps(f, &err));
	EXPECT_EQ(-EINVAL, bir_run_passes(m, &o, &err));
	EXPECT_STREQ("function 'f': instruction 'n': dep 'z' names no instruction of the function",
		     err.msg);
	n->ndeps = 1;
	EXPECT_EQ(0, bir_function_check_deps(f, &err));
	bir_module_free(m);
}

TEST_HARNESS_MAIN
