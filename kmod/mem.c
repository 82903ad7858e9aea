// SPDX-License-Identifier: GPL-2.0
/*
 * mem.c - sparse simulated device memory.
 *
 * The device address space has its real size (e.g. 4 x 24 GiB of HBM on
 * trn2; Documentation/uapi.rst, "Address map") but only pages that were
 * written take RAM,
 * as null_blk's memory-backed mode does: an xarray indexed by device page
 * frame (address >> PAGE_SHIFT) holds the pages, allocated on first
 * write.  Unwritten memory reads as zeros.  The backing_limit module
 * parameter caps the RAM all pages together may take.
 */
#include <linux/gfp.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/xarray.h>

#include "neuronsim.h"

static DEFINE_XARRAY(nsim_pages);
static atomic64_t nsim_backing;

/*
 * Find the page backing device page frame @idx; with @alloc, allocate a
 * zeroed one when there is none.  Return the page, NULL when there is
 * none and @alloc is false, or an ERR_PTR: -EDQUOT at the backing cap,
 * -ENOMEM when the kernel is out of memory.
 */
static struct page *nsim_mem_page(unsigned long idx, bool alloc)
{
	struct page *page, *old;

	page = xa_load(&nsim_pages, idx);
	if (page || !alloc)
		return page;
	if (atomic64_add_return(PAGE_SIZE, &nsim_backing) > nsim_backing_limit) {
		atomic64_sub(PAGE_SIZE, &nsim_backing);
		return ERR_PTR(-EDQUOT);
	}
	page = alloc_page(GFP_KERNEL | __GFP_ZERO | __GFP_NOWARN);
	if (!page) {
		atomic64_sub(PAGE_SIZE, &nsim_backing);
		return ERR_PTR(-ENOMEM);
	}
	old = xa_cmpxchg(&nsim_pages, idx, NULL, page, GFP_KERNEL);
	if (old) {
		__free_page(page);
		atomic64_sub(PAGE_SIZE, &nsim_backing);
		if (xa_is_err(old))
			return ERR_PTR(xa_err(old));
		return old;
	}
	return page;
}

/**
 * nsim_mem_write() - copy kernel bytes into simulated device memory.
 * @addr: device address.
 * @src: bytes.
 * @len: byte count.
 *
 * A page-sized run of zero bytes that falls on a page with no backing is
 * skipped: it already reads as zero.
 *
 * Return: 0; -EDQUOT when the backing_limit cap is reached; -ENOMEM when
 * the kernel is out of memory.  Bytes before the failure stay written.
 */
int nsim_mem_write(u64 addr, const void *src, u64 len)
{
	const u8 *s = src;

	while (len) {
		u64 off = addr & (PAGE_SIZE - 1);
		u64 n = min_t(u64, len, PAGE_SIZE - off);
		struct page *page;

		page = nsim_mem_page(addr >> PAGE_SHIFT, false);
		if (!page) {
			if (!memchr_inv(s, 0, n))
				goto next;
			page = nsim_mem_page(addr >> PAGE_SHIFT, true);
			if (IS_ERR(page))
				return PTR_ERR(page);
		}
		memcpy(page_address(page) + off, s, n);
next:
		addr += n;
		s += n;
		len -= n;
		cond_resched();
	}
	return 0;
}

/**
 * nsim_mem_write_user() - copy user bytes into simulated device memory.
 * @addr: device address.
 * @src: user pointer.
 * @len: byte count.
 *
 * Return: 0; -EFAULT for a bad @src; -EDQUOT at the backing cap; -ENOMEM;
 * -EINTR on a fatal signal.
 */
int nsim_mem_write_user(u64 addr, const void __user *src, u64 len)
{
	while (len) {
		u64 off = addr & (PAGE_SIZE - 1);
		u64 n = min_t(u64, len, PAGE_SIZE - off);
		struct page *page;

		if (fatal_signal_pending(current))
			return -EINTR;
		page = nsim_mem_page(addr >> PAGE_SHIFT, true);
		if (IS_ERR(page))
			return PTR_ERR(page);
		if (copy_from_user(page_address(page) + off, src, n))
			return -EFAULT;
		addr += n;
		src += n;
		len -= n;
		cond_resched();
	}
	return 0;
}

/**
 * nsim_mem_read_user() - copy simulated device memory to user space.
 * @addr: device address.
 * @dst: user pointer.
 * @len: byte count.
 *
 * Unwritten memory reads as zeros.
 *
 * Return: 0; -EFAULT for a bad @dst; -EINTR on a fatal signal.
 */
int nsim_mem_read_user(u64 addr, void __user *dst, u64 len)
{
	while (len) {
		u64 off = addr & (PAGE_SIZE - 1);
		u64 n = min_t(u64, len, PAGE_SIZE - off);
		struct page *page;

		if (fatal_signal_pending(current))
			return -EINTR;
		page = nsim_mem_page(addr >> PAGE_SHIFT, false);
		if (page) {
			if (copy_to_user(dst, page_address(page) + off, n))
				return -EFAULT;
		} else if (clear_user(dst, n)) {
			return -EFAULT;
		}
		addr += n;
		dst += n;
		len -= n;
		cond_resched();
	}
	return 0;
}

/**
 * nsim_mem_discard() - drop the backing of a device address range.
 * @addr: device address, page aligned.
 * @len: bytes, a multiple of PAGE_SIZE.
 *
 * Called when an HBM allocation is freed or an SBUF window loses its last
 * user.  Runs in O(pages present in the range).
 */
void nsim_mem_discard(u64 addr, u64 len)
{
	unsigned long first = addr >> PAGE_SHIFT;
	unsigned long last = (addr + len - 1) >> PAGE_SHIFT;
	unsigned long idx;
	struct page *page;

	if (!len)
		return;
	xa_for_each_range(&nsim_pages, idx, page, first, last) {
		xa_erase(&nsim_pages, idx);
		__free_page(page);
		atomic64_sub(PAGE_SIZE, &nsim_backing);
		cond_resched();
	}
}

/**
 * nsim_mem_backing_bytes() - RAM the simulated memory holds now.
 *
 * Return: bytes (a multiple of PAGE_SIZE), at most backing_limit.
 */
u64 nsim_mem_backing_bytes(void)
{
	return atomic64_read(&nsim_backing);
}

/**
 * nsim_mem_init() - set up the sparse memory (empty).
 *
 * Return: 0.
 */
int nsim_mem_init(void)
{
	atomic64_set(&nsim_backing, 0);
	return 0;
}

/**
 * nsim_mem_exit() - free every backing page left.
 */
void nsim_mem_exit(void)
{
	unsigned long idx;
	struct page *page;

	xa_for_each(&nsim_pages, idx, page) {
		xa_erase(&nsim_pages, idx);
		__free_page(page);
		atomic64_sub(PAGE_SIZE, &nsim_backing);
	}
	xa_destroy(&nsim_pages);
}
