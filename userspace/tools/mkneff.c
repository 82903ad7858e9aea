// SPDX-License-Identifier: GPL-2.0
/*
 * mkneff - host helper of make run and make check, on the compiler
 * library and its NEFF writer:
 *
 *   mkneff demo OUT.neff
 *	a small trn2 ("cayman") NEFF with one subgraph, two weights and a
 *	DMA program (two queues, three blocks), written by the project's
 *	own NEFF writer (make run uses it when ../shared is absent)
 *   mkneff prog OUT.neff
 *	the demo NEFF with a program: the five engines' instruction streams
 *	(PE.bin ... named by def.json's pe_instr ...) that trigger its three
 *	DMA blocks and synchronise on semaphores (Documentation/execute.rst)
 *   mkneff bad features|missing-def|missing-weight|corrupt|dma-oob OUT.neff
 *   mkneff bad deadlock|trigger-count OUT.neff
 *	the demo NEFF broken as in the bug-report scenarios 1, 3 and 5 of
 *	Documentation/running.rst (unsupported feature bits, a member named by kelf
 *	or def.json missing, a data region that does not match its MD5), or
 *	with a DMA descriptor one byte past its variable (dma-oob); the
 *	program NEFF whose DVE waits for a value nothing adds (deadlock: it
 *	compiles, its execution cannot finish) or whose SP starts qSPIO0's
 *	first block only (trigger-count: the compiler refuses it)
 *   mkneff payload MODEL.neff SG VAR OUT.bin
 *	the array bytes of a weight ("file" var VAR of subgraph SG), read
 *	from the .npy member that def.json names -- not through the
 *	compiler -- so a script can compare them with what the device holds
 *   mkneff manifest NEFF_DIR OUT_DIR
 *	compile every NEFF_DIR/NAME.neff into OUT_DIR/NAME.kbin and write
 *	OUT_DIR/manifest.tsv for the VM test (selftests/neff_test.c):
 *	  plan	<kbin>	<neff>	<target>	<gen>	<subgraphs>	<vars>
 *	  dma	<descriptors>
 *	  q	<sg>	<queue>	<name>	<blocks>	<descriptors>	<m2s>	<s2m>
 *	  w	<sg>	<var_id>	<bytes>	<crc32>	<name>
 *	  fail	<neff>	<message>
 *	One "plan" line per NEFF, its "dma" line (the descriptors of the
 *	engine members' "dma" blocks, counted from the JSON here), one "q"
 *	line per DMA queue of the plan the compiler wrote (its blocks,
 *	descriptors and M2S and S2M UDMA descriptors, which the kernel's
 *	relocation must match), then one "w" line per weight: the
 *	CRC-32 (zlib) of its .npy array bytes, again read from the archive
 *	with def.json, independently of the compiler.  A NEFF that does not
 *	compile gets a "fail" line and the exit status is 1.
 *
 * Errors go to stderr as "mkneff: FILE: MESSAGE"; exit status 1 (2 for
 * usage).
 */
#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#include "kbin_dma.h"
#include "kbin_reader.h"
#include "kbin_writer.h"
#include "neuronsim_cc.h"

static int fail(const char *file, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fail(const char *file, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "mkneff: %s: ", file);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 1;
}

/* ------------------------------------------------------------------ */
/* The demo NEFF                                                        */
/* ------------------------------------------------------------------ */

#define DEMO_NEFF_JSON \
	"{\"nodes\": [{\"op\": \"null\", \"name\": \"x\"}," \
	" {\"op\": \"tvm_op\", \"name\": \"sg_coreV10\"," \
	"  \"attrs\": {\"func_name\": \"__kelf\", \"kelf\": \"kelf-0.json\"}}]}"

#define DEMO_KELF \
	"{\"graphs\": [{\"definition\": \"sg00/def.json\", \"name\": \"sg00\"}]," \
	" \"version\": \"0.5\", \"target\": \"cayman\"}"

