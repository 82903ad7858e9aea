// SPDX-License-Identifier: GPL-2.0
/*
 * cc_neff.c - the NEFF reader (Documentation/compiler.rst) on synthetic NEFFs
 * from the library's NEFF writer: both MD5 encodings, the extracted
 * directory form, .npy v1-3, and every refusal, including the bug-report
 * scenarios 1 (unsupported feature bits), 3 (a named member missing) and
 * 5 (data region does not match the header hash) of
 * Documentation/running.rst; on test-made archives, members that are
 * links and decompression bombs.
 */
#include <archive.h>
#include <archive_entry.h>
#include <endian.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <jansson.h>
#include <openssl/evp.h>

#include "kselftest_harness.h"
#include "cc_testutil.h"
#include "kbin_writer.h"
#include "nsim_file.h"

#define GOOD_DEF CC_DEF(CC_SB ", \"x\": {\"type\": \"input\", \"var_id\": 1, \"size\": 64}," \
	" \"w\": {\"type\": \"file\", \"var_id\": 2, \"size\": 64, \"alignment\": 64, \"file_name\": \"w.npy\"}")

static int open_image(struct nscc_neff_writer *w,
		      const struct nscc_neff_opts *o, struct nscc_neff **n,
		      struct nscc_err *err)
{
	void *buf;
	size_t len;
	int ret = nscc_neff_writer_finish(w, o, &buf, &len);

	if (ret)
		return ret;
	ret = nscc_neff_open_mem(buf, len, n, err);
	free(buf);
	return ret;
}

/* the image of @w (case @name) must not open: @want, and the message @msg */
static void expect_open_refused(struct __test_metadata *_metadata,
				const char *name, struct nscc_neff_writer *w,
				int want, const char *msg)
{
	struct nscc_err err = { "" };
	struct nscc_neff *n;

	EXPECT_EQ(want, open_image(w, NULL, &n, &err)) TH_LOG("%s: %s", name, err.msg);
	EXPECT_STREQ(msg, err.msg) TH_LOG("%s", name);
}

TEST(md5_plain_and_word_reversed_both_accepted)
{
	struct nscc_neff_writer *w = cc_writer("sunda", GOOD_DEF, NULL);
	struct nscc_neff_opts o = { .feature_bits = 0xc00, .lnc_size = 2 };
	struct nscc_err err = { "" };
	struct nscc_neff *n;

	ASSERT_NE(NULL, w);
	ASSERT_EQ(0, open_image(w, &o, &n, &err)) TH_LOG("%s", err.msg);
	EXPECT_EQ(0, n->hdr.md5_word_reversed);
	EXPECT_EQ(0xc00ULL, n->hdr.feature_bits);
	EXPECT_EQ(2U, n->hdr.lnc_size);
	EXPECT_EQ(KBIN_TARGET_TRN1, n->target_gen);
	EXPECT_STREQ("kelf-0.json", n->kelf_member);
	ASSERT_EQ(1U, n->num_sgs);
	EXPECT_STREQ("sg00/def.json", n->sgs[0].definition);
	nscc_neff_free(n);
	o.md5_word_reversed = 1;
	ASSERT_EQ(0, open_image(w, &o, &n, &err)) TH_LOG("%s", err.msg);
	EXPECT_EQ(1, n->hdr.md5_word_reversed);
	nscc_neff_free(n);
	nscc_neff_writer_free(w);
}

/* Scenario 5: one flipped data byte -> refused as corrupted, nothing read. */
TEST(scenario5_corrupted_data_region_refused)
{
	struct nscc_neff_writer *w = cc_writer("sunda", GOOD_DEF, NULL);
	struct nscc_err err = { "" };
	struct nscc_neff *n = (void *)1;
	uint8_t *buf;
	size_t len;

	ASSERT_EQ(0, nscc_neff_writer_finish(w, NULL, (void **)&buf, &len));
	buf[NSCC_NEFF_HEADER_SIZE + (len - NSCC_NEFF_HEADER_SIZE) / 2] ^= 0x40;
	EXPECT_EQ(-EBADMSG, nscc_neff_open_mem(buf, len, &n, &err));
	EXPECT_EQ(NULL, n);
	TH_LOG("%s", err.msg);
	EXPECT_EQ(0, strncmp(err.msg, "corrupted NEFF: MD5 of the", 26));
	/* a flipped header hash byte is the same refusal */
	buf[NSCC_NEFF_HEADER_SIZE + (len - NSCC_NEFF_HEADER_SIZE) / 2] ^= 0x40;
	buf[0xac] ^= 1;
	EXPECT_EQ(-EBADMSG, nscc_neff_open_mem(buf, len, &n, &err));
	free(buf);
	nscc_neff_writer_free(w);
}

