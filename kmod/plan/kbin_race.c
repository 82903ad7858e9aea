// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * kbin_race.c - the happens-before order of a subgraph's program and the
 * footprints of its accesses (Documentation/races.rst).
 */
#include "kbin_compat.h"
#include "kbin_dma.h"
#include "kbin_kind.h"
#include "kbin_race.h"

/* a semaphore's increment on a wait's side: no more than this counts */
#define KBIN_RACE_NONE	0xffffffffU

/* one more iteration of a long loop: let other tasks run now and then */
static inline void kbin_race_tick(__u32 *ticks)
{
	if (!(++*ticks % KBIN_RACE_YIELD_EVERY))
		kbin_yield();
}

/**
 * kbin_race_words() - the sizes of the arrays kbin_race_order() fills.
 * @p: the program.
 * @w: out: the sizes, in entries.
 *
 * Return: 0; -EINVAL when @p has more than KBIN_PROG_MAX_QUEUES queues
 * or more than 2^32 - 1 nodes; -E2BIG when the clocks (@w->vc, set) would
 * pass KBIN_RACE_MAX_CLOCKS entries.
 */
int kbin_race_words(const struct kbin_race_prog *p, struct kbin_race_words *w)
{
	__u64 n = p->num_blocks, incs = p->num_blocks;
	__u32 e, i, ticks = 0;

	if (p->num_queues > KBIN_PROG_MAX_QUEUES)
		return -EINVAL;
	for (e = 0; e < KBIN_PROG_ENGINES; e++) {
		n += p->num[e];
		for (i = 0; i < p->num[e]; i++) {
			incs += (p->sync[e][i].update_mode == KBIN_PROG_UPDATE_INC) +
				(p->sync[e][i].cls == KBIN_PROG_CLASS_DMA &&
				 p->sync[e][i].add_value);
			kbin_race_tick(&ticks);
		}
	}
	if (n >= 0xffffffffULL || incs >= 0xffffffffULL)
		return -EINVAL;
	w->nodes = n;
	w->vc = n * (KBIN_PROG_ENGINES + p->num_queues);
	w->incs = incs;
	w->groups = incs;
	return w->vc > KBIN_RACE_MAX_CLOCKS ? -E2BIG : 0;
}

/**
 * kbin_race_space() - the space in which the accesses of a variable of
 * kind @mr_type are compared (Documentation/races.rst, "Footprints").
 * @mr_type: its mem_ref kind; an unknown one counts as a variable.
 *
 * Return: KBIN_RACE_SBUF or KBIN_RACE_PSUM for a kind stored there (its
 * bytes are compared per partition), else KBIN_RACE_VAR (compared by
 * var_id and byte).
 */
unsigned int kbin_race_space(__u32 mr_type)
{
	switch (kbin_kind(mr_type)->storage) {
	case KBIN_STORAGE_SBUF:
		return KBIN_RACE_SBUF;
	case KBIN_STORAGE_PSUM:
		return KBIN_RACE_PSUM;
	default:
		return KBIN_RACE_VAR;
	}
}

/**
 * kbin_race_node() - the node of a chain's instruction or block.
 * @o: the order (its @base set up).
 * @chain: the chain: enum kbin_dma_engine - 1, or KBIN_PROG_ENGINES + a
 *	queue's index.
 * @pos: the instruction's index in its stream, the block's id.
 *
 * Return: the node.
 */
__u32 kbin_race_node(const struct kbin_race_order *o, __u32 chain, __u32 pos)
{
	return o->base[chain] + pos;
}

/**
 * kbin_race_node_at() - the chain and position of a node.
 * @o: the order.
 * @node: the node, below @o->nodes.
 * @chain: out: its chain.
 * @pos: out: its position in it.
 */
void kbin_race_node_at(const struct kbin_race_order *o, __u32 node,
		       __u32 *chain, __u32 *pos)
{
	__u32 c;

	for (c = o->chains; c-- > 0;)
		if (o->len[c] && node >= o->base[c])
			break;
	if (c >= o->chains)
		c = 0;
	*chain = c;
	*pos = node - o->base[c];
}

/**
 * kbin_race_before() - does node @a happen before node @b in every
 *	schedule?
 * @o: the order kbin_race_order() computed.
 * @a: a node.
 * @b: a node.
 *
 * Return: 1 when @a ends before @b starts in every schedule, else 0 (also
 * when @a is @b).
 */
int kbin_race_before(const struct kbin_race_order *o, __u32 a, __u32 b)
{
	__u32 ca, pa;

	if (a == b)
		return 0;
	kbin_race_node_at(o, a, &ca, &pa);
	return o->vc[(__u64)b * o->chains + ca] >= pa + 1;
}

