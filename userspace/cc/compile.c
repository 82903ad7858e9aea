// SPDX-License-Identifier: GPL-2.0
/*
 * compile.c - the pipeline: model -> the front end's per-var rules ->
 * mem_ref build tree in a symbol table -> dense-id rule -> the DMA
 * program's front-end rules (names, semaphores) -> scratchpad sizes ->
 * dump in var_id order, the DMA section and the instruction streams ->
 * KBIN writer -> plan checker, the only validator of what the plan must
 * satisfy, whose verdict is reported with the NEFF's names
 * (Documentation/compiler.rst, "The pipeline"; what each kind needs is
 * its row in the kind table, Documentation/hardware.rst; the rules are
 * Documentation/kbin-format.rst's).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kbin_check.h"
#include "kbin_dma.h"
#include "kbin_writer.h"
#include "memref.h"
#include "nscc_internal.h"

#define VAR_FMT "%s: var '%s' (var_id %u): "
#define VAR_ARGS(sg, v) (sg)->name, (v)->name, (v)->var_id

/*
 * The alignment a var gets when def.json gives none: 64 bytes for the
 * kinds whose size is the var's own (the compiler's choice), 1 for the
 * others, whose dump writes alignment 1 anyway.
 */
static uint64_t default_alignment(uint32_t t)
{
	return kbin_kind(t)->size == KBIN_SIZE_VAR ? 64 : 1;
}

/*
 * Index of the first control character (0x00..0x1f, 0x7f) of @s, or -1.
 * The plan checker refuses them in names and dtypes (they would forge
 * rows of the tab-separated debugfs tables).
 */
static long ctrl_char(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	long i;

	for (i = 0; p[i]; i++)
		if (p[i] < 0x20 || p[i] == 0x7f)
			return i;
	return -1;
}

struct sem_index;

/* what the compiler keeps of one subgraph between its checks and its dump */
struct sg_state {
	struct nscc_symtab *st;
	struct sem_index *sems;	/* per DMA queue, its semaphore index */
	uint8_t *skipped;	/* per var: skipped as a duplicate */
};

/* The rules one var must follow on its own (Documentation/compiler.rst). */
static int check_var(const struct nscc_subgraph *sg, const struct nscc_var *v,
		     uint64_t *alignment, struct nscc_err *err)
{
	size_t n = v->name ? strlen(v->name) : 0;

	if (n == 0 || n >= KBIN_NAME_MAX)
		return nscc_errf(err, -EINVAL, VAR_FMT "name has %zu characters, allowed 1..%u",
				 sg->name, v->name ? v->name : "", v->var_id,
				 n, KBIN_NAME_MAX - 1);
	if (!kbin_kind_valid(v->mr_type))
		return nscc_errf(err, -EINVAL, VAR_FMT "type: mr_type %u is not a kind",
				 VAR_ARGS(sg, v), v->mr_type);
	if (kbin_kind(v->mr_type)->size == KBIN_SIZE_VAR && !v->has_size)
		return nscc_errf(err, -EINVAL, VAR_FMT "missing field 'size'",
				 VAR_ARGS(sg, v));
	*alignment = v->alignment ? v->alignment : default_alignment(v->mr_type);
	if (*alignment & (*alignment - 1))
		return nscc_errf(err, -EINVAL, VAR_FMT "alignment %llu is not a power of two (libnrt: " NSCC_LIBNRT_ALIGNMENT ")",
				 VAR_ARGS(sg, v), (unsigned long long)*alignment);
	if (*alignment > KBIN_MAX_ALIGNMENT)
		return nscc_errf(err, -EINVAL, VAR_FMT "alignment %llu is over the maximum %llu",
				 VAR_ARGS(sg, v), (unsigned long long)*alignment,
				 (unsigned long long)KBIN_MAX_ALIGNMENT);
	/* the writer takes at most KBIN_MAX_LIST entries */
	if (kbin_kind(v->mr_type)->variant == KBIN_VARIANT_LIST &&
	    v->list_len > KBIN_MAX_LIST)
		return nscc_errf(err, -E2BIG, VAR_FMT "list has %u entries, at most %u",
				 VAR_ARGS(sg, v), v->list_len, KBIN_MAX_LIST);
	return 0;
}

