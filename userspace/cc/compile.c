// SPDX-License-Identifier: GPL-2.0
/*
 * compile.c - the pipeline: model -> per-var rule checks -> mem_ref build
 * tree in a symbol table -> dense-id rule -> cross-var checks ->
 * scratchpad sizes -> dump in var_id order -> KBIN writer -> plan
 * checker (Documentation/compiler.rst, "The pipeline"; what each kind
 * needs is its row in the kind table, Documentation/hardware.rst).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kbin_check.h"
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

/* The rules one var must follow on its own (Documentation/compiler.rst). */
static int check_var(const struct nscc_subgraph *sg, const struct nscc_var *v,
		     uint64_t *alignment, struct nscc_err *err)
{
	size_t n = v->name ? strlen(v->name) : 0;
	const struct kbin_kind *kind;

	if (n == 0 || n >= KBIN_NAME_MAX)
		return nscc_errf(err, -EINVAL, VAR_FMT "name has %zu characters, allowed 1..%u",
				 sg->name, v->name ? v->name : "", v->var_id,
				 n, KBIN_NAME_MAX - 1);
	if (ctrl_char(v->name) >= 0)
		return nscc_errf(err, -EINVAL, VAR_FMT "name has control character 0x%02x at byte %ld",
				 VAR_ARGS(sg, v),
				 (unsigned char)v->name[ctrl_char(v->name)],
				 ctrl_char(v->name));
	if (v->dtype && ctrl_char(v->dtype) >= 0)
		return nscc_errf(err, -EINVAL, VAR_FMT "dtype has control character 0x%02x at byte %ld",
				 VAR_ARGS(sg, v),
				 (unsigned char)v->dtype[ctrl_char(v->dtype)],
				 ctrl_char(v->dtype));
	if (!kbin_kind_valid(v->mr_type))
		return nscc_errf(err, -EINVAL, VAR_FMT "type: mr_type %u is not a kind",
				 VAR_ARGS(sg, v), v->mr_type);
	kind = kbin_kind(v->mr_type);
	if (kind->size == KBIN_SIZE_VAR) {
		if (!v->has_size)
			return nscc_errf(err, -EINVAL, VAR_FMT "missing field 'size'",
					 VAR_ARGS(sg, v));
		if (v->size == 0)
			return nscc_errf(err, -EINVAL, VAR_FMT "size 0 is not allowed",
					 VAR_ARGS(sg, v));
	}
	*alignment = v->alignment ? v->alignment : default_alignment(v->mr_type);
	if (*alignment & (*alignment - 1))
		return nscc_errf(err, -EINVAL, VAR_FMT "alignment %llu is not a power of two",
				 VAR_ARGS(sg, v), (unsigned long long)*alignment);
	if (*alignment > KBIN_MAX_ALIGNMENT)
		return nscc_errf(err, -EINVAL, VAR_FMT "alignment %llu is over the maximum %llu",
				 VAR_ARGS(sg, v), (unsigned long long)*alignment,
				 (unsigned long long)KBIN_MAX_ALIGNMENT);
	if (kind->payload == KBIN_PAYLOAD_REQUIRED && !v->payload)
		return nscc_errf(err, -EINVAL, VAR_FMT "%s needs a payload",
				 VAR_ARGS(sg, v), kind->name);
	if (kind->payload != KBIN_PAYLOAD_NONE && v->payload &&
	    v->payload_len != v->size)
		return nscc_errf(err, -EINVAL, VAR_FMT "payload holds %llu bytes but size is %llu",
				 VAR_ARGS(sg, v),
				 (unsigned long long)v->payload_len,
				 (unsigned long long)v->size);
	if (kind->variant == KBIN_VARIANT_VIRT &&
	    v->backing_buf > KBIN_BACKING_BUF_MAX)
		return nscc_errf(err, -EINVAL, VAR_FMT "backing_buf %u is not a scratchpad (0..%u)",
				 VAR_ARGS(sg, v), v->backing_buf,
				 KBIN_BACKING_BUF_MAX);
	if (kind->placement != KBIN_PLACE_LOADER &&
	    v->offset + v->size < v->offset)
		return nscc_errf(err, -EINVAL, VAR_FMT "offset %llu + size %llu overflows",
				 VAR_ARGS(sg, v),
				 (unsigned long long)v->offset,
				 (unsigned long long)v->size);
	if (kind->variant == KBIN_VARIANT_LIST) {
		if (!v->list_len)
			return nscc_errf(err, -EINVAL, VAR_FMT "list is empty",
					 VAR_ARGS(sg, v));
		if (v->list_len > KBIN_MAX_LIST)
			return nscc_errf(err, -E2BIG, VAR_FMT "list has %u entries, at most %u",
					 VAR_ARGS(sg, v), v->list_len,
					 KBIN_MAX_LIST);
	}
	return 0;
}

