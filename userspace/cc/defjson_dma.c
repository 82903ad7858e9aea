// SPDX-License-Identifier: GPL-2.0
/*
 * defjson_dma.c - the DMA programs of a def.json subgraph
 * (Documentation/relocation.rst, Documentation/compiler.rst): its
 * "dma_queue" object -> struct nscc_dma_queue, and the "dma" blocks of
 * every engine member it names ("pe": "PE.json", "act", "pool", "dve",
 * "sp") -> struct nscc_dma_block and their descriptors as KBIN records
 * (struct kbin_dma_desc: var_ids, dtype and op codes).  Checks here are
 * about the JSON: missing fields, wrong JSON types, negative or too large
 * numbers, names no table knows (queue, variable, dtype, op, queue type,
 * owner), arrays of the wrong length.  The rules every DMA program must
 * follow, however it was made, are in compile.c.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kbin_dma.h"
#include "nscc_internal.h"

/* where a block's message points: the member, the block, the descriptor */
struct dma_ctx {
	const char *sg;
	const char *member;
	size_t blk;
	const char *queue;	/* the block's queue name, once known */
	long long id;		/* the block's id, once known, else -1 */
	long long desc;		/* descriptor index, or -1 */
	const struct nscc_hash *kept;	/* var_id -> the var that keeps it */
	struct nscc_err *err;
};

__attribute__((format(printf, 3, 4)))
static int berr(const struct dma_ctx *c, int code, const char *fmt, ...)
{
	char what[NSCC_ERR_MAX], where[160] = "";
	va_list ap;
	int n = 0;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (c->queue)
		n = snprintf(where, sizeof(where), " (queue '%s'", c->queue);
	if (c->queue && c->id >= 0)
		n += snprintf(where + n, sizeof(where) - n, ", id %lld", c->id);
	if (c->queue)
		snprintf(where + n, sizeof(where) - n, ")");
	if (c->desc >= 0)
		return nscc_errf(c->err, code, "%s: dma[%zu]%s: desc[%lld]: %s",
				 c->member, c->blk, where, c->desc, what);
	return nscc_errf(c->err, code, "%s: dma[%zu]%s: %s", c->member, c->blk,
			 where, what);
}

/* an integer field 0..@max; 1 present, 0 absent, < 0 refused */
static int dma_uint(const struct dma_ctx *c, struct jv o, const char *key,
		    uint64_t max, uint64_t *out)
{
	char why[160];
	int r = jv_get_uint(o, key, max, out, why, sizeof(why));

	return r < 0 ? berr(c, r, "%s", why) : r;
}

static int dma_req_uint(const struct dma_ctx *c, struct jv o, const char *key,
			uint64_t max, uint64_t *out)
{
	int r = dma_uint(c, o, key, max, out);

	return r ? (r < 0 ? r : 0) : berr(c, -EINVAL, "missing field '%s'", key);
}

static const char *dma_str(struct jv o, const char *key)
{
	return jv_str(jv_get(o, key));
}

/* an array of at most @n integers 0..@max into @out; its length in *@len */
static int dma_uint_array(const struct dma_ctx *c, struct jv o,
			  const char *key, uint64_t max, uint64_t *out,
			  size_t n, size_t *len)
{
	struct jv a = jv_get(o, key), e;
	struct jv_iter it;
	size_t i;

	if (jv_is_none(a))
		return berr(c, -EINVAL, "missing field '%s'", key);
	if (!jv_is_array(a))
		return berr(c, -EINVAL, "field '%s' is not an array", key);
	*len = jv_size(a);
	if (*len < 1 || *len > n)
		return berr(c, -EINVAL, "%s has %zu entries, allowed 1..%zu", key,
			    *len, n);
	for (jv_iter_init(&it, a), i = 0; jv_next(&it, NULL, NULL, &e); i++) {
		if (!jv_is_int(e) || jv_int(e) < 0 || (uint64_t)jv_int(e) > max)
			return berr(c, -EINVAL, "%s[%zu] is not an integer 0..%llu",
				    key, i, (unsigned long long)max);
		out[i] = (uint64_t)jv_int(e);
	}
	return 0;
}

/* one side ("from" or "to") of a descriptor into @sd */
static int parse_side(const struct dma_ctx *c, struct jv d, const char *side,
		      struct jv vars, struct kbin_dma_side *sd)
{
	char k_dtype[16], k_off[16], k_sizes[16], k_steps[16];
	uint64_t sizes[KBIN_DMA_MAX_DIMS], steps[KBIN_DMA_MAX_DIMS], x;
	const struct nscc_var *kept;
	const char *var, *dt;
	size_t ns, nt, i;
	struct jv v;
	int r;

