// SPDX-License-Identifier: GPL-2.0
/*
 * prog_race.c - the race detector of a KBIN plan (Documentation/
 * races.rst): the order and the footprints of kbin_race.c, and a sweep
 * over the footprints that checks every pair of overlapping spans.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kbin_compute.h"
#include "kbin_dma.h"
#include "kbin_kind.h"
#include "kbin_prog.h"
#include "prog_race.h"
#include "prog_replay.h"

/* one span of a footprint, with its node's place in the order */
struct pr_span {
	struct kbin_race_span s;
	uint32_t chain;
	uint32_t pos;
};

/* a subgraph's spans as they are collected */
struct pr_spans {
	const struct kbin_race_order *o;
	struct pr_span *s;
	size_t n, cap;
};

static int pr_emit(void *ctx, const struct kbin_race_span *s)
{
	struct pr_spans *sp = ctx;

	if (s->hi <= s->lo)
		return 0;
	if (sp->n == sp->cap) {
		size_t cap = sp->cap ? 2 * sp->cap : 1024;
		struct pr_span *t = realloc(sp->s, cap * sizeof(*t));

		if (!t)
			return -ENOMEM;
		sp->s = t;
		sp->cap = cap;
	}
	sp->s[sp->n].s = *s;
	kbin_race_node_at(sp->o, s->access, &sp->s[sp->n].chain, &sp->s[sp->n].pos);
	sp->n++;
	return 0;
}

#define PR_CMP(a, b) do { if ((a) != (b)) return (a) < (b) ? -1 : 1; } while (0)

/* by place, then bytes and partitions, then kind, then order */
static int pr_cmp_span(const void *x, const void *y)
{
	const struct pr_span *a = x, *b = y;

	PR_CMP(a->s.space, b->s.space);
	PR_CMP(a->s.var_id, b->s.var_id);
	PR_CMP(a->s.lo, b->s.lo);
	PR_CMP(a->s.hi, b->s.hi);
	PR_CMP(a->s.mask[0], b->s.mask[0]);
	PR_CMP(a->s.mask[1], b->s.mask[1]);
	PR_CMP(a->s.write, b->s.write);
	PR_CMP(a->chain, b->chain);
	PR_CMP(a->pos, b->pos);
	return 0;
}

/* spans equal but for their node */
static int pr_same(const struct pr_span *a, const struct pr_span *b)
{
	return a->s.space == b->s.space && a->s.var_id == b->s.var_id &&
	       a->s.lo == b->s.lo && a->s.hi == b->s.hi &&
	       a->s.mask[0] == b->s.mask[0] && a->s.mask[1] == b->s.mask[1] &&
	       a->s.write == b->s.write;
}

/* the race space of var @var_id of subgraph @sg's set */
static unsigned int pr_space(const struct kbin_view *v, uint32_t sg,
			     uint32_t var_id)
{
	const struct kbin_mem_ref_set *set = kbin_view_set(v, sg);

	return set && var_id < set->nmem ?
	       kbin_race_space(set->mem[var_id].mr_type) : KBIN_RACE_VAR;
}

/* a set of reported (a, b) node pairs: open addressing */
struct pr_seen {
	uint64_t *k;
	size_t cap, n;
};

/* 1 when (a, b) was new and is now in, 0 when seen, -ENOMEM */
static int pr_seen_add(struct pr_seen *h, uint32_t a, uint32_t b)
{
	uint64_t key = ((uint64_t)a << 32 | b) + 1, x;
	size_t i;

	if (2 * (h->n + 1) > h->cap) {
		size_t cap = h->cap ? 2 * h->cap : 1024, j;
		uint64_t *k = calloc(cap, sizeof(*k));

		if (!k)
			return -ENOMEM;
		for (j = 0; j < h->cap; j++)
			if (h->k[j]) {
				x = h->k[j] * 0x9e3779b97f4a7c15ULL;
				for (i = x >> 20 & (cap - 1); k[i]; i = (i + 1) & (cap - 1))
					;
				k[i] = h->k[j];
			}
		free(h->k);
		h->k = k;
		h->cap = cap;
	}
	x = key * 0x9e3779b97f4a7c15ULL;
	for (i = x >> 20 & (h->cap - 1); h->k[i]; i = (i + 1) & (h->cap - 1))
		if (h->k[i] == key)
			return 0;
	h->k[i] = key;
	h->n++;
	return 1;
}

/* the engine chain that issues node @n: itself, or a block's trigger's */
static int pr_issuer(const struct kbin_race_order *o, uint32_t n,
		     uint32_t *chain, uint32_t *pos)
{
	kbin_race_node_at(o, n, chain, pos);
	if (*chain < KBIN_PROG_ENGINES)
		return 0;
	n = o->trigger[n - o->base[KBIN_PROG_ENGINES]];
	if (n == UINT32_MAX)
		return -1;
	kbin_race_node_at(o, n, chain, pos);
	return 0;
}

