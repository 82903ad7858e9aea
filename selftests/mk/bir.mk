# SPDX-License-Identifier: GPL-2.0
# Build fragment of the BIR device test, "every bundled BIR model loads
# and resolves in the VM" (Documentation/compiler-passes.rst):
#   $(BIR_DATA)/NAME.kbin   host step: neuronsim-cc compile of every
#                           userspace/cc/bir/examples/NAME.bir.json
#   $(BIR_DATA)/models.txt  the names, one a line (bir_test runs each)
#   bir_test                VM: selftests/vm.d/55-bir.sh, arch=trn2
# The plans are prerequisites of the selftests target, so make all (and
# so make check) builds them; VM_DATA carries the folder to /data/bir.

BIR_DATA := $(VM_O)/data/bir
BIR_EXAMPLES := $(sort $(wildcard userspace/cc/bir/examples/*.bir.json))
BIR_PLANS := $(patsubst userspace/cc/bir/examples/%.bir.json,$(BIR_DATA)/%.kbin,$(BIR_EXAMPLES))

VM_PROGS += bir_test
VM_DATA += $(BIR_DATA):/data/bir

$(BIR_DATA)/%.kbin: userspace/cc/bir/examples/%.bir.json $(O)/bin/neuronsim-cc
	@mkdir -p $(@D)
	$(O)/bin/neuronsim-cc compile $< -o $@ > /dev/null

# rewritten when the set of examples changes (the list is in the recipe)
$(BIR_DATA)/models.txt: $(BIR_EXAMPLES) selftests/mk/bir.mk
	@mkdir -p $(@D)
	@rm -f $(filter-out $(BIR_PLANS),$(wildcard $(BIR_DATA)/*.kbin))
	printf '%s\n' $(patsubst userspace/cc/bir/examples/%.bir.json,%,$(BIR_EXAMPLES)) > $@

selftests: $(BIR_PLANS) $(BIR_DATA)/models.txt

$(VM_O)/bin/bir_test: selftests/bir_test.c $(VM_O)/selftests/plans.o selftests/plans.h \
		$(KBIN_LIB_VM) $(KSFT_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(ST_CFLAGS) -o $@ $< $(VM_O)/selftests/plans.o $(KBIN_LIB_VM) -lz \
		$(VM_LDFLAGS)
