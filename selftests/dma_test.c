// SPDX-License-Identifier: GPL-2.0
/*
 * dma_test - the DMA engine against the host reference on real NEFFs
 * (Documentation/dma.rst, "Tests").
 *
 *   dma_test [-a] [-x [-b]] [-n NAME]... [DIR]     (default data/neff)
 *
 * For every plan of the manifest compiled for the device's generation
 * (or only those whose NEFF name contains one of the -n words):
 *   - LOAD; per subgraph with DMA queues, every input variable and every
 *     weight (a record with a payload) that a queue to run touches is
 *     filled with a seeded pattern by WRITE_VAR (and the same bytes go
 *     into the host reference's memory, userspace/cc/dma_ref.c, at its
 *     RESOLVE address); every other variable such a queue touches is
 *     read (READ_VAR; the state buffer partition by partition) into the
 *     reference;
 *   - each input queue (type "in") runs on the device (RUN, WAIT: status
 *     0, every block and descriptor done, the bytes the reference wrote)
 *     and in the reference; then every variable the queue writes is
 *     compared byte for byte, the SBUF var every partition byte (READ_VAR
 *     on the MR_SB var): where the inputs landed;
 *   - with -a, then every queue of the subgraph in the order in, data,
 *     dynamic (each type in queue index order), on both sides, and every
 *     variable touched and every output variable compared.
 * With -x (Documentation/execute.rst, "Tests"), instead of RUN: EXECUTE
 * every plan (its program, every subgraph) with a trace and hold the
 * result to the host replay of the plan (exec_vs_replay(): semaphores,
 * counts per engine, class and opcode, blocks per queue, virtual time,
 * every trace event); with -b too, before it every input and weight a
 * queue touches gets the seeded pattern and every variable a queue
 * touches goes into the reference, and after it the reference runs
 * every block in the order the execution ended them (the replay's) and
 * the state buffer, every touched and every output variable are
 * compared byte for byte.
 * A RUN moves bytes on the DMA engine only (the compute engines run under
 * EXECUTE, exec_test.c).
 * One TAP line per plan; each mismatch a "#" line naming the NEFF,
 * subgraph, queue, variable and the first differing byte (partition and
 * byte on the state buffer).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "kselftest.h"
#include "dma_ref.h"
#include "kbin_reader.h"
#include "plans.h"
#include "prog_replay.h"
#include "nsim_file.h"

#define MAX_FAIL_LINES	20
#define CHUNK		(1U << 20)
#define MAX_NAMES	16

struct plan_ent {
	char kbin[256], neff[256];
	uint32_t gen;
};

struct tctx {
	int fd;
	uint32_t id, sg;
	const struct neuronsim_info *info;
	const char *neff;
	const struct kbin_mem_ref_set *set;
	const struct kbin_mem_ref **byid;	/* var_id -> record */
	uint64_t *pa;				/* var_id -> address, ~0 none */
	uint8_t *touched;			/* var_id -> touched by a queue */
	uint32_t nid;
	struct dma_ref_mem *ref;
	uint8_t *dbuf, *rbuf;
	unsigned int fails;
	uint64_t compared, dev_ns, bytes;
};

