# SPDX-License-Identifier: GPL-2.0
# 55-bir.sh - the BIR models in the VM (sourced by run_vm.sh, busybox sh): every
# bundled BIR model, compiled on the host into /data/bir/NAME.kbin
# (selftests/mk/bir.mk), is loaded on device 0 (trn2), resolved, read back
# and unloaded by bir_test.

bir_list=/data/bir/models.txt
bir_out=/tmp/bir_test.out
echo "# bir: device 0, arch=trn2"
run_tap "bir_test" sh -c "bir_test /data/bir | tee $bir_out"
check "bir: stats back to zero" stats_zero 0
bir_want=$(grep -c . "$bir_list" 2>/dev/null)
bir_done=$(grep -cE '^ok [0-9]+ bir ' "$bir_out")
check "bir: all ${bir_want:-0} bundled BIR models passed ($bir_done)" \
	test "${bir_want:-0}" -gt 0 -a "${bir_want:-0}" = "$bir_done"
rm -f "$bir_out"
