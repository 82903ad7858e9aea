# SPDX-License-Identifier: GPL-2.0
# Build fragment of the library tests: libneuronsim, the "neuronsim"
# netlink family and the neuronsim command (Documentation/userspace.rst).
#   lib_test       VM: every library call and its error paths
#   netlink_test   VM: doit, dumps across many models/vars, events, strict
#                  policies, visibility, the command's -j parsed back
#   nsim_mkplan    VM helper: writes plans for cli_test.sh
# In-VM steps: selftests/vm.d/30-lib.sh (also runs cli_test.sh).

LIB_SELFTESTS := lib_test netlink_test

VM_PROGS += $(LIB_SELFTESTS) nsim_mkplan

$(addprefix $(VM_O)/bin/,$(LIB_SELFTESTS) nsim_mkplan): $(VM_O)/bin/%: \
		selftests/%.c $(VM_O)/selftests/plans.o selftests/plans.h \
		$(NSIM_LIB_VM) $(NSIM_HDR) $(KBIN_LIB_VM) $(KSFT_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(ST_CFLAGS) $(NSIM_CFLAGS) -o $@ $< $(VM_O)/selftests/plans.o \
		$(NSIM_LIB_VM) $(KBIN_LIB_VM) $(VM_LDFLAGS) $(NSIM_LDLIBS) \
		-ljansson -lz
