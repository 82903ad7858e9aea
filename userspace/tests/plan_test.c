// SPDX-License-Identifier: GPL-2.0
/*
 * plan_test.c - the tables of kmod/plan (Documentation/hardware.rst)
 * against the facts written out again here, and the shared resolve rule:
 *   - the generation table: numbers, names and aliases, arch levels,
 *     geometry, which generations a plan may target, the lookups;
 *   - the kind table: names, def.json types both ways, storage, payload,
 *     union variant, usage category, placement, size rule, build class;
 *   - the name tables and their "unknown" texts, the names of the
 *     uapi's states and descriptor sides and flags, the generation lists
 *     of messages;
 *   - nrsim_rc_rule(), the rule the neuronsim command applies, equal to
 *     the module's nrsim_rc_addr() and to the rule as documented, the
 *     MR_SB gap past each SBUF partition included;
 *   - the DMA tables (element types, engines, queue types, ops), the
 *     descriptor rules and the access pattern walker (kbin_dma.h): runs
 *     and pieces against nested loops written out here, the 64 KiB piece
 *     limit, 4-dimension patterns, the SBUF partition, gap and window
 *     rules, overflow refusals.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <linux/neuronsim.h>

#include "kselftest_harness.h"
#include "kbin_dma.h"
#include "kbin_mutate.h"
#include "kbin_gen.h"
#include "kbin_kind.h"
#include "kbin_names.h"
#include "resolve_core.h"
#include "tl_rec.h"

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
	unsigned int psum_banks, psum_partitions;
} want_gens[] = {
	{ 1, "inf1", { NULL }, 10, 4, 2, 4 * GIB, 96 * KIB, 512 * KIB, 0, 0, 0,
	  4, 64 },
	{ 2, "trn1", { "sunda", "inf2", "v2" }, 20, 2, 2, 16 * GIB, 196608,
	  2 * MIB, 0x2000000, 1, 0, 8, 128 },
	{ 3, "trn2", { "cayman", "v3" }, 30, 8, 4, 24 * GIB, 229376,
	  2 * MIB, 0x2000000, 1, 1, 8, 128 },
	{ 4, "trn3", { "mariana", "v4" }, 40, 8, 4, 36 * GIB, 262144,
	  2 * MIB, 0x2000000, 1, 0, 8, 128 },
};

#define NGENS	(sizeof(want_gens) / sizeof(want_gens[0]))

/* the product names, as the Neuron driver's sysfs device_name shows them */
static const char *const want_device_names[NGENS] = {
	"Inferentia", "Trainium1", "Trainium2", "Trainium3",
};

