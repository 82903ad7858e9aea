// SPDX-License-Identifier: GPL-2.0
/*
 * cc_json_view.c - the compiler's JSON view (userspace/cc/json_view.h,
 * Documentation/compiler.rst, "JSON parser") against jansson's
 * json_loadb(JSON_REJECT_DUPLICATES), which it replaced in the front end:
 * every text of a table, the edges where simdjson and jansson differ
 * (a scalar at the top, duplicate keys in small and indexed objects,
 * integers over INT64_MAX, "\u0000", nesting 2048/2049, trailing bytes,
 * NUL bytes where jansson skips them), is taken by both or refused by
 * both with the same line, column and text; a taken one reads the same
 * through both (types, integers, strings, sizes, member look-up in small
 * and indexed objects, document order).
 */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "json_view.h"

static const char *const texts[] = {
	"{}", "[]", "  [1, 2]\n", "[-0]", "[-0.0]", "[1E2, 1.5, -1e-400]",
	"[9223372036854775807]", "[-9223372036854775808]",
	"[9223372036854775808]", "[18446744073709551615]",
	"[18446744073709551616]", "[-9223372036854775809]", "[1e400]",
	"[\"\\u0000\"]", "{\"a\\u0000b\": 1}", "[\"\\ud800\"]",
	"[\"\\u00e9\\ud83d\\ude00\"]", "[\"\xff\"]", "[1] x", "[1] [2]", "1",
	"\"s\"", "null", "", " ", "[1,]", "{\"a\":}", "[01]", "\xef\xbb\xbf[1]",
	"{\"a\": 1, \"a\": 2}", "{\"a\": {\"b\": 1, \"b\": 1}}",
	"[{\"k\": 1}, {\"k\": 2}]",
	/* objects over the index threshold */
	"{\"m0\":0,\"m1\":1,\"m2\":2,\"m3\":3,\"m4\":4,\"m5\":5,\"m6\":6,"
	"\"m7\":7,\"m8\":8,\"m9\":9,\"m10\":{\"x\":[true,false,null]}}",
	"{\"m0\":0,\"m1\":1,\"m2\":2,\"m3\":3,\"m4\":4,\"m5\":5,\"m6\":6,"
	"\"m7\":7,\"m8\":8,\"m9\":9,\"m3\":10}",
	"{\"z\":[{\"m0\":0,\"m1\":1,\"m2\":2,\"m3\":3,\"m4\":4,\"m5\":5,"
	"\"m6\":6,\"m7\":7,\"m8\":8}],\"y\":{\"q0\":0,\"q1\":1,\"q2\":2,"
	"\"q3\":3,\"q4\":4,\"q5\":5,\"q6\":6,\"q7\":7,\"q8\":8,\"\":9}}",
	"{\"\":1,\"a\":2}", "{\"a\":1,\"ab\":2,\"abc\":3,\"b\":4,\"ba\":5,"
	"\"a b\":6,\"A\":7,\"aa\":8,\"aaa\":9,\"\":10}",
};

/* an element of @j and of @v read the same, recursively */
static void same_value(struct __test_metadata *_metadata, json_t *j,
		       struct jv v, const char *path)
{
	struct jv_iter it;
	const char *key;
	struct jv e;
	size_t i, kl;

