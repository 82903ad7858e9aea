// SPDX-License-Identifier: GPL-2.0
/*
 * tensor_test - device tensors (NEURONSIM_IOC_TENSOR_ALLOC, _FREE, _IO,
 * _COPY; Documentation/uapi.rst, "Device tensors") through libneuronsim's
 * neuronsim_tensor_*() and, for bad fields, the raw ioctls:
 *   - a tensor reads zeros, reads back what was written, memset sets one
 *     byte value (memset(3)'s conversion), 0-byte calls do nothing; its
 *     address is 4 KiB aligned in one HBM channel; FREE takes its id;
 *   - sysfs device_mem/tensors/present and device_mem/present of its
 *     NeuronCore, and debugfs stats hbm_used, rise by the size rounded to
 *     4 KiB and return to the baseline after FREE and after close without
 *     FREE (backing_bytes too); another fd gets -ENOENT for it; debugfs
 *     tensors lists it (name escaped) until then;
 *   - COPY tensor to tensor, tensor to a model's INPUT, INPUT to OUTPUT,
 *     OUTPUT to tensor, in batches; a copy from the state buffer reads
 *     the gap past a partition's bytes as zeros (READ_VAR's rule);
 *   - every documented errno of the four calls, a batch with one bad entry
 *     copies nothing, and an ALLOC whose struct cannot be written back
 *     leaves nothing;
 *   - max_tensors_per_fd (GET_INFO reports it) gives -EMFILE at the
 *     limit; a size over an HBM channel -E2BIG; a channel full -ENOSPC;
 *   - COPY of a variable of a model that is executing is -EBUSY, a
 *     tensor-only COPY is not;
 *   - threads on one fd: FREE racing COPY and IO of the same tensor, and
 *     UNLOAD racing COPY from the model's variable: every result 0 or
 *     -ENOENT, and the counters back at the baseline after close.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "kbin_writer.h"
#include "plans.h"

#define GRANULE		4096ULL

static struct neuronsim_tensor_end end_t(uint32_t id, uint64_t off)
{
	return (struct neuronsim_tensor_end){ .tensor_id = id, .offset = off };
}

static struct neuronsim_tensor_end end_v(uint32_t model, uint32_t sg,
					 uint32_t var, uint64_t off)
{
	return (struct neuronsim_tensor_end){
		.model_id = model, .subgraph = sg, .var_id = var, .offset = off,
	};
}

static struct neuronsim_tensor_copy cp(struct neuronsim_tensor_end src,
				       struct neuronsim_tensor_end dst,
				       uint64_t len)
{
	return (struct neuronsim_tensor_copy){ .src = src, .dst = dst, .len = len };
}

static uint8_t pat(uint64_t i, unsigned int seed)
{
	return (uint8_t)(i * 31 + seed * 7 + (i >> 8));
}

static void fill(uint8_t *b, uint64_t n, unsigned int seed)
{
	uint64_t i;

	for (i = 0; i < n; i++)
		b[i] = pat(i, seed);
}

/* the first byte where @got differs from @want, or -1 */
static long long diff_at(const uint8_t *got, const uint8_t *want, uint64_t n)
{
	uint64_t i;

	for (i = 0; i < n; i++)
		if (got[i] != want[i])
			return (long long)i;
	return -1;
}

/* in a test: @n bytes of @got equal @want, else say where they differ */
#define EXPECT_BYTES(got, want, n, what) do { \
	long long _d = diff_at((got), (want), (n)); \
	EXPECT_EQ(-1, _d) TH_LOG("%s: byte %lld is 0x%02x, not 0x%02x", (what), \
				 _d, _d < 0 ? 0 : (got)[_d], _d < 0 ? 0 : (want)[_d]); \
} while (0)

/* sysfs device_mem[/CAT]/present of NeuronCore @core of the device */
static long long devmem(uint32_t core, const char *cat)
{
	char path[256];
	int dev = nsim_dev_index();

	snprintf(path, sizeof(path),
		 "/sys/class/neuronsim/neuronsim%d/neuron_core%u/stats/memory_usage/device_mem/%s%spresent",
		 dev < 0 ? 0 : dev, core, cat ? cat : "", cat ? "/" : "");
	return read_number(path);
}

static int copy1(int fd, struct neuronsim_tensor_copy c)
{
	return neuronsim_tensor_copy(fd, &c, 1);
}

FIXTURE(t) {
	STD_FIXTURE_FIELDS;
};

FIXTURE_SETUP(t)
{
	STD_FIXTURE_LOAD(self);
}

FIXTURE_TEARDOWN(t)
{
	STD_FIXTURE_FREE(self);
}

