// SPDX-License-Identifier: GPL-2.0
/*
 * cc_plan_memory - nscc_plan_memory() (Documentation/compiler.rst, "Will
 * it fit") on synthetic plans whose charges are worked out by hand here,
 * from the rules Documentation/hardware.rst states ("What a load
 * charges"), not from the shared code: every kind, every scratchpad
 * arena, pointer tables, UDMA rings, rounding to 4 KiB, the load's arenas
 * on its first NeuronCore, the channel of each core; then the plans
 * that do not fit and why (HBM of one channel, alignment padding, cores,
 * target, SBUF, scratchpad pages), and the errors.
 *
 * The VM test (selftests/memory_test.c) holds the same figures of every
 * real NEFF against the kernel's sysfs counters.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <linux/neuronsim.h>

#include "kselftest_harness.h"
#include "kbin_gen.h"
#include "kbin_kind.h"
#include "kbin_memory.h"
#include "kbin_writer.h"
#include "neuronsim_cc.h"
#include "tl_rec.h"

#define KIB	1024ULL
#define MIB	(1024 * KIB)
#define GIB	(1024 * MIB)

/* the categories, by the names of Documentation/sysfs.rst */
enum { MC, TENSORS, CONSTANTS, SHARED_SP, RUNTIME, DRIVER, CC, NONSHARED,
	NOTIF, RINGS, UNCAT };

static const char *const cat_names[] = {
	"model_code", "tensors", "constants", "model_shared_scratchpad",
	"runtime_memory", "driver_memory", "collectives",
	"nonshared_scratchpad", "notifications", "dma_rings", "uncategorized",
};

static const char *cat(unsigned int k)
{
	return k < sizeof(cat_names) / sizeof(cat_names[0]) ? cat_names[k] : "?";
}

struct plan {
	void *buf;
	size_t len;
};

static int finish(struct kbin_writer *w, int e, struct plan *p)
{
	if (e) {
		kbin_writer_free(w);
		return e;
	}
	return kbin_writer_finish(w, &p->buf, &p->len);
}

static const struct kbin_sb_carveout *carveout(const struct kbin_gen *g)
{
	static struct kbin_sb_carveout co;

	co = (struct kbin_sb_carveout){
		.type = KBIN_CARVEOUT_EVTACCEL,
		.offset = g->sbuf_partition_size - 8, .size = 8,
		.start_partition = 0, .num_partitions = 128,
	};
	return &co;
}

/*
 * The "every kind" plan, trn2, two subgraphs:
 *   sg00 (local scratchpad 5000 bytes, shared 4096):
 *     0 MR_SB                      nothing in HBM
 *     1 MR_BUFFER w 5000 B, 64 KiB aligned, payload    constants 8192
 *     2 MR_BUFFER_STAGED 100 B, payload                constants 4096
 *     3 MR_TMP_BUF 4097 B                              nonshared 8192
 *     4 MR_INPUT 1 B                                   tensors 4096
 *     5 MR_OUTPUT 8192 B                               tensors 8192
 *     6 MR_PTR -> 1                                    nothing
 *     7 MR_VIRTUAL_TMP_BUF LOCAL at 4096, 904 B        in the local arena
 *     8 MR_VIRTUAL_TMP_BUF SHARED at 0, 4096 B         in the SHARED arena
 *     9 MR_VIRTUAL_TMP_BUF SHARDED at 10000, 100 B     SHARDED arena 10100
 *    10 MR_VIRTUAL_TMP_BUF MAIN at 0, 1 B              MAIN arena 1
 *    11 MR_LIST {1, 4}                                 nothing
 *    12 MR_PTR_TABLE of 513 rows (record 2052 B)       runtime 4104 -> 8192
 *    13 MR_REMOTE -> sg01 var 1                        nothing
 *    14 MR_PSUM                                        nothing
 *   local scratchpad 5000                              nonshared 8192
 *   sg01 (local 0, shared 8192):
 *     0 MR_SB
 *     1 MR_BUFFER w1 3 B, payload                      constants 4096
 *     2 MR_INPUT in1 1 MiB + 1                         tensors 1052672
 *     3 MR_OUTPUT o1 1 MiB + 1                         tensors 1052672
 *     4 MR_VIRTUAL_TMP_BUF SHARED at 4096, 4096 B
 *     DMA queue q (sg01): in1 -> o1, 300 runs of 1 KiB (300 UDMA
 *     descriptors a side) and one run of 70000 B (2): 302 a side, a ring
 *     of 384 entries of 2 x 16 B = 12288 B a side     dma_rings 24576
 *   the load's arenas, on its first NeuronCore: SHARED max(4096, 8192),
 *   SHARDED 10100 -> 12288, MAIN 1 -> 4096          shared 24576
 */
