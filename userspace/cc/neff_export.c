// SPDX-License-Identifier: GPL-2.0
/*
 * neff_export.c - the model -> NEFF writer (Documentation/compiler.rst,
 * "Writing a NEFF"): the members of a NEFF that the NEFF reader (neff.c,
 * defjson.c, defjson_dma.c, defjson_prog.c) turns back into the same
 * model, so that both compile into the same plan byte for byte.  Every
 * field is written as the reader parses it: the var table with each
 * kind's def.json type (the kind table, kbin_kind.h), the carve-outs,
 * the DMA queues, the blocks in their owner's engine member, the five
 * instruction streams verbatim, weights as .npy, and the program marker
 * in neff.json.  What a def.json cannot say is refused, never dropped.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "kbin_dma.h"
#include "nscc_internal.h"

/* the engine members' base names, as real NEFFs name them */
static const char *const engine_member[KBIN_DMA_ENGINE_MAX + 1] = {
	[KBIN_DMA_ENGINE_PE] = "PE",
	[KBIN_DMA_ENGINE_ACT] = "Activation",
	[KBIN_DMA_ENGINE_POOL] = "Pool",
	[KBIN_DMA_ENGINE_DVE] = "DVE",
	[KBIN_DMA_ENGINE_SP] = "SP",
};

/* what one subgraph's writing needs; @err gets "SG: " messages */
struct ex {
	const struct nscc_model *m;
	const struct nscc_subgraph *sg;
	struct nscc_neff_writer *w;
	char dir[16];			/* "sg00" */
	json_t *names;			/* var_id (as a key) -> its var's name */
	struct nscc_err *err;
};

