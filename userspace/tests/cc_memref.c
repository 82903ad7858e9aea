// SPDX-License-Identifier: GPL-2.0
/*
 * cc_memref.c - the mem_ref build tree and the symbol table
 * (Documentation/compiler.rst, "The kinds"): every kind round-trips
 * (in-memory var -> build object -> dump -> KBIN -> reader gives the same
 * fields), ptr_table shares the list's dump, the dump caps are errors,
 * the symbol table's three maps, duplicates and the dense-id rule, and a
 * 10^5-var subgraph compiles in linear time.
 */
#include <time.h>

#include "kselftest_harness.h"
#include "cc_testutil.h"
#include "memref.h"

struct all_kinds {
	struct nscc_model *m;
	void *kbin;
	size_t len;
	struct kbin_view v;
	const struct kbin_mem_ref_set *s0, *s1;
};

static const uint8_t payload[128] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };

/* sg00: one var of every kind, in scrambled order; sg01: a remote's target */
static struct nscc_model *all_kinds_model(void)
{
	struct nscc_model *m = nscc_model_new(KBIN_TARGET_TRN2);
	static const uint64_t shp[3] = { 2, 4, 8 };
	static const uint32_t rows[2] = { 1, 3 }, idx[3] = { 0, 1, 2 };
	struct nscc_var *v;
	int s0, s1;

	s0 = nscc_model_add_subgraph(m, "sg00");
	s1 = nscc_model_add_subgraph(m, "sg01");
	v = nscc_model_add_var(m, s0, "in", 1, KBIN_MR_INPUT);
	v->has_size = 1, v->size = 4096, v->alignment = 256;
	nscc_var_set_dtype(v, "float16");
	nscc_var_set_shape(v, shp, 3);
	v = nscc_model_add_var(m, s0, "SB", 0, KBIN_MR_SB);
	v = nscc_model_add_var(m, s0, "out", 2, KBIN_MR_OUTPUT);
	v->has_size = 1, v->size = 1ULL << 33;	/* sizes over 2^32 */
	v = nscc_model_add_var(m, s0, "weights", 3, KBIN_MR_BUFFER);
	v->has_size = 1, v->size = sizeof(payload), v->alignment = 65536;
	nscc_var_set_payload(v, payload, sizeof(payload));
	nscc_var_set_debug_md(v, "dbg.weights", 7);
	v = nscc_model_add_var(m, s0, "tmp", 4, KBIN_MR_TMP_BUF);
	v->has_size = 1, v->size = 1000, v->offset = 24;
	nscc_var_set_debug_md(v, "dbg.tmp", 3);
	v = nscc_model_add_var(m, s0, "virt", 5, KBIN_MR_VIRTUAL_TMP_BUF);
	v->has_size = 1, v->size = 512, v->offset = 4096;
	v->backing_buf = KBIN_BACKING_BUF_SHARED;
	v = nscc_model_add_var(m, s0, "ptr", 6, KBIN_MR_PTR);
	v->referenced_var_id = 3, v->io_ref = 1;
	v = nscc_model_add_var(m, s0, "list", 7, KBIN_MR_LIST);
	nscc_var_set_list(v, idx, 3);
	v = nscc_model_add_var(m, s0, "table", 8, KBIN_MR_PTR_TABLE);
	nscc_var_set_list(v, rows, 2);
	v = nscc_model_add_var(m, s0, "remote", 9, KBIN_MR_REMOTE);
	v->has_size = 1, v->size = 64, v->remote_sg = 1, v->remote_var_id = 1;
	v = nscc_model_add_var(m, s0, "staged", 10, KBIN_MR_BUFFER_STAGED);
	v->has_size = 1, v->size = 16, v->alignment = 16;
	nscc_var_set_payload(v, payload, 16);
	v = nscc_model_add_var(m, s0, "local_virt", 11, KBIN_MR_VIRTUAL_TMP_BUF);
	v->has_size = 1, v->size = 2000, v->backing_buf = KBIN_BACKING_BUF_LOCAL;
	nscc_var_set_debug_md(v, "dbg.lv", 1);
	nscc_model_add_var(m, s1, "SB", 0, KBIN_MR_SB);
	v = nscc_model_add_var(m, s1, "shared_in", 1, KBIN_MR_INPUT);
	v->has_size = 1, v->size = 64;
	m->sgs[s0].carveouts[0] = (struct kbin_sb_carveout){
		.type = KBIN_CARVEOUT_EVTACCEL, .offset = 229368, .size = 8,
		.start_partition = 0, .num_partitions = 128 };
	m->sgs[s0].num_carveouts = 1;
	return m;
}

