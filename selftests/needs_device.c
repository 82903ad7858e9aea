// SPDX-License-Identifier: GPL-2.0
/*
 * needs_device.c - linked into every test program of this directory
 * (selftests/Makefile): before main() runs, a test whose device is absent
 * - neuronsim.ko not loaded, or no device $NSIM_DEV on the bus - says so
 * as KTAP ("1..0 # SKIP ...") and exits with the kselftest skip code 4,
 * so run_kselftest.sh reports it skipped rather than failed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <linux/neuronsim.h>

#include <libneuronsim.h>

#include "kselftest.h"

__attribute__((constructor)) static void nsim_needs_device(void)
{
	const char *dev = getenv("NSIM_DEV");
	char path[64];

	/* the node of device NSIM_DEV as the module names it, or the alias */
	if (!dev || !*dev ||
	    neuronsim_dev_path(strtoul(dev, NULL, 10), path, sizeof(path)))
		snprintf(path, sizeof(path), "/dev/" NEURONSIM_DEVICE_NAME "%s",
			 dev && *dev ? dev : "");
	if (!access(path, F_OK))
		return;
	ksft_print_header();
	ksft_exit_skip("%s is absent: %s\n", path,
		       access("/sys/module/neuronsim", F_OK) ?
		       "neuronsim.ko is not loaded" :
		       "no such device on the neuronsim bus");
}
