#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check.sh - every test of make check: host tests, the fuzzer, checkpatch,
# kernel-doc, then the VM selftests, run by the kernel's run_kselftest.sh from the
# installed kselftest tree (selftests/Makefile).  Counts the (K)TAP
# results - every leaf, nested ones included (scripts/ktap-count.awk) -
# and ends with one line "N passed, N failed, N skipped".  Exit status: 0
# only when nothing failed and something ran.  Expects make all to have
# run (make check does that).
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
export NEURONSIM_SHARED=${NEURONSIM_SHARED:-$top/../shared}
out=build/check
mkdir -p "$out"
tap="$out/tap.log"
: > "$tap"

emit() { tee -a "$tap"; }

# run_tap NAME CMD...: a TAP program; a failure without its own "not ok"
# line still counts as one failure.
run_tap() {
	local name=$1 rc
	shift
	echo "# --- $name"  | emit
	"$@" > "$out/cur.log" 2>&1
	rc=$?
	emit < "$out/cur.log"
	if [ $rc -ne 0 ] && ! grep -q '^not ok' "$out/cur.log"; then
		echo "not ok - $name exited with status $rc" | emit
	fi
}

# check NAME CMD...: one TAP line for a check that is not a TAP program.
check() {
	local name=$1
	shift
	if "$@" > "$out/cur.log" 2>&1; then
		echo "ok - $name" | emit
	else
		echo "not ok - $name" | emit
		sed 's/^/# /' "$out/cur.log" | tail -n 40 | emit
	fi
}

mk() { make -s --no-print-directory "$@"; }

# 1. host tests (ASan + UBSan)
for t in $(mk print-HOST_TESTS); do
	run_tap "$(basename "$t")" "$t"
done

# 2. fuzzers, 30 s each
for f in $(mk print-FUZZERS); do
	check "fuzz $(basename "$f") 30s" bash scripts/fuzz.sh "$f" 30
done

# 3. kernel style
# (warnings in the module fail make all itself: Kbuild's -Werror)
check "checkpatch --strict kmod/ uapi/" mk checkpatch
check "kernel-doc kmod/ uapi/ libneuronsim.h" mk kernel-doc
# every kernel-doc:: directive of Documentation/ pulls a documented name
check "docs: Documentation/'s kernel-doc:: directives resolve" mk docs
# the module's files call each other as a tree (Documentation/module.rst)
check "kmod: no circle among the module's files" bash scripts/kmod-graph.sh -q
# the netlink family's uapi header and policies are what its YNL spec
# generates (scripts/ynl-gen.py)
check "ynl-gen: the netlink uapi header and policies match the YNL spec" \
	python3 scripts/ynl-gen.py --check

# 3b. NEFF host step: plans for the VM, and the NEFF-level bug-report
# scenarios 1, 3, 5 (Documentation/running.rst)
# scripts/neff-plans.sh compiles every real NEFF into build/vm/data/neff
# for selftests/neff_test.c.
if [ -d "$NEURONSIM_SHARED/cases/neff" ]; then
	check "neff: every NEFF of $NEURONSIM_SHARED/cases/neff compiled into a plan for the VM" \
		bash scripts/neff-plans.sh
else
	bash scripts/neff-plans.sh
	echo "ok - neff: plans for the VM # SKIP $NEURONSIM_SHARED/cases/neff is absent (set NEURONSIM_SHARED)" | emit
fi
# Scenarios 1, 3, 5 are NEFF-level: the demo NEFF broken one way each;
# neuronsim-cc must exit 1 with the message and write no plan, so nothing
# can reach the device.  The unbroken demo NEFF compiles (control).
scen=$out/scenarios
rm -rf "$scen"
mkdir -p "$scen"
neff_refused() {	# KIND MESSAGE
	build/bin/mkneff bad "$1" "$scen/$1.neff" || return 1
	build/bin/neuronsim-cc compile "$scen/$1.neff" -o "$scen/$1.kbin" 2> "$scen/$1.err"
	local rc=$?
	cat "$scen/$1.err"
	[ $rc -eq 1 ] || { echo "neuronsim-cc exit status $rc, want 1"; return 1; }
	grep -qF -- "$2" "$scen/$1.err" || { echo "message lacks: $2"; return 1; }
	[ ! -e "$scen/$1.kbin" ] || { echo "a plan was written: $scen/$1.kbin"; return 1; }
}
check "scenarios: control: the demo NEFF compiles into a plan" bash -c \
	"build/bin/mkneff demo $scen/demo.neff && build/bin/neuronsim-cc compile $scen/demo.neff -o $scen/demo.kbin && test -s $scen/demo.kbin"
check "scenario 1: unsupported NEFF feature bits are named, no plan" \
	neff_refused features "unsupported NEFF feature bits 0x10000000008 (bits 3, 40)"
check "scenario 3: a missing def.json member is named, no plan" \
	neff_refused missing-def "member 'sg00/def.json' is missing from the NEFF"
