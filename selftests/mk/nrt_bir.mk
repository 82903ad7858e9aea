# SPDX-License-Identifier: GPL-2.0
# Build fragment of the data of the runtime library's BIR runs, "run_neff's
# outputs equal the interpreter's" (Documentation/compiler-passes.rst,
# "Reference interpreter"), for the models of selftests/mk/bir.mk (the
# bundled examples and the random lowerable modules genN of its seeds):
#   $(NRT_BIR_DATA)/NAME.in/VAR      host step: the seeded bytes of every
#                                    MR_INPUT var VAR of NAME's plan
#   $(NRT_BIR_DATA)/NAME.expect/VAR  the plan's bytes of every MR_OUTPUT
#                                    var, which the device must produce
#                                    exactly; bir_expect (userspace/
#                                    tests/build.mk) checks them against
#                                    the reference interpreter first and
#                                    the step fails when they disagree
#   $(NRT_BIR_DATA)/models.txt       the names, one a line
# A '/' in a var's name is '_' in its file's.  The files are
# prerequisites of the kselftest build, installed as data/nrt/bir next to
# the tests.

NRT_BIR_DATA := $(KSFT_DATA)/nrt/bir
NRT_BIR_TOOL := $(HOST_O)/bin/bir_expect
# bir.mk's models and seeds, one list
NRT_BIR_GEN := $(addprefix gen,$(shell seq 1 $(BIR_GEN_SEEDS)))

# every model at once (each takes milliseconds); rewritten when an
# example, the tool (the compiler and the interpreter are linked into it)
# or the set of models changes
$(NRT_BIR_DATA)/models.txt: $(BIR_EXAMPLES) $(NRT_BIR_TOOL) selftests/mk/nrt_bir.mk selftests/mk/bir.mk
	@mkdir -p $(@D)
	$(Q)$(call say,GEN,$(call show,$(NRT_BIR_DATA))/ ($(words $(BIR_MODELS)) + $(BIR_GEN_SEEDS) models))rm -rf $(@D)/*.in $(@D)/*.expect
	$(Q)for m in $(BIR_MODELS); do \
		$(NRT_BIR_TOOL) userspace/cc/bir/examples/$$m.bir.json \
			$(@D)/$$m.in $(@D)/$$m.expect > /dev/null || exit 1; \
	done
	$(Q)for m in $(NRT_BIR_GEN); do \
		$(NRT_BIR_TOOL) --gen $${m#gen} $(@D)/$$m.in $(@D)/$$m.expect > /dev/null || exit 1; \
	done
	$(Q)printf '%s\n' $(BIR_MODELS) $(NRT_BIR_GEN) > $@.tmp
	$(Q)mv $@.tmp $@

KSFT_PREREQS += $(NRT_BIR_DATA)/models.txt

# nrt_test's NEFF whose execution deadlocks (mkneff bad deadlock: a trn2
# NEFF whose DVE waits for a value nothing adds): NRT_TIMEOUT
$(KSFT_DATA)/nrt/deadlock.neff: $(call bins,MKNEFF_TOOL)
	@mkdir -p $(@D)
	$(Q)$(call say,GEN,$(call show,$@))$(call bins,MKNEFF_TOOL) bad deadlock $@
KSFT_PREREQS += $(KSFT_DATA)/nrt/deadlock.neff
