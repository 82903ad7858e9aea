// SPDX-License-Identifier: GPL-2.0
/*
 * lib_varref_test.c - host tests of libneuronsim's pure parsers:
 * neuronsim_parse_u64() and neuronsim_var_ref_parse() (VAR[+OFFSET[:SIZE]]),
 * and the option-struct size rule.
 */
#include <errno.h>
#include <string.h>

#include "kselftest_harness.h"
#include "libneuronsim.h"

TEST(parse_u64)
{
	__u64 v;

	ASSERT_EQ(0, neuronsim_parse_u64("0", &v));
	ASSERT_EQ(0ULL, v);
	ASSERT_EQ(0, neuronsim_parse_u64("4096", &v));
	ASSERT_EQ(4096ULL, v);
	ASSERT_EQ(0, neuronsim_parse_u64("0x10", &v));
	ASSERT_EQ(16ULL, v);
	ASSERT_EQ(0, neuronsim_parse_u64("4K", &v));
	ASSERT_EQ(4096ULL, v);
	ASSERT_EQ(0, neuronsim_parse_u64("2M", &v));
	ASSERT_EQ(2ULL << 20, v);
	ASSERT_EQ(0, neuronsim_parse_u64("3G", &v));
	ASSERT_EQ(3ULL << 30, v);
	ASSERT_EQ(0, neuronsim_parse_u64("18446744073709551615", &v));
	ASSERT_EQ(~0ULL, v);
	ASSERT_EQ(-ERANGE, neuronsim_parse_u64("18446744073709551616", &v));
	ASSERT_EQ(-ERANGE, neuronsim_parse_u64("0xffffffffffffffffK", &v));
	ASSERT_EQ(-EINVAL, neuronsim_parse_u64("", &v));
	ASSERT_EQ(-EINVAL, neuronsim_parse_u64("-1", &v));
	ASSERT_EQ(-EINVAL, neuronsim_parse_u64("12x", &v));
	ASSERT_EQ(-EINVAL, neuronsim_parse_u64("4KB", &v));
	ASSERT_EQ(-EINVAL, neuronsim_parse_u64(" 1", &v));
	ASSERT_EQ(-EINVAL, neuronsim_parse_u64(NULL, &v));
}

/*
 * The references neuronsim_var_ref_parse() takes, each with every field
 * it must give (absent parts read 0, a name is empty when by_id).
 */
static const struct {
	const char *ref;
	struct neuronsim_var_ref want;
} good_refs[] = {
	{ "input0", { .name = "input0" } },
	{ "sg1/w+0x40:4K", { .has_subgraph = 1, .subgraph = 1, .name = "w",
			     .has_offset = 1, .offset = 0x40,
			     .has_size = 1, .size = 4096 } },
	{ "w+16", { .name = "w", .has_offset = 1, .offset = 16 } },
	{ "#7", { .by_id = 1, .var_id = 7 } },
	{ "sg00/#4294967295+8", { .by_id = 1, .has_subgraph = 1, .subgraph = 0,
				  .var_id = 4294967295U,
				  .has_offset = 1, .offset = 8 } },
	/* '+' not followed by a number belongs to the name */
	{ "a+b", { .name = "a+b" } },
	{ "a+b+8", { .name = "a+b", .has_offset = 1, .offset = 8 } },
	/* '/' in a name; only a leading sg<digits>/ is a subgraph */
	{ "layer1/weight", { .name = "layer1/weight" } },
	{ "sgx/w", { .name = "sgx/w" } },
	{ "sg2/a/b", { .has_subgraph = 1, .subgraph = 2, .name = "a/b" } },
	/* a name may start with '+' */
	{ "+x", { .name = "+x" } },
};

