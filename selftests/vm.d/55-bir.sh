# SPDX-License-Identifier: GPL-2.0
# 55-bir.sh - the BIR models in the VM (sourced by run_vm.sh, busybox sh): every
# bundled BIR model, compiled on the host into /data/bir/NAME.kbin
# (selftests/mk/bir.mk), is loaded on trn2, resolved, read back and
# unloaded by bir_test.  Leaves the module unloaded.

bir_list=/data/bir/models.txt
bir_out=/tmp/bir_test.out
echo "# bir: arch=trn2"
check "bir: insmod arch=trn2" nsim_load arch=trn2
run_tap "bir_test" sh -c "bir_test /data/bir | tee $bir_out"
check "bir: stats back to zero" stats_zero
check "bir: rmmod" nsim_unload
bir_want=$(grep -c . "$bir_list" 2>/dev/null)
bir_done=$(grep -cE '^ok [0-9]+ bir ' "$bir_out")
check "bir: all ${bir_want:-0} bundled BIR models passed ($bir_done)" \
	test "${bir_want:-0}" -gt 0 -a "${bir_want:-0}" = "$bir_done"
rm -f "$bir_out"
