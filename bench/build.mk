# SPDX-License-Identifier: GPL-2.0
# Build fragment for bench/: the programs of make bench (scripts/bench.sh),
# target bench-progs.  Not built by make all or make check.
#
#   $(O)/bench/resolve_bench   rel (run under callgrind): the module's
#                              kmod/plan/resolve_core.h, unchanged
#   $(O)/bench/gen_model       rel: a synthetic NEFF + extracted dir
#   $(O)/bench/gen_dma         rel: synthetic NEFFs with a large DMA
#                              program (semaphore set, descriptors)
#   $(O)/bench/bir_bench       rel: the BIR passes on generated modules,
#                              on the libraries neuronsim-cc links
#   $(O)/bench/compute_bench   rel: the compute modules, the host
#                              reference timed on their plans
#   $(O)/bench/num_test       rel: userspace/tests/num_test.c at -O2
#                              (--all, --bench; Documentation/numerics.rst)
#   $(VM_O)/bench/nsim_bench   vm, in the VM (copied to /bin by
#                              scripts/bench.sh, not part of VM_PROGS)

BENCH_RESOLVE	:= resolve_bench
BENCH_RESOLVE_CFLAGS := -I$(TOP)/testlib
$(call programs,BENCH_RESOLVE,rel,bench,$(O)/bench,,bench-progs)

BENCH_GEN	:= gen_model gen_dma
BENCH_GEN_CFLAGS := -I$(TOP)/userspace/tests
$(call programs,BENCH_GEN,rel,bench,$(O)/bench,CC,bench-progs)

BENCH_BIR	:= bir_bench
BENCH_BIR_CFLAGS := -I$(TOP)/userspace/cc/bir -I$(TOP)/testlib
$(call programs,BENCH_BIR,rel,bench,$(O)/bench,BIR,bench-progs)

BENCH_VM	:= nsim_bench
$(call programs,BENCH_VM,vm,bench,$(VM_O)/bench,TESTUTIL NSIM KBIN,bench-progs)

# the compute figures' modules and the host reference's time on their
# plans (bench/compute_bench.c, Documentation/performance.rst)
BENCH_COMPUTE	:= compute_bench
$(call programs,BENCH_COMPUTE,rel,bench,$(O)/bench,KBIN,bench-progs)
# userspace/tests/num_test.c at -O2: num_test --all (every activation
# function over all 2^32 inputs) and --bench (ns per multiply-accumulate)
BENCH_NUM	:= num_test
BENCH_NUM_CFLAGS := -ffp-contract=off -fno-math-errno -isystem $(KSFT) -I$(TOP)/testlib
BENCH_NUM_LDLIBS := -lm
$(call programs,BENCH_NUM,rel,userspace/tests,$(O)/bench,PLAN,bench-progs)
$(REL_O)/obj/userspace/tests/num_test.o: | $(KSFT_STAMP)
# the race detector on generated programs of 10^4..10^6 instructions
# (bench/race_bench.c, Documentation/races.rst)
BENCH_RACE	:= race_bench
BENCH_RACE_CFLAGS := -I$(TOP)/testlib
$(call programs,BENCH_RACE,rel,bench,$(O)/bench,CC,bench-progs)
