/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fuzz_util.h - the libFuzzer entry boilerplate the fuzz targets of
 * userspace/tests/fuzz.mk share (Documentation/security.rst).
 */
#ifndef _FUZZ_UTIL_H
#define _FUZZ_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kbin_mutate.h"
#include "kbin_writer.h"

/* libFuzzer's entry points (the targets define them) and its mutator */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max,
			       unsigned int seed);
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max);

/**
 * fuzz_exact_copy() - run @one on an exact-size copy of libFuzzer's input.
 * @data: the input, @size bytes (libFuzzer's buffer may be larger).
 * @size: its length in bytes.
 * @one: the target's check; it may change the copy.
 *
 * The copy is malloc()ed at exactly @size bytes (one byte when @size is
 * 0), so it is 8-byte aligned and ASan sees every overread past its end.
 *
 * Return: 0 (libFuzzer's "keep going"), also when the copy cannot be made.
 */
static inline int fuzz_exact_copy(const uint8_t *data, size_t size,
				  void (*one)(uint8_t *p, size_t n))
{
	uint8_t *p = malloc(size ? size : 1);

	if (!p)
		return 0;
	memcpy(p, data, size);
	one(p, size);
	free(p);
	return 0;
}

/**
 * fuzz_kbin_mutate() - the custom mutator of the structure-aware KBIN
 *	targets: one call in five (and always on an empty input)
 *	libFuzzer's own byte mutation, its checksum then fixed three times
 *	in four; otherwise @mutate's structured one.
 * @data: the input, in place; has room for @max bytes.
 * @size: its length in bytes.
 * @max: the most bytes the result may have.
 * @seed: libFuzzer's seed; the choice and @mutate draw from kbin_rand().
 * @mutate: kbin_mutate() or kbin_mutate_prog().
 *
 * Return: the new length (<= @max).
 */
static inline size_t fuzz_kbin_mutate(uint8_t *data, size_t size, size_t max,
				      unsigned int seed,
				      size_t (*mutate)(uint8_t *buf, size_t len,
						       size_t max,
						       uint64_t *state))
{
	uint64_t st = seed;

	if (!size || !(kbin_rand(&st) % 5)) {
		size = LLVMFuzzerMutate(data, size, max);
		if (kbin_rand(&st) % 4)
			kbin_fix_checksum(data, size);
		return size;
	}
	return mutate(data, size, max, &st);
}

#endif /* _FUZZ_UTIL_H */
