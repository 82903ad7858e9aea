/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbin_mutate.h - a structure-aware KBIN plan mutator, shared by the host
 * libFuzzer target fuzz_kbin_struct and the in-VM ioctl_fuzz_test.
 *
 * It walks a (possibly already damaged) plan with bounds checks, picks a
 * field that the layout defines - a header field, a subgraph table entry
 * or carve-out, a mem_ref set header, a record's mr_type, name, size,
 * alignment, var_id, dtype, shape, dtensor_md, buffer, union (pointer
 * target, virtual offset and backing buffer, list length and offset,
 * remote subgraph and var), a list entry, a payload header, the version 2
 * header fields, the DMA section's counts and subgraph entries, a DMA
 * queue, block or descriptor field (var_ids near a set's end, sizes near
 * the 64 KiB piece limit), the program section's counts and stream
 * ranges, a decoded entry, an instruction record's opcode, modes,
 * semaphores, wait value or queue name (then, in a valid plan, mostly
 * its entries written again so the rules behind them are reached) - and
 * writes
 * an "interesting" value into it (0, 1, all ones, the field's neighbours,
 * another record's value, a power of two, a boundary of the file), or
 * flips raw bytes, or truncates/extends the plan.  Most of the time the
 * checksum is fixed up afterwards so the mutation reaches the rules behind
 * it.  All randomness comes from one 64-bit state, so a run is
 * reproducible from its seed.
 */
#ifndef _KBIN_MUTATE_H
#define _KBIN_MUTATE_H

#include <stddef.h>
#include <stdint.h>

/**
 * kbin_rand() - the next pseudo-random number (splitmix64).
 * @state: the generator state, updated.
 *
 * Return: 64 random bits.
 */
uint64_t kbin_rand(uint64_t *state);

/**
 * kbin_mutate() - apply 1..4 structured or raw mutations in place.
 * @buf: the plan; has room for @max bytes.
 * @len: its length.
 * @max: the most bytes the result may have.
 * @state: generator state.
 *
 * Return: the new length (<= @max, >= 1 unless @len was 0).
 */
size_t kbin_mutate(uint8_t *buf, size_t len, size_t max, uint64_t *state);
/**
 * kbin_mutate_prog() - as kbin_mutate(), aimed at the program section:
 *	1..3 of its mutations (one call in eight, or a plan without a
 *	program section: kbin_mutate()).
 * @buf: the plan; has room for @max bytes.
 * @len: its length.
 * @max: the most bytes the result may have.
 * @state: generator state.
 *
 * Return: the new length.
 */
size_t kbin_mutate_prog(uint8_t *buf, size_t len, size_t max,
			uint64_t *state);

/**
 * struct kbin_bad_transpose - a transpose_shape the rules must refuse
 *	(Documentation/security.rst): on a descriptor of @bytes bytes of
 *	@elem_size-byte elements, transpose_op "WZXY".
 * @what: what is wrong with it.
 * @shape: transpose_shape [W, Z, Y, X].
 * @elem_size: transpose_element_size, 2 (float16) or 4 (float32).
 * @bytes: the from (and to) side's bytes: 128 rows of 128 elements.
 */
struct kbin_bad_transpose {
	const char *what;
	uint32_t shape[4];
	uint8_t elem_size;
	uint32_t bytes;
};

/*
 * The crafted shapes: element size x the four dimensions wrapping 64 bits
 * to the descriptor's bytes, to an element, to zero; zero dimensions; a
 * product that is not a divisor of the bytes; a tile larger than them.
 * The fuzz targets' seeds carry them (kbin_seedgen), kbin_mutate() writes
 * them into descriptors, and run_test loads each in the VM.
 */
extern const struct kbin_bad_transpose kbin_bad_transposes[];
extern const unsigned int kbin_num_bad_transposes;

#endif /* _KBIN_MUTATE_H */
