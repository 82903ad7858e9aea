# SPDX-License-Identifier: GPL-2.0
# Build fragment for userspace/cc/bir/ (the BIR IR, its passes and the
# lowering into the compiler's model), included by the top-level Makefile.
#
#   libneuronsim-bir.a  IR, JSON, pass manager, passes, lowering, entry
#                       points (host, rel; fuzz for fuzz_bir_gen)
#   bir_* host tests    userspace/tests/bir_*.c -> $(HOST_O)/tests/, TAP;
#                       each links the test oracle userspace/tests/bir_interp.c
#                       (libtestutil, userspace/tests/build.mk)

$(call library,BIR,libneuronsim-bir,host rel fuzz)
BIR_DIR		:= userspace/cc/bir
BIR_SRCS	:= ir.c json.c passmgr.c pass_rtmemres.c pass_sballoc.c pass_klr.c \
		   pass_inline_nki.c pass_inline_bir.c pass_coalesce.c \
		   pass_psum_rotation.c lower.c lower_prog.c cli.c
BIR_INC		:= -I$(TOP)/userspace/cc
# the passes read the compiler's dtype table (model.c) and the lowering
# builds its model, so the library uses libneuronsim-cc
BIR_USES	:= CC KBIN PLAN
BIR_LDLIBS	:= -ljansson -lm

BIR_TESTS	:= bir_json bir_names bir_rtmemres bir_sballoc bir_inline_nki \
		   bir_inline_bir bir_coalesce bir_psum bir_lower bir_prog bir_gen_test race_test \
		   bir_neff
$(call programs,BIR_TESTS,host,userspace/tests,$(HOST_O)/tests,TESTUTIL BIR,userspace)
# where the tests find the bundled examples and golden files, and the
# release neuronsim-cc whose switches they run (userspace/tools/build.mk)
BIR_TESTS_CFLAGS := -DBIR_TOP='"$(TOP)"' -DNEURONSIM_CC='"$(O)/bin/neuronsim-cc"'
HOST_TESTS	+= $(call bins,BIR_TESTS)
