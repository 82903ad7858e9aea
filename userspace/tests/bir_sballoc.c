// SPDX-License-Identifier: GPL-2.0
/*
 * bir_sballoc.c - the order-40 SBUF allocator: never over reserved or
 * allocated locations, partition ranges respected, a clear error when
 * SBUF is exhausted.
 */
#include "kselftest_harness.h"
#include "bir_test.h"

static struct bir_module *mk(uint64_t a_bytes, uint64_t b_bytes)
{
	char buf[1024];

	snprintf(buf, sizeof(buf),
		 "{\"arch\": \"trn2\", \"functions\": [{\"name\": \"main\", \"allocations\": ["
		 "{\"Skind\": \"memory_location_set\", \"name\": \"a\", \"memorylocations\": [{\"name\": \"a\", \"type\": \"SB\", \"dims\": [128, %llu]}]},"
		 "{\"Skind\": \"memory_location_set\", \"name\": \"b\", \"memorylocations\": [{\"name\": \"b\", \"type\": \"SB\", \"dims\": [64, %llu]}]},"
		 "{\"Skind\": \"memory_location_set\", \"name\": \"c\", \"memorylocations\": [{\"name\": \"c\", \"type\": \"SB\", \"base\": 64, \"dims\": [64, 100]}]}]}]}",
		 (unsigned long long)a_bytes, (unsigned long long)b_bytes);
	return bt_parse(buf);
}

TEST(places_around_reservation)
{
	struct bir_module *m = mk(1000, 229368 - 1000);
	struct nscc_err err = { { 0 } };
	struct bir_opts o = { 0 };
	struct bir_memloc *a, *b, *c, *r;

	ASSERT_NE(NULL, m);
	ASSERT_EQ(0, bir_pass_rtmemres(m, &o, false, &err));
	ASSERT_EQ(0, bir_pass_sballoc(m, &o, false, &err));
	a = bir_memloc_find(m->fns[0], "a");
	b = bir_memloc_find(m->fns[0], "b");
	c = bir_memloc_find(m->fns[0], "c");
	r = bir_memloc_find(m->fns[0], BIR_EVTACCEL_NAME);
	EXPECT_EQ(0, a->addr);
	EXPECT_EQ(1000, b->addr);	/* fills up to the reservation */
	EXPECT_LE(b->addr + b->dims[1], r->addr);
	EXPECT_EQ(1000, c->addr);	/* other partitions: next to a */
	EXPECT_TRUE(m->sb_allocated);
	EXPECT_EQ(0, bt_golden(m, "sballoc.after.json"));
	bir_module_free(m);
}

TEST(exhausted)
{
	struct bir_module *m = mk(1000, 229368 - 999);
	struct nscc_err err = { { 0 } };
	struct bir_opts o = { 0 };

	ASSERT_NE(NULL, m);
	ASSERT_EQ(0, bir_pass_rtmemres(m, &o, false, &err));
	EXPECT_EQ(-ENOSPC, bir_pass_sballoc(m, &o, false, &err));
	EXPECT_STREQ("function 'main': SBUF exhausted placing memory location 'b' (228369 bytes per partition on partitions 0..63): largest free range is 228368 of 229376 bytes",
		     err.msg);
	bir_module_free(m);
}

TEST(partition_range)
{
	const char *j = "{\"arch\": \"trn2\", \"functions\": [{\"name\": \"main\", \"allocations\": [{\"Skind\": \"memory_location_set\", \"name\": \"a\", \"memorylocations\": [{\"name\": \"a\", \"type\": \"SB\", \"base\": 100, \"dims\": [64, 8]}]}]}]}";
	struct bir_module *m = bt_parse(j);
	struct nscc_err err = { { 0 } };
	struct bir_opts o = { 0 };

	ASSERT_NE(NULL, m);
	EXPECT_EQ(-EINVAL, bir_pass_sballoc(m, &o, false, &err));
	EXPECT_STREQ("function 'main': memory location 'a': partitions 64 from base 100 exceed 128",
		     err.msg);
	bir_module_free(m);
}

TEST_HARNESS_MAIN
