// SPDX-License-Identifier: GPL-2.0
/*
 * cc_real_neff.c - every real NEFF in $NEURONSIM_SHARED/cases/neff
 * (default ../shared, relative to the repo top) compiles, the plan
 * checker accepts the plan, and per subgraph the var count, kinds, sizes,
 * alignments, offsets, lists, scratchpad sizes, carve-outs and weight
 * payload bytes equal what def.json and the .npy files say (read here
 * with jansson and a separate .npy header parse).  Skipped with a message
 * when the folder is absent.
 */
#include <dirent.h>
#include <jansson.h>
#include <stdint.h>

#include "kselftest_harness.h"
#include "cc_testutil.h"

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

/* Compare one subgraph of the plan with its def.json; 0 = equal. */
static int check_subgraph(struct __test_metadata *_metadata,
			  struct nscc_neff *n, uint32_t s,
			  const struct kbin_view *v, char *summary, size_t cap)
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
	snprintf(summary, cap, "%s %u vars shared %llu weights %llu carve-outs %u",
		 ksg->name, set->nmem, (unsigned long long)shared,
		 (unsigned long long)weights, ksg->num_carveouts);
	json_decref(def);
	return 0;
}

TEST(every_real_neff_compiles_and_matches_def_json)
{
	char dir[512], path[1024], summary[2][200];
	struct dirent **ents;
	int i, count, done = 0;

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
		ASSERT_EQ(0U, kbin_check_plan(kbin, klen, &res)) TH_LOG("%s: %s", nm, res.msg);
		ASSERT_EQ(0, kbin_read(kbin, klen, &v, &res));
		ASSERT_EQ(0, nscc_neff_open(path, &n, &err));
		EXPECT_EQ(n->target_gen, v.hdr->target_gen);
		ASSERT_EQ(n->num_sgs, v.num_subgraphs);
		summary[1][0] = 0;
		for (s = 0; s < n->num_sgs && s < 2; s++)
			check_subgraph(_metadata, n, s, &v, summary[s], sizeof(summary[s]));
		ksft_print_msg("%s: gen %u, md5 %s: %s%s%s\n", nm, n->target_gen,
			       n->hdr.md5_word_reversed ? "word-reversed" : "plain",
			       summary[0], summary[1][0] ? "; " : "", summary[1]);
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
	fflush(stdout);
	EXPECT_LT(0, done);
}

TEST_HARNESS_MAIN
