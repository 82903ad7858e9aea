// SPDX-License-Identifier: GPL-2.0
/*
 * load_test - LOAD stages every kind (Documentation/uapi.rst) and each
 * variable resolves where the address map says; READ_VAR returns the
 * payload bytes; remote variables across two subgraphs; the pointer
 * table holds the listed variables' addresses; load failures report
 * errno, subgraph, record, reason and log text; a plan with a program
 * loads, a trigger-count mismatch is refused; WRITE_VAR into an SBUF
 * carve-out is -EPERM; the gap past each SBUF partition in the MR_SB
 * window is -ERANGE for RESOLVE, READ_VAR and WRITE_VAR; a plan past the
 * last NeuronCore is -ENODEV and leaves the device unchanged; a LOAD whose
 * result cannot be written back is -EFAULT and loads nothing (not even
 * against the fd's cap); an MR_PSUM variable lives in its NeuronCore's
 * PSUM window: RESOLVE, WRITE_VAR/READ_VAR, debugfs and DMA to and from
 * it, and plans that break the PSUM rules refused.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "kbin_writer.h"
#include "plans.h"

FIXTURE(std) {
	int fd;
	struct neuronsim_info info;
	struct plan p;
	uint32_t id;
};

FIXTURE_SETUP(std)
{
	char log[512];

	self->fd = nsim_open();
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, nsim_get_info(self->fd, &self->info));
	ASSERT_EQ(0, plan_std(&self->info, &self->p));
	ASSERT_EQ(0, nsim_load(self->fd, &self->p, 0, &self->id, NULL, log,
			       sizeof(log))) TH_LOG("load: %s", log);
	ASSERT_LT(0, self->id);
}

FIXTURE_TEARDOWN(std)
{
	plan_free(&self->p);
	close(self->fd);
}

static uint64_t addr_of(struct __test_metadata *_metadata, int fd,
			uint32_t id, uint32_t sg, uint32_t var)
{
	uint64_t a = 0;

	EXPECT_EQ(0, nsim_resolve(fd, id, sg, var, 0, 0, &a))
		TH_LOG("resolve sg %u var %u", sg, var);
	return a;
}

static int in_channel(const struct neuronsim_info *info, uint32_t core,
		      uint64_t a, uint64_t size)
{
	uint32_t ch = core * info->num_hbm_channels / info->num_cores;
	uint64_t base = info->hbm_base[ch];

	return a >= base && a + size <= base + info->hbm_channel_size;
}

TEST_F(std, every_kind_staged_and_resolved)
{
	const struct neuronsim_info *in = &self->info;
	uint64_t sb0, sb1, w, st, b, t, i0, o0, p, vl, vs, tab, r0, w1, r1, i1;
	uint64_t a;

	sb0 = addr_of(_metadata, self->fd, self->id, 0, V0_SB);
	sb1 = addr_of(_metadata, self->fd, self->id, 1, V1_SB);
	EXPECT_EQ(in->sbuf_base, sb0);
	EXPECT_EQ(in->sbuf_base + in->sbuf_window_size, sb1);

	w = addr_of(_metadata, self->fd, self->id, 0, V0_WEIGHT);
	st = addr_of(_metadata, self->fd, self->id, 0, V0_STAGED);
	b = addr_of(_metadata, self->fd, self->id, 0, V0_BIAS);
	t = addr_of(_metadata, self->fd, self->id, 0, V0_TMP);
	i0 = addr_of(_metadata, self->fd, self->id, 0, V0_IN);
	o0 = addr_of(_metadata, self->fd, self->id, 0, V0_OUT);
	EXPECT_TRUE(in_channel(in, 0, w, STD_WEIGHT_SIZE));
	EXPECT_TRUE(in_channel(in, 0, st, STD_STAGED_SIZE));
	EXPECT_TRUE(in_channel(in, 0, b, 1000));
	EXPECT_TRUE(in_channel(in, 0, t, 5000));
	EXPECT_TRUE(in_channel(in, 0, i0, 2048));
	EXPECT_TRUE(in_channel(in, 0, o0, 2048));
	EXPECT_EQ(0, w % 65536);
	EXPECT_EQ(0, st % 64);
	EXPECT_EQ(0, b % 256);
	EXPECT_EQ(0, t % 4096);
	EXPECT_NE(w, st);
	EXPECT_NE(b, t);
	EXPECT_NE(i0, o0);
	/* no two HBM buffers overlap */
	EXPECT_TRUE(w + STD_WEIGHT_SIZE <= st || st + STD_STAGED_SIZE <= w);
	EXPECT_TRUE(i0 + 2048 <= o0 || o0 + 2048 <= i0);

	p = addr_of(_metadata, self->fd, self->id, 0, V0_PTR);
	EXPECT_EQ(w, p);

	vl = addr_of(_metadata, self->fd, self->id, 0, V0_VLOCAL);
	vs = addr_of(_metadata, self->fd, self->id, 0, V0_VSHARED);
	EXPECT_TRUE(in_channel(in, 0, vl, 1024));
	EXPECT_TRUE(in_channel(in, 0, vs, 512));
	EXPECT_EQ(0, vl % 4096) TH_LOG("vlocal at offset 4096 of a 4 KiB aligned page");
	EXPECT_EQ(512, vs % 4096);

	EXPECT_EQ(-ENODATA, nsim_resolve(self->fd, self->id, 0, V0_LIST, 0, 0, &a));

	tab = addr_of(_metadata, self->fd, self->id, 0, V0_TABLE);
	EXPECT_TRUE(in_channel(in, 0, tab, 32));
	EXPECT_EQ(0, tab % 8);

	w1 = addr_of(_metadata, self->fd, self->id, 1, V1_W);
	i1 = addr_of(_metadata, self->fd, self->id, 1, V1_IN);
	EXPECT_TRUE(in_channel(in, 1, w1, STD_W1_SIZE));
	EXPECT_TRUE(in_channel(in, 1, i1, 64));
	r0 = addr_of(_metadata, self->fd, self->id, 0, V0_REMOTE);
	r1 = addr_of(_metadata, self->fd, self->id, 1, V1_REMOTE);
	EXPECT_EQ(w1, r0);
	EXPECT_EQ(o0, r1);

	/* no staged address is ever 0 */
	EXPECT_NE(0, w);
	EXPECT_NE(0, vl);
	EXPECT_NE(0, sb0);
}

