// SPDX-License-Identifier: GPL-2.0
/*
 * bir_psum.c - address_rotation_psum (order 46,
 * Documentation/compiler-passes.rst): PSUM locations placed bank by
 * bank in rotation, in the order of first use; fixed ones kept; the
 * refusals.
 */
#include "kselftest_harness.h"
#include "bir_test.h"
#include "cc_testutil.h"
#include "kbin_gen.h"

/* a PSUM location @n of @parts partitions x @bytes, extra JSON @x */
static size_t loc(char *buf, size_t cap, const char *n, int parts, int bytes,
		  const char *x)
{
	return (size_t)snprintf(buf, cap, "%s{\"Skind\": \"memory_location_set\", \"name\": \"%s\","
				" \"dtype\": \"float32\", \"memorylocations\": [{\"name\": \"%s\","
				" \"type\": \"PSUM\", \"dims\": [%d, %d]%s}]}",
				cap ? "" : "", n, n, parts, bytes, x);
}

/*
 * A trn2 module whose one function declares the PSUM locations @decl
 * ("name:partitions:bytes[:fixed|:pinned]" items, "fixed" = allocated
 * and pinned at bank 4, "pinned" = pinned, not allocated, at bank 0
 * addr 0) and writes them with a Memset each, in the order @use.
 */
static struct bir_module *psum_module(const char *const *decl, int ndecl,
				      const char *const *use, int nuse)
{
	static char text[65536];
	size_t o = 0;

	o += (size_t)snprintf(text + o, sizeof(text) - o,
			      "{\"arch\": \"trn2\", \"functions\": [{\"name\": \"main\", \"allocations\": [");
	for (int k = 0; k < ndecl; k++) {
		char name[32];
		int parts, bytes;
		bool fixed = strstr(decl[k], ":fixed") != NULL;
		bool pinned = strstr(decl[k], ":pinned") != NULL;

		if (sscanf(decl[k], "%31[^:]:%d:%d", name, &parts, &bytes) != 3)
			return NULL;
		if (k)
			o += (size_t)snprintf(text + o, sizeof(text) - o, ", ");
		o += loc(text + o, sizeof(text) - o, name, parts, bytes,
			 fixed ? ", \"allocated\": true, \"pinned\": true, \"bank\": 4, \"addr\": 8192" :
			 pinned ? ", \"pinned\": true, \"bank\": 0, \"addr\": 0" : "");
	}
	o += (size_t)snprintf(text + o, sizeof(text) - o,
			      "], \"blocks\": [{\"name\": \"b\", \"instructions\": [");
	for (int k = 0; k < nuse; k++)
		o += (size_t)snprintf(text + o, sizeof(text) - o,
				      "%s{\"name\": \"set_%s\", \"opcode\": \"Memset\", \"engine\": \"POOL\","
				      " \"outs\": [{\"Skind\": \"physical_ap\", \"memref\": \"%s\","
				      " \"ap\": [[1, 128], [1, 8]]}], \"value\": 0.0}",
				      k ? ", " : "", use[k], use[k]);
	snprintf(text + o, sizeof(text) - o, "]}]}]}");
	return bt_parse(text);
}

struct want {
	const char *name;
	uint32_t bank;
	uint64_t addr;
};

/*
 * First use c, a, d, b: banks 0, 1, 2, 3; bank 4 holds the fixed
 * location, so e1 goes to 5, then 6, 7, and e4, e5 back to banks 0 and
 * 1 after c and a; u, used by nothing, comes last (bank 2, after d)
 */
