# SPDX-License-Identifier: GPL-2.0
# 50-neff.sh - the real NEFFs in the VM (sourced by run_vm.sh, busybox sh):
# every NEFF that scripts/check.sh compiled on the host (/data/neff) is
# loaded on a device of the generation it was compiled for (device 1,
# trn1, for sunda; device 0, trn2, for cayman); then the load-level
# bug-report scenarios 2, 4 and 6 on device 0.

neff_manifest=/data/neff/manifest.tsv
neff_out=/tmp/neff_test.out
: > "$neff_out"
for d in 1:trn1 0:trn2; do
	dev=${d%%:*}
	arch=${d#*:}
	echo "# neff: device $dev, arch=$arch"
	NSIM_DEV=$dev run_tap "neff_test arch=$arch" sh -c "neff_test /data/neff | tee -a $neff_out"
	check "neff: arch=$arch: stats back to zero" stats_zero $dev
done
if [ -s "$neff_manifest" ]; then
	neff_want=$(grep -cE '^(plan|fail)	' "$neff_manifest")
	neff_done=$(grep -cE '^(not )?ok [0-9]+ neff ' "$neff_out")
	check "neff: all $neff_want NEFFs of the manifest ran ($neff_done)" \
		test "$neff_want" = "$neff_done"
fi

echo "# scenarios 2, 4, 6: device 0, arch=trn2"
run_tap "scenario_test" scenario_test
check "scenarios: stats back to zero" stats_zero 0
