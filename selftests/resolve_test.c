// SPDX-License-Identifier: GPL-2.0
/*
 * resolve_test - the resolve rule of Documentation/uapi.rst and its errnos
 * (uapi/linux/neuronsim.h), RESOLVE_BATCH equal to single RESOLVEs, and
 * failures in the kernel log, in libnrt's words, at debug level only.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/klog.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "plans.h"

FIXTURE(rs) {
	STD_FIXTURE_FIELDS;
};

FIXTURE_SETUP(rs)
{
	STD_FIXTURE_LOAD(self);
}

FIXTURE_TEARDOWN(rs)
{
	STD_FIXTURE_FREE(self);
}

TEST_F(rs, offset_plus_physical_address)
{
	/* (offset, size) within input0's 2048 bytes: the address + offset */
	static const struct {
		uint64_t off, size;
	} c[] = { { 100, 28 }, { 0, 2048 }, { 2048, 0 } };
	uint64_t base, a;
	unsigned int i;

	ASSERT_EQ(0, nsim_resolve(self->fd, self->id, 0, V0_IN, 0, 0, &base));
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		a = 0;
		EXPECT_EQ(0, nsim_resolve(self->fd, self->id, 0, V0_IN, c[i].off,
					  c[i].size, &a))
			TH_LOG("offset %llu size %llu", (unsigned long long)c[i].off,
			       (unsigned long long)c[i].size);
		EXPECT_EQ(base + c[i].off, a)
			TH_LOG("offset %llu", (unsigned long long)c[i].off);
	}
}

TEST_F(rs, unknown_model_subgraph_var)
{
	EXPECT_EQ(-ENOENT, nsim_resolve(self->fd, self->id + 1000, 0, 0, 0, 0, NULL));
	EXPECT_EQ(-ENOENT, nsim_resolve(self->fd, 0, 0, 0, 0, 0, NULL));
	EXPECT_EQ(-ENOENT, nsim_resolve(self->fd, self->id, 2, 0, 0, 0, NULL));
	EXPECT_EQ(-ENOENT, nsim_resolve(self->fd, self->id, 1, V1_N, 0, 0, NULL));
	EXPECT_EQ(-ENOENT, nsim_resolve(self->fd, self->id, 0, ~0U, 0, 0, NULL));
}

TEST_F(rs, out_of_bounds)
{
	EXPECT_EQ(-ERANGE, nsim_resolve(self->fd, self->id, 0, V0_IN, 0, 2049, NULL));
	EXPECT_EQ(-ERANGE, nsim_resolve(self->fd, self->id, 0, V0_IN, 2049, 0, NULL));
	EXPECT_EQ(-ERANGE, nsim_resolve(self->fd, self->id, 0, V0_IN, 2000, 49, NULL));
	EXPECT_EQ(-ERANGE, nsim_resolve(self->fd, self->id, 0, V0_IN, ~0ULL, 2, NULL));
	/* bounds come before the pointer rule */
	EXPECT_EQ(-ERANGE, nsim_resolve(self->fd, self->id, 0, V0_PTR, 0, 9, NULL));
}

TEST_F(rs, pointer_needs_offset_zero)
{
	uint64_t a, w;

	EXPECT_EQ(-EINVAL, nsim_resolve(self->fd, self->id, 0, V0_PTR, 1, 0, NULL));
	ASSERT_EQ(0, nsim_resolve(self->fd, self->id, 0, V0_PTR, 0, 8, &a));
	ASSERT_EQ(0, nsim_resolve(self->fd, self->id, 0, V0_WEIGHT, 0, 0, &w));
	EXPECT_EQ(w, a);
}

TEST_F(rs, not_staged)
{
	EXPECT_EQ(-ENODATA, nsim_resolve(self->fd, self->id, 0, V0_LIST, 0, 0, NULL));
	EXPECT_EQ(-ENODATA, nsim_resolve(self->fd, self->id, 0, V0_LIST, 4, 8, NULL));
}

TEST_F(rs, flags_refused)
{
	struct neuronsim_resolve r = {
		.model_id = self->id, .subgraph = 0, .var_id = V0_IN, .flags = 1,
	};

	EXPECT_EQ(EINVAL, ioctl_errno(self->fd, NEURONSIM_IOC_RESOLVE, &r));
}

/*
 * RESOLVE_BATCH of @e[@n], then each entry again as one RESOLVE (an
 * entry with reserved set: -EINVAL): status and address must agree, and
 * num_ok must count the resolved ones.  Return that count.
 */
