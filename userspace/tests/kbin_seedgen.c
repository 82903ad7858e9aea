// SPDX-License-Identifier: GPL-2.0
/*
 * kbin_seedgen.c - write valid KBIN plans as a libFuzzer seed corpus.
 *
 *   kbin_seedgen DIR           full.kbin, small.kbin, n64.kbin into DIR,
 *                              and transpose-N.kbin: the full plan with
 *                              sg 1's transpose given crafted shape N of
 *                              kbin_bad_transposes (kbin_mutate.h)
 *   kbin_seedgen -small FILE   only the small plan (kbin-format.rst dump)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kbin_mutate.h"
#include "kbin_testplan.h"
#include "tl_compute.h"

static int save(const char *dir, const char *name,
		int (*build)(void **, size_t *))
{
	char path[4096];
	void *buf;
	size_t len;
	FILE *f;
	int err;

	err = build(&buf, &len);
	if (err) {
		fprintf(stderr, "kbin_seedgen: %s: %s\n", name, strerror(-err));
		return 1;
	}
	if (dir)
		snprintf(path, sizeof(path), "%s/%s", dir, name);
	else
		snprintf(path, sizeof(path), "%s", name);
	f = fopen(path, "wb");
	if (!f || fwrite(buf, 1, len, f) != len || fclose(f)) {
		fprintf(stderr, "kbin_seedgen: %s: %s\n", path, strerror(errno));
		free(buf);
		return 1;
	}
	free(buf);
	return 0;
}

static int build_n64(void **buf, size_t *len)
{
	return tp_build_n(64, buf, len);
}

/* the full plan, sg 1's transpose with a crafted shape and element size */
static unsigned int bad_transpose;

static int build_bad_transpose(void **buf, size_t *len)
{
	const struct kbin_bad_transpose *t = &kbin_bad_transposes[bad_transpose];
	struct kbin_dma_desc *d;
	int err = tp_build(buf, len);

	if (err)
		return err;
	d = tp_desc(*buf, 1, 0);
	memcpy(d->transpose_shape, t->shape, sizeof(d->transpose_shape));
	d->transpose_elem_size = t->elem_size;
	d->from.dtype = d->to.dtype = t->elem_size == 2 ? KBIN_DMA_DTYPE_FLOAT16 :
				      KBIN_DMA_DTYPE_FLOAT32;
	kbin_fix_checksum(*buf, *len);
	return 0;
}

/* the test library's compute plan: the compute encoding's records */
static int build_compute(void **buf, size_t *len)
{
	return tl_compute_plan(KBIN_TARGET_TRN2, TLC_OK, buf, len);
}

/* ...with a run-time offset (a dyn COPY) */
static int build_compute_dyn(void **buf, size_t *len)
{
	return tl_compute_plan(KBIN_TARGET_TRN2, TLC_RANGE, buf, len);
}

int main(int argc, char **argv)
{
	char name[64];
	int err;

	if (argc == 3 && !strcmp(argv[1], "-small"))
		return save(NULL, argv[2], tp_build_small);
	if (argc != 2) {
		fprintf(stderr, "usage: kbin_seedgen DIR | -small FILE\n");
		return 2;
	}
	if (mkdir(argv[1], 0755) && errno != EEXIST) {
		fprintf(stderr, "kbin_seedgen: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	err = save(argv[1], "full.kbin", tp_build) |
	      save(argv[1], "small.kbin", tp_build_small) |
	      save(argv[1], "n64.kbin", build_n64) |
	      save(argv[1], "prog.kbin", tp_build_prog) |
	      save(argv[1], "compute.kbin", build_compute) |
	      save(argv[1], "compute-dyn.kbin", build_compute_dyn);
	for (bad_transpose = 0; bad_transpose < kbin_num_bad_transposes;
	     bad_transpose++) {
		snprintf(name, sizeof(name), "transpose-%u.kbin", bad_transpose);
		err |= save(argv[1], name, build_bad_transpose);
	}
	return err;
}
