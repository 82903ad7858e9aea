// SPDX-License-Identifier: GPL-2.0
/*
 * bus_test - devices created and removed at run time on the neuronsim bus
 * (Documentation/uapi.rst, "Devices"): new_device "ID ARCH" makes
 * /dev/neuronsimID with its own generation, sysfs and debugfs directories;
 * del_device ID removes all of it; bad input is refused with the
 * documented errno and a kernel log line; a device with open files
 * cannot be removed (-EBUSY); a trn1 and a trn2 device work side by side
 * and independently; /dev/neuronsim and the debugfs paths of neuronsim/
 * are device 0's.
 *
 * Needs device 0 (insmod) and no device 40..43.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/klog.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "plans.h"

#define BUS "/sys/bus/neuronsim/"

/* write @text to a bus file: 0 or -errno */
static int bus_write(const char *file, const char *text)
{
	char path[128];

	snprintf(path, sizeof(path), BUS "%s", file);
	return write_text(path, text);
}

static int exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

/* the generation of device @index from sysfs, or "" */
static void dev_arch(unsigned int index, char *buf, size_t size)
{
	char path[128], *t;

	snprintf(path, sizeof(path), BUS "devices/neuronsim%u/arch", index);
	t = read_file(path, NULL);
	snprintf(buf, size, "%s", t ? t : "");
	buf[strcspn(buf, "\n")] = '\0';
	free(t);
}

TEST(bad_input_refused)
{
	static const struct {
		const char *file, *text, *log;
		int err;
	} cases[] = {
		{ "new_device", "41 trn9\n", "unknown arch 'trn9'", -EINVAL },
		{ "new_device", "0 trn1\n", "device 0 exists", -EEXIST },
		{ "new_device", "junk\n", "is not \"ID ARCH\"", -EINVAL },
		{ "new_device", "41\n", "\"41\" is not \"ID ARCH\"", -EINVAL },
		{ "new_device", "41 trn1 x\n", "is not \"ID ARCH\"", -EINVAL },
		{ "new_device", "64 trn1\n", "ID 64 is not below 64", -EINVAL },
		{ "new_device", "-1 trn1\n", "", -EINVAL },
		{ "del_device", "junk\n", "\"junk\" is not \"ID\"", -EINVAL },
		{ "del_device", "41\n", "del_device 41: no such device", -ENOENT },
	};
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		klogctl(5, NULL, 0);	/* SYSLOG_ACTION_CLEAR */
		EXPECT_EQ(cases[i].err, bus_write(cases[i].file, cases[i].text))
			TH_LOG("%s \"%s\"", cases[i].file, cases[i].text);
		if (cases[i].log[0])
			EXPECT_TRUE(klog_has(cases[i].log))
				TH_LOG("%s \"%s\": no \"%s\" in the kernel log",
				       cases[i].file, cases[i].text,
				       cases[i].log);
	}
	EXPECT_FALSE(exists("/dev/neuronsim41"));
	EXPECT_FALSE(exists(BUS "devices/neuronsim41"));
}

TEST(create_and_delete)
{
	struct neuronsim_info info;
	char arch[16];
	struct stat st;
	int fd;

	ASSERT_EQ(0, bus_write("new_device", "40 trn1\n"));
	ASSERT_EQ(0, stat("/dev/neuronsim40", &st));
	EXPECT_TRUE(S_ISCHR(st.st_mode));
	EXPECT_EQ(0600, st.st_mode & 07777);
	dev_arch(40, arch, sizeof(arch));
	EXPECT_STREQ("trn1", arch);
	EXPECT_TRUE(exists(DBGFS_ROOT "/neuronsim40/stats"));
	EXPECT_TRUE(exists(DBGFS_ROOT "/neuronsim40/models"));
	fd = nsim_open_dev(40);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, nsim_get_info(fd, &info));
	EXPECT_STREQ("trn1", info.arch_name);
	EXPECT_EQ(2U, info.arch_gen);
	EXPECT_EQ(2U, info.num_cores);
	/* an open file keeps it */
	EXPECT_EQ(-EBUSY, bus_write("del_device", "40\n"));
	EXPECT_TRUE(exists("/dev/neuronsim40"));
	close(fd);
	ASSERT_EQ(0, bus_write("del_device", "40\n"));
	EXPECT_FALSE(exists("/dev/neuronsim40"));
	EXPECT_FALSE(exists(BUS "devices/neuronsim40"));
	EXPECT_FALSE(exists(DBGFS_ROOT "/neuronsim40"));
	/* the index is free again */
	ASSERT_EQ(0, bus_write("new_device", "40 trn3\n"));
	dev_arch(40, arch, sizeof(arch));
	EXPECT_STREQ("trn3", arch);
	ASSERT_EQ(0, bus_write("del_device", "40"));
}

