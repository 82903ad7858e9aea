// SPDX-License-Identifier: GPL-2.0
/*
 * cc_defjson.c - every def.json / var-table error path of the compiler
 * gives its errno and a message naming the subgraph, var, field and value
 * (Documentation/compiler.rst, "Error messages").  Each case is a
 * synthetic NEFF made with the library's NEFF writer.
 */
#include "kselftest_harness.h"
#include "cc_testutil.h"

#define IN(n, id, extra) "\"" n "\": {\"type\": \"input\", \"var_id\": " #id ", \"size\": 64" extra "}"
#define EVT "\"runtime_statebuffer_reservation\": [{\"type\": \"evtaccel\", \"offset\": 229368, \"size\": 8, \"base_partition\": 0, \"partitions\": 128}]"

/* def.json with the one input 'x' (var_id 1, 64 bytes) */
#define DEF_X CC_DEF(CC_SB ", " IN("x", 1, ""))
#define W64(extra) "\"w\": {\"type\": \"file\", \"var_id\": 1, \"size\": 64, \"file_name\": \"w.npy\"" extra "}"

/*
 * The refusals: a def.json (and tensor_map.json, when @tmap is given) for
 * @target (NULL: "sunda", trn1) that the compiler refuses with @err and a
 * message starting with @msg.
 */
