// SPDX-License-Identifier: GPL-2.0
/*
 * kbin_testplan.c - valid KBIN plans for the host tests, the fuzzer seed
 * generator and the format documentation.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kbin_testplan.h"
#include "tl_rec.h"

static struct tp_plan plan;
static uint8_t pay_staged[256];
static uint8_t pay_buf[128];
static struct kbin_debug_tensor_md md_buf = { "dbg_w_buf", 3 };
static struct kbin_debug_tensor_md md_tmp = { "dbg_tmp0", 1 };
static const uint32_t list_rows[] = { TP_SB, TP_BUF_NOPAY, TP_TMP };
static const uint32_t list_ptab[] = { TP_STAGED, TP_BUF, TP_BUF_NOPAY };

static struct kbin_rec_in *tp_add(uint32_t sg, uint32_t mr_type,
				  const char *name, uint64_t size,
				  uint64_t alignment, const char *dtype)
{
	struct kbin_rec_in *in = &plan.in[sg][plan.n[sg]];

	memset(in, 0, sizeof(*in));
	in->rec.mr_type = mr_type;
	in->rec.var_id = plan.n[sg];
	in->rec.size = size;
	in->rec.alignment = alignment;
	strncpy(in->rec.dtype, dtype, sizeof(in->rec.dtype) - 1);
	in->name = name;
	plan.n[sg]++;
	return in;
}

static const uint32_t sems_io[] = { 24, 25 };
static const uint32_t sems_dyn[] = { 40 };
static const uint32_t sems_spill[] = { 8 };


static struct kbin_dma_queue_in *tp_queue_in(uint32_t sg, const char *name,
					     uint32_t type, uint32_t owner,
					     const uint32_t *sems, uint32_t n)
{
	struct kbin_dma_queue_in *q = &plan.q[sg][plan.nq[sg]++];

	memset(q, 0, sizeof(*q));
	q->name = name;
	q->fabric_path = "main";
	q->semaphores = sems;
	q->q.num_semaphores = n;
	q->q.type = type;
	q->q.owner = owner;
	q->q.num_queues = n;
	return q;
}

static struct tp_block *tp_block_in(uint32_t sg, uint32_t queue, uint32_t id,
				    uint32_t sem_index, const uint32_t *sems,
				    const char *comment)
{
	struct tp_block *b = &plan.blk[sg][plan.nb[sg]++];

	memset(b, 0, sizeof(*b));
	b->b.queue = queue;
	b->b.id = id;
	b->b.sem_index = sem_index;
	b->b.semaphore = sems[sem_index];
	b->comment = comment;
	return b;
}

static struct kbin_dma_desc *tp_desc_in(struct tp_block *b, uint32_t op)
{
	struct kbin_dma_desc *d = &b->d[b->nd++];

	memset(d, 0, sizeof(*d));
	d->op = (uint8_t)op;
	d->num_tiling_dims = 1;
	return d;
}

/* the DMA program (enum tp_sg0_queue .. TP1_ND); SBUF stride 262144 */
static void tp_add_dma(void)
{
	static const uint32_t s256x4[] = { 256, 4 }, s512x2[] = { 512, 2 };
	static const uint32_t s128[] = { 128 }, s128x4[] = { 128, 4 };
	static const uint32_t s512x4[] = { 512, 4 };
	static const uint64_t in_st[] = { 1, 256 }, sb_st[] = { 1, 262144 };
	static const uint64_t out_st[] = { 1, 512 }, one[] = { 1 };
	static const uint64_t b128_st[] = { 1, 128 };
	struct kbin_dma_queue_in *q;
	struct kbin_dma_desc *d;
	struct tp_block *b;

	tp_queue_in(0, "qSPIO0", KBIN_DMA_QUEUE_IN, KBIN_DMA_ENGINE_SP, sems_io, 2);
	q = tp_queue_in(0, "qPoolDynamic", KBIN_DMA_QUEUE_DYNAMIC,
			KBIN_DMA_ENGINE_POOL, sems_dyn, 1);
	q->q.flags = KBIN_DMA_QF_DYNAMIC;
	q->q.sb_scratch_size = 16384;

	b = tp_block_in(0, TP_Q_IO, 0, 0, sems_io, "I-1-block-0");
	d = tp_desc_in(b, KBIN_DMA_OP_COPY);
	d->from = tl_side(TP_IN, KBIN_DMA_DTYPE_FLOAT32, 0, 2, s256x4, in_st);
	d->to = tl_side(TP_SB, KBIN_DMA_DTYPE_FLOAT32, 0, 2, s256x4, sb_st);
	d = tp_desc_in(b, KBIN_DMA_OP_COPY);
	d->from = tl_side(TP_SB, KBIN_DMA_DTYPE_FLOAT32, 229376 - 512, 2, s512x2, sb_st);
	d->to = tl_side(TP_OUT, KBIN_DMA_DTYPE_FLOAT32, 0, 2, s512x2, out_st);
	b = tp_block_in(0, TP_Q_IO, 1, 1, sems_io, "I-2-block-1");
	d = tp_desc_in(b, KBIN_DMA_OP_COPY);
	d->num_tiling_dims = 0;
	d->from = tl_side(TP_BUF, KBIN_DMA_DTYPE_BFLOAT16, 0, 1, s128, one);
	d->to = tl_side(TP_VSHARED, KBIN_DMA_DTYPE_BFLOAT16, 64, 1, s128, one);
	b = tp_block_in(0, TP_Q_DYN, 0, 0, sems_dyn, NULL);
	d = tp_desc_in(b, KBIN_DMA_OP_CAST);
	d->from = tl_side(TP_BUF_NOPAY, KBIN_DMA_DTYPE_INT8, 0, 2, s128x4, b128_st);
	d->to = tl_side(TP_SB, KBIN_DMA_DTYPE_FLOAT32, 1024, 2, s512x4, sb_st);

	tp_queue_in(1, "qSPSpillReload0", KBIN_DMA_QUEUE_DATA, KBIN_DMA_ENGINE_SP,
		    sems_spill, 1);
	b = tp_block_in(1, 0, 0, 0, sems_spill, "T-1-block-0");
	d = tp_desc_in(b, KBIN_DMA_OP_TRANSPOSE);
	d->num_tiling_dims = 2;
	d->from = tl_side(TP1_BUF, KBIN_DMA_DTYPE_FLOAT32, 0, 2, s256x4, in_st);
	d->to = tl_side(TP1_SB, KBIN_DMA_DTYPE_FLOAT32, 4096, 2, s512x2, sb_st);
	d->transpose_elem_size = 4;
	memcpy(d->transpose_op, "WZXY", 4);
	d->transpose_shape[0] = d->transpose_shape[1] = 1;
	d->transpose_shape[2] = d->transpose_shape[3] = 16;
}

