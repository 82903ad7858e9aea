#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# libneuronsim.sh - the library and the neuronsim command (KTAP): on
# device 0 (trn2) and device 1 (trn1) lib_test (every library call and
# its errors) and cli_test.sh (the command: the --hold scenario, help,
# errors, commands on the holder's stdin), each with NSIM_DEV (and
# NSIM_ARCH) set to the device, then its counters back at zero.
# netlink_test runs on its own (the Makefile's TEST_GEN_PROGS).
#
#   libneuronsim.sh     (NSIM_LIB_DEVICES="INDEX ...", default "0 1")
cd "$(dirname "$0")" || exit 1
. ./lib.sh
nsim_test_start

for dev in ${NSIM_LIB_DEVICES:-0 1}; do
	arch=$(nsim_arch $dev)
	NSIM_DEV=$dev run_tap "lib_test arch=$arch" lib_test
	NSIM_DEV=$dev NSIM_ARCH=$arch run_tap "cli_test.sh arch=$arch" sh ./cli_test.sh
	check "arch=$arch: stats back to zero after lib tests" stats_zero $dev
done
ktap_finish