TEST_F(t, read_write_memset_free)
{
	uint8_t w[10000], r[10000], want[10000];
	__u64 pa = 0;
	uint32_t id = 0;

	ASSERT_EQ(0, neuronsim_tensor_alloc(self->fd, 0, sizeof(w), "t0", &id, &pa));
	EXPECT_LE(1, id);
	EXPECT_EQ(0, pa % GRANULE);
	EXPECT_TRUE(nsim_in_hbm(&self->info, pa, sizeof(w)));
	memset(r, 0x5a, sizeof(r));
	memset(want, 0, sizeof(want));
	ASSERT_EQ(0, neuronsim_tensor_read(self->fd, id, 0, r, sizeof(r)));
	EXPECT_BYTES(r, want, sizeof(r), "a new tensor");
	fill(w, sizeof(w), 1);
	ASSERT_EQ(0, neuronsim_tensor_write(self->fd, id, 100, w, 5000));
	memcpy(want + 100, w, 5000);
	ASSERT_EQ(0, neuronsim_tensor_read(self->fd, id, 0, r, sizeof(r)));
	EXPECT_BYTES(r, want, sizeof(r), "after a write");
	ASSERT_EQ(0, neuronsim_tensor_memset(self->fd, id, 200, 0xab, 50));
	memset(want + 200, 0xab, 50);
	ASSERT_EQ(0, neuronsim_tensor_memset(self->fd, id, 9000, -1, 1000));
	memset(want + 9000, 0xff, 1000);
	/* 0 bytes: nothing moves, at any offset up to the size */
	EXPECT_EQ(0, neuronsim_tensor_write(self->fd, id, sizeof(w), NULL, 0));
	EXPECT_EQ(0, neuronsim_tensor_memset(self->fd, id, 0, 7, 0));
	ASSERT_EQ(0, neuronsim_tensor_read(self->fd, id, 0, r, sizeof(r)));
	EXPECT_BYTES(r, want, sizeof(r), "after memsets");
	/* a memset of zeros over written bytes writes them */
	ASSERT_EQ(0, neuronsim_tensor_memset(self->fd, id, 0, 0, sizeof(w)));
	memset(want, 0, sizeof(want));
	ASSERT_EQ(0, neuronsim_tensor_read(self->fd, id, 0, r, sizeof(r)));
	EXPECT_BYTES(r, want, sizeof(r), "after a memset of zeros");
	EXPECT_EQ(0, neuronsim_tensor_free(self->fd, id));
	EXPECT_EQ(-ENOENT, neuronsim_tensor_free(self->fd, id));
	EXPECT_EQ(-ENOENT, neuronsim_tensor_read(self->fd, id, 0, r, 1));
}

TEST_F(t, accounting_and_close)
{
	long long t0 = devmem(1, "tensors"), a0 = devmem(1, NULL);
	struct stats base, s;
	uint8_t buf[8192];
	char path[256], line[160], *text;
	uint32_t id, id2, id3;
	__u64 pa3;
	int fd2;

	ASSERT_LE(0, t0);
	ASSERT_EQ(0, read_stats(&base));
	ASSERT_EQ(0, neuronsim_tensor_alloc(self->fd, 1, 5000, NULL, &id, NULL));
	EXPECT_EQ(t0 + 8192, devmem(1, "tensors"));
	EXPECT_EQ(a0 + 8192, devmem(1, NULL));
	ASSERT_EQ(0, read_stats(&s));
	EXPECT_EQ(base.hbm_used + 8192, s.hbm_used);
	EXPECT_EQ(base.models, s.models);
	memset(buf, 1, sizeof(buf));
	ASSERT_EQ(0, neuronsim_tensor_write(self->fd, id, 0, buf, 5000));
	ASSERT_EQ(0, read_stats(&s));
	EXPECT_EQ(base.backing_bytes + 8192, s.backing_bytes);
	EXPECT_FILE_HAS(dbgfs_path((char[256]){ 0 }, 256, "hbm"), "TENSOR");
	EXPECT_EQ(0, neuronsim_tensor_free(self->fd, id));
	EXPECT_EQ(t0, devmem(1, "tensors"));
	EXPECT_EQ(a0, devmem(1, NULL));
	EXPECT_STATS_AT(&base);

	/* closing the fd frees what it holds; another fd sees none of it */
	fd2 = nsim_open();
	ASSERT_LE(0, fd2);
	ASSERT_EQ(0, neuronsim_tensor_alloc(fd2, 1, 1, "a", &id2, NULL));
	ASSERT_EQ(0, neuronsim_tensor_alloc(fd2, 1, 4097, "b c\td", &id3, &pa3));
	EXPECT_EQ(t0 + 3 * 4096, devmem(1, "tensors"));
	/* debugfs tensors: id, core, size, address, pid, name (escaped) */
	dbgfs_path(path, sizeof(path), "tensors");
	snprintf(line, sizeof(line), "\n%u\t1\t4097\t0x%llx\t%d\tb c\\td\n",
		 id3, (unsigned long long)pa3, (int)getpid());
	EXPECT_FILE_HAS(path, "id\tcore\tsize\tphysical_address\tpid\tname\n", line);
	ASSERT_EQ(0, neuronsim_tensor_memset(fd2, id3, 0, 3, 4097));
	EXPECT_EQ(-ENOENT, neuronsim_tensor_read(self->fd, id3, 0, buf, 1));
	EXPECT_EQ(-ENOENT, neuronsim_tensor_free(self->fd, id2));
	EXPECT_EQ(-ENOENT, copy1(self->fd, cp(end_t(id3, 0), end_v(self->id, 0, V0_IN, 0), 1)));
	close(fd2);
	text = read_file(path, NULL);
	ASSERT_NE(NULL, text);
	EXPECT_EQ(NULL, strstr(text, line)) TH_LOG("%s after close: %s", path, text);
	free(text);
	EXPECT_EQ(t0, devmem(1, "tensors"));
	EXPECT_EQ(a0, devmem(1, NULL));
	EXPECT_STATS_AT(&base);
}

