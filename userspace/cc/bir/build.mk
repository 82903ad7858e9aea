# SPDX-License-Identifier: GPL-2.0
# Build fragment for userspace/cc/bir/ (BIR IR and the seed-000 passes).
