// SPDX-License-Identifier: GPL-2.0
/* requires: nothing; guarantees: every PSUM location of a program function allocated in a bank, banks taken in rotation, none overlapping another in a partition, a fixed (allocated or pinned) one included (else -EINVAL, -ENOSPC); fixed ones kept */
/*
 * pass_psum_rotation.c - address_rotation_psum, order 46
 * (Documentation/compiler-passes.rst, "address_rotation_psum"): the PSUM
 * locations the backend places get their address bank by bank, the
 * banks taken in turn in the order the function first uses the
 * locations, so that consecutive accumulations land in different banks.
 * Beyond its name and its order the compiler's pass is not described;
 * what it does here is neuronsim's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "bir.h"
#include "kbin_gen.h"

/* a PSUM location is placed on 8-byte boundaries, as SBUF ones are */
static uint64_t aligned(uint64_t n)
{
	return bir_rtmemres_aligned(n);
}

struct psum {
	struct bir_function *f;
	const struct kbin_gen *g;
	const struct bir_opts *o;
	struct bir_memloc **order;	/* unplaced PSUM locations, first use first */
	uint32_t n, cap;
	uint32_t next_bank;		/* the rotation's cursor */
	struct nscc_err *err;
};

static bool wanted(const struct bir_memloc *ml)
{
	return ml->type == BIR_MEM_PSUM && !ml->allocated && !ml->pinned;
}

static int note(struct psum *p, struct bir_memloc *ml)
{
	struct bir_memloc **nv;

	for (uint32_t k = 0; k < p->n; k++)
		if (p->order[k] == ml)
			return 0;
	if (p->n == p->cap) {
		p->cap = p->cap ? p->cap * 2 : 16;
		nv = realloc(p->order, p->cap * sizeof(*nv));
		if (!nv)
			return -ENOMEM;
		p->order = nv;
	}
	p->order[p->n++] = ml;
	return 0;
}

/* the PSUM locations an instruction names, in operand order */
static int first_use(struct bir_inst *i, void *arg)
{
	struct psum *p = arg;

	for (int side = 0; side < 2; side++) {
		const struct bir_operand *ops = side ? i->outs : i->ins;
		uint32_t cnt = side ? i->nouts : i->nins;

		for (uint32_t k = 0; k < cnt; k++) {
			struct bir_memloc *ml;

			if (ops[k].kind != BIR_OPND_AP)
				continue;
			ml = bir_memloc_find(p->f, ops[k].name);
			if (ml && wanted(ml) && note(p, ml))
				return -ENOMEM;
		}
	}
	return 0;
}

static bool parts_overlap(const struct bir_memloc *a,
			  const struct bir_memloc *b)
{
	return a->base < b->base + b->dims[0] && b->base < a->base + a->dims[0];
}

/*
 * The lowest offset in bank @bank where @ml fits beside every PSUM
 * location of the function with a fixed address (allocated or pinned)
 * sharing a partition with it; -1 when none.
 */
static int64_t fit_in_bank(const struct psum *p, const struct bir_memloc *ml,
			   uint32_t bank)
{
	uint64_t lo = (uint64_t)bank * KBIN_PSUM_BANK_SIZE, at = lo;
	uint64_t hi = lo + KBIN_PSUM_BANK_SIZE, need = aligned(ml->dims[1]);
	bool moved = true;

	/* first fit: move past every location in the way until none is */
	while (moved && at + need <= hi) {
		moved = false;
		for (uint32_t s = 0; s < p->f->nsets; s++)
			for (uint32_t l = 0; l < p->f->sets[s]->nlocs; l++) {
				const struct bir_memloc *o = p->f->sets[s]->locs[l];
				uint64_t end = o->addr + aligned(o->dims[1]);

				if (o == ml || o->type != BIR_MEM_PSUM ||
				    !(o->allocated || o->pinned) || !o->dims[1] ||
				    !parts_overlap(o, ml) ||
				    o->addr >= at + need || end <= at)
					continue;
				at = end;
				moved = true;
			}
	}
	return at + need <= hi ? (int64_t)at : -1;
}

