// SPDX-License-Identifier: GPL-2.0
/*
 * cc_dma.c - the compiler's DMA programs (Documentation/relocation.rst):
 * a small synthetic trn2 NEFF with three DMA queues and blocks in two
 * engine members (SP.json, Pool.json) compiles into a plan whose DMA
 * section holds exactly them (grouped by queue, semaphore indices, piece
 * totals); then each refusal of the front end and of the compiler's DMA
 * rules, one synthetic NEFF each (the valid one with one edit), with its
 * errno and a message naming the member, queue, block, descriptor, side,
 * variable and numbers; the DMA element types agree with the compiler's
 * dtype table.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "cc_testutil.h"
#include "kbin_dma.h"
#include "nscc_internal.h"

#define EVT "\"runtime_statebuffer_reservation\": [{\"type\": \"evtaccel\"," \
	" \"offset\": 229368, \"size\": 8, \"base_partition\": 0, \"partitions\": 128}]"

/* vars: SB 0, x 1 (4096 B in), y 2 (4096 B out), w 3 (64 B file), v 4, t 5 */
#define VARS \
	"\"var\": {" CC_SB "," \
	" \"x\": {\"type\": \"input\", \"var_id\": 1, \"size\": 4096}," \
	" \"y\": {\"type\": \"output\", \"var_id\": 2, \"size\": 4096}," \
	" \"w\": {\"type\": \"file\", \"var_id\": 3, \"size\": 64, \"file_name\": \"w.npy\"}," \
	" \"v\": {\"type\": \"virtual\", \"var_id\": 4, \"size\": 1024, \"backing_variable_off\": 0}," \
	" \"t\": {\"type\": \"dge-table\", \"var_id\": 5, \"list\": [1]}}"

#define QUEUES \
	"\"dma_queue\": {" \
	"\"qSPIO0\": {\"type\": \"in\", \"owner\": \"sp\", \"num_queues\": 2," \
	" \"semaphore_set\": [24, 25], \"fabric_path\": \"main\"}," \
	" \"qPoolIO0\": {\"type\": \"in\", \"owner\": \"pool\", \"num_queues\": 1," \
	" \"semaphore_set\": [40]}," \
	" \"qPoolDyn\": {\"type\": \"dynamic\", \"owner\": \"pool\", \"num_queues\": 1," \
	" \"semaphore_set\": [41], \"dynamic_dma\": {\"SB_scratch_partition_offset\": 0," \
	" \"SB_scratch_partition_size\": 16384}}}"

static const char base_def[] =
	"{" EVT ", " VARS ", " QUEUES ", \"sp\": \"SP.json\", \"pool\": \"Pool.json\"}";

/* x [512, 8] -> 8 partitions of SB; w 16 float32 -> v 16 float16 */
static const char base_sp[] =
	"{\"name\": \"sp\", \"dma\": ["
	"{\"#comment\": \"b0\", \"id\": 0, \"queue\": \"qSPIO0\", \"semaphore\": 24, \"desc\": ["
	"{\"op\": \"copy\", \"from\": \"x\", \"from_dtype\": \"float32\", \"from_off\": 0,"
	" \"from_sizes\": [512, 8], \"from_steps\": [1, 512], \"num_tiling_dimensions\": 1,"
	" \"to\": \"SB\", \"to_dtype\": \"float32\", \"to_off\": 0,"
	" \"to_sizes\": [512, 8], \"to_steps\": [1, 262144]}]},"
	"{\"#comment\": \"b1\", \"id\": 1, \"queue\": \"qSPIO0\", \"semaphore\": 25, \"desc\": ["
	"{\"op\": \"cast\", \"from\": \"w\", \"from_dtype\": \"float32\", \"from_off\": 0,"
	" \"from_sizes\": [64], \"from_steps\": [1],"
	" \"to\": \"v\", \"to_dtype\": \"float16\", \"to_off\": 0,"
	" \"to_sizes\": [32], \"to_steps\": [1]}]}]}";

/* the last 512 bytes of 8 partitions -> y; a transpose x -> SB */
static const char base_pool[] =
	"{\"name\": \"pool\", \"dma\": ["
	"{\"#comment\": \"p0\", \"id\": 0, \"queue\": \"qPoolIO0\", \"semaphore\": 40, \"desc\": ["
	"{\"op\": \"copy\", \"from\": \"SB\", \"from_dtype\": \"float32\", \"from_off\": 228864,"
	" \"from_sizes\": [512, 8], \"from_steps\": [1, 262144],"
	" \"to\": \"y\", \"to_dtype\": \"float32\", \"to_off\": 0,"
	" \"to_sizes\": [512, 8], \"to_steps\": [1, 512]},"
	"{\"from\": \"x\", \"from_dtype\": \"float32\", \"from_off\": 0,"
	" \"from_sizes\": [256, 4], \"from_steps\": [1, 256], \"num_tiling_dimensions\": 2,"
	" \"to\": \"SB\", \"to_dtype\": \"float32\", \"to_off\": 4096,"
	" \"to_sizes\": [512, 2], \"to_steps\": [1, 262144],"
	" \"transpose_op\": \"WZXY\", \"transpose_shape\": [1, 1, 16, 16],"
	" \"transpose_element_size\": 4}]}]}";

/* @s with the first @find replaced by @repl (malloc'd); NULL if absent */
static char *edit(const char *s, const char *find, const char *repl)
{
	const char *at = find ? strstr(s, find) : NULL;
	size_t n = strlen(s), f, r;
	char *o;

	if (!find)
		return strdup(s);
	if (!at)
		return NULL;
	f = strlen(find);
	r = strlen(repl);
	o = malloc(n - f + r + 1);
	if (!o)
		return NULL;
	memcpy(o, s, at - s);
	memcpy(o + (at - s), repl, r);
	strcpy(o + (at - s) + r, at + f);
	return o;
}