TEST(short_file_refused)
{
	struct nscc_err err = { "" };
	struct nscc_neff *n;
	uint8_t buf[100] = { 0 };

	EXPECT_EQ(-EBADMSG, nscc_neff_open_mem(buf, sizeof(buf), &n, &err));
	EXPECT_STREQ("corrupted NEFF: 100 bytes, shorter than the 1024-byte header", err.msg);
}

/* Scenario 1: feature bits this version does not support are named. */
TEST(scenario1_unsupported_feature_bits_named)
{
	struct nscc_neff_writer *w = cc_writer("sunda", GOOD_DEF, NULL);
	struct nscc_neff_opts o = { .feature_bits = 0xc00 | (1ULL << 40) | (1ULL << 3) };
	struct nscc_err err = { "" };
	struct nscc_neff *n;

	EXPECT_EQ(-EOPNOTSUPP, open_image(w, &o, &n, &err));
	EXPECT_STREQ("unsupported NEFF feature bits 0x10000000008 (bits 3, 40); this version supports 0x209c00",
		     err.msg);
	o.feature_bits = NSCC_NEFF_FEATURES_SUPPORTED;
	EXPECT_EQ(0, open_image(w, &o, &n, &err)) TH_LOG("%s", err.msg);
	nscc_neff_free(n);
	nscc_neff_writer_free(w);
}

/* The header's data_size must match the data region. */
TEST(data_size_mismatch_refused)
{
	struct nscc_neff_writer *w = cc_writer("sunda", GOOD_DEF, NULL);
	struct nscc_err err = { "" };
	struct nscc_neff *n;
	uint8_t *buf, *big;
	size_t len;

	ASSERT_EQ(0, nscc_neff_writer_finish(w, NULL, (void **)&buf, &len));
	/* a header that claims more data than there is: truncate by 0 but
	 * change the field, then fix the MD5 by re-finishing is not possible;
	 * append bytes and keep the old hash -> MD5 refusal comes first */
	big = calloc(1, len + 16);
	memcpy(big, buf, len);
	EXPECT_EQ(-EBADMSG, nscc_neff_open_mem(big, len + 16, &n, &err));
	EXPECT_EQ(0, strncmp(err.msg, "corrupted NEFF: MD5", 19));
	buf[0x10] ^= 1;	/* data_size is not covered by the MD5 */
	EXPECT_EQ(-EBADMSG, nscc_neff_open_mem(buf, len, &n, &err));
	EXPECT_EQ(0, strncmp(err.msg, "corrupted NEFF: header data_size", 32)) TH_LOG("%s", err.msg);
	free(big);
	free(buf);
	nscc_neff_writer_free(w);
}

/* A data region that matches its hash but is not a gzip'd tar. */
TEST(data_region_not_gzip_refused)
{
	struct nscc_neff_writer *w = nscc_neff_writer_new();
	struct nscc_err err = { "" };
	unsigned int mdlen = 0;
	struct nscc_neff *n;
	uint8_t *buf, md[EVP_MAX_MD_SIZE];
	uint64_t dsz = 4096;
	size_t len, i;

	ASSERT_EQ(0, nscc_neff_writer_finish(w, NULL, (void **)&buf, &len));
	buf = realloc(buf, NSCC_NEFF_HEADER_SIZE + dsz);
	for (i = NSCC_NEFF_HEADER_SIZE; i < NSCC_NEFF_HEADER_SIZE + dsz; i++)
		buf[i] = (uint8_t)(i * 7);
	memcpy(buf + 0x10, &dsz, 8);
	ASSERT_EQ(1, EVP_Digest(buf + NSCC_NEFF_HEADER_SIZE, dsz, md, &mdlen,
				EVP_md5(), NULL));
	memcpy(buf + 0xac, md, 16);
	EXPECT_EQ(-EBADMSG, nscc_neff_open_mem(buf, NSCC_NEFF_HEADER_SIZE + dsz, &n, &err));
	TH_LOG("%s", err.msg);
	EXPECT_EQ(0, strncmp(err.msg, "corrupted NEFF: ", 16));
	free(buf);
	/* an empty archive is a valid tar.gz without neff.json */
	ASSERT_EQ(0, nscc_neff_writer_finish(w, NULL, (void **)&buf, &len));
	EXPECT_EQ(-ENOENT, nscc_neff_open_mem(buf, len, &n, &err));
	EXPECT_STREQ("member 'neff.json' is missing from the NEFF", err.msg);
	free(buf);
	nscc_neff_writer_free(w);
}

/*
 * The good NEFF with @member replaced by @text (NULL: removed) does not
 * open: @code and the message @msg.  A failure names the edit.
 */
