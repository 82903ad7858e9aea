// SPDX-License-Identifier: GPL-2.0
/*
 * mem.c - a device's sparse simulated memory.
 *
 * The device address space has its real size (e.g. 4 x 24 GiB of HBM on
 * trn2; Documentation/uapi.rst, "Address map") but only pages that were
 * written take RAM, as null_blk's memory-backed mode does: an xarray
 * indexed by device page frame (address >> PAGE_SHIFT) holds the pages,
 * allocated on first write.  Unwritten memory reads as zeros.
 *
 * Two caps bound that RAM (Documentation/security.rst, "Caps"): the
 * backing_limit module parameter the pages of each device, and
 * backing_limit_total (default half of RAM) the pages of all devices
 * together, so a user with several device nodes cannot take the
 * machine's memory either.  Each page is charged to the memory cgroup
 * of the task that writes it (GFP_KERNEL_ACCOUNT; the DMA engine writes
 * for the task that ran the queue, engine.c) and is allocated with
 * __GFP_RETRY_MAYFAIL: under memory pressure the write fails with
 * -ENOMEM instead of waking the OOM killer, which would kill some other
 * process to make room for simulated memory.
 *
 * Every access goes through one page walker, nrsim_mem_walk(): it cuts a
 * device address range into per-page steps and hands each step, with the
 * page backing it (or NULL), to a step function - one per variant: kernel
 * write, user write, kernel read, user read, fill (a tensor's memset),
 * discard, and the device-to-device copy (the DMA engine's, a tensor
 * copy's).  The one exception is nrsim_mem_map(),
 * which hands a writer that fills a page entry by entry (the UDMA rings
 * at LOAD) the page itself.
 *
 * A page is published in the xarray only once every byte of it holds what
 * it should: a step that writes part of a page with no backing allocates
 * it zeroed; a step that writes all of it (and, for a copy, does not read
 * it) fills a page that was not zeroed and then publishes it
 * (nrsim_mem_page_publish()), so no reader ever sees a page's old
 * contents.  A whole-page device-to-device copy is
 * copy_page().
 *
 * Lookups are batched: the walker looks up the pages of up to
 * NRSIM_MEM_BATCH consecutive frames in one RCU read section, walking the
 * xarray once and then from slot to slot (xas_next()), instead of one
 * xa_load() from the root per page; the copy does the same for its source
 * frames.  As with xa_load(), a page is used after the read section: pages
 * leave the xarray only by nrsim_mem_discard() of a range nothing accesses
 * any more (its model's runs are stopped and its ioctls done first).  A
 * page published by a concurrent writer after the lookup is found by the
 * xa_cmpxchg() that would publish a second one.
 */
#include <linux/gfp.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/xarray.h>

#include "nrsim.h"

/* frames whose pages one lookup fetches at most */
#define NRSIM_MEM_BATCH		16

/**
 * struct nrsim_mem_batch - the pages of consecutive frames, looked up
 *	together (nrsim_mem_lookup()).
 * @first: frame of @pages[0].
 * @n: frames held (0: none).
 * @pages: the page backing each frame, or NULL.
 */
struct nrsim_mem_batch {
	unsigned long first;
	unsigned int n;
	struct page *pages[NRSIM_MEM_BATCH];
};

/* walk flags */
#define NRSIM_WALK_USER		BIT(0)	/* a user copy: stop on a fatal signal */
#define NRSIM_WALK_PRESENT	BIT(1)	/* visit only pages that have backing */

/**
 * struct nrsim_mem_walk - one step of a walk.
 * @mem: the memory walked.
 * @idx: device page frame of the step.
 * @off: byte offset of the step in that page.
 * @n: bytes of the step (1..PAGE_SIZE - @off).
 * @pos: bytes of the range before the step.
 * @src: the kernel write's source, or NULL.
 * @usrc: the user write's source, or NULL.
 * @udst: the user read's destination, or NULL.
 * @dst: the kernel read's destination, or NULL.
 * @fill: the byte value of a fill (nrsim_mem_fill()).
 * @copy_src: the device-to-device copy's source address (nrsim_mem_copy()).
 * @copy_last: the copy's last source frame.
 * @dpages: the walk's pages looked up ahead.
 * @spages: the copy's source pages looked up ahead.
 */
