// SPDX-License-Identifier: GPL-2.0
/*
 * prog_test.c - host tests of the program section (KBIN version 3): the
 * record decoder and encoder, every rule of the plan checker's program
 * pass by its reason, subgraph, instruction and field (kmod/plan/
 * kbin_prog.c through kbin_check_plan(), the function LOAD runs), the
 * writer and reader, the cost model, and the host replay
 * (userspace/cc/prog_replay.c): final semaphores, per-engine counts,
 * per-queue block order, virtual time, deadlock reports.
 *
 * The tests start from the full test plan with its program
 * (kbin_testplan.h, tp_build_prog()), break one thing, fix the checksum
 * and expect one finding.  A record changed on purpose keeps its old
 * decoded entry unless the test calls kbin_prog_refill(): the rules run
 * before the comparison, so a broken rule is reported as that rule.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "kbin_check.h"
#include "kbin_prog.h"
#include "kbin_reader.h"
#include "kbin_testplan.h"
#include "prog_replay.h"

#define PE	KBIN_DMA_ENGINE_PE
#define ACT	KBIN_DMA_ENGINE_ACT
#define POOL	KBIN_DMA_ENGINE_POOL
#define DVE	KBIN_DMA_ENGINE_DVE
#define SP	KBIN_DMA_ENGINE_SP

FIXTURE(prog) {
	void *buf;
	size_t len;
	struct kbin_check_result res;
};

FIXTURE_SETUP(prog)
{
	ASSERT_EQ(0, tp_build_prog(&self->buf, &self->len));
	ASSERT_EQ(KBIN_OK, kbin_check_plan(self->buf, self->len, &self->res))
		TH_LOG("test program invalid: %s", self->res.err.msg);
}

FIXTURE_TEARDOWN(prog)
{
	free(self->buf);
}

#define HDR()		((struct kbin_header *)self->buf)
#define EXT()		tp_ext(self->buf)
#define SEC()		tp_prog(self->buf)
#define REC(s, e, i)	tp_prog_rec(self->buf, (s), (e), (i))
#define SYNC(s, e, i)	tp_prog_sync(self->buf, (s), (e), (i))

/*
 * Check with the checksum fixed and expect one finding: reason,
 * subgraph, field, instruction index (res.item) and the rule (why).
 */
#define REJECT(_reason, _sg, _field, _item, _why) do {			\
	kbin_fix_checksum(self->buf, self->len);				\
	ASSERT_EQ((unsigned int)(_reason),					\
		  kbin_check_plan(self->buf, self->len, &self->res))		\
		TH_LOG("got \"%s\": %s", kbin_reason_str(self->res.err.reason),	\
		       self->res.err.msg);						\
	ASSERT_EQ((_sg), self->res.err.subgraph) TH_LOG("%s", self->res.err.msg);	\
	ASSERT_EQ((unsigned int)(_field), self->res.err.field)			\
		TH_LOG("field %s: %s", kbin_field_str(self->res.err.field),		\
		       self->res.err.msg);						\
	ASSERT_EQ((long long)(_item), self->res.item)				\
		TH_LOG("%s", self->res.err.msg);					\
	ASSERT_EQ((unsigned int)(_why), self->res.prog.why)			\
		TH_LOG("%s", self->res.err.msg);					\
	ASSERT_NE(0, (int)strlen(self->res.err.msg));				\
} while (0)

/* a section-level finding: no rule of kbin_prog_check_sg() */
#define REJECT_SEC(_reason, _field) \
	REJECT(_reason, -1, _field, -1, KBIN_PROG_WHY_NONE)

#define RESET() do {								\
	free(self->buf);							\
	ASSERT_EQ(0, tp_build_prog(&self->buf, &self->len));			\
} while (0)

/* rewrite the decoded entries from the records, as the writer would */
#define REFILL() ASSERT_EQ(0, kbin_prog_refill(self->buf, self->len))

/* ---- the valid program ---- */

TEST_F(prog, valid_plan_and_reader)
{
	struct kbin_prog_sg_view pv;
	struct kbin_view v;
	uint32_t n, e;

	EXPECT_EQ(3U, HDR()->version);
	EXPECT_EQ((unsigned long long)(TP_PROG_SG0_N + TP_PROG_SG1_N),
		  self->res.prog_instrs);
	tp_prog_instrs(&n);
	EXPECT_EQ(n, SEC()->num_instrs);
	/* the program section follows the DMA section, before the data */
	EXPECT_EQ(EXT()->dma_off + EXT()->dma_size, EXT()->prog_off);
	EXPECT_EQ(HDR()->data_off, EXT()->prog_off + EXT()->prog_size);
	EXPECT_EQ(16 + 2 * 40 + n * (16ULL + 64), EXT()->prog_size);
	ASSERT_EQ(0, kbin_read(self->buf, self->len, &v, &self->res));
	ASSERT_NE(NULL, v.prog);
	ASSERT_EQ(0, kbin_view_prog_sg(&v, 0, &pv));
	EXPECT_EQ(3U, pv.num[PE - 1]);
	EXPECT_EQ(1U, pv.num[ACT - 1]);
	EXPECT_EQ(3U, pv.num[POOL - 1]);
	EXPECT_EQ(1U, pv.num[DVE - 1]);
	EXPECT_EQ(3U, pv.num[SP - 1]);
	ASSERT_EQ(0, kbin_view_prog_sg(&v, 1, &pv));
	for (e = 0; e < KBIN_PROG_ENGINES; e++)
		EXPECT_EQ(e == PE - 1 || e == SP - 1 ? 1U : 0U, pv.num[e]);
	EXPECT_EQ(-EINVAL, kbin_view_prog_sg(&v, 2, &pv));
}

