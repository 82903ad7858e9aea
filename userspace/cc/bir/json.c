// SPDX-License-Identifier: GPL-2.0
/*
 * json.c - the JSON boundary of the BIR IR: the reader (text -> typed IR)
 * and the canonical writer (typed IR -> text), the only file that uses
 * jansson (Documentation/compiler-passes.rst, "BIR JSON").
 *
 * Reading: the module, function and block objects are walked in the
 * text (keys and the spans of their values); every other value - an
 * instruction, a set, an attribute - is decoded by jansson on its own
 * and converted at once, so no tree of the whole module is ever built.
 * Any failure is checked against jansson decoding the whole text, so
 * that a text which is not JSON gets jansson's message, exactly as when
 * the text was decoded up front; a text the walk does not follow (not
 * an object at the top) is decoded whole.
 *
 * Writing: modeled keys in a fixed order, then kept keys in input order;
 * module, function and block are written piecewise, every other object
 * is built as a small jansson tree, dumped and indented into place.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "bir.h"

#define JSON_FLAGS (JSON_INDENT(2) | JSON_PRESERVE_ORDER | \
		    JSON_REAL_PRECISION(17))

struct rd {
	struct bir_module *m;
	struct bir_function *f;
	struct nscc_err *err;
	char where[384];
	const char *text;	/* the text being walked (text mode) */
	size_t len;
	bool syntax;		/* the walk met something that is not JSON */
	int depth;		/* nesting depth of the element being read */
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

/* the walk found text that is not JSON: jansson gives the message */
static int syntax(struct rd *r)
{
	r->syntax = true;
	return -EINVAL;
}

static void where_push(struct rd *r, size_t *save, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void where_push(struct rd *r, size_t *save, const char *fmt, ...)
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
}

/* ---- typed values <-> jansson ----------------------------------------- */

/*
 * @j at nesting depth @depth of the document -> @v in r->m.  A container
 * deeper than jansson's limit for the whole text is refused as not JSON
 * (the walk decodes pieces, each within the limit on its own).
 */
static int val_from_json(struct rd *r, const json_t *j, struct bir_val *v,
			 int depth)
{
	const char *k;
	json_t *e;
	size_t i;

	memset(v, 0, sizeof(*v));
	if ((json_is_array(j) || json_is_object(j)) &&
	    depth > JSON_PARSER_MAX_DEPTH)
		return syntax(r);
	switch (json_typeof(j)) {
	case JSON_TRUE:
	case JSON_FALSE:
		*v = bir_val_bool(json_is_true(j));
		return 0;
	case JSON_INTEGER:
		*v = bir_val_int(json_integer_value(j));
		return 0;
	case JSON_REAL:
		*v = bir_val_real(json_real_value(j));
		return 0;
	case JSON_STRING:
		v->kind = BIR_VAL_STR;
		v->s = bir_str(r->m, json_string_value(j));
		return v->s ? 0 : -ENOMEM;
	case JSON_ARRAY:
		v->kind = BIR_VAL_LIST;
		if (!json_array_size(j))
			return 0;
		v->items = bir_alloc(r->m, json_array_size(j) * sizeof(*v->items));
		if (!v->items)
			return -ENOMEM;
		json_array_foreach(j, i, e) {
			int rc = val_from_json(r, e, &v->items[i], depth + 1);

			if (rc)
				return rc;
			v->n = (uint32_t)i + 1;
		}
		return 0;
	case JSON_OBJECT:
		v->kind = BIR_VAL_OBJ;
		if (!json_object_size(j))
			return 0;
		v->members = bir_alloc(r->m, json_object_size(j) *
				       sizeof(*v->members));
		if (!v->members)
			return -ENOMEM;
		json_object_foreach((json_t *)j, k, e) {
			struct bir_attr *a = &v->members[v->n];
			int rc = val_from_json(r, e, &a->v, depth + 1);

			if (rc)
				return rc;
			a->key = bir_str(r->m, k);
			if (!a->key)
				return -ENOMEM;
			v->n++;
		}
		return 0;
	default:
		return 0;	/* null */
	}
}

static json_t *val_to_json(const struct bir_val *v)
{
	json_t *j;

	switch (v->kind) {
	case BIR_VAL_BOOL:
		return json_boolean(v->b);
	case BIR_VAL_INT:
		return json_integer(v->i);
	case BIR_VAL_REAL:
		return json_real(v->r);
	case BIR_VAL_STR:
		return json_string(v->s);
	case BIR_VAL_LIST:
		j = json_array();
		for (uint32_t k = 0; j && k < v->n; k++)
			if (json_array_append_new(j, val_to_json(&v->items[k]))) {
				json_decref(j);
				return NULL;
			}
		return j;
	case BIR_VAL_OBJ:
		j = json_object();
		for (uint32_t k = 0; j && k < v->n; k++)
			if (json_object_set_new(j, v->members[k].key,
						val_to_json(&v->members[k].v))) {
				json_decref(j);
				return NULL;
			}
		return j;
	default:
		return json_null();
	}
}

static bool known_key(const char *const *known, const char *k)
{
	for (const char *const *p = known; *p; p++)
		if (!strcmp(*p, k))
			return true;
	return false;
}

/* every key of object @o (at depth @depth) not in @known -> @extra */
static int keep_extra(struct rd *r, const json_t *o, const char *const *known,
		      struct bir_val *extra, int depth)
{
	size_t n = 0, have = 0;
	const char *k;
	json_t *v;

