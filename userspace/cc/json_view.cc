// SPDX-License-Identifier: GPL-2.0
/*
 * json_view.cc - json_view.h over simdjson's DOM API (error codes, no
 * exceptions), Documentation/compiler.rst, "JSON parser".
 *
 * simdjson takes some texts jansson's json_loadb(JSON_REJECT_DUPLICATES)
 * refuses: a scalar at the top, duplicate keys, integers over INT64_MAX,
 * "\u0000" in a string.  One walk after the parse refuses those, and
 * while it is in each object of more than INDEX_MIN members it makes that
 * object's key index, a hash table (jv_get's O(1) look-up; the duplicate
 * check is its insert).  A refused text, by simdjson or by
 * the walk, is handed to json_loadb() for the message, so a refusal says
 * what it said before, with jansson's line and column; only a text
 * jansson would take (one simdjson cannot hold) keeps simdjson's words.
 */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <new>
#include <type_traits>

#include <simdjson.h>

#include "json_view.h"

using simdjson::dom::array;
using simdjson::dom::element;
using simdjson::dom::element_type;
using simdjson::dom::object;

/* jansson's JSON_PARSER_MAX_DEPTH: the nesting both take */
static const size_t MAX_DEPTH = 2048;
/*
 * objects of more members get a key index (a hash table): the var table,
 * never a DMA descriptor (12 to 15 members), whose index took more bytes
 * than its text (Documentation/compiler.rst, "Memory")
 */
static const size_t INDEX_MIN = 32;

static_assert(sizeof(element) <= sizeof(((struct jv *)0)->el) &&
	      std::is_trivially_copyable<element>::value,
	      "a simdjson element fits a struct jv");
static_assert(sizeof(object::iterator) <= sizeof(((struct jv_iter *)0)->cur) &&
	      std::is_trivially_copyable<object::iterator>::value &&
	      sizeof(array::iterator) <= sizeof(((struct jv_iter *)0)->cur) &&
	      std::is_trivially_copyable<array::iterator>::value,
	      "simdjson iterators fit a struct jv_iter");

namespace {

/* one member of an indexed object */
struct member {
	const char *key;
	uint32_t len;
	uint32_t hash;
	element val;
};

/*
 * an indexed object: its members are members[start, start + count) in
 * document order; slots[slot, slot + cap) is an open-addressing table
 * (linear probing, cap a power of two >= 2 x count) of member number + 1
 * (0 = empty)
 */
struct index_dir {
	const char *first_key;	/* the object's first key: its identity */
	size_t start, count, slot, cap;
};

/* FNV-1a */
uint32_t key_hash(const char *k, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	while (len--)
		h = (h ^ (unsigned char)*k++) * 0x100000001b3ULL;
	return (uint32_t)(h ^ (h >> 32));
}

} /* namespace */

struct jv_doc {
	simdjson::dom::document doc;	/* the tape and strings only */
	element root;
	member *members;
	size_t nmembers, cap_members;
	uint32_t *slots;
	size_t nslots, cap_slots;
	index_dir *dirs;	/* in first_key order (the walk's order) */
	size_t ndirs, cap_dirs;
};

