// SPDX-License-Identifier: GPL-2.0
/*
 * plan_memory.c - will it fit: the HBM a plan's LOAD charges each
 * NeuronCore per device-memory category, and whether an empty device of
 * a generation takes it (nscc_plan_memory(); Documentation/compiler.rst,
 * "Will it fit").
 *
 * The figures are not a model of the kernel: kbin_mem_walk() is the
 * kernel's own shared code (kmod/plan/kbin_memory.h), which hands out
 * every allocation staging and relocation make with the size, alignment
 * and usage category the module asks its allocator for; each is charged
 * kbin_hbm_round() of its size to first core + its subgraph.  The fit
 * places the same allocations, in the same order, on each HBM channel of
 * an empty device as lib/genalloc's gen_pool_first_fit_align() does (the
 * module's allocator, kmod/hbm.c): first fit at the alignment, in 4 KiB
 * granules.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/neuronsim.h>

#include "kbin_check.h"
#include "kbin_dma.h"
#include "kbin_gen.h"
#include "kbin_kind.h"
#include "kbin_memory.h"
#include "kbin_names.h"
#include "neuronsim_cc.h"

_Static_assert(NSCC_MEM_CATEGORIES == KBIN_MEMCAT_MAX,
	       "one entry per device-memory category");
_Static_assert(NSCC_MEM_CHANNELS == NEURONSIM_MAX_HBM_CHANNELS,
	       "one entry per HBM channel");

/* a free range [start, end) of a channel, bytes from its base */
struct pm_hole {
	uint64_t start, end;
};

/*
 * One HBM channel of an empty device as first fit fills it: everything
 * from @top up is free, and below it the free ranges alignment left.
 */
struct pm_channel {
	uint64_t size;
	uint64_t top;
	struct pm_hole *holes;	/* in address order */
	size_t n, cap;
	int failed;		/* an allocation found no room: LOAD stops */
	struct kbin_mem_item fail;	/* that allocation */
};

struct pm_ctx {
	const uint8_t *plan;
	const struct kbin_gen *g;
	struct nscc_memory *out;
	struct pm_channel ch[NSCC_MEM_CHANNELS];
};

static const char *const pm_why_names[] = {
	[NSCC_FIT_TARGET] = "target",
	[NSCC_FIT_CORES] = "cores",
	[NSCC_FIT_VARS] = "vars",
	[NSCC_FIT_SBUF] = "sbuf",
	[NSCC_FIT_PSUM] = "psum",
	[NSCC_FIT_SCRATCHPAD_PAGES] = "scratchpad_pages",
	[NSCC_FIT_SCRATCHPAD_PAGE] = "scratchpad_page",
	[NSCC_FIT_HBM] = "hbm",
	[NSCC_FIT_UDMA_DESCS] = "udma_descs",
	[NSCC_FIT_RUN_BYTES] = "run_bytes",
};

const char *nscc_fit_why_name(unsigned int why)
{
	if (why >= sizeof(pm_why_names) / sizeof(pm_why_names[0]) ||
	    !pm_why_names[why])
		return "unknown";
	return pm_why_names[why];
}

const char *nscc_memory_category_name(unsigned int category)
{
	return category < NSCC_MEM_CATEGORIES ?
	       kbin_mem_category_str(category) : "unknown";
}

static uint64_t pm_add(uint64_t a, uint64_t b)
{
	uint64_t s;

	return __builtin_add_overflow(a, b, &s) ? UINT64_MAX : s;
}

static __attribute__((format(printf, 10, 11)))
void pm_problem(struct nscc_memory *out, uint32_t why, int err, int32_t sg,
		int32_t core, int32_t channel, int32_t category,
		uint64_t need, uint64_t limit, const char *fmt, ...)
{
	struct nscc_fit_problem *p;
	va_list ap;

	out->fits = 0;
	if (out->num_problems++ >= NSCC_FIT_PROBLEMS_MAX)
		return;
	p = &out->problems[out->num_problems - 1];
	p->why = why;
	p->err = err;
	p->subgraph = sg;
	p->core = core;
	p->channel = channel;
	p->category = category;
	p->need = need;
	p->limit = limit;
	va_start(ap, fmt);
	vsnprintf(p->msg, sizeof(p->msg), fmt, ap);
	va_end(ap);
}

