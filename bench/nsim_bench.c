// SPDX-License-Identifier: GPL-2.0
/*
 * nsim_bench - in-VM benchmarks of /dev/neuronsim (run by bench/vm_bench.sh
 * under scripts/vm.sh, driven by scripts/bench.sh).  Every figure is a
 * ratio of two measurements taken in the same run.
 *
 *   nsim_bench ioctl NVARS ROUNDS ITERS
 *	RESOLVE vs a no-op ioctl (unknown command, -ENOTTY) on the same fd,
 *	and RESOLVE_BATCH of 1024 entries per entry vs RESOLVE; ROUNDS
 *	interleaved rounds of ITERS calls each, the median round ratio.
 *   nsim_bench load NVARS LOADERS REPS
 *	wall time of LOADERS threads, each with its own fd, loading an
 *	NVARS-var plan at once, per staged var; the best of REPS.
 *   nsim_bench mem NVARS
 *	kernel memory per loaded var: the module's kmem_bytes, cross-checked
 *	with the module's vmalloc areas (/proc/vmallocinfo) plus the slab
 *	delta (/proc/slabinfo) and the MemFree delta (/proc/meminfo).
 *   nsim_bench backing
 *	backing RAM taken by loading a plan with a 4 GiB input and 20 GiB
 *	of buffers without payload (trn2-sized HBM).
 *   nsim_bench reloc REPS NDESCS...
 *	relocation cost: for each NDESCS, the load time of a plan with a
 *	DMA program of NDESCS one-block copy descriptors of 160 runs of 64
 *	bytes between HBM and the state buffer (160 UDMA descriptors on
 *	each side, M2S and S2M, as real NEFFs average) minus that of the
 *	same plan without it, per UDMA descriptor written (either side);
 *	the best of REPS loads each.  The growth is the worst ratio of the
 *	per-descriptor figures of two sizes 10x apart.
 *   nsim_bench reloc-neff PLAN.kbin NODMA.kbin REPS
 *	the same for a compiled real NEFF (PLAN) and its plan compiled
 *	without its DMA programs (NODMA), on the device under test
 *	($NSIM_DEV); the submission ring bytes per UDMA descriptor.
 *   nsim_bench dma ROUNDS WARM
 *	the DMA engine: one queue moving 64 MiB HBM -> SBUF -> HBM in
 *	SBUF-sized rounds (plan_dma()), RUN to WAIT, cold (the first run
 *	after LOAD: destination pages get their backing) and warm (WARM
 *	runs more), against memcpy() of the same bytes in the same pieces
 *	through a buffer of the same size; ROUNDS loads, the best of each.
 *   nsim_bench exec REPS NINSTR...
 *	the sequencers (Documentation/execute.rst): for each NINSTR, the
 *	kernel's time from EXECUTE to the end (EXEC_WAIT's wall_ns) of a
 *	plan whose program is NINSTR instructions in one chain, PE and ACT
 *	taking turns (each waits for the other's semaphore update: one
 *	instruction per step, the scheduling's worst case; no DMA), minus
 *	that of a 2-instruction chain, per instruction; the best of REPS.
 *	The growth is the worst ratio of the per-instruction figures of two
 *	sizes 10x apart.
 *   nsim_bench exec-neff PLAN REPS
 *	EXECUTE to the end of a compiled real NEFF (its inputs zero) on the
 *	device under test ($NSIM_DEV): the kernel's wall_ns, the
 *	instructions, blocks and bytes, ns per instruction; the best of
 *	REPS.
 *
 * Output: "key value" lines; any failed check prints "error ..." and the
 * exit status is 1.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "kbin_writer.h"
#include "plans.h"
#include "tl_rng.h"

#define NOOP_IOC	_IO(NEURONSIM_IOC_MAGIC, 0x7f)
#define BATCH		1024U
#define VAR_SIZE	256ULL

static int fail(const char *what, int e)
{
	printf("error %s: %s\n", what, strerror(e < 0 ? -e : e));
	return 1;
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static uint64_t rng_state = TL_RNG_SEED;

static uint64_t rng(void)
{
	return tl_rng(&rng_state);
}

/*
 * One subgraph of @n variables as a compiler emits them: a mix of weights
 * without payload, temporaries, inputs and outputs of VAR_SIZE bytes,
 * 64-byte aligned, named "t%07u", dtype float32, shape [16, 4].
 */
static int plan_vars(const struct neuronsim_info *info, unsigned int n,
		     struct plan *p)
{
	static const uint32_t kinds[4] = {
		KBIN_MR_BUFFER, KBIN_MR_TMP_BUF, KBIN_MR_INPUT, KBIN_MR_OUTPUT
	};
	struct kbin_writer *w = kbin_writer_new(info->arch_gen);
	unsigned int i;
	char name[32];
	int e = 0;

	if (!w)
		return -ENOMEM;
	if (kbin_writer_add_subgraph(w, "sg00", 0, 0, NULL, 0) < 0)
		e = -EINVAL;
	for (i = 0; i < n && !e; i++) {
		snprintf(name, sizeof(name), "t%07u", i);
		e = TL_ADD(w, .id = i, .type = kinds[i & 3], .name = name,
			   .size = VAR_SIZE, .align = 64, .dtype = "float32",
			   .d0 = 16, .d1 = 4);
	}
	if (!e)
		e = kbin_writer_finish(w, &p->buf, &p->len);
	kbin_writer_free(w);
	return e < 0 ? e : (e ? -EINVAL : 0);
}

static int load_plan(int fd, const struct plan *p, uint32_t core,
		     uint32_t *id)
{
	static char log[4096];
	int e = nsim_load(fd, p, core, id, NULL, log, sizeof(log));

	if (e)
		printf("# load: %s\n", log);
	return e;
}

/*
 * The start of a bench on plan_vars(): the device opened (*@fd), its
 * info and the plan of @nvars variables for it.  0, or 1 with the failure
 * printed (fail()).
 */
static int open_plan_vars(unsigned int nvars, int *fd,
			  struct neuronsim_info *info, struct plan *p)
{
	int e;

