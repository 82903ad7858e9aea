# SPDX-License-Identifier: GPL-2.0
# 50-neff.sh - the real NEFFs in the VM (sourced by run_vm.sh, busybox sh):
# every NEFF that scripts/check.sh compiled on the host (/data/neff) is
# loaded on the generation it was compiled for (trn1 for sunda, trn2 for
# cayman), one insmod per generation; then the load-level bug-report
# scenarios 2, 4 and 6 on trn2.  Leaves the module unloaded.

neff_manifest=/data/neff/manifest.tsv
neff_out=/tmp/neff_test.out
: > "$neff_out"
for arch in trn1 trn2; do
	echo "# neff: arch=$arch"
	check "neff: insmod arch=$arch" nsim_load arch=$arch
	run_tap "neff_test arch=$arch" sh -c "neff_test /data/neff | tee -a $neff_out"
	check "neff: arch=$arch: stats back to zero" stats_zero
	check "neff: rmmod arch=$arch" nsim_unload
done
if [ -s "$neff_manifest" ]; then
	neff_want=$(grep -cE '^(plan|fail)	' "$neff_manifest")
	neff_done=$(grep -cE '^(not )?ok [0-9]+ neff ' "$neff_out")
	check "neff: all $neff_want NEFFs of the manifest ran ($neff_done)" \
		test "$neff_want" = "$neff_done"
fi

echo "# scenarios 2, 4, 6: arch=trn2"
check "scenarios: insmod arch=trn2" nsim_load arch=trn2
run_tap "scenario_test" scenario_test
check "scenarios: stats back to zero" stats_zero
check "scenarios: rmmod" nsim_unload