#define KIND_SG0_VARS	15

static int plan_kinds(struct plan *p)
{
	const struct kbin_gen *g = kbin_gen_target(KBIN_TARGET_TRN2);
	struct kbin_writer *w = kbin_writer_new(g->gen);
	static uint8_t pay[8192];
	static uint32_t rows[513];
	static const uint32_t list[] = { 1, 4 };
	const uint32_t sz1[] = { 1024, 300 }, sz2[] = { 70000 };
	const uint64_t st1[] = { 1, 1024 }, st2[] = { 1 };
	struct kbin_dma_block b = { .queue = 0, .semaphore = 3 };
	struct kbin_dma_desc d[2] = {
		{ .op = KBIN_DMA_OP_COPY, .num_tiling_dims = 1 },
		{ .op = KBIN_DMA_OP_COPY, .num_tiling_dims = 1 },
	};
	int e = 0;
	size_t i;

	if (!w)
		return -ENOMEM;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		rows[i] = 1;
	e |= kbin_writer_add_subgraph(w, "sg00", 5000, 4096, carveout(g), 1) < 0;
	e |= kbin_writer_add_subgraph(w, "sg01", 0, 8192, carveout(g), 1) < 0;
	e |= TL_ADD(w, .id = 0, .type = KBIN_MR_SB, .name = "sb",
		    .size = g->sbuf_window_size);
	e |= TL_ADD(w, .id = 1, .type = KBIN_MR_BUFFER, .name = "w", .size = 5000,
		    .align = 65536, .payload = pay);
	e |= TL_ADD(w, .id = 2, .type = KBIN_MR_BUFFER_STAGED, .name = "staged",
		    .size = 100, .align = 64, .payload = pay);
	e |= TL_ADD(w, .id = 3, .type = KBIN_MR_TMP_BUF, .name = "tmp",
		    .size = 4097, .align = 64);
	e |= TL_ADD(w, .id = 4, .type = KBIN_MR_INPUT, .name = "in", .size = 1,
		    .align = 64);
	e |= TL_ADD(w, .id = 5, .type = KBIN_MR_OUTPUT, .name = "out",
		    .size = 8192, .align = 64);
	e |= TL_ADD(w, .id = 6, .type = KBIN_MR_PTR, .name = "ptr", .size = 8,
		    .align = 8, .var = 1);
	e |= TL_ADD(w, .id = 7, .type = KBIN_MR_VIRTUAL_TMP_BUF, .name = "vl",
		    .size = 904, .align = 64, .offset = 4096,
		    .backing = KBIN_BACKING_BUF_LOCAL);
	e |= TL_ADD(w, .id = 8, .type = KBIN_MR_VIRTUAL_TMP_BUF, .name = "vs",
		    .size = 4096, .align = 64, .offset = 0,
		    .backing = KBIN_BACKING_BUF_SHARED);
	e |= TL_ADD(w, .id = 9, .type = KBIN_MR_VIRTUAL_TMP_BUF, .name = "vd",
		    .size = 100, .align = 4, .offset = 10000,
		    .backing = KBIN_BACKING_BUF_SHARDED);
	e |= TL_ADD(w, .id = 10, .type = KBIN_MR_VIRTUAL_TMP_BUF, .name = "vm",
		    .size = 1, .align = 1, .offset = 0,
		    .backing = KBIN_BACKING_BUF_MAIN);
	e |= TL_ADD(w, .id = 11, .type = KBIN_MR_LIST, .name = "list", .size = 8,
		    .align = 4, .list = list, .nlist = 2);
	e |= TL_ADD(w, .id = 12, .type = KBIN_MR_PTR_TABLE, .name = "table",
		    .size = 4 * 513, .align = 8, .list = rows, .nlist = 513);
	e |= TL_ADD(w, .id = 13, .type = KBIN_MR_REMOTE, .name = "rw1", .size = 3,
		    .rel_sg = 1, .var = 1);
	e |= TL_ADD(w, .id = 14, .type = KBIN_MR_PSUM, .name = "psum",
		    .size = g->psum_size);
	e |= TL_ADD(w, .sg = 1, .id = 0, .type = KBIN_MR_SB, .name = "sb",
		    .size = g->sbuf_window_size);
	e |= TL_ADD(w, .sg = 1, .id = 1, .type = KBIN_MR_BUFFER, .name = "w1",
		    .size = 3, .align = 64, .payload = pay);
	e |= TL_ADD(w, .sg = 1, .id = 2, .type = KBIN_MR_INPUT, .name = "in1",
		    .size = MIB + 1, .align = 64);
	e |= TL_ADD(w, .sg = 1, .id = 3, .type = KBIN_MR_OUTPUT, .name = "o1",
		    .size = MIB + 1, .align = 64);
	e |= TL_ADD(w, .sg = 1, .id = 4, .type = KBIN_MR_VIRTUAL_TMP_BUF,
		    .name = "vs1", .size = 4096, .align = 64, .offset = 4096,
		    .backing = KBIN_BACKING_BUF_SHARED);
	e |= TL_QUEUE(w, .sg = 1, .name = "q", .type = KBIN_DMA_QUEUE_DATA,
		      .nsem = 1, .sem = { 3 }) != 0;
	d[0].from = tl_side(2, KBIN_DMA_DTYPE_UINT8, 0, 2, sz1, st1);
	d[0].to = tl_side(3, KBIN_DMA_DTYPE_UINT8, 0, 2, sz1, st1);
	d[1].from = tl_side(2, KBIN_DMA_DTYPE_UINT8, 0, 1, sz2, st2);
	d[1].to = tl_side(3, KBIN_DMA_DTYPE_UINT8, 0, 1, sz2, st2);
	e |= kbin_writer_add_dma_block(w, 1, &b, "in1-to-o1", d, 2) != 0;
	return finish(w, e ? -EINVAL : 0, p);
}

