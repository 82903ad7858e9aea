// SPDX-License-Identifier: GPL-2.0
/*
 * kbin_reader.c - read a KBIN static memory plan on the host.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kbin_dma.h"
#include "kbin_kind.h"
#include "kbin_reader.h"

/**
 * kbin_read() - check a plan and open a view on it.
 * @buf: the plan, 8-byte aligned (malloc() memory is).
 * @len: bytes at @buf.
 * @v: out: the view (pointers into @buf).
 * @res: out: the checker's finding; may be NULL.
 *
 * Runs kbin_check_plan() (every rule of Documentation/kbin-format.rst)
 * first, so every accessor below can trust the offsets.
 *
 * Return: 0 for a well-formed plan; -EINVAL when @v is NULL or the checker
 * refuses the plan (@res says where and why).
 */
int kbin_read(const void *buf, size_t len, struct kbin_view *v,
	      struct kbin_check_result *res)
{
	struct kbin_check_result local;

	if (!res)
		res = &local;
	if (!v)
		return -EINVAL;
	memset(v, 0, sizeof(*v));
	if (kbin_check_plan(buf, len, res) != KBIN_OK)
		return -EINVAL;
	v->buf = buf;
	v->len = len;
	v->hdr = buf;
	v->num_subgraphs = v->hdr->num_subgraphs;
	if (v->hdr->version >= 2) {
		const struct kbin_header_ext *x = (const void *)(v->hdr + 1);

		if (x->dma_off)
			v->dma = (const void *)(v->buf + x->dma_off);
		if (v->hdr->version >= KBIN_VERSION_PROG && x->prog_off)
			v->prog = (const void *)(v->buf + x->prog_off);
	}
	return 0;
}

/**
 * kbin_view_subgraph() - subgraph table entry @i.
 * @v: a view from kbin_read().
 * @i: 0..num_subgraphs - 1.
 *
 * Return: the entry (152 bytes, in the plan), or NULL when @i is out of
 * range.
 */
const struct kbin_subgraph *kbin_view_subgraph(const struct kbin_view *v,
					       uint32_t i)
{
	if (!v || !v->hdr || i >= v->num_subgraphs)
		return NULL;
	return (const struct kbin_subgraph *)(v->buf + v->hdr->subgraph_table_off) + i;
}

/**
 * kbin_view_set() - the mem_ref set of subgraph @i.
 * @v: a view from kbin_read().
 * @i: 0..num_subgraphs - 1.
 *
 * Return: the 24-byte set header followed by nmem 152-byte records, or
 * NULL when @i is out of range.
 */
const struct kbin_mem_ref_set *kbin_view_set(const struct kbin_view *v,
					     uint32_t i)
{
	const struct kbin_subgraph *sg = kbin_view_subgraph(v, i);

	if (!sg)
		return NULL;
	return (const struct kbin_mem_ref_set *)(v->buf + sg->set_off);
}

/**
 * kbin_view_str() - a NUL-terminated string of the data area.
 * @v: a view from kbin_read().
 * @off: file offset, e.g. a record's name.
 *
 * Return: the string, or NULL when @off is 0 or outside the data area.
 * For an offset a record holds, the checker has verified the NUL.
 */
const char *kbin_view_str(const struct kbin_view *v, uint64_t off)
{
	if (!v || !v->hdr || !off || off < v->hdr->data_off || off >= v->len)
		return NULL;
	if (!memchr(v->buf + off, '\0', v->len - off))
		return NULL;
	return (const char *)v->buf + off;
}

/**
 * kbin_view_list() - the __u32 entries of an MR_LIST / MR_PTR_TABLE.
 * @v: a view from kbin_read().
 * @rec: a record of that view.
 *
 * Return: rec->list.length entries, or NULL when @rec's kind has no list
 * (its union variant in the kind table is not the list).
 */
const uint32_t *kbin_view_list(const struct kbin_view *v,
			       const struct kbin_mem_ref *rec)
{
	if (!v || !v->hdr || !rec ||
	    kbin_kind(rec->mr_type)->variant != KBIN_VARIANT_LIST ||
	    !rec->list.list)
		return NULL;
	return (const uint32_t *)(v->buf + rec->list.list);
}

