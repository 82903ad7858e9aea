#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# harden.sh - the hardening selftests (KTAP, Documentation/security.rst),
# on device 0 (trn2): the ioctl fuzzer (seed printed; set NSIM_FUZZ_SEED
# to reproduce), the concurrency stress for STRESS_SECONDS (default 30;
# the whole make check stays at a few minutes), the DMA engine's
# run/unload/close races for RUN_STRESS_SECONDS (default 10), fault
# injection / access control / pointer scan / netlink / caps (harden_test;
# the real plans: $NSIM_DATA/harden, default data/harden), concurrent
# maximum-size plans within max_loading_bytes and every device's memory
# filled by an unprivileged user within backing_limit_total (budget_test),
# each followed by a check that the counters are zero; then the kernel
# log.
cd "$(dirname "$0")" || exit 1
. ./lib.sh
nsim_test_start

check "harden: device 0 counters zero before the tests" stats_zero 0
run_tap "ioctl_fuzz_test" ioctl_fuzz_test
check "harden: counters zero after ioctl_fuzz_test" stats_zero 0
run_tap "stress_test" stress_test -t "${STRESS_SECONDS:-30}"
check "harden: counters zero after stress_test" stats_zero 0
run_tap "run_stress_test" run_stress_test -t "${RUN_STRESS_SECONDS:-10}"
check "harden: counters zero after run_stress_test" stats_zero 0
run_tap "harden_test" harden_test
check "harden: counters zero after harden_test" stats_zero 0
run_tap "budget_test" budget_test
check "harden: counters zero after budget_test" stats_zero 0
check "harden: kernel log has no hung task or lockdep report" \
	sh -c '! dmesg | grep -E "blocked for more than|possible (circular|recursive) locking|BUG:|WARNING:"'
ktap_finish