TEST(banks_in_rotation_by_first_use)
{
	static const char *const decl[] = {
		"a:128:1024", "b:128:1024", "c:128:1024", "d:128:1024",
		"fixed:128:2048:fixed", "e1:128:1024", "e2:128:1024",
		"e3:128:1024", "e4:128:1024", "e5:128:1024", "u:128:8",
	};
	static const char *const use[] = {
		"c", "a", "d", "b", "fixed", "e1", "e2", "e3", "e4", "e5",
	};
	static const struct want want[] = {
		{ "c", 0, 0 }, { "a", 1, 2048 }, { "d", 2, 4096 },
		{ "b", 3, 6144 }, { "fixed", 4, 8192 }, { "e1", 5, 10240 },
		{ "e2", 6, 12288 }, { "e3", 7, 14336 }, { "e4", 0, 1024 },
		{ "e5", 1, 3072 }, { "u", 2, 5120 },
	};
	struct bir_module *m = psum_module(decl, 11, use, 10);
	struct nscc_err err = { { 0 } };
	FILE *log = tmpfile();
	struct bir_opts o = { .log = log };
	char *text;

	ASSERT_NE(NULL, m);
	ASSERT_EQ(0, bt_passes(m, &o, &err));
	for (size_t k = 0; k < sizeof(want) / sizeof(want[0]); k++) {
		const struct bir_memloc *ml = bir_memloc_find(m->fns[0], want[k].name);

		ASSERT_NE(NULL, ml);
		EXPECT_TRUE(ml->allocated) TH_LOG("%s", want[k].name);
		EXPECT_EQ(want[k].bank, ml->bank) TH_LOG("%s", want[k].name);
		EXPECT_EQ(want[k].addr, ml->addr) TH_LOG("%s", want[k].name);
	}
	text = bt_slurp(log);
	EXPECT_NE(NULL, strstr(text, "address_rotation_psum: c -> bank 0 addr 0\n"
			       "address_rotation_psum: a -> bank 1 addr 2048\n"));
	EXPECT_NE(NULL, strstr(text, "pass 46 address_rotation_psum: "));
	EXPECT_NE(NULL, strstr(strstr(text, "pass 42 coalesce_multichannel_cc_ops"),
			       "pass 46 address_rotation_psum"));
	free(text);
	fclose(log);
	/* and the JSON says so */
	text = bir_module_to_string(m);
	EXPECT_NE(NULL, strstr(text, "\"bank\": 7,"));
	free(text);
	bir_module_free(m);
}

#define FULL(k)	"p" #k ":128:1024"

/*
 * too wide for a bank, outside the partitions, and PSUM full (8 banks of
 * 2 x 1024 bytes: the 17th has no room): named
 */
static const struct {
	const char *decl[17], *use[1];
	int ndecl, nuse, rc;
	const char *msg;
} bads[] = {
	{ { "w:128:4096" }, { "w" }, 1, 1, -EINVAL,
	  "function 'main': PSUM location 'w': 4096 bytes per partition, a PSUM bank holds 1..2048" },
	{ { "t:129:64" }, { "t" }, 1, 1, -EINVAL,
	  "function 'main': PSUM location 't': partitions 129 from base 0 are outside the 128 PSUM partitions of trn2" },
	{ { FULL(0), FULL(1), FULL(2), FULL(3), FULL(4), FULL(5), FULL(6),
	    FULL(7), FULL(8), FULL(9), FULL(10), FULL(11), FULL(12), FULL(13),
	    FULL(14), FULL(15), FULL(16) }, { NULL }, 17, 0, -ENOSPC,
	  "function 'main': PSUM exhausted placing memory location 'p16' (1024 bytes per partition on partitions 0..127): no bank of 8 has room" },
};

TEST(refusals)
{
	for (size_t k = 0; k < sizeof(bads) / sizeof(bads[0]); k++) {
		struct bir_module *m = psum_module(bads[k].decl,
						   bads[k].ndecl,
						   bads[k].use,
						   bads[k].nuse);

		ASSERT_NE(NULL, m);
		EXPECT_EQ(0, bt_refused(m, NULL, bir_pass_psum_rotation, false,
					bads[k].rc, bads[k].msg));
		bir_module_free(m);
	}
}

/*
 * A pinned location keeps its address whether or not it is marked
 * allocated, and so no other location is placed over it: a, first used,
 * goes to bank 0 after pin's 1024 bytes.  It was placed at bank 0 addr 0,
 * on pin's bytes.
 */
