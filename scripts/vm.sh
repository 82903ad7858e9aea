#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# vm.sh - boot the Debian kernel under qemu (TCG) with a busybox initramfs
# holding neuronsim.ko, the static test programs and data files, run a
# script inside, power off, and return the script's exit status.
#
#   scripts/vm.sh [-t SECONDS] [-l LOG] [-q] [-d SRC:DEST]... [-K KVER] [-k KERNEL] [-m MODULE] [-M MIB] [-i] [-n] SCRIPT
#
#   SCRIPT        shell script run as root inside the VM (busybox sh), with
#                 proc, sys, devtmpfs and debugfs mounted; cwd is /; the
#                 module is at /lib/modules/neuronsim.ko (not loaded yet),
#                 programs in /bin, data files where -d put them.
#   -t SECONDS    timeout for the whole run (default 600)
#   -l LOG        where to keep the full serial log (default build/vm/serial.log)
#   -q            do not echo the script's output (it is still in LOG)
#   -d SRC:DEST   add file or directory SRC at DEST in the initramfs
#   -K KVER       which Debian kernel boots: 6.1 (default) or 6.12, its
#                 vmlinuz from .cache/kernel/<abi>/ (scripts/deps.sh) and
#                 the module built for it, build/kmod/<abi>/neuronsim.ko
#                 (make KVER=...)
#   -k KERNEL     boot this bzImage instead of the Debian kernel (the
#                 debug-kernel lane, scripts/debug-kernel.sh)
#   -m MODULE     put this neuronsim.ko in the initramfs instead of
#                 KVER's (a module built against KERNEL, or by DKMS)
#   -M MIB        guest RAM in MiB (default 2048; make check-full's DMA
#                 test holds a host reference of the largest NEFFs' every
#                 variable next to the device's written pages: 6144)
#   -i            instruction-counted run: one vCPU, qemu -icount
#                 shift=0,sleep=off, so the guest clock advances 1 ns per
#                 guest instruction and in-VM timings are instruction
#                 counts (make bench's deterministic lane,
#                 Documentation/performance.rst)
#   -n            no kmem trace events on the command line (benchmarks:
#                 allocation-heavy paths measured without the probes)
#
# The run fails (exit 1..) when the script fails, on a timeout, or when the
# kernel log shows BUG:, WARNING:, Oops, Call Trace or general protection.
# The VM has 2 GiB of memory (-M) and 2 vCPUs (1 with -i); KVM is not used
# (-accel tcg).
#
# The kernel command line (Documentation/running.rst):
#   - a soft lockup, a hung task, an RCU stall or an oops panics the
#     kernel, and panic=-1 with qemu's -no-reboot ends the run at once
#     (status 125, "kernel failure"), naming the test that was running
#     (the last "# --- running NAME" line the script printed, or
#     run_kselftest.sh's "# selftests: DIR: NAME" line) instead of
#     waiting for the timeout;
#   - the kmem allocation trace events are enabled from boot and the
#     ring buffer is switched off before the script starts, so a test
#     only switches tracing_on and never enables or disables a
#     tracepoint at run time (that patches kernel text and waits for an
#     IPI answer from every vCPU, which under TCG can wait forever);
#   - init_on_alloc=0: the kernel does not zero new pages (Debian's
#     default zeroes them), so a page of simulated memory the module
#     publishes without filling shows its old bytes to a test.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
timeout=600
log="$top/build/vm/serial.log"
quiet=0
mem_mib=2048
data=()
kernel=
ko=
icount=0
kmem_events=1
kver=6.1
while getopts "t:l:qd:K:k:m:M:in" o; do
	case $o in
	t) timeout=$OPTARG ;;
	l) log=$OPTARG ;;
	q) quiet=1 ;;
	d) data+=("$OPTARG") ;;
	K) kver=$OPTARG ;;
	k) kernel=$OPTARG ;;
	m) ko=$OPTARG ;;
	M) mem_mib=$OPTARG ;;
	i) icount=1 ;;
	n) kmem_events=0 ;;
	*) sed -n '4,35p' "$0" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || { echo "usage: vm.sh [-t S] [-l LOG] [-q] [-d SRC:DEST]... [-K KVER] [-k KERNEL] [-m MODULE] [-M MIB] [-i] [-n] SCRIPT" >&2; exit 2; }
case $mem_mib in
''|*[!0-9]*) echo "vm.sh: -M '$mem_mib' is not a number of MiB" >&2; exit 2 ;;
esac
script=$1

