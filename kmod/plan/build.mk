# SPDX-License-Identifier: GPL-2.0
# Build fragment of the plan layer for userspace, included by the top-level
# Makefile: libplan.a (the generation, kind, name and DMA tables, the DMA
# rules and walker, the plan checker) in every flavor, from the same
# kmod/plan/*.c the module compiles.  The list is the plan/ objects of
# kmod/objs.mk, so a new kmod/plan/ file is one word there for both sides.

include kmod/objs.mk

$(call library,PLAN,libplan,host rel vm fuzz)
PLAN_DIR	:= kmod/plan
PLAN_SRCS	:= $(patsubst plan/%.o,%.c,$(filter plan/%,$(NEURONSIM_OBJS)))

# kbin_num.c, the only float code: IEEE binary32 as written, the same on
# both sides (Kbuild has the module's flags): no fused multiply-add, sqrt
# as the sqrtss instruction.  Harmless to the integer-only files.
PLAN_CFLAGS	:= -ffp-contract=off -fno-math-errno