	switch (json_typeof(j)) {
	case JSON_OBJECT:
		ASSERT_EQ(JV_OBJECT, jv_type(v)) TH_LOG("%s", path);
		ASSERT_STREQ("object", jv_type_name(v));
		ASSERT_EQ(json_object_size(j), jv_size(v)) TH_LOG("%s", path);
		/* document order, and every member found by its key */
		jv_iter_init(&it, v);
		{
			void *ji = json_object_iter(j);

			while (jv_next(&it, &key, &kl, &e)) {
				ASSERT_NE(NULL, ji);
				ASSERT_STREQ(json_object_iter_key(ji), key);
				ASSERT_EQ(strlen(key), kl);
				same_value(_metadata, json_object_iter_value(ji),
					   e, key);
				e = jv_get(v, key);
				same_value(_metadata, json_object_iter_value(ji),
					   e, key);
				ji = json_object_iter_next(j, ji);
			}
			ASSERT_EQ(NULL, ji);
		}
		ASSERT_TRUE(jv_is_none(jv_get(v, "no such key")));
		break;
	case JSON_ARRAY:
		ASSERT_EQ(JV_ARRAY, jv_type(v)) TH_LOG("%s", path);
		ASSERT_EQ(json_array_size(j), jv_size(v));
		ASSERT_TRUE(jv_is_none(jv_get(v, "0")));
		for (jv_iter_init(&it, v), i = 0; jv_next(&it, &key, NULL, &e);
		     i++) {
			ASSERT_EQ(NULL, key);
			same_value(_metadata, json_array_get(j, i), e, path);
		}
		ASSERT_EQ(json_array_size(j), i);
		break;
	case JSON_STRING:
		ASSERT_EQ(JV_STRING, jv_type(v)) TH_LOG("%s", path);
		ASSERT_EQ(json_string_length(j), jv_str_len(v));
		ASSERT_STREQ(json_string_value(j), jv_str(v));
		ASSERT_EQ(0, jv_size(v));
		break;
	case JSON_INTEGER:
		ASSERT_EQ(JV_INT, jv_type(v)) TH_LOG("%s", path);
		ASSERT_EQ(json_integer_value(j), jv_int(v));
		ASSERT_EQ(NULL, jv_str(v));
		break;
	case JSON_REAL:
		ASSERT_EQ(JV_REAL, jv_type(v)) TH_LOG("%s", path);
		ASSERT_EQ(json_real_value(j), jv_real(v));
		ASSERT_EQ(0, jv_int(v));
		break;
	case JSON_TRUE:
	case JSON_FALSE:
		ASSERT_EQ(JV_BOOL, jv_type(v)) TH_LOG("%s", path);
		ASSERT_EQ(json_is_true(j), jv_is_true(v));
		break;
	case JSON_NULL:
		ASSERT_EQ(JV_NULL, jv_type(v)) TH_LOG("%s", path);
		ASSERT_STREQ("null", jv_type_name(v));
		break;
	}
}

static void same_as_jansson(struct __test_metadata *_metadata,
			    const char *t, size_t len)
{
	struct jv_error je = { 0 };
	struct jv_doc *d = NULL;
	json_error_t ja;
	json_t *j = json_loadb(t, len, JSON_REJECT_DUPLICATES, &ja);
	int ret = jv_parse(t, len, &d, &je);

	if (!j) {
		ASSERT_EQ(-EINVAL, ret) TH_LOG("taken, jansson refuses: %.120s", t);
		ASSERT_EQ(NULL, d);
		EXPECT_EQ(ja.line, je.line) TH_LOG("%.120s", t);
		EXPECT_EQ(ja.column, je.column) TH_LOG("%.120s", t);
		EXPECT_EQ((size_t)ja.position, je.position) TH_LOG("%.120s", t);
		EXPECT_STREQ(ja.text, je.text) TH_LOG("%.120s", t);
		return;
	}
	ASSERT_EQ(0, ret) TH_LOG("refused (%s), jansson takes: %.120s", je.text, t);
	same_value(_metadata, j, jv_root(d), "(top)");
	json_decref(j);
	jv_free(d);
}

TEST(texts_as_jansson_takes_them)
{
	size_t i;

	for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
		same_as_jansson(_metadata, texts[i], strlen(texts[i]));
	/*
	 * NUL bytes: after the text, in a string, and where jansson skips
	 * one (ending a number or literal) or refuses it (anywhere else,
	 * a second one)
	 */
	same_as_jansson(_metadata, "[1]\0", 4);
	same_as_jansson(_metadata, "[\"a\0\"]", 6);
	same_as_jansson(_metadata, "{\"a\":2\0,\"b\":1}", 15);
	same_as_jansson(_metadata, "[true\0, null\0, -1.5e3\0]", 23);
	same_as_jansson(_metadata, "[1\0\0]", 5);
	same_as_jansson(_metadata, "[\"a\"\0]", 6);
	same_as_jansson(_metadata, "[1\0" "2]", 5);
	same_as_jansson(_metadata, "\0[1]", 4);
}