/* trn2 shape of a small matmul: x[64,32] @ w[32,32] + b[32] -> out */
#define DEMO_DEF \
	"{\"var\": {" \
	"\"SB\": {\"type\": \"state-buffer\", \"var_id\": 0}," \
	"\"x\": {\"type\": \"input\", \"var_id\": 1, \"size\": 8192}," \
	"\"w\": {\"type\": \"file\", \"var_id\": 2, \"size\": 4096," \
	" \"alignment\": 16384, \"file_name\": \"value_w.npy\"}," \
	"\"b\": {\"type\": \"file\", \"var_id\": 3, \"size\": 128," \
	" \"alignment\": 16384, \"file_name\": \"value_b.npy\"}," \
	"\"out\": {\"type\": \"output\", \"var_id\": 4, \"size\": 8192}," \
	"\"acc\": {\"type\": \"virtual\", \"var_id\": 5, \"size\": 4096," \
	" \"backing_variable_off\": 0}," \
	"\"DGETable0\": {\"type\": \"dge-table\", \"var_id\": 6," \
	" \"list\": [1, 2, 3, 4]}}," \
	" \"runtime_statebuffer_reservation\": [{\"type\": \"evtaccel\"," \
	" \"offset\": 229368, \"size\": 8, \"base_partition\": 0," \
	" \"partitions\": 128}]," \
	" \"dma_queue\": {" \
	"\"qSPIO0\": {\"type\": \"in\", \"owner\": \"sp\", \"num_queues\": 2," \
	" \"semaphore_set\": [24, 25], \"fabric_path\": \"main\"}," \
	" \"qPoolIO0\": {\"type\": \"in\", \"owner\": \"pool\", \"num_queues\": 1," \
	" \"semaphore_set\": [40], \"fabric_path\": \"main\"}}," \
	" \"sp\": \"SP.json\", \"pool\": \"Pool.json\"}"

/*
 * The DMA program (Documentation/relocation.rst): SP loads the 64 rows of
 * x and the 32 rows of w (128 bytes each) into SBUF partitions, one row
 * per partition (stride 262144); Pool stores x's partitions to out.
 */
#define DEMO_SP \
	"{\"name\": \"sp\", \"dma\": [" \
	"{\"#comment\": \"load-x\", \"id\": 0, \"queue\": \"qSPIO0\", \"semaphore\": 24," \
	" \"desc\": [{\"op\": \"copy\", \"from\": \"x\", \"from_dtype\": \"float32\"," \
	" \"from_off\": 0, \"from_sizes\": [128, 64], \"from_steps\": [1, 128]," \
	" \"to\": \"SB\", \"to_dtype\": \"float32\", \"to_off\": 0," \
	" \"to_sizes\": [128, 64], \"to_steps\": [1, 262144]," \
	" \"num_tiling_dimensions\": 1}]}," \
	"{\"#comment\": \"load-w\", \"id\": 1, \"queue\": \"qSPIO0\", \"semaphore\": 25," \
	" \"desc\": [{\"op\": \"copy\", \"from\": \"w\", \"from_dtype\": \"float32\"," \
	" \"from_off\": 0, \"from_sizes\": [128, 32], \"from_steps\": [1, 128]," \
	" \"to\": \"SB\", \"to_dtype\": \"float32\", \"to_off\": 128," \
	" \"to_sizes\": [128, 32], \"to_steps\": [1, 262144]," \
	" \"num_tiling_dimensions\": 1}]}]}"

#define DEMO_POOL \
	"{\"name\": \"pool\", \"dma\": [" \
	"{\"#comment\": \"store-out\", \"id\": 0, \"queue\": \"qPoolIO0\", \"semaphore\": 40," \
	" \"desc\": [{\"op\": \"copy\", \"from\": \"SB\", \"from_dtype\": \"float32\"," \
	" \"from_off\": 0, \"from_sizes\": [128, 64], \"from_steps\": [1, 262144]," \
	" \"to\": \"out\", \"to_dtype\": \"float32\", \"to_off\": 0," \
	" \"to_sizes\": [128, 64], \"to_steps\": [1, 128]," \
	" \"num_tiling_dimensions\": 1}]}]}"

