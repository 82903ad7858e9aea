// SPDX-License-Identifier: GPL-2.0
/*
 * run_test - the DMA engine's semantics and its RUN / WAIT / poll()
 * interface (Documentation/dma.rst), on plans built here with the KBIN
 * writer: one subgraph with the state buffer, input0 and output0 in HBM
 * and two queues, qIn (NB blocks, each one descriptor copying or casting
 * a slice of input0 into the state buffer, one partition per block) and
 * qOut (one block copying input0 to output0).
 *   - copy: the bytes land in their partitions, the rest of SBUF stays
 *     zero; the result's blocks, descriptors, UDMA descriptors and bytes;
 *     each block adds its queue's num_queues (2) to its semaphore;
 *     debugfs dma/runs, dma/
 *     semaphores and the engine counters agree;
 *   - cast int8 -> float32 and float32 -> float16 element by element;
 *   - copies over a source with holes, off page boundaries and in whole
 *     pages, onto pages without backing and again onto the same pages:
 *     the bytes land, only pages that receive a nonzero byte get backing;
 *   - the backing RAM cap: a run that needs a new page past it stops with
 *     -ENOMEM naming the block and descriptor; the device stays
 *     consistent (UNLOAD gives every byte back);
 *   - fail_run_nth: the Nth descriptor fails with -EIO, named;
 *   - WAIT: a tiny timeout gives -ETIMEDOUT, a signal -EINTR; poll()
 *     wakes with EPOLLIN when a run is done, not after WAIT;
 *   - UNLOAD and close while a queue runs stop it cleanly;
 *   - the largest run the caps allow (max_run_bytes, 4 GiB, read and
 *     written in max_udma_descs UDMA descriptors of 1 KiB) loads and one
 *     byte more is refused naming max_run_bytes; close of an fd whose
 *     run is queued behind another fd's on the same core, UNLOAD of that
 *     other fd's model while its run runs, and SIGKILL of a process in
 *     WAIT with three such runs on three cores (its exit closes their
 *     fd) each return promptly (NSIM_PROMPT_MS);
 *   - every documented error of RUN and WAIT; another fd's model is
 *     -ENOENT; max_runs_per_fd gives -EAGAIN.
 * It also prints the engine's bandwidth on a 64 MiB HBM -> HBM copy next
 * to memcpy() in the same VM (a figure, not a check).
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "kbin_writer.h"
#include "plans.h"

#define NB		ENGINE_NB
#define SLICE		ENGINE_SLICE
#define V_SB		ENGINE_V_SB
#define V_IN		ENGINE_V_IN
#define V_OUT		ENGINE_V_OUT

static int run_q(int fd, uint32_t id, const uint32_t *q, uint32_t n)
{
	struct neuronsim_run r = {
		.model_id = id, .num_queues = n, .queues = (uintptr_t)q,
	};

	return ioctl(fd, NEURONSIM_IOC_RUN, &r) ? -errno : 0;
}

static int wait_q(int fd, uint32_t id, const uint32_t *q, uint32_t n,
		  struct neuronsim_run_result *res, int64_t timeout_ns)
{
	struct neuronsim_wait w = {
		.model_id = id, .num_queues = n, .queues = (uintptr_t)q,
		.results = (uintptr_t)res, .timeout_ns = timeout_ns,
	};

	return ioctl(fd, NEURONSIM_IOC_WAIT, &w) ? -errno : 0;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* column @col of the row of queue @q in models/ID/sg0/dma/runs */
