# SPDX-License-Identifier: GPL-2.0
# The library tests: libneuronsim, the "neuronsim" netlink family and the
# neuronsim command (Documentation/userspace.rst), in selftests/Makefile:
#   lib_test         every library call and its error paths
#   netlink_test     doit, dumps across many models/vars, events, strict
#                    policies, visibility, the command's -j parsed back
#   nsim_mkplan      helper: writes plans for cli_test.sh
#   libneuronsim.sh  lib_test and cli_test.sh per device
# Nothing to build here: the programs link libneuronsim (vm flavor).
