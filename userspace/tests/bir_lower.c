// SPDX-License-Identifier: GPL-2.0
/*
 * bir_lower.c - every bundled BIR model compiles (passes -> the
 * compiler's model, built directly -> KBIN) to a plan that the plan
 * checker accepts, with the evtaccel carve-out of the real trn2 NEFFs,
 * byte-identical to the golden plan; the model's var table, dtype and
 * shape included; the passes
 * entry point dumps after a named pass.
 */
#include "kselftest_harness.h"
#include "bir_test.h"
#include "kbin_reader.h"
#include "nsim_file.h"

static const char *const examples[] = {
	"nki_twice.bir.json", "bir_activation.bir.json",
	"bir_rmsnorm.bir.json", "bir_layernorm.bir.json", "bir_mlp.bir.json",
	"bir_attention.bir.json", "collectives.bir.json",
};

/*
 * Lowering @_m into a fresh trn2 model is refused (-EINVAL) with exactly
 * the message @_msg; the model is freed, @_m is the caller's.
 */
#define EXPECT_LOWER_REFUSED(_m, _msg) do {					\
	struct nscc_model *_model = nscc_model_new(KBIN_TARGET_TRN2);		\
	struct nscc_err _e = { { 0 } };						\
										\
	EXPECT_EQ(-EINVAL, bir_lower_model(_m, _model, &_e))			\
		TH_LOG("lowered, %u DMA blocks",				\
		       _model->num_sgs ? _model->sgs[0].num_dma_blocks : 0);	\
	EXPECT_STREQ(_msg, _e.msg);						\
	nscc_model_free(_model);						\
} while (0)

/*
 * @m lowered into a fresh trn2 model, and the model compiled.  Return:
 * 0, or the first error (its message in @err).
 */
static int compile_module(struct bir_module *m, struct nscc_err *err)
{
	struct nscc_model *model = nscc_model_new(KBIN_TARGET_TRN2);
	void *buf = NULL;
	size_t len = 0;
	int rc = model ? bir_lower_model(m, model, err) : -ENOMEM;

	if (!rc)
		rc = nscc_compile_model(model, &buf, &len, err);
	free(buf);
	nscc_model_free(model);
	return rc;
}

TEST(every_example_compiles_to_a_checked_plan)
{
	for (size_t k = 0; k < sizeof(examples) / sizeof(examples[0]); k++) {
		char path[512];
		struct nscc_err err = { { 0 } };
		struct kbin_check_result res;
		struct kbin_view v;
		const struct kbin_subgraph *sg;
		void *buf = NULL;
		size_t len = 0;
		int rc;

		snprintf(path, sizeof(path), "%s%s", BIR_EXAMPLES, examples[k]);
		rc = nscc_bir_compile_file(path, &buf, &len, &err);
		if (rc)
			fprintf(stderr, "# %s: %s\n", examples[k], err.msg);
		ASSERT_EQ(0, rc);
		memset(&res, 0, sizeof(res));
		ASSERT_EQ(0, kbin_read(buf, len, &v, &res));
		ASSERT_EQ(1, v.num_subgraphs);
		sg = kbin_view_subgraph(&v, 0);
		ASSERT_EQ(1, sg->num_carveouts);
		EXPECT_EQ(0, bt_trn2_evtaccel(&sg->carveouts[0]));
		/* DRAM locations are tmp-bufs, HBM allocations: no scratchpad */
		EXPECT_EQ(0, kbin_view_set(&v, 0)->local_scratchpad_size);
		EXPECT_EQ(0, kbin_view_set(&v, 0)->shared_scratchpad_size);
		free(buf);
	}
}

/* the var named @name of subgraph 0, or NULL */
static const struct nscc_var *var(const struct nscc_model *m, const char *name)
{
	for (uint32_t k = 0; m->num_sgs && k < m->sgs[0].num_vars; k++)
		if (!strcmp(m->sgs[0].vars[k].name, name))
			return &m->sgs[0].vars[k];
	return NULL;
}

