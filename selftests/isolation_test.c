// SPDX-License-Identifier: GPL-2.0
/*
 * isolation_test - models belong to the fd that loaded them
 * (Documentation/uapi.rst): every other fd gets -ENOENT; closing the fd unloads them
 * (stats and debugfs back to the baseline); rmmod is refused while a
 * model is loaded.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "plans.h"

FIXTURE(iso) {
	STD_FIXTURE_FIELDS;
	int other;
};

FIXTURE_SETUP(iso)
{
	self->other = nsim_open();
	ASSERT_LE(0, self->other);
	STD_FIXTURE_LOAD(self);
}

FIXTURE_TEARDOWN(iso)
{
	STD_FIXTURE_FREE(self);
	close(self->other);
}

TEST_F(iso, other_fd_sees_nothing)
{
	struct neuronsim_model_info mi = { .model_id = self->id };
	struct neuronsim_resolve_entry e = { .var_id = V0_IN };
	struct neuronsim_resolve_batch b = {
		.model_id = self->id, .count = 1, .entries = (uintptr_t)&e,
	};
	uint8_t buf[16];

	EXPECT_EQ(0, nsim_resolve(self->fd, self->id, 0, V0_IN, 0, 0, NULL));
	EXPECT_EQ(-ENOENT, nsim_resolve(self->other, self->id, 0, V0_IN, 0, 0, NULL));
	EXPECT_EQ(-ENOENT, nsim_read_var(self->other, self->id, 0, V0_IN, 0, buf, 16));
	EXPECT_EQ(-ENOENT, nsim_write_var(self->other, self->id, 0, V0_IN, 0, buf, 16));
	EXPECT_EQ(ENOENT, ioctl_errno(self->other, NEURONSIM_IOC_MODEL_INFO, &mi));
	EXPECT_EQ(ENOENT, ioctl_errno(self->other, NEURONSIM_IOC_RESOLVE_BATCH, &b));
	EXPECT_EQ(-ENOENT, nsim_unload(self->other, self->id));
	/* still there for its owner */
	EXPECT_EQ(0, nsim_resolve(self->fd, self->id, 0, V0_IN, 0, 0, NULL));
}

TEST_F(iso, other_process_sees_nothing)
{
	pid_t pid = fork();
	int st;

	ASSERT_LE(0, pid);
	if (!pid) {
		int fd = nsim_open();

		_exit(nsim_resolve(fd, self->id, 0, V0_IN, 0, 0, NULL) == -ENOENT ? 0 : 1);
	}
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

TEST_F(iso, close_unloads)
{
	struct stats before, loaded, after;
	char path[128];
	struct stat sb;
	uint32_t id2;
	int fd2 = nsim_open();

	ASSERT_LE(0, fd2);
	ASSERT_EQ(0, read_stats(&before));
	ASSERT_EQ(0, nsim_load(fd2, &self->p, 0, &id2, NULL, NULL, 0));
	ASSERT_EQ(0, read_stats(&loaded));
	EXPECT_EQ(before.models + 1, loaded.models);
	EXPECT_EQ(before.mem_refs + V0_N + V1_N, loaded.mem_refs);
	EXPECT_LT(before.hbm_used, loaded.hbm_used);
	EXPECT_LT(before.kmem_bytes, loaded.kmem_bytes);
	dbgfs_path(path, sizeof(path), "models/%u/info", id2);
	EXPECT_EQ(0, stat(path, &sb));
	close(fd2);
	ASSERT_EQ(0, read_stats(&after));
	EXPECT_EQ(before.models, after.models);
	EXPECT_EQ(before.mem_refs, after.mem_refs);
	EXPECT_EQ(before.kmem_bytes, after.kmem_bytes);
	EXPECT_EQ(before.hbm_used, after.hbm_used);
	EXPECT_EQ(before.backing_bytes, after.backing_bytes);
	dbgfs_path(path, sizeof(path), "models/%u", id2);
	EXPECT_NE(0, stat(path, &sb));
}

TEST_F(iso, rmmod_refused_while_loaded)
{
	EXPECT_NE(0, system("rmmod neuronsim 2>/dev/null"));
	EXPECT_EQ(0, access("/dev/neuronsim", F_OK));
	EXPECT_EQ(0, nsim_resolve(self->fd, self->id, 0, V0_IN, 0, 0, NULL));
}

NSIM_HARNESS_MAIN
