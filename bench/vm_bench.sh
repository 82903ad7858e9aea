# SPDX-License-Identifier: GPL-2.0
# vm_bench.sh - the in-VM part of make bench (busybox sh), run by
# scripts/bench.sh through scripts/vm.sh.  Prints "key value" lines, each
# step's keys prefixed with its name ("ioctl.", "load.1.10000.", ...), and
# "bench_error STEP" when a step fails.  /bench/scale lists the plan
# sizes of the load steps; /bench/mode is "icount" in the instruction-
# counted lane (scripts/vm.sh -i), where every repetition gives the same
# count, so each step runs fewer times.  /bench/neff.kbin and
# /bench/neff_nodma.kbin, when present, are a real NEFF's plan with and
# without its DMA programs, loaded on a device 1 of generation
# /bench/neff_arch made for them; /bench/exec_neff.kbin the plan of the
# real NEFF with the most instructions (generation /bench/exec_neff_arch),
# executed; /bench/compute/NAME.kbin the compute plans, executed.

sizes=$(cat /bench/scale 2>/dev/null)
[ -n "$sizes" ] || sizes="10000 100000 1000000"
mode=$(cat /bench/mode 2>/dev/null)

# step PREFIX CMD...: run a benchmark, prefix its key/value lines
step() {
	p=$1
	shift
	if "$@" > /tmp/step.out 2>&1; then
		sed "s/^\([a-z0-9_]*\) /$p.\1 /" /tmp/step.out
	else
		sed 's/^/# /' /tmp/step.out
		echo "bench_error $p"
	fi
}

echo "vm_nproc $(grep -c ^processor /proc/cpuinfo)"
echo "vm_kernel $(uname -r)"
insmod /lib/modules/neuronsim.ko arch=trn2 || { echo "bench_error insmod"; exit 1; }

echo "vm_mode ${mode:-wall}"
rounds=7
[ "$mode" != icount ] || rounds=3
step ioctl nsim_bench ioctl 100000 $rounds 20000
step ioctl_small nsim_bench ioctl 1000 $rounds 20000
for n in $sizes; do
	case $n in
	10000) reps=7 ;;
	100000) reps=5 ;;
	*) reps=3 ;;
	esac
	[ "$mode" != icount ] || reps=1
	step "load.1.$n" nsim_bench load "$n" 1 "$reps"
	step "load.4.$n" nsim_bench load "$n" 4 "$reps"
done
step mem nsim_bench mem 1000000
step backing nsim_bench backing
# relocation: 100 / 1,000 / 10,000 descriptors of 160 UDMA descriptors a side,
# then the real NEFF on a device of its generation
rreps=3
[ "$mode" != icount ] || rreps=1
step reloc nsim_bench reloc $rreps 100 1000 10000
if [ -f /bench/neff.kbin ] && [ -f /bench/neff_nodma.kbin ]; then
	if echo "1 $(cat /bench/neff_arch)" > /sys/bus/neuronsim/new_device; then
		export NSIM_DEV=1
		step reloc nsim_bench reloc-neff /bench/neff.kbin /bench/neff_nodma.kbin $rreps
		unset NSIM_DEV
		echo 1 > /sys/bus/neuronsim/del_device || echo "bench_error del_device"
	else
		echo "bench_error new_device"
	fi
fi
# the DMA engine: 64 MiB HBM -> SBUF -> HBM, cold and warm, against
# memcpy(); the best of 3 loads with 3 warm runs each (icount: 1 and 1)
dreps=3
[ "$mode" != icount ] || dreps=1
step dma nsim_bench dma $dreps $dreps
# the sequencers (Documentation/execute.rst): chains of 10^4, 10^5 and
# 10^6 instructions, EXECUTE to the end; then the real NEFF with the most
# instructions on a device of its generation
xreps=3
[ "$mode" != icount ] || xreps=1
step exec nsim_bench exec $xreps 10000 100000 1000000
if [ -f /bench/exec_neff.kbin ]; then
	if echo "1 $(cat /bench/exec_neff_arch)" > /sys/bus/neuronsim/new_device; then
		export NSIM_DEV=1
		step exec nsim_bench exec-neff /bench/exec_neff.kbin $xreps
		unset NSIM_DEV
		echo 1 > /sys/bus/neuronsim/del_device || echo "bench_error del_device"
	else
		echo "bench_error new_device"
	fi
fi
# compute: BIR modules lowered to neuronsim's compute encoding, executed
# on device 0 (trn2) with zero inputs (bench/compute_bench.c)
for f in /bench/compute/*.kbin; do
	[ -f "$f" ] || continue
	step "compute.$(basename "$f" .kbin)" nsim_bench exec-neff "$f" $xreps
done
for k in models mem_refs kmem_bytes backing_bytes hbm_used; do
	echo "after.$k $(sed -n "s/^$k //p" /sys/kernel/debug/neuronsim/stats)"
done
rmmod neuronsim || echo "bench_error rmmod"
