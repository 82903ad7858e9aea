// SPDX-License-Identifier: GPL-2.0
/*
 * run_neff.c - a first libnrt application, written against the libnrt API
 * only (nrt/nrt.h, nrt/nrt_experimental.h) the way the runtime developer
 * guide's first application uses it: read a NEFF file, load it, get its
 * tensor information, allocate input and output tensor sets, write the
 * inputs, execute, read the outputs, unload, close.  It is built with the
 * guide's own command line and nothing changed but the -I/-L paths
 * (Documentation/nrt.rst, "Your libnrt program on neuronsim"):
 *
 *   gcc run_neff.c -o run_neff -lnrt -pthread -I<include dir> -L<lib dir>
 *
 * Usage: run_neff MODEL.neff [IN_DIR [OUT_DIR]]
 *   Input NAME is read from IN_DIR/NAME when that file exists (it must be
 *   the input's size), else filled with a fixed byte pattern; output NAME
 *   is written to OUT_DIR/NAME.  A '/' of a name is '_' in a file name.
 *   Prints one line per tensor and a hash of each output (FNV-1a over its
 *   64-bit words).
 * Exit status: 0, or 1 with the failing call and its NRT_STATUS.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nrt/nrt.h>
#include <nrt/nrt_experimental.h>

#define CHECK(call) do { \
	NRT_STATUS s_ = (call); \
	if (s_ != NRT_SUCCESS) { \
		fprintf(stderr, "run_neff: %s failed: status %d\n", #call, (int)s_); \
		exit(1); \
	} \
} while (0)

static void *read_file(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	void *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
		buf = malloc(n ? n : 1);
		if (buf && fread(buf, 1, n, f) != (size_t)n) {
			free(buf);
			buf = NULL;
		}
		*size = n;
	}
	fclose(f);
	return buf;
}

/* the input pattern: byte n is n * 7 + 3 (mod 256), one 4 KiB page copied */
static void fill(uint8_t *p, size_t len)
{
	uint8_t page[4096];
	size_t n;

	for (n = 0; n < sizeof(page); n++)
		page[n] = (uint8_t)(n * 7 + 3);
	for (n = 0; n < len; n += sizeof(page))
		memcpy(p + n, page, len - n < sizeof(page) ? len - n : sizeof(page));
}

/* FNV-1a over the little-endian 64-bit words of @p (a short tail zero-padded) */
static uint64_t hash(const uint8_t *p, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ULL, w;
	size_t n;

	for (n = 0; n < len; n += 8) {
		w = 0;
		memcpy(&w, p + n, len - n < 8 ? len - n : 8);
		h = (h ^ w) * 0x100000001b3ULL;
	}
	return h;
}

static void file_name(char *out, size_t len, const char *dir, const char *name)
{
	size_t i, n;

	snprintf(out, len, "%s/", dir);
	n = strlen(out);
	for (i = 0; name[i] && n + 1 < len; i++)
		out[n++] = name[i] == '/' ? '_' : name[i];
	out[n] = 0;
}

int main(int argc, char **argv)
{
	nrt_tensor_set_t *inputs = NULL, *outputs = NULL;
	nrt_tensor_info_array_t *info = NULL;
	nrt_tensor_t **tensors;
	nrt_model_t *model = NULL;
	size_t neff_size = 0;
	char path[4096];
	void *neff;
	uint64_t i;

	if (argc < 2 || argc > 4) {
		fprintf(stderr, "usage: run_neff MODEL.neff [IN_DIR [OUT_DIR]]\n");
		return 2;
	}
	neff = read_file(argv[1], &neff_size);
	if (!neff) {
		fprintf(stderr, "run_neff: cannot read %s\n", argv[1]);
		return 1;
	}

	/* load the NEFF on the first free NeuronCores */
	CHECK(nrt_init(NRT_FRAMEWORK_TYPE_NO_FW, "", ""));
	CHECK(nrt_load(neff, neff_size, -1, -1, &model));
	free(neff);

	/* one tensor per input and output, in two sets */
	CHECK(nrt_get_model_tensor_info(model, &info));
	CHECK(nrt_allocate_tensor_set(&inputs));
	CHECK(nrt_allocate_tensor_set(&outputs));
	tensors = calloc(info->tensor_count + 1, sizeof(*tensors));
	if (!tensors)
		return 1;
	for (i = 0; i < info->tensor_count; i++) {
		nrt_tensor_info_t *t = &info->tensor_array[i];
		int input = t->usage == NRT_TENSOR_USAGE_INPUT;

		printf("%s %s %zu bytes dtype %d ndim %u\n", input ? "input" : "output",
		       t->name, t->size, (int)t->dtype, t->ndim);
		CHECK(nrt_tensor_allocate(NRT_TENSOR_PLACEMENT_DEVICE, 0, t->size, t->name,
					  &tensors[i]));
		if (input) {
			void *data = NULL;
			size_t got = 0;

			if (argc > 2) {
				file_name(path, sizeof(path), argv[2], t->name);
				data = read_file(path, &got);
				if (data && got != t->size) {
					fprintf(stderr, "run_neff: %s is %zu bytes, input %s is %zu\n",
						path, got, t->name, t->size);
					return 1;
				}
			}
			if (!data) {
				data = malloc(t->size ? t->size : 1);
				if (!data)
					return 1;
				fill(data, t->size);
			}
			CHECK(nrt_tensor_write(tensors[i], data, 0, t->size));
			free(data);
			CHECK(nrt_add_tensor_to_tensor_set(inputs, t->name, tensors[i]));
		} else {
			CHECK(nrt_add_tensor_to_tensor_set(outputs, t->name, tensors[i]));
		}
	}

	CHECK(nrt_execute(model, inputs, outputs));

	/* read the outputs back */
	for (i = 0; i < info->tensor_count; i++) {
		nrt_tensor_info_t *t = &info->tensor_array[i];
		uint8_t *data;

		if (t->usage != NRT_TENSOR_USAGE_OUTPUT)
			continue;
		data = malloc(t->size ? t->size : 1);
		if (!data)
			return 1;
		CHECK(nrt_tensor_read(tensors[i], data, 0, t->size));
		printf("output %s %zu bytes fnv1a=0x%016llx\n", t->name, t->size,
		       (unsigned long long)hash(data, t->size));
		if (argc > 3) {
			FILE *f;

			file_name(path, sizeof(path), argv[3], t->name);
			f = fopen(path, "wb");
			if (!f || fwrite(data, 1, t->size, f) != t->size || fclose(f)) {
				fprintf(stderr, "run_neff: cannot write %s\n", path);
				return 1;
			}
		}
		free(data);
	}

	for (i = 0; i < info->tensor_count; i++)
		nrt_tensor_free(&tensors[i]);
	free(tensors);
	nrt_destroy_tensor_set(&inputs);
	nrt_destroy_tensor_set(&outputs);
	CHECK(nrt_free_model_tensor_info(info));
	CHECK(nrt_unload(model));
	nrt_close();
	return 0;
}