static const struct {
	const char *member;
	const char *text;
	int code;
	const char *msg;
} member_refusals[] = {
	/* scenario 3: a member named by kelf (a def.json) is missing */
	{ "sg00/def.json", NULL, -ENOENT,
	  "kelf-0.json: graphs[0] 'sg00': member 'sg00/def.json' is missing from the NEFF" },
	{ "kelf-0.json", NULL, -ENOENT,
	  "neff.json names kelf 'kelf-0.json': member 'kelf-0.json' is missing from the NEFF" },
	{ "neff.json", "{\"nodes\": [{\"op\": \"null\"}]}", -EINVAL,
	  "neff.json: no node has attrs.func_name \"__kelf\"" },
	{ "neff.json", "{\"nodes\": 3}", -EINVAL,
	  "neff.json: field 'nodes' is missing or not an array" },
	{ "kelf-0.json", "{\"target\": \"v3\", \"graphs\": []}", -EINVAL,
	  "kelf-0.json: field 'graphs' must be an array of 1..64 subgraphs" },
};

TEST(member_refusals_named)
{
	size_t i;

	for (i = 0; i < sizeof(member_refusals) / sizeof(member_refusals[0]); i++) {
		const typeof(member_refusals[0]) *r = &member_refusals[i];
		struct nscc_neff_writer *w = cc_writer("sunda", GOOD_DEF, NULL);
		char edit[160];

		snprintf(edit, sizeof(edit), "%s %s%s", r->member,
			 r->text ? "replaced by " : "removed", r->text ? r->text : "");
		ASSERT_NE(NULL, w);
		ASSERT_EQ(0, r->text ? nscc_neff_writer_add_str(w, r->member, r->text) :
				       nscc_neff_writer_remove(w, r->member)) TH_LOG("%s", edit);
		expect_open_refused(_metadata, edit, w, r->code, r->msg);
		nscc_neff_writer_free(w);
	}
}

/* Scenario 3: a weight file named by def.json is missing. */
TEST(scenario3_missing_weight_named)
{
	struct nscc_neff_writer *w = cc_writer("sunda", GOOD_DEF, NULL);
	struct nscc_err err = { "" };
	struct nscc_model *m = NULL;
	struct nscc_neff *n;

	ASSERT_EQ(0, nscc_neff_writer_remove(w, "sg00/w.npy"));
	ASSERT_EQ(0, open_image(w, NULL, &n, &err));
	EXPECT_EQ(-ENOENT, nscc_neff_to_model(n, &m, &err));
	EXPECT_STREQ("sg00: var 'w' (var_id 2): file_name 'w.npy': member 'sg00/w.npy' is missing from the NEFF",
		     err.msg);
	nscc_neff_free(n);
	nscc_neff_writer_free(w);
}

TEST(unknown_target)
{
	struct nscc_neff_writer *w = cc_writer("tonga", GOOD_DEF, NULL);

	expect_open_refused(_metadata, "unknown target", w, -EINVAL,
			    "kelf-0.json: target 'tonga' is not known (sunda/inf2/v2, cayman/v3, mariana/v4)");
	nscc_neff_writer_free(w);
}

TEST(targets_map_to_generations)
{
	EXPECT_EQ(2U, nscc_target_gen("sunda"));
	EXPECT_EQ(2U, nscc_target_gen("v2"));
	EXPECT_EQ(3U, nscc_target_gen("cayman"));
	EXPECT_EQ(3U, nscc_target_gen("v3"));
	EXPECT_EQ(4U, nscc_target_gen("mariana"));
	EXPECT_EQ(4U, nscc_target_gen("v4"));
	EXPECT_EQ(0U, nscc_target_gen("inf1"));
}

TEST(member_name_with_dotdot_refused)
{
	struct nscc_neff_writer *w = cc_writer("sunda", GOOD_DEF, NULL);
	struct nscc_err err = { "" };
	struct nscc_neff *n;
	const void *d;
	size_t l;

	ASSERT_EQ(0, open_image(w, NULL, &n, &err));
	EXPECT_EQ(-EINVAL, nscc_neff_member(n, "sg00/../../etc/passwd", &d, &l, &err));
	EXPECT_EQ(0, nscc_neff_member(n, "./sg00/def.json", &d, &l, &err));
	nscc_neff_free(n);
	nscc_neff_writer_free(w);
}

/* .npy v1, v2 and v3 headers: the payload is the bytes after the header. */
TEST(npy_versions)
{
	struct nscc_neff_writer *w = nscc_neff_writer_new();
	struct nscc_err err = { "" };
	uint64_t shape[2] = { 4, 4 };
	struct nscc_neff *n;
	int ver;

	for (ver = 1; ver <= 3; ver++) {
		char name[32];

		snprintf(name, sizeof(name), "v%d.npy", ver);
		ASSERT_EQ(0, nscc_neff_writer_add_npy(w, name, ver, "<f4", shape, 2,
						      cc_weights(), 64));
	}
	ASSERT_EQ(-EINVAL, nscc_neff_writer_add_npy(w, "v4.npy", 4, "<f4", shape, 2,
						    cc_weights(), 64));
	ASSERT_EQ(0, nscc_neff_writer_add_str(w, "neff.json", CC_NEFF_JSON));
	ASSERT_EQ(0, nscc_neff_writer_add_str(w, "kelf-0.json",
		"{\"target\": \"sunda\", \"graphs\": [{\"name\": \"sg00\", \"definition\": \"v1.npy\"}]}"));
	ASSERT_EQ(0, open_image(w, NULL, &n, &err)) TH_LOG("%s", err.msg);
	for (ver = 1; ver <= 3; ver++) {
		char name[32], descr[16];
		const void *d;
		size_t l, off;

		snprintf(name, sizeof(name), "v%d.npy", ver);
		ASSERT_EQ(0, nscc_neff_member(n, name, &d, &l, &err));
		ASSERT_EQ(0, nscc_npy_data(d, l, &off, descr, &err)) TH_LOG("%s", err.msg);
		EXPECT_EQ(0U, off % 64);
		EXPECT_EQ(64U, l - off);
		EXPECT_STREQ("<f4", descr);
		EXPECT_EQ(0, memcmp((const char *)d + off, cc_weights(), 64));
	}
	nscc_neff_free(n);
	nscc_neff_writer_free(w);
}

