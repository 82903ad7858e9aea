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
 *   - gathers and scatters: a copy or a cast is a byte stream, the from
 *     side's runs in walk order written along the to side's; descriptors
 *     of every shape class (the real NEFF's gather of two SBUF partitions
 *     into one run, from_sizes [4, 2] to_sizes [8, 1]; a scatter; runs
 *     cut across each other; a run of several UDMA pieces against many
 *     short runs; a zero step; 4 dims into 1; casts gathering and
 *     scattering, runs past 64 KiB; a transpose between two shapes; SBUF
 *     to SBUF) run on the engine byte-exact against the host reference
 *     (userspace/cc/dma_ref.c), every variable and the SBUF partitions
 *     they touch compared;
 *   - MR_REMOTE sides: a queue of sg00 writes into, reads from and copies
 *     between MR_REMOTE vars of sg01's w1 and o1 (and the state buffer),
 *     byte-exact against the reference, the bytes landing in sg01's vars
 *     at the remote var's address, as RESOLVE gives it;
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
	STD_FIXTURE_FIELDS;
	uint64_t stride;
};

FIXTURE_SETUP(ds)
{
	STD_FIXTURE_OPEN(self);
	self->stride = self->info.sbuf_window_size / self->info.sbuf_partitions;
}

FIXTURE_TEARDOWN(ds)
{
	close(self->fd);
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
	EXPECT_STATS_AT(&self->base);
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
	EXPECT_STATS_AT(&self->base);
}

/* a seeded pattern for var @var, byte @off on */
static void pattern(uint8_t *p, uint32_t var, uint64_t off, uint64_t n)
{
	uint64_t i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(((off + i) * 2654435761U >> 7) ^ (var * 37) ^ (off + i));
}

/* the host reference's addresses: RESOLVE at offset 0 */
struct refctx {
	uint64_t pa[64];
	uint32_t n;
};

static int ref_addr(void *c, uint32_t var, uint64_t *pa)
{
	struct refctx *r = c;

	if (var >= r->n || r->pa[var] == ~0ULL)
		return -ENOENT;
	*pa = r->pa[var];
	return 0;
}

#define CMP_PARTITIONS	16U

/* compare @len bytes of var @var of subgraph @sg at @off with the reference's */
static int cmp_var(struct __test_metadata *_metadata, int fd, uint32_t id,
		   uint32_t sg, uint32_t var, uint64_t off, uint64_t len,
		   struct dma_ref_mem *m, uint8_t *dev, uint8_t *ref,
		   const char *what)
{
	uint64_t pa, k;

	if (nsim_resolve(fd, id, sg, var, 0, 1, &pa) ||
	    nsim_read_var(fd, id, sg, var, off, dev, len)) {
		TH_LOG("%s: sg %u var %u: RESOLVE or READ_VAR failed", what, sg, var);
		return 1;
	}
	dma_ref_mem_read(m, pa + off, ref, len);
	for (k = 0; k < len && dev[k] == ref[k]; k++)
		;
	if (k == len)
		return 0;
	TH_LOG("%s: sg %u var %u byte %llu: device 0x%02x, reference 0x%02x",
	       what, sg, var, (unsigned long long)(off + k), dev[k], ref[k]);
	return 1;
}

/*
 * Load plan @p (subgraph 0's queue 0; @nvars HBM vars of @sizes, then,
 * with @remote, plan_descs()'s two MR_REMOTE vars of sg01's w1 and o1),
 * fill every HBM var of sg00 with its pattern on the device and in the
 * reference, run the queue on both, compare the results, every var (the
 * remote ones through sg00 and through sg01) and the first
 * CMP_PARTITIONS SBUF partitions.  Return the number of mismatches.
 */