TEST_F(prog, triggers_start_the_nth_block_of_their_queue)
{
	/* sg 0's blocks in queue order: qSPIO0 0, 1, qPoolDynamic 0 */
	EXPECT_EQ(TP_B_IO0, SYNC(0, SP, 0)->block);
	EXPECT_EQ(TP_B_IO1, SYNC(0, SP, 1)->block);
	EXPECT_EQ(TP_B_DYN0, SYNC(0, POOL, 0)->block);
	EXPECT_EQ(0U, SYNC(1, SP, 0)->block);
	EXPECT_EQ(KBIN_PROG_NO_BLOCK, SYNC(0, SP, 2)->block);
	EXPECT_EQ(KBIN_PROG_CLASS_TRIGGER, SYNC(0, SP, 0)->cls);
	EXPECT_EQ(KBIN_PROG_CLASS_WAIT, SYNC(0, SP, 2)->cls);
	EXPECT_EQ(KBIN_PROG_CLASS_DMA, SYNC(0, POOL, 2)->cls);
	EXPECT_EQ(3, SYNC(0, POOL, 2)->add_sem);
	EXPECT_EQ(16, SYNC(0, POOL, 2)->add_value);
	EXPECT_EQ(KBIN_PROG_CLASS_COMPUTE, SYNC(0, PE, 0)->cls);
	EXPECT_EQ(25, SYNC(0, SP, 2)->wait_sem);
	EXPECT_EQ(2U, SYNC(0, SP, 2)->wait_value);
}

TEST(encode_decode_round_trip)
{
	const struct tp_instr *t;
	struct kbin_prog_sync x;
	uint8_t rec[KBIN_PROG_RECORD_SIZE];
	uint32_t n, i;

	t = tp_prog_instrs(&n);
	for (i = 0; i < n; i++) {
		kbin_prog_encode(rec, &t[i].s, t[i].queue);
		EXPECT_EQ(0x10, rec[1]);
		kbin_prog_decode(rec, &x);
		EXPECT_EQ(t[i].s.opcode, x.opcode);
		EXPECT_EQ(t[i].s.wait_mode, x.wait_mode);
		EXPECT_EQ(t[i].s.wait_sem, x.wait_sem);
		EXPECT_EQ(t[i].s.wait_value, x.wait_value);
		EXPECT_EQ(t[i].s.update_mode, x.update_mode);
		EXPECT_EQ(t[i].s.update_sem, x.update_sem);
		EXPECT_EQ(t[i].s.add_sem, x.add_sem);
		EXPECT_EQ(t[i].s.add_value, x.add_value);
		EXPECT_EQ(KBIN_PROG_NO_BLOCK, x.block);
		if (t[i].queue)
			EXPECT_STREQ(t[i].queue, (const char *)rec + 12);
	}
	/* the wait value is little-endian at 8..11; 0xDA's length byte 0 */
	memset(&x, 0, sizeof(x));
	x.opcode = 0xDA;
	x.wait_mode = KBIN_PROG_WAIT_GE;
	x.wait_value = 41631;
	kbin_prog_encode(rec, &x, NULL);
	EXPECT_EQ(0, rec[1]);
	EXPECT_EQ(0x9f, rec[8]);
	EXPECT_EQ(0xa2, rec[9]);
	/* a 0xD4's bytes 13 and 14 mean nothing on another opcode */
	rec[13] = 9;
	rec[14] = 9;
	kbin_prog_decode(rec, &x);
	EXPECT_EQ(0, x.add_sem);
	EXPECT_EQ(0, x.add_value);
}

TEST(stream_length_rule)
{
	__u32 n = 7;

	EXPECT_EQ(KBIN_OK, kbin_prog_stream_count(0, &n));
	EXPECT_EQ(0U, n);
	EXPECT_EQ(KBIN_OK, kbin_prog_stream_count(128, &n));
	EXPECT_EQ(2U, n);
	EXPECT_EQ(KBIN_ERR_PROG_COUNT, kbin_prog_stream_count(100, &n));
	EXPECT_EQ(KBIN_ERR_PROG_COUNT,
		  kbin_prog_stream_count(64ULL * 0x100000000ULL, &n));
}