namespace {

template <typename T>
bool grow(T **arr, size_t *cap, size_t need)
{
	size_t n = *cap ? *cap : 64;
	void *p;

	if (need <= *cap)
		return true;
	while (n < need)
		n *= 2;
	p = realloc(static_cast<void *>(*arr), n * sizeof(T));
	if (!p)
		return false;
	*arr = static_cast<T *>(p);
	*cap = n;
	return true;
}

enum walk_result { WALK_OK, WALK_REFUSED, WALK_NOMEM };

size_t object_size(const object &o)
{
	size_t n = o.size();

	if (n < 0xFFFFFF)
		return n;
	n = 0;	/* saturated: count */
	for (auto it = o.begin(); it != o.end(); ++it)
		n++;
	return n;
}

walk_result walk(jv_doc *d, const element &e);

walk_result walk_object(jv_doc *d, const object &o)
{
	size_t n = object_size(o), i, j;

	if (n > INDEX_MIN) {
		size_t start = d->nmembers, cap = 16;
		uint32_t *slot;
		member *m;

		while (cap < 2 * n)
			cap *= 2;
		if (n >= UINT32_MAX / 2 ||
		    !grow(&d->members, &d->cap_members, start + n) ||
		    !grow(&d->slots, &d->cap_slots, d->nslots + cap) ||
		    !grow(&d->dirs, &d->cap_dirs, d->ndirs + 1))
			return WALK_NOMEM;
		m = d->members + start;
		slot = d->slots + d->nslots;
		memset(slot, 0, cap * sizeof(*slot));
		i = 0;
		for (auto it = o.begin(); it != o.end(); ++it, i++) {
			const char *k = it.key_c_str();
			uint32_t len = it.key_length(), h = key_hash(k, len);

			for (j = h & (cap - 1); slot[j]; j = (j + 1) & (cap - 1)) {
				const member *x = &m[slot[j] - 1];

				if (x->hash == h && x->len == len &&
				    !memcmp(x->key, k, len))
					return WALK_REFUSED;
			}
			slot[j] = (uint32_t)i + 1;
			m[i] = member{ k, len, h, it.value() };
		}
		d->dirs[d->ndirs++] = index_dir{ o.begin().key_c_str(), start, n,
						 d->nslots, cap };
		d->nmembers += n;
		d->nslots += cap;
	} else {
		const char *k[INDEX_MIN];
		size_t l[INDEX_MIN];

		i = 0;
		for (auto it = o.begin(); it != o.end(); ++it, i++) {
			k[i] = it.key_c_str();
			l[i] = it.key_length();
			for (j = 0; j < i; j++)
				if (l[j] == l[i] && !memcmp(k[j], k[i], l[i]))
					return WALK_REFUSED;
		}
	}
	for (auto it = o.begin(); it != o.end(); ++it) {
		walk_result r;

		if (strlen(it.key_c_str()) != it.key_length())
			return WALK_REFUSED;
		r = walk(d, it.value());
		if (r != WALK_OK)
			return r;
	}
	return WALK_OK;
}

walk_result walk(jv_doc *d, const element &e)
{
	switch (e.type()) {
	case element_type::ARRAY: {
		array a;

		if (e.get_array().get(a))
			return WALK_REFUSED;
		for (element x : a) {
			walk_result r = walk(d, x);

			if (r != WALK_OK)
				return r;
		}
		return WALK_OK;
	}
	case element_type::OBJECT: {
		object o;

		if (e.get_object().get(o))
			return WALK_REFUSED;
		return walk_object(d, o);
	}
	case element_type::STRING: {
		const char *s;
		size_t len;

		if (e.get_c_str().get(s) || e.get_string_length().get(len))
			return WALK_REFUSED;
		return strlen(s) == len ? WALK_OK : WALK_REFUSED;
	}
	case element_type::UINT64:	/* over INT64_MAX */
		return WALK_REFUSED;
	default:
		return WALK_OK;
	}
}

void copy_text(struct jv_error *err, const char *s)
{
	size_t n = strlen(s);

	if (n >= sizeof(err->text))
		n = sizeof(err->text) - 1;
	memcpy(err->text, s, n);
	err->text[n] = 0;
}

/* true when jansson refuses @buf; its words then in @err (may be NULL) */
bool jansson_refuses(const void *buf, size_t len, struct jv_error *err)
{
	json_error_t je;
	json_t *j = json_loadb(static_cast<const char *>(buf), len,
			       JSON_REJECT_DUPLICATES, &je);

	if (j) {
		json_decref(j);
		return false;
	}
	if (err) {
		err->line = je.line;
		err->column = je.column;
		err->position = je.position;
		copy_text(err, je.text);
	}
	return true;
}

/* the refusal of @buf in jansson's words, else in simdjson's (@why) */
void explain(const void *buf, size_t len, const char *why,
	     struct jv_error *err)
{
	if (jansson_refuses(buf, len, err) || !err)
		return;
	err->line = 0;
	err->column = 0;
	err->position = 0;
	copy_text(err, why);
}

element load(const struct jv &v)
{
	element e;

	memcpy(static_cast<void *>(&e), v.el, sizeof(e));
	return e;
}

struct jv store(const jv_doc *d, const element &e)
{
	struct jv v = {};

