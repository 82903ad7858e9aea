// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_bir_gen.c - libFuzzer target of the BIR backend passes
 * (Documentation/compiler-passes.rst, "Random modules";
 * Documentation/security.rst): the input's first eight bytes (little
 * endian, missing ones 0) are the seed of a random well-formed module
 * (testlib/bir_gen.c), which must be read, pass bir_run_passes(), and
 * give the same outputs in the reference interpreter before and after
 * the passes, byte for byte.  A failure is shrunk, printed with its seed
 * and module (the smallest that fails the same way) and aborts; the seed
 * reproduces it in the host test (BIR_GEN_SEED=N build/host/tests/
 * bir_gen_test).  ASan and UBSan watch the reader, the passes and the
 * interpreter.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "bir_gen.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bir_gen_result r;
	struct bir_gen *g;
	uint64_t seed = 0;
	char *s;

	for (size_t k = 0; k < size && k < 8; k++)
		seed |= (uint64_t)data[k] << (8 * k);
	g = bir_gen_new(seed);
	if (!g)
		return 0;
	if (bir_gen_check(g, NULL, &r)) {
		fprintf(stderr, "bir_gen seed %llu: %s: %s\n",
			(unsigned long long)seed, bir_gen_stage_name(r.stage),
			r.msg);
		bir_gen_shrink(g, NULL, r.stage);
		bir_gen_check(g, NULL, &r);
		s = bir_gen_json(g);
		fprintf(stderr, "bir_gen seed %llu shrunk to %u items: %s: %s\n%s",
			(unsigned long long)seed, bir_gen_nkept(g),
			bir_gen_stage_name(r.stage), r.msg, s ? s : "");
		free(s);
		abort();
	}
	bir_gen_free(g);
	return 0;
}