/* the nearest semaphore chain from @p->a to @p->b (struct prog_race_pair) */
static void pr_explain(const struct prog_race_sg *s, struct prog_race_pair *p)
{
	const struct kbin_race_order *o = &s->order;
	uint32_t g, best = UINT32_MAX, c, pos, i;

	p->sem = -1;
	p->wait_node = UINT32_MAX;
	for (uint32_t sem = 0; sem < s->prog.semaphores; sem++)
		for (g = o->sem_groups[sem]; g < o->sem_groups[sem + 1]; g++) {
			const struct kbin_race_group *gr = &o->groups[g];

			if (gr->chain != p->a.chain)
				continue;
			for (i = 0; i < gr->num; i++) {
				const struct kbin_race_inc *in = &o->incs[gr->first + i];

				if (in->pos < p->a.pos)
					continue;
				if (in->pos < best) {
					best = in->pos;
					p->sem = (int32_t)sem;
					p->inc_node = in->node;
					p->inc_sum = in->cum;
				}
				break;
			}
		}
	if (p->sem < 0 || pr_issuer(o, p->b.node, &c, &pos))
		return;
	for (i = pos + 1; i-- > 0;) {
		const struct kbin_prog_sync *sy = &s->prog.sync[c][i];

		if (sy->wait_mode == KBIN_PROG_WAIT_GE &&
		    sy->wait_sem == (uint32_t)p->sem) {
			p->wait_node = kbin_race_node(o, c, i);
			p->wait_value = sy->wait_value;
			return;
		}
	}
}

static uint32_t pr_cause(const struct kbin_race_order *o, uint32_t a,
			 uint32_t b)
{
	uint32_t ca, pa, cb, pb, ta, tb;

	kbin_race_node_at(o, a, &ca, &pa);
	kbin_race_node_at(o, b, &cb, &pb);
	if (ca < KBIN_PROG_ENGINES || cb < KBIN_PROG_ENGINES)
		return PROG_RACE_UNORDERED;
	ta = o->trigger[a - o->base[KBIN_PROG_ENGINES]];
	tb = o->trigger[b - o->base[KBIN_PROG_ENGINES]];
	if (ta == UINT32_MAX || tb == UINT32_MAX)
		return PROG_RACE_UNORDERED;
	kbin_race_node_at(o, ta, &ca, &pa);
	kbin_race_node_at(o, tb, &cb, &pb);
	if (ca == cb)
		return PROG_RACE_SAME_ENGINE;
	if (kbin_race_before(o, ta, tb) || kbin_race_before(o, tb, ta))
		return PROG_RACE_TRIGGERS_ORDERED;
	return PROG_RACE_UNORDERED;
}

/*
 * 1 when node @b is issued before node @a, so that the pair reads better
 * as (@b, @a): by the order of their issuers (an instruction issues
 * itself, a block its trigger), else by the issuers' positions on one
 * engine, else (issuers unordered, or a block without a trigger) by node
 * number.
 */
static int pr_issued_first(const struct kbin_race_order *o, uint32_t a,
			   uint32_t b)
{
	uint32_t ca, pa, cb, pb, ia, ib;

	if (pr_issuer(o, a, &ca, &pa) || pr_issuer(o, b, &cb, &pb))
		return b < a;
	ia = kbin_race_node(o, ca, pa);
	ib = kbin_race_node(o, cb, pb);
	if (ia == ib)	/* an instruction and the block it triggers */
		return b == ib;
	if (kbin_race_before(o, ib, ia))
		return 1;
	if (kbin_race_before(o, ia, ib))
		return 0;
	if (ca == cb)
		return pb < pa;
	return b < a;
}

static int pr_add_pair(struct prog_race *r, uint32_t sg,
		       const struct kbin_race_span *x,
		       const struct kbin_race_span *y,
		       const struct kbin_race_span *at)
{
	struct prog_race_sg *s = &r->sg[sg];
	const struct kbin_race_order *o = &s->order;
	struct prog_race_pair *p;

	if (r->npairs == r->cap) {
		uint32_t cap = r->cap ? 2 * r->cap : 64;
		struct prog_race_pair *t = realloc(r->pairs, cap * sizeof(*t));

		if (!t)
			return -ENOMEM;
		r->pairs = t;
		r->cap = cap;
	}
	p = &r->pairs[r->npairs++];
	memset(p, 0, sizeof(*p));
	if (pr_issued_first(o, x->access, y->access)) {
		const struct kbin_race_span *t = x;

		x = y;
		y = t;
	}
	p->sg = sg;
	p->a.node = x->access;
	p->a.write = x->write;
	kbin_race_node_at(o, x->access, &p->a.chain, &p->a.pos);
	p->b.node = y->access;
	p->b.write = y->write;
	kbin_race_node_at(o, y->access, &p->b.chain, &p->b.pos);
	p->at = *at;
	p->cause = pr_cause(o, p->a.node, p->b.node);
	r->by_cause[p->cause]++;
	pr_explain(s, p);
	s->pairs++;
	return 0;
}

