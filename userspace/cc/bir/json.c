// SPDX-License-Identifier: GPL-2.0
/*
 * json.c - BIR JSON reader and canonical writer (compiler-passes.rst; the
 * shape of KLR's public BIR schema).  Keys the IR does not model are
 * kept in ->extra (->attrs for instructions) and written back after the
 * modeled keys, in input order.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "bir.h"

#define JSON_FLAGS (JSON_INDENT(2) | JSON_PRESERVE_ORDER | \
		    JSON_REAL_PRECISION(17))

struct rd {
	struct bir_module *m;
	struct bir_function *f;
	struct nscc_err *err;
	char where[384];
};

static int fail(struct rd *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fail(struct rd *r, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!r->err)
		return -EINVAL;
	n = snprintf(r->err->msg, sizeof(r->err->msg), "bir: %s: ", r->where);
	if (n < 0 || (size_t)n >= sizeof(r->err->msg))
		n = 0;
	va_start(ap, fmt);
	vsnprintf(r->err->msg + n, sizeof(r->err->msg) - (size_t)n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* copy every key of @o not in @known (NULL-terminated) into *extra */
static int keep_extra(const json_t *o, const char *const *known,
		      json_t **extra)
{
	const char *k;
	json_t *v;

	if (!*extra && !(*extra = json_object()))
		return -ENOMEM;
	json_object_foreach((json_t *)o, k, v) {
		bool modeled = false;

		for (const char *const *p = known; *p; p++)
			if (!strcmp(*p, k))
				modeled = true;
		if (!modeled && json_object_set(*extra, k, v))
			return -ENOMEM;
	}
	return 0;
}

static int get_str(struct rd *r, const json_t *o, const char *key,
		   bool required, const char **out)
{
	json_t *v = json_object_get(o, key);

	*out = NULL;
	if (!v) {
		if (required)
			return fail(r, "missing field '%s'", key);
		return 0;
	}
	if (!json_is_string(v))
		return fail(r, "field '%s' must be a string", key);
	*out = json_string_value(v);
	return 0;
}

static int get_int(struct rd *r, const json_t *o, const char *key,
		   int64_t def, int64_t *out)
{
	json_t *v = json_object_get(o, key);

	*out = def;
	if (!v)
		return 0;
	if (!json_is_integer(v))
		return fail(r, "field '%s' must be an integer", key);
	*out = json_integer_value(v);
	return 0;
}

static int get_u64(struct rd *r, const json_t *o, const char *key,
		   uint64_t *out)
{
	int64_t v;
	int rc = get_int(r, o, key, 0, &v);

	if (rc)
		return rc;
	if (v < 0)
		return fail(r, "field '%s' is negative (%lld)", key,
			    (long long)v);
	*out = (uint64_t)v;
	return 0;
}

static int get_bool(struct rd *r, const json_t *o, const char *key, bool *out)
{
	json_t *v = json_object_get(o, key);

	*out = false;
	if (!v)
		return 0;
	if (!json_is_boolean(v))
		return fail(r, "field '%s' must be true or false", key);
	*out = json_is_true(v);
	return 0;
}

static int get_arr(struct rd *r, const json_t *o, const char *key,
		   json_t **out)
{
	json_t *v = json_object_get(o, key);

	*out = v;
	if (v && !json_is_array(v))
		return fail(r, "field '%s' must be an array", key);
	return 0;
}

