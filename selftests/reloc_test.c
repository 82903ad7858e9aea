// SPDX-License-Identifier: GPL-2.0
/*
 * reloc_test - relocation at LOAD: DMA programs into UDMA rings
 * (Documentation/relocation.rst).
 *
 * On plans built here with the KBIN writer (one subgraph: the state
 * buffer, input0 and output0 in HBM, queue qSPIO0 with one block of one
 * descriptor) and on the standard plan:
 *   - rings: debugfs dma/queues has the queue's blocks, descriptors, M2S
 *     and S2M counts, rings and bytes; DMA_RING usage grows by the rings'
 *     bytes and goes back at UNLOAD; every row of the ring view resolves
 *     (RESOLVE of its var, offset and length is its address), with FIRST
 *     on a block's first and LAST|INT on its last descriptor;
 *   - a version 1 plan has no DMA directory and no ring;
 *   - split: with dma_ring_max_descs 128 a side of 1000 descriptors gets
 *     8 rings, the view's ring column follows;
 *   - oob: a descriptor one byte past its variable is refused at LOAD
 *     (the checker's KBIN_ERR_DMA_EXTENT) naming queue, block, descriptor,
 *     side and variable; nothing is left;
 *   - cap: max_udma_descs at the load's count loads, one less is -E2BIG
 *     (KBIN_ERR_STAGE_LIMIT), nothing left;
 *   - fault: fail_reloc_nth at every position fails -EIO with
 *     KBIN_ERR_STAGE_FAULT and rolls back to the baseline;
 *   - dma_info: NEURONSIM_IOC_DMA_INFO returns the queue summary and the
 *     raw descriptors of a ring range (len_ctrl bit for bit), their
 *     provenance, and every documented error.
 */
#include <errno.h>
#include <inttypes.h>
#include <sys/ioctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/neuronsim_udma.h>

#include "kselftest_harness.h"
#include "kbin_writer.h"
#include "plans.h"

#define PARAM NSIM_PARAM_DIR
#define IN_SIZE		2048ULL

/* the I/O plan's vars (tl_io_plan()) */
enum { R_SB = TL_IO_SB, R_IN = TL_IO_IN, R_OUT = TL_IO_OUT, R_N };

/* one row of a ring view */
struct row {
	unsigned int idx, ring, len, block, desc, var_id;
	unsigned long long addr, off;
	char side[8], flags[32], var[64];
};

/*
 * A plan of one subgraph whose queue qSPIO0 has one block of one copy
 * descriptor from input0 (@from) to the state buffer (@to).
 */
static int plan_dma(const struct neuronsim_info *info,
		    const struct kbin_dma_side *from,
		    const struct kbin_dma_side *to, struct plan *p)
{
	static const uint32_t sems[] = { 7 };
	struct kbin_dma_block b = { .queue = 0, .semaphore = sems[0] };
	struct kbin_dma_desc d = { .op = KBIN_DMA_OP_COPY, .num_tiling_dims = 1 };
	struct tl_io io = {
		.gen = info->arch_gen, .sb_size = info->sbuf_window_size,
		.size = IN_SIZE, .align = 64, .dtype = "float32", .d0 = 16, .d1 = 32,
	};
	struct kbin_writer *w;
	int e = 0;

	w = tl_io_plan(&io, &e);
	if (!w)
		return -ENOMEM;
	e |= TL_QUEUE(w, .name = "qSPIO0", .type = KBIN_DMA_QUEUE_IN,
		      .sem = { sems[0] }, .fabric_path = "main");
	d.from = *from;
	d.to = *to;
	e |= kbin_writer_add_dma_block(w, 0, &b, "block-0", &d, 1);
	return plan_finish(w, e, p);
}

/* a 2-D side: @n runs of @len bytes, @step apart, at @off of @var */
static struct kbin_dma_side side2(uint32_t var, uint64_t off, uint32_t len,
				  uint32_t n, uint64_t step)
{
	struct kbin_dma_side s = {
		.offset = off, .sizes = { len, n }, .steps = { 1, step },
		.var_id = var, .dtype = KBIN_DMA_DTYPE_UINT8, .num_dims = 2,
	};

	return s;
}