TEST_F(t, copy_tensors_and_vars)
{
	uint8_t w[8192], r[8192], want[8192] = { 0 };
	struct neuronsim_tensor_copy c[3];
	uint32_t a, b;

	ASSERT_EQ(0, neuronsim_tensor_alloc(self->fd, 0, sizeof(w), "a", &a, NULL));
	ASSERT_EQ(0, neuronsim_tensor_alloc(self->fd, 3, sizeof(w), "b", &b, NULL));
	fill(w, sizeof(w), 2);
	ASSERT_EQ(0, neuronsim_tensor_write(self->fd, a, 0, w, sizeof(w)));

	/* tensor to tensor, three entries in order */
	c[0] = cp(end_t(a, 0), end_t(b, 100), 4096);
	c[1] = cp(end_t(a, 5000), end_t(b, 6000), 1000);
	c[2] = cp(end_t(b, 100), end_t(b, 7000), 10);	/* reads entry 0's bytes */
	ASSERT_EQ(0, neuronsim_tensor_copy(self->fd, c, 3));
	memcpy(want + 100, w, 4096);
	memcpy(want + 6000, w + 5000, 1000);
	memcpy(want + 7000, w, 10);
	ASSERT_EQ(0, neuronsim_tensor_read(self->fd, b, 0, r, sizeof(r)));
	EXPECT_BYTES(r, want, sizeof(r), "tensor b");

	/* tensor -> INPUT -> OUTPUT -> tensor */
	c[0] = cp(end_t(a, 1000), end_v(self->id, 0, V0_IN, 0), 2048);
	c[1] = cp(end_v(self->id, 0, V0_IN, 0), end_v(self->id, 0, V0_OUT, 0), 2048);
	c[2] = cp(end_v(self->id, 0, V0_OUT, 48), end_t(b, 0), 2000);
	ASSERT_EQ(0, neuronsim_tensor_copy(self->fd, c, 3));
	ASSERT_EQ(0, nsim_read_var(self->fd, self->id, 0, V0_OUT, 0, r, 2048));
	EXPECT_EQ(0, memcmp(r, w + 1000, 2048));
	ASSERT_EQ(0, neuronsim_tensor_read(self->fd, b, 0, r, 2000));
	EXPECT_EQ(0, memcmp(r, w + 1048, 2000));

	/*
	 * the state buffer's gap past partition 0's bytes reads as zeros,
	 * over bytes the destination held (where the generation has a gap)
	 */
	{
		uint64_t part = self->info.sbuf_partition_size;
		uint8_t eight[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };

		ASSERT_EQ(0, nsim_write_var(self->fd, self->id, 0, V0_SB, part - 16,
					    eight, 8));
		ASSERT_EQ(0, neuronsim_tensor_memset(self->fd, b, 0, 0xee, 64));
		ASSERT_EQ(0, copy1(self->fd, cp(end_v(self->id, 0, V0_SB, part - 16),
						end_t(b, 0), 48)));
		memset(want, 0, 64);
		memcpy(want, eight, 8);
		memset(want + 48, 0xee, 16);
		ASSERT_EQ(0, neuronsim_tensor_read(self->fd, b, 0, r, 64));
		EXPECT_BYTES(r, want, 64, "state buffer bytes, carve-out, gap");
	}
	EXPECT_EQ(0, neuronsim_tensor_free(self->fd, a));
	EXPECT_EQ(0, neuronsim_tensor_free(self->fd, b));
}