	json_object_foreach((json_t *)o, k, v)
		if (!known_key(known, k))
			n++;
	*extra = bir_val_obj();
	if (!n)
		return 0;
	extra->members = bir_alloc(r->m, n * sizeof(*extra->members));
	if (!extra->members)
		return -ENOMEM;
	json_object_foreach((json_t *)o, k, v) {
		struct bir_attr *a = &extra->members[have];
		int rc;

		if (known_key(known, k))
			continue;
		a->key = bir_str(r->m, k);
		if (!a->key)
			return -ENOMEM;
		rc = val_from_json(r, v, &a->v, depth + 1);
		if (rc)
			return rc;
		extra->n = (uint32_t)++have;
	}
	return 0;
}

/* ---- field getters (@v: the value, NULL when absent) -------------------- */

static int str_v(struct rd *r, const json_t *v, const char *key,
		 bool required, const char **out)
{
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

static int int_v(struct rd *r, const json_t *v, const char *key, int64_t def,
		 int64_t *out)
{
	*out = def;
	if (!v)
		return 0;
	if (!json_is_integer(v))
		return fail(r, "field '%s' must be an integer", key);
	*out = json_integer_value(v);
	return 0;
}

static int get_str(struct rd *r, const json_t *o, const char *key,
		   bool required, const char **out)
{
	return str_v(r, json_object_get(o, key), key, required, out);
}

static int get_int(struct rd *r, const json_t *o, const char *key,
		   int64_t def, int64_t *out)
{
	return int_v(r, json_object_get(o, key), key, def, out);
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

/* ---- the text walk --------------------------------------------------- */

static size_t ws(const struct rd *r, size_t p)
{
	while (p < r->len && (r->text[p] == ' ' || r->text[p] == '\t' ||
			      r->text[p] == '\n' || r->text[p] == '\r'))
		p++;
	return p;
}

/*
 * the end of the JSON value at @*p (strings, nesting and scalars found
 * by their delimiters; what is inside is checked when it is decoded)
 */
static int skip_value(struct rd *r, size_t *p)
{
	size_t q = *p;
	long nest = 0;

	do {
		char c;

		if (q >= r->len)
			return syntax(r);
		c = r->text[q];
		if (c == '"') {
			for (q++; q < r->len && r->text[q] != '"'; q++)
				if (r->text[q] == '\\')
					q++;
			if (q >= r->len)
				return syntax(r);
			q++;
		} else if (c == '{' || c == '[') {
			nest++;
			q++;
		} else if (c == '}' || c == ']') {
			if (!nest)
				return syntax(r);
			nest--;
			q++;
		} else if (!nest) {
			while (q < r->len && !strchr(",:{}[]\" \t\r\n", r->text[q]))
				q++;
			if (q == *p)
				return syntax(r);
		} else {
			q++;
		}
	} while (nest);
	*p = q;
	return 0;
}

/* decode the value at [@off, @end) of the text; new reference */
static int decode_span(struct rd *r, size_t off, size_t end, json_t **out)
{
	json_error_t je;

	*out = json_loadb(r->text + off, end - off,
			  JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, &je);
	return *out ? 0 : syntax(r);
}

/* decode the value at @*p, moving @*p past it (at most to @lim) */
static int decode_at(struct rd *r, size_t *p, size_t lim, json_t **out)
{
	json_error_t je;

	*out = json_loadb(r->text + *p, lim - *p,
			  JSON_DECODE_ANY | JSON_DISABLE_EOF_CHECK |
			  JSON_REJECT_DUPLICATES, &je);
	if (!*out)
		return syntax(r);
	*p += (size_t)je.position;
	return 0;
}

/*
 * struct jo - an object being read: a jansson object (@j), or, in the
 * text, its keys with the spans of their values.
 */
struct jkey {
	char *key;
	size_t off, end;
};

struct jo {
	const json_t *j;	/* tree: the value (maybe not an object) */
	bool is_obj;
	struct jkey *keys;	/* text */
	size_t n;
	int depth;
};

static void jo_fini(struct jo *o)
{
	for (size_t k = 0; k < o->n; k++)
		free(o->keys[k].key);
	free(o->keys);
	memset(o, 0, sizeof(*o));
}

static void jo_tree(struct jo *o, const json_t *j, int depth)
{
	memset(o, 0, sizeof(*o));
	o->j = j;
	o->is_obj = json_is_object(j);
	o->depth = depth;
}

/* walk the object at @*p (text[*p] == '{') at @depth into @o */
static int jo_scan(struct rd *r, size_t *p, int depth, struct jo *o)
{
	size_t q = ws(r, *p + 1);
	json_t *seen = json_object(), *k;
	int rc = 0;

	memset(o, 0, sizeof(*o));
	o->is_obj = true;
	o->depth = depth;
	if (!seen)
		return -ENOMEM;
	if (depth > JSON_PARSER_MAX_DEPTH)
		rc = syntax(r);
	if (!rc && q < r->len && r->text[q] == '}') {
		*p = q + 1;
		json_decref(seen);
		return 0;
	}
	while (!rc) {
		struct jkey *nk;
		size_t off;

		if (q >= r->len || r->text[q] != '"' ||
		    decode_at(r, &q, r->len, &k)) {
			rc = syntax(r);
			break;
		}
		if (!json_is_string(k) ||
		    json_object_get(seen, json_string_value(k))) {
			json_decref(k);
			rc = syntax(r);		/* duplicate key */
			break;
		}
		nk = realloc(o->keys, (o->n + 1) * sizeof(*nk));
		if (!nk || json_object_set_new(seen, json_string_value(k),
					       json_null())) {
			if (nk)
				o->keys = nk;
			json_decref(k);
			rc = -ENOMEM;
			break;
		}
		o->keys = nk;
		nk[o->n].key = strdup(json_string_value(k));
		json_decref(k);
		if (!nk[o->n].key) {
			rc = -ENOMEM;
			break;
		}
		o->n++;
		q = ws(r, q);
		if (q >= r->len || r->text[q] != ':') {
			rc = syntax(r);
			break;
		}
		off = q = ws(r, q + 1);
		rc = skip_value(r, &q);
		if (rc)
			break;
		nk[o->n - 1].off = off;
		nk[o->n - 1].end = q;
		q = ws(r, q);
		if (q < r->len && r->text[q] == ',') {
			q = ws(r, q + 1);
			continue;
		}
		if (q < r->len && r->text[q] == '}') {
			*p = q + 1;
			break;
		}
		rc = syntax(r);
	}
	json_decref(seen);
	if (rc)
		jo_fini(o);
	return rc;
}

static const struct jkey *jo_key(const struct jo *o, const char *key)
{
	for (size_t k = 0; k < o->n; k++)
		if (!strcmp(o->keys[k].key, key))
			return &o->keys[k];
	return NULL;
}

/* the value of @key (new reference, NULL when absent) */
static int jo_get(struct rd *r, const struct jo *o, const char *key,
		  json_t **out)
{
	const struct jkey *k;

	*out = NULL;
	if (o->j) {
		*out = json_incref(json_object_get(o->j, key));
		return 0;
	}
	k = jo_key(o, key);
	return k ? decode_span(r, k->off, k->end, out) : 0;
}

/* string field as a pool string */
static int jo_str(struct rd *r, const struct jo *o, const char *key,
		  bool required, const char **out)
{
	const char *s;
	json_t *v;
	int rc = jo_get(r, o, key, &v);

	*out = NULL;
	if (!rc)
		rc = str_v(r, v, key, required, &s);
	if (!rc && s && !(*out = bir_str(r->m, s)))
		rc = -ENOMEM;
	json_decref(v);
	return rc;
}

static int jo_int(struct rd *r, const struct jo *o, const char *key,
		  int64_t def, int64_t *out)
{
	json_t *v;
	int rc = jo_get(r, o, key, &v);

	*out = def;
	if (!rc)
		rc = int_v(r, v, key, def, out);
	json_decref(v);
	return rc;
}

/* an optional object-valued field ("attributes") into @dst */
static int jo_obj(struct rd *r, const struct jo *o, const char *key,
		  struct bir_val *dst)
{
	json_t *v;
	int rc = jo_get(r, o, key, &v);

	if (!rc && v && !json_is_object(v))
		rc = fail(r, "field '%s' must be an object", key);
	if (!rc && v)
		rc = val_from_json(r, v, dst, o->depth + 1);
	json_decref(v);
	return rc;
}

static int jo_extra(struct rd *r, const struct jo *o, const char *const *known,
		    struct bir_val *extra)
{
	if (o->j)
		return keep_extra(r, o->j, known, extra, o->depth);
	*extra = bir_val_obj();
	for (size_t k = 0; k < o->n; k++) {
		struct bir_val x;
		json_t *v;
		int rc;

		if (known_key(known, o->keys[k].key))
			continue;
		rc = decode_span(r, o->keys[k].off, o->keys[k].end, &v);
		if (!rc)
			rc = val_from_json(r, v, &x, o->depth + 1);
		json_decref(v);
		if (!rc && bir_val_set(r->m, extra, o->keys[k].key, &x))
			rc = -ENOMEM;
		if (rc)
			return rc;
	}
	return 0;
}

/* the elements of an array-valued field, one at a time */
struct jit {
	const json_t *arr;	/* tree */
	size_t idx;
	size_t pos, end;	/* text */
	bool text, first, done;
	int depth;		/* of the elements */
};

static int jo_array(struct rd *r, const struct jo *o, const char *key,
		    struct jit *it)
{
	const struct jkey *k;

	memset(it, 0, sizeof(*it));
	it->depth = o->depth + 2;
	if (o->j) {
		it->arr = json_object_get(o->j, key);
		if (it->arr && !json_is_array(it->arr))
			return fail(r, "field '%s' must be an array", key);
		return 0;
	}
	k = jo_key(o, key);
	it->text = true;
	it->first = true;
	if (!k) {
		it->done = true;
		return 0;
	}
	if (r->text[k->off] != '[')
		return fail(r, "field '%s' must be an array", key);
	it->pos = k->off + 1;
	it->end = k->end;
	return 0;
}

/* position at the next element; 1 there is one, 0 the end */
static int jit_step(struct rd *r, struct jit *it)
{
	size_t p = ws(r, it->pos);

	if (it->done)
		return 0;
	if (p < it->end && r->text[p] == ']') {
		it->done = true;
		return p + 1 == it->end ? 0 : syntax(r);
	}
	if (!it->first) {
		if (p >= it->end || r->text[p] != ',')
			return syntax(r);
		p = ws(r, p + 1);
	}
	it->first = false;
	it->pos = p;
	return 1;
}

/* the next element decoded (new reference) */
static int jit_next(struct rd *r, struct jit *it, json_t **out)
{
	int rc;

	*out = NULL;
	if (!it->text) {
		if (!it->arr || it->idx >= json_array_size(it->arr))
			return 0;
		*out = json_incref(json_array_get(it->arr, it->idx++));
		return 1;
	}
	rc = jit_step(r, it);
	if (rc <= 0)
		return rc;
	rc = decode_at(r, &it->pos, it->end, out);
	return rc ? rc : 1;
}

/* the next element as an object being read (jo_fini() it) */
static int jit_next_jo(struct rd *r, struct jit *it, struct jo *o)
{
	int rc;

	memset(o, 0, sizeof(*o));
	if (!it->text) {
		if (!it->arr || it->idx >= json_array_size(it->arr))
			return 0;
		jo_tree(o, json_array_get(it->arr, it->idx++), it->depth);
		return 1;
	}
	rc = jit_step(r, it);
	if (rc <= 0)
		return rc;
	if (r->text[it->pos] != '{') {
		o->depth = it->depth;	/* not an object: the caller fails */
		return 1;
	}
	rc = jo_scan(r, &it->pos, it->depth, o);
	return rc ? rc : 1;
}

/* ---- reader --------------------------------------------------------- */

static const char *const loc_keys[] = {
	"name", "type", "addr", "dims", "bank", "base", "allocated", "pinned",
	"tensor_id", "runtime_reserved", "addr_space_dirty", NULL,
};

static int rd_memloc(struct rd *r, struct bir_memloc_set *s, const json_t *j,
		     int depth)
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
	    (rc = get_int(r, j, "tensor_id", -1, &ml->tensor_id)) ||
	    (rc = get_int(r, j, "addr_space_dirty", 0, &v)))
		return rc;
	if (v < 0 || v > UINT32_MAX)
		return fail(r, "field 'addr_space_dirty' is out of range (%lld)",
			    (long long)v);
	ml->addr_space_dirty = (uint32_t)v;
	rc = keep_extra(r, j, loc_keys, &ml->extra, depth);
	if (rc)
		return rc;
	r->where[save] = 0;
	return 0;
}

