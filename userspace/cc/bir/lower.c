// SPDX-License-Identifier: GPL-2.0
/* requires: one function, every SB location allocated; guarantees: the compiler's var table and carve-outs, the module untouched */
/*
 * lower.c - the final module's DRAM and SB locations -> the compiler's
 * in-memory model (struct nscc_model, userspace/cc/neuronsim_cc.h): the
 * var table and SBUF carve-outs that nscc_compile_model() turns into a
 * KBIN plan (Documentation/compiler-passes.rst, "Lowering").  The model
 * is built directly; there is no def.json text in between.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "bir.h"
#include "kbin_names.h"

static int lfail(struct nscc_err *err, int rc, const char *fmt,
		 const char *a, const char *b)
{
	snprintf(err->msg, sizeof(err->msg), fmt, a, b);
	return rc;
}

/* the kind of the var a MemoryLocation becomes; KBIN_MR_INVALID: none */
static uint32_t var_kind(uint32_t t)
{
	switch (t) {
	case BIR_MEM_INPUT: return KBIN_MR_INPUT;
	case BIR_MEM_OUTPUT: return KBIN_MR_OUTPUT;
	case BIR_MEM_DRAM: return KBIN_MR_TMP_BUF;
	default: return KBIN_MR_INVALID;
	}
}

static int add_var(struct nscc_model *model, int sg,
		   const struct bir_memloc *ml, uint32_t var_id)
{
	uint32_t kind = var_kind(ml->type);
	struct nscc_var *v = nscc_model_add_var(model, sg, ml->name, var_id,
						kind);

	if (!v)
		return -ENOMEM;
	v->has_size = 1;
	v->size = bir_memloc_bytes(ml);
	v->alignment = 64;
	/* the set's dtype and tensor_shape; the dump refuses what won't fit */
	if ((ml->set->dtype && nscc_var_set_dtype(v, ml->set->dtype)) ||
	    (ml->set->shape &&
	     nscc_var_set_shape(v, ml->set->shape, ml->set->nshape)))
		return -ENOMEM;
	return 0;
}

/* check the locations that become vars; count the runtime-reserved ones */
static int scan(const struct bir_function *f, uint32_t *nrsv,
		struct nscc_err *err)
{
	*nrsv = 0;
	for (uint32_t s = 0; s < f->nsets; s++) {
		for (uint32_t l = 0; l < f->sets[s]->nlocs; l++) {
			const struct bir_memloc *ml = f->sets[s]->locs[l];

			if (ml->type == BIR_MEM_SB && ml->runtime_reserved) {
				(*nrsv)++;
				continue;
			}
			if (ml->type == BIR_MEM_SB && !ml->allocated)
				return lfail(err, -EINVAL,
					     "lowering: SB memory location '%s' is not allocated%s",
					     ml->name, "");
			if (var_kind(ml->type) == KBIN_MR_INVALID)
				continue;	/* SB, PSUM: on chip, no var */
			if (ml->dims[1] && ml->dims[0] > INT64_MAX / ml->dims[1])
				return lfail(err, -EINVAL,
					     "lowering: memory location '%s' is larger than %s bytes",
					     ml->name, "2^63 - 1");
			if (!bir_memloc_bytes(ml))
				return lfail(err, -EINVAL,
					     "lowering: memory location '%s' has size 0%s",
					     ml->name, "");
			if (!strcmp(ml->name, "state-buffer"))
				return lfail(err, -EINVAL,
					     "lowering: memory location '%s' has the name of var 0%s",
					     ml->name, "");
		}
	}
	return 0;
}

int bir_lower_model(const struct bir_module *m, struct nscc_model *model,
		    struct nscc_err *err)
{
	const char *evtaccel = kbin_carveout_type_str(KBIN_CARVEOUT_EVTACCEL);
	const struct bir_function *f;
	uint32_t nrsv, id = 1;
	int sg, rc;

	if (m->nfns != 1) {
		snprintf(err->msg, sizeof(err->msg),
			 "lowering: the final module must have one function (has %u): a kernel function was not inlined",
			 m->nfns);
		return -EINVAL;
	}
	f = m->fns[0];
	rc = scan(f, &nrsv, err);
	if (rc)
		return rc;
	sg = nscc_model_add_subgraph(model, "sg00");
	if (sg < 0)
		goto nomem;
	rc = nscc_model_check_carveout_count(model, sg, nrsv > 0, nrsv, err);
	for (uint32_t s = 0; !rc && s < f->nsets; s++) {
		for (uint32_t l = 0; !rc && l < f->sets[s]->nlocs; l++) {
			const struct bir_memloc *ml = f->sets[s]->locs[l];
			const int64_t val[4] = {
				(int64_t)ml->addr, (int64_t)ml->dims[1],
				(int64_t)ml->base, (int64_t)ml->dims[0],
			};

			if (ml->type == BIR_MEM_SB && ml->runtime_reserved)
				rc = nscc_model_add_carveout(model, sg,
							     evtaccel, val,
							     err);
		}
	}
	if (rc)
		return rc;
	if (!nscc_model_add_var(model, sg, "state-buffer", 0, KBIN_MR_SB))
		goto nomem;
	for (uint32_t s = 0; s < f->nsets; s++) {
		for (uint32_t l = 0; l < f->sets[s]->nlocs; l++) {
			const struct bir_memloc *ml = f->sets[s]->locs[l];

			if ((ml->type == BIR_MEM_SB && ml->runtime_reserved) ||
			    var_kind(ml->type) == KBIN_MR_INVALID)
				continue;
			if (add_var(model, sg, ml, id++))
				goto nomem;
		}
	}
	return 0;
nomem:
	snprintf(err->msg, sizeof(err->msg), "lowering: out of memory");
	return -ENOMEM;
}