#define DEMO_TMAP \
	"{\"x\": {\"dtype\": \"float32\", \"tf_shape\": [64, 32]}," \
	" \"w\": {\"dtype\": \"float32\", \"tf_shape\": [32, 32]}," \
	" \"b\": {\"dtype\": \"float32\", \"tf_shape\": [32]}," \
	" \"out\": {\"dtype\": \"float32\", \"tf_shape\": [64, 32]}}"

static struct nscc_neff_writer *demo_writer(void)
{
	struct nscc_neff_writer *w = nscc_neff_writer_new();
	uint64_t wshape[2] = { 32, 32 }, bshape[1] = { 32 };
	float wv[32 * 32], bv[32];
	int i;

	if (!w)
		return NULL;
	/* an identity-ish matrix with a ramp, and a bias 0.25 * i */
	for (i = 0; i < 32 * 32; i++)
		wv[i] = (i / 32 == i % 32) ? 1.0f : (float)(i % 7) * 0.125f;
	for (i = 0; i < 32; i++)
		bv[i] = (float)i * 0.25f;
	if (nscc_neff_writer_add_str(w, "neff.json", DEMO_NEFF_JSON) ||
	    nscc_neff_writer_add_str(w, "kelf-0.json", DEMO_KELF) ||
	    nscc_neff_writer_add_str(w, "sg00/def.json", DEMO_DEF) ||
	    nscc_neff_writer_add_str(w, "sg00/tensor_map.json", DEMO_TMAP) ||
	    nscc_neff_writer_add_str(w, "sg00/SP.json", DEMO_SP) ||
	    nscc_neff_writer_add_str(w, "sg00/Pool.json", DEMO_POOL) ||
	    nscc_neff_writer_add_npy(w, "sg00/value_w.npy", 1, "<f4", wshape, 2,
				     wv, sizeof(wv)) ||
	    nscc_neff_writer_add_npy(w, "sg00/value_b.npy", 1, "<f4", bshape, 1,
				     bv, sizeof(bv))) {
		nscc_neff_writer_free(w);
		return NULL;
	}
	return w;
}

static int add_edited(struct nscc_neff_writer *w, const char *name,
		      const char *text, const char *find, const char *repl);

/*
 * The demo's program (Documentation/execute.rst): SP starts qSPIO0's two
 * loads; PE waits for x (semaphore 24 reaches 2, the queue's num_queues)
 * and for SP's word that w is in (semaphore 1), computes, tells ACT
 * (2); ACT adds the bias, tells POOL (3); POOL stores out and, once the
 * store is done (40), tells DVE (4).  @bad: "deadlock" makes DVE wait
 * for 4 >= 2, "trigger-count" drops SP's second trigger.
 */
struct demo_instr {
	uint32_t engine;
	uint8_t opcode;
	int wait_sem;
	uint32_t wait_value;
	int update_sem;
	const char *queue;
};

static const struct demo_instr demo_prog[] = {
	{ KBIN_DMA_ENGINE_SP, 0xc1, -1, 0, -1, "qSPIO0" },
	{ KBIN_DMA_ENGINE_SP, 0xc1, -1, 0, -1, "qSPIO0" },
	{ KBIN_DMA_ENGINE_SP, 0xa0, 25, 2, 1, NULL },
	{ KBIN_DMA_ENGINE_PE, 0xa0, 24, 2, -1, NULL },
	{ KBIN_DMA_ENGINE_PE, 0xa0, 1, 1, -1, NULL },
	{ KBIN_DMA_ENGINE_PE, 0x01, -1, 0, -1, NULL },
	{ KBIN_DMA_ENGINE_PE, 0x02, -1, 0, 2, NULL },
	{ KBIN_DMA_ENGINE_ACT, 0x21, 2, 1, 3, NULL },
	{ KBIN_DMA_ENGINE_POOL, 0xa0, 3, 1, -1, NULL },
	{ KBIN_DMA_ENGINE_POOL, 0xc1, -1, 0, -1, "qPoolIO0" },
	{ KBIN_DMA_ENGINE_POOL, 0xa0, 40, 1, 4, NULL },
	{ KBIN_DMA_ENGINE_DVE, 0x41, 4, 1, -1, NULL },
};