TEST_F(std, model_info)
{
	struct neuronsim_model_info mi = { .model_id = self->id };

	ASSERT_EQ(0, ioctl(self->fd, NEURONSIM_IOC_MODEL_INFO, &mi));
	EXPECT_EQ(self->info.arch_gen, mi.target_gen);
	EXPECT_EQ(2, mi.num_subgraphs);
	EXPECT_EQ(0, mi.first_core);
	EXPECT_EQ(V0_N + V1_N, mi.num_vars);
	EXPECT_LT(0, mi.hbm_bytes);
	EXPECT_LE(STD_LOCAL_SP + STD_SHARED_SP, mi.scratchpad_bytes);
	mi.flags = 1;
	EXPECT_EQ(EINVAL, ioctl_errno(self->fd, NEURONSIM_IOC_MODEL_INFO, &mi));
}

TEST_F(std, read_var_returns_payload)
{
	static uint8_t buf[STD_WEIGHT_SIZE];
	uint64_t i;
	int bad = 0;

	ASSERT_EQ(0, nsim_read_var(self->fd, self->id, 0, V0_WEIGHT, 0, buf,
				   STD_WEIGHT_SIZE));
	for (i = 0; i < STD_WEIGHT_SIZE; i++)
		bad += buf[i] != payload_byte(V0_WEIGHT, i);
	EXPECT_EQ(0, bad);
	ASSERT_EQ(0, nsim_read_var(self->fd, self->id, 0, V0_STAGED, 10, buf, 100));
	for (i = 0; i < 100; i++)
		bad += buf[i] != payload_byte(V0_STAGED, i + 10);
	EXPECT_EQ(0, bad);
	/* the remote var in sg0 reads sg1's w1 payload */
	ASSERT_EQ(0, nsim_read_var(self->fd, self->id, 0, V0_REMOTE, 0, buf,
				   STD_W1_SIZE));
	for (i = 0; i < STD_W1_SIZE; i++)
		bad += buf[i] != payload_byte(100 + V1_W, i);
	EXPECT_EQ(0, bad);
	/* "alloc only": reads zeros */
	memset(buf, 0xaa, 1000);
	ASSERT_EQ(0, nsim_read_var(self->fd, self->id, 0, V0_BIAS, 0, buf, 1000));
	for (i = 0; i < 1000; i++)
		bad += buf[i] != 0;
	EXPECT_EQ(0, bad);
}

TEST_F(std, write_read_and_remote_across_subgraphs)
{
	uint8_t in[2048], out[2048];
	int i;

	for (i = 0; i < 2048; i++)
		in[i] = (uint8_t)(i ^ 0x5a);
	ASSERT_EQ(0, nsim_write_var(self->fd, self->id, 0, V0_OUT, 0, in, 2048));
	ASSERT_EQ(0, nsim_read_var(self->fd, self->id, 0, V0_OUT, 0, out, 2048));
	EXPECT_EQ(0, memcmp(in, out, 2048));
	memset(out, 0, sizeof(out));
	ASSERT_EQ(0, nsim_read_var(self->fd, self->id, 1, V1_REMOTE, 0, out, 2048));
	EXPECT_EQ(0, memcmp(in, out, 2048));
	/* SBUF and scratchpad take writes too */
	ASSERT_EQ(0, nsim_write_var(self->fd, self->id, 0, V0_SB, 100, in, 64));
	ASSERT_EQ(0, nsim_read_var(self->fd, self->id, 0, V0_SB, 100, out, 64));
	EXPECT_EQ(0, memcmp(in, out, 64));
	ASSERT_EQ(0, nsim_write_var(self->fd, self->id, 0, V0_VLOCAL, 0, in, 1024));
	ASSERT_EQ(0, nsim_read_var(self->fd, self->id, 0, V0_VLOCAL, 0, out, 1024));
	EXPECT_EQ(0, memcmp(in, out, 1024));
	/* errors */
	EXPECT_EQ(-ERANGE, nsim_write_var(self->fd, self->id, 0, V0_OUT, 1, in, 2048));
	EXPECT_EQ(-ENODATA, nsim_read_var(self->fd, self->id, 0, V0_PTR, 0, out, 8));
	EXPECT_EQ(-ENODATA, nsim_read_var(self->fd, self->id, 0, V0_LIST, 0, out, 4));
	EXPECT_EQ(-EPERM, nsim_write_var(self->fd, self->id, 0, V0_TABLE, 0, in, 8));
	EXPECT_EQ(-ENOENT, nsim_read_var(self->fd, self->id, 2, 0, 0, out, 1));
	EXPECT_EQ(-ENOENT, nsim_read_var(self->fd, self->id, 0, V0_N, 0, out, 1));
	EXPECT_EQ(-EFAULT, nsim_read_var(self->fd, self->id, 0, V0_OUT, 0,
					 (void *)8, 16));
}

TEST_F(std, ptr_table_holds_listed_addresses)
{
	static const uint32_t listed[] = { V0_WEIGHT, V0_IN, V0_OUT, V0_VLOCAL };
	uint64_t table[4];
	int i;

	ASSERT_EQ(0, nsim_read_var(self->fd, self->id, 0, V0_TABLE, 0, table,
				   sizeof(table)));
	for (i = 0; i < 4; i++)
		EXPECT_EQ(addr_of(_metadata, self->fd, self->id, 0, listed[i]),
			  table[i]) TH_LOG("row %d", i);
}