	snprintf(k_dtype, sizeof(k_dtype), "%s_dtype", side);
	snprintf(k_off, sizeof(k_off), "%s_off", side);
	snprintf(k_sizes, sizeof(k_sizes), "%s_sizes", side);
	snprintf(k_steps, sizeof(k_steps), "%s_steps", side);
	var = dma_str(d, side);
	if (!var)
		return berr(c, -EINVAL, "field '%s' is missing or not a string", side);
	v = jv_get(vars, var);
	if (!jv_is_object(v) || !jv_is_int(jv_get(v, "var_id")))
		return berr(c, -EINVAL, "%s: unknown variable '%s'", side, var);
	x = (uint64_t)jv_int(jv_get(v, "var_id"));
	if (x > UINT32_MAX)
		return berr(c, -EINVAL, "%s: variable '%s' has no var_id", side, var);
	/* a var whose var_id another var took first is not in the plan */
	kept = c->kept ? nscc_hash_get_u32(c->kept, (uint32_t)x) : NULL;
	if (kept && strcmp(kept->name, var))
		return berr(c, -EINVAL, "%s: variable '%s' (var_id %llu) is not in the plan: skipped, var '%s' has var_id %llu",
			    side, var, (unsigned long long)x, kept->name,
			    (unsigned long long)x);
	sd->var_id = (uint32_t)x;
	dt = dma_str(d, k_dtype);
	if (!dt)
		return berr(c, -EINVAL, "field '%s' is missing or not a string",
			    k_dtype);
	sd->dtype = (uint8_t)kbin_dma_dtype_from_name(dt);
	if (!sd->dtype)
		return berr(c, -EINVAL, "%s: unknown dtype '%s'", k_dtype, dt);
	r = dma_req_uint(c, d, k_off, INT64_MAX, &x);
	if (r)
		return r;
	sd->offset = x;
	r = dma_uint_array(c, d, k_sizes, UINT32_MAX, sizes, KBIN_DMA_MAX_DIMS, &ns);
	if (r)
		return r;
	r = dma_uint_array(c, d, k_steps, INT64_MAX, steps, KBIN_DMA_MAX_DIMS, &nt);
	if (r)
		return r;
	if (ns != nt)
		return berr(c, -EINVAL, "%s has %zu entries but %s has %zu", k_sizes,
			    ns, k_steps, nt);
	sd->num_dims = (uint8_t)ns;
	for (i = 0; i < ns; i++) {
		sd->sizes[i] = (uint32_t)sizes[i];
		sd->steps[i] = steps[i];
	}
	return 0;
}

static int parse_desc(const struct dma_ctx *c, struct jv d, struct jv vars,
		      struct kbin_dma_desc *out)
{
	const char *op = dma_str(d, "op"), *top;
	struct jv t = jv_get(d, "transpose_op");
	uint64_t x, shape[KBIN_DMA_TRANSPOSE_DIMS];
	size_t n, i;
	int r;

	memset(out, 0, sizeof(*out));
	if (!jv_is_object(d))
		return berr(c, -EINVAL, "not a JSON object");
	if (!jv_is_none(jv_get(d, "op")) && !op)
		return berr(c, -EINVAL, "field 'op' is not a string");
	if (op) {
		out->op = (uint8_t)kbin_dma_op_from_name(op);
		if (!out->op || out->op == KBIN_DMA_OP_TRANSPOSE)
			return berr(c, -EINVAL, "unknown op '%s' (copy, cast; a transpose has no op)",
				    op);
		if (!jv_is_none(t))
			return berr(c, -EINVAL, "op '%s' with a transpose_op", op);
	} else if (jv_is_none(t)) {
		return berr(c, -EINVAL, "no field 'op' and no 'transpose_op'");
	} else {
		out->op = KBIN_DMA_OP_TRANSPOSE;
	}
	r = parse_side(c, d, "from", vars, &out->from);
	if (r)
		return r;
	r = parse_side(c, d, "to", vars, &out->to);
	if (r)
		return r;
	r = dma_uint(c, d, "num_tiling_dimensions", KBIN_DMA_MAX_DIMS, &x);
	if (r < 0)
		return r;
	out->num_tiling_dims = r ? (uint8_t)x : 0;
	if (out->op != KBIN_DMA_OP_TRANSPOSE)
		return 0;
	top = jv_str(t);
	if (!top || strlen(top) != KBIN_DMA_TRANSPOSE_DIMS)
		return berr(c, -EINVAL, "transpose_op is not a string of %u letters",
			    KBIN_DMA_TRANSPOSE_DIMS);
	memcpy(out->transpose_op, top, KBIN_DMA_TRANSPOSE_DIMS);
	r = dma_req_uint(c, d, "transpose_element_size", 255, &x);
	if (r)
		return r;
	out->transpose_elem_size = (uint8_t)x;
	r = dma_uint_array(c, d, "transpose_shape", UINT32_MAX, shape,
			   KBIN_DMA_TRANSPOSE_DIMS, &n);
	if (r)
		return r;
	if (n != KBIN_DMA_TRANSPOSE_DIMS)
		return berr(c, -EINVAL, "transpose_shape has %zu entries, not %u", n,
			    KBIN_DMA_TRANSPOSE_DIMS);
	for (i = 0; i < n; i++)
		out->transpose_shape[i] = (uint32_t)shape[i];
	return 0;
}

