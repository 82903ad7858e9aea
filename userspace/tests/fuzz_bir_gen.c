// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_bir_gen.c - libFuzzer target of the BIR backend passes
 * (Documentation/compiler-passes.rst, "Random modules";
 * Documentation/security.rst): the input's first eight bytes (little
 * endian, missing ones 0) are the seed of two random well-formed modules
 * (testlib/bir_gen.c).  The first must be read, pass bir_run_passes(),
 * and give the same outputs in the reference interpreter before and
 * after the passes, byte for byte (bir_gen_oracle_interp).  The second,
 * a module the lowering takes (BIR_GEN_F_LOWERABLE), must give the
 * interpreter's outputs before the passes in the host reference of its
 * lowered plan (bir_gen_oracle_prog: byte for byte, or within bir_tol's
 * tolerance where an exp-based activation reaches an output).  A failure
 * is shrunk, printed with its seed and module (the smallest that fails
 * the same way) and aborts; the seed reproduces it in the host test
 * (BIR_GEN_SEED=N, or BIR_GEN_PROG_SEED=N for the second,
 * build/host/tests/bir_gen_test).  ASan and UBSan watch the reader, the
 * passes, the interpreter, the lowering and the host reference.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "bir_gen.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* the module of @seed (@flags) through @oracle; a failure aborts */
static void one(uint64_t seed, unsigned int flags,
		const struct bir_gen_oracle *oracle)
{
	struct bir_gen_result r;
	struct bir_gen *g = bir_gen_new_flags(seed, flags);
	char *s;

	if (!g)
		return;
	if (bir_gen_check(g, oracle, &r)) {
		fprintf(stderr, "bir_gen seed %llu (%s): %s: %s\n",
			(unsigned long long)seed, oracle->name,
			bir_gen_stage_name(r.stage), r.msg);
		bir_gen_shrink(g, oracle, r.stage);
		bir_gen_check(g, oracle, &r);
		s = bir_gen_json(g);
		fprintf(stderr, "bir_gen seed %llu (%s) shrunk to %u items: %s: %s\n%s",
			(unsigned long long)seed, oracle->name, bir_gen_nkept(g),
			bir_gen_stage_name(r.stage), r.msg, s ? s : "");
		free(s);
		abort();
	}
	bir_gen_free(g);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t seed = 0;

	for (size_t k = 0; k < size && k < 8; k++)
		seed |= (uint64_t)data[k] << (8 * k);
	one(seed, 0, &bir_gen_oracle_interp);
	one(seed, BIR_GEN_F_LOWERABLE, &bir_gen_oracle_prog);
	return 0;
}
