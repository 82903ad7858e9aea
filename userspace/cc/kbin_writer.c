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

#include "kbin_writer.h"

struct kw_pool {
	uint8_t *p;
	size_t len;
	size_t cap;
};

/* file header + set header in front of every record array */
#define KW_PREFIX	(sizeof(struct kbin_header) + sizeof(struct kbin_mem_ref_set))

struct kw_sg {
	struct kbin_subgraph sg;
	uint64_t local_scratchpad_size;
	uint64_t shared_scratchpad_size;
	uint8_t *mem;		/* KW_PREFIX bytes, then the records */
	uint8_t *has_list;	/* per record: list.list is a list pool index */
	size_t n;
	size_t cap;
};

struct kbin_writer {
	uint32_t target_gen;
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
 * kbin_writer_free() - free a writer and everything it copied.
 * @w: the writer, or NULL.
 */
void kbin_writer_free(struct kbin_writer *w)
{
	uint32_t i;

	if (!w)
		return;
	for (i = 0; i < w->nsg; i++) {
		free(w->sgs[i].mem);
		free(w->sgs[i].has_list);
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

/**
 * kbin_writer_finish() - lay out the plan and return its bytes.
 * @w: the writer; afterwards only kbin_writer_free() may be called on it.
 * @buf: out: the plan, malloc()'d (16-byte aligned), the caller frees it.
 * @len: out: its length in bytes (== kbin_header.total_size).
 *
 * Layout (Documentation/kbin-format.rst): header at 0, the mem_ref sets
 * back to back from 64, the subgraph table, then the data area: debug
 * metadata (4-byte aligned), lists (4-byte aligned), names, and payloads
 * (each a 16-byte struct kbin_payload_hdr, then the bytes KBIN_PAYLOAD_ALIGN
 * (64) byte aligned in the file).  Fills every offset and the checksum.
 * Subgraph 0's record array becomes the plan, so a plan of 10^6 records
 * is not copied.
 *
 * Return: 0; -EINVAL with no subgraph or when already finished; -ENOMEM
 * when out of memory or the plan size would overflow.
 */
int kbin_writer_finish(struct kbin_writer *w, void **buf, size_t *len)
{
	uint64_t off, table_off, md_base, list_base, str_base, pay_base, total;
	struct kbin_mem_ref_set *set;
	struct kbin_header *h;
	struct kw_sg *s;
	uint8_t *p;
	uint32_t i;

	if (!w || !buf || !len || !w->nsg || w->finished)
		return -EINVAL;
	off = sizeof(*h);
	for (i = 0; i < w->nsg; i++) {
		s = &w->sgs[i];
		s->sg.set_off = off;
		s->sg.set_size = sizeof(struct kbin_mem_ref_set) +
				 (uint64_t)s->n * sizeof(struct kbin_mem_ref);
		off += s->sg.set_size;
	}
	table_off = off;
	md_base = table_off + (uint64_t)w->nsg * sizeof(struct kbin_subgraph);
	list_base = md_base + w->md.len;	/* md_base: a multiple of 8 */
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

	h = (struct kbin_header *)p;
	memset(h, 0, sizeof(*h));
	h->magic = KBIN_MAGIC;
	h->version = KBIN_VERSION;
	h->header_size = sizeof(*h);
	h->total_size = total;
	h->flags = 0;
	h->target_gen = w->target_gen;
	h->num_subgraphs = w->nsg;
	h->subgraph_table_off = table_off;
	h->data_off = md_base;
	h->data_size = total - md_base;

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
	if (w->md.len)
		memcpy(p + md_base, w->md.p, w->md.len);
	if (w->list.len)
		memcpy(p + list_base, w->list.p, w->list.len);
	if (w->str.len)
		memcpy(p + str_base, w->str.p, w->str.len);
	memset(p + str_base + w->str.len, 0, pay_base - str_base - w->str.len);
	if (w->pay.len)
		memcpy(p + pay_base, w->pay.p, w->pay.len);
	kbin_fix_checksum(p, (size_t)total);
	*buf = p;
	*len = (size_t)total;
	return 0;
}