FIXTURE(kinds) {
	struct all_kinds k;
};

FIXTURE_SETUP(kinds)
{
	struct kbin_check_result res;
	struct nscc_err err = { "" };

	self->k.m = all_kinds_model();
	ASSERT_NE(NULL, self->k.m);
	ASSERT_EQ(0, nscc_compile_model(self->k.m, &self->k.kbin, &self->k.len, &err))
		TH_LOG("%s", err.msg);
	ASSERT_EQ(0, kbin_read(self->k.kbin, self->k.len, &self->k.v, &res))
		TH_LOG("%s", res.err.msg);
	self->k.s0 = kbin_view_set(&self->k.v, 0);
	self->k.s1 = kbin_view_set(&self->k.v, 1);
}

FIXTURE_TEARDOWN(kinds)
{
	free(self->k.kbin);
	nscc_model_free(self->k.m);
}

#define REC(i) (&self->k.s0->mem[i])
#define NAME(i) kbin_view_str(&self->k.v, REC(i)->name)

TEST_F(kinds, plan_header)
{
	EXPECT_EQ(KBIN_TARGET_TRN2, self->k.v.hdr->target_gen);
	EXPECT_EQ(2U, self->k.v.num_subgraphs);
	EXPECT_EQ(12U, self->k.s0->nmem);
	EXPECT_EQ(2U, self->k.s1->nmem);
	EXPECT_STREQ("sg00", kbin_view_subgraph(&self->k.v, 0)->name);
	EXPECT_EQ(1U, kbin_view_subgraph(&self->k.v, 0)->num_carveouts);
	EXPECT_EQ(229368U, kbin_view_subgraph(&self->k.v, 0)->carveouts[0].offset);
	/* shared: virt 4096 + 512; local: local_virt 2000 (tmp is in HBM) */
	EXPECT_EQ(4608ULL, self->k.s0->shared_scratchpad_size);
	EXPECT_EQ(2000ULL, self->k.s0->local_scratchpad_size);
}

TEST_F(kinds, records_in_var_id_order)
{
	static const char *const names[] = { "SB", "in", "out", "weights", "tmp",
		"virt", "ptr", "list", "table", "remote", "staged", "local_virt" };
	uint32_t i;

	for (i = 0; i < 12; i++) {
		EXPECT_EQ(i, REC(i)->var_id);
		EXPECT_STREQ(names[i], NAME(i));
	}
}

TEST_F(kinds, sp)
{
	EXPECT_EQ((unsigned)KBIN_MR_SB, REC(0)->mr_type);
	/* the trn2 SBUF window: 128 partitions at a 256 KiB stride */
	EXPECT_EQ(128ULL * 256 * 1024, REC(0)->size);
	EXPECT_EQ(1ULL, REC(0)->alignment);
	EXPECT_EQ(0ULL, REC(0)->buffer);
}

TEST_F(kinds, io)
{
	EXPECT_EQ((unsigned)KBIN_MR_INPUT, REC(1)->mr_type);
	EXPECT_EQ(4096ULL, REC(1)->size);
	EXPECT_EQ(256ULL, REC(1)->alignment);
	EXPECT_STREQ("float16", REC(1)->dtype);
	EXPECT_EQ(2ULL, REC(1)->shape[0]);
	EXPECT_EQ(4ULL, REC(1)->shape[1]);
	EXPECT_EQ(8ULL, REC(1)->shape[2]);
	EXPECT_EQ(0ULL, REC(1)->shape[3]);
	EXPECT_EQ((unsigned)KBIN_MR_OUTPUT, REC(2)->mr_type);
	EXPECT_EQ(1ULL << 33, REC(2)->size);
	EXPECT_EQ(64ULL, REC(2)->alignment);	/* the default */
}

