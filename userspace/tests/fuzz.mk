# SPDX-License-Identifier: GPL-2.0
# Build fragment of the fuzz targets (Documentation/security.rst), included
# by the top-level Makefile; clang libFuzzer flavor, $(FUZZ_O)/:
#   fuzz_kbin_check   the checker and reader on raw bytes
#   fuzz_kbin_struct  structure-aware: the custom mutator of
#                     testlib/kbin_mutate.c (libtestutil, fuzz)
#   fuzz_kbin_prog    the program section: kbin_mutate_prog() on plans
#                     with programs, the checker's program pass, then the
#                     host replay (Documentation/execute.rst)
#   fuzz_json_view    the compiler's JSON view against jansson, then the
#                     def.json front end (libneuronsim-cc, fuzz)
#   fuzz_bir_gen      the input's first 8 bytes seed a random BIR module
#                     (testlib/bir_gen.c); the interpreter before and
#                     after the backend passes must agree, and on a
#                     lowerable module of the same seed the interpreter
#                     and the host reference of its plan (libneuronsim-bir,
#                     fuzz)
# Seed corpora, $(FUZZ_O)/NAME/ (scripts/fuzz.sh): the kbin_seedgen plans;
# for kbin_struct also plans compiled by neuronsim-cc from a few small
# NEFFs when the shared ones are present ($(NEURONSIM_SHARED)/cases/neff);
# for json_view the JSON members under 64 KiB of those NEFFs; for
# kbin_prog the seedgen plans (one with a program), the plan of mkneff
# prog and the plan of the smallest real NEFF with a 0xD4; for bir_gen
# the seeds 1..16 of the host test, 8 bytes each.

FUZZ_TARGETS	:= fuzz_kbin_check fuzz_kbin_struct fuzz_kbin_prog
$(call programs,FUZZ_TARGETS,fuzz,userspace/tests,$(FUZZ_O),TESTUTIL KBIN,userspace)
FUZZERS		+= $(call bins,FUZZ_TARGETS)

FUZZ_BIR_TARGETS := fuzz_bir_gen
# the second oracle compiles the plan (nscc_compile_model(), whose
# library holds the C++ JSON reader): UBSan's C++ part, as json_view's
FUZZ_BIR_TARGETS_LDLIBS := -fsanitize-link-c++-runtime
$(call programs,FUZZ_BIR_TARGETS,fuzz,userspace/tests,$(FUZZ_O),TESTUTIL BIR,userspace)
FUZZERS		+= $(call bins,FUZZ_BIR_TARGETS)

FUZZ_CC_TARGETS	:= fuzz_json_view
# json_view.cc is C++: clang links UBSan's C++ part only when asked
FUZZ_CC_TARGETS_LDLIBS := -fsanitize-link-c++-runtime
$(call programs,FUZZ_CC_TARGETS,fuzz,userspace/tests,$(FUZZ_O),CC,userspace)
FUZZERS		+= $(call bins,FUZZ_CC_TARGETS)

FUZZ_SEEDGEN	:= $(call bins,KBIN_SEEDGEN)
FUZZ_NEFF_DIR	:= $(or $(NEURONSIM_SHARED),$(TOP)/../shared)/cases/neff
FUZZ_SEED_NEFFS	:= $(wildcard $(addprefix $(FUZZ_NEFF_DIR)/, \
	chengli__part1_transpose_1024_ff19bb6.neff \
	chengli__part2_conv2d_1_float16_smaller_2792fc5.neff \
	waahm7__part2_file_pool_1_float16_41258dd.neff))
FUZZ_PROG_NEFFS	:= $(wildcard $(FUZZ_NEFF_DIR)/nkipy__spike_tests_artifacts_matmul_small_e3c3462.neff)