TEST(model_var_table)
{
	struct bir_module *m = bt_load("nki_twice.bir.json");
	struct nscc_model *model = nscc_model_new(KBIN_TARGET_TRN2);
	struct nscc_err err = { { 0 } };
	struct bir_opts o = { 0 };
	const struct nscc_var *sb, *x, *y1, *y2;

	ASSERT_NE(NULL, m);
	ASSERT_NE(NULL, model);
	ASSERT_EQ(0, bt_passes(m, &o, &err));
	ASSERT_EQ(0, bir_lower_model(m, model, &err));
	ASSERT_EQ(1, model->num_sgs);
	EXPECT_STREQ("sg00", model->sgs[0].name);
	sb = var(model, "state-buffer");
	x = var(model, "x");
	y1 = var(model, "y1");
	y2 = var(model, "y2");
	ASSERT_NE(NULL, sb);
	ASSERT_NE(NULL, x);
	ASSERT_NE(NULL, y1);
	ASSERT_NE(NULL, y2);
	EXPECT_EQ(KBIN_MR_SB, sb->mr_type);
	EXPECT_EQ(0, sb->var_id);
	EXPECT_EQ(0, sb->has_size);
	EXPECT_EQ(0, sb->alignment);
	EXPECT_EQ(KBIN_MR_INPUT, x->mr_type);
	EXPECT_EQ(KBIN_MR_OUTPUT, y2->mr_type);
	EXPECT_EQ(KBIN_MR_TMP_BUF, y1->mr_type);
	EXPECT_EQ(KBIN_BACKING_BUF_LOCAL, y1->backing_buf);
	EXPECT_EQ(0, y1->offset);
	EXPECT_EQ(1, x->has_size);
	EXPECT_EQ(128 * 256, x->size);
	EXPECT_EQ(64, x->alignment);
	/* the set's dtype and tensor_shape */
	EXPECT_STREQ("float32", x->dtype);
	ASSERT_EQ(2, x->ndims);
	EXPECT_EQ(128, x->shape[0]);
	EXPECT_EQ(64, x->shape[1]);
	EXPECT_EQ(8, model->sgs[0].num_vars);	/* x_staged, x_sb has none */
	/* var_ids dense in set and location order */
	for (uint32_t k = 0; k < model->sgs[0].num_vars; k++)
		EXPECT_EQ(k, model->sgs[0].vars[k].var_id);
	nscc_model_free(model);
	bir_module_free(m);
}

TEST(lower_errors)
{
	struct bir_module *m = bt_load("nki_twice.bir.json");
	struct nscc_model *model = nscc_model_new(KBIN_TARGET_TRN2);
	struct nscc_err err = { { 0 } };

	ASSERT_NE(NULL, m);
	ASSERT_NE(NULL, model);
	EXPECT_EQ(-EINVAL, bir_lower_model(m, model, &err));
	EXPECT_STREQ("lowering: the final module must have one function (has 2): a kernel function was not inlined",
		     err.msg);
	bir_module_free(m);
	m = bt_load("bir_activation.bir.json");
	ASSERT_NE(NULL, m);
	bir_memloc_find(m->fns[0], "x")->type = BIR_MEM_SB;
	EXPECT_EQ(-EINVAL, bir_lower_model(m, model, &err));
	EXPECT_STREQ("lowering: SB memory location 'x' is not allocated", err.msg);
	/* no reservation on trn2: the carve-out the runtime needs is missing */
	bir_memloc_find(m->fns[0], "x")->type = BIR_MEM_INPUT;
	bir_memloc_find(m->fns[0], "x_sb")->allocated = true;
	EXPECT_EQ(-EINVAL, bir_lower_model(m, model, &err));
	EXPECT_STREQ("sg00: field 'runtime_statebuffer_reservation' is required on trn2 (gen 3)",
		     err.msg);
	nscc_model_free(model);
	bir_module_free(m);
}

/*
 * every record carries its set's dtype and tensor_shape; one that does
 * not fit a record (a dtype over 15 characters, a shape over 8
 * dimensions) is refused naming the var, with libnrt's words
 */