static const struct bad_def {
	const char *name;
	const char *target;
	const char *def;
	const char *tmap;
	int err;
	const char *msg;
} bad_defs[] = {
	{ .name = "alignment_not_pow2",
	  .def = CC_DEF(CC_SB ", " IN("x", 1, "") ", " IN("y", 2, "") ", "
		        IN("z", 3, "") ", \"w1\": {\"type\": \"file\", \"var_id\": 4,"
		        " \"size\": 64, \"alignment\": 3, \"file_name\": \"w.npy\"}"),
	  .err = -EINVAL,
	  .msg = "sg00: var 'w1' (var_id 4): alignment 3 is not a power of two (libnrt: alignment provided not power of 2)" },
	{ .name = "alignment_zero",
	  .def = CC_DEF(CC_SB ", " IN("x", 1, ", \"alignment\": 0")),
	  .err = -EINVAL, .msg = "sg00: var 'x' (var_id 1): alignment 0 is not a power of two (libnrt: alignment provided not power of 2)" },
	{ .name = "alignment_too_big",
	  .def = CC_DEF(CC_SB ", " IN("x", 1, ", \"alignment\": 2147483648")),
	  .err = -EINVAL, .msg = "sg00: var 'x' (var_id 1): alignment 2147483648 is over the maximum 1073741824" },
	{ .name = "negative_size",
	  .def = CC_DEF(CC_SB ", \"x\": {\"type\": \"input\", \"var_id\": 1, \"size\": -5}"),
	  .err = -EINVAL, .msg = "sg00: var 'x' (var_id 1): size -5 is negative" },
	{ .name = "missing_size",
	  .def = CC_DEF(CC_SB ", \"x\": {\"type\": \"output\", \"var_id\": 1}"),
	  .err = -EINVAL, .msg = "sg00: var 'x' (var_id 1): missing field 'size'" },
	{ .name = "zero_size",
	  .def = CC_DEF(CC_SB ", \"x\": {\"type\": \"output\", \"var_id\": 1, \"size\": 0}"),
	  .err = -EINVAL, .msg = "sg00: var 'x' (var_id 1): MR_OUTPUT needs a non-zero size (bad size)" },
	{ .name = "size_not_integer",
	  .def = CC_DEF(CC_SB ", \"x\": {\"type\": \"output\", \"var_id\": 1, \"size\": \"64\"}"),
	  .err = -EINVAL, .msg = "sg00: var 'x' (var_id 1): field 'size' is not an integer" },
	{ .name = "unknown_type",
	  .def = CC_DEF(CC_SB ", \"x\": {\"type\": \"weird\", \"var_id\": 1, \"size\": 8}"),
	  .err = -EINVAL, .msg = "sg00: var 'x' (var_id 1): unknown type 'weird'" },
	{ .name = "missing_type",
	  .def = CC_DEF(CC_SB ", \"x\": {\"var_id\": 1, \"size\": 8}"),
	  .err = -EINVAL, .msg = "sg00: var 'x': missing field 'type'" },
	{ .name = "missing_var_id",
	  .def = CC_DEF(CC_SB ", \"x\": {\"type\": \"input\", \"size\": 8}"),
	  .err = -EINVAL, .msg = "sg00: var 'x': missing field 'var_id'" },
	{ .name = "var_id_too_big",
	  .def = CC_DEF(CC_SB ", \"x\": {\"type\": \"input\", \"var_id\": 4294967296, \"size\": 8}"),
	  .err = -EINVAL, .msg = "sg00: var 'x': var_id 4294967296 is over the maximum 4294967295" },
	{ .name = "var_not_object",
	  .def = CC_DEF(CC_SB ", \"x\": 7"),
	  .err = -EINVAL, .msg = "sg00: var 'x': not a JSON object" },
	{ .name = "sparse_var_ids",
	  .def = CC_DEF(CC_SB ", " IN("x", 1, "") ", " IN("y", 5, "")),
	  .err = -EINVAL, .msg = "sg00: Unexpected var_ids set! (3 vars, max var_id 5; var_ids must be 0..2)" },
	{ .name = "duplicate_name_json",
	  .def = CC_DEF(CC_SB ", " IN("x", 1, "") ", " IN("x", 2, "")),
	  .err = -EINVAL, .msg = "sg00/def.json: bad JSON at line 1" },
	{ .name = "bad_json",
	  .def = "{\"var\": {",
	  .err = -EINVAL, .msg = "sg00/def.json: bad JSON at line 1" },
	{ .name = "no_var_table",
	  .def = "{\"name\": \"definition\"}",
	  .err = -EINVAL, .msg = "sg00: def.json field 'var' is missing or not an object" },
	{ .name = "pointer_to_missing_var",
	  .def = CC_DEF(CC_SB ", \"p\": {\"type\": \"pointer\", \"var_id\": 1, \"referenced_var_id\": 9}"),
	  .err = -EINVAL, .msg = "sg00: var 'p' (var_id 1): MR_PTR referenced_var_id 9 names no var (nmem 2) (bad pointer target)" },
	{ .name = "pointer_to_itself",
	  .def = CC_DEF(CC_SB ", \"p\": {\"type\": \"pointer\", \"var_id\": 1, \"referenced_var_id\": 1}"),
	  .err = -EINVAL, .msg = "sg00: var 'p' (var_id 1): MR_PTR references itself (pointer to itself)" },
	{ .name = "pointer_to_list",
	  .def = CC_DEF(CC_SB ", \"p\": {\"type\": \"pointer\", \"var_id\": 1, \"referenced_var_id\": 2},"
		        " \"l\": {\"type\": \"list\", \"var_id\": 2, \"list\": [0]}"),
	  .err = -EINVAL, .msg = "sg00: var 'p' (var_id 1): MR_PTR target var_id 2 is MR_LIST, which has no storage (bad pointer target)" },
	{ .name = "pointer_missing_target",
	  .def = CC_DEF(CC_SB ", \"p\": {\"type\": \"pointer\", \"var_id\": 1}"),
	  .err = -EINVAL, .msg = "sg00: var 'p' (var_id 1): missing field 'referenced_var_id'" },
	{ .name = "list_entry_missing_var",
	  .def = CC_DEF(CC_SB ", " IN("x", 1, "") ", \"t\": {\"type\": \"dge-table\", \"var_id\": 2, \"list\": [1, 7]}"),
	  .err = -EINVAL, .msg = "sg00: var 't' (var_id 2): list[1] = 7 names no var (nmem 3) (bad list entry)" },
	{ .name = "list_entry_not_id",
	  .def = CC_DEF(CC_SB ", \"t\": {\"type\": \"list\", \"var_id\": 1, \"list\": [0, -1]}"),
	  .err = -EINVAL, .msg = "sg00: var 't' (var_id 1): list[1] is not a var_id (an integer 0..4294967295)" },
	{ .name = "list_empty",
	  .def = CC_DEF(CC_SB ", \"t\": {\"type\": \"list\", \"var_id\": 1, \"list\": []}"),
	  .err = -EINVAL, .msg = "sg00: var 't' (var_id 1): list length 0 is not 1..1048576 (bad list length)" },
	{ .name = "list_missing",
	  .def = CC_DEF(CC_SB ", \"t\": {\"type\": \"dge-table\", \"var_id\": 1}"),
	  .err = -EINVAL, .msg = "sg00: var 't' (var_id 1): missing field 'list'" },
	{ .name = "ptr_table_row_without_storage",
	  .def = CC_DEF(CC_SB ", \"l\": {\"type\": \"list\", \"var_id\": 1, \"list\": [0]},"
		        " \"t\": {\"type\": \"dge-table\", \"var_id\": 2, \"list\": [1]}"),
	  .err = -EINVAL, .msg = "sg00: var 't' (var_id 2): MR_PTR_TABLE list[0] = 1 is MR_LIST, which has no storage (bad list entry)" },
	{ .name = "file_name_missing",
	  .def = CC_DEF(CC_SB ", \"w\": {\"type\": \"file\", \"var_id\": 1, \"size\": 64}"),
	  .err = -EINVAL, .msg = "sg00: var 'w' (var_id 1): missing field 'file_name'" },
	{ .name = "weight_member_missing",
	  .def = CC_DEF(CC_SB ", \"w\": {\"type\": \"file\", \"var_id\": 1, \"size\": 64, \"file_name\": \"gone.npy\"}"),
	  .err = -ENOENT, .msg = "sg00: var 'w' (var_id 1): file_name 'gone.npy': member 'sg00/gone.npy' is missing from the NEFF" },
	{ .name = "weight_size_mismatch",
	  .def = CC_DEF(CC_SB ", \"w\": {\"type\": \"file\", \"var_id\": 1, \"size\": 128, \"file_name\": \"w.npy\"}"),
	  .err = -EINVAL, .msg = "sg00: var 'w' (var_id 1): payload length 64 is not the size 128 (payload length mismatch)" },
	{ .name = "virtual_negative_offset",
	  .def = CC_DEF(CC_SB ", \"v\": {\"type\": \"virtual\", \"var_id\": 1, \"size\": 64, \"backing_variable_off\": -64}"),
	  .err = -EINVAL, .msg = "sg00: var 'v' (var_id 1): backing_variable_off -64 is negative" },
	{ .name = "dtype_too_long",
	  .def = DEF_X,
	  .tmap = "{\"x\": {\"dtype\": \"float16_with_extras\", \"tf_shape\": [4]}}",
	  .err = -E2BIG, .msg = "sg00: var 'x' (var_id 1): dtype 'float16_with_extras' has 19 characters, only 15 fit" },
	{ .name = "shape_too_many_dims",
	  .def = DEF_X,
	  .tmap = "{\"x\": {\"dtype\": \"float16\", \"tf_shape\": [1,2,3,4,5,6,7,8,9]}}",
	  .err = -E2BIG, .msg = "sg00: var 'x' (var_id 1): shape has 9 dimensions, only 8 fit" },
	{ .name = "tensor_map_bad_shape",
	  .def = DEF_X,
	  .tmap = "{\"x\": {\"dtype\": \"float16\", \"tf_shape\": [4, \"a\"]}}",
	  .err = -EINVAL, .msg = "sg00: var 'x' (var_id 1): tensor_map.json: tf_shape[1] is not a non-negative integer" },
	{ .name = "carveout_required_on_trn2",
	  .target = "cayman", .def = DEF_X,
	  .err = -EINVAL, .msg = "sg00: field 'runtime_statebuffer_reservation' is required on trn2 (gen 3)" },
	{ .name = "carveout_bad_type",
	  .target = "cayman",
	  .def = "{\"runtime_statebuffer_reservation\": [{\"type\": \"other\", \"offset\": 0, \"size\": 8,"
	         " \"base_partition\": 0, \"partitions\": 128}], \"var\": {" CC_SB "}}",
	  .err = -EINVAL, .msg = "sg00: runtime_statebuffer_reservation[0]: type 'other' is not \"evtaccel\"" },
	{ .name = "carveout_outside_partition",
	  .target = "cayman",
	  .def = "{\"runtime_statebuffer_reservation\": [{\"type\": \"evtaccel\", \"offset\": 229372, \"size\": 8,"
	         " \"base_partition\": 0, \"partitions\": 128}], \"var\": {" CC_SB "}}",
	  .err = -EINVAL, .msg = "sg00: runtime_statebuffer_reservation[0]: offset 229372 + size 8 is outside the 229376-byte partition" },
	{ .name = "carveout_bad_partitions",
	  .target = "cayman",
	  .def = "{\"runtime_statebuffer_reservation\": [{\"type\": \"evtaccel\", \"offset\": 0, \"size\": 8,"
	         " \"base_partition\": 64, \"partitions\": 128}], \"var\": {" CC_SB "}}",
	  .err = -EINVAL, .msg = "sg00: runtime_statebuffer_reservation[0]: partitions 64..192 are outside 0..128" },
	{ .name = "carveout_missing_field",
	  .target = "cayman",
	  .def = "{\"runtime_statebuffer_reservation\": [{\"type\": \"evtaccel\", \"offset\": 0,"
	         " \"base_partition\": 0, \"partitions\": 128}], \"var\": {" CC_SB "}}",
	  .err = -EINVAL, .msg = "sg00: runtime_statebuffer_reservation[0]: field 'size' is missing or not an integer 0..4294967295" },
	/* a tab or newline would forge rows of the debugfs memrefs table */
	{ .name = "name_control_char",
	  .def = CC_DEF(CC_SB ", " IN("a\\tb", 1, "")),
	  .err = -EINVAL, .msg = "sg00: var 'a\tb' (var_id 1): name at 0x243 has control character 0x9 at byte 1 (bad name)" },
	{ .name = "dtype_control_char",
	  .def = DEF_X,
	  .tmap = "{\"x\": {\"dtype\": \"f\\n16\", \"tf_shape\": [4]}}",
	  .err = -EINVAL, .msg = "sg00: var 'x' (var_id 1): dtype has control character 0xa at byte 1 (bad dtype)" },
	/* KBIN ends a shape at its first 0: [4,0,4] would read back as [4] */
	{ .name = "shape_zero_dimension",
	  .def = DEF_X,
	  .tmap = "{\"x\": {\"dtype\": \"float16\", \"tf_shape\": [4, 0, 4]}}",
	  .err = -EINVAL, .msg = "sg00: var 'x' (var_id 1): shape[1] is 0; a KBIN shape ends at its first zero dimension" },
	{ .name = "shape_trailing_zero_dimension",
	  .def = DEF_X,
	  .tmap = "{\"x\": {\"dtype\": \"float16\", \"tf_shape\": [4, 0]}}",
	  .err = -EINVAL, .msg = "sg00: var 'x' (var_id 1): shape[1] is 0; a KBIN shape ends at its first zero dimension" },
	{ .name = "tensor_map_not_object",
	  .def = DEF_X,
	  .tmap = "[{\"dtype\": \"float16\"}]",
	  .err = -EINVAL, .msg = "sg00: tensor_map.json is not a JSON object" },
	{ .name = "tensor_map_entry_not_object",
	  .def = DEF_X,
	  .tmap = "{\"x\": \"float16\"}",
	  .err = -EINVAL, .msg = "sg00: var 'x' (var_id 1): tensor_map.json: its entry is not a JSON object" },
	/* the '..' refusal itself is reported, not "missing" */
	{ .name = "weight_file_name_dotdot",
	  .def = CC_DEF(CC_SB ", \"w\": {\"type\": \"file\", \"var_id\": 1, \"size\": 64, \"file_name\": \"../w.npy\"}"),
	  .err = -EINVAL, .msg = "sg00: var 'w' (var_id 1): file_name '../w.npy': member name 'sg00/../w.npy' has a '..' component" },
	/* w.npy holds '<f4'; tensor_map says float16, 32 x 2 = 64 bytes */
	{ .name = "npy_descr_not_the_dtype",
	  .def = CC_DEF(CC_SB ", " W64("")),
	  .tmap = "{\"w\": {\"dtype\": \"float16\", \"tf_shape\": [32]}}",
	  .err = -EINVAL, .msg = "sg00: var 'w' (var_id 1): file_name 'w.npy': member 'sg00/w.npy' has .npy descr '<f4', but dtype 'float16' (tensor_map.json) is stored as '<f2'" },
	{ .name = "npy_descr_not_bfloat16",
	  .def = CC_DEF(CC_SB ", " W64("")),
	  .tmap = "{\"sg0000_w\": {\"dtype\": \"bfloat16\", \"tf_shape\": [32], \"tf_file\": \"w.npy\"}}",
	  .err = -EINVAL, .msg = "sg00: var 'w' (var_id 1): file_name 'w.npy': member 'sg00/w.npy' has .npy descr '<f4', but dtype 'bfloat16' (tensor_map.json) is stored as '<u2' or '|V2'" },
	{ .name = "size_not_shape_times_dtype",
	  .def = DEF_X,
	  .tmap = "{\"x\": {\"dtype\": \"float16\", \"tf_shape\": [4, 4]}}",
	  .err = -EINVAL, .msg = "sg00: var 'x' (var_id 1): size 64 (def.json) differs from shape [4,4] x 2 bytes of dtype 'float16' = 32 (tensor_map.json)" },
	/* the .npy agrees with size, tensor_map does not */
	{ .name = "weight_size_not_shape_times_dtype",
	  .def = CC_DEF(CC_SB ", " W64("")),
	  .tmap = "{\"w\": {\"dtype\": \"float32\", \"tf_shape\": [4, 8]}}",
	  .err = -EINVAL, .msg = "sg00: var 'w' (var_id 1): size 64 (def.json) differs from shape [4,8] x 4 bytes of dtype 'float32' = 128 (tensor_map.json)" },
	{ .name = "shape_times_dtype_overflows",
	  .def = DEF_X,
	  .tmap = "{\"x\": {\"dtype\": \"float32\", \"tf_shape\": [4294967296, 4294967296]}}",
	  .err = -EINVAL, .msg = "sg00: var 'x' (var_id 1): size 64 (def.json) differs from shape [4294967296,4294967296] x 4 bytes of dtype 'float32', over 2^64 bytes (tensor_map.json)" },
	{ .name = "dtype_empty",
	  .def = DEF_X,
	  .tmap = "{\"x\": {\"dtype\": \"\", \"tf_shape\": [32]}}",
	  .err = -EINVAL, .msg = "sg00: var 'x' (var_id 1): tensor_map.json: dtype '' is empty" },
	/* a var's own dtype key reaches the dump, whose cap refuses it */
	{ .name = "def_json_dtype_too_long",
	  .def = CC_DEF(CC_SB ", " IN("x", 1, ", \"dtype\": \"float16_twenty_chars\"")),
	  .err = -E2BIG, .msg = "sg00: var 'x' (var_id 1): dtype 'float16_twenty_chars' has 20 characters, only 15 fit"
	         " (libnrt: Device print dtype float16_twenty_chars has 20 characters. Only 15 are supported)" },
	{ .name = "def_json_shape_nine_dims",
	  .def = CC_DEF(CC_SB ", " IN("x", 1, ", \"shape\": [1,1,1,1,1,1,1,1,8]")),
	  .err = -E2BIG, .msg = "sg00: var 'x' (var_id 1): shape has 9 dimensions, only 8 fit"
	         " (libnrt: Device print only supports shape dimentions of up to 8)" },
	{ .name = "def_json_dtype_not_string",
	  .def = CC_DEF(CC_SB ", " IN("x", 1, ", \"dtype\": 2")),
	  .err = -EINVAL, .msg = "sg00: var 'x' (var_id 1): def.json: dtype is not a string" },
	{ .name = "def_json_shape_bad_entry",
	  .def = CC_DEF(CC_SB ", " IN("x", 1, ", \"shape\": [4, \"a\"]")),
	  .err = -EINVAL, .msg = "sg00: var 'x' (var_id 1): def.json: shape[1] is not a non-negative integer" },
	{ .name = "def_json_size_not_shape_times_dtype",
	  .def = CC_DEF(CC_SB ", " IN("x", 1, ", \"dtype\": \"float16\", \"shape\": [4, 4]")),
	  .err = -EINVAL, .msg = "sg00: var 'x' (var_id 1): size 64 (def.json) differs from shape [4,4] x 2 bytes of dtype 'float16' = 32 (def.json)" },
	{ .name = "def_json_dtype_differs_from_tensor_map",
	  .def = CC_DEF(CC_SB ", " IN("x", 1, ", \"dtype\": \"float16\"")),
	  .tmap = "{\"x\": {\"dtype\": \"float32\", \"tf_shape\": [16]}}",
	  .err = -EINVAL, .msg = "sg00: var 'x' (var_id 1): dtype 'float16' (def.json) differs from dtype 'float32' (tensor_map.json)" },
	{ .name = "def_json_shape_differs_from_tensor_map",
	  .def = CC_DEF(CC_SB ", " IN("x", 1, ", \"shape\": [4, 8]")),
	  .tmap = "{\"x\": {\"dtype\": \"float16\", \"tf_shape\": [32]}}",
	  .err = -EINVAL, .msg = "sg00: var 'x' (var_id 1): shape [4,8] (def.json) differs from shape [32] (tensor_map.json)" },
};

