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
# status/invalid_error.  The device's own files: core_count,
# connected_devices (the ring of the devices that exist, as new_device
# and del_device change it), info/serial_number, info/notify_delay (0 and
# -1 only), stats/hardware (0), stats/power/utilization (no data), the
# NeuronCore's host_mem.  A write clears a counter's field (0644, root);
# clearing what is held does not take present below 0 at the unload.
# Races: clears and notify_delay switches while loads, executions and
# unloads run and a device comes and goes.  sysfs_notify_test: poll()
# wakes on a counter's change with notify_delay 0 only, and only root
# writes.
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
	# core_count: the number alone, no newline (the driver's)
	[ "$(cat $d/core_count)" = "$want" ] || { echo "core_count $(cat $d/core_count)"; return 1; }
	[ "$(wc -c < $d/core_count)" = "${#want}" ] || { echo "core_count is not the number alone"; return 1; }
	# the driver's spellings: Trn2, NDv3 for the device, NCv3 per core
	[ "$(cat $d/info/architecture/instance_type)" = "Trn${2#trn}" ] || return 1
	[ "$(cat $d/info/architecture/arch_type)" = "NDv$gen" ] || return 1
	[ "$(cat $d/neuron_core0/info/architecture/arch_type)" = "NCv$gen" ] || return 1
	[ "$(cat $d/info/architecture/device_name)" = "Trainium${2#trn}" ] || return 1
	[ "$(cat $d/info/serial_number)" = "4e53494d000000$(printf %02x $1)" ] || return 1
	[ "$(cat $d/info/notify_delay)" = -1 ] || return 1
	for f in mem_ecc_uncorrected mem_ecc_repairable_uncorrected sram_ecc_uncorrected; do
		[ "$(cat $d/stats/hardware/$f)" = 0 ] || { echo "$f"; return 1; }
	done
	p=$(cat $d/stats/power/utilization)
	now=$(date +%s)
	t=$(echo "$p" | sed -n 's/^POWER_STATUS_NO_DATA,\([0-9]*\),0\.00,0\.00,0\.00$/\1/p')
	[ -n "$t" ] && [ $((now - t)) -le 5 ] && [ $((t - now)) -le 5 ] ||
		{ echo "power: '$p' at $now"; return 1; }
}

# ring_want INDEX: the devices INDEX is connected to, from the list of
# devices (Documentation/sysfs.rst: the ring of the devices, in index order)
ring_want() {
	set -- $1 $(nsim_devices | sed 's/:.*//')
	me=$1
	shift
	prev= next= first= last=
	for i in "$@"; do
		[ $i = $me ] && continue
		[ -z "$first" ] && first=$i
		last=$i
		if [ $i -lt $me ]; then prev=$i; elif [ -z "$next" ]; then next=$i; fi
	done
	[ -z "$first" ] && { echo; return; }
	[ -z "$prev" ] && prev=$last
	[ -z "$next" ] && next=$first
	if [ $prev = $next ]; then echo $prev
	elif [ $prev -lt $next ]; then echo "$prev, $next"
	else echo "$next, $prev"; fi
}

ring_ok() {
	for d in $(nsim_devices); do
		i=${d%%:*}
		got=$(cat $SYS$i/connected_devices)
		[ "$got" = "$(ring_want $i)" ] || { echo "device $i: '$got', want '$(ring_want $i)'"; return 1; }
	done
}

