// SPDX-License-Identifier: GPL-2.0
/*
 * debugfs_test - /sys/kernel/debug/neuronsim: the memrefs table agrees
 * with RESOLVE row by row; the files are root-only; a model's directory
 * goes with it; the hbm file shows the usage categories, per channel and
 * per NeuronCore; every HBM variable is an allocation of its own; pointer
 * tables' runtime form; one scratchpad arena per backing_buf; tmp buffers
 * outside the local scratchpad, and the note on a larger local size.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/klog.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "kbin_writer.h"
#include "plans.h"

FIXTURE(dbg) {
	STD_FIXTURE_FIELDS;
};

FIXTURE_SETUP(dbg)
{
	STD_FIXTURE_LOAD(self);
}

FIXTURE_TEARDOWN(dbg)
{
	STD_FIXTURE_FREE(self);
}

TEST_F(dbg, memrefs_agree_with_resolve)
{
	static const unsigned int nvars[2] = { V0_N, V1_N };
	unsigned int sg, rows;

	for (sg = 0; sg < 2; sg++) {
		char path[128], *t, *line, *save = NULL;

		dbgfs_path(path, sizeof(path), "models/%u/sg%u/memrefs",
			 self->id, sg);
		t = read_file(path, NULL);
		ASSERT_NE(NULL, t) TH_LOG("%s", path);
		line = strtok_r(t, "\n", &save);
		ASSERT_NE(NULL, line);
		EXPECT_EQ(0, strcmp(line, "var_id\tname\tkind\tdtype\tshape\tsize\talignment\tphysical_address\twhere\tmode"));
		rows = 0;
		while ((line = strtok_r(NULL, "\n", &save))) {
			char name[64], kind[32], dtype[32], shape[64], where[64];
			unsigned long long size, align, pa;
			unsigned int var;
			uint64_t a = 0;
			int ret;

			ASSERT_EQ(9, sscanf(line, "%u\t%63s\t%31s\t%31s\t%63s\t%llu\t%llu\t0x%llx\t%63s",
					    &var, name, kind, dtype, shape, &size,
					    &align, &pa, where)) TH_LOG("row: %s", line);
			ret = nsim_resolve(self->fd, self->id, sg, var, 0, 0, &a);
			if (ret == -ENODATA) {
				EXPECT_EQ(~0ULL, pa) TH_LOG("row: %s", line);
			} else {
				EXPECT_EQ(0, ret);
				EXPECT_EQ(a, pa) TH_LOG("row: %s", line);
			}
			EXPECT_EQ(0, strncmp(kind, "MR_", 3));
			rows++;
		}
		EXPECT_EQ(nvars[sg], rows);
		free(t);
	}
}

TEST_F(dbg, memrefs_columns)
{
	char path[128];

	EXPECT_FILE_HAS(dbgfs_path(path, sizeof(path), "models/%u/sg0/memrefs", self->id),
			"\tweight\tMR_BUFFER\tuint8\t[1049,4]\t4196\t65536\t",
			"\talloc+copy\n",
			"\tbias\tMR_BUFFER\tbfloat16\t[500]\t1000\t256\t",
			"\talloc only\n",
			"\tsbuf0\tsbuf window\n",
			"\tscratchpad-local@hbm",
			"\tremote:sg1/1\tremote\n",
			"\t0xffffffffffffffff\t-\tindex list\n");
}

TEST_F(dbg, info_hbm_device_stats)
{
	char path[128], p2[128];
	struct stat sb;

	EXPECT_FILE_HAS(dbgfs_path(path, sizeof(path), "models/%u/info", self->id),
			"subgraphs 2\n", "carveout evtaccel");
	EXPECT_FILE_HAS(dbgfs_path(p2, sizeof(p2), "hbm"),
			"WEIGHT", "SCRATCHPAD_NOT_SHARED", "backing_bytes");
	ASSERT_EQ(0, stat(dbgfs_path(p2, sizeof(p2), "device"), &sb));
	EXPECT_EQ(0400, sb.st_mode & 0777);
	ASSERT_EQ(0, stat(path, &sb));
	EXPECT_EQ(0400, sb.st_mode & 0777);
	ASSERT_EQ(0, stat(dbgfs_path(p2, sizeof(p2), "fail_hbm_alloc_nth"), &sb));
	EXPECT_EQ(0600, sb.st_mode & 0777);
}

/*
 * In debugfs hbm, the "present" bytes of @name ("WEIGHT", "device_mem/
 * constants", or "used" for the section's own line) in the section whose
 * line starts with @section ("core 0 ", "channel 1 "); -1 when absent.
 */
