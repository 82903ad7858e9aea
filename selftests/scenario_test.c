// SPDX-License-Identifier: GPL-2.0
/*
 * scenario_test - the load-level bug-report scenarios of
 * Documentation/running.rst through the kernel (scenarios 1, 3 and 5 are
 * NEFF-level: scripts/check.sh shows neuronsim-cc refusing them on the
 * host, so no plan exists to reach the device):
 *
 *   2. a plan asking for more private (local) scratchpad pages than the
 *      device allows: -E2BIG, the log says pages requested and the maximum;
 *      one page fewer loads;
 *   4. a load that runs out of simulated HBM: -ENOSPC, the log names the
 *      variable, the bytes it asks for and what its subgraph's category
 *      would total, and the HBM in use per usage category (on the
 *      channel, and by the failed load itself);
 *   6. load models until HBM is exhausted, unload them, load again: the
 *      same number of loads succeed at exactly the same addresses, and the
 *      next one fails the same way -- twice, unloading in a different order.
 *
 * Every scenario checks that debugfs stats (models, mem_refs, kmem_bytes,
 * backing_bytes, hbm_used) and the per-channel "used" bytes of debugfs hbm
 * are back to what they were before.  Needs arch=trn2 (run by
 * selftests/Makefile).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "kbin_writer.h"
#include "plans.h"

#define SC_MAX_MODELS	32

/*
 * One subgraph: var 0 "weight" (MR_BUFFER, @wsize bytes of payload
 * 0x5a ^ i), var 1 @big_name (@big_type, @big_size bytes, no payload),
 * and, when @local_sp, var 2 "tmp" (MR_VIRTUAL_TMP_BUF in the local
 * scratchpad of @local_sp bytes, at offset 0).
 */
static int plan_make(const struct neuronsim_info *info, uint64_t wsize,
		     uint32_t big_type, const char *big_name,
		     uint64_t big_size, uint64_t local_sp, struct plan *p)
{
	struct kbin_writer *w = kbin_writer_new(info->arch_gen);
	uint8_t *pl = malloc(wsize);
	uint64_t i;
	int e = 0;

	if (!w || !pl) {
		kbin_writer_free(w);
		e = -ENOMEM;
		goto out;
	}
	for (i = 0; i < wsize; i++)
		pl[i] = 0x5a ^ (uint8_t)i;
	e |= kbin_writer_add_subgraph(w, "sg00", local_sp, 0, NULL, 0) < 0;
	e |= TL_ADD(w, .id = 0, .type = KBIN_MR_BUFFER, .name = "weight",
		    .size = wsize, .align = 4096, .payload = pl);
	e |= TL_ADD(w, .id = 1, .type = big_type, .name = big_name,
		    .size = big_size, .align = 4096);
	if (local_sp)
		e |= TL_ADD(w, .id = 2, .type = KBIN_MR_VIRTUAL_TMP_BUF,
			    .name = "tmp", .size = 4096, .align = 64,
			    .backing = KBIN_BACKING_BUF_LOCAL);
	e = plan_finish(w, e, p);
out:
	free(pl);
	return e;
}

FIXTURE(sc) {
	int fd;
	struct neuronsim_info info;
	struct snap base;
};

FIXTURE_SETUP(sc)
{
	self->fd = nsim_open();
	ASSERT_LE(0, self->fd) TH_LOG("open /dev/neuronsim: %.400s", strerror(errno));
	ASSERT_EQ(0, nsim_get_info(self->fd, &self->info));
	if (strcmp(self->info.arch_name, "trn2"))
		SKIP(return, "the scenarios are written for arch=trn2, the module is %s",
		     self->info.arch_name);
	SNAP_TAKE(&self->base);
}

FIXTURE_TEARDOWN(sc)
{
	close(self->fd);
}

