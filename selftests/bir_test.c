// SPDX-License-Identifier: GPL-2.0
/*
 * bir_test - every bundled BIR model through the device: every bundled
 * BIR model compiles to a plan that loads and resolves in the VM
 * (Documentation/compiler-passes.rst, "Examples and tests").
 *
 * The host step (selftests/mk/bir.mk) compiles every
 * userspace/cc/bir/examples/NAME.bir.json with neuronsim-cc into
 * DIR/NAME.kbin and lists the names in DIR/models.txt.
 *
 *   bir_test [DIR]     (default $NSIM_DATA/bir, else data/bir next to the
 *                      program, where selftests/Makefile installs it;
 *                      insmod arch=trn2)
 *
 * For each listed model, with raw ioctls of uapi/linux/neuronsim.h:
 *   - the plan exists, passes the plan checker and targets the loaded
 *     device's generation;
 *   - every subgraph carries the evtaccel SBUF carve-out that
 *     RuntimeMemoryReservation produced: offset = partition bytes - 8
 *     (229368 on trn2), 8 bytes, partitions 0..127 -- the
 *     runtime_statebuffer_reservation of the real trn2 NEFFs;
 *   - LOAD succeeds, MODEL_INFO agrees with the plan and debugfs
 *     stats hbm_used grows by MODEL_INFO's hbm_bytes;
 *   - every var resolves at offset 0 with its full size (MR_PTR: offset 0
 *     only, and offset 1 is -EINVAL; MR_LIST: -ENODATA), one byte more is
 *     -ERANGE; an MR_SB lies inside its core's SBUF window; HBM kinds lie
 *     inside one HBM channel;
 *   - a weight payload reads back (READ_VAR) equal to the plan's bytes;
 *     every other HBM var takes a written pattern and reads it back;
 *   - the DMA queues the lowering made of its TensorCopy instructions
 *     with a side in DRAM (Documentation/compiler-passes.rst, "DMA")
 *     are relocated with the plan's blocks and descriptors (DMA_INFO),
 *     every queue runs to the end on the DMA engine (RUN, WAIT), and
 *     where the model stages input x through SBUF into output x_staged,
 *     x_staged reads back equal to x's pattern;
 *   - UNLOAD brings debugfs stats (models, mem_refs, kmem_bytes,
 *     backing_bytes, hbm_used) back to their values before the load.
 * One TAP line per model; every failure is a "#" line naming the model,
 * subgraph, var, field and value.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/neuronsim.h>

#include "kselftest.h"
#include "kbin_compat.h"
#include "kbin_kind.h"
#include "kbin_reader.h"
#include "libneuronsim.h"
#include "plans.h"
#include "nsim_file.h"
#include "prog_ref.h"
#include "tl_rng.h"

#define MAX_PATTERN	(1U << 20)	/* write/read-back size cap per var */

struct run {
	const char *model;
	const struct neuronsim_info *info;
	int fd;
	uint32_t id;
	unsigned int fails;
	unsigned int weights, patterned, staged;
	unsigned int computed, outputs;
};

/* one failure of the plan under check (plans.c) */
#define bad(r, ...) plan_fail((r)->model, &(r)->fails, __VA_ARGS__)

/* ---- raw ioctls ------------------------------------------------------ */

/* RESOLVE, READ_VAR/WRITE_VAR and the debugfs stats come from plans.c */

/* ---- checks ------------------------------------------------------------ */

/* the evtaccel carve-out of RuntimeMemoryReservation in subgraph @s */
static void check_carveout(struct run *r, const struct kbin_view *v, uint32_t s)
{
	const struct kbin_subgraph *sg = kbin_view_subgraph(v, s);
	uint32_t want_off = r->info->sbuf_partition_size - 8;
	unsigned int found = 0;

	if (r->info->arch_gen == 3 && want_off != 229368)
		bad(r, "device reports SBUF partition %u bytes; trn2 has 229376",
		    r->info->sbuf_partition_size);
	for (uint32_t k = 0; k < sg->num_carveouts; k++) {
		const struct kbin_sb_carveout *c = &sg->carveouts[k];

		if (c->type != KBIN_CARVEOUT_EVTACCEL)
			continue;
		found++;
		if (c->offset != want_off || c->size != 8 ||
		    c->start_partition != 0 ||
		    c->num_partitions != r->info->sbuf_partitions)
			bad(r, "%s carve-out %u (evtaccel): offset %u size %u partitions %u+%u; want offset %u size 8 partitions 0+%u",
			    sg->name, k, c->offset, c->size, c->start_partition,
			    c->num_partitions, want_off,
			    r->info->sbuf_partitions);
	}
	if (found != 1)
		bad(r, "%s: %u evtaccel SBUF carve-outs (of %u carve-outs), want exactly 1",
		    sg->name, found, sg->num_carveouts);
}

