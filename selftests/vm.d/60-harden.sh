# SPDX-License-Identifier: GPL-2.0
# 60-harden.sh - hardening selftests (Documentation/security.rst); sourced
# by run_vm.sh.
# On device 0 (trn2): the ioctl fuzzer (seed printed; set NSIM_FUZZ_SEED
# to reproduce), the concurrency stress for STRESS_SECONDS (default 30;
# the whole make check stays at a few minutes), fault injection / access
# control / pointer scan / netlink / caps, concurrent maximum-size plans
# within max_loading_bytes, each followed by a check that the counters
# are zero; then the kernel log.
check "harden: device 0 counters zero before the tests" stats_zero 0
run_tap "ioctl_fuzz_test" ioctl_fuzz_test
check "harden: counters zero after ioctl_fuzz_test" stats_zero 0
run_tap "stress_test" stress_test -t "${STRESS_SECONDS:-30}"
check "harden: counters zero after stress_test" stats_zero 0
run_tap "harden_test" harden_test
check "harden: counters zero after harden_test" stats_zero 0
run_tap "budget_test" budget_test
check "harden: counters zero after budget_test" stats_zero 0
check "harden: kernel log has no hung task or lockdep report" \
	sh -c '! dmesg | grep -E "blocked for more than|possible (circular|recursive) locking|BUG:|WARNING:"'