/* a model of the standard plan on device @index: its id, through @fd */
static void load_std(struct __test_metadata *_metadata, unsigned int index,
		     int *fd, struct neuronsim_info *info, struct plan *p,
		     uint32_t *id)
{
	char log[512];

	*fd = nsim_open_dev(index);
	ASSERT_LE(0, *fd);
	ASSERT_EQ(0, nsim_get_info(*fd, info));
	ASSERT_EQ(0, plan_std(info, p));
	ASSERT_EQ(0, nsim_load(*fd, p, 0, id, NULL, log, sizeof(log)))
		TH_LOG("device %u: %s", index, log);
}

TEST(trn1_and_trn2_side_by_side)
{
	struct neuronsim_info i1, i2;
	struct stats s1, s2, z;
	struct plan p1, p2;
	uint32_t id1, id2;
	uint64_t a1, a2;
	uint8_t b1[16], b2[16];
	char log[512], arch0[16];
	int fd1, fd2, i;

	dev_arch(0, arch0, sizeof(arch0));
	if (strcmp(arch0, "trn2"))
		SKIP(return, "device 0 is '%s', not trn2", arch0);
	ASSERT_EQ(0, bus_write("new_device", "42 trn1\n"));
	load_std(_metadata, 42, &fd1, &i1, &p1, &id1);
	load_std(_metadata, 0, &fd2, &i2, &p2, &id2);
	EXPECT_STREQ("trn1", i1.arch_name);
	EXPECT_STREQ("trn2", i2.arch_name);

	/* a trn2 plan does not load on trn1, nor the other way round */
	EXPECT_EQ(-EINVAL, nsim_load(fd1, &p2, 0, NULL, NULL, log, sizeof(log)));
	EXPECT_EQ(-EINVAL, nsim_load(fd2, &p1, 0, NULL, NULL, log, sizeof(log)));

	/* each resolves in its own geometry */
	ASSERT_EQ(0, nsim_resolve(fd1, id1, 0, V0_WEIGHT, 0, 1, &a1));
	ASSERT_EQ(0, nsim_resolve(fd2, id2, 0, V0_WEIGHT, 0, 1, &a2));
	EXPECT_TRUE(nsim_in_hbm(&i1, a1, STD_WEIGHT_SIZE));
	EXPECT_TRUE(nsim_in_hbm(&i2, a2, STD_WEIGHT_SIZE));
	ASSERT_EQ(0, nsim_resolve(fd1, id1, 1, V1_SB, 0, 0, &a1));
	EXPECT_EQ(i1.sbuf_base + i1.sbuf_window_size, a1);
	/* the same var, the same payload, on both */
	ASSERT_EQ(0, nsim_read_var(fd1, id1, 0, V0_WEIGHT, 0, b1, sizeof(b1)));
	ASSERT_EQ(0, nsim_read_var(fd2, id2, 0, V0_WEIGHT, 0, b2, sizeof(b2)));
	EXPECT_EQ(0, memcmp(b1, b2, sizeof(b1)));
	for (i = 0; i < 16; i++)
		EXPECT_EQ(payload_byte(V0_WEIGHT, i), b1[i]);
	/* writes on one device are not seen on the other */
	memset(b1, 0x5a, sizeof(b1));
	ASSERT_EQ(0, nsim_write_var(fd1, id1, 0, V0_IN, 0, b1, sizeof(b1)));
	ASSERT_EQ(0, nsim_read_var(fd2, id2, 0, V0_IN, 0, b2, sizeof(b2)));
	EXPECT_NE(0x5a, b2[0]);

	/* per-device counters */
	nsim_select_dev(42);
	ASSERT_EQ(0, read_stats(&s1));
	nsim_select_dev(0);
	ASSERT_EQ(0, read_stats(&s2));
	EXPECT_EQ(1, s1.models);
	EXPECT_LE(1, s2.models);
	EXPECT_EQ(V0_N + V1_N, s1.mem_refs);

	/* a device holding a model cannot go; after the close it can */
	klogctl(5, NULL, 0);
	EXPECT_EQ(-EBUSY, bus_write("del_device", "42\n"));
	EXPECT_TRUE(klog_has("del_device 42: 1 open files, 1 models loaded"));
	EXPECT_EQ(0, nsim_resolve(fd1, id1, 0, V0_WEIGHT, 0, 1, NULL));
	close(fd1);
	nsim_select_dev(42);
	ASSERT_EQ(0, read_stats(&z));
	EXPECT_EQ(0, z.models);
	EXPECT_EQ(0, z.hbm_used);
	EXPECT_EQ(0, z.backing_bytes);
	nsim_select_dev(-1);
	ASSERT_EQ(0, bus_write("del_device", "42\n"));
	/* device 0 is unaffected */
	EXPECT_EQ(0, nsim_resolve(fd2, id2, 0, V0_WEIGHT, 0, 1, &a1));
	EXPECT_EQ(a2, a1);
	close(fd2);
	plan_free(&p1);
	plan_free(&p2);
}

