// SPDX-License-Identifier: GPL-2.0
/*
 * kbin_check_test.c - host tests of the KBIN plan checker, writer and
 * reader.
 *
 * Every test starts from the valid full test plan (kbin_testplan.c: two
 * subgraphs, one record of every kind), breaks exactly one field, fixes the
 * checksum (except where the checksum is the point), and expects exactly
 * one reason code, subgraph, record and field from kbin_check_plan().
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "kbin_check.h"
#include "kbin_reader.h"
#include "kbin_gen.h"
#include "kbin_testplan.h"
#include "nsim_file.h"
#include "tl_rec.h"

FIXTURE(plan) {
	void *buf;
	size_t len;
	struct kbin_header *h;
	struct kbin_check_result res;
};

FIXTURE_SETUP(plan)
{
	ASSERT_EQ(0, tp_build(&self->buf, &self->len));
	self->h = self->buf;
	ASSERT_EQ(KBIN_OK, kbin_check_plan(self->buf, self->len, &self->res))
		TH_LOG("test plan invalid: %s", self->res.err.msg);
}

FIXTURE_TEARDOWN(plan)
{
	free(self->buf);
}

#define P8(off)		((uint8_t *)self->buf + (off))
#define REC(sg, i)	tp_rec(self->buf, (sg), (i))
#define SG(sg)		tp_sg(self->buf, (sg))
#define SET(sg)		tp_set(self->buf, (sg))

/* Check (after fixing the checksum when @fix) and expect one finding. */
#define EXPECT_FINDING(_fix, _reason, _sg, _rec, _field) do {		\
	if (_fix)								\
		kbin_fix_checksum(self->buf, self->len);			\
	ASSERT_EQ((unsigned int)(_reason),					\
		  kbin_check_plan(self->buf, self->len, &self->res))		\
		TH_LOG("got \"%s\": %s", kbin_reason_str(self->res.err.reason),	\
		       self->res.err.msg);						\
	ASSERT_EQ((unsigned int)(_reason), self->res.err.reason);			\
	ASSERT_EQ((_sg), self->res.err.subgraph) TH_LOG("%s", self->res.err.msg);	\
	ASSERT_EQ((long long)(_rec), self->res.err.record)				\
		TH_LOG("%s", self->res.err.msg);					\
	ASSERT_EQ((unsigned int)(_field), self->res.err.field)			\
		TH_LOG("field %s: %s", kbin_field_str(self->res.err.field),		\
		       self->res.err.msg);						\
	ASSERT_NE(0, (int)strlen(self->res.err.msg));				\
} while (0)

#define REJECT(_reason, _sg, _rec, _field) \
	EXPECT_FINDING(1, _reason, _sg, _rec, _field)

/* Rebuild the valid plan between sub-cases of one rule. */
#define RESET() do {								\
	free(self->buf);							\
	ASSERT_EQ(0, tp_build(&self->buf, &self->len));			\
	self->h = self->buf;							\
} while (0)

/* ---- valid plans ---- */

TEST_F(plan, valid)
{
	EXPECT_EQ(KBIN_OK, self->res.err.reason);
	EXPECT_EQ(-1, self->res.err.subgraph);
	EXPECT_EQ(-1, self->res.err.record);
	EXPECT_STREQ("", self->res.err.msg);
	EXPECT_EQ(KBIN_OK, kbin_check_plan(self->buf, self->len, &self->res));
}

TEST_F(plan, carveout_fits_trn2_not_trn1)
{
	/* 8 bytes at 224 KiB - 8: the last bytes of a trn2 partition */
	self->h->target_gen = KBIN_TARGET_TRN3;
	kbin_fix_checksum(self->buf, self->len);
	ASSERT_EQ(KBIN_OK, kbin_check_plan(self->buf, self->len, &self->res));
	self->h->target_gen = KBIN_TARGET_TRN1;
	REJECT(KBIN_ERR_CARVEOUT, 0, -1, KBIN_FIELD_CARVEOUT);
}

/* ---- file header ---- */

TEST_F(plan, truncated)
{
	ASSERT_EQ(KBIN_ERR_TRUNCATED, kbin_check_plan(self->buf, 63, &self->res));
	ASSERT_EQ(63, self->res.err.value);
	ASSERT_EQ(KBIN_ERR_TRUNCATED, kbin_check_plan(NULL, 0, &self->res));
}

TEST_F(plan, misaligned_buffer)
{
	uint8_t *copy = malloc(self->len + 1);

	ASSERT_NE(NULL, copy);
	memcpy(copy + 1, self->buf, self->len);
	EXPECT_EQ(KBIN_ERR_MISALIGNED, kbin_check_plan(copy + 1, self->len,
						       &self->res));
	free(copy);
}

TEST_F(plan, magic)
{
	self->h->magic ^= 1;
	REJECT(KBIN_ERR_MAGIC, -1, -1, KBIN_FIELD_MAGIC);
}

TEST_F(plan, version)
{
	ASSERT_EQ(2U, self->h->version);
	self->h->version = KBIN_VERSION + 1;
	REJECT(KBIN_ERR_VERSION, -1, -1, KBIN_FIELD_VERSION);
	self->h->version = 0;
	REJECT(KBIN_ERR_VERSION, -1, -1, KBIN_FIELD_VERSION);
}

TEST_F(plan, header_size)
{
	self->h->header_size = 72;
	REJECT(KBIN_ERR_HEADER_SIZE, -1, -1, KBIN_FIELD_HEADER_SIZE);
	/* version 2 has the 96-byte header, version 1 the 64-byte one */
	self->h->header_size = 64;
	REJECT(KBIN_ERR_HEADER_SIZE, -1, -1, KBIN_FIELD_HEADER_SIZE);
	self->h->header_size = 96;
	self->h->version = 1;
	REJECT(KBIN_ERR_HEADER_SIZE, -1, -1, KBIN_FIELD_HEADER_SIZE);
}

/* plans of version 1 (64-byte header, no DMA section) still check */
TEST(version_1_plan_accepted)
{
	struct kbin_check_result res;
	struct kbin_dma_sg_view dv;
	struct kbin_view v;
	void *buf;
	size_t len;

	ASSERT_EQ(0, tp_build_v1(&buf, &len));
	EXPECT_EQ(1U, ((struct kbin_header *)buf)->version);
	EXPECT_EQ(64U, ((struct kbin_header *)buf)->header_size);
	ASSERT_EQ(KBIN_OK, kbin_check_plan(buf, len, &res)) TH_LOG("%s", res.err.msg);
	EXPECT_EQ(0ULL, res.dma_descs);
	ASSERT_EQ(0, kbin_read(buf, len, &v, &res));
	EXPECT_EQ(NULL, v.dma);
	ASSERT_EQ(0, kbin_view_dma_sg(&v, 1, &dv));
	EXPECT_EQ(0U, dv.num_queues);
	EXPECT_EQ(TP_SG0_NMEM, kbin_view_set(&v, 0)->nmem);
	EXPECT_STREQ("sbuf", kbin_view_str(&v, kbin_view_set(&v, 0)->mem[0].name));
	/* a version 1 plan is 32 bytes shorter than it would be as 2 */
	((struct kbin_header *)buf)->header_size = 96;
	kbin_fix_checksum(buf, len);
	EXPECT_EQ(KBIN_ERR_HEADER_SIZE, kbin_check_plan(buf, len, &res));
	free(buf);
}

TEST_F(plan, total_size)
{
	self->h->total_size += 8;
	REJECT(KBIN_ERR_TOTAL_SIZE, -1, -1, KBIN_FIELD_TOTAL_SIZE);
	RESET();
	/* a buffer shorter than total_size */
	self->len -= 8;
	REJECT(KBIN_ERR_TOTAL_SIZE, -1, -1, KBIN_FIELD_TOTAL_SIZE);
}

TEST_F(plan, flags)
{
	self->h->flags = 1ULL << 63;
	REJECT(KBIN_ERR_FLAGS, -1, -1, KBIN_FIELD_FLAGS);
	ASSERT_EQ(1ULL << 63, self->res.err.value);
}

TEST_F(plan, target_gen)
{
	self->h->target_gen = 1;
	REJECT(KBIN_ERR_TARGET, -1, -1, KBIN_FIELD_TARGET_GEN);
	self->h->target_gen = 5;
	REJECT(KBIN_ERR_TARGET, -1, -1, KBIN_FIELD_TARGET_GEN);
}

TEST_F(plan, checksum)
{
	*P8(self->len - 1) ^= 0x40;
	EXPECT_FINDING(0, KBIN_ERR_CHECKSUM, -1, -1, KBIN_FIELD_CHECKSUM);
	RESET();
	self->h->checksum ^= 1;
	EXPECT_FINDING(0, KBIN_ERR_CHECKSUM, -1, -1, KBIN_FIELD_CHECKSUM);
}

TEST_F(plan, num_subgraphs)
{
	self->h->num_subgraphs = 0;
	REJECT(KBIN_ERR_NUM_SUBGRAPHS, -1, -1, KBIN_FIELD_NUM_SUBGRAPHS);
	self->h->num_subgraphs = KBIN_MAX_SUBGRAPHS + 1;
	REJECT(KBIN_ERR_NUM_SUBGRAPHS, -1, -1, KBIN_FIELD_NUM_SUBGRAPHS);
}

TEST_F(plan, data_area_bounds)
{
	self->h->data_size += 1;
	REJECT(KBIN_ERR_BOUNDS, -1, -1, KBIN_FIELD_DATA_AREA);
	RESET();
	/* data_off + data_size wraps around to total_size */
	self->h->data_off += 1ULL << 63;
	self->h->data_size += 1ULL << 63;
	REJECT(KBIN_ERR_BOUNDS, -1, -1, KBIN_FIELD_DATA_AREA);
}

TEST_F(plan, data_area_overlaps_header)
{
	self->h->data_size += self->h->data_off - 8;
	self->h->data_off = 8;
	REJECT(KBIN_ERR_OVERLAP, -1, -1, KBIN_FIELD_DATA_AREA);
}

TEST_F(plan, data_area_misaligned)
{
	self->h->data_off += 4;
	self->h->data_size -= 4;
	REJECT(KBIN_ERR_MISALIGNED, -1, -1, KBIN_FIELD_DATA_AREA);
}

TEST_F(plan, subgraph_table_misaligned)
{
	self->h->subgraph_table_off += 4;
	REJECT(KBIN_ERR_MISALIGNED, -1, -1, KBIN_FIELD_SUBGRAPH_TABLE);
}

TEST_F(plan, subgraph_table_overlaps_header)
{
	self->h->subgraph_table_off = 0;
	REJECT(KBIN_ERR_OVERLAP, -1, -1, KBIN_FIELD_SUBGRAPH_TABLE);
}

TEST_F(plan, subgraph_table_bounds)
{
	self->h->subgraph_table_off = self->h->data_off - 8;
	REJECT(KBIN_ERR_BOUNDS, -1, -1, KBIN_FIELD_SUBGRAPH_TABLE);
	self->h->subgraph_table_off = ~7ULL;
	REJECT(KBIN_ERR_BOUNDS, -1, -1, KBIN_FIELD_SUBGRAPH_TABLE);
}

/* ---- subgraph table entries ---- */