if [ -z "$kernel" ] || [ -z "$ko" ]; then
	abi=$("$top/scripts/kabi.sh" "$kver") || exit 2
fi
kernel=${kernel:-$top/.cache/kernel/$abi/vmlinuz}
[ -f "$kernel" ] || { echo "vm.sh: $kernel missing: run scripts/deps.sh $kver" >&2; exit 2; }
ko=${ko:-$top/build/kmod/$abi/neuronsim.ko}
[ -f "$ko" ] || { echo "vm.sh: $ko missing: run make KVER=$kver module" >&2; exit 2; }
busybox=$(command -v busybox || echo /bin/busybox)
file "$busybox" 2>/dev/null | grep -q 'statically linked' ||
	busybox=/bin/busybox

work=$(mktemp -d "${TMPDIR:-/tmp}/nsim-vm.XXXXXX")
trap 'rm -rf "$work"' EXIT
root="$work/root"
mkdir -p "$root"/{bin,sbin,dev,proc,sys,tmp,data,lib/modules,etc}
cp "$busybox" "$root/bin/busybox"
cp "$ko" "$root/lib/modules/neuronsim.ko"
if [ -d "$top/build/vm/bin" ]; then
	cp -a "$top/build/vm/bin/." "$root/bin/"
fi
for d in "${data[@]+"${data[@]}"}"; do
	src=${d%%:*}
	dst=${d#*:}
	mkdir -p "$root/$(dirname "$dst")"
	cp -a "$src" "$root/$dst"
done
cp "$script" "$root/run.sh"
echo "root:x:0:0:root:/:/bin/sh" > "$root/etc/passwd"
echo "nobody:x:65534:65534:nobody:/:/bin/sh" >> "$root/etc/passwd"
echo "root:x:0:" > "$root/etc/group"
echo "nogroup:x:65534:" >> "$root/etc/group"

cat > "$root/init" <<'INIT'
#!/bin/busybox sh
/bin/busybox --install -s /bin
export PATH=/bin:/sbin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t debugfs debugfs /sys/kernel/debug
mount -t tmpfs tmpfs /tmp
echo 0 > /sys/kernel/debug/tracing/tracing_on 2>/dev/null
echo 0 > /proc/sys/kernel/printk_ratelimit 2>/dev/null
echo "NSIM_BEGIN"
cd /
sh /run.sh
rc=$?
echo "NSIM_END rc=$rc"
echo "NSIM_DMESG_BEGIN"
dmesg
echo "NSIM_DMESG_END"
sync
poweroff -f
INIT
chmod +x "$root/init"

(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1 > "$work/initrd.gz")

# See the header.  The events are those of 6.1's include/trace/events/kmem.h
# that allocate; trace_buf_size is per CPU.
cmdline="console=ttyS0 quiet loglevel=3 panic=-1 oops=panic rdinit=/init"
cmdline+=" softlockup_panic=1 hung_task_panic=1 sysctl.kernel.panic_on_rcu_stall=1"
cmdline+=" init_on_alloc=0"
# no_timer_check: under TCG on a loaded host the kernel's check that the
# IO-APIC timer ticks can fail and panic the boot ("IO-APIC + timer
# doesn't work!", seen with the host's load at 13); a virtual machine's
# timer is not the hardware that check is for (KVM guests skip it too)
cmdline+=" no_timer_check"
if [ $kmem_events = 1 ]; then
	cmdline+=" trace_event=kmem:kmalloc,kmem:kmem_cache_alloc,kmem:mm_page_alloc"
	cmdline+=" trace_buf_size=4M"
fi
# -i: one vCPU (a second one would interleave by host timing) and the
# instruction counter as the guest's clock
cpus=(-smp 2)
[ $icount = 0 ] || cpus=(-smp 1 -icount shift=0,sleep=off)

# The boot watchdog: under TCG a boot can, rarely, hang before init runs
# (seen once in a fresh root: the debug kernel's second vCPU never ran,
# no byte on the serial line for the whole 1500 s).  When init has not
# printed NSIM_BEGIN within boot_timeout seconds, qemu is stopped and the
# VM boots again, up to boot_attempts times; nothing of the tests has run
# by then, so a boot again is a clean retry, never a test's second
# chance.  How long boots take: Documentation/running.rst, "Timeouts".
boot_timeout=${NSIM_BOOT_TIMEOUT:-240}
boot_attempts=3
mkdir -p "$(dirname "$log")"
attempt=1
while :; do
	: > "$log"
	rm -f "$work/qemu.pid" "$work/boot"
	(
		t0=$SECONDS
		while [ $((SECONDS - t0)) -lt "$boot_timeout" ]; do
			sleep 1
			if grep -q '^NSIM_BEGIN$' "$log"; then
				echo $((SECONDS - t0)) > "$work/boot"
				exit 0
			fi
		done
		echo hung > "$work/boot"
		[ -f "$work/qemu.pid" ] && kill "$(cat "$work/qemu.pid")"
	) &
	watchdog=$!
	set +e
	timeout --foreground -k 5 "$timeout" \
		qemu-system-x86_64 -accel tcg -m "$mem_mib" "${cpus[@]}" -cpu max \
		-kernel "$kernel" -initrd "$work/initrd.gz" \
		-append "$cmdline" -pidfile "$work/qemu.pid" \
		-display none -monitor none -serial stdio -nic none -no-reboot \
		</dev/null 2>&1 | stdbuf -oL tr -d '\r' | tee "$log" |
		if [ $quiet = 1 ]; then cat >/dev/null; else
			sed -n '/^NSIM_BEGIN$/,/^NSIM_END/{/^NSIM_BEGIN$/d;/^NSIM_END/d;/^# --- running /d;p}'; fi
	qrc=${PIPESTATUS[0]}
	kill "$watchdog" 2>/dev/null
	wait "$watchdog" 2>/dev/null
	set -e
	if grep -q '^NSIM_BEGIN$' "$log"; then
		echo "# vm.sh: init ran $(cat "$work/boot" 2>/dev/null || echo '?') s after qemu started (boot $attempt)" >> "$log"
		break
	fi
	if [ "$(cat "$work/boot" 2>/dev/null)" = hung ]; then
		echo "vm.sh: boot $attempt of $boot_attempts: init did not run within ${boot_timeout}s (a TCG boot hang; $(wc -c < "$log") bytes on the serial line)" >&2
	else
		# qemu ended before init: the kernel stopped while booting
		echo "vm.sh: boot $attempt of $boot_attempts: the kernel stopped before init ran (qemu status $qrc): $(grep -m1 -oE 'Kernel panic - not syncing: .*' "$log" || echo "no panic line; $(wc -c < "$log") bytes on the serial line")" >&2
		[ $attempt -ge $boot_attempts ] && cat "$log" >&2
	fi
	if [ $attempt -ge $boot_attempts ]; then
		echo "vm.sh: no boot reached init in $boot_attempts attempts; serial log: $log" >&2
		exit 124
	fi
	attempt=$((attempt + 1))
done

if [ "$qrc" = 124 ] || [ "$qrc" = 137 ]; then
	running=$(sed -n 's/^# \(--- running \|selftests: \)//p' "$log" | tail -n 1)
	echo "vm.sh: timeout after ${timeout}s while running ${running:-(no test started)}; serial log: $log" >&2
	exit 124
fi
rc=$(sed -n 's/^NSIM_END rc=\([0-9]*\)$/\1/p' "$log" | tail -n 1)
if [ -z "$rc" ]; then
	running=$(sed -n 's/^# \(--- running \|selftests: \)//p' "$log" | tail -n 1)
	why=$(grep -m1 -oE 'Kernel panic - not syncing: .*|BUG: soft lockup.*|INFO: task .* blocked for more than.*|rcu: INFO: .*detected stalls.*' "$log" || true)
	if [ -n "$why" ]; then
		echo "vm.sh: kernel failure while running ${running:-(no test started)}: $why" >&2
		echo "vm.sh: serial log: $log" >&2
		grep -m1 -A40 -E 'BUG: |INFO: task|rcu: INFO|Kernel panic' "$log" >&2 || true
	else
		echo "vm.sh: the VM stopped before the script ended (qemu status $qrc), while running ${running:-(no test started)}; serial log: $log" >&2
		tail -n 40 "$log" >&2
	fi
	exit 125
fi
# Scan the kernel's own output: boot messages and the dmesg dumped after the
# script (the script's output in between is the tests' and may quote them).
if sed '/^NSIM_BEGIN$/,/^NSIM_END/d' "$log" |
	grep -nE 'BUG:|WARNING:|Oops|Call Trace|general protection' >&2; then
	echo "vm.sh: kernel log shows a BUG/WARNING/Oops; serial log: $log" >&2
	exit 126
fi
exit "$rc"