static long long hbm_present(const char *text, const char *section,
			     const char *name)
{
	size_t sl = strlen(section), nl = strlen(name);
	const char *l = text, *p;

	while (l && *l && strncmp(l, section, sl)) {
		l = strchr(l, '\n');
		l = l ? l + 1 : NULL;
	}
	if (!l || !*l)
		return -1;
	if (!strcmp(name, "used")) {
		p = strstr(l, " used ");
		return p ? strtoll(p + 6, NULL, 10) : -1;
	}
	for (l = strchr(l, '\n'); l && l[1] == ' ' && l[2] == ' ';
	     l = strchr(l + 1, '\n')) {
		const char *t = l + 3;

		if (strncmp(t, name, nl) || t[nl] != ' ')
			continue;
		p = strstr(t, " present ");
		return p ? strtoll(p + 9, NULL, 10) : -1;
	}
	return -1;
}

/*
 * Every HBM variable is an allocation of its own (libnrt's
 * dmem_alloc_aligned, Documentation/hardware.rst): it starts at its
 * alignment on a 4 KiB granule no other variable shares.  debugfs hbm
 * charges each NeuronCore exactly the rounded bytes of its variables,
 * scratchpads and UDMA rings, per usage category and per device-memory
 * category.
 */
TEST_F(dbg, hbm_one_allocation_per_variable)
{
	static const struct {
		uint32_t sg, var;
		uint64_t size, align;
	} hv[] = {
		{ 0, V0_WEIGHT, STD_WEIGHT_SIZE, 65536 },
		{ 0, V0_STAGED, STD_STAGED_SIZE, 64 },
		{ 0, V0_BIAS, 1000, 256 }, { 0, V0_TMP, 5000, 4096 },
		{ 0, V0_IN, 2048, 64 }, { 0, V0_OUT, 2048, 64 },
		{ 0, V0_TABLE, 32, 8 }, { 1, V1_W, STD_W1_SIZE, 4096 },
		{ 1, V1_IN, 64, 64 },
	};
	static const struct {
		const char *section, *name;
		long long bytes;
	} want[] = {
		/* core 0: weight 8 KiB, staged and bias 4 KiB each */
		{ "core 0 ", "WEIGHT", 16384 },
		{ "core 0 ", "device_mem/constants", 16384 },
		{ "core 0 ", "IO", 8192 },
		{ "core 0 ", "device_mem/tensors", 8192 },
		/* tmp 8 KiB + the 5 KiB local scratchpad's 8 KiB page */
		{ "core 0 ", "SCRATCHPAD_NOT_SHARED", 16384 },
		{ "core 0 ", "device_mem/nonshared_scratchpad", 16384 },
		{ "core 0 ", "SCRATCHPAD", 4096 },
		{ "core 0 ", "device_mem/model_shared_scratchpad", 4096 },
		{ "core 0 ", "GENERIC", 4096 },
		{ "core 0 ", "device_mem/runtime_memory", 4096 },
		/* qSPIO0's M2S and S2M rings, 4 KiB each (relocation) */
		{ "core 0 ", "DMA_RING", 8192 },
		{ "core 0 ", "device_mem/dma_rings", 8192 },
		{ "core 0 ", "used", 57344 },
		{ "core 1 ", "WEIGHT", 4096 },
		{ "core 1 ", "device_mem/constants", 4096 },
		{ "core 1 ", "IO", 4096 },
		{ "core 1 ", "device_mem/tensors", 4096 },
		{ "core 1 ", "used", 8192 },
	};
	const size_t n = sizeof(hv) / sizeof(hv[0]);
	uint64_t a[sizeof(hv) / sizeof(hv[0])];
	char path[128], *t;
	size_t i, j;

	for (i = 0; i < n; i++) {
		ASSERT_EQ(0, nsim_resolve(self->fd, self->id, hv[i].sg, hv[i].var,
					  0, 0, &a[i]));
		EXPECT_EQ(0, a[i] % 4096) TH_LOG("sg %u var %u at 0x%llx", hv[i].sg,
						 hv[i].var, (unsigned long long)a[i]);
		EXPECT_EQ(0, a[i] % hv[i].align);
	}
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++) {
			uint64_t ei = a[i] + ((hv[i].size + 4095) & ~4095ULL);
			uint64_t ej = a[j] + ((hv[j].size + 4095) & ~4095ULL);

			EXPECT_TRUE(ei <= a[j] || ej <= a[i])
				TH_LOG("sg %u var %u and sg %u var %u share HBM granules",
				       hv[i].sg, hv[i].var, hv[j].sg, hv[j].var);
		}

	/* nothing else is loaded on device 0 while this test runs */
	t = read_file(dbgfs_path(path, sizeof(path), "hbm"), NULL);
	ASSERT_NE(NULL, t);
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		long long got = hbm_present(t, want[i].section, want[i].name);

		if (got != want[i].bytes)
			printf("# hbm: '%s' '%s' is %lld, want %lld\n",
			       want[i].section, want[i].name, got, want[i].bytes);
		EXPECT_EQ(want[i].bytes, got);
	}
	if (!_metadata->passed) {
		char *l, *save = NULL;

		for (l = strtok_r(t, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
			printf("# hbm: %s\n", l);
	}
	free(t);
}

/*
 * MR_PTR_TABLE as libnrt rebuilds it at load: sg<N>/ptr_tables lists each
 * row's var_id, needs_translation bit and address; every row of the
 * standard plan's table names a staged variable, so its bit is set and
 * its address is what RESOLVE gives that variable.  READ_VAR returns the
 * table as staged (the same addresses, little-endian u64), and the
 * table's size is its 32 bytes, not the record's 16.
 */
TEST_F(dbg, ptr_tables_runtime_form)
{
	static const uint32_t listed[] = { V0_WEIGHT, V0_IN, V0_OUT, V0_VLOCAL };
	uint64_t staged[4], a;
	char path[128], *t, *line, *save = NULL;
	uint8_t over[33];
	unsigned int rows = 0;

	t = read_file(dbgfs_path(path, sizeof(path), "models/%u/sg0/ptr_tables",
				 self->id), NULL);
	ASSERT_NE(NULL, t) TH_LOG("%s", path);
	ASSERT_EQ(0, nsim_read_var(self->fd, self->id, 0, V0_TABLE, 0, staged,
				   sizeof(staged)));
	line = strtok_r(t, "\n", &save);
	ASSERT_NE(NULL, line);
	EXPECT_STREQ("var_id\tname\trow\trow_var_id\tneeds_translation\taddr", line);
	while ((line = strtok_r(NULL, "\n", &save))) {
		unsigned int var, row, rvar, bit;
		unsigned long long addr;
		char name[64];

		ASSERT_EQ(6, sscanf(line, "%u\t%63s\t%u\t%u\t%u\t0x%llx", &var,
				    name, &row, &rvar, &bit, &addr)) TH_LOG("row: %s", line);
		ASSERT_GT(4, rows);
		EXPECT_EQ(V0_TABLE, var);
		EXPECT_STREQ("table", name);
		EXPECT_EQ(rows, row);
		EXPECT_EQ(listed[rows], rvar);
		EXPECT_EQ(1, bit) TH_LOG("row: %s", line);
		ASSERT_EQ(0, nsim_resolve(self->fd, self->id, 0, rvar, 0, 0, &a));
		EXPECT_EQ(a, addr) TH_LOG("row: %s", line);
		EXPECT_EQ(a, staged[rows]) TH_LOG("READ_VAR row %u", rows);
		rows++;
	}
	EXPECT_EQ(4, rows);
	free(t);
	/* the table's bytes bound READ_VAR and RESOLVE */
	EXPECT_EQ(-ERANGE, nsim_read_var(self->fd, self->id, 0, V0_TABLE, 0, over,
					 sizeof(over)));
	EXPECT_EQ(0, nsim_resolve(self->fd, self->id, 0, V0_TABLE, 16, 16, &a));
	EXPECT_EQ(-ERANGE, nsim_resolve(self->fd, self->id, 0, V0_TABLE, 16, 17, &a));
	/* sg01 has no table: the header alone */
	t = read_file(dbgfs_path(path, sizeof(path), "models/%u/sg1/ptr_tables",
				 self->id), NULL);
	ASSERT_NE(NULL, t) TH_LOG("%s", path);
	EXPECT_STREQ("var_id\tname\trow\trow_var_id\tneeds_translation\taddr\n", t);
	free(t);
}

/* an MR_VIRTUAL_TMP_BUF @name of @size bytes at @off of @backing */
static int add_virt(struct kbin_writer *w, int sg, uint32_t id,
		    const char *name, uint64_t size, uint64_t off,
		    uint32_t backing)
{
	return TL_ADD(w, .sg = sg, .id = id, .type = KBIN_MR_VIRTUAL_TMP_BUF,
		      .name = name, .size = size, .align = 64, .offset = off,
		      .backing = backing);
}

/*
 * One scratchpad arena per backing_buf (Documentation/hardware.rst,
 * "Scratchpad arenas"): LOCAL per subgraph, SHARED, SHARDED and MAIN one
 * each per load.  Variables at the same offset of different arenas get
 * different addresses; the same arena in two subgraphs is one.  SHARED is
 * sized by the header's shared size, SHARDED and MAIN by their variables
 * (here MAIN reaches past the shared size, which the checker allows), all
 * three charged to SCRATCHPAD (device_mem/model_shared_scratchpad).
 */
TEST(scratchpad_arena_per_backing_buf)
{
	struct neuronsim_model_info mi;
	struct neuronsim_info info;
	struct kbin_writer *w;
	struct plan p = { NULL, 0 };
	uint64_t lo, sh, sd, mn, sd1, mn1;
	char path[128], log[512], *t;
	uint32_t id;
	int fd, e = 0;

	fd = nsim_open();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, nsim_get_info(fd, &info));
	w = kbin_writer_new(info.arch_gen);
	ASSERT_NE(NULL, w);
	e |= kbin_writer_add_subgraph(w, "sg00", 512, 4096, NULL, 0) < 0;
	e |= kbin_writer_add_subgraph(w, "sg01", 0, 0, NULL, 0) < 0;
	e |= add_virt(w, 0, 0, "vlocal", 512, 0, KBIN_BACKING_BUF_LOCAL);
	e |= add_virt(w, 0, 1, "vshared", 512, 0, KBIN_BACKING_BUF_SHARED);
	e |= add_virt(w, 0, 2, "vsharded", 512, 0, KBIN_BACKING_BUF_SHARDED);
	e |= add_virt(w, 0, 3, "vmain", 1024, 8192, KBIN_BACKING_BUF_MAIN);
	e |= add_virt(w, 1, 0, "vsharded1", 512, 1024, KBIN_BACKING_BUF_SHARDED);
	e |= add_virt(w, 1, 1, "vmain1", 64, 0, KBIN_BACKING_BUF_MAIN);
	ASSERT_EQ(0, plan_finish(w, e, &p));
	ASSERT_EQ(0, nsim_load(fd, &p, 0, &id, NULL, log, sizeof(log)))
		TH_LOG("load: %s", log);

	ASSERT_EQ(0, nsim_resolve(fd, id, 0, 0, 0, 0, &lo));
	ASSERT_EQ(0, nsim_resolve(fd, id, 0, 1, 0, 0, &sh));
	ASSERT_EQ(0, nsim_resolve(fd, id, 0, 2, 0, 0, &sd));
	ASSERT_EQ(0, nsim_resolve(fd, id, 0, 3, 0, 0, &mn));
	ASSERT_EQ(0, nsim_resolve(fd, id, 1, 0, 0, 0, &sd1));
	ASSERT_EQ(0, nsim_resolve(fd, id, 1, 1, 0, 0, &mn1));
	TH_LOG("local 0x%llx shared 0x%llx sharded 0x%llx main 0x%llx",
	       (unsigned long long)lo, (unsigned long long)sh,
	       (unsigned long long)sd, (unsigned long long)mn);
	/* offset 0 of four arenas: four page starts */
	EXPECT_NE(lo, sh);
	EXPECT_NE(sh, sd);
	EXPECT_NE(sd, mn - 8192);
	EXPECT_NE(sh, mn - 8192);
	EXPECT_NE(lo, sd);
	EXPECT_EQ(0, sd % 4096);
	EXPECT_EQ(0, (mn - 8192) % 4096);
	/* the load's SHARDED and MAIN arenas serve both subgraphs */
	EXPECT_EQ(sd + 1024, sd1);
	EXPECT_EQ(mn - 8192, mn1);

	memset(&mi, 0, sizeof(mi));
	mi.model_id = id;
	ASSERT_EQ(0, ioctl(fd, NEURONSIM_IOC_MODEL_INFO, &mi));
	/* local 512, shared 4096, sharded 1536 -> 4 KiB each, main 9216 -> 12 KiB */
	EXPECT_EQ(24576, mi.scratchpad_bytes);

	EXPECT_FILE_HAS(dbgfs_path(path, sizeof(path), "models/%u/info", id),
			"\nshared_scratchpad 4096 bytes, 1 pages",
			"\nsharded_scratchpad 1536 bytes, 1 pages",
			"\nmain_scratchpad 9216 bytes, 1 pages");
	EXPECT_FILE_HAS(dbgfs_path(path, sizeof(path), "models/%u/sg1/memrefs", id),
			"\tscratchpad-sharded@hbm", "\tscratchpad-main@hbm");
	/* nothing else is loaded on device 0 while this test runs */
	t = read_file(dbgfs_path(path, sizeof(path), "hbm"), NULL);
	ASSERT_NE(NULL, t);
	EXPECT_EQ(20480, hbm_present(t, "core 0 ", "SCRATCHPAD"));
	EXPECT_EQ(20480, hbm_present(t, "core 0 ", "device_mem/model_shared_scratchpad"));
	EXPECT_EQ(4096, hbm_present(t, "core 0 ", "device_mem/nonshared_scratchpad"));
	free(t);
	EXPECT_EQ(0, nsim_unload(fd, id));
	plan_free(&p);
	close(fd);
}