/* the queue index of @name among the subgraph's queues, or -1 */
static long find_queue(const struct nscc_subgraph *sg, const char *name)
{
	uint32_t k;

	for (k = 0; k < sg->num_dma_queues; k++)
		if (!strcmp(sg->dma_queues[k].name, name))
			return k;
	return -1;
}

/* the "dma" blocks of engine member @member (owned by @engine) */
static int parse_blocks(struct nscc_model *m, int sgi, uint32_t engine,
			const char *member, struct jv ej, struct jv vars,
			const struct nscc_hash *kept, struct nscc_err *err)
{
	struct nscc_subgraph *sg = &m->sgs[sgi];
	struct jv blocks = jv_get(ej, "dma"), b, descs, d;
	struct kbin_dma_desc *tmp = NULL;
	struct dma_ctx c = { .sg = sg->name, .member = member, .kept = kept,
			     .err = err };
	struct jv_iter bit, dit;
	size_t i, k, cap = 0;
	int ret = 0;

	if (jv_is_none(blocks))
		return 0;
	if (!jv_is_array(blocks))
		return nscc_errf(err, -EINVAL, "%s: field 'dma' is not an array", member);
	for (jv_iter_init(&bit, blocks), i = 0; jv_next(&bit, NULL, NULL, &b);
	     i++) {
		struct nscc_dma_block nb = { .engine = engine };
		const char *qname, *comment;
		uint64_t x;
		long q;

		c.blk = i;
		c.queue = NULL;
		c.id = -1;
		c.desc = -1;
		if (!jv_is_object(b)) {
			ret = berr(&c, -EINVAL, "not a JSON object");
			break;
		}
		qname = dma_str(b, "queue");
		if (!qname) {
			ret = berr(&c, -EINVAL, "field 'queue' is missing or not a string");
			break;
		}
		q = find_queue(sg, qname);
		if (q < 0) {
			ret = berr(&c, -EINVAL, "unknown queue '%s' (not in %s's dma_queue)",
				   qname, sg->name);
			break;
		}
		c.queue = qname;
		nb.queue = (uint32_t)q;
		ret = dma_req_uint(&c, b, "id", UINT32_MAX, &x);
		if (ret)
			break;
		nb.id = (uint32_t)x;
		c.id = nb.id;
		ret = dma_req_uint(&c, b, "semaphore", UINT32_MAX, &x);
		if (ret)
			break;
		nb.semaphore = (uint32_t)x;
		comment = dma_str(b, "#comment");
		if (!jv_is_none(jv_get(b, "#comment")) && !comment) {
			ret = berr(&c, -EINVAL, "field '#comment' is not a string");
			break;
		}
		descs = jv_get(b, "desc");
		if (!jv_is_array(descs)) {
			ret = berr(&c, -EINVAL, "field 'desc' is missing or not an array");
			break;
		}
		if (jv_size(descs) > cap) {
			struct kbin_dma_desc *t;

			cap = jv_size(descs) * 2;
			t = realloc(tmp, cap * sizeof(*tmp));
			if (!t) {
				ret = nscc_errf(err, -ENOMEM, "out of memory");
				break;
			}
			tmp = t;
		}
		for (jv_iter_init(&dit, descs), k = 0;
		     jv_next(&dit, NULL, NULL, &d); k++) {
			c.desc = (long long)k;
			ret = parse_desc(&c, d, vars, &tmp[k]);
			if (ret)
				goto out;
		}
		ret = nscc_model_add_dma_block(m, sgi, &nb, comment, tmp,
					       (uint32_t)jv_size(descs));
		if (ret) {
			ret = nscc_errf(err, ret, "%s: dma[%zu]: %s", member, i,
					ret == -ENOMEM ? "out of memory" :
					"too many descriptors");
			break;
		}
	}
out:
	free(tmp);
	return ret;
}

