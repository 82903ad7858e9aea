# SPDX-License-Identifier: GPL-2.0
# Build fragment of the NEFF tests, "every real NEFF through the whole
# stack" (Documentation/running.rst):
#   neff_test              VM: every compiled NEFF loaded, resolved, read
#                          back and unloaded (selftests/vm.d/50-neff.sh)
#   scenario_test          VM: scenarios 2, 4 and 6 of Documentation/running.rst
# The plans and manifest are written to $(NEFF_DATA) by
# scripts/neff-plans.sh ($(O)/bin/mkneff manifest, userspace/tools/build.mk)
# before the VM boots; VM_DATA carries them to /data/neff.

NEFF_DATA := $(VM_O)/data/neff
NEFF_TESTS := neff_test scenario_test
$(call programs,NEFF_TESTS,vm,selftests,$(VM_O)/bin,TESTUTIL KBIN,selftests)

VM_PROGS += $(NEFF_TESTS)
VM_DATA += $(NEFF_DATA):/data/neff