static int run_vs_ref(struct __test_metadata *_metadata, int fd,
		      const struct neuronsim_info *info, const struct plan *p,
		      const uint64_t *sizes, unsigned int nvars, int remote,
		      const char *what)
{
	uint64_t stride = info->sbuf_window_size / info->sbuf_partitions;
	struct kbin_check_result cres;
	struct neuronsim_run_result res;
	struct kbin_dma_sg_view dv;
	struct refctx rc = { .n = nvars + 1 + (remote ? 2 : 0) };
	struct dma_ref_mem *m = dma_ref_mem_new();
	struct dma_ref_stats st;
	struct kbin_view kv;
	uint8_t *dev = NULL, *ref = NULL;
	uint64_t max = info->sbuf_partition_size > PLAN_DMA_W1 ?
		       info->sbuf_partition_size : PLAN_DMA_W1;
	uint32_t id, i;
	int bad = 0, ret;

	for (i = 0; i < nvars; i++)
		max = sizes[i] > max ? sizes[i] : max;
	dev = malloc(max);
	ref = malloc(max);
	if (!m || !dev || !ref || kbin_read(p->buf, p->len, &kv, &cres) ||
	    kbin_view_dma_sg(&kv, 0, &dv) || nsim_load(fd, p, 0, &id, NULL, NULL, 0)) {
		TH_LOG("%s: setup or LOAD failed: %s", what, cres.err.msg);
		bad = 1;
		goto out_free;
	}
	for (i = 0; i < rc.n; i++)
		if (nsim_resolve(fd, id, 0, i, 0, 1, &rc.pa[i]))
			rc.pa[i] = ~0ULL;
	for (i = 1; i <= nvars; i++) {
		pattern(dev, i, 0, sizes[i - 1]);
		if (nsim_write_var(fd, id, 0, i, 0, dev, sizes[i - 1]) ||
		    dma_ref_mem_write(m, rc.pa[i], dev, sizes[i - 1]))
			bad++;
	}
	ret = run_wait(fd, id, &res);
	if (ret || res.status) {
		TH_LOG("%s: RUN/WAIT %d, status %d in block %u descriptor %u", what,
		       ret, res.status, res.fail_block, res.fail_desc);
		bad++;
		goto out;
	}
	ret = dma_ref_run_queue(m, &dv, 0, ref_addr, &rc, &st);
	if (ret) {
		TH_LOG("%s: the reference failed in block %u descriptor %u: %d", what,
		       st.fail_block, st.fail_desc, ret);
		bad++;
		goto out;
	}
	if (res.blocks != st.blocks || res.descs != st.descs || res.bytes != st.bytes) {
		TH_LOG("%s: blocks %u/%u, descriptors %u/%u, bytes %llu/%llu", what,
		       res.blocks, st.blocks, res.descs, st.descs,
		       (unsigned long long)res.bytes, (unsigned long long)st.bytes);
		bad++;
	}
	for (i = 1; i <= nvars; i++)
		bad += cmp_var(_metadata, fd, id, 0, i, 0, sizes[i - 1], m, dev,
			       ref, what);
	for (i = 0; remote && i < 2; i++) {
		bad += cmp_var(_metadata, fd, id, 0, nvars + 1 + i, 0, PLAN_DMA_W1,
			       m, dev, ref, what);
		bad += cmp_var(_metadata, fd, id, 1, 1 + i, 0, PLAN_DMA_W1, m, dev,
			       ref, what);
	}
	for (i = 0; i < CMP_PARTITIONS; i++)
		bad += cmp_var(_metadata, fd, id, 0, PLAN_DMA_SB, i * stride,
			       info->sbuf_partition_size, m, dev, ref, what);
out:
	EXPECT_EQ(0, nsim_unload(fd, id));
out_free:
	dma_ref_mem_free(m);
	free(dev);
	free(ref);
	return bad;
}

/* a side of one dimension: @run bytes at @off of @var */
static struct kbin_dma_side side1(uint32_t var, uint8_t dtype, uint64_t off,
				  uint32_t run)
{
	struct kbin_dma_side s = {
		.var_id = var, .dtype = dtype, .offset = off, .num_dims = 1,
		.sizes = { run }, .steps = { 1 },
	};

	return s;
}

/* a side of @n dimensions */
static struct kbin_dma_side siden(uint32_t var, uint8_t dtype, uint64_t off,
				  unsigned int n, const uint32_t *sizes,
				  const uint64_t *steps)
{
	struct kbin_dma_side s = {
		.var_id = var, .dtype = dtype, .offset = off, .num_dims = n,
	};

	memcpy(s.sizes, sizes, n * sizeof(*sizes));
	memcpy(s.steps, steps, n * sizeof(*steps));
	return s;
}

/* a cast descriptor (KBIN_DMA_OP_CAST) from @from to @to */
static struct kbin_dma_desc cast(struct kbin_dma_side from,
				 struct kbin_dma_side to)
{
	struct kbin_dma_desc d = {
		.op = KBIN_DMA_OP_CAST, .from = from, .to = to,
	};

