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

/* 8-byte granules of a bank in a partition, and the 64-bit words of their map */
#define GRANULE		8U
#define BANK_GRANULES	(KBIN_PSUM_BANK_SIZE / GRANULE)
#define BANK_WORDS	(BANK_GRANULES / 64)

struct psum {
	struct bir_function *f;
	const struct kbin_gen *g;
	const struct bir_opts *o;
	/*
	 * the granules taken, per partition: banks x BANK_WORDS words, bit g
	 * of the partition's map the bytes [8g, 8g + 8) of its PSUM; a
	 * location is placed by looking at the maps of its partitions only,
	 * never at the other locations (linear in the locations)
	 */
	uint64_t *busy;
	uint32_t banks, parts;
	uint32_t next_bank;		/* the rotation's cursor */
	struct nscc_err *err;
};

static bool wanted(const struct bir_memloc *ml)
{
	return ml->type == BIR_MEM_PSUM && !ml->allocated && !ml->pinned;
}

/* a location whose bytes are its own: allocated or pinned (it keeps them) */
static bool fixed(const struct bir_memloc *ml)
{
	return ml->type == BIR_MEM_PSUM && (ml->allocated || ml->pinned) &&
	       ml->dims[1];
}

/* take bytes [@lo, @hi) of the PSUM of partitions [@p0, @p1), clipped */
static void take(struct psum *p, uint64_t lo, uint64_t hi, uint64_t p0,
		 uint64_t p1)
{
	uint64_t g0 = lo / GRANULE, g1 = hi / GRANULE + (hi % GRANULE != 0);
	uint64_t all = (uint64_t)p->banks * BANK_GRANULES;

	g1 = g1 < all ? g1 : all;
	p1 = p1 < p->parts ? p1 : p->parts;
	for (uint64_t q = p0; q < p1; q++) {
		uint64_t *w = p->busy + q * p->banks * BANK_WORDS;

		for (uint64_t g = g0; g < g1; g++)
			w[g / 64] |= 1ULL << (g % 64);
	}
}

/*
 * The lowest 8-byte aligned offset in bank @bank (from the bank's start)
 * where @need bytes are free on every partition of @ml; -1 when none.
 */
static int64_t fit_in_bank(const struct psum *p, const struct bir_memloc *ml,
			   uint32_t bank, uint64_t need)
{
	uint64_t map[BANK_WORDS] = { 0 }, n = need / GRANULE, run = 0;

	for (uint64_t q = ml->base; q < ml->base + ml->dims[0]; q++) {
		const uint64_t *w = p->busy + (q * p->banks + bank) * BANK_WORDS;

		for (uint32_t k = 0; k < BANK_WORDS; k++)
			map[k] |= w[k];
	}
	for (uint64_t g = 0; g < BANK_GRANULES; g++) {
		if (map[g / 64] >> (g % 64) & 1)
			run = 0;
		else if (++run == n)
			return (int64_t)((g + 1 - n) * GRANULE);
	}
	return -1;
}

static int place(struct psum *p, struct bir_memloc *ml)
{
	uint32_t banks, parts;
	uint64_t need;

	if (!p->g) {
		snprintf(p->err->msg, sizeof(p->err->msg),
			 "function '%s': PSUM location '%s': arch level %d is not a generation the PSUM geometry is known of",
			 p->f->name, ml->name, p->f->mod->arch_level);
		return -EINVAL;
	}
	banks = p->g->psum_banks;
	parts = kbin_gen_psum_partitions(p->g);
	if (!ml->dims[0] || ml->dims[0] > parts || ml->base > parts - ml->dims[0]) {
		snprintf(p->err->msg, sizeof(p->err->msg),
			 "function '%s': PSUM location '%s': partitions %llu from base %u are outside the %u PSUM partitions of %s",
			 p->f->name, ml->name, (unsigned long long)ml->dims[0],
			 ml->base, parts, p->g->name);
		return -EINVAL;
	}
	if (!ml->dims[1] || ml->dims[1] > KBIN_PSUM_BANK_SIZE) {
		snprintf(p->err->msg, sizeof(p->err->msg),
			 "function '%s': PSUM location '%s': %llu bytes per partition, a PSUM bank holds 1..%u",
			 p->f->name, ml->name, (unsigned long long)ml->dims[1],
			 KBIN_PSUM_BANK_SIZE);
		return -EINVAL;
	}
	need = aligned(ml->dims[1]);
	for (uint32_t t = 0; t < banks; t++) {
		uint32_t bank = (p->next_bank + t) % banks;
		int64_t at = fit_in_bank(p, ml, bank, need);

		if (at < 0)
			continue;
		ml->addr = (uint64_t)bank * KBIN_PSUM_BANK_SIZE + (uint64_t)at;
		ml->bank = bank;
		ml->allocated = true;
		take(p, ml->addr, ml->addr + need, ml->base,
		     (uint64_t)ml->base + ml->dims[0]);
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

/* place the PSUM locations an instruction names, in operand order */
static int first_use(struct bir_inst *i, void *arg)
{
	struct psum *p = arg;

	for (int side = 0; side < 2; side++) {
		const struct bir_operand *ops = side ? i->outs : i->ins;
		uint32_t cnt = side ? i->nouts : i->nins;

		for (uint32_t k = 0; k < cnt; k++) {
			struct bir_memloc *ml;
			int rc;

			if (ops[k].kind != BIR_OPND_AP)
				continue;
			ml = ops[k].ml;
			if (!ml || !wanted(ml))
				continue;	/* placed already, or not to be */
			rc = place(p, ml);
			if (rc)
				return rc;
		}
	}
	return 0;
}

static int rotate_function(struct psum *p)
{
	const struct bir_function *f = p->f;
	bool any = false;
	int rc;

	for (uint32_t s = 0; !any && s < f->nsets; s++)
		for (uint32_t l = 0; !any && l < f->sets[s]->nlocs; l++)
			any = wanted(f->sets[s]->locs[l]);
	if (!any)
		return 0;
	if (p->g) {
		p->banks = p->g->psum_banks;
		p->parts = kbin_gen_psum_partitions(p->g);
		p->busy = calloc((size_t)p->parts * p->banks * BANK_WORDS,
				 sizeof(*p->busy));
		if (!p->busy) {
			snprintf(p->err->msg, sizeof(p->err->msg), "out of memory");
			return -ENOMEM;
		}
		/* the bytes of the locations that keep theirs */
		for (uint32_t s = 0; s < f->nsets; s++)
			for (uint32_t l = 0; l < f->sets[s]->nlocs; l++) {
				const struct bir_memloc *o = f->sets[s]->locs[l];
				uint64_t end;

				if (!fixed(o) ||
				    __builtin_add_overflow(o->addr, aligned(o->dims[1]), &end))
					continue;
				take(p, o->addr, end, o->base,
				     o->base + (o->dims[0] < UINT32_MAX ? o->dims[0] : UINT32_MAX));
			}
	}
	/* in the order of first use, then the ones no instruction names */
	rc = bir_foreach_inst(p->f, first_use, p);
	for (uint32_t s = 0; !rc && s < f->nsets; s++)
		for (uint32_t l = 0; !rc && l < f->sets[s]->nlocs; l++)
			if (wanted(f->sets[s]->locs[l]))
				rc = place(p, f->sets[s]->locs[l]);
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
		free(p.busy);
	}
	return rc;
}