/**
 * tp_inputs() - the writer inputs of the full test plan.
 *
 * Two subgraphs on trn2 (target gen 3): sg 0 has one record of every kind
 * (enum tp_sg0_var) and the trn2 evtaccel carve-out (8 bytes at 229368 in
 * all 128 partitions), sg 1 three records (enum tp_sg1_var); a DMA
 * program of two queues, three blocks and four descriptors in sg 0 (enum
 * tp_sg0_queue ..) and one transpose in sg 1.
 *
 * Return: the inputs (static storage, built on first call).
 */
const struct tp_plan *tp_inputs(void)
{
	struct kbin_rec_in *in;
	size_t i;

	if (plan.n[0])
		return &plan;
	for (i = 0; i < sizeof(pay_staged); i++)
		pay_staged[i] = (uint8_t)(i * 7 + 1);
	for (i = 0; i < sizeof(pay_buf); i++)
		pay_buf[i] = (uint8_t)(0xa0 ^ i);

	plan.name[0] = "sg00";
	plan.local_sp[0] = TP_LOCAL_SP;
	plan.shared_sp[0] = TP_SHARED_SP;
	plan.co[0][0] = (struct kbin_sb_carveout){
		.type = KBIN_CARVEOUT_EVTACCEL, .offset = 229368, .size = 8,
		.start_partition = 0, .num_partitions = 128 };
	plan.nco[0] = 1;
	plan.name[1] = "sg01";
	plan.local_sp[1] = 0;
	plan.shared_sp[1] = 4096;
	plan.co[1][0] = (struct kbin_sb_carveout){
		.type = KBIN_CARVEOUT_EVTACCEL, .offset = 0, .size = 1024,
		.start_partition = 64, .num_partitions = 64 };
	plan.nco[1] = 1;

	tp_add(0, KBIN_MR_SB, "sbuf", 24ULL << 20, 1, "");
	in = tp_add(0, KBIN_MR_BUFFER_STAGED, "w_staged", sizeof(pay_staged), 64,
		    "float32");
	in->rec.shape[0] = 8;
	in->rec.shape[1] = 8;
	in->payload = pay_staged;
	in->payload_len = sizeof(pay_staged);
	in = tp_add(0, KBIN_MR_BUFFER, "w_buf", sizeof(pay_buf), 16384, "bfloat16");
	in->rec.shape[0] = 64;
	in->payload = pay_buf;
	in->payload_len = sizeof(pay_buf);
	in->md = &md_buf;
	tp_add(0, KBIN_MR_BUFFER, "b_nopay", 512, 32, "int8");
	in = tp_add(0, KBIN_MR_TMP_BUF, "tmp0", 4096, 64, "float32");
	in->md = &md_tmp;
	in = tp_add(0, KBIN_MR_INPUT, "input0", 1024, 64, "float32");
	in->rec.shape[0] = 16;
	in->rec.shape[1] = 16;
	tp_add(0, KBIN_MR_OUTPUT, "output0", 1024, 64, "float32");
	in = tp_add(0, KBIN_MR_PTR, "ptr_in", 8, 8, "");
	in->rec.pointer.referenced_var_id = TP_IN;
	in->rec.pointer.io_ref = 1;
	in = tp_add(0, KBIN_MR_VIRTUAL_TMP_BUF, "vlocal", 4096, 4096, "float32");
	in->rec.virt.offset = 8192;
	in->rec.virt.backing_buf = KBIN_BACKING_BUF_LOCAL;
	in = tp_add(0, KBIN_MR_VIRTUAL_TMP_BUF, "vshared", 65536, 4096, "float32");
	in->rec.virt.offset = 0;
	in->rec.virt.backing_buf = KBIN_BACKING_BUF_SHARED;
	in = tp_add(0, KBIN_MR_LIST, "rows", 12, 4, "uint32");
	in->rec.list.length = 3;
	in->list = list_rows;
	in = tp_add(0, KBIN_MR_PTR_TABLE, "dge_table", 24, 8, "uint64");
	in->rec.list.length = 3;
	in->list = list_ptab;
	in = tp_add(0, KBIN_MR_REMOTE, "remote_peer", 128, 64, "float32");
	in->rec.remote.remote_vtpb_rel_sg_id = 1;
	in->rec.remote.remote_var_id = TP1_BUF;

	tp_add(1, KBIN_MR_SB, "sbuf", 24ULL << 20, 1, "");
	tp_add(1, KBIN_MR_BUFFER, "peer_buf", 4096, 64, "float32");
	in = tp_add(1, KBIN_MR_REMOTE, "remote_tmp", 4096, 64, "float32");
	in->rec.remote.remote_vtpb_rel_sg_id = 0;
	in->rec.remote.remote_var_id = TP_TMP;
	tp_add_dma();
	return &plan;
}

