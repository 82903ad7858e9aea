# SPDX-License-Identifier: GPL-2.0
# Build fragment for userspace/tests, included by the top-level Makefile.
