# SPDX-License-Identifier: GPL-2.0
# The NEFF tests, "every real NEFF through the whole stack"
# (Documentation/running.rst), in selftests/Makefile:
#   neff_test              every compiled NEFF loaded, resolved, read back
#                          and unloaded (neff.sh)
#   scenario_test          scenarios 2, 4 and 6 of Documentation/running.rst
# The plans and manifest are written to $(NEFF_DATA) by
# scripts/neff-plans.sh ($(O)/bin/mkneff manifest, userspace/tools/build.mk)
# before the VM boots; they are installed as data/neff next to the tests.

NEFF_DATA := $(KSFT_DATA)/neff