#define W(sem, val)	.wait_mode = KBIN_PROG_WAIT_GE, .wait_sem = (sem), .wait_value = (val)
#define U(sem)		.update_mode = KBIN_PROG_UPDATE_INC, .update_sem = (sem)

/* the program of tp_build_prog(), stream by stream (kbin_testplan.h) */
static const struct tp_instr tp_instrs[] = {
	{ 0, KBIN_DMA_ENGINE_PE, { .opcode = 0x01, U(1) }, NULL },
	{ 0, KBIN_DMA_ENGINE_PE, { .opcode = KBIN_PROG_OP_WAIT, W(2, 1) }, NULL },
	{ 0, KBIN_DMA_ENGINE_PE, { .opcode = 0x02 }, NULL },
	{ 0, KBIN_DMA_ENGINE_ACT, { .opcode = 0x21, W(1, 1), U(2) }, NULL },
	{ 0, KBIN_DMA_ENGINE_POOL, { .opcode = KBIN_PROG_OP_TRIGGER }, "qPoolDynamic" },
	{ 0, KBIN_DMA_ENGINE_POOL, { .opcode = KBIN_PROG_OP_WAIT, W(40, 1) }, NULL },
	{ 0, KBIN_DMA_ENGINE_POOL, { .opcode = KBIN_PROG_OP_DMA, .add_sem = 3,
				     .add_value = 16 }, NULL },
	{ 0, KBIN_DMA_ENGINE_DVE, { .opcode = 0x41, W(3, 16), U(4) }, NULL },
	{ 0, KBIN_DMA_ENGINE_SP, { .opcode = KBIN_PROG_OP_TRIGGER }, "qSPIO0" },
	{ 0, KBIN_DMA_ENGINE_SP, { .opcode = KBIN_PROG_OP_TRIGGER }, "qSPIO0" },
	{ 0, KBIN_DMA_ENGINE_SP, { .opcode = KBIN_PROG_OP_WAIT, W(25, 2), U(5) }, NULL },
	{ 1, KBIN_DMA_ENGINE_PE, { .opcode = KBIN_PROG_OP_WAIT, W(8, 1) }, NULL },
	{ 1, KBIN_DMA_ENGINE_SP, { .opcode = KBIN_PROG_OP_TRIGGER }, "qSPSpillReload0" },
};