/*
 * A group: equal spans of different nodes, sorted by chain and position,
 * @sp[@first .. @first + @n); its chains' runs are @runs[@run0 ..
 * @run0 + @nruns) (first index and count each).
 */
struct pr_group {
	size_t first, n;
	size_t run0, nruns;
};

struct pr_run {
	size_t first, n;
	uint32_t chain;
};

struct pr_sweep {
	struct prog_race *r;
	uint32_t sg;
	const struct kbin_race_order *o;
	const struct pr_span *sp;
	const struct pr_run *runs;
	struct pr_seen seen;
};

/* every unordered pair of member @x with the members of group @y */
static int pr_member(struct pr_sweep *w, const struct pr_span *x,
		     const struct pr_group *y, const struct kbin_race_span *at)
{
	const struct kbin_race_order *o = w->o;
	const uint32_t *vx = &o->vc[(uint64_t)x->s.access * o->chains];
	size_t k, lo, hi, mid;
	int ret;

	for (k = y->run0; k < y->run0 + y->nruns; k++) {
		const struct pr_run *run = &w->runs[k];
		const struct pr_span *m = &w->sp[run->first];

		if (run->chain == x->chain)
			continue;
		/* members before x: pos < vx[chain]; skip them */
		lo = 0;
		hi = run->n;
		while (lo < hi) {
			mid = lo + (hi - lo) / 2;
			if (m[mid].pos < vx[run->chain])
				lo = mid + 1;
			else
				hi = mid;
		}
		/* until the first after x: its clock has seen x */
		for (; lo < run->n; lo++) {
			const struct pr_span *yy = &m[lo];

			if (o->vc[(uint64_t)yy->s.access * o->chains + x->chain] >= x->pos + 1)
				break;
			ret = pr_seen_add(&w->seen,
					  x->s.access < yy->s.access ? x->s.access : yy->s.access,
					  x->s.access < yy->s.access ? yy->s.access : x->s.access);
			if (ret < 0)
				return ret;
			if (ret) {
				ret = pr_add_pair(w->r, w->sg, &x->s, &yy->s, at);
				if (ret)
					return ret;
			}
		}
	}
	return 0;
}

/* the pairs of groups @x and @y (the same group: its own pairs) */
static int pr_groups(struct pr_sweep *w, const struct pr_group *x,
		     const struct pr_group *y)
{
	struct kbin_race_span at;
	size_t i;
	int ret;

	if ((!w->sp[x->first].s.write && !w->sp[y->first].s.write) ||
	    !kbin_race_overlap(&w->sp[x->first].s, &w->sp[y->first].s, &at))
		return 0;
	for (i = x->first; i < x->first + x->n; i++) {
		ret = pr_member(w, &w->sp[i], y, &at);
		if (ret)
			return ret;
	}
	return 0;
}

/* check group @x against the active groups @act[0 .. *n), dropping dead ones */
static int pr_against(struct pr_sweep *w, const struct pr_group *g,
		      size_t *act, size_t *n, const struct pr_group *x)
{
	const struct kbin_race_span *xs = &w->sp[x->first].s;
	size_t i, k = 0;
	int ret;

	for (i = 0; i < *n; i++) {
		const struct kbin_race_span *ys = &w->sp[g[act[i]].first].s;

		if (ys->space != xs->space || ys->var_id != xs->var_id ||
		    ys->hi <= xs->lo)
			continue;
		act[k++] = act[i];
		ret = pr_groups(w, x, &g[act[i]]);
		if (ret)
			return ret;
	}
	*n = k;
	return 0;
}

/* a span's key (all but its node) hashed */
static uint64_t pr_hash(const struct kbin_race_span *k)
{
	uint64_t h = k->lo * 0x9e3779b97f4a7c15ULL;

	h = (h ^ k->hi) * 0xff51afd7ed558ccdULL;
	h = (h ^ k->mask[0]) * 0xc4ceb9fe1a85ec53ULL;
	h = (h ^ k->mask[1]) * 0x9e3779b97f4a7c15ULL;
	h ^= (uint64_t)k->var_id << 8 | (uint64_t)k->space << 1 | k->write;
	return (h * 0xff51afd7ed558ccdULL) >> 17;
}

