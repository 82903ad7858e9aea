/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tl_rec.h - the test library's plan builders on the KBIN writer
 * (userspace/cc/kbin_writer.h), for host tests, fuzz targets, selftests
 * and benches alike (Documentation/running.rst, "The test library").
 *
 * A record is a struct tl_rec of named fields; what a test leaves out
 * keeps its default (zero, an alignment of 1):
 *
 *	e |= TL_ADD(w, .id = 1, .type = KBIN_MR_INPUT, .name = "input0",
 *		    .size = n, .align = 4096, .dtype = "uint8", .d0 = n, .d1 = 1);
 */
#ifndef _NEURONSIM_TL_REC_H
#define _NEURONSIM_TL_REC_H

#include <stdint.h>

#include "kbin_writer.h"

/**
 * struct tl_rec - one record for tl_add().
 * @sg: its subgraph (0 by default).
 * @id: its var_id.
 * @type: enum kbin_mr_type.
 * @name: the variable's name; required.
 * @size: its size in bytes.
 * @align: its alignment; 0 is 1.
 * @dtype: its dtype name, or NULL for none.
 * @d0: the first dimension of its 2-D shape; 0 for no shape.
 * @d1: the second dimension (kept only with @d0).
 * @payload: @size bytes of weight payload, or NULL.
 * @list: @nlist index entries (MR_LIST, MR_PTR_TABLE), or NULL.
 * @nlist: entries at @list.
 * @md: debug tensor metadata, or NULL.
 * @offset: MR_VIRTUAL_TMP_BUF: its offset in the scratchpad.
 * @backing: MR_VIRTUAL_TMP_BUF: enum kbin_backing_buf.
 * @rel_sg: MR_REMOTE: the subgraph it points into.
 * @var: MR_REMOTE: the var_id it points at; MR_PTR: its target.
 * @io_ref: MR_PTR: its io_ref.
 */
struct tl_rec {
	int sg;
	uint32_t id;
	uint32_t type;
	const char *name;
	uint64_t size;
	uint64_t align;
	const char *dtype;
	uint64_t d0, d1;
	const void *payload;
	const uint32_t *list;
	uint32_t nlist;
	const struct kbin_debug_tensor_md *md;
	uint64_t offset;
	uint32_t backing;
	uint32_t rel_sg;
	uint32_t var;
	uint32_t io_ref;
};

/**
 * tl_rec_in() - the writer's input for a record.
 * @r: the record.
 * @in: filled in (its pointers are @r's).
 */
void tl_rec_in(const struct tl_rec *r, struct kbin_rec_in *in);

/**
 * tl_add() - add record @r to the plan of @w.
 * @w: the writer.
 * @r: the record.
 *
 * Return: 0 or kbin_writer_add_record()'s negative errno.
 */
int tl_add(struct kbin_writer *w, const struct tl_rec *r);

/* tl_add() of a record given by its named fields */
#define TL_ADD(w, ...) tl_add((w), &(struct tl_rec){ __VA_ARGS__ })

/**
 * struct tl_queue - one DMA queue owned by SP, for tl_add_queue().
 * @sg: its subgraph.
 * @name: its name; required.
 * @type: enum kbin_dma_queue_type.
 * @num_queues: its num_queues; 0 is 1.
 * @nsem: semaphores in @sem; 0 is 1.
 * @sem: its semaphore set.
 * @fabric_path: its fabric path, or NULL.
 */
struct tl_queue {
	int sg;
	const char *name;
	uint32_t type;
	uint32_t num_queues;
	uint32_t nsem;
	uint32_t sem[2];
	const char *fabric_path;
};

/**
 * tl_add_queue() - add DMA queue @q to the plan of @w.
 * @w: the writer.
 * @q: the queue.
 *
 * Return: 0 or kbin_writer_add_dma_queue()'s negative errno.
 */
int tl_add_queue(struct kbin_writer *w, const struct tl_queue *q);

/* tl_add_queue() of a queue given by its named fields */
#define TL_QUEUE(w, ...) tl_add_queue((w), &(struct tl_queue){ __VA_ARGS__ })

