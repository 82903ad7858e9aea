/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bir_gen.h - random well-formed BIR modules from a seed, and the
 * differential check of the backend passes on them
 * (Documentation/compiler-passes.rst, "Random modules").
 *
 * A generated module is kept as a list of items (one or a few
 * instructions each: a primitive, a Loop with its body, a kernel call,
 * the two halves of a branch) rendered to BIR JSON text and read by the
 * BIR reader; the shrinker drops items and renders again.  deps name
 * earlier items and are rendered only while the item they name is kept.
 *
 * The check: the reference interpreter (bir_interp.c) on the module as
 * generated gives the reference outputs; a struct bir_gen_oracle runs the
 * final module (after bir_run_passes()) on the same inputs.  The oracle
 * is the seam: bir_gen_oracle_interp runs the interpreter on the final
 * module (byte-identical outputs); bir_gen_oracle_prog lowers it to a
 * plan and runs the plan's host reference (prog_ref_run()) on a module
 * made with BIR_GEN_F_LOWERABLE, byte-identical or within bir_tol.h's
 * tolerance; an oracle that runs the plan on the device plugs in the
 * same way.
 */
#ifndef _NEURONSIM_BIR_GEN_H
#define _NEURONSIM_BIR_GEN_H

#include <stdbool.h>
#include <stdint.h>
#include "bir/bir.h"
#include "bir_tol.h"

/* what an item is; bit (1 << kind) of bir_gen_kinds() */
enum bir_gen_kind {
	BG_COPY, BG_MEMSET, BG_ACT, BG_TT, BG_TS, BG_TS_AP, BG_REDUCE,
	BG_MATMULT, BG_TRANSPOSE, BG_GATHER, BG_INDIRECT, BG_BRANCH, BG_JUMP,
	BG_LOOP, BG_NKI, BG_BIRK_ACT, BG_BIRK_RMS, BG_BIRK_LN, BG_BIRK_MLP,
	BG_BIRK_ATTN, BG_STORE, BG_NKINDS
};

/** bir_gen_kind_name() - short name of @k ("copy", "loop", ...). */
const char *bir_gen_kind_name(enum bir_gen_kind k);

struct bir_gen;

/**
 * bir_gen_new() - generate the module of @seed.
 * Return: the generator state, NULL on ENOMEM.
 */
struct bir_gen *bir_gen_new(uint64_t seed);
/*
 * BIR_GEN_F_LOWERABLE: a module the lowering to engine programs takes
 * (bir_lower_prog()): the primitives it lowers, gathers through a
 * register, a diamond in main, kernel calls whose bodies have no
 * diamond, PSUM locations, Loops, inputs and outputs of
 * main in bfloat16 or float16 now and then; partition step 1.
 */
#define BIR_GEN_F_LOWERABLE	1U

/**
 * bir_gen_new_flags() - bir_gen_new() with BIR_GEN_F_* @flags (0: the
 * module bir_gen_new() makes).
 * Return: the generator state, NULL on ENOMEM.
 */
struct bir_gen *bir_gen_new_flags(uint64_t seed, unsigned int flags);
/** bir_gen_free() - free @g; NULL ok. */
void bir_gen_free(struct bir_gen *g);
/** bir_gen_seed() - the seed @g was made from. */
uint64_t bir_gen_seed(const struct bir_gen *g);
/** bir_gen_nitems() - items generated (kept or dropped). */
uint32_t bir_gen_nitems(const struct bir_gen *g);
/** bir_gen_nkept() - items not dropped. */
uint32_t bir_gen_nkept(const struct bir_gen *g);
/** bir_gen_set_dropped() - drop (or keep again) item @k. */
void bir_gen_set_dropped(struct bir_gen *g, uint32_t k, bool dropped);
/** bir_gen_kinds() - the kinds of the kept items, bit (1 << kind). */
uint32_t bir_gen_kinds(const struct bir_gen *g);
/**
 * bir_gen_json() - the BIR JSON text of the kept items (malloc'd, NULL
 * on ENOMEM).  A kernel function is written only while a kept call site
 * names it.
 */