static const struct pr_span *pr_cmp_base;

/* groups by their first member's bytes (qsort of group indexes) */
static int pr_cmp_group(const void *x, const void *y)
{
	const struct pr_group *a = x, *b = y;

	return pr_cmp_span(&pr_cmp_base[a->first], &pr_cmp_base[b->first]);
}

/*
 * Group the spans: equal ones (but for their node) together, in the order
 * they were emitted, which is chain by chain, position by position; the
 * groups sorted by place and bytes.  A hash of the distinct spans, a
 * counting sort, and a sort of the groups only: O(spans + groups log
 * groups).  @sp->s is rearranged; *@out is the groups, *@ng their count.
 */
static int pr_group_spans(struct pr_spans *sp, struct pr_group **out,
			  size_t *ng)
{
	size_t cap = 16, n = sp->n, i, k, nd = 0;
	uint32_t *tab = NULL, *gid = NULL;
	struct pr_group *g = NULL;
	struct pr_span *t = NULL;
	int ret = -ENOMEM;

	while (cap < 2 * n + 2)
		cap *= 2;
	tab = malloc(cap * sizeof(*tab));
	gid = malloc((n + 1) * sizeof(*gid));
	g = calloc(n + 1, sizeof(*g));
	t = malloc((n + 1) * sizeof(*t));
	if (!tab || !gid || !g || !t)
		goto out;
	memset(tab, 0xff, cap * sizeof(*tab));
	for (i = 0; i < n; i++) {
		for (k = pr_hash(&sp->s[i].s) & (cap - 1); tab[k] != UINT32_MAX;
		     k = (k + 1) & (cap - 1))
			if (pr_same(&sp->s[g[tab[k]].first], &sp->s[i]))
				break;
		if (tab[k] == UINT32_MAX) {
			tab[k] = (uint32_t)nd;
			g[nd].first = i;
			nd++;
		}
		gid[i] = tab[k];
		g[tab[k]].n++;
	}
	for (i = k = 0; i < nd; i++) {
		size_t c = g[i].n;

		g[i].run0 = k;	/* the next free place of group i */
		k += c;
	}
	for (i = 0; i < n; i++)
		t[g[gid[i]].run0++] = sp->s[i];
	for (i = 0; i < nd; i++)
		g[i].first = g[i].run0 - g[i].n;
	free(sp->s);
	sp->s = t;
	t = NULL;
	pr_cmp_base = sp->s;
	qsort(g, nd, sizeof(*g), pr_cmp_group);
	*out = g;
	*ng = nd;
	g = NULL;
	ret = 0;
out:
	free(tab);
	free(gid);
	free(g);
	free(t);
	return ret;
}

/* the sweep over a subgraph's spans, sorted and grouped */
static int pr_sweep(struct prog_race *r, uint32_t sg, struct pr_spans *sp)
{
	struct pr_sweep w = { .r = r, .sg = sg, .o = &r->sg[sg].order };
	struct pr_group *g = NULL;
	struct pr_run *runs = NULL;
	size_t *rd = NULL, *wr = NULL, ng = 0, nruns = 0, nr = 0, nw = 0, i, j;
	int ret = -ENOMEM;

	if (pr_group_spans(sp, &g, &ng))
		goto out;
	w.sp = sp->s;
	runs = malloc((sp->n + 1) * sizeof(*runs));
	rd = malloc((ng + 1) * sizeof(*rd));
	wr = malloc((ng + 1) * sizeof(*wr));
	if (!runs || !rd || !wr)
		goto out;
	for (i = 0; i < ng; i++) {
		j = g[i].first + g[i].n;
		g[i].run0 = nruns;
		for (size_t k = g[i].first; k < j; k++) {
			if (k == g[i].first || sp->s[k].chain != sp->s[k - 1].chain) {
				runs[nruns].first = k;
				runs[nruns].n = 0;
				runs[nruns++].chain = sp->s[k].chain;
			}
			runs[nruns - 1].n++;
		}
		g[i].nruns = nruns - g[i].run0;
	}
	w.runs = runs;
	r->sg[sg].first = r->npairs;
	for (i = 0; i < ng; i++) {
		const struct pr_group *x = &g[i];
		int write = sp->s[x->first].s.write;

		ret = pr_against(&w, g, wr, &nw, x);
		if (!ret && write)
			ret = pr_against(&w, g, rd, &nr, x);
		if (!ret && write)
			ret = pr_groups(&w, x, x);
		if (ret)
			goto out;
		if (write)
			wr[nw++] = i;
		else
			rd[nr++] = i;
	}
	ret = 0;
out:
	free(w.seen.k);
	free(g);
	free(runs);
	free(rd);
	free(wr);
	return ret;
}

