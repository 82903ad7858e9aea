// SPDX-License-Identifier: GPL-2.0
/*
 * cores_test - NeuronCores belong to processes (Documentation/uapi.rst,
 * "NeuronCores"): a second process loading on a core the first holds
 * gets -EBUSY, with the core and the owner's pid in its log and in the
 * kernel log; on another core it cannot reach the first's SBUF bytes by
 * any ioctl; once the first exits the core is free and its SBUF reads
 * zero; models of one process share its cores (and their SBUF);
 * NEURONSIM_CORE_ANY takes the first free run of cores (first-fit) and
 * MODEL_INFO says which; debugfs "cores" shows the owners.
 *
 * Runs on the device under test ($NSIM_DEV, default the alias); needs 8
 * NeuronCores (trn2, trn3).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/klog.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "plans.h"

#define PATTERN		0xa5
#define SB_OFF		0x100
#define SB_LEN		256

/* a child that loads the standard plan on @core, writes PATTERN at its
 * MR_SB + SB_OFF, reports on @up and exits when @down is closed */
static pid_t holder(uint32_t core, int *up_rd, int *down_wr)
{
	int up[2], down[2];
	pid_t pid;

	if (pipe(up) || pipe(down))
		return -1;
	pid = fork();
	if (pid)
		goto parent;
	{
		struct neuronsim_info info;
		uint8_t buf[SB_LEN], c = 0;
		struct plan p;
		uint32_t id;
		int fd = nsim_open();

		close(up[0]);
		close(down[1]);
		memset(buf, PATTERN, sizeof(buf));
		if (fd < 0 || nsim_get_info(fd, &info) || plan_std(&info, &p) ||
		    nsim_load(fd, &p, core, &id, NULL, NULL, 0) ||
		    nsim_write_var(fd, id, 0, V0_SB, SB_OFF, buf, sizeof(buf)))
			c = 1;
		if (write(up[1], &c, 1) != 1)
			_exit(2);
		if (read(down[0], &c, 1) < 0)
			_exit(3);
		_exit(0);
	}
parent:
	close(up[1]);
	close(down[0]);
	*up_rd = up[0];
	*down_wr = down[1];
	return pid;
}

/* wait for the holder to be loaded: 0, or -1 when it failed */
static int holder_ready(int up_rd)
{
	uint8_t c = 1;

	return read(up_rd, &c, 1) == 1 && !c ? 0 : -1;
}

