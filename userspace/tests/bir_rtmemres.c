// SPDX-License-Identifier: GPL-2.0
/*
 * bir_rtmemres.c - RuntimeMemoryReservation (compiler-passes.rst): the
 * pre-linker contract, the generation gate, both size paths, the
 * recorded location, and the carve-out of the real trn2 NEFFs
 * (runtime_statebuffer_reservation: evtaccel, offset 229368 = 224 KiB - 8,
 * size 8, base partition 0, 128 partitions).
 */
#include "kselftest_harness.h"
#include "bir_test.h"
#include "kbin_reader.h"
#include "nsim_file.h"

static const char *one_fn(const char *arch)
{
	static char buf[512];

	snprintf(buf, sizeof(buf),
		 "{\"arch\": \"%s\", \"functions\": [{\"name\": \"main\", \"allocations\": [{\"Skind\": \"memory_location_set\", \"name\": \"p\", \"memorylocations\": [{\"name\": \"p\", \"type\": \"SB\", \"addr\": 100, \"dims\": [128, 13], \"allocated\": true, \"pinned\": true}]}]}]}",
		 arch);
	return buf;
}

TEST(trn2_matches_real_neff_carveout)
{
	struct bir_module *m = bt_parse(one_fn("trn2"));
	struct nscc_err err = { { 0 } };
	struct bir_opts o = { 0 };
	struct bir_memloc *ml;
	struct nscc_model *model = nscc_model_new(KBIN_TARGET_TRN2);

	ASSERT_NE(NULL, m);
	ASSERT_EQ(0, bir_pass_rtmemres(m, &o, false, &err));
	ml = bir_memloc_find(m->fns[0], "EvalAccelReservedLoc");
	ASSERT_NE(NULL, ml);
	EXPECT_EQ(BIR_MEM_SB, ml->type);
	EXPECT_EQ(229368, ml->addr);
	EXPECT_EQ(224 * 1024 - 8, ml->addr);
	EXPECT_EQ(8, ml->dims[1]);
	EXPECT_EQ(128, ml->dims[0]);
	EXPECT_EQ(0, ml->base);
	EXPECT_TRUE(ml->allocated);
	EXPECT_TRUE(ml->runtime_reserved);
	ASSERT_EQ(1, ml->set->ntid);	/* tensor-id index rebuilt */
	EXPECT_EQ(ml, ml->set->tid_index[0]);
	/* it reaches the plan as the evtaccel carve-out */
	ASSERT_NE(NULL, model);
	ASSERT_EQ(0, bir_lower_model(m, model, &err));
	ASSERT_EQ(1, model->num_sgs);
	ASSERT_EQ(1, model->sgs[0].num_carveouts);
	EXPECT_EQ(0, bt_trn2_evtaccel(&model->sgs[0].carveouts[0]));
	nscc_model_free(model);
	EXPECT_EQ(0, bt_golden(m, "rtmemres.after.json"));
	/* running again adds nothing */
	ASSERT_EQ(0, bir_pass_rtmemres(m, &o, false, &err));
	EXPECT_EQ(NULL, bir_memloc_find(m->fns[0], "EvalAccelReservedLoc.1"));
	bir_module_free(m);
}

/*
 * the generation gate: no reservation before gen 3, the partition's last
 * 8 bytes from it on (trn3, gen 4: 256 KiB partitions)
 */
TEST(gen_gate)
{
	static const struct {
		const char *arch;
		uint64_t addr;		/* 0: no reservation */
	} gens[] = {
		{ "trn1", 0 }, { "inf2", 0 }, { "sunda", 0 },
		{ "trn3", 256 * 1024 - 8 },
	};

	for (size_t k = 0; k < sizeof(gens) / sizeof(gens[0]); k++) {
		struct bir_module *m = bt_parse(one_fn(gens[k].arch));
		const struct bir_memloc *ml;
		struct nscc_err err = { { 0 } };
		struct bir_opts o = { 0 };

		ASSERT_NE(NULL, m);
		EXPECT_EQ(0, bir_pass_rtmemres(m, &o, false, &err));
		ml = bir_memloc_find(m->fns[0], BIR_EVTACCEL_NAME);
		EXPECT_EQ(gens[k].addr, ml ? ml->addr : 0) TH_LOG("%s", gens[k].arch);
		EXPECT_EQ(!gens[k].addr, !ml) TH_LOG("%s", gens[k].arch);
		bir_module_free(m);
	}
}

/* the options a trn2 module's reservation refuses, named */
static const struct {
	struct bir_opts o;
	const char *msg;
} bads[] = {
	{ { .rsv_offset = 229376 },
	  "RuntimeMemoryReservation: config offset 229376 is not below the SBUF partition size 229376" },
	{ { .rsv_path = 3 },
	  "RuntimeMemoryReservation: size path 3 is not 1 (capacity - config offset) or 2 (pinned SB high-water mark)" },
};