/*
 * The footprints of subgraph @sg, in node order (compute instructions
 * engine by engine, then blocks queue by queue): chain by chain, position
 * by position, the order pr_group_spans() keeps inside a group.
 */
/* block @b of @dv (node @node): its descriptors' sides into @emit */
static int pr_block_footprint(const struct kbin_view *v, uint32_t sg,
			      const struct kbin_dma_sg_view *dv, uint32_t b,
			      uint32_t node, kbin_race_emit_fn emit, void *ctx)
{
	const struct kbin_gen *g = kbin_gen_target(v->hdr->target_gen);
	const struct kbin_dma_block *blk = &dv->blocks[b];
	uint32_t d;
	int ret;

	for (d = 0; d < blk->num_descs; d++) {
		const struct kbin_dma_desc *ds =
			&dv->descs[blk->first_desc - dv->first_desc + d];

		ret = kbin_race_dma_side(g, &ds->from,
					 pr_space(v, sg, ds->from.var_id),
					 0, node, emit, ctx);
		ret = ret ? ret :
		      kbin_race_dma_side(g, &ds->to,
					 pr_space(v, sg, ds->to.var_id),
					 1, node, emit, ctx);
		if (ret)
			return ret;
	}
	return 0;
}

static int pr_footprints(struct prog_race *r, uint32_t sg,
			 const struct kbin_dma_sg_view *dv,
			 const struct kbin_prog_sg_view *pv, int compute,
			 struct pr_spans *sp)
{
	const struct kbin_view *v = r->v;
	const struct kbin_race_order *o = &r->sg[sg].order;
	uint32_t b, e, i;
	int ret;

	for (e = 0; compute && e < KBIN_PROG_ENGINES; e++)
		for (i = 0; i < pv->num[e]; i++) {
			const uint8_t *rec = pv->records[e] +
					     (size_t)i * KBIN_PROG_RECORD_SIZE;

			if (!kbin_compute_is_op(rec[0]))
				continue;
			r->accesses++;
			ret = kbin_race_compute(rec, kbin_race_node(o, e, i),
						pr_emit, sp);
			if (ret)
				return ret;
		}
	for (b = 0; b < dv->num_blocks; b++) {
		r->accesses++;
		ret = pr_block_footprint(v, sg, dv, b,
					 o->base[KBIN_PROG_ENGINES] + b, pr_emit, sp);
		if (ret)
			return ret;
	}
	return 0;
}

static int pr_sg(struct prog_race *r, uint32_t sg, const struct prog_race_opts *o)
{
	const struct kbin_view *v = r->v;
	const struct kbin_gen *g = kbin_gen_target(v->hdr->target_gen);
	struct prog_race_sg *s = &r->sg[sg];
	struct kbin_dma_sg_view dv = { 0 };
	struct kbin_prog_sg_view pv;
	struct kbin_race_words w;
	struct pr_spans sp = { .o = &s->order };
	uint32_t e;
	int ret;

	if (!g)
		return -EINVAL;
	if (v->dma && kbin_view_dma_sg(v, sg, &dv))
		return -EINVAL;
	if (kbin_view_prog_sg(v, sg, &pv))
		return -EINVAL;
	s->name = kbin_view_subgraph(v, sg)->name;
	for (e = 0; e < KBIN_PROG_ENGINES; e++) {
		s->prog.sync[e] = pv.sync[e];
		s->prog.num[e] = pv.num[e];
	}
	if (o && o->drop_wait && o->drop_wait_sg == sg &&
	    o->drop_wait_engine >= 1 && o->drop_wait_engine <= KBIN_PROG_ENGINES &&
	    o->drop_wait <= pv.num[o->drop_wait_engine - 1]) {
		e = o->drop_wait_engine - 1;
		s->copy = malloc(pv.num[e] * sizeof(*s->copy));
		if (!s->copy)
			return -ENOMEM;
		memcpy(s->copy, pv.sync[e], pv.num[e] * sizeof(*s->copy));
		s->copy[o->drop_wait - 1].wait_mode = KBIN_PROG_WAIT_NONE;
		s->prog.sync[e] = s->copy;
	}
	s->queues = dv.queues;
	s->blocks = dv.blocks;
	s->arrays = malloc((2 * (size_t)dv.num_queues + 2 * (size_t)dv.num_blocks + 1) *
			   sizeof(uint32_t));
	if (!s->arrays)
		return -ENOMEM;
	for (e = 0; e < dv.num_queues; e++) {
		s->arrays[e] = dv.queues[e].num_blocks;
		s->arrays[dv.num_queues + e] = dv.queues[e].num_queues;
	}
	for (e = 0; e < dv.num_blocks; e++) {
		s->arrays[2 * dv.num_queues + e] = dv.blocks[e].queue;
		s->arrays[2 * dv.num_queues + dv.num_blocks + e] = dv.blocks[e].semaphore;
	}
	s->prog.num_queues = dv.num_queues;
	s->prog.queue_blocks = s->arrays;
	s->prog.queue_add = s->arrays + dv.num_queues;
	s->prog.num_blocks = dv.num_blocks;
	s->prog.block_queue = s->arrays + 2 * dv.num_queues;
	s->prog.block_sem = s->arrays + 2 * dv.num_queues + dv.num_blocks;
	s->prog.semaphores = g->semaphores;
	s->prog.block_add = o ? o->block_add : 0;
	s->order.p = &s->prog;
	if (kbin_race_words(&s->prog, &w))
		return -E2BIG;
	s->order.vc = malloc((w.vc + 1) * sizeof(uint32_t));
	s->order.prev = malloc((w.vc + 1) * sizeof(uint32_t));
	s->order.trigger = malloc((dv.num_blocks + 1) * sizeof(uint32_t));
	s->order.incs = malloc((w.incs + 1) * sizeof(*s->order.incs));
	s->order.groups = malloc((w.groups + 1) * sizeof(*s->order.groups));
	s->order.sem_groups = malloc((g->semaphores + 1) * sizeof(uint32_t));
	if (!s->order.vc || !s->order.prev || !s->order.trigger ||
	    !s->order.incs || !s->order.groups || !s->order.sem_groups)
		return -ENOMEM;
	ret = kbin_race_order(&s->order);
	if (ret)
		return ret;
	s->nodes = s->order.nodes;
	s->chains = s->order.chains;
	s->passes = s->order.passes;
	s->stuck = s->order.stuck;
	ret = pr_footprints(r, sg, &dv, &pv,
			    !!(v->prog->flags & KBIN_PROG_F_COMPUTE), &sp);
	if (!ret) {
		s->spans = sp.n;
		r->spans += sp.n;
		ret = pr_sweep(r, sg, &sp);
	}
	free(sp.s);
	/* the clocks of the last pass are kept; the scratch is not */
	free(s->order.prev);
	s->order.prev = NULL;
	return ret;
}

