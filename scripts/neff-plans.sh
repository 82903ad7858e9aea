#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# neff-plans.sh - compile every real NEFF of $NEURONSIM_SHARED/cases/neff
# into build/vm/data/neff/NAME.kbin with a manifest (target, subgraphs,
# vars, CRC-32 of each weight's .npy bytes) for selftests/neff_test.c,
# each plan's neuronsim-cc plan --memory JSON (scripts/plan-memory.sh)
# for selftests/memory_test.c, and a copy of each NEFF the manifest lists
# as a plan, which selftests/nrt.sh loads through libnrt (run_neff); it
# is installed as data/neff next to the selftests (selftests/Makefile).
# Used by scripts/check.sh and scripts/debug-kernel.sh.  Exit status 0 when done, 1 on a compile
# failure, 2 when the NEFF folder is absent (the folder is left empty).
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
shared=${NEURONSIM_SHARED:-$top/../shared}
out="$top/build/vm/data/neff"
rm -rf "$out"
mkdir -p "$out"
[ -d "$shared/cases/neff" ] || exit 2
"$top/build/bin/mkneff" manifest "$shared/cases/neff" "$out" || exit 1
# the NEFFs themselves, for run_neff (selftests/nrt.sh)
awk -F'\t' '$1 == "plan" { print $3 }' "$out/manifest.tsv" | while read -r neff; do
	cp "$shared/cases/neff/$neff" "$out/" || exit 1
done || exit 1
# what neuronsim-cc plan --memory says each plan's LOAD charges
# (selftests/memory_test.c)
bash "$top/scripts/plan-memory.sh" "$out"
