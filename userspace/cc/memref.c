// SPDX-License-Identifier: GPL-2.0
/*
 * memref.c - the ten kinds of the mem_ref build tree and their dump
 * (seed 001 sections 2, 3 and 5; FACTS.md sections 2-4).
 *
 * dump fills the 152-byte record: the base dump writes mr_type, var_id,
 * dtype and shape (caps: dtype <= 15 characters, shape <= 8 dimensions,
 * errors, never truncation); each kind then writes size, alignment and
 * its union variant.  MR_PTR_TABLE reuses the list's dump: its second
 * list is never serialized.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memref.h"
#include "nscc_internal.h"

static int base_dump(const struct nscc_mr *mr, const struct nscc_dump_ctx *ctx,
		     struct nscc_mr_out *out, struct nscc_err *err)
{
	struct kbin_mem_ref *r = &out->in.rec;
	size_t n;

	r->mr_type = mr->type;
	r->var_id = mr->var_id;
	out->in.name = ctx->name;
	if (mr->dtype) {
		n = strlen(mr->dtype);
		if (n > KBIN_DTYPE_MAX - 1)
			return nscc_errf(err, -E2BIG,
					 "dtype '%s' has %zu characters, only %u fit",
					 mr->dtype, n, KBIN_DTYPE_MAX - 1);
		memcpy(r->dtype, mr->dtype, n);
	}
	if (mr->ndims > KBIN_SHAPE_MAX)
		return nscc_errf(err, -E2BIG,
				 "shape has %u dimensions, only %u fit",
				 mr->ndims, KBIN_SHAPE_MAX);
	for (n = 0; n < mr->ndims; n++) {
		/* 0 ends a KBIN shape: [4,0,4] would read back as [4] */
		if (!mr->shape[n])
			return nscc_errf(err, -EINVAL,
					 "shape[%zu] is 0; a KBIN shape ends at its first zero dimension",
					 n);
		r->shape[n] = mr->shape[n];
	}
	return 0;
}

static int md_dump(const struct nscc_debug_md *md, struct nscc_mr_out *out,
		   struct nscc_err *err)
{
	size_t n;

	if (!md->prefix)
		return 0;
	n = strlen(md->prefix);
	if (n >= sizeof(out->md.prefix_str))
		return nscc_errf(err, -E2BIG,
				 "debug prefix has %zu characters, only %zu fit",
				 n, sizeof(out->md.prefix_str) - 1);
	memcpy(out->md.prefix_str, md->prefix, n);
	out->md.pipe_id = md->pipe_id;
	out->in.md = &out->md;
	return 0;
}

static void base_free(struct nscc_mr *mr)
{
	free(mr->dtype);
	free(mr->shape);
}

static void base_destroy(struct nscc_mr *mr)
{
	base_free(mr);
	free(mr);
}

const struct nscc_mr_ops nscc_mr_base_ops = {
	.kind = "mem_ref", .dump = base_dump, .destroy = base_destroy,
};

/* mem_ref_sp: a state buffer is the core's whole SBUF, alignment 1. */
static int sp_dump(const struct nscc_mr *mr, const struct nscc_dump_ctx *ctx,
		   struct nscc_mr_out *out, struct nscc_err *err)
{
	int ret = base_dump(mr, ctx, out, err);

	out->in.rec.size = nscc_sbuf_bytes(ctx->target_gen);
	out->in.rec.alignment = 1;
	return ret;
}

const struct nscc_mr_ops nscc_mr_sp_ops = {
	.kind = "mem_ref_sp", .dump = sp_dump, .destroy = base_destroy,
};

static int io_dump(const struct nscc_mr *mr, const struct nscc_dump_ctx *ctx,
		   struct nscc_mr_out *out, struct nscc_err *err)
{
	const struct nscc_mr_io *io = (const struct nscc_mr_io *)mr;

	out->in.rec.size = io->size;
	out->in.rec.alignment = io->alignment;
	return base_dump(mr, ctx, out, err);
}

const struct nscc_mr_ops nscc_mr_io_ops = {
	.kind = "mem_ref_io", .dump = io_dump, .destroy = base_destroy,
};

static int tmp_buf_dump(const struct nscc_mr *mr,
			const struct nscc_dump_ctx *ctx,
			struct nscc_mr_out *out, struct nscc_err *err)
{
	const struct nscc_mr_tmp_buf *t = (const struct nscc_mr_tmp_buf *)mr;

