# SPDX-License-Identifier: GPL-2.0
# Build fragment for userspace/cc, included by the top-level Makefile.
#
#   libkbin.a          the KBIN writer and reader (host, rel, vm, fuzz)
#   libneuronsim-cc.a  the compiler library: NEFF reader, def.json front
#                      end (vars; DMA programs in defjson_dma.c; the
#                      engines' instruction streams in defjson_prog.c), mem_ref
#                      build tree, symbol table, compile pipeline, NEFF
#                      writer and the model -> NEFF writer neff_export.c,
#                      "will it fit" (plan_memory.c: the HBM a plan's LOAD
#                      charges, by the kernel's kbin_memory.c) (host, rel,
#                      vm; fuzz for fuzz_json_view); its JSON reader
#                      json_view.cc is C++ over simdjson,
#                      json_view_jansson.c in the static vm flavor
#                      (Documentation/compiler.rst, "JSON parser")
#   cc_* host tests    userspace/tests/cc_*.c -> $(HOST_O)/tests/
# The neuronsim-cc command is in userspace/tools/build.mk.

$(call library,KBIN,libkbin,host rel vm fuzz)
KBIN_DIR	:= userspace/cc
KBIN_SRCS	:= kbin_writer.c kbin_reader.c dma_ref.c prog_replay.c prog_trace.c prog_race.c \
		   prog_ref.c
KBIN_INC	:= -I$(TOP)/userspace/cc
KBIN_USES	:= PLAN UTIL
KBIN_LDLIBS	:= -lz

$(call library,CC,libneuronsim-cc,host rel vm fuzz)
CC_DIR		:= userspace/cc
CC_SRCS		:= hash.c model.c memref.c symtab.c neff.c defjson.c \
	defjson_dma.c defjson_prog.c compile.c neff_writer.c neff_export.c \
	plan_memory.c \
	json_view.cc json_view_common.c
# the static flavor reads JSON with jansson: Debian's simdjson has no
# archive (Documentation/compiler.rst, "JSON parser")
CC_SRCS_vm	:= $(filter-out json_view.cc,$(CC_SRCS)) json_view_jansson.c
CC_INC		:= -I$(TOP)/userspace/cc
CC_USES		:= KBIN PLAN UTIL
CC_LDLIBS	:= -lsimdjson -lstdc++ -ljansson -larchive -lcrypto -lz
CC_LDLIBS_vm	:= -ljansson -larchive -lnettle -lcrypto -lz

# The jansson implementation of the JSON view on its own, for the host
# test that holds it to the same texts as the simdjson one
$(call library,JVJ,libjsonview-jansson,host)
JVJ_DIR		:= userspace/cc
JVJ_SRCS	:= json_view_jansson.c json_view_common.c
JVJ_INC		:= -I$(TOP)/userspace/cc
JVJ_LDLIBS	:= -ljansson
JVJ_TESTS	:= cc_json_view_jansson
$(call programs,JVJ_TESTS,host,userspace/tests,$(HOST_O)/tests,JVJ,userspace)
HOST_TESTS += $(call bins,JVJ_TESTS)

# Host tests of the compiler (kselftest harness, TAP).
CC_TESTS := cc_memref cc_neff cc_defjson cc_real_neff cc_dma cc_json_view cc_prog
$(call programs,CC_TESTS,host,userspace/tests,$(HOST_O)/tests,CC,userspace)
# will it fit (plan_memory.c) on synthetic plans of the test library
CC_MEM_TEST := cc_plan_memory
$(call programs,CC_MEM_TEST,host,userspace/tests,$(HOST_O)/tests,TESTUTIL CC,userspace)
HOST_TESTS += $(call bins,CC_MEM_TEST)

# the command cc_neff runs (userspace/tools/build.mk)
CC_TESTS_CFLAGS := -DNEURONSIM_CC='"$(O)/bin/neuronsim-cc"'
HOST_TESTS += $(call bins,CC_TESTS)