TEST(names_of_every_program_reason_and_field)
{
	unsigned int r, f;

	for (r = KBIN_ERR_PROG_COUNT; r <= KBIN_ERR_PROG_SYNC; r++)
		EXPECT_STRNE("unknown reason", kbin_reason_str(r));
	EXPECT_LE(KBIN_ERR_CHECK_MAX, KBIN_ERR_STAGE_HBM);
	for (f = KBIN_FIELD_PROG_SECTION; f <= KBIN_FIELD_PROG_SP; f++)
		EXPECT_STRNE("unknown field", kbin_field_str(f));
	EXPECT_STREQ("trigger", kbin_prog_class_str(KBIN_PROG_CLASS_TRIGGER));
	EXPECT_STREQ("unknown", kbin_prog_class_str(9));
}

/* ---- the section's place and size ---- */

TEST_F(prog, section_misaligned)
{
	EXT()->prog_off += 4;
	REJECT_SEC(KBIN_ERR_MISALIGNED, KBIN_FIELD_PROG_SECTION);
}

TEST_F(prog, section_bounds)
{
	EXT()->prog_size += 8;
	REJECT_SEC(KBIN_ERR_BOUNDS, KBIN_FIELD_PROG_SECTION);
}

TEST_F(prog, section_overlaps)
{
	uint64_t size = EXT()->prog_size;

	EXT()->prog_off = 64;
	REJECT_SEC(KBIN_ERR_OVERLAP, KBIN_FIELD_PROG_SECTION);
	RESET();
	EXT()->prog_off = HDR()->subgraph_table_off;
	REJECT_SEC(KBIN_ERR_OVERLAP, KBIN_FIELD_PROG_SECTION);
	RESET();
	EXT()->prog_off = EXT()->dma_off;
	ASSERT_LE(EXT()->dma_off + size, HDR()->data_off);
	REJECT_SEC(KBIN_ERR_OVERLAP, KBIN_FIELD_PROG_SECTION);
	RESET();
	/* a set over the program section */
	tp_sg(self->buf, 1)->set_off = EXT()->prog_off;
	REJECT(KBIN_ERR_OVERLAP, 1, KBIN_FIELD_SET, -1, KBIN_PROG_WHY_NONE);
}

TEST_F(prog, section_size_and_counts)
{
	SEC()->num_instrs++;
	REJECT_SEC(KBIN_ERR_PROG_COUNT, KBIN_FIELD_PROG_SECTION);
	RESET();
	EXT()->prog_size = 16;
	REJECT_SEC(KBIN_ERR_PROG_COUNT, KBIN_FIELD_PROG_SECTION);
	RESET();
	EXT()->prog_size -= 80;
	REJECT_SEC(KBIN_ERR_PROG_COUNT, KBIN_FIELD_PROG_SECTION);
	RESET();
	/* records that are not whole 64-byte records */
	EXT()->prog_size -= 8;
	REJECT_SEC(KBIN_ERR_PROG_COUNT, KBIN_FIELD_PROG_SECTION);
	RESET();
	EXT()->prog_off = 0;
	REJECT_SEC(KBIN_ERR_PROG_COUNT, KBIN_FIELD_PROG_SECTION);
}

TEST_F(prog, section_reserved)
{
	SEC()->reserved[1] = 1;
	REJECT_SEC(KBIN_ERR_RESERVED, KBIN_FIELD_PROG_SECTION);
}

TEST_F(prog, stream_ranges)
{
	/* each stream follows the previous one */
	SEC()->sg[0].engine[ACT - 1].first++;
	REJECT(KBIN_ERR_PROG_COUNT, 0, KBIN_FIELD_PROG_ACT, -1, KBIN_PROG_WHY_NONE);
	RESET();
	SEC()->sg[1].engine[SP - 1].num = 0xffffffff;
	REJECT(KBIN_ERR_PROG_COUNT, 1, KBIN_FIELD_PROG_SP, -1, KBIN_PROG_WHY_NONE);
}

TEST(streams_fill_the_section)
{
	struct kbin_rec_in in = { .rec = { .mr_type = KBIN_MR_SB, .size = 4096,
					   .alignment = 1 }, .name = "SB" };
	struct kbin_prog_sync x = { .opcode = 0x01 };
	struct kbin_writer *w = kbin_writer_new(KBIN_TARGET_TRN2);
	struct kbin_check_result res;
	uint8_t rec[KBIN_PROG_RECORD_SIZE];
	void *buf;
	size_t len;

	ASSERT_NE(NULL, w);
	ASSERT_EQ(0, kbin_writer_add_subgraph(w, "sg00", 0, 0, NULL, 0));
	ASSERT_EQ(0, kbin_writer_add_record(w, 0, &in));
	kbin_prog_encode(rec, &x, NULL);
	ASSERT_EQ(0, kbin_writer_add_prog(w, 0, KBIN_DMA_ENGINE_SP, rec, sizeof(rec)));
	ASSERT_EQ(0, kbin_writer_finish(w, &buf, &len));
	kbin_writer_free(w);
	ASSERT_EQ(KBIN_OK, kbin_check_plan(buf, len, &res)) TH_LOG("%s", res.err.msg);
	/* the one instruction in no stream */
	tp_prog(buf)->sg[0].engine[KBIN_DMA_ENGINE_SP - 1].num = 0;
	kbin_fix_checksum(buf, len);
	EXPECT_EQ(KBIN_ERR_PROG_COUNT, kbin_check_plan(buf, len, &res));
	EXPECT_EQ(KBIN_FIELD_PROG_SECTION, res.err.field);
	EXPECT_NE(NULL, strstr(res.err.msg, "the streams hold 0 instructions; the program section says 1"))
		TH_LOG("%s", res.err.msg);
	free(buf);
}

