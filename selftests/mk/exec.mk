# SPDX-License-Identifier: GPL-2.0
# Data of the execution tests (Documentation/execute.rst, "Tests"):
#   $(EXEC_DATA)/prog.kbin        host step: mkneff prog (the project's
#                                 own NEFF with a program, trn2) compiled
#   $(EXEC_DATA)/prog.trace.json  the host replay's Chrome trace of it
#                                 (neuronsim-cc replay --trace)
#   $(EXEC_DATA)/deadlock.kbin    mkneff bad deadlock (a NEFF whose DVE
#                                 waits for ever) compiled
# cli_test.sh (libneuronsim.sh) executes prog.kbin on the device with
# neuronsim exec --trace and compares the two traces, and deadlock.kbin,
# whose report must name DVE's instruction and semaphore.  Installed as
# data/exec next to the tests.

EXEC_DATA := $(KSFT_DATA)/exec

$(EXEC_DATA)/prog.trace.json: $(call bins,MKNEFF_TOOL) $(call bins,NSIM_CC_TOOL) selftests/mk/exec.mk
	@mkdir -p $(@D)
	$(Q)$(call say,GEN,$(call show,$(EXEC_DATA))/ (a plan and its replay trace))$(call bins,MKNEFF_TOOL) prog $(@D)/prog.neff > /dev/null && \
		$(call bins,NSIM_CC_TOOL) compile $(@D)/prog.neff -o $(@D)/prog.kbin > /dev/null && \
		$(call bins,NSIM_CC_TOOL) replay --trace $@ $(@D)/prog.kbin > /dev/null && \
		$(call bins,MKNEFF_TOOL) bad deadlock $(@D)/deadlock.neff > /dev/null && \
		$(call bins,NSIM_CC_TOOL) compile $(@D)/deadlock.neff -o $(@D)/deadlock.kbin > /dev/null && \
		rm -f $(@D)/prog.neff $(@D)/deadlock.neff

KSFT_PREREQS += $(EXEC_DATA)/prog.trace.json