/* References inside one subgraph: pointer targets and list entries. */
static int check_refs(const struct nscc_subgraph *sg,
		      const struct nscc_symtab *st, struct nscc_err *err)
{
	const struct nscc_mr *t;
	uint32_t i, j;

	for (i = 0; i < sg->num_vars; i++) {
		const struct nscc_var *v = &sg->vars[i];
		const struct kbin_kind *kind = kbin_kind(v->mr_type);

		if (kind->variant == KBIN_VARIANT_POINTER) {
			if (v->referenced_var_id == v->var_id)
				return nscc_errf(err, -EINVAL, VAR_FMT "referenced_var_id %u: a pointer cannot point at itself",
						 VAR_ARGS(sg, v), v->referenced_var_id);
			t = nscc_symtab_object(st, v->referenced_var_id);
			if (!t)
				return nscc_errf(err, -EINVAL, VAR_FMT "referenced_var_id %u: no such var",
						 VAR_ARGS(sg, v), v->referenced_var_id);
			if (!kbin_kind_has_storage(t->type))
				return nscc_errf(err, -EINVAL, VAR_FMT "referenced_var_id %u: var '%s' is %s, which has no storage",
						 VAR_ARGS(sg, v), v->referenced_var_id,
						 nscc_symtab_name(st, t->var_id),
						 kbin_mr_type_str(t->type));
		}
		if (kind->variant != KBIN_VARIANT_LIST)
			continue;
		for (j = 0; j < v->list_len; j++) {
			t = nscc_symtab_object(st, v->list[j]);
			if (!t)
				return nscc_errf(err, -EINVAL, VAR_FMT "list[%u]: var_id %u: no such var",
						 VAR_ARGS(sg, v), j, v->list[j]);
			/* the rows of an address table must have addresses */
			if (kind->storage == KBIN_STORAGE_TABLE &&
			    !kbin_kind_has_storage(t->type))
				return nscc_errf(err, -EINVAL, VAR_FMT "list[%u]: var '%s' (var_id %u) is %s, which has no storage",
						 VAR_ARGS(sg, v), j,
						 nscc_symtab_name(st, t->var_id),
						 t->var_id, kbin_mr_type_str(t->type));
		}
	}
	return 0;
}

/* Remote kinds: the subgraph index and the var it names. */
static int check_remotes(const struct nscc_model *m,
			 struct nscc_symtab **sts, struct nscc_err *err)
{
	uint32_t s, i;

	for (s = 0; s < m->num_sgs; s++) {
		const struct nscc_subgraph *sg = &m->sgs[s];

		for (i = 0; i < sg->num_vars; i++) {
			const struct nscc_var *v = &sg->vars[i];
			const struct nscc_mr *t;

			if (kbin_kind(v->mr_type)->variant != KBIN_VARIANT_REMOTE)
				continue;
			if (v->remote_sg >= m->num_sgs)
				return nscc_errf(err, -EINVAL, VAR_FMT "remote_sg %u: the plan has %u subgraphs",
						 VAR_ARGS(sg, v), v->remote_sg, m->num_sgs);
			t = nscc_symtab_object(sts[v->remote_sg], v->remote_var_id);
			if (!t)
				return nscc_errf(err, -EINVAL, VAR_FMT "remote_var_id %u: no such var in %s",
						 VAR_ARGS(sg, v), v->remote_var_id,
						 m->sgs[v->remote_sg].name);
			if (kbin_kind(t->type)->storage == KBIN_STORAGE_REMOTE)
				return nscc_errf(err, -EINVAL, VAR_FMT "remote_var_id %u in %s is itself remote",
						 VAR_ARGS(sg, v), v->remote_var_id,
						 m->sgs[v->remote_sg].name);
			if (!kbin_kind_has_storage(t->type))
				return nscc_errf(err, -EINVAL, VAR_FMT "remote_var_id %u in %s is %s, which has no storage",
						 VAR_ARGS(sg, v), v->remote_var_id,
						 m->sgs[v->remote_sg].name,
						 kbin_mr_type_str(t->type));
			if (v->has_size && v->size > nscc_mr_size(t, m->target_gen))
				return nscc_errf(err, -EINVAL, VAR_FMT "size %llu is more than the %llu bytes of remote var_id %u in %s",
						 VAR_ARGS(sg, v),
						 (unsigned long long)v->size,
						 (unsigned long long)nscc_mr_size(t, m->target_gen),
						 v->remote_var_id,
						 m->sgs[v->remote_sg].name);
		}
	}
	return 0;
}

