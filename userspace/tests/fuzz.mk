# SPDX-License-Identifier: GPL-2.0
# Build fragment of the fuzz targets (Documentation/security.rst), included
# by the top-level Makefile; clang libFuzzer flavor, $(FUZZ_O)/:
#   fuzz_kbin_check   the checker and reader on raw bytes
#   fuzz_kbin_struct  structure-aware: the custom mutator of
#                     userspace/tests/kbin_mutate.c (libtestutil, fuzz)
# Seed corpora, $(FUZZ_O)/NAME/ (scripts/fuzz.sh): the kbin_seedgen plans;
# for kbin_struct also plans compiled by neuronsim-cc from a few small
# NEFFs when the shared ones are present ($(NEURONSIM_SHARED)/cases/neff).

TESTUTIL_SRCS_fuzz := userspace/tests/kbin_mutate.c

FUZZ_TARGETS	:= fuzz_kbin_check fuzz_kbin_struct
$(call programs,FUZZ_TARGETS,fuzz,userspace/tests,$(FUZZ_O),TESTUTIL KBIN,userspace)
FUZZERS		+= $(call bins,FUZZ_TARGETS)

FUZZ_SEEDGEN	:= $(call bins,KBIN_SEEDGEN)
FUZZ_NEFF_DIR	:= $(or $(NEURONSIM_SHARED),$(TOP)/../shared)/cases/neff
FUZZ_SEED_NEFFS	:= $(wildcard $(addprefix $(FUZZ_NEFF_DIR)/, \
	chengli__part1_transpose_1024_ff19bb6.neff \
	chengli__part2_conv2d_1_float16_smaller_2792fc5.neff \
	waahm7__part2_file_pool_1_float16_41258dd.neff))

$(FUZZ_O)/.seeded-kbin_check: $(FUZZ_SEEDGEN)
	@mkdir -p $(FUZZ_O)/kbin_check
	$(Q)$(call say,GEN,$(call show,$(FUZZ_O))/kbin_check/ (seeds))$(FUZZ_SEEDGEN) $(FUZZ_O)/kbin_check
	@touch $@

$(FUZZ_O)/.seeded-kbin_struct: $(FUZZ_SEEDGEN) $(call bins,NSIM_CC_TOOL) $(FUZZ_SEED_NEFFS)
	@mkdir -p $(FUZZ_O)/kbin_struct
	$(Q)$(call say,GEN,$(call show,$(FUZZ_O))/kbin_struct/ (seeds))$(FUZZ_SEEDGEN) $(FUZZ_O)/kbin_struct
	$(Q)for f in $(FUZZ_SEED_NEFFS); do \
		$(call bins,NSIM_CC_TOOL) compile $$f \
			-o $(FUZZ_O)/kbin_struct/neff-$$(basename $$f .neff).kbin \
			>/dev/null || exit 1; \
	done
	@touch $@

FUZZ_SEEDS	:= $(FUZZ_O)/.seeded-kbin_check $(FUZZ_O)/.seeded-kbin_struct
userspace fuzz: $(FUZZ_SEEDS)
