# SPDX-License-Identifier: GPL-2.0
# Build fragment for selftests/: kselftest programs run inside the VM,
# included by the top-level Makefile.  Each selftests/<name>.c becomes a
# static $(VM_O)/bin/<name> (vm flavor), copied into the initramfs /bin.
# This file: libtestutil.a for the vm flavor (selftests/plans.c, the plans
# the kernel runtime tests build with the KBIN writer; the netlink and
# mutation helpers of the adversarial tests) and the runtime tests, run by
# selftests/run_vm.sh.  Each area of tests adds its programs in
# selftests/mk/<area>.mk and its in-VM steps in selftests/vm.d/<NN>-<area>.sh.

TESTUTIL_SRCS_vm := selftests/plans.c selftests/harden_nl.c \
	userspace/tests/kbin_mutate.c
TESTUTIL_INC	+= -I$(TOP)/selftests

SELFTESTS := info_test
$(call programs,SELFTESTS,vm,selftests,$(VM_O)/bin,,selftests)

NSIM_RT_TESTS := load_test resolve_test isolation_test fault_test \
	debugfs_test zeroalloc_test bus_test cores_test reloc_test
$(call programs,NSIM_RT_TESTS,vm,selftests,$(VM_O)/bin,TESTUTIL KBIN,selftests)

VM_PROGS += $(SELFTESTS) $(NSIM_RT_TESTS)

include $(sort $(wildcard selftests/mk/*.mk))