TEST_F(kinds, buffer_with_payload_and_debug_md)
{
	const struct kbin_debug_tensor_md *md = kbin_view_md(&self->k.v, REC(3));

	EXPECT_EQ((unsigned)KBIN_MR_BUFFER, REC(3)->mr_type);
	EXPECT_EQ(sizeof(payload), REC(3)->size);
	EXPECT_EQ(65536ULL, REC(3)->alignment);
	ASSERT_NE(NULL, kbin_view_payload(&self->k.v, REC(3)));
	EXPECT_EQ(0, memcmp(payload, kbin_view_payload(&self->k.v, REC(3)), sizeof(payload)));
	ASSERT_NE(NULL, md);
	EXPECT_STREQ("dbg.weights", md->prefix_str);
	EXPECT_EQ(7U, md->pipe_id);
	EXPECT_EQ((unsigned)KBIN_MR_BUFFER_STAGED, REC(10)->mr_type);
	EXPECT_EQ(0, memcmp(payload, kbin_view_payload(&self->k.v, REC(10)), 16));
}

TEST_F(kinds, tmp_buf)
{
	EXPECT_EQ((unsigned)KBIN_MR_TMP_BUF, REC(4)->mr_type);
	EXPECT_EQ(1000ULL, REC(4)->size);
	EXPECT_EQ(64ULL, REC(4)->alignment);
	EXPECT_EQ(0ULL, REC(4)->buffer);
	EXPECT_STREQ("dbg.tmp", kbin_view_md(&self->k.v, REC(4))->prefix_str);
}

TEST_F(kinds, virtual_tmp_buf)
{
	EXPECT_EQ((unsigned)KBIN_MR_VIRTUAL_TMP_BUF, REC(5)->mr_type);
	EXPECT_EQ(512ULL, REC(5)->size);
	EXPECT_EQ(4096ULL, REC(5)->virt.offset);
	EXPECT_EQ((unsigned)KBIN_BACKING_BUF_SHARED, REC(5)->virt.backing_buf);
	EXPECT_EQ((unsigned)KBIN_BACKING_BUF_LOCAL, REC(11)->virt.backing_buf);
	EXPECT_EQ(1U, kbin_view_md(&self->k.v, REC(11))->pipe_id);
}

TEST_F(kinds, pointer)
{
	EXPECT_EQ((unsigned)KBIN_MR_PTR, REC(6)->mr_type);
	EXPECT_EQ(8ULL, REC(6)->size);
	EXPECT_EQ(1ULL, REC(6)->alignment);
	EXPECT_EQ(3U, REC(6)->pointer.referenced_var_id);
	EXPECT_EQ(1U, REC(6)->pointer.io_ref);
}

TEST_F(kinds, list_and_ptr_table_share_the_list_dump)
{
	const uint32_t *l = kbin_view_list(&self->k.v, REC(7));
	const uint32_t *t = kbin_view_list(&self->k.v, REC(8));

	EXPECT_EQ((unsigned)KBIN_MR_LIST, REC(7)->mr_type);
	ASSERT_EQ(3U, REC(7)->list.length);
	EXPECT_EQ(0U, l[0]);
	EXPECT_EQ(2U, l[2]);
	EXPECT_EQ(12ULL, REC(7)->size);
	EXPECT_EQ((unsigned)KBIN_MR_PTR_TABLE, REC(8)->mr_type);
	ASSERT_EQ(2U, REC(8)->list.length);
	EXPECT_EQ(1U, t[0]);
	EXPECT_EQ(3U, t[1]);
	EXPECT_EQ(nscc_mr_list_ops.dump, nscc_mr_ptr_table_ops.dump);
	EXPECT_NE(nscc_mr_list_ops.destroy, nscc_mr_ptr_table_ops.destroy);
}