/* one subgraph: tmp (MR_TMP_BUF, 8 KiB) and vlocal (LOCAL, 1 KiB at 0) */
static int plan_tmp_local(const struct neuronsim_info *info, uint64_t local,
			  struct plan *p)
{
	struct kbin_writer *w = kbin_writer_new(info->arch_gen);
	int e = 0;

	if (!w)
		return -ENOMEM;
	e |= kbin_writer_add_subgraph(w, "sg00", local, 0, NULL, 0) < 0;
	e |= TL_ADD(w, .id = 0, .type = KBIN_MR_TMP_BUF, .name = "tmp",
		    .size = 8192, .align = 4096);
	e |= add_virt(w, 0, 1, "vlocal", 1024, 0, KBIN_BACKING_BUF_LOCAL);
	return plan_finish(w, e, p);
}

/*
 * Tmp buffers are HBM allocations of their own (SCRATCHPAD_NOT_SHARED),
 * outside the local scratchpad, which holds the LOCAL virtual buffers
 * only.  A plan whose local_scratchpad_size is larger than they need (an
 * older compiler counted tmp buffers in it) still loads, as planned, and
 * the kernel log says so; a plan sized exactly gets no such note
 * (Documentation/hardware.rst, "Tmp buffers and the local scratchpad").
 */
