// SPDX-License-Identifier: GPL-2.0
/*
 * mem.c - a device's sparse simulated memory.
 *
 * The device address space has its real size (e.g. 4 x 24 GiB of HBM on
 * trn2; Documentation/uapi.rst, "Address map") but only pages that were
 * written take RAM, as null_blk's memory-backed mode does: an xarray
 * indexed by device page frame (address >> PAGE_SHIFT) holds the pages,
 * allocated on first write.  Unwritten memory reads as zeros.  The
 * backing_limit module parameter caps the RAM each device's pages may
 * take together.
 *
 * Every access goes through one page walker, nsim_mem_walk(): it cuts a
 * device address range into per-page steps and hands each step, with the
 * page backing it (or NULL), to a step function - one per variant: kernel
 * write, user write, kernel read, user read, discard, and the DMA
 * engine's device-to-device copy.
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

/* walk flags */
#define NSIM_WALK_USER		BIT(0)	/* a user copy: stop on a fatal signal */
#define NSIM_WALK_PRESENT	BIT(1)	/* visit only pages that have backing */

/**
 * struct nsim_mem_walk - one step of a walk.
 * @mem: the memory walked.
 * @idx: device page frame of the step.
 * @off: byte offset of the step in that page.
 * @n: bytes of the step (1..PAGE_SIZE - @off).
 * @pos: bytes of the range before the step.
 * @src: the kernel write's source, or NULL.
 * @usrc: the user write's source, or NULL.
 * @udst: the user read's destination, or NULL.
 * @dst: the kernel read's destination, or NULL.
 * @copy_src: the device-to-device copy's source address (nsim_mem_copy()).
 */
struct nsim_mem_walk {
	struct nsim_mem *mem;
	unsigned long idx;
	u64 off;
	u64 n;
	u64 pos;
	const void *src;
	const void __user *usrc;
	void __user *udst;
	void *dst;
	u64 copy_src;
};

typedef int (*nsim_mem_step_t)(struct nsim_mem_walk *w, struct page *page);

/*
 * The page backing device page frame @idx, allocating a zeroed one when
 * there is none.  Return the page or an ERR_PTR: -EDQUOT at the backing
 * cap, -ENOMEM when the kernel is out of memory.
 */
static struct page *nsim_mem_page_alloc(struct nsim_mem *mem,
					unsigned long idx)
{
	struct page *page, *old;

	if (atomic64_add_return(PAGE_SIZE, &mem->backing) >
	    READ_ONCE(nsim_backing_limit)) {
		atomic64_sub(PAGE_SIZE, &mem->backing);
		return ERR_PTR(-EDQUOT);
	}
	page = alloc_page(GFP_KERNEL_ACCOUNT | __GFP_ZERO | __GFP_NOWARN);
	if (!page) {
		atomic64_sub(PAGE_SIZE, &mem->backing);
		return ERR_PTR(-ENOMEM);
	}
	old = xa_cmpxchg(&mem->pages, idx, NULL, page, GFP_KERNEL_ACCOUNT);
	if (old) {
		__free_page(page);
		atomic64_sub(PAGE_SIZE, &mem->backing);
		if (xa_is_err(old))
			return ERR_PTR(xa_err(old));
		return old;
	}
	return page;
}

/*
 * The page walker: call @step for each page-sized piece of device bytes
 * [@addr, @addr + @len) in address order, with the page backing it or
 * NULL.  With NSIM_WALK_PRESENT only pieces on pages with backing are
 * visited (O(pages present), for discarding); with NSIM_WALK_USER the
 * walk stops with -EINTR on a fatal signal.  Stops at the first step
 * that fails and returns its error; 0 when every step succeeded.
 */