static uint32_t batch_vs_singles(struct __test_metadata *_metadata, int fd,
				 uint32_t id, struct neuronsim_resolve_entry *e,
				 uint32_t n)
{
	struct neuronsim_resolve_batch b = {
		.model_id = id, .count = n, .entries = (uintptr_t)e,
	};
	uint32_t ok = 0, i;

	EXPECT_EQ(0, ioctl(fd, NEURONSIM_IOC_RESOLVE_BATCH, &b));
	for (i = 0; i < n; i++) {
		uint64_t a = 0;
		int ret = e[i].reserved ? -EINVAL :
			  nsim_resolve(fd, id, e[i].subgraph, e[i].var_id,
				       e[i].offset, e[i].size, &a);

		EXPECT_EQ(ret, e[i].status) TH_LOG("entry %u", i);
		EXPECT_EQ(ret ? 0 : a, e[i].address) TH_LOG("entry %u", i);
		ok += !ret;
	}
	EXPECT_EQ(ok, b.num_ok);
	return ok;
}

TEST_F(rs, batch_equals_singles)
{
	enum { N = 1000 };
	struct neuronsim_resolve_entry *e = calloc(N, sizeof(*e));
	uint32_t ok = 0, i;

	ASSERT_NE(NULL, e);
	for (i = 0; i < N; i++) {
		e[i].subgraph = i % 3;			/* 2: unknown */
		e[i].var_id = (i / 3) % (V0_N + 1);	/* V0_N: unknown */
		e[i].offset = (i % 7 == 0) ? 1 : (i % 5) * 16;
		e[i].size = (i % 11 == 0) ? 1ULL << 40 : i % 9;
		e[i].address = 0xdead;
		e[i].status = 77;
	}
	ok = batch_vs_singles(_metadata, self->fd, self->id, e, N);
	EXPECT_LT(0, ok);
	free(e);
}

/*
 * The batch keeps the table of the subgraph the entry before named:
 * subgraph U32_MAX first (before any table is at hand) and after a
 * valid one, reserved set on the subgraph at hand, runs of one
 * subgraph and switches between the two; every entry as RESOLVE.
 */
TEST_F(rs, batch_subgraph_runs)
{
	static const struct { uint32_t sg, var, reserved; } in[] = {
		{ UINT32_MAX, V0_IN, 0 }, { 0, V0_IN, 0 }, { 0, V0_OUT, 1 },
		{ UINT32_MAX, V0_IN, 0 }, { 0, V0_OUT, 0 }, { 1, V1_IN, 0 },
		{ 1, V1_W, 0 }, { 2, V0_IN, 0 }, { 1, V1_IN, 1 }, { 0, V0_IN, 0 },
		{ 0, V0_TMP, 0 }, { 1, V1_IN, 0 }, { UINT32_MAX, 0, 1 },
		{ 0, V0_N, 0 }, { 0, V0_IN, 0 },
	};
	enum { N = sizeof(in) / sizeof(in[0]) };
	struct neuronsim_resolve_entry e[N];
	uint32_t ok = 0, i;

	memset(e, 0, sizeof(e));
	for (i = 0; i < N; i++) {
		e[i].subgraph = in[i].sg;
		e[i].var_id = in[i].var;
		e[i].reserved = in[i].reserved;
		e[i].size = 4;
		e[i].address = 0xdead;
		e[i].status = 77;
	}
	ok = batch_vs_singles(_metadata, self->fd, self->id, e, N);
	for (i = 0; i < N; i++)
		EXPECT_EQ(in[i].reserved, e[i].reserved) TH_LOG("entry %u", i);
	EXPECT_EQ(8, ok);
}

TEST_F(rs, batch_errors)
{
	struct neuronsim_resolve_entry e[2];
	struct neuronsim_resolve_batch b;

	memset(e, 0, sizeof(e));
	e[0].var_id = V0_IN;
	e[1].var_id = V0_IN;
	e[1].reserved = 1;
	memset(&b, 0, sizeof(b));
	b.model_id = self->id;
	b.count = 2;
	b.entries = (uintptr_t)e;
	ASSERT_EQ(0, ioctl(self->fd, NEURONSIM_IOC_RESOLVE_BATCH, &b));
	EXPECT_EQ(0, e[0].status);
	EXPECT_EQ(-EINVAL, e[1].status);
	EXPECT_EQ(1, b.num_ok);
	b.count = 0;
	EXPECT_EQ(EINVAL, ioctl_errno(self->fd, NEURONSIM_IOC_RESOLVE_BATCH, &b));
	b.count = NEURONSIM_RESOLVE_BATCH_MAX + 1;
	EXPECT_EQ(EINVAL, ioctl_errno(self->fd, NEURONSIM_IOC_RESOLVE_BATCH, &b));
	b.count = 2;
	b.model_id = self->id + 1000;
	EXPECT_EQ(ENOENT, ioctl_errno(self->fd, NEURONSIM_IOC_RESOLVE_BATCH, &b));
	b.model_id = self->id;
	b.entries = 8;
	EXPECT_EQ(EFAULT, ioctl_errno(self->fd, NEURONSIM_IOC_RESOLVE_BATCH, &b));
}

