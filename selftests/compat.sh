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
# tree.  A second insmod is refused; del_device takes /dev/neuron1 away;
# rmmod with a counter file open leaves none of the driver's names.  It
# is refused when a path that says the driver is loaded exists
# (compat_check_path stands in for the driver's /sys/module/neuron).  Then the module is loaded again as it
# was, with the same devices.  Runs last: it reloads the module.
cd "$(dirname "$0")" || exit 1
. ./lib.sh
nsim_test_start

DEVS=$(nsim_devices)
ARCH0=$(nsim_arch 0)
V=/sys/devices/virtual/neuron_device/neuron
P=/tmp/compat_model.kbin
nsim_mkplan $P

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
twice() {
	! nsim_load arch=$ARCH0 neuron_compat=1 2> /dev/null &&
		[ -c /dev/neuron0 ] && [ -d ${V}0 ] &&
		[ "$(cat /sys/module/neuronsim/parameters/neuron_compat)" = Y ]
}
check "a second insmod neuron_compat=1 is refused, the first stays whole" twice
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

del1() {
	nsim_del_device 1 || return 1
	[ ! -e /dev/neuron1 ] && [ ! -e ${V}1 ] && [ -c /dev/neuron0 ] &&
		[ "$(cat ${V}0/connected_devices)" = "" ]
}
check "del_device 1: /dev/neuron1 and ${V}1 go, device 0 is connected to none" del1
# rmmod while a counter file is open and another is read over and over:
# the open file then reads ENODEV, and nothing of the driver's names is left
gone() {
	f=${V}0/neuron_core0/stats/status/success/total
	exec 7< $f
	( while [ -e ${V}0 ]; do cat $f ${V}0/core_count > /dev/null 2>&1; done ) &
	rd=$!
	k0=$(dmesg | wc -l)
	nsim_unload
	rc=$?
	wait $rd
	! cat <&7 > /dev/null 2>&1 || { echo "the open file still reads"; rc=1; }
	exec 7<&-
	for p in /dev/neuron0 /dev/neuron1 /sys/class/neuron_device /sys/devices/virtual/neuron_device; do
		[ ! -e $p ] || { echo "$p left"; rc=1; }
	done
	! dmesg | tail -n +$((k0 + 1)) | grep -E 'WARNING|BUG|Oops|KASAN|refcount_t' || rc=1
	return $rc
}
check "rmmod with a counter file open and read: it reads ENODEV after, /dev/neuronN and neuron_device are gone" gone
back() {
	if [ -d /sys/module/neuronsim ]; then nsim_unload || return 1; fi
	nsim_load arch=$ARCH0 || return 1
	for d in $DEVS; do
		[ "${d%%:*}" = 0 ] || nsim_new_device ${d%%:*} ${d#*:} || return 1
	done
	[ "$(nsim_devices)" = "$DEVS" ] && [ -c /dev/neuronsim0 ] &&
		[ -d /sys/devices/virtual/neuronsim/neuronsim0 ] && [ ! -e /sys/class/neuron_device ]
}
check "the module again without neuron_compat, devices $(echo $DEVS)" back
rm -f $P /tmp/compat_reader.out /tmp/compat_top.out
ktap_finish