TEST_F(kinds, remote_variable)
{
	EXPECT_EQ((unsigned)KBIN_MR_REMOTE, REC(9)->mr_type);
	EXPECT_EQ(1U, REC(9)->remote.remote_vtpb_rel_sg_id);
	EXPECT_EQ(1U, REC(9)->remote.remote_var_id);
	EXPECT_EQ(64ULL, REC(9)->size);
}

/* every kind has its own ops table and libnrt's class name */
/*
 * MR_PSUM, neuronsim's own kind: the model emits it as the PSUM window
 * (psum_size, alignment 1) and the plan it compiles to checks and names
 * it MR_PSUM, as neuronsim-cc dump prints it.
 */
TEST(psum_var)
{
	struct nscc_model *m = nscc_model_new(KBIN_TARGET_TRN2);
	struct kbin_check_result res;
	struct nscc_err err = { "" };
	const struct kbin_mem_ref_set *set;
	struct kbin_view v;
	void *kbin;
	size_t len;
	int s0;

	ASSERT_NE(NULL, m);
	s0 = nscc_model_add_subgraph(m, "sg00");
	ASSERT_NE(NULL, nscc_model_add_var(m, s0, "SB", 0, KBIN_MR_SB));
	ASSERT_NE(NULL, nscc_model_add_var(m, s0, "psum", 1, KBIN_MR_PSUM));
	ASSERT_EQ(0, nscc_compile_model(m, &kbin, &len, &err)) TH_LOG("%s", err.msg);
	ASSERT_EQ(0, kbin_read(kbin, len, &v, &res)) TH_LOG("%s", res.err.msg);
	set = kbin_view_set(&v, 0);
	ASSERT_EQ(2U, set->nmem);
	EXPECT_EQ((unsigned)KBIN_MR_PSUM, set->mem[1].mr_type);
	EXPECT_EQ(2ULL << 20, set->mem[1].size);	/* trn2: 128 x 8 x 2 KiB */
	EXPECT_EQ(2ULL << 20, nscc_psum_window_size(KBIN_TARGET_TRN2));
	EXPECT_EQ(1ULL, set->mem[1].alignment);
	EXPECT_STREQ("MR_PSUM", kbin_mr_type_str(set->mem[1].mr_type));
	EXPECT_EQ((unsigned)KBIN_MR_PSUM, nscc_mr_type_from_def("psum"));
	EXPECT_STREQ("mem_ref_psum", nscc_mr_psum_ops.kind);
	free(kbin);
	nscc_model_free(m);
}

TEST(ops_tables)
{
	const struct nscc_mr_ops *ops[] = { &nscc_mr_base_ops, &nscc_mr_sp_ops,
		&nscc_mr_io_ops, &nscc_mr_buffer_ops, &nscc_mr_tmp_buf_ops,
		&nscc_mr_virtual_tmp_buf_ops, &nscc_mr_pointer_ops,
		&nscc_mr_list_ops, &nscc_mr_ptr_table_ops,
		&nscc_mr_remote_variable_ops };
	size_t i;

	EXPECT_STREQ("mem_ref", ops[0]->kind);
	EXPECT_STREQ("mem_ref_ptr_table", nscc_mr_ptr_table_ops.kind);
	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		EXPECT_NE(NULL, ops[i]->dump);
		EXPECT_NE(NULL, ops[i]->destroy);
	}
}

/*
 * nscc_mr_dump() of a 64-byte mem_ref of @v for trn1 into *@out: its
 * return, or -ENOMEM when the mem_ref cannot be made (*@err says why).
 */
static int dump_var(const struct nscc_var *v, struct nscc_mr_out *out,
		    struct nscc_err *err)
{
	struct nscc_dump_ctx ctx = { KBIN_TARGET_TRN1, "x" };
	struct nscc_mr *mr = nscc_mr_new(v, 64, err);
	int ret;

