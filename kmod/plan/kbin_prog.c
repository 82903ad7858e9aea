// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * kbin_prog.c - the sync layer of the engine programs: the record
 * decoder, the rules of a subgraph's five streams (one walk that checks a
 * plan's decoded entries, or writes them for the KBIN writer), the texts
 * of its verdicts and the cost model.  Documentation/kbin-format.rst
 * ("Program section") lists the rules, Documentation/execute.rst the
 * meaning of every field and the costs.
 */

#include "kbin_compat.h"
#include "kbin_dma.h"
#include "kbin_prog.h"
#include "kbin_compute.h"

/**
 * kbin_prog_stream_count() - the instructions of an instruction stream
 *	of @bytes bytes (a NEFF member such as PE.bin, or the records of a
 *	program section).
 * @bytes: its length in bytes.
 * @num: out: @bytes / KBIN_PROG_RECORD_SIZE.
 *
 * Return: KBIN_OK; KBIN_ERR_PROG_COUNT when @bytes is not a multiple of
 * KBIN_PROG_RECORD_SIZE (64) or holds more than 2^32 - 1 records.
 */
unsigned int kbin_prog_stream_count(__u64 bytes, __u32 *num)
{
	if (bytes % KBIN_PROG_RECORD_SIZE ||
	    bytes / KBIN_PROG_RECORD_SIZE > 0xffffffffULL)
		return KBIN_ERR_PROG_COUNT;
	*num = (__u32)(bytes / KBIN_PROG_RECORD_SIZE);
	return KBIN_OK;
}

/**
 * kbin_prog_decode() - decode the sync layer of one instruction record.
 * @rec: KBIN_PROG_RECORD_SIZE (64) bytes: byte 0 the opcode, bytes 4..11
 *	the sync header (wait mode, wait semaphore, update mode, update
 *	semaphore, the little-endian u32 waited for), bytes 12..63 the
 *	payload (a 0xC1's queue name, a 0xD4's semaphore and increment at
 *	13 and 14).
 * @out: the entry: every field as the record holds it, the class of the
 *	opcode, and @out->block KBIN_PROG_NO_BLOCK: which block a trigger
 *	starts depends on the triggers before it (kbin_prog_check_sg()).
 *
 * Never fails: the modes are copied as they are, and the rules of
 * kbin_prog_check_sg() say which values a plan may hold.
 */
void kbin_prog_decode(const __u8 *rec, struct kbin_prog_sync *out)
{
	out->opcode = rec[0];
	switch (rec[0]) {
	case KBIN_PROG_OP_WAIT:
		out->cls = KBIN_PROG_CLASS_WAIT;
		break;
	case KBIN_PROG_OP_TRIGGER:
		out->cls = KBIN_PROG_CLASS_TRIGGER;
		break;
	case KBIN_PROG_OP_DMA:
		out->cls = KBIN_PROG_CLASS_DMA;
		break;
	default:
		out->cls = KBIN_PROG_CLASS_COMPUTE;
		break;
	}
	out->wait_mode = rec[4];
	out->wait_sem = rec[5];
	out->update_mode = rec[6];
	out->update_sem = rec[7];
	out->wait_value = (__u32)rec[8] | (__u32)rec[9] << 8 |
			  (__u32)rec[10] << 16 | (__u32)rec[11] << 24;
	if (out->cls == KBIN_PROG_CLASS_DMA) {
		out->add_sem = rec[13];
		out->add_value = rec[14];
	} else {
		out->add_sem = 0;
		out->add_value = 0;
	}
	out->block = KBIN_PROG_NO_BLOCK;
}

static const char *const kbin_prog_class_names[KBIN_PROG_CLASS_MAX + 1] = {
	[KBIN_PROG_CLASS_COMPUTE] = "compute",
	[KBIN_PROG_CLASS_WAIT] = "wait",
	[KBIN_PROG_CLASS_TRIGGER] = "trigger",
	[KBIN_PROG_CLASS_DMA] = "dma",
};

/**
 * kbin_prog_class_str() - name an instruction class.
 * @cls: enum kbin_prog_class.
 *
 * Return: "compute", "wait", "trigger" or "dma"; "unknown" outside the
 * enum.
 */