TEST(generations)
{
	unsigned int i, k;

	ASSERT_EQ(NGENS, kbin_num_gens);
	for (i = 0; i < NGENS; i++) {
		const struct kbin_gen *g = kbin_gen_by_number(want_gens[i].gen);

		ASSERT_NE(NULL, g) TH_LOG("generation %u", want_gens[i].gen);
		EXPECT_EQ(&kbin_gens[i], g);
		EXPECT_STREQ(want_gens[i].name, g->name);
		EXPECT_STREQ(want_device_names[i], g->device_name);
		EXPECT_EQ(want_gens[i].level, g->arch_level);
		EXPECT_EQ(want_gens[i].cores, g->num_cores);
		EXPECT_EQ(want_gens[i].channels, g->num_hbm_channels);
		EXPECT_EQ(want_gens[i].channel_bytes, g->hbm_channel_size);
		EXPECT_EQ(128, g->sbuf_partitions);
		EXPECT_EQ(want_gens[i].partition_bytes, g->sbuf_partition_size)
			TH_LOG("%s", g->name);
		EXPECT_EQ(128ULL * want_gens[i].partition_bytes, kbin_gen_sbuf_bytes(g));
		EXPECT_EQ(want_gens[i].psum, g->psum_size);
		/* banks of 2 KiB per partition fill the PSUM exactly */
		EXPECT_EQ(want_gens[i].psum_banks, g->psum_banks);
		EXPECT_EQ(want_gens[i].psum_partitions, kbin_gen_psum_partitions(g));
		EXPECT_EQ(2048U, KBIN_PSUM_BANK_SIZE);
		EXPECT_EQ(g->psum_size, (unsigned long long)g->psum_banks *
			  KBIN_PSUM_BANK_SIZE * kbin_gen_psum_partitions(g));
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
	  KBIN_PLACE_LOADER, KBIN_SIZE_VAR, KBIN_BUILD_TMP_BUF, 1 },
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
	{ KBIN_MR_PSUM, "MR_PSUM", "psum", KBIN_STORAGE_PSUM,
	  KBIN_PAYLOAD_NONE, KBIN_VARIANT_NONE, KBIN_USAGE_GENERIC,
	  KBIN_PLACE_LOADER, KBIN_SIZE_PSUM, KBIN_BUILD_PSUM, 1 },
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
		"pointer", "index list", "ptr table", "remote", "psum window",
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
	EXPECT_STREQ("DMA descriptor outside its variable",
		     kbin_reason_str(KBIN_ERR_RELOC_BOUNDS));
	EXPECT_STREQ("unknown reason", kbin_reason_str(KBIN_ERR_STAGE_LAST + 1));
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

/*
 * Documentation/hardware.rst, "HBM usage categories", written out again:
 * the driver's device-memory categories in its order, and the category
 * each libnrt usage is counted in.
 */
TEST(usage_categories)
{
	static const char *const cats[] = {
		"model_code", "tensors", "constants", "model_shared_scratchpad",
		"runtime_memory", "driver_memory", "collectives",
		"nonshared_scratchpad", "notifications", "dma_rings",
		"uncategorized",
	};
	static const struct {
		unsigned int usage;
		const char *cat;
	} map[] = {
		{ KBIN_USAGE_GENERIC, "runtime_memory" },
		{ KBIN_USAGE_INSTR_PE, "model_code" },
		{ KBIN_USAGE_INSTR_ACT, "model_code" },
		{ KBIN_USAGE_INSTR_POOL, "model_code" },
		{ KBIN_USAGE_IO, "tensors" },
		{ KBIN_USAGE_DRAM_SPILL, "nonshared_scratchpad" },
		{ KBIN_USAGE_WEIGHT, "constants" },
		{ KBIN_USAGE_NOTIFICATION, "notifications" },
		{ KBIN_USAGE_ACT_TABLE, "model_code" },
		{ KBIN_USAGE_INSTR_DVE, "model_code" },
		{ KBIN_USAGE_INSTR_SP, "model_code" },
		{ KBIN_USAGE_SCRATCHPAD, "model_shared_scratchpad" },
		{ KBIN_USAGE_TENSOR, "tensors" },
		{ KBIN_USAGE_UCODE_LIB, "model_code" },
		{ KBIN_USAGE_POOL_STDIO, "runtime_memory" },
		{ KBIN_USAGE_CC, "collectives" },
		{ KBIN_USAGE_SCRATCHPAD_NOT_SHARED, "nonshared_scratchpad" },
		{ KBIN_USAGE_XT_CC, "collectives" },
		{ KBIN_USAGE_DMA_RING, "dma_rings" },
		{ 19, "uncategorized" }, { 20, "uncategorized" },
		{ 21, "uncategorized" }, { KBIN_USAGE_MAX, "uncategorized" },
	};
	unsigned int i;

	ASSERT_EQ(KBIN_MEMCAT_MAX, sizeof(cats) / sizeof(cats[0]));
	for (i = 0; i < KBIN_MEMCAT_MAX; i++)
		EXPECT_STREQ(cats[i], kbin_mem_category_str(i));
	EXPECT_STREQ("unknown", kbin_mem_category_str(KBIN_MEMCAT_MAX));
	ASSERT_EQ(KBIN_USAGE_MAX + 1, sizeof(map) / sizeof(map[0]));
	for (i = 0; i <= KBIN_USAGE_MAX; i++) {
		EXPECT_EQ(i, map[i].usage);
		EXPECT_STREQ(map[i].cat,
			     kbin_mem_category_str(kbin_usage_category(map[i].usage)))
			TH_LOG("usage %u %s", i, kbin_usage_str(i));
	}
	EXPECT_EQ(KBIN_MEMCAT_UNCATEGORIZED, kbin_usage_category(KBIN_USAGE_MAX + 1));
	EXPECT_EQ(KBIN_MEMCAT_UNCATEGORIZED, kbin_usage_category(~0U));
	/* the kinds with HBM bytes land where the driver would count them */
	EXPECT_EQ(KBIN_MEMCAT_CONSTANTS,
		  kbin_usage_category(kbin_kind(KBIN_MR_BUFFER)->usage));
	EXPECT_EQ(KBIN_MEMCAT_CONSTANTS,
		  kbin_usage_category(kbin_kind(KBIN_MR_BUFFER_STAGED)->usage));
	EXPECT_EQ(KBIN_MEMCAT_TENSORS,
		  kbin_usage_category(kbin_kind(KBIN_MR_INPUT)->usage));
	EXPECT_EQ(KBIN_MEMCAT_NONSHARED_SCRATCHPAD,
		  kbin_usage_category(kbin_kind(KBIN_MR_TMP_BUF)->usage));
	EXPECT_EQ(KBIN_MEMCAT_RUNTIME_MEMORY,
		  kbin_usage_category(kbin_kind(KBIN_MR_PTR_TABLE)->usage));
}

/*
 * The texts of a failed resolve: libnrt's own words (mem_ref_to_addr's
 * "invalid offset in %s, %lu < (%lu + %lu)" and "Variable %s is not
 * staged in HBM", Documentation/uapi.rst), then ours.
 */
TEST(resolve_texts)
{
	/* kbin_resolve_strerror()'s arguments and its text */
	static const struct {
		int err;
		const char *name;
		unsigned int mr_type;
		__u64 var_size, offset, size;
		const char *text;
	} texts[] = {
		{ -ERANGE, "w", KBIN_MR_BUFFER, 4096, 4090, 16,
		  "invalid offset in w, 4096 < (4090 + 16); the access ends at byte 4106, past the 4096 bytes of 'w' (MR_BUFFER)" },
		{ -ERANGE, "x", KBIN_MR_INPUT, 64, ~0ULL, 2,
		  "invalid offset in x, 64 < (18446744073709551615 + 2); offset 18446744073709551615 + size 2 is above 2^64, past the 64 bytes of 'x' (MR_INPUT)" },
		{ -ENODATA, "list", KBIN_MR_LIST, 12, 4, 8,
		  "Variable list is not staged in HBM; 'list' (MR_LIST) has no device address: an index list is kept by the kernel, never staged" },
		{ -ENODATA, "r", KBIN_MR_REMOTE, 8, 0, 0,
		  "Variable r is not staged in HBM; 'r' (MR_REMOTE) has no device address" },
		{ -EINVAL, "p", KBIN_MR_PTR, 8, 1, 0,
		  "'p' (MR_PTR) is its target's address: it resolves at offset 0 only, not at offset 1" },
		{ -EIO, "q", 99, 8, 0, 0, "'q' (MR_UNKNOWN): resolve failed (error -5)" },
		/* without the geometry an MR_SB gap access names its range */
		{ -ERANGE, "SB", KBIN_MR_SB, 33554432, 229376, 4,
		  "'SB' (MR_SB): bytes [229376, +4) touch the gap past an SBUF partition's bytes: the SBUF window holds no SBUF byte there (neuronsim's rule, not libnrt's: hardware has no memory at those addresses; Documentation/hardware.rst)" },
		/* past the window, an MR_SB access is out of the variable's bounds */
		{ -ERANGE, "SB", KBIN_MR_SB, 33554432, 33554432, 1,
		  "invalid offset in SB, 33554432 < (33554432 + 1); the access ends at byte 33554433, past the 33554432 bytes of 'SB' (MR_SB)" },
	};
	char b[KBIN_RESOLVE_TEXT_MAX], name[KBIN_NAME_MAX];
	size_t i;

	for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		EXPECT_STREQ(texts[i].text,
			     kbin_resolve_strerror(b, sizeof(b), texts[i].err, texts[i].name,
						   texts[i].mr_type, texts[i].var_size,
						   texts[i].offset, texts[i].size))
			TH_LOG("case %zu: error %d, '%s'", i, texts[i].err, texts[i].name);
	}
	/* truncated, always NUL-terminated; a zero length writes nothing */
	EXPECT_STREQ("invalid",
		     kbin_resolve_strerror(b, 8, -ERANGE, "w", KBIN_MR_BUFFER,
					   1, 1, 1));
	b[0] = 'z';
	EXPECT_EQ(&b[0], kbin_resolve_strerror(b, 0, -ERANGE, "w", KBIN_MR_BUFFER,
					   1, 1, 1));
	EXPECT_EQ('z', b[0]);
	/* the longest name twice fits KBIN_RESOLVE_TEXT_MAX */
	memset(name, 'n', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	kbin_resolve_strerror(b, sizeof(b), -ERANGE, name, KBIN_MR_BUFFER_STAGED,
			      ~0ULL, ~0ULL - 1, 1);
	EXPECT_EQ(0, strcmp(b + strlen(b) - strlen("(MR_BUFFER_STAGED)"),
			    "(MR_BUFFER_STAGED)")) TH_LOG("%s", b);
}

/*
 * The SBUF gap is the simulator's rule: its refusal is said in its own
 * words, never with libnrt's "invalid offset" (whose arithmetic would be
 * false: the access is inside the variable).  With the geometry the
 * text names the partition and byte; without it (the library's
 * neuronsim_resolve_strerror()) it names the range.
 */
TEST(sbuf_gap_texts)
{
	char b[KBIN_RESOLVE_TEXT_MAX], name[KBIN_NAME_MAX];

	EXPECT_STREQ("'SB' (MR_SB): bytes [229376, +4) start at byte 229376 of SBUF partition 0, in the gap past its 229376 bytes: the SBUF window holds no SBUF byte there (neuronsim's rule, not libnrt's: hardware has no memory at those addresses; Documentation/hardware.rst)",
		     kbin_sbuf_gap_strerror(b, sizeof(b), "SB", 229376, 4,
					    229376, 262144));
	EXPECT_STREQ("'SB' (MR_SB): bytes [1540092, +8) start at byte 229372 of SBUF partition 5 and run past its 229376 bytes into the gap: the SBUF window holds no SBUF byte there (neuronsim's rule, not libnrt's: hardware has no memory at those addresses; Documentation/hardware.rst)",
		     kbin_sbuf_gap_strerror(b, sizeof(b), "SB",
					    5 * 262144 + 229372, 8, 229376,
					    262144));
	/* without the geometry (kbin_resolve_strerror()): resolve_texts */
	/* the longest name and the largest numbers fit, whole */
	memset(name, 'n', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	kbin_sbuf_gap_strerror(b, sizeof(b), name, ~0ULL - 1, ~0ULL - 1,
			       0xffffffffU, 0x80000000U);
	EXPECT_EQ(0, strcmp(b + strlen(b) - strlen("hardware.rst)"),
			    "hardware.rst)")) TH_LOG("%s", b);
}

/*
 * An MR_PTR_TABLE's rows at load: a row needs translation when its
 * variable resolves (the resolve rule at offset 0); the table's bytes are
 * one address per row, never fewer than the record's size.
 */
TEST(ptr_table_rows)
{
	const struct nrsim_mr buf = { .size = 64, .pa = 0x1000004000ULL,
				     .type = KBIN_MR_BUFFER };
	const struct nrsim_mr sb = { .size = 1, .pa = 0x100000000ULL,
				    .type = KBIN_MR_SB };
	const struct nrsim_mr ptr = { .size = 8, .pa = 0x1000008000ULL,
				     .type = KBIN_MR_PTR };
	const struct nrsim_mr list = { .size = 12, .pa = NRSIM_PA_UNSTAGED,
				      .type = KBIN_MR_LIST };
	__u64 a = 7;

	EXPECT_EQ(1, nrsim_rc_table_row(&buf, &a));
	EXPECT_EQ(0x1000004000ULL, a);
	EXPECT_EQ(1, nrsim_rc_table_row(&sb, &a));
	EXPECT_EQ(0x100000000ULL, a);
	EXPECT_EQ(1, nrsim_rc_table_row(&ptr, &a));
	EXPECT_EQ(0x1000008000ULL, a);
	a = 7;
	EXPECT_EQ(0, nrsim_rc_table_row(&list, &a));
	EXPECT_EQ(0, a);
	a = 7;
	EXPECT_EQ(0, nrsim_rc_table_row(NULL, &a));
	EXPECT_EQ(0, a);

	EXPECT_EQ(32, kbin_ptr_table_bytes(16, 4));
	EXPECT_EQ(40, kbin_ptr_table_bytes(40, 4));
	EXPECT_EQ(8, kbin_ptr_table_bytes(0, 1));
	EXPECT_EQ((__u64)0xffffffffULL * 8, kbin_ptr_table_bytes(4, 0xffffffffU));
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

	EXPECT_EQ(0, nrsim_rc_rule(KBIN_MR_BUFFER, 64, 0x1000000000ULL, 0, 0, 16, 48, &a));
	EXPECT_EQ(0x1000000010ULL, a);
	EXPECT_EQ(-ERANGE, nrsim_rc_rule(KBIN_MR_BUFFER, 64, 0x1000, 0, 0, 16, 49, &a));
	EXPECT_EQ(-ERANGE, nrsim_rc_rule(KBIN_MR_BUFFER, ~0ULL, 0x1000, 0, 0, 2, ~0ULL, &a));
	EXPECT_EQ(-EINVAL, nrsim_rc_rule(KBIN_MR_PTR, 8, 0x1000, 0, 0, 1, 0, &a));
	EXPECT_EQ(0, nrsim_rc_rule(KBIN_MR_PTR, 8, 0x2000, 0, 0, 0, 8, &a));
	EXPECT_EQ(0x2000, a);
	EXPECT_EQ(-ENODATA, nrsim_rc_rule(KBIN_MR_LIST, 12, NRSIM_PA_UNSTAGED, 0, 0, 0, 4, &a));
	/* out of bounds is reported before the MR_PTR and unstaged tests */
	EXPECT_EQ(-ERANGE, nrsim_rc_rule(KBIN_MR_PTR, 8, 0x2000, 0, 0, 1, 8, &a));
	EXPECT_EQ(-ERANGE, nrsim_rc_rule(KBIN_MR_LIST, 12, NRSIM_PA_UNSTAGED, 0, 0, 0, 13, &a));

	/* trn2 MR_SB, the 32 MiB window: the last byte of partition 127 ... */
	EXPECT_EQ(0, nrsim_rc_rule(KBIN_MR_SB, 32 << 20, 0x100000000ULL, TRN2_PART,
				  STRIDE, 127ULL * STRIDE + 229375, 1, &a));
	EXPECT_EQ(0x100000000ULL + 127ULL * STRIDE + 229375, a);
	/* ... and the first byte of its gap, alone or reached by a run */
	EXPECT_EQ(-ERANGE, nrsim_rc_rule(KBIN_MR_SB, 32 << 20, 0x100000000ULL, TRN2_PART,
					STRIDE, 127ULL * STRIDE + 229376, 1, &a));
	EXPECT_EQ(-ERANGE, nrsim_rc_rule(KBIN_MR_SB, 32 << 20, 0x100000000ULL, TRN2_PART,
					STRIDE, 127ULL * STRIDE + 229375, 2, &a));
	EXPECT_EQ(-ERANGE, nrsim_rc_rule(KBIN_MR_SB, 32 << 20, 0x100000000ULL, TRN2_PART,
					STRIDE, 127ULL * STRIDE + 229376, 0, &a));
	/* a whole partition; the next one starts a stride later */
	EXPECT_EQ(0, nrsim_rc_rule(KBIN_MR_SB, 32 << 20, 0x100000000ULL, TRN2_PART,
				  STRIDE, 5ULL * STRIDE, TRN2_PART, &a));
	EXPECT_EQ(-ERANGE, nrsim_rc_rule(KBIN_MR_SB, 32 << 20, 0x100000000ULL, TRN2_PART,
					STRIDE, 5ULL * STRIDE, TRN2_PART + 1, &a));
	/* the gap is MR_SB's: the same numbers on an HBM var resolve */
	EXPECT_EQ(0, nrsim_rc_rule(KBIN_MR_BUFFER, 32 << 20, 0x1000000000ULL, TRN2_PART,
				  STRIDE, 127ULL * STRIDE + 229376, 1, &a));
	/* an MR_REMOTE staged in an SBUF window (its source's geometry) */
	{
		struct nrsim_mr r = { .size = 32 << 20, .pa = 0x100000000ULL,
				     .type = KBIN_MR_REMOTE };

		EXPECT_EQ(0, nrsim_rc_addr(&r, 127ULL * STRIDE + 229376, 1, &a));
		nrsim_rc_sbuf_init(&r, TRN2_PART, STRIDE);
		EXPECT_EQ(TRN2_PART, nrsim_rc_sbuf_part(&r));
		EXPECT_EQ(STRIDE, nrsim_rc_sbuf_stride(&r));
		EXPECT_EQ(-ERANGE, nrsim_rc_addr(&r, 127ULL * STRIDE + 229376, 1, &a));
		EXPECT_EQ(0, nrsim_rc_addr(&r, 127ULL * STRIDE + 229375, 1, &a));
		EXPECT_EQ(0x100000000ULL + 127ULL * STRIDE + 229375, a);
		nrsim_rc_sbuf_init(&r, 196608, STRIDE);
		EXPECT_EQ(196608U, nrsim_rc_sbuf_part(&r));
		nrsim_rc_sbuf_init(&r, STRIDE, STRIDE);
		EXPECT_EQ(0, r.sbuf);
	}
	/* trn3's partitions fill their strides: no gap */
	EXPECT_EQ(0, nrsim_rc_rule(KBIN_MR_SB, 32 << 20, 0x100000000ULL, STRIDE, STRIDE,
				  5ULL * STRIDE + 229376, 2 * STRIDE, &a));

	/*
	 * every combination: the documented rule, nrsim_rc_addr() on a mem_ref
	 * given its geometry as staging does, nrsim_rc_rule()
	 */
	for (g = 0; g < sizeof(geo) / sizeof(geo[0]); g++)
		for (t = 0; t < sizeof(types) / sizeof(types[0]); t++)
			for (i = 0; i < nv; i++)
				for (j = 0; j < nv; j++)
					for (k = 0; k < nv; k++)
						for (p = 0; p < nv; p += 3) {
							struct nrsim_mr mr = {
								.size = vals[i], .pa = vals[p],
								.type = types[t],
							};
							__u64 want = 1, got = 2, via = 3;
							int w = doc_rule(types[t], vals[i], vals[p],
									 geo[g][0], geo[g][1],
									 vals[j], vals[k], &want);

							if (types[t] == KBIN_MR_SB)
								nrsim_rc_sbuf_init(&mr, geo[g][0],
										  geo[g][1]);
							ASSERT_EQ(w, nrsim_rc_rule(types[t], vals[i],
										  vals[p], geo[g][0],
										  geo[g][1], vals[j],
										  vals[k], &got));
							ASSERT_EQ(w, nrsim_rc_addr(&mr, vals[j],
										  vals[k], &via));
							if (!w) {
								ASSERT_EQ(want, got);
								ASSERT_EQ(want, via);
							}
						}
}


/* ---- DMA: tables, walker, rules (kbin_dma.h) ---- */

TEST(dma_tables)
{
	static const struct { const char *name; unsigned int code, size; } dt[] = {
		{ "uint8", KBIN_DMA_DTYPE_UINT8, 1 }, { "int8", KBIN_DMA_DTYPE_INT8, 1 },
		{ "uint16", KBIN_DMA_DTYPE_UINT16, 2 }, { "int16", KBIN_DMA_DTYPE_INT16, 2 },
		{ "float16", KBIN_DMA_DTYPE_FLOAT16, 2 },
		{ "bfloat16", KBIN_DMA_DTYPE_BFLOAT16, 2 },
		{ "uint32", KBIN_DMA_DTYPE_UINT32, 4 }, { "int32", KBIN_DMA_DTYPE_INT32, 4 },
		{ "float32", KBIN_DMA_DTYPE_FLOAT32, 4 },
		{ "uint64", KBIN_DMA_DTYPE_UINT64, 8 }, { "int64", KBIN_DMA_DTYPE_INT64, 8 },
		{ "float64", KBIN_DMA_DTYPE_FLOAT64, 8 },
	};
	static const char *const eng[] = { NULL, "pe", "act", "pool", "dve", "sp" };
	static const char *const qt[] = { NULL, "in", "data", "dynamic" };
	static const char *const ops[] = { NULL, "copy", "cast", "transpose" };
	unsigned int i;

	for (i = 0; i < sizeof(dt) / sizeof(dt[0]); i++) {
		ASSERT_NE(NULL, kbin_dma_dtype(dt[i].code));
		EXPECT_STREQ(dt[i].name, kbin_dma_dtype(dt[i].code)->name);
		EXPECT_EQ(dt[i].size, kbin_dma_dtype(dt[i].code)->size);
		EXPECT_EQ(dt[i].code, kbin_dma_dtype_from_name(dt[i].name));
		EXPECT_STREQ(dt[i].name, kbin_dma_dtype_str(dt[i].code));
	}
	EXPECT_EQ(KBIN_DMA_DTYPE_MAX, sizeof(dt) / sizeof(dt[0]));
	EXPECT_EQ(NULL, kbin_dma_dtype(0));
	EXPECT_EQ(NULL, kbin_dma_dtype(KBIN_DMA_DTYPE_MAX + 1));
	EXPECT_EQ(0, kbin_dma_dtype_from_name("float8"));
	EXPECT_STREQ("unknown", kbin_dma_dtype_str(0));
	for (i = 1; i <= KBIN_DMA_ENGINE_MAX; i++) {
		EXPECT_STREQ(eng[i], kbin_dma_engine_str(i));
		EXPECT_EQ(i, kbin_dma_engine_from_name(eng[i]));
	}
	EXPECT_EQ(KBIN_DMA_ENGINE_POOL, kbin_dma_engine_from_name("pool"));
	EXPECT_EQ(0, kbin_dma_engine_from_name("PE"));
	EXPECT_STREQ("unknown", kbin_dma_engine_str(KBIN_DMA_ENGINE_MAX + 1));
	for (i = 1; i <= KBIN_DMA_QUEUE_TYPE_MAX; i++) {
		EXPECT_STREQ(qt[i], kbin_dma_queue_type_str(i));
		EXPECT_EQ(i, kbin_dma_queue_type_from_name(qt[i]));
	}
	EXPECT_EQ(0, kbin_dma_queue_type_from_name("out"));
	EXPECT_STREQ("unknown", kbin_dma_queue_type_str(0));
	for (i = 1; i <= KBIN_DMA_OP_MAX; i++) {
		EXPECT_STREQ(ops[i], kbin_dma_op_str(i));
		EXPECT_EQ(i, kbin_dma_op_from_name(ops[i]));
	}
	EXPECT_EQ(0, kbin_dma_op_from_name("move"));
	EXPECT_STREQ("unknown", kbin_dma_op_str(KBIN_DMA_OP_MAX + 1));
	EXPECT_EQ(65536U, KBIN_DMA_PIECE_MAX);
	EXPECT_STREQ("SBUF access in the gap past a partition",
		     kbin_reason_str(KBIN_ERR_DMA_SBUF_GAP));
	EXPECT_STREQ("dma from", kbin_field_str(KBIN_FIELD_DMA_FROM));
}

/*
 * The names every layer prints from the one table each (debugfs, the
 * library, the commands): descriptor sides, UDMA flags, run and engine
 * states, and the generation lists of messages.
 */
TEST(uapi_names)
{
	static const struct { __u32 ctrl; const char *text; } fl[] = {
		{ 0, "-" }, { 0x1234, "-" },
		{ UDMA_DESC_FIRST, "FIRST" }, { UDMA_DESC_LAST, "LAST" },
		{ UDMA_DESC_LAST | UDMA_DESC_INT_EN, "LAST|INT" },
		{ UDMA_DESC_FIRST | UDMA_DESC_LAST | UDMA_DESC_INT_EN | 7,
		  "FIRST|LAST|INT" },
		{ UDMA_DESC_FIRST | UDMA_DESC_INT_EN, "FIRST|INT" },
		{ UDMA_DESC_DMB, "DMB" },
		{ UDMA_DESC_FIRST | UDMA_DESC_LAST | UDMA_DESC_INT_EN | UDMA_DESC_DMB,
		  "FIRST|LAST|INT|DMB" },
	};
	char buf[KBIN_GEN_LIST_MAX];
	unsigned int i;

	EXPECT_STREQ("M2S", kbin_dma_side_str(NEURONSIM_DMA_M2S));
	EXPECT_STREQ("S2M", kbin_dma_side_str(NEURONSIM_DMA_S2M));
	EXPECT_STREQ("?", kbin_dma_side_str(2));
	for (i = 0; i < sizeof(fl) / sizeof(fl[0]); i++) {
		EXPECT_STREQ(fl[i].text, kbin_udma_flags_str(fl[i].ctrl, buf, KBIN_UDMA_FLAGS_MAX))
			TH_LOG("len_ctrl 0x%x", fl[i].ctrl);
	}
	/* truncated, never past the buffer */
	memset(buf, 'x', sizeof(buf));
	EXPECT_STREQ("FIRST|L", kbin_udma_flags_str(UDMA_DESC_FIRST | UDMA_DESC_LAST |
						    UDMA_DESC_INT_EN, buf, 8));
	EXPECT_EQ('x', buf[8]);
	EXPECT_STREQ("idle", kbin_run_state_str(NEURONSIM_RUN_IDLE));
	EXPECT_STREQ("queued", kbin_run_state_str(NEURONSIM_RUN_QUEUED));
	EXPECT_STREQ("running", kbin_run_state_str(NEURONSIM_RUN_RUNNING));
	EXPECT_STREQ("done", kbin_run_state_str(NEURONSIM_RUN_DONE));
	EXPECT_STREQ("?", kbin_run_state_str(NEURONSIM_RUN_DONE + 1));
	EXPECT_STREQ("idle", kbin_engine_state_str(NEURONSIM_ENGINE_IDLE));
	EXPECT_STREQ("done", kbin_engine_state_str(NEURONSIM_ENGINE_DONE));
	EXPECT_STREQ("waiting", kbin_engine_state_str(NEURONSIM_ENGINE_WAITING));
	EXPECT_STREQ("stopped", kbin_engine_state_str(NEURONSIM_ENGINE_STOPPED));
	EXPECT_STREQ("?", kbin_engine_state_str(NEURONSIM_ENGINE_STOPPED + 1));
	EXPECT_STREQ("trn1, trn2 or trn3",
		     kbin_gen_list(buf, sizeof(buf), KBIN_GEN_LIST_NAMES));
	EXPECT_STREQ("sunda/inf2/v2, cayman/v3, mariana/v4",
		     kbin_gen_list(buf, sizeof(buf), KBIN_GEN_LIST_ALIASES));
	EXPECT_STREQ("2, 3, 4", kbin_gen_list(buf, sizeof(buf), KBIN_GEN_LIST_NUMBERS));
	memset(buf, 'x', sizeof(buf));
	EXPECT_STREQ("trn1, t", kbin_gen_list(buf, 8, KBIN_GEN_LIST_NAMES));
	EXPECT_EQ('x', buf[8]);
}

/* a side of var_id 0, bytes (KBIN_DMA_DTYPE_UINT8), as the rules see it */
static struct kbin_dma_side side(__u64 off, __u32 n, const __u32 *sizes,
				 const uint64_t *steps)
{
	return tl_side(0, KBIN_DMA_DTYPE_UINT8, off, n, sizes, steps);
}

/* the pieces of one run cut as Documentation/relocation.rst says */
TEST(dma_walk_piece_limit)
{
	static const __u32 len[] = { 1, 65535, 65536, 65537, 131072, 131073, 200000 };
	static const __u32 want[] = { 1, 1, 1, 2, 2, 3, 4 };
	unsigned int k;

	for (k = 0; k < sizeof(len) / sizeof(len[0]); k++) {
		__u32 sz[1] = { len[k] };
		uint64_t st[1] = { 1 };
		struct kbin_dma_side s = side(1000, 1, sz, st);
		struct kbin_dma_pat p;
		struct kbin_dma_walk w;
		__u64 off, at = 1000;
		__u32 l, n = 0, total = 0;

		ASSERT_EQ(KBIN_OK, kbin_dma_pattern(&s, &p));
		EXPECT_EQ(1, p.runs);
		EXPECT_EQ(len[k], p.bytes);
		EXPECT_EQ(1000ULL + len[k], p.extent);
		EXPECT_EQ(want[k], p.pieces) TH_LOG("run of %u bytes", len[k]);
		kbin_dma_walk_init(&w, &s);
		while (kbin_dma_walk_piece(&w, &off, &l)) {
			EXPECT_EQ(at, off);
			EXPECT_LE(l, 65536U);
			EXPECT_LT(0U, l);
			/* every piece but the last is full */
			if (total + l < len[k])
				EXPECT_EQ(65536U, l);
			at += l;
			total += l;
			n++;
		}
		EXPECT_EQ(want[k], n);
		EXPECT_EQ(len[k], total);
		EXPECT_EQ(0, kbin_dma_walk_piece(&w, &off, &l));
	}
}

/* runs, rows and pieces of patterns of 1..4 dims against nested loops */
TEST(dma_walk_patterns)
{
	static const struct { __u32 n; __u32 sz[4]; uint64_t st[4]; } pat[] = {
		{ 1, { 512 }, { 1 } },
		{ 2, { 512, 128 }, { 1, 262144 } },
		{ 3, { 64, 3, 5 }, { 1, 100, 7 } },
		{ 4, { 256, 128, 1, 1 }, { 1, 262144, 33554432, 256 } },
		{ 4, { 70000, 2, 3, 2 }, { 1, 70000, 1000000, 5 } },
		{ 4, { 3, 4, 5, 6 }, { 1, 0, 9, 1000 } },
	};
	unsigned int k;

	for (k = 0; k < sizeof(pat) / sizeof(pat[0]); k++) {
		struct kbin_dma_side s = side(17, pat[k].n, pat[k].sz, pat[k].st);
		__u32 sz[4] = { 1, 1, 1, 1 }, l;
		uint64_t st[4] = { 0 };
		__u64 off, runs = 0, pieces = 0, max = 0;
		struct kbin_dma_walk wr, wp, ww;
		__u64 row = 0, rstep = 0;
		struct kbin_dma_pat p;
		__u32 a, b, c, j, rn = 0;

		ASSERT_EQ(KBIN_OK, kbin_dma_pattern(&s, &p)) TH_LOG("pattern %u", k);
		for (j = 0; j < pat[k].n; j++) {
			sz[j] = pat[k].sz[j];
			st[j] = pat[k].st[j];
		}
		kbin_dma_walk_init(&wr, &s);
		kbin_dma_walk_init(&wp, &s);
		kbin_dma_walk_init(&ww, &s);
		/* dimension 1 moves fastest */
		for (c = 0; c < sz[3]; c++)
			for (b = 0; b < sz[2]; b++)
				for (a = 0; a < sz[1]; a++) {
					__u64 want = 17 + a * st[1] + b * st[2] + c * st[3];
					__u32 done = 0;

					/* a row holds the runs of dimension 1 */
					if (!a) {
						ASSERT_EQ(1, kbin_dma_walk_row(&ww, &row, &rn, &rstep));
						ASSERT_EQ(sz[1], rn);
						ASSERT_EQ(st[1], rstep);
					}
					ASSERT_EQ(want, row + a * rstep) TH_LOG("pattern %u", k);
					ASSERT_EQ(1, kbin_dma_walk_run(&wr, &off, &l));
					ASSERT_EQ(want, off);
					ASSERT_EQ(sz[0], l);
					runs++;
					if (want + sz[0] > max)
						max = want + sz[0];
					while (done < sz[0]) {
						ASSERT_EQ(1, kbin_dma_walk_piece(&wp, &off, &l));
						ASSERT_EQ(want + done, off);
						done += l;
						pieces++;
					}
					ASSERT_EQ(sz[0], done);
				}
		EXPECT_EQ(0, kbin_dma_walk_run(&wr, &off, &l));
		EXPECT_EQ(0, kbin_dma_walk_piece(&wp, &off, &l));
		EXPECT_EQ(0, kbin_dma_walk_row(&ww, &row, &rn, &rstep));
		EXPECT_EQ(runs, p.runs);
		EXPECT_EQ(pieces, p.pieces);
		EXPECT_EQ(runs * sz[0], p.bytes);
		/* non-negative steps: the last byte is the extent's */
		EXPECT_EQ(max, p.extent) TH_LOG("pattern %u", k);
	}
}

/* seeking to piece k gives the pieces the walk from the start gives */
TEST(dma_walk_seek)
{
	static const struct { __u32 n; __u32 sz[4]; uint64_t st[4]; } pat[] = {
		{ 1, { 512 }, { 1 } },
		{ 3, { 64, 3, 5 }, { 1, 100, 7 } },
		{ 4, { 70000, 2, 3, 2 }, { 1, 70000, 1000000, 5 } },
		{ 4, { 131073, 1, 2, 3 }, { 1, 9, 0, 400000 } },
	};
	unsigned int k;

	for (k = 0; k < sizeof(pat) / sizeof(pat[0]); k++) {
		struct kbin_dma_side s = side(5, pat[k].n, pat[k].sz, pat[k].st);
		struct kbin_dma_walk w, ws;
		struct kbin_dma_pat p;
		__u64 off, soff, i;
		__u32 l, sl;

		ASSERT_EQ(KBIN_OK, kbin_dma_pattern(&s, &p));
		kbin_dma_walk_init(&w, &s);
		for (i = 0; i < p.pieces; i++) {
			kbin_dma_walk_seek(&ws, &s, i);
			ASSERT_EQ(1, kbin_dma_walk_piece(&w, &off, &l));
			ASSERT_EQ(1, kbin_dma_walk_piece(&ws, &soff, &sl))
				TH_LOG("pattern %u piece %llu", k, (unsigned long long)i);
			ASSERT_EQ(off, soff) TH_LOG("pattern %u piece %llu", k,
						   (unsigned long long)i);
			ASSERT_EQ(l, sl);
		}
		kbin_dma_walk_seek(&ws, &s, p.pieces);
		EXPECT_EQ(0, kbin_dma_walk_piece(&ws, &soff, &sl));
	}
}

TEST(dma_pattern_refusals)
{
	__u32 sz[4] = { 512, 128, 2, 2 };
	uint64_t st[4] = { 1, 512, 65536, 131072 };
	struct kbin_dma_side s = side(0, 4, sz, st);
	struct kbin_dma_pat p;

	ASSERT_EQ(KBIN_OK, kbin_dma_pattern(&s, &p));
	EXPECT_EQ(512ULL * 128 * 4, p.bytes);
	s.num_dims = 0;
	EXPECT_EQ(KBIN_ERR_DMA_DIMS, kbin_dma_pattern(&s, &p));
	s.num_dims = 5;
	EXPECT_EQ(KBIN_ERR_DMA_DIMS, kbin_dma_pattern(&s, &p));
	s.num_dims = 4;
	s.sizes[2] = 0;
	EXPECT_EQ(KBIN_ERR_DMA_DIMS, kbin_dma_pattern(&s, &p));
	EXPECT_EQ(2U, p.dim);
	s.sizes[2] = 2;
	s.steps[0] = 2;
	EXPECT_EQ(KBIN_ERR_DMA_STEP, kbin_dma_pattern(&s, &p));
	s.steps[0] = 1;
	/* extent overflow: in a product, in the sum, in the final + 1 */
	s.sizes[3] = 3;
	s.steps[3] = 1ULL << 63;
	EXPECT_EQ(KBIN_ERR_DMA_EXTENT, kbin_dma_pattern(&s, &p));
	EXPECT_EQ(3U, p.dim);
	s.sizes[3] = 2;
	s.steps[3] = 131072;
	s.offset = ~0ULL - 100;
	EXPECT_EQ(KBIN_ERR_DMA_EXTENT, kbin_dma_pattern(&s, &p));
	EXPECT_EQ(0U, p.dim);
	s = side(0, 1, sz, st);
	s.sizes[0] = 1;
	s.offset = ~0ULL;
	EXPECT_EQ(KBIN_ERR_DMA_EXTENT, kbin_dma_pattern(&s, &p));
	s.offset = ~0ULL - 1;
	EXPECT_EQ(KBIN_OK, kbin_dma_pattern(&s, &p));
	EXPECT_EQ(~0ULL, p.extent);
	/* run count overflow with zero outer steps (the extent stays small) */
	s = side(0, 4, sz, st);
	s.sizes[1] = s.sizes[2] = s.sizes[3] = 0xffffffffU;
	s.steps[1] = s.steps[2] = s.steps[3] = 0;
	EXPECT_EQ(KBIN_ERR_DMA_EXTENT, kbin_dma_pattern(&s, &p));
	/* (2^32 - 1)^2 runs of one byte fit; of 512 bytes they do not */
	s.sizes[3] = 1;
	s.sizes[0] = 1;
	EXPECT_EQ(KBIN_OK, kbin_dma_pattern(&s, &p));
	EXPECT_EQ(0xffffffffULL * 0xffffffffULL, p.runs);
	EXPECT_EQ(p.runs, p.pieces);
	s.sizes[0] = 512;
	EXPECT_EQ(KBIN_ERR_DMA_EXTENT, kbin_dma_pattern(&s, &p));
}

TEST(dma_sbuf_rules)
{
	const struct kbin_gen *g2 = kbin_gen_target(KBIN_TARGET_TRN2);
	const struct kbin_gen *g3 = kbin_gen_target(KBIN_TARGET_TRN3);
	__u32 sz[4] = { 512, 128 };
	uint64_t st[4] = { 1, 262144 };
	struct kbin_dma_side s = side(229376 - 512, 2, sz, st);
	struct kbin_dma_pat p;
	struct kbin_dma_sb sb;

	ASSERT_NE(NULL, g2);
	/* 128 partitions, each run ending at the last byte of its partition */
	ASSERT_EQ(KBIN_OK, kbin_dma_pattern(&s, &p));
	EXPECT_EQ(KBIN_OK, kbin_dma_sbuf(g2, &s, p.extent, &sb));
	EXPECT_EQ(127ULL * 262144 + 229376, p.extent);
	/* one byte later: past partition 0 */
	s.offset++;
	ASSERT_EQ(KBIN_OK, kbin_dma_pattern(&s, &p));
	EXPECT_EQ(KBIN_ERR_DMA_SBUF_PARTITION, kbin_dma_sbuf(g2, &s, p.extent, &sb));
	EXPECT_EQ(0U, sb.partition);
	EXPECT_EQ(229376ULL - 511, sb.byte);
	EXPECT_EQ(229377ULL, sb.end);
	/* trn3 partitions fill their stride: runs may cross them */
	EXPECT_EQ(KBIN_OK, kbin_dma_sbuf(g3, &s, p.extent, &sb));
	/* an offset in the gap itself */
	s.offset = 5 * 262144 + 229376;
	s.sizes[0] = 1;
	s.sizes[1] = 1;
	ASSERT_EQ(KBIN_OK, kbin_dma_pattern(&s, &p));
	EXPECT_EQ(KBIN_ERR_DMA_SBUF_PARTITION, kbin_dma_sbuf(g2, &s, p.extent, &sb));
	EXPECT_EQ(5U, sb.partition);
	/* a dimension of in-partition steps walking into the gap */
	s = side(0, 3, sz, st);
	s.sizes[0] = 256;
	s.sizes[1] = 4;
	s.steps[1] = 262144;
	s.sizes[2] = 896;	/* 895 * 256 + 256 = 229376 */
	s.steps[2] = 256;
	ASSERT_EQ(KBIN_OK, kbin_dma_pattern(&s, &p));
	EXPECT_EQ(KBIN_OK, kbin_dma_sbuf(g2, &s, p.extent, &sb));
	s.sizes[2] = 897;	/* 896 * 256 + 256 = 229632 */
	ASSERT_EQ(KBIN_OK, kbin_dma_pattern(&s, &p));
	EXPECT_EQ(KBIN_ERR_DMA_SBUF_GAP, kbin_dma_sbuf(g2, &s, p.extent, &sb));
	s.sizes[2] = 896;
	ASSERT_EQ(KBIN_OK, kbin_dma_pattern(&s, &p));
	EXPECT_EQ(KBIN_OK, kbin_dma_sbuf(g2, &s, p.extent, &sb));
	s.sizes[2] = 897;
	EXPECT_EQ(KBIN_ERR_DMA_SBUF_GAP, kbin_dma_sbuf(g2, &s, 0, &sb));
	EXPECT_EQ(2U, sb.dim);
	EXPECT_EQ(3U, sb.partition);
	EXPECT_EQ(896ULL * 256, sb.byte);
	/* a size-1 dimension with a window-sized step moves nothing */
	s.sizes[2] = 1;
	s.steps[2] = 33554432;
	s.num_dims = 3;
	ASSERT_EQ(KBIN_OK, kbin_dma_pattern(&s, &p));
	EXPECT_EQ(KBIN_OK, kbin_dma_sbuf(g2, &s, p.extent, &sb));
	/* past the window */
	s = side(127ULL * 262144, 2, sz, st);
	s.sizes[1] = 2;
	ASSERT_EQ(KBIN_OK, kbin_dma_pattern(&s, &p));
	EXPECT_EQ(KBIN_ERR_DMA_SBUF_WINDOW, kbin_dma_sbuf(g2, &s, p.extent, &sb));
	EXPECT_EQ(KBIN_ERR_DMA_SBUF_WINDOW, kbin_dma_sbuf(g3, &s, p.extent, &sb));
	EXPECT_EQ(p.extent, sb.end);
}

/* kbin_dma_desc_rule() of @d with its sides measured now */
static unsigned int rule(const struct kbin_dma_desc *d, struct kbin_dma_verdict *v)
{
	struct kbin_dma_pat pf, pt;

	if (kbin_dma_pattern(&d->from, &pf) || kbin_dma_pattern(&d->to, &pt))
		return ~0U;
	return kbin_dma_desc_rule(d, &pf, &pt, v);
}

/* a descriptor of @op whose two sides are side(0, @n, @sz, @st) */
static struct kbin_dma_desc desc(__u8 op, __u32 n, const __u32 *sz, const uint64_t *st)
{
	struct kbin_dma_desc d;

	memset(&d, 0, sizeof(d));
	d.from = side(0, n, sz, st);
	d.to = d.from;
	d.op = op;
	return d;
}

TEST(dma_desc_rules)
{
	__u32 sz[4] = { 512, 128 };
	uint64_t st[4] = { 1, 262144 };
	struct kbin_dma_desc d = desc(KBIN_DMA_OP_COPY, 2, sz, st);
	struct kbin_dma_pat pf, pt;
	struct kbin_dma_verdict v;

	EXPECT_EQ(KBIN_OK, rule(&d, &v));
	d.to.sizes[1] = 127;
	EXPECT_EQ(KBIN_ERR_DMA_COPY_SIZE, rule(&d, &v));
	EXPECT_EQ(KBIN_DMA_WHY_BYTES, v.why);
	/* a copy is a byte stream: other shapes with as many bytes are fine */
	d.to.sizes[0] = 1024;
	d.to.sizes[1] = 64;
	EXPECT_EQ(KBIN_OK, rule(&d, &v));
	d.to.num_dims = 1;
	d.to.sizes[0] = 65536;
	d.to.sizes[1] = 0;
	d.to.steps[1] = 0;
	EXPECT_EQ(KBIN_OK, rule(&d, &v));
	d.to.sizes[0] = 65535;
	EXPECT_EQ(KBIN_ERR_DMA_COPY_SIZE, rule(&d, &v));
	d.to = side(0, 2, sz, st);
	d.op = 0;
	EXPECT_EQ(KBIN_ERR_DMA_OP, rule(&d, &v));
	d.op = KBIN_DMA_OP_MAX + 1;
	EXPECT_EQ(KBIN_ERR_DMA_OP, rule(&d, &v));
	d.op = KBIN_DMA_OP_COPY;
	d.to.dtype = KBIN_DMA_DTYPE_MAX + 1;
	EXPECT_EQ(KBIN_ERR_DMA_DTYPE, rule(&d, &v));
	d.to.dtype = KBIN_DMA_DTYPE_UINT8;
	d.transpose_shape[3] = 1;
	EXPECT_EQ(KBIN_ERR_DMA_TRANSPOSE, rule(&d, &v));
	EXPECT_EQ(KBIN_DMA_WHY_T_FIELDS, v.why);
	d.transpose_shape[3] = 0;
	/* cast int8 128 B -> float32 512 B: the run lengths scale */
	d.op = KBIN_DMA_OP_CAST;
	d.from.dtype = KBIN_DMA_DTYPE_INT8;
	d.from.sizes[0] = 128;
	d.to.dtype = KBIN_DMA_DTYPE_FLOAT32;
	EXPECT_EQ(KBIN_OK, rule(&d, &v));
	d.from.sizes[0] = 129;
	EXPECT_EQ(KBIN_ERR_DMA_CAST_SIZE, rule(&d, &v));
	EXPECT_EQ(KBIN_DMA_WHY_ELEMS, v.why);
	d.from.sizes[0] = 128;
	d.to.sizes[0] = 514;	/* an element split across two runs */
	EXPECT_EQ(KBIN_ERR_DMA_CAST_SIZE, rule(&d, &v));
	EXPECT_EQ(KBIN_DMA_WHY_TO_RUN, v.why);
	d.to.sizes[0] = 512;
	d.to.sizes[1] = 64;
	EXPECT_EQ(KBIN_ERR_DMA_CAST_SIZE, rule(&d, &v));
	EXPECT_EQ(KBIN_DMA_WHY_ELEMS, v.why);
	/* the same elements in other runs: 64 runs of 256 float32 */
	d.to.sizes[0] = 1024;
	EXPECT_EQ(KBIN_OK, rule(&d, &v));
	/* float32 -> float16 with a from run of 6 bytes: 1.5 elements */
	d.from.dtype = KBIN_DMA_DTYPE_FLOAT32;
	d.to.dtype = KBIN_DMA_DTYPE_FLOAT16;
	d.from.sizes[0] = 6;
	d.from.sizes[1] = 2;
	d.to.sizes[0] = 6;
	d.to.sizes[1] = 1;
	EXPECT_EQ(KBIN_ERR_DMA_CAST_SIZE, rule(&d, &v));
	EXPECT_EQ(KBIN_DMA_WHY_FROM_RUN, v.why);
	d.from.sizes[0] = 8;	/* 4 elements in 2 runs of 2 -> 1 run of 4 */
	d.to.sizes[0] = 8;
	EXPECT_EQ(KBIN_OK, rule(&d, &v));
	/* transpose float32: equal bytes, element size, a permutation */
	memset(&d, 0, sizeof(d));
	sz[0] = 256;
	sz[1] = 128;
	d.from = side(0, 2, sz, st);
	sz[0] = 512;
	sz[1] = 64;
	d.to = side(0, 2, sz, st);
	d.from.dtype = d.to.dtype = KBIN_DMA_DTYPE_FLOAT32;
	d.op = KBIN_DMA_OP_TRANSPOSE;
	d.transpose_elem_size = 4;
	memcpy(d.transpose_op, "WZXY", 4);
	d.transpose_shape[0] = d.transpose_shape[1] = 1;
	d.transpose_shape[2] = 128;
	d.transpose_shape[3] = 64;	/* 32 KiB tiles: the 128 KiB are 4 */
	ASSERT_EQ(KBIN_OK, kbin_dma_pattern(&d.from, &pf));
	ASSERT_EQ(KBIN_OK, kbin_dma_pattern(&d.to, &pt));
	EXPECT_EQ(KBIN_OK, kbin_dma_desc_rule(&d, &pf, &pt, &v));
	EXPECT_EQ(32768ULL, v.tile);
	d.transpose_op[1] = 'W';
	EXPECT_EQ(KBIN_ERR_DMA_TRANSPOSE, kbin_dma_desc_rule(&d, &pf, &pt, &v));
	memcpy(d.transpose_op, "WZXA", 4);
	EXPECT_EQ(KBIN_ERR_DMA_TRANSPOSE, kbin_dma_desc_rule(&d, &pf, &pt, &v));
	memcpy(d.transpose_op, "XYZW", 4);
	EXPECT_EQ(KBIN_OK, kbin_dma_desc_rule(&d, &pf, &pt, &v));
	d.transpose_elem_size = 2;
	EXPECT_EQ(KBIN_ERR_DMA_TRANSPOSE, kbin_dma_desc_rule(&d, &pf, &pt, &v));
	d.transpose_elem_size = 4;
	d.to.dtype = KBIN_DMA_DTYPE_INT32;
	EXPECT_EQ(KBIN_ERR_DMA_TRANSPOSE, kbin_dma_desc_rule(&d, &pf, &pt, &v));
	d.to.dtype = KBIN_DMA_DTYPE_FLOAT32;
	pt.bytes -= 4;
	EXPECT_EQ(KBIN_ERR_DMA_TRANSPOSE, kbin_dma_desc_rule(&d, &pf, &pt, &v));
	EXPECT_EQ(KBIN_DMA_WHY_BYTES, v.why);
}

/*
 * transpose_shape: zero dimensions, products that wrap 64 bits (the
 * crafted shapes of kbin_mutate.c), products that are not a divisor of
 * the bytes; each refused with its reason, the tile only when it fits.
 */
TEST(dma_transpose_shape)
{
	__u32 sz[4] = { 256, 128 };
	uint64_t st[4] = { 1, 256 };
	struct kbin_dma_desc d = desc(KBIN_DMA_OP_TRANSPOSE, 2, sz, st);
	struct kbin_dma_verdict v;
	struct kbin_dma_pat pf, pt;
	__u64 tile;
	__u32 dim, i;

	d.from.dtype = d.to.dtype = KBIN_DMA_DTYPE_FLOAT16;
	d.transpose_elem_size = 2;
	memcpy(d.transpose_op, "WZXY", 4);
	ASSERT_EQ(KBIN_OK, kbin_dma_pattern(&d.from, &pf));
	ASSERT_EQ(KBIN_OK, kbin_dma_pattern(&d.to, &pt));
	ASSERT_EQ(32768ULL, pf.bytes);
	for (i = 0; i < kbin_num_bad_transposes; i++) {
		const struct kbin_bad_transpose *t = &kbin_bad_transposes[i];

		if (t->elem_size != 2)
			continue;
		memcpy(d.transpose_shape, t->shape, sizeof(t->shape));
		EXPECT_EQ(KBIN_ERR_DMA_TRANSPOSE, kbin_dma_desc_rule(&d, &pf, &pt, &v))
			TH_LOG("%s", t->what);
		EXPECT_NE(KBIN_DMA_WHY_NONE, v.why) TH_LOG("%s", t->what);
	}
	/* a wrapping product is an overflow, never the wrapped tile */
	memcpy(d.transpose_shape, kbin_bad_transposes[0].shape, 16);
	EXPECT_EQ(KBIN_ERR_DMA_TRANSPOSE, kbin_dma_desc_rule(&d, &pf, &pt, &v));
	EXPECT_EQ(KBIN_DMA_WHY_T_OVERFLOW, v.why);
	EXPECT_EQ(0ULL, v.tile);
	EXPECT_EQ(KBIN_DMA_WHY_T_OVERFLOW,
		  kbin_dma_tile(d.transpose_shape, 2, &tile, &dim));
	EXPECT_EQ(3U, dim);
	EXPECT_EQ(0ULL, tile);
	/* zero dimensions, named */
	d.transpose_shape[0] = 1;
	d.transpose_shape[1] = 0;
	d.transpose_shape[2] = d.transpose_shape[3] = 128;
	EXPECT_EQ(KBIN_ERR_DMA_TRANSPOSE, kbin_dma_desc_rule(&d, &pf, &pt, &v));
	EXPECT_EQ(KBIN_DMA_WHY_T_ZERO, v.why);
	EXPECT_EQ(1U, v.dim);
	/* a product that is not a divisor of the 32768 bytes */
	d.transpose_shape[1] = 1;
	d.transpose_shape[3] = 127;
	EXPECT_EQ(KBIN_ERR_DMA_TRANSPOSE, kbin_dma_desc_rule(&d, &pf, &pt, &v));
	EXPECT_EQ(KBIN_DMA_WHY_T_TILES, v.why);
	EXPECT_EQ(32512ULL, v.tile);
	/* a tile that just fits: 2 x 2^31 x (2^32 - 1); twice that does not */
	d.transpose_shape[0] = 0x80000000U;
	d.transpose_shape[1] = 0xffffffffU;
	d.transpose_shape[2] = 1;
	d.transpose_shape[3] = 1;
	EXPECT_EQ(KBIN_DMA_WHY_NONE, kbin_dma_tile(d.transpose_shape, 2, &tile, &dim));
	EXPECT_EQ(0xffffffffULL << 32, tile);
	d.transpose_shape[3] = 2;
	EXPECT_EQ(KBIN_DMA_WHY_T_OVERFLOW,
		  kbin_dma_tile(d.transpose_shape, 2, &tile, &dim));
	/* the real NEFFs' shape; two tiles of float32 [1, 1, 128, 32] */
	d.transpose_shape[0] = d.transpose_shape[1] = 1;
	d.transpose_shape[2] = d.transpose_shape[3] = 128;
	EXPECT_EQ(KBIN_OK, kbin_dma_desc_rule(&d, &pf, &pt, &v));
	EXPECT_EQ(32768ULL, v.tile);
	d.from.dtype = d.to.dtype = KBIN_DMA_DTYPE_FLOAT32;
	d.transpose_elem_size = 4;
	d.transpose_shape[3] = 32;
	EXPECT_EQ(KBIN_OK, kbin_dma_desc_rule(&d, &pf, &pt, &v));
	EXPECT_EQ(16384ULL, v.tile);
	for (i = 0; i <= KBIN_DMA_WHY_MAX; i++)
		EXPECT_STRNE("unknown", kbin_dma_why_str(i));
	EXPECT_STREQ("unknown", kbin_dma_why_str(KBIN_DMA_WHY_MAX + 1));
}

TEST_HARNESS_MAIN