/* Scenario 2: more private scratchpad pages than the device allows. */
TEST_F(sc, scenario2_private_scratchpad_pages_over_maximum)
{
	const uint64_t page = self->info.scratchpad_page_size;
	unsigned int orig = self->info.scratchpad_max_pages, max;
	struct neuronsim_load lr;
	struct plan p = { NULL, 0 };
	char log[1024], want[160];
	struct snap after;
	uint32_t id;
	int ret;

	/*
	 * A small maximum, so "one page fewer" fits in a 24 GiB channel
	 * (pages are 512 MiB): the limit is a writable module parameter.
	 */
	max = 8;
	if (nsim_param_set("scratchpad_max_pages", max))
		max = orig;	/* read-only: test the default limit */
	TH_LOG("page %" PRIu64 " bytes, maximum %u pages", page, max);

	ASSERT_EQ(0, plan_make(&self->info, 4096, KBIN_MR_INPUT, "x", 4096,
			       (uint64_t)(max + 1) * page, &p));
	ret = nsim_load(self->fd, &p, 0, &id, &lr, log, sizeof(log));
	TH_LOG("LOAD with %u pages: %d (%s): %.400s", max + 1, ret,
	       strerror(-ret), log);
	EXPECT_EQ(-E2BIG, ret);
	EXPECT_EQ(KBIN_ERR_STAGE_SCRATCHPAD, lr.err_reason);
	EXPECT_EQ(KBIN_FIELD_SCRATCHPAD, lr.err_field);
	EXPECT_EQ(0, lr.err_subgraph);
	/* requested pages and the maximum, in words */
	snprintf(want, sizeof(want), "needs %u pages", max + 1);
	EXPECT_NE(NULL, strstr(log, want)) TH_LOG("log lacks '%s': %.400s", want, log);
	snprintf(want, sizeof(want), "maximum of %u", max);
	EXPECT_NE(NULL, strstr(log, want)) TH_LOG("log lacks '%s': %.400s", want, log);
	EXPECT_NE(NULL, strstr(log, "local")) TH_LOG("log does not say which scratchpad: %.400s", log);
	SNAP_TAKE(&after);
	EXPECT_SNAP_EQ(self->base, after, "after the refused load");
	plan_free(&p);

	/* at the maximum it loads (when max pages fit in one channel) */
	if ((uint64_t)max * page + (1 << 20) <= self->info.hbm_channel_size) {
		ASSERT_EQ(0, plan_make(&self->info, 4096, KBIN_MR_INPUT, "x", 4096,
				       (uint64_t)max * page, &p));
		ret = nsim_load(self->fd, &p, 0, &id, &lr, log, sizeof(log));
		EXPECT_EQ(0, ret) TH_LOG("LOAD with %u pages: %.400s", max, log);
		if (!ret)
			EXPECT_EQ(0, nsim_unload(self->fd, id));
		plan_free(&p);
	}
	if (max != orig)
		EXPECT_EQ(0, nsim_param_set("scratchpad_max_pages", orig));
	SNAP_TAKE(&after);
	EXPECT_SNAP_EQ(self->base, after, "at the end");
}