TEST(npy_bad_headers)
{
	struct nscc_err err = { "" };
	uint8_t b[64] = "\x93NUMPY\x05\x00";
	size_t off;

	EXPECT_EQ(-EINVAL, nscc_npy_data(b, sizeof(b), &off, NULL, &err));
	EXPECT_STREQ(".npy version 5.0 is not supported (1..3)", err.msg);
	b[6] = 1;
	b[8] = 0xff;
	b[9] = 0x7f;
	EXPECT_EQ(-EINVAL, nscc_npy_data(b, sizeof(b), &off, NULL, &err));
	EXPECT_STREQ(".npy header length 32767 runs past the 64-byte file", err.msg);
	EXPECT_EQ(-EINVAL, nscc_npy_data("abc", 3, &off, NULL, &err));
}

/* A file var whose weights are not .npy takes the raw bytes. */
TEST(raw_weight_file)
{
	struct nscc_neff_writer *w = cc_writer("sunda", CC_DEF(CC_SB
		", \"w\": {\"type\": \"file\", \"var_id\": 1, \"size\": 5, \"file_name\": \"raw.bin\"}"), NULL);
	struct kbin_check_result res;
	struct nscc_err err = { "" };
	struct kbin_view v;
	void *kbin;
	size_t klen;

	ASSERT_EQ(0, nscc_neff_writer_add(w, "sg00/raw.bin", "hello", 5));
	ASSERT_EQ(0, cc_compile_writer(w, &kbin, &klen, &err)) TH_LOG("%s", err.msg);
	ASSERT_EQ(0, kbin_read(kbin, klen, &v, &res));
	EXPECT_EQ(0, memcmp(kbin_view_payload(&v, &kbin_view_set(&v, 0)->mem[1]), "hello", 5));
	free(kbin);
}

/* The same NEFF extracted into a directory compiles to the same plan. */
TEST(extracted_directory_same_plan)
{
	struct nscc_neff_writer *w = cc_writer("sunda", GOOD_DEF, NULL);
	struct nscc_err err = { "" };
	char dir[] = "/tmp/cc_neff_dirXXXXXX";
	void *k1, *k2;
	size_t l1, l2;
	char cmd[128];

	ASSERT_NE(NULL, mkdtemp(dir));
	ASSERT_EQ(0, nscc_neff_writer_write_dir(w, dir));
	ASSERT_EQ(0, cc_compile_writer(w, &k1, &l1, &err)) TH_LOG("%s", err.msg);
	ASSERT_EQ(0, nscc_compile_neff(dir, &k2, &l2, &err)) TH_LOG("%s", err.msg);
	ASSERT_EQ(l1, l2);
	EXPECT_EQ(0, memcmp(k1, k2, l1));
	/* a missing member in the directory form is named too */
	snprintf(cmd, sizeof(cmd), "%s/sg00/w.npy", dir);
	ASSERT_EQ(0, unlink(cmd));
	free(k2);
	EXPECT_EQ(-ENOENT, nscc_compile_neff(dir, &k2, &l2, &err));
	EXPECT_STREQ("sg00: var 'w' (var_id 2): file_name 'w.npy': member 'sg00/w.npy' is missing from the NEFF",
		     err.msg);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	EXPECT_EQ(0, system(cmd));
	free(k1);
}