const char *kbin_prog_class_str(unsigned int cls)
{
	return cls <= KBIN_PROG_CLASS_MAX ? kbin_prog_class_names[cls] : "unknown";
}

/* a finding of kind @why: its reason; @v already says where */
static unsigned int kbin_prog_set(struct kbin_prog_verdict *v, unsigned int why,
				  unsigned long long value,
				  unsigned long long limit, unsigned int reason)
{
	v->why = why;
	v->value = value;
	v->limit = limit;
	return reason;
}

/* NUL-terminated name of @q in the plan */
static const char *kbin_prog_qn(const struct kbin_prog_sg_args *a, __u32 q)
{
	return (const char *)a->base + a->queues[q].name;
}

static void kbin_prog_copy_name(struct kbin_prog_verdict *v, const char *s)
{
	unsigned int i;

	for (i = 0; i + 1 < sizeof(v->qname) && s[i]; i++)
		v->qname[i] = s[i];
	v->qname[i] = '\0';
}

/*
 * The queue a trigger's @name names: the queue of the block @hint (the
 * entry a plan holds) when it has that name, else the first queue of
 * that name; -1 when none has it.  Queue names are unique (checked
 * first), so the hint only saves the search.
 */
static long long kbin_prog_find_queue(const struct kbin_prog_sg_args *a,
				      const char *name, __u32 hint)
{
	__u32 q;

	if (hint < a->num_blocks) {
		q = a->blocks[hint].queue;
		if (q < a->num_queues && !strcmp(name, kbin_prog_qn(a, q)))
			return q;
	}
	for (q = 0; q < a->num_queues; q++)
		if (!strcmp(name, kbin_prog_qn(a, q)))
			return q;
	return -1;
}

/*
 * Instruction @i of stream @e (enum kbin_dma_engine): decode its record
 * into @x, resolve a trigger to its block (@count: triggers so far per
 * queue; @queues_ok: the queues can be counted) and apply the rules.
 * Return: KBIN_OK, or the first rule it breaks with @v filled in; @x
 * is the entry the record decodes to either way.
 */
static unsigned int kbin_prog_instr(const struct kbin_prog_sg_args *a,
				    __u32 e, __u32 i, __u32 *count,
				    int queues_ok, struct kbin_prog_sync *x,
				    struct kbin_prog_verdict *v)
{
	const __u8 *rec = a->records[e - 1] + (__u64)i * KBIN_PROG_RECORD_SIZE;
	const struct kbin_dma_queue *q;
	const char *name;
	__u32 n, hint, blk;
	long long qi;

	kbin_prog_decode(rec, x);
	v->engine = e;
	v->instr = i;
	v->opcode = x->opcode;
	if (x->wait_mode != KBIN_PROG_WAIT_NONE && x->wait_mode != KBIN_PROG_WAIT_GE)
		return kbin_prog_set(v, KBIN_PROG_WHY_WAIT_MODE, x->wait_mode, 0,
				     KBIN_ERR_PROG_MODE);
	if (x->update_mode != KBIN_PROG_UPDATE_NONE &&
	    x->update_mode != KBIN_PROG_UPDATE_INC)
		return kbin_prog_set(v, KBIN_PROG_WHY_UPDATE_MODE, x->update_mode, 0,
				     KBIN_ERR_PROG_MODE);
	if (x->wait_mode == KBIN_PROG_WAIT_GE && x->wait_sem >= a->semaphores)
		return kbin_prog_set(v, KBIN_PROG_WHY_WAIT_SEM, x->wait_sem,
				     a->semaphores, KBIN_ERR_PROG_SEMAPHORE);
	if (x->update_mode == KBIN_PROG_UPDATE_INC && x->update_sem >= a->semaphores)
		return kbin_prog_set(v, KBIN_PROG_WHY_UPDATE_SEM, x->update_sem,
				     a->semaphores, KBIN_ERR_PROG_SEMAPHORE);
	if (x->cls == KBIN_PROG_CLASS_DMA && x->add_sem >= a->semaphores)
		return kbin_prog_set(v, KBIN_PROG_WHY_DMA_SEM, x->add_sem,
				     a->semaphores, KBIN_ERR_PROG_SEMAPHORE);
	if (x->cls == KBIN_PROG_CLASS_COMPUTE && a->gen &&
	    (a->flags & KBIN_PROG_F_COMPUTE))
		return kbin_compute_check(rec, e, a->gen, v);
	if (x->cls != KBIN_PROG_CLASS_TRIGGER)
		return KBIN_OK;