TEST_F(plan, sg_name_unterminated)
{
	memset(SG(1)->name, 'a', sizeof(SG(1)->name));
	REJECT(KBIN_ERR_SG_NAME, 1, -1, KBIN_FIELD_SG_NAME);
}

TEST_F(plan, sg_name_empty)
{
	memset(SG(0)->name, 0, sizeof(SG(0)->name));
	REJECT(KBIN_ERR_SG_NAME, 0, -1, KBIN_FIELD_SG_NAME);
}

TEST_F(plan, sg_name_trailing_bytes)
{
	SG(0)->name[20] = 'x';
	REJECT(KBIN_ERR_RESERVED, 0, -1, KBIN_FIELD_SG_NAME);
}

/* control characters would forge rows of the debugfs tables */
TEST_F(plan, sg_name_control_char)
{
	SG(1)->name[1] = '\n';
	REJECT(KBIN_ERR_SG_NAME, 1, -1, KBIN_FIELD_SG_NAME);
	EXPECT_EQ((__u64)'\n', self->res.err.value);
	EXPECT_STREQ("sg 1: subgraph name has control character 0xa at byte 1",
		     self->res.err.msg);
}

TEST_F(plan, sg_reserved)
{
	SG(1)->reserved = 1;
	REJECT(KBIN_ERR_RESERVED, 1, -1, KBIN_FIELD_PAD);
}

TEST_F(plan, carveout_too_many)
{
	SG(0)->num_carveouts = KBIN_MAX_CARVEOUTS + 1;
	REJECT(KBIN_ERR_CARVEOUT, 0, -1, KBIN_FIELD_CARVEOUT);
}

TEST_F(plan, carveout_type)
{
	SG(0)->carveouts[0].type = 2;
	REJECT(KBIN_ERR_CARVEOUT, 0, -1, KBIN_FIELD_CARVEOUT);
}

TEST_F(plan, carveout_outside_partition)
{
	SG(0)->carveouts[0].offset = 224 * 1024 - 4;
	REJECT(KBIN_ERR_CARVEOUT, 0, -1, KBIN_FIELD_CARVEOUT);
	RESET();
	SG(0)->carveouts[0].size = 0;
	REJECT(KBIN_ERR_CARVEOUT, 0, -1, KBIN_FIELD_CARVEOUT);
	RESET();
	SG(0)->carveouts[0].offset = 0xffffffffU;
	REJECT(KBIN_ERR_CARVEOUT, 0, -1, KBIN_FIELD_CARVEOUT);
}

TEST_F(plan, carveout_partitions)
{
	SG(1)->carveouts[0].start_partition = 65;
	REJECT(KBIN_ERR_CARVEOUT, 1, -1, KBIN_FIELD_CARVEOUT);
	RESET();
	SG(1)->carveouts[0].num_partitions = 0;
	REJECT(KBIN_ERR_CARVEOUT, 1, -1, KBIN_FIELD_CARVEOUT);
}

TEST_F(plan, carveout_reserved)
{
	SG(0)->carveouts[0].reserved = 1;
	REJECT(KBIN_ERR_RESERVED, 0, -1, KBIN_FIELD_CARVEOUT);
	RESET();
	SG(0)->carveouts[3].size = 8;	/* an unused slot */
	REJECT(KBIN_ERR_RESERVED, 0, -1, KBIN_FIELD_CARVEOUT);
}

TEST_F(plan, set_misaligned)
{
	SG(1)->set_off += 4;
	REJECT(KBIN_ERR_MISALIGNED, 1, -1, KBIN_FIELD_SET);
}

TEST_F(plan, set_bounds)
{
	SG(1)->set_off = self->h->data_off - 8;
	REJECT(KBIN_ERR_BOUNDS, 1, -1, KBIN_FIELD_SET);
	SG(1)->set_off = ~7ULL;
	REJECT(KBIN_ERR_BOUNDS, 1, -1, KBIN_FIELD_SET);
}

TEST_F(plan, set_overlaps_set)
{
	SG(1)->set_off = SG(0)->set_off;
	REJECT(KBIN_ERR_OVERLAP, 1, -1, KBIN_FIELD_SET);
}

TEST_F(plan, set_overlaps_table)
{
	/* the writer puts the table right after the last set (sg 1's) */
	ASSERT_EQ(self->h->subgraph_table_off, SG(1)->set_off + SG(1)->set_size);
	SG(1)->set_off += 8;
	REJECT(KBIN_ERR_OVERLAP, 1, -1, KBIN_FIELD_SET);
	RESET();
	SG(0)->set_off = 0;
	REJECT(KBIN_ERR_OVERLAP, 0, -1, KBIN_FIELD_SET);
}

TEST_F(plan, set_size)
{
	SG(0)->set_size -= sizeof(struct kbin_mem_ref);
	REJECT(KBIN_ERR_SET_SIZE, 0, -1, KBIN_FIELD_NMEM);
	RESET();
	SET(1)->nmem += 1;
	REJECT(KBIN_ERR_SET_SIZE, 1, -1, KBIN_FIELD_NMEM);
	RESET();
	SG(0)->set_size = 16;
	REJECT(KBIN_ERR_SET_SIZE, 0, -1, KBIN_FIELD_SET);
}

TEST_F(plan, set_pad)
{
	SET(0)->pad = 1;
	REJECT(KBIN_ERR_RESERVED, 0, -1, KBIN_FIELD_PAD);
}

/* ---- records on their own ---- */

TEST_F(plan, mr_type)
{
	REC(0, TP_OUT)->mr_type = KBIN_MR_INVALID;
	REJECT(KBIN_ERR_MR_TYPE, 0, TP_OUT, KBIN_FIELD_MR_TYPE);
	REC(0, TP_OUT)->mr_type = KBIN_MR_TYPE_MAX + 1;
	REJECT(KBIN_ERR_MR_TYPE, 0, TP_OUT, KBIN_FIELD_MR_TYPE);
	ASSERT_EQ(13, self->res.err.value);
}

TEST_F(plan, record_pad0)
{
	REC(1, TP1_BUF)->pad0 = 0x100;
	REJECT(KBIN_ERR_RESERVED, 1, TP1_BUF, KBIN_FIELD_PAD);
}

TEST_F(plan, record_pad1)
{
	REC(0, TP_IN)->pad1 = 1;
	REJECT(KBIN_ERR_RESERVED, 0, TP_IN, KBIN_FIELD_PAD);
}

TEST_F(plan, var_id_duplicate)
{
	REC(0, TP_TMP)->var_id = TP_BUF;
	REJECT(KBIN_ERR_VAR_ID_DUP, 0, TP_TMP, KBIN_FIELD_VAR_ID);
	ASSERT_EQ(TP_BUF, self->res.err.value);
}

TEST_F(plan, var_id_order)
{
	REC(0, TP_TMP)->var_id = 1000;
	REJECT(KBIN_ERR_VAR_ID_ORDER, 0, TP_TMP, KBIN_FIELD_VAR_ID);
}

TEST_F(plan, name_missing)
{
	REC(0, TP_IN)->name = 0;
	REJECT(KBIN_ERR_NAME, 0, TP_IN, KBIN_FIELD_NAME);
}

TEST_F(plan, name_empty)
{
	*P8(REC(0, TP_IN)->name) = '\0';
	REJECT(KBIN_ERR_NAME, 0, TP_IN, KBIN_FIELD_NAME);
}

TEST_F(plan, name_control_char)
{
	uint8_t *n = P8(REC(0, TP_IN)->name);

	ASSERT_NE(0, n[0]);
	n[0] = '\t';
	REJECT(KBIN_ERR_NAME, 0, TP_IN, KBIN_FIELD_NAME);
	EXPECT_EQ((__u64)'\t', self->res.err.value);
	RESET();
	n = P8(REC(0, TP_IN)->name);
	n[0] = 0x7f;	/* DEL */
	REJECT(KBIN_ERR_NAME, 0, TP_IN, KBIN_FIELD_NAME);
	RESET();
	n = P8(REC(0, TP_IN)->name);
	n[0] = 0xc3;	/* bytes >= 0x80 (UTF-8) are allowed */
	kbin_fix_checksum(self->buf, self->len);
	EXPECT_EQ(KBIN_OK, kbin_check_plan(self->buf, self->len, &self->res))
		TH_LOG("%s", self->res.err.msg);
}

TEST_F(plan, name_unterminated)
{
	/* the last byte of the plan is payload, not NUL */
	ASSERT_NE(0, *P8(self->len - 1));
	REC(0, TP_IN)->name = self->len - 1;
	REJECT(KBIN_ERR_NAME, 0, TP_IN, KBIN_FIELD_NAME);
}

TEST_F(plan, name_too_long)
{
	struct kbin_mem_ref *st = REC(0, TP_STAGED);

	/* 256 non-NUL payload bytes, then a payload header */
	memset(P8(st->buffer), 'x', st->size);
	REC(0, TP_BUF_NOPAY)->name = st->buffer;
	REJECT(KBIN_ERR_NAME, 0, TP_BUF_NOPAY, KBIN_FIELD_NAME);
}

TEST_F(plan, name_bounds)
{
	REC(0, TP_IN)->name = 8;
	REJECT(KBIN_ERR_BOUNDS, 0, TP_IN, KBIN_FIELD_NAME);
	REC(0, TP_IN)->name = self->len;
	REJECT(KBIN_ERR_BOUNDS, 0, TP_IN, KBIN_FIELD_NAME);
}

TEST_F(plan, size_required)
{
	static const uint32_t need[] = { TP_SB, TP_STAGED, TP_BUF, TP_BUF_NOPAY,
					 TP_TMP, TP_IN, TP_OUT, TP_VLOCAL };
	size_t k;

	for (k = 0; k < sizeof(need) / sizeof(need[0]); k++) {
		RESET();
		REC(0, need[k])->size = 0;
		REJECT(KBIN_ERR_SIZE, 0, need[k], KBIN_FIELD_SIZE);
	}
}

TEST_F(plan, size_sb_window)
{
	REC(1, TP1_SB)->size = (32ULL << 20) + 1;	/* the 32 MiB SBUF window */
	REJECT(KBIN_ERR_SIZE, 1, TP1_SB, KBIN_FIELD_SIZE);
}

TEST_F(plan, alignment)
{
	REC(0, TP_TMP)->alignment = 0;
	REJECT(KBIN_ERR_ALIGNMENT, 0, TP_TMP, KBIN_FIELD_ALIGNMENT);
	REC(0, TP_TMP)->alignment = 3;
	REJECT(KBIN_ERR_ALIGNMENT, 0, TP_TMP, KBIN_FIELD_ALIGNMENT);
	ASSERT_STREQ("sg 0 record 4 (var_id 4): alignment 3 is not a power of two in 1..1073741824",
		     self->res.err.msg);
	REC(0, TP_TMP)->alignment = KBIN_MAX_ALIGNMENT * 2;
	REJECT(KBIN_ERR_ALIGNMENT, 0, TP_TMP, KBIN_FIELD_ALIGNMENT);
}

TEST_F(plan, dtype_unterminated)
{
	memset(REC(0, TP_IN)->dtype, 'f', KBIN_DTYPE_MAX);
	REJECT(KBIN_ERR_DTYPE, 0, TP_IN, KBIN_FIELD_DTYPE);
}