TEST(records_carry_dtype_and_shape)
{
	char path[512];
	struct nscc_err err = { { 0 } };
	struct kbin_check_result res;
	const struct kbin_mem_ref_set *set;
	struct kbin_view v;
	struct bir_module *m;
	struct bir_opts o = { 0 };
	static const uint64_t nine[9] = { 1, 1, 1, 1, 1, 1, 1, 2, 128 };
	void *buf = NULL;
	size_t len = 0;

	snprintf(path, sizeof(path), "%s%s", BIR_EXAMPLES, "bir_mlp.bir.json");
	ASSERT_EQ(0, nscc_bir_compile_file(path, &buf, &len, &err)) TH_LOG("%s", err.msg);
	ASSERT_EQ(0, kbin_read(buf, len, &v, &res));
	set = kbin_view_set(&v, 0);
	ASSERT_EQ(5, set->nmem);
	EXPECT_STREQ("", set->mem[0].dtype);	/* the state buffer */
	for (uint32_t k = 1; k < set->nmem; k++) {
		EXPECT_STREQ("float32", set->mem[k].dtype);
		EXPECT_NE(0, set->mem[k].shape[0]);
		EXPECT_NE(0, set->mem[k].shape[1]);
		EXPECT_EQ(0, set->mem[k].shape[2]);
	}
	EXPECT_STREQ("w1", kbin_view_str(&v, set->mem[2].name));
	EXPECT_EQ(64, set->mem[2].shape[0]);
	EXPECT_EQ(96, set->mem[2].shape[1]);
	free(buf);

	m = bt_load("bir_activation.bir.json");
	ASSERT_NE(NULL, m);
	ASSERT_EQ(0, bt_passes(m, &o, &err));
	EXPECT_EQ(0, bir_dtype_set(m, &bir_memloc_find(m->fns[0], "x")->set->dtype,
				  "float32_twenty_chars"));
	EXPECT_EQ(-E2BIG, compile_module(m, &err));
	EXPECT_STREQ("sg00: var 'x' (var_id 1): dtype 'float32_twenty_chars' has 20 characters, only 15 fit"
		     " (libnrt: Device print dtype float32_twenty_chars has 20 characters. Only 15 are supported)",
		     err.msg);
	EXPECT_EQ(0, bir_dtype_set(m, &bir_memloc_find(m->fns[0], "x")->set->dtype, "float32"));
	ASSERT_EQ(0, bir_set_set_shape(bir_memloc_find(m->fns[0], "y")->set, nine, 9));
	EXPECT_EQ(-E2BIG, compile_module(m, &err));
	EXPECT_STREQ("sg00: var 'y' (var_id 2): shape has 9 dimensions, only 8 fit"
		     " (libnrt: Device print only supports shape dimentions of up to 8)",
		     err.msg);
	bir_module_free(m);
}

/* the DMA queue of subgraph 0 named @name, or NULL */
static const struct nscc_dma_queue *queue(const struct nscc_model *m,
					  const char *name)
{
	for (uint32_t k = 0; m->num_sgs && k < m->sgs[0].num_dma_queues; k++)
		if (!strcmp(m->sgs[0].dma_queues[k].name, name))
			return &m->sgs[0].dma_queues[k];
	return NULL;
}

/* bir_activation after the passes, lowered for trn2 into a fresh model */
static int lower_activation(struct bir_module **mp, struct nscc_model **model,
			    struct nscc_err *err)
{
	struct bir_opts o = { 0 };
	int rc;

	*mp = bt_load("bir_activation.bir.json");
	*model = nscc_model_new(KBIN_TARGET_TRN2);
	if (!*mp || !*model)
		return -ENOMEM;
	rc = bt_passes(*mp, &o, err);
	return rc ? rc : bir_lower_model(*mp, *model, err);
}

/*
 * a TensorCopy with a side in DRAM is a DMA: one block of one
 * descriptor on the queue q<ENGINE>IO0 of its engine, the SB side on
 * var 0 at the location's partition and byte, 262144 bytes a partition
 */
