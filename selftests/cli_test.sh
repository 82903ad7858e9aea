#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# cli_test.sh - the neuronsim command in the VM (busybox sh), KTAP output.
# Needs the module loaded (else it skips, exit status 4), neuronsim in
# PATH and nsim_mkplan next to it (libneuronsim.sh runs it); runs every
# command on device $NSIM_DEV (default 0) with -d.  The -j
# output is parsed back in C by netlink_test; here: the --hold scenario
# (load --hold in the background, models -j, the debugfs table, monitor
# showing the unload after SIGINT), resolve into the SBUF gap, every
# subcommand's --help and -j,
# error messages and exit codes, the SVG map, and commands on the stdin
# of load --hold (resolve, read, info, dma against the held model); dma
# PLAN: the queues and a ring range; run PLAN with --write/--read and the
# holder's write, run, wait, read --out; exec PLAN (Documentation/
# execute.rst) with --write/--read, -j, a deadlock, a plan without a
# program, the holder's exec, and on trn2 the trace of mkneff prog's plan
# equal to the host replay's (data/exec, built on the host).

n=0
fails=0
ok() { n=$((n + 1)); echo "ok $n $1"; }
nok() { n=$((n + 1)); fails=$((fails + 1)); echo "not ok $n $1"; }
t() { # t NAME CMD...: the command must succeed
	name=$1; shift
	if "$@" > /tmp/cli.out 2>&1; then ok "$name"; else nok "$name"; sed 's/^/# /' /tmp/cli.out; fi
}
f() { # f NAME RC CMD...: the command must exit with RC
	name=$1; want=$2; shift 2
	"$@" > /tmp/cli.out 2>&1
	rc=$?
	if [ $rc -eq "$want" ]; then ok "$name"; else nok "$name (exit $rc, want $want)"; sed 's/^/# /' /tmp/cli.out; fi
}
# wait_for FILE PATTERN: up to ~10 s for PATTERN to appear in FILE
wait_for() {
	i=0
	while [ $i -lt 100 ]; do
		grep -q "$2" "$1" 2>/dev/null && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

if [ ! -e /dev/neuronsim${NSIM_DEV:-} ]; then
	echo "TAP version 13"
	echo "1..0 # SKIP /dev/neuronsim${NSIM_DEV:-} is absent (is neuronsim.ko loaded?)"
	exit 4
fi
PATH=$(cd "$(dirname "$0")" && pwd):$PATH

# the device under test: $NSIM_DEV (default 0)
NS="neuronsim -d ${NSIM_DEV:-0}"
DBG=/sys/kernel/debug/neuronsim/neuronsim${NSIM_DEV:-0}
export NS

P=/tmp/model.kbin
nsim_mkplan $P || { echo "not ok 1 nsim_mkplan"; exit 1; }
nsim_mkplan /tmp/bad.kbin bad

echo "TAP version 13"

# --- info / help / usage
t "info" $NS info
t "info -j" sh -c '$NS -j info | grep -q "\"arch_name\":\"'"${NSIM_ARCH:-trn2}"'\""'
for c in info ls top load resolve models vars read monitor map dma run exec; do
	$NS $c --help > /tmp/help.out 2>&1 && grep -q "usage: neuronsim .*$c" /tmp/help.out || break
done
[ "$c" = exec ] && grep -q "usage: neuronsim .*exec" /tmp/help.out && ok "--help on every subcommand" || nok "--help on $c"
f "unknown subcommand exits 2" 2 $NS frobnicate
f "load without PLAN exits 2" 2 $NS load
f "load --core junk exits 2" 2 $NS load $P --core x

# --- the --hold scenario
$NS monitor > /tmp/mon.out 2>&1 &
MON=$!
$NS -j monitor --events > /tmp/monj.out 2>&1 &
MONJ=$!
wait_for /tmp/mon.out "monitoring"
sleep 0.3
$NS load $P --hold > /tmp/hold.out 2>&1 &
HOLD=$!
if wait_for /tmp/hold.out "holding"; then ok "load --hold prints the model id"; else nok "load --hold"; cat /tmp/hold.out | sed 's/^/# /'; fi
ID=$(cut -f1 /tmp/hold.out | head -n 1)
echo "# model $ID held by pid $HOLD"
$NS -j models > /tmp/models.json
sed 's/^/# hold: /' /tmp/hold.out
sed 's/^/# models -j: /' /tmp/models.json
$NS info | sed 's/^/# info: /'
if grep -q "\"model_id\":$ID,\"owner_pid\":$HOLD," /tmp/models.json; then ok "models -j lists the held model and its owner pid"; else nok "models -j"; sed 's/^/# /' /tmp/models.json; fi
t "models (table)" sh -c "$NS models | grep -q '^$ID '"
# --- the tools' views of the held model: ls, top, monitor's reports
DEV=${NSIM_DEV:-0}
SYSC=/sys/class/neuronsim/neuronsim$DEV/neuron_core0/stats/memory_usage/device_mem
T0=$(cat $SYSC/tensors/present)
G0=$($NS -j monitor --period 0.1 --count 1 | sed -n 's/.*"neuroncore_memory_usage":{"\([0-9]*\)".*/\1/p')
echo "# held: NeuronCore 0 tensors $T0 bytes (sysfs), global NeuronCore ${G0:-?}"
t "ls: the process table names the holder of the device's NeuronCores" sh -c \
	"$NS ls | grep -q '^| $DEV  *| [0-9, ]*| $HOLD  *| $NS load'"
t "ls -j: neuron-ls's keys, the cores and the holder's command" sh -c \
	"$NS -j ls | grep -q '\"neuron_device\":$DEV,\"bdf\":\"[0-9a-f]*:00.0\",.*\"nc_count\":[0-9]*,\"logical_neuroncore_config\":1,.*\"neuron_processes\":\[{\"pid\":$HOLD,\"command\":\"$NS load $P --hold\",\"neuron_runtime_version\":\"[0-9.]*\"}\]'"
t "top --once: NeuronCore 0 is the holder's, with its model" sh -c \
	"$NS top --once | grep -q '^  0    $HOLD *1 '"
t "monitor -j --period: a neuron-monitor report of the holder, core 0's tensors as sysfs has them" sh -c \
	"test $T0 -gt 0 && $NS -j monitor --period 0.1 --count 1 | grep -q '\"neuron_runtime_data\":\[{\"pid\":$HOLD,\"address\":\"/dev/neuronsim$DEV\",\"neuron_runtime_tag\":\"$HOLD\",\"error\":\"\",\"report\":{.*\"neuroncore_memory_usage\":{\"$G0\":{\"constants\":[0-9]*,\"model_code\":[0-9]*,\"model_shared_scratchpad\":[0-9]*,\"runtime_memory\":[0-9]*,\"tensors\":$T0}.*\"loaded_models\":\[{\"name\":\"neuronsim$DEV-model$ID\",\"uuid\":\"[0-9a-f]*\",\"model_id\":$ID,\"is_running\":true,'"
# report mode: stdout is report lines only, each with the four members
$NS -j monitor --period 0.1 --count 3 > /tmp/monr.out 2> /tmp/monr.err
test "$(wc -l < /tmp/monr.out)" = 3 -a ! -s /tmp/monr.err &&
	test "$(grep -c '^{"neuron_runtime_data":\[.*\],"system_data":{"neuron_hw_counters":{.*},"vcpu_usage":{.*},"memory_info":{.*}},"instance_info":{.*},"neuron_hardware_info":{.*}}$' /tmp/monr.out)" = 3 &&
	ok "monitor -j --count 3: three report lines with the four members, nothing else" ||
	{ nok "monitor -j report lines"; sed 's/^/# /' /tmp/monr.out /tmp/monr.err | cut -c1-300; }
grep -q "\"neuron_hardware_info\":{\"neuron_device_type\":\"trainium[0-9]*\",\"neuron_device_version\":\"v[0-9]\",\"neuroncore_version\":\"v[0-9]\",\"neuron_device_count\":1,\"neuron_device_memory_size\":[1-9][0-9]*,\"neuroncore_per_device_count\":[1-9],\"logical_neuroncore_config\":1,\"error\":\"\"}" /tmp/monr.out &&
	ok "monitor -j: neuron_hardware_info of the device" || { nok "monitor -j: neuron_hardware_info"; head -n 1 /tmp/monr.out | sed 's/^/# /'; }
# without CAP_SYS_ADMIN: no EXEC_DONE, said in the two groups' error,
# every key still there
su -s /bin/sh nobody -c "$NS -j monitor --period 0.1 --count 1" > /tmp/monn.out 2>&1
grep -q "\"pid\":$HOLD,\"address\":\"/dev/neuronsim$DEV\",\"neuron_runtime_tag\":\"$HOLD\",.*\"neuroncore_counters\":{\"period\":[0-9.e-]*,\"neuroncores_in_use\":{\"$G0\":{\"neuroncore_utilization\":0.0,\"flops\":0}\(,\"[0-9]*\":{\"neuroncore_utilization\":0.0,\"flops\":0}\)*},\"error\":\"executions are not seen: [^\"]*CAP_SYS_ADMIN\"}" /tmp/monn.out &&
	grep -q '"execution_stats":{"period":[0-9.e-]*,"error_summary":{"generic":0,.*"latency_stats":{"total_latency":null,"device_latency":null},"error":"executions are not seen: [^"]*CAP_SYS_ADMIN"}' /tmp/monn.out &&
	ok "monitor -j as nobody: the execution groups say CAP_SYS_ADMIN, with every key" ||
	{ nok "monitor -j as nobody"; cut -c1-600 /tmp/monn.out | sed 's/^/# /'; }
$NS monitor --prometheus once > /tmp/prom.out 2>&1
grep -q '^# HELP neuroncore_memory_usage_tensors ' /tmp/prom.out &&
	grep -q '^# TYPE neuroncore_memory_usage_tensors gauge$' /tmp/prom.out &&
	grep -q "^neuroncore_memory_usage_tensors{instance_name=\"[^\"]*\",instance_id=\"[^\"]*\",instance_type=\"[^\"]*\",availability_zone=\"[^\"]*\",region=\"[^\"]*\",subnet_id=\"[^\"]*\",runtime_tag=\"$HOLD\",memory_location=\"None\",neuroncore=\"$G0\"} $T0\$" /tmp/prom.out &&
	grep -q "^neuron_runtime_memory_used_bytes{.*,runtime_tag=\"$HOLD\",memory_location=\"neuron_device\"} [1-9]" /tmp/prom.out &&
	grep -q '^instance_info{.*} 1$' /tmp/prom.out &&
	ok "monitor --prometheus once: the exporter's series, core 0's tensors by label" ||
	{ nok "monitor --prometheus once"; sed 's/^/# /' /tmp/prom.out | head -n 40; }
echo '{"period": "1x"}' > /tmp/badmon.json
f "monitor -c with a bad period exits 2" 2 $NS monitor -c /tmp/badmon.json
grep -q 'period: "1x": not a period' /tmp/cli.out && ok "monitor -c: the message names the key and the value" ||
	{ nok "monitor -c bad period message"; sed 's/^/# /' /tmp/cli.out; }
f "top -j is refused (exit 2)" 2 $NS -j top --once
echo "# debugfs models/$ID:"
if cat $DBG/models/$ID/info > /tmp/dbg.out 2>&1; then
	sed 's/^/#   /' /tmp/dbg.out; ok "debugfs models/$ID/info"
else nok "debugfs models/$ID/info"; fi
if cat $DBG/models/$ID/sg0/memrefs > /tmp/dbg.out 2>&1 && grep -q weight /tmp/dbg.out; then
	sed 's/^/#   /' /tmp/dbg.out | head -n 20; ok "debugfs models/$ID/sg0/memrefs table"
else nok "debugfs memrefs"; fi
t "vars MODEL (netlink)" sh -c "$NS vars $ID | grep -q ' weight\$'"
t "vars -j MODEL" sh -c "$NS -j vars $ID | grep -q '\"name\":\"weight\"'"
t "resolve MODEL weight+16:8" sh -c "$NS resolve $ID weight+16:8 | grep -q '0x'"
f "resolve MODEL past the end is ERANGE (exit 1)" 1 $NS resolve $ID "weight+0x100000:1"
grep -q ERANGE /tmp/cli.out && ok "resolve ERANGE message" || nok "resolve ERANGE message"
# the runtime's own words, then ours (neuronsim_resolve_strerror)
grep -q "(ERANGE): invalid offset in weight, 4196 < (1048576 + 1); the access ends at byte 1048577, past the 4196 bytes of 'weight' (MR_BUFFER)" /tmp/cli.out &&
	ok "resolve ERANGE message in libnrt's words" || { nok "resolve ERANGE message in libnrt's words"; sed 's/^/# /' /tmp/cli.out; }
# the MR_SB window: partition 127's last byte resolves, the next is in the
# gap past the partition and the message names the partition
PS=$($NS -j info | sed -n 's/.*"sbuf_partition_size":\([0-9]*\).*/\1/p')
t "resolve MODEL the last byte of SBUF partition 127" $NS resolve $ID "state_buffer+$((127 * 262144 + PS - 1)):1"
f "resolve MODEL into the SBUF gap is ERANGE (exit 1)" 1 $NS resolve $ID "state_buffer+$((127 * 262144 + PS)):1"
grep -q "start at byte $PS of SBUF partition 127, in the gap past its $PS bytes: the SBUF window holds no SBUF byte there (neuronsim's rule, not libnrt's.*(ERANGE)" /tmp/cli.out &&
	! grep -q "invalid offset" /tmp/cli.out &&
	ok "SBUF gap message names the partition, in the simulator's words" || { nok "SBUF gap message"; sed 's/^/# /' /tmp/cli.out; }
f "resolve MODEL of an index list is ENODATA (exit 1)" 1 $NS resolve $ID list
grep -q "(ENODATA): Variable list is not staged in HBM; 'list' (MR_LIST)" /tmp/cli.out &&
	ok "resolve ENODATA message in libnrt's words" || { nok "resolve ENODATA message in libnrt's words"; sed 's/^/# /' /tmp/cli.out; }
$NS -j resolve $ID "weight+0x100000:1" > /tmp/clij.out 2>/dev/null
grep -q '"message":"invalid offset in weight, 4196 < (1048576 + 1);' /tmp/clij.out &&
	ok "resolve -j: the message" || { nok "resolve -j: the message"; sed 's/^/# /' /tmp/clij.out; }
f "resolve MODEL unknown name (exit 1)" 1 $NS resolve $ID nosuchvar
grep -q "no variable named 'nosuchvar'" /tmp/cli.out && ok "unknown name message" || nok "unknown name message"
f "read MODEL explains the ownership rule (exit 1)" 1 $NS read $ID weight
t "map MODEL -o" $NS map $ID -o /tmp/map_model.svg
# NeuronCores 0-1 are the holder's
t "info: NeuronCore 0 is the holder's" sh -c "$NS info | grep -q 'NeuronCore 0: pid $HOLD, 1 models'"
t "info -j: core 0's owner" sh -c "$NS -j info | grep -q '{\"core\":0,\"owner_pid\":$HOLD,\"models\":1}'"
t "models -j: the model's cores" sh -c "$NS -j models | grep -q '\"model_id\":$ID,.*\"cores\":\[0,1\]'"
t "debugfs cores: 0 and 1 are the holder's" sh -c "grep -q '^0	$HOLD	1\$' $DBG/cores && grep -q '^1	$HOLD	1\$' $DBG/cores"
f "load on the holder's cores from another process: EBUSY (exit 1)" 1 $NS load $P --core 0
grep -q EBUSY /tmp/cli.out && grep -q "NeuronCore(s) not available: NeuronCore 0 is reserved by process $HOLD" /tmp/cli.out &&
	ok "EBUSY names the core and its owner" || { nok "EBUSY message"; sed 's/^/# /' /tmp/cli.out; }
ncores=$($NS info | grep -c '^  sbuf')
if [ "$ncores" -gt 2 ]; then
	t "load --core any takes the first free run (NeuronCore 2)" sh -c "echo info | $NS load $P --core any --exit-on-eof | grep -q '^model [0-9]*: 2 subgraphs from NeuronCore 2, '"
else
	f "load --core any with every core held: EBUSY (exit 1)" 1 $NS load $P --core any
	grep -q EBUSY /tmp/cli.out && grep -q "no free run of cores" /tmp/cli.out && ok "--core any: no free run named" || { nok "--core any message"; sed 's/^/# /' /tmp/cli.out; }
fi
kill -INT $HOLD
wait $HOLD
HRC=$?
[ $HRC -eq 0 ] && grep -q "model $ID unloaded" /tmp/hold.out && ok "SIGINT unloads the held model" || nok "SIGINT (exit $HRC)"
if wait_for /tmp/mon.out "unloaded model $ID pid $HOLD"; then ok "monitor shows the unload"; else nok "monitor shows the unload"; fi
sed 's/^/# monitor: /' /tmp/mon.out
if wait_for /tmp/monj.out "\"event\":\"unloaded\",\"owner_pid\":$HOLD,\"model_id\":$ID"; then ok "monitor -j shows the unload"; else nok "monitor -j"; sed 's/^/# /' /tmp/monj.out; fi
grep -q "\"event\":\"loaded\",\"owner_pid\":$HOLD,\"model_id\":$ID,\"target_gen\":[0-9]*,\"num_subgraphs\":2,\"first_core\":0,\"num_vars\":[0-9]*,\"hbm_bytes\":[0-9]*,\"scratchpad_bytes\":[0-9]*,\"device\":$DEV}" /tmp/monj.out &&
	ok "monitor -j: every field of the loaded event" || { nok "monitor -j: the loaded event's fields"; sed 's/^/# /' /tmp/monj.out; }
t "models after the unload" sh -c "! $NS models | grep -q '^$ID '"

# --- failures are reported, and seen by monitor
f "load of a bad plan exits 1" 1 $NS load /tmp/bad.kbin
grep -q "reason" /tmp/cli.out && ok "load failure names the reason" || nok "load failure message"
wait_for /tmp/mon.out "load_failed" && ok "monitor shows load_failed" || nok "monitor load_failed"
wait_for /tmp/monj.out '"event":"load_failed",.*"field":[0-9]*,"field_text":"[a-z_]*","subgraph":-1,"record":-1' &&
	ok "monitor -j: load_failed with its field" || { nok "monitor -j load_failed"; sed 's/^/# /' /tmp/monj.out; }
kill -TERM $MON $MONJ
wait $MON $MONJ

# --- commands on the holder's stdin: the held model itself is resolved
# and read (bytes move only through the loading fd), no second load.
# What read PLAN says, first: while the holder holds cores 0-1 another
# process may not load there (on trn1 that is every core)
$NS read $P staged+0:32 > /tmp/readp.out 2>&1
want_hex=$($NS -j read $P weight+4:4 | sed -n 's/.*"hex":"\([0-9a-f]*\)".*/\1/p')
rm -f /tmp/cmd.fifo
mkfifo /tmp/cmd.fifo
$NS load $P --hold < /tmp/cmd.fifo > /tmp/holdc.out 2>&1 &
HOLDC=$!
exec 3> /tmp/cmd.fifo
if wait_for /tmp/holdc.out "holding"; then ok "load --hold with commands on stdin"; else nok "load --hold (stdin)"; sed 's/^/# /' /tmp/holdc.out; fi
CID=$(cut -f1 /tmp/holdc.out | head -n 1)
# ask N CMD: send CMD, then a marker; wait for the marker
ask() {
	echo "$2" >&3
	echo "echo @@done $1" >&3
	wait_for /tmp/holdc.out "^@@done $1\$"
}
ask 1 "resolve weight+16:8 sg1/#1 ptr_weight" && ok "stdin resolve answered" || nok "stdin resolve answered"
want=$($NS resolve $CID weight+16:8 | cut -f3)
got=$(grep '^weight+16:8	' /tmp/holdc.out | cut -f3)
[ -n "$got" ] && [ "$got" = "$want" ] && ok "stdin resolve = netlink table of model $CID ($got)" || nok "stdin resolve: '$got', netlink '$want'"
grep -q '^sg1/#1	sg1 #1 MR_BUFFER	0x' /tmp/holdc.out && grep -q '^ptr_weight	sg0 #7 MR_PTR	0x' /tmp/holdc.out &&
	ok "stdin resolve: several references" || nok "stdin resolve: several references"
ask 2 "read staged +0:32" && ok "stdin read answered" || nok "stdin read answered"
sed -n '/^sg0\/staged #2/,/^00000010/p' /tmp/holdc.out > /tmp/readh.out
if [ -s /tmp/readh.out ] && cmp -s /tmp/readh.out /tmp/readp.out; then ok "stdin read: the held model's bytes = read PLAN"; else nok "stdin read"; sed 's/^/# /' /tmp/readh.out /tmp/readp.out; fi
ask 3 "read -j weight+4:4" && ok "stdin read -j answered" || nok "stdin read -j answered"
want=$want_hex
got=$(grep '"name":"weight"' /tmp/holdc.out | sed -n 's/.*"hex":"\([0-9a-f]*\)".*/\1/p')
[ -n "$got" ] && [ "$got" = "$want" ] && ok "stdin read -j hex = read PLAN ($got)" || nok "stdin read -j: '$got', want '$want'"
ask 4 "info" && grep -q "^model $CID: 2 subgraphs from NeuronCore 0, 17 vars" /tmp/holdc.out &&
	ok "stdin info" || nok "stdin info"
ask 5 "resolve weight+0x100000:1" && grep -q "resolve: 'weight+0x100000:1' .*(ERANGE)" /tmp/holdc.out &&
	ok "stdin resolve past the end: ERANGE, holder goes on" || nok "stdin resolve ERANGE"
ask 6 "frobnicate" && grep -q "unknown or malformed command 'frobnicate'" /tmp/holdc.out &&
	ok "stdin unknown command named" || nok "stdin unknown command"
ask 7 "read nosuchvar" && grep -q "no variable named 'nosuchvar'" /tmp/holdc.out &&
	ok "stdin read unknown name" || nok "stdin read unknown name"
ask 8 "dma" && grep -q '^0   0   qSPIO0  *in  *sp  *2  *2  *8  *8  *2 ' /tmp/holdc.out &&
	ok "stdin dma: the held model's queue" || nok "stdin dma"
ask 9 "dma --ring sg0/qSPIO0 --from 3 --count 1" &&
	grep -q '^3  *0  *512  *LAST|INT  *0x[0-9a-f]*  *0  *0  *input0  *1536$' /tmp/holdc.out &&
	ok "stdin dma --ring: M2S 3 is input0's last run" || nok "stdin dma --ring"
n_models=$($NS -j models | grep -o '"model_id"' | wc -l)
[ "$n_models" = 1 ] && ok "one model loaded while the holder answers" || nok "models loaded: $n_models"
exec 3>&-
sleep 0.5
kill -0 $HOLDC 2>/dev/null && $NS models | grep -q "^$CID " &&
	ok "after end of input the model is still held" || nok "holder gone at end of input"
kill -TERM $HOLDC
wait $HOLDC
HRC=$?
grep -q "model $CID unloaded (SIGTERM)" /tmp/holdc.out && ok "SIGTERM unloads after the commands" || nok "SIGTERM unload"
[ $HRC -eq 1 ] && ok "exit status 1: some commands failed" || nok "holder exit status $HRC, want 1"
sed 's/^/# holder: /' /tmp/holdc.out | cut -c1-160
t "models after the holder" sh -c "! $NS models | grep -q '^$CID '"

printf 'resolve #1\ninfo\n' | $NS load $P --exit-on-eof > /tmp/eof.out 2>&1
rc=$?
[ $rc -eq 0 ] && grep -q '^#1	sg0 #1 MR_BUFFER	0x' /tmp/eof.out && grep -q 'unloaded (end of input)' /tmp/eof.out &&
	ok "--exit-on-eof runs the commands, unloads at end of input" || { nok "--exit-on-eof (exit $rc)"; sed 's/^/# /' /tmp/eof.out; }
f "--exit-on-eof: a failed command gives exit 1" 1 sh -c "echo 'resolve weight+0x100000:1' | $NS load $P --exit-on-eof"
echo 'resolve weight' | $NS -j load $P --exit-on-eof > /tmp/eofj.out 2>&1
grep -q '"hold":true' /tmp/eofj.out && grep -q '"source":"plan","results":\[{"var":"weight"' /tmp/eofj.out &&
	grep -q '"why":"end of input"' /tmp/eofj.out && ok "-j load --exit-on-eof: JSON lines" || { nok "-j load --exit-on-eof"; sed 's/^/# /' /tmp/eofj.out; }
t "models empty after --exit-on-eof" sh -c "! $NS models | grep -q '^[0-9]'"

# --- PLAN forms
t "resolve PLAN" sh -c "$NS -j resolve $P weight sg1/w1+8:8 '#1' | grep -q '\"source\":\"plan\"'"
t "read PLAN hexdump" sh -c "$NS read $P staged+0:32 | grep -q '^00000000'"
# the whole SBUF window of a core in one read: the gaps past the
# partitions read as zeros
$NS read $P state_buffer+0:33554432 > /tmp/cli.out 2>&1
grep -q '^sg0/state_buffer #0 MR_SB, bytes 0..33554432 of 33554432$' /tmp/cli.out &&
	grep -qx '[*]' /tmp/cli.out && grep -q '^01fffff0  00 00 ' /tmp/cli.out &&
	[ "$(wc -l < /tmp/cli.out)" -lt 100 ] &&
	ok "read PLAN of the whole SBUF window (32 MiB, gaps as zeros, equal lines as *)" || { nok "read PLAN of the whole SBUF window"; head -n 5 /tmp/cli.out | sed 's/^/# /'; }
# a pointer table's size is its staged table's bytes (4 rows x 8), not the
# record's 16
$NS read $P table > /tmp/cli.out 2>&1
grep -q '^sg0/table #11 MR_PTR_TABLE, bytes 0..32 of 32$' /tmp/cli.out && grep -q '^00000010' /tmp/cli.out &&
	ok "read PLAN of a pointer table: its 32 bytes" || { nok "read PLAN of a pointer table"; sed 's/^/# /' /tmp/cli.out; }
$NS vars $P > /tmp/cli.out 2>&1
grep -q '^0   11      MR_PTR_TABLE       32 ' /tmp/cli.out &&
	ok "vars PLAN: a pointer table's 32 bytes" || { nok "vars PLAN: pointer table size"; sed 's/^/# /' /tmp/cli.out; }
$NS dma $P > /tmp/cli.out 2>&1
grep -q '^0   0   qSPIO0  *in  *sp  *2  *2  *8  *8  *2  *0x[0-9a-f]*  *0x[0-9a-f]*  *8192$' /tmp/cli.out &&
	ok "dma PLAN: the queue, its counts and rings" || { nok "dma PLAN"; sed 's/^/# /' /tmp/cli.out; }
$NS dma $P --ring sg0/qSPIO0 --count 2 > /tmp/cli.out 2>&1
grep -q '^sg0/qSPIO0 M2S: descriptors 0..1 of 8$' /tmp/cli.out &&
	grep -q '^0  *0  *512  *FIRST  *0x[0-9a-f]*  *0  *0  *input0  *0$' /tmp/cli.out &&
	grep -q '^sg0/qSPIO0 S2M: descriptors 0..1 of 8$' /tmp/cli.out &&
	grep -q '^1  *0  *512  *-  *0x[0-9a-f]*  *0  *0  *state_buffer  *262144$' /tmp/cli.out &&
	ok "dma PLAN --ring: both sides with their variables" || { nok "dma PLAN --ring"; sed 's/^/# /' /tmp/cli.out; }
$NS -j dma $P --ring sg0/qSPIO0 --from 7 --count 5 > /tmp/cli.out 2>&1
grep -q '"m2s":\[{"index":7,.*"flags":"LAST|INT"' /tmp/cli.out && grep -q '"var":"output0"' /tmp/cli.out &&
	ok "-j dma --ring: the last descriptors, LAST|INT" || { nok "-j dma --ring"; sed 's/^/# /' /tmp/cli.out; }
f "dma --ring of an unknown queue exits 1" 1 $NS dma $P --ring sg0/nosuch
f "dma --from without --ring exits 2" 2 $NS dma $P --from 1
f "dma MODEL exits 1 (another fd's model)" 1 $NS dma 1
# --- run: the DMA engine (qSPIO0: input0 -> 4 SBUF partitions -> output0)
head -c 2048 /dev/urandom > /tmp/in.bin
$NS run $P --queue sg0/qSPIO0 --write input0=/tmp/in.bin --read output0+0:2048=/tmp/out.bin \
	--read state_buffer+262144:512=/tmp/sb1.bin > /tmp/cli.out 2>&1
grep -q '^wrote 2048 bytes to sg0/input0 at +0 from /tmp/in.bin' /tmp/cli.out &&
	grep -q '^sg0/qSPIO0: done, 2 of 2 blocks, 2 of 2 descriptors, 16 UDMA descriptors, 4096 bytes in ' /tmp/cli.out &&
	grep -q 'a RUN moves bytes on the DMA engine only' /tmp/cli.out && cmp -s /tmp/in.bin /tmp/out.bin &&
	tail -c +513 /tmp/in.bin | head -c 512 | cmp -s - /tmp/sb1.bin &&
	ok "run PLAN --write --read: input0 through partition 1 into output0" ||
	{ nok "run PLAN --write --read"; sed 's/^/# /' /tmp/cli.out; }
# the engine's sysfs counters (Documentation/sysfs.rst): one more run,
# its 4096 bytes and 2 descriptors, summed over the device's NeuronCores
sysfs_dma() {
	cat /sys/class/neuronsim/neuronsim${NSIM_DEV:-0}/neuron_core*/stats/other_info/dma_$1/$2 |
		awk '{ s += $1 } END { print s + 0 }'
}
b0=$(sysfs_dma bytes total); d0=$(sysfs_dma descriptors present); r0=$(sysfs_dma runs total)
$NS run $P --queue sg0/qSPIO0 > /dev/null 2>&1
test "$(sysfs_dma bytes total)" = $((b0 + 4096)) -a "$(sysfs_dma descriptors present)" = $((d0 + 2)) \
	-a "$(sysfs_dma runs total)" = $((r0 + 1)) &&
	ok "sysfs other_info/dma_{bytes,descriptors,runs}: one run of qSPIO0" ||
	nok "sysfs dma counters: bytes $b0 -> $(sysfs_dma bytes total), descriptors $d0 -> $(sysfs_dma descriptors present), runs $r0 -> $(sysfs_dma runs total)"
# busy time and errors too; top shows the counters per NeuronCore and,
# over --period, the rates (an idle engine: 0 B/s, 0.0%)
ksys=/sys/class/neuronsim/neuronsim${NSIM_DEV:-0}
bz=$(sysfs_dma busy_ns total)
test "$bz" -gt 0 -a "$(sysfs_dma errors present)" = "$(sysfs_dma errors total)" &&
	ok "sysfs other_info/dma_busy_ns counts the runs' time, dma_errors is there" ||
	nok "sysfs dma_busy_ns ($bz) / dma_errors"
c=0
while [ -e $ksys/neuron_core$c ] && [ "$(cat $ksys/neuron_core$c/stats/other_info/dma_runs/total)" = 0 ]; do
	c=$((c + 1))
done
o=$ksys/neuron_core$c/stats/other_info
dma_row="$c +[0-9.]+ [KMG]?i?B +$(cat $o/dma_descriptors/total) +$(cat $o/dma_runs/total) +$(cat $o/dma_errors/total) +"
$NS top --once > /tmp/top.out 2>&1
grep -q '^  DMA engine (RUN and EXECUTE; the compute engines.* work is in exec.s results)$' /tmp/top.out &&
	sed -n '/^  DMA engine/,$p' /tmp/top.out | grep -Eq "^  ${dma_row}- +-$" &&
	ok "top --once: NeuronCore $c's DMA row has sysfs's descriptors, runs and errors, no rates" ||
	{ nok "top --once DMA rows (want '$dma_row')"; sed 's/^/# /' /tmp/top.out; }
$NS top --once --period 0.2 > /tmp/top.out 2>&1
sed -n '/^  DMA engine/,$p' /tmp/top.out | grep -Eq "^  ${dma_row}0 B/s +0\.0%$" &&
	ok "top --once --period: an idle engine's rates, 0 B/s and 0.0%" ||
	{ nok "top --once --period DMA rates"; sed 's/^/# /' /tmp/top.out; }
# a SIGINT while --once --period samples: the frame is still printed
$NS top --once --period 5 > /tmp/top.out 2>&1 &
TOP=$!
sleep 0.5
kill -INT $TOP
wait $TOP
rc=$?
test $rc = 0 && grep -q '^  DMA engine' /tmp/top.out &&
	ok "top --once --period: SIGINT while sampling still prints the frame" ||
	{ nok "top --once --period with SIGINT (exit $rc)"; sed 's/^/# /' /tmp/top.out; }
$NS -j run $P --queue qSPIO0 > /tmp/cli.out 2>&1
grep -q '"queue":"qSPIO0"' /tmp/cli.out && grep -q '"state":"done"' /tmp/cli.out &&
	grep -q '"status":0' /tmp/cli.out && grep -q '"blocks":2' /tmp/cli.out &&
	ok "-j run: the queue's result" || { nok "-j run"; sed 's/^/# /' /tmp/cli.out; }
f "run without --queue exits 2" 2 $NS run $P
f "run of an unknown queue exits 1" 1 $NS run $P --queue sg0/nosuch
head -c 1048577 /dev/zero > /tmp/big.bin
f "run --write of a file larger than its variable exits 1" 1 $NS run $P --queue qSPIO0 --write input0=/tmp/big.bin
printf 'write input0 /tmp/in.bin\nrun sg0/qSPIO0\nwait\nread output0 +0:2048 --out /tmp/out2.bin\n' |
	$NS load $P --exit-on-eof > /tmp/cli.out 2>&1
grep -q '^started 1 queue$' /tmp/cli.out && grep -q '^sg0/qSPIO0: done, 2 of 2 blocks' /tmp/cli.out &&
	grep -q '^read 2048 bytes of sg0/output0 at +0 into /tmp/out2.bin' /tmp/cli.out &&
	cmp -s /tmp/in.bin /tmp/out2.bin && ok "load --hold: write, run, wait, read --out" ||
	{ nok "load --hold: run commands"; sed 's/^/# /' /tmp/cli.out; }
# --- exec: the standard plan's program, a deadlock, the trace
PP=/tmp/prog.kbin
nsim_mkplan $PP prog
# its virtual time: the blocks' 2048 and 2048 bytes at the generation's DMA
# rate (Documentation/execute.rst, "Virtual time")
case ${NSIM_ARCH:-trn2} in trn1) VT=1.162 ;; *) VT=1.164 ;; esac
nsim_mkplan /tmp/deadlock.kbin deadlock
$NS exec $PP --write input0=/tmp/in.bin --read output0+0:2048=/tmp/out3.bin > /tmp/cli.out 2>&1
rc=$?
test $rc = 0 && grep -q "^sg00 (subgraph 0) on NeuronCore [0-9]*: finished at $VT us" /tmp/cli.out &&
	grep -q '^  sp: 3 of 3 instructions (compute 1, wait 0, trigger 2, dma 0), busy 0.064 us, 2 DMA blocks, 2 descriptors, 4096 bytes$' /tmp/cli.out &&
	grep -q '^  queue qSPIO0 (sp): 2 of 2 blocks, 2 descriptors, 4096 bytes' /tmp/cli.out &&
	grep -q '^  semaphores: 1=1 24=2 25=2$' /tmp/cli.out && cmp -s /tmp/in.bin /tmp/out3.bin &&
	ok "exec PLAN --write --read: finished, counts, semaphores; input0 went through SBUF into output0" ||
	{ nok "exec PLAN (exit $rc)"; sed 's/^/# /' /tmp/cli.out; }
