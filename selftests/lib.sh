# SPDX-License-Identifier: GPL-2.0
# lib.sh - helpers of the shell selftests (busybox sh): numbered KTAP
# results, programs run as subtests, the module and the neuronsim bus.
#
# A script sources it, starts with nsim_test_start (nsim_require_module,
# its programs on PATH, ktap_header), reports each result with check or
# run_tap (numbered "ok N NAME" / "not ok N NAME"), and ends with
# ktap_finish, which prints the plan "1..N" and exits 1 when a result
# failed.  A program run by run_tap is a subtest: its own KTAP output is
# printed below, each line prefixed "# ", before its result line.
# nsim_require_module skips the whole script (KTAP "1..0 # SKIP", exit
# status 4, the kselftest skip code) when the module or its device is
# absent.
#
# Environment:
#   NSIM_MARKS   a file (scripts/vm.sh's run: /dev/console) where the
#                "# --- running NAME" line of each step goes as it
#                starts, so that a run the kernel ends names the step it
#                was in; unset, no marks are written
#   NSIM_DEV     the device a test program uses (its index; unset:
#                /dev/neuronsim, device 0)

ktap_n=0
ktap_fails=0

ktap_header() {
	echo "TAP version 13"
}

# ktap_result ok|fail|skip NAME [REASON]
ktap_result() {
	ktap_n=$((ktap_n + 1))
	case $1 in
	ok) echo "ok $ktap_n $2" ;;
	skip) echo "ok $ktap_n $2 # SKIP ${3:-}" ;;
	*) ktap_fails=$((ktap_fails + 1)); echo "not ok $ktap_n $2${3:+ # $3}" ;;
	esac
}

# ktap_finish: the plan; exit status 1 when a result failed
ktap_finish() {
	echo "1..$ktap_n"
	[ $ktap_fails -eq 0 ] || exit 1
	exit 0
}

# ktap_skip_all REASON: nothing can run here (exit status 4)
ktap_skip_all() {
	ktap_header
	echo "1..0 # SKIP $1"
	exit 4
}

# running NAME: the mark of a step (see NSIM_MARKS)
running() {
	[ -n "${NSIM_MARKS:-}" ] && echo "# --- running $1" >> "$NSIM_MARKS"
	return 0
}

# run_tap NAME CMD...: run a KTAP-printing program as a subtest: its
# output, each line prefixed "# ", then one result: ok (exit 0), skip
# (exit 4), not ok with the exit status
run_tap() {
	name=$1
	shift
	out=/tmp/tap.$$
	running "$name"
	t0=$(date +%s)
	"$@" > "$out" 2>&1
	rc=$?
	sed 's/^/# /' "$out"
	echo "# --- $name: $(( $(date +%s) - t0 )) s"
	rm -f "$out"
	case $rc in
	0) ktap_result ok "$name" ;;
	4) ktap_result skip "$name" "exit status 4" ;;
	*) ktap_result fail "$name" "exit=$rc" ;;
	esac
	return 0
}

# check NAME CMD...: one result for a shell-level check; the command's
# output as diagnostics when it fails
check() {
	name=$1
	shift
	running "$name"
	if "$@" > /tmp/check.$$ 2>&1; then
		ktap_result ok "$name"
	else
		ktap_result fail "$name"
		sed 's/^/# /' /tmp/check.$$
	fi
	rm -f /tmp/check.$$
}

# check_ran NAME WANT LOG PATTERN: one result "NAME (N)" for the N lines
# of LOG (subtests' output) that match PATTERN (grep -E): ok when N is WANT
check_ran() {
	cr_done=$(grep -cE "$4" "$3")
	check "$1 ($cr_done)" test "$2" = "$cr_done"
}

# nsim_require_module: skip the script unless neuronsim.ko and device
# ${NSIM_DEV:-0} are there
nsim_require_module() {
	dev=/dev/neuronsim${NSIM_DEV:-}
	[ -e "$dev" ] && return 0
	if [ -d /sys/module/neuronsim ]; then
		ktap_skip_all "$dev is absent: no such device on the neuronsim bus"
	fi
	ktap_skip_all "$dev is absent: neuronsim.ko is not loaded"
}

# nsim_test_start: a test script's start, in its own directory: skip the
# script unless the module and its device are there (nsim_require_module),
# the test programs next to it on PATH, the KTAP header
nsim_test_start() {
	nsim_require_module
	PATH=$(pwd):$PATH
	ktap_header
}

# with_param NAME VALUE CMD...: CMD (a program or a function of these
# scripts, run_tap) with module parameter NAME set to VALUE, then NAME set
# back to what it was; CMD's exit status
with_param() {
	wp_file=/sys/module/neuronsim/parameters/$1
	wp_old=$(cat "$wp_file")
	echo "$2" > "$wp_file"
	shift 2
	"$@"
	wp_rc=$?
	echo "$wp_old" > "$wp_file"
	return $wp_rc
}

# nsim_devices: "INDEX:ARCH" of every device on the bus, in index order
nsim_devices() {
	for d in /sys/bus/neuronsim/devices/neuronsim*; do
		[ -e "$d/arch" ] || continue
		echo "${d##*/neuronsim}:$(cat "$d/arch")"
	done | sort -n
}

# nsim_arch INDEX: the generation of device INDEX ("trn2")
nsim_arch() {
	cat /sys/bus/neuronsim/devices/neuronsim$1/arch
}

nsim_load() {
	insmod "${NSIM_KO:-/lib/modules/neuronsim.ko}" "$@"
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

# stats_zero_all: stats_zero on every device on the bus
stats_zero_all() {
	for d in $(nsim_devices); do
		stats_zero "${d%%:*}" || { echo "(device ${d%%:*})"; return 1; }
	done
}
