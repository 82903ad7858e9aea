// SPDX-License-Identifier: GPL-2.0
/* requires: nothing; guarantees: no two consecutive implicit-permute CollectiveCompute share a kind (else -EINVAL) */
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

static bool is_channel_key(const char *k)
{
	return !strcmp(k, "channel") || !strcmp(k, "channels");
}

/* the attributes of @a are in @b, apart from the channel number(s) */
static bool attrs_in(const struct bir_val *a, const struct bir_val *b,
		     uint32_t *n)
{
	*n = 0;
	for (uint32_t k = 0; k < a->n; k++) {
		const struct bir_val *o;

		if (is_channel_key(a->members[k].key))
			continue;
		(*n)++;
		o = bir_val_get(b, a->members[k].key);
		if (!o || !bir_val_equal(&a->members[k].v, o))
			return false;
	}
	return true;
}

/* same attributes apart from the channel number(s), same engine */
static bool compatible(const struct bir_inst *a, const struct bir_inst *b)
{
	uint32_t na, nb;

	return attrs_in(&a->attrs, &b->attrs, &na) &&
	       attrs_in(&b->attrs, &a->attrs, &nb) && na == nb &&
	       ((!a->engine && !b->engine) ||
		(a->engine && b->engine && !strcmp(a->engine, b->engine)));
}

static int append_ops(struct bir_inst *dst, const struct bir_inst *src)
{
	for (int side = 0; side < 2; side++) {
		const struct bir_operand *v = side ? src->outs : src->ins;
		uint32_t n = side ? src->nouts : src->nins;

		for (uint32_t k = 0; k < n; k++) {
			struct bir_operand *o = bir_operand_add(dst, side, 0, NULL);

			if (!o || bir_operand_copy(dst->mod, o, &v[k]))
				return -ENOMEM;
		}
	}
	return 0;
}

/* channels list of the merged instruction */
static int add_channel(struct bir_inst *dst, const struct bir_inst *src,
		       bool first)
{
	const struct bir_val *c = bir_attr_get(src, "channel");
	const struct bir_val empty = { .kind = BIR_VAL_LIST };
	struct bir_val ch;

	if (!c)
		return 0;
	ch = bir_attr_get(dst, "channels") ? *bir_attr_get(dst, "channels") :
					     empty;
	/* the list is rebuilt in the arena: the old one stays untouched */
	if (ch.kind != BIR_VAL_LIST || bir_val_append(dst->mod, &ch, c) ||
	    bir_attr_set(dst, "channels", &ch))
		return -ENOMEM;
	if (first)
		bir_attr_del(dst, "channel");
	return 0;
}

static int coalesce_block(struct bir_block *b, struct nscc_err *err)
{
	for (uint32_t k = 0; k + 1 < b->ninsts;) {
		struct bir_inst *a = b->insts[k], *n = b->insts[k + 1];
		const char *ka = cc_kind(a), *kn = cc_kind(n);
		bool first = !bir_attr_get(a, "channels");

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