TEST_F(prog, version_2_has_no_program_and_version_3_may_lack_one)
{
	struct kbin_view v;
	void *buf;
	size_t len;

	/* the same plan without its program is written as version 2 */
	ASSERT_EQ(0, tp_build(&buf, &len));
	EXPECT_EQ(2U, ((struct kbin_header *)buf)->version);
	ASSERT_EQ(0, kbin_read(buf, len, &v, &self->res));
	EXPECT_EQ(NULL, v.prog);
	free(buf);
	/* a version 3 plan with prog_off 0: valid, no program */
	EXT()->prog_off = 0;
	EXT()->prog_size = 0;
	kbin_fix_checksum(self->buf, self->len);
	ASSERT_EQ(KBIN_OK, kbin_check_plan(self->buf, self->len, &self->res))
		TH_LOG("%s", self->res.err.msg);
	EXPECT_EQ(0ULL, self->res.prog_instrs);
	/* version 2 with a program section: its fields are reserved */
	RESET();
	HDR()->version = 2;
	REJECT_SEC(KBIN_ERR_RESERVED, KBIN_FIELD_PROG_SECTION);
}

/* ---- the rules of kbin_prog_check_sg() ---- */

TEST_F(prog, unknown_wait_mode)
{
	REC(0, PE, 1)[4] = 7;
	REJECT(KBIN_ERR_PROG_MODE, 0, KBIN_FIELD_PROG_PE, 1, KBIN_PROG_WHY_WAIT_MODE);
	EXPECT_EQ(7ULL, self->res.err.value);
	EXPECT_NE(NULL, strstr(self->res.err.msg, "wait mode 7"));
	EXPECT_NE(NULL, strstr(self->res.err.msg, "pe instruction 1 (opcode 0xa0)"))
		TH_LOG("%s", self->res.err.msg);
}

TEST_F(prog, unknown_update_mode)
{
	REC(0, ACT, 0)[6] = 3;
	REJECT(KBIN_ERR_PROG_MODE, 0, KBIN_FIELD_PROG_ACT, 0,
	       KBIN_PROG_WHY_UPDATE_MODE);
	EXPECT_NE(NULL, strstr(self->res.err.msg, "update mode 3"));
}

TEST_F(prog, semaphore_past_the_neuroncore)
{
	REC(0, PE, 1)[5] = 128;
	REJECT(KBIN_ERR_PROG_SEMAPHORE, 0, KBIN_FIELD_PROG_PE, 1,
	       KBIN_PROG_WHY_WAIT_SEM);
	EXPECT_EQ(128ULL, self->res.prog.value);
	EXPECT_EQ(128ULL, self->res.prog.limit);
	RESET();
	REC(0, PE, 0)[7] = 200;
	REJECT(KBIN_ERR_PROG_SEMAPHORE, 0, KBIN_FIELD_PROG_PE, 0,
	       KBIN_PROG_WHY_UPDATE_SEM);
	RESET();
	REC(0, POOL, 2)[13] = 255;
	REJECT(KBIN_ERR_PROG_SEMAPHORE, 0, KBIN_FIELD_PROG_POOL, 2,
	       KBIN_PROG_WHY_DMA_SEM);
	RESET();
	/* the block SP's first trigger starts: semaphore set entry 0 */
	tp_block(self->buf, 0, TP_B_IO0)->semaphore = 128;
	((uint32_t *)((uint8_t *)self->buf + tp_queue(self->buf, 0, TP_Q_IO)->semaphores))[0] = 128;
	REJECT(KBIN_ERR_PROG_SEMAPHORE, 0, KBIN_FIELD_PROG_SP, 0,
	       KBIN_PROG_WHY_BLOCK_SEM);
	EXPECT_NE(NULL, strstr(self->res.err.msg, "block 0 of queue 'qSPIO0'"))
		TH_LOG("%s", self->res.err.msg);
}

