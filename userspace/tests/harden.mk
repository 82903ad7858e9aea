# SPDX-License-Identifier: GPL-2.0
# Build fragment of the hardening work (Documentation/security.rst), included at the end of
# userspace/tests/build.mk: the structure-aware libFuzzer target
# fuzz_kbin_struct.  Its seed corpus in $(O)/fuzz/kbin_struct/ holds the
# kbin_seedgen plans and, when the shared NEFFs are present
# ($(NEURONSIM_SHARED)/cases/neff), plans compiled from a few small ones.

HARDEN_NEFF_DIR := $(or $(NEURONSIM_SHARED),$(TOP)/../shared)/cases/neff
HARDEN_SEED_NEFFS := $(wildcard $(addprefix $(HARDEN_NEFF_DIR)/, \
	chengli__part1_transpose_1024_ff19bb6.neff \
	chengli__part2_conv2d_1_float16_smaller_2792fc5.neff \
	waahm7__part2_file_pool_1_float16_41258dd.neff))

$(HOST_O)/fuzz_kbin_struct: userspace/tests/fuzz_kbin_struct.c \
		userspace/tests/kbin_mutate.c userspace/tests/kbin_mutate.h \
		$(KBIN_SRCS) kmod/plan/kbin_check.h kmod/plan/kbin_compat.h $(PLAN_HDRS) \
		uapi/linux/neuronsim_kbin.h userspace/cc/kbin_reader.h \
		userspace/cc/kbin_writer.h $(HOST_O)/kbin_seedgen \
		$(HOST_O)/bin/neuronsim-cc
	@mkdir -p $(@D)
	$(CLANG) $(FUZZ_CFLAGS) -o $@ userspace/tests/fuzz_kbin_struct.c \
		userspace/tests/kbin_mutate.c $(KBIN_SRCS) -lz
	mkdir -p $(O)/fuzz/kbin_struct
	$(HOST_O)/kbin_seedgen $(O)/fuzz/kbin_struct
	for f in $(HARDEN_SEED_NEFFS); do \
		$(HOST_O)/bin/neuronsim-cc compile $$f \
			-o $(O)/fuzz/kbin_struct/neff-$$(basename $$f .neff).kbin \
			>/dev/null || exit 1; \
	done
FUZZERS += $(HOST_O)/fuzz_kbin_struct
