// SPDX-License-Identifier: GPL-2.0
/*
 * symtab.c - the build-side symbol table (libnrt's mem_ref_info;
 * Documentation/hardware.rst): three maps, name -> var_id, var_id -> name and
 * var_id -> object; the table owns the objects.  Hash tables, so a
 * subgraph of 10^6 vars builds in linear time.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "memref.h"
#include "nscc_internal.h"

struct nscc_sym {
	char *name;
	struct nscc_mr *mr;
};

struct nscc_symtab {
	struct nscc_hash by_name;	/* name -> sym (gives var_id) */
	struct nscc_hash by_id;		/* var_id -> sym (name, object) */
	struct nscc_sym **syms;
	uint32_t count, cap;
	uint32_t max_id;
};

struct nscc_symtab *nscc_symtab_new(void)
{
	struct nscc_symtab *st = calloc(1, sizeof(*st));

	if (!st)
		return NULL;
	nscc_hash_init(&st->by_name);
	nscc_hash_init(&st->by_id);
	return st;
}

void nscc_symtab_free(struct nscc_symtab *st)
{
	uint32_t i;

	if (!st)
		return;
	for (i = 0; i < st->count; i++) {
		nscc_mr_destroy(st->syms[i]->mr);
		free(st->syms[i]->name);
		free(st->syms[i]);
	}
	free(st->syms);
	nscc_hash_fini(&st->by_name);
	nscc_hash_fini(&st->by_id);
	free(st);
}

int nscc_symtab_add(struct nscc_symtab *st, const char *name,
		    struct nscc_mr *mr, struct nscc_err *err)
{
	struct nscc_sym *sym, *old = NULL;
	int ret;

	/* check_var_exists: both keys must be new */
	old = nscc_hash_get_str(&st->by_name, name);
	if (old) {
		ret = nscc_errf(err, -EEXIST,
				"var '%s' (var_id %u): duplicate name, var_id %u has it already",
				name, mr->var_id, old->mr->var_id);
		goto err_mr;
	}
	old = nscc_hash_get_u32(&st->by_id, mr->var_id);
	if (old) {
		ret = nscc_errf(err, -EEXIST,
				"var '%s' (var_id %u): duplicate var_id, var '%s' has it already",
				name, mr->var_id, old->name);
		goto err_mr;
	}
	if (st->count == st->cap) {
		uint32_t ncap = st->cap ? st->cap * 2 : 64;
		struct nscc_sym **ns = realloc(st->syms, ncap * sizeof(*ns));

		if (!ns)
			goto err_nomem;
		st->syms = ns;
		st->cap = ncap;
	}
	sym = calloc(1, sizeof(*sym));
	if (!sym)
		goto err_nomem;
	sym->name = strdup(name);
	if (!sym->name) {
		free(sym);
		goto err_nomem;
	}
	sym->mr = mr;
	/* add_var_to_lookup_maps */
	if (nscc_hash_put_str(&st->by_name, sym->name, sym, NULL) ||
	    nscc_hash_put_u32(&st->by_id, mr->var_id, sym, NULL)) {
		/* by_name may hold sym: keep it owned by the table */
		sym->mr = NULL;
		st->syms[st->count++] = sym;
		goto err_nomem;
	}
	st->syms[st->count++] = sym;
	if (st->count == 1 || mr->var_id > st->max_id)
		st->max_id = mr->var_id;
	return 0;

err_nomem:
	ret = nscc_errf(err, -ENOMEM, "out of memory");
err_mr:
	nscc_mr_destroy(mr);
	return ret;
}

uint32_t nscc_symtab_count(const struct nscc_symtab *st)
{
	return st->count;
}

int nscc_symtab_check_dense(const struct nscc_symtab *st,
			    struct nscc_err *err)
{
	if (st->count && (uint64_t)st->max_id + 1 != st->count)
		return nscc_errf(err, -EINVAL,
				 "Unexpected var_ids set! (%u vars, max var_id %u; var_ids must be 0..%u)",
				 st->count, st->max_id, st->count - 1);
	return 0;
}

int64_t nscc_symtab_var_id(const struct nscc_symtab *st, const char *name)
{
	struct nscc_sym *s = nscc_hash_get_str(&st->by_name, name);

	return s && s->mr ? (int64_t)s->mr->var_id : -ENOENT;
}

const char *nscc_symtab_name(const struct nscc_symtab *st, uint32_t var_id)
{
	struct nscc_sym *s = nscc_hash_get_u32(&st->by_id, var_id);

	return s ? s->name : NULL;
}

struct nscc_mr *nscc_symtab_object(const struct nscc_symtab *st,
				   uint32_t var_id)
{
	struct nscc_sym *s = nscc_hash_get_u32(&st->by_id, var_id);

	return s ? s->mr : NULL;
}
