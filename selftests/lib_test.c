// SPDX-License-Identifier: GPL-2.0
/*
 * lib_test - libneuronsim against the VM's /dev/neuronsim: every call's
 * success path and its error paths (each with the specific -errno of
 * userspace/lib/libneuronsim.h), option structs sized by .sz, the load
 * failure report (reason, subgraph, record, log text), model ownership
 * by fd, and the device index (open by index, the list of devices).  The
 * device under test is $NSIM_DEV (default 0, through the alias).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/neuronsim_udma.h>

#include "kselftest_harness.h"
#include "libneuronsim.h"
#include "kbin_writer.h"
#include "plans.h"

/* the device under test, by index through the library */
static int open_dut(void)
{
	NEURONSIM_OPTS_INIT(open_opts, o);
	int d = nsim_dev_index();

	o.device = d < 0 ? 0 : d;
	return neuronsim_open(&o);
}

FIXTURE(lib) {
	int fd;
	struct neuronsim_info info;
	struct plan p;
	__u32 id;
};

FIXTURE_SETUP(lib)
{
	char log[1024] = "";
	NEURONSIM_OPTS_INIT(load_opts, lo, .log_buf = log, .log_size = sizeof(log));

	self->fd = open_dut();
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, neuronsim_get_info(self->fd, &self->info));
	ASSERT_EQ(0, plan_std(&self->info, &self->p));
	ASSERT_EQ(0, neuronsim_load(self->fd, self->p.buf, self->p.len, &lo,
				    &self->id)) TH_LOG("load: %s", log);
	ASSERT_LT(0U, self->id);
	ASSERT_EQ(0U, lo.err_reason);
	ASSERT_EQ(-1, lo.err_subgraph);
	ASSERT_EQ(-1, lo.err_record);
}

FIXTURE_TEARDOWN(lib)
{
	neuronsim_close(self->fd);
	plan_free(&self->p);
}

TEST(open_errors)
{
	NEURONSIM_OPTS_INIT(open_opts, o, .path = "/dev/neuronsim-nope");
	struct {
		struct neuronsim_open_opts o;
		long extra;
	} big = { { .sz = sizeof(big) }, 0 };
	int fd;

	ASSERT_EQ(-ENOENT, neuronsim_open(&o));
	o.path = "/dev/null";
	fd = neuronsim_open(&o);
	ASSERT_LE(0, fd);
	{
		struct neuronsim_info info;

		/* not a neuronsim fd */
		ASSERT_EQ(-ENOTTY, neuronsim_get_info(fd, &info));
	}
	ASSERT_EQ(0, neuronsim_close(fd));
	ASSERT_EQ(-EBADF, neuronsim_close(-1));
	/* larger struct from a newer caller: zero tail ok, else -E2BIG */
	fd = neuronsim_open(&big.o);
	ASSERT_LE(0, fd);
	neuronsim_close(fd);
	big.extra = 1;
	ASSERT_EQ(-E2BIG, neuronsim_open(&big.o));
}

TEST(devices_by_index)
{
	struct neuronsim_device_ent ents[NEURONSIM_MAX_DEVICES];
	NEURONSIM_OPTS_INIT(open_opts, o);
	struct neuronsim_info info, i0;
	int n, i, fd, have0 = 0, have_dut = 0, d = nsim_dev_index();
	__u32 missing = 0;

	n = neuronsim_list_devices(ents, NEURONSIM_MAX_DEVICES);
	ASSERT_LE(1, n);
	ASSERT_EQ(n, neuronsim_list_devices(NULL, 0));
	ASSERT_EQ(-EINVAL, neuronsim_list_devices(NULL, 1));
	ASSERT_EQ(n, neuronsim_list_devices(ents, 1));
	ASSERT_EQ(n, neuronsim_list_devices(ents, NEURONSIM_MAX_DEVICES));
	for (i = 0; i < n; i++) {
		if (i)
			ASSERT_LT(ents[i - 1].index, ents[i].index);
		have0 += ents[i].index == 0;
		have_dut += (int)ents[i].index == (d < 0 ? 0 : d);
		if (ents[i].index == missing)
			missing++;
		/* each opens by its index and is the generation listed */
		o.device = ents[i].index;
		fd = neuronsim_open(&o);
		ASSERT_LE(0, fd) TH_LOG("device %u", ents[i].index);
		ASSERT_EQ(0, neuronsim_get_info(fd, &info));
		EXPECT_STREQ(ents[i].arch_name, info.arch_name);
		neuronsim_close(fd);
	}
	EXPECT_EQ(1, have0);
	EXPECT_EQ(1, have_dut);
	/* device 0 by index 0 is the alias */
	fd = neuronsim_open(NULL);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, neuronsim_get_info(fd, &i0));
	neuronsim_close(fd);
	EXPECT_STREQ(ents[0].arch_name, i0.arch_name);
	/* an index with no device; out of range; a path and a device */
	o.device = missing;
	EXPECT_EQ(-ENOENT, neuronsim_open(&o)) TH_LOG("device %u", missing);
	o.device = NEURONSIM_MAX_DEVICES;
	EXPECT_EQ(-EINVAL, neuronsim_open(&o));
	o.device = 1;
	o.path = "/dev/neuronsim";
	EXPECT_EQ(-EINVAL, neuronsim_open(&o));
}