# $(call fuzz_neff_seeds,NEFFS,DIR): each NEFF compiled by neuronsim-cc
# into $(FUZZ_O)/DIR/neff-NAME.kbin
fuzz_neff_seeds = for f in $(1); do \
		$(call bins,NSIM_CC_TOOL) compile $$f \
			-o $(FUZZ_O)/$(2)/neff-$$(basename $$f .neff).kbin \
			>/dev/null || exit 1; \
	done

$(FUZZ_O)/.seeded-kbin_check: $(FUZZ_SEEDGEN)
	@mkdir -p $(FUZZ_O)/kbin_check
	$(Q)$(call say,GEN,$(call show,$(FUZZ_O))/kbin_check/ (seeds))$(FUZZ_SEEDGEN) $(FUZZ_O)/kbin_check
	@touch $@

$(FUZZ_O)/.seeded-kbin_struct: $(FUZZ_SEEDGEN) $(call bins,NSIM_CC_TOOL) $(FUZZ_SEED_NEFFS)
	@mkdir -p $(FUZZ_O)/kbin_struct
	$(Q)$(call say,GEN,$(call show,$(FUZZ_O))/kbin_struct/ (seeds))$(FUZZ_SEEDGEN) $(FUZZ_O)/kbin_struct
	$(Q)$(call fuzz_neff_seeds,$(FUZZ_SEED_NEFFS),kbin_struct)
	@touch $@

# a NEFF is a 1024-byte header, then a gzipped tar of its members
$(FUZZ_O)/.seeded-json_view: $(FUZZ_SEED_NEFFS)
	@mkdir -p $(FUZZ_O)/json_view
	$(Q)$(call say,GEN,$(call show,$(FUZZ_O))/json_view/ (seeds))for f in $(FUZZ_SEED_NEFFS); do \
		d=$$(mktemp -d) && tail -c +1025 $$f | tar xzf - -C $$d && \
		find $$d -name '*.json' -size -64k | while read -r j; do \
			cp $$j $(FUZZ_O)/json_view/$$(basename $$f .neff)-$$(basename $$j); \
		done; rm -rf $$d; \
	done
	@touch $@

$(FUZZ_O)/.seeded-kbin_prog: $(FUZZ_SEEDGEN) $(call bins,NSIM_CC_TOOL) $(call bins,MKNEFF_TOOL) \
		$(FUZZ_PROG_NEFFS)
	@mkdir -p $(FUZZ_O)/kbin_prog
	$(Q)$(call say,GEN,$(call show,$(FUZZ_O))/kbin_prog/ (seeds))$(FUZZ_SEEDGEN) $(FUZZ_O)/kbin_prog
	$(Q)$(call bins,MKNEFF_TOOL) prog $(FUZZ_O)/kbin_prog/mkneff-prog.neff && \
		$(call bins,NSIM_CC_TOOL) compile $(FUZZ_O)/kbin_prog/mkneff-prog.neff \
			-o $(FUZZ_O)/kbin_prog/mkneff-prog.kbin >/dev/null && \
		rm -f $(FUZZ_O)/kbin_prog/mkneff-prog.neff
	$(Q)$(call fuzz_neff_seeds,$(FUZZ_PROG_NEFFS),kbin_prog)
	@touch $@

# the seed N as 8 little-endian bytes
$(FUZZ_O)/.seeded-bir_gen:
	@mkdir -p $(FUZZ_O)/bir_gen
	$(Q)$(call say,GEN,$(call show,$(FUZZ_O))/bir_gen/ (seeds))for n in $$(seq 1 16); do \
		printf "$$(printf '\\%03o' $$n)\\0\\0\\0\\0\\0\\0\\0" \
			>$(FUZZ_O)/bir_gen/seed-$$n; \
	done
	@touch $@

FUZZ_SEEDS	:= $(FUZZ_O)/.seeded-kbin_check $(FUZZ_O)/.seeded-kbin_struct \
	$(FUZZ_O)/.seeded-json_view $(FUZZ_O)/.seeded-kbin_prog \
	$(FUZZ_O)/.seeded-bir_gen
userspace fuzz: $(FUZZ_SEEDS)