static int parse_queue(struct nscc_model *m, int sgi, const char *name,
		       struct jv o, struct nscc_err *err)
{
	const char *sgn = m->sgs[sgi].name, *t, *fp;
	struct nscc_dma_queue *q;
	struct jv set, e, dyn;
	struct jv_iter it;
	uint32_t *sems;
	size_t i, n;
	int ret;

#define QERR(code, fmt, ...) \
	nscc_errf(err, code, "%s: dma_queue '%s': " fmt, sgn, name, ##__VA_ARGS__)
	if (!jv_is_object(o))
		return QERR(-EINVAL, "not a JSON object");
	q = nscc_model_add_dma_queue(m, sgi, name);
	if (!q)
		return nscc_errf(err, -ENOMEM, "out of memory");
	t = dma_str(o, "type");
	if (!t)
		return QERR(-EINVAL, "field 'type' is missing or not a string");
	q->type = kbin_dma_queue_type_from_name(t);
	if (!q->type)
		return QERR(-EINVAL, "unknown type '%s' (in, data, dynamic)", t);
	t = dma_str(o, "owner");
	if (!t)
		return QERR(-EINVAL, "field 'owner' is missing or not a string");
	q->owner = kbin_dma_engine_from_name(t);
	if (!q->owner)
		return QERR(-EINVAL, "unknown owner '%s' (pe, act, pool, dve, sp)", t);
	e = jv_get(o, "num_queues");
	if (!jv_is_int(e) || jv_int(e) < 0 || jv_int(e) > UINT32_MAX)
		return QERR(-EINVAL, "field 'num_queues' is missing or not an integer 0..%u",
			    UINT32_MAX);
	q->num_queues = (uint32_t)jv_int(e);
	fp = dma_str(o, "fabric_path");
	if (!jv_is_none(jv_get(o, "fabric_path")) && !fp)
		return QERR(-EINVAL, "field 'fabric_path' is not a string");
	if (fp && !(q->fabric_path = strdup(fp)))
		return nscc_errf(err, -ENOMEM, "out of memory");
	set = jv_get(o, "semaphore_set");
	if (!jv_is_array(set))
		return QERR(-EINVAL, "field 'semaphore_set' is missing or not an array");
	n = jv_size(set);
	if (n > KBIN_MAX_LIST)
		return QERR(-E2BIG, "semaphore_set has %zu entries, at most %u", n,
			    KBIN_MAX_LIST);
	sems = malloc((n ? n : 1) * sizeof(*sems));
	if (!sems)
		return nscc_errf(err, -ENOMEM, "out of memory");
	for (jv_iter_init(&it, set), i = 0; jv_next(&it, NULL, NULL, &e); i++) {
		if (!jv_is_int(e) || jv_int(e) < 0 || jv_int(e) > UINT32_MAX) {
			free(sems);
			return QERR(-EINVAL, "semaphore_set[%zu] is not an integer 0..%u",
				    i, UINT32_MAX);
		}
		sems[i] = (uint32_t)jv_int(e);
	}
	ret = nscc_dma_queue_set_semaphores(q, sems, (uint32_t)n);
	free(sems);
	if (ret)
		return nscc_errf(err, -ENOMEM, "out of memory");
	dyn = jv_get(o, "dynamic_dma");
	if (!jv_is_none(dyn)) {
		static const char *const keys[] = {
			"SB_scratch_partition_offset", "SB_scratch_partition_size",
		};
		uint32_t v[2];

		if (!jv_is_object(dyn))
			return QERR(-EINVAL, "dynamic_dma is not a JSON object");
		for (i = 0; i < 2; i++) {
			e = jv_get(dyn, keys[i]);
			if (!jv_is_int(e) || jv_int(e) < 0 || jv_int(e) > UINT32_MAX)
				return QERR(-EINVAL, "dynamic_dma: field '%s' is missing or not an integer 0..%u",
					    keys[i], UINT32_MAX);
			v[i] = (uint32_t)jv_int(e);
		}
		q->has_dynamic = 1;
		q->sb_scratch_offset = v[0];
		q->sb_scratch_size = v[1];
	}
	return 0;
#undef QERR
}

/*
 * @kept: var_id -> the var of @sg that keeps it, the first of its var_id
 * in the var table, as the symbol table keeps it (compile.c; the others
 * are skipped, Documentation/compiler.rst, "Warnings"), so that a
 * descriptor naming a skipped var is refused rather than bound to the
 * var that kept its var_id.  nscc_hash_fini() it, also on an error.
 */
static int kept_vars(const struct nscc_subgraph *sg, struct nscc_hash *kept,
		     struct nscc_err *err)
{
	uint32_t i;
	int r;