static int nsim_mem_walk(struct nsim_mem_walk *w, u64 addr, u64 len,
			 unsigned int flags, nsim_mem_step_t step)
{
	u64 a = addr, end = addr + len;
	int ret;

	while (a < end) {
		unsigned long idx = a >> PAGE_SHIFT;
		struct page *page;

		if (flags & NSIM_WALK_PRESENT) {
			page = xa_find(&w->mem->pages, &idx,
				       (end - 1) >> PAGE_SHIFT, XA_PRESENT);
			if (!page)
				break;
			a = max_t(u64, a, (u64)idx << PAGE_SHIFT);
		} else {
			page = xa_load(&w->mem->pages, idx);
		}
		if ((flags & NSIM_WALK_USER) && fatal_signal_pending(current))
			return -EINTR;
		w->idx = idx;
		w->off = a & (PAGE_SIZE - 1);
		w->n = min_t(u64, end - a, PAGE_SIZE - w->off);
		w->pos = a - addr;
		ret = step(w, page);
		if (ret)
			return ret;
		a += w->n;
		cond_resched();
	}
	return 0;
}

/* kernel write: a zero piece on a page with no backing is skipped */
static int nsim_mem_step_write(struct nsim_mem_walk *w, struct page *page)
{
	const u8 *src = w->src + w->pos;

	if (!page) {
		if (!memchr_inv(src, 0, w->n))
			return 0;
		page = nsim_mem_page_alloc(w->mem, w->idx);
		if (IS_ERR(page))
			return PTR_ERR(page);
	}
	memcpy(page_address(page) + w->off, src, w->n);
	return 0;
}

static int nsim_mem_step_write_user(struct nsim_mem_walk *w, struct page *page)
{
	if (!page) {
		page = nsim_mem_page_alloc(w->mem, w->idx);
		if (IS_ERR(page))
			return PTR_ERR(page);
	}
	if (copy_from_user(page_address(page) + w->off, w->usrc + w->pos, w->n))
		return -EFAULT;
	return 0;
}

/* user read: a piece with no backing reads as zeros */
static int nsim_mem_step_read_user(struct nsim_mem_walk *w, struct page *page)
{
	void __user *dst = w->udst + w->pos;

	if (page ? copy_to_user(dst, page_address(page) + w->off, w->n) :
	    clear_user(dst, w->n))
		return -EFAULT;
	return 0;
}

/* kernel read: a piece with no backing reads as zeros */
static int nsim_mem_step_read(struct nsim_mem_walk *w, struct page *page)
{
	u8 *dst = w->dst + w->pos;

	if (page)
		memcpy(dst, page_address(page) + w->off, w->n);
	else
		memset(dst, 0, w->n);
	return 0;
}

/*
 * device-to-device copy, a step of the destination: its source bytes are
 * on one or two source pages; a missing source page reads as zeros, and
 * zeros onto a page with no backing are skipped (they read as zeros).
 */
static int nsim_mem_step_copy(struct nsim_mem_walk *w, struct page *page)
{
	u64 src = w->copy_src + w->pos, done = 0;

	while (done < w->n) {
		u64 soff = (src + done) & (PAGE_SIZE - 1);
		u64 n = min_t(u64, w->n - done, PAGE_SIZE - soff);
		struct page *sp = xa_load(&w->mem->pages, (src + done) >> PAGE_SHIFT);
		u8 *s = sp ? page_address(sp) + soff : NULL;

		if (!page && (!s || !memchr_inv(s, 0, n))) {
			done += n;
			continue;
		}
		if (!page) {
			page = nsim_mem_page_alloc(w->mem, w->idx);
			if (IS_ERR(page))
				return PTR_ERR(page);
		}
		if (s)
			memmove(page_address(page) + w->off + done, s, n);
		else
			memset(page_address(page) + w->off + done, 0, n);
		done += n;
	}
	return 0;
}

/* discard: called for pages with backing only (NSIM_WALK_PRESENT) */
static int nsim_mem_step_discard(struct nsim_mem_walk *w, struct page *page)
{
	xa_erase(&w->mem->pages, w->idx);
	__free_page(page);
	atomic64_sub(PAGE_SIZE, &w->mem->backing);
	return 0;
}

/**
 * nsim_mem_write() - copy kernel bytes into simulated device memory.
 * @mem: the device's memory.
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
int nsim_mem_write(struct nsim_mem *mem, u64 addr, const void *src, u64 len)
{
	struct nsim_mem_walk w = { .mem = mem, .src = src };

	return nsim_mem_walk(&w, addr, len, 0, nsim_mem_step_write);
}

/**
 * nsim_mem_write_user() - copy user bytes into simulated device memory.
 * @mem: the device's memory.
 * @addr: device address.
 * @src: user pointer.
 * @len: byte count.
 *
 * Return: 0; -EFAULT for a bad @src; -EDQUOT at the backing cap; -ENOMEM;
 * -EINTR on a fatal signal.
 */