/* lay the nodes out: engines, then queues; check the blocks' places */
static int kbin_race_layout(struct kbin_race_order *o)
{
	const struct kbin_race_prog *p = o->p;
	__u32 c, b, n = 0, ticks = 0;

	o->chains = KBIN_PROG_ENGINES + p->num_queues;
	for (c = 0; c < KBIN_PROG_ENGINES; c++) {
		o->base[c] = n;
		o->len[c] = p->num[c];
		n += p->num[c];
	}
	for (c = 0; c < p->num_queues; c++) {
		o->base[KBIN_PROG_ENGINES + c] = n;
		o->len[KBIN_PROG_ENGINES + c] = p->queue_blocks[c];
		n += p->queue_blocks[c];
	}
	o->base[o->chains] = n;
	if (n - o->base[KBIN_PROG_ENGINES] != p->num_blocks)
		return -EINVAL;
	/* blocks queue after queue: block b is node base[queue] + its id */
	for (b = 0; b < p->num_blocks; b++) {
		if (p->block_queue[b] >= p->num_queues ||
		    (b && p->block_queue[b] < p->block_queue[b - 1]) ||
		    b - (o->base[KBIN_PROG_ENGINES + p->block_queue[b]] -
			 o->base[KBIN_PROG_ENGINES]) >= p->queue_blocks[p->block_queue[b]] ||
		    p->block_sem[b] >= p->semaphores)
			return -EINVAL;
		kbin_race_tick(&ticks);
	}
	o->nodes = n;
	return 0;
}

/* the increments of instruction @i of stream @e: up to two */
static __u32 kbin_race_instr_incs(const struct kbin_prog_sync *s, __u32 *sem,
				  __u32 *add)
{
	__u32 k = 0;

	if (s->update_mode == KBIN_PROG_UPDATE_INC) {
		sem[k] = s->update_sem;
		add[k++] = 1;
	}
	if (s->cls == KBIN_PROG_CLASS_DMA && s->add_value) {
		sem[k] = s->add_sem;
		add[k++] = s->add_value;
	}
	return k;
}

/* what block @b adds to its semaphore when it ends */
static __u32 kbin_race_block_add(const struct kbin_race_prog *p, __u32 b)
{
	return p->block_add ? p->block_add : p->queue_add[p->block_queue[b]];
}

/*
 * Every increment of every semaphore, by semaphore, then chain, then
 * position (a counting sort in node order), and the groups of one
 * semaphore and one chain.
 */
static int kbin_race_collect(struct kbin_race_order *o)
{
	const struct kbin_race_prog *p = o->p;
	__u32 *at = o->sem_groups, s, e, i, k, n, sem[2], add[2], g;
	__u32 nsem = p->semaphores, ticks = 0;

	for (s = 0; s <= nsem; s++)
		at[s] = 0;
	for (e = 0; e < KBIN_PROG_ENGINES; e++)
		for (i = 0; i < p->num[e]; i++) {
			n = kbin_race_instr_incs(&p->sync[e][i], sem, add);
			for (k = 0; k < n; k++) {
				if (sem[k] >= nsem)
					return -EINVAL;
				at[sem[k] + 1]++;
			}
			kbin_race_tick(&ticks);
		}
	for (i = 0; i < p->num_blocks; i++) {
		at[p->block_sem[i] + 1]++;
		kbin_race_tick(&ticks);
	}
	for (s = 0; s < nsem; s++)
		at[s + 1] += at[s];
	o->num_incs = at[nsem];
	for (e = 0; e < KBIN_PROG_ENGINES; e++)
		for (i = 0; i < p->num[e]; i++) {
			n = kbin_race_instr_incs(&p->sync[e][i], sem, add);
			for (k = 0; k < n; k++) {
				struct kbin_race_inc *in = &o->incs[at[sem[k]]++];

				in->node = kbin_race_node(o, e, i);
				in->chain = e;
				in->pos = i;
				in->pad = 0;
				in->cum = add[k];
			}
			kbin_race_tick(&ticks);
		}
	for (i = 0; i < p->num_blocks; i++) {
		struct kbin_race_inc *in = &o->incs[at[p->block_sem[i]]++];

		kbin_race_tick(&ticks);
		in->chain = KBIN_PROG_ENGINES + p->block_queue[i];
		in->node = o->base[KBIN_PROG_ENGINES] + i;
		in->pos = in->node - o->base[in->chain];
		in->pad = 0;
		in->cum = kbin_race_block_add(p, i);
	}
	/* at[s] is now the end of semaphore s: shift to its start */
	for (s = nsem; s > 0; s--)
		at[s] = at[s - 1];
	at[0] = 0;
	/* groups, and the running sums in each; at[s] becomes a group index */
	g = 0;
	for (s = 0; s < nsem; s++) {
		__u32 first = at[s], end = at[s + 1];

		at[s] = g;
		for (i = first; i < end; i++) {
			if (i == first || o->incs[i].chain != o->incs[i - 1].chain) {
				o->groups[g].chain = o->incs[i].chain;
				o->groups[g].first = i;
				o->groups[g].num = 0;
				g++;
			} else {
				o->incs[i].cum += o->incs[i - 1].cum;
			}
			o->groups[g - 1].num++;
			kbin_race_tick(&ticks);
		}
	}
	at[nsem] = g;
	return 0;
}