/**
 * tl_side() - a DMA descriptor side.
 * @var: its var_id.
 * @dtype: enum kbin_dma_dtype.
 * @off: its offset.
 * @n: its dimensions (at most KBIN_DMA_MAX_DIMS are kept).
 * @sz: @n sizes.
 * @st: @n steps.
 *
 * Return: the side, every other field zero.
 */
struct kbin_dma_side tl_side(uint32_t var, uint32_t dtype, uint64_t off,
			     uint32_t n, const uint32_t *sz, const uint64_t *st);

/* the var_ids of an I/O plan (tl_io_plan()) */
enum { TL_IO_SB, TL_IO_IN, TL_IO_OUT };

/**
 * struct tl_io - the I/O plan the DMA tests and benches start from.
 * @gen: the generation (enum kbin_target; struct neuronsim_info arch_gen).
 * @sb_size: the state buffer's size (neuronsim_info sbuf_window_size).
 * @size: bytes of input0 and of output0.
 * @align: their alignment.
 * @dtype: their dtype.
 * @d0: the first dimension of their shape.
 * @d1: the second.
 */
struct tl_io {
	uint32_t gen;
	uint64_t sb_size;
	uint64_t size;
	uint64_t align;
	const char *dtype;
	uint64_t d0, d1;
};

/**
 * tl_io_plan() - a new writer with the I/O plan: subgraph "sg00" with
 * the state buffer (var TL_IO_SB, alignment 1), MR_INPUT "input0"
 * (TL_IO_IN) and MR_OUTPUT "output0" (TL_IO_OUT) as @io describes them.
 * @io: the plan's sizes.
 * @e: set to -EINVAL when a step failed, else left as it is; the caller
 *	ORs its own steps into it and ends with plan_finish() or
 *	kbin_writer_finish().
 *
 * Return: the writer, NULL when out of memory.
 */
struct kbin_writer *tl_io_plan(const struct tl_io *io, int *e);

/* the var_ids of a PSUM plan (tl_psum_plan()): the I/O plan's, then PSUM */
enum { TL_PSUM_VAR = TL_IO_OUT + 1 };
/* its DMA queues (and semaphores): qIn copies input0 to PSUM, qOut back */
enum { TL_PSUM_Q_IN, TL_PSUM_Q_OUT };
#define TL_PSUM_SEM_IN	10U
#define TL_PSUM_SEM_OUT	11U

/**
 * struct tl_psum - the PSUM plan (Documentation/hardware.rst, "Kinds"):
 * the I/O plan plus an MR_PSUM variable and two DMA blocks through it.
 * @gen: the generation; the PSUM geometry is its row of the generation
 *	table (kbin_gen.h).
 * @sb_size: the state buffer's size (neuronsim_info sbuf_window_size).
 * @psum_size: the MR_PSUM record's size; 0 is the generation's window.
 * @run: bytes a DMA run moves in one PSUM partition.
 * @parts: partitions the runs cover, one run each; input0 and output0
 *	are @run x @parts bytes.
 * @first: the first partition.
 * @byte: the runs' first byte inside each partition.
 */
struct tl_psum {
	uint32_t gen;
	uint64_t sb_size;
	uint64_t psum_size;
	uint32_t run;
	uint32_t parts;
	uint32_t first;
	uint32_t byte;
};

/**
 * tl_psum_plan() - a new writer with the PSUM plan: the I/O plan of
 * @ps's sizes (vars TL_IO_SB, TL_IO_IN, TL_IO_OUT, @run x @parts bytes
 * each) and MR_PSUM "psum" (TL_PSUM_VAR); DMA queue "qIn" (semaphore
 * TL_PSUM_SEM_IN) copies input0 to partitions @first.. of PSUM, @run
 * bytes at byte @byte of each, in one block; "qOut" (TL_PSUM_SEM_OUT)
 * copies them back to output0.
 * @ps: the plan's geometry.
 * @e: as tl_io_plan()'s; also -EINVAL for a generation no plan targets.
 *
 * Return: the writer, NULL when out of memory.
 */
struct kbin_writer *tl_psum_plan(const struct tl_psum *ps, int *e);

#endif /* _NEURONSIM_TL_REC_H */