/*
 * max(offset + size) over the virtual vars each header size covers, by
 * the arena table (kbin_backing(), hardware.rst "Scratchpad arenas"):
 * local over the LOCAL-backed ones, shared over the SHARED-backed ones.
 * SHARDED and MAIN arenas have no header size: the loader sizes them by
 * their vars.  A tmp-buf is an HBM allocation of its own, charged to
 * SCRATCHPAD_NOT_SHARED when staged: it backs no scratchpad page.
 */
static void scratchpad_sizes(const struct nscc_subgraph *sg,
			     const uint8_t *skipped, uint64_t *local,
			     uint64_t *shared)
{
	uint32_t i;

	*local = sg->local_scratchpad_size;
	*shared = sg->shared_scratchpad_size;
	for (i = 0; i < sg->num_vars; i++) {
		const struct nscc_var *v = &sg->vars[i];
		uint64_t end = v->offset + v->size;
		uint64_t *sz;

		if (skipped[i] ||
		    kbin_kind(v->mr_type)->placement != KBIN_PLACE_BACKING_SP)
			continue;
		switch (kbin_backing(v->backing_buf)->size) {
		case KBIN_ARENA_SIZE_LOCAL:
			sz = local;
			break;
		case KBIN_ARENA_SIZE_SHARED:
			sz = shared;
			break;
		default:
			continue;
		}
		if (end > *sz)
			*sz = end;
	}
}

/* ---- DMA programs (Documentation/relocation.rst) ---- */

/*
 * A queue's semaphore index: its set's (semaphore, entry) pairs sorted by
 * semaphore, built once per queue, so that looking up every block's
 * semaphore is a binary search: O((entries + blocks) log entries) for any
 * set (a scan of the set per block took 15 s for a 2^20-entry set and
 * 20,000 blocks; a hash table on the semaphore's bits, which a set can be
 * made to collide in, as long).  8 bytes per semaphore: at most 8 MiB for
 * a set of KBIN_MAX_LIST entries.
 */
struct sem_entry {
	uint32_t sem;
	uint32_t entry;
};

struct sem_index {
	struct sem_entry *e;
	uint32_t n;
};

static int cmp_sem_entry(const void *a, const void *b)
{
	uint32_t x = ((const struct sem_entry *)a)->sem;
	uint32_t y = ((const struct sem_entry *)b)->sem;

	return x < y ? -1 : x > y;
}

/*
 * Build @ix for @q.  Return: 0; -EEXIST @q lists a semaphore twice (*@dup
 * is it); -ENOMEM.
 */
static int sem_index_build(struct sem_index *ix,
			   const struct nscc_dma_queue *q, uint32_t *dup)
{
	uint32_t k;

	ix->e = malloc(((size_t)q->num_semaphores + 1) * sizeof(*ix->e));
	if (!ix->e)
		return -ENOMEM;
	ix->n = q->num_semaphores;
	for (k = 0; k < ix->n; k++)
		ix->e[k] = (struct sem_entry){ q->semaphores[k], k };
	qsort(ix->e, ix->n, sizeof(*ix->e), cmp_sem_entry);
	for (k = 1; k < ix->n; k++)
		if (ix->e[k].sem == ix->e[k - 1].sem) {
			*dup = ix->e[k].sem;
			return -EEXIST;
		}
	return 0;
}

/* The entry of @sem in the semaphore set of index @ix, or -1. */
static long sem_index(const struct sem_index *ix, uint32_t sem)
{
	uint32_t lo = 0, hi = ix->n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (ix->e[mid].sem < sem)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < ix->n && ix->e[lo].sem == sem ? (long)ix->e[lo].entry : -1;
}

static void sem_indexes_free(struct sem_index *ix, uint32_t n)
{
	uint32_t k;

	for (k = 0; ix && k < n; k++)
		free(ix[k].e);
	free(ix);
}

/* a name the plan stores: 1..255 characters, no control character */
static int dma_name_ok(const char *s)
{
	size_t n = s ? strlen(s) : 0;

	return n && n < KBIN_NAME_MAX && ctrl_char(s) < 0;
}

