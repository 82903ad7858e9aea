# SPDX-License-Identifier: GPL-2.0
# Build fragment for userspace/cc, included by the top-level Makefile.
#
# libneuronsim-cc (the compiler library: NEFF reader, def.json front end,
# mem_ref build tree, symbol table, compile pipeline, NEFF writer), the
# neuronsim-cc command (sanitized host build and a plain -O2 copy in
# $(O)/bin for scripts), and the compiler's host tests cc_*.

CC_SRCS := hash.c model.c memref.c symtab.c neff.c defjson.c compile.c \
	neff_writer.c
CC_HOST_OBJS := $(patsubst %.c,$(HOST_O)/cc/%.o,$(CC_SRCS))
CC_INC := -I$(TOP)/userspace/cc
CC_LIBS := -ljansson -larchive -lcrypto -lz

$(HOST_O)/cc/%.o: userspace/cc/%.c
	@mkdir -p $(@D)
	$(CC) $(HOST_CFLAGS) $(CC_INC) -MMD -MP -c -o $@ $<

$(CC_LIB): $(CC_HOST_OBJS)
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^

$(HOST_O)/cc/neuronsim-cc.o: userspace/tools/neuronsim-cc.c
	@mkdir -p $(@D)
	$(CC) $(HOST_CFLAGS) $(CC_INC) -MMD -MP -c -o $@ $<

$(HOST_O)/bin/neuronsim-cc: $(HOST_O)/cc/neuronsim-cc.o $(BIR_LIB) $(CC_LIB) $(KBIN_LIB)
	@mkdir -p $(@D)
	$(CC) $(HOST_LDFLAGS) -o $@ $^ $(CC_LIBS) -lm
HOST_BINS += $(HOST_O)/bin/neuronsim-cc

# Plain optimized copy (no sanitizers) for scripts and the demo.
CC_PLAIN_CFLAGS := -std=gnu11 $(WARN) -O2 -g -D_GNU_SOURCE -I$(TOP)/uapi \
	-I$(TOP)/kmod/plan $(CC_INC)
CC_PLAIN_SRCS := $(addprefix userspace/cc/,$(CC_SRCS) kbin_writer.c \
	kbin_reader.c) kmod/plan/kbin_check.c $(PLAN_SRCS) \
	userspace/tools/neuronsim-cc.c \
	$(addprefix userspace/cc/bir/,$(addsuffix .c,$(BIR_SRCS)))
$(O)/bin/neuronsim-cc: $(CC_PLAIN_SRCS) $(wildcard userspace/cc/*.h userspace/cc/bir/*.h) \
		uapi/linux/neuronsim_kbin.h kmod/plan/kbin_check.h $(PLAN_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CC_PLAIN_CFLAGS) -o $@ $(CC_PLAIN_SRCS) $(CC_LIBS) -lm
HOST_BINS += $(O)/bin/neuronsim-cc

# Host tests of the compiler (kselftest harness, TAP).
CC_TESTS := cc_memref cc_neff cc_defjson cc_real_neff
$(HOST_O)/cc/%.o: userspace/tests/%.c $(KSFT_STAMP)
	@mkdir -p $(@D)
	$(CC) $(HOST_CFLAGS) $(CC_INC) -MMD -MP -c -o $@ $<
$(addprefix $(HOST_O)/,$(CC_TESTS)): $(HOST_O)/%: $(HOST_O)/cc/%.o \
		$(CC_LIB) $(KBIN_LIB)
	$(CC) $(HOST_LDFLAGS) -o $@ $^ $(CC_LIBS)
HOST_TESTS += $(addprefix $(HOST_O)/,$(CC_TESTS))

-include $(wildcard $(HOST_O)/cc/*.d)
