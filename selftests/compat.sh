#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# compat.sh - the module loaded with neuron_compat=1 (KTAP,
# Documentation/module.rst, "neuron_compat"): it takes the Neuron
# driver's names - /dev/neuronN, class neuron_device, devices
# /sys/devices/virtual/neuron_device/neuronN - so that a tool written for
# the driver (Slurm's gpu_nrt reads core_count, connected_devices and
# info/architecture/device_name) and neuron_sysfs_reader.sh with the
# driver's own prefix read it; LOADs go through /dev/neuron0 (load_test,
# sysfs_notify_test, which polls the driver's tree) and /dev/neuron1
# (neuronsim -d 1, libneuronsim's path), and neuronsim's tools read the
# tree.  It is refused when a path that says
# the driver is loaded exists (compat_check_path stands in for the
# driver's /sys/module/neuron).  Then the module is loaded again as it
# was, with the same devices.  Runs last: it reloads the module.
cd "$(dirname "$0")" || exit 1
. ./lib.sh
nsim_test_start

DEVS=$(nsim_devices)
ARCH0=$(nsim_arch 0)
V=/sys/devices/virtual/neuron_device/neuron
P=/tmp/compat_model.kbin
nsim_mkplan $P

# nsim_reload PARAMS...: rmmod, insmod with PARAMS and the arch of device 0
nsim_reload() {
	nsim_unload || return 1
	nsim_load arch=$ARCH0 "$@"
}

refused() {
	nsim_unload || return 1
	n=$(dmesg | grep -c "neuron_compat: /sys/class/misc exists")
	! nsim_load arch=$ARCH0 neuron_compat=1 compat_check_path=/sys/class/misc || return 1
	# busybox's insmod tries finit_module, then init_module: one message each
	[ "$(dmesg | grep -c "neuron_compat: /sys/class/misc exists")" -gt $n ] ||
		{ echo "no message naming the path"; return 1; }
	[ ! -e /sys/class/neuron_device ] && [ ! -e /sys/module/neuronsim ]
}
check "neuron_compat refused (-EEXIST, a message) while the driver's path exists, nothing left" refused

check "insmod neuron_compat=1 arch=$ARCH0" nsim_load arch=$ARCH0 neuron_compat=1
check "new_device 1 $ARCH0 under neuron_compat" nsim_new_device 1 $ARCH0

names() {
	[ -c /dev/neuron0 ] && [ -c /dev/neuron1 ] || { echo "no /dev/neuron0, /dev/neuron1"; return 1; }
	[ "$(stat -c %a /dev/neuron0)" = 600 ] || return 1
	[ -c /dev/neuronsim ] || { echo "no alias /dev/neuronsim"; return 1; }
	[ ! -e /dev/neuronsim0 ] || { echo "/dev/neuronsim0 too"; return 1; }
	[ -d ${V}0 ] && [ -d ${V}1 ] || { echo "no ${V}0, ${V}1"; return 1; }
	[ "$(cd /sys/class/neuron_device/neuron0 && pwd -P)" = ${V}0 ] || return 1
	[ -e /sys/bus/neuronsim/devices/neuronsim0 ] || { echo "no bus device"; return 1; }
	[ ! -e /sys/class/neuronsim ]
}
check "/dev/neuron0 and 1, ${V}N, the alias and the bus device stay" names

slurm() {
	[ "$(cat ${V}0/core_count)" = "$(neuronsim -j info | sed -n 's/.*"num_cores":\([0-9]*\).*/\1/p')" ] || return 1
	[ "$(cat ${V}0/connected_devices)" = 1 ] || { echo "neuron0: '$(cat ${V}0/connected_devices)'"; return 1; }
	[ "$(cat ${V}1/connected_devices)" = 0 ] || { echo "neuron1: '$(cat ${V}1/connected_devices)'"; return 1; }
	[ "$(cat ${V}0/info/architecture/device_name)" = "Trainium${ARCH0#trn}" ]
}
check "what Slurm's gpu_nrt reads: core_count, connected_devices (two devices), device_name" slurm

reader() {
	neuron_sysfs_reader.sh $V > /tmp/compat_reader.out
	rc=$?
	grep '^#' /tmp/compat_reader.out
	echo "$(grep -vc '^#' /tmp/compat_reader.out) files read"
	return $rc
}
check "neuron_sysfs_reader.sh with the driver's prefix $V" reader

NSIM_DEV=0 NSIM_ARCH=$ARCH0 run_tap "info_test on /dev/neuron0" info_test
NSIM_DEV=0 run_tap "load_test on /dev/neuron0" load_test
NSIM_DEV=0 run_tap "sysfs_notify_test on /dev/neuron0 and ${V}0" sysfs_notify_test

tools() {
	loads=$(cat ${V}1/neuron_core0/stats/other_info/model_load_count/total)
	neuronsim -d 1 load $P --core 0 > /dev/null || { echo "neuronsim -d 1 load"; return 1; }
	[ "$(cat ${V}1/neuron_core0/stats/other_info/model_load_count/total)" = $((loads + 1)) ] || return 1
	neuronsim top --once > /tmp/compat_top.out || return 1
	cat /tmp/compat_top.out
	! grep -q "tree: memory by category unknown" /tmp/compat_top.out
}
check "neuronsim -d 1 loads through /dev/neuron1; neuronsim top reads the tree" tools

check "del_device 1" nsim_del_device 1
back() {
	nsim_reload || return 1
	for d in $DEVS; do
		[ "${d%%:*}" = 0 ] || nsim_new_device ${d%%:*} ${d#*:} || return 1
	done
	[ "$(nsim_devices)" = "$DEVS" ] && [ -c /dev/neuronsim0 ] &&
		[ -d /sys/devices/virtual/neuronsim/neuronsim0 ] && [ ! -e /sys/class/neuron_device ]
}
check "the module again without neuron_compat, devices $(echo $DEVS)" back
rm -f $P /tmp/compat_reader.out /tmp/compat_top.out
ktap_finish
