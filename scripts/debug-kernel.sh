#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# debug-kernel.sh - the debug-kernel lane (make check-debug).
#
#   scripts/debug-kernel.sh build   build (or reuse) the debug kernel only
#   scripts/debug-kernel.sh [check] build it, build neuronsim.ko against it,
#                                   boot it and run every VM selftest plus a
#                                   kmemleak scan
#
# The kernel is linux-source-6.1 from /usr/src, configured as x86_64
# defconfig, minus subsystems the VM never uses (to keep the cold build
# short), plus what the VM needs (the memory cgroup controller among it:
# backing pages and DMA runs are charged to the writer's cgroup) and the
# debug options: KASAN, KMEMLEAK, PROVE_LOCKING, DEBUG_ATOMIC_SLEEP,
# PROVE_RCU, DEBUG_OBJECTS.  The build is cached in
# .cache/debug-kernel/build-HASH/, HASH of the tarball and the config
# fragment below, and reused while they are unchanged.  The module is built in a copy of
# the sources (build/check-debug/mod: each checkout its own, the kernel
# shared) so the normal build is untouched.
#
# The lane fails when a selftest fails or when the kernel log shows a
# KASAN, lockdep, kmemleak, DEBUG_OBJECTS, hung task or sleep-in-atomic
# report.  Environment: JOBS (default 2), NICE (default 19),
# DEBUG_VM_TIMEOUT (seconds for the VM run, default 1500: the slowest run
# of the lane's tests measured 526 s, on a 2-core machine loaded by other
# builds, 329 s in scripts/fresh-check.sh; 1500 s is 2.9 times the
# slowest, and 1.5 times it on a machine 1.9 times slower, the most seen
# between two machines of this kind: Documentation/running.rst,
# "Timeouts"), DEBUG_TESTS (the tests to run, default the list below;
# "all" every test).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cache="$top/.cache/debug-kernel"
jobs=${JOBS:-2}
nicelvl=${NICE:-19}
mode=${1:-check}

tarball=$(ls /usr/src/linux-source-6.1*.tar.xz 2>/dev/null | sort -V | tail -n 1)
[ -n "$tarball" ] || { echo "debug-kernel.sh: linux-source-6.1 not installed (scripts/deps.sh)" >&2; exit 2; }

# Config fragment: "y" / "n" / a value per option.
fragment() {
	cat <<'EOF'
SERIAL_8250=y
SERIAL_8250_CONSOLE=y
BLK_DEV_INITRD=y
RD_GZIP=y
DEVTMPFS=y
TMPFS=y
DEBUG_FS=y
DEBUG_FS_ALLOW_ALL=y
MODULES=y
MODULE_UNLOAD=y
NET=y
GENERIC_ALLOCATOR=y
CRC32=y
MEMCG=y
ACPI=y
DEBUG_KERNEL=y
KASAN=y
KASAN_GENERIC=y
KASAN_INLINE=y
DEBUG_KMEMLEAK=y
DEBUG_KMEMLEAK_MEM_POOL_SIZE=40000
DEBUG_KMEMLEAK_AUTO_SCAN=n
PROVE_LOCKING=y
DEBUG_ATOMIC_SLEEP=y
PROVE_RCU=y
DEBUG_OBJECTS=y
DEBUG_OBJECTS_FREE=y
DEBUG_OBJECTS_TIMERS=y
DEBUG_OBJECTS_WORK=y
DEBUG_OBJECTS_RCU_HEAD=y
DEBUG_OBJECTS_ENABLE_DEFAULT=1
DETECT_HUNG_TASK=y
DEFAULT_HUNG_TASK_TIMEOUT=60
DEBUG_INFO_NONE=y
DEBUG_INFO=n
DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT=n
DRM=n
SOUND=n
WIRELESS=n
WLAN=n
CFG80211=n
MAC80211=n
RFKILL=n
USB_SUPPORT=n
NETFILTER=n
NETWORK_FILESYSTEMS=n
ETHERNET=n
NET_VENDOR_INTEL=n
SCSI=n
ATA=n
MD=n
HID=n
AGP=n
FB=n
INPUT_JOYSTICK=n
INPUT_TABLET=n
INPUT_TOUCHSCREEN=n
INPUT_MOUSE=n
HIBERNATION=n
PCCARD=n
SECURITY_SELINUX=n
AUDIT=n
IPV6=n
WIRELESS_EXT=n
EFI=n
VIRTUALIZATION=n
PERF_EVENTS_INTEL_UNCORE=n
EXT4_FS=n
BLK_DEV_SD=n
BLK_DEV_SR=n
CDROM=n
ISO9660_FS=n
MSDOS_FS=n
VFAT_FS=n
QUOTA=n
AUTOFS_FS=n
EOF
}

