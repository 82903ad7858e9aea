/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * kbin_layout.h - compile-time asserts that pin the KBIN on-disk layout
 * (uapi/linux/neuronsim_kbin.h) to Documentation/kbin-format.rst: the
 * 152-byte kbin_mem_ref with every field at libnrt's offset, the 24-byte
 * kbin_mem_ref_set header, the 516-byte debug tensor metadata, the
 * version 2 header, the records of the DMA section and those of the
 * program section (version 3).
 *
 * Included by kmod/plan/kbin_check.c, which is compiled into the module and
 * into the host build, so both builds assert the same layout.
 */
#ifndef _NEURONSIM_KBIN_LAYOUT_H
#define _NEURONSIM_KBIN_LAYOUT_H

#ifdef __KERNEL__
#include <linux/build_bug.h>
#include <linux/stddef.h>
#else
#include <assert.h>
#include <stddef.h>
#endif
#include <linux/neuronsim_kbin.h>

#define KBIN_ASSERT_OFF(t, f, o) \
	static_assert(offsetof(struct t, f) == (o), #t "." #f " must be at offset " #o)

static_assert(sizeof(struct kbin_mem_ref) == 152, "kbin_mem_ref is 152 bytes");
KBIN_ASSERT_OFF(kbin_mem_ref, mr_type, 0);
KBIN_ASSERT_OFF(kbin_mem_ref, name, 8);
KBIN_ASSERT_OFF(kbin_mem_ref, size, 16);
KBIN_ASSERT_OFF(kbin_mem_ref, alignment, 24);
KBIN_ASSERT_OFF(kbin_mem_ref, var_id, 32);
KBIN_ASSERT_OFF(kbin_mem_ref, dtype, 36);
KBIN_ASSERT_OFF(kbin_mem_ref, pad1, 52);
KBIN_ASSERT_OFF(kbin_mem_ref, shape, 56);
KBIN_ASSERT_OFF(kbin_mem_ref, dtensor_md, 120);
KBIN_ASSERT_OFF(kbin_mem_ref, buffer, 128);
KBIN_ASSERT_OFF(kbin_mem_ref, pointer.referenced_var_id, 136);
KBIN_ASSERT_OFF(kbin_mem_ref, pointer.io_ref, 140);
KBIN_ASSERT_OFF(kbin_mem_ref, virt.offset, 136);
KBIN_ASSERT_OFF(kbin_mem_ref, virt.backing_buf, 144);
KBIN_ASSERT_OFF(kbin_mem_ref, list.length, 136);
KBIN_ASSERT_OFF(kbin_mem_ref, list.list, 144);
KBIN_ASSERT_OFF(kbin_mem_ref, remote.remote_vtpb_rel_sg_id, 136);
KBIN_ASSERT_OFF(kbin_mem_ref, remote.remote_var_id, 140);
static_assert(sizeof(struct kbin_mem_ref_set) == 24, "kbin_mem_ref_set is 24 bytes");
KBIN_ASSERT_OFF(kbin_mem_ref_set, nmem, 16);
KBIN_ASSERT_OFF(kbin_mem_ref_set, mem, 24);
static_assert(sizeof(struct kbin_debug_tensor_md) == 516, "debug md is 516 bytes");
static_assert(sizeof(struct kbin_header) == 64, "kbin_header is 64 bytes");
static_assert(sizeof(struct kbin_sb_carveout) == 24, "carve-out is 24 bytes");
static_assert(sizeof(struct kbin_subgraph) == 152, "kbin_subgraph is 152 bytes");
static_assert(sizeof(struct kbin_payload_hdr) == 16, "payload header is 16 bytes");
static_assert(sizeof(struct kbin_header) + sizeof(struct kbin_header_ext) ==
	      KBIN_HEADER_SIZE, "the version 2 header is 96 bytes");
static_assert(sizeof(struct kbin_header) == KBIN_HEADER_SIZE_V1,
	      "the version 1 header is 64 bytes");
static_assert(sizeof(struct kbin_dma_section) == 16, "DMA section header is 16 bytes");
static_assert(sizeof(struct kbin_dma_sg) == 24, "DMA subgraph entry is 24 bytes");
static_assert(sizeof(struct kbin_dma_queue) == 64, "DMA queue is 64 bytes");
static_assert(sizeof(struct kbin_dma_block) == 32, "DMA block is 32 bytes");
static_assert(sizeof(struct kbin_dma_side) == 64, "DMA side is 64 bytes");
static_assert(sizeof(struct kbin_dma_desc) == 152, "DMA descriptor is 152 bytes");
KBIN_ASSERT_OFF(kbin_header_ext, dma_off, 0);
KBIN_ASSERT_OFF(kbin_header_ext, dma_size, 8);
KBIN_ASSERT_OFF(kbin_dma_section, sg, 16);
KBIN_ASSERT_OFF(kbin_dma_queue, semaphores, 16);
KBIN_ASSERT_OFF(kbin_dma_queue, num_semaphores, 24);
KBIN_ASSERT_OFF(kbin_dma_queue, first_block, 40);
KBIN_ASSERT_OFF(kbin_dma_queue, sb_scratch_offset, 52);
KBIN_ASSERT_OFF(kbin_dma_block, queue, 8);
KBIN_ASSERT_OFF(kbin_dma_block, first_desc, 24);
KBIN_ASSERT_OFF(kbin_dma_side, steps, 8);
KBIN_ASSERT_OFF(kbin_dma_side, sizes, 40);
KBIN_ASSERT_OFF(kbin_dma_side, var_id, 56);
KBIN_ASSERT_OFF(kbin_dma_side, dtype, 60);
KBIN_ASSERT_OFF(kbin_dma_side, num_dims, 61);
KBIN_ASSERT_OFF(kbin_dma_desc, to, 64);
KBIN_ASSERT_OFF(kbin_dma_desc, op, 128);
KBIN_ASSERT_OFF(kbin_dma_desc, transpose_op, 132);
KBIN_ASSERT_OFF(kbin_dma_desc, transpose_shape, 136);
KBIN_ASSERT_OFF(kbin_header_ext, prog_off, 16);
KBIN_ASSERT_OFF(kbin_header_ext, prog_size, 24);
static_assert(sizeof(struct kbin_prog_section) == 16, "program section header is 16 bytes");
static_assert(sizeof(struct kbin_prog_stream) == 8, "program stream is 8 bytes");
static_assert(sizeof(struct kbin_prog_sg) == 40, "program subgraph entry is 40 bytes");
static_assert(sizeof(struct kbin_compute_ap) == 16, "compute operand is 16 bytes");
static_assert(sizeof(struct kbin_compute_regop) == 16, "register operands are 16 bytes");
static_assert(sizeof(struct kbin_compute_dyn) == 16, "run-time offset is 16 bytes");
static_assert(sizeof(struct kbin_compute_record) == KBIN_PROG_RECORD_SIZE,
	      "compute record is one 64-byte instruction record");
static_assert(sizeof(struct kbin_prog_sync) == 16, "decoded instruction is 16 bytes");
KBIN_ASSERT_OFF(kbin_prog_section, sg, 16);
KBIN_ASSERT_OFF(kbin_compute_record, pred, 14);
KBIN_ASSERT_OFF(kbin_compute_record, reg, 16);
KBIN_ASSERT_OFF(kbin_compute_record, dyn, 48);
KBIN_ASSERT_OFF(kbin_prog_sync, add_value, 7);
KBIN_ASSERT_OFF(kbin_prog_sync, wait_value, 8);
KBIN_ASSERT_OFF(kbin_prog_sync, block, 12);
static_assert(KBIN_ERR_CHECK_MAX <= KBIN_ERR_STAGE_HBM,
	      "checker reason codes stay below the staging codes");

#endif /* _NEURONSIM_KBIN_LAYOUT_H */
