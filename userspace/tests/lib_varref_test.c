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

TEST(ref_name_only)
{
	struct neuronsim_var_ref r;
	char err[128];

	ASSERT_EQ(0, neuronsim_var_ref_parse("input0", &r, err, sizeof(err)));
	ASSERT_EQ(0, r.by_id);
	ASSERT_EQ(0, r.has_subgraph);
	ASSERT_EQ(0, r.has_offset);
	ASSERT_EQ(0, r.has_size);
	ASSERT_STREQ("input0", r.name);
	ASSERT_EQ(0ULL, r.offset);
	ASSERT_EQ(0ULL, r.size);
}

TEST(ref_subgraph_offset_size)
{
	struct neuronsim_var_ref r;
	char err[128];

	ASSERT_EQ(0, neuronsim_var_ref_parse("sg1/w+0x40:4K", &r, err, sizeof(err)));
	ASSERT_EQ(1, r.has_subgraph);
	ASSERT_EQ(1U, r.subgraph);
	ASSERT_STREQ("w", r.name);
	ASSERT_EQ(1, r.has_offset);
	ASSERT_EQ(0x40ULL, r.offset);
	ASSERT_EQ(1, r.has_size);
	ASSERT_EQ(4096ULL, r.size);

	ASSERT_EQ(0, neuronsim_var_ref_parse("w+16", &r, err, sizeof(err)));
	ASSERT_EQ(16ULL, r.offset);
	ASSERT_EQ(0, r.has_size);
}

TEST(ref_by_id)
{
	struct neuronsim_var_ref r;
	char err[128];

	ASSERT_EQ(0, neuronsim_var_ref_parse("#7", &r, err, sizeof(err)));
	ASSERT_EQ(1, r.by_id);
	ASSERT_EQ(7U, r.var_id);
	ASSERT_EQ(0, neuronsim_var_ref_parse("sg00/#4294967295+8", &r, err, sizeof(err)));
	ASSERT_EQ(1, r.by_id);
	ASSERT_EQ(0U, r.subgraph);
	ASSERT_EQ(4294967295U, r.var_id);
	ASSERT_EQ(8ULL, r.offset);
	ASSERT_EQ(-ERANGE, neuronsim_var_ref_parse("#4294967296", &r, err, sizeof(err)));
	ASSERT_NE(NULL, strstr(err, "over 32 bits"));
	ASSERT_EQ(-EINVAL, neuronsim_var_ref_parse("#x1", &r, err, sizeof(err)));
	ASSERT_NE(NULL, strstr(err, "x1"));
	ASSERT_EQ(-EINVAL, neuronsim_var_ref_parse("#", &r, err, sizeof(err)));
}

TEST(ref_names_with_plus_and_slash)
{
	struct neuronsim_var_ref r;
	char err[128];

	/* '+' not followed by a number belongs to the name */
	ASSERT_EQ(0, neuronsim_var_ref_parse("a+b", &r, err, sizeof(err)));
	ASSERT_STREQ("a+b", r.name);
	ASSERT_EQ(0, r.has_offset);
	ASSERT_EQ(0, neuronsim_var_ref_parse("a+b+8", &r, err, sizeof(err)));
	ASSERT_STREQ("a+b", r.name);
	ASSERT_EQ(8ULL, r.offset);
	/* '/' in a name; only a leading sg<digits>/ is a subgraph */
	ASSERT_EQ(0, neuronsim_var_ref_parse("layer1/weight", &r, err, sizeof(err)));
	ASSERT_EQ(0, r.has_subgraph);
	ASSERT_STREQ("layer1/weight", r.name);
	ASSERT_EQ(0, neuronsim_var_ref_parse("sgx/w", &r, err, sizeof(err)));
	ASSERT_EQ(0, r.has_subgraph);
	ASSERT_STREQ("sgx/w", r.name);
	ASSERT_EQ(0, neuronsim_var_ref_parse("sg2/a/b", &r, err, sizeof(err)));
	ASSERT_EQ(2U, r.subgraph);
	ASSERT_STREQ("a/b", r.name);
	/* a name may start with '+' */
	ASSERT_EQ(0, neuronsim_var_ref_parse("+x", &r, err, sizeof(err)));
	ASSERT_STREQ("+x", r.name);
}

TEST(ref_errors)
{
	struct neuronsim_var_ref r;
	char err[128], name[NEURONSIM_VAR_NAME_MAX + 8];

	ASSERT_EQ(-EINVAL, neuronsim_var_ref_parse("", &r, err, sizeof(err)));
	ASSERT_NE(NULL, strstr(err, "empty"));
	ASSERT_EQ(-EINVAL, neuronsim_var_ref_parse(NULL, &r, err, sizeof(err)));
	ASSERT_EQ(-EINVAL, neuronsim_var_ref_parse("x", NULL, err, sizeof(err)));
	ASSERT_EQ(-EINVAL, neuronsim_var_ref_parse("sg1/+8", &r, err, sizeof(err)));
	ASSERT_NE(NULL, strstr(err, "empty variable name"));
	/* numeric-looking but bad suffix: reported, not eaten into the name */
	ASSERT_EQ(-EINVAL, neuronsim_var_ref_parse("w+12q", &r, err, sizeof(err)));
	ASSERT_NE(NULL, strstr(err, "12q"));
	ASSERT_EQ(-EINVAL, neuronsim_var_ref_parse("w+8:zz", &r, err, sizeof(err)));
	ASSERT_NE(NULL, strstr(err, "size 'zz'"));
	ASSERT_EQ(-ERANGE, neuronsim_var_ref_parse("w+99999999999999999999", &r, err,
						   sizeof(err)));
	ASSERT_EQ(-ERANGE, neuronsim_var_ref_parse("w+0xffffffffffffffff:2", &r, err,
						   sizeof(err)));
	ASSERT_NE(NULL, strstr(err, "overflows"));
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