TEST_F(plan, dtype_trailing_bytes)
{
	REC(0, TP_IN)->dtype[15] = 'z';
	REJECT(KBIN_ERR_DTYPE, 0, TP_IN, KBIN_FIELD_DTYPE);
}

TEST_F(plan, dtype_control_char)
{
	REC(0, TP_IN)->dtype[0] = 0x1b;	/* ESC */
	REJECT(KBIN_ERR_DTYPE, 0, TP_IN, KBIN_FIELD_DTYPE);
	EXPECT_EQ(0x1bULL, self->res.err.value);
}

TEST_F(plan, shape)
{
	REC(0, TP_IN)->shape[3] = 5;	/* shape[2] is 0 */
	REJECT(KBIN_ERR_SHAPE, 0, TP_IN, KBIN_FIELD_SHAPE);
	ASSERT_EQ(5, self->res.err.value);
}

TEST_F(plan, dtensor_md_prefix)
{
	struct kbin_debug_tensor_md *md =
		(void *)P8(REC(0, TP_BUF)->dtensor_md);

	memset(md->prefix_str, 'p', sizeof(md->prefix_str));
	REJECT(KBIN_ERR_DTENSOR_MD, 0, TP_BUF, KBIN_FIELD_DTENSOR_MD);
}

TEST_F(plan, dtensor_md_bounds)
{
	REC(0, TP_OUT)->dtensor_md = self->len - 512;
	REJECT(KBIN_ERR_BOUNDS, 0, TP_OUT, KBIN_FIELD_DTENSOR_MD);
	REC(0, TP_OUT)->dtensor_md = 64;
	REJECT(KBIN_ERR_BOUNDS, 0, TP_OUT, KBIN_FIELD_DTENSOR_MD);
}

TEST_F(plan, dtensor_md_misaligned)
{
	REC(0, TP_TMP)->dtensor_md += 2;
	REJECT(KBIN_ERR_MISALIGNED, 0, TP_TMP, KBIN_FIELD_DTENSOR_MD);
}

TEST_F(plan, dtensor_md_any_kind)
{
	/* debug metadata is allowed on every kind, e.g. a pointer */
	REC(0, TP_PTR)->dtensor_md = REC(0, TP_BUF)->dtensor_md;
	kbin_fix_checksum(self->buf, self->len);
	ASSERT_EQ(KBIN_OK, kbin_check_plan(self->buf, self->len, &self->res))
		TH_LOG("%s", self->res.err.msg);
}

TEST_F(plan, payload_kind)
{
	REC(0, TP_TMP)->buffer = REC(0, TP_BUF)->buffer;
	REJECT(KBIN_ERR_PAYLOAD_KIND, 0, TP_TMP, KBIN_FIELD_BUFFER);
}

TEST_F(plan, payload_missing)
{
	REC(0, TP_STAGED)->buffer = 0;
	REJECT(KBIN_ERR_PAYLOAD_MISSING, 0, TP_STAGED, KBIN_FIELD_BUFFER);
}

TEST_F(plan, payload_length)
{
	struct kbin_payload_hdr *ph =
		(void *)P8(REC(0, TP_BUF)->buffer - sizeof(*ph));

	ph->length += 1;
	REJECT(KBIN_ERR_PAYLOAD_LENGTH, 0, TP_BUF, KBIN_FIELD_BUFFER);
	RESET();
	REC(0, TP_STAGED)->size = 64;
	REJECT(KBIN_ERR_PAYLOAD_LENGTH, 0, TP_STAGED, KBIN_FIELD_BUFFER);
}

TEST_F(plan, payload_reserved)
{
	struct kbin_payload_hdr *ph =
		(void *)P8(REC(0, TP_BUF)->buffer - sizeof(*ph));

	ph->reserved = 1;
	REJECT(KBIN_ERR_RESERVED, 0, TP_BUF, KBIN_FIELD_BUFFER);
}

TEST_F(plan, payload_misaligned)
{
	REC(0, TP_BUF)->buffer += 8;
	REJECT(KBIN_ERR_MISALIGNED, 0, TP_BUF, KBIN_FIELD_BUFFER);
}

TEST_F(plan, payload_bounds)
{
	struct kbin_mem_ref *r = REC(0, TP_BUF);
	struct kbin_payload_hdr *ph = (void *)P8(r->buffer - sizeof(*ph));

	/* header and size agree but the bytes run past the end */
	r->size = 1ULL << 40;
	ph->length = r->size;
	REJECT(KBIN_ERR_BOUNDS, 0, TP_BUF, KBIN_FIELD_BUFFER);
	RESET();
	r = REC(0, TP_BUF);
	r->size = ~0ULL;
	ph = (void *)P8(r->buffer - sizeof(*ph));
	ph->length = r->size;
	REJECT(KBIN_ERR_BOUNDS, 0, TP_BUF, KBIN_FIELD_BUFFER);
	RESET();
	REC(0, TP_BUF)->buffer = 64;	/* header in the file header */
	REJECT(KBIN_ERR_BOUNDS, 0, TP_BUF, KBIN_FIELD_BUFFER);
}

TEST_F(plan, list_kind)
{
	REC(0, TP_IN)->list.length = 1;
	REJECT(KBIN_ERR_LIST_KIND, 0, TP_IN, KBIN_FIELD_UNION);
	RESET();
	REC(0, TP_SB)->list.list = REC(0, TP_LIST)->list.list;
	REJECT(KBIN_ERR_LIST_KIND, 0, TP_SB, KBIN_FIELD_UNION);
}

TEST_F(plan, union_pad_unused_kind)
{
	REC(0, TP_OUT)->list.pad = 1;
	REJECT(KBIN_ERR_RESERVED, 0, TP_OUT, KBIN_FIELD_UNION);
}

TEST_F(plan, list_length)
{
	REC(0, TP_LIST)->list.length = 0;
	REJECT(KBIN_ERR_LIST_LENGTH, 0, TP_LIST, KBIN_FIELD_UNION);
	REC(0, TP_LIST)->list.length = KBIN_MAX_LIST + 1;
	REJECT(KBIN_ERR_LIST_LENGTH, 0, TP_LIST, KBIN_FIELD_UNION);
}

TEST_F(plan, list_pad)
{
	REC(0, TP_PTAB)->list.pad = 2;
	REJECT(KBIN_ERR_RESERVED, 0, TP_PTAB, KBIN_FIELD_UNION);
}

TEST_F(plan, list_bounds)
{
	REC(0, TP_LIST)->list.list = self->len - 8;	/* 3 entries: 12 bytes */
	REJECT(KBIN_ERR_BOUNDS, 0, TP_LIST, KBIN_FIELD_UNION);
	REC(0, TP_LIST)->list.list = 0;
	REJECT(KBIN_ERR_BOUNDS, 0, TP_LIST, KBIN_FIELD_UNION);
	REC(0, TP_LIST)->list.list = 64;		/* metadata area */
	REJECT(KBIN_ERR_BOUNDS, 0, TP_LIST, KBIN_FIELD_UNION);
}

TEST_F(plan, list_misaligned)
{
	REC(0, TP_PTAB)->list.list += 1;
	REJECT(KBIN_ERR_MISALIGNED, 0, TP_PTAB, KBIN_FIELD_UNION);
}

TEST_F(plan, list_entry_missing)
{
	uint32_t *e = (void *)P8(REC(0, TP_LIST)->list.list);

	e[2] = TP_SG0_NMEM;
	REJECT(KBIN_ERR_LIST_ENTRY, 0, TP_LIST, KBIN_FIELD_UNION);
	ASSERT_EQ(TP_SG0_NMEM, self->res.err.value);
}

TEST_F(plan, ptr_table_entry_without_storage)
{
	uint32_t *e = (void *)P8(REC(0, TP_PTAB)->list.list);

	e[1] = TP_LIST;
	REJECT(KBIN_ERR_LIST_ENTRY, 0, TP_PTAB, KBIN_FIELD_UNION);
	e[1] = TP_PTR;
	REJECT(KBIN_ERR_LIST_ENTRY, 0, TP_PTAB, KBIN_FIELD_UNION);
	e[1] = TP_REMOTE;
	REJECT(KBIN_ERR_LIST_ENTRY, 0, TP_PTAB, KBIN_FIELD_UNION);
}

TEST_F(plan, ptr_self)
{
	REC(0, TP_PTR)->pointer.referenced_var_id = TP_PTR;
	REJECT(KBIN_ERR_PTR_SELF, 0, TP_PTR, KBIN_FIELD_UNION);
}

TEST_F(plan, ptr_target_missing)
{
	REC(0, TP_PTR)->pointer.referenced_var_id = TP_SG0_NMEM;
	REJECT(KBIN_ERR_PTR_TARGET, 0, TP_PTR, KBIN_FIELD_UNION);
}

TEST_F(plan, ptr_target_without_storage)
{
	REC(0, TP_PTR)->pointer.referenced_var_id = TP_PTAB;
	REJECT(KBIN_ERR_PTR_TARGET, 0, TP_PTR, KBIN_FIELD_UNION);
}

TEST_F(plan, ptr_io_ref_and_pad)
{
	REC(0, TP_PTR)->pointer.io_ref = 2;
	REJECT(KBIN_ERR_RESERVED, 0, TP_PTR, KBIN_FIELD_UNION);
	RESET();
	REC(0, TP_PTR)->pointer.pad[10] = 1;
	REJECT(KBIN_ERR_RESERVED, 0, TP_PTR, KBIN_FIELD_UNION);
}

TEST_F(plan, remote_sg)
{
	REC(0, TP_REMOTE)->remote.remote_vtpb_rel_sg_id = 2;
	REJECT(KBIN_ERR_REMOTE_SG, 0, TP_REMOTE, KBIN_FIELD_UNION);
}

TEST_F(plan, remote_var_missing)
{
	REC(0, TP_REMOTE)->remote.remote_var_id = TP1_NMEM;
	REJECT(KBIN_ERR_REMOTE_VAR, 0, TP_REMOTE, KBIN_FIELD_UNION);
}

TEST_F(plan, remote_var_without_storage)
{
	REC(1, TP1_REMOTE)->remote.remote_var_id = TP_LIST;
	REJECT(KBIN_ERR_REMOTE_VAR, 1, TP1_REMOTE, KBIN_FIELD_UNION);
}

TEST_F(plan, remote_chain)
{
	REC(0, TP_REMOTE)->remote.remote_var_id = TP1_REMOTE;
	REJECT(KBIN_ERR_REMOTE_CHAIN, 0, TP_REMOTE, KBIN_FIELD_UNION);
}

TEST_F(plan, remote_size)
{
	REC(1, TP1_REMOTE)->size = 4097;	/* tmp0 has 4096 bytes */
	REJECT(KBIN_ERR_REMOTE_SIZE, 1, TP1_REMOTE, KBIN_FIELD_SIZE);
}

TEST_F(plan, remote_pad)
{
	REC(0, TP_REMOTE)->remote.pad = 1;
	REJECT(KBIN_ERR_RESERVED, 0, TP_REMOTE, KBIN_FIELD_UNION);
}

