// SPDX-License-Identifier: GPL-2.0
/* requires: one function (else a warning), no SB placed yet; guarantees: on gen 3+ one allocated runtime-reserved SB location */
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
	ml = bir_memloc_add(s, name);
	if (bir_dtype_set(f->mod, &s->dtype, "uint8") ||
	    bir_set_set_shape(s, shape, 2) || !ml)
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
	int rc, path = o->rsv_path;

	(void)flag;
	if (path < 0 || path > 2) {
		snprintf(err->msg, sizeof(err->msg),
			 "RuntimeMemoryReservation: size path %d is not 1 (capacity - config offset) or 2 (pinned SB high-water mark)",
			 path);
		return -EINVAL;
	}
	/* every Function counts; the compiler reports, not aborts */
	if (m->nfns != 1) {
		rc = bir_warn(o, err, "%s (module has %u)", RTMEMRES_ONE_FN,
			      m->nfns);
		if (rc)
			return rc;
	}
	for (uint32_t k = 0; !f && k < m->nfns; k++)
		if (!bir_function_is_nki_callee(m->fns[k]))
			f = m->fns[k];	/* kernels belong to their call sites */
	if (!f) {
		bir_log(o, "RuntimeMemoryReservation: no program function: no reservation");
		return 0;
	}
	if (!path)	/* the compiler's predicate: the name */
		path = strcmp(name, BIR_EVTACCEL_NAME) ? 2 : 1;
	if (m->arch_level <= 29) {
		bir_log(o, "RuntimeMemoryReservation: arch level %d: no reservation",
			m->arch_level);
		return 0;
	}
	if (bir_memloc_find(f, name)) {
		bir_log(o, "RuntimeMemoryReservation: %s already present", name);
		return 0;
	}
	if (path == 1) {
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
