# SPDX-License-Identifier: GPL-2.0
# Hardening selftests (Documentation/security.rst), run by
# selftests/vm.d/60-harden.sh:
#   ioctl_fuzz_test  100,000 seeded ioctls, counters at baseline after
#   stress_test      8 threads racing load/resolve/batch/read/unload/close
#   harden_test      fault injection over real NEFF plans, access control,
#                    kernel-pointer scan, caps at their edge
#   budget_test      threads loading maximum-size plans at once: no OOM
# The real NEFF plans are compiled on the host by neuronsim-cc into
# $(VM_O)/harden/ and put at /data/harden in the VM (VM_DATA); without the
# shared NEFFs the directory is empty and the fault test SKIPs.

HARDEN_TESTS := ioctl_fuzz_test stress_test harden_test budget_test
VM_PROGS += $(HARDEN_TESTS)
HARDEN_DATA := $(VM_O)/harden
VM_DATA += $(HARDEN_DATA):/data/harden

HARDEN_NEFFS := $(wildcard $(addprefix \
	$(or $(NEURONSIM_SHARED),$(TOP)/../shared)/cases/neff/, \
	chengli__part1_transpose_1024_ff19bb6.neff \
	chengli__part2_conv2d_1_float16_smaller_2792fc5.neff))

$(HARDEN_DATA)/.stamp: $(HOST_O)/bin/neuronsim-cc $(HARDEN_NEFFS)
	@mkdir -p $(@D)
	rm -f $(@D)/*.kbin
	for f in $(HARDEN_NEFFS); do \
		$(HOST_O)/bin/neuronsim-cc compile $$f \
			-o $(@D)/$$(basename $$f .neff).kbin >/dev/null || exit 1; \
	done
	@touch $@

$(VM_O)/harden-obj/kbin_mutate.o: userspace/tests/kbin_mutate.c \
		userspace/tests/kbin_mutate.h $(KSFT_STAMP)
	@mkdir -p $(@D)
	$(CC) $(ST_CFLAGS) -I$(TOP)/userspace/tests -c -o $@ $<
$(VM_O)/harden-obj/harden_nl.o: selftests/harden_nl.c selftests/harden_nl.h
	@mkdir -p $(@D)
	$(CC) $(ST_CFLAGS) -c -o $@ $<

$(addprefix $(VM_O)/bin/,$(HARDEN_TESTS)): $(VM_O)/bin/%: selftests/%.c \
		$(VM_O)/selftests/plans.o $(VM_O)/harden-obj/kbin_mutate.o \
		$(VM_O)/harden-obj/harden_nl.o selftests/harden_nl.h \
		selftests/plans.h userspace/tests/kbin_mutate.h $(KBIN_LIB_VM) \
		$(KSFT_STAMP) $(HARDEN_DATA)/.stamp
	@mkdir -p $(@D)
	$(CC) $(ST_CFLAGS) -I$(TOP)/userspace/tests -o $@ $< \
		$(VM_O)/selftests/plans.o $(VM_O)/harden-obj/kbin_mutate.o \
		$(VM_O)/harden-obj/harden_nl.o $(KBIN_LIB_VM) -lz $(VM_LDFLAGS)