#undef W
#undef U

/**
 * tp_prog_instrs() - the instructions of tp_build_prog()'s program.
 * @n: out: how many.
 *
 * Return: the table, subgraph by subgraph, engine by engine, in order.
 */
const struct tp_instr *tp_prog_instrs(uint32_t *n)
{
	*n = sizeof(tp_instrs) / sizeof(tp_instrs[0]);
	return tp_instrs;
}

/* each stream of the program, encoded, into @w */
static int tp_add_prog(struct kbin_writer *w)
{
	uint8_t recs[4][KBIN_PROG_RECORD_SIZE];
	uint32_t s, e, i, k, n;
	int err = 0;

	tp_prog_instrs(&n);
	for (s = 0; s < 2 && !err; s++)
		for (e = 1; e <= KBIN_PROG_ENGINES && !err; e++) {
			for (i = k = 0; i < n; i++)
				if (tp_instrs[i].sg == s && tp_instrs[i].engine == e)
					kbin_prog_encode(recs[k++], &tp_instrs[i].s,
							 tp_instrs[i].queue);
			err = kbin_writer_add_prog(w, (int)s, e, recs,
						   (uint64_t)k * KBIN_PROG_RECORD_SIZE);
		}
	return err;
}

static int tp_build_version(uint32_t version, int prog, void **buf, size_t *len)
{
	const struct tp_plan *p = tp_inputs();
	struct kbin_writer *w = kbin_writer_new(TP_TARGET);
	uint32_t s, i;
	int err = 0;

	if (!w)
		return -ENOMEM;
	if (version != KBIN_VERSION)
		err = kbin_writer_set_version(w, version);
	else if (!prog)
		err = kbin_writer_set_version(w, KBIN_VERSION_PROG - 1);
	for (s = 0; s < 2 && !err; s++) {
		int sg = kbin_writer_add_subgraph(w, p->name[s], p->local_sp[s],
						  p->shared_sp[s], p->co[s],
						  p->nco[s]);

		if (sg < 0) {
			err = sg;
			break;
		}
		for (i = 0; i < p->n[s] && !err; i++)
			err = kbin_writer_add_record(w, sg, &p->in[s][i]);
		for (i = 0; version != 1 && i < p->nq[s] && !err; i++) {
			int q = kbin_writer_add_dma_queue(w, sg, &p->q[s][i]);

			err = q < 0 ? q : 0;
		}
		for (i = 0; version != 1 && i < p->nb[s] && !err; i++)
			err = kbin_writer_add_dma_block(w, sg, &p->blk[s][i].b,
							p->blk[s][i].comment,
							p->blk[s][i].d,
							p->blk[s][i].nd);
	}
	if (!err && prog)
		err = tp_add_prog(w);
	if (!err)
		err = kbin_writer_finish(w, buf, len);
	kbin_writer_free(w);
	return err;
}

