#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench.sh - make bench: the five figures of Documentation/performance.rst,
# each a ratio (or count) measured in this one run, printed as
#   name: value (target ...) OK|MISS
# and written, with the machine, into Documentation/performance.rst
# between the "bench-table" markers.  Expects make all (make bench does
# it); builds bench/ itself.  Not part of make check.
#
#   1. callgrind: instructions per resolve (host build of
#      kmod/plan/resolve_core.h, 10^6 random lookups in a 10^6-var subgraph)
#   2. VM: RESOLVE / no-op ioctl; RESOLVE_BATCH(1024) per entry / RESOLVE
#   3. VM: load time per staged var at 10^4, 10^5, 10^6 vars, 1 and 4
#      loaders
#   4. VM: hot bytes per var, kernel bytes per var, backing RAM of a
#      4 GiB input + 20 GiB unwritten buffers plan
#   5. neuronsim-cc compile of a 100,000-var model / jq . of its def.json
#   6. BIR passes on generated modules of 10^4 and 10^5 instructions
#
# Environment: BENCH_SIZES="10000 100000 1000000" (load plan sizes),
# BENCH_NO_DOC=1 (do not rewrite Documentation/performance.rst).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
out=build/bench/run
rm -rf "$out"
mkdir -p "$out"
sizes=${BENCH_SIZES:-10000 100000 1000000}

make -s --no-print-directory -j2 bench-progs

rows=()
misses=0
# row NAME VALUE TARGET-TEXT OK(0/1)
row() {
	local verdict=OK
	[ "$4" = 1 ] || { verdict=MISS; misses=$((misses + 1)); }
	rows+=("$1: $2 ($3) $verdict")
	echo "$1: $2 ($3) $verdict"
}
# le A B: 1 when A <= B (floating point)
le() { awk -v a="$1" -v b="$2" 'BEGIN { print (a + 0 <= b + 0) ? 1 : 0 }'; }
lt() { awk -v a="$1" -v b="$2" 'BEGIN { print (a + 0 < b + 0) ? 1 : 0 }'; }
calc() { awk "BEGIN { printf \"$1\", $2 }"; }

echo "== 1. resolve instructions (callgrind)"
valgrind --tool=callgrind --callgrind-out-file="$out/callgrind.out" \
	build/bench/resolve_bench 1000000 1000000 > "$out/resolve.txt" 2> "$out/valgrind.log"
cat "$out/resolve.txt"
callgrind_annotate --inclusive=yes "$out/callgrind.out" > "$out/annotate.txt" 2>/dev/null
# inclusive Ir of all calls to a function and their count, from the
# caller's "=> file:function (Nx)" line (callgrind splits a function's own
# summary by source file when code is inlined into it)
incl() {
	awk -v f="=> [^ ]*:$1 [(]" '$0 ~ f {
		gsub(",", "", $1); c = $NF; gsub("[(x),]", "", c); print $1, c; exit }' \
		"$out/annotate.txt"
}
read -r ir_res calls < <(incl bench_resolve)
read -r ir_lr _ < <(incl loop_resolve)
read -r ir_le _ < <(incl loop_empty)
lookups=$calls
per=$(calc "%.2f" "$ir_res / $lookups")
perloop=$(calc "%.2f" "($ir_lr - $ir_le) / $lookups")
echo "inclusive Ir of bench_resolve: $ir_res in $calls calls; loop difference: $((ir_lr - ir_le))"
ok=$(le "$per" 30)
grep -q '^checksum ok' "$out/resolve.txt" || ok=0
row "resolve instructions per lookup (callgrind inclusive; loop-diff $perloop)" \
	"$per" "target <= 30, libnrt ~50" "$ok"

