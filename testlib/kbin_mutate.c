// SPDX-License-Identifier: GPL-2.0
/*
 * kbin_mutate.c - structure-aware KBIN plan mutator (see kbin_mutate.h).
 *
 * Every field is read and written with memcpy at a byte offset, so a
 * damaged plan (unaligned or overlapping tables) is walked safely; every
 * offset is checked against the current length before use.
 */
#include <stddef.h>
#include <string.h>

#include <linux/neuronsim_kbin.h>

#include "kbin_check.h"
#include "kbin_mutate.h"
#include "kbin_writer.h"

const struct kbin_bad_transpose kbin_bad_transposes[] = {
	/* 2 x 64640 x 32404 x 32800 x 268501 = 2^65 + 32768 */
	{ "product wraps to the bytes", { 64640, 32404, 32800, 268501 }, 2, 32768 },
	/* 4 x 2048 x 1544 x 65537 x 22253377 = 2^64 + 65536 */
	{ "product wraps to the bytes, float32", { 2048, 1544, 65537, 22253377 },
	  4, 65536 },
	/* 2 x 4323 x 2731 x 409891 x 7623851 = 2^66 + 2: one element */
	{ "product wraps to one element", { 4323, 2731, 409891, 7623851 }, 2, 32768 },
	{ "product wraps to 0", { 65536, 65536, 65536, 65536 }, 2, 32768 },
	{ "zero W", { 0, 1, 128, 128 }, 2, 32768 },
	{ "zero X", { 1, 1, 128, 0 }, 2, 32768 },
	{ "product not a divisor of the bytes", { 1, 1, 128, 127 }, 2, 32768 },
	{ "tile larger than the bytes", { 1, 1, 256, 256 }, 2, 32768 },
	{ "largest dimensions", { 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff },
	  4, 65536 },
};

const unsigned int kbin_num_bad_transposes =
	sizeof(kbin_bad_transposes) / sizeof(kbin_bad_transposes[0]);