TEST_F(prog, last_semaphore_and_mode_0_fields_accepted)
{
	/* semaphore 127 is the NeuronCore's last; a wait without mode names none */
	REC(0, PE, 1)[5] = 127;
	REC(0, PE, 1)[8] = 0;
	REC(0, PE, 2)[5] = 200;
	REFILL();
	kbin_fix_checksum(self->buf, self->len);
	EXPECT_EQ(KBIN_OK, kbin_check_plan(self->buf, self->len, &self->res))
		TH_LOG("%s", self->res.err.msg);
}

TEST_F(prog, trigger_queue_name)
{
	memset(REC(0, SP, 0) + 12, 'q', KBIN_PROG_QNAME_MAX);
	REJECT(KBIN_ERR_PROG_TRIGGER, 0, KBIN_FIELD_PROG_SP, 0, KBIN_PROG_WHY_NAME);
	EXPECT_NE(NULL, strstr(self->res.err.msg, "not NUL-terminated"));
	RESET();
	REC(0, SP, 0)[12] = 0;
	REJECT(KBIN_ERR_PROG_TRIGGER, 0, KBIN_FIELD_PROG_SP, 0, KBIN_PROG_WHY_NAME);
	EXPECT_NE(NULL, strstr(self->res.err.msg, "empty"));
	RESET();
	strcpy((char *)REC(0, SP, 1) + 12, "qNope");
	REJECT(KBIN_ERR_PROG_TRIGGER, 0, KBIN_FIELD_PROG_SP, 1,
	       KBIN_PROG_WHY_NO_QUEUE);
	EXPECT_NE(NULL, strstr(self->res.err.msg, "'qNope'"));
	EXPECT_STREQ("qNope", self->res.prog.qname);
}

TEST_F(prog, trigger_names_another_engines_queue)
{
	strcpy((char *)REC(0, SP, 0) + 12, "qPoolDynamic");
	REJECT(KBIN_ERR_PROG_TRIGGER, 0, KBIN_FIELD_PROG_SP, 0,
	       KBIN_PROG_WHY_OTHER_ENGINE);
	EXPECT_EQ((long long)TP_Q_DYN, self->res.prog.queue);
	EXPECT_NE(NULL, strstr(self->res.err.msg, "which pool owns, not sp"))
		TH_LOG("%s", self->res.err.msg);
}

TEST_F(prog, two_queues_of_one_name)
{
	tp_queue(self->buf, 0, TP_Q_DYN)->name = tp_queue(self->buf, 0, TP_Q_IO)->name;
	REJECT(KBIN_ERR_PROG_TRIGGER, 0, KBIN_FIELD_PROG_SECTION, -1,
	       KBIN_PROG_WHY_SAME_NAME);
	EXPECT_EQ(0ULL, self->res.prog.value);
	EXPECT_EQ(1ULL, self->res.prog.limit);
}

TEST(too_many_queues_for_a_program)
{
	static const uint32_t sem[] = { 1 };
	struct kbin_check_result res;
	struct kbin_dma_queue_in q = {
		.q = { .num_semaphores = 1, .type = KBIN_DMA_QUEUE_IN,
		       .owner = KBIN_DMA_ENGINE_SP, .num_queues = 1 },
		.semaphores = sem,
	};
	struct kbin_rec_in in = { .rec = { .mr_type = KBIN_MR_SB, .size = 4096,
					   .alignment = 1 }, .name = "SB" };
	uint8_t rec[KBIN_PROG_RECORD_SIZE];
	struct kbin_prog_sync x = { .opcode = 0x01 };
	struct kbin_writer *w = kbin_writer_new(KBIN_TARGET_TRN2);
	char name[16];
	void *buf;
	size_t len;
	int k;

	ASSERT_NE(NULL, w);
	ASSERT_EQ(0, kbin_writer_add_subgraph(w, "sg00", 0, 0, NULL, 0));
	ASSERT_EQ(0, kbin_writer_add_record(w, 0, &in));
	for (k = 0; k <= (int)KBIN_PROG_MAX_QUEUES; k++) {
		snprintf(name, sizeof(name), "q%d", k);
		q.name = name;
		ASSERT_EQ(k, kbin_writer_add_dma_queue(w, 0, &q));
	}
	kbin_prog_encode(rec, &x, NULL);
	ASSERT_EQ(0, kbin_writer_add_prog(w, 0, KBIN_DMA_ENGINE_PE, rec, sizeof(rec)));
	ASSERT_EQ(0, kbin_writer_finish(w, &buf, &len));
	kbin_writer_free(w);
	EXPECT_EQ(KBIN_ERR_PROG_TRIGGER, kbin_check_plan(buf, len, &res));
	EXPECT_EQ(KBIN_PROG_WHY_QUEUES, res.prog.why) TH_LOG("%s", res.err.msg);
	EXPECT_EQ(65ULL, res.prog.value);
	free(buf);
}