/* the hand-worked figures of plan_kinds(), subgraph 0 and 1 */
static const uint64_t kinds_sg0[NSCC_MEM_CATEGORIES] = {
	[TENSORS] = 4096 + 8192,
	[CONSTANTS] = 8192 + 4096,
	[SHARED_SP] = 8192 + 12288 + 4096,
	[RUNTIME] = 8192,
	[NONSHARED] = 8192 + 8192,
};
static const uint64_t kinds_sg1[NSCC_MEM_CATEGORIES] = {
	[TENSORS] = 2 * 1052672,
	[CONSTANTS] = 4096,
	[RINGS] = 2 * 12288,
};

/* every category of core entry @c equals @want; the test fails otherwise */
#define EXPECT_CATS(c, want) do { \
	uint64_t _t = 0; \
	unsigned int _k; \
	for (_k = 0; _k < NSCC_MEM_CATEGORIES; _k++) { \
		EXPECT_EQ((want)[_k], (c)->bytes[_k]) \
			TH_LOG("NeuronCore %u %s", (c)->core, cat(_k)); \
		_t += (want)[_k]; \
	} \
	EXPECT_EQ(_t, (c)->total) TH_LOG("NeuronCore %u total", (c)->core); \
} while (0)

static struct nscc_memory *mem_new(void)
{
	return calloc(1, sizeof(struct nscc_memory));
}

TEST(category_names)
{
	unsigned int k;

	for (k = 0; k < NSCC_MEM_CATEGORIES; k++)
		EXPECT_STREQ(cat(k), nscc_memory_category_name(k));
	EXPECT_STREQ("unknown", nscc_memory_category_name(NSCC_MEM_CATEGORIES));
	EXPECT_STREQ("hbm", nscc_fit_why_name(NSCC_FIT_HBM));
	EXPECT_STREQ("unknown", nscc_fit_why_name(0));
}

