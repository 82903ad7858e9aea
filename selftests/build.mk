# SPDX-License-Identifier: GPL-2.0
# Build fragment for selftests/: kselftest programs run inside the VM.
# Each selftests/<name>.c becomes a static $(VM_O)/bin/<name>; the ones in
# VM_TESTS are run by make check (scripts/check.sh), in this order.
# Each area of tests adds its rules in selftests/mk/<area>.mk and its in-VM
# steps in selftests/vm.d/<NN>-<area>.sh (sourced by run_vm.sh in order).
# The kernel runtime tests share selftests/plans.c, which builds plans
# with the KBIN writer ($(KBIN_LIB_VM)).

SELFTESTS := info_test
NSIM_RT_TESTS := load_test resolve_test isolation_test fault_test \
	debugfs_test zeroalloc_test bus_test cores_test

VM_PROGS += $(SELFTESTS) $(NSIM_RT_TESTS)
VM_TESTS += $(SELFTESTS) $(NSIM_RT_TESTS)

ST_CFLAGS := $(VM_CFLAGS) -I$(TOP)/userspace/cc -I$(TOP)/selftests

$(VM_O)/bin/info_test: selftests/info_test.c $(KSFT_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(VM_CFLAGS) -o $@ $< $(VM_LDFLAGS)

$(VM_O)/selftests/plans.o: selftests/plans.c selftests/plans.h $(KSFT_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(ST_CFLAGS) -c -o $@ $<

$(addprefix $(VM_O)/bin/,$(NSIM_RT_TESTS)): $(VM_O)/bin/%: selftests/%.c \
		$(VM_O)/selftests/plans.o selftests/plans.h $(KBIN_LIB_VM) $(KSFT_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(ST_CFLAGS) -o $@ $< $(VM_O)/selftests/plans.o $(KBIN_LIB_VM) \
		-lz $(VM_LDFLAGS)

include $(sort $(wildcard selftests/mk/*.mk))
