// SPDX-License-Identifier: GPL-2.0
/*
 * cc_real_neff.c - every real NEFF in $NEURONSIM_SHARED/cases/neff
 * (default ../shared, relative to the repo top) compiles, the plan
 * checker accepts the plan, and per subgraph the var count, kinds, sizes,
 * alignments, offsets, lists, scratchpad sizes, carve-outs and weight
 * payload bytes equal what def.json and the .npy files say (read here
 * with jansson and a separate .npy header parse), and so does the DMA
 * program: queues, every block and descriptor field by field, and the
 * UDMA piece totals counted here run by run.  Prints the DMA totals.
 * The program section holds each engine's stream as def.json names it,
 * record for record; the host replay (Documentation/execute.rst) runs
 * every subgraph to its end, and shows what its rules need: without the
 * 0xD4's increment exactly the subgraphs with a 0xD4 stop, with +1 per
 * DMA block instead of num_queues some stop.  Prints those counts, the
 * replay's instructions per second and the largest NEFF's replay time.
 * Skipped with a message when the folder is absent.
 */
#include <dirent.h>
#include <jansson.h>
#include <stdint.h>
#include <time.h>

#include "kselftest_harness.h"
#include "cc_testutil.h"
#include "prog_replay.h"

static const char *neff_dir(char *buf, size_t cap)
{
	const char *s = getenv("NEURONSIM_SHARED");

	snprintf(buf, cap, "%s/cases/neff", s && *s ? s : "../shared");
	return buf;
}

static uint32_t expect_type(const char *t)
{
	static const char *const names[] = { "state-buffer", "input", "output",
		"file", "virtual", "dge-table", "tmp-buf", "pointer", "list" };
	static const uint32_t types[] = { KBIN_MR_SB, KBIN_MR_INPUT, KBIN_MR_OUTPUT, KBIN_MR_BUFFER,
		KBIN_MR_VIRTUAL_TMP_BUF, KBIN_MR_PTR_TABLE, KBIN_MR_TMP_BUF, KBIN_MR_PTR, KBIN_MR_LIST };
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(t, names[i]))
			return types[i];
	return KBIN_MR_INVALID;
}

/* .npy payload = bytes after the v1 (u16) or v2/3 (u32) header */
static int64_t npy_payload(const uint8_t *d, size_t len)
{
	size_t hl;

	if (len < 10 || memcmp(d, "\x93NUMPY", 6))
		return (int64_t)len;
	if (d[6] == 1)
		hl = 10 + (d[8] | (d[9] << 8));
	else
		hl = 12 + (d[8] | (d[9] << 8) | (d[10] << 16) | ((size_t)d[11] << 24));
	return (int64_t)len - (int64_t)hl;
}

/* DMA totals over the NEFFs, counted from the JSON here */
struct dma_count {
	uint64_t queues, blocks, descs, m2s, s2m;
};

static unsigned int code_of(const char *s, const char *const *names, unsigned int n)
{
	unsigned int i;

	for (i = 1; i < n; i++)
		if (s && !strcmp(s, names[i]))
			return i;
	return 0;
}

/* UDMA pieces of one JSON side, run by run: each run cut into <= 64 KiB */
static uint64_t json_pieces(json_t *sizes)
{
	uint64_t runs = 1, per = 0, left;
	size_t i;

	for (i = 1; i < json_array_size(sizes); i++)
		runs *= (uint64_t)json_integer_value(json_array_get(sizes, i));
	for (left = (uint64_t)json_integer_value(json_array_get(sizes, 0)); left;
	     left -= left > 65536 ? 65536 : left)
		per++;
	return runs * per;
}