/* every kind, from NeuronCore 1: cores 1 and 2, on trn2's channels 0 and 1 */
TEST(every_kind_from_core_1)
{
	struct nscc_memory *m = mem_new();
	struct plan p;
	unsigned int k;

	ASSERT_NE(NULL, m);
	ASSERT_EQ(0, plan_kinds(&p));
	ASSERT_EQ(0, nscc_plan_memory(p.buf, p.len, 0, 1, m)) TH_LOG("%s", m->error);
	EXPECT_EQ(KBIN_TARGET_TRN2, m->target_gen);
	EXPECT_EQ(KBIN_TARGET_TRN2, m->arch_gen);
	EXPECT_EQ(1, m->first_core);
	ASSERT_EQ(2, m->num_cores);
	EXPECT_EQ(8, m->device_cores);
	EXPECT_EQ(4, m->num_channels);
	EXPECT_EQ(24 * GIB, m->channel_size);
	EXPECT_EQ(1, m->core[0].core);
	EXPECT_EQ(2, m->core[1].core);
	EXPECT_EQ(0, m->core[0].hbm_channel);
	EXPECT_EQ(1, m->core[1].hbm_channel);
	EXPECT_CATS(&m->core[0], kinds_sg0);
	EXPECT_CATS(&m->core[1], kinds_sg1);
	for (k = 0; k < NSCC_MEM_CATEGORIES; k++)
		EXPECT_EQ(kinds_sg0[k] + kinds_sg1[k], m->bytes[k]) TH_LOG("%s", cat(k));
	EXPECT_EQ(m->core[0].total + m->core[1].total, m->total);
	EXPECT_EQ(m->core[0].total, m->channel_bytes[0]);
	EXPECT_EQ(m->core[1].total, m->channel_bytes[1]);
	EXPECT_EQ(0, m->channel_bytes[2]);
	/* 6 vars and 4 arena or scratchpad pages; 3 vars and 2 rings */
	EXPECT_EQ(10, m->core[0].allocations);
	EXPECT_EQ(5, m->core[1].allocations);
	EXPECT_EQ(2 * 302, m->udma_descs);
	EXPECT_EQ(32 * MIB, m->core[0].sbuf_bytes);
	EXPECT_EQ(1, m->fits);
	EXPECT_EQ(0, m->num_problems);

	/* from NeuronCore 6: the same bytes on cores 6 and 7, both channel 3 */
	ASSERT_EQ(0, nscc_plan_memory(p.buf, p.len, KBIN_TARGET_TRN2, 6, m));
	EXPECT_EQ(3, m->core[0].hbm_channel);
	EXPECT_EQ(3, m->core[1].hbm_channel);
	EXPECT_CATS(&m->core[0], kinds_sg0);
	EXPECT_CATS(&m->core[1], kinds_sg1);
	EXPECT_EQ(m->total, m->channel_bytes[3]);
	EXPECT_EQ(1, m->fits);
	free(p.buf);
	free(m);
}

/* kbin_mem_walk()'s sums per subgraph and category, and its items */
struct walk_sum {
	uint64_t bytes[2][NSCC_MEM_CATEGORIES];
	unsigned int items, rings, pages;
};

static int walk_add(void *ctx, const struct kbin_mem_item *it)
{
	struct walk_sum *w = ctx;

	w->bytes[it->subgraph][kbin_usage_category(it->a.usage)] +=
		kbin_hbm_round(it->a.bytes);
	w->items++;
	w->rings += it->what == KBIN_MEM_RING;
	w->pages += it->what == KBIN_MEM_ARENA || it->what == KBIN_MEM_LOCAL;
	return 0;
}

/*
 * The module parameters move allocations, never bytes: with 4 KiB
 * scratchpad pages and rings of 128 descriptors the local scratchpad is
 * two pages, the SHARED arena two, SHARDED three, and each side of 302
 * UDMA descriptors three rings (128, 128, 46 -> 128 entries), and every
 * core is charged what it is with the defaults.
 */