echo "== 5. compiler vs jq"
build/bench/gen_model 100000 "$out/model.neff" "$out/model" > "$out/gen.txt"
cat "$out/gen.txt"
cc=build/bin/neuronsim-cc
def="$out/model/sg00/def.json"
secs() { local t0 t1; t0=$(date +%s.%N); "$@" > /dev/null; t1=$(date +%s.%N); calc "%.4f" "$t1 - $t0"; }
rd=()
rn=()
for i in 1 2 3; do
	tj=$(secs jq . "$def")
	td=$(secs "$cc" compile "$out/model" -o "$out/model_dir.kbin")
	tn=$(secs "$cc" compile "$out/model.neff" -o "$out/model_neff.kbin")
	echo "round $i: jq ${tj}s, compile dir ${td}s, compile neff ${tn}s"
	rd+=("$(calc "%.3f" "$td / $tj")")
	rn+=("$(calc "%.3f" "$tn / $tj")")
done
med() { printf '%s\n' "$@" | sort -g | sed -n 2p; }
cmp -s "$out/model_dir.kbin" "$out/model_neff.kbin" ||
	{ echo "bench.sh: the directory and NEFF forms compile differently" >&2; exit 1; }
ccdir=$(med "${rd[@]}")
ccneff=$(med "${rn[@]}")

echo "== 2-4. in the VM"
echo "$sizes" > "$out/scale"
bash scripts/vm.sh -t 1200 -l "$out/serial.log" \
	-d bench/vm_bench.sh:/bench/vm_bench.sh -d "$out/scale:/bench/scale" \
	-d build/vm/bench/nsim_bench:/bin/nsim_bench bench/vm_bench.sh \
	| tee "$out/vm.txt" || echo "bench.sh: the VM run failed ($?)" >&2
v() { sed -n "s/^$1 //p" "$out/vm.txt" | tail -n 1; }
if grep -q '^bench_error' "$out/vm.txt"; then
	grep '^bench_error' "$out/vm.txt" >&2
fi

r=$(v ioctl.resolve_over_noop)
row "RESOLVE / no-op ioctl, same fd ($(v ioctl.resolve_ns) / $(v ioctl.noop_ns) ns, $(v ioctl.ioctl_vars) vars; $(v ioctl_small.resolve_over_noop) at $(v ioctl_small.ioctl_vars) vars)" \
	"${r:-n/a}" "target <= 1.25" "$( [ -n "$r" ] && le "$r" 1.25 || echo 0)"
r=$(v ioctl.batch_over_resolve)
row "RESOLVE_BATCH(1024) per entry / RESOLVE ($(v ioctl.batch_entry_ns) ns per entry; $(v ioctl_small.batch_over_resolve) at $(v ioctl_small.ioctl_vars) vars)" \
	"${r:-n/a}" "target <= 0.05" "$( [ -n "$r" ] && le "$r" 0.05 || echo 0)"

for l in 1 4; do
	prev=
	for n in $sizes; do
		t=$(v "load.$l.$n.load_ns_per_var")
		echo "load, $l loader(s), $n vars: ${t:-n/a} ns per var"
		if [ -n "$prev" ]; then
			if [ -n "$t" ] && [ -n "$pt" ]; then
				g=$(calc "%.3f" "$t / $pt")
				ok=$(le "$g" 1.2)
			else
				g=n/a
				ok=0
			fi
			row "load time per var, $l loader(s), $n / $prev vars ($pt -> ${t:-n/a} ns)" \
				"$g" "target <= 1.2 per 10x" "$ok"
		fi
		prev=$n
		pt=$t
	done
done

hot=$(v mem.hot_bytes_per_var)
row "hot bytes per var: mem_ref + bucket share ($(v mem.buckets) buckets, $(v mem.mem_vars) vars)" \
	"${hot:-n/a}" "target <= 64, libnrt mem_ref_t 208" "$( [ -n "$hot" ] && le "$hot" 64 || echo 0)"
km=$(v mem.kmem_per_var)
ms=$(v mem.measured_per_var)
mf=$(v mem.memfree_per_var)
if [ -n "$km" ] && [ -n "$ms" ]; then
	worst=$(awk -v a="$km" -v b="$ms" 'BEGIN { printf "%.2f", (a + 0 > b + 0) ? a : b }')
	xr=$(calc "%.3f" "$ms / $km")
	ok=$(le "$worst" 228)
	# the module's accounting must agree with the kernel's counters
	[ "$(le "$xr" 1.10)" = 1 ] && [ "$(le 0.95 "$xr")" = 1 ] || ok=0
