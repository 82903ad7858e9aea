# SPDX-License-Identifier: GPL-2.0
# Build fragment of the adversarial selftests (Documentation/security.rst),
# run by selftests/vm.d/60-harden.sh:
#   ioctl_fuzz_test  100,000 seeded ioctls, counters at baseline after
#   stress_test      8 threads racing load/resolve/batch/read/unload/close
#   harden_test      fault injection over real NEFF plans, access control,
#                    kernel-pointer scan, caps at their edge
#   budget_test      threads loading maximum-size plans at once: no OOM
# The real NEFF plans are compiled on the host by neuronsim-cc into
# $(ADVERSARIAL_DATA)/ and put at /data/harden in the VM (VM_DATA); without
# the shared NEFFs the directory is empty and the fault test SKIPs.

ADVERSARIAL_TESTS := ioctl_fuzz_test stress_test harden_test budget_test
$(call programs,ADVERSARIAL_TESTS,vm,selftests,$(VM_O)/bin,TESTUTIL KBIN,selftests)
VM_PROGS += $(ADVERSARIAL_TESTS)

ADVERSARIAL_DATA := $(VM_O)/data/harden
VM_DATA += $(ADVERSARIAL_DATA):/data/harden
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

selftests: $(ADVERSARIAL_DATA)/.stamp