static int runs_field(uint32_t id, unsigned int q, int col, char *out, size_t n)
{
	char path[256], *t, *l, *save = NULL;
	int ret = -ENOENT;

	dbgfs_path(path, sizeof(path), "models/%u/sg0/dma/runs", id);
	t = read_file(path, NULL);
	if (!t)
		return -errno;
	for (l = strtok_r(t, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char *f[16], *s2 = NULL, *c;
		int k = 0;

		for (c = strtok_r(l, "\t", &s2); c && k < 16; c = strtok_r(NULL, "\t", &s2))
			f[k++] = c;
		if (k >= 12 && (unsigned int)atoi(f[0]) == q && isdigit(f[0][0])) {
			snprintf(out, n, "%s", f[col]);
			ret = 0;
		}
	}
	free(t);
	return ret;
}

/* the engine counters of core 0: bytes, udma_descs, descs, runs, errors */
static int engine_row(unsigned long long *v)
{
	char path[256], *t, *l, *save = NULL;
	int ret = -ENOENT;

	dbgfs_path(path, sizeof(path), "engine");
	t = read_file(path, NULL);
	if (!t)
		return -errno;
	for (l = strtok_r(t, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
		if (sscanf(l, "0 %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2],
			   &v[3], &v[4], &v[5]) == 6)
			ret = 0;
	free(t);
	return ret;
}

FIXTURE(rn) {
	STD_FIXTURE_FIELDS;
	uint64_t stride;
	uint8_t *buf;
};

FIXTURE_SETUP(rn)
{
	STD_FIXTURE_OPEN(self);
	self->stride = self->info.sbuf_window_size / self->info.sbuf_partitions;
	self->buf = malloc(4 * NB * SLICE);
	ASSERT_NE(NULL, self->buf);
}

FIXTURE_TEARDOWN(rn)
{
	char v[32];

	write_knob("fail_run_nth", 0);
	nsim_param_write("max_runs_per_fd", "64");
	snprintf(v, sizeof(v), "%llu", (unsigned long long)self->info.backing_limit);
	nsim_param_write("backing_limit", v);
	free(self->buf);
	close(self->fd);
}

TEST_F(rn, copy_lands_in_partitions)
{
	unsigned long long e0[6], e1[6];
	struct neuronsim_run_result res;
	uint32_t id, q = 0, i, b;
	char f[64], path[256], *t;
	struct plan p;
	uint8_t *sb;

	ASSERT_EQ(0, plan_engine(&self->info, NB * SLICE, KBIN_DMA_DTYPE_UINT8,
			      KBIN_DMA_DTYPE_UINT8, &p));
	ASSERT_EQ(0, nsim_load(self->fd, &p, 0, &id, NULL, NULL, 0));
	plan_free(&p);
	for (i = 0; i < NB * SLICE; i++)
		self->buf[i] = (uint8_t)(i * 7 + i / 4096);
	ASSERT_EQ(0, nsim_write_var(self->fd, id, 0, V_IN, 0, self->buf, NB * SLICE));
	ASSERT_EQ(0, runs_field(id, 0, 2, f, sizeof(f)));
	EXPECT_STREQ("idle", f);
	ASSERT_EQ(0, engine_row(e0));
	ASSERT_EQ(0, run_q(self->fd, id, &q, 1));
	ASSERT_EQ(0, wait_q(self->fd, id, &q, 1, &res, 10LL * 1000000000));
	EXPECT_EQ(NEURONSIM_RUN_DONE, res.state);
	EXPECT_EQ(0, res.status);
	EXPECT_EQ(NB, res.blocks);
	EXPECT_EQ(NB, res.descs);
	EXPECT_EQ(2 * NB, res.udma_descs);	/* one M2S, one S2M per block */
	EXPECT_EQ(NB * SLICE, res.bytes);
	EXPECT_EQ(0xffffffffU, res.fail_block);
	EXPECT_EQ(1, res.runs);
	/* every partition: slice b at byte 0 of partition b, zeros elsewhere */
	sb = calloc(1, self->info.sbuf_partition_size);
	ASSERT_NE(NULL, sb);
	for (b = 0; b < self->info.sbuf_partitions; b++) {
		ASSERT_EQ(0, nsim_read_var(self->fd, id, 0, V_SB, b * self->stride, sb,
					   self->info.sbuf_partition_size));
		if (b < NB)
			EXPECT_EQ(0, memcmp(sb, self->buf + b * SLICE, SLICE))
				TH_LOG("partition %u", b);
		for (i = b < NB ? SLICE : 0; i < self->info.sbuf_partition_size; i++)
			if (sb[i])
				break;
		EXPECT_EQ(self->info.sbuf_partition_size, i) TH_LOG("partition %u", b);
	}
	free(sb);
	ASSERT_EQ(0, runs_field(id, 0, 2, f, sizeof(f)));
	EXPECT_STREQ("done", f);
	ASSERT_EQ(0, runs_field(id, 0, 4, f, sizeof(f)));
	EXPECT_STREQ("8/8", f);
	dbgfs_path(path, sizeof(path), "models/%u/sg0/dma/semaphores", id);
	t = read_file(path, NULL);
	ASSERT_NE(NULL, t);
	/* each of the 8 blocks adds qIn's num_queues, 2 (not 1) */
	EXPECT_NE(NULL, strstr(t, "0\tqIn\t7\t16\n")) TH_LOG("%s", t);
	EXPECT_NE(NULL, strstr(t, "1\tqOut\t9\t0\n")) TH_LOG("%s", t);
	free(t);
	ASSERT_EQ(0, engine_row(e1));
	EXPECT_EQ(e0[0] + NB * SLICE, e1[0]);
	EXPECT_EQ(e0[1] + 2 * NB, e1[1]);
	EXPECT_EQ(e0[2] + NB, e1[2]);
	EXPECT_EQ(e0[3] + 1, e1[3]);
	EXPECT_EQ(e0[4], e1[4]);
	/* qOut: input0 into output0 */
	q = 1;
	ASSERT_EQ(0, run_q(self->fd, id, &q, 1));
	ASSERT_EQ(0, wait_q(self->fd, id, &q, 1, &res, -1));
	EXPECT_EQ(0, res.status);
	sb = malloc(NB * SLICE);
	ASSERT_NE(NULL, sb);
	ASSERT_EQ(0, nsim_read_var(self->fd, id, 0, V_OUT, 0, sb, NB * SLICE));
	EXPECT_EQ(0, memcmp(sb, self->buf, NB * SLICE));
	free(sb);
	ASSERT_EQ(0, nsim_unload(self->fd, id));
	EXPECT_STATS_AT(&self->base);
}

TEST_F(rn, cast_elementwise)
{
	struct neuronsim_run_result res;
	uint32_t id, q = 0, i;
	struct plan p;
	float *f;
	int8_t *s8;
	uint16_t *h;

	/* int8 -> float32: slice b (4096 elements) to partition b */
	ASSERT_EQ(0, plan_engine(&self->info, NB * SLICE, KBIN_DMA_DTYPE_INT8,
			      KBIN_DMA_DTYPE_FLOAT32, &p));
	ASSERT_EQ(0, nsim_load(self->fd, &p, 0, &id, NULL, NULL, 0));
	plan_free(&p);
	s8 = (int8_t *)self->buf;
	for (i = 0; i < NB * SLICE; i++)
		s8[i] = (int8_t)(i * 13);
	ASSERT_EQ(0, nsim_write_var(self->fd, id, 0, V_IN, 0, s8, NB * SLICE));
	ASSERT_EQ(0, run_q(self->fd, id, &q, 1));
	ASSERT_EQ(0, wait_q(self->fd, id, &q, 1, &res, -1));
	EXPECT_EQ(0, res.status);
	EXPECT_EQ(NB * SLICE * 4, res.bytes);
	f = malloc(SLICE * 4);
	ASSERT_NE(NULL, f);
	ASSERT_EQ(0, nsim_read_var(self->fd, id, 0, V_SB, 3 * self->stride, f, SLICE * 4));
	for (i = 0; i < SLICE; i++)
		if (f[i] != (float)s8[3 * SLICE + i])
			break;
	EXPECT_EQ(SLICE, i) TH_LOG("element %u: %g, want %d", i, f[i], s8[3 * SLICE + i]);
	free(f);
	ASSERT_EQ(0, nsim_unload(self->fd, id));

	/* float32 -> float16: ties to even, Inf past 65504 */
	ASSERT_EQ(0, plan_engine(&self->info, NB * SLICE * 4, KBIN_DMA_DTYPE_FLOAT32,
			      KBIN_DMA_DTYPE_FLOAT16, &p));
	ASSERT_EQ(0, nsim_load(self->fd, &p, 0, &id, NULL, NULL, 0));
	plan_free(&p);
	f = (float *)self->buf;
	for (i = 0; i < NB * SLICE; i++)
		f[i] = 1.0f + i / 2048.0f;	/* every other one a tie */
	f[0] = 65520.0f;
	ASSERT_EQ(0, nsim_write_var(self->fd, id, 0, V_IN, 0, f, NB * SLICE * 4));
	ASSERT_EQ(0, run_q(self->fd, id, &q, 1));
	ASSERT_EQ(0, wait_q(self->fd, id, &q, 1, &res, -1));
	EXPECT_EQ(0, res.status);
	h = malloc(SLICE * 2);
	ASSERT_NE(NULL, h);
	ASSERT_EQ(0, nsim_read_var(self->fd, id, 0, V_SB, 0, h, SLICE * 2));
	EXPECT_EQ(0x7c00, h[0]);		/* 65520: Inf */
	EXPECT_EQ(0x3c01, h[2]);		/* 1 + 2/2048 = 1 + 2^-10: exact */
	EXPECT_EQ(0x3c00, h[1]);		/* 1 + 2^-11: tie, to even */
	EXPECT_EQ(0x3c02, h[3]);		/* 1 + 3 * 2^-11: tie, to even */
	for (i = 1; i < SLICE; i++) {
		_Float16 x = (_Float16)f[i];
		uint16_t want;

		memcpy(&want, &x, 2);
		if (h[i] != want)
			break;
	}
	EXPECT_EQ(SLICE, i);
	free(h);
	ASSERT_EQ(0, nsim_unload(self->fd, id));
	EXPECT_STATS_AT(&self->base);
}

#define SP_SIZE		(256U << 10)	/* input0 and output0: 64 pages each */
#define SP_D0_FROM	100U		/* descriptor 0: 3 pieces of 64 KiB */
#define SP_D0_TO	3000U
#define SP_D0_LEN	(3U * 65536)
#define SP_D1_TO	(50U * 4096)	/* descriptor 1: 10 pages, aligned */
#define SP_D1_LEN	(10U * 4096)

/*
 * A writer with subgraph sg00 holding input0 (var 0) and, with @output,
 * output0 (var 1), SP_SIZE bytes each, page aligned, and one data queue
 * @queue (semaphore 3): what the sparse-copy plans share.  NULL on
 * ENOMEM; *@e collects the other errors.
 */
static struct kbin_writer *sp_writer(const struct neuronsim_info *info,
				     const char *queue, bool output, int *e)
{
	struct kbin_writer *w = kbin_writer_new(info->arch_gen);

	if (!w)
		return NULL;
	if (kbin_writer_add_subgraph(w, "sg00", 0, 0, NULL, 0) < 0)
		*e = -EINVAL;
	*e |= TL_ADD(w, .id = 0, .type = KBIN_MR_INPUT, .name = "input0",
		     .size = SP_SIZE, .align = 4096, .dtype = "uint8",
		     .d0 = SP_SIZE, .d1 = 1);
	if (output)
		*e |= TL_ADD(w, .id = 1, .type = KBIN_MR_OUTPUT,
			     .name = "output0", .size = SP_SIZE, .align = 4096,
			     .dtype = "uint8", .d0 = SP_SIZE, .d1 = 1);
	*e |= TL_QUEUE(w, .name = queue, .type = KBIN_DMA_QUEUE_DATA,
		       .sem = { 3 }) < 0;
	return w;
}

/* block @id (named @name) of sp_writer()'s queue: one copy @from -> @to */
static int sp_add_copy(struct kbin_writer *w, uint32_t id, const char *name,
		       struct kbin_dma_side from, struct kbin_dma_side to)
{
	struct kbin_dma_desc d = {
		.op = KBIN_DMA_OP_COPY, .num_tiling_dims = 1, .from = from, .to = to,
	};
	struct kbin_dma_block b = { .queue = 0, .id = id, .semaphore = 3 };

	return kbin_writer_add_dma_block(w, 0, &b, name, &d, 1);
}

/*
 * Queue qCopy of one subgraph with input0 and output0 (SP_SIZE bytes,
 * page aligned, HBM): block 0 copies input0 from SP_D0_FROM to output0
 * at SP_D0_TO, SP_D0_LEN bytes, neither side on a page boundary; block 1
 * copies the first SP_D1_LEN bytes of input0 to output0 at SP_D1_TO,
 * whole pages.
 */
static int plan_sparse_copy(const struct neuronsim_info *info, struct plan *p)
{
	static const uint32_t sz0[] = { 65536, SP_D0_LEN / 65536 }, sz1[] = { SP_D1_LEN };
	static const uint64_t st0[] = { 1, 65536 }, st1[] = { 1 };
	const uint32_t u8 = KBIN_DMA_DTYPE_UINT8;
	int e = 0;
	struct kbin_writer *w = sp_writer(info, "qCopy", true, &e);

	if (!w)
		return -ENOMEM;
	e |= sp_add_copy(w, 0, "unaligned", tl_side(0, u8, SP_D0_FROM, 2, sz0, st0),
			 tl_side(1, u8, SP_D0_TO, 2, sz0, st0));
	e |= sp_add_copy(w, 1, "aligned", tl_side(0, u8, 0, 1, sz1, st1),
			 tl_side(1, u8, SP_D1_TO, 1, sz1, st1));
	return plan_finish(w, e, p);
}

/* output0 as qCopy leaves it from @in; its pages with a nonzero byte */
static unsigned int sparse_expect(const uint8_t *in, uint8_t *out)
{
	unsigned int pg, i, n = 0;

	memset(out, 0, SP_SIZE);
	memcpy(out + SP_D0_TO, in + SP_D0_FROM, SP_D0_LEN);
	memcpy(out + SP_D1_TO, in, SP_D1_LEN);
	for (pg = 0; pg < SP_SIZE / 4096; pg++) {
		for (i = 0; i < 4096 && !out[pg * 4096 + i]; i++)
			;
		n += i < 4096;
	}
	return n;
}

/*
 * Copies over a source with holes (pages never written read as zeros),
 * neither side on a page boundary and a run of whole pages, onto an
 * output without backing, then again onto the pages it got: the bytes
 * land shifted as the descriptors say, a destination page gets backing
 * only when it receives a nonzero byte (a written page of zeros and a
 * hole cost nothing), and a second run over a fully written input fills
 * every page.
 */
TEST_F(rn, copy_sparse_unaligned)
{
	static const unsigned int written[] = { 0, 1, 5, 15, 16, 17, 30, 47 };
	uint8_t *in = malloc(SP_SIZE), *want = malloc(SP_SIZE), *got = malloc(SP_SIZE);
	struct neuronsim_run_result res;
	uint32_t id, q = 0, i, pages, pages0 = 0;
	struct stats s0, s1;
	struct plan p;
	char log[512];
	int round;

	ASSERT_NE(NULL, in);
	ASSERT_NE(NULL, want);
	ASSERT_NE(NULL, got);
	ASSERT_EQ(0, plan_sparse_copy(&self->info, &p));
	ASSERT_EQ(0, nsim_load(self->fd, &p, 0, &id, NULL, log, sizeof(log))) TH_LOG("%s", log);
	plan_free(&p);
	memset(in, 0, SP_SIZE);
	for (i = 0; i < sizeof(written) / sizeof(written[0]); i++) {
		uint32_t k, pg = written[i];

		for (k = 0; k < 4096; k++)
			in[pg * 4096 + k] = (uint8_t)((pg * 4096 + k) % 251 + 1);
		ASSERT_EQ(0, nsim_write_var(self->fd, id, 0, 0, pg * 4096,
					    in + pg * 4096, 4096));
	}
	/* page 9: written, all zeros (backing, but nothing to copy) */
	ASSERT_EQ(0, nsim_write_var(self->fd, id, 0, 0, 9 * 4096, in + 9 * 4096, 4096));
	for (round = 0; round < 3; round++) {
		if (round == 2) {
			/* every input byte nonzero: every reached page fills */
			for (i = 0; i < SP_SIZE; i++)
				in[i] = (uint8_t)(i % 253 + 1);
			ASSERT_EQ(0, nsim_write_var(self->fd, id, 0, 0, 0, in, SP_SIZE));
		}
		pages = sparse_expect(in, want);
		ASSERT_EQ(0, read_stats(&s0));
		ASSERT_EQ(0, run_q(self->fd, id, &q, 1));
		ASSERT_EQ(0, wait_q(self->fd, id, &q, 1, &res, -1));
		EXPECT_EQ(0, res.status);
		EXPECT_EQ(2, res.blocks);
		EXPECT_EQ(SP_D0_LEN + SP_D1_LEN, res.bytes);
		ASSERT_EQ(0, read_stats(&s1));
		ASSERT_EQ(0, nsim_read_var(self->fd, id, 0, 1, 0, got, SP_SIZE));
		for (i = 0; i < SP_SIZE && got[i] == want[i]; i++)
			;
		EXPECT_EQ(SP_SIZE, i) TH_LOG("round %d: output0 byte %u is %u, not %u",
					     round, i, got[i % SP_SIZE], want[i % SP_SIZE]);
		/*
		 * output0 had no backing before round 0, which gives its
		 * pages with a nonzero byte backing; round 1 adds none, round
		 * 2 the pages that get their first nonzero byte
		 */
		if (round == 0)
			pages0 = pages;
		EXPECT_EQ(4096LL * (round == 1 ? 0 : pages - (round ? pages0 : 0)),
			  s1.backing_bytes - s0.backing_bytes)
			TH_LOG("round %d: %u output pages have a nonzero byte (round 0: %u)",
			       round, pages, pages0);
	}
	free(in);
	free(want);
	free(got);
	ASSERT_EQ(0, nsim_unload(self->fd, id));
	EXPECT_STATS_AT(&self->base);
}

/*
 * Queue qShift: one block copying input0's first OV_LEN bytes OV_SHIFT
 * bytes forward, onto itself.
 */
#define OV_SHIFT	64U
#define OV_LEN		(48U * 4096)	/* each page after the first: the case */
static int plan_overlap(const struct neuronsim_info *info, struct plan *p)
{
	static const uint32_t sz[] = { OV_LEN };
	static const uint64_t st[] = { 1 };
	int e = 0;
	struct kbin_writer *w = sp_writer(info, "qShift", false, &e);

	if (!w)
		return -ENOMEM;
	e |= sp_add_copy(w, 0, "shift", tl_side(0, KBIN_DMA_DTYPE_UINT8, 0, 1, sz, st),
			 tl_side(0, KBIN_DMA_DTYPE_UINT8, OV_SHIFT, 1, sz, st));
	return plan_finish(w, e, p);
}

/*
 * A copy forward onto itself whose later pages have no backing: a whole
 * destination page gets its first bytes from the page before it and the
 * rest from itself, so it must hold those bytes and zeros - never what
 * the page held in the kernel before (the VM boots with
 * init_on_alloc=0, scripts/vm.sh, so the kernel does not zero it; the
 * test leaves 0xc3 in freed kernel pages first).
 */
TEST_F(rn, copy_onto_itself_leaks_nothing)
{
	uint8_t *buf = malloc(OV_LEN + 4096);
	struct neuronsim_run_result res;
	uint32_t id, q = 0, i;
	struct plan p;
	char log[512];
	uint8_t *dirty = malloc(SP_SIZE);
	cpu_set_t all;
	int cpu;

	ASSERT_NE(NULL, buf);
	ASSERT_NE(NULL, dirty);
	ASSERT_EQ(0, plan_overlap(&self->info, &p));
	ASSERT_EQ(0, nsim_load(self->fd, &p, 0, &id, NULL, log, sizeof(log))) TH_LOG("%s", log);
	memset(buf, 0x5a, 4096);
	ASSERT_EQ(0, nsim_write_var(self->fd, id, 0, 0, 0, buf, 4096));
	/*
	 * leave old bytes (0xc3) in the pages the kernel hands out next:
	 * on every CPU (the engine's worker allocates from its CPU's
	 * lists), the backing of another model's written input, freed by
	 * its UNLOAD
	 */
	ASSERT_EQ(0, sched_getaffinity(0, sizeof(all), &all));
	memset(dirty, 0xc3, SP_SIZE);
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		cpu_set_t one;
		uint32_t other;

		if (!CPU_ISSET(cpu, &all))
			continue;
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		ASSERT_EQ(0, sched_setaffinity(0, sizeof(one), &one));
		ASSERT_EQ(0, nsim_load(self->fd, &p, 0, &other, NULL, NULL, 0));
		ASSERT_EQ(0, nsim_write_var(self->fd, other, 0, 0, 0, dirty, SP_SIZE));
		ASSERT_EQ(0, nsim_unload(self->fd, other));
	}
	ASSERT_EQ(0, sched_setaffinity(0, sizeof(all), &all));
	plan_free(&p);
	ASSERT_EQ(0, run_q(self->fd, id, &q, 1));
	ASSERT_EQ(0, wait_q(self->fd, id, &q, 1, &res, -1));
	EXPECT_EQ(0, res.status);
	EXPECT_EQ(OV_LEN, res.bytes);
	ASSERT_EQ(0, nsim_read_var(self->fd, id, 0, 0, 0, buf, OV_LEN + 4096));
	for (i = 0; i < OV_SHIFT + 4096; i++)
		if (buf[i] != 0x5a)
			break;
	EXPECT_EQ(OV_SHIFT + 4096, i) TH_LOG("byte %u is 0x%02x, not 0x5a", i, buf[i]);
	/* the rest: page 0's bytes carried forward, or zeros */
	for (; i < OV_LEN + 4096; i++)
		if (buf[i] != 0x5a && buf[i])
			break;
	EXPECT_EQ(OV_LEN + 4096, i) TH_LOG("byte %u is 0x%02x: neither a copied byte nor zero",
					   i, buf[i % (OV_LEN + 4096)]);
	free(buf);
	free(dirty);
	ASSERT_EQ(0, nsim_unload(self->fd, id));
	EXPECT_STATS_AT(&self->base);
}

TEST_F(rn, backing_cap_stops_cleanly)
{
	struct neuronsim_run_result res;
	uint32_t id, q = 0;
	struct stats s;
	struct plan p;
	char v[32];

	ASSERT_EQ(0, plan_engine(&self->info, NB * SLICE, KBIN_DMA_DTYPE_UINT8,
			      KBIN_DMA_DTYPE_UINT8, &p));
	ASSERT_EQ(0, nsim_load(self->fd, &p, 0, &id, NULL, NULL, 0));
	plan_free(&p);
	memset(self->buf, 0x5a, NB * SLICE);
	ASSERT_EQ(0, nsim_write_var(self->fd, id, 0, V_IN, 0, self->buf, NB * SLICE));
	/* room for the pages of three blocks (each writes one SBUF page) */
	ASSERT_EQ(0, read_stats(&s));
	snprintf(v, sizeof(v), "%lld", s.backing_bytes + 3 * 4096);
	ASSERT_EQ(0, nsim_param_write("backing_limit", v));
	ASSERT_EQ(0, run_q(self->fd, id, &q, 1));
	ASSERT_EQ(0, wait_q(self->fd, id, &q, 1, &res, -1));
	EXPECT_EQ(NEURONSIM_RUN_DONE, res.state);
	EXPECT_EQ(-ENOMEM, res.status);
	EXPECT_EQ(3, res.blocks);
	EXPECT_EQ(3, res.fail_block);
	EXPECT_EQ(0, res.fail_desc);
	EXPECT_EQ(3 * SLICE, res.bytes);
	/* the device goes on: READ_VAR sees the three slices, UNLOAD frees all */
	ASSERT_EQ(0, nsim_read_var(self->fd, id, 0, V_SB, 2 * self->stride,
				   self->buf + NB * SLICE, SLICE));
	EXPECT_EQ(0, memcmp(self->buf + NB * SLICE, self->buf, SLICE));
	snprintf(v, sizeof(v), "%llu", (unsigned long long)self->info.backing_limit);
	ASSERT_EQ(0, nsim_param_write("backing_limit", v));
	ASSERT_EQ(0, run_q(self->fd, id, &q, 1));
	ASSERT_EQ(0, wait_q(self->fd, id, &q, 1, &res, -1));
	EXPECT_EQ(0, res.status);
	EXPECT_EQ(2, res.runs);
	ASSERT_EQ(0, nsim_unload(self->fd, id));
	EXPECT_STATS_AT(&self->base);
}

TEST_F(rn, fail_run_nth_names_descriptor)
{
	unsigned long long e0[6], e1[6];
	struct neuronsim_run_result res;
	uint32_t id, q = 0;
	struct plan p;

	ASSERT_EQ(0, plan_engine(&self->info, NB * SLICE, KBIN_DMA_DTYPE_UINT8,
			      KBIN_DMA_DTYPE_UINT8, &p));
	ASSERT_EQ(0, nsim_load(self->fd, &p, 0, &id, NULL, NULL, 0));
	plan_free(&p);
	ASSERT_EQ(0, engine_row(e0));
	ASSERT_EQ(0, write_knob("fail_run_nth", 5));
	ASSERT_EQ(0, run_q(self->fd, id, &q, 1));
	ASSERT_EQ(0, wait_q(self->fd, id, &q, 1, &res, -1));
	EXPECT_EQ(-EIO, res.status);
	EXPECT_EQ(4, res.blocks);
	EXPECT_EQ(4, res.fail_block);
	EXPECT_EQ(0, res.fail_desc);
	ASSERT_EQ(0, engine_row(e1));
	EXPECT_EQ(e0[4] + 1, e1[4]);	/* errors */
	EXPECT_TRUE(klog_has("block 4 descriptor 0 (copy): injected by fail_run_nth"));
	ASSERT_EQ(0, nsim_unload(self->fd, id));
	EXPECT_STATS_AT(&self->base);
}

static void on_alarm(int sig)
{
	(void)sig;
}

TEST_F(rn, wait_timeout_signal_poll)
{
	struct neuronsim_run_result res;
	struct pollfd pfd;
	struct sigaction sa;
	struct itimerval it = { .it_value = { .tv_usec = 100000 } };
	uint64_t big = 64ULL << 20, t0, t1, tm;
	uint32_t id, q = 1;
	struct plan p;
	uint8_t *src, *dst;
	int ret;

	ASSERT_EQ(0, plan_engine(&self->info, big, KBIN_DMA_DTYPE_UINT8,
			      KBIN_DMA_DTYPE_UINT8, &p));
	ASSERT_EQ(0, nsim_load(self->fd, &p, 0, &id, NULL, NULL, 0));
	plan_free(&p);
	src = malloc(big);
	dst = malloc(big);
	ASSERT_NE(NULL, src);
	ASSERT_NE(NULL, dst);
	memset(src, 0x33, big);
	ASSERT_EQ(0, nsim_write_var(self->fd, id, 0, V_IN, 0, src, big));
	pfd.fd = self->fd;
	pfd.events = POLLIN;
	EXPECT_EQ(0, poll(&pfd, 1, 0));
	/* WAIT on a queue never run: reported at once, idle */
	ASSERT_EQ(0, wait_q(self->fd, id, &q, 1, &res, 0));
	EXPECT_EQ(NEURONSIM_RUN_IDLE, res.state);

	t0 = now_ns();
	ASSERT_EQ(0, run_q(self->fd, id, &q, 1));
	EXPECT_EQ(-EBUSY, run_q(self->fd, id, &q, 1));
	EXPECT_EQ(-ETIMEDOUT, wait_q(self->fd, id, &q, 1, &res, 1));
	EXPECT_EQ(-ETIMEDOUT, wait_q(self->fd, id, &q, 1, &res, 0));
	/* a signal (no SA_RESTART) interrupts the wait */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	ASSERT_EQ(0, sigaction(SIGALRM, &sa, NULL));
	ASSERT_EQ(0, setitimer(ITIMER_REAL, &it, NULL));
	ret = wait_q(self->fd, id, &q, 1, &res, -1);
	if (ret == -EINTR) {
		/* then poll wakes when the run is done */
		EXPECT_EQ(1, poll(&pfd, 1, 120000));
		EXPECT_TRUE(pfd.revents & POLLIN);
	} else {
		TH_LOG("the 64 MiB copy ended within 100 ms: no signal check");
	}
	ASSERT_EQ(0, wait_q(self->fd, id, &q, 1, &res, -1));
	t1 = now_ns();
	EXPECT_EQ(0, res.status);
	EXPECT_EQ(big, res.bytes);
	EXPECT_EQ(0, poll(&pfd, 1, 0));		/* waited for: no EPOLLIN */
	ASSERT_EQ(0, nsim_read_var(self->fd, id, 0, V_OUT, 0, dst, big));
	EXPECT_EQ(0, memcmp(src, dst, big));
	tm = now_ns();
	memcpy(dst, src, big);
	tm = now_ns() - tm;
	TH_LOG("64 MiB HBM -> HBM: the engine %.1f MB/s (%.1f ms in the run, %.1f ms RUN to WAIT); memcpy() %.1f MB/s",
	       big * 1e3 / res.ns, res.ns / 1e6, (t1 - t0) / 1e6, big * 1e3 / tm);
	free(src);
	free(dst);
	ASSERT_EQ(0, nsim_unload(self->fd, id));
	EXPECT_STATS_AT(&self->base);
}

/*
 * After UNLOAD or close returned, no run of the model may go on: the
 * engine's counters stay still (core 0 runs nothing else meanwhile).
 */
static void expect_engine_still(struct __test_metadata *_metadata)
{
	unsigned long long e1[6], e2[6];

	ASSERT_EQ(0, engine_row(e1));
	usleep(300000);
	ASSERT_EQ(0, engine_row(e2));
	EXPECT_EQ(e1[0], e2[0]);	/* bytes */
	EXPECT_EQ(e1[3], e2[3]);	/* runs */
}

TEST_F(rn, unload_close_while_running)
{
	uint64_t big = 32ULL << 20, k;
	uint32_t id, q[2] = { 1, 0 };
	struct plan p;
	int fd2, i, fd;

	/*
	 * qOut is one descriptor of 512 UDMA pieces (32 MiB, not zeros, so
	 * every page is copied): it runs for a while, and UNLOAD or close
	 * must wait for it.
	 */
	ASSERT_EQ(0, plan_engine(&self->info, big, KBIN_DMA_DTYPE_UINT8,
				 KBIN_DMA_DTYPE_UINT8, &p));
	memset(self->buf, 0x77, 4 * NB * SLICE);
	for (i = 0; i < 4; i++) {
		fd2 = i < 2 ? -1 : nsim_open();
		fd = i < 2 ? self->fd : fd2;
		ASSERT_LE(0, fd);
		ASSERT_EQ(0, nsim_load(fd, &p, 0, &id, NULL, NULL, 0));
		for (k = 0; k < big; k += 4 * NB * SLICE)
			ASSERT_EQ(0, nsim_write_var(fd, id, 0, V_IN, k, self->buf,
						    4 * NB * SLICE));
		ASSERT_EQ(0, run_q(fd, id, q, 2));
		if (i & 1)
			usleep(20000);
		if (fd2 < 0) {
			ASSERT_EQ(0, nsim_unload(self->fd, id));
		} else {
			close(fd2);
		}
		expect_engine_still(_metadata);
		EXPECT_STATS_AT(&self->base);
	}
	plan_free(&p);
}

/*
 * The largest run the caps allow, plus @extra bytes: max_run_bytes read
 * and written in as many UDMA descriptors as max_udma_descs allows (runs
 * of max_run_bytes / (max_udma_descs / 2) bytes, 1 KiB by default: 4 Mi
 * a side), one copy of a run of v0 repeated (step 0) onto v1; @extra
 * adds a second descriptor of that many bytes.  *@run: the run's bytes.
 */
static int plan_largest_run(const struct neuronsim_info *info, uint32_t extra,
			    uint32_t *run, struct plan *p)
{
	uint64_t bytes = nsim_param("max_run_bytes"), half = nsim_param("max_udma_descs") / 2;
	uint64_t len = half ? (bytes + half - 1) / half : 0, rows = len ? bytes / len : 0;
	uint64_t sizes[2] = { len, len };
	struct kbin_dma_desc d[2] = {
		{ .op = KBIN_DMA_OP_COPY,
		  .from = { .var_id = 1, .dtype = KBIN_DMA_DTYPE_UINT8, .num_dims = 2,
			    .sizes = { (uint32_t)len, (uint32_t)rows }, .steps = { 1, 0 } },
		  .to = { .var_id = 2, .dtype = KBIN_DMA_DTYPE_UINT8, .num_dims = 2,
			  .sizes = { (uint32_t)len, (uint32_t)rows }, .steps = { 1, 0 } } },
		{ .op = KBIN_DMA_OP_COPY,
		  .from = { .var_id = 1, .dtype = KBIN_DMA_DTYPE_UINT8, .num_dims = 1,
			    .sizes = { extra }, .steps = { 1 } },
		  .to = { .var_id = 2, .dtype = KBIN_DMA_DTYPE_UINT8, .num_dims = 1,
			  .sizes = { extra }, .steps = { 1 } } },
	};

	if (!len || len > 65536 || bytes % len || rows > UINT32_MAX)
		return -EINVAL;
	*run = (uint32_t)len;
	return plan_descs(info, sizes, 2, 0, d, extra ? 2 : 1, p);
}

/* load the largest run on @core, fill v0 with bytes to copy, start it */
static int start_largest_run(int fd, const struct neuronsim_info *info,
			     uint32_t core, uint32_t *id)
{
	uint32_t q = 0, run;
	struct plan p;
	uint8_t b[65536];
	int ret;

	ret = plan_largest_run(info, 0, &run, &p);
	if (ret)
		return ret;
	ret = nsim_load(fd, &p, core, id, NULL, NULL, 0);
	plan_free(&p);
	memset(b, 0x6b, run);
	if (!ret)
		ret = nsim_write_var(fd, *id, 0, 1, 0, b, run);
	return ret ? ret : run_q(fd, *id, &q, 1);
}

TEST_F(rn, largest_run_at_load)
{
	struct neuronsim_load l;
	char log[1024];
	uint32_t id, run;
	struct plan p;

	/* the run at the caps loads: stop_the_largest_run_promptly */
	ASSERT_EQ(4ULL << 30, nsim_param("max_run_bytes")) TH_LOG("max_run_bytes is not its default");
	ASSERT_EQ(0, plan_largest_run(&self->info, 1, &run, &p));
	EXPECT_EQ(1024U, run);
	EXPECT_EQ(-E2BIG, nsim_load(self->fd, &p, 0, &id, &l, log, sizeof(log)));
	plan_free(&p);
	EXPECT_EQ(KBIN_ERR_STAGE_LIMIT, l.err_reason);
	EXPECT_EQ(KBIN_FIELD_DMA_FROM, l.err_field);
	EXPECT_NE(NULL, strstr(log, "block 1 descriptor 0 from (M2S)")) TH_LOG("%s", log);
	EXPECT_NE(NULL, strstr(log, "one run of the queue would read 4294967297 bytes with this descriptor's 1, above max_run_bytes 4294967296"))
		TH_LOG("%s", log);
	EXPECT_STATS_AT(&self->base);
}

/*
 * @what took at most NSIM_PROMPT_MS (times nsim_time_scale() on a debug
 * kernel): @t0 its start
 */
#define EXPECT_PROMPT(t0, what) do {						\
	uint64_t _ms = (now_ns() - (t0)) / 1000000;				\
										\
	EXPECT_GT(NSIM_PROMPT_MS * nsim_time_scale(), _ms)			\
		TH_LOG("%s took %llu ms during the largest run",		\
		       what, (unsigned long long)_ms);				\
	TH_LOG("%s: %llu ms", what, (unsigned long long)_ms);			\
} while (0)

TEST_F(rn, stop_the_largest_run_promptly)
{
	uint32_t id, id2, ids[3], c;
	int fd, fd2, pfd[2];
	char f[64], ok;
	uint64_t t0;
	pid_t pid;

	/*
	 * fd2's run queued behind fd's on core 0: close of fd2, then UNLOAD
	 * of fd's model while its run is running
	 */
	fd = nsim_open();
	fd2 = nsim_open();
	ASSERT_LE(0, fd);
	ASSERT_LE(0, fd2);
	ASSERT_EQ(0, start_largest_run(fd, &self->info, 0, &id));
	ASSERT_EQ(0, start_largest_run(fd2, &self->info, 0, &id2));
	usleep(300000);
	ASSERT_EQ(0, runs_field(id, 0, 2, f, sizeof(f)));
	EXPECT_STREQ("running", f);
	ASSERT_EQ(0, runs_field(id2, 0, 2, f, sizeof(f)));
	EXPECT_STREQ("queued", f);
	t0 = now_ns();
	close(fd2);
	EXPECT_PROMPT(t0, "close of a run queued behind another fd's");
	t0 = now_ns();
	ASSERT_EQ(0, nsim_unload(fd, id));
	EXPECT_PROMPT(t0, "UNLOAD of the running run");
	close(fd);
	expect_engine_still(_metadata);

	/*
	 * SIGKILL of a process in WAIT with three runs on three cores: its
	 * exit closes the fd under them
	 */
	ASSERT_EQ(0, pipe(pfd));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		struct neuronsim_run_result res;
		uint32_t q = 0;

		fd = nsim_open();
		ok = fd >= 0;
		for (c = 0; c < 3 && ok; c++)
			ok = !start_largest_run(fd, &self->info, c, &ids[c]);
		if (write(pfd[1], &ok, 1) != 1 || !ok)
			_exit(1);
		wait_q(fd, ids[0], &q, 1, &res, -1);
		_exit(2);
	}
	close(pfd[1]);
	ASSERT_EQ(1, read(pfd[0], &ok, 1));
	close(pfd[0]);
	ASSERT_TRUE(ok);
	usleep(300000);
	t0 = now_ns();
	ASSERT_EQ(0, kill(pid, SIGKILL));
	ASSERT_EQ(pid, waitpid(pid, NULL, 0));
	EXPECT_PROMPT(t0, "SIGKILL of a process in WAIT, three runs on three cores");
	expect_engine_still(_metadata);
	EXPECT_STATS_AT(&self->base);
}

