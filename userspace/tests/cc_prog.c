// SPDX-License-Identifier: GPL-2.0
/*
 * cc_prog.c - the compiler's engine programs (Documentation/compiler.rst,
 * "Programs"; Documentation/execute.rst): a small synthetic trn1 NEFF
 * whose def.json names SP's and PE's instruction streams (SP triggers
 * queue qSPIO0's two blocks, PE waits for their semaphore) compiles into
 * a version 3 plan whose program section holds the records verbatim and
 * their decoded entries; then each refusal, one edit of that NEFF each,
 * with its errno and the message: the front end's (a stream that is not
 * whole 64-byte records, a missing member, def.json and the engine
 * member naming different streams) and the plan checker's verdict told
 * with the NEFF's names (the member, the def.json key, the instruction
 * index and opcode, the queue).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "cc_testutil.h"
#include "kbin_prog.h"
#include "kbin_writer.h"

/* SB 0, in 1 (a 128-byte input) and the queue qSPIO0 of SP */
#define DEF_HEAD \
	"{\"var\": {" CC_SB ", \"in\": {\"type\": \"input\", \"var_id\": 1, \"size\": 128}}," \
	" \"dma_queue\": {\"qSPIO0\": {\"type\": \"in\", \"owner\": \"sp\"," \
	" \"num_queues\": 16, \"semaphore_set\": [8]}}, \"sp\": \"SP.json\""

static const char def_both[] =
	DEF_HEAD ", \"sp_instr\": \"SP.bin\", \"pe_instr\": \"PE.bin\"}";

/* two blocks of one descriptor on semaphore 8 */
#define BLOCK(id) \
	"{\"id\": " #id ", \"queue\": \"qSPIO0\", \"semaphore\": 8, \"desc\": [" CC_DMA_DESC "]}"
static const char sp_json[] =
	"{\"name\": \"SP.json\", \"instr\": \"SP.bin\", \"dma\": [" BLOCK(0) ", " BLOCK(1) "]}";

struct prog_neff {
	const char *def;
	const char *sp_json;
	uint8_t sp[8][KBIN_PROG_RECORD_SIZE];
	size_t sp_bytes;
	uint8_t pe[4][KBIN_PROG_RECORD_SIZE];
	size_t pe_bytes;
	int no_sp_bin;
	char def_buf[512];
};

static void put(uint8_t *rec, uint8_t opcode, int wait_sem, uint32_t value,
		int update_sem, const char *queue)
{
	struct kbin_prog_sync s = { .opcode = opcode };

	if (wait_sem >= 0) {
		s.wait_mode = KBIN_PROG_WAIT_GE;
		s.wait_sem = (uint8_t)wait_sem;
		s.wait_value = value;
	}
	if (update_sem >= 0) {
		s.update_mode = KBIN_PROG_UPDATE_INC;
		s.update_sem = (uint8_t)update_sem;
	}
	kbin_prog_encode(rec, &s, queue);
}

/*
 * The valid program: SP triggers qSPIO0 twice, then updates semaphore 1;
 * PE waits for semaphore 8 >= 32 (two blocks of num_queues 16 each), then
 * computes.
 */
static void prog_valid(struct prog_neff *p)
{
	memset(p, 0, sizeof(*p));
	p->def = def_both;
	p->sp_json = sp_json;
	put(p->sp[0], KBIN_PROG_OP_TRIGGER, -1, 0, -1, "qSPIO0");
	put(p->sp[1], KBIN_PROG_OP_TRIGGER, -1, 0, -1, "qSPIO0");
	put(p->sp[2], 0xb1, -1, 0, 1, NULL);
	p->sp_bytes = 3 * KBIN_PROG_RECORD_SIZE;
	put(p->pe[0], KBIN_PROG_OP_WAIT, 8, 32, -1, NULL);
	put(p->pe[1], 0x01, -1, 0, 2, NULL);
	p->pe_bytes = 2 * KBIN_PROG_RECORD_SIZE;
}

