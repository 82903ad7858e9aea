// SPDX-License-Identifier: GPL-2.0
/*
 * gen_model - write a synthetic NVARS-var model with the NEFF writer
 * (userspace/cc/neuronsim_cc.h), both as a NEFF file and as the
 * extracted directory, for the compiler benchmark.
 *
 *   gen_model NVARS OUT.neff OUTDIR
 *
 * One trn1 subgraph sg00 whose def.json holds NVARS vars, a mix of what
 * neuronx-cc emits: the state buffer, inputs, outputs, tmp-bufs and
 * virtual buffers (with backing offsets), pointers, index lists, and one
 * "file" weight in 64 with a small .npy; tensor_map.json gives dtype and
 * shape to every other var.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "neuronsim_cc.h"

#define NEFF_JSON \
	"{\"nodes\": [{\"op\": \"null\", \"name\": \"x\"}," \
	" {\"op\": \"tvm_op\", \"name\": \"sg_coreV10\"," \
	"  \"attrs\": {\"func_name\": \"__kelf\", \"kelf\": \"kelf-0.json\"}}]}"
#define KELF_JSON \
	"{\"graphs\": [{\"definition\": \"sg00/def.json\", \"name\": \"sg00\"}]," \
	" \"version\": \"0.5\", \"target\": \"sunda\"}"

struct sbuf {
	char *p;
	size_t len, cap;
};

static void put(struct sbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void put(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
		va_end(ap);
		if (n >= 0 && (size_t)n < b->cap - b->len)
			break;
		b->cap = b->cap * 2 + n + 64;
		b->p = realloc(b->p, b->cap);
		if (!b->p) {
			perror("gen_model");
			exit(1);
		}
	}
	b->len += n;
}

int main(int argc, char **argv)
{
	struct nscc_neff_writer *w;
	struct sbuf def = { 0 }, tmap = { 0 };
	float weights[16] = { 0 };
	uint64_t shape[1] = { 16 };
	unsigned long n, i, bytes, nfiles = 0;
	size_t len;
	void *neff;
	char name[64];
	int ret;

	if (argc != 4 || (n = strtoul(argv[1], NULL, 0)) < 16) {
		fprintf(stderr, "usage: gen_model NVARS(>=16) OUT.neff OUTDIR\n");
		return 2;
	}
	w = nscc_neff_writer_new();
	if (!w)
		return 1;
	put(&def, "{\"var\": {\n");
	put(&tmap, "{\n");
	put(&def, "  \"state_buffer\": {\"type\": \"state-buffer\", \"var_id\": 0}");
	for (i = 1; i < n; i++) {
		snprintf(name, sizeof(name), "tensor_%07lu", i);
		put(&def, ",\n  \"%s\": ", name);
		if (i % 64 == 1) {
			put(&def, "{\"type\": \"file\", \"var_id\": %lu, \"size\": 64, \"file_name\": \"w%lu.npy\"}",
			    i, i);
			snprintf(name, sizeof(name), "sg00/w%lu.npy", i);
			weights[0] = (float)i;
			if (nscc_neff_writer_add_npy(w, name, 1, "<f4", shape, 1,
						     weights, sizeof(weights)))
				return 1;
			nfiles++;
			continue;
		}
		bytes = 0;
		switch (i % 8) {
		case 0:
			bytes = 4096;
			put(&def, "{\"type\": \"input\", \"var_id\": %lu, \"size\": 4096}", i);
			break;
		case 1:
			bytes = 4096;
			put(&def, "{\"type\": \"output\", \"var_id\": %lu, \"size\": 4096}", i);
			break;
		case 2:
		case 3:
			bytes = 1024;
			put(&def, "{\"type\": \"tmp-buf\", \"var_id\": %lu, \"size\": 1024, \"backing_variable_off\": %lu}",
			    i, (i % 1024) * 1024);
			break;
		case 4:
			bytes = 512;
			put(&def, "{\"type\": \"virtual\", \"var_id\": %lu, \"size\": 512, \"backing_variable_off\": %lu}",
			    i, (i % 2048) * 512);
			break;
		case 5:
			put(&def, "{\"type\": \"pointer\", \"var_id\": %lu, \"referenced_var_id\": %lu}",
			    i, i - 5);
			break;
		case 6:
			put(&def, "{\"type\": \"list\", \"var_id\": %lu, \"list\": [%lu, %lu, %lu]}",
			    i, i - 6, i - 5, i - 4);
			break;
		default:
			bytes = 2048;
			put(&def, "{\"type\": \"tmp-buf\", \"var_id\": %lu, \"size\": 2048, \"backing_variable_off\": 0}",
			    i);
			break;
		}
		/* dtype and shape of every var with bytes, agreeing with its size */
		if (bytes)
			put(&tmap, "%s  \"%s\": {\"dtype\": \"float32\", \"tf_shape\": [%lu, 4]}",
			    tmap.len > 2 ? ",\n" : "", name, bytes / 16);
	}
	put(&def, "\n}}\n");
	put(&tmap, "\n}\n");
	if (nscc_neff_writer_add_str(w, "neff.json", NEFF_JSON) ||
	    nscc_neff_writer_add_str(w, "kelf-0.json", KELF_JSON) ||
	    nscc_neff_writer_add_str(w, "sg00/def.json", def.p) ||
	    nscc_neff_writer_add_str(w, "sg00/tensor_map.json", tmap.p)) {
		fprintf(stderr, "gen_model: out of memory\n");
		return 1;
	}
	ret = nscc_neff_writer_write_dir(w, argv[3]);
	if (!ret)
		ret = nscc_neff_writer_finish(w, NULL, &neff, &len);
	if (!ret) {
		ret = nscc_write_file(argv[2], neff, len);
		free(neff);
	}
	if (ret) {
		fprintf(stderr, "gen_model: %s\n", strerror(-ret));
		return 1;
	}
	printf("vars %lu\nfiles %lu\ndef_json_bytes %zu\nneff_bytes %zu\n", n,
	       nfiles, def.len, len);
	nscc_neff_writer_free(w);
	free(def.p);
	free(tmap.p);
	return 0;
}