static void bad(struct tctx *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void bad(struct tctx *t, const char *fmt, ...)
{
	va_list ap;

	if (t->fails++ >= MAX_FAIL_LINES)
		return;
	printf("# %s sg %u: ", t->neff, t->sg);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static int ref_addr(void *c, uint32_t var, uint64_t *pa)
{
	struct tctx *t = c;

	if (var >= t->nid || t->pa[var] == ~0ULL)
		return -ENOENT;
	*pa = t->pa[var];
	return 0;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* a seeded pattern: a mix of (var, 8-byte word), 8 bytes at a time */
static void pattern(uint8_t *p, uint32_t var, uint64_t off, uint64_t n)
{
	uint64_t i, x;

	for (i = 0; i < n; i += 8) {
		x = ((off + i) >> 3) * 0x9e3779b97f4a7c15ULL ^ (var + 1) * 0xbf58476d1ce4e5b9ULL;
		x ^= x >> 29;
		x *= 0x94d049bb133111ebULL;
		x ^= x >> 32;
		memcpy(p + i, &x, n - i < 8 ? n - i : 8);
	}
}

static int is_sb(const struct kbin_mem_ref *r)
{
	return r->mr_type == KBIN_MR_SB;
}

/* the byte ranges READ_VAR can reach: SB one per partition, else one */
static uint64_t nranges(const struct tctx *t, const struct kbin_mem_ref *r)
{
	return is_sb(r) ? t->info->sbuf_partitions : 1;
}

static void range(const struct tctx *t, const struct kbin_mem_ref *r,
		  uint64_t p, uint64_t *off, uint64_t *len)
{
	*off = is_sb(r) ? p * (t->info->sbuf_window_size / t->info->sbuf_partitions) : 0;
	*len = is_sb(r) ? t->info->sbuf_partition_size : r->size;
}

/*
 * The device bytes of @r READ_VAR can reach, CHUNK bytes at a time into
 * t->dbuf, each chunk handed to @fn with its offset in @r (and @when);
 * -1 at the first failure (a failed READ_VAR said here), else 0.
 */
static int for_each_chunk(struct tctx *t, const struct kbin_mem_ref *r,
			  int (*fn)(struct tctx *t, const struct kbin_mem_ref *r,
				    uint64_t off, uint64_t n, const char *when),
			  const char *when)
{
	uint64_t off, len, k, n, p;

	for (p = 0; p < nranges(t, r); p++) {
		range(t, r, p, &off, &len);
		for (k = 0; k < len; k += n) {
			n = len - k < CHUNK ? len - k : CHUNK;
			if (nsim_read_var(t->fd, t->id, t->sg, r->var_id, off + k,
					  t->dbuf, n)) {
				bad(t, "READ_VAR var %u [%" PRIu64 ", +%" PRIu64 "): %s",
				    r->var_id, off + k, n, strerror(errno));
				return -1;
			}
			if (fn(t, r, off + k, n, when))
				return -1;
		}
	}
	return 0;
}

/* a chunk of the device's bytes into the reference at its address */
static int chunk_to_ref(struct tctx *t, const struct kbin_mem_ref *r,
			uint64_t off, uint64_t n, const char *when)
{
	(void)when;
	return dma_ref_mem_write(t->ref, t->pa[r->var_id] + off, t->dbuf, n);
}

/* a chunk of the device's bytes against the reference's; @when in a failure */
static int chunk_vs_ref(struct tctx *t, const struct kbin_mem_ref *r,
			uint64_t off, uint64_t n, const char *when)
{
	uint64_t i, stride = t->info->sbuf_window_size / t->info->sbuf_partitions;

	dma_ref_mem_read(t->ref, t->pa[r->var_id] + off, t->rbuf, n);
	t->compared += n;
	if (!memcmp(t->dbuf, t->rbuf, n))
		return 0;
	for (i = 0; t->dbuf[i] == t->rbuf[i]; i++)
		;
	if (is_sb(r))
		bad(t, "%s: var %u (SB) partition %" PRIu64 " byte %" PRIu64 ": device 0x%02x, reference 0x%02x",
		    when, r->var_id, (off + i) / stride, (off + i) % stride,
		    t->dbuf[i], t->rbuf[i]);
	else
		bad(t, "%s: var %u (%s) byte %" PRIu64 ": device 0x%02x, reference 0x%02x",
		    when, r->var_id, kbin_mr_type_str(r->mr_type), off + i,
		    t->dbuf[i], t->rbuf[i]);
	return -1;
}

/* device bytes of @r into the reference at its address */
static int snapshot(struct tctx *t, const struct kbin_mem_ref *r)
{
	return for_each_chunk(t, r, chunk_to_ref, NULL);
}

/* compare the device's bytes of @r with the reference's */
static int compare(struct tctx *t, const struct kbin_mem_ref *r,
		   const char *when)
{
	return for_each_chunk(t, r, chunk_vs_ref, when);
}

static int run_wait(struct tctx *t, uint32_t q, struct neuronsim_run_result *res)
{
	struct neuronsim_run r = {
		.model_id = t->id, .subgraph = t->sg, .num_queues = 1,
		.queues = (uintptr_t)&q,
	};
	struct neuronsim_wait w = {
		.model_id = t->id, .subgraph = t->sg, .num_queues = 1,
		.queues = (uintptr_t)&q, .results = (uintptr_t)res,
		.timeout_ns = 1200LL * 1000000000LL,
	};

	if (ioctl(t->fd, NEURONSIM_IOC_RUN, &r))
		return -errno;
	if (ioctl(t->fd, NEURONSIM_IOC_WAIT, &w))
		return -errno;
	return 0;
}

/* run queue @q on the device and in the reference; compare the results */
static int run_queue(struct tctx *t, const struct kbin_dma_sg_view *v,
		     uint32_t q, const struct kbin_view *kv)
{
	const struct kbin_dma_queue *kq = &v->queues[q];
	const char *name = kbin_view_str(kv, kq->name);
	struct neuronsim_run_result res;
	struct dma_ref_stats st;
	int ret;

	ret = run_wait(t, q, &res);
	if (ret) {
		bad(t, "queue %u '%s': RUN/WAIT: %s", q, name, strerror(-ret));
		return -1;
	}
	t->dev_ns += res.ns;
	t->bytes += res.bytes;
	ret = dma_ref_run_queue(t->ref, v, q, ref_addr, t, &st);
	if (ret) {
		bad(t, "queue %u '%s': the reference failed in block %u descriptor %u: %s",
		    q, name, st.fail_block, st.fail_desc, strerror(-ret));
		return -1;
	}
	if (res.state != NEURONSIM_RUN_DONE || res.status ||
	    res.blocks != kq->num_blocks || res.blocks != st.blocks ||
	    res.descs != st.descs || res.bytes != st.bytes) {
		bad(t, "queue %u '%s': state %u status %d (block %u descriptor %u), blocks %u/%u, descs %u/%u, bytes %llu/%llu",
		    q, name, res.state, res.status, res.fail_block, res.fail_desc,
		    res.blocks, st.blocks, res.descs, st.descs,
		    (unsigned long long)res.bytes, (unsigned long long)st.bytes);
		return -1;
	}
	return 0;
}

/*
 * compare the variables with @mask in touched[] (1 a queue touches it, 2
 * the queue just run writes it, 4 the pattern went into the reference)
 */
static int compare_touched(struct tctx *t, uint8_t mask, const char *when)
{
	uint32_t i;
	int ret = 0;

	for (i = 0; i < t->nid; i++)
		if ((t->touched[i] & mask) && t->byid[i] &&
		    compare(t, t->byid[i], when))
			ret = -1;
	return ret;
}

/* mark in touched[] (bit 2) the variables queue @q writes, clear others' */
static void mark_written(struct tctx *t, const struct kbin_dma_sg_view *v,
			 uint32_t q)
{
	const struct kbin_dma_queue *kq = &v->queues[q];
	uint32_t i, b, j;

	for (i = 0; i < t->nid; i++)
		t->touched[i] &= ~2;
	for (b = 0; b < kq->num_blocks; b++) {
		const struct kbin_dma_block *kb =
			&v->blocks[kq->first_block - v->first_block + b];

		for (j = 0; j < kb->num_descs; j++)
			t->touched[v->descs[kb->first_desc - v->first_desc + j].to.var_id] |= 2;
	}
}

/* free what sg_prepare() made */
static void sg_free(struct tctx *t)
{
	dma_ref_mem_free(t->ref);
	free(t->byid);
	free(t->pa);
	free(t->touched);
	t->ref = NULL;
	t->byid = NULL;
	t->pa = NULL;
	t->touched = NULL;
}

/*
 * Subgraph @t->sg before its queues run: every variable a queue to run
 * touches (without @all the input queues') in the reference, inputs and
 * weights with a seeded pattern written to the device too.  *@v: its
 * DMA records.  Return: 0; 1 without DMA queues; -1 on a failure.
 */
static int sg_prepare(struct tctx *t, const struct kbin_view *kv, int all,
		      struct kbin_dma_sg_view *v)
{
	uint32_t i;

	if (kbin_view_dma_sg(kv, t->sg, v) || !v->num_queues)
		return 1;
	t->set = kbin_view_set(kv, t->sg);
	t->nid = 0;
	for (i = 0; i < t->set->nmem; i++)
		if (t->set->mem[i].var_id + 1 > t->nid)
			t->nid = t->set->mem[i].var_id + 1;
	t->byid = calloc(t->nid, sizeof(*t->byid));
	t->pa = malloc(t->nid * sizeof(*t->pa));
	t->touched = calloc(t->nid, 1);
	t->ref = dma_ref_mem_new();
	if (!t->byid || !t->pa || !t->touched || !t->ref) {
		bad(t, "out of memory");
		return -1;
	}
	for (i = 0; i < t->nid; i++)
		t->pa[i] = ~0ULL;
	for (i = 0; i < t->set->nmem; i++) {
		const struct kbin_mem_ref *r = &t->set->mem[i];

		t->byid[r->var_id] = r;
		if (nsim_resolve(t->fd, t->id, t->sg, r->var_id, 0, 1, &t->pa[r->var_id]))
			t->pa[r->var_id] = ~0ULL;
	}
	/* the variables the queues to run touch (without -a the input ones) */
	for (i = 0; i < v->num_queues; i++) {
		const struct kbin_dma_queue *kq = &v->queues[i];
		uint32_t b, k;

		if (!all && kq->type != KBIN_DMA_QUEUE_IN)
			continue;
		for (b = 0; b < kq->num_blocks; b++) {
			const struct kbin_dma_block *kb =
				&v->blocks[kq->first_block - v->first_block + b];

			for (k = 0; k < kb->num_descs; k++) {
				const struct kbin_dma_desc *d =
					&v->descs[kb->first_desc - v->first_desc + k];

				t->touched[d->from.var_id] = 1;
				t->touched[d->to.var_id] = 1;
			}
		}
	}
	/* inputs and weights: a seeded pattern */
	for (i = 0; i < t->set->nmem; i++) {
		const struct kbin_mem_ref *r = &t->set->mem[i];
		uint64_t k, n;

		if (r->mr_type != KBIN_MR_INPUT && !kbin_view_payload(kv, r))
			continue;
		if (!t->touched[r->var_id])	/* no queue to run reads it */
			continue;
		for (k = 0; k < r->size; k += n) {
			n = r->size - k < CHUNK ? r->size - k : CHUNK;
			pattern(t->dbuf, r->var_id, k, n);
			if (nsim_write_var(t->fd, t->id, t->sg, r->var_id, k, t->dbuf, n)) {
				bad(t, "WRITE_VAR var %u [%" PRIu64 ", +%" PRIu64 "): %s",
				    r->var_id, k, n, strerror(errno));
				return -1;
			}
			if (dma_ref_mem_write(t->ref, t->pa[r->var_id] + k, t->dbuf, n))
				return -1;
		}
		t->touched[r->var_id] |= 4;	/* the reference has it */
	}
	for (i = 0; i < t->nid; i++)
		if (t->touched[i] && !(t->touched[i] & 4) && t->byid[i] &&
		    snapshot(t, t->byid[i]))
			return -1;
	return 0;
}

/* every variable touched and every output variable against the reference */
static int compare_all(struct tctx *t, const char *when)
{
	char out[320];
	uint32_t i;
	int ret = compare_touched(t, 1, when);

	snprintf(out, sizeof(out), "output %s", when);
	for (i = 0; i < t->set->nmem && !ret; i++)
		if (t->set->mem[i].mr_type == KBIN_MR_OUTPUT &&
		    t->pa[t->set->mem[i].var_id] != ~0ULL)
			ret = compare(t, &t->set->mem[i], out);
	return ret;
}

static int test_sg(struct tctx *t, const struct kbin_view *kv, int all,
		   unsigned int *nqueues)
{
	struct kbin_dma_sg_view v;
	uint32_t i, j, type;
	char when[320];
	int ret;

	ret = sg_prepare(t, kv, all, &v);
	if (ret)
		goto out;
	/* the input queues, each compared */
	for (i = 0; i < v.num_queues && !ret; i++) {
		if (v.queues[i].type != KBIN_DMA_QUEUE_IN)
			continue;
		ret = run_queue(t, &v, i, kv);
		snprintf(when, sizeof(when), "after input queue %u '%s'", i,
			 kbin_view_str(kv, v.queues[i].name));
		mark_written(t, &v, i);
		if (!ret)
			ret = compare_touched(t, 2, when);
		(*nqueues)++;
	}
	if (!all || ret)
		goto out;
	/* every queue: in, data, dynamic; index order within a type */
	for (type = KBIN_DMA_QUEUE_IN; type <= KBIN_DMA_QUEUE_TYPE_MAX && !ret; type++)
		for (j = 0; j < v.num_queues && !ret; j++)
			if (v.queues[j].type == type) {
				ret = run_queue(t, &v, j, kv);
				(*nqueues)++;
			}
	if (!ret)
		ret = compare_all(t, "after every queue");
out:
	sg_free(t);
	return ret < 0 ? -1 : 0;
}

/*
 * Execute the plan (EXECUTE, EXEC_WAIT) and hold the result to the host
 * replay; with @bytes, every subgraph's variables first as sg_prepare()
 * makes them for every queue, and afterwards the state buffer, every
 * touched and every output variable against the reference running the
 * blocks in the order the execution ended them (the replay's ran[]).
 */
static void exec_plan(int fd, const struct neuronsim_info *info,
		      const struct plan_ent *e, const struct kbin_view *kv,
		      const struct plan *p, int bytes)
{
	struct tctx t0 = { .fd = fd, .info = info, .neff = e->neff }, *ts = NULL;
	struct prog_replay_opts ro = { 0 };
	struct neuronsim_exec_result *r = NULL;
	struct prog_replay *rp = NULL;
	uint64_t need = 0, wall0;
	uint32_t s, i, not_sim;
	int ret, fails = 0;
	NEURONSIM_OPTS_INIT(exec_opts, o, .wait_ns = 1200LL * 1000000000LL);

	t0.dbuf = malloc(CHUNK);
	t0.rbuf = malloc(CHUNK);
	ts = calloc(kv->num_subgraphs, sizeof(*ts));
	ret = nsim_load(fd, p, 0, &t0.id, NULL, NULL, 0);
	if (ret || !t0.dbuf || !t0.rbuf || !ts) {
		ksft_test_result_fail("exec %s: LOAD: %s\n", e->neff, strerror(-ret));
		goto out;
	}
	for (s = 0; s < kv->num_subgraphs; s++) {
		struct kbin_dma_sg_view v;
		struct kbin_prog_sg_view pv;
		uint32_t k;

		ts[s] = t0;
		ts[s].sg = s;
		if (!kbin_view_prog_sg(kv, s, &pv))
			for (k = 0; k < KBIN_PROG_ENGINES; k++)
				need += pv.num[k];
		if (!kbin_view_dma_sg(kv, s, &v))
			need += v.num_blocks;
		if (bytes && sg_prepare(&ts[s], kv, 1, &v) < 0)
			fails++;
	}
	o.max_events = need < NEURONSIM_EXEC_MAX_EVENTS ? (uint32_t)need + 1 :
		       NEURONSIM_EXEC_MAX_EVENTS;
	wall0 = now_ns();
	ret = fails ? -EIO : neuronsim_exec(fd, t0.id, &o, &r);
	wall0 = now_ns() - wall0;
	if (ret)
		bad(&t0, "EXECUTE: %s (status %d)", strerror(-ret),
		    r ? r->summary.status : 0);
	if (r)
		fails += exec_vs_replay(r, p, 1, e->neff);
	if (r && bytes && !prog_replay_plan(kv, &ro, &rp)) {
		for (s = 0; s < kv->num_subgraphs; s++) {
			struct tctx *t = &ts[s];
			struct dma_ref_stats st = { 0 };
			struct kbin_dma_sg_view v;

			if (!t->ref || kbin_view_dma_sg(kv, s, &v))
				continue;
			for (i = 0; i < rp->sg[s].nran && !ret; i++) {
				ret = dma_ref_run_block(t->ref, &v, rp->sg[s].ran[i],
							ref_addr, t, &st);
				if (ret)
					bad(t, "the reference failed in block %u descriptor %u: %s",
					    st.fail_block, st.fail_desc, strerror(-ret));
			}
			if (!ret)
				compare_all(t, "after the execution");
		}
	}
	for (s = 0; s < kv->num_subgraphs; s++) {
		fails += ts[s].fails;
		t0.compared += ts[s].compared;
		sg_free(&ts[s]);
	}
	fails += t0.fails;
	if (nsim_unload(fd, t0.id)) {
		bad(&t0, "UNLOAD: %s", strerror(errno));
		fails++;
	}
	not_sim = r ? (uint32_t)r->summary.not_simulated : 0;
	ksft_test_result(!fails && r,
			 "exec %s: %" PRIu64 " instructions, %" PRIu64 " DMA blocks, %" PRIu64 " bytes, %" PRIu64 ".%03" PRIu64 " us virtual, %" PRIu64 " ms wall (%" PRIu64 " instructions/s)%s%s\n",
			 e->neff, r ? (uint64_t)r->summary.instructions : 0,
			 r ? (uint64_t)r->summary.blocks : 0,
			 r ? (uint64_t)r->summary.bytes : 0,
			 r ? (uint64_t)r->summary.virtual_ns / 1000 : 0,
			 r ? (uint64_t)r->summary.virtual_ns % 1000 : 0,
			 wall0 / 1000000,
			 r && wall0 ? (uint64_t)(r->summary.instructions * 1000000000.0 / wall0) : 0,
			 bytes ? ", state buffer and outputs compared" : "",
			 not_sim ? ", with 0xD4 instructions (data not simulated)" : "");
	if (not_sim)
		ksft_print_msg("exec %s: %u 0xD4 instructions: their semaphore increments applied, their data movement not simulated\n",
			       e->neff, not_sim);
out:
	prog_replay_free(rp);
	neuronsim_exec_result_free(r);
	free(ts);
	free(t0.dbuf);
	free(t0.rbuf);
}

static void test_plan(int fd, const struct neuronsim_info *info,
		      const char *dir, const struct plan_ent *e, int all,
		      int exec, int bytes)
{
	struct tctx t = { .fd = fd, .info = info, .neff = e->neff };
	struct kbin_check_result res;
	struct kbin_view kv;
	char path[600];
	struct plan p;
	unsigned int nq = 0;
	uint64_t t0;
	uint32_t s;
	int ret;

	snprintf(path, sizeof(path), "%s/%s", dir, e->kbin);
	if (nsim_read_file(path, &p.buf, &p.len) ||
	    kbin_read(p.buf, p.len, &kv, &res)) {
		ksft_test_result_fail("dma %s: cannot read %s\n", e->neff, path);
		return;
	}
	if (exec) {
		exec_plan(fd, info, e, &kv, &p, bytes);
		free(p.buf);
		return;
	}
	t.dbuf = malloc(CHUNK);
	t.rbuf = malloc(CHUNK);
	ret = nsim_load(fd, &p, 0, &t.id, NULL, NULL, 0);
	if (ret || !t.dbuf || !t.rbuf) {
		ksft_test_result_fail("dma %s: LOAD: %s\n", e->neff, strerror(-ret));
		goto out;
	}
	t0 = now_ns();
	for (s = 0; s < kv.num_subgraphs; s++) {
		t.sg = s;
		test_sg(&t, &kv, all, &nq);
	}
	if (nsim_unload(fd, t.id))
		bad(&t, "UNLOAD: %s", strerror(errno));
	ksft_test_result(!t.fails,
			 "dma %s: %u queues, %" PRIu64 " bytes moved in %" PRIu64 " ms on the engine, %" PRIu64 " bytes compared, %" PRIu64 " ms in all\n",
			 e->neff, nq, t.bytes, t.dev_ns / 1000000, t.compared,
			 (now_ns() - t0) / 1000000);
out:
	free(t.dbuf);
	free(t.rbuf);
	free(p.buf);
}

int main(int argc, char **argv)
{
	const char *dir = "data/neff", *names[MAX_NAMES];
	struct plan_ent *es = NULL;
	struct neuronsim_info info;
	size_t n = 0, cap = 0, i, k;
	unsigned int nnames = 0, mine = 0;
	char path[600], line[2048];
	int fd, all = 0, exec = 0, bytes = 0, opt;
	FILE *fp;

	while ((opt = getopt(argc, argv, "abn:x")) != -1) {
		if (opt == 'a')
			all = 1;
		else if (opt == 'x')
			exec = 1;
		else if (opt == 'b')
			bytes = 1;
		else if (opt == 'n' && nnames < MAX_NAMES)
			names[nnames++] = optarg;
	}
	if (optind < argc)
		dir = argv[optind];
	setvbuf(stdout, NULL, _IOLBF, 0);
	ksft_print_header();
	snprintf(path, sizeof(path), "%s/manifest.tsv", dir);
	fp = fopen(path, "r");
	while (fp && fgets(line, sizeof(line), fp)) {
		char *f[8], *c = line;
		int nf = 0;

		line[strcspn(line, "\n")] = 0;
		while (nf < 8) {
			f[nf++] = c;
			c = strchr(c, '\t');
			if (!c)
				break;
			*c++ = 0;
		}
		if (nf != 7 || strcmp(f[0], "plan"))
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			es = realloc(es, cap * sizeof(*es));
			if (!es)
				return ksft_exit_fail();
		}
		snprintf(es[n].kbin, sizeof(es[n].kbin), "%s", f[1]);
		snprintf(es[n].neff, sizeof(es[n].neff), "%s", f[2]);
		es[n].gen = strtoul(f[4], NULL, 0);
		for (k = 0; k < nnames && !strstr(es[n].neff, names[k]); k++)
			;
		if (!nnames || k < nnames)
			n++;
	}
	if (fp)
		fclose(fp);
	fd = nsim_open();
	if (fd < 0 || nsim_get_info(fd, &info)) {
		ksft_set_plan(1);
		ksft_test_result_fail("dma: the device cannot be opened: %s\n",
				      strerror(errno));
		return ksft_exit_fail();
	}
	for (i = 0; i < n; i++)
		mine += es[i].gen == info.arch_gen;
	if (!mine) {
		ksft_set_plan(1);
		ksft_test_result_skip("dma: %s has no plan for gen %u (no ../shared/cases/neff on the host?)\n",
				      path, info.arch_gen);
		return ksft_exit_pass();
	}
	ksft_print_msg("%u plans for gen %u (%s)%s; RUN moves bytes on the DMA engine only\n",
		       mine, info.arch_gen, info.arch_name,
		       exec ? (bytes ? ", executed, bytes compared" : ", executed") :
		       all ? ", every queue" : ", the input queues");
	ksft_set_plan(mine);
	for (i = 0; i < n; i++)
		if (es[i].gen == info.arch_gen)
			test_plan(fd, &info, dir, &es[i], all, exec, bytes);
	close(fd);
	free(es);
	return ksft_get_fail_cnt() ? ksft_exit_fail() : ksft_exit_pass();
}
