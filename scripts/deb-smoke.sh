# SPDX-License-Identifier: GPL-2.0
# deb-smoke.sh - the VM half of scripts/deb-check.sh (busybox sh, run by
# scripts/vm.sh with the module DKMS built in the fresh root at
# /lib/modules/neuronsim.ko): load it, load a plan, execute its program,
# resolve a (var, offset) pair, unload.  KTAP; any failure fails the run.
. /data/lib.sh
ktap_header
check "insmod of the module DKMS built (arch=trn2)" insmod /lib/modules/neuronsim.ko arch=trn2
check "its vermagic is the running kernel's" sh -c \
	'grep -q "^vermagic=$(uname -r) " /data/modinfo'
check "device node /dev/neuronsim0" test -c /dev/neuronsim0
check "neuronsim exec: the plan's program finishes" sh -c \
	'neuronsim exec /data/prog.kbin > /tmp/exec.out 2>&1; rc=$?; cat /tmp/exec.out; [ $rc = 0 ] && grep -q finished /tmp/exec.out'
check "neuronsim load + resolve sg0/#1+0:64" sh -c \
	'printf "resolve sg0/#1+0:64\n" | neuronsim load /data/prog.kbin --exit-on-eof > /tmp/res.out 2>&1; rc=$?; cat /tmp/res.out; [ $rc = 0 ] && grep -qE "^sg0/#1\+0:64	sg0 #1 [A-Z_]+	0x[0-9a-f]+$" /tmp/res.out'
check "rmmod" rmmod neuronsim
# what the device said, for the log
sed 's/^/# exec: /' /tmp/exec.out
sed 's/^/# resolve: /' /tmp/res.out
ktap_finish