struct nrsim_mem_walk {
	struct nrsim_mem *mem;
	unsigned long idx;
	u64 off;
	u64 n;
	u64 pos;
	const void *src;
	const void __user *usrc;
	void __user *udst;
	void *dst;
	u8 fill;
	u64 copy_src;
	unsigned long copy_last;
	struct nrsim_mem_batch dpages;
	struct nrsim_mem_batch spages;
};

typedef int (*nrsim_mem_step_t)(struct nrsim_mem_walk *w, struct page *page);

/* the backing pages of every device, bytes (a multiple of PAGE_SIZE) */
static atomic64_t nrsim_backing_total = ATOMIC64_INIT(0);

/*
 * How backing pages and their xarray nodes are allocated: charged to the
 * writer's memory cgroup; failing, not reclaiming by the OOM killer,
 * when memory is short (the file comment).
 */
#define NRSIM_MEM_GFP	(GFP_KERNEL_ACCOUNT | __GFP_NOWARN | __GFP_RETRY_MAYFAIL)

/* count one page against both caps: 0, or -EDQUOT (nothing counted) */
static int nrsim_mem_charge(struct nrsim_mem *mem)
{
	if (atomic64_add_return(PAGE_SIZE, &mem->backing) >
	    READ_ONCE(nrsim_backing_limit))
		goto err_device;
	if (atomic64_add_return(PAGE_SIZE, &nrsim_backing_total) >
	    READ_ONCE(nrsim_backing_limit_total))
		goto err_total;
	return 0;

err_total:
	atomic64_sub(PAGE_SIZE, &nrsim_backing_total);
err_device:
	atomic64_sub(PAGE_SIZE, &mem->backing);
	return -EDQUOT;
}

/* undo nrsim_mem_charge() for a page freed */
static void nrsim_mem_uncharge(struct nrsim_mem *mem)
{
	atomic64_sub(PAGE_SIZE, &nrsim_backing_total);
	atomic64_sub(PAGE_SIZE, &mem->backing);
}

/*
 * A new page for the sparse memory, charged against the backing caps and
 * not published yet: zeroed when @gfp has __GFP_ZERO, else with old
 * contents the caller overwrites before nrsim_mem_page_publish().  Return
 * the page or an ERR_PTR: -EDQUOT at a backing cap, -ENOMEM when the
 * kernel or the writer's memory cgroup is out of memory.
 */
static struct page *nrsim_mem_page_new(struct nrsim_mem *mem, gfp_t gfp)
{
	struct page *page;

	if (nrsim_mem_charge(mem))
		return ERR_PTR(-EDQUOT);
	page = alloc_page(NRSIM_MEM_GFP | gfp);
	if (!page) {
		nrsim_mem_uncharge(mem);
		return ERR_PTR(-ENOMEM);
	}
	return page;
}

/*
 * Publish @page as device page frame @idx.  When another writer
 * published a page there first, that one is kept: if @written (the
 * caller wrote every byte of @page), @page's bytes are copied onto it
 * (the later write wins); else (@page is zeroed) it is used as it is.
 * @page is freed then.  Return the page now backing @idx, or an ERR_PTR
 * (-ENOMEM; @page is freed).
 */
static struct page *nrsim_mem_page_publish(struct nrsim_mem *mem,
					   unsigned long idx, struct page *page,
					  bool written)
{
	struct page *old;

	old = xa_cmpxchg(&mem->pages, idx, NULL, page, NRSIM_MEM_GFP);
	if (!old)
		return page;
	if (written && !xa_is_err(old))
		copy_page(page_address(old), page_address(page));
	__free_page(page);
	nrsim_mem_uncharge(mem);
	return xa_is_err(old) ? ERR_PTR(xa_err(old)) : old;
}

/*
 * The page backing device page frame @idx, allocating a zeroed one when
 * there is none.  Return the page or an ERR_PTR: -EDQUOT at the backing
 * cap, -ENOMEM when the kernel is out of memory.
 */
