#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# memory.sh - "will it fit" against the device (KTAP): for every plan of
# data/neff (the real NEFFs, scripts/neff-plans.sh) and data/bir (the
# bundled BIR models, selftests/mk/bir.mk), what neuronsim-cc plan
# --memory -j computed on the host (scripts/plan-memory.sh: from
# NeuronCore 0 and, up to 64 MiB, from the last first core there is room
# for) is what
# the sysfs counters neuron_coreM/stats/memory_usage/device_mem/
# <category>/present of every NeuronCore grow by at LOAD, and they are
# back after UNLOAD (memory_test; Documentation/compiler.rst, "Will it
# fit").  The trn1 plans run on device 1, the trn2 plans on device 0;
# then the counters are back at zero and every JSON of the host ran.
#
#   memory.sh           (the data: $NSIM_DATA, default data/)
cd "$(dirname "$0")" || exit 1
. ./lib.sh
nsim_test_start

mem_data=${NSIM_DATA:-$(pwd)/data}
mem_out=/tmp/memory_test.out
: > "$mem_out"
for dev in 1 0; do
	arch=$(nsim_arch $dev)
	NSIM_DEV=$dev run_tap "memory_test arch=$arch" sh -c \
		"set -o pipefail; memory_test $mem_data/neff $mem_data/bir | tee -a $mem_out"
	check "memory: arch=$arch: stats back to zero" stats_zero $dev
done
mem_want=$(ls "$mem_data"/neff/*.mem.*.json "$mem_data"/bir/*.mem.*.json 2>/dev/null | grep -c .)
check_ran "memory: every plan --memory JSON of the host ran and matched sysfs" \
	"$mem_want" "$mem_out" '^ok [0-9]+ memory '
rm -f "$mem_out"
ktap_finish