/* the valid program whose def.json is DEF_HEAD, then @tail */
static void prog_def(struct prog_neff *p, const char *tail)
{
	prog_valid(p);
	snprintf(p->def_buf, sizeof(p->def_buf), "%s%s", DEF_HEAD, tail);
	p->def = p->def_buf;
}

static int prog_compile(const struct prog_neff *p, void **kbin, size_t *klen,
			struct nscc_err *err)
{
	struct nscc_neff_writer *w = cc_writer("sunda", p->def, NULL);

	*kbin = NULL;
	if (!w)
		return -ENOMEM;
	if (nscc_neff_writer_add_str(w, "sg00/SP.json", p->sp_json) ||
	    (!p->no_sp_bin && nscc_neff_writer_add(w, "sg00/SP.bin", p->sp, p->sp_bytes)) ||
	    nscc_neff_writer_add(w, "sg00/PE.bin", p->pe, p->pe_bytes)) {
		nscc_neff_writer_free(w);
		return -ENOMEM;
	}
	return cc_compile_writer(w, kbin, klen, err);
}

/*
 * compile @_p and expect @_code with exactly the message @_msg; a failure
 * names the case @_case
 */
#define EXPECT_REFUSED_CASE(_case, _p, _code, _msg) do {			\
	struct nscc_err _e = { "" };						\
	void *_k;								\
	size_t _l;								\
										\
	EXPECT_EQ((_code), prog_compile((_p), &_k, &_l, &_e))			\
		TH_LOG("%s: %s", (_case), _e.msg);				\
	EXPECT_EQ(NULL, _k) TH_LOG("%s", (_case));				\
	EXPECT_STREQ((_msg), _e.msg) TH_LOG("%s", (_case));			\
} while (0)
#define EXPECT_REFUSED(_p, _code, _msg) EXPECT_REFUSED_CASE("", _p, _code, _msg)

TEST(valid_program_compiles_into_the_program_section)
{
	struct nscc_err err = { "" };
	struct kbin_check_result res;
	struct kbin_prog_sg_view pv;
	struct prog_neff p;
	struct kbin_view v;
	void *kbin;
	size_t len;

	prog_valid(&p);
	ASSERT_EQ(0, prog_compile(&p, &kbin, &len, &err)) TH_LOG("%s", err.msg);
	ASSERT_EQ(0, kbin_read(kbin, len, &v, &res)) TH_LOG("%s", res.err.msg);
	EXPECT_EQ(KBIN_VERSION, v.hdr->version);
	EXPECT_EQ(5ULL, res.prog_instrs);
	ASSERT_EQ(0, kbin_view_prog_sg(&v, 0, &pv));
	EXPECT_EQ(2U, pv.num[KBIN_DMA_ENGINE_PE - 1]);
	EXPECT_EQ(3U, pv.num[KBIN_DMA_ENGINE_SP - 1]);
	EXPECT_EQ(0U, pv.num[KBIN_DMA_ENGINE_ACT - 1]);
	/* the records verbatim, the entries decoded, triggers resolved */
	EXPECT_EQ(0, memcmp(pv.records[KBIN_DMA_ENGINE_SP - 1], p.sp, p.sp_bytes));
	EXPECT_EQ(0, memcmp(pv.records[KBIN_DMA_ENGINE_PE - 1], p.pe, p.pe_bytes));
	EXPECT_EQ(0U, pv.sync[KBIN_DMA_ENGINE_SP - 1][0].block);
	EXPECT_EQ(1U, pv.sync[KBIN_DMA_ENGINE_SP - 1][1].block);
	EXPECT_EQ(32U, pv.sync[KBIN_DMA_ENGINE_PE - 1][0].wait_value);
	free(kbin);
}