static struct page *nrsim_mem_page_alloc(struct nrsim_mem *mem,
					 unsigned long idx)
{
	struct page *page = nrsim_mem_page_new(mem, __GFP_ZERO);

	if (IS_ERR(page))
		return page;
	return nrsim_mem_page_publish(mem, idx, page, false);
}

/*
 * The page backing frame @idx, or NULL: from @b when it holds @idx, else
 * @idx and the frames after it up to @last (at most NRSIM_MEM_BATCH) are
 * looked up into @b first, in one RCU read section.
 */
static struct page *nrsim_mem_lookup(struct nrsim_mem *mem,
				     struct nrsim_mem_batch *b, unsigned long idx,
				    unsigned long last)
{
	XA_STATE(xas, &mem->pages, idx);
	unsigned int i;
	void *entry;

	if (idx - b->first < b->n)
		return b->pages[idx - b->first];
	b->first = idx;
	b->n = min_t(unsigned long, last - idx, NRSIM_MEM_BATCH - 1) + 1;
	rcu_read_lock();
	for (i = 0; i < b->n; i++) {
		entry = i ? xas_next(&xas) : xas_load(&xas);
		/* a node being changed under us: walk again from the root */
		while (xa_is_retry(entry)) {
			xas_set(&xas, idx + i);
			entry = xas_load(&xas);
		}
		b->pages[i] = xa_is_zero(entry) ? NULL : entry;
	}
	rcu_read_unlock();
	return b->pages[0];
}

/*
 * The page walker: call @step for each page-sized piece of device bytes
 * [@addr, @addr + @len) in address order, with the page backing it or
 * NULL.  With NRSIM_WALK_PRESENT only pieces on pages with backing are
 * visited (O(pages present), for discarding); with NRSIM_WALK_USER the
 * walk stops with -EINTR on a fatal signal.  Stops at the first step
 * that fails and returns its error; 0 when every step succeeded.
 */
