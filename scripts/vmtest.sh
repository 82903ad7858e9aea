#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# vmtest.sh - run some of the VM selftests, by name, the way make check
# runs them all: the module loaded, devices 0 (trn2), 1 (trn1) and 2
# (trn3), the named tests of kselftest-list.txt through run_kselftest.sh,
# then the checks at the end (counters zero, rmmod leaves nothing).
#
#   scripts/vmtest.sh [-t SECONDS] [-M MIB] [-K KVER] TEST...
#
#   TEST      a name of selftests/Makefile's TEST_GEN_PROGS or TEST_PROGS
#             (run_test, harden.sh, ...), as kselftest-list.txt has it;
#             any other name (load_test, a program harden.sh runs) is
#             refused before the VM boots (status 2)
#   -t, -M    passed to scripts/vm.sh (default 900 s, 4096 MiB, as make check)
#   -K KVER   the kernel booted, and the module built for it: 6.1
#             (default) or 6.12 (make KVER=6.12 module; make check-6.12)
#
# Expects make all to have run.  Prints the KTAP log (also in
# build/vmtest/tap.log; build/vmtest-6.12/ with -K 6.12) and ends with
# "N passed, N failed, N skipped";
# exit status 0 only when nothing failed and something ran.
# Environment: NSIM_DMA and NSIM_NRT as for make check (default subset).
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
export NEURONSIM_SHARED=${NEURONSIM_SHARED:-$top/../shared}
timeout=900 mem=4096 kver=6.1
while getopts "t:M:K:" o; do
	case $o in
	t) timeout=$OPTARG ;;
	M) mem=$OPTARG ;;
	K) kver=$OPTARG ;;
	*) sed -n '4,18p' "$0" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || { sed -n '4,18p' "$0" >&2; exit 2; }
out=build/vmtest
[ "$kver" = 6.1 ] || out=build/vmtest-$kver
mkdir -p "$out"
bash scripts/neff-plans.sh > /dev/null || [ $? = 2 ] || exit 1
make -s --no-print-directory kselftest-install || exit 1
ksft=$(make -s --no-print-directory print-KSFT_INSTALL)
# a name that is not in the list ran nothing and still said "0 failed"
bad=
for t in "$@"; do
	grep -qx "drivers/neuronsim:$t" "$ksft/kselftest-list.txt" || bad="$bad '$t'"
done
if [ -n "$bad" ]; then
	echo "vmtest.sh:$bad: not a test of $ksft/kselftest-list.txt;" \
		"the tests are: $(sed 's,^drivers/neuronsim:,,' "$ksft/kselftest-list.txt" | tr '\n' ' ')" \
		"(the Makefile's other programs run inside them: load_test and info_test in generations.sh, budget_test and harden_test in harden.sh, ...)" >&2
	exit 2
fi
printf 'NSIM_DMA=%s\nNSIM_NRT=%s\nNSIM_TESTS="%s"\n' "${NSIM_DMA:-subset}" "${NSIM_NRT:-subset}" "$*" > "$out/vm-env"
vm0=$(date +%s)
bash scripts/vm.sh -K "$kver" -t "$timeout" -M "$mem" -q -l "$out/serial.log" \
	-d "$ksft:/kselftest" -d "$out/vm-env:/etc/nsim-env" selftests/run_vm.sh
rc=$?
sed -n '/^NSIM_BEGIN$/,/^NSIM_END/{/^NSIM_BEGIN$/d;/^NSIM_END/d;/^# --- running /d;/NSIMCAP /d;p}' \
	"$out/serial.log" > "$out/tap.log"
echo "# --- VM run (kernel $kver): $(( $(date +%s) - vm0 )) s (timeout $timeout s)" >> "$out/tap.log"
# consumers.sh's captures, read by the consumers on the host
if grep -q 'NSIMCAP ' "$out/serial.log"; then
	echo "# --- consumers (scripts/consumers.sh)" >> "$out/tap.log"
	bash scripts/consumers.sh "$out/serial.log" "$out/consumers" >> "$out/tap.log" 2>&1 ||
		echo "not ok - scripts/consumers.sh exited with status $?" >> "$out/tap.log"
fi
[ $rc -eq 0 ] || echo "not ok - VM run failed (status $rc); serial log: $out/serial.log" >> "$out/tap.log"
cat "$out/tap.log"
read -r pass skip fail < <(awk -f scripts/ktap-count.awk "$out/tap.log" | tail -n 1)
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