	v.doc = d;
	memcpy(v.el, static_cast<const void *>(&e), sizeof(e));
	return v;
}

/* the key (objects) and value of iterator @c */
void member_of(const object::iterator &c, const char **key, size_t *len,
	       element *val)
{
	*key = c.key_c_str();
	*len = c.key_length();
	*val = c.value();
}

void member_of(const array::iterator &c, const char **, size_t *,
	       element *val)
{
	*val = *c;
}

/* one step of a walk whose iterators are of type It */
template <typename It>
bool step(struct jv_iter *it, const char **key, size_t *len, struct jv *val)
{
	element e;
	It c, x;

	memcpy(static_cast<void *>(&c), it->cur, sizeof(c));
	memcpy(static_cast<void *>(&x), it->end, sizeof(x));
	if (!(c != x))
		return false;
	member_of(c, key, len, &e);
	*val = store(it->doc, e);
	++c;
	memcpy(it->cur, static_cast<const void *>(&c), sizeof(c));
	return true;
}

static_assert(JV_PADDING >= simdjson::SIMDJSON_PADDING,
	      "JV_PADDING is simdjson's padding");

/*
 * Parse @len bytes at @buf; @padded: JV_PADDING bytes past the end are
 * readable, so simdjson parses the text in place (else it copies it into
 * a padded buffer).  The parser (its padded copy and its structural
 * index, together larger than the text) is gone when this returns: the
 * document keeps only the tape and the strings.
 */
int parse(const void *buf, size_t len, bool padded, struct jv_doc **out,
	  struct jv_error *err)
{
	const uint8_t *text = static_cast<const uint8_t *>(buf);
	uint8_t *spaced = nullptr;
	simdjson::error_code ec;
	walk_result r;
	jv_doc *d;

	*out = nullptr;
	/*
	 * jansson skips a NUL byte that ends a number or a literal (its
	 * lexer takes the pushed-back NUL for an empty read-ahead) and
	 * refuses every other one.  A text with a NUL byte it takes is
	 * parsed with those bytes as blanks, which end a token the same way.
	 */
	if (len && memchr(buf, 0, len)) {
		if (jansson_refuses(buf, len, err))
			return -EINVAL;
		spaced = static_cast<uint8_t *>(malloc(len + JV_PADDING));
		if (!spaced)
			return -ENOMEM;
		memcpy(spaced, buf, len);
		for (size_t i = 0; i < len; i++)
			if (!spaced[i])
				spaced[i] = ' ';
		memset(spaced + len, 0, JV_PADDING);
		text = spaced;
		padded = true;
	}
	d = new (std::nothrow) jv_doc();
	if (!d) {
		free(spaced);
		return -ENOMEM;
	}
	{
		simdjson::dom::parser parser;

		ec = parser.allocate(len ? len : 1, MAX_DEPTH);
		if (!ec)
			ec = parser.parse_into_document(d->doc, text, len,
							!padded).get(d->root);
	}
	free(spaced);
	if (ec == simdjson::MEMALLOC) {
		jv_free(d);
		return -ENOMEM;
	}
	if (ec) {
		explain(buf, len, simdjson::error_message(ec), err);
		jv_free(d);
		return -EINVAL;
	}
	if (d->root.type() != element_type::ARRAY &&
	    d->root.type() != element_type::OBJECT)
		r = WALK_REFUSED;
	else
		r = walk(d, d->root);
	if (r != WALK_OK) {
		jv_free(d);
		if (r == WALK_NOMEM)
			return -ENOMEM;
		explain(buf, len, "refused", err);
		return -EINVAL;
	}
	*out = d;
	return 0;
}

} /* namespace */

