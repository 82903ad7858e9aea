// SPDX-License-Identifier: GPL-2.0
/*
 * debugfs_test - /sys/kernel/debug/neuronsim: the memrefs table agrees
 * with RESOLVE row by row; the files are root-only; a model's directory
 * goes with it; the hbm file shows the usage categories.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "plans.h"

FIXTURE(dbg) {
	int fd;
	struct neuronsim_info info;
	struct plan p;
	uint32_t id;
};

FIXTURE_SETUP(dbg)
{
	self->fd = nsim_open();
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, nsim_get_info(self->fd, &self->info));
	ASSERT_EQ(0, plan_std(&self->info, &self->p));
	ASSERT_EQ(0, nsim_load(self->fd, &self->p, 0, &self->id, NULL, NULL, 0));
}

FIXTURE_TEARDOWN(dbg)
{
	plan_free(&self->p);
	close(self->fd);
}

TEST_F(dbg, memrefs_agree_with_resolve)
{
	static const unsigned int nvars[2] = { V0_N, V1_N };
	unsigned int sg, rows;

	for (sg = 0; sg < 2; sg++) {
		char path[128], *t, *line, *save = NULL;

		dbgfs_path(path, sizeof(path), "models/%u/sg%u/memrefs",
			 self->id, sg);
		t = read_file(path, NULL);
		ASSERT_NE(NULL, t) TH_LOG("%s", path);
		line = strtok_r(t, "\n", &save);
		ASSERT_NE(NULL, line);
		EXPECT_EQ(0, strcmp(line, "var_id\tname\tkind\tdtype\tshape\tsize\talignment\tphysical_address\twhere\tmode"));
		rows = 0;
		while ((line = strtok_r(NULL, "\n", &save))) {
			char name[64], kind[32], dtype[32], shape[64], where[64];
			unsigned long long size, align, pa;
			unsigned int var;
			uint64_t a = 0;
			int ret;

			ASSERT_EQ(9, sscanf(line, "%u\t%63s\t%31s\t%31s\t%63s\t%llu\t%llu\t0x%llx\t%63s",
					    &var, name, kind, dtype, shape, &size,
					    &align, &pa, where)) TH_LOG("row: %s", line);
			ret = nsim_resolve(self->fd, self->id, sg, var, 0, 0, &a);
			if (ret == -ENODATA) {
				EXPECT_EQ(~0ULL, pa) TH_LOG("row: %s", line);
			} else {
				EXPECT_EQ(0, ret);
				EXPECT_EQ(a, pa) TH_LOG("row: %s", line);
			}
			EXPECT_EQ(0, strncmp(kind, "MR_", 3));
			rows++;
		}
		EXPECT_EQ(nvars[sg], rows);
		free(t);
	}
}

TEST_F(dbg, memrefs_columns)
{
	char path[128], *t;

	dbgfs_path(path, sizeof(path), "models/%u/sg0/memrefs", self->id);
	t = read_file(path, NULL);
	ASSERT_NE(NULL, t);
	EXPECT_NE(NULL, strstr(t, "\tweight\tMR_BUFFER\tuint8\t[1049,4]\t4196\t65536\t"));
	EXPECT_NE(NULL, strstr(t, "\talloc+copy\n"));
	EXPECT_NE(NULL, strstr(t, "\tbias\tMR_BUFFER\tbfloat16\t[500]\t1000\t256\t"));
	EXPECT_NE(NULL, strstr(t, "\talloc only\n"));
	EXPECT_NE(NULL, strstr(t, "\tsbuf0\tsbuf window\n"));
	EXPECT_NE(NULL, strstr(t, "\tscratchpad-local@hbm"));
	EXPECT_NE(NULL, strstr(t, "\tremote:sg1/1\tremote\n"));
	EXPECT_NE(NULL, strstr(t, "\t0xffffffffffffffff\t-\tindex list\n"));
	free(t);
}

TEST_F(dbg, info_hbm_device_stats)
{
	char path[128], p2[128], *t;
	struct stat sb;

	dbgfs_path(path, sizeof(path), "models/%u/info", self->id);
	t = read_file(path, NULL);
	ASSERT_NE(NULL, t);
	EXPECT_NE(NULL, strstr(t, "subgraphs 2\n"));
	EXPECT_NE(NULL, strstr(t, "carveout evtaccel"));
	free(t);
	t = read_file(dbgfs_path(p2, sizeof(p2), "hbm"), NULL);
	ASSERT_NE(NULL, t);
	EXPECT_NE(NULL, strstr(t, "WEIGHT"));
	EXPECT_NE(NULL, strstr(t, "SCRATCHPAD_NOT_SHARED"));
	EXPECT_NE(NULL, strstr(t, "backing_bytes"));
	free(t);
	ASSERT_EQ(0, stat(dbgfs_path(p2, sizeof(p2), "device"), &sb));
	EXPECT_EQ(0400, sb.st_mode & 0777);
	ASSERT_EQ(0, stat(path, &sb));
	EXPECT_EQ(0400, sb.st_mode & 0777);
	ASSERT_EQ(0, stat(dbgfs_path(p2, sizeof(p2), "fail_hbm_alloc_nth"), &sb));
	EXPECT_EQ(0600, sb.st_mode & 0777);
}

TEST_F(dbg, model_dir_goes_with_the_model)
{
	char path[128];
	struct stat sb;

	dbgfs_path(path, sizeof(path), "models/%u", self->id);
	EXPECT_EQ(0, stat(path, &sb));
	EXPECT_EQ(0, nsim_unload(self->fd, self->id));
	EXPECT_NE(0, stat(path, &sb));
}

TEST_HARNESS_MAIN