/* the member of each engine's stream, as real NEFFs name them */
static const char *const demo_bins[KBIN_DMA_ENGINE_MAX + 1] = {
	NULL, "PE.bin", "Activation.bin", "Pool.bin", "DVE.bin", "SP.bin",
};

static int demo_add_prog(struct nscc_neff_writer *w, const char *bad)
{
	uint8_t recs[8][KBIN_PROG_RECORD_SIZE];
	char name[64], keys[512], repl[sizeof(keys) + 32];
	uint32_t e, i, n;
	size_t o = 0;

	for (e = 1; e <= KBIN_DMA_ENGINE_MAX; e++) {
		for (i = n = 0; i < sizeof(demo_prog) / sizeof(demo_prog[0]); i++) {
			const struct demo_instr *d = &demo_prog[i];
			struct kbin_prog_sync x = { .opcode = d->opcode };

			if (d->engine != e)
				continue;
			if (!strcmp(bad, "trigger-count") && i == 1)
				x.opcode = 0x01;
			if (d->wait_sem >= 0) {
				x.wait_mode = KBIN_PROG_WAIT_GE;
				x.wait_sem = (uint8_t)d->wait_sem;
				x.wait_value = d->wait_value;
				if (!strcmp(bad, "deadlock") && e == KBIN_DMA_ENGINE_DVE)
					x.wait_value = 2;
			}
			if (d->update_sem >= 0) {
				x.update_mode = KBIN_PROG_UPDATE_INC;
				x.update_sem = (uint8_t)d->update_sem;
			}
			kbin_prog_encode(recs[n++], &x,
					 x.opcode == KBIN_PROG_OP_TRIGGER ? d->queue : NULL);
		}
		snprintf(name, sizeof(name), "sg00/%s", demo_bins[e]);
		if (nscc_neff_writer_add(w, name, recs, n * KBIN_PROG_RECORD_SIZE))
			return -ENOMEM;
		o += (size_t)snprintf(keys + o, sizeof(keys) - o, ", \"%s_instr\": \"%s\"",
				      kbin_dma_engine_str(e), demo_bins[e]);
	}
	snprintf(repl, sizeof(repl), "\"sp\": \"SP.json\"%s", keys);
	return add_edited(w, "sg00/def.json", DEMO_DEF, "\"sp\": \"SP.json\"", repl);
}

static int write_neff(struct nscc_neff_writer *w,
		      const struct nscc_neff_opts *o, const char *out,
		      int corrupt)
{
	uint8_t *buf;
	size_t len;
	int ret;

	ret = nscc_neff_writer_finish(w, o, (void **)&buf, &len);
	if (ret)
		return fail(out, "NEFF writer: %s", strerror(-ret));
	if (corrupt)	/* one bit in the middle of the gzip'd tar */
		buf[NSCC_NEFF_HEADER_SIZE + (len - NSCC_NEFF_HEADER_SIZE) / 2] ^= 0x10;
	ret = nscc_write_file(out, buf, len);
	free(buf);
	if (ret)
		return fail(out, "%s", strerror(-ret));
	return 0;
}

static int cmd_demo(const char *out)
{
	struct nscc_neff_opts o = {
		.feature_bits = 0x209c00, .lnc_size = 1, .md5_word_reversed = 1,
		.name = "neuronsim-demo.neff",
	};
	struct nscc_neff_writer *w = demo_writer();
	int ret;

	if (!w)
		return fail(out, "out of memory");
	ret = write_neff(w, &o, out, 0);
	nscc_neff_writer_free(w);
	return ret;
}