	name = (const char *)rec + 12;
	for (n = 0; n < KBIN_PROG_QNAME_MAX && name[n]; n++)
		;
	if (!n || n == KBIN_PROG_QNAME_MAX)
		return kbin_prog_set(v, KBIN_PROG_WHY_NAME, n, KBIN_PROG_QNAME_MAX,
				     KBIN_ERR_PROG_TRIGGER);
	kbin_prog_copy_name(v, name);
	if (!queues_ok)
		return KBIN_OK;	/* the subgraph's verdict is out already */
	hint = a->sync[e - 1] ? a->sync[e - 1][i].block : KBIN_PROG_NO_BLOCK;
	qi = kbin_prog_find_queue(a, name, hint);
	if (qi < 0)
		return kbin_prog_set(v, KBIN_PROG_WHY_NO_QUEUE, 0, 0,
				     KBIN_ERR_PROG_TRIGGER);
	v->queue = qi;
	q = &a->queues[qi];
	if (q->owner != e)
		return kbin_prog_set(v, KBIN_PROG_WHY_OTHER_ENGINE, q->owner, e,
				     KBIN_ERR_PROG_TRIGGER);
	n = count[qi];
	if (n >= q->num_blocks)
		return kbin_prog_set(v, KBIN_PROG_WHY_EXTRA_TRIGGER, n, q->num_blocks,
				     KBIN_ERR_PROG_TRIGGER_COUNT);
	count[qi] = n + 1;
	v->block = n;
	blk = q->first_block - a->first_block + n;
	x->block = blk;
	if (a->blocks[blk].semaphore >= a->semaphores)
		return kbin_prog_set(v, KBIN_PROG_WHY_BLOCK_SEM,
				     a->blocks[blk].semaphore, a->semaphores,
				     KBIN_ERR_PROG_SEMAPHORE);
	return KBIN_OK;
}

/* the first field of @have that is not @want's, as a SYNC finding */
static unsigned int kbin_prog_diff(const struct kbin_prog_sync *have,
				   const struct kbin_prog_sync *want,
				   struct kbin_prog_verdict *v)
{
	const struct {
		const char *name;
		__u32 have;
		__u32 want;
	} f[] = {
		{ "opcode", have->opcode, want->opcode },
		{ "cls", have->cls, want->cls },
		{ "wait_mode", have->wait_mode, want->wait_mode },
		{ "wait_sem", have->wait_sem, want->wait_sem },
		{ "update_mode", have->update_mode, want->update_mode },
		{ "update_sem", have->update_sem, want->update_sem },
		{ "add_sem", have->add_sem, want->add_sem },
		{ "add_value", have->add_value, want->add_value },
		{ "wait_value", have->wait_value, want->wait_value },
		{ "block", have->block, want->block },
	};
	unsigned int i;

	for (i = 0; i < KBIN_ARRAY_SIZE(f); i++)
		if (f[i].have != f[i].want) {
			v->field = f[i].name;
			return kbin_prog_set(v, KBIN_PROG_WHY_SYNC, f[i].have,
					     f[i].want, KBIN_ERR_PROG_SYNC);
		}
	return KBIN_OK;
}

/* the subgraph's queues: few enough to count, each name once */
static unsigned int kbin_prog_queues(const struct kbin_prog_sg_args *a,
				     struct kbin_prog_verdict *v)
{
	__u32 j, k;

