// SPDX-License-Identifier: GPL-2.0
/* requires: nothing; guarantees: every SB location of a program function allocated, none overlapping another in a partition */
/*
 * pass_sballoc.c - the order-40 SBUF allocator
 * (Documentation/compiler-passes.rst): first fit per partition range,
 * 8-byte aligned, never over an allocated (in particular a
 * runtime-reserved) location.  Runs right after RuntimeMemoryReservation
 * so that the reservation is in place before anything is placed, and
 * again at order 50 in the place of the compiler's SB coloring
 * allocator, for what the pre-coloring InlineBIRKernel (48) left.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "bir.h"

struct range {
	uint64_t lo, hi;	/* bytes per partition, [lo, hi) */
};

static int cmp_range(const void *a, const void *b)
{
	const struct range *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

static bool parts_overlap(const struct bir_memloc *a,
			  const struct bir_memloc *b)
{
	return a->base < b->base + b->dims[0] && b->base < a->base + a->dims[0];
}

/* busy ranges of allocated SB locations sharing a partition with @ml */
static int busy_ranges(const struct bir_function *f,
		       const struct bir_memloc *ml, struct range **out,
		       uint32_t *n)
{
	struct range *r = NULL;
	uint32_t cnt = 0, cap = 0;

	for (uint32_t k = 0; k < f->nsets; k++) {
		for (uint32_t j = 0; j < f->sets[k]->nlocs; j++) {
			const struct bir_memloc *o = f->sets[k]->locs[j];

			if (o == ml || o->type != BIR_MEM_SB || !o->allocated ||
			    !parts_overlap(o, ml) || !o->dims[1])
				continue;
			if (cnt == cap) {
				struct range *nr;

				cap = cap ? cap * 2 : 16;
				nr = realloc(r, cap * sizeof(*r));
				if (!nr) {
					free(r);
					return -ENOMEM;
				}
				r = nr;
			}
			r[cnt].lo = o->addr;
			r[cnt++].hi = o->addr + o->dims[1];
		}
	}
	if (cnt)
		qsort(r, cnt, sizeof(*r), cmp_range);
	*out = r;
	*n = cnt;
	return 0;
}

static int place(struct bir_function *f, struct bir_memloc *ml, uint64_t cap,
		 struct nscc_err *err)
{
	uint64_t need = bir_rtmemres_aligned(ml->dims[1]), at = 0, largest = 0;
	struct range *r;
	uint32_t n;

	if (ml->base + ml->dims[0] > bir_sb_partitions(f->mod->arch_level)) {
		snprintf(err->msg, sizeof(err->msg),
			 "function '%s': memory location '%s': partitions %llu from base %u exceed %u",
			 f->name, ml->name, (unsigned long long)ml->dims[0],
			 ml->base, bir_sb_partitions(f->mod->arch_level));
		return -EINVAL;
	}
	if (busy_ranges(f, ml, &r, &n))
		return -ENOMEM;
	for (uint32_t k = 0; k <= n; k++) {
		uint64_t end = k < n ? r[k].lo : cap;

		if (end > at && end - at > largest)
			largest = end - at;
		if (end >= at && end - at >= need)
			break;
		if (k < n && bir_rtmemres_aligned(r[k].hi) > at)
			at = bir_rtmemres_aligned(r[k].hi);
	}
	free(r);
	if (at + need > cap) {
		snprintf(err->msg, sizeof(err->msg),
			 "function '%s': SBUF exhausted placing memory location '%s' (%llu bytes per partition on partitions %u..%llu): largest free range is %llu of %llu bytes",
			 f->name, ml->name, (unsigned long long)ml->dims[1],
			 ml->base,
			 (unsigned long long)(ml->base + ml->dims[0] - 1),
			 (unsigned long long)largest, (unsigned long long)cap);
		return -ENOSPC;
	}
	ml->addr = at;
	ml->allocated = true;
	return 0;
}

int bir_sballoc_function(struct bir_function *f, struct nscc_err *err)
{
	uint64_t cap = bir_sb_partition_bytes(f->mod->arch_level);

	for (uint32_t k = 0; k < f->nsets; k++) {
		for (uint32_t j = 0; j < f->sets[k]->nlocs; j++) {
			struct bir_memloc *ml = f->sets[k]->locs[j];
			int rc;

			if (ml->type != BIR_MEM_SB || ml->allocated)
				continue;
			rc = place(f, ml, cap, err);
			if (rc)
				return rc;
		}
	}
	return 0;
}

int bir_pass_sballoc(struct bir_module *m, const struct bir_opts *o,
		     bool flag, struct nscc_err *err)
{
	(void)o;
	for (uint32_t k = 0; k < m->nfns; k++) {
		int rc;

		if (bir_function_is_nki_callee(m->fns[k]))
			continue;
		rc = bir_sballoc_function(m->fns[k], err);

		if (rc)
			return rc;
	}
	m->sb_allocated = true;
	if (flag)
		m->sb_colored = true;	/* the coloring allocator's place */
	return 0;
}