check "scenario 3: a missing weight member is named, no plan" \
	neff_refused missing-weight "var 'w' (var_id 2): file_name 'value_w.npy': member 'sg00/value_w.npy' is missing"
check "scenario 5: a data region not matching the header MD5 is refused as corrupted, no plan" \
	neff_refused corrupt "corrupted NEFF: MD5 of the"
check "a DMA descriptor one byte past its variable is refused at compile time, named, no plan" \
	neff_refused dma-oob "sg00/SP.json: queue 'qSPIO0' block 0 ('load-x'): descriptor 0: from var_id 1 'x': extent 8193 is past its 8192 bytes (access pattern outside its variable)"
for k in features missing-def missing-weight corrupt dma-oob; do
	[ -s "$scen/$k.err" ] && sed "s/^/# $k: /" "$scen/$k.err" | emit
done
# make bench's generated model (bench/gen_model.c) must keep compiling,
# in both forms, to the same plan, as the compiler's checks grow
check "bench: gen_model's 1,000-var model compiles, NEFF file and directory alike" bash -c \
	"make -s --no-print-directory build/bench/gen_model && build/bench/gen_model 1000 $scen/gen.neff $scen/gen > /dev/null &&
	 build/bin/neuronsim-cc compile $scen/gen.neff -o $scen/gen_neff.kbin &&
	 build/bin/neuronsim-cc compile $scen/gen -o $scen/gen_dir.kbin &&
	 cmp $scen/gen_neff.kbin $scen/gen_dir.kbin"

# 4. VM selftests: the kselftest tree (with the NEFF plans just made) at
# /kselftest; selftests/run_vm.sh loads the module, runs run_kselftest.sh
echo "# --- VM selftests (qemu TCG, run_kselftest.sh; kernel ${KVER:-6.1}: $(scripts/kabi.sh "${KVER:-6.1}"))" | emit
ksft=$(mk print-KSFT_INSTALL)
mk kselftest-install
# NSIM_DMA: how much of the real NEFFs the DMA engine test runs
# (selftests/neff.sh; Documentation/dma.rst, "Tests"): subset (make
# check), all (make check-full); run_vm.sh exports the file's settings
# NSIM_NRT: on which real NEFFs selftests/nrt.sh runs run_neff: subset
# (make check, 19 of the 53), all (make check-full)
printf 'NSIM_DMA=%s\nNSIM_NRT=%s\n' "${NSIM_DMA:-subset}" "${NSIM_NRT:-subset}" > "$out/vm-env"
# The VM run's timeout: the slowest run measured was 660 s (make check
# with the real NEFFs, nrt.sh's run_neff over every one of them included,
# on a 2-core machine), so 2400 s is 3.6 times it, and 1.9 times it on a
# machine 1.9 times slower, the most seen between two machines of this
# kind (Documentation/running.rst, "Timeouts").
# 4 GiB: selftests/nrt.sh runs the largest NEFF through libnrt, 2 GiB of
# simulated memory (its variables and the device tensors copied to and
# from them) next to the program's own buffers
vmtime=2400 vmmem=4096
# every queue of the largest NEFFs: the host reference holds every
# variable (up to 2 GiB) next to the device's written pages; make
# check-full's neff.sh took 773 s (Documentation/dma.rst, "Tests")
[ "${NSIM_DMA:-subset}" = all ] && vmtime=7200 vmmem=6144
vm0=$(date +%s)
bash scripts/vm.sh -K "${KVER:-6.1}" -t $vmtime -M $vmmem -q -l "$out/vm-serial.log" -d "$ksft:/kselftest" \
	-d "$out/vm-env:/etc/nsim-env" selftests/run_vm.sh
vmrc=$?
echo "# --- VM run: $(( $(date +%s) - vm0 )) s (timeout $vmtime s)" | emit
sed -n '/^NSIM_BEGIN$/,/^NSIM_END/{/^NSIM_BEGIN$/d;/^NSIM_END/d;/^# --- running /d;/NSIMCAP /d;p}' "$out/vm-serial.log" | emit
# the Neuron tools' consumers (jq, the exporter's key walk, the Python
# Prometheus client) on what selftests/consumers.sh captured in the VM
run_tap "consumers: neuron-ls, neuron-monitor and Prometheus consumers on the VM's captures" \
	bash scripts/consumers.sh "$out/vm-serial.log" "$out/consumers"
if [ $vmrc -eq 0 ]; then
	echo "ok - VM run finished with a clean kernel log" | emit
else
	echo "not ok - VM run failed (status $vmrc); serial log: $out/vm-serial.log" | emit
	grep -nE 'BUG:|WARNING:|Oops|Call Trace|general protection' "$out/vm-serial.log" |
		head -n 20 | sed 's/^/# /' | emit
fi

awk -f scripts/ktap-count.awk "$tap" > "$out/count"
read -r pass skip fail < <(tail -n 1 "$out/count")
echo
sed '$d' "$out/count"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
