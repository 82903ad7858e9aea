// SPDX-License-Identifier: GPL-2.0
/*
 * nsim_orphan.c - a helper of consumers.sh: a holder whose process is
 * gone.  It loads PLAN on NeuronCore CORE of device $NSIM_DEV (default
 * 0), forks a child that keeps the file - so the model and its
 * NeuronCores, which stay the loading process's (Documentation/uapi.rst,
 * "NeuronCores") - and exits.  The tools then list an owner pid whose
 * /proc/PID is gone, as they do for a runtime that exits between a
 * netlink dump and the reading of its /proc files.
 *
 *   nsim_orphan PLAN CORE
 *
 * Prints "OWNER CHILD" (the pid the NeuronCores belong to, the pid that
 * holds the file) and exits 0; the child closes its stdout and waits for
 * SIGTERM, which closes the file and unloads the model.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libneuronsim.h>

int main(int argc, char **argv)
{
	struct neuronsim_open_opts oo = { .sz = sizeof(oo) };
	struct neuronsim_load_opts lo = { .sz = sizeof(lo) };
	const char *dev = getenv("NSIM_DEV");
	__u32 model;
	pid_t child;
	int fd, err;

	if (argc != 3) {
		fprintf(stderr, "usage: nsim_orphan PLAN CORE\n");
		return 2;
	}
	oo.device = dev ? strtoul(dev, NULL, 10) : 0;
	lo.first_core = strtoul(argv[2], NULL, 10);
	fd = neuronsim_open(&oo);
	if (fd < 0) {
		fprintf(stderr, "nsim_orphan: open device %u: %s\n", oo.device,
			strerror(-fd));
		return 1;
	}
	err = neuronsim_load_file(fd, argv[1], &lo, &model);
	if (err) {
		fprintf(stderr, "nsim_orphan: load %s on NeuronCore %u: %s\n",
			argv[1], lo.first_core, strerror(-err));
		return 1;
	}
	fflush(stdout);
	child = fork();
	if (child < 0) {
		perror("nsim_orphan: fork");
		return 1;
	}
	if (!child) {
		/* the file stays open here; the caller's $(...) ends */
		fclose(stdout);
		for (;;)
			pause();
	}
	printf("%d %d\n", (int)getpid(), (int)child);
	return 0;
}