TEST(refusals)
{
	for (size_t k = 0; k < sizeof(bads) / sizeof(bads[0]); k++) {
		struct bir_module *m = bt_parse(one_fn("trn2"));

		ASSERT_NE(NULL, m);
		EXPECT_EQ(0, bt_refused_unchanged(m, &bads[k].o, bir_pass_rtmemres,
						  false, -EINVAL, bads[k].msg));
		bir_module_free(m);
	}
}

TEST(path1_config_offset)
{
	struct bir_module *m = bt_parse(one_fn("trn2"));
	struct nscc_err err = { { 0 } };
	struct bir_opts o = { .rsv_offset = 229376 - 64 };

	ASSERT_NE(NULL, m);
	EXPECT_EQ(0, bir_pass_rtmemres(m, &o, false, &err));
	EXPECT_EQ(64, bir_memloc_find(m->fns[0], BIR_EVTACCEL_NAME)->dims[1]);
	bir_module_free(m);
}

TEST(path2_pinned_high_water_mark)
{
	struct bir_module *m = bt_parse(one_fn("trn2"));
	struct nscc_err err = { { 0 } };
	struct bir_opts o = { .rsv_name = "PinnedReservedLoc" };
	struct bir_memloc *ml;

	ASSERT_NE(NULL, m);
	EXPECT_EQ(0, bir_pass_rtmemres(m, &o, false, &err));
	ml = bir_memloc_find(m->fns[0], "PinnedReservedLoc");
	ASSERT_NE(NULL, ml);
	EXPECT_EQ(116, ml->dims[1]);	/* 100 + aligned(13) */
	EXPECT_TRUE(ml->runtime_reserved);
	bir_module_free(m);
}

TEST(aligned_round_up_8)
{
	EXPECT_EQ(0, bir_rtmemres_aligned(0));
	EXPECT_EQ(8, bir_rtmemres_aligned(1));
	EXPECT_EQ(8, bir_rtmemres_aligned(8));
	EXPECT_EQ(16, bir_rtmemres_aligned(9));
	EXPECT_EQ(16, bir_rtmemres_aligned(13));
}

/*
 * the pre-linker contract is reported as the compiler does
 * (reportError, fatal=false): a warning, printed and counted, and the
 * reservation still made in the program function; -Werror makes it an
 * error
 */
TEST(single_function_contract)
{
	const char *j = "{\"arch\": \"trn2\", \"functions\": [{\"name\": \"a\"}, {\"name\": \"b\"}]}";
	struct bir_module *m = bt_parse(j);
	struct nscc_err err = { { 0 } };
	struct bir_stats st = { 0 };
	FILE *w = tmpfile();
	struct bir_opts o = { .warn = w, .warn_prefix = "x: ", .stats = &st };
	char *text;

	ASSERT_NE(NULL, m);
	EXPECT_EQ(0, bir_pass_rtmemres(m, &o, false, &err));
	EXPECT_EQ(1, st.warnings);
	text = bt_slurp(w);
	EXPECT_STREQ("x: warning: this pass should run in pre-linker phase, which should have only one Function per Module (module has 2)\n",
		     text);
	free(text);
	fclose(w);
	EXPECT_NE(NULL, bir_memloc_find(m->fns[0], BIR_EVTACCEL_NAME));
	EXPECT_EQ(NULL, bir_memloc_find(m->fns[1], BIR_EVTACCEL_NAME));
	EXPECT_EQ(88, strlen("this pass should run in pre-linker phase, which should have only one Function per Module"));
	bir_module_free(m);
	m = bt_parse(j);
	ASSERT_NE(NULL, m);
	o = (struct bir_opts){ .werror = true, .stats = &st };
	EXPECT_EQ(-EINVAL, bir_pass_rtmemres(m, &o, false, &err));
	EXPECT_EQ(2, st.warnings);
	EXPECT_STREQ("this pass should run in pre-linker phase, which should have only one Function per Module (module has 2) (a warning; -Werror makes it an error)",
		     err.msg);
	EXPECT_EQ(NULL, bir_memloc_find(m->fns[0], BIR_EVTACCEL_NAME));
	bir_module_free(m);
}

/*
 * every Function counts, a kernel function too (a module holds its NKI
 * kernels until order 41 inlines them); the reservation goes into the
 * program function
 */
TEST(kernel_function_counts)
{
	struct bir_module *m = bt_load("nki_twice.bir.json");
	struct nscc_err err = { { 0 } };
	struct bir_stats st = { 0 };
	struct bir_opts o = { .stats = &st };

	ASSERT_NE(NULL, m);
	EXPECT_EQ(0, bir_pass_rtmemres(m, &o, false, &err));
	EXPECT_EQ(1, st.warnings);
	EXPECT_NE(NULL, bir_memloc_find(bir_function_find(m, "main"), BIR_EVTACCEL_NAME));
	EXPECT_EQ(NULL, bir_memloc_find(bir_function_find(m, "nki_kernel"), BIR_EVTACCEL_NAME));
	bir_module_free(m);
}