/* compile the NEFF of @def, @sp, @pool (members sg00/SP.json, Pool.json) */
static int compile_dma(const char *def, const char *sp, const char *pool,
		       void **kbin, size_t *klen, struct nscc_err *err)
{
	struct nscc_neff_writer *w = cc_writer("cayman", def, NULL);

	*kbin = NULL;
	if (!w || nscc_neff_writer_add_str(w, "sg00/SP.json", sp) ||
	    nscc_neff_writer_add_str(w, "sg00/Pool.json", pool)) {
		nscc_neff_writer_free(w);
		return -ENOMEM;
	}
	return cc_compile_writer(w, kbin, klen, err);
}

TEST(valid_program_compiles_into_the_dma_section)
{
	struct nscc_err err = { "" };
	struct kbin_check_result res;
	struct kbin_dma_sg_view dv;
	struct kbin_view v;
	void *kbin;
	size_t len;

	ASSERT_EQ(0, compile_dma(base_def, base_sp, base_pool, &kbin, &len, &err))
		TH_LOG("%s", err.msg);
	ASSERT_EQ(0, kbin_read(kbin, len, &v, &res)) TH_LOG("%s", res.err.msg);
	/* a DMA program and no engine program: version 2 */
	EXPECT_EQ(KBIN_VERSION_PROG - 1, v.hdr->version);
	ASSERT_EQ(0, kbin_view_dma_sg(&v, 0, &dv));
	ASSERT_EQ(3U, dv.num_queues);
	ASSERT_EQ(3U, dv.num_blocks);
	ASSERT_EQ(4U, dv.num_descs);
	/* queues in def.json order, blocks grouped by queue */
	EXPECT_STREQ("qSPIO0", kbin_view_str(&v, dv.queues[0].name));
	EXPECT_STREQ("main", kbin_view_str(&v, dv.queues[0].fabric_path));
	EXPECT_EQ(KBIN_DMA_ENGINE_SP, dv.queues[0].owner);
	EXPECT_EQ(2U, dv.queues[0].num_blocks);
	EXPECT_STREQ("qPoolIO0", kbin_view_str(&v, dv.queues[1].name));
	EXPECT_EQ(1U, dv.queues[1].num_blocks);
	EXPECT_EQ(KBIN_DMA_QUEUE_DYNAMIC, dv.queues[2].type);
	EXPECT_EQ(KBIN_DMA_QF_DYNAMIC, dv.queues[2].flags);
	EXPECT_EQ(16384U, dv.queues[2].sb_scratch_size);
	EXPECT_EQ(0U, dv.queues[2].num_blocks);
	EXPECT_EQ(0U, dv.blocks[0].queue);
	EXPECT_EQ(1U, dv.blocks[1].id);
	EXPECT_EQ(25U, dv.blocks[1].semaphore);
	EXPECT_EQ(1U, dv.blocks[1].sem_index);
	EXPECT_STREQ("b1", kbin_view_str(&v, dv.blocks[1].comment));
	EXPECT_EQ(1U, dv.blocks[2].queue);
	EXPECT_EQ(2U, dv.blocks[2].num_descs);
	/* descriptors by var_id; the transpose */
	EXPECT_EQ(1U, dv.descs[0].from.var_id);
	EXPECT_EQ(0U, dv.descs[0].to.var_id);
	EXPECT_EQ(KBIN_DMA_OP_CAST, dv.descs[1].op);
	EXPECT_EQ(KBIN_DMA_DTYPE_FLOAT16, dv.descs[1].to.dtype);
	EXPECT_EQ(KBIN_DMA_OP_TRANSPOSE, dv.descs[3].op);
	EXPECT_EQ(0, memcmp("WZXY", dv.descs[3].transpose_op, 4));
	EXPECT_EQ(16U, dv.descs[3].transpose_shape[3]);
	EXPECT_EQ(2U, dv.descs[3].num_tiling_dims);
	/* 8 + 1 + 8 + 4 runs read, 8 + 1 + 8 + 2 written */
	EXPECT_EQ(4ULL, res.dma_descs);
	EXPECT_EQ(21ULL, res.dma_m2s_pieces);
	EXPECT_EQ(19ULL, res.dma_s2m_pieces);
	free(kbin);
}

/*
 * A copy is a byte stream, not a shape: a real descriptor gathers two
 * SBUF partitions into one run (from_sizes [4, 2], to_sizes [8, 1]); a
 * scatter the other way, runs cut across each other, a cast whose runs
 * differ in number; each compiles, and its M2S and S2M pieces differ.
 */
TEST(gathers_and_scatters_compile)
{
	static const struct {
		const char *name, *find, *repl;
		unsigned long long m2s, s2m;
	} cases[] = {
		{ "gather of two partitions into one run",
		  "\"from_sizes\": [512, 8], \"from_steps\": [1, 262144],"
		  " \"to\": \"y\", \"to_dtype\": \"float32\", \"to_off\": 0,"
		  " \"to_sizes\": [512, 8], \"to_steps\": [1, 512]",
		  "\"from_sizes\": [4, 2], \"from_steps\": [1, 262144],"
		  " \"to\": \"y\", \"to_dtype\": \"float32\", \"to_off\": 0,"
		  " \"to_sizes\": [8, 1], \"to_steps\": [1, 8]", 2 + 1 + 4, 1 + 1 + 2 },
		{ "scatter of one run into eight rows",
		  "\"from_off\": 228864,"
		  " \"from_sizes\": [512, 8], \"from_steps\": [1, 262144],"
		  " \"to\": \"y\", \"to_dtype\": \"float32\", \"to_off\": 0,"
		  " \"to_sizes\": [512, 8], \"to_steps\": [1, 512]",
		  "\"from_off\": 0, \"from_sizes\": [4096], \"from_steps\": [1],"
		  " \"to\": \"y\", \"to_dtype\": \"float32\", \"to_off\": 0,"
		  " \"to_sizes\": [512, 8], \"to_steps\": [1, 512]", 1 + 1 + 4, 8 + 1 + 2 },
		{ "runs cut across each other, 4 dims into 3",
		  "\"from_sizes\": [512, 8], \"from_steps\": [1, 262144],"
		  " \"to\": \"y\", \"to_dtype\": \"float32\", \"to_off\": 0,"
		  " \"to_sizes\": [512, 8], \"to_steps\": [1, 512]",
		  "\"from_sizes\": [12, 2, 4, 2], \"from_steps\": [1, 12, 262144, 24],"
		  " \"to\": \"y\", \"to_dtype\": \"float32\", \"to_off\": 0,"
		  " \"to_sizes\": [8, 3, 8], \"to_steps\": [1, 16, 64]", 16 + 1 + 4, 24 + 1 + 2 },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *pool = edit(base_pool, cases[i].find, cases[i].repl);
		struct nscc_err err = { "" };
		struct kbin_check_result res;
		void *kbin;
		size_t len;

		ASSERT_NE(NULL, pool) TH_LOG("%s", cases[i].name);
		ASSERT_EQ(0, compile_dma(base_def, base_sp, pool, &kbin, &len, &err))
			TH_LOG("%s: %s", cases[i].name, err.msg);
		ASSERT_EQ(KBIN_OK, kbin_check_plan(kbin, len, &res));
		/* descriptor 0 of Pool.json; SP.json's two; the transpose */
		EXPECT_EQ(8 + cases[i].m2s, res.dma_m2s_pieces) TH_LOG("%s", cases[i].name);
		EXPECT_EQ(8 + cases[i].s2m, res.dma_s2m_pieces) TH_LOG("%s", cases[i].name);
		free(kbin);
		free(pool);
	}
}