	if (a->num_queues > KBIN_PROG_MAX_QUEUES)
		return kbin_prog_set(v, KBIN_PROG_WHY_QUEUES, a->num_queues,
				     KBIN_PROG_MAX_QUEUES, KBIN_ERR_PROG_TRIGGER);
	for (k = 1; k < a->num_queues; k++)
		for (j = 0; j < k; j++)
			if (!strcmp(kbin_prog_qn(a, j), kbin_prog_qn(a, k))) {
				v->queue = k;
				kbin_prog_copy_name(v, kbin_prog_qn(a, k));
				return kbin_prog_set(v, KBIN_PROG_WHY_SAME_NAME, j, k,
						     KBIN_ERR_PROG_TRIGGER);
			}
	return KBIN_OK;
}

/**
 * kbin_prog_verdict_init() - a verdict of no finding.
 * @v: the verdict: why KBIN_PROG_WHY_NONE, no engine, every index -1,
 *	empty names.
 */
void kbin_prog_verdict_init(struct kbin_prog_verdict *v)
{
	v->why = KBIN_PROG_WHY_NONE;
	v->engine = 0;
	v->instr = -1;
	v->queue = -1;
	v->block = -1;
	v->value = 0;
	v->limit = 0;
	v->field = "";
	v->opcode = 0;
	v->qname[0] = '\0';
}

/**
 * kbin_prog_check_sg() - apply the rules of one subgraph's program, and
 *	either check the decoded entries a plan holds or write them.
 * @a: the subgraph's streams, queues and blocks.  With @a->sync the walk
 *	stops at the first broken rule; with @a->fill (every stream that
 *	has instructions has one) it writes every entry (a trigger it
 *	cannot resolve gets KBIN_PROG_NO_BLOCK) and returns the first
 *	broken rule at the end.
 * @v: out: where and why, for the first broken rule.
 *
 * The rules, in the order they are applied (Documentation/kbin-format.rst,
 * "Program section"): a subgraph whose streams hold instructions has at
 * most KBIN_PROG_MAX_QUEUES DMA queues, each name once; then stream by
 * stream (PE, ACT, POOL, DVE, SP), instruction by instruction: the wait
 * mode (byte 4) is 0 or 5 and the update mode (byte 6) 0 or 19; the
 * semaphores a wait, an update and a 0xD4 name are below
 * @a->semaphores; a 0xC1's queue name (bytes 12..63) is NUL-terminated,
 * not empty, names a queue of the subgraph that its engine owns, and
 * its n-th trigger of a queue starts block n (ids 0 .. blocks - 1),
 * whose semaphore is below @a->semaphores; the entry equals the decoded
 * record.  At the end every queue has had as many triggers as blocks.
 * O(instructions + queues^2); calls kbin_yield() every 4096 instructions.
 *
 * Return: KBIN_OK, or KBIN_ERR_PROG_MODE, _SEMAPHORE, _TRIGGER,
 * _TRIGGER_COUNT or _SYNC (enum kbin_check_reason).
 */
unsigned int kbin_prog_check_sg(const struct kbin_prog_sg_args *a,
				struct kbin_prog_verdict *v)
{
	__u32 count[KBIN_PROG_MAX_QUEUES] = { 0 };
	struct kbin_prog_verdict tmp;
	struct kbin_prog_sync x;
	unsigned int r, first = KBIN_OK;
	int queues_ok = 1, filling = 0;
	__u64 total = 0;
	__u32 e, i, k;