/* Scenario 4: HBM exhausted; the log names variable, bytes and usage. */
TEST_F(sc, scenario4_hbm_exhausted)
{
	const uint64_t ch = self->info.hbm_channel_size;
	const uint64_t fill = ch - (1ULL << 30), big = 2ULL << 30;
	struct neuronsim_load lr;
	struct plan p1 = { NULL, 0 }, p2 = { NULL, 0 };
	struct snap mid, after;
	char log[1024], want[64];
	uint32_t id1 = 0, id2 = 0;
	int ret;

	/* model 1: a weight and an input filling channel 0 but for 1 GiB */
	ASSERT_EQ(0, plan_make(&self->info, 65536, KBIN_MR_INPUT, "activations",
			       fill - 65536, 0, &p1));
	ASSERT_EQ(0, nsim_load(self->fd, &p1, 0, &id1, &lr, log, sizeof(log)))
		TH_LOG("%.400s", log);
	SNAP_TAKE(&mid);

	/* model 2 asks for a 2 GiB weight on the same channel */
	ASSERT_EQ(0, plan_make(&self->info, 65536, KBIN_MR_BUFFER, "embedding",
			       big, 0, &p2));
	ret = nsim_load(self->fd, &p2, 0, &id2, &lr, log, sizeof(log));
	TH_LOG("LOAD: %d (%s): %.400s", ret, strerror(-ret), log);
	EXPECT_EQ(-ENOSPC, ret);
	EXPECT_EQ(KBIN_ERR_STAGE_HBM, lr.err_reason);
	EXPECT_EQ(0, lr.err_subgraph);
	EXPECT_EQ(1, lr.err_record);
	EXPECT_NE(NULL, strstr(log, "'embedding'")) TH_LOG("log does not name the variable: %.400s", log);
	snprintf(want, sizeof(want), "%llu bytes", (unsigned long long)(big + 65536));
	EXPECT_NE(NULL, strstr(log, want)) TH_LOG("log lacks the bytes requested '%s': %.400s", want, log);
	EXPECT_NE(NULL, strstr(log, "WEIGHT")) TH_LOG("log lacks the usage category: %.400s", log);
	SNAP_TAKE(&after);
	EXPECT_SNAP_EQ(mid, after, "after the failed load");

	EXPECT_EQ(0, nsim_unload(self->fd, id1));
	SNAP_TAKE(&after);
	EXPECT_SNAP_EQ(self->base, after, "after unloading model 1");
	/* the same plan loads on the empty device */
	ret = nsim_load(self->fd, &p2, 0, &id2, &lr, log, sizeof(log));
	EXPECT_EQ(0, ret) TH_LOG("%.400s", log);
	if (!ret)
		EXPECT_EQ(0, nsim_unload(self->fd, id2));
	SNAP_TAKE(&after);
	EXPECT_SNAP_EQ(self->base, after, "at the end");
	plan_free(&p1);
	plan_free(&p2);
}

/*
 * Scenario 4, the rest of what the bug report asks: the message says how
 * much HBM is in use per usage category.
 */
TEST_F(sc, scenario4_hbm_exhausted_log_shows_usage_in_use)
{
	const uint64_t ch = self->info.hbm_channel_size;
	struct neuronsim_load lr;
	struct plan p1 = { NULL, 0 }, p2 = { NULL, 0 };
	char log[1024], want[64];
	uint32_t id1 = 0, id2;
	int ret;

	ASSERT_EQ(0, plan_make(&self->info, 65536, KBIN_MR_INPUT, "activations",
			       ch - (1ULL << 30) - 65536, 0, &p1));
	ASSERT_EQ(0, nsim_load(self->fd, &p1, 0, &id1, &lr, log, sizeof(log)));
	ASSERT_EQ(0, plan_make(&self->info, 65536, KBIN_MR_BUFFER, "embedding",
			       2ULL << 30, 0, &p2));
	ret = nsim_load(self->fd, &p2, 0, &id2, &lr, log, sizeof(log));
	EXPECT_EQ(-ENOSPC, ret);
	EXPECT_EQ(0, nsim_unload(self->fd, id1));
	plan_free(&p1);
	plan_free(&p2);
	/*
	 * model 1 holds 64 KiB of WEIGHT and ch - 1 GiB - 64 KiB of IO; model
	 * 2's own 64 KiB weight, an allocation of its own, was placed before
	 * its embedding failed: the channel holds 128 KiB of WEIGHT then
	 */
	snprintf(want, sizeof(want), "%llu",
		 (unsigned long long)(ch - (1ULL << 30) - 65536));
	{
		char io[80], weight[80];

		snprintf(io, sizeof(io), "IO %s", want);
		snprintf(weight, sizeof(weight), "WEIGHT %u", 65536);
		EXPECT_NE(NULL, strstr(log, io)) TH_LOG("log lacks '%s': %.500s", io, log);
		EXPECT_NE(NULL, strstr(log, weight)) TH_LOG("log lacks '%s': %.500s", weight, log);
		EXPECT_NE(NULL, strstr(log, "WEIGHT 131072"))
			TH_LOG("log lacks the channel's WEIGHT in use: %.500s", log);
		EXPECT_NE(NULL, strstr(log, "this load: WEIGHT 65536"))
			TH_LOG("log lacks what the failed load held: %.500s", log);
		/* the variable's own request */
		EXPECT_NE(NULL, strstr(log, "asks for 2147483648 bytes"))
			TH_LOG("log lacks the variable's bytes: %.500s", log);
	}
}