/*
 * One refusal: the valid NEFF with @find replaced by @repl in member
 * @which (d def.json, s SP.json, p Pool.json); compile fails with @code
 * and a message holding @msg.
 */
struct refusal {
	const char *name;
	char which;
	const char *find;
	const char *repl;
	int code;
	const char *msg;
};

static const struct refusal refusals[] = {
	/* front end: names no table knows, JSON shapes */
	{ "unknown queue", 's', "\"queue\": \"qSPIO0\", \"semaphore\": 25",
	  "\"queue\": \"qNope\", \"semaphore\": 25", -EINVAL,
	  "sg00/SP.json: dma[1]: unknown queue 'qNope' (not in sg00's dma_queue)" },
	{ "unknown variable", 'p', "\"from\": \"SB\"", "\"from\": \"nosuch\"", -EINVAL,
	  "sg00/Pool.json: dma[0] (queue 'qPoolIO0', id 0): desc[0]: from: unknown variable 'nosuch'" },
	{ "unknown dtype", 's', "\"from_dtype\": \"float32\"", "\"from_dtype\": \"float8\"",
	  -EINVAL, "sg00/SP.json: dma[0] (queue 'qSPIO0', id 0): desc[0]: from_dtype: unknown dtype 'float8'" },
	{ "unknown op", 's', "\"op\": \"copy\"", "\"op\": \"move\"", -EINVAL,
	  "desc[0]: unknown op 'move'" },
	{ "no op, no transpose_op", 's', "\"op\": \"copy\",", "", -EINVAL,
	  "desc[0]: no field 'op' and no 'transpose_op'" },
	{ "op with transpose_op", 'p', "{\"from\": \"x\"", "{\"op\": \"copy\", \"from\": \"x\"",
	  -EINVAL, "desc[1]: op 'copy' with a transpose_op" },
	{ "sizes and steps lengths differ", 's', "\"from_steps\": [1, 512]",
	  "\"from_steps\": [1, 512, 4]", -EINVAL,
	  "desc[0]: from_sizes has 2 entries but from_steps has 3" },
	{ "5 dims", 's', "\"from_sizes\": [512, 8], \"from_steps\": [1, 512]",
	  "\"from_sizes\": [512, 8, 1, 1, 1], \"from_steps\": [1, 512, 0, 0, 0]", -EINVAL,
	  "desc[0]: from_sizes has 5 entries, allowed 1..4" },
	{ "0 dims", 's', "\"to_sizes\": [32], \"to_steps\": [1]",
	  "\"to_sizes\": [], \"to_steps\": []", -EINVAL,
	  "dma[1] (queue 'qSPIO0', id 1): desc[0]: to_sizes has 0 entries, allowed 1..4" },
	{ "negative offset", 's', "\"from_off\": 0", "\"from_off\": -4", -EINVAL,
	  "desc[0]: from_off -4 is negative" },
	{ "num_tiling_dimensions over 4", 's', "\"num_tiling_dimensions\": 1",
	  "\"num_tiling_dimensions\": 5", -EINVAL,
	  "desc[0]: num_tiling_dimensions 5 is over the maximum 4" },
	{ "block without desc", 'p', "\"semaphore\": 40, \"desc\": [",
	  "\"semaphore\": 40, \"descs\": [", -EINVAL,
	  "sg00/Pool.json: dma[0] (queue 'qPoolIO0', id 0): field 'desc' is missing or not an array" },
	{ "unknown queue type", 'd', "\"type\": \"in\"", "\"type\": \"out\"", -EINVAL,
	  "sg00: dma_queue 'qSPIO0': unknown type 'out' (in, data, dynamic)" },
	{ "unknown owner", 'd', "\"owner\": \"pool\"", "\"owner\": \"tpb\"", -EINVAL,
	  "sg00: dma_queue 'qPoolIO0': unknown owner 'tpb'" },
	{ "missing engine member", 'd', "\"pool\": \"Pool.json\"",
	  "\"pool\": \"Gone.json\"", -ENOENT,
	  "sg00: def.json field 'pool': member 'sg00/Gone.json' is missing from the NEFF" },
	/* the compiler's rules */
	{ "owner mismatch", 'p', "\"queue\": \"qPoolIO0\", \"semaphore\": 40",
	  "\"queue\": \"qSPIO0\", \"semaphore\": 40", -EINVAL,
	  "sg00/Pool.json: queue 'qSPIO0' block 0 ('p0'): the block is in pool's member but queue 'qSPIO0' is owned by sp" },
	{ "semaphore outside the set", 's', "\"semaphore\": 25", "\"semaphore\": 26",
	  -EINVAL,
	  "sg00/SP.json: queue 'qSPIO0' block 1 ('b1'): semaphore 26 is not in the queue's semaphore_set (2 entries from 24)" },
	{ "block ids not 0..n-1", 's', "\"id\": 1", "\"id\": 2", -EINVAL,
	  "sg00/SP.json: queue 'qSPIO0' block 2 ('b1'): id 2 is not its place 1 in the queue (ids run 0..1) (DMA block out of order)" },
	{ "block ids out of file order", 's', "\"id\": 0", "\"id\": 1", -EINVAL,
	  "sg00/SP.json: queue 'qSPIO0' block 1 ('b0'): id 1 is not its place 0 in the queue (ids run 0..1) (DMA block out of order)" },
	{ "steps[0] not 1", 's', "\"from_steps\": [1, 512]", "\"from_steps\": [2, 512]",
	  -EINVAL,
	  "sg00/SP.json: queue 'qSPIO0' block 0 ('b0'): descriptor 0: from 'x' (var_id 1): steps[0] = 2, not 1 (innermost step is not 1)" },
	{ "size 0", 'p', "\"to_sizes\": [512, 2]", "\"to_sizes\": [512, 0]", -EINVAL,
	  "sg00/Pool.json: queue 'qPoolIO0' block 0 ('p0'): descriptor 1: to 'SB' (var_id 0): 2 dims with sizes[1] = 0; dims must be 1..4, sizes at least 1 (bad access pattern dimensions)" },
	{ "one byte past the variable", 's', "\"from_off\": 0, \"from_sizes\": [512, 8]",
	  "\"from_off\": 1, \"from_sizes\": [512, 8]", -EINVAL,
	  "sg00/SP.json: queue 'qSPIO0' block 0 ('b0'): descriptor 0: from var_id 1 'x': extent 4097 is past its 4096 bytes (access pattern outside its variable)" },
	{ "extent overflow", 'p', "\"to_steps\": [1, 512]",
	  "\"to_steps\": [1, 9223372036854775807]", -EINVAL,
	  "sg00/Pool.json: queue 'qPoolIO0' block 0 ('p0'): descriptor 0: to 'y' (var_id 2): offset 0 + (sizes[1] - 1) * steps[1] overflows (access pattern outside its variable)" },
	{ "SBUF run past the partition", 'p', "\"from_off\": 228864", "\"from_off\": 228865",
	  -EINVAL,
	  "sg00/Pool.json: queue 'qPoolIO0' block 0 ('p0'): descriptor 0: from 'SB' (var_id 0): var_id 0: a run of 512 bytes at byte 228865 of SBUF partition 0 ends at 229377, past the 229376-byte partition (SBUF run past its partition)" },
	{ "SBUF dimension in the gap", 's',
	  "\"from_sizes\": [512, 8], \"from_steps\": [1, 512], \"num_tiling_dimensions\": 1,"
	  " \"to\": \"SB\", \"to_dtype\": \"float32\", \"to_off\": 0,"
	  " \"to_sizes\": [512, 8], \"to_steps\": [1, 262144]",
	  "\"from_sizes\": [512, 8, 2], \"from_steps\": [1, 512, 0], \"num_tiling_dimensions\": 1,"
	  " \"to\": \"SB\", \"to_dtype\": \"float32\", \"to_off\": 0,"
	  " \"to_sizes\": [512, 8, 2], \"to_steps\": [1, 262144, 229000]", -EINVAL,
	  "sg00/SP.json: queue 'qSPIO0' block 0 ('b0'): descriptor 0: to 'SB' (var_id 0): var_id 0: dimension 2 (size 2, step 229000) puts a run at byte 229000 of SBUF partition 7, ending at 229512 in the gap past the 229376-byte partition (SBUF access in the gap past a partition)" },
	{ "SBUF access outside the window", 's', "\"to_off\": 0, \"to_sizes\": [512, 8]",
	  "\"to_off\": 32768000, \"to_sizes\": [512, 8]", -EINVAL,
	  "sg00/SP.json: queue 'qSPIO0' block 0 ('b0'): descriptor 0: to 'SB' (var_id 0): var_id 0: extent 34603520 is outside the 33554432-byte SBUF window (SBUF access outside the window)" },
	{ "a var without storage", 's', "\"to\": \"v\"", "\"to\": \"t\"", -EINVAL,
	  "sg00/SP.json: queue 'qSPIO0' block 1 ('b1'): descriptor 0: to 't' (var_id 5): var_id 5 is MR_PTR_TABLE: the loader's table of addresses, rebuilt at LOAD (DMA side names no variable with device bytes)" },
	{ "copy byte counts differ", 'p', "\"to_sizes\": [512, 8], \"to_steps\": [1, 512]",
	  "\"to_sizes\": [512, 4], \"to_steps\": [1, 512]", -EINVAL,
	  "sg00/Pool.json: queue 'qPoolIO0' block 0 ('p0'): descriptor 0: copy: from 4096 bytes in 8 runs of 512, to 2048 bytes in 4 runs of 512: the sides move different byte counts (copy byte counts differ)" },
	{ "cast elements differ", 's', "\"to_sizes\": [32]", "\"to_sizes\": [30]", -EINVAL,
	  "sg00/SP.json: queue 'qSPIO0' block 1 ('b1'): descriptor 0: cast float32 -> float16: from 64 bytes in runs of 64, to 30 bytes in runs of 30: the sides hold different element counts (cast elements differ or split)" },
	{ "cast element split across two runs", 's',
	  "\"to_sizes\": [32], \"to_steps\": [1]", "\"to_sizes\": [1, 32], \"to_steps\": [1, 1]",
	  -EINVAL,
	  "sg00/SP.json: queue 'qSPIO0' block 1 ('b1'): descriptor 0: cast float32 -> float16: from 64 bytes in runs of 64, to 32 bytes in runs of 1: a to run (to_sizes[0]) splits a to_dtype element (cast elements differ or split)" },
	{ "transpose element size", 'p', "\"transpose_element_size\": 4",
	  "\"transpose_element_size\": 2", -EINVAL,
	  "sg00/Pool.json: queue 'qPoolIO0' block 0 ('p0'): descriptor 1: transpose float32 -> float32, element size 2, shape [1, 1, 16, 16], tile 512, 1024 -> 1024 bytes: transpose_element_size is not the dtype's size (bad transpose)" },
	{ "transpose_shape with a zero dimension", 'p', "[1, 1, 16, 16]", "[1, 0, 16, 16]",
	  -EINVAL,
	  "sg00/Pool.json: queue 'qPoolIO0' block 0 ('p0'): descriptor 1: transpose float32 -> float32, element size 4, shape [1, 0, 16, 16], tile 0, 1024 -> 1024 bytes: a transpose_shape dimension is 0 (bad transpose)" },
	{ "transpose_shape product wraps 64 bits", 'p', "[1, 1, 16, 16]",
	  "[2048, 1544, 65537, 22253377]", -EINVAL,
	  "sg00/Pool.json: queue 'qPoolIO0' block 0 ('p0'): descriptor 1: transpose float32 -> float32, element size 4, shape [2048, 1544, 65537, 22253377], tile 0, 1024 -> 1024 bytes: the tile overflows 64 bits (bad transpose)" },
	{ "transpose_shape tile not a divisor of the bytes", 'p', "[1, 1, 16, 16]",
	  "[1, 1, 16, 12]", -EINVAL,
	  "sg00/Pool.json: queue 'qPoolIO0' block 0 ('p0'): descriptor 1: transpose float32 -> float32, element size 4, shape [1, 1, 16, 12], tile 768, 1024 -> 1024 bytes: the bytes are not whole tiles (bad transpose)" },
	{ "transpose_op not a permutation", 'p', "\"WZXY\"", "\"WZXX\"", -EINVAL,
	  "sg00/Pool.json: queue 'qPoolIO0' block 0 ('p0'): descriptor 1: transpose float32 -> float32, element size 4, shape [1, 1, 16, 16], tile 1024, 1024 -> 1024 bytes: transpose_op is not a permutation of WXYZ (bad transpose)" },
	{ "dynamic_dma on an in queue", 'd', "\"semaphore_set\": [40]}",
	  "\"semaphore_set\": [40], \"dynamic_dma\": {\"SB_scratch_partition_offset\": 0,"
	  " \"SB_scratch_partition_size\": 8}}", -EINVAL,
	  "sg00: dma_queue 'qPoolIO0': dynamic_dma on a queue of type 'in'" },
	{ "SB scratch outside the partition", 'd', "\"SB_scratch_partition_size\": 16384",
	  "\"SB_scratch_partition_size\": 229377", -EINVAL,
	  "sg00: dma_queue 'qPoolDyn': SB scratch bytes [0, +229377) are not inside the 229376-byte SBUF partition (bad DMA queue)" },
	{ "a semaphore twice in the set", 'd', "[24, 25]", "[24, 24]", -EINVAL,
	  "sg00: dma_queue 'qSPIO0': semaphore_set lists semaphore 24 twice" },
};