TEST_F(plan, virt_range_local)
{
	REC(0, TP_VLOCAL)->virt.offset = TP_LOCAL_SP - 4095;
	REJECT(KBIN_ERR_VIRT_RANGE, 0, TP_VLOCAL, KBIN_FIELD_UNION);
	REC(0, TP_VLOCAL)->virt.offset = ~0ULL;	/* offset + size wraps */
	REJECT(KBIN_ERR_VIRT_RANGE, 0, TP_VLOCAL, KBIN_FIELD_UNION);
}

TEST_F(plan, virt_range_shared)
{
	SET(0)->shared_scratchpad_size = 65535;
	REJECT(KBIN_ERR_VIRT_RANGE, 0, TP_VSHARED, KBIN_FIELD_UNION);
	RESET();
	/* the same record fits the shared but not the (1 MiB) local space */
	REC(0, TP_VSHARED)->virt.offset = TP_SHARED_SP - 65536;
	kbin_fix_checksum(self->buf, self->len);
	ASSERT_EQ(KBIN_OK, kbin_check_plan(self->buf, self->len, &self->res));
	REC(0, TP_VSHARED)->virt.backing_buf = KBIN_BACKING_BUF_LOCAL;
	REJECT(KBIN_ERR_VIRT_RANGE, 0, TP_VSHARED, KBIN_FIELD_UNION);
}

/*
 * SHARDED and MAIN arenas have no header size (the loader sizes them by
 * their variables): no bound but 2^64; SHARED stays bound by the
 * header's shared size.
 */
TEST_F(plan, virt_range_sharded_main)
{
	static const unsigned int backing[] = {
		KBIN_BACKING_BUF_SHARDED, KBIN_BACKING_BUF_MAIN,
	};
	unsigned int b;

	for (b = 0; b < 2; b++) {
		RESET();
		REC(0, TP_VSHARED)->virt.backing_buf = backing[b];
		REC(0, TP_VSHARED)->virt.offset = 4 * TP_SHARED_SP;
		kbin_fix_checksum(self->buf, self->len);
		ASSERT_EQ(KBIN_OK, kbin_check_plan(self->buf, self->len, &self->res))
			TH_LOG("backing %u: %s", backing[b], self->res.err.msg);
		REC(0, TP_VSHARED)->virt.offset = ~0ULL - 1;	/* wraps */
		REJECT(KBIN_ERR_VIRT_RANGE, 0, TP_VSHARED, KBIN_FIELD_UNION);
	}
	RESET();
	REC(0, TP_VSHARED)->virt.offset = 4 * TP_SHARED_SP;
	REJECT(KBIN_ERR_VIRT_RANGE, 0, TP_VSHARED, KBIN_FIELD_UNION);
}

TEST_F(plan, backing_buf)
{
	REC(0, TP_VSHARED)->virt.backing_buf = KBIN_BACKING_BUF_MAX + 1;
	REJECT(KBIN_ERR_BACKING_BUF, 0, TP_VSHARED, KBIN_FIELD_UNION);
}

TEST_F(plan, virt_pad)
{
	REC(0, TP_VLOCAL)->virt.pad = 1;
	REJECT(KBIN_ERR_RESERVED, 0, TP_VLOCAL, KBIN_FIELD_UNION);
}

TEST_F(plan, first_problem_wins)
{
	/* two problems: the earlier record is reported */
	REC(0, TP_OUT)->alignment = 6;
	REC(0, TP_IN)->dtype[15] = 'z';
	REJECT(KBIN_ERR_DTYPE, 0, TP_IN, KBIN_FIELD_DTYPE);
}

/* ---- the DMA section (version 2) ---- */

#define EXT()		tp_ext(self->buf)
#define DMA()		tp_dma(self->buf)
#define Q(sg, k)	tp_queue(self->buf, (sg), (k))
#define B(sg, j)	tp_block(self->buf, (sg), (j))
#define D(sg, i)	tp_desc(self->buf, (sg), (i))

/* REJECT() of a DMA finding: no record, the item index given */
#define REJECT_DMA(_reason, _sg, _field, _item) do {				\
	REJECT(_reason, _sg, -1, _field);					\
	ASSERT_EQ((long long)(_item), self->res.item)				\
		TH_LOG("%s", self->res.err.msg);					\
} while (0)

TEST_F(plan, dma_valid_and_counted)
{
	/* M2S: 4 + 2 + 1 + 4 (sg 0) and 4 (sg 1) runs of at most 512 bytes */
	EXPECT_EQ((unsigned long long)(TP_SG0_ND + TP1_ND), self->res.dma_descs);
	EXPECT_EQ(15ULL, self->res.dma_m2s_pieces);
	EXPECT_EQ(13ULL, self->res.dma_s2m_pieces);
	EXPECT_EQ(TP_SG0_NQ + TP1_NQ, DMA()->num_queues);
	EXPECT_EQ(TP_SG0_NB + TP1_NB, DMA()->num_blocks);
	EXPECT_EQ(TP_SG0_ND + TP1_ND, DMA()->num_descs);
	/* the section sits between the subgraph table and the data area */
	EXPECT_EQ(self->h->subgraph_table_off + 2 * sizeof(struct kbin_subgraph),
		  EXT()->dma_off);
	EXPECT_EQ(self->h->data_off, EXT()->dma_off + EXT()->dma_size);
}

TEST_F(plan, dma_header_reserved)
{
	/* a version 2 plan: prog_off and prog_size are reserved */
	EXT()->prog_size = 1;
	REJECT(KBIN_ERR_RESERVED, -1, -1, KBIN_FIELD_PROG_SECTION);
	RESET();
	EXT()->prog_off = 8;
	REJECT(KBIN_ERR_RESERVED, -1, -1, KBIN_FIELD_PROG_SECTION);
	RESET();
	DMA()->reserved = 1;
	REJECT(KBIN_ERR_RESERVED, -1, -1, KBIN_FIELD_DMA_SECTION);
}

TEST_F(plan, dma_area_misaligned)
{
	EXT()->dma_off += 4;
	REJECT(KBIN_ERR_MISALIGNED, -1, -1, KBIN_FIELD_DMA_SECTION);
}

TEST_F(plan, dma_area_bounds)
{
	EXT()->dma_size += 8;	/* into the data area */
	REJECT(KBIN_ERR_BOUNDS, -1, -1, KBIN_FIELD_DMA_SECTION);
	RESET();
	EXT()->dma_off = ~7ULL;
	REJECT(KBIN_ERR_BOUNDS, -1, -1, KBIN_FIELD_DMA_SECTION);
}

TEST_F(plan, dma_area_overlaps)
{
	EXT()->dma_off = 64;	/* the header extension itself */
	REJECT(KBIN_ERR_OVERLAP, -1, -1, KBIN_FIELD_DMA_SECTION);
	RESET();
	EXT()->dma_off = self->h->subgraph_table_off;
	REJECT(KBIN_ERR_OVERLAP, -1, -1, KBIN_FIELD_DMA_SECTION);
	RESET();
	/* a set moved onto the section (its size keeps it in the metadata) */
	SG(1)->set_off = EXT()->dma_off;
	REJECT(KBIN_ERR_OVERLAP, 1, -1, KBIN_FIELD_SET);
}

TEST_F(plan, dma_section_size)
{
	uint64_t size = EXT()->dma_size;

	EXT()->dma_off = 0;	/* a size without a section */
	REJECT(KBIN_ERR_DMA_COUNT, -1, -1, KBIN_FIELD_DMA_SECTION);
	RESET();
	EXT()->dma_size = 16;	/* no room for the subgraph entries */
	REJECT(KBIN_ERR_DMA_COUNT, -1, -1, KBIN_FIELD_DMA_SECTION);
	RESET();
	DMA()->num_descs -= 1;	/* the counts no longer fill dma_size */
	REJECT(KBIN_ERR_DMA_COUNT, -1, -1, KBIN_FIELD_DMA_SECTION);
	EXPECT_EQ(size, self->res.err.value);
}

TEST_F(plan, dma_counts)
{
	/* sg 1's ranges must follow sg 0's */
	DMA()->sg[1].first_queue = 0;
	REJECT(KBIN_ERR_DMA_COUNT, 1, -1, KBIN_FIELD_DMA_SECTION);
	RESET();
	/* sg 0 claims a block fewer than its queues hold */
	DMA()->sg[0].num_blocks -= 1;
	REJECT(KBIN_ERR_DMA_COUNT, 0, -1, KBIN_FIELD_DMA_QUEUE);
	RESET();
	/* a queue's blocks not where the previous queue's end */
	Q(0, TP_Q_DYN)->first_block += 1;
	REJECT_DMA(KBIN_ERR_DMA_COUNT, 0, KBIN_FIELD_DMA_QUEUE, TP_Q_DYN);
	RESET();
	Q(0, TP_Q_IO)->first_block = 1;	/* inside the subgraph's range */
	REJECT_DMA(KBIN_ERR_DMA_COUNT, 0, KBIN_FIELD_DMA_QUEUE, TP_Q_IO);
	RESET();
	/* sg 0 claims a block and a descriptor more than its queues hold */
	DMA()->sg[0].num_blocks += 1;
	DMA()->sg[1].first_block += 1;
	DMA()->sg[1].num_blocks -= 1;
	REJECT(KBIN_ERR_DMA_COUNT, 0, -1, KBIN_FIELD_DMA_SECTION);
	RESET();
	DMA()->sg[0].num_descs += 1;
	DMA()->sg[1].first_desc += 1;
	DMA()->sg[1].num_descs -= 1;
	REJECT(KBIN_ERR_DMA_COUNT, 0, -1, KBIN_FIELD_DMA_SECTION);
	RESET();
	/* a block's descriptors not where the previous block's end */
	B(0, TP_B_IO1)->first_desc -= 1;
	REJECT_DMA(KBIN_ERR_DMA_COUNT, 0, KBIN_FIELD_DMA_BLOCK, TP_B_IO1);
	RESET();
	/* a block running past its subgraph's descriptors */
	B(0, TP_B_DYN0)->num_descs += 1;
	REJECT_DMA(KBIN_ERR_DMA_COUNT, 0, KBIN_FIELD_DMA_BLOCK, TP_B_DYN0);
	RESET();
	/* the subgraphs hold fewer queues than the section has */
	DMA()->sg[1].num_queues = 0;
	DMA()->sg[1].num_blocks = 0;
	DMA()->sg[1].num_descs = 0;
	REJECT(KBIN_ERR_DMA_COUNT, -1, -1, KBIN_FIELD_DMA_SECTION);
}

TEST_F(plan, dma_queue_name)
{
	Q(0, TP_Q_IO)->name = 0;
	REJECT_DMA(KBIN_ERR_NAME, 0, KBIN_FIELD_DMA_QUEUE, TP_Q_IO);
	RESET();
	Q(0, TP_Q_IO)->name = 8;
	REJECT_DMA(KBIN_ERR_BOUNDS, 0, KBIN_FIELD_DMA_QUEUE, TP_Q_IO);
	RESET();
	*P8(Q(0, TP_Q_DYN)->name + 1) = '\n';
	REJECT_DMA(KBIN_ERR_NAME, 0, KBIN_FIELD_DMA_QUEUE, TP_Q_DYN);
	RESET();
	/* an empty fabric path: the NUL that ends the queue's name */
	Q(1, 0)->fabric_path = Q(1, 0)->name + strlen("qSPSpillReload0");
	REJECT_DMA(KBIN_ERR_NAME, 1, KBIN_FIELD_DMA_QUEUE, 0);
	EXPECT_EQ(0, strncmp("sg 1 dma queue 0 'qSPSpillReload0': fabric_path at 0x",
			     self->res.err.msg, 52)) TH_LOG("%s", self->res.err.msg);
}

