#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# deb-check.sh - the .deb of make deb as a user installs it: in a fresh
# Debian bookworm root (scripts/fresh-base.sh) apt installs the kernel
# headers of the VM's kernels - 6.1, and 6.12 when scripts/deps.sh 6.12
# has fetched it - and build/deb/neuronsim_*.deb, which pulls dkms and
# the libraries; its postinst has DKMS build the module against each of
# those installed headers.  The check then asks DKMS and the files what
# was installed (module, commands, library, headers, neuronsim.pc, the
# udev rule, group neuronsim), boots each kernel in the VM with the
# module DKMS built for it (scripts/vm.sh -K KVER -m) and runs
# scripts/deb-smoke.sh there: insmod, a plan executed and resolved,
# rmmod.  Removing the package must leave no module behind.
#
#   scripts/deb-check.sh [-k]      -k: keep the root (printed)
#
# Run as root, after make deb (make check-full runs both).  KTAP lines,
# ending with "N passed, N failed".  Documentation/running.rst, "DKMS".
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
. "$top/scripts/fresh-base.sh"
keep=0
[ "${1:-}" = -k ] && keep=1
[ "$(id -u)" = 0 ] || { echo "deb-check.sh: run as root" >&2; exit 2; }
deb=$(ls build/deb/neuronsim_*_amd64.deb 2>/dev/null | tail -n 1)
[ -n "$deb" ] || { echo "deb-check.sh: no build/deb/neuronsim_*.deb: run make deb" >&2; exit 2; }
# the kernels: KVER and ABI of each
kvers=(6.1) abis=("$(scripts/kabi.sh 6.1)") || exit 2
if a=$(scripts/kabi.sh 6.12 2>/dev/null) && [ -f ".cache/kernel/$a/vmlinuz" ]; then
	kvers+=(6.12) abis+=("$a")
fi
hdrs=$(printf 'linux-headers-%s ' "${abis[@]}")
ver=$(make -s --no-print-directory print-NSIM_VERSION)
out=build/deb-check
rm -rf "$out"
mkdir -p "$out"
t0=$(date +%s)
pass=0 fail=0
result() {	# ok|fail NAME [LOG]
	if [ "$1" = ok ]; then
		pass=$((pass + 1)); echo "ok - $2"
	else
		fail=$((fail + 1)); echo "not ok - $2"
		[ -n "${3:-}" ] && [ -f "$3" ] && tail -n 30 "$3" | sed 's/^/# /'
	fi
}

fresh_base || exit 1
fresh_root
cleanup() {
	if [ $keep = 1 ]; then echo "# deb-check: root kept at $root"; else rm -rf "$root"; fi
}
trap cleanup EXIT
mkdir -p "$root/root/pkg"
cp "$deb" "$root/root/pkg/"

# 1. apt: the headers, then the package (dkms and the libraries with it)
if fresh_run "$root" "export DEBIAN_FRONTEND=noninteractive; apt-get update -q &&
	apt-get install -y -q --no-install-recommends $hdrs pkgconf &&
	apt-get install -y -q --no-install-recommends /root/pkg/$(basename "$deb")" \
	> "$out/apt.log" 2>&1; then
	result ok "apt installs ${hdrs}and $(basename "$deb") in a fresh bookworm root"
else
	result fail "apt installs ${hdrs}and $(basename "$deb") in a fresh bookworm root" "$out/apt.log"
fi

