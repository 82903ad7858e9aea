// SPDX-License-Identifier: GPL-2.0
/*
 * kbin_writer.c - build a KBIN static memory plan in memory.
 *
 * Records are kept per subgraph in growth arrays; their name, dtensor_md,
 * buffer and list.list fields hold (pool offset + 1) until
 * kbin_writer_finish() knows where each pool lands in the data area.
 * Names are deduplicated through an open-addressing hash on the name pool.
 * Adding a record is amortized O(1 + name length + list length + payload).
 *
 * Each record array starts KW_PREFIX bytes into its allocation: room for
 * the file header and the set header, so that subgraph 0's array becomes
 * the plan itself (one realloc(), no copy of its records).  That is why
 * the subgraph table is written after the sets.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "kbin_dma.h"
#include "kbin_gen.h"
#include "kbin_prog.h"
#include "kbin_writer.h"

struct kw_pool {
	uint8_t *p;
	size_t len;
	size_t cap;
};

/* version 2 file header + set header in front of every record array */
#define KW_PREFIX	(KBIN_HEADER_SIZE + sizeof(struct kbin_mem_ref_set))

/* a growth array of fixed-size items */
struct kw_arr {
	uint8_t *p;
	size_t n;
	size_t cap;
};

struct kw_sg {
	struct kbin_subgraph sg;
	uint64_t local_scratchpad_size;
	uint64_t shared_scratchpad_size;
	uint8_t *mem;		/* KW_PREFIX bytes, then the records */
	uint8_t *has_list;	/* per record: list.list is a list pool index */
	size_t n;
	size_t cap;
	struct kw_arr queues;	/* struct kbin_dma_queue, pool offsets + 1 */
	struct kw_arr blocks;	/* struct kbin_dma_block, in queue order */
	struct kw_arr descs;	/* struct kbin_dma_desc */
	struct kw_pool prog[KBIN_PROG_ENGINES];	/* records, per engine */
};

struct kbin_writer {
	uint32_t target_gen;
	uint32_t version;	/* 0: 3 with a program, else 2; or as set */
	int has_prog;		/* kbin_writer_add_prog() was called */
	uint32_t prog_flags;	/* the program section's KBIN_PROG_F_* */
	uint32_t nsg;
	struct kw_sg sgs[KBIN_MAX_SUBGRAPHS];
	struct kw_pool str;	/* names, NUL-terminated */
	struct kw_pool list;	/* __u32 entries */
	struct kw_pool md;	/* struct kbin_debug_tensor_md */
	struct kw_pool pay;	/* payload header + bytes, 64-aligned bytes */
	uint64_t *slots;	/* name hash: str pool offset + 1, 0 = free */
	size_t nslots;
	size_t nnames;
	int finished;		/* kbin_writer_finish() took sgs[0].mem */
};

static struct kbin_mem_ref *kw_recs(struct kw_sg *s)
{
	return (struct kbin_mem_ref *)(s->mem + KW_PREFIX);
}

static int kw_reserve(struct kw_pool *p, size_t more)
{
	size_t need, cap;
	uint8_t *n;

	if (__builtin_add_overflow(p->len, more, &need))
		return -ENOMEM;
	if (need <= p->cap)
		return 0;
	cap = p->cap ? p->cap : 4096;
	while (cap < need) {
		if (__builtin_mul_overflow(cap, 2, &cap))
			return -ENOMEM;
	}
	n = realloc(p->p, cap);
	if (!n)
		return -ENOMEM;
	p->p = n;
	p->cap = cap;
	return 0;
}

static int kw_append(struct kw_pool *p, const void *d, size_t n, size_t *at)
{
	int err = kw_reserve(p, n);

	if (err)
		return err;
	*at = p->len;
	if (n)
		memcpy(p->p + p->len, d, n);
	p->len += n;
	return 0;
}

/**
 * kbin_writer_new() - start a plan.
 * @target_gen: KBIN_TARGET_TRN1 (2), _TRN2 (3) or _TRN3 (4), written to
 *	kbin_header.target_gen as is (the checker refuses other values).
 *
 * Return: a writer, or NULL when out of memory.
 */
struct kbin_writer *kbin_writer_new(uint32_t target_gen)
{
	struct kbin_writer *w = calloc(1, sizeof(*w));

	if (w)
		w->target_gen = target_gen;
	return w;
}

/**
 * kbin_writer_set_version() - write a given plan version.
 * @w: the writer, not finished.
 * @version: 1 (a 64-byte header, no DMA section), 2 (no program
 *	section) or KBIN_VERSION (3, a program section when
 *	kbin_writer_add_prog() was called, else none).  Without this
 *	call the writer writes 3 for a plan with a program and 2 for one
 *	without.
 *
 * Return: 0; -EINVAL for another version or a finished writer.
 * kbin_writer_finish() refuses a version 1 plan with DMA queues and a
 * version 1 or 2 plan with a program.
 */
int kbin_writer_set_version(struct kbin_writer *w, uint32_t version)
{
	if (!w || w->finished || version < KBIN_VERSION_MIN ||
	    version > KBIN_VERSION)
		return -EINVAL;
	w->version = version;
	return 0;
}