TEST(ref_parsed)
{
	size_t i;

	for (i = 0; i < sizeof(good_refs) / sizeof(good_refs[0]); i++) {
		const struct neuronsim_var_ref *w = &good_refs[i].want;
		struct neuronsim_var_ref r;
		char err[128] = "";

		memset(&r, 0xa5, sizeof(r));
		ASSERT_EQ(0, neuronsim_var_ref_parse(good_refs[i].ref, &r, err, sizeof(err)))
			TH_LOG("'%s': %s", good_refs[i].ref, err);
		EXPECT_EQ(w->by_id, r.by_id) TH_LOG("'%s': by_id", good_refs[i].ref);
		EXPECT_EQ(w->has_subgraph, r.has_subgraph) TH_LOG("'%s': has_subgraph", good_refs[i].ref);
		EXPECT_EQ(w->subgraph, r.subgraph) TH_LOG("'%s': subgraph", good_refs[i].ref);
		EXPECT_EQ(w->var_id, r.var_id) TH_LOG("'%s': var_id", good_refs[i].ref);
		EXPECT_STREQ(w->name, r.name) TH_LOG("'%s': name", good_refs[i].ref);
		EXPECT_EQ(w->has_offset, r.has_offset) TH_LOG("'%s': has_offset", good_refs[i].ref);
		EXPECT_EQ(w->offset, r.offset) TH_LOG("'%s': offset", good_refs[i].ref);
		EXPECT_EQ(w->has_size, r.has_size) TH_LOG("'%s': has_size", good_refs[i].ref);
		EXPECT_EQ(w->size, r.size) TH_LOG("'%s': size", good_refs[i].ref);
	}
}

/* the references it refuses: errno and a part of the message (or NULL) */
static const struct {
	const char *ref;
	int err;
	const char *says;
} bad_refs[] = {
	{ "", -EINVAL, "empty" },
	{ NULL, -EINVAL, NULL },
	{ "sg1/+8", -EINVAL, "empty variable name" },
	{ "#4294967296", -ERANGE, "over 32 bits" },
	{ "#x1", -EINVAL, "x1" },
	{ "#", -EINVAL, NULL },
	/* numeric-looking but bad suffix: reported, not eaten into the name */
	{ "w+12q", -EINVAL, "12q" },
	{ "w+8:zz", -EINVAL, "size 'zz'" },
	{ "w+99999999999999999999", -ERANGE, NULL },
	{ "w+0xffffffffffffffff:2", -ERANGE, "overflows" },
};

TEST(ref_errors)
{
	struct neuronsim_var_ref r;
	char err[128], name[NEURONSIM_VAR_NAME_MAX + 8];
	size_t i;

	for (i = 0; i < sizeof(bad_refs) / sizeof(bad_refs[0]); i++) {
		const char *ref = bad_refs[i].ref ? bad_refs[i].ref : "(NULL)";

		err[0] = '\0';
		EXPECT_EQ(bad_refs[i].err, neuronsim_var_ref_parse(bad_refs[i].ref, &r, err,
								    sizeof(err)))
			TH_LOG("'%s': %s", ref, err);
		if (bad_refs[i].says) {
			EXPECT_NE(NULL, strstr(err, bad_refs[i].says))
				TH_LOG("'%s': '%s' does not say '%s'", ref, err, bad_refs[i].says);
		}
	}
	ASSERT_EQ(-EINVAL, neuronsim_var_ref_parse("x", NULL, err, sizeof(err)));
	memset(name, 'n', sizeof(name) - 1);
	name[NEURONSIM_VAR_NAME_MAX] = '\0';
	ASSERT_EQ(-ENAMETOOLONG, neuronsim_var_ref_parse(name, &r, err, sizeof(err)));
	name[NEURONSIM_VAR_NAME_MAX - 1] = '\0';
	ASSERT_EQ(0, neuronsim_var_ref_parse(name, &r, NULL, 0));
}

TEST(names)
{
	ASSERT_STREQ("MR_SB", neuronsim_mr_type_str(KBIN_MR_SB));
	ASSERT_STREQ("MR_REMOTE", neuronsim_mr_type_str(KBIN_MR_REMOTE));
	ASSERT_STREQ("MR_UNKNOWN", neuronsim_mr_type_str(99));
	ASSERT_STREQ("sbuf", neuronsim_mem_region(KBIN_MR_SB));
	ASSERT_STREQ("scratchpad", neuronsim_mem_region(KBIN_MR_VIRTUAL_TMP_BUF));
	ASSERT_STREQ("hbm", neuronsim_mem_region(KBIN_MR_BUFFER));
	ASSERT_STREQ("none", neuronsim_mem_region(KBIN_MR_LIST));
	ASSERT_STREQ("psum", neuronsim_mem_region(KBIN_MR_PSUM));
	ASSERT_STREQ("checksum mismatch", neuronsim_reason_str(KBIN_ERR_CHECKSUM));
	ASSERT_STREQ("HBM exhausted", neuronsim_reason_str(KBIN_ERR_STAGE_HBM));
	ASSERT_STREQ("unknown reason", neuronsim_reason_str(1000));
}