# 2. what DKMS built, and what the package put in place
fresh_run "$root" "dkms status -m neuronsim" > "$out/dkms-status" 2>&1
cat "$out/dkms-status" | sed 's/^/# /'
files_ok() {
	local f
	for f in /usr/bin/neuronsim /usr/bin/neuronsim-cc /usr/lib/libneuronsim.so \
		/usr/include/libneuronsim.h /usr/include/linux/neuronsim.h \
		/usr/lib/pkgconfig/neuronsim.pc /lib/udev/rules.d/60-neuronsim.rules \
		"/usr/src/neuronsim-$ver/dkms.conf"; do
		[ -e "$root$f" ] || { echo "missing: $f"; return 1; }
	done
	grep -q '^neuronsim:' "$root/etc/group" || { echo "no group neuronsim"; return 1; }
	# each must hold: the command runs, and pkg-config (installed with
	# the headers, as a developer has it) resolves the library with what
	# the package's Depends pulled in
	fresh_run "$root" "neuronsim-cc --help > /dev/null" ||
		{ echo "neuronsim-cc --help failed"; return 1; }
	fresh_run "$root" "pkg-config --cflags --libs neuronsim" ||
		{ echo "pkg-config neuronsim failed"; return 1; }
}
files_ok > "$out/files.log" 2>&1 &&
	result ok "commands, libneuronsim, headers, neuronsim.pc, udev rule, group neuronsim installed" ||
	result fail "commands, libneuronsim, headers, neuronsim.pc, udev rule, group neuronsim installed" "$out/files.log"

# check_kernel: what DKMS built for $abi ($kver), booted in the VM
check_kernel() {
	local ko rc
	grep -q "^neuronsim/$ver, $abi, x86_64: installed" "$out/dkms-status" &&
		result ok "dkms status: neuronsim/$ver built and installed for $abi" ||
		result fail "dkms status: neuronsim/$ver built and installed for $abi" "$out/apt.log"
	ko=$(ls "$root/lib/modules/$abi/updates/dkms/"neuronsim.ko* 2>/dev/null | head -n 1)
	[ -n "$ko" ] && result ok "module installed: ${ko#"$root"}" ||
		result fail "module installed under /lib/modules/$abi/updates/dkms/"
	if [ -n "$ko" ]; then
		case $ko in
		*.xz) xz -dc "$ko" > "$kout/neuronsim.ko" ;;
		*.zst) zstd -qdc "$ko" > "$kout/neuronsim.ko" ;;
		*) cp "$ko" "$kout/neuronsim.ko" ;;
		esac
		modinfo "$kout/neuronsim.ko" | sed -n 's/^vermagic: *\(.*\)/vermagic=\1/p' > "$kout/modinfo"
		bash scripts/vm.sh -K "$kver" -m "$kout/neuronsim.ko" -t 600 -q -l "$kout/serial.log" \
			-d selftests/lib.sh:/data/lib.sh -d "$kout/modinfo:/data/modinfo" \
			-d "$out/data/prog.kbin:/data/prog.kbin" scripts/deb-smoke.sh
		rc=$?
		sed -n '/^NSIM_BEGIN$/,/^NSIM_END/{/^NSIM_BEGIN$/d;/^NSIM_END/d;/^# --- running /d;p}' \
			"$kout/serial.log" | sed 's/^/# vm: /'
		[ $rc = 0 ] && result ok "VM (Debian $abi): the DKMS-built module loads, executes and resolves a plan, unloads" ||
			result fail "VM (Debian $abi): the DKMS-built module loads, executes and resolves a plan, unloads (status $rc)"
	fi
}

# 3. per kernel: DKMS's module for it, booted in the VM with a plan of
# mkneff prog
mkdir -p "$out/data"
build/bin/mkneff prog "$out/data/prog.neff" > /dev/null &&
	build/bin/neuronsim-cc compile "$out/data/prog.neff" -o "$out/data/prog.kbin" > /dev/null
for i in "${!kvers[@]}"; do
	kver=${kvers[$i]} abi=${abis[$i]}
	kout=$out/$abi
	mkdir -p "$kout"
	check_kernel
done

# 4. removal: DKMS forgets the module
if fresh_run "$root" "DEBIAN_FRONTEND=noninteractive apt-get remove -y -q neuronsim" > "$out/remove.log" 2>&1 &&
	! ls "$root"/lib/modules/*/updates/dkms/neuronsim.ko* > /dev/null 2>&1 &&
	[ ! -d "$root/var/lib/dkms/neuronsim" ]; then
	result ok "apt remove neuronsim: DKMS removes the module"
else
	result fail "apt remove neuronsim: DKMS removes the module" "$out/remove.log"
fi
echo "# deb-check: $(( $(date +%s) - t0 )) s"
echo "$pass passed, $fail failed"
[ $fail = 0 ] && [ $pass -gt 0 ]
