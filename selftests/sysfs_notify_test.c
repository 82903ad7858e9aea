// SPDX-License-Identifier: GPL-2.0
/*
 * sysfs_notify_test - the sysfs counters' change notification
 * (Documentation/sysfs.rst, "Notification"): with info/notify_delay 0, a
 * poll() for POLLPRI on a counter file read once wakes when the counter
 * moves - a failing LOAD from another thread (status/failure/total), a
 * device tensor charged (device_mem/present), a write that clears it -
 * and with notify_delay -1 (the default) it does not; notify_delay
 * refuses anything but 0 and -1; a user other than root can write
 * neither a counter nor notify_delay.  Device ${NSIM_DEV:-0}.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <libneuronsim.h>

#include "kselftest_harness.h"
#include "plans.h"

/* how long a wake may take, ms, and how long "no wake" is watched */
#define WAKE_MS		(5000 * (int)nsim_time_scale())
#define QUIET_MS	300

/* the device's sysfs tree + @rel into @buf */
static void tree_path(char *buf, size_t size, const char *rel)
{
	char root[64];
	int d = nsim_dev_index();

	if (neuronsim_sysfs_path(d < 0 ? 0 : d, root, sizeof(root)))
		snprintf(root, sizeof(root), "(no tree)");
	snprintf(buf, size, "%s/%s", root, rel);
}

#define FAILURE_TOTAL	"neuron_core0/stats/status/failure/total"
#define FAILURE_PRESENT	"neuron_core0/stats/status/failure/present"
#define DEVMEM_PRESENT	"neuron_core0/stats/memory_usage/device_mem/present"
#define NOTIFY_DELAY	"info/notify_delay"

/* open a tree file and read it once, as a poller must; -1 on error */
static int open_armed(const char *rel)
{
	char path[256], buf[64];
	int fd;

	tree_path(path, sizeof(path), rel);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0 && read(fd, buf, sizeof(buf)) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* the number in @fd from its start */
static long long reread(int fd)
{
	char buf[64];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return strtoll(buf, NULL, 10);
}

/* poll @fd for a sysfs notification for up to @ms: its revents, 0, -1 */
static int wait_notify(int fd, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLPRI | POLLERR };
	int n = poll(&p, 1, ms);

	return n < 0 ? -1 : n ? p.revents : 0;
}

static int set_notify_delay(const char *v)
{
	char path[256];

	tree_path(path, sizeof(path), NOTIFY_DELAY);
	return write_text(path, v);
}

/* a LOAD the checker refuses (not a KBIN plan): counted on core 0 */
static int failing_load(void)
{
	static const char junk[64] = "not a plan";
	__u32 id;
	int fd = nsim_open(), ret;

	if (fd < 0)
		return -errno;
	ret = neuronsim_load(fd, junk, sizeof(junk), NULL, &id);
	close(fd);
	return ret;
}

static void *late_failing_load(void *arg)
{
	struct timespec t = { .tv_nsec = 100 * 1000 * 1000 };

	nanosleep(&t, NULL);
	*(int *)arg = failing_load();
	return NULL;
}

FIXTURE(notify) {
	int unused;
};

FIXTURE_SETUP(notify)
{
	ASSERT_EQ(0, set_notify_delay("0"));
}

FIXTURE_TEARDOWN(notify)
{
	EXPECT_EQ(0, set_notify_delay("-1"));
}

TEST_F(notify, failing_load_from_another_thread_wakes_poll)
{
	int fd = open_armed(FAILURE_TOTAL), ret = 0, ev;
	long long before;
	pthread_t th;

	ASSERT_LE(0, fd);
	before = reread(fd);
	ASSERT_LE(0, before);
	EXPECT_EQ(0, wait_notify(fd, 0)) TH_LOG("an event before any change");
	ASSERT_EQ(0, pthread_create(&th, NULL, late_failing_load, &ret));
	ev = wait_notify(fd, WAKE_MS);
	ASSERT_EQ(0, pthread_join(th, NULL));
	EXPECT_EQ(-EINVAL, ret);
	EXPECT_TRUE(ev > 0 && (ev & POLLPRI)) TH_LOG("revents %#x", ev);
	EXPECT_EQ(before + 1, reread(fd));
	close(fd);
}