static const char *const set_keys[] = {
	"Skind", "name", "dtype", "tensor_shape", "scope", "memorylocations",
	NULL,
};

static int rd_set(struct rd *r, const json_t *j, int depth)
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
	if (bir_dtype_set(r->m, &s->dtype, dtype))
		return -ENOMEM;
	if (shape) {
		s->shape = bir_alloc(r->m, (json_array_size(shape) + 1) *
				     sizeof(uint64_t));
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
		if ((rc = rd_memloc(r, s, v, depth + 2)))
			return rc;
	rc = keep_extra(r, j, set_keys, &s->extra, depth);
	if (rc)
		return rc;
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

	o->ap = bir_alloc(r->m, json_array_size(a) * sizeof(*o->ap));
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

	o->dyn = bir_alloc(r->m, (json_array_size(a) + 1) * sizeof(*o->dyn));
	if (!o->dyn)
		return -ENOMEM;
	json_array_foreach(a, k, d) {
		json_t *ax = json_object_get(d, "axis");
		json_t *st = json_object_get(d, "step");

		if (!json_is_string(ax) || !json_is_integer(st))
			return fail(r, "field 'dyn' entries must be {axis, step}");
		o->dyn[k].axis = bir_str(r->m, json_string_value(ax));
		o->ndyn = (uint32_t)k + 1;
		if (!o->dyn[k].axis)
			return -ENOMEM;
		o->dyn[k].step = json_integer_value(st);
	}
	return 0;
}