TEST_F(std, unload)
{
	EXPECT_EQ(0, nsim_unload(self->fd, self->id));
	EXPECT_EQ(-ENOENT, nsim_resolve(self->fd, self->id, 0, V0_WEIGHT, 0, 0, NULL));
	EXPECT_EQ(-ENOENT, nsim_unload(self->fd, self->id));
}

TEST_F(std, second_load_gets_other_addresses)
{
	uint32_t id2;
	uint64_t a1, a2;

	ASSERT_EQ(0, nsim_load(self->fd, &self->p, 0, &id2, NULL, NULL, 0));
	EXPECT_NE(self->id, id2);
	a1 = addr_of(_metadata, self->fd, self->id, 0, V0_WEIGHT);
	a2 = addr_of(_metadata, self->fd, id2, 0, V0_WEIGHT);
	EXPECT_NE(a1, a2);
	EXPECT_EQ(0, nsim_unload(self->fd, id2));
}

static struct kbin_mem_ref *plan_rec(struct plan *p, uint32_t sg, uint32_t i)
{
	struct kbin_header *h = p->buf;
	struct kbin_subgraph *s = (void *)((char *)p->buf + h->subgraph_table_off);
	struct kbin_mem_ref_set *set = (void *)((char *)p->buf + s[sg].set_off);

	return &set->mem[i];
}

TEST_F(std, bad_plan_reports_record_and_text)
{
	struct neuronsim_load l;
	char log[512];

	plan_rec(&self->p, 1, V1_IN)->alignment = 3;
	kbin_fix_checksum(self->p.buf, self->p.len);
	EXPECT_EQ(-EINVAL, nsim_load(self->fd, &self->p, 0, NULL, &l, log,
				     sizeof(log)));
	EXPECT_EQ(1, l.err_subgraph);
	EXPECT_EQ(V1_IN, l.err_record);
	EXPECT_EQ(KBIN_ERR_ALIGNMENT, l.err_reason);
	EXPECT_EQ(KBIN_FIELD_ALIGNMENT, l.err_field);
	EXPECT_EQ(strlen(log) + 1, l.log_len);
	EXPECT_NE(NULL, strstr(log, "alignment")) TH_LOG("log: %s", log);

	/* a short log buffer gets a NUL-terminated prefix */
	EXPECT_EQ(-EINVAL, nsim_load(self->fd, &self->p, 0, NULL, &l, log, 8));
	EXPECT_EQ(8, l.log_len);
	EXPECT_EQ(7, strlen(log));
}

TEST_F(std, plan_over_max_plan_bytes)
{
	struct neuronsim_load l;
	char old[64] = "", v[64];
	char *t = read_file("/sys/module/neuronsim/parameters/max_plan_bytes", NULL);
	int fd;

	ASSERT_NE(NULL, t);
	strncpy(old, t, sizeof(old) - 1);
	free(t);
	fd = open("/sys/module/neuronsim/parameters/max_plan_bytes", O_WRONLY);
	ASSERT_LE(0, fd);
	snprintf(v, sizeof(v), "%zu", self->p.len - 1);
	ASSERT_LT(0, write(fd, v, strlen(v)));
	EXPECT_EQ(-E2BIG, nsim_load(self->fd, &self->p, 0, NULL, &l, NULL, 0));
	EXPECT_EQ(KBIN_ERR_STAGE_LIMIT, l.err_reason);
	ASSERT_LT(0, write(fd, old, strlen(old)));
	close(fd);
}

/*
 * A plan with a program (KBIN version 3) loads; one whose SP starts only
 * one of qSPIO0's two blocks is refused by the checker LOAD runs, which
 * is the compiler's (Documentation/kbin-format.rst, "Program rules").
 */
TEST_F(std, program_loads_and_trigger_count_mismatch_refused)
{
	struct plan good = { 0 }, bad = { 0 };
	struct neuronsim_load l;
	uint32_t id = 0;
	char log[512];

	ASSERT_EQ(0, plan_std_prog(&self->info, 2, &good));
	ASSERT_EQ(3U, ((struct kbin_header *)good.buf)->version);
	ASSERT_EQ(0, nsim_load(self->fd, &good, 0, &id, NULL, log, sizeof(log)))
		TH_LOG("load: %s", log);
	EXPECT_EQ(0, nsim_unload(self->fd, id));
	ASSERT_EQ(0, plan_std_prog(&self->info, 1, &bad));
	EXPECT_EQ(-EINVAL, nsim_load(self->fd, &bad, 0, NULL, &l, log, sizeof(log)));
	EXPECT_EQ(0, l.err_subgraph);
	EXPECT_EQ(-1, l.err_record);
	EXPECT_EQ(KBIN_ERR_PROG_TRIGGER_COUNT, l.err_reason);
	EXPECT_EQ(KBIN_FIELD_PROG_SP, l.err_field);
	EXPECT_NE(NULL, strstr(log, "queue 'qSPIO0' has 2 blocks but the sp stream triggers it 1 times"))
		TH_LOG("log: %s", log);
	plan_free(&good);
	plan_free(&bad);
}

/* a version 1 plan (no DMA section) of the same variables still loads */
TEST_F(std, version_1_plan_loads)
{
	struct plan p1 = { 0 };
	uint64_t a = 0, b = 0;
	uint32_t id = 0;
	char log[512];

	ASSERT_EQ(0, plan_std_v1(&self->info, &p1));
	ASSERT_EQ(1U, ((struct kbin_header *)p1.buf)->version);
	ASSERT_EQ(2U, ((struct kbin_header *)self->p.buf)->version);
	ASSERT_LT(p1.len, self->p.len);
	ASSERT_EQ(0, nsim_load(self->fd, &p1, 0, &id, NULL, log, sizeof(log)))
		TH_LOG("load: %s", log);
	EXPECT_EQ(0, nsim_resolve(self->fd, id, 0, V0_WEIGHT, 16, 8, &a));
	EXPECT_EQ(0, nsim_resolve(self->fd, self->id, 0, V0_WEIGHT, 16, 8, &b));
	EXPECT_NE(0, a);
	EXPECT_NE(a, b);	/* two models, two placements */
	EXPECT_EQ(0, nsim_unload(self->fd, id));
	plan_free(&p1);
}