/* add member @name: @text with its first @find replaced by @repl */
static int add_edited(struct nscc_neff_writer *w, const char *name,
		      const char *text, const char *find, const char *repl)
{
	const char *at = strstr(text, find);
	char *t;
	int ret;

	if (!at || asprintf(&t, "%.*s%s%s", (int)(at - text), text, repl,
			    at + strlen(find)) < 0)
		return -ENOMEM;
	ret = nscc_neff_writer_add_str(w, name, t);
	free(t);
	return ret;
}

static int cmd_bad(const char *kind, const char *out)
{
	struct nscc_neff_opts o = {
		.feature_bits = 0x209c00, .lnc_size = 1, .md5_word_reversed = 1,
		.name = "neuronsim-bad.neff",
	};
	struct nscc_neff_writer *w = demo_writer();
	int corrupt = 0, ret;

	if (!w)
		return fail(out, "out of memory");
	if (!strcmp(kind, "features")) {
		/* scenario 1: bits 3 and 40 are not ones this runtime knows */
		o.feature_bits |= (1ULL << 40) | (1ULL << 3);
	} else if (!strcmp(kind, "missing-def")) {
		/* scenario 3: kelf names sg00/def.json, the archive lacks it */
		nscc_neff_writer_remove(w, "sg00/def.json");
	} else if (!strcmp(kind, "missing-weight")) {
		/* scenario 3: def.json names value_w.npy, the archive lacks it */
		nscc_neff_writer_remove(w, "sg00/value_w.npy");
	} else if (!strcmp(kind, "corrupt")) {
		/* scenario 5: data region does not match the header MD5 */
		corrupt = 1;
	} else if (!strcmp(kind, "deadlock") || !strcmp(kind, "trigger-count")) {
		if (demo_add_prog(w, kind)) {
			nscc_neff_writer_free(w);
			return fail(out, "out of memory");
		}
	} else if (!strcmp(kind, "dma-oob")) {
		/* the load of x (8192 bytes) starts one byte in: extent 8193 */
		if (add_edited(w, "sg00/SP.json", DEMO_SP, "\"from_off\": 0",
			       "\"from_off\": 1")) {
			nscc_neff_writer_free(w);
			return fail(out, "out of memory");
		}
	} else {
		nscc_neff_writer_free(w);
		fprintf(stderr, "mkneff: unknown kind '%s' (features, missing-def, missing-weight, corrupt, dma-oob, deadlock, trigger-count)\n",
			kind);
		return 2;
	}
	ret = write_neff(w, &o, out, corrupt);
	nscc_neff_writer_free(w);
	return ret;
}

/* ------------------------------------------------------------------ */
/* Weights straight from the archive                                    */
/* ------------------------------------------------------------------ */

/**
 * struct weight - one "file" var of a subgraph, from def.json and its .npy.
 * @var_id, @name: from def.json.
 * @data, @len: the array bytes (owned by the NEFF).
 */
struct weight {
	uint32_t var_id;
	const char *name;
	const uint8_t *data;
	size_t len;
};

static int weight_cmp(const void *a, const void *b)
{
	const struct weight *x = a, *y = b;

	return x->var_id < y->var_id ? -1 : x->var_id > y->var_id;
}

/*
 * The weights of subgraph @s in var_id order (*out malloc'd; names point
 * into *def, which the caller frees with json_decref).
 */
