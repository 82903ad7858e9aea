// SPDX-License-Identifier: GPL-2.0
/*
 * plan_test.c - the tables of kmod/plan (Documentation/hardware.rst)
 * against the facts written out again here, and the shared resolve rule:
 *   - the generation table: numbers, names and aliases, arch levels,
 *     geometry, which generations a plan may target, the lookups;
 *   - the kind table: names, def.json types both ways, storage, payload,
 *     union variant, usage category, placement, size rule, build class;
 *   - the name tables and their "unknown" texts;
 *   - nsim_rc_rule(), the rule the neuronsim command applies, equal to
 *     the module's nsim_rc_addr() and to the rule as documented, the
 *     MR_SB gap past each SBUF partition included.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "kselftest_harness.h"
#include "kbin_gen.h"
#include "kbin_kind.h"
#include "kbin_names.h"
#include "resolve_core.h"

#define KIB	1024ULL
#define MIB	(1024 * KIB)
#define GIB	(1024 * MIB)

static const struct {
	unsigned int gen;
	const char *name;
	const char *aliases[3];
	unsigned int level, cores, channels;
	unsigned long long channel_bytes;
	unsigned int partition_bytes;
	unsigned long long psum, window;
	int target, carveout;
} want_gens[] = {
	{ 1, "inf1", { NULL }, 10, 4, 2, 4 * GIB, 96 * KIB, 512 * KIB, 0, 0, 0 },
	{ 2, "trn1", { "sunda", "inf2", "v2" }, 20, 2, 2, 16 * GIB, 196608,
	  2 * MIB, 0x2000000, 1, 0 },
	{ 3, "trn2", { "cayman", "v3" }, 30, 8, 4, 24 * GIB, 229376,
	  2 * MIB, 0x2000000, 1, 1 },
	{ 4, "trn3", { "mariana", "v4" }, 40, 8, 4, 36 * GIB, 262144,
	  2 * MIB, 0x2000000, 1, 0 },
};

#define NGENS	(sizeof(want_gens) / sizeof(want_gens[0]))

TEST(generations)
{
	unsigned int i, k;

	ASSERT_EQ(NGENS, kbin_num_gens);
	for (i = 0; i < NGENS; i++) {
		const struct kbin_gen *g = kbin_gen_by_number(want_gens[i].gen);

		ASSERT_NE(NULL, g) TH_LOG("generation %u", want_gens[i].gen);
		EXPECT_EQ(&kbin_gens[i], g);
		EXPECT_STREQ(want_gens[i].name, g->name);
		EXPECT_EQ(want_gens[i].level, g->arch_level);
		EXPECT_EQ(want_gens[i].cores, g->num_cores);
		EXPECT_EQ(want_gens[i].channels, g->num_hbm_channels);
		EXPECT_EQ(want_gens[i].channel_bytes, g->hbm_channel_size);
		EXPECT_EQ(128, g->sbuf_partitions);
		EXPECT_EQ(want_gens[i].partition_bytes, g->sbuf_partition_size)
			TH_LOG("%s", g->name);
		EXPECT_EQ(128ULL * want_gens[i].partition_bytes, kbin_gen_sbuf_bytes(g));
		EXPECT_EQ(want_gens[i].psum, g->psum_size);
		EXPECT_EQ(want_gens[i].window, g->sbuf_window_size);
		EXPECT_EQ(want_gens[i].window / 128, g->sbuf_partition_stride);
		/* the resolve rule's gap test needs a power-of-two stride */
		EXPECT_EQ(0, g->sbuf_partition_stride & (g->sbuf_partition_stride - 1));
		if (g->loadable)	/* a partition fits its stride */
			EXPECT_LE(g->sbuf_partition_size, g->sbuf_partition_stride);
		EXPECT_EQ(want_gens[i].target, g->loadable);
		EXPECT_EQ(want_gens[i].carveout, g->carveout_required);
		if (g->loadable)	/* the SBUF fits its window */
			EXPECT_LE(kbin_gen_sbuf_bytes(g), g->sbuf_window_size);
		EXPECT_EQ(g, kbin_gen_by_name(want_gens[i].name));
		EXPECT_EQ(want_gens[i].target ? g : NULL, kbin_gen_target(want_gens[i].gen));
		EXPECT_EQ(want_gens[i].target ? g : NULL,
			  kbin_gen_target_by_name(want_gens[i].name));
		for (k = 0; k < 3 && want_gens[i].aliases[k]; k++) {
			EXPECT_EQ(g, kbin_gen_by_name(want_gens[i].aliases[k]))
				TH_LOG("alias %s", want_gens[i].aliases[k]);
			EXPECT_EQ(g, kbin_gen_target_by_name(want_gens[i].aliases[k]));
		}
		for (; k < KBIN_GEN_ALIASES; k++)
			EXPECT_EQ(NULL, g->aliases[k]);
	}
	EXPECT_EQ(KBIN_TARGET_TRN1, kbin_gen_target_by_name("sunda")->gen);
	EXPECT_EQ(KBIN_TARGET_TRN2, kbin_gen_target_by_name("cayman")->gen);
	EXPECT_EQ(KBIN_TARGET_TRN3, kbin_gen_target_by_name("mariana")->gen);
	EXPECT_EQ(NULL, kbin_gen_by_number(0));
	EXPECT_EQ(NULL, kbin_gen_by_number(5));
	EXPECT_EQ(NULL, kbin_gen_target(1));
	EXPECT_EQ(NULL, kbin_gen_target(0));
	EXPECT_EQ(NULL, kbin_gen_by_name("trn9"));
	EXPECT_EQ(NULL, kbin_gen_by_name(""));
	EXPECT_EQ(NULL, kbin_gen_by_name("TRN2"));
	EXPECT_EQ(NULL, kbin_gen_target_by_name("inf1"));
}