TEST_F(std, wrong_target_generation)
{
	struct neuronsim_load l;
	struct neuronsim_info other = self->info;
	struct plan p2 = { 0 };

	other.arch_gen = self->info.arch_gen == 3 ? 2 : 3;
	other.sbuf_partition_size = 192 << 10;
	ASSERT_EQ(0, plan_std(&other, &p2));
	EXPECT_EQ(-EINVAL, nsim_load(self->fd, &p2, 0, NULL, &l, NULL, 0));
	EXPECT_EQ(KBIN_ERR_TARGET, l.err_reason);
	plan_free(&p2);
}

TEST_F(std, load_flags_and_reserved)
{
	static const struct ioctl_poke pokes[] = {
		IOCTL_POKE(struct neuronsim_load, flags, 1, EINVAL),
		IOCTL_POKE(struct neuronsim_load, reserved, 1, EINVAL),
		IOCTL_POKE(struct neuronsim_load, plan_ptr, 16, EFAULT),
	};
	struct neuronsim_load l;

	memset(&l, 0, sizeof(l));
	l.plan_ptr = (uintptr_t)self->p.buf;
	l.plan_len = self->p.len;
	EXPECT_IOCTL_POKES(self->fd, NEURONSIM_IOC_LOAD, &l, pokes);
}

/*
 * WRITE_VAR into an SBUF carve-out: the standard plan has one evtaccel
 * carve-out in sg00, the last 8 bytes of each of the 128 partitions.  In
 * the MR_SB variable (the SBUF window) partition p's bytes start at p *
 * stride (window / partitions).  Every range that touches the carve-out
 * is -EPERM; the bytes next to it, and the same offsets of sg01 (no
 * carve-out), take writes; READ_VAR reads it, unchanged by the refused
 * writes.
 */
/* WRITE_VAR of @len bytes of 0xa5 at @off of sg @sg's MR_SB */
static int sb_write(int fd, uint32_t id, uint32_t sg, uint64_t off,
		    uint64_t len)
{
	uint8_t *b = malloc(len);
	int ret;

	if (!b)
		return -ENOMEM;
	memset(b, 0xa5, len);
	ret = nsim_write_var(fd, id, sg, sg ? V1_SB : V0_SB, off, b, len);
	free(b);
	return ret;
}

/* bytes from one SBUF partition to the next in the window */
static uint64_t sb_stride(const struct neuronsim_info *info)
{
	return info->sbuf_window_size / info->sbuf_partitions;
}

TEST_F(std, write_into_carveout_refused)
{
	const uint64_t ps = self->info.sbuf_partition_size, co = ps - 8;
	const uint64_t st = sb_stride(&self->info);
	uint8_t out[16], zero[16] = { 0 };
	unsigned int p;

	/* exactly the carve-out, in the first, a middle and the last partition */
	for (p = 0; p < 128; p += 63)
		EXPECT_EQ(-EPERM, sb_write(self->fd, self->id, 0, p * st + co, 8))
			TH_LOG("partition %u", p);
	EXPECT_EQ(-EPERM, sb_write(self->fd, self->id, 0, 127 * st + co, 8));
	/* one byte of it: its first, its last */
	EXPECT_EQ(-EPERM, sb_write(self->fd, self->id, 0, 5 * st + co, 1));
	EXPECT_EQ(-EPERM, sb_write(self->fd, self->id, 0, 5 * st + ps - 1, 1));
	/* straddling its start; a whole partition */
	EXPECT_EQ(-EPERM, sb_write(self->fd, self->id, 0, 5 * st + co - 4, 8));
	EXPECT_EQ(-EPERM, sb_write(self->fd, self->id, 0, 3 * st, ps));

	/* refused writes changed nothing: the carve-out reads as zeros */
	ASSERT_EQ(0, nsim_read_var(self->fd, self->id, 0, V0_SB, 5 * st + co,
				   out, 8));
	EXPECT_EQ(0, memcmp(out, zero, 8));
	ASSERT_EQ(0, nsim_read_var(self->fd, self->id, 0, V0_SB, ps - 16, out,
				   16));
	EXPECT_EQ(0, memcmp(out, zero, 16));
}

TEST_F(std, bytes_outside_the_carveout_writable)
{
	const uint64_t ps = self->info.sbuf_partition_size, co = ps - 8;
	const uint64_t st = sb_stride(&self->info);
	uint8_t out[8];

	/* a whole partition up to the carve-out, and right after it */
	EXPECT_EQ(0, sb_write(self->fd, self->id, 0, 0, co));
	EXPECT_EQ(0, sb_write(self->fd, self->id, 0, st, co));
	EXPECT_EQ(0, sb_write(self->fd, self->id, 0, 7 * st + co - 1, 1));
	ASSERT_EQ(0, nsim_read_var(self->fd, self->id, 0, V0_SB, co - 8, out, 8));
	EXPECT_EQ(0xa5, out[0]);
	EXPECT_EQ(0xa5, out[7]);
	/* sg01 (NeuronCore 1) has no carve-out: the same bytes take writes */
	EXPECT_EQ(0, sb_write(self->fd, self->id, 1, co, 8));
	EXPECT_EQ(0, sb_write(self->fd, self->id, 1, 3 * st, ps));
	ASSERT_EQ(0, nsim_read_var(self->fd, self->id, 1, V1_SB, co, out, 8));
	EXPECT_EQ(0xa5, out[0]);
	EXPECT_EQ(0xa5, out[7]);
}