/* the NEFF member a block came from, else the subgraph */
static const char *block_member(const struct nscc_subgraph *sg,
				const struct nscc_dma_block *b)
{
	uint32_t e = b->engine ? b->engine : sg->dma_queues[b->queue].owner;

	return e <= KBIN_DMA_ENGINE_MAX && sg->dma_members[e] ?
	       sg->dma_members[e] : sg->name;
}

/*
 * The queue rules; on success @ix holds each queue's semaphore index
 * (sem_indexes_free() it with the queue count).
 */
static int check_dma_queues(const struct nscc_subgraph *sg,
			    struct sem_index *ix, struct nscc_err *err)
{
	struct nscc_hash names;
	uint32_t k, dup = 0;
	int ret = 0;

	nscc_hash_init(&names);
	for (k = 0; k < sg->num_dma_queues && !ret; k++) {
		const struct nscc_dma_queue *q = &sg->dma_queues[k];

		if (!dma_name_ok(q->name)) {
			ret = nscc_errf(err, -EINVAL, "%s: dma_queue %u: name '%s' is not 1..%u characters without control characters",
					sg->name, k, q->name ? q->name : "",
					KBIN_NAME_MAX - 1);
			break;
		}
#define QERR(code, fmt, ...) \
	nscc_errf(err, code, "%s: dma_queue '%s': " fmt, sg->name, q->name, ##__VA_ARGS__)
		if (nscc_hash_put_str(&names, q->name, (void *)q, NULL)) {
			ret = QERR(-EEXIST, "the name is used twice");
			break;
		}
		if (q->fabric_path && !dma_name_ok(q->fabric_path)) {
			ret = QERR(-EINVAL, "fabric_path '%s' is not 1..%u characters without control characters",
				   q->fabric_path, KBIN_NAME_MAX - 1);
			break;
		}
		if (q->num_semaphores > KBIN_MAX_LIST) {
			ret = QERR(-E2BIG, "semaphore_set has %u entries, at most %u",
				   q->num_semaphores, KBIN_MAX_LIST);
			break;
		}
		/* a semaphore twice would make a block's entry ambiguous */
		ret = sem_index_build(&ix[k], q, &dup);
		if (ret == -EEXIST)
			ret = QERR(-EINVAL, "semaphore_set lists semaphore %u twice",
				   dup);
		else if (ret)
			ret = nscc_errf(err, ret, "out of memory");
#undef QERR
	}
	nscc_hash_fini(&names);
	return ret;
}

/* "MEMBER: queue 'Q' block ID ('COMMENT'): descriptor J" into @buf */
static const char *desc_where(const struct nscc_subgraph *sg,
			      const struct nscc_dma_block *b, uint32_t j,
			      char *buf, size_t cap)
{
	int n = snprintf(buf, cap, "%s: queue '%s' block %u", block_member(sg, b),
			 sg->dma_queues[b->queue].name, b->id);

	if (b->comment && n >= 0 && (size_t)n < cap)
		n += snprintf(buf + n, cap - n, " ('%s')", b->comment);
	if (j != UINT32_MAX && n >= 0 && (size_t)n < cap)
		snprintf(buf + n, cap - n, ": descriptor %u", j);
	return buf;
}

/*
 * The front end's rules of one subgraph's DMA program, those that bind
 * the NEFF's names to the plan's numbers: queues (names, no name or
 * semaphore twice), blocks (a queue of the subgraph, in the member of
 * its queue's owner, a semaphore of the set, a comment the writer
 * takes).  What the plan must satisfy (queue types and owners, block ids,
 * every descriptor) is the checker's: check_err() reports its verdict.
 */
static int check_dma(const struct nscc_subgraph *sg, struct sem_index *ix,
		     struct nscc_err *err)
{
	char where[NSCC_ERR_MAX / 2];
	uint32_t i;
	int ret;