char *bir_gen_json(const struct bir_gen *g);
/**
 * bir_gen_opts() - the pass options the seed chose (enable_bir_kernel:
 * the BIR kernel inliner's placement), everything else zero.
 */
void bir_gen_opts(const struct bir_gen *g, struct bir_opts *o);

/**
 * struct bir_gen_io - the tensors of one run: every Input (values set)
 * and Output (filled by the run) location of the entry function, @n
 * float32 values each.
 */
struct bir_gen_tensor {
	const char *name;
	bool output;
	uint64_t n;
	float *v;
	struct bir_tol tol;	/* an output: exact unless the oracle says */
};

struct bir_gen_io {
	uint32_t n;
	struct bir_gen_tensor *t;
};

/**
 * struct bir_gen_oracle - how the final module runs.
 * @name: for messages ("interp").
 * @run: set the inputs of @io on @final (the module after
 *	bir_run_passes(), the options of bir_gen_opts()), run it, fill the
 *	outputs of @io.  Return: 0, or a negative errno with @err set.
 * @ctx: passed to @run.
 */
struct bir_gen_oracle {
	const char *name;
	int (*run)(void *ctx, const struct bir_module *final,
		   struct bir_gen_io *io, struct nscc_err *err);
	void *ctx;
};

/* the reference interpreter on the final module */
extern const struct bir_gen_oracle bir_gen_oracle_interp;
/*
 * the host reference of the lowered plan: nscc_bir_compile_module() on
 * the final module (a refusal of the engine program is an oracle
 * error), the inputs written at synthetic DRAM addresses by var id,
 * prog_ref_run(), the outputs read back; each output's tolerance is
 * bir_tol_output()'s (byte-identical unless an exp-based activation
 * reaches it)
 */
extern const struct bir_gen_oracle bir_gen_oracle_prog;

/* where a check stopped; BG_OK: outputs identical */
enum bir_gen_stage {
	BG_OK, BG_READER, BG_PASSES, BG_REFERENCE, BG_ORACLE, BG_DIFFER,
};

/**
 * struct bir_gen_result - what bir_gen_check() found.
 * @stage: BG_OK, or where it stopped.  BG_READER and BG_REFERENCE are
 *	generator bugs (the module must be well formed and run), BG_PASSES
 *	a refusal of a well-formed module, BG_DIFFER outputs differ.
 * @ndiff: outputs that differ (BG_DIFFER).
 * @msg: the error, or the first differing output and element.
 */
struct bir_gen_result {
	enum bir_gen_stage stage;
	int ndiff;
	char msg[512];
	struct bir_tol_worst worst;
};

/**
 * bir_gen_check() - read the module of @g, copy it, run the passes on
 * the copy, run the reference interpreter on the original and @oracle
 * (NULL: bir_gen_oracle_interp) on the copy with the same random inputs
 * (from the seed), and compare every Output byte for byte (or within
 * the tolerance the oracle set; @res->worst gets the worst error).
 * Return: @res->stage (0 when identical).
 */
int bir_gen_check(const struct bir_gen *g, const struct bir_gen_oracle *oracle,
		  struct bir_gen_result *res);

/**
 * bir_gen_check_text() - bir_gen_check() of the BIR JSON text @text (a
 * module printed by the test, or a hand-written reproducer): the passes
 * run with the options @o, the inputs are random from @seed.
 * Return: @res->stage.
 */
int bir_gen_check_text(const char *text, uint64_t seed,
		       const struct bir_opts *o,
		       const struct bir_gen_oracle *oracle,
		       struct bir_gen_result *res);

/**
 * bir_gen_shrink() - drop items one at a time, keeping each drop after
 * which bir_gen_check() still stops at @stage, until no single drop
 * keeps it there.  Return: the items kept.
 */
uint32_t bir_gen_shrink(struct bir_gen *g, const struct bir_gen_oracle *oracle,
			enum bir_gen_stage stage);

/** bir_gen_stage_name() - "ok", "reader", "passes", ... */
const char *bir_gen_stage_name(enum bir_gen_stage s);

#endif /* _NEURONSIM_BIR_GEN_H */