TEST(params_move_allocations_not_bytes)
{
	const struct kbin_mem_params def = {
		.page_size = KBIN_SCRATCHPAD_PAGE_SIZE_DEFAULT,
		.ring_max = kbin_udma_ring_max(UDMA_RING_LOADER_MAX_DESCS),
	}, small = { .page_size = 4096, .ring_max = kbin_udma_ring_max(1) };
	struct walk_sum a = { 0 }, b = { 0 };
	struct plan p;
	unsigned int k;

	ASSERT_EQ(128, small.ring_max);
	ASSERT_EQ(UDMA_RING_LOADER_MAX_DESCS, def.ring_max);
	ASSERT_EQ(0, plan_kinds(&p));
	ASSERT_EQ(0, kbin_mem_walk(p.buf, &def, walk_add, &a));
	ASSERT_EQ(0, kbin_mem_walk(p.buf, &small, walk_add, &b));
	for (k = 0; k < NSCC_MEM_CATEGORIES; k++) {
		EXPECT_EQ(kinds_sg0[k], a.bytes[0][k]) TH_LOG("%s", cat(k));
		EXPECT_EQ(kinds_sg1[k], a.bytes[1][k]) TH_LOG("%s", cat(k));
		EXPECT_EQ(a.bytes[0][k], b.bytes[0][k]) TH_LOG("%s", cat(k));
		EXPECT_EQ(a.bytes[1][k], b.bytes[1][k]) TH_LOG("%s", cat(k));
	}
	EXPECT_EQ(15, a.items);
	EXPECT_EQ(2, a.rings);
	EXPECT_EQ(4, a.pages);
	EXPECT_EQ(6, b.rings);
	EXPECT_EQ(2 + 2 + 3 + 1, b.pages);
	EXPECT_EQ(15 - 2 - 4 + 6 + 8, b.items);
	free(p.buf);
}

/* the plan on trn1 and from NeuronCore 7: the target and the cores */
TEST(target_and_cores)
{
	struct nscc_memory *m = mem_new();
	struct plan p;

	ASSERT_NE(NULL, m);
	ASSERT_EQ(0, plan_kinds(&p));
	ASSERT_EQ(0, nscc_plan_memory(p.buf, p.len, KBIN_TARGET_TRN1, 1, m));
	EXPECT_EQ(KBIN_TARGET_TRN1, m->arch_gen);
	EXPECT_EQ(0, m->fits);
	ASSERT_EQ(2, m->num_problems);
	EXPECT_EQ(NSCC_FIT_TARGET, m->problems[0].why);
	EXPECT_EQ(-EINVAL, m->problems[0].err);
	EXPECT_EQ(NSCC_FIT_CORES, m->problems[1].why);
	EXPECT_EQ(-ENODEV, m->problems[1].err);
	EXPECT_EQ(3, m->problems[1].need);
	EXPECT_EQ(2, m->problems[1].limit);
	EXPECT_NE(NULL, strstr(m->problems[1].msg, "NeuronCores 1-2; trn1 has 2"))
		TH_LOG("%s", m->problems[1].msg);
	/* the bytes are the same; trn1 has no NeuronCore 2 */
	EXPECT_CATS(&m->core[0], kinds_sg0);
	EXPECT_CATS(&m->core[1], kinds_sg1);
	EXPECT_EQ(-1, m->core[1].hbm_channel);

	ASSERT_EQ(0, nscc_plan_memory(p.buf, p.len, 0, 7, m));
	EXPECT_EQ(0, m->fits);
	ASSERT_EQ(1, m->num_problems);
	EXPECT_EQ(NSCC_FIT_CORES, m->problems[0].why);
	free(p.buf);
	free(m);
}

/* a plan of @n MR_BUFFERs of @size bytes at @align in one subgraph */
static int plan_buffers(uint32_t gen, unsigned int n, uint64_t size,
			uint64_t align, uint64_t local, struct plan *p)
{
	const struct kbin_gen *g = kbin_gen_target(gen);
	struct kbin_writer *w = kbin_writer_new(gen);
	char name[16];
	unsigned int i;
	int e = 0;

	if (!w)
		return -ENOMEM;
	e |= kbin_writer_add_subgraph(w, "sg00", local, 0,
				      g->carveout_required ? carveout(g) : NULL,
				      g->carveout_required) < 0;
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "b%u", i);
		e |= TL_ADD(w, .id = i, .type = KBIN_MR_BUFFER, .name = name,
			    .size = size, .align = align);
	}
	return finish(w, e ? -EINVAL : 0, p);
}