static int nrsim_mem_walk(struct nrsim_mem_walk *w, u64 addr, u64 len,
			  unsigned int flags, nrsim_mem_step_t step)
{
	u64 a = addr, end = addr + len;
	int ret;

	while (a < end) {
		unsigned long idx = a >> PAGE_SHIFT;
		struct page *page;

		if (flags & NRSIM_WALK_PRESENT) {
			page = xa_find(&w->mem->pages, &idx,
				       (end - 1) >> PAGE_SHIFT, XA_PRESENT);
			if (!page)
				break;
			a = max_t(u64, a, (u64)idx << PAGE_SHIFT);
		} else {
			page = nrsim_mem_lookup(w->mem, &w->dpages, idx,
						(end - 1) >> PAGE_SHIFT);
		}
		if ((flags & NRSIM_WALK_USER) && fatal_signal_pending(current))
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

/*
 * kernel write: a zero piece on a page with no backing is skipped; a
 * whole page with no backing is filled before it is published
 */
static int nrsim_mem_step_write(struct nrsim_mem_walk *w, struct page *page)
{
	const u8 *src = w->src + w->pos;

	if (page) {
		memcpy(page_address(page) + w->off, src, w->n);
		return 0;
	}
	if (!memchr_inv(src, 0, w->n))
		return 0;
	if (w->n < PAGE_SIZE) {
		page = nrsim_mem_page_alloc(w->mem, w->idx);
		if (IS_ERR(page))
			return PTR_ERR(page);
		memcpy(page_address(page) + w->off, src, w->n);
		return 0;
	}
	page = nrsim_mem_page_new(w->mem, 0);
	if (IS_ERR(page))
		return PTR_ERR(page);
	memcpy(page_address(page), src, PAGE_SIZE);
	page = nrsim_mem_page_publish(w->mem, w->idx, page, true);
	return PTR_ERR_OR_ZERO(page);
}

static int nrsim_mem_step_write_user(struct nrsim_mem_walk *w, struct page *page)
{
	if (!page) {
		page = nrsim_mem_page_alloc(w->mem, w->idx);
		if (IS_ERR(page))
			return PTR_ERR(page);
	}
	if (copy_from_user(page_address(page) + w->off, w->usrc + w->pos, w->n))
		return -EFAULT;
	return 0;
}

/*
 * fill: zeros on a page with no backing are skipped (they read as
 * zeros); a whole page with no backing is filled before it is published
 */
static int nrsim_mem_step_fill(struct nrsim_mem_walk *w, struct page *page)
{
	if (page) {
		memset(page_address(page) + w->off, w->fill, w->n);
		return 0;
	}
	if (!w->fill)
		return 0;
	if (w->n < PAGE_SIZE) {
		page = nrsim_mem_page_alloc(w->mem, w->idx);
		if (IS_ERR(page))
			return PTR_ERR(page);
		memset(page_address(page) + w->off, w->fill, w->n);
		return 0;
	}
	page = nrsim_mem_page_new(w->mem, 0);
	if (IS_ERR(page))
		return PTR_ERR(page);
	memset(page_address(page), w->fill, PAGE_SIZE);
	page = nrsim_mem_page_publish(w->mem, w->idx, page, true);
	return PTR_ERR_OR_ZERO(page);
}

/* user read: a piece with no backing reads as zeros */
static int nrsim_mem_step_read_user(struct nrsim_mem_walk *w, struct page *page)
{
	void __user *dst = w->udst + w->pos;

	if (page ? copy_to_user(dst, page_address(page) + w->off, w->n) :
	    clear_user(dst, w->n))
		return -EFAULT;
	return 0;
}

/* kernel read: a piece with no backing reads as zeros */
static int nrsim_mem_step_read(struct nrsim_mem_walk *w, struct page *page)
{
	u8 *dst = w->dst + w->pos;

	if (page)
		memcpy(dst, page_address(page) + w->off, w->n);
	else
		memset(dst, 0, w->n);
	return 0;
}

/*
 * The copy's source page for frame @sidx while the step of frame @w->idx
 * has @dpage (or NULL): @dpage itself when the frames are the same (an
 * overlapping copy reads what the step wrote), else the batched lookup's.
 */
static struct page *nrsim_mem_copy_src(struct nrsim_mem_walk *w,
				       unsigned long sidx, struct page *dpage)
{
	if (sidx == w->idx)
		return dpage;
	return nrsim_mem_lookup(w->mem, &w->spages, sidx, w->copy_last);
}

/*
 * device-to-device copy, a step of the destination: its source bytes are
 * on one or two source pages; a missing source page reads as zeros, and
 * zeros onto a page with no backing are skipped (they read as zeros).  A
 * step that writes a whole page with no backing, and does not read that
 * page itself, fills a new page that is not zeroed first and publishes it
 * at the end; a whole source page onto a whole destination page is
 * copy_page().
 */
static int nrsim_mem_step_copy(struct nrsim_mem_walk *w, struct page *page)
{
	u64 src = w->copy_src + w->pos, done = 0;
	/*
	 * a step that reads its own frame (a copy onto itself, shifted by
	 * less than a page) reads bytes of the page it writes: that page
	 * must be zeroed, not filled from nothing
	 */
	bool self = src >> PAGE_SHIFT == w->idx ||
		    (src + w->n - 1) >> PAGE_SHIFT == w->idx;
	bool fresh = false;

	while (done < w->n) {
		u64 soff = (src + done) & (PAGE_SIZE - 1);
		u64 n = min_t(u64, w->n - done, PAGE_SIZE - soff);
		struct page *sp = nrsim_mem_copy_src(w, (src + done) >> PAGE_SHIFT,
						    page);
		u8 *s = sp ? page_address(sp) + soff : NULL, *d;

		if (!page && (!s || !memchr_inv(s, 0, n))) {
			done += n;
			continue;
		}
		if (!page && w->n == PAGE_SIZE && !self) {
			/* every byte is written here: no zeroing first */
			page = nrsim_mem_page_new(w->mem, 0);
			if (IS_ERR(page))
				return PTR_ERR(page);
			memset(page_address(page), 0, done);
			fresh = true;
		} else if (!page) {
			page = nrsim_mem_page_alloc(w->mem, w->idx);
			if (IS_ERR(page))
				return PTR_ERR(page);
		}
		d = page_address(page) + w->off + done;
		if (!s)
			memset(d, 0, n);
		else if (n == PAGE_SIZE && s != d)
			copy_page(d, s);
		else
			memmove(d, s, n);
		done += n;
	}
	if (fresh) {
		page = nrsim_mem_page_publish(w->mem, w->idx, page, true);
		if (IS_ERR(page))
			return PTR_ERR(page);
	}
	/* a later step reading this frame as its source sees the page */
	if (w->idx - w->spages.first < w->spages.n)
		w->spages.pages[w->idx - w->spages.first] = page;
	return 0;
}

/* discard: called for pages with backing only (NRSIM_WALK_PRESENT) */
static int nrsim_mem_step_discard(struct nrsim_mem_walk *w, struct page *page)
{
	xa_erase(&w->mem->pages, w->idx);
	__free_page(page);
	nrsim_mem_uncharge(w->mem);
	return 0;
}

/**
 * nrsim_mem_write() - copy kernel bytes into simulated device memory.
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
int nrsim_mem_write(struct nrsim_mem *mem, u64 addr, const void *src, u64 len)
{
	struct nrsim_mem_walk w = { .mem = mem, .src = src };

	return nrsim_mem_walk(&w, addr, len, 0, nrsim_mem_step_write);
}

/**
 * nrsim_mem_write_user() - copy user bytes into simulated device memory.
 * @mem: the device's memory.
 * @addr: device address.
 * @src: user pointer.
 * @len: byte count.
 *
 * Return: 0; -EFAULT for a bad @src; -EDQUOT at the backing cap; -ENOMEM;
 * -EINTR on a fatal signal.
 */
int nrsim_mem_write_user(struct nrsim_mem *mem, u64 addr,
			 const void __user *src, u64 len)
{
	struct nrsim_mem_walk w = { .mem = mem, .usrc = src };

	return nrsim_mem_walk(&w, addr, len, NRSIM_WALK_USER,
			     nrsim_mem_step_write_user);
}

/**
 * nrsim_mem_fill() - set simulated device memory to one byte value (a
 *	tensor's memset, the zeros of a copy from an SBUF gap).
 * @mem: the device's memory.
 * @addr: device address.
 * @value: the byte.
 * @len: byte count.
 *
 * Zeros on pages with no backing take no RAM: they read as zeros already.
 *
 * Return: 0; -EDQUOT at the backing cap; -ENOMEM; -EINTR on a fatal
 * signal.  Bytes before the failure stay written.
 */
int nrsim_mem_fill(struct nrsim_mem *mem, u64 addr, u8 value, u64 len)
{
	struct nrsim_mem_walk w = { .mem = mem, .fill = value };

	return nrsim_mem_walk(&w, addr, len, NRSIM_WALK_USER,
			     nrsim_mem_step_fill);
}

/**
 * nrsim_mem_map() - the kernel address of a device address's byte in its
 *	backing page, for a writer that fills the page itself (the UDMA
 *	rings at LOAD, relocate.c).
 * @mem: the device's memory.
 * @addr: device address.
 *
 * The page is allocated (zeroed) when it has no backing, against the
 * backing cap, exactly as nrsim_mem_write() would for a non-zero byte.
 * The mapping covers the rest of that page, PAGE_SIZE - (@addr %
 * PAGE_SIZE) bytes, and stays valid until the page is discarded
 * (nrsim_mem_discard()); the caller keeps every other writer away from
 * the range (an HBM allocation not yet published).
 *
 * Return: the kernel address; ERR_PTR(-EDQUOT) at the backing cap;
 * ERR_PTR(-ENOMEM) when the kernel is out of memory.
 */
void *nrsim_mem_map(struct nrsim_mem *mem, u64 addr)
{
	unsigned long idx = addr >> PAGE_SHIFT;
	struct page *page = xa_load(&mem->pages, idx);

	if (!page) {
		page = nrsim_mem_page_alloc(mem, idx);
		if (IS_ERR(page))
			return ERR_CAST(page);
	}
	return page_address(page) + (addr & (PAGE_SIZE - 1));
}

/**
 * nrsim_mem_read_user() - copy simulated device memory to user space.
 * @mem: the device's memory.
 * @addr: device address.
 * @dst: user pointer.
 * @len: byte count.
 *
 * Unwritten memory reads as zeros.
 *
 * Return: 0; -EFAULT for a bad @dst; -EINTR on a fatal signal.
 */
int nrsim_mem_read_user(struct nrsim_mem *mem, u64 addr, void __user *dst,
			u64 len)
{
	struct nrsim_mem_walk w = { .mem = mem, .udst = dst };

	return nrsim_mem_walk(&w, addr, len, NRSIM_WALK_USER,
			     nrsim_mem_step_read_user);
}

/**
 * nrsim_mem_read() - copy simulated device memory into kernel memory.
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
int nrsim_mem_read(struct nrsim_mem *mem, u64 addr, void *dst, u64 len)
{
	struct nrsim_mem_walk w = { .mem = mem, .dst = dst };

	return nrsim_mem_walk(&w, addr, len, 0, nrsim_mem_step_read);
}

/**
 * nrsim_mem_copy() - copy device bytes to device bytes, page by page
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
int nrsim_mem_copy(struct nrsim_mem *mem, u64 dst, u64 src, u64 len)
{
	struct nrsim_mem_walk w = {
		.mem = mem, .copy_src = src,
		.copy_last = len ? (src + len - 1) >> PAGE_SHIFT : 0,
	};

	return nrsim_mem_walk(&w, dst, len, 0, nrsim_mem_step_copy);
}

/**
 * nrsim_mem_discard() - drop the backing of a device address range.
 * @mem: the device's memory.
 * @addr: device address, page aligned.
 * @len: bytes, a multiple of PAGE_SIZE.
 *
 * Called when an HBM allocation is freed or an SBUF window loses its last
 * user.  Runs in O(pages present in the range).
 */
void nrsim_mem_discard(struct nrsim_mem *mem, u64 addr, u64 len)
{
	struct nrsim_mem_walk w = { .mem = mem };

	nrsim_mem_walk(&w, addr, len, NRSIM_WALK_PRESENT, nrsim_mem_step_discard);
}

/**
 * nrsim_mem_backing_bytes() - RAM a device's simulated memory holds now.
 * @mem: the device's memory.
 *
 * Return: bytes (a multiple of PAGE_SIZE), at most backing_limit.
 */
u64 nrsim_mem_backing_bytes(struct nrsim_mem *mem)
{
	return atomic64_read(&mem->backing);
}

/**
 * nrsim_mem_backing_total() - RAM the simulated memory of every device
 *	holds now.
 *
 * Return: bytes (a multiple of PAGE_SIZE), at most backing_limit_total.
 */
u64 nrsim_mem_backing_total(void)
{
	return atomic64_read(&nrsim_backing_total);
}

/**
 * nrsim_mem_cap_str() - the text of a write that failed with -EDQUOT:
 *	both backing caps and what each holds.
 * @mem: the device's memory.
 * @buf: where to write it.
 * @size: bytes of @buf (160 are enough).
 *
 * Return: @buf.
 */
const char *nrsim_mem_cap_str(struct nrsim_mem *mem, char *buf, size_t size)
{
	snprintf(buf, size,
		 "backing RAM cap reached (device %llu of backing_limit %lu bytes, all devices %llu of backing_limit_total %lu)",
		 nrsim_mem_backing_bytes(mem), READ_ONCE(nrsim_backing_limit),
		 nrsim_mem_backing_total(), READ_ONCE(nrsim_backing_limit_total));
	return buf;
}

/**
 * nrsim_mem_init() - set up a device's sparse memory (empty).
 * @mem: the device's memory.
 */
void nrsim_mem_init(struct nrsim_mem *mem)
{
	xa_init(&mem->pages);
	atomic64_set(&mem->backing, 0);
}

/**
 * nrsim_mem_exit() - free every backing page left in a device's memory.
 * @mem: the device's memory.
 */
void nrsim_mem_exit(struct nrsim_mem *mem)
{
	nrsim_mem_discard(mem, 0, NRSIM_ADDR_END);
	xa_destroy(&mem->pages);
}
