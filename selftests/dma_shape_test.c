// SPDX-License-Identifier: GPL-2.0
/*
 * dma_shape_test - the shapes of DMA descriptors at LOAD and on the DMA
 * engine (Documentation/dma.rst, Documentation/relocation.rst, "The
 * rules"), on plans built here with the KBIN writer (plan_descs()):
 *   - transpose_shape: every crafted shape of kbin_bad_transposes
 *     (products that wrap 64 bits, zero dimensions, products that are not
 *     a divisor of the bytes) is refused at LOAD by the checker
 *     (KBIN_ERR_DMA_TRANSPOSE naming the descriptor), never run; a good
 *     shape runs byte-exact against the host reference's transpose;
 *   - semaphore sets: 4096 queues naming one set of KBIN_MAX_LIST
 *     entries (2^32 entries together, which wrapped the kernel's 32-bit
 *     count) are refused at LOAD (KBIN_ERR_DMA_SEMAPHORE).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "kselftest_harness.h"
#include "kbin_reader.h"
#include "kbin_writer.h"
#include "dma_ref.h"
#include "kbin_mutate.h"
#include "plans.h"

static int run_wait(int fd, uint32_t id, struct neuronsim_run_result *res)
{
	uint32_t q = 0;
	struct neuronsim_run r = {
		.model_id = id, .num_queues = 1, .queues = (uintptr_t)&q,
	};
	struct neuronsim_wait w = {
		.model_id = id, .num_queues = 1, .queues = (uintptr_t)&q,
		.results = (uintptr_t)res, .timeout_ns = 30LL * 1000000000,
	};

	if (ioctl(fd, NEURONSIM_IOC_RUN, &r) || ioctl(fd, NEURONSIM_IOC_WAIT, &w))
		return -errno;
	return 0;
}

/* a side of @rows runs of @run bytes, @step apart, at @off of @var */
static struct kbin_dma_side side2(uint32_t var, uint8_t dtype, uint64_t off,
				  uint32_t run, uint32_t rows, uint64_t step)
{
	struct kbin_dma_side s = {
		.var_id = var, .dtype = dtype, .offset = off, .num_dims = 2,
		.sizes = { run, rows }, .steps = { 1, step },
	};

	return s;
}

FIXTURE(ds) {
	int fd;
	struct neuronsim_info info;
	struct stats base;
	uint64_t stride;
};

FIXTURE_SETUP(ds)
{
	self->fd = nsim_open();
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, nsim_get_info(self->fd, &self->info));
	ASSERT_EQ(0, read_stats(&self->base));
	self->stride = self->info.sbuf_window_size / self->info.sbuf_partitions;
}

FIXTURE_TEARDOWN(ds)
{
	close(self->fd);
}

static void expect_base(struct __test_metadata *_metadata, const struct stats *b)
{
	struct stats s;

	ASSERT_EQ(0, read_stats(&s));
	EXPECT_EQ(b->models, s.models);
	EXPECT_EQ(b->kmem_bytes, s.kmem_bytes);
	EXPECT_EQ(b->hbm_used, s.hbm_used);
	EXPECT_EQ(b->backing_bytes, s.backing_bytes);
}

/*
 * A transpose of 128 rows of 128 elements of @es bytes from v0 (row
 * after row) into 128 SBUF partitions, as the real NEFFs' (dma.rst,
 * "Transposes"), with @shape.
 */
static struct kbin_dma_desc transpose_desc(const struct neuronsim_info *info,
					   uint8_t es, const uint32_t *shape)
{
	uint8_t dt = es == 2 ? KBIN_DMA_DTYPE_FLOAT16 : KBIN_DMA_DTYPE_FLOAT32;
	uint64_t stride = info->sbuf_window_size / info->sbuf_partitions;
	struct kbin_dma_desc d = {
		.op = KBIN_DMA_OP_TRANSPOSE, .num_tiling_dims = 2,
		.transpose_elem_size = es,
		.from = side2(1, dt, 0, 128 * es, 128, 128 * es),
		.to = side2(PLAN_DMA_SB, dt, 0, 128 * es, 128, stride),
	};

	memcpy(d.transpose_op, "WZXY", 4);
	memcpy(d.transpose_shape, shape, sizeof(d.transpose_shape));
	return d;
}