static int where_push(struct rd *r, size_t *save, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int where_push(struct rd *r, size_t *save, const char *fmt, ...)
{
	size_t n = strlen(r->where);
	va_list ap;

	*save = n;
	if (n && n + 2 < sizeof(r->where)) {
		strcpy(r->where + n, ": ");
		n += 2;
	}
	va_start(ap, fmt);
	vsnprintf(r->where + n, sizeof(r->where) - n, fmt, ap);
	va_end(ap);
	return 0;
}

/* ---- reader --------------------------------------------------------- */

static const char *const loc_keys[] = {
	"name", "type", "addr", "dims", "bank", "base", "allocated", "pinned",
	"tensor_id", "runtime_reserved", NULL,
};

static int rd_memloc(struct rd *r, struct bir_memloc_set *s, const json_t *j)
{
	const char *name, *type;
	struct bir_memloc *ml;
	json_t *dims, *tv;
	int64_t v;
	size_t save;
	int rc;

	if (!json_is_object(j))
		return fail(r, "memorylocations entry must be an object");
	rc = get_str(r, j, "name", true, &name);
	if (rc)
		return rc;
	if (bir_memloc_find(r->f, name))
		return fail(r, "duplicate memory location name '%s'", name);
	where_push(r, &save, "memory location '%s'", name);
	ml = bir_memloc_add(s, name);
	if (!ml)
		return -ENOMEM;
	tv = json_object_get(j, "type");
	if (json_is_string(tv)) {
		type = json_string_value(tv);
		ml->type = bir_mem_type_from_name(type);
		if (!ml->type)
			return fail(r, "field 'type' has unknown value '%s'",
				    type);
	} else if (json_is_integer(tv)) {
		v = json_integer_value(tv);
		if (v <= 0 || v > 128 || (v & (v - 1)))
			return fail(r, "field 'type' has unknown value %lld",
				    (long long)v);
		ml->type = (uint32_t)v;
	} else {
		return fail(r, "field 'type' must be a MemoryType name");
	}
	if ((rc = get_u64(r, j, "addr", &ml->addr)) ||
	    (rc = get_arr(r, j, "dims", &dims)))
		return rc;
	if (!dims || json_array_size(dims) != 2 ||
	    !json_is_integer(json_array_get(dims, 0)) ||
	    !json_is_integer(json_array_get(dims, 1)) ||
	    json_integer_value(json_array_get(dims, 0)) < 0 ||
	    json_integer_value(json_array_get(dims, 1)) < 0)
		return fail(r, "field 'dims' must be [partitions, bytes per partition]");
	ml->dims[0] = (uint64_t)json_integer_value(json_array_get(dims, 0));
	ml->dims[1] = (uint64_t)json_integer_value(json_array_get(dims, 1));
	if ((rc = get_int(r, j, "bank", 0, &v)))
		return rc;
	ml->bank = (uint32_t)v;
	if ((rc = get_int(r, j, "base", 0, &v)))
		return rc;
	if (v < 0 || v > 127)
		return fail(r, "field 'base' is out of range (%lld)",
			    (long long)v);
	ml->base = (uint32_t)v;
	if ((rc = get_bool(r, j, "allocated", &ml->allocated)) ||
	    (rc = get_bool(r, j, "pinned", &ml->pinned)) ||
	    (rc = get_bool(r, j, "runtime_reserved", &ml->runtime_reserved)) ||
	    (rc = get_int(r, j, "tensor_id", -1, &ml->tensor_id)))
		return rc;
	if (keep_extra(j, loc_keys, &ml->extra))
		return -ENOMEM;
	r->where[save] = 0;
	return 0;
}

static const char *const set_keys[] = {
	"Skind", "name", "dtype", "tensor_shape", "scope", "memorylocations",
	NULL,
};

static int rd_set(struct rd *r, const json_t *j)
{
	const char *name, *skind, *dtype;
	struct bir_memloc_set *s;
	json_t *shape, *locs, *v;
	size_t save, k;
	int64_t scope;
	int rc;

	if (!json_is_object(j))
		return fail(r, "allocations entry must be an object");
	if ((rc = get_str(r, j, "name", true, &name)))
		return rc;
	where_push(r, &save, "allocation '%s'", name);
	if ((rc = get_str(r, j, "Skind", true, &skind)))
		return rc;
	if (strcmp(skind, "memory_location_set"))
		return fail(r, "field 'Skind' has unknown value '%s'", skind);
	if (bir_name_taken(r->f, BIR_NK_SET, name))
		return fail(r, "duplicate allocation name");
	s = bir_set_add(r->f, name);
	if (!s)
		return -ENOMEM;
	if ((rc = get_str(r, j, "dtype", false, &dtype)) ||
	    (rc = get_arr(r, j, "tensor_shape", &shape)) ||
	    (rc = get_int(r, j, "scope", 0, &scope)) ||
	    (rc = get_arr(r, j, "memorylocations", &locs)))
		return rc;
	s->scope = (int)scope;
	if (dtype && !(s->dtype = strdup(dtype)))
		return -ENOMEM;
	if (shape) {
		s->shape = calloc(json_array_size(shape) + 1, sizeof(uint64_t));
		if (!s->shape)
			return -ENOMEM;
		json_array_foreach(shape, k, v) {
			if (!json_is_integer(v) || json_integer_value(v) < 0)
				return fail(r, "field 'tensor_shape' must hold non-negative integers");
			s->shape[k] = (uint64_t)json_integer_value(v);
		}
		s->nshape = (uint32_t)json_array_size(shape);
	}
	json_array_foreach(locs, k, v)
		if ((rc = rd_memloc(r, s, v)))
			return rc;
	if (keep_extra(j, set_keys, &s->extra))
		return -ENOMEM;
	if (bir_set_build_tid_index(s))
		return -ENOMEM;
	r->where[save] = 0;
	return 0;
}

static const char *const ap_keys[] = {
	"Skind", "memref", "offset", "ap", "dyn", "dtype", "reg", "value", NULL,
};

static int rd_pairs(struct rd *r, const json_t *a, struct bir_operand *o)
{
	json_t *p;
	size_t k;

	o->ap = calloc(json_array_size(a) + 1, sizeof(*o->ap));
	if (!o->ap)
		return -ENOMEM;
	json_array_foreach(a, k, p) {
		if (!json_is_array(p) || json_array_size(p) != 2 ||
		    !json_is_integer(json_array_get(p, 0)) ||
		    !json_is_integer(json_array_get(p, 1)))
			return fail(r, "field 'ap' must be an array of [step, num] pairs");
		o->ap[k].step = json_integer_value(json_array_get(p, 0));
		o->ap[k].num = json_integer_value(json_array_get(p, 1));
		if (o->ap[k].num < 0)
			return fail(r, "field 'ap': num %lld is negative",
				    (long long)o->ap[k].num);
	}
	o->nap = (uint32_t)json_array_size(a);
	return 0;
}

static int rd_dyn(struct rd *r, const json_t *a, struct bir_operand *o)
{
	json_t *d;
	size_t k;

	o->dyn = calloc(json_array_size(a) + 1, sizeof(*o->dyn));
	if (!o->dyn)
		return -ENOMEM;
	json_array_foreach(a, k, d) {
		json_t *ax = json_object_get(d, "axis");
		json_t *st = json_object_get(d, "step");

		if (!json_is_string(ax) || !json_is_integer(st))
			return fail(r, "field 'dyn' entries must be {axis, step}");
		o->dyn[k].axis = strdup(json_string_value(ax));
		o->ndyn = (uint32_t)k + 1;
		if (!o->dyn[k].axis)
			return -ENOMEM;
		o->dyn[k].step = json_integer_value(st);
	}
	return 0;
}

static int rd_operand(struct rd *r, const json_t *j, struct bir_operand *o)
{
	const char *skind, *s;
	json_t *a;
	int rc;

	if (!json_is_object(j))
		return fail(r, "operand must be an object");
	if ((rc = get_str(r, j, "Skind", true, &skind)))
		return rc;
	if ((rc = get_str(r, j, "dtype", false, &s)))
		return rc;
	if (s && !(o->dtype = strdup(s)))
		return -ENOMEM;
	if (!strcmp(skind, "physical_ap")) {
		o->kind = BIR_OPND_AP;
		if ((rc = get_str(r, j, "memref", true, &s)))
			return rc;
		if (!(o->name = strdup(s)))
			return -ENOMEM;
		if ((rc = get_int(r, j, "offset", 0, &o->offset)) ||
		    (rc = get_arr(r, j, "ap", &a)))
			return rc;
		if (!a)
			return fail(r, "missing field 'ap'");
		if ((rc = rd_pairs(r, a, o)))
			return rc;
		if ((rc = get_arr(r, j, "dyn", &a)))
			return rc;
		if (a && (rc = rd_dyn(r, a, o)))
			return rc;
	} else if (!strcmp(skind, "register_access")) {
		o->kind = BIR_OPND_REG;
		if ((rc = get_str(r, j, "reg", true, &s)))
			return rc;
		if (!(o->name = strdup(s)))
			return -ENOMEM;
	} else if (!strcmp(skind, "imm_value")) {
		o->kind = BIR_OPND_IMM;
		a = json_object_get(j, "value");
		if (!json_is_number(a))
			return fail(r, "field 'value' must be a number");
		o->imm = json_number_value(a);
	} else {
		return fail(r, "field 'Skind' has unknown value '%s'", skind);
	}
	return keep_extra(j, ap_keys, &o->extra) ? -ENOMEM : 0;
}

static int rd_operands(struct rd *r, struct bir_inst *i, const json_t *j,
		       bool out)
{
	const char *key = out ? "outs" : "ins";
	json_t *a, *v;
	size_t k, save;
	int rc;

	if ((rc = get_arr(r, j, key, &a)))
		return rc;
	json_array_foreach(a, k, v) {
		struct bir_operand *o = bir_operand_add(i, out, 0, NULL);

		if (!o)
			return -ENOMEM;
		where_push(r, &save, "%s[%zu]", key, k);
		if ((rc = rd_operand(r, v, o)))
			return rc;
		r->where[save] = 0;
	}
	return 0;
}

static int rd_block(struct rd *r, struct bir_block *b, const json_t *j);

static const char *const inst_keys[] = {
	"opcode", "name", "engine", "ins", "outs", "LoopAxis", "blocks", NULL,
};

static int rd_loop(struct rd *r, struct bir_inst *i, const json_t *j)
{
	json_t *ax = json_object_get(j, "LoopAxis"), *bl, *v;
	const char *name;
	size_t k;
	int rc;

	if (!json_is_object(ax))
		return fail(r, "Loop needs a 'LoopAxis' object");
	if ((rc = get_str(r, ax, "name", true, &name)))
		return rc;
	i->axis = calloc(1, sizeof(*i->axis));
	if (!i->axis || !(i->axis->name = strdup(name)))
		return -ENOMEM;
	if ((rc = get_int(r, ax, "lb", 0, &i->axis->lb)) ||
	    (rc = get_int(r, ax, "ub", 0, &i->axis->ub)) ||
	    (rc = get_int(r, ax, "stride", 1, &i->axis->stride)))
		return rc;
	if (i->axis->stride <= 0)
		return fail(r, "LoopAxis 'stride' must be positive (%lld)",
			    (long long)i->axis->stride);
	if ((rc = get_arr(r, j, "blocks", &bl)))
		return rc;
	i->blocks = calloc(json_array_size(bl) + 1, sizeof(*i->blocks));
	if (!i->blocks)
		return -ENOMEM;
	json_array_foreach(bl, k, v) {
		struct bir_block *b = calloc(1, sizeof(*b));

		if (!b)
			return -ENOMEM;
		i->blocks[k] = b;
		i->nblocks = (uint32_t)k + 1;
		b->loop = i;
		b->id = ++r->m->next_id;
		if ((rc = rd_block(r, b, v)))
			return rc;
	}
	return 0;
}

static int rd_inst(struct rd *r, struct bir_block *b, const json_t *j)
{
	const char *opname, *name, *engine;
	struct bir_inst *i;
	size_t save;
	int rc;

	if (!json_is_object(j))
		return fail(r, "instruction must be an object");
	if ((rc = get_str(r, j, "name", true, &name)))
		return rc;
	where_push(r, &save, "instruction '%s'", name);
	if ((rc = get_str(r, j, "opcode", true, &opname)) ||
	    (rc = get_str(r, j, "engine", false, &engine)))
		return rc;
	if (bir_inst_find(r->f, name))
		return fail(r, "duplicate instruction name");
	i = bir_inst_new(r->m, opname, name);
	if (!i)
		return -ENOMEM;
	if (bir_inst_insert(b, i, -1)) {
		bir_inst_free(i);
		return -ENOMEM;
	}
	if (engine && !(i->engine = strdup(engine)))
		return -ENOMEM;
	if ((rc = rd_operands(r, i, j, false)) ||
	    (rc = rd_operands(r, i, j, true)))
		return rc;
	if (i->op == BIR_OP_LOOP && (rc = rd_loop(r, i, j)))
		return rc;
	if (i->op != BIR_OP_LOOP && json_object_get(j, "blocks"))
		return fail(r, "only a Loop may have 'blocks'");
	if (keep_extra(j, inst_keys, &i->attrs))
		return -ENOMEM;
	r->where[save] = 0;
	return 0;
}

static const char *const block_keys[] = { "name", "instructions", NULL };

static int rd_block(struct rd *r, struct bir_block *b, const json_t *j)
{
	const char *name;
	json_t *a, *v;
	size_t k, save;
	int rc;

	if (!json_is_object(j))
		return fail(r, "block must be an object");
	if ((rc = get_str(r, j, "name", true, &name)))
		return rc;
	if (!b->name && !(b->name = strdup(name)))
		return -ENOMEM;
	where_push(r, &save, "block '%s'", name);
	if ((rc = get_arr(r, j, "instructions", &a)))
		return rc;
	json_array_foreach(a, k, v)
		if ((rc = rd_inst(r, b, v)))
			return rc;
	if (keep_extra(j, block_keys, &b->extra))
		return -ENOMEM;
	r->where[save] = 0;
	return 0;
}

static const char *const reg_keys[] = { "name", NULL };

static const char *const fn_keys[] = {
	"name", "attributes", "allocations", "registers", "blocks", NULL,
};

static int rd_function(struct rd *r, const json_t *j,
		       struct bir_function **out)
{
	const char *name, *bname;
	json_t *a, *v, *attrs;
	struct bir_function *f;
	size_t k, save;
	int rc;

	if (!json_is_object(j))
		return fail(r, "function must be an object");
	if ((rc = get_str(r, j, "name", true, &name)))
		return rc;
	where_push(r, &save, "function '%s'", name);
	if (bir_function_find(r->m, name))
		return fail(r, "duplicate function name");
	f = bir_function_add(r->m, name);
	if (!f)
		return -ENOMEM;
	r->f = f;
	attrs = json_object_get(j, "attributes");
	if (attrs && !json_is_object(attrs))
		return fail(r, "field 'attributes' must be an object");
	if (attrs && json_object_update(f->attrs, attrs))
		return -ENOMEM;
	if ((rc = get_arr(r, j, "allocations", &a)))
		return rc;
	json_array_foreach(a, k, v)
		if ((rc = rd_set(r, v)))
			return rc;
	if ((rc = get_arr(r, j, "registers", &a)))
		return rc;
	json_array_foreach(a, k, v) {
		struct bir_register *reg;

		if (!json_is_object(v) ||
		    (rc = get_str(r, v, "name", true, &bname)))
			return rc ? rc : fail(r, "register must be an object");
		if (bir_register_find(f, bname))
			return fail(r, "duplicate register name '%s'", bname);
		reg = bir_register_add(f, bname);
		if (!reg)
			return -ENOMEM;
		if (keep_extra(v, reg_keys, &reg->extra))
			return -ENOMEM;
	}
	if ((rc = get_arr(r, j, "blocks", &a)))
		return rc;
	json_array_foreach(a, k, v) {
		struct bir_block *b;

		if (!json_is_object(v) ||
		    (rc = get_str(r, v, "name", true, &bname)))
			return rc ? rc : fail(r, "block must be an object");
		if (bir_block_find(f, bname))
			return fail(r, "duplicate block name '%s'", bname);
		b = bir_block_add(f, bname, -1);
		if (!b)
			return -ENOMEM;
		if ((rc = rd_block(r, b, v)))
			return rc;
	}
	if (keep_extra(j, fn_keys, &f->extra))
		return -ENOMEM;
	r->where[save] = 0;
	if (out)
		*out = f;
	return 0;
}

int bir_function_from_json(struct bir_module *m, const json_t *j,
			   struct bir_function **out, struct nscc_err *err)
{
	struct rd r = { .m = m, .err = err };

	return rd_function(&r, j, out);
}

static const char *const mod_keys[] = {
	"version", "arch", "attributes", "functions", NULL,
};

int bir_module_from_json(const json_t *j, struct bir_module **out,
			 struct nscc_err *err)
{
	struct rd r = { .err = err };
	json_t *arch, *attrs, *fns, *v;
	size_t k;
	int rc;

	strcpy(r.where, "module");
	*out = NULL;
	if (!json_is_object(j))
		return fail(&r, "top level must be an object");
	r.m = bir_module_new(0);
	if (!r.m)
		return -ENOMEM;
	if ((rc = get_int(&r, j, "version", 2, &r.m->version)))
		goto out;
	if (r.m->version != 2) {
		rc = fail(&r, "field 'version' has unsupported value %lld",
			  (long long)r.m->version);
		goto out;
	}
	arch = json_object_get(j, "arch");
	r.m->arch_level = bir_arch_level(arch);
	if (!r.m->arch_level) {
		char *s = arch ? json_dumps(arch, JSON_ENCODE_ANY) : NULL;

		rc = fail(&r, "field 'arch' has unknown value %s",
			  s ? s : "(missing)");
		free(s);
		goto out;
	}
	json_decref(r.m->arch);
	r.m->arch = json_incref(arch);
	attrs = json_object_get(j, "attributes");
	if (attrs && !json_is_object(attrs)) {
		rc = fail(&r, "field 'attributes' must be an object");
		goto out;
	}
	rc = -ENOMEM;
	if (attrs && json_object_update(r.m->attrs, attrs))
		goto out;
	if ((rc = get_arr(&r, j, "functions", &fns)))
		goto out;
	json_array_foreach(fns, k, v)
		if ((rc = rd_function(&r, v, NULL)))
			goto out;
	rc = keep_extra(j, mod_keys, &r.m->extra) ? -ENOMEM : 0;
out:
	if (rc) {
		if (rc == -ENOMEM && err)
			snprintf(err->msg, sizeof(err->msg),
				 "bir: out of memory");
		bir_module_free(r.m);
		return rc;
	}
	*out = r.m;
	return 0;
}

int bir_module_from_string(const char *text, size_t len,
			   struct bir_module **out, struct nscc_err *err)
{
	json_error_t je;
	json_t *j = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
	int rc;

	*out = NULL;
	if (!j) {
		if (err)
			snprintf(err->msg, sizeof(err->msg),
				 "bir: JSON line %d column %d: %s", je.line,
				 je.column, je.text);
		return -EINVAL;
	}
	rc = bir_module_from_json(j, out, err);
	json_decref(j);
	return rc;
}

int bir_module_from_file(const char *path, struct bir_module **out,
			 struct nscc_err *err)
{
	FILE *fp = fopen(path, "rb");
	char *buf = NULL;
	size_t len = 0, cap = 0, n;
	int rc;

	*out = NULL;
	if (!fp) {
		rc = -errno;
		if (err)
			snprintf(err->msg, sizeof(err->msg), "%s: %s", path,
				 strerror(-rc));
		return rc;
	}
	do {
		if (len + 4096 > cap) {
			char *nb = realloc(buf, cap = cap * 2 + 8192);

			if (!nb) {
				free(buf);
				fclose(fp);
				return -ENOMEM;
			}
			buf = nb;
		}
		n = fread(buf + len, 1, cap - len, fp);
		len += n;
	} while (n);
	fclose(fp);
	rc = bir_module_from_string(buf, len, out, err);
	free(buf);
	return rc;
}

/* ---- writer --------------------------------------------------------- */

/* set @key to @v (stealing it); 0 or -1 */
static int put(json_t *o, const char *key, json_t *v)
{
	return v ? json_object_set_new(o, key, v) : -1;
}

static int put_extra(json_t *o, const json_t *extra)
{
	const char *k;
	json_t *v;

	json_object_foreach((json_t *)extra, k, v)
		if (json_object_set_new(o, k, json_deep_copy(v)))
			return -1;
	return 0;
}

static json_t *wr_memloc(const struct bir_memloc *ml)
{
	json_t *o = json_object();
	const char *tn = bir_mem_type_name(ml->type);
	int e = !o;

	if (e)
		return NULL;
	e |= put(o, "name", json_string(ml->name));
	e |= put(o, "type", tn ? json_string(tn) : json_integer(ml->type));
	e |= put(o, "addr", json_integer((json_int_t)ml->addr));
	e |= put(o, "dims", json_pack("[II]", (json_int_t)ml->dims[0],
				      (json_int_t)ml->dims[1]));
	e |= put(o, "bank", json_integer(ml->bank));
	e |= put(o, "base", json_integer(ml->base));
	e |= put(o, "allocated", json_boolean(ml->allocated));
	e |= put(o, "pinned", json_boolean(ml->pinned));
	e |= put(o, "tensor_id", json_integer(ml->tensor_id));
	e |= put(o, "runtime_reserved", json_boolean(ml->runtime_reserved));
	e |= put_extra(o, ml->extra);
	if (e) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *wr_set(const struct bir_memloc_set *s)
{
	json_t *o = json_object(), *locs = json_array(), *shape = NULL;
	int e = !o || !locs;

	if (!e && s->shape) {
		shape = json_array();
		for (uint32_t k = 0; shape && k < s->nshape; k++)
			e |= json_array_append_new(shape,
					json_integer((json_int_t)s->shape[k]));
	}
	for (uint32_t k = 0; !e && k < s->nlocs; k++)
		e |= json_array_append_new(locs, wr_memloc(s->locs[k]));
	if (!e) {
		e |= put(o, "Skind", json_string("memory_location_set"));
		e |= put(o, "name", json_string(s->name));
		if (s->dtype)
			e |= put(o, "dtype", json_string(s->dtype));
		if (s->shape)
			e |= put(o, "tensor_shape", shape);
		shape = NULL;
		if (s->scope)
			e |= put(o, "scope", json_integer(s->scope));
		e |= put(o, "memorylocations", locs);
		locs = NULL;
		e |= put_extra(o, s->extra);
	}
	json_decref(shape);
	json_decref(locs);
	if (e) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *wr_operand(const struct bir_operand *op)
{
	json_t *o = json_object(), *a;
	int e = !o;

	if (e)
		return NULL;
	switch (op->kind) {
	case BIR_OPND_AP:
		e |= put(o, "Skind", json_string("physical_ap"));
		e |= put(o, "memref", json_string(op->name));
		e |= put(o, "offset", json_integer(op->offset));
		a = json_array();
		for (uint32_t k = 0; a && k < op->nap; k++)
			e |= json_array_append_new(a, json_pack("[II]",
					(json_int_t)op->ap[k].step,
					(json_int_t)op->ap[k].num));
		e |= put(o, "ap", a);
		if (op->ndyn) {
			a = json_array();
			for (uint32_t k = 0; a && k < op->ndyn; k++)
				e |= json_array_append_new(a,
					json_pack("{sssI}", "axis",
						  op->dyn[k].axis, "step",
						  (json_int_t)op->dyn[k].step));
			e |= put(o, "dyn", a);
		}
		break;
	case BIR_OPND_REG:
		e |= put(o, "Skind", json_string("register_access"));
		e |= put(o, "reg", json_string(op->name));
		break;
	default:
		e |= put(o, "Skind", json_string("imm_value"));
		e |= put(o, "value", json_real(op->imm));
		break;
	}
	if (op->dtype)
		e |= put(o, "dtype", json_string(op->dtype));
	if (op->extra)
		e |= put_extra(o, op->extra);
	if (e) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *wr_block(const struct bir_block *b);

static json_t *wr_inst(const struct bir_inst *i)
{
	json_t *o = json_object(), *a;
	int e = !o;

	if (e)
		return NULL;
	e |= put(o, "opcode", json_string(i->opname));
	e |= put(o, "name", json_string(i->name));
	if (i->engine)
		e |= put(o, "engine", json_string(i->engine));
	for (int side = 0; side < 2; side++) {
		const struct bir_operand *v = side ? i->outs : i->ins;
		uint32_t n = side ? i->nouts : i->nins;

		a = json_array();
		for (uint32_t k = 0; a && k < n; k++)
			e |= json_array_append_new(a, wr_operand(&v[k]));
		e |= put(o, side ? "outs" : "ins", a);
	}
	if (i->axis) {
		e |= put(o, "LoopAxis", json_pack("{sssIsIsI}", "name",
				i->axis->name, "lb", (json_int_t)i->axis->lb,
				"ub", (json_int_t)i->axis->ub, "stride",
				(json_int_t)i->axis->stride));
		a = json_array();
		for (uint32_t k = 0; a && k < i->nblocks; k++)
			e |= json_array_append_new(a, wr_block(i->blocks[k]));
		e |= put(o, "blocks", a);
	}
	e |= put_extra(o, i->attrs);
	if (e) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *wr_block(const struct bir_block *b)
{
	json_t *o = json_object(), *a = json_array();
	int e = !o || !a;

	for (uint32_t k = 0; !e && k < b->ninsts; k++)
		e |= json_array_append_new(a, wr_inst(b->insts[k]));
	if (!e) {
		e |= put(o, "name", json_string(b->name));
		e |= put(o, "instructions", a);
		a = NULL;
		e |= put_extra(o, b->extra);
	}
	json_decref(a);
	if (e) {
		json_decref(o);
		return NULL;
	}
	return o;
}

json_t *bir_function_to_json(const struct bir_function *f)
{
	json_t *o = json_object(), *sets = json_array(), *regs = json_array();
	json_t *blocks = json_array();
	int e = !o || !sets || !regs || !blocks;

	for (uint32_t k = 0; !e && k < f->nsets; k++)
		e |= json_array_append_new(sets, wr_set(f->sets[k]));
	for (uint32_t k = 0; !e && k < f->nregs; k++) {
		json_t *r = json_pack("{ss}", "name", f->regs[k]->name);

		e |= !r || put_extra(r, f->regs[k]->extra);
		e |= json_array_append_new(regs, r);
	}
	for (uint32_t k = 0; !e && k < f->nblocks; k++)
		e |= json_array_append_new(blocks, wr_block(f->blocks[k]));
	if (!e) {
		e |= put(o, "name", json_string(f->name));
		e |= put(o, "attributes", json_deep_copy(f->attrs));
		e |= put(o, "allocations", sets);
		sets = NULL;
		if (f->nregs)
			e |= put(o, "registers", regs);
		else
			json_decref(regs);
		regs = NULL;
		e |= put(o, "blocks", blocks);
		blocks = NULL;
		e |= put_extra(o, f->extra);
	}
	json_decref(sets);
	json_decref(regs);
	json_decref(blocks);
	if (e) {
		json_decref(o);
		return NULL;
	}
	return o;
}

json_t *bir_module_to_json(const struct bir_module *m)
{
	json_t *o = json_object(), *fns = json_array();
	int e = !o || !fns;

	for (uint32_t k = 0; !e && k < m->nfns; k++)
		e |= json_array_append_new(fns, bir_function_to_json(m->fns[k]));
	if (!e) {
		e |= put(o, "version", json_integer(m->version));
		e |= put(o, "arch", json_deep_copy(m->arch));
		e |= put(o, "attributes", json_deep_copy(m->attrs));
		e |= put(o, "functions", fns);
		fns = NULL;
		e |= put_extra(o, m->extra);
	}
	json_decref(fns);
	if (e) {
		json_decref(o);
		return NULL;
	}
	return o;
}

char *bir_module_to_string(const struct bir_module *m)
{
	json_t *j = bir_module_to_json(m);
	char *s, *t;

	if (!j)
		return NULL;
	s = json_dumps(j, JSON_FLAGS);
	json_decref(j);
	if (!s)
		return NULL;
	if (asprintf(&t, "%s\n", s) < 0)
		t = NULL;
	free(s);
	return t;
}
