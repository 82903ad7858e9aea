# SPDX-License-Identifier: GPL-2.0
# Data of the execution tests (Documentation/execute.rst, "Tests"):
#   $(EXEC_DATA)/prog.kbin        host step: mkneff prog (the project's
#                                 own NEFF with a program, trn2) compiled
#   $(EXEC_DATA)/prog.trace.json  the host replay's Chrome trace of it
#                                 (neuronsim-cc replay --trace)
# cli_test.sh (libneuronsim.sh) executes prog.kbin on the device with
# neuronsim exec --trace and compares the two traces.  Installed as
# data/exec next to the tests.

EXEC_DATA := $(KSFT_DATA)/exec

$(EXEC_DATA)/prog.trace.json: $(call bins,MKNEFF_TOOL) $(call bins,NSIM_CC_TOOL) selftests/mk/exec.mk
	@mkdir -p $(@D)
	$(Q)$(call say,GEN,$(call show,$(EXEC_DATA))/ (a plan and its replay trace))$(call bins,MKNEFF_TOOL) prog $(@D)/prog.neff > /dev/null && \
		$(call bins,NSIM_CC_TOOL) compile $(@D)/prog.neff -o $(@D)/prog.kbin > /dev/null && \
		$(call bins,NSIM_CC_TOOL) replay --trace $@ $(@D)/prog.kbin > /dev/null && \
		rm -f $(@D)/prog.neff

KSFT_PREREQS += $(EXEC_DATA)/prog.trace.json