TEST_F(prog, extra_trigger)
{
	struct kbin_prog_sync x = { .opcode = KBIN_PROG_OP_TRIGGER };

	kbin_prog_encode(REC(0, SP, 2), &x, "qSPIO0");
	REJECT(KBIN_ERR_PROG_TRIGGER_COUNT, 0, KBIN_FIELD_PROG_SP, 2,
	       KBIN_PROG_WHY_EXTRA_TRIGGER);
	EXPECT_EQ(2ULL, self->res.prog.value);
	EXPECT_EQ(2ULL, self->res.prog.limit);
}

TEST_F(prog, missing_trigger)
{
	/* sp triggers qSPIO0 once, it has two blocks: refused at the end */
	REC(0, SP, 1)[0] = 0x01;
	REFILL();
	REJECT(KBIN_ERR_PROG_TRIGGER_COUNT, 0, KBIN_FIELD_PROG_SP, -1,
	       KBIN_PROG_WHY_MISSING_TRIGGERS);
	EXPECT_EQ((long long)TP_Q_IO, self->res.prog.queue);
	EXPECT_NE(NULL, strstr(self->res.err.msg,
			       "queue 'qSPIO0' has 2 blocks but the sp stream triggers it 1 times"))
		TH_LOG("%s", self->res.err.msg);
	RESET();
	/* sg 1 without its program: its queue's block is never started */
	REC(1, SP, 0)[0] = 0x01;
	REFILL();
	REJECT(KBIN_ERR_PROG_TRIGGER_COUNT, 1, KBIN_FIELD_PROG_SP, -1,
	       KBIN_PROG_WHY_MISSING_TRIGGERS);
}

TEST_F(prog, decoded_entry_must_be_its_records)
{
	SYNC(0, PE, 1)->wait_value = 2;
	REJECT(KBIN_ERR_PROG_SYNC, 0, KBIN_FIELD_PROG_PE, 1, KBIN_PROG_WHY_SYNC);
	EXPECT_STREQ("wait_value", self->res.prog.field);
	EXPECT_EQ(2ULL, self->res.prog.value);
	EXPECT_EQ(1ULL, self->res.prog.limit);
	RESET();
	/* the second trigger must start block 1, not block 0 */
	SYNC(0, SP, 1)->block = TP_B_IO0;
	REJECT(KBIN_ERR_PROG_SYNC, 0, KBIN_FIELD_PROG_SP, 1, KBIN_PROG_WHY_SYNC);
	EXPECT_STREQ("block", self->res.prog.field);
	RESET();
	SYNC(0, SP, 2)->cls = KBIN_PROG_CLASS_COMPUTE;
	REJECT(KBIN_ERR_PROG_SYNC, 0, KBIN_FIELD_PROG_SP, 2, KBIN_PROG_WHY_SYNC);
	EXPECT_STREQ("cls", self->res.prog.field);
	RESET();
	/* a changed record with its old entry: the rules hold, the entry not */
	REC(0, PE, 2)[0] = 0x03;
	REJECT(KBIN_ERR_PROG_SYNC, 0, KBIN_FIELD_PROG_PE, 2, KBIN_PROG_WHY_SYNC);
	REFILL();
	kbin_fix_checksum(self->buf, self->len);
	EXPECT_EQ(KBIN_OK, kbin_check_plan(self->buf, self->len, &self->res));
}

TEST(writer_program_arguments)
{
	uint8_t rec[KBIN_PROG_RECORD_SIZE] = { 0x01, 0x10 };
	struct kbin_writer *w = kbin_writer_new(KBIN_TARGET_TRN1);
	void *buf;
	size_t len;

	ASSERT_NE(NULL, w);
	ASSERT_EQ(0, kbin_writer_add_subgraph(w, "sg00", 0, 0, NULL, 0));
	EXPECT_EQ(-EINVAL, kbin_writer_add_prog(w, 0, 0, rec, 64));
	EXPECT_EQ(-EINVAL, kbin_writer_add_prog(w, 0, 6, rec, 64));
	EXPECT_EQ(-EINVAL, kbin_writer_add_prog(w, 1, 1, rec, 64));
	EXPECT_EQ(-EINVAL, kbin_writer_add_prog(w, 0, 1, rec, 63));
	EXPECT_EQ(-EINVAL, kbin_writer_add_prog(w, 0, 1, NULL, 64));
	EXPECT_EQ(0, kbin_writer_add_prog(w, 0, 1, rec, 64));
	/* a program does not fit a version 2 plan */
	EXPECT_EQ(0, kbin_writer_set_version(w, 2));
	EXPECT_EQ(-EINVAL, kbin_writer_finish(w, &buf, &len));
	EXPECT_EQ(-EINVAL, kbin_writer_set_version(w, 4));
	kbin_writer_free(w);
}

/* ---- the cost model ---- */