TEST(local_scratchpad_above_need_loads_with_a_note)
{
	struct neuronsim_info info;
	struct plan p = { NULL, 0 };
	uint64_t tmp, vl;
	char path[128], log[512], *t;
	uint32_t id;
	int fd;

	fd = nsim_open();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, nsim_get_info(fd, &info));
	ASSERT_EQ(0, plan_tmp_local(&info, 65536, &p));
	klogctl(5, NULL, 0);	/* SYSLOG_ACTION_CLEAR */
	ASSERT_EQ(0, nsim_load(fd, &p, 0, &id, NULL, log, sizeof(log)))
		TH_LOG("load: %s", log);
	EXPECT_TRUE(klog_has("sg 0 (sg00): local_scratchpad_size 65536 is above the 1024 bytes its LOCAL virtual buffers need"));
	ASSERT_EQ(0, nsim_resolve(fd, id, 0, 0, 0, 0, &tmp));
	ASSERT_EQ(0, nsim_resolve(fd, id, 0, 1, 0, 0, &vl));
	/* vlocal is at offset 0: the local scratchpad is [vl, vl + 64 KiB) */
	EXPECT_TRUE(tmp + 8192 <= vl || tmp >= vl + 65536)
		TH_LOG("tmp 0x%llx inside the local scratchpad at 0x%llx",
		       (unsigned long long)tmp, (unsigned long long)vl);
	EXPECT_FILE_HAS(dbgfs_path(path, sizeof(path), "models/%u/sg0/memrefs", id),
			"\ttmp\tMR_TMP_BUF\t", "\thbm0\talloc only\n");
	/* nothing else is loaded on device 0 while this test runs */
	t = read_file(dbgfs_path(path, sizeof(path), "hbm"), NULL);
	ASSERT_NE(NULL, t);
	EXPECT_EQ(65536 + 8192, hbm_present(t, "core 0 ", "SCRATCHPAD_NOT_SHARED"));
	free(t);
	EXPECT_EQ(0, nsim_unload(fd, id));
	plan_free(&p);

	/* sized exactly: no note */
	ASSERT_EQ(0, plan_tmp_local(&info, 1024, &p));
	klogctl(5, NULL, 0);
	ASSERT_EQ(0, nsim_load(fd, &p, 0, &id, NULL, log, sizeof(log)))
		TH_LOG("load: %s", log);
	EXPECT_FALSE(klog_has("local_scratchpad_size 1024 is above"));
	EXPECT_EQ(0, nsim_unload(fd, id));
	plan_free(&p);
	close(fd);
}

TEST_F(dbg, model_dir_goes_with_the_model)
{
	char path[128];
	struct stat sb;

	dbgfs_path(path, sizeof(path), "models/%u", self->id);
	EXPECT_EQ(0, stat(path, &sb));
	EXPECT_EQ(0, nsim_unload(self->fd, self->id));
	EXPECT_NE(0, stat(path, &sb));
}

NSIM_HARNESS_MAIN