	return d;
}

TEST_F(ds, gathers_and_scatters_match_reference)
{
	static const uint64_t sizes[] = { 256 << 10, 256 << 10, 256 << 10 };
	static const uint32_t cut_f[] = { 12, 2, 4, 2 }, cut_t[] = { 8, 3, 8 };
	static const uint64_t cut_fs[] = { 1, 12, 4096, 24 }, cut_ts[] = { 1, 16, 64 };
	static const uint32_t d4[] = { 3, 5, 7, 2 };
	static const uint64_t d4s[] = { 1, 3, 15, 105 };
	const uint8_t u8 = KBIN_DMA_DTYPE_UINT8, i8 = KBIN_DMA_DTYPE_INT8;
	const uint8_t f32 = KBIN_DMA_DTYPE_FLOAT32, f16 = KBIN_DMA_DTYPE_FLOAT16;
	const uint64_t sp = self->stride;
	struct kbin_dma_desc d[14], *x;
	struct plan p;
	unsigned int n = 0, i;
	uint32_t shape[4] = { 1, 1, 128, 128 };

	memset(d, 0, sizeof(d));
	for (i = 0; i < 14; i++)
		d[i].op = KBIN_DMA_OP_COPY;
	/* 0: a scatter: one run of v0 into 8 partitions */
	d[n].from = side1(1, u8, 7, 4096);
	d[n++].to = side2(PLAN_DMA_SB, u8, 0, 512, 8, sp);
	/* 1: the real NEFF's gather: 2 partitions, from_sizes [4, 2] -> [8, 1] */
	d[n].from = side2(PLAN_DMA_SB, u8, 100, 4, 2, sp);
	d[n++].to = side2(2, u8, 3, 8, 1, 8);
	/* 2: runs of 12 bytes over 4 dims into runs of 8 over 3 */
	d[n].from = siden(1, u8, 100, 4, cut_f, cut_fs);
	d[n++].to = siden(2, u8, 1000, 3, cut_t, cut_ts);
	/* 3: one run of 4 UDMA pieces into 200 runs of 1000 bytes */
	d[n].from = side1(1, u8, 5, 200000);
	d[n++].to = side2(3, u8, 0, 1000, 200, 1024);
	/* 4: 200 runs of 1000 bytes into one run of 4 pieces */
	d[n].from = side2(1, u8, 0, 1000, 200, 1100);
	d[n++].to = side1(3, u8, 30000, 200000);
	/* 5: a zero step: one 16-byte run four times into 64 bytes */
	d[n].from = side2(1, u8, 64, 16, 4, 0);
	d[n++].to = side1(2, u8, 5000, 64);
	/* 6: 4 dims into one run */
	d[n].from = siden(1, u8, 11, 4, d4, d4s);
	d[n++].to = side1(2, u8, 6000, 210);
	/* 7: cast int8 gather: 4 runs of 32 -> one float32 run of 512 */
	d[n++] = cast(side2(1, i8, 0, 32, 4, 64),
		      side1(2, f32, 8192, 512));
	/* 8: cast float32 scatter: 256 elements -> 8 float16 runs of 32 */
	d[n++] = cast(side1(1, f32, 4096, 1024),
		      side2(2, f16, 12000, 64, 8, 100));
	/* 9: cast int8 -> float32, the to run past 64 KiB (2 pieces) */
	d[n++] = cast(side2(1, i8, 0, 8192, 4, 8192),
		      side1(3, f32, 0, 131072));
	/* 10: and back, float32 131072 bytes into int8 runs of 16384 */
	d[n++] = cast(side1(3, f32, 0, 131072),
		      side2(2, i8, 16384, 16384, 2, 20000));
	/* 11: a transpose from one run into 128 partitions */
	x = &d[n++];
	x->op = KBIN_DMA_OP_TRANSPOSE;
	x->from = side1(1, f16, 0, 32768);
	x->to = side2(PLAN_DMA_SB, f16, 1024, 256, 128, sp);
	x->transpose_elem_size = 2;
	memcpy(x->transpose_op, "WZXY", 4);
	memcpy(x->transpose_shape, shape, sizeof(shape));
	/* 12: SBUF to SBUF: 4 partitions into one run of partition 10 */
	d[n].from = side2(PLAN_DMA_SB, u8, 0, 512, 4, sp);
	d[n++].to = side1(PLAN_DMA_SB, u8, 10 * sp + 4096, 2048);
	ASSERT_EQ(0, plan_descs(&self->info, sizes, 3, 0, d, n, &p));
	EXPECT_EQ(0, run_vs_ref(_metadata, self->fd, &self->info, &p, sizes, 3, 0,
				"every shape class"));
	plan_free(&p);
	/* each alone too, so a mismatch names its descriptor */
	for (i = 0; i < n; i++) {
		char what[32];

		snprintf(what, sizeof(what), "descriptor %u alone", i);
		ASSERT_EQ(0, plan_descs(&self->info, sizes, 3, 0, &d[i], 1, &p));
		EXPECT_EQ(0, run_vs_ref(_metadata, self->fd, &self->info, &p, sizes,
					3, 0, what));
		plan_free(&p);
	}
	EXPECT_STATS_AT(&self->base);
}