/**
 * prog_race_plan() - the races of every subgraph of a plan.
 * @v: a checked plan with a program section.
 * @o: options, or NULL for the defaults.
 * @out: out: the report, to free with prog_race_free().
 *
 * Return: 0; -ENODATA when the plan has no program; -ENOMEM; -EINVAL when
 * a subgraph's tables are out of place; -E2BIG when a subgraph has more
 * nodes than the clocks count.
 */
int prog_race_plan(const struct kbin_view *v, const struct prog_race_opts *o,
		   struct prog_race **out)
{
	struct prog_race *r;
	uint32_t s;
	int ret = 0;

	*out = NULL;
	if (!v->prog)
		return -ENODATA;
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->v = v;
	r->nsg = v->num_subgraphs;
	for (s = 0; o && s < KBIN_PROG_ENGINES; s++) {
		r->names[s] = o->names[s];
		r->num_names[s] = o->names[s] ? o->num_names[s] : 0;
	}
	r->sg = calloc(r->nsg + 1, sizeof(*r->sg));
	if (!r->sg) {
		free(r);
		return -ENOMEM;
	}
	for (s = 0; s < r->nsg && !ret; s++)
		ret = pr_sg(r, s, o);
	if (ret) {
		prog_race_free(r);
		return ret;
	}
	*out = r;
	return 0;
}

/**
 * prog_race_schedules() - replay the plan in @n jittered schedules
 *	(prog_replay_opts.jitter 1 .. @n) and mark which side of each pair
 *	ended first in each (prog_race_pair.seen).
 * @r: the report of prog_race_plan().
 * @n: how many schedules.
 *
 * A pair ended in both orders is a race a replay can show; one ended in
 * one order only may still be one (the replays are few, the cost model
 * regular).  Sets @r->schedules and @r->both.
 *
 * Return: 0, or the replay's negative errno.
 */