static int rd_operand(struct rd *r, const json_t *j, struct bir_operand *o,
		      int depth)
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
	if (bir_dtype_set(r->m, &o->dtype, s))
		return -ENOMEM;
	if (!strcmp(skind, "physical_ap")) {
		o->kind = BIR_OPND_AP;
		if ((rc = get_str(r, j, "memref", true, &s)))
			return rc;
		if (!(o->name = bir_str(r->m, s)))
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
		if (!(o->name = bir_str(r->m, s)))
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
	return keep_extra(r, j, ap_keys, &o->extra, depth);
}

static int rd_operands(struct rd *r, struct bir_inst *i, const json_t *j,
		       bool out, int depth)
{
	const char *key = out ? "outs" : "ins";
	struct bir_operand *ops;
	json_t *a, *v;
	size_t k, save;
	int rc;

	if ((rc = get_arr(r, j, key, &a)))
		return rc;
	if (!json_array_size(a))
		return 0;
	ops = bir_alloc(r->m, json_array_size(a) * sizeof(*ops));
	if (!ops)
		return -ENOMEM;
	if (out)
		i->outs = ops;
	else
		i->ins = ops;
	json_array_foreach(a, k, v) {
		if (out)
			i->nouts = (uint32_t)k + 1;
		else
			i->nins = (uint32_t)k + 1;
		where_push(r, &save, "%s[%zu]", key, k);
		if ((rc = rd_operand(r, v, &ops[k], depth + 2)))
			return rc;
		r->where[save] = 0;
	}
	return 0;
}

static int rd_block(struct rd *r, struct bir_block *b, const struct jo *o);

static const char *const inst_keys[] = {
	"opcode", "name", "engine", "ins", "outs", "LoopAxis", "blocks",
	"scope", "deps", NULL,
};

/* "scope" (0..2^32-1) and "deps" (instruction names) of @i */
static int rd_scope_deps(struct rd *r, struct bir_inst *i, const json_t *j)
{
	json_t *deps, *v;
	int64_t scope;
	size_t k;
	int rc;

	if ((rc = get_int(r, j, "scope", 0, &scope)) ||
	    (rc = get_arr(r, j, "deps", &deps)))
		return rc;
	if (scope < 0 || scope > UINT32_MAX)
		return fail(r, "field 'scope' is out of range (%lld)",
			    (long long)scope);
	i->scope = (uint32_t)scope;
	json_array_foreach(deps, k, v) {
		if (!json_is_string(v))
			return fail(r, "field 'deps' must hold instruction names");
		/* resolved with the function's operands (bir_function_bind()) */
		if (bir_inst_add_dep(i, NULL, json_string_value(v)))
			return -ENOMEM;
	}
	return 0;
}