TEST_F(plan, dma_queue_fields)
{
	Q(0, TP_Q_IO)->type = 0;
	REJECT_DMA(KBIN_ERR_DMA_QUEUE, 0, KBIN_FIELD_DMA_QUEUE, TP_Q_IO);
	Q(0, TP_Q_IO)->type = KBIN_DMA_QUEUE_TYPE_MAX + 1;
	REJECT_DMA(KBIN_ERR_DMA_QUEUE, 0, KBIN_FIELD_DMA_QUEUE, TP_Q_IO);
	RESET();
	Q(1, 0)->owner = KBIN_DMA_ENGINE_MAX + 1;
	REJECT_DMA(KBIN_ERR_DMA_QUEUE, 1, KBIN_FIELD_DMA_QUEUE, 0);
	RESET();
	Q(0, TP_Q_IO)->flags = 0x80;
	REJECT_DMA(KBIN_ERR_DMA_QUEUE, 0, KBIN_FIELD_DMA_QUEUE, TP_Q_IO);
	RESET();
	/* dynamic_dma only on a dynamic queue, its scratch inside a partition */
	Q(0, TP_Q_IO)->flags = KBIN_DMA_QF_DYNAMIC;
	REJECT_DMA(KBIN_ERR_DMA_QUEUE, 0, KBIN_FIELD_DMA_QUEUE, TP_Q_IO);
	RESET();
	Q(0, TP_Q_DYN)->sb_scratch_offset = 229376 - 16383;
	REJECT_DMA(KBIN_ERR_DMA_QUEUE, 0, KBIN_FIELD_DMA_QUEUE, TP_Q_DYN);
	Q(0, TP_Q_DYN)->sb_scratch_offset = 229376 - 16384;
	kbin_fix_checksum(self->buf, self->len);
	EXPECT_EQ(KBIN_OK, kbin_check_plan(self->buf, self->len, &self->res));
	RESET();
	Q(0, TP_Q_IO)->sb_scratch_size = 8;
	REJECT_DMA(KBIN_ERR_RESERVED, 0, KBIN_FIELD_DMA_QUEUE, TP_Q_IO);
	RESET();
	Q(0, TP_Q_DYN)->reserved = 1;
	REJECT_DMA(KBIN_ERR_RESERVED, 0, KBIN_FIELD_DMA_QUEUE, TP_Q_DYN);
}

TEST_F(plan, dma_queue_semaphore_set)
{
	Q(0, TP_Q_IO)->num_semaphores = KBIN_MAX_LIST + 1;
	REJECT_DMA(KBIN_ERR_DMA_SEMAPHORE, 0, KBIN_FIELD_DMA_QUEUE, TP_Q_IO);
	RESET();
	Q(0, TP_Q_IO)->semaphores = self->len - 4;	/* 2 entries: 8 bytes */
	REJECT_DMA(KBIN_ERR_BOUNDS, 0, KBIN_FIELD_DMA_QUEUE, TP_Q_IO);
	RESET();
	Q(0, TP_Q_IO)->semaphores += 2;
	REJECT_DMA(KBIN_ERR_MISALIGNED, 0, KBIN_FIELD_DMA_QUEUE, TP_Q_IO);
	RESET();
	Q(1, 0)->num_semaphores = 0;	/* the set's offset stays */
	REJECT_DMA(KBIN_ERR_RESERVED, 1, KBIN_FIELD_DMA_QUEUE, 0);
}

/*
 * Two queues naming one semaphore set of the data area (here a weight's
 * payload): 2^19 entries each are 2^20 together, accepted; one more each
 * is refused at the second queue, named by the running total.
 */
TEST(dma_semaphore_sets_together)
{
	static const uint32_t sem[] = { 0 };
	struct kbin_dma_queue_in q = {
		.q = { .num_semaphores = 1, .type = KBIN_DMA_QUEUE_DATA,
		       .owner = KBIN_DMA_ENGINE_SP, .num_queues = 1 },
		.semaphores = sem,
	};
	struct kbin_rec_in in = { .name = "sems" };
	struct kbin_check_result res;
	struct kbin_dma_sg_view dv;
	struct kbin_writer *w = kbin_writer_new(TP_TARGET);
	struct kbin_dma_queue *qt;
	struct kbin_view v;
	uint8_t *pay = calloc(KBIN_MAX_LIST, 4);
	uint64_t off;
	void *buf;
	size_t len;

	ASSERT_TRUE(w && pay);
	ASSERT_LE(0, kbin_writer_add_subgraph(w, "sg00", 0, 0, NULL, 0));
	in.rec.mr_type = KBIN_MR_BUFFER;
	in.rec.size = (uint64_t)KBIN_MAX_LIST * 4;
	in.rec.alignment = 64;
	in.payload = pay;
	in.payload_len = in.rec.size;
	ASSERT_EQ(0, kbin_writer_add_record(w, 0, &in));
	q.name = "q0";
	ASSERT_LE(0, kbin_writer_add_dma_queue(w, 0, &q));
	q.name = "q1";
	ASSERT_LE(0, kbin_writer_add_dma_queue(w, 0, &q));
	ASSERT_EQ(0, kbin_writer_finish(w, &buf, &len));
	kbin_writer_free(w);
	free(pay);
	ASSERT_EQ(0, kbin_read(buf, len, &v, &res)) TH_LOG("%s", res.err.msg);
	ASSERT_EQ(0, kbin_view_dma_sg(&v, 0, &dv));
	off = (const uint8_t *)kbin_view_payload(&v, &kbin_view_set(&v, 0)->mem[0]) -
	      (const uint8_t *)buf;
	qt = (struct kbin_dma_queue *)dv.queues;
	qt[0].semaphores = qt[1].semaphores = off;
	qt[0].num_semaphores = qt[1].num_semaphores = KBIN_MAX_LIST / 2;
	kbin_fix_checksum(buf, len);
	EXPECT_EQ(KBIN_OK, kbin_check_plan(buf, len, &res)) TH_LOG("%s", res.err.msg);
	qt[0].num_semaphores = qt[1].num_semaphores = KBIN_MAX_LIST / 2 + 1;
	kbin_fix_checksum(buf, len);
	EXPECT_EQ(KBIN_ERR_DMA_SEMAPHORE, kbin_check_plan(buf, len, &res));
	EXPECT_EQ(1LL, res.item);
	EXPECT_EQ(KBIN_MAX_LIST + 2ULL, res.err.value);
	EXPECT_STREQ("sg 0 dma queue 1 'q1': the subgraph's semaphore sets reach 1048578 entries with this queue's 524289, above 1048576",
		     res.err.msg);
	free(buf);
}

TEST_F(plan, dma_block_queue_index)
{
	B(0, TP_B_DYN0)->queue = TP_Q_IO;
	REJECT_DMA(KBIN_ERR_DMA_QUEUE_INDEX, 0, KBIN_FIELD_DMA_BLOCK, TP_B_DYN0);
}

TEST_F(plan, dma_block_order)
{
	/* ids run 0..n-1 in the queue's order */
	B(0, TP_B_IO0)->id = 1;
	B(0, TP_B_IO1)->id = 0;
	REJECT_DMA(KBIN_ERR_DMA_BLOCK_ORDER, 0, KBIN_FIELD_DMA_BLOCK, TP_B_IO0);
	RESET();
	B(0, TP_B_IO1)->id = 2;
	REJECT_DMA(KBIN_ERR_DMA_BLOCK_ORDER, 0, KBIN_FIELD_DMA_BLOCK, TP_B_IO1);
	EXPECT_EQ(2ULL, self->res.err.value);
}

TEST_F(plan, dma_block_semaphore)
{
	B(0, TP_B_IO1)->semaphore = 40;	/* the other queue's */
	REJECT_DMA(KBIN_ERR_DMA_SEMAPHORE, 0, KBIN_FIELD_DMA_BLOCK, TP_B_IO1);
	RESET();
	B(0, TP_B_IO1)->sem_index = 2;	/* past the 2-entry set */
	REJECT_DMA(KBIN_ERR_DMA_SEMAPHORE, 0, KBIN_FIELD_DMA_BLOCK, TP_B_IO1);
	RESET();
	/* entry 0 is 24: the right semaphore at the wrong index */
	B(0, TP_B_IO1)->sem_index = 0;
	REJECT_DMA(KBIN_ERR_DMA_SEMAPHORE, 0, KBIN_FIELD_DMA_BLOCK, TP_B_IO1);
}

TEST_F(plan, dma_block_comment)
{
	*P8(B(0, TP_B_IO0)->comment) = 0x1b;
	REJECT_DMA(KBIN_ERR_NAME, 0, KBIN_FIELD_DMA_BLOCK, TP_B_IO0);
	RESET();
	B(0, TP_B_DYN0)->comment = self->len + 1;
	REJECT_DMA(KBIN_ERR_BOUNDS, 0, KBIN_FIELD_DMA_BLOCK, TP_B_DYN0);
}

TEST_F(plan, dma_desc_op)
{
	D(0, TP_D_SB_OUT)->op = 0;
	REJECT_DMA(KBIN_ERR_DMA_OP, 0, KBIN_FIELD_DMA_DESC, TP_D_SB_OUT);
	D(0, TP_D_SB_OUT)->op = KBIN_DMA_OP_MAX + 1;
	REJECT_DMA(KBIN_ERR_DMA_OP, 0, KBIN_FIELD_DMA_DESC, TP_D_SB_OUT);
}

TEST_F(plan, dma_desc_fields)
{
	D(0, TP_D_CAST)->num_tiling_dims = KBIN_DMA_MAX_DIMS + 1;
	REJECT_DMA(KBIN_ERR_DMA_DIMS, 0, KBIN_FIELD_DMA_DESC, TP_D_CAST);
	RESET();
	D(0, TP_D_CAST)->pad = 1;
	REJECT_DMA(KBIN_ERR_RESERVED, 0, KBIN_FIELD_DMA_DESC, TP_D_CAST);
	RESET();
	D(0, TP_D_CAST)->to.pad[1] = 1;
	REJECT_DMA(KBIN_ERR_RESERVED, 0, KBIN_FIELD_DMA_TO, TP_D_CAST);
	RESET();
	D(0, TP_D_IN_SB)->from.steps[2] = 4;	/* an unused dimension */
	REJECT_DMA(KBIN_ERR_RESERVED, 0, KBIN_FIELD_DMA_FROM, TP_D_IN_SB);
}