check "the reader of the driver's tree reads every file of every device under ${SYS}N" reader_ok
for d in $(nsim_devices); do
	check "device ${d%%:*}: one neuron_coreM per NeuronCore, info/architecture of ${d#*:}" \
		geometry_ok ${d%%:*} ${d#*:}
done
check "connected_devices: each device is connected to the devices before and after it in the ring" ring_ok
ring_changes() {
	nsim_new_device 5 trn1 || return 1
	ring_ok
	rc=$?
	[ "$(cat ${SYS}5/connected_devices)" = "$(ring_want 5)" ] || rc=1
	nsim_del_device 5 || return 1
	[ $rc = 0 ] && ring_ok
}
check "connected_devices follows new_device 5 and del_device 5" ring_changes

modes() {
	for f in $DM/present $DM/tensors/present $C0/status/success/total \
		 $C0/other_info/model_load_count/present \
		 $C0/memory_usage/host_mem/peak $D0/info/notify_delay \
		 $D0/stats/memory_usage/host_mem/driver_memory/peak; do
		m=$(stat -c %a $f)
		[ "$m" = 644 ] || { echo "$f: mode $m"; return 1; }
	done
	for f in $D0/info/architecture/arch_type $D0/info/serial_number \
		 $D0/stats/hardware/mem_ecc_uncorrected $D0/stats/power/utilization \
		 $D0/core_count $D0/connected_devices; do
		m=$(stat -c %a $f)
		[ "$m" = 444 ] || { echo "$f: mode $m"; return 1; }
	done
	! echo 1 > $D0/info/serial_number
}
check "device 0: counters and notify_delay 0644 (root clears), the other files 0444" modes

notify_delay_ok() {
	f=$D0/info/notify_delay
	echo 0 > $f && [ "$(cat $f)" = 0 ] || return 1
	for v in 1 -2 abc; do
		n=$(dmesg | grep -c "notify_delay: '$v' is neither 0 nor -1")
		! echo $v > $f || { echo "$v accepted"; return 1; }
		[ "$(dmesg | grep -c "notify_delay: '$v' is neither 0 nor -1")" = $((n + 1)) ] ||
			{ echo "no message for $v"; return 1; }
	done
	[ "$(cat $f)" = 0 ] || return 1
	echo -1 > $f && [ "$(cat $f)" = -1 ]
}
check "info/notify_delay switches between 0 and -1, refuses other values with a message" notify_delay_ok
notify_delay_bad() {
	f=$D0/info/notify_delay
	for v in " 0" "" "0 0" "0x0" "99999999999999999999" "-1-"; do
		! printf '%s\n' "$v" > $f 2> /dev/null || { echo "'$v' accepted"; return 1; }
		[ "$(cat $f)" = -1 ] || { echo "'$v' changed it to $(cat $f)"; return 1; }
	done
	! head -c 4096 /dev/zero | tr '\0' 7 > $f 2> /dev/null || { echo "4096 sevens accepted"; return 1; }
	! head -c 8192 /dev/zero | tr '\0' 7 > $f 2> /dev/null || { echo "8192 sevens accepted"; return 1; }
	[ "$(cat $f)" = -1 ] || return 1
	printf '0' > $f && [ "$(cat $f)" = 0 ] && printf -- '-1\n' > $f && [ "$(cat $f)" = -1 ]
}
check "info/notify_delay refuses ' 0', an empty line, '0 0', hex, an overflow, 4096 and 8192 bytes; takes '0' without a newline" notify_delay_bad

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
check "loaded: neuron_core0's host_mem/present is the model's kernel memory too" \
	test "$(cat $C0/memory_usage/host_mem/present)" = \
	"$(cat $D0/stats/memory_usage/host_mem/driver_memory/present)"
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

# clear_ok FILE: a write sets the field to 0
clear_ok() { echo 1 > "$1" && [ "$(cat "$1")" = 0 ] || { echo "$1: $(cat "$1") after the write"; return 1; }; }

clears() {
	for f in $C0/status/success/total $C0/status/failure/present \
		 $C0/other_info/model_load_count/total \
		 $DM/tensors/total $DM/tensors/peak $DM/total $DM/peak \
		 $C0/memory_usage/host_mem/total $C0/memory_usage/host_mem/peak \
		 $D0/stats/memory_usage/host_mem/driver_memory/total; do
		[ "$(cat $f)" -gt 0 ] || { echo "$f did not move: $(cat $f)"; return 1; }
		clear_ok $f || return 1
	done
	# one field at a time: present of success is still there
	[ "$(cat $C0/status/success/present)" -gt 0 ] || { echo "success/present cleared too"; return 1; }
}
check "a write clears a moved counter's field, and only that field" clears

counts_after_clear() {
	ok=$(cat $C0/status/failure/total)
	neuronsim load $BAD --core 0 > /dev/null 2>&1
	[ "$(cat $C0/status/failure/total)" = $((ok + 1)) ] &&
		[ "$(cat $C0/status/failure/present)" = 1 ]
}
check "a cleared counter counts on from 0" counts_after_clear

# with the model held, clear present and peak of what it holds; the unload
# takes present down to 0, not below
held_clear() {
	neuronsim load $P --hold --core 0 > /tmp/sysfs_hold.out 2>&1 &
	h=$!
	i=0
	while ! grep -q holding /tmp/sysfs_hold.out && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	rc=0
	held=$(cat $DM/tensors/present)
	[ "$held" -gt 0 ] || { echo "nothing held"; rc=1; }
	for f in $DM/tensors/present $DM/tensors/peak $DM/present \
		 $C0/other_info/model_load_count/present $C0/memory_usage/host_mem/present; do
		clear_ok $f || rc=1
	done
	[ "$(dbg_core_cat tensors)" = "$held" ] || { echo "debugfs hbm cleared too"; rc=1; }
	kill -INT $h
	wait $h
	for f in $DM/tensors/present $DM/tensors/peak $DM/present \
		 $C0/other_info/model_load_count/present $C0/memory_usage/host_mem/present; do
		[ "$(cat $f)" = 0 ] || { echo "$f: $(cat $f) after the unload"; rc=1; }
	done
	[ "$(dbg_core_cat tensors)" = 0 ] || { echo "debugfs hbm tensors $(dbg_core_cat tensors)"; rc=1; }
	return $rc
}
check "clearing present while a model is held: 0, and still 0 after the unload (debugfs hbm keeps the accounting)" held_clear

# Races: for RACE_S seconds, on device 0, root clears every counter field
# of NeuronCores 0-3 over and over and switches notify_delay between 0
# and -1, while loads (held and unloaded, and refused), executions and
# their unloads run on other CPUs; device 6 comes and goes (new_device,
# del_device) while its tree, ls and monitor are read.  No value may read
# as a wrapped count, no kernel warning may appear, and afterwards the
# device is back to zero with its tree whole.
RACE_S=${RACE_S:-10}
PP=/tmp/sysfs_prog.kbin
STOP=/tmp/sysfs_race.stop
race_files() {
	for c in 0 1 2 3; do
		ls -d $D0/neuron_core$c/stats/status/*/* $D0/neuron_core$c/stats/other_info/*/* \
			$D0/neuron_core$c/stats/memory_usage/device_mem/*/* \
			$D0/neuron_core$c/stats/memory_usage/device_mem/total \
			$D0/neuron_core$c/stats/memory_usage/device_mem/present \
			$D0/neuron_core$c/stats/memory_usage/device_mem/peak \
			$D0/neuron_core$c/stats/memory_usage/host_mem/* 2> /dev/null
	done
	ls -d $D0/stats/memory_usage/host_mem/*/*
}
# race_loop CMD...: CMD over and over until $STOP exists
race_loop() {
	while [ ! -e $STOP ]; do
		"$@" > /dev/null 2>&1
	done
}
race_clear() { for f in $FILES; do echo 0 > $f; done; }
race_toggle() { echo 0 > $D0/info/notify_delay; echo -1 > $D0/info/notify_delay; }
# a value that is not a count, or one near 2^64 (a count taken below 0)
race_read() {
	cat $FILES | awk '!/^[0-9]+$/ || $1 + 0 > 4e18 { print "bad value: " $0; bad = 1 } END { exit bad }' >> /tmp/sysfs_race.bad
}
race_churn() {
	nsim_new_device 6 trn1 || return
	cat ${SYS}6/connected_devices ${SYS}6/neuron_core*/stats/*/*/* ${SYS}6/core_count > /dev/null 2>&1
	nsim_del_device 6
}
race_tools() {
	neuronsim -j ls | grep -qx '\[.*\]' || echo "ls -j: not one array" >> /tmp/sysfs_race.bad
	neuronsim -j monitor --period 0.05 --count 1 |
		grep -q '^{"neuron_runtime_data":\[.*\],"system_data":{.*},"instance_info":{.*},"neuron_hardware_info":{.*}}$' ||
		echo "monitor -j: not a report" >> /tmp/sysfs_race.bad
}
race_running() {
	for p in "$@"; do
		[ -e /proc/$p ] && return 0
	done
	return 1
}
# every process but the kernel's: state, wchan, command, and the kernel
# stack of those in D state; the blocked tasks and the kernel log's tail
race_stuck() {
	for d in /proc/[0-9]*; do
		[ -s $d/cmdline ] || continue
		st=$(sed -n 's/^State:\t\(.\).*/\1/p' $d/status 2> /dev/null)
		echo "${d#/proc/} $st $(cat $d/wchan 2> /dev/null) $(tr '\0' ' ' < $d/cmdline | cut -c1-100)"
		case $st in D) cat $d/stack 2> /dev/null | sed 's/^/    /' ;; esac
	done
	echo w > /proc/sysrq-trigger 2> /dev/null
	dmesg | tail -n 80
}
race() {
	nsim_mkplan $PP prog > /dev/null || return 1
	FILES=$(race_files)
	echo "$(echo $FILES | wc -w) counter files"
	rm -f $STOP /tmp/sysfs_race.bad
	: > /tmp/sysfs_race.bad
	k0=$(dmesg | wc -l)
	pids=
	race_loop race_clear & pids="$pids $!"
	race_loop race_clear & pids="$pids $!"
	race_loop race_toggle & pids="$pids $!"
	race_loop race_read & pids="$pids $!"
	race_loop neuronsim exec $PP & pids="$pids $!"
	race_loop neuronsim load $P --core 2 --exit-on-eof < /dev/null & pids="$pids $!"
	race_loop neuronsim load $BAD --core 0 & pids="$pids $!"
	race_loop race_churn & pids="$pids $!"
	race_loop race_tools & pids="$pids $!"
	sleep $RACE_S
	touch $STOP
	# each loop ends within its current command; one that does not in
	# 120 s is stuck: show where, and fail
	n=0
	while [ $n -lt 1200 ] && race_running $pids; do
		sleep 0.1
		n=$((n + 1))
	done
	if race_running $pids; then
		echo "stuck after $((n / 10)) s:"
		race_stuck
		kill $pids 2> /dev/null
		rm -f $STOP
		return 1
	fi
	wait $pids
	rm -f $STOP
	[ -e ${SYS}6 ] && nsim_del_device 6
	echo -1 > $D0/info/notify_delay
	rc=0
	if [ -s /tmp/sysfs_race.bad ]; then
		sort /tmp/sysfs_race.bad | uniq -c | head -n 20
		rc=1
	fi
	dmesg | tail -n +$((k0 + 1)) > /tmp/sysfs_race.kmsg
	if grep -Eq 'WARNING|BUG|Oops|KASAN|lockdep|circular|possible recursive|INFO: task|refcount_t|list_del corruption|general protection|sleeping function' /tmp/sysfs_race.kmsg; then
		grep -E -A20 'WARNING|BUG|Oops|KASAN|lockdep|circular|possible recursive|INFO: task|refcount_t|list_del corruption|general protection|sleeping function' /tmp/sysfs_race.kmsg | head -n 60
		rc=1
	fi
	stats_zero 0 || rc=1
	[ ! -e ${SYS}6 ] || { echo "${SYS}6 left"; rc=1; }
	[ "$(race_files)" = "$FILES" ] || { echo "device 0's tree is not whole"; rc=1; }
	return $rc
}
check "races: clears, notify_delay switches, loads, executions, unloads and device 6 coming and going for ${RACE_S} s: counts, no warning, back to zero" race
run_tap "sysfs_notify_test" sysfs_notify_test
check "stats back to zero" stats_zero 0
rm -f $P $BAD $PP /tmp/sysfs_hold.out /tmp/sysfs_reader.out /tmp/sysfs_race.bad /tmp/sysfs_race.kmsg
ktap_finish