$NS -j exec $PP > /tmp/cli.out 2>&1
grep -q "\"result\":\"finished\",\"status\":0,\"finished\":true,\"virtual_ns\":${VT%.*}${VT#*.}," /tmp/cli.out &&
	grep -q '"semaphores":{"1":1,"24":2,"25":2}' /tmp/cli.out &&
	ok "-j exec: the result, the semaphores that are not 0 by index" || { nok "-j exec"; sed 's/^/# /' /tmp/cli.out; }
f "exec of a deadlock exits 1" 1 $NS exec /tmp/deadlock.kbin
grep -q '^  dve: 0 of 1 instructions .*; waits at instruction 0 (opcode 0x41) for semaphore 4 >= 2, it is 1$' /tmp/cli.out &&
	grep -q 'deadlock (Resource deadlock avoided)' /tmp/cli.out &&
	ok "exec of a deadlock names engine, instruction, opcode, semaphore, wanted and current value" ||
	{ nok "exec deadlock report"; sed 's/^/# /' /tmp/cli.out; }
f "exec of a plan without a program exits 1" 1 $NS exec $P
grep -q 'No data available.*no program' /tmp/cli.out && ok "exec without a program: ENODATA, said" ||
	{ nok "exec without a program message"; sed 's/^/# /' /tmp/cli.out; }
