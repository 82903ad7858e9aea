// SPDX-License-Identifier: GPL-2.0
/*
 * resolve_bench - the module's resolve hot path (kmod/plan/resolve_core.h,
 * compiled here unchanged) over random lookups, for callgrind.
 *
 *   resolve_bench [NVARS [LOOKUPS]]     (default 1000000 1000000)
 *
 * Builds one subgraph's table the way the module does (stage.c, resolve.c):
 * NVARS kernel mem_refs with dense var_ids, a bucket array of the smallest
 * power of two >= NVARS, inserted in var_id order.  Then LOOKUPS random
 * (var_id, offset, size) triples, drawn before the timed part, go through
 *
 *   bench_resolve()   a noinline wrapper around nrsim_rc_resolve(): the
 *                     lookup + bounds + add the module inlines into
 *                     RESOLVE and RESOLVE_BATCH;
 *   bench_empty()     the same loop shape with a noinline function that
 *                     only returns, for the loop-subtraction cross-check.
 *
 * scripts/bench.sh runs it under valgrind --tool=callgrind and reads the
 * inclusive instruction count of bench_resolve (per call) and the
 * difference of the two loops.  Every result is checked against the
 * expected address; a mismatch fails the run (exit 1).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "resolve_core.h"
#include "tl_rng.h"

#define BASE_PA		0x1000000000ULL	/* HBM channel 0 */
#define VAR_SIZE	4096ULL

struct query {
	u32 var_id;
	u32 size;
	u64 offset;
};

__attribute__((noinline))
int bench_resolve(const struct hlist_head *b, u32 bits, u32 var_id,
		  u64 offset, u64 size, u64 *addr)
{
	return nrsim_rc_resolve(b, bits, var_id, offset, size, addr);
}

__attribute__((noinline))
int bench_empty(const struct hlist_head *b, u32 bits, u32 var_id,
		u64 offset, u64 size, u64 *addr)
{
	(void)b;
	(void)bits;
	(void)var_id;
	(void)offset;
	(void)size;
	(void)addr;
	__asm__ volatile("" ::: "memory");
	return 0;
}

typedef int (*resolve_fn)(const struct hlist_head *, u32, u32, u64, u64,
			  u64 *);

__attribute__((noinline))
static u64 run_loop(resolve_fn fn, const struct hlist_head *b, u32 bits,
		    const struct query *q, unsigned long n, unsigned long *bad)
{
	u64 sum = 0, addr;
	unsigned long i;

	for (i = 0; i < n; i++) {
		addr = 0;
		if (fn(b, bits, q[i].var_id, q[i].offset, q[i].size, &addr))
			(*bad)++;
		sum += addr;
	}
	return sum;
}

__attribute__((noinline))
u64 loop_resolve(const struct hlist_head *b, u32 bits, const struct query *q,
		 unsigned long n, unsigned long *bad)
{
	return run_loop(bench_resolve, b, bits, q, n, bad);
}

__attribute__((noinline))
u64 loop_empty(const struct hlist_head *b, u32 bits, const struct query *q,
	       unsigned long n, unsigned long *bad)
{
	return run_loop(bench_empty, b, bits, q, n, bad);
}

static uint64_t rng_state = TL_RNG_SEED;

static u64 rng(void)
{
	return tl_rng(&rng_state);
}

int main(int argc, char **argv)
{
	unsigned long nvars = argc > 1 ? strtoul(argv[1], NULL, 0) : 1000000;
	unsigned long nq = argc > 2 ? strtoul(argv[2], NULL, 0) : 1000000;
	unsigned long i, bad = 0, empty_bad = 0, used = 0, maxlen = 0, probes = 0;
	struct hlist_head *buckets;
	struct query *q;
	struct nrsim_mr *mrs;
	u64 sum, want = 0;
	u32 bits = 0, nb;

	if (!nvars || nvars > (1UL << 30) || !nq) {
		fprintf(stderr, "usage: resolve_bench [NVARS [LOOKUPS]]\n");
		return 2;
	}
	/* nrsim_sg_hash_init(): smallest power of two >= nmem */
	while ((1UL << bits) < nvars)
		bits++;
	nb = 1U << bits;
	buckets = calloc(nb, sizeof(*buckets));
	mrs = calloc(nvars, sizeof(*mrs));
	q = calloc(nq, sizeof(*q));
	if (!buckets || !mrs || !q) {
		fprintf(stderr, "resolve_bench: out of memory\n");
		return 1;
	}
	for (i = 0; i < nb; i++)
		INIT_HLIST_HEAD(&buckets[i]);
	for (i = 0; i < nvars; i++) {
		mrs[i].var_id = i;
		mrs[i].type = KBIN_MR_BUFFER;
		mrs[i].size = VAR_SIZE;
		mrs[i].pa = BASE_PA + i * VAR_SIZE;
		nrsim_rc_insert(buckets, bits, &mrs[i]);
	}
	for (i = 0; i < nb; i++) {
		unsigned long len = 0;
		struct hlist_node *n;

		for (n = buckets[i].first; n; n = n->next)
			probes += ++len;
		used += len > 0;
		if (len > maxlen)
			maxlen = len;
	}
	for (i = 0; i < nq; i++) {
		u64 r = rng();

		q[i].var_id = (u32)(r % nvars);
		q[i].offset = (r >> 32) % (VAR_SIZE / 2);
		q[i].size = 1 + (u32)((r >> 48) % (VAR_SIZE / 2));
		want += BASE_PA + q[i].var_id * VAR_SIZE + q[i].offset;
	}

	sum = loop_resolve(buckets, bits, q, nq, &bad);
	loop_empty(buckets, bits, q, nq, &empty_bad);

	printf("vars %lu\nlookups %lu\nbuckets %u\nbytes_per_var_hot %.2f\n",
	       nvars, nq, nb,
	       (double)sizeof(struct nrsim_mr) +
	       (double)nb * sizeof(struct hlist_head) / nvars);
	printf("buckets_used %lu\nmax_chain %lu\navg_probes_hit %.3f\n", used,
	       maxlen, (double)probes / nvars);
	printf("failed %lu\nchecksum %s\n", bad, sum == want ? "ok" : "BAD");
	/* the unknown var, out of bounds and overflow paths, once each */
	{
		u64 a = 0;

		if (nrsim_rc_resolve(buckets, bits, nvars, 0, 1, &a) != -ENOENT ||
		    nrsim_rc_resolve(buckets, bits, 0, VAR_SIZE, 1, &a) != -ERANGE ||
		    nrsim_rc_resolve(buckets, bits, 0, ~0ULL, 2, &a) != -ERANGE) {
			printf("errors BAD\n");
			return 1;
		}
	}
	free(q);
	free(mrs);
	free(buckets);
	return bad || sum != want ? 1 : 0;
}