/* one side of a plan descriptor against the JSON descriptor @d */
static void check_side(struct __test_metadata *_metadata, json_t *d,
		       const char *side, json_t *vars,
		       const struct kbin_dma_side *sd, const char *where)
{
	static const char *const dtypes[] = { NULL, "uint8", "int8", "uint16",
		"int16", "float16", "bfloat16", "uint32", "int32", "float32",
		"uint64", "int64", "float64" };
	char k[32];
	json_t *sz, *st;
	size_t i;

	EXPECT_EQ((uint32_t)json_integer_value(json_object_get(json_object_get(vars,
		  json_string_value(json_object_get(d, side))), "var_id")), sd->var_id)
		TH_LOG("%s %s var", where, side);
	snprintf(k, sizeof(k), "%s_dtype", side);
	EXPECT_EQ(code_of(json_string_value(json_object_get(d, k)), dtypes, 13),
		  sd->dtype) TH_LOG("%s %s dtype", where, side);
	snprintf(k, sizeof(k), "%s_off", side);
	EXPECT_EQ((uint64_t)json_integer_value(json_object_get(d, k)), sd->offset)
		TH_LOG("%s %s offset", where, side);
	snprintf(k, sizeof(k), "%s_sizes", side);
	sz = json_object_get(d, k);
	snprintf(k, sizeof(k), "%s_steps", side);
	st = json_object_get(d, k);
	ASSERT_EQ(json_array_size(sz), sd->num_dims) TH_LOG("%s %s dims", where, side);
	for (i = 0; i < json_array_size(sz); i++) {
		EXPECT_EQ((uint32_t)json_integer_value(json_array_get(sz, i)), sd->sizes[i]);
		EXPECT_EQ((uint64_t)json_integer_value(json_array_get(st, i)), sd->steps[i]);
	}
}

/*
 * The DMA program of subgraph @s, read here from def.json and the engine
 * members with jansson, against the plan's DMA section: queues in order
 * with their fields, every block (found by queue and id) with its
 * semaphore, comment and descriptors field by field; counts added to @c.
 */
static void check_dma(struct __test_metadata *_metadata, struct nscc_neff *n,
		      uint32_t s, const struct kbin_view *v, json_t *def,
		      struct dma_count *c)
{
	static const char *const engines[] = { NULL, "pe", "act", "pool", "dve", "sp" };
	static const char *const qtypes[] = { NULL, "in", "data", "dynamic" };
	static const char *const ops[] = { NULL, "copy", "cast" };
	json_t *queues = json_object_get(def, "dma_queue"), *vars = json_object_get(def, "var");
	json_t *byq = json_object(), *q, *mj, *b;
	const char *def_name = n->sgs[s].definition, *qn;
	struct kbin_dma_sg_view dv;
	char path[512], where[256];
	unsigned int e;
	uint32_t k, j, i;
	size_t bi;