/*
 * The MR_SB variable spans the SBUF window; bytes past a partition's
 * size up to the next stride are a gap that RESOLVE and WRITE_VAR refuse
 * with -ERANGE and READ_VAR returns as zeros (Documentation/uapi.rst), on
 * every generation whose partitions do not fill their stride (on trn3
 * they do: there the same bytes resolve).  On trn2: byte 229375 of
 * partition 127 resolves, byte 229376 does not.
 */
TEST_F(std, sbuf_gap_refused)
{
	const uint64_t ps = self->info.sbuf_partition_size;
	const uint64_t st = sb_stride(&self->info);
	const uint64_t last = 127 * st + ps - 1;
	uint64_t a = 0;
	uint8_t b[2] = { 0 };

	ASSERT_EQ(self->info.sbuf_window_size, 128 * st);
	EXPECT_EQ(0, nsim_resolve(self->fd, self->id, 0, V0_SB, last, 1, &a));
	EXPECT_EQ(self->info.sbuf_base + last, a);
	EXPECT_EQ(0, nsim_read_var(self->fd, self->id, 1, V1_SB, last, b, 1));
	EXPECT_EQ(0, nsim_write_var(self->fd, self->id, 1, V1_SB, last, b, 1));
	if (ps == st) {
		/* partitions fill their stride (trn3): no gap, runs may cross */
		EXPECT_EQ(0, nsim_resolve(self->fd, self->id, 0, V0_SB,
					  5 * st + 229376, 1, &a));
		EXPECT_EQ(0, nsim_resolve(self->fd, self->id, 0, V0_SB,
					  5 * st + ps - 1, 2, &a));
		EXPECT_EQ(0, nsim_read_var(self->fd, self->id, 1, V1_SB,
					   5 * st + ps - 1, b, 2));
		return;
	}
	if (self->info.arch_gen == 3)
		EXPECT_EQ(127ULL * 262144 + 229375, last);
	/* the first gap byte, alone, reached by a run, with no size */
	EXPECT_EQ(-ERANGE, nsim_resolve(self->fd, self->id, 0, V0_SB, last + 1, 1, &a));
	EXPECT_EQ(-ERANGE, nsim_resolve(self->fd, self->id, 0, V0_SB, last, 2, &a));
	EXPECT_EQ(-ERANGE, nsim_resolve(self->fd, self->id, 0, V0_SB, last + 1, 0, &a));
	EXPECT_EQ(-ERANGE, nsim_resolve(self->fd, self->id, 0, V0_SB, st - 1, 1, &a));
	b[0] = b[1] = 0xee;
	EXPECT_EQ(0, nsim_read_var(self->fd, self->id, 1, V1_SB, last, b, 2));
	EXPECT_EQ(0, b[1]);
	b[0] = 0xee;
	EXPECT_EQ(0, nsim_read_var(self->fd, self->id, 1, V1_SB, 5 * st + ps, b, 1));
	EXPECT_EQ(0, b[0]);
	EXPECT_EQ(-ERANGE, nsim_write_var(self->fd, self->id, 1, V1_SB, last, b, 2));
	EXPECT_EQ(-ERANGE, nsim_write_var(self->fd, self->id, 1, V1_SB, last + 1, b, 1));
	/* the gap outranks the carve-out: sg00's last bytes run into it */
	EXPECT_EQ(-ERANGE, sb_write(self->fd, self->id, 0, 5 * st + ps - 1, 2));
	EXPECT_EQ(-ERANGE, sb_write(self->fd, self->id, 0, 0, 3 * st));
	/* a whole partition still resolves and the next starts a stride on */
	EXPECT_EQ(0, nsim_resolve(self->fd, self->id, 0, V0_SB, 6 * st, ps, &a));
	EXPECT_EQ(self->info.sbuf_base + 6 * st, a);
	EXPECT_EQ(-ERANGE, nsim_resolve(self->fd, self->id, 0, V0_SB, 6 * st, ps + 1, &a));
}

/*
 * READ_VAR of MR_SB may span partitions: each partition's bytes as they
 * are, the gap past them as zeros; the whole 32 MiB window reads in one
 * call (Documentation/uapi.rst).  Bytes at both edges of partitions 5
 * and 6 of sg01 (no carve-out there) are written first.
 */
TEST_F(std, sbuf_read_spans_partitions)
{
	const uint64_t ps = self->info.sbuf_partition_size;
	const uint64_t st = sb_stride(&self->info);
	const uint64_t win = self->info.sbuf_window_size;
	static const uint8_t tail[4] = { 1, 2, 3, 4 }, head[4] = { 5, 6, 7, 8 };
	uint64_t i, n = st - ps + 8;
	uint8_t *b = malloc(win);

	ASSERT_NE(NULL, b);
	ASSERT_EQ(0, nsim_write_var(self->fd, self->id, 1, V1_SB,
				    5 * st + ps - 4, tail, 4));
	ASSERT_EQ(0, nsim_write_var(self->fd, self->id, 1, V1_SB, 6 * st,
				    head, 4));
	memset(b, 0xee, n);
	ASSERT_EQ(0, nsim_read_var(self->fd, self->id, 1, V1_SB,
				   5 * st + ps - 4, b, n));
	EXPECT_EQ(0, memcmp(b, tail, 4));
	for (i = 4; i < n - 4; i++)
		if (b[i]) {
			TH_LOG("gap byte %llu is 0x%02x, not 0",
			       (unsigned long long)i - 4, b[i]);
			break;
		}
	EXPECT_EQ(n - 4, i);
	EXPECT_EQ(0, memcmp(b + n - 4, head, 4));
	/* the whole window, as "read sg1/SB +0:33554432" asks */
	memset(b, 0xee, win);
	ASSERT_EQ(0, nsim_read_var(self->fd, self->id, 1, V1_SB, 0, b, win));
	EXPECT_EQ(0, memcmp(b + 5 * st + ps - 4, tail, 4));
	EXPECT_EQ(0, memcmp(b + 6 * st, head, 4));
	if (ps < st) {
		EXPECT_EQ(0, b[5 * st + ps]);
		EXPECT_EQ(0, b[127 * st + st - 1]);
	}
	/* one byte past the window is still past the variable */
	EXPECT_EQ(-ERANGE, nsim_read_var(self->fd, self->id, 1, V1_SB, 1, b, win));
	free(b);
}