static void check_record(struct run *r, const struct kbin_view *v, uint32_t s,
			 uint32_t core, const struct kbin_mem_ref *rec)
{
	const struct plan_check c = {
		.name = r->model, .fails = &r->fails, .info = r->info,
		.fd = r->fd, .id = r->id,
	};
	const struct neuronsim_info *info = r->info;
	const char *sgn = kbin_view_subgraph(v, s)->name;
	const char *name = kbin_view_str(v, rec->name);
	uint64_t size = 0, a = 0;
	uint32_t id = rec->var_id;
	int ret;

	/* then what a staged address must be follows the kind's storage */
	switch (plan_check_staged(&c, v, s, rec, &size, &a)) {
	case KBIN_STORAGE_SBUF: {
		uint64_t lo = info->sbuf_base + (uint64_t)core * info->sbuf_window_size;

		if (a < lo || a - lo + size > info->sbuf_window_size)
			bad(r, "%s var '%s' (#%u MR_SB): 0x%" PRIx64 "+%" PRIu64 " is outside core %u's SBUF window 0x%" PRIx64 "+0x%llx",
			    sgn, name, id, a, size, core, lo,
			    (unsigned long long)info->sbuf_window_size);
		if (rec->size != info->sbuf_window_size)
			bad(r, "%s var '%s' (#%u MR_SB): size %llu, want the core's SBUF window %llu",
			    sgn, name, id, (unsigned long long)rec->size,
			    (unsigned long long)info->sbuf_window_size);
		return;
	}
	case KBIN_STORAGE_HBM:
		break;
	default:
		return;
	}

	if (rec->buffer) {
		uint8_t *buf = plan_check_weight(&c, v, s, rec, size);

		if (buf)
			r->weights++;
		free(buf);
	} else if (size && size <= MAX_PATTERN) {
		uint8_t *w = malloc(size), *rd = calloc(1, size);
		uint64_t k;

		ret = (w && rd) ? 0 : -ENOMEM;
		for (k = 0; w && k < size; k++)
			w[k] = (uint8_t)(k * 131 + id * 7 + 1);
		if (!ret)
			ret = nsim_write_var(r->fd, r->id, s, id, 0,
					     w, size);
		if (!ret)
			ret = nsim_read_var(r->fd, r->id, s, id, 0,
					    rd, size);
		if (ret) {
			bad(r, "%s var '%s' (#%u): WRITE_VAR/READ_VAR of %" PRIu64 " bytes: %s",
			    sgn, name, id, size, strerror(-ret));
		} else {
			for (k = 0; k < size && w[k] == rd[k]; k++)
				;
			if (k < size)
				bad(r, "%s var '%s' (#%u): byte %" PRIu64 " reads back 0x%02x, wrote 0x%02x",
				    sgn, name, id, k, rd[k], w[k]);
			r->patterned++;
		}
		free(w);
		free(rd);
	}
}

/* the var of subgraph @s named @name, or NULL */
static const struct kbin_mem_ref *find_var(const struct kbin_view *v,
					   uint32_t s, const char *name)
{
	const struct kbin_mem_ref_set *set = kbin_view_set(v, s);

	for (uint32_t i = 0; i < set->nmem; i++)
		if (!strcmp(kbin_view_str(v, set->mem[i].name), name))
			return &set->mem[i];
	return NULL;
}

