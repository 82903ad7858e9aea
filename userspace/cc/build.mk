# SPDX-License-Identifier: GPL-2.0
# Build fragment for userspace/cc, included by the top-level Makefile.
