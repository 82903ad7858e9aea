// SPDX-License-Identifier: GPL-2.0
/*
 * lower.c - the final module's DRAM and SB locations -> a def.json var
 * table (Documentation/compiler.rst) -> compiler part 1 (def.json reader and
 * nscc_compile_model()) -> a KBIN plan.  Also the two entry points the
 * neuronsim-cc command calls.
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

static const char *def_type(uint32_t t)
{
	switch (t) {
	case BIR_MEM_INPUT: return "input";
	case BIR_MEM_OUTPUT: return "output";
	case BIR_MEM_DRAM: return "tmp-buf";
	default: return NULL;
	}
}

static int add_var(json_t *vars, const struct bir_memloc *ml, int var_id)
{
	const struct bir_memloc_set *s = ml->set;
	json_t *v = json_pack("{s:s, s:i, s:I, s:i}", "type", def_type(ml->type),
			      "var_id", var_id, "size",
			      (json_int_t)bir_memloc_bytes(ml), "alignment", 64);

	if (!v)
		return -ENOMEM;
	if (s->dtype)
		json_object_set_new(v, "dtype", json_string(s->dtype));
	if (s->nshape) {
		json_t *sh = json_array();

		for (uint32_t k = 0; sh && k < s->nshape; k++)
			json_array_append_new(sh,
				json_integer((json_int_t)s->shape[k]));
		json_object_set_new(v, "shape", sh);
	}
	return json_object_set_new(vars, ml->name, v) ? -ENOMEM : 0;
}

int bir_lower_defjson(const struct bir_module *m, json_t **out,
		      struct nscc_err *err)
{
	json_t *def = json_object(), *vars = json_object(), *rsv = json_array();
	const struct bir_function *f;
	int id = 1, rc = -ENOMEM;

	*out = NULL;
	if (m->nfns != 1) {
		json_decref(def);
		json_decref(vars);
		json_decref(rsv);
		snprintf(err->msg, sizeof(err->msg),
			 "lowering: the final module must have one function (has %u): a kernel function was not inlined",
			 m->nfns);
		return -EINVAL;
	}
	f = m->fns[0];
	if (!def || !vars || !rsv ||
	    json_object_set_new(vars, "state-buffer",
				json_pack("{s:s, s:i}", "type", "state-buffer",
					  "var_id", 0)))
		goto out;
	for (uint32_t s = 0; s < f->nsets; s++) {
		for (uint32_t l = 0; l < f->sets[s]->nlocs; l++) {
			const struct bir_memloc *ml = f->sets[s]->locs[l];

			if (ml->type == BIR_MEM_SB && ml->runtime_reserved) {
				if (json_array_append_new(rsv, json_pack(
					"{s:s, s:I, s:I, s:i, s:I}", "type",
					kbin_carveout_type_str(KBIN_CARVEOUT_EVTACCEL),
					"offset", (json_int_t)ml->addr,
					"size", (json_int_t)ml->dims[1],
					"base_partition", (int)ml->base,
					"partitions", (json_int_t)ml->dims[0])))
					goto out;
				continue;
			}
			if (ml->type == BIR_MEM_SB && !ml->allocated) {
				rc = lfail(err, -EINVAL,
					   "lowering: SB memory location '%s' is not allocated%s",
					   ml->name, "");
				goto out;
			}
			if (!def_type(ml->type))
				continue;	/* SB, PSUM: on chip, no var */
			if (!bir_memloc_bytes(ml)) {
				rc = lfail(err, -EINVAL,
					   "lowering: memory location '%s' has size 0%s",
					   ml->name, "");
				goto out;
			}
			if (add_var(vars, ml, id++))
				goto out;
		}
	}
	if (json_object_set(def, "var", vars) ||
	    (json_array_size(rsv) &&
	     json_object_set(def, "runtime_statebuffer_reservation", rsv)))
		goto out;
	*out = json_incref(def);
	rc = 0;
out:
	if (rc == -ENOMEM)
		snprintf(err->msg, sizeof(err->msg), "lowering: out of memory");
	json_decref(def);
	json_decref(vars);
	json_decref(rsv);
	return rc;
}
