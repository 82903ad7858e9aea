// SPDX-License-Identifier: GPL-2.0
/*
 * defjson_prog.c - the engine programs of a def.json subgraph
 * (Documentation/compiler.rst, "Programs"; Documentation/execute.rst):
 * the five instruction streams def.json names ("pe_instr": "PE.bin",
 * "act_instr", "pool_instr", "dve_instr", "sp_instr"; the engine
 * member's "instr" names the same member), kept verbatim as 64-byte
 * records.  Checks here are about the JSON and the member's length; every
 * rule of the program (modes, semaphores, triggers) is the plan
 * checker's (kmod/plan/kbin_prog.c), reported by compile.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kbin_dma.h"
#include "kbin_prog.h"
#include "nscc_internal.h"

int nscc_prog_stream_count(uint64_t bytes, const char *what, uint32_t *n,
			   struct nscc_err *err)
{
	__u32 k;

	if (kbin_prog_stream_count(bytes, &k))
		return nscc_errf(err, -EINVAL, "%s: %llu bytes are not a whole number of %u-byte instruction records (%s)",
				 what, (unsigned long long)bytes,
				 KBIN_PROG_RECORD_SIZE,
				 kbin_reason_str(KBIN_ERR_PROG_COUNT));
	*n = k;
	return 0;
}

int nscc_model_set_prog(struct nscc_model *m, int sgi, uint32_t engine,
			const void *records, uint64_t bytes,
			const char *member, struct nscc_err *err)
{
	struct nscc_subgraph *sg;
	char what[64];
	uint8_t *copy = NULL;
	char *name = NULL;
	uint32_t n = 0;
	int ret;

	if (!m || sgi < 0 || (uint32_t)sgi >= m->num_sgs || engine < 1 ||
	    engine > KBIN_PROG_ENGINES || (bytes && !records))
		return nscc_errf(err, -EINVAL, "subgraph %d, engine %u: no such stream",
				 sgi, engine);
	sg = &m->sgs[sgi];
	snprintf(what, sizeof(what), "%s: the %s stream", sg->name,
		 kbin_dma_engine_str(engine));
	ret = nscc_prog_stream_count(bytes, member ? member : what, &n, err);
	if (ret)
		return ret;
	if (bytes && !(copy = malloc((size_t)bytes)))
		return nscc_errf(err, -ENOMEM, "out of memory");
	if (member && !(name = strdup(member))) {
		free(copy);
		return nscc_errf(err, -ENOMEM, "out of memory");
	}
	if (bytes)
		memcpy(copy, records, (size_t)bytes);
	if (sg->prog_owned[engine])
		free((void *)sg->prog[engine]);
	free(sg->prog_members[engine]);
	/* names of the stream it replaces: the caller sets new ones */
	for (uint32_t k = 0; sg->prog_names[engine] && k < sg->prog_count[engine]; k++)
		free(sg->prog_names[engine][k]);
	free(sg->prog_names[engine]);
	sg->prog_names[engine] = NULL;
	sg->prog[engine] = copy;
	sg->prog_owned[engine] = 1;
	sg->prog_count[engine] = n;
	sg->prog_members[engine] = name;
	sg->has_prog = 1;
	return 0;
}

int nscc_defjson_prog(struct nscc_model *m, int sgi, struct jv dj,
		      struct nscc_neff *neff, const char *dir,
		      struct nscc_err *err)
{
	struct nscc_subgraph *sg = &m->sgs[sgi];
	char key[32], *path;
	const char *mname;
	const void *data;
	size_t len;
	uint32_t e, n = 0;
	int ret;

	if (!neff)
		return 0;
	for (e = 1; e <= KBIN_PROG_ENGINES; e++) {
		struct jv o;

		snprintf(key, sizeof(key), "%s_instr", kbin_dma_engine_str(e));
		o = jv_get(dj, key);
		mname = jv_str(o);
		if (!jv_is_none(o) && (!mname || !*mname))
			return nscc_errf(err, -EINVAL, "%s: def.json field '%s' is not a member name",
					 sg->name, key);
		if (mname && sg->instr_json[e] && strcmp(mname, sg->instr_json[e]))
			return nscc_errf(err, -EINVAL, "%s: def.json field '%s' names '%s' but %s's 'instr' names '%s'",
					 sg->name, key, mname,
					 sg->dma_members[e] ? sg->dma_members[e] :
					 kbin_dma_engine_str(e), sg->instr_json[e]);
		if (!mname)
			mname = sg->instr_json[e];
		if (!mname)
			continue;
		if (asprintf(&path, "%s%s%s", dir, *dir ? "/" : "", mname) < 0)
			return nscc_errf(err, -ENOMEM, "out of memory");
		sg->prog_members[e] = path;
		ret = nscc_neff_member(neff, path, &data, &len, err);
		if (ret) {
			if (ret == -ENOENT)
				nscc_errf(err, ret, "%s: def.json field '%s': member '%s' is missing from the NEFF",
					  sg->name, key, path);
			return ret;
		}
		ret = nscc_prog_stream_count(len, path, &n, err);
		if (ret) {
			nscc_err_prefix(err, "%s", sg->name);
			return ret;
		}
		sg->prog[e] = data;
		sg->prog_count[e] = n;
		sg->has_prog = 1;
	}
	return 0;
}