TEST_F(t, copy_errors)
{
	struct neuronsim_tensor_copy c[2];
	struct neuronsim_tensor_copy_batch batch = { .count = 1 };
	uint64_t part = self->info.sbuf_partition_size;
	uint64_t stride = self->info.sbuf_window_size / self->info.sbuf_partitions;
	uint8_t w[4096], w2[4096], r[4096];
	uint32_t a, b, other_t;
	int other = nsim_open();
	void *ro;

	ASSERT_LE(0, other);
	ASSERT_EQ(0, neuronsim_tensor_alloc(self->fd, 0, 4096, "a", &a, NULL));
	ASSERT_EQ(0, neuronsim_tensor_alloc(self->fd, 0, 4096, "b", &b, NULL));
	/* ids are per fd: the other fd's third is no id of this fd */
	for (int i = 0; i < 3; i++)
		ASSERT_EQ(0, neuronsim_tensor_alloc(other, 0, 4096, "o", &other_t, NULL));
	fill(w, sizeof(w), 3);
	ASSERT_EQ(0, neuronsim_tensor_write(self->fd, a, 0, w, sizeof(w)));

	/* -EINVAL */
	c[0] = cp(end_t(a, 0), end_t(b, 0), 16);
	batch.copies = (uintptr_t)c;
	batch.flags = 1;
	EXPECT_EQ(EINVAL, ioctl_errno(self->fd, NEURONSIM_IOC_TENSOR_COPY, &batch));
	batch.flags = 0;
	batch.reserved = 1;
	EXPECT_EQ(EINVAL, ioctl_errno(self->fd, NEURONSIM_IOC_TENSOR_COPY, &batch));
	batch.reserved = 0;
	batch.count = 0;
	EXPECT_EQ(EINVAL, ioctl_errno(self->fd, NEURONSIM_IOC_TENSOR_COPY, &batch));
	batch.count = NEURONSIM_TENSOR_COPY_MAX + 1;
	EXPECT_EQ(EINVAL, ioctl_errno(self->fd, NEURONSIM_IOC_TENSOR_COPY, &batch));
	EXPECT_EQ(-EINVAL, neuronsim_tensor_copy(self->fd, c, 0));
	EXPECT_EQ(-EINVAL, neuronsim_tensor_copy(self->fd, NULL, 1));
	c[0].src.model_id = self->id;
	EXPECT_EQ(-EINVAL, copy1(self->fd, c[0]));
	c[0] = cp(end_t(a, 0), end_t(b, 0), 16);
	c[0].dst.var_id = 1;
	EXPECT_EQ(-EINVAL, copy1(self->fd, c[0]));
	EXPECT_EQ(-EINVAL, copy1(self->fd, cp(end_t(a, 0), end_t(a, 100), 200)));
	EXPECT_EQ(-EINVAL, copy1(self->fd, cp(end_v(self->id, 0, V0_IN, 0),
					      end_v(self->id, 0, V0_IN, 8), 16)));
	/* apart by exactly len: no overlap */
	EXPECT_EQ(0, copy1(self->fd, cp(end_t(a, 0), end_t(a, 100), 100)));
	ASSERT_EQ(0, neuronsim_tensor_write(self->fd, a, 0, w, sizeof(w)));

	/* -ENOENT */
	EXPECT_EQ(-ENOENT, copy1(self->fd, cp(end_t(9999, 0), end_t(b, 0), 1)));
	EXPECT_EQ(-ENOENT, copy1(self->fd, cp(end_t(a, 0), end_t(other_t, 0), 1)));
	EXPECT_EQ(-ENOENT, copy1(self->fd, cp(end_t(a, 0), end_v(self->id + 100, 0, V0_IN, 0), 1)));
	EXPECT_EQ(-ENOENT, copy1(other, cp(end_t(other_t, 0), end_v(self->id, 0, V0_IN, 0), 1)));
	EXPECT_EQ(-ENOENT, copy1(self->fd, cp(end_t(a, 0), end_v(self->id, 2, 0, 0), 1)));
	EXPECT_EQ(-ENOENT, copy1(self->fd, cp(end_v(self->id, 0, V0_N + 5, 0), end_t(a, 0), 1)));

	/* -ERANGE */
	EXPECT_EQ(-ERANGE, copy1(self->fd, cp(end_t(a, 1), end_t(b, 0), 4096)));
	EXPECT_EQ(-ERANGE, copy1(self->fd, cp(end_t(a, 0), end_t(b, 4000), 97)));
	EXPECT_EQ(-ERANGE, copy1(self->fd, cp(end_t(a, ~0ULL), end_t(b, 0), 2)));
	EXPECT_EQ(-ERANGE, copy1(self->fd, cp(end_t(a, 0), end_v(self->id, 0, V0_IN, 2000), 49)));
	EXPECT_EQ(-ERANGE, copy1(self->fd, cp(end_v(self->id, 0, V0_OUT, ~0ULL), end_t(a, 0), 2)));
	if (part < stride)	/* a destination touching the gap */
		EXPECT_EQ(-ERANGE, copy1(self->fd, cp(end_t(a, 0), end_v(self->id, 0, V0_SB, part), 1)));

	/* -ENODATA: no storage */
	EXPECT_EQ(-ENODATA, copy1(self->fd, cp(end_v(self->id, 0, V0_LIST, 0), end_t(a, 0), 4)));
	EXPECT_EQ(-ENODATA, copy1(self->fd, cp(end_t(a, 0), end_v(self->id, 0, V0_PTR, 0), 8)));

	/* -EPERM: the pointer table, the carve-out's bytes; reading them works */
	EXPECT_EQ(-EPERM, copy1(self->fd, cp(end_t(a, 0), end_v(self->id, 0, V0_TABLE, 0), 8)));
	EXPECT_EQ(0, copy1(self->fd, cp(end_v(self->id, 0, V0_TABLE, 0), end_t(b, 0), 16)));
	EXPECT_EQ(-EPERM, copy1(self->fd, cp(end_t(a, 0), end_v(self->id, 0, V0_SB, part - 8), 8)));
	EXPECT_EQ(0, copy1(self->fd, cp(end_v(self->id, 0, V0_SB, part - 8), end_t(b, 0), 8)));

	/* -EFAULT: the array unmapped or in the kernel half */
	batch.count = 1;
	batch.copies = 8;
	EXPECT_EQ(EFAULT, ioctl_errno(self->fd, NEURONSIM_IOC_TENSOR_COPY, &batch));
	batch.copies = 0xffff888000000000ULL;
	EXPECT_EQ(EFAULT, ioctl_errno(self->fd, NEURONSIM_IOC_TENSOR_COPY, &batch));

	/* all or nothing: a bad second entry, and the first copied nothing */
	ASSERT_EQ(0, neuronsim_tensor_memset(self->fd, b, 0, 0x11, 4096));
	c[0] = cp(end_t(a, 0), end_t(b, 0), 4096);
	c[1] = cp(end_t(a, 0), end_v(self->id, 0, V0_TABLE, 0), 8);
	EXPECT_EQ(-EPERM, neuronsim_tensor_copy(self->fd, c, 2));
	c[1] = cp(end_t(a, 0), end_t(b, 1), 4096);
	EXPECT_EQ(-ERANGE, neuronsim_tensor_copy(self->fd, c, 2));
	ASSERT_EQ(0, neuronsim_tensor_read(self->fd, b, 0, r, sizeof(r)));
	memset(w2, 0x11, sizeof(w2));
	EXPECT_BYTES(r, w2, sizeof(r), "the destination of a refused batch");
	/* a batch from a read-only page works (the kernel only reads it) */
	ro = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, ro);
	memcpy(ro, c, sizeof(c[0]));
	ASSERT_EQ(0, mprotect(ro, 4096, PROT_READ));
	EXPECT_EQ(0, neuronsim_tensor_copy(self->fd, ro, 1));
	munmap(ro, 4096);
	ASSERT_EQ(0, neuronsim_tensor_read(self->fd, b, 0, r, sizeof(r)));
	EXPECT_EQ(0, memcmp(r, w, sizeof(r)));
	close(other);
}