/*
 * How many increments of group @gr may have happened before node @w
 * (chain @cw, position @pw) starts: those not known to come after it,
 * by program order on @w's own chain and, after the first pass, by the
 * previous pass's clocks (an increment after @w on its chain is after it
 * for good: the prefix that is not after @w is what may come first).
 */
static __u32 kbin_race_avail(const struct kbin_race_order *o,
			     const struct kbin_race_group *gr, __u32 cw,
			     __u32 pw, int pass)
{
	const struct kbin_race_inc *in = &o->incs[gr->first];
	__u32 lo = 0, hi = gr->num, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if ((gr->chain == cw && in[mid].pos >= pw) ||
		    (pass && o->prev[(__u64)in[mid].node * o->chains + cw] > pw))
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* the first increment of @gr's first @n whose running sum reaches @need */
static __u32 kbin_race_reach(const struct kbin_race_order *o,
			     const struct kbin_race_group *gr, __u32 n,
			     __u64 need)
{
	const struct kbin_race_inc *in = &o->incs[gr->first];
	__u32 lo = 0, hi = n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (in[mid].cum >= need)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/*
 * The nodes a wait of node (@cw, @pw) for semaphore @s >= @v is ordered
 * after: per chain that increments @s, the increment that must have
 * happened even if every other chain's possible increments came first.
 * *@reach: what all increments that may come before the wait add.
 * Return: how many written to @pred, or -1 when no schedule satisfies
 * the wait.
 */
static int kbin_race_wait_preds(const struct kbin_race_order *o, __u32 s,
				__u64 v, __u32 cw, __u32 pw, int pass,
				__u32 *pred, __u64 *reach)
{
	__u32 g0 = o->sem_groups[s], g1 = o->sem_groups[s + 1], g, k = 0;
	__u32 avail[KBIN_RACE_MAX_CHAINS];
	__u64 total = 0, sum;
	const struct kbin_race_inc *in;

	if (!v)
		return 0;
	for (g = g0; g < g1; g++) {
		avail[g - g0] = kbin_race_avail(o, &o->groups[g], cw, pw, pass);
		in = &o->incs[o->groups[g].first];
		total += avail[g - g0] ? in[avail[g - g0] - 1].cum : 0;
	}
	*reach = total;
	if (total < v)
		return -1;
	for (g = g0; g < g1; g++) {
		__u32 n = avail[g - g0], j;

		in = &o->incs[o->groups[g].first];
		sum = n ? in[n - 1].cum : 0;
		if (total - sum >= v)
			continue;
		j = kbin_race_reach(o, &o->groups[g], n, v - (total - sum));
		pred[k++] = in[j].node;
	}
	return (int)k;
}

/* node @pos of chain @c: its clock when its predecessors have one; 1 if so */
static int kbin_race_step(struct kbin_race_order *o, __u32 c, __u32 pos,
			  const __u32 *done, int pass, int *stuck)
{
	const struct kbin_race_prog *p = o->p;
	__u32 pred[KBIN_RACE_MAX_CHAINS + 2];
	__u32 node = o->base[c] + pos, pc, pp, k, j;
	__u32 *vc = &o->vc[(__u64)node * o->chains];
	__u64 reach = 0;
	int n = 0;

	if (c < KBIN_PROG_ENGINES) {
		const struct kbin_prog_sync *sy = &p->sync[c][pos];

		if (sy->wait_mode == KBIN_PROG_WAIT_GE)
			n = kbin_race_wait_preds(o, sy->wait_sem, sy->wait_value,
						 c, pos, pass, pred, &reach);
		if (n < 0) {
			if (!*stuck) {
				o->stuck_node = node;
				o->stuck_sem = sy->wait_sem;
				o->stuck_value = sy->wait_value;
				o->stuck_reach = reach;
			}
			*stuck = 1;
			n = 0;
		}
	} else if (o->trigger[node - o->base[KBIN_PROG_ENGINES]] != KBIN_RACE_NONE) {
		pred[n++] = o->trigger[node - o->base[KBIN_PROG_ENGINES]];
	}
	for (k = 0; k < (__u32)n; k++) {
		kbin_race_node_at(o, pred[k], &pc, &pp);
		if (pp >= done[pc])
			return 0;
	}
	if (pos)
		memcpy(vc, vc - o->chains, o->chains * sizeof(*vc));
	else
		memset(vc, 0, o->chains * sizeof(*vc));
	for (k = 0; k < (__u32)n; k++) {
		const __u32 *pv = &o->vc[(__u64)pred[k] * o->chains];

		for (j = 0; j < o->chains; j++)
			if (pv[j] > vc[j])
				vc[j] = pv[j];
	}
	vc[c] = pos + 1;
	return 1;
}

/* one pass: every node's clock from its predecessors' */
static int kbin_race_pass(struct kbin_race_order *o, int pass)
{
	__u32 done[KBIN_RACE_MAX_CHAINS] = { 0 };
	__u32 c, left = o->nodes, ticks = 0;
	int progress = 1, stuck = 0;

	o->stuck_node = KBIN_RACE_NONE;
	o->stuck_sem = KBIN_RACE_NONE;
	o->stuck_value = 0;
	o->stuck_reach = 0;
	/* each step, done or not, is O(chains^2): every one counts */
	while (left && progress) {
		progress = 0;
		for (c = 0; c < o->chains; c++) {
			while (done[c] < o->len[c]) {
				kbin_race_tick(&ticks);
				if (!kbin_race_step(o, c, done[c], done, pass, &stuck))
					break;
				done[c]++;
				left--;
				progress = 1;
			}
		}
	}
	if (left && !stuck) {
		/* a cycle of waits: name the first node left */
		for (c = 0; c < o->chains && done[c] >= o->len[c]; c++)
			;
		o->stuck_node = o->base[c] + done[c];
		o->stuck_reach = ~0ULL;
		if (c < KBIN_PROG_ENGINES &&
		    o->p->sync[c][done[c]].wait_mode == KBIN_PROG_WAIT_GE) {
			o->stuck_sem = o->p->sync[c][done[c]].wait_sem;
			o->stuck_value = o->p->sync[c][done[c]].wait_value;
		}
	}
	if (left) {
		/* deadlock in the model: leave the rest ordered after nothing */
		for (c = 0; c < o->chains; c++)
			for (; done[c] < o->len[c]; done[c]++) {
				__u32 *vc = &o->vc[(__u64)(o->base[c] + done[c]) * o->chains];

				memset(vc, 0, o->chains * sizeof(*vc));
				vc[c] = done[c] + 1;
				kbin_race_tick(&ticks);
			}
		stuck = 1;
	}
	return stuck;
}

/**
 * kbin_race_order() - the happens-before order of one subgraph.
 * @o: @p and the arrays set (sizes from kbin_race_words()); the rest is
 *	filled in.
 *
 * The rules (Documentation/races.rst): program order on each engine;
 * first in, first out on each queue; a trigger before
 * its block; a wait for semaphore s >= v after, on each chain that adds
 * to s, the increment that brings that chain's sum to v minus what all
 * other chains may have added before the wait.  What may have happened
 * before the wait shrinks as the order grows: passes repeat until the
 * clocks stop changing, at most KBIN_RACE_MAX_PASSES.  O(passes x nodes
 * x chains).
 *
 * Return: 0, or -EINVAL when a block or a semaphore is out of place (a
 * plan the checker refused).
 */
int kbin_race_order(struct kbin_race_order *o)
{
	const struct kbin_race_prog *p = o->p;
	__u32 e, i, *t, ticks = 0;
	int ret, pass;

	ret = kbin_race_layout(o);
	if (ret)
		return ret;
	for (i = 0; i < p->num_blocks; i++)
		o->trigger[i] = KBIN_RACE_NONE;
	for (e = 0; e < KBIN_PROG_ENGINES; e++)
		for (i = 0; i < p->num[e]; i++) {
			const struct kbin_prog_sync *s = &p->sync[e][i];

			kbin_race_tick(&ticks);
			if (s->wait_mode == KBIN_PROG_WAIT_GE &&
			    s->wait_sem >= p->semaphores)
				return -EINVAL;
			if (s->cls != KBIN_PROG_CLASS_TRIGGER ||
			    s->block == KBIN_PROG_NO_BLOCK)
				continue;
			if (s->block >= p->num_blocks)
				return -EINVAL;
			o->trigger[s->block] = kbin_race_node(o, e, i);
		}
	ret = kbin_race_collect(o);
	if (ret)
		return ret;
	for (pass = 0; pass < (int)KBIN_RACE_MAX_PASSES; pass++) {
		o->stuck = kbin_race_pass(o, pass);
		o->passes = pass + 1;
		kbin_yield();
		if (pass && !memcmp(o->vc, o->prev,
				    (__u64)o->nodes * o->chains * sizeof(*o->vc)))
			break;
		t = o->prev;
		o->prev = o->vc;
		o->vc = t;
	}
	if (pass == (int)KBIN_RACE_MAX_PASSES) {
		/* the last pass's clocks are in prev: hand those out */
		t = o->prev;
		o->prev = o->vc;
		o->vc = t;
	}
	return 0;
}

/* a span of one partition's byte range, or of a variable's */
static void kbin_race_span_init(struct kbin_race_span *sp, unsigned int space,
				__u32 var_id, int write, __u32 access)
{
	memset(sp, 0, sizeof(*sp));
	sp->space = space;
	sp->var_id = var_id;
	sp->write = write;
	sp->access = access;
}

/**
 * kbin_race_dma_side() - the footprint of one side of a DMA descriptor.
 * @g: the generation (partition strides).
 * @s: the side (checked by the plan checker).
 * @space: KBIN_RACE_SBUF when the side's variable is the SBUF window,
 *	KBIN_RACE_PSUM the PSUM window, else KBIN_RACE_VAR.
 * @write: 1 for the to side, 0 for the from side.
 * @access: passed on in each span.
 * @emit: receives each span.
 * @ctx: passed to @emit.
 *
 * Runs with the same byte range in consecutive runs of the walk become
 * one span over their partitions; contiguous runs of a variable one
 * span.  O(runs).
 *
 * Return: 0, or what @emit returned that was not 0.
 */
int kbin_race_dma_side(const struct kbin_gen *g,
		       const struct kbin_dma_side *s, unsigned int space,
		       int write, __u32 access, kbin_race_emit_fn emit,
		       void *ctx)
{
	struct kbin_race_span cur;
	struct kbin_dma_walk w;
	__u64 stride = 0, off, step, lo, part;
	__u32 n, j, len = s->sizes[0], ticks = 0;
	int have = 0, ret;

	if (space == KBIN_RACE_SBUF)
		stride = g->sbuf_partition_stride;
	else if (space == KBIN_RACE_PSUM)
		stride = kbin_gen_psum_partition_size(g);
	kbin_race_span_init(&cur, space, space == KBIN_RACE_VAR ? s->var_id : 0,
			    write, access);
	kbin_dma_walk_init(&w, s);
	while (kbin_dma_walk_row(&w, &off, &n, &step)) {
		kbin_race_tick(&ticks);
		if (!stride && step <= len) {
			/* the row is one contiguous range */
			n = n ? n : 1;
			lo = off;
			off = off + (__u64)(n - 1) * step + len;
			if (have && lo >= cur.lo && lo <= cur.hi) {
				if (off > cur.hi)
					cur.hi = off;
				continue;
			}
			if (have) {
				ret = emit(ctx, &cur);
				if (ret)
					return ret;
			}
			cur.lo = lo;
			cur.hi = off;
			cur.mask[0] = 1;
			have = 1;
			continue;
		}
		for (j = 0; j < n; j++, off += step) {
			kbin_race_tick(&ticks);
			lo = stride ? off % stride : off;
			part = stride ? off / stride : 0;
			if (part >= KBIN_RACE_PARTS)
				part = KBIN_RACE_PARTS - 1;
			if (have && ((stride && cur.lo == lo && cur.hi == lo + len) ||
				     (!stride && lo >= cur.lo && lo <= cur.hi))) {
				if (!stride && lo + len > cur.hi)
					cur.hi = lo + len;
				cur.mask[part / 64] |= 1ULL << (part % 64);
				continue;
			}
			if (have) {
				ret = emit(ctx, &cur);
				if (ret)
					return ret;
			}
			memset(cur.mask, 0, sizeof(cur.mask));
			cur.lo = lo;
			cur.hi = lo + len;
			cur.mask[part / 64] |= 1ULL << (part % 64);
			have = 1;
		}
	}
	return have ? emit(ctx, &cur) : 0;
}

/* the span of a compute operand: its partitions, its bounding bytes */
static int kbin_race_ap_span(const struct kbin_compute_ap *ap, long long shift,
			     int write, __u32 access, struct kbin_race_span *sp)
{
	const struct kbin_dma_dtype_info *t = kbin_dma_dtype(ap->dtype);
	long long lo = 0, hi = 0, d, base = (long long)ap->offset + shift;
	__u32 p, k;

	if (!t || !ap->num[0] || !ap->num[1])
		return -EINVAL;
	kbin_race_span_init(sp, ap->space == KBIN_SPACE_SBUF ? KBIN_RACE_SBUF :
			    KBIN_RACE_PSUM, 0, write, access);
	for (k = 0; k < 2; k++) {
		d = (long long)ap->step[k] * (ap->num[k] - 1);
		if (d < 0)
			lo += d;
		else
			hi += d;
	}
	if (base + lo * (long long)t->size < 0)
		return -EINVAL;
	sp->lo = base + lo * (long long)t->size;
	sp->hi = base + (hi + 1) * (long long)t->size;
	for (p = ap->partition; p < (__u32)ap->partition + ap->partitions &&
	     p < KBIN_RACE_PARTS; p++)
		sp->mask[p / 64] |= 1ULL << (p % 64);
	return 0;
}

/* emit an operand's span; an unused operand (KBIN_SPACE_NONE) has none */
static int kbin_race_ap(const struct kbin_compute_ap *ap, int write,
			__u32 access, kbin_race_emit_fn emit, void *ctx)
{
	struct kbin_race_span sp;
	int ret;

	if (ap->space != KBIN_SPACE_SBUF && ap->space != KBIN_SPACE_PSUM)
		return 0;
	ret = kbin_race_ap_span(ap, 0, write, access, &sp);
	return ret ? ret : emit(ctx, &sp);
}

/* a COPY with a run-time offset: the moved side's hull over [lo, hi) */
static int kbin_race_dyn(const struct kbin_compute_record *r, __u32 access,
			 kbin_race_emit_fn emit, void *ctx)
{
	int out = r->dyn.side == KBIN_DYN_OUT;
	const struct kbin_compute_ap *moved = out ? &r->out : &r->in0;
	struct kbin_race_span a, b;
	int ret;

	ret = kbin_race_ap_span(moved, (long long)r->dyn.lo * r->dyn.step, out,
				access, &a);
	ret = ret ? ret : kbin_race_ap_span(moved, ((long long)r->dyn.hi - 1) *
					    r->dyn.step, out, access, &b);
	if (ret)
		return ret;
	if (b.lo < a.lo)
		a.lo = b.lo;
	if (b.hi > a.hi)
		a.hi = b.hi;
	ret = emit(ctx, &a);
	return ret ? ret : kbin_race_ap(out ? &r->in0 : &r->out, !out, access,
					emit, ctx);
}

/**
 * kbin_race_compute() - the footprint of a compute instruction of
 *	neuronsim's encoding (Documentation/compute.rst).
 * @rec: the 64-byte record, checked by kbin_compute_check().
 * @access: passed on in each span.
 * @emit: receives each span.
 * @ctx: passed to @emit.
 *
 * Each operand is one span: its partitions, and in each the bytes from
 * its lowest to its highest element (a bounding range: elements between
 * strided ones count as touched).  out is written (and read by an
 * accumulating MATMULT), in0 and in1 are read, for the operations that
 * use them; a COPY with a run-time offset covers every offset the
 * register may take.  Registers are the engine's own and need no order.
 *
 * Return: 0, -EINVAL for an operand of unknown dtype, or what @emit
 * returned that was not 0.
 */
int kbin_race_compute(const __u8 *rec, __u32 access, kbin_race_emit_fn emit,
		      void *ctx)
{
	struct kbin_compute_record r;
	int ret = 0;

	memcpy(&r, rec, sizeof(r));
	if (r.opcode == KBIN_COP_REG_TEST)
		return 0;
	if (r.opcode == KBIN_COP_REG_LOAD)
		return kbin_race_ap(&r.in0, 0, access, emit, ctx);
	if (r.opcode == KBIN_COP_COPY && (r.flags & KBIN_COMPUTE_F_DYN))
		return kbin_race_dyn(&r, access, emit, ctx);
	if (r.opcode != KBIN_COP_MEMSET)
		ret = kbin_race_ap(&r.in0, 0, access, emit, ctx);
	if (!ret && (r.opcode == KBIN_COP_TENSOR_TENSOR ||
		     r.opcode == KBIN_COP_MATMULT ||
		     (r.opcode == KBIN_COP_TENSOR_SCALAR &&
		      !(r.flags & KBIN_COMPUTE_F_IMM))))
		ret = kbin_race_ap(&r.in1, 0, access, emit, ctx);
	if (!ret && r.opcode == KBIN_COP_MATMULT &&
	    (r.flags & KBIN_COMPUTE_F_ACCUMULATE))
		ret = kbin_race_ap(&r.out, 0, access, emit, ctx);
	if (!ret)
		ret = kbin_race_ap(&r.out, 1, access, emit, ctx);
	return ret;
}

/**
 * kbin_race_overlap() - where two spans touch the same bytes.
 * @a: a span.
 * @b: a span.
 * @out: out, when they do: the bytes and partitions of both (@a's other
 *	fields).
 *
 * Return: 1 when @a and @b share a space, a variable, a byte and a
 * partition, else 0.
 */
int kbin_race_overlap(const struct kbin_race_span *a,
		      const struct kbin_race_span *b,
		      struct kbin_race_span *out)
{
	__u64 m0 = a->mask[0] & b->mask[0], m1 = a->mask[1] & b->mask[1];

	if (a->space != b->space || a->var_id != b->var_id ||
	    a->hi <= b->lo || b->hi <= a->lo || !(m0 | m1))
		return 0;
	*out = *a;
	out->lo = a->lo > b->lo ? a->lo : b->lo;
	out->hi = a->hi < b->hi ? a->hi : b->hi;
	out->mask[0] = m0;
	out->mask[1] = m1;
	return 1;
}

/**
 * kbin_race_shadow_size() - lay out a shadow's cells.
 * @sh: @var_size, @num_vars and @var_first (an array of @num_vars) set;
 *	the geometry, @var_shift, @var_first[] and @num_cells are filled in.
 * @g: the generation (the SBUF and PSUM geometry).
 * @max_var_cells: cells all variables may take together: a variable's
 *	cells grow from 32 bytes by powers of two until they fit.
 *
 * Return: the cells the caller allocates (@sh->num_cells).
 */
__u64 kbin_race_shadow_size(struct kbin_race_shadow *sh,
			    const struct kbin_gen *g, __u64 max_var_cells)
{
	__u64 n, cells;
	__u32 v, cell = 1U << KBIN_RACE_CELL_SHIFT;

	sh->sbuf_parts = g->sbuf_partitions;
	sh->sbuf_cells = (g->sbuf_partition_size + cell - 1) >> KBIN_RACE_CELL_SHIFT;
	sh->psum_parts = kbin_gen_psum_partitions(g);
	sh->psum_cells = (kbin_gen_psum_partition_size(g) + cell - 1) >>
			 KBIN_RACE_CELL_SHIFT;
	n = (__u64)sh->sbuf_parts * sh->sbuf_cells +
	    (__u64)sh->psum_parts * sh->psum_cells;
	sh->var_shift = KBIN_RACE_CELL_SHIFT;
	for (;;) {
		cells = 0;
		for (v = 0; v < sh->num_vars; v++) {
			cells += (sh->var_size[v] + (1ULL << sh->var_shift) - 1) >>
				 sh->var_shift;
			kbin_race_tick(&sh->ticks);
		}
		if (cells <= max_var_cells || sh->var_shift >= 40)
			break;
		sh->var_shift++;
	}
	for (v = 0; v < sh->num_vars; v++) {
		kbin_race_tick(&sh->ticks);
		sh->var_first[v] = n;
		n += (sh->var_size[v] + (1ULL << sh->var_shift) - 1) >> sh->var_shift;
	}
	sh->num_cells = n;
	return n;
}

/*
 * Keep access @node (1 + the node) over bytes @a .. @b in one kind of a
 * cell's slots (@n, @lo, @hi: KBIN_RACE_CELL_KEEP each, oldest first).
 * A slot whose bytes the access covers is dropped (a later access to
 * them meets this one first; for @reads only when the slot's read is
 * ordered before this one: a later write after this read need not be
 * after an unordered earlier one); a slot of the same node next to its bytes
 * widens; else a free slot takes it; else the oldest slot is given up
 * (Documentation/races.rst, the shadow).  A slot never stands for bytes
 * its node did not touch: what the shadow reports is a conflict.
 */
static void kbin_race_keep(const struct kbin_race_order *o, int reads,
			   __u32 *n, __u16 *lo, __u16 *hi, __u32 node,
			   __u16 a, __u16 b)
{
	__u32 i, k = 0;

	for (i = 0; i < KBIN_RACE_CELL_KEEP; i++)
		if (n[i] == node && a <= hi[i] + 1 && lo[i] <= b + 1) {
			lo[i] = lo[i] < a ? lo[i] : a;
			hi[i] = hi[i] > b ? hi[i] : b;
			return;
		}
	/* drop the covered ones, keep the rest in their order */
	for (i = 0; i < KBIN_RACE_CELL_KEEP; i++) {
		if (!n[i] || (a <= lo[i] && hi[i] <= b &&
			      (!reads || kbin_race_before(o, n[i] - 1, node - 1))))
			continue;
		n[k] = n[i];
		lo[k] = lo[i];
		hi[k] = hi[i];
		k++;
	}
	if (k == KBIN_RACE_CELL_KEEP) {
		/* full: the oldest goes */
		for (i = 1; i < KBIN_RACE_CELL_KEEP; i++) {
			n[i - 1] = n[i];
			lo[i - 1] = lo[i];
			hi[i - 1] = hi[i];
		}
		k--;
	}
	n[k] = node;
	lo[k] = a;
	hi[k] = b;
	for (i = k + 1; i < KBIN_RACE_CELL_KEEP; i++)
		n[i] = 0;
}

/* the first slot of @n that touches @a .. @b and is not before @node */
static __u32 kbin_race_conflict(const struct kbin_race_order *o,
				const __u32 *n, const __u16 *lo,
				const __u16 *hi, __u32 node, __u16 a, __u16 b)
{
	__u32 i;

	for (i = 0; i < KBIN_RACE_CELL_KEEP; i++)
		if (n[i] && n[i] - 1 != node && a <= hi[i] && lo[i] <= b &&
		    !kbin_race_before(o, n[i] - 1, node))
			return n[i];
	return 0;
}

/*
 * One cell's check and update: the span covers bytes @a .. @b (inclusive,
 * in the cell's units) of it.  A conflict needs common bytes: accesses to
 * different bytes of one cell are not compared.
 */
static void kbin_race_cell(struct kbin_race_shadow *sh, struct kbin_race_cell *c,
			   const struct kbin_race_span *s, __u32 part, __u64 byte,
			   __u16 a, __u16 b)
{
	__u32 prev, i;
	__u8 pw = 1;

	prev = kbin_race_conflict(sh->o, c->w, c->wlo, c->whi, s->access, a, b);
	if (!prev && s->write) {
		prev = kbin_race_conflict(sh->o, c->r, c->rlo, c->rhi, s->access,
					  a, b);
		pw = 0;
	}
	if (prev && !sh->found++) {
		sh->first.prev = prev - 1;
		sh->first.node = s->access;
		sh->first.prev_write = pw;
		sh->first.write = s->write;
		sh->first.space = s->space;
		sh->first.pad = 0;
		sh->first.var_id = s->var_id;
		sh->first.partition = part;
		sh->first.byte = byte;
	}
	if (s->write) {
		kbin_race_keep(sh->o, 0, c->w, c->wlo, c->whi, s->access + 1, a, b);
		/* the reads of the bytes it writes are behind it now */
		for (i = 0; i < KBIN_RACE_CELL_KEEP; i++)
			if (c->r[i] && a <= c->rlo[i] && c->rhi[i] <= b)
				c->r[i] = 0;
	} else {
		kbin_race_keep(sh->o, 1, c->r, c->rlo, c->rhi, s->access + 1, a, b);
	}
}

/* the bytes of cell @k (of 2^@shift bytes) that [@lo, @hi) covers, scaled */
static void kbin_race_sub(__u64 k, __u64 shift, __u64 lo, __u64 hi, __u16 *a,
			  __u16 *b)
{
	__u64 c0 = k << shift, c1 = c0 + (1ULL << shift) - 1;
	__u64 x = lo > c0 ? lo - c0 : 0, y = (hi - 1 < c1 ? hi - 1 : c1) - c0;
	__u32 down = shift > 16 ? (__u32)shift - 16 : 0;

	*a = (__u16)(x >> down);
	*b = (__u16)(y >> down);
}

/**
 * kbin_race_shadow_access() - check one span of an access against the
 *	shadow and record it there: a kbin_race_emit_fn for
 *	kbin_race_dma_side() and kbin_race_compute(), @ctx the shadow.
 * @ctx: the struct kbin_race_shadow.
 * @s: the span; its access is a node of the shadow's order.
 *
 * Each cell the span touches: a read must be ordered after the writes
 * the cell keeps, a write after its writes and its reads
 * (kbin_race_before()), when they share a byte of the cell (a cell
 * keeps up to KBIN_RACE_CELL_KEEP writes and reads, each with the bytes
 * it touched: a later access that covers an earlier one's bytes
 * replaces it, else the oldest goes when they are all taken); a
 * violation is counted, the first one kept.
 * Accesses are given in the order they happen.  A span outside the
 * shadow (a variable without cells, bytes past its end) is not checked.
 *
 * Return: 0.
 */
int kbin_race_shadow_access(void *ctx, const struct kbin_race_span *s)
{
	struct kbin_race_shadow *sh = ctx;
	__u64 base, lo, hi, k, shift = KBIN_RACE_CELL_SHIFT, cells;
	__u32 p, parts;
	__u16 a, b;

	if (s->hi <= s->lo)
		return 0;
	if (s->space == KBIN_RACE_VAR) {
		if (s->var_id >= sh->num_vars ||
		    sh->var_first[s->var_id] >= sh->num_cells)
			return 0;
		shift = sh->var_shift;
		base = sh->var_first[s->var_id];
		cells = (sh->var_size[s->var_id] + (1ULL << shift) - 1) >> shift;
		parts = 1;
	} else if (s->space == KBIN_RACE_SBUF) {
		base = 0;
		cells = sh->sbuf_cells;
		parts = sh->sbuf_parts;
	} else {
		base = (__u64)sh->sbuf_parts * sh->sbuf_cells;
		cells = sh->psum_cells;
		parts = sh->psum_parts;
	}
	lo = s->lo >> shift;
	hi = (s->hi - 1) >> shift;
	if (hi >= cells)
		hi = cells - 1;
	for (p = 0; p < parts && p < KBIN_RACE_PARTS; p++) {
		if (s->space != KBIN_RACE_VAR && !(s->mask[p / 64] >> (p % 64) & 1))
			continue;
		for (k = lo; k <= hi && lo < cells; k++) {
			kbin_race_tick(&sh->ticks);
			kbin_race_sub(k, shift, s->lo, s->hi, &a, &b);
			kbin_race_cell(sh, &sh->cells[base + (__u64)p * cells + k], s,
				       s->space == KBIN_RACE_VAR ? 0 : p, k << shift,
				       a, b);
		}
	}
	return 0;
}
