// SPDX-License-Identifier: GPL-2.0
/* requires: one program function, no SB placed yet; guarantees: on gen 3+ one allocated runtime-reserved SB location */
/*
 * pass_rtmemres.c - RuntimeMemoryReservation, order 39
 * (Documentation/compiler-passes.rst): carve one SBUF region,
 * EvalAccelReservedLoc, before the allocator places anything; lowering
 * turns it into the evtaccel SBUF carve-out.
 */
#include <errno.h>
#include <string.h>
#include "bir.h"

/* the compiler's 88-character pre-linker contract message */
#define RTMEMRES_ONE_FN "this pass should run in pre-linker phase, which " \
	"should have only one Function per Module"

/* path 2: max over pinned SB locations of addr + aligned(bytes) */
static uint64_t pinned_sb_hwm(const struct bir_function *f)
{
	uint64_t hwm = 0;

	for (uint32_t k = 0; k < f->nsets; k++) {
		for (uint32_t j = 0; j < f->sets[k]->nlocs; j++) {
			const struct bir_memloc *ml = f->sets[k]->locs[j];
			uint64_t ext;

			if (!ml->pinned || ml->type != BIR_MEM_SB)
				continue;
			ext = ml->addr + bir_rtmemres_aligned(ml->dims[1]);
			if (ext > hwm)
				hwm = ext;
		}
	}
	return hwm;
}

static int record(struct bir_function *f, const char *name, uint64_t addr,
		  uint64_t size)
{
	struct bir_memloc_set *s = bir_set_add(f, name);
	const uint64_t shape[2] = {
		bir_sb_partitions(f->mod->arch_level), size
	};
	struct bir_memloc *ml;

	if (!s)
		return -ENOMEM;
	s->dtype = bir_str(f->mod, "uint8");
	ml = bir_memloc_add(s, name);
	if (!s->dtype || bir_set_set_shape(s, shape, 2) || !ml)
		return -ENOMEM;
	ml->type = BIR_MEM_SB;
	ml->addr = addr;
	ml->dims[0] = bir_sb_partitions(f->mod->arch_level);
	ml->dims[1] = size;
	ml->base = 0;
	ml->tensor_id = 0;
	ml->allocated = true;		/* MemoryLocation::setAllocated */
	ml->runtime_reserved = true;
	return bir_set_build_tid_index(s);
}

int bir_pass_rtmemres(struct bir_module *m, const struct bir_opts *o,
		      bool flag, struct nscc_err *err)
{
	const char *name = o->rsv_name ? o->rsv_name : BIR_EVTACCEL_NAME;
	uint64_t cap = bir_sb_partition_bytes(m->arch_level), size, addr;
	struct bir_function *f = NULL;
	uint32_t n = 0;
	int rc;

	(void)flag;
	for (uint32_t k = 0; k < m->nfns; k++) {
		if (bir_function_is_nki_callee(m->fns[k]))
			continue;	/* owned by its call sites */
		f = m->fns[k];
		n++;
	}
	if (n != 1) {
		snprintf(err->msg, sizeof(err->msg), "%s (module has %u)",
			 RTMEMRES_ONE_FN, n);
		return -EINVAL;
	}
	if (m->arch_level <= 29) {
		bir_log(o, "RuntimeMemoryReservation: arch level %d: no reservation",
			m->arch_level);
		return 0;
	}
	if (bir_memloc_find(f, name)) {
		bir_log(o, "RuntimeMemoryReservation: %s already present", name);
		return 0;
	}
	if (!strcmp(name, BIR_EVTACCEL_NAME)) {
		uint64_t off = o->rsv_offset ? o->rsv_offset : cap - 8;

		if (off >= cap) {
			snprintf(err->msg, sizeof(err->msg),
				 "RuntimeMemoryReservation: config offset %llu is not below the SBUF partition size %llu",
				 (unsigned long long)off,
				 (unsigned long long)cap);
			return -EINVAL;
		}
		size = cap - off;	/* path 1: capacity - config offset */
		addr = off;
	} else {
		size = pinned_sb_hwm(f);	/* path 2: pinned high-water */
		addr = 0;
		if (!size) {
			bir_log(o, "RuntimeMemoryReservation: no pinned SB location");
			return 0;
		}
	}
	rc = record(f, name, addr, size);
	if (rc)
		snprintf(err->msg, sizeof(err->msg), "out of memory");
	else
		bir_log(o, "RuntimeMemoryReservation: %s addr %llu size %llu x %u partitions",
			name, (unsigned long long)addr,
			(unsigned long long)size,
			bir_sb_partitions(m->arch_level));
	return rc;
}
