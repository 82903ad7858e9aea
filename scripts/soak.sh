#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# soak.sh - run one VM selftest many times in a row in one VM, to show a
# test is deterministic (no hang, no flake) under qemu TCG.
#
#   scripts/soak.sh [-a ARCH] [-t SECONDS] TEST [RUNS]
#
#   TEST      a selftest program of build/vm/ksft (e.g. zeroalloc_test;
#             selftests/Makefile), run from /bin
#   RUNS      how many times (default 50)
#   -a ARCH   insmod arch= (default trn2)
#   -t SECS   timeout of the whole VM run (default 1800)
#
# Prints one line per run and "soak: TEST: P of N runs passed in S s".
# Exit status 0 only when every run passed and the kernel log is clean
# (scripts/vm.sh fails the run on a lockup, naming the run).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
arch=trn2
timeout=1800
while getopts "a:t:" o; do
	case $o in
	a) arch=$OPTARG ;;
	t) timeout=$OPTARG ;;
	*) sed -n '4,16p' "$0" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || { sed -n '4,16p' "$0" >&2; exit 2; }
test=$1
runs=${2:-50}
bin="$top/build/vm/ksft/$test"
[ -x "$bin" ] || { echo "soak.sh: build/vm/ksft/$test missing: run make" >&2; exit 2; }

script=$(mktemp)
trap 'rm -f "$script"' EXIT
cat > "$script" <<EOF
insmod /lib/modules/neuronsim.ko arch=$arch || exit 1
pass=0
t0=\$(date +%s)
i=1
while [ \$i -le $runs ]; do
	echo "# --- running $test (run \$i of $runs)"
	if $test > /tmp/out 2>&1; then
		pass=\$((pass + 1))
		echo "run \$i: ok"
	else
		echo "run \$i: FAILED"
		cat /tmp/out
	fi
	i=\$((i + 1))
done
echo "soak: $test: \$pass of $runs runs passed in \$((\$(date +%s) - t0)) s"
rmmod neuronsim
[ \$pass = $runs ]
EOF
exec bash "$top/scripts/vm.sh" -t "$timeout" -l "$top/build/soak-serial.log" \
	-d "$bin:/bin/$test" "$script"