static const struct {
	unsigned int t;
	const char *name, *def;
	unsigned int storage, payload, variant, usage, place, size, build;
	int owns;
} want_kinds[] = {
	{ KBIN_MR_INVALID, "MR_INVALID", NULL, KBIN_STORAGE_NONE,
	  KBIN_PAYLOAD_NONE, KBIN_VARIANT_NONE, KBIN_USAGE_GENERIC,
	  KBIN_PLACE_LOADER, KBIN_SIZE_NONE, KBIN_BUILD_NONE, 0 },
	{ KBIN_MR_SB, "MR_SB", "state-buffer", KBIN_STORAGE_SBUF,
	  KBIN_PAYLOAD_NONE, KBIN_VARIANT_NONE, KBIN_USAGE_GENERIC,
	  KBIN_PLACE_LOADER, KBIN_SIZE_SBUF, KBIN_BUILD_SP, 1 },
	{ KBIN_MR_BUFFER_STAGED, "MR_BUFFER_STAGED", NULL, KBIN_STORAGE_HBM,
	  KBIN_PAYLOAD_REQUIRED, KBIN_VARIANT_NONE, KBIN_USAGE_WEIGHT,
	  KBIN_PLACE_LOADER, KBIN_SIZE_VAR, KBIN_BUILD_BUFFER, 1 },
	{ KBIN_MR_BUFFER, "MR_BUFFER", "file", KBIN_STORAGE_HBM,
	  KBIN_PAYLOAD_OPTIONAL, KBIN_VARIANT_NONE, KBIN_USAGE_WEIGHT,
	  KBIN_PLACE_LOADER, KBIN_SIZE_VAR, KBIN_BUILD_BUFFER, 1 },
	{ KBIN_MR_TMP_BUF, "MR_TMP_BUF", "tmp-buf", KBIN_STORAGE_HBM,
	  KBIN_PAYLOAD_NONE, KBIN_VARIANT_NONE, KBIN_USAGE_SCRATCHPAD_NOT_SHARED,
	  KBIN_PLACE_LOCAL_SP, KBIN_SIZE_VAR, KBIN_BUILD_TMP_BUF, 1 },
	{ KBIN_MR_INPUT, "MR_INPUT", "input", KBIN_STORAGE_HBM,
	  KBIN_PAYLOAD_NONE, KBIN_VARIANT_NONE, KBIN_USAGE_IO,
	  KBIN_PLACE_LOADER, KBIN_SIZE_VAR, KBIN_BUILD_IO, 1 },
	{ KBIN_MR_OUTPUT, "MR_OUTPUT", "output", KBIN_STORAGE_HBM,
	  KBIN_PAYLOAD_NONE, KBIN_VARIANT_NONE, KBIN_USAGE_IO,
	  KBIN_PLACE_LOADER, KBIN_SIZE_VAR, KBIN_BUILD_IO, 1 },
	{ KBIN_MR_PTR, "MR_PTR", "pointer", KBIN_STORAGE_TARGET,
	  KBIN_PAYLOAD_NONE, KBIN_VARIANT_POINTER, KBIN_USAGE_GENERIC,
	  KBIN_PLACE_LOADER, KBIN_SIZE_ADDRESS, KBIN_BUILD_POINTER, 0 },
	{ KBIN_MR_VIRTUAL_TMP_BUF, "MR_VIRTUAL_TMP_BUF", "virtual",
	  KBIN_STORAGE_SCRATCHPAD, KBIN_PAYLOAD_NONE, KBIN_VARIANT_VIRT,
	  KBIN_USAGE_SCRATCHPAD_NOT_SHARED, KBIN_PLACE_BACKING_SP,
	  KBIN_SIZE_VAR, KBIN_BUILD_VIRTUAL_TMP_BUF, 1 },
	{ KBIN_MR_LIST, "MR_LIST", "list", KBIN_STORAGE_INDEX,
	  KBIN_PAYLOAD_NONE, KBIN_VARIANT_LIST, KBIN_USAGE_GENERIC,
	  KBIN_PLACE_LOADER, KBIN_SIZE_LIST, KBIN_BUILD_LIST, 0 },
	{ KBIN_MR_PTR_TABLE, "MR_PTR_TABLE", "dge-table", KBIN_STORAGE_TABLE,
	  KBIN_PAYLOAD_NONE, KBIN_VARIANT_LIST, KBIN_USAGE_GENERIC,
	  KBIN_PLACE_LOADER, KBIN_SIZE_LIST, KBIN_BUILD_PTR_TABLE, 0 },
	{ KBIN_MR_REMOTE, "MR_REMOTE", "remote", KBIN_STORAGE_REMOTE,
	  KBIN_PAYLOAD_NONE, KBIN_VARIANT_REMOTE, KBIN_USAGE_GENERIC,
	  KBIN_PLACE_LOADER, KBIN_SIZE_OPTIONAL, KBIN_BUILD_REMOTE_VARIABLE, 0 },
};