TEST(every_refusal_names_its_cause)
{
	size_t i;

	for (i = 0; i < sizeof(refusals) / sizeof(refusals[0]); i++) {
		const struct refusal *r = &refusals[i];
		struct nscc_err err = { "" };
		char *def = edit(base_def, r->which == 'd' ? r->find : NULL, r->repl);
		char *sp = edit(base_sp, r->which == 's' ? r->find : NULL, r->repl);
		char *pool = edit(base_pool, r->which == 'p' ? r->find : NULL, r->repl);
		void *kbin = (void *)1;
		size_t len = 1;

		ASSERT_TRUE(def && sp && pool) TH_LOG("%s: '%s' not found", r->name, r->find);
		EXPECT_EQ(r->code, compile_dma(def, sp, pool, &kbin, &len, &err))
			TH_LOG("%s: %s", r->name, err.msg);
		EXPECT_EQ(NULL, kbin) TH_LOG("%s: a plan was returned", r->name);
		EXPECT_NE(NULL, strstr(err.msg, r->msg))
			TH_LOG("%s:\n  got:  %s\n  want: %s", r->name, err.msg, r->msg);
		TH_LOG("%s: %s", r->name, err.msg);
		free(def);
		free(sp);
		free(pool);
		free(kbin);
	}
}