printf 'exec\nexec --trace /tmp/hold.trace.json\n' | $NS load $PP --exit-on-eof > /tmp/cli.out 2>&1
test "$(grep -c '^model [0-9]*: finished: 2 subgraphs' /tmp/cli.out)" = 2 &&
	grep -q '"traceEvents"' /tmp/hold.trace.json && ok "load --hold: exec, exec --trace" ||
	{ nok "load --hold: exec"; sed 's/^/# /' /tmp/cli.out; }
ED=$(cd "$(dirname "$0")" && pwd)/data/exec
if [ "${NSIM_ARCH:-trn2}" = trn2 ] && [ -f $ED/prog.trace.json ]; then
	$NS exec $ED/prog.kbin --trace /tmp/exec.trace.json > /tmp/cli.out 2>&1
	sed 's/"source":"[^"]*"//' /tmp/exec.trace.json > /tmp/a.json
	sed 's/"source":"[^"]*"//' $ED/prog.trace.json > /tmp/b.json
	cmp -s /tmp/a.json /tmp/b.json &&
		ok "exec --trace of mkneff prog's plan equals the host replay's trace ($(wc -c < /tmp/a.json) bytes)" ||
		{ nok "exec --trace differs from the replay's"; sed 's/^/# /' /tmp/cli.out; diff /tmp/a.json /tmp/b.json | head -n 20 | sed 's/^/# /'; }
	f "exec of mkneff's deadlock NEFF exits 1" 1 $NS -j exec $ED/deadlock.kbin
	grep -q '"engine":"dve",.*"state":"waiting",.*"waiting":{"index":0,"opcode":65,"semaphore":4,"wanted":2,"current":1}' /tmp/cli.out &&
		grep -q '"errno":"EDEADLK"' /tmp/cli.out &&
		ok "-j exec of a NEFF whose wait is never met: EDEADLK, DVE's instruction 0 (0x41) waits for semaphore 4 >= 2, it is 1" ||
		{ nok "-j exec of the deadlock NEFF"; sed 's/^/# /' /tmp/cli.out; }