/* the subgraph's DMA queues: relocated as planned, run, x staged */
static void check_dma(struct run *r, const struct kbin_view *v, uint32_t s,
		      unsigned int *queues_run)
{
	struct neuronsim_dma_queue_info qi[8];
	const char *sgn = kbin_view_subgraph(v, s)->name;
	struct neuronsim_dma_info di = {
		.model_id = r->id, .subgraph = s, .num_queues = 8,
		.queues = (uintptr_t)qi,
	};
	const struct kbin_mem_ref *x, *xs;
	struct kbin_dma_sg_view dv;
	uint8_t *a = NULL, *b = NULL;
	uint32_t q;
	int ret;

	if (kbin_view_dma_sg(v, s, &dv)) {
		bad(r, "%s: the plan's DMA section does not read", sgn);
		return;
	}
	if (ioctl(r->fd, NEURONSIM_IOC_DMA_INFO, &di)) {
		bad(r, "%s: DMA_INFO: %s", sgn, strerror(errno));
		return;
	}
	if (di.num_queues != dv.num_queues || di.num_queues > 8) {
		bad(r, "%s: DMA_INFO has %u queues, the plan %u", sgn,
		    di.num_queues, dv.num_queues);
		return;
	}
	for (q = 0; q < dv.num_queues; q++) {
		const struct kbin_dma_queue *kq = &dv.queues[q];
		struct neuronsim_run_result res = { 0 };
		struct neuronsim_run run = {
			.model_id = r->id, .subgraph = s, .num_queues = 1,
			.queues = (uintptr_t)&q,
		};
		struct neuronsim_wait w = {
			.model_id = r->id, .subgraph = s, .num_queues = 1,
			.queues = (uintptr_t)&q, .results = (uintptr_t)&res,
			.timeout_ns = 60LL * 1000000000LL,
		};
		uint32_t descs = 0;

		for (uint32_t k = 0; k < kq->num_blocks; k++)
			descs += dv.blocks[kq->first_block - dv.first_block + k].num_descs;
		/*
		 * UDMA pieces on both rings when it has blocks (a strided
		 * side splits into more pieces than a contiguous one); a
		 * queue whose blocks the lowering made compute has none
		 */
		if (strcmp(qi[q].name, kbin_view_str(v, kq->name)) ||
		    qi[q].num_blocks != kq->num_blocks || qi[q].num_descs != descs ||
		    !qi[q].m2s_descs != !descs || !qi[q].s2m_descs != !descs)
			bad(r, "%s queue %u '%s': DMA_INFO '%s' %u blocks %u descriptors %u/%u UDMA; the plan %u blocks %u descriptors",
			    sgn, q, kbin_view_str(v, kq->name), qi[q].name,
			    qi[q].num_blocks, qi[q].num_descs, qi[q].m2s_descs,
			    qi[q].s2m_descs, kq->num_blocks, descs);
		ret = ioctl(r->fd, NEURONSIM_IOC_RUN, &run) ? -errno : 0;
		if (!ret)
			ret = ioctl(r->fd, NEURONSIM_IOC_WAIT, &w) ? -errno : 0;
		if (ret || res.state != NEURONSIM_RUN_DONE || res.status ||
		    res.blocks != kq->num_blocks || res.descs != descs)
			bad(r, "%s queue %u '%s': RUN/WAIT %s, state %u status %d, %u of %u blocks, %u of %u descriptors",
			    sgn, q, qi[q].name, ret ? strerror(-ret) : "ok",
			    res.state, res.status, res.blocks, kq->num_blocks,
			    res.descs, descs);
		else
			(*queues_run)++;
	}
	x = find_var(v, s, "x");
	xs = find_var(v, s, "x_staged");
	if (!x || !xs)
		return;
	a = malloc(x->size);
	b = malloc(x->size);
	ret = a && b ? 0 : -ENOMEM;
	if (!ret && xs->size != x->size)
		ret = -EINVAL;
	if (!ret)
		ret = nsim_read_var(r->fd, r->id, s, x->var_id, 0, a, x->size);
	if (!ret)
		ret = nsim_read_var(r->fd, r->id, s, xs->var_id, 0, b, x->size);
	if (ret)
		bad(r, "%s: x (%llu bytes) and x_staged (%llu bytes): %s", sgn,
		    (unsigned long long)x->size, (unsigned long long)xs->size,
		    strerror(-ret));
	else if (memcmp(a, b, x->size))
		bad(r, "%s: x_staged is not x after its DMA queues ran through SBUF", sgn);
	else
		r->staged++;
	free(a);
	free(b);
}

/* ---- compute: the device against the host reference ------------------ */

/* the device addresses of every var of the model, as RESOLVE gives them */
struct vaddr {
	const struct kbin_view *v;
	uint64_t *pa[8];
};

