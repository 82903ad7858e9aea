# SPDX-License-Identifier: GPL-2.0
# run_vm.sh - the in-VM driver of make check: loads the module per arch,
# runs the selftests (TAP), checks that rmmod leaves nothing behind.
# Run by scripts/check.sh through scripts/vm.sh; programs are in /bin,
# test data under /data.
. /selftests/lib.sh

# stats_zero: every module counter of debugfs "stats" is back to 0
stats_zero() {
	for k in models mem_refs kmem_bytes backing_bytes hbm_used; do
		v=$(sed -n "s/^$k //p" /sys/kernel/debug/neuronsim/stats)
		[ "$v" = 0 ] || { echo "$k is $v"; return 1; }
	done
}

for arch in trn1 trn2 trn3; do
	echo "# arch=$arch"
	check "insmod arch=$arch" nsim_load arch=$arch
	NSIM_ARCH=$arch run_tap "info_test arch=$arch" info_test
	run_tap "load_test arch=$arch" load_test
	if [ $arch = trn2 ]; then
		# zeroalloc_test needs them from boot (scripts/vm.sh)
		check "kmem trace events enabled from the kernel command line" \
			grep -qx 1 /sys/kernel/debug/tracing/events/kmem/kmalloc/enable
		for t in resolve_test isolation_test fault_test debugfs_test \
			 zeroalloc_test bus_test; do
			run_tap "$t" $t
		done
	fi
	check "arch=$arch: stats back to zero after the tests" stats_zero
	check "rmmod arch=$arch" nsim_unload
	check "rmmod arch=$arch leaves no debugfs dir" test ! -e /sys/kernel/debug/neuronsim
	check "rmmod arch=$arch leaves no device node" test ! -e /dev/neuronsim
done
check "unknown arch is refused" sh -c '! insmod /lib/modules/neuronsim.ko arch=trn9'

# Further areas: each vm.d script loads the module with what it needs and
# leaves it unloaded.
for f in /selftests/vm.d/*.sh; do
	[ -f "$f" ] || continue
	echo "# --- $(basename "$f")"
	. "$f"
done