TEST_F(t, alloc_errors_and_limits)
{
	struct neuronsim_tensor_alloc a = { .core = 0, .size = 4096 };
	uint64_t half = self->info.hbm_channel_size / 2 + GRANULE;
	unsigned long long max = nsim_param("max_tensors_per_fd");
	struct stats base, s;
	uint32_t ids[4], big;
	void *ro;
	int i;

	EXPECT_EQ(4096, max);
	EXPECT_EQ(max, self->info.max_tensors_per_fd);
	EXPECT_TRUE(self->info.features & NEURONSIM_FEAT_TENSOR);
	ASSERT_EQ(0, read_stats(&base));
	a.flags = 1;
	EXPECT_EQ(EINVAL, ioctl_errno(self->fd, NEURONSIM_IOC_TENSOR_ALLOC, &a));
	a.flags = 0;
	a.reserved0 = 1;
	EXPECT_EQ(EINVAL, ioctl_errno(self->fd, NEURONSIM_IOC_TENSOR_ALLOC, &a));
	a.reserved0 = 0;
	a.reserved = 1;
	EXPECT_EQ(EINVAL, ioctl_errno(self->fd, NEURONSIM_IOC_TENSOR_ALLOC, &a));
	a.reserved = 0;
	memset(a.name, 'x', sizeof(a.name));
	EXPECT_EQ(EINVAL, ioctl_errno(self->fd, NEURONSIM_IOC_TENSOR_ALLOC, &a));
	memset(a.name, 0, sizeof(a.name));
	EXPECT_EQ(-EINVAL, neuronsim_tensor_alloc(self->fd, self->info.num_cores, 4096, NULL, &big, NULL));
	EXPECT_EQ(-EINVAL, neuronsim_tensor_alloc(self->fd, 0, 0, NULL, &big, NULL));
	EXPECT_EQ(-EINVAL, neuronsim_tensor_alloc(self->fd, 0, 4096, NULL, NULL, NULL));
	EXPECT_EQ(-E2BIG, neuronsim_tensor_alloc(self->fd, 0, self->info.hbm_channel_size + 1,
						 NULL, &big, NULL));
	/* a name of any length is cut to fit */
	{
		char name[200];

		memset(name, 'n', sizeof(name) - 1);
		name[sizeof(name) - 1] = 0;
		ASSERT_EQ(0, neuronsim_tensor_alloc(self->fd, 0, 1, name, &big, NULL));
		EXPECT_EQ(0, neuronsim_tensor_free(self->fd, big));
	}
	/* -ENOSPC: two tensors of more than half a channel */
	ASSERT_EQ(0, neuronsim_tensor_alloc(self->fd, 0, half, "half", &big, NULL));
	EXPECT_EQ(-ENOSPC, neuronsim_tensor_alloc(self->fd, 0, half, "more", &ids[0], NULL));
	EXPECT_EQ(0, neuronsim_tensor_free(self->fd, big));
	EXPECT_STATS_AT(&base);

	/* max_tensors_per_fd */
	ASSERT_EQ(0, nsim_param_set("max_tensors_per_fd", 3));
	for (i = 0; i < 3; i++)
		ASSERT_EQ(0, neuronsim_tensor_alloc(self->fd, 0, 1, NULL, &ids[i], NULL));
	EXPECT_EQ(-EMFILE, neuronsim_tensor_alloc(self->fd, 0, 1, NULL, &ids[3], NULL));
	EXPECT_EQ(0, neuronsim_tensor_free(self->fd, ids[1]));
	EXPECT_EQ(0, neuronsim_tensor_alloc(self->fd, 0, 1, NULL, &ids[1], NULL));
	EXPECT_EQ(-EMFILE, neuronsim_tensor_alloc(self->fd, 0, 1, NULL, &ids[3], NULL));
	/* ids are not handed out again at once */
	EXPECT_NE(ids[1], ids[0]);
	EXPECT_NE(ids[1], ids[2]);
	ASSERT_EQ(0, nsim_param_set("max_tensors_per_fd", max));
	for (i = 0; i < 3; i++)
		EXPECT_EQ(0, neuronsim_tensor_free(self->fd, ids[i]));
	EXPECT_STATS_AT(&base);

	/* a struct that cannot be written back: -EFAULT, nothing left */
	ro = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, ro);
	memcpy(ro, &a, sizeof(a));
	ASSERT_EQ(0, mprotect(ro, 4096, PROT_READ));
	EXPECT_EQ(EFAULT, ioctl_errno(self->fd, NEURONSIM_IOC_TENSOR_ALLOC, ro));
	munmap(ro, 4096);
	ASSERT_EQ(0, read_stats(&s));
	EXPECT_EQ(base.hbm_used, s.hbm_used);
	EXPECT_EQ(EFAULT, ioctl_errno(self->fd, NEURONSIM_IOC_TENSOR_ALLOC, (void *)8));
	/* the failed ones counted nothing against the limit */
	ASSERT_EQ(0, nsim_param_set("max_tensors_per_fd", 1));
	EXPECT_EQ(0, neuronsim_tensor_alloc(self->fd, 0, 1, NULL, &ids[0], NULL));
	ASSERT_EQ(0, nsim_param_set("max_tensors_per_fd", max));
	EXPECT_EQ(0, neuronsim_tensor_free(self->fd, ids[0]));
	EXPECT_STATS_AT(&base);
}

