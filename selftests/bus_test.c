// SPDX-License-Identifier: GPL-2.0
/*
 * bus_test - devices created and removed at run time on the neuronsim bus
 * (Documentation/uapi.rst, "Devices"): new_device "ID ARCH" makes
 * /dev/neuronsimID with its own generation, sysfs and debugfs directories;
 * del_device ID removes all of it; bad input is refused with the
 * documented errno and a kernel log line; a device with open files
 * cannot be removed (-EBUSY); with the bus's drivers_autoprobe 0,
 * new_device is -ENODEV and leaves nothing; a trn1 and a trn2 device
 * work side by side and independently; /dev/neuronsim and the debugfs
 * paths of neuronsim/ are device 0's; files of a device being created or
 * removed are either absent or readable whole (readers of every debugfs
 * and sysfs file, and netlink GET_DEVICE dumps, race a create/delete
 * loop).
 *
 * Needs device 0 (insmod) and no device 40..43.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/klog.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <linux/neuronsim_netlink.h>

#include "kselftest_harness.h"
#include "harden_nl.h"
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
		{ "new_device", "64 trn1\n", "ID \"64\" is not a decimal number below 64", -EINVAL },
		{ "new_device", "-1 trn1\n", "ID \"-1\" is not a decimal number below 64", -EINVAL },
		{ "new_device", "+41 trn1\n", "ID \"+41\" is not a decimal number below 64", -EINVAL },
		{ "new_device", "0x29 trn1\n", "ID \"0x29\" is not a decimal number below 64", -EINVAL },
		/* 2^32 + 41: not device 41 */
		{ "new_device", "4294967337 trn1\n", "ID \"4294967337\" is not a decimal number below 64", -EINVAL },
		{ "new_device", "18446744073709551657 trn1\n", "is not a decimal number below 64", -EINVAL },
		{ "del_device", "junk\n", "ID \"junk\" is not a decimal number below 64", -EINVAL },
		{ "del_device", "\n", "\"\" is not \"ID\"", -EINVAL },
		{ "del_device", "41\n", "del_device 41: no such device", -ENOENT },
		{ "del_device", "41 41\n", "\"41 41\" is not \"ID\"", -EINVAL },
		{ "del_device", "4294967337\n", "ID \"4294967337\" is not a decimal number below 64", -EINVAL },
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

	/* an ID past 32 bits does not name the device it wraps to */
	ASSERT_EQ(0, bus_write("new_device", "41 trn1\n"));
	EXPECT_EQ(-EINVAL, bus_write("del_device", "4294967337\n"));
	EXPECT_TRUE(exists("/dev/neuronsim41"));
	EXPECT_EQ(-EINVAL, bus_write("del_device", "4294967296\n"));
	EXPECT_TRUE(exists("/dev/neuronsim0"));
	bus_write("del_device", "41\n");
	EXPECT_FALSE(exists("/dev/neuronsim41"));
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

/*
 * The bus's drivers_autoprobe 0: the driver does not bind, so new_device
 * is -ENODEV and leaves nothing (no bus device, node or debugfs
 * directory, the ID free again once the driver binds).
 */
TEST(no_driver_bound_leaves_nothing)
{
	int ret;

	ASSERT_EQ(0, bus_write("drivers_autoprobe", "0"));
	ret = bus_write("new_device", "41 trn1\n");
	EXPECT_FALSE(exists(BUS "devices/neuronsim41"));
	EXPECT_FALSE(exists("/dev/neuronsim41"));
	EXPECT_FALSE(exists(DBGFS_ROOT "/neuronsim41"));
	ASSERT_EQ(0, bus_write("drivers_autoprobe", "1"));
	EXPECT_EQ(-ENODEV, ret);
	ASSERT_EQ(0, bus_write("new_device", "41 trn1\n"));
	EXPECT_TRUE(exists("/dev/neuronsim41"));
	ASSERT_EQ(0, bus_write("del_device", "41"));
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

/* ---- create/delete against readers ---- */

#define RACE_DEV	43
#define RACE_ITERS	30
#define RACE_SECONDS	10	/* at most: the debug kernel is slower */
#define RACE_MAX_FILES	1024

struct race {
	char *path[RACE_MAX_FILES];
	int n;
	volatile int stop;
	long reads[3];		/* whole reads: hbm, every file, netlink */
	long bad;		/* reads that failed otherwise (documented: none) */
	char bad_path[256];
	int bad_errno;
};

/* every regular file under @dir (symlinks not followed) into @r */
static void race_collect(struct race *r, const char *dir)
{
	struct dirent *de;
	char p[512];
	struct stat st;
	DIR *d = opendir(dir);

	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.' || r->n >= RACE_MAX_FILES)
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, de->d_name);
		if (lstat(p, &st))
			continue;
		if (S_ISDIR(st.st_mode))
			race_collect(r, p);
		else if (S_ISREG(st.st_mode) && (st.st_mode & 0444))
			r->path[r->n++] = strdup(p);
	}
	if (d)
		closedir(d);
}

/*
 * open and read @path to its end: 1 when it existed and read whole, 0
 * when it was not there (ENOENT, ENODEV) or went while it was read (EIO
 * from a debugfs file whose device went: Documentation/uapi.rst,
 * "Devices"); any other failure is counted in @r->bad
 */