TEST(kinds)
{
	unsigned int i;

	ASSERT_EQ(KBIN_MR_TYPE_MAX + 1, sizeof(want_kinds) / sizeof(want_kinds[0]));
	for (i = 0; i <= KBIN_MR_TYPE_MAX; i++) {
		const struct kbin_kind *k = kbin_kind(want_kinds[i].t);

		EXPECT_EQ(&kbin_kinds[want_kinds[i].t], k);
		EXPECT_STREQ(want_kinds[i].name, k->name);
		EXPECT_STREQ(want_kinds[i].name, kbin_mr_type_str(want_kinds[i].t));
		if (want_kinds[i].def) {
			EXPECT_STREQ(want_kinds[i].def, k->def_type);
			EXPECT_EQ(want_kinds[i].t, kbin_mr_type_from_def(want_kinds[i].def));
		} else {
			EXPECT_EQ(NULL, k->def_type) TH_LOG("%s", k->name);
		}
		EXPECT_EQ(want_kinds[i].storage, k->storage) TH_LOG("%s", k->name);
		EXPECT_EQ(want_kinds[i].payload, k->payload) TH_LOG("%s", k->name);
		EXPECT_EQ(want_kinds[i].variant, k->variant) TH_LOG("%s", k->name);
		EXPECT_EQ(want_kinds[i].usage, k->usage) TH_LOG("%s", k->name);
		EXPECT_EQ(want_kinds[i].place, k->placement) TH_LOG("%s", k->name);
		EXPECT_EQ(want_kinds[i].size, k->size) TH_LOG("%s", k->name);
		EXPECT_EQ(want_kinds[i].build, k->build) TH_LOG("%s", k->name);
		EXPECT_EQ(want_kinds[i].owns, kbin_kind_has_storage(want_kinds[i].t))
			TH_LOG("%s", k->name);
		EXPECT_EQ(want_kinds[i].t != KBIN_MR_INVALID, kbin_kind_valid(want_kinds[i].t));
	}
	/* values outside the enum read as MR_INVALID, never past the table */
	EXPECT_EQ(&kbin_kinds[KBIN_MR_INVALID], kbin_kind(KBIN_MR_TYPE_MAX + 1));
	EXPECT_EQ(&kbin_kinds[KBIN_MR_INVALID], kbin_kind(~0U));
	EXPECT_FALSE(kbin_kind_valid(KBIN_MR_TYPE_MAX + 1));
	EXPECT_FALSE(kbin_kind_has_storage(~0U));
	EXPECT_EQ(KBIN_MR_INVALID, kbin_mr_type_from_def("tmp_buf"));
	EXPECT_EQ(KBIN_MR_INVALID, kbin_mr_type_from_def(""));
	EXPECT_EQ(8, KBIN_ADDRESS_SIZE);
}