/* Two kelf graphs with one name would give a plan with two "sg00"s. */
TEST(duplicate_subgraph_name_refused)
{
	struct nscc_neff_writer *w = cc_writer("sunda", GOOD_DEF, NULL);
	struct nscc_err err = { "" };
	void *buf, *k;
	size_t len, kl;

	ASSERT_EQ(0, nscc_neff_writer_add_str(w, "kelf-0.json",
		"{\"target\": \"sunda\", \"graphs\": ["
		"{\"name\": \"sg00\", \"definition\": \"sg00/def.json\"},"
		"{\"name\": \"sg00\", \"definition\": \"sg00/def.json\"}]}"));
	ASSERT_EQ(0, nscc_neff_writer_finish(w, NULL, &buf, &len));
	EXPECT_EQ(-EEXIST, cc_compile_mem(buf, len, &k, &kl, &err));
	EXPECT_STREQ("subgraph name 'sg00' is used twice (subgraphs 0 and 1)", err.msg);
	EXPECT_EQ(NULL, k);
	free(buf);
	ASSERT_EQ(0, nscc_neff_writer_add_str(w, "kelf-0.json",
		"{\"target\": \"sunda\", \"graphs\": ["
		"{\"name\": \"sg\\n00\", \"definition\": \"sg00/def.json\"}]}"));
	ASSERT_EQ(0, nscc_neff_writer_finish(w, NULL, &buf, &len));
	EXPECT_EQ(-EINVAL, cc_compile_mem(buf, len, &k, &kl, &err));
	EXPECT_STREQ("subgraph name 'sg\n00' has control character 0x0a at byte 2", err.msg);
	free(buf);
	nscc_neff_writer_free(w);
}

/* A FIFO (or device) is refused at once instead of blocking in open(). */
TEST(fifo_refused_without_blocking)
{
	struct nscc_neff_writer *w = cc_writer("sunda", GOOD_DEF, NULL);
	char dir[] = "/tmp/cc_neff_fifoXXXXXX";
	struct nscc_err err = { "" };
	char path[128];
	void *k;
	size_t l;

	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/model.neff", dir);
	ASSERT_EQ(0, mkfifo(path, 0600));
	alarm(10);	/* a blocking open() would hang the test */
	EXPECT_EQ(-EINVAL, nscc_compile_neff(path, &k, &l, &err));
	EXPECT_STREQ("not a regular file or a directory", err.msg);
	EXPECT_EQ(-EINVAL, nsim_read_file(path, &k, &l));
	ASSERT_EQ(0, unlink(path));
	/* a FIFO member of an extracted directory */
	ASSERT_EQ(0, nscc_neff_writer_write_dir(w, dir));
	snprintf(path, sizeof(path), "%s/sg00/w.npy", dir);
	ASSERT_EQ(0, unlink(path));
	ASSERT_EQ(0, mkfifo(path, 0600));
	EXPECT_EQ(-EINVAL, nscc_compile_neff(dir, &k, &l, &err));
	EXPECT_STREQ("sg00: var 'w' (var_id 2): file_name 'w.npy': member 'sg00/w.npy' is not a regular file",
		     err.msg);
	alarm(0);
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	EXPECT_EQ(0, system(path));
	nscc_neff_writer_free(w);
}

/*
 * neuronsim-cc dump -j of a plan whose names are not UTF-8 (the checker
 * allows any byte >= 0x20): every record is printed, the odd bytes as
 * "\xNN", instead of jansson dropping the records silently.  NEURONSIM_CC
 * is the release command's path (userspace/cc/build.mk).
 */
TEST(dump_json_keeps_non_utf8_names)
{
	const char *tool = NEURONSIM_CC;
	char path[] = "/tmp/cc_neff_utf8XXXXXX", cmd[8400];
	struct nscc_err err = { "" };
	struct kbin_check_result res;
	const struct kbin_mem_ref_set *set;
	json_t *j, *recs;
	struct kbin_view v;
	json_error_t je;
	void *kbin;
	size_t len;
	FILE *f;
	int fd;

	if (access(tool, X_OK))
		SKIP(return, "%s is not built", tool);
	ASSERT_EQ(0, cc_compile_def("sunda", GOOD_DEF, NULL, &kbin, &len, &err))
		TH_LOG("%s", err.msg);
	ASSERT_EQ(0, kbin_read(kbin, len, &v, &res));
	set = kbin_view_set(&v, 0);
	((uint8_t *)kbin)[set->mem[1].name] = 0xff;	/* "x" -> "\xff" */
	kbin_fix_checksum(kbin, len);
	fd = mkstemp(path);
	ASSERT_LE(0, fd);
	ASSERT_EQ((ssize_t)len, write(fd, kbin, len));
	close(fd);
	snprintf(cmd, sizeof(cmd), "'%s' dump -j '%s'", tool, path);
	f = popen(cmd, "r");
	ASSERT_NE(NULL, f);
	j = json_loadf(f, 0, &je);
	EXPECT_EQ(0, pclose(f));
	unlink(path);
	ASSERT_NE(NULL, j) TH_LOG("%s", je.text);
	recs = json_object_get(json_array_get(json_object_get(j, "subgraphs"), 0),
			       "records");
	ASSERT_EQ(3U, json_array_size(recs));
	EXPECT_STREQ("\\xff", json_string_value(json_object_get(json_array_get(recs, 1),
								 "name")));
	json_decref(j);
	free(kbin);
}

/*
 * Test-made archives: entries the NEFF writer never writes (links,
 * directories) and decompression bombs (members of zeros that libarchive
 * pads in, so the test never holds them).
 */
