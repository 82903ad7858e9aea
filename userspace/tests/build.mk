# SPDX-License-Identifier: GPL-2.0
# Build fragment for userspace/tests, included by the top-level Makefile.
#
#   (libtestutil.a, the test library the tests link, is testlib/build.mk)
#   kbin_check_test  host test: every checker rule, writer/reader round trip
#   plan_test        host test: the plan tables and the shared resolve rule
#   compute_test     host test: the compute encoding's rules and executor
#                    (kbin_compute.c) and the test library's compute plan
#   dma_cast_test    host test: the DMA cast conversions (kbin_cast.c)
#   num_test         host test: the numerics library (kbin_num.c)
#   kbin_seedgen     host: the fuzzers' seed plans (and the small plan of
#                    Documentation/kbin-format.rst)
#   bir_expect       host: a BIR model's seeded inputs and expected outputs
#                    for the device (selftests/mk/nrt_bir.mk)
# The fuzz targets are in userspace/tests/fuzz.mk, the cc_*, bir_* and
# lib_* tests in the fragments of what they test.

KBIN_TESTS	:= kbin_check_test plan_test prog_test compute_test
$(call programs,KBIN_TESTS,host,userspace/tests,$(HOST_O)/tests,TESTUTIL KBIN,userspace)
HOST_TESTS	+= $(call bins,KBIN_TESTS)

# the DMA cast op against the compiler's _Float16 and libm (Documentation/dma.rst)
DMA_CAST_TEST	:= dma_cast_test
DMA_CAST_TEST_LDLIBS := -lm
DMA_CAST_TEST_CFLAGS := -I$(TOP)/testlib
$(call programs,DMA_CAST_TEST,host,userspace/tests,$(HOST_O)/tests,KBIN,userspace)
HOST_TESTS	+= $(call bins,DMA_CAST_TEST)

KBIN_SEEDGEN	:= kbin_seedgen
$(call programs,KBIN_SEEDGEN,host,userspace/tests,$(HOST_O)/bin,TESTUTIL KBIN,userspace)

# the numerics library against C float and libm (Documentation/numerics.rst)
NUM_TEST	:= num_test
NUM_TEST_CFLAGS	:= -ffp-contract=off -fno-math-errno -I$(TOP)/testlib
NUM_TEST_LDLIBS	:= -lm
$(call programs,NUM_TEST,host,userspace/tests,$(HOST_O)/tests,PLAN,userspace)
HOST_TESTS	+= $(call bins,NUM_TEST)

# the inputs and expected outputs of a BIR model's device run, checked
# against the reference interpreter (the data step selftests/mk/nrt_bir.mk;
# Documentation/compiler-passes.rst, "Reference interpreter")
BIR_EXPECT	:= bir_expect
$(call programs,BIR_EXPECT,host,userspace/tests,$(HOST_O)/bin,TESTUTIL BIR,userspace)