TEST(refused_with_named_cause)
{
	size_t i;

	for (i = 0; i < sizeof(bad_defs) / sizeof(bad_defs[0]); i++) {
		const struct bad_def *c = &bad_defs[i];
		struct nscc_err err = { "" };
		void *kbin = NULL;
		size_t len;

		EXPECT_EQ(c->err, cc_compile_def(c->target ? c->target : "sunda", c->def,
						 c->tmap, &kbin, &len, &err))
			TH_LOG("%s: %s", c->name, err.msg);
		EXPECT_EQ(NULL, kbin) TH_LOG("%s", c->name);
		EXPECT_EQ(0, strncmp(err.msg, c->msg, strlen(c->msg)))
			TH_LOG("%s:\n  got:  %s\n  want: %s", c->name, err.msg, c->msg);
		free(kbin);
	}
}

/*
 * Compile @def (with @tmap, when given) for @target into *@kbin (the
 * caller frees it) and read the plan into *@v; both asserted here.
 */
static void compile_read(struct __test_metadata *_metadata, const char *target,
			 const char *def, const char *tmap, void **kbin,
			 struct kbin_view *v)
{
	struct nscc_err err = { "" };
	struct kbin_check_result res;
	size_t len;

	ASSERT_EQ(0, cc_compile_def(target, def, tmap, kbin, &len, &err)) TH_LOG("%s", err.msg);
	ASSERT_EQ(0, kbin_read(*kbin, len, v, &res)) TH_LOG("%s", res.err.msg);
}

