/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cc_testutil.h - helpers shared by the compiler's host tests (cc_*.c):
 * build a synthetic one- or two-subgraph NEFF in memory with the
 * library's own NEFF writer, and run the whole pipeline on it.
 */
#ifndef CC_TESTUTIL_H
#define CC_TESTUTIL_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kbin_reader.h"
#include "neuronsim_cc.h"

#define CC_NEFF_JSON \
	"{\"nodes\": [{\"op\": \"null\", \"name\": \"x\"}," \
	" {\"op\": \"tvm_op\", \"name\": \"sg_coreV10\"," \
	"  \"attrs\": {\"func_name\": \"__kelf\", \"kelf\": \"kelf-0.json\"}}]}"

/* 16 float32 weights, the payload of sg00/w.npy */
static inline const float *cc_weights(void)
{
	static float w[16];
	int i;

	for (i = 0; i < 16; i++)
		w[i] = (float)i * 0.5f;
	return w;
}

/*
 * A NEFF writer holding neff.json, kelf-0.json (target, sg00), the given
 * sg00/def.json and tensor_map.json (NULL: none) and sg00/w.npy (64
 * bytes of float32 data, shape (16)).
 */
static inline struct nscc_neff_writer *cc_writer(const char *target,
						 const char *def,
						 const char *tmap)
{
	struct nscc_neff_writer *w = nscc_neff_writer_new();
	uint64_t shape[1] = { 16 };
	char kelf[256];

	if (!w)
		return NULL;
	snprintf(kelf, sizeof(kelf),
		 "{\"graphs\": [{\"definition\": \"sg00/def.json\", \"name\": \"sg00\"}],"
		 " \"version\": \"0.5\", \"target\": \"%s\"}", target);
	if (nscc_neff_writer_add_str(w, "neff.json", CC_NEFF_JSON) ||
	    nscc_neff_writer_add_str(w, "kelf-0.json", kelf) ||
	    nscc_neff_writer_add_str(w, "sg00/def.json", def) ||
	    (tmap && nscc_neff_writer_add_str(w, "sg00/tensor_map.json", tmap)) ||
	    nscc_neff_writer_add_npy(w, "sg00/w.npy", 1, "<f4", shape, 1,
				     cc_weights(), 64)) {
		nscc_neff_writer_free(w);
		return NULL;
	}
	return w;
}

/* open + to_model + compile of an in-memory NEFF image */
static inline int cc_compile_mem(const void *neff, size_t len, void **kbin,
				 size_t *klen, struct nscc_err *err)
{
	struct nscc_model *m = NULL;
	struct nscc_neff *n;
	int ret;

	*kbin = NULL;
	ret = nscc_neff_open_mem(neff, len, &n, err);
	if (ret)
		return ret;
	ret = nscc_neff_to_model(n, &m, err);
	if (ret) {
		nscc_neff_free(n);
		return ret;
	}
	ret = nscc_compile_model(m, kbin, klen, err);
	nscc_model_free(m);
	return ret;
}

/* Write the NEFF of cc_writer(target, def, tmap) and compile it. */
static inline int cc_compile_def(const char *target, const char *def,
				 const char *tmap, void **kbin, size_t *klen,
				 struct nscc_err *err)
{
	struct nscc_neff_writer *w = cc_writer(target, def, tmap);
	void *buf;
	size_t len;
	int ret;

	*kbin = NULL;
	if (!w)
		return -ENOMEM;
	ret = nscc_neff_writer_finish(w, NULL, &buf, &len);
	nscc_neff_writer_free(w);
	if (ret)
		return ret;
	ret = cc_compile_mem(buf, len, kbin, klen, err);
	free(buf);
	return ret;
}

/* A valid trn1 def.json var entry list helper: wrap vars into def.json. */
#define CC_DEF(vars) "{\"var\": {" vars "}}"
#define CC_SB "\"SB\": {\"type\": \"state-buffer\", \"var_id\": 0}"

#endif /* CC_TESTUTIL_H */