/**
 * tp_build() - write the full test plan (see tp_inputs()).
 * @buf: out: malloc()'d plan.
 * @len: out: its length in bytes.
 *
 * Return: 0 or the writer's -errno.
 */
int tp_build(void **buf, size_t *len)
{
	return tp_build_version(KBIN_VERSION, 0, buf, len);
}

/**
 * tp_build_prog() - the full test plan with its program (KBIN version 3;
 *	kbin_testplan.h).
 * @buf: out: malloc()'d plan.
 * @len: out: its length in bytes.
 *
 * Return: 0 or the writer's -errno.
 */
int tp_build_prog(void **buf, size_t *len)
{
	return tp_build_version(KBIN_VERSION, 1, buf, len);
}

/**
 * tp_prog() - the program section of a plan written by the writer.
 * @buf: the plan (version 3, with a program section).
 *
 * Return: a writable pointer into @buf.
 */
struct kbin_prog_section *tp_prog(void *buf)
{
	return (struct kbin_prog_section *)((uint8_t *)buf + tp_ext(buf)->prog_off);
}

/**
 * tp_prog_sync() - the decoded entry of instruction @i of @engine's
 *	stream in subgraph @sg.
 * @buf: the plan.
 * @sg: subgraph index.
 * @engine: enum kbin_dma_engine.
 * @i: index in the stream.
 *
 * Return: a writable pointer into @buf.
 */
struct kbin_prog_sync *tp_prog_sync(void *buf, uint32_t sg, uint32_t engine,
				    uint32_t i)
{
	struct kbin_prog_section *ps = tp_prog(buf);
	struct kbin_prog_sync *sync = (void *)(ps->sg + ((struct kbin_header *)buf)->num_subgraphs);

	return sync + ps->sg[sg].engine[engine - 1].first + i;
}

/**
 * tp_prog_rec() - the 64-byte record of instruction @i of @engine's
 *	stream in subgraph @sg.
 * @buf: the plan.
 * @sg: subgraph index.
 * @engine: enum kbin_dma_engine.
 * @i: index in the stream.
 *
 * Return: a writable pointer into @buf.
 */
uint8_t *tp_prog_rec(void *buf, uint32_t sg, uint32_t engine, uint32_t i)
{
	struct kbin_prog_section *ps = tp_prog(buf);
	struct kbin_prog_sync *sync = (void *)(ps->sg + ((struct kbin_header *)buf)->num_subgraphs);
	uint8_t *recs = (uint8_t *)(sync + ps->num_instrs);

	return recs + (uint64_t)(ps->sg[sg].engine[engine - 1].first + i) *
		      KBIN_PROG_RECORD_SIZE;
}

/**
 * tp_build_v1() - the full test plan as version 1 (no DMA section), the
 *	format older tools wrote.
 * @buf: out: malloc()'d plan.
 * @len: out: its length in bytes.
 *
 * Return: 0 or the writer's -errno.
 */
int tp_build_v1(void **buf, size_t *len)
{
	return tp_build_version(KBIN_VERSION_MIN, 0, buf, len);
}