/**
 * kbin_view_payload() - the weight payload of a record.
 * @v: a view from kbin_read().
 * @rec: a record of that view.
 *
 * Return: rec->size bytes (64-byte aligned in the file), or NULL when the
 * record has no payload.
 */
const void *kbin_view_payload(const struct kbin_view *v,
			      const struct kbin_mem_ref *rec)
{
	if (!v || !v->hdr || !rec || !rec->buffer)
		return NULL;
	return v->buf + rec->buffer;
}

/**
 * kbin_view_md() - the debug tensor metadata of a record.
 * @v: a view from kbin_read().
 * @rec: a record of that view.
 *
 * Return: the 516-byte metadata, or NULL when the record has none.
 */
const struct kbin_debug_tensor_md *
kbin_view_md(const struct kbin_view *v, const struct kbin_mem_ref *rec)
{
	if (!v || !v->hdr || !rec || !rec->dtensor_md)
		return NULL;
	return (const struct kbin_debug_tensor_md *)(v->buf + rec->dtensor_md);
}

/**
 * kbin_view_dma_sg() - the DMA queues, blocks and descriptors of a
 *	subgraph.
 * @v: a view from kbin_read().
 * @sg: 0..num_subgraphs - 1.
 * @out: out: pointers into the plan and counts; all zero when the plan
 *	has no DMA section (version 1, or none written).
 *
 * Return: 0, or -EINVAL when @sg is out of range.
 */
int kbin_view_dma_sg(const struct kbin_view *v, uint32_t sg,
		     struct kbin_dma_sg_view *out)
{
	const struct kbin_dma_queue *q;
	const struct kbin_dma_block *b;
	const struct kbin_dma_desc *d;
	const struct kbin_dma_sg *e;
	struct kbin_dma_layout l;

	if (!v || !v->hdr || !out || sg >= v->num_subgraphs)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	if (!v->dma)
		return 0;
	e = &v->dma->sg[sg];
	kbin_dma_layout(v->num_subgraphs, v->dma->num_queues,
			v->dma->num_blocks, v->dma->num_descs, &l);
	q = (const void *)((const uint8_t *)v->dma + l.queues);
	b = (const void *)((const uint8_t *)v->dma + l.blocks);
	d = (const void *)((const uint8_t *)v->dma + l.descs);
	out->queues = q + e->first_queue;
	out->blocks = b + e->first_block;
	out->descs = d + e->first_desc;
	out->num_queues = e->num_queues;
	out->num_blocks = e->num_blocks;
	out->num_descs = e->num_descs;
	out->first_block = e->first_block;
	out->first_desc = e->first_desc;
	return 0;
}

/**
 * kbin_view_semaphores() - a DMA queue's semaphore set.
 * @v: a view from kbin_read().
 * @q: a queue of that view.
 *
 * Return: q->num_semaphores entries, or NULL when it has none.
 */
const uint32_t *kbin_view_semaphores(const struct kbin_view *v,
				     const struct kbin_dma_queue *q)
{
	if (!v || !v->hdr || !q || !q->num_semaphores)
		return NULL;
	return (const uint32_t *)(v->buf + q->semaphores);
}

/**
 * kbin_view_prog_sg() - the instruction streams of a subgraph.
 * @v: a view from kbin_read().
 * @sg: 0..num_subgraphs - 1.
 * @out: out: per engine pointers into the plan and counts; all zero when
 *	the plan has no program section.
 *
 * Return: 0, or -EINVAL when @sg is out of range.
 */
int kbin_view_prog_sg(const struct kbin_view *v, uint32_t sg,
		      struct kbin_prog_sg_view *out)
{
	const struct kbin_prog_sync *sync;
	const uint8_t *recs;
	uint32_t e;

	if (!v || !v->hdr || !out || sg >= v->num_subgraphs)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	if (!v->prog)
		return 0;
	sync = (const void *)(v->prog->sg + v->num_subgraphs);
	recs = (const uint8_t *)(sync + v->prog->num_instrs);
	for (e = 0; e < KBIN_PROG_ENGINES; e++) {
		const struct kbin_prog_stream *st = &v->prog->sg[sg].engine[e];

		out->records[e] = recs + (uint64_t)st->first * KBIN_PROG_RECORD_SIZE;
		out->sync[e] = sync + st->first;
		out->num[e] = st->num;
	}
	return 0;
}
