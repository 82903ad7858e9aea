# SPDX-License-Identifier: GPL-2.0
# Build fragment of the BIR device test, "every bundled BIR model loads
# and resolves in the VM" (Documentation/compiler-passes.rst):
#   $(BIR_DATA)/NAME.kbin   host step: neuronsim-cc compile of every
#                           userspace/cc/bir/examples/NAME.bir.json
#   $(BIR_DATA)/NAME.neff   and neuronsim-cc compile --neff of it: the NEFF
#                           of the same model, which the NEFF reader turns
#                           into NAME.kbin byte for byte (for a loader that
#                           takes NEFFs, libnrt's nrt_load)
#   $(BIR_DATA)/genN.kbin   host step: the plans of the random lowerable
#                           modules of seeds 1..BIR_GEN_SEEDS (bir_gen_test
#                           --plans; the lowered test compares their host
#                           reference with the interpreter), and genN.neff
#                           their NEFFs
#   $(BIR_DATA)/models.txt  the names, one a line (bir_test runs each)
#   $(BIR_DATA)/NAME.mem.CORE.json  host step: neuronsim-cc plan --memory -j
#                           of every plan (scripts/plan-memory.sh), which
#                           memory_test (memory.sh) holds against sysfs
#   bir_test                in selftests/Makefile, run by bir.sh on
#                           device 0 (trn2)
# The plans are prerequisites of the kselftest build, so make all (and so
# make check) builds them; they are installed as data/bir next to the
# tests.

BIR_DATA := $(KSFT_DATA)/bir
BIR_EXAMPLES := $(sort $(wildcard userspace/cc/bir/examples/*.bir.json))
BIR_MODELS := $(patsubst userspace/cc/bir/examples/%.bir.json,%,$(BIR_EXAMPLES))
BIR_GEN_SEEDS := 12
BIR_GEN_TOOL := $(HOST_O)/tests/bir_gen_test

# every plan at once (each takes milliseconds); rewritten when an example,
# the compiler or the set of examples (the list is in the recipe) changes
$(BIR_DATA)/models.txt: $(BIR_EXAMPLES) $(call bins,NSIM_CC_TOOL) $(BIR_GEN_TOOL) selftests/mk/bir.mk \
		scripts/plan-memory.sh
	@mkdir -p $(@D)
	$(Q)$(call say,GEN,$(call show,$(BIR_DATA))/ ($(words $(BIR_MODELS)) + $(BIR_GEN_SEEDS) plans))rm -f $(@D)/*.kbin $(@D)/*.neff
	$(Q)for m in $(BIR_MODELS); do \
		$(call bins,NSIM_CC_TOOL) compile userspace/cc/bir/examples/$$m.bir.json \
			-o $(@D)/$$m.kbin > /dev/null && \
		$(call bins,NSIM_CC_TOOL) compile --neff userspace/cc/bir/examples/$$m.bir.json \
			-o $(@D)/$$m.neff > /dev/null 2>&1 || exit 1; \
	done
	$(Q)printf '%s\n' $(BIR_MODELS) > $@.tmp
	$(Q)$(BIR_GEN_TOOL) --plans $(@D) 1 $(BIR_GEN_SEEDS) >> $@.tmp
	$(Q)NSIM_CC=$(call bins,NSIM_CC_TOOL) bash scripts/plan-memory.sh $(@D)
	$(Q)mv $@.tmp $@

KSFT_PREREQS += $(BIR_DATA)/models.txt