/* append one item of @size bytes to @a; its index in *@idx */
static int kw_arr_add(struct kw_arr *a, const void *item, size_t size,
		      size_t *idx)
{
	if (a->n == a->cap) {
		size_t cap = a->cap ? a->cap * 2 : 16;
		uint8_t *np;

		if (cap > SIZE_MAX / size)
			return -ENOMEM;
		np = realloc(a->p, cap * size);
		if (!np)
			return -ENOMEM;
		a->p = np;
		a->cap = cap;
	}
	memcpy(a->p + a->n * size, item, size);
	if (idx)
		*idx = a->n;
	a->n++;
	return 0;
}

/**
 * kbin_writer_free() - free a writer and everything it copied.
 * @w: the writer, or NULL.
 */
void kbin_writer_free(struct kbin_writer *w)
{
	uint32_t i, k;

	if (!w)
		return;
	for (i = 0; i < w->nsg; i++) {
		free(w->sgs[i].mem);
		free(w->sgs[i].has_list);
		free(w->sgs[i].queues.p);
		free(w->sgs[i].blocks.p);
		free(w->sgs[i].descs.p);
		for (k = 0; k < KBIN_PROG_ENGINES; k++)
			free(w->sgs[i].prog[k].p);
	}
	free(w->str.p);
	free(w->list.p);
	free(w->md.p);
	free(w->pay.p);
	free(w->slots);
	free(w);
}

/**
 * kbin_writer_add_subgraph() - add a subgraph table entry and its set.
 * @w: the writer.
 * @name: 1..KBIN_SG_NAME_MAX - 1 (31) characters, e.g. "sg00".
 * @local_scratchpad_size: bytes, kbin_mem_ref_set.local_scratchpad_size.
 * @shared_scratchpad_size: bytes, kbin_mem_ref_set.shared_scratchpad_size.
 * @carveouts: @num_carveouts SBUF carve-outs, copied as given.
 * @num_carveouts: 0..KBIN_MAX_CARVEOUTS (4).
 *
 * Return: the subgraph index (>= 0, its position in the subgraph table);
 * -EINVAL for a NULL/empty/too long name, too many carve-outs, a NULL
 * @carveouts with @num_carveouts > 0, or more than KBIN_MAX_SUBGRAPHS (64)
 * subgraphs.
 */
int kbin_writer_add_subgraph(struct kbin_writer *w, const char *name,
			     uint64_t local_scratchpad_size,
			     uint64_t shared_scratchpad_size,
			     const struct kbin_sb_carveout *carveouts,
			     uint32_t num_carveouts)
{
	struct kw_sg *s;
	size_t n;

	if (!w || !name || w->nsg >= KBIN_MAX_SUBGRAPHS || w->finished ||
	    num_carveouts > KBIN_MAX_CARVEOUTS || (num_carveouts && !carveouts))
		return -EINVAL;
	n = strlen(name);
	if (!n || n >= KBIN_SG_NAME_MAX)
		return -EINVAL;
	s = &w->sgs[w->nsg];
	memset(s, 0, sizeof(*s));
	memcpy(s->sg.name, name, n);
	s->sg.num_carveouts = num_carveouts;
	if (num_carveouts)
		memcpy(s->sg.carveouts, carveouts,
		       num_carveouts * sizeof(*carveouts));
	s->local_scratchpad_size = local_scratchpad_size;
	s->shared_scratchpad_size = shared_scratchpad_size;
	return (int)w->nsg++;
}