TEST(a_neff_without_streams_has_no_program)
{
	struct nscc_err err = { "" };
	struct kbin_check_result res;
	struct prog_neff p;
	struct kbin_view v;
	void *kbin;
	size_t len;

	prog_def(&p, "}");
	p.sp_json = "{\"name\": \"SP.json\", \"dma\": []}";
	p.no_sp_bin = 1;
	ASSERT_EQ(0, prog_compile(&p, &kbin, &len, &err)) TH_LOG("%s", err.msg);
	ASSERT_EQ(0, kbin_read(kbin, len, &v, &res)) TH_LOG("%s", res.err.msg);
	EXPECT_EQ(2U, v.hdr->version);
	EXPECT_EQ(NULL, v.prog);
	free(kbin);
}

TEST(the_engine_members_instr_names_the_stream_too)
{
	struct nscc_err err = { "" };
	struct prog_neff p;
	void *kbin;
	size_t len;

	/* no sp_instr in def.json: SP.json's "instr" names SP.bin */
	prog_def(&p, ", \"pe_instr\": \"PE.bin\"}");
	ASSERT_EQ(0, prog_compile(&p, &kbin, &len, &err)) TH_LOG("%s", err.msg);
	free(kbin);
	/* the two disagree */
	p.def = def_both;
	p.sp_json = "{\"name\": \"SP.json\", \"instr\": \"SP2.bin\", \"dma\": []}";
	EXPECT_REFUSED(&p, -EINVAL,
		       "sg00: def.json field 'sp_instr' names 'SP.bin' but sg00/SP.json's 'instr' names 'SP2.bin'");
}

TEST(stream_member_refusals)
{
	struct prog_neff p;

	prog_valid(&p);
	p.sp_bytes = 100;
	EXPECT_REFUSED(&p, -EINVAL,
		       "sg00: sg00/SP.bin: 100 bytes are not a whole number of 64-byte instruction records (program counts disagree)");
	prog_valid(&p);
	p.no_sp_bin = 1;
	EXPECT_REFUSED(&p, -ENOENT,
		       "sg00: def.json field 'sp_instr': member 'sg00/SP.bin' is missing from the NEFF");
	prog_def(&p, ", \"sp_instr\": 7}");
	EXPECT_REFUSED(&p, -EINVAL,
		       "sg00: def.json field 'sp_instr' is not a member name");
}

/*
 * The checker's verdicts, with the NEFF's names: one edit of the valid
 * program each, all refused with -EINVAL.  Record @rec of SP's stream
 * (PE's with @pe) becomes the instruction @opcode (triggering @queue, if
 * named) with no wait or update; or, where @byte is not 0, only that
 * byte of the record becomes @value.
 */
static const struct {
	const char *name;
	int pe, rec;
	uint8_t opcode;
	const char *queue;
	int byte;
	uint8_t value;
	const char *msg;
} checker_refusals[] = {
	{ "one trigger for two blocks", .rec = 1, .opcode = 0xb1,
	  .msg = "sg00: sg00/SP.bin (def.json 'sp_instr'): queue 'qSPIO0' has 2 blocks but the sp stream triggers it 1 times (triggers are not the queue's blocks)" },
	{ "three triggers for two blocks", .rec = 2,
	  .opcode = KBIN_PROG_OP_TRIGGER, .queue = "qSPIO0",
	  .msg = "sg00: sg00/SP.bin (def.json 'sp_instr'): instruction 2 (opcode 0xc1): trigger 2 of queue 'qSPIO0' (counting from 0) has no block: the queue has 2 (triggers are not the queue's blocks)" },
	{ "trigger of no queue", .rec = 1,
	  .opcode = KBIN_PROG_OP_TRIGGER, .queue = "qSPIO9",
	  .msg = "sg00: sg00/SP.bin (def.json 'sp_instr'): instruction 1 (opcode 0xc1): the trigger names queue 'qSPIO9', which is not a DMA queue of the subgraph (trigger names no queue of its engine)" },
	{ "PE triggers SP's queue", .pe = 1, .rec = 1,
	  .opcode = KBIN_PROG_OP_TRIGGER, .queue = "qSPIO0",
	  .msg = "sg00: sg00/PE.bin (def.json 'pe_instr'): instruction 1 (opcode 0xc1): the trigger names queue 'qSPIO0', which sp owns, not pe (trigger names no queue of its engine)" },
	{ "unknown wait mode", .pe = 1, .rec = 0, .byte = 4, .value = 7,
	  .msg = "sg00: sg00/PE.bin (def.json 'pe_instr'): instruction 0 (opcode 0xa0): wait mode 7 (record byte 4) is not 0 (none) or 5 (semaphore >= value) (unknown wait or update mode)" },
	{ "unknown update mode", .rec = 2, .byte = 6, .value = 18,
	  .msg = "sg00: sg00/SP.bin (def.json 'sp_instr'): instruction 2 (opcode 0xb1): update mode 18 (record byte 6) is not 0 (none) or 19 (semaphore += 1 on completion) (unknown wait or update mode)" },
	{ "wait on a semaphore past the core's", .pe = 1, .rec = 0, .byte = 5, .value = 128,
	  .msg = "sg00: sg00/PE.bin (def.json 'pe_instr'): instruction 0 (opcode 0xa0): it waits on semaphore 128, past the NeuronCore's 128 semaphores (semaphore past the NeuronCore's semaphores)" },
};