/*
 * An MR_REMOTE of an MR_SB reads, writes and resolves the SBUF window as
 * its source does (Documentation/uapi.rst, READ_VAR): spanning
 * partitions, the gap read as zeros, a write or a RESOLVE touching the
 * gap refused.  One subgraph whose
 * var 1 is the remote of its own var 0, the state buffer.
 */
TEST(remote_of_sb_spans_partitions)
{
	static const uint8_t tail[4] = { 1, 2, 3, 4 }, head[4] = { 5, 6, 7, 8 };
	struct kbin_sb_carveout co = {
		.type = KBIN_CARVEOUT_EVTACCEL, .size = 8,
		.start_partition = 0, .num_partitions = 128,
	};
	struct neuronsim_info info;
	struct kbin_writer *w;
	struct plan p;
	uint64_t ps, st, n, i;
	uint32_t id;
	uint8_t *b;
	int fd, e = 0;

	fd = nsim_open();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, nsim_get_info(fd, &info));
	ps = info.sbuf_partition_size;
	st = sb_stride(&info);
	co.offset = ps - 8;
	w = kbin_writer_new(info.arch_gen);
	ASSERT_NE(NULL, w);
	e |= kbin_writer_add_subgraph(w, "sg00", 0, 0, &co, 1) < 0;
	e |= TL_ADD(w, .id = 0, .type = KBIN_MR_SB, .name = "state_buffer",
		    .size = info.sbuf_window_size);
	e |= TL_ADD(w, .id = 1, .type = KBIN_MR_REMOTE, .name = "remote_sb",
		    .size = info.sbuf_window_size, .rel_sg = 0, .var = 0);
	ASSERT_EQ(0, plan_finish(w, e, &p));
	ASSERT_EQ(0, nsim_load(fd, &p, 0, &id, NULL, NULL, 0));

	ASSERT_EQ(0, nsim_write_var(fd, id, 0, 0, 5 * st + ps - 12, tail, 4));
	ASSERT_EQ(0, nsim_write_var(fd, id, 0, 0, 6 * st, head, 4));
	n = st - ps + 16;
	b = malloc(n);
	ASSERT_NE(NULL, b);
	memset(b, 0xee, n);
	ASSERT_EQ(0, nsim_read_var(fd, id, 0, 1, 5 * st + ps - 12, b, n));
	EXPECT_EQ(0, memcmp(b, tail, 4));
	for (i = 4; i < n - 4; i++)
		if (b[i])
			break;
	EXPECT_EQ(n - 4, i) TH_LOG("byte %llu is 0x%02x, not 0",
				   (unsigned long long)i, b[i]);
	EXPECT_EQ(0, memcmp(b + n - 4, head, 4));
	if (ps < st) {
		uint64_t a = 0, a0 = 0;

		EXPECT_EQ(-ERANGE, nsim_write_var(fd, id, 0, 1, 5 * st + ps - 2, b, 4));
		EXPECT_EQ(-ERANGE, nsim_write_var(fd, id, 0, 1, 5 * st + ps, b, 1));
		/* RESOLVE through the remote refuses the gap as on the SB */
		EXPECT_EQ(-ERANGE, nsim_resolve(fd, id, 0, 0, 5 * st + ps, 1, &a));
		EXPECT_EQ(-ERANGE, nsim_resolve(fd, id, 0, 1, 5 * st + ps, 1, &a));
		EXPECT_EQ(-ERANGE, nsim_resolve(fd, id, 0, 1, 5 * st + ps - 1, 2, &a));
		EXPECT_EQ(0, nsim_resolve(fd, id, 0, 0, 5 * st + ps - 1, 1, &a0));
		EXPECT_EQ(0, nsim_resolve(fd, id, 0, 1, 5 * st + ps - 1, 1, &a));
		EXPECT_EQ(a0, a);
	}
	EXPECT_EQ(0, nsim_write_var(fd, id, 0, 1, 5 * st + ps - 16, head, 4));
	free(b);
	EXPECT_EQ(0, nsim_unload(fd, id));
	plan_free(&p);
	close(fd);
}

/*
 * An MR_PSUM variable (Documentation/hardware.rst, "Kinds") is its
 * NeuronCore's PSUM window: loaded on the last NeuronCore it resolves at
 * psum_base + core * psum_size, reads zeros until written, takes a
 * WRITE_VAR/READ_VAR round trip and is refused past its size; debugfs
 * lists it as psum<core>, "psum window"; qIn copies input0 into four
 * partitions of it, partition p at p * psum_size / 128, and qOut copies
 * them back to output0.  Plans that break the PSUM rules are refused with
 * their reason.
 */
static int run_queue_wait(int fd, uint32_t id, uint32_t q,
			  struct neuronsim_run_result *res)
{
	struct neuronsim_run r = {
		.model_id = id, .num_queues = 1, .queues = (uintptr_t)&q,
	};
	struct neuronsim_wait w = {
		.model_id = id, .num_queues = 1, .queues = (uintptr_t)&q,
		.results = (uintptr_t)res, .timeout_ns = 60LL * 1000000000LL,
	};

	if (ioctl(fd, NEURONSIM_IOC_RUN, &r) || ioctl(fd, NEURONSIM_IOC_WAIT, &w))
		return -errno;
	return 0;
}

