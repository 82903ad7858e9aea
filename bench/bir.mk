# SPDX-License-Identifier: GPL-2.0
# Build fragment for the BIR benchmark (make bench; Documentation/performance.rst).
#   $(BENCH_O)/bir_bench   host, plain -O2 (no sanitizers): the BIR
#                          library and compiler part 1 built from source,
#                          as the -O2 neuronsim-cc is
# scripts/bench.sh runs it at 10^4 and 10^5 instructions, 10^3 calls.

BIR_BENCH_SRCS := bench/bir_bench.c $(filter-out userspace/tools/neuronsim-cc.c,$(CC_PLAIN_SRCS))

BENCH_PROGS += $(BENCH_O)/bir_bench
bench-progs: $(BENCH_O)/bir_bench

$(BENCH_O)/bir_bench: $(BIR_BENCH_SRCS) $(wildcard userspace/cc/*.h userspace/cc/bir/*.h) \
		uapi/linux/neuronsim_kbin.h kmod/plan/kbin_check.h $(PLAN_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CC_PLAIN_CFLAGS) -I$(TOP)/userspace/cc/bir -o $@ $(BIR_BENCH_SRCS) $(CC_LIBS) -lm