/* the row of queue @q in dma/queues of subgraph @sg: 12 fields */
static int queue_row(uint32_t id, uint32_t sg, unsigned int q,
		     unsigned long long *v)
{
	char path[256], *t, *l, *save = NULL, name[64], type[16], owner[16];
	unsigned int qi;
	int ret = -ENOENT;

	dbgfs_path(path, sizeof(path), "models/%u/sg%u/dma/queues", id, sg);
	t = read_file(path, NULL);
	if (!t)
		return -errno;
	for (l = strtok_r(t, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
		if (sscanf(l, "%u %63s %15s %15s %llu %llu %llu %llu %llu %llx %llx %llu",
			   &qi, name, type, owner, &v[0], &v[1], &v[2], &v[3],
			   &v[4], &v[5], &v[6], &v[7]) == 12 && qi == q)
			ret = 0;
	free(t);
	return ret;
}

/* every row of the ring view of queue @qname; the count or -errno */
static int ring_rows(uint32_t id, const char *qname, struct row *rows, int max)
{
	char path[256], line[512];
	int n = 0;
	FILE *fp;

	dbgfs_path(path, sizeof(path), "models/%u/sg0/dma/%s", id, qname);
	fp = fopen(path, "r");
	if (!fp)
		return -errno;
	if (!fgets(line, sizeof(line), fp) || strncmp(line, "index\tside", 10)) {
		fclose(fp);
		return -EINVAL;
	}
	while (n < max && fgets(line, sizeof(line), fp)) {
		struct row *r = &rows[n];

		if (sscanf(line, "%u %7s %u %u %31s %llx %u %u %u %63s %llu",
			   &r->idx, r->side, &r->ring, &r->len, r->flags, &r->addr,
			   &r->block, &r->desc, &r->var_id, r->var, &r->off) != 11)
			break;
		n++;
	}
	fclose(fp);
	return n;
}

/* every row resolves; FIRST/LAST|INT at a block's ends; counts per side */
static void check_rows(struct __test_metadata *_metadata, int fd, uint32_t id,
		       const struct row *rows, int n, unsigned int *count,
		       unsigned int per_block)
{
	int i;

	count[0] = count[1] = 0;
	for (i = 0; i < n; i++) {
		const struct row *r = &rows[i];
		int d = !strcmp(r->side, "S2M");
		const char *want = "-";
		uint64_t a = 0;

		EXPECT_EQ(count[d], r->idx) TH_LOG("row %d", i);
		count[d]++;
		EXPECT_EQ(0, nsim_resolve(fd, id, 0, r->var_id, r->off, r->len, &a))
			TH_LOG("row %d: var %u offset %llu len %u", i, r->var_id,
			       r->off, r->len);
		EXPECT_EQ(a, r->addr) TH_LOG("row %d", i);
		if (r->idx % per_block == 0)
			want = r->idx % per_block == per_block - 1 ?
			       "FIRST|LAST|INT" : "FIRST";
		else if (r->idx % per_block == per_block - 1)
			want = "LAST|INT";
		EXPECT_STREQ(want, r->flags) TH_LOG("row %d (%s %u)", i, r->side,
						     r->idx);
	}
}

static void expect_base(struct __test_metadata *_metadata,
			const struct stats *b, long long ring0)
{
	EXPECT_STATS_AT(b);
	EXPECT_EQ(ring0, dma_ring_present());
}

FIXTURE(rl) {
	STD_FIXTURE_FIELDS;
	long long ring0;
	struct row rows[4096];
};

FIXTURE_SETUP(rl)
{
	STD_FIXTURE_OPEN(self);
	self->ring0 = dma_ring_present();
	ASSERT_LE(0, self->ring0);
}

FIXTURE_TEARDOWN(rl)
{
	write_knob("fail_reloc_nth", 0);
	write_text(PARAM "max_udma_descs", "8388608");
	write_text(PARAM "dma_ring_max_descs", "16777088");
	close(self->fd);
}

/* a test's end: UNLOAD of model @id, @p freed, the counters at the base */
static void unload_to_base(struct __test_metadata *_metadata,
			   FIXTURE_DATA(rl) *self, uint32_t id, struct plan *p)
{
	ASSERT_EQ(0, nsim_unload(self->fd, id));
	plan_free(p);
	expect_base(_metadata, &self->base, self->ring0);
}

/*
 * LOAD of @p is refused with @err and @reason (enum kbin_err_reason), its
 * log has @msg, and nothing of it stays.  Return: the subgraph it names.
 */
static int32_t expect_refused(struct __test_metadata *_metadata,
			      FIXTURE_DATA(rl) *self, const struct plan *p,
			      int err, uint32_t reason, const char *msg)
{
	struct neuronsim_load l;
	char log[512] = "";
	uint32_t id;

	EXPECT_EQ(err, nsim_load(self->fd, p, 0, &id, &l, log, sizeof(log)))
		TH_LOG("log: %s", log);
	EXPECT_EQ(reason, l.err_reason);
	EXPECT_HAS(log, msg);
	expect_base(_metadata, &self->base, self->ring0);
	return l.err_subgraph;
}

/* the standard plan: 2 blocks of one descriptor, 4 runs of 512 bytes each */
TEST_F(rl, std_rings)
{
	unsigned long long v[8];
	unsigned int count[2];
	struct neuronsim_load l;
	struct plan p;
	uint32_t id;
	int n;

	ASSERT_EQ(0, plan_std(&self->info, &p));
	ASSERT_EQ(0, nsim_load(self->fd, &p, 0, &id, &l, NULL, 0));
	ASSERT_EQ(0, queue_row(id, 0, 0, v));
	/* blocks, descriptors, m2s, s2m, rings, -, -, bytes */
	EXPECT_EQ(2, v[0]);
	EXPECT_EQ(2, v[1]);
	EXPECT_EQ(8, v[2]);
	EXPECT_EQ(8, v[3]);
	EXPECT_EQ(2, v[4]);
	EXPECT_NE(0, v[5]);
	EXPECT_NE(0, v[6]);
	EXPECT_EQ(2 * 128 * 16 * 2, v[7]);
	EXPECT_EQ(self->ring0 + (long long)v[7], dma_ring_present());
	n = ring_rows(id, "qSPIO0", self->rows, 4096);
	ASSERT_EQ(16, n);
	/* interleaved: M2S 0, S2M 0, M2S 1, ... */
	EXPECT_STREQ("M2S", self->rows[0].side);
	EXPECT_STREQ("S2M", self->rows[1].side);
	EXPECT_STREQ("input0", self->rows[0].var);
	EXPECT_STREQ("state_buffer", self->rows[1].var);
	EXPECT_EQ(512, self->rows[0].len);
	EXPECT_EQ(self->info.sbuf_window_size / self->info.sbuf_partitions,
		  self->rows[3].off);
	check_rows(_metadata, self->fd, id, self->rows, n, count, 4);
	EXPECT_EQ(8, count[0]);
	EXPECT_EQ(8, count[1]);
	/* no queue in subgraph 1 */
	EXPECT_EQ(-ENOENT, queue_row(id, 1, 0, v));
	unload_to_base(_metadata, self, id, &p);
}

TEST_F(rl, v1_no_rings)
{
	unsigned long long v[8];
	struct neuronsim_load l;
	struct plan p;
	uint32_t id;

	ASSERT_EQ(0, plan_std_v1(&self->info, &p));
	ASSERT_EQ(0, nsim_load(self->fd, &p, 0, &id, &l, NULL, 0));
	EXPECT_EQ(-ENOENT, queue_row(id, 0, 0, v));
	EXPECT_EQ(self->ring0, dma_ring_present());
	unload_to_base(_metadata, self, id, &p);
}

/* 1000 runs of 2 bytes each way, rings of 128: 8 rings per side */
TEST_F(rl, split)
{
	struct kbin_dma_side from = side2(R_IN, 0, 2, 1000, 2);
	struct kbin_dma_side to = side2(R_SB, 0, 2, 1000, 2);
	unsigned long long v[8];
	unsigned int count[2];
	struct neuronsim_load l;
	struct plan p;
	uint32_t id;
	int n, i;

	ASSERT_EQ(0, write_text(PARAM "dma_ring_max_descs", "128"));
	ASSERT_EQ(0, plan_dma(&self->info, &from, &to, &p));
	ASSERT_EQ(0, nsim_load(self->fd, &p, 0, &id, &l, NULL, 0));
	ASSERT_EQ(0, queue_row(id, 0, 0, v));
	EXPECT_EQ(1000, v[2]);
	EXPECT_EQ(1000, v[3]);
	EXPECT_EQ(16, v[4]);
	EXPECT_EQ(16 * 4096, v[7]);
	EXPECT_EQ(self->ring0 + 16 * 4096, dma_ring_present());
	n = ring_rows(id, "qSPIO0", self->rows, 4096);
	ASSERT_EQ(2000, n);
	check_rows(_metadata, self->fd, id, self->rows, n, count, 1000);
	for (i = 0; i < n; i++)
		EXPECT_EQ(self->rows[i].idx / 128, self->rows[i].ring)
			TH_LOG("row %d", i);
	/* DMA_INFO across the ring boundaries agrees with the view */
	{
		static struct neuronsim_dma_desc_info d[1000];
		struct neuronsim_dma_info di = {
			.model_id = id, .flags = NEURONSIM_DMA_INFO_F_RING,
			.side = NEURONSIM_DMA_S2M, .first = 100, .count = 1000,
			.descs = (uintptr_t)d,
		};

		ASSERT_EQ(0, ioctl(self->fd, NEURONSIM_IOC_DMA_INFO, &di));
		ASSERT_EQ(900, di.count);
		for (i = 0; i < 900; i++) {
			const struct row *r = &self->rows[2 * (100 + i) + 1];
			union udma_desc u;

			memcpy(&u, d[i].desc, sizeof(u));
			EXPECT_EQ(r->addr, u.rx.buf1_ptr) TH_LOG("S2M %d", 100 + i);
			EXPECT_EQ(r->ring, d[i].ring);
			EXPECT_EQ(r->off, d[i].offset);
		}
	}
	unload_to_base(_metadata, self, id, &p);
}

/* one byte past input0: refused at LOAD, named, nothing left */
TEST_F(rl, oob_refused)
{
	struct kbin_dma_side from = side2(R_IN, 1, 512, 4, 512);
	struct kbin_dma_side to = side2(R_SB, 0, 512, 4, 262144);
	struct plan p;
	uint32_t id;

	ASSERT_EQ(0, plan_dma(&self->info, &from, &to, &p));
	EXPECT_EQ(0, expect_refused(_metadata, self, &p, -EINVAL, KBIN_ERR_DMA_EXTENT,
				    "dma queue 0 'qSPIO0' block 0 descriptor 0 from: var_id 1 'input0': extent 2049 is past its 2048 bytes"));
	plan_free(&p);
	/* the same pattern at offset 0 loads */
	from.offset = 0;
	ASSERT_EQ(0, plan_dma(&self->info, &from, &to, &p));
	ASSERT_EQ(0, nsim_load(self->fd, &p, 0, &id, NULL, NULL, 0));
	ASSERT_EQ(0, nsim_unload(self->fd, id));
	plan_free(&p);
}

/* max_udma_descs at the load's 2 x 1000 works, 1999 is -E2BIG */
TEST_F(rl, cap_edge)
{
	struct kbin_dma_side from = side2(R_IN, 0, 2, 1000, 2);
	struct kbin_dma_side to = side2(R_SB, 0, 2, 1000, 2);
	struct plan p;
	uint32_t id;

	ASSERT_EQ(0, write_text(PARAM "max_udma_descs", "2000"));
	ASSERT_EQ(0, plan_dma(&self->info, &from, &to, &p));
	ASSERT_EQ(0, nsim_load(self->fd, &p, 0, &id, NULL, NULL, 0));
	ASSERT_EQ(0, nsim_unload(self->fd, id));
	ASSERT_EQ(0, write_text(PARAM "max_udma_descs", "1999"));
	expect_refused(_metadata, self, &p, -E2BIG, KBIN_ERR_STAGE_LIMIT,
		       "to (S2M) var 0 'state_buffer' (MR_SB): module limit reached: the load's UDMA descriptors would reach 2000, above max_udma_descs 1999");
	plan_free(&p);
}

/* every relocation step of the standard plan fails once, rolled back */
TEST_F(rl, fault_every_position)
{
	struct neuronsim_load l;
	char log[512];
	struct plan p;
	uint32_t id;
	int k, ret;

	ASSERT_EQ(0, plan_std(&self->info, &p));
	for (k = 1; k < 100; k++) {
		ASSERT_EQ(0, write_knob("fail_reloc_nth", k));
		ret = nsim_load(self->fd, &p, 0, &id, &l, log, sizeof(log));
		if (!ret)
			break;
		EXPECT_EQ(-EIO, ret) TH_LOG("position %d: %s", k, log);
		EXPECT_EQ(KBIN_ERR_STAGE_FAULT, l.err_reason);
		EXPECT_NE(NULL, strstr(log, "injected by fail_reloc_nth"));
		expect_base(_metadata, &self->base, self->ring0);
	}
	/* kernel arrays; M2S and S2M ring allocations and writes */
	EXPECT_EQ(6, k) TH_LOG("the load succeeded at position %d", k);
	ASSERT_EQ(0, write_knob("fail_reloc_nth", 0));
	if (!ret)
		ASSERT_EQ(0, nsim_unload(self->fd, id));
	plan_free(&p);
	expect_base(_metadata, &self->base, self->ring0);
}

static int dma_info(int fd, struct neuronsim_dma_info *di)
{
	return ioctl(fd, NEURONSIM_IOC_DMA_INFO, di) ? -errno : 0;
}

/* the standard plan through DMA_INFO: summary, a ring range, errors */
TEST_F(rl, dma_info)
{
	uint64_t stride = self->info.sbuf_window_size / self->info.sbuf_partitions;
	struct neuronsim_dma_queue_info qi[2];
	struct neuronsim_dma_desc_info d[10];
	struct neuronsim_dma_info di;
	uint64_t in = 0, sb = 0, a;
	struct neuronsim_load l;
	struct plan p;
	uint32_t id, i;
	int other;

	ASSERT_EQ(0, plan_std(&self->info, &p));
	ASSERT_EQ(0, nsim_load(self->fd, &p, 0, &id, &l, NULL, 0));
	ASSERT_EQ(0, nsim_resolve(self->fd, id, 0, V0_IN, 0, 0, &in));
	ASSERT_EQ(0, nsim_resolve(self->fd, id, 0, V0_SB, 0, 0, &sb));

	/* the count alone, then the summary */
	memset(&di, 0, sizeof(di));
	di.model_id = id;
	ASSERT_EQ(0, dma_info(self->fd, &di));
	EXPECT_EQ(1, di.num_queues);
	memset(qi, 0xa5, sizeof(qi));
	di.num_queues = 2;
	di.queues = (uintptr_t)qi;
	ASSERT_EQ(0, dma_info(self->fd, &di));
	EXPECT_EQ(1, di.num_queues);
	EXPECT_STREQ("qSPIO0", qi[0].name);
	EXPECT_EQ(KBIN_DMA_QUEUE_IN, qi[0].type);
	EXPECT_EQ(KBIN_DMA_ENGINE_SP, qi[0].owner);
	EXPECT_EQ(2, qi[0].num_blocks);
	EXPECT_EQ(2, qi[0].num_descs);
	EXPECT_EQ(8, qi[0].m2s_descs);
	EXPECT_EQ(8, qi[0].s2m_descs);
	EXPECT_EQ(1, qi[0].m2s_rings);
	EXPECT_EQ(1, qi[0].s2m_rings);
	EXPECT_EQ(0, qi[0].m2s_ring_addr % UDMA_RING_ALIGN);
	EXPECT_TRUE(nsim_in_hbm(&self->info, qi[0].m2s_ring_addr, 4096));
	EXPECT_TRUE(nsim_in_hbm(&self->info, qi[0].s2m_ring_addr, 4096));
	EXPECT_EQ(8192, qi[0].ring_bytes);
	EXPECT_EQ(0, qi[0].reserved);
	/* the second entry is not written */
	EXPECT_EQ(0xa5a5a5a5U, qi[1].type);

	/* M2S 2..9 of 8: 6 come back, bit for bit */
	memset(&di, 0, sizeof(di));
	di.model_id = id;
	di.flags = NEURONSIM_DMA_INFO_F_RING;
	di.side = NEURONSIM_DMA_M2S;
	di.first = 2;
	di.count = 10;
	di.descs = (uintptr_t)d;
	ASSERT_EQ(0, dma_info(self->fd, &di));
	EXPECT_EQ(6, di.count);
	for (i = 0; i < di.count; i++) {
		uint32_t k = 2 + i, ctrl = 512 | (UDMA_RING_ID_INITIAL << 24);
		union udma_desc u;

		memcpy(&u, d[i].desc, sizeof(u));
		if (k % 4 == 0)
			ctrl |= UDMA_DESC_FIRST;
		if (k % 4 == 3)
			ctrl |= UDMA_DESC_LAST | UDMA_DESC_INT_EN;
		EXPECT_EQ(ctrl, u.tx.len_ctrl) TH_LOG("M2S %u", k);
		EXPECT_EQ(0, u.tx.meta_ctrl);
		a = k < 4 ? in + k * 512 : sb + (k - 4) * stride;
		EXPECT_EQ(a, u.tx.buf_ptr) TH_LOG("M2S %u", k);
		EXPECT_EQ(k < 4 ? V0_IN : V0_SB, d[i].var_id);
		EXPECT_EQ(k < 4 ? k * 512 : (k - 4) * stride, d[i].offset);
		EXPECT_EQ(k / 4, d[i].block);
		EXPECT_EQ(0, d[i].desc_index);
		EXPECT_EQ(0, d[i].ring);
		EXPECT_EQ(qi[0].m2s_ring_addr + k * 16, d[i].addr);
	}
	/* S2M 0: the state buffer, partition 0 */
	di.side = NEURONSIM_DMA_S2M;
	di.first = 0;
	di.count = 1;
	ASSERT_EQ(0, dma_info(self->fd, &di));
	EXPECT_EQ(1, di.count);
	EXPECT_EQ(sb, ((union udma_desc *)d[0].desc)->rx.buf1_ptr);
	EXPECT_EQ(qi[0].s2m_ring_addr, d[0].addr);
	/* first == count: nothing; past it: -ERANGE */
	di.first = 8;
	di.count = 4;
	ASSERT_EQ(0, dma_info(self->fd, &di));
	EXPECT_EQ(0, di.count);
	di.first = 9;
	EXPECT_EQ(-ERANGE, dma_info(self->fd, &di));
	di.first = 0;
	di.queue = 1;
	EXPECT_EQ(-EINVAL, dma_info(self->fd, &di));
	di.queue = 0;
	di.side = 2;
	EXPECT_EQ(-EINVAL, dma_info(self->fd, &di));
	di.side = 0;
	di.count = NEURONSIM_DMA_INFO_MAX_DESCS + 1;
	EXPECT_EQ(-EINVAL, dma_info(self->fd, &di));
	di.count = 1;
	di.descs = 0;
	EXPECT_EQ(-EINVAL, dma_info(self->fd, &di));
	di.descs = 8;	/* a bad pointer */
	EXPECT_EQ(-EFAULT, dma_info(self->fd, &di));
	di.descs = (uintptr_t)d;
	di.flags = 2;
	EXPECT_EQ(-EINVAL, dma_info(self->fd, &di));
	di.flags = NEURONSIM_DMA_INFO_F_RING;
	di.reserved[1] = 1;
	EXPECT_EQ(-EINVAL, dma_info(self->fd, &di));
	di.reserved[1] = 0;
	/* a ring field without F_RING */
	di.flags = 0;
	EXPECT_EQ(-EINVAL, dma_info(self->fd, &di));
	memset(&di, 0, sizeof(di));
	di.model_id = id;
	di.num_queues = 1;
	ASSERT_EQ(0, dma_info(self->fd, &di));	/* no queues pointer: the count */
	EXPECT_EQ(1, di.num_queues);
	di.num_queues = 0;
	di.subgraph = 2;
	EXPECT_EQ(-ENOENT, dma_info(self->fd, &di));
	/* subgraph 1 has no queue */
	di.subgraph = 1;
	ASSERT_EQ(0, dma_info(self->fd, &di));
	EXPECT_EQ(0, di.num_queues);
	/* another fd: -ENOENT, as every per-model command */
	other = nsim_open();
	ASSERT_LE(0, other);
	di.subgraph = 0;
	EXPECT_EQ(-ENOENT, dma_info(other, &di));
	close(other);
	di.model_id = id + 1000;
	EXPECT_EQ(-ENOENT, dma_info(self->fd, &di));
	unload_to_base(_metadata, self, id, &p);
}

NSIM_HARNESS_MAIN
