# SPDX-License-Identifier: GPL-2.0
# Build fragment for userspace/tests, included by the top-level Makefile.
#
# libkbin (host, with sanitizers) and its VM twin: the shared plan checker
# kmod/plan/kbin_check.c plus the KBIN writer and reader of userspace/cc; the
# KBIN host tests; the checker's libFuzzer target and its seed corpus.

KBIN_SRCS := kmod/plan/kbin_check.c $(PLAN_SRCS) userspace/cc/kbin_writer.c \
	userspace/cc/kbin_reader.c
KBIN_HOST_OBJS := $(patsubst %.c,$(HOST_O)/kbin/%.o,$(notdir $(KBIN_SRCS)))
KBIN_VM_OBJS := $(patsubst %.c,$(VM_O)/kbin/%.o,$(notdir $(KBIN_SRCS)))
KBIN_INC := -I$(TOP)/userspace/cc -I$(TOP)/userspace/tests

$(HOST_O)/kbin/%.o: kmod/plan/%.c
	@mkdir -p $(@D)
	$(CC) $(HOST_CFLAGS) $(KBIN_INC) -MMD -MP -c -o $@ $<
$(HOST_O)/kbin/%.o: userspace/cc/%.c
	@mkdir -p $(@D)
	$(CC) $(HOST_CFLAGS) $(KBIN_INC) -MMD -MP -c -o $@ $<
$(HOST_O)/kbin/%.o: userspace/tests/%.c $(KSFT_STAMP)
	@mkdir -p $(@D)
	$(CC) $(HOST_CFLAGS) $(KBIN_INC) -MMD -MP -c -o $@ $<
$(VM_O)/kbin/%.o: kmod/plan/%.c
	@mkdir -p $(@D)
	$(CC) $(VM_CFLAGS) $(KBIN_INC) -MMD -MP -c -o $@ $<
$(VM_O)/kbin/%.o: userspace/cc/%.c
	@mkdir -p $(@D)
	$(CC) $(VM_CFLAGS) $(KBIN_INC) -MMD -MP -c -o $@ $<

$(KBIN_LIB): $(KBIN_HOST_OBJS)
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^
$(KBIN_LIB_VM): $(KBIN_VM_OBJS)
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^

# host test: every checker rule, writer/reader round trip, scale
$(HOST_O)/kbin_check_test: $(HOST_O)/kbin/kbin_check_test.o \
		$(HOST_O)/kbin/kbin_testplan.o $(KBIN_LIB)
	$(CC) $(HOST_LDFLAGS) -o $@ $^ -lz
HOST_TESTS += $(HOST_O)/kbin_check_test

# host test: the plan tables and the shared resolve rule
$(HOST_O)/plan_test: $(HOST_O)/kbin/plan_test.o $(KBIN_LIB)
	$(CC) $(HOST_LDFLAGS) -o $@ $^ -lz
HOST_TESTS += $(HOST_O)/plan_test

# seed corpus generator (also writes the small plan of kbin-format.rst)
$(HOST_O)/kbin_seedgen: $(HOST_O)/kbin/kbin_seedgen.o \
		$(HOST_O)/kbin/kbin_testplan.o $(KBIN_LIB)
	$(CC) $(HOST_LDFLAGS) -o $@ $^ -lz
HOST_BINS += $(HOST_O)/kbin_seedgen

# libFuzzer target: the checker and reader built with clang's fuzzer
# instrumentation; the seed corpus goes to $(O)/fuzz/kbin_check/.
FUZZ_CFLAGS := -std=gnu11 -Wall -Wextra -Werror -g -O1 -D_GNU_SOURCE \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	-I$(TOP)/uapi -I$(TOP)/kmod/plan $(KBIN_INC)
$(HOST_O)/fuzz_kbin_check: userspace/tests/fuzz_kbin_check.c $(KBIN_SRCS) \
		kmod/plan/kbin_check.h kmod/plan/kbin_compat.h $(PLAN_HDRS) \
		uapi/linux/neuronsim_kbin.h userspace/cc/kbin_reader.h userspace/cc/kbin_writer.h \
		$(HOST_O)/kbin_seedgen
	@mkdir -p $(@D)
	$(CLANG) $(FUZZ_CFLAGS) -o $@ userspace/tests/fuzz_kbin_check.c \
		$(KBIN_SRCS) -lz
	mkdir -p $(O)/fuzz/kbin_check
	$(HOST_O)/kbin_seedgen $(O)/fuzz/kbin_check
FUZZERS += $(HOST_O)/fuzz_kbin_check

-include $(wildcard $(HOST_O)/kbin/*.d $(VM_O)/kbin/*.d)
-include userspace/tests/harden.mk