/* LOAD of the PSUM plan @ps on core 0: its err_reason, 0 when it loads */
static unsigned int psum_load_reason(int fd, const struct tl_psum *ps)
{
	struct neuronsim_load l;
	struct kbin_writer *w;
	struct plan p;
	uint32_t id;
	int e = 0;

	w = tl_psum_plan(ps, &e);
	if (!w || plan_finish(w, e, &p))
		return ~0U;
	if (!nsim_load(fd, &p, 0, &id, &l, NULL, 0)) {
		nsim_unload(fd, id);
		l.err_reason = 0;
	}
	plan_free(&p);
	return l.err_reason;
}

TEST(psum_var_staged_resolved_and_moved_by_dma)
{
	enum { RUN = 64, PARTS = 4, FIRST = 2, BYTE = 100 };
	struct neuronsim_run_result res;
	struct neuronsim_info info;
	struct kbin_writer *w;
	uint8_t in[RUN * PARTS], out[RUN * PARTS], b[RUN], zero[RUN] = { 0 };
	uint64_t part, a = 0, base;
	char path[128], row[64];
	struct tl_psum ps;
	struct plan p;
	uint32_t id, core, k;
	int fd, e = 0;

	fd = nsim_open();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, nsim_get_info(fd, &info));
	part = info.psum_size / 128;	/* 128 PSUM partitions on trn1..trn3 */
	core = info.num_cores - 1;
	base = info.psum_base + core * info.psum_size;
	ps = (struct tl_psum){ .gen = info.arch_gen,
			       .sb_size = info.sbuf_window_size, .run = RUN,
			       .parts = PARTS, .first = FIRST, .byte = BYTE };
	w = tl_psum_plan(&ps, &e);
	ASSERT_NE(NULL, w);
	ASSERT_EQ(0, plan_finish(w, e, &p));
	ASSERT_EQ(0, nsim_load(fd, &p, core, &id, NULL, NULL, 0));

	/* RESOLVE: inside the PSUM window of the core it was loaded on */
	ASSERT_EQ(0, nsim_resolve(fd, id, 0, TL_PSUM_VAR, 0, info.psum_size, &a));
	EXPECT_EQ(base, a);
	ASSERT_EQ(0, nsim_resolve(fd, id, 0, TL_PSUM_VAR, 3 * part + 5, 1, &a));
	EXPECT_EQ(base + 3 * part + 5, a);
	EXPECT_EQ(-ERANGE, nsim_resolve(fd, id, 0, TL_PSUM_VAR, info.psum_size, 1, &a));

	/* zeros until written; a WRITE_VAR/READ_VAR round trip */
	ASSERT_EQ(0, nsim_read_var(fd, id, 0, TL_PSUM_VAR, 9 * part, b, RUN));
	EXPECT_EQ(0, memcmp(b, zero, RUN));
	for (k = 0; k < RUN; k++)
		b[k] = (uint8_t)(k * 7 + 1);
	ASSERT_EQ(0, nsim_write_var(fd, id, 0, TL_PSUM_VAR, 9 * part + 3, b, RUN));
	memset(out, 0, sizeof(out));
	ASSERT_EQ(0, nsim_read_var(fd, id, 0, TL_PSUM_VAR, 9 * part + 3, out, RUN));
	EXPECT_EQ(0, memcmp(b, out, RUN));
	EXPECT_EQ(-ERANGE, nsim_write_var(fd, id, 0, TL_PSUM_VAR, info.psum_size - 1, b, 2));
	EXPECT_EQ(-ERANGE, nsim_read_var(fd, id, 0, TL_PSUM_VAR, info.psum_size, b, 1));

	/* debugfs: the same columns as an MR_SB row */
	snprintf(row, sizeof(row), "\tpsum%u\tpsum window\n", core);
	EXPECT_FILE_HAS(dbgfs_path(path, sizeof(path), "models/%u/sg0/memrefs", id),
			"\tpsum\tMR_PSUM\t", row);

	/* DMA: input0 -> four PSUM partitions -> output0 */
	for (k = 0; k < sizeof(in); k++)
		in[k] = (uint8_t)(k * 13 + 5);
	ASSERT_EQ(0, nsim_write_var(fd, id, 0, TL_IO_IN, 0, in, sizeof(in)));
	ASSERT_EQ(0, run_queue_wait(fd, id, TL_PSUM_Q_IN, &res));
	EXPECT_EQ(0, res.status);
	EXPECT_EQ((uint64_t)sizeof(in), res.bytes);
	for (k = 0; k < PARTS; k++) {
		ASSERT_EQ(0, nsim_read_var(fd, id, 0, TL_PSUM_VAR,
					   (FIRST + k) * part + BYTE, b, RUN));
		EXPECT_EQ(0, memcmp(b, in + k * RUN, RUN)) TH_LOG("partition %u", FIRST + k);
	}
	ASSERT_EQ(0, run_queue_wait(fd, id, TL_PSUM_Q_OUT, &res));
	EXPECT_EQ(0, res.status);
	ASSERT_EQ(0, nsim_read_var(fd, id, 0, TL_IO_OUT, 0, out, sizeof(out)));
	EXPECT_EQ(0, memcmp(in, out, sizeof(out)));
	EXPECT_EQ(0, nsim_unload(fd, id));
	plan_free(&p);

	/* bad plans: the record past the window, a run past its partition,
	 * partitions past the PSUM's
	 */
	ps = (struct tl_psum){ .gen = info.arch_gen,
			       .sb_size = info.sbuf_window_size, .run = RUN,
			       .parts = 1, .psum_size = info.psum_size + 1 };
	EXPECT_EQ(KBIN_ERR_SIZE, psum_load_reason(fd, &ps));
	ps.psum_size = 0;
	ps.byte = part - RUN / 2;
	EXPECT_EQ(KBIN_ERR_DMA_PSUM_PARTITION, psum_load_reason(fd, &ps));
	ps.byte = 0;
	ps.first = 127;
	ps.parts = 2;
	EXPECT_EQ(KBIN_ERR_DMA_PSUM_WINDOW, psum_load_reason(fd, &ps));
	ps.parts = 1;
	EXPECT_EQ(0U, psum_load_reason(fd, &ps));
	close(fd);
}