TEST(checker_refusals_name_the_member_and_instruction)
{
	size_t i;

	for (i = 0; i < sizeof(checker_refusals) / sizeof(checker_refusals[0]); i++) {
		const typeof(checker_refusals[0]) *c = &checker_refusals[i];
		struct prog_neff p;
		uint8_t *rec;

		prog_valid(&p);
		rec = c->pe ? p.pe[c->rec] : p.sp[c->rec];
		if (c->byte)
			rec[c->byte] = c->value;
		else
			put(rec, c->opcode, -1, 0, -1, c->queue);
		EXPECT_REFUSED_CASE(c->name, &p, -EINVAL, c->msg);
	}
}

TEST(model_api_streams)
{
	uint8_t rec[KBIN_PROG_RECORD_SIZE];
	struct nscc_err err = { "" };
	struct kbin_check_result res;
	struct nscc_model *m = nscc_model_new(KBIN_TARGET_TRN1);
	struct nscc_var *v;
	struct kbin_view kv;
	void *kbin;
	size_t len;
	int sg;

	ASSERT_NE(NULL, m);
	sg = nscc_model_add_subgraph(m, "sg00");
	ASSERT_EQ(0, sg);
	v = nscc_model_add_var(m, sg, "SB", 0, KBIN_MR_SB);
	ASSERT_NE(NULL, v);
	put(rec, 0x01, -1, 0, 3, NULL);
	EXPECT_EQ(-EINVAL, nscc_model_set_prog(m, sg, KBIN_DMA_ENGINE_ACT, rec, 63,
					       NULL, &err));
	EXPECT_STREQ("sg00: the act stream: 63 bytes are not a whole number of 64-byte instruction records (program counts disagree)",
		     err.msg);
	EXPECT_EQ(-EINVAL, nscc_model_set_prog(m, sg, 6, rec, 64, NULL, &err));
	ASSERT_EQ(0, nscc_model_set_prog(m, sg, KBIN_DMA_ENGINE_ACT, rec, 64,
					 "act.bin", &err));
	ASSERT_EQ(0, nscc_compile_model(m, &kbin, &len, &err)) TH_LOG("%s", err.msg);
	ASSERT_EQ(0, kbin_read(kbin, len, &kv, &res)) TH_LOG("%s", res.err.msg);
	EXPECT_EQ(1ULL, res.prog_instrs);
	free(kbin);
	/* a semaphore past the core's, named by the model's member name */
	rec[7] = 130;
	ASSERT_EQ(0, nscc_model_set_prog(m, sg, KBIN_DMA_ENGINE_ACT, rec, 64,
					 "act.bin", &err));
	EXPECT_STREQ("sg00: act.bin (def.json 'act_instr'): instruction 0 (opcode 0x01): it updates semaphore 130, past the NeuronCore's 128 semaphores (semaphore past the NeuronCore's semaphores)",
		     cc_model_refusal(m, &err));
	nscc_model_free(m);
}

TEST_HARNESS_MAIN