static int ref_addr(void *ctx, uint32_t sg, uint32_t var_id, uint64_t *pa)
{
	const struct vaddr *va = ctx;

	if (sg >= 8 || !va->pa[sg] || var_id >= kbin_view_set(va->v, sg)->nmem)
		return -ENOENT;
	*pa = va->pa[sg][var_id];
	return 0;
}

/*
 * A plan whose program is neuronsim's compute encoding: seeded float32
 * inputs into every MR_INPUT var of the device and of a host image at
 * the same addresses, EXECUTE on the device and the host reference
 * (prog_ref_run(): the same executor, the replay's order) on the image;
 * every MR_OUTPUT var must read back the same bytes from both
 * (Documentation/compute.rst).
 */
static void check_compute(struct run *r, const struct kbin_view *v)
{
	static const float scalar_in[] = { -0.75f, 1.25f, -0.5f, 2.5f };
	struct neuronsim_exec_result *res = NULL;
	struct prog_ref_stats st = { 0 };
	struct dma_ref_mem *img = NULL;
	struct vaddr va = { .v = v };
	uint64_t seed = 0x5eed0000ULL + strlen(r->model);
	uint8_t *dev = NULL, *ref = NULL;
	int ret;

	if (!v->prog || !(v->prog->flags & KBIN_PROG_F_COMPUTE))
		return;
	img = dma_ref_mem_new();
	if (!img || v->num_subgraphs > 8) {
		bad(r, "host image: %s", img ? "more than 8 subgraphs" : "out of memory");
		goto out;
	}
	for (uint32_t s = 0; s < v->num_subgraphs; s++) {
		const struct kbin_mem_ref_set *set = kbin_view_set(v, s);

		va.pa[s] = calloc(set->nmem + 1, sizeof(uint64_t));
		if (!va.pa[s]) {
			bad(r, "out of memory");
			goto out;
		}
		for (uint32_t i = 0; i < set->nmem; i++) {
			const struct kbin_mem_ref *m = &set->mem[i];
			uint64_t size = m->size;
			float *x;

			ret = nsim_resolve(r->fd, r->id, s, m->var_id, 0, 1,
					   &va.pa[s][i]);
			if (ret && m->mr_type != KBIN_MR_LIST)
				bad(r, "sg %u var #%u: RESOLVE: %s", s,
				    m->var_id, strerror(-ret));
			if (!size || size > MAX_PATTERN || size % 4 ||
			    (m->mr_type != KBIN_MR_INPUT &&
			     m->mr_type != KBIN_MR_OUTPUT))
				continue;
			x = calloc(1, size);
			if (!x) {
				bad(r, "out of memory");
				goto out;
			}
			/* outputs are zeros, which the image has too */
			for (uint64_t k = 0; m->mr_type == KBIN_MR_INPUT &&
			     k < size / 4; k++)
				x[k] = (float)((int64_t)(tl_rng(&seed) % 4001) - 2000) / 1000.0f;
			/*
			 * a one-element input may be a branch's register or a
			 * gather's index: a value whose truncation is a row
			 * 0..2 of any table, of either sign
			 */
			if (m->mr_type == KBIN_MR_INPUT && size == 4)
				x[0] = scalar_in[tl_rng(&seed) % 4];
			ret = nsim_write_var(r->fd, r->id, s, m->var_id, 0, x, size);
			if (ret || dma_ref_mem_write(img, va.pa[s][i], x, size))
				bad(r, "sg %u var #%u: WRITE_VAR %llu bytes: %s",
				    s, m->var_id, (unsigned long long)size,
				    strerror(-ret));
			free(x);
		}
	}
	{
		NEURONSIM_OPTS_INIT(exec_opts, o, .wait_ns = 120ULL * 1000000000ULL);

		ret = neuronsim_exec(r->fd, r->id, &o, &res);
	}
	if (ret || res->summary.status) {
		bad(r, "EXECUTE: %s, status %d", strerror(-ret),
		    res ? res->summary.status : 0);
		goto out;
	}
	ret = prog_ref_run(v, img, ref_addr, &va, &st);
	if (ret || !st.finished) {
		bad(r, "host reference: %s, finished %d (sg %u engine %u index %u)",
		    strerror(-ret), st.finished, st.fail_sg, st.fail_engine,
		    st.fail_index);
		goto out;
	}
	r->computed = (unsigned int)st.compute;
	for (uint32_t s = 0; s < v->num_subgraphs; s++) {
		const struct kbin_mem_ref_set *set = kbin_view_set(v, s);

		for (uint32_t i = 0; i < set->nmem; i++) {
			const struct kbin_mem_ref *m = &set->mem[i];
			uint64_t size = m->size, k;

			if (m->mr_type != KBIN_MR_OUTPUT || !size || size > MAX_PATTERN)
				continue;
			dev = malloc(size);
			ref = malloc(size);
			if (!dev || !ref) {
				bad(r, "out of memory");
				goto out;
			}
			ret = nsim_read_var(r->fd, r->id, s, m->var_id, 0, dev, size);
			dma_ref_mem_read(img, va.pa[s][i], ref, size);
			for (k = 0; !ret && k < size && dev[k] == ref[k]; k++)
				;
			if (ret)
				bad(r, "sg %u var #%u (output): READ_VAR: %s", s,
				    m->var_id, strerror(-ret));
			else if (k < size)
				bad(r, "sg %u var '%s' (#%u, output): byte %llu is 0x%02x on the device, 0x%02x in the host reference",
				    s, kbin_view_str(v, m->name), m->var_id,
				    (unsigned long long)k, dev[k], ref[k]);
			else
				r->outputs++;
			free(dev);
			free(ref);
			dev = ref = NULL;
		}
	}
	if (!r->outputs)
		bad(r, "a compute plan without an output var");
out:
	free(dev);
	free(ref);
	neuronsim_exec_result_free(res);
	for (uint32_t s = 0; s < 8; s++)
		free(va.pa[s]);
	dma_ref_mem_free(img);
}

