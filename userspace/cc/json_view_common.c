// SPDX-License-Identifier: GPL-2.0
/*
 * json_view_common.c - the parts of json_view.h that only read through
 * the interface, shared by its two implementations (json_view.cc over
 * simdjson, json_view_jansson.c over jansson; Documentation/compiler.rst,
 * "JSON parser").
 */
#include <errno.h>
#include <stdio.h>

#include "json_view.h"

const char *jv_type_name(struct jv v)
{
	switch (jv_type(v)) {
	case JV_NONE:
		return "nothing";
	case JV_NULL:
		return "null";
	case JV_BOOL:
		return jv_is_true(v) ? "true" : "false";
	case JV_INT:
		return "integer";
	case JV_REAL:
		return "real";
	case JV_STRING:
		return "string";
	case JV_ARRAY:
		return "array";
	case JV_OBJECT:
		break;
	}
	return "object";
}

int jv_get_uint(struct jv obj, const char *key, uint64_t max, uint64_t *out,
		char *why, size_t why_len)
{
	struct jv v = jv_get(obj, key);
	int64_t i;

	if (jv_is_none(v))
		return 0;
	if (!jv_is_int(v)) {
		snprintf(why, why_len, "field '%s' is not an integer", key);
		return -EINVAL;
	}
	i = jv_int(v);
	if (i < 0) {
		snprintf(why, why_len, "%s %lld is negative", key, (long long)i);
		return -EINVAL;
	}
	if ((uint64_t)i > max) {
		snprintf(why, why_len, "%s %lld is over the maximum %llu", key,
			 (long long)i, (unsigned long long)max);
		return -EINVAL;
	}
	*out = (uint64_t)i;
	return 1;
}