/*
 * Entries in pages that are in the page cache but not yet mapped (a
 * memfd written with pwrite, then mapped): the in-place path stops at
 * each such page and the copying path faults it in; every entry still
 * gets what RESOLVE gives it.
 */
TEST_F(rs, batch_in_pages_not_present)
{
	enum { N = 3000 };	/* 120,000 bytes: 30 pages */
	size_t len = N * sizeof(struct neuronsim_resolve_entry);
	struct neuronsim_resolve_entry *e, *src = calloc(N, sizeof(*src));
	struct neuronsim_resolve_batch b;
	uint32_t ok = 0, i;
	int mfd = memfd_create("batch", 0);

	ASSERT_NE(NULL, src);
	ASSERT_LE(0, mfd);
	for (i = 0; i < N; i++) {
		src[i].var_id = i % (V0_N + 1);
		src[i].offset = i % 5;
		src[i].size = 1;
		src[i].status = 77;
	}
	ASSERT_EQ((ssize_t)len, pwrite(mfd, src, len, 0));
	e = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, mfd, 0);
	ASSERT_NE(MAP_FAILED, e);
	memset(&b, 0, sizeof(b));
	b.model_id = self->id;
	b.count = N;
	b.entries = (uintptr_t)e;
	ASSERT_EQ(0, ioctl(self->fd, NEURONSIM_IOC_RESOLVE_BATCH, &b));
	for (i = 0; i < N; i++) {
		uint64_t a = 0;
		int ret = nsim_resolve(self->fd, self->id, 0, src[i].var_id,
				       src[i].offset, 1, &a);

		ASSERT_EQ(ret, e[i].status) TH_LOG("entry %u", i);
		ASSERT_EQ(ret ? 0 : a, e[i].address) TH_LOG("entry %u", i);
		ok += !ret;
	}
	EXPECT_EQ(ok, b.num_ok);
	EXPECT_LT(0, ok);
	munmap(e, len);
	close(mfd);
	free(src);
}

/*
 * RESOLVE tries the file's newest model first: after it is unloaded its
 * id is unknown, the older model still resolves, and a newer one is
 * found in turn.
 */
TEST_F(rs, newest_model_unloaded)
{
	uint32_t id2, id3;
	uint64_t a = 0;

	ASSERT_EQ(0, nsim_load(self->fd, &self->p, NEURONSIM_CORE_ANY, &id2,
			       NULL, NULL, 0));
	EXPECT_EQ(0, nsim_resolve(self->fd, id2, 0, V0_IN, 0, 1, &a));
	EXPECT_EQ(0, nsim_resolve(self->fd, self->id, 0, V0_IN, 0, 1, &a));
	ASSERT_EQ(0, nsim_unload(self->fd, id2));
	EXPECT_EQ(-ENOENT, nsim_resolve(self->fd, id2, 0, V0_IN, 0, 1, &a));
	EXPECT_EQ(0, nsim_resolve(self->fd, self->id, 0, V0_IN, 0, 1, &a));
	ASSERT_EQ(0, nsim_load(self->fd, &self->p, NEURONSIM_CORE_ANY, &id3,
			       NULL, NULL, 0));
	EXPECT_EQ(0, nsim_resolve(self->fd, id3, 0, V0_IN, 0, 1, &a));
	ASSERT_EQ(0, nsim_unload(self->fd, self->id));
	EXPECT_EQ(-ENOENT, nsim_resolve(self->fd, self->id, 0, V0_IN, 0, 1, &a));
	EXPECT_EQ(0, nsim_resolve(self->fd, id3, 0, V0_IN, 0, 1, &a));
	/* the fixture's close unloads id3 */
}

#define DYNDBG_CONTROL "/sys/kernel/debug/dynamic_debug/control"

/*
 * A failed resolve is logged at debug level only (the dynamic debug line
 * of nrsim_resolve_note()), in libnrt's words ("invalid offset in %s, %lu
 * < (%lu + %lu)", "Variable %s is not staged in HBM") and then ours, for
 * RESOLVE and RESOLVE_BATCH alike; with the line off nothing is logged.
 */
