#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# neuron_sysfs_reader.sh - read Neuron devices the way a tool written for
# the Neuron driver's sysfs tree does, with only the path prefix changed
# (Documentation/sysfs.rst): the driver's devices are
# /sys/devices/virtual/neuron_device/neuronN, the simulator's
# /sys/class/neuronsim/neuronsimN.
#
#   neuron_sysfs_reader.sh [PREFIX]   (default /sys/class/neuronsim/neuronsim)
#
# For every device directory PREFIX<N>, and in it every NeuronCore
# directory neuron_core<M>, it reads each file of the driver's documented
# layout - the lists below are the driver's, written down independently
# of the module - and prints "neuron<N>/PATH VALUE", PATH relative to the
# device.  Exit status 0; 1 when a documented file is missing, unreadable
# or not of the driver's form (a number, the list of connected devices,
# the serial number, the power line); 2 when no device matches.

prefix=${1:-/sys/class/neuronsim/neuronsim}

host_mem="dma_buffers tensors constants application_memory driver_memory
	notifications dma_rings uncategorized"
device_mem="model_code tensors constants model_shared_scratchpad
	runtime_memory driver_memory collectives nonshared_scratchpad
	notifications dma_rings uncategorized"
status="success failure timeout exec_bad_input hw_error
	execute_completed_with_error execute_completed_with_num_error
	generic_error resource_error resource_nc_error execute_failed_to_queue
	invalid_error unsupported_neff_version oob_error hw_collectives_error
	hw_hbm_ue_error hw_nc_ue_error hw_dma_abort_error
	execute_sw_nq_overflow execute_sw_semaphore_error
	execute_sw_event_error execute_sw_psum_collision
	execute_sw_sequencer_fatal hw_repairable_hbm_ue_error"
other_info="model_load_count reset_req_count reset_fail_count
	inference_count flop_count nc_time_in_use"

bad=0
# rd DEVDIR DEVNAME PATH [num]: print one file, or count it as bad
rd() {
	if ! v=$(cat "$1/$3" 2>/dev/null); then
		echo "# missing or unreadable: $1/$3"
		bad=1
		return
	fi
	case $4:$v in
	num:*[!0-9]* | num:)
		echo "# not a number: $1/$3: '$v'"
		bad=1
		return ;;
	esac
	if [ -n "${5:-}" ] && ! printf '%s\n' "$v" | grep -Eqx "$5"; then
		echo "# not of the driver's form: $1/$3: '$v'"
		bad=1
		return
	fi
	echo "$2/$3 $v"
}

n=0
for d in "$prefix"[0-9]*; do
	[ -d "$d" ] || continue
	n=$((n + 1))
	name=neuron${d#"$prefix"}
	rd "$d" "$name" core_count num
	rd "$d" "$name" connected_devices "" '([0-9]+(, [0-9]+)*)?'
	rd "$d" "$name" info/notify_delay "" '0|-1'
	rd "$d" "$name" info/serial_number "" '[0-9a-f]{16}'
	for f in arch_type instance_type device_name; do
		rd "$d" "$name" "info/architecture/$f"
	done
	for f in mem_ecc_uncorrected mem_ecc_repairable_uncorrected \
		 sram_ecc_uncorrected; do
		rd "$d" "$name" "stats/hardware/$f" num
	done
	rd "$d" "$name" stats/power/utilization "" \
		'POWER_STATUS_[A-Z_]+,[0-9]+,[0-9]+\.[0-9]{2},[0-9]+\.[0-9]{2},[0-9]+\.[0-9]{2}'
	for c in $host_mem; do
		for f in total present peak; do
			rd "$d" "$name" "stats/memory_usage/host_mem/$c/$f" num
		done
	done
	cores=0
	for core in "$d"/neuron_core[0-9]*; do
		[ -d "$core" ] || continue
		cores=$((cores + 1))
		nc=${core##*/}
		rd "$d" "$name" "$nc/info/architecture/arch_type"
		for f in total present peak; do
			rd "$d" "$name" "$nc/stats/memory_usage/host_mem/$f" num
			rd "$d" "$name" "$nc/stats/memory_usage/device_mem/$f" num
		done
		for c in $device_mem; do
			for f in total present peak; do
				rd "$d" "$name" "$nc/stats/memory_usage/device_mem/$c/$f" num
			done
		done
		for c in $status; do
			for f in total present; do
				rd "$d" "$name" "$nc/stats/status/$c/$f" num
			done
		done
		for c in $other_info; do
			for f in total present; do
				rd "$d" "$name" "$nc/stats/other_info/$c/$f" num
			done
		done
	done
	if [ $cores = 0 ]; then
		echo "# $d has no neuron_core directory"
		bad=1
	fi
done
if [ $n = 0 ]; then
	echo "# no device directory ${prefix}N" >&2
	exit 2
fi
exit $bad
