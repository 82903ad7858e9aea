/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note OR BSD-2-Clause */
/*
 * neuronsim_udma.h - the 16-byte UDMA descriptor the loader writes into
 * a DMA queue's rings at LOAD (relocation), and the rings' geometry.
 *
 * A memory-to-memory copy is one M2S (read side) descriptor on the source
 * and one S2M (write side) descriptor on the destination.  Each DMA queue
 * of a subgraph has an M2S ring and an S2M ring; each ring is a
 * submission ring of descriptors followed by a completion ring of as many
 * 16-byte entries, zero at LOAD.  Documentation/relocation.rst describes
 * the rings, the flags the loader sets and how to read them back
 * (debugfs, NEURONSIM_IOC_DMA_INFO).  All fields are little-endian.
 */
#ifndef _UAPI_LINUX_NEURONSIM_UDMA_H
#define _UAPI_LINUX_NEURONSIM_UDMA_H

#include <linux/types.h>

/**
 * union udma_desc - one UDMA descriptor, 16 bytes; in a ring (256-byte
 * aligned) every descriptor is 16-byte aligned.
 * @tx: M2S (read side): @tx.len_ctrl, @tx.meta_ctrl (0), @tx.buf_ptr the
 *	source's device address.
 * @rx: S2M (write side): @rx.len_ctrl, @rx.buf2_ptr_lo (0), @rx.buf1_ptr
 *	the destination's device address.
 * @raw: the 16 bytes.
 *
 * len_ctrl: the byte count in bits 0..15 (65536 is written as 0), the
 * ring id in bits 24..25, UDMA_DESC_FIRST, UDMA_DESC_LAST, UDMA_DESC_INT_EN
 * and UDMA_DESC_DMB; the other bits are zero.
 */
union udma_desc {
	struct {
		__u32 len_ctrl;
		__u32 meta_ctrl;
		__u64 buf_ptr;
	} tx;
	struct {
		__u32 len_ctrl;
		__u32 buf2_ptr_lo;
		__u64 buf1_ptr;
	} rx;
	__u8 raw[16];
};

#define UDMA_DESC_SIZE			16U
#define UDMA_DESC_LEN_MASK		0x0000ffffU	/* bytes; 0 means 65536 */
#define UDMA_DESC_LEN_MAX		65536U
#define UDMA_DESC_RING_ID_SHIFT		24
#define UDMA_DESC_RING_ID_MASK		0x03000000U
#define UDMA_DESC_FIRST			0x04000000U	/* bit 26: a block's first descriptor */
#define UDMA_DESC_LAST			0x08000000U	/* bit 27: a block's last descriptor */
#define UDMA_DESC_INT_EN		0x10000000U	/* bit 28: completion interrupt */
#define UDMA_DESC_DMB			0x40000000U	/* bit 30: barrier; never set */
/* the ring id of a ring's first pass, which is what the loader writes */
#define UDMA_RING_ID_INITIAL		1U

/* ring geometry: sizes in descriptors, addresses and ends 256-byte aligned */
#define UDMA_RING_MIN_DESCS		32U
#define UDMA_RING_MAX_DESCS		((1U << 24) - 16U)
#define UDMA_RING_ALIGN			256U
/*
 * the loader sizes every ring to a multiple of this many descriptors, so
 * a submission ring and its completion ring fill whole 4 KiB HBM granules
 * (Documentation/relocation.rst, "The rings")
 */
#define UDMA_RING_GRANULE_DESCS		128U
/* the largest ring the loader makes: UDMA_RING_MAX_DESCS rounded down */
#define UDMA_RING_LOADER_MAX_DESCS	((1U << 24) - 128U)

#endif /* _UAPI_LINUX_NEURONSIM_UDMA_H */
