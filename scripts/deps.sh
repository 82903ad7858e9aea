#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# deps.sh - install what neuronsim needs on Debian bookworm, as root.
# Idempotent: installs only what is missing, fetches the kernel image that
# matches the installed headers' ABI once into .cache/kernel/<abi>/.
#
#   scripts/deps.sh          build and test dependencies
#   scripts/deps.sh bench    also valgrind and jq (for make bench)
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cache="$top/.cache"

pkgs=(build-essential make gcc clang libclang-rt-14-dev linux-headers-amd64
      qemu-system-x86 busybox-static cpio gzip xz-utils
      libnl-3-dev libnl-genl-3-dev libjansson-dev libarchive-dev libssl-dev
      zlib1g-dev linux-source-6.1 libxml2-utils)
[ "${1:-}" = bench ] && pkgs+=(valgrind jq)

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	if [ "$(id -u)" != 0 ]; then
		echo "deps.sh: missing packages: ${missing[*]} (run as root)" >&2
		exit 1
	fi
	echo "deps.sh: installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q >/dev/null
	apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
fi

# The kernel ABI of the installed headers, e.g. 6.1.0-56-amd64.
abi=$("$top/scripts/kabi.sh")
kdir="$cache/kernel/$abi"
if [ ! -f "$kdir/vmlinuz" ]; then
	echo "deps.sh: fetching linux-image-$abi"
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	(cd "$tmp" && apt-get download -q "linux-image-$abi" >/dev/null 2>&1 ||
		{ apt-get update -q >/dev/null && apt-get download -q "linux-image-$abi" >/dev/null; })
	dpkg-deb -x "$tmp"/linux-image-*.deb "$tmp/root"
	mkdir -p "$kdir"
	cp "$tmp/root/boot/vmlinuz-$abi" "$kdir/vmlinuz"
	cp "$tmp/root/boot/config-$abi" "$kdir/config"
	cp "$tmp/root/boot/System.map-$abi" "$kdir/System.map" 2>/dev/null || true
fi
echo "deps.sh: ok (kernel $abi)"