/* the size path by switch: 2 with the default name, 1 with another */
TEST(path_switch)
{
	struct bir_module *m = bt_parse(one_fn("trn2"));
	struct nscc_err err = { { 0 } };
	struct bir_opts o = { .rsv_path = 2 };
	struct bir_memloc *ml;

	ASSERT_NE(NULL, m);
	EXPECT_EQ(0, bir_pass_rtmemres(m, &o, false, &err));
	ml = bir_memloc_find(m->fns[0], BIR_EVTACCEL_NAME);
	ASSERT_NE(NULL, ml);
	EXPECT_EQ(0, ml->addr);
	EXPECT_EQ(116, ml->dims[1]);	/* 100 + aligned(13) */
	bir_module_free(m);
	m = bt_parse(one_fn("trn2"));
	ASSERT_NE(NULL, m);
	o = (struct bir_opts){ .rsv_path = 1, .rsv_name = "PinnedReservedLoc" };
	EXPECT_EQ(0, bir_pass_rtmemres(m, &o, false, &err));
	ml = bir_memloc_find(m->fns[0], "PinnedReservedLoc");
	ASSERT_NE(NULL, ml);
	EXPECT_EQ(229368, ml->addr);
	EXPECT_EQ(8, ml->dims[1]);
	bir_module_free(m);
}

/* the switches of neuronsim-cc: --rsv-path, --rsv-offset, --Werror */
TEST(cli_switches)
{
	char path[] = "/tmp/bir_rsvXXXXXX.bir.json", errf[] = "/tmp/bir_rsv_errXXXXXX";
	char *out, *e;
	struct kbin_check_result res;
	struct kbin_view v;
	void *kbin;
	size_t len;
	int fd = mkstemps(path, 9), efd = mkstemp(errf), st = -1;
	FILE *ef;

	ASSERT_LE(0, fd);
	ASSERT_LE(0, efd);
	close(efd);
	ASSERT_EQ((ssize_t)strlen(one_fn("trn2")), write(fd, one_fn("trn2"), strlen(one_fn("trn2"))));
	close(fd);
	out = bt_run_tool(NULL, &st, "passes --rsv-path=2 --dump-after=runtime_memory_reservation '%s'",
			  path);
	if (!out) {
		unlink(path);
		unlink(errf);
		SKIP(return, "%s is not built", NEURONSIM_CC);
	}
	EXPECT_EQ(0, st);
	EXPECT_NE(NULL, strstr(out, "\"name\": \"EvalAccelReservedLoc\",\n"
			       "              \"type\": \"SB\",\n"
			       "              \"addr\": 0,\n"
			       "              \"dims\": [\n"
			       "                128,\n"
			       "                116\n")) TH_LOG("%s", out);
	free(out);
	/* the config offset reaches the plan's carve-out; the warning */
	out = bt_run_tool(errf, &st, "compile --rsv-offset=229312 '%snki_twice.bir.json' -o '%s'",
			  BIR_EXAMPLES, path);
	ASSERT_NE(NULL, out);
	EXPECT_EQ(0, st);
	EXPECT_NE(NULL, strstr(out, " 8 records, 3 DMA queues, 24 blocks, 24 descriptors, 2310 M2S / 2310 S2M UDMA pieces, 72 instructions, 1 warning\n"))
		TH_LOG("%s", out);
	free(out);
	ef = fopen(errf, "r");
	ASSERT_NE(NULL, ef);
	e = bt_slurp(ef);
	fclose(ef);
	EXPECT_NE(NULL, strstr(e, "nki_twice.bir.json: warning: this pass should run in pre-linker phase, which should have only one Function per Module (module has 2)\n"))
		TH_LOG("%s", e);
	free(e);
	ASSERT_EQ(0, nsim_read_file(path, &kbin, &len));
	ASSERT_EQ(0, kbin_read(kbin, len, &v, &res));
	EXPECT_EQ(229312, kbin_view_subgraph(&v, 0)->carveouts[0].offset);
	EXPECT_EQ(64, kbin_view_subgraph(&v, 0)->carveouts[0].size);
	free(kbin);
	/* refused: the warning under --Werror, a size path of neither kind */
	EXPECT_LT(0, bt_tool_status("compile --Werror '%snki_twice.bir.json' -o '%s'",
				    BIR_EXAMPLES, path));
	EXPECT_LT(0, bt_tool_status("compile --rsv-path=3 '%snki_twice.bir.json' -o '%s'",
				    BIR_EXAMPLES, path));
	unlink(path);
	unlink(errf);
}

TEST_HARNESS_MAIN
