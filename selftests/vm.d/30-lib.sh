# SPDX-License-Identifier: GPL-2.0
# In-VM steps of the library tests (sourced by run_vm.sh): libneuronsim,
# the netlink family and the neuronsim command, on device 0 (trn2: all)
# and device 1 (trn1: library and command).
for d in 0:trn2 1:trn1; do
	dev=${d%%:*}
	arch=${d#*:}
	NSIM_DEV=$dev run_tap "lib_test arch=$arch" lib_test
	[ $arch = trn2 ] && run_tap "netlink_test arch=$arch" netlink_test
	NSIM_DEV=$dev NSIM_ARCH=$arch run_tap "cli_test.sh arch=$arch" sh /selftests/cli_test.sh
	check "arch=$arch: stats back to zero after lib tests" stats_zero $dev
done