static int sg_weights(struct nscc_neff *n, uint32_t s, json_t **def,
		      struct weight **out, size_t *count, char *msg,
		      size_t cap)
{
	const char *defname = n->sgs[s].definition, *slash, *name;
	struct nscc_err err = { "" };
	struct weight *ws = NULL;
	const void *d;
	size_t dl, k = 0, nv;
	json_t *vars, *o;
	char path[1024];

	*out = NULL;
	*count = 0;
	*def = NULL;
	if (nscc_neff_member(n, defname, &d, &dl, &err)) {
		snprintf(msg, cap, "%s", err.msg);
		return -1;
	}
	*def = json_loadb(d, dl, 0, NULL);
	vars = json_object_get(*def, "var");
	if (!json_is_object(vars)) {
		snprintf(msg, cap, "%s: no 'var' object", defname);
		return -1;
	}
	nv = json_object_size(vars);
	ws = calloc(nv ? nv : 1, sizeof(*ws));
	if (!ws) {
		snprintf(msg, cap, "out of memory");
		return -1;
	}
	slash = strrchr(defname, '/');
	json_object_foreach(vars, name, o) {
		const char *type = json_string_value(json_object_get(o, "type"));
		const char *fn = json_string_value(json_object_get(o, "file_name"));
		const uint8_t *fd;
		size_t fl, off = 0;

		if (!type || strcmp(type, "file"))
			continue;
		if (!fn) {
			snprintf(msg, cap, "%s: var '%s': no file_name", defname, name);
			free(ws);
			return -1;
		}
		snprintf(path, sizeof(path), "%.*s%s",
			 slash ? (int)(slash - defname + 1) : 0, defname, fn);
		if (nscc_neff_member(n, path, (const void **)&fd, &fl, &err)) {
			snprintf(msg, cap, "%s: var '%s': %s", defname, name, err.msg);
			free(ws);
			return -1;
		}
		if (fl >= 6 && !memcmp(fd, "\x93NUMPY", 6) &&
		    nscc_npy_data(fd, fl, &off, NULL, &err)) {
			snprintf(msg, cap, "%s: var '%s': %s", defname, name, err.msg);
			free(ws);
			return -1;
		}
		ws[k].var_id = (uint32_t)json_integer_value(json_object_get(o, "var_id"));
		ws[k].name = name;
		ws[k].data = fd + off;
		ws[k].len = fl - off;
		k++;
	}
	qsort(ws, k, sizeof(*ws), weight_cmp);
	*out = ws;
	*count = k;
	return 0;
}

static int cmd_payload(const char *neff, const char *sg, const char *var,
		       const char *out)
{
	struct nscc_err err = { "" };
	struct weight *ws = NULL;
	struct nscc_neff *n;
	json_t *def = NULL;
	char msg[NSCC_ERR_MAX];
	size_t count, i;
	uint32_t s;
	int ret = 1;

	if (nscc_neff_open(neff, &n, &err))
		return fail(neff, "%s", err.msg);
	for (s = 0; s < n->num_sgs; s++)
		if (!strcmp(n->sgs[s].name, sg))
			break;
	if (s == n->num_sgs) {
		fail(neff, "no subgraph '%s'", sg);
		goto out;
	}
	if (sg_weights(n, s, &def, &ws, &count, msg, sizeof(msg))) {
		fail(neff, "%s", msg);
		goto out;
	}
	for (i = 0; i < count; i++)
		if (!strcmp(ws[i].name, var))
			break;
	if (i == count) {
		fail(neff, "%s: no weight (file var) '%s'", sg, var);
		goto out;
	}
	ret = nscc_write_file(out, ws[i].data, ws[i].len);
	if (ret) {
		fail(out, "%s", strerror(-ret));
		ret = 1;
	}
out:
	free(ws);
	json_decref(def);
	nscc_neff_free(n);
	return ret;
}

/* ------------------------------------------------------------------ */
/* The manifest of make check's NEFF VM test                            */
/* ------------------------------------------------------------------ */

/* descriptors of subgraph @s's engine members, counted from the JSON */
static long long sg_dma_descs(struct nscc_neff *n, uint32_t s)
{
	const char *defname = n->sgs[s].definition, *slash = strrchr(defname, '/');
	long long count = 0;
	json_t *def, *blk;
	const void *d;
	char path[1024];
	size_t dl, i;
	uint32_t k;

	if (nscc_neff_member(n, defname, &d, &dl, NULL))
		return -1;
	def = json_loadb(d, dl, 0, NULL);
	/* the engine members' def.json keys: the DMA engine table's names */
	for (k = 1; def && k <= KBIN_DMA_ENGINE_MAX; k++) {
		const char *mn = json_string_value(json_object_get(def, kbin_dma_engine_str(k)));
		json_t *mj;

		if (!mn)
			continue;
		snprintf(path, sizeof(path), "%.*s%s",
			 slash ? (int)(slash - defname + 1) : 0, defname, mn);
		if (nscc_neff_member(n, path, &d, &dl, NULL)) {
			count = -1;
			break;
		}
		mj = json_loadb(d, dl, 0, NULL);
		json_array_foreach(json_object_get(mj, "dma"), i, blk)
			count += json_array_size(json_object_get(blk, "desc"));
		json_decref(mj);
	}
	json_decref(def);
	return def ? count : -1;
}

