// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_kbin_check.c - libFuzzer target for the KBIN plan checker.
 *
 * Each input is checked twice: as given (so the header and checksum
 * rules are exercised) and, when it is long enough to have a header, with
 * its checksum recomputed (so mutations reach the subgraph and record
 * rules).  A plan the checker accepts must also open with kbin_read() and
 * every record's name, list, payload and debug metadata must be readable
 * through the view; ASan and UBSan catch any read outside the input.
 * The seed corpus (valid plans) is written by kbin_seedgen.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kbin_check.h"
#include "kbin_reader.h"
#include "kbin_writer.h"

static void kbin_fuzz_one(const uint8_t *p, size_t n)
{
	struct kbin_check_result res;
	struct kbin_view v;
	unsigned int r;
	uint32_t s, i;

	r = kbin_check_plan(p, n, &res);
	if (r >= KBIN_ERR_CHECK_MAX || r != res.reason ||
	    !memchr(res.msg, '\0', sizeof(res.msg)) || (r && !res.msg[0]))
		abort();
	if (r)
		return;
	if (kbin_read(p, n, &v, &res))
		abort();
	for (s = 0; s < v.num_subgraphs; s++) {
		const struct kbin_mem_ref_set *set = kbin_view_set(&v, s);
		volatile uint8_t sink = 0;

		for (i = 0; i < set->nmem; i++) {
			const struct kbin_mem_ref *rec = &set->mem[i];
			const uint32_t *list = kbin_view_list(&v, rec);
			const uint8_t *pay = kbin_view_payload(&v, rec);
			const struct kbin_debug_tensor_md *md = kbin_view_md(&v, rec);
			const char *name = kbin_view_str(&v, rec->name);

			if (!name || !name[0])
				abort();
			if (list)
				sink ^= (uint8_t)list[rec->list.length - 1];
			if (pay)
				sink ^= pay[rec->size - 1];
			if (md)
				sink ^= (uint8_t)md->pipe_id;
		}
		(void)sink;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* an exact-size, 8-byte aligned copy so ASan sees every overread */
	uint8_t *p = malloc(size ? size : 1);

	if (!p)
		return 0;
	memcpy(p, data, size);
	kbin_fuzz_one(p, size);
	if (size >= sizeof(struct kbin_header)) {
		kbin_fix_checksum(p, size);
		kbin_fuzz_one(p, size);
	}
	free(p);
	return 0;
}
