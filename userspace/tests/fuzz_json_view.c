// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_json_view.c - libFuzzer target of the compiler's JSON view
 * (userspace/cc/json_view.h, Documentation/compiler.rst, "JSON parser"):
 * each input is parsed by the view and by jansson's
 * json_loadb(JSON_REJECT_DUPLICATES); the two must take or refuse it
 * alike (a refusal with the same line, column and text) and a taken one
 * must read the same through both.  A taken input is then read as a
 * subgraph's def.json (nscc_defjson_load_subgraph(), no NEFF): any
 * refusal is fine, a crash, leak or sanitizer report is not.
 */
#include <errno.h>
#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "json_view.h"
#include "nscc_internal.h"

/* abort() unless @j and @v read the same, recursively */
static void same(json_t *j, struct jv v)
{
	struct jv_iter it;
	const char *key;
	struct jv e;
	size_t i = 0, kl;
	void *ji;

	switch (json_typeof(j)) {
	case JSON_OBJECT:
		if (!jv_is_object(v) || jv_size(v) != json_object_size(j))
			abort();
		ji = json_object_iter(j);
		jv_iter_init(&it, v);
		while (jv_next(&it, &key, &kl, &e)) {
			if (!ji || strcmp(json_object_iter_key(ji), key) ||
			    strlen(key) != kl)
				abort();
			same(json_object_iter_value(ji), e);
			same(json_object_iter_value(ji), jv_get(v, key));
			ji = json_object_iter_next(j, ji);
		}
		if (ji)
			abort();
		return;
	case JSON_ARRAY:
		if (!jv_is_array(v) || jv_size(v) != json_array_size(j))
			abort();
		jv_iter_init(&it, v);
		while (jv_next(&it, NULL, NULL, &e))
			same(json_array_get(j, i++), e);
		if (i != json_array_size(j))
			abort();
		return;
	case JSON_STRING:
		if (!jv_is_string(v) || jv_str_len(v) != json_string_length(j) ||
		    memcmp(jv_str(v), json_string_value(j), jv_str_len(v)))
			abort();
		return;
	case JSON_INTEGER:
		if (!jv_is_int(v) || jv_int(v) != json_integer_value(j))
			abort();
		return;
	case JSON_REAL:
		if (!jv_is_real(v) || jv_real(v) != json_real_value(j))
			abort();
		return;
	case JSON_TRUE:
	case JSON_FALSE:
		if (jv_type(v) != JV_BOOL || jv_is_true(v) != json_is_true(j))
			abort();
		return;
	case JSON_NULL:
		if (!jv_is_null(v))
			abort();
		return;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct jv_error je = { 0 };
	struct jv_doc *d = NULL;
	struct nscc_model *m;
	struct nscc_err err;
	json_error_t ja;
	json_t *j = json_loadb((const char *)data, size,
			       JSON_REJECT_DUPLICATES, &ja);
	int ret = jv_parse(data, size, &d, &je);

	if (!j) {
		if (ret != -EINVAL || d || je.line != ja.line ||
		    je.column != ja.column || strcmp(je.text, ja.text))
			abort();
		return 0;
	}
	if (ret)
		abort();
	same(j, jv_root(d));
	json_decref(j);
	jv_free(d);
	m = nscc_model_new(2);
	if (m) {
		nscc_defjson_load_subgraph(m, "sg00", data, size, NULL, 0, NULL,
					   "", &err);
		nscc_model_free(m);
	}
	return 0;
}