TEST_F(ds, transpose_shape_refused_at_load)
{
	char log[1024];
	unsigned int i;

	for (i = 0; i < kbin_num_bad_transposes; i++) {
		const struct kbin_bad_transpose *t = &kbin_bad_transposes[i];
		struct kbin_dma_desc d = transpose_desc(&self->info, t->elem_size,
							t->shape);
		uint64_t size = t->bytes;
		struct neuronsim_run_result res;
		struct neuronsim_load l;
		struct plan p;
		uint32_t id;
		int ret;

		ASSERT_EQ(t->bytes, 128U * 128 * t->elem_size);
		ASSERT_EQ(0, plan_descs(&self->info, &size, 1, 0, &d, 1, &p));
		ret = nsim_load(self->fd, &p, 0, &id, &l, log, sizeof(log));
		plan_free(&p);
		EXPECT_EQ(-EINVAL, ret) TH_LOG("%s [%u, %u, %u, %u]: LOAD accepted it",
					       t->what, t->shape[0], t->shape[1],
					       t->shape[2], t->shape[3]);
		if (!ret) {
			/* the broken kernel runs it: this is where it crashed */
			ret = run_wait(self->fd, id, &res);
			TH_LOG("%s: RUN/WAIT %d, status %d", t->what, ret, res.status);
			nsim_unload(self->fd, id);
			continue;
		}
		EXPECT_EQ(KBIN_ERR_DMA_TRANSPOSE, l.err_reason) TH_LOG("%s: %s", t->what, log);
		EXPECT_EQ(KBIN_FIELD_DMA_DESC, l.err_field) TH_LOG("%s: %s", t->what, log);
		EXPECT_EQ(0, l.err_subgraph);
		EXPECT_NE(NULL, strstr(log, "shape [")) TH_LOG("%s: %s", t->what, log);
		EXPECT_NE(NULL, strstr(log, "block 0 descriptor 0")) TH_LOG("%s: %s", t->what, log);
		TH_LOG("%s: %s", t->what, log);
	}
	expect_base(_metadata, &self->base);
}

TEST_F(ds, transpose_matches_reference)
{
	static const uint32_t shapes[][4] = {
		{ 1, 1, 128, 128 }, { 1, 1, 128, 64 }, { 2, 1, 64, 64 },
		{ 1, 4, 32, 32 },
	};
	static const uint8_t sizes[] = { 2, 4, 4, 2 };
	uint64_t size = 65536;
	unsigned int i, b;
	uint8_t *in, *want, *got;

	in = malloc(size);
	want = malloc(size);
	got = malloc(size);
	ASSERT_TRUE(in && want && got);
	for (i = 0; i < size; i++)
		in[i] = (uint8_t)(i * 31 + i / 251);
	for (i = 0; i < sizeof(sizes); i++) {
		struct kbin_dma_desc d = transpose_desc(&self->info, sizes[i], shapes[i]);
		uint32_t bytes = 128U * 128 * sizes[i], row = 128U * sizes[i];
		struct neuronsim_run_result res;
		struct plan p;
		uint32_t id;

		ASSERT_EQ(0, plan_descs(&self->info, &size, 1, 0, &d, 1, &p));
		ASSERT_EQ(0, nsim_load(self->fd, &p, 0, &id, NULL, NULL, 0));
		plan_free(&p);
		ASSERT_EQ(0, nsim_write_var(self->fd, id, 0, 1, 0, in, bytes));
		ASSERT_EQ(0, run_wait(self->fd, id, &res));
		EXPECT_EQ(0, res.status) TH_LOG("shape %u", i);
		EXPECT_EQ(bytes, res.bytes);
		/* the to side's runs in walk order: partition b's first row bytes */
		ASSERT_EQ(0, dma_ref_transpose(&d, in, want, bytes));
		for (b = 0; b < 128; b++)
			ASSERT_EQ(0, nsim_read_var(self->fd, id, 0, PLAN_DMA_SB,
						   b * self->stride, got + b * row, row));
		EXPECT_EQ(0, memcmp(want, got, bytes)) TH_LOG("shape %u", i);
		ASSERT_EQ(0, nsim_unload(self->fd, id));
	}
	free(in);
	free(want);
	free(got);
	expect_base(_metadata, &self->base);
}