TEST_F(t, io_and_free_errors)
{
	struct neuronsim_tensor_io io = { .len = 1 };
	struct neuronsim_tensor_free f = { 0 };
	uint8_t buf[64];
	uint32_t id;
	int other = nsim_open();

	ASSERT_LE(0, other);
	ASSERT_EQ(0, neuronsim_tensor_alloc(self->fd, 0, 64, "io", &id, NULL));
	io.tensor_id = id;
	io.buf = (uintptr_t)buf;
	io.op = NEURONSIM_TENSOR_MEMSET + 1;
	EXPECT_EQ(EINVAL, ioctl_errno(self->fd, NEURONSIM_IOC_TENSOR_IO, &io));
	io.op = NEURONSIM_TENSOR_READ;
	io.flags = 1;
	EXPECT_EQ(EINVAL, ioctl_errno(self->fd, NEURONSIM_IOC_TENSOR_IO, &io));
	io.flags = 0;
	io.value = 1;
	EXPECT_EQ(EINVAL, ioctl_errno(self->fd, NEURONSIM_IOC_TENSOR_IO, &io));
	io.op = NEURONSIM_TENSOR_WRITE;
	EXPECT_EQ(EINVAL, ioctl_errno(self->fd, NEURONSIM_IOC_TENSOR_IO, &io));
	io.op = NEURONSIM_TENSOR_MEMSET;
	EXPECT_EQ(EINVAL, ioctl_errno(self->fd, NEURONSIM_IOC_TENSOR_IO, &io));	/* buf set */
	io.buf = 0;
	io.value = 256;
	EXPECT_EQ(EINVAL, ioctl_errno(self->fd, NEURONSIM_IOC_TENSOR_IO, &io));
	io.value = 255;
	EXPECT_EQ(0, ioctl_errno(self->fd, NEURONSIM_IOC_TENSOR_IO, &io));
	EXPECT_EQ(-EINVAL, neuronsim_tensor_read(self->fd, id, 0, NULL, 1));
	EXPECT_EQ(-EINVAL, neuronsim_tensor_write(self->fd, id, 0, NULL, 1));

	EXPECT_EQ(-ENOENT, neuronsim_tensor_read(self->fd, id + 1000, 0, buf, 1));
	EXPECT_EQ(-ENOENT, neuronsim_tensor_read(self->fd, 0, 0, buf, 1));
	EXPECT_EQ(-ENOENT, neuronsim_tensor_write(other, id, 0, buf, 1));
	EXPECT_EQ(-ENOENT, neuronsim_tensor_memset(other, id, 0, 1, 1));

	EXPECT_EQ(-ERANGE, neuronsim_tensor_read(self->fd, id, 0, buf, 65));
	EXPECT_EQ(-ERANGE, neuronsim_tensor_write(self->fd, id, 64, buf, 1));
	EXPECT_EQ(-ERANGE, neuronsim_tensor_memset(self->fd, id, 65, 1, 0));
	EXPECT_EQ(-ERANGE, neuronsim_tensor_memset(self->fd, id, ~0ULL, 1, 2));

	EXPECT_EQ(-EFAULT, neuronsim_tensor_read(self->fd, id, 0, (void *)8, 1));
	EXPECT_EQ(-EFAULT, neuronsim_tensor_write(self->fd, id, 0, (void *)8, 1));
	EXPECT_EQ(-EFAULT, neuronsim_tensor_read(self->fd, id, 0, (void *)0xffff888000000000ULL, 8));

	f.tensor_id = id;
	f.flags = 1;
	EXPECT_EQ(EINVAL, ioctl_errno(self->fd, NEURONSIM_IOC_TENSOR_FREE, &f));
	EXPECT_EQ(-ENOENT, neuronsim_tensor_free(other, id));
	EXPECT_EQ(-ENOENT, neuronsim_tensor_free(self->fd, 0));
	EXPECT_EQ(0, neuronsim_tensor_free(self->fd, id));
	close(other);
}