fi
# --- monitor's report of executions (root receives EXEC_DONE): a holder
# tagged with NEURON_PROCESS_TAG executes 3 times while monitor -j, a
# configuration selecting it by its tag, and the HTTP exposition run
printf '{"period": "500ms", "neuron_runtimes": [{"tag_filter": "^cli_", "metrics": [{"type": "execution_stats"}, {"type": "neuroncore_counters"}]}], "system_metrics": [{"type": "memory_info"}]}\n' > /tmp/monx.json
$NS -j monitor --period 0.5 > /tmp/monx.out 2> /tmp/monx.err &
MONX=$!
$NS monitor -c /tmp/monx.json > /tmp/monc.out 2> /tmp/monc.err &
MONC=$!
ip link set lo up 2> /dev/null
PORT=19108
$NS monitor --prometheus --port $PORT --period 0.5 > /tmp/monh.out 2>&1 &
MONH=$!
wait_for /tmp/monx.out neuron_runtime_data
rm -f /tmp/monx.fifo
mkfifo /tmp/monx.fifo
NEURON_PROCESS_TAG=cli_app $NS load $PP --hold < /tmp/monx.fifo > /tmp/holdx.out 2>&1 &
HOLDX=$!
exec 4> /tmp/monx.fifo
wait_for /tmp/holdx.out holding
printf 'exec\nexec\nexec\n' >&4
i=0
while [ $i -lt 100 ] && [ "$(grep -c '^model [0-9]*: finished' /tmp/holdx.out)" -lt 3 ]; do
	sleep 0.1
	i=$((i + 1))