else
	worst=n/a
	xr=n/a
	ok=0
fi
row "kernel bytes per loaded var (kmem_bytes $km; vmalloc+slab $ms, ratio $xr; MemFree $mf)" \
	"$worst" "target <= 228 = 1.5 x 152" "$ok"
bk=$(v backing.backing_bytes)
row "backing RAM, 4 GiB input + 20 GiB unwritten buffers (bytes)" \
	"${bk:-n/a}" "target < 8388608" "$( [ -n "$bk" ] && lt "$bk" 8388608 || echo 0)"

row "neuronsim-cc compile of a 100,000-var extracted NEFF dir / jq . def.json (NEFF file: $ccneff)" \
	"$ccdir" "target <= 1.0" "$(le "$ccdir" 1.0)"

# 6. BIR passes at 10^4 and 10^5 instructions (bench/bir_bench.c)
echo "== 6. BIR passes on generated modules"
bir_v() { sed -n "s/^$2 //p" "$out/bir_$1.txt"; }
bir_ok=1
for n in 10000 100000; do
	build/bench/bir_bench $n 1000 > "$out/bir_$n.txt" 2> "$out/bir_$n.err" || bir_ok=0
	cat "$out/bir_$n.txt" "$out/bir_$n.err"
done
if [ $bir_ok = 1 ]; then
	bt=$(calc "%.2f" "$(bir_v 100000 total_s) / $(bir_v 10000 total_s)")
	bm=$(calc "%.2f" "$(bir_v 100000 maxrss_kb) / $(bir_v 10000 maxrss_kb)")
	bp=$(bir_v 100000 peak_bytes_per_inst)
else
	bt=n/a
	bm=n/a
	bp=n/a
fi
row "BIR parse + all passes + lowering, 10^5 / 10^4 instructions, 10^3 NKI/BIR calls ($(bir_v 10000 total_s) -> $(bir_v 100000 total_s) s; passes $(bir_v 10000 passes_s) -> $(bir_v 100000 passes_s) s)" \
	"$bt" "target <= 12 for 10x" "$( [ $bir_ok = 1 ] && le "$bt" 12 || echo 0)"
row "BIR peak memory (ru_maxrss), 10^5 / 10^4 instructions ($(bir_v 10000 maxrss_kb) -> $(bir_v 100000 maxrss_kb) KiB)" \
	"$bm" "target <= 12 for 10x" "$( [ $bir_ok = 1 ] && le "$bm" 12 || echo 0)"
row "BIR peak bytes per instruction (ru_maxrss x 1024 / instructions), 10^5 instructions (10^4: $(bir_v 10000 peak_bytes_per_inst))" \
	"$bp" "target <= 2048" "$( [ $bir_ok = 1 ] && le "$bp" 2048 || echo 0)"

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
{
	echo "Host: $(nproc) CPUs ($cpu), kernel $(uname -r), $(date -u +%Y-%m-%d)."
	echo "VM: qemu TCG (no KVM), $(v vm_nproc) vCPUs, 2 GiB, kernel $(v vm_kernel), arch=trn2."
	echo "Load sizes: $sizes vars."
} > "$out/machine.txt"

echo
echo "== make bench: $((${#rows[@]} - misses)) OK, $misses MISS"
cat "$out/machine.txt"
printf '%s\n' "${rows[@]}" > "$out/table.txt"

if [ -z "${BENCH_NO_DOC:-}" ] && [ -f Documentation/performance.rst ]; then
	awk -v table="$out/table.txt" -v machine="$out/machine.txt" '
		/^\.\. bench-table-begin/ {
			print
			print ""
			while ((getline l < machine) > 0) print l
			print ""
			print "::"
			print ""
			while ((getline l < table) > 0) print "  " l
			print ""
			skip = 1
			next
		}
		/^\.\. bench-table-end/ { skip = 0 }
		!skip' Documentation/performance.rst > "$out/performance.rst"
	cp "$out/performance.rst" Documentation/performance.rst
	echo "(table written to Documentation/performance.rst)"
fi
exit 0