/* The good counterpart of the cases above: a trn2 subgraph with a carve-out. */
TEST(trn2_with_carveout_compiles)
{
	struct kbin_view v;
	void *kbin;

	compile_read(_metadata, "cayman", "{" EVT ", \"var\": {" CC_SB ", " IN("x", 1, "") "}}",
		     NULL, &kbin, &v);
	EXPECT_EQ(KBIN_TARGET_TRN2, v.hdr->target_gen);
	ASSERT_EQ(1U, kbin_view_subgraph(&v, 0)->num_carveouts);
	EXPECT_EQ(229368U, kbin_view_subgraph(&v, 0)->carveouts[0].offset);
	EXPECT_EQ(8U, kbin_view_subgraph(&v, 0)->carveouts[0].size);
	EXPECT_EQ(128U, kbin_view_subgraph(&v, 0)->carveouts[0].num_partitions);
	/* MR_SB spans the window: 128 partitions at a 256 KiB stride */
	EXPECT_EQ(128ULL * 256 * 1024, kbin_view_set(&v, 0)->mem[0].size);
	free(kbin);
}

/* dtype and shape come from tensor_map.json, by name or by tf_file. */
TEST(tensor_map_by_name_and_by_file)
{
	const struct kbin_mem_ref_set *set;
	struct kbin_view v;
	void *kbin;

	compile_read(_metadata, "sunda",
		CC_DEF(CC_SB ", " IN("x", 1, "") ", \"w_sg0000\": {\"type\": \"file\", \"var_id\": 2,"
		       " \"size\": 64, \"alignment\": 64, \"file_name\": \"w.npy\"}"),
		"{\"x\": {\"dtype\": \"bfloat16\", \"tf_shape\": [4, 8]},"
		" \"sg0000_w\": {\"dtype\": \"float32\", \"tf_shape\": [16], \"tf_file\": \"w.npy\"}}", &kbin, &v);
	set = kbin_view_set(&v, 0);
	EXPECT_STREQ("bfloat16", set->mem[1].dtype);
	EXPECT_EQ(4ULL, set->mem[1].shape[0]);
	EXPECT_EQ(8ULL, set->mem[1].shape[1]);
	EXPECT_EQ(0ULL, set->mem[1].shape[2]);
	EXPECT_STREQ("float32", set->mem[2].dtype);
	EXPECT_EQ(16ULL, set->mem[2].shape[0]);
	ASSERT_NE(NULL, kbin_view_payload(&v, &set->mem[2]));
	EXPECT_EQ(0, memcmp(kbin_view_payload(&v, &set->mem[2]), cc_weights(), 64));
	free(kbin);
}