static int place(struct psum *p, struct bir_memloc *ml)
{
	uint32_t banks, parts;

	if (!p->g) {
		snprintf(p->err->msg, sizeof(p->err->msg),
			 "function '%s': PSUM location '%s': arch level %d is not a generation the PSUM geometry is known of",
			 p->f->name, ml->name, p->f->mod->arch_level);
		return -EINVAL;
	}
	banks = p->g->psum_banks;
	parts = kbin_gen_psum_partitions(p->g);
	if (!ml->dims[0] || ml->base + ml->dims[0] > parts) {
		snprintf(p->err->msg, sizeof(p->err->msg),
			 "function '%s': PSUM location '%s': partitions %llu from base %u are outside the %u PSUM partitions of %s",
			 p->f->name, ml->name, (unsigned long long)ml->dims[0],
			 ml->base, parts, p->g->name);
		return -EINVAL;
	}
	if (!ml->dims[1] || aligned(ml->dims[1]) > KBIN_PSUM_BANK_SIZE) {
		snprintf(p->err->msg, sizeof(p->err->msg),
			 "function '%s': PSUM location '%s': %llu bytes per partition, a PSUM bank holds 1..%u",
			 p->f->name, ml->name, (unsigned long long)ml->dims[1],
			 KBIN_PSUM_BANK_SIZE);
		return -EINVAL;
	}
	for (uint32_t t = 0; t < banks; t++) {
		uint32_t bank = (p->next_bank + t) % banks;
		int64_t at = fit_in_bank(p, ml, bank);

		if (at < 0)
			continue;
		ml->addr = (uint64_t)at;
		ml->bank = bank;
		ml->allocated = true;
		p->next_bank = (bank + 1) % banks;
		bir_log(p->o, "address_rotation_psum: %s -> bank %u addr %llu",
			ml->name, bank, (unsigned long long)ml->addr);
		return 0;
	}
	snprintf(p->err->msg, sizeof(p->err->msg),
		 "function '%s': PSUM exhausted placing memory location '%s' (%llu bytes per partition on partitions %u..%llu): no bank of %u has room",
		 p->f->name, ml->name, (unsigned long long)ml->dims[1], ml->base,
		 (unsigned long long)(ml->base + ml->dims[0] - 1), banks);
	return -ENOSPC;
}

static int rotate_function(struct psum *p)
{
	int rc = bir_foreach_inst(p->f, first_use, p);

	/* then the ones no instruction names, in set order */
	for (uint32_t s = 0; !rc && s < p->f->nsets; s++)
		for (uint32_t l = 0; !rc && l < p->f->sets[s]->nlocs; l++)
			if (wanted(p->f->sets[s]->locs[l]))
				rc = note(p, p->f->sets[s]->locs[l]);
	if (rc) {
		snprintf(p->err->msg, sizeof(p->err->msg), "out of memory");
		return rc;
	}
	for (uint32_t k = 0; !rc && k < p->n; k++)
		rc = place(p, p->order[k]);
	return rc;
}

int bir_pass_psum_rotation(struct bir_module *m, const struct bir_opts *o,
			   bool flag, struct nscc_err *err)
{
	const struct kbin_gen *g = kbin_gen_by_number(bir_arch_gen(m->arch_level));
	int rc = 0;

	(void)flag;
	if (g && !g->psum_banks)
		g = NULL;
	for (uint32_t k = 0; !rc && k < m->nfns; k++) {
		struct psum p = { .f = m->fns[k], .g = g, .o = o, .err = err };

		/* a kernel's locations belong to its call sites */
		if (bir_function_is_nki_callee(m->fns[k]))
			continue;
		rc = rotate_function(&p);
		free(p.order);
	}
	return rc;
}