/*
 * A var skipped for its taken var_id (Documentation/compiler.rst,
 * "Warnings") is not in the plan: a descriptor that names it is refused
 * by that name, never bound to the var that kept the var_id.
 */
TEST(dma_side_naming_a_skipped_var_is_refused)
{
	struct nscc_err err = { "" };
	char *def = edit(base_def, "\"t\": {\"type\": \"dge-table\"",
			 "\"z\": {\"type\": \"input\", \"var_id\": 1, \"size\": 65536},"
			 " \"t\": {\"type\": \"dge-table\"");
	char *sp = edit(base_sp, "\"from\": \"x\"", "\"from\": \"z\"");
	void *kbin = (void *)1;
	size_t len = 1;

	ASSERT_TRUE(def && sp);
	/* z alone: skipped with a warning, the plan compiles */
	ASSERT_EQ(0, compile_dma(def, base_sp, base_pool, &kbin, &len, &err))
		TH_LOG("%s", err.msg);
	free(kbin);
	EXPECT_EQ(-EINVAL, compile_dma(def, sp, base_pool, &kbin, &len, &err));
	EXPECT_EQ(NULL, kbin);
	EXPECT_NE(NULL, strstr(err.msg, "sg00/SP.json: dma[0] (queue 'qSPIO0', id 0): desc[0]: from: variable 'z' (var_id 1) is not in the plan: skipped, var 'x' has var_id 1"))
		TH_LOG("got: %s", err.msg);
	free(kbin);
	free(def);
	free(sp);
}

/*
 * Into @m (nscc_model_new()'s, asserted here): the subgraph "sg00" with
 * the SBUF var 'SB' (var_id 0), the input 'in' (var_id 1) of @in_size
 * bytes and the DMA queue @qname (model_queue()), returned in *@q.
 * Return: the subgraph's index.
 */