	ret = check_dma_queues(sg, ix, err);
	for (i = 0; i < sg->num_dma_blocks && !ret; i++) {
		const struct nscc_dma_block *b = &sg->dma_blocks[i];
		const struct nscc_dma_queue *q;

		if (b->queue >= sg->num_dma_queues)
			return nscc_errf(err, -EINVAL, "%s: block %u: queue index %u, the subgraph has %u queues",
					 sg->name, i, b->queue, sg->num_dma_queues);
		q = &sg->dma_queues[b->queue];
		desc_where(sg, b, UINT32_MAX, where, sizeof(where));
		if (b->engine && b->engine != q->owner)
			return nscc_errf(err, -EINVAL, "%s: the block is in %s's member but queue '%s' is owned by %s",
					 where, kbin_dma_engine_str(b->engine),
					 q->name, kbin_dma_engine_str(q->owner));
		if (sem_index(&ix[b->queue], b->semaphore) < 0)
			return nscc_errf(err, -EINVAL, "%s: semaphore %u is not in the queue's semaphore_set (%u entries from %u)",
					 where, b->semaphore, q->num_semaphores,
					 q->num_semaphores ? q->semaphores[0] : 0);
		if (b->comment && !dma_name_ok(b->comment))
			return nscc_errf(err, -EINVAL, "%s: #comment is not 1..%u characters without control characters",
					 where, KBIN_NAME_MAX - 1);
	}
	return ret;
}

/*
 * The model's block indexes in the plan's order: grouped by queue, each
 * queue's in member order (a counting sort).  NULL when out of memory.
 */
static uint32_t *block_order(const struct nscc_subgraph *sg)
{
	uint32_t *start, *order, k, i;

	start = calloc(sg->num_dma_queues + 1, sizeof(*start));
	order = malloc((sg->num_dma_blocks + 1) * sizeof(*order));
	if (!start || !order) {
		free(start);
		free(order);
		return NULL;
	}
	for (i = 0; i < sg->num_dma_blocks; i++)
		start[sg->dma_blocks[i].queue + 1]++;
	for (k = 1; k < sg->num_dma_queues; k++)
		start[k] += start[k - 1];
	for (i = 0; i < sg->num_dma_blocks; i++)
		order[start[sg->dma_blocks[i].queue]++] = i;
	free(start);
	return order;
}

/* queues, then the blocks grouped by queue in member order */
static int emit_dma(struct kbin_writer *w, int sgi,
		    const struct nscc_subgraph *sg, const struct sem_index *ix,
		    struct nscc_err *err)
{
	uint32_t *order, k, i;
	int ret = 0;