int nsim_mem_write_user(struct nsim_mem *mem, u64 addr,
			const void __user *src, u64 len)
{
	struct nsim_mem_walk w = { .mem = mem, .usrc = src };

	return nsim_mem_walk(&w, addr, len, NSIM_WALK_USER,
			     nsim_mem_step_write_user);
}

/**
 * nsim_mem_read_user() - copy simulated device memory to user space.
 * @mem: the device's memory.
 * @addr: device address.
 * @dst: user pointer.
 * @len: byte count.
 *
 * Unwritten memory reads as zeros.
 *
 * Return: 0; -EFAULT for a bad @dst; -EINTR on a fatal signal.
 */
int nsim_mem_read_user(struct nsim_mem *mem, u64 addr, void __user *dst,
		       u64 len)
{
	struct nsim_mem_walk w = { .mem = mem, .udst = dst };

	return nsim_mem_walk(&w, addr, len, NSIM_WALK_USER,
			     nsim_mem_step_read_user);
}

/**
 * nsim_mem_read() - copy simulated device memory into kernel memory.
 * @mem: the device's memory.
 * @addr: device address.
 * @dst: kernel buffer of @len bytes.
 * @len: byte count.
 *
 * Unwritten memory reads as zeros.  Context: may sleep (cond_resched()
 * between pages).
 *
 * Return: 0.
 */
int nsim_mem_read(struct nsim_mem *mem, u64 addr, void *dst, u64 len)
{
	struct nsim_mem_walk w = { .mem = mem, .dst = dst };

	return nsim_mem_walk(&w, addr, len, 0, nsim_mem_step_read);
}

/**
 * nsim_mem_copy() - copy device bytes to device bytes, page by page
 *	through the page walker, with no bounce buffer (the DMA engine).
 * @mem: the device's memory.
 * @dst: destination device address.
 * @src: source device address.
 * @len: byte count.
 *
 * Unwritten source bytes read as zeros and take no backing where the
 * destination has none; destination pages are allocated as they are
 * written, against the backing cap.  Overlapping ranges are copied front
 * to back (as a DMA engine would: undefined for the program).
 *
 * Return: 0; -EDQUOT at the backing cap; -ENOMEM.  Bytes before the
 * failure stay written.
 */
int nsim_mem_copy(struct nsim_mem *mem, u64 dst, u64 src, u64 len)
{
	struct nsim_mem_walk w = { .mem = mem, .copy_src = src };

	return nsim_mem_walk(&w, dst, len, 0, nsim_mem_step_copy);
}

/**
 * nsim_mem_discard() - drop the backing of a device address range.
 * @mem: the device's memory.
 * @addr: device address, page aligned.
 * @len: bytes, a multiple of PAGE_SIZE.
 *
 * Called when an HBM allocation is freed or an SBUF window loses its last
 * user.  Runs in O(pages present in the range).
 */
void nsim_mem_discard(struct nsim_mem *mem, u64 addr, u64 len)
{
	struct nsim_mem_walk w = { .mem = mem };

	nsim_mem_walk(&w, addr, len, NSIM_WALK_PRESENT, nsim_mem_step_discard);
}

/**
 * nsim_mem_backing_bytes() - RAM a device's simulated memory holds now.
 * @mem: the device's memory.
 *
 * Return: bytes (a multiple of PAGE_SIZE), at most backing_limit.
 */
u64 nsim_mem_backing_bytes(struct nsim_mem *mem)
{
	return atomic64_read(&mem->backing);
}

/**
 * nsim_mem_init() - set up a device's sparse memory (empty).
 * @mem: the device's memory.
 */
void nsim_mem_init(struct nsim_mem *mem)
{
	xa_init(&mem->pages);
	atomic64_set(&mem->backing, 0);
}

/**
 * nsim_mem_exit() - free every backing page left in a device's memory.
 * @mem: the device's memory.
 */
void nsim_mem_exit(struct nsim_mem *mem)
{
	nsim_mem_discard(mem, 0, NSIM_ADDR_END);
	xa_destroy(&mem->pages);
}