#define SEM_QUEUES	4096U

/*
 * SEM_QUEUES queues of one semaphore each, then every queue's set made
 * the same KBIN_MAX_LIST entries: the payload of var 1 (4 MiB of zeros).
 */
static int plan_sem_sets(const struct neuronsim_info *info, struct plan *p)
{
	static const uint32_t sem[] = { 0 };
	struct kbin_dma_queue_in q = {
		.q = { .num_semaphores = 1, .type = KBIN_DMA_QUEUE_DATA,
		       .owner = KBIN_DMA_ENGINE_SP, .num_queues = 1 },
		.semaphores = sem,
	};
	uint64_t bytes = (uint64_t)KBIN_MAX_LIST * 4;
	struct kbin_check_result res;
	struct kbin_dma_sg_view dv;
	struct kbin_writer *w;
	struct kbin_view v;
	uint8_t *pay = calloc(1, bytes);
	char name[32];
	uint32_t i;
	int e = 0;

	w = kbin_writer_new(info->arch_gen);
	if (!w || !pay) {
		kbin_writer_free(w);
		free(pay);
		return -ENOMEM;
	}
	if (kbin_writer_add_subgraph(w, "sg00", 0, 0, NULL, 0) < 0)
		e = -EINVAL;
	e |= plan_add(w, 0, 0, KBIN_MR_SB, "state_buffer", info->sbuf_window_size,
		      1, NULL, 0, 0, NULL, NULL, 0);
	e |= plan_add(w, 0, 1, KBIN_MR_BUFFER, "sems", bytes, 4096, "uint32",
		      KBIN_MAX_LIST, 1, pay, NULL, 0);
	for (i = 0; i < SEM_QUEUES; i++) {
		snprintf(name, sizeof(name), "q%u", i);
		q.name = name;
		e |= kbin_writer_add_dma_queue(w, 0, &q) < 0;
	}
	free(pay);
	e = plan_finish(w, e, p);
	if (e)
		return e;
	if (kbin_read(p->buf, p->len, &v, &res) || kbin_view_dma_sg(&v, 0, &dv))
		return -EINVAL;
	for (i = 0; i < SEM_QUEUES; i++) {
		struct kbin_dma_queue *kq = (struct kbin_dma_queue *)&dv.queues[i];

		kq->num_semaphores = KBIN_MAX_LIST;
		kq->semaphores = (const uint8_t *)kbin_view_payload(&v, &kbin_view_set(&v, 0)->mem[1]) -
				 (const uint8_t *)p->buf;
	}
	kbin_fix_checksum(p->buf, p->len);
	return 0;
}

TEST_F(ds, semaphore_sets_bounded)
{
	struct neuronsim_load l;
	char log[1024];
	struct plan p;
	uint32_t id;
	int ret;

	ASSERT_EQ(0, plan_sem_sets(&self->info, &p));
	ret = nsim_load(self->fd, &p, 0, &id, &l, log, sizeof(log));
	plan_free(&p);
	ASSERT_EQ(-EINVAL, ret) TH_LOG("4096 queues of 2^20 semaphores loaded");
	EXPECT_EQ(KBIN_ERR_DMA_SEMAPHORE, l.err_reason) TH_LOG("%s", log);
	TH_LOG("%s", log);
	expect_base(_metadata, &self->base);
}

TEST_HARNESS_MAIN
