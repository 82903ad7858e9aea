#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fuzz.sh - run one libFuzzer target for a while.
#
#   scripts/fuzz.sh FUZZER SECONDS
#
# FUZZER is a binary named fuzz_NAME; its corpus is build/fuzz/NAME/ (seeded
# by the build), crash inputs are kept as build/fuzz/crashes/NAME-crash-*,
# and "FUZZER crashfile" reproduces one.  Prints the number of executions;
# exits non-zero when the fuzzer found a crash, leak or timeout.
set -u

if [ $# -ne 2 ]; then
	echo "usage: $0 FUZZER SECONDS" >&2
	exit 2
fi
fuzzer=$1
secs=$2
top=$(cd "$(dirname "$0")/.." && pwd)
name=$(basename "$fuzzer")
name=${name#fuzz_}
corpus="$top/build/fuzz/$name"
crashes="$top/build/fuzz/crashes"
log="$top/build/fuzz/$name.log"
mkdir -p "$corpus" "$crashes"

"$fuzzer" -max_total_time="$secs" -print_final_stats=1 \
	-artifact_prefix="$crashes/$name-" "$corpus" >"$log" 2>&1
rc=$?
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
echo "fuzz $name: ${execs:-0} executions in ${secs}s (log $log)"
if [ $rc -ne 0 ]; then
	echo "fuzz $name: FAILED (exit $rc); crash inputs in $crashes:" >&2
	ls -1 "$crashes" | grep "^$name-" >&2
	tail -40 "$log" >&2
	exit 1
fi
exit 0