	ASSERT_EQ(0, kbin_view_dma_sg(v, s, &dv));
	ASSERT_EQ(json_object_size(queues), dv.num_queues) TH_LOG("%s queues", def_name);
	k = 0;
	json_object_foreach(queues, qn, q) {
		const struct kbin_dma_queue *pq = &dv.queues[k++];
		json_t *set = json_object_get(q, "semaphore_set");
		const uint32_t *sems = kbin_view_semaphores(v, pq);

		EXPECT_STREQ(qn, kbin_view_str(v, pq->name));
		EXPECT_EQ(code_of(json_string_value(json_object_get(q, "type")), qtypes, 4),
			  pq->type);
		EXPECT_EQ(code_of(json_string_value(json_object_get(q, "owner")), engines, 6),
			  pq->owner);
		ASSERT_EQ(json_array_size(set), pq->num_semaphores);
		for (i = 0; i < pq->num_semaphores; i++)
			EXPECT_EQ((uint32_t)json_integer_value(json_array_get(set, i)), sems[i]);
		EXPECT_EQ(!!json_object_get(q, "dynamic_dma"),
			  !!(pq->flags & KBIN_DMA_QF_DYNAMIC));
		json_object_set_new(byq, qn, json_array());
	}
	c->queues += dv.num_queues;
	/* the JSON blocks of each queue, at their id, from every member */
	for (e = 1; e < 6; e++) {
		const char *mn = json_string_value(json_object_get(def, engines[e]));
		const void *d;
		size_t dl;

		if (!mn)
			continue;
		snprintf(path, sizeof(path), "%.*s%s",
			 strrchr(def_name, '/') ? (int)(strrchr(def_name, '/') - def_name + 1) : 0,
			 def_name, mn);
		ASSERT_EQ(0, nscc_neff_member(n, path, &d, &dl, NULL)) TH_LOG("%s", path);
		mj = json_loadb(d, dl, 0, NULL);
		ASSERT_NE(NULL, mj);
		json_array_foreach(json_object_get(mj, "dma"), bi, b) {
			json_t *arr = json_object_get(byq, json_string_value(json_object_get(b, "queue")));
			size_t id = (size_t)json_integer_value(json_object_get(b, "id"));

			ASSERT_NE(NULL, arr);
			while (json_array_size(arr) <= id)
				json_array_append_new(arr, json_null());
			json_array_set(arr, id, b);
		}
		json_decref(mj);
	}
	for (j = 0; j < dv.num_blocks; j++) {
		const struct kbin_dma_block *pb = &dv.blocks[j];
		const char *pq = kbin_view_str(v, dv.queues[pb->queue].name);
		json_t *descs;

		b = json_array_get(json_object_get(byq, pq), pb->id);
		ASSERT_TRUE(json_is_object(b)) TH_LOG("%s queue %s block %u", def_name, pq, pb->id);
		EXPECT_EQ((uint32_t)json_integer_value(json_object_get(b, "semaphore")),
			  pb->semaphore);
		EXPECT_STREQ(json_string_value(json_object_get(b, "#comment")),
			     kbin_view_str(v, pb->comment));
		descs = json_object_get(b, "desc");
		ASSERT_EQ(json_array_size(descs), pb->num_descs);
		for (i = 0; i < pb->num_descs; i++) {
			const struct kbin_dma_desc *pd = &dv.descs[pb->first_desc - dv.first_desc + i];
			json_t *d = json_array_get(descs, i);
			const char *op = json_string_value(json_object_get(d, "op"));

			snprintf(where, sizeof(where), "%s %s #%u desc %u", def_name, pq,
				 pb->id, i);
			EXPECT_EQ(op ? code_of(op, ops, 3) : 3U, pd->op) TH_LOG("%s op", where);
			check_side(_metadata, d, "from", vars, &pd->from, where);
			check_side(_metadata, d, "to", vars, &pd->to, where);
			c->m2s += json_pieces(json_object_get(d, "from_sizes"));
			c->s2m += json_pieces(json_object_get(d, "to_sizes"));
		}
		c->descs += pb->num_descs;
		/* every JSON block is in the plan once */
		json_array_set_new(json_object_get(byq, pq), pb->id, json_null());
	}
	c->blocks += dv.num_blocks;
	json_object_foreach(byq, qn, q) {
		json_array_foreach(q, bi, b)
			EXPECT_TRUE(json_is_null(b)) TH_LOG("%s queue %s block %zu not in the plan",
							     def_name, qn, bi);
	}
	json_decref(byq);
}

/*
 * Subgraph @s's program section against its NEFF: for each engine, the
 * stream def.json's "<engine>_instr" names, record for record.
 */
static void check_prog(struct __test_metadata *_metadata, struct nscc_neff *n,
		       uint32_t s, const struct kbin_view *v, json_t *def)
{
	static const char *const engines[] = { NULL, "pe", "act", "pool", "dve", "sp" };
	const char *def_name = n->sgs[s].definition;
	struct kbin_prog_sg_view pv;
	char key[32], path[512];
	unsigned int e;

	ASSERT_NE(NULL, v->prog) TH_LOG("%s: no program section", def_name);
	ASSERT_EQ(0, kbin_view_prog_sg(v, s, &pv));
	for (e = 1; e < 6; e++) {
		const char *mn;
		const void *d;
		size_t dl;

		snprintf(key, sizeof(key), "%s_instr", engines[e]);
		mn = json_string_value(json_object_get(def, key));
		ASSERT_NE(NULL, mn) TH_LOG("%s: no %s", def_name, key);
		snprintf(path, sizeof(path), "%.*s%s",
			 strrchr(def_name, '/') ? (int)(strrchr(def_name, '/') - def_name + 1) : 0,
			 def_name, mn);
		ASSERT_EQ(0, nscc_neff_member(n, path, &d, &dl, NULL)) TH_LOG("%s", path);
		ASSERT_EQ(dl / KBIN_PROG_RECORD_SIZE, pv.num[e - 1]) TH_LOG("%s", path);
		EXPECT_EQ(0, memcmp(d, pv.records[e - 1], dl)) TH_LOG("%s", path);
	}
}