TEST_F(rn, errors)
{
	struct neuronsim_run_result res[2];
	uint32_t id, q[3] = { 0, 0, 5 }, big = 16U << 20, k;
	struct neuronsim_run r;
	struct neuronsim_wait w;
	struct plan p;
	int fd2;

	ASSERT_EQ(0, plan_engine(&self->info, big, KBIN_DMA_DTYPE_UINT8,
			      KBIN_DMA_DTYPE_UINT8, &p));
	ASSERT_EQ(0, nsim_load(self->fd, &p, 0, &id, NULL, NULL, 0));
	plan_free(&p);
	memset(&r, 0, sizeof(r));
	r.model_id = id;
	r.num_queues = 1;
	r.queues = (uintptr_t)q;
	r.flags = 1;
	EXPECT_EQ(EINVAL, ioctl_errno(self->fd, NEURONSIM_IOC_RUN, &r));
	r.flags = 0;
	r.reserved[1] = 1;
	EXPECT_EQ(EINVAL, ioctl_errno(self->fd, NEURONSIM_IOC_RUN, &r));
	EXPECT_EQ(-EINVAL, run_q(self->fd, id, q, 0));
	EXPECT_EQ(-EINVAL, run_q(self->fd, id, q, NEURONSIM_RUN_MAX_QUEUES + 1));
	EXPECT_EQ(-EINVAL, run_q(self->fd, id, q, 2));		/* twice */
	EXPECT_EQ(-EINVAL, run_q(self->fd, id, q + 2, 1));	/* no queue 5 */
	EXPECT_EQ(-ENOENT, run_q(self->fd, id + 1000, q, 1));
	memset(&r, 0, sizeof(r));
	r.model_id = id;
	r.subgraph = 1;
	r.num_queues = 1;
	r.queues = (uintptr_t)q;
	EXPECT_EQ(ENOENT, ioctl_errno(self->fd, NEURONSIM_IOC_RUN, &r));
	r.subgraph = 0;
	r.queues = 8;
	EXPECT_EQ(EFAULT, ioctl_errno(self->fd, NEURONSIM_IOC_RUN, &r));
	/* another fd of this process: not its model */
	fd2 = nsim_open();
	ASSERT_LE(0, fd2);
	EXPECT_EQ(-ENOENT, run_q(fd2, id, q, 1));
	EXPECT_EQ(-ENOENT, wait_q(fd2, id, q, 1, res, 0));
	close(fd2);
	memset(&w, 0, sizeof(w));
	w.model_id = id;
	w.num_queues = 1;
	w.queues = (uintptr_t)q;
	w.results = (uintptr_t)res;
	w.reserved = 1;
	EXPECT_EQ(EINVAL, ioctl_errno(self->fd, NEURONSIM_IOC_WAIT, &w));
	w.reserved = 0;
	w.flags = 2;
	EXPECT_EQ(EINVAL, ioctl_errno(self->fd, NEURONSIM_IOC_WAIT, &w));
	EXPECT_EQ(-EINVAL, wait_q(self->fd, id, q + 2, 1, res, 0));
	EXPECT_EQ(-EINVAL, wait_q(self->fd, id, q, 0, res, 0));
	w.flags = 0;
	w.results = 8;
	EXPECT_EQ(EFAULT, ioctl_errno(self->fd, NEURONSIM_IOC_WAIT, &w));
	/*
	 * max_runs_per_fd: one run queued, the next RUN -EAGAIN; qOut copies
	 * 16 MiB of real bytes, so it still runs when the second RUN comes
	 */
	memset(self->buf, 0x5a, 4 * NB * SLICE);
	for (k = 0; k < big; k += 4 * NB * SLICE)
		ASSERT_EQ(0, nsim_write_var(self->fd, id, 0, V_IN, k, self->buf,
					    4 * NB * SLICE));
	ASSERT_EQ(0, nsim_param_write("max_runs_per_fd", "1"));
	q[1] = 1;
	ASSERT_EQ(0, run_q(self->fd, id, q + 1, 1));
	EXPECT_EQ(-EAGAIN, run_q(self->fd, id, q, 1));
	ASSERT_EQ(0, wait_q(self->fd, id, q + 1, 1, res, -1));
	EXPECT_EQ(0, res[0].status);
	EXPECT_EQ(0, run_q(self->fd, id, q, 1));
	ASSERT_EQ(0, wait_q(self->fd, id, q, 1, res, -1));
	ASSERT_EQ(0, nsim_unload(self->fd, id));
	EXPECT_EQ(-ENOENT, wait_q(self->fd, id, q, 1, res, 0));
	EXPECT_STATS_AT(&self->base);
}

NSIM_HARNESS_MAIN