static int model_sb_in(struct __test_metadata *_metadata,
		       struct nscc_model *m, uint64_t in_size,
		       const char *qname, struct nscc_dma_queue **q)
{
	int sg;

	ASSERT_NE(NULL, m);
	sg = nscc_model_add_subgraph(m, "sg00");
	ASSERT_LE(0, sg);
	ASSERT_NE(NULL, nscc_model_add_var(m, sg, "SB", 0, KBIN_MR_SB));
	ASSERT_NE(NULL, cc_sized_var(m, sg, "in", 1, KBIN_MR_INPUT, in_size));
	*q = nscc_model_add_dma_queue(m, sg, qname);
	ASSERT_NE(NULL, *q);
	return sg;
}

/* @q (asserted here) is of @type, owned by engine @owner, on semaphore 3 */
static void model_queue(struct __test_metadata *_metadata,
			struct nscc_dma_queue *q, uint32_t type, uint32_t owner)
{
	static const uint32_t sems[] = { 3 };

	ASSERT_NE(NULL, q);
	q->type = type;
	q->owner = owner;
	ASSERT_EQ(0, nscc_dma_queue_set_semaphores(q, sems, 1));
}

/* a model built in memory gets the same rules (no NEFF member names) */
TEST(model_dma_rules)
{
	struct nscc_model *m = nscc_model_new(KBIN_TARGET_TRN1);
	struct nscc_dma_block b = { .queue = 0, .id = 0, .semaphore = 3 };
	struct kbin_dma_desc d = { .op = KBIN_DMA_OP_COPY };
	struct nscc_err err = { "" };
	struct nscc_dma_queue *q;
	void *kbin;
	size_t len;
	int sg;

	sg = model_sb_in(_metadata, m, 196608, "q", &q);
	model_queue(_metadata, q, KBIN_DMA_QUEUE_DATA, KBIN_DMA_ENGINE_ACT);
	/* a whole trn1 partition, 3 UDMA pieces */
	d.from = (struct kbin_dma_side){ .var_id = 1, .dtype = KBIN_DMA_DTYPE_UINT8,
		.num_dims = 1, .sizes = { 196608 }, .steps = { 1 } };
	d.to = d.from;
	d.to.var_id = 0;
	d.to.offset = 5 * 262144;
	ASSERT_EQ(0, nscc_model_add_dma_block(m, sg, &b, NULL, &d, 1));
	ASSERT_EQ(0, nscc_compile_model(m, &kbin, &len, &err)) TH_LOG("%s", err.msg);
	free(kbin);
	/* one byte more runs past the trn1 partition; named by the subgraph */
	m->sgs[0].dma_descs[0].to.offset += 1;
	EXPECT_STREQ("sg00: queue 'q' block 0: descriptor 0: to 'SB' (var_id 0): var_id 0: a run of 196608 bytes at byte 1 of SBUF partition 5 ends at 196609, past the 196608-byte partition (SBUF run past its partition)",
		     cc_model_refusal(m, &err));
	m->sgs[0].dma_descs[0].to.offset -= 1;
	m->sgs[0].dma_descs[0].op = 0;
	EXPECT_STREQ("sg00: queue 'q' block 0: descriptor 0: op 0 is not 1..3 (bad DMA op)",
		     cc_model_refusal(m, &err));
	m->sgs[0].dma_descs[0].op = KBIN_DMA_OP_COPY;
	m->sgs[0].dma_descs[0].from.var_id = 7;
	EXPECT_STREQ("sg00: queue 'q' block 0: descriptor 0: from: var_id 7 names no var (nmem 2) (DMA side names no variable with device bytes)",
		     cc_model_refusal(m, &err));
	m->sgs[0].dma_descs[0].from.var_id = 1;
	m->sgs[0].dma_descs[0].from.dtype = 99;
	EXPECT_STREQ("sg00: queue 'q' block 0: descriptor 0: from 'in' (var_id 1): dtype 99 is not 1..12 (bad DMA dtype)",
		     cc_model_refusal(m, &err));
	m->sgs[0].dma_descs[0].from.dtype = KBIN_DMA_DTYPE_UINT8;
	q->owner = 0;
	EXPECT_STREQ("sg00: dma_queue 'q': owner 0 is not an engine 1..5 (bad DMA queue)",
		     cc_model_refusal(m, &err));
	q->owner = KBIN_DMA_ENGINE_ACT;
	m->sgs[0].dma_blocks[0].queue = 1;
	EXPECT_STREQ("sg00: block 0: queue index 1, the subgraph has 1 queues",
		     cc_model_refusal(m, &err));
	nscc_model_free(m);
}

static double cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * Compile one subgraph with a DMA queue whose semaphore set is the
 * @nsems values sem(k) and @nblocks blocks, block k on sem((k * 7919) mod
 * @nsems); check each block's sem_index is its semaphore's entry.
 * Return: the CPU seconds the compile took (-1 on a failed assertion).
 */