/* the text of a failed resolve: the runtime's words, then ours */
TEST(resolve_strerror)
{
	char b[NEURONSIM_RESOLVE_STRERROR_MAX];
	char *r = neuronsim_resolve_strerror(-ERANGE, "weight", KBIN_MR_BUFFER,
					     4196, 4190, 16, b, sizeof(b));

	ASSERT_EQ(&b[0], r);
	EXPECT_STREQ("invalid offset in weight, 4196 < (4190 + 16); the access ends at byte 4206, past the 4196 bytes of 'weight' (MR_BUFFER)", b);
	neuronsim_resolve_strerror(-ENODATA, "list", KBIN_MR_LIST, 12, 0, 0, b,
				   sizeof(b));
	EXPECT_EQ(0, strncmp(b, "Variable list is not staged in HBM; ", 36)) TH_LOG("%s", b);
	EXPECT_EQ(NULL, neuronsim_resolve_strerror(-ERANGE, "w", KBIN_MR_BUFFER,
						   1, 1, 1, NULL, 16));
}

TEST(opts_size_rule)
{
	struct {
		struct neuronsim_open_opts o;
		char tail[8];
	} big;

	/* a newer caller's larger struct: zero tail accepted, else -E2BIG */
	memset(&big, 0, sizeof(big));
	big.o.sz = sizeof(big);
	big.o.path = "/nonexistent/neuronsim";
	ASSERT_EQ(-ENOENT, neuronsim_open(&big.o));
	big.tail[3] = 1;
	ASSERT_EQ(-E2BIG, neuronsim_open(&big.o));
	/* sz smaller than the sz member */
	big.o.sz = 1;
	ASSERT_EQ(-EINVAL, neuronsim_open(&big.o));
	/* an older caller's struct that stops before path: default path */
	big.o.sz = sizeof(size_t);
	ASSERT_NE(-E2BIG, neuronsim_open(&big.o));
}

TEST(bad_fd_and_args)
{
	struct neuronsim_info info;
	__u64 addr;
	__u32 id;

	ASSERT_EQ(-EBADF, neuronsim_get_info(-1, &info));
	ASSERT_EQ(-EINVAL, neuronsim_get_info(0, NULL));
	ASSERT_EQ(-EINVAL, neuronsim_load(-1, NULL, 1, NULL, &id));
	ASSERT_EQ(-EINVAL, neuronsim_load(-1, "x", 0, NULL, &id));
	ASSERT_EQ(-EBADF, neuronsim_load(-1, "x", 1, NULL, &id));
	ASSERT_EQ(-EINVAL, neuronsim_resolve(-1, 1, 0, 0, 0, 0, NULL));
	ASSERT_EQ(-EBADF, neuronsim_resolve(-1, 1, 0, 0, 0, 0, &addr));
	ASSERT_EQ(-EINVAL, neuronsim_resolve_batch(-1, 1, NULL, 1, NULL));
	ASSERT_EQ(-EINVAL, neuronsim_read_var(-1, 1, 0, 0, 0, NULL, 1));
	ASSERT_EQ(-EBADF, neuronsim_unload(-1, 1));
	ASSERT_EQ(-ENOENT, neuronsim_load_file(-1, "/nonexistent/plan.kbin", NULL, &id));
	ASSERT_EQ(-EISDIR, neuronsim_load_file(-1, "/", NULL, &id));
	ASSERT_EQ(-EINVAL, neuronsim_nl_open(NULL));
	ASSERT_EQ(-EINVAL, neuronsim_nl_event_fd(NULL));
}

TEST_HARNESS_MAIN