	for (k = 0; k < sg->num_dma_queues; k++) {
		const struct nscc_dma_queue *q = &sg->dma_queues[k];
		struct kbin_dma_queue_in in = {
			.q = {
				.num_semaphores = q->num_semaphores,
				.type = q->type, .owner = q->owner,
				.num_queues = q->num_queues,
				.flags = q->has_dynamic ? KBIN_DMA_QF_DYNAMIC : 0,
				.sb_scratch_offset = q->sb_scratch_offset,
				.sb_scratch_size = q->sb_scratch_size,
			},
			.name = q->name, .fabric_path = q->fabric_path,
			.semaphores = q->semaphores,
		};

		ret = kbin_writer_add_dma_queue(w, sgi, &in);
		if (ret < 0)
			return nscc_errf(err, ret, "%s: dma_queue '%s': KBIN writer refused the queue (%s)",
					 sg->name, q->name, strerror(-ret));
	}
	ret = 0;
	order = block_order(sg);
	if (!order)
		return nscc_errf(err, -ENOMEM, "out of memory");
	for (i = 0; i < sg->num_dma_blocks; i++) {
		const struct nscc_dma_block *b = &sg->dma_blocks[order[i]];
		const struct nscc_dma_queue *q = &sg->dma_queues[b->queue];
		struct kbin_dma_block kb = {
			.queue = b->queue, .id = b->id, .semaphore = b->semaphore,
			.sem_index = (uint32_t)sem_index(&ix[b->queue], b->semaphore),
		};

		ret = kbin_writer_add_dma_block(w, sgi, &kb, b->comment,
						sg->dma_descs + b->first_desc,
						b->num_descs);
		if (ret) {
			nscc_errf(err, ret, "%s: queue '%s' block %u: KBIN writer refused the block (%s)",
				  sg->name, q->name, b->id, strerror(-ret));
			break;
		}
	}
	free(order);
	return ret;
}

/* the five streams, verbatim; the writer decodes them */
static int emit_prog(struct kbin_writer *w, int sgi,
		     const struct nscc_subgraph *sg, struct nscc_err *err)
{
	uint32_t e;
	int ret;

	if (!sg->has_prog)
		return 0;
	for (e = 1; e <= KBIN_PROG_ENGINES; e++) {
		ret = kbin_writer_add_prog(w, sgi, e, sg->prog[e],
					   (uint64_t)sg->prog_count[e] *
					   KBIN_PROG_RECORD_SIZE);
		if (ret)
			return nscc_errf(err, ret, "%s: the %s stream: KBIN writer refused it (%s)",
					 sg->name, kbin_dma_engine_str(e),
					 strerror(-ret));
	}
	return 0;
}

/*
 * The checker's verdict on a program, with the model's names: the
 * subgraph, the stream's NEFF member (the def.json key that names it),
 * the instruction and its opcode, then the shared rule's words
 * (kbin_prog_why()) and the reason.
 */
static int prog_err(const struct nscc_model *m,
		    const struct kbin_check_result *res, struct nscc_err *err)
{
	const struct nscc_subgraph *sg = &m->sgs[res->err.subgraph];
	const struct kbin_prog_verdict *v = &res->prog;
	char why[NSCC_ERR_MAX / 2], stream[NSCC_ERR_MAX / 4];
	uint32_t e = v->engine;

	kbin_prog_why(v, why, sizeof(why));
	if (e >= 1 && e <= KBIN_PROG_ENGINES && sg->prog_members[e])
		snprintf(stream, sizeof(stream), "%s (def.json '%s_instr')",
			 sg->prog_members[e], kbin_dma_engine_str(e));
	else if (e >= 1 && e <= KBIN_PROG_ENGINES)
		snprintf(stream, sizeof(stream), "the %s stream",
			 kbin_dma_engine_str(e));
	else
		snprintf(stream, sizeof(stream), "program");
	if (v->instr >= 0)
		return nscc_errf(err, -EINVAL, "%s: %s: instruction %lld (opcode 0x%02x): %s (%s)",
				 sg->name, stream, v->instr, v->opcode, why,
				 kbin_reason_str(res->err.reason));
	return nscc_errf(err, -EINVAL, "%s: %s: %s (%s)", sg->name, stream, why,
			 kbin_reason_str(res->err.reason));
}

/*
 * The checker's verdict on a DMA record, with the model's names: the
 * queue by its name; a block or descriptor by its member, queue, id and
 * comment (the plan's blocks are the model's in block_order()); a side
 * by its var's name and var_id.
 */
static int dma_err(const struct nscc_subgraph *sg, const struct nscc_symtab *st,
		   const struct kbin_check_result *res, const char *why,
		   const char *reason, struct nscc_err *err)
{
	char where[NSCC_ERR_MAX / 2];
	const struct nscc_dma_block *b = NULL;
	const struct kbin_dma_side *sd;
	const char *side;
	unsigned long long item = (unsigned long long)res->item;
	uint32_t *order, i;

	if (res->err.field == KBIN_FIELD_DMA_QUEUE && item < sg->num_dma_queues)
		return nscc_errf(err, -EINVAL, "%s: dma_queue '%s': %s (%s)",
				 sg->name, sg->dma_queues[item].name, why, reason);
	order = block_order(sg);
	if (!order)
		return nscc_errf(err, -ENOMEM, "out of memory");
	for (i = 0; i < sg->num_dma_blocks; i++) {
		b = &sg->dma_blocks[order[i]];
		if (res->err.field == KBIN_FIELD_DMA_BLOCK ? item == i :
		    item < b->num_descs)
			break;
		if (res->err.field != KBIN_FIELD_DMA_BLOCK)
			item -= b->num_descs;
	}
	free(order);
	if (i == sg->num_dma_blocks)
		return nscc_errf(err, -EINVAL, "%s: %s (%s)", sg->name, why, reason);
	if (res->err.field == KBIN_FIELD_DMA_BLOCK)
		return nscc_errf(err, -EINVAL, "%s: %s (%s)",
				 desc_where(sg, b, UINT32_MAX, where, sizeof(where)),
				 why, reason);
	desc_where(sg, b, (uint32_t)item, where, sizeof(where));
	if (res->err.field == KBIN_FIELD_DMA_DESC)
		return nscc_errf(err, -EINVAL, "%s: %s (%s)", where, why, reason);
	side = res->err.field == KBIN_FIELD_DMA_FROM ? "from" : "to";
	sd = res->err.field == KBIN_FIELD_DMA_FROM ?
	     &sg->dma_descs[b->first_desc + item].from :
	     &sg->dma_descs[b->first_desc + item].to;
	if (!nscc_symtab_name(st, sd->var_id))
		return nscc_errf(err, -EINVAL, "%s: %s: %s (%s)", where, side,
				 why, reason);
	/* the checker's words name the side's var already: not twice */
	if (!strncmp(why, "var_id ", 7) &&
	    !strncmp(why + 7 + strspn(why + 7, "0123456789"), " '", 2))
		return nscc_errf(err, -EINVAL, "%s: %s %s (%s)", where, side,
				 why, reason);
	return nscc_errf(err, -EINVAL, "%s: %s '%s' (var_id %u): %s (%s)", where,
			 side, nscc_symtab_name(st, sd->var_id), sd->var_id,
			 why, reason);
}

/*
 * The plan checker's verdict (Documentation/kbin-format.rst) with the
 * model's names: the subgraph, then the var (def.json name and var_id),
 * the DMA queue, block, descriptor and side, or the program stream the
 * finding is about, then the checker's words, which name the field and
 * the value, and the reason.  The checker is the compiler's validator:
 * it keeps no copy of a rule the plan must satisfy.
 */
static int check_err(const struct nscc_model *m, struct nscc_symtab *const *sts,
		     const struct kbin_check_result *res, struct nscc_err *err)
{
	const char *why = res->err.msg + res->err.text, *reason = kbin_reason_str(res->err.reason);
	const struct nscc_subgraph *sg;
	const char *name;

	if (res->err.subgraph < 0 || (uint32_t)res->err.subgraph >= m->num_sgs)
		return nscc_errf(err, -EINVAL, "the plan checker refused the plan: %s (%s)",
				 res->err.msg, reason);
	if (res->prog.why != KBIN_PROG_WHY_NONE)
		return prog_err(m, res, err);
	sg = &m->sgs[res->err.subgraph];
	if (res->err.field >= KBIN_FIELD_DMA_QUEUE && res->err.field <= KBIN_FIELD_DMA_TO)
		return dma_err(sg, sts[res->err.subgraph], res, why, reason, err);
	name = res->err.record >= 0 && res->err.record <= UINT32_MAX ?
	       nscc_symtab_name(sts[res->err.subgraph], (uint32_t)res->err.record) : NULL;
	if (name)
		return nscc_errf(err, -EINVAL, "%s: var '%s' (var_id %lld): %s (%s)",
				 sg->name, name, res->err.record, why, reason);
	return nscc_errf(err, -EINVAL, "%s: %s (%s)", sg->name, why, reason);
}

static int build_subgraph(const struct nscc_model *m,
			  const struct nscc_subgraph *sg,
			  struct sg_state *ss, struct nscc_err *err)
{
	struct nscc_symtab *st = ss->st;
	struct nscc_err verr;
	size_t n = sg->name ? strlen(sg->name) : 0;
	uint32_t i;
	int ret;