static double compile_sem_set(struct __test_metadata *_metadata,
			      uint32_t nsems, uint32_t nblocks,
			      uint32_t (*sem)(uint32_t k))
{
	struct nscc_model *m = nscc_model_new(KBIN_TARGET_TRN1);
	struct kbin_dma_desc d = { .op = KBIN_DMA_OP_COPY };
	struct nscc_err err = { "" };
	struct kbin_dma_sg_view dv;
	struct kbin_check_result res;
	struct nscc_dma_queue *q;
	struct kbin_view view;
	uint32_t *sems, k, e;
	double t0, t = -1;
	void *kbin = NULL;
	size_t len;
	int sg;

	sg = model_sb_in(_metadata, m, 4096, "qSPIO0", &q);
	q->type = KBIN_DMA_QUEUE_IN;
	q->owner = KBIN_DMA_ENGINE_SP;
	q->num_queues = 16;
	sems = malloc(nsems * sizeof(*sems));
	ASSERT_NE(NULL, sems);
	for (k = 0; k < nsems; k++)
		sems[k] = sem(k);
	ASSERT_EQ(0, nscc_dma_queue_set_semaphores(q, sems, nsems));
	free(sems);
	d.from = (struct kbin_dma_side){ .var_id = 1, .dtype = KBIN_DMA_DTYPE_FLOAT32,
		.num_dims = 1, .sizes = { 128 }, .steps = { 1 } };
	d.to = d.from;
	d.to.var_id = 0;
	for (k = 0; k < nblocks; k++) {
		struct nscc_dma_block b = { .queue = 0, .id = k,
			.semaphore = sem((uint32_t)(((uint64_t)k * 7919) % nsems)) };

		ASSERT_EQ(0, nscc_model_add_dma_block(m, sg, &b, NULL, &d, 1));
	}
	t0 = cpu_seconds();
	ASSERT_EQ(0, nscc_compile_model(m, &kbin, &len, &err)) TH_LOG("%s", err.msg);
	t = cpu_seconds() - t0;
	TH_LOG("%u semaphores, %u blocks: %.2f s of CPU", nsems, nblocks, t);
	ASSERT_EQ(0, kbin_read(kbin, len, &view, &res)) TH_LOG("%s", res.err.msg);
	ASSERT_EQ(0, kbin_view_dma_sg(&view, 0, &dv));
	ASSERT_EQ(nblocks, dv.num_blocks);
	for (k = 0; k < nblocks; k += 997) {
		e = (uint32_t)(((uint64_t)k * 7919) % nsems);
		EXPECT_EQ(sem(e), dv.blocks[k].semaphore);
		EXPECT_EQ(e, dv.blocks[k].sem_index);
	}
	free(kbin);
	nscc_model_free(m);
	return t;
}

static uint32_t sem_descending(uint32_t k)
{
	return (1U << 20) - 1 - k;
}

/*
 * The semaphore lookup is linear: a 2^20-entry semaphore set that is not
 * a run from its first entry (descending) and 20,000 blocks spread over
 * it compile in well under a second of -O2 CPU (10 s allowed here, under
 * ASan), with each block's sem_index its semaphore's entry.  The lookup
 * was a scan of the set per block (and again when writing): about 10^10
 * comparisons, 15 s at -O2.
 */
TEST(large_semaphore_set_is_linear)
{
	EXPECT_GT(10.0, compile_sem_set(_metadata, 1U << 20, 20000,
					sem_descending));
}

/*
 * 2^20 semaphores built to collide in a multiplicative hash table of
 * 2^21 slots indexed by the low bits of sem * 0x9e3779b1 (the index this
 * test was written against): semaphore k is (k mod 512) * 0x0e8b2f51
 * (that constant's inverse mod 2^32) mod 2^21 + (k / 512) * 2^21, so the
 * 2^20 entries share 512 neighbouring home slots, one cluster: each
 * insertion and each look-up walked the cluster, about 5 * 10^11 probes
 * (the harness's 30 s timeout, where any other set takes 0.1 s).
 */
static uint32_t sem_colliding(uint32_t k)
{
	return (((k % 512) * 0x0e8b2f51U) & ((1U << 21) - 1)) +
	       (k / 512) * (1U << 21);
}

/*
 * The semaphore index has no bad input: a set made to collide in a hash
 * compiles as fast as a plain one.
 */
TEST(colliding_semaphore_set_is_not_quadratic)
{
	EXPECT_GT(10.0, compile_sem_set(_metadata, 1U << 20, 20000,
					sem_colliding));
}

/*
 * Run the release "neuronsim-cc compile NEFF -o /dev/null" (NEURONSIM_CC)
 * on @len bytes of NEFF; its peak RSS in bytes.  Return: its exit status,
 * or -1 when it could not run.
 */