/*
 * A var's own dtype and shape keys (libnrt reads them in
 * parse_one_variable) reach its record, and a tensor_map.json that says
 * the same is taken with them.
 */
TEST(def_json_dtype_and_shape)
{
	const struct kbin_mem_ref_set *set;
	struct kbin_view v;
	void *kbin;

	compile_read(_metadata, "sunda",
		CC_DEF(CC_SB ", " IN("x", 1, ", \"dtype\": \"float16\", \"shape\": [4, 8]")
		       ", " IN("y", 2, ", \"dtype\": \"int8\", \"shape\": [64]")),
		"{\"y\": {\"dtype\": \"int8\", \"tf_shape\": [64]}}", &kbin, &v);
	set = kbin_view_set(&v, 0);
	EXPECT_STREQ("float16", set->mem[1].dtype);
	EXPECT_EQ(4ULL, set->mem[1].shape[0]);
	EXPECT_EQ(8ULL, set->mem[1].shape[1]);
	EXPECT_EQ(0ULL, set->mem[1].shape[2]);
	EXPECT_STREQ("int8", set->mem[2].dtype);
	EXPECT_EQ(64ULL, set->mem[2].shape[0]);
	free(kbin);
}

/*
 * A weight's .npy descr must be one its dtype is stored as; numpy has no
 * bfloat16 or float8, so '<u2' and '|V2', '|u1' and '|V1' stand for
 * them.  A dtype the table does not know is taken as it is.
 */