/* Load until -ENOSPC; record every model's addresses; returns the count. */
static int fill(struct __test_metadata *_metadata, int fd,
		const struct plan *p, uint32_t *ids, uint64_t (*addr)[2],
		char *last_log, size_t cap)
{
	struct neuronsim_load lr;
	int n, ret = 0;

	for (n = 0; n < SC_MAX_MODELS; n++) {
		ret = nsim_load(fd, p, 0, &ids[n], &lr, last_log, cap);
		if (ret)
			break;
		EXPECT_EQ(0, nsim_resolve(fd, ids[n], 0, 0, 0, 65536, &addr[n][0]));
		EXPECT_EQ(0, nsim_resolve(fd, ids[n], 0, 1, 0, 0, &addr[n][1]));
	}
	EXPECT_EQ(-ENOSPC, ret) TH_LOG("load %d: %.400s", n, last_log);
	return n;
}

/* Scenario 6: load until full, unload, load again: identical addresses. */
TEST_F(sc, scenario6_load_until_full_unload_load_again)
{
	const uint64_t big = 5ULL << 30;
	static uint64_t a0[SC_MAX_MODELS][2], a1[SC_MAX_MODELS][2];
	uint32_t ids[SC_MAX_MODELS];
	struct plan p = { NULL, 0 };
	char log0[1024], log1[1024];
	struct snap after;
	int n0, n1, round, i;

	ASSERT_EQ(0, plan_make(&self->info, 65536, KBIN_MR_INPUT, "x", big, 0, &p));
	n0 = fill(_metadata, self->fd, &p, ids, a0, log0, sizeof(log0));
	TH_LOG("round 0: %d models loaded, then: %.400s", n0, log0);
	ASSERT_LT(1, n0);
	for (i = 0; i < n0; i++)
		EXPECT_EQ(0, nsim_unload(self->fd, ids[i]));
	SNAP_TAKE(&after);
	EXPECT_SNAP_EQ(self->base, after, "after round 0");

	for (round = 1; round <= 2; round++) {
		memset(a1, 0, sizeof(a1));
		n1 = fill(_metadata, self->fd, &p, ids, a1, log1, sizeof(log1));
		EXPECT_EQ(n0, n1) TH_LOG("round %d loaded %d models, round 0 %d", round, n1, n0);
		for (i = 0; i < n0 && i < n1; i++) {
			EXPECT_EQ(a0[i][0], a1[i][0]) TH_LOG("round %d model %d var 'weight'", round, i);
			EXPECT_EQ(a0[i][1], a1[i][1]) TH_LOG("round %d model %d var 'x'", round, i);
		}
		EXPECT_STREQ(log0, log1) TH_LOG("round %d: the failing load's message differs", round);
		/* round 1 unloads newest first, round 2 oldest first */
		for (i = 0; i < n1; i++)
			EXPECT_EQ(0, nsim_unload(self->fd,
						 ids[round == 1 ? n1 - 1 - i : i]));
		SNAP_TAKE(&after);
		EXPECT_SNAP_EQ(self->base, after, round == 1 ? "after round 1" : "after round 2");
	}
	plan_free(&p);
}

NSIM_HARNESS_MAIN