TEST_F(lib, info)
{
	struct neuronsim_info info;

	ASSERT_EQ(0, neuronsim_get_info(self->fd, &info));
	ASSERT_EQ(NEURONSIM_ABI_VERSION, info.abi_version);
	ASSERT_LT(0U, info.num_cores);
	ASSERT_EQ(-EINVAL, neuronsim_get_info(self->fd, NULL));
	ASSERT_EQ(-EBADF, neuronsim_get_info(-1, &info));
}

TEST_F(lib, model_info)
{
	struct neuronsim_model_info mi;

	ASSERT_EQ(0, neuronsim_model_info(self->fd, self->id, &mi));
	ASSERT_EQ(2U, mi.num_subgraphs);
	ASSERT_EQ((__u64)(V0_N + V1_N), mi.num_vars);
	ASSERT_LT(0ULL, mi.hbm_bytes);
	ASSERT_EQ(self->info.arch_gen, mi.target_gen);
	ASSERT_EQ(-ENOENT, neuronsim_model_info(self->fd, self->id + 1000, &mi));
	ASSERT_EQ(-EINVAL, neuronsim_model_info(self->fd, self->id, NULL));
}

/* the standard plan's queue and both sides of its ring, sized opts */
TEST_F(lib, dma)
{
	struct neuronsim_dma_opts o = { .sz = sizeof(o) };
	struct neuronsim_dma_queue_info q[2];
	struct neuronsim_dma_desc_info d[20];
	struct {
		struct neuronsim_dma_opts o;
		__u64 future;
	} big = { { .sz = sizeof(big) }, 1 };
	__u64 a;

	ASSERT_EQ(1, neuronsim_dma_queues(self->fd, self->id, NULL, NULL, 0));
	ASSERT_EQ(1, neuronsim_dma_queues(self->fd, self->id, &o, q, 2));
	EXPECT_STREQ("qSPIO0", q[0].name);
	EXPECT_EQ(8U, q[0].m2s_descs);
	o.subgraph = 1;
	ASSERT_EQ(0, neuronsim_dma_queues(self->fd, self->id, &o, q, 2));
	o.subgraph = 0;
	ASSERT_EQ(8, neuronsim_dma_ring(self->fd, self->id, &o, d, 20));
	ASSERT_EQ(0, neuronsim_resolve(self->fd, self->id, 0, V0_IN, 512, 512, &a));
	EXPECT_EQ(a, ((const union udma_desc *)d[1].desc)->tx.buf_ptr);
	EXPECT_EQ(512U, d[1].offset);
	o.side = NEURONSIM_DMA_S2M;
	o.first = 6;
	ASSERT_EQ(2, neuronsim_dma_ring(self->fd, self->id, &o, d, 20));
	EXPECT_EQ((__u32)V0_OUT, d[1].var_id);
	o.first = 9;
	EXPECT_EQ(-ERANGE, neuronsim_dma_ring(self->fd, self->id, &o, d, 20));
	EXPECT_EQ(-EINVAL, neuronsim_dma_ring(self->fd, self->id, NULL, NULL, 1));
	EXPECT_EQ(-E2BIG, neuronsim_dma_queues(self->fd, self->id, &big.o, q, 2));
	EXPECT_EQ(-ENOENT, neuronsim_dma_queues(self->fd, self->id + 1000, NULL, q, 2));
}