TEST(pinned_location_is_never_placed_over)
{
	static const char *const decl[] = { "pin:128:1024:pinned", "a:128:1024" };
	static const char *const use[] = { "a", "pin" };
	const struct bir_memloc *a, *pin;
	struct nscc_err err = { { 0 } };
	struct bir_opts o = { 0 };
	struct bir_module *m = psum_module(decl, 2, use, 2);

	ASSERT_NE(NULL, m);
	ASSERT_EQ(0, bir_pass_psum_rotation(m, &o, false, &err)) TH_LOG("%s", err.msg);
	a = bir_memloc_find(m->fns[0], "a");
	pin = bir_memloc_find(m->fns[0], "pin");
	ASSERT_TRUE(a && pin);
	EXPECT_EQ(0, pin->addr);
	EXPECT_FALSE(pin->allocated);
	EXPECT_TRUE(a->allocated);
	EXPECT_EQ(0, a->bank);
	EXPECT_EQ(1024, a->addr);
	bir_module_free(m);
}

#define MANY_PSUM	8192
#define MANY_PARTS	4

/*
 * The placement is linear in the locations: MANY_PSUM 8-byte locations,
 * partition k mod MANY_PARTS, first used in order and declared in the
 * reverse order, fill MANY_PARTS partitions of every bank, none on
 * another's bytes, within 2 s of CPU under ASan.  A first fit that walked every location of the
 * function again each time it moved past one took 31 s at -O2 (cubic in
 * the locations of one partition).
 */
TEST(many_locations_in_linear_time)
{
	struct cc_buf t = { 0 };
	struct bir_module *m;
	const struct bir_memloc *ml;
	double secs;

	cc_put(&t, "{\"arch\": \"trn2\", \"functions\": [{\"name\": \"main\", \"allocations\": [");
	for (int k = MANY_PSUM - 1; k >= 0; k--)
		cc_put(&t, "%s{\"Skind\": \"memory_location_set\", \"name\": \"p%d\","
		       " \"dtype\": \"float32\", \"memorylocations\": [{\"name\": \"p%d\","
		       " \"type\": \"PSUM\", \"dims\": [1, 8], \"base\": %d}]}",
		       k == MANY_PSUM - 1 ? "" : ", ", k, k, k % MANY_PARTS);
	cc_put(&t, "], \"blocks\": [{\"name\": \"b\", \"instructions\": [");
	for (int k = 0; k < MANY_PSUM; k++)
		cc_put(&t, "%s{\"name\": \"set%d\", \"opcode\": \"Memset\", \"engine\": \"POOL\","
		       " \"outs\": [{\"Skind\": \"physical_ap\", \"memref\": \"p%d\","
		       " \"ap\": [[1, 1], [1, 2]]}], \"value\": 0.0}", k ? ", " : "", k, k);
	cc_put(&t, "]}]}]}");
	ASSERT_FALSE(t.oom);
	m = bt_parse(t.p);
	free(t.p);
	ASSERT_NE(NULL, m);
	ASSERT_EQ(0, bt_timed(m, bir_pass_psum_rotation, false, &secs));
	TH_LOG("%d PSUM locations: %.2f s of CPU", MANY_PSUM, secs);
	EXPECT_GT(2.0, secs);
	/*
	 * location k on partition k mod MANY_PARTS takes bank k mod 8 while
	 * its partition has room there (the first 2048), then what is left;
	 * every partition ends full: its 2048 locations at distinct offsets
	 */
	for (int q = 0; q < MANY_PARTS; q++) {
		static uint8_t used[8 * KBIN_PSUM_BANK_SIZE / 8];

		memset(used, 0, sizeof(used));
		for (int k = q; k < MANY_PSUM; k += MANY_PARTS) {
			char n[16];

			snprintf(n, sizeof(n), "p%d", k);
			ml = bir_memloc_find(m->fns[0], n);
			ASSERT_NE(NULL, ml);
			ASSERT_TRUE(ml->allocated);
			ASSERT_EQ(0, ml->addr % 8);
			ASSERT_GT(8 * KBIN_PSUM_BANK_SIZE, ml->addr);
			EXPECT_EQ(ml->bank, ml->addr / KBIN_PSUM_BANK_SIZE);
			EXPECT_EQ(0, used[ml->addr / 8]) TH_LOG("%s", n);
			used[ml->addr / 8] = 1;
			if (k < 2048)
				EXPECT_EQ((uint32_t)(k % 8), ml->bank) TH_LOG("%s", n);
		}
	}
	bir_module_free(m);
}

TEST_HARNESS_MAIN