	kbin_prog_verdict_init(v);
	for (e = 0; e < KBIN_PROG_ENGINES; e++) {
		total += a->num[e];
		if (a->fill[e])
			filling = 1;
	}
	if (total) {
		first = kbin_prog_queues(a, v);
		if (first && !filling)
			return first;
		queues_ok = !first || v->why == KBIN_PROG_WHY_SAME_NAME;
	}
	for (e = 1; e <= KBIN_PROG_ENGINES; e++) {
		for (i = 0; i < a->num[e - 1]; i++) {
			kbin_prog_verdict_init(&tmp);
			r = kbin_prog_instr(a, e, i, count, queues_ok, &x, &tmp);
			if (filling)
				a->fill[e - 1][i] = x;
			else if (!r)
				r = kbin_prog_diff(&a->sync[e - 1][i], &x, &tmp);
			if (r && !first) {
				first = r;
				*v = tmp;
			}
			if (first && !filling)
				return first;
			if (!((i + 1) & 4095))
				kbin_yield();
		}
	}
	if (first || !queues_ok)
		return first;
	for (k = 0; k < a->num_queues; k++) {
		const struct kbin_dma_queue *q = &a->queues[k];
		/* no instructions: any number of queues, none triggered */
		__u32 got = k < KBIN_PROG_MAX_QUEUES ? count[k] : 0;

		if (got != q->num_blocks) {
			v->engine = q->owner;
			v->queue = k;
			kbin_prog_copy_name(v, kbin_prog_qn(a, k));
			return kbin_prog_set(v, KBIN_PROG_WHY_MISSING_TRIGGERS,
					     got, q->num_blocks,
					     KBIN_ERR_PROG_TRIGGER_COUNT);
		}
	}
	return KBIN_OK;
}

/**
 * kbin_prog_why() - why a program broke a rule, as text, e.g. "trigger
 *	names queue 'qFoo', which is not a DMA queue of the subgraph".  The
 *	caller says where (the checker: subgraph, stream and instruction;
 *	the compiler: the NEFF's member and names).
 * @v: a verdict of kbin_prog_check_sg().
 * @buf: output, NUL-terminated, truncated to @len bytes.
 * @len: bytes of @buf.
 *
 * Return: @buf.
 */
char *kbin_prog_why(const struct kbin_prog_verdict *v, char *buf,
		    unsigned long len)
{
	const char *eng = kbin_dma_engine_str(v->engine);

	if (!buf || !len)
		return buf;
	switch (v->why) {
	case KBIN_PROG_WHY_WAIT_MODE:
		snprintf(buf, len,
			 "wait mode %llu (record byte 4) is not 0 (none) or %u (semaphore >= value)",
			 v->value, KBIN_PROG_WAIT_GE);
		break;
	case KBIN_PROG_WHY_UPDATE_MODE:
		snprintf(buf, len,
			 "update mode %llu (record byte 6) is not 0 (none) or %u (semaphore += 1 on completion)",
			 v->value, KBIN_PROG_UPDATE_INC);
		break;
	case KBIN_PROG_WHY_WAIT_SEM:
		snprintf(buf, len,
			 "it waits on semaphore %llu, past the NeuronCore's %llu semaphores",
			 v->value, v->limit);
		break;
	case KBIN_PROG_WHY_UPDATE_SEM:
		snprintf(buf, len,
			 "it updates semaphore %llu, past the NeuronCore's %llu semaphores",
			 v->value, v->limit);
		break;
	case KBIN_PROG_WHY_DMA_SEM:
		snprintf(buf, len,
			 "its DMA adds to semaphore %llu (record byte 13), past the NeuronCore's %llu semaphores",
			 v->value, v->limit);
		break;
	case KBIN_PROG_WHY_BLOCK_SEM:
		snprintf(buf, len,
			 "it starts block %lld of queue '%s', whose semaphore %llu is past the NeuronCore's %llu semaphores",
			 v->block, v->qname, v->value, v->limit);
		break;
	case KBIN_PROG_WHY_NAME:
		snprintf(buf, len,
			 "the trigger's queue name (record bytes 12..63) is %s",
			 v->value ? "not NUL-terminated" : "empty");
		break;
	case KBIN_PROG_WHY_NO_QUEUE:
		snprintf(buf, len,
			 "the trigger names queue '%s', which is not a DMA queue of the subgraph",
			 v->qname);
		break;
	case KBIN_PROG_WHY_OTHER_ENGINE:
		snprintf(buf, len,
			 "the trigger names queue '%s', which %s owns, not %s",
			 v->qname, kbin_dma_engine_str((unsigned int)v->value), eng);
		break;
	case KBIN_PROG_WHY_QUEUES:
		snprintf(buf, len,
			 "the subgraph has %llu DMA queues; a program may name at most %llu",
			 v->value, v->limit);
		break;
	case KBIN_PROG_WHY_SAME_NAME:
		snprintf(buf, len, "DMA queues %llu and %llu are both named '%s'",
			 v->value, v->limit, v->qname);
		break;
	case KBIN_PROG_WHY_EXTRA_TRIGGER:
		snprintf(buf, len,
			 "trigger %llu of queue '%s' (counting from 0) has no block: the queue has %llu",
			 v->value, v->qname, v->limit);
		break;
	case KBIN_PROG_WHY_MISSING_TRIGGERS:
		snprintf(buf, len,
			 "queue '%s' has %llu blocks but the %s stream triggers it %llu times",
			 v->qname, v->limit, eng, v->value);
		break;
	case KBIN_PROG_WHY_SYNC:
		snprintf(buf, len,
			 "its decoded entry's %s is %llu, its record says %llu",
			 v->field, v->value, v->limit);
		break;
	default:
		kbin_compute_why(v, buf, len);
		break;
	}
	return buf;
}