TEST(names)
{
	static const char *const modes[] = {
		"-", "alloc+copy", "alloc only", "sbuf window", "scratchpad",
		"pointer", "index list", "ptr table", "remote",
	};
	static const char *const backing[] = {
		"local", "shared", "sharded", "main",
	};
	unsigned int i;

	ASSERT_EQ(KBIN_MODE_MAX, sizeof(modes) / sizeof(modes[0]));
	for (i = 0; i < KBIN_MODE_MAX; i++)
		EXPECT_STREQ(modes[i], kbin_stage_mode_str(i));
	EXPECT_STREQ("unknown", kbin_stage_mode_str(KBIN_MODE_MAX));
	for (i = 0; i <= KBIN_BACKING_BUF_MAX; i++)
		EXPECT_STREQ(backing[i], kbin_backing_buf_str(i));
	EXPECT_STREQ("unknown", kbin_backing_buf_str(KBIN_BACKING_BUF_MAX + 1));
	EXPECT_STREQ("GENERIC", kbin_usage_str(KBIN_USAGE_GENERIC));
	EXPECT_STREQ("IO", kbin_usage_str(4));
	EXPECT_STREQ("WEIGHT", kbin_usage_str(6));
	EXPECT_STREQ("SCRATCHPAD", kbin_usage_str(11));
	EXPECT_STREQ("SCRATCHPAD_NOT_SHARED", kbin_usage_str(16));
	EXPECT_STREQ("DMA_RING", kbin_usage_str(18));
	for (i = 0; i <= 18; i++)
		EXPECT_STRNE("UNKNOWN", kbin_usage_str(i)) TH_LOG("usage %u", i);
	EXPECT_STREQ("UNKNOWN", kbin_usage_str(19));
	EXPECT_STREQ("UNKNOWN", kbin_usage_str(KBIN_USAGE_MAX + 1));
	EXPECT_STREQ("evtaccel", kbin_carveout_type_str(KBIN_CARVEOUT_EVTACCEL));
	EXPECT_STREQ("unknown", kbin_carveout_type_str(0));
	EXPECT_STREQ("MR_UNKNOWN", kbin_mr_type_str(KBIN_MR_TYPE_MAX + 1));
	EXPECT_STREQ("HBM exhausted", kbin_reason_str(KBIN_ERR_STAGE_HBM));
	EXPECT_STREQ("SBUF placement conflict", kbin_reason_str(KBIN_ERR_STAGE_SBUF));
	EXPECT_STREQ("unknown reason", kbin_reason_str(KBIN_ERR_STAGE_HBM - 1));
	EXPECT_STREQ("unknown reason", kbin_reason_str(KBIN_ERR_STAGE_SBUF + 1));
	EXPECT_STREQ("valid", kbin_reason_str(KBIN_OK));
	EXPECT_STREQ("target_gen", kbin_field_str(KBIN_FIELD_TARGET_GEN));
}

