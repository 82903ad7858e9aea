// SPDX-License-Identifier: GPL-2.0
/*
 * fault_test - a load made to fail at record k (debugfs fault knobs
 * fail_hbm_alloc_nth / fail_copyin_nth, a full HBM channel, the backing
 * RAM cap) reports errno, subgraph, record and reason, and leaves model
 * count, mem_refs, kernel memory, HBM use and backing bytes exactly as
 * before (all-or-nothing; Documentation/hardware.rst).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "plans.h"

#define PARAM NSIM_PARAM_DIR

FIXTURE(flt) {
	STD_FIXTURE_FIELDS;
};

FIXTURE_SETUP(flt)
{
	STD_FIXTURE_PLAN(self);
}

FIXTURE_TEARDOWN(flt)
{
	write_knob("fail_hbm_alloc_nth", 0);
	write_knob("fail_copyin_nth", 0);
	STD_FIXTURE_FREE(self);
}

/* HBM placements in plan order: sg0 records 1,2,3,4,5,6,11; sg1 1,3 */
TEST_F(flt, hbm_alloc_nth)
{
	static const struct { int nth, sg, rec; } cases[] = {
		{ 1, 0, V0_WEIGHT }, { 3, 0, V0_BIAS }, { 7, 0, V0_TABLE },
		{ 8, 1, V1_W }, { 9, 1, V1_IN },
	};
	struct neuronsim_load l;
	char log[512];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ASSERT_EQ(0, write_knob("fail_hbm_alloc_nth", cases[i].nth));
		EXPECT_EQ(-ENOSPC, nsim_load(self->fd, &self->p, 0, NULL, &l,
					     log, sizeof(log)));
		EXPECT_EQ(cases[i].sg, l.err_subgraph);
		EXPECT_EQ(cases[i].rec, l.err_record);
		EXPECT_EQ(KBIN_ERR_STAGE_FAULT, l.err_reason);
		EXPECT_NE(NULL, strstr(log, "fail_hbm_alloc_nth")) TH_LOG("%s", log);
		EXPECT_STATS_AT(&self->base);
	}
}

/* copy-ins in plan order: sg0 records 1, 2; sg1 record 1 */
TEST_F(flt, copyin_nth)
{
	static const struct { int nth, sg, rec; } cases[] = {
		{ 1, 0, V0_WEIGHT }, { 2, 0, V0_STAGED }, { 3, 1, V1_W },
	};
	struct neuronsim_load l;
	char log[512];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ASSERT_EQ(0, write_knob("fail_copyin_nth", cases[i].nth));
		EXPECT_EQ(-EIO, nsim_load(self->fd, &self->p, 0, NULL, &l, log,
					  sizeof(log)));
		EXPECT_EQ(cases[i].sg, l.err_subgraph);
		EXPECT_EQ(cases[i].rec, l.err_record);
		EXPECT_EQ(KBIN_ERR_STAGE_FAULT, l.err_reason);
		EXPECT_STATS_AT(&self->base);
	}
	/* the knob fired once and is 0 again: the next load succeeds */
	EXPECT_EQ(0, nsim_load(self->fd, &self->p, 0, NULL, NULL, NULL, 0));
}

TEST_F(flt, full_hbm_channel)
{
	uint64_t part = self->info.hbm_channel_size / 5 * 2;	/* 40 % */
	struct plan two = { 0 }, three = { 0 }, one = { 0 };
	struct neuronsim_load l;
	struct stats mid;
	char log[512];
	uint32_t id;

	/* three 40 % buffers cannot fit one channel: record 2 fails */
	ASSERT_EQ(0, plan_buffers(&self->info, 3, part, 0, &three));
	EXPECT_EQ(-ENOSPC, nsim_load(self->fd, &three, 0, NULL, &l, log, sizeof(log)));
	EXPECT_EQ(0, l.err_subgraph);
	EXPECT_EQ(2, l.err_record);
	EXPECT_EQ(KBIN_ERR_STAGE_HBM, l.err_reason);
	EXPECT_STATS_AT(&self->base);

	/* two fit; then a third model of one more does not */
	ASSERT_EQ(0, plan_buffers(&self->info, 2, part, 0, &two));
	ASSERT_EQ(0, nsim_load(self->fd, &two, 0, &id, NULL, NULL, 0));
	ASSERT_EQ(0, read_stats(&mid));
	ASSERT_EQ(0, plan_buffers(&self->info, 1, part, 0, &one));
	EXPECT_EQ(-ENOSPC, nsim_load(self->fd, &one, 0, NULL, &l, log, sizeof(log)));
	EXPECT_EQ(0, l.err_record);
	EXPECT_EQ(KBIN_ERR_STAGE_HBM, l.err_reason);
	EXPECT_STATS_AT(&mid);
	EXPECT_EQ(0, nsim_unload(self->fd, id));
	EXPECT_STATS_AT(&self->base);
	plan_free(&one);
	plan_free(&two);
	plan_free(&three);
}

TEST_F(flt, backing_cap)
{
	struct neuronsim_load l;
	char old[64] = "", v[64], log[512];
	char *t = read_file(PARAM "backing_limit", NULL);

	ASSERT_NE(NULL, t);
	strncpy(old, t, sizeof(old) - 1);
	free(t);
	snprintf(v, sizeof(v), "%llu", (unsigned long long)self->base.backing_bytes + 4096);
	ASSERT_EQ(0, nsim_param_write("backing_limit", v));
	EXPECT_EQ(-ENOMEM, nsim_load(self->fd, &self->p, 0, NULL, &l, log, sizeof(log)));
	EXPECT_EQ(KBIN_ERR_STAGE_BACKING, l.err_reason);
	EXPECT_EQ(0, l.err_subgraph);
	EXPECT_EQ(V0_WEIGHT, l.err_record);
	EXPECT_NE(NULL, strstr(log, "backing")) TH_LOG("%s", log);
	ASSERT_EQ(0, nsim_param_write("backing_limit", old));
	EXPECT_STATS_AT(&self->base);
}

TEST_F(flt, scratchpad_pages_over_max)
{
	struct neuronsim_load l;
	char old[64] = "";
	char *t = read_file(PARAM "scratchpad_max_pages", NULL);

	ASSERT_NE(NULL, t);
	strncpy(old, t, sizeof(old) - 1);
	free(t);
	ASSERT_EQ(0, nsim_param_write("scratchpad_max_pages", "0"));
	EXPECT_EQ(-E2BIG, nsim_load(self->fd, &self->p, 0, NULL, &l, NULL, 0));
	EXPECT_EQ(KBIN_ERR_STAGE_SCRATCHPAD, l.err_reason);
	ASSERT_EQ(0, nsim_param_write("scratchpad_max_pages", old));
	EXPECT_STATS_AT(&self->base);
}

NSIM_HARNESS_MAIN