static void test_model(int fd, const struct neuronsim_info *info,
		       const char *dir, const char *model)
{
	struct run r = { .model = model, .info = info, .fd = fd };
	struct neuronsim_model_info mi = { 0 };
	struct neuronsim_load ld = { 0 };
	struct stats before, during, after;
	struct kbin_check_result res;
	struct kbin_view v = { 0 };
	uint64_t nvars = 0;
	unsigned int nsb = 0, queues_run = 0;
	char path[512], log[1024] = "";
	void *buf = NULL;
	size_t len = 0;
	int ret;

	snprintf(path, sizeof(path), "%s/%s.kbin", dir, model);
	if (read_stats(&before)) {
		bad(&r, "cannot read %s/stats", nsim_dbgfs());
		goto out;
	}
	ret = nsim_read_file(path, &buf, &len);
	if (ret) {
		bad(&r, "plan %s: %s", path, strerror(-ret));
		goto out;
	}
	if (kbin_read(buf, len, &v, &res)) {
		bad(&r, "plan %s: the plan checker refuses it: %s", path, res.err.msg);
		goto out;
	}
	if (v.hdr->target_gen != info->arch_gen) {
		bad(&r, "plan %s: target_gen %u, the device is gen %u (%s)",
		    path, v.hdr->target_gen, info->arch_gen, info->arch_name);
		goto out;
	}
	for (uint32_t s = 0; s < v.num_subgraphs; s++) {
		const struct kbin_mem_ref_set *set = kbin_view_set(&v, s);

		nvars += set->nmem;
		for (uint32_t i = 0; i < set->nmem; i++)
			nsb += set->mem[i].mr_type == KBIN_MR_SB;
		check_carveout(&r, &v, s);
	}
	if (!nsb)
		bad(&r, "plan %s: no MR_SB var (the state-buffer var 0)", path);

	ld.plan_ptr = (uintptr_t)buf;
	ld.plan_len = len;
	ld.log_buf = (uintptr_t)log;
	ld.log_size = sizeof(log);
	if (ioctl(fd, NEURONSIM_IOC_LOAD, &ld)) {
		ret = -errno;
		bad(&r, "LOAD of %s: %s (reason %u, sg %d, record %d): %s",
		    path, strerror(-ret), ld.err_reason, ld.err_subgraph,
		    ld.err_record, log);
		goto check_after;
	}
	r.id = ld.model_id;
	mi.model_id = r.id;
	if (ioctl(fd, NEURONSIM_IOC_MODEL_INFO, &mi))
		bad(&r, "MODEL_INFO of model %u: %s", r.id, strerror(errno));
	else if (mi.num_subgraphs != v.num_subgraphs || mi.num_vars != nvars ||
		 mi.target_gen != v.hdr->target_gen)
		bad(&r, "MODEL_INFO says gen %u, %u subgraphs, %llu vars; the plan %u, %u, %" PRIu64,
		    mi.target_gen, mi.num_subgraphs,
		    (unsigned long long)mi.num_vars, v.hdr->target_gen,
		    v.num_subgraphs, nvars);
	if (read_stats(&during))
		bad(&r, "cannot read %s/stats while loaded", nsim_dbgfs());
	else if (during.hbm_used - before.hbm_used != (long long)mi.hbm_bytes ||
		 during.models != before.models + 1)
		bad(&r, "debugfs stats: hbm_used %lld -> %lld, models %lld -> %lld; MODEL_INFO hbm_bytes %llu",
		    before.hbm_used, during.hbm_used, before.models, during.models,
		    (unsigned long long)mi.hbm_bytes);

	/*
	 * first, on the memory LOAD left (HBM vars and the core's SBUF and
	 * PSUM all zero, as the host image is): a random module may read
	 * an SB or DRAM temporary before it writes it
	 */
	check_compute(&r, &v);
	for (uint32_t s = 0; s < v.num_subgraphs; s++) {
		const struct kbin_mem_ref_set *set = kbin_view_set(&v, s);

		for (uint32_t i = 0; i < set->nmem; i++)
			check_record(&r, &v, s, mi.first_core + s, &set->mem[i]);
		check_dma(&r, &v, s, &queues_run);
	}

	{
		struct neuronsim_unload u = { .model_id = r.id };

		ret = ioctl(fd, NEURONSIM_IOC_UNLOAD, &u) ? -errno : 0;
		if (ret)
			bad(&r, "UNLOAD of model %u: %s", r.id, strerror(-ret));
	}
check_after:
	if (read_stats(&after)) {
		bad(&r, "cannot read %s/stats after the run", nsim_dbgfs());
	} else {
#define SAME(f) do { if (after.f != before.f) \
		bad(&r, "debugfs stats " #f " is %lld after UNLOAD, %lld before the load", \
		    after.f, before.f); } while (0)
		SAME(models);
		SAME(mem_refs);
		SAME(kmem_bytes);
		SAME(backing_bytes);
		SAME(hbm_used);
#undef SAME
	}