#define RAW_DEF CC_DEF(CC_SB ", \"w\": {\"type\": \"file\", \"var_id\": 1," \
	" \"size\": 5, \"file_name\": \"w.bin\"}")
#define RAW_KELF "{\"target\": \"sunda\", \"graphs\": [{\"name\": \"sg00\"," \
	" \"definition\": \"sg00/def.json\"}]}"
#define HARD_LINK 1	/* struct tent.type: a hard link, not an AE_IF* type */

/**
 * struct tent - one entry of a test-made tar.
 * @name: its path.
 * @type: AE_IFREG, AE_IFLNK, AE_IFDIR or HARD_LINK.
 * @text: a regular file's bytes (a string), a link's target.
 * @zeros: a regular file of this many zero bytes instead of @text.
 */
struct tent {
	const char *name;
	int type;
	const char *text;
	uint64_t zeros;
};

/* the raw-weight NEFF: every member a regular file */
static const struct tent good_ents[] = {
	{ "neff.json", AE_IFREG, CC_NEFF_JSON, 0 },
	{ "kelf-0.json", AE_IFREG, RAW_KELF, 0 },
	{ "sg00/def.json", AE_IFREG, RAW_DEF, 0 },
	{ "sg00/w.bin", AE_IFREG, "hello", 0 },
};
#define NGOOD (sizeof(good_ents) / sizeof(good_ents[0]))

/* Fill in the header of a NEFF image whose data region is in place. */
static void seal_neff(uint8_t *p, size_t len)
{
	uint64_t v;
	unsigned int mdlen = 0;

	memset(p, 0, NSCC_NEFF_HEADER_SIZE);
	v = htole64(2);
	memcpy(p, &v, 8);
	v = htole64(NSCC_NEFF_HEADER_SIZE);
	memcpy(p + 0x8, &v, 8);
	v = htole64(len - NSCC_NEFF_HEADER_SIZE);
	memcpy(p + 0x10, &v, 8);
	EVP_Digest(p + NSCC_NEFF_HEADER_SIZE, len - NSCC_NEFF_HEADER_SIZE,
		   p + 0xac, &mdlen, EVP_md5(), NULL);
}

/* room for a test-made NEFF: 256 MiB of zeros gzip to about 256 KiB */
#define TAR_NEFF_MAX	(4U << 20)

/*
 * A NEFF image of @n entries (malloc'd); with @cut, the data region is
 * cut to its first @cut bytes before the header is made.  0 or -1.
 */
static int tar_neff(const struct tent *ents, size_t n, size_t cut,
		    uint8_t **out, size_t *len)
{
	uint8_t *p = calloc(1, TAR_NEFF_MAX);
	struct archive *a = archive_write_new();
	size_t i, used = 0;
	int ret = -1;

	if (!p || !a || archive_write_add_filter_gzip(a) != ARCHIVE_OK ||
	    archive_write_set_format_pax_restricted(a) != ARCHIVE_OK ||
	    archive_write_set_bytes_in_last_block(a, 1) != ARCHIVE_OK ||
	    archive_write_open_memory(a, p + NSCC_NEFF_HEADER_SIZE,
				      TAR_NEFF_MAX - NSCC_NEFF_HEADER_SIZE,
				      &used) != ARCHIVE_OK)
		goto out;
	for (i = 0; i < n; i++) {
		struct archive_entry *e = archive_entry_new();
		const struct tent *te = &ents[i];
		size_t tl = te->text ? strlen(te->text) : 0;
		int ok;

		archive_entry_set_pathname(e, te->name);
		archive_entry_set_perm(e, 0644);
		if (te->type == HARD_LINK) {
			archive_entry_set_filetype(e, AE_IFREG);
			archive_entry_set_hardlink(e, te->text);
		} else {
			archive_entry_set_filetype(e, te->type);
		}
		if (te->type == AE_IFLNK)
			archive_entry_set_symlink(e, te->text);
		if (te->type == AE_IFREG)
			archive_entry_set_size(e, te->zeros ? (la_int64_t)te->zeros
						  : (la_int64_t)tl);
		/* zeros: no data written, libarchive pads the entry */
		ok = archive_write_header(a, e) == ARCHIVE_OK &&
		     (te->type != AE_IFREG || te->zeros || !tl ||
		      archive_write_data(a, te->text, tl) == (la_ssize_t)tl);
		archive_entry_free(e);
		if (!ok)
			goto out;
	}
	if (archive_write_close(a) != ARCHIVE_OK)
		goto out;
	if (cut && cut < used)
		used = cut;
	*len = NSCC_NEFF_HEADER_SIZE + used;
	seal_neff(p, *len);
	*out = p;
	p = NULL;
	ret = 0;
out:
	archive_write_free(a);
	free(p);
	return ret;
}