TEST_F(rs, failures_logged_in_libnrt_words_at_debug_level)
{
	static const char *const lines[] = {
		"sg 0 var_id 1: invalid offset in weight, 4196 < (4190 + 16); the access ends at byte 4206, past the 4196 bytes of 'weight' (MR_BUFFER)",
		"sg 0 var_id 10: Variable list is not staged in HBM; 'list' (MR_LIST) has no device address",
		"sg 0 var_id 7: 'ptr_weight' (MR_PTR) is its target's address: it resolves at offset 0 only, not at offset 1",
		"sg 0 var_id 5: invalid offset in input0, 2048 < (2040 + 16)",
	};
	struct neuronsim_resolve_entry e[2];
	struct neuronsim_resolve_batch b;
	char want[320];
	unsigned int i;

	if (access(DYNDBG_CONTROL, W_OK))
		SKIP(return, "no dynamic debug control");
	memset(e, 0, sizeof(e));
	e[0].var_id = V0_IN;
	e[0].offset = 2040;
	e[0].size = 16;
	e[1].var_id = V0_IN;
	memset(&b, 0, sizeof(b));
	b.model_id = self->id;
	b.count = 2;
	b.entries = (uintptr_t)e;

	/* off, the default: the errno only */
	klogctl(5, NULL, 0);	/* SYSLOG_ACTION_CLEAR */
	EXPECT_EQ(-ERANGE, nsim_resolve(self->fd, self->id, 0, V0_WEIGHT, 4190, 16, NULL));
	EXPECT_EQ(-ENODATA, nsim_resolve(self->fd, self->id, 0, V0_LIST, 0, 0, NULL));
	EXPECT_FALSE(klog_has("invalid offset in"));
	EXPECT_FALSE(klog_has("is not staged in HBM"));

	ASSERT_EQ(0, write_text(DYNDBG_CONTROL, "func nrsim_resolve_note +p"));
	EXPECT_EQ(-ERANGE, nsim_resolve(self->fd, self->id, 0, V0_WEIGHT, 4190, 16, NULL));
	EXPECT_EQ(-ENODATA, nsim_resolve(self->fd, self->id, 0, V0_LIST, 0, 0, NULL));
	EXPECT_EQ(-EINVAL, nsim_resolve(self->fd, self->id, 0, V0_PTR, 1, 0, NULL));
	/* an unknown variable has no name to give: not logged */
	EXPECT_EQ(-ENOENT, nsim_resolve(self->fd, self->id, 0, V0_N, 0, 0, NULL));
	ASSERT_EQ(0, ioctl(self->fd, NEURONSIM_IOC_RESOLVE_BATCH, &b));
	EXPECT_EQ(-ERANGE, e[0].status);
	EXPECT_EQ(0, e[1].status);
	EXPECT_EQ(0, write_text(DYNDBG_CONTROL, "func nrsim_resolve_note -p"));
	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		snprintf(want, sizeof(want), "model %u %s", self->id, lines[i]);
		EXPECT_TRUE(klog_has(want)) TH_LOG("no \"%s\" in the kernel log", want);
	}
	snprintf(want, sizeof(want), "sg 0 var_id %u:", V0_N);
	EXPECT_FALSE(klog_has(want));

	/* off again: nothing more */
	klogctl(5, NULL, 0);
	EXPECT_EQ(-ERANGE, nsim_resolve(self->fd, self->id, 0, V0_WEIGHT, 4190, 16, NULL));
	EXPECT_FALSE(klog_has("invalid offset in"));
}

EMPTY_FIXTURE(big)

/*
 * loads are O(n): a 10^6-var plan loads, resolves and unloads; 300 s, not
 * the harness's 30, for the debug kernel (KASAN) and a loaded host
 */
TEST_F_TIMEOUT(big, million_vars, 300)
{
	enum { N = 1000000 };
	struct neuronsim_info info;
	struct plan p = { 0 };
	uint32_t id;
	uint64_t a0, a1;
	char log[256];
	int fd = nsim_open();

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, nsim_get_info(fd, &info));
	ASSERT_EQ(0, plan_buffers(&info, N, 64, 0, &p));
	ASSERT_EQ(0, nsim_load(fd, &p, 0, &id, NULL, log, sizeof(log)))
		TH_LOG("%s", log);
	ASSERT_EQ(0, nsim_resolve(fd, id, 0, 0, 0, 64, &a0));
	ASSERT_EQ(0, nsim_resolve(fd, id, 0, N - 1, 0, 64, &a1));
	/* each 64-byte buffer is an HBM allocation of its own: a 4 KiB granule */
	EXPECT_EQ(a0 + (uint64_t)(N - 1) * 4096, a1);
	EXPECT_EQ(-ENOENT, nsim_resolve(fd, id, 0, N, 0, 0, NULL));
	EXPECT_EQ(0, nsim_unload(fd, id));
	plan_free(&p);
	close(fd);
}

NSIM_HARNESS_MAIN