out:
	if (r.fails > PLAN_FAIL_LINES)
		printf("# %s: %u more failures\n", model, r.fails - PLAN_FAIL_LINES);
	ksft_test_result(!r.fails,
			 "bir %s: gen=%u subgraphs=%u vars=%" PRIu64 " sb=%u weights=%u written+read=%u hbm=%llu B dma queues run=%u staged=%u computed=%u outputs equal=%u\n",
			 model, v.hdr ? v.hdr->target_gen : 0,
			 v.hdr ? v.num_subgraphs : 0, nvars, nsb, r.weights,
			 r.patterned, (unsigned long long)mi.hbm_bytes,
			 queues_run, r.staged, r.computed, r.outputs);
	fflush(stdout);
	free(buf);
}

/* LOAD @buf and EXECUTE it (@flags), then UNLOAD: the first subgraph's status */
static int race_exec(int fd, void *buf, size_t len, __u32 flags, int *status)
{
	struct neuronsim_load ld = { .plan_ptr = (uintptr_t)buf, .plan_len = len };
	struct neuronsim_exec_result *res = NULL;
	struct neuronsim_unload u = { 0 };
	int ret;

	if (ioctl(fd, NEURONSIM_IOC_LOAD, &ld))
		return -errno;
	{
		NEURONSIM_OPTS_INIT(exec_opts, o, .wait_ns = 120ULL * 1000000000ULL,
				    .flags = flags);

		ret = neuronsim_exec(fd, ld.model_id, &o, &res);
	}
	/* neuronsim_exec() returns the status of an execution that ended */
	if (res) {
		*status = res->num_sg ? res->sg[0].status : -ENODATA;
		if (ret == res->summary.status)
			ret = 0;
	}
	neuronsim_exec_result_free(res);
	u.model_id = ld.model_id;
	if (ioctl(fd, NEURONSIM_IOC_UNLOAD, &u) && !ret)
		ret = -errno;
	return ret;
}

