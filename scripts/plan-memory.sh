#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# plan-memory.sh - the host's "will it fit" figures of every plan of a VM
# data directory, for selftests/memory_test.c (selftests/memory.sh):
# for each DIR/NAME.kbin, neuronsim-cc plan --memory -j from NeuronCore 0
# into DIR/NAME.mem.0.json and, for a plan of at most 64 MiB, from the
# last first core the plan's generation has room for (its NeuronCores
# minus the plan's subgraphs, when that is not 0) into
# DIR/NAME.mem.LAST.json (Documentation/compiler.rst, "Will it fit").
#
#   plan-memory.sh DIR      (NSIM_CC: the command, default
#                           build/bin/neuronsim-cc)
#
# Used by scripts/neff-plans.sh and selftests/mk/bir.mk.  Exit status 0;
# 1 when the command failed or said a plan does not fit.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cc=${NSIM_CC:-$top/build/bin/neuronsim-cc}
dir=$1
rm -f "$dir"/*.mem.*.json
for k in "$dir"/*.kbin; do
	[ -e "$k" ] || continue
	b=${k%.kbin}
	if ! "$cc" plan --memory -j "$k" > "$b.mem.0.json"; then
		echo "plan-memory.sh: $k: neuronsim-cc plan --memory failed, or the plan does not fit NeuronCore 0 on" >&2
		exit 1
	fi
	# 0: no room past NeuronCore 0, or a plan above 64 MiB (its second
	# load would only make the VM test longer)
	last=$(python3 -c 'import json, sys; j = json.load(open(sys.argv[1])); print(0 if j["total"] > 64 << 20 else j["device"]["cores"] - len(j["cores"]))' \
		"$b.mem.0.json") || exit 1
	[ "$last" -gt 0 ] || continue
	if ! "$cc" plan --memory -j --first-core "$last" "$k" > "$b.mem.$last.json"; then
		echo "plan-memory.sh: $k: neuronsim-cc plan --memory --first-core $last failed, or the plan does not fit" >&2
		exit 1
	fi
done