TEST(cost_model)
{
	const struct kbin_gen *trn1 = kbin_gen_target(KBIN_TARGET_TRN1);
	const struct kbin_gen *trn2 = kbin_gen_target(KBIN_TARGET_TRN2);

	EXPECT_EQ(128ULL, kbin_prog_instr_ns(KBIN_DMA_ENGINE_PE, KBIN_PROG_CLASS_COMPUTE));
	EXPECT_EQ(32ULL, kbin_prog_instr_ns(KBIN_DMA_ENGINE_SP, KBIN_PROG_CLASS_COMPUTE));
	EXPECT_EQ(8ULL, kbin_prog_instr_ns(KBIN_DMA_ENGINE_DVE, KBIN_PROG_CLASS_WAIT));
	EXPECT_EQ(16ULL, kbin_prog_instr_ns(KBIN_DMA_ENGINE_ACT, KBIN_PROG_CLASS_TRIGGER));
	EXPECT_EQ(64ULL, kbin_prog_instr_ns(KBIN_DMA_ENGINE_POOL, KBIN_PROG_CLASS_DMA));
	EXPECT_EQ(0ULL, kbin_prog_instr_ns(0, 0));
	EXPECT_EQ(0ULL, kbin_prog_instr_ns(KBIN_DMA_ENGINE_PE, 4));
	/* 500 ns, then the bytes at the generation's rate, rounded up */
	EXPECT_EQ(500ULL, kbin_prog_block_ns(trn2, 0));
	EXPECT_EQ(501ULL, kbin_prog_block_ns(trn2, 1));
	EXPECT_EQ(506ULL, kbin_prog_block_ns(trn2, 2048));
	EXPECT_EQ(1500ULL, kbin_prog_block_ns(trn2, 362500));
	EXPECT_EQ(1500ULL, kbin_prog_block_ns(trn1, 410000));
	EXPECT_EQ(~0ULL, kbin_prog_block_ns(trn2, ~0ULL));
	EXPECT_EQ(128U, trn2->semaphores);
}

/* ---- the host replay ---- */

static struct prog_replay *replay(struct __test_metadata *_metadata,
				  void *buf, size_t len,
				  const struct prog_replay_opts *o)
{
	struct kbin_check_result res;
	struct prog_replay *r = NULL;
	struct kbin_view v;

	kbin_fix_checksum(buf, len);
	if (kbin_read(buf, len, &v, &res)) {
		TH_LOG("%s", res.err.msg);
		return NULL;
	}
	if (prog_replay_plan(&v, o, &r))
		return NULL;
	return r;
}

TEST_F(prog, replay_runs_to_the_end)
{
	struct prog_replay *r = replay(_metadata, self->buf, self->len, NULL);
	const struct prog_replay_sg *s0, *s1;
	static const int32_t want0[128] = {
		[1] = 1, [2] = 1, [3] = 16, [4] = 1, [5] = 1,
		[24] = 2, [25] = 2, [40] = 1,
	};
	uint32_t k;

	ASSERT_NE(NULL, r);
	EXPECT_TRUE(r->finished);
	ASSERT_EQ(2U, r->nsg);
	EXPECT_EQ((uint64_t)(TP_PROG_SG0_N + TP_PROG_SG1_N), r->instrs);
	EXPECT_EQ(4ULL, r->blocks);
	s0 = &r->sg[0];
	s1 = &r->sg[1];
	ASSERT_EQ(128U, s0->nsems);
	for (k = 0; k < 128; k++)
		EXPECT_EQ(want0[k], s0->sems[k]) TH_LOG("sg 0 semaphore %u", k);
	for (k = 0; k < 128; k++)
		EXPECT_EQ(k == 8 ? 1 : 0, s1->sems[k]) TH_LOG("sg 1 semaphore %u", k);
	/* per engine: instructions by class and opcode */
	EXPECT_EQ(3U, s0->eng[PE - 1].done);
	EXPECT_EQ(2ULL, s0->eng[PE - 1].by_class[KBIN_PROG_CLASS_COMPUTE]);
	EXPECT_EQ(1ULL, s0->eng[PE - 1].by_class[KBIN_PROG_CLASS_WAIT]);
	EXPECT_EQ(1ULL, s0->eng[POOL - 1].by_class[KBIN_PROG_CLASS_DMA]);
	EXPECT_EQ(2ULL, s0->eng[SP - 1].by_class[KBIN_PROG_CLASS_TRIGGER]);
	EXPECT_EQ(2ULL, s0->eng[SP - 1].opcodes[KBIN_PROG_OP_TRIGGER]);
	/* per queue: every block, in id order */
	ASSERT_EQ(2U, s0->nq);
	EXPECT_STREQ("qSPIO0", s0->q[0].name);
	ASSERT_EQ(2U, s0->q[0].done);
	EXPECT_EQ(0U, s0->q[0].order[0]);
	EXPECT_EQ(1U, s0->q[0].order[1]);
	EXPECT_EQ(2048ULL + 128, s0->q[0].bytes);
	EXPECT_EQ(1U, s0->q[1].done);
	/*
	 * Virtual time by the cost model (Documentation/execute.rst): sp
	 * triggers at 0 and 16; qSPIO0's blocks take 506 ns (2048 bytes)
	 * from 16 and 501 ns (128 bytes) from 522; at 1023 semaphore 25
	 * reaches 2 and sp's 8 ns wait ends sg 0 at 1031.  sg 1: its block
	 * of 1024 bytes runs 16..519, pe's wait ends at 527.
	 */
	EXPECT_EQ(1031ULL, s0->end_ns);
	EXPECT_EQ(527ULL, s1->end_ns);
	EXPECT_EQ(1031ULL, r->end_ns);
	EXPECT_EQ(1007ULL, s0->q[0].busy_ns);
	EXPECT_EQ(594ULL + 64, s0->eng[DVE - 1].end_ns);
	prog_replay_free(r);
}