static const struct kbin_subgraph *pm_sg(const uint8_t *plan, uint32_t s)
{
	const struct kbin_header *h = (const void *)plan;

	return (const struct kbin_subgraph *)(plan + h->subgraph_table_off) + s;
}

static const struct kbin_mem_ref_set *pm_set(const uint8_t *plan, uint32_t s)
{
	return (const void *)(plan + pm_sg(plan, s)->set_off);
}

/* the name of queue @qi of subgraph @s (the plan has a DMA section) */
static const char *pm_queue_name(const uint8_t *plan, uint32_t s, uint32_t qi)
{
	const struct kbin_header *h = (const void *)plan;
	const struct kbin_header_ext *ext = (const void *)(h + 1);
	const struct kbin_dma_section *sec = (const void *)(plan + ext->dma_off);
	const struct kbin_dma_queue *q;
	struct kbin_dma_layout l;

	kbin_dma_layout(h->num_subgraphs, sec->num_queues, sec->num_blocks,
			sec->num_descs, &l);
	q = (const void *)((const uint8_t *)sec + l.queues);
	return (const char *)plan + q[sec->sg[s].first_queue + qi].name;
}

/* what allocation @it is, in words */
static void pm_item_str(const struct pm_ctx *c, const struct kbin_mem_item *it,
			char *buf, size_t size)
{
	const char *sg = pm_sg(c->plan, it->subgraph)->name;
	const struct kbin_mem_ref *r;

	switch (it->what) {
	case KBIN_MEM_ARENA:
		snprintf(buf, size, "%s scratchpad page %llu",
			 kbin_backing_buf_str(it->index),
			 (unsigned long long)it->sub);
		break;
	case KBIN_MEM_LOCAL:
		snprintf(buf, size, "%s local scratchpad page %llu", sg,
			 (unsigned long long)it->sub);
		break;
	case KBIN_MEM_VAR:
		r = &pm_set(c->plan, it->subgraph)->mem[it->index];
		snprintf(buf, size, "%s var '%s' (%s)", sg,
			 (const char *)c->plan + r->name,
			 kbin_mr_type_str(r->mr_type));
		break;
	default:
		snprintf(buf, size, "%s DMA queue '%s' %s ring %llu", sg,
			 pm_queue_name(c->plan, it->subgraph, it->index),
			 kbin_dma_side_str(it->dir), (unsigned long long)it->sub);
	}
}

/* room for one more hole; 0 or -ENOMEM */
static int pm_grow(struct pm_channel *ch)
{
	struct pm_hole *h;
	size_t cap;

	if (ch->n < ch->cap)
		return 0;
	cap = ch->cap ? 2 * ch->cap : 64;
	h = realloc(ch->holes, cap * sizeof(*h));
	if (!h)
		return -ENOMEM;
	ch->holes = h;
	ch->cap = cap;
	return 0;
}

/*
 * Place @bytes (a multiple of the granule) at @align (a power of two, at
 * least the granule) as first fit does: the lowest aligned start of a
 * free range that holds them.  Return: 1 placed, 0 no room, -ENOMEM.
 */
static int pm_place(struct pm_channel *ch, uint64_t bytes, uint64_t align)
{
	uint64_t start, end;
	size_t i;

	for (i = 0; i < ch->n; i++) {
		struct pm_hole *h = &ch->holes[i];

		start = (h->start + align - 1) & ~(align - 1);
		if (start >= h->end || h->end - start < bytes)
			continue;
		end = start + bytes;
		if (start == h->start && end == h->end) {
			memmove(h, h + 1, (ch->n - i - 1) * sizeof(*h));
			ch->n--;
		} else if (start == h->start) {
			h->start = end;
		} else if (end == h->end) {
			h->end = start;
		} else {
			if (pm_grow(ch))
				return -ENOMEM;
			h = &ch->holes[i];
			memmove(h + 2, h + 1, (ch->n - i - 1) * sizeof(*h));
			h[1].start = end;
			h[1].end = h->end;
			h->end = start;
			ch->n++;
		}
		return 1;
	}
	/* top <= size (tens of GiB) and align <= 1 GiB: no overflow */
	start = (ch->top + align - 1) & ~(align - 1);
	if (start > ch->size || bytes > ch->size - start)
		return 0;
	if (start > ch->top) {
		if (pm_grow(ch))
			return -ENOMEM;
		ch->holes[ch->n].start = ch->top;
		ch->holes[ch->n++].end = start;
	}
	ch->top = start + bytes;
	return 1;
}