/*
 * One "q" line per DMA queue of subgraph @s of the compiler's plan: its
 * blocks, descriptors and UDMA descriptors per side (kbin_dma_pattern()).
 */
static void manifest_queues(const struct kbin_view *v, uint32_t s, FILE *mf)
{
	struct kbin_dma_sg_view dv;
	uint32_t qi, b, d;

	if (kbin_view_dma_sg(v, s, &dv))
		return;
	for (qi = 0; qi < dv.num_queues; qi++) {
		const struct kbin_dma_queue *q = &dv.queues[qi];
		unsigned long long descs = 0, pieces[2] = { 0, 0 };

		for (b = 0; b < q->num_blocks; b++) {
			const struct kbin_dma_block *bl =
				&dv.blocks[q->first_block - dv.first_block + b];

			for (d = 0; d < bl->num_descs; d++) {
				const struct kbin_dma_desc *de =
					&dv.descs[bl->first_desc - dv.first_desc + d];
				struct kbin_dma_pat p;

				if (!kbin_dma_pattern(&de->from, &p))
					pieces[0] += p.pieces;
				if (!kbin_dma_pattern(&de->to, &p))
					pieces[1] += p.pieces;
				descs++;
			}
		}
		fprintf(mf, "q\t%u\t%u\t%s\t%u\t%llu\t%llu\t%llu\n", s, qi,
			kbin_view_str(v, q->name), q->num_blocks, descs,
			pieces[0], pieces[1]);
	}
}

static int is_neff(const struct dirent *e)
{
	size_t l = strlen(e->d_name);

	return l > 5 && !strcmp(e->d_name + l - 5, ".neff");
}

/* Compile one NEFF, write its plan and its manifest lines; 0 = done. */
static int manifest_one(const char *dir, const char *nm, const char *outdir,
			FILE *mf)
{
	char path[2048], kpath[2048], kname[1024], msg[NSCC_ERR_MAX];
	struct nscc_err err = { "" };
	struct kbin_check_result res;
	struct nscc_neff *n = NULL;
	struct kbin_view v;
	void *kbin = NULL;
	size_t klen, count, i;
	uint64_t vars = 0;
	long long descs;
	uint32_t s;
	int ret = -1;

	snprintf(path, sizeof(path), "%s/%s", dir, nm);
	snprintf(kname, sizeof(kname), "%.*s.kbin", (int)(strlen(nm) - 5), nm);
	snprintf(kpath, sizeof(kpath), "%s/%s", outdir, kname);
	if (nscc_compile_neff(path, &kbin, &klen, &err)) {
		snprintf(msg, sizeof(msg), "compile: %s", err.msg);
		goto out;
	}
	if (kbin_read(kbin, klen, &v, &res)) {
		snprintf(msg, sizeof(msg), "plan checker: %.400s", res.err.msg);
		goto out;
	}
	if (nscc_neff_open(path, &n, &err)) {
		snprintf(msg, sizeof(msg), "open: %s", err.msg);
		goto out;
	}
	if (n->num_sgs != v.num_subgraphs) {
		snprintf(msg, sizeof(msg), "kelf has %u subgraphs, the plan %u",
			 n->num_sgs, v.num_subgraphs);
		goto out;
	}
	for (s = 0; s < v.num_subgraphs; s++)
		vars += kbin_view_set(&v, s)->nmem;
	if (nscc_write_file(kpath, kbin, klen)) {
		snprintf(msg, sizeof(msg), "cannot write %.200s", kname);
		goto out;
	}
	fprintf(mf, "plan\t%s\t%s\t%s\t%u\t%u\t%llu\n", kname, nm, n->target,
		v.hdr->target_gen, v.num_subgraphs, (unsigned long long)vars);
	for (s = 0, descs = 0; s < n->num_sgs && descs >= 0; s++) {
		long long k = sg_dma_descs(n, s);

		descs = k < 0 ? -1 : descs + k;
	}
	fprintf(mf, "dma\t%lld\n", descs);
	for (s = 0; s < v.num_subgraphs; s++)
		manifest_queues(&v, s, mf);
	for (s = 0; s < n->num_sgs; s++) {
		struct weight *ws;
		json_t *def;

		if (sg_weights(n, s, &def, &ws, &count, msg, sizeof(msg))) {
			json_decref(def);
			goto out;
		}
		for (i = 0; i < count; i++)
			fprintf(mf, "w\t%u\t%u\t%zu\t0x%08lx\t%s\n", s,
				ws[i].var_id, ws[i].len,
				crc32(crc32(0L, Z_NULL, 0), ws[i].data,
				      (uInt)ws[i].len),
				ws[i].name);
		free(ws);
		json_decref(def);
	}
	ret = 0;
out:
	if (ret) {
		fprintf(mf, "fail\t%s\t%s\n", nm, msg);
		fail(path, "%s", msg);
	}
	nscc_neff_free(n);
	free(kbin);
	return ret;
}