TEST_F(lib, load_failure_report)
{
	char log[1024];
	NEURONSIM_OPTS_INIT(load_opts, lo, .log_buf = log, .log_size = sizeof(log));
	void *bad = malloc(self->p.len);
	__u32 id = 0;

	ASSERT_NE(NULL, bad);
	memcpy(bad, self->p.buf, self->p.len);
	((struct kbin_header *)bad)->magic ^= 1;
	ASSERT_EQ(-EINVAL, neuronsim_load(self->fd, bad, self->p.len, &lo, &id));
	ASSERT_EQ(0U, id);
	ASSERT_EQ((__u32)KBIN_ERR_MAGIC, lo.err_reason);
	ASSERT_EQ((__u32)KBIN_FIELD_MAGIC, lo.err_field);
	ASSERT_LT(1U, lo.log_len);
	ASSERT_EQ(strlen(log) + 1, lo.log_len);
	TH_LOG("log: %s", log);

	/* a record the checker refuses: alignment 3 on sg 0 record 1 */
	memcpy(bad, self->p.buf, self->p.len);
	{
		struct kbin_header *h = bad;
		struct kbin_subgraph *sg = (void *)((char *)bad + h->subgraph_table_off);
		struct kbin_mem_ref_set *set = (void *)((char *)bad + sg[0].set_off);

		set->mem[V0_WEIGHT].alignment = 3;
		kbin_fix_checksum(bad, self->p.len);
	}
	ASSERT_EQ(-EINVAL, neuronsim_load(self->fd, bad, self->p.len, &lo, &id));
	ASSERT_EQ((__u32)KBIN_ERR_ALIGNMENT, lo.err_reason);
	ASSERT_EQ(0, lo.err_subgraph);
	ASSERT_EQ(V0_WEIGHT, lo.err_record);
	ASSERT_NE(NULL, strstr(log, "alignment")) TH_LOG("log: %s", log);
	free(bad);

	/* NeuronCores: subgraph 1 beyond the last core */
	ASSERT_EQ(-ENODEV, neuronsim_load(self->fd, self->p.buf, self->p.len,
		  &(struct neuronsim_load_opts){ .sz = sizeof(struct neuronsim_load_opts),
						 .first_core = self->info.num_cores - 1 },
		  &id));
	/* flags: none defined */
	ASSERT_EQ(-EINVAL, neuronsim_load(self->fd, self->p.buf, self->p.len,
		  &(struct neuronsim_load_opts){ .sz = sizeof(struct neuronsim_load_opts),
						 .flags = 1 }, &id));
	/* library-side argument checks */
	ASSERT_EQ(-EINVAL, neuronsim_load(self->fd, NULL, 8, NULL, &id));
	ASSERT_EQ(-EINVAL, neuronsim_load(self->fd, self->p.buf, 0, NULL, &id));
	ASSERT_EQ(-EINVAL, neuronsim_load(self->fd, self->p.buf, self->p.len, NULL, NULL));
	ASSERT_EQ(-EBADF, neuronsim_load(-1, self->p.buf, self->p.len, NULL, &id));
	/* an older caller's opts without the out fields: still loads */
	{
		struct neuronsim_load_opts old = { .sz = offsetof(struct neuronsim_load_opts, flags) };

		ASSERT_EQ(0, neuronsim_load(self->fd, self->p.buf, self->p.len, &old, &id));
		ASSERT_EQ(0, neuronsim_unload(self->fd, id));
	}
}

