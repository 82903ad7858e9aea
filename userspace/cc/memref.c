// SPDX-License-Identifier: GPL-2.0
/*
 * memref.c - the classes of the mem_ref build tree and their dump
 * (Documentation/compiler.rst, "The kinds").
 *
 * A var's class is its kind's build column in the kind table
 * (kbin_kind.h); each class is one ops table: the object's size, init,
 * the record size, dump and destroy.  dump fills the 152-byte record: the
 * base dump writes mr_type, var_id, dtype and shape (caps: dtype <= 15
 * characters, shape <= 8 dimensions, errors, never truncation); each
 * class then writes size, alignment and its union variant.  MR_PTR_TABLE
 * reuses the list's dump: its second list is never serialized.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memref.h"
#include "nscc_internal.h"

/*
 * libnrt's own refusals of the two caps at dump (Documentation/
 * compiler.rst, "Error messages"), given after ours, which names the var
 * and the value: the dtype with its length and the cap, the cap.
 */
#define LIBNRT_DTYPE_CAP "Device print dtype %s has %zu characters. Only %u are supported"
#define LIBNRT_SHAPE_CAP "Device print only supports shape dimentions of up to %u"

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
					 "dtype '%s' has %zu characters, only %u fit (libnrt: "
					 LIBNRT_DTYPE_CAP ")",
					 mr->dtype, n, KBIN_DTYPE_MAX - 1,
					 mr->dtype, n, KBIN_DTYPE_MAX - 1);
		memcpy(r->dtype, mr->dtype, n);
	}
	if (mr->ndims > KBIN_SHAPE_MAX)
		return nscc_errf(err, -E2BIG,
				 "shape has %u dimensions, only %u fit (libnrt: "
				 LIBNRT_SHAPE_CAP ")",
				 mr->ndims, KBIN_SHAPE_MAX, KBIN_SHAPE_MAX);
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
	.kind = "mem_ref", .obj_size = sizeof(struct nscc_mr),
	.dump = base_dump, .destroy = base_destroy,
};

static int md_copy(struct nscc_debug_md *md, const struct nscc_var *v)
{
	md->pipe_id = v->md_pipe_id;
	if (v->md_prefix && !(md->prefix = strdup(v->md_prefix)))
		return -ENOMEM;
	return 0;
}

/*
 * mem_ref_sp: a state buffer is the core's whole SBUF window (partition p
 * at p * stride, as DMA descriptors address it), alignment 1.
 */
static int sp_init(struct nscc_mr *mr, const struct nscc_var *v,
		   uint64_t alignment)
{
	(void)mr, (void)v, (void)alignment;
	return 0;
}

static uint64_t sp_size(const struct nscc_mr *mr, uint32_t target_gen)
{
	(void)mr;
	return nscc_sbuf_window_size(target_gen);
}

/* an on-chip window's record: its class's size, alignment 1 */
static int window_dump(const struct nscc_mr *mr,
		       const struct nscc_dump_ctx *ctx,
		       struct nscc_mr_out *out, struct nscc_err *err)
{
	int ret = base_dump(mr, ctx, out, err);

	out->in.rec.size = mr->ops->size(mr, ctx->target_gen);
	out->in.rec.alignment = 1;
	return ret;
}

const struct nscc_mr_ops nscc_mr_sp_ops = {
	.kind = "mem_ref_sp", .obj_size = sizeof(struct nscc_mr_sp),
	.init = sp_init, .size = sp_size, .dump = window_dump,
	.destroy = base_destroy,
};

/*
 * mem_ref_psum (neuronsim's own class): a PSUM variable is the core's
 * whole PSUM window (partition p at p * psum_banks * 2 KiB, as DMA
 * descriptors address it), alignment 1, as mem_ref_sp is the SBUF window.
 */
static uint64_t psum_size(const struct nscc_mr *mr, uint32_t target_gen)
{
	(void)mr;
	return nscc_psum_window_size(target_gen);
}

const struct nscc_mr_ops nscc_mr_psum_ops = {
	.kind = "mem_ref_psum", .obj_size = sizeof(struct nscc_mr_psum),
	.init = sp_init, .size = psum_size, .dump = window_dump,
	.destroy = base_destroy,
};

static int io_init(struct nscc_mr *mr, const struct nscc_var *v,
		   uint64_t alignment)
{
	struct nscc_mr_io *io = (struct nscc_mr_io *)mr;

	io->size = v->size;
	io->alignment = alignment;
	return 0;
}

static uint64_t io_size(const struct nscc_mr *mr, uint32_t target_gen)
{
	(void)target_gen;
	return ((const struct nscc_mr_io *)mr)->size;
}

static int io_dump(const struct nscc_mr *mr, const struct nscc_dump_ctx *ctx,
		   struct nscc_mr_out *out, struct nscc_err *err)
{
	const struct nscc_mr_io *io = (const struct nscc_mr_io *)mr;

