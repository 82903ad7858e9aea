# SPDX-License-Identifier: GPL-2.0
# Build fragment of the NEFF tests, "every real NEFF through the whole
# stack" (Documentation/running.rst):
#   $(O)/bin/mkneff        host helper (userspace/tools/mkneff.c): the demo
#                          NEFF of make run, the bad NEFFs of scenarios 1/3/5,
#                          .npy payload extraction, and the manifest + plans
#                          of the NEFF VM test (scripts/check.sh runs it)
#   neff_test              VM: every compiled NEFF loaded, resolved, read
#                          back and unloaded (selftests/vm.d/50-neff.sh)
#   scenario_test          VM: scenarios 2, 4 and 6 of Documentation/running.rst
# The plans and manifest are written to $(NEFF_DATA) by check.sh before the
# VM boots; VM_DATA carries them to /data/neff.

NEFF_DATA := $(VM_O)/data/neff
NEFF_TESTS := neff_test scenario_test

VM_PROGS += $(NEFF_TESTS)
VM_DATA += $(NEFF_DATA):/data/neff

# plain -O2 build of the NEFF side of the compiler library (no BIR)
MKNEFF_SRCS := userspace/tools/mkneff.c kmod/plan/kbin_check.c $(PLAN_SRCS) \
	$(addprefix userspace/cc/,hash.c model.c memref.c symtab.c neff.c \
	defjson.c compile.c neff_writer.c kbin_writer.c kbin_reader.c)
MKNEFF_CFLAGS := -std=gnu11 $(WARN) -O2 -g -D_GNU_SOURCE -I$(TOP)/uapi \
	-I$(TOP)/kmod/plan -I$(TOP)/userspace/cc
$(O)/bin/mkneff: $(MKNEFF_SRCS) $(wildcard userspace/cc/*.h) \
		uapi/linux/neuronsim_kbin.h kmod/plan/kbin_check.h $(PLAN_HDRS)
	@mkdir -p $(@D)
	$(CC) $(MKNEFF_CFLAGS) -o $@ $(MKNEFF_SRCS) \
		-ljansson -larchive -lcrypto -lz
HOST_BINS += $(O)/bin/mkneff

$(addprefix $(VM_O)/bin/,$(NEFF_TESTS)): $(VM_O)/bin/%: selftests/%.c \
		$(VM_O)/selftests/plans.o selftests/plans.h $(KBIN_LIB_VM) $(KSFT_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(ST_CFLAGS) -o $@ $< $(VM_O)/selftests/plans.o $(KBIN_LIB_VM) \
		-lz $(VM_LDFLAGS)