static int rd_loop(struct rd *r, struct bir_inst *i, const json_t *j,
		   int depth)
{
	json_t *ax = json_object_get(j, "LoopAxis"), *bl, *v;
	const char *name;
	size_t k;
	int rc;

	if (!json_is_object(ax))
		return fail(r, "Loop needs a 'LoopAxis' object");
	if ((rc = get_str(r, ax, "name", true, &name)))
		return rc;
	i->axis = bir_alloc(r->m, sizeof(*i->axis));
	if (!i->axis || !(i->axis->name = bir_str(r->m, name)))
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
	json_array_foreach(bl, k, v) {
		struct bir_block *b;
		struct jo o;

		if (!json_is_object(v))
			return fail(r, "block must be an object");
		if ((rc = get_str(r, v, "name", true, &name)))
			return rc;
		b = bir_loop_block_add(i, name);
		if (!b)
			return -ENOMEM;
		jo_tree(&o, v, depth + 2);
		if ((rc = rd_block(r, b, &o)))
			return rc;
	}
	return 0;
}

/* an instruction object at nesting depth @depth */
static int rd_inst(struct rd *r, struct bir_block *b, const json_t *j,
		   int depth)
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
	if (engine && !(i->engine = bir_str(r->m, engine)))
		return -ENOMEM;
	if ((rc = rd_operands(r, i, j, false, depth)) ||
	    (rc = rd_operands(r, i, j, true, depth)) ||
	    (rc = rd_scope_deps(r, i, j)))
		return rc;
	if (i->op == BIR_OP_LOOP && (rc = rd_loop(r, i, j, depth)))
		return rc;
	if (i->op != BIR_OP_LOOP && json_object_get(j, "blocks"))
		return fail(r, "only a Loop may have 'blocks'");
	rc = keep_extra(r, j, inst_keys, &i->attrs, depth);
	if (rc)
		return rc;
	r->where[save] = 0;
	return 0;
}

static const char *const block_keys[] = { "name", "instructions", NULL };

/* the body of block @b (its name already read) */
static int rd_block(struct rd *r, struct bir_block *b, const struct jo *o)
{
	struct jit it;
	json_t *v;
	size_t save;
	int rc;

	where_push(r, &save, "block '%s'", b->name);
	if ((rc = jo_array(r, o, "instructions", &it)))
		return rc;
	while ((rc = jit_next(r, &it, &v)) > 0) {
		rc = rd_inst(r, b, v, it.depth);
		json_decref(v);
		if (rc)
			return rc;
	}
	if (rc)
		return rc;
	if ((rc = jo_extra(r, o, block_keys, &b->extra)))
		return rc;
	r->where[save] = 0;
	return 0;
}

static const char *const reg_keys[] = { "name", NULL };

static const char *const fn_keys[] = {
	"name", "attributes", "allocations", "registers", "blocks", NULL,
};

static int rd_function(struct rd *r, const struct jo *o,
		       struct bir_function **out)
{
	const char *name, *bname;
	struct bir_function *f;
	struct jit it;
	json_t *v;
	size_t save;
	int rc;

	if (!o->is_obj)
		return fail(r, "function must be an object");
	if ((rc = jo_str(r, o, "name", true, &name)))
		return rc;
	where_push(r, &save, "function '%s'", name);
	if (bir_function_find(r->m, name))
		return fail(r, "duplicate function name");
	f = bir_function_add(r->m, name);
	if (!f)
		return -ENOMEM;
	r->f = f;
	if ((rc = jo_obj(r, o, "attributes", &f->attrs)))
		return rc;
	if ((rc = jo_array(r, o, "allocations", &it)))
		return rc;
	while ((rc = jit_next(r, &it, &v)) > 0) {
		rc = rd_set(r, v, it.depth);
		json_decref(v);
		if (rc)
			return rc;
	}
	if (rc || (rc = jo_array(r, o, "registers", &it)))
		return rc;
	while ((rc = jit_next(r, &it, &v)) > 0) {
		struct bir_register *reg = NULL;

		if (!json_is_object(v) ||
		    (rc = get_str(r, v, "name", true, &bname)))
			rc = rc ? rc : fail(r, "register must be an object");
		else if (bir_register_find(f, bname))
			rc = fail(r, "duplicate register name '%s'", bname);
		else if (!(reg = bir_register_add(f, bname)))
			rc = -ENOMEM;
		else
			rc = keep_extra(r, v, reg_keys, &reg->extra, it.depth);
		json_decref(v);
		if (rc)
			return rc;
	}
	if (rc || (rc = jo_array(r, o, "blocks", &it)))
		return rc;
	for (;;) {
		struct bir_block *b;
		struct jo bo;

		rc = jit_next_jo(r, &it, &bo);
		if (rc <= 0)
			break;
		if (!bo.is_obj)
			rc = fail(r, "block must be an object");
		else
			rc = jo_str(r, &bo, "name", true, &bname);
		if (!rc && bir_block_find(f, bname))
			rc = fail(r, "duplicate block name '%s'", bname);
		b = rc ? NULL : bir_block_add(f, bname, -1);
		if (!rc && !b)
			rc = -ENOMEM;
		if (!rc)
			rc = rd_block(r, b, &bo);
		jo_fini(&bo);
		if (rc)
			return rc;
	}
	if (rc || (rc = jo_extra(r, o, fn_keys, &f->extra)))
		return rc;
	/* names (operands, deps) resolved once, to typed references */
	bir_function_bind(f);
	r->where[save] = 0;
	if (out)
		*out = f;
	return 0;
}

static const char *const mod_keys[] = {
	"version", "arch", "attributes", "functions", NULL,
};