TEST(alias_and_old_debugfs_paths_are_device_0)
{
	struct neuronsim_info ia, i0;
	char path[128], arch0[16];
	struct plan p;
	uint32_t id;
	int fa, f0;

	fa = open("/dev/neuronsim", O_RDWR);
	f0 = nsim_open_dev(0);
	ASSERT_LE(0, fa);
	ASSERT_LE(0, f0);
	ASSERT_EQ(0, nsim_get_info(fa, &ia));
	ASSERT_EQ(0, nsim_get_info(f0, &i0));
	EXPECT_EQ(0, memcmp(&ia, &i0, sizeof(ia)));
	ASSERT_EQ(0, plan_std(&ia, &p));
	ASSERT_EQ(0, nsim_load(fa, &p, 0, &id, NULL, NULL, 0));
	snprintf(path, sizeof(path), DBGFS_ROOT "/neuronsim0/models/%u/info", id);
	EXPECT_TRUE(exists(path));
	snprintf(path, sizeof(path), DBGFS_ROOT "/models/%u/info", id);
	EXPECT_TRUE(exists(path));
	EXPECT_TRUE(exists(DBGFS_ROOT "/stats"));
	EXPECT_TRUE(exists(DBGFS_ROOT "/hbm"));
	EXPECT_TRUE(exists(DBGFS_ROOT "/device"));
	EXPECT_TRUE(exists(DBGFS_ROOT "/fail_hbm_alloc_nth"));
	EXPECT_TRUE(exists(DBGFS_ROOT "/fail_copyin_nth"));
	/* the alias's file counts against device 0 */
	close(f0);
	EXPECT_EQ(-EBUSY, bus_write("del_device", "0\n"));
	close(fa);
	plan_free(&p);

	/* without device 0 the alias has nothing to open */
	dev_arch(0, arch0, sizeof(arch0));
	ASSERT_EQ(0, bus_write("del_device", "0\n"));
	EXPECT_EQ(-1, open("/dev/neuronsim", O_RDWR));
	EXPECT_EQ(ENODEV, errno);
	EXPECT_FALSE(exists(DBGFS_ROOT "/stats"));
	EXPECT_TRUE(exists("/dev/neuronsim"));
	snprintf(path, sizeof(path), "0 %s\n", arch0);
	ASSERT_EQ(0, bus_write("new_device", path));
	fa = open("/dev/neuronsim", O_RDWR);
	ASSERT_LE(0, fa);
	ASSERT_EQ(0, nsim_get_info(fa, &ia));
	EXPECT_STREQ(arch0, ia.arch_name);
	EXPECT_TRUE(exists(DBGFS_ROOT "/stats"));
	close(fa);
}

TEST_HARNESS_MAIN