#define XERR(x, code, fmt, ...) \
	nscc_errf((x)->err, code, "%s: " fmt, (x)->sg->name, ##__VA_ARGS__)

static int nomem(struct nscc_err *err)
{
	return nscc_errf(err, -ENOMEM, "out of memory");
}

/* @v as a JSON integer into @o[@key]; -EINVAL over INT64_MAX (what JSON holds) */
static int put_u64(struct ex *x, json_t *o, const char *key, uint64_t v,
		   const char *what)
{
	if (v > INT64_MAX)
		return XERR(x, -EINVAL, "%s: %s %llu is over %lld: a def.json integer cannot hold it",
			    what, key, (unsigned long long)v, (long long)INT64_MAX);
	return json_object_set_new(o, key, json_integer((json_int_t)v)) ?
	       nomem(x->err) : 0;
}

/* @s as a JSON string into @o[@key]; -EINVAL when not UTF-8 */
static int put_str(struct ex *x, json_t *o, const char *key, const char *s,
		   const char *what)
{
	json_t *j = json_string(s);

	if (!j)
		return XERR(x, -EINVAL, "%s: %s is not valid UTF-8: a def.json cannot hold it",
			    what, key);
	return json_object_set_new(o, key, j) ? nomem(x->err) : 0;
}

/* 1 when @s is valid UTF-8, what a JSON string (and a key) must be */
static int utf8_ok(const char *s)
{
	json_t *j = json_string(s);

	json_decref(j);
	return j != NULL;
}

static int put_new(struct ex *x, json_t *o, const char *key, json_t *v)
{
	return !v || json_object_set_new(o, key, v) ? nomem(x->err) : 0;
}

static json_t *u64_array(const uint64_t *a, uint32_t n)
{
	json_t *j = json_array();
	uint32_t i;

	for (i = 0; j && i < n; i++)
		if (a[i] > INT64_MAX ||
		    json_array_append_new(j, json_integer((json_int_t)a[i]))) {
			json_decref(j);
			return NULL;
		}
	return j;
}

static json_t *u32_array(const uint32_t *a, uint32_t n)
{
	json_t *j = json_array();
	uint32_t i;

	for (i = 0; j && i < n; i++)
		if (json_array_append_new(j, json_integer(a[i]))) {
			json_decref(j);
			return NULL;
		}
	return j;
}

/* add @o as member @name (dir-relative when @rel) as JSON text */
static int add_json(struct ex *x, const char *name, int rel, json_t *o)
{
	char path[300];
	char *text;
	int ret;

	snprintf(path, sizeof(path), "%s%s%s", rel ? x->dir : "", rel ? "/" : "",
		 name);
	text = json_dumps(o, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
	if (!text)
		return nomem(x->err);
	ret = nscc_neff_writer_add_str(x->w, path, text);
	free(text);
	return ret ? nomem(x->err) : 0;
}

/*
 * A payload as the member @dir/@file: a .npy of the var's dtype when the
 * dtype table knows it (descr its first, shape the var's when it
 * matches, else 1-D), a .npy of bytes ('|u1') when the var has no dtype
 * the table knows; raw bytes when the table's dtype does not divide it
 * (the reader takes raw bytes as they are).
 */
static int add_weights(struct ex *x, const struct nscc_var *v,
		       const char *file)
{
	const struct nscc_dtype *dt = nscc_dtype_find(v->dtype);
	uint64_t esz = dt ? kbin_dtype(dt->dtype)->size : 1, n = 1, dims[1];
	const uint64_t *shape = v->shape;
	uint32_t ndims = v->ndims, i;
	const void *data = v->payload ? v->payload : "";
	size_t len = v->payload ? (size_t)v->payload_len : 0;
	char path[300];
	int ret;

	snprintf(path, sizeof(path), "%s/%s", x->dir, file);
	if (dt && len % esz) {
		if (len >= 6 && !memcmp(data, "\x93NUMPY", 6))
			return XERR(x, -EINVAL, "var '%s' (var_id %u): its payload starts as a .npy file but is not one of dtype '%s'",
				    v->name, v->var_id, v->dtype);
		ret = nscc_neff_writer_add(x->w, path, data, len);
		return ret ? nomem(x->err) : 0;
	}
	for (i = 0; shape && i < ndims; i++)
		if (__builtin_mul_overflow(n, shape[i], &n))
			n = 0;
	if (!shape || !ndims || n != len / esz) {
		dims[0] = len / esz;
		shape = dims;
		ndims = 1;
	}
	ret = nscc_neff_writer_add_npy(x->w, path, 1, dt ? dt->npy[0] : "|u1",
				       shape, ndims, data, len);
	return ret ? nomem(x->err) : 0;
}

/* the def.json entry of var @i of the subgraph into @vars */
static int var_json(struct ex *x, uint32_t i, json_t *vars)
{
	const struct nscc_var *v = &x->sg->vars[i];
	const struct kbin_kind *kind = kbin_kind_valid(v->mr_type) ?
				       kbin_kind(v->mr_type) : NULL;
	char what[300], file[32], id[16];
	json_t *o;
	int ret;

	snprintf(what, sizeof(what), "var '%.255s' (var_id %u)", v->name,
		 v->var_id);
	if (!kind || !kind->def_type)
		return XERR(x, -EOPNOTSUPP, "%s: kind %s has no def.json type",
			    what, kbin_mr_type_str(v->mr_type));
	if (v->md_prefix)
		return XERR(x, -EOPNOTSUPP, "%s: debug metadata cannot be written to a def.json",
			    what);
	if (kind->placement == KBIN_PLACE_BACKING_SP &&
	    v->backing_buf != KBIN_BACKING_BUF_SHARED)
		return XERR(x, -EOPNOTSUPP, "%s: backed by the %s arena: a def.json virtual var is SHARED-backed",
			    what, kbin_backing_buf_str(v->backing_buf));
	if (!utf8_ok(v->name))
		return XERR(x, -EINVAL, "%s: the name is not valid UTF-8: a def.json cannot hold it",
			    what);
	if (json_object_get(vars, v->name))
		return XERR(x, -EINVAL, "%s: the name is used twice: def.json keys are the names",
			    what);
	o = json_object();
	if (!o || json_object_set_new(vars, v->name, o))
		return nomem(x->err);
	/* the first var of a var_id names it in descriptors, as the symbol table keeps it */
	snprintf(id, sizeof(id), "%u", v->var_id);
	if (!json_object_get(x->names, id) &&
	    json_object_set_new(x->names, id, json_string(v->name)))
		return nomem(x->err);
	ret = put_str(x, o, "type", kind->def_type, what);
	if (!ret)
		ret = put_u64(x, o, "var_id", v->var_id, what);
	if (!ret && v->has_size)
		ret = put_u64(x, o, "size", v->size, what);
	if (!ret && v->alignment)
		ret = put_u64(x, o, "alignment", v->alignment, what);
	if (!ret && kind->placement == KBIN_PLACE_BACKING_SP)
		ret = put_u64(x, o, "backing_variable_off", v->offset, what);
	if (ret)
		return ret;
	switch (kind->variant) {
	case KBIN_VARIANT_POINTER:
		ret = put_u64(x, o, "referenced_var_id", v->referenced_var_id, what);
		if (!ret && v->io_ref)
			ret = put_new(x, o, "io_ref", json_true());
		break;
	case KBIN_VARIANT_LIST:
		ret = put_new(x, o, "list", u32_array(v->list, v->list_len));
		break;
	case KBIN_VARIANT_REMOTE:
		ret = put_u64(x, o, "remote_vtpb_rel_sg_id", v->remote_sg, what);
		if (!ret)
			ret = put_u64(x, o, "remote_var_id", v->remote_var_id, what);
		break;
	}
	if (!ret && v->dtype)
		ret = put_str(x, o, "dtype", v->dtype, what);
	if (!ret && v->shape) {
		json_t *s = u64_array(v->shape, v->ndims);

		for (uint32_t k = 0; k < v->ndims; k++)
			if (v->shape[k] > INT64_MAX) {
				json_decref(s);
				return XERR(x, -EINVAL, "%s: shape[%u] %llu is over %lld: a def.json integer cannot hold it",
					    what, k, (unsigned long long)v->shape[k],
					    (long long)INT64_MAX);
			}
		ret = put_new(x, o, "shape", s);
	}
	if (ret || kind->payload == KBIN_PAYLOAD_NONE)
		return ret;
	/* a kind that takes a payload takes it from its weight file */
	snprintf(file, sizeof(file), "w%u.npy", i);
	ret = put_str(x, o, "file_name", file, what);
	return ret ? ret : add_weights(x, v, file);
}

static int carveouts_json(struct ex *x, json_t *def)
{
	json_t *a = json_array();
	uint32_t k;

	if (!a || json_object_set_new(def, "runtime_statebuffer_reservation", a))
		return nomem(x->err);
	for (k = 0; k < x->sg->num_carveouts; k++) {
		const struct kbin_sb_carveout *c = &x->sg->carveouts[k];
		json_t *o = json_pack("{s:s,s:I,s:I,s:I,s:I}",
			"type", kbin_carveout_type_str(c->type),
			"offset", (json_int_t)c->offset,
			"size", (json_int_t)c->size,
			"base_partition", (json_int_t)c->start_partition,
			"partitions", (json_int_t)c->num_partitions);

		if (c->type != KBIN_CARVEOUT_EVTACCEL)
			return XERR(x, -EINVAL, "carve-out %u: type %u is not evtaccel",
				    k, c->type);
		if (!o || json_array_append_new(a, o))
			return nomem(x->err);
	}
	return 0;
}

static int queues_json(struct ex *x, json_t *def)
{
	json_t *qs = json_object();
	uint32_t k;
	int ret = 0;

	if (!qs || json_object_set_new(def, "dma_queue", qs))
		return nomem(x->err);
	for (k = 0; k < x->sg->num_dma_queues && !ret; k++) {
		const struct nscc_dma_queue *q = &x->sg->dma_queues[k];
		const char *t = kbin_dma_queue_type_str(q->type);
		const char *ow = kbin_dma_engine_str(q->owner);
		char what[300];
		json_t *o;

		snprintf(what, sizeof(what), "dma_queue '%.255s'", q->name);
		if (kbin_dma_queue_type_from_name(t) != q->type)
			return XERR(x, -EINVAL, "%s: type %u has no name", what, q->type);
		if (kbin_dma_engine_from_name(ow) != q->owner)
			return XERR(x, -EINVAL, "%s: owner %u is not an engine", what,
				    q->owner);
		if (!utf8_ok(q->name))
			return XERR(x, -EINVAL, "%s: the name is not valid UTF-8: a def.json cannot hold it",
				    what);
		if (json_object_get(qs, q->name))
			return XERR(x, -EINVAL, "%s: the name is used twice: def.json keys are the names",
				    what);
		o = json_object();
		if (!o || json_object_set_new(qs, q->name, o))
			return nomem(x->err);
		ret = put_str(x, o, "type", t, what);
		if (!ret)
			ret = put_str(x, o, "owner", ow, what);
		if (!ret)
			ret = put_u64(x, o, "num_queues", q->num_queues, what);
		if (!ret && q->fabric_path)
			ret = put_str(x, o, "fabric_path", q->fabric_path, what);
		if (!ret)
			ret = put_new(x, o, "semaphore_set",
				      u32_array(q->semaphores, q->num_semaphores));
		if (!ret && q->has_dynamic)
			ret = put_new(x, o, "dynamic_dma",
				      json_pack("{s:I,s:I}",
						"SB_scratch_partition_offset",
						(json_int_t)q->sb_scratch_offset,
						"SB_scratch_partition_size",
						(json_int_t)q->sb_scratch_size));
	}
	return ret;
}

/* one side ("from", "to") of descriptor @d into @o */
static int side_json(struct ex *x, const struct kbin_dma_side *sd,
		     const char *side, const char *what, json_t *o)
{
	char key[16], id[16];
	uint64_t steps[KBIN_DMA_MAX_DIMS];
	const char *dt = kbin_dma_dtype_str(sd->dtype);
	json_t *name;
	uint32_t k;
	int ret;

	snprintf(id, sizeof(id), "%u", sd->var_id);
	name = json_object_get(x->names, id);
	if (!name)
		return XERR(x, -EINVAL, "%s: %s: var_id %u names no var", what, side,
			    sd->var_id);
	if (kbin_dma_dtype_from_name(dt) != sd->dtype)
		return XERR(x, -EINVAL, "%s: %s: dtype %u has no name", what, side,
			    sd->dtype);
	if (sd->num_dims < 1 || sd->num_dims > KBIN_DMA_MAX_DIMS)
		return XERR(x, -EINVAL, "%s: %s: %u dimensions, a def.json side has 1..%u",
			    what, side, sd->num_dims, KBIN_DMA_MAX_DIMS);
	for (k = 0; k < sd->num_dims; k++)
		steps[k] = sd->steps[k];
	ret = put_new(x, o, side, json_incref(name));
	snprintf(key, sizeof(key), "%s_dtype", side);
	if (!ret)
		ret = put_str(x, o, key, dt, what);
	snprintf(key, sizeof(key), "%s_off", side);
	if (!ret)
		ret = put_u64(x, o, key, sd->offset, what);
	snprintf(key, sizeof(key), "%s_sizes", side);
	if (!ret)
		ret = put_new(x, o, key, u32_array(sd->sizes, sd->num_dims));
	if (ret)
		return ret;
	snprintf(key, sizeof(key), "%s_steps", side);
	for (k = 0; k < sd->num_dims; k++)
		if (steps[k] > INT64_MAX)
			return XERR(x, -EINVAL, "%s: %s: steps[%u] %llu is over %lld: a def.json integer cannot hold it",
				    what, side, k, (unsigned long long)steps[k],
				    (long long)INT64_MAX);
	return put_new(x, o, key, u64_array(steps, sd->num_dims));
}

static int desc_json(struct ex *x, const struct kbin_dma_desc *d,
		     const char *what, json_t *descs)
{
	json_t *o = json_object();
	int ret;

	if (!o || json_array_append_new(descs, o))
		return nomem(x->err);
	if (d->op == KBIN_DMA_OP_TRANSPOSE) {
		char top[KBIN_DMA_TRANSPOSE_DIMS + 1];

		memcpy(top, d->transpose_op, KBIN_DMA_TRANSPOSE_DIMS);
		top[KBIN_DMA_TRANSPOSE_DIMS] = 0;
		if (strlen(top) != KBIN_DMA_TRANSPOSE_DIMS)
			return XERR(x, -EINVAL, "%s: transpose_op is not %u letters",
				    what, KBIN_DMA_TRANSPOSE_DIMS);
		ret = put_str(x, o, "transpose_op", top, what);
		if (!ret)
			ret = put_u64(x, o, "transpose_element_size",
				      d->transpose_elem_size, what);
		if (!ret)
			ret = put_new(x, o, "transpose_shape",
				      u32_array(d->transpose_shape,
						KBIN_DMA_TRANSPOSE_DIMS));
	} else if (d->op == KBIN_DMA_OP_COPY || d->op == KBIN_DMA_OP_CAST) {
		ret = put_str(x, o, "op", kbin_dma_op_str(d->op), what);
	} else {
		return XERR(x, -EINVAL, "%s: op %u is not copy, cast or transpose",
			    what, d->op);
	}
	if (!ret)
		ret = side_json(x, &d->from, "from", what, o);
	if (!ret)
		ret = side_json(x, &d->to, "to", what, o);
	if (!ret && d->num_tiling_dims)
		ret = put_u64(x, o, "num_tiling_dimensions", d->num_tiling_dims,
			      what);
	return ret;
}

/* the blocks whose member is engine @e's, in the model's order */
static int blocks_json(struct ex *x, uint32_t e, json_t *blocks)
{
	const struct nscc_subgraph *sg = x->sg;
	uint32_t b, k;
	int ret = 0;

	for (b = 0; b < sg->num_dma_blocks && !ret; b++) {
		const struct nscc_dma_block *bl = &sg->dma_blocks[b];
		const struct nscc_dma_queue *q;
		char what[400];
		json_t *o, *descs;

		if (bl->queue >= sg->num_dma_queues)
			return XERR(x, -EINVAL, "block %u: queue index %u, the subgraph has %u queues",
				    b, bl->queue, sg->num_dma_queues);
		q = &sg->dma_queues[bl->queue];
		if ((bl->engine ? bl->engine : q->owner) != e)
			continue;
		snprintf(what, sizeof(what), "queue '%.255s' block %u", q->name,
			 bl->id);
		o = json_object();
		if (!o || json_array_append_new(blocks, o))
			return nomem(x->err);
		ret = put_str(x, o, "queue", q->name, what);
		if (!ret)
			ret = put_u64(x, o, "id", bl->id, what);
		if (!ret)
			ret = put_u64(x, o, "semaphore", bl->semaphore, what);
		if (!ret && bl->comment)
			ret = put_str(x, o, "#comment", bl->comment, what);
		descs = json_array();
		if (!ret && (!descs || json_object_set_new(o, "desc", descs)))
			return nomem(x->err);
		for (k = 0; k < bl->num_descs && !ret; k++) {
			char dwhat[440];

			snprintf(dwhat, sizeof(dwhat), "%s: descriptor %u", what, k);
			ret = desc_json(x, &sg->dma_descs[bl->first_desc + k],
					dwhat, descs);
		}
	}
	return ret;
}

/* the engine members, the streams and the def.json keys naming them */
static int engines_json(struct ex *x, json_t *def)
{
	const struct nscc_subgraph *sg = x->sg;
	char name[64], key[32];
	uint32_t e, b;
	int ret = 0;

	for (b = 0; b < sg->num_dma_blocks; b++) {
		const struct nscc_dma_block *bl = &sg->dma_blocks[b];

		e = bl->engine;
		if (!e && bl->queue < sg->num_dma_queues)
			e = sg->dma_queues[bl->queue].owner;
		if (e < 1 || e > KBIN_DMA_ENGINE_MAX)
			return XERR(x, -EINVAL, "block %u: engine %u is not an engine 1..%u",
				    b, e, KBIN_DMA_ENGINE_MAX);
	}
	for (e = 1; e <= KBIN_DMA_ENGINE_MAX && !ret; e++) {
		int prog = sg->has_prog && e <= KBIN_PROG_ENGINES;
		json_t *ej, *blocks = json_array();

		if (!blocks)
			return nomem(x->err);
		ret = blocks_json(x, e, blocks);
		if (ret || (!json_array_size(blocks) && !prog)) {
			json_decref(blocks);
			continue;
		}
		snprintf(name, sizeof(name), "%s.json", engine_member[e]);
		ej = json_object();
		if (!ej || json_object_set_new(ej, "name", json_string(name)) ||
		    json_object_set_new(ej, "dma", blocks)) {
			json_decref(ej);
			return nomem(x->err);
		}
		ret = put_str(x, def, kbin_dma_engine_str(e), name, "def.json");
		if (!ret && prog) {
			const void *rec = sg->prog[e] ? (const void *)sg->prog[e] : "";
			char path[300];

			snprintf(name, sizeof(name), "%s.bin", engine_member[e]);
			snprintf(key, sizeof(key), "%s_instr", kbin_dma_engine_str(e));
			snprintf(path, sizeof(path), "%s/%s", x->dir, name);
			ret = put_str(x, def, key, name, "def.json");
			if (!ret)
				ret = put_str(x, ej, "instr", name, "def.json");
			if (!ret && nscc_neff_writer_add(x->w, path, rec,
							 (size_t)sg->prog_count[e] *
							 KBIN_PROG_RECORD_SIZE))
				ret = nomem(x->err);
		}
		snprintf(name, sizeof(name), "%s.json", engine_member[e]);
		if (!ret)
			ret = add_json(x, name, 1, ej);
		json_decref(ej);
	}
	return ret;
}

static int subgraph_neff(struct ex *x, uint32_t s, json_t *graphs)
{
	const struct nscc_subgraph *sg = x->sg;
	char defname[48];
	json_t *def, *vars;
	uint32_t i;
	int ret;

	snprintf(x->dir, sizeof(x->dir), "sg%02u", s);
	snprintf(defname, sizeof(defname), "%s/def.json", x->dir);
	if (sg->local_scratchpad_size || sg->shared_scratchpad_size)
		return XERR(x, -EOPNOTSUPP, "a scratchpad size given in the model (local %llu, shared %llu) cannot be written to a def.json",
			    (unsigned long long)sg->local_scratchpad_size,
			    (unsigned long long)sg->shared_scratchpad_size);
	if (!utf8_ok(sg->name))
		return XERR(x, -EINVAL, "the subgraph name is not valid UTF-8%s", "");
	if (json_array_append_new(graphs, json_pack("{s:s,s:s}", "definition",
						    defname, "name", sg->name)))
		return nomem(x->err);
	def = json_object();
	vars = json_object();
	x->names = json_object();
	ret = !def || !vars || !x->names ||
	      json_object_set_new(def, "name", json_string("definition")) ||
	      json_object_set_new(def, "var", json_incref(vars)) ?
	      nomem(x->err) : 0;
	if (!ret)
		ret = carveouts_json(x, def);
	for (i = 0; i < sg->num_vars && !ret; i++)
		ret = var_json(x, i, vars);
	if (!ret)
		ret = queues_json(x, def);
	if (!ret)
		ret = engines_json(x, def);
	if (!ret)
		ret = add_json(x, "def.json", 1, def);
	json_decref(vars);
	json_decref(def);
	json_decref(x->names);
	x->names = NULL;
	return ret;
}

/* neff.json: a "null" node per input of the first subgraph, the __kelf node naming its outputs */
static json_t *neff_json(const struct nscc_model *m)
{
	json_t *root = json_object(), *nodes = json_array();
	json_t *ins = json_array(), *outs = json_array(), *kelf;
	uint32_t i, nin = 0, nout = 0;
	char num[16];

	if (!root || !nodes || !ins || !outs ||
	    json_object_set_new(root, "nodes", nodes))
		goto fail;
	for (i = 0; m->num_sgs && i < m->sgs[0].num_vars; i++) {
		const struct nscc_var *v = &m->sgs[0].vars[i];
		json_t *n;

		if (!utf8_ok(v->name))
			continue;
		if (v->mr_type == KBIN_MR_OUTPUT) {
			nout++;
			if (json_array_append_new(outs, json_string(v->name)))
				goto fail;
			continue;
		}
		if (v->mr_type != KBIN_MR_INPUT)
			continue;
		n = json_pack("{s:s,s:s,s:[],s:[s],s:s}", "op", "null",
			      "name", v->name, "inputs", "output_names", v->name,
			      "is_param", "0");
		if (!n || json_array_append_new(nodes, n) ||
		    json_array_append_new(ins, json_pack("[I,i,i]",
							 (json_int_t)nin++, 0, 0)))
			goto fail;
	}
	snprintf(num, sizeof(num), "%u", nin);
	kelf = json_pack("{s:s,s:s,s:{s:s,s:s,s:s},s:o,s:o}", "op", "tvm_op",
			 "name", "sg_coreV10", "attrs", "func_name", "__kelf",
			 "kelf", "kelf-0.json", "num_inputs", num,
			 "inputs", ins, "output_names", outs);
	ins = outs = NULL;
	if (!kelf || json_array_append_new(nodes, kelf))
		goto fail;
	snprintf(num, sizeof(num), "%u", nout);
	if (json_object_set_new(json_object_get(kelf, "attrs"), "num_outputs",
				json_string(num)))
		goto fail;
	if (m->prog_flags & KBIN_PROG_F_COMPUTE &&
	    json_object_set_new(root, NSCC_NEFF_MARKER_KEY,
				json_string(NSCC_NEFF_MARKER_COMPUTE)))
		goto fail;
	return root;
fail:
	json_decref(ins);
	json_decref(outs);
	json_decref(root);
	return NULL;
}

int nscc_model_to_neff(const struct nscc_model *m, struct nscc_neff_writer *w,
		       struct nscc_err *err)
{
	const struct kbin_gen *g = kbin_gen_target(m->target_gen);
	struct nscc_subgraph none = { .name = "model" };
	struct ex x = { .m = m, .sg = &none, .w = w, .err = err };
	json_t *kelf = NULL, *graphs, *nj = NULL;
	uint32_t s;
	int ret;

	if (!g || !g->aliases[0])
		return XERR(&x, -EINVAL, "target_gen %u is not a generation a plan may target",
			    m->target_gen);
	if (m->prog_flags & ~KBIN_PROG_F_COMPUTE)
		return XERR(&x, -EOPNOTSUPP, "program flags 0x%x: the NEFF marker says only KBIN_PROG_F_COMPUTE",
			    m->prog_flags);
	if (!m->num_sgs || m->num_sgs > KBIN_MAX_SUBGRAPHS)
		return XERR(&x, -EINVAL, "%u subgraphs, a NEFF holds 1..%u",
			    m->num_sgs, KBIN_MAX_SUBGRAPHS);
	graphs = json_array();
	kelf = json_pack("{s:o,s:s,s:s}", "graphs", graphs, "version", "0.5",
			 "target", g->aliases[0]);
	ret = kelf ? 0 : nomem(err);
	for (s = 0; s < m->num_sgs && !ret; s++) {
		x.sg = &m->sgs[s];
		ret = subgraph_neff(&x, s, graphs);
	}
	x.sg = &none;
	if (!ret)
		ret = add_json(&x, "kelf-0.json", 0, kelf);
	if (!ret) {
		nj = neff_json(m);
		ret = nj ? add_json(&x, "neff.json", 0, nj) : nomem(err);
	}
	json_decref(nj);
	json_decref(kelf);
	return ret;
}
