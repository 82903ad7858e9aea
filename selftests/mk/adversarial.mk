# SPDX-License-Identifier: GPL-2.0
# Build fragment of the adversarial selftests (Documentation/security.rst),
# in selftests/Makefile and run by harden.sh:
#   ioctl_fuzz_test  100,000 seeded ioctls, counters at baseline after
#   stress_test      8 threads racing load/resolve/batch/read/unload/close
#   harden_test      fault injection over real NEFF plans, access control,
#                    kernel-pointer scan, caps at their edge
#   budget_test      threads loading maximum-size plans at once: no OOM
#   run_stress_test  threads racing RUN/WAIT/poll with UNLOAD and close
# The real NEFF plans are compiled on the host by neuronsim-cc into
# $(ADVERSARIAL_DATA)/, installed as data/harden next to the tests;
# without the shared NEFFs the directory is empty and the fault test
# SKIPs.

ADVERSARIAL_DATA := $(KSFT_DATA)/harden
ADVERSARIAL_NEFFS := $(wildcard $(addprefix \
	$(or $(NEURONSIM_SHARED),$(TOP)/../shared)/cases/neff/, \
	chengli__part1_transpose_1024_ff19bb6.neff \
	chengli__part2_conv2d_1_float16_smaller_2792fc5.neff))

$(ADVERSARIAL_DATA)/.stamp: $(call bins,NSIM_CC_TOOL) $(ADVERSARIAL_NEFFS)
	@mkdir -p $(@D)
	$(Q)$(call say,GEN,$(call show,$(@D))/ ($(words $(ADVERSARIAL_NEFFS)) plans))rm -f $(@D)/*.kbin
	$(Q)for f in $(ADVERSARIAL_NEFFS); do \
		$(call bins,NSIM_CC_TOOL) compile $$f \
			-o $(@D)/$$(basename $$f .neff).kbin >/dev/null || exit 1; \
	done
	@touch $@

KSFT_PREREQS += $(ADVERSARIAL_DATA)/.stamp