/* three 40 % buffers do not fit a channel: the third finds no room */
TEST(hbm_channel_full)
{
	const struct kbin_gen *g = kbin_gen_target(KBIN_TARGET_TRN1);
	uint64_t part = g->hbm_channel_size / 5 * 2;	/* not 4 KiB-aligned */
	uint64_t charged = (part + 4095) / 4096 * 4096;
	struct nscc_memory *m = mem_new();
	struct plan p;

	ASSERT_NE(NULL, m);
	ASSERT_EQ(0, plan_buffers(g->gen, 3, part, 64, 0, &p));
	ASSERT_EQ(0, nscc_plan_memory(p.buf, p.len, 0, 1, m));
	EXPECT_EQ(3 * charged, m->core[0].bytes[CONSTANTS]);
	EXPECT_EQ(0, m->fits);
	ASSERT_EQ(1, m->num_problems);
	EXPECT_EQ(NSCC_FIT_HBM, m->problems[0].why);
	EXPECT_EQ(-ENOSPC, m->problems[0].err);
	EXPECT_EQ(0, m->problems[0].subgraph);
	EXPECT_EQ(1, m->problems[0].core);
	EXPECT_EQ(1, m->problems[0].channel);
	EXPECT_EQ(CONSTANTS, m->problems[0].category);
	EXPECT_EQ(3 * charged, m->problems[0].need);
	EXPECT_EQ(g->hbm_channel_size, m->problems[0].limit);
	EXPECT_NE(NULL, strstr(m->problems[0].msg, "sg00 var 'b2' (MR_BUFFER)"))
		TH_LOG("%s", m->problems[0].msg);
	free(p.buf);

	/* two fit */
	ASSERT_EQ(0, plan_buffers(g->gen, 2, part, 64, 0, &p));
	ASSERT_EQ(0, nscc_plan_memory(p.buf, p.len, 0, 0, m));
	EXPECT_EQ(1, m->fits);
	free(p.buf);
	free(m);
}

/*
 * First fit at alignment on a trn1 channel of 16 GiB: 4 KiB at 0, then
 * three buffers of 5 GiB at 1 GiB alignment at 1, 6 and 11 GiB (the last
 * ends at 16 GiB exactly), then 1 GiB - 8 KiB goes back into the hole
 * below 1 GiB: it fits.  With 5 GiB + 4 KiB each, the buffers start at 1,
 * 7 and 13 GiB and the third ends past the channel although the bytes
 * (15 GiB + 16 KiB) are fewer than 16 GiB: the alignment is what does
 * not fit.
 */