/*
 * The SBUF gap as Documentation/hardware.rst states it, written out
 * again: byte b of partition p is at p * stride + b; an access touches
 * the gap when its first byte is not a partition byte, or its last byte
 * is in another stride or not a partition byte.
 */
static int doc_gap(__u64 part, __u64 stride, __u64 off, __u64 size)
{
	__u64 last = off + size - 1;

	if (part >= stride)
		return 0;
	if (off % stride >= part)
		return 1;
	return size && (last / stride != off / stride || last % stride >= part);
}

/* the rule as Documentation/uapi.rst states it, written out again */
static int doc_rule(__u32 type, __u64 var_size, __u64 pa, __u64 part,
		    __u64 stride, __u64 off, __u64 size, __u64 *addr)
{
	if (off + size < off || var_size < off + size)
		return -ERANGE;
	if (type == KBIN_MR_SB && doc_gap(part, stride, off, size))
		return -ERANGE;
	if (type == KBIN_MR_PTR) {
		if (off)
			return -EINVAL;
		*addr = pa;
		return 0;
	}
	if (pa == ~0ULL)
		return -ENODATA;
	*addr = off + pa;
	return 0;
}

#define TRN2_PART	229376U
#define STRIDE		262144U

TEST(resolve_rule)
{
	static const __u64 vals[] = {
		0, 1, 7, 8, 9, 4095, 4096, 0x1000000000ULL,
		0x7fffffffffffffffULL, ~0ULL - 1, ~0ULL,
		229375, 229376, 262143, 262144, 32ULL << 20,
	};
	static const __u32 types[] = {
		KBIN_MR_BUFFER, KBIN_MR_PTR, KBIN_MR_LIST, KBIN_MR_SB,
		KBIN_MR_REMOTE,
	};
	/* SBUF geometry: trn1, trn2 (gaps), trn3 (none), none given */
	static const __u32 geo[][2] = {
		{ 196608, STRIDE }, { TRN2_PART, STRIDE }, { STRIDE, STRIDE },
		{ 0, 0 },
	};
	const size_t nv = sizeof(vals) / sizeof(vals[0]);
	__u64 a = 0x1234;
	size_t t, i, j, k, p, g;

	EXPECT_EQ(0, nsim_rc_rule(KBIN_MR_BUFFER, 64, 0x1000000000ULL, 0, 0, 16, 48, &a));
	EXPECT_EQ(0x1000000010ULL, a);
	EXPECT_EQ(-ERANGE, nsim_rc_rule(KBIN_MR_BUFFER, 64, 0x1000, 0, 0, 16, 49, &a));
	EXPECT_EQ(-ERANGE, nsim_rc_rule(KBIN_MR_BUFFER, ~0ULL, 0x1000, 0, 0, 2, ~0ULL, &a));
	EXPECT_EQ(-EINVAL, nsim_rc_rule(KBIN_MR_PTR, 8, 0x1000, 0, 0, 1, 0, &a));
	EXPECT_EQ(0, nsim_rc_rule(KBIN_MR_PTR, 8, 0x2000, 0, 0, 0, 8, &a));
	EXPECT_EQ(0x2000, a);
	EXPECT_EQ(-ENODATA, nsim_rc_rule(KBIN_MR_LIST, 12, NSIM_PA_UNSTAGED, 0, 0, 0, 4, &a));
	/* out of bounds is reported before the MR_PTR and unstaged tests */
	EXPECT_EQ(-ERANGE, nsim_rc_rule(KBIN_MR_PTR, 8, 0x2000, 0, 0, 1, 8, &a));
	EXPECT_EQ(-ERANGE, nsim_rc_rule(KBIN_MR_LIST, 12, NSIM_PA_UNSTAGED, 0, 0, 0, 13, &a));

	/* trn2 MR_SB, the 32 MiB window: the last byte of partition 127 ... */
	EXPECT_EQ(0, nsim_rc_rule(KBIN_MR_SB, 32 << 20, 0x100000000ULL, TRN2_PART,
				  STRIDE, 127ULL * STRIDE + 229375, 1, &a));
	EXPECT_EQ(0x100000000ULL + 127ULL * STRIDE + 229375, a);
	/* ... and the first byte of its gap, alone or reached by a run */
	EXPECT_EQ(-ERANGE, nsim_rc_rule(KBIN_MR_SB, 32 << 20, 0x100000000ULL, TRN2_PART,
					STRIDE, 127ULL * STRIDE + 229376, 1, &a));
	EXPECT_EQ(-ERANGE, nsim_rc_rule(KBIN_MR_SB, 32 << 20, 0x100000000ULL, TRN2_PART,
					STRIDE, 127ULL * STRIDE + 229375, 2, &a));
	EXPECT_EQ(-ERANGE, nsim_rc_rule(KBIN_MR_SB, 32 << 20, 0x100000000ULL, TRN2_PART,
					STRIDE, 127ULL * STRIDE + 229376, 0, &a));
	/* a whole partition; the next one starts a stride later */
	EXPECT_EQ(0, nsim_rc_rule(KBIN_MR_SB, 32 << 20, 0x100000000ULL, TRN2_PART,
				  STRIDE, 5ULL * STRIDE, TRN2_PART, &a));
	EXPECT_EQ(-ERANGE, nsim_rc_rule(KBIN_MR_SB, 32 << 20, 0x100000000ULL, TRN2_PART,
					STRIDE, 5ULL * STRIDE, TRN2_PART + 1, &a));
	/* the gap is MR_SB's: the same numbers on an HBM var resolve */
	EXPECT_EQ(0, nsim_rc_rule(KBIN_MR_BUFFER, 32 << 20, 0x1000000000ULL, TRN2_PART,
				  STRIDE, 127ULL * STRIDE + 229376, 1, &a));
	/* trn3's partitions fill their strides: no gap */
	EXPECT_EQ(0, nsim_rc_rule(KBIN_MR_SB, 32 << 20, 0x100000000ULL, STRIDE, STRIDE,
				  5ULL * STRIDE + 229376, 2 * STRIDE, &a));

	/*
	 * every combination: the documented rule, nsim_rc_addr() on a mem_ref
	 * given its geometry as staging does, nsim_rc_rule()
	 */
	for (g = 0; g < sizeof(geo) / sizeof(geo[0]); g++)
		for (t = 0; t < sizeof(types) / sizeof(types[0]); t++)
			for (i = 0; i < nv; i++)
				for (j = 0; j < nv; j++)
					for (k = 0; k < nv; k++)
						for (p = 0; p < nv; p += 3) {
							struct nsim_mr mr = {
								.size = vals[i], .pa = vals[p],
								.type = types[t],
							};
							__u64 want = 1, got = 2, via = 3;
							int w = doc_rule(types[t], vals[i], vals[p],
									 geo[g][0], geo[g][1],
									 vals[j], vals[k], &want);

							if (types[t] == KBIN_MR_SB)
								nsim_rc_sbuf_init(&mr, geo[g][0],
										  geo[g][1]);
							ASSERT_EQ(w, nsim_rc_rule(types[t], vals[i],
										  vals[p], geo[g][0],
										  geo[g][1], vals[j],
										  vals[k], &got));
							ASSERT_EQ(w, nsim_rc_addr(&mr, vals[j],
										  vals[k], &via));
							if (!w) {
								ASSERT_EQ(want, got);
								ASSERT_EQ(want, via);
							}
						}
}

TEST_HARNESS_MAIN
