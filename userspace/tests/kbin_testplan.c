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

/**
 * tp_inputs() - the writer inputs of the full test plan.
 *
 * Two subgraphs on trn2 (target gen 3): sg 0 has one record of every kind
 * (enum tp_sg0_var) and the trn2 evtaccel carve-out (8 bytes at 229368 in
 * all 128 partitions), sg 1 three records (enum tp_sg1_var).
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
	return &plan;
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
	const struct tp_plan *p = tp_inputs();
	struct kbin_writer *w = kbin_writer_new(TP_TARGET);
	uint32_t s, i;
	int err = 0;

	if (!w)
		return -ENOMEM;
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
	}
	if (!err)
		err = kbin_writer_finish(w, buf, len);
	kbin_writer_free(w);
	return err;
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
	struct kbin_rec_in in;
	char name[32];
	uint32_t i;
	int sg, err = 0;

	if (!w)
		return -ENOMEM;
	sg = kbin_writer_add_subgraph(w, "sg00", 0, 0, NULL, 0);
	if (sg < 0)
		err = sg;
	for (i = 0; i < n && !err; i++) {
		memset(&in, 0, sizeof(in));
		in.rec.mr_type = kinds[i % 5];
		if (i == 0)
			in.rec.mr_type = KBIN_MR_BUFFER;
		in.rec.var_id = i;
		in.rec.size = 64 + (i % 7) * 64;
		in.rec.alignment = 64;
		memcpy(in.rec.dtype, "float32", 7);
		in.rec.shape[0] = in.rec.size / 4;
		if (in.rec.mr_type == KBIN_MR_PTR) {
			in.rec.size = 8;
			in.rec.shape[0] = 1;
			in.rec.pointer.referenced_var_id = i - 1;
		}
		snprintf(name, sizeof(name), "var_%u", i);
		in.name = name;
		err = kbin_writer_add_record(w, sg, &in);
	}
	if (!err)
		err = kbin_writer_finish(w, buf, len);
	kbin_writer_free(w);
	return err;
}

/**
 * tp_build_small() - the small plan of Documentation/kbin-format.rst: one
 * subgraph "sg00" on trn1 with an MR_BUFFER "w" of 8 bytes carrying a
 * payload and an MR_PTR "p" to it.
 * @buf: out: malloc()'d plan.
 * @len: out: its length in bytes.
 *
 * Return: 0 or the writer's -errno.
 */
int tp_build_small(void **buf, size_t *len)
{
	static const uint8_t w8[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	struct kbin_writer *w = kbin_writer_new(KBIN_TARGET_TRN1);
	struct kbin_rec_in in;
	int sg, err;

	if (!w)
		return -ENOMEM;
	sg = kbin_writer_add_subgraph(w, "sg00", 0, 0, NULL, 0);
	memset(&in, 0, sizeof(in));
	in.rec.mr_type = KBIN_MR_BUFFER;
	in.rec.var_id = 0;
	in.rec.size = 8;
	in.rec.alignment = 64;
	memcpy(in.rec.dtype, "uint8", 5);
	in.rec.shape[0] = 8;
	in.name = "w";
	in.payload = w8;
	in.payload_len = sizeof(w8);
	err = sg < 0 ? sg : kbin_writer_add_record(w, sg, &in);
	memset(&in, 0, sizeof(in));
	in.rec.mr_type = KBIN_MR_PTR;
	in.rec.var_id = 1;
	in.rec.size = 8;
	in.rec.alignment = 8;
	in.rec.pointer.referenced_var_id = 0;
	in.name = "p";
	if (!err)
		err = kbin_writer_add_record(w, sg, &in);
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