# The tests of the lane (DEBUG_TESTS replaces the list; "all": every
# test of kselftest-list.txt).  Everything runs several times slower
# under KASAN and lockdep, so the lane runs the tests that drive the
# kernel's concurrent and error paths and leaves the long data-heavy
# ones to make check (Documentation/running.rst, "The debug-kernel
# lane", has the list, why, and the measured times).
debug_tests="resolve_test isolation_test fault_test reloc_test debugfs_test zeroalloc_test
	bus_test cores_test netlink_test scenario_test run_test dma_shape_test exec_test
	tensor_test generations.sh neff.sh bir.sh harden.sh"

frag_hash=$( { fragment; basename "$tarball"; stat -c %s "$tarball"; } | sha1sum | cut -c1-12)
src="$cache/src"
# one build tree per configuration: checkouts with another fragment (a
# branch before a config change) keep theirs
bld="$cache/build-$frag_hash"
stamp="$bld/.nsim-built-$frag_hash"

build_kernel() {
	if [ -f "$stamp" ] && [ -f "$bld/arch/x86/boot/bzImage" ]; then
		echo "debug-kernel: cached build $bld ($frag_hash)"
		return 0
	fi
	local t0 t1
	t0=$(date +%s)
	mkdir -p "$cache"
	if [ ! -f "$src/Makefile" ]; then
		rm -rf "$src"
		mkdir -p "$src"
		echo "debug-kernel: extracting $tarball"
		tar -xJf "$tarball" -C "$src" --strip-components=1
	fi
	rm -f "$bld"/.nsim-built-*
	mkdir -p "$bld"
	make -s -C "$src" O="$bld" x86_64_defconfig >/dev/null
	local args=() line k v
	while IFS= read -r line; do
		k=${line%%=*}
		v=${line#*=}
		case $v in
		y) args+=(--enable "$k") ;;
		n) args+=(--disable "$k") ;;
		*) args+=(--set-val "$k" "$v") ;;
		esac
	done < <(fragment)
	"$src/scripts/config" --file "$bld/.config" "${args[@]}"
	make -s -C "$src" O="$bld" olddefconfig >/dev/null
	# every wanted "y" must have survived olddefconfig
	local miss=0
	while IFS= read -r line; do
		k=${line%%=*}
		v=${line#*=}
		[ "$v" = y ] || continue
		case $k in GENERIC_ALLOCATOR|CRC32|KASAN_INLINE) continue ;; esac
		grep -q "^CONFIG_$k=y" "$bld/.config" ||
			{ echo "debug-kernel: CONFIG_$k=y did not survive olddefconfig" >&2; miss=1; }
	done < <(fragment)
	[ $miss = 0 ] || exit 2
	echo "debug-kernel: building in $bld with -j$jobs (nice $nicelvl)"
	nice -n "$nicelvl" make -s -C "$src" O="$bld" -j"$jobs" bzImage modules_prepare
	t1=$(date +%s)
	echo "$((t1 - t0))" > "$bld/.nsim-build-seconds"
	touch "$stamp"
	echo "debug-kernel: kernel built in $((t1 - t0)) s"
}

build_module() {
	local m="$top/build/check-debug/mod"

	# bzImage leaves the kernel's exports in vmlinux.symvers only
	[ -s "$bld/Module.symvers" ] || cp "$bld/vmlinux.symvers" "$bld/Module.symvers"
	rm -rf "$m"
	mkdir -p "$m"
	cp -a "$top/Kbuild" "$top/kmod" "$top/uapi" "$m/"
	find "$m" \( -name '*.o' -o -name '.*.cmd' -o -name '*.ko' \) -delete
	local t0=$(date +%s)
	nice -n "$nicelvl" make -s -C "$bld" M="$m" -j"$jobs" modules 2>&1 |
		tee "$m/build.log"
	if grep -qiE 'warning|error' "$m/build.log" || [ ! -f "$m/neuronsim.ko" ]; then
		echo "debug-kernel: the module does not build cleanly against $bld" >&2
		exit 1
	fi
	echo "debug-kernel: module $m/neuronsim.ko built in $(( $(date +%s) - t0 )) s"
}

