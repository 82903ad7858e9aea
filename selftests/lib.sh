# SPDX-License-Identifier: GPL-2.0
# lib.sh - helpers for the in-VM test driver (busybox sh).

# run_tap NAME CMD...: run a TAP-printing program; if it fails without a
# "not ok" line of its own, print one so the failure is counted.
# The "# --- running" line goes out before the program starts, so a run
# that the kernel ends (scripts/vm.sh) names the test it was in.
run_tap() {
	name=$1
	shift
	out=/tmp/tap.$$
	echo "# --- running $name"
	"$@" > "$out" 2>&1
	rc=$?
	cat "$out"
	if [ $rc -ne 0 ] && ! grep -q '^not ok' "$out"; then
		echo "not ok - $name exited with status $rc"
	fi
	rm -f "$out"
	return 0
}

# check NAME CMD...: one TAP line for a shell-level check.
check() {
	name=$1
	shift
	echo "# --- running $name"
	if "$@" > /tmp/check.$$ 2>&1; then
		echo "ok - $name"
	else
		echo "not ok - $name"
		sed 's/^/# /' /tmp/check.$$
	fi
	rm -f /tmp/check.$$
}

nsim_load() {
	insmod /lib/modules/neuronsim.ko "$@"
}

nsim_unload() {
	rmmod neuronsim
}

# nsim_new_device ID ARCH, nsim_del_device ID: the neuronsim bus
nsim_new_device() {
	echo "$1 $2" > /sys/bus/neuronsim/new_device
}

nsim_del_device() {
	echo "$1" > /sys/bus/neuronsim/del_device
}

# stats_zero [DEV]: every counter of device DEV's (default 0) debugfs
# "stats" is back to 0
stats_zero() {
	for k in models mem_refs kmem_bytes backing_bytes hbm_used; do
		v=$(sed -n "s/^$k //p" /sys/kernel/debug/neuronsim/neuronsim${1:-0}/stats)
		[ "$v" = 0 ] || { echo "$k is $v"; return 1; }
	done
}