TEST(first_fit_alignment)
{
	const struct kbin_gen *g = kbin_gen_target(KBIN_TARGET_TRN1);
	struct kbin_writer *w;
	struct nscc_memory *m = mem_new();
	struct plan p;
	int e = 0;

	ASSERT_NE(NULL, m);
	ASSERT_EQ(16 * GIB, g->hbm_channel_size);
	w = kbin_writer_new(g->gen);
	ASSERT_NE(NULL, w);
	e |= kbin_writer_add_subgraph(w, "sg00", 0, 0, NULL, 0) < 0;
	e |= TL_ADD(w, .id = 0, .type = KBIN_MR_INPUT, .name = "small",
		    .size = 4096, .align = 64);
	e |= TL_ADD(w, .id = 1, .type = KBIN_MR_BUFFER, .name = "a",
		    .size = 5 * GIB, .align = GIB);
	e |= TL_ADD(w, .id = 2, .type = KBIN_MR_BUFFER, .name = "b",
		    .size = 5 * GIB, .align = GIB);
	e |= TL_ADD(w, .id = 3, .type = KBIN_MR_BUFFER, .name = "c",
		    .size = 5 * GIB, .align = GIB);
	e |= TL_ADD(w, .id = 4, .type = KBIN_MR_OUTPUT, .name = "late",
		    .size = GIB - 8192, .align = 4096);
	ASSERT_EQ(0, finish(w, e ? -EINVAL : 0, &p));
	ASSERT_EQ(0, nscc_plan_memory(p.buf, p.len, 0, 0, m));
	EXPECT_EQ(1, m->fits) TH_LOG("%s", m->problems[0].msg);
	free(p.buf);

	w = kbin_writer_new(g->gen);
	ASSERT_NE(NULL, w);
	e = kbin_writer_add_subgraph(w, "sg00", 0, 0, NULL, 0) < 0;
	e |= TL_ADD(w, .id = 0, .type = KBIN_MR_INPUT, .name = "small",
		    .size = 4096, .align = 64);
	e |= TL_ADD(w, .id = 1, .type = KBIN_MR_BUFFER, .name = "a",
		    .size = 5 * GIB + 4096, .align = GIB);
	e |= TL_ADD(w, .id = 2, .type = KBIN_MR_BUFFER, .name = "b",
		    .size = 5 * GIB + 4096, .align = GIB);
	e |= TL_ADD(w, .id = 3, .type = KBIN_MR_BUFFER, .name = "c",
		    .size = 5 * GIB + 4096, .align = GIB);
	ASSERT_EQ(0, finish(w, e ? -EINVAL : 0, &p));
	ASSERT_EQ(0, nscc_plan_memory(p.buf, p.len, 0, 0, m));
	EXPECT_EQ(0, m->fits);
	ASSERT_EQ(1, m->num_problems);
	EXPECT_EQ(NSCC_FIT_HBM, m->problems[0].why);
	EXPECT_EQ(15 * GIB + 4 * 4096, m->problems[0].need);
	EXPECT_NE(NULL, strstr(m->problems[0].msg, "var 'c'")) TH_LOG("%s", m->problems[0].msg);
	EXPECT_NE(NULL, strstr(m->problems[0].msg, "alignment")) TH_LOG("%s", m->problems[0].msg);
	free(p.buf);
	free(m);
}

/* a local scratchpad of more than 1024 pages of 512 MiB */
TEST(scratchpad_pages)
{
	struct nscc_memory *m = mem_new();
	struct plan p;

	ASSERT_NE(NULL, m);
	ASSERT_EQ(0, plan_buffers(KBIN_TARGET_TRN1, 1, 4096, 64,
				  1024 * 512 * MIB + 1, &p));
	ASSERT_EQ(0, nscc_plan_memory(p.buf, p.len, 0, 0, m));
	/* the pages total the size rounded up to 4 KiB */
	EXPECT_EQ(1024 * 512 * MIB + 4096, m->core[0].bytes[NONSHARED]);
	EXPECT_EQ(4096, m->core[0].bytes[CONSTANTS]);
	EXPECT_EQ(1025 + 1, m->core[0].allocations);
	EXPECT_EQ(0, m->fits);
	ASSERT_LE(1, m->num_problems);
	EXPECT_EQ(NSCC_FIT_SCRATCHPAD_PAGES, m->problems[0].why);
	EXPECT_EQ(1025, m->problems[0].need);
	EXPECT_EQ(1024, m->problems[0].limit);
	free(p.buf);
	free(m);
}

/* a plan the checker refuses, and a generation no plan targets */
TEST(errors)
{
	struct nscc_memory *m = mem_new();
	struct plan p;

	ASSERT_NE(NULL, m);
	ASSERT_EQ(0, plan_buffers(KBIN_TARGET_TRN1, 1, 4096, 64, 0, &p));
	EXPECT_EQ(-EINVAL, nscc_plan_memory(p.buf, p.len, 1, 0, m));
	EXPECT_NE(NULL, strstr(m->error, "generation 1")) TH_LOG("%s", m->error);
	((uint8_t *)p.buf)[p.len - 1] ^= 1;	/* the checksum */
	EXPECT_EQ(-EINVAL, nscc_plan_memory(p.buf, p.len, 0, 0, m));
	EXPECT_NE('\0', m->error[0]);
	free(p.buf);
	free(m);
}

TEST_HARNESS_MAIN