static int rd_module(struct rd *r, const struct jo *o)
{
	struct jit it;
	json_t *arch;
	int rc;

	if (!o->is_obj)
		return fail(r, "top level must be an object");
	r->m = bir_module_new(0);
	if (!r->m)
		return -ENOMEM;
	if ((rc = jo_int(r, o, "version", 2, &r->m->version)))
		return rc;
	if (r->m->version != 2)
		return fail(r, "field 'version' has unsupported value %lld",
			    (long long)r->m->version);
	if ((rc = jo_get(r, o, "arch", &arch)))
		return rc;
	if (json_is_integer(arch) || json_is_string(arch))
		rc = val_from_json(r, arch, &r->m->arch, o->depth + 1);
	else
		r->m->arch = (struct bir_val){ 0 };
	r->m->arch_level = rc ? 0 : bir_arch_level(&r->m->arch);
	if (!rc && !r->m->arch_level) {
		char *s = arch ? json_dumps(arch, JSON_ENCODE_ANY) : NULL;

		rc = fail(r, "field 'arch' has unknown value %s",
			  s ? s : "(missing)");
		free(s);
	}
	json_decref(arch);
	if (rc || (rc = jo_obj(r, o, "attributes", &r->m->attrs)) ||
	    (rc = jo_array(r, o, "functions", &it)))
		return rc;
	for (;;) {
		struct jo fo;

		rc = jit_next_jo(r, &it, &fo);
		if (rc <= 0)
			break;
		rc = rd_function(r, &fo, NULL);
		jo_fini(&fo);
		if (rc)
			return rc;
	}
	return rc ? rc : jo_extra(r, o, mod_keys, &r->m->extra);
}

/* finish a read: the module, or nothing and the message */
static int rd_done(struct rd *r, int rc, struct bir_module **out)
{
	if (rc) {
		if (rc == -ENOMEM && r->err)
			snprintf(r->err->msg, sizeof(r->err->msg),
				 "bir: out of memory");
		bir_module_free(r->m);
		return rc;
	}
	*out = r->m;
	return 0;
}

static int from_tree(const json_t *j, struct bir_module **out,
		     struct nscc_err *err)
{
	struct rd r = { .err = err };
	struct jo o;

	strcpy(r.where, "module");
	*out = NULL;
	jo_tree(&o, j, 1);
	return rd_done(&r, rd_module(&r, &o), out);
}

static int json_error(const json_error_t *je, struct nscc_err *err)
{
	if (err)
		snprintf(err->msg, sizeof(err->msg),
			 "bir: JSON line %d column %d: %s", je->line,
			 je->column, je->text);
	return -EINVAL;
}

int bir_module_from_string(const char *text, size_t len,
			   struct bir_module **out, struct nscc_err *err)
{
	struct rd r = { .err = err, .text = text, .len = len };
	json_error_t je;
	struct jo o;
	json_t *j;
	size_t p;
	int rc;

	*out = NULL;
	strcpy(r.where, "module");
	p = ws(&r, 0);
	if (p < len && text[p] == '{') {
		rc = jo_scan(&r, &p, 1, &o);
		if (!rc && ws(&r, p) != len)
			rc = syntax(&r);
		if (!rc)
			rc = rd_module(&r, &o);
		jo_fini(&o);
		if (rc != -ENOMEM && rc != -EINVAL)
			return rd_done(&r, rc, out);
		if (rc == -EINVAL && !r.syntax) {
			/* a text that is not JSON is reported as such first */
			j = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
			if (j) {
				json_decref(j);
				return rd_done(&r, rc, out);
			}
			bir_module_free(r.m);
			return json_error(&je, err);
		}
		if (rc == -ENOMEM)
			return rd_done(&r, rc, out);
		bir_module_free(r.m);	/* syntax: decoded whole below */
	}
	j = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
	if (!j)
		return json_error(&je, err);
	rc = from_tree(j, out, err);
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

int bir_function_from_string(struct bir_module *m, const char *text,
			     size_t len, struct bir_function **out,
			     struct nscc_err *err)
{
	struct rd r = { .m = m, .err = err };
	json_error_t je;
	json_t *j = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
	struct jo o;
	int rc;

	if (!j)
		return json_error(&je, err);
	jo_tree(&o, j, 1);
	rc = rd_function(&r, &o, out);
	json_decref(j);
	if (rc == -ENOMEM && err)
		snprintf(err->msg, sizeof(err->msg), "bir: out of memory");
	return rc;
}

int bir_val_from_string(struct bir_module *m, const char *text,
			struct bir_val *out, struct nscc_err *err)
{
	struct rd r = { .m = m, .err = err };
	json_error_t je;
	json_t *j = json_loads(text, JSON_DECODE_ANY, &je);
	int rc;

	memset(out, 0, sizeof(*out));
	if (!j)
		return json_error(&je, err);
	rc = val_from_json(&r, j, out, 1);
	json_decref(j);
	return rc;
}

/* ---- tensor map ------------------------------------------------------- */

int bir_tensor_map_load(struct bir_module *m, const char *path,
			struct nscc_err *err)
{
	struct rd r = { .m = m, .err = err };
	json_t *j = json_load_file(path, 0, NULL);
	int rc = 0;

	if (!j) {
		m->tensor_map = bir_val_obj();
		return 0;
	}
	if (!json_is_object(j)) {
		snprintf(err->msg, sizeof(err->msg),
			 "tensor map '%s' is not a JSON object", path);
		rc = -EINVAL;
	} else {
		rc = val_from_json(&r, j, &m->tensor_map, 1);
		if (rc == -ENOMEM)
			snprintf(err->msg, sizeof(err->msg), "out of memory");
	}
	json_decref(j);
	return rc;
}

int bir_tensor_map_save(const struct bir_module *m, const char *path,
			struct nscc_err *err)
{
	json_t *j = val_to_json(&m->tensor_map);
	int rc = 0;