TEST_F(prog, replay_deadlock_says_where_each_engine_waits)
{
	struct prog_replay *r;
	const struct prog_replay_engine *pe;

	/* pe waits for semaphore 2 to reach 2; act adds 1 only */
	REC(0, PE, 1)[8] = 2;
	REFILL();
	r = replay(_metadata, self->buf, self->len, NULL);
	ASSERT_NE(NULL, r);
	EXPECT_FALSE(r->finished);
	EXPECT_FALSE(r->sg[0].finished);
	EXPECT_TRUE(r->sg[1].finished);
	pe = &r->sg[0].eng[PE - 1];
	EXPECT_TRUE(pe->waiting);
	EXPECT_EQ(1U, pe->done);
	EXPECT_EQ(KBIN_PROG_OP_WAIT, pe->opcode);
	EXPECT_EQ(2U, pe->wait_sem);
	EXPECT_EQ(2U, pe->wanted);
	EXPECT_EQ(1, pe->current);
	/* the others finished */
	EXPECT_FALSE(r->sg[0].eng[SP - 1].waiting);
	EXPECT_EQ(3U, r->sg[0].eng[SP - 1].done);
	prog_replay_free(r);
}

TEST_F(prog, replay_needs_num_queues_and_0xd4)
{
	struct prog_replay_opts plus1 = { .block_add = 1 };
	struct prog_replay_opts no_d4 = { .no_dma_add = 1 };
	struct prog_replay *r;

	/* +1 per block: qSPIO0's semaphore 25 stops at 1, sp waits for 2 */
	r = replay(_metadata, self->buf, self->len, &plus1);
	ASSERT_NE(NULL, r);
	EXPECT_FALSE(r->sg[0].finished);
	EXPECT_TRUE(r->sg[0].eng[SP - 1].waiting);
	EXPECT_EQ(25U, r->sg[0].eng[SP - 1].wait_sem);
	EXPECT_EQ(1, r->sg[0].eng[SP - 1].current);
	prog_replay_free(r);
	/* without 0xD4's increment dve waits for semaphore 3 forever */
	r = replay(_metadata, self->buf, self->len, &no_d4);
	ASSERT_NE(NULL, r);
	EXPECT_FALSE(r->sg[0].finished);
	EXPECT_TRUE(r->sg[0].eng[DVE - 1].waiting);
	EXPECT_EQ(3U, r->sg[0].eng[DVE - 1].wait_sem);
	prog_replay_free(r);
}

TEST_F(prog, replay_without_program_and_trace)
{
	struct prog_replay_opts o = { 0 };
	struct prog_replay *r;
	struct kbin_view v;
	char *text = NULL;
	size_t n = 0;
	void *buf;
	size_t len;

	ASSERT_EQ(0, tp_build(&buf, &len));
	ASSERT_EQ(0, kbin_read(buf, len, &v, &self->res));
	EXPECT_EQ(-ENODATA, prog_replay_plan(&v, NULL, &r));
	EXPECT_EQ(NULL, r);
	free(buf);
	/* the trace: one track per engine and queue, a flow per block */
	o.trace = open_memstream(&text, &n);
	ASSERT_NE(NULL, o.trace);
	ASSERT_EQ(0, kbin_read(self->buf, self->len, &v, &self->res));
	ASSERT_EQ(0, prog_replay_plan(&v, &o, &r));
	fclose(o.trace);
	ASSERT_NE(NULL, text);
	EXPECT_EQ(0, strncmp(text, "{\"displayTimeUnit\":\"ns\"", 23));
	EXPECT_NE(NULL, strstr(text, "\"name\":\"thread_name\",\"args\":{\"name\":\"dma qSPIO0\"}"));
	EXPECT_NE(NULL, strstr(text, "\"name\":\"trigger qSPIO0 #1\""));
	EXPECT_NE(NULL, strstr(text, "{\"ph\":\"f\",\"pid\":1,\"tid\":16,"));
	EXPECT_NE(NULL, strstr(text, "\"ts\":1.023,\"dur\":0.008"));
	EXPECT_EQ(0, strcmp(text + n - 4, "\n]}\n"));
	free(text);
	prog_replay_free(r);
}

TEST_HARNESS_MAIN