/* the names under debugfs models/, sorted into one string */
static void models_dir(char *buf, size_t size)
{
	struct dirent **ents;
	char path[128];
	size_t n = 0;
	int i, k;

	buf[0] = 0;
	k = scandir(dbgfs_path(path, sizeof(path), "models"), &ents, NULL,
		    alphasort);
	for (i = 0; i < k; i++) {
		if (ents[i]->d_name[0] != '.' && n < size)
			n += snprintf(buf + n, size - n, "%s ", ents[i]->d_name);
		free(ents[i]);
	}
	if (k >= 0)
		free(ents);
}

static long long load_failures(void)
{
	char path[128];
	char *t = read_file(dbgfs_path(path, sizeof(path), "stats"), NULL), *p;
	long long v = -1;

	p = t ? strstr(t, "load_failures ") : NULL;
	if (p)
		v = strtoll(p + strlen("load_failures "), NULL, 10);
	free(t);
	return v;
}

/*
 * The standard plan has two subgraphs: from the last NeuronCore (trn1:
 * first_core 1 of 2) it does not fit.  -ENODEV, KBIN_ERR_STAGE_CORES, the
 * log says so, and the device is as it was: debugfs stats, HBM per
 * channel, the models directory; only load_failures moves, by one.
 */
TEST_F(std, not_enough_cores)
{
	char dir_before[256], dir_after[256], log[512];
	const struct neuronsim_info *in = &self->info;
	uint32_t first = in->num_cores - 1, id = 0;
	struct snap before, after;
	struct neuronsim_load l;
	long long fails;

	TH_LOG("%s: %u NeuronCores, first_core %u", in->arch_name,
	       in->num_cores, first);
	if (!strcmp(in->arch_name, "trn1"))
		EXPECT_EQ(1, first);
	SNAP_TAKE(&before);
	models_dir(dir_before, sizeof(dir_before));
	fails = load_failures();
	ASSERT_LE(0, fails);

	EXPECT_EQ(-ENODEV, nsim_load(self->fd, &self->p, first, &id, &l, log,
				     sizeof(log)));
	EXPECT_EQ(KBIN_ERR_STAGE_CORES, l.err_reason);
	EXPECT_EQ(0, l.model_id);
	EXPECT_NE(NULL, strstr(log, "do not fit")) TH_LOG("log: %s", log);

	SNAP_TAKE(&after);
	EXPECT_SNAP_EQ(before, after, "after the -ENODEV load");
	models_dir(dir_after, sizeof(dir_after));
	EXPECT_STREQ(dir_before, dir_after);
	EXPECT_EQ(fails + 1, load_failures());

	/* the plan itself fits one core lower; its unload restores all */
	EXPECT_EQ(0, nsim_load(self->fd, &self->p, first - 1, &id, NULL, log,
			       sizeof(log))) TH_LOG("load: %s", log);
	EXPECT_EQ(0, nsim_unload(self->fd, id));
	SNAP_TAKE(&after);
	EXPECT_SNAP_EQ(before, after, "after a good load and its unload");
}

#define PARAM_MODELS "/sys/module/neuronsim/parameters/max_models_per_fd"

/*
 * Publish last: when LOAD cannot write its struct back (it lies in a
 * read-only page) it returns -EFAULT and nothing is loaded - the model
 * count, HBM, kernel memory and the models directory are as before, the
 * log says why, and the fd can still load as many models as before.
 */
TEST_F(std, result_not_written_back_loads_nothing)
{
	char dir_before[256], dir_after[256], log[512];
	long page = sysconf(_SC_PAGESIZE);
	struct snap before, after;
	struct neuronsim_load *l;
	long long fails;
	uint32_t id;
	char *old;

	l = mmap(NULL, page, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, l);
	memset(l, 0, sizeof(*l));
	l->plan_ptr = (uintptr_t)self->p.buf;
	l->plan_len = self->p.len;
	l->log_buf = (uintptr_t)log;
	l->log_size = sizeof(log);
	log[0] = 0;
	ASSERT_EQ(0, mprotect(l, page, PROT_READ));
	SNAP_TAKE(&before);
	models_dir(dir_before, sizeof(dir_before));
	fails = load_failures();

	EXPECT_EQ(EFAULT, ioctl_errno(self->fd, NEURONSIM_IOC_LOAD, l));
	EXPECT_NE(NULL, strstr(log, "could not be written back"))
		TH_LOG("log: %s", log);

	SNAP_TAKE(&after);
	EXPECT_SNAP_EQ(before, after, "after the load whose result was not written back");
	models_dir(dir_after, sizeof(dir_after));
	EXPECT_STREQ(dir_before, dir_after);
	EXPECT_EQ(fails + 1, load_failures());
	/*
	 * the fixture's model is still the only one of the fd: with
	 * max_models_per_fd 2 one more load fits
	 */
	old = read_file(PARAM_MODELS, NULL);
	ASSERT_NE(NULL, old);
	ASSERT_EQ(0, write_text(PARAM_MODELS, "2"));
	EXPECT_EQ(0, nsim_load(self->fd, &self->p, 0, &id, NULL, log,
			       sizeof(log))) TH_LOG("load: %s", log);
	EXPECT_EQ(0, write_text(PARAM_MODELS, old));
	free(old);
	EXPECT_EQ(0, nsim_unload(self->fd, id));
	SNAP_TAKE(&after);
	EXPECT_SNAP_EQ(before, after, "after a good load and its unload");
	munmap(l, page);
}

NSIM_HARNESS_MAIN