/* Compare one subgraph of the plan with its def.json; 0 = equal. */
static int check_subgraph(struct __test_metadata *_metadata,
			  struct nscc_neff *n, uint32_t s,
			  const struct kbin_view *v, char *summary, size_t cap,
			  struct dma_count *dc)
{
	const struct kbin_mem_ref_set *set = kbin_view_set(v, s);
	const struct kbin_subgraph *ksg = kbin_view_subgraph(v, s);
	const char *def_name = n->sgs[s].definition, *name;
	uint64_t shared = 0, weights = 0;
	json_t *def, *vars, *o, *rsr;
	const void *d;
	size_t dl;
	char path[512], *slash;

	ASSERT_EQ(0, nscc_neff_member(n, def_name, &d, &dl, NULL));
	def = json_loadb(d, dl, 0, NULL);
	ASSERT_NE(NULL, def);
	vars = json_object_get(def, "var");
	EXPECT_STREQ(n->sgs[s].name, ksg->name);
	EXPECT_EQ(json_object_size(vars), set->nmem);
	json_object_foreach(vars, name, o) {
		json_int_t id = json_integer_value(json_object_get(o, "var_id"));
		const char *type = json_string_value(json_object_get(o, "type"));
		json_t *size = json_object_get(o, "size");
		json_t *align = json_object_get(o, "alignment");
		const struct kbin_mem_ref *r;

		ASSERT_LT(id, (json_int_t)set->nmem);
		r = &set->mem[id];
		EXPECT_STREQ(name, kbin_view_str(v, r->name));
		EXPECT_EQ(expect_type(type), r->mr_type) TH_LOG("%s var %s", def_name, name);
		if (r->mr_type == KBIN_MR_SB) {
			/* the 32 MiB window the DMA descriptors address */
			EXPECT_EQ(0x2000000ULL, r->size);
		} else if (r->mr_type == KBIN_MR_PTR_TABLE) {
			EXPECT_EQ(4 * json_array_size(json_object_get(o, "list")), r->size);
		} else {
			EXPECT_EQ((uint64_t)json_integer_value(size), r->size);
		}
		if (align) {
			EXPECT_EQ((uint64_t)json_integer_value(align), r->alignment);
		} else {
			EXPECT_EQ(r->mr_type == KBIN_MR_SB || r->mr_type == KBIN_MR_PTR_TABLE ? 1ULL : 64ULL,
				  r->alignment);
		}
		if (r->mr_type == KBIN_MR_VIRTUAL_TMP_BUF) {
			uint64_t off = json_integer_value(json_object_get(o, "backing_variable_off"));

			EXPECT_EQ(off, r->virt.offset);
			if (off + r->size > shared)
				shared = off + r->size;
		}
		if (r->mr_type == KBIN_MR_PTR_TABLE) {
			json_t *l = json_object_get(o, "list");
			const uint32_t *kl = kbin_view_list(v, r);
			size_t k;

			ASSERT_EQ(json_array_size(l), r->list.length);
			for (k = 0; k < r->list.length; k++)
				EXPECT_EQ((uint32_t)json_integer_value(json_array_get(l, k)), kl[k]);
		}
		if (r->mr_type == KBIN_MR_BUFFER) {
			const char *fn = json_string_value(json_object_get(o, "file_name"));
			const uint8_t *pd;
			size_t pl;
			int64_t plen;

			snprintf(path, sizeof(path), "%s", def_name);
			slash = strrchr(path, '/');
			snprintf(slash ? slash + 1 : path,
				 sizeof(path) - (slash ? (size_t)(slash + 1 - path) : 0),
				 "%s", fn);
			ASSERT_EQ(0, nscc_neff_member(n, path, (const void **)&pd, &pl, NULL));
			plen = npy_payload(pd, pl);
			EXPECT_EQ((uint64_t)plen, r->size);
			ASSERT_NE(NULL, kbin_view_payload(v, r));
			EXPECT_EQ(0, memcmp(pd + (pl - plen), kbin_view_payload(v, r), plen));
			weights += plen;
		} else {
			EXPECT_EQ(0ULL, r->buffer);
		}
	}
	EXPECT_EQ(shared, set->shared_scratchpad_size);
	EXPECT_EQ(0ULL, set->local_scratchpad_size);
	rsr = json_object_get(def, "runtime_statebuffer_reservation");
	EXPECT_EQ(json_array_size(rsr), ksg->num_carveouts);
	if (json_array_size(rsr)) {
		json_t *e = json_array_get(rsr, 0);

		EXPECT_EQ((uint32_t)json_integer_value(json_object_get(e, "offset")),
			  ksg->carveouts[0].offset);
		EXPECT_EQ((uint32_t)json_integer_value(json_object_get(e, "size")),
			  ksg->carveouts[0].size);
	}
	check_dma(_metadata, n, s, v, def, dc);
	check_prog(_metadata, n, s, v, def);
	snprintf(summary, cap, "%s %u vars shared %llu weights %llu carve-outs %u",
		 ksg->name, set->nmem, (unsigned long long)shared,
		 (unsigned long long)weights, ksg->num_carveouts);
	json_decref(def);
	return 0;
}

