#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kabi.sh - the kernel the module is built against, for one kernel
# version the project supports (Documentation/running.rst, "Kernels").
#
#   scripts/kabi.sh [KVER]      the ABI name, e.g. 6.1.0-57-amd64
#   scripts/kabi.sh -k [KVER]   the headers' build tree (KDIR)
#
# KVER is 6.1 (the default) or 6.12.  6.1: the newest installed
# linux-headers-6.1*-amd64 (scripts/deps.sh installs it).  6.12: the
# newest linux-headers-6.12*-amd64, installed or else unpacked by
# scripts/deps.sh into .cache/headers/<abi>/ (Debian bookworm's 6.12
# kernel; nothing is installed on the host for it).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
kdir=0
[ "${1:-}" = -k ] && { kdir=1; shift; }
kver=${1:-6.1}
case $kver in
6.1 | 6.12) ;;
*) echo "kabi.sh: kernel '$kver' is not supported (6.1, 6.12)" >&2; exit 2 ;;
esac
# the newest header tree of that version: installed ones first
d=$(ls -d "/usr/src/linux-headers-$kver".*-amd64 2>/dev/null | grep -v -e -cloud- -e -rt- | sort -V | tail -n 1 || true)
if [ -z "$d" ] && [ "$kver" != 6.1 ]; then
	d=$(ls -d "$top/.cache/headers/"*/usr/src/"linux-headers-$kver".*-amd64 2>/dev/null |
		grep -v -e -cloud- -e -rt- | sort -V | tail -n 1 || true)
fi
[ -n "$d" ] || { echo "kabi.sh: no linux-headers-$kver.*-amd64: run scripts/deps.sh" >&2; exit 1; }
if [ $kdir = 1 ]; then
	echo "$d"
else
	basename "$d" | sed 's/^linux-headers-//'
fi