	if (n == 0 || n >= KBIN_SG_NAME_MAX)
		return nscc_errf(err, -EINVAL, "subgraph name '%s' has %zu characters, allowed 1..%u",
				 sg->name ? sg->name : "", n, KBIN_SG_NAME_MAX - 1);
	if (ctrl_char(sg->name) >= 0)
		return nscc_errf(err, -EINVAL, "subgraph name '%s' has control character 0x%02x at byte %ld",
				 sg->name, (unsigned char)sg->name[ctrl_char(sg->name)],
				 ctrl_char(sg->name));
	for (i = 0; &m->sgs[i] != sg; i++)
		if (!strcmp(m->sgs[i].name, sg->name))
			return nscc_errf(err, -EEXIST, "subgraph name '%s' is used twice (subgraphs %u and %u)",
					 sg->name, i, (uint32_t)(sg - m->sgs));
	if (sg->num_carveouts > KBIN_MAX_CARVEOUTS)
		return nscc_errf(err, -E2BIG, "%s: %u SBUF carve-outs, at most %u",
				 sg->name, sg->num_carveouts, KBIN_MAX_CARVEOUTS);
	ss->skipped = calloc(sg->num_vars + 1, 1);
	if (!ss->skipped)
		return nscc_errf(err, -ENOMEM, "out of memory");
	for (i = 0; i < sg->num_vars; i++) {
		const struct nscc_var *v = &sg->vars[i];
		struct nscc_mr *mr;
		uint64_t align = 0;

		ret = check_var(sg, v, &align, err);
		if (ret)
			return ret;
		mr = nscc_mr_new(v, align, err);
		if (!mr)
			return -ENOMEM;
		ret = nscc_symtab_add(st, v->name, mr, &verr);
		if (ret == -EEXIST) {
			/*
			 * libnrt's parse_one_variable() returns when
			 * check_var_exists() finds the name or the var_id:
			 * the first var stays, this one is dropped
			 * (Documentation/compiler.rst, "Warnings")
			 */
			nscc_warnf(m->warn, "%s: %s; skipped, as libnrt's symbol table skips it (the first var of a var_id or name stays)",
				   sg->name, verr.msg);
			ss->skipped[i] = 1;
			continue;
		}
		if (ret)
			return nscc_errf(err, ret, "%s: %s", sg->name, verr.msg);
	}
	ret = nscc_symtab_check_dense(st, err);
	if (ret) {
		nscc_err_prefix(err, "%s", sg->name);
		return ret;
	}
	ss->sems = calloc(sg->num_dma_queues + 1, sizeof(*ss->sems));
	if (!ss->sems)
		return nscc_errf(err, -ENOMEM, "out of memory");
	return 0;
}

static int emit_subgraph(struct kbin_writer *w, const struct nscc_model *m,
			 const struct nscc_subgraph *sg,
			 const struct sg_state *ss, struct nscc_err *err)
{
	const struct nscc_symtab *st = ss->st;
	uint32_t id, count = nscc_symtab_count(st);
	struct nscc_mr_out *out;
	uint64_t local, shared;
	int sgi, ret = 0;

	scratchpad_sizes(sg, ss->skipped, &local, &shared);
	sgi = kbin_writer_add_subgraph(w, sg->name, local, shared,
				       sg->carveouts, sg->num_carveouts);
	if (sgi < 0)
		return nscc_errf(err, sgi, "%s: KBIN writer refused the subgraph (%s)",
				 sg->name, strerror(-sgi));
	out = malloc(sizeof(*out));
	if (!out)
		return nscc_errf(err, -ENOMEM, "out of memory");
	for (id = 0; id < count; id++) {
		const struct nscc_mr *mr = nscc_symtab_object(st, id);
		struct nscc_dump_ctx ctx = {
			.target_gen = m->target_gen,
			.name = nscc_symtab_name(st, id),
		};

		ret = nscc_mr_dump(mr, &ctx, out, err);
		if (ret) {
			nscc_err_prefix(err, "%s: var '%s' (var_id %u)",
					sg->name, ctx.name, id);
			break;
		}
		ret = kbin_writer_add_record(w, sgi, &out->in);
		if (ret) {
			nscc_errf(err, ret, "%s: var '%s' (var_id %u): KBIN writer refused the record (%s)",
				  sg->name, ctx.name, id, strerror(-ret));
			break;
		}
	}
	free(out);
	if (!ret)
		ret = emit_dma(w, sgi, sg, ss->sems, err);
	return ret ? ret : emit_prog(w, sgi, sg, err);
}

int nscc_compile_model(const struct nscc_model *m, void **buf, size_t *len,
		       struct nscc_err *err)
{
	struct nscc_symtab **sts = NULL;
	struct sg_state *ss = NULL;
	struct kbin_writer *w = NULL;
	struct kbin_check_result res;
	uint32_t s;
	int ret;

