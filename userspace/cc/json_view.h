/* SPDX-License-Identifier: GPL-2.0 */
/*
 * json_view.h - a read-only view of a parsed JSON document, the JSON
 * front end of the compiler's NEFF, def.json, tensor_map.json and engine
 * member readers (Documentation/compiler.rst, "JSON parser").
 *
 * json_view.cc implements it over simdjson's DOM parser.  It accepts
 * exactly what jansson's json_loadb(JSON_REJECT_DUPLICATES) accepts (an
 * object or array at the top, no duplicate key in any object, integers in
 * int64_t, no "\u0000" in a string, at most 2048 levels of nesting), and
 * a refusal carries jansson's own line, column and text.
 *
 * A struct jv is a handle to one value of a document; it is valid while
 * the document is.  The empty handle (doc NULL, JV_NONE) stands for "no
 * such value": every accessor takes it and answers "absent", as jansson's
 * accessors do for a NULL json_t.
 */
#ifndef JSON_VIEW_H
#define JSON_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct jv_doc;

/** struct jv - one value of a document (opaque; copy freely). */
struct jv {
	const struct jv_doc *doc;	/* NULL: no value */
	uint64_t el[2];
};

/** struct jv_iter - walks an array or object in document order. */
struct jv_iter {
	const struct jv_doc *doc;	/* NULL: nothing (left) to walk */
	int object;
	uint64_t cur[2], end[2];
};

enum jv_type {
	JV_NONE,	/* the empty handle */
	JV_NULL,
	JV_BOOL,
	JV_INT,		/* an integer (always fits int64_t) */
	JV_REAL,	/* a number with a fraction or an exponent */
	JV_STRING,
	JV_ARRAY,
	JV_OBJECT,
};

/**
 * struct jv_error - why a text was refused.
 * @line, @column: 1-based, as jansson counts them (column in UTF-8
 *	characters); 0 when not known.
 * @position: byte offset of the refusal from the start of the text.
 * @text: what is wrong, NUL-terminated ("duplicate object key near
 *	'"x"'", "end of file expected near 'x'", ...).
 */
struct jv_error {
	int line;
	int column;
	size_t position;
	char text[160];
};

/**
 * jv_parse() - parse @len bytes at @buf (no terminator needed; the bytes
 * are copied, @buf may go away after the call).
 * @out: the new document; release it with jv_free().
 * @err: filled on -EINVAL (may be NULL).
 *
 * Return: 0; -EINVAL the text is not JSON jansson's json_loadb() with
 * JSON_REJECT_DUPLICATES would take (see above; @err says where and
 * why); -ENOMEM out of memory.
 */
int jv_parse(const void *buf, size_t len, struct jv_doc **out,
	     struct jv_error *err);

/*
 * Bytes a text given to jv_parse_padded() must have readable past its end
 * (simdjson's padding; their values do not matter).
 */
#define JV_PADDING	64

/**
 * jv_parse_padded() - jv_parse() for a text followed by at least
 * JV_PADDING readable bytes: the text is parsed where it is, not copied
 * into a padded buffer first (a copy as large as the text), and may go
 * away after the call.  Return: as jv_parse().
 */
int jv_parse_padded(const void *buf, size_t len, struct jv_doc **out,
		    struct jv_error *err);

/** jv_free() - release @doc and every handle into it (NULL is fine). */
void jv_free(struct jv_doc *doc);

/** jv_root() - the top-level value (an object or an array). */
struct jv jv_root(const struct jv_doc *doc);

/** jv_type() - the JSON type of @v; JV_NONE for the empty handle. */
enum jv_type jv_type(struct jv v);

/** jv_type_name() - "object", "array", "string", "integer", "real",
 * "true", "false", "null", or "nothing" for the empty handle. */
const char *jv_type_name(struct jv v);

static inline bool jv_is_none(struct jv v) { return !v.doc; }
static inline bool jv_is_object(struct jv v) { return jv_type(v) == JV_OBJECT; }
static inline bool jv_is_array(struct jv v) { return jv_type(v) == JV_ARRAY; }
static inline bool jv_is_string(struct jv v) { return jv_type(v) == JV_STRING; }
static inline bool jv_is_int(struct jv v) { return jv_type(v) == JV_INT; }
static inline bool jv_is_real(struct jv v) { return jv_type(v) == JV_REAL; }
static inline bool jv_is_null(struct jv v) { return jv_type(v) == JV_NULL; }

/** jv_is_true() - @v is the literal true. */
bool jv_is_true(struct jv v);

/** jv_int() - the integer @v, 0 when @v is not an integer. */
int64_t jv_int(struct jv v);

/** jv_real() - the number @v (integer or real) as a double, else 0. */
double jv_real(struct jv v);

/**
 * jv_str() - the string @v, NUL-terminated (a document's strings hold no
 * NUL), valid while the document is; NULL when @v is not a string.
 */
const char *jv_str(struct jv v);

/** jv_str_len() - the string @v's length in bytes, 0 when not a string. */
size_t jv_str_len(struct jv v);

/**
 * jv_size() - the number of elements of array @v or members of object
 * @v; 0 for anything else.
 */
size_t jv_size(struct jv v);

/**
 * jv_get() - member @key of object @obj, or the empty handle (no such
 * member, or @obj is not an object).  O(1) for objects of more than 32
 * members (a hash table made at parse time), else a scan.
 */
struct jv jv_get(struct jv obj, const char *key);

/**
 * jv_get_uint() - an optional integer member @key of @obj in 0..@max.
 * @obj: the object.
 * @key: the member's name.
 * @max: the largest value allowed.
 * @out: the value when it is present and allowed; else untouched.
 * @why: on -EINVAL, what is wrong, naming @key and the value
 *	("field 'size' is not an integer", "size -1 is negative",
 *	"size 9 is over the maximum 8"); @why_len bytes at most.
 * @why_len: bytes of @why.
 *
 * Return: 1 present, 0 absent, -EINVAL not an integer, negative or over
 * @max.
 */
int jv_get_uint(struct jv obj, const char *key, uint64_t max, uint64_t *out,
		char *why, size_t why_len);

/**
 * jv_iter_init() - start a walk of array or object @v in document order
 * (a walk of anything else is empty).
 */
void jv_iter_init(struct jv_iter *it, struct jv v);

/**
 * jv_next() - the next element of an array walk, or value of an object
 * walk, into *@val; the member's key into *@key and its length into
 * *@key_len when they are not NULL (object walks; an array walk sets
 * *@key to NULL).  Return: false at the end.
 */
bool jv_next(struct jv_iter *it, const char **key, size_t *key_len,
	     struct jv *val);

#ifdef __cplusplus
}
#endif

#endif /* JSON_VIEW_H */
