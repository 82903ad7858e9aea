// SPDX-License-Identifier: GPL-2.0
/*
 * nsim_mkplan - write a KBIN plan for the device's generation to a file,
 * for the shell tests (cli_test.sh):
 *
 *   nsim_mkplan FILE            the standard plan (plans.c: every kind,
 *                               two subgraphs)
 *   nsim_mkplan FILE N SIZE     N MR_BUFFERs of SIZE bytes, no payload
 *   nsim_mkplan FILE bad        the standard plan with a wrong magic
 *   nsim_mkplan FILE prog       the standard plan with a program (KBIN
 *                               version 3, Documentation/execute.rst)
 *   nsim_mkplan FILE deadlock   the same, DVE waiting for ever
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plans.h"

int main(int argc, char **argv)
{
	struct neuronsim_info info;
	struct plan p = { 0 };
	FILE *f;
	int fd, err;

	if (argc != 2 && argc != 3 && argc != 4) {
		fprintf(stderr, "usage: nsim_mkplan FILE [N SIZE | bad | prog | deadlock]\n");
		return 2;
	}
	fd = nsim_open();
	if (fd < 0 || nsim_get_info(fd, &info)) {
		fprintf(stderr, "nsim_mkplan: /dev/neuronsim: %s\n", strerror(errno));
		return 1;
	}
	if (argc == 4)
		err = plan_buffers(&info, strtoul(argv[2], NULL, 0),
				   strtoull(argv[3], NULL, 0), 0, &p);
	else if (argc == 3 && !strcmp(argv[2], "prog"))
		err = plan_std_prog(&info, 2, &p);
	else if (argc == 3 && !strcmp(argv[2], "deadlock"))
		err = plan_std_deadlock(&info, &p);
	else
		err = plan_std(&info, &p);
	if (err) {
		fprintf(stderr, "nsim_mkplan: building the plan: %s\n", strerror(-err));
		return 1;
	}
	if (argc == 3 && !strcmp(argv[2], "bad"))
		((struct kbin_header *)p.buf)->magic ^= 1;
	f = fopen(argv[1], "w");
	if (!f || fwrite(p.buf, 1, p.len, f) != p.len || fclose(f)) {
		fprintf(stderr, "nsim_mkplan: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	plan_free(&p);
	return 0;
}