extern "C" {

int jv_parse(const void *buf, size_t len, struct jv_doc **out,
	     struct jv_error *err)
{
	return parse(buf, len, false, out, err);
}

int jv_parse_padded(const void *buf, size_t len, struct jv_doc **out,
		    struct jv_error *err)
{
	return parse(buf, len, true, out, err);
}

void jv_free(struct jv_doc *doc)
{
	if (!doc)
		return;
	free(doc->members);
	free(doc->slots);
	free(doc->dirs);
	delete doc;
}

struct jv jv_root(const struct jv_doc *doc)
{
	return store(doc, doc->root);
}

enum jv_type jv_type(struct jv v)
{
	if (!v.doc)
		return JV_NONE;
	switch (load(v).type()) {
	case element_type::ARRAY:
		return JV_ARRAY;
	case element_type::OBJECT:
		return JV_OBJECT;
	case element_type::INT64:
	case element_type::UINT64:
		return JV_INT;
	case element_type::DOUBLE:
		return JV_REAL;
	case element_type::STRING:
		return JV_STRING;
	case element_type::BOOL:
		return JV_BOOL;
	case element_type::NULL_VALUE:
		break;
	}
	return JV_NULL;
}

bool jv_is_true(struct jv v)
{
	bool b = false;

	return v.doc && !load(v).get_bool().get(b) && b;
}

int64_t jv_int(struct jv v)
{
	int64_t i = 0;

	if (!v.doc || load(v).type() != element_type::INT64 ||
	    load(v).get_int64().get(i))
		return 0;
	return i;
}

double jv_real(struct jv v)
{
	double x = 0;

	if (!v.doc || load(v).get_double().get(x))
		return 0;
	return x;
}

const char *jv_str(struct jv v)
{
	const char *s = nullptr;

	if (!v.doc || load(v).get_c_str().get(s))
		return nullptr;
	return s;
}

size_t jv_str_len(struct jv v)
{
	size_t n = 0;

	if (!v.doc || load(v).get_string_length().get(n))
		return 0;
	return n;
}

size_t jv_size(struct jv v)
{
	element e;
	object o;
	array a;

	if (!v.doc)
		return 0;
	e = load(v);
	if (!e.get_object().get(o))
		return object_size(o);
	if (e.get_array().get(a))
		return 0;
	if (a.size() < 0xFFFFFF)
		return a.size();
	size_t n = 0;	/* saturated: count */
	for (auto it = a.begin(); it != a.end(); ++it)
		n++;
	return n;
}

struct jv jv_get(struct jv obj, const char *key)
{
	struct jv none = {};
	size_t len = strlen(key);
	element e;
	object o;

	if (!obj.doc || load(obj).get_object().get(o))
		return none;
	const jv_doc *d = obj.doc;
	const index_dir *dir = d->dirs + d->ndirs;

	if (object_size(o) > INDEX_MIN) {
		const char *first = o.begin().key_c_str();

		dir = std::lower_bound(d->dirs, d->dirs + d->ndirs, first,
				       [](const index_dir &x, const char *k) {
					       return x.first_key < k;
				       });
		if (dir != d->dirs + d->ndirs && dir->first_key != first)
			dir = d->dirs + d->ndirs;
	}
	if (dir == d->dirs + d->ndirs) {	/* a small object: a scan */
		if (o.at_key(std::string_view(key, len)).get(e))
			return none;
		return store(d, e);
	}
	const member *m = d->members + dir->start;
	const uint32_t *slot = d->slots + dir->slot, h = key_hash(key, len);
	size_t cap = dir->cap, j;

	for (j = h & (cap - 1); slot[j]; j = (j + 1) & (cap - 1)) {
		const member *x = &m[slot[j] - 1];

		if (x->hash == h && x->len == len && !memcmp(x->key, key, len))
			return store(d, x->val);
	}
	return none;
}

void jv_iter_init(struct jv_iter *it, struct jv v)
{
	element e;
	object o;
	array a;

	memset(it, 0, sizeof(*it));
	if (!v.doc)
		return;
	e = load(v);
	if (!e.get_object().get(o)) {
		object::iterator b = o.begin(), x = o.end();

		it->object = 1;
		memcpy(it->cur, static_cast<const void *>(&b), sizeof(b));
		memcpy(it->end, static_cast<const void *>(&x), sizeof(x));
	} else if (!e.get_array().get(a)) {
		array::iterator b = a.begin(), x = a.end();

		memcpy(it->cur, static_cast<const void *>(&b), sizeof(b));
		memcpy(it->end, static_cast<const void *>(&x), sizeof(x));
	} else {
		return;
	}
	it->doc = v.doc;
}

bool jv_next(struct jv_iter *it, const char **key, size_t *key_len,
	     struct jv *val)
{
	const char *k = nullptr;
	size_t kl = 0;
	bool more = it->doc && (it->object ?
		step<object::iterator>(it, &k, &kl, val) :
		step<array::iterator>(it, &k, &kl, val));

	if (more && key)
		*key = k;
	if (more && key_len)
		*key_len = kl;
	return more;
}

} /* extern "C" */
