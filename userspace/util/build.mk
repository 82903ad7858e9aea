# SPDX-License-Identifier: GPL-2.0
# Build fragment for userspace/util, included by the top-level Makefile:
# libnsutil.a, the lowest userspace library, in every flavor: the one
# whole-file reader nsim_read_file() (nsim_file.h).  libkbin, the
# compiler library and libneuronsim use it (libneuronsim's archive and
# shared library carry it: NSIM_BUNDLE), so every program links it.
$(call library,UTIL,libnsutil,host rel vm fuzz)
UTIL_DIR	:= userspace/util
UTIL_SRCS	:= file.c
UTIL_INC	:= -I$(TOP)/userspace/util
