#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# plan-diff.sh - compile NEFFs with two neuronsim-cc binaries and compare
# what they do: the plan bytes (cmp), the exit status and the messages of
# "compile" and the output of "info -j".  For a change that must not
# change any plan or message (Documentation/compiler.rst, "JSON parser").
#
#   scripts/plan-diff.sh OLD NEW [MODEL...]
#
# MODEL: a .neff or an extracted folder; default every NEFF of
# $NEURONSIM_SHARED/cases/neff (../shared).  Prints one line per model
# that differs and "plan-diff: N same, N differ (N plans compared)".
set -uo pipefail

[ $# -ge 2 ] || { echo "usage: plan-diff.sh OLD NEW [MODEL...]" >&2; exit 2; }
old=$1 new=$2
shift 2
top=$(cd "$(dirname "$0")/.." && pwd)
models=("$@")
if [ ${#models[@]} -eq 0 ]; then
	models=("${NEURONSIM_SHARED:-$top/../shared}"/cases/neff/*.neff)
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

same=0 differ=0 plans=0
for m in "${models[@]}"; do
	ok=1
	for b in old new; do
		bin=${!b}
		# one output path for both: the messages name it
		"$bin" compile "$m" -o "$tmp/plan.kbin" >"$tmp/$b.out" 2>&1
		echo "status $?" >>"$tmp/$b.out"
		[ ! -f "$tmp/plan.kbin" ] || mv "$tmp/plan.kbin" "$tmp/$b.kbin"
		"$bin" info -j "$m" >"$tmp/$b.info" 2>&1
		echo "status $?" >>"$tmp/$b.info"
	done
	cmp -s "$tmp/old.out" "$tmp/new.out" || ok=0
	cmp -s "$tmp/old.info" "$tmp/new.info" || ok=0
	if [ -f "$tmp/old.kbin" ] || [ -f "$tmp/new.kbin" ]; then
		plans=$((plans + 1))
		cmp -s "$tmp/old.kbin" "$tmp/new.kbin" || ok=0
	fi
	if [ $ok = 1 ]; then
		same=$((same + 1))
	else
		differ=$((differ + 1))
		echo "differs: $m"
		diff "$tmp/old.out" "$tmp/new.out" | head -5
	fi
	rm -f "$tmp"/*.kbin
done
echo "plan-diff: $same same, $differ differ ($plans plans compared)"
[ $differ = 0 ]
