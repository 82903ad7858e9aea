// SPDX-License-Identifier: GPL-2.0
/*
 * defjson.c - the def.json front end (Documentation/compiler.rst): each
 * subgraph's "var" table -> struct nscc_var (type mapping by the kind
 * table's def_type column, kbin_kind.h; sizes,
 * alignment, offsets, pointers, lists, weights), its
 * "runtime_statebuffer_reservation" -> SBUF carve-outs, and a var's own
 * "dtype" and "shape" keys and tensor_map.json -> dtype and shape (the
 * two must agree).  Checks here are about the NEFF's
 * members (missing fields, wrong JSON types, negative or out-of-range
 * numbers, unknown var types, missing weight members, and tensor_map.json
 * against def.json and the .npy weights: dtype, descr, size); the rules
 * every var table must follow, however it was made, are in compile.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kbin_dma.h"
#include "nscc_internal.h"

struct var_ctx {
	const char *sg;
	const char *name;
	int has_id;
	uint32_t var_id;
	const char *from;	/* where dtype and shape came from last */
	struct nscc_err *err;
};

/* "sg00: var 'x' (var_id 4): " or "sg00: var 'x': " before the id is known */
#define VERR(c, code, fmt, ...) \
	((c)->has_id ? \
	 nscc_errf((c)->err, code, "%s: var '%s' (var_id %u): " fmt, \
		   (c)->sg, (c)->name, (c)->var_id, ##__VA_ARGS__) : \
	 nscc_errf((c)->err, code, "%s: var '%s': " fmt, (c)->sg, (c)->name, \
		   ##__VA_ARGS__))

/* Read an optional non-negative integer field; 1 = present, 0 = absent. */
static int get_uint(struct var_ctx *c, struct jv o, const char *key,
		    uint64_t max, uint64_t *out)
{
	char why[160];
	int r = jv_get_uint(o, key, max, out, why, sizeof(why));

	return r < 0 ? VERR(c, r, "%s", why) : r;
}

static int get_u32_list(struct var_ctx *c, struct jv o, const char *key,
			struct nscc_var *v)
{
	struct jv l = jv_get(o, key), e;
	struct jv_iter it;
	uint32_t *ids;
	size_t i, n;
	int ret;

	if (jv_is_none(l))
		return VERR(c, -EINVAL, "missing field '%s'", key);
	if (!jv_is_array(l))
		return VERR(c, -EINVAL, "field '%s' is not an array", key);
	n = jv_size(l);
	if (n > KBIN_MAX_LIST)
		return VERR(c, -E2BIG, "%s has %zu entries, at most %u", key, n,
			    KBIN_MAX_LIST);
	ids = malloc((n ? n : 1) * sizeof(*ids));
	if (!ids)
		return nscc_errf(c->err, -ENOMEM, "out of memory");
	for (jv_iter_init(&it, l), i = 0; jv_next(&it, NULL, NULL, &e); i++) {
		int64_t x = jv_is_int(e) ? jv_int(e) : -1;

		if (x < 0 || x > UINT32_MAX) {
			free(ids);
			return VERR(c, -EINVAL, "%s[%zu] is not a var_id (an integer 0..%u)",
				    key, i, UINT32_MAX);
		}
		ids[i] = (uint32_t)x;
	}
	ret = nscc_var_set_list(v, ids, (uint32_t)n);
	free(ids);
	return ret ? nscc_errf(c->err, -ENOMEM, "out of memory") : 0;
}

/* "[d,d,...]" of @n dims into @buf, for a message */
static const char *dims_str(const uint64_t *d, size_t n, char *buf, size_t cap)
{
	size_t i, o = snprintf(buf, cap, "[");

	for (i = 0; i < n && o < cap; i++)
		o += snprintf(buf + o, cap - o, "%s%llu", i ? "," : "",
			      (unsigned long long)d[i]);
	if (o < cap)
		snprintf(buf + o, cap - o, "]");
	return buf;
}

/*
 * A dtype (a non-empty string) and a shape (an array of up to 64
 * non-negative integers; the compiler refuses more than 8) from @dt and
 * @shape of @src ("def.json" for the var's own keys, "tensor_map.json"),
 * into @v.  A var that has one already (def.json's) must get the same.
 */
static int apply_dtype_shape(struct var_ctx *c, const char *src, struct jv dt,
			     const char *shape_key, struct jv shape,
			     struct nscc_var *v)
{
	char a[64 * 21 + 3], b[64 * 21 + 3];
	const char *dts = jv_str(dt);
	uint64_t dims[64];
	struct jv_iter it;
	struct jv e;
	size_t i, n;

	if (!jv_is_none(dt)) {
		if (!dts)
			return VERR(c, -EINVAL, "%s: dtype is not a string", src);
		if (!*dts)
			return VERR(c, -EINVAL, "%s: dtype '' is empty", src);
		if (v->dtype && strcmp(v->dtype, dts))
			return VERR(c, -EINVAL, "dtype '%s' (def.json) differs from dtype '%s' (%s)",
				    v->dtype, dts, src);
		if (nscc_var_set_dtype(v, dts))
			return nscc_errf(c->err, -ENOMEM, "out of memory");
		c->from = src;
	}
	if (jv_is_none(shape) || jv_is_null(shape))
		return 0;
	if (!jv_is_array(shape))
		return VERR(c, -EINVAL, "%s: %s is not an array", src, shape_key);
	n = jv_size(shape);
	if (n > sizeof(dims) / sizeof(dims[0]))
		return VERR(c, -E2BIG, "%s: shape has %zu dimensions, only %u fit",
			    src, n, KBIN_SHAPE_MAX);
	for (jv_iter_init(&it, shape), i = 0; jv_next(&it, NULL, NULL, &e);
	     i++) {
		if (!jv_is_int(e) || jv_int(e) < 0)
			return VERR(c, -EINVAL, "%s: %s[%zu] is not a non-negative integer",
				    src, shape_key, i);
		dims[i] = (uint64_t)jv_int(e);
	}
	if (v->shape && (v->ndims != n ||
			 memcmp(v->shape, dims, n * sizeof(*dims))))
		return VERR(c, -EINVAL, "shape %s (def.json) differs from shape %s (%s)",
			    dims_str(v->shape, v->ndims, a, sizeof(a)),
			    dims_str(dims, n, b, sizeof(b)), src);
	if (nscc_var_set_shape(v, dims, (uint32_t)n))
		return nscc_errf(c->err, -ENOMEM, "out of memory");
	c->from = src;
	return 0;
}

/* dtype and shape from the tensor_map.json entry, when there is one. */
static int apply_tensor_map(struct var_ctx *c, struct jv ent,
			    struct nscc_var *v)
{
	struct jv shape;

	if (!jv_is_object(ent))
		return VERR(c, -EINVAL, "tensor_map.json: its entry is not a JSON object");
	shape = jv_get(ent, "tf_shape");
	if (jv_is_none(shape))
		shape = jv_get(ent, "sim_shape");
	return apply_dtype_shape(c, "tensor_map.json", jv_get(ent, "dtype"),
				 "tf_shape", shape, v);
}

/*
 * The .npy descrs of @dt as "'<u2' or '|V2'", for a refusal.
 */
static void npy_descrs(const struct nscc_dtype *dt, char *buf, size_t cap)
{
	size_t i, o = 0;

	buf[0] = 0;
	for (i = 0; i < NSCC_DTYPE_NPY_MAX && dt->npy[i] && o < cap; i++)
		o += snprintf(buf + o, cap - o, "%s'%s'", i ? " or " : "",
			      dt->npy[i]);
}

/*
 * A file var's weights: .npy (data after the header) or raw bytes.  A
 * .npy must store the var's dtype, when the dtype table knows it.
 */
static int load_weights(struct var_ctx *c, struct nscc_neff *neff,
			const char *dir, struct nscc_var *v)
{
	const struct nscc_dtype *dt = nscc_dtype_find(v->dtype);
	char descr[16], want[64];
	const void *data;
	char *path;
	size_t len, off = 0;
	int ret;

	if (asprintf(&path, "%s%s%s", dir, *dir ? "/" : "", v->file_name) < 0)
		return nscc_errf(c->err, -ENOMEM, "out of memory");
	ret = nscc_neff_member(neff, path, &data, &len, c->err);
	if (ret == -ENOENT) {
		ret = VERR(c, ret, "file_name '%s': member '%s' is missing from the NEFF",
			   v->file_name, path);
		free(path);
		return ret;
	}
	if (ret) {	/* a '..' name, an unreadable file: keep the cause */
		nscc_err_prefix(c->err, "%s: var '%s' (var_id %u): file_name '%s'",
				c->sg, c->name, c->var_id, v->file_name);
		free(path);
		return ret;
	}
	if (len >= 6 && !memcmp(data, "\x93NUMPY", 6)) {
		ret = nscc_npy_data(data, len, &off, descr, c->err);
		if (ret) {
			nscc_err_prefix(c->err, "%s: var '%s' (var_id %u): file_name '%s'",
					c->sg, c->name, c->var_id, v->file_name);
			free(path);
			return ret;
		}
		if (dt && !nscc_dtype_npy_ok(dt, descr)) {
			npy_descrs(dt, want, sizeof(want));
			ret = VERR(c, -EINVAL, "file_name '%s': member '%s' has .npy descr '%s', but dtype '%s' (%s) is stored as %s",
				   v->file_name, path, descr,
				   kbin_dtype(dt->dtype)->name, c->from, want);
			free(path);
			return ret;
		}
	}
	free(path);
	v->payload = (const uint8_t *)data + off;
	v->payload_len = len - off;
	v->payload_owned = 0;
	return 0;
}

/*
 * def.json's size is the var's shape x its dtype's element size, when
 * the dtype table knows the dtype and the shape is one a plan can hold
 * (more than 8 dimensions or a zero one are the compiler's refusals).
 */
static int check_size(struct var_ctx *c, const struct kbin_kind *kind,
		      const struct nscc_var *v)
{
	const struct nscc_dtype *nd = nscc_dtype_find(v->dtype);
	const struct kbin_dma_dtype_info *dt = nd ? kbin_dtype(nd->dtype) : NULL;
	uint64_t n = dt ? dt->size : 0;
	char dims[KBIN_SHAPE_MAX * 21 + 3];	/* "[d,d,...]", u64 dims */
	uint32_t i;
	int over = 0;

	if (!dt || !v->shape || !v->has_size || v->ndims > KBIN_SHAPE_MAX ||
	    (kind->size != KBIN_SIZE_VAR && kind->size != KBIN_SIZE_OPTIONAL))
		return 0;
	for (i = 0; i < v->ndims; i++) {
		if (!v->shape[i])
			return 0;
		over |= __builtin_mul_overflow(n, v->shape[i], &n);
	}
	if (!over && n == v->size)
		return 0;
	dims_str(v->shape, v->ndims, dims, sizeof(dims));
	if (over)
		return VERR(c, -EINVAL, "size %llu (def.json) differs from shape %s x %u bytes of dtype '%s', over 2^64 bytes (%s)",
			    (unsigned long long)v->size, dims, dt->size, dt->name,
			    c->from);
	return VERR(c, -EINVAL, "size %llu (def.json) differs from shape %s x %u bytes of dtype '%s' = %llu (%s)",
		    (unsigned long long)v->size, dims, dt->size, dt->name,
		    (unsigned long long)n, c->from);
}

/* tf_file -> tensor_map entry, for vars matched by their weight file */
struct file_index {
	struct nscc_hash by_name;	/* tf_file -> its slot of ents */
	struct jv *ents;
};

static struct jv file_entry(const struct file_index *fi, const char *name)
{
	const struct jv *e = fi ? nscc_hash_get_str(&fi->by_name, name) : NULL;
	struct jv none = { 0 };

	return e ? *e : none;
}

static int parse_var(struct nscc_model *m, int sgi, struct var_ctx *c,
		     struct jv o, struct jv tmap,
		     const struct file_index *by_file,
		     struct nscc_neff *neff, const char *dir)
{
	const struct kbin_kind *kind;
	const char *type;
	struct nscc_var *v;
	uint64_t x;
	uint32_t mt;
	struct jv j;
	int r;

	if (!jv_is_object(o))
		return VERR(c, -EINVAL, "not a JSON object");
	j = jv_get(o, "type");
	if (jv_is_none(j))
		return VERR(c, -EINVAL, "missing field 'type'");
	if (!jv_is_string(j))
		return VERR(c, -EINVAL, "field 'type' is not a string");
	type = jv_str(j);
	r = get_uint(c, o, "var_id", UINT32_MAX, &x);
	if (r < 0)
		return r;
	if (!r)
		return VERR(c, -EINVAL, "missing field 'var_id'");
	c->has_id = 1;
	c->var_id = (uint32_t)x;
	mt = nscc_mr_type_from_def(type);
	if (mt == KBIN_MR_INVALID)
		return VERR(c, -EINVAL, "unknown type '%s'", type);
	kind = kbin_kind(mt);
	v = nscc_model_add_var(m, sgi, c->name, c->var_id, mt);
	if (!v)
		return nscc_errf(c->err, -ENOMEM, "out of memory");

	r = get_uint(c, o, "size", INT64_MAX, &v->size);
	if (r < 0)
		return r;
	v->has_size = r;
	r = get_uint(c, o, "alignment", UINT64_MAX, &v->alignment);
	if (r < 0)
		return r;
	if (r && v->alignment == 0)
		return VERR(c, -EINVAL, "alignment 0 is not a power of two (libnrt: "
			    NSCC_LIBNRT_ALIGNMENT ")");
	/*
	 * a planned scratchpad offset (def.json vars are SHARED-backed); a
	 * tmp-buf's backing_variable_off is not read: the loader gives it an
	 * HBM allocation of its own (hardware.rst, "Kinds")
	 */
	if (kind->placement == KBIN_PLACE_BACKING_SP) {
		r = get_uint(c, o, "backing_variable_off", INT64_MAX, &v->offset);
		if (r < 0)
			return r;
		v->backing_buf = KBIN_BACKING_BUF_SHARED;
	}
	/* the fields of the kind's union variant */
	switch (kind->variant) {
	case KBIN_VARIANT_POINTER:
		r = get_uint(c, o, "referenced_var_id", UINT32_MAX, &x);
		if (r < 0)
			return r;
		if (!r)
			return VERR(c, -EINVAL, "missing field 'referenced_var_id'");
		v->referenced_var_id = (uint32_t)x;
		j = jv_get(o, "io_ref");
		v->io_ref = jv_is_true(j) || jv_int(j);
		break;
	case KBIN_VARIANT_LIST:
		r = get_u32_list(c, o, "list", v);
		if (r)
			return r;
		break;
	case KBIN_VARIANT_REMOTE:
		r = get_uint(c, o, "remote_vtpb_rel_sg_id", UINT32_MAX, &x);
		if (r <= 0)
			return r ? r : VERR(c, -EINVAL, "missing field 'remote_vtpb_rel_sg_id'");
		v->remote_sg = (uint32_t)x;
		r = get_uint(c, o, "remote_var_id", UINT32_MAX, &x);
		if (r <= 0)
			return r ? r : VERR(c, -EINVAL, "missing field 'remote_var_id'");
		v->remote_var_id = (uint32_t)x;
		break;
	}
	/* a kind that takes a payload takes it from its weight file */
	if (kind->payload != KBIN_PAYLOAD_NONE) {
		j = jv_get(o, "file_name");
		if (jv_is_none(j))
			return VERR(c, -EINVAL, "missing field 'file_name'");
		if (!jv_is_string(j) || !*jv_str(j))
			return VERR(c, -EINVAL, "field 'file_name' is not a non-empty string");
		v->file_name = strdup(jv_str(j));
		if (!v->file_name)
			return nscc_errf(c->err, -ENOMEM, "out of memory");
	}
	/* dtype and shape first: the weights are checked against them */
	r = apply_dtype_shape(c, "def.json", jv_get(o, "dtype"), "shape",
			      jv_get(o, "shape"), v);
	if (r)
		return r;
	j = jv_get(tmap, c->name);
	if (jv_is_none(j) && v->file_name)
		j = file_entry(by_file, v->file_name);
	if (!jv_is_none(j)) {
		r = apply_tensor_map(c, j, v);
		if (r)
			return r;
	}
	if (v->file_name && neff) {
		r = load_weights(c, neff, dir, v);
		if (r)
			return r;
	}
	return check_size(c, kind, v);
}

/* runtime_statebuffer_reservation -> the subgraph's SBUF carve-outs */
static int parse_carveouts(struct nscc_model *m, int sgi, struct jv def,
			   struct nscc_err *err)
{
	struct jv rsr = jv_get(def, "runtime_statebuffer_reservation");
	static const char *const keys[] = {
		"offset", "size", "base_partition", "partitions",
	};
	struct jv_iter it;
	struct jv e;
	size_t k;
	int ret;

	if (!jv_is_none(rsr) && !jv_is_array(rsr))
		return nscc_errf(err, -EINVAL, "%s: runtime_statebuffer_reservation is not an array",
				 m->sgs[sgi].name);
	ret = nscc_model_check_carveout_count(m, sgi, !jv_is_none(rsr),
					      jv_size(rsr), err);
	jv_iter_init(&it, rsr);
	while (jv_next(&it, NULL, NULL, &e)) {
		const char *t = jv_str(jv_get(e, "type"));
		int64_t val[4];

		if (ret)
			break;
		for (k = 0; k < 4; k++) {
			struct jv x = jv_get(e, keys[k]);

			val[k] = jv_is_int(x) && jv_int(x) >= 0 ? jv_int(x) : -1;
		}
		ret = nscc_model_add_carveout(m, sgi, t, val, err);
	}
	return ret;
}

/* index @tmap's entries by tf_file (a later entry wins); 0 or -ENOMEM */
static int index_by_file(struct file_index *fi, struct jv tmap)
{
	struct jv_iter it;
	struct jv ent;
	size_t n = 0;

	nscc_hash_init(&fi->by_name);
	fi->ents = malloc((jv_size(tmap) + 1) * sizeof(*fi->ents));
	if (!fi->ents)
		return -ENOMEM;
	jv_iter_init(&it, tmap);
	while (jv_next(&it, NULL, NULL, &ent)) {
		const char *tf = jv_str(jv_get(ent, "tf_file"));
		void *old;
		int r;

		if (!tf)
			continue;
		fi->ents[n] = ent;
		r = nscc_hash_put_str(&fi->by_name, tf, &fi->ents[n], &old);
		if (r == -EEXIST)
			*(struct jv *)old = ent;
		else if (r)
			return r;
		else
			n++;
	}
	return 0;
}

static void free_file_index(struct file_index *fi)
{
	nscc_hash_fini(&fi->by_name);
	free(fi->ents);
}

int nscc_defjson_load_subgraph(struct nscc_model *m, const char *sg_name,
			       const void *def, size_t def_len,
			       const void *tmap, size_t tmap_len,
			       struct nscc_neff *neff, const char *dir,
			       struct nscc_err *err)
{
	struct jv_doc *dj = NULL, *tj = NULL;
	struct file_index by_file = { 0 };
	struct jv vars, o, tmap_root = { 0 };
	struct jv_iter it;
	char what[300];
	const char *name;
	int sgi, ret;

	if (!dir)
		dir = "";
	snprintf(what, sizeof(what), "%s%sdef.json", dir, *dir ? "/" : "");
	ret = nscc_json_parse(def, def_len, what, &dj, err);
	if (ret)
		return ret;
	if (tmap) {
		snprintf(what, sizeof(what), "%s%stensor_map.json", dir,
			 *dir ? "/" : "");
		ret = nscc_json_parse(tmap, tmap_len, what, &tj, err);
		if (ret)
			goto out;
		tmap_root = jv_root(tj);
		if (!jv_is_object(tmap_root)) {
			ret = nscc_errf(err, -EINVAL, "%s: tensor_map.json is not a JSON object",
					sg_name);
			goto out;
		}
		if (index_by_file(&by_file, tmap_root)) {
			ret = nscc_errf(err, -ENOMEM, "out of memory");
			goto out;
		}
	}
	if (!jv_is_object(jv_root(dj))) {
		ret = nscc_errf(err, -EINVAL, "%s: def.json is not a JSON object", sg_name);
		goto out;
	}
	vars = jv_get(jv_root(dj), "var");
	if (!jv_is_object(vars)) {
		ret = nscc_errf(err, -EINVAL, "%s: def.json field 'var' is missing or not an object",
				sg_name);
		goto out;
	}
	sgi = nscc_model_add_subgraph(m, sg_name);
	if (sgi < 0) {
		ret = nscc_errf(err, -ENOMEM, "out of memory");
		goto out;
	}
	ret = parse_carveouts(m, sgi, jv_root(dj), err);
	if (ret)
		goto out;
	jv_iter_init(&it, vars);
	while (jv_next(&it, &name, NULL, &o)) {
		struct var_ctx c = { .sg = sg_name, .name = name, .err = err };

		ret = parse_var(m, sgi, &c, o, tmap_root, tj ? &by_file : NULL,
				neff, dir);
		if (ret)
			goto out;
	}
	/* the DMA queues and the engine members' blocks (defjson_dma.c) */
	ret = nscc_defjson_dma(m, sgi, jv_root(dj), vars, neff, dir, err);
	/* the engines' instruction streams (defjson_prog.c) */
	if (!ret)
		ret = nscc_defjson_prog(m, sgi, jv_root(dj), neff, dir, err);
out:
	free_file_index(&by_file);
	jv_free(tj);
	jv_free(dj);
	return ret;
}

int nscc_neff_to_model(struct nscc_neff *neff, struct nscc_model **out,
		       struct nscc_err *err)
{
	struct nscc_model *m;
	uint32_t s;
	int ret = 0;

	*out = NULL;
	m = nscc_model_new(neff->target_gen);
	if (!m)
		return nscc_errf(err, -ENOMEM, "out of memory");
	for (s = 0; s < neff->num_sgs; s++) {
		const struct nscc_neff_sg *g = &neff->sgs[s];
		struct nscc_err terr;
		const void *def, *tmap = NULL;
		size_t def_len, tmap_len = 0;
		char *dir, *slash, *tpath;

		ret = nscc_neff_member(neff, g->definition, &def, &def_len, err);
		if (ret)
			break;
		dir = strdup(g->definition);
		if (!dir) {
			ret = nscc_errf(err, -ENOMEM, "out of memory");
			break;
		}
		slash = strrchr(dir, '/');
		if (slash)
			*slash = 0;
		else
			dir[0] = 0;
		if (asprintf(&tpath, "%s%stensor_map.json", dir,
			     *dir ? "/" : "") < 0) {
			free(dir);
			ret = nscc_errf(err, -ENOMEM, "out of memory");
			break;
		}
		/* optional, but one that is there must be readable */
		ret = nscc_neff_member(neff, tpath, &tmap, &tmap_len, &terr);
		free(tpath);
		if (ret == -ENOENT) {
			tmap = NULL;
			tmap_len = 0;
			ret = 0;
		}
		if (ret) {	/* a link, ...: say so */
			if (err)
				*err = terr;
			free(dir);
			break;
		}
		ret = nscc_defjson_load_subgraph(m, g->name, def, def_len, tmap,
						 tmap_len, neff, dir, err);
		free(dir);
		if (ret)
			break;
	}
	if (ret) {
		nscc_model_free(m);
		return ret;
	}
	m->prog_flags = neff->prog_flags;
	m->neff = neff;
	*out = m;
	return 0;
}