TEST_F(lib, load_file)
{
	const char *path = "/tmp/lib_test.kbin";
	FILE *f = fopen(path, "w");
	__u32 id;

	ASSERT_NE(NULL, f);
	ASSERT_EQ(self->p.len, fwrite(self->p.buf, 1, self->p.len, f));
	ASSERT_EQ(0, fclose(f));
	ASSERT_EQ(0, neuronsim_load_file(self->fd, path, NULL, &id));
	ASSERT_NE(self->id, id);
	ASSERT_EQ(0, neuronsim_unload(self->fd, id));
	ASSERT_EQ(-ENOENT, neuronsim_load_file(self->fd, "/tmp/none.kbin", NULL, &id));
	ASSERT_EQ(-EISDIR, neuronsim_load_file(self->fd, "/tmp", NULL, &id));
	f = fopen(path, "w");
	ASSERT_NE(NULL, f);
	fclose(f);
	ASSERT_EQ(-EINVAL, neuronsim_load_file(self->fd, path, NULL, &id));
	ASSERT_EQ(-EINVAL, neuronsim_load_file(self->fd, NULL, NULL, &id));
	unlink(path);
}

TEST_F(lib, resolve)
{
	/* what each (subgraph, var, offset, size) of the model must give */
	static const struct {
		__u32 sg, var;
		__u64 off, size;
		int ret;
	} c[] = {
		{ 0, V0_WEIGHT, 100, 16, 0 },
		{ 0, V0_WEIGHT, 0, STD_WEIGHT_SIZE, 0 },
		{ 0, V0_WEIGHT, 1, STD_WEIGHT_SIZE, -ERANGE },
		{ 0, V0_WEIGHT, ~0ULL, 2, -ERANGE },
		/* MR_PTR: its target's address at offset 0 only */
		{ 0, V0_PTR, 0, 0, 0 },
		{ 0, V0_PTR, 4, 0, -EINVAL },
		{ 0, V0_LIST, 0, 4, -ENODATA },
		{ 0, V0_N, 0, 0, -ENOENT },
		{ 2, 0, 0, 0, -ENOENT },
	};
	__u64 a, b;
	unsigned int i;

	ASSERT_EQ(0, neuronsim_resolve(self->fd, self->id, 0, V0_WEIGHT, 0, 16, &a));
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		b = 0;
		EXPECT_EQ(c[i].ret, neuronsim_resolve(self->fd, self->id, c[i].sg,
						      c[i].var, c[i].off,
						      c[i].size, &b))
			TH_LOG("subgraph %u var %u offset %llu size %llu",
			       c[i].sg, c[i].var, c[i].off, c[i].size);
		/* the weight at an offset, the pointer at its target */
		if (!c[i].ret)
			EXPECT_EQ(a + (c[i].var == V0_PTR ? 0 : c[i].off), b)
				TH_LOG("subgraph %u var %u offset %llu", c[i].sg,
				       c[i].var, c[i].off);
	}
	ASSERT_EQ(-ENOENT, neuronsim_resolve(self->fd, self->id + 1000, 0, 0, 0, 0, &b));
	ASSERT_EQ(-EINVAL, neuronsim_resolve(self->fd, self->id, 0, 0, 0, 0, NULL));
}

TEST_F(lib, resolve_batch)
{
	struct neuronsim_resolve_entry e[5] = {
		{ .subgraph = 0, .var_id = V0_WEIGHT, .offset = 8, .size = 8 },
		{ .subgraph = 0, .var_id = V0_WEIGHT, .offset = STD_WEIGHT_SIZE, .size = 1 },
		{ .subgraph = 0, .var_id = V0_LIST },
		{ .subgraph = 9, .var_id = 0 },
		{ .subgraph = 1, .var_id = V1_W, .size = STD_W1_SIZE },
	};
	__u32 ok = 0;
	__u64 a;

	ASSERT_EQ(0, neuronsim_resolve_batch(self->fd, self->id, e, 5, &ok));
	ASSERT_EQ(2U, ok);
	ASSERT_EQ(0, e[0].status);
	ASSERT_EQ(0, neuronsim_resolve(self->fd, self->id, 0, V0_WEIGHT, 8, 8, &a));
	ASSERT_EQ(a, e[0].address);
	ASSERT_EQ(-ERANGE, e[1].status);
	ASSERT_EQ(-ENODATA, e[2].status);
	ASSERT_EQ(-ENOENT, e[3].status);
	ASSERT_EQ(0, e[4].status);
	ASSERT_EQ(-EINVAL, neuronsim_resolve_batch(self->fd, self->id, e, 0, &ok));
	ASSERT_EQ(-EINVAL, neuronsim_resolve_batch(self->fd, self->id, e,
						   NEURONSIM_RESOLVE_BATCH_MAX + 1, &ok));
	ASSERT_EQ(-EINVAL, neuronsim_resolve_batch(self->fd, self->id, NULL, 1, &ok));
	ASSERT_EQ(-ENOENT, neuronsim_resolve_batch(self->fd, self->id + 1000, e, 5, &ok));
	ASSERT_EQ(0, neuronsim_resolve_batch(self->fd, self->id, e, 5, NULL));
}

