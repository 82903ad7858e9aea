// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_kbin_check.c - libFuzzer target for the KBIN plan checker.
 *
 * Each input is checked twice: as given (so the header and checksum
 * rules are exercised) and, when it is long enough to have a header, with
 * its checksum recomputed (so mutations reach the subgraph and record
 * rules).  A plan the checker accepts must also open with kbin_read() and
 * every record's name, list, payload and debug metadata must be readable
 * through the view, and every DMA descriptor side walks into UDMA pieces
 * of 1..64 KiB inside its extent, as many as the checker counted, a
 * copy's two sides move as many bytes and a cast's hold as many
 * elements, none split across runs (their shapes may differ), and
 * every transpose has a tile (transpose_element_size x transpose_shape,
 * computed here in 128 bits) that is not 0, fits 64 bits and divides
 * its bytes, and runs through the host reference's transpose; ASan and
 * UBSan catch any read outside the input or the buffers.
 * The seed corpus (valid plans) is written by kbin_seedgen.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dma_ref.h"
#include "fuzz_util.h"
#include "kbin_check.h"
#include "kbin_dma.h"
#include "kbin_reader.h"
#include "kbin_writer.h"

/*
 * Walk the pieces of every accepted descriptor side (up to a budget per
 * input): each piece is 1..64 KiB inside [offset, extent), a fully walked
 * side has as many pieces as kbin_dma_pattern() counted, and the totals
 * are the checker's.
 */
static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a + b < a ? ~0ULL : a + b;
}

/*
 * An accepted transpose, re-verified without the rules' code: its tile in
 * 128-bit arithmetic; then (up to 1 MiB) the host reference's permutation
 * over a buffer of exactly its bytes.
 */
static void kbin_fuzz_transpose(const struct kbin_dma_desc *d)
{
	unsigned __int128 tile = d->transpose_elem_size;
	struct kbin_dma_pat pat;
	uint8_t *in, *out;
	unsigned int k;

	for (k = 0; k < 4; k++)
		tile *= d->transpose_shape[k];
	if (kbin_dma_pattern(&d->from, &pat) || !tile || tile >> 64 ||
	    pat.bytes % (uint64_t)tile)
		abort();
	if (pat.bytes > (1U << 20))
		return;
	in = calloc(1, pat.bytes);
	out = malloc(pat.bytes);
	if (in && out && dma_ref_transpose(d, in, out, pat.bytes))
		abort();
	free(in);
	free(out);
}

/* an accepted copy or cast: the byte stream's two ends agree */
static void kbin_fuzz_stream(const struct kbin_dma_desc *d)
{
	const struct kbin_dma_dtype_info *ft = kbin_dma_dtype(d->from.dtype);
	const struct kbin_dma_dtype_info *tt = kbin_dma_dtype(d->to.dtype);
	struct kbin_dma_pat pf, pt;

	if (!ft || !tt || kbin_dma_pattern(&d->from, &pf) ||
	    kbin_dma_pattern(&d->to, &pt))
		abort();
	if (d->op == KBIN_DMA_OP_COPY && pf.bytes != pt.bytes)
		abort();
	if (d->op == KBIN_DMA_OP_CAST &&
	    (d->from.sizes[0] % ft->size || d->to.sizes[0] % tt->size ||
	     pf.bytes / ft->size != pt.bytes / tt->size))
		abort();
}

static void kbin_fuzz_dma(const struct kbin_view *v,
			  const struct kbin_check_result *res)
{
	uint64_t m2s = 0, s2m = 0, budget = 1 << 16;
	uint32_t s, i, side;

	for (s = 0; s < v->num_subgraphs; s++) {
		struct kbin_dma_sg_view dv;

		if (kbin_view_dma_sg(v, s, &dv))
			abort();
		for (i = 0; i < dv.num_descs; i++) {
			if (dv.descs[i].op == KBIN_DMA_OP_TRANSPOSE)
				kbin_fuzz_transpose(&dv.descs[i]);
			else
				kbin_fuzz_stream(&dv.descs[i]);
			for (side = 0; side < 2; side++) {
				const struct kbin_dma_side *sd = side ? &dv.descs[i].to :
								 &dv.descs[i].from;
				struct kbin_dma_walk w;
				struct kbin_dma_pat pat;
				__u64 off;
				uint64_t k = 0;
				uint32_t len;

				if (kbin_dma_pattern(sd, &pat))
					abort();
				if (side)
					s2m = sat_add(s2m, pat.pieces);
				else
					m2s = sat_add(m2s, pat.pieces);
				kbin_dma_walk_init(&w, sd);
				while (k < budget && kbin_dma_walk_piece(&w, &off, &len)) {
					if (!len || len > KBIN_DMA_PIECE_MAX ||
					    off < sd->offset || off + len > pat.extent)
						abort();
					k++;
				}
				if (k < budget && k != pat.pieces)
					abort();
				budget -= k;
			}
		}
	}
	if (m2s != res->dma_m2s_pieces || s2m != res->dma_s2m_pieces)
		abort();
}

static void kbin_fuzz_one(const uint8_t *p, size_t n)
{
	struct kbin_check_result res;
	struct kbin_view v;
	unsigned int r;
	uint32_t s, i;

	r = kbin_check_plan(p, n, &res);
	if (r >= KBIN_ERR_CHECK_MAX || r != res.err.reason ||
	    !memchr(res.err.msg, '\0', sizeof(res.err.msg)) || (r && !res.err.msg[0]))
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
	kbin_fuzz_dma(&v, &res);
}

/* the input as it is, then with its checksum fixed */
static void fuzz_one(uint8_t *p, size_t n)
{
	kbin_fuzz_one(p, n);
	if (n >= sizeof(struct kbin_header)) {
		kbin_fix_checksum(p, n);
		kbin_fuzz_one(p, n);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_exact_copy(data, size, fuzz_one);
}