/* a copy of 1 KiB of v0 onto v1 repeated for 1 GiB: seconds of execution */
#define LONG_RUN	1024U
#define LONG_ROWS	((1U << 30) / LONG_RUN)
static const struct kbin_dma_desc long_desc = {
	.op = KBIN_DMA_OP_COPY,
	.from = { .var_id = 1, .dtype = KBIN_DMA_DTYPE_UINT8, .num_dims = 2,
		  .sizes = { LONG_RUN, LONG_ROWS }, .steps = { 1, 0 } },
	.to = { .var_id = 2, .dtype = KBIN_DMA_DTYPE_UINT8, .num_dims = 2,
		.sizes = { LONG_RUN, LONG_ROWS }, .steps = { 1, 0 } },
};

TEST_F(t, busy_while_executing)
{
	uint64_t sizes[2] = { LONG_RUN, LONG_RUN };
	struct neuronsim_exec x = { 0 };
	struct plan lp;
	uint32_t m, a, b;

	ASSERT_EQ(0, plan_descs_prog(&self->info, sizes, 2, &long_desc, 1, &lp));
	ASSERT_EQ(0, nsim_load(self->fd, &lp, NEURONSIM_CORE_ANY, &m, NULL, NULL, 0));
	ASSERT_EQ(0, neuronsim_tensor_alloc(self->fd, 0, LONG_RUN, "a", &a, NULL));
	ASSERT_EQ(0, neuronsim_tensor_alloc(self->fd, 0, LONG_RUN, "b", &b, NULL));
	EXPECT_EQ(0, copy1(self->fd, cp(end_t(a, 0), end_v(m, 0, 1, 0), LONG_RUN)));
	x.model_id = m;
	ASSERT_EQ(0, ioctl_errno(self->fd, NEURONSIM_IOC_EXECUTE, &x));
	EXPECT_EQ(-EBUSY, copy1(self->fd, cp(end_t(a, 0), end_v(m, 0, 1, 0), LONG_RUN)));
	EXPECT_EQ(-EBUSY, copy1(self->fd, cp(end_v(m, 0, 2, 0), end_t(a, 0), 16)));
	/* a batch with an idle model's variable and the busy one's: nothing */
	{
		struct neuronsim_tensor_copy c[2] = {
			cp(end_t(a, 0), end_v(self->id, 0, V0_IN, 0), 16),
			cp(end_v(m, 0, 2, 0), end_t(b, 0), 16),
		};

		EXPECT_EQ(-EBUSY, neuronsim_tensor_copy(self->fd, c, 2));
	}
	/* tensors and idle models are not held up */
	EXPECT_EQ(0, copy1(self->fd, cp(end_t(a, 0), end_t(b, 0), LONG_RUN)));
	EXPECT_EQ(0, copy1(self->fd, cp(end_t(a, 0), end_v(self->id, 0, V0_IN, 0), 16)));
	EXPECT_EQ(0, nsim_unload(self->fd, m));
	EXPECT_EQ(-ENOENT, copy1(self->fd, cp(end_t(a, 0), end_v(m, 0, 1, 0), 16)));
	plan_free(&lp);
}

/* the race: threads on one fd, for RACE_MS */
#define RACE_MS		1500
#define RACE_SIZE	(1U << 20)

struct race {
	int fd;
	uint32_t model;			/* the fixture's, never unloaded */
	const struct plan *p;
	_Atomic uint32_t victim;	/* the tensor being freed and made again */
	_Atomic uint32_t vmodel;	/* the model being unloaded and loaded */
	uint32_t dst;			/* a tensor of RACE_SIZE that stays */
	_Atomic int stop;
	_Atomic int bad;		/* an unexpected result */
	_Atomic unsigned long ok, gone;
};