/* jansson's nesting limit (2048) is the view's */
TEST(nesting_depth)
{
	size_t n, len;
	char *t;

	for (n = 2047; n <= 2049; n++) {
		len = 2 * n;
		t = malloc(len);
		ASSERT_NE(NULL, t);
		memset(t, '[', n);
		memset(t + n, ']', n);
		same_as_jansson(_metadata, t, len);
		free(t);
	}
}

/* a large object (the index) against jansson, and a duplicate late in it */
TEST(large_object)
{
	size_t cap = 1 << 20, o = 0, i, n = 20000;
	char *t = malloc(cap);

	ASSERT_NE(NULL, t);
	o += snprintf(t + o, cap - o, "{\"var\": {");
	for (i = 0; i < n; i++)
		o += snprintf(t + o, cap - o, "%s\"v%zu\": {\"var_id\": %zu}",
			      i ? ", " : "", (i * 7919) % n, i);
	o += snprintf(t + o, cap - o, "}}");
	same_as_jansson(_metadata, t, o);
	/* the same with v0 again at the end */
	o -= 2;
	o += snprintf(t + o, cap - o, ", \"v0\": 1}}");
	same_as_jansson(_metadata, t, o);
	free(t);
}

TEST(empty_handle_is_absent)
{
	struct jv none = { 0 };
	struct jv_iter it;
	struct jv e;

	EXPECT_EQ(JV_NONE, jv_type(none));
	EXPECT_STREQ("nothing", jv_type_name(none));
	EXPECT_TRUE(jv_is_none(jv_get(none, "a")));
	EXPECT_EQ(0, jv_size(none));
	EXPECT_EQ(NULL, jv_str(none));
	EXPECT_EQ(0, jv_int(none));
	EXPECT_FALSE(jv_is_true(none));
	jv_iter_init(&it, none);
	EXPECT_FALSE(jv_next(&it, NULL, NULL, &e));
}

/* the bounded integer member both def.json readers take */
TEST(get_uint)
{
	struct jv_doc *d = NULL;
	static const char text[] =
		"{\"n\": 8, \"neg\": -1, \"big\": 9, \"s\": \"8\", \"r\": 1.5}";
	uint64_t v = 77;
	char why[80] = "";
	struct jv o;

	ASSERT_EQ(0, jv_parse(text, sizeof(text) - 1, &d, NULL));
	o = jv_root(d);
	EXPECT_EQ(0, jv_get_uint(o, "absent", 8, &v, why, sizeof(why)));
	EXPECT_EQ(77, v);
	EXPECT_EQ(1, jv_get_uint(o, "n", 8, &v, why, sizeof(why)));
	EXPECT_EQ(8, v);
	EXPECT_EQ(-EINVAL, jv_get_uint(o, "big", 8, &v, why, sizeof(why)));
	EXPECT_STREQ("big 9 is over the maximum 8", why);
	EXPECT_EQ(-EINVAL, jv_get_uint(o, "neg", 8, &v, why, sizeof(why)));
	EXPECT_STREQ("neg -1 is negative", why);
	EXPECT_EQ(-EINVAL, jv_get_uint(o, "s", 8, &v, why, sizeof(why)));
	EXPECT_STREQ("field 's' is not an integer", why);
	EXPECT_EQ(-EINVAL, jv_get_uint(o, "r", 8, &v, why, sizeof(why)));
	EXPECT_EQ(8, v);
	jv_free(d);
}

TEST_HARNESS_MAIN
