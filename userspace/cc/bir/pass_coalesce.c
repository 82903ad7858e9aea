// SPDX-License-Identifier: GPL-2.0
/*
 * pass_coalesce.c - coalesce_multichannel_cc_ops, orders 42 and 62
 * (Documentation/compiler-passes.rst): consecutive per-channel
 * CollectiveCompute instructions of an implicit permute kind
 * (PermuteImplicit, PermuteReduceImplicit) merge into one with several
 * inputs and outputs.  Afterwards no two consecutive CollectiveCompute
 * of those kinds may share a kind; that is checked.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "bir.h"

static const char *cc_kind(const struct bir_inst *i)
{
	const char *k;

	if (i->op != BIR_OP_COLLECTIVE_COMPUTE)
		return NULL;
	k = bir_attr_str(i, "cc_op");
	if (k && (!strcmp(k, "PermuteImplicit") ||
		  !strcmp(k, "PermuteReduceImplicit")))
		return k;
	return NULL;
}

/* same attributes apart from the channel number(s) */
static bool compatible(const struct bir_inst *a, const struct bir_inst *b)
{
	json_t *x = json_deep_copy(a->attrs), *y = json_deep_copy(b->attrs);
	bool eq;

	json_object_del(x, "channel");
	json_object_del(x, "channels");
	json_object_del(y, "channel");
	json_object_del(y, "channels");
	eq = x && y && json_equal(x, y) &&
	     ((!a->engine && !b->engine) ||
	      (a->engine && b->engine && !strcmp(a->engine, b->engine)));
	json_decref(x);
	json_decref(y);
	return eq;
}

static int append_ops(struct bir_inst *dst, const struct bir_inst *src)
{
	for (int side = 0; side < 2; side++) {
		const struct bir_operand *v = side ? src->outs : src->ins;
		uint32_t n = side ? src->nouts : src->nins;

		for (uint32_t k = 0; k < n; k++) {
			struct bir_operand *o = bir_operand_add(dst, side, 0, NULL);

			if (!o || bir_operand_copy(o, &v[k]))
				return -ENOMEM;
		}
	}
	return 0;
}

/* channels list of the merged instruction */
static int add_channel(struct bir_inst *dst, const struct bir_inst *src,
		       bool first)
{
	json_t *ch = json_object_get(dst->attrs, "channels");
	json_t *c = json_object_get(src->attrs, "channel");

	if (!c)
		return 0;
	if (!ch) {
		ch = json_array();
		if (!ch || json_object_set_new(dst->attrs, "channels", ch))
			return -ENOMEM;
	}
	if (json_array_append(ch, c))
		return -ENOMEM;
	if (first)
		json_object_del(dst->attrs, "channel");
	return 0;
}

static int coalesce_block(struct bir_block *b, struct nscc_err *err)
{
	for (uint32_t k = 0; k + 1 < b->ninsts;) {
		struct bir_inst *a = b->insts[k], *n = b->insts[k + 1];
		const char *ka = cc_kind(a), *kn = cc_kind(n);
		bool first = !json_object_get(a->attrs, "channels");

		if (!ka || !kn || strcmp(ka, kn) || !compatible(a, n)) {
			k++;
			continue;
		}
		if ((first && add_channel(a, a, true)) || add_channel(a, n, false) ||
		    append_ops(a, n))
			goto nomem;
		bir_inst_unlink(n);
		bir_inst_free(n);
	}
	for (uint32_t k = 0; k + 1 < b->ninsts; k++) {
		const char *ka = cc_kind(b->insts[k]);
		const char *kn = cc_kind(b->insts[k + 1]);

		if (ka && kn && !strcmp(ka, kn)) {
			snprintf(err->msg, sizeof(err->msg),
				 "block '%s': consecutive CollectiveCompute '%s' and '%s' share kind '%s' but differ in other attributes; they cannot be coalesced",
				 b->name, b->insts[k]->name,
				 b->insts[k + 1]->name, ka);
			return -EINVAL;
		}
	}
	for (uint32_t k = 0; k < b->ninsts; k++)
		for (uint32_t j = 0; j < b->insts[k]->nblocks; j++) {
			int rc = coalesce_block(b->insts[k]->blocks[j], err);

			if (rc)
				return rc;
		}
	return 0;
nomem:
	snprintf(err->msg, sizeof(err->msg), "out of memory");
	return -ENOMEM;
}

int bir_pass_coalesce(struct bir_module *m, const struct bir_opts *o,
		      bool flag, struct nscc_err *err)
{
	(void)o;
	(void)flag;
	for (uint32_t f = 0; f < m->nfns; f++)
		for (uint32_t b = 0; b < m->fns[f]->nblocks; b++) {
			int rc = coalesce_block(m->fns[f]->blocks[b], err);

			if (rc)
				return rc;
		}
	return 0;
}