/* kbin_mem_walk()'s callback: charge the item, place it on its channel */
static int pm_item(void *vctx, const struct kbin_mem_item *it)
{
	struct pm_ctx *c = vctx;
	struct nscc_memory *out = c->out;
	struct nscc_memory_core *mc = &out->core[it->subgraph];
	uint32_t cat = kbin_usage_category(it->a.usage);
	uint64_t n = kbin_hbm_round(it->a.bytes);
	struct pm_channel *ch;
	int ret;

	mc->bytes[cat] = pm_add(mc->bytes[cat], n);
	mc->total = pm_add(mc->total, n);
	mc->allocations++;
	out->bytes[cat] = pm_add(out->bytes[cat], n);
	out->total = pm_add(out->total, n);
	out->allocations++;
	if (it->what == KBIN_MEM_RING && !it->sub) {
		out->udma_descs = pm_add(out->udma_descs, it->side_descs);
		if (it->side_bytes > KBIN_MAX_RUN_BYTES_DEFAULT)
			pm_problem(out, NSCC_FIT_RUN_BYTES, -E2BIG, it->subgraph,
				   mc->core, -1, -1, it->side_bytes,
				   KBIN_MAX_RUN_BYTES_DEFAULT,
				   "%s DMA queue '%s' %s: one run moves %llu bytes, above max_run_bytes %llu",
				   pm_sg(c->plan, it->subgraph)->name,
				   pm_queue_name(c->plan, it->subgraph, it->index),
				   kbin_dma_side_str(it->dir),
				   (unsigned long long)it->side_bytes,
				   KBIN_MAX_RUN_BYTES_DEFAULT);
	}
	if (mc->hbm_channel < 0)
		return 0;
	out->channel_bytes[mc->hbm_channel] =
		pm_add(out->channel_bytes[mc->hbm_channel], n);
	ch = &c->ch[mc->hbm_channel];
	if (ch->failed)
		return 0;
	ret = n > ch->size ? 0 : pm_place(ch, n, kbin_hbm_align(it->a.align));
	if (ret < 0)
		return ret;
	if (!ret) {
		ch->failed = 1;
		ch->fail = *it;
	}
	return 0;
}

