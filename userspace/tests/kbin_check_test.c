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
#include "kbin_testplan.h"

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
		TH_LOG("test plan invalid: %s", self->res.msg);
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
		TH_LOG("got \"%s\": %s", kbin_reason_str(self->res.reason),	\
		       self->res.msg);						\
	ASSERT_EQ((unsigned int)(_reason), self->res.reason);			\
	ASSERT_EQ((_sg), self->res.subgraph) TH_LOG("%s", self->res.msg);	\
	ASSERT_EQ((long long)(_rec), self->res.record)				\
		TH_LOG("%s", self->res.msg);					\
	ASSERT_EQ((unsigned int)(_field), self->res.field)			\
		TH_LOG("field %s: %s", kbin_field_str(self->res.field),		\
		       self->res.msg);						\
	ASSERT_NE(0, (int)strlen(self->res.msg));				\
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
	EXPECT_EQ(KBIN_OK, self->res.reason);
	EXPECT_EQ(-1, self->res.subgraph);
	EXPECT_EQ(-1, self->res.record);
	EXPECT_STREQ("", self->res.msg);
	EXPECT_EQ(KBIN_OK, kbin_check_plan(self->buf, self->len, NULL));
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
	ASSERT_EQ(63, self->res.value);
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
	self->h->version = 2;
	REJECT(KBIN_ERR_VERSION, -1, -1, KBIN_FIELD_VERSION);
}

TEST_F(plan, header_size)
{
	self->h->header_size = 72;
	REJECT(KBIN_ERR_HEADER_SIZE, -1, -1, KBIN_FIELD_HEADER_SIZE);
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
	ASSERT_EQ(1ULL << 63, self->res.value);
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
	EXPECT_EQ((__u64)'\n', self->res.value);
	EXPECT_STREQ("sg 1: subgraph name has control character 0xa at byte 1",
		     self->res.msg);
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
	ASSERT_EQ(12, self->res.value);
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
	ASSERT_EQ(TP_BUF, self->res.value);
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
	EXPECT_EQ((__u64)'\t', self->res.value);
	RESET();
	n = P8(REC(0, TP_IN)->name);
	n[0] = 0x7f;	/* DEL */
	REJECT(KBIN_ERR_NAME, 0, TP_IN, KBIN_FIELD_NAME);
	RESET();
	n = P8(REC(0, TP_IN)->name);
	n[0] = 0xc3;	/* bytes >= 0x80 (UTF-8) are allowed */
	kbin_fix_checksum(self->buf, self->len);
	EXPECT_EQ(KBIN_OK, kbin_check_plan(self->buf, self->len, &self->res))
		TH_LOG("%s", self->res.msg);
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
		     self->res.msg);
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
	EXPECT_EQ(0x1bULL, self->res.value);
}

TEST_F(plan, shape)
{
	REC(0, TP_IN)->shape[3] = 5;	/* shape[2] is 0 */
	REJECT(KBIN_ERR_SHAPE, 0, TP_IN, KBIN_FIELD_SHAPE);
	ASSERT_EQ(5, self->res.value);
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
		TH_LOG("%s", self->res.msg);
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
	ASSERT_EQ(TP_SG0_NMEM, self->res.value);
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

/* ---- strings ---- */

TEST(every_code_has_a_name)
{
	unsigned int i;

	for (i = 1; i < KBIN_ERR_CHECK_MAX; i++)
		EXPECT_STRNE("unknown reason", kbin_reason_str(i))
			TH_LOG("reason %u", i);
	for (i = KBIN_ERR_STAGE_HBM; i <= KBIN_ERR_STAGE_SBUF; i++)
		EXPECT_STRNE("unknown reason", kbin_reason_str(i));
	EXPECT_STREQ("unknown reason", kbin_reason_str(KBIN_ERR_CHECK_MAX));
	EXPECT_STREQ("checksum mismatch", kbin_reason_str(KBIN_ERR_CHECKSUM));
	for (i = 0; i < KBIN_FIELD_MAX; i++)
		EXPECT_STRNE("unknown field", kbin_field_str(i));
	EXPECT_STREQ("unknown field", kbin_field_str(KBIN_FIELD_MAX));
	EXPECT_STREQ("MR_SB", kbin_mr_type_str(KBIN_MR_SB));
	EXPECT_STREQ("MR_REMOTE", kbin_mr_type_str(KBIN_MR_REMOTE));
	EXPECT_STREQ("MR_UNKNOWN", kbin_mr_type_str(12));
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
	ASSERT_EQ(KBIN_ERR_ALIGNMENT, self->res.reason);
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
	ASSERT_EQ(0, kbin_read_file(path, &buf, &len));
	unlink(path);
	ASSERT_EQ(self->len, len);
	EXPECT_EQ(0, memcmp(buf, self->buf, len));
	free(buf);
	EXPECT_EQ(-ENOENT, kbin_read_file(path, &buf, &len));
	EXPECT_EQ(-EINVAL, kbin_read_file("/tmp", &buf, &len));
}

TEST(writer_refuses_bad_input)
{
	struct kbin_writer *w = kbin_writer_new(KBIN_TARGET_TRN1);
	struct kbin_rec_in in = { .name = "x" };
	char longname[KBIN_NAME_MAX + 1];
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
	EXPECT_EQ(KBIN_OK, kbin_check_plan(buf, len, NULL));
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
	ASSERT_EQ(KBIN_OK, kbin_check_plan(buf, len, &res)) TH_LOG("%s", res.msg);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ms = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
	TH_LOG("checked in %.1f ms", ms);
	/* the last record still counts: break it */
	tp_rec(buf, 0, 99999)->alignment = 0;
	kbin_fix_checksum(buf, len);
	ASSERT_EQ(KBIN_ERR_ALIGNMENT, kbin_check_plan(buf, len, &res));
	ASSERT_EQ(99999, res.record);
	free(buf);
}

TEST_HARNESS_MAIN