	if (!j) {
		snprintf(err->msg, sizeof(err->msg), "out of memory");
		return -ENOMEM;
	}
	if (json_dump_file(j, path, JSON_INDENT(2) | JSON_SORT_KEYS)) {
		snprintf(err->msg, sizeof(err->msg),
			 "cannot write tensor map '%s'", path);
		rc = -EIO;
	}
	json_decref(j);
	return rc;
}

/* ---- writer: small objects as jansson trees --------------------------- */

/* set @key to @v (stealing it); 0 or -1 */
static int put(json_t *o, const char *key, json_t *v)
{
	return v ? json_object_set_new(o, key, v) : -1;
}

static int put_extra(json_t *o, const struct bir_val *extra)
{
	for (uint32_t k = 0; extra->kind == BIR_VAL_OBJ && k < extra->n; k++)
		if (put(o, extra->members[k].key,
			val_to_json(&extra->members[k].v)))
			return -1;
	return 0;
}

static json_t *done(json_t *o, int e)
{
	if (e) {
		json_decref(o);
		return NULL;
	}
	return o;
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
	if (ml->addr_space_dirty)
		e |= put(o, "addr_space_dirty",
			 json_integer(ml->addr_space_dirty));
	e |= put_extra(o, &ml->extra);
	return done(o, e);
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
		if (s->dtype.name)
			e |= put(o, "dtype", json_string(s->dtype.name));
		if (s->shape)
			e |= put(o, "tensor_shape", shape);
		shape = NULL;
		if (s->scope)
			e |= put(o, "scope", json_integer(s->scope));
		e |= put(o, "memorylocations", locs);
		locs = NULL;
		e |= put_extra(o, &s->extra);
	}
	json_decref(shape);
	json_decref(locs);
	return done(o, e);
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
	if (op->dtype.name)
		e |= put(o, "dtype", json_string(op->dtype.name));
	e |= put_extra(o, &op->extra);
	return done(o, e);
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
	if (i->scope)
		e |= put(o, "scope", json_integer(i->scope));
	if (i->ndeps) {
		a = json_array();
		for (uint32_t k = 0; a && k < i->ndeps; k++)
			e |= json_array_append_new(a, json_string(i->deps[k]));
		e |= put(o, "deps", a);
	}
	e |= put_extra(o, &i->attrs);
	return done(o, e);
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
		e |= put_extra(o, &b->extra);
	}
	json_decref(a);
	return done(o, e);
}

static json_t *wr_register(const struct bir_register *r)
{
	json_t *o = json_pack("{ss}", "name", r->name);

	return done(o, !o || put_extra(o, &r->extra));
}

/* the whole function as one tree (small functions: the NKI inliner) */
static json_t *wr_function(const struct bir_function *f)
{
	json_t *o = json_object(), *sets = json_array(), *regs = json_array();
	json_t *blocks = json_array();
	int e = !o || !sets || !regs || !blocks;

	for (uint32_t k = 0; !e && k < f->nsets; k++)
		e |= json_array_append_new(sets, wr_set(f->sets[k]));
	for (uint32_t k = 0; !e && k < f->nregs; k++)
		e |= json_array_append_new(regs, wr_register(f->regs[k]));
	for (uint32_t k = 0; !e && k < f->nblocks; k++)
		e |= json_array_append_new(blocks, wr_block(f->blocks[k]));
	if (!e) {
		e |= put(o, "name", json_string(f->name));
		e |= put(o, "attributes", val_to_json(&f->attrs));
		e |= put(o, "allocations", sets);
		sets = NULL;
		if (f->nregs)
			e |= put(o, "registers", regs);
		else
			json_decref(regs);
		regs = NULL;
		e |= put(o, "blocks", blocks);
		blocks = NULL;
		e |= put_extra(o, &f->extra);
	}
	json_decref(sets);
	json_decref(regs);
	json_decref(blocks);
	return done(o, e);
}

char *bir_function_to_string(const struct bir_function *f)
{
	json_t *j = wr_function(f);
	char *s = j ? json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER |
				 JSON_REAL_PRECISION(17)) : NULL;

	json_decref(j);
	return s;
}

/* ---- writer: the module piecewise ------------------------------------- */

/*
 * The text jansson would write for the whole tree: an object is "{",
 * then per member a newline, 2 spaces per depth, the key, ": " and the
 * value, members separated by ","; then a newline and "}" at the
 * object's depth ("{}" when empty); arrays alike with "[" "]".
 */
struct wb {
	char *s;
	size_t n, cap;
	bool oom;
};

static void wb_put(struct wb *w, const char *s, size_t n)
{
	if (w->oom)
		return;
	if (w->n + n + 1 > w->cap) {
		size_t cap = w->cap ? w->cap : 4096;
		char *ns;

		while (cap < w->n + n + 1)
			cap *= 2;
		ns = realloc(w->s, cap);
		if (!ns) {
			w->oom = true;
			return;
		}
		w->s = ns;
		w->cap = cap;
	}
	memcpy(w->s + w->n, s, n);
	w->n += n;
	w->s[w->n] = 0;
}

static void wb_nl(struct wb *w, int depth)
{
	static const char sp[] = "                                ";

	wb_put(w, "\n", 1);
	for (size_t n = (size_t)depth * 2; n;) {
		size_t k = n < sizeof(sp) - 1 ? n : sizeof(sp) - 1;

		wb_put(w, sp, k);
		n -= k;
	}
}

/* @v (stolen) dumped at @depth */
static void wb_json(struct wb *w, json_t *v, int depth)
{
	char *s = v ? json_dumps(v, JSON_FLAGS | JSON_ENCODE_ANY) : NULL;
	const char *p, *q;

	json_decref(v);
	if (!s) {
		w->oom = true;
		return;
	}
	/* jansson indents nested lines from depth 0: shift them by @depth */
	for (p = s; (q = strchr(p, '\n')); p = q + 1) {
		wb_put(w, p, (size_t)(q - p));
		wb_nl(w, depth);
	}
	wb_put(w, p, strlen(p));
	free(s);
}

