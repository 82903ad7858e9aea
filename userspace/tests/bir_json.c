// SPDX-License-Identifier: GPL-2.0
/*
 * bir_json.c - BIR JSON reader/writer: exact round-trip of every bundled
 * example, kept unknown keys, and every reader error message.
 */
#include "kselftest_harness.h"
#include "bir_test.h"

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
	EXPECT_NE(NULL, strstr(s, "\"x_note\": \"unknown keys are kept\""));
	EXPECT_NE(NULL, strstr(s, "\"x_custom\": 7"));
	EXPECT_NE(NULL, strstr(s, "\"sb_buf_shape\""));
	EXPECT_NE(NULL, strstr(s, "\"tensor_class\": \"input\""));
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
	{ "{\"arch\": ", "bir: JSON line 1 column 9: unexpected token near end of file" },
};

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

TEST_HARNESS_MAIN
