#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# consumers.sh - what the Neuron tools' consumers read, captured on every
# device of the bus (run_vm.sh makes three) in three states: idle, loaded
# (a process holding a model on device 0 and one on device 1) and
# executing (the holder of device 0 executing its model over and over):
# neuronsim's neuron-ls JSON (ls -j), neuron-monitor reports (monitor -j)
# and the exporter's exposition (monitor --prometheus).  Then a holder
# whose process exited (nsim_orphan): ls and monitor list it without its
# /proc files.
#
# Each captured line goes to the serial log as "NSIMCAP STATE FORMAT
# LINE"; the host (scripts/check.sh) collects them into
# build/check/consumers/STATE.FORMAT and runs the consumers on them
# there (userspace/tests/neuron_consumers.py: jq, a key walk of
# neuron-monitor's report as its exporter reads it, the Python
# Prometheus client), since the VM has neither Python nor jq.  Here:
# that each capture is there and not empty, and the states are what they
# claim (Documentation/userspace.rst, "Consumers of the Neuron tools").
cd "$(dirname "$0")" || exit 1
. ./lib.sh
nsim_test_start
# no "# --- running" marks: they go straight to the console while the
# captured lines are still on their way there through run_kselftest.sh's
# pipe, and a mark landing inside a line would cut it
NSIM_MARKS=

NS=neuronsim
DATA=${NSIM_DATA:-$(pwd)/data}
W=/tmp/consumers
rm -rf $W
mkdir -p $W
# a monitor configuration: every group, a period short enough for the VM
cat > $W/monitor.conf <<'EOF'
{
  "period": "1s",
  "neuron_runtimes": [
    {
      "tag_filter": ".*",
      "metrics": [
        { "type": "neuroncore_counters" },
        { "type": "memory_used" },
        { "type": "neuron_runtime_vcpu_usage" },
        { "type": "execution_stats" }
      ]
    }
  ],
  "system_metrics": [
    { "type": "vcpu_usage" },
    { "type": "memory_info" },
    { "period": "1s", "type": "neuron_hw_counters" }
  ]
}
EOF

# capture STATE FORMAT CMD...: CMD's stdout into $W/STATE.FORMAT
capture() {
	c_state=$1 c_fmt=$2
	shift 2
	"$@" > $W/$c_state.$c_fmt 2> $W/$c_state.$c_fmt.err || {
		echo "$* exited with status $?"
		cat $W/$c_state.$c_fmt.err
		return 1
	}
	[ -s $W/$c_state.$c_fmt ] || { echo "$*: no output"; return 1; }
}

# snapshot STATE N: the three formats, N monitor reports; then every
# captured line to the serial log for the host
snapshot() {
	check "$1: ls -j" capture "$1" ls $NS -j ls
	check "$1: monitor -j -c, $2 reports" capture "$1" monitor \
		$NS -j monitor -c $W/monitor.conf --count "$2"
	check "$1: monitor --prometheus" capture "$1" prom $NS monitor --prometheus
	for f in ls monitor prom; do
		[ -f $W/$1.$f ] && sed "s/^/NSIMCAP $1 $f /" $W/$1.$f
	done
	return 0
}

check "three devices on the bus" test "$(nsim_devices | wc -l)" -ge 3

# --- idle: no process holds a NeuronCore
snapshot idle 1
check "idle: no runtime in the report" sh -c \
	"grep -q '\"neuron_runtime_data\":\[\]' $W/idle.monitor"

# --- loaded: a model held on device 0, another on device 1
P=$W/std.kbin
NSIM_DEV=1 nsim_mkplan $P > /dev/null
PP=$W/prog.kbin
nsim_mkplan $PP prog > /dev/null
rm -f $W/cmd.fifo
mkfifo $W/cmd.fifo
$NS -d 0 load $PP --hold < $W/cmd.fifo > $W/hold0.out 2>&1 &
H0=$!
exec 3> $W/cmd.fifo
$NS -d 1 load $P --hold > $W/hold1.out 2>&1 &
H1=$!
n=0
while [ $n -lt 100 ] && ! { grep -q holding $W/hold0.out && grep -q holding $W/hold1.out; }; do
	sleep 0.1
	n=$((n + 1))
