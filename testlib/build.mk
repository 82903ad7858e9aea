# SPDX-License-Identifier: GPL-2.0
# Build fragment of testlib/, the one test library (Documentation/
# running.rst, "The test library"), included by the top-level Makefile:
# libtestutil.a, one per flavor that has tests.  Host tests, fuzz targets,
# selftests and benches link it; what a flavor leaves out needs what that
# flavor lacks (a device, the BIR front end):
#   tl_rec.c          every flavor: the record builder (struct tl_rec) and
#                     the I/O plan builder (struct tl_io) on the KBIN writer
#   kbin_mutate.c     every flavor: crafted DMA descriptors, the fuzzers'
#                     structure-aware mutator
#   kbin_testplan.c   host: the full "every kind" plan and its round-trip
#                     inputs (tp_*)
#   bir_gen.c         host, fuzz: random well-formed BIR modules and the
#                     differential checks of the passes and the lowering on
#                     them (bir_gen.h; needs the BIR library, the
#                     interpreter and the host reference prog_ref.c)
#   bir_tol.c         host, fuzz: the tolerance of an engine program's
#                     outputs against the interpreter (bir_tol.h; bir_prog
#                     and bir_gen's second oracle)
#   plans.c           vm: plans and ioctl/debugfs helpers of the kernel
#                     runtime tests (plans.h)
# plus, outside testlib/, the BIR reference interpreter (host, fuzz,
# userspace/tests/bir_interp.c) and the netlink helpers of the adversarial
# selftests (vm, selftests/harden_nl.c).

$(call library,TESTUTIL,libtestutil,host vm fuzz)
TESTUTIL_SRCS_host := testlib/tl_rec.c testlib/kbin_mutate.c testlib/tl_compute.c \
	testlib/kbin_testplan.c testlib/bir_gen.c testlib/bir_tol.c \
	userspace/tests/bir_interp.c
TESTUTIL_SRCS_vm := testlib/tl_rec.c testlib/kbin_mutate.c testlib/tl_compute.c testlib/plans.c \
	selftests/harden_nl.c
TESTUTIL_SRCS_fuzz := testlib/tl_rec.c testlib/kbin_mutate.c testlib/bir_gen.c \
	testlib/bir_tol.c userspace/tests/bir_interp.c
TESTUTIL_INC	:= -I$(TOP)/testlib -I$(TOP)/userspace/tests \
	-I$(TOP)/selftests -I$(TOP)/userspace/lib
TESTUTIL_USES	:= KBIN