static uint64_t kw_hash(const char *s, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ULL;	/* FNV-1a */
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= (uint8_t)s[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

static int kw_rehash(struct kbin_writer *w)
{
	size_t nslots = w->nslots ? w->nslots * 2 : 1024;
	uint64_t *slots = calloc(nslots, sizeof(*slots));
	size_t i;

	if (!slots)
		return -ENOMEM;
	for (i = 0; i < w->nslots; i++) {
		uint64_t v = w->slots[i];
		const char *s;
		size_t j;

		if (!v)
			continue;
		s = (const char *)w->str.p + v - 1;
		j = kw_hash(s, strlen(s)) & (nslots - 1);
		while (slots[j])
			j = (j + 1) & (nslots - 1);
		slots[j] = v;
	}
	free(w->slots);
	w->slots = slots;
	w->nslots = nslots;
	return 0;
}

/* Store @name once; *@at = its offset in the name pool. */
static int kw_name(struct kbin_writer *w, const char *name, size_t n,
		   size_t *at)
{
	size_t j;
	int err;

	if (w->nnames * 2 >= w->nslots) {
		err = kw_rehash(w);
		if (err)
			return err;
	}
	j = kw_hash(name, n) & (w->nslots - 1);
	while (w->slots[j]) {
		const char *s = (const char *)w->str.p + w->slots[j] - 1;

		if (!strcmp(s, name)) {
			*at = w->slots[j] - 1;
			return 0;
		}
		j = (j + 1) & (w->nslots - 1);
	}
	err = kw_append(&w->str, name, n + 1, at);
	if (err)
		return err;
	w->slots[j] = *at + 1;
	w->nnames++;
	return 0;
}

/* Payload: 16-byte header, then the bytes at a 64-aligned pool offset. */
static int kw_payload(struct kbin_writer *w, const void *p, uint64_t len,
		      size_t *at)
{
	struct kbin_payload_hdr ph = { .length = len };
	size_t pad = (KBIN_PAYLOAD_ALIGN - (w->pay.len + sizeof(ph)) %
		      KBIN_PAYLOAD_ALIGN) % KBIN_PAYLOAD_ALIGN;
	size_t total, dummy;
	int err;

	if (len > SIZE_MAX / 2)
		return -ENOMEM;
	total = pad + sizeof(ph) + (size_t)len;
	err = kw_reserve(&w->pay, total);
	if (err)
		return err;
	memset(w->pay.p + w->pay.len, 0, pad);
	w->pay.len += pad;
	kw_append(&w->pay, &ph, sizeof(ph), &dummy);
	return kw_append(&w->pay, p, (size_t)len, at);
}

/**
 * kbin_writer_add_record() - append one mem_ref record to a subgraph.
 * @w: the writer.
 * @sg: index returned by kbin_writer_add_subgraph().
 * @in: the record; everything it points to is copied.
 *
 * Records land in the set in call order, so add them in var_id order
 * (record i must have var_id i, Documentation/kbin-format.rst).  The name, @in->md,
 * @in->payload and @in->list go to the data area; the record's name,
 * dtensor_md, buffer and (with @in->list) list.list fields are filled in
 * by kbin_writer_finish().
 *
 * Return: 0; -EINVAL for a bad @sg, a NULL/empty name or one of
 * KBIN_NAME_MAX (256) bytes or more, a payload length without payload
 * bytes, a list longer than KBIN_MAX_LIST, or more than 2^32 - 1 records;
 * -ENOMEM when out of memory.
 */
int kbin_writer_add_record(struct kbin_writer *w, int sg,
			   const struct kbin_rec_in *in)
{
	struct kbin_mem_ref r;
	struct kw_sg *s;
	size_t n, at;
	int err;

	if (!w || !in || sg < 0 || (uint32_t)sg >= w->nsg || !in->name ||
	    w->finished)
		return -EINVAL;
	n = strlen(in->name);
	if (!n || n >= KBIN_NAME_MAX)
		return -EINVAL;
	if (in->payload_len && !in->payload)
		return -EINVAL;
	if (in->list && in->rec.list.length > KBIN_MAX_LIST)
		return -EINVAL;
	s = &w->sgs[sg];
	if (s->n >= UINT32_MAX)
		return -EINVAL;
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 64;
		uint8_t *nr = realloc(s->mem, KW_PREFIX +
				      cap * sizeof(struct kbin_mem_ref));
		uint8_t *nl;

		if (!nr)
			return -ENOMEM;
		s->mem = nr;
		nl = realloc(s->has_list, cap);
		if (!nl)
			return -ENOMEM;
		s->has_list = nl;
		s->cap = cap;
	}
	r = in->rec;
	r.name = 0;
	r.dtensor_md = 0;
	r.buffer = 0;
	err = kw_name(w, in->name, n, &at);
	if (err)
		return err;
	r.name = at + 1;
	if (in->md) {
		err = kw_append(&w->md, in->md, sizeof(*in->md), &at);
		if (err)
			return err;
		r.dtensor_md = at + 1;
	}
	if (in->payload) {
		err = kw_payload(w, in->payload, in->payload_len, &at);
		if (err)
			return err;
		r.buffer = at + 1;
	}
	if (in->list) {
		err = kw_append(&w->list, in->list,
				(size_t)in->rec.list.length * sizeof(uint32_t), &at);
		if (err)
			return err;
		r.list.list = at + 1;
	}
	s->has_list[s->n] = !!in->list;
	kw_recs(s)[s->n++] = r;
	return 0;
}

/**
 * kbin_writer_add_dma_queue() - append a DMA queue to a subgraph.
 * @w: the writer.
 * @sg: index returned by kbin_writer_add_subgraph().
 * @in: the queue; its name, fabric path and semaphore set are copied.
 *
 * Return: the queue's index among the subgraph's queues (>= 0, what its
 * blocks name as kbin_dma_block.queue); -EINVAL for a bad @sg, a
 * NULL/empty name or one of KBIN_NAME_MAX bytes or more (the same for the
 * fabric path), a semaphore set of more than KBIN_MAX_LIST entries or
 * without entries, or more than 2^31 - 1 queues; -ENOMEM.
 */
int kbin_writer_add_dma_queue(struct kbin_writer *w, int sg,
			      const struct kbin_dma_queue_in *in)
{
	struct kbin_dma_queue q;
	struct kw_sg *s;
	size_t n, at, idx;
	int err;

	if (!w || !in || sg < 0 || (uint32_t)sg >= w->nsg || !in->name ||
	    w->finished || in->q.num_semaphores > KBIN_MAX_LIST ||
	    (in->q.num_semaphores && !in->semaphores))
		return -EINVAL;
	s = &w->sgs[sg];
	n = strlen(in->name);
	if (!n || n >= KBIN_NAME_MAX || s->queues.n >= INT32_MAX ||
	    (in->fabric_path && (!*in->fabric_path ||
				 strlen(in->fabric_path) >= KBIN_NAME_MAX)))
		return -EINVAL;
	q = in->q;
	q.name = 0;
	q.fabric_path = 0;
	q.semaphores = 0;
	q.first_block = 0;
	q.num_blocks = 0;
	err = kw_name(w, in->name, n, &at);
	if (err)
		return err;
	q.name = at + 1;
	if (in->fabric_path) {
		err = kw_name(w, in->fabric_path, strlen(in->fabric_path), &at);
		if (err)
			return err;
		q.fabric_path = at + 1;
	}
	if (q.num_semaphores) {
		err = kw_append(&w->list, in->semaphores,
				(size_t)q.num_semaphores * sizeof(uint32_t), &at);
		if (err)
			return err;
		q.semaphores = at + 1;
	}
	err = kw_arr_add(&s->queues, &q, sizeof(q), &idx);
	return err ? err : (int)idx;
}

/**
 * kbin_writer_add_dma_block() - append a block and its descriptors.
 * @w: the writer.
 * @sg: index returned by kbin_writer_add_subgraph().
 * @b: the block: queue (an index kbin_writer_add_dma_queue() returned;
 *	blocks go in queue order, so never below the previous block's),
 *	id, semaphore and sem_index as they go into the plan; the writer
 *	fills in comment, first_desc and num_descs.
 * @comment: the block's "#comment" text, or NULL.
 * @descs: @n descriptors, copied as given (they hold var_ids).
 * @n: descriptors.
 *
 * Return: 0; -EINVAL for a bad @sg, a queue index below the previous
 * block's or not yet added, a comment that is empty or of KBIN_NAME_MAX
 * bytes or more, @n without @descs, or more than 2^32 - 1 blocks or
 * descriptors; -ENOMEM.
 */
int kbin_writer_add_dma_block(struct kbin_writer *w, int sg,
			      const struct kbin_dma_block *b, const char *comment,
			      const struct kbin_dma_desc *descs, uint32_t n)
{
	struct kbin_dma_block blk;
	struct kbin_dma_queue *q;
	struct kw_sg *s;
	size_t at, k;
	int err;

	if (!w || !b || sg < 0 || (uint32_t)sg >= w->nsg || w->finished ||
	    (n && !descs))
		return -EINVAL;
	s = &w->sgs[sg];
	if (b->queue >= s->queues.n || s->blocks.n >= UINT32_MAX ||
	    (uint64_t)s->descs.n + n > UINT32_MAX ||
	    (comment && (!*comment || strlen(comment) >= KBIN_NAME_MAX)))
		return -EINVAL;
	if (s->blocks.n &&
	    b->queue < ((struct kbin_dma_block *)s->blocks.p)[s->blocks.n - 1].queue)
		return -EINVAL;
	blk = *b;
	blk.comment = 0;
	blk.first_desc = (uint32_t)s->descs.n;
	blk.num_descs = n;
	if (comment) {
		err = kw_name(w, comment, strlen(comment), &at);
		if (err)
			return err;
		blk.comment = at + 1;
	}
	for (k = 0; k < n; k++) {
		err = kw_arr_add(&s->descs, &descs[k], sizeof(descs[k]), NULL);
		if (err)
			return err;
	}
	err = kw_arr_add(&s->blocks, &blk, sizeof(blk), NULL);
	if (err)
		return err;
	q = (struct kbin_dma_queue *)s->queues.p + b->queue;
	q->num_blocks++;
	return 0;
}

/**
 * kbin_writer_add_prog() - set one engine's instruction stream of a
 *	subgraph: the plan gets a program section (version 3).
 * @w: the writer.
 * @sg: index returned by kbin_writer_add_subgraph().
 * @engine: enum kbin_dma_engine (1 PE .. 5 SP).
 * @records: @bytes bytes of KBIN_PROG_RECORD_SIZE-byte records, copied
 *	verbatim; NULL when @bytes is 0.
 * @bytes: a multiple of KBIN_PROG_RECORD_SIZE (kbin_prog_stream_count());
 *	0 for an engine without instructions.
 *
 * A second call for the same engine replaces the stream.  Engines never
 * set have no instructions.  kbin_writer_finish() writes each record's
 * decoded entry; the plan checker applies the program's rules.
 *
 * Return: 0; -EINVAL for a bad @sg or @engine, @bytes not a multiple of
 * 64 or without @records, more than 2^32 - 1 instructions in the plan, or
 * a finished writer; -ENOMEM.
 */
int kbin_writer_add_prog(struct kbin_writer *w, int sg, uint32_t engine,
			 const void *records, uint64_t bytes)
{
	struct kw_pool *p;
	size_t at;
	__u32 n;

	if (!w || w->finished || sg < 0 || (uint32_t)sg >= w->nsg ||
	    engine < 1 || engine > KBIN_PROG_ENGINES || (bytes && !records) ||
	    kbin_prog_stream_count(bytes, &n) || bytes > SIZE_MAX / 2)
		return -EINVAL;
	p = &w->sgs[sg].prog[engine - 1];
	p->len = 0;
	w->has_prog = 1;
	return kw_append(p, records, (size_t)bytes, &at);
}

/**
 * kbin_writer_set_prog_flags() - the flags of the program section
 *	(struct kbin_prog_section.flags): KBIN_PROG_F_COMPUTE for a program
 *	of neuronsim's compute encoding; 0 (the default) for opaque compute.
 * @w: the writer.
 * @flags: KBIN_PROG_F_*; written as given (the checker refuses unknown
 *	bits).
 *
 * Return: 0; -EINVAL a NULL or finished writer.
 */
int kbin_writer_set_prog_flags(struct kbin_writer *w, uint32_t flags)
{
	if (!w || w->finished)
		return -EINVAL;
	w->prog_flags = flags;
	return 0;
}

/**
 * kbin_fix_checksum() - recompute kbin_header.checksum of a plan.
 * @buf: the plan; nothing happens when @len < 64.
 * @len: bytes; the CRC-32 (zlib crc32()) covers bytes [16, @len).
 *
 * For tests and tools that edit a plan in place.
 */
void kbin_fix_checksum(void *buf, size_t len)
{
	struct kbin_header *h = buf;
	const uint8_t *p = buf;
	uLong crc;
	size_t off = 16;

	if (!buf || len < sizeof(*h))
		return;
	crc = crc32(0L, Z_NULL, 0);
	while (off < len) {
		size_t chunk = len - off > (1U << 30) ? (1U << 30) : len - off;

		crc = crc32(crc, p + off, (uInt)chunk);
		off += chunk;
	}
	h->checksum = (uint32_t)crc;
}

static uint64_t kw_fix(uint64_t v, uint64_t base)
{
	return v ? base + v - 1 : 0;
}

/* Fill the pool offsets of @n records in place. */
static void kw_fix_recs(struct kbin_mem_ref *r, const uint8_t *has_list,
			size_t n, uint64_t md_base, uint64_t list_base,
			uint64_t str_base, uint64_t pay_base)
{
	size_t j;

	for (j = 0; j < n; j++) {
		r[j].name = kw_fix(r[j].name, str_base);
		r[j].dtensor_md = kw_fix(r[j].dtensor_md, md_base);
		r[j].buffer = kw_fix(r[j].buffer, pay_base);
		if (has_list[j])
			r[j].list.list = kw_fix(r[j].list.list, list_base);
	}
}

/* The DMA section's bytes, from the subgraphs' arrays (pool offsets fixed). */
static void kw_write_dma(struct kbin_writer *w, uint8_t *p, uint64_t dma_off,
			 uint64_t list_base, uint64_t str_base)
{
	struct kbin_dma_section *d = (struct kbin_dma_section *)(p + dma_off);
	struct kbin_dma_layout l;
	struct kbin_dma_queue *qo;
	struct kbin_dma_block *bo;
	struct kbin_dma_desc *doo;
	uint32_t i, nq = 0, nb = 0, nd = 0;
	size_t k;

	for (i = 0; i < w->nsg; i++) {
		nq += (uint32_t)w->sgs[i].queues.n;
		nb += (uint32_t)w->sgs[i].blocks.n;
		nd += (uint32_t)w->sgs[i].descs.n;
	}
	memset(d, 0, sizeof(*d));
	d->num_queues = nq;
	d->num_blocks = nb;
	d->num_descs = nd;
	kbin_dma_layout(w->nsg, nq, nb, nd, &l);
	qo = (struct kbin_dma_queue *)((uint8_t *)d + l.queues);
	bo = (struct kbin_dma_block *)((uint8_t *)d + l.blocks);
	doo = (struct kbin_dma_desc *)((uint8_t *)d + l.descs);
	nq = nb = nd = 0;
	for (i = 0; i < w->nsg; i++) {
		struct kw_sg *s = &w->sgs[i];
		uint32_t blk = nb;

		d->sg[i] = (struct kbin_dma_sg){
			.first_queue = nq, .num_queues = (uint32_t)s->queues.n,
			.first_block = nb, .num_blocks = (uint32_t)s->blocks.n,
			.first_desc = nd, .num_descs = (uint32_t)s->descs.n,
		};
		for (k = 0; k < s->queues.n; k++) {
			struct kbin_dma_queue *q = &qo[nq + k];

			*q = ((struct kbin_dma_queue *)s->queues.p)[k];
			q->name = kw_fix(q->name, str_base);
			q->fabric_path = kw_fix(q->fabric_path, str_base);
			q->semaphores = kw_fix(q->semaphores, list_base);
			q->first_block = blk;
			blk += q->num_blocks;
		}
		for (k = 0; k < s->blocks.n; k++) {
			struct kbin_dma_block *b = &bo[nb + k];

			*b = ((struct kbin_dma_block *)s->blocks.p)[k];
			b->comment = kw_fix(b->comment, str_base);
			b->first_desc += nd;
		}
		if (s->descs.n)
			memcpy(doo + nd, s->descs.p, s->descs.n * sizeof(*doo));
		nq += (uint32_t)s->queues.n;
		nb += (uint32_t)s->blocks.n;
		nd += (uint32_t)s->descs.n;
	}
}

/*
 * Write the decoded entry of every record of the program section at
 * @prog_off of the plan @p (@nsg subgraphs, the DMA section at @dma_off
 * or 0, names in place) with the shared walk, kbin_prog_check_sg().
 */
static void kw_fill_prog(uint8_t *p, uint32_t nsg, uint32_t target_gen,
			 uint64_t prog_off, uint64_t dma_off)
{
	struct kbin_prog_section *ps = (struct kbin_prog_section *)(p + prog_off);
	const struct kbin_dma_section *d = dma_off ?
		(const struct kbin_dma_section *)(p + dma_off) : NULL;
	struct kbin_prog_sync *sync = (struct kbin_prog_sync *)(ps->sg + nsg);
	uint8_t *recs = (uint8_t *)(sync + ps->num_instrs);
	const struct kbin_gen *g = kbin_gen_target(target_gen);
	const struct kbin_dma_queue *qt = NULL;
	const struct kbin_dma_block *bt = NULL;
	struct kbin_prog_verdict v;
	uint32_t i, e;

	if (d) {
		qt = (const struct kbin_dma_queue *)(d->sg + nsg);
		bt = (const struct kbin_dma_block *)(qt + d->num_queues);
	}
	for (i = 0; i < nsg; i++) {
		struct kbin_prog_sg_args a = {
			.base = p, .semaphores = g ? g->semaphores : 0,
		};

		for (e = 0; e < KBIN_PROG_ENGINES; e++) {
			const struct kbin_prog_stream *st = &ps->sg[i].engine[e];

			a.records[e] = recs + (uint64_t)st->first * KBIN_PROG_RECORD_SIZE;
			a.fill[e] = sync + st->first;
			a.num[e] = st->num;
		}
		if (d) {
			a.queues = qt + d->sg[i].first_queue;
			a.num_queues = d->sg[i].num_queues;
			a.blocks = bt + d->sg[i].first_block;
			a.num_blocks = d->sg[i].num_blocks;
			a.first_block = d->sg[i].first_block;
		}
		kbin_prog_check_sg(&a, &v);
	}
}

/* The program section's bytes: header, stream ranges, records, entries. */
static void kw_write_prog(struct kbin_writer *w, uint8_t *p, uint64_t prog_off,
			  uint64_t dma_off, uint32_t ni)
{
	struct kbin_prog_section *ps = (struct kbin_prog_section *)(p + prog_off);
	struct kbin_prog_sync *sync = (struct kbin_prog_sync *)(ps->sg + w->nsg);
	uint8_t *recs = (uint8_t *)(sync + ni);
	uint32_t i, e, n = 0;

	memset(ps, 0, sizeof(*ps));
	ps->num_instrs = ni;
	ps->flags = w->prog_flags;
	for (i = 0; i < w->nsg; i++) {
		for (e = 0; e < KBIN_PROG_ENGINES; e++) {
			const struct kw_pool *r = &w->sgs[i].prog[e];
			uint32_t k = (uint32_t)(r->len / KBIN_PROG_RECORD_SIZE);

			ps->sg[i].engine[e].first = n;
			ps->sg[i].engine[e].num = k;
			if (r->len)
				memcpy(recs + (uint64_t)n * KBIN_PROG_RECORD_SIZE,
				       r->p, r->len);
			n += k;
		}
	}
	kw_fill_prog(p, w->nsg, w->target_gen, prog_off, dma_off);
}

/**
 * kbin_prog_encode() - write one 64-byte instruction record whose sync
 *	layer kbin_prog_decode() reads back as @s (for tests, mkneff and
 *	tools that make programs): byte 0 the opcode, byte 1 the record's
 *	length in 32-bit words (16; 0 for opcode 0xDA, as the real streams
 *	have it), bytes 4..11 the sync header, a 0xD4's semaphore and
 *	increment at 13 and 14, a 0xC1's queue name from byte 12; the other
 *	payload bytes zero.
 * @rec: out: KBIN_PROG_RECORD_SIZE bytes.
 * @s: opcode, wait_mode, wait_sem, wait_value, update_mode, update_sem,
 *	add_sem and add_value (0xD4 only); cls and block are not encoded.
 * @queue: a 0xC1's queue name, truncated to KBIN_PROG_QNAME_MAX - 1
 *	bytes, or NULL.
 */
void kbin_prog_encode(uint8_t *rec, const struct kbin_prog_sync *s,
		      const char *queue)
{
	size_t n;

	memset(rec, 0, KBIN_PROG_RECORD_SIZE);
	rec[0] = s->opcode;
	rec[1] = s->opcode == 0xDA ? 0 : KBIN_PROG_RECORD_SIZE / 4;
	rec[4] = s->wait_mode;
	rec[5] = s->wait_sem;
	rec[6] = s->update_mode;
	rec[7] = s->update_sem;
	rec[8] = (uint8_t)s->wait_value;
	rec[9] = (uint8_t)(s->wait_value >> 8);
	rec[10] = (uint8_t)(s->wait_value >> 16);
	rec[11] = (uint8_t)(s->wait_value >> 24);
	if (s->opcode == KBIN_PROG_OP_DMA) {
		rec[13] = s->add_sem;
		rec[14] = s->add_value;
	}
	if (queue) {
		n = strlen(queue);
		if (n > KBIN_PROG_QNAME_MAX - 1)
			n = KBIN_PROG_QNAME_MAX - 1;
		memcpy(rec + 12, queue, n);
	}
}

/**
 * kbin_prog_refill() - write again the decoded entries of a plan's
 *	program section from its records, as kbin_writer_finish() does,
 *	for tests and tools that edit records; the checksum is not fixed
 *	(kbin_fix_checksum()).
 * @buf: a plan laid out by the writer (its header, DMA section, names
 *	and program section where the header says and within @len).
 * @len: its bytes.
 *
 * Return: 0; -EINVAL when @buf is not a version 3 plan with a program
 * section inside @len.
 */
int kbin_prog_refill(void *buf, size_t len)
{
	const struct kbin_header *h = buf;
	const struct kbin_header_ext *x;
	const struct kbin_prog_section *ps;
	uint64_t end;

	if (!buf || len < KBIN_HEADER_SIZE || h->version < KBIN_VERSION_PROG ||
	    h->header_size != KBIN_HEADER_SIZE)
		return -EINVAL;
	x = (const struct kbin_header_ext *)(h + 1);
	if (!x->prog_off || __builtin_add_overflow(x->prog_off, x->prog_size, &end) ||
	    end > len || x->prog_size < sizeof(*ps) ||
	    (x->dma_off && (__builtin_add_overflow(x->dma_off, x->dma_size, &end) ||
			    end > len)))
		return -EINVAL;
	ps = (const struct kbin_prog_section *)((const uint8_t *)buf + x->prog_off);
	if (sizeof(*ps) + (uint64_t)h->num_subgraphs * sizeof(struct kbin_prog_sg) +
	    (uint64_t)ps->num_instrs * (sizeof(struct kbin_prog_sync) +
					KBIN_PROG_RECORD_SIZE) != x->prog_size)
		return -EINVAL;
	kw_fill_prog(buf, h->num_subgraphs, h->target_gen, x->prog_off, x->dma_off);
	return 0;
}

/**
 * kbin_writer_finish() - lay out the plan and return its bytes.
 * @w: the writer; afterwards only kbin_writer_free() may be called on it.
 * @buf: out: the plan, malloc()'d (16-byte aligned), the caller frees it.
 * @len: out: its length in bytes (== kbin_header.total_size).
 *
 * Layout (Documentation/kbin-format.rst): the header (96 bytes, 64 for
 * version 1) at 0, the mem_ref sets back to back after it, the subgraph
 * table, the DMA section when any subgraph has a DMA queue (version 2
 * and 3), the program section when kbin_writer_add_prog() was called
 * (version 3: the records verbatim and each one's entry as
 * kbin_prog_check_sg() decodes it), then the data area: debug metadata (4-byte aligned), lists and
 * semaphore sets (4-byte aligned), names, and payloads (each a 16-byte
 * struct kbin_payload_hdr, then the bytes KBIN_PAYLOAD_ALIGN (64) byte
 * aligned in the file).  Fills every offset, index range and the
 * checksum.  Subgraph 0's record array becomes the plan, so a plan of
 * 10^6 records is not copied.
 *
 * Return: 0; -EINVAL with no subgraph, when already finished, for a
 * version 1 plan with DMA queues or a version 1 or 2 plan with a
 * program; -ENOMEM when out of memory or the plan size would overflow.
 * A program that breaks a rule is written all the same (a trigger that
 * names no block gets KBIN_PROG_NO_BLOCK): the checker refuses it.
 */
int kbin_writer_finish(struct kbin_writer *w, void **buf, size_t *len)
{
	uint64_t off, table_off, md_base, list_base, str_base, pay_base, total;
	uint64_t hdr_size, dma_off = 0, dma_size = 0, nq = 0, nb = 0, nd = 0;
	uint64_t prog_off = 0, prog_size = 0, ni = 0;
	struct kbin_mem_ref_set *set;
	struct kbin_header *h;
	struct kw_sg *s;
	uint32_t i, e, version;
	uint8_t *p;

	if (!w || !buf || !len || !w->nsg || w->finished)
		return -EINVAL;
	for (i = 0; i < w->nsg; i++) {
		nq += w->sgs[i].queues.n;
		nb += w->sgs[i].blocks.n;
		nd += w->sgs[i].descs.n;
		for (e = 0; e < KBIN_PROG_ENGINES; e++)
			ni += w->sgs[i].prog[e].len / KBIN_PROG_RECORD_SIZE;
	}
	version = w->version ? w->version :
		  w->has_prog ? KBIN_VERSION_PROG : KBIN_VERSION_PROG - 1;
	if (nq > UINT32_MAX || nb > UINT32_MAX || nd > UINT32_MAX ||
	    ni > UINT32_MAX || (nq && version == 1) ||
	    (w->has_prog && version < KBIN_VERSION_PROG))
		return -EINVAL;
	hdr_size = version == 1 ? KBIN_HEADER_SIZE_V1 : KBIN_HEADER_SIZE;
	off = hdr_size;
	for (i = 0; i < w->nsg; i++) {
		s = &w->sgs[i];
		s->sg.set_off = off;
		s->sg.set_size = sizeof(struct kbin_mem_ref_set) +
				 (uint64_t)s->n * sizeof(struct kbin_mem_ref);
		off += s->sg.set_size;
	}
	table_off = off;
	md_base = table_off + (uint64_t)w->nsg * sizeof(struct kbin_subgraph);
	if (nq) {
		struct kbin_dma_layout l;

		kbin_dma_layout(w->nsg, (uint32_t)nq, (uint32_t)nb,
				(uint32_t)nd, &l);
		dma_off = md_base;
		dma_size = l.size;
		md_base += dma_size;	/* every DMA record is 8-byte sized */
	}
	if (w->has_prog) {
		prog_off = md_base;
		prog_size = sizeof(struct kbin_prog_section) +
			    w->nsg * sizeof(struct kbin_prog_sg) +
			    ni * (sizeof(struct kbin_prog_sync) +
				  KBIN_PROG_RECORD_SIZE);
		md_base += prog_size;	/* 16 + 40 n + 80 i: 8-byte sized */
	}
	list_base = md_base + w->md.len;	/* md_base: a multiple of 8 */
	list_base = (list_base + 3) & ~3ULL;
	str_base = list_base + w->list.len;
	pay_base = str_base + w->str.len;
	pay_base = (pay_base + KBIN_PAYLOAD_ALIGN - 1) &
		   ~(uint64_t)(KBIN_PAYLOAD_ALIGN - 1);
	total = pay_base + w->pay.len;
	if (total > SIZE_MAX)
		return -ENOMEM;

	/* subgraph 0's array (prefix + records) grows into the plan */
	s = &w->sgs[0];
	p = realloc(s->mem, (size_t)total);
	if (!p)
		return -ENOMEM;
	s->mem = NULL;
	w->finished = 1;
	/* a shorter (version 1) header: the records move down */
	if (hdr_size + sizeof(struct kbin_mem_ref_set) != KW_PREFIX && s->n)
		memmove(p + hdr_size + sizeof(struct kbin_mem_ref_set),
			p + KW_PREFIX, s->n * sizeof(struct kbin_mem_ref));

	h = (struct kbin_header *)p;
	memset(h, 0, hdr_size);
	h->magic = KBIN_MAGIC;
	h->version = version;
	h->header_size = (uint32_t)hdr_size;
	h->total_size = total;
	h->flags = 0;
	h->target_gen = w->target_gen;
	h->num_subgraphs = w->nsg;
	h->subgraph_table_off = table_off;
	h->data_off = md_base;
	h->data_size = total - md_base;
	if (version != 1) {
		struct kbin_header_ext *x = (struct kbin_header_ext *)(h + 1);

		x->dma_off = dma_off;
		x->dma_size = dma_size;
		x->prog_off = prog_off;
		x->prog_size = prog_size;
	}

	for (i = 0; i < w->nsg; i++) {
		s = &w->sgs[i];
		set = (struct kbin_mem_ref_set *)(p + s->sg.set_off);
		if (i && s->n)
			memcpy(set->mem, kw_recs(s), s->n * sizeof(set->mem[0]));
		memset(set, 0, sizeof(*set));
		set->local_scratchpad_size = s->local_scratchpad_size;
		set->shared_scratchpad_size = s->shared_scratchpad_size;
		set->nmem = (uint32_t)s->n;
		kw_fix_recs(set->mem, s->has_list, s->n, md_base, list_base,
			    str_base, pay_base);
		memcpy(p + table_off + i * sizeof(struct kbin_subgraph), &s->sg,
		       sizeof(s->sg));
	}
	if (nq)
		kw_write_dma(w, p, dma_off, list_base, str_base);
	if (w->md.len)
		memcpy(p + md_base, w->md.p, w->md.len);
	memset(p + md_base + w->md.len, 0, list_base - md_base - w->md.len);
	if (w->list.len)
		memcpy(p + list_base, w->list.p, w->list.len);
	if (w->str.len)
		memcpy(p + str_base, w->str.p, w->str.len);
	memset(p + str_base + w->str.len, 0, pay_base - str_base - w->str.len);
	if (w->pay.len)
		memcpy(p + pay_base, w->pay.p, w->pay.len);
	if (w->has_prog)	/* after the DMA section and the names */
		kw_write_prog(w, p, prog_off, dma_off, (uint32_t)ni);
	kbin_fix_checksum(p, (size_t)total);
	*buf = p;
	*len = (size_t)total;
	return 0;
}