/*
 * Virtual nanoseconds per instruction, by engine (enum kbin_dma_engine
 * - 1) and class (enum kbin_prog_class): the cost model's constants,
 * Documentation/execute.rst.
 */
static const __u16 kbin_prog_ns[KBIN_PROG_ENGINES][KBIN_PROG_CLASS_MAX + 1] = {
	/*  compute, wait, trigger, dma */
	{ 128, 8, 16, 64 },	/* PE */
	{ 64, 8, 16, 64 },	/* ACT */
	{ 64, 8, 16, 64 },	/* POOL */
	{ 64, 8, 16, 64 },	/* DVE */
	{ 32, 8, 16, 64 },	/* SP */
};

/**
 * kbin_prog_instr_ns() - what one instruction costs in virtual time.
 * @engine: enum kbin_dma_engine.
 * @cls: enum kbin_prog_class.
 *
 * Return: nanoseconds from its start to its completion; 0 for an engine
 * or class outside the enums.
 */
__u64 kbin_prog_instr_ns(unsigned int engine, unsigned int cls)
{
	if (engine < 1 || engine > KBIN_PROG_ENGINES || cls > KBIN_PROG_CLASS_MAX)
		return 0;
	return kbin_prog_ns[engine - 1][cls];
}

/**
 * kbin_prog_block_bytes() - the bytes a DMA block writes: the sum of its
 *	descriptors' to-side bytes (kbin_dma_pattern()).
 * @descs: its descriptors, checked by the plan checker.
 * @n: how many.
 *
 * Return: bytes, saturated at 2^64 - 1; a side the pattern rules refuse
 * counts 0.
 */
__u64 kbin_prog_block_bytes(const struct kbin_dma_desc *descs, __u32 n)
{
	struct kbin_dma_pat p;
	__u64 sum = 0, t;
	__u32 i;

	for (i = 0; i < n; i++) {
		if (kbin_dma_pattern(&descs[i].to, &p))
			continue;
		sum = __builtin_add_overflow(sum, p.bytes, &t) ? ~0ULL : t;
	}
	return sum;
}

/**
 * kbin_prog_block_ns() - what a DMA block of @bytes bytes costs in
 *	virtual time: KBIN_PROG_BLOCK_LATENCY_NS, then its bytes at the
 *	generation's DMA rate, rounded up to a nanosecond.
 * @g: the target generation (its dma_bytes_per_us).
 * @bytes: the block's bytes (kbin_prog_block_bytes()).
 *
 * Return: nanoseconds, saturated at 2^64 - 1; the latency alone when
 * the generation has no rate.
 */
__u64 kbin_prog_block_ns(const struct kbin_gen *g, __u64 bytes)
{
	__u64 rate = g ? g->dma_bytes_per_us : 0, ns, t;

	if (!rate)
		return KBIN_PROG_BLOCK_LATENCY_NS;
	if (bytes > (~0ULL - rate) / 1000)
		return ~0ULL;
	ns = (bytes * 1000 + rate - 1) / rate;
	return __builtin_add_overflow(ns, (__u64)KBIN_PROG_BLOCK_LATENCY_NS, &t) ?
	       ~0ULL : t;
}