TEST_F(plan, dma_side_var)
{
	D(0, TP_D_IN_SB)->from.var_id = TP_SG0_NMEM;
	REJECT_DMA(KBIN_ERR_DMA_VAR, 0, KBIN_FIELD_DMA_FROM, TP_D_IN_SB);
	D(0, TP_D_IN_SB)->from.var_id = ~0U;
	REJECT_DMA(KBIN_ERR_DMA_VAR, 0, KBIN_FIELD_DMA_FROM, TP_D_IN_SB);
	RESET();
	D(0, TP_D_BUF_V)->to.var_id = TP_LIST;
	REJECT_DMA(KBIN_ERR_DMA_VAR, 0, KBIN_FIELD_DMA_TO, TP_D_BUF_V);
	EXPECT_STREQ("sg 0 dma queue 0 'qSPIO0' block 1 descriptor 0 to: var_id 10 is MR_LIST: an index list, with no device bytes",
		     self->res.err.msg);
	RESET();
	D(0, TP_D_BUF_V)->to.var_id = TP_PTR;
	REJECT_DMA(KBIN_ERR_DMA_VAR, 0, KBIN_FIELD_DMA_TO, TP_D_BUF_V);
	EXPECT_NE(NULL, strstr(self->res.err.msg, "is MR_PTR: a pointer: the bytes are its target's, name the target"))
		TH_LOG("%s", self->res.err.msg);
	RESET();
	D(0, TP_D_BUF_V)->from.var_id = TP_PTAB;
	REJECT_DMA(KBIN_ERR_DMA_VAR, 0, KBIN_FIELD_DMA_FROM, TP_D_BUF_V);
}

/*
 * An MR_REMOTE side has its remote var's bytes, bounded by its own
 * record's size: TP_REMOTE (128 bytes of sg 1's 4096-byte peer_buf) and
 * TP1_REMOTE (4096 bytes of sg 0's tmp0) take a copy of 128 bytes; one
 * byte past the record is refused; a remote of the state buffer gets the
 * SBUF rules.
 */
TEST_F(plan, dma_side_remote)
{
	D(0, TP_D_BUF_V)->to.var_id = TP_REMOTE;
	D(0, TP_D_BUF_V)->to.offset = 0;
	kbin_fix_checksum(self->buf, self->len);
	ASSERT_EQ(KBIN_OK, kbin_check_plan(self->buf, self->len, &self->res))
		TH_LOG("%s", self->res.err.msg);
	D(0, TP_D_BUF_V)->to.offset = 1;
	REJECT_DMA(KBIN_ERR_DMA_EXTENT, 0, KBIN_FIELD_DMA_TO, TP_D_BUF_V);
	EXPECT_EQ(129ULL, self->res.err.value);
	RESET();
	/* sg 1's transpose reads the remote of sg 0's 4096-byte tmp0 */
	D(1, 0)->from.var_id = TP1_REMOTE;
	kbin_fix_checksum(self->buf, self->len);
	ASSERT_EQ(KBIN_OK, kbin_check_plan(self->buf, self->len, &self->res))
		TH_LOG("%s", self->res.err.msg);
	RESET();
	/* TP_REMOTE made a remote of sg 1's state buffer: runs stay in a partition */
	REC(0, TP_REMOTE)->remote.remote_var_id = TP1_SB;
	D(0, TP_D_BUF_V)->to.var_id = TP_REMOTE;
	D(0, TP_D_BUF_V)->to.offset = 0;
	kbin_fix_checksum(self->buf, self->len);
	ASSERT_EQ(KBIN_OK, kbin_check_plan(self->buf, self->len, &self->res))
		TH_LOG("%s", self->res.err.msg);
	REC(0, TP_REMOTE)->size = 24ULL << 20;
	D(0, TP_D_BUF_V)->to.offset = 229376 - 64;	/* 128 bytes over the edge */
	REJECT_DMA(KBIN_ERR_DMA_SBUF_PARTITION, 0, KBIN_FIELD_DMA_TO, TP_D_BUF_V);
}

TEST_F(plan, dma_side_dtype)
{
	D(0, TP_D_BUF_V)->from.dtype = 0;
	REJECT_DMA(KBIN_ERR_DMA_DTYPE, 0, KBIN_FIELD_DMA_FROM, TP_D_BUF_V);
	D(0, TP_D_BUF_V)->from.dtype = KBIN_DMA_DTYPE_MAX + 1;
	REJECT_DMA(KBIN_ERR_DMA_DTYPE, 0, KBIN_FIELD_DMA_FROM, TP_D_BUF_V);
}

TEST_F(plan, dma_side_dims)
{
	D(0, TP_D_BUF_V)->to.num_dims = 0;
	REJECT_DMA(KBIN_ERR_DMA_DIMS, 0, KBIN_FIELD_DMA_TO, TP_D_BUF_V);
	D(0, TP_D_BUF_V)->to.num_dims = KBIN_DMA_MAX_DIMS + 1;
	REJECT_DMA(KBIN_ERR_DMA_DIMS, 0, KBIN_FIELD_DMA_TO, TP_D_BUF_V);
	RESET();
	D(0, TP_D_IN_SB)->to.sizes[1] = 0;
	REJECT_DMA(KBIN_ERR_DMA_DIMS, 0, KBIN_FIELD_DMA_TO, TP_D_IN_SB);
}

TEST_F(plan, dma_side_step)
{
	D(0, TP_D_SB_OUT)->to.steps[0] = 2;
	REJECT_DMA(KBIN_ERR_DMA_STEP, 0, KBIN_FIELD_DMA_TO, TP_D_SB_OUT);
	EXPECT_EQ(2ULL, self->res.err.value);
}

TEST_F(plan, dma_side_extent)
{
	/* one byte past output0's 1024 */
	D(0, TP_D_SB_OUT)->to.offset = 1;
	REJECT_DMA(KBIN_ERR_DMA_EXTENT, 0, KBIN_FIELD_DMA_TO, TP_D_SB_OUT);
	EXPECT_EQ(1025ULL, self->res.err.value);
	EXPECT_STREQ("sg 0 dma queue 0 'qSPIO0' block 0 descriptor 1 to: var_id 6 'output0': extent 1025 is past its 1024 bytes",
		     self->res.err.msg);
	RESET();
	D(1, 0)->from.steps[1] = 1ULL << 62;	/* overflows with 3 * 2^62 */
	REJECT_DMA(KBIN_ERR_DMA_EXTENT, 1, KBIN_FIELD_DMA_FROM, 0);
	RESET();
	/* the extent counts the var's record size, here the 24 MiB MR_SB */
	D(0, TP_D_IN_SB)->to.offset = 96ULL * 262144;
	REJECT_DMA(KBIN_ERR_DMA_EXTENT, 0, KBIN_FIELD_DMA_TO, TP_D_IN_SB);
}

TEST_F(plan, dma_sbuf_window)
{
	D(0, TP_D_CAST)->to.offset = 125ULL * 262144;	/* 4 partitions on */
	REJECT_DMA(KBIN_ERR_DMA_SBUF_WINDOW, 0, KBIN_FIELD_DMA_TO, TP_D_CAST);
}

TEST_F(plan, dma_sbuf_partition)
{
	/* trn2: 229376 bytes per partition; trn3's fill the stride */
	D(0, TP_D_SB_OUT)->from.offset += 1;
	REJECT_DMA(KBIN_ERR_DMA_SBUF_PARTITION, 0, KBIN_FIELD_DMA_FROM, TP_D_SB_OUT);
	self->h->target_gen = KBIN_TARGET_TRN3;
	kbin_fix_checksum(self->buf, self->len);
	EXPECT_EQ(KBIN_OK, kbin_check_plan(self->buf, self->len, &self->res))
		TH_LOG("%s", self->res.err.msg);
	RESET();
	D(0, TP_D_IN_SB)->to.offset = 7 * 262144 + 229376;	/* in the gap */
	REJECT_DMA(KBIN_ERR_DMA_SBUF_PARTITION, 0, KBIN_FIELD_DMA_TO, TP_D_IN_SB);
}

TEST_F(plan, dma_sbuf_gap)
{
	struct kbin_dma_side *t = &D(0, TP_D_IN_SB)->to;

	/* partitions 0..3 by 262144, then 4 runs 57344 bytes apart inside */
	t->num_dims = 3;
	t->sizes[2] = 4;
	t->steps[2] = 57344;
	D(0, TP_D_IN_SB)->from.num_dims = 3;
	D(0, TP_D_IN_SB)->from.sizes[2] = 1;
	D(0, TP_D_IN_SB)->from.steps[2] = 0;
	D(0, TP_D_IN_SB)->from.sizes[2] = 4;
	D(0, TP_D_IN_SB)->from.steps[2] = 0;
	kbin_fix_checksum(self->buf, self->len);
	ASSERT_EQ(KBIN_OK, kbin_check_plan(self->buf, self->len, &self->res))
		TH_LOG("%s", self->res.err.msg);
	t->steps[2] = 57345;	/* 3 * 57345 + 256 = 172291: still inside */
	kbin_fix_checksum(self->buf, self->len);
	ASSERT_EQ(KBIN_OK, kbin_check_plan(self->buf, self->len, &self->res));
	t->steps[2] = 76374;	/* 3 * 76374 + 256 = 229378 */
	REJECT_DMA(KBIN_ERR_DMA_SBUF_GAP, 0, KBIN_FIELD_DMA_TO, TP_D_IN_SB);
	EXPECT_EQ(229378ULL, self->res.err.value);
}

TEST_F(plan, dma_copy_size)
{
	D(0, TP_D_BUF_V)->to.sizes[0] = 64;
	REJECT_DMA(KBIN_ERR_DMA_COPY_SIZE, 0, KBIN_FIELD_DMA_DESC, TP_D_BUF_V);
}

TEST_F(plan, dma_cast_size)
{
	/* int8 128 B -> float32 512 B; 516 B holds 129 elements */
	D(0, TP_D_CAST)->to.sizes[0] = 516;
	REJECT_DMA(KBIN_ERR_DMA_CAST_SIZE, 0, KBIN_FIELD_DMA_DESC, TP_D_CAST);
	RESET();
	D(0, TP_D_CAST)->from.sizes[1] = 3;
	REJECT_DMA(KBIN_ERR_DMA_CAST_SIZE, 0, KBIN_FIELD_DMA_DESC, TP_D_CAST);
}

TEST_F(plan, dma_transpose)
{
	D(1, 0)->transpose_op[3] = 'W';
	REJECT_DMA(KBIN_ERR_DMA_TRANSPOSE, 1, KBIN_FIELD_DMA_DESC, 0);
	RESET();
	D(1, 0)->transpose_elem_size = 2;
	REJECT_DMA(KBIN_ERR_DMA_TRANSPOSE, 1, KBIN_FIELD_DMA_DESC, 0);
	RESET();
	D(1, 0)->to.sizes[1] = 1;	/* 512 of the 1024 bytes */
	REJECT_DMA(KBIN_ERR_DMA_TRANSPOSE, 1, KBIN_FIELD_DMA_DESC, 0);
	RESET();
	/* a copy carries no transpose fields */
	D(0, TP_D_BUF_V)->transpose_shape[0] = 1;
	REJECT_DMA(KBIN_ERR_DMA_TRANSPOSE, 0, KBIN_FIELD_DMA_DESC, TP_D_BUF_V);
}

