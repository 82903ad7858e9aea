#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# neff.sh - the real NEFFs (KTAP): every NEFF scripts/neff-plans.sh
# compiled on the host (data/neff, installed next to this script by
# selftests/Makefile) is loaded by neff_test on a device of the
# generation it was compiled for - device 1 (trn1) for sunda, device 0
# (trn2) for cayman - then the counters are back at zero, and every NEFF
# of the manifest ran; then dma_test, the DMA engine against the host
# reference (Documentation/dma.rst, "Tests"), as much as NSIM_DMA says:
#   subset (default, make check): every queue of a fixed subset that has
#          every op (copy, cast f32->f16, int8->f16/f32, 2- and 4-byte
#          transposes), every queue type (in, data, dynamic) and the
#          largest NEFF
#   all    (make check-full): the input queues of every NEFF, then every
#          queue of every NEFF
#   small  (the debug-kernel lane): every queue of two small trn2 plans
#          of the subset, none on trn1
# Then every NEFF executed (dma_test -x: EXECUTE, its program on the
# device, against the host replay of the plan, every trace event; the
# 0xD4s whose data movement is not simulated named), and the bytes an
# execution leaves in SBUF and the outputs against the DMA host reference
# run in the executed order (dma_test -x -b), as NSIM_DMA says: subset
# and small a few NEFFs (Documentation/execute.rst, "Tests"), all every
# NEFF.  scenario_test (bug-report scenarios 2, 4, 6) runs
# on its own (the Makefile's TEST_GEN_PROGS).
#
#   neff.sh             (NSIM_NEFF_DEVICES="INDEX ...", default "1 0";
#                        the plans: $NSIM_DATA/neff, default data/neff)
cd "$(dirname "$0")" || exit 1
. ./lib.sh
nsim_test_start

neff_dir=${NSIM_DATA:-$(pwd)/data}/neff
neff_manifest=$neff_dir/manifest.tsv
neff_out=/tmp/neff_test.out
: > "$neff_out"
for dev in ${NSIM_NEFF_DEVICES:-1 0}; do
	arch=$(nsim_arch $dev)
	echo "# neff: device $dev, arch=$arch"
	NSIM_DEV=$dev run_tap "neff_test arch=$arch" sh -c "set -o pipefail; neff_test $neff_dir | tee -a $neff_out"
	check "neff: arch=$arch: stats back to zero" stats_zero $dev
done
if [ -s "$neff_manifest" ]; then
	neff_want=$(grep -cE '^(plan|fail)	' "$neff_manifest")
	check_ran "neff: all $neff_want NEFFs of the manifest ran" "$neff_want" \
		"$neff_out" '^(not )?ok [0-9]+ neff '
fi
rm -f "$neff_out"

# the executions: every NEFF against the replay; the bytes of a few that
# have every op, several queues racing for SBUF, 0xD4s and both generations
exec_bytes="-n transpose_1024 -n conv2d_1_float16_smaller -n conv2d_3_float32_smaller -n moe_tkg -n matmul_small -n file_pool_1_float16_41258dd"
exec_out=/tmp/exec_test.out
: > "$exec_out"
for dev in ${NSIM_NEFF_DEVICES:-1 0}; do
	arch=$(nsim_arch $dev)
	case ${NSIM_DMA:-subset} in
	small)
		[ "$arch" = trn2 ] || continue
		NSIM_DEV=$dev run_tap "dma_test -x -b arch=$arch: the small subset executed, its bytes compared" \
			dma_test -x -b -n conv2d_1_float16_smaller -n matmul_small "$neff_dir"
		;;
	all)
		# as the every-queue pass below: past the default backing_limit
		NSIM_DEV=$dev with_param backing_limit $((4 << 30)) \
			run_tap "dma_test -x -b arch=$arch: every NEFF executed, its bytes compared" \
			sh -c "set -o pipefail; dma_test -x -b $neff_dir | tee -a $exec_out"
		;;
	*)
		NSIM_DEV=$dev run_tap "dma_test -x arch=$arch: every NEFF executed, against the host replay" \
			sh -c "set -o pipefail; dma_test -x $neff_dir | tee -a $exec_out"
		NSIM_DEV=$dev run_tap "dma_test -x -b arch=$arch: a subset executed, its bytes compared" \
			dma_test -x -b $exec_bytes "$neff_dir"
		;;
	esac
	check "exec: arch=$arch: stats back to zero" stats_zero $dev
done
if [ -s "$neff_manifest" ] && [ "${NSIM_DMA:-subset}" != small ]; then
	exec_want=$(grep -c '^plan	' "$neff_manifest")
	check_ran "exec: all $exec_want plans of the manifest executed" \
		"$exec_want" "$exec_out" '^(not )?ok [0-9]+ exec '
fi
rm -f "$exec_out"

dma_subset="-n conv2d_1_float16_smaller -n conv2d_1_float32_smaller -n conv2d_3_float16_smaller -n conv2d_3_float32_smaller -n moe_tkg -n matmul_small -n file_pool_1_float16_41258dd -n file_pool_1_ae9c11b"
dma_small="-n conv2d_1_float16_smaller -n matmul_small"
for dev in ${NSIM_NEFF_DEVICES:-1 0}; do
	arch=$(nsim_arch $dev)
	case ${NSIM_DMA:-subset} in
	all)
		# every queue of trn1's float32 no_maxpool NEFF writes 1.5 GB
		# of device memory: past the default 1 GiB backing_limit (make
		# check-full boots the VM with 6 GiB, scripts/check.sh)
		NSIM_DEV=$dev with_param backing_limit $((4 << 30)) \
			run_tap "dma_test arch=$arch: input queues" dma_test "$neff_dir"
		NSIM_DEV=$dev with_param backing_limit $((4 << 30)) \
			run_tap "dma_test arch=$arch: every queue" dma_test -a "$neff_dir"
		;;
	small)
		[ "$arch" = trn2 ] || continue
		NSIM_DEV=$dev run_tap "dma_test arch=$arch: every queue of the small subset" \
			dma_test -a $dma_small "$neff_dir"
		;;
	*)
		NSIM_DEV=$dev run_tap "dma_test arch=$arch: every queue of the subset" \
			dma_test -a $dma_subset "$neff_dir"
		;;
	esac
	check "dma: arch=$arch: stats back to zero" stats_zero $dev
done
ktap_finish
