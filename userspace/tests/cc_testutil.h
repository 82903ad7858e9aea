/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cc_testutil.h - helpers shared by the compiler's host tests (cc_*.c):
 * build a synthetic one- or two-subgraph NEFF in memory with the
 * library's own NEFF writer, and run the whole pipeline on it.
 */
#ifndef CC_TESTUTIL_H
#define CC_TESTUTIL_H

#include <errno.h>
#include <stdarg.h>
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
	return nscc_compile_neff_mem(neff, len, NULL, kbin, klen, err);
}

/*
 * Finish the NEFF of @w (freed here) and compile it into *@kbin (NULL
 * when it fails): 0, or the writer's or the compiler's error.
 */
static inline int cc_compile_writer(struct nscc_neff_writer *w, void **kbin,
				    size_t *klen, struct nscc_err *err)
{
	void *buf;
	size_t len;
	int ret;

	*kbin = NULL;
	ret = nscc_neff_writer_finish(w, NULL, &buf, &len);
	nscc_neff_writer_free(w);
	if (ret)
		return ret;
	ret = cc_compile_mem(buf, len, kbin, klen, err);
	free(buf);
	return ret;
}

/* Write the NEFF of cc_writer(target, def, tmap) and compile it. */
static inline int cc_compile_def(const char *target, const char *def,
				 const char *tmap, void **kbin, size_t *klen,
				 struct nscc_err *err)
{
	struct nscc_neff_writer *w = cc_writer(target, def, tmap);

	*kbin = NULL;
	if (!w)
		return -ENOMEM;
	return cc_compile_writer(w, kbin, klen, err);
}

/* A valid trn1 def.json var entry list helper: wrap vars into def.json. */
#define CC_DEF(vars) "{\"var\": {" vars "}}"
#define CC_SB "\"SB\": {\"type\": \"state-buffer\", \"var_id\": 0}"

/* a growing text buffer for the generators below */
struct cc_buf {
	char *p;
	size_t len, cap;
	int oom;
};

static inline void cc_put(struct cc_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static inline void cc_put(struct cc_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	while (!b->oom) {
		va_start(ap, fmt);
		n = vsnprintf(b->p ? b->p + b->len : NULL,
			      b->p ? b->cap - b->len : 0, fmt, ap);
		va_end(ap);
		if (n < 0) {
			b->oom = 1;
			break;
		}
		if (b->p && (size_t)n < b->cap - b->len) {
			b->len += (size_t)n;
			break;
		}
		b->cap = b->cap * 2 + (size_t)n + 64;
		b->p = realloc(b->p, b->cap);
		b->oom = !b->p;
	}
}

#define CC_DMA_DESC \
	"{\"op\": \"copy\", \"from\": \"in\", \"from_dtype\": \"float32\"," \
	" \"from_off\": 0, \"from_sizes\": [128, 1], \"from_steps\": [1, 128]," \
	" \"to\": \"SB\", \"to_dtype\": \"float32\", \"to_off\": 0," \
	" \"to_sizes\": [128, 1], \"to_steps\": [1, 262144]," \
	" \"num_tiling_dimensions\": 1}"

/*
 * A trn1 NEFF writer (neff.json, kelf, sg00/def.json, sg00/SP.json) whose
 * subgraph has a large DMA program: one queue qSPIO0 with a semaphore set
 * of @nsems semaphores in descending order (no run from its first entry),
 * and @nblocks blocks of @ndescs identical descriptors each (128 bytes of
 * the input "in" into SBUF partition 0), block k on semaphore
 * (k * 7919) mod @nsems.  *@json_bytes: the bytes of sg00/SP.json.
 * make bench's bench/gen_dma writes these too.  NULL on ENOMEM.
 */
static inline struct nscc_neff_writer *cc_dma_writer(uint32_t nsems,
						     uint32_t nblocks,
						     uint32_t ndescs,
						     size_t *json_bytes)
{
	struct cc_buf def = { 0 }, sp = { 0 };
	struct nscc_neff_writer *w;
	uint32_t k, j;
	int bad;

	cc_put(&def, "{\"var\": {" CC_SB ", \"in\": {\"type\": \"input\","
	       " \"var_id\": 1, \"size\": 4096}}, \"dma_queue\": {\"qSPIO0\":"
	       " {\"type\": \"in\", \"owner\": \"sp\", \"num_queues\": 16,"
	       " \"semaphore_set\": [");
	for (k = 0; k < nsems; k++)
		cc_put(&def, "%s%u", k ? ", " : "", nsems - 1 - k);
	cc_put(&def, "]}}, \"sp\": \"SP.json\"}");
	cc_put(&sp, "{\"name\": \"sp\", \"dma\": [");
	for (k = 0; k < nblocks; k++) {
		cc_put(&sp, "%s{\"#comment\": \"b%u\", \"id\": %u, \"queue\": \"qSPIO0\","
		       " \"semaphore\": %u, \"desc\": [", k ? ",\n" : "", k, k,
		       (uint32_t)(((uint64_t)k * 7919) % nsems));
		for (j = 0; j < ndescs; j++)
			cc_put(&sp, "%s" CC_DMA_DESC, j ? ", " : "");
		cc_put(&sp, "]}");
	}
	cc_put(&sp, "]}");
	w = def.oom || sp.oom ? NULL : nscc_neff_writer_new();
	bad = !w || nscc_neff_writer_add_str(w, "neff.json", CC_NEFF_JSON) ||
	      nscc_neff_writer_add_str(w, "kelf-0.json",
				       "{\"graphs\": [{\"definition\": \"sg00/def.json\","
				       " \"name\": \"sg00\"}], \"version\": \"0.5\","
				       " \"target\": \"sunda\"}") ||
	      nscc_neff_writer_add(w, "sg00/def.json", def.p, def.len) ||
	      nscc_neff_writer_add(w, "sg00/SP.json", sp.p, sp.len);
	*json_bytes = sp.len;
	free(def.p);
	free(sp.p);
	if (bad) {
		nscc_neff_writer_free(w);
		return NULL;
	}
	return w;
}

/*
 * A var of subgraph @sg of @m (nscc_model_add_var()) with its size given:
 * the model API tests' usual var.  NULL when it cannot be added.
 */
static inline struct nscc_var *cc_sized_var(struct nscc_model *m, int sg,
					    const char *name, uint32_t var_id,
					    uint32_t mr_type, uint64_t size)
{
	struct nscc_var *v = nscc_model_add_var(m, sg, name, var_id, mr_type);

	if (v) {
		v->has_size = 1;
		v->size = size;
	}
	return v;
}

/*
 * Compile @m, which must be refused with -EINVAL and no plan: the
 * refusal's message; else a text saying what the compile did instead,
 * so that an EXPECT_STREQ() of the message shows it.
 */
static inline const char *cc_model_refusal(struct nscc_model *m,
					   struct nscc_err *err)
{
	void *kbin = NULL;
	size_t len;
	int ret = nscc_compile_model(m, &kbin, &len, err);

	if (ret == -EINVAL && !kbin)
		return err->msg;
	free(kbin);
	snprintf(err->msg, sizeof(err->msg), "(not refused with -EINVAL: %d%s)",
		 ret, kbin ? ", a plan" : "");
	return err->msg;
}

#endif /* CC_TESTUTIL_H */
