// SPDX-License-Identifier: GPL-2.0
/*
 * gen_dma - write a synthetic trn1 NEFF with a large DMA program, for
 * the compiler's scale rows of make bench (Documentation/performance.rst):
 *
 *   gen_dma NSEMS NBLOCKS NDESCS OUT.neff
 *
 * One queue qSPIO0 whose semaphore_set holds NSEMS semaphores in
 * descending order, NBLOCKS blocks of NDESCS identical descriptors each
 * (cc_dma_writer(), userspace/tests/cc_testutil.h, which the host tests
 * use too).  A million descriptors make a NEFF of about 1 MB whose
 * sg00/SP.json is 241 MB.  Exit status 0, 1 on an error, 2 for usage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc_testutil.h"

int main(int argc, char **argv)
{
	struct nscc_neff_opts o = { .name = "gen_dma.neff" };
	struct nscc_neff_writer *w;
	unsigned long v[3];
	size_t len, json;
	void *neff;
	int k, ret;

	if (argc != 5) {
		fprintf(stderr, "usage: gen_dma NSEMS NBLOCKS NDESCS OUT.neff\n");
		return 2;
	}
	for (k = 0; k < 3; k++) {
		v[k] = strtoul(argv[k + 1], NULL, 0);
		if (!v[k] || v[k] > UINT32_MAX) {
			fprintf(stderr, "usage: gen_dma NSEMS NBLOCKS NDESCS OUT.neff\n");
			return 2;
		}
	}
	w = cc_dma_writer((uint32_t)v[0], (uint32_t)v[1], (uint32_t)v[2], &json);
	if (!w) {
		fprintf(stderr, "gen_dma: out of memory\n");
		return 1;
	}
	ret = nscc_neff_writer_finish(w, &o, &neff, &len);
	nscc_neff_writer_free(w);
	if (!ret)
		ret = nscc_write_file(argv[4], neff, len);
	if (ret) {
		fprintf(stderr, "gen_dma: %s: %s\n", argv[4], strerror(-ret));
		return 1;
	}
	free(neff);
	printf("%s: %zu bytes, %lu semaphores, %lu blocks, %lu descriptors, sg00/SP.json %zu bytes\n",
	       argv[4], len, v[0], v[1], v[1] * v[2], json);
	return 0;
}
