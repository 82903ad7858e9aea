// SPDX-License-Identifier: GPL-2.0
/*
 * info_test - /dev/neuronsim basics: GET_INFO geometry and ABI, unknown
 * commands, struct-size extensibility.  Runs in the VM with the module
 * loaded; the device is /dev/neuronsim$NSIM_DEV (unset: the alias
 * /dev/neuronsim), the expected arch comes from NSIM_ARCH (default trn2).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/neuronsim.h>

#include <libneuronsim.h>

#include "kselftest_harness.h"
#include "plans.h"

struct geometry {
	const char *name;
	unsigned int gen, cores, channels;
	unsigned long long channel_size;
	unsigned int partition_size;
};

/*
 * Documentation/hardware.rst, written out again on purpose: this copy
 * checks the generation table (kmod/plan/kbin_gen.c) the module reports.
 */
static const struct geometry geometries[] = {
	{ "trn1", 2, 2, 2, 16ULL << 30, 192 << 10 },
	{ "trn2", 3, 8, 4, 24ULL << 30, 224 << 10 },
	{ "trn3", 4, 8, 4, 36ULL << 30, 256 << 10 },
};

static const struct geometry *expected(void)
{
	const char *arch = getenv("NSIM_ARCH");
	size_t i;

	if (!arch)
		arch = "trn2";
	for (i = 0; i < sizeof(geometries) / sizeof(geometries[0]); i++)
		if (!strcmp(arch, geometries[i].name))
			return &geometries[i];
	return NULL;
}

/* the node under test: device $NSIM_DEV's (neuronsim_dev_path()), or the alias */
static const char *node(void)
{
	static char path[64];
	const char *d = getenv("NSIM_DEV");

	if (!d || !*d || neuronsim_dev_path(strtoul(d, NULL, 10), path, sizeof(path)))
		snprintf(path, sizeof(path), "/dev/" NEURONSIM_DEVICE_NAME "%s",
			 d ? d : "");
	return path;
}

FIXTURE(dev) {
	int fd;
};

FIXTURE_SETUP(dev)
{
	self->fd = open(node(), O_RDWR);
	ASSERT_LE(0, self->fd) TH_LOG("open %s: %s", node(), strerror(errno));
}

FIXTURE_TEARDOWN(dev)
{
	close(self->fd);
}

TEST(device_node_is_0600)
{
	struct stat st;

	ASSERT_EQ(0, stat(node(), &st));
	EXPECT_TRUE(S_ISCHR(st.st_mode));
	EXPECT_EQ(0600, st.st_mode & 0777);
}

TEST_F(dev, get_info_geometry)
{
	const struct geometry *g = expected();
	struct neuronsim_info info;
	unsigned int c;

	ASSERT_NE(NULL, g);
	memset(&info, 0xa5, sizeof(info));
	ASSERT_EQ(0, ioctl(self->fd, NEURONSIM_IOC_GET_INFO, &info));
	EXPECT_EQ(NEURONSIM_ABI_VERSION, info.abi_version);
	EXPECT_STREQ(g->name, info.arch_name);
	EXPECT_EQ(g->gen, info.arch_gen);
	EXPECT_EQ(g->cores, info.num_cores);
	EXPECT_EQ(g->channels, info.num_hbm_channels);
	EXPECT_EQ(g->channel_size, info.hbm_channel_size);
	EXPECT_EQ(128, info.sbuf_partitions);
	EXPECT_EQ(g->partition_size, info.sbuf_partition_size);
	EXPECT_EQ(0x2000000ULL, info.sbuf_window_size);
	EXPECT_NE(0, info.sbuf_base);
	for (c = 0; c < info.num_hbm_channels; c++) {
		EXPECT_NE(0, info.hbm_base[c]);
		/* the SBUF windows do not overlap any HBM channel */
		EXPECT_TRUE(info.sbuf_base + info.num_cores * info.sbuf_window_size <= info.hbm_base[c] ||
			    info.hbm_base[c] + info.hbm_channel_size <= info.sbuf_base);
	}
	for (c = info.num_hbm_channels; c < NEURONSIM_MAX_HBM_CHANNELS; c++)
		EXPECT_EQ(0, info.hbm_base[c]);
	EXPECT_EQ(nsim_param("max_tensors_per_fd"), info.max_tensors_per_fd);
	EXPECT_TRUE(info.features & NEURONSIM_FEAT_TENSOR);
	for (c = 0; c < 2; c++)
		EXPECT_EQ(0, info.reserved[c]);
	/* the PSUM windows sit past the SBUF windows, before every HBM channel */
	EXPECT_EQ(0x200000000ULL, info.psum_base);
	EXPECT_LE(info.sbuf_base + info.num_cores * info.sbuf_window_size,
		  info.psum_base);
	for (c = 0; c < info.num_hbm_channels; c++)
		EXPECT_LE(info.psum_base + info.num_cores * info.psum_size,
			  info.hbm_base[c]);
	/* the budget of loads in progress: the module parameter, not 0 */
	EXPECT_LT(0ULL, info.max_loading_bytes);
	EXPECT_EQ(nsim_param("max_loading_bytes"), info.max_loading_bytes);
	EXPECT_EQ(nsim_param("max_plan_bytes"), info.max_plan_bytes);
}

TEST_F(dev, unknown_command_is_enotty)
{
	struct neuronsim_info info;
	int dummy = 0;

	EXPECT_EQ(ENOTTY, ioctl_errno(self->fd,
				      _IOR(NEURONSIM_IOC_MAGIC, 0x7f, int),
				      &dummy));
	EXPECT_EQ(ENOTTY, ioctl_errno(self->fd, _IO('T', 0x01), 0));
	/* a known number with another direction is another command */
	EXPECT_EQ(ENOTTY, ioctl_errno(self->fd,
				      _IOW(NEURONSIM_IOC_MAGIC, 0x00,
					   struct neuronsim_info), &info));
}

TEST_F(dev, get_info_smaller_struct)
{
	/* an older caller that knows only the first 8 bytes */
	struct { __u32 abi_version, arch_gen; } old;
	unsigned int cmd = _IOC(_IOC_READ, NEURONSIM_IOC_MAGIC, 0x00, sizeof(old));

	ASSERT_EQ(0, ioctl(self->fd, cmd, &old));
	EXPECT_EQ(NEURONSIM_ABI_VERSION, old.abi_version);
	EXPECT_EQ(expected()->gen, old.arch_gen);
}

TEST_F(dev, get_info_larger_struct_zero_tail)
{
	unsigned char big[sizeof(struct neuronsim_info) + 64];
	unsigned int cmd = _IOC(_IOC_READ, NEURONSIM_IOC_MAGIC, 0x00, sizeof(big));
	size_t i;

	memset(big, 0xa5, sizeof(big));
	ASSERT_EQ(0, ioctl(self->fd, cmd, big));
	for (i = sizeof(struct neuronsim_info); i < sizeof(big); i++)
		ASSERT_EQ(0, big[i]);
}

TEST_F(dev, get_info_bad_pointer)
{
	EXPECT_EQ(EFAULT, ioctl_errno(self->fd, NEURONSIM_IOC_GET_INFO, (void *)8));
}

NSIM_HARNESS_MAIN