	if (!mr)
		return -ENOMEM;
	ret = nscc_mr_dump(mr, &ctx, out, err);
	nscc_mr_destroy(mr);
	return ret;
}

/* The dump caps are errors, never truncation (Documentation/compiler.rst). */
TEST(dump_caps)
{
	struct nscc_var v = { .var_id = 2, .mr_type = KBIN_MR_INPUT, .has_size = 1, .size = 8 };
	uint64_t dims[9] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
	struct nscc_err err = { "" };
	struct nscc_mr_out out;
	char prefix[600];

	v.dtype = "0123456789abcde";	/* 15: fits */
	EXPECT_EQ(0, dump_var(&v, &out, &err)) TH_LOG("%s", err.msg);
	EXPECT_STREQ("0123456789abcde", out.in.rec.dtype);
	v.dtype = "0123456789abcdef";	/* 16: refused */
	EXPECT_EQ(-E2BIG, dump_var(&v, &out, &err));
	EXPECT_STREQ("dtype '0123456789abcdef' has 16 characters, only 15 fit"
		     " (libnrt: Device print dtype 0123456789abcdef has 16 characters. Only 15 are supported)",
		     err.msg);
	v.dtype = NULL;
	v.shape = dims;
	v.ndims = 8;
	EXPECT_EQ(0, dump_var(&v, &out, &err)) TH_LOG("%s", err.msg);
	EXPECT_EQ(8ULL, out.in.rec.shape[7]);
	v.ndims = 9;
	EXPECT_EQ(-E2BIG, dump_var(&v, &out, &err));
	EXPECT_STREQ("shape has 9 dimensions, only 8 fit"
		     " (libnrt: Device print only supports shape dimentions of up to 8)",
		     err.msg);
	v.ndims = 0;
	v.mr_type = KBIN_MR_TMP_BUF;
	memset(prefix, 'p', sizeof(prefix) - 1);
	prefix[sizeof(prefix) - 1] = 0;
	v.md_prefix = prefix;
	EXPECT_EQ(-E2BIG, dump_var(&v, &out, &err));
	EXPECT_STREQ("debug prefix has 599 characters, only 511 fit", err.msg);
	v.mr_type = 99;
	EXPECT_EQ(NULL, nscc_mr_new(&v, 64, &err));
	EXPECT_STREQ("mr_type 99 is not a kind", err.msg);
}

/* A cap hit inside the pipeline names the subgraph and var. */
TEST(dump_cap_in_pipeline_names_var)
{
	struct nscc_model *m = nscc_model_new(KBIN_TARGET_TRN1);
	struct nscc_err err = { "" };
	struct nscc_var *v;
	void *kbin = NULL;
	size_t len;

	ASSERT_NE(NULL, m);
	v = cc_sized_var(m, nscc_model_add_subgraph(m, "sg00"), "x", 0, KBIN_MR_INPUT, 8);
	ASSERT_NE(NULL, v);
	ASSERT_EQ(0, nscc_var_set_dtype(v, "a_very_long_dtype_name"));
	EXPECT_EQ(-E2BIG, nscc_compile_model(m, &kbin, &len, &err));
	EXPECT_EQ(NULL, kbin);
	EXPECT_STREQ("sg00: var 'x' (var_id 0): dtype 'a_very_long_dtype_name' has 22 characters, only 15 fit"
		     " (libnrt: Device print dtype a_very_long_dtype_name has 22 characters. Only 15 are supported)",
		     err.msg);
	nscc_model_free(m);
}