	out->in.rec.size = t->size;
	out->in.rec.alignment = t->alignment;
	return base_dump(mr, ctx, out, err) ?: md_dump(&t->md, out, err);
}

static void tmp_buf_destroy(struct nscc_mr *mr)
{
	free(((struct nscc_mr_tmp_buf *)mr)->md.prefix);
	base_destroy(mr);
}

const struct nscc_mr_ops nscc_mr_tmp_buf_ops = {
	.kind = "mem_ref_tmp_buf", .dump = tmp_buf_dump,
	.destroy = tmp_buf_destroy,
};

static int buffer_dump(const struct nscc_mr *mr,
		       const struct nscc_dump_ctx *ctx,
		       struct nscc_mr_out *out, struct nscc_err *err)
{
	const struct nscc_mr_buffer *b = (const struct nscc_mr_buffer *)mr;

	out->in.rec.size = b->size;
	out->in.rec.alignment = b->alignment;
	out->in.payload = b->payload;
	out->in.payload_len = b->payload ? b->payload_len : 0;
	return base_dump(mr, ctx, out, err) ?: md_dump(&b->md, out, err);
}

static void buffer_destroy(struct nscc_mr *mr)
{
	free(((struct nscc_mr_buffer *)mr)->md.prefix);
	base_destroy(mr);
}

const struct nscc_mr_ops nscc_mr_buffer_ops = {
	.kind = "mem_ref_buffer", .dump = buffer_dump,
	.destroy = buffer_destroy,
};

static int virt_dump(const struct nscc_mr *mr, const struct nscc_dump_ctx *ctx,
		     struct nscc_mr_out *out, struct nscc_err *err)
{
	const struct nscc_mr_virtual_tmp_buf *v =
		(const struct nscc_mr_virtual_tmp_buf *)mr;

	out->in.rec.size = v->size;
	out->in.rec.alignment = v->alignment;
	out->in.rec.virt.offset = v->offset;
	out->in.rec.virt.backing_buf = v->backing_buf;
	return base_dump(mr, ctx, out, err) ?: md_dump(&v->md, out, err);
}

static void virt_destroy(struct nscc_mr *mr)
{
	free(((struct nscc_mr_virtual_tmp_buf *)mr)->md.prefix);
	base_destroy(mr);
}

const struct nscc_mr_ops nscc_mr_virtual_tmp_buf_ops = {
	.kind = "mem_ref_virtual_tmp_buf", .dump = virt_dump,
	.destroy = virt_destroy,
};

/* A pointer holds its target's 8-byte device address. */
static int pointer_dump(const struct nscc_mr *mr,
			const struct nscc_dump_ctx *ctx,
			struct nscc_mr_out *out, struct nscc_err *err)
{
	const struct nscc_mr_pointer *p = (const struct nscc_mr_pointer *)mr;

	out->in.rec.size = 8;
	out->in.rec.alignment = 1;
	out->in.rec.pointer.referenced_var_id = p->referenced_var_id;
	out->in.rec.pointer.io_ref = p->io_ref;
	return base_dump(mr, ctx, out, err);
}

const struct nscc_mr_ops nscc_mr_pointer_ops = {
	.kind = "mem_ref_pointer", .dump = pointer_dump,
	.destroy = base_destroy,
};

/* mem_ref_list::dump, also MR_PTR_TABLE's: length + the u32 var_ids. */
static int list_dump(const struct nscc_mr *mr, const struct nscc_dump_ctx *ctx,
		     struct nscc_mr_out *out, struct nscc_err *err)
{
	const struct nscc_mr_list *l = (const struct nscc_mr_list *)mr;

	out->in.rec.size = (uint64_t)l->length * sizeof(uint32_t);
	out->in.rec.alignment = 1;
	out->in.rec.list.length = l->length;
	out->in.list = l->list;
	return base_dump(mr, ctx, out, err);
}

static void list_free(struct nscc_mr *mr)
{
	free(((struct nscc_mr_list *)mr)->list);
	base_free(mr);
}

static void list_destroy(struct nscc_mr *mr)
{
	list_free(mr);
	free(mr);
}