TEST_F(lib, read_write_var)
{
	unsigned char buf[64], back[64];
	unsigned int i;

	/* the weight's payload was copied in at load */
	ASSERT_EQ(0, neuronsim_read_var(self->fd, self->id, 0, V0_WEIGHT, 0, buf, 64));
	for (i = 0; i < 64; i++)
		ASSERT_EQ(payload_byte(V0_WEIGHT, i), buf[i]);
	/* unwritten memory reads as zeros; written bytes read back */
	ASSERT_EQ(0, neuronsim_read_var(self->fd, self->id, 0, V0_TMP, 0, buf, 64));
	for (i = 0; i < 64; i++)
		ASSERT_EQ(0, buf[i]);
	for (i = 0; i < 64; i++)
		buf[i] = i ^ 0x5a;
	ASSERT_EQ(0, neuronsim_write_var(self->fd, self->id, 0, V0_TMP, 100, buf, 64));
	ASSERT_EQ(0, neuronsim_read_var(self->fd, self->id, 0, V0_TMP, 100, back, 64));
	ASSERT_EQ(0, memcmp(buf, back, 64));
	ASSERT_EQ(-ERANGE, neuronsim_read_var(self->fd, self->id, 0, V0_TMP, 5000 - 8,
					      buf, 64));
	ASSERT_EQ(-ERANGE, neuronsim_write_var(self->fd, self->id, 0, V0_TMP, 5000,
					       buf, 1));
	ASSERT_EQ(-ENODATA, neuronsim_read_var(self->fd, self->id, 0, V0_PTR, 0, buf, 8));
	ASSERT_EQ(-ENODATA, neuronsim_write_var(self->fd, self->id, 0, V0_LIST, 0, buf, 4));
	ASSERT_EQ(0, neuronsim_read_var(self->fd, self->id, 0, V0_TABLE, 0, buf, 8));
	ASSERT_EQ(-EPERM, neuronsim_write_var(self->fd, self->id, 0, V0_TABLE, 0, buf, 8));
	ASSERT_EQ(-ENOENT, neuronsim_read_var(self->fd, self->id, 0, V0_N, 0, buf, 1));
	ASSERT_EQ(-ENOENT, neuronsim_read_var(self->fd, self->id + 1000, 0, 0, 0, buf, 1));
	ASSERT_EQ(-EINVAL, neuronsim_read_var(self->fd, self->id, 0, V0_TMP, 0, NULL, 1));
	ASSERT_EQ(-EFAULT, neuronsim_read_var(self->fd, self->id, 0, V0_TMP, 0,
					      (void *)16, 8));
}

TEST_F(lib, ownership_and_unload)
{
	int fd2 = open_dut();
	__u64 a;

	ASSERT_LE(0, fd2);
	/* a model belongs to the fd that loaded it */
	ASSERT_EQ(-ENOENT, neuronsim_resolve(fd2, self->id, 0, V0_WEIGHT, 0, 0, &a));
	ASSERT_EQ(-ENOENT, neuronsim_unload(fd2, self->id));
	ASSERT_EQ(0, neuronsim_close(fd2));
	ASSERT_EQ(0, neuronsim_unload(self->fd, self->id));
	ASSERT_EQ(-ENOENT, neuronsim_unload(self->fd, self->id));
	ASSERT_EQ(-ENOENT, neuronsim_resolve(self->fd, self->id, 0, V0_WEIGHT, 0, 0, &a));
	ASSERT_EQ(-EBADF, neuronsim_unload(-1, 1));
}

NSIM_HARNESS_MAIN