static int holder_end(pid_t pid, int up_rd, int down_wr)
{
	int st = 0;

	close(down_wr);
	close(up_rd);
	if (waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* debugfs "cores": the line of @core */
static int cores_line(unsigned int core, char *line, size_t size)
{
	char path[128], key[16], *t, *p;

	t = read_file(dbgfs_path(path, sizeof(path), "cores"), NULL);
	if (!t)
		return -1;
	snprintf(key, sizeof(key), "\n%u\t", core);
	p = strstr(t, key);
	if (p) {
		p++;
		snprintf(line, size, "%.*s", (int)strcspn(p, "\n"), p);
	}
	free(t);
	return p ? 0 : -1;
}

/* nothing of PATTERN in @len bytes of @buf */
static int no_pattern(const uint8_t *buf, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (buf[i] == PATTERN)
			return 0;
	return 1;
}

FIXTURE(cores) {
	STD_FIXTURE_FIELDS;
};

/* the tests place plans of two subgraphs on cores 0..7 */
#define NEED_8_CORES() do { \
	if (self->info.num_cores < 8) \
		SKIP(return, "%s has %u NeuronCores, the test needs 8", \
		     self->info.arch_name, self->info.num_cores); \
} while (0)

FIXTURE_SETUP(cores)
{
	STD_FIXTURE_PLAN(self);
}

FIXTURE_TEARDOWN(cores)
{
	STD_FIXTURE_FREE(self);
}

TEST_F(cores, second_process_gets_ebusy_and_no_sbuf_bytes)
{
	struct neuronsim_load l;
	char log[512], want[128], line[64];
	uint64_t sb = 0, stride, ps, off;
	uint8_t *buf;
	uint32_t id, id2, p;
	int up, down, ret;
	pid_t a;

	NEED_8_CORES();
	a = holder(0, &up, &down);
	ASSERT_LT(0, a);
	ASSERT_EQ(0, holder_ready(up)) TH_LOG("the first process could not load on core 0");

	buf = malloc(1 << 20);
	ASSERT_NE(NULL, buf);
	/* cores 0 and 1 are the first process's */
	snprintf(want, sizeof(want), "0\t%d\t1", a);
	line[0] = 0;
	EXPECT_EQ(0, cores_line(0, line, sizeof(line)));
	EXPECT_STREQ(want, line);
	snprintf(want, sizeof(want), "1\t%d\t1", a);
	line[0] = 0;
	EXPECT_EQ(0, cores_line(1, line, sizeof(line)));
	EXPECT_STREQ(want, line);

	/* this process on core 0 (and 1): -EBUSY, named in both logs */
	klogctl(5, NULL, 0);
	ret = nsim_load(self->fd, &self->p, 0, &id, &l, log, sizeof(log));
	EXPECT_EQ(-EBUSY, ret);
	if (!ret) {
		/* loaded anyway: its MR_SB is the first process's SBUF */
		EXPECT_EQ(0, nsim_read_var(self->fd, id, 0, V0_SB, SB_OFF, buf,
					   SB_LEN));
		EXPECT_TRUE(no_pattern(buf, SB_LEN))
			TH_LOG("the first process's SBUF bytes read back by the second");
		nsim_unload(self->fd, id);
	}
	EXPECT_EQ(KBIN_ERR_STAGE_CORES, l.err_reason);
	EXPECT_EQ(0, l.model_id);
	snprintf(want, sizeof(want), "NeuronCore 0 is reserved by process %d", a);
	EXPECT_NE(NULL, strstr(log, want)) TH_LOG("log: %s", log);
	snprintf(want, sizeof(want), "pid %d: NeuronCore 0 is reserved by pid %d",
		 getpid(), a);
	EXPECT_TRUE(klog_has(want)) TH_LOG("no \"%s\" in the kernel log", want);
	EXPECT_EQ(-EBUSY, nsim_load(self->fd, &self->p, 1, &id, &l, log,
				    sizeof(log)));
	snprintf(want, sizeof(want), "NeuronCore 1 is reserved by process %d", a);
	EXPECT_NE(NULL, strstr(log, want)) TH_LOG("log: %s", log);

	/* on core 2 it works, and its SBUF holds nothing of the first's */
	ASSERT_EQ(0, nsim_load(self->fd, &self->p, 2, &id, NULL, log,
			       sizeof(log))) TH_LOG("load on core 2: %s", log);
	ASSERT_EQ(0, nsim_resolve(self->fd, id, 0, V0_SB, 0, 0, &sb));
	EXPECT_EQ(self->info.sbuf_base + 2 * self->info.sbuf_window_size, sb);
	/*
	 * every SBUF byte: partition p's at p * stride of the window
	 * (Documentation/hardware.rst), the gap between them is no byte
	 */
	stride = self->info.sbuf_window_size / self->info.sbuf_partitions;
	ps = self->info.sbuf_partition_size;
	ASSERT_GE(1 << 20, ps);
	for (p = 0; p < self->info.sbuf_partitions; p++) {
		off = p * stride;
		ASSERT_EQ(0, nsim_read_var(self->fd, id, 0, V0_SB, off, buf, ps));
		ASSERT_TRUE(no_pattern(buf, ps)) TH_LOG("SBUF byte of the first process in partition %u (+%llu)",
							p, (unsigned long long)off);
	}
	/* the first's model is not this process's, whatever its id */
	for (id2 = 1; id2 < 64; id2++)
		if (id2 != id)
			EXPECT_EQ(-ENOENT, nsim_read_var(self->fd, id2, 0, V0_SB,
							 SB_OFF, buf, SB_LEN));

	/* the first process goes: its cores are free, their SBUF zero */
	ASSERT_EQ(0, holder_end(a, up, down));
	line[0] = 0;
	EXPECT_EQ(0, cores_line(0, line, sizeof(line)));
	EXPECT_STREQ("0\t-\t0", line);
	ASSERT_EQ(0, nsim_load(self->fd, &self->p, 0, &id2, NULL, log,
			       sizeof(log))) TH_LOG("load on core 0: %s", log);
	ASSERT_EQ(0, nsim_read_var(self->fd, id2, 0, V0_SB, SB_OFF, buf, SB_LEN));
	EXPECT_TRUE(no_pattern(buf, SB_LEN));
	EXPECT_EQ(0, buf[0]);
	snprintf(want, sizeof(want), "0\t%d\t1", getpid());
	line[0] = 0;
	EXPECT_EQ(0, cores_line(0, line, sizeof(line)));
	EXPECT_STREQ(want, line);
	EXPECT_EQ(0, nsim_unload(self->fd, id2));
	EXPECT_EQ(0, nsim_unload(self->fd, id));
	free(buf);
}

TEST_F(cores, one_process_shares_its_cores)
{
	uint8_t w[SB_LEN], r[SB_LEN];
	uint32_t id1, id2, id3;
	char line[64], want[64];
	int fd2;

	NEED_8_CORES();
	fd2 = nsim_open();
	ASSERT_LE(0, fd2);
	ASSERT_EQ(0, nsim_load(self->fd, &self->p, 4, &id1, NULL, NULL, 0));
	ASSERT_EQ(0, nsim_load(fd2, &self->p, 4, &id2, NULL, NULL, 0));
	ASSERT_EQ(0, nsim_load(fd2, &self->p, 5, &id3, NULL, NULL, 0));
	snprintf(want, sizeof(want), "5\t%d\t3", getpid());
	ASSERT_EQ(0, cores_line(5, line, sizeof(line)));
	EXPECT_STREQ(want, line);
	/* one SBUF per core: what one model writes the other reads */
	memset(w, PATTERN, sizeof(w));
	ASSERT_EQ(0, nsim_write_var(self->fd, id1, 0, V0_SB, SB_OFF, w, SB_LEN));
	ASSERT_EQ(0, nsim_read_var(fd2, id2, 0, V0_SB, SB_OFF, r, SB_LEN));
	EXPECT_EQ(0, memcmp(w, r, SB_LEN));
	/* the last model going ends the reservation and clears the SBUF */
	close(fd2);
	snprintf(want, sizeof(want), "5\t%d\t1", getpid());
	ASSERT_EQ(0, cores_line(5, line, sizeof(line)));
	EXPECT_STREQ(want, line);
	EXPECT_EQ(0, nsim_unload(self->fd, id1));
	ASSERT_EQ(0, cores_line(4, line, sizeof(line)));
	EXPECT_STREQ("4\t-\t0", line);
	ASSERT_EQ(0, nsim_load(self->fd, &self->p, 4, &id1, NULL, NULL, 0));
	ASSERT_EQ(0, nsim_read_var(self->fd, id1, 0, V0_SB, SB_OFF, r, SB_LEN));
	EXPECT_TRUE(no_pattern(r, SB_LEN));
	EXPECT_EQ(0, nsim_unload(self->fd, id1));
}

static uint32_t first_core_of(struct __test_metadata *_metadata, int fd,
			      uint32_t id)
{
	struct neuronsim_model_info mi = { .model_id = id };

	EXPECT_EQ(0, ioctl(fd, NEURONSIM_IOC_MODEL_INFO, &mi));
	return mi.first_core;
}

/* LOAD of the fixture's plan on NEURONSIM_CORE_ANY: on cores @first.. */
static void load_any_at(struct __test_metadata *_metadata,
			FIXTURE_DATA(cores) *self, uint32_t *id, uint32_t first)
{
	char log[512];

	ASSERT_EQ(0, nsim_load(self->fd, &self->p, NEURONSIM_CORE_ANY, id,
			       NULL, log, sizeof(log))) TH_LOG("%s", log);
	EXPECT_EQ(first, first_core_of(_metadata, self->fd, *id));
}

TEST_F(cores, any_core_first_fit)
{
	const struct neuronsim_info *in = &self->info;
	uint32_t id[4], extra;
	struct neuronsim_load l;
	char log[512];
	uint64_t sb;
	int up, down, i;
	pid_t a;

	NEED_8_CORES();
	/* another process holds 0-1: the first free run is 2-3, then 4-5 */
	a = holder(0, &up, &down);
	ASSERT_LT(0, a);
	ASSERT_EQ(0, holder_ready(up));
	load_any_at(_metadata, self, &id[0], 2);
	ASSERT_EQ(0, nsim_resolve(self->fd, id[0], 1, V1_SB, 0, 0, &sb));
	EXPECT_EQ(in->sbuf_base + 3 * in->sbuf_window_size, sb);
	load_any_at(_metadata, self, &id[1], 4);
	/* 6-7 is the last free run; then there is none */
	load_any_at(_metadata, self, &id[2], 6);
	EXPECT_EQ(-EBUSY, nsim_load(self->fd, &self->p, NEURONSIM_CORE_ANY,
				    &extra, &l, log, sizeof(log)));
	EXPECT_EQ(KBIN_ERR_STAGE_CORES, l.err_reason);
	EXPECT_NE(NULL, strstr(log, "no free run of cores")) TH_LOG("%s", log);
	/* the other process goes: 0-1 is the first free run again */
	ASSERT_EQ(0, holder_end(a, up, down));
	EXPECT_EQ(0, nsim_unload(self->fd, id[1]));
	load_any_at(_metadata, self, &id[3], 0);
	load_any_at(_metadata, self, &id[1], 4);
	for (i = 0; i < 4; i++)
		EXPECT_EQ(0, nsim_unload(self->fd, id[i]));
}

NSIM_HARNESS_MAIN