/*
 * NEURONSIM_EXEC_F_RACE (Documentation/races.rst): bir_mlp as lowered
 * executes clean with the check; with the wait of PE's first instruction
 * removed from its plan (record and sync entry, the checksum made
 * again) it still finishes, and the check stops it with -EILSEQ.
 */
static void test_race(int fd, const char *dir)
{
	struct kbin_check_result res;
	struct kbin_prog_sg_view pv;
	struct kbin_view v;
	int clean = 1, plain = 1, raced = 1, ret;
	char path[512];
	void *buf = NULL;
	size_t len = 0;
	uint8_t *rec;
	struct kbin_prog_sync *sy;

	snprintf(path, sizeof(path), "%s/bir_mlp.kbin", dir);
	ret = nsim_read_file(path, &buf, &len);
	if (!ret)
		ret = race_exec(fd, buf, len, NEURONSIM_EXEC_F_RACE, &clean);
	if (!ret && (kbin_read(buf, len, &v, &res) || kbin_view_prog_sg(&v, 0, &pv) ||
		     !pv.num[0] || pv.sync[0][0].wait_mode != KBIN_PROG_WAIT_GE))
		ret = -EINVAL;
	if (!ret) {
		rec = (uint8_t *)pv.records[0];
		sy = (struct kbin_prog_sync *)pv.sync[0];
		memset(rec + 4, 0, 2);
		memset(rec + 8, 0, 4);
		sy->wait_mode = 0;
		sy->wait_sem = 0;
		sy->wait_value = 0;
		((struct kbin_header *)buf)->checksum = kbin_crc32((uint8_t *)buf + 16,
								   len - 16);
		ret = race_exec(fd, buf, len, 0, &plain);
	}
	if (!ret)
		ret = race_exec(fd, buf, len, NEURONSIM_EXEC_F_RACE, &raced);
	ksft_test_result(!ret && !clean && !plain && raced == -EILSEQ,
			 "bir race check: bir_mlp clean (status %d); without PE's first wait it finishes (%d), and is caught (%d, want %d): %s\n",
			 clean, plain, raced, -EILSEQ, strerror(-ret));
	free(buf);
}

int main(int argc, char **argv)
{
	const char *dir = nsim_data_dir(argc > 1 ? argv[1] : NULL, "bir");
	struct neuronsim_info info = { 0 };
	char path[512], line[256], (*models)[256] = NULL;
	size_t n = 0, cap = 0;
	FILE *fp;
	int fd;

	ksft_print_header();
	snprintf(path, sizeof(path), "%s/models.txt", dir);
	fp = fopen(path, "r");
	while (fp && fgets(line, sizeof(line), fp)) {
		line[strcspn(line, "\r\n")] = 0;
		if (!line[0])
			continue;
		if (n == cap) {
			void *nm = realloc(models, (cap = cap ? 2 * cap : 16) *
					   sizeof(*models));

			if (!nm)
				break;
			models = nm;
		}
		snprintf(models[n++], sizeof(models[0]), "%s", line);
	}
	if (fp)
		fclose(fp);
	fd = open("/dev/" NEURONSIM_DEVICE_NAME, O_RDWR | O_CLOEXEC);
	if (fd < 0 || ioctl(fd, NEURONSIM_IOC_GET_INFO, &info)) {
		ksft_set_plan(1);
		ksft_test_result_fail("bir: /dev/" NEURONSIM_DEVICE_NAME ": %s\n",
				      strerror(errno));
		return ksft_exit_fail();
	}
	if (!n) {
		/* the host step always writes the list: no list is a failure */
		ksft_set_plan(1);
		ksft_test_result_fail("bir: %s is missing or empty: the host step of selftests/mk/bir.mk did not run\n",
				      path);
		return ksft_exit_fail();
	}
	ksft_print_msg("%zu bundled BIR models in %s, device %s (gen %u)\n", n,
		       path, info.arch_name, info.arch_gen);
	ksft_set_plan(n + 1);
	for (size_t k = 0; k < n; k++)
		test_model(fd, &info, dir, models[k]);
	test_race(fd, dir);
	close(fd);
	free(models);
	return ksft_get_fail_cnt() ? ksft_exit_fail() : ksft_exit_pass();
}
