#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kabi.sh - print the ABI name (e.g. 6.1.0-56-amd64) of the newest installed
# linux-headers-*-amd64, which is what the module is built against.
set -euo pipefail
d=$(ls -d /usr/src/linux-headers-*-amd64 2>/dev/null | sort -V | tail -n 1)
[ -n "$d" ] || { echo "kabi.sh: no linux-headers-*-amd64 installed" >&2; exit 1; }
basename "$d" | sed 's/^linux-headers-//'
