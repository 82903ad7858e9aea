# SPDX-License-Identifier: GPL-2.0
# Build fragment of the library tests: libneuronsim, the "neuronsim"
# netlink family and the neuronsim command (Documentation/userspace.rst).
#   lib_test       VM: every library call and its error paths
#   netlink_test   VM: doit, dumps across many models/vars, events, strict
#                  policies, visibility, the command's -j parsed back
#   nsim_mkplan    VM helper: writes plans for cli_test.sh
# In-VM steps: selftests/vm.d/30-lib.sh (also runs cli_test.sh).

LIB_SELFTESTS := lib_test netlink_test
LIB_SELFTESTS_LDLIBS := -ljansson
$(call programs,LIB_SELFTESTS,vm,selftests,$(VM_O)/bin,TESTUTIL NSIM KBIN,selftests)

LIB_SELFTEST_HELPERS := nsim_mkplan
$(call programs,LIB_SELFTEST_HELPERS,vm,selftests,$(VM_O)/bin,TESTUTIL KBIN,selftests)

VM_PROGS += $(LIB_SELFTESTS) $(LIB_SELFTEST_HELPERS)
