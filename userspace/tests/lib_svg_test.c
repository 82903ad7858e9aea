// SPDX-License-Identifier: GPL-2.0
/*
 * lib_svg_test.c - host tests of neuronsim_map_svg(): the document is
 * well-formed XML (xmllint --noout), every variable gets a rect with a
 * <title>, names with markup and odd bytes are escaped, regions get
 * their bands.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "libneuronsim.h"
#include "tl_text.h"

static void trn2_info(struct neuronsim_info *info)
{
	unsigned int i;

	memset(info, 0, sizeof(*info));
	strcpy(info->arch_name, "trn2");
	info->arch_gen = 3;
	info->num_cores = 8;
	info->num_hbm_channels = 4;
	info->hbm_channel_size = 24ULL << 30;
	for (i = 0; i < 4; i++)
		info->hbm_base[i] = 0x1000000000ULL * (i + 1);
	info->sbuf_base = 0x100000000ULL;
	info->sbuf_window_size = 0x2000000ULL;
}

/* write the SVG to a temp file, run xmllint on it; return its text */
static char *render(struct __test_metadata *_metadata,
		    const struct neuronsim_map_var *v, size_t n, char *path)
{
	struct neuronsim_info info;
	char cmd[300], *text;
	FILE *f;
	long len;
	int fd;

	trn2_info(&info);
	strcpy(path, "/tmp/lib_svg_test.XXXXXX");
	fd = mkstemp(path);
	ASSERT_GE(fd, 0);
	f = fdopen(fd, "w+");
	ASSERT_NE(NULL, f);
	ASSERT_EQ(0, neuronsim_map_svg(f, &info, v, n, NULL));
	snprintf(cmd, sizeof(cmd), "xmllint --noout %s", path);
	EXPECT_EQ(0, system(cmd));
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	text = calloc(1, len + 1);
	ASSERT_NE(NULL, text);
	ASSERT_EQ((size_t)len, fread(text, 1, len, f));
	fclose(f);
	return text;
}

TEST(all_regions_and_titles)
{
	const struct neuronsim_map_var v[] = {
		{ "state", 0, 0, KBIN_MR_SB, 0x100000, 0x100000000ULL, true },
		{ "w<1>&\"q'", 0, 1, KBIN_MR_BUFFER, 65536, 0x1000000000ULL, true },
		{ "in", 0, 2, KBIN_MR_INPUT, 4096, 0x1000010000ULL, true },
		{ "ptr", 0, 3, KBIN_MR_PTR, 8, 0x1000010000ULL, true },
		{ "vt", 0, 4, KBIN_MR_VIRTUAL_TMP_BUF, 8192, 0x1000100000ULL, true },
		{ "list", 0, 5, KBIN_MR_LIST, 12, 0, false },
		{ "sb1", 1, 0, KBIN_MR_SB, 4096, 0x102000000ULL, true },
		{ "h2", 1, 1, KBIN_MR_TMP_BUF, 4096, 0x3000000000ULL, true },
		{ "ctl\x01\xc3\xa9", 1, 2, KBIN_MR_OUTPUT, 64, 0x3000001000ULL, true },
	};
	char path[64];
	char *svg = render(_metadata, v, sizeof(v) / sizeof(v[0]), path);

	/* 8 staged vars drawn with a title each, plus the document title */
	EXPECT_EQ(8, tl_count(svg, "<rect class=\"var\""));
	EXPECT_EQ(9, tl_count(svg, "<title>"));
	/* the bands, a title escaped, the var without storage */
	EXPECT_EQ(0, tl_missing(svg, (const char *const []){
		"HBM channel 0", "HBM channel 2", "SBUF NeuronCore 0",
		"SBUF NeuronCore 1", "scratchpad",
		"sg0/w&lt;1&gt;&amp;&quot;q&apos; #1 MR_BUFFER",
		"1 without storage", "MR_LIST (none)", NULL }));
	EXPECT_EQ(NULL, strstr(svg, "\x01"));
	free(svg);
	unlink(path);
}

TEST(empty_and_errors)
{
	struct neuronsim_info info;
	char path[64];
	char *svg = render(_metadata, NULL, 0, path);
	struct {
		struct neuronsim_map_opts o;
		int extra;
	} big = { { .sz = sizeof(big) }, 1 };

	EXPECT_EQ(0, tl_count(svg, "<rect class=\"var\""));
	free(svg);
	unlink(path);
	trn2_info(&info);
	EXPECT_EQ(-EINVAL, neuronsim_map_svg(NULL, &info, NULL, 0, NULL));
	EXPECT_EQ(-EINVAL, neuronsim_map_svg(stdout, NULL, NULL, 0, NULL));
	EXPECT_EQ(-EINVAL, neuronsim_map_svg(stdout, &info, NULL, 3, NULL));
	EXPECT_EQ(-E2BIG, neuronsim_map_svg(stdout, &info, NULL, 0, &big.o));
}

TEST(many_overlapping)
{
	struct neuronsim_map_var v[200];
	char path[64], *svg;
	int i;

	for (i = 0; i < 200; i++)
		v[i] = (struct neuronsim_map_var){
			.name = "x", .var_id = i, .mr_type = 1 + i % KBIN_MR_TYPE_MAX,
			.size = 4096, .address = 0x2000000000ULL + (i / 3) * 1024,
			.staged = true,
		};
	/* MR_SB at an HBM address is drawn in the HBM band all the same */
	svg = render(_metadata, v, 200, path);
	EXPECT_EQ(200, tl_count(svg, "<rect class=\"var\""));
	free(svg);
	unlink(path);
}

TEST_HARNESS_MAIN