run_lane() {
	local log="$top/build/check-debug/serial.log" out="$top/build/check-debug"
	mkdir -p "$out"
	export NEURONSIM_SHARED=${NEURONSIM_SHARED:-$top/../shared}
	local ksft
	# the real NEFFs' plans, as make check prepares them, and the
	# installed kselftest tree (selftests/Makefile)
	bash "$top/scripts/neff-plans.sh" > /dev/null ||
		[ $? = 2 ] || { echo "debug-kernel: NEFF plans failed" >&2; return 1; }
	make -s --no-print-directory -C "$top" kselftest-install ||
		{ echo "debug-kernel: kselftest-install failed" >&2; return 1; }
	ksft=$(make -s --no-print-directory -C "$top" print-KSFT_INSTALL)
	# the tests this lane runs (run_vm.sh's NSIM_TESTS; empty: all)
	local tests=${DEBUG_TESTS-$debug_tests}
	[ "$tests" = all ] && tests=
	echo "debug-kernel: tests: ${tests:-all of kselftest-list.txt}"
	printf 'export NSIM_TESTS="%s"\n' "$tests" > "$out/run.sh"
	cat >> "$out/run.sh" <<'EOF'
# boot-time objects are not ours: find them now and mark them as seen
echo scan > /sys/kernel/debug/kmemleak 2>/dev/null
echo clear > /sys/kernel/debug/kmemleak 2>/dev/null
# everything runs several times slower here: the DMA engine test on two
# small plans, the engine's race test for 3 s, the concurrency stress for
# 15 s, 50,000 fuzzed ioctls, time bounds of the tests ten times longer
# (Documentation/running.rst)
export NSIM_DMA=small RUN_STRESS_SECONDS=3 STRESS_SECONDS=15
export NSIM_FUZZ_CALLS=50000 NSIM_TIME_SCALE=10
. /kselftest/drivers/neuronsim/run_vm.sh
echo "# --- kmemleak scan"
if [ -w /sys/kernel/debug/kmemleak ]; then
	echo scan > /sys/kernel/debug/kmemleak
	sleep 6
	echo scan > /sys/kernel/debug/kmemleak
	leaks=$(grep -c '^unreferenced object' /sys/kernel/debug/kmemleak)
	if [ "$leaks" = 0 ]; then
		echo "ok 1 kmemleak: no unreferenced objects"
	else
		echo "not ok 1 kmemleak: $leaks unreferenced objects"
		head -n 60 /sys/kernel/debug/kmemleak
	fi
else
	echo "not ok 1 kmemleak: /sys/kernel/debug/kmemleak missing"
fi
echo "1..1"
EOF
	local rc=0
	bash "$top/scripts/vm.sh" -t "${DEBUG_VM_TIMEOUT:-1500}" -q -l "$log" \
		-k "$bld/arch/x86/boot/bzImage" -m "$top/build/check-debug/mod/neuronsim.ko" \
		-d "$ksft:/kselftest" \
		"$out/run.sh" || rc=$?
	sed -n '/^NSIM_BEGIN$/,/^NSIM_END/{/^NSIM_BEGIN$/d;/^NSIM_END/d;/^# --- running /d;p}' "$log" > "$out/tap.log"
	cat "$out/tap.log"
	local reports
	reports=$(sed '/^NSIM_BEGIN$/,/^NSIM_END/d' "$log" |
		grep -cE 'KASAN|kmemleak: [0-9]+ new suspected|possible recursive locking|possible circular locking|inconsistent lock state|suspicious RCU usage|ODEBUG|BUG:|WARNING:|blocked for more than|sleeping function called from invalid context' || true)
	local pass skip fail
	read -r pass skip fail < <(awk -f "$top/scripts/ktap-count.awk" "$out/tap.log" | tail -n 1)
	echo "check-debug: $pass passed, $fail failed, $reports kernel debug reports (vm.sh status $rc); log $log"
	[ "$rc" = 0 ] && [ "$fail" = 0 ] && [ "$reports" = 0 ] && [ "$pass" -gt 0 ]
}

case $mode in
build) build_kernel ;;
check)
	t0=$(date +%s)
	build_kernel
	build_module
	rc=0
	t1=$(date +%s)
	run_lane || rc=$?
	echo "check-debug: VM run took $(( $(date +%s) - t1 )) s"
	echo "check-debug: lane took $(( $(date +%s) - t0 )) s"
	exit $rc
	;;
*) sed -n '4,20p' "$0" >&2; exit 2 ;;
esac
