/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bir_tol.h - the tolerance of an engine program's outputs against the
 * reference interpreter (Documentation/compiler-passes.rst, "Lowering to
 * engine programs" and "Random modules"), in one place for bir_prog and
 * the second oracle of bir_gen.
 *
 * The engines compute with the numerics library (kbin_num.h), the
 * interpreter with libm.  Every operation is exact IEEE float32 on both
 * sides, in the same order (copy, memset, add, subtract, multiply,
 * divide, max, identity, relu, square, rsqrt, reciprocal; the
 * reductions' and the matmul's sums left to right), except the
 * activation functions built on exp (gelu's tanh, sigmoid, tanh, exp,
 * silu), which differ by a few ULP.  An Output no such function reaches
 * (through the locations instructions read and write, to a fixed point)
 * must be byte-identical; one it reaches must be within
 * |got - want| <= abs + rel * |want|.
 */
#ifndef _NEURONSIM_BIR_TOL_H
#define _NEURONSIM_BIR_TOL_H

#include <stdbool.h>
#include <stdint.h>
#include "bir/bir.h"

/* the tolerance of an Output that an exp-based activation reaches */
#define BIR_TOL_EXP_ABS		1e-5
#define BIR_TOL_EXP_REL		1e-4

/**
 * struct bir_tol - how an output is compared.
 * @exact: byte-identical required (NaN and NaN of any payload agree).
 * @abs, @rel: else |got - want| <= @abs + @rel * |want| (a NaN on one
 *	side never is).
 * @why: the operation class, for messages.
 */
struct bir_tol {
	bool exact;
	double abs, rel;
	const char *why;
};

/**
 * struct bir_tol_worst - the worst error seen over bir_tol_cmp() calls
 * (start zeroed): absolute, relative and in ULP.
 */
struct bir_tol_worst {
	double abs, rel;
	uint32_t ulp;
};

/** bir_tol_inexact() - whether instruction @i is not exact (a reason) or NULL. */
const char *bir_tol_inexact(const struct bir_inst *i);
/**
 * bir_tol_output() - the tolerance of Output location @name of the final
 * module @m: exact unless an instruction bir_tol_inexact() names reaches
 * it (then BIR_TOL_EXP_ABS, BIR_TOL_EXP_REL, plus 2^-m relative for an
 * output of a float dtype of m < 23 mantissa bits).
 */
void bir_tol_output(const struct bir_module *m, const char *name,
		    struct bir_tol *t);
/**
 * bir_tol_cmp() - @got against @want (@n float32) under @t; @w (may be
 * NULL) gets the worst errors; *@first (may be NULL) the first element
 * out of tolerance.  Return: the elements out of tolerance.
 */
uint64_t bir_tol_cmp(const struct bir_tol *t, const float *got,
		     const float *want, uint64_t n, struct bir_tol_worst *w,
		     uint64_t *first);

#endif /* _NEURONSIM_BIR_TOL_H */