/**
 * tp_build_n() - a one-subgraph plan of @n records for scale tests.
 * @n: records; they cycle through MR_BUFFER, MR_TMP_BUF, MR_INPUT,
 *	MR_OUTPUT and MR_PTR (to the previous record), each uniquely named.
 * @buf: out: malloc()'d plan.
 * @len: out: its length in bytes.
 *
 * Return: 0 or the writer's -errno.
 */
int tp_build_n(uint32_t n, void **buf, size_t *len)
{
	static const uint32_t kinds[] = { KBIN_MR_BUFFER, KBIN_MR_TMP_BUF, KBIN_MR_INPUT,
					  KBIN_MR_OUTPUT, KBIN_MR_PTR };
	struct kbin_writer *w = kbin_writer_new(KBIN_TARGET_TRN1);
	char name[32];
	uint32_t i;
	int sg, err = 0;

	if (!w)
		return -ENOMEM;
	sg = kbin_writer_add_subgraph(w, "sg00", 0, 0, NULL, 0);
	if (sg < 0)
		err = sg;
	for (i = 0; i < n && !err; i++) {
		struct tl_rec r = {
			.sg = sg, .id = i, .type = i ? kinds[i % 5] : KBIN_MR_BUFFER,
			.name = name, .size = 64 + (i % 7) * 64, .align = 64,
			.dtype = "float32",
		};

		r.d0 = r.size / 4;
		if (r.type == KBIN_MR_PTR) {
			r.size = 8;
			r.d0 = 1;
			r.var = i - 1;
		}
		snprintf(name, sizeof(name), "var_%u", i);
		err = tl_add(w, &r);
	}
	if (!err)
		err = kbin_writer_finish(w, buf, len);
	kbin_writer_free(w);
	return err;
}

/**
 * tp_build_small() - the small plan of Documentation/kbin-format.rst: one
 * subgraph "sg00" on trn1 with an MR_BUFFER "w" of 8 bytes carrying a
 * payload, an MR_PTR "p" to it and an MR_OUTPUT "o" of 8 bytes, and a DMA
 * program: queue "q" (in, owned by sp, semaphore set {7}) with one block
 * "b0" of one descriptor copying w's 8 bytes to o.
 * @buf: out: malloc()'d plan.
 * @len: out: its length in bytes.
 *
 * Return: 0 or the writer's -errno.
 */