TEST_F(ds, remote_sides_match_reference)
{
	static const uint64_t sizes[] = { 64 << 10, 64 << 10 };
	const uint8_t u8 = KBIN_DMA_DTYPE_UINT8;
	const uint32_t rw = 3, ro = 4;	/* r_w1, r_o1: plan_descs() */
	struct kbin_dma_desc d[5];
	uint8_t *want, *got;
	uint32_t id, i;
	struct plan p;

	memset(d, 0, sizeof(d));
	for (i = 0; i < 5; i++)
		d[i].op = KBIN_DMA_OP_COPY;
	d[0].from = side1(1, u8, 0, 4096);		/* into a remote */
	d[0].to = side1(rw, u8, 100, 4096);
	d[1].from = side2(rw, u8, 100, 8, 64, 32);	/* remote to remote */
	d[1].to = side1(ro, u8, 7, 512);
	d[2].from = side1(ro, u8, 7, 512);		/* remote to SBUF */
	d[2].to = side2(PLAN_DMA_SB, u8, 64, 256, 2, self->stride);
	d[3].from = side2(PLAN_DMA_SB, u8, 64, 256, 2, self->stride);
	d[3].to = side1(ro, u8, 30000, 512);		/* SBUF to a remote */
	d[4].op = KBIN_DMA_OP_CAST;			/* from a remote, cast */
	d[4].from = side1(rw, KBIN_DMA_DTYPE_INT8, 100, 64);
	d[4].to = side1(2, KBIN_DMA_DTYPE_FLOAT32, 0, 256);
	ASSERT_EQ(0, plan_descs(&self->info, sizes, 2, 1, d, 5, &p));
	EXPECT_EQ(0, run_vs_ref(_metadata, self->fd, &self->info, &p, sizes, 2, 1,
				"remote sides"));
	/* and by hand: v0's first 4096 bytes in sg01's w1 at 100 */
	ASSERT_EQ(0, nsim_load(self->fd, &p, 0, &id, NULL, NULL, 0));
	plan_free(&p);
	want = malloc(4096);
	got = malloc(4096);
	ASSERT_TRUE(want && got);
	pattern(want, 1, 0, 4096);
	ASSERT_EQ(0, nsim_write_var(self->fd, id, 0, 1, 0, want, 4096));
	{
		struct neuronsim_run_result res;

		ASSERT_EQ(0, run_wait(self->fd, id, &res));
		EXPECT_EQ(0, res.status);
	}
	ASSERT_EQ(0, nsim_read_var(self->fd, id, 1, 1, 100, got, 4096));
	EXPECT_EQ(0, memcmp(want, got, 4096));
	ASSERT_EQ(0, nsim_unload(self->fd, id));
	free(want);
	free(got);
	EXPECT_STATS_AT(&self->base);
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
	e |= TL_ADD(w, .id = 0, .type = KBIN_MR_SB, .name = "state_buffer",
		    .size = info->sbuf_window_size);
	e |= TL_ADD(w, .id = 1, .type = KBIN_MR_BUFFER, .name = "sems",
		    .size = bytes, .align = 4096, .dtype = "uint32",
		    .d0 = KBIN_MAX_LIST, .d1 = 1, .payload = pay);
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
	EXPECT_STATS_AT(&self->base);
}

NSIM_HARNESS_MAIN