/* the problems of the records and scratchpads, before any HBM is placed */
static void pm_records(struct pm_ctx *c)
{
	const struct kbin_header *h = (const void *)c->plan;
	struct nscc_memory *out = c->out;
	const uint64_t page = KBIN_SCRATCHPAD_PAGE_SIZE_DEFAULT;
	__u64 arena[KBIN_BACKING_BUF_MAX + 1];
	uint64_t pages;
	uint32_t s, i, b;

	kbin_mem_load_arenas(c->plan, arena);
	arena[KBIN_BACKING_BUF_LOCAL] = 0;
	for (s = 0; s <= h->num_subgraphs; s++) {
		const struct kbin_mem_ref_set *set = s ? pm_set(c->plan, s - 1) : NULL;

		/* the load's arenas first, then each subgraph's own */
		for (b = 0; b <= KBIN_BACKING_BUF_MAX; b++) {
			uint64_t size = set ? (b == KBIN_BACKING_BUF_LOCAL ?
					       set->local_scratchpad_size : 0) :
					arena[b];

			pages = kbin_sp_pages(size, page);
			if (pages > KBIN_SCRATCHPAD_MAX_PAGES_DEFAULT)
				pm_problem(out, NSCC_FIT_SCRATCHPAD_PAGES, -E2BIG,
					   set ? (int32_t)s - 1 : -1,
					   (int32_t)out->core[set ? s - 1 : 0].core,
					   -1, -1, pages,
					   KBIN_SCRATCHPAD_MAX_PAGES_DEFAULT,
					   "%s%s%s scratchpad of %llu bytes needs %llu pages of %llu bytes, above scratchpad_max_pages %u",
					   set ? pm_sg(c->plan, s - 1)->name : "",
					   set ? " " : "",
					   kbin_backing_buf_str(b),
					   (unsigned long long)size,
					   (unsigned long long)pages,
					   (unsigned long long)page,
					   KBIN_SCRATCHPAD_MAX_PAGES_DEFAULT);
		}
		if (!set)
			continue;
		for (i = 0; i < set->nmem; i++) {
			const struct kbin_mem_ref *r = &set->mem[i];
			const char *name = (const char *)c->plan + r->name;
			struct nscc_memory_core *mc = &out->core[s - 1];
			uint8_t st = kbin_kind(r->mr_type)->storage;

			if (st == KBIN_STORAGE_SBUF && r->size > mc->sbuf_bytes)
				mc->sbuf_bytes = r->size;
			if (st == KBIN_STORAGE_SBUF && r->size > c->g->sbuf_window_size)
				pm_problem(out, NSCC_FIT_SBUF, -EINVAL, s - 1,
					   mc->core, -1, -1, r->size,
					   c->g->sbuf_window_size,
					   "%s var '%s' (MR_SB): %llu bytes, larger than NeuronCore %u's %llu-byte SBUF window",
					   pm_sg(c->plan, s - 1)->name, name,
					   (unsigned long long)r->size, mc->core,
					   (unsigned long long)c->g->sbuf_window_size);
			if (st == KBIN_STORAGE_PSUM && r->size > c->g->psum_size)
				pm_problem(out, NSCC_FIT_PSUM, -EINVAL, s - 1,
					   mc->core, -1, -1, r->size,
					   c->g->psum_size,
					   "%s var '%s' (MR_PSUM): %llu bytes, larger than NeuronCore %u's %llu-byte PSUM window",
					   pm_sg(c->plan, s - 1)->name, name,
					   (unsigned long long)r->size, mc->core,
					   (unsigned long long)c->g->psum_size);
			if (st == KBIN_STORAGE_SCRATCHPAD &&
			    r->virt.offset % page + r->size > page)
				pm_problem(out, NSCC_FIT_SCRATCHPAD_PAGE, -EINVAL,
					   s - 1, mc->core, -1, -1,
					   r->virt.offset % page + r->size, page,
					   "%s var '%s': offset %llu + size %llu straddles a %llu-byte scratchpad page",
					   pm_sg(c->plan, s - 1)->name, name,
					   (unsigned long long)r->virt.offset,
					   (unsigned long long)r->size,
					   (unsigned long long)page);
		}
	}
}

/* the channels that ran out: one problem each, at the allocation LOAD stops at */
static void pm_hbm_problems(struct pm_ctx *c)
{
	struct nscc_memory *out = c->out;
	char what[200];
	uint32_t h;

	for (h = 0; h < c->g->num_hbm_channels; h++) {
		const struct pm_channel *ch = &c->ch[h];
		const struct kbin_mem_item *it = &ch->fail;
		uint32_t core = out->core[it->subgraph].core;
		uint32_t cat = kbin_usage_category(it->a.usage);

		if (!ch->failed)
			continue;
		pm_item_str(c, it, what, sizeof(what));
		pm_problem(out, NSCC_FIT_HBM, -ENOSPC, it->what == KBIN_MEM_ARENA ?
			   -1 : (int32_t)it->subgraph, core, h, cat,
			   out->channel_bytes[h], ch->size,
			   "NeuronCore %u: %s: %llu bytes of %s at alignment %llu find no free range on HBM channel %u: the load needs %llu bytes there, the channel has %llu%s",
			   core, what, (unsigned long long)kbin_hbm_round(it->a.bytes),
			   kbin_mem_category_str(cat),
			   (unsigned long long)kbin_hbm_align(it->a.align), h,
			   (unsigned long long)out->channel_bytes[h],
			   (unsigned long long)ch->size,
			   out->channel_bytes[h] <= ch->size ?
			   " (the alignment of its allocations leaves no range large enough)" : "");
	}
}