TEST(tensor_copy_to_dma)
{
	struct nscc_err err = { { 0 } };
	const struct nscc_dma_queue *q;
	const struct nscc_subgraph *sg;
	const struct kbin_dma_desc *d;
	struct nscc_model *model;
	struct bir_module *m;
	uint64_t sb;

	ASSERT_EQ(0, lower_activation(&m, &model, &err)) TH_LOG("%s", err.msg);
	sg = &model->sgs[0];
	ASSERT_EQ(1, sg->num_dma_queues);
	q = queue(model, "qSPIO0");
	ASSERT_NE(NULL, q);
	EXPECT_EQ(KBIN_DMA_QUEUE_IN, q->type);
	EXPECT_EQ(KBIN_DMA_ENGINE_SP, q->owner);
	EXPECT_EQ(1, q->num_queues);
	ASSERT_EQ(1, q->num_semaphores);
	EXPECT_EQ(0, q->semaphores[0]);
	ASSERT_EQ(2, sg->num_dma_blocks);
	ASSERT_EQ(2, sg->num_dma_descs);
	EXPECT_STREQ("x_load", sg->dma_blocks[0].comment);
	EXPECT_STREQ("x_store", sg->dma_blocks[1].comment);
	EXPECT_EQ(0, sg->dma_blocks[0].id);
	EXPECT_EQ(1, sg->dma_blocks[1].id);
	EXPECT_EQ(0, sg->dma_blocks[1].semaphore);
	sb = bir_memloc_find(m->fns[0], "x_sb")->addr;
	d = &sg->dma_descs[0];
	EXPECT_EQ(KBIN_DMA_OP_COPY, d->op);
	EXPECT_EQ(var(model, "x")->var_id, d->from.var_id);
	EXPECT_EQ(0, d->from.offset);
	EXPECT_EQ(2, d->from.num_dims);
	EXPECT_EQ(128, d->from.sizes[0]);	/* 32 float32 a row */
	EXPECT_EQ(1, d->from.steps[0]);
	EXPECT_EQ(128, d->from.sizes[1]);	/* 128 rows of 128 bytes */
	EXPECT_EQ(128, d->from.steps[1]);
	EXPECT_EQ(0, d->to.var_id);		/* the state buffer */
	EXPECT_EQ(sb, d->to.offset);
	EXPECT_EQ(128, d->to.sizes[0]);
	EXPECT_EQ(128, d->to.sizes[1]);
	EXPECT_EQ(262144, d->to.steps[1]);
	EXPECT_EQ(KBIN_DMA_DTYPE_FLOAT32, d->to.dtype);
	d = &sg->dma_descs[1];
	EXPECT_EQ(0, d->from.var_id);
	EXPECT_EQ(var(model, "x_staged")->var_id, d->to.var_id);
	nscc_model_free(model);
	bir_module_free(m);
}

/*
 * a step inside a row becomes its own dimension of one-element runs; a
 * dtype change is a cast; what no descriptor can say is refused naming
 * the instruction, the operand and the numbers; a descriptor past its
 * variable is refused by the compiler's DMA rules, named by block
 */