/* good_ents with entry @name replaced by @rep, compiled. */
static int compile_with(const char *name, const struct tent *rep,
			struct nscc_err *err)
{
	struct tent ents[NGOOD];
	uint8_t *buf;
	size_t len, i, kl;
	void *k;
	int ret;

	for (i = 0; i < NGOOD; i++)
		ents[i] = strcmp(good_ents[i].name, name) ? good_ents[i] : *rep;
	if (tar_neff(ents, NGOOD, 0, &buf, &len))
		return -ENOMEM;
	ret = cc_compile_mem(buf, len, &k, &kl, err);
	free(buf);
	if (!ret)
		free(k);
	return ret;
}

/* A member that is a link is refused as one, not reported as missing. */
TEST(link_members_refused_as_links)
{
	/* the member of good_ents replaced by @ent, and the refusal */
	static const struct {
		const char *name;
		struct tent ent;
		const char *msg;
	} links[] = {
		{ "kelf a symlink", { "kelf-0.json", AE_IFLNK, "sg00/def.json", 0 },
		  "member 'kelf-0.json' is a symbolic link; NEFF members must be regular files" },
		{ "kelf a hard link", { "kelf-0.json", HARD_LINK, "neff.json", 0 },
		  "member 'kelf-0.json' is a hard link; NEFF members must be regular files" },
		{ "def.json a symlink", { "sg00/def.json", AE_IFLNK, "../kelf-0.json", 0 },
		  "kelf-0.json: graphs[0] 'sg00': member 'sg00/def.json' is a symbolic link; NEFF members must be regular files" },
		{ "weight a hard link", { "sg00/w.bin", HARD_LINK, "neff.json", 0 },
		  "sg00: var 'w' (var_id 1): file_name 'w.bin': member 'sg00/w.bin' is a hard link; NEFF members must be regular files" },
		{ "weight a directory", { "sg00/w.bin", AE_IFDIR, NULL, 0 },
		  "sg00: var 'w' (var_id 1): file_name 'w.bin': member 'sg00/w.bin' is a directory; NEFF members must be regular files" },
	};
	static const struct tent tmap_sym = { "sg00/tensor_map.json", AE_IFLNK, "def.json", 0 };
	struct nscc_err err = { "" };
	struct tent ents[NGOOD + 1];
	uint8_t *buf;
	size_t len, kl, i;
	void *k;

	ASSERT_EQ(0, compile_with("", NULL, &err)) TH_LOG("%s", err.msg);
	for (i = 0; i < sizeof(links) / sizeof(links[0]); i++) {
		const struct tent *e = &links[i].ent;

		EXPECT_EQ(-EINVAL, compile_with(e->name, e, &err))
			TH_LOG("%s: %s", links[i].name, err.msg);
		EXPECT_STREQ(links[i].msg, err.msg) TH_LOG("%s", links[i].name);
	}
	/* an optional member (tensor_map.json) that is a link is not skipped */
	memcpy(ents, good_ents, sizeof(good_ents));
	ents[NGOOD] = tmap_sym;
	ASSERT_EQ(0, tar_neff(ents, NGOOD + 1, 0, &buf, &len));
	EXPECT_EQ(-EINVAL, cc_compile_mem(buf, len, &k, &kl, &err));
	free(k);
	EXPECT_STREQ("member 'sg00/tensor_map.json' is a symbolic link; NEFF members must be regular files",
		     err.msg);
	free(buf);
}

#define BOMB_LIMIT	(64ULL << 20)
/* what refusing a bomb may take over the limit (Documentation/security.rst) */
#define BOMB_MARGIN	(16ULL << 20)

/*
 * Open @buf in a child process (after setting the limit); the child's
 * errno, message and peak RSS in bytes.
 */
