# SPDX-License-Identifier: GPL-2.0
# run_vm.sh - the in-VM driver of make check: loads the module per arch,
# runs the selftests (TAP), checks that rmmod leaves nothing behind.
# Run by scripts/check.sh through scripts/vm.sh; programs are in /bin,
# test data under /data.
. /selftests/lib.sh

for arch in trn1 trn2 trn3; do
	echo "# arch=$arch"
	check "insmod arch=$arch" nsim_load arch=$arch
	NSIM_ARCH=$arch run_tap "info_test arch=$arch" info_test
	check "rmmod arch=$arch" nsim_unload
	check "rmmod arch=$arch leaves no debugfs dir" test ! -e /sys/kernel/debug/neuronsim
	check "rmmod arch=$arch leaves no device node" test ! -e /dev/neuronsim
done
check "unknown arch is refused" sh -c '! insmod /lib/modules/neuronsim.ko arch=trn9'