int prog_race_schedules(struct prog_race *r, uint32_t n)
{
	uint32_t k, s, i, *rank = NULL;
	uint64_t cap = 0;
	int ret = 0;

	for (s = 0; s < r->nsg; s++)
		if (r->sg[s].nodes > cap)
			cap = r->sg[s].nodes;
	rank = malloc((cap + 1) * sizeof(*rank));
	if (!rank)
		return -ENOMEM;
	for (k = 1; k <= n && !ret; k++) {
		struct prog_replay_opts o = { .jitter = k };
		struct prog_replay *rp = NULL;

		ret = prog_replay_plan(r->v, &o, &rp);
		if (ret)
			break;
		for (s = 0; s < r->nsg && s < rp->nsg; s++) {
			const struct prog_replay_sg *g = &rp->sg[s];
			const struct kbin_race_order *o2 = &r->sg[s].order;

			for (i = 0; i < r->sg[s].nodes; i++)
				rank[i] = UINT32_MAX;
			for (i = 0; i < g->nends; i++) {
				const struct prog_replay_end *e = &g->ends[i];
				uint32_t node = e->block ?
						o2->base[KBIN_PROG_ENGINES] + e->index :
						kbin_race_node(o2, e->engine - 1u, e->index);

				if (node < r->sg[s].nodes)
					rank[node] = i;
			}
			for (i = r->sg[s].first; i < r->sg[s].first + r->sg[s].pairs; i++) {
				struct prog_race_pair *p = &r->pairs[i];

				if (rank[p->a.node] == UINT32_MAX || rank[p->b.node] == UINT32_MAX)
					continue;
				p->seen |= rank[p->a.node] < rank[p->b.node] ? 1 : 2;
			}
		}
		prog_replay_free(rp);
	}
	free(rank);
	r->schedules = k - 1;
	r->both = 0;
	for (i = 0; i < r->npairs; i++)
		r->both += r->pairs[i].seen == 3;
	return ret;
}

/* node @node's footprint into @emit (a block's descriptors, a compute record) */
static int pr_node_footprint(const struct prog_race *r, uint32_t sg,
			     uint32_t node, kbin_race_emit_fn emit, void *ctx)
{
	const struct kbin_view *v = r->v;
	const struct prog_race_sg *s = &r->sg[sg];
	struct kbin_dma_sg_view dv = { 0 };
	struct kbin_prog_sg_view pv;
	uint32_t c, pos;

	kbin_race_node_at(&s->order, node, &c, &pos);
	if (c < KBIN_PROG_ENGINES) {
		const uint8_t *rec;

		if (!(v->prog->flags & KBIN_PROG_F_COMPUTE) ||
		    kbin_view_prog_sg(v, sg, &pv))
			return 0;
		rec = pv.records[c] + (size_t)pos * KBIN_PROG_RECORD_SIZE;
		return kbin_compute_is_op(rec[0]) ?
		       kbin_race_compute(rec, node, emit, ctx) : 0;
	}
	if (!v->dma || kbin_view_dma_sg(v, sg, &dv))
		return 0;
	return pr_block_footprint(v, sg, &dv,
				  node - s->order.base[KBIN_PROG_ENGINES], node,
				  emit, ctx);
}

/**
 * prog_race_check() - the device's check, on the host: replay the plan
 *	(jittered by @jitter, 0 the cost model's schedule) and give every
 *	instruction's and block's footprint, in the order they end, to a
 *	shadow (kbin_race_shadow_access()) that checks each access against
 *	the conflicting ones before it.
 * @r: the report of prog_race_plan() (its orders).
 * @jitter: prog_replay_opts.jitter.
 * @max_var_cells: the variables' shadow cells at most (their granularity
 *	grows to fit).
 * @sg: out: the subgraph of the first violation.
 * @v: out: the first violation, when there is one.
 *
 * Return: the violations found (0 none), or a negative errno.
 */
long long prog_race_check(const struct prog_race *r, uint64_t jitter,
			  uint64_t max_var_cells, uint32_t *sg,
			  struct kbin_race_violation *v)
{
	const struct kbin_gen *g = kbin_gen_target(r->v->hdr->target_gen);
	struct prog_replay_opts o = { .jitter = jitter };
	struct prog_replay *rp = NULL;
	long long found = 0;
	uint32_t s, i;
	int ret;

	if (!g)
		return -EINVAL;
	ret = prog_replay_plan(r->v, &o, &rp);
	if (ret)
		return ret;
	for (s = 0; s < r->nsg && s < rp->nsg && !ret; s++) {
		const struct kbin_mem_ref_set *set = kbin_view_set(r->v, s);
		const struct kbin_race_order *ord = &r->sg[s].order;
		struct kbin_race_shadow sh = { .o = ord };
		__u64 *size = NULL;

		sh.num_vars = set ? set->nmem : 0;
		size = calloc(sh.num_vars + 1, sizeof(*size));
		sh.var_first = calloc(sh.num_vars + 1, sizeof(*sh.var_first));
		if (!size || !sh.var_first) {
			ret = -ENOMEM;
			goto next;
		}
		for (i = 0; i < sh.num_vars; i++)
			size[i] = pr_space(r->v, s, i) == KBIN_RACE_VAR ?
				  set->mem[i].size : 0;
		sh.var_size = size;
		sh.cells = calloc(kbin_race_shadow_size(&sh, g, max_var_cells) + 1,
				  sizeof(*sh.cells));
		if (!sh.cells) {
			ret = -ENOMEM;
			goto next;
		}
		for (i = 0; i < rp->sg[s].nends && !ret; i++) {
			const struct prog_replay_end *e = &rp->sg[s].ends[i];
			uint32_t node = e->block ? ord->base[KBIN_PROG_ENGINES] + e->index :
					kbin_race_node(ord, e->engine - 1u, e->index);

			ret = pr_node_footprint(r, s, node, kbin_race_shadow_access, &sh);
		}
		if (sh.found && !found) {
			*sg = s;
			*v = sh.first;
		}
		found += (long long)sh.found;
next:
		free(sh.cells);
		free(sh.var_first);
		free(size);
	}
	prog_replay_free(rp);
	return ret ? ret : found;
}