static int open_in_child(const uint8_t *buf, size_t len, char *msg,
			 size_t cap, uint64_t *rss)
{
	struct nscc_err err = { "" };
	struct rusage ru;
	struct nscc_neff *n;
	int fds[2], st = 0, ret = 0;
	ssize_t got;
	pid_t pid;

	if (pipe(fds))
		return -errno;
	pid = fork();
	if (pid == 0) {
		close(fds[0]);
		ret = nscc_neff_open_mem(buf, len, &n, &err);
		if (!ret)
			nscc_neff_free(n);
		if (write(fds[1], &ret, sizeof(ret)) != sizeof(ret) ||
		    write(fds[1], err.msg, strlen(err.msg) + 1) < 0)
			_exit(2);
		_exit(0);
	}
	close(fds[1]);
	got = read(fds[0], &ret, sizeof(ret));
	msg[0] = 0;
	if (got == sizeof(ret)) {
		got = read(fds[0], msg, cap - 1);
		msg[got > 0 ? got : 0] = 0;
	} else {
		ret = 1;	/* the child died */
	}
	close(fds[0]);
	if (wait4(pid, &st, 0, &ru) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
		return 1;
	*rss = (uint64_t)ru.ru_maxrss * 1024;
	return ret;
}

/*
 * The NEFF of @ents (@n of them, its data region cut after @cut bytes
 * when not 0) opened in a child: refused with -EFBIG at member @member,
 * with a peak RSS of at most the limit and the margin over @base.
 */
static void expect_bomb_refused(struct __test_metadata *_metadata,
				const struct tent *ents, size_t n, size_t cut,
				const char *member, uint64_t base)
{
	char msg[NSCC_ERR_MAX], want[NSCC_ERR_MAX];
	uint64_t rss = 0;
	uint8_t *buf;
	size_t len;

	ASSERT_EQ(0, tar_neff(ents, n, cut, &buf, &len));
	EXPECT_EQ(-EFBIG, open_in_child(buf, len, msg, sizeof(msg), &rss))
		TH_LOG("%zu-byte NEFF: %s", len, msg);
	snprintf(want, sizeof(want), "NEFF members hold over %llu bytes (at member '%s')",
		 BOMB_LIMIT, member);
	EXPECT_STREQ(want, msg);
	TH_LOG("%zu-byte NEFF, refused at '%s': peak RSS %llu KiB, baseline %llu KiB",
	       len, member, (unsigned long long)rss >> 10, (unsigned long long)base >> 10);
	EXPECT_GE(base + BOMB_LIMIT + BOMB_MARGIN, rss);
	free(buf);
}

/*
 * Decompression bombs: refused with -EFBIG as soon as the limit would be
 * passed, and the refusal's peak memory is the limit plus a margin at
 * most (measured against a child that opens a small NEFF).  The limit
 * is lowered to 64 MiB for the test with NEURONSIM_CC_MAX_MEMBER_BYTES.
 */
TEST(decompression_bomb_refused_within_bound)
{
	static const struct tent one[] = {	/* one 256 MiB member */
		{ "neff.json", AE_IFREG, CC_NEFF_JSON, 0 },
		{ "sg00/w.bin", AE_IFREG, NULL, 256ULL << 20 },
	};
	static const struct tent many[] = {	/* 40 MiB each: the 2nd is over */
		{ "neff.json", AE_IFREG, CC_NEFF_JSON, 0 },
		{ "sg00/w0.bin", AE_IFREG, NULL, 40ULL << 20 },
		{ "sg00/w1.bin", AE_IFREG, NULL, 40ULL << 20 },
		{ "sg00/w2.bin", AE_IFREG, NULL, 40ULL << 20 },
	};
	char msg[NSCC_ERR_MAX];
	uint64_t base, rss;
	uint8_t *buf;
	size_t len;

	ASSERT_EQ(0, setenv(NSCC_NEFF_MAX_MEMBER_BYTES_ENV, "67108864", 1));
	ASSERT_EQ(BOMB_LIMIT, nscc_neff_member_limit());
	ASSERT_EQ(0, tar_neff(good_ents, NGOOD, 0, &buf, &len));
	ASSERT_EQ(0, open_in_child(buf, len, msg, sizeof(msg), &base)) TH_LOG("%s", msg);
	free(buf);

	expect_bomb_refused(_metadata, one, 2, 0, "sg00/w.bin", base);
	expect_bomb_refused(_metadata, many, 4, 0, "sg00/w1.bin", base);
	/*
	 * Refused from the tar header, before the data is read: the data
	 * region is cut 8 KiB in, so reading the member's data would be
	 * "corrupted NEFF" instead.
	 */
	expect_bomb_refused(_metadata, one, 2, 8192, "sg00/w.bin", base);

	/* a limit that is not a byte count is refused, never ignored */
	ASSERT_EQ(0, tar_neff(good_ents, NGOOD, 0, &buf, &len));
	ASSERT_EQ(0, setenv(NSCC_NEFF_MAX_MEMBER_BYTES_ENV, "64M", 1));
	EXPECT_EQ(-EINVAL, open_in_child(buf, len, msg, sizeof(msg), &rss));
	EXPECT_STREQ("NEURONSIM_CC_MAX_MEMBER_BYTES '64M' is not a byte count 1..1099511627776",
		     msg);
	ASSERT_EQ(0, setenv(NSCC_NEFF_MAX_MEMBER_BYTES_ENV, "0", 1));
	EXPECT_EQ(-EINVAL, open_in_child(buf, len, msg, sizeof(msg), &rss));
	ASSERT_EQ(0, unsetenv(NSCC_NEFF_MAX_MEMBER_BYTES_ENV));
	EXPECT_EQ(NSCC_NEFF_MAX_MEMBER_BYTES, nscc_neff_member_limit());
	free(buf);
}

TEST(missing_file_named)
{
	struct nscc_err err = { "" };
	void *k;
	size_t l;

	EXPECT_EQ(-ENOENT, nscc_compile_neff("/nonexistent/model.neff", &k, &l, &err));
	EXPECT_STREQ("No such file or directory", err.msg);
}

TEST_HARNESS_MAIN
