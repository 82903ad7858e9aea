# SPDX-License-Identifier: GPL-2.0
# Build fragment for bench/: the programs of make bench (scripts/bench.sh).
# Not built by make all or make check.
#
#   $(O)/bench/resolve_bench   host, plain -O2 (run under callgrind): the
#                              module's kmod/plan/resolve_core.h, unchanged
#   $(O)/bench/gen_model       host: a synthetic NEFF + extracted dir
#   $(VM_O)/bench/nsim_bench   static, in the VM (copied to /bin by
#                              scripts/bench.sh, not part of VM_PROGS)

BENCH_O := $(O)/bench
BENCH_CFLAGS := -std=gnu11 $(WARN) -O2 -g -D_GNU_SOURCE \
	-I$(TOP)/uapi -I$(TOP)/kmod/plan
BENCH_PROGS := $(BENCH_O)/resolve_bench $(BENCH_O)/gen_model \
	$(VM_O)/bench/nsim_bench

.PHONY: bench-progs
bench-progs: $(BENCH_PROGS)

$(BENCH_O)/resolve_bench: bench/resolve_bench.c kmod/plan/resolve_core.h \
		uapi/linux/neuronsim_kbin.h
	@mkdir -p $(@D)
	$(CC) $(BENCH_CFLAGS) -o $@ $<

$(BENCH_O)/gen_model: bench/gen_model.c $(CC_LIB) $(KBIN_LIB)
	@mkdir -p $(@D)
	$(CC) $(HOST_CFLAGS) -I$(TOP)/userspace/cc -o $@ $< $(CC_LIB) \
		$(KBIN_LIB) $(HOST_LDFLAGS) $(CC_LIBS)

$(VM_O)/bench/nsim_bench: bench/nsim_bench.c $(VM_O)/selftests/plans.o \
		selftests/plans.h $(KBIN_LIB_VM) $(KSFT_STAMP)
	@mkdir -p $(@D)
	$(CC) $(ST_CFLAGS) -o $@ $< $(VM_O)/selftests/plans.o $(KBIN_LIB_VM) \
		-lz $(VM_LDFLAGS)
include bench/bir.mk