TEST(symtab_three_maps_and_duplicates)
{
	struct nscc_symtab *st = nscc_symtab_new();
	struct nscc_var v = { .mr_type = KBIN_MR_SB };
	struct nscc_err err = { "" };
	uint32_t i;

	for (i = 0; i < 3; i++) {
		char name[8];

		snprintf(name, sizeof(name), "v%u", i);
		v.var_id = i;
		ASSERT_EQ(0, nscc_symtab_add(st, name, nscc_mr_new(&v, 1, &err), &err));
	}
	EXPECT_EQ(3U, nscc_symtab_count(st));
	EXPECT_EQ(2, nscc_symtab_var_id(st, "v2"));
	EXPECT_EQ(-ENOENT, nscc_symtab_var_id(st, "nope"));
	EXPECT_STREQ("v1", nscc_symtab_name(st, 1));
	EXPECT_EQ(NULL, nscc_symtab_name(st, 3));
	ASSERT_NE(NULL, nscc_symtab_object(st, 0));
	EXPECT_EQ(0U, nscc_symtab_object(st, 0)->var_id);
	EXPECT_EQ(0, nscc_symtab_check_dense(st, &err));
	v.var_id = 1;
	EXPECT_EQ(-EEXIST, nscc_symtab_add(st, "other", nscc_mr_new(&v, 1, &err), &err));
	EXPECT_STREQ("var 'other' (var_id 1): duplicate var_id, var 'v1' has it already", err.msg);
	v.var_id = 9;
	EXPECT_EQ(-EEXIST, nscc_symtab_add(st, "v0", nscc_mr_new(&v, 1, &err), &err));
	EXPECT_STREQ("var 'v0' (var_id 9): duplicate name, var_id 0 has it already", err.msg);
	v.var_id = 7;
	ASSERT_EQ(0, nscc_symtab_add(st, "v7", nscc_mr_new(&v, 1, &err), &err));
	EXPECT_EQ(-EINVAL, nscc_symtab_check_dense(st, &err));
	EXPECT_STREQ("Unexpected var_ids set! (4 vars, max var_id 7; var_ids must be 0..3)", err.msg);
	nscc_symtab_free(st);
}

TEST(model_rule_errors)
{
	struct nscc_model *m = nscc_model_new(KBIN_TARGET_TRN1);
	struct nscc_err err = { "" };
	struct nscc_var *v;
	int sg;

	ASSERT_NE(NULL, m);
	EXPECT_STREQ("0 subgraphs, a plan holds 1..64", cc_model_refusal(m, &err));
	sg = nscc_model_add_subgraph(m, "sg00");
	m->target_gen = 9;
	EXPECT_STREQ("target_gen 9 is not a known generation (2, 3, 4)", cc_model_refusal(m, &err));
	m->target_gen = KBIN_TARGET_TRN1;
	v = cc_sized_var(m, sg, "s", 0, KBIN_MR_BUFFER_STAGED, 8);
	ASSERT_NE(NULL, v);
	EXPECT_STREQ("sg00: var 's' (var_id 0): MR_BUFFER_STAGED has no payload (missing payload)",
		     cc_model_refusal(m, &err));
	v->mr_type = KBIN_MR_VIRTUAL_TMP_BUF;
	v->backing_buf = 4;
	EXPECT_STREQ("sg00: var 's' (var_id 0): backing_buf 4 is not 0..3 (bad backing buffer)",
		     cc_model_refusal(m, &err));
	v->backing_buf = 0;
	v->mr_type = KBIN_MR_REMOTE;
	v->remote_sg = 3;
	EXPECT_STREQ("sg00: var 's' (var_id 0): remote_vtpb_rel_sg_id 3 is not below num_subgraphs 1 (bad remote subgraph)",
		     cc_model_refusal(m, &err));
	v->remote_sg = 0;
	v->remote_var_id = 0;
	EXPECT_STREQ("sg00: var 's' (var_id 0): remote variable 0 in relative sg 0 is itself MR_REMOTE (remote to a remote variable)",
		     cc_model_refusal(m, &err));
	v->mr_type = KBIN_MR_INVALID;
	EXPECT_STREQ("sg00: var 's' (var_id 0): type: mr_type 0 is not a kind",
		     cc_model_refusal(m, &err));
	nscc_model_free(m);
}