int nscc_plan_memory(const void *plan, size_t len, uint32_t target_gen,
		     uint32_t first_core, struct nscc_memory *out)
{
	const struct kbin_mem_params params = {
		.page_size = KBIN_SCRATCHPAD_PAGE_SIZE_DEFAULT,
		.ring_max = kbin_udma_ring_max(UDMA_RING_LOADER_MAX_DESCS),
	};
	const struct kbin_header *h = plan;
	struct kbin_check_result *res;
	struct pm_ctx c = { .plan = plan, .out = out };
	uint32_t s, i;
	int ret;

	memset(out, 0, sizeof(*out));
	res = malloc(sizeof(*res));
	if (!res)
		return -ENOMEM;
	if (kbin_check_plan(plan, len, res) != KBIN_OK) {
		snprintf(out->error, sizeof(out->error), "%s", res->err.msg);
		free(res);
		return -EINVAL;
	}
	free(res);
	c.g = kbin_gen_target(target_gen ? target_gen : h->target_gen);
	if (!c.g) {
		char list[KBIN_GEN_LIST_MAX];

		snprintf(out->error, sizeof(out->error),
			 "generation %u is not one a plan may target (%s)",
			 target_gen,
			 kbin_gen_list(list, sizeof(list), KBIN_GEN_LIST_NUMBERS));
		return -EINVAL;
	}
	out->target_gen = h->target_gen;
	out->arch_gen = c.g->gen;
	out->first_core = first_core;
	out->num_cores = h->num_subgraphs;
	out->device_cores = c.g->num_cores;
	out->num_channels = c.g->num_hbm_channels;
	out->channel_size = c.g->hbm_channel_size;
	out->sbuf_window_size = c.g->sbuf_window_size;
	out->fits = 1;
	for (s = 0; s < h->num_subgraphs; s++) {
		uint64_t core = (uint64_t)first_core + s;

		out->core[s].core = (uint32_t)core;
		out->core[s].subgraph = s;
		out->core[s].hbm_channel = core < c.g->num_cores ?
			(int32_t)kbin_gen_core_channel(c.g, (uint32_t)core) : -1;
	}
	for (i = 0; i < c.g->num_hbm_channels; i++)
		c.ch[i].size = c.g->hbm_channel_size;

	/* in the order LOAD finds them: nrsim_stage(), then nrsim_relocate() */
	if (h->target_gen != c.g->gen) {
		const struct kbin_gen *pg = kbin_gen_by_number(h->target_gen);

		pm_problem(out, NSCC_FIT_TARGET, -EINVAL, -1, -1, -1, -1,
			   h->target_gen, c.g->gen,
			   "the plan is for %s (generation %u): LOAD on a %s device (generation %u) refuses it",
			   pg ? pg->name : "?", h->target_gen, c.g->name,
			   c.g->gen);
	}
	if (first_core >= c.g->num_cores ||
	    h->num_subgraphs > c.g->num_cores - first_core)
		pm_problem(out, NSCC_FIT_CORES, -ENODEV, -1, (int32_t)first_core,
			   -1, -1, (uint64_t)first_core + h->num_subgraphs,
			   c.g->num_cores,
			   "%u subgraph%s from NeuronCore %u need%s NeuronCores %u-%llu; %s has %u (0-%u)",
			   h->num_subgraphs, h->num_subgraphs == 1 ? "" : "s",
			   first_core, h->num_subgraphs == 1 ? "s" : "",
			   first_core,
			   (unsigned long long)first_core + h->num_subgraphs - 1,
			   c.g->name, c.g->num_cores, c.g->num_cores - 1);
	for (s = 0; s < h->num_subgraphs; s++)
		if (pm_set(plan, s)->nmem > KBIN_MAX_VARS_PER_SG_DEFAULT)
			pm_problem(out, NSCC_FIT_VARS, -E2BIG, s, out->core[s].core,
				   -1, -1, pm_set(plan, s)->nmem,
				   KBIN_MAX_VARS_PER_SG_DEFAULT,
				   "%s: %u records, above max_vars_per_subgraph %u",
				   pm_sg(plan, s)->name, pm_set(plan, s)->nmem,
				   KBIN_MAX_VARS_PER_SG_DEFAULT);
	pm_records(&c);
	ret = kbin_mem_walk(plan, &params, pm_item, &c);
	for (i = 0; i < NSCC_MEM_CHANNELS; i++)
		free(c.ch[i].holes);
	if (ret)
		return ret;
	pm_hbm_problems(&c);
	if (out->udma_descs > KBIN_MAX_UDMA_DESCS_DEFAULT)
		pm_problem(out, NSCC_FIT_UDMA_DESCS, -E2BIG, -1, -1, -1, -1,
			   out->udma_descs, KBIN_MAX_UDMA_DESCS_DEFAULT,
			   "the load's DMA queues need %llu UDMA descriptors, above max_udma_descs %u",
			   (unsigned long long)out->udma_descs,
			   KBIN_MAX_UDMA_DESCS_DEFAULT);
	return 0;
}
