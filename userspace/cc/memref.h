/* SPDX-License-Identifier: GPL-2.0 */
/*
 * memref.h - the mem_ref build tree (Documentation/compiler.rst, "The
 * kinds"): a base struct and one struct per class that embeds it.  A
 * var's class is its kind's build column in the kind table
 * (kmod/plan/kbin_kind.h).
 *
 *   nscc_mr                          base: var_id, mr_type, dtype, shape
 *     nscc_mr_sp                     MR_SB
 *     nscc_mr_io                     MR_INPUT / MR_OUTPUT
 *     nscc_mr_buffer                 MR_BUFFER / MR_BUFFER_STAGED
 *     nscc_mr_tmp_buf                MR_TMP_BUF
 *     nscc_mr_virtual_tmp_buf        MR_VIRTUAL_TMP_BUF
 *     nscc_mr_pointer                MR_PTR
 *     nscc_mr_list                   MR_LIST
 *       nscc_mr_ptr_table            MR_PTR_TABLE (dump = the list's)
 *     nscc_mr_remote_variable        MR_REMOTE
 *     nscc_mr_psum                   MR_PSUM (neuronsim's own kind)
 *
 * Each class has a const ops table {obj_size, init, size, dump, destroy};
 * dump serializes the object into the 152-byte kbin_mem_ref (plus the
 * name, debug metadata, payload and list the KBIN writer places in the
 * data area).
 */
#ifndef NSCC_MEMREF_H
#define NSCC_MEMREF_H

#include <stdint.h>
#include <linux/neuronsim_kbin.h>

#include "kbin_writer.h"
#include "neuronsim_cc.h"

struct nscc_mr;

/**
 * struct nscc_dump_ctx - what dump needs beyond the object.
 * @target_gen: KBIN_TARGET_*; MR_SB size is the target's SBUF bytes.
 * @name: the var's name (from the symbol table).
 */
struct nscc_dump_ctx {
	uint32_t target_gen;
	const char *name;
};

/**
 * struct nscc_mr_out - one serialized object.
 * @in: the record and the data-area items for kbin_writer_add_record();
 *	in.md points at @md when the object has debug metadata.
 * @md: storage for the 516-byte debug tensor metadata.
 */
struct nscc_mr_out {
	struct kbin_rec_in in;
	struct kbin_debug_tensor_md md;
};

/**
 * struct nscc_mr_ops - a class's operations (libnrt's 3-slot vtable
 * {dump, destructor, deleting destructor} with the two destructors
 * folded into one, plus what building needs).
 * @kind: libnrt's class name ("mem_ref_io").
 * @obj_size: bytes of the class's struct.
 * @init: fill the class's fields from the var (the base is filled);
 *	@alignment is the resolved alignment.  Return: 0 or -ENOMEM.  NULL
 *	for the abstract base.
 * @size: the size in bytes the record will carry.  NULL for the base.
 * @dump: fill @out; Return: 0 or -E2BIG (dtype > 15 characters, shape
 *	> 8 dimensions, debug prefix > 511 characters).
 * @destroy: free the object and everything it owns (also after a
 *	failed @init).
 */
struct nscc_mr_ops {
	const char *kind;
	size_t obj_size;
	int (*init)(struct nscc_mr *mr, const struct nscc_var *v,
		    uint64_t alignment);
	uint64_t (*size)(const struct nscc_mr *mr, uint32_t target_gen);
	int (*dump)(const struct nscc_mr *mr, const struct nscc_dump_ctx *ctx,
		    struct nscc_mr_out *out, struct nscc_err *err);
	void (*destroy)(struct nscc_mr *mr);
};

/** struct nscc_mr - the base every kind embeds first. */
struct nscc_mr {
	const struct nscc_mr_ops *ops;
	uint32_t var_id;
	uint32_t type;			/* enum kbin_mr_type */
	char *dtype;			/* NULL = none */
	uint64_t *shape;
	uint32_t ndims;
};

/** struct nscc_debug_md - device-print metadata (prefix NULL = none). */
struct nscc_debug_md {
	char *prefix;
	uint32_t pipe_id;
};

struct nscc_mr_sp {
	struct nscc_mr base;
};

struct nscc_mr_psum {
	struct nscc_mr base;
};

struct nscc_mr_io {
	struct nscc_mr base;
	uint64_t size;
	uint64_t alignment;
};

struct nscc_mr_tmp_buf {
	struct nscc_mr base;
	uint64_t size;
	uint64_t alignment;
	struct nscc_debug_md md;
};

struct nscc_mr_buffer {
	struct nscc_mr base;
	uint64_t size;
	uint64_t alignment;
	const void *payload;		/* borrowed from the model */
	uint64_t payload_len;
	struct nscc_debug_md md;
};

