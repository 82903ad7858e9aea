// SPDX-License-Identifier: GPL-2.0
/*
 * kbin_seedgen.c - write valid KBIN plans as a libFuzzer seed corpus.
 *
 *   kbin_seedgen DIR           full.kbin, small.kbin, n64.kbin into DIR
 *   kbin_seedgen -small FILE   only the small plan (kbin-format.rst dump)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kbin_testplan.h"

static int save(const char *dir, const char *name,
		int (*build)(void **, size_t *))
{
	char path[4096];
	void *buf;
	size_t len;
	FILE *f;
	int err;

	err = build(&buf, &len);
	if (err) {
		fprintf(stderr, "kbin_seedgen: %s: %s\n", name, strerror(-err));
		return 1;
	}
	if (dir)
		snprintf(path, sizeof(path), "%s/%s", dir, name);
	else
		snprintf(path, sizeof(path), "%s", name);
	f = fopen(path, "wb");
	if (!f || fwrite(buf, 1, len, f) != len || fclose(f)) {
		fprintf(stderr, "kbin_seedgen: %s: %s\n", path, strerror(errno));
		free(buf);
		return 1;
	}
	free(buf);
	return 0;
}

static int build_n64(void **buf, size_t *len)
{
	return tp_build_n(64, buf, len);
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "-small"))
		return save(NULL, argv[2], tp_build_small);
	if (argc != 2) {
		fprintf(stderr, "usage: kbin_seedgen DIR | -small FILE\n");
		return 2;
	}
	if (mkdir(argv[1], 0755) && errno != EEXIST) {
		fprintf(stderr, "kbin_seedgen: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	return save(argv[1], "full.kbin", tp_build) |
	       save(argv[1], "small.kbin", tp_build_small) |
	       save(argv[1], "n64.kbin", build_n64);
}
