# SPDX-License-Identifier: GPL-2.0
#
# neuronsim top-level Makefile.
#
#   make            module (neuronsim.ko), userspace programs, selftests
#   make run        set-up, build, boot the VM and run the main job
#   make check      set-up, build, every test; ends with "N passed, N failed"
#   make bench      benchmarks (not part of check)
#   make fuzz SECONDS=N   libFuzzer targets for N seconds each
#   make checkpatch checkpatch.pl --strict over the kernel code
#   make check-debug the selftests on a KASAN/lockdep/kmemleak kernel
#
# KDIR=<kernel build tree> builds the module against another kernel.

TOP	:= $(CURDIR)
O	:= $(TOP)/build
KABI	:= $(shell $(TOP)/scripts/kabi.sh 2>/dev/null)
KDIR	?= /lib/modules/$(KABI)/build
ifeq ($(wildcard $(KDIR)),)
KDIR	:= /usr/src/linux-headers-$(KABI)
endif
SECONDS	?= 30
LINUX_SRC_TAR := $(lastword $(sort $(wildcard /usr/src/linux-source-6.1*.tar.xz)))

# Kernel harness headers and checkpatch, extracted at build time (never in git)
KSFT	:= $(O)/ksft
KSFT_STAMP := $(KSFT)/.stamp

# Host build: tests and tools, with sanitizers.
HOST_O	:= $(O)/host
SAN	:= -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
WARN	:= -Wall -Wextra -Werror
HOST_CFLAGS := -std=gnu11 $(WARN) -g -O1 $(SAN) -D_GNU_SOURCE \
	-I$(TOP)/uapi -I$(TOP)/kmod/plan -isystem $(KSFT) $(EXTRA_CFLAGS)
HOST_LDFLAGS := $(SAN)

# VM build: statically linked programs for the busybox initramfs.
VM_O	:= $(O)/vm
VM_CFLAGS := -std=gnu11 $(WARN) -O2 -g -D_GNU_SOURCE \
	-I$(TOP)/uapi -I$(TOP)/kmod/plan -isystem $(KSFT)
VM_LDFLAGS := -static -pthread

CC	?= gcc
CLANG	?= clang

# The tables of kmod/plan (generations, kinds, names), compiled into every
# library and program that reads them.
PLAN_SRCS	:= kmod/plan/kbin_gen.c kmod/plan/kbin_kind.c kmod/plan/kbin_names.c
PLAN_HDRS	:= kmod/plan/kbin_gen.h kmod/plan/kbin_kind.h kmod/plan/kbin_names.h

# Libraries shared between fragments (defined here so every fragment can
# name them in prerequisites).
# plan checker + KBIN writer/reader, host
KBIN_LIB	:= $(HOST_O)/libkbin.a
# the same, for static VM programs
KBIN_LIB_VM	:= $(VM_O)/libkbin.a
# compiler library, host
CC_LIB		:= $(HOST_O)/libneuronsim-cc.a
# BIR IR, passes and lowering, host
BIR_LIB		:= $(HOST_O)/libneuronsim-bir.a
# runtime client library, host
NSIM_LIB	:= $(HOST_O)/libneuronsim.a
# the same, for VM programs
NSIM_LIB_VM	:= $(VM_O)/libneuronsim.a

# Fragments append to these.
# host test programs (TAP), run by make check
HOST_TESTS :=
# host programs
HOST_BINS :=
# static programs copied into the initramfs /bin
VM_PROGS :=
# selftests run in the VM by make check (subset of VM_PROGS)
VM_TESTS :=
# extra files for the initramfs: "src:dest" pairs
VM_DATA :=
# libFuzzer binaries
FUZZERS :=

.PHONY: all module userspace selftests deps run check bench fuzz checkpatch clean
all: module userspace selftests

$(KSFT_STAMP): $(LINUX_SRC_TAR)
	@test -n "$(LINUX_SRC_TAR)" || { echo "linux-source-6.1 is not installed: run scripts/deps.sh" >&2; exit 1; }
	@mkdir -p $(KSFT)
	tar -xJf $(LINUX_SRC_TAR) -C $(KSFT) --strip-components=1 --wildcards \
		'*/tools/testing/selftests/kselftest_harness.h' \
		'*/tools/testing/selftests/kselftest.h' \
		'*/scripts/checkpatch.pl' '*/scripts/spelling.txt' \
		'*/scripts/const_structs.checkpatch'
	cp $(KSFT)/tools/testing/selftests/kselftest_harness.h $(KSFT)/tools/testing/selftests/kselftest.h $(KSFT)/
	@touch $@

module:
	$(MAKE) -C $(KDIR) M=$(TOP) modules

include userspace/lib/build.mk
include userspace/cc/bir/build.mk
include userspace/cc/build.mk
include userspace/tools/build.mk
include userspace/tests/build.mk
include selftests/build.mk
include bench/build.mk

userspace: $(HOST_TESTS) $(HOST_BINS) $(FUZZERS)
selftests: $(addprefix $(VM_O)/bin/,$(VM_PROGS))

deps:
	bash scripts/deps.sh

run: deps
	$(MAKE) all
	bash scripts/run.sh

check: deps
	$(MAKE) all
	bash scripts/check.sh

bench:
	bash scripts/deps.sh check bench
	$(MAKE) all
	bash scripts/bench.sh

# Debug-kernel lane: linux-source-6.1 with KASAN, KMEMLEAK, PROVE_LOCKING,
# DEBUG_ATOMIC_SLEEP, PROVE_RCU, DEBUG_OBJECTS (cached in
# .cache/debug-kernel/), the module built against it, every VM selftest
# and a kmemleak scan; fails on any report.  Documentation/security.rst.
.PHONY: check-debug
check-debug:
	bash scripts/deps.sh check debug
	$(MAKE) userspace selftests
	bash scripts/debug-kernel.sh check

fuzz: $(FUZZERS)
	@for f in $(FUZZERS); do bash scripts/fuzz.sh $$f $(SECONDS) || exit 1; done

checkpatch: $(KSFT_STAMP)
	perl $(KSFT)/scripts/checkpatch.pl --strict --no-tree --terse \
		-f kmod/*.c kmod/*.h kmod/plan/*.c kmod/plan/*.h uapi/linux/*.h

# Not Kbuild's clean: for an external module it deletes every object file
# anywhere under $(TOP), the cached debug kernel in .cache/ included.
clean:
	rm -f neuronsim.ko neuronsim.mod neuronsim.mod.c neuronsim.mod.o \
		neuronsim.o Module.symvers modules.order .*.cmd .module-common.o
	find kmod \( -name '*.o' -o -name '.*.cmd' \) -type f -delete
	rm -rf $(O)

# scripts/check.sh and friends ask for the lists: make -s print-HOST_TESTS
print-%:
	@echo $($*)
