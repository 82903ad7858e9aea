// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * kbin_check.c - the KBIN plan checker.
 *
 * One checker for an untrusted plan, compiled into neuronsim.ko (called by
 * NEURONSIM_IOC_LOAD before anything is staged) and into the host library,
 * the host tests and the libFuzzer target.  Plain C: no libc, no kernel
 * calls beyond kbin_compat.h, no allocation, no recursion, a small stack.
 *
 * The plan is checked in four passes, and the first problem found is the
 * one reported:
 *   1. the file header, the DMA section's place and size (version 2), the
 *      data area, the subgraph table, each subgraph entry with its
 *      carve-outs and the extent of its mem_ref set;
 *   2. each record on its own (subgraph by subgraph, record by record);
 *   3. the references between records: MR_PTR targets, MR_PTR_TABLE
 *      entries and MR_REMOTE targets;
 *   4. the DMA section, subgraph by subgraph: each queue, its blocks in
 *      order, their descriptors in order (kbin_dma.h's rules);
 *   5. the program section (version 3), subgraph by subgraph: its stream
 *      ranges, then kbin_prog_check_sg() (kbin_prog.h's rules).
 * Every pass is linear, so the whole check is O(total records + total list
 * entries + DMA records + instructions).  The dense var_id rule of libnrt (record i has var_id i,
 * Documentation/kbin-format.rst) makes "missing var" and "duplicate
 * var_id" O(1) tests.  What a record may hold depends on its kind's row
 * in the kind table (kbin_kind.h) and the geometry on the target's row
 * in the generation table (kbin_gen.h); no rule lists mr_type values.
 *
 * Documentation/kbin-format.rst lists every rule with its reason code.
 */

#include "kbin_compat.h"
#include "kbin_check.h"
#include "kbin_dma.h"
#include "kbin_gen.h"
#include "kbin_kind.h"
#include "kbin_layout.h"
#include "kbin_prog.h"

#define KBIN_MD_SIZE		((__u64)sizeof(struct kbin_debug_tensor_md))
#define KBIN_PREFIX_MAX		512U
#define KBIN_REC_SIZE		((__u64)sizeof(struct kbin_mem_ref))
#define KBIN_SET_HDR		((__u64)sizeof(struct kbin_mem_ref_set))
#define KBIN_PHDR		((__u64)sizeof(struct kbin_payload_hdr))

/* Checker state: the plan, the data area, and where to report. */
struct kbin_ck {
	const __u8 *base;
	__u64 len;
	const struct kbin_header *h;
	__u64 hdr_size;		/* header_size: 64 (version 1) or 96 */
	__u64 data_off;		/* data area is [data_off, len) */
	__u64 dma_off;		/* the DMA section, 0 when none */
	__u64 dma_size;
	const struct kbin_dma_section *dma;
	const struct kbin_dma_queue *queues;	/* the section's tables */
	const struct kbin_dma_block *blocks;
	const struct kbin_dma_desc *descs;
	const struct kbin_gen *gen;	/* the target generation */
	struct kbin_check_result *res;
	__u64 prog_off;		/* the program section, 0 when none */
	__u64 prog_size;
	const struct kbin_prog_section *prog;
	const struct kbin_prog_sync *psync;	/* its tables */
	const __u8 *precs;
};

static unsigned int kbin_check_prog_area(struct kbin_ck *c);
static unsigned int kbin_check_prog(struct kbin_ck *c);

/* ---- a tiny bounded formatter: %s %c %d %u %lld %llu %llx %% ---- */

struct kbin_out {
	char *p;
	unsigned int cap;
	unsigned int pos;
};

static void kbin_putc(struct kbin_out *o, char ch)
{
	if (o->pos + 1 < o->cap)
		o->p[o->pos++] = ch;
	o->p[o->pos] = '\0';
}

static void kbin_puts(struct kbin_out *o, const char *s)
{
	if (!s)
		s = "(null)";
	while (*s)
		kbin_putc(o, *s++);
}

static void kbin_putu(struct kbin_out *o, unsigned long long v, unsigned int b)
{
	static const char digits[] = "0123456789abcdef";
	char tmp[24];
	int n = 0;

	do {
		tmp[n++] = digits[v % b];
		v /= b;
	} while (v);
	while (n)
		kbin_putc(o, tmp[--n]);
}

static void kbin_puti(struct kbin_out *o, long long v)
{
	if (v < 0) {
		kbin_putc(o, '-');
		kbin_putu(o, 0ULL - (unsigned long long)v, 10);
	} else {
		kbin_putu(o, (unsigned long long)v, 10);
	}
}

static void kbin_vfmt(struct kbin_out *o, const char *fmt, va_list ap)
{
	while (*fmt) {
		int ll = 0;

		if (*fmt != '%') {
			kbin_putc(o, *fmt++);
			continue;
		}
		fmt++;
		if (fmt[0] == 'l' && fmt[1] == 'l') {
			ll = 1;
			fmt += 2;
		}
		switch (*fmt) {
		case 's':
			kbin_puts(o, va_arg(ap, const char *));
			break;
		case 'c':
			kbin_putc(o, (char)va_arg(ap, int));
			break;
		case 'd':
			kbin_puti(o, ll ? va_arg(ap, long long) : va_arg(ap, int));
			break;
		case 'u':
			kbin_putu(o, ll ? va_arg(ap, unsigned long long) :
				  va_arg(ap, unsigned int), 10);
			break;
		case 'x':
			kbin_putu(o, ll ? va_arg(ap, unsigned long long) :
				  va_arg(ap, unsigned int), 16);
			break;
		case '%':
			kbin_putc(o, '%');
			break;
		default:
			/* unknown conversion: end the message */
			return;
		}
		fmt++;
	}
}

/*
 * Record the first problem and return its reason.  @mr, when not NULL, is
 * the record the problem is about (its var_id goes into the message).
 */
static KBIN_PRINTF(8, 9)
unsigned int kbin_fail(struct kbin_ck *c, int sg, long long rec,
		       const struct kbin_mem_ref *mr, unsigned int field,
		       unsigned int reason, __u64 value, const char *fmt, ...)
{
	struct kbin_check_result *res = c->res;
	struct kbin_out o = { res->err.msg, sizeof(res->err.msg), 0 };
	va_list ap;

	res->err.subgraph = sg;
	res->err.record = rec;
	res->item = -1;
	res->err.field = field;
	res->err.reason = reason;
	res->err.value = value;
	res->err.msg[0] = '\0';
	if (sg >= 0) {
		kbin_puts(&o, "sg ");
		kbin_puti(&o, sg);
		if (rec >= 0) {
			kbin_puts(&o, " record ");
			kbin_puti(&o, rec);
			if (mr) {
				kbin_puts(&o, " (var_id ");
				kbin_putu(&o, mr->var_id, 10);
				kbin_putc(&o, ')');
			}
		}
		kbin_puts(&o, ": ");
	}
	res->err.text = o.pos;
	va_start(ap, fmt);
	kbin_vfmt(&o, fmt, ap);
	va_end(ap);
	return reason;
}

/*
 * Where in the DMA section a finding is: the subgraph, the queue (always),
 * the block and the descriptor when set (>= 0), the side; @item is the
 * index of the record within the subgraph that res->item reports.
 */
struct kbin_dma_at {
	int sg;
	long long item;
	__u32 queue;
	const char *qname;	/* NULL until the queue's name is checked */
	long long block;	/* block id in the queue, or -1 */
	long long desc;		/* descriptor in the block, or -1 */
	const char *side;	/* "from", "to" or NULL */
};

/* As kbin_fail(), for a record of the DMA section at @at. */
static KBIN_PRINTF(6, 7)
unsigned int kbin_fail_dma(struct kbin_ck *c, const struct kbin_dma_at *at,
			   unsigned int field, unsigned int reason, __u64 value,
			   const char *fmt, ...)
{
	struct kbin_check_result *res = c->res;
	struct kbin_out o = { res->err.msg, sizeof(res->err.msg), 0 };
	va_list ap;

	res->err.subgraph = at->sg;
	res->err.record = -1;
	res->item = at->item;
	res->err.field = field;
	res->err.reason = reason;
	res->err.value = value;
	res->err.msg[0] = '\0';
	kbin_puts(&o, "sg ");
	kbin_puti(&o, at->sg);
	kbin_puts(&o, " dma queue ");
	kbin_putu(&o, at->queue, 10);
	if (at->qname) {
		kbin_puts(&o, " '");
		kbin_puts(&o, at->qname);
		kbin_putc(&o, '\'');
	}
	if (at->block >= 0) {
		kbin_puts(&o, " block ");
		kbin_puti(&o, at->block);
	}
	if (at->desc >= 0) {
		kbin_puts(&o, " descriptor ");
		kbin_puti(&o, at->desc);
	}
	if (at->side) {
		kbin_putc(&o, ' ');
		kbin_puts(&o, at->side);
	}
	kbin_puts(&o, ": ");
	res->err.text = o.pos;
	va_start(ap, fmt);
	kbin_vfmt(&o, fmt, ap);
	va_end(ap);
	return reason;
}

/* ---- the target's geometry ---- */

/**
 * kbin_sbuf_partition_size() - SBUF bytes per partition of a generation a
 *	plan may target (the generation table, kbin_gen.h).
 * @target_gen: kbin_header.target_gen.
 *
 * Return: the row's sbuf_partition_size; 0 for a generation no plan may
 * target (unknown, or known by name only).
 */
unsigned long long kbin_sbuf_partition_size(unsigned int target_gen)
{
	const struct kbin_gen *g = kbin_gen_target(target_gen);

	return g ? g->sbuf_partition_size : 0;
}

/* ---- helpers ---- */

static int kbin_nonzero(const void *p, __u64 n)
{
	const __u8 *b = p;
	__u64 i;

	for (i = 0; i < n; i++)
		if (b[i])
			return 1;
	return 0;
}

/* Index of the first NUL in p[0..n), or n when there is none. */
static __u64 kbin_strnlen(const void *p, __u64 n)
{
	const __u8 *b = p;
	__u64 i;

	for (i = 0; i < n && b[i]; i++)
		;
	return i;
}

/*
 * Index of the first control character (0x00..0x1f, 0x7f) in p[0..n), or
 * n when there is none.  Names and dtypes end up in the tab-separated
 * debugfs tables and in log lines, where a tab, newline or escape
 * sequence would forge or garble rows.
 */
static __u64 kbin_find_ctrl(const void *p, __u64 n)
{
	const __u8 *b = p;
	__u64 i;

	for (i = 0; i < n && b[i] >= 0x20 && b[i] != 0x7f; i++)
		;
	return i;
}

/* Is [off, off + n) inside the data area?  Checked arithmetic. */
static int kbin_in_data(const struct kbin_ck *c, __u64 off, __u64 n)
{
	__u64 end;

	if (off < c->data_off || off > c->len)
		return 0;
	if (__builtin_add_overflow(off, n, &end))
		return 0;
	return end <= c->len;
}

static const struct kbin_subgraph *kbin_sg(const struct kbin_ck *c, __u32 i)
{
	return (const struct kbin_subgraph *)(c->base + c->h->subgraph_table_off) + i;
}

static const struct kbin_mem_ref_set *kbin_set(const struct kbin_ck *c, __u32 i)
{
	return (const struct kbin_mem_ref_set *)(c->base + kbin_sg(c, i)->set_off);
}

static int kbin_ranges_overlap(__u64 a, __u64 alen, __u64 b, __u64 blen)
{
	return a < b + blen && b < a + alen;
}

/* ---- pass 1: header, data area, subgraph table, carve-outs, sets ---- */

/*
 * The place of an optional section of the metadata area (the DMA section,
 * the program section), named @what ("DMA") with field prefix @key
 * ("dma"), present (@off not 0): 8-byte aligned, inside the metadata
 * area, past the header, clear of the subgraph table.  Return: KBIN_OK,
 * or the refusal on @field (@count_err: a size without a section).
 */
static unsigned int kbin_check_section_place(struct kbin_ck *c,
					     unsigned int field,
					     unsigned int count_err,
					     const char *what, const char *key,
					     __u64 off, __u64 size)
{
	__u64 toff = c->h->subgraph_table_off;
	__u64 tlen = (__u64)c->h->num_subgraphs * sizeof(struct kbin_subgraph);
	__u64 end;

	if (!off)
		return kbin_fail(c, -1, -1, NULL, field, count_err, size,
				 "%s_size %llu without a %s section (%s_off 0)",
				 key, (unsigned long long)size, what, key);
	if (off & 7)
		return kbin_fail(c, -1, -1, NULL, field, KBIN_ERR_MISALIGNED,
				 off, "%s section at 0x%llx is not 8-byte aligned",
				 what, (unsigned long long)off);
	if (__builtin_add_overflow(off, size, &end) || end > c->data_off)
		return kbin_fail(c, -1, -1, NULL, field, KBIN_ERR_BOUNDS, off,
				 "%s section 0x%llx + %llu runs past the metadata area end 0x%llx",
				 what, (unsigned long long)off,
				 (unsigned long long)size,
				 (unsigned long long)c->data_off);
	if (off < c->hdr_size)
		return kbin_fail(c, -1, -1, NULL, field, KBIN_ERR_OVERLAP, off,
				 "%s section at 0x%llx overlaps the header",
				 what, (unsigned long long)off);
	if (kbin_ranges_overlap(off, size, toff, tlen))
		return kbin_fail(c, -1, -1, NULL, field, KBIN_ERR_OVERLAP, off,
				 "%s section at 0x%llx overlaps the subgraph table",
				 what, (unsigned long long)off);
	return KBIN_OK;
}

/*
 * The version 2 header fields and the DMA section's place and size: in
 * the metadata area after the header, 8-byte aligned, not over the
 * subgraph table (the sets are compared with it in kbin_check_subgraph()),
 * exactly as long as its counts say.
 */
static unsigned int kbin_check_dma_area(struct kbin_ck *c)
{
	const struct kbin_header_ext *x = (const void *)(c->base + sizeof(*c->h));
	const struct kbin_dma_section *d;
	struct kbin_dma_layout l;
	unsigned int r;

	if (c->h->version < KBIN_VERSION_PROG && (x->prog_off || x->prog_size))
		return kbin_fail(c, -1, -1, NULL, KBIN_FIELD_PROG_SECTION,
				 KBIN_ERR_RESERVED, x->prog_off | x->prog_size,
				 "header reserved fields (prog_off, prog_size from version %u) are not zero",
				 KBIN_VERSION_PROG);
	if (!x->dma_off && !x->dma_size)
		return KBIN_OK;
	r = kbin_check_section_place(c, KBIN_FIELD_DMA_SECTION,
				     KBIN_ERR_DMA_COUNT, "DMA", "dma",
				     x->dma_off, x->dma_size);
	if (r)
		return r;
	d = (const void *)(c->base + x->dma_off);
	kbin_dma_layout(c->h->num_subgraphs, 0, 0, 0, &l);
	if (x->dma_size < l.size)
		return kbin_fail(c, -1, -1, NULL, KBIN_FIELD_DMA_SECTION,
				 KBIN_ERR_DMA_COUNT, x->dma_size,
				 "dma_size %llu is below the %llu bytes of its header and %u subgraph entries",
				 (unsigned long long)x->dma_size,
				 (unsigned long long)l.size, c->h->num_subgraphs);
	kbin_dma_layout(c->h->num_subgraphs, d->num_queues, d->num_blocks,
			d->num_descs, &l);
	c->queues = (const void *)((const __u8 *)d + l.queues);
	c->blocks = (const void *)((const __u8 *)d + l.blocks);
	c->descs = (const void *)((const __u8 *)d + l.descs);
	if (l.size != x->dma_size)
		return kbin_fail(c, -1, -1, NULL, KBIN_FIELD_DMA_SECTION,
				 KBIN_ERR_DMA_COUNT, x->dma_size,
				 "dma_size %llu is not the %llu bytes of %u queues, %u blocks and %u descriptors",
				 (unsigned long long)x->dma_size,
				 (unsigned long long)l.size, d->num_queues,
				 d->num_blocks, d->num_descs);
	if (d->reserved)
		return kbin_fail(c, -1, -1, NULL, KBIN_FIELD_DMA_SECTION,
				 KBIN_ERR_RESERVED, d->reserved,
				 "DMA section reserved is 0x%x, not 0", d->reserved);
	c->dma_off = x->dma_off;
	c->dma_size = x->dma_size;
	c->dma = d;
	return KBIN_OK;
}

static unsigned int kbin_check_header(struct kbin_ck *c)
{
	const struct kbin_header *h = c->h;
	unsigned int r;
	__u64 end;
	__u32 crc;

	if (h->magic != KBIN_MAGIC)
		return kbin_fail(c, -1, -1, NULL, KBIN_FIELD_MAGIC, KBIN_ERR_MAGIC,
				 h->magic, "magic 0x%x is not 0x%x (\"KBIN\")",
				 h->magic, KBIN_MAGIC);
	if (h->version < KBIN_VERSION_MIN || h->version > KBIN_VERSION)
		return kbin_fail(c, -1, -1, NULL, KBIN_FIELD_VERSION,
				 KBIN_ERR_VERSION, h->version,
				 "version %u is not %u..%u", h->version,
				 KBIN_VERSION_MIN, KBIN_VERSION);
	c->hdr_size = h->version == 1 ? KBIN_HEADER_SIZE_V1 : KBIN_HEADER_SIZE;
	if (h->header_size != c->hdr_size)
		return kbin_fail(c, -1, -1, NULL, KBIN_FIELD_HEADER_SIZE,
				 KBIN_ERR_HEADER_SIZE, h->header_size,
				 "header_size %u is not %u (version %u)",
				 h->header_size, (unsigned int)c->hdr_size,
				 h->version);
	if (c->len < c->hdr_size)
		return kbin_fail(c, -1, -1, NULL, KBIN_FIELD_TOTAL_SIZE,
				 KBIN_ERR_TRUNCATED, c->len,
				 "plan is %llu bytes, shorter than the %u-byte version %u header",
				 (unsigned long long)c->len,
				 (unsigned int)c->hdr_size, h->version);
	if (h->total_size != c->len)
		return kbin_fail(c, -1, -1, NULL, KBIN_FIELD_TOTAL_SIZE,
				 KBIN_ERR_TOTAL_SIZE, h->total_size,
				 "total_size %llu is not the plan length %llu",
				 (unsigned long long)h->total_size,
				 (unsigned long long)c->len);
	if (h->flags & ~KBIN_F_MASK)
		return kbin_fail(c, -1, -1, NULL, KBIN_FIELD_FLAGS, KBIN_ERR_FLAGS,
				 h->flags, "flags 0x%llx has unknown bits 0x%llx",
				 (unsigned long long)h->flags,
				 (unsigned long long)(h->flags & ~KBIN_F_MASK));
	c->gen = kbin_gen_target(h->target_gen);
	if (!c->gen)
		return kbin_fail(c, -1, -1, NULL, KBIN_FIELD_TARGET_GEN,
				 KBIN_ERR_TARGET, h->target_gen,
				 "target_gen %u is not 2, 3 or 4", h->target_gen);
	crc = kbin_crc32(c->base + 16, c->len - 16);
	if (crc != h->checksum)
		return kbin_fail(c, -1, -1, NULL, KBIN_FIELD_CHECKSUM,
				 KBIN_ERR_CHECKSUM, h->checksum,
				 "checksum 0x%x does not match the computed 0x%x",
				 h->checksum, crc);
	if (!h->num_subgraphs || h->num_subgraphs > KBIN_MAX_SUBGRAPHS)
		return kbin_fail(c, -1, -1, NULL, KBIN_FIELD_NUM_SUBGRAPHS,
				 KBIN_ERR_NUM_SUBGRAPHS, h->num_subgraphs,
				 "num_subgraphs %u is not 1..%u",
				 h->num_subgraphs, KBIN_MAX_SUBGRAPHS);

	/* data area: [data_off, total_size), after the header, 8-aligned */
	if (__builtin_add_overflow(h->data_off, h->data_size, &end) ||
	    end != c->len)
		return kbin_fail(c, -1, -1, NULL, KBIN_FIELD_DATA_AREA,
				 KBIN_ERR_BOUNDS, h->data_off,
				 "data area 0x%llx + %llu does not end at total_size %llu",
				 (unsigned long long)h->data_off,
				 (unsigned long long)h->data_size,
				 (unsigned long long)c->len);
	if (h->data_off < c->hdr_size)
		return kbin_fail(c, -1, -1, NULL, KBIN_FIELD_DATA_AREA,
				 KBIN_ERR_OVERLAP, h->data_off,
				 "data area at 0x%llx overlaps the header",
				 (unsigned long long)h->data_off);
	if (h->data_off & 7)
		return kbin_fail(c, -1, -1, NULL, KBIN_FIELD_DATA_AREA,
				 KBIN_ERR_MISALIGNED, h->data_off,
				 "data area at 0x%llx is not 8-byte aligned",
				 (unsigned long long)h->data_off);
	c->data_off = h->data_off;

	/* subgraph table: in the metadata area, after the header */
	if (h->subgraph_table_off & 7)
		return kbin_fail(c, -1, -1, NULL, KBIN_FIELD_SUBGRAPH_TABLE,
				 KBIN_ERR_MISALIGNED, h->subgraph_table_off,
				 "subgraph table at 0x%llx is not 8-byte aligned",
				 (unsigned long long)h->subgraph_table_off);
	if (__builtin_add_overflow(h->subgraph_table_off,
				   (__u64)h->num_subgraphs * sizeof(struct kbin_subgraph),
				   &end) || end > c->data_off)
		return kbin_fail(c, -1, -1, NULL, KBIN_FIELD_SUBGRAPH_TABLE,
				 KBIN_ERR_BOUNDS, h->subgraph_table_off,
				 "subgraph table at 0x%llx (%u entries) runs past the metadata area end 0x%llx",
				 (unsigned long long)h->subgraph_table_off,
				 h->num_subgraphs,
				 (unsigned long long)c->data_off);
	if (h->subgraph_table_off < c->hdr_size)
		return kbin_fail(c, -1, -1, NULL, KBIN_FIELD_SUBGRAPH_TABLE,
				 KBIN_ERR_OVERLAP, h->subgraph_table_off,
				 "subgraph table at 0x%llx overlaps the header",
				 (unsigned long long)h->subgraph_table_off);
	if (h->version == 1)
		return KBIN_OK;
	r = kbin_check_dma_area(c);
	return r ? r : kbin_check_prog_area(c);
}

static unsigned int kbin_check_carveouts(struct kbin_ck *c, int i,
					 const struct kbin_subgraph *sg)
{
	__u32 k;

	if (sg->num_carveouts > KBIN_MAX_CARVEOUTS)
		return kbin_fail(c, i, -1, NULL, KBIN_FIELD_CARVEOUT,
				 KBIN_ERR_CARVEOUT, sg->num_carveouts,
				 "num_carveouts %u is above %u",
				 sg->num_carveouts, KBIN_MAX_CARVEOUTS);
	for (k = 0; k < KBIN_MAX_CARVEOUTS; k++) {
		const struct kbin_sb_carveout *co = &sg->carveouts[k];
		__u64 end;

		if (k >= sg->num_carveouts) {
			if (kbin_nonzero(co, sizeof(*co)))
				return kbin_fail(c, i, -1, NULL, KBIN_FIELD_CARVEOUT,
						 KBIN_ERR_RESERVED, k,
						 "unused carve-out %u is not zero", k);
			continue;
		}
		if (co->type != KBIN_CARVEOUT_EVTACCEL)
			return kbin_fail(c, i, -1, NULL, KBIN_FIELD_CARVEOUT,
					 KBIN_ERR_CARVEOUT, co->type,
					 "carve-out %u type %u is not %u (%s)",
					 k, co->type, KBIN_CARVEOUT_EVTACCEL,
					 kbin_carveout_type_str(KBIN_CARVEOUT_EVTACCEL));
		end = (__u64)co->offset + co->size;
		if (!co->size || end > c->gen->sbuf_partition_size)
			return kbin_fail(c, i, -1, NULL, KBIN_FIELD_CARVEOUT,
					 KBIN_ERR_CARVEOUT, co->size,
					 "carve-out %u bytes [%u, +%u) are not inside the %u-byte SBUF partition",
					 k, co->offset, co->size,
					 c->gen->sbuf_partition_size);
		end = (__u64)co->start_partition + co->num_partitions;
		if (!co->num_partitions || end > c->gen->sbuf_partitions)
			return kbin_fail(c, i, -1, NULL, KBIN_FIELD_CARVEOUT,
					 KBIN_ERR_CARVEOUT, co->num_partitions,
					 "carve-out %u partitions [%u, +%u) are not inside 0..%u",
					 k, co->start_partition, co->num_partitions,
					 c->gen->sbuf_partitions);
		if (co->reserved)
			return kbin_fail(c, i, -1, NULL, KBIN_FIELD_CARVEOUT,
					 KBIN_ERR_RESERVED, co->reserved,
					 "carve-out %u reserved is 0x%x, not 0",
					 k, co->reserved);
	}
	return KBIN_OK;
}

static unsigned int kbin_check_subgraph(struct kbin_ck *c, __u32 i)
{
	const struct kbin_subgraph *sg = kbin_sg(c, i);
	const struct kbin_mem_ref_set *set;
	__u64 toff = c->h->subgraph_table_off;
	__u64 tlen = (__u64)c->h->num_subgraphs * sizeof(*sg);
	__u64 n, end, want;
	unsigned int r;
	__u32 j;

	n = kbin_strnlen(sg->name, sizeof(sg->name));
	if (n == sizeof(sg->name))
		return kbin_fail(c, i, -1, NULL, KBIN_FIELD_SG_NAME,
				 KBIN_ERR_SG_NAME, n,
				 "subgraph name is not NUL-terminated within %u bytes",
				 KBIN_SG_NAME_MAX);
	if (!n)
		return kbin_fail(c, i, -1, NULL, KBIN_FIELD_SG_NAME,
				 KBIN_ERR_SG_NAME, 0, "subgraph name is empty");
	j = kbin_find_ctrl(sg->name, n);
	if (j < n)
		return kbin_fail(c, i, -1, NULL, KBIN_FIELD_SG_NAME,
				 KBIN_ERR_SG_NAME, sg->name[j],
				 "subgraph name has control character 0x%x at byte %u",
				 (unsigned int)(__u8)sg->name[j], j);
	if (kbin_nonzero(sg->name + n, sizeof(sg->name) - n))
		return kbin_fail(c, i, -1, NULL, KBIN_FIELD_SG_NAME,
				 KBIN_ERR_RESERVED, n,
				 "subgraph name has non-zero bytes after its NUL at %llu",
				 (unsigned long long)n);
	if (sg->reserved)
		return kbin_fail(c, i, -1, NULL, KBIN_FIELD_PAD, KBIN_ERR_RESERVED,
				 sg->reserved, "subgraph reserved is 0x%x, not 0",
				 sg->reserved);
	r = kbin_check_carveouts(c, i, sg);
	if (r)
		return r;

	/* the mem_ref set: 24-byte header + nmem records, in metadata */
	if (sg->set_off & 7)
		return kbin_fail(c, i, -1, NULL, KBIN_FIELD_SET,
				 KBIN_ERR_MISALIGNED, sg->set_off,
				 "mem_ref set at 0x%llx is not 8-byte aligned",
				 (unsigned long long)sg->set_off);
	if (sg->set_size < KBIN_SET_HDR)
		return kbin_fail(c, i, -1, NULL, KBIN_FIELD_SET,
				 KBIN_ERR_SET_SIZE, sg->set_size,
				 "set_size %llu is below the %llu-byte set header",
				 (unsigned long long)sg->set_size,
				 (unsigned long long)KBIN_SET_HDR);
	if (__builtin_add_overflow(sg->set_off, sg->set_size, &end) ||
	    end > c->data_off)
		return kbin_fail(c, i, -1, NULL, KBIN_FIELD_SET, KBIN_ERR_BOUNDS,
				 sg->set_off,
				 "mem_ref set 0x%llx + %llu runs past the metadata area end 0x%llx",
				 (unsigned long long)sg->set_off,
				 (unsigned long long)sg->set_size,
				 (unsigned long long)c->data_off);
	if (sg->set_off < c->hdr_size)
		return kbin_fail(c, i, -1, NULL, KBIN_FIELD_SET, KBIN_ERR_OVERLAP,
				 sg->set_off,
				 "mem_ref set at 0x%llx overlaps the header",
				 (unsigned long long)sg->set_off);
	if (c->dma && kbin_ranges_overlap(sg->set_off, sg->set_size,
					  c->dma_off, c->dma_size))
		return kbin_fail(c, i, -1, NULL, KBIN_FIELD_SET, KBIN_ERR_OVERLAP,
				 sg->set_off,
				 "mem_ref set at 0x%llx overlaps the DMA section",
				 (unsigned long long)sg->set_off);
	if (c->prog && kbin_ranges_overlap(sg->set_off, sg->set_size,
					   c->prog_off, c->prog_size))
		return kbin_fail(c, i, -1, NULL, KBIN_FIELD_SET, KBIN_ERR_OVERLAP,
				 sg->set_off,
				 "mem_ref set at 0x%llx overlaps the program section",
				 (unsigned long long)sg->set_off);
	if (kbin_ranges_overlap(sg->set_off, sg->set_size, toff, tlen))
		return kbin_fail(c, i, -1, NULL, KBIN_FIELD_SET, KBIN_ERR_OVERLAP,
				 sg->set_off,
				 "mem_ref set at 0x%llx overlaps the subgraph table",
				 (unsigned long long)sg->set_off);
	for (j = 0; j < i; j++) {
		const struct kbin_subgraph *o = kbin_sg(c, j);

		if (kbin_ranges_overlap(sg->set_off, sg->set_size,
					o->set_off, o->set_size))
			return kbin_fail(c, i, -1, NULL, KBIN_FIELD_SET,
					 KBIN_ERR_OVERLAP, sg->set_off,
					 "mem_ref set at 0x%llx overlaps the set of subgraph %u",
					 (unsigned long long)sg->set_off, j);
	}
	set = kbin_set(c, i);
	want = KBIN_SET_HDR + (__u64)set->nmem * KBIN_REC_SIZE;
	if (want != sg->set_size)
		return kbin_fail(c, i, -1, NULL, KBIN_FIELD_NMEM,
				 KBIN_ERR_SET_SIZE, sg->set_size,
				 "set_size %llu is not 24 + nmem %u * 152",
				 (unsigned long long)sg->set_size, set->nmem);
	if (set->pad)
		return kbin_fail(c, i, -1, NULL, KBIN_FIELD_PAD, KBIN_ERR_RESERVED,
				 set->pad, "mem_ref set pad is 0x%x, not 0",
				 set->pad);
	return KBIN_OK;
}

/* ---- pass 2: each record on its own ---- */

static unsigned int kbin_check_name(struct kbin_ck *c, int sg, __u32 i,
				    const struct kbin_mem_ref *r)
{
	__u64 room, n, k;

	if (!r->name)
		return kbin_fail(c, sg, i, r, KBIN_FIELD_NAME, KBIN_ERR_NAME, 0,
				 "name is missing (offset 0)");
	if (!kbin_in_data(c, r->name, 1))
		return kbin_fail(c, sg, i, r, KBIN_FIELD_NAME, KBIN_ERR_BOUNDS,
				 r->name,
				 "name offset 0x%llx is outside the data area [0x%llx, 0x%llx)",
				 (unsigned long long)r->name,
				 (unsigned long long)c->data_off,
				 (unsigned long long)c->len);
	room = c->len - r->name;
	if (room > KBIN_NAME_MAX)
		room = KBIN_NAME_MAX;
	n = kbin_strnlen(c->base + r->name, room);
	if (n == room)
		return kbin_fail(c, sg, i, r, KBIN_FIELD_NAME, KBIN_ERR_NAME,
				 r->name,
				 "name at 0x%llx is not NUL-terminated within %llu bytes",
				 (unsigned long long)r->name,
				 (unsigned long long)room);
	if (!n)
		return kbin_fail(c, sg, i, r, KBIN_FIELD_NAME, KBIN_ERR_NAME,
				 r->name, "name at 0x%llx is empty",
				 (unsigned long long)r->name);
	k = kbin_find_ctrl(c->base + r->name, n);
	if (k < n)
		return kbin_fail(c, sg, i, r, KBIN_FIELD_NAME, KBIN_ERR_NAME,
				 c->base[r->name + k],
				 "name at 0x%llx has control character 0x%x at byte %llu",
				 (unsigned long long)r->name,
				 (unsigned int)c->base[r->name + k],
				 (unsigned long long)k);
	return KBIN_OK;
}

static unsigned int kbin_check_md(struct kbin_ck *c, int sg, __u32 i,
				  const struct kbin_mem_ref *r)
{
	const struct kbin_debug_tensor_md *md;

	if (!r->dtensor_md)
		return KBIN_OK;
	if (!kbin_in_data(c, r->dtensor_md, KBIN_MD_SIZE))
		return kbin_fail(c, sg, i, r, KBIN_FIELD_DTENSOR_MD,
				 KBIN_ERR_BOUNDS, r->dtensor_md,
				 "dtensor_md 0x%llx + 516 is outside the data area [0x%llx, 0x%llx)",
				 (unsigned long long)r->dtensor_md,
				 (unsigned long long)c->data_off,
				 (unsigned long long)c->len);
	if (r->dtensor_md & 3)
		return kbin_fail(c, sg, i, r, KBIN_FIELD_DTENSOR_MD,
				 KBIN_ERR_MISALIGNED, r->dtensor_md,
				 "dtensor_md 0x%llx is not 4-byte aligned",
				 (unsigned long long)r->dtensor_md);
	md = (const struct kbin_debug_tensor_md *)(c->base + r->dtensor_md);
	if (kbin_strnlen(md->prefix_str, KBIN_PREFIX_MAX) == KBIN_PREFIX_MAX)
		return kbin_fail(c, sg, i, r, KBIN_FIELD_DTENSOR_MD,
				 KBIN_ERR_DTENSOR_MD, r->dtensor_md,
				 "dtensor_md prefix_str at 0x%llx is not NUL-terminated within 512 bytes",
				 (unsigned long long)r->dtensor_md);
	return KBIN_OK;
}

static unsigned int kbin_check_payload(struct kbin_ck *c, int sg, __u32 i,
				       const struct kbin_mem_ref *r)
{
	const struct kbin_payload_hdr *ph;

	if (!r->buffer) {
		if (kbin_kind(r->mr_type)->payload == KBIN_PAYLOAD_REQUIRED)
			return kbin_fail(c, sg, i, r, KBIN_FIELD_BUFFER,
					 KBIN_ERR_PAYLOAD_MISSING, 0,
					 "%s has no payload",
					 kbin_mr_type_str(r->mr_type));
		return KBIN_OK;
	}
	if (kbin_kind(r->mr_type)->payload == KBIN_PAYLOAD_NONE)
		return kbin_fail(c, sg, i, r, KBIN_FIELD_BUFFER,
				 KBIN_ERR_PAYLOAD_KIND, r->buffer,
				 "%s takes no payload, but buffer is 0x%llx",
				 kbin_mr_type_str(r->mr_type),
				 (unsigned long long)r->buffer);
	if (r->buffer < KBIN_PHDR ||
	    !kbin_in_data(c, r->buffer - KBIN_PHDR, KBIN_PHDR))
		return kbin_fail(c, sg, i, r, KBIN_FIELD_BUFFER, KBIN_ERR_BOUNDS,
				 r->buffer,
				 "payload header before buffer 0x%llx is outside the data area [0x%llx, 0x%llx)",
				 (unsigned long long)r->buffer,
				 (unsigned long long)c->data_off,
				 (unsigned long long)c->len);
	if (r->buffer & (KBIN_PAYLOAD_ALIGN - 1))
		return kbin_fail(c, sg, i, r, KBIN_FIELD_BUFFER,
				 KBIN_ERR_MISALIGNED, r->buffer,
				 "buffer 0x%llx is not %u-byte aligned",
				 (unsigned long long)r->buffer, KBIN_PAYLOAD_ALIGN);
	ph = (const struct kbin_payload_hdr *)(c->base + r->buffer - KBIN_PHDR);
	if (ph->length != r->size)
		return kbin_fail(c, sg, i, r, KBIN_FIELD_BUFFER,
				 KBIN_ERR_PAYLOAD_LENGTH, ph->length,
				 "payload length %llu is not the size %llu",
				 (unsigned long long)ph->length,
				 (unsigned long long)r->size);
	if (ph->reserved)
		return kbin_fail(c, sg, i, r, KBIN_FIELD_BUFFER,
				 KBIN_ERR_RESERVED, ph->reserved,
				 "payload header reserved is 0x%llx, not 0",
				 (unsigned long long)ph->reserved);
	if (!kbin_in_data(c, r->buffer, r->size))
		return kbin_fail(c, sg, i, r, KBIN_FIELD_BUFFER, KBIN_ERR_BOUNDS,
				 r->buffer,
				 "payload 0x%llx + %llu runs past the end of the plan 0x%llx",
				 (unsigned long long)r->buffer,
				 (unsigned long long)r->size,
				 (unsigned long long)c->len);
	return KBIN_OK;
}

static unsigned int kbin_check_list(struct kbin_ck *c, int sg, __u32 i,
				    const struct kbin_mem_ref *r, __u32 nmem)
{
	const __u32 *ent;
	__u32 k;

	if (!r->list.length || r->list.length > KBIN_MAX_LIST)
		return kbin_fail(c, sg, i, r, KBIN_FIELD_UNION,
				 KBIN_ERR_LIST_LENGTH, r->list.length,
				 "list length %u is not 1..%u",
				 r->list.length, KBIN_MAX_LIST);
	if (r->list.pad)
		return kbin_fail(c, sg, i, r, KBIN_FIELD_UNION, KBIN_ERR_RESERVED,
				 r->list.pad, "list pad is 0x%x, not 0",
				 r->list.pad);
	if (!kbin_in_data(c, r->list.list, (__u64)r->list.length * 4))
		return kbin_fail(c, sg, i, r, KBIN_FIELD_UNION, KBIN_ERR_BOUNDS,
				 r->list.list,
				 "list 0x%llx of %u entries is outside the data area [0x%llx, 0x%llx)",
				 (unsigned long long)r->list.list, r->list.length,
				 (unsigned long long)c->data_off,
				 (unsigned long long)c->len);
	if (r->list.list & 3)
		return kbin_fail(c, sg, i, r, KBIN_FIELD_UNION,
				 KBIN_ERR_MISALIGNED, r->list.list,
				 "list 0x%llx is not 4-byte aligned",
				 (unsigned long long)r->list.list);
	ent = (const __u32 *)(c->base + r->list.list);
	for (k = 0; k < r->list.length; k++) {
		if (ent[k] >= nmem)
			return kbin_fail(c, sg, i, r, KBIN_FIELD_UNION,
					 KBIN_ERR_LIST_ENTRY, ent[k],
					 "list[%u] = %u names no var (nmem %u)",
					 k, ent[k], nmem);
		if (!(k & 65535))
			kbin_yield();
	}
	return KBIN_OK;
}

static unsigned int kbin_check_union(struct kbin_ck *c, int sg, __u32 i,
				     const struct kbin_mem_ref *r,
				     const struct kbin_mem_ref_set *set)
{
	const struct kbin_mem_ref_set *rset;
	__u64 space, end;

	switch (kbin_kind(r->mr_type)->variant) {
	case KBIN_VARIANT_POINTER:
		if (r->pointer.referenced_var_id == i)
			return kbin_fail(c, sg, i, r, KBIN_FIELD_UNION,
					 KBIN_ERR_PTR_SELF, i,
					 "MR_PTR references itself");
		if (r->pointer.referenced_var_id >= set->nmem)
			return kbin_fail(c, sg, i, r, KBIN_FIELD_UNION,
					 KBIN_ERR_PTR_TARGET,
					 r->pointer.referenced_var_id,
					 "MR_PTR referenced_var_id %u names no var (nmem %u)",
					 r->pointer.referenced_var_id, set->nmem);
		if (r->pointer.io_ref > 1)
			return kbin_fail(c, sg, i, r, KBIN_FIELD_UNION,
					 KBIN_ERR_RESERVED, r->pointer.io_ref,
					 "io_ref %u is not 0 or 1",
					 r->pointer.io_ref);
		if (kbin_nonzero(r->pointer.pad, sizeof(r->pointer.pad)))
			return kbin_fail(c, sg, i, r, KBIN_FIELD_UNION,
					 KBIN_ERR_RESERVED, 0,
					 "pointer pad is not zero");
		return KBIN_OK;
	case KBIN_VARIANT_VIRT:
		if (r->virt.backing_buf > KBIN_BACKING_BUF_MAX)
			return kbin_fail(c, sg, i, r, KBIN_FIELD_UNION,
					 KBIN_ERR_BACKING_BUF, r->virt.backing_buf,
					 "backing_buf %u is not 0..%u",
					 r->virt.backing_buf, KBIN_BACKING_BUF_MAX);
		if (r->virt.pad)
			return kbin_fail(c, sg, i, r, KBIN_FIELD_UNION,
					 KBIN_ERR_RESERVED, r->virt.pad,
					 "virtual pad is 0x%x, not 0", r->virt.pad);
		if (__builtin_add_overflow(r->virt.offset, r->size, &end))
			return kbin_fail(c, sg, i, r, KBIN_FIELD_UNION,
					 KBIN_ERR_VIRT_RANGE, r->virt.offset,
					 "offset %llu + size %llu is beyond 2^64",
					 (unsigned long long)r->virt.offset,
					 (unsigned long long)r->size);
		/* by the arena table: a header size bounds LOCAL and SHARED */
		switch (kbin_backing(r->virt.backing_buf)->size) {
		case KBIN_ARENA_SIZE_LOCAL:
			space = set->local_scratchpad_size;
			break;
		case KBIN_ARENA_SIZE_SHARED:
			space = set->shared_scratchpad_size;
			break;
		default:	/* sized by its variables: nothing to exceed */
			return KBIN_OK;
		}
		if (end > space)
			return kbin_fail(c, sg, i, r, KBIN_FIELD_UNION,
					 KBIN_ERR_VIRT_RANGE, r->virt.offset,
					 "offset %llu + size %llu is beyond the %s scratchpad size %llu",
					 (unsigned long long)r->virt.offset,
					 (unsigned long long)r->size,
					 kbin_backing_buf_str(r->virt.backing_buf),
					 (unsigned long long)space);
		return KBIN_OK;
	case KBIN_VARIANT_LIST:
		return kbin_check_list(c, sg, i, r, set->nmem);
	case KBIN_VARIANT_REMOTE:
		if (r->remote.remote_vtpb_rel_sg_id >= c->h->num_subgraphs)
			return kbin_fail(c, sg, i, r, KBIN_FIELD_UNION,
					 KBIN_ERR_REMOTE_SG,
					 r->remote.remote_vtpb_rel_sg_id,
					 "remote_vtpb_rel_sg_id %u is not below num_subgraphs %u",
					 r->remote.remote_vtpb_rel_sg_id,
					 c->h->num_subgraphs);
		if (r->remote.pad)
			return kbin_fail(c, sg, i, r, KBIN_FIELD_UNION,
					 KBIN_ERR_RESERVED, r->remote.pad,
					 "remote pad is 0x%llx, not 0",
					 (unsigned long long)r->remote.pad);
		rset = kbin_set(c, r->remote.remote_vtpb_rel_sg_id);
		if (r->remote.remote_var_id >= rset->nmem)
			return kbin_fail(c, sg, i, r, KBIN_FIELD_UNION,
					 KBIN_ERR_REMOTE_VAR, r->remote.remote_var_id,
					 "remote variable %u is not in relative sg %u (nmem %u)",
					 r->remote.remote_var_id,
					 r->remote.remote_vtpb_rel_sg_id, rset->nmem);
		return KBIN_OK;
	}
	/* kinds without a union variant: all 16 bytes zero */
	if (r->list.length || r->list.list)
		return kbin_fail(c, sg, i, r, KBIN_FIELD_UNION, KBIN_ERR_LIST_KIND,
				 r->list.length ? r->list.length : r->list.list,
				 "%s takes no list, but the union holds length %u list 0x%llx",
				 kbin_mr_type_str(r->mr_type), r->list.length,
				 (unsigned long long)r->list.list);
	if (r->list.pad)
		return kbin_fail(c, sg, i, r, KBIN_FIELD_UNION, KBIN_ERR_RESERVED,
				 r->list.pad, "unused union bytes are not zero");
	return KBIN_OK;
}

static unsigned int kbin_check_record(struct kbin_ck *c, int sg, __u32 i,
				      const struct kbin_mem_ref_set *set)
{
	const struct kbin_mem_ref *r = &set->mem[i];
	__u64 n;
	unsigned int res;
	__u32 d;

	if (!kbin_kind_valid(r->mr_type))
		return kbin_fail(c, sg, i, r, KBIN_FIELD_MR_TYPE, KBIN_ERR_MR_TYPE,
				 r->mr_type, "mr_type %u is not 1..%u",
				 r->mr_type, KBIN_MR_TYPE_MAX);
	if (r->pad0)
		return kbin_fail(c, sg, i, r, KBIN_FIELD_PAD, KBIN_ERR_RESERVED,
				 r->pad0, "pad0 is 0x%x, not 0", r->pad0);
	if (r->var_id < i)
		return kbin_fail(c, sg, i, r, KBIN_FIELD_VAR_ID,
				 KBIN_ERR_VAR_ID_DUP, r->var_id,
				 "var_id %u is already record %u's",
				 r->var_id, r->var_id);
	if (r->var_id != i)
		return kbin_fail(c, sg, i, r, KBIN_FIELD_VAR_ID,
				 KBIN_ERR_VAR_ID_ORDER, r->var_id,
				 "var_id %u is not the record index %u (ids must be dense)",
				 r->var_id, i);
	res = kbin_check_name(c, sg, i, r);
	if (res)
		return res;
	/* kinds that own bytes need some; an SBUF kind fits the window */
	if (kbin_kind_has_storage(r->mr_type) && !r->size)
		return kbin_fail(c, sg, i, r, KBIN_FIELD_SIZE, KBIN_ERR_SIZE, 0,
				 "%s needs a non-zero size",
				 kbin_mr_type_str(r->mr_type));
	if (kbin_kind(r->mr_type)->storage == KBIN_STORAGE_SBUF &&
	    r->size > c->gen->sbuf_window_size)
		return kbin_fail(c, sg, i, r, KBIN_FIELD_SIZE, KBIN_ERR_SIZE,
				 r->size,
				 "%s size %llu is above the %llu-byte SBUF window",
				 kbin_mr_type_str(r->mr_type),
				 (unsigned long long)r->size,
				 (unsigned long long)c->gen->sbuf_window_size);
	/* a PSUM kind fits the PSUM window: its partitions, each's banks */
	if (kbin_kind(r->mr_type)->storage == KBIN_STORAGE_PSUM &&
	    r->size > c->gen->psum_size)
		return kbin_fail(c, sg, i, r, KBIN_FIELD_SIZE, KBIN_ERR_SIZE,
				 r->size,
				 "%s size %llu is above the %llu-byte PSUM window (%u partitions x %u bytes)",
				 kbin_mr_type_str(r->mr_type),
				 (unsigned long long)r->size,
				 (unsigned long long)c->gen->psum_size,
				 kbin_gen_psum_partitions(c->gen),
				 kbin_gen_psum_partition_size(c->gen));
	if (!r->alignment || (r->alignment & (r->alignment - 1)) ||
	    r->alignment > KBIN_MAX_ALIGNMENT)
		return kbin_fail(c, sg, i, r, KBIN_FIELD_ALIGNMENT,
				 KBIN_ERR_ALIGNMENT, r->alignment,
				 "alignment %llu is not a power of two in 1..%llu",
				 (unsigned long long)r->alignment,
				 (unsigned long long)KBIN_MAX_ALIGNMENT);
	n = kbin_strnlen(r->dtype, sizeof(r->dtype));
	if (n == sizeof(r->dtype))
		return kbin_fail(c, sg, i, r, KBIN_FIELD_DTYPE, KBIN_ERR_DTYPE,
				 n, "dtype is not NUL-terminated within %u bytes",
				 KBIN_DTYPE_MAX);
	if (kbin_nonzero(r->dtype + n, sizeof(r->dtype) - n))
		return kbin_fail(c, sg, i, r, KBIN_FIELD_DTYPE, KBIN_ERR_DTYPE,
				 n, "dtype has non-zero bytes after its NUL at %llu",
				 (unsigned long long)n);
	d = (__u32)kbin_find_ctrl(r->dtype, n);
	if (d < n)
		return kbin_fail(c, sg, i, r, KBIN_FIELD_DTYPE, KBIN_ERR_DTYPE,
				 (__u8)r->dtype[d],
				 "dtype has control character 0x%x at byte %u",
				 (unsigned int)(__u8)r->dtype[d], d);
	if (r->pad1)
		return kbin_fail(c, sg, i, r, KBIN_FIELD_PAD, KBIN_ERR_RESERVED,
				 r->pad1, "pad1 is 0x%x, not 0", r->pad1);
	for (d = 1; d < KBIN_SHAPE_MAX; d++)
		if (r->shape[d] && !r->shape[d - 1])
			return kbin_fail(c, sg, i, r, KBIN_FIELD_SHAPE,
					 KBIN_ERR_SHAPE, r->shape[d],
					 "shape[%u] = %llu follows a zero dimension",
					 d, (unsigned long long)r->shape[d]);
	res = kbin_check_md(c, sg, i, r);
	if (res)
		return res;
	res = kbin_check_payload(c, sg, i, r);
	if (res)
		return res;
	return kbin_check_union(c, sg, i, r, set);
}

/* ---- pass 3: references between records ---- */

static unsigned int kbin_check_refs(struct kbin_ck *c, int sg, __u32 i,
				    const struct kbin_mem_ref_set *set)
{
	const struct kbin_mem_ref *r = &set->mem[i];
	const struct kbin_kind *kind = kbin_kind(r->mr_type);
	const struct kbin_mem_ref *t;
	const __u32 *ent;
	__u32 k;

	switch (kind->variant) {
	case KBIN_VARIANT_POINTER:
		t = &set->mem[r->pointer.referenced_var_id];
		if (!kbin_kind_has_storage(t->mr_type))
			return kbin_fail(c, sg, i, r, KBIN_FIELD_UNION,
					 KBIN_ERR_PTR_TARGET,
					 r->pointer.referenced_var_id,
					 "%s target var_id %u is %s, which has no storage",
					 kind->name, r->pointer.referenced_var_id,
					 kbin_mr_type_str(t->mr_type));
		break;
	case KBIN_VARIANT_LIST:
		/* the rows of an address table must have addresses */
		if (kind->storage != KBIN_STORAGE_TABLE)
			break;
		ent = (const __u32 *)(c->base + r->list.list);
		for (k = 0; k < r->list.length; k++) {
			t = &set->mem[ent[k]];
			if (!kbin_kind_has_storage(t->mr_type))
				return kbin_fail(c, sg, i, r, KBIN_FIELD_UNION,
						 KBIN_ERR_LIST_ENTRY, ent[k],
						 "%s list[%u] = %u is %s, which has no storage",
						 kind->name, k, ent[k],
						 kbin_mr_type_str(t->mr_type));
			if (!(k & 65535))
				kbin_yield();
		}
		break;
	case KBIN_VARIANT_REMOTE:
		t = &kbin_set(c, r->remote.remote_vtpb_rel_sg_id)->mem[r->remote.remote_var_id];
		if (kbin_kind(t->mr_type)->storage == KBIN_STORAGE_REMOTE)
			return kbin_fail(c, sg, i, r, KBIN_FIELD_UNION,
					 KBIN_ERR_REMOTE_CHAIN, r->remote.remote_var_id,
					 "remote variable %u in relative sg %u is itself %s",
					 r->remote.remote_var_id,
					 r->remote.remote_vtpb_rel_sg_id,
					 kbin_mr_type_str(t->mr_type));
		if (!kbin_kind_has_storage(t->mr_type))
			return kbin_fail(c, sg, i, r, KBIN_FIELD_UNION,
					 KBIN_ERR_REMOTE_VAR, r->remote.remote_var_id,
					 "remote variable %u in relative sg %u is %s, which has no storage",
					 r->remote.remote_var_id,
					 r->remote.remote_vtpb_rel_sg_id,
					 kbin_mr_type_str(t->mr_type));
		if (t->size < r->size)
			return kbin_fail(c, sg, i, r, KBIN_FIELD_SIZE,
					 KBIN_ERR_REMOTE_SIZE, t->size,
					 "remote variable %u in relative sg %u has %llu bytes, fewer than this record's %llu",
					 r->remote.remote_var_id,
					 r->remote.remote_vtpb_rel_sg_id,
					 (unsigned long long)t->size,
					 (unsigned long long)r->size);
		break;
	}
	return KBIN_OK;
}

/* ---- pass 4: the DMA section ---- */

/*
 * A string a DMA record points at (a queue name, a fabric path, a block
 * comment): with the rules of a record's name, or 0 when @optional.
 */
static unsigned int kbin_check_dma_str(struct kbin_ck *c,
				       const struct kbin_dma_at *at,
				       unsigned int field, const char *what,
				       __u64 off, int optional)
{
	__u64 room, n, k;

	if (!off)
		return optional ? KBIN_OK :
		       kbin_fail_dma(c, at, field, KBIN_ERR_NAME, 0,
				     "%s is missing (offset 0)", what);
	if (!kbin_in_data(c, off, 1))
		return kbin_fail_dma(c, at, field, KBIN_ERR_BOUNDS, off,
				     "%s offset 0x%llx is outside the data area [0x%llx, 0x%llx)",
				     what, (unsigned long long)off,
				     (unsigned long long)c->data_off,
				     (unsigned long long)c->len);
	room = c->len - off;
	if (room > KBIN_NAME_MAX)
		room = KBIN_NAME_MAX;
	n = kbin_strnlen(c->base + off, room);
	if (n == room)
		return kbin_fail_dma(c, at, field, KBIN_ERR_NAME, off,
				     "%s at 0x%llx is not NUL-terminated within %llu bytes",
				     what, (unsigned long long)off,
				     (unsigned long long)room);
	if (!n)
		return kbin_fail_dma(c, at, field, KBIN_ERR_NAME, off,
				     "%s at 0x%llx is empty", what,
				     (unsigned long long)off);
	k = kbin_find_ctrl(c->base + off, n);
	if (k < n)
		return kbin_fail_dma(c, at, field, KBIN_ERR_NAME, c->base[off + k],
				     "%s at 0x%llx has control character 0x%x at byte %llu",
				     what, (unsigned long long)off,
				     (unsigned int)c->base[off + k],
				     (unsigned long long)k);
	return KBIN_OK;
}

static unsigned int kbin_check_dma_queue(struct kbin_ck *c,
					 struct kbin_dma_at *at,
					 const struct kbin_dma_queue *q)
{
	unsigned int r;

	r = kbin_check_dma_str(c, at, KBIN_FIELD_DMA_QUEUE, "name", q->name, 0);
	if (r)
		return r;
	at->qname = (const char *)c->base + q->name;
	r = kbin_check_dma_str(c, at, KBIN_FIELD_DMA_QUEUE, "fabric_path",
			       q->fabric_path, 1);
	if (r)
		return r;
	if (!q->type || q->type > KBIN_DMA_QUEUE_TYPE_MAX)
		return kbin_fail_dma(c, at, KBIN_FIELD_DMA_QUEUE, KBIN_ERR_DMA_QUEUE,
				     q->type, "type %u is not 1..%u", q->type,
				     KBIN_DMA_QUEUE_TYPE_MAX);
	if (!q->owner || q->owner > KBIN_DMA_ENGINE_MAX)
		return kbin_fail_dma(c, at, KBIN_FIELD_DMA_QUEUE, KBIN_ERR_DMA_QUEUE,
				     q->owner, "owner %u is not an engine 1..%u",
				     q->owner, KBIN_DMA_ENGINE_MAX);
	if (q->flags & ~KBIN_DMA_QF_MASK)
		return kbin_fail_dma(c, at, KBIN_FIELD_DMA_QUEUE, KBIN_ERR_DMA_QUEUE,
				     q->flags, "flags 0x%x has unknown bits", q->flags);
	if (q->flags & KBIN_DMA_QF_DYNAMIC) {
		if (q->type != KBIN_DMA_QUEUE_DYNAMIC)
			return kbin_fail_dma(c, at, KBIN_FIELD_DMA_QUEUE,
					     KBIN_ERR_DMA_QUEUE, q->type,
					     "dynamic_dma on a queue of type '%s'",
					     kbin_dma_queue_type_str(q->type));
		if ((__u64)q->sb_scratch_offset + q->sb_scratch_size >
		    c->gen->sbuf_partition_size)
			return kbin_fail_dma(c, at, KBIN_FIELD_DMA_QUEUE,
					     KBIN_ERR_DMA_QUEUE, q->sb_scratch_size,
					     "SB scratch bytes [%u, +%u) are not inside the %u-byte SBUF partition",
					     q->sb_scratch_offset, q->sb_scratch_size,
					     c->gen->sbuf_partition_size);
	} else if (q->sb_scratch_offset || q->sb_scratch_size) {
		return kbin_fail_dma(c, at, KBIN_FIELD_DMA_QUEUE, KBIN_ERR_RESERVED,
				     q->sb_scratch_offset | q->sb_scratch_size,
				     "SB scratch fields are set without dynamic_dma");
	}
	if (q->reserved)
		return kbin_fail_dma(c, at, KBIN_FIELD_DMA_QUEUE, KBIN_ERR_RESERVED,
				     q->reserved, "reserved is 0x%x, not 0",
				     q->reserved);
	if (q->num_semaphores > KBIN_MAX_LIST)
		return kbin_fail_dma(c, at, KBIN_FIELD_DMA_QUEUE,
				     KBIN_ERR_DMA_SEMAPHORE, q->num_semaphores,
				     "num_semaphores %u is above %u",
				     q->num_semaphores, KBIN_MAX_LIST);
	if (!q->num_semaphores && q->semaphores)
		return kbin_fail_dma(c, at, KBIN_FIELD_DMA_QUEUE, KBIN_ERR_RESERVED,
				     q->semaphores,
				     "semaphores 0x%llx with num_semaphores 0",
				     (unsigned long long)q->semaphores);
	if (q->num_semaphores &&
	    !kbin_in_data(c, q->semaphores, (__u64)q->num_semaphores * 4))
		return kbin_fail_dma(c, at, KBIN_FIELD_DMA_QUEUE, KBIN_ERR_BOUNDS,
				     q->semaphores,
				     "semaphore set 0x%llx of %u entries is outside the data area [0x%llx, 0x%llx)",
				     (unsigned long long)q->semaphores,
				     q->num_semaphores,
				     (unsigned long long)c->data_off,
				     (unsigned long long)c->len);
	if (q->semaphores & 3)
		return kbin_fail_dma(c, at, KBIN_FIELD_DMA_QUEUE,
				     KBIN_ERR_MISALIGNED, q->semaphores,
				     "semaphore set 0x%llx is not 4-byte aligned",
				     (unsigned long long)q->semaphores);
	return KBIN_OK;
}

/*
 * One side of a descriptor: a var of the subgraph with device bytes
 * (kbin_dma_var_rule(): a storage kind or an MR_REMOTE, whose remote var
 * pass 3 checked), a known dtype, zero padding and unused dimensions,
 * the pattern rules of kbin_dma_pattern(), the extent within the var's
 * record size and, on the state buffer (an MR_SB, or an MR_REMOTE of
 * one), the window, partition and gap rules; on PSUM (an MR_PSUM, or an
 * MR_REMOTE of one) the PSUM window and partition rules.
 */
static unsigned int kbin_check_dma_side(struct kbin_ck *c,
					const struct kbin_dma_at *at,
					unsigned int field,
					const struct kbin_dma_side *sd,
					const struct kbin_mem_ref_set *set,
					struct kbin_dma_pat *p)
{
	const struct kbin_mem_ref *v, *src;
	struct kbin_dma_sb sb;
	unsigned int r, sbr = KBIN_OK;
	int is_sb, is_psum;
	__u32 i;

	if (sd->var_id >= set->nmem)
		return kbin_fail_dma(c, at, field, KBIN_ERR_DMA_VAR, sd->var_id,
				     "var_id %u names no var (nmem %u)",
				     sd->var_id, set->nmem);
	v = &set->mem[sd->var_id];
	if (kbin_dma_var_rule(v->mr_type))
		return kbin_fail_dma(c, at, field, KBIN_ERR_DMA_VAR, sd->var_id,
				     "var_id %u is %s: %s", sd->var_id,
				     kbin_mr_type_str(v->mr_type),
				     kbin_dma_var_why(v->mr_type));
	/* an MR_REMOTE's bytes are its remote var's (pass 3 checked it) */
	src = v;
	if (kbin_kind(v->mr_type)->variant == KBIN_VARIANT_REMOTE)
		src = &kbin_set(c, v->remote.remote_vtpb_rel_sg_id)->mem[v->remote.remote_var_id];
	if (!kbin_dma_dtype(sd->dtype))
		return kbin_fail_dma(c, at, field, KBIN_ERR_DMA_DTYPE, sd->dtype,
				     "dtype %u is not 1..%u", sd->dtype,
				     KBIN_DMA_DTYPE_MAX);
	if (!sd->num_dims || sd->num_dims > KBIN_DMA_MAX_DIMS)
		return kbin_fail_dma(c, at, field, KBIN_ERR_DMA_DIMS, sd->num_dims,
				     "num_dims %u is not 1..%u", sd->num_dims,
				     KBIN_DMA_MAX_DIMS);
	if (sd->pad[0] || sd->pad[1])
		return kbin_fail_dma(c, at, field, KBIN_ERR_RESERVED, 0,
				     "pad is not zero");
	for (i = sd->num_dims; i < KBIN_DMA_MAX_DIMS; i++)
		if (sd->sizes[i] || sd->steps[i])
			return kbin_fail_dma(c, at, field, KBIN_ERR_RESERVED, i,
					     "unused dimension %u (of %u) is not zero",
					     i, sd->num_dims);
	r = kbin_dma_pattern(sd, p);
	switch (r) {
	case KBIN_OK:
		break;
	case KBIN_ERR_DMA_DIMS:
		return kbin_fail_dma(c, at, field, r, sd->num_dims,
				     "%u dims with sizes[%u] = %u; dims must be 1..%u, sizes at least 1",
				     sd->num_dims, p->dim, sd->sizes[p->dim],
				     KBIN_DMA_MAX_DIMS);
	case KBIN_ERR_DMA_STEP:
		return kbin_fail_dma(c, at, field, r, sd->steps[0],
				     "steps[0] = %llu, not 1",
				     (unsigned long long)sd->steps[0]);
	default:
		return kbin_fail_dma(c, at, field, r, sd->offset,
				     "offset %llu + (sizes[%u] - 1) * steps[%u] overflows",
				     (unsigned long long)sd->offset, p->dim, p->dim);
	}
	is_sb = kbin_kind(src->mr_type)->storage == KBIN_STORAGE_SBUF;
	if (is_sb) {
		sbr = kbin_dma_sbuf(c->gen, sd, p->extent, &sb);
		if (sbr == KBIN_ERR_DMA_SBUF_WINDOW)
			return kbin_fail_dma(c, at, field, sbr, p->extent,
					     "var_id %u: extent %llu is outside the %llu-byte SBUF window",
					     sd->var_id, (unsigned long long)p->extent,
					     (unsigned long long)c->gen->sbuf_window_size);
	}
	is_psum = kbin_kind(src->mr_type)->storage == KBIN_STORAGE_PSUM;
	if (is_psum) {
		sbr = kbin_dma_psum(c->gen, sd, p->extent, &sb);
		if (sbr == KBIN_ERR_DMA_PSUM_WINDOW)
			return kbin_fail_dma(c, at, field, sbr, p->extent,
					     "var_id %u: extent %llu is outside the %llu-byte PSUM window (%u partitions)",
					     sd->var_id, (unsigned long long)p->extent,
					     (unsigned long long)c->gen->psum_size,
					     kbin_gen_psum_partitions(c->gen));
	}
	if (p->extent > v->size)
		return kbin_fail_dma(c, at, field, KBIN_ERR_DMA_EXTENT, p->extent,
				     "var_id %u '%s': extent %llu is past its %llu bytes",
				     sd->var_id, (const char *)c->base + v->name,
				     (unsigned long long)p->extent,
				     (unsigned long long)v->size);
	if (sbr == KBIN_ERR_DMA_SBUF_PARTITION)
		return kbin_fail_dma(c, at, field, sbr, sb.end,
				     "var_id %u: a run of %u bytes at byte %llu of SBUF partition %llu ends at %llu, past the %u-byte partition",
				     sd->var_id, sd->sizes[0],
				     (unsigned long long)sb.byte,
				     (unsigned long long)sb.partition,
				     (unsigned long long)sb.end,
				     c->gen->sbuf_partition_size);
	if (sbr == KBIN_ERR_DMA_SBUF_GAP)
		return kbin_fail_dma(c, at, field, sbr, sb.end,
				     "var_id %u: dimension %u (size %u, step %llu) puts a run at byte %llu of SBUF partition %llu, ending at %llu in the gap past the %u-byte partition",
				     sd->var_id, sb.dim, sd->sizes[sb.dim],
				     (unsigned long long)sd->steps[sb.dim],
				     (unsigned long long)sb.byte,
				     (unsigned long long)sb.partition,
				     (unsigned long long)sb.end,
				     c->gen->sbuf_partition_size);
	if (sbr == KBIN_ERR_DMA_PSUM_PARTITION)
		return kbin_fail_dma(c, at, field, sbr, sb.end,
				     "var_id %u: dimension %u puts a run of %u bytes at byte %llu of PSUM partition %llu, ending at %llu past the %u-byte partition",
				     sd->var_id, sb.dim, sd->sizes[0],
				     (unsigned long long)sb.byte,
				     (unsigned long long)sb.partition,
				     (unsigned long long)sb.end,
				     kbin_gen_psum_partition_size(c->gen));
	return KBIN_OK;
}

/* add with saturation: the piece totals are reported, never trusted */
static __u64 kbin_sat_add(__u64 a, __u64 b)
{
	__u64 t;

	return __builtin_add_overflow(a, b, &t) ? ~0ULL : t;
}

static unsigned int kbin_check_dma_desc(struct kbin_ck *c,
					struct kbin_dma_at *at,
					const struct kbin_dma_desc *d,
					const struct kbin_mem_ref_set *set)
{
	struct kbin_dma_verdict v;
	struct kbin_dma_pat pf, pt;
	unsigned int r;

	if (!d->op || d->op > KBIN_DMA_OP_MAX)
		return kbin_fail_dma(c, at, KBIN_FIELD_DMA_DESC, KBIN_ERR_DMA_OP,
				     d->op, "op %u is not 1..%u", d->op,
				     KBIN_DMA_OP_MAX);
	if (d->num_tiling_dims > KBIN_DMA_MAX_DIMS)
		return kbin_fail_dma(c, at, KBIN_FIELD_DMA_DESC, KBIN_ERR_DMA_DIMS,
				     d->num_tiling_dims,
				     "num_tiling_dims %u is above %u",
				     d->num_tiling_dims, KBIN_DMA_MAX_DIMS);
	if (d->pad)
		return kbin_fail_dma(c, at, KBIN_FIELD_DMA_DESC, KBIN_ERR_RESERVED,
				     d->pad, "pad is 0x%x, not 0", d->pad);
	at->side = "from";
	r = kbin_check_dma_side(c, at, KBIN_FIELD_DMA_FROM, &d->from, set, &pf);
	if (r)
		return r;
	at->side = "to";
	r = kbin_check_dma_side(c, at, KBIN_FIELD_DMA_TO, &d->to, set, &pt);
	if (r)
		return r;
	at->side = NULL;
	r = kbin_dma_desc_rule(d, &pf, &pt, &v);
	switch (r) {
	case KBIN_OK:
		break;
	case KBIN_ERR_DMA_COPY_SIZE:
		return kbin_fail_dma(c, at, KBIN_FIELD_DMA_DESC, r, pt.bytes,
				     "copy: from %llu bytes in %llu runs of %u, to %llu bytes in %llu runs of %u: %s",
				     (unsigned long long)pf.bytes,
				     (unsigned long long)pf.runs, d->from.sizes[0],
				     (unsigned long long)pt.bytes,
				     (unsigned long long)pt.runs, d->to.sizes[0],
				     kbin_dma_why_str(v.why));
	case KBIN_ERR_DMA_CAST_SIZE:
		return kbin_fail_dma(c, at, KBIN_FIELD_DMA_DESC, r,
				     v.why == KBIN_DMA_WHY_FROM_RUN ? d->from.sizes[0] :
				     v.why == KBIN_DMA_WHY_TO_RUN ? d->to.sizes[0] :
				     pt.bytes,
				     "cast %s -> %s: from %llu bytes in runs of %u, to %llu bytes in runs of %u: %s",
				     kbin_dma_dtype_str(d->from.dtype),
				     kbin_dma_dtype_str(d->to.dtype),
				     (unsigned long long)pf.bytes, d->from.sizes[0],
				     (unsigned long long)pt.bytes, d->to.sizes[0],
				     kbin_dma_why_str(v.why));
	case KBIN_ERR_DMA_TRANSPOSE:
		return kbin_fail_dma(c, at, KBIN_FIELD_DMA_DESC, r,
				     (v.why == KBIN_DMA_WHY_T_ZERO ||
				      v.why == KBIN_DMA_WHY_T_OVERFLOW) &&
				     v.dim < KBIN_DMA_TRANSPOSE_DIMS ?
				     d->transpose_shape[v.dim] : v.tile,
				     "%s %s -> %s, element size %u, shape [%u, %u, %u, %u], tile %llu, %llu -> %llu bytes: %s",
				     kbin_dma_op_str(d->op),
				     kbin_dma_dtype_str(d->from.dtype),
				     kbin_dma_dtype_str(d->to.dtype),
				     d->transpose_elem_size, d->transpose_shape[0],
				     d->transpose_shape[1], d->transpose_shape[2],
				     d->transpose_shape[3],
				     (unsigned long long)v.tile,
				     (unsigned long long)pf.bytes,
				     (unsigned long long)pt.bytes,
				     kbin_dma_why_str(v.why));
	default:
		return kbin_fail_dma(c, at, KBIN_FIELD_DMA_DESC, r, d->op,
				     "%s: dtypes %s -> %s: %s", kbin_dma_op_str(d->op),
				     kbin_dma_dtype_str(d->from.dtype),
				     kbin_dma_dtype_str(d->to.dtype),
				     kbin_reason_str(r));
	}
	c->res->dma_descs++;
	c->res->dma_m2s_pieces = kbin_sat_add(c->res->dma_m2s_pieces, pf.pieces);
	c->res->dma_s2m_pieces = kbin_sat_add(c->res->dma_s2m_pieces, pt.pieces);
	return KBIN_OK;
}

/*
 * One block of queue @q: its queue index, its id (its place in the
 * queue), its semaphore (entry sem_index of the queue's set), its
 * comment, its descriptor range (starting at *@next_desc) and every
 * descriptor.
 */
static unsigned int kbin_check_dma_block(struct kbin_ck *c,
					 struct kbin_dma_at *at,
					 const struct kbin_dma_queue *q,
					 const struct kbin_dma_block *b,
					 __u32 *next_desc, __u64 desc_end,
					 const struct kbin_mem_ref_set *set,
					 __u32 first_desc)
{
	const __u32 *sems = (const __u32 *)(c->base + q->semaphores);
	__u64 end;
	unsigned int r;
	__u32 j;

	if (b->queue != at->queue)
		return kbin_fail_dma(c, at, KBIN_FIELD_DMA_BLOCK,
				     KBIN_ERR_DMA_QUEUE_INDEX, b->queue,
				     "queue index %u is not its queue's %u",
				     b->queue, at->queue);
	if (b->id != (__u64)at->block)
		return kbin_fail_dma(c, at, KBIN_FIELD_DMA_BLOCK,
				     KBIN_ERR_DMA_BLOCK_ORDER, b->id,
				     "id %u is not its place %lld in the queue (ids run 0..%u)",
				     b->id, at->block, q->num_blocks - 1);
	if (b->sem_index >= q->num_semaphores || sems[b->sem_index] != b->semaphore)
		return kbin_fail_dma(c, at, KBIN_FIELD_DMA_BLOCK,
				     KBIN_ERR_DMA_SEMAPHORE, b->semaphore,
				     "semaphore %u is not entry %u of the queue's %u-entry semaphore set",
				     b->semaphore, b->sem_index, q->num_semaphores);
	r = kbin_check_dma_str(c, at, KBIN_FIELD_DMA_BLOCK, "comment",
			       b->comment, 1);
	if (r)
		return r;
	if (b->first_desc != *next_desc ||
	    __builtin_add_overflow((__u64)b->first_desc, b->num_descs, &end) ||
	    end > desc_end)
		return kbin_fail_dma(c, at, KBIN_FIELD_DMA_BLOCK, KBIN_ERR_DMA_COUNT,
				     b->first_desc,
				     "descriptors %u + %u are not the next of the subgraph's (%u, ending at %llu)",
				     b->first_desc, b->num_descs, *next_desc,
				     (unsigned long long)desc_end);
	*next_desc = (__u32)end;
	for (j = 0; j < b->num_descs; j++) {
		at->desc = j;
		at->item = (long long)(b->first_desc + j) - first_desc;
		r = kbin_check_dma_desc(c, at, &c->descs[b->first_desc + j], set);
		if (r)
			return r;
		if (!((b->first_desc + j) & 4095))
			kbin_yield();
	}
	at->desc = -1;
	return KBIN_OK;
}

/*
 * Subgraph @s's part of the DMA section: its ranges follow the previous
 * subgraph's (*@nq, *@nb, *@nd running totals); each queue in turn, then
 * its blocks, then their descriptors, so every record is read once.
 */
static unsigned int kbin_check_dma_sg(struct kbin_ck *c, int s, __u32 *nq,
				      __u32 *nb, __u32 *nd)
{
	const struct kbin_dma_sg *e = &c->dma->sg[s];
	const struct kbin_mem_ref_set *set = kbin_set(c, s);
	struct kbin_dma_at at = { .sg = s, .block = -1, .desc = -1 };
	__u64 qend, bend, dend, sems = 0;
	__u32 k, j, nblock, ndesc;
	unsigned int r;

	if (e->first_queue != *nq || e->first_block != *nb || e->first_desc != *nd ||
	    (__u64)e->first_queue + e->num_queues > c->dma->num_queues ||
	    (__u64)e->first_block + e->num_blocks > c->dma->num_blocks ||
	    (__u64)e->first_desc + e->num_descs > c->dma->num_descs)
		return kbin_fail(c, s, -1, NULL, KBIN_FIELD_DMA_SECTION,
				 KBIN_ERR_DMA_COUNT, e->first_queue,
				 "dma entry: queues %u + %u, blocks %u + %u, descriptors %u + %u do not follow the previous subgraph's (%u, %u, %u) within the section's %u, %u, %u",
				 e->first_queue, e->num_queues, e->first_block,
				 e->num_blocks, e->first_desc, e->num_descs, *nq,
				 *nb, *nd, c->dma->num_queues, c->dma->num_blocks,
				 c->dma->num_descs);
	qend = (__u64)e->first_queue + e->num_queues;
	bend = (__u64)e->first_block + e->num_blocks;
	dend = (__u64)e->first_desc + e->num_descs;
	nblock = e->first_block;
	ndesc = e->first_desc;
	for (k = 0; k < e->num_queues; k++) {
		const struct kbin_dma_queue *q = &c->queues[e->first_queue + k];

		at.queue = k;
		at.qname = NULL;
		at.item = k;
		at.block = -1;
		r = kbin_check_dma_queue(c, &at, q);
		if (r)
			return r;
		/*
		 * The kernel keeps a copy of every queue's set: queues may
		 * share one set in the file, so their entries are bounded
		 * together, not only each set by KBIN_MAX_LIST.
		 */
		sems += q->num_semaphores;
		if (sems > KBIN_MAX_LIST)
			return kbin_fail_dma(c, &at, KBIN_FIELD_DMA_QUEUE,
					     KBIN_ERR_DMA_SEMAPHORE, sems,
					     "the subgraph's semaphore sets reach %llu entries with this queue's %u, above %u",
					     (unsigned long long)sems,
					     q->num_semaphores, KBIN_MAX_LIST);
		if (q->first_block != nblock ||
		    (__u64)q->first_block + q->num_blocks > bend)
			return kbin_fail_dma(c, &at, KBIN_FIELD_DMA_QUEUE,
					     KBIN_ERR_DMA_COUNT, q->first_block,
					     "blocks %u + %u are not the next of the subgraph's (%u, ending at %llu)",
					     q->first_block, q->num_blocks, nblock,
					     (unsigned long long)bend);
		nblock += q->num_blocks;
		for (j = 0; j < q->num_blocks; j++) {
			at.block = j;
			at.item = (long long)(q->first_block + j) - e->first_block;
			r = kbin_check_dma_block(c, &at, q,
						 &c->blocks[q->first_block + j],
						 &ndesc, dend, set, e->first_desc);
			if (r)
				return r;
			if (!((q->first_block + j) & 4095))
				kbin_yield();
		}
	}
	if (nblock != bend || ndesc != dend)
		return kbin_fail(c, s, -1, NULL, KBIN_FIELD_DMA_SECTION,
				 KBIN_ERR_DMA_COUNT, nblock,
				 "dma entry: its queues hold %u blocks and %u descriptors, not %u and %u",
				 nblock - e->first_block, ndesc - e->first_desc,
				 e->num_blocks, e->num_descs);
	*nq = (__u32)qend;
	*nb = (__u32)bend;
	*nd = (__u32)dend;
	return KBIN_OK;
}

/**
 * kbin_check_plan() - check an untrusted KBIN plan.
 * @buf: the plan, @len bytes; must be 8-byte aligned (kvmalloc() and
 *	malloc() memory is).
 * @len: length of @buf in bytes; must equal kbin_header.total_size.
 * @res: filled with the first problem; with reason KBIN_OK, subgraph and
 *	record -1 and an empty message when the plan is valid.  Not NULL:
 *	it is larger than a kernel stack frame may hold, so the caller
 *	gives one (LOAD allocates it).
 *
 * Runs the rules of Documentation/kbin-format.rst ("Checker rules") over
 * the layout of uapi/linux/neuronsim_kbin.h: the file header (version 1
 * or 2), data area, subgraph table, SBUF carve-outs (the target's
 * geometry in the generation table, Documentation/hardware.rst), mem_ref
 * sets, the 152-byte records, in a version 2 or 3 plan the DMA section
 * (queues, blocks, descriptors; the rules of kbin_dma.h,
 * Documentation/relocation.rst) and in a version 3 plan the program
 * section (the five engines' instruction streams of every subgraph; the
 * rules of kbin_prog.h, Documentation/execute.rst).  Reads only inside @buf[0..@len);
 * allocates nothing; does not recurse; O(total records + total list
 * entries + DMA queues, blocks and descriptors + instructions).  With
 * KBIN_OK @res also holds the plan's descriptor count, its M2S and S2M
 * UDMA piece totals (saturated at 2^64 - 1) and its instruction count.
 *
 * Return: KBIN_OK (0) when @buf is a well-formed plan, else the first
 * problem's enum kbin_check_reason (KBIN_ERR_TRUNCATED .. KBIN_ERR_CHECK_MAX
 * - 1), also stored in @res->err.reason.
 */
unsigned int kbin_check_plan(const void *buf, unsigned long long len,
			     struct kbin_check_result *res)
{
	struct kbin_ck c = { 0 };
	unsigned int r;
	__u32 s, i;

	res->err.subgraph = -1;
	res->err.record = -1;
	res->item = -1;
	res->dma_descs = 0;
	res->dma_m2s_pieces = 0;
	res->dma_s2m_pieces = 0;
	res->err.field = KBIN_FIELD_NONE;
	res->err.reason = KBIN_OK;
	res->err.value = 0;
	res->err.msg[0] = '\0';
	res->err.text = 0;
	res->prog_instrs = 0;
	kbin_prog_verdict_init(&res->prog);
	c.res = res;
	c.base = buf;
	c.len = len;

	if (!buf || len < sizeof(struct kbin_header))
		return kbin_fail(&c, -1, -1, NULL, KBIN_FIELD_TOTAL_SIZE,
				 KBIN_ERR_TRUNCATED, len,
				 "plan is %llu bytes, shorter than the %u-byte header",
				 len, (unsigned int)sizeof(struct kbin_header));
	if ((unsigned long)buf & 7)
		return kbin_fail(&c, -1, -1, NULL, KBIN_FIELD_NONE,
				 KBIN_ERR_MISALIGNED, (unsigned long)buf & 7,
				 "plan buffer is not 8-byte aligned");
	c.h = buf;
	r = kbin_check_header(&c);
	if (r)
		return r;
	for (s = 0; s < c.h->num_subgraphs; s++) {
		r = kbin_check_subgraph(&c, s);
		if (r)
			return r;
	}
	for (s = 0; s < c.h->num_subgraphs; s++) {
		const struct kbin_mem_ref_set *set = kbin_set(&c, s);

		for (i = 0; i < set->nmem; i++) {
			r = kbin_check_record(&c, s, i, set);
			if (r)
				return r;
			if (!(i & 4095))
				kbin_yield();
		}
	}
	for (s = 0; s < c.h->num_subgraphs; s++) {
		const struct kbin_mem_ref_set *set = kbin_set(&c, s);

		for (i = 0; i < set->nmem; i++) {
			r = kbin_check_refs(&c, s, i, set);
			if (r)
				return r;
			if (!(i & 4095))
				kbin_yield();
		}
	}
	if (c.dma) {
		__u32 nq = 0, nb = 0, nd = 0;

		for (s = 0; s < c.h->num_subgraphs; s++) {
			r = kbin_check_dma_sg(&c, s, &nq, &nb, &nd);
			if (r)
				return r;
		}
		if (nq != c.dma->num_queues || nb != c.dma->num_blocks ||
		    nd != c.dma->num_descs)
			return kbin_fail(&c, -1, -1, NULL, KBIN_FIELD_DMA_SECTION,
					 KBIN_ERR_DMA_COUNT, nq,
					 "the subgraphs hold %u queues, %u blocks and %u descriptors; the DMA section says %u, %u and %u",
					 nq, nb, nd, c.dma->num_queues,
					 c.dma->num_blocks, c.dma->num_descs);
	}
	return c.prog ? kbin_check_prog(&c) : KBIN_OK;
}

/* ---- pass 5: the program section (version 3) ---- */

/*
 * The program section's place and size: in the metadata area after the
 * header, 8-byte aligned, over neither the subgraph table nor the DMA
 * section (the sets are compared with it in kbin_check_subgraph()),
 * exactly as long as its header, subgraph entries, decoded entries and
 * records (a whole number of 64-byte records, kbin_prog_stream_count()).
 */
static unsigned int kbin_check_prog_area(struct kbin_ck *c)
{
	const struct kbin_header_ext *x = (const void *)(c->base + sizeof(*c->h));
	const struct kbin_prog_section *p;
	unsigned int r;
	__u64 want, t;
	__u32 n;

	if (!x->prog_off && !x->prog_size)
		return KBIN_OK;
	r = kbin_check_section_place(c, KBIN_FIELD_PROG_SECTION,
				     KBIN_ERR_PROG_COUNT, "program", "prog",
				     x->prog_off, x->prog_size);
	if (r)
		return r;
	if (c->dma && kbin_ranges_overlap(x->prog_off, x->prog_size,
					  c->dma_off, c->dma_size))
		return kbin_fail(c, -1, -1, NULL, KBIN_FIELD_PROG_SECTION,
				 KBIN_ERR_OVERLAP, x->prog_off,
				 "program section at 0x%llx overlaps the DMA section",
				 (unsigned long long)x->prog_off);
	want = sizeof(struct kbin_prog_section) +
	       (__u64)c->h->num_subgraphs * sizeof(struct kbin_prog_sg);
	if (x->prog_size < want)
		return kbin_fail(c, -1, -1, NULL, KBIN_FIELD_PROG_SECTION,
				 KBIN_ERR_PROG_COUNT, x->prog_size,
				 "prog_size %llu is below the %llu bytes of its header and %u subgraph entries",
				 (unsigned long long)x->prog_size,
				 (unsigned long long)want, c->h->num_subgraphs);
	p = (const void *)(c->base + x->prog_off);
	t = want + (__u64)p->num_instrs * sizeof(struct kbin_prog_sync);
	if (x->prog_size < t || kbin_prog_stream_count(x->prog_size - t, &n) ||
	    n != p->num_instrs)
		return kbin_fail(c, -1, -1, NULL, KBIN_FIELD_PROG_SECTION,
				 KBIN_ERR_PROG_COUNT, x->prog_size,
				 "prog_size %llu is not the %llu bytes of %u instructions (%u-byte entries and %u-byte records)",
				 (unsigned long long)x->prog_size,
				 (unsigned long long)(t + (__u64)p->num_instrs *
						      KBIN_PROG_RECORD_SIZE),
				 p->num_instrs,
				 (unsigned int)sizeof(struct kbin_prog_sync),
				 KBIN_PROG_RECORD_SIZE);
	if (p->flags & ~KBIN_PROG_F_MASK)
		return kbin_fail(c, -1, -1, NULL, KBIN_FIELD_PROG_SECTION,
				 KBIN_ERR_RESERVED, p->flags,
				 "program section flags 0x%x: bits outside 0x%x are not defined",
				 p->flags, KBIN_PROG_F_MASK);
	if (p->reserved[0] || p->reserved[1])
		return kbin_fail(c, -1, -1, NULL, KBIN_FIELD_PROG_SECTION,
				 KBIN_ERR_RESERVED,
				 p->reserved[0] | p->reserved[1],
				 "program section reserved fields are not zero");
	c->prog_off = x->prog_off;
	c->prog_size = x->prog_size;
	c->prog = p;
	c->psync = (const void *)(c->base + x->prog_off + want);
	c->precs = c->base + x->prog_off + t;
	return KBIN_OK;
}

/* a program finding of subgraph @sg, as kbin_fail() with @v's where */
static unsigned int kbin_fail_prog(struct kbin_ck *c, int sg,
				   const struct kbin_prog_verdict *v,
				   unsigned int reason)
{
	char why[KBIN_ERR_MSG_LEN / 2];	/* the rule's words; the place takes the rest */
	unsigned int field = v->engine ?
			     KBIN_FIELD_PROG_PE + v->engine - 1 :
			     KBIN_FIELD_PROG_SECTION;
	unsigned int r;

	kbin_prog_why(v, why, sizeof(why));
	if (v->instr >= 0)
		r = kbin_fail(c, sg, -1, NULL, field, reason, v->value,
			      "program %s instruction %lld (opcode 0x%x): %s",
			      kbin_dma_engine_str(v->engine), v->instr,
			      v->opcode, why);
	else
		r = kbin_fail(c, sg, -1, NULL, field, reason, v->value,
			      "program: %s", why);
	c->res->item = v->instr;
	c->res->prog = *v;
	return r;
}

/*
 * Every subgraph's stream ranges (each follows the previous one, all of
 * them fill num_instrs), then its streams under kbin_prog_check_sg()
 * with the subgraph's DMA queues and blocks (pass 4 checked them) and
 * the target's semaphore count.
 */
static unsigned int kbin_check_prog(struct kbin_ck *c)
{
	struct kbin_prog_verdict v;
	__u32 s, e, next = 0;
	unsigned int r;

	for (s = 0; s < c->h->num_subgraphs; s++) {
		const struct kbin_prog_sg *ps = &c->prog->sg[s];
		struct kbin_prog_sg_args a = {
			.base = c->base, .semaphores = c->gen->semaphores,
			.flags = c->prog->flags, .gen = c->gen,
		};

		for (e = 0; e < KBIN_PROG_ENGINES; e++) {
			const struct kbin_prog_stream *st = &ps->engine[e];

			if (st->first != next ||
			    (__u64)st->first + st->num > c->prog->num_instrs)
				return kbin_fail(c, s, -1, NULL,
						 KBIN_FIELD_PROG_PE + e,
						 KBIN_ERR_PROG_COUNT, st->first,
						 "program %s stream: instructions %u + %u do not follow the previous stream's (%u) within the section's %u",
						 kbin_dma_engine_str(e + 1),
						 st->first, st->num, next,
						 c->prog->num_instrs);
			next += st->num;
			a.records[e] = c->precs +
				       (__u64)st->first * KBIN_PROG_RECORD_SIZE;
			a.sync[e] = c->psync + st->first;
			a.num[e] = st->num;
		}
		if (c->dma) {
			const struct kbin_dma_sg *d = &c->dma->sg[s];

			a.queues = c->queues + d->first_queue;
			a.num_queues = d->num_queues;
			a.blocks = c->blocks + d->first_block;
			a.num_blocks = d->num_blocks;
			a.first_block = d->first_block;
		}
		r = kbin_prog_check_sg(&a, &v);
		if (r)
			return kbin_fail_prog(c, s, &v, r);
	}
	if (next != c->prog->num_instrs)
		return kbin_fail(c, -1, -1, NULL, KBIN_FIELD_PROG_SECTION,
				 KBIN_ERR_PROG_COUNT, next,
				 "the streams hold %u instructions; the program section says %u",
				 next, c->prog->num_instrs);
	c->res->prog_instrs = next;
	return KBIN_OK;
}
