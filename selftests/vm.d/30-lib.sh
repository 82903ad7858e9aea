# SPDX-License-Identifier: GPL-2.0
# In-VM steps of the library tests (sourced by run_vm.sh): libneuronsim, the netlink
# family and the neuronsim command, on trn2 (all) and trn1 (library and
# command).  Leaves the module unloaded.
for arch in trn2 trn1; do
	check "insmod arch=$arch (lib)" nsim_load arch=$arch
	run_tap "lib_test arch=$arch" lib_test
	[ $arch = trn2 ] && run_tap "netlink_test arch=$arch" netlink_test
	NSIM_ARCH=$arch run_tap "cli_test.sh arch=$arch" sh /selftests/cli_test.sh
	check "arch=$arch: stats back to zero after lib tests" stats_zero
	check "rmmod arch=$arch (lib)" nsim_unload
done
