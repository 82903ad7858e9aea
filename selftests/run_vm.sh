# SPDX-License-Identifier: GPL-2.0
# run_vm.sh - the in-VM driver of make check: loads the module once and
# creates one device per generation on the neuronsim bus (0 trn2 from
# insmod, 1 trn1, 2 trn3), runs the selftests (TAP) against each
# generation's device, then the vm.d areas, and at the end removes the
# devices and checks that rmmod leaves nothing behind.
# Run by scripts/check.sh through scripts/vm.sh; programs are in /bin,
# test data under /data.
. /selftests/lib.sh

echo "# insmod arch=trn2: device 0; devices 1 (trn1) and 2 (trn3) on the bus"
check "insmod arch=trn2 (device 0)" nsim_load arch=trn2
check "new_device 1 trn1" nsim_new_device 1 trn1
check "new_device 2 trn3" nsim_new_device 2 trn3
for d in 1:trn1 0:trn2 2:trn3; do
	dev=${d%%:*}
	arch=${d#*:}
	echo "# device $dev: arch=$arch"
	NSIM_DEV=$dev NSIM_ARCH=$arch run_tap "info_test arch=$arch" info_test
	NSIM_DEV=$dev run_tap "load_test arch=$arch" load_test
	if [ $arch = trn2 ]; then
		# zeroalloc_test needs them from boot (scripts/vm.sh)
		check "kmem trace events enabled from the kernel command line" \
			grep -qx 1 /sys/kernel/debug/tracing/events/kmem/kmalloc/enable
		# through the alias /dev/neuronsim, which is device 0
		for t in resolve_test isolation_test fault_test reloc_test debugfs_test \
			 zeroalloc_test bus_test cores_test; do
			run_tap "$t" $t
		done
	fi
	check "arch=$arch: stats back to zero after the tests" stats_zero $dev
done

# Further areas: each vm.d script uses the devices above and leaves them
# without models.
for f in /selftests/vm.d/*.sh; do
	[ -f "$f" ] || continue
	echo "# --- $(basename "$f")"
	. "$f"
done

echo "# the end: del_device, rmmod"
for dev in 0 1 2; do
	check "device $dev: stats back to zero at the end" stats_zero $dev
done
check "del_device 1" nsim_del_device 1
check "del_device 1 leaves no node, sysfs or debugfs dir" sh -c \
	'! test -e /dev/neuronsim1 && ! test -e /sys/bus/neuronsim/devices/neuronsim1 && ! test -e /sys/kernel/debug/neuronsim/neuronsim1'
check "rmmod with devices 0 and 2" nsim_unload
check "rmmod leaves no debugfs dir" test ! -e /sys/kernel/debug/neuronsim
check "rmmod leaves no device node" sh -c \
	'! test -e /dev/neuronsim && ! test -e /dev/neuronsim0 && ! test -e /dev/neuronsim2'
check "rmmod leaves no bus" test ! -e /sys/bus/neuronsim
check "unknown arch is refused" sh -c '! insmod /lib/modules/neuronsim.ko arch=trn9'
