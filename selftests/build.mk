# SPDX-License-Identifier: GPL-2.0
# Build fragment for selftests/, included by the top-level Makefile.  The
# selftests themselves are built and installed by their kselftest
# Makefile, selftests/Makefile (the kernel's lib.mk; Documentation/
# running.rst, "The selftests"); this file builds what it needs first and
# runs it:
#   libtestutil.a      vm flavor of the test library (testlib/build.mk):
#                      the plans and helpers of the kernel runtime tests
#   the test data      $(VM_O)/data/<area>/ (selftests/mk/<area>.mk):
#                      plans compiled on the host
#   $(KSFT_OUT)/       the test programs (make -C selftests), static
#   $(KSFT_INSTALL)/   the kernel's installed layout (kselftest-install):
#                      run_kselftest.sh, kselftest/, kselftest-list.txt,
#                      drivers/neuronsim/ - what scripts/check.sh puts at
#                      /kselftest in the VM
# The flags and libraries of the programs are the vm flavor's; the
# Makefile asks for them here (print-KSFT_*) when run on its own.

KSFT_USES	:= TESTUTIL NRT NSIM KBIN
KSFT_LIBS	= $(call closure,$(KSFT_USES))
KSFT_CFLAGS	= $(BASE_CFLAGS) $(vm_CFLAGS) $(call incs,$(KSFT_LIBS)) $(EXTRA_CFLAGS)
KSFT_LDFLAGS	= $(vm_LDFLAGS)
KSFT_ARCHIVES	= $(foreach l,$(KSFT_LIBS),$(call lib,$(l),vm))
KSFT_LDLIBS	= -ljansson $(call ldlibs,$(KSFT_LIBS),vm)
KSFT_OUT	:= $(VM_O)/ksft
KSFT_INSTALL	:= $(VM_O)/kselftest
KSFT_DATA	:= $(VM_O)/data

# prerequisites of the kselftest build: the data steps of selftests/mk/
KSFT_PREREQS	:=

include $(sort $(wildcard selftests/mk/*.mk))

KSFT_MAKE	= $(MAKE) --no-print-directory -C $(TOP)/selftests TOP=$(TOP) \
	KSFT=$(KSFT) OUTPUT=$(KSFT_OUT) NSIM_DATA_DIR=$(KSFT_DATA) V=$(V) NSIM_GROUP_LD=1 \
	NSIM_CFLAGS="$(KSFT_CFLAGS)" NSIM_LDFLAGS="$(KSFT_LDFLAGS)" \
	NSIM_ARCHIVES="$(KSFT_ARCHIVES)" NSIM_LDLIBS="$(KSFT_LDLIBS)" \
	NSIM_NRT_INC=$(NRT_VM)/include NSIM_NRT_LIB=$(NRT_VM)/lib

.PHONY: kselftest-install
kselftest-install: $(KSFT_ARCHIVES) $(KSFT_PREREQS) $(NRT_VM_FILES) | $(KSFT_STAMP)
	@mkdir -p $(KSFT_DATA)
	@# + : a recursive make through a variable, given make's job slots (-j)
	+$(Q)$(KSFT_MAKE) kselftest-install KSFT_INSTALL_PATH=$(KSFT_INSTALL)
selftests: kselftest-install