struct nscc_mr_virtual_tmp_buf {
	struct nscc_mr base;
	uint64_t size;
	uint64_t alignment;
	uint64_t offset;
	uint32_t backing_buf;
	struct nscc_debug_md md;
};

struct nscc_mr_pointer {
	struct nscc_mr base;
	uint32_t referenced_var_id;
	uint8_t io_ref;
};

struct nscc_mr_list {
	struct nscc_mr base;
	uint32_t *list;
	uint32_t length;
};

/* Second list: per-row pointers, rebuilt at load, never serialized. */
struct nscc_mr_ptr_table {
	struct nscc_mr_list list;
	uint32_t *row_ptrs;
	uint32_t num_rows;
};

struct nscc_mr_remote_variable {
	struct nscc_mr base;
	uint64_t size;
	uint32_t remote_sg;
	uint32_t remote_var_id;
};

extern const struct nscc_mr_ops nscc_mr_base_ops;
extern const struct nscc_mr_ops nscc_mr_sp_ops;
extern const struct nscc_mr_ops nscc_mr_io_ops;
extern const struct nscc_mr_ops nscc_mr_buffer_ops;
extern const struct nscc_mr_ops nscc_mr_tmp_buf_ops;
extern const struct nscc_mr_ops nscc_mr_virtual_tmp_buf_ops;
extern const struct nscc_mr_ops nscc_mr_pointer_ops;
extern const struct nscc_mr_ops nscc_mr_list_ops;
extern const struct nscc_mr_ops nscc_mr_ptr_table_ops;
extern const struct nscc_mr_ops nscc_mr_remote_variable_ops;
extern const struct nscc_mr_ops nscc_mr_psum_ops;

/**
 * nscc_mr_new() - build the object of the class the kind table's build
 * column gives @v->mr_type (libnrt's parse_one_variable).  The var must
 * have passed the compiler's rule checks (sizes, alignment resolved).
 * @alignment: resolved alignment in bytes.
 * Return: the object, or NULL with -ENOMEM / -EINVAL (unknown mr_type)
 * in @err.
 */
struct nscc_mr *nscc_mr_new(const struct nscc_var *v, uint64_t alignment,
			    struct nscc_err *err);

/**
 * nscc_mr_size() - the size in bytes the object's record will carry
 * (MR_SB: the SBUF bytes of @target_gen; MR_PTR: 8; lists: 4 per entry).
 */
uint64_t nscc_mr_size(const struct nscc_mr *mr, uint32_t target_gen);

/** nscc_mr_destroy() - call the kind's destroy; NULL ok. */
void nscc_mr_destroy(struct nscc_mr *mr);

/** nscc_mr_dump() - call the kind's dump (zeroes @out first). */
int nscc_mr_dump(const struct nscc_mr *mr, const struct nscc_dump_ctx *ctx,
		 struct nscc_mr_out *out, struct nscc_err *err);

/*
 * symtab.c - the symbol table (libnrt's mem_ref_info): three maps
 * name -> var_id, var_id -> name, var_id -> object (which owns it).
 */
struct nscc_symtab;

/** nscc_symtab_new() - an empty table; NULL on ENOMEM. */
struct nscc_symtab *nscc_symtab_new(void);
/** nscc_symtab_free() - destroy every owned object, free the table. */
void nscc_symtab_free(struct nscc_symtab *st);
/**
 * nscc_symtab_add() - check_var_exists + add_var_to_lookup_maps: add
 * @mr under @name (copied); the table owns @mr from now on, also on
 * failure (it is destroyed then).
 * Return: 0; -EEXIST the name or var_id is taken (message names both
 * vars); -ENOMEM.
 */
int nscc_symtab_add(struct nscc_symtab *st, const char *name,
		    struct nscc_mr *mr, struct nscc_err *err);
/** nscc_symtab_count() - number of vars. */
uint32_t nscc_symtab_count(const struct nscc_symtab *st);
/**
 * nscc_symtab_check_dense() - libnrt's rule: max var_id + 1 == count.
 * Return: 0 or -EINVAL "Unexpected var_ids set! (N vars, max var_id M)".
 */
int nscc_symtab_check_dense(const struct nscc_symtab *st,
			    struct nscc_err *err);
/** nscc_symtab_var_id() - name -> var_id; -ENOENT when absent. */
int64_t nscc_symtab_var_id(const struct nscc_symtab *st, const char *name);
/** nscc_symtab_name() - var_id -> name; NULL when absent. */
const char *nscc_symtab_name(const struct nscc_symtab *st, uint32_t var_id);
/** nscc_symtab_object() - var_id -> object; NULL when absent. */
struct nscc_mr *nscc_symtab_object(const struct nscc_symtab *st,
				   uint32_t var_id);

#endif /* NSCC_MEMREF_H */