	*buf = NULL;
	*len = 0;
	if (!nscc_sbuf_bytes(m->target_gen)) {
		char gens[KBIN_GEN_LIST_MAX];

		return nscc_errf(err, -EINVAL, "target_gen %u is not a known generation (%s)",
				 m->target_gen,
				 kbin_gen_list(gens, sizeof(gens), KBIN_GEN_LIST_NUMBERS));
	}
	if (m->num_sgs == 0 || m->num_sgs > KBIN_MAX_SUBGRAPHS)
		return nscc_errf(err, m->num_sgs ? -E2BIG : -EINVAL,
				 "%u subgraphs, a plan holds 1..%u",
				 m->num_sgs, KBIN_MAX_SUBGRAPHS);
	sts = calloc(m->num_sgs, sizeof(*sts));
	ss = calloc(m->num_sgs, sizeof(*ss));
	if (!sts || !ss) {
		ret = nscc_errf(err, -ENOMEM, "out of memory");
		goto out;
	}
	for (s = 0; s < m->num_sgs; s++) {
		sts[s] = nscc_symtab_new();
		if (!sts[s]) {
			ret = nscc_errf(err, -ENOMEM, "out of memory");
			goto out;
		}
		ss[s].st = sts[s];
		ret = build_subgraph(m, &m->sgs[s], &ss[s], err);
		if (ret)
			goto out;
	}
	for (s = 0, ret = 0; s < m->num_sgs && !ret; s++)
		ret = check_dma(&m->sgs[s], ss[s].sems, err);
	if (ret)
		goto out;

