#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# nrt.sh - the libnrt-compatible runtime (KTAP; Documentation/nrt.rst):
# run_neff, the runtime developer guide's first application built with
# the guide's command line (selftests/Makefile), runs unmodified
#   - on every real NEFF of the manifest (data/neff, scripts/neff-plans.sh),
#     on the device of its generation (sunda: device 1, trn1; cayman:
#     device 0, trn2), each leaving the device's counters at zero;
#   - on every bundled BIR model's NEFF (data/bir/NAME.neff,
#     neuronsim-cc compile --neff) with the inputs of data/nrt/bir/NAME.in,
#     every output equal byte for byte to data/nrt/bir/NAME.expect, the
#     lowered plan's host reference, which bir_expect held to the
#     interpreter's tolerance on the host;
# then nrt_test: every NRT_STATUS of Documentation/nrt.rst provoked,
# concurrent executions, the tensor calls, nothing left after nrt_close.
#
#   nrt.sh     NSIM_NRT says which real NEFFs: all (the default when
#              unset, make check-full), subset (make check: the 1st, 4th,
#              7th, ... of each generation in manifest order, 19 of the 53,
#              the largest plan among them), small (the first two of each
#              generation, a quick run by hand)
cd "$(dirname "$0")" || exit 1
. ./lib.sh
nsim_test_start

data=${NSIM_DATA:-$(pwd)/data}
out=/tmp/nrt.out
rm -rf /tmp/nrt.o
mkdir -p /tmp/nrt.o

# run_neff on every real NEFF of the manifest.  The largest NEFF's input
# and output variables and the device tensors run_neff copies them from
# and to take 2042 MB of simulated memory (Documentation/nrt.rst,
# "Execution"): the backing RAM caps are raised to 2.5 GiB for the loop
# (the VM has 4 GiB, scripts/check.sh) and put back after it.
param=/sys/module/neuronsim/parameters
cap_dev=$(cat $param/backing_limit)
cap_all=$(cat $param/backing_limit_total)
echo $((5 << 29)) > $param/backing_limit
echo $((5 << 29)) > $param/backing_limit_total
neff_ran=0
neff_ok=0
if [ -s "$data/neff/manifest.tsv" ]; then
	for target in sunda cayman; do
		case $target in sunda) dev=1 ;; *) dev=0 ;; esac
		n=0
		for neff in $(awk -F'\t' -v t=$target '$1 == "plan" && $4 == t { print $3 }' \
				"$data/neff/manifest.tsv"); do
			n=$((n + 1))
			case ${NSIM_NRT:-all} in
			small) [ $n -gt 2 ] && break ;;
			subset) [ $((n % 3)) -eq 1 ] || continue ;;
			esac
			neff_ran=$((neff_ran + 1))
			running "run_neff $neff"
			t0=$(date +%s)
			if NEURONSIM_DEVICE=$dev run_neff "$data/neff/$neff" > $out 2>&1 &&
			    grep -q '^output .* fnv1a=0x' $out && stats_zero $dev > /dev/null; then
				neff_ok=$((neff_ok + 1))
			else
				echo "# run_neff $neff on device $dev:"
				sed 's/^/#   /' $out
				stats_zero $dev | sed 's/^/#   /'
			fi
			echo "# run_neff $neff: $(( $(date +%s) - t0 )) s"
		done
	done
	check "nrt: run_neff on the real NEFFs of the manifest, NSIM_NRT=${NSIM_NRT:-all} ($neff_ok of $neff_ran)" \
		test "$neff_ran" -gt 0 -a "$neff_ok" = "$neff_ran"
else
	ktap_result skip "nrt: run_neff on the real NEFFs" "no NEFF manifest (no ../shared)"
fi
echo "$cap_all" > $param/backing_limit_total
echo "$cap_dev" > $param/backing_limit

# run_neff on every bundled BIR model, outputs against the expected bytes
bir_ran=0
bir_ok=0
for m in $(cat "$data/nrt/bir/models.txt" 2>/dev/null); do
	bir_ran=$((bir_ran + 1))
	o=/tmp/nrt.o/$m
	mkdir -p $o
	running "run_neff $m"
	if ! NEURONSIM_DEVICE=0 run_neff "$data/bir/$m.neff" "$data/nrt/bir/$m.in" $o > $out 2>&1; then
		echo "# run_neff $m.neff:"
		sed 's/^/#   /' $out
		continue
	fi
	same=1
	for e in "$data/nrt/bir/$m.expect"/*; do
		if ! cmp "$e" "$o/${e##*/}" > /dev/null 2>&1; then
			echo "# $m: output ${e##*/} differs from the expected bytes"
			same=0
		fi
	done
	[ $same = 1 ] && bir_ok=$((bir_ok + 1))
done
check "nrt: run_neff on every bundled BIR model, outputs equal to the expected bytes ($bir_ok of $bir_ran)" \
	test "$bir_ran" -ge 19 -a "$bir_ok" = "$bir_ran"
check "nrt: device 0 back at zero after the BIR models" stats_zero 0

# the statuses, threads and tensor calls
run_tap "nrt_test" nrt_test
check "nrt: every device back at zero" stats_zero_all
rm -rf /tmp/nrt.o $out
ktap_finish