TEST(npy_descr_against_dtype)
{
	static const struct {
		const char *dtype, *descr;
		uint64_t n;
		int err;
	} cases[] = {
		{ "float32", "<f4", 16, 0 }, { "float16", "<f2", 32, 0 },
		{ "bfloat16", "<u2", 32, 0 }, { "bfloat16", "|V2", 32, 0 },
		{ "int8", "|i1", 64, 0 }, { "uint8", "|u1", 64, 0 },
		{ "int32", "<i4", 16, 0 }, { "float8_e4m3", "|u1", 64, 0 },
		{ "float16", "<u2", 32, -EINVAL }, { "bfloat16", "<f2", 32, -EINVAL },
		{ "int8", "|u1", 64, -EINVAL }, { "float32", ">f4", 16, -EINVAL },
		{ "int32", "<f4", 16, -EINVAL },
		{ "float8_e5m2", "|V1", 64, 0 }, { "float8_e4m3", "|i1", 64, -EINVAL },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char tmap[256];
		struct nscc_neff_writer *w;
		struct nscc_err err = { "" };
		void *buf, *kbin = NULL;
		size_t len, klen;

		snprintf(tmap, sizeof(tmap), "{\"w\": {\"dtype\": \"%s\", \"tf_shape\": [%llu]}}",
			 cases[i].dtype, (unsigned long long)cases[i].n);
		w = cc_writer("sunda", CC_DEF(CC_SB ", " W64("")), tmap);
		ASSERT_NE(NULL, w);
		ASSERT_EQ(0, nscc_neff_writer_add_npy(w, "sg00/w.npy", 1, cases[i].descr,
						      &cases[i].n, 1, cc_weights(), 64));
		ASSERT_EQ(0, nscc_neff_writer_finish(w, NULL, &buf, &len));
		EXPECT_EQ(cases[i].err, cc_compile_mem(buf, len, &kbin, &klen, &err))
			TH_LOG("%s %s: %s", cases[i].dtype, cases[i].descr, err.msg);
		free(kbin);
		free(buf);
		nscc_neff_writer_free(w);
	}
}