done
check "loaded: holders $H0 (device 0) and $H1 (device 1) hold their models" sh -c \
	"grep -q holding $W/hold0.out && grep -q holding $W/hold1.out"
snapshot loaded 1
check "loaded: both holders are runtimes of the report" sh -c \
	"grep -q '\"pid\":$H0,' $W/loaded.monitor && grep -q '\"pid\":$H1,' $W/loaded.monitor"

# --- executing: the holder of device 0 executes its model back to back
# while three reports are taken
( while :; do echo exec; done ) >&3 &
FEED=$!
snapshot executing 3
kill $FEED 2>/dev/null
wait $FEED 2>/dev/null
check "executing: the holder executed its model" sh -c \
	"grep -q 'finished at' $W/hold0.out"

# --- gone: a holder whose process exited (a child of it keeps the file,
# so its model and NeuronCores 4-5 of device 0 stay the exited pid's), next
# to the live holder of NeuronCore 0: ls names no command for it, ls -j
# an empty one, and a report lists it with the groups that read /proc
# saying so
OP=$W/orphan.kbin
nsim_mkplan $OP > /dev/null
set -- $(nsim_orphan $OP 4)
OWNER=${1:-0} ORPHAN=${2:-0}
check "gone: pid $OWNER loaded on NeuronCore 4 and exited, its child $ORPHAN keeps the file" sh -c \
	"[ $OWNER != 0 ] && [ ! -e /proc/$OWNER ] && $NS -d 0 -j ls | grep -q '{\"pid\":$OWNER,'"
gone_ls() {
	$NS -d 0 ls > $W/gone.ls || return 1
	cat $W/gone.ls
	grep -Eq "^\| 0 +\| [0-9, ]+\| $H0 +\| $NS -d 0 load " $W/gone.ls &&
		grep -Eq "^\| 0 +\| 4, 5 +\| $OWNER +\| +\| [0-9.]+ +\|\$" $W/gone.ls
}
check "gone: ls's process table has the live holder's command and none for pid $OWNER" gone_ls
check "gone: ls -j, the command of pid $OWNER is empty" sh -c \
	"$NS -d 0 -j ls | grep -q '{\"pid\":$OWNER,\"command\":\"\",\"neuron_runtime_version\":\"[0-9.]*\"}'"
gone_monitor() {
	$NS -d 0 -j monitor --period 0.1 --count 1 > $W/gone.monitor || return 1
	[ "$(wc -l < $W/gone.monitor)" = 1 ] || return 1
	grep -q '^{"neuron_runtime_data":\[.*\],"system_data":{.*},"instance_info":{.*},"neuron_hardware_info":{.*}}$' $W/gone.monitor &&
		grep -q "{\"pid\":$OWNER,\"address\":\"[^\"]*\",\"neuron_runtime_tag\":\"$OWNER\",\"error\":\"\",\"report\":{" $W/gone.monitor &&
		grep -q '"loaded_models":\[[^]]*\],"error":"the process is gone[^"]*"}' $W/gone.monitor &&
		grep -q '"vcpu_usage":{"user":0.0,"system":0.0},"error":"/proc/PID/stat of the process is unreadable"}' $W/gone.monitor ||
		{ cut -c1-2000 $W/gone.monitor; return 1; }
}
check "gone: monitor -j lists pid $OWNER, memory_used and its vCPU usage say the process is gone" gone_monitor
kill $ORPHAN 2>/dev/null
n=0
while [ $n -lt 100 ] && $NS -d 0 -j ls | grep -q "\"pid\":$OWNER,"; do
	sleep 0.1
	n=$((n + 1))
done
check "gone: SIGTERM to $ORPHAN closes the file, NeuronCores 4-5 are free" sh -c \
	"! $NS -d 0 -j ls | grep -q '\"pid\":$OWNER,'"

exec 3>&-
kill $H0 $H1 2>/dev/null
wait $H0 $H1 2>/dev/null
check "device 0 back to zero" stats_zero 0
check "device 1 back to zero" stats_zero 1
ktap_finish