/* transpose_shape: zero, wrapping 64 bits, not a divisor of the bytes */
TEST_F(plan, dma_transpose_shape)
{
	/* sg 1's transpose moves 1024 bytes of float32 in one [1, 1, 16, 16] tile */
	D(1, 0)->transpose_shape[2] = 0;
	REJECT_DMA(KBIN_ERR_DMA_TRANSPOSE, 1, KBIN_FIELD_DMA_DESC, 0);
	EXPECT_EQ(0ULL, self->res.err.value);
	EXPECT_STREQ("sg 1 dma queue 0 'qSPSpillReload0' block 0 descriptor 0: transpose float32 -> float32, element size 4, shape [1, 1, 0, 16], tile 0, 1024 -> 1024 bytes: a transpose_shape dimension is 0",
		     self->res.err.msg);
	RESET();
	/* 4 x 2048 x 1544 x 65537 x 22253377 = 2^64 + 65536 */
	D(1, 0)->transpose_shape[0] = 2048;
	D(1, 0)->transpose_shape[1] = 1544;
	D(1, 0)->transpose_shape[2] = 65537;
	D(1, 0)->transpose_shape[3] = 22253377;
	REJECT_DMA(KBIN_ERR_DMA_TRANSPOSE, 1, KBIN_FIELD_DMA_DESC, 0);
	EXPECT_EQ(22253377ULL, self->res.err.value);	/* the dimension it overflows at */
	EXPECT_NE(NULL, strstr(self->res.err.msg, "tile 0, 1024 -> 1024 bytes: the tile overflows 64 bits")) TH_LOG("%s", self->res.err.msg);
	RESET();
	D(1, 0)->transpose_shape[3] = 15;	/* 960-byte tiles in 1024 bytes */
	REJECT_DMA(KBIN_ERR_DMA_TRANSPOSE, 1, KBIN_FIELD_DMA_DESC, 0);
	EXPECT_EQ(960ULL, self->res.err.value);
	RESET();
	D(1, 0)->transpose_shape[3] = 8;	/* two 512-byte tiles: accepted */
	kbin_fix_checksum(self->buf, self->len);
	EXPECT_EQ(KBIN_OK, kbin_check_plan(self->buf, self->len, &self->res))
		TH_LOG("%s", self->res.err.msg);
}

TEST_F(plan, dma_first_problem_wins)
{
	/* a bad descriptor in sg 1 and a bad queue in sg 0: sg 0 first */
	D(1, 0)->op = 0;
	Q(0, TP_Q_DYN)->owner = 0;
	REJECT_DMA(KBIN_ERR_DMA_QUEUE, 0, KBIN_FIELD_DMA_QUEUE, TP_Q_DYN);
	/* a record problem comes before any DMA problem */
	REC(1, TP1_BUF)->alignment = 3;
	REJECT(KBIN_ERR_ALIGNMENT, 1, TP1_BUF, KBIN_FIELD_ALIGNMENT);
}

/* ---- strings ---- */

TEST(every_code_has_a_name)
{
	unsigned int i;

	for (i = 1; i < KBIN_ERR_CHECK_MAX; i++)
		EXPECT_STRNE("unknown reason", kbin_reason_str(i))
			TH_LOG("reason %u", i);
	for (i = KBIN_ERR_STAGE_HBM; i <= KBIN_ERR_STAGE_LAST; i++)
		EXPECT_STRNE("unknown reason", kbin_reason_str(i));
	EXPECT_STREQ("unknown reason", kbin_reason_str(KBIN_ERR_CHECK_MAX));
	EXPECT_STREQ("checksum mismatch", kbin_reason_str(KBIN_ERR_CHECKSUM));
	for (i = 0; i < KBIN_FIELD_MAX; i++)
		EXPECT_STRNE("unknown field", kbin_field_str(i));
	EXPECT_STREQ("unknown field", kbin_field_str(KBIN_FIELD_MAX));
	EXPECT_STREQ("MR_SB", kbin_mr_type_str(KBIN_MR_SB));
	EXPECT_STREQ("MR_REMOTE", kbin_mr_type_str(KBIN_MR_REMOTE));
	EXPECT_STREQ("MR_PSUM", kbin_mr_type_str(KBIN_MR_PSUM));
	EXPECT_EQ(12, KBIN_MR_PSUM);	/* neuronsim's own, after libnrt's 0..11 */
	EXPECT_STREQ("MR_UNKNOWN", kbin_mr_type_str(13));
	EXPECT_STREQ("PSUM run past its partition",
		     kbin_reason_str(KBIN_ERR_DMA_PSUM_PARTITION));
	EXPECT_LT(KBIN_ERR_DMA_PSUM_PARTITION, 96);
	EXPECT_EQ(224 * 1024, kbin_sbuf_partition_size(KBIN_TARGET_TRN2));
	EXPECT_EQ(0, kbin_sbuf_partition_size(1));
}

/* ---- writer and reader ---- */

TEST_F(plan, round_trip)
{
	const struct tp_plan *p = tp_inputs();
	struct kbin_view v;
	uint32_t s, i;

	ASSERT_EQ(0, kbin_read(self->buf, self->len, &v, &self->res));
	ASSERT_EQ(2, v.num_subgraphs);
	ASSERT_EQ(TP_TARGET, v.hdr->target_gen);
	ASSERT_EQ(self->len, v.hdr->total_size);
	ASSERT_EQ(NULL, kbin_view_subgraph(&v, 2));
	ASSERT_EQ(NULL, kbin_view_set(&v, 2));
	for (s = 0; s < 2; s++) {
		const struct kbin_subgraph *sg = kbin_view_subgraph(&v, s);
		const struct kbin_mem_ref_set *set = kbin_view_set(&v, s);

		ASSERT_NE(NULL, sg);
		EXPECT_STREQ(p->name[s], sg->name);
		EXPECT_EQ(p->nco[s], sg->num_carveouts);
		EXPECT_EQ(0, memcmp(p->co[s], sg->carveouts,
				    p->nco[s] * sizeof(p->co[s][0])));
		EXPECT_EQ(p->local_sp[s], set->local_scratchpad_size);
		EXPECT_EQ(p->shared_sp[s], set->shared_scratchpad_size);
		ASSERT_EQ(p->n[s], set->nmem);
		for (i = 0; i < set->nmem; i++) {
			const struct kbin_rec_in *in = &p->in[s][i];
			const struct kbin_mem_ref *r = &set->mem[i];

			EXPECT_EQ(in->rec.mr_type, r->mr_type);
			EXPECT_EQ(in->rec.var_id, r->var_id);
			EXPECT_EQ(in->rec.size, r->size);
			EXPECT_EQ(in->rec.alignment, r->alignment);
			EXPECT_EQ(0, memcmp(in->rec.dtype, r->dtype,
					    sizeof(r->dtype)));
			EXPECT_EQ(0, memcmp(in->rec.shape, r->shape,
					    sizeof(r->shape)));
			EXPECT_STREQ(in->name, kbin_view_str(&v, r->name));
			if (in->md) {
				ASSERT_NE(NULL, kbin_view_md(&v, r));
				EXPECT_EQ(0, memcmp(in->md, kbin_view_md(&v, r),
						    sizeof(*in->md)));
			} else {
				EXPECT_EQ(NULL, kbin_view_md(&v, r));
			}
			if (in->payload) {
				ASSERT_NE(NULL, kbin_view_payload(&v, r));
				EXPECT_EQ(0, r->buffer % KBIN_PAYLOAD_ALIGN);
				EXPECT_EQ(0, memcmp(in->payload,
						    kbin_view_payload(&v, r),
						    in->payload_len));
			} else {
				EXPECT_EQ(NULL, kbin_view_payload(&v, r));
			}
			if (in->list) {
				ASSERT_NE(NULL, kbin_view_list(&v, r));
				EXPECT_EQ(in->rec.list.length, r->list.length);
				EXPECT_EQ(0, memcmp(in->list, kbin_view_list(&v, r),
						    r->list.length * 4));
			} else {
				EXPECT_EQ(0, memcmp(in->rec.raw, r->raw,
						    sizeof(r->raw)));
				EXPECT_EQ(NULL, kbin_view_list(&v, r));
			}
		}
	}
	/* the DMA program as given, with the writer's ranges filled in */
	for (s = 0; s < 2; s++) {
		struct kbin_dma_sg_view dv;
		uint32_t k, j, nd = 0;

		ASSERT_EQ(0, kbin_view_dma_sg(&v, s, &dv));
		ASSERT_EQ(p->nq[s], dv.num_queues);
		ASSERT_EQ(p->nb[s], dv.num_blocks);
		for (k = 0; k < dv.num_queues; k++) {
			const struct kbin_dma_queue *q = &dv.queues[k];
			const struct kbin_dma_queue_in *qi = &p->q[s][k];

			EXPECT_STREQ(qi->name, kbin_view_str(&v, q->name));
			EXPECT_STREQ(qi->fabric_path, kbin_view_str(&v, q->fabric_path));
			EXPECT_EQ(qi->q.type, q->type);
			EXPECT_EQ(qi->q.owner, q->owner);
			EXPECT_EQ(qi->q.flags, q->flags);
			EXPECT_EQ(qi->q.sb_scratch_size, q->sb_scratch_size);
			ASSERT_EQ(qi->q.num_semaphores, q->num_semaphores);
			EXPECT_EQ(0, memcmp(qi->semaphores, kbin_view_semaphores(&v, q),
					    4 * q->num_semaphores));
		}
		for (j = 0; j < dv.num_blocks; j++) {
			const struct kbin_dma_block *b = &dv.blocks[j];
			const struct tp_block *bi = &p->blk[s][j];

			EXPECT_EQ(bi->b.queue, b->queue);
			EXPECT_EQ(bi->b.id, b->id);
			EXPECT_EQ(bi->b.semaphore, b->semaphore);
			EXPECT_STREQ(bi->comment ? bi->comment : "(none)",
				     b->comment ? kbin_view_str(&v, b->comment) : "(none)");
			ASSERT_EQ(bi->nd, b->num_descs);
			EXPECT_EQ(dv.first_desc + nd, b->first_desc);
			EXPECT_EQ(0, memcmp(bi->d, &dv.descs[nd], bi->nd * sizeof(bi->d[0])));
			nd += bi->nd;
		}
		EXPECT_EQ(nd, dv.num_descs);
	}
	EXPECT_EQ(-EINVAL, kbin_view_dma_sg(&v, 2, &(struct kbin_dma_sg_view){ 0 }));
	/* identical names are stored once */
	EXPECT_EQ(REC(0, TP_SB)->name, REC(1, TP1_SB)->name);
	EXPECT_EQ(NULL, kbin_view_str(&v, 0));
	EXPECT_EQ(NULL, kbin_view_str(&v, 8));
}

TEST_F(plan, read_refuses_bad_plan)
{
	struct kbin_view v;

	REC(0, TP_TMP)->alignment = 5;
	kbin_fix_checksum(self->buf, self->len);
	ASSERT_EQ(-EINVAL, kbin_read(self->buf, self->len, &v, &self->res));
	ASSERT_EQ(KBIN_ERR_ALIGNMENT, self->res.err.reason);
	ASSERT_EQ(NULL, kbin_view_subgraph(&v, 0));
}

