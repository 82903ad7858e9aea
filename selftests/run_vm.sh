# SPDX-License-Identifier: GPL-2.0
# run_vm.sh - the in-VM driver of make check (busybox sh): loads the
# module once and creates one device per generation on the neuronsim bus
# (0 trn2 from insmod, 1 trn1, 2 trn3), runs the packaged selftests with
# the kernel's run_kselftest.sh, and at the end removes the devices and
# checks that rmmod leaves nothing behind.
#
# The selftests are installed as the kernel installs its own
# (selftests/Makefile, "make kselftest-install"): $NSIM_KSFT (default
# /kselftest, where scripts/check.sh puts build/vm/kselftest) holds
# run_kselftest.sh, kselftest/, kselftest-list.txt and
# drivers/neuronsim/ with the programs, scripts, data, config and
# settings; this file is there too.  Output: a KTAP document of the
# set-up checks, run_kselftest.sh's, and one of the checks at the end.
# Run by scripts/check.sh through scripts/vm.sh.
NSIM_KSFT=${NSIM_KSFT:-/kselftest}
. "$NSIM_KSFT/drivers/neuronsim/lib.sh"
# settings from the host (scripts/check.sh, scripts/vmtest.sh), exported to
# the tests: NSIM_DMA, NSIM_TESTS
if [ -f /etc/nsim-env ]; then
	set -a
	. /etc/nsim-env
	set +a
fi
# each step's "# --- running NAME" goes straight to the serial console
export NSIM_MARKS=${NSIM_MARKS:-/dev/console}
# run_kselftest.sh writes each test's output to /dev/stdout, which a
# devtmpfs without udev lacks
for fd in 0:stdin 1:stdout 2:stderr; do
	[ -e /dev/${fd#*:} ] || ln -s /proc/self/fd/${fd%%:*} /dev/${fd#*:}
done

echo "# insmod arch=trn2: device 0; devices 1 (trn1) and 2 (trn3) on the bus"
ktap_header
check "insmod arch=trn2 (device 0)" nsim_load arch=trn2
check "new_device 1 trn1" nsim_new_device 1 trn1
check "new_device 2 trn3" nsim_new_device 2 trn3
echo "1..$ktap_n"

# NSIM_TESTS (from /etc/nsim-env): only these tests of the list, by name
# ("run_test harden.sh"), in that order; unset: every test of the list.
# run_kselftest.sh runs one test at a time so that each one's time is
# printed after it ("# --- NAME: N s", Documentation/running.rst)
all=$(sed -n 's|^drivers/neuronsim:||p' "$NSIM_KSFT/kselftest-list.txt")
tests=${NSIM_TESTS:-$all}
echo "# run_kselftest.sh: $(echo $tests | wc -w) of $(echo $all | wc -w) tests: $(echo $tests)"
for t in $tests; do
	if ! echo "$all" | grep -qx "$t"; then
		echo "not ok - NSIM_TESTS: '$t' is not a test of kselftest-list.txt"
		continue
	fi
	t0=$(date +%s)
	"$NSIM_KSFT/run_kselftest.sh" -t "drivers/neuronsim:$t"
	echo "# --- $t: $(( $(date +%s) - t0 )) s"
done

echo "# the end: del_device, rmmod"
ktap_n=0
ktap_header
for dev in 0 1 2; do
	check "device $dev: stats back to zero at the end" stats_zero $dev
done
check "del_device 1" nsim_del_device 1
check "del_device 1 leaves no node, sysfs or debugfs dir" sh -c \
	'! test -e /dev/neuronsim1 && ! test -e /sys/bus/neuronsim/devices/neuronsim1 && ! test -e /sys/class/neuronsim/neuronsim1 && ! test -e /sys/kernel/debug/neuronsim/neuronsim1'
check "rmmod with devices 0 and 2" nsim_unload
check "rmmod leaves no debugfs dir" test ! -e /sys/kernel/debug/neuronsim
check "rmmod leaves no device node" sh -c \
	'! test -e /dev/neuronsim && ! test -e /dev/neuronsim0 && ! test -e /dev/neuronsim2'
check "rmmod leaves no bus" test ! -e /sys/bus/neuronsim
check "rmmod leaves no class" test ! -e /sys/class/neuronsim
insmod_trn9_refused() { ! nsim_load arch=trn9; }
check "unknown arch is refused" insmod_trn9_refused
echo "1..$ktap_n"
