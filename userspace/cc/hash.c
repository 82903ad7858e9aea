// SPDX-License-Identifier: GPL-2.0
/*
 * hash.c - the open-addressing hash table behind the symbol table's maps
 * and the NEFF member table (nscc_internal.h); the error and warning
 * reporters.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nscc_internal.h"

int nscc_errf(struct nscc_err *err, int code, const char *fmt, ...)
{
	va_list ap;

	if (err) {
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
	}
	return code;
}

void nscc_warnf(struct nscc_warn *w, const char *fmt, ...)
{
	va_list ap;

	if (!w)
		return;
	va_start(ap, fmt);
	vsnprintf(w->last, sizeof(w->last), fmt, ap);
	va_end(ap);
	w->count++;
	if (w->fp)
		fprintf(w->fp, "%swarning: %s\n", w->prefix ? w->prefix : "",
			w->last);
}

void nscc_err_prefix(struct nscc_err *err, const char *fmt, ...)
{
	char pre[NSCC_ERR_MAX], old[NSCC_ERR_MAX];
	size_t n, m;
	va_list ap;

	if (!err)
		return;
	va_start(ap, fmt);
	vsnprintf(pre, sizeof(pre), fmt, ap);
	va_end(ap);
	memcpy(old, err->msg, sizeof(old));
	old[sizeof(old) - 1] = 0;
	n = strlen(pre);
	memcpy(err->msg, pre, n);
	if (n + 2 < sizeof(err->msg)) {
		err->msg[n++] = ':';
		err->msg[n++] = ' ';
	}
	m = strlen(old);
	if (m > sizeof(err->msg) - 1 - n)
		m = sizeof(err->msg) - 1 - n;
	memcpy(err->msg + n, old, m);
	err->msg[n + m] = 0;
}

/* FNV-1a 64; never 0 (0 marks an empty slot). */
static uint64_t hash_str(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	}
	return h ? h : 1;
}

/* splitmix64 finalizer; never 0 */
static uint64_t hash_u64(uint64_t k)
{
	uint64_t x = k + 0x9e3779b97f4a7c15ULL;

	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return x ? x : 1;
}

void nscc_hash_init(struct nscc_hash *h)
{
	memset(h, 0, sizeof(*h));
}

void nscc_hash_fini(struct nscc_hash *h)
{
	free(h->slots);
	memset(h, 0, sizeof(*h));
}

static int slot_match(const struct nscc_hash_slot *s, uint64_t hv,
		      const char *skey, uint64_t ikey)
{
	if (s->hash != hv)
		return 0;
	return skey ? strcmp(s->skey, skey) == 0 : s->ikey == ikey;
}

static struct nscc_hash_slot *find_slot(struct nscc_hash_slot *slots,
					size_t cap, uint64_t hv,
					const char *skey, uint64_t ikey)
{
	size_t i = hv & (cap - 1);

	while (slots[i].hash && !slot_match(&slots[i], hv, skey, ikey))
		i = (i + 1) & (cap - 1);
	return &slots[i];
}

static int grow(struct nscc_hash *h)
{
	size_t ncap = h->cap ? h->cap * 2 : 16, i;
	struct nscc_hash_slot *ns = calloc(ncap, sizeof(*ns));

	if (!ns)
		return -ENOMEM;
	for (i = 0; i < h->cap; i++) {
		struct nscc_hash_slot *o = &h->slots[i];

		if (o->hash)
			*find_slot(ns, ncap, o->hash, o->skey, o->ikey) = *o;
	}
	free(h->slots);
	h->slots = ns;
	h->cap = ncap;
	return 0;
}

static int put(struct nscc_hash *h, uint64_t hv, const char *skey,
	       uint64_t ikey, void *val, void **old)
{
	struct nscc_hash_slot *s;

	if ((h->count + 1) * 2 > h->cap && grow(h))
		return -ENOMEM;
	s = find_slot(h->slots, h->cap, hv, skey, ikey);
	if (s->hash) {
		if (old)
			*old = s->val;
		return -EEXIST;
	}
	s->hash = hv;
	s->skey = skey;
	s->ikey = ikey;
	s->val = val;
	h->count++;
	return 0;
}

static void *get(const struct nscc_hash *h, uint64_t hv, const char *skey,
		 uint64_t ikey)
{
	struct nscc_hash_slot *s;

	if (!h->cap)
		return NULL;
	s = find_slot(h->slots, h->cap, hv, skey, ikey);
	return s->hash ? s->val : NULL;
}

int nscc_hash_put_str(struct nscc_hash *h, const char *key, void *val,
		      void **old)
{
	return put(h, hash_str(key), key, 0, val, old);
}

void *nscc_hash_get_str(const struct nscc_hash *h, const char *key)
{
	return get(h, hash_str(key), key, 0);
}

int nscc_hash_put_u32(struct nscc_hash *h, uint32_t key, void *val,
		      void **old)
{
	return put(h, hash_u64(key), NULL, key, val, old);
}

void *nscc_hash_get_u32(const struct nscc_hash *h, uint32_t key)
{
	return get(h, hash_u64(key), NULL, key);
}

int nscc_hash_put_ptr(struct nscc_hash *h, const void *key, void *val,
		      void **old)
{
	return put(h, hash_u64((uintptr_t)key), NULL, (uintptr_t)key, val, old);
}

void *nscc_hash_get_ptr(const struct nscc_hash *h, const void *key)
{
	return get(h, hash_u64((uintptr_t)key), NULL, (uintptr_t)key);
}