	w = kbin_writer_new(m->target_gen);
	if (w && kbin_writer_set_prog_flags(w, m->prog_flags)) {
		kbin_writer_free(w);
		w = NULL;
	}
	if (!w) {
		ret = nscc_errf(err, -ENOMEM, "out of memory");
		goto out;
	}
	for (s = 0; s < m->num_sgs; s++) {
		ret = emit_subgraph(w, m, &m->sgs[s], &ss[s], err);
		if (ret)
			goto out;
	}
	ret = kbin_writer_finish(w, buf, len);
	if (ret) {
		nscc_errf(err, ret, "KBIN writer failed to finish the plan (%s)",
			  strerror(-ret));
		goto out;
	}
	memset(&res, 0, sizeof(res));
	if (kbin_check_plan(*buf, *len, &res)) {
		ret = check_err(m, sts, &res, err);
		free(*buf);
		*buf = NULL;
		*len = 0;
	}
out:
	kbin_writer_free(w);
	for (s = 0; s < m->num_sgs && sts; s++)
		nscc_symtab_free(sts[s]);
	for (s = 0; s < m->num_sgs && ss; s++) {
		sem_indexes_free(ss[s].sems, m->sgs[s].num_dma_queues);
		free(ss[s].skipped);
	}
	free(sts);
	free(ss);
	return ret;
}

int nscc_compile_neff(const char *path, void **buf, size_t *len,
		      struct nscc_err *err)
{
	return nscc_compile_neff_warn(path, NULL, buf, len, err);
}

int nscc_compile_neff_mem(const void *neff, size_t neff_len,
			  struct nscc_warn *warn, void **buf, size_t *len,
			  struct nscc_err *err)
{
	struct nscc_model *m = NULL;
	struct nscc_neff *n;
	int ret;

	*buf = NULL;
	*len = 0;
	ret = nscc_neff_open_mem(neff, neff_len, &n, err);
	if (ret)
		return ret;
	ret = nscc_neff_to_model(n, &m, err);
	if (ret) {
		nscc_neff_free(n);
		return ret;
	}
	m->warn = warn;
	ret = nscc_compile_model(m, buf, len, err);
	nscc_model_free(m);
	return ret;
}

int nscc_compile_neff_warn(const char *path, struct nscc_warn *warn,
			   void **buf, size_t *len, struct nscc_err *err)
{
	struct nscc_model *m = NULL;
	struct nscc_neff *neff;
	int ret;

	*buf = NULL;
	*len = 0;
	ret = nscc_neff_open(path, &neff, err);
	if (ret)
		return ret;
	ret = nscc_neff_to_model(neff, &m, err);
	if (ret) {
		nscc_neff_free(neff);
		return ret;
	}
	m->warn = warn;
	ret = nscc_compile_model(m, buf, len, err);
	nscc_model_free(m);
	return ret;
}