/*
 * The header's shared size covers SHARED-backed vars only: SHARDED and
 * MAIN arenas are sized by the loader from their vars (hardware.rst,
 * "Scratchpad arenas"), LOCAL ones make the local size.
 */
TEST(scratchpad_sizes_by_backing)
{
	static const uint32_t backing[] = {
		KBIN_BACKING_BUF_LOCAL, KBIN_BACKING_BUF_SHARED,
		KBIN_BACKING_BUF_SHARDED, KBIN_BACKING_BUF_MAIN,
	};
	struct nscc_model *m = nscc_model_new(KBIN_TARGET_TRN1);
	struct kbin_check_result res;
	struct nscc_err err = { "" };
	struct kbin_view v;
	void *kbin;
	size_t len;
	uint32_t i;
	int sg = nscc_model_add_subgraph(m, "sg00");

	nscc_model_add_var(m, sg, "SB", 0, KBIN_MR_SB);
	for (i = 0; i < 4; i++) {
		char name[16];
		struct nscc_var *x;

		snprintf(name, sizeof(name), "v%u", i);
		x = nscc_model_add_var(m, sg, name, i + 1, KBIN_MR_VIRTUAL_TMP_BUF);
		ASSERT_NE(NULL, x);
		x->has_size = 1, x->size = 256, x->offset = (i + 1) * 4096ULL;
		x->backing_buf = backing[i];
	}
	ASSERT_EQ(0, nscc_compile_model(m, &kbin, &len, &err)) TH_LOG("%s", err.msg);
	ASSERT_EQ(0, kbin_read(kbin, len, &v, &res)) TH_LOG("%s", res.err.msg);
	EXPECT_EQ(4096ULL + 256, kbin_view_set(&v, 0)->local_scratchpad_size);
	EXPECT_EQ(2 * 4096ULL + 256, kbin_view_set(&v, 0)->shared_scratchpad_size);
	EXPECT_EQ((unsigned)KBIN_BACKING_BUF_MAIN,
		  kbin_view_set(&v, 0)->mem[4].virt.backing_buf);
	free(kbin);
	nscc_model_free(m);
}

/* 10^5 vars (mostly virtual, a few weights): linear time, not O(n^2). */
TEST(hundred_thousand_vars)
{
	struct nscc_model *m = nscc_model_new(KBIN_TARGET_TRN1);
	struct kbin_check_result res;
	struct nscc_err err = { "" };
	struct kbin_view v;
	struct timespec t0, t1;
	const uint32_t n = 100000;
	void *kbin;
	size_t len;
	uint32_t i;
	double secs;
	int sg = nscc_model_add_subgraph(m, "sg00");

	nscc_model_add_var(m, sg, "SB", 0, KBIN_MR_SB);
	for (i = n - 1; i >= 1; i--) {	/* reverse order: ids sorted by the symtab */
		char name[32];
		struct nscc_var *x;

		snprintf(name, sizeof(name), "var_%u", i);
		x = nscc_model_add_var(m, sg, name, i, KBIN_MR_VIRTUAL_TMP_BUF);
		ASSERT_NE(NULL, x);
		x->has_size = 1, x->size = 256, x->offset = (uint64_t)i * 256;
		x->backing_buf = KBIN_BACKING_BUF_SHARED;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ASSERT_EQ(0, nscc_compile_model(m, &kbin, &len, &err)) TH_LOG("%s", err.msg);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	TH_LOG("compiled %u vars in %.3f s (sanitized build)", n, secs);
	EXPECT_LT(secs, 20.0);
	ASSERT_EQ(0, kbin_read(kbin, len, &v, &res));
	EXPECT_EQ(n, kbin_view_set(&v, 0)->nmem);
	EXPECT_EQ((uint64_t)n * 256, kbin_view_set(&v, 0)->shared_scratchpad_size);
	EXPECT_STREQ("var_99999", kbin_view_str(&v, kbin_view_set(&v, 0)->mem[n - 1].name));
	free(kbin);
	nscc_model_free(m);
}

TEST_HARNESS_MAIN
