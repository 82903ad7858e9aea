#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# generations.sh - every device generation (KTAP): on each device of the
# neuronsim bus (run_vm.sh makes 0 trn2, 1 trn1, 2 trn3) info_test (with
# NSIM_ARCH, the geometry it must report) and load_test, with NSIM_DEV
# set to it, then its debugfs counters back at zero.  First, the counters
# of every device are zero after the tests run_kselftest.sh ran before
# this one (the device-0 tests of the Makefile's TEST_GEN_PROGS), and the
# kmem trace events zeroalloc_test reads are on from the kernel command
# line (scripts/vm.sh).
#
#   generations.sh      (NSIM_DEVICES="INDEX:ARCH ...": the devices;
#                        default every device on the bus)
cd "$(dirname "$0")" || exit 1
. ./lib.sh
nsim_test_start

check "stats of every device back to zero after the device-0 tests" stats_zero_all
check "kmem trace events enabled from the kernel command line" \
	grep -qx 1 /sys/kernel/debug/tracing/events/kmem/kmalloc/enable
for d in ${NSIM_DEVICES:-$(nsim_devices)}; do
	dev=${d%%:*}
	arch=${d#*:}
	echo "# device $dev: arch=$arch"
	NSIM_DEV=$dev NSIM_ARCH=$arch run_tap "info_test arch=$arch" info_test
	NSIM_DEV=$dev run_tap "load_test arch=$arch" load_test
	check "arch=$arch: stats back to zero after the tests" stats_zero $dev
done
ktap_finish