/*
 * max(offset + size) over the virtual vars each scratchpad backs
 * (hardware.rst): local over the LOCAL-backed ones, shared over the
 * others.  A tmp-buf is an HBM allocation of its own, charged to
 * SCRATCHPAD_NOT_SHARED when staged: it backs no scratchpad page.
 */
static void scratchpad_sizes(const struct nscc_subgraph *sg, uint64_t *local,
			     uint64_t *shared)
{
	uint32_t i;

	*local = sg->local_scratchpad_size;
	*shared = sg->shared_scratchpad_size;
	for (i = 0; i < sg->num_vars; i++) {
		const struct nscc_var *v = &sg->vars[i];
		uint64_t end = v->offset + v->size;
		uint64_t *sz;

		if (kbin_kind(v->mr_type)->placement != KBIN_PLACE_BACKING_SP)
			continue;
		sz = v->backing_buf == KBIN_BACKING_BUF_LOCAL ? local : shared;
		if (end > *sz)
			*sz = end;
	}
}

static int build_subgraph(const struct nscc_model *m,
			  const struct nscc_subgraph *sg,
			  struct nscc_symtab *st, struct nscc_err *err)
{
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
		ret = nscc_symtab_add(st, v->name, mr, err);
		if (ret) {
			nscc_err_prefix(err, "%s", sg->name);
			return ret;
		}
	}
	ret = nscc_symtab_check_dense(st, err);
	if (ret) {
		nscc_err_prefix(err, "%s", sg->name);
		return ret;
	}
	return check_refs(sg, st, err);
}

static int emit_subgraph(struct kbin_writer *w, const struct nscc_model *m,
			 const struct nscc_subgraph *sg,
			 const struct nscc_symtab *st, struct nscc_err *err)
{
	uint32_t id, count = nscc_symtab_count(st);
	struct nscc_mr_out *out;
	uint64_t local, shared;
	int sgi, ret = 0;

	scratchpad_sizes(sg, &local, &shared);
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
	return ret;
}

int nscc_compile_model(const struct nscc_model *m, void **buf, size_t *len,
		       struct nscc_err *err)
{
	struct nscc_symtab **sts = NULL;
	struct kbin_writer *w = NULL;
	struct kbin_check_result res;
	uint32_t s;
	int ret;

	*buf = NULL;
	*len = 0;
	if (!nscc_sbuf_bytes(m->target_gen))
		return nscc_errf(err, -EINVAL, "target_gen %u is not a known generation (2, 3, 4)",
				 m->target_gen);
	if (m->num_sgs == 0 || m->num_sgs > KBIN_MAX_SUBGRAPHS)
		return nscc_errf(err, m->num_sgs ? -E2BIG : -EINVAL,
				 "%u subgraphs, a plan holds 1..%u",
				 m->num_sgs, KBIN_MAX_SUBGRAPHS);
	sts = calloc(m->num_sgs, sizeof(*sts));
	if (!sts)
		return nscc_errf(err, -ENOMEM, "out of memory");
	for (s = 0; s < m->num_sgs; s++) {
		sts[s] = nscc_symtab_new();
		if (!sts[s]) {
			ret = nscc_errf(err, -ENOMEM, "out of memory");
			goto out;
		}
		ret = build_subgraph(m, &m->sgs[s], sts[s], err);
		if (ret)
			goto out;
	}
	ret = check_remotes(m, sts, err);
	if (ret)
		goto out;

	w = kbin_writer_new(m->target_gen);
	if (!w) {
		ret = nscc_errf(err, -ENOMEM, "out of memory");
		goto out;
	}
	for (s = 0; s < m->num_sgs; s++) {
		ret = emit_subgraph(w, m, &m->sgs[s], sts[s], err);
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
		ret = nscc_errf(err, -EINVAL, "the plan checker refused the plan: %s (%s)",
				res.msg, kbin_reason_str(res.reason));
		free(*buf);
		*buf = NULL;
		*len = 0;
	}
out:
	kbin_writer_free(w);
	for (s = 0; s < m->num_sgs && sts; s++)
		nscc_symtab_free(sts[s]);
	free(sts);
	return ret;
}

int nscc_compile_neff(const char *path, void **buf, size_t *len,
		      struct nscc_err *err)
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
	ret = nscc_compile_model(m, buf, len, err);
	nscc_model_free(m);
	return ret;
}