static int race_read(struct race *r, const char *path)
{
	static __thread char buf[65536];
	ssize_t n;
	int fd = open(path, O_RDONLY), e;

	if (fd < 0) {
		e = errno;
		n = -1;
	} else {
		while ((n = read(fd, buf, sizeof(buf))) > 0)
			;
		e = errno;
		close(fd);
	}
	if (!n)
		return 1;
	if (e != ENOENT && e != ENODEV && e != EIO) {
		__atomic_add_fetch(&r->bad, 1, __ATOMIC_RELAXED);
		snprintf(r->bad_path, sizeof(r->bad_path), "%s", path);
		r->bad_errno = e;
	}
	return 0;
}

/* the file most likely to read what creation has not set up yet */
static void *race_hbm(void *arg)
{
	struct race *r = arg;
	char p[128];

	snprintf(p, sizeof(p), DBGFS_ROOT "/neuronsim%u/hbm", RACE_DEV);
	while (!r->stop)
		r->reads[0] += race_read(r, p);
	return NULL;
}

static void *race_all(void *arg)
{
	struct race *r = arg;
	int i = 0;

	while (!r->stop) {
		r->reads[1] += race_read(r, r->path[i]);
		i = (i + 1) % r->n;
	}
	return NULL;
}

static int race_count_dev(struct nlmsghdr *h, void *arg)
{
	(void)h;
	(*(long *)arg)++;
	return 0;
}

/* GET_DEVICE dumps: they must never see a device half made or undone */
static void *race_netlink(void *arg)
{
	struct race *r = arg;
	uint16_t fam;
	int sk = nl_open(&fam);

	while (sk >= 0 && !r->stop)
		genl_req(sk, fam, NEURONSIM_CMD_GET_DEVICE, 1, 0,
			 race_count_dev, &r->reads[2]);
	if (sk >= 0)
		close(sk);
	return NULL;
}

static double race_secs(const struct timespec *a)
{
	struct timespec b;

	clock_gettime(CLOCK_MONOTONIC, &b);
	return (b.tv_sec - a->tv_sec) + (b.tv_nsec - a->tv_nsec) / 1e9;
}

/*
 * Device RACE_DEV created and deleted RACE_ITERS times (or for
 * RACE_SECONDS, whichever ends first) while readers on
 * the other vCPU read its debugfs files (the hbm one without pause, every
 * other in turn), its sysfs tree and bus attribute, and dump GET_DEVICE:
 * a file that exists reads whole or fails only as documented (ENOENT,
 * ENODEV, EIO), each reader reads something whole (no oops; under the
 * debug kernel no KASAN or lockdep report either; scripts/vm.sh fails
 * the run on one).
 */
TEST(create_delete_against_readers)
{
	static const char *const arch[] = { "trn2", "trn1", "trn3" };
	void *(*fn[3])(void *) = { race_hbm, race_all, race_netlink };
	struct race r = { .n = 0 };
	pthread_t t[3];
	char text[96];
	struct timespec a;
	double secs;
	int i, k;

	snprintf(text, sizeof(text), "%u trn2\n", RACE_DEV);
	ASSERT_EQ(0, bus_write("new_device", text));
	snprintf(text, sizeof(text), DBGFS_ROOT "/neuronsim%u", RACE_DEV);
	race_collect(&r, text);
	snprintf(text, sizeof(text), "/sys/class/neuronsim/neuronsim%u", RACE_DEV);
	race_collect(&r, text);
	snprintf(text, sizeof(text), BUS "devices/neuronsim%u/arch", RACE_DEV);
	r.path[r.n++] = strdup(text);
	snprintf(text, sizeof(text), "%u\n", RACE_DEV);
	ASSERT_EQ(0, bus_write("del_device", text));
	ASSERT_LT(100, r.n) TH_LOG("only %d files under the device", r.n);

	for (k = 0; k < 3; k++)
		ASSERT_EQ(0, pthread_create(&t[k], NULL, fn[k], &r));
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (i = 0; i < RACE_ITERS && race_secs(&a) < RACE_SECONDS; i++) {
		snprintf(text, sizeof(text), "%u %s\n", RACE_DEV, arch[i % 3]);
		ASSERT_EQ(0, bus_write("new_device", text));
		snprintf(text, sizeof(text), "%u\n", RACE_DEV);
		ASSERT_EQ(0, bus_write("del_device", text));
	}
	secs = race_secs(&a);
	r.stop = 1;
	for (k = 0; k < 3; k++)
		pthread_join(t[k], NULL);
	printf("# %d create/delete cycles in %.1f s against %d files: %ld hbm reads, %ld file reads, %ld GET_DEVICE replies\n",
	       i, secs, r.n, r.reads[0], r.reads[1], r.reads[2]);
	fflush(stdout);
	EXPECT_LT(0, i);
	/* the race was run: every reader read the device's files whole */
	EXPECT_LT(0, r.reads[0]);
	EXPECT_LT(0, r.reads[1]);
	EXPECT_LT(0, r.reads[2]);
	EXPECT_EQ(0, r.bad) TH_LOG("%ld reads failed, the last %s: %s", r.bad,
				   r.bad_path, strerror(r.bad_errno));
	EXPECT_FALSE(exists("/dev/neuronsim43"));
	for (i = 0; i < r.n; i++)
		free(r.path[i]);
}

NSIM_HARNESS_MAIN
