#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# neff.sh - the real NEFFs (KTAP): every NEFF scripts/neff-plans.sh
# compiled on the host (data/neff, installed next to this script by
# selftests/Makefile) is loaded by neff_test on a device of the
# generation it was compiled for - device 1 (trn1) for sunda, device 0
# (trn2) for cayman - then the counters are back at zero, and every NEFF
# of the manifest ran.  scenario_test (bug-report scenarios 2, 4, 6) runs
# on its own (the Makefile's TEST_GEN_PROGS).
#
#   neff.sh             (NSIM_NEFF_DEVICES="INDEX ...", default "1 0";
#                        the plans: $NSIM_DATA/neff, default data/neff)
cd "$(dirname "$0")" || exit 1
. ./lib.sh
nsim_require_module
PATH=$(pwd):$PATH

neff_dir=${NSIM_DATA:-$(pwd)/data}/neff
neff_manifest=$neff_dir/manifest.tsv
neff_out=/tmp/neff_test.out
: > "$neff_out"
ktap_header
for dev in ${NSIM_NEFF_DEVICES:-1 0}; do
	arch=$(nsim_arch $dev)
	echo "# neff: device $dev, arch=$arch"
	NSIM_DEV=$dev run_tap "neff_test arch=$arch" sh -c "set -o pipefail; neff_test $neff_dir | tee -a $neff_out"
	check "neff: arch=$arch: stats back to zero" stats_zero $dev
done
if [ -s "$neff_manifest" ]; then
	neff_want=$(grep -cE '^(plan|fail)	' "$neff_manifest")
	neff_done=$(grep -cE '^(not )?ok [0-9]+ neff ' "$neff_out")
	check "neff: all $neff_want NEFFs of the manifest ran ($neff_done)" \
		test "$neff_want" = "$neff_done"
fi
rm -f "$neff_out"
ktap_finish