/*
 * Scratchpad size = max(offset + size) over the virtual vars (shared);
 * a tmp-buf is its own HBM allocation and no part of the local
 * scratchpad, whatever its backing_variable_off.
 */
TEST(scratchpad_sizes)
{
	struct kbin_view v;
	void *kbin;

	compile_read(_metadata, "sunda", CC_DEF(CC_SB
		", \"a\": {\"type\": \"virtual\", \"var_id\": 1, \"size\": 4096, \"backing_variable_off\": 8192}"
		", \"b\": {\"type\": \"virtual\", \"var_id\": 2, \"size\": 100, \"backing_variable_off\": 0}"
		", \"t\": {\"type\": \"tmp-buf\", \"var_id\": 3, \"size\": 300}"
		", \"u\": {\"type\": \"tmp-buf\", \"var_id\": 4, \"size\": 64, \"backing_variable_off\": 4096}"),
		NULL, &kbin, &v);
	EXPECT_EQ(12288ULL, kbin_view_set(&v, 0)->shared_scratchpad_size);
	EXPECT_EQ(0ULL, kbin_view_set(&v, 0)->local_scratchpad_size);
	EXPECT_EQ((unsigned)KBIN_MR_TMP_BUF, kbin_view_set(&v, 0)->mem[3].mr_type);
	EXPECT_EQ(300ULL, kbin_view_set(&v, 0)->mem[3].size);
	EXPECT_EQ(8192ULL, kbin_view_set(&v, 0)->mem[1].virt.offset);
	EXPECT_EQ((unsigned)KBIN_BACKING_BUF_SHARED, kbin_view_set(&v, 0)->mem[1].virt.backing_buf);
	free(kbin);
}

