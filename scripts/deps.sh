#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# deps.sh - install what neuronsim needs on Debian bookworm, as root.
# Idempotent: installs only what is missing, fetches the kernel image that
# matches the installed headers' ABI once into .cache/kernel/<abi>/.
#
#   scripts/deps.sh [LANE...]
#
# Lanes (several may be given; no lane means "check"):
#   check   build everything and run make check / make run: compiler,
#           clang + libFuzzer runtime, 6.1 kernel headers and the matching
#           linux-image for the VM, qemu, busybox, the libraries,
#           linux-source-6.1 (kselftest harness, checkpatch)
#   debug   also what building the debug kernel needs (make check-debug)
#   bench   also valgrind and jq (make bench)
#   fresh   also debootstrap (scripts/fresh-check.sh, scripts/deb-check.sh)
#   6.12    also Debian bookworm's 6.12 kernel for make check-6.12 and
#           make KVER=6.12: the newest linux-headers-6.12.*+deb12-amd64
#           apt knows, its -common and linux-kbuild packages, unpacked
#           (dpkg-deb -x, nothing installed) into .cache/headers/<abi>/,
#           and its linux-image-<abi>-unsigned's vmlinuz and config into
#           .cache/kernel/<abi>/ for the VM.  Once there, that ABI is
#           kept (the lane does not move to a newer 6.12 by itself).
#
# Nothing a lane uses is assumed present on the machine: every program a
# lane's scripts call is in its list (or in Debian's essential set).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cache="$top/.cache"

# check: building the module, the userspace programs and the tests, and
# booting the VM.  file(1) tells vm.sh whether busybox is static; g++
# and simdjson build the compiler's JSON reader (userspace/cc/json_view.cc);
# python3 reads the commands' JSON in the host tests, and with
# python3-yaml and python3-jsonschema checks the YNL spec against the
# kernel's schema; rsync installs the selftests (the kernel's lib.mk);
# pkgconf gives pkg-config, with which lib_install_test builds a program
# against the installed libneuronsim (neuronsim.pc); jq and
# python3-prometheus-client are the consumers scripts/consumers.sh runs on
# what the VM's monitor and ls printed.  nettle-dev: libnettle.a, which the VM's
# static link of the compiler library names (-lnettle, libarchive's
# hashes); the machine's image happens to carry it, a fresh root not.
lane_check=(build-essential make gcc g++ clang libclang-rt-14-dev pkgconf
	linux-headers-amd64 qemu-system-x86 busybox-static cpio gzip xz-utils
	file ca-certificates libnl-3-dev libnl-genl-3-dev libjansson-dev
	libsimdjson-dev libarchive-dev nettle-dev libssl-dev zlib1g-dev linux-source-6.1 libxml2-utils
	python3 python3-yaml python3-jsonschema rsync
	python3-prometheus-client jq)
# debug: the kernel build itself (kconfig's lexer and parser, bc for the
# timeconst header, libelf for objtool, openssl for the signing key tool)
lane_debug=(flex bison bc libelf-dev libssl-dev openssl python3 rsync kmod)
lane_bench=(valgrind)
lane_fresh=(debootstrap)
# 6.12: Debian's 6.12 headers name gcc-12 as their compiler
lane_k612=(gcc-12)

lanes=("$@")
[ ${#lanes[@]} -gt 0 ] || lanes=(check)
pkgs=("${lane_check[@]}")
for l in "${lanes[@]}"; do
	case $l in
	check) ;;
	debug) pkgs+=("${lane_debug[@]}") ;;
	bench) pkgs+=("${lane_bench[@]}") ;;
	fresh) pkgs+=("${lane_fresh[@]}") ;;
	6.12) pkgs+=("${lane_k612[@]}") ;;
	*) echo "deps.sh: unknown lane '$l' (check, debug, bench, fresh, 6.12)" >&2; exit 2 ;;
	esac
done

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

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# download PACKAGE... into $tmp/debs (apt's lists refreshed once when a
# name is unknown to them)
download() {
	mkdir -p "$tmp/debs"
	(cd "$tmp/debs" && apt-get download -q "$@" >/dev/null 2>&1 ||
		{ apt-get update -q >/dev/null && apt-get download -q "$@" >/dev/null; })
}

# fetch_kernel ABI PACKAGE: the vmlinuz, config and System.map of
# PACKAGE (a linux-image of ABI) into .cache/kernel/ABI/, once
fetch_kernel() {
	local abi=$1 pkg=$2 kdir="$cache/kernel/$1"
	[ -f "$kdir/vmlinuz" ] && return 0
	echo "deps.sh: fetching $pkg"
	rm -rf "$tmp/debs" "$tmp/root"
	download "$pkg"
	dpkg-deb -x "$tmp"/debs/linux-image-*.deb "$tmp/root"
	mkdir -p "$kdir"
	cp "$tmp/root/boot/config-$abi" "$kdir/config"
	cp "$tmp/root/boot/System.map-$abi" "$kdir/System.map" 2>/dev/null || true
	cp "$tmp/root/boot/vmlinuz-$abi" "$kdir/vmlinuz.part"
	mv "$kdir/vmlinuz.part" "$kdir/vmlinuz"
}

# The kernel ABI of the installed 6.1 headers, e.g. 6.1.0-56-amd64.
abi=$("$top/scripts/kabi.sh" 6.1)
fetch_kernel "$abi" "linux-image-$abi"
abis=$abi

# 6.12: headers unpacked, not installed (a host keeps its own kernel's)
if [[ " ${lanes[*]} " == *" 6.12 "* ]]; then
	if ! abi=$("$top/scripts/kabi.sh" 6.12 2>/dev/null); then
		apt-get update -q >/dev/null
		abi=$(apt-cache search --names-only '^linux-headers-6\.12\.[0-9]+\+deb12-amd64$' |
			awk '{ sub("^linux-headers-", "", $1); print $1 }' | sort -V | tail -n 1)
		[ -n "$abi" ] || { echo "deps.sh: apt knows no linux-headers-6.12.*+deb12-amd64" >&2; exit 1; }
		ver=${abi%-amd64}	# 6.12.118+deb12
		echo "deps.sh: fetching linux-headers-$abi"
		rm -rf "$tmp/debs"
		download "linux-headers-$abi" "linux-headers-$ver-common" \
			"linux-kbuild-$ver"
		hdir="$cache/headers/$abi"
		rm -rf "$hdir.part"
		mkdir -p "$hdir.part"
		for d in "$tmp"/debs/*.deb; do dpkg-deb -x "$d" "$hdir.part"; done
		# its Makefile names the -common tree by its installed path:
		# relative instead (make -C runs it from its own folder)
		sed -i "s#/usr/src/#../#" \
			"$hdir.part/usr/src/linux-headers-$abi/Makefile"
		rm -rf "$hdir"
		mv "$hdir.part" "$hdir"
		abi=$("$top/scripts/kabi.sh" 6.12)
	fi
	fetch_kernel "$abi" "linux-image-$abi-unsigned"
	abis="$abis $abi"
fi
echo "deps.sh: ok (lanes ${lanes[*]}; kernels $abis)"
