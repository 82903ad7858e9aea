#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# sysfs.sh - the Neuron driver's sysfs layout under the module's class
# (KTAP, Documentation/sysfs.rst): neuron_sysfs_reader.sh, a reader of the
# driver's documented tree, finds every file of every device under
# /sys/class/neuronsim/neuronsim (only the prefix changed); the geometry
# files agree with the device; then on device 0 a model held on
# NeuronCore 0 shows in device_mem/<category>/present exactly as debugfs
# "hbm" accounts it (tensors among them), in model_load_count, in
# status/success and in host_mem/driver_memory, and all of it returns to 0
# after the unload; a refused plan counts in status/failure and
# status/invalid_error.
cd "$(dirname "$0")" || exit 1
. ./lib.sh
nsim_test_start

SYS=/sys/class/neuronsim/neuronsim
D0=${SYS}0
C0=$D0/neuron_core0/stats
DM=$C0/memory_usage/device_mem
DBG=/sys/kernel/debug/neuronsim/neuronsim0
P=/tmp/sysfs_model.kbin
BAD=/tmp/sysfs_bad.kbin

# dbg_core_cat CATEGORY: present bytes of device_mem/CATEGORY of
# NeuronCore 0 in debugfs hbm (0 when not listed)
dbg_core_cat() {
	awk -v c="device_mem/$1" '
		/^core / { in0 = ($2 == "0") }
		in0 && $1 == c { v = $3 }
		END { print v + 0 }' $DBG/hbm
}

# dbg_core_used: bytes in use on NeuronCore 0 in debugfs hbm
dbg_core_used() {
	awk '/^core 0 / { print $6 }' $DBG/hbm
}

# the cross-check: every category of core 0 as debugfs has it, and the sum
same_as_debugfs() {
	sum=0
	for c in model_code tensors constants model_shared_scratchpad \
		 runtime_memory driver_memory collectives nonshared_scratchpad \
		 notifications dma_rings uncategorized; do
		s=$(cat $DM/$c/present)
		g=$(dbg_core_cat $c)
		[ "$s" = "$g" ] || { echo "$c: sysfs $s, debugfs $g"; return 1; }
		sum=$((sum + s))
	done
	[ "$(cat $DM/present)" = "$sum" ] || { echo "device_mem/present $(cat $DM/present), categories $sum"; return 1; }
	[ "$sum" = "$(dbg_core_used)" ] || { echo "categories $sum, debugfs core 0 used $(dbg_core_used)"; return 1; }
}

reader_ok() {
	neuron_sysfs_reader.sh "$SYS" > /tmp/sysfs_reader.out
	rc=$?
	grep '^#' /tmp/sysfs_reader.out
	echo "$(grep -vc '^#' /tmp/sysfs_reader.out) files read"
	return $rc
}

geometry_ok() { # INDEX ARCH
	d=$SYS$1
	n=$(ls -d $d/neuron_core* | wc -l)
	want=$(neuronsim -d $1 -j info | sed -n 's/.*"num_cores":\([0-9]*\).*/\1/p')
	gen=$(neuronsim -d $1 -j info | sed -n 's/.*"arch_gen":\([0-9]*\).*/\1/p')
	[ "$n" = "$want" ] || { echo "$n neuron_core dirs, $want NeuronCores"; return 1; }
	[ "$(cat $d/info/architecture/instance_type)" = "$2" ] || return 1
	[ "$(cat $d/info/architecture/arch_type)" = "NCv$gen" ] || return 1
	[ "$(cat $d/neuron_core0/info/architecture/arch_type)" = "NCv$gen" ] || return 1
	[ -n "$(cat $d/info/architecture/device_name)" ]
}

check "the reader of the driver's tree reads every file of every device under ${SYS}N" reader_ok
for d in $(nsim_devices); do
	check "device ${d%%:*}: one neuron_coreM per NeuronCore, info/architecture of ${d#*:}" \
		geometry_ok ${d%%:*} ${d#*:}
done
read_only() {
	for f in $DM/present $DM/tensors/present $C0/status/success/total \
		 $C0/other_info/model_load_count/present $D0/info/architecture/arch_type \
		 $D0/stats/memory_usage/host_mem/driver_memory/peak; do
		m=$(stat -c %a $f)
		[ "$m" = 444 ] || { echo "$f: mode $m"; return 1; }
	done
	! echo 1 > $DM/tensors/present
}
check "device 0: the files are read-only (mode 0444, a write fails)" read_only

nsim_mkplan $P && nsim_mkplan $BAD bad
ok0=$(cat $C0/status/success/total)
fail0=$(cat $C0/status/failure/total)
inv0=$(cat $C0/status/invalid_error/total)
loads0=$(cat $C0/other_info/model_load_count/total)
tensors_total0=$(cat $DM/tensors/total)

neuronsim load $P --hold --core 0 > /tmp/sysfs_hold.out 2>&1 &
HOLD=$!
i=0
while ! grep -q holding /tmp/sysfs_hold.out && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
sed 's/^/# hold: /' /tmp/sysfs_hold.out
tensors=$(cat $DM/tensors/present)
echo "# held: device_mem/tensors/present $tensors, debugfs $(dbg_core_cat tensors)"
check "loaded: device_mem/tensors/present holds the model's tensor bytes" test "$tensors" -gt 0
check "loaded: every device_mem category of core 0 is debugfs hbm's, the sum is device_mem/present" same_as_debugfs
check "loaded: other_info/model_load_count present 1, total one more" \
	test "$(cat $C0/other_info/model_load_count/present)" = 1 -a \
	"$(cat $C0/other_info/model_load_count/total)" = $((loads0 + 1))
check "loaded: status/success/total one more" test "$(cat $C0/status/success/total)" = $((ok0 + 1))
check "loaded: host_mem/driver_memory/present is the module's kernel memory for the model (debugfs kmem_bytes)" \
	test "$(cat $D0/stats/memory_usage/host_mem/driver_memory/present)" = \
	"$(sed -n 's/^kmem_bytes //p' $DBG/stats)" -a \
	"$(cat $D0/stats/memory_usage/host_mem/driver_memory/present)" -gt 0
kill -INT $HOLD
wait $HOLD
check "unloaded: device_mem/tensors/present is 0" test "$(cat $DM/tensors/present)" = 0
check "unloaded: device_mem/present is 0" test "$(cat $DM/present)" = 0
check "unloaded: tensors peak >= the model's bytes, total grew by them" \
	test "$(cat $DM/tensors/peak)" -ge "$tensors" -a \
	"$(cat $DM/tensors/total)" = $((tensors_total0 + tensors))
check "unloaded: model_load_count/present 0, host_mem/driver_memory/present 0" \
	test "$(cat $C0/other_info/model_load_count/present)" = 0 -a \
	"$(cat $D0/stats/memory_usage/host_mem/driver_memory/present)" = 0
neuronsim load $BAD --core 0 > /dev/null 2>&1
check "a refused plan (bad magic): status/failure and status/invalid_error one more, success not" \
	test "$(cat $C0/status/failure/total)" = $((fail0 + 1)) -a \
	"$(cat $C0/status/invalid_error/total)" = $((inv0 + 1)) -a \
	"$(cat $C0/status/success/total)" = $((ok0 + 1))
check "stats back to zero" stats_zero 0
rm -f $P $BAD /tmp/sysfs_hold.out /tmp/sysfs_reader.out
ktap_finish