const struct nscc_mr_ops nscc_mr_list_ops = {
	.kind = "mem_ref_list", .dump = list_dump, .destroy = list_destroy,
};

/* Overrides only the destructor: frees the second list, then the list. */
static void ptr_table_destroy(struct nscc_mr *mr)
{
	free(((struct nscc_mr_ptr_table *)mr)->row_ptrs);
	list_destroy(mr);
}

const struct nscc_mr_ops nscc_mr_ptr_table_ops = {
	.kind = "mem_ref_ptr_table", .dump = list_dump,
	.destroy = ptr_table_destroy,
};

static int remote_dump(const struct nscc_mr *mr,
		       const struct nscc_dump_ctx *ctx,
		       struct nscc_mr_out *out, struct nscc_err *err)
{
	const struct nscc_mr_remote_variable *r =
		(const struct nscc_mr_remote_variable *)mr;

	out->in.rec.size = r->size;
	out->in.rec.alignment = 1;
	out->in.rec.remote.remote_vtpb_rel_sg_id = r->remote_sg;
	out->in.rec.remote.remote_var_id = r->remote_var_id;
	return base_dump(mr, ctx, out, err);
}

const struct nscc_mr_ops nscc_mr_remote_variable_ops = {
	.kind = "mem_ref_remote_variable", .dump = remote_dump,
	.destroy = base_destroy,
};

static void *mr_alloc(size_t size, const struct nscc_mr_ops *ops,
		      const struct nscc_var *v)
{
	struct nscc_mr *mr = calloc(1, size);

	if (!mr)
		return NULL;
	mr->ops = ops;
	mr->var_id = v->var_id;
	mr->type = v->mr_type;
	if (v->dtype && !(mr->dtype = strdup(v->dtype)))
		goto err;
	if (v->ndims) {
		mr->shape = malloc(v->ndims * sizeof(uint64_t));
		if (!mr->shape)
			goto err;
		memcpy(mr->shape, v->shape, v->ndims * sizeof(uint64_t));
		mr->ndims = v->ndims;
	}
	return mr;
err:
	base_destroy(mr);
	return NULL;
}

static int md_copy(struct nscc_debug_md *md, const struct nscc_var *v)
{
	md->pipe_id = v->md_pipe_id;
	if (v->md_prefix && !(md->prefix = strdup(v->md_prefix)))
		return -ENOMEM;
	return 0;
}

static struct nscc_mr *new_list(const struct nscc_var *v, size_t size,
				const struct nscc_mr_ops *ops)
{
	struct nscc_mr_list *l = mr_alloc(size, ops, v);

	if (!l)
		return NULL;
	l->length = v->list_len;
	l->list = malloc((v->list_len ? v->list_len : 1) * sizeof(uint32_t));
	if (!l->list)
		goto err;
	if (v->list_len)
		memcpy(l->list, v->list, v->list_len * sizeof(uint32_t));
	if (v->mr_type == KBIN_MR_PTR_TABLE) {
		struct nscc_mr_ptr_table *t = (struct nscc_mr_ptr_table *)l;

		t->num_rows = v->list_len;
		t->row_ptrs = calloc(v->list_len ? v->list_len : 1,
				     sizeof(uint32_t));
		if (!t->row_ptrs)
			goto err;
	}
	return &l->base;
err:
	l->base.ops->destroy(&l->base);
	return NULL;
}

struct nscc_mr *nscc_mr_new(const struct nscc_var *v, uint64_t alignment,
			    struct nscc_err *err)
{
	struct nscc_mr *mr = NULL;