TEST_F(notify, device_tensor_wakes_device_mem)
{
	int fd = open_armed(DEVMEM_PRESENT), dev, ev;
	__u32 tid;

	ASSERT_LE(0, fd);
	dev = nsim_open();
	ASSERT_LE(0, dev);
	ASSERT_EQ(0, neuronsim_tensor_alloc(dev, 0, 4096, "notify", &tid, NULL));
	ev = wait_notify(fd, WAKE_MS);
	EXPECT_TRUE(ev > 0 && (ev & POLLPRI)) TH_LOG("revents %#x", ev);
	EXPECT_LE(4096, reread(fd));
	EXPECT_EQ(0, neuronsim_tensor_free(dev, tid));
	close(dev);
	close(fd);
}

TEST_F(notify, clearing_wakes_the_file)
{
	char path[256];
	int fd, ev;

	ASSERT_EQ(-EINVAL, failing_load());
	fd = open_armed(FAILURE_PRESENT);
	ASSERT_LE(0, fd);
	ASSERT_LT(0, reread(fd));
	tree_path(path, sizeof(path), FAILURE_PRESENT);
	ASSERT_EQ(0, write_text(path, "1"));
	ev = wait_notify(fd, WAKE_MS);
	EXPECT_TRUE(ev > 0 && (ev & POLLPRI)) TH_LOG("revents %#x", ev);
	EXPECT_EQ(0, reread(fd));
	close(fd);
}

TEST_F(notify, no_wake_with_notify_delay_minus_1)
{
	int fd, ev;
	long long before;

	ASSERT_EQ(0, set_notify_delay("-1"));
	fd = open_armed(FAILURE_TOTAL);
	ASSERT_LE(0, fd);
	before = reread(fd);
	ASSERT_EQ(-EINVAL, failing_load());
	ev = wait_notify(fd, QUIET_MS);
	EXPECT_EQ(0, ev) TH_LOG("revents %#x with notify_delay -1", ev);
	EXPECT_EQ(before + 1, reread(fd));
	close(fd);
}

TEST_F(notify, notify_delay_takes_only_0_and_minus_1)
{
	static const char *const bad[] = { "1", "-2", "500", "x" };
	char path[256], *t;
	unsigned int i;

	tree_path(path, sizeof(path), NOTIFY_DELAY);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		EXPECT_EQ(-EINVAL, write_text(path, bad[i])) TH_LOG("'%s'", bad[i]);
	t = read_file(path, NULL);
	ASSERT_NE(NULL, t);
	EXPECT_STREQ("0\n", t);
	free(t);
	ASSERT_EQ(0, write_text(path, "-1"));
	t = read_file(path, NULL);
	ASSERT_NE(NULL, t);
	EXPECT_STREQ("-1\n", t);
	free(t);
}

/* as nobody: open(O_WRONLY) of @rel must fail with EACCES; 0 or 1 */
static int nobody_cannot_write(const char *rel)
{
	char path[256];
	int fd;

	tree_path(path, sizeof(path), rel);
	fd = open(path, O_WRONLY);
	if (fd >= 0) {
		close(fd);
		return 1;
	}
	return errno != EACCES;
}

TEST_F(notify, only_root_writes)
{
	pid_t pid = fork();
	int status;

	ASSERT_LE(0, pid);
	if (!pid) {
		if (setgroups(0, NULL) || setgid(65534) || setuid(65534))
			_exit(100);
		_exit(nobody_cannot_write(FAILURE_TOTAL) +
		      nobody_cannot_write(DEVMEM_PRESENT) +
		      nobody_cannot_write(NOTIFY_DELAY));
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

NSIM_HARNESS_MAIN