	out->in.rec.size = io->size;
	out->in.rec.alignment = io->alignment;
	return base_dump(mr, ctx, out, err);
}

const struct nscc_mr_ops nscc_mr_io_ops = {
	.kind = "mem_ref_io", .obj_size = sizeof(struct nscc_mr_io),
	.init = io_init, .size = io_size, .dump = io_dump,
	.destroy = base_destroy,
};

static int tmp_buf_init(struct nscc_mr *mr, const struct nscc_var *v,
			uint64_t alignment)
{
	struct nscc_mr_tmp_buf *t = (struct nscc_mr_tmp_buf *)mr;

	t->size = v->size;
	t->alignment = alignment;
	return md_copy(&t->md, v);
}

static uint64_t tmp_buf_size(const struct nscc_mr *mr, uint32_t target_gen)
{
	(void)target_gen;
	return ((const struct nscc_mr_tmp_buf *)mr)->size;
}

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
	.kind = "mem_ref_tmp_buf", .obj_size = sizeof(struct nscc_mr_tmp_buf),
	.init = tmp_buf_init, .size = tmp_buf_size, .dump = tmp_buf_dump,
	.destroy = tmp_buf_destroy,
};

static int buffer_init(struct nscc_mr *mr, const struct nscc_var *v,
		       uint64_t alignment)
{
	struct nscc_mr_buffer *b = (struct nscc_mr_buffer *)mr;

	b->size = v->size;
	b->alignment = alignment;
	b->payload = v->payload;
	b->payload_len = v->payload_len;
	return md_copy(&b->md, v);
}

static uint64_t buffer_size(const struct nscc_mr *mr, uint32_t target_gen)
{
	(void)target_gen;
	return ((const struct nscc_mr_buffer *)mr)->size;
}

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
	.kind = "mem_ref_buffer", .obj_size = sizeof(struct nscc_mr_buffer),
	.init = buffer_init, .size = buffer_size, .dump = buffer_dump,
	.destroy = buffer_destroy,
};

static int virt_init(struct nscc_mr *mr, const struct nscc_var *v,
		     uint64_t alignment)
{
	struct nscc_mr_virtual_tmp_buf *t = (struct nscc_mr_virtual_tmp_buf *)mr;

	t->size = v->size;
	t->alignment = alignment;
	t->offset = v->offset;
	t->backing_buf = v->backing_buf;
	return md_copy(&t->md, v);
}

static uint64_t virt_size(const struct nscc_mr *mr, uint32_t target_gen)
{
	(void)target_gen;
	return ((const struct nscc_mr_virtual_tmp_buf *)mr)->size;
}

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
	.kind = "mem_ref_virtual_tmp_buf",
	.obj_size = sizeof(struct nscc_mr_virtual_tmp_buf),
	.init = virt_init, .size = virt_size, .dump = virt_dump,
	.destroy = virt_destroy,
};

/* A pointer holds its target's device address. */
static int pointer_init(struct nscc_mr *mr, const struct nscc_var *v,
			uint64_t alignment)
{
	struct nscc_mr_pointer *p = (struct nscc_mr_pointer *)mr;

	(void)alignment;
	p->referenced_var_id = v->referenced_var_id;
	p->io_ref = v->io_ref;
	return 0;
}

static uint64_t pointer_size(const struct nscc_mr *mr, uint32_t target_gen)
{
	(void)mr, (void)target_gen;
	return KBIN_ADDRESS_SIZE;
}

static int pointer_dump(const struct nscc_mr *mr,
			const struct nscc_dump_ctx *ctx,
			struct nscc_mr_out *out, struct nscc_err *err)
{
	const struct nscc_mr_pointer *p = (const struct nscc_mr_pointer *)mr;

	out->in.rec.size = pointer_size(mr, ctx->target_gen);
	out->in.rec.alignment = 1;
	out->in.rec.pointer.referenced_var_id = p->referenced_var_id;
	out->in.rec.pointer.io_ref = p->io_ref;
	return base_dump(mr, ctx, out, err);
}

const struct nscc_mr_ops nscc_mr_pointer_ops = {
	.kind = "mem_ref_pointer", .obj_size = sizeof(struct nscc_mr_pointer),
	.init = pointer_init, .size = pointer_size, .dump = pointer_dump,
	.destroy = base_destroy,
};

static int list_init(struct nscc_mr *mr, const struct nscc_var *v,
		     uint64_t alignment)
{
	struct nscc_mr_list *l = (struct nscc_mr_list *)mr;

	(void)alignment;
	l->length = v->list_len;
	l->list = malloc((v->list_len ? v->list_len : 1) * sizeof(uint32_t));
	if (!l->list)
		return -ENOMEM;
	if (v->list_len)
		memcpy(l->list, v->list, v->list_len * sizeof(uint32_t));
	return 0;
}