TEST(dma_lowering_refusals)
{
	struct nscc_err err = { { 0 } };
	struct nscc_model *model;
	struct bir_module *m;
	struct bir_inst *i;
	uint64_t sbaddr;

	ASSERT_EQ(0, lower_activation(&m, &model, &err)) TH_LOG("%s", err.msg);
	nscc_model_free(model);
	i = bir_inst_find(m->fns[0], "x_load");
	ASSERT_NE(NULL, i);
	/* every other element: runs of 4 bytes, 16 a row, 128 rows */
	i->ins[0].ap[1].step = 2;
	i->ins[0].ap[1].num = 16;
	i->outs[0].ap[1].num = 16;
	EXPECT_EQ(0, bir_dtype_set(m, &i->outs[0].dtype, "float16"));
	model = nscc_model_new(KBIN_TARGET_TRN2);
	ASSERT_EQ(0, bir_lower_model(m, model, &err)) TH_LOG("%s", err.msg);
	EXPECT_EQ(KBIN_DMA_OP_CAST, model->sgs[0].dma_descs[0].op);
	EXPECT_EQ(3, model->sgs[0].dma_descs[0].from.num_dims);
	EXPECT_EQ(4, model->sgs[0].dma_descs[0].from.sizes[0]);
	EXPECT_EQ(16, model->sgs[0].dma_descs[0].from.sizes[1]);
	EXPECT_EQ(8, model->sgs[0].dma_descs[0].from.steps[1]);
	EXPECT_EQ(KBIN_DMA_DTYPE_FLOAT16, model->sgs[0].dma_descs[0].to.dtype);
	EXPECT_EQ(32, model->sgs[0].dma_descs[0].to.sizes[0]);
	nscc_model_free(model);
	EXPECT_EQ(0, bir_dtype_set(m, &i->outs[0].dtype, "float32"));
	i->ins[0].ap[1].step = 1;
	i->ins[0].ap[1].num = 32;
	i->outs[0].ap[1].num = 32;

	i->engine = bir_str(m, "GPSIMD");
	EXPECT_LOWER_REFUSED(m, "lowering: DMA of instruction 'x_load' (TensorCopy, engine GPSIMD): engine 'GPSIMD' owns no DMA queue (pe, act, pool, dve, sp)");
	i->engine = bir_str(m, "SP");

	i->ins[0].ap[0].step = -1;
	EXPECT_LOWER_REFUSED(m, "lowering: DMA of instruction 'x_load' (TensorCopy, engine SP): ins[0] 'x': access pattern pair 0 [-1, 128]: step and num must be positive");
	i->ins[0].ap[0].step = 1;

	i->ins[0].ap[1].num = (int64_t)1 << 40;
	EXPECT_LOWER_REFUSED(m, "lowering: DMA of instruction 'x_load' (TensorCopy, engine SP): ins[0] 'x': access pattern pair 1 [1, 1099511627776]: too large for a DMA dimension");
	i->ins[0].ap[1].num = 32;

	/* an SB location near 2^64 bytes: the sum is refused, not wrapped */
	sbaddr = bir_memloc_find(m->fns[0], "x_sb")->addr;
	bir_memloc_find(m->fns[0], "x_sb")->addr = UINT64_MAX - 10;
	i->outs[0].offset = 100;
	EXPECT_LOWER_REFUSED(m, "lowering: DMA of instruction 'x_load' (TensorCopy, engine SP): outs[0] 'x_sb': offset 100 overflows 64 bits past the location's 18446744073709551605");
	bir_memloc_find(m->fns[0], "x_sb")->addr = sbaddr;
	i->outs[0].offset = 0;

	EXPECT_EQ(0, bir_dtype_set(m, &i->ins[0].dtype, "complex64"));
	EXPECT_LOWER_REFUSED(m, "lowering: DMA of instruction 'x_load' (TensorCopy, engine SP): ins[0] 'x': dtype 'complex64' is not a DMA element type");
	EXPECT_EQ(0, bir_dtype_set(m, &i->ins[0].dtype, "float32"));

	/* one byte past x: offset 1 of a 16384-byte variable read whole */
	i->ins[0].offset = 1;
	EXPECT_EQ(-EINVAL, compile_module(m, &err));
	EXPECT_STREQ("sg00: queue 'qSPIO0' block 0 ('x_load'): descriptor 0: from var_id 1 'x': extent 16385 is past its 16384 bytes (access pattern outside its variable)",
		     err.msg);
	bir_module_free(m);
}

/* what a TensorCopy of bir_activation is changed into (copy_refusals) */
enum copy_edit {
	IN_NOWHERE,		/* ins[0] renamed to "nowhere" */
	OUT_NOWHERE,		/* outs[0] renamed to "nowhere" */
	IN_NOWHERE_DYN,		/* and a run-time offset term on outs[0] */
	SECOND_IN,		/* a copy of ins[0] added */
	NO_OUT,			/* outs[0] removed */
};

static int edit_copy(struct bir_module *m, struct bir_inst *i,
		     enum copy_edit e)
{
	struct bir_operand *o;

	switch (e) {
	case IN_NOWHERE:
		return bir_operand_set_name(i, &i->ins[0], "nowhere");
	case OUT_NOWHERE:
		return bir_operand_set_name(i, &i->outs[0], "nowhere");
	case IN_NOWHERE_DYN:
		return bir_operand_set_name(i, &i->ins[0], "nowhere") ||
		       bir_dyn_add(m, &i->outs[0], "r", 4);
	case SECOND_IN:
		o = bir_operand_add(i, false, 0, NULL);
		return o ? bir_operand_copy(m, o, &i->ins[0]) : -ENOMEM;
	case NO_OUT:
		bir_operand_remove(i, true, 0);
		return 0;
	}
	return -EINVAL;
}

/*
 * A TensorCopy whose operand names no memory location of the function
 * is refused by name, whatever the other side is: it used to lower to
 * nothing (no DMA block, no error) when the other side was on chip or
 * undefined too, or when the copy had a run-time offset.  A TensorCopy is
 * one input and one output (the interpreter refuses any other): one with
 * a second input, or without its output, is refused by name.  Either
 * lowered to nothing - no DMA block, no error - and the load of x into
 * SBUF was gone.
 */
