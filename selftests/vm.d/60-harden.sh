# SPDX-License-Identifier: GPL-2.0
# 60-harden.sh - hardening selftests (Documentation/security.rst); sourced
# by run_vm.sh.
# Loads the module (trn2), runs the ioctl fuzzer (seed printed; set
# NSIM_FUZZ_SEED to reproduce), the concurrency stress for
# STRESS_SECONDS (default 30; the whole make check stays at a few
# minutes), fault injection / access control / pointer scan / netlink /
# caps, then checks that the counters are zero and rmmod leaves nothing.
harden_stats_zero() {
	for k in models mem_refs kmem_bytes backing_bytes hbm_used; do
		v=$(sed -n "s/^$k //p" /sys/kernel/debug/neuronsim/stats)
		[ "$v" = 0 ] || { echo "$k is $v"; return 1; }
	done
}
check "harden: insmod arch=trn2" nsim_load arch=trn2
run_tap "ioctl_fuzz_test" ioctl_fuzz_test
check "harden: counters zero after ioctl_fuzz_test" harden_stats_zero
run_tap "stress_test" stress_test -t "${STRESS_SECONDS:-30}"
check "harden: counters zero after stress_test" harden_stats_zero
run_tap "harden_test" harden_test
check "harden: counters zero after harden_test" harden_stats_zero
check "harden: kernel log has no hung task or lockdep report" \
	sh -c '! dmesg | grep -E "blocked for more than|possible (circular|recursive) locking|BUG:|WARNING:"'
check "harden: rmmod" nsim_unload
check "harden: rmmod leaves no device node" test ! -e /dev/neuronsim