static uint64_t list_size(const struct nscc_mr *mr, uint32_t target_gen)
{
	(void)target_gen;
	return (uint64_t)((const struct nscc_mr_list *)mr)->length *
	       sizeof(uint32_t);
}

/* mem_ref_list::dump, also MR_PTR_TABLE's: length + the u32 var_ids. */
static int list_dump(const struct nscc_mr *mr, const struct nscc_dump_ctx *ctx,
		     struct nscc_mr_out *out, struct nscc_err *err)
{
	const struct nscc_mr_list *l = (const struct nscc_mr_list *)mr;

	out->in.rec.size = list_size(mr, ctx->target_gen);
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
	.kind = "mem_ref_list", .obj_size = sizeof(struct nscc_mr_list),
	.init = list_init, .size = list_size, .dump = list_dump,
	.destroy = list_destroy,
};

/* The list, plus the second list of per-row pointers (never dumped). */
static int ptr_table_init(struct nscc_mr *mr, const struct nscc_var *v,
			  uint64_t alignment)
{
	struct nscc_mr_ptr_table *t = (struct nscc_mr_ptr_table *)mr;

	if (list_init(mr, v, alignment))
		return -ENOMEM;
	t->num_rows = v->list_len;
	t->row_ptrs = calloc(v->list_len ? v->list_len : 1, sizeof(uint32_t));
	return t->row_ptrs ? 0 : -ENOMEM;
}

/* Overrides only the destructor: frees the second list, then the list. */
static void ptr_table_destroy(struct nscc_mr *mr)
{
	free(((struct nscc_mr_ptr_table *)mr)->row_ptrs);
	list_destroy(mr);
}

const struct nscc_mr_ops nscc_mr_ptr_table_ops = {
	.kind = "mem_ref_ptr_table", .obj_size = sizeof(struct nscc_mr_ptr_table),
	.init = ptr_table_init, .size = list_size, .dump = list_dump,
	.destroy = ptr_table_destroy,
};

static int remote_init(struct nscc_mr *mr, const struct nscc_var *v,
		       uint64_t alignment)
{
	struct nscc_mr_remote_variable *r = (struct nscc_mr_remote_variable *)mr;

	(void)alignment;
	r->size = v->has_size ? v->size : 0;
	r->remote_sg = v->remote_sg;
	r->remote_var_id = v->remote_var_id;
	return 0;
}

static uint64_t remote_size(const struct nscc_mr *mr, uint32_t target_gen)
{
	(void)target_gen;
	return ((const struct nscc_mr_remote_variable *)mr)->size;
}

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
	.kind = "mem_ref_remote_variable",
	.obj_size = sizeof(struct nscc_mr_remote_variable),
	.init = remote_init, .size = remote_size, .dump = remote_dump,
	.destroy = base_destroy,
};

/* the class of each build column value of the kind table */
static const struct nscc_mr_ops *const nscc_mr_classes[KBIN_BUILD_MAX] = {
	[KBIN_BUILD_SP] = &nscc_mr_sp_ops,
	[KBIN_BUILD_IO] = &nscc_mr_io_ops,
	[KBIN_BUILD_BUFFER] = &nscc_mr_buffer_ops,
	[KBIN_BUILD_TMP_BUF] = &nscc_mr_tmp_buf_ops,
	[KBIN_BUILD_VIRTUAL_TMP_BUF] = &nscc_mr_virtual_tmp_buf_ops,
	[KBIN_BUILD_POINTER] = &nscc_mr_pointer_ops,
	[KBIN_BUILD_LIST] = &nscc_mr_list_ops,
	[KBIN_BUILD_PTR_TABLE] = &nscc_mr_ptr_table_ops,
	[KBIN_BUILD_REMOTE_VARIABLE] = &nscc_mr_remote_variable_ops,
	[KBIN_BUILD_PSUM] = &nscc_mr_psum_ops,
};

static void *mr_alloc(const struct nscc_mr_ops *ops, const struct nscc_var *v)
{
	struct nscc_mr *mr = calloc(1, ops->obj_size);

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

struct nscc_mr *nscc_mr_new(const struct nscc_var *v, uint64_t alignment,
			    struct nscc_err *err)
{
	const struct nscc_mr_ops *ops = NULL;
	struct nscc_mr *mr;

	if (kbin_kind_valid(v->mr_type))
		ops = nscc_mr_classes[kbin_kind(v->mr_type)->build];
	if (!ops) {
		nscc_errf(err, -EINVAL, "mr_type %u is not a kind", v->mr_type);
		return NULL;
	}
	mr = mr_alloc(ops, v);
	if (mr && ops->init(mr, v, alignment)) {
		ops->destroy(mr);
		mr = NULL;
	}
	if (!mr)
		nscc_errf(err, -ENOMEM, "out of memory");
	return mr;
}

uint64_t nscc_mr_size(const struct nscc_mr *mr, uint32_t target_gen)
{
	return mr->ops->size ? mr->ops->size(mr, target_gen) : 0;
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