uint64_t kbin_rand(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t rnd(uint64_t *st, uint64_t n)
{
	return n ? kbin_rand(st) % n : 0;
}

/* a field of @w bytes (1, 4 or 8) at byte offset @off */
struct fld {
	size_t off;
	unsigned int w;
};

static int fits(size_t len, size_t off, size_t n)
{
	return off <= len && n <= len - off;
}

static uint64_t get(const uint8_t *b, struct fld f)
{
	uint64_t v64 = 0;
	uint32_t v32 = 0;

	if (f.w == 8) {
		memcpy(&v64, b + f.off, 8);
		return v64;
	}
	if (f.w == 4) {
		memcpy(&v32, b + f.off, 4);
		return v32;
	}
	return b[f.off];
}

static void put(uint8_t *b, struct fld f, uint64_t v)
{
	uint32_t v32 = (uint32_t)v;

	if (f.w == 8)
		memcpy(b + f.off, &v, 8);
	else if (f.w == 4)
		memcpy(b + f.off, &v32, 4);
	else
		b[f.off] = (uint8_t)v;
}

/*
 * An interesting value for a field that now holds @cur in a plan of @len
 * bytes; @peer is a value of the same field elsewhere (another record's).
 */
static uint64_t interesting(uint64_t *st, uint64_t cur, uint64_t peer,
			    size_t len, unsigned int w)
{
	static const uint64_t k[] = {
		0, 1, 2, 3, 4, 7, 8, 15, 16, 24, 63, 64, 127, 128, 152, 255,
		256, 4095, 4096, 65535, 65536, 0x7fffffff, 0x80000000,
		0xffffffff, 0x100000000ULL, 0x7fffffffffffffffULL,
		0x8000000000000000ULL, ~0ULL, KBIN_MAX_LIST, KBIN_MAX_LIST + 1,
		KBIN_MAX_ALIGNMENT, KBIN_MAX_ALIGNMENT * 2, 32ULL << 20 /* SBUF window */,
	};
	uint64_t v;

	switch (rnd(st, 9)) {
	case 0:
		v = k[rnd(st, sizeof(k) / sizeof(k[0]))];
		break;
	case 1:
		v = cur + 1 + rnd(st, 16);
		break;
	case 2:
		v = cur - 1 - rnd(st, 16);
		break;
	case 3:
		v = peer;
		break;
	case 4:
		v = 1ULL << rnd(st, w * 8);
		break;
	case 5:
		v = len - rnd(st, 32);
		break;
	case 6:
		v = rnd(st, len + 1);
		break;
	case 7:
		v = cur ^ (1ULL << rnd(st, w * 8));
		break;
	default:
		v = kbin_rand(st);
		break;
	}
	if (w == 4)
		v &= 0xffffffffULL;
	else if (w == 1)
		v &= 0xff;
	return v;
}

/* The layout as far as it can be followed in the current bytes. */
struct walk {
	uint32_t nsg;		/* subgraph table entries inside the buffer */
	size_t sgt;		/* subgraph table offset */
	size_t set[KBIN_MAX_SUBGRAPHS];	/* set offset per subgraph, 0 if bad */
	uint32_t nmem[KBIN_MAX_SUBGRAPHS];	/* records inside the buffer */
	size_t dma;		/* DMA section offset, 0 if none or bad */
	size_t dq, db, dd;	/* offsets of its queue, block, desc tables */
	uint32_t nq, nb, nd;	/* records of each inside the buffer */
	size_t prog;		/* program section offset, 0 if none or bad */
	size_t ps, pr;		/* offsets of its entries and records */
	uint32_t npsg;		/* subgraph entries inside the buffer */
	uint32_t nps, npr;	/* entries and records inside the buffer */
};

#define HDR(f)	offsetof(struct kbin_header, f)
#define EXT(f)	(sizeof(struct kbin_header) + offsetof(struct kbin_header_ext, f))
#define DSEC(f)	offsetof(struct kbin_dma_section, f)
#define DQ(f)	offsetof(struct kbin_dma_queue, f)
#define DB(f)	offsetof(struct kbin_dma_block, f)
#define DD(f)	offsetof(struct kbin_dma_desc, f)
#define PSEC(f)	offsetof(struct kbin_prog_section, f)
#define PSY(f)	offsetof(struct kbin_prog_sync, f)
#define SG(f)	offsetof(struct kbin_subgraph, f)
#define SET(f)	offsetof(struct kbin_mem_ref_set, f)
#define MR(f)	offsetof(struct kbin_mem_ref, f)

/* how many @size-byte records of a table at @off claiming @n fit in @len */
static uint32_t fit_count(size_t len, size_t off, uint64_t n, size_t size)
{
	if (off >= len)
		return 0;
	if (n > (len - off) / size)
		n = (len - off) / size;
	return (uint32_t)n;
}

/*
 * The table of @n @size-byte entries at *@t: its offset in *@at (when
 * not NULL), *@t moved past it.  Return: how many entries fit in @len.
 */
static uint32_t walk_table(size_t len, uint64_t *t, uint64_t n, size_t size,
			   size_t *at)
{
	uint32_t fit = fit_count(len, *t, n, size);

	if (at)
		*at = *t;
	*t += n * size;
	return fit;
}

static void walk_dma(const uint8_t *b, size_t len, uint64_t nsg,
		     struct walk *wk)
{
	uint64_t d, nq, nb, nd, t;

	if (len < KBIN_HEADER_SIZE ||
	    get(b, (struct fld){ HDR(version), 4 }) < 2)
		return;
	d = get(b, (struct fld){ EXT(dma_off), 8 });
	if (!d || !fits(len, d, sizeof(struct kbin_dma_section)))
		return;
	nq = get(b, (struct fld){ d + DSEC(num_queues), 4 });
	nb = get(b, (struct fld){ d + DSEC(num_blocks), 4 });
	nd = get(b, (struct fld){ d + DSEC(num_descs), 4 });
	wk->dma = d;
	t = d + sizeof(struct kbin_dma_section) + nsg * sizeof(struct kbin_dma_sg);
	wk->nq = walk_table(len, &t, nq, sizeof(struct kbin_dma_queue), &wk->dq);
	wk->nb = walk_table(len, &t, nb, sizeof(struct kbin_dma_block), &wk->db);
	wk->nd = walk_table(len, &t, nd, sizeof(struct kbin_dma_desc), &wk->dd);
}

static void walk_prog(const uint8_t *b, size_t len, uint64_t nsg,
		      struct walk *wk)
{
	uint64_t p, ni, t;

	if (len < KBIN_HEADER_SIZE ||
	    get(b, (struct fld){ HDR(version), 4 }) < KBIN_VERSION_PROG)
		return;
	p = get(b, (struct fld){ EXT(prog_off), 8 });
	if (!p || !fits(len, p, sizeof(struct kbin_prog_section)))
		return;
	ni = get(b, (struct fld){ p + PSEC(num_instrs), 4 });
	wk->prog = p;
	t = p + sizeof(struct kbin_prog_section);
	wk->npsg = walk_table(len, &t, nsg, sizeof(struct kbin_prog_sg), NULL);
	wk->nps = walk_table(len, &t, ni, sizeof(struct kbin_prog_sync), &wk->ps);
	wk->npr = walk_table(len, &t, ni, KBIN_PROG_RECORD_SIZE, &wk->pr);
}

static void walk(const uint8_t *b, size_t len, struct walk *wk)
{
	uint64_t nsg, sgt, so;
	uint32_t s;

	memset(wk, 0, sizeof(*wk));
	if (len < sizeof(struct kbin_header))
		return;
	nsg = get(b, (struct fld){ HDR(num_subgraphs), 4 });
	sgt = get(b, (struct fld){ HDR(subgraph_table_off), 8 });
	if (nsg > KBIN_MAX_SUBGRAPHS)
		nsg = KBIN_MAX_SUBGRAPHS;
	walk_dma(b, len, nsg, wk);
	walk_prog(b, len, nsg, wk);
	if (sgt >= len)
		return;
	wk->sgt = sgt;
	for (s = 0; s < nsg; s++) {
		size_t e = sgt + (size_t)s * sizeof(struct kbin_subgraph);
		uint64_t n;

		if (!fits(len, e, sizeof(struct kbin_subgraph)))
			break;
		wk->nsg = s + 1;
		so = get(b, (struct fld){ e + SG(set_off), 8 });
		if (!so || !fits(len, so, sizeof(struct kbin_mem_ref_set)))
			continue;
		wk->set[s] = so;
		n = get(b, (struct fld){ so + SET(nmem), 4 });
		wk->nmem[s] = fit_count(len, so + sizeof(struct kbin_mem_ref_set), n,
					sizeof(struct kbin_mem_ref));
	}
}

static size_t rec_off(const struct walk *wk, uint32_t s, uint32_t i)
{
	return wk->set[s] + sizeof(struct kbin_mem_ref_set) +
	       (size_t)i * sizeof(struct kbin_mem_ref);
}

static const struct fld hdr_fields[] = {
	{ HDR(magic), 4 }, { HDR(version), 4 }, { HDR(header_size), 4 },
	{ HDR(total_size), 8 }, { HDR(flags), 8 }, { HDR(target_gen), 4 },
	{ HDR(num_subgraphs), 4 }, { HDR(subgraph_table_off), 8 },
	{ HDR(data_off), 8 }, { HDR(data_size), 8 },
	{ EXT(dma_off), 8 }, { EXT(dma_size), 8 }, { EXT(prog_off), 8 },
	{ EXT(prog_size), 8 },
};

/* the DMA section header and its subgraph entries */
static const struct fld dsec_fields[] = {
	{ DSEC(num_queues), 4 }, { DSEC(num_blocks), 4 }, { DSEC(num_descs), 4 },
	{ DSEC(reserved), 4 },
	{ DSEC(sg[0].first_queue), 4 }, { DSEC(sg[0].num_queues), 4 },
	{ DSEC(sg[0].first_block), 4 }, { DSEC(sg[0].num_blocks), 4 },
	{ DSEC(sg[0].first_desc), 4 }, { DSEC(sg[0].num_descs), 4 },
	{ DSEC(sg[1].first_queue), 4 }, { DSEC(sg[1].num_blocks), 4 },
	{ DSEC(sg[1].num_descs), 4 },
};

static const struct fld dq_fields[] = {
	{ DQ(name), 8 }, { DQ(fabric_path), 8 }, { DQ(semaphores), 8 },
	{ DQ(num_semaphores), 4 }, { DQ(type), 4 }, { DQ(owner), 4 },
	{ DQ(num_queues), 4 }, { DQ(first_block), 4 }, { DQ(num_blocks), 4 },
	{ DQ(flags), 4 }, { DQ(sb_scratch_offset), 4 },
	{ DQ(sb_scratch_size), 4 }, { DQ(reserved), 4 },
};

static const struct fld db_fields[] = {
	{ DB(comment), 8 }, { DB(queue), 4 }, { DB(id), 4 }, { DB(semaphore), 4 },
	{ DB(sem_index), 4 }, { DB(first_desc), 4 }, { DB(num_descs), 4 },
};

/* sizes, steps and offsets are listed often: the walker reads them */
static const struct fld dd_fields[] = {
	{ DD(from.offset), 8 }, { DD(from.offset), 8 }, { DD(to.offset), 8 },
	{ DD(from.steps[0]), 8 }, { DD(from.steps[1]), 8 },
	{ DD(from.steps[2]), 8 }, { DD(to.steps[1]), 8 }, { DD(to.steps[3]), 8 },
	{ DD(from.sizes[0]), 4 }, { DD(from.sizes[1]), 4 },
	{ DD(from.sizes[3]), 4 }, { DD(to.sizes[0]), 4 }, { DD(to.sizes[1]), 4 },
	{ DD(to.sizes[2]), 4 },
	{ DD(from.var_id), 4 }, { DD(to.var_id), 4 },
	{ DD(from.dtype), 1 }, { DD(to.dtype), 1 }, { DD(from.num_dims), 1 },
	{ DD(to.num_dims), 1 }, { DD(from.pad), 1 },
	{ DD(op), 1 }, { DD(op), 1 }, { DD(num_tiling_dims), 1 },
	{ DD(transpose_elem_size), 1 }, { DD(pad), 1 }, { DD(transpose_op), 1 },
	{ DD(transpose_op) + 3, 1 }, { DD(transpose_shape[0]), 4 },
};

static const struct fld sg_fields[] = {
	{ SG(name), 1 }, { SG(name) + 4, 1 }, { SG(name) + 31, 1 },
	{ SG(set_off), 8 }, { SG(set_size), 8 }, { SG(num_carveouts), 4 },
	{ SG(reserved), 4 },
	{ SG(carveouts[0].type), 4 }, { SG(carveouts[0].offset), 4 },
	{ SG(carveouts[0].size), 4 }, { SG(carveouts[0].start_partition), 4 },
	{ SG(carveouts[0].num_partitions), 4 }, { SG(carveouts[0].reserved), 4 },
	{ SG(carveouts[1].type), 4 }, { SG(carveouts[3].size), 4 },
};

static const struct fld set_fields[] = {
	{ SET(local_scratchpad_size), 8 }, { SET(shared_scratchpad_size), 8 },
	{ SET(nmem), 4 }, { SET(pad), 4 },
};

/* mr_type is listed several times: it is the discriminator of the rest */
static const struct fld mr_fields[] = {
	{ MR(mr_type), 4 }, { MR(mr_type), 4 }, { MR(mr_type), 4 },
	{ MR(pad0), 4 }, { MR(name), 8 }, { MR(size), 8 }, { MR(size), 8 },
	{ MR(alignment), 8 }, { MR(var_id), 4 }, { MR(var_id), 4 },
	{ MR(dtype), 1 }, { MR(dtype) + 7, 1 }, { MR(dtype) + 15, 1 },
	{ MR(pad1), 4 }, { MR(shape[0]), 8 }, { MR(shape[1]), 8 },
	{ MR(shape[7]), 8 }, { MR(dtensor_md), 8 }, { MR(buffer), 8 },
	{ MR(buffer), 8 },
	{ MR(pointer.referenced_var_id), 4 }, { MR(pointer.io_ref), 1 },
	{ MR(pointer.pad), 1 }, { MR(virt.offset), 8 },
	{ MR(virt.backing_buf), 4 }, { MR(virt.pad), 4 },
	{ MR(list.length), 4 }, { MR(list.length), 4 }, { MR(list.list), 8 },
	{ MR(remote.remote_vtpb_rel_sg_id), 4 }, { MR(remote.remote_var_id), 4 },
	{ MR(remote.pad), 8 },
};

#define NELEM(a)	(sizeof(a) / sizeof((a)[0]))

/* Pick a random record; 0 when there is none. */
static int pick_rec(const struct walk *wk, uint64_t *st, uint32_t *s,
		    uint32_t *i)
{
	uint32_t tries;

	for (tries = 0; tries < 8 && wk->nsg; tries++) {
		*s = (uint32_t)rnd(st, wk->nsg);
		if (wk->nmem[*s]) {
			*i = (uint32_t)rnd(st, wk->nmem[*s]);
			return 1;
		}
	}
	return 0;
}

static void mutate_record(uint8_t *b, size_t len, const struct walk *wk,
			  uint64_t *st)
{
	uint32_t s, i, ps, pi;
	struct fld f, pf;
	size_t r;

	if (!pick_rec(wk, st, &s, &i))
		return;
	r = rec_off(wk, s, i);
	f = mr_fields[rnd(st, NELEM(mr_fields))];
	pf = f;
	f.off += r;
	if (pick_rec(wk, st, &ps, &pi))
		pf.off += rec_off(wk, ps, pi);
	else
		pf = f;
	if (f.off == r + MR(mr_type) && rnd(st, 2)) {
		put(b, f, rnd(st, KBIN_MR_TYPE_MAX + 2));
		return;
	}
	if (f.off == r + MR(var_id) && rnd(st, 2)) {
		put(b, f, rnd(st, 3) ? i + rnd(st, 3) - 1 :
				       rnd(st, wk->nmem[s] + 2));
		return;
	}
	put(b, f, interesting(st, get(b, f), get(b, pf), len, f.w));
}

/* Edit an entry of a record's list, or a payload header. */
static void mutate_pointee(uint8_t *b, size_t len, const struct walk *wk,
			   uint64_t *st)
{
	uint32_t s, i, type, n;
	uint64_t off;
	size_t r;

	if (!pick_rec(wk, st, &s, &i))
		return;
	r = rec_off(wk, s, i);
	type = (uint32_t)get(b, (struct fld){ r + MR(mr_type), 4 });
	if (type == KBIN_MR_LIST || type == KBIN_MR_PTR_TABLE) {
		n = (uint32_t)get(b, (struct fld){ r + MR(list.length), 4 });
		off = get(b, (struct fld){ r + MR(list.list), 8 });
		if (!n || off >= len)
			return;
		off += 4 * rnd(st, n);
		if (!fits(len, off, 4))
			return;
		/* a var_id: a neighbour, itself, out of range, or anything */
		switch (rnd(st, 4)) {
		case 0:
			put(b, (struct fld){ off, 4 }, i);
			break;
		case 1:
			put(b, (struct fld){ off, 4 }, wk->nmem[s] + rnd(st, 3));
			break;
		case 2:
			put(b, (struct fld){ off, 4 }, rnd(st, wk->nmem[s] + 1));
			break;
		default:
			put(b, (struct fld){ off, 4 }, kbin_rand(st));
		}
		return;
	}
	off = get(b, (struct fld){ r + MR(buffer), 8 });
	if (off >= sizeof(struct kbin_payload_hdr) &&
	    fits(len, off - sizeof(struct kbin_payload_hdr),
		 sizeof(struct kbin_payload_hdr))) {
		struct fld f = { off - sizeof(struct kbin_payload_hdr), 8 };

		if (rnd(st, 2))
			f.off += 8;	/* reserved */
		put(b, f, interesting(st, get(b, f), 0, len, 8));
	}
}

/* A field of the DMA section: its header, a queue, a block, a descriptor. */
static void mutate_dma(uint8_t *b, size_t len, const struct walk *wk,
		       uint64_t *st)
{
	/*
	 * The section header (one in 8), a queue (2 in 8), a block (2 in 8)
	 * or a descriptor (3 in 8): where its table is, its entries and
	 * their size (0: the header, one), the fields to pick from.
	 */
	static const uint8_t pick[8] = { 0, 1, 1, 2, 2, 3, 3, 3 };
	const struct {
		size_t at;
		uint32_t n;
		size_t size;
		const struct fld *f;
		size_t nf;
	} tables[] = {
		{ wk->dma, 1, 0, dsec_fields, NELEM(dsec_fields) },
		{ wk->dq, wk->nq, sizeof(struct kbin_dma_queue), dq_fields, NELEM(dq_fields) },
		{ wk->db, wk->nb, sizeof(struct kbin_dma_block), db_fields, NELEM(db_fields) },
		{ wk->dd, wk->nd, sizeof(struct kbin_dma_desc), dd_fields, NELEM(dd_fields) },
	}, *t;
	struct fld f;
	size_t base, peer;
	uint32_t k;

	if (!wk->dma)
		return;
	t = &tables[pick[rnd(st, 8)]];
	if (!t->n)
		return;
	f = t->f[rnd(st, t->nf)];
	base = peer = t->at;
	if (t->size) {
		base += rnd(st, t->n) * t->size;
		peer += rnd(st, t->n) * t->size;
	}
	peer += f.off;
	f.off += base;
	if (!fits(len, f.off, f.w) || !fits(len, peer, f.w))
		return;
	/* var_ids near the end of a set; sizes near the 64 KiB piece limit */
	if ((f.off == base + DD(from.var_id) || f.off == base + DD(to.var_id)) &&
	    rnd(st, 2)) {
		k = wk->nsg ? wk->nmem[rnd(st, wk->nsg)] : 0;
		put(b, f, k + rnd(st, 3) - 1);
		return;
	}
	if (f.w == 4 && rnd(st, 4) == 0) {
		put(b, f, 65536 + rnd(st, 3) - 1);
		return;
	}
	/* a crafted transpose_shape and element size, whatever the op */
	if (f.off == base + DD(transpose_shape[0]) && rnd(st, 2) &&
	    fits(len, base, sizeof(struct kbin_dma_desc))) {
		const struct kbin_bad_transpose *t =
			&kbin_bad_transposes[rnd(st, kbin_num_bad_transposes)];

		memcpy(b + base + DD(transpose_shape), t->shape, sizeof(t->shape));
		b[base + DD(transpose_elem_size)] = t->elem_size;
		return;
	}
	put(b, f, interesting(st, get(b, f), get(b, (struct fld){ peer, f.w }),
			      len, f.w));
}

/* the program section's header and stream fields, an entry's fields */
static const struct fld psec_fields[] = {
	{ PSEC(num_instrs), 4 }, { PSEC(reserved[0]), 4 },
};

static const struct fld psy_fields[] = {
	{ PSY(opcode), 1 }, { PSY(cls), 1 }, { PSY(wait_mode), 1 },
	{ PSY(wait_sem), 1 }, { PSY(update_mode), 1 }, { PSY(update_sem), 1 },
	{ PSY(add_sem), 1 }, { PSY(add_value), 1 }, { PSY(wait_value), 4 },
	{ PSY(block), 4 },
};

/* a record's byte that means something to the sync layer, and its values */
static void mutate_instr_record(uint8_t *r, uint64_t *st)
{
	static const uint8_t ops[] = { KBIN_PROG_OP_TRIGGER, KBIN_PROG_OP_DMA,
				       KBIN_PROG_OP_WAIT, 0x01, 0xda };
	static const uint8_t modes[] = { 0, KBIN_PROG_WAIT_GE,
					 KBIN_PROG_UPDATE_INC, 1, 0xff };
	static const char *const names[] = { "qSPIO0", "qPoolDynamic", "q",
					     "qSPSpillReload0", "" };
	uint32_t v;

	switch (rnd(st, 7)) {
	case 0:
		r[0] = ops[rnd(st, sizeof(ops))];
		break;
	case 1:		/* wait or update mode */
		r[rnd(st, 2) ? 4 : 6] = modes[rnd(st, sizeof(modes))];
		break;
	case 2:		/* a semaphore index near the core's count */
		v = (uint32_t)rnd(st, 4);
		r[v == 0 ? 5 : v == 1 ? 7 : 13] = (uint8_t)(126 + rnd(st, 4));
		break;
	case 3:		/* the value waited for, one off what it was */
		r[8 + rnd(st, 4)] += (uint8_t)(rnd(st, 3) - 1);
		break;
	case 4:		/* a trigger's queue name */
		r[0] = KBIN_PROG_OP_TRIGGER;
		memset(r + 12, 0, KBIN_PROG_QNAME_MAX);
		v = (uint32_t)rnd(st, sizeof(names) / sizeof(names[0]));
		memcpy(r + 12, names[v], strlen(names[v]));
		break;
	case 5:		/* an unterminated name */
		memset(r + 12, 'q', KBIN_PROG_QNAME_MAX);
		break;
	default:
		r[rnd(st, KBIN_PROG_RECORD_SIZE)] = (uint8_t)kbin_rand(st);
		break;
	}
}

/*
 * A field of the program section: its header, a stream range, a decoded
 * entry, or a record's sync byte.  A record changed in a plan the checker
 * accepts has its entries written again (kbin_prog_refill(), the
 * writer's walk) three times in four, so the change reaches the rules
 * behind the entry comparison.
 */
static void mutate_prog(uint8_t *b, size_t len, const struct walk *wk,
			uint64_t *st)
{
	struct kbin_check_result res;
	struct fld f;
	size_t base;
	int valid;

	if (!wk->prog)
		return;
	switch (rnd(st, 6)) {
	case 0:
		f = psec_fields[rnd(st, NELEM(psec_fields))];
		f.off += wk->prog;
		break;
	case 1:
		if (!wk->npsg)
			return;
		f = (struct fld){ wk->prog + sizeof(struct kbin_prog_section) +
				  rnd(st, wk->npsg) * sizeof(struct kbin_prog_sg) +
				  rnd(st, KBIN_PROG_ENGINES * 2) * 4, 4 };
		break;
	case 2:
		if (!wk->nps)
			return;
		f = psy_fields[rnd(st, NELEM(psy_fields))];
		f.off += wk->ps + rnd(st, wk->nps) * sizeof(struct kbin_prog_sync);
		break;
	default:
		if (!wk->npr)
			return;
		base = wk->pr + rnd(st, wk->npr) * KBIN_PROG_RECORD_SIZE;
		kbin_fix_checksum(b, len);
		valid = kbin_check_plan(b, len, &res) == KBIN_OK;
		mutate_instr_record(b + base, st);
		if (valid && rnd(st, 4))
			kbin_prog_refill(b, len);
		return;
	}
	if (!fits(len, f.off, f.w))
		return;
	put(b, f, interesting(st, get(b, f), get(b, f), len, f.w));
}

static size_t mutate_raw(uint8_t *b, size_t len, size_t max, uint64_t *st)
{
	size_t off, n, k;

	switch (rnd(st, 5)) {
	case 0:		/* truncate */
		if (len > 1)
			len = 1 + rnd(st, len - 1);
		break;
	case 1:		/* extend with zeros or junk */
		n = rnd(st, 256) + 1;
		if (n > max - len)
			n = max - len;
		for (k = 0; k < n; k++)
			b[len + k] = rnd(st, 2) ? 0 : (uint8_t)kbin_rand(st);
		len += n;
		break;
	case 2:		/* copy a block over another (duplicates records) */
		if (len < 2)
			break;
		off = rnd(st, len);
		k = rnd(st, len);
		n = rnd(st, sizeof(struct kbin_mem_ref) + 1);
		if (n > len - off)
			n = len - off;
		if (n > len - k)
			n = len - k;
		memmove(b + k, b + off, n);
		break;
	default:	/* flip bytes */
		for (k = rnd(st, 4) + 1; k && len; k--)
			b[rnd(st, len)] ^= (uint8_t)(1 + rnd(st, 255));
	}
	return len;
}

size_t kbin_mutate(uint8_t *b, size_t len, size_t max, uint64_t *st)
{
	unsigned int n = (unsigned int)rnd(st, 4) + 1;
	struct walk wk;
	struct fld f;
	uint32_t s;

	if (!len || max < len)
		return len;
	while (n--) {
		walk(b, len, &wk);
		switch (rnd(st, 14)) {
		case 10:
		case 11:
			mutate_dma(b, len, &wk, st);
			break;
		case 12:
		case 13:
			mutate_prog(b, len, &wk, st);
			break;
		case 0:
			if (len >= sizeof(struct kbin_header)) {
				f = hdr_fields[rnd(st, NELEM(hdr_fields))];
				put(b, f, interesting(st, get(b, f), len, len, f.w));
			}
			break;
		case 1:
			if (wk.nsg) {
				s = (uint32_t)rnd(st, wk.nsg);
				f = sg_fields[rnd(st, NELEM(sg_fields))];
				f.off += wk.sgt + (size_t)s * sizeof(struct kbin_subgraph);
				put(b, f, interesting(st, get(b, f),
						      wk.set[rnd(st, wk.nsg)], len, f.w));
			}
			break;
		case 2:
			if (wk.nsg && wk.set[s = (uint32_t)rnd(st, wk.nsg)]) {
				f = set_fields[rnd(st, NELEM(set_fields))];
				f.off += wk.set[s];
				put(b, f, interesting(st, get(b, f), 0, len, f.w));
			}
			break;
		case 3:
		case 4:
		case 5:
		case 6:
			mutate_record(b, len, &wk, st);
			break;
		case 7:
			mutate_pointee(b, len, &wk, st);
			break;
		default:
			len = mutate_raw(b, len, max, st);
			/* often keep the header's sizes in step with the length */
			if (len >= sizeof(struct kbin_header) && rnd(st, 2)) {
				uint64_t d = get(b, (struct fld){ HDR(data_off), 8 });

				put(b, (struct fld){ HDR(total_size), 8 }, len);
				if (d <= len)
					put(b, (struct fld){ HDR(data_size), 8 },
					    len - d);
			}
		}
	}
	/* mostly fix the checksum up, so the mutation gets past it */
	if (rnd(st, 16))
		kbin_fix_checksum(b, len);
	return len;
}

size_t kbin_mutate_prog(uint8_t *b, size_t len, size_t max, uint64_t *st)
{
	unsigned int n = (unsigned int)rnd(st, 3) + 1;
	struct walk wk;

	if (!len || max < len)
		return len;
	while (n--) {
		walk(b, len, &wk);
		if (!wk.prog || rnd(st, 8) == 0)
			return kbin_mutate(b, len, max, st);
		mutate_prog(b, len, &wk, st);
	}
	if (rnd(st, 16))
		kbin_fix_checksum(b, len);
	return len;
}