/* what the replays of the NEFFs' programs found */
struct prog_count {
	uint32_t sgs, finished, with_d4, stop_without_d4, stop_plus1;
	uint32_t neffs_d4;
	uint64_t instrs;
	double secs, most_secs;
	uint64_t most_instrs;
	char most[400];
};

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* the plan @v of NEFF @nm replayed as it is, without 0xD4, with +1 */
static void replay_neff(struct __test_metadata *_metadata, const char *nm,
			const struct kbin_view *v, size_t klen,
			struct prog_count *pc)
{
	const struct prog_replay_opts no_d4 = { .no_dma_add = 1 };
	const struct prog_replay_opts plus1 = { .block_add = 1 };
	struct prog_replay *r, *r_no_d4, *r_plus1;
	uint32_t s, e, d4 = 0;
	double t0, dt;

	t0 = now_s();
	ASSERT_EQ(0, prog_replay_plan(v, NULL, &r)) TH_LOG("%s", nm);
	dt = now_s() - t0;
	ASSERT_EQ(0, prog_replay_plan(v, &no_d4, &r_no_d4));
	ASSERT_EQ(0, prog_replay_plan(v, &plus1, &r_plus1));
	pc->secs += dt;
	pc->instrs += r->instrs;
	if (klen > (size_t)pc->most_instrs) {
		pc->most_instrs = klen;
		pc->most_secs = dt;
		snprintf(pc->most, sizeof(pc->most), "%.256s (%zu-byte plan, %llu instructions)",
			 nm, klen, (unsigned long long)r->instrs);
	}
	for (s = 0; s < r->nsg; s++) {
		uint64_t n = 0;

		for (e = 0; e < KBIN_PROG_ENGINES; e++)
			n += r->sg[s].eng[e].opcodes[KBIN_PROG_OP_DMA];
		pc->sgs++;
		pc->finished += r->sg[s].finished;
		EXPECT_TRUE(r->sg[s].finished) TH_LOG("%s %s did not finish", nm, r->sg[s].name);
		pc->with_d4 += n > 0;
		d4 += n > 0;
		pc->stop_without_d4 += !r_no_d4->sg[s].finished;
		/* a subgraph stops without 0xD4's increment iff it has one */
		EXPECT_EQ(n > 0, !r_no_d4->sg[s].finished) TH_LOG("%s %s", nm, r->sg[s].name);
		pc->stop_plus1 += !r_plus1->sg[s].finished;
	}
	pc->neffs_d4 += d4 > 0;
	prog_replay_free(r);
	prog_replay_free(r_no_d4);
	prog_replay_free(r_plus1);
}

/*
 * 53 NEFFs under ASan take 15-40 s on the shared 2-core host, more than
 * the harness default of 30 s when other jobs run: a generous timeout.
 */
FIXTURE(real) {
	int unused;
};

FIXTURE_SETUP(real)
{
}

FIXTURE_TEARDOWN(real)
{
}