/**
 * prog_race_free() - free a report.
 * @r: the report of prog_race_plan(), or NULL.
 */
void prog_race_free(struct prog_race *r)
{
	uint32_t s;

	if (!r)
		return;
	for (s = 0; s < r->nsg; s++) {
		struct kbin_race_order *o = &r->sg[s].order;

		free(o->vc);
		free(o->prev);
		free(o->trigger);
		free(o->incs);
		free(o->groups);
		free(o->sem_groups);
		free(r->sg[s].copy);
		free(r->sg[s].arrays);
	}
	free(r->sg);
	free(r->pairs);
	free(r);
}

/**
 * prog_race_cause_str() - the name of an enum prog_race_cause.
 * @cause: the cause.
 *
 * Return: "same-engine-triggers", "triggers-ordered", "unordered" or "?".
 */
const char *prog_race_cause_str(uint32_t cause)
{
	static const char *const names[PROG_RACE_CAUSES] = {
		"same-engine-triggers", "triggers-ordered", "unordered",
	};

	return cause < PROG_RACE_CAUSES ? names[cause] : "?";
}

/**
 * prog_race_space_str() - the name of an enum kbin_race_space.
 * @space: the space.
 *
 * Return: "SBUF", "PSUM", "var" or "?".
 */
const char *prog_race_space_str(uint32_t space)
{
	return space == KBIN_RACE_SBUF ? "SBUF" : space == KBIN_RACE_PSUM ? "PSUM" :
	       space == KBIN_RACE_VAR ? "var" : "?";
}

/**
 * prog_race_comment() - the compiler-level name of a node: a block's
 *	def.json "#comment", an instruction's name from
 *	prog_race_opts.names (the BIR instruction it came from), or NULL.
 * @r: the report.
 * @sg: the subgraph.
 * @node: the node.
 *
 * Return: the text, or NULL when the node has none.
 */
const char *prog_race_comment(const struct prog_race *r, uint32_t sg,
			      uint32_t node)
{
	const struct prog_race_sg *s = &r->sg[sg];
	uint32_t b, c, pos;

	if (node < s->order.base[KBIN_PROG_ENGINES]) {
		kbin_race_node_at(&s->order, node, &c, &pos);
		if (sg || c >= KBIN_PROG_ENGINES || pos >= r->num_names[c])
			return NULL;
		return r->names[c][pos];
	}
	if (!s->prog.num_blocks)
		return NULL;
	b = node - s->order.base[KBIN_PROG_ENGINES];
	if (b >= s->prog.num_blocks || !s->blocks[b].comment)
		return NULL;
	return kbin_view_str(r->v, s->blocks[b].comment);
}

/**
 * prog_race_name() - a node as text: "PE instruction 12 (opcode 0xe6)" or
 *	"queue qSPIO0 block 74".
 * @r: the report.
 * @sg: the subgraph.
 * @node: the node.
 * @buf: where to write.
 * @len: its bytes.
 *
 * Return: @buf.
 */
char *prog_race_name(const struct prog_race *r, uint32_t sg, uint32_t node,
		     char *buf, size_t len)
{
	const struct prog_race_sg *s = &r->sg[sg];
	uint32_t c, pos;

	kbin_race_node_at(&s->order, node, &c, &pos);
	if (c < KBIN_PROG_ENGINES) {
		const struct kbin_prog_sync *sy = &s->prog.sync[c][pos];

		snprintf(buf, len, "%s instruction %u (opcode 0x%02x%s%s)",
			 kbin_dma_engine_str(c + 1), pos, sy->opcode,
			 kbin_compute_is_op(sy->opcode) ? " " : "",
			 kbin_compute_is_op(sy->opcode) ?
			 kbin_compute_op_str(sy->opcode) : "");
	} else {
		snprintf(buf, len, "queue %s block %u",
			 kbin_view_str(r->v, s->queues[c - KBIN_PROG_ENGINES].name),
			 pos);
	}
	return buf;
}