/* one member: separator, indent, key (escaped as jansson does) */
static void wb_key(struct wb *w, int depth, bool *first, const char *key)
{
	if (!*first)
		wb_put(w, ",", 1);
	*first = false;
	wb_nl(w, depth + 1);
	wb_json(w, json_string(key), depth + 1);
	wb_put(w, ": ", 2);
}

static void wb_close(struct wb *w, int depth, bool empty, const char *c)
{
	if (!empty)
		wb_nl(w, depth);
	wb_put(w, c, 1);
}

/* the kept keys of @extra not already written */
static void wb_extra(struct wb *w, int depth, bool *first,
		     const struct bir_val *extra, const char *const *modeled)
{
	for (uint32_t k = 0; extra->kind == BIR_VAL_OBJ && k < extra->n; k++) {
		if (known_key(modeled, extra->members[k].key))
			continue;
		wb_key(w, depth, first, extra->members[k].key);
		wb_json(w, val_to_json(&extra->members[k].v), depth + 1);
	}
}

/*
 * a modeled member @key: its value, or the kept key of that name which a
 * tree would hold in its place
 */
static void wb_modeled(struct wb *w, int depth, bool *first, const char *key,
		       const struct bir_val *extra, json_t *v)
{
	const struct bir_val *x = bir_val_get(extra, key);

	wb_key(w, depth, first, key);
	if (x) {
		json_decref(v);
		v = val_to_json(x);
	}
	wb_json(w, v, depth + 1);
}

/*
 * a modeled member @key holding the @n items @item writes (or the kept
 * key of that name, as for wb_modeled())
 */
static void wb_items(struct wb *w, int depth, bool *first, const char *key,
		     const struct bir_val *extra, uint32_t n,
		     void (*item)(struct wb *w, const void *of, uint32_t k,
				  int depth), const void *of)
{
	const struct bir_val *x = bir_val_get(extra, key);
	bool ifirst = true;

	wb_key(w, depth, first, key);
	if (x) {
		wb_json(w, val_to_json(x), depth + 1);
		return;
	}
	wb_put(w, "[", 1);
	for (uint32_t k = 0; k < n && !w->oom; k++) {
		if (!ifirst)
			wb_put(w, ",", 1);
		ifirst = false;
		wb_nl(w, depth + 2);
		item(w, of, k, depth + 2);
	}
	wb_close(w, depth + 1, ifirst, "]");
}

static void wb_inst_item(struct wb *w, const void *of, uint32_t k, int depth)
{
	wb_json(w, wr_inst(((const struct bir_block *)of)->insts[k]), depth);
}

static void wb_block(struct wb *w, const struct bir_block *b, int depth)
{
	bool first = true;

	wb_put(w, "{", 1);
	wb_modeled(w, depth, &first, "name", &b->extra, json_string(b->name));
	wb_items(w, depth, &first, "instructions", &b->extra, b->ninsts,
		 wb_inst_item, b);
	wb_extra(w, depth, &first, &b->extra, block_keys);
	wb_close(w, depth, first, "}");
}

static void wb_set_item(struct wb *w, const void *of, uint32_t k, int depth)
{
	wb_json(w, wr_set(((const struct bir_function *)of)->sets[k]), depth);
}

static void wb_block_item(struct wb *w, const void *of, uint32_t k, int depth)
{
	wb_block(w, ((const struct bir_function *)of)->blocks[k], depth);
}

static void wb_function(struct wb *w, const struct bir_function *f, int depth)
{
	/* the modeled keys written (registers only when there are any) */
	static const char *const no_regs[] = {
		"name", "attributes", "allocations", "blocks", NULL,
	};
	bool first = true;
	json_t *regs = NULL;

	wb_put(w, "{", 1);
	wb_modeled(w, depth, &first, "name", &f->extra, json_string(f->name));
	wb_modeled(w, depth, &first, "attributes", &f->extra,
		   val_to_json(&f->attrs));
	wb_items(w, depth, &first, "allocations", &f->extra, f->nsets,
		 wb_set_item, f);
	if (f->nregs) {
		regs = json_array();
		for (uint32_t k = 0; regs && k < f->nregs; k++)
			if (json_array_append_new(regs, wr_register(f->regs[k]))) {
				json_decref(regs);
				regs = NULL;
			}
		if (!regs)
			w->oom = true;
		wb_modeled(w, depth, &first, "registers", &f->extra, regs);
	}
	wb_items(w, depth, &first, "blocks", &f->extra, f->nblocks,
		 wb_block_item, f);
	wb_extra(w, depth, &first, &f->extra, f->nregs ? fn_keys : no_regs);
	wb_close(w, depth, first, "}");
}

static void wb_function_item(struct wb *w, const void *of, uint32_t k,
			     int depth)
{
	wb_function(w, ((const struct bir_module *)of)->fns[k], depth);
}

char *bir_module_to_string(const struct bir_module *m)
{
	struct wb w = { 0 };
	bool first = true;

	wb_put(&w, "{", 1);
	wb_modeled(&w, 0, &first, "version", &m->extra,
		   json_integer(m->version));
	wb_modeled(&w, 0, &first, "arch", &m->extra, val_to_json(&m->arch));
	wb_modeled(&w, 0, &first, "attributes", &m->extra,
		   val_to_json(&m->attrs));
	wb_items(&w, 0, &first, "functions", &m->extra, m->nfns,
		 wb_function_item, m);
	wb_extra(&w, 0, &first, &m->extra, mod_keys);
	wb_close(&w, 0, first, "}");
	wb_put(&w, "\n", 1);
	if (w.oom) {
		free(w.s);
		return NULL;
	}
	return w.s;
}
