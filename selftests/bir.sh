#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# bir.sh - the bundled BIR models (KTAP): every
# userspace/cc/bir/examples/NAME.bir.json, compiled on the host into
# data/bir/NAME.kbin, and the random lowerable modules of 12 seeds
# (data/bir/genN.kbin) (selftests/mk/bir.mk, installed next to this script
# by selftests/Makefile), is loaded on device 0 (trn2), resolved, read
# back, its DMA queues relocated and run, and unloaded by bir_test; then
# the counters are back at zero, every listed model passed and each ran
# a DMA queue (every bundled example has one, Documentation/
# compiler-passes.rst, "DMA"); the models whose plan carries a compute
# program (Documentation/compute.rst) execute on the device and their
# outputs equal the host reference's byte for byte; bir_mlp executes
# clean with the race check (NEURONSIM_EXEC_F_RACE), and with one wait
# removed from its plan it is caught (Documentation/races.rst).
#
#   bir.sh              (the plans: $NSIM_DATA/bir, default data/bir)
cd "$(dirname "$0")" || exit 1
. ./lib.sh
nsim_test_start

bir_dir=${NSIM_DATA:-$(pwd)/data}/bir
bir_out=/tmp/bir_test.out
echo "# bir: device 0, arch=$(nsim_arch 0)"
run_tap "bir_test" sh -c "set -o pipefail; bir_test $bir_dir | tee $bir_out"
check "bir: stats back to zero" stats_zero 0
bir_want=$(grep -c . "$bir_dir/models.txt" 2>/dev/null)
bir_done=$(grep -E '^ok [0-9]+ bir ' "$bir_out" | grep -vc '^ok [0-9]* bir race check')
check "bir: all ${bir_want:-0} bundled BIR models passed ($bir_done)" \
	test "${bir_want:-0}" -gt 0 -a "${bir_want:-0}" = "$bir_done"
check "bir: every bundled BIR model ran a DMA queue, and x went through SBUF into x_staged in one" sh -c \
	"! grep -E '^ok [0-9]+ bir ' $bir_out | grep -q ' dma queues run=0 ' && grep -qE '^ok [0-9]+ bir .* staged=1' $bir_out"
bir_computed=$(grep -cE '^ok [0-9]+ bir .* computed=[1-9][0-9]* outputs equal=[1-9]' "$bir_out")
check "bir: every model (7 examples, 12 random) computed on the device, outputs equal to the host reference byte for byte ($bir_computed)" \
	test "$bir_computed" -ge 19 -a "$bir_computed" = "${bir_want:-0}"
rm -f "$bir_out"
ktap_finish