TEST(tensor_copy_refusals)
{
	static const struct {
		const char *inst;
		enum copy_edit edit;
		const char *msg;
	} copy_refusals[] = {
		{ "x_load", IN_NOWHERE, "lowering: DMA of instruction 'x_load' (TensorCopy, engine SP): ins[0] 'nowhere': no such memory location in function 'main'" },
		{ "x_store", OUT_NOWHERE, "lowering: DMA of instruction 'x_store' (TensorCopy, engine SP): outs[0] 'nowhere': no such memory location in function 'main'" },
		{ "x_load", IN_NOWHERE_DYN, "lowering: DMA of instruction 'x_load' (TensorCopy, engine SP): ins[0] 'nowhere': no such memory location in function 'main'" },
		{ "x_load", SECOND_IN, "lowering: DMA of instruction 'x_load' (TensorCopy, engine SP): a TensorCopy takes one input and one output, not 2 and 1" },
		{ "x_load", NO_OUT, "lowering: DMA of instruction 'x_load' (TensorCopy, engine SP): a TensorCopy takes one input and one output, not 1 and 0" },
		{ "x_store", SECOND_IN, "lowering: DMA of instruction 'x_store' (TensorCopy, engine SP): a TensorCopy takes one input and one output, not 2 and 1" },
	};

	for (size_t k = 0; k < sizeof(copy_refusals) / sizeof(copy_refusals[0]); k++) {
		struct nscc_err err = { { 0 } };
		struct nscc_model *model;
		struct bir_module *m;
		struct bir_inst *i;

		ASSERT_EQ(0, lower_activation(&m, &model, &err)) TH_LOG("%s", err.msg);
		nscc_model_free(model);
		i = bir_inst_find(m->fns[0], copy_refusals[k].inst);
		ASSERT_NE(NULL, i);
		ASSERT_EQ(0, edit_copy(m, i, copy_refusals[k].edit));
		EXPECT_LOWER_REFUSED(m, copy_refusals[k].msg);
		bir_module_free(m);
	}
}

/* the plans are byte for byte the golden ones (BIR_UPDATE_GOLDEN=1 rewrites) */
TEST(plans_match_golden)
{
	for (size_t k = 0; k < sizeof(examples) / sizeof(examples[0]); k++) {
		char path[512], gold[512];
		struct nscc_err err = { { 0 } };
		void *buf = NULL, *want = NULL;
		size_t len = 0, wlen = 0;

		snprintf(path, sizeof(path), "%s%s", BIR_EXAMPLES, examples[k]);
		snprintf(gold, sizeof(gold), "%s%.*s.kbin", BIR_GOLDEN,
			 (int)(strlen(examples[k]) - strlen(".bir.json")),
			 examples[k]);
		ASSERT_EQ(0, nscc_bir_compile_file(path, &buf, &len, &err))
			TH_LOG("%s: %s", examples[k], err.msg);
		if (getenv("BIR_UPDATE_GOLDEN"))
			nscc_write_file(gold, buf, len);
		ASSERT_EQ(0, nsim_read_file(gold, &want, &wlen))
			TH_LOG("%s: missing", gold);
		EXPECT_EQ(wlen, len);
		EXPECT_EQ(0, memcmp(buf, want, len < wlen ? len : wlen))
			TH_LOG("%s differs from %s", examples[k], gold);
		free(buf);
		free(want);
	}
}

TEST(passes_dump_after)
{
	char path[512], *s = NULL;
	struct nscc_err err = { { 0 } };
	FILE *out = tmpfile();
	size_t n = 0;

	snprintf(path, sizeof(path), "%s%s", BIR_EXAMPLES, "nki_twice.bir.json");
	ASSERT_EQ(0, nscc_bir_passes_file(path, "inline_nki_kernel@41", out,
					  NULL, &err));
	rewind(out);
	ASSERT_LT(0, getdelim(&s, &n, '\0', out));
	EXPECT_EQ(s, strstr(s, "# after inline_nki_kernel (order 41)\n{"));
	EXPECT_NE(NULL, strstr(s, "\"k2\""));	/* not yet inlined */
	free(s);
	fclose(out);
	EXPECT_EQ(-ENOENT, nscc_bir_passes_file(path, "nope", stdout, NULL,
						&err));
	EXPECT_STREQ("--dump-after: no pass named 'nope' (passes: runtime_memory_reservation, sb_allocator, inline_nki_kernel, coalesce_multichannel_cc_ops, address_rotation_psum, inline_bir_kernel, sb_coloring_allocator; NAME@ORDER picks one placement)",
		     err.msg);
}

TEST_HARNESS_MAIN