done
# two more periods: the executions are in a report
sleep 1.2
wget -q -O /tmp/monh.txt http://127.0.0.1:$PORT/metrics > /tmp/wget.out 2>&1
kill -TERM $MONX $MONC $MONH
wait $MONX $MONC $MONH
exec 4>&-
kill -TERM $HOLDX
wait $HOLDX
sed 's/^/# holder: /' /tmp/holdx.out | cut -c1-160
completed=$(grep -o "\"pid\":$HOLDX,[^]]*" /tmp/monx.out | sed -n 's/.*"execution_summary":{"completed":\([0-9]*\),.*/\1/p' | awk '{ s += $1 } END { print s + 0 }')
test "$completed" = 3 -a ! -s /tmp/monx.err &&
	ok "monitor -j: execution_stats of the holder count its 3 executions" ||
	{ nok "monitor -j: executions counted $completed, want 3"; sed 's/^/# /' /tmp/monx.err; grep -o "\"pid\":$HOLDX,.*" /tmp/monx.out | cut -c1-400 | sed 's/^/# /'; }
grep -q "\"pid\":$HOLDX,\"address\":\"/dev/neuronsim$DEV\",\"neuron_runtime_tag\":\"cli_app\",.*\"total_latency\":{\"p0\":[0-9.e-]*,\"p1\":[0-9.e-]*,\"p25\":[0-9.e-]*,\"p50\":[0-9.e-]*,\"p75\":[0-9.e-]*,\"p99\":[0-9.e-]*,\"p100\":[0-9.e-]*},\"device_latency\":{\"p0\":" /tmp/monx.out &&
	ok "monitor -j: NEURON_PROCESS_TAG is the runtime tag; the latency percentiles of a period with executions" ||
	{ nok "monitor -j: tag and latency"; grep -o "\"pid\":$HOLDX,.*" /tmp/monx.out | cut -c1-600 | sed 's/^/# /'; }