	*fd = nsim_open();
	if (*fd < 0)
		return fail("open", errno);
	e = nsim_get_info(*fd, info);
	if (!e)
		e = plan_vars(info, nvars, p);
	return e ? fail("plan", e) : 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static int bench_ioctl(unsigned int nvars, int rounds, unsigned int iters)
{
	struct neuronsim_resolve_entry *ent;
	struct neuronsim_resolve r;
	struct neuronsim_info info;
	struct plan p = { 0 };
	double *ra, *rb, t0, t_noop, t_res, t_batch;
	double s_noop = 0, s_res = 0, s_batch = 0;
	unsigned int i, k, nbatch = iters / BATCH ? iters / BATCH : 1;
	uint32_t id, *vars;
	int fd, e, round;

	if (open_plan_vars(nvars, &fd, &info, &p))
		return 1;
	e = load_plan(fd, &p, 0, &id);
	if (e)
		return fail("load", e);
	plan_free(&p);
	vars = malloc(iters * sizeof(*vars));
	ent = calloc((size_t)nbatch * BATCH, sizeof(*ent));
	ra = calloc(rounds, sizeof(*ra));
	rb = calloc(rounds, sizeof(*rb));
	if (!vars || !ent || !ra || !rb)
		return fail("malloc", ENOMEM);
	for (i = 0; i < iters; i++)
		vars[i] = rng() % nvars;
	for (i = 0; i < nbatch * BATCH; i++) {
		ent[i].var_id = vars[i % iters];
		ent[i].offset = i & 127;
		ent[i].size = 64;
	}
	if (ioctl(fd, NOOP_IOC, 0) != -1 || errno != ENOTTY)
		return fail("no-op ioctl is not -ENOTTY", errno);

	for (round = 0; round < rounds; round++) {
		t0 = now_ns();
		for (i = 0; i < iters; i++)
			ioctl(fd, NOOP_IOC, 0);
		t_noop = (now_ns() - t0) / iters;

		memset(&r, 0, sizeof(r));
		r.model_id = id;
		r.size = 64;
		t0 = now_ns();
		for (i = 0; i < iters; i++) {
			r.var_id = vars[i];
			r.offset = i & 127;
			if (ioctl(fd, NEURONSIM_IOC_RESOLVE, &r))
				return fail("RESOLVE", errno);
		}
		t_res = (now_ns() - t0) / iters;

		t0 = now_ns();
		for (k = 0; k < nbatch; k++) {
			struct neuronsim_resolve_batch b = {
				.model_id = id, .count = BATCH,
				.entries = (uintptr_t)(ent + k * BATCH),
			};

			if (ioctl(fd, NEURONSIM_IOC_RESOLVE_BATCH, &b) ||
			    b.num_ok != BATCH)
				return fail("RESOLVE_BATCH", errno ? errno : EIO);
		}
		t_batch = (now_ns() - t0) / ((double)nbatch * BATCH);

		ra[round] = t_res / t_noop;
		rb[round] = t_batch / t_res;
		s_noop += t_noop;
		s_res += t_res;
		s_batch += t_batch;
	}
	printf("ioctl_vars %u\nioctl_rounds %d\nioctl_iters %u\n", nvars,
	       rounds, iters);
	printf("noop_ns %.1f\nresolve_ns %.1f\nbatch_entry_ns %.2f\n",
	       s_noop / rounds, s_res / rounds, s_batch / rounds);
	printf("resolve_over_noop %.3f\n", median(ra, rounds));
	printf("batch_over_resolve %.4f\n", median(rb, rounds));
	nsim_unload(fd, id);
	close(fd);
	free(vars);
	free(ent);
	free(ra);
	free(rb);
	return 0;
}

struct loader {
	pthread_t th;
	pthread_barrier_t *bar;
	const struct plan *p;
	int fd;
	uint32_t core, id;
	int err;
};

static void *loader_main(void *arg)
{
	struct loader *l = arg;

	pthread_barrier_wait(l->bar);
	l->err = load_plan(l->fd, l->p, l->core, &l->id);
	return NULL;
}

static int bench_load(unsigned int nvars, int loaders, int reps)
{
	struct loader *ld = calloc(loaders, sizeof(*ld));
	struct neuronsim_info info;
	pthread_barrier_t bar;
	struct plan p = { 0 };
	double best = 0, t0, t;
	int i, rep, fd;

	if (!ld)
		return fail("malloc", ENOMEM);
	if (open_plan_vars(nvars, &fd, &info, &p))
		return 1;
	close(fd);
	for (i = 0; i < loaders; i++) {
		ld[i].fd = nsim_open();
		if (ld[i].fd < 0)
			return fail("open", errno);
		ld[i].p = &p;
		ld[i].bar = &bar;
		ld[i].core = (uint32_t)i * info.num_cores / loaders;
	}
	for (rep = 0; rep < reps; rep++) {
		pthread_barrier_init(&bar, NULL, loaders + 1);
		for (i = 0; i < loaders; i++)
			pthread_create(&ld[i].th, NULL, loader_main, &ld[i]);
		pthread_barrier_wait(&bar);
		t0 = now_ns();
		for (i = 0; i < loaders; i++)
			pthread_join(ld[i].th, NULL);
		t = (now_ns() - t0) / ((double)nvars * loaders);
		pthread_barrier_destroy(&bar);
		for (i = 0; i < loaders; i++) {
			if (ld[i].err)
				return fail("load", ld[i].err);
			if (nsim_unload(ld[i].fd, ld[i].id))
				return fail("unload", errno);
		}
		if (!rep || t < best)
			best = t;
	}
	printf("load_vars %u\nload_loaders %d\nload_reps %d\nload_ns_per_var %.1f\n",
	       nvars, loaders, reps, best);
	for (i = 0; i < loaders; i++)
		close(ld[i].fd);
	plan_free(&p);
	free(ld);
	return 0;
}

/* the sum of @bytes() over the lines of file @path, -1 when unreadable */
static long long sum_lines(const char *path, long long (*bytes)(const char *))
{
	char *t = read_file(path, NULL), *line, *save = NULL;
	long long sum = 0;

	if (!t)
		return -1;
	for (line = strtok_r(t, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		sum += bytes(line);
	free(t);
	return sum;
}

/* a /proc/vmallocinfo line's bytes when the neuronsim module holds them */
static long long vmalloc_line(const char *line)
{
	const char *pg = strstr(line, " pages=");

	return pg && strstr(line, "[neuronsim]") ? atoll(pg + 7) * 4096LL : 0;
}

/* Bytes in vmalloc areas allocated from the neuronsim module. */
static long long module_vmalloc_bytes(void)
{
	return sum_lines("/proc/vmallocinfo", vmalloc_line);
}

/* a /proc/slabinfo line's bytes in use: active_objs * objsize */
static long long slab_line(const char *line)
{
	char name[64];
	long long active, total, size;

	if (line[0] == '#' || !strncmp(line, "slabinfo", 8))
		return 0;
	if (sscanf(line, "%63s %lld %lld %lld", name, &active, &total,
		   &size) == 4)
		return active * size;
	return 0;
}

/* Bytes of all slab objects in use: sum of active_objs * objsize. */
static long long slab_bytes(void)
{
	return sum_lines("/proc/slabinfo", slab_line);
}

static long long meminfo_kb(const char *key)
{
	char *t = read_file("/proc/meminfo", NULL), *p;
	long long v = -1;

	if (!t)
		return -1;
	p = strstr(t, key);
	if (p)
		v = atoll(p + strlen(key) + 1);
	free(t);
	return v;
}

static long long model_buckets(uint32_t id)
{
	char path[128], *t, *p;
	long long b = -1;

	dbgfs_path(path, sizeof(path), "models/%u/info", id);
	t = read_file(path, NULL);
	if (!t)
		return -1;
	p = strstr(t, " buckets ");
	if (p)
		b = atoll(p + 9);
	free(t);
	return b;
}

static void drop_caches(void)
{
	FILE *f = fopen("/proc/sys/vm/drop_caches", "w");

	if (f) {
		fputs("3\n", f);
		fclose(f);
	}
}

static int bench_mem(unsigned int nvars)
{
	long long vm0, vm1, sl0, sl1, mf0, mf1, buckets;
	struct neuronsim_info info;
	struct stats s0, s1;
	struct plan p = { 0 };
	uint32_t id;
	int fd, e;

	if (open_plan_vars(nvars, &fd, &info, &p))
		return 1;
	drop_caches();
	if (read_stats(&s0))
		return fail("stats", EIO);
	vm0 = module_vmalloc_bytes();
	sl0 = slab_bytes();
	mf0 = meminfo_kb("MemFree:");
	e = load_plan(fd, &p, 0, &id);
	if (e)
		return fail("load", e);
	drop_caches();
	vm1 = module_vmalloc_bytes();
	sl1 = slab_bytes();
	mf1 = meminfo_kb("MemFree:");
	if (read_stats(&s1))
		return fail("stats", EIO);
	buckets = model_buckets(id);
	printf("mem_vars %u\nmem_refs %lld\nkmem_bytes %lld\n", nvars,
	       s1.mem_refs - s0.mem_refs, s1.kmem_bytes - s0.kmem_bytes);
	printf("plan_bytes_per_record %.1f\n", (double)p.len / nvars);
	printf("buckets %lld\nhot_bytes_per_var %.2f\n", buckets,
	       48.0 + 8.0 * buckets / nvars);
	printf("kmem_per_var %.2f\n",
	       (double)(s1.kmem_bytes - s0.kmem_bytes) / nvars);
	printf("vmalloc_delta %lld\nslab_delta %lld\nmemfree_drop %lld\n",
	       vm1 - vm0, sl1 - sl0, (mf0 - mf1) * 1024);
	printf("measured_per_var %.2f\n",
	       (double)(vm1 - vm0 + (sl1 > sl0 ? sl1 - sl0 : 0)) / nvars);
	printf("memfree_per_var %.2f\n", (double)(mf0 - mf1) * 1024 / nvars);
	printf("backing_delta %lld\n", s1.backing_bytes - s0.backing_bytes);
	if (s1.mem_refs - s0.mem_refs != nvars)
		return fail("mem_refs does not count the vars", EINVAL);
	nsim_unload(fd, id);
	close(fd);
	plan_free(&p);
	return 0;
}

static int add_big(struct kbin_writer *w, int sg, uint32_t id, uint32_t type,
		   const char *name, uint64_t size)
{
	return TL_ADD(w, .sg = sg, .id = id, .type = type, .name = name,
		      .size = size, .align = 4096, .dtype = "bfloat16",
		      .d0 = size / 2);
}

static int bench_backing(void)
{
	const uint64_t gib = 1ULL << 30;
	struct neuronsim_info info;
	struct kbin_writer *w;
	struct stats s0, s1;
	struct plan p = { 0 };
	long long hbm;
	uint32_t id;
	int fd, e = 0;

	fd = nsim_open();
	if (fd < 0)
		return fail("open", errno);
	if (nsim_get_info(fd, &info))
		return fail("info", errno);
	if (info.num_hbm_channels < 2 || info.hbm_channel_size < 13 * gib ||
	    info.num_cores < 3)
		return fail("backing needs trn2-sized HBM (arch=trn2)", EINVAL);
	/*
	 * sg00 (core 0, channel 0): the 4 GiB input, 8 GiB of weights without
	 * payload; sg01 (core 1): one page; sg02 (core 2, channel 1): 8 GiB of
	 * weights, 4 GiB of temporaries.  20 GiB of buffers in all.
	 */
	w = kbin_writer_new(info.arch_gen);
	if (!w)
		return fail("writer", ENOMEM);
	if (kbin_writer_add_subgraph(w, "sg00", 0, 0, NULL, 0) < 0 ||
	    kbin_writer_add_subgraph(w, "sg01", 0, 0, NULL, 0) < 0 ||
	    kbin_writer_add_subgraph(w, "sg02", 0, 0, NULL, 0) < 0)
		return fail("writer", EINVAL);
	e |= add_big(w, 0, 0, KBIN_MR_INPUT, "input0", 4 * gib);
	e |= add_big(w, 0, 1, KBIN_MR_BUFFER, "w0", 4 * gib);
	e |= add_big(w, 0, 2, KBIN_MR_BUFFER, "w1", 4 * gib);
	e |= add_big(w, 1, 0, KBIN_MR_BUFFER, "small", 4096);
	e |= add_big(w, 2, 0, KBIN_MR_BUFFER, "w2", 4 * gib);
	e |= add_big(w, 2, 1, KBIN_MR_BUFFER, "w3", 4 * gib);
	e |= add_big(w, 2, 2, KBIN_MR_TMP_BUF, "tmp0", 4 * gib);
	if (e || kbin_writer_finish(w, &p.buf, &p.len))
		return fail("writer", EINVAL);
	kbin_writer_free(w);
	if (read_stats(&s0))
		return fail("stats", EIO);
	e = load_plan(fd, &p, 0, &id);
	if (e)
		return fail("load", e);
	if (read_stats(&s1))
		return fail("stats", EIO);
	hbm = s1.hbm_used - s0.hbm_used;
	printf("backing_plan_bytes %zu\nbacking_hbm_bytes %lld\n", p.len, hbm);
	printf("backing_bytes %lld\n", s1.backing_bytes - s0.backing_bytes);
	if (hbm < (long long)(24 * gib))
		return fail("the plan did not place 24 GiB", EINVAL);
	nsim_unload(fd, id);
	close(fd);
	plan_free(&p);
	return 0;
}

/* "KEY N" of debugfs models/@id/info, or -1 */
static long long model_info(uint32_t id, const char *key)
{
	char path[128], *t, *p;
	size_t n = strlen(key);
	long long v = -1;

	dbgfs_path(path, sizeof(path), "models/%u/info", id);
	t = read_file(path, NULL);
	if (!t)
		return -1;
	for (p = t; p; p = strchr(p, '\n')) {
		if (*p == '\n')
			p++;
		if (!strncmp(p, key, n) && p[n] == ' ') {
			v = atoll(p + n + 1);
			break;
		}
	}
	free(t);
	return v;
}

/*
 * What one plan's load shows: the best load time of @reps, its UDMA
 * descriptors (both sides), ring bytes (submission and completion) and
 * the kernel's own relocation time (debugfs models/<id>/info).
 */
struct load_fig {
	double ns;
	long long udma_descs, ring_bytes, relocate_us;
};

static int time_load(int fd, const struct plan *p, int reps,
		     struct load_fig *f)
{
	double t0, t;
	uint32_t id;
	int rep, e;

	for (rep = 0; rep < reps; rep++) {
		t0 = now_ns();
		e = load_plan(fd, p, 0, &id);
		t = now_ns() - t0;
		if (e)
			return e;
		if (!rep || t < f->ns)
			f->ns = t;
		f->udma_descs = model_info(id, "udma_descs");
		f->ring_bytes = model_info(id, "dma_ring_bytes");
		f->relocate_us = model_info(id, "relocate_us");
		if (nsim_unload(fd, id))
			return -errno;
	}
	return 0;
}

/*
 * time_load() of a plan without DMA (@p0, into @f0) and of one with it
 * (@p1, into @f1): 0, or 1 with the failure printed (fail())
 */
static int time_loads(int fd, const struct plan *p0, const struct plan *p1,
		      int reps, struct load_fig *f0, struct load_fig *f1)
{
	int e = time_load(fd, p0, reps, f0);

	if (!e)
		e = time_load(fd, p1, reps, f1);
	return e ? fail("load", e) : 0;
}

#define RELOC_VAR_SIZE	(1ULL << 20)
/* a descriptor's pattern: RUNS_P partitions x RUNS_R rows of RUN bytes */
#define RELOC_RUN	64U
#define RELOC_RUNS_P	32U
#define RELOC_RUNS_R	5U
/* runs per side of a descriptor: UDMA descriptors per side */
#define RELOC_RUNS	(RELOC_RUNS_P * RELOC_RUNS_R)
#define RELOC_BYTES	(RELOC_RUNS * RELOC_RUN)

/* the I/O plan's vars (tl_io_plan()) */
enum { RELOC_SB = TL_IO_SB, RELOC_IN = TL_IO_IN, RELOC_OUT = TL_IO_OUT };

/*
 * A subgraph with the state buffer (its 32 MiB window), a 1 MiB input and
 * a 1 MiB output in HBM and, when @ndescs, queue qSPIO0 with @ndescs
 * blocks of one copy descriptor each (real NEFF programs have about one
 * descriptor per block).  Every descriptor moves RELOC_RUNS runs of
 * RELOC_RUN bytes, one UDMA descriptor each on either side (the real
 * NEFFs have about 160 runs per side of a descriptor, short ones: SBUF
 * partition rows;
 * Documentation/performance.rst, figure 7): RELOC_BYTES contiguous
 * bytes of HBM, 3-D as [RUN, RUNS_P, RUNS_R] with steps [1, RUN,
 * RUN * RUNS_P], and in the state buffer RELOC_RUNS_R rows of RELOC_RUN
 * bytes side by side in each of RELOC_RUNS_P consecutive partitions
 * (steps [1, partition stride, RUN]).  Even blocks load input0 into the
 * state buffer, odd ones store it into output0, as a NEFF's loads and
 * stores alternate.
 */
static int plan_reloc(const struct neuronsim_info *info, unsigned int ndescs,
		      struct plan *p)
{
	static const uint32_t sems[] = { 24, 25 };
	const struct tl_queue q = {
		.name = "qSPIO0", .type = KBIN_DMA_QUEUE_IN, .nsem = 2,
		.sem = { sems[0], sems[1] }, .fabric_path = "main",
	};
	uint64_t stride = info->sbuf_window_size / info->sbuf_partitions;
	struct kbin_dma_side hbm = {
		.sizes = { RELOC_RUN, RELOC_RUNS_P, RELOC_RUNS_R },
		.steps = { 1, RELOC_RUN, RELOC_RUN * RELOC_RUNS_P },
		.num_dims = 3, .dtype = KBIN_DMA_DTYPE_FLOAT32,
	};
	struct kbin_dma_side sb = {
		.sizes = { RELOC_RUN, RELOC_RUNS_P, RELOC_RUNS_R },
		.steps = { 1, stride, RELOC_RUN },
		.num_dims = 3, .dtype = KBIN_DMA_DTYPE_FLOAT32,
		.var_id = RELOC_SB,
	};
	struct kbin_dma_desc d = { .op = KBIN_DMA_OP_COPY, .num_tiling_dims = 1 };
	struct tl_io io = {
		.gen = info->arch_gen, .sb_size = info->sbuf_window_size,
		.size = RELOC_VAR_SIZE, .align = 4096, .dtype = "float32",
		.d0 = RELOC_VAR_SIZE / 4, .d1 = 1,
	};
	struct kbin_dma_block b = { .queue = 0 };
	/* rows per partition, and groups of RELOC_RUNS_P partitions */
	unsigned int cols = info->sbuf_partition_size / (RELOC_RUN * RELOC_RUNS_R);
	unsigned int groups = info->sbuf_partitions / RELOC_RUNS_P, i;
	struct kbin_writer *w;
	int e = 0;

	w = tl_io_plan(&io, &e);
	if (!w)
		return -ENOMEM;
	if (ndescs && tl_add_queue(w, &q) != 0)
		e = -EINVAL;
	for (i = 0; i < ndescs && !e; i++) {
		hbm.offset = (uint64_t)(i % (RELOC_VAR_SIZE / RELOC_BYTES)) *
			     RELOC_BYTES;
		sb.offset = (uint64_t)(i / cols % groups) * RELOC_RUNS_P * stride +
			    (uint64_t)(i % cols) * RELOC_RUN * RELOC_RUNS_R;
		if (i & 1) {
			hbm.var_id = RELOC_OUT;
			d.from = sb;
			d.to = hbm;
		} else {
			hbm.var_id = RELOC_IN;
			d.from = hbm;
			d.to = sb;
		}
		b.id = i;
		b.sem_index = i & 1;
		b.semaphore = sems[i & 1];
		e = kbin_writer_add_dma_block(w, 0, &b, NULL, &d, 1);
	}
	return plan_finish(w, e, p);
}

static int bench_reloc(int reps, int n, char **sizes)
{
	struct neuronsim_info info;
	double per = 0, prev = 0, growth = 0, g;
	long long ring = 0, udma = 0;
	int fd, i, e;

	fd = nsim_open();
	if (fd < 0)
		return fail("open", errno);
	if (nsim_get_info(fd, &info))
		return fail("info", errno);
	for (i = 0; i < n; i++) {
		unsigned int nd = atoi(sizes[i]);
		struct load_fig f0 = { 0 }, f1 = { 0 };
		struct plan p0 = { 0 }, p1 = { 0 };

		e = plan_reloc(&info, 0, &p0);
		if (!e)
			e = plan_reloc(&info, nd, &p1);
		if (e)
			return fail("plan", e);
		if (time_loads(fd, &p0, &p1, reps, &f0, &f1))
			return 1;
		udma = 2LL * nd * RELOC_RUNS;
		if (f1.udma_descs != udma)
			return fail("udma_descs is not RELOC_RUNS per side", EINVAL);
		ring = f1.ring_bytes;
		per = (f1.ns - f0.ns) / udma;
		printf("n%u_descs %u\nn%u_udma_descs %lld\nn%u_plan_bytes %zu\n",
		       nd, nd, nd, udma, nd, p1.len);
		printf("n%u_load_ns %.0f\n", nd, f1.ns);
		printf("n%u_load_nodma_ns %.0f\nn%u_relocate_us %lld\n", nd,
		       f0.ns, nd, f1.relocate_us);
		printf("n%u_ring_bytes %lld\nn%u_ns_per_udma %.2f\n", nd,
		       f1.ring_bytes, nd, per);
		if (i) {
			g = per / prev;
			printf("n%u_growth %.3f\n", nd, g);
			if (g > growth)
				growth = g;
		}
		prev = per;
		plan_free(&p0);
		plan_free(&p1);
	}
	printf("reloc_instr_per_udma %.2f\n", per);
	if (n > 1)
		printf("reloc_growth %.3f\n", growth);
	/* submission rings: half of the rings' bytes (a completion ring
	 * of as many 16-byte entries follows each) */
	printf("synth_ring_bytes_per_udma %.2f\n", ring / 2.0 / udma);
	close(fd);
	return 0;
}

static int bench_reloc_neff(const char *with, const char *without, int reps)
{
	struct load_fig f0 = { 0 }, f1 = { 0 };
	struct plan p0 = { 0 }, p1 = { 0 };
	int fd;

	p1.buf = read_file(with, &p1.len);
	p0.buf = read_file(without, &p0.len);
	if (!p0.buf || !p1.buf)
		return fail("read plan", errno ? errno : ENOENT);
	fd = nsim_open();
	if (fd < 0)
		return fail("open", errno);
	if (time_loads(fd, &p0, &p1, reps, &f0, &f1))
		return 1;
	if (f0.udma_descs != 0 || f1.udma_descs <= 0)
		return fail("the plans' UDMA descriptors", EINVAL);
	printf("largest_neff_plan_bytes %zu\nlargest_neff_nodma_plan_bytes %zu\n",
	       p1.len, p0.len);
	printf("largest_neff_udma_descs %lld\nlargest_neff_ring_bytes %lld\n",
	       f1.udma_descs, f1.ring_bytes);
	printf("largest_neff_relocate_us %lld\n", f1.relocate_us);
	printf("largest_neff_load_ns %.0f\nlargest_neff_load_nodma_ns %.0f\n",
	       f1.ns, f0.ns);
	printf("largest_neff_ns_per_udma %.2f\n",
	       (f1.ns - f0.ns) / f1.udma_descs);
	printf("ring_bytes_per_udma %.2f\n", f1.ring_bytes / 2.0 / f1.udma_descs);
	close(fd);
	plan_free(&p0);
	plan_free(&p1);
	return 0;
}

#define DMA_BYTES	(64ULL << 20)
#define DMA_PIECE	65536U
#define DMA_PART_BYTES	(2 * DMA_PIECE)
/* the I/O plan's vars (tl_io_plan()) */
enum { DMA_V_SB = TL_IO_SB, DMA_V_IN = TL_IO_IN, DMA_V_OUT = TL_IO_OUT };

/*
 * The engine benchmark's plan: the state buffer, input0 and output0
 * (DMA_BYTES each, HBM, page aligned) and one queue qData.  SBUF holds
 * less than 64 MiB (the generation's partitions x partition size), so
 * the queue moves the bytes in rounds of DMA_PART_BYTES per partition
 * (16 MiB with 128 partitions): block 2r copies round r of input0 into
 * byte 0.. of every partition, block 2r + 1 copies the partitions into
 * round r of output0.  Each descriptor is sizes [64 KiB, 2, partitions]:
 * 64 KiB UDMA pieces, 16 MiB per side per descriptor; in all 64 MiB
 * each way, 128 MiB written.
 */
static int plan_dma(const struct neuronsim_info *info, struct plan *p,
		    unsigned int *rounds)
{
	enum { SEM = 11 };
	uint64_t stride = info->sbuf_window_size / info->sbuf_partitions;
	uint64_t chunk = (uint64_t)DMA_PART_BYTES * info->sbuf_partitions;
	struct kbin_dma_side hbm = {
		.sizes = { DMA_PIECE, DMA_PART_BYTES / DMA_PIECE, info->sbuf_partitions },
		.steps = { 1, DMA_PIECE, DMA_PART_BYTES }, .num_dims = 3,
		.dtype = KBIN_DMA_DTYPE_UINT8,
	};
	struct kbin_dma_side sb = hbm;
	struct tl_io io = {
		.gen = info->arch_gen, .sb_size = info->sbuf_window_size,
		.size = DMA_BYTES, .align = 4096, .dtype = "uint8",
		.d0 = DMA_BYTES, .d1 = 1,
	};
	struct kbin_writer *w;
	unsigned int r;
	int e = 0;

	if (info->sbuf_partition_size < DMA_PART_BYTES || DMA_BYTES % chunk)
		return -EINVAL;
	*rounds = DMA_BYTES / chunk;
	sb.steps[2] = stride;
	sb.var_id = DMA_V_SB;
	w = tl_io_plan(&io, &e);
	if (!w)
		return -ENOMEM;
	e |= TL_QUEUE(w, .name = "qData", .type = KBIN_DMA_QUEUE_DATA,
		      .sem = { SEM }) < 0;
	for (r = 0; r < *rounds && !e; r++) {
		struct kbin_dma_block b = { .queue = 0, .semaphore = SEM };
		struct kbin_dma_desc d = { .op = KBIN_DMA_OP_COPY, .num_tiling_dims = 1 };

		hbm.offset = r * chunk;
		hbm.var_id = DMA_V_IN;
		d.from = hbm;
		d.to = sb;
		b.id = 2 * r;
		e |= kbin_writer_add_dma_block(w, 0, &b, "in", &d, 1);
		hbm.var_id = DMA_V_OUT;
		d.from = sb;
		d.to = hbm;
		b.id = 2 * r + 1;
		e |= kbin_writer_add_dma_block(w, 0, &b, "out", &d, 1);
	}
	return plan_finish(w, e, p);
}

/* RUN queue 0 of @id and WAIT for it: the RUN-to-WAIT time in ns */
static int dma_run(int fd, uint32_t id, struct neuronsim_run_result *res,
		   double *ns)
{
	uint32_t q = 0;
	struct neuronsim_run r = {
		.model_id = id, .num_queues = 1, .queues = (uintptr_t)&q,
	};
	struct neuronsim_wait wt = {
		.model_id = id, .num_queues = 1, .queues = (uintptr_t)&q,
		.results = (uintptr_t)res, .timeout_ns = -1,
	};
	double t0 = now_ns();

	if (ioctl(fd, NEURONSIM_IOC_RUN, &r) || ioctl(fd, NEURONSIM_IOC_WAIT, &wt))
		return -errno;
	*ns = now_ns() - t0;
	return res->status;
}

static void *dma_map(size_t n)
{
	void *p = mmap(NULL, n, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/*
 * memcpy() of what the queue moves, in the same pieces: round r of
 * @src into @mid (a buffer of one round), @mid into round r of @dst.
 * The time in ns.
 */
static double dma_memcpy(uint8_t *dst, uint8_t *mid, const uint8_t *src,
			 uint64_t chunk)
{
	double t0 = now_ns();
	uint64_t off;

	for (off = 0; off < DMA_BYTES; off += chunk) {
		memcpy(mid, src + off, chunk);
		memcpy(dst + off, mid, chunk);
	}
	return now_ns() - t0;
}

static int bench_dma(int rounds, int warm)
{
	double t = 0, cold = 0, hot = 0, mcold = 0, mhot = 0, ecold = 0, ehot = 0;
	struct neuronsim_run_result res;
	struct neuronsim_info info;
	uint8_t *src, *mid, *dst;
	struct plan p = { 0 };
	unsigned int nr;
	uint64_t i, chunk, bytes = 2 * DMA_BYTES;
	uint32_t id;
	int fd, e, round, k;

	fd = nsim_open();
	if (fd < 0)
		return fail("open", errno);
	if (nsim_get_info(fd, &info))
		return fail("info", errno);
	e = plan_dma(&info, &p, &nr);
	if (e)
		return fail("plan", e);
	chunk = DMA_BYTES / nr;
	src = dma_map(DMA_BYTES);
	if (!src)
		return fail("mmap", errno);
	for (i = 0; i < DMA_BYTES; i++)
		src[i] = (uint8_t)(i * 7 + (i >> 12) + 1);
	for (round = 0; round < rounds; round++) {
		e = load_plan(fd, &p, 0, &id);
		if (!e)
			e = nsim_write_var(fd, id, 0, DMA_V_IN, 0, src, DMA_BYTES);
		if (e)
			return fail("load", e);
		for (k = 0; k <= warm; k++) {
			e = dma_run(fd, id, &res, &t);
			if (e)
				return fail("run", e);
			if (res.bytes != bytes || res.blocks != 2 * nr ||
			    res.udma_descs != 2 * bytes / DMA_PIECE)
				return fail("the run's bytes, blocks or UDMA descriptors", EINVAL);
			if (!k && (!round || t < cold)) {
				cold = t;
				ecold = res.ns;
			}
			if (k && (!hot || t < hot)) {
				hot = t;
				ehot = res.ns;
			}
		}
		/* the bytes arrived: output0 is input0 */
		dst = dma_map(DMA_BYTES);
		if (!dst)
			return fail("mmap", errno);
		e = nsim_read_var(fd, id, 0, DMA_V_OUT, 0, dst, DMA_BYTES);
		if (e || memcmp(dst, src, DMA_BYTES))
			return fail("output0 is not input0", e ? e : EIO);
		munmap(dst, DMA_BYTES);
		if (nsim_unload(fd, id))
			return fail("unload", errno);

		/* memcpy() the same way: fresh pages, then warm */
		dst = dma_map(DMA_BYTES);
		mid = dma_map(chunk);
		if (!dst || !mid)
			return fail("mmap", errno);
		t = dma_memcpy(dst, mid, src, chunk);
		if (!round || t < mcold)
			mcold = t;
		for (k = 0; k < warm; k++) {
			t = dma_memcpy(dst, mid, src, chunk);
			if (!mhot || t < mhot)
				mhot = t;
		}
		if (memcmp(dst, src, DMA_BYTES))
			return fail("memcpy", EIO);
		munmap(dst, DMA_BYTES);
		munmap(mid, chunk);
	}
	printf("dma_rounds %u\ndma_round_bytes %llu\ndma_bytes %llu\n", nr,
	       (unsigned long long)chunk, (unsigned long long)bytes);
	printf("dma_cold_ns %.0f\ndma_warm_ns %.0f\n", cold, hot);
	printf("dma_engine_cold_ns %.0f\ndma_engine_warm_ns %.0f\n", ecold, ehot);
	printf("memcpy_cold_ns %.0f\nmemcpy_warm_ns %.0f\n", mcold, mhot);
	printf("dma_cold_mbps %.1f\ndma_warm_mbps %.1f\n", bytes * 1e3 / cold,
	       bytes * 1e3 / hot);
	printf("memcpy_cold_mbps %.1f\nmemcpy_warm_mbps %.1f\n",
	       bytes * 1e3 / mcold, bytes * 1e3 / mhot);
	printf("dma_instr_per_byte %.4f\ndma_cold_instr_per_byte %.4f\n",
	       hot / bytes, cold / bytes);
	printf("memcpy_instr_per_byte %.4f\nmemcpy_cold_instr_per_byte %.4f\n",
	       mhot / bytes, mcold / bytes);
	/* bytes per second over bytes per second: the time ratio inverted */
	printf("dma_over_memcpy %.3f\ndma_cold_over_memcpy %.3f\n", mhot / hot,
	       mcold / cold);
	munmap(src, DMA_BYTES);
	plan_free(&p);
	close(fd);
	return 0;
}

/*
 * The chain of nsim_bench exec: one subgraph (the state buffer only),
 * PE instruction i waits for semaphore 2 >= i and adds 1 to semaphore 1,
 * ACT instruction i waits for semaphore 1 >= i + 1 and adds 1 to
 * semaphore 2; @n instructions in all.
 */
static int plan_chain(const struct neuronsim_info *info, uint32_t n,
		      struct plan *p)
{
	uint32_t npe = (n + 1) / 2, nact = n / 2, i;
	uint8_t *pe = calloc(npe + 1, KBIN_PROG_RECORD_SIZE);
	uint8_t *act = calloc(nact + 1, KBIN_PROG_RECORD_SIZE);
	struct kbin_writer *w = kbin_writer_new(info->arch_gen);
	int e = 0;

	if (!pe || !act || !w) {
		free(pe);
		free(act);
		return -ENOMEM;
	}
	for (i = 0; i < npe; i++) {
		struct kbin_prog_sync x = {
			.opcode = 0x01, .wait_mode = KBIN_PROG_WAIT_GE,
			.wait_sem = 2, .wait_value = i,
			.update_mode = KBIN_PROG_UPDATE_INC, .update_sem = 1,
		};

		kbin_prog_encode(pe + (size_t)i * KBIN_PROG_RECORD_SIZE, &x, NULL);
	}
	for (i = 0; i < nact; i++) {
		struct kbin_prog_sync x = {
			.opcode = 0x21, .wait_mode = KBIN_PROG_WAIT_GE,
			.wait_sem = 1, .wait_value = i + 1,
			.update_mode = KBIN_PROG_UPDATE_INC, .update_sem = 2,
		};

		kbin_prog_encode(act + (size_t)i * KBIN_PROG_RECORD_SIZE, &x, NULL);
	}
	if (kbin_writer_add_subgraph(w, "sg00", 0, 0, NULL, 0) < 0)
		e = -EINVAL;
	e |= TL_ADD(w, .id = 0, .type = KBIN_MR_SB, .name = "state_buffer",
		    .size = info->sbuf_window_size);
	e |= kbin_writer_add_prog(w, 0, KBIN_DMA_ENGINE_PE, pe,
				  (uint64_t)npe * KBIN_PROG_RECORD_SIZE);
	if (nact)
		e |= kbin_writer_add_prog(w, 0, KBIN_DMA_ENGINE_ACT, act,
					  (uint64_t)nact * KBIN_PROG_RECORD_SIZE);
	free(pe);
	free(act);
	return plan_finish(w, e, p);
}

/* the best kernel time (wall_ns) of @reps executions of model @id */
static int time_exec(int fd, uint32_t id, int reps,
		     struct neuronsim_exec_result **best)
{
	struct neuronsim_exec_result *r;
	int rep, e;

	*best = NULL;
	for (rep = 0; rep < reps; rep++) {
		e = neuronsim_exec(fd, id, NULL, &r);
		if (e)
			return e;
		if (!*best || r->summary.wall_ns < (*best)->summary.wall_ns) {
			neuronsim_exec_result_free(*best);
			*best = r;
		} else {
			neuronsim_exec_result_free(r);
		}
	}
	return 0;
}

/*
 * Load the @n-instruction chain, time its best of @reps executions into
 * *@best and unload it: 0, or -1 with the cause in *@err.
 */
static int chain_exec(int fd, const struct neuronsim_info *info, uint32_t n,
		      int reps, struct neuronsim_exec_result **best, int *err)
{
	struct plan p;
	uint32_t id;
	int e;

	e = plan_chain(info, n, &p);
	if (!e)
		e = load_plan(fd, &p, 0, &id);
	plan_free(&p);
	if (!e)
		e = time_exec(fd, id, reps, best);
	if (e || nsim_unload(fd, id)) {
		*err = e ? e : errno;
		return -1;
	}
	return 0;
}

static int bench_exec(int reps, int n, char **sizes)
{
	struct neuronsim_exec_result *r0 = NULL, *r = NULL;
	struct neuronsim_info info;
	double per, prev = 0, growth = 0;
	int fd, e, i;

	fd = nsim_open();
	if (fd < 0 || nsim_get_info(fd, &info))
		return fail("open", errno);
	if (chain_exec(fd, &info, 2, reps, &r0, &e))
		return fail("execute the 2-instruction chain", e);
	printf("exec_base_ns %llu\n", (unsigned long long)r0->summary.wall_ns);
	for (i = 0; i < n; i++) {
		uint32_t ni = strtoul(sizes[i], NULL, 0);

		if (chain_exec(fd, &info, ni, reps, &r, &e))
			return fail("execute the chain", e);
		if (r->summary.instructions != ni || r->summary.status)
			return fail("the chain's instructions", EINVAL);
		per = ((double)r->summary.wall_ns - (double)r0->summary.wall_ns) /
		      (ni - 2);
		printf("n%u_exec_ns %llu\nn%u_ns_per_instr %.2f\nn%u_virtual_ns %llu\n",
		       ni, (unsigned long long)r->summary.wall_ns, ni, per, ni,
		       (unsigned long long)r->summary.virtual_ns);
		if (i && per / prev > growth)
			growth = per / prev;
		prev = per;
		if (i == 1 || n == 1)
			printf("exec_ns_per_instr %.2f\n", per);
		neuronsim_exec_result_free(r);
	}
	if (n > 1)
		printf("exec_growth %.3f\n", growth);
	neuronsim_exec_result_free(r0);
	close(fd);
	return 0;
}

static int bench_exec_neff(const char *path, int reps)
{
	struct neuronsim_exec_result *r = NULL;
	struct plan p = { 0 };
	uint32_t id;
	int fd, e;

	p.buf = read_file(path, &p.len);
	if (!p.buf)
		return fail("read plan", errno ? errno : ENOENT);
	fd = nsim_open();
	if (fd < 0)
		return fail("open", errno);
	e = load_plan(fd, &p, 0, &id);
	if (!e)
		e = time_exec(fd, id, reps, &r);
	if (e || nsim_unload(fd, id))
		return fail("execute the NEFF", e ? e : errno);
	printf("neff_exec_ns %llu\nneff_instructions %llu\nneff_blocks %llu\nneff_bytes %llu\nneff_virtual_ns %llu\nneff_plan_bytes %zu\n",
	       (unsigned long long)r->summary.wall_ns,
	       (unsigned long long)r->summary.instructions,
	       (unsigned long long)r->summary.blocks,
	       (unsigned long long)r->summary.bytes,
	       (unsigned long long)r->summary.virtual_ns, p.len);
	printf("neff_ns_per_instr %.2f\n",
	       (double)r->summary.wall_ns / r->summary.instructions);
	neuronsim_exec_result_free(r);
	plan_free(&p);
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 5 && !strcmp(argv[1], "ioctl"))
		return bench_ioctl(atoi(argv[2]), atoi(argv[3]), atoi(argv[4]));
	if (argc == 5 && !strcmp(argv[1], "load"))
		return bench_load(atoi(argv[2]), atoi(argv[3]), atoi(argv[4]));
	if (argc == 3 && !strcmp(argv[1], "mem"))
		return bench_mem(atoi(argv[2]));
	if (argc == 2 && !strcmp(argv[1], "backing"))
		return bench_backing();
	if (argc >= 4 && !strcmp(argv[1], "reloc"))
		return bench_reloc(atoi(argv[2]), argc - 3, argv + 3);
	if (argc == 5 && !strcmp(argv[1], "reloc-neff"))
		return bench_reloc_neff(argv[2], argv[3], atoi(argv[4]));
	if (argc == 4 && !strcmp(argv[1], "dma"))
		return bench_dma(atoi(argv[2]), atoi(argv[3]));
	if (argc >= 4 && !strcmp(argv[1], "exec"))
		return bench_exec(atoi(argv[2]), argc - 3, argv + 3);
	if (argc == 4 && !strcmp(argv[1], "exec-neff"))
		return bench_exec_neff(argv[2], atoi(argv[3]));
	fprintf(stderr, "usage: nsim_bench ioctl NVARS ROUNDS ITERS | load NVARS LOADERS REPS | mem NVARS | backing | reloc REPS NDESCS... | reloc-neff PLAN NODMA REPS | dma ROUNDS WARM | exec REPS NINSTR... | exec-neff PLAN REPS\n");
	return 2;
}