TEST_F(plan, read_file)
{
	char path[] = "/tmp/kbin_check_test.XXXXXX";
	void *buf = NULL;
	size_t len = 0;
	int fd = mkstemp(path);

	ASSERT_LE(0, fd);
	ASSERT_EQ((ssize_t)self->len, write(fd, self->buf, self->len));
	close(fd);
	ASSERT_EQ(0, nsim_read_file(path, &buf, &len));
	unlink(path);
	ASSERT_EQ(self->len, len);
	EXPECT_EQ(0, memcmp(buf, self->buf, len));
	free(buf);
	EXPECT_EQ(-ENOENT, nsim_read_file(path, &buf, &len));
	EXPECT_EQ(-EISDIR, nsim_read_file("/tmp", &buf, &len));
}

/* ---- MR_PSUM: a variable in the NeuronCore's PSUM window ---- */

/* check the PSUM plan (tl_psum_plan()) of @ps; ~0U when it cannot be built */
static unsigned int psum_check(const struct tl_psum *ps,
			       struct kbin_check_result *res)
{
	struct kbin_writer *w;
	unsigned int r = ~0U;
	void *buf;
	size_t len;
	int e = 0;

	w = tl_psum_plan(ps, &e);
	if (!w)
		return r;
	if (!e && !kbin_writer_finish(w, &buf, &len)) {
		r = kbin_check_plan(buf, len, res);
		free(buf);
	}
	kbin_writer_free(w);
	return r;
}

/* the PSUM plan of @gen: @parts runs of @run bytes at byte @byte of each */
#define PSUM_PLAN(_g, _run, _parts, _first, _byte) (struct tl_psum){ \
	.gen = (_g), .sb_size = kbin_gen_target(_g)->sbuf_window_size, \
	.run = (_run), .parts = (_parts), .first = (_first), .byte = (_byte) }

TEST(psum_geometry)
{
	const struct kbin_gen *g1 = kbin_gen_by_number(1);
	const struct kbin_gen *g2 = kbin_gen_target(KBIN_TARGET_TRN1);

	/* generation 1: 4 banks x 64 partitions; 2: 8 banks x 128 */
	ASSERT_NE(NULL, g1);
	ASSERT_NE(NULL, g2);
	EXPECT_EQ(64U, kbin_gen_psum_partitions(g1));
	EXPECT_EQ(4U * 2048, kbin_gen_psum_partition_size(g1));
	EXPECT_EQ(128U, kbin_gen_psum_partitions(g2));
	EXPECT_EQ(8U * 2048, kbin_gen_psum_partition_size(g2));
	EXPECT_EQ(g2->psum_size, (__u64)kbin_gen_psum_partitions(g2) *
		  kbin_gen_psum_partition_size(g2));
	EXPECT_EQ(g1->psum_size, (__u64)kbin_gen_psum_partitions(g1) *
		  kbin_gen_psum_partition_size(g1));
}

TEST(psum_var_accepted)
{
	static const unsigned int gens[] = { KBIN_TARGET_TRN1, KBIN_TARGET_TRN2,
					     KBIN_TARGET_TRN3 };
	struct kbin_check_result res;
	struct tl_psum ps;
	unsigned int i;

	for (i = 0; i < sizeof(gens) / sizeof(gens[0]); i++) {
		__u32 part = kbin_gen_psum_partition_size(kbin_gen_target(gens[i]));
		__u32 np = kbin_gen_psum_partitions(kbin_gen_target(gens[i]));

		/* 64 bytes of every partition, then whole partitions */
		ps = PSUM_PLAN(gens[i], 64, np, 0, 0);
		EXPECT_EQ(KBIN_OK, psum_check(&ps, &res))
			TH_LOG("gen %u: %s", gens[i], res.err.msg);
		ps = PSUM_PLAN(gens[i], part, 4, np - 4, 0);
		EXPECT_EQ(KBIN_OK, psum_check(&ps, &res))
			TH_LOG("gen %u: %s", gens[i], res.err.msg);
		/* the last bytes of the last partition */
		ps = PSUM_PLAN(gens[i], 32, 1, np - 1, part - 32);
		EXPECT_EQ(KBIN_OK, psum_check(&ps, &res))
			TH_LOG("gen %u: %s", gens[i], res.err.msg);
	}
	/* a generation no plan may target, whatever its PSUM */
	ps = PSUM_PLAN(KBIN_TARGET_TRN1, 64, 1, 0, 0);
	ps.gen = 1;
	EXPECT_NE(KBIN_OK, psum_check(&ps, &res));
}

TEST(psum_var_size)
{
	const struct kbin_gen *g = kbin_gen_target(KBIN_TARGET_TRN2);
	struct kbin_check_result res;
	struct tl_psum ps = PSUM_PLAN(KBIN_TARGET_TRN2, 64, 1, 0, 0);

	ps.psum_size = g->psum_size;
	ASSERT_EQ(KBIN_OK, psum_check(&ps, &res)) TH_LOG("%s", res.err.msg);
	ps.psum_size = g->psum_size + 1;
	ASSERT_EQ(KBIN_ERR_SIZE, psum_check(&ps, &res)) TH_LOG("%s", res.err.msg);
	EXPECT_EQ(KBIN_FIELD_SIZE, res.err.field);
	EXPECT_EQ(TL_PSUM_VAR, res.err.record);
	EXPECT_NE(NULL, strstr(res.err.msg, "above the 2097152-byte PSUM window (128 partitions x 16384 bytes)"))
		TH_LOG("%s", res.err.msg);
}

TEST(psum_dma_partition)
{
	struct kbin_check_result res;
	__u32 part = kbin_gen_psum_partition_size(kbin_gen_target(KBIN_TARGET_TRN1));
	struct tl_psum ps = PSUM_PLAN(KBIN_TARGET_TRN1, 64, 2, 0, part - 32);

	/* a run past its partition's bytes: the qIn block's to side first */
	ASSERT_EQ(KBIN_ERR_DMA_PSUM_PARTITION, psum_check(&ps, &res))
		TH_LOG("%s", res.err.msg);
	EXPECT_EQ(KBIN_FIELD_DMA_TO, res.err.field);
	EXPECT_EQ(0, res.item);
	EXPECT_NE(NULL, strstr(res.err.msg, "run of 64 bytes at byte 16352 of PSUM partition 0, ending at 16416 past the 16384-byte partition"))
		TH_LOG("%s", res.err.msg);
	EXPECT_STREQ("PSUM run past its partition", kbin_reason_str(res.err.reason));
	/* one run longer than a partition */
	ps = PSUM_PLAN(KBIN_TARGET_TRN1, part + 1, 1, 0, 0);
	ASSERT_EQ(KBIN_ERR_DMA_PSUM_PARTITION, psum_check(&ps, &res))
		TH_LOG("%s", res.err.msg);
}

TEST(psum_dma_window)
{
	struct kbin_check_result res;
	const struct kbin_gen *g = kbin_gen_target(KBIN_TARGET_TRN2);
	__u32 np = kbin_gen_psum_partitions(g);
	struct tl_psum ps = PSUM_PLAN(KBIN_TARGET_TRN2, 64, 2, np - 1, 0);

	/* partitions np - 1 and np: start + partitions past the PSUM's */
	ASSERT_EQ(KBIN_ERR_DMA_PSUM_WINDOW, psum_check(&ps, &res))
		TH_LOG("%s", res.err.msg);
	EXPECT_EQ(KBIN_FIELD_DMA_TO, res.err.field);
	EXPECT_NE(NULL, strstr(res.err.msg, "outside the 2097152-byte PSUM window (128 partitions)"))
		TH_LOG("%s", res.err.msg);
	ps = PSUM_PLAN(KBIN_TARGET_TRN2, 64, 1, np, 0);
	ASSERT_EQ(KBIN_ERR_DMA_PSUM_WINDOW, psum_check(&ps, &res))
		TH_LOG("%s", res.err.msg);
}

TEST(writer_refuses_bad_input)
{
	struct kbin_writer *w = kbin_writer_new(KBIN_TARGET_TRN1);
	struct kbin_rec_in in = { .name = "x" };
	char longname[KBIN_NAME_MAX + 1];
	struct kbin_check_result res;
	void *buf;
	size_t len;
	int i;

	ASSERT_NE(NULL, w);
	EXPECT_EQ(-EINVAL, kbin_writer_finish(w, &buf, &len));
	EXPECT_EQ(-EINVAL, kbin_writer_add_subgraph(w, "", 0, 0, NULL, 0));
	EXPECT_EQ(-EINVAL, kbin_writer_add_subgraph(w, NULL, 0, 0, NULL, 0));
	EXPECT_EQ(-EINVAL, kbin_writer_add_subgraph(w, "0123456789abcdef0123456789abcdef",
						    0, 0, NULL, 0));
	EXPECT_EQ(-EINVAL, kbin_writer_add_subgraph(w, "sg", 0, 0, NULL, 1));
	EXPECT_EQ(-EINVAL, kbin_writer_add_record(w, 0, &in));
	for (i = 0; i < (int)KBIN_MAX_SUBGRAPHS; i++)
		ASSERT_EQ(i, kbin_writer_add_subgraph(w, "sg", 0, 0, NULL, 0));
	EXPECT_EQ(-EINVAL, kbin_writer_add_subgraph(w, "sg", 0, 0, NULL, 0));
	in.name = NULL;
	EXPECT_EQ(-EINVAL, kbin_writer_add_record(w, 0, &in));
	memset(longname, 'n', sizeof(longname) - 1);
	longname[KBIN_NAME_MAX] = '\0';
	in.name = longname;
	EXPECT_EQ(-EINVAL, kbin_writer_add_record(w, 0, &in));
	in.name = "x";
	in.payload_len = 4;
	EXPECT_EQ(-EINVAL, kbin_writer_add_record(w, 0, &in));
	EXPECT_EQ(-EINVAL, kbin_writer_add_record(w, -1, &in));
	/* finished once: the writer takes nothing more */
	ASSERT_EQ(0, kbin_writer_finish(w, &buf, &len));
	EXPECT_EQ(KBIN_OK, kbin_check_plan(buf, len, &res));
	free(buf);
	EXPECT_EQ(-EINVAL, kbin_writer_finish(w, &buf, &len));
	EXPECT_EQ(-EINVAL, kbin_writer_add_subgraph(w, "sg", 0, 0, NULL, 0));
	kbin_writer_free(w);
}

TEST(many_records)
{
	struct kbin_check_result res;
	struct timespec t0, t1;
	void *buf;
	size_t len;
	double ms;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	ASSERT_EQ(0, tp_build_n(100000, &buf, &len));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ms = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
	TH_LOG("wrote 100000 records (%zu bytes) in %.1f ms", len, ms);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ASSERT_EQ(KBIN_OK, kbin_check_plan(buf, len, &res)) TH_LOG("%s", res.err.msg);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ms = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
	TH_LOG("checked in %.1f ms", ms);
	/* the last record still counts: break it */
	tp_rec(buf, 0, 99999)->alignment = 0;
	kbin_fix_checksum(buf, len);
	ASSERT_EQ(KBIN_ERR_ALIGNMENT, kbin_check_plan(buf, len, &res));
	ASSERT_EQ(99999, res.err.record);
	free(buf);
}

TEST_HARNESS_MAIN