TEST_F_TIMEOUT(real, every_real_neff_compiles_and_matches_def_json, 300)
{
	char dir[512], path[1024], summary[2][200];
	struct dma_count all = { 0 }, most = { 0 };
	struct prog_count pc = { 0 };
	char most_name[256] = "";
	struct dirent **ents;
	int i, count, done = 0, with_dma = 0;

	count = scandir(neff_dir(dir, sizeof(dir)), &ents, NULL, alphasort);
	if (count < 0)
		SKIP(return, "%s is absent: set NEURONSIM_SHARED to the folder holding cases/neff",
		     dir);
	for (i = 0; i < count; i++) {
		struct nscc_err err = { "" };
		struct kbin_check_result res;
		struct kbin_view v;
		struct nscc_neff *n;
		const char *nm = ents[i]->d_name;
		size_t l = strlen(nm), klen;
		void *kbin;
		uint32_t s;

		if (l < 5 || strcmp(nm + l - 5, ".neff"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, nm);
		ASSERT_EQ(0, nscc_compile_neff(path, &kbin, &klen, &err))
			TH_LOG("%s: %s", nm, err.msg);
		ASSERT_EQ(0U, kbin_check_plan(kbin, klen, &res)) TH_LOG("%s: %s", nm, res.err.msg);
		ASSERT_EQ(0, kbin_read(kbin, klen, &v, &res));
		ASSERT_EQ(0, nscc_neff_open(path, &n, &err));
		EXPECT_EQ(n->target_gen, v.hdr->target_gen);
		ASSERT_EQ(n->num_sgs, v.num_subgraphs);
		summary[1][0] = 0;
		{
			struct dma_count dc = { 0 };

			for (s = 0; s < n->num_sgs && s < 2; s++)
				check_subgraph(_metadata, n, s, &v, summary[s],
					       sizeof(summary[s]), &dc);
			/* the checker counts the plan's pieces as the JSON says */
			EXPECT_EQ(dc.descs, res.dma_descs) TH_LOG("%s", nm);
			EXPECT_EQ(dc.m2s, res.dma_m2s_pieces) TH_LOG("%s", nm);
			EXPECT_EQ(dc.s2m, res.dma_s2m_pieces) TH_LOG("%s", nm);
			all.queues += dc.queues;
			all.blocks += dc.blocks;
			all.descs += dc.descs;
			all.m2s += dc.m2s;
			all.s2m += dc.s2m;
			with_dma += dc.blocks > 0;
			if (dc.m2s > most.m2s) {
				most = dc;
				snprintf(most_name, sizeof(most_name), "%s", nm);
			}
			ksft_print_msg("%s: gen %u, md5 %s: %s%s%s; dma %llu blocks %llu descriptors %llu/%llu pieces, plan %zu bytes\n",
				       nm, n->target_gen,
				       n->hdr.md5_word_reversed ? "word-reversed" : "plain",
				       summary[0], summary[1][0] ? "; " : "", summary[1],
				       (unsigned long long)dc.blocks,
				       (unsigned long long)dc.descs,
				       (unsigned long long)dc.m2s,
				       (unsigned long long)dc.s2m, klen);
		}
		replay_neff(_metadata, nm, &v, klen, &pc);
		fflush(stdout);
		nscc_neff_free(n);
		free(kbin);
		done++;
		free(ents[i]);
		ents[i] = NULL;
	}
	for (i = 0; i < count; i++)
		free(ents[i]);
	free(ents);
	ksft_print_msg("%d real NEFFs compiled and matched\n", done);
	ksft_print_msg("DMA: %d NEFFs with blocks; %llu queues, %llu blocks, %llu descriptors, %llu M2S / %llu S2M UDMA pieces; most: %s with %llu blocks, %llu descriptors, %llu M2S / %llu S2M pieces\n",
		       with_dma, (unsigned long long)all.queues,
		       (unsigned long long)all.blocks, (unsigned long long)all.descs,
		       (unsigned long long)all.m2s, (unsigned long long)all.s2m,
		       most_name, (unsigned long long)most.blocks,
		       (unsigned long long)most.descs, (unsigned long long)most.m2s,
		       (unsigned long long)most.s2m);
	ksft_print_msg("programs: %u subgraphs, %u finished, %llu instructions replayed in %.3f s (%.0f per second, ASan); %u subgraphs of %u NEFFs have 0xD4 and %u stop without its increment; with +1 per DMA block %u of %u stop; largest plan %s replayed in %.3f s\n",
		       pc.sgs, pc.finished, (unsigned long long)pc.instrs, pc.secs,
		       pc.secs > 0 ? (double)pc.instrs / pc.secs : 0.0,
		       pc.with_d4, pc.neffs_d4, pc.stop_without_d4, pc.stop_plus1,
		       pc.sgs, pc.most, pc.most_secs);
	fflush(stdout);
	EXPECT_LT(0, done);
	EXPECT_EQ(pc.sgs, pc.finished);
	/* the rule is num_queues: with +1 per block real programs stop */
	if (pc.instrs)
		EXPECT_LT(0U, pc.stop_plus1);
}

TEST_HARNESS_MAIN