static int cmd_manifest(const char *dir, const char *outdir)
{
	struct dirent **ents;
	char mpath[2048];
	int i, count, bad = 0;
	FILE *mf;

	if (mkdir(outdir, 0755) && errno != EEXIST)
		return fail(outdir, "%s", strerror(errno));
	count = scandir(dir, &ents, is_neff, alphasort);
	if (count < 0)
		return fail(dir, "%s", strerror(errno));
	snprintf(mpath, sizeof(mpath), "%s/manifest.tsv", outdir);
	mf = fopen(mpath, "w");
	for (i = 0; i < count; i++) {
		if (mf)
			bad += !!manifest_one(dir, ents[i]->d_name, outdir, mf);
		free(ents[i]);
	}
	free(ents);
	if (!mf)
		return fail(mpath, "%s", strerror(errno));
	if (fclose(mf))
		return fail(mpath, "%s", strerror(errno));
	printf("mkneff: %d NEFFs compiled into %s (%d failed)\n", count - bad,
	       outdir, bad);
	return bad ? 1 : 0;
}

/* the demo NEFF with its program */
static int cmd_prog(const char *out)
{
	struct nscc_neff_opts o = {
		.feature_bits = 0x209c00, .lnc_size = 1, .md5_word_reversed = 1,
		.name = "neuronsim-prog.neff",
	};
	struct nscc_neff_writer *w = demo_writer();
	int ret;

	if (!w || demo_add_prog(w, "")) {
		nscc_neff_writer_free(w);
		return fail(out, "out of memory");
	}
	ret = write_neff(w, &o, out, 0);
	nscc_neff_writer_free(w);
	return ret;
}

static int usage(void)
{
	fprintf(stderr,
		"usage: mkneff demo OUT.neff\n"
		"       mkneff prog OUT.neff\n"
		"       mkneff bad features|missing-def|missing-weight|corrupt|dma-oob OUT.neff\n"
		"       mkneff bad deadlock|trigger-count OUT.neff\n"
		"       mkneff payload MODEL.neff SG VAR OUT.bin\n"
		"       mkneff manifest NEFF_DIR OUT_DIR\n");
	return 2;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "demo"))
		return cmd_demo(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "prog"))
		return cmd_prog(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "bad"))
		return cmd_bad(argv[2], argv[3]);
	if (argc == 6 && !strcmp(argv[1], "payload"))
		return cmd_payload(argv[2], argv[3], argv[4], argv[5]);
	if (argc == 4 && !strcmp(argv[1], "manifest"))
		return cmd_manifest(argv[2], argv[3]);
	return usage();
}