grep -o "\"pid\":$HOLDX,[^]]*" /tmp/monx.out | grep -Eq '"neuroncore_utilization":(0\.0*[1-9]|[1-9])' &&
	ok "monitor -j: a NeuronCore of the holder was busy (utilization above 0)" ||
	{ nok "monitor -j: utilization"; grep -o "\"neuroncores_in_use\":{[^}]*}" /tmp/monx.out | sed 's/^/# /'; }
grep -q "\"pid\":$HOLDX,.*\"report\":{\"neuroncore_counters\":{.*},\"execution_stats\":{.*}}}\],\"system_data\":{\"memory_info\":{[^{}]*}},\"instance_info\"" /tmp/monc.out &&
	! grep -Eq '"memory_used"|"vcpu_usage"|"neuron_hw_counters"' /tmp/monc.out &&
	test "$(grep -o '"completed":[0-9]*' /tmp/monc.out | cut -d: -f2 | awk '{ s += $1 } END { print s + 0 }')" = 3 &&
	ok "monitor -c: the tag filter selects the holder, only the configured groups" ||
	{ nok "monitor -c"; sed 's/^/# /' /tmp/monc.err; cut -c1-400 /tmp/monc.out | sed 's/^/# /'; }
grep -q '^# TYPE execution_status_total counter$' /tmp/monh.txt &&
	grep -q '^execution_status_total{.*,runtime_tag="cli_app",status_type="completed"} 3$' /tmp/monh.txt &&
	grep -q '^neuroncore_utilization_ratio{.*,runtime_tag="cli_app",neuroncore="[0-9]*"} ' /tmp/monh.txt &&
	test ! -s /tmp/monh.out &&
	ok "monitor --prometheus --port: HTTP on 127.0.0.1, the counters add up the executions" ||
	{ nok "monitor --prometheus --port"; sed 's/^/# /' /tmp/wget.out /tmp/monh.out; sed 's/^/# /' /tmp/monh.txt | grep -v '^# # ' | head -n 30; }
t "map PLAN -o map.svg" sh -c "$NS map $P -o /tmp/map.svg && grep -q '</svg>' /tmp/map.svg && grep -c '<title>' /tmp/map.svg"

echo "1..$n"
echo "# $fails failed"
[ $fails -eq 0 ]