static int compile_rss(const void *neff, size_t len, uint64_t *rss)
{
	char path[] = "/tmp/cc_dma_rssXXXXXX";
	struct rusage ru;
	int fd = mkstemp(path), st = 0;
	pid_t pid;

	if (fd < 0)
		return -1;
	close(fd);
	if (nscc_write_file(path, neff, len)) {
		unlink(path);
		return -1;
	}
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		if (null >= 0)
			dup2(null, STDOUT_FILENO);
		execl(NEURONSIM_CC, "neuronsim-cc", "compile", path, "-o",
		      "/dev/null", (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || wait4(pid, &st, 0, &ru) != pid || !WIFEXITED(st)) {
		unlink(path);
		return -1;
	}
	unlink(path);
	*rss = (uint64_t)ru.ru_maxrss * 1024;
	return WEXITSTATUS(st);
}

/* a NEFF image of cc_dma_writer(16, @nblocks, @ndescs); *@json its SP.json bytes */
static int dma_neff(uint32_t nblocks, uint32_t ndescs, void **neff,
		    size_t *len, size_t *json)
{
	struct nscc_neff_writer *w = cc_dma_writer(16, nblocks, ndescs, json);
	int ret;

	if (!w)
		return -ENOMEM;
	ret = nscc_neff_writer_finish(w, NULL, neff, len);
	nscc_neff_writer_free(w);
	return ret;
}

/*
 * The compile's memory is linear in its JSON, at a small factor: 100,000
 * identical DMA descriptors (24 MB of engine JSON in a 100 KB NEFF) take
 * the -O2 neuronsim-cc at most 6.5 bytes of peak RSS per byte of JSON
 * over a one-descriptor NEFF, a guard against the old layout, which took
 * 8.3 (a padded copy of every member, the parser's structural index kept
 * with the document, and a key index on every object of more than 8
 * members: each descriptor; the million-descriptor NEFF peaked at 2.0
 * GB).  The figure itself, 4.5 here and at 10^6 descriptors, is make
 * bench's (Documentation/compiler.rst, "Memory").
 */
TEST(compile_memory_is_linear_in_the_json)
{
	uint64_t base = 0, rss = 0;
	size_t len, json, json1;
	void *neff;

	if (access(NEURONSIM_CC, X_OK))
		SKIP(return, "%s is not built", NEURONSIM_CC);
	ASSERT_EQ(0, dma_neff(1, 1, &neff, &len, &json1));
	ASSERT_EQ(0, compile_rss(neff, len, &base));
	free(neff);
	ASSERT_EQ(0, dma_neff(100, 1000, &neff, &len, &json));
	ASSERT_EQ(0, compile_rss(neff, len, &rss));
	free(neff);
	TH_LOG("%zu bytes of engine JSON: peak RSS %llu KiB over %llu KiB, %.2f bytes per byte",
	       json, (unsigned long long)(rss - base) >> 10,
	       (unsigned long long)base >> 10, (double)(rss - base) / (double)json);
	EXPECT_GE(13 * (uint64_t)json / 2, rss - base);
}

/*
 * A side may name an MR_REMOTE: the bytes of another subgraph's var
 * (collectives, shadow buffers), bounded by the remote record's size;
 * a remote of a state buffer gets the SBUF rules.  An MR_PTR is refused
 * with the reason.
 */
TEST(remote_sides)
{
	struct nscc_model *m = nscc_model_new(KBIN_TARGET_TRN2);
	struct nscc_dma_block b = { .queue = 0, .id = 0, .semaphore = 3 };
	struct kbin_dma_desc d = { .op = KBIN_DMA_OP_COPY };
	struct nscc_err err = { "" };
	struct kbin_check_result res;
	struct nscc_dma_queue *q;
	struct nscc_var *v;
	void *kbin;
	size_t len;
	int s0, s1;

	ASSERT_NE(NULL, m);
	s0 = nscc_model_add_subgraph(m, "sg00");
	s1 = nscc_model_add_subgraph(m, "sg01");
	ASSERT_LE(0, s0);
	ASSERT_LE(0, s1);
	ASSERT_NE(NULL, nscc_model_add_var(m, s0, "SB", 0, KBIN_MR_SB));
	ASSERT_NE(NULL, cc_sized_var(m, s0, "in", 1, KBIN_MR_INPUT, 4096));
	v = cc_sized_var(m, s0, "peer", 2, KBIN_MR_REMOTE, 1024);
	ASSERT_NE(NULL, v);
	v->remote_sg = 1;
	v->remote_var_id = 1;
	v = nscc_model_add_var(m, s0, "p", 3, KBIN_MR_PTR);
	ASSERT_NE(NULL, v);
	v->referenced_var_id = 1;
	ASSERT_NE(NULL, nscc_model_add_var(m, s1, "SB", 0, KBIN_MR_SB));
	ASSERT_NE(NULL, cc_sized_var(m, s1, "out", 1, KBIN_MR_OUTPUT, 4096));
	q = nscc_model_add_dma_queue(m, s0, "q");
	model_queue(_metadata, q, KBIN_DMA_QUEUE_DATA, KBIN_DMA_ENGINE_SP);
	d.from = (struct kbin_dma_side){ .var_id = 1, .dtype = KBIN_DMA_DTYPE_UINT8,
		.num_dims = 1, .sizes = { 1024 }, .steps = { 1 } };
	d.to = d.from;
	d.to.var_id = 2;
	ASSERT_EQ(0, nscc_model_add_dma_block(m, s0, &b, NULL, &d, 1));
	ASSERT_EQ(0, nscc_compile_model(m, &kbin, &len, &err)) TH_LOG("%s", err.msg);
	ASSERT_EQ(KBIN_OK, kbin_check_plan(kbin, len, &res)) TH_LOG("%s", res.err.msg);
	free(kbin);
	/* one byte past the remote record's 1024 (its var has 4096) */
	m->sgs[0].dma_descs[0].to.offset = 1;
	EXPECT_STREQ("sg00: queue 'q' block 0: descriptor 0: to var_id 2 'peer': extent 1025 is past its 1024 bytes (access pattern outside its variable)",
		     cc_model_refusal(m, &err));
	/* a remote of sg01's state buffer: a run past the trn2 partition */
	m->sgs[0].vars[2].remote_var_id = 0;
	m->sgs[0].vars[2].size = 1ULL << 20;
	m->sgs[0].dma_descs[0].to.offset = 229376 - 512;
	EXPECT_STREQ("sg00: queue 'q' block 0: descriptor 0: to 'peer' (var_id 2): var_id 2: a run of 1024 bytes at byte 228864 of SBUF partition 0 ends at 229888, past the 229376-byte partition (SBUF run past its partition)",
		     cc_model_refusal(m, &err));
	m->sgs[0].dma_descs[0].to.offset = 0;
	ASSERT_EQ(0, nscc_compile_model(m, &kbin, &len, &err)) TH_LOG("%s", err.msg);
	free(kbin);
	/* a pointer has no bytes of its own */
	m->sgs[0].dma_descs[0].to.var_id = 3;
	EXPECT_STREQ("sg00: queue 'q' block 0: descriptor 0: to 'p' (var_id 3): var_id 3 is MR_PTR: a pointer: the bytes are its target's, name the target (DMA side names no variable with device bytes)",
		     cc_model_refusal(m, &err));
	nscc_model_free(m);
}

/*
 * Every tensor element type of the plan layer (kbin_dtype(): the DMA
 * ones and the float8s) has its row of .npy descrs in the compiler's
 * dtype table (model.c), which takes the names and bytes per element from
 * the plan layer's table, so a var's size and the DMA rules never
 * disagree on a dtype.
 */
TEST(dma_dtypes_are_the_compilers)
{
	unsigned int t;

	for (t = 1; t <= KBIN_DTYPE_LAST; t++) {
		const struct kbin_dma_dtype_info *d = kbin_dtype(t);
		const struct nscc_dtype *c;

		ASSERT_NE(NULL, d);
		c = nscc_dtype_find(d->name);
		ASSERT_NE(NULL, c) TH_LOG("dtype %u '%s' is not in the compiler's table",
					  t, d->name);
		EXPECT_EQ(t, c->dtype) TH_LOG("'%s'", d->name);
		EXPECT_NE(NULL, c->npy[0]) TH_LOG("'%s' has no .npy descr", d->name);
	}
	EXPECT_EQ(NULL, nscc_dtype_find("float8_e3m4"));
	EXPECT_EQ(NULL, nscc_dtype_find(NULL));
}

TEST_HARNESS_MAIN