int tp_build_small(void **buf, size_t *len)
{
	static const uint8_t w8[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	static const uint32_t sem7[] = { 7 };
	struct kbin_writer *w = kbin_writer_new(KBIN_TARGET_TRN1);
	struct kbin_dma_queue_in q = {
		.q = { .num_semaphores = 1, .type = KBIN_DMA_QUEUE_IN,
		       .owner = KBIN_DMA_ENGINE_SP, .num_queues = 1 },
		.name = "q", .semaphores = sem7,
	};
	struct kbin_dma_block b = { .semaphore = 7 };
	struct kbin_dma_desc d = { .op = KBIN_DMA_OP_COPY };
	int sg, err;

	if (!w)
		return -ENOMEM;
	sg = kbin_writer_add_subgraph(w, "sg00", 0, 0, NULL, 0);
	err = sg < 0 ? sg : TL_ADD(w, .sg = sg, .id = 0, .type = KBIN_MR_BUFFER,
				   .name = "w", .size = sizeof(w8), .align = 64,
				   .dtype = "uint8", .d0 = 8, .payload = w8);
	if (!err)
		err = TL_ADD(w, .sg = sg, .id = 1, .type = KBIN_MR_PTR, .name = "p",
			     .size = 8, .align = 8, .var = 0);
	if (!err)
		err = TL_ADD(w, .sg = sg, .id = 2, .type = KBIN_MR_OUTPUT, .name = "o",
			     .size = 8, .align = 64, .dtype = "uint8", .d0 = 8);
	d.from = tl_side(0, KBIN_DMA_DTYPE_UINT8, 0, 1, (const uint32_t[]){ 8 },
			 (const uint64_t[]){ 1 });
	d.to = d.from;
	d.to.var_id = 2;
	if (!err)
		err = kbin_writer_add_dma_queue(w, sg, &q);
	if (!err)
		err = kbin_writer_add_dma_block(w, sg, &b, "b0", &d, 1);
	if (!err)
		err = kbin_writer_finish(w, buf, len);
	kbin_writer_free(w);
	return err;
}

/**
 * tp_sg() - subgraph table entry @sg of a plan written by the writer.
 * @buf: the plan.
 * @sg: index.
 *
 * Return: a writable pointer into @buf.
 */
struct kbin_subgraph *tp_sg(void *buf, uint32_t sg)
{
	struct kbin_header *h = buf;

	return (struct kbin_subgraph *)((uint8_t *)buf + h->subgraph_table_off) + sg;
}

/**
 * tp_set() - the mem_ref set of subgraph @sg.
 * @buf: the plan.
 * @sg: index.
 *
 * Return: a writable pointer into @buf.
 */
struct kbin_mem_ref_set *tp_set(void *buf, uint32_t sg)
{
	return (struct kbin_mem_ref_set *)((uint8_t *)buf + tp_sg(buf, sg)->set_off);
}

/**
 * tp_rec() - record @i of subgraph @sg.
 * @buf: the plan.
 * @sg: subgraph index.
 * @i: record index.
 *
 * Return: a writable pointer into @buf.
 */
struct kbin_mem_ref *tp_rec(void *buf, uint32_t sg, uint32_t i)
{
	return &tp_set(buf, sg)->mem[i];
}

/**
 * tp_ext() - the version 2 header fields of a plan.
 * @buf: the plan.
 *
 * Return: a writable pointer into @buf.
 */
struct kbin_header_ext *tp_ext(void *buf)
{
	return (struct kbin_header_ext *)((struct kbin_header *)buf + 1);
}

/**
 * tp_dma() - the DMA section of a plan written by the writer.
 * @buf: the plan (with a DMA section).
 *
 * Return: a writable pointer into @buf.
 */
struct kbin_dma_section *tp_dma(void *buf)
{
	return (struct kbin_dma_section *)((uint8_t *)buf + tp_ext(buf)->dma_off);
}

/**
 * tp_queue() - DMA queue @k of subgraph @sg.
 * @buf: the plan.
 * @sg: subgraph index.
 * @k: queue index within the subgraph.
 *
 * Return: a writable pointer into @buf.
 */
struct kbin_dma_queue *tp_queue(void *buf, uint32_t sg, uint32_t k)
{
	struct kbin_dma_section *d = tp_dma(buf);
	struct kbin_dma_queue *q = (void *)(d->sg + ((struct kbin_header *)buf)->num_subgraphs);

	return q + d->sg[sg].first_queue + k;
}

/**
 * tp_block() - DMA block @j of subgraph @sg (blocks in queue order).
 * @buf: the plan.
 * @sg: subgraph index.
 * @j: block index within the subgraph.
 *
 * Return: a writable pointer into @buf.
 */
struct kbin_dma_block *tp_block(void *buf, uint32_t sg, uint32_t j)
{
	struct kbin_dma_section *d = tp_dma(buf);
	struct kbin_dma_block *b = (void *)(tp_queue(buf, 0, 0) + d->num_queues);

	return b + d->sg[sg].first_block + j;
}

/**
 * tp_desc() - descriptor @i of subgraph @sg.
 * @buf: the plan.
 * @sg: subgraph index.
 * @i: descriptor index within the subgraph.
 *
 * Return: a writable pointer into @buf.
 */
struct kbin_dma_desc *tp_desc(void *buf, uint32_t sg, uint32_t i)
{
	struct kbin_dma_section *d = tp_dma(buf);
	struct kbin_dma_desc *x = (void *)(tp_block(buf, 0, 0) + d->num_blocks);

	return x + d->sg[sg].first_desc + i;
}
