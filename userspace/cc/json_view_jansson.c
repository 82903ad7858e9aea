// SPDX-License-Identifier: GPL-2.0
/*
 * json_view_jansson.c - json_view.h over jansson, the JSON front end of
 * the compiler library in the flavor that is linked statically (the VM's
 * programs and libnrt's static archive): Debian ships simdjson as a
 * shared library only (Documentation/compiler.rst, "JSON parser").
 *
 * What it takes and how it refuses is jansson's
 * json_loadb(JSON_REJECT_DUPLICATES) itself, the definition the simdjson
 * implementation (json_view.cc) is held to; objects keep their document
 * order (jansson keeps insertion order) and look keys up in jansson's
 * hash table.  A struct jv holds the json_t pointer; the document holds
 * the one reference to the root.
 */
#include <errno.h>
#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "json_view.h"

struct jv_doc {
	json_t *root;
};

static json_t *jv_json(struct jv v)
{
	return v.doc ? (json_t *)(uintptr_t)v.el[0] : NULL;
}

static struct jv jv_of(const struct jv_doc *doc, json_t *j)
{
	struct jv v = { 0 };

	if (!j)
		return v;
	v.doc = doc;
	v.el[0] = (uintptr_t)j;
	return v;
}

int jv_parse(const void *buf, size_t len, struct jv_doc **out,
	     struct jv_error *err)
{
	struct jv_doc *doc;
	json_error_t je;
	json_t *j;
	size_t n;

	*out = NULL;
	j = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je);
	if (!j) {
		if (err) {
			err->line = je.line;
			err->column = je.column;
			err->position = je.position;
			n = strnlen(je.text, sizeof(je.text));
			if (n >= sizeof(err->text))
				n = sizeof(err->text) - 1;
			memcpy(err->text, je.text, n);
			err->text[n] = 0;
		}
		/* jansson reports an allocation failure as any refusal */
		return json_error_code(&je) == json_error_out_of_memory ?
			-ENOMEM : -EINVAL;
	}
	doc = malloc(sizeof(*doc));
	if (!doc) {
		json_decref(j);
		return -ENOMEM;
	}
	doc->root = j;
	*out = doc;
	return 0;
}

int jv_parse_padded(const void *buf, size_t len, struct jv_doc **out,
		    struct jv_error *err)
{
	/* jansson reads the text where it is: no padding needed */
	return jv_parse(buf, len, out, err);
}

void jv_free(struct jv_doc *doc)
{
	if (!doc)
		return;
	json_decref(doc->root);
	free(doc);
}

struct jv jv_root(const struct jv_doc *doc)
{
	return jv_of(doc, doc->root);
}

enum jv_type jv_type(struct jv v)
{
	json_t *j = jv_json(v);

	if (!j)
		return JV_NONE;
	switch (json_typeof(j)) {
	case JSON_OBJECT:
		return JV_OBJECT;
	case JSON_ARRAY:
		return JV_ARRAY;
	case JSON_STRING:
		return JV_STRING;
	case JSON_INTEGER:
		return JV_INT;
	case JSON_REAL:
		return JV_REAL;
	case JSON_TRUE:
	case JSON_FALSE:
		return JV_BOOL;
	case JSON_NULL:
		break;
	}
	return JV_NULL;
}

bool jv_is_true(struct jv v)
{
	return json_is_true(jv_json(v));
}

int64_t jv_int(struct jv v)
{
	json_t *j = jv_json(v);

	return json_is_integer(j) ? (int64_t)json_integer_value(j) : 0;
}

double jv_real(struct jv v)
{
	return json_number_value(jv_json(v));
}

const char *jv_str(struct jv v)
{
	return json_string_value(jv_json(v));
}

size_t jv_str_len(struct jv v)
{
	return json_string_length(jv_json(v));
}

size_t jv_size(struct jv v)
{
	json_t *j = jv_json(v);

	if (json_is_object(j))
		return json_object_size(j);
	return json_array_size(j);
}

struct jv jv_get(struct jv obj, const char *key)
{
	return jv_of(obj.doc, json_object_get(jv_json(obj), key));
}

void jv_iter_init(struct jv_iter *it, struct jv v)
{
	json_t *j = jv_json(v);

	memset(it, 0, sizeof(*it));
	if (json_is_object(j)) {
		it->object = 1;
		it->cur[0] = (uintptr_t)json_object_iter(j);
	} else if (json_is_array(j)) {
		it->cur[0] = 0;
		it->end[0] = json_array_size(j);
	} else {
		return;
	}
	it->cur[1] = (uintptr_t)j;
	it->doc = v.doc;
}

bool jv_next(struct jv_iter *it, const char **key, size_t *key_len,
	     struct jv *val)
{
	json_t *j;
	void *i;

	if (!it->doc)
		return false;
	j = (json_t *)(uintptr_t)it->cur[1];
	if (it->object) {
		i = (void *)(uintptr_t)it->cur[0];
		if (!i) {
			it->doc = NULL;
			return false;
		}
		if (key)
			*key = json_object_iter_key(i);
		if (key_len)
			*key_len = strlen(json_object_iter_key(i));
		*val = jv_of(it->doc, json_object_iter_value(i));
		it->cur[0] = (uintptr_t)json_object_iter_next(j, i);
		return true;
	}
	if (it->cur[0] >= it->end[0]) {
		it->doc = NULL;
		return false;
	}
	if (key)
		*key = NULL;
	if (key_len)
		*key_len = 0;
	*val = jv_of(it->doc, json_array_get(j, it->cur[0]++));
	return true;
}