static void race_note(struct race *r, int ret, const char *what)
{
	if (!ret)
		atomic_fetch_add(&r->ok, 1);
	else if (ret == -ENOENT)
		atomic_fetch_add(&r->gone, 1);
	else if (!atomic_exchange(&r->bad, ret))
		printf("# %s: %d\n", what, ret);
}

/* copies and reads of the victim and of the model's variable */
static void *race_user(void *arg)
{
	struct race *r = arg;
	uint8_t *buf = malloc(RACE_SIZE);

	while (buf && !atomic_load(&r->stop)) {
		uint32_t v = atomic_load(&r->victim), vm = atomic_load(&r->vmodel);

		race_note(r, copy1(r->fd, cp(end_t(v, 0), end_t(r->dst, 0), RACE_SIZE)),
			  "COPY victim -> dst");
		race_note(r, copy1(r->fd, cp(end_t(r->dst, 0), end_t(v, 0), RACE_SIZE)),
			  "COPY dst -> victim");
		race_note(r, neuronsim_tensor_read(r->fd, v, 0, buf, RACE_SIZE),
			  "READ victim");
		race_note(r, copy1(r->fd, cp(end_v(vm, 0, V0_OUT, 0), end_t(r->dst, 0), 2048)),
			  "COPY model -> dst");
		race_note(r, copy1(r->fd, cp(end_t(v, 0), end_v(vm, 0, V0_IN, 0), 2048)),
			  "COPY victim -> model");
	}
	free(buf);
	return NULL;
}

/* frees the victim and makes another, over and over */
static void *race_freer(void *arg)
{
	struct race *r = arg;

	while (!atomic_load(&r->stop)) {
		uint32_t v = atomic_load(&r->victim), n;
		int ret = neuronsim_tensor_alloc(r->fd, 0, RACE_SIZE, "v", &n, NULL);

		if (ret || neuronsim_tensor_memset(r->fd, n, 0, 0x77, RACE_SIZE)) {
			race_note(r, ret ? ret : -EIO, "ALLOC victim");
			break;
		}
		atomic_store(&r->victim, n);
		race_note(r, neuronsim_tensor_free(r->fd, v), "FREE victim");
	}
	return NULL;
}

/* unloads the model and loads another, over and over */
static void *race_unloader(void *arg)
{
	struct race *r = arg;

	while (!atomic_load(&r->stop)) {
		uint32_t m = atomic_load(&r->vmodel), n;
		int ret = nsim_load(r->fd, r->p, NEURONSIM_CORE_ANY, &n, NULL, NULL, 0);

		if (ret) {
			race_note(r, ret, "LOAD");
			break;
		}
		atomic_store(&r->vmodel, n);
		race_note(r, nsim_unload(r->fd, m), "UNLOAD");
	}
	return NULL;
}

TEST_F_TIMEOUT(t, free_and_unload_race_copy, 60)
{
	struct race r = { 0 };
	pthread_t th[4];
	struct stats base, s;
	uint32_t v, vm;
	int i;

	r.fd = nsim_open();
	ASSERT_LE(0, r.fd);
	r.p = &self->p;
	ASSERT_EQ(0, read_stats(&base));
	ASSERT_EQ(0, neuronsim_tensor_alloc(r.fd, 2, RACE_SIZE, "dst", &r.dst, NULL));
	ASSERT_EQ(0, neuronsim_tensor_alloc(r.fd, 0, RACE_SIZE, "v", &v, NULL));
	atomic_store(&r.victim, v);
	ASSERT_EQ(0, nsim_load(r.fd, &self->p, NEURONSIM_CORE_ANY, &vm, NULL, NULL, 0));
	atomic_store(&r.vmodel, vm);
	ASSERT_EQ(0, pthread_create(&th[0], NULL, race_user, &r));
	ASSERT_EQ(0, pthread_create(&th[1], NULL, race_user, &r));
	ASSERT_EQ(0, pthread_create(&th[2], NULL, race_freer, &r));
	ASSERT_EQ(0, pthread_create(&th[3], NULL, race_unloader, &r));
	usleep(RACE_MS * 1000);
	atomic_store(&r.stop, 1);
	for (i = 0; i < 4; i++)
		pthread_join(th[i], NULL);
	EXPECT_EQ(0, atomic_load(&r.bad));
	EXPECT_LT(0, atomic_load(&r.ok));
	TH_LOG("%lu calls succeeded, %lu found their tensor or model gone",
	       atomic_load(&r.ok), atomic_load(&r.gone));
	close(r.fd);
	ASSERT_EQ(0, read_stats(&s));
	EXPECT_EQ(base.hbm_used, s.hbm_used);
	EXPECT_EQ(base.backing_bytes, s.backing_bytes);
	EXPECT_EQ(base.models, s.models);
}

NSIM_HARNESS_MAIN