/*
 * A second var with a var_id (or a name) already taken is skipped, as
 * libnrt's symbol table skips it (check_var_exists(): the first one
 * stays), with a warning naming both: the plan is the one without it,
 * and nothing of the skipped var counts (its scratchpad offset, its
 * pointer target).  The compiler used to refuse it (-EEXIST).
 */
TEST(duplicate_var_skipped_with_a_warning)
{
	const char *def = CC_DEF(CC_SB
		", \"a\": {\"type\": \"virtual\", \"var_id\": 1, \"size\": 64, \"backing_variable_off\": 0}"
		", \"b\": {\"type\": \"virtual\", \"var_id\": 1, \"size\": 64, \"backing_variable_off\": 1048576}"
		", \"p\": {\"type\": \"pointer\", \"var_id\": 2, \"referenced_var_id\": 1}"
		", \"q\": {\"type\": \"pointer\", \"var_id\": 2, \"referenced_var_id\": 77}");
	struct nscc_warn warn = { 0 };
	struct nscc_err err = { "" };
	struct nscc_neff_writer *w = cc_writer("sunda", def, NULL);
	struct kbin_check_result res;
	struct nscc_model *m = NULL;
	const struct kbin_mem_ref_set *set;
	struct nscc_neff *n;
	struct kbin_view v;
	void *buf, *kbin = NULL;
	size_t len, klen;
	FILE *fp = tmpfile();
	char text[1024] = "";

	ASSERT_NE(NULL, w);
	ASSERT_NE(NULL, fp);
	ASSERT_EQ(0, nscc_neff_writer_finish(w, NULL, &buf, &len));
	nscc_neff_writer_free(w);
	ASSERT_EQ(0, nscc_neff_open_mem(buf, len, &n, &err)) TH_LOG("%s", err.msg);
	free(buf);
	ASSERT_EQ(0, nscc_neff_to_model(n, &m, &err)) TH_LOG("%s", err.msg);
	warn.fp = fp;
	warn.prefix = "neuronsim-cc: x.neff: ";
	m->warn = &warn;
	ASSERT_EQ(0, nscc_compile_model(m, &kbin, &klen, &err)) TH_LOG("%s", err.msg);
	EXPECT_EQ(2, warn.count);
	EXPECT_STREQ("sg00: var 'q' (var_id 2): duplicate var_id, var 'p' has it already; skipped, as libnrt's symbol table skips it (the first var of a var_id or name stays)",
		     warn.last);
	rewind(fp);
	EXPECT_EQ(1, fread(text, 1, sizeof(text) - 1, fp) > 0);
	EXPECT_STREQ("neuronsim-cc: x.neff: warning: sg00: var 'b' (var_id 1): duplicate var_id, var 'a' has it already; skipped, as libnrt's symbol table skips it (the first var of a var_id or name stays)\n"
		     "neuronsim-cc: x.neff: warning: sg00: var 'q' (var_id 2): duplicate var_id, var 'p' has it already; skipped, as libnrt's symbol table skips it (the first var of a var_id or name stays)\n",
		     text);
	fclose(fp);
	ASSERT_EQ(0, kbin_read(kbin, klen, &v, &res)) TH_LOG("%s", res.err.msg);
	set = kbin_view_set(&v, 0);
	ASSERT_EQ(3, set->nmem);
	EXPECT_STREQ("a", kbin_view_str(&v, set->mem[1].name));
	EXPECT_STREQ("p", kbin_view_str(&v, set->mem[2].name));
	/* b's offset 1 MiB does not size the shared scratchpad */
	EXPECT_EQ(64ULL, set->shared_scratchpad_size);
	free(kbin);

	/* in memory: a second name skipped too, and no warning sink is fine */
	m->warn = NULL;
	m->sgs[0].vars[2].name[0] = 'a';	/* "b" -> "a", var_id 1 */
	m->sgs[0].vars[2].var_id = 3;
	ASSERT_EQ(0, nscc_compile_model(m, &kbin, &klen, &err)) TH_LOG("%s", err.msg);
	free(kbin);
	nscc_model_free(m);
}

TEST_HARNESS_MAIN
