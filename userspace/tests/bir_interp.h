/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bir_interp.h - the reference interpreter of the BIR host tests
 * (bir_interp.c, linked into the tests only; the library does not ship
 * it).  float32 semantics of the primitives, branches, registers, loops
 * and kernel call sites (Documentation/compiler-passes.rst, "Reference
 * interpreter").
 */
#ifndef BIR_INTERP_H
#define BIR_INTERP_H

#include "bir/bir.h"

struct bir_interp;

/**
 * bir_interp_new() - an interpreter for the first function of @m.
 * Return: the interpreter, or NULL with @err set (no function) or on
 * ENOMEM.
 */
struct bir_interp *bir_interp_new(const struct bir_module *m,
				  struct nscc_err *err);
/** bir_interp_free() - free @it; NULL ok. */
void bir_interp_free(struct bir_interp *it);
/**
 * bir_interp_set() - fill location @name with @n values given as float32
 * (its partitions x bytes per partition / its dtype's size), cast to its
 * dtype.  Return: 0; -EINVAL no such location, a dtype the interpreter
 * does not compute in, or another count.
 */
int bir_interp_set(struct bir_interp *it, const char *name,
		   const float *v, uint64_t n, struct nscc_err *err);
/** bir_interp_get() - read @n values of location @name, as float32. */
int bir_interp_get(struct bir_interp *it, const char *name, float *v,
		   uint64_t n, struct nscc_err *err);
/** bir_interp_run() - execute; -EINVAL on an unsupported instruction. */
int bir_interp_run(struct bir_interp *it, struct nscc_err *err);

#endif /* BIR_INTERP_H */
