#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fresh-check.sh - run CI as it runs on a fresh machine: in a minimal
# Debian bookworm root that never had any of the project's dependencies.
#
#   scripts/fresh-check.sh [-k] [-s SHARED]
#
#   -k          keep the root afterwards (printed) instead of removing it
#   -s SHARED   the folder copied in as ../shared (default: ../shared of
#               this checkout; absent is allowed: the tests then skip
#               what needs it)
#
# The first run builds a minbase root with debootstrap (plus git, which
# CI uses to clone) and caches it as .cache/fresh/bookworm-minbase.tar
# (scripts/fresh-base.sh, shared with scripts/deb-check.sh);
# every run unpacks that into a new directory (under $TMPDIR, default
# /var/tmp), puts a clean clone of HEAD
# at /work/main and a copy of SHARED at /work/shared in it, and runs
# "CI=true bash .ci/run" there as root with /proc, /sys and /dev mounted
# (in a private mount namespace, so nothing stays mounted).  Only
# committed work is tested: uncommitted changes are not in the clone.
# Prints the exit status and the time; exits with .ci/run's status.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/fresh-base.sh"
keep=0
shared="$top/../shared"
while getopts "ks:" o; do
	case $o in
	k) keep=1 ;;
	s) shared=$OPTARG ;;
	*) sed -n '4,22p' "$0" >&2; exit 2 ;;
	esac
done
[ "$(id -u)" = 0 ] || { echo "fresh-check.sh: run as root" >&2; exit 2; }

fresh_base
fresh_root
cleanup() {
	if [ $keep = 1 ]; then
		echo "fresh-check: root kept at $root"
	else
		rm -rf "$root"
	fi
}
trap cleanup EXIT
mkdir -p "$root/work"
git clone -q "$top" "$root/work/main"
if [ -d "$shared" ]; then
	cp -a "$shared" "$root/work/shared"
	chmod -R u+w "$root/work/shared"
fi
echo "fresh-check: clean clone of $(git -C "$top" rev-parse --short HEAD) in $root/work/main; running CI=true bash .ci/run"

t0=$(date +%s)
set +e
fresh_run "$root" "cd /work/main && bash .ci/run" CI=true 2>&1 |
	tee "$fresh_cache/last.log"
rc=${PIPESTATUS[0]}
set -e
t1=$(date +%s)
echo "fresh-check: .ci/run exited $rc after $((t1 - t0)) s (log $fresh_cache/last.log)"
exit "$rc"
