/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * kbin_compat.h - the few things the KBIN plan checker needs from its
 * environment, for the kernel build and for the host build.
 *
 * The plain C of kmod/plan (the checker kbin_check.c and the tables
 * kbin_gen.c, kbin_kind.c, kbin_names.c) uses the fixed-width __u8 ..
 * __u64 types of <linux/types.h>, variadic arguments, strcmp(), the
 * errno values, snprintf() (kbin_names.c's texts), CRC-32,
 * kbin_yield() and, for kbin_num.c, KBIN_FPU_BEGIN()/KBIN_FPU_END().
 * Nothing else.  In the kernel CRC-32 comes from
 * <linux/crc32.h>, on the host from zlib; both compute the IEEE 802.3 CRC
 * (reflected polynomial 0xedb88320, initial value and final xor all
 * ones), so one plan checks the same way in both builds.
 *
 * The engines' float code (kbin_num.c, Documentation/numerics.rst) runs
 * between KBIN_FPU_BEGIN() and KBIN_FPU_END(): kernel_fpu_begin() and
 * kernel_fpu_end() in the kernel, nothing on the host.  Callers wrap
 * every kbin_num_*() call (the name tables excepted) that way, give each
 * call at most KBIN_NUM_CHUNK elements (a matmul at most
 * KBIN_NUM_MATMUL_MACS multiply-accumulates) and call kbin_yield() between
 * two such sections, never inside one: kernel_fpu_begin() disables
 * preemption (and softirqs), so a section must be short and must not
 * sleep, allocate with GFP_KERNEL, take a mutex or touch user memory.
 * It also loads the default MXCSR (round to nearest, no flush to zero),
 * which is what the host's code runs with.
 */
#ifndef _NEURONSIM_KBIN_COMPAT_H
#define _NEURONSIM_KBIN_COMPAT_H

#ifdef __KERNEL__

#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/crc32.h>
#include <linux/sched.h>
#include <linux/stdarg.h>
#include <linux/string.h>
#include <asm/fpu/api.h>

#define KBIN_PRINTF(a, b)	__printf(a, b)

#define KBIN_ARRAY_SIZE(a)	ARRAY_SIZE(a)

/* a section of float code (kbin_num.c): preemption off, FPU state saved */
#define KBIN_FPU_BEGIN()	kernel_fpu_begin()
#define KBIN_FPU_END()		kernel_fpu_end()

/* bytes checksummed between two yields of the CPU */
#define KBIN_CRC_CHUNK		(16U << 20)

/**
 * kbin_yield() - let other tasks run: the checker calls it every few
 *	thousand records, list entries, DMA blocks or DMA descriptors,
 *	so a plan of max_plan_bytes triggers no soft lockup or RCU stall
 *	(cond_resched()).
 */
static inline void kbin_yield(void)
{
	cond_resched();
}

/**
 * kbin_crc32() - CRC-32 (IEEE 802.3, as zlib's crc32()) of a byte range.
 * @p: first byte.
 * @n: number of bytes.
 *
 * Computed KBIN_CRC_CHUNK bytes at a time with kbin_yield() between.
 *
 * Return: the CRC-32 of @p[0..@n), as stored in kbin_header.checksum.
 */
static inline __u32 kbin_crc32(const void *p, __u64 n)
{
	const unsigned char *b = p;
	__u32 crc = ~0U;

	while (n) {
		__u32 chunk = n > KBIN_CRC_CHUNK ? KBIN_CRC_CHUNK : (__u32)n;

		crc = crc32_le(crc, b, chunk);
		b += chunk;
		n -= chunk;
		if (n)
			kbin_yield();
	}
	return crc ^ ~0U;
}

#else /* host */

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <zlib.h>
#include <linux/types.h>

/* the host has no <linux/compiler_attributes.h>: spell its __printf() */
#define KBIN_HOST_ATTR(x)	__attribute__(x)
#define KBIN_PRINTF(a, b)	KBIN_HOST_ATTR((format(printf, a, b)))
#define KBIN_ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#ifndef fallthrough
#define fallthrough		__attribute__((__fallthrough__))
#endif

/* userspace owns its FPU state: a float section needs nothing */
#define KBIN_FPU_BEGIN()	do { } while (0)
#define KBIN_FPU_END()		do { } while (0)

/* on the host the scheduler preempts the checker: nothing to do */
static inline void kbin_yield(void)
{
}

/*
 * zlib's crc32() takes a uInt length: feed it at most 1 GiB at a time so
 * plans above 4 GiB are covered too.
 */
static inline __u32 kbin_crc32(const void *p, __u64 n)
{
	const unsigned char *b = p;
	unsigned long crc = crc32(0L, Z_NULL, 0);

	while (n) {
		unsigned int chunk = n > (1U << 30) ? (1U << 30) : (unsigned int)n;

		crc = crc32(crc, b, chunk);
		b += chunk;
		n -= chunk;
	}
	return (__u32)crc;
}

#endif /* __KERNEL__ */

#endif /* _NEURONSIM_KBIN_COMPAT_H */
