/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nscc_internal.h - helpers shared by the compiler library's files:
 * error formatting and the open-addressing hash table (hash.c), and the
 * plan layer's tables every file reads (generations, kinds, names).
 * Not installed; the public API is neuronsim_cc.h.
 */
#ifndef NSCC_INTERNAL_H
#define NSCC_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include "json_view.h"
#include "kbin_gen.h"
#include "kbin_kind.h"
#include "kbin_names.h"
#include "neuronsim_cc.h"

/**
 * nscc_errf() - format a message into @err (when not NULL).
 * Return: @code, so callers can "return nscc_errf(err, -EINVAL, ...)".
 */
int nscc_errf(struct nscc_err *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * libnrt's words when parse_one_variable() refuses an alignment, quoted
 * after the compiler's own message (Documentation/compiler.rst, "Error
 * messages"); how libnrt's sentence goes on is not known.
 */
#define NSCC_LIBNRT_ALIGNMENT	"alignment provided not power of 2"

/**
 * nscc_warnf() - report a warning to @w (NULL: dropped): kept in
 * w->last, counted, and printed to w->fp as "<prefix>warning: MSG".
 */
void nscc_warnf(struct nscc_warn *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/**
 * nscc_err_prefix() - prepend "PREFIX: " to the message in @err.
 */
void nscc_err_prefix(struct nscc_err *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * struct nscc_hash - open-addressing hash table (linear probing, power-of-
 * two capacity, load <= 1/2), keyed by a NUL-terminated string, a u32
 * or a pointer (its address: one table holds one kind of key).  Keys
 * are borrowed (strings must outlive the table); values are
 * opaque pointers.  Insert and find are O(1) expected, so tables of 10^6
 * entries are fine.  Entries are never removed.
 */
struct nscc_hash_slot {
	uint64_t hash;		/* 0 = empty */
	const char *skey;
	uint64_t ikey;		/* a u32 or a pointer's address */
	void *val;
};

struct nscc_hash {
	struct nscc_hash_slot *slots;
	size_t cap;
	size_t count;
};

void nscc_hash_init(struct nscc_hash *h);
void nscc_hash_fini(struct nscc_hash *h);
/* Return: 0, -EEXIST (existing value in *old when old != NULL), -ENOMEM */
int nscc_hash_put_str(struct nscc_hash *h, const char *key, void *val,
		      void **old);
void *nscc_hash_get_str(const struct nscc_hash *h, const char *key);
int nscc_hash_put_u32(struct nscc_hash *h, uint32_t key, void *val,
		      void **old);
void *nscc_hash_get_u32(const struct nscc_hash *h, uint32_t key);
int nscc_hash_put_ptr(struct nscc_hash *h, const void *key, void *val,
		      void **old);
void *nscc_hash_get_ptr(const struct nscc_hash *h, const void *key);



/* most .npy descrs one dtype may be stored as */
#define NSCC_DTYPE_NPY_MAX	2

/**
 * struct nscc_dtype - an element type as NEFFs name it (model.c's table;
 * Documentation/compiler.rst).
 * @dtype: enum kbin_dtype; kbin_dtype() gives its name, the
 *	tensor_map.json "dtype" ("float32", "bfloat16", ...), and its bytes
 *	per element.
 * @npy: the .npy descrs ("<f4") a weight of the type may be stored as;
 *	unused slots NULL.
 */
struct nscc_dtype {
	unsigned int dtype;
	const char *npy[NSCC_DTYPE_NPY_MAX];
};

/** nscc_dtype_find() - the row of dtype @name, or NULL (also for NULL). */
const struct nscc_dtype *nscc_dtype_find(const char *name);

/** nscc_dtype_npy_ok() - 1 when @descr is one of @dt's .npy descrs. */
int nscc_dtype_npy_ok(const struct nscc_dtype *dt, const char *descr);

/**
 * nscc_neff_json() - parse member @name of @neff as JSON (json_view.h:
 * what jansson's json_loadb() takes, duplicate keys refused).  Return: 0
 * and *out (caller jv_free()s); -ENOENT missing member (named); -EINVAL
 * bad JSON (message names the member, line and column); -ENOMEM.
 */
int nscc_neff_json(struct nscc_neff *neff, const char *name,
		   struct jv_doc **out, struct nscc_err *err);

/**
 * nscc_json_parse() - parse @len bytes of JSON; @what names the text in
 * the error message.  Return: as nscc_neff_json().
 */
int nscc_json_parse(const void *buf, size_t len, const char *what,
		    struct jv_doc **out, struct nscc_err *err);

/**
 * nscc_neff_has_member() - 1 when member @name exists and is a regular
 * file.  0 also for a link, directory or other entry: for an optional
 * member, call nscc_neff_member() and take only -ENOENT as absent, so
 * such an entry is refused rather than skipped.
 */
int nscc_neff_has_member(struct nscc_neff *neff, const char *name);

/**
 * nscc_defjson_dma() - add the DMA queues of def.json @dj and the blocks
 * of the engine members it names to subgraph @sgi (defjson_dma.c);
 * @vars is @dj's "var" object.  Return: 0 or a negative errno with the
 * message in @err.
 */
int nscc_defjson_dma(struct nscc_model *m, int sgi, struct jv dj,
		     struct jv vars, struct nscc_neff *neff,
		     const char *dir, struct nscc_err *err);

/**
 * nscc_defjson_prog() - the instruction streams of subgraph @sgi: for
 * each engine, def.json "<engine>_instr" (or, without it, the engine
 * member's "instr") names a member of @neff in @dir, kept verbatim
 * (defjson_prog.c).  Return: 0; -EINVAL a malformed name, two names that
 * differ or a stream that is not a whole number of 64-byte records;
 * -ENOENT a member is missing; the message names them.
 */
int nscc_defjson_prog(struct nscc_model *m, int sgi, struct jv dj,
		      struct nscc_neff *neff, const char *dir,
		      struct nscc_err *err);

/**
 * nscc_prog_stream_count() - the records of a @bytes-byte stream, by the
 * shared rule (kbin_prog_stream_count()); @what names the stream in the
 * message.  Return: 0 and *@n, or -EINVAL.
 */
int nscc_prog_stream_count(uint64_t bytes, const char *what, uint32_t *n,
			   struct nscc_err *err);
#endif /* NSCC_INTERNAL_H */