	nscc_hash_init(kept);
	for (i = 0; i < sg->num_vars; i++) {
		r = nscc_hash_put_u32(kept, sg->vars[i].var_id,
				      (void *)&sg->vars[i], NULL);
		if (r == -ENOMEM)
			return nscc_errf(err, r, "out of memory");
	}
	return 0;
}

/**
 * nscc_defjson_dma() - the DMA queues and blocks of one subgraph.
 * @m: the model; @sgi the subgraph just read from @dj.
 * @dj: the def.json object; @vars its "var" object (names -> var_id).
 * @neff: where the engine members are read; NULL: queues only.
 * @dir: the def.json folder ("" for the top level).
 *
 * Return: 0; -EINVAL a malformed field (the message names the member,
 * block, descriptor, field and value); -ENOENT an engine member is
 * missing (named); -E2BIG a semaphore set over KBIN_MAX_LIST; -ENOMEM.
 */
int nscc_defjson_dma(struct nscc_model *m, int sgi, struct jv dj,
		     struct jv vars, struct nscc_neff *neff, const char *dir,
		     struct nscc_err *err)
{
	struct jv queues = jv_get(dj, "dma_queue"), o;
	struct nscc_subgraph *sg = &m->sgs[sgi];
	const char *qname, *mname;
	struct nscc_hash kept;
	struct jv_doc *ej;
	struct jv_iter it;
	uint32_t e;
	int ret;

	if (!jv_is_none(queues) && !jv_is_object(queues))
		return nscc_errf(err, -EINVAL, "%s: def.json field 'dma_queue' is not an object",
				 sg->name);
	jv_iter_init(&it, queues);
	while (jv_next(&it, &qname, NULL, &o)) {
		ret = parse_queue(m, sgi, qname, o, err);
		if (ret)
			return ret;
	}
	if (!neff)
		return 0;
	ret = kept_vars(sg, &kept, err);
	for (e = 1; e <= KBIN_DMA_ENGINE_MAX && !ret; e++) {
		char *path;

		o = jv_get(dj, kbin_dma_engine_str(e));
		if (jv_is_none(o))
			continue;
		mname = jv_str(o);
		if (!mname || !*mname) {
			ret = nscc_errf(err, -EINVAL, "%s: def.json field '%s' is not a member name",
					sg->name, kbin_dma_engine_str(e));
			break;
		}
		if (asprintf(&path, "%s%s%s", dir, *dir ? "/" : "", mname) < 0) {
			ret = nscc_errf(err, -ENOMEM, "out of memory");
			break;
		}
		sg->dma_members[e] = path;
		ret = nscc_neff_json(neff, path, &ej, err);
		if (ret) {
			if (ret == -ENOENT)
				nscc_errf(err, ret, "%s: def.json field '%s': member '%s' is missing from the NEFF",
					  sg->name, kbin_dma_engine_str(e), path);
			break;
		}
		ret = jv_is_object(jv_root(ej)) ?
		      parse_blocks(m, sgi, e, path, jv_root(ej), vars, &kept, err) :
		      nscc_errf(err, -EINVAL, "%s: not a JSON object", path);
		/* the instruction stream it names (defjson_prog.c) */
		if (!ret && jv_str(jv_get(jv_root(ej), "instr")) &&
		    !(sg->instr_json[e] = strdup(jv_str(jv_get(jv_root(ej), "instr")))))
			ret = nscc_errf(err, -ENOMEM, "out of memory");
		jv_free(ej);
	}
	nscc_hash_fini(&kept);
	return ret;
}
