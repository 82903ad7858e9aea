// SPDX-License-Identifier: GPL-2.0
/*
 * tl_rec.c - the test library's plan builders (tl_rec.h).
 */
#include <errno.h>
#include <string.h>

#include "kbin_gen.h"
#include "tl_rec.h"

void tl_rec_in(const struct tl_rec *r, struct kbin_rec_in *in)
{
	memset(in, 0, sizeof(*in));
	in->rec.mr_type = r->type;
	in->rec.var_id = r->id;
	in->rec.size = r->size;
	in->rec.alignment = r->align ? r->align : 1;
	in->name = r->name;
	in->md = r->md;
	if (r->dtype)
		strncpy(in->rec.dtype, r->dtype, sizeof(in->rec.dtype) - 1);
	in->rec.shape[0] = r->d0;
	in->rec.shape[1] = r->d0 ? r->d1 : 0;
	if (r->payload) {
		in->payload = r->payload;
		in->payload_len = r->size;
	}
	if (r->list) {
		in->list = r->list;
		in->rec.list.length = r->nlist;
	}
	switch (r->type) {
	case KBIN_MR_VIRTUAL_TMP_BUF:
		in->rec.virt.offset = r->offset;
		in->rec.virt.backing_buf = r->backing;
		break;
	case KBIN_MR_PTR:
		in->rec.pointer.referenced_var_id = r->var;
		in->rec.pointer.io_ref = r->io_ref;
		break;
	case KBIN_MR_REMOTE:
		in->rec.remote.remote_vtpb_rel_sg_id = r->rel_sg;
		in->rec.remote.remote_var_id = r->var;
		break;
	default:
		break;
	}
}

int tl_add(struct kbin_writer *w, const struct tl_rec *r)
{
	struct kbin_rec_in in;

	tl_rec_in(r, &in);
	return kbin_writer_add_record(w, r->sg, &in);
}

struct kbin_dma_side tl_side(uint32_t var, uint32_t dtype, uint64_t off,
			     uint32_t n, const uint32_t *sz, const uint64_t *st)
{
	struct kbin_dma_side sd;
	uint32_t i;

	memset(&sd, 0, sizeof(sd));
	sd.var_id = var;
	sd.dtype = (uint8_t)dtype;
	sd.offset = off;
	sd.num_dims = (uint8_t)n;
	for (i = 0; i < n && i < KBIN_DMA_MAX_DIMS; i++) {
		sd.sizes[i] = sz[i];
		sd.steps[i] = st[i];
	}
	return sd;
}

int tl_add_queue(struct kbin_writer *w, const struct tl_queue *q)
{
	struct kbin_dma_queue_in in = {
		.q = { .num_semaphores = q->nsem ? q->nsem : 1, .type = q->type,
		       .owner = KBIN_DMA_ENGINE_SP,
		       .num_queues = q->num_queues ? q->num_queues : 1 },
		.name = q->name, .fabric_path = q->fabric_path,
		.semaphores = q->sem,
	};

	return kbin_writer_add_dma_queue(w, q->sg, &in);
}

struct kbin_writer *tl_io_plan(const struct tl_io *io, int *e)
{
	struct kbin_writer *w = kbin_writer_new(io->gen);
	static const char *const name[] = { "input0", "output0" };
	static const uint32_t type[] = { KBIN_MR_INPUT, KBIN_MR_OUTPUT };
	int i;

	if (!w)
		return NULL;
	if (kbin_writer_add_subgraph(w, "sg00", 0, 0, NULL, 0) < 0)
		*e = -EINVAL;
	*e |= TL_ADD(w, .id = TL_IO_SB, .type = KBIN_MR_SB,
		     .name = "state_buffer", .size = io->sb_size);
	for (i = 0; i < 2; i++)
		*e |= TL_ADD(w, .id = TL_IO_IN + i, .type = type[i],
			     .name = name[i], .size = io->size,
			     .align = io->align, .dtype = io->dtype,
			     .d0 = io->d0, .d1 = io->d1);
	return w;
}

struct kbin_writer *tl_psum_plan(const struct tl_psum *ps, int *e)
{
	const struct kbin_gen *g = kbin_gen_target(ps->gen);
	uint64_t n = (uint64_t)ps->run * ps->parts;
	struct tl_io io = {
		.gen = ps->gen, .sb_size = ps->sb_size, .size = n, .align = 64,
		.dtype = "uint8", .d0 = n, .d1 = 1,
	};
	uint64_t part = g ? kbin_gen_psum_partition_size(g) : 0;
	struct kbin_dma_side flat = {
		.sizes = { ps->run, ps->parts }, .steps = { 1, ps->run },
		.dtype = KBIN_DMA_DTYPE_UINT8, .num_dims = 2,
	};
	struct kbin_dma_side on_psum = {
		.offset = ps->first * part + ps->byte,
		.sizes = { ps->run, ps->parts }, .steps = { 1, part },
		.var_id = TL_PSUM_VAR, .dtype = KBIN_DMA_DTYPE_UINT8,
		.num_dims = 2,
	};
	struct kbin_dma_block blk = { .queue = TL_PSUM_Q_IN,
				      .semaphore = TL_PSUM_SEM_IN };
	struct kbin_dma_desc d = { .op = KBIN_DMA_OP_COPY, .num_tiling_dims = 1 };
	struct kbin_writer *w = tl_io_plan(&io, e);

	if (!w)
		return NULL;
	if (!g)
		*e = -EINVAL;
	*e |= TL_ADD(w, .id = TL_PSUM_VAR, .type = KBIN_MR_PSUM, .name = "psum",
		     .size = ps->psum_size ? ps->psum_size :
			     g ? g->psum_size : 1);
	*e |= TL_QUEUE(w, .name = "qIn", .type = KBIN_DMA_QUEUE_IN,
		       .sem = { TL_PSUM_SEM_IN }) < 0;
	*e |= TL_QUEUE(w, .name = "qOut", .type = KBIN_DMA_QUEUE_DATA,
		       .sem = { TL_PSUM_SEM_OUT }) < 0;
	d.from = flat;
	d.from.var_id = TL_IO_IN;
	d.to = on_psum;
	*e |= kbin_writer_add_dma_block(w, 0, &blk, "input0 to psum", &d, 1);
	blk.queue = TL_PSUM_Q_OUT;
	blk.semaphore = TL_PSUM_SEM_OUT;
	d.from = on_psum;
	d.to = flat;
	d.to.var_id = TL_IO_OUT;
	*e |= kbin_writer_add_dma_block(w, 0, &blk, "psum to output0", &d, 1);
	return w;
}
