# SPDX-License-Identifier: GPL-2.0
# Build fragment for userspace/cc/bir/ (the BIR IR, its passes and the
# lowering into the compiler's model).
#
# $(BIR_LIB): IR, JSON, pass manager, passes, lowering, entry points.
# Host tests userspace/tests/bir_*.c -> $(HOST_O)/tests/bir_*, TAP; each
# links the test oracle userspace/tests/bir_interp.c (not in the library).

BIR_DIR		:= userspace/cc/bir
BIR_SRCS	:= ir json passmgr pass_rtmemres pass_sballoc pass_klr \
		   pass_inline_nki pass_inline_bir pass_coalesce lower cli
BIR_OBJS	:= $(patsubst %,$(HOST_O)/bir/%.o,$(BIR_SRCS)) \
		   $(patsubst kmod/plan/%.c,$(HOST_O)/bir/%.o,$(PLAN_SRCS))
BIR_CFLAGS	= $(HOST_CFLAGS) -I$(TOP)/userspace/cc -I$(TOP)/kmod/plan -DBIR_TOP='"$(TOP)"'
BIR_INTERP	:= $(HOST_O)/tests/bir_interp.o

$(HOST_O)/bir/%.o: $(BIR_DIR)/%.c $(BIR_DIR)/bir.h userspace/cc/neuronsim_cc.h $(KSFT_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(BIR_CFLAGS) -c -o $@ $<
# the plan tables (arch names and levels, SBUF geometry, names)
$(HOST_O)/bir/%.o: kmod/plan/%.c $(PLAN_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) -c -o $@ $<

$(BIR_LIB): $(BIR_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@
	ar rcs $@ $^

$(BIR_INTERP): userspace/tests/bir_interp.c userspace/tests/bir_interp.h $(BIR_DIR)/bir.h
	@mkdir -p $(dir $@)
	$(CC) $(BIR_CFLAGS) -c -o $@ $<

# tests that need only the BIR library
BIR_TESTS	:= bir_json bir_names bir_rtmemres bir_sballoc bir_inline_nki \
		   bir_inline_bir bir_coalesce
# the lowering test also needs compiler part 1 (model, compile)
ifneq ($(wildcard userspace/cc/defjson.c),)
ifneq ($(wildcard userspace/cc/compile.c),)
BIR_TESTS	+= bir_lower
endif
endif
# the ones that lower into the compiler's model link it and the KBIN
# library; every pass reads the compiler's dtype table (model.c), so all do
BIR_CC_TESTS	:= bir_lower bir_rtmemres bir_json bir_names bir_sballoc \
		   bir_inline_nki bir_inline_bir bir_coalesce

$(HOST_O)/tests/bir_%: userspace/tests/bir_%.c userspace/tests/bir_test.h userspace/tests/bir_interp.h $(BIR_INTERP) $(BIR_LIB) $(KSFT_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(BIR_CFLAGS) -o $@ $< $(BIR_INTERP) $(BIR_LIB) $(if $(filter $(BIR_CC_TESTS),$(notdir $@)),$(CC_LIB) $(KBIN_LIB) -larchive -lcrypto -lz) -ljansson -lm $(HOST_LDFLAGS)

HOST_TESTS	+= $(addprefix $(HOST_O)/tests/,$(BIR_TESTS))

$(addprefix $(HOST_O)/tests/,$(BIR_CC_TESTS)): $(CC_LIB) $(KBIN_LIB)