	switch (v->mr_type) {
	case KBIN_MR_SB:
		mr = mr_alloc(sizeof(struct nscc_mr_sp), &nscc_mr_sp_ops, v);
		break;
	case KBIN_MR_INPUT:
	case KBIN_MR_OUTPUT: {
		struct nscc_mr_io *io = mr_alloc(sizeof(*io), &nscc_mr_io_ops, v);

		if (io) {
			io->size = v->size;
			io->alignment = alignment;
		}
		mr = (struct nscc_mr *)io;
		break;
	}
	case KBIN_MR_BUFFER:
	case KBIN_MR_BUFFER_STAGED: {
		struct nscc_mr_buffer *b = mr_alloc(sizeof(*b),
						    &nscc_mr_buffer_ops, v);

		if (b) {
			b->size = v->size;
			b->alignment = alignment;
			b->payload = v->payload;
			b->payload_len = v->payload_len;
			if (md_copy(&b->md, v)) {
				buffer_destroy(&b->base);
				b = NULL;
			}
		}
		mr = (struct nscc_mr *)b;
		break;
	}
	case KBIN_MR_TMP_BUF: {
		struct nscc_mr_tmp_buf *t = mr_alloc(sizeof(*t),
						     &nscc_mr_tmp_buf_ops, v);

		if (t) {
			t->size = v->size;
			t->alignment = alignment;
			if (md_copy(&t->md, v)) {
				tmp_buf_destroy(&t->base);
				t = NULL;
			}
		}
		mr = (struct nscc_mr *)t;
		break;
	}
	case KBIN_MR_VIRTUAL_TMP_BUF: {
		struct nscc_mr_virtual_tmp_buf *t =
			mr_alloc(sizeof(*t), &nscc_mr_virtual_tmp_buf_ops, v);

		if (t) {
			t->size = v->size;
			t->alignment = alignment;
			t->offset = v->offset;
			t->backing_buf = v->backing_buf;
			if (md_copy(&t->md, v)) {
				virt_destroy(&t->base);
				t = NULL;
			}
		}
		mr = (struct nscc_mr *)t;
		break;
	}
	case KBIN_MR_PTR: {
		struct nscc_mr_pointer *p = mr_alloc(sizeof(*p),
						     &nscc_mr_pointer_ops, v);

		if (p) {
			p->referenced_var_id = v->referenced_var_id;
			p->io_ref = v->io_ref;
		}
		mr = (struct nscc_mr *)p;
		break;
	}
	case KBIN_MR_LIST:
		mr = new_list(v, sizeof(struct nscc_mr_list), &nscc_mr_list_ops);
		break;
	case KBIN_MR_PTR_TABLE:
		mr = new_list(v, sizeof(struct nscc_mr_ptr_table),
			      &nscc_mr_ptr_table_ops);
		break;
	case KBIN_MR_REMOTE: {
		struct nscc_mr_remote_variable *r =
			mr_alloc(sizeof(*r), &nscc_mr_remote_variable_ops, v);

		if (r) {
			r->size = v->has_size ? v->size : 0;
			r->remote_sg = v->remote_sg;
			r->remote_var_id = v->remote_var_id;
		}
		mr = (struct nscc_mr *)r;
		break;
	}
	default:
		nscc_errf(err, -EINVAL, "mr_type %u is not a kind", v->mr_type);
		return NULL;
	}
	if (!mr)
		nscc_errf(err, -ENOMEM, "out of memory");
	return mr;
}

uint64_t nscc_mr_size(const struct nscc_mr *mr, uint32_t target_gen)
{
	switch (mr->type) {
	case KBIN_MR_SB:
		return nscc_sbuf_bytes(target_gen);
	case KBIN_MR_INPUT:
	case KBIN_MR_OUTPUT:
		return ((const struct nscc_mr_io *)mr)->size;
	case KBIN_MR_BUFFER:
	case KBIN_MR_BUFFER_STAGED:
		return ((const struct nscc_mr_buffer *)mr)->size;
	case KBIN_MR_TMP_BUF:
		return ((const struct nscc_mr_tmp_buf *)mr)->size;
	case KBIN_MR_VIRTUAL_TMP_BUF:
		return ((const struct nscc_mr_virtual_tmp_buf *)mr)->size;
	case KBIN_MR_PTR:
		return 8;
	case KBIN_MR_LIST:
	case KBIN_MR_PTR_TABLE:
		return (uint64_t)((const struct nscc_mr_list *)mr)->length * 4;
	case KBIN_MR_REMOTE:
		return ((const struct nscc_mr_remote_variable *)mr)->size;
	}
	return 0;
}

void nscc_mr_destroy(struct nscc_mr *mr)
{
	if (mr)
		mr->ops->destroy(mr);
}

int nscc_mr_dump(const struct nscc_mr *mr, const struct nscc_dump_ctx *ctx,
		 struct nscc_mr_out *out, struct nscc_err *err)
{
	memset(out, 0, sizeof(*out));
	return mr->ops->dump(mr, ctx, out, err);
}
